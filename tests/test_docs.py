"""The repository stands alone: code, tests, benchmarks and scripts point only to files inside it.

Every ``docs/<name>.md`` they (or the README) name exists, no file refers to a path outside the
repository, and every "docs/style.md §N" cited has a section N in ``docs/style.md``
(docs/style.md §10).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
SCANNED = ("src", "tests", "benchmarks", "scripts")
# Generated or installed folders: not the repository's own text.
SKIPPED_DIRS = {"__pycache__", "node_modules", ".pytest_cache", ".mypy_cache", ".ruff_cache",
                ".hypothesis", "build", "dist"}
# Paths outside the repository that the code once pointed to: the notes of the project's
# birth, kept beside the repository, never in it. Spelled in pieces so that this file, which
# names them, does not match them. The two notes count only in capitals (docs/design.md and
# docs/style.md are the repository's own).
OUTSIDE = [
    re.compile(re.escape(".." + "/shared")),
    re.compile(re.escape("shared" + "/rules")),
    re.compile(r"\b" + "DESIGN" + r"\.md\b"),
    re.compile(r"\b" + "STYLE" + r"\.md\b"),
]
DOC_NAME = re.compile(r"(?<![\w./-])docs/([A-Za-z0-9_-]+(?:/[A-Za-z0-9_-]+)*\.md)\b")
STYLE_CITATION = re.compile(r"docs/style\.md[\s,(]*((?:§\s*\d+[\s,]*(?:and\s*|or\s*)?)+)")
SECTION_NUMBER = re.compile(r"§\s*(\d+)")
STYLE_SECTION = re.compile(r"^#{2,6}[ \t]+§?(\d+)[.)]?[ \t]+(.*)$", re.MULTILINE)


def text_files() -> list[Path]:
    """Every text file under the scanned folders, and the README."""
    found = [ROOT / "README.md"]
    for top in SCANNED:
        for path in sorted((ROOT / top).rglob("*")):
            parts = path.relative_to(ROOT).parts
            if not path.is_file() or any(p in SKIPPED_DIRS or p.endswith(".egg-info") for p in parts):
                continue
            found.append(path)
    return found


def read_text(path: Path) -> str | None:
    """The file's text, or ``None`` for a binary file (a picture, a compiled cache)."""
    data = path.read_bytes()
    if b"\0" in data:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


TEXTS = {path: text for path in text_files() if (text := read_text(path)) is not None}
CODE = {path: text for path, text in TEXTS.items() if path.name != "README.md" or path.parent != ROOT}
THIS_FILE = Path(__file__).resolve()


def where(path: Path, text: str, offset: int) -> str:
    return f"{path.relative_to(ROOT)}:{text.count(chr(10), 0, offset) + 1}"


def style_sections() -> dict[int, str]:
    """The numbered sections of docs/style.md: number -> title."""
    text = (DOCS / "style.md").read_text("utf-8")
    return {int(number): title.strip() for number, title in STYLE_SECTION.findall(text)}


def citations() -> list[tuple[str, int]]:
    """Every "docs/style.md §N" in the scanned files, the README and the docs, with its place."""
    texts = dict(TEXTS)
    texts.update({path: path.read_text("utf-8") for path in sorted(DOCS.glob("*.md"))})
    found = []
    for path, text in texts.items():
        for match in STYLE_CITATION.finditer(text):
            for number in SECTION_NUMBER.findall(match.group(1)):
                found.append((where(path, text, match.start()), int(number)))
    return found


def test_the_scan_sees_the_code() -> None:
    names = {path.relative_to(ROOT).as_posix() for path in TEXTS}
    assert {"README.md", "src/ludotheque/core/contract.py", "tests/test_conformance.py",
            "src/ludotheque/server/schemas.py"} <= names


def test_no_file_points_outside_the_repository() -> None:
    found = [
        f"{where(path, text, match.start())}: {match.group(0)!r}"
        for path, text in CODE.items() if path != THIS_FILE
        for pattern in OUTSIDE
        for match in pattern.finditer(text)
    ]
    assert not found, "paths outside the repository:\n" + "\n".join(found)


def test_every_doc_named_exists() -> None:
    named: dict[str, list[str]] = {}
    for path, text in TEXTS.items():
        for match in DOC_NAME.finditer(text):
            named.setdefault(match.group(1), []).append(where(path, text, match.start()))
    assert {"design.md", "style.md", "API.md"} <= set(named)
    missing = {name: places for name, places in named.items() if not (DOCS / name).is_file()}
    assert not missing, f"docs named but missing: {missing}"


def test_every_cited_style_section_exists() -> None:
    sections = style_sections()
    found = citations()
    assert found, "no citation of docs/style.md found: is the pattern still right?"
    missing = [f"{place}: §{number}" for place, number in found if number not in sections]
    assert not missing, f"docs/style.md has sections {sorted(sections)}; cited but absent:\n" + "\n".join(
        missing)


@pytest.mark.parametrize(("cited_by", "subject"), [
    ("tests/test_conformance.py", "conformance"),
    ("src/ludotheque/core/contract.py", "shape"),
    ("src/ludotheque/server/schemas.py", "server"),
])
def test_a_citation_points_to_its_subject(cited_by: str, subject: str) -> None:
    text = (ROOT / cited_by).read_text("utf-8")
    numbers = {int(n) for m in STYLE_CITATION.finditer(text) for n in SECTION_NUMBER.findall(m.group(1))}
    titles = style_sections()
    assert numbers, f"{cited_by} cites no section of docs/style.md"
    for number in numbers:
        assert subject in titles.get(number, "").lower(), f"{cited_by} cites §{number}: {titles.get(number)}"


def test_style_sections_are_numbered_in_order() -> None:
    numbers = [int(n) for n, _ in STYLE_SECTION.findall((DOCS / "style.md").read_text("utf-8"))]
    assert numbers == list(range(1, len(numbers) + 1))
