"""One place that assembles the whole assistant: the learned parser, perception and every handler.

The CLI's ``edit``, the app and scripts all call :func:`build_manager`, so a request means the same
thing everywhere.
"""

from __future__ import annotations

import os

from agent.dialogue.manager import CommandParser, DialogueManager, GrammarParser
from editor.document import Document


def load_parser() -> CommandParser:
    """The learned command model if it is installed, else the grammar-only parser."""
    try:
        from agent.command_model import load_default_parser
    except ImportError:
        return GrammarParser()
    return load_default_parser() or GrammarParser()


def build_manager(document: Document | None = None, *, parser: CommandParser | None = None,
                  library_path: str | os.PathLike | None = None, sample: bool = False,
                  store=None) -> DialogueManager:
    """A :class:`DialogueManager` that can search, edit, explain and describe.

    ``library_path`` is the photo library's database (default: the profile's); ``sample=True``
    indexes the bundled sample photos on the first search if the library is empty; a photo found
    by search opens as a new document in ``store`` (default: the current document's). The parser is
    loaded here unless given; pass one to share a loaded model between conversations.
    """
    from agent import explain
    from agent.describe import caption as trace_caption
    from agent.describe import questions
    from agent.perception.concepts import document_concepts
    from agent.search.library import register_path

    manager = DialogueManager(document, parser=parser or load_parser(), concepts=document_concepts)
    register_path(manager, library_path, sample=sample, **({"store": store} if store is not None else {}))
    explain.register(manager)
    trace_caption.register(manager)
    questions.register(manager)  # after the caption: a describe with a question is answered there
    return manager
