"""The game engines, one package per game, each with the same files; the registry finds them by
their ``GAME`` declaration (``ludotheque.games()`` is the list of their ids)."""
