"""The history panel: every version of the document, with its thumbnail and the command that made it.

The line that redo would follow is one column; a version with more than one child (an edit made
after an undo) opens a branch nested under it. Clicking a version emits
:attr:`HistoryPanel.versionActivated`; the controller checks it out through the undo stack.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QIcon, QImage
from PySide6.QtWidgets import QAbstractItemView, QMenu, QTreeWidget, QTreeWidgetItem

from app.images import hidpi_pixmap
from app.labels import history_label

ICON = 48
VERSION_ROLE = Qt.ItemDataRole.UserRole


def branch_layout(children: dict[str | None, list[str]], root: str) -> list[tuple[str, int, str | None]]:
    """Lay a version tree out as rows ``(version, depth, parent_row_version)``.

    Pure helper: ``children`` maps a version to its children, oldest first. From each version the
    main line follows the newest child (what redo follows); older children start branches shown one
    level deeper under the version they branched from.

    >>> branch_layout({"a": ["b", "c"], "c": ["d"]}, "a")
    [('a', 0, None), ('b', 1, 'a'), ('c', 0, None), ('d', 0, None)]
    """
    rows: list[tuple[str, int, str | None]] = []

    def line(start: str, depth: int, parent: str | None) -> None:
        v: str | None = start
        while v is not None:
            rows.append((v, depth, parent))
            kids = children.get(v, [])
            for older in kids[:-1]:
                line(older, depth + 1, v)
            v = kids[-1] if kids else None

    line(root, 0, None)
    return rows


class HistoryPanel(QTreeWidget):
    versionActivated = Signal(str)
    compareRequested = Signal(str)  # compare the current version with this one

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setHeaderHidden(True)
        self.setIconSize(QSize(ICON, ICON))
        self.setIndentation(18)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setWordWrap(True)  # long commands wrap instead of being cut off
        self.itemClicked.connect(self._clicked)
        self.itemActivated.connect(self._clicked)
        self.items: dict[str, QTreeWidgetItem] = {}
        # Scaling every thumbnail and parsing every label again made a turn's cost grow with the
        # history (120 ms a turn at 250 versions in bench/soak.py): icons are kept by the thumbnail's
        # cache key, labels by the command, and rows are added rather than rebuilt (set_document).
        self._icons: dict[tuple[int, float], QIcon] = {}
        self._labels: dict[str | None, str] = {}
        self._document_id: int | None = None
        self._rows: list[tuple[str, int, str | None]] = []  # the layout shown, from branch_layout
        self._looks: dict[str, str] = {}  # version -> "head", "line" or "off", as styled
        self._no_icon: set[str] = set()  # rows whose thumbnail was not ready yet
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.customContextMenuRequested.connect(self._menu)

    def _menu(self, pos) -> None:
        item = self.itemAt(pos)
        vid = item.data(0, VERSION_ROLE) if item is not None else None
        if not vid:
            return
        menu = QMenu(self)
        menu.addAction("Go to this version", lambda: self.versionActivated.emit(vid))
        menu.addAction("Compare the current version with this one", lambda: self.compareRequested.emit(vid))
        menu.exec(self.viewport().mapToGlobal(pos))

    def _clicked(self, item: QTreeWidgetItem, column: int = 0) -> None:
        vid = item.data(0, VERSION_ROLE)
        if vid:
            self.versionActivated.emit(vid)

    def set_document(self, document, thumbnail: Callable[[object], QImage | None] | None = None) -> None:
        """Show a :class:`editor.document.Document` (``None`` empties the panel).

        After a turn the layout usually only grew at its end (a new version on the main line) or moved
        its head (undo, redo, checkout): then only the new rows are added and only the rows whose look
        changed are restyled, so a turn's cost does not grow with the history (bench/soak.py). A
        branch started in the middle moves the items it keeps (:meth:`_relayout`); another document
        rebuilds the tree."""
        if document is None or id(document) != self._document_id:
            self._icons, self._labels = {}, {}
            self._document_id = None if document is None else id(document)
            self._rows, self._looks, self._no_icon = [], {}, set()
            self.clear()
            self.items = {}
        if document is None:
            return
        children: dict[str | None, list[str]] = {}
        for v in sorted(document.versions.values(), key=lambda v: v.seq):
            children.setdefault(v.parent_id, []).append(v.id)
        rows = branch_layout(children, document.root.id)
        head = document.head.id
        on_line = {v.id for v in document.lineage()}
        if rows[:len(self._rows)] != self._rows:
            self._relayout(document, rows)
        else:
            for vid, _depth, branch_parent in rows[len(self._rows):]:
                self._add_item(document.versions[vid], branch_parent)
                self._no_icon.add(vid)
        if thumbnail is not None:  # thumbnails that were still loading the last time
            for vid in [vid for vid in self._no_icon if self._set_icon(vid, thumbnail(document.versions[vid]))]:
                self._no_icon.discard(vid)
        self._rows = rows
        for vid, item in self.items.items():
            look = "head" if vid == head else "line" if vid in on_line else "off"
            if self._looks.get(vid) != look:
                self._style(item, document.versions[vid], look)
                self._looks[vid] = look
        if head in self.items:
            self.setCurrentItem(self.items[head])
            self.scrollToItem(self.items[head])

    def _relayout(self, document, rows: list[tuple[str, int, str | None]]) -> None:
        """Lay the rows out again (an edit after an undo starts a branch in the middle: the old line
        moves one level in) with the items already made, detached and attached again in the new
        order: their icons, labels and looks stay; only new versions get new items."""
        kept = self.items
        for item in kept.values():
            item.takeChildren()
        while self.topLevelItemCount():
            self.takeTopLevelItem(0)
        self.items = {}
        for vid, _depth, branch_parent in rows:
            item = kept.get(vid)
            if item is None:
                self._add_item(document.versions[vid], branch_parent)
                self._no_icon.add(vid)
                continue
            parent_item = self.items.get(branch_parent) if branch_parent else None
            if parent_item is not None:
                parent_item.addChild(item)
                parent_item.setExpanded(True)
            else:
                self.addTopLevelItem(item)
            self.items[vid] = item
        gone = set(kept) - set(self.items)
        self._looks = {v: look for v, look in self._looks.items() if v not in gone}
        self._no_icon -= gone

    def _label(self, v) -> str:
        label = self._labels.get(v.command)
        if label is None:
            label = self._labels[v.command] = history_label(v.command)
        return label

    def _set_icon(self, vid: str, img: QImage | None) -> bool:
        if img is None:
            return False
        dpr = self.devicePixelRatioF()
        key = (img.cacheKey(), dpr)
        icon = self._icons.get(key)
        if icon is None:
            icon = self._icons[key] = QIcon(hidpi_pixmap(img, ICON, dpr))
        self.items[vid].setIcon(0, icon)
        return True

    def _add_item(self, v, branch_parent: str | None) -> None:
        item = QTreeWidgetItem([f"{v.seq}. {self._label(v)}"])
        item.setData(0, VERSION_ROLE, v.id)
        item.setToolTip(0, f"{v.command or 'the original'}\n{v.width}×{v.height}, {v.channels} channel(s), "
                           f"{v.dtype}")
        parent_item = self.items.get(branch_parent) if branch_parent else None
        if parent_item is not None:
            parent_item.addChild(item)
            parent_item.setExpanded(True)
        else:
            self.addTopLevelItem(item)
        self.items[v.id] = item

    def _style(self, item: QTreeWidgetItem, v, look: str) -> None:
        """The head in bold with a marker, versions off the current line in grey, the rest plain."""
        font = QFont(self.font())
        font.setBold(look == "head")
        item.setFont(0, font)
        item.setText(0, f"{v.seq}. {self._label(v)}" + ("   ◀" if look == "head" else ""))
        item.setForeground(0, QBrush(QColor(150, 150, 150)) if look == "off" else self.palette().text())
