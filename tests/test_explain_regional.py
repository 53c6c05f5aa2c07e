"""A regional edit is explained as one ("brighten the sky", "darken the shadows").

When the part edited was most of the picture, the robust whole-picture fit took the part's change
for the picture's, and the unchanged rest came out as a local change: after "brighten the sky" on
the Taj Mahal (56% sky), "a region at the bottom changed colour from beige to grey"."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from agent.explain import LOCAL_KINDS, explain_images
from agent.explain.regional import contrast_change, regional_part
from editor import adjust, ops
from editor.masks import apply_in_region, region_mask


@pytest.fixture(scope="module")
def landscape() -> np.ndarray:
    """A blue sky with soft clouds over two thirds of the picture, above textured green ground."""
    h, w = 240, 320
    rng = np.random.default_rng(5)
    yy, xx = np.mgrid[0:h, 0:w] / np.array([h, w])[:, None, None]
    sky = np.stack([90 + 100 * yy, 140 + 70 * yy, 230 + 0 * yy], axis=2)
    cloud = np.exp(-(((xx - 0.3) / 0.12) ** 2 + ((yy - 0.25) / 0.06) ** 2))[..., None]
    sky = sky * (1 - 0.8 * cloud) + 245 * 0.8 * cloud
    ground = cv2.GaussianBlur(rng.normal(0, 30, (h, w, 3)), (0, 0), 1.5) + (80, 115, 45)
    horizon = (0.66 * h + 0.04 * h * np.sin(np.arange(w) / w * 9)).astype(int)
    is_sky = np.arange(h)[:, None] < horizon[None, :]
    return np.where(is_sky[..., None], sky, ground).clip(0, 255).astype(np.uint8)


def _local(exp):
    return [f for f in exp.findings if f.kind in LOCAL_KINDS]


def test_brightening_most_of_the_picture_is_said_of_that_part(landscape):
    after = apply_in_region(landscape, region_mask(landscape, "sky"), lambda im: ops.adjust_brightness(im, amount=20))
    exp = explain_images(landscape, after, name_objects=False)
    assert [f.kind for f in exp.findings] == ["region_changed"], exp.text
    f = exp.findings[0]
    assert f.params["region"] == "sky" and f.params["lightness_change"] > 0
    assert exp.text == f"The sky got brighter (lightness {f.params['lightness_change'] * 100 / 255:+.0f} of 100)."
    assert f.after_box[3] < 0.75 * landscape.shape[0]  # not the unchanged ground below it


def test_a_tint_of_the_sky_is_said_as_its_direction(landscape):
    after = apply_in_region(landscape, region_mask(landscape, "sky"),
                            lambda im: adjust.adjust_warmth(im, amount=-60))
    exp = explain_images(landscape, after, name_objects=False)
    assert [(f.kind, f.params.get("region")) for f in _local(exp)] == [("object_recolored", "sky")], exp.text
    assert exp.text.startswith("The sky ") and ("bluer" in exp.text or "changed colour" in exp.text), exp.text
    assert not [f for f in exp.findings if not f.is_local], exp.text


def test_darkening_the_shadows_is_said_of_the_shadows():
    from skimage import data

    img = cv2.resize(data.astronaut(), (320, 320), interpolation=cv2.INTER_AREA)
    after = apply_in_region(img, region_mask(img, "shadows"), lambda im: ops.adjust_brightness(im, amount=-25))
    exp = explain_images(img, after, name_objects=False)
    assert [(f.kind, f.params.get("region")) for f in exp.findings] == [("tone_curve", "shadows")], exp.text
    assert exp.findings[0].params["lightness_change"] < 0 and "shadows got darker" in exp.text


@pytest.mark.parametrize("edit", ["brightness", "contrast"])
def test_a_whole_picture_edit_is_not_taken_for_a_regional_one(landscape, edit):
    # Contrast leaves the tones at its pivot unchanged: as the fit says, so not a region's edit.
    after = (ops.adjust_brightness(landscape, amount=20) if edit == "brightness"
             else ops.adjust_contrast(landscape, amount=30))
    exp = explain_images(landscape, after, name_objects=False)
    assert [f.kind for f in exp.findings] == [edit], exp.text


def test_a_slight_change_of_one_thing_is_said_where_it_is(landscape):
    # "make the horse darker", then "too much": -10 in the horse, under a local change's threshold,
    # was "they differ in a way I cannot name"
    h, w = landscape.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w]
    thing = ((xx - 200) / 40.0) ** 2 + ((yy - 150) / 30.0) ** 2 < 1
    img = landscape.copy()
    img[thing] = (150, 90, 60)
    soft = cv2.GaussianBlur(thing.astype(np.float32), (0, 0), 1.5)
    after = apply_in_region(img, soft, lambda im: ops.adjust_brightness(im, amount=-10))
    exp = explain_images(img, after, name_objects=False)
    assert [f.kind for f in exp.findings] == ["region_changed"], exp.text
    x1, y1, x2, y2 = exp.findings[0].after_box
    assert abs(x1 - 160) <= 6 and abs(x2 - 240) <= 6 and abs(y1 - 120) <= 6 and abs(y2 - 180) <= 6
    assert "got darker" in exp.text, exp.text


def test_a_background_made_black_and_white_is_said_so(landscape):
    # "make the background black and white" around two kept animals (12% of the giraffe photo): it
    # said "it was made black and white. The giraffe changed colour from grey to brown"
    h, w = landscape.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w]
    kept = (((xx - 100) / 35.0) ** 2 + ((yy - 140) / 55.0) ** 2 < 1) | (((xx - 220) / 32.0) ** 2 + ((yy - 150) / 48.0) ** 2 < 1)
    img = landscape.copy()
    img[kept] = (170, 110, 60)
    img[kept & ((xx + yy) % 12 < 5)] = (90, 60, 30)  # a giraffe's patches
    dirt = ~kept & (yy > 170) & ((xx // 20 + yy // 15) % 3 == 0)  # the same browns in the ground, greyed
    img[dirt] = np.where(((xx + yy) % 12 < 5)[dirt][:, None], (90, 60, 30), (170, 110, 60))
    soft = cv2.GaussianBlur((~kept).astype(np.float32), (0, 0), 1.0)
    exp = explain_images(img, apply_in_region(img, soft, adjust.grayscale), name_objects=False)
    assert exp.text == "The background was made black and white.", exp.text
    assert [(f.kind, f.params.get("region")) for f in exp.findings] == [("object_recolored", "background")]


@pytest.mark.parametrize("tone", ["shadows", "midtones", "highlights"])
@pytest.mark.parametrize("amount", [25, -25])
def test_a_brightness_change_in_a_range_of_tones_is_said_of_that_range(tone, amount):
    """On a château under white clouds, +25 in the highlights was "the background was replaced by
    plain white" (the clouds clipped), +25 in the midtones "the background got brighter", +25 in
    the shadows and -25 in the midtones "its colours were changed (I cannot name the adjustment)"."""
    from skimage import data

    img = cv2.resize(data.astronaut(), (320, 320), interpolation=cv2.INTER_AREA)
    after = apply_in_region(img, region_mask(img, tone), lambda im: ops.adjust_brightness(im, amount=amount))
    exp = explain_images(img, after, name_objects=False)
    assert [(f.kind, f.params.get("region")) for f in exp.findings] == [("tone_curve", tone)], exp.text
    assert exp.text.startswith(f"The {tone} got {'brighter' if amount > 0 else 'darker'} (lightness "), exp.text


def test_a_tonal_edit_is_not_read_into_a_whole_picture_one(landscape):
    from skimage import data

    for img in (landscape, cv2.resize(data.astronaut(), (320, 320), interpolation=cv2.INTER_AREA)):
        for after in (ops.adjust_brightness(img, amount=20), ops.adjust_contrast(img, amount=25),
                      adjust.adjust_warmth(img, amount=30)):
            exp = explain_images(img, after, name_objects=False)
            assert "tone_curve" not in [f.kind for f in exp.findings] or "re-mapped" in exp.text, exp.text


def test_a_pale_sky_brightened_is_said_brighter_before_yellower():
    """A pale sky brightened clips its blue first, and "brighten the sky" on the giraffes was
    answered "The sky became yellower"."""
    from agent.explain.types import Finding
    from agent.explain.words import local_sentence

    fd = Finding("object_recolored", {"region": "sky", "lightness_change": 25.1, "chroma_shift": [2.3, 14.0],
                                      "from_color": "white", "to_color": "white"}, [0, 0, 10, 10], [0, 0, 10, 10], "")
    local_sentence(fd, (100, 100), (100, 100))
    assert fd.sentence == "The sky got brighter and yellower (lightness +10 of 100)."
    fd.params["lightness_change"] = 3.0
    local_sentence(fd, (100, 100), (100, 100))
    assert fd.sentence == "The sky became yellower."


def test_a_background_made_black_and_white_around_dark_people_is_said_so(landscape):
    """Three musicians in black on a dark stage, "make the background black and white": "It was
    made black and white (grayscale). The person on the left became redder...". Their black
    clothes are no mid-tone, and what was kept unchanged in mid-tones was 3% of the picture."""
    h, w = landscape.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w]
    kept = np.zeros((h, w), bool)
    for cx in (70, 160, 250):
        kept |= ((xx - cx) / 28.0) ** 2 + ((yy - 150) / 70.0) ** 2 < 1
    img = landscape.copy()
    img[kept] = (12, 10, 14)  # black clothes
    face = kept & (yy < 115)
    img[face] = (200, 140, 110)  # faces and hands keep their colour
    soft = cv2.GaussianBlur((~kept).astype(np.float32), (0, 0), 1.0)
    exp = explain_images(img, apply_in_region(img, soft, adjust.grayscale), name_objects=False)
    assert exp.text == "The background was made black and white.", exp.text


def test_a_part_that_goes_on_below_the_sky_is_not_the_sky():
    """Horses on a meadow under a sky of 60% of the picture, "make the background black and white":
    "the sky was made black and white", the part's box being most of the sky's."""
    from agent.explain.regional import name_sky
    from agent.explain.types import Finding

    sky = np.zeros((100, 100), bool)
    sky[:75] = True
    part = np.ones((100, 100), bool)
    part[40:90, 20:80] = False  # the horses, kept
    for given, said in ((None, "sky"), (part, None)):
        fd = Finding("object_recolored", {"grayscale": True}, [0, 0, 100, 100], [0, 0, 100, 100], "")
        name_sky([fd], sky, np.eye(3), given)
        assert fd.params.get("region") == said
    only_sky = sky.copy()
    fd = Finding("region_changed", {}, [0, 0, 100, 75], [0, 0, 100, 75], "")
    name_sky([fd], sky, np.eye(3), only_sky)
    assert fd.params.get("region") == "sky"


def test_the_contrast_of_the_sky_is_said_as_contrast_not_brightness(landscape):
    """"make the sky more dramatic" raises the contrast of the sky; a bright sky's mean goes up, and it
    was said as "the sky got brighter". Each channel's levels after are a line of those before with
    a mid-grey pivot: more (or less) contrast, measured."""
    after = apply_in_region(landscape, region_mask(landscape, "sky"), lambda im: ops.adjust_contrast(im, amount=40))
    exp = explain_images(landscape, after, name_objects=False)
    assert [f.params.get("region") for f in _local(exp)] == ["sky"], exp.text
    k = _local(exp)[0].params["contrast"]
    assert abs(k - 1.4) < 0.1, exp.text
    assert exp.text == f"The sky got more contrast (its tones spread ×{k:.2f} around mid-grey).", exp.text


def test_a_brightened_pale_sky_is_no_contrast_change():
    """A pale blue sky brightened clips its blue: the grey levels of its bluer pixels rise less, a
    line of slope 1.35 through them. Each channel is fitted where it is not clipped: slope 1, an add."""
    h, w = 200, 300
    yy = np.mgrid[0:h, 0:w][0] / h
    sky = np.stack([150 + 60 * yy, 190 + 40 * yy, 235 + 15 * yy], axis=2).astype(np.uint8)
    brighter = ops.adjust_brightness(sky, amount=25)
    assert contrast_change(sky.reshape(-1, 3), brighter.reshape(-1, 3)) is None
    assert abs(contrast_change(sky.reshape(-1, 3), ops.adjust_contrast(sky, amount=40).reshape(-1, 3)) - 1.4) < 0.05
    grey = np.stack([60 + 120 * yy] * 3, axis=2).astype(np.uint8)
    assert abs(contrast_change(grey.reshape(-1, 3), ops.adjust_contrast(grey, amount=40).reshape(-1, 3)) - 1.4) < 0.05


@pytest.mark.parametrize("amount", [20, 40])
def test_a_pale_sky_brightened_until_it_clips_is_brighter_not_replaced_or_added(amount):
    """"brighten the sky", then "more", over horses: the pale sky clipped to white, and it was said
    as "the background was replaced by plain white; the main subject is kept" (its pixels were all
    light before), or, further, as "an object was added at the top" (white, flat, a step along the
    horizon). Made white by brightening, it is no background replaced and nothing added."""
    h, w = 240, 320
    rng = np.random.default_rng(5)
    yy = np.mgrid[0:h, 0:w][0] / h
    sky = np.stack([170 + 60 * yy, 200 + 40 * yy, 240 + 0 * yy], axis=2)
    ground = cv2.GaussianBlur(rng.normal(0, 30, (h, w, 3)), (0, 0), 1.5) + (80, 115, 45)
    horizon = (0.66 * h + 0.04 * h * np.sin(np.arange(w) / w * 9)).astype(int)
    img = np.where((np.arange(h)[:, None] < horizon[None, :])[..., None], sky, ground).clip(0, 255).astype(np.uint8)
    after = apply_in_region(img, region_mask(img, "sky"), lambda im: ops.adjust_brightness(im, amount=amount))
    exp = explain_images(img, after, name_objects=False)
    assert [(f.kind, f.params.get("region")) for f in exp.findings] == [("region_changed", "sky")], exp.text
    assert exp.text.startswith("The sky got brighter"), exp.text


def test_a_channel_clipped_nearly_everywhere_does_not_decide_the_contrast():
    """"make the sky more dramatic", undo, "make the sky less dramatic" over the horses: the raised
    contrast had clipped the sky's blue but for its few darkest pixels, and the line through those
    pivoted at 62: no contrast change, "the sky got darker". A channel fitted on under a tenth of the
    pixels is left out; the others say x0.6."""
    rng = np.random.default_rng(0)
    sky = np.stack([rng.uniform(60, 200, 5000), rng.uniform(110, 220, 5000), np.full(5000, 255.0)], axis=1)
    sky[:200, 2] = rng.uniform(120, 250, 200)  # the few pixels whose blue is not clipped
    before = sky.clip(0, 255).astype(np.uint8)
    after = ops.adjust_contrast(before[None], amount=-40)[0]
    after[:200, 2] = np.clip(0.75 * before[:200, 2].astype(float) + 16, 0, 255).astype(np.uint8)  # pivot 64
    assert abs(contrast_change(before, after) - 0.6) < 0.03


@pytest.mark.parametrize("amount", [20, 40])
def test_more_contrast_in_a_dark_sky_between_towers_is_one_sky_with_more_contrast(amount):
    """scikit-image's rocket: a dusk sky between launch towers, "make the sky more dramatic". It was
    "the sky got darker" (its mean is under mid-grey), and the piece of sky the right tower cuts off
    was "the object moved from the right to the top right" (a plain patch of sky matches anywhere in
    the sky). It is one sky, with more contrast, measured."""
    from skimage import data

    img = data.rocket()
    after = apply_in_region(img, region_mask(img, "sky"), lambda im: ops.adjust_contrast(im, amount=amount))
    exp = explain_images(img, after, name_objects=False)
    assert [(f.kind, f.params.get("region")) for f in exp.findings] == [("region_changed", "sky")], exp.text
    k = exp.findings[0].params["contrast"]
    assert abs(k - (1 + amount / 100)) < 0.05, exp.text
    assert exp.text == f"The sky got more contrast (its tones spread ×{k:.2f} around mid-grey).", exp.text


def test_a_regional_edit_of_the_sky_is_the_sky_where_the_detector_sees_a_building(landscape, monkeypatch):
    """"darken the sky" over Chambord was "the part at the top got darker": the detector saw the
    chateau in the part's box, and a finding named after an object is not looked at as the sky. A
    regional edit's part that is the sky is the sky, whatever the detector sees in its box."""
    from agent.explain import engine

    def building(findings, before, after):
        for fd in findings:
            fd.params.update(object="building", object_score=0.69, object_box=[10, 60, 300, 170])

    monkeypatch.setattr(engine, "name_findings", building)
    after = apply_in_region(landscape, region_mask(landscape, "sky"), lambda im: ops.adjust_brightness(im, amount=20))
    exp = explain_images(landscape, after)
    assert [(f.kind, f.params.get("region")) for f in exp.findings] == [("region_changed", "sky")], exp.text
    assert exp.text.startswith("The sky got brighter"), exp.text


def test_a_light_thing_brightened_on_a_dark_ground_is_a_thing_not_the_highlights():
    """"make the dog brighter" after "make the background darker": the dog was the brightest thing left,
    its tones the picture's highlights, and it was "the highlights got brighter; the other tones are
    unchanged". Brightened all alike it fits as a place at least as well as the tones' weight does
    (away from its soft edge): a place, said where it is."""
    rng = np.random.default_rng(3)
    h, w = 240, 320
    ground = cv2.GaussianBlur(rng.normal(0, 25, (h, w, 3)), (0, 0), 2.0) + (60, 70, 55)
    yy, xx = np.mgrid[0:h, 0:w]
    thing = (((xx - 160) / 70.0) ** 2 + ((yy - 130) / 80.0) ** 2) < 1
    fur = cv2.GaussianBlur(rng.normal(0, 12, (h, w, 3)), (0, 0), 1.5) + (170, 160, 140)
    img = np.where(thing[..., None], fur, ground)
    img[(((xx - 140) / 8.0) ** 2 + ((yy - 100) / 8.0) ** 2) < 1] = (30, 25, 20)  # an eye
    img = img.clip(0, 255).astype(np.uint8)
    soft = cv2.GaussianBlur(thing.astype(np.float32), (0, 0), 1.5)
    exp = explain_images(img, apply_in_region(img, soft, lambda im: ops.adjust_brightness(im, amount=20)),
                         name_objects=False)
    assert [f.kind for f in exp.findings] == ["region_changed"], exp.text
    assert "highlights" not in exp.text and exp.text.startswith("The part in the middle got brighter"), exp.text


def test_a_thing_brightened_inside_a_darkened_background_is_said_apart(landscape):
    """"make the background darker" then "make the giraffe on the right brighter", and "compare with
    the original": the two changes touch, one part changed by the regional fit's measure, and it
    said only "the background got darker". The piece that went the other way is a change of its
    own, said where it is. (The giraffe on the left, kept out of the background and left as it
    was, makes the darkened background a regional edit's part.)"""
    h, w = landscape.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w]
    thing = (((xx - 235) / 30.0) ** 2 + ((yy - 140) / 60.0) ** 2) < 1
    kept = (((xx - 80) / 30.0) ** 2 + ((yy - 140) / 60.0) ** 2) < 1
    rng = np.random.default_rng(4)
    fur = cv2.GaussianBlur(rng.normal(0, 14, (h, w, 3)), (0, 0), 1.5) + (150, 120, 80)
    img = np.where((thing | kept)[..., None], fur, landscape).clip(0, 255).astype(np.uint8)
    soft = cv2.GaussianBlur((~(thing | kept)).astype(np.float32), (0, 0), 1.0)
    dark = apply_in_region(img, soft, lambda im: ops.adjust_brightness(im, amount=-20))
    after = apply_in_region(dark, cv2.GaussianBlur(thing.astype(np.float32), (0, 0), 1.0),
                            lambda im: ops.adjust_brightness(im, amount=20))
    exp = explain_images(img, after, name_objects=False)
    said = sorted((f.params["lightness_change"] > 0, f.after_box) for f in _local(exp))
    assert len(said) == 2, exp.text
    (darker, box_d), (brighter, box_b) = said
    assert not darker and brighter, exp.text
    assert box_d[2] - box_d[0] > 0.9 * w and box_b[0] >= 190 and box_b[2] <= 280, exp.text
    assert "got brighter" in exp.text and "got darker" in exp.text, exp.text


def test_more_contrast_over_a_part_is_not_split_into_its_darker_and_lighter_tones(landscape):
    """A contrast change moves a part's dark tones down and its light ones up: one change."""
    after = apply_in_region(landscape, region_mask(landscape, "sky"), lambda im: ops.adjust_contrast(im, amount=40))
    exp = explain_images(landscape, after, name_objects=False)
    assert len(_local(exp)) == 1 and "contrast" in exp.text, exp.text


def test_the_clouds_darkened_are_said_as_the_clouds(landscape):
    """"make the clouds darker" was refused (Easel could not find clouds); once done, a darkened
    cloud beside the rest was "the skyblue object on the left was removed" and the rest "the part on
    the right got darker". The clouds are the sky's grey to white part, and their change is said as
    theirs."""
    from agent.language.reader import read

    assert [c.format() for c in read("make the clouds darker", photo_open=True).commands] == [
        "adjust_attr brightness -20 in clouds"]
    clouds = region_mask(landscape, "clouds")
    assert clouds.max() > 0.9 and clouds[200:].max() == 0  # the cloud, not the ground
    after = apply_in_region(landscape, clouds, lambda im: ops.adjust_brightness(im, amount=-20))
    exp = explain_images(landscape, after, name_objects=False)
    assert [f.kind for f in exp.findings] == ["region_changed"], exp.text
    assert exp.text.startswith("The clouds got darker"), exp.text


@pytest.mark.parametrize("colour, word", [("red", "redder"), ("blue", "bluer")])
def test_a_tinted_sky_is_said_tinted(colour, word):
    """"make the sky red", then "what changed?", was "the sky got darker" alone (the Brandenburg Gate
    at dusk); over the sample library's green field (every sky colour the sky's alone, so a map of
    colours over the whole picture fits the tint as well) it was "Its colours were changed (I cannot
    name the adjustment)", and for blue "It was sharpened (sharpness +50)" too."""
    from pathlib import Path

    from editor.imageio import read_image

    field = read_image(Path(__file__).resolve().parent.parent / "resources" / "library" / "green_field.jpg").pixels
    after = apply_in_region(field, region_mask(field, "sky"), lambda im: ops.adjust_color(im, color=colour, intensity=0.2))
    exp = explain_images(field, after, name_objects=False)
    assert exp.text.startswith(f"The sky got darker and {word} (lightness "), exp.text


def test_a_side_made_warmer_or_more_colourful_is_said_so():
    """gcompris' Eiffel Tower: "make the left side warmer", "what changed?" said "they differ in a way I
    cannot name" (its b* moved by 5, under the bar of a thing's new colour), and the colours of a side
    made more colourful were "changed colour from brown to red" on scikit-image's coffee. A regional
    edit's part tells a slighter tint, and colours scaled from grey are duller or more colourful."""
    from skimage import data

    from agent.edits.run import run
    from agent.grammar.commands import parse_command

    for name in ("coffee", "chelsea"):
        img = getattr(data, name)()

        def said(line, img=img):
            return explain_images(img, run(parse_command(line), img).pixels, name_objects=False).text

        assert "became bluer" in said("adjust_attr warmth -25 in right"), name
        assert "became more colourful (colourfulness +2" in said("adjust_attr saturation 25 in right"), name
        assert "became duller (colourfulness -1" in said("adjust_attr saturation -20 in left"), name
    warmer = said("adjust_attr warmth 25 in left")
    assert "became yellower" in warmer and "grey" not in warmer  # the cat: no "changed colour to grey"


def test_a_part_recoloured_beside_a_clipped_blue_sky_is_a_regional_edit():
    """gcompris' Chambord: "raise the contrast of the sky" clipped its blue, then "make the grass greener"
    was "Its colours were changed (I cannot name the adjustment)": the unchanged mid-tones were the
    grey castle alone, which a saturation change of everything would leave as it was too. The sky,
    unchanged and blue though near clipping, says the change was the grass's alone."""
    wf = np.zeros((100, 100, 3), np.float32)
    wf[:40] = (160, 205, 252)  # the sky, its blue near the top of the range
    wf[40:80] = 128  # the castle
    wf[80:] = (70, 100, 50)  # the grass
    af = wf.copy()
    af[80:, :, 1] += 15  # greener
    part = regional_part(wf, af, np.ones((100, 100), bool), None, 1.0, np.zeros(3))
    assert part is not None and part[80:].all() and not part[:80].any()
