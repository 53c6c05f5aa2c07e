"""Naming objects with the detector and the classifier together, colours from the object's own
pixels, people by their clothes (agent/perception/naming.py, agent/perception/vocabulary.py), and describe's sentences."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from agent.perception.naming import (
    DETECTOR_CONFIDENCE,
    NAME_CONFIDENCE,
    colour_word,
    decide_noun,
    object_colour,
    object_mask,
    person_clothing_colour,
)
from agent.perception.vocabulary import agrees, everyday_words


def test_vocabulary_maps_fine_classes_to_everyday_words():
    from agent.perception.models import classifier_and_labels

    _, labels = classifier_and_labels()
    words = everyday_words(labels)
    by_name = {name.split(",")[0]: words[i] for i, name in enumerate(labels)}
    assert by_name["tabby"] == by_name["Egyptian cat"] == by_name["Persian cat"] == "cat"
    assert by_name["tiger"] == "tiger" and by_name["golden retriever"] == "dog"
    assert by_name["coffee mug"] == "mug" and by_name["space shuttle"] == "rocket"
    assert by_name["alp"] is None and by_name["honeycomb"] is None  # places and textures
    assert agrees("mug", "cup") and agrees("motorbike", "motorcycle") and not agrees("tiger", "zebra")
    # the dahlia of scikit-learn's flower.jpg was a "daisy" to it: "flower" is right for both
    assert by_name["daisy"] == "flower"


def test_the_classifier_renames_what_the_detector_cannot_name():
    assert decide_noun("zebra", 0.5, {"tiger": 0.8})[0] == "tiger"
    assert decide_noun("cat", 0.9, {"cat": 0.9})[:2] == ("cat", "both")
    assert decide_noun("cup", 0.9, {"coffee": 0.6, "mug": 0.2})[0] == "cup"
    # a surer detector keeps its label against a weaker classifier (a horse's silhouette)
    assert decide_noun("horse", 0.97, {"dog": 0.65})[0] == "horse"
    # the classifier names what the detector mislabels when it gives the label no support
    assert decide_noun("airplane", 0.62, {"rocket": 0.5, "beacon": 0.1})[0] == "rocket"


def test_unsure_names_become_an_object():
    # the astronaut's helmet: "mouse" at 0.5, the classifier unsure between helmet and speaker
    assert decide_noun("mouse", 0.5, {"helmet": 0.2, "loudspeaker": 0.22})[0] == "object"
    assert decide_noun("sports ball", DETECTOR_CONFIDENCE - 0.01, {})[0] == "object"
    assert decide_noun("sports ball", DETECTOR_CONFIDENCE, {})[0] == "sports ball"
    assert 0 < NAME_CONFIDENCE < 1


def test_a_person_stays_a_person_whatever_they_hold():
    assert decide_noun("person", 0.7, {"tripod": 0.85})[0] == "person"
    assert decide_noun("person", 0.4, {"T-shirt": 0.3})[0] == "person"
    # a box around a table is about the cup on it: the cup's word does not rename the table
    assert decide_noun("dining table", 0.7, {"coffee": 0.8}, contains=["coffee"])[0] == "dining table"


def test_colour_words_as_people_say_them():
    assert colour_word(np.array([[217, 102, 71]] * 50, np.uint8)) == "orange"  # the astronaut's suit
    # a white cup holding some coffee is white: the largest colour, not the mix
    px = np.array([[240, 238, 235]] * 60 + [[120, 70, 30]] * 40, np.uint8)
    assert colour_word(px) == "white"
    with pytest.raises(ValueError):
        colour_word(np.zeros((0, 3), np.uint8))


def test_people_are_described_by_their_clothes_never_their_skin():
    skin = (224, 172, 140)
    img = np.zeros((100, 60, 3), np.uint8)
    img[:] = skin
    img[40:90, 10:50] = (40, 70, 190)  # a blue shirt
    assert person_clothing_colour(img, (0, 0, 60, 100)) == "blue"
    assert person_clothing_colour(np.full((100, 60, 3), skin, np.uint8), (0, 0, 60, 100)) is None
    for tone in ((141, 85, 36), (198, 134, 66), (255, 219, 172), (92, 56, 36)):  # skin tones
        assert person_clothing_colour(np.full((100, 60, 3), tone, np.uint8), (0, 0, 60, 100)) is None


def test_head_and_shoulders_clothes_are_below_the_face():
    # a face filling the top two thirds, brown hair above it, a green jumper in the bottom third
    img = np.zeros((90, 90, 3), np.uint8)
    img[:] = (200, 200, 205)  # a pale wall
    img[0:15, 25:65] = (90, 60, 40)  # hair
    img[15:60, 30:60] = (224, 172, 140)  # the face, the wall either side of it
    img[60:90, 5:85] = (40, 140, 60)  # the jumper
    assert person_clothing_colour(img, (0, 0, 90, 90)) == "green"


def test_hands_at_the_chest_do_not_end_the_head_when_the_face_is_known():
    """gcompris' Irish musicians were all "in black": their hands on the instruments at the chest
    were taken for the face's lowest rows, and their dark trousers were all that was left."""
    from agent.perception.clothing import face_in

    skin = (224, 172, 140)
    img = np.zeros((200, 80, 3), np.uint8)  # a black stage
    img[10:40, 25:55] = skin  # the face
    img[40:120, 5:75] = (40, 70, 190)  # a blue shirt
    img[95:110, 10:70] = skin  # the hands across the chest
    img[120:200, 15:65] = (20, 20, 25)  # dark trousers
    face = (25, 10, 55, 40)
    assert face_in((0, 0, 80, 200), [type("Face", (), {"box": face})()]) == face
    assert face_in((0, 0, 80, 200), [type("Face", (), {"box": (25, 150, 55, 180)})()]) is None  # (no head down there)
    assert person_clothing_colour(img, (0, 0, 80, 200)) == "black"  # the hands taken for the chin
    assert person_clothing_colour(img, (0, 0, 80, 200), face=face) == "blue"


@pytest.mark.slow
def test_astronaut_is_a_person_in_orange_and_her_helmet_no_mouse():
    from skimage import data

    from agent.perception.naming import name_objects
    from agent.perception.things import detect

    img = data.astronaut()
    names = {n.noun: n.phrase for n in name_objects(img, detect(img))}
    assert names["person"] == "person in orange", names
    assert "mouse" not in names and "sports ball" not in names


@pytest.mark.slow
def test_describe_says_the_main_subject_first_then_where_the_others_are():
    from skimage import data

    from agent.describe.caption import describe_image

    cap = describe_image(data.coffee())
    assert cap.text.startswith("In this picture I can see a cup of coffee"), cap.text
    assert "table" in cap.text and "dining" not in cap.text
    assert cap.text.count(". ") == len(cap.segments) - 1 and cap.text.endswith(".")
    assert "".join(p["text"] for p in cap.pieces()) == cap.text
    side = np.concatenate([data.chelsea()[:300, :400], np.full((300, 400, 3), 200, np.uint8)], axis=1)
    cap = describe_image(side)
    assert cap.segments[0].label == "cat" and "on the left" in cap.segments[0].words, cap.text


def test_a_dwell_on_an_unnamed_thing_is_an_object_and_on_grass_a_region():
    from agent.perception.naming import name_regions

    rng = np.random.default_rng(0)
    img = np.clip(np.full((240, 320, 3), (70, 140, 60), np.float32) + rng.normal(0, 6, (240, 320, 3)),
                  0, 255).astype(np.uint8)
    img[60:200, 40:90] = (200, 30, 30)  # a tall red thing no model knows
    thing, grass = name_regions(img, [(48, 80, 82, 180), (200, 120, 280, 180)])
    assert thing is not None and thing.noun == "object" and thing.phrase == "tall red object"
    assert grass is None


def test_the_pen_travelling_between_things_is_not_a_dwell():
    from agent.describe.caption import dwell_points

    t = np.arange(40) * 0.05
    loop = np.c_[0.2 + 0.05 * np.cos(t * 6), 0.5 + 0.05 * np.sin(t * 6), t]
    travel = np.c_[np.linspace(0.25, 0.8, 6), np.full(6, 0.5), t[-1] + 0.01 * np.arange(1, 7)]
    xy = dwell_points(np.concatenate([loop, travel]))
    assert xy[:, 0].max() < 0.3



def test_a_detector_label_the_classifier_does_not_support_needs_a_sure_detector():
    # the development set's wrong nouns (bench/trace.py): the rocket a "laptop" at 0.94, the
    # flower an "orange" at 0.74; the classifier gave neither label any support
    assert decide_noun("laptop", 0.937, {"rocket": 0.239, "beacon": 0.125})[0] == "object"
    assert decide_noun("orange", 0.742, {"shell": 0.146})[0] == "object"
    # the horse's silhouette, sure to the detector, keeps its name
    assert decide_noun("horse", 0.974, {"dog": 0.573, "horse": 0.012})[0] == "horse"
    # a label the classifier has no word for (a kite) is not contradicted by its silence
    assert decide_noun("kite", DETECTOR_CONFIDENCE, {"umbrella": 0.3})[0] == "kite"


def test_an_animal_the_classifier_barely_sees_as_the_detector_says_is_an_animal():
    # gcompris' moose: a "cow" at 0.90 to the detector, cow 0.13 to the classifier, which has
    # cattle classes; its rhinoceros an "elephant" at 0.99, elephant 0.21
    moose = {"cow": 0.13, "sheep": 0.04, "antelope": 0.04}
    assert decide_noun("cow", 0.9, moose, kinds={"animal": 0.52})[0] == "animal"
    assert decide_noun("elephant", 0.99, {"elephant": 0.21, "pig": 0.11, "camel": 0.09},
                       kinds={"animal": 0.62})[0] == "animal"
    # a cow the classifier sees as one is a cow; a silhouette, which it only guesses, is the
    # detector's; "bird" is the kind already
    assert decide_noun("cow", 0.9, {"cow": 0.6, "ox": 0.2}, kinds={"animal": 0.9})[0] == "cow"
    assert decide_noun("horse", 0.97, {"dog": 0.3}, kinds={"animal": 0.8}, flat=True)[0] == "horse"
    assert decide_noun("bird", 0.99, {"bird": 0.16, "meerkat": 0.11}, kinds={"animal": 0.7})[0] == "bird"


def test_two_unsure_models_naming_two_animals_name_neither():
    # the horse's silhouette: a "horse" at 0.56 to the detector, a "dog" at 0.44 to the classifier
    assert decide_noun("horse", 0.556, {"dog": 0.438, "doormat": 0.047})[0] == "object"
    # a rocket the detector calls a boat is still renamed by the classifier
    assert decide_noun("boat", 0.409, {"rocket": 0.45})[0] == "rocket"
    # ... but not by the nearest class of both classifiers for what neither knows: a fundus photo,
    # an "umbrella" at 0.39 to the detector, a "lampshade" at 0.36 (Lite0 0.18, Lite3 0.54)
    assert decide_noun("umbrella", 0.387, {"lampshade": 0.361, "jack-o'-lantern": 0.078})[0] == "object"


def _china_trees() -> np.ndarray:
    import os

    import cv2
    import sklearn
    from skimage import io

    china = io.imread(os.path.join(os.path.dirname(sklearn.__file__), "datasets", "images", "china.jpg"))
    return cv2.resize(china[300:427, 380:640], (480, 320), interpolation=cv2.INTER_AREA)


def test_a_thing_over_busy_surroundings_is_named_from_its_dwell():
    # the rocket pasted over trees (bench/trace.py's dev part 3): grown to a square with the
    # trees around it, the classifier was unsure ("an object", 0.28); its dwell alone is a rocket
    import cv2
    from skimage import data

    from agent.perception.naming import name_regions

    img = _china_trees()
    img[80:236, 180:290] = cv2.resize(data.rocket()[0:427, 160:460], (110, 156), interpolation=cv2.INTER_AREA)
    (named,) = name_regions(img, [(195, 100, 275, 215)])
    assert named is not None and named.noun == "rocket" and named.source == "classifier"


def test_an_unsure_animal_is_what_the_detector_finds_shown_its_box():
    # a horse's silhouette over grey grass: a "dog" to the classifier (0.75), a "dog" at 0.41 or
    # a "horse" at 0.49 to the detector on the whole picture, a horse shown its own box
    import cv2
    from skimage import data

    from agent.perception.models import Detection
    from agent.perception.naming import name_objects

    grass = np.repeat(data.camera()[300:480, 420:512, None], 3, axis=2)
    img = cv2.resize(grass, (480, 320), interpolation=cv2.INTER_AREA)
    horse = np.where(data.horse()[:, :, None], np.uint8([235, 235, 230]), np.uint8([60, 60, 60]))
    img[60:220, 150:350] = cv2.resize(horse, (200, 160), interpolation=cv2.INTER_AREA)
    for label, score in (("dog", 0.41), ("horse", 0.49)):
        assert name_objects(img, [Detection(label, score, (152, 64, 348, 216))])[0].noun == "horse"


def test_greys_are_named_black_grey_or_white():
    """A grey photo (the camera man) has no colour: its grey sky was "beige", its dark grey
    "brown" by the nearest reference colour. Tinted colours keep their names."""
    from agent.perception.models import color_name

    for v, want in ((60, "black"), (130, "grey"), (200, "grey"), (240, "white")):
        px = np.full((40, 40, 3), v, np.uint8)
        assert color_name(px) == want and colour_word(px.reshape(-1, 3)) == want
    assert color_name(np.full((4, 4, 3), (220, 200, 160), np.uint8)) == "beige"
    assert color_name(np.full((4, 4, 3), (120, 75, 40), np.uint8)) == "brown"


def _photo(name: str) -> np.ndarray:
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
    try:
        from photoset import load
    finally:
        sys.path.pop(0)
    return load(name)


def test_what_no_model_knows_on_a_whole_photo_is_an_object():
    """Dwells on whole photos over things no model here knows: the classifier's nearest class at
    0.56-0.62 is a wrong noun ("crane", "bottle", "lampshade", "theater curtain"); each is "an
    object" (DWELL_CONFIDENCE), and a small thing that stands out too (not "a brown area")."""
    from agent.perception.naming import DWELL_CONFIDENCE, name_regions

    assert NAME_CONFIDENCE < DWELL_CONFIDENCE
    cases = {"rocket": [(15, 57, 72, 369)], "astronaut": [(421, 10, 464, 169), (416, 42, 447, 85)],
             "flower": [(228, 145, 422, 311)], "china": [(118, 299, 196, 354)]}
    for photo, boxes in cases.items():
        for box, n in zip(boxes, name_regions(_photo(photo), boxes)):
            assert n is None or n.noun == "object", (photo, box, n)
    assert name_regions(_photo("astronaut"), [(416, 42, 447, 85)])[0] is not None  # the shuttle model
    # the rocket itself is still named, from a tall dwell
    assert name_regions(_photo("rocket"), [(298, 143, 343, 282)])[0].noun == "rocket"


def test_a_long_dwell_is_not_named_by_its_square_crop_alone():
    """The bench's back behind the motorcycle, squared, is mostly the motorcycle ("motorbike" at
    0.82); as it is it is no motorbike, so it is not one."""
    from agent.perception.naming import name_regions

    n = name_regions(_photo("moto_left"), [(60, 105, 277, 166)])[0]
    assert n is None or n.noun != "motorbike"


def test_classes_a_person_calls_by_one_word_add_up():
    """The Summer Palace's tower is spread over bell cote, palace, church, castle and stupa, each
    unsure: summed as "building" it is named, and no background of the photo becomes one."""
    from agent.perception.models import classifier_and_labels
    from agent.perception.naming import name_regions

    _, labels = classifier_and_labels()
    words = everyday_words(labels)
    by_name = {name.split(",")[0]: words[i] for i, name in enumerate(labels)}
    assert by_name["palace"] == by_name["bell cote"] == by_name["stupa"] == by_name["church"] == "building"
    assert by_name["cinema"] is None and by_name["library"] is None  # mostly interiors: places
    img = _photo("china")
    temple, sky, trees = name_regions(img, [(100, 60, 330, 330), (420, 10, 620, 160), (560, 180, 635, 400)])
    assert temple is not None and temple.noun == "building"
    assert all(n is None or n.noun != "building" for n in (sky, trees))


def test_a_dwell_beside_a_known_thing_is_not_named_by_it():
    """A dwell over the saucer and the spoon, squared, takes in the cup: "coffee" to the
    classifier. Told where the cup is, that word is the cup's, not the dwell's."""
    from skimage import data

    from agent.perception.models import Detection
    from agent.perception.naming import name_objects, name_regions, neighbour_words

    img = data.coffee()
    cup = Detection("cup", 0.95, (173, 13, 412, 240))
    dwell = (97, 197, 393, 334)
    alone = name_regions(img, [dwell])[0]
    assert alone is not None and agrees(alone.noun, "cup")  # what it was without the cup known
    n = name_regions(img, [dwell], known=[cup])[0]
    assert n is None or not agrees(n.noun, "cup")
    # a thing holding the dwell is no neighbour: a dwell on the cup may be called a cup
    assert not neighbour_words((200, 50, 300, 150), (150, 0, 350, 200), [cup])
    # a second look's table beside the cup is not renamed "cup" when the cup is known
    table = Detection("dining table", 0.51, (470, 0, 600, 260))
    (named,) = name_objects(img, [table], context=[cup])
    assert not agrees(named.noun, "cup")


@pytest.mark.slow
def test_a_word_from_one_view_only_is_not_taken():
    from skimage import data

    from agent.perception.naming import keeps_its_word, name_regions

    # the camera on its tripod, squared and grown, was a "tripod" at 0.78, and at most 0.13 in
    # the five other views (bench/trace.py --photos 60): the camera is not a tripod
    rgb = np.repeat(data.camera()[:, :, None], 3, axis=2)
    box = (272, 144, 317, 277)
    assert not keeps_its_word(rgb, box, "tripod")
    named = name_regions(rgb, [box])[0]
    assert named is None or named.noun != "tripod"
    # the tripod itself keeps its word in every view
    assert keeps_its_word(rgb, (255, 250, 381, 461), "tripod")


def test_a_renaming_word_that_does_not_hold_reframed_is_not_taken(monkeypatch):
    import agent.perception.naming as naming
    from agent.perception.models import Detection, classifier_and_labels

    # what the classifier said of mate-backgrounds' water splash (bench/trace.py -v): a
    # "strainer" at 0.49 in the detection's square crop, 0.16 and 0.04 in the square crops of its
    # inner part and of the box grown; the detector said "motorcycle" at 0.58
    words = everyday_words(classifier_and_labels()[1])
    strainer = words.index("strainer")
    box = (100, 60, 220, 180)

    def fake(rgb, boxes, *, square=False):
        out = np.full((len(boxes), 1000), 0.5 / 999, np.float32)
        p = 0.49 if list(boxes) == [box] else 0.04
        out[:, strainer] = p
        out /= out.sum(1, keepdims=True)
        return out

    monkeypatch.setattr(naming, "classify_crops", fake)
    img = np.random.default_rng(0).integers(0, 255, (240, 320, 3), dtype=np.uint8)
    named = naming.name_objects(img, [Detection("motorcycle", 0.58, box)])[0]
    assert named.noun == "object", named


def test_a_description_of_regions_begins_as_people_begin_and_says_black_and_white():
    from agent.describe.words import black_and_white_lead, describe_regions

    rng = np.random.default_rng(1)
    img = np.zeros((300, 400, 3), np.uint8)
    img[:100] = (90, 150, 230)  # a blue sky
    img[100:] = np.clip((60, 140, 50) + rng.normal(0, 12, (200, 400, 3)), 0, 255).astype(np.uint8)  # grass
    cap = describe_regions(img)
    assert cap.text.startswith("In this picture I can see "), cap.text
    assert len(cap.segments) >= 2 and " I can see " in cap.segments[1].words, cap.text
    assert "".join(p["text"] for p in cap.pieces()) == cap.text
    assert black_and_white_lead(img) == ""
    grey = np.repeat(img.mean(axis=2, keepdims=True).astype(np.uint8), 3, axis=2)
    cap = describe_regions(grey)
    assert cap.text.startswith("This is a black and white picture. In this picture I can see "), cap.text
    assert "".join(p["text"] for p in cap.pieces()) == cap.text


def test_the_same_box_gets_the_same_mask_whatever_ran_before():
    # GrabCut starts from random k-means: with the random state other code left, a red ring over
    # orange got a mask of 79% or of 34% of its box, and so one colour or another
    rng = np.random.default_rng(0)
    img = np.clip(rng.normal((235, 140, 60), 12, (240, 320, 3)), 0, 255).astype(np.uint8)
    ring = np.zeros((240, 320), np.uint8)
    cv2.ellipse(ring, (160, 120), (90, 70), 0, 0, 360, 1, 20)
    img[ring > 0] = np.clip(rng.normal((200, 35, 35), 10, ((ring > 0).sum(), 3)), 0, 255).astype(np.uint8)
    masks = []
    for seed in range(4):
        cv2.setRNGSeed(seed)
        masks.append(object_mask(img, (60, 40, 261, 201)))
    assert all(np.array_equal(masks[0], m) for m in masks[1:])


def test_a_thing_whose_colours_are_also_around_it_keeps_its_mask_and_its_colour():
    """scikit-image's red motorcycle (right view) was "a black motorcycle": GrabCut started from its
    box gave all of it to the background (its dark parts are also around it), the box's inner half
    was taken, and that is mostly the black engine and shadow. Run again with the box's centre held
    as the thing's, GrabCut keeps the motorcycle (about a quarter of its box), which is red."""
    from skimage import data

    _, right, _ = data.stereo_motorcycle()
    rgb = np.ascontiguousarray(right)
    box = (66, 71, 627, 441)
    mask = object_mask(rgb, box)
    inner = np.zeros_like(mask)
    inner[mask.shape[0] // 4: -(mask.shape[0] // 4), mask.shape[1] // 4: -(mask.shape[1] // 4)] = True
    assert not np.array_equal(mask, inner) and 0.15 <= mask.mean() <= 0.4
    assert object_colour(rgb, box, "motorcycle") == "red"
    # a flat crop still gives no cut: nothing to learn from (the box's inner half is taken)
    flat = np.full((200, 300, 3), 128, np.uint8)
    assert np.array_equal(object_mask(flat, (50, 40, 250, 160))[30:90, 50:150], np.ones((60, 100), bool))


def test_a_moose_stays_an_animal_when_the_detector_shown_its_box_says_cow_again(monkeypatch):
    """The closer look (the detector shown the box alone) gives an unsure animal its COCO label
    back, but not one the classifier barely sees as that: the moose is "a cow" to it again."""
    from agent.perception import naming
    from agent.perception.models import Detection, classifier_and_labels

    _, labels = classifier_and_labels()
    words = everyday_words(labels)
    probs = np.zeros(len(labels), np.float32)
    probs[words.index("cow")] = 0.13
    # many other animals a little each: the classifier sees an animal, no species surely
    others = list({w: i for i, w in enumerate(words[:398]) if w and not agrees(w, "cow")}.values())[:25]
    probs[others] = 0.015
    monkeypatch.setattr(naming, "classify_crops", lambda rgb, boxes, **kw: np.repeat(probs[None], len(boxes), 0))
    monkeypatch.setattr(naming, "closer_look", lambda rgb, box, min_score: "cow")
    rng = np.random.default_rng(0)
    img = cv2.GaussianBlur(rng.integers(0, 256, (300, 400, 3), dtype=np.uint8), (0, 0), 2)
    named = naming.name_objects(img, [Detection("cow", 0.9, (100, 60, 300, 260))])
    assert named[0].noun == "animal"
