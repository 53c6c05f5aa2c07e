"""Region or thing, from whether what a dwell shows goes on to an edge (agent.perception.region_evidence), and
the region words that depend on it (agent.describe.words.describe_region)."""

from __future__ import annotations

import numpy as np

from agent.describe.words import describe_region
from agent.perception.naming import STANDS_OUT, contrast_with_surroundings, name_regions
from agent.perception.region_evidence import goes_on_to_an_edge, sky_shaped


def _noisy(img: np.ndarray, seed: int = 0, sd: float = 4.0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.clip(img + rng.normal(0, sd, img.shape), 0, 255).astype(np.uint8)


def _dunes() -> np.ndarray:
    """A sky over a band of sea over sand (mate-backgrounds' Dune, simplified)."""
    img = np.zeros((200, 300, 3), np.float32)
    img[:80] = (150, 185, 225)
    img[80:120] = (30, 110, 190)
    img[120:] = (200, 160, 90)
    return _noisy(img)


def test_a_band_of_sea_across_the_picture_is_a_region_not_an_object():
    img = _dunes()
    sea = (100, 85, 200, 115)
    # it stands out from what is above and below it, but goes on to the left and right edges
    assert contrast_with_surroundings(img, sea) >= STANDS_OUT
    assert goes_on_to_an_edge(img, sea)
    assert name_regions(img, [sea]) == [None]
    assert describe_region(img, sea)[1] != "sky"  # not up to the top edge: not the sky


def test_the_sky_goes_up_to_the_top_edge_with_a_horizon_below_it():
    img = _dunes()
    assert sky_shaped(img, (100, 20, 200, 70))
    assert describe_region(img, (100, 20, 200, 70))[1] == "sky"


def test_a_texture_that_fills_the_picture_is_neither_sky_nor_ground():
    planks = _noisy(np.full((200, 300, 3), (205, 205, 180), np.float32), sd=6.0)
    assert describe_region(planks, (50, 20, 250, 70))[1] != "sky"
    assert describe_region(planks, (50, 140, 250, 190))[1] != "ground"


def test_a_thing_on_grass_still_stands_out():
    img = np.zeros((200, 300, 3), np.float32)
    img[:] = (60, 140, 50)
    img[80:130, 120:170] = (200, 40, 40)  # a red ball on a lawn
    img = _noisy(img, sd=8.0)
    assert not goes_on_to_an_edge(img, (125, 85, 165, 125))


def _low_band(grain: float, below=None) -> np.ndarray:
    """A grey sky over a brown band low in the picture, with ``grain`` of fine noise, and
    ``below`` it (a colour) from row 170 down, or the same band to the bottom."""
    img = np.zeros((200, 300, 3), np.float32)
    img[:100] = (170, 175, 185)
    img[100:] = (120, 85, 55)
    img[100:] += np.random.default_rng(1).normal(0, grain, (100, 300, 1))
    if below is not None:
        img[170:] = below
    return np.clip(img, 0, 255).astype(np.uint8)


def test_the_ground_is_grained_and_goes_on_down_to_the_bottom():
    import cv2

    box = (60, 130, 240, 165)
    assert describe_region(_low_band(8.0), box)[1] == "ground"
    # a blurred background low in a close-up is smooth (the bokeh of mate-backgrounds' LadyBird)
    smooth = cv2.GaussianBlur(_low_band(8.0), (0, 0), 6)
    assert describe_region(smooth, box)[1] == "brown area"
    # a grained band with a dark road below it (Storm's guardrail) is not the ground either
    assert describe_region(_low_band(8.0, below=(30, 30, 35)), box)[1] == "brown area"
