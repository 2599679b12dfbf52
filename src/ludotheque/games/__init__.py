"""One package per game, each with the same files; the registry finds them by their ``GAME``."""
