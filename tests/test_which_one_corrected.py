"""Which one, corrected in the conversation: "no, the one on the left" after "remove the chicken"
took the one on the right was not understood, and after "make the giraffe brighter" it brightened
the other one too; "what colour is the chicken?" of four answered for the surest one only."""

from __future__ import annotations

import numpy as np
import pytest

from agent.dialogue.manager import DialogueManager
from agent.edits import apart as apart_module
from agent.edits import objects, removal
from agent.language.followups import Recent
from agent.language.instead import read_instead
from agent.perception.models import Detection
from editor.document import Document
from editor.store import Store
from tests.conftest import box_hole

TOOK_RIGHT = "Removed the dog and filled in the background. I see 2 of them and removed the dog on the right"


def _read(words: str, last: str, said: str = "") -> tuple[list[str], bool, str | None] | None:
    out = read_instead(words, Recent(**{**Recent.of(last).__dict__, "said": said}))
    return None if out is None else ([c.format() for c in out.commands], out.revise, out.reply)


@pytest.mark.parametrize("words, last, said, want", [
    ("no, the one on the left", "remove the chicken", "", (["remove the chicken on the left"], True, None)),
    ("nope the left one", "remove the chicken", "", (["remove the chicken on the left"], True, None)),
    ("not that one, the chicken on the left", "remove the chicken", "", (["remove the chicken on the left"], True, None)),
    ("no, I meant the bigger one", "remove the chicken", "", (["remove the bigger chicken"], True, None)),
    ("no, the left", "remove the chicken on the right", "", (["remove the chicken on the left"], True, None)),
    ("no, the dog", "remove the chicken", "", (["remove the dog"], True, None)),
    ("no, the other one", "remove the dog", TOOK_RIGHT, (["remove the dog on the left"], True, None)),
    ("wrong one, the other one", "adjust_attr brightness 20 in the giraffe",
     "Brightened the giraffe by 20 points. I see 2 giraffes and changed the one on the right",
     (["adjust_attr brightness 20 in the giraffe on the left"], True, None)),
    ("no, the one on the right", "adjust_attr brightness 20 in the giraffe on the left", "",
     (["adjust_attr brightness 20 in the giraffe on the right"], True, None)),
    ("and the one on the left too", "remove the dog", TOOK_RIGHT, (["remove the dog on the left"], False, None)),
    ("no, the grass", "adjust_attr brightness 20 in sky", "", (["adjust_attr brightness 20 in greenery"], True, None)),
    ("no, the whole picture", "adjust_color blue 0.2 in sky", "", (["adjust_color blue 0.2"], True, None)),
    ("no, the giraffe", "adjust_attr brightness 20 in greenery", "",
     (["adjust_attr brightness 20 in the giraffe"], True, None)),
])
def test_a_correction_makes_the_edit_again_in_the_one_meant(words, last, said, want):
    assert _read(words, last, said) == want


def test_the_other_one_of_more_than_two_is_asked():
    said = "Removed the chicken. I see 4 of them and removed the chicken on the right"
    commands, revise, reply = _read("no, the other one", "remove the chicken", said)
    assert commands == [] and reply.startswith("Which chicken do you mean?")


@pytest.mark.parametrize("words, last", [
    ("the one on the left", "remove the chicken"),  # more, or instead? not guessed: the rules ask
    ("no", "remove the chicken"), ("no, the other way", "adjust_attr brightness 20 in the giraffe"),
    ("no, the same one", "remove the chicken"), ("no, the one on the left", "adjust_attr brightness 20"),
    ("no, the one on the left", "rotate 90"), ("and the dog too", "remove the chicken"),
    ("no, the bigger one", "adjust_attr brightness 20 in sky"),
])
def test_words_that_are_no_correction_of_which_one_are_left_to_the_other_rules(words, last):
    assert _read(words, last) is None


def _two_dogs(monkeypatch) -> np.ndarray:
    """A grey picture with a red square on the left and a blue one on the right, both "dogs", the
    right one the surer; holes and masks are the boxes."""
    img = np.full((120, 240, 3), 128, np.uint8)
    img[40:80, 20:60] = (200, 40, 40)
    img[40:80, 170:210] = (40, 40, 200)
    found = [Detection("dog", 0.9, (170, 40, 210, 80)), Detection("dog", 0.8, (20, 40, 60, 80))]
    for module in (objects, removal):
        monkeypatch.setattr(module, "detect", lambda rgb, min_score=0.3: [d for d in found if d.score >= min_score])

    def box_mask(pixels, box):
        m = np.zeros(pixels.shape[:2], bool)
        m[box[1]:box[3], box[0]:box[2]] = True
        return m

    monkeypatch.setattr(apart_module, "own_mask", box_mask)
    return img


def test_no_the_other_one_puts_the_first_back_and_removes_the_other(tmp_path, monkeypatch):
    img = _two_dogs(monkeypatch)
    manager = DialogueManager(Document.create(Store(tmp_path / "e.db"), img, title="dogs"))
    first = manager.handle("remove the dog")
    assert first.ok and "removed the dog on the right" in first.reply
    assert not np.array_equal(manager.document.pixels()[40:80, 170:210], img[40:80, 170:210])
    second = manager.handle("no, the other one")
    assert second.ok and second.reply.startswith("Put back the one I removed, and removed the dog on the left")
    now = manager.document.pixels()
    assert np.array_equal(now[:, 120:], img[:, 120:])  # the right one back as it was
    assert (now[40:80, 20:60, 0] < 150).mean() > 0.9  # the red one gone
    assert manager.handle("undo").ok  # one undo: the first try again
    assert np.array_equal(manager.document.pixels()[:, :120], img[:, :120])


def test_no_the_one_on_the_left_moves_a_brightening_to_that_one(tmp_path, monkeypatch):
    img = _two_dogs(monkeypatch)
    manager = DialogueManager(Document.create(Store(tmp_path / "e.db"), img, title="dogs"))
    assert "changed the one on the right" in manager.handle("make the dog brighter").reply
    reply = manager.handle("no, the one on the left").reply
    assert reply == "Brightened the dog on the left by 20 points, instead of the one I changed before."
    now = manager.document.pixels().astype(int)
    assert np.array_equal(now[:, 120:], img[:, 120:])
    assert now[60, 40].sum() > img[60, 40].astype(int).sum() + 30


def test_the_colour_of_one_of_several_is_each_ones_from_left_to_right(monkeypatch):
    from agent.describe import questions
    from agent.language.questions import read_question
    from agent.perception import naming, things

    img = np.full((120, 360, 3), 128, np.uint8)
    boxes = [(250, 30, 300, 90), (20, 30, 70, 90), (140, 30, 190, 90)]
    colours = {boxes[0]: "orange", boxes[1]: "brown", boxes[2]: "brown"}
    monkeypatch.setattr(things, "detect", lambda rgb, min_score=0.3: [Detection("bird", 0.9 - i / 10, b)
                                                                       for i, b in enumerate(boxes)])
    monkeypatch.setattr(naming, "name_objects", lambda rgb, ds, context=(): [
        naming.Named("chicken", "chicken", None, "classifier", 0.8, "chicken") for _ in ds])
    monkeypatch.setattr(naming, "object_colour", lambda rgb, box, label="", **_: colours[tuple(box)])
    ask = lambda words: questions.answer_question(img, read_question(words))  # noqa: E731
    text, data, _ = ask("what colour is the chicken?")
    assert text == "From left to right, the chickens are brown, brown and orange."
    assert len(data["overlays"]) == 3
    assert ask("is the chicken brown?")[0] == "2 of the 3 are: from left to right, the chickens are brown, brown and orange."
    assert ask("what colour is the chicken on the right?")[0] == "The chicken on the right is orange."
    colours[boxes[0]] = "brown"
    assert ask("what colour is the chicken?")[0] == "All 3 chickens are brown."
    assert ask("is the chicken red?")[0] == "No, all 3 chickens are brown, I would say."


def test_it_after_an_edit_of_a_thing_is_that_thing(tmp_path, monkeypatch):
    """"make the sheep brighter", then "remove it" was "What should I remove?" and "make it warmer"
    warmed the whole picture; "crop it" is still asked about (the picture's crop, not the thing's)."""
    img = _two_dogs(monkeypatch)
    manager = DialogueManager(Document.create(Store(tmp_path / "e.db"), img, title="dogs"))
    assert manager.handle("make the dog on the left brighter").ok
    assert [c.format() for c in manager.read("remove it")[0]] == ["remove the dog on the left"]
    assert [c.format() for c in manager.read("make it warmer")[0]] == ["adjust_attr warmth 25 in the dog on the left"]
    assert manager.read("crop it")[0] == []
    assert [c.format() for c in manager.read("undo it")[0]] == ["undo"]


def test_it_after_an_edit_of_a_found_part_is_that_part(tmp_path):
    """"the sky is too bright" (the sky darkened), then "darken it" darkened the whole picture; "blur the
    background", "make it darker too" the same. "it" is the part; "crop it" is the picture's, as before."""
    img = np.full((60, 80, 3), 120, np.uint8)
    manager = DialogueManager(Document.create(Store(tmp_path / "e.db"), img, title="field"))
    manager.document.apply("adjust_attr brightness -20 in sky", img)
    assert [c.format() for c in manager.read("darken it")[0]] == ["adjust_attr brightness -20 in sky"]
    assert manager.read("crop it")[0] == []
    assert [c.format() for c in manager.read("it feels cold")[0]] == ["adjust_attr warmth 25"]  # said of the picture
    manager.document.apply("background blur", img)
    assert [c.format() for c in manager.read("make it darker too")[0]] == ["adjust_attr brightness -20 in background"]
    manager.document.apply("adjust_attr brightness 20 in shadows", img)
    assert [c.format() for c in manager.read("make it warmer")[0]] == ["adjust_attr warmth 25"]  # (a tone: the picture)


def test_more_with_no_edit_made_asks_for_nothing(tmp_path, monkeypatch):
    """gcompris' Japanese dancers: "make her face brighter" found no face and changed nothing, then "a
    bit more" brightened the whole picture by 10 (the command model's reading of "a bit more")."""
    img = _two_dogs(monkeypatch)
    from agent.grammar.turns import Prediction

    class Brightens:  # the command model's reading of "a bit more", whatever came before
        def predict(self, history, concepts):
            return Prediction("adjust_attr brightness 10", 0.9)

    manager = DialogueManager(Document.create(Store(tmp_path / "e.db"), img, title="dogs"), parser=Brightens())
    assert not manager.handle("remove the cat").ok
    reply = manager.handle("a bit more").reply
    assert reply.startswith("I made no change for “Remove the cat”") and len(manager.document.versions) == 1
    assert manager.handle("stronger").reply.startswith("There is no edit on screen")
    assert len(manager.document.versions) == 1


def test_an_edit_refused_for_its_thing_is_made_in_the_one_said_next(tmp_path, monkeypatch):
    """"remove the person on the right" refused (one further right), then "no, the one on the far
    right" was "Sorry, I don't know how to do that": the answer to the refusal is read against it,
    on the next turn only."""
    img = _two_dogs(monkeypatch)
    manager = DialogueManager(Document.create(Store(tmp_path / "e.db"), img, title="dogs"))
    refused = manager.handle("remove the cat")
    assert not refused.ok and len(manager.document.versions) == 1
    assert [c.format() for c in manager.read("no, the dog on the left")[0]] == ["remove the dog on the left"]
    assert [c.format() for c in manager.read("the dog on the left")[0]] == ["remove the dog on the left"]
    done = manager.handle("no, the dog on the left")
    assert done.ok and done.reply.startswith("Removed the dog on the left")
    assert np.array_equal(manager.document.pixels()[:, 120:], img[:, 120:])
    fresh = DialogueManager(Document.create(Store(tmp_path / "f.db"), img, title="dogs"))
    assert not fresh.handle("remove the cat").ok
    fresh.handle("thanks")  # another turn between: the refusal is forgotten
    assert fresh.read("no, the dog on the left")[0] == []


def test_they_after_a_question_about_people_are_those_people(monkeypatch, tmp_path):
    """"what is the person wearing?" (three musicians), then "are they wearing black?" was "I can't
    answer that"; "is the man wearing a red shirt?" was not read as a question."""
    from agent.describe import questions
    from agent.language.questions import read_question
    from agent.perception import things

    img = np.full((120, 360, 3), 128, np.uint8)
    people = [Detection("person", 0.9, (20 + 110 * i, 10, 90 + 110 * i, 110)) for i in range(3)]
    monkeypatch.setattr(things, "detect", lambda rgb, min_score=0.3: people)
    manager = DialogueManager(Document.create(Store(tmp_path / "e.db"), img, title="band"))
    questions.register(manager)
    manager.handle("what is the person wearing?")
    assert manager.context.topic == "the person"
    assert [c.question for c in manager.read("are they wearing black?")[0]] == ["are the people wearing black"]
    assert read_question("is the man wearing a red shirt?").value == "red"


def test_a_removal_of_a_large_part_of_the_picture_says_the_fill_is_made_up(monkeypatch):
    """A man filling 45% of his photo was removed with "Removed the man and filled in the background."
    and a fill of a stump's strip, a green smear and a pale band."""
    img = np.random.default_rng(0).integers(0, 255, (120, 240, 3), dtype=np.uint8)
    for share, box in ((0.5, (0, 0, 120, 120)), (0.1, (20, 40, 60, 80))):
        monkeypatch.setattr(objects, "detect", lambda rgb, min_score=0.3, b=box: [Detection("dog", 0.9, b)])
        monkeypatch.setattr(removal, "detect", lambda rgb, min_score=0.3: [])

        monkeypatch.setattr(objects, "hole_for", box_hole)
        note = removal.remove(img, "the dog")[2]
        assert ("It took 50% of the picture, and a fill that large is made up" in note) == (share == 0.5), note


def test_the_other_one_too_of_two_is_the_one_the_edit_did_not_take():
    """"make the giraffe brighter" ("I see 2 giraffes and changed the one on the right"), then "the
    other one too" asked which; of more than two, or after one said by its place, it still asks."""
    from agent.language.followups import read_follow_up

    said = "Brightened the giraffe by 20 points. I see 2 giraffes and changed the one on the right"
    follow = read_follow_up("the other one too", Recent(**{**Recent.of("adjust_attr brightness 20 in the giraffe").__dict__,
                                                           "said": said}))
    assert [c.format() for c in follow.commands] == ["adjust_attr brightness 20 in the giraffe on the left"]
    herd = Recent(**{**Recent.of("adjust_attr brightness 20 in the bison").__dict__, "said": said.replace("2", "8")})
    assert read_follow_up("the other one too", herd).reply.startswith("Which one do you mean?")


def test_one_of_the_things_edited_together_is_one_of_them(tmp_path, monkeypatch):
    """"make the kids brighter", then "the one in the middle more" brightened the centre of the
    picture, and "now the one on the left" looked for "the kids on the left" (one kid is the person
    there: "the kid" alone is the smaller one)."""
    from conftest import fake_detector

    fake_detector(monkeypatch, [Detection("person", 0.9, (10, 60, 60, 100)), Detection("person", 0.8, (175, 60, 225, 100)),
                                Detection("person", 0.9, (340, 60, 390, 100))])
    manager = DialogueManager(Document.create(Store(tmp_path / "e.db"), np.full((200, 400, 3), 100, np.uint8), title="kids"))
    assert manager.handle("make the kids brighter").ok
    more = manager.handle("the one in the middle more")
    assert more.reply == "Brightened the person in the middle by 20 points.", more.reply
    assert int(manager.document.pixels()[80, 200, 0]) > int(manager.document.pixels()[80, 30, 0]) + 20  # brightened twice
    assert [c.format() for c in manager.read("now the one on the left")[0]] == ["adjust_attr brightness 20 in the person on the left"]


def test_what_is_said_of_a_herd_counted_is_about_the_herd(tmp_path, monkeypatch):
    """"how many bison?", then "remove all of them" went back to the original ("This is already the
    original"), "which is the biggest?" and "remove the one in front" were refused; after "which is
    the biggest?", "them" was that one."""
    img = _two_dogs(monkeypatch)
    manager = DialogueManager(Document.create(Store(tmp_path / "e.db"), img, title="dogs"))
    manager.context.topic, manager.context.topic_count = "the dogs", 2
    assert [c.format() for c in manager.read("remove all of them")[0]] == ["remove all of the dogs"]
    assert [c.format() for c in manager.read("remove the one in front")[0]] == ["remove the dog in front"]
    manager.context.topic = "the biggest dog"
    assert [c.format() for c in manager.read("remove all of them")[0]] == ["remove all of the dogs"]
    assert [c.format() for c in manager.read("remove all the changes")[0]] == ["undo"]


def test_a_thing_named_by_the_person_is_called_so(tmp_path, monkeypatch):
    """gcompris' duck is "a grey goose" to describe; "no, it's a duck" was "Sorry, I don't know how
    to do that". The thing talked about is called what the person says, in this photo and its edits."""
    from conftest import fake_detector

    from agent.perception import naming
    from agent.perception.names_kept import names_given

    img = np.full((200, 400, 3), 120, np.uint8)
    img[60:140, 150:250] = (230, 230, 225)
    goose = Detection("bird", 0.9, (150, 60, 250, 140))
    fake_detector(monkeypatch, [goose])
    with names_given([((148, 58, 252, 141), "duck")]):
        assert naming.name_objects(img, [goose])[0].said == "duck"
    assert naming.name_objects(img, [goose])[0].said != "duck"
    manager = DialogueManager(Document.create(Store(tmp_path / "e.db"), img, title="pond"))
    assert manager.handle("no, it's a duck").reply.startswith("Which thing do you mean?")  # nothing talked about
    manager.context.topic = "the bird"
    done = manager.handle("no, it's a duck")
    assert done.ok and done.reply == "Thank you: I'll call it a duck from now on."
    assert manager.context.topic == "the duck" and manager.context.given[manager.document.root.id][0][1] == "duck"
    assert manager.handle("it's a bit dark").reply != done.reply  # (names no thing)


def test_a_thing_edited_by_the_persons_word_is_called_so(tmp_path, monkeypatch):
    """gcompris' duck: "make the duck stand out more", then "what changed?" said "the goose in the
    middle got more contrast". The word that found it is its name from then on."""
    from conftest import fake_detector

    img = np.full((200, 400, 3), 120, np.uint8)
    img[60:140, 150:250] = (230, 230, 225)
    fake_detector(monkeypatch, [Detection("bird", 0.9, (150, 60, 250, 140))])
    manager = DialogueManager(Document.create(Store(tmp_path / "e.db"), img, title="pond"))
    assert manager.handle("adjust_attr contrast 20 in the duck").ok
    assert manager.context.given[manager.document.root.id] == [((150, 60, 250, 140), "duck")]
    assert manager.handle("adjust_attr contrast 20 in the bird").ok  # (the models' own word adds nothing)
    assert len(manager.context.given[manager.document.root.id]) == 1


def test_it_after_a_removal_is_asked_about_not_removed_again(tmp_path, monkeypatch):
    """"is it gone?" after "remove the dog on the left" was "I can't answer that"; "remove it" then is
    still asked (the next dog is not "it")."""
    img = _two_dogs(monkeypatch)
    manager = DialogueManager(Document.create(Store(tmp_path / "e.db"), img, title="dogs"))
    manager.document.apply("remove the dog", img)
    assert [c.format() for c in manager.read("is it gone?")[0]] == ["describe"]
    assert manager.read("is it gone?")[0][0].question == "is the dog gone"
    assert manager.read("remove it")[0] == []


def test_them_with_nothing_talked_about_is_asked(tmp_path, monkeypatch):
    """"how many people?" ("I don't see any people"), then "make them brighter" brightened the whole picture."""
    img = _two_dogs(monkeypatch)
    manager = DialogueManager(Document.create(Store(tmp_path / "e.db"), img, title="dogs"))
    commands, reply = manager.read("make them brighter")
    assert commands == [] and reply.startswith("Which do you mean by “them”?")
    manager.context.topic = "the dogs"
    assert [c.format() for c in manager.read("make them brighter")[0]] == ["adjust_attr brightness 20 in the dogs"]


def test_crop_to_it_after_an_edit_of_a_thing_crops_to_that_thing(tmp_path, monkeypatch):
    """gcompris' squirrel: "make the squirrel look sharper", then "perfect, now crop to it" was "Crop to
    what?" ("crop it" there is still the picture's: asked)."""
    from conftest import fake_detector

    img = np.full((200, 400, 3), 120, np.uint8)
    img[60:140, 150:250] = (160, 110, 70)
    fake_detector(monkeypatch, [Detection("dog", 0.9, (150, 60, 250, 140))])
    manager = DialogueManager(Document.create(Store(tmp_path / "e.db"), img, title="dog"))
    assert manager.handle("adjust_attr sharpness 40 in the dog").ok
    assert [c.format() for c in manager.read("perfect, now crop to it")[0]] == ["crop the dog"]
    assert [c.format() for c in manager.read("zoom in on it")[0]] == ["crop the dog"]
    assert manager.read("crop it")[0] == []
    assert [c.format() for c in manager.read("make it a square")[0]] == ["crop square"]


def test_what_is_said_of_the_thing_talked_about_is_kept_when_nothing_runs(tmp_path, monkeypatch):
    """gcompris' jaguar: "where's the jaguar?", then "zoom in on its face" answered "Crop to what?":
    read as the jaguar's face it is refused with what to say instead, and that is the answer."""
    img = _two_dogs(monkeypatch)
    manager = DialogueManager(Document.create(Store(tmp_path / "e.db"), img, title="dogs"))
    manager.context.topic = "the dog"
    commands, reply = manager.read("zoom in on its face")
    assert commands == [] and reply.startswith("I can't find the dog's face on my own"), reply


def test_crop_closer_with_no_crop_made_crops_about_the_centre():
    # "crop it closer" on a photo just opened was "There is no edit on screen, nothing to make tighter"
    from agent.language.reader import read

    said = lambda words: [c.format() for c in read(words, model=lambda *a, **k: None, photo_open=True).commands]  # noqa: E731
    assert said("crop it closer") == ["crop in 10%"]
    assert said("crop it a bit tighter") == ["crop in 5%"]
    assert said("a bit tighter") == []  # (no crop to make tighter)


def test_and_the_other_corner_and_double_that():
    # gcompris' Eiffel Tower: "and the top right" after "darken the top left corner a bit" and "double that"
    # after "make it 10 points warmer" were "Sorry, I don't know how to do that"
    from agent.language.followups import Recent, read_follow_up

    said = lambda words, last: [c.format() for c in read_follow_up(words, Recent.of(last)).commands]  # noqa: E731
    assert said("and the top right", "adjust_attr brightness -12 in top left") == ["adjust_attr brightness -12 in top right"]
    assert said("and the bottom right corner", "adjust_attr brightness -12 in top left") == [
        "adjust_attr brightness -12 in bottom right"]
    assert said("and the cat", "adjust_attr brightness 20 in the dog") == ["adjust_attr brightness 20 in the cat"]
    assert read_follow_up("and the cat", Recent.of("adjust_attr brightness 20")) is None  # (no part edited)
    for words in ("double that", "twice as much", "make it twice as strong"):
        assert said(words, "adjust_attr warmth 10") == ["adjust_attr warmth 20"], words
