"""'Straighten it' with no angle: the rotation that levels the horizon the picture shows.

The tilt is :func:`agent.perception.measure.measure`'s (what the uprights or a horizon say, +
counter-clockwise, None when no straight line says it surely), the figure the critique reports; levelling turns the
picture the other way by as much, and crops to the largest upright rectangle (no empty corners).
"""

from __future__ import annotations

import numpy as np

from agent.grammar.commands import Rotate
from agent.perception import measure as m


def level(pixels: np.ndarray) -> tuple[Rotate | None, str]:
    """The rotation that levels ``pixels`` and a sentence saying what was measured; (None, why) when
    there is nothing to level (no straight line that says it surely, or a tilt of less than
    :data:`agent.perception.measure.TILT_MIN` or more than :data:`~agent.perception.measure.TILT_MAX`
    degrees, which is taken as meant).

    >>> level(np.full((40, 60, 3), 128, np.uint8))[0] is None
    True
    """
    tilt = m.measure(pixels).tilt
    if tilt is None:
        return None, ("I found no straight line I can be sure of (an upright edge, a horizon) to level it by. Tell "
                      "me how much, for example 'straighten it by 3 degrees' or 'rotate 2 degrees clockwise and crop'.")
    t = round(abs(tilt), 1)
    if t < m.TILT_MIN:
        return None, f"It already looks level (its straight lines tilt {t:.1f}°, under {m.TILT_MIN}°), so I left it as it is."
    if t > m.TILT_MAX:
        return None, (f"Its straight lines tilt {t:.1f}°, more than a crooked photo's do "
                      f"(over {m.TILT_MAX:g}°): it looks meant. Tell me the angle if you want it turned.")
    way = "counter-clockwise" if tilt > 0 else "clockwise"
    return (Rotate(360 - t if tilt > 0 else t, crop=True),
            f"Its straight lines say it tilted {t:.1f}° {way}; I turned it back by as much.")
