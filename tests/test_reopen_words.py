"""A reopened conversation shows what the person typed, not the command it became (issue 18.3)."""

from __future__ import annotations

import pytest

pytest.importorskip("pytestqt")

from agent.grammar.turns import Prediction, TurnResult  # noqa: E402
from editor.document import Document  # noqa: E402
from editor.imageio import write_image  # noqa: E402
from tests.test_app import make_window, open_photo, say  # noqa: E402

pytestmark = pytest.mark.gui


@pytest.fixture
def photo(tmp_path, astronaut):
    return write_image(tmp_path / "photos" / "astronaut.png", astronaut[::2, ::2].copy()) \
        if (tmp_path / "photos").mkdir() is None else None


class Reads:
    """A parser that reads any request as one command (the learned model's job in the app)."""

    def __init__(self, command: str):
        self.command = command

    def predict(self, history, concepts):
        return Prediction(self.command, 0.9)


def test_a_reopened_conversation_shows_the_typed_words(qtbot, tmp_path, photo, coffee):
    w1 = make_window(qtbot, tmp_path)
    open_photo(qtbot, w1, photo)
    c = w1.controller

    def search(manager, command):  # as the library's handler: opens the best match
        manager.document = Document.create(manager.document.store, coffee[::4, ::4], title="coffee.png")
        return TurnResult(command.format(), "Here is the best match.", command, manager.document.head)

    c.manager.handlers["search"] = search
    c.manager.concepts = lambda doc: []  # no perception models: the words are what is tested
    c.manager.parser = Reads("search coffee")
    say(qtbot, w1, "find me a photo of a cup of coffee")
    c.manager.parser = Reads("adjust_attr brightness 20")
    say(qtbot, w1, "a bit brighter please")
    found = c.document
    # the request rules read "a bit brighter" before the parser: a small step, 10
    assert found.title == "coffee.png" and found.head.command == "adjust_attr brightness 10"
    turns = c.store.turns(found.id)
    assert [(t["role"], t["text"] if t["role"] == "user" else t["commands"]) for t in turns] == [
        ("user", "find me a photo of a cup of coffee"), ("assistant", ["search coffee"]),
        ("user", "a bit brighter please"), ("assistant", ["adjust_attr brightness 10"])]
    w1.answer = True
    w1.close()

    w2 = make_window(qtbot, tmp_path)
    w2.controller.reopen(found.id)
    qtbot.waitUntil(lambda: w2.controller.document is not None, timeout=10000)
    said = [m[1] for m in w2.chat.messages if m[0] == "user"]
    assert said == ["find me a photo of a cup of coffee", "a bit brighter please"]
    assert w2.controller.manager.history[1:3] == ["user_text: find me a photo of a cup of coffee",
                                                   "search coffee"]
    w2.close()
