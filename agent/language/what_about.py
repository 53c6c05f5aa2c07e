""""what about the background?" after an edit made in a part ("make the kangaroo sharper"): asked whether
to make the same edit there, with that edit for "yes", and the part becomes what "it" is next ("blur
it" blurs the background). It was "I can't answer that", and "blur it" next blurred the kangaroo.
(A follow-up rule of :mod:`agent.language.followups`.)"""

from __future__ import annotations

import dataclasses
import re

from agent.grammar.commands import REGIONAL
from agent.grammar.regions import region_phrase
from agent.language.recent import FollowUp, Recent

_WHAT_ABOUT = re.compile(r"(?:(?:and|but|ok|okay|so|hmm),? )?(?:what|how) about (?P<x>the [a-z]+(?: [a-z]+){0,3})"
                         r"(?: then| now| too)?\??")


def what_about(c: str, recent: Recent) -> FollowUp | None:
    """'what about the background?' after 'make the kangaroo sharper' -> "Should I do the same to the
    background (“Sharper +40 in background”)? ...", that edit for "yes", the background talked about.
    Only after an edit in a part (after one of the whole picture the part had it already)."""
    from agent.language.scope import Unfindable, region_of

    m = _WHAT_ABOUT.fullmatch(c)
    last = recent.last
    if m is None or not isinstance(last, REGIONAL) or not getattr(last, "region", ""):
        return None
    try:
        region = region_of(m.group("x")) or ""
    except Unfindable:
        region = ""
    if not region or region == last.region:
        return None
    same = dataclasses.replace(last, region=region)
    where = region_phrase(region)
    return FollowUp(reply=f"Should I do the same to {where} (“{same.label()}”)? Say “yes”, or tell me what to do with "
                          f"it, for example “blur it” or “make it darker”.", proposal=[same], topic=m.group("x"))
