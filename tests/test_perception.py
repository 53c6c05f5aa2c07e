"""Perception: objects, colours, ImageNet labels, OCR, concepts and the cache, all offline."""

from __future__ import annotations

import numpy as np
import pytest

from agent.perception import concepts
from agent.perception import models as perception
from agent.perception.concepts import Perception, perceive
from agent.perception.models import COLOR_NAMES_RGB, color_name


@pytest.fixture(scope="module")
def chelsea() -> np.ndarray:
    from skimage import data

    return data.chelsea()


@pytest.mark.slow
def test_every_model_loads_from_packages_without_network(no_network, monkeypatch, coffee):
    # Forget any model an earlier test loaded, so that loading happens here, under the guard.
    from agent.search import library

    for model in (perception._ssd, perception.efficientnet, perception.classifier_and_labels, perception._rapidocr):
        monkeypatch.setattr(model, "_value", None)
    monkeypatch.setattr(library.text_encoder, "_value", None)
    small = coffee[::4, ::4]
    assert perception.detect_objects(coffee)
    assert len(perception.classify(small, top=3)) == 3
    assert isinstance(perception.read_text(small), list)
    vec = library.text_encoder().encode(["a white cup"])
    assert vec.shape == (1, 384) and abs(np.linalg.norm(vec) - 1) < 1e-4


def test_chelsea_is_a_cat(chelsea, tmp_path):
    p = perceive(chelsea, db=tmp_path / "cache.db")
    assert "cat" in [o.label for o in p.objects]
    assert "cat" in p.labels[0][0].lower()
    assert any(c.endswith(" cat") for c in p.concepts)
    assert "cat" in p.description()
    x1, y1, x2, y2 = p.objects[0].box
    assert 0 <= x1 < x2 <= chelsea.shape[1] and 0 <= y1 < y2 <= chelsea.shape[0]


def test_coffee_is_a_cup(coffee, tmp_path):
    p = perceive(coffee, db=tmp_path / "cache.db")
    assert "cup" in [o.label for o in p.objects]
    assert {"espresso", "cup", "coffee mug"} & {name for name, _ in p.labels[:3]}
    cup = next(o for o in p.objects if o.label == "cup")
    assert cup.color in COLOR_NAMES_RGB
    assert f"{concepts.CONCEPT_COLOR.get(cup.color, cup.color)} cup" in p.concepts


def test_concepts_are_attribute_object_phrases(chelsea, coffee, astronaut, tmp_path):
    for img in (chelsea, coffee, astronaut):
        for concept in perceive(img, db=tmp_path / "c.db").concepts:
            words = concept.split()
            assert concept == "person" or len(words) >= 2, concept
            assert "grey" not in words  # CAISE spells it gray


@pytest.mark.parametrize("name", list(COLOR_NAMES_RGB))
def test_colour_of_a_noisy_patch(name):
    rng = np.random.default_rng(1)
    ref = np.array(COLOR_NAMES_RGB[name])
    img = np.clip(ref + rng.normal(0, 8, (40, 40, 3)), 0, 255).astype(np.uint8)
    img[:8] = 255 - ref  # a strip of another colour does not change the name
    assert color_name(img) == name


def test_colour_within_box_and_mask():
    img = np.zeros((20, 20, 3), np.uint8)
    img[5:15, 5:15] = (200, 30, 30)
    assert color_name(img) == "black"
    assert color_name(img, box=(5, 5, 15, 15)) == "red"
    mask = np.zeros((20, 20), bool)
    mask[6:9, 6:9] = True
    assert color_name(img, mask=mask) == "red"
    assert color_name(img, box=(0, 0, 20, 20), mask=mask) == "red"
    with pytest.raises(ValueError):
        color_name(img, mask=np.zeros((20, 20), bool))


def test_grey_16bit_and_alpha_images(chelsea, tmp_path):
    grey16 = (chelsea.mean(axis=2).astype(np.uint16) * 257)
    p = perceive(grey16, db=tmp_path / "c.db")
    assert p.width == chelsea.shape[1] and p.colors
    rgba = np.dstack([chelsea, np.full(chelsea.shape[:2], 255, np.uint8)])
    assert perceive(rgba, db=tmp_path / "c.db").labels
    with pytest.raises(ValueError):
        perceive(np.zeros((0, 4, 3), np.uint8))


def test_results_are_cached_in_memory_and_in_the_database(chelsea, tmp_path, monkeypatch):
    db = tmp_path / "cache.db"
    concepts.clear_memory_cache()
    first = perceive(chelsea, db=db)
    concepts.clear_memory_cache()

    def boom(*a, **k):
        raise AssertionError("a model ran although the result was cached")

    monkeypatch.setattr(perception, "detect_objects", boom)
    monkeypatch.setattr(perception, "classify", boom)
    again = perceive(chelsea, db=db)  # from SQLite
    assert again == first
    assert perceive(chelsea, db=db) is again  # from memory
    assert Perception.from_json(first.to_json()) == first


@pytest.mark.slow
def test_ocr_reads_a_sign(tmp_path):
    from agent.search.library import SAMPLE_DIR
    from editor.imageio import read_image

    pixels = read_image(SAMPLE_DIR / "sale_poster.png").pixels
    without = perceive(pixels, db=tmp_path / "c.db", use_cache=False)
    assert without.text is None
    p = perceive(pixels, ocr=True, db=tmp_path / "c.db")
    assert "SALE" in " ".join(p.text)
    assert "SALE" in p.description()


def test_document_concepts(chelsea, tmp_path):
    from agent.perception.concepts import document_concepts
    from editor.document import Document
    from editor.store import Store

    assert document_concepts(None) == []
    doc = Document.create(Store(tmp_path / "easel.db"), chelsea)
    assert any(c.endswith("cat") for c in document_concepts(doc))


@pytest.mark.slow
def test_perceive_colours_an_object_by_its_pixels_and_a_person_by_her_clothes():
    from skimage import data

    from agent.perception.concepts import perceive

    p = perceive(data.astronaut(), db=":memory:", use_cache=False)
    person = next(o for o in p.objects if o.label == "person")
    assert person.color == "orange"  # her suit, never her skin
    assert "person" in p.concepts
