"""pytest: the adapters' doctests need the research extra (``pip install -e '.[research]'``);
without it they are not collected (``encoding`` needs nothing more than the project)."""

from importlib.util import find_spec

collect_ignore = [
    module
    for module, needs in (
        ("openspiel.py", "pyspiel"),
        ("pettingzoo.py", "pettingzoo"),
        ("gymnasium.py", "gymnasium"),
    )
    if find_spec(needs) is None
]
