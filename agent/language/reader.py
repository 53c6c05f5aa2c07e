"""Reading real requests: several edits in one sentence, the edits CAISE has no words for, honest refusals.

People do not write CAISE's commands. They write "brighten it a bit and add some contrast", "remove
the people in the background", "make the background white", "can someone make this guy batman".
This module reads one utterance into a :class:`Reading`:

- ``commands``: what to run, in order (one per clause: "brighten it and add contrast" is two);
- ``reply``: instead of running anything, one or two sentences that say what Easel cannot do and the
  nearest thing it can, or a short question when a request has two readings ("Brighten the whole
  picture, or only the sky?"); ``proposal`` then holds what "yes" will run.

A clause no rule here recognises is left to the learned command model (``model`` callback), whose
reading is kept only when the clause has words of that command's kind (:func:`has_evidence`): a
model trained on CAISE reads "tell me a joke" as a search and "sharpen it" as something else, and a
wrong edit is worse than no edit.

The rules that read one clause are :mod:`agent.language.rules` (one registry, :data:`RULES`, tried
in order); this module holds the conversation around them: clauses, follow-ups ("too much",
"again"), answers to a question ("yes", "only the first one"), drawn selections and the model.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from agent.grammar.commands import (
    BACKGROUND_COLOURS,
    REGIONAL,
    AdjustAttr,
    Background,
    Command,
    CropTo,
    Describe,
    Explain,
    ImageCutout,
    Remove,
    Rotate,
    Search,
    Undo,
    with_region,
)
from agent.language.complaints import complaint
from agent.language.followups import only_about_last, read_follow_up, split_follow_up
from agent.language.instead import read_instead
from agent.language.photo_rules import rotate_and_crop
from agent.language.questions import QUALITY_WORDS, read_question
from agent.language.recent import FollowUp, Recent
from agent.language.rules import (  # noqa: F401 - RULES, RULE_NAMES, use_rules, detectable: the reader's registry
    AS_IT_IS,
    EXPRESSION,
    JUDGED,
    JUDGED_REPLY,
    NEAREST,
    RULE_NAMES,
    RULES,
    SEARCH_REQUEST,
    Refusal,
    describes_picture,
    detectable,
    is_plain_command,
    keep_rest,
    literal,
    looks_like_command,
    read_clause,
    use_rules,
)
from agent.language.scope import (
    ASKS_SEARCH,
    EXCEPT_REGION,
    PARTS,
    Unfindable,
    joined_region,
    names_open_photo,
    negated,
    negated_quality,
    only_a_part,
    region_of,
)
from agent.language.words import (
    STARTS,
    VERB_DOWN,
    VERB_UP,
    amount_of,
    attribute_words,
    clean_text,
    explicit_number,
    has_evidence,
    split_clauses,
    strip_polite,
)


@dataclass
class Reading:
    commands: list[Command] = field(default_factory=list)
    reply: str | None = None  # a refusal or a question, when nothing should run
    proposal: list[Command] = field(default_factory=list)  # what "yes" runs after a question
    notes: list[str] = field(default_factory=list)  # clauses left out, said after the edits
    revise: int = 0  # commands[:revise] replace the last edits, made again from before them ("too much")
    dropped: int = 0  # ... and the ``dropped`` edits before those are taken out ("undo the blur" two edits back)
    topic: str | None = None  # what "it" is next, when the reply asks about a thing ("what about the background?")
    confirmed: bool = False  # the commands are what the person just agreed to ("yes" to a proposal)
    chat: bool = False  # the reply answers small talk ("thanks", "no", "it's not too dark") or asks back: no failure


_STATEMENT = re.compile(r"(?:^(?:it|this|that|my|our|his|her|their|i|we|she|he|they|there|these|those|you|which|"
                        r"who)\b|^the\b.*\b(?:is|are|was|were|has|have|had|looks?|seems?|turned|proved|"
                        r"got|came)\b)(?!.*\b(?:too|needs?|should|must|could be|would be|want|wants|like|wish|hope|"
                        r"remove|make|turn|crop|add|increase|decrease|brighten|darken|lighten|sharpen|blur|rotate|flip|"
                        r"fix|enhance|change|put|get rid|take out|edit|erase|delete|replace|convert|adjust|boost|"
                        r"reduce|looking|look|find|search|show|share|fetch|get|image|photo|picture|pic|"
                        r"overexposed|underexposed|out of focus|unfocused|blurr?y|washed out|grainy|noisy|grain|noise|"
                        r"busy|cluttered|distracting|messy|crooked|tilted|slanted|lopsided|straight|off|wrong|centr?ed|centered|"
                        r"unnatural|better)\b)")
HELP = ("I edit the open photo when you ask: light and colour (brighter, more contrast, more vivid, warmer, "
        "black and white, a blue tint), sharpness, removing an object, a plain or blurred background, crop, "
        "rotate, flip, undo. I also find photos in your library, describe a picture and say what changed. "
        "Help > Commands lists every command.")
_HELP = re.compile(r"^(?:what can you do|what do you do|help(?: me| please)?(?=[?!. ]*$)|what are (?:the|your) (?:commands|options)|"
                   r"what (?:can|should) i (?:say|ask|type)|how does this work|commands|options)\b")
_HELLO = re.compile(r"(?:hi|hello|hey|good (?:morning|afternoon|evening)|hi there|hello there)[!. ]*")
_THANKS = re.compile(r"(?:thanks|thank you|thx|cheers|great|perfect|nice|cool|awesome|good job|great job|"
                     r"looks (?:good|great|nice))(?: a lot| very much| so much)?[!. ]*")
_FILLER = re.compile(r"(?:please|pls|plz|thanks|thank you|thx|cheers|hi|hello|hey|guys|many thanks|ok|okay|"
                     r"[:;]-?[()dp]|\W*)?")
_YES = re.compile(r"^(?:yes|yeah|yep|yup|sure|ok|okay|please do|do it|go ahead|fine|alright|all right|"
                  r"yes please|sounds good|please|that works|do that)\b[\s!.]*$")
# "yes do it", "sure, go ahead", "ok let's do it": agreement said in more words than _YES knows
_AGREE = re.compile(r"(?:(?:yes|yeah|yep|yup|sure|ok|okay|alright|all right|fine|of course|definitely|absolutely|"
                    r"certainly|please|please do|do it|do that|go ahead|go for it|apply it|why not|sounds good|"
                    r"let'?s do it|lets do it|that works|yes please)\b[\s,!.]*)+")
_NO = re.compile(r"^(?:no|nope|nah|naah|don't|do not|cancel|never mind|nevermind|stop|leave it)\b(?: thanks| thank you)?")
_QUESTION = re.compile(r"^(?:what|where|how|why|which|who|when|anything|any)\b|^(?:is|are|does|do|did|was|were) "
                       r"(?:you|it|i|we|they|this|that|there|the|my|he|she)\b|\?$")
# A question about the photo ("is the sky too bright?", "does it need more contrast?", "why is it so
# dark?", "would it look better brighter?"): its edit is proposed, never run. A request put as a
# question ("is it possible to ...", "would you ...", "does anyone know how to ...") is run.
_ASKS_ABOUT = re.compile(
    r"^(?:is|are|was|were|isn't|aren't|wasn't|weren't|does|did|doesn't|didn't|has|hasn't|haven't|why)\b"
    r"|^have (?:you|i|we)\b|^(?:would|should|will) (?:it|this|that|the|my|i|we)\b"
    r"|^could (?:it|this|that) (?:be|have been) (?:that|because|why)\b|^could (?:i|we)\b"
    r"|^do (?:you|i|we|they|these|those|the \w+) (?:think|see|look|seem|need|have|like)\b")
# A fault asked without its verb ("the background too dark now?", "the sky too blue?") brightened the
# background and enhanced a photo with no sky: it is the question "is the background too dark now?"
_FAULT_ASKED = re.compile(r"(?P<who>(?:the|my|this|that|its|his|her) [a-z' ]{1,40}? |it |this |that )?"
                          r"(?P<fault>(?:still |now |maybe )?(?:a (?:bit|little|tad) |way |much |far )?too [a-z]+"
                          r"(?: (?:now|still|maybe|then))?\s*\?)")
_ASKS_FOR = re.compile(
    r"\b(?:possible|possibly|any ?chance|a chance|any ?way|a way|anyone|anybody|someone|somebody|please)\b"
    r"|^(?:are|were|would|will|could|should) you\b|^why not\b")
# Questions about what is in the picture, answered from it even right after "what changed?"
_TOO_SMALL = re.compile(r"(?P<x>(?:the|my) [a-z]+(?: [a-z]+)?) (?:looks?|is|seems?|appears?) (?:(?:too|so|very|a bit|really) )*"
                        r"(?:small|tiny|far away|far off|hard to see|lost)(?: in (?:the|this) (?:picture|photo|frame|shot))?")
_ABOUT_THE_PICTURE = {"colour", "colour_is", "present", "count", "where", "what_at", "measure_part", "critique", "list",
                      "doing", "extreme", "size", "what_in", "holding", "which_kind"}  # ("which swan is the
# biggest?" after "by how much did you brighten it?" was answered with the change again)
_AS_MEANT = re.compile(r"\b(?:on purpose|intentional(?:ly)?|deliberate(?:ly)?|(?:but|and) i (?:like|love) it|"
                       r"i (?:like|love|want) it (?:that way|like that|this way)|(?:it'?s|is|looks) fine (?:as it is|like that))\b")
_PRAISED = re.compile(r"(?:really |very |such |what (?:a )?)?(?:nice|great|good|lovely|beautiful|amazing|gorgeous|cool|"
                      r"pretty|stunning|wonderful|perfect|awesome) (?:\w+ )?(?:contrast|colou?rs?|light(?:ing)?|sky|shot|"
                      r"photo|picture|pic|tones?|sharpness|exposure|composition|framing|edit|job|work)s?(?: there)?")
_WHY_SO = re.compile(rf"why (is|are) (it|this|that|they|these|those|the [a-z]+(?: [a-z]+)?) (?:so|that) ({QUALITY_WORDS})(?: now)?")
_EDIT_WORDS = re.compile(r"\b(?:make|turn|rotate|crop|remove|add|increase|decrease|brighten|darken|change|"
                         r"flip|sharpen|blur|cut|search|find|show|enhance|fix|put|set|undo|redo)\b")


# "this", "here", "that area", "there", "it": with something drawn, the drawing (not "this photo").
_POINTED = re.compile(r"\b(?:(?:this|that|the) (?:area|part|spot|region|bit|place|patch|section|thing|object|one)|"
                      r"(?:the )?(?:marked|circled|drawn|highlighted) (?:area|part|region|bit)|what i (?:drew|circled|"
                      r"marked|selected|highlighted)|(?:this|that|these|those)(?! (?:photo|picture|image|pic|shot|one of))|"
                      r"here|there(?! (?:is|are|was|were)\b)|it|them)\b")


def _selection_uses(command: Command) -> bool:
    return getattr(command, "region", "") == "selection" or \
        (isinstance(command, Remove) and command.words == "selection") or \
        (isinstance(command, CropTo) and command.target == "selection")


def on_selection(clause: str) -> list[Command] | None:
    """The clause read as being about what the person drew ("brighten this" -> ``adjust_attr
    brightness 20 in selection``, "remove this" -> ``remove selection``, "crop to this" -> ``crop
    selection``), or None when it does not point at it ("undo that", "describe it")."""
    c = strip_polite(clean_text(clause))
    if not _POINTED.search(c):
        return None
    first = _POINTED.search(c)
    pointed = c[:first.start()] + "the selection" + _POINTED.sub("", c[first.end():])
    try:
        commands = read_clause(" ".join(pointed.split()))
    except Refusal as refusal:
        if refusal.proposal and all(_selection_uses(cmd) for cmd in refusal.proposal):
            raise  # "this is dark": brightening the selection is proposed (it proposed the whole picture)
        return None
    if commands and all(_selection_uses(cmd) for cmd in commands):
        return commands
    return None


# "the photo looks yellow", "it's a bit blue", "the sky looks green": a colour cast said without "too"
_CAST = re.compile(r"(?P<w>the (?P<x>[a-z]+(?: [a-z]+)?) (?:looks|seems|appears)|(?:it|this|everything|the (?:photo|picture|"
                   r"image|pic)) (?:looks|is|seems|appears)|it'?s)"
                   r"(?: (?:a bit|a little|kind of|quite|very|really|so|all|way|rather|slightly))?"
                   r" (?P<c>yellow|blue|green|orange|red|purple|magenta|pink|cyan)(?:ish)?(?: now)?")
# ... but a part's own colour is what it is ("the sky looks blue", "the grass looks green")
_OWN_COLOUR = {"sky": {"blue"}, "grass": {"green"}, "trees": {"green"}, "plants": {"green"}, "leaves": {"green"},
               "water": {"blue", "green"}, "sea": {"blue", "green"}, "lake": {"blue", "green"}}


def _names_object(words: str) -> bool:
    from agent.perception.things import names_object  # the detector's words; loads no model

    return names_object(words)


# "make it warmer instead", "instead, brighten the sky": in place of the last edit ("blue instead of red" is
# no such word)
_INSTEAD = re.compile(r"\binstead\b(?! of\b)")


# "and warmer", "also a bit sharper", "and more contrast too" after an edit made in a part: that part
_AND_MORE = re.compile(r"(?:and|also|plus|and also)\s+((?:(?:a bit|a little|slightly|much|a lot|way) )?"
                       r"(?:[a-z]+er|more [a-z]+|less [a-z]+))(?:\s+(?:too|as well|also))?")


def read(utterance: str, *, model: Callable[..., Command | None] | None = None,
         state: str | None = None, proposal: list[Command] | None = None, photo_open: bool = True,
         last_reply: str = "", selection: bool = False, recent: Recent | None = None,
         searching: bool = False, refused: Command | None = None) -> Reading:
    """Read one utterance.

    ``model(clause)`` is the learned parser's command for a clause (or None), ``model(clause, search=True)``
    when the words ask for a photo; ``state`` names what
    the last turn was ("explain", "describe", "search") so that a follow-up question goes there;
    ``proposal`` is what the last question offered, run on "yes"; ``photo_open`` whether there is a
    picture to edit (without one, the only thing to do is search, so the model's searches need less);
    ``last_reply`` what the assistant said last, which a bare "definitely" agrees to; ``selection``
    whether the person has drawn a region, which "this", "here", "it" then point at
    (:func:`on_selection`); ``recent`` the edit on screen and its request, which follow-ups ("too
    much", "again", "the other way") refer to (:mod:`agent.language.followups`); ``searching`` whether
    the conversation is finding photos (a search since the last edit), when a bare phrase ("a giraffe")
    is a search even with a photo open; ``refused`` the last turn's edit refused for not finding its
    thing or not knowing which, which "no, the one on the left" makes there (:mod:`agent.language.instead`).
    """
    text = clean_text(utterance)
    bare = strip_polite(text)
    if _HELP.search(bare):
        return Reading(reply=HELP)
    if _HELLO.fullmatch(text.strip(" !.?,")):
        return Reading(reply="Hello! Tell me what to change, for example 'make it a bit brighter' or 'remove the "
                             "person on the left'.", chat=True)
    if _THANKS.fullmatch(text.strip(" !.?,")):
        if not re.search(r"\b(?:thank|thanks|thx|cheers)\b", text):  # "perfect", "nice": praise, not thanks
            return Reading(reply="Glad you like it. Tell me if you want anything else changed.", chat=True)
        return Reading(reply="You're welcome.", chat=True)
    agrees = bool(_YES.match(text) or _AGREE.fullmatch(text.strip(" !.?,")))
    if proposal and agrees:
        return Reading(commands=list(proposal), confirmed=True)
    picked = _picked(bare, proposal) if proposal else None
    if picked:
        return Reading(commands=picked, confirmed=True)
    if _NO.fullmatch(text.strip(" !.?,")) or (proposal and _NO.match(text)):
        return Reading(reply="Okay, I left the picture as it is.", chat=True)
    if _PRAISE_ALL.fullmatch(text.strip(" !.?,")):
        return Reading(reply="Glad you like it. Tell me if you want anything else changed.", chat=True)
    if agrees and not proposal and not last_reply.rstrip().endswith("?"):
        return Reading(reply="There is nothing waiting for a yes. Tell me what to change, for example 'make it "
                             "brighter', or ask 'what would you improve?' for a plan.")
    if JUDGED.fullmatch(bare.strip(" ?!.")):  # asked after "what changed?" too, where it was read as that again
        return Reading(reply=JUDGED_REPLY, chat=True)
    follow_up = re.fullmatch(r"(?:show me )?where|how much|by how much|anything else|what else|more|and\??|why|"
                             r"(?:and |what about |what did you do )?(?:before that|the (?:one|edit|step) before)", bare)
    about_picture = read_question(bare)  # "how bright is the sky?" after "what changed?": the picture, not the change
    # "is it too bright now?" judges the picture as it is ("how bright is it?" may ask how much brighter)
    judged = about_picture is not None and about_picture.kind == "measure" and about_picture.value != "amount"
    if state == "explain" and (follow_up or _QUESTION.search(bare) and not _EDIT_WORDS.search(bare)) and not (
            about_picture is not None and (about_picture.kind in _ABOUT_THE_PICTURE or judged
                                           or (about_picture.kind == "else" and not follow_up))
            or describes_picture(bare)):  # "what do you see?" after "what changed?" was about the change
        return Reading(commands=[Explain(bare)])
    if (_AS_MEANT.search(bare) and not _EDIT_WORDS.search(bare)) or _PRAISED.fullmatch(bare):
        # "it's dark on purpose", "a bit dark but I like it", "nice contrast": they were run as
        # "darken it" and "more contrast"
        return Reading(reply="Good, I left it as it is. Tell me if you want anything else changed.", chat=True)
    quality = negated_quality(bare)  # "it's not bright enough" is "too dark"; "it isn't too dark": nothing
    if quality is not None:
        if quality[0] == "fine":
            return Reading(reply="Good, I left it as it is. Tell me if you want anything else changed.", chat=True)
        utterance = text = bare = quality[1]
    cast = _CAST.fullmatch(bare)
    part = cast.group("x") if cast else None
    if cast and not (part and (_names_object(part) or cast.group("c") in _OWN_COLOUR.get(part, ()))):
        # "the photo looks yellow", "the sky looks green": a cast, as "too yellow" is (it was "Sorry, I don't
        # know how to do that"); "the dog looks yellow" may be what the dog is, and is left as it was
        said = re.sub(r"\s+(?:looks|is|seems|appears)$|'?s$", "", cast.group("w"))
        utterance = text = bare = f"{said} looks too {cast.group('c')}"
    # "no, the one on the left", "too much", "again": about the last edit (and what was said of it)
    heard = dataclasses.replace(recent or Recent(), said=last_reply)
    # "no, the one on the far right" after an edit refused for not knowing which: made there afresh
    asked = Recent(refused, (refused,), said=last_reply) if refused else None  # (a bare "the left one" answers it)
    again = (read_instead(utterance, asked) or read_instead(f"no, {utterance}", asked)) if asked else None
    later = (FollowUp(again.commands, reply=again.reply) if again else None) or read_instead(utterance, heard) \
        or read_follow_up(utterance, heard)
    if later is not None:
        if later.reply is not None:
            return Reading(reply=later.reply, proposal=later.proposal, topic=later.topic)
        return Reading(commands=later.commands, revise=later.revise, dropped=later.dropped,
                       notes=[later.note] if later.note else [])
    asked_of_last = only_about_last(utterance) if recent is None or recent.last is None else None
    if asked_of_last:  # "a bit more", "again", "the other way" with no edit made
        undone = f"I made no change for “{refused.label()}”, so there is" if refused else "There is no edit on screen,"
        return Reading(reply=f"{undone} nothing to {asked_of_last}. Tell me what to change, "
                             "for example “make it a bit brighter”.")
    split = split_follow_up(utterance, recent or Recent())  # "too much, and make it warmer"
    if split is not None and not split[1]:
        return Reading(commands=split[0].commands)
    if split is not None:
        rest = read(split[1], model=model, photo_open=photo_open, selection=selection)
        if rest.commands and all(isinstance(c, Undo) for c in rest.commands):
            return rest  # "that's too much, go back one": the undo is the answer to it (it was made less, then undone)
        if rest.commands:
            return Reading(commands=[*split[0].commands, *rest.commands], revise=split[0].revise, notes=rest.notes)
    same_place = _AND_MORE.fullmatch(text.strip().lower().rstrip(".!"))
    region = getattr(recent.last, "region", "") if recent is not None and recent.last is not None else ""
    if same_place and region and not region.startswith(("everything", "selection")):
        # "make the joey brighter", then "and warmer": the joey warmer too (it warmed the whole picture)
        more = read(f"make it {same_place.group(1)}", model=model, photo_open=photo_open)
        if more.commands and all(isinstance(c, REGIONAL) and not c.region for c in more.commands):
            return Reading(commands=[with_region(c, region) for c in more.commands])
    reading = Reading()
    keep_region = ""  # "keep the cat as it is": what the edits leave alone
    unknown: list[str] = []
    unasked: list[Command] = []  # searches read from clauses without a word that asks for one
    try:
        kept = keep_rest(text)
    except Refusal as refusal:  # "keep the flower and ...": a part to point at
        return Reading(reply=str(refusal))
    if kept:
        return Reading(commands=kept)
    turned = rotate_and_crop(text)  # "rotate 5° and crop the corners": one rotation, cropped
    if turned is not None:
        try:
            rotations = read_clause(turned)
        except Refusal:
            rotations = None
        deg = explicit_number(turned, "degrees")
        if not rotations and deg is not None and 0 < deg < 360:  # no direction said: CAISE's counter-clockwise
            rotations = [Rotate(deg)]
        if rotations and all(isinstance(r, Rotate) for r in rotations):
            return Reading(commands=[dataclasses.replace(r, crop=True) for r in rotations])
    # The model reads each clause as typed (lower-cased): the rules' spelling fixes ("grey" -> "gray")
    # must not change the words of a search.
    typed_text = re.sub(r"\bblack\s*,\s*(and|&)\s*white\b", r"black \1 white", " ".join(utterance.lower().split()))
    clauses = _finished(split_clauses(typed_text), typed_text)
    before = ""  # the previous clause's part: "" none, else its region, or _REFUSED when it was a part not found
    too_small = ""  # a thing said to look too small ("the cheetah looks too small, zoom in": zoom in on it)
    for typed in clauses:
        clause = clean_text(typed)
        bare = strip_polite(clause)
        elliptic = bool(_ELLIPTIC.match(bare))  # "make the sky less blue and more purple": "more purple" there
        carried, before = before, ""  # only the clause right before counts
        asked_fault = _FAULT_ASKED.fullmatch(clause)  # "the background too dark now?": "is the background too dark now?"
        if asked_fault:
            typed = clause = f"is {asked_fault.group('who') or 'it '}{asked_fault.group('fault')}"
            bare = strip_polite(clause)
        questioned = bool(_ASKS_ABOUT.match(bare)) and not _ASKS_FOR.search(clause)  # its edit is proposed, not run
        why_so = _WHY_SO.fullmatch(bare)  # "why is it so dark?": the complaint "it is too dark"
        if why_so:
            typed = clause = bare = f"{why_so.group(2)} {why_so.group(1)} too {why_so.group(3)}"
        small = _TOO_SMALL.fullmatch(bare) if len(clauses) > 1 else None
        if small and not re.fullmatch(r"(?:the|my) (?:picture|photo|image|pic|shot|frame)", small.group("x")):
            too_small = small.group("x")  # "the cheetah looks too small, zoom in": zoom in on the cheetah
            continue
        said_so = _STATEMENT.match(bare) and complaint(bare) is None and not EXPRESSION.search(bare) and not (  # ("which one is the biggest?": asked;
            photo_open and bare.startswith(("which ", "who ")) and read_question(bare) is not None)  # "who is on the left?")
        if said_so or (len(clauses) > 1 and (_FILLER.fullmatch(bare)
                                                                                       or _CONFIRM.fullmatch(bare))):
            continue  # "thanks", "it turned out great", "good, also ...": no request of its own
        if (any(c.edits_image for c in reading.commands) or reading.notes) and re.fullmatch(
                r"(?:fix|correct|sort out|repair) (?:it|that|this)", bare):
            # "it looks blurry, fix it": the fault just named is what to fix; "the dog looks sad, can you
            # fix it?" when that fault was refused: nothing else to fix (it enhanced the photo)
            continue
        kept = re.match(r"(?:leaving|leave|keeping|keep) (?:only |just )?(?:the colou?rs? of )?(.+?) (?:untouched|"
                        r"unchanged|alone|in colou?r|the same)$", strip_polite(AS_IT_IS.sub("unchanged", clause)))
        if kept:  # "... and keep the cat as it is": the edits are of everything except the cat
            try:
                keep_region = region_of(kept.group(1)) or keep_region
                continue
            except Unfindable:
                pass
        if negated(bare) or re.match(r"(?:leaving|leave|keeping|keep) (?:only |just )?.+\b(?:sharp|focus|focused|"
                                     r"clear|untouched|unchanged|alone|color|the same|as (?:it|they) (?:is|are))$", bare):
            continue  # "don't remove the girl", "leaving her face in sharp focus": a condition, not a request
        phrase = _bare_phrase(strip_polite(typed.strip())) if searching or not photo_open else None
        asked = photo_open and read_question(bare) is not None  # "are there any people?": the photo, not a search
        try:
            commands = on_selection(clause) if selection else None
            commands = commands or ([Search(phrase)] if phrase else [Describe(question=bare)] if asked
                                    else read_clause(clause))
        except Refusal as refusal:
            if refusal.proposal and not reading.proposal:
                reading.proposal = refusal.proposal
            reading.chat = reading.chat or refusal.asks  # "Should I brighten it?": asked back, not a failure
            reading.notes.append(str(refusal))
            before = "" if refusal.proposal else _REFUSED  # ("the photo is dark": a whole-picture edit proposed)
            continue
        if commands is None and reading.commands and isinstance(reading.commands[-1], AdjustAttr):
            commands = _same_attribute(bare, reading.commands[-1].attr)
        colour = re.fullmatch(r"(?:make|turn|fill) (?:it|that|them|the rest) (?:(?:pure|plain|all|solid|completely|"
                              r"totally|entirely|just) )*(\w+)", bare)
        after_background = reading.commands and isinstance(reading.commands[-1], (ImageCutout, Background))
        if after_background and colour and colour.group(1).replace("gray", "grey") in BACKGROUND_COLOURS:
            commands = [Background(colour.group(1).replace("gray", "grey"))]  # "remove the background and make it white"
        elif after_background and re.fullmatch(r"(?:keep(?:ing)? )?(?:it |the focus )?(?:focus(?:ed)?|in focus) on .+|"
                                               r"(?:selective|shallow) focus", bare):
            continue  # "blur the background, focused on me": what the blur keeps, not a sharpening
        elif after_background and re.fullmatch(r"(?:make|turn) (?:it|that|them|the rest) (?:\w+ )?(?:blurr?(?:y|ier|ed)|"
                                               r"out of focus|soft(?:er)?)", bare):
            commands = [Background("blur")]  # "fade out the background, make it more blurry": "it" is the background
        if commands is None:
            agreed = last_reply if _CONFIRM.match(bare) else ""
            commands = _by_model(typed, model, photo_open, f"{typed} {agreed}", utterance)
        if commands is None:
            unknown.append(_not_understood(clause))  # said only when nothing else is understood
            continue
        if photo_open and questioned and any(c.edits_image for c in commands):
            edits = [c for c in commands if c.edits_image]
            reading.proposal = reading.proposal or edits
            reading.chat = True  # an answer that asks back, not a failure
            reading.notes.append(f"I read that as a question, so I changed nothing: should I do "
                                 f"“{', '.join(c.label() for c in edits)}”? Say yes and I will.")
            continue
        if too_small and len(commands) == 1 and isinstance(commands[0], CropTo) and commands[0].inset is not None:
            commands = [CropTo(too_small)]  # the thing said to be too small, not the picture's centre
        commands = _both_parts(clause, commands)
        if elliptic and carried and all(isinstance(c, REGIONAL) and not c.region for c in commands):
            if carried == _REFUSED:
                continue  # "make the water less green and more blue": not the whole picture bluer
            commands = [with_region(c, carried) for c in commands]
        # carried from a clause of one part only: "darken the background but make the man lighter", read as
        # the background alone, then "and sharper" is not the background's
        if not re.search(r"\b(?:and|but|then|while|whereas)\b|,", bare):
            before = next((c.region for c in reversed(commands) if isinstance(c, REGIONAL) and c.region), "")
        if not ASKS_SEARCH.search(clause):
            unasked += [c for c in commands if isinstance(c, Search)]
        for command in commands:
            last = reading.commands[-1] if reading.commands else None
            if last == command:
                continue
            if isinstance(command, AdjustAttr) and isinstance(last, AdjustAttr) and last.attr == command.attr \
                    and last.region == command.region:
                reading.commands[-1] = command  # "it's blurry, sharpen it a little": the later, finer words
            elif isinstance(command, Background) and isinstance(last, ImageCutout):
                reading.commands[-1] = command  # "remove the background and make it white"
            else:
                reading.commands.append(command)
    if unasked and any(c.edits_image for c in reading.commands):
        # "I took a picture of my cousin ... can someone remove the people": the edits are for the open photo,
        # which a search no clause asked for in words ("find", "show me") would replace
        reading.commands = [c for c in reading.commands if not any(c is u for u in unasked)]
    if keep_region and not keep_region.startswith(EXCEPT_REGION):
        reading.commands = [with_region(c, EXCEPT_REGION + keep_region) if isinstance(c, REGIONAL) and not c.region
                            else c for c in reading.commands]
        if not reading.commands and not reading.notes:
            reading.notes.append(f"What should I change around {keep_region}? For example “make everything except "
                                 f"{keep_region} black and white”.")
    if (_INSTEAD.search(text) and recent is not None and recent.last is not None and len(recent.request) == 1
            and len(reading.commands) == 1 and reading.commands[0].edits_image and not reading.revise):
        # "make the panda pop", then "actually, make the bamboo greener instead": the new edit in place of the
        # last (it was made on top of it, and the panda kept its contrast)
        reading.revise = 1
    if not reading.commands:
        reading.reply = " ".join(dict.fromkeys(reading.notes)) or (unknown[0] if len(unknown) == 1 else
                                                                   _not_understood(text))
    return reading


# A clause that goes on with the one before it, its part left unsaid: "... and more purple", "... but less green"
_ELLIPTIC = re.compile(r"(?:and |but |then )?(?:(?:a (?:bit|little|lot|touch)|slightly|much|way|somewhat) )?"
                       r"(?:(?:more|less)\b|[a-z]+er$)")  # "... and more purple", "... and a bit darker"
_REFUSED = "\0refused"  # the previous clause named a part Easel could not find


_PRAISE = (r"(?:thanks|thank you|thx|ty|cheers|great|perfect|nice|cool|awesome|good|good job|great job|well done|"
           r"excellent|lovely|beautiful|amazing|wonderful|fantastic|brilliant|super|ok|okay|fine|alright|all right|"
           r"much better|better|exactly|(?:that'?s|thats|this is|it'?s|its) (?:it|good|great|perfect|better|nice|fine|"
           r"lovely|much better|what i wanted|exactly what i wanted|great now|good now|perfect now)|(?:it |that |this )?"
           r"looks? (?:good|great|nice|better|perfect|fine|much better|amazing|lovely)(?: now)?|(?:i )?love it|"
           r"i like it|nice one|good one|that works|yes that'?s it|a lot|very much|so much|now)")
_PRAISE_ALL = re.compile(rf"{_PRAISE}(?:[\s,.!]+{_PRAISE})*")
_ORDINALS = {"first": 0, "1st": 0, "second": 1, "2nd": 1, "third": 2, "3rd": 2, "last": -1}


def _picked(c: str, proposal: list[Command]) -> list[Command] | None:
    """Part of what the last question proposed: "only the first one", "just the second", "the first
    two", "only the contrast"."""
    m = re.fullmatch(r"(?:yes,? |ok,? |okay,? )?(?:only |just )?(?:do |run |apply )?(?:the )?(first|1st|second|2nd|third|"
                     r"3rd|last)(?: one| step| thing| edit| change| suggestion)?(?: only| please)*", c)
    if m:
        i = _ORDINALS[m.group(1)]
        return [proposal[i]] if -len(proposal) <= i < len(proposal) else None
    m = re.fullmatch(r"(?:yes,? |ok,? )?(?:only |just )?(?:do |run |apply )?the first (two|three|2|3)(?: ones| steps| things| "
                     r"edits| changes| suggestions)?(?: only| please)*", c)
    if m:
        return proposal[: {"two": 2, "2": 2, "three": 3, "3": 3}[m.group(1)]]
    m = re.fullmatch(r"(?:yes,? |ok,? )?(?:only |just )(?:do |change |fix |adjust )?(?:the )?(\w+)(?: one)?(?: please)?", c)
    if m:
        chosen = [p for p in proposal if m.group(1) in {getattr(p, "attr", None), p.name, getattr(p, "color", None)}]
        return chosen or None
    return None


_CONFIRM = re.compile(r"(?:yes|yeah|yep|yup|sure|ok|okay|definitely|absolutely|of course|certainly|please do|do it|"
                      r"go ahead|why not|sounds good|let's do it|that works|great|good|perfect|nice)\b[\s,!.]*"
                      r"(?:(?:please|definitely|sure|go ahead|do it|thanks)\b[\s,!.]*)*")


def _finished(clauses: list[str], text: str) -> list[str]:
    """The clauses, each "make the sky" joined to the "and the dog darker" that says what to make it
    (split, it darkened the dog alone)."""
    out: list[str] = []
    for clause in clauses:
        if out and only_a_part(strip_polite(clean_text(out[-1]))) and f"{out[-1]} and {clause}" in text:
            out[-1] = f"{out[-1]} and {clause}"
        else:
            out.append(clause)
    return out


def _both_parts(clause: str, commands: list[Command]) -> list[Command]:
    """An edit of both parts when the clause names two joined by "and" ("brighten the dog and the
    sky", "make the sky and the dog darker"): the rules and the model give one region, and the other
    was dropped without a word. One edit, so that "too much" and "undo" take both."""
    out: list[Command] = []
    for command in commands:
        both = joined_region(clause, command.region) if isinstance(command, REGIONAL) and command.region else None
        out.append(with_region(command, both) if both else command)
    return out


def _same_attribute(clause: str, attr: str) -> list[Command] | None:
    """A clause that changes by how much, after one that named what: "it is too bright, can we try
    decreasing it by 50 percent" -> the brightness, by -50."""
    verb = VERB_UP.search(clause) or VERB_DOWN.search(clause)
    if not verb or not re.search(r"\b(?:it|that|this|same)\b|\d", clause):
        return None
    sign = -1 if VERB_DOWN.search(clause) and not VERB_UP.search(clause) else 1
    return [AdjustAttr(attr, sign * amount_of(clause, attr))]


# Words that make a clause more than the name of a thing: a request ("fetch me an image of", "I want",
# "help me with") or a sentence ("its raining outside"); the model reads those.
_NOT_A_NAME = re.compile(r"\b(?:i|me|you|we|us|my|your|our|it|its|it's|this|that|image|images|picture|pictures|photo|"
                         r"photos|pic|pics|need|needs|want|wants|get|fetch|share|help|require|give|find|show|eat|like|"
                         r"love|see|look|looking|search|bring|send|display|feeling|am|is|are|was|were|be|been|have|"
                         r"has|had|do|does|did|can|could|would|will|should|please|let|try|now)\b")


def _bare_phrase(clause: str) -> str | None:
    """The words of a clause that only names things ("a giraffe", "kites on a beach"), which, with no
    photo open, can only mean a search for them; None for anything else."""
    c = clause.lower().strip(" .!?,")
    c = re.sub(r"^(?:(?:please|pls|ok|okay|hmm|um|so|and|now|then)[\s,]+)+", "", c)
    c = re.sub(r"[\s,]+(?:please|pls|thanks|thank you)$", "", c)
    if not c or len(c.split()) > 8 or not re.fullmatch(r"[a-z][a-z' -]*", c):
        return None
    plain = clean_text(c)
    if STARTS.match(plain) or attribute_words(plain) or _QUESTION.search(plain) or _EDIT_WORDS.search(plain) \
            or _STATEMENT.match(plain) or _FILLER.fullmatch(plain) or _CONFIRM.fullmatch(plain) \
            or _NOT_A_NAME.search(plain) or SEARCH_REQUEST.search(plain):
        return None
    words = re.sub(r"^(?:a|an|the|some|any|more|another)\s+", "", c).strip()
    return words or None


# A request that points at the open photo ("more like this one", "the same colour as his shirt") may
# take words the model read from its concepts; any other search takes only the words typed.
_REFERS = re.compile(r"\b(?:same|similar|like (?:this|that|it|the|these|those|his|her|their)|match\w*|this one|that one|"
                     r"these|those|such|its|his|her|their|as in|as the|this|that|it|colou?rs?|in ?-?line|inline|"
                     r"shade|tone|goes with|go with|pair\w*|complement\w*|objects?|things?|items?|something|stuff|"
                     r"above|previous|earlier|shown|seen|wearing|holding)\b")


def own_search_words(search: Search, clause: str) -> Search | None:
    """``search`` with only the words the clause typed ("find me a photo of a dog" read as ``search dog
    clock``, "clock" taken from the open photo, is ``search dog``); None when no word is left.

    >>> own_search_words(Search("dog clock"), "find me a photo of a dog").format()
    'search dog'
    """
    typed = set(re.findall(r"[a-z0-9]+", f"{clause.lower()} {clean_text(clause)}"))
    typed |= {w[:-1] for w in typed if w.endswith("s")} | {w[:-2] for w in typed if w.endswith("es")}
    kept = [w for w in search.words.split()
            if w.lower() in typed or w.lower().rstrip("s") in typed or {"grey": "gray"}.get(w.lower()) in typed]
    if not kept:
        return None
    return search if len(kept) == len(search.words.split()) else Search(" ".join(kept))


def _by_model(clause: str, model: Callable[..., Command | None] | None, photo_open: bool,
              evidence: str, utterance: str = "") -> list[Command] | None:
    if model is None:
        return None
    command = model(clause, search=True) if SEARCH_REQUEST.search(strip_polite(clean_text(clause))) else model(clause)
    if command is None or not has_evidence(command, evidence, photo_open=photo_open):
        return None
    if isinstance(command, REGIONAL) and not command.region:  # the model writes no regions: the words say where
        try:
            region = region_of(strip_polite(clean_text(clause)))
        except Unfindable as exc:
            if exc.part in PARTS or exc.part.rstrip("s") in PARTS:
                return None  # "make her face brighter": a part it cannot find, not the whole picture instead
            region = ""  # "fix the overexposure": a word after "the" that names no part
        command = with_region(command, region) if region else command
    request = utterance or clause  # "an image of a dog ... please find one": the words of the whole request
    if isinstance(command, Search) and photo_open and not _REFERS.search(clean_text(request)):
        command = own_search_words(command, request)  # the open photo's concepts are not what was asked for
        if command is None:
            return None
    if isinstance(command, Search) and photo_open and names_open_photo(clean_text(clause)) \
            and not ASKS_SEARCH.search(clean_text(clause)):
        return None  # "it's my favourite picture of him": the open photo, not a request for another
    return [command]


def _not_understood(clause: str) -> str:
    c = strip_polite(clean_text(clause))
    if _QUESTION.search(c) and not _EDIT_WORDS.search(c):
        return ("I can't answer that. I can describe the picture ('describe') or say what changed "
                "('what changed?').")
    return f"Sorry, I don't know how to do that. {NEAREST}"
