"""docs/observability.md names every metric the server exposes; the Grafana dashboard and the
alerting rules parse and use only those metrics; the new endpoints are in docs/API.md and
``ludotheque serve`` takes ``--log-format``."""

from __future__ import annotations

import json
import re
from pathlib import Path

import yaml  # type: ignore[import-untyped]
from typer.testing import CliRunner

from ludotheque.server import metrics

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "observability.md").read_text("utf-8")
DASHBOARD = ROOT / "deploy" / "grafana-dashboard.json"
ALERTS = ROOT / "deploy" / "alerts.yml"
SUFFIXES = ("_total", "_bucket", "_count", "_sum")
NAME = re.compile(r"\bludotheque_[a-z_]+")


def families() -> dict[str, str]:
    """Every family the server exposes: name -> type."""
    return {family.name: family.type for family in metrics.REGISTRY.collect()}


def known(name: str) -> bool:
    exposed = families()
    return name in exposed or any(name.endswith(end) and name[: -len(end)] in exposed for end in SUFFIXES)


def test_every_metric_is_documented_with_its_type() -> None:
    for name, kind in families().items():
        if name.startswith("ludotheque_process_"):
            assert "`ludotheque_process_*`" in DOC
            continue
        shown = f"{name}_total" if kind == "counter" else name
        row = re.search(rf"^\| `{shown}` \| (\w+) \|", DOC, re.MULTILINE)
        assert row, f"{shown} is not in docs/observability.md's table"
        assert row.group(1) == kind, (shown, row.group(1), kind)


def test_the_documented_metrics_exist() -> None:
    cookies = {"ludotheque_seat_", "ludotheque_session"}
    for name in set(NAME.findall(DOC)) - {"ludotheque_process_"} - cookies:
        assert known(name), name


def test_the_dashboard_shows_the_figures_asked_for() -> None:
    dashboard = json.loads(DASHBOARD.read_text("utf-8"))
    expressions = [target["expr"] for panel in dashboard["panels"] for target in panel.get("targets", [])]
    used = {name for expr in expressions for name in NAME.findall(expr)}
    assert all(known(name) for name in used), {name for name in used if not known(name)}
    for needed in ("ludotheque_http_requests_total", "ludotheque_http_request_duration_seconds_bucket",
                   "ludotheque_moves_total", "ludotheque_games", "ludotheque_websockets_open",
                   "ludotheque_websocket_readers_dropped_total", "ludotheque_bot_queue",
                   "ludotheque_bot_think_seconds_bucket", "ludotheque_db_query_seconds_bucket",
                   "ludotheque_redis_seconds_bucket"):
        assert needed in used, needed
    assert any("histogram_quantile(0.99" in expr and "route" in expr for expr in expressions)
    assert any("histogram_quantile(0.5" in expr and "route" in expr for expr in expressions)


def test_the_alerts_are_rules_on_exposed_metrics() -> None:
    rules = yaml.safe_load(ALERTS.read_text("utf-8"))["groups"][0]["rules"]
    assert len(rules) >= 8
    for rule in rules:
        assert {"alert", "expr", "labels", "annotations"} <= set(rule), rule
        assert rule["labels"]["severity"] in ("warning", "critical")
        assert rule["annotations"]["summary"] and rule["annotations"]["description"]
        assert all(known(name) for name in NAME.findall(rule["expr"])), rule["expr"]
        assert f"`{rule['alert']}`" in DOC, rule["alert"]


def test_the_new_endpoints_are_in_the_api_reference() -> None:
    reference = (ROOT / "docs" / "API.md").read_text("utf-8")
    for endpoint in ("`GET /metrics`", "`GET /health`", "`GET /ready`"):
        assert endpoint in reference, endpoint
    assert "observability.md" in reference


def test_serve_takes_a_log_format() -> None:
    from ludotheque.cli.main import app

    result = CliRunner().invoke(app, ["serve", "--help"], env={"COLUMNS": "200"})
    assert "--log-format" in result.output
