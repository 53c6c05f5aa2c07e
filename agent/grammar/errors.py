"""The grammar's error and how it quotes what it could not read: shared by the commands and their regions."""

from __future__ import annotations


class CommandError(ValueError):
    """A command line that does not parse, or a parameter outside its valid range."""


def shown(token: str, limit: int = 24) -> str:
    """A token quoted for an error message, cut short: a 40 KB argument is not echoed back."""
    return repr(token if len(token) <= limit else token[:limit] + "...")
