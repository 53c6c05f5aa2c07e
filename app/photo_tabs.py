"""The tab bar above the canvas: the photos open in this conversation, beside each other.

A search opens what it finds beside the photo being edited, never in its place; each photo keeps
its own versions. Clicking a tab shows that photo (one undo entry, like "go back to the previous
photo" typed in the chat). The bar hides while only one photo is open. It only emits: the
controller switches.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QTabBar


class PhotoTabs(QTabBar):
    photoChosen = Signal(int)  # the index of the photo clicked, in the order they were opened

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setDocumentMode(True)
        self.setExpanding(False)
        self.setElideMode(self.elideMode().ElideMiddle)
        self._updating = False
        self.currentChanged.connect(self._changed)
        self.hide()

    def set_photos(self, photos: list, current) -> None:
        """Show ``photos`` (documents, in the order opened) with ``current`` selected; hidden for one."""
        self._updating = True
        try:
            while self.count() > len(photos):
                self.removeTab(self.count() - 1)
            for i, doc in enumerate(photos):
                edits = len(doc.lineage()) - 1
                text = Path(doc.title).name + (f" ({edits})" if edits else "")
                if i < self.count():
                    self.setTabText(i, text)
                else:
                    self.addTab(text)
                self.setTabToolTip(i, f"{Path(doc.title).name}: {edits} edit{'s' if edits != 1 else ''}")
            index = next((i for i, d in enumerate(photos) if d is current), -1)
            if index >= 0:
                self.setCurrentIndex(index)
        finally:
            self._updating = False
        self.setVisible(len(photos) > 1)

    def names(self) -> list[str]:
        return [self.tabText(i) for i in range(self.count())]

    def _changed(self, index: int) -> None:
        if not self._updating and index >= 0:
            self.photoChosen.emit(index)
