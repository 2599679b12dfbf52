"""Line wrapping that never starts a line with French high punctuation.

Rich breaks a line at any white space, a no-break one included, so a French text could put
": 24 bleues" or "»" at the start of a line. Installed when the package ``ludotheque.cli`` is
imported, Rich's wrapping keeps these spaces inside a word: a no-break space (U+00A0, U+2007,
U+202F), the space before a French high punctuation mark (: ; ! ? ») and the one after «.

>>> [word for _, _, word in glued_words("72 billes : 24 bleues, « x »")]
['72 ', 'billes : ', '24 ', 'bleues, ', '« x »']
>>> [word for _, _, word in glued_words("1.\u00a0Light, a1")]
['1.\xa0Light, ', 'a1']
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import rich._wrap

_NO_BREAK = "\u00a0\u2007\u202f"
_GLUE = rf"(?:[{_NO_BREAK}]|[^\S\n{_NO_BREAK}]+(?=»|[:;!?](?:\s|$))|(?<=«)[^\S\n]+)"
_WORD = re.compile(rf"[^\S{_NO_BREAK}]*(?:[^\s]|{_GLUE})+[^\S{_NO_BREAK}]*")


def glued_words(text: str) -> Iterator[tuple[int, int, str]]:
    """The words of ``text`` as Rich's wrapping takes them (start, end, the word with the spaces
    after it), the spaces that must not break kept inside a word."""
    position = 0
    while (match := _WORD.match(text, position)) is not None and match.end() > position:
        yield match.start(), match.end(), match.group(0)
        position = match.end()


def install() -> None:
    """Make Rich's ``divide_line`` (every wrapped text, Markdown and help included) use
    :func:`glued_words`; nothing happens with a Rich that has no such function."""
    if callable(getattr(rich._wrap, "words", None)):
        rich._wrap.words = glued_words
