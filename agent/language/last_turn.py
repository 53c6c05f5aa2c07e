""""did it work?", "is it done?" after a request: answered from the last reply and the edit on screen
(a follow-up rule of :mod:`agent.language.followups`). After a refused removal it was "I can't answer
that"."""

from __future__ import annotations

import re

from agent.language.recent import FollowUp, Recent

_DID_IT_WORK = re.compile(r"(?:so,? |and,? |well,? )?(?:did (?:it|that|this) (?:work|go through|happen)|(?:is|was) (?:it|that) "
                          r"(?:done|finished)|did you (?:do|change) (?:it|anything|something)|has it (?:worked|changed))"
                          r"(?: then| now)?\??")
_NOTHING = re.compile(r"\b(?:so I changed nothing|I changed nothing|nothing changed|I made no change|There is nothing to)\b")


def did_it_work(c: str, recent: Recent) -> FollowUp | None:
    """'did it work?' -> "No: ..." when the last reply says nothing was changed, "Yes: ..." with the
    edit on screen otherwise; None when the words ask something else."""
    if not _DID_IT_WORK.fullmatch(c):
        return None
    if _NOTHING.search(recent.said):
        return FollowUp(reply="No: I changed nothing for your last request (my answer said why). Tell me what to do "
                              "instead, or point at the thing with the trace tool (T) or a box (B).")
    if recent.last is None:
        return FollowUp(reply="I haven't changed this picture yet. Tell me what to change, for example “make it a bit "
                              "brighter”.")
    return FollowUp(reply=f"Yes: the picture on screen has “{recent.last.label()}”, my last edit. 'what changed?' "
                          "measures it; 'undo' takes it back.")
