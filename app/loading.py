"""Loading the models in a worker while the window is already on screen, and naming them in words.

No Qt here: :func:`load_models_job` is what the controller's model worker runs.
"""

from __future__ import annotations

import contextlib

from agent.dialogue import GrammarParser
from editor.models import ModelMissingError

PARSER_WORDS = {
    "CommandModelParser": "learned command model (plain English)",
    "GrammarParser": "commands only (the learned model is not installed)",
}


def parser_words(parser) -> str:
    """The status bar's name for a command parser, in words rather than a class name."""
    return PARSER_WORDS.get(type(parser).__name__, "learned command model")


def load_models_job(worker, document):
    """Import the heavy libraries and load the command model, the text encoder and the library, then
    perceive ``document`` (opened while they loaded: requests may be waiting for it).

    Returns ``(parser, library, explain, trace_caption, concepts by pixel digest)``, or None when the
    worker was cancelled. Progress goes to ``worker.progress`` in words.
    """
    from app.main import preload_libraries

    worker.progress(5, "Loading the language libraries (PyTorch, Transformers)…")
    preload_libraries(lambda text: None)
    if worker.cancelled:
        return None
    worker.progress(50, "Loading the command model…")
    from agent import explain, referent_colour, trace_caption
    from agent.assistant import load_parser
    from agent.library import Library

    parser = load_parser()
    if worker.cancelled:
        return None
    worker.progress(80, "Loading the text encoder…")
    with contextlib.suppress(ModelMissingError):
        referent_colour.warm()  # its text encoder, before the first "the colour of the sky"
    library = Library()  # the profile's library.db, made on first use as on the command line
    seen = {}
    if document is not None and not isinstance(parser, GrammarParser):
        # the command model reads the photo's concepts: perceive it now, not in the turn
        worker.progress(90, "Looking at the photo…")
        from agent.perception import document_concepts

        seen[document.head.pixels] = document_concepts(document)
    return parser, library, explain, trace_caption, seen


def nearest_concepts(doc, cache: dict[str, list[str]]) -> list[str]:
    """Concepts of ``doc``'s head for the command model, without perceiving inside the turn.

    Perceiving a 12-megapixel version takes about half a second; the app perceives each new version
    in a worker after its turn. Until that is done the turn uses the nearest ancestor's concepts
    (``cache``: pixel digest -> concepts): edits change them little, and the next turn gets the exact
    ones. Only a document never perceived is perceived here.
    """
    if doc is None:
        return []
    for v in reversed(doc.lineage()):
        if v.pixels in cache:
            return cache[v.pixels]
    from agent.perception import document_concepts

    concepts = document_concepts(doc)
    cache[doc.head.pixels] = concepts
    return concepts
