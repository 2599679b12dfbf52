"""How the boards read: Pylos' coordinates; Plimil's coordinates clear of the disc, marks that
never cross a letter, and its setup step said in full."""

from __future__ import annotations

import random
from typing import Any

import httpx
from playwright.sync_api import Page, expect

from .helpers import create, fact, open_seat, play, play_moves, token_of

# Whether a box (x, y, width, height) crosses a ring's stroke, a rect or a circle (SVG units).
CROSSES = """
(ring, box) => {
  const half = parseFloat(getComputedStyle(ring).strokeWidth) / 2;
  const corners = [[box.x, box.y], [box.x + box.width, box.y], [box.x, box.y + box.height],
                   [box.x + box.width, box.y + box.height]];
  if (ring.tagName === 'circle') {
    const [cx, cy, r] = ['cx', 'cy', 'r'].map(name => ring[name].baseVal.value);
    const far = Math.max(...corners.map(([x, y]) => Math.hypot(x - cx, y - cy)));
    const nx = Math.max(box.x, Math.min(cx, box.x + box.width));
    const ny = Math.max(box.y, Math.min(cy, box.y + box.height));
    const near = Math.hypot(nx - cx, ny - cy);
    return !(far < r - half || near > r + half);
  }
  const [x, y, w, h] = ['x', 'y', 'width', 'height'].map(name => ring[name].baseVal.value);
  const inside = box.x > x + half && box.y > y + half && box.x + box.width < x + w - half
    && box.y + box.height < y + h - half;
  const outside = box.x > x + w + half || box.x + box.width < x - half || box.y > y + h + half
    || box.y + box.height < y - half;
  return !(inside || outside);
}"""

MARKS_CROSSING_LETTERS = f"""() => {{
  const crosses = {CROSSES};
  const found = [];
  for (const cell of document.querySelectorAll('#board [data-key]')) {{
    for (const ring of cell.querySelectorAll('.ring-target, .ring-chosen, .ring-last')) {{
      for (const text of cell.querySelectorAll('text')) {{
        if (crosses(ring, text.getBBox())) {{
          found.push(`${{cell.dataset.key}} ${{ring.getAttribute('class')}} "${{text.textContent}}"`);
        }}
      }}
    }}
  }}
  return found;
}}"""

COORDS_ON_DISC = """() => {
  const disc = document.querySelector('#board .plimil-disc');
  const [cx, cy, r] = ['cx', 'cy', 'r'].map(name => disc[name].baseVal.value);
  const edge = r + parseFloat(getComputedStyle(disc).strokeWidth) / 2;
  return [...document.querySelectorAll('#board text.coord')].filter(text => {
    const box = text.getBBox();
    const nx = Math.max(box.x, Math.min(cx, box.x + box.width));
    const ny = Math.max(box.y, Math.min(cy, box.y + box.height));
    return Math.hypot(nx - cx, ny - cy) <= edge;
  }).map(text => text.textContent);
}"""


def centre(page: Page, selector: str) -> tuple[float, float]:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def test_pylos_shows_its_coordinates_beside_the_cells(page: Page, api: httpx.Client) -> None:
    created = create(api, "pylos", ["human", "human"])
    open_seat(page, created["id"], token_of(created, 0))
    labels = page.locator("#board text.coord")
    expect(labels).to_have_count(8)
    by_text = {text: index for index, text in enumerate(labels.all_text_contents())}
    assert sorted(by_text) == ["1", "2", "3", "4", "a", "b", "c", "d"]
    for file in "abcd":  # each file letter under its column, each rank number beside its row
        label_x, _ = centre(page, f"#board text.coord >> nth={by_text[file]}")
        cell_x, _ = centre(page, f"#board [data-key='1{file}1']")
        assert abs(label_x - cell_x) < 2
    for rank in "1234":
        _, label_y = centre(page, f"#board text.coord >> nth={by_text[rank]}")
        _, cell_y = centre(page, f"#board [data-key='1a{rank}']")
        assert abs(label_y - cell_y) < 2


def test_plimil_setup_step_is_said_in_full(page: Page, api: httpx.Client) -> None:
    created = create(api, "plimil", ["human", "human"])
    open_seat(page, created["id"], token_of(created, 0))
    setup = fact(page, "Setup")
    expect(setup).to_have_text("Blue — stems to plant")
    legal = page.locator("#legal-select option").all_inner_texts()[1:]
    play(api, created["id"], token_of(created, 0), legal[0])
    expect(setup).to_have_text("Blue — block to build on d1")
    # Every coordinate reads clear of the disc's rim, ranks 4–5 and files d–e included.
    assert page.evaluate(COORDS_ON_DISC) == []
    expect(page.locator("#board text.coord")).to_have_count(16)


def test_plimil_marks_never_cross_a_letter(page: Page, api: httpx.Client) -> None:
    created = create(api, "plimil", ["human", "human"])
    rng = random.Random(4)
    doc: dict[str, Any] = play_moves(api, created, rng.choice, limit=30)  # both setups, then a few moves
    assert doc["view"]["phase"] == "play"
    open_seat(page, created["id"], token_of(created, doc["to_move"]))
    targets = page.locator("#board .target")
    expect(targets.first).to_be_visible()
    assert page.evaluate(MARKS_CROSSING_LETTERS) == []
    targets.first.click()  # a block chosen: its ring, and the landing cells' rings
    expect(page.locator("#board .ring-chosen")).to_have_count(1)
    assert page.evaluate(MARKS_CROSSING_LETTERS) == []
