"""Follow-ups about which thing an edit took: after a removal, "you missed a bit", "its tail is still
there", "you missed one", "that looks fake" (how to point at what is left, or mend the fill), and after
an edit of a placed thing "not that one" (undone, and which one asked). Rules of
:data:`agent.language.followups.FOLLOW_UPS`, kept here so that module holds the revisions."""

from __future__ import annotations

import re

from agent.grammar.commands import Remove, Undo
from agent.language.followup_words import REMOVED_ONE_OF_TWO, without_place
from agent.language.recent import FollowUp, Recent

_OF_IT = r"(?: of (?:it|him|her|them|the [a-z]+))?"
_WHERE = r"(?:\s+(?:on|at|in|near) the [a-z]+(?: [a-z]+)?)?"
_LEFT_OVER = re.compile(
    r"(?:you )?(?:missed|left|forgot)(?: to remove)? (?:a (?:bit|spot|piece|part)|some(?: bits?)?|part|bits?|pieces?|"
    rf"(?:its|his|her|their|the) [a-z]+(?: [a-z]+)?){_OF_IT}(?: behind| there)?{_WHERE}"
    rf"|(?:there'?s|there is|there are|i can|i can still) (?:still )?(?:see )?(?:a (?:bit|piece|part)|some|part|bits?|"
    rf"pieces?|a lot|most){_OF_IT}(?: (?:left|there|visible|showing|remaining))?{_WHERE}"
    r"|(?:it'?s|it is|he'?s|she'?s|they'?re|it was|that'?s|that is) (?:still (?:there|visible)|not (?:all |completely |"
    r"fully |entirely |quite )?(?:gone|removed))"
    r"|(?:not|it'?s not|it is not|that'?s not) (?:all|completely|fully|entirely|quite) (?:gone|removed)"
    rf"|(?:now )?(?:remove|erase|delete|get rid of|take out|clean up) (?:the rest|what'?s left|what is left|the remains|"
    rf"the leftovers?|the last bits?){_OF_IT}"
    rf"|(?:its|his|her|their|the) [a-z]+(?: [a-z]+)? (?:is|are) still (?:there|visible|showing|left){_WHERE}")
# "remove the people", then "you missed one": a whole one the detector did not find, not a piece
_MISSED_ONE = re.compile(
    r"(?:you )?(?:missed|left|forgot|skipped|didn'?t (?:remove|get|see))(?: to remove)? (?:one|someone|somebody|"
    r"a (?:couple|few)|some|two|three|another(?: one)?|(?:a|one|another|two|three|some) (?:more|[a-z]+))"
    rf"(?: of them)?(?: behind| there| out)?{_WHERE}"
    r"|(?:there'?s|there is|there are|i can|i can still) (?:still )?(?:see )?(?:one|someone|somebody|another(?: one)?|"
    r"people|tourists|kids|children|(?:one|two|three|a few|some) (?:more|left)|(?:a|one|another|two|three|some)(?: more)? "
    r"(?:person|people|man|men|woman|women|kid|child|children|tourists?|[a-z]+s))"
    rf"(?: (?:left|there|standing|remaining|visible))?{_WHERE}"
    r"|(?:one|someone|somebody|another one) (?:is|was) still (?:there|here|left|standing|visible)" + _WHERE)
_LOOKS_WRONG = re.compile(
    r"(?:(?:that|it|this|the fill|the patch|the hole|the background|the result)(?:'s| is| looks| is looking)?\s+)?"
    r"(?:really |very |a bit |kind of |kinda |pretty |so )?"
    r"(?:bad|weird|wrong|fake|odd|strange|ugly|awful|terrible|horrible|blurry|smudged|smeared|smeary|messy|"
    r"obvious|unnatural|like a (?:smudge|blur|blob|ghost|mess)|off)")


def after_removal(c: str, recent: Recent) -> FollowUp | None:
    """After a removal: 'you missed a bit', 'its tail is still there', 'remove the rest of it' ->
    how to point at what is left (Easel cannot see which part the person means; removing the next
    thing it finds could take a neighbour); 'that looks fake' -> how to mend or undo it."""
    last = recent.last
    if not isinstance(last, Remove):
        return None
    thing = last.words if last.words.startswith("the ") else "it"
    if _LEFT_OVER.fullmatch(c):
        point = (f"Draw around what is left of {thing} with the trace tool (T) or a box (B) and say “remove this”: "
                 f"I'll fill what you draw the same way. Or say “undo” to put {thing} back.")
        # one of two boxed as the same kind: the other may be the rest of it (a cheetah lying down was
        # its head and shoulders to the detector, and its body "another cheetah"), asked, not guessed
        two = REMOVED_ONE_OF_TWO.search(recent.said)
        if two:
            kind, other = two.group("kind"), "right" if two.group("side") == "left" else "left"
            return FollowUp([], reply=f"{point} Or is the other {kind} I boxed, on the {other}, part of it: should I "
                                      f"remove it too?", proposal=[Remove(f"the {kind} on the {other}")])
        return FollowUp([], reply=point)
    if _MISSED_ONE.fullmatch(c):  # a whole one the detector did not see: it cannot be guessed where
        return FollowUp([], reply=f"I removed every one of {thing} that I could find; I don't see the one you mean. "
                                  "Draw around it with the trace tool (T) or a box (B) and say “remove this”: I'll "
                                  "fill what you draw the same way.")
    if _LOOKS_WRONG.fullmatch(c):
        return FollowUp([], reply=f"Sorry: the hole is filled from what is around it, and that does not always "
                                  f"work. Draw around the part that looks wrong and say “remove this” to fill it "
                                  f"again, or say “undo” to put {thing} back.")
    return None


_THING_WORD = r"(?!(?:way|direction|side|colou?r|amount|edit|thing|tone|part)\b)[a-z]+"  # "wrong direction": the other way
_WRONG_ONE = re.compile(rf"(?:not (?:that|this|the) (?:one|{_THING_WORD})|(?:that|this|it)(?:'s| is| was) (?:not the one|"
                        rf"the wrong (?:one|{_THING_WORD}))|(?:the )?wrong (?:one|{_THING_WORD})|i meant (?:another|a "
                        rf"different) (?:one|{_THING_WORD})|a different one)")  # ("another one" may be one more: not undone)


def wrong_one(c: str, recent: Recent) -> FollowUp | None:
    """'not that one' after 'remove the horse in the middle' (or an edit of the horse in the middle):
    the wrong thing was done; it is undone and which one is asked. It was refused, the horse left
    removed."""
    last = recent.last
    where = last.words if isinstance(last, Remove) else getattr(last, "region", "") if last is not None else ""
    if not where.startswith("the ") or not _WRONG_ONE.fullmatch(c):
        return None
    thing = without_place(where)
    side = "right" if where.endswith("on the left") else "left"  # (not where the wrong one was)
    example = f"{'remove' if isinstance(last, Remove) else '...'} {thing} on the {side}"
    return FollowUp([Undo()], note=f"Which {thing.removeprefix('the ')} did you mean? Ask again with where it is, "
                                   f"for example “{example}”, or draw around it with the trace tool (T).")
