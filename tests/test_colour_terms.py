"""Basic colour terms in CIELAB and the white-patch balance (agent/perception/colour_terms.py)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from agent.perception.colour_terms import colour_term, term, to_lab, white_balance_gains


@pytest.mark.parametrize("rgb,want", [
    ((217, 102, 71), "orange"),   # the astronaut's suit
    ((150, 30, 30), "red"), ((110, 50, 150), "purple"), ((235, 150, 190), "pink"),
    ((140, 200, 60), "green"),    # a yellowish meadow is green, not yellow
    ((150, 185, 225), "blue"),    # a pale sky is blue, not grey
    ((110, 100, 30), "green"),    # dark olive grass
    ((240, 200, 40), "yellow"), ((100, 60, 30), "brown"), ((215, 195, 160), "beige"),
    ((30, 30, 30), "black"), ((128, 128, 128), "grey"), ((245, 245, 245), "white"),
])
def test_basic_terms(rgb, want):
    assert term(to_lab(np.array([rgb], np.uint8))[0]) == want


def test_a_coloured_thing_is_named_by_its_colour_not_its_shadow():
    px = np.array([[240, 200, 40]] * 55 + [[20, 20, 10]] * 45, np.uint8)  # a petal and the dark between
    assert colour_term(px) == "yellow"


def test_white_balance_makes_a_tinted_white_neutral_and_leaves_a_sky_alone():
    warm = np.full((20, 20, 3), (240, 228, 205), np.uint8)
    g = white_balance_gains(warm)
    assert g[2] > 1.0 > g[0]
    sky = np.full((20, 20, 3), (170, 200, 240), np.uint8)  # the lightest thing, but blue
    assert np.allclose(white_balance_gains(sky), 1.0)
    flower = np.full((20, 20, 3), (250, 210, 30), np.uint8)
    assert np.allclose(white_balance_gains(flower), 1.0)
    # a cast corrected: a grey card under warm light reads grey again
    img = np.full((40, 40, 3), (240, 228, 205), np.uint8)
    img[10:30, 10:30] = (140, 128, 105)
    assert colour_term(img[10:30, 10:30].reshape(-1, 3), white_balance_gains(img)) == "grey"


def _figure(coat, face=(200, 150, 120), trousers=(30, 30, 35)):
    img = np.full((200, 120, 3), (90, 140, 200), np.uint8)  # a blue wall
    img[10:50, 40:80] = face
    img[50:140, 20:100] = coat
    img[140:200, 30:90] = trousers
    return img


def test_a_person_in_a_cream_coat_is_in_beige_or_white_not_in_black():
    from agent.perception.naming import person_clothing_colour

    def mask(img):  # the person's own pixels, as GrabCut gives them
        return np.any(img != (90, 140, 200), axis=2)

    img = _figure((235, 222, 195))
    assert person_clothing_colour(img, (0, 0, 120, 200), mask(img)) in ("beige", "white")
    # a red coat is still red, and the face is never the colour
    img = _figure((180, 30, 30))
    assert person_clothing_colour(img, (0, 0, 120, 200), mask(img)) == "red"


def test_a_dark_strongly_coloured_orange_is_orange_not_brown():
    # a dahlia's petals in shade: dark (L* about 42) but strongly coloured (chroma about 70)
    lab = np.array([42.0, 52.0, 48.0])
    assert term(lab) == "orange"
    assert term(to_lab(np.array([(100, 60, 30)], np.uint8))[0]) == "brown"  # dark wood stays brown



def test_a_dark_blue_night_sky_is_black_and_a_dark_brown_stays_brown():
    assert term(np.array([16.0, 3.0, -17.0])) == "black"   # behind a launch tower at night
    assert term(np.array([30.0, 3.0, -25.0])) == "blue"    # a navy blue still blue
    assert term(to_lab(np.array([(60, 38, 22)], np.uint8))[0]) == "brown"  # a dark brown dog


def _shaded_white_over(background):
    """A white bird in blue shade (L* about 67, a little blue) over ``background``, with a few
    highlights on it; its box."""
    img = np.full((120, 160, 3), background, np.uint8)
    img[30:90, 40:120] = (155, 163, 178)
    img[40:60, 60:100] = (170, 176, 188)
    return img, (40, 30, 120, 90)


def test_a_white_thing_in_shade_is_white_when_it_is_as_light_as_the_photo_gets():
    from agent.perception.naming import object_colour

    # over a dark scene the bird is the lightest thing: people see it white, not grey or blue
    img, box = _shaded_white_over((40, 45, 35))
    assert object_colour(img, box) == "white"
    # the same pixels beside a sunlit white wall are a bluish grey thing, as they are alone
    img, box = _shaded_white_over((40, 45, 35))
    img[:, 130:] = (250, 250, 248)
    img[:, 125:130] = (245, 245, 243)
    assert object_colour(img, box) == "blue"


def test_white_in_shade_needs_a_light_nearly_neutral_colour():
    from agent.perception.colour_terms import white_level

    shade = np.array([[155, 163, 178]] * 60, np.uint8)  # L* 67, chroma 9
    assert colour_term(shade) == "blue"
    assert colour_term(shade, white=white_level(shade.reshape(6, 10, 3))) == "white"
    # a pale sky, however light, stays blue (chroma about 20), and a dark grey stays grey
    sky = np.array([[150, 185, 225]] * 60, np.uint8)
    assert colour_term(sky, white=white_level(sky.reshape(6, 10, 3))) == "blue"
    dark = np.array([[90, 90, 92]] * 60, np.uint8)
    assert colour_term(dark, white=white_level(dark.reshape(6, 10, 3))) == "grey"


def _lch(L, c, h):
    return np.array([L, c * np.cos(np.radians(h)), c * np.sin(np.radians(h))])


def test_dark_strongly_coloured_orange_red_petals_are_orange_and_a_dark_red_cup_red():
    assert term(_lch(36.3, 71.0, 42.7)) == "orange"  # a dahlia's petals in shade
    assert term(_lch(34.6, 60.4, 41.7)) == "red"     # the coffee cup: dark, less strongly coloured
    assert term(_lch(35.9, 71.9, 40.0)) == "red"     # redder than the orange-red hues: red


def test_an_orange_up_to_hue_72_is_orange_not_yellow():
    # a butterfly's orange wings (hue 70-71) and, past the boundary, a sunflower's yellow
    assert term(_lch(65.4, 65.3, 70.6)) == "orange"
    assert term(_lch(61.9, 69.9, 72.7)) == "yellow"


def test_a_weakly_coloured_yellow_that_is_not_light_is_brown():
    assert term(_lch(56.6, 22.4, 75.1)) == "brown"   # a mountain goat's hide
    assert term(_lch(51.0, 17.5, 79.1)) == "brown"   # a hippopotamus
    assert term(_lch(56.9, 67.8, 73.0)) == "yellow"  # a sunflower in shade: strongly coloured
    assert term(_lch(73.7, 20.8, 80.0)) == "beige"   # light and weak: beige, as before


def test_a_dark_weakly_coloured_red_orange_is_brown():
    assert term(_lch(35.7, 18.7, 43.5)) == "brown"  # a vulture's plumage
    assert term(_lch(34.6, 60.4, 41.7)) == "red"    # a dark red cup, strongly coloured
    assert term(_lch(30.0, 20.0, 10.0)) == "red"    # a dark, weak crimson stays red


def test_a_box_running_past_the_edge_is_cut_to_the_picture():
    from agent.perception.naming import object_colour

    img = np.full((100, 120, 3), (40, 120, 40), np.uint8)
    img[40:100, 70:120] = (200, 30, 30)  # a red thing at the bottom right corner
    assert object_colour(img, (70, 40, 125, 104)) == "red"


@pytest.mark.parametrize("rgb,want", [
    ((128, 0, 255), "purple"), ((138, 43, 226), "purple"), ((75, 0, 130), "purple"),  # violet, indigo
    ((102, 51, 153), "purple"),  # rebeccapurple
    ((0, 0, 255), "blue"), ((106, 90, 205), "blue"), ((65, 105, 225), "blue"),  # slate and royal blue
])
def test_violets_are_purple_and_blues_stay_blue(rgb, want):
    assert term(to_lab(np.array([rgb], np.uint8))[0]) == want


def _lch_pixels(parts):
    """8-bit sRGB pixels of (count, L*, chroma, hue angle) parts."""
    out = []
    for n, lightness, chroma, hue in parts:
        a, b = chroma * np.cos(np.radians(hue)), chroma * np.sin(np.radians(hue))
        lab = np.array([[[lightness, a, b]]], np.float32)
        rgb = np.clip(cv2.cvtColor(lab, cv2.COLOR_LAB2RGB)[0, 0], 0, 1) * 255
        out += [rgb.round()] * n
    return np.array(out, np.uint8)


def test_a_surface_in_light_and_shade_is_named_together_not_by_its_shaded_side():
    # a dahlia's petals (bench/colours.py's development crop): the shade between them a dark
    # red-orange, the lit parts orange; the shaded cluster alone is the largest and said "red"
    petals = _lch_pixels([(38, 36, 72, 41), (34, 55, 68, 53), (28, 71, 49, 62)])
    assert colour_term(petals) == "orange"


def test_a_yellow_in_shade_is_named_with_its_lit_side():
    # a yellow flower's petals from shade to light (L* 50-90; more of them in shade, where a
    # yellow's hue angle falls to an orange's), and the dark between them
    t = np.linspace(0.0, 1.0, 60) ** 1.5
    yellow = _lch_pixels([(1, 50 + 40 * x, 65 + 20 * x, 66 + 26 * x) for x in t] + [(5, 8, 11, 74)])
    assert colour_term(yellow) == "yellow"


def test_clusters_of_different_hues_are_not_merged():
    # a red cup (the largest coloured cluster) with orange coffee in view: still red, not an average
    cup = _lch_pixels([(45, 45, 65, 30), (35, 60, 60, 65), (20, 90, 3, 90)])
    assert colour_term(cup) == "red"


def test_light_and_shade_are_not_black_and_white_patches():
    """gcompris' kangaroo in sun and shade was "a black and white wallaby": a third of it dark, two
    fifths light, but a quarter of it in between (a Holstein cow's patches: 3% in between)."""
    from agent.perception.colour_terms import two_tone

    patches = np.array([[20, 20, 20]] * 60 + [[235, 235, 235]] * 37 + [[128, 128, 128]] * 3, np.uint8)
    graded = np.array([[20, 20, 20]] * 35 + [[235, 235, 235]] * 41 + [[128, 128, 128]] * 24, np.uint8)
    assert two_tone(patches) and not two_tone(graded)
