"""Starting the server on a database that cannot be used ends in one clear line and exit 1,
never a traceback from uvicorn's startup: ``ludotheque serve`` and ``python -m ludotheque.server``.

``ludotheque serve --config FILE``: every setting from a TOML file, under the LUDOTHEQUE_*
variables, under the options; a bad file is one line naming the file and the key; uvicorn gets
the proxy settings (``forwarded_allow_ips``) and the graceful stop's bound."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from typer.testing import CliRunner

from ludotheque.cli.main import app
from tests.support.server import free_port

UNUSABLE = {
    "unknown kind": ("bogus://x", "unknown kind of database 'bogus'"),
    "unreachable PostgreSQL": (f"postgresql://u:p@127.0.0.1:{free_port()}/db", "cannot open the database"),
    "folder not creatable": ("sqlite:////proc/ludotheque/x.db", "cannot create the database's folder"),
}


@pytest.mark.parametrize(("url", "words"), list(UNUSABLE.values()), ids=list(UNUSABLE))
def test_serve_refuses_an_unusable_database_in_one_line(url: str, words: str) -> None:
    result = CliRunner().invoke(app, ["serve", "--db", url, "--port", str(free_port())])
    assert result.exit_code == 1, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("ludotheque serve: ") and words in lines[0], result.stderr
    assert "Traceback" not in result.output and "http://" not in result.output
    assert ":p@" not in result.stderr  # no password shown


def test_the_server_module_refuses_an_unusable_database_in_one_line() -> None:
    finished = subprocess.run(
        [sys.executable, "-m", "ludotheque.server", "--db", "bogus://x", "--port", str(free_port())],
        capture_output=True, text=True, timeout=60,
    )
    assert finished.returncode == 1
    assert finished.stderr.strip().splitlines() == [
        "python -m ludotheque.server: unknown kind of database 'bogus': "
        "expected sqlite:///PATH or postgresql://USER:PASSWORD@HOST/DB"
    ]


# -- ludotheque serve --config FILE -------------------------------------------------------------------
SETTINGS = ("DB", "PORT", "HOST", "WORKERS", "CREATE_LIMIT", "FORWARDED_ALLOW_IPS", "PUBLIC_URL", "REDIS",
            "SMTP", "BOTS", "ORIGINS", "ANALYSIS_LIMIT", "ANALYSIS_BUDGET", "ANALYSIS_ENGINE",
            "ANALYSIS_LEASE_S", "HINTS")
CLEAN: dict[str, str | None] = {f"LUDOTHEQUE_{name}": None for name in SETTINGS}


class Served:
    """What ``ludotheque serve`` would have served (uvicorn itself replaced)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls: list[dict[str, Any]] = []
        monkeypatch.setattr(uvicorn, "run", self.run)

    def run(self, app: object, **options: Any) -> None:
        self.calls.append({"app": app, **options})


def write(path: Path, text: str) -> Path:
    path.write_text(text, "utf-8")
    return path


def test_settings_come_from_the_file_then_the_environment_then_the_options(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    served = Served(monkeypatch)
    config = write(tmp_path / "ludotheque.toml", f'''
host = "127.0.0.5"
port = 8001
db = "sqlite:///{tmp_path / 'from-file.db'}"
forwarded_allow_ips = ["10.0.0.1", "10.0.0.2"]
public_url = "https://games.example.org"
create_limit = "5/minute"
chat_limit = false
graceful_timeout = 12
''')
    env = {**CLEAN, "LUDOTHEQUE_PORT": "8002", "LUDOTHEQUE_CREATE_LIMIT": "7/minute"}
    result = CliRunner().invoke(app, ["serve", "--config", str(config), "--port", "8003"], env=env)
    assert result.exit_code == 0, result.output
    (call,) = served.calls
    assert (call["host"], call["port"]) == ("127.0.0.5", 8003)  # file, then option over the variable
    assert call["proxy_headers"] is True and call["forwarded_allow_ips"] == "10.0.0.1,10.0.0.2"
    assert call["timeout_graceful_shutdown"] == 12
    assert "from-file.db" in result.stderr  # the file's database (the settings: the next test)

    result = CliRunner().invoke(app, ["serve", "--config", str(config), "--forwarded-allow-ips", "127.0.0.9"],
                                env={**env, "LUDOTHEQUE_FORWARDED_ALLOW_IPS": "10.9.9.9"})
    assert result.exit_code == 0, result.output
    assert served.calls[-1]["port"] == 8002 and served.calls[-1]["forwarded_allow_ips"] == "127.0.0.9"


def test_the_file_reaches_the_server_settings(tmp_path: Path) -> None:
    from ludotheque.server.config import layered_settings
    from ludotheque.server.run import listening, prepare

    config = write(tmp_path / "ludotheque.toml", f'''
db = "sqlite:///{tmp_path / 'x.db'}"
create_limit = "5/minute"
chat_limit = false
origins = ["https://club.example"]
public_url = "https://games.example.org"
forwarded_allow_ips = "10.0.0.1"
workers = 1
''')
    env = layered_settings(config, {"LUDOTHEQUE_CREATE_LIMIT": "7/minute"})
    assert listening(env) == ("127.0.0.1", 8000, 1)
    url, settings = prepare(None, env=env)
    assert url.endswith("x.db")
    assert settings.create_limit == "7/minute" and settings.chat_limit is None
    assert settings.allowed_origins == ("https://club.example", "https://games.example.org")
    assert settings.forwarded_allow_ips == "10.0.0.1" and settings.public_url == "https://games.example.org"
    _, chosen = prepare(None, env=env, forwarded_allow_ips="127.0.0.1, 127.0.0.2")
    assert chosen.forwarded_allow_ips == "127.0.0.1,127.0.0.2"


def test_the_analyses_settings_of_the_file_reach_the_app(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from ludotheque.server.analysis_jobs import AnalysisSettings

    served = Served(monkeypatch)
    config = write(tmp_path / "ludotheque.toml", f'''
db = "sqlite:///{tmp_path / 'a.db'}"
analysis_limit = 2
analysis_budget = 0.5
analysis_engine = "plain"
analysis_lease_s = 12
hints = 1
''')
    result = CliRunner().invoke(app, ["serve", "--config", str(config)],
                                env={**CLEAN, "LUDOTHEQUE_HINTS": "4"})  # the variable over the file
    assert result.exit_code == 0, result.output
    (call,) = served.calls
    assert call["app"].state.analysis_settings == AnalysisSettings(
        per_person=2, budget=0.5, engine="plain", hints=4, lease_s=12.0)
    bad = write(tmp_path / "bad.toml", 'analysis_engine = "gpu"\n')
    refused = CliRunner().invoke(app, ["serve", "--config", str(bad)], env=CLEAN)
    assert refused.exit_code == 1 and "LUDOTHEQUE_ANALYSIS_ENGINE must be kernel or plain" in refused.stderr
    assert not served.calls[1:]  # refused before serving


BAD_FILES = {
    "unknown key": ('prot = 8000\n', ["unknown key 'prot' in", "did you mean 'port'?"]),
    "wrong type": ('port = "eighty"\n', ["key 'port' in", "must be a whole number"]),
    "not TOML": ('port = \n', ["is not valid TOML"]),
    "bad port": ('port = 70000\n', ["must be a TCP port"]),
    "bad number": ('waiting_days = "x"\n', ["key 'waiting_days'", "must be a number"]),
}


@pytest.mark.parametrize(("text", "words"), list(BAD_FILES.values()), ids=list(BAD_FILES))
def test_a_bad_configuration_file_is_one_clear_line(tmp_path: Path, text: str, words: list[str]) -> None:
    config = write(tmp_path / "bad.toml", text)
    result = CliRunner().invoke(app, ["serve", "--config", str(config)], env=CLEAN)
    assert result.exit_code == 1, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("ludotheque serve: "), result.stderr
    for word in words:
        assert word in lines[0], lines[0]
    assert "Traceback" not in result.output


def test_a_missing_configuration_file_is_named(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["serve", "--config", str(tmp_path / "none.toml")], env=CLEAN)
    assert result.exit_code == 1
    assert "cannot read the configuration file" in result.stderr and "none.toml" in result.stderr


def test_a_bad_variable_is_one_clear_line() -> None:
    result = CliRunner().invoke(app, ["serve"], env={**CLEAN, "LUDOTHEQUE_PORT": "http"})
    assert result.exit_code == 1
    assert result.stderr.strip() == "ludotheque serve: LUDOTHEQUE_PORT must be a whole number, not 'http'"


def test_every_key_is_documented_and_in_the_example() -> None:
    from ludotheque.server.config import CONFIG_KEYS, read_config

    root = Path(__file__).resolve().parents[2]
    operations = (root / "docs" / "operations.md").read_text("utf-8")
    example = (root / "deploy" / "ludotheque.toml").read_text("utf-8")
    for key in CONFIG_KEYS:
        assert f"`{key}`" in operations, key
        assert f"{key} =" in example, key
    read_config(root / "deploy" / "ludotheque.toml")
    result = CliRunner().invoke(app, ["serve", "--help"], env={"COLUMNS": "200"})
    assert "--config" in result.output and "--forwarded-allow-ips" in result.output


def test_several_workers_get_the_file_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from ludotheque.server import run
    from ludotheque.server.config import ServerSettings

    for variable in ("LUDOTHEQUE_DB", "LUDOTHEQUE_REDIS", "LUDOTHEQUE_BOTS", "LUDOTHEQUE_CREATE_LIMIT",
                     "LUDOTHEQUE_PUBLIC_URL", "PROMETHEUS_MULTIPROC_DIR"):
        monkeypatch.setenv(variable, "")  # so that what serve_checked sets is undone after the test
        monkeypatch.delenv(variable)
    monkeypatch.setenv("LUDOTHEQUE_PUBLIC_URL", "https://env.example")
    served = Served(monkeypatch)
    seen: dict[str, str | None] = {}

    def remember(*_: object, **options: Any) -> None:
        for name in ("LUDOTHEQUE_CREATE_LIMIT", "LUDOTHEQUE_PUBLIC_URL"):
            seen[name] = os.environ.get(name)
        served.calls.append(options)

    monkeypatch.setattr(uvicorn, "run", remember)
    file_env = {"LUDOTHEQUE_CREATE_LIMIT": "5/minute", "LUDOTHEQUE_PUBLIC_URL": "https://file.example"}
    settings = ServerSettings(redis="redis://127.0.0.1:1/0", forwarded_allow_ips="10.0.0.1")
    url = "postgresql+psycopg://u:p@127.0.0.1:1/db"
    run.serve_checked("127.0.0.1", free_port(), url, settings, workers=2, env={**file_env, **os.environ})
    assert seen == {"LUDOTHEQUE_CREATE_LIMIT": "5/minute", "LUDOTHEQUE_PUBLIC_URL": "https://env.example"}
    assert served.calls[-1]["workers"] == 2 and served.calls[-1]["forwarded_allow_ips"] == "10.0.0.1"
