"""The evaluation chart: an SVG document that parses, and a PNG file."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from ludotheque.analysis import analyse

from .games import SMALL, finished

SVG = "{http://www.w3.org/2000/svg}"


def test_the_svg_parses_and_says_what_it_shows() -> None:
    analysis = analyse(finished("pylos", 1), budget=SMALL)
    for lang, title in (("en", "Evaluation over the game"), ("fr", "Évaluation au fil de la partie")):
        root = ET.fromstring(analysis.svg(lang))
        assert root.tag == f"{SVG}svg" and root.get("role") == "img"
        assert root.findtext(f"{SVG}title") == title
        assert "pylos" in (root.findtext(f"{SVG}desc") or "")
        points = [e for e in root.iter() if e.get("data-ply") is not None]
        assert len(points) == len(analysis.plies)
        marked = {e.get("data-ply") for e in points if "ply " in (e.get("class") or "") }
        assert marked == {str(e.ply) for e in analysis.plies if e.mark}
        shapes = {e.mark: e.ply for e in analysis.plies if e.mark}
        tags = {p.get("data-ply"): p.tag for p in points}
        expected = {"inaccuracy": f"{SVG}circle", "mistake": f"{SVG}rect", "blunder": f"{SVG}polygon"}
        for mark, ply in shapes.items():
            assert tags[str(ply)] == expected[mark]


def test_the_png_is_written(tmp_path: Path) -> None:
    analysis = analyse(finished("imbrication", 1), budget=SMALL)
    path = analysis.png(tmp_path / "chart.png", "fr")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
