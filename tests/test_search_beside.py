"""Issue 27, item 5: a found photo opens beside the one being edited (never in its place), "another
one" steps through the matches as ``search <words> #<rank>``, "go back to the previous photo"
switches back, a weak best match is said and not opened, and a bare phrase is a search while the
conversation is finding photos."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from agent.dialogue.manager import DialogueManager
from agent.grammar.commands import Search, Switch, parse_command
from agent.language.search_steps import read_switch, search_step
from agent.search.library import SearchResult, register
from editor.document import Document
from editor.store import Store


class OrthogonalEncoder:
    """Every text far from every other: no word is close in meaning to what perception named."""

    def encode(self, texts):
        return np.eye(len(texts), 8, dtype=np.float32)


class FakeLibrary:
    """The matches a search returns, best first, as files on disk."""

    def __init__(self, folder: Path, names: list[str], descriptions: list[str]):
        self.db_path = folder / "library.db"
        self.encoder = OrthogonalEncoder()
        self.results = []
        for i, (name, text) in enumerate(zip(names, descriptions)):
            path = folder / name
            Image.fromarray(np.full((12, 16, 3), 40 * (i + 1), np.uint8)).save(path)
            self.results.append(SearchResult(str(path), 1.0 / (i + 1), text, f"h{i}", 16, 12, None, [], 0.3))
        self.asked = []

    def ensure_sample(self):
        return None

    def count(self):
        return len(self.results)

    def search(self, words, *, limit=10):
        self.asked.append((words, limit))
        return self.results[:limit]


class FindParser:
    """A command model that reads "find me a photo of a cat" as ``search cat``."""

    def predict(self, history, concepts):
        from agent.grammar.turns import Prediction

        last = history[-1].split(":", 1)[1].strip()
        return Prediction("search cat", 0.9) if "cat" in last else Prediction(None, 0.0)


@pytest.fixture
def setup(tmp_path):
    store = Store(tmp_path / "easel.db")
    first = Document.create(store, np.full((20, 30, 3), 100, np.uint8), title="beach.jpg")
    manager = DialogueManager(first, parser=FindParser())
    library = FakeLibrary(tmp_path, ["cat1.jpg", "cat2.jpg", "cat3.jpg"],
                          ["A photo of a gray cat.", "A photo of 2 cats.", "A photo of a cat and a cup."])
    register(manager, library, store=store)
    return manager, first, library


def test_a_found_photo_opens_beside_the_edited_one_and_the_reply_says_so(setup):
    manager, first, _ = setup
    manager.handle("rotate 90")
    edited = first.head.id
    result = manager.handle("find me a photo of a cat")
    assert result.ok and manager.document is not first
    assert Path(manager.document.source_path).name == "cat1.jpg"
    assert manager.open_photos() == [first, manager.document]  # beside, not in place
    assert first.head.id == edited  # the edit is kept as it was
    assert "beside beach.jpg" in result.reply and "go back to the previous photo" in result.reply


def test_another_one_steps_through_the_matches_and_replays(setup):
    manager, first, library = setup
    manager.handle("rotate 90")
    manager.handle("search cat")
    result = manager.handle("another one")
    assert result.command == Search("cat", rank=2) and result.command.format() == "search cat #2"
    assert Path(manager.document.source_path).name == "cat2.jpg" and "match 2 of 3" in result.reply
    # the unedited first match gives its place to the next: the photos open are the edit and this match
    assert [Path(d.source_path or d.title).name for d in manager.open_photos()] == ["beach.jpg", "cat2.jpg"]
    result = manager.handle("show me the third one")
    assert result.command.format() == "search cat #3" and Path(manager.document.source_path).name == "cat3.jpg"
    assert manager.handle("a different one").ok is False  # there are only 3
    # the history's lines replay: the same command lines open the same photos in a new conversation
    lines = [h for h in manager.history if h.startswith("search ")]
    assert lines == ["search cat", "search cat #2", "search cat #3"]
    again = DialogueManager(Document.create(first.store, np.zeros((4, 4, 3), np.uint8), title="x.png"))
    register(again, library, store=first.store)
    opened = [Path(again.handle(line).version and again.document.source_path).name for line in lines]
    assert opened == ["cat1.jpg", "cat2.jpg", "cat3.jpg"]


def test_go_back_to_the_previous_photo_switches_and_keeps_both(setup):
    manager, first, _ = setup
    manager.handle("rotate 90")
    manager.handle("search cat")
    found = manager.document
    result = manager.handle("go back to the previous photo")
    assert result.ok and result.command == Switch("previous") and manager.document is first
    assert first.head.command == "rotate 90" and "cat1.jpg stays open" in result.reply
    assert manager.handle("switch cat1.jpg").ok and manager.document is found
    assert manager.handle("switch previous").ok and manager.document is first


def test_a_weak_best_match_is_said_and_opens_only_when_asked(setup):
    manager, first, _ = setup
    result = manager.handle("search giraffe")
    assert not result.ok and manager.document is first
    assert result.reply.startswith("Nothing in your library looks like giraffe; the closest is cat1.jpg")
    assert manager.handle("yes").ok and Path(manager.document.source_path).name == "cat1.jpg"


def test_a_bare_phrase_is_a_search_while_finding_photos(setup):
    manager, _, library = setup
    assert not any(isinstance(c, Search) for c in manager.read("a giraffe")[0])  # a photo open, no search yet
    manager.handle("search cat")
    assert [c.format() for c in manager.read("a giraffe")[0]] == ["search giraffe"]
    manager.handle("rotate 90")  # an edit: the conversation is about this photo again
    assert not any(isinstance(c, Search) for c in manager.read("another one")[0])


@pytest.mark.parametrize("line", ["search red balloon #2", "search kites on a beach #12", "switch previous",
                                  "switch cat_and_coffee.jpg"])
def test_the_new_lines_round_trip(line):
    assert parse_command(line).format() == line


@pytest.mark.parametrize("words, rank", [("another one", 2), ("the next one", 2), ("next", 2), ("a different one", 2),
                                         ("show me the second one", 2), ("the third", 3), ("not this one", 2),
                                         ("show me another", 2), ("number 4", 4)])
def test_step_words(words, rank):
    assert search_step(words, Search("dog")) == Search("dog", rank=rank)


@pytest.mark.parametrize("words", ["go back", "go back to the original", "make it brighter", "the previous one was better"])
def test_words_that_are_not_steps_or_switches(words):
    assert search_step(words, Search("dog")) is None
    assert read_switch(words, ["a.jpg"]) is None


def test_main_edit_says_what_opened_beside_and_writes_the_photo_gone_back_to(tmp_path, monkeypatch, capsys):
    import agent.dialogue.assistant
    import main
    from editor.imageio import read_image

    photo = tmp_path / "in.png"
    Image.fromarray(np.full((20, 30, 3), 90, np.uint8)).save(photo)
    folder = tmp_path / "library"
    folder.mkdir()
    library = FakeLibrary(folder, ["cat1.jpg", "cat2.jpg"], ["A photo of a gray cat.", "A photo of 2 cats."])
    real = agent.dialogue.assistant.build_manager

    def build(document=None, **kwargs):
        manager = real(document, parser=FindParser(), **kwargs)
        manager.concepts = lambda doc: []
        register(manager, library, store=document.store)
        return manager

    monkeypatch.setattr(agent.dialogue.assistant, "build_manager", build)
    out = tmp_path / "out.png"
    assert main.main(["edit", str(photo), "rotate 90", "find me a photo of a cat", "another one",
                      "go back to the previous photo", "-o", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "Here is cat1.jpg" in printed and "beside in.png" in printed and "search cat #2" in printed
    assert "Back to in.png" in printed
    assert read_image(out).pixels.shape == (30, 20, 3)  # the edited photo, not a match
