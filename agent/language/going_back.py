"""Going back, said in words: "undo the last two edits", "go back to the original", "the previous one
was better", "put it back" after a removal; and "not quite", which asks whether to (the follow-up
rules of :mod:`agent.language.followups` read these first)."""

from __future__ import annotations

import re

from agent.grammar.commands import Remove, Undo
from agent.language.recent import FollowUp, Recent

_NUMBERS = {"both": 2, "two": 2, "three": 3, "four": 4, "five": 5, "twice": 2, "thrice": 3, "2": 2, "3": 3, "4": 4, "5": 5}
_UNDO_STEPS = re.compile(
    r"(?:undo|revert|go back|step back|take back|roll back)(?: the)?(?: last)? (?P<n>two|three|four|five|[2-5])"
    r"(?: (?:edits|changes|steps|things|ones|times|versions))?"
    r"|undo(?: it| that| this)? (?P<m>twice|thrice|two times|three times|[2-5] times)"
    r"|(?:undo|revert|take back) (?P<b>both)(?: of them| edits| changes| steps)?"
    r"|(?:undo|revert|take back) the (?:last|previous) (?P<k>two|three|four|five|[2-5])(?: \w+)?")
_ORIGINAL = re.compile(
    r"(?:(?:go|get|take (?:it|me)|revert|switch|put it|set it|change it|bring it|turn it|reset|restore|return|"
    r"roll)(?: it)?(?: all(?: the way)?)?(?: back)?(?: to)? (?:the |my )?(?:original|start|beginning|first one|"
    r"unedited one)(?: (?:photo|picture|image|version|one|state|pic))?)"
    r"|(?:(?:put|set|change|make|bring|turn|get) it back(?: (?:to )?(?:the way|how|as|like) it (?:was|used to be)"
    r"(?: before| originally| at first| at the start)?)?)"
    r"|back (?:to )?(?:the way|how|as|like) it (?:was|used to be)(?: before| originally| at first| at the start)?"
    r"|(?:the way|how|as|like) it was(?: before| originally| at first)?"
    r"|start (?:over|again|from scratch)|(?:undo|revert|reset|discard|scrap|cancel) "
    r"(?:everything|all(?: of)?(?: (?:the|my|your))?(?: (?:changes|edits|of it|of them))?|(?:the |my |your )?(?:changes|edits))"
    # ("remove all of them" after "how many bison?" is the bison: it went back to the original)
    r"|(?:drop|remove|clear) (?:all (?:of )?)?(?:the |my |your )?(?:changes|edits)"
    r"|reset(?: it| everything| the (?:photo|picture|image|edits|changes))?|restore(?: the)? original"
    r"|(?:show me |give me )?the original (?:back|again)|i want the original(?: back)?"
    r"|(?:can i |could i |let me |i want to |i'd like to )?(?:see|view|look at|have a look at) the original(?: again)?"
    r"|show me the original"
    r"|the original (?:was|looked|is) better")
_PREVIOUS = re.compile(
    r"(?:i think )?(?:the )?(?:previous|last|earlier|old|older|other|prior) (?:one|version|picture|image|edit|"
    r"photo)? ?(?:was|looked|looks|is) better(?: before)?"
    r"|(?:it |that |this )?(?:was|looked|looks) better before(?: that)?"
    r"|i (?:liked|preferred|prefer|like) (?:it|that|the (?:\w+ )?(?:one|version))(?: better| more)? ?(?:before|earlier)"
    r"|(?:go |get |take it |switch )?back to the (?:previous|last|earlier|other|prior) (?:one|version|picture|image)"
    r"|(?:that'?s|it'?s|this is|thats|its|that made it|you made it) (?:worse|not better|not as good|not an improvement)"
    r"|(?:i )?(?:don'?t|do not) like (?:it|that|this|the change|the edit)")


# "put it back" after a removal: the thing removed, not the original photo (every edit was undone)
_PUT_BACK = re.compile(r"(?:(?:put|bring|add) (?:it|them|him|her|that|this|the [a-z ]+?|(?:it|them|him|her) all) "
                       r"back(?: in| again| where it was)?|undo the remov(?:al|ing)|unremove (?:it|them|the [a-z ]+))")


# "hmm, not quite", "that's not what I meant": the last edit was not it, and nothing says what was
_NOT_IT = re.compile(r"(?:not quite|not really|not exactly|(?:that'?s|thats|this is|it'?s) not (?:it|quite it|right|"
                     r"what i (?:meant|wanted|asked for|had in mind))|not what i (?:meant|wanted|asked for|had in mind)|"
                     r"(?:that'?s|thats) not what i (?:meant|wanted))")


# "try again": the same edit once more gives the same picture, so it is no repeat ("make the trees
# greener", "make it dramatic", "try again" raised the contrast by 40 a second time): asked, as "not quite"
_TRY_AGAIN = re.compile(r"(?:(?:please |can you |could you |let'?s |pls )?try (?:it |that |this )?(?:again|once more)"
                        r"|try (?:something|anything) (?:else|different)|try (?:it )?(?:a )?different(?:ly| way| one)"
                        r"|try (?:it )?another (?:way|one))(?: please)?")


def not_it(c: str, recent: Recent) -> FollowUp | None:
    """'hmm, not quite', 'that's not what I meant', 'try again' after an edit: asked what was meant,
    with the undo that "yes" runs (it was "Sorry, I don't know how to do that"; "try again" ran the
    last edit a second time)."""
    if _TRY_AGAIN.fullmatch(c) and recent.last is None:
        return FollowUp(reply="There is no edit of mine on screen to try again. Tell me what to change, for "
                              "example “make it brighter” or “crop it to a square”.")
    if recent.last is None or not (_NOT_IT.fullmatch(c) or _TRY_AGAIN.fullmatch(c)):
        return None
    return FollowUp(reply="Tell me what you meant (for example “a bit less”, “only the sky” or “no, the one on the "
                          f"left”), or should I undo “{recent.last.label()}”?", proposal=[Undo()])


def going_back(c: str, recent: Recent) -> FollowUp | None:
    """'undo the last two edits' -> undo 2 steps; 'go back to the original', 'put it back the way it
    was' -> the original; 'the previous one was better' -> undo; 'put it back' after a removal ->
    undo (the thing removed comes back; it went back to the original before)."""
    if isinstance(recent.last, Remove) and _PUT_BACK.fullmatch(c):
        return FollowUp([Undo()])
    m = _UNDO_STEPS.fullmatch(c)
    if m:
        word = m.group("n") or m.group("m") or m.group("k") or m.group("b")
        return FollowUp([Undo(steps=_NUMBERS.get(word.split()[0], 2))])
    if _ORIGINAL.fullmatch(c):
        return FollowUp([Undo(original=True)])
    if _PREVIOUS.fullmatch(c):
        return FollowUp([Undo()])
    if _KEEP_COLOUR.fullmatch(c) and any(_made(e, "grayscale") for e in recent.earlier or (recent.last,) if e):
        # "actually keep the colour everywhere" after "make it black and white except the dog"
        return FollowUp([Undo()]) if _made(recent.last, "grayscale") else _take_out("grayscale", recent)
    named = _UNDO_NAMED.fullmatch(c)
    if named and _made(recent.last, named.group("q")):
        return FollowUp([Undo()])  # "revert the warmth" after warming: it warmed again
    if named:
        return _take_out(named.group("q"), recent)
    return None


_KEEP_COLOUR = re.compile(r"(?:actually,? |no,? |oh,? |hmm,? )*(?:(?:keep|leave|bring back|restore|put back|give me back|i want) "
                          r"(?:the |all the |its )?colou?rs?|back (?:to|in) colou?r|(?:make|turn|put) it (?:back )?(?:in|into|to) "
                          r"colou?r)(?: back)?(?: everywhere| in (?:it|everything|the whole (?:photo|picture|image)))?(?: please)?")
REPLAYED_AT_MOST = 4  # "undo the blur" with more edits after it than this asks to undo step by step


def _take_out(word: str, recent: Recent) -> FollowUp | None:
    """"undo the blur" when the blur is not the last edit (a contrast came after it): the latest edit
    of that kind taken out and the edits after it made again without it (it sharpened the picture,
    reading "undo the blur" as a request). When no edit on screen is of that kind, it says so ("undo the
    rotation" undid the last edit, whatever it was); None with no edit on screen."""
    at = next((i for i in range(len(recent.earlier) - 1, -1, -1) if _made(recent.earlier[i], word)), None)
    if at is None and recent.earlier:
        return FollowUp(reply=f"No edit on screen changed the {word} (they are “{'”, “'.join(c.label() for c in recent.earlier)}”"
                              f"). Say “undo” to take back the last one.")
    if at is None:
        return None
    later = list(recent.earlier[at + 1:])
    if not later:  # (the last edit, which ``_made`` took above)
        return FollowUp([Undo()])
    if len(later) > REPLAYED_AT_MOST:
        return FollowUp(reply=f"“{recent.earlier[at].label()}” was {len(later) + 1} edits ago. Say “undo” to go back "
                              "one step at a time, or “go back to the original”.")
    return FollowUp(later, revise=len(later), dropped=1)


# "revert the warmth", "remove the contrast", "get rid of the blur": the edit on screen, by what it changed
_QUALITY_EDITS = {"warmth": "warmth", "warm": "warmth", "warming": "warmth", "contrast": "contrast",
                  "brightness": "brightness", "brightening": "brightness", "exposure": "brightness",
                  "darkening": "brightness", "lightening": "brightness", "cooling": "warmth", "tinting": "tint",
                  "cropping": "crop", "desaturation": "saturation", "black and white": "grayscale",
                  "black_and_white": "grayscale", "grayscale": "grayscale", "greyscale": "grayscale",
                  "saturation": "saturation", "vibrance": "saturation", "sharpness": "sharpness",
                  "sharpening": "sharpness", "blur": "blur", "blurring": "blur", "tint": "tint",
                  "colour": "tint", "color": "tint", "hue": "hue", "rotation": "rotate", "crop": "crop"}
_UNDO_NAMED = re.compile(r"(?:revert|undo|remove|cancel|drop|lose|get rid of|take (?:out|away|off)|reset|scrap) "
                         rf"(?:the |that |this |all the |your )?(?P<q>{'|'.join(_QUALITY_EDITS)})"
                         r"(?: change| edit| effect| adjustment| boost)?(?: you (?:added|made|did))?")


def _made(last, word: str) -> bool:
    """Whether the edit ``last`` changed what ``word`` names ("warmth": a warmth edit)."""
    from agent.grammar.commands import AdjustAttr, AdjustColor, Background, Crop, CropTo, Grayscale, Rotate

    what = _QUALITY_EDITS[word]
    if isinstance(last, AdjustAttr):
        return last.attr == what or (what == "blur" and last.attr == "sharpness" and last.amount < 0)
    return (what == "tint" and isinstance(last, AdjustColor)) or (what == "blur" and isinstance(last, Background)
                                                                  and last.mode == "blur") or (
        what == "rotate" and isinstance(last, Rotate)) or (what == "crop" and isinstance(last, (Crop, CropTo))) or (
        what == "grayscale" and isinstance(last, Grayscale))


# "not that one", "wrong one", "that's the wrong horse", "no, I meant another one": the thing was the wrong one
