"""deploy/ludotheque.service passes ``systemd-analyze verify`` (where systemd-analyze exists), with
the program path it names replaced by this checkout's (the unit expects /opt/ludotheque), and
says what docs/operations.md promises: restart on failure, a graceful stop by SIGTERM, the
configuration file for both doctor and serve."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "deploy" / "ludotheque.service"
PROGRAM = "/opt/ludotheque/.venv/bin/ludotheque"


def directives(text: str) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for line in text.splitlines():
        if line.strip() and not line.startswith(("#", "[")):
            name, _, value = line.partition("=")
            found.setdefault(name.strip(), []).append(value.strip())
    return found


def test_the_unit_says_what_the_documentation_promises() -> None:
    unit = directives(UNIT.read_text("utf-8"))
    assert unit["Restart"] == ["on-failure"] and unit["KillSignal"] == ["SIGTERM"]
    assert unit["ExecStart"] == [f"{PROGRAM} serve --config /etc/ludotheque/ludotheque.toml"]
    assert unit["ExecStartPre"] == [f"-{PROGRAM} doctor --config /etc/ludotheque/ludotheque.toml"]
    # uvicorn's graceful wait (graceful_timeout, 20 s by default) ends before systemd kills.
    assert int(unit["TimeoutStopSec"][0]) > 20


def test_systemd_analyze_verify_passes(tmp_path: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed (Debian: the systemd package)")
    program = Path(sys.executable).parent / "ludotheque"
    assert program.exists(), program
    unit = tmp_path / "ludotheque.service"
    text = UNIT.read_text("utf-8")
    assert PROGRAM in text
    unit.write_text(text.replace(PROGRAM, str(program)), "utf-8")
    verified = subprocess.run([analyze, "verify", "--man=no", str(unit)], capture_output=True, text=True,
                              timeout=60)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    noise = [line for line in (verified.stdout + verified.stderr).splitlines() if "ludotheque" in line]
    assert not noise, noise
