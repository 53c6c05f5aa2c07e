"""A conversation about the picture (issue 27): revisions re-rendered from the version they were applied
to, repeats, going back, questions answered from perception and measurements, a critique whose plan
runs on "yes", and searches that neither leak the open photo's words nor replace an edited photo
without asking."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from conftest import fake_detector

from agent.dialogue.manager import DialogueManager, UndoStep
from agent.edits.run import execute
from agent.grammar.commands import AdjustAttr, Search
from agent.grammar.turns import Prediction, TurnResult
from agent.language.followups import FOLLOW_UPS, Recent, outcome, read_follow_up
from agent.language.reader import own_search_words
from agent.perception.measure import measure
from agent.search.library import SearchResult, is_weak, missing_words
from editor.document import Document
from editor.store import Store


@pytest.fixture
def gradient():
    x = np.linspace(20, 235, 48, dtype=np.float64)
    img = np.stack([np.tile(x, (32, 1)), np.tile(x[::-1], (32, 1)), np.full((32, 48), 120.0)], axis=2)
    return img.astype(np.uint8)


@pytest.fixture
def manager(tmp_path, gradient):
    doc = Document.create(Store(tmp_path / "easel.db"), gradient, title="g.png")
    return DialogueManager(doc)


def lineage(doc: Document) -> list[str]:
    return [v.command for v in doc.lineage()[1:]]


EXAMPLES = [(rule.name, words, last, want) for rule in FOLLOW_UPS for words, last, want in rule.examples]


@pytest.mark.parametrize("name, words, last, want", EXAMPLES)
def test_each_follow_up_rule_reads_its_examples(name, words, last, want):
    recent = Recent.of(*[line for line in last.split("; ") if line])
    rule = next(r for r in FOLLOW_UPS if r.name == name)
    pieces_read = outcome(read_follow_up(words, recent))
    assert pieces_read == want
    if want != "none" and "," not in words:
        assert outcome(rule.read(words.lower(), recent)) == want  # this rule, not an earlier one


def test_a_revision_is_made_again_from_the_version_the_edit_was_applied_to(manager):
    doc = manager.document
    root = doc.head.id
    manager.handle("increase the contrast by 40")
    first = doc.head.id
    result = manager.handle("that's way too much contrast")
    assert result.reply == "Contrast now +10 instead of +40."
    assert lineage(doc) == ["adjust_attr contrast 10"] and doc.head.parent_id == root
    # the pixels are the original's at +10, not a correction stacked on the clipped +40
    assert np.array_equal(doc.pixels(), execute(AdjustAttr("contrast", 10), doc.pixels(root)))
    assert manager.history[-2] == "adjust_attr contrast 10"
    assert {v.id for v in doc.children(root)} == {first, doc.head.id}  # the first try stays in the tree
    # one undo takes the revision back, to the first try
    assert manager.handle("undo").ok and doc.head.id == first


def test_revisions_follow_what_was_asked(manager):
    doc = manager.document
    manager.handle("brighten it")
    manager.handle("no, the other way")
    assert lineage(doc) == ["adjust_attr brightness -20"]
    manager.handle("a bit less")
    assert lineage(doc) == ["adjust_attr brightness -15"]
    manager.handle("still too bright")  # brighter than wanted after darkening: darken more
    assert lineage(doc) == ["adjust_attr brightness -22"]
    manager.handle("make it blue")
    manager.handle("not so blue")
    assert lineage(doc)[-1] == "adjust_color blue 0.1"


def test_an_edit_without_an_amount_is_not_revised(manager):
    doc = manager.document
    manager.handle("make it black and white")
    head = doc.head.id
    result = manager.handle("a bit less")
    assert "no amount" in result.reply and doc.head.id == head


def test_follow_ups_without_an_edit_are_left_to_the_rules(manager):
    assert not manager.read("the other way")[0]
    assert manager.read("too dark")[0][0].format() == "adjust_attr brightness 20"  # a request of its own


def test_again_same_for_and_going_back(manager):
    doc = manager.document
    manager.handle("rotate it 90 degrees clockwise")
    manager.handle("again")
    assert lineage(doc) == ["rotate 270", "rotate 270"]
    manager.handle("flip it horizontally")
    manager.handle("and vertically as well")
    assert lineage(doc)[-2:] == ["flip horizontal", "flip vertical"]
    manager.handle("increase contrast by 25")
    manager.handle("do the same for brightness")
    assert lineage(doc)[-2:] == ["adjust_attr contrast 25", "adjust_attr brightness 25"]
    assert manager.handle("undo the last two edits").reply.startswith("Undid 2 steps; now showing")
    assert lineage(doc) == ["rotate 270", "rotate 270", "flip horizontal", "flip vertical"]
    assert manager.history[-3:-1] == ["undo", "undo"]  # CAISE's form: one undo line a step
    before = doc.head.id
    result = manager.handle("go back to the original")
    assert doc.head.id == doc.root.id and "original" in result.reply
    manager.handle("undo")  # brings the edits back
    assert doc.head.id == before
    manager.handle("the previous one was better")
    assert lineage(doc) == ["rotate 270", "rotate 270", "flip horizontal"]


def test_repeat_runs_the_whole_last_request(manager):
    manager.handle("increase brightness by 30 and contrast by 20")
    manager.handle("repeat the last edit")
    assert lineage(manager.document) == ["adjust_attr brightness 30", "adjust_attr contrast 20"] * 2


def test_undo_steps_and_the_original_follow_the_window_s_plan(manager):
    doc = manager.document
    manager.handle("rotate 90")
    manager.handle("flip horizontal")
    head = doc.head.id
    manager.context.undo_plan = {"undo": UndoStep("flip", doc, doc.parent().id),
                                 "undo 2": UndoStep("rotate", doc, doc.root.id),
                                 "original": UndoStep("the original", doc, doc.root.id, checkout=True)}
    result = manager.handle("undo the last two edits")
    assert result.ok and result.version.id == doc.root.id and doc.head.id == head  # the window takes the steps
    assert result.command.steps == 2
    result = manager.handle("put it back the way it was")
    assert result.ok and result.command.original and result.version.id == doc.root.id


def test_praise_is_answered_and_nothing_runs(manager):
    manager.handle("rotate 90")
    head = manager.document.head.id
    for words in ("perfect, thanks", "ok thats good", "great thank you!"):
        result = manager.handle(words)
        assert not result.commands and manager.document.head.id == head


class LeakyParser:
    """A command model that reads searches and adds a word of the open photo's concepts, as the
    learned one did ("find me a photo of a dog" -> search dog clock)."""

    def predict(self, history, concepts):
        last = history[-1].split(":", 1)[1].strip()
        if "dog" in last:
            return Prediction("search dog clock", 0.9)
        return Prediction(None, 0.0)


def test_a_search_with_an_edited_photo_open_runs_its_own_words(manager):
    # it no longer asks first: the match opens beside the edited photo (tests/test_search_beside.py)
    manager.parser = LeakyParser()
    opened = []
    manager.handlers["search"] = lambda m, c: opened.append(c.words) or TurnResult(c.format(), "found", c)
    manager.handle("rotate 90")
    manager.handle("find me a photo of a dog")
    assert opened == ["dog"]
    manager.handle("search red balloon")  # the command typed as such runs as asked
    assert opened == ["dog", "red balloon"]


def test_a_bare_phrase_is_a_search_when_no_photo_is_open():
    manager = DialogueManager(None)
    assert [c.format() for c in manager.read("a giraffe")[0]] == ["search giraffe"]
    assert [c.format() for c in manager.read("kites on a beach")[0]] == ["search kites on a beach"]
    assert not any(isinstance(c, Search) for c in manager.read("make it brighter")[0])


def test_search_words_come_from_the_request():
    assert own_search_words(Search("dog clock"), "find me a photo of a dog") == Search("dog")
    assert own_search_words(Search("clock"), "find me a photo of a dog") is None
    assert own_search_words(Search("grey cats"), "show me gray cats") == Search("grey cats")


def test_a_weak_best_match_is_said_not_opened():
    kite = SearchResult("red_balloon.jpg", 1.0, "A photo of a red kite.", "h", 1, 1, None, ["red kite"], 0.56, True)
    assert missing_words("kites on a beach", kite) == ["beach"] and is_weak("kites on a beach", kite)
    assert not is_weak("a red kite", kite)
    daisy = SearchResult("grass.jpg", 1.0, "A photo. It looks like a daisy.", "h", 1, 1, None, [], 0.50, False)
    assert not is_weak("flowers", daisy)  # close in meaning, one word
    assert is_weak("giraffe", SearchResult("cat.jpg", 1.0, "A photo of a cat.", "h", 1, 1, None, [], 0.34, False))


def test_measures_of_a_tilted_line_and_of_a_dark_picture():
    import cv2

    img = np.full((300, 400, 3), 200, np.uint8)
    img[150:] = 60
    m = cv2.getRotationMatrix2D((200, 150), 3.0, 1.0)  # 3 degrees counter-clockwise
    tilted = cv2.warpAffine(img, m, (400, 300), borderMode=cv2.BORDER_REPLICATE)
    assert measure(tilted).tilt == pytest.approx(3.0, abs=0.6)
    assert measure(np.full((40, 60, 3), 30, np.uint8)).mean < 0.2


@pytest.mark.parametrize("words, kind", [
    ("what colour is the cup?", "colour"), ("is there a spoon?", "present"), ("how many cats are there?", "count"),
    ("are there any people?", "present"),
    # a colour asked about is a question, not a tint ("is the sky blue?" ran "adjust_color skyblue in sky")
    ("is the sky blue?", "colour_is"), ("is the horse brown", "colour_is"), ("is the man wearing red?", "colour_is"),
    ("is the cup red or orange?", "colour"), ("is it a dog?", "present"), ("is it too blue?", "measure"),
    ("can you see the dog?", "present"), ("what is the brightness?", "measure"),  # it raised the brightness
    ("how much contrast is there?", "measure"),
    ("where is the dog", "where"), ("is it too dark?", "measure"), ("is the horizon straight?", "measure"),
    ("What would you improve in this photo?", "critique"), ("how can i make this better", "critique"),
    ("whats wrong with this photo", "critique"), ("any suggestions?", "critique"),
    ("isnt it too dark now?", "measure"), ("doesnt it look too warm", "measure"),  # typed without apostrophes
    # requests, not questions about the picture: the rules read them
    ("is there any way to make it pop a little more", None), ("how can you fix the red eye", None),
    ("what do you think about making it brighter", None), ("make it brighter", None),
    ("are there any pictures of dogs", None), ("are there other ones with a red car", None),  # searches
])
def test_questions_about_the_picture_are_told_from_requests(words, kind):
    from agent.language.questions import read_question
    from agent.language.reader import read

    question = read_question(words)
    assert (question.kind if question else None) == kind
    if kind is not None:  # with a photo open, a question about it ("are there any ...") is not a search
        assert [c.format() for c in read(words, photo_open=True).commands] == ["describe"]


@pytest.mark.parametrize("words", ["yes do it", "sure, go ahead", "ok let's do it", "yes please"])
def test_agreement_runs_the_proposal_and_without_one_says_there_is_none(words):
    from agent.language.reader import read

    proposal = [AdjustAttr("brightness", 15), AdjustAttr("contrast", 10)]
    reading = read(words, proposal=proposal)
    assert reading.commands == proposal and reading.confirmed
    alone = read(words)
    assert not alone.commands and "nothing waiting" in alone.reply


def test_a_critique_says_its_figures_and_runs_nothing_until_yes(tmp_path):
    from agent.describe import questions

    dark = np.clip(np.random.default_rng(0).normal(45, 12, (60, 80, 3)), 0, 255).astype(np.uint8)
    manager = DialogueManager(Document.create(Store(tmp_path / "easel.db"), dark, title="dark.png"))
    manager.handlers["describe"] = lambda m, c: TurnResult("describe", "a caption", c)
    questions.register(manager)
    result = manager.handle("what would you improve in this photo?")
    assert "mean brightness" in result.reply and "%" in result.reply and "brighten it by" in result.reply
    assert manager.document.head.parent_id is None  # nothing ran
    assert manager.handle("describe").reply == "a caption"  # a plain describe is the caption's
    manager.handle("how can i make this better")
    manager.handle("only the first one")
    assert len(lineage(manager.document)) == 1 and lineage(manager.document)[0].startswith("adjust_attr brightness ")


@pytest.mark.slow
def test_questions_are_answered_from_what_is_seen(tmp_path, coffee):
    from agent.dialogue.assistant import build_manager
    from agent.dialogue.manager import GrammarParser

    doc = Document.create(Store(tmp_path / "easel.db"), coffee, title="coffee.png")
    manager = build_manager(doc, parser=GrammarParser(), library_path=tmp_path / "none.db")
    result = manager.handle("what colour is the cup?")
    assert result.ok and result.reply.startswith("The cup") and result.data["overlays"][0]["kind"] == "box"
    assert manager.handle("is there a dog").reply == "I don't see a dog."
    assert "spoon" in manager.handle("is there a spoon?").reply
    assert manager.handle("is there a sky?").reply == "I don't see any sky in this picture."  # the sky mask's
    assert doc.head.parent_id is None


def test_the_sky_is_answered_from_the_sky_mask_and_people_are_counted_as_people(monkeypatch):
    """"what colour is the sky?" was refused (the sky is no detector class) though "brighten the
    sky" finds it; "how many people are there?" answered "I count 2 peoples"."""
    from agent.describe import questions
    from agent.language.questions import read_question
    from agent.perception import things
    from agent.perception.models import Detection

    img = np.zeros((300, 400, 3), np.uint8)
    yy = np.linspace(0, 1, 200)[:, None]
    img[:200] = np.stack([90 + 60 * yy, 150 + 50 * yy, 235 + 0 * yy], axis=2).astype(np.uint8)
    img[200:] = np.clip(np.array([60, 140, 50]) + np.random.default_rng(0).normal(0, 12, (100, 400, 3)), 0, 255)
    text, data, plan = questions.answer_question(img, read_question("what colour is the sky?"))
    assert text.startswith("The sky is blue.") and "down to 67% of the picture's height" in text, text
    assert data["overlays"][0]["box"][1] == 0 and not plan
    assert questions.answer_question(img, read_question("where is the sky?"))[0].startswith("The sky is at the top")
    assert questions.answer_question(img, read_question("is the sky blue?"))[0].startswith("Yes, the sky is blue.")
    assert questions.answer_question(img, read_question("is the sky grey?"))[0].startswith("No, the sky is blue")
    people = [Detection("person", 0.9, (10, 210, 40, 290)), Detection("person", 0.8, (300, 210, 330, 290))]
    monkeypatch.setattr(things, "detect", lambda rgb, min_score=0.3: list(people))
    assert questions.answer_question(img, read_question("how many people are there?"))[0] == "I count 2 people."
    people.pop()
    assert questions.answer_question(img, read_question("how many people are there"))[0] == "I count 1 person."
    monkeypatch.setattr("agent.perception.naming.object_colour", lambda rgb, box, label: "skyblue")
    said = questions.answer_question(img, read_question("is the man wearing blue?"))[0]
    assert said == "Yes, the man at the bottom left is wearing light blue.", said
    said = questions.answer_question(img, read_question("is the person in red"))[0]
    assert said.startswith("No, the person at the bottom left is wearing light blue"), said


@pytest.mark.parametrize("words", ["is the image black and white?", "is it warmer now?", "does it need more contrast?",
                                   "is the contrast too high?", "was it brighter before?", "should it be brighter?"])
def test_a_question_about_the_photo_runs_no_edit_and_yes_runs_what_it_proposed(manager, words):
    """A yes/no question about the photo was read as the edit its words name: "is the image black
    and white?" made it black and white, "is it warmer now?" warmed it. Now nothing runs, the reply
    says what it could do, and "yes" runs that."""
    result = manager.handle(words)
    assert lineage(manager.document) == [], result.reply
    assert result.ok  # a question asked back, not a failure: the chat shows no warning sign
    assert "changed nothing" in result.reply and "Say yes" in result.reply, result.reply
    from app.labels import short_refusal

    assert "Say yes" in short_refusal(result.reply)  # the chat's cut to two sentences keeps it
    manager.handle("yes")
    assert len(lineage(manager.document)) == 1


@pytest.mark.parametrize("words", ["nice contrast", "this photo is dark on purpose",
                                   "the picture is a bit dark but I like it", "great colours"])
def test_praise_and_a_look_meant_so_change_nothing(manager, words):
    """"nice contrast" raised the contrast; "dark on purpose" and "a bit dark but I like it" darkened it."""
    result = manager.handle(words)
    assert lineage(manager.document) == [] and result.ok and "left it as it is" in result.reply


def test_a_blurry_background_said_or_asked_of_is_not_blurred_more(manager):
    """"the background is too blurry" blurred the background; said or asked without "too", Easel
    asks which way."""
    for words in ("the background is blurry", "is the background blurry?"):
        assert "sharpen the background or blur it more" in manager.handle(words).reply
    assert lineage(manager.document) == []
    manager.handle("the background is too blurry")
    assert lineage(manager.document) == ["adjust_attr sharpness 40 in background"]


def test_why_is_it_so_dark_proposes_to_brighten_it(manager):
    """It was read as "darken it" (the model took "dark" for the edit) and run."""
    assert "changed nothing" in manager.handle("why is it so dark?").reply
    manager.handle("yes")
    assert lineage(manager.document) == ["adjust_attr brightness 20"]


@pytest.mark.parametrize("words", ["who is in the picture?", "what animal is this?", "what kind of bird is that"])
def test_what_or_who_is_in_it_is_described(words):
    from agent.language.reader import read

    assert [c.format() for c in read(words, photo_open=True).commands] == ["describe"]


@pytest.mark.parametrize("words, line", [
    ("is it possible to make it brighter?", "adjust_attr brightness 20"),
    ("would you make it brighter?", "adjust_attr brightness 20"),
    ("Would it be possible to increase the brightness of the image?", "adjust_attr brightness 20")])
def test_a_request_put_as_a_question_still_runs(manager, words, line):
    manager.handle(words)
    assert lineage(manager.document) == [line]


def test_a_revision_said_first_and_a_request_after_it(manager):
    manager.handle("increase the contrast by 30")
    result = manager.handle("too much, and make it warmer")
    lines = lineage(manager.document)
    assert lines[0] == "adjust_attr contrast 15" and lines[1].startswith("adjust_attr warmth ") and len(lines) == 2
    assert "instead of +30" in result.reply
    manager.handle("undo")  # one request, one undo step: back to the contrast at +30
    assert lineage(manager.document) == ["adjust_attr contrast 30"]


@pytest.mark.parametrize("words, left", [
    ("ok that's too much, go back one", ["adjust_attr warmth 38"]),
    ("that's way too strong, go back to the original", []),
    ("too much, revert to the original", [])])
def test_a_revision_then_going_back_only_goes_back(manager, words, left):
    """"ok that's too much, go back one" made the warmth less and then undid that (the picture as it
    was, the reply "Warmth now +28 ... Undid it"); "that's way too strong, go back to the original"
    made the colours duller by 60 and explained the change."""
    manager.handle("warm it up")
    manager.handle("more")
    result = manager.handle(words)
    assert lineage(manager.document) == left, result.reply


def test_a_request_of_several_edits_is_undone_in_one_step(manager):
    manager.handle("increase brightness by 30 and contrast by 20")
    manager.handle("undo")
    assert lineage(manager.document) == []


def test_a_critique_names_grain_with_its_figure_and_smooths_it(coffee):
    from agent.describe.critique import critique
    from agent.perception.measure import NOISY, measure

    noisy = np.clip(coffee + np.random.default_rng(0).normal(0, 8, coffee.shape), 0, 255).astype(np.uint8)
    assert measure(coffee).noise < NOISY < measure(noisy).noise
    c = critique(noisy, subject=False)
    assert any("grainy" in f and "noise sd" in f for f in c.findings)
    assert "adjust_attr sharpness -20" in [p.format() for p in c.plan]
    assert all(p.format() != "adjust_attr sharpness 30" for p in c.plan)  # grain is not sharpened


def test_a_critique_calls_the_subject_what_describe_calls_it(coffee, monkeypatch):
    """gcompris' jaguar: "the composition (the bear fills 23% of the frame ...)" where describe says
    "a jaguar" (the detector's label is "bear")."""
    from agent.describe.critique import critique
    from agent.perception import naming, things
    from agent.perception.models import Detection

    h, w = coffee.shape[:2]
    monkeypatch.setattr(things, "detect", lambda rgb, min_score=0.3: [Detection("bear", 0.9, (w // 4, h // 4, 3 * w // 4, 3 * h // 4))])
    monkeypatch.setattr(naming, "called_otherwise", lambda pixels, box, label, min_score=0.3: "jaguar")
    assert any("the jaguar fills 25%" in f for f in critique(coffee).fine)


def test_a_critique_crops_to_no_one_of_a_crowd_nor_to_a_speck(coffee, monkeypatch):
    """gcompris' Japanese drummers: "I would crop to the person" (one of eight, 2% of the frame); the
    Eiffel Tower: "crop to the person" (a tourist at the bottom, under 1%; the tower is no thing the
    detector knows). One small thing alone is still cropped to."""
    from agent.describe.critique import critique
    from agent.perception import naming, things
    from agent.perception.models import Detection

    h, w = coffee.shape[:2]
    crowd = [Detection("person", 0.9, (k * w // 8, h // 2, k * w // 8 + w // 10, h // 2 + h // 5)) for k in range(4)]
    speck = [Detection("person", 0.9, (10, 10, 10 + w // 20, 10 + h // 20))]
    monkeypatch.setattr(naming, "called_otherwise", lambda pixels, box, label, min_score=0.3: None)
    for found in (crowd, speck):
        monkeypatch.setattr(things, "detect", lambda rgb, min_score=0.3, found=found: found)
        c = critique(coffee)
        assert not any(p.format().startswith("crop") for p in c.plan)
        assert any("a scene of 4 people or more" in f for f in c.fine) == (found is crowd)
    monkeypatch.setattr(things, "detect", lambda rgb, min_score=0.3: crowd[:1])
    assert "crop person" in [p.format() for p in critique(coffee).plan]


def _replay_caise(history: list[str], original: np.ndarray) -> np.ndarray:
    """The picture a CAISE history replays to: each edit line on the image on screen, each undo back one."""
    from agent.grammar.commands import parse_command

    images = [original]
    for line in history:
        if line.split(":", 1)[0] in {"user_text", "assistant_text", "image_load"}:
            continue
        command = parse_command(line)
        if command.name == "undo":
            images = images[:-1] or images
        elif command.edits_image:
            images.append(execute(command, images[-1]))
    return images[-1]


def test_a_revised_conversation_replays_from_its_caise_history_to_the_same_pixels(manager):
    doc = manager.document
    original = doc.pixels(doc.root.id)
    steps = ["increase the contrast by 40", "that's way too much contrast", "brighten it by 10", "a bit less",
             "and the saturation too", "undo", "undo", "make it warmer", "the other way"]
    for words in steps:
        assert manager.handle(words).ok, words
        assert np.array_equal(_replay_caise(manager.history, original), doc.pixels()), words


@pytest.mark.parametrize("said", ["thanks!", "hello", "no", "it is not too dark", "looks great"])
def test_small_talk_is_answered_without_a_failure(manager, said):
    head = manager.document.head.id
    result = manager.handle(said)
    assert result.ok and result.commands == [] and manager.document.head.id == head, result.reply


def test_a_request_not_understood_is_still_a_failure(manager):
    assert not manager.handle("florp the wibble").ok


def test_questions_find_things_by_the_captions_names_and_places(monkeypatch):
    """"how many camels are there?" said "I don't see any camels" though describe said "a camel on
    the right" (the detector calls it a sheep); "what colour is the camel on the right?" said "I
    don't see a right"."""
    from agent.describe import questions
    from agent.language.questions import read_question
    from agent.perception import naming, things
    from agent.perception.models import Detection

    img = np.full((360, 640, 3), 170, np.uint8)
    img[60:300, 400:600] = (200, 170, 120)
    camel = Detection("sheep", 0.9, (400, 60, 600, 300))
    monkeypatch.setattr(things, "detect", lambda rgb, min_score=0.3: [camel])
    monkeypatch.setattr(naming, "name_objects",
                        lambda rgb, ds, context=(): [naming.Named("camel", "beige camel", "beige", "classifier", 0.8, "camel")
                                                     for _ in ds])
    monkeypatch.setattr(naming, "object_colour", lambda rgb, box, label="": "beige")
    ask = lambda words: questions.answer_question(img, read_question(words))[0]  # noqa: E731
    assert ask("how many camels are there?") == "I count 1 camel."
    assert ask("how many animals are there?") == "I count 1 animal."
    assert ask("what colour is the camel on the right?") == "The camel on the right is beige."
    said = ask("is the camel on the left brown?")
    assert said.startswith("I don't see a camel on the left; I see one on the right.") and "beige" in said, said


def test_it_after_a_question_about_a_thing_is_that_thing(monkeypatch, manager):
    """"where is the horse?" then "make it brighter" brightened the whole photo; "it" is the horse
    the answer just boxed, for the next request only; "yes do it" and "undo it" are not about it."""
    from agent.describe import questions
    from agent.perception import things
    from agent.perception.models import Detection

    horse = Detection("horse", 0.9, (4, 4, 30, 28))
    monkeypatch.setattr(things, "detect", lambda rgb, min_score=0.3: [horse])
    questions.register(manager)
    manager.handle("where is the horse?")
    assert manager.context.topic == "the horse"
    assert manager.read("make it brighter")[0][0].format() == "adjust_attr brightness 20 in the horse"
    assert manager.read("undo it")[0][0].format() == "undo"
    manager.handle("is it too dark?")  # a question about the photo: no thing, no "it" after it
    assert manager.context.topic is None
    assert manager.read("make it brighter")[0][0].format() == "adjust_attr brightness 20"


def test_it_after_a_caption_is_the_thing_it_led_with(monkeypatch, manager):
    """"what is in this picture?" ("a giraffe in the middle. On the right there is another
    giraffe"), then "what colour is it?" was refused ("“it” is not one of them") and "make it
    brighter" brightened everything. "it" is the thing the caption led with, placed when it names
    two; it stays that thing after an edit about it; with no thing talked about, "it" is asked."""
    from agent.describe import caption, questions
    from agent.describe.words import Segment
    from agent.language.questions import read_question
    from agent.perception import naming, things
    from agent.perception.models import Detection

    h, w = manager.document.pixels().shape[:2]
    mid, right = (w // 3, 2, 2 * w // 3 - 2, h - 2), (2 * w // 3 + 2, 2, w - 1, h - 2)
    monkeypatch.setattr(things, "detect", lambda rgb, min_score=0.3: [Detection("giraffe", 0.8, mid),
                                                                       Detection("giraffe", 0.95, right)])
    monkeypatch.setattr(naming, "object_colour", lambda rgb, box, label="": "brown")

    class Said:
        text = "In this picture I can see a giraffe in the middle. On the right there is another giraffe."
        segments = [Segment("a giraffe in the middle", mid, 0, 0, "#ff0000", "giraffe"),
                    Segment("another giraffe", right, 0, 0, "#00ff00", "giraffe")]

        def pieces(self):
            return []

        def as_json(self):
            return {}

    monkeypatch.setattr(caption, "describe_image", lambda pixels: Said())
    caption.register(manager)
    questions.register(manager)
    assert manager.handle("what is in this picture?").ok
    assert manager.context.topic == "the giraffe in the middle"
    assert manager.handle("what colour is it?").reply == "The giraffe in the middle is brown."
    assert manager.read("make it brighter")[0][0].format() == "adjust_attr brightness 20 in the giraffe in the middle"
    no_topic = questions.answer_question(manager.document.pixels(), read_question("what colour is it?"))[0]
    assert no_topic.startswith("Which thing do you mean by “it”?"), no_topic


def test_it_after_a_caption_keeps_the_captions_word():
    """gcompris' panda: "a panda in the middle", then "make it a little brighter" said "Brightened the
    bear" (the detector's label; WordNet's panda is no bear); the moose, "a black animal", was "the
    cow". "it" is the caption's word; a word of the label ("a hot dog") is not its own noun."""
    from agent.describe.caption import first_thing
    from agent.describe.words import Segment

    def lead(words, label):
        return first_thing([Segment(words, (10, 10, 50, 50), 0, 0, "#ff0000", label)], (100, 100, 3))

    assert lead("a panda in the middle", "bear") == "the panda"
    assert lead("a black animal in the middle", "cow") == "the animal"
    assert lead("a brown chicken in the middle", "bird") == "the chicken"
    assert lead("a hot dog in the middle", "hot dog") == "the hot dog"


def test_what_is_in_a_part_of_the_picture_is_answered(monkeypatch):
    """"what is on the left?" was refused; it says the part as describe names a region, then the
    things found there, boxed."""
    from agent.describe import questions
    from agent.language.questions import read_question
    from agent.language.reader import read
    from agent.perception import naming, things
    from agent.perception.models import Detection

    img = np.zeros((300, 400, 3), np.uint8)
    yy = np.linspace(0, 1, 200)[:, None]
    img[:200] = np.stack([90 + 60 * yy, 150 + 50 * yy, 235 + 0 * yy], axis=2).astype(np.uint8)
    img[200:] = np.clip(np.array([60, 140, 50]) + np.random.default_rng(0).normal(0, 12, (100, 400, 3)), 0, 255)
    dog = Detection("dog", 0.9, (20, 220, 90, 290))
    monkeypatch.setattr(things, "detect", lambda rgb, min_score=0.3: [dog])
    monkeypatch.setattr(naming, "name_objects",
                        lambda rgb, ds, context=(): [naming.Named("dog", "brown dog", "brown", "both", 0.9, "") for _ in ds])
    assert [c.format() for c in read("what is on the left?", photo_open=True).commands] == ["describe"]
    assert questions.answer_question(img, read_question("what is at the top?"))[0] == "At the top I can see the sky."
    text, data, _ = questions.answer_question(img, read_question("what's at the bottom left?"))
    assert text.startswith("At the bottom left I can see the grass. There is also a brown dog"), text
    assert data["overlays"][0]["box"] == [20, 220, 90, 290]


def test_after_removing_one_of_two_the_other_is_offered_when_something_was_missed():
    """A cheetah lying down was its head and shoulders to the detector and its body "another
    cheetah": after "you missed a bit", the other one is offered ("yes" removes it), not removed."""
    said = ("Removed the cheetah and filled in the background. I see 2 of them and removed the cheetah on the "
            "right (the boxes are on the picture); say which if you meant another.")
    out = read_follow_up("you missed a bit", dataclasses.replace(Recent.of("remove the cheetah"), said=said))
    assert out.commands == [] and out.reply.endswith("?") and "on the left" in out.reply
    assert [c.format() for c in out.proposal] == ["remove the cheetah on the left"]
    alone = read_follow_up("you missed a bit", Recent.of("remove the cheetah"))
    assert alone.proposal == [] and "remove this" in alone.reply


def test_him_and_her_are_the_person_talked_about(manager):
    """"what is the person on the left wearing?" was refused, and "make him brighter" after it
    brightened the one in the middle: "him", and "her" where it is not "her dress", are the topic."""
    from agent.language.questions import Question, read_question

    assert read_question("what is the person on the left wearing?") == Question("colour", "person on the left")
    manager.context.topic = "the person on the left"
    assert manager.read("make him brighter")[0][0].format() == "adjust_attr brightness 20 in the person on the left"
    manager.context.topic = "the person on the left"
    assert manager.read("make her a bit darker")[0][0].format().endswith("in the person on the left")
    manager.context.topic = "the person on the left"
    assert "person on the left dress" not in " ".join(c.format() for c in manager.read("make her dress red")[0])


def test_a_revision_in_a_part_says_which_one_and_what_it_could_not_find(monkeypatch, manager):
    """"no, only the giraffe" with two giraffes changed one without saying which (a fresh edit says
    it), and a part not found was "I could not do that: ...", not how to point at it."""
    from agent.perception.models import Detection

    h, w = manager.document.pixels().shape[:2]
    fake_detector(monkeypatch, [Detection("giraffe", 0.9, (2, 2, w // 3, h - 2)),
                                Detection("giraffe", 0.95, (2 * w // 3, 2, w - 1, h - 2))])
    manager.handle("make it brighter")
    said = manager.handle("no, only the giraffe")
    assert said.ok and said.reply.startswith("Brightened the giraffe by 20 points, instead of the whole picture."), said.reply
    assert "I see 2 giraffes" in said.reply and said.data.get("overlays")
    head = manager.document.head.id
    missing = manager.handle("just the cat")
    assert not missing.ok and "so I changed nothing" in missing.reply and manager.document.head.id == head


def test_a_count_looks_closer_for_the_small_ones(monkeypatch):
    """"how many people are there?" at the Palais des Papes said 5 of about 20: the detector sees
    the photo at 300 x 300, where the people across the square are a few pixels. A count looks on
    overlapping tiles too (as "remove the people" does)."""
    from agent.describe import questions
    from agent.language.questions import read_question
    from tests.conftest import dark_figure_detector

    dark_figure_detector(monkeypatch)
    img = np.clip(np.random.default_rng(1).normal(150, 5, (400, 600, 3)), 0, 255).astype(np.uint8)
    img[300:360, 100:120] = 20  # seen on the whole picture
    img[330:354, 450:460] = 20  # 6% of its height: seen only on a tile
    assert questions.answer_question(img, read_question("how many people are there?"))[0] == "I count 2 people."
    assert questions.answer_question(img, read_question("where is the person?"))[0].startswith("The person is")


@pytest.mark.parametrize("said", ["you missed one", "there's still a kid on the left", "there are still people",
                                  "one is still there", "you left someone behind", "i can still see a man"])
def test_a_whole_one_missed_after_a_removal_is_asked_to_be_pointed_at(said):
    """"remove the people", then "you missed one": "Sorry, I don't know how to do that". The
    detector did not see that one, so where it is is asked, not guessed."""
    out = read_follow_up(said, Recent.of("remove the people"))
    assert out is not None and out.commands == [] and "remove this" in out.reply and "could find" in out.reply
    assert read_follow_up(said, Recent.of("adjust_attr brightness 20")) is None or \
        "could find" not in (read_follow_up(said, Recent.of("adjust_attr brightness 20")).reply or "")


def test_the_people_in_the_background_are_the_far_ones_and_the_rest_are_said(monkeypatch):
    """With each small person found, "remove the people in the background" removed all 14 people on
    a palace square: the words' "in the background" was read, then every one found removed."""
    from agent.edits import objects, removal
    from agent.perception.models import Detection
    from tests.conftest import fake_detector

    img = np.full((300, 400, 3), 150, np.uint8)
    near, far = (20, 100, 60, 280), [(200, 150, 215, 190), (300, 150, 315, 192)]
    fake_detector(monkeypatch, [Detection("person", 0.9, near)] + [Detection("person", 0.8, b) for b in far])
    monkeypatch.setattr(removal, "detect", lambda rgb, min_score=0.3: [])
    [m] = objects.match_objects(img, "the people in the background")
    assert sorted(m.boxes) == far and m.others == [near]
    _, overlays, note = removal.remove(img, "the people in the background")
    assert "removed 2 people and left 1 other" in note, note
    assert [o["box"] for o in overlays if o["label"].startswith("other")] == [list(near)]
    with pytest.raises(objects.ObjectNotFound, match="which people are in the background"):
        fake_detector(monkeypatch, [Detection("person", 0.8, b) for b in far])
        objects.match_objects(img, "the people in the background")


def test_the_left_one_and_the_other_one_are_things_talked_about(monkeypatch, manager):
    """"how many giraffes are there?" ("I count 2 giraffes"), then "make the left one brighter"
    brightened the whole picture and "now the other one" was refused. "the left one" is the giraffe
    on the left; "the other one", of two counted, the one on the other side; "the right one" after an
    edit of the giraffe on the left is the giraffe on the right. With no thing talked about, "the left
    one" is asked, not made of the whole picture."""
    from agent.describe import questions
    from agent.perception import things
    from agent.perception.models import Detection

    h, w = manager.document.pixels().shape[:2]
    left, right = Detection("giraffe", 0.9, (2, 2, w // 3, h - 2)), Detection("giraffe", 0.9, (2 * w // 3, 2, w - 2, h - 2))
    monkeypatch.setattr(things, "detect", lambda rgb, min_score=0.3: [left, right])
    questions.register(manager)
    assert not manager.read("make the left one brighter")[0]  # nothing talked about yet: asked
    assert manager.read("make the left one brighter")[1].startswith("Which one do you mean?")
    assert manager.read("make the one in the middle brighter")[1].startswith("Which one")  # (not the centre)
    assert manager.read("and the other one darker")[1].startswith("Which one")  # (not the whole picture)
    manager.document.apply("adjust_attr sharpness 40 in the giraffe on the left", manager.document.pixels())
    assert [c.format() for c in manager.read("blur everything else")[0]] == [  # (it blurred the giraffe too)
        "background blur behind the giraffe on the left"]
    assert [c.format() for c in manager.read("make everyone else black and white")[0]] == [  # (all of it)
        "grayscale in everything except the giraffe on the left"]
    assert manager.handle("how many giraffes are there?").reply.startswith("I count 2 giraffes")
    assert manager.context.topic == "the giraffes" and manager.context.topic_count == 2
    first = manager.read("make the left one brighter")[0]
    assert [c.format() for c in first] == ["adjust_attr brightness 20 in the giraffe on the left"]
    manager.document.apply(first[0].format(), manager.document.pixels())  # (its pixels do not matter here)
    assert [c.format() for c in manager.read("now the other one")[0]] == ["adjust_attr brightness 20 in the giraffe on the right"]
    manager.context.topic = None  # the last edit's thing is enough for a place
    assert [c.format() for c in manager.read("make the right one darker")[0]] == [
        "adjust_attr brightness -20 in the giraffe on the right"]
    assert [c.format() for c in manager.read("the one on the right")[0]] == ["adjust_attr brightness 20 in the giraffe on the right"]
    assert not manager.read("rotate the left one")[0]  # no part of a picture is rotated: asked, not the whole
    manager.context.topic, manager.context.topic_count = "the giraffes", 2
    assert [c.format() for c in manager.read("make the small one brighter")[0]] == [
        "adjust_attr brightness 20 in the small giraffe"]  # (its size says which, not how much)
    assert [c.format() for c in manager.read("make the taller one brighter")[0]] == [
        "adjust_attr brightness 20 in the taller giraffe"]  # it brightened the whole picture
    manager.context.topic, manager.context.topic_count = "the giraffe in the middle", None
    assert not manager.read("make the big one brighter")[0]  # one described: big among what? asked


def test_a_size_or_grey_before_a_thing_says_which_not_how_much():
    """"make the small giraffe brighter" brightened it by 10 ("small": a small amount); "make the
    little dog brighter" could not find "the dog" ("little" ended the thing's words)."""
    from agent.language.reader import read

    said = {u: [c.format() for c in read(u, photo_open=True).commands] for u in (
        "make the small giraffe brighter", "make the little dog brighter", "make the big dog a little brighter")}
    assert said == {"make the small giraffe brighter": ["adjust_attr brightness 20 in the small giraffe"],
                    "make the little dog brighter": ["adjust_attr brightness 20 in the little dog"],
                    "make the big dog a little brighter": ["adjust_attr brightness 10 in the big dog"]}


def test_which_one_is_the_biggest_is_answered_and_it_is_then_that_one(monkeypatch, manager):
    """"how many horses are there?", "which one is the biggest?" was refused ("I can't answer that":
    a sentence starting "which" was taken for a statement). It is the one whose box is largest
    (tallest: highest), boxed, and "make it brighter" then brightens that one."""
    from agent.describe import questions
    from agent.language.questions import Question, read_question
    from agent.perception import things
    from agent.perception.models import Detection

    assert read_question("which one is the biggest?") == Question("size", "one", "biggest")
    assert read_question("which horse is taller?") == Question("size", "horse", "tallest")
    h, w = manager.document.pixels().shape[:2]
    wide = Detection("horse", 0.9, (2, h // 2, w // 2, h - 2))  # the largest box
    tall = Detection("horse", 0.8, (w // 2 + 2, 2, w // 2 + 12, h - 2))  # the highest
    monkeypatch.setattr(things, "detect", lambda rgb, min_score=0.3: [wide, tall])
    questions.register(manager)
    assert manager.handle("how many horses are there?").reply.startswith("I count 2 horses")
    r = manager.handle("which one is the biggest?")
    assert r.ok and r.reply.startswith("The horse") and "biggest of the 2" in r.reply, r.reply
    assert r.data["overlays"][0]["box"] == list(wide.box)
    assert [c.format() for c in manager.read("make it brighter")[0]] == ["adjust_attr brightness 20 in the biggest horse"]
    r = manager.handle("which horse is the tallest?")
    assert r.data["overlays"][0]["box"] == list(tall.box), r.reply


def test_not_that_one_undoes_the_wrong_thing_and_asks_which(manager):
    """"remove the horse in the middle", "not that one": refused, the horse left removed. It is
    undone and which one is asked."""
    root = manager.document.head.id
    manager.document.apply("remove the horse in the middle", manager.document.pixels())
    r = manager.handle("not that one")
    assert r.ok and manager.document.head.id == root
    assert "Which horse did you mean?" in r.reply and "remove the horse on the left" in r.reply, r.reply


def test_the_mother_after_an_edit_of_the_joey_is_the_biggest_kangaroo(manager):
    """gcompris' kangaroo and joey: "make the joey brighter", "and the mother warmer" said "I can't find
    the mother on my own". The parent of the young edited last is the biggest of its kind."""
    manager.document.apply("adjust_attr brightness 20 in the joey", manager.document.pixels())
    reading = manager.read("and the mother warmer")[0]
    assert [c.format() for c in reading] == ["adjust_attr warmth 25 in the biggest kangaroo"]
    manager.document.apply("adjust_attr brightness 20 in the kid", manager.document.pixels())
    assert not [c.format() for c in manager.read("and the mother warmer")[0] if "person" in c.format()]


def test_a_question_about_him_after_an_edit_of_a_person_is_about_that_person(manager):
    """gcompris' Irish musicians: "make the person on the left brighter", "what is he holding?" answered
    about the person on the right (the saxophone): a question's "he" is the one edited, as an edit's is."""
    manager.document.apply("adjust_attr brightness 20 in the person on the left", manager.document.pixels())
    [asked] = manager.read("what is he holding?")[0]
    assert "the person on the left" in asked.question
    assert [c.format() for c in manager.read("crop it")[0]] != ["crop the person on the left"]  # the picture
