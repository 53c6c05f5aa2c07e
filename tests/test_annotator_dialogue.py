"""Paired dialogues: the hub's rules, both windows in one process, and two ends over TCP on loopback."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest

from agent.grammar.commands import parse_command
from app.annotator.hub import DialogueHub, ImageLibrary
from editor import exports
from editor.annotations import AnnotationStore
from editor.imageio import write_image
from editor.store import Store

pytestmark = pytest.mark.gui

_ROOT = Path(__file__).resolve().parent.parent
CAISE_VALID = next((p / "shared/data/caise/md_valid.json" for p in (_ROOT.parent, _ROOT.parent.parent)
                    if (p / "shared/data/caise/md_valid.json").exists()), _ROOT / "missing")


@pytest.fixture
def library(tmp_path, astronaut, coffee):
    folder = tmp_path / "images"
    folder.mkdir()
    write_image(folder / "astronaut.png", astronaut[::4, ::4].copy())
    write_image(folder / "coffee_cup.png", coffee[::4, ::4].copy())
    write_image(folder / "red_umbrella.png", np.full((60, 80, 3), (200, 30, 30), np.uint8))
    return ImageLibrary(folder)


@pytest.fixture
def ann(tmp_path):
    store = Store(tmp_path / "profile" / "easel.db")
    yield AnnotationStore(store)
    store.close()


def messages(outs, to=None):
    return [o.msg for o in outs if o.to in (None, to)]


def test_hub_records_exactly_the_commands_it_runs(ann, library):
    hub = DialogueHub(ann, library, rng=random.Random(0))
    state = messages(hub.connect("user", "ann"), "user")[0]
    assert len(state["seeds"]) == 3 and len(state["suggestions"]) == 4
    assert "seeds" not in messages(hub.connect("assistant", "bob"), "assistant")[0]

    hub.handle("assistant", {"type": "chat", "text": "How may I help you?"})
    hub.handle("user", {"type": "chat", "text": "find me a red umbrella"})
    out = hub.handle("assistant", {"type": "search", "words": "red umbrella"})
    results = [m for m in messages(out, "assistant") if m["type"] == "results"][0]
    assert results["items"][0]["name"] == "red_umbrella"  # best name match first
    out = hub.handle("assistant", {"type": "load", "name": "red_umbrella"})
    image = [m for m in messages(out) if m["type"] == "image"][0]
    assert image["size"] == [80, 60]
    hub.handle("user", {"type": "chat", "text": "rotate it clockwise 90"})
    hub.handle("assistant", {"type": "command", "text": "rotate 270"})
    assert hub.document.pixels().shape == (80, 60, 3)  # executed at full resolution
    hub.handle("assistant", {"type": "command", "text": "adjust_attr brightness 40"})
    hub.handle("assistant", {"type": "command", "text": "undo"})
    # refused requests are answered with an error and not recorded
    for who, req in (("user", {"type": "command", "text": "rotate 90"}),
                     ("assistant", {"type": "command", "text": "rotate 400"}),
                     ("assistant", {"type": "command", "text": "crop 500 500 900 900"}),
                     ("assistant", {"type": "bogus"}),
                     ("assistant", {"type": "chat", "text": "   "})):
        assert [m["type"] for m in messages(hub.handle(who, req), who)] == ["error"]
    hub.handle("user", {"type": "end"})

    events = hub.recorder.events()
    commands = [e.text for e in events if e.kind == "command"]
    assert commands == ["search red umbrella", "rotate 270", "adjust_attr brightness 40", "undo"]
    assert [e.annotator for e in events if e.kind == "command"] == ["bob"] * 4
    assert hub.recorder.session.status == "done"
    instances = exports.caise_instances(ann)
    assert [i["api"] for i in instances] == ["search red umbrella", "rotate 270", "adjust_attr brightness 40"]
    assert instances[1]["history_utte"][-3:] == [
        "search red umbrella", "image_load: 1", "user_text: rotate it clockwise 90"]
    assert instances[1]["history_img"] == [f" {hub.session_name}_image_1"]
    assert "user_text: rotate it clockwise 90" in instances[1]["history_utte"]
    for inst in instances:
        parse_command(inst["api"])


def test_hub_resumes_the_open_dialogue_after_a_restart(ann, library):
    hub = DialogueHub(ann, library, rng=random.Random(1))
    hub.connect("assistant", "bob")
    hub.handle("assistant", {"type": "load", "name": "astronaut"})
    hub.handle("assistant", {"type": "command", "text": "flip horizontal"})
    before = hub.document.pixels().copy()
    name = hub.session_name

    hub2 = DialogueHub(ann, library)  # as if the host process had been killed and restarted
    assert hub2.session_name == name
    assert np.array_equal(hub2.document.pixels(), before)
    state = messages(hub2.connect("user", "ann"), "user")[0]
    assert [e["kind"] for e in state["events"]] == ["image_load", "command", "image_load"]
    assert state["image"]["size"] == [before.shape[1], before.shape[0]]
    hub2.connect("assistant", "bob")
    hub2.handle("assistant", {"type": "command", "text": "undo"})
    assert hub2.document.head.command is None


def test_windows_in_one_process_record_a_dialogue(qtbot, ann, library):
    from PySide6.QtCore import QPoint, Qt

    from app.annotator.dialogue_window import AssistantWindow, UserWindow
    from app.annotator.net import HubServer
    from app.annotator.widgets import fit_rect

    server = HubServer(DialogueHub(ann, library, rng=random.Random(2)))
    user = UserWindow(server.local_client(), "ann")
    assistant = AssistantWindow(server.local_client(), "bob")
    qtbot.addWidget(user)
    qtbot.addWidget(assistant)
    qtbot.waitUntil(lambda: user.seed_list.count() == 3 and assistant.peers == ["assistant", "user"],
                    timeout=5000)
    assert user.suggestions.count() == 4

    qtbot.keyClicks(user.chat.input, "find me a coffee cup")
    qtbot.keyClick(user.chat.input, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: any("coffee cup" in line for line in assistant.chat.lines()), timeout=5000)
    qtbot.keyClicks(assistant.search_box, "coffee")
    assistant.search_button.click()
    qtbot.waitUntil(lambda: assistant.results.count() == 3, timeout=5000)
    assert assistant.results.currentItem().text() == "coffee_cup"
    assistant.load_button.click()
    qtbot.waitUntil(lambda: user.view.pixmap is not None and assistant.view.pixmap is not None, timeout=5000)

    assistant.brightness.setValue(25)
    assistant.apply_brightness.click()
    assistant.color_buttons["blue"].click()
    assistant.crop_button.click()
    assert assistant.view.mode == "crop"
    w, h = assistant.view.full_size
    # a drag over the middle of the picture crops the middle of the full-resolution image
    view = assistant.view
    ox, oy, s = fit_rect(view.pixmap.width(), view.pixmap.height(), view.width(), view.height())
    p0 = QPoint(int(ox + view.pixmap.width() * s * 0.25), int(oy + view.pixmap.height() * s * 0.25))
    p1 = QPoint(int(ox + view.pixmap.width() * s * 0.75), int(oy + view.pixmap.height() * s * 0.75))
    qtbot.mousePress(view, Qt.MouseButton.LeftButton, pos=p0)
    qtbot.mouseMove(view, p1)
    qtbot.mouseRelease(view, Qt.MouseButton.LeftButton, pos=p1)
    qtbot.waitUntil(lambda: any(line.startswith("⚙ crop") for line in user.chat.lines()), timeout=5000)
    assert not assistant.crop_button.isChecked()
    assistant.undo_button.click()
    qtbot.waitUntil(lambda: any(line == "⚙ undo" for line in user.chat.lines()), timeout=5000)

    commands = [e.text for e in server.hub.recorder.events("command")]
    assert commands[:3] == ["search coffee", "adjust_attr brightness 25", "adjust_color blue 0.3"]
    x1, y1, x2, y2 = (int(v) for v in commands[3].split()[1:])
    assert abs(x1 - w / 4) <= 3 and abs(x2 - 3 * w / 4) <= 3 and abs(y1 - h / 4) <= 3 and abs(y2 - 3 * h / 4) <= 3
    assert commands[4] == "undo"
    assert server.hub.document.head.command == "adjust_color blue 0.3"
    user.end_button.click()
    qtbot.waitUntil(lambda: assistant.ended, timeout=5000)
    server.close()


@pytest.mark.timeout(60)
def test_two_ends_over_tcp_on_loopback(qtbot, ann, library, no_network):
    from PySide6.QtNetwork import QAbstractSocket

    from app.annotator.dialogue_window import AssistantWindow, UserWindow
    from app.annotator.net import HubServer, TcpLink

    db = ann.store.path
    # as the app runs it: the hub and its own database connection in a worker thread
    server = HubServer(factory=lambda: DialogueHub(AnnotationStore(Store(db)), library,
                                                   rng=random.Random(3)))
    port = server.listen("127.0.0.1", 0)
    assistant = AssistantWindow(server.local_client(), "bob")  # the host's own window
    link = TcpLink()
    user = UserWindow(link, "ann")  # the other machine's window
    qtbot.addWidget(assistant)
    qtbot.addWidget(user)
    link.connect_to("127.0.0.1", port)
    qtbot.waitUntil(lambda: user.seed_list.count() == 3, timeout=10000)
    user.chat.sent.emit("make it brighter please")
    qtbot.waitUntil(lambda: any("brighter" in line for line in assistant.chat.lines()), timeout=10000)
    assistant.link.send({"type": "load", "name": "astronaut"})
    qtbot.waitUntil(lambda: user.view.pixmap is not None, timeout=10000)
    assistant.brightness.setValue(30)
    assistant.apply_brightness.click()
    qtbot.waitUntil(lambda: "⚙ adjust_attr brightness 30" in user.chat.lines(), timeout=10000)

    # a second user is refused; the first one stays connected
    intruder = TcpLink()
    errors = []
    intruder.received.connect(errors.append)
    intruder.opened.connect(lambda: intruder.send({"type": "hello", "role": "user", "annotator": "eve"}))
    intruder.connect_to("127.0.0.1", port)
    qtbot.waitUntil(lambda: bool(errors), timeout=10000)
    assert errors[0]["type"] == "error" and "already taken" in errors[0]["text"]
    # the refused connection is closed: nothing it sends afterwards is read (issue 32)
    qtbot.waitUntil(lambda: intruder.socket.state() == QAbstractSocket.SocketState.UnconnectedState,
                    timeout=10000)
    # garbage on the wire gets an error, not a crash
    other = TcpLink()
    other.received.connect(errors.append)
    other.opened.connect(lambda: other.socket.write(b"this is not json\n"))
    other.connect_to("127.0.0.1", port)
    qtbot.waitUntil(lambda: len(errors) >= 2, timeout=10000)
    assert errors[1]["type"] == "error"
    other.close()

    link.close()
    qtbot.waitUntil(lambda: assistant.peers == ["assistant"], timeout=10000)
    server.close()
    intruder.close()
    (session,) = ann.sessions("dialogue")  # read back through another connection
    events = ann.events(session.id)
    assert [e.kind for e in events if e.kind != "seed"] == ["user_text", "image_load", "command", "image_load"]
    assert events[1].annotator == "ann"


def test_line_buffer_splits_and_rejects():
    from app.annotator.net import LineBuffer, encode, parse_address

    buf = LineBuffer(max_line=100)
    data = encode({"type": "chat", "text": "hi"}) + b'{"type": "x"'
    assert buf.feed(data) == [{"type": "chat", "text": "hi"}]
    assert buf.feed(b"}\n") == [{"type": "x"}]
    out = LineBuffer(max_line=10).feed(b"x" * 50)
    assert isinstance(out[0], ValueError)
    out = LineBuffer().feed(b"[1, 2]\nnot json\n" + json.dumps({"type": "ok"}).encode() + b"\n")
    assert isinstance(out[0], ValueError) and isinstance(out[1], ValueError) and out[2] == {"type": "ok"}
    assert parse_address("192.168.1.5:9000") == ("192.168.1.5", 9000)
    assert parse_address("hostname") == ("hostname", 8765)
    with pytest.raises(ValueError, match="port"):
        parse_address("host:99999")
    with pytest.raises(ValueError, match="no host"):
        parse_address(":80")


@pytest.mark.timeout(60)
def test_a_joined_window_rejoins_a_restarted_host_and_the_dialogue_resumes(qtbot, ann, library):
    from app.annotator.dialogue_window import UserWindow
    from app.annotator.net import HubServer, TcpLink

    db = ann.store.path

    def host():
        return HubServer(factory=lambda: DialogueHub(AnnotationStore(Store(db)), library))

    first = host()
    port = first.listen("127.0.0.1", 0)
    link = TcpLink(reconnect_ms=100)
    user = UserWindow(link, "ann")
    qtbot.addWidget(user)
    link.connect_to("127.0.0.1", port)
    qtbot.waitUntil(lambda: user.connected, timeout=10000)
    name = user.session_name
    user.chat.sent.emit("before the crash")
    qtbot.waitUntil(lambda: "You: before the crash" in user.chat.lines(), timeout=10000)
    first.close()  # the host goes away
    qtbot.waitUntil(lambda: not user.connected, timeout=10000)

    second = host()
    second.listen("127.0.0.1", port)
    qtbot.waitUntil(lambda: user.connected, timeout=10000)
    assert user.session_name == name and "You: before the crash" in user.chat.lines()
    user.chat.sent.emit("after the restart")
    qtbot.waitUntil(lambda: "You: after the restart" in user.chat.lines(), timeout=10000)
    link.close()
    second.close()
    (session,) = ann.sessions("dialogue")
    assert [e.text for e in ann.events(session.id, "user_text")] == ["before the crash", "after the restart"]


def test_an_ended_dialogue_takes_no_more_turns_until_a_new_one(ann, library):
    if CAISE_VALID.exists():
        exports.import_caise(ann, exports.load_caise(CAISE_VALID)[:10])
    hub = DialogueHub(ann, library, rng=random.Random(5))
    assert not hub.session_name.startswith("md_")  # imported dialogues are never resumed
    hub.connect("user", "ann")
    hub.connect("assistant", "bob")
    hub.handle("user", {"type": "chat", "text": "hello"})
    hub.handle("assistant", {"type": "end"})
    out = hub.handle("user", {"type": "chat", "text": "still there?"})
    assert [m["type"] for m in messages(out, "user")] == ["error"]
    first = hub.session_name
    out = hub.handle("user", {"type": "new"})
    states = [o for o in out if o.msg["type"] == "state"]
    assert {o.to for o in states} == {"user", "assistant"}
    assert hub.session_name != first and states[0].msg["events"] == []
    hub.handle("user", {"type": "chat", "text": "a new request"})
    assert len([s for s in ann.sessions("dialogue") if not s.meta.get("format")]) == 2


def test_fixed_seeds_make_the_same_item(ann, library):
    a = DialogueHub(ann, library, resume=False, seeds=["astronaut", "coffee_cup"])
    b = DialogueHub(ann, library, resume=False, seeds=["astronaut", "coffee_cup"])
    assert a.recorder.session.item == b.recorder.session.item == "seeds:astronaut|coffee_cup"
    with pytest.raises(ValueError, match="not in"):
        DialogueHub(ann, library, seeds=["unicorn"])


def test_export_writes_the_dialogue_images_and_their_concepts(ann, library, tmp_path, no_network):
    import main

    hub = DialogueHub(ann, library, rng=random.Random(6))
    hub.connect("assistant", "bob")
    hub.handle("assistant", {"type": "search", "words": "astronaut"})
    hub.handle("assistant", {"type": "load", "name": "astronaut"})
    hub.handle("assistant", {"type": "command", "text": "flip horizontal"})
    images, out = tmp_path / "imgs", tmp_path / "export" / "d.json"
    out.parent.mkdir()
    args = ["annotate", "export", "--format", "caise", str(out), "--db", str(ann.store.path),
            "--images", str(images), "--concepts", "--all-commands"]
    assert main.main(args) == 0
    name = hub.session_name
    assert sorted(p.name for p in images.iterdir()) == [f"{name}_image_1.png", f"{name}_image_2.png"]
    # CAISE's layout: a list of phrase lists and an id -> index map, beside the data file
    concepts = json.loads((out.parent / "image_concept.json").read_text())
    id2idx = json.loads((out.parent / "image_h5_id2idx.json").read_text())
    assert set(id2idx) == {f"{name}_image_1", f"{name}_image_2"}
    assert any(c.endswith(" person") for c in concepts[id2idx[f"{name}_image_1"]])
    last_image = json.loads(out.read_text())[-1]["history_img"][-1]
    assert last_image.strip() in id2idx
    assert main.main(args) == 2  # never overwrites concept files


@pytest.mark.timeout(60)
def test_cli_host_and_join_windows_meet_on_loopback(qtbot, tmp_path, library, no_network):
    import main
    from app.annotator.run import open_host, open_join

    db = str(tmp_path / "cli" / "easel.db")
    parser = main.build_parser()
    host_args = parser.parse_args(["annotate", "host", "--port", "0", "--bind", "127.0.0.1", "--db", db,
                                   "--images", str(library.folder), "--annotator", "bob",
                                   "--seeds", "astronaut,red_umbrella"])
    server, assistant, port = open_host(host_args)
    qtbot.addWidget(assistant)
    join_args = parser.parse_args(["annotate", "join", f"127.0.0.1:{port}", "--role", "user",
                                   "--annotator", "ann"])
    link, user = open_join(join_args)
    qtbot.addWidget(user)
    qtbot.waitUntil(lambda: user.connected and assistant.peers == ["assistant", "user"], timeout=10000)
    assert sorted(user.seed_list.item(i).text() for i in range(user.seed_list.count())) == \
        ["astronaut", "red_umbrella"]
    user.chat.sent.emit("hello from the other machine")
    qtbot.waitUntil(lambda: any("other machine" in line for line in assistant.chat.lines()), timeout=10000)
    link.close()
    server.close()
    with pytest.raises(ValueError, match="port"):
        open_join(parser.parse_args(["annotate", "join", "host:notaport", "--role", "user"]))


def test_cli_solo_opens_both_roles(qtbot, tmp_path, library):
    import main
    from app.annotator.run import open_solo

    args = main.build_parser().parse_args(["annotate", "solo", "--db", str(tmp_path / "s" / "easel.db"),
                                           "--images", str(library.folder), "--annotator", "sam"])
    server, user, assistant = open_solo(args)
    qtbot.addWidget(user)
    qtbot.addWidget(assistant)
    qtbot.waitUntil(lambda: user.connected and assistant.connected and user.seed_list.count() == 3,
                    timeout=10000)
    assistant.chat.sent.emit("How may I help you?")
    qtbot.waitUntil(lambda: "Assistant: How may I help you?" in user.chat.lines(), timeout=10000)
    server.close()


def test_library_search_uses_detected_phrases_and_caches_them(tmp_path, library):
    from app.annotator.hub import ImageLibrary

    calls = []

    def describe(pixels):
        calls.append(pixels.shape)
        return ["white person"] if pixels.shape[0] == 128 else ["brown table"]

    cache = tmp_path / "lib.json"
    lib = ImageLibrary(library.folder, describe=describe, cache=cache)
    assert lib.search("person")[0] == "astronaut"  # found by what is in it, not by its name
    assert lib.search("red umbrella")[0] == "red_umbrella"
    assert len(calls) == 3
    again = ImageLibrary(library.folder, describe=describe, cache=cache)
    assert again.search("table")[0] in ("coffee_cup", "red_umbrella")
    assert len(calls) == 3  # read back from the cache, not recomputed
    cache.write_text("{broken")
    assert ImageLibrary(library.folder, describe=describe, cache=cache).search("person")[0] == "astronaut"
