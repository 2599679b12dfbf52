"""The ``ludotheque`` command: play in the terminal, replay, bench, arena, serve, rules."""
