"""Point and say (issue 28): regions in the grammar, their execution, the reader's rules and the
dialogue's selection. Expected pixels are computed here from the documented formulas, not by the
code under test; the detector and the cutout model are replaced by stand-ins where a test is about
the wiring (the real ones are measured by bench/pointsay.py)."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import fake_detector

from agent.dialogue.manager import DialogueManager
from agent.dialogue.session import Session
from agent.edits import objects, regions
from agent.edits import selection as sel
from agent.edits.run import execute, run, uses_selection
from agent.grammar.commands import (
    AdjustAttr,
    AdjustColor,
    AutoEnhance,
    CommandError,
    Grayscale,
    parse_command,
    region_kind,
    region_phrase,
    with_region,
)
from agent.language.reader import read
from agent.perception.models import Detection
from editor import masks
from editor.document import Document
from editor.store import Store


@pytest.fixture(autouse=True)
def _forget_found_objects():
    """Stand-in detectors below differ from test to test on the same pixels: forget what was found."""
    regions.clear_cache()
    yield
    regions.clear_cache()


# -- the grammar -----------------------------------------------------------------------------------

LINES = [
    ("adjust_attr brightness 20 in sky", "Brightened the sky by 20 points.", "Brighter +20 in sky"),
    ("grayscale in the cat", "Made the cat black and white.", "Black and white in the cat"),
    ("adjust_attr warmth -30 in selection", "Made your selection cooler by 30 points.", "Cooler -30 in selection"),
    ("adjust_attr brightness 25 in shadows", "Brightened the shadows by 25 points.", "Brighter +25 in shadows"),
    ("adjust_color blue 0.2 in everything except the cat", "Tinted everything except the cat toward blue at 20%.",
     "Tint blue 20% in everything except the cat"),
    ("adjust_attr contrast -10 in top left", "Lowered the contrast of the top left corner by 10 points.",
     "Contrast -10 in top left"),
    ("adjust_attr sharpness -40 in left half", "Softened (blurred) the left half by 40 points.", "Softer -40 in left half"),
    ("auto_enhance in background", "Enhanced the background automatically: levels, white balance and contrast.",
     "Auto enhance in background"),
    ("adjust_attr hue 30 in the man on the right", "Shifted the hues of the man on the right by 30°.",
     "Hue +30° in the man on the right"),
    ("adjust_attr brightness -20 in left", "Darkened the left side by 20 points.", "Darker -20 in left"),
]


@pytest.mark.parametrize("line, reply, label", LINES)
def test_a_region_round_trips_and_is_said_where(line, reply, label):
    cmd = parse_command(line)
    assert cmd.format() == line and parse_command(cmd.format()) == cmd
    assert cmd.reply() == reply and cmd.label() == label


def test_commands_without_a_region_say_what_they_said_before():
    assert parse_command("adjust_attr brightness +10").format() == "adjust_attr brightness +10"
    assert AdjustAttr("brightness", 10).reply() == "Brightened by 10 points."
    assert AdjustAttr("warmth", -25).reply() == "Made it cooler by 25 points."
    assert AdjustColor("red", 0.3).reply() == "Tinted toward red at 30%."
    assert Grayscale().format() == "grayscale" and Grayscale().reply() == "Made it black and white."
    assert AutoEnhance().label() == "Auto enhance"
    assert parse_command("adjust_attr brightness 10") == AdjustAttr("brightness", 10)
    assert parse_command("adjust_attr brightness 10 in sky") != AdjustAttr("brightness", 10)


@pytest.mark.parametrize("line", ["grayscale in", "adjust_attr brightness 20 sky", "grayscale sky",
                                  "adjust_color red 0.2 in everything except", "grayscale in <b>",
                                  "adjust_attr brightness 20 in everything except everything except sky"])
def test_a_bad_region_says_how_to_write_one(line):
    with pytest.raises(CommandError, match="region"):
        parse_command(line)


def test_region_kinds_and_phrases():
    assert [region_kind(w) for w in ("sky", "shadows", "bottom half", "subject", "background", "selection",
                                     "the dog")] == ["named", "named", "named", "subject", "background",
                                                     "selection", "object"]
    assert region_phrase("center") == "the centre" and region_phrase("dogs") == "the dogs"
    assert with_region(Grayscale(), "sky") == Grayscale(region="sky")
    with pytest.raises(CommandError):
        with_region(parse_command("rotate 90"), "sky")


def test_the_command_model_never_writes_a_region():
    from agent.command_model.grammar import EOS, PLUS, allowed
    from agent.command_model.tokens import command_to_tokens, history_words

    assert not allowed(["adjust_attr", "brightness", PLUS, "20"], "in")
    assert allowed(["adjust_attr", "brightness", PLUS, "20"], EOS)
    assert command_to_tokens("adjust_attr brightness 20 in sky") == ["adjust_attr", "brightness", PLUS, "20"]
    words = [w for w, _ in history_words(["user_text: brighten the sky", "adjust_attr brightness 20 in sky"])]
    assert words[-2:] == ["in", "sky"]


# -- execution -------------------------------------------------------------------------------------


def _photo(h=60, w=80, seed=0):
    return np.random.default_rng(seed).integers(30, 220, (h, w, 3), dtype=np.uint8)


def test_a_geometric_region_is_the_operation_inside_and_the_input_outside():
    img = _photo()
    out = execute(parse_command("adjust_attr brightness 20 in left half"), img)
    h, w = img.shape[:2]
    # the documented ramp: HALF_FEATHER of the diagonal wide, centred on the middle line
    half = masks.HALF_FEATHER * np.hypot(h, w) / 2
    xs = np.arange(w) + 0.5
    inside, outside = xs <= w / 2 - half, xs >= w / 2 + half
    brighter = np.clip(img.astype(int) + 51, 0, 255)  # brightness 20: + 20% of 255
    assert np.array_equal(out[:, inside], brighter[:, inside])
    assert np.array_equal(out[:, outside], img[:, outside])


def test_everything_except_is_the_inverse():
    img = _photo()
    a = execute(parse_command("grayscale in top"), img)
    b = execute(parse_command("grayscale in everything except top"), img)
    grey = execute(parse_command("grayscale"), img)
    top = masks.region_mask(img, "top")
    full, none = top == 1, top == 0
    assert np.array_equal(a[full], grey[full]) and np.array_equal(a[none], img[none])
    assert np.array_equal(b[full], img[full]) and np.array_equal(b[none], grey[none])


def test_shadows_are_lifted_and_highlights_untouched():
    img = np.zeros((20, 20, 3), np.uint8)
    img[:, :10] = 30  # L about 0.12: full shadow
    img[:, 10:] = 200  # L about 0.78: none
    out = execute(parse_command("adjust_attr brightness 25 in shadows"), img)
    assert (out[:, :10] == 30 + 64).all()  # 25% of 255 = 63.75, rounded half up
    assert np.array_equal(out[:, 10:], img[:, 10:])


def test_no_sky_is_said_and_nothing_is_edited():
    img = _photo()
    with pytest.raises(regions.RegionNotFound, match="couldn't find the sky"):
        execute(parse_command("adjust_attr brightness 20 in sky"), img)


def test_a_sky_is_edited_and_the_ground_is_not():
    img = np.zeros((120, 160, 3), np.uint8)
    img[:50] = (110, 160, 235)
    img[50:] = np.random.default_rng(1).integers(40, 140, (70, 160, 3))
    out = execute(parse_command("adjust_attr brightness 20 in sky"), img)
    assert np.array_equal(out[60:], img[60:])
    assert np.array_equal(out[:40], np.clip(img[:40].astype(int) + 51, 0, 255))


def test_a_small_sky_like_patch_is_asked_about_not_edited():
    # a blue board on a rough garage wall, touching the top: sky-coloured and smooth, but small
    img = np.random.default_rng(2).integers(40, 140, (120, 160, 3)).astype(np.uint8)
    img[:12, 20:60] = (110, 160, 235)
    assert masks.region_mask(img, "sky").max() > 0  # the sky finder alone takes it
    with pytest.raises(regions.RegionNotFound, match="not sure this picture shows sky") as asked:
        execute(parse_command("adjust_attr brightness 20 in sky"), img)
    assert asked.value.overlays[0]["box"] == [20, 0, 60, 12]


def _fake_detector(monkeypatch, dets):
    fake_detector(monkeypatch, dets)


def test_an_object_is_masked_and_the_one_used_is_said_when_there_are_several(monkeypatch):
    img = _photo(100, 200)
    _fake_detector(monkeypatch, [Detection("dog", 0.9, (120, 20, 180, 80)), Detection("dog", 0.6, (10, 20, 60, 80))])
    done = run(parse_command("adjust_color orange 0.2 in the dog"), img)
    tinted = execute(parse_command("adjust_color orange 0.2"), img)
    assert np.array_equal(done.pixels[30:70, 130:170], tinted[30:70, 130:170])  # inside, beyond the feather
    assert np.array_equal(done.pixels[:, :100], img[:, :100])  # the other dog and all around it
    assert "2 dogs" in done.note and "on the right" in done.note
    assert [o["box"] for o in done.overlays] == [[120, 20, 180, 80], [10, 20, 60, 80]]
    # named by position: the one on the left, no note needed
    left = run(parse_command("grayscale in the dog on the left"), img)
    assert left.note == "" and np.array_equal(left.pixels[:, 100:], img[:, 100:])
    both = run(parse_command("grayscale in the dogs"), img)
    assert not np.array_equal(both.pixels[30:70, 20:50], img[30:70, 20:50])
    assert not np.array_equal(both.pixels[30:70, 130:170], img[30:70, 130:170])


def test_an_object_not_found_or_weak_is_never_the_whole_picture(monkeypatch):
    img = _photo(100, 200)
    _fake_detector(monkeypatch, [Detection("cat", 0.2, (10, 10, 50, 50))])
    with pytest.raises(regions.RegionNotFound, match="couldn't find the dog") as missing:
        execute(parse_command("adjust_attr brightness 20 in the dog"), img)
    assert str(missing.value).count("find") == 1  # one sentence, not the detector's said again in brackets
    with pytest.raises(regions.RegionNotFound, match="not sure") as weak:
        execute(parse_command("adjust_attr brightness 20 in the cat"), img)
    assert weak.value.overlays and weak.value.overlays[0]["box"] == [10, 10, 50, 50]


def test_subject_and_background_come_from_the_cutout_alpha():
    img = _photo()
    alpha = np.zeros(img.shape[:2], np.uint8)
    alpha[20:40, 30:50] = 255

    def cutout(px):
        return np.dstack([px, alpha])

    subject = run(parse_command("adjust_attr brightness 20 in subject"), img, cutout=cutout).pixels
    background = run(parse_command("adjust_attr brightness 20 in background"), img, cutout=cutout).pixels
    brighter = np.clip(img.astype(int) + 51, 0, 255)
    inside = alpha == 255
    assert np.array_equal(subject[inside], brighter[inside]) and np.array_equal(subject[~inside], img[~inside])
    assert np.array_equal(background[~inside], brighter[~inside]) and np.array_equal(background[inside], img[inside])
    with pytest.raises(regions.RegionNotFound, match="main subject"):
        run(parse_command("grayscale in subject"), img, cutout=lambda px: np.dstack([px, 0 * alpha]))


def test_the_selection_is_the_callers_mask_and_needed():
    img = _photo()
    mask = np.zeros(img.shape[:2], np.float32)
    mask[10:30, 10:30] = 1
    out = execute(parse_command("grayscale in selection"), img, selection=mask)
    grey = execute(parse_command("grayscale"), img)
    assert np.array_equal(out[10:30, 10:30], grey[10:30, 10:30])
    assert np.array_equal(out[mask == 0], img[mask == 0])
    with pytest.raises(regions.RegionNotFound, match="nothing is selected"):
        execute(parse_command("grayscale in selection"), img)
    assert uses_selection(parse_command("remove selection")) and uses_selection(parse_command("crop selection"))
    removed = execute(parse_command("remove selection"), img, selection=mask)
    far = np.ones(img.shape[:2], bool)
    far[2:38, 2:38] = False  # beyond the dilated hole
    assert np.array_equal(removed[far], img[far]) and not np.array_equal(removed[12:28, 12:28], img[12:28, 12:28])
    assert execute(parse_command("crop selection"), img, selection=mask).shape == (20, 20, 3)


# -- drawn selections --------------------------------------------------------------------------------


def _thing():
    """A red disc on a textured grey ground, and its exact mask."""
    rng = np.random.default_rng(3)
    img = rng.integers(90, 150, (120, 160, 3)).astype(np.uint8)
    yy, xx = np.mgrid[:120, :160]
    disc = (yy - 60) ** 2 + (xx - 80) ** 2 <= 30 ** 2
    img[disc] = (200, 40, 40) + rng.integers(-10, 10, (int(disc.sum()), 3))
    return img, disc


def _iou(a, b):
    return (a & b).sum() / (a | b).sum()


def test_a_box_and_a_loop_snap_to_the_thing_they_enclose():
    img, disc = _thing()
    box = sel.from_box(img, (40, 20, 121, 101))
    assert box.refined and _iou(box.mask >= 0.5, disc) > 0.9
    t = np.linspace(0, 2 * np.pi, 40)
    loop = [{"x": float((80 + 42 * np.cos(a)) / 160), "y": float((60 + 42 * np.sin(a)) / 120), "t": 0.0} for a in t]
    circled = sel.from_trace(img, [loop])
    assert circled.source == "trace" and _iou(circled.mask >= 0.5, disc) > 0.9
    assert circled.box()[0] >= 40 and circled.overlay()["kind"] == "region"
    assert circled.overlay()["polygons"] and all(0 <= x <= 1 for x, _ in circled.overlay()["polygons"][0])


def test_a_scribble_grows_to_the_thing_it_covers():
    img, disc = _thing()
    scribble = [{"x": x / 160, "y": 60 / 120, "t": 0.0} for x in range(65, 96, 3)]
    got = sel.from_trace(img, [scribble])
    assert (got.mask[disc] >= 0.5).mean() > 0.6 and (got.mask[~disc] >= 0.5).mean() < 0.02


def test_a_drawing_on_a_flat_picture_is_kept_as_drawn_with_a_soft_edge():
    img = np.full((600, 800, 3), 128, np.uint8)
    got = sel.from_box(img, (100, 100, 400, 400))  # DRAWN_FEATHER of a 1000-px diagonal: 10 px
    assert not got.refined and got.mask[250, 250] == 1 and got.mask[90, 250] == 0 and 0 < got.mask[100, 250] < 1


# -- the reader --------------------------------------------------------------------------------------


def lines(text, **kw):
    return [c.format() for c in read(text, **kw).commands]


@pytest.mark.parametrize("request_, expected", [
    ("brighten the sky", ["adjust_attr brightness 20 in sky"]),
    ("darken the left side", ["adjust_attr brightness -20 in left"]),
    ("make the dog's fur more orange", ["adjust_color orange 0.2 in the dog"]),
    ("lift the shadows", ["adjust_attr brightness 25 in shadows"]),
    ("recover the highlights", ["adjust_attr brightness -25 in highlights"]),
    ("everything except the cat black and white", ["grayscale in everything except the cat"]),
    ("make it black and white but keep the cat as it is", ["grayscale in everything except the cat"]),
    ("keep the sky as it is and make the rest black and white", ["grayscale in everything except sky"]),
    ("make the man on the right brighter", ["adjust_attr brightness 20 in the man on the right"]),
    ("make the cars black and white", ["grayscale in the cars"]),
    ("make the background darker", ["adjust_attr brightness -20 in background"]),
    ("brighten the sky and darken the left side",
     ["adjust_attr brightness 20 in sky", "adjust_attr brightness -20 in left"]),
    ("brighten this area", ["adjust_attr brightness 20 in selection"]),  # nothing drawn: the turn says so
    # the whole picture stays the whole picture
    ("make it brighter", ["adjust_attr brightness 20"]),
    ("make this black and white", ["grayscale"]),
    ("brighten it a bit and add some contrast", ["adjust_attr brightness 10", "adjust_attr contrast 20"]),
])
def test_words_name_where(request_, expected):
    assert lines(request_) == expected


@pytest.mark.parametrize("request_, expected", [
    ("brighten this", ["adjust_attr brightness 20 in selection"]),
    ("brighten this area", ["adjust_attr brightness 20 in selection"]),
    ("remove this", ["remove selection"]),
    ("make this black and white", ["grayscale in selection"]),
    ("crop to this", ["crop selection"]),
    ("make it warmer there", ["adjust_attr warmth 25 in selection"]),
    ("brighten the sky", ["adjust_attr brightness 20 in sky"]),  # words that name a region win
    ("undo that", ["undo"]),
    ("describe this", ["describe"]),
    ("make this photo black and white", ["grayscale"]),
])
def test_with_a_selection_this_here_and_it_point_at_it(request_, expected):
    assert lines(request_, selection=True) == expected


def test_a_part_easel_cannot_find_gets_a_request_to_point_never_the_whole_picture():
    reading = read("make the sea more blue")
    assert reading.commands == [] and reading.proposal == []
    assert "can't find the sea" in reading.reply and "“make this more blue”" in reading.reply
    assert "around it " in reading.reply and "around them " in read("brighten the flowers").reply
    assert "around it " in read("make the road greener").reply  # (the grass and the trees are found: editor.greenery)
    reading = read("keep the cat as it is")
    assert reading.commands == [] and "What should I change around the cat?" in reading.reply


def test_the_models_reading_gets_the_region_of_the_words():
    model = lambda clause, **kw: parse_command("adjust_color orange 0.3")  # noqa: E731
    assert lines("can the dog's fur look like a sunny afternoon", model=model) == ["adjust_color orange 0.3 in the dog"]
    assert lines("give her face an orange glow", model=lambda clause, **kw: None) == []


# -- the dialogue ------------------------------------------------------------------------------------


@pytest.fixture
def manager(tmp_path):
    doc = Document.create(Store(tmp_path / "t.db"), _photo(), title="t")
    return DialogueManager(doc)


def test_a_region_not_found_is_said_and_nothing_changes(manager):
    doc = manager.document
    result = manager.handle("brighten the sky")
    assert not result.ok and result.version is None and len(doc.versions) == 1
    assert "couldn't find the sky in this picture, so I changed nothing" in result.reply
    assert "“brighten this”" in result.reply
    result = manager.handle("make this area warmer")
    assert not result.ok and "Nothing is selected" in result.reply and "draw around" in result.reply.lower()


def test_brighten_this_uses_the_selection_once(manager, tmp_path):
    doc = manager.document
    session = Session(manager, doc.store)
    mask = np.zeros(doc.pixels().shape[:2], np.float32)
    mask[10:30, 20:50] = 1
    session.select(sel.Selection(mask, "box", True, [20, 10, 50, 30]))
    assert [o["label"] for o in session.overlays_on(doc.head.id)] == ["selection"]
    before = doc.pixels().copy()
    result = manager.handle("brighten this")
    line = doc.head.command
    assert result.ok and line.startswith("adjust_attr brightness 20 in selection ")  # and its mask's hash
    assert parse_command(line).label() == "Brighter +20 in selection"
    assert "your selection" in result.reply and line.split()[-1] not in result.reply
    assert [(o["label"], o["fill"]) for o in result.data["overlays"]] == [("edited here", False)]
    assert np.array_equal(doc.pixels()[mask == 0], before[mask == 0])
    assert manager.context.selection is None  # used: the next "this" needs another drawing
    assert session.overlays_on(doc.head.id) == []
    assert manager.handle("make this black and white").commands == [Grayscale()]  # the whole picture again


def test_a_selection_survives_light_edits_and_goes_with_a_crop(manager):
    doc = manager.document
    session = Session(manager, doc.store)
    mask = np.zeros(doc.pixels().shape[:2], np.float32)
    mask[10:30, 20:50] = 1
    session.select(sel.Selection(mask, "box", True, [20, 10, 50, 30]))
    assert manager.handle("make it warmer").ok is True
    assert doc.head.command.startswith("adjust_attr warmth 25 in selection ")  # "it" is what is drawn
    session.select(sel.Selection(mask, "box", True, [20, 10, 50, 30]))
    assert manager.handle("lift the shadows").ok and manager.selection() is not None  # no pixel moved
    assert [o["label"] for o in session.overlays_on(doc.head.id)] == ["selection"]
    result = manager.handle("crop to this")
    assert result.ok and doc.head.command == "crop 20 10 50 30"  # recorded as CAISE's crop: it replays
    assert manager.selection() is None


def test_esc_clears_the_trace_and_the_selection(manager):
    session = Session(manager, manager.document.store)
    session.draw_trace([[{"x": 0.1, "y": 0.1, "t": 0.0}, {"x": 0.5, "y": 0.5, "t": 0.4}]])
    session.select(sel.Selection(np.ones((60, 80), np.float32), "box", False, [0, 0, 80, 60]))
    session.clear_overlays()
    assert manager.context.trace is None and manager.context.selection is None and session.overlays == []


def test_the_box_of_the_dog_used_goes_to_the_canvas(manager, monkeypatch):
    _fake_detector(monkeypatch, [Detection("dog", 0.9, (50, 10, 75, 50)), Detection("dog", 0.7, (2, 10, 25, 50))])
    result = manager.handle("make the dog's fur more orange")
    assert result.ok and manager.document.head.command == "adjust_color orange 0.2 in the dog"
    assert result.reply.startswith("Tinted the dog toward orange at 20%. I see 2 dogs and changed the one on the right")
    assert result.data["overlays"][0]["box"] == [50, 10, 75, 50]


def test_what_was_found_is_kept_for_the_same_pixels_only(monkeypatch):
    img = _photo(100, 200)
    calls = []
    _fake_detector(monkeypatch, [Detection("dog", 0.9, (120, 20, 180, 80))])
    fake = objects.detect
    monkeypatch.setattr(objects, "detect", lambda rgb, min_score=0.3: calls.append(1) or fake(rgb, min_score))
    first = run(parse_command("grayscale in the dog"), img).pixels
    n = len(calls)
    again = run(parse_command("grayscale in the dog"), img.copy()).pixels  # the same pixels, another array
    assert len(calls) == n and np.array_equal(first, again)
    other = img.copy()
    other[0, 0, 0] ^= 1  # one bit differs: looked for again
    run(parse_command("grayscale in the dog"), other)
    assert len(calls) > n


def test_only_pointwise_edits_run_on_the_regions_box():
    from agent.edits.run import is_pointwise

    assert is_pointwise(parse_command("adjust_attr brightness 20 in sky"))
    assert is_pointwise(parse_command("grayscale in the cat"))
    assert not is_pointwise(parse_command("adjust_attr sharpness 20 in sky"))  # looks at neighbours
    assert not is_pointwise(parse_command("auto_enhance in sky"))  # at the whole picture's statistics


def test_an_edit_of_a_selection_replays_to_the_same_pixels_from_the_store(tmp_path):
    """The mask goes with the command (8 bits, stored beside the versions, named by its hash), so a
    lost version file is made again bit for bit, and the store's garbage collection keeps the mask."""

    from agent.edits.run import replay
    from app.storage import open_store

    store = open_store(tmp_path / "profile" / "easel.db")
    img = _photo(90, 120)
    doc = Document.create(store, img, title="photo")
    manager = DialogueManager(doc)
    soft = np.zeros(img.shape[:2], np.float32)
    soft[20:60, 30:90] = 1
    soft = masks.feather(soft, 9)  # a soft edge: values that 8 bits must keep exactly as used
    manager.context.selection = sel.Selection(soft, "trace", False, [[{"x": 0.3, "y": 0.3, "t": 0.0}]])
    assert manager.handle("make this warmer").ok
    first = doc.head
    manager.context.selection = sel.Selection(soft, "box", True, [30, 20, 90, 60])
    assert manager.handle("remove this").ok
    removed = doc.head
    lines = [first.command, removed.command]
    digest = lines[0].split()[-1]
    assert lines[0] == f"adjust_attr warmth 25 in selection {digest}" and lines[1] == f"remove selection {digest}"
    expected = {v.id: np.array(doc.pixels(v.id)) for v in (first, removed)}
    parent = np.array(doc.pixels(doc.root.id))
    assert np.array_equal(replay(lines[0], parent, load=store.get_pixels), expected[first.id])
    with pytest.raises(LookupError):  # without the stored mask: not replayable, never other pixels
        replay(lines[0], parent)
    store.flush()
    assert store.collect_garbage(grace=-1) == 0  # the mask is named by the edits: kept
    kept = store.get_pixels(digest)
    for v in (first, removed):  # the crash: the edits' files are lost; the mask and original are not
        store._blob_path(v.pixels).unlink()
    store.close()
    again = open_store(tmp_path / "profile" / "easel.db")
    reopened = Document.open(again, doc.id)
    for v in (first, removed):
        assert np.array_equal(reopened.pixels(v.id), expected[v.id])
    assert np.array_equal(again.get_pixels(digest), kept)
    again.close()


def test_a_fault_said_of_the_selection_proposes_mending_it_there(manager):
    """"this is dark" with a box drawn proposed brightening the whole picture."""
    doc = manager.document
    session = Session(manager, doc.store)
    mask = np.zeros(doc.pixels().shape[:2], np.float32)
    mask[10:30, 20:50] = 1
    session.select(sel.Selection(mask, "box", True, [20, 10, 50, 30]))
    result = manager.handle("this is dark")
    assert result.ok and "Brighter +20 in selection" in result.reply and doc.head.id == doc.root.id, result.reply
    assert manager.handle("yes").ok
    assert doc.head.command.startswith("adjust_attr brightness 20 in selection ")
