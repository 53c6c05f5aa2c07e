"""The ``explain`` handler: multi-turn, grounded answers about what changed between two versions.

Install it with :func:`register` (``register(manager)`` puts :func:`handle_explain` in
``manager.handlers["explain"]``). What it understands is read from the command's free text
(``explain <question>``), or, when that is empty, from the user's own words of the turn (so a
command model that maps "what changed compared to the original?" to a bare ``explain`` still works):

==========================================  =====================================================
``explain`` / "what changed?"               the changes, biggest first (at most three; the rest
                                            on "anything else?")
``explain compared to the original``        compare with the first version (also "the first",
                                            "the start"); "the previous version" / "the last
                                            one": the parent; "version 3": the third in the
                                            lineage; a version id
``explain where``                           where the changes just mentioned are, as boxes
``explain how much`` / "how much brighter"  the measured amounts; a named attribute (brighter,
                                            contrast, rotated, tint, crop, bigger, ...) picks
                                            that change, or says it did not change
``explain anything else``                   the changes not yet mentioned
``explain what is it``                      what the changed things are (detector labels, colours)
``explain what do they have in common``     what the two versions share
==========================================  =====================================================

The comparison is the current version (the head) against the picture before the last request
(its parent, or an earlier version when that request made several), unless
``manager.context.compare_with`` holds a version id or the question names a version.
``manager.context.explain_phrasing = "speaker"`` starts each first answer with the learned
relational speaker's one-sentence phrasing (:mod:`agent.learned.speaker`), when its checkpoint is installed.
The last
comparison is kept in ``manager.context.explain`` (version ids, the findings, which of them were
mentioned and which the follow-ups refer to), so "where?" and "how much?" refer to the previous
answer. Replies carry ``data["overlays"]`` (boxes on the "before" and "current" images) and
``data["segments"]`` (the reply in coloured pieces matching the boxes), as documented in
:mod:`agent.dialogue.manager`, plus ``data["findings"]`` and ``data["compare"]``.
"""

from __future__ import annotations

import math
import re

import numpy as np

from agent.explain.asked_edits import earlier_edits, edits_asked
from agent.explain.engine import explain_images
from agent.explain.types import LOCAL_KINDS, Explanation, Finding, told
from agent.grammar.commands import Command

PALETTE = ("#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#42d4f4", "#f032e6", "#9a6324")
FIRST_ANSWER = 3  # findings in the first answer; the rest wait for "anything else?"


def register(manager) -> None:
    """Make ``manager`` answer ``explain`` commands with :func:`handle_explain`."""
    manager.handlers["explain"] = handle_explain


# --- reading the question ---------------------------------------------------------------------

_ATTR_WORDS = {
    "sharpness": r"sharp|blur|soft|crisp|detail",
    "saturation": r"saturat|vivid|vibran|muted|dull",
    "warmth": r"warm|cool|temperature",
    "grayscale": r"black and white|gr[ae]yscale|monochrome",
    "hue": r"\bhues?\b",
    "brightness": r"bright|dark|light|dim|brightness|exposure",
    "contrast": r"contrast",
    "rotate": r"rotat|turn|angle|degree|tilt|spun|spin",
    "color_tint": r"tint|colou?r|" + "|".join(
        ("red", "orange", "green", "blue", "skyblue", "purple", "brown", "yellow", "pink")),
    "crop": r"crop|cut off|trim",
    "scale": r"bigger|smaller|scale|size|resiz|enlarg|shrunk|shrink",
    "flip": r"flip|mirror",
    "background_removed": r"background",
}


def _intent(q: str) -> str:
    if re.search(r"\b(in common|same|similar|share|alike)\b", q):
        return "common"
    if re.search(r"\bwhere\b|\bwhich (part|area|region)|\bshow me\b|\blocat", q):
        return "where"
    if re.search(r"\bhow (much|many|far|big|strong|bright|dark)\b|\bby how\b|\bamount\b|\bhow\b.*\b(er|degrees)\b", q):
        return "how_much"
    if re.search(r"\b(anything else|what else|else|more|other changes?|any other)\b", q):
        return "more"
    if re.search(r"\bwhat (is|was) (it|that|this)\b|\bwhat (was|got|has been) (added|removed|moved)\b|\bwhich (one|object)\b", q):
        return "what"
    return "overview"


# Findings that answer a question about an attribute besides the attribute's own kind: "was the
# background removed?" is answered by a replaced background, "how much did the colour change?" by
# a hue turn; the brightness did change when a tone curve changed it.
_ALSO = {"background_removed": ("background_replaced", "background_blurred"),
         "color_tint": ("saturation", "warmth", "hue", "grayscale", "color_changed", "tone_curve"),
         "brightness": ("tone_curve",), "contrast": ("tone_curve",), "saturation": ("grayscale",)}


def _answers(attr: str, kind: str) -> bool:
    return kind == attr or kind in _ALSO.get(attr, ())


def _named_attr(q: str) -> str | None:
    for kind, pat in _ATTR_WORDS.items():
        if re.search(pat, q):
            return kind
    return None


_BEFORE_AND_AFTER = re.compile(r"\bbefore (?:and|&|vs\.?|versus) after\b")
# "what did you do so far?": every edit since the photo was opened (it told the last one)
_SO_FAR = re.compile(r"\b(?:so far|in total|altogether|all together|until now|up to now|since the start|all (?:the |of the |"
                     r"your )?(?:edits|changes))\b")


def _resolve_before(manager, q: str) -> tuple[str | None, str]:
    """The version to compare the head with, and how to call it."""
    doc = manager.document
    head = doc.head
    lineage = doc.lineage()
    if re.search(r"\b(original|first|start|beginning|unedited)\b", q) or _BEFORE_AND_AFTER.search(q) or _SO_FAR.search(q):
        return lineage[0].id, "the original"  # ("show me before and after": the photo as it came)
    m = re.search(r"\b(?:version|step)\s+(\d+)\b", q)
    if m:
        n = int(m.group(1))
        if 1 <= n <= len(lineage):
            return lineage[n - 1].id, f"version {n}"
        return None, f"there is no version {n}; this image has {len(lineage)}"
    for vid in doc.versions:
        if vid in q:
            return vid, f"version {vid[:8]}"
    if re.search(r"\b(previous|last|parent|before|prior)\b", q):
        p = doc.parent()
        return (p.id, "the previous version") if p else (None, "this is the original")
    pick = manager.context.compare_with
    if pick and pick in doc.versions and pick != head.id:
        return pick, _label(doc, pick)
    turn = manager.before_last_request()
    if turn is not None:
        return turn, "the picture before your last request"
    p = doc.parent()
    return (p.id, "the previous version") if p else (None, "this is the original, there is nothing before it")


def _label(doc, vid: str) -> str:
    lineage = [v.id for v in doc.lineage()]
    if vid == lineage[0]:
        return "the original"
    if vid in lineage:
        return f"version {lineage.index(vid) + 1}"
    v = doc.versions[vid]
    return f"the version made by '{v.command}'" if v.command else f"version {vid[:8]}"


# --- the handler ------------------------------------------------------------------------------


def handle_explain(manager, command: Command):
    """Answer one ``explain`` turn (see the module docstring for the questions it takes)."""
    from agent.grammar.turns import TurnResult

    utterance = _last_user_text(manager) or command.format()
    q = (getattr(command, "target", "") or "").strip().lower() or utterance.lower()
    if q.startswith("explain"):
        q = q[len("explain"):].strip()
    if manager.document is None:
        return TurnResult(utterance, "Open an image first; then I can tell you what changed.",
                          command, ok=False)
    told = edits_asked(manager.document, q)
    if told is not None:  # "how much did you brighten it?": the edits of that kind, from the history
        return TurnResult(utterance, told, command)
    intent = _intent(q)
    state = manager.context.explain
    if _BEFORE_THAT.search(q):  # "and before that?": the edit before the one just told (it was undone)
        return _before_that(manager, command, utterance, state)
    fresh = intent in ("overview",) or state is None or (state.get("after") != manager.document.head.id
                                                         and not state.get("earlier"))
    names_version = re.search(r"\b(original|first|version|step|previous|parent|prior)\b", q) is not None
    if _BEFORE_AND_AFTER.search(q) or _SO_FAR.search(q):  # a comparison with the original, told whole
        names_version, intent = True, "overview"
    if fresh or names_version:
        before_id, label = _resolve_before(manager, q)
        if before_id is None:
            return TurnResult(utterance, f"I have nothing to compare with: {label}.", command, ok=False)
        state = _compare(manager, before_id, label)
        if intent in ("where", "how_much", "more", "what") and fresh and not names_version:
            intent = "overview+" + intent
    exp: Explanation = state["exp"]
    if intent.startswith("overview"):
        pieces = _overview(state)
        if manager.context.explain_phrasing == "speaker":
            pieces = _speaker_pieces(state) + pieces
        follow = intent.split("+", 1)[1] if "+" in intent else None
        if follow == "how_much" and exp.aligned and exp.findings[0].kind != "identical":
            # "how much brighter is it now?": the amounts alone, after what it is compared with (the
            # overview said the same amount again before them)
            answer = _ANSWERS[follow](state, q)
            if answer:
                answer[0] = (_after_comma(answer[0][0]), answer[0][1])
            pieces = [(f"Compared with {state['label']}, ", None)] + answer
        elif follow:
            pieces += [(" ", None)] + _ANSWERS[follow](state, q)
    else:
        pieces = _ANSWERS[intent](state, q)
    attr = _named_attr(q)
    if attr in _UNCHANGED and intent.split("+")[-1] == "how_much" and any(_unchanged_attr(attr)[1:] in t for t, _ in pieces):
        earlier = earlier_edits(manager.document, attr)  # ("how much darker is the grass?" after a rotation)
        if earlier and state["label"] == "the previous version":
            pieces.append((f" Before the last step, “{'”, then “'.join(earlier)}” changed it; say “compare with the "
                           "original” to measure it since then.", None))
    run = _edits_run(manager.document, state)
    if run and intent.startswith("overview") and exp.findings[0].kind == "identical" \
            and not exp.findings[0].params.get("exact"):
        # an edit of a few pixels (the red of two pupils) is no "nothing changed": said, and why unseen
        pieces = run + [(f"It changed too few pixels for me to measure against {state['label']}.", None)]
    elif _WHAT_DID_YOU_DO.search(q) or (exp.findings[0].kind == "unnamed" and intent.split("+")[-1] in (
            "overview", "how_much")) or (intent.startswith("overview") and any(
            f.kind == "object_removed" and not f.params.get("object") for f in exp.findings)):
        # the edits run are known: said first, then what the pixels show (where the pixels cannot
        # name the change, "a way I cannot name" is not all there is to say; where they name what was
        # removed only "a grey object", "remove the people" says what it was)
        pieces = run + pieces
    return TurnResult(utterance, "".join(t for t, _ in pieces), command, data=_turn_data(state, pieces))


def _turn_data(state: dict, pieces: list) -> dict:
    """What the window draws for an explanation: its boxes, its coloured sentences, its findings and
    which versions it compared."""
    exp: Explanation = state["exp"]
    return {
        "overlays": _overlays(exp, state["focus"]),
        "segments": [{"text": t, "color": c} for t, c in pieces],
        "findings": [f.as_json() for f in exp.findings],
        "compare": {"before": state["before"], "after": state["after"], "label": state["label"]},
    }


_BEFORE_THAT = re.compile(r"\bbefore (?:that|this|it)\b|\bthe (?:one|edit|step|change) before\b")


def _before_that(manager, command: Command, utterance: str, state: dict | None):
    """"and before that?" after "what did you change?": the edit before the versions just compared,
    told as that comparison was (what was run, then what the pixels show); one step further back
    each time it is asked."""
    from agent.grammar.turns import TurnResult

    doc = manager.document
    after = state["before"] if state is not None else (doc.parent().id if doc.parent() else None)
    before = doc.parent(after) if after is not None else None
    if before is None:
        return TurnResult(utterance, "There was nothing before that: it is the photo as it was opened.", command, ok=False)
    state = _compare(manager, before.id, "the version before it", after_id=after)
    state["earlier"] = True  # ("where?" next is about this pair, though the picture shown is later)
    run, told = _edits_run(doc, state), _overview(state)
    if not run and told:  # "Before that, compared with ..."
        told[0] = (told[0][0][:1].lower() + told[0][0][1:], told[0][1])
    pieces = [("Before that, ", None)] + run + told
    return TurnResult(utterance, "".join(t for t, _ in pieces), command, data=_turn_data(state, pieces))


# "what did you do?", "what have you changed?": the edits Easel ran, not only what the pixels show
_WHAT_DID_YOU_DO = re.compile(r"\bwhat (?:did|have|has) (?:you|easel|we) (?:just )?(?:do|done|did|change|changed|edit|edited)\b"
                              r"|\bhow much (?:did|have) you (?:change|changed|edit|edited)\b"
                              r"|\bwhat (?:edits?|changes?) (?:did|have) you (?:make|made|do|done)\b")


def _edits_run(doc, state: dict) -> list:
    """"I ran “Brighter +40 in the gorilla”. " for the edits between the two versions compared."""
    from agent.grammar.commands import version_label

    labels = [version_label(line) for line in _commands_between(doc, state["before"], state["after"]) if line]
    if not labels:
        return []
    said = "”, then “".join(labels)
    return [(f"I ran “{said}”. ", None)]


def _speaker_pieces(state: dict) -> list:
    """The learned speaker's one-sentence phrasing, when it is selected and installed."""
    from agent.learned.speaker import describe_edit
    from editor.models import ModelMissingError

    if "speaker" not in state:
        try:
            state["speaker"] = describe_edit(*state["_pixels"])
        except ModelMissingError as exc:
            state["speaker"] = None
            state["speaker_error"] = str(exc)
    if not state["speaker"]:
        return [(f"(The learned phrasing is not available: {state.get('speaker_error', 'no sentence')}.) ", None)]
    return [(f"In a sentence, someone asked to \"{state['speaker']}\". In detail: ", None)]


def _last_user_text(manager) -> str:
    for line in reversed(manager.history):
        if line.startswith("user_text:"):
            return line.split(":", 1)[1].strip()
    return ""


def _compare(manager, before_id: str, label: str, *, after_id: str | None = None) -> dict:
    doc = manager.document
    head = after_id or doc.head.id
    cache = manager.context.explain_cache
    key = (before_id, head)
    if key not in cache:
        exp = explain_images(doc.pixels(before_id), doc.pixels(head))
        commands = _commands_between(doc, before_id, head)
        _follow_order(exp, commands)
        _follow_names(exp, commands)
        _step_by_step(exp, doc, before_id, head, commands, cache)
        cache[key] = exp
        while len(cache) > 8:
            cache.pop(next(iter(cache)))
    state = {"before": before_id, "after": head, "label": label, "exp": cache[key],
             "mentioned": [], "focus": [], "_pixels": (doc.pixels(before_id), doc.pixels(head))}
    manager.context.explain = state
    return state


STEPS_AT_MOST = 4  # a comparison across more edits than this is read from its two pictures only
_MOVES = ("rotate", "crop", "flip", "image_cutout")  # edits after which boxes are in other places


def _step_by_step(exp: Explanation, doc, before_id: str, after_id: str, commands: list[str], cache: dict) -> None:
    """A comparison across several edits of which one was made in a part (the dog brightened, then
    the background darkened) is read edit by edit (each step's explanation from ``cache`` or into it): the two pictures alone were read as one change
    of it all ("darker by about 6 points, less contrast by 15"). Each edit's findings, in order,
    replace the pair's; not where an edit moves the picture (boxes would not line up), and not for
    edits of the whole picture only, which the pair reads right (brightness then contrast)."""
    from agent.grammar.commands import CommandError, parse_command

    if not 2 <= len(commands) <= STEPS_AT_MOST or not exp.aligned:
        return
    try:
        parsed = [parse_command(c) for c in commands]
    except CommandError:
        return
    if any(c.name in _MOVES for c in parsed) or not any(getattr(c, "region", "") or c.name in ("remove", "background")
                                                        for c in parsed):
        return
    ids = [v.id for v in doc.lineage(after_id)]
    ids = ids[ids.index(before_id):]
    findings = []
    for (a, b), line in zip(zip(ids, ids[1:]), commands):
        step = cache.get((a, b))  # each step's own "what changed?", when it was asked already
        if step is None:
            step = cache[(a, b)] = explain_images(doc.pixels(a), doc.pixels(b))
            _follow_names(step, [line])
        findings += [f for f in step.findings if f.kind != "identical"]
    if findings:
        exp.findings = findings
        exp.text = told(findings)
        first, last = doc.pixels(before_id), doc.pixels(after_id)
        if first.shape == last.shape:  # "anything else?": how much of the picture no edit changed
            exp.unchanged_fraction = float((np.abs(first.astype(np.int16) - last).max(axis=-1) <= 4).mean())


def _commands_between(doc, before_id: str, after_id: str) -> list[str]:
    """The command lines that made ``after_id`` from ``before_id`` (empty unless it is an ancestor)."""
    lineage = doc.lineage(after_id)
    ids = [v.id for v in lineage]
    if before_id not in ids:
        return []
    return [v.command or "" for v in lineage[ids.index(before_id) + 1:]]


def _follow_order(exp: Explanation, commands: list[str]) -> None:
    """Brightness then contrast and contrast then brightness make the same kind of picture, with
    the brightness measured ``slope`` times larger in the first order; the pixels cannot tell them
    apart, the recorded commands can. The engine reports contrast-then-brightness; when the
    brightness came first, its amount is stated in that order."""
    names = [c.split()[1] if c.startswith("adjust_attr ") and len(c.split()) > 1 else c.split(" ")[0]
             for c in commands]
    if "brightness" not in names or "contrast" not in names:
        return
    if names.index("brightness") > max(i for i, n in enumerate(names) if n == "contrast"):
        return
    found = {f.kind: f for f in exp.findings}
    b, c = found.get("brightness"), found.get("contrast")
    if b is None or c is None or not c.params.get("slope"):
        return
    from agent.explain.tone import brightness_finding

    _, params, sentence = brightness_finding(b.params["amount"] / c.params["slope"])
    b.params.update(params)
    b.sentence = sentence
    exp.text = told(exp.findings)


def _follow_names(exp: Explanation, commands: list[str]) -> None:
    """A thing removed by its name and place is said as the request said it: "remove the giraffe on
    the left" (the left one of two, its box in the middle of the picture) was explained as "the
    giraffe in the middle was removed". Only for one removal among the commands compared and one
    thing of that kind found removed; where the picture's parts are, the boxes show. A part the
    pixels call "the background" that an edit of the picture's edges made (a vignette, "darken the
    corners": everything but the centre) is "the edges" (the shape of what was kept does not tell a
    centre's ellipse from a subject in the middle: measured on gcompris' dog, giraffes and cat)."""
    if any(c.endswith(" in everything except center") for c in commands) and len(commands) == 1:
        for f in exp.findings:
            if f.params.get("region") == "background" and f.sentence.startswith("The background "):
                f.params["region"] = "edges"
                f.sentence = "The edges " + f.sentence[len("The background "):]
        exp.text = told(exp.findings)
    removals = [c[len("remove "):].strip() for c in commands if c.startswith("remove ")]
    if len(removals) != 1 or not re.fullmatch(r"the [a-z]+ (?:on|at|in) the [a-z ]+", removals[0]):
        return
    noun = removals[0].split()[1]
    gone = [f for f in exp.findings if f.kind == "object_removed" and f.params.get("object")]
    if len(gone) != 1 or gone[0].params["object"] != noun or gone[0].params.get("count", 1) > 1:
        return
    gone[0].sentence = f"{removals[0][0].upper()}{removals[0][1:]} was removed."
    exp.text = told(exp.findings)


def _per_finding(exp: Explanation, idx: list[int], sentence) -> list:
    """One sentence per finding, each in its finding's box colour, a space between them."""
    out: list = []
    for n, i in enumerate(idx):
        if n:
            out.append((" ", None))
        f = exp.findings[i]
        out.append((sentence(f), _color(exp, f)))
    return out


def _color(exp: Explanation, f: Finding) -> str | None:
    if not _has_region(f, exp):
        return None
    return PALETTE[exp.findings.index(f) % len(PALETTE)]


def _has_region(f: Finding, exp: Explanation) -> bool:
    """Findings with a box worth drawing (not the whole image)."""
    if f.kind in LOCAL_KINDS or f.kind in ("crop", "background_removed", "background_replaced",
                                           "background_blurred"):
        return bool(f.after_box or f.before_box)
    return False


def _overlays(exp: Explanation, indices: list[int]) -> list[dict]:
    out = []
    for i in indices:
        f = exp.findings[i]
        col = _color(exp, f)
        if col is None:
            continue
        label = f.params.get("object") or f.params.get("region") or f.kind.replace("_", " ")
        if f.before_box and f.kind != "object_added":
            out.append({"kind": "box", "target": "before", "box": list(f.before_box), "color": col,
                        "label": label})
        if f.after_box and f.kind not in ("object_removed", "crop"):
            out.append({"kind": "box", "target": "current", "box": list(f.after_box), "color": col,
                        "label": label})
    return out


def _sentence_pieces(exp: Explanation, idx: list[int], sentences: list[str] | None = None) -> list:
    pieces, said = [], set()
    for n, i in enumerate(idx):
        f = exp.findings[i]
        text = sentences[n] if sentences else f.sentence
        if text.lower() in said:  # two groups removed at the bottom left: said once, both boxed
            continue
        said.add(text.lower())
        if pieces:
            pieces.append((" ", None))
        pieces.append((text, _color(exp, f)))
    return pieces


def _order(exp: Explanation) -> list[int]:
    """Findings in the order they are told: global ones first, then local ones, largest first."""
    return list(range(len(exp.findings)))


def _after_comma(sentence: str) -> str:
    """A finding's sentence run on after "Compared with ..., ": its first letter lower case ("the
    sky got brighter", "people at the bottom were removed"), but for "I" and an acronym."""
    return sentence if re.match(r"I\b|[A-Z]{2}", sentence) else sentence[:1].lower() + sentence[1:]


def _overview(state: dict) -> list:
    exp: Explanation = state["exp"]
    if exp.findings[0].kind == "identical":
        state["mentioned"], state["focus"] = [0], [0]
        what = "identical" if exp.findings[0].params.get("exact") else "the same to the eye"
        return [(f"Nothing changed: this version and {state['label']} are {what}.", None)]
    if not exp.aligned:
        state["mentioned"], state["focus"] = [0], [0]
        return [(f"Compared with {state['label']}: {exp.findings[0].sentence}", None)]  # not aligned
    order = _order(exp)
    first = order[:FIRST_ANSWER]
    state["mentioned"] = list(first)
    state["focus"] = list(first)
    body = _sentence_pieces(exp, first)
    if body:
        body[0] = (_after_comma(body[0][0]), body[0][1])
    pieces = [(f"Compared with {state['label']}, ", None)] + body
    rest = len(order) - len(first)
    if rest:
        pieces.append((f" There {'is one more change' if rest == 1 else f'are {rest} more changes'}; "
                       "ask me 'anything else?'.", None))
    return pieces


def _more(state: dict, q: str) -> list:
    exp: Explanation = state["exp"]
    rest = [i for i in _order(exp) if i not in state["mentioned"]]
    if not rest or exp.findings[0].kind == "identical":
        if any(f.kind in LOCAL_KINDS for f in exp.findings):
            kept = exp.unchanged_fraction * 100
            if kept < 1:  # the dog brightened and the background darkened: nothing is left unchanged
                return [("No, nothing else: what I said covers the whole picture.", None)]
            return [(f"No, nothing else: the rest of the picture ({kept:.0f}% of it) is unchanged.", None)]
        return [("No, that is everything; no part of the picture changed on its own.", None)]
    state["mentioned"] += rest
    state["focus"] = rest
    return [("Yes: ", None)] + _sentence_pieces(exp, rest)


def _where(state: dict, q: str) -> list:
    exp: Explanation = state["exp"]
    idx = _pick(state, q)
    if not idx:
        return [("Nothing changed, so there is nowhere to point to.", None)]
    boxed = [i for i in idx if _has_region(exp.findings[i], exp)]
    idx = boxed or idx  # the changes one can point at come first; whole-image ones otherwise
    state["focus"] = idx
    return _per_finding(exp, idx, lambda f: _where_sentence(f, exp))


def _box_text(box) -> str:
    return f"({box[0]}, {box[1]})–({box[2]}, {box[3]})"


def _where_sentence(f: Finding, exp: Explanation) -> str:
    from agent.explain.engine import where_phrase

    thing = _thing(f)
    if f.kind == "object_added":
        return f"{thing} is {where_phrase(f.after_box, exp.after_size)}, at {_box_text(f.after_box)}."
    if f.kind == "object_removed":
        return (f"{thing} was {where_phrase(f.before_box, exp.before_size)} of the earlier image, at "
                f"{_box_text(f.before_box)}.")
    if f.kind == "object_moved":
        return (f"{thing} was at {_box_text(f.before_box)} and is now at {_box_text(f.after_box)} "
                f"({where_phrase(f.after_box, exp.after_size)}).")
    if f.kind in ("object_recolored", "region_changed") and f.params.get("region"):
        are = "They are" if f.params["region"] in ("edges", "clouds") else "It is"
        return f"{are} the {f.params['region']}, at {_box_text(f.after_box)}."
    if f.kind in ("object_recolored", "region_changed"):
        return f"{thing} is {where_phrase(f.after_box, exp.after_size)}, at {_box_text(f.after_box)}."
    if f.kind == "crop":
        return f"The part kept is {_box_text(f.before_box)} of the earlier image."
    if f.kind == "background_removed":
        return f"What is left is the subject at {_box_text(f.after_box)}; everything around it was removed."
    if f.kind in ("background_replaced", "background_blurred"):
        how = "blurred" if f.kind == "background_blurred" else f"replaced by {f.params.get('color')}"
        return f"The subject kept is at {_box_text(f.after_box)}; everything around it was {how}."
    return f"The {_kind_noun(f.kind)} affects the whole picture."


def _thing(f: Finding) -> str:
    obj = f.params.get("object")
    col = f.params.get("color")
    if f.kind in ("object_recolored", "region_changed") and not obj:
        return "The changed region"
    return f"The {obj}" if obj else (f"The {col} object" if col else "The object")


def _kind_noun(kind: str) -> str:
    return {"brightness": "brightness change", "contrast": "contrast change", "rotate": "rotation",
            "flip": "mirroring", "scale": "resizing", "color_tint": "tint", "crop": "crop",
            "background_removed": "background removal"}.get(kind, kind.replace("_", " "))


def _pick(state: dict, q: str) -> list[int]:
    """The findings a follow-up refers to: one it names, else those of the previous answer."""
    exp: Explanation = state["exp"]
    if exp.findings[0].kind == "identical":
        return []
    attr = _named_attr(q)
    if attr:
        hit = [i for i, f in enumerate(exp.findings) if _answers(attr, f.kind)]
        if hit:
            return hit
    for word, kinds in (("added", ("object_added",)), ("removed", ("object_removed",)),
                        ("moved", ("object_moved",)), ("recolou?red", ("object_recolored",))):
        if re.search(word, q):
            hit = [i for i, f in enumerate(exp.findings) if f.kind in kinds]
            if hit:
                return hit
    for i, f in enumerate(exp.findings):
        obj = f.params.get("object")
        if obj and obj in q:
            return [i]
    return list(state["focus"] or state["mentioned"] or range(len(exp.findings)))


def _how_much(state: dict, q: str) -> list:
    exp: Explanation = state["exp"]
    attr = _named_attr(q)
    if attr and not any(_answers(attr, f.kind) for f in exp.findings) and not any(
            f.kind in LOCAL_KINDS for f in exp.findings):  # ("how much greener?" of the greenery: "not tinted")
        return [(_unchanged_attr(attr), None)]
    idx = _pick(state, q)
    if not idx:
        return [("Nothing changed: every amount is zero.", None)]
    state["focus"] = idx
    return _per_finding(exp, idx, lambda f: _amount_sentence(f, exp))


def _unchanged_attr(attr: str) -> str:
    return _UNCHANGED[attr]


_UNCHANGED = {
    "brightness": "The brightness did not change (I measure less than 2 points either way).",
    "contrast": "The contrast did not change (less than 3 points either way).",
    "rotate": "It was not rotated (less than half a degree).",
    "color_tint": "It was not tinted.",
    "crop": "It was not cropped.",
    "scale": "Its scale did not change.",
    "flip": "It was not mirrored.",
    "background_removed": "The background is still there.",
    "sharpness": "It was neither sharpened nor blurred.",
    "saturation": "Its saturation did not change.",
    "warmth": "It is neither warmer nor cooler.",
    "grayscale": "It is not black and white.",
    "hue": "Its hues were not turned.",
}


def _amount_sentence(f: Finding, exp: Explanation) -> str:
    p = f.params
    if f.kind == "brightness":
        v = p["amount"]
        return (f"It is {'brighter' if v > 0 else 'darker'} by about {abs(v):.0f} points: every channel "
                f"{'gained' if v > 0 else 'lost'} about {abs(v):.0f}% of full scale "
                f"(the command would be 'adjust_attr brightness {v:+.0f}').")
    if f.kind == "contrast":
        v = p["amount"]
        return (f"The contrast is {'up' if v > 0 else 'down'} by about {abs(v):.0f} points: differences from "
                f"mid-grey are scaled by {1 + v / 100:.2f} ('adjust_attr contrast {v:+.0f}').")
    if f.kind == "rotate":
        d = p["degrees"]
        way = f"{d:g}° counter-clockwise" if d <= 180 else f"{360 - d:g}° clockwise"
        return f"It was turned {way} ('rotate {d:g}')."
    if f.kind == "color_tint":
        if p.get("intensity") is None:
            return f"Its colours shifted toward {p['color']} (channel offsets {p.get('offsets')})."
        return (f"It was tinted {p['color']} at intensity {p['intensity']:.2f}: each pixel moved "
                f"{p['intensity'] * 100:.0f}% of the way toward {p['color']} "
                f"('adjust_color {p['color']} {p['intensity']:.2f}').")
    if f.kind == "crop":
        b = p["box"]
        return (f"It keeps {p['kept_fraction'] * 100:.0f}% of the earlier image, the part {_box_text(b)} "
                f"('crop {b[0]} {b[1]} {b[2]} {b[3]}').")
    if f.kind == "scale":
        return f"It is {p['factor'] * 100:.0f}% of its earlier size."
    if f.kind == "flip":
        return f"It was mirrored {p['axis']}ly; a mirror has no amount."
    if f.kind == "background_removed":
        return f"About {p['removed_fraction'] * 100:.0f}% of the picture was background and is now gone."
    area = p.get("area_fraction")
    size = f" It covers about {area * 100:.0f}% of the picture." if area else ""
    if f.kind == "object_recolored" and p.get("from_color") and p["from_color"] != p.get("to_color"):
        return f"{_thing(f)} went from {p['from_color']} to {p['to_color']}.{size}"
    if f.kind == "object_recolored" and p.get("chroma_shift"):  # (it said "went from brown to brown")
        da, db = p["chroma_shift"]
        return (f"{f.sentence.rstrip('.')}: its colours moved by about {math.hypot(da, db):.0f} (CIELAB a*b*), "
                f"lightness {p.get('lightness_change', 0.0):+.0f} of 100.{size}")
    return f"{f.sentence}{size}".strip()


def _what(state: dict, q: str) -> list:
    exp: Explanation = state["exp"]
    idx = [i for i in _pick(state, q) if exp.findings[i].kind in LOCAL_KINDS]
    if not idx:
        return [("The changes are to the whole picture, not to one object: ", None)] + \
            _sentence_pieces(exp, state["focus"] or [0])
    state["focus"] = idx
    return _per_finding(exp, idx, _what_it_is)


def _what_it_is(f: Finding) -> str:
    obj, col = f.params.get("object"), f.params.get("color")
    if f.params.get("text"):
        return f"It is text: “{f.params['text']}”."
    if obj:
        return f"It looks like a {obj}" + (f", mostly {col}." if col else ".")
    if col:
        return f"I cannot tell what it is; it is mostly {col}."
    return "I cannot tell what it is."


def _common(state: dict, q: str) -> list:
    from agent.perception.models import color_name, detect_objects

    exp: Explanation = state["exp"]
    if exp.findings[0].kind == "identical":
        return [("Everything: they are the same picture.", None)]
    parts = []
    if exp.aligned:
        parts.append(f"Both show the same scene; about {exp.unchanged_fraction * 100:.0f}% of the picture "
                     "is unchanged apart from global adjustments.")
    if exp.before_size == exp.after_size:
        parts.append(f"They have the same size ({exp.after_size[0]}x{exp.after_size[1]}).")
    return [(" ".join(parts) + _common_objects(state, detect_objects, color_name), None)]


def _common_objects(state: dict, detect_objects, color_name) -> str:
    # Objects and the dominant colour of each version, from perception; best effort.
    from agent.explain.engine import small_copy

    try:
        doc_pixels = state.get("_pixels")
        if doc_pixels is None:
            return ""
        before, after = doc_pixels
        lb = {d.label for d in detect_objects(before)}
        la = {d.label for d in detect_objects(after)}
        cb = color_name(small_copy(before, (64, 64))[0])
        ca = color_name(small_copy(after, (64, 64))[0])
    except Exception:  # a missing model must not spoil the answer
        return ""
    out = ""
    both = sorted(lb & la)
    if both:
        out += f" Both contain {', '.join('a ' + x for x in both)}."
    if cb == ca:
        out += f" Both are mostly {cb}."
    return out


_ANSWERS = {"more": _more, "where": _where, "how_much": _how_much, "what": _what, "common": _common}
