"""The ``ludotheque`` command line; importing it makes Rich's line wrapping keep French
punctuation with its word (:mod:`.wrapping`)."""

from . import wrapping

wrapping.install()
