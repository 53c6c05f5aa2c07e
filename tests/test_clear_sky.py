""""remove the clouds" (issue 29): the clouds of a blue sky filled from the clear sky around them;
nothing else touched, and said so when there is nothing to do."""

from __future__ import annotations

import numpy as np
import pytest

from agent.edits import removal
from agent.edits.regions import RegionNotFound
from agent.language.reader import read
from editor.sky import clear_sky, clouds_mask

BLUE, GROUND = (70, 130, 230), (60, 110, 40)


def scene(cloud=True, rock=False, overcast=False) -> np.ndarray:
    rng = np.random.default_rng(0)
    img = np.zeros((240, 320, 3), np.float64)
    rows = np.linspace(0, 1, 160)[:, None, None]
    img[:160] = np.array(BLUE) * (1 - 0.25 * rows) + np.array([200, 215, 240]) * 0.25 * rows  # paler to the horizon
    if overcast:
        img[:160] = 205
    if cloud:
        yy, xx = np.mgrid[:240, :320]
        puff = np.clip(1.3 - np.hypot((xx - 90) / 50, (yy - 50) / 22), 0, 1)  # soft, as clouds are
        img = img * (1 - puff[:, :, None]) + 245 * puff[:, :, None]
    img[160:] = GROUND
    if rock:
        img[110:160, 220:300] = 235  # sunlit white rock standing on the ground
    return np.clip(img + rng.normal(0, 1.5, img.shape), 0, 255).astype(np.uint8)


def test_a_cloud_in_a_blue_sky_is_filled_from_the_sky_around_it():
    img = scene()
    assert clouds_mask(img)[50, 90] > 0.5
    out, share = clear_sky(img)
    assert 0.05 < share < 0.5
    assert np.abs(out[50, 90].astype(int) - img[50, 200]).max() < 15  # the blue of its row
    assert (out[160:] == img[160:]).all()  # not the ground


def test_white_against_the_land_is_no_cloud_to_remove():
    """Mount Rushmore's sunlit granite beside a clear sky was taken for clouds and filled with blue."""
    img = scene(cloud=False, rock=True)
    out, share = clear_sky(img)
    assert share == 0.0 and (out == img).all()


def test_an_overcast_sky_has_no_blue_to_fill_from():
    img = scene(overcast=True)
    try:
        out, share = clear_sky(img)
    except ValueError as exc:
        assert "too little clear sky" in str(exc)
    else:  # (an even grey sky shows no clouds at all)
        assert share == 0.0 and (out == img).all()


@pytest.mark.parametrize("words", ["remove the clouds", "get rid of all the clouds in the sky", "remove the cloud"])
def test_remove_the_clouds_is_read_as_the_clouds(words):
    """It asked for a drawing: "I can only remove things I can recognise"."""
    assert [c.format() for c in read(words, model=lambda *a, **k: None, photo_open=True).commands] == [
        "remove the clouds"]


def test_the_removal_says_how_much_and_what_it_left_or_why_not():
    out, overlays, note = removal.remove(scene(), "the clouds")
    assert "of the sky" in note and "low over the horizon" in note
    with pytest.raises(RegionNotFound, match="I don't see clouds"):
        removal.remove(scene(cloud=False), "the clouds")


def test_the_explanation_says_clouds_were_removed():
    """It said "the skyblue object at the top was removed"."""
    from agent.explain.engine import explain_images

    img = scene()
    out, _ = clear_sky(img)
    said = " ".join(f.sentence for f in explain_images(img, out).findings)
    assert said.startswith("Clouds at the top") and "were removed" in said, said
