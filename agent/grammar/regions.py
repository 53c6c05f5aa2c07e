"""Regions of the grammar (point and say): where an edit of the light or the colours applies.

An edit of the light or the colours may name where it applies, after the command in CAISE's
shape: ``adjust_attr brightness 20 in sky``, ``grayscale in the cat``, ``adjust_attr warmth -30 in
selection``, ``adjust_color blue 0.2 in everything except the cat``. The grammar keeps the words
(lower case, single spaces) and says what kind of region they are; agent.edits.regions turns them
into a mask on the version the edit applies to. A command without a region is the line CAISE wrote.
"""

from __future__ import annotations

import re
from typing import Protocol

from agent.grammar.errors import CommandError, shown
from editor.masks import (
    CENTER_FULL,
    CENTER_ZERO,
    DRAWN_FEATHER,
    HALF_FEATHER,
    OBJECT_FEATHER,
    SIDE_FULL,
    SIDE_ZERO,
    canonical_region_name,
)


class _Command(Protocol):
    """What the region helpers read of a command (:class:`agent.grammar.commands.Command`)."""

    name: str
    usage: str
    region: str

EXCEPT = "everything except "
REGION_USAGE = "[in <region>]"
# Regions that are not a mask of editor.masks' names and not an object the detector looks for.
SUBJECT, BACKGROUND, SELECTION = "subject", "background", "selection"
# Faces, found by the face detector: "face" the biggest (or the one placed), "faces" every one; "skin"
# the pixels of the people whose faces are found that are coloured as their faces are
FACE = "face"
_FACES = re.compile(r"(?:the |all (?:the )?|both )?(?P<n>faces?|skin)(?: (?:on|at) the (?P<at>left|right|top|bottom|"
                    r"middle|center|centre))?")
_REGION_WORDS = re.compile(r"^[a-z0-9][a-z0-9' :-]*$")
_NAMED_PHRASES = {
    "left": "the left side", "right": "the right side", "top": "the top", "bottom": "the bottom",
    "center": "the centre", SUBJECT: "the main subject", BACKGROUND: "the background",
    SELECTION: "your selection",
}
_DETERMINERS = re.compile(r"^(?:the|a|an|this|that|these|those|his|her|their|my|our|your|its|all|both|every|"
                          r"each|one|two|three|four|five)\b")


# What the person drew travels with the command that used it: the dialogue stores the selection's mask
# (8-bit, lossless) beside the versions and writes its hash after the word, ``in selection <sha256>``
# (``remove selection <sha256>``), so the line replays to the same pixels (agent.edits.run.replay).
_SELECTION_REF = re.compile(r"^(?:the )?selection(?: ([0-9a-f]{64}))?$")


def selection_ref(words: str) -> str | None:
    """The hash of the stored mask a selection region names, or None (none written, or no selection).

    >>> selection_ref("selection " + "ab" * 32)[:4], selection_ref("selection"), selection_ref("sky")
    ('abab', None, None)
    """
    m = _SELECTION_REF.match(words or "")
    return m.group(1) if m else None


def is_selection(words: str) -> bool:
    """Whether region (or remove) words name what the person drew: "selection", with or without
    the hash of its stored mask."""
    return bool(_SELECTION_REF.match(words or ""))


def shown_line(line: str) -> str:
    """A command line as the chat shows it: a stored selection's hash cut to its first 8 digits.

    >>> shown_line("grayscale in selection " + "0123456789" * 6 + "abcd")
    'grayscale in selection 01234567…'
    """
    return re.sub(r"\bselection ([0-9a-f]{8})[0-9a-f]{56}\b", r"selection \1…", line)


def shown_in(region: str) -> str:
    """``in_region(region)`` for labels: a selection without its hash; all but the centre, "at the edges"
    (a vignette's label was "Darker -25 in everything except center")."""
    inverted, words = region_parts(region)
    if inverted and words.strip() in ("center", "centre", "middle"):
        return " at the edges"
    return in_region((EXCEPT if inverted else "") + SELECTION) if is_selection(words) else in_region(region)


def region_parts(region: str) -> tuple[bool, str]:
    """``(inverted, words)``: "everything except the cat" is the cat's region inverted.

    >>> region_parts("everything except the cat"), region_parts("sky")
    ((True, 'the cat'), (False, 'sky'))
    """
    return (True, region[len(EXCEPT):]) if region.startswith(EXCEPT) else (False, region)


JOINED = "joined"


def joined_regions(words: str) -> list[str] | None:
    """The parts of a region of several joined by "and" ("the dog and sky"), when one of them is
    not a thing's words; None otherwise (things alone, "the dog and the cat", are one object region
    the detector looks for part by part).

    >>> joined_regions("the dog and sky"), joined_regions("the dog and the cat")
    (['the dog', 'sky'], None)
    """
    parts = [p.strip() for p in re.split(r"\s+and\s+", words)]
    if len(parts) < 2 or not all(parts):
        return None
    kinds = [_kind(p) for p in parts]
    return parts if any(k != "object" for k in kinds) and SELECTION not in kinds else None


def region_kind(words: str) -> str:
    """What the words of a region (without "everything except") name: ``"named"`` (a side, half,
    corner, the centre, a tonal range or the sky: :data:`editor.masks.REGION_NAMES`), ``"subject"``,
    ``"background"`` (the cutout mask and its inverse), ``"selection"`` (what the person drew) or
    ``"face"`` (the face detector's: "face", "faces", "face on the left"), ``"object"`` (words the
    detector looks for: "the dog", "the man on the right") or ``"joined"``
    (several of these joined by "and", one of them not a thing's: :func:`joined_regions`).

    >>> [region_kind(w) for w in ("sky", "the left side", "background", "selection", "the dog", "the dog and sky")]
    ['named', 'named', 'background', 'selection', 'object', 'joined']
    """
    return JOINED if joined_regions(words) else _kind(words)


def face_words(words: str) -> tuple[str, bool, str | None] | None:
    """``(part, every one, where)`` for the words of a region of faces ("face", "faces", "skin"),
    else None.

    >>> face_words("faces"), face_words("face on the left"), face_words("skin"), face_words("the dog")
    (('face', True, None), ('face', False, 'left'), ('skin', True, None), None)
    """
    m = _FACES.fullmatch(words)
    if not m:
        return None
    part = "skin" if m.group("n") == "skin" else "face"
    return part, m.group("n") != "face" and not (part == "skin" and m.group("at")), m.group("at")


def _kind(words: str) -> str:
    if face_words(words):
        return FACE
    if words in (SUBJECT, "the subject", "main subject", "the main subject", "foreground", "the foreground"):
        return SUBJECT
    if words in (BACKGROUND, "the background"):
        return BACKGROUND
    if is_selection(words):
        return SELECTION
    try:
        canonical_region_name(words)
    except ValueError:
        return "object"
    return "named"


def region_phrase(region: str) -> str:
    """The region in words, for replies: "the sky", "the left side", "the top left corner",
    "your selection", "everything except the cat".

    >>> region_phrase("top left"), region_phrase("everything except dog"), region_phrase("everything except center")
    ('the top left corner', 'everything except the dog', 'the edges')
    """
    inverted, words = region_parts(region)
    if inverted and words.strip() in ("center", "centre", "middle"):
        return "the edges"  # all but the centre's soft ellipse: a vignette's shape ("add a vignette", "darken the corners")
    kind = region_kind(words)
    if kind == "named":
        name = canonical_region_name(words)
        text = _NAMED_PHRASES.get(name) or (f"the {name} corner" if " " in name and "half" not in name
                                             and " the " not in name else f"the {name}")
    elif kind == FACE:
        part, every, where = face_words(words)
        text = ("the skin" if part == "skin" else "the faces" if every else "the face") + (
            f" on the {where}" if where else "")
    elif kind == JOINED:
        text = " and ".join(region_phrase(p) for p in joined_regions(words))
    elif kind in _NAMED_PHRASES:
        text = _NAMED_PHRASES[kind]
    else:
        text = words if _DETERMINERS.match(words) else f"the {words}"
    return EXCEPT + text if inverted else text


def check_region(cmd: _Command) -> None:
    """Normalise a command's region words (lower case, single spaces) and refuse what is no region."""
    region = " ".join(str(cmd.region).lower().split())
    object.__setattr__(cmd, "region", region)
    if not region:
        return
    inverted, words = region_parts(region)
    if not words.strip() or words.startswith(EXCEPT.strip()) or not _REGION_WORDS.match(words):
        raise CommandError(f"{cmd.name}: {shown(region)} is not a region; write 'in' and a region, for example "
                           f"'in sky', 'in shadows', 'in the dog', 'in selection', 'in everything except the cat'")


def split_region(args: list[str], n: int, cls: type[_Command]) -> tuple[list[str], str]:
    """The command's own ``n`` arguments and the words of its ``in <region>`` suffix ("" for none)."""
    if len(args) > n:
        if args[n].lower() != "in" or len(args) == n + 1:
            raise CommandError(f"{cls.name} takes {n} argument(s) and an optional 'in <region>', got "
                               f"{shown(' '.join(args[n:]), 40)} after them; usage: {cls.usage}")
        return args[:n], " ".join(args[n + 1:])
    return args, ""


def in_region(region: str) -> str:
    return f" in {region}" if region else ""


def region_meaning() -> str:
    """The README's row about regions: what each resolves to and its feathered edge."""
    return (
        "any adjust_attr, adjust_color, grayscale and auto_enhance may end with `in <region>`: the operation "
        "runs on the whole picture and is kept only inside the region's soft mask m, `out = m*op(in) + "
        "(1-m)*in`, so pixels where m = 0 are unchanged bit for bit. Regions and their edges (D the "
        "diagonal): `left`/`right`/`top`/`bottom` 1 up to "
        f"{SIDE_FULL:.3g} of the way across, a linear ramp to 0 at {SIDE_ZERO:.3g}; `left half` ... a ramp "
        f"{HALF_FEATHER:g}*D wide on the middle line; `top left` ... the product of two sides; `center` 1 "
        f"inside {CENTER_FULL:.3g} of the half-axes, 0 beyond {CENTER_ZERO:.3g}; `shadows`/`midtones`/"
        "`highlights` luminance smoothsteps (shadows full below L 0.2, none above 0.6; midtones full 0.4-0.6, "
        "none below 0.1 or above 0.9; highlights none below 0.4, full above 0.8); `sky` found from colour, "
        "texture and position, edge about 2 px on a 1280-px copy; `clouds` the sky's part greyer than the blue "
        "of its own row (saturation 0.1 under the row's 75th percentile), soft and not dark, none under 0.5% of "
        "the picture; `greenery` (also `grass`, `trees`, `plants`, `foliage`, `vegetation`) growing plants by colour "
        "(CIELAB hue from yellow-green to green-cyan, not pale: not dry grass, not a white wall in green light) and "
        "texture (not a green wall), none under 0.5% of the picture; `sky`, `clouds` and `greenery` may end with "
        "`on the left`, `on the right`, `at the top` or `at the bottom`: the part found times that half's mask; "
        "`subject`/`background` the cutout's soft "
        "alpha and its inverse; object words (`the dog`, `the man on the right`, `the cars`) each found "
        f"by the detector, masked to its edge and feathered {OBJECT_FEATHER:g}*D; `selection` the stroke or "
        "box drawn in the window, snapped to the edges it encloses (GrabCut) or, where that fails, "
        f"feathered {DRAWN_FEATHER:g}*D, recorded as `selection <sha256>`: the hash of its mask, stored (8 bits) "
        "beside the versions so the line replays to the same pixels; `everything except <region>` is 1 - m; "
        "regions joined by `and` (`the dog and sky`, one of them not an object's words) are the maximum of "
        "their masks; `face`/`faces` (also `face on the left` ...) the face detector's faces (the biggest one, "
        "the one placed, or every one), each an ellipse over its box grown to the forehead and chin, kept where "
        "its colour is the face's own, feathered a tenth of its width; `skin` (also `skin on the left`) the "
        "pixels of the silhouette of the person holding each face (the face alone when no person does) "
        "coloured as their cheeks are. "
        "A region that is not found "
        "(no sky, no such object) is said, never replaced by the whole picture (Easel extension)"
    )
