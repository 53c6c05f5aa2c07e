"""A critique of a photo in words, built from measurements, with a plan of concrete edits.

"What would you improve?", "how can I make this better?", "what's wrong with this photo?" get a short
answer: each finding with the figure that led to it (:mod:`agent.perception.measure`), then a plan
of command lines with amounts. Nothing runs until the person agrees: the dialogue manager keeps the
plan as its proposal, "yes" runs all of it (one request: one undo step in the window), "only the
first one" part of it.

How each figure becomes an edit (amounts rounded to 5 points):

- mean brightness under 30% (and under 2% blown white): brightness + (45% - mean), 10 to 40;
  over 68%: brightness - (mean - 55%), 10 to 40;
- the middle 96% of tones spans under 55% of the range: contrast + (0.75 / spread - 1) x 100, 10 to 30;
  over 92% with both ends clipped: contrast -15;
- mean saturation of coloured pixels under 15%: saturation +25; over 75%: saturation -15;
- near-grey tones leaning yellow or blue by more than 8 (Lab b*): warmth -/+ 2 x b*, 10 to 30;
- little fine detail (mean gradient 0.004 to 0.015): sharpness +30;
- straight lines (uprights or a horizon) tilted 0.7 to 10 degrees: said in words, with the rotation that would
  straighten it (rotating leaves transparent corners, so it is not in the plan);
- grain over :data:`agent.perception.measure.NOISY` (an estimated noise sd of 2.5 luma levels; clean
  photos measure 0.2 to 1.3, with noise of sd 5 added 3.1 to 4.0): sharpness -20, a light smoothing,
  and no sharpening (it would sharpen the grain);
- the main subject (the largest thing the detector is sure of, score 0.5 and more): filling under
  8% of the frame, "crop <it>" (to it with a margin), unless three or more of its kind are found
  (a crowd, a herd: the scene is the subject) or it fills under 1% (a tourist under a tower the
  detector does not know: no subject is said); otherwise how much it fills and where its centre
  is, said as fine.

When nothing stands out the answer says so, and offers a small contrast lift as the plan.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from agent.grammar.commands import AdjustAttr, Command, CropTo
from agent.perception import measure as m
from agent.perception.vocabulary import listed, plural


@dataclass
class Critique:
    findings: list[str]  # one sentence each, with its figure
    plan: list[Command]  # what "yes" runs, in order
    fine: list[str]  # what looks fine, in a word each

    def text(self) -> str:
        out = []
        if self.findings:
            out.append("Here is what I measured: " + "; ".join(self.findings) + ".")
        if self.fine:
            out.append(_cap(listed(self.fine)) + (" look" if len(self.fine) > 1 else " looks") + " fine.")
        if self.plan:
            steps = listed([_step(c) for c in self.plan])
            if self.findings:
                out.append(f"I would {steps}.")
            else:
                out.append(f"Nothing stands out. If you want it a little punchier, I can {steps}.")
            more = "both" if len(self.plan) == 2 else "all of it" if len(self.plan) > 2 else "it"
            out.append(f"Say 'yes' to do {more}" + (", or 'only the first one'." if len(self.plan) > 1 else "."))
        else:
            out.append("I would leave it as it is.")
        return " ".join(out)


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:]


def _step(c: Command) -> str:
    if isinstance(c, AdjustAttr):
        verb = {"brightness": ("brighten it", "darken it"), "contrast": ("raise the contrast", "lower the contrast"),
                "saturation": ("make the colours more vivid", "tone the colours down"),
                "sharpness": ("sharpen it", "smooth the grain"), "warmth": ("make it warmer", "make it cooler"),
                "hue": ("shift the hues", "shift the hues")}[c.attr][0 if c.amount > 0 else 1]
        return f"{verb} by {abs(c.amount):g} ({c.format()})"
    if isinstance(c, CropTo):
        return f"crop to the {c.target} ({c.format()})"
    return c.format()


def _five(x: float, lo: float, hi: float) -> float:
    return float(max(lo, min(hi, 5 * round(x / 5))))


def critique(pixels: np.ndarray, *, subject: bool = True) -> Critique:
    """The findings, the plan and what looks fine, for ``pixels``.

    ``subject=False`` leaves out the composition of the main subject (no detector).

    >>> c = critique(np.full((60, 80, 3), 40, np.uint8), subject=False)
    >>> [p.format() for p in c.plan]
    ['adjust_attr brightness 30', 'adjust_attr contrast 30']
    """
    f = m.measure(pixels)
    findings: list[str] = []
    plan: list[Command] = []
    fine: list[str] = []
    pct = lambda x: f"{100 * x:.0f}%"  # noqa: E731
    if f.mean < m.DARK_MEAN and f.clipped_white < m.CLIPPED:
        findings.append(f"it is dark (mean brightness {pct(f.mean)})")
        plan.append(AdjustAttr("brightness", _five((0.45 - f.mean) * 100, 10, 40)))
    elif f.mean > m.BRIGHT_MEAN:
        findings.append(f"it is bright (mean brightness {pct(f.mean)}, {pct(f.clipped_white)} blown to white)")
        plan.append(AdjustAttr("brightness", -_five((f.mean - 0.55) * 100, 10, 40)))
    elif f.clipped_white > m.CLIPPED:
        findings.append(f"{pct(f.clipped_white)} of it is blown to pure white, which no edit brings back")
    else:
        fine.append(f"the exposure (mean {pct(f.mean)})")
    if f.spread < m.FLAT_SPREAD:
        findings.append(f"the contrast is low (the middle 96% of tones spans {pct(f.spread)} of the range)")
        plan.append(AdjustAttr("contrast", _five((0.75 / max(f.spread, 0.05) - 1) * 100, 10, 30)))
    elif f.spread > m.HARSH_SPREAD and f.clipped_white > m.CLIPPED and f.clipped_black > m.CLIPPED:
        findings.append(f"the contrast is harsh ({pct(f.clipped_black)} crushed to black, "
                        f"{pct(f.clipped_white)} blown to white)")
        plan.append(AdjustAttr("contrast", -15.0))
    else:
        fine.append(f"the contrast (tones span {pct(f.spread)})")
    if not f.grey:
        if f.saturation < m.DULL_SATURATION:
            findings.append(f"the colours are dull (mean saturation {pct(f.saturation)})")
            plan.append(AdjustAttr("saturation", 25.0))
        elif f.saturation > m.VIVID_SATURATION:
            findings.append(f"the colours are very strong (mean saturation {pct(f.saturation)})")
            plan.append(AdjustAttr("saturation", -15.0))
        else:
            fine.append(f"the colours (saturation {pct(f.saturation)})")
        if abs(f.cast_b) > m.CAST:
            way = "yellow, warm" if f.cast_b > 0 else "blue, cold"
            findings.append(f"the tones that should be grey lean {way} (b* {f.cast_b:+.1f})")
            plan.append(AdjustAttr("warmth", -np.sign(f.cast_b) * _five(2 * abs(f.cast_b), 10, 30)))
    noisy = f.noise > m.NOISY
    if noisy:
        findings.append(f"it is grainy (noise sd about {f.noise:.1f} levels of 255; the clean photos I know measure "
                        f"under 1.5)")
        plan.append(AdjustAttr("sharpness", -20.0))
    if noisy:
        pass
    elif m.FLAT_DETAIL < f.detail < m.SOFT_DETAIL:
        findings.append(f"it looks soft (fine detail {f.detail:.3f}; the sharp photos I know measure {m.SHARP_DETAIL:.3f} and more)")
        plan.append(AdjustAttr("sharpness", 30.0))
    elif f.detail >= m.SOFT_DETAIL:
        fine.append(f"the sharpness (fine detail {f.detail:.3f})")
    if f.tilt is not None and m.TILT_MIN <= abs(f.tilt) <= m.TILT_MAX:
        way = "clockwise" if f.tilt > 0 else "counter-clockwise"
        findings.append(f"its straight lines tilt {abs(f.tilt):.1f}°; 'rotate "
                        f"{abs(f.tilt):.1f} degrees {way}' would level it (the corners would show)")
    if subject:
        _composition(pixels, findings, plan, fine)
    if not plan and not findings:
        plan.append(AdjustAttr("contrast", 10.0))
    return Critique(findings, plan, fine)


_SETTINGS = {"dining table", "bed", "couch", "bench", "chair", "tv", "refrigerator"}
SMALL_SUBJECT = 0.08  # of the frame's area: a main subject this small is lost in it ...
MANY = 3  # ... unless this many of its kind are found surely: a crowd or a herd, no one of them the subject
SUBJECT_AT_LEAST = 0.01  # the largest thing found, if it is smaller, is no main subject (a tourist under a tower)


def _composition(pixels: np.ndarray, findings: list[str], plan: list[Command], fine: list[str]) -> None:
    """The main subject's share of the frame and where its centre is, from the detector."""
    from agent.perception.naming import called_otherwise
    from agent.perception.things import detect

    h, w = pixels.shape[:2]
    area = lambda d: (d.box[2] - d.box[0]) * (d.box[3] - d.box[1])  # noqa: E731
    # what the subject stands on or in front of (a table under the cup, a bed under the cat) is not it
    sure = [d for d in detect(pixels, min_score=0.5) if d.label not in _SETTINGS and area(d) < 0.9 * w * h]
    if not sure:
        return
    d = max(sure, key=area)
    x1, y1, x2, y2 = d.box
    share = (x2 - x1) * (y2 - y1) / float(w * h)
    cx, cy = (x1 + x2) / 2 / w, (y1 + y2) / 2 / h
    where = f"its centre at {100 * cx:.0f}% across and {100 * cy:.0f}% down"
    # describe's word for it: gcompris' jaguar was "the bear" here (the detector's label) and "a jaguar" there
    word = called_otherwise(pixels, d.box, d.label, min_score=0.5) or d.label
    kin = [o for o in sure if o.label == d.label]
    if share < SUBJECT_AT_LEAST:
        # gcompris' Eiffel Tower: "crop to the person" (a tourist at the bottom, 0% of the frame), the
        # tower being no thing the detector knows: what it finds this small is no main subject
        return
    if share < SMALL_SUBJECT and len(kin) >= MANY:
        # gcompris' Japanese drummers: "crop to the person" (one of eight, 2% of the frame) was the plan
        fine.append(f"the composition (a scene of {len(kin)} {plural(d.label)} or more, none of them its main subject)")
        return
    if share < SMALL_SUBJECT:
        findings.append(f"the main subject, the {word}, fills only {100 * share:.0f}% of the frame ({where})")
        plan.append(CropTo(d.label if word in ("animal", "object", "thing") else word))
    else:
        fine.append(f"the composition (the {word} fills {100 * share:.0f}% of the frame, {where})")
