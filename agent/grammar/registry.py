"""Named rule sets that can be switched on and off by name, for measuring each rule's worth.

The command model's rules (:mod:`agent.command_model.rules`) and the request reader's rules
(:mod:`agent.language.reader`) are both ordered registries of named rules; :func:`select_names` is
how a bench or an evaluation says which of them are on.
"""

from __future__ import annotations

from collections.abc import Iterable


def select_names(spec: str | Iterable[str] | bool | None, names: Iterable[str]) -> frozenset[str]:
    """The names switched on: True/None/'all' all, False/'none' none, 'a,b' those, '-a,-b' all but those.

    Unknown names raise ValueError (a typo must not silently measure nothing).

    >>> sorted(select_names("-b", ["a", "b", "c"]))
    ['a', 'c']
    >>> sorted(select_names("a,c", ["a", "b", "c"]))
    ['a', 'c']
    """
    names = tuple(names)
    if spec is None or spec is True or spec == "all":
        return frozenset(names)
    if spec is False or spec == "none" or spec == "":
        return frozenset()
    asked = [n.strip() for n in spec.split(",")] if isinstance(spec, str) else list(spec)
    asked = [n for n in asked if n]
    unknown = sorted({n.lstrip("-") for n in asked} - set(names))
    if unknown:
        raise ValueError(f"unknown rule(s) {', '.join(unknown)}; the rules are {', '.join(names)}")
    if asked and all(n.startswith("-") for n in asked):
        return frozenset(names) - {n[1:] for n in asked}
    if any(n.startswith("-") for n in asked):
        raise ValueError("either name the rules to switch on, or only '-name's to switch off")
    return frozenset(asked)
