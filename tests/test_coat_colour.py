"""The colour of an animal whose coat people know: white in shade is still white."""

from __future__ import annotations

import numpy as np


def test_a_white_coated_animal_in_shade_is_white():
    """A polar bear walking against a low sun (gcompris' explore_world_animals) was "a grey bear"."""
    from agent.perception.models import classifier_and_labels
    from agent.perception.naming import coat_colour

    _, labels = classifier_and_labels()
    first = [label.split(",")[0] for label in labels]
    probs = np.zeros(len(labels), np.float32)
    probs[first.index("ice bear")] = 0.99
    assert coat_colour("grey", probs) == "white" and coat_colour("beige", probs) == "white"
    assert coat_colour("brown", probs) == "brown"  # a muddy bear stays what it shows
    probs[:] = 0
    probs[first.index("brown bear")] = 0.99
    assert coat_colour("grey", probs) == "grey"
