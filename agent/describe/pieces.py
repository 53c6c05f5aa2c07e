"""Pieces of a trace that belong together: one thing traced in two strokes (:func:`continued`),
background dwells that follow one another and touch (:func:`touching_runs`), joined into one
segment (:func:`join_segments`) and named as one thing or each on its own (:func:`run_name`).
Used by :func:`agent.describe.caption.caption_trace`."""

from __future__ import annotations

import numpy as np

# A pen put down this near (normalised) to where it was lifted goes on tracing the same thing.
CONTINUES = 0.08


def continued(segs, pause: float):
    """Join a piece of trace to the one before it when the pen was lifted (or paused) and put
    down again where it left off, and at least one of the two is off every detection: one thing
    traced in two strokes, whose halves the detection box may not both hold (a rocket's box is
    narrower than the dark sky around it that the loop goes over). The joined piece is on the
    detection if either half was."""
    out: list = []
    for s in segs:
        p = out[-1] if out else None
        if (p is not None and (p.region < 0 or s.region < 0) and s.t0 - p.t1 > pause
                and float(np.linalg.norm(s.points[0, :2] - p.points[-1, :2])) <= CONTINUES):
            region = max(p.region, s.region)
            out[-1] = join_segments([p, s])
            out[-1].region = region
            continue
        out.append(s)
    return out


def run_name(named: list, pieces: list[int], durations: list[float] = ()):
    """The name of a run of background pieces from ``named`` (the whole run first, then its
    pieces and their parts; ``pieces`` the positions of the run's pieces, ``durations`` how long
    each piece lasts, in seconds): None (each piece is named on its own) when the pieces that are
    nothing (that do not stand out) last at least :data:`MOSTLY_NOTHING` times as long as those
    the classifier names: a place looked at, then a thing beside it. On the camera man's photo
    three dwells on the grass (2.2 s) and one on the tripod (0.7 s) were one "tripod"
    (bench/trace.py --photos 60); a loop round a rocket leaves a piece on the sky beside it, at
    most 0.8 times as long as its pieces on the rocket (the development set, parts 1 and 3)."""
    alone = [named[k] for k in pieces]
    thing = sum(t for n, t in zip(alone, durations) if n is not None and n.source == "classifier")
    nothing = sum(t for n, t in zip(alone, durations) if n is None)
    if thing > 0 and nothing >= MOSTLY_NOTHING * thing:
        return None
    return _surest(named)


def _surest(named: list):
    """The first of ``named`` (the whole) unless a part was named a thing by the classifier."""
    best = max((n for n in named if n is not None and n.source == "classifier"),
               key=lambda n: n.confidence, default=None)
    return best or named[0]


def union(boxes):
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes),
            max(b[3] for b in boxes))


# See run_name.
MOSTLY_NOTHING = 2.0

# Two background dwells one after the other this near (a share of the larger box's side) are one
# thing looked at in pieces: a loop round a rocket whose straight side looked like the pen
# travelling away left pieces 0.10-0.22 apart; dwells on two things, or on a thing and the grass,
# were 0.41 apart and more (bench/trace.py's development set, parts 1-3).
TOUCHING = 0.25


def touching_runs(segs, pause: float) -> list[list[int]]:
    """Indices of ``segs`` grouped into runs: a segment that is not on a detection and follows
    one that is not either, with dwell boxes that overlap or touch (a gap under :data:`TOUCHING`
    of the larger box's side) or in the same dwell (the grid cut it, the pointer did not travel away:
    :func:`agent.describe.traces.segment_trace`), joins its run; every other segment is a run of its own."""
    runs: list[list[int]] = []
    for i, s in enumerate(segs):
        if s.region < 0 and runs and segs[i - 1].region < 0:
            p = segs[i - 1]
            # a pen lifted and put down far away within the pause is a new dwell, not the same
            # one cut in two (three quick loops, a ladybird then two flowers, became one "beetle")
            near = float(np.linalg.norm(s.points[0, :2] - p.points[-1, :2])) <= CONTINUES
            if s.t0 - p.t1 <= pause and near and (-1 - s.region) // 9 == (-1 - p.region) // 9:
                runs[-1].append(i)
                continue
            a, b = union([segs[j].box for j in runs[-1]]), s.box
            gx = max(0.0, max(a[0], b[0]) - min(a[2], b[2]))
            gy = max(0.0, max(a[1], b[1]) - min(a[3], b[3]))
            size = max(a[2] - a[0], a[3] - a[1], b[2] - b[0], b[3] - b[1])
            if gx <= TOUCHING * size and gy <= TOUCHING * size:
                runs[-1].append(i)
                continue
        runs.append([i])
    return runs


def join_segments(parts):
    """One background segment from consecutive ones (their points in time order)."""
    from agent.describe.traces import TraceSegment

    if len(parts) == 1:
        return parts[0]
    core = [p.core if p.core is not None else np.ones(len(p.points), bool) for p in parts]
    out = TraceSegment(points=np.concatenate([p.points for p in parts]), region=parts[0].region,
                       core=np.concatenate(core))
    out.parts = [b for p in parts for b in [p.box] + getattr(p, "parts", [])]  # what each was alone
    return out
