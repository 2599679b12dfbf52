"""Research interfaces: every game, variant and player count through OpenSpiel, PettingZoo and
Gymnasium (``pip install -e '.[research]'``).

- ``import ludotheque.research.openspiel`` registers ``python_ludotheque_<id>`` for each game, with
  parameters ``variant`` and ``players``:
  ``pyspiel.load_game("python_ludotheque_pylos(variant=kids)")``.
- ``ludotheque.research.pettingzoo.env(game_id, variant=None, players=None, render_mode=None)``: an
  AEC environment whose observations carry an ``action_mask``.
- ``ludotheque.research.gymnasium.make(game_id, opponent="easy", ...)``: one seat against our bots.

All three stand on :mod:`ludotheque.research.encoding`, which stands on the public contract and
on each game's declared action module (``GameInfo.actions``: the fixed integer encoding of its
moves and its observation planes, built from ``view(player)`` only). This package imports
OpenSpiel, PettingZoo or Gymnasium only in the module named after it.
"""
