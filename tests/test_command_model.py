"""The command model: words and grammar, a tiny model that learns, the shipped model on natural
requests written for this test (not from CAISE), offline loading, and the CLI."""

from __future__ import annotations

import json

import pytest
import torch

from agent.command_model import (
    EOS,
    CommandModel,
    CommandModelConfig,
    allowed,
    command_to_tokens,
    concept_words,
    decode_batch,
    featurize,
    history_words,
    make_targets,
    tokens_to_command,
    words_of,
)
from agent.grammar.commands import parse_command
from training.commands_data import caise_match

# -- words, numbers, grammar -------------------------------------------------------------------


def test_spelled_numbers_become_digits():
    assert words_of("Rotate it forty five degrees") == ["rotate", "it", "45", "degrees"]
    assert words_of("by ninety-five") == ["by", "95"]
    assert words_of("a hundred percent") == ["100", "percent"]
    assert words_of("one more time") == ["one", "more", "time"]
    assert words_of("decrease it by 30%") == ["decrease", "it", "by", "30", "%"]


@pytest.mark.parametrize("command, request_words, tokens", [
    ("rotate 270", ["clockwise", "90"], ["rotate", "<right>", "90"]),
    ("rotate 230", ["rotate", "230"], ["rotate", "<left>", "230"]),
    ("rotate 230", ["right", "130"], ["rotate", "<right>", "130"]),
    ("adjust_attr brightness -30", [], ["adjust_attr", "brightness", "<minus>", "30"]),
    ("adjust_attr contrast +10", [], ["adjust_attr", "contrast", "<plus>", "10"]),
    ("adjust_color blue .25", [], ["adjust_color", "blue", "0.25"]),
    ("search white t-shirt", [], ["search", "white", "t", "-", "shirt"]),
    ("crop 1 2 30 40", [], ["crop", "1", "2", "30", "40"]),
    ("flip vertical", [], ["flip", "vertical"]),
    ("explain original", [], ["explain", "original"]),
    ("undo", [], ["undo"]),
])
def test_commands_round_trip_through_decoder_words(command, request_words, tokens):
    assert command_to_tokens(command, request_words) == tokens
    assert parse_command(tokens_to_command(tokens)) == parse_command(command)


def test_grammar_only_allows_valid_continuations():
    assert allowed([], "rotate") and not allowed([], "umbrella")
    assert allowed(["rotate"], "<right>") and not allowed(["rotate"], "90")
    assert allowed(["rotate", "<left>"], "360") and not allowed(["rotate", "<left>"], "361")
    assert not allowed(["adjust_attr", "brightness", "<plus>"], "150")
    assert not allowed(["adjust_color", "red"], "2")
    assert not allowed(["search"], EOS) and allowed(["search", "cat"], EOS)
    assert allowed(["crop", "1", "2", "3"], "4") and not allowed(["crop", "1", "2", "3", "4"], "5")


@pytest.mark.parametrize("text, kind, expected", [
    ("rotate the image clockwise 90", "rotate", "<right>"),
    ("rotate it by 10 anti-clockwise", "rotate", "<left>"),
    ("turn it 45 degrees anti clock wise", "rotate", "<left>"),
    ("rotate it in clock wise direction by 110", "rotate", "<right>"),
    ("tilt it 20 to the left", "rotate", "<left>"),
    ("rotate it by 30 more", "rotate", None),
    ("adjust the brightness by -40", "adjust_attr", "<minus>"),
    ("increase the darkness by 40", "adjust_attr", "<minus>"),
    ("please decrease it by 50", "adjust_attr", "<minus>"),
    ("boost the contrast by 20", "adjust_attr", "<plus>"),
    ("change the brightness by 30", "adjust_attr", None),
])
def test_direction_rules(text, kind, expected):
    from agent.command_model import request_direction

    assert request_direction(words_of(text), kind) == expected


def test_direction_rules_override_only_the_direction():
    from agent.command_model import apply_direction_rules

    req = words_of("rotate the image clockwise 90")
    assert apply_direction_rules(["rotate", "<left>", "90"], req) == ["rotate", "<right>", "90"]
    assert apply_direction_rules(["search", "clockwise"], req) == ["search", "clockwise"]
    req = words_of("do it again by 30")
    assert apply_direction_rules(["adjust_attr", "contrast", "<minus>", "30"], req)[2] == "<minus>"



@pytest.mark.parametrize("request_text, concepts, tokens, expected", [
    # colour reference read from the concepts, whatever colour the model guessed
    ("find a towel whose colour matches the girl's jacket", ["white wall", "yellow jacket", "blue jeans"],
     ["search", "blue", "towel"], ["search", "yellow", "towel"]),
    ("i need a mat which color is same as girls jacket color", ["red jacket", "brown hair"],
     ["search", "mat"], ["search", "red", "mat"]),
    ("get me a belt same as the color of the t shirt worn by the girl", ["pink shirts", "white tops", "white shirt"],
     ["search", "belt"], ["search", "white", "belt"]),  # plural and top/shirt; the most frequent colour
    ("change the colour of the image to the colour of the sky", ["blue sky", "green field"],
     ["adjust_color", "red", "0.2"], ["adjust_color", "blue", "0.2"]),
    # the thing decides before its owner: the jacket, not the girl; the shirt, not the lady
    ("find an image of towel which color matches with the color of girls jacket", ["pink girl", "yellow jacket"],
     ["search", "pink", "towel"], ["search", "yellow", "towel"]),
    ("get me an image of cap which color matches with the color of ladys t shirt", ["white woman", "red shirt"],
     ["search", "white", "cap"], ["search", "red", "cap"]),
    ("find a board which matches the color of the handle of the kettle", ["white kettle", "black handle"],
     ["search", "board"], ["search", "black", "board"]),
    # the model's colour is kept when a concept of the referent has it
    ("find a cup which matches the colour of the leaves", ["green leaf", "brown leaf", "brown leaf"],
     ["search", "green", "cup"], ["search", "green", "cup"]),
    # no concept names the referent, or the colour is stated in words: unchanged
    ("find a cup which matches the colour of the sofa", ["green leaf"], ["search", "cup"], ["search", "cup"]),
    ("change the color of the image to light pink", ["yellow light"],
     ["adjust_color", "pink", "0.2"], ["adjust_color", "pink", "0.2"]),
    # a dropped word of the requested phrase comes back
    ("looking for an image of western toilet", [], ["search", "toilet"], ["search", "western", "toilet"]),
    ("get an image of a hand wash sink which is clean", [], ["search", "hand", "sink"],
     ["search", "hand", "wash", "sink"]),
    ("i am looking for a trolley bag for my trip", [], ["search", "trolley"], ["search", "trolley", "bag"]),
    # the model's colour aside, a dropped word comes back; in a colour reference the phrase replaces
    # the referent the model mixed in; a wooden table is brown, gray is written grey
    ("find me an image of hand towel similar to the color of the dress", ["blue dress"],
     ["search", "blue", "towel"], ["search", "blue", "hand", "towel"]),
    ("an image of study table inline with the color of table on which tombola is kept", ["wooden table"],
     ["search", "red", "tombola"], ["search", "brown", "study", "table"]),
    ("an image of a water can which color matches the color of grapes", ["green grapes"],
     ["search", "green", "water"], ["search", "green", "water", "can"]),
    ("find an image of a pair of shoes same as the color of the board", ["gray board"],
     ["search", "red", "pair"], ["search", "grey", "shoes"]),
    # evaluative words go; a phrase naming no thing is not a query
    ("can you find me an image of nice choker", [], ["search", "nice", "choker"], ["search", "choker"]),
    ("an image of the object which matches the color of the sofa", ["red sofa"],
     ["search", "blue", "lamp"], ["search", "red", "lamp"]),
    # not a subsequence, or the phrase is the picture word itself: unchanged
    ("show me an image of a court scene", [], ["search", "judge"], ["search", "judge"]),
    ("i was looking for an image piano", [], ["search", "piano"], ["search", "piano"]),
    # sky blue is skyblue; light blue stays blue
    ("make it sky blue", [], ["adjust_color", "blue", "0.2"], ["adjust_color", "skyblue", "0.2"]),
    ("make it light blue", [], ["adjust_color", "blue", "0.2"], ["adjust_color", "blue", "0.2"]),
    # other commands are untouched
    ("rotate it to match the colour of the sky", ["blue sky"], ["rotate", "<left>", "90"], ["rotate", "<left>", "90"]),
])
def test_concept_rules(request_text, concepts, tokens, expected):
    from agent.command_model import concept_rules

    assert concept_rules(tokens, words_of(request_text), concepts) == expected


def test_concept_rules_apply_through_the_decoder_and_not_without_rules():
    from agent.command_model import Decoded

    req = words_of("user: find a towel whose colour matches the girl's jacket")
    d = Decoded(["search", "towel"], [-0.1, -0.2, -0.1], req, [], ["yellow jacket"])
    assert d.text == "search yellow towel"
    assert Decoded(["search", "towel"], [-0.1, -0.2, -0.1]).text == "search towel"  # rules off


def test_history_marks_the_request_and_renders_earlier_commands():
    hw = history_words(["assistant_text: Hi", "user_text: rotate it 30 to the right", "rotate 330",
                        "assistant_text: Rotated.", "user_text: a bit more", "assistant_text: Sure"])
    words = [w for w, _ in hw]
    assert words[-5:] == ["user", ":", "a", "bit", "more"]
    assert "right" in words and "30" in words  # 'rotate 330' is shown as 'rotate right 30'
    assert [t for w, t in hw if w == "more"] == [0]
    assert "sure" not in words  # the acknowledgement after the request is dropped


def test_mpnet_encoder_split_matches_its_own_forward(one_thread):
    """The MPNet option (an experiment) runs its layers in two parts, the lower part cacheable; with
    its relative position bias and padding they must give what the whole model gives."""
    from agent.command_model import collate, get_tokenizer

    torch.manual_seed(0)
    cfg = CommandModelConfig(vocab=["<pad>", "<unk>", "<eos>"], encoder="mpnet", lora_layers=1, lora_r=4,
                             encoder_config={"hidden_size": 32, "num_hidden_layers": 3, "num_attention_heads": 2,
                                             "intermediate_size": 64})
    model = CommandModel(cfg).eval()
    feats = [featurize(["user_text: find me a red umbrella on a rainy street"], ["red umbrella", "wet road"], cfg,
                       get_tokenizer()), featurize(["user_text: rotate it"], [], cfg, get_tokenizer())]
    b = collate(feats)
    with torch.inference_mode():
        split = model.encode_top(model.encode_bottom(b["input_ids"], b["token_type_ids"], b["attention_mask"]),
                                 b["attention_mask"])
        whole = model.bert(input_ids=b["input_ids"], attention_mask=b["attention_mask"]).last_hidden_state
    keep = b["attention_mask"].bool()
    assert torch.allclose(split[keep], whole[keep], atol=1e-5)
    assert model.words(b)[0].shape[:2] == b["word_turn"].shape


def test_concepts_as_words_or_as_phrases_most_frequent_first():
    concepts = ["green apple", "red apple", "white table", "red apple", "Red apple", "white table"]
    assert concept_words(concepts) == ["green", "apple", "red", "white", "table"]
    assert concept_words(concepts, "phrases") == ["red", "apple", ",", "white", "table", ",", "green", "apple", ","]
    cfg = CommandModelConfig(concept_form="phrases", max_concept_pieces=48)
    f = featurize(["user_text: find a hat the colour of the apple"], concepts, cfg)
    concept_part = [w for w, c in zip(f.words, f.seg_con) if c]
    assert concept_part[:3] == ["red", "apple", ","]


def test_caise_rule():
    assert caise_match("search Red  Umbrella ", "search umbrella red")
    assert caise_match("adjust_color blue 0.5", "adjust_color blue .2")
    assert not caise_match("adjust_color red 0.2", "adjust_color blue 0.2")
    assert not caise_match("rotate 90", "rotate 270")
    assert not caise_match(None, "undo")


def test_search_breakdown_says_where_the_gold_words_could_come_from():
    from training.commands_data import Example, search_breakdown

    def ex(request, api, concepts=()):
        return Example(["assistant_text: Hi", "user_text: show me boats", "search boats",
                        f"user_text: {request}"], list(concepts), api)

    examples = [ex("find a red kite", "search red kite"),  # request
                ex("the same again", "search boats"),  # earlier in the dialogue
                ex("a cup the colour of the jacket", "search yellow cup", ["yellow jacket"]),  # concepts
                ex("what is the man holding", "search guitar"),  # nowhere: only a guess can get it
                ex("a cup the colour of the jacket", "search yellow cup", ["yellow jacket"])]
    preds = ["search kite red", "search boats", "search yellow cup", "search hat", "search blue cup"]
    counts = search_breakdown(examples + [Example(["user_text: undo"], [], "undo")], preds + ["undo"])
    assert counts == {("right", "request"): 1, ("right", "dialogue"): 1, ("right", "concepts"): 1,
                      ("wrong", "elsewhere"): 1, ("wrong", "concepts"): 1, ("wrong", "colour only"): 1}


# -- a tiny model learns a few dialogues --------------------------------------------------------

TINY_DIALOGUES = [
    (["user_text: please make it darker by 30"], "adjust_attr brightness -30"),
    (["user_text: rotate it 90 degrees clockwise"], "rotate 270"),
    (["user_text: find me a photo of a kids umbrella"], "search kids umbrella"),
    (["user_text: mirror the picture"], "flip horizontal"),
    (["user_text: increase the contrast by 15", "adjust_attr contrast 15", "assistant_text: Adjusted.",
      "user_text: decrease it by 40"], "adjust_attr contrast -40"),
    (["user_text: what changed?"], "explain"),
    (["user_text: I want it more like the sky"], "adjust_color skyblue 0.2"),
]


@pytest.fixture
def one_thread():
    """Two cores shared by many processes: more threads only spin and make small models crawl."""
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


@pytest.mark.slow
def test_tiny_model_learns_synthetic_dialogues(one_thread):
    torch.manual_seed(0)
    vocab = ["<pad>", "<unk>", "<eos>", "<left>", "<right>", "<plus>", "<minus>", "<none>", "search", "rotate",
             "adjust_color", "adjust_attr", "image_cutout", "crop", "undo", "redo", "flip", "explain", "describe",
             "brightness", "contrast", "horizontal", "vertical", "skyblue", "0.2", "90"]
    cfg = CommandModelConfig(vocab=vocab, encoder="random", lora_layers=1, lora_r=4, hidden=64, emb=32, dropout=0.0,
                             encoder_config={"hidden_size": 32, "num_hidden_layers": 2, "num_attention_heads": 2,
                                             "intermediate_size": 64, "max_position_embeddings": 160})
    model = CommandModel(cfg)
    for name, p in model.encoder.named_parameters():
        p.requires_grad = "lora_" in name
    feats = [featurize(["assistant_text: How can I help you?", *h], ["blue sky", "white cloud"], cfg)
             for h, _ in TINY_DIALOGUES]
    tokens = [command_to_tokens(c, f.request) for f, (_, c) in zip(feats, TINY_DIALOGUES)]
    from agent.command_model import collate

    batch = collate(feats)
    targets = make_targets(feats, tokens, cfg, model.word_index)
    opt = torch.optim.Adam([p for p in model.parameters() if p.requires_grad], lr=1e-2)
    model.train()
    first = None
    for _ in range(120):
        _, loss = model(batch, targets)
        first = first if first is not None else loss.item()
        opt.zero_grad()
        loss.backward()
        opt.step()
        if loss.item() < 0.01:
            break
    assert loss.item() < 0.1 < first
    decoded = decode_batch(model, feats)
    assert [d[0].text for d in decoded] == [c for _, c in TINY_DIALOGUES]
    # '30', 'umbrella', 'kids' and '40' are not in the vocabulary: they were copied
    assert all(w not in vocab for w in ("30", "40", "kids", "umbrella"))

    # an ensemble decodes the mean of its members' distributions: of two identical members, the
    # member's own words and probabilities; of a trained and an untrained member, something else
    import copy

    from agent.command_model import CommandEnsemble

    twin = CommandEnsemble([model, copy.deepcopy(model)])
    twin_decoded = decode_batch(twin, feats)
    assert [d[0].text for d in twin_decoded] == [c for _, c in TINY_DIALOGUES]
    assert twin_decoded[0][0].logp == pytest.approx(decoded[0][0].logp, abs=1e-5)
    torch.manual_seed(1)
    mixed = CommandEnsemble([model, CommandModel(cfg)])
    assert mixed.members[1].encoder.base_model.model.embeddings.word_embeddings.weight is \
        model.encoder.base_model.model.embeddings.word_embeddings.weight  # one copy of the frozen weights
    assert decode_batch(mixed, feats)[0][0].logp != pytest.approx(decoded[0][0].logp, abs=1e-3)


# -- the shipped model on natural requests written for this test (not from CAISE) ---------------

GREETING = "assistant_text: How can I help you?"
SEARCHED = [("user_text: show me a sailing boat", "search sailing boat", "assistant_text: Here is what I found.")]
ROTATED = [("user_text: rotate it 20 degrees to the right", "rotate 340", "assistant_text: Rotated.")]
BRIGHTER = [("user_text: increase the brightness by 20", "adjust_attr brightness 20", "assistant_text: Adjusted.")]
CONTRAST = [("user_text: boost the contrast by 20", "adjust_attr contrast 20", "assistant_text: Adjusted.")]
UNDONE = ROTATED + [("user_text: undo", "undo", "assistant_text: Undid it; now showing the original.")]
# A session of several edits whose numbers a crop or a redo must not be confused with
SESSION = SEARCHED + BRIGHTER + ROTATED
SESSION_UNDONE = SESSION + [("user_text: undo", "undo", "assistant_text: Undid it.")]

# (earlier turns, request, expected command); compared with CAISE's rule (colour: the colour counts)
NATURAL = [
    ([], "show me pictures of a red bicycle", "search red bicycle"),
    ([], "look up vintage typewriters", "search vintage typewriters"),
    ([], "get me a picture of an old lighthouse", "search old lighthouse"),
    (ROTATED, "now search for green apples", "search green apples"),
    ([], "do you have any photos of hot air balloons?", "search hot air balloons"),
    ([], "show me a wooden rowing boat", "search wooden rowing boat"),
    ([], "find pictures of emperor penguins", "search emperor penguins"),
    (SEARCHED, "i'd like to see a picture of a red fox", "search red fox"),
    ([], "rotate it 90 degrees clockwise", "rotate 270"),
    ([], "turn the photo 45 degrees to the left", "rotate 45"),
    ([], "rotate counter-clockwise by 30 degrees", "rotate 30"),
    ([], "please rotate the picture 180 degrees", "rotate 180"),
    (SEARCHED, "spin it clockwise 15 degrees", "rotate 345"),
    ([], "it's lying on its side, rotate it clockwise", "rotate 270"),
    (ROTATED, "10 more degrees", "rotate 350"),
    (ROTATED, "a bit more", "rotate 340"),
    ([], "make it a bit brighter", "adjust_attr brightness 10"),
    (SEARCHED, "decrease the brightness by 30", "adjust_attr brightness -30"),
    ([], "the photo is too dark, brighten it by 25 percent", "adjust_attr brightness 25"),
    ([], "make the image darker", "adjust_attr brightness -20"),
    (BRIGHTER, "a bit more", "adjust_attr brightness 20"),
    (BRIGHTER, "decrease it by 30", "adjust_attr brightness -30"),
    ([], "lower brightness 15%", "adjust_attr brightness -15"),
    ([], "increase the contrast by 40", "adjust_attr contrast 40"),
    (SEARCHED, "reduce the contrast by 10 percent", "adjust_attr contrast -10"),
    (CONTRAST, "decrease it by 30", "adjust_attr contrast -30"),
    ([], "add a little more contrast", "adjust_attr contrast 10"),
    ([], "less contrast please", "adjust_attr contrast -20"),
    ([], "give the picture a blue tint", "adjust_color blue 0.2"),
    (SEARCHED, "make it look more purple", "adjust_color purple 0.2"),
    ([], "can you tint it pink", "adjust_color pink 0.2"),
    ([], "i want the whole photo to be a bit more yellow", "adjust_color yellow 0.1"),
    ([], "apply a light blue tone", "adjust_color skyblue 0.2"),
    ([], "remove the background", "image_cutout"),
    (SEARCHED, "cut out the boat from the background", "image_cutout"),
    ([], "can you isolate the main subject", "image_cutout"),
    ([], "crop to 10 20 200 300", "crop 10 20 200 300"),
    ([], "crop the image from (50, 60) to (400, 380)", "crop 50 60 400 380"),
    (SEARCHED, "please crop it to the box 0,0,320,240", "crop 0 0 320 240"),
    ([], "mirror the photo", "flip horizontal"),
    ([], "flip it vertically", "flip vertical"),
    (SEARCHED, "flip the image left to right", "flip horizontal"),
    (ROTATED, "undo that", "undo"),
    (BRIGHTER, "go back, I preferred it before", "undo"),
    (CONTRAST, "revert the last change", "undo"),
    (UNDONE, "redo", "redo"),
    (UNDONE, "actually bring that change back", "redo"),
    (BRIGHTER, "what changed?", "explain"),
    (ROTATED, "what did you just do to the picture?", "explain"),
    (CONTRAST, "how is it different from the original?", "explain original"),
    ([], "describe this picture", "describe"),
    (SEARCHED, "what's in the photo?", "describe"),
    ([], "can you write a caption for this image", "describe"),
    (SESSION, "crop to 30 40 250 260", "crop 30 40 250 260"),
    (SESSION, "trim it to 5 5 100 100", "crop 5 5 100 100"),
    (SESSION, "now crop it from (0, 0) to (200, 150)", "crop 0 0 200 150"),
    (SESSION_UNDONE, "redo it", "redo"),
    (SESSION, "redo please", "redo"),
    (SESSION, "flip it upside down", "flip vertical"),
    (SESSION, "make it 15 percent darker", "adjust_attr brightness -15"),
    (SESSION, "what's different from the original now?", "explain original"),
]


def _history(turns, request):
    lines = [GREETING]
    for turn in turns:
        lines.extend(turn)
    return [*lines, f"user_text: {request}"]


def test_natural_table_covers_every_command():
    kinds = {parse_command(c).name for _, _, c in NATURAL}
    assert len(NATURAL) >= 50
    assert kinds == {"search", "rotate", "adjust_attr", "adjust_color", "image_cutout", "crop", "flip", "undo",
                     "redo", "explain", "describe"}


@pytest.fixture(scope="module")
def shipped():
    from agent.command_model import DEFAULT_WEIGHTS, load_default_parser

    if not DEFAULT_WEIGHTS.exists():
        pytest.fail(f"the shipped command model is missing: {DEFAULT_WEIGHTS}")
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield load_default_parser()
    torch.set_num_threads(before)


def test_shipped_model_loads_offline(no_network, monkeypatch):
    import agent.command_model as cm
    import agent.command_model.parser as cm_parser

    monkeypatch.setattr(cm_parser._default_parser, "_value", None)  # really load it here, under the network guard
    parser = cm.load_default_parser()
    assert parser is not None
    pred = parser.predict([GREETING, "user_text: rotate it 90 degrees clockwise"], ["white boat"])
    assert pred.text == "rotate 270" and pred.confidence > 0.5


# Known misses of the shipped model (strict: the test fails when one starts passing, so this list stays true).
KNOWN_MISSES = {
    "show me a wooden rowing boat": "drops 'rowing' (a rare word, copied with low probability)",
    "apply a light blue tone": "reads 'light blue' as blue, not skyblue",
}
NATURAL_CASES = [pytest.param(*case, id=case[1], marks=[pytest.mark.xfail(reason=KNOWN_MISSES[case[1]], strict=True)]
                              if case[1] in KNOWN_MISSES else []) for case in NATURAL]


@pytest.mark.slow
@pytest.mark.parametrize("turns, utterance, expected", NATURAL_CASES)
def test_shipped_model_on_natural_requests(shipped, turns, utterance, expected):
    pred = shipped.predict(_history(turns, utterance), ["white boat", "blue water", "green tree"])
    assert pred.text is not None
    parse_command(pred.text)
    assert caise_match(pred.text, expected), f"{utterance!r}: got {pred.text!r}, expected {expected!r}"


def test_unsure_or_chitchat_is_not_executed(shipped, coffee, tmp_path):
    from agent.dialogue.manager import DialogueManager
    from editor.document import Document
    from editor.store import Store

    store = Store(tmp_path / "e.db")
    doc = Document.create(store, coffee[::8, ::8].copy(), title="coffee")
    manager = DialogueManager(doc, parser=shipped)
    for request in ("tell me a joke", "what's the weather like tomorrow?", "book me a flight to rome"):
        result = manager.handle(request)
        assert not result.ok and result.command is None, (request, result.reply)
        assert "can't" in result.reply or "Sorry" in result.reply
        assert "I can" in result.reply and len(result.reply) < 300  # says what it can do, briefly
    assert len(doc.versions) == 1
    store.close()


def test_cli_edit_runs_requests_through_the_model(shipped, coffee, tmp_path, capsys):
    import numpy as np

    import main
    from editor.imageio import read_image, write_image

    src = tmp_path / "in.png"
    write_image(src, coffee[::8, ::8].copy())
    out = tmp_path / "out.png"
    code = main.main(["edit", str(src), "make it a bit brighter", "rotate it 90 degrees clockwise",
                      "-o", str(out), "--json"])
    assert code == 0
    turns = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [t["command"] for t in turns] == ["adjust_attr brightness 10", "rotate 270"]
    before, after = read_image(src).pixels, read_image(out).pixels
    assert after.shape == (before.shape[1], before.shape[0], 3)  # a quarter turn
    # rotate 270 (counter-clockwise) is a clockwise quarter turn: the top-left comes to the top-right
    brighter = np.clip(before.astype(int) + 26, 0, 255)
    assert np.abs(after.astype(int) - np.rot90(brighter, k=-1)).max() <= 1
