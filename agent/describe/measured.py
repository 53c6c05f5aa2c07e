"""Questions about the whole photo's qualities, answered from its measures (:mod:`agent.perception.measure`):
exposure, colour cast, sharpness, tilt, saturation and contrast, each with the figure behind the verdict
and the threshold it is judged by. Split from :mod:`agent.describe.questions`."""

from __future__ import annotations

import numpy as np

from agent.grammar.commands import AdjustAttr, Command
from agent.perception import measure as m


def measured(pixels: np.ndarray, about: str) -> tuple[str, dict, list[Command]]:
    """"is it too dark?", "is it sharp?", "is it crooked?": the photo's measure for the quality
    ``about``, the verdict with its figure, and the edit "yes" would run (a proposal)."""
    f = m.measure(pixels)
    pct = lambda x: f"{100 * x:.0f}%"  # noqa: E731
    if about in {"dark", "underexposed", "light"} or about in {"bright", "overexposed", "exposed"}:
        dark = f.mean < m.DARK_MEAN
        bright = f.mean > m.BRIGHT_MEAN
        figure = (f"its mean brightness is {pct(f.mean)}, with {pct(f.clipped_black)} crushed to black and "
                  f"{pct(f.clipped_white)} blown to white (I call a photo dark under {pct(m.DARK_MEAN)} and bright "
                  f"over {pct(m.BRIGHT_MEAN)})")
        if dark:
            amount = max(10.0, min(40.0, 5 * round((0.45 - f.mean) * 20)))
            return (f"Yes, it is on the dark side: {figure}. Should I brighten it by {amount:g}?", {},
                    [AdjustAttr("brightness", amount)])
        if bright:
            amount = max(10.0, min(40.0, 5 * round((f.mean - 0.55) * 20)))
            return (f"It is on the bright side: {figure}. Should I darken it by {amount:g}?", {},
                    [AdjustAttr("brightness", -amount)])
        return f"No, it is neither too dark nor too bright: {figure}.", {}, []
    if about in {"warm", "cold", "cool", "blue", "yellow", "orange", "red", "green", "pink", "purple"}:
        if f.grey:
            return "It has no colour at all, so no colour cast either.", {}, []
        figure = f"the tones that should be grey measure b* {f.cast_b:+.1f} (+ yellow, - blue) and a* {f.cast_a:+.1f}"
        if f.cast_b > m.CAST:
            return f"It leans warm: {figure}. Should I make it cooler by 15?", {}, [AdjustAttr("warmth", -15.0)]
        if f.cast_b < -m.CAST:
            return f"It leans cold: {figure}. Should I make it warmer by 15?", {}, [AdjustAttr("warmth", 15.0)]
        return f"No, I see no strong colour cast: {figure} (I call it a cast beyond ±{m.CAST:g}).", {}, []
    if about in {"blurry", "blurred", "sharp", "soft", "in focus", "out of focus"}:
        figure = (f"its fine detail measures {f.detail:.3f} (I call a photo soft under {m.SOFT_DETAIL:.3f}; the sharp "
                  f"photos I know measure {m.SHARP_DETAIL:.3f} and more)")
        if f.detail < m.FLAT_DETAIL:
            return f"It has almost no fine detail to judge by ({f.detail:.3f}): it may be a drawing or a plain area.", {}, []
        if f.detail < m.SOFT_DETAIL:
            return f"It looks soft: {figure}. Should I sharpen it by 30?", {}, [AdjustAttr("sharpness", 30.0)]
        # between the two, "sharp enough" beside "the sharp photos measure 0.023 and more" read as a contradiction
        how = "sharp" if round(f.detail, 3) >= m.SHARP_DETAIL else "reasonably sharp, not crisp"  # as the figure is shown
        return f"It looks {how} to me: {figure}.", {}, []
    if about in {"crooked", "tilted", "straight", "level"}:
        if f.tilt is None:
            return "I find no straight line I can be sure of (an upright edge, a horizon) to judge by, so I can't tell.", {}, []
        if abs(f.tilt) < m.TILT_MIN:
            return f"It looks level: its straight lines tilt {abs(f.tilt):.1f}°.", {}, []
        way = "clockwise" if f.tilt > 0 else "counter-clockwise"
        return (f"Its straight lines tilt {abs(f.tilt):.1f}°; 'rotate {abs(f.tilt):.1f} degrees {way}' "
                "would level them (the corners would show).", {}, [])
    if about in {"saturated", "oversaturated", "dull", "vivid", "colorful", "washed out", "color", "saturation"}:
        if f.grey:
            return "It is black and white: no colour at all.", {}, []
        figure = f"the mean saturation of its colours is {pct(f.saturation)}"
        if f.saturation < m.DULL_SATURATION:
            return f"The colours are dull: {figure}. Should I make them more vivid by 25?", {}, \
                [AdjustAttr("saturation", 25.0)]
        if f.saturation > m.VIVID_SATURATION:
            return f"The colours are very strong: {figure}. Should I tone them down by 15?", {}, \
                [AdjustAttr("saturation", -15.0)]
        return f"The colours look balanced to me: {figure}.", {}, []
    if about in {"flat", "contrasty", "contrast"}:
        figure = f"the middle 96% of its tones spans {pct(f.spread)} of the range"
        if f.spread < m.FLAT_SPREAD:
            return f"Yes, the contrast is low: {figure}. Should I raise it by 20?", {}, [AdjustAttr("contrast", 20.0)]
        return f"The contrast looks fine to me: {figure}.", {}, []
    if about in {"noisy", "grainy", "noise"}:
        return "I can't measure noise or grain yet.", {}, []
    return f"I can't measure “{about}”. I can tell you about exposure, contrast, colour, sharpness and tilt.", {}, []


def extreme_part(pixels: np.ndarray, which: str) -> tuple[str, dict, list[Command]]:
    """"what's the brightest part of the picture?", "where is it darkest?": of the picture cut in 3 x 3,
    the part whose mean brightness (Rec. 601 grey, 0-100% of full scale) is highest (``which``
    "bright") or lowest, where it is and its figure against the whole picture's, its box drawn. It
    was "I can't find the brightest on my own"."""
    import cv2

    from agent.describe.placing import where_words
    from agent.perception.models import to_rgb8

    rgb = to_rgb8(pixels)
    h, w = rgb.shape[:2]
    grey = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY).astype(np.float32) / 255.0
    cells = [(grey[h * r // 3:h * (r + 1) // 3, w * c // 3:w * (c + 1) // 3].mean(), r, c) for r in range(3) for c in range(3)]
    level, r, c = max(cells) if which == "bright" else min(cells)
    box = [w * c // 3, h * r // 3, w * (c + 1) // 3, h * (r + 1) // 3]
    word = "brightest" if which == "bright" else "darkest"
    overlay = {"kind": "box", "target": "current", "box": box, "color": "#ffd54a", "label": word}
    return (f"The {word} part is {where_words(box, rgb.shape)}: its mean brightness is {100 * level:.0f}% of full scale, "
            f"against {100 * float(grey.mean()):.0f}% for the whole picture (its box is on the picture).",
            {"overlays": [overlay]}, [])


# "is the cheetah in focus?" was answered of the whole picture: a thing is in focus when its sharpest
# edges are crisp. Set on five development photos (gcompris' cheetah, dog and owl, Kleiber's nuthatch, the
# library's red balloon) and the same blurred by 2 and 4 pixels at 768 a side: crisp 0.18 to 0.29 (and as
# much with the thing brightened by 51 levels), blurred by 2 0.06 to 0.16, by 4 0.04 to 0.09
CRISP_EDGES = 0.17
SOFT_EDGES = 0.10


def thing_focus(pixels: np.ndarray, box, said: str) -> str:
    """Whether the thing in ``box`` (``said``: "the cheetah on the right") looks in focus, from the
    strength of its sharpest edges (:func:`agent.perception.measure.edges_in`) against the rest's."""
    inside, rest = m.edges_in(pixels, box)
    figure = (f"its sharpest edges measure {inside:.2f}, against {rest:.2f} for the rest of the picture (I call "
              f"edges crisp from {CRISP_EDGES:.2f} and soft under {SOFT_EDGES:.2f})")
    lead = said[:1].upper() + said[1:]
    if inside >= CRISP_EDGES:
        return f"{lead} looks in focus: {figure}."
    if inside < SOFT_EDGES:
        more = " The focus may be on something else." if rest >= CRISP_EDGES else ""
        return f"{lead} looks soft: {figure}.{more}"
    return f"{lead} looks reasonably sharp, not crisp: {figure}."
