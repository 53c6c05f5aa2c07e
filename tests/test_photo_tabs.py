"""Issue 27, item 5 in the window: a search's match opens in a tab beside the photo being edited, the
tab bar switches between them, "go back to the previous photo" and Ctrl+Z come back, and the edits of
each photo stay its own."""

from __future__ import annotations

import pytest

pytest.importorskip("pytestqt")

from PIL import Image  # noqa: E402
from PySide6.QtCore import Qt  # noqa: E402

from agent.search.library import register  # noqa: E402
from tests.test_app import make_window, open_photo, say  # noqa: E402
from tests.test_search_beside import FakeLibrary  # noqa: E402


@pytest.fixture
def photo(tmp_path, astronaut):
    path = tmp_path / "photos" / "astronaut.png"
    path.parent.mkdir()
    Image.fromarray(astronaut[::2, ::2]).save(path)
    return path


@pytest.fixture
def window(qtbot, tmp_path):
    w = make_window(qtbot, tmp_path)
    folder = tmp_path / "found"
    folder.mkdir()
    library = FakeLibrary(folder, ["cat1.jpg", "cat2.jpg"], ["A photo of a gray cat.", "A photo of 2 cats."])
    register(w.controller.manager, library, store=w.controller.store)
    yield w
    w.controller.workers.wait(5000)


def test_a_found_photo_opens_in_a_tab_beside_the_edit(qtbot, window, photo):
    c = window.controller
    first = open_photo(qtbot, window, photo)
    assert window.photo_tabs.isHidden()  # one photo: no bar
    say(qtbot, window, "rotate 90")
    say(qtbot, window, "search cat")
    found = c.document
    assert found is not first and found.title == "cat1.jpg"
    assert not window.photo_tabs.isHidden() and window.photo_tabs.count() == 2
    assert window.photo_tabs.tabText(0) == "astronaut.png (1)" and window.photo_tabs.tabText(1) == "cat1.jpg"
    assert window.photo_tabs.currentIndex() == 1
    assert any("beside astronaut.png" in text for role, text in window.chat.messages[-3:] if role == "assistant")
    assert first.head.command == "rotate 90"  # the edited photo is as it was

    say(qtbot, window, "another one")  # the unedited match gives its place to the next
    assert c.document.title == "cat2.jpg" and window.photo_tabs.count() == 2

    window.photo_tabs.setCurrentIndex(0)  # a click on the first tab
    qtbot.waitUntil(lambda: c.document is first)
    assert window.canvas.image_size() == (first.head.width, first.head.height)
    say(qtbot, window, "go back to the previous photo")
    assert c.document.title == "cat2.jpg" and window.photo_tabs.currentIndex() == 1
    qtbot.keyClick(window.canvas, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)  # Ctrl+Z: back again
    qtbot.waitUntil(lambda: c.document is first)
    assert window.photo_tabs.currentIndex() == 0 and first.head.command == "rotate 90"


def test_opening_a_file_starts_a_conversation_with_one_photo(qtbot, window, photo, tmp_path):
    open_photo(qtbot, window, photo)
    say(qtbot, window, "search cat")
    assert window.photo_tabs.count() == 2
    open_photo(qtbot, window, photo)
    assert window.controller.manager.open_photos() == [window.controller.document]
    assert window.photo_tabs.isHidden()
