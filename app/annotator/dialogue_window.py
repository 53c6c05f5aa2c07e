"""The two windows of a paired dialogue: the user's (seed images, suggested requests, chat) and the
assistant's (a tool panel for every command, crop by dragging, search results, chat).

Windows only talk to the hub through a :class:`~app.annotator.net.Link` and draw what it sends; the
tool panel builds each command with :mod:`agent.grammar.commands`, so what is recorded is exactly the command
line the hub executed.
"""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import (
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMainWindow,
    QPushButton,
    QScrollArea,
    QSlider,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from agent.grammar.commands import (
    AdjustAttr,
    AdjustColor,
    Command,
    Crop,
    Flip,
    ImageCutout,
    Redo,
    Rotate,
    Undo,
)
from app.annotator.net import Link
from app.annotator.widgets import ChatPane, ImageView, pixmap_from_b64
from editor.colors import COLORS


class DialogueWindow(QMainWindow):
    """What both roles share: the link, the chat, the current image, the status line."""

    role = ""

    def __init__(self, link: Link, annotator: str):
        super().__init__()
        self.link = link
        self.annotator = annotator
        self.session_name = ""
        self.ended = False
        self.connected = False
        self.peers: list[str] = []
        self.chat = ChatPane(self.role)
        self.view = ImageView()
        self.view.placeholder = "No image yet: the assistant searches for one"
        self.chat.sent.connect(lambda text: self.link.send({"type": "chat", "text": text}))
        link.opened.connect(self._hello)
        link.received.connect(self.on_message)
        link.closed.connect(self._closed)
        self.resize(1200, 760)
        self.statusBar().showMessage("connecting…")

    def _hello(self) -> None:
        self.link.send({"type": "hello", "role": self.role, "annotator": self.annotator})
        self.statusBar().showMessage("connected; waiting for the hub")

    def _closed(self, reason: str) -> None:
        self.statusBar().showMessage(f"disconnected: {reason}")
        if self.connected:  # once per loss, not once per reconnection attempt
            self.connected = False
            self.chat.add_note(f"Connection lost ({reason}). Everything up to here is saved.")

    def _update_title(self) -> None:
        partner = [r for r in self.peers if r != self.role]
        who = f"partner: {partner[0]} connected" if partner else "waiting for the partner"
        self.setWindowTitle(f"Easel annotator — {self.role} ({self.annotator}) — {self.session_name}")
        self.statusBar().showMessage(who + (" — dialogue ended" if self.ended else ""))

    def on_message(self, msg: dict) -> None:
        kind = msg.get("type")
        if kind == "state":
            self.connected = True
            self.session_name = msg.get("name", "")
            self.ended = bool(msg.get("ended"))
            self.chat.clear()
            for ev in msg.get("events", []):
                self.chat.add_event(ev)
            self.view.set_image(None)
            if msg.get("image"):
                self._show_image(msg["image"])
            self.on_state(msg)
            self._update_title()
        elif kind == "event":
            ev = msg["event"]
            self.chat.add_event(ev)
            if ev.get("kind") == "end":
                self.ended = True
                self._update_title()
            self.on_event(ev)
        elif kind == "image":
            self._show_image(msg)
        elif kind == "peer":
            self.peers = msg.get("roles", [])
            self._update_title()
        elif kind == "error":
            self.chat.add_note(msg.get("text", "error"))
            self.statusBar().showMessage(msg.get("text", "error"), 8000)
        elif kind == "results":
            self.on_results(msg)

    def _show_image(self, msg: dict) -> None:
        self.view.set_image(pixmap_from_b64(msg["png"]), tuple(msg["size"]))
        self.image_id = msg.get("id")

    def on_state(self, msg: dict) -> None:
        pass

    def on_event(self, ev: dict) -> None:
        pass

    def on_results(self, msg: dict) -> None:
        pass

    def _session_buttons(self) -> QWidget:
        box = QWidget()
        row = QHBoxLayout(box)
        row.setContentsMargins(0, 0, 0, 0)
        self.end_button = QPushButton("End dialogue")
        self.new_button = QPushButton("New dialogue")
        self.end_button.clicked.connect(lambda: self.link.send({"type": "end"}))
        self.new_button.clicked.connect(lambda: self.link.send({"type": "new"}))
        row.addWidget(self.end_button)
        row.addWidget(self.new_button)
        return box


class UserWindow(DialogueWindow):
    """The user annotator: looks at seed images and suggestions, asks for edits in words."""

    role = "user"

    def __init__(self, link: Link, annotator: str):
        super().__init__(link, annotator)
        self.seed_list = QListWidget()
        self.seed_list.setViewMode(QListWidget.ViewMode.IconMode)
        self.seed_list.setIconSize(QSize(200, 150))
        self.seed_list.setMovement(QListWidget.Movement.Static)
        self.seed_list.setFixedWidth(240)
        self.suggestions = QListWidget()
        self.suggestions.setWordWrap(True)
        self.suggestions.setFixedWidth(240)
        left = QWidget()
        col = QVBoxLayout(left)
        col.addWidget(QLabel("<b>Seed images</b>: ideas for what to look for"))
        col.addWidget(self.seed_list, 3)
        col.addWidget(QLabel("<b>Try asking for</b>"))
        col.addWidget(self.suggestions, 2)
        right = QWidget()
        rcol = QVBoxLayout(right)
        rcol.addWidget(self.chat)
        rcol.addWidget(self._session_buttons())
        self.chat.input.setPlaceholderText("Ask the assistant, e.g. 'find me a picture of a red umbrella'")
        splitter = QSplitter()
        splitter.addWidget(left)
        splitter.addWidget(self.view)
        splitter.addWidget(right)
        splitter.setSizes([250, 600, 350])
        self.setCentralWidget(splitter)

    def on_state(self, msg: dict) -> None:
        self.seed_list.clear()
        for seed in msg.get("seeds", []):
            item = QListWidgetItem(QIcon(pixmap_from_b64(seed["png"])), seed["name"])
            self.seed_list.addItem(item)
        self.suggestions.clear()
        for s in msg.get("suggestions", []):
            self.suggestions.addItem(QListWidgetItem("• " + s["hint"]))


class AssistantWindow(DialogueWindow):
    """The assistant annotator: answers in words and edits with tools, one recorded command each."""

    role = "assistant"

    def __init__(self, link: Link, annotator: str):
        super().__init__(link, annotator)
        self.last_command = QLabel("Last command: —")
        self.last_command.setWordWrap(True)
        tools = self._tool_panel()
        scroll = QScrollArea()
        scroll.setWidget(tools)
        scroll.setWidgetResizable(True)
        scroll.setMinimumWidth(400)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        right = QWidget()
        rcol = QVBoxLayout(right)
        rcol.addWidget(self.chat)
        rcol.addWidget(self._session_buttons())
        self.chat.input.setPlaceholderText("Answer the user, e.g. 'Here is one, is it good?'")
        splitter = QSplitter()
        splitter.addWidget(scroll)
        splitter.addWidget(self.view)
        splitter.addWidget(right)
        splitter.setSizes([410, 480, 320])
        self.setCentralWidget(splitter)
        self.view.cropped.connect(lambda x1, y1, x2, y2: self.run(Crop(x1, y1, x2, y2)))

    # -- the tool panel --------------------------------------------------------------------------

    def _slider(self, lo: int, hi: int, value: int, suffix: str = "") -> tuple[QSlider, QLabel]:
        slider = QSlider(Qt.Orientation.Horizontal)
        slider.setRange(lo, hi)
        slider.setValue(value)
        label = QLabel(f"{value}{suffix}")
        label.setMinimumWidth(44)
        slider.valueChanged.connect(lambda v: label.setText(f"{v}{suffix}"))
        return slider, label

    def _tool_panel(self) -> QWidget:
        panel = QWidget()
        col = QVBoxLayout(panel)

        box = QGroupBox("Search")
        g = QVBoxLayout(box)
        row = QHBoxLayout()
        self.search_box = QLineEdit(placeholderText="words to search for")
        self.search_button = QPushButton("Search")
        row.addWidget(self.search_box)
        row.addWidget(self.search_button)
        g.addLayout(row)
        self.results = QListWidget()
        self.results.setViewMode(QListWidget.ViewMode.IconMode)
        self.results.setIconSize(QSize(96, 72))
        self.results.setMovement(QListWidget.Movement.Static)
        self.results.setMinimumHeight(170)
        self.load_button = QPushButton("Load selected image")
        g.addWidget(self.results)
        g.addWidget(self.load_button)
        self.search_box.returnPressed.connect(self.search)
        self.search_button.clicked.connect(self.search)
        self.results.itemActivated.connect(lambda _item: self.load_selected())
        self.load_button.clicked.connect(self.load_selected)
        col.addWidget(box)

        box = QGroupBox("Adjust")
        grid = QGridLayout(box)
        self.brightness, bl = self._slider(-100, 100, 0)
        self.contrast, cl = self._slider(-100, 100, 0)
        self.rotation, rl = self._slider(0, 359, 90, "°")
        self.apply_brightness = QPushButton("Apply")
        self.apply_contrast = QPushButton("Apply")
        self.apply_rotation = QPushButton("Apply")
        for r, (name, s, lab, b) in enumerate((("Brightness", self.brightness, bl, self.apply_brightness),
                                                ("Contrast", self.contrast, cl, self.apply_contrast),
                                                ("Rotate (ccw)", self.rotation, rl, self.apply_rotation))):
            grid.addWidget(QLabel(name), r, 0)
            grid.addWidget(s, r, 1)
            grid.addWidget(lab, r, 2)
            grid.addWidget(b, r, 3)
        self.apply_brightness.clicked.connect(
            lambda: self.run(AdjustAttr("brightness", self.brightness.value())))
        self.apply_contrast.clicked.connect(lambda: self.run(AdjustAttr("contrast", self.contrast.value())))
        self.apply_rotation.clicked.connect(lambda: self.run(Rotate(self.rotation.value())))
        col.addWidget(box)

        box = QGroupBox("Colour")
        g = QGridLayout(box)
        self.intensity, il = self._slider(1, 100, 30, "%")
        g.addWidget(QLabel("Intensity"), 0, 0)
        g.addWidget(self.intensity, 0, 1, 1, 3)
        g.addWidget(il, 0, 4)
        self.color_buttons: dict[str, QPushButton] = {}
        for i, (name, rgb) in enumerate(COLORS.items()):
            b = QPushButton(name)
            text = "#000000" if sum(rgb) > 380 else "#ffffff"
            b.setStyleSheet(f"background-color: rgb{tuple(rgb)}; color: {text};")
            b.clicked.connect(lambda _=False, c=name: self.run(AdjustColor(c, self.intensity.value() / 100)))
            self.color_buttons[name] = b
            g.addWidget(b, 1 + i // 3, i % 3)
        col.addWidget(box)

        box = QGroupBox("Tools")
        g = QGridLayout(box)
        self.cutout_button = QPushButton("Cut out subject")
        self.flip_h_button = QPushButton("Flip ↔")
        self.flip_v_button = QPushButton("Flip ↕")
        self.crop_button = QPushButton("Crop: drag on image")
        self.crop_button.setCheckable(True)
        self.undo_button = QPushButton("Undo")
        self.redo_button = QPushButton("Redo")
        for i, b in enumerate((self.cutout_button, self.crop_button, self.flip_h_button, self.flip_v_button,
                               self.undo_button, self.redo_button)):
            g.addWidget(b, i // 2, i % 2)
        self.cutout_button.clicked.connect(lambda: self.run(ImageCutout()))
        self.flip_h_button.clicked.connect(lambda: self.run(Flip("horizontal")))
        self.flip_v_button.clicked.connect(lambda: self.run(Flip("vertical")))
        self.undo_button.clicked.connect(lambda: self.run(Undo()))
        self.redo_button.clicked.connect(lambda: self.run(Redo()))
        self.crop_button.toggled.connect(lambda on: self.view.set_mode("crop" if on else "none"))
        col.addWidget(box)
        col.addWidget(self.last_command)
        col.addStretch(1)
        return panel

    # -- actions ---------------------------------------------------------------------------------

    def run(self, command: Command) -> None:
        """Send one tool action as its command line; the hub executes and records it."""
        self.link.send({"type": "command", "text": command.format()})
        self.statusBar().showMessage(f"running {command.format()}…")
        if isinstance(command, Crop):
            self.crop_button.setChecked(False)

    def search(self) -> None:
        words = self.search_box.text().strip()
        if words:
            self.link.send({"type": "search", "words": words})

    def load_selected(self) -> None:
        item = self.results.currentItem()
        if item is not None:
            self.link.send({"type": "load", "name": item.data(Qt.ItemDataRole.UserRole)})

    def on_results(self, msg: dict) -> None:
        self.results.clear()
        for r in msg.get("items", []):
            item = QListWidgetItem(QIcon(pixmap_from_b64(r["png"])), r["name"])
            item.setData(Qt.ItemDataRole.UserRole, r["name"])
            self.results.addItem(item)
        if self.results.count():
            self.results.setCurrentRow(0)

    def on_event(self, ev: dict) -> None:
        if ev.get("kind") == "command":
            self.last_command.setText(f"Last command: <code>{ev.get('text')}</code>")
            self._update_title()

    def on_state(self, msg: dict) -> None:
        commands = [e for e in msg.get("events", []) if e.get("kind") == "command"]
        self.last_command.setText(f"Last command: <code>{commands[-1]['text']}</code>" if commands
                                  else "Last command: —")
        self.results.clear()
