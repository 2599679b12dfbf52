"""``ludotheque doctor --config FILE`` checks the setup the server runs with: the file's database
(and Redis, SMTP), under the options and variables as for ``serve``, and a first ``config`` line
saying whether the file reads."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner, Result

from ludotheque.cli.main import app

from .parts import Serve, free_port, server_config

CLEAN: dict[str, str | None] = {"LUDOTHEQUE_DB": None, "LUDOTHEQUE_REDIS": None, "LUDOTHEQUE_SMTP": None}


def doctor(*args: str, env: dict[str, str | None] | None = None) -> Result:
    return CliRunner().invoke(app, ["doctor", "--json", *args], env={**CLEAN, **(env or {})})


def checks(result: Result) -> dict[str, dict[str, str]]:
    return {check["name"]: check for check in json.loads(result.stdout)["checks"]}


def test_doctor_checks_the_database_of_the_file_the_server_runs_with(tmp_path: Path) -> None:
    port = free_port()
    config = server_config(tmp_path / "ludotheque.toml", port=port, db=f"sqlite:///{tmp_path / 'games.db'}")
    with Serve(config, port, tmp_path / "serve.log") as server:  # it makes and migrates the database
        result = doctor("--config", str(config), "--public-url", server.url)
    assert result.exit_code == 0, result.output
    found = checks(result)
    assert found["config"]["status"] == "ok" and "port, db" in found["config"]["detail"]
    assert found["database"]["status"] == "ok" and "games.db" in found["database"]["detail"]
    assert found["migrations"]["status"] == "ok" and found["public-url"]["status"] == "ok"


def test_options_and_variables_win_over_the_file(tmp_path: Path) -> None:
    config = server_config(tmp_path / "ludotheque.toml", db=f"sqlite:///{tmp_path / 'from-file.db'}",
                           redis=f"redis://127.0.0.1:{free_port()}/0")
    from_env: dict[str, str | None] = {"LUDOTHEQUE_DB": f"sqlite:///{tmp_path / 'env.db'}"}
    by_variable = checks(doctor("--config", str(config), env=from_env))
    assert "env.db" in by_variable["database"]["detail"]
    assert by_variable["redis"]["status"] == "problem"  # the file's Redis, checked
    by_option = checks(doctor("--config", str(config), "--db", f"sqlite:///{tmp_path / 'option.db'}",
                              env=from_env))
    assert "option.db" in by_option["database"]["detail"]


def test_a_bad_file_is_a_problem_that_names_the_key(tmp_path: Path) -> None:
    config = tmp_path / "bad.toml"
    config.write_text('port = 8000\nworkrs = 2\n', "utf-8")
    result = doctor("--config", str(config))
    assert result.exit_code == 1
    check = checks(result)["config"]
    assert check["status"] == "problem" and "unknown key 'workrs'" in check["detail"], check
    assert "did you mean 'workers'?" in check["detail"] and "docs/operations.md" in check["fix"]
    text = CliRunner().invoke(app, ["doctor", "--config", str(config)], env=CLEAN)
    assert text.stdout.splitlines()[0].startswith("PROBLEM  config      unknown key 'workrs' in ")
