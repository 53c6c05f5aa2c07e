"""The everyday-word map of ImageNet's classes against WordNet's hypernyms (Debian wordnet-base)."""

from __future__ import annotations

import pytest

from agent.perception import wordnet
from agent.perception.naming import decide_noun
from agent.perception.vocabulary import class_kinds, everyday_words

pytestmark = pytest.mark.skipif(not wordnet.available(), reason="apt-get install wordnet-base")


@pytest.fixture(scope="module")
def labels():
    from agent.perception.models import classifier_and_labels

    return classifier_and_labels()[1]


def test_every_imagenet_class_has_its_synset_in_imagenet_order(labels):
    offsets = wordnet.class_synsets(labels)
    assert None not in offsets
    # ImageNet's class ids are WordNet offsets, sorted: the match must keep that order
    assert all(a < b for a, b in zip(offsets, offsets[1:]))


def test_the_map_agrees_with_wordnet(labels):
    words = everyday_words(labels)
    for i, w in enumerate(words):
        if w in ("cat", "dog", "bird", "fish", "snake", "monkey", "lemur", "owl", "eagle", "heron", "stork",
                 "bison", "toucan", "pelican"):
            assert wordnet.class_is_a(labels, i, w), (i, labels[i], w)
    kinds = class_kinds(labels)
    assert all(k == "animal" for k in kinds[:398])
    assert "animal" not in kinds[398:]


def test_hypernyms():
    assert wordnet.is_a("tabby", "cat") and wordnet.is_a("cat", "animal")
    assert wordnet.is_a("school bus", "vehicle") and wordnet.is_a("bicycle", "vehicle")
    assert not wordnet.is_a("person", "animal") and not wordnet.is_a("cup", "vehicle")


def test_kinds_of_classes(labels):
    kinds = class_kinds(labels)
    assert kinds[281] == "animal" and kinds[292] == "animal"  # tabby, tiger
    assert kinds[779] == "vehicle" and kinds[444] == "vehicle"  # school bus, bicycle-built-for-two
    assert kinds[504] is None  # coffee mug


@pytest.mark.parametrize("label,score,words,want", [
    ("zebra", 0.95, {"tiger": 0.7, "zebra": 0.1}, "tiger"),  # COCO has no tiger: its label is its nearest class
    ("dog", 0.9, {"wolf": 0.6, "dog": 0.3}, "wolf"),
    ("cat", 0.9, {"lion": 0.6}, "lion"),
    ("horse", 0.7, {"cow": 0.8}, "cow"),  # surer than the detector
    ("horse", 0.97, {"dog": 0.65}, "horse"),  # a sure detector keeps a COCO animal against a COCO animal
    ("dog", 0.9, {"dog": 0.5, "wolf": 0.3}, "dog"),
])
def test_a_confident_fine_class_wins(label, score, words, want):
    assert decide_noun(label, score, words)[0] == want


@pytest.mark.parametrize("label,score,words,want", [
    # ImageNet has no giraffe: the classifier's nearest class (a patterned cat for a giraffe's
    # head, bench/animals.py) is no evidence against the detector's giraffe
    ("giraffe", 0.98, {"jaguar": 0.57, "leopard": 0.08}, "giraffe"),
    ("dog", 0.95, {"red panda": 0.9}, "red panda"),  # a two-word species COCO has no class for
])
def test_a_fine_class_wins_only_over_a_label_the_classifier_knows(label, score, words, want):
    assert decide_noun(label, score, words)[0] == want


@pytest.mark.parametrize("label,words,contains,want", [
    ("cow", {"bison": 0.92, "cow": 0.05}, [], "bison"),
    ("bird", {"chicken": 0.99}, ["chicken"], "chicken"),  # the hen beside is one too
    ("bear", {"panda": 0.87, "bear": 0.01}, [], "panda"),
    ("bird", {"bird": 0.6, "owl": 0.3}, [], "bird"),  # the finer word unsure: the label
])
def test_both_models_agreeing_say_the_finer_word(label, words, contains, want):
    assert decide_noun(label, 0.96, words, contains=contains)[0] == want


def test_two_models_sure_of_different_animals_say_the_kind():
    # a goat: a "cow" to the detector at 0.95, a "dog" (a Tibetan terrier) to the classifier
    assert decide_noun("cow", 0.95, {"dog": 0.72, "cow": 0.02}, kinds={"animal": 0.79})[0] == "animal"
    # a rhinoceros: an "elephant" to the detector, a warthog more than an elephant to the classifier
    assert decide_noun("elephant", 0.97, {"pig": 0.19, "elephant": 0.12}, kinds={"animal": 0.47})[0] == "animal"
    # the classifier's best is no animal, or the cat beside the dog: the detector's label stays
    assert decide_noun("bird", 0.97, {"plow": 0.13, "bird": 0.12}, kinds={"animal": 0.5})[0] == "bird"
    # ... unless the classifier, which has classes for it, barely sees that animal at all
    # (naming.WEAK_SPECIES: a moose a "cow")
    assert decide_noun("cow", 0.97, {"plow": 0.13, "cow": 0.12}, kinds={"animal": 0.5})[0] == "animal"
    assert decide_noun("dog", 0.9, {"cat": 0.7}, contains=["cat"], kinds={"animal": 0.9})[0] == "dog"


def test_a_silhouette_keeps_the_detectors_animal():
    import numpy as np

    from agent.perception.animals import flat_fill

    # a horse's silhouette: a "dog" to the classifier, which reads texture, not shape
    assert decide_noun("horse", 0.97, {"dog": 0.65}, kinds={"animal": 0.9}, flat=True)[0] == "horse"
    assert decide_noun("horse", 0.97, {"dog": 0.65}, kinds={"animal": 0.9})[0] == "animal"
    mask = np.zeros((40, 40), bool)
    mask[5:35, 10:30] = True
    flat = np.full((40, 40, 3), 60, np.uint8)
    fur = np.random.default_rng(0).integers(40, 200, (40, 40, 3)).astype(np.uint8)
    assert flat_fill(flat, (0, 0, 40, 40), mask) and not flat_fill(fur, (0, 0, 40, 40), mask)


def test_birds_lemurs_and_bison_by_their_own_words(labels):
    from agent.perception.vocabulary import agrees

    words = everyday_words(labels)
    assert words[24] == "owl" and words[96] == "toucan" and words[129] == "spoonbill"
    assert words[131] == words[132] == words[133] == "heron"  # a bittern and an egret are herons
    assert words[383] == words[384] == "lemur" and words[347] == "bison" and words[346] == "buffalo"
    assert all(agrees(w, "bird") for w in ("owl", "heron", "toucan", "pelican")) and agrees("bison", "cow")


def test_unsure_species_is_named_by_its_kind():
    assert decide_noun("horse", 0.7, {"dog": 0.45, "horse": 0.01}, kinds={"animal": 0.9})[0] == "animal"
    assert decide_noun("horse", 0.7, {"dog": 0.45, "horse": 0.01}, kinds={"animal": 0.3})[0] == "object"
    assert decide_noun("car", 0.5, {"cab": 0.3}, kinds={"vehicle": 0.8})[0] == "vehicle"


def test_the_index_lookup_finds_every_lemma_the_file_has():
    full = {}
    with open(wordnet.wordnet_dir() / "index.noun", encoding="utf-8") as f:
        for line in f:
            if not line.startswith(" "):
                full[line.split()[0]] = wordnet._parse_index_line(line)
    keys = sorted(full)
    for k in keys[:3] + keys[-3:] + keys[:: max(1, len(keys) // 500)] + ["steam_locomotive"]:
        assert wordnet._lookup(k) == full[k], k
    assert wordnet._lookup("no_such_lemma_zz") == ()
