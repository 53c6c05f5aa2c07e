"""The referent-colour ranker: the referent phrase, when it applies, a ranker fitted here on synthetic
queries, and how the command model uses a ranker when one is installed (Easel ships none)."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from agent.command_model import words_of
from agent.learned.referent_colour import EDIT_PALETTE, ReferentColourModel, gate, make_query, referent_phrase


@pytest.mark.parametrize("text, phrase", [
    ("change the color of the image same as the color of the pendant in the chain", ["pendant"]),
    ("can you change the image color which is same as baby girls top color", ["baby", "girls", "top"]),
    ("change the image color which is same as left side fish fin color", ["fish", "fin"]),
    ("find a towel whose colour matches the girl's jacket", ["girl's", "jacket"]),
    ("get me a skirt which color is same as center tie color", ["tie"]),
    ("find a notebook in-lining with the color of lunch box which is kept in the corner", ["lunch", "box"]),
    ("change the colour of the whole picture to the colour of the kite", ["kite"]),
    ("make it brighter", []),
])
def test_referent_phrase(text, phrase):
    assert referent_phrase(words_of(text)) == phrase


def test_gate_applies_only_to_a_colour_named_by_a_thing():
    concepts = ["yellow jacket", "wooden table", "white wall", "smiling man"]
    req = words_of("change the colour of the image to the colour of the table")
    q = gate(["adjust_color", "red", "0.2"], req, concepts, split=words_of)
    assert q is not None and q.kind == "edit" and q.model_colour == "red" and q.referents == ["table"]
    # concept adjectives in the editor's palette: wooden is brown; white has no editor colour
    assert q.concepts == [("yellow", "jacket"), ("brown", "table")]
    assert gate(["search", "red", "mat"], words_of("a mat the colour of the table"), concepts).kind == "search"
    # the request states a colour, has no colour noun, or the command has no colour: nothing to decide
    assert gate(["adjust_color", "red", "0.2"], words_of("make the colour red like the table"), concepts) is None
    assert gate(["adjust_color", "red", "0.2"], words_of("make it like the table"), concepts) is None
    assert gate(["search", "mat"], words_of("a mat the colour of the table"), concepts) is None
    assert gate(["rotate", "<left>", "90"], words_of("the colour of the table"), concepts) is None


def _synthetic_queries(n: int, seed: int):
    """Queries whose answer is the colour of the concept naming the referent; the 'model' is right
    a third of the time and the most frequent concept colour is usually a distractor."""
    rng = random.Random(seed)
    nouns = ["jacket", "table", "cup", "ball", "car", "sofa", "hat", "kite", "bag", "door"]
    out = []
    for _ in range(n):
        ref, *others = rng.sample(nouns, 4)
        answer, distractor = rng.sample(EDIT_PALETTE, 2)
        concepts = [f"{answer} {ref}"] + [f"{distractor} {o}" for o in others]
        model = answer if rng.random() < 0.33 else rng.choice(EDIT_PALETTE)
        q = make_query("edit", [ref], concepts, model, slot={model: 0.6, answer: 0.1})
        out.append((q, answer))
    return out


def test_a_ranker_fitted_on_synthetic_queries_reads_the_referent():
    from training.train_referent_colour import fit_ranker

    train, test = _synthetic_queries(300, 0), _synthetic_queries(200, 1)
    fitted = fit_ranker([(q, a, None) for q, a in train], embed=None)
    right = sum(fitted.rank(q)[0][0] == a for q, a in test)
    model_right = sum(q.model_colour == a for q, a in test)
    assert right / len(test) > 0.95
    assert model_right / len(test) < 0.6
    assert fitted.weights["exact_head"] > 0
    # unfitted (all weights zero) it cannot tell the colours apart
    blank = ReferentColourModel({}, fitted.word_counts, fitted.priors)
    assert len({p for _, p in blank.rank(test[0][0])}) == 1


def test_ranker_round_trips_through_json(tmp_path):
    priors = {"edit": {"red": 0.5, "blue": 0.5}, "search": {"red": 1.0}}
    r = ReferentColourModel({"model": 1.5, "exact_head": 2.0}, {"sky": {"blue": 3}}, priors, 2.0, {"n": 1})
    r.save(tmp_path / "r.json")
    back = ReferentColourModel.load(tmp_path / "r.json")
    assert back.weights == r.weights and back.word_counts == r.word_counts and back.priors == r.priors
    assert np.allclose(back.w, r.w)
    (tmp_path / "bad.json").write_text("{}")
    with pytest.raises(ValueError):
        ReferentColourModel.load(tmp_path / "bad.json")


@pytest.fixture
def ranker_at(monkeypatch):
    """Point EASEL_REFERENT_COLOUR at a file and forget any loaded ranker, before and after."""
    from agent.learned import referent_colour

    def use(path):
        monkeypatch.setenv("EASEL_REFERENT_COLOUR", str(path))
        referent_colour.reset()

    yield use
    monkeypatch.delenv("EASEL_REFERENT_COLOUR", raising=False)
    referent_colour.reset()


KITE = words_of("please change the colour of the whole picture to the colour of the boy's kite")
KITE_CONCEPTS = ["green grass", "green tree", "green field", "blue sky", "orange kite", "white cloud"]


def test_decoded_uses_a_ranker_when_one_is_installed(tmp_path, ranker_at, no_network):
    from agent.command_model import Decoded
    from training.train_referent_colour import fit_ranker

    fit_ranker([(q, a, None) for q, a in _synthetic_queries(300, 0)], embed=None).save(tmp_path / "r.json")
    ranker_at(tmp_path / "r.json")
    d = Decoded(["adjust_color", "green", "0.2"], [-0.1, -0.5, -0.3, -0.1], KITE, [], KITE_CONCEPTS,
                slot={"green": 0.5, "blue": 0.2, "orange": 0.05})
    assert d.text == "adjust_color orange 0.2"
    # the confidence counts the colour with the ranker's probability, not the decoder's exp(-0.5)
    position, p = d._ranked
    assert position == 1 and p > 0.5
    assert d.confidence == pytest.approx(math.exp(-0.1 - 0.1) * p)  # the intensity was the rules' choice
    # without a colour reference the model's colour stands
    d = Decoded(["adjust_color", "green", "0.2"], [-0.1, -0.5, -0.3, -0.1], words_of("make it greener"), [],
                KITE_CONCEPTS, slot={"green": 0.5})
    assert d.text == "adjust_color green 0.2"


def test_without_a_ranker_the_hand_rule_reads_the_referent(tmp_path, ranker_at):
    from agent.command_model import Decoded
    from agent.learned.referent_colour import default_model

    ranker_at(tmp_path / "none.json")  # no file: the rule decides
    assert default_model() is None
    d = Decoded(["adjust_color", "green", "0.2"], [-0.1, -0.5, -0.3, -0.1], KITE, [], KITE_CONCEPTS,
                slot={"green": 0.5})
    assert d.text == "adjust_color orange 0.2" and d._ranked is None
    (tmp_path / "bad.json").write_text("not json")  # a broken file is ignored, not fatal
    ranker_at(tmp_path / "bad.json")
    assert default_model() is None
