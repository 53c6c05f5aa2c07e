""""How much did you brighten it?", "by how many degrees did you rotate it?", "what did you brighten?":
the amounts and the parts of Easel's own edits of one kind, read from the version history rather than measured (:mod:`agent.explain.chat`
answers these first). They were run as requests ("Brightened by 40 points"), or taken for a thing to
look for ("“degrees did you rotate it” is not one of them")."""

from __future__ import annotations

import re

from agent.grammar.commands import (
    AdjustAttr,
    AdjustColor,
    Command,
    CommandError,
    Crop,
    CropTo,
    Remove,
    Rotate,
    parse_command,
    version_label,
)

# the words asked about -> the kind of edit (an attribute of adjust_attr, "rotation", "crop", "tint")
_ATTR_VERBS = {"brighten": "brightness", "lighten": "brightness", "darken": "brightness", "dim": "brightness",
               "expose": "brightness", "warm": "warmth", "cool": "warmth", "saturate": "saturation",
               "desaturate": "saturation", "sharpen": "sharpness", "soften": "sharpness"}
_ATTR_NOUNS = {"brightness": "brightness", "exposure": "brightness", "contrast": "contrast", "saturation": "saturation",
               "colours": "saturation", "colors": "saturation", "warmth": "warmth", "temperature": "warmth",
               "sharpness": "sharpness", "hue": "hue"}
_OTHER_VERBS = {"rotate": "rotation", "turn": "rotation", "tilt": "rotation", "straighten": "rotation",
                "crop": "crop", "trim": "crop", "zoom": "crop", "tint": "tint", "remove": "removal", "erase": "removal",
                "delete": "removal"}
_ASKED = re.compile(
    r"^(?:and )?(?:(?:by )?how (?:much|many (?:degrees|points|percent)|far)(?: exactly)?|what|where|which "
    r"(?:part|parts|thing|things|one|area|areas)) (?:did|have|has) (?:you|easel) "
    r"(?:(?:just|already|actually) )?(?P<verb>[a-z]+?)(?:e?d)?"
    r"(?: (?:up|down|in|out))?(?: (?:it|this|that|the (?:photo|picture|image|pic)|(?:the |its )(?P<noun>[a-z]+)))?"
    r"(?: (?:up|down|in|out))?(?: by)?(?: (?:so far|in all|just now|before|earlier|now))?\??$")
_VERB_STEMS = {"remov": "remove", "eras": "erase", "delet": "delete", "brightene": "brighten", "lightene": "lighten", "darkene": "darken", "sharpene": "sharpen",
               "softene": "soften", "rotat": "rotate", "saturat": "saturate", "desaturat": "desaturate",
               "expos": "expose", "straightene": "straighten"}
_RAISE = ("increase", "raise", "boost", "lower", "reduce", "decrease", "change", "adjust", "up", "bump", "turn")


def _kind(verb: str, noun: str | None) -> tuple[str, str] | None:
    """("brightness", "changed the brightness") for the words asked ("rotation", "rotated it"); None
    when they name no kind of edit."""
    verb = _VERB_STEMS.get(verb, verb)
    if noun in _ATTR_NOUNS and (verb in _RAISE or verb in _ATTR_VERBS):
        return _ATTR_NOUNS[noun], f"changed the {_ATTR_NOUNS[noun]}"
    if verb in _ATTR_VERBS:  # ("how much did you darken it?" after a brightening: "the brightness")
        return _ATTR_VERBS[verb], f"changed the {_ATTR_VERBS[verb]}"
    if verb in _OTHER_VERBS:
        kind = _OTHER_VERBS[verb]
        return kind, {"rotation": "rotated it", "crop": "cropped it", "tint": "tinted it", "removal": "removed anything"}[kind]
    return None


def _is(command: Command, kind: str) -> bool:
    if isinstance(command, AdjustAttr):
        return command.attr == kind
    return (kind == "rotation" and isinstance(command, Rotate)) or (kind == "tint" and isinstance(command, AdjustColor)) \
        or (kind == "crop" and isinstance(command, (Crop, CropTo))) or (kind == "removal" and isinstance(command, Remove))


def edits_asked(doc, question: str) -> str | None:
    """The answer to "how much did you brighten it?" from the edits that made the picture on screen
    (the document's lineage from the original): each edit of that kind in order, or that there was
    none; None when the question is not one of these."""
    m = _ASKED.fullmatch(question.strip().lower().rstrip("?").strip() + "?") if question else None
    if m is None:
        return None
    kind = _kind(m.group("verb"), m.group("noun"))
    if kind is None:
        return None
    attr, said = kind
    lines = [v.command or "" for v in doc.lineage()[1:]]
    edits = _of_kind(lines, attr)
    if not edits:
        what = "no edit yet" if not lines else f"“{'”, “'.join(version_label(line) for line in lines)}”"
        return f"I haven't {said} since the original (the edits: {what})."
    labels = "”, then “".join(c.label() for c in edits)
    times = {1: " once", 2: " twice"}.get(len(edits), f" {len(edits)} times")
    total = ""
    if len(edits) > 1 and all(isinstance(c, AdjustAttr) for c in edits) and len({c.region for c in edits}) == 1:
        # (not across parts: +30 in the lemur and -20 in the background is no "+10 in all")
        total = f" ({sum(c.amount for c in edits):+g} in all)"
    said = "removed something" if said == "removed anything" else said  # ("I haven't removed anything")
    return f"I {said}{times} since the original: “{labels}”{total}."



# the explainer's names of a kind of change -> the history's ("rotate" is a rotation, "color_tint" a tint)
_FROM_EXPLAINER = {"rotate": "rotation", "color_tint": "tint"}


def earlier_edits(doc, attr: str) -> list[str]:
    """The labels of the edits of the explainer's kind ``attr`` that made the picture on screen before
    its last step: "how much darker is the grass?" after "darken the grass a bit" and a rotation found the
    brightness unchanged since the rotation, which is true and not what was asked."""
    return [c.label() for c in _of_kind([v.command or "" for v in doc.lineage()[1:-1]], _FROM_EXPLAINER.get(attr, attr))]


def _of_kind(lines: list[str], kind: str) -> list[Command]:
    """The commands of ``lines`` (a lineage's command lines) that are edits of ``kind``."""
    out = []
    for line in lines:
        try:
            command = parse_command(line)
        except CommandError:
            continue
        if _is(command, kind):
            out.append(command)
    return out
