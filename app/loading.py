"""Loading the models in a worker while the window is already on screen, and naming them in words.

No Qt here: :func:`load_models_job` is what the controller's model worker runs.
"""

from __future__ import annotations

import contextlib

from agent.dialogue.manager import GrammarParser
from editor.models import ModelMissingError

PARSER_WORDS = {
    "CommandModelParser": "learned command model (plain English)",
    "GrammarParser": "commands only (the learned model is not installed)",
}


# Native libraries whose import holds the GIL for long stretches (loading large shared objects;
# torch for the command model). Imported by the model-loading worker after the window is on
# screen (Controller.load_models): the window may stutter while they load, but it is there within
# a second or two and takes requests meanwhile. rembg is not here: background removal runs in
# its own process (app/cutout.py).
HEAVY_MODULES = (
    "cv2", "onnxruntime", "agent.command_model",
    # what load_default_parser imports lazily: imported here in one go rather than piecemeal
    "transformers", "peft", "transformers.models.bert.modeling_bert", "safetensors.torch",
)


def preload_libraries(report=None) -> list[str]:
    """Import the heavy libraries now; returns the ones that are not installed."""
    import gc
    import importlib

    import cv2

    # OpenCV's own thread pool would compete with the GUI thread for the cores of a small machine;
    # the app already runs its slow work in parallel workers, so each OpenCV call uses one thread.
    cv2.setNumThreads(1)
    missing = []
    # The imports leave millions of long-lived objects. A full garbage collection walking them
    # holds the GIL for 377-436 ms (measured): the window froze that long whenever one ran, in
    # whichever thread. So no collection runs while they load (a few seconds: nothing much is
    # freed meanwhile), and then they are frozen, out of the collector's sight; objects made later
    # are collected as usual.
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        for name in HEAVY_MODULES:
            if report is not None:
                report(f"Loading {name}…")
            try:
                importlib.import_module(name)
            except ImportError:
                missing.append(name)
    finally:
        gc.freeze()
        if was_enabled:
            gc.enable()
    return missing


def parser_words(parser) -> str:
    """The status bar's name for a command parser, in words rather than a class name."""
    return PARSER_WORDS.get(type(parser).__name__, "learned command model")


def load_models_job(worker, document):
    """Import the heavy libraries and load the command model, the text encoder and the library, then
    perceive ``document`` (opened while they loaded: requests may be waiting for it).

    Returns ``(parser, library, explain, trace_caption, concepts by pixel digest)``, or None when the
    worker was cancelled. Progress goes to ``worker.progress`` in words.
    """
    worker.progress(5, "Loading the language libraries (PyTorch, Transformers)…")
    preload_libraries(lambda text: None)
    if worker.cancelled:
        return None
    worker.progress(50, "Loading the command model…")
    from agent import explain
    from agent.describe import caption as trace_caption
    from agent.dialogue.assistant import load_parser
    from agent.learned import referent_colour
    from agent.search.library import Library

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
        from agent.perception.concepts import document_concepts

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
    from agent.perception.concepts import document_concepts

    concepts = document_concepts(doc)
    cache[doc.head.pixels] = concepts
    return concepts
