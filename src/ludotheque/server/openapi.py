"""The API reference at ``/api/docs`` (Swagger UI, served from the ``swagger-ui-bundle-v2`` package:
it works with no internet, under the pages' Content-Security-Policy), and the request schemas of
bodies the handlers read by hand (to answer 400, never 422).

A handler that reads its body itself declares no body parameter, so FastAPI would document
none: ``request_body(Model)`` gives the operation's ``openapi_extra`` instead, with the model's
JSON schema self-contained (its ``$defs`` inlined, since a path's schema cannot reach them).

>>> from ludotheque.server.schemas import CreateGame
>>> schema = request_body(CreateGame)["requestBody"]["content"]["application/json"]["schema"]
>>> [option["properties"]["type"]["const"] for option in schema["properties"]["clock"]["anyOf"][0]["oneOf"]]
['fischer', 'correspondence']
>>> "$defs" in schema
False
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.responses import HTMLResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel
from swagger_ui_bundle import swagger_ui_path  # type: ignore[import-untyped]

REF_PREFIX = "#/$defs/"
DOCS_PATH = "/api/docs"
# Swagger UI's own files (its bundle and CSS), and the script that starts it: no inline script.
DOCS_ASSETS = f"{DOCS_PATH}/assets"
DOCS_START = f"{DOCS_PATH}/start.js"
_DOCS_PAGE = f"""<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Ludothèque — API</title>
  <link rel="stylesheet" href="{DOCS_ASSETS}/swagger-ui.css">
  <link rel="icon" href="/static/img/logo.svg" type="image/svg+xml">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="{DOCS_ASSETS}/swagger-ui-bundle.js"></script>
  <script src="{DOCS_START}"></script>
</body>
</html>
"""
_DOCS_START = """window.ui = SwaggerUIBundle({
  url: "/openapi.json",
  dom_id: "#swagger-ui",
  deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIBundle.SwaggerUIStandalonePreset],
  layout: "BaseLayout",
});
"""


def mount_docs(app: FastAPI) -> None:
    """``/api/docs``: Swagger UI from the package's files (``FastAPI(docs_url=None)``)."""

    @app.get(DOCS_PATH, include_in_schema=False)
    async def docs() -> HTMLResponse:
        return HTMLResponse(_DOCS_PAGE)

    @app.get(DOCS_START, include_in_schema=False)
    async def docs_start() -> Response:
        return Response(_DOCS_START, media_type="text/javascript")

    app.mount(DOCS_ASSETS, StaticFiles(directory=str(swagger_ui_path)), name="docs-assets")


def request_body(model: type[BaseModel]) -> dict[str, Any]:
    """``openapi_extra`` declaring a required JSON body of ``model``'s shape."""
    schema = model.model_json_schema()
    definitions = schema.pop("$defs", {})
    return {
        "requestBody": {
            "required": True,
            "content": {"application/json": {"schema": _inlined(schema, definitions)}},
        }
    }


def _inlined(node: Any, definitions: dict[str, Any]) -> Any:
    """``node`` with every ``{"$ref": "#/$defs/X"}`` replaced by X's schema."""
    if isinstance(node, list):
        return [_inlined(item, definitions) for item in node]
    if not isinstance(node, dict):
        return node
    reference = node.get("$ref")
    if isinstance(reference, str) and reference.startswith(REF_PREFIX):
        return _inlined(definitions[reference.removeprefix(REF_PREFIX)], definitions)
    inlined = {key: _inlined(value, definitions) for key, value in node.items()}
    discriminator = inlined.get("discriminator")
    if isinstance(discriminator, dict):  # its mapping names $defs that are now inlined
        inlined["discriminator"] = {k: v for k, v in discriminator.items() if k != "mapping"}
    return inlined
