"""Starting the server on a database that cannot be used ends in one clear line and exit 1,
never a traceback from uvicorn's startup: ``ludotheque serve`` and ``python -m ludotheque.server``."""

from __future__ import annotations

import subprocess
import sys

import pytest
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
