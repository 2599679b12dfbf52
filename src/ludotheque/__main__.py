"""``python -m ludotheque`` runs the command line."""

from .cli.main import main

main()
