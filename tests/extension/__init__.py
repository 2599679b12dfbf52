"""A fifth game defined entirely inside the tests, registered the way an installed distribution
registers one (the ``ludotheque.games`` entry-point group), to prove that nothing shared names the
games: see ``test_fifth_game.py``."""
