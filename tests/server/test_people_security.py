"""Security headers on every answer (Content-Security-Policy with frame-ancestors, X-Frame-Options,
Referrer-Policy), and the API reference (/api/docs) served from this server's own files: it works
with no internet. On SQLite and PostgreSQL."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from .helpers import create


def policy_of(answer: object) -> dict[str, str]:
    """The Content-Security-Policy of an answer: directive -> its sources."""
    header: str = answer.headers["content-security-policy"]  # type: ignore[attr-defined]
    parts = (part.strip().partition(" ") for part in header.split(";") if part.strip())
    return {name: sources for name, _, sources in parts}


def test_every_answer_carries_the_security_headers(client: TestClient) -> None:
    game = create(client)["id"]
    for path in ("/", f"/play/{game}", "/account", "/api/catalog", "/static/css/style.css",
                 "/api/games/nothing-here", "/openapi.json"):
        answer = client.get(path)
        assert answer.headers["x-frame-options"] == "DENY", path
        assert answer.headers["referrer-policy"] == "same-origin", path
        assert answer.headers["x-content-type-options"] == "nosniff", path
        policy = policy_of(answer)
        assert policy["default-src"] == "'self'" and policy["frame-ancestors"] == "'none'", path
        assert policy["script-src"] == "'self'" and policy["object-src"] == "'none'", path
        assert "unsafe" not in answer.headers["content-security-policy"], path


def test_the_api_reference_needs_no_internet(client: TestClient) -> None:
    page = client.get("/api/docs")
    assert page.status_code == 200 and "swagger-ui" in page.text
    assert policy_of(page)["img-src"] == "'self' data:"  # Swagger UI's icons
    urls = re.findall(r'(?:src|href)="([^"]+)"', page.text)
    scripts = re.findall(r'<script src="([^"]+)"', page.text)
    styles = re.findall(r'<link rel="stylesheet" href="([^"]+)"', page.text)
    assert len(scripts) == 2 and len(styles) == 1
    assert "<script>" not in page.text  # no inline script: the policy allows none
    for url in urls:
        assert url.startswith("/"), url  # nothing from another host
        assert client.get(url).status_code == 200, url
    assert "SwaggerUIBundle" in client.get(scripts[0]).text
    assert "/openapi.json" in client.get(scripts[1]).text
    assert client.get("/openapi.json").json()["info"]["title"] == "Ludothèque"
