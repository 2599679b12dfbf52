"""The distribution's metadata: an MIT licence, with its text in the repository."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_license_file_matches_the_declared_license() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    # The SPDX string form (PEP 639): setuptools warns about the old ``{text = ...}`` table.
    assert project["license"] == "MIT" and project["license-files"] == ["LICENSE"]
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License") and "Permission is hereby granted, free of charge" in text


def test_the_readme_names_the_api_reference_and_the_new_commands() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for needle in ("docs/API.md", "/api/docs", "ludotheque games", "ludotheque --version", "LICENSE"):
        assert needle in readme, needle
