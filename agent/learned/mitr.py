"""MITR, the mirrored transformer of "Connecting What to Say With Where to Look by Modeling Human
Attention Traces" (Meng et al., CVPR 2021): one transformer for two mirrored tasks.

- Controlled caption generation: image region features + a trace (a sequence of boxes) -> words.
- Controlled trace generation: image region features + a caption -> a sequence of boxes.

The two directions share everything but their input embeddings and output heads: one encoder reads
the image regions together with the conditioning sequence (trace boxes, or words), one decoder
writes the target sequence (words, or boxes). The word embedding is the same matrix on both sides
(caption decoder input, trace encoder input, and the tied output layer), and so is the box
embedding; that is the mirror. The cycle loss ties the directions: the caption predicted from a
trace (as soft word embeddings, so gradients flow) must give back the trace, and the trace predicted
from a caption must give back the caption.

Like nanoGPT: a ``@dataclass`` config, ``forward(inputs, targets=None) -> (logits, loss)``, and
checkpoints in safetensors whose metadata carry the config and the vocabulary, so :func:`load`
rebuilds the model without importing ``training/``.
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path

import torch
import torch.nn as nn
import torch.nn.functional as F

PAD, BOS, EOS, UNK = 0, 1, 2, 3
SPECIALS = ["<pad>", "<bos>", "<eos>", "<unk>"]
_WORD = re.compile(r"[a-z0-9]+|[.,;]")


def words_of(text: str) -> list[str]:
    """Lower-case words and the punctuation . , ; (kept: they separate what a trace dwells on)."""
    return _WORD.findall(text.lower())


@dataclass
class Vocab:
    """Word <-> id; ids 0..3 are <pad> <bos> <eos> <unk>."""

    itos: list[str] = field(default_factory=lambda: list(SPECIALS))

    def __post_init__(self):
        self.stoi = {w: i for i, w in enumerate(self.itos)}

    @classmethod
    def build(cls, texts, min_count: int = 1, max_size: int | None = None) -> Vocab:
        counts: dict[str, int] = {}
        for t in texts:
            for w in words_of(t):
                counts[w] = counts.get(w, 0) + 1
        words = sorted((w for w, c in counts.items() if c >= min_count), key=lambda w: (-counts[w], w))
        if max_size is not None:
            words = words[: max(0, max_size - len(SPECIALS))]
        return cls(list(SPECIALS) + words)

    def __len__(self) -> int:
        return len(self.itos)

    def encode(self, text: str, max_len: int) -> list[int]:
        """``[BOS, w1, .., wn, EOS]`` cut to ``max_len`` tokens (EOS kept)."""
        ids = [self.stoi.get(w, UNK) for w in words_of(text)][: max_len - 2]
        return [BOS] + ids + [EOS]

    def decode(self, ids) -> str:
        out = []
        for i in ids:
            i = int(i)
            if i == EOS:
                break
            if i in (PAD, BOS):
                continue
            out.append(self.itos[i] if i < len(self.itos) else "<unk>")
        return re.sub(r" ([.,;])", r"\1", " ".join(out))


@dataclass
class MITRConfig:
    vocab_size: int = 1000
    feat_dim: int = 2048  # size of one image region feature
    d_model: int = 256
    n_heads: int = 4
    n_enc: int = 2
    n_dec: int = 2
    d_ff: int = 512
    dropout: float = 0.1
    max_words: int = 64  # caption tokens including <bos> and <eos>
    max_boxes: int = 48  # trace boxes
    max_regions: int = 64  # image regions
    cycle_weight: float = 0.1
    box_weight: float = 5.0  # L1 on normalised coordinates is small next to word cross-entropy


class MITR(nn.Module):
    def __init__(self, config: MITRConfig):
        super().__init__()
        c = self.config = config
        if c.d_model % c.n_heads:
            raise ValueError(f"d_model {c.d_model} must be a multiple of n_heads {c.n_heads}")
        self.region_proj = nn.Linear(c.feat_dim + 4, c.d_model)  # feature and its box
        self.word_emb = nn.Embedding(c.vocab_size, c.d_model, padding_idx=PAD)
        self.box_emb = nn.Sequential(nn.Linear(4, c.d_model), nn.ReLU(), nn.Linear(c.d_model, c.d_model))
        self.box_start = nn.Parameter(torch.zeros(c.d_model))
        self.pos_emb = nn.Embedding(max(c.max_words, c.max_boxes, c.max_regions) + 1, c.d_model)
        self.type_emb = nn.Embedding(3, c.d_model)  # 0 region, 1 box, 2 word
        enc = nn.TransformerEncoderLayer(c.d_model, c.n_heads, c.d_ff, c.dropout, batch_first=True,
                                         norm_first=True)
        dec = nn.TransformerDecoderLayer(c.d_model, c.n_heads, c.d_ff, c.dropout, batch_first=True,
                                         norm_first=True)
        self.encoder = nn.TransformerEncoder(enc, c.n_enc, enable_nested_tensor=False)
        self.decoder = nn.TransformerDecoder(dec, c.n_dec)
        self.norm = nn.LayerNorm(c.d_model)
        self.box_head = nn.Linear(c.d_model, 4)
        self.stop_head = nn.Linear(c.d_model, 1)
        self.drop = nn.Dropout(c.dropout)

    # -- pieces ------------------------------------------------------------------------------------

    def _pos(self, n: int, device) -> torch.Tensor:
        return self.pos_emb(torch.arange(n, device=device))

    def _regions(self, feats, feat_boxes) -> torch.Tensor:
        x = self.region_proj(torch.cat([feats, feat_boxes], dim=-1))
        return x + self.type_emb.weight[0]

    def _boxes_in(self, boxes) -> torch.Tensor:
        return self.box_emb(boxes) + self._pos(boxes.shape[1], boxes.device) + self.type_emb.weight[1]

    def _words_in(self, emb) -> torch.Tensor:
        return emb + self._pos(emb.shape[1], emb.device) + self.type_emb.weight[2]

    def _encode(self, regions, region_mask, seq, seq_mask) -> tuple[torch.Tensor, torch.Tensor]:
        x = self.drop(torch.cat([regions, seq], dim=1))
        pad = ~torch.cat([region_mask, seq_mask], dim=1)
        return self.encoder(x, src_key_padding_mask=pad), pad

    def _decode(self, tgt, memory, memory_pad, tgt_mask=None) -> torch.Tensor:
        n = tgt.shape[1]
        causal = torch.triu(torch.ones(n, n, dtype=torch.bool, device=tgt.device), 1)
        pad = None if tgt_mask is None else ~tgt_mask
        h = self.decoder(self.drop(tgt), memory, tgt_mask=causal, tgt_key_padding_mask=pad,
                         memory_key_padding_mask=memory_pad)
        return self.norm(h)

    def caption_logits(self, feats, feat_boxes, feat_mask, boxes, box_mask, words_in) -> torch.Tensor:
        """Word logits (B, L, V) for teacher-forced ``words_in`` ((B, L) ids, or (B, L, d) embeddings)."""
        mem, mpad = self._encode(self._regions(feats, feat_boxes), feat_mask, self._boxes_in(boxes), box_mask)
        emb = self.word_emb(words_in) if words_in.dtype == torch.long else words_in
        h = self._decode(self._words_in(emb), mem, mpad)
        return h @ self.word_emb.weight.T

    def trace_outputs(self, feats, feat_boxes, feat_mask, word_emb, word_mask, boxes_in):
        """Predicted boxes (B, N, 4) in 0..1 and stop logits (B, N), teacher-forced on ``boxes_in``
        (the true boxes; the decoder sees a start token and boxes 1..N-1)."""
        mem, mpad = self._encode(self._regions(feats, feat_boxes), feat_mask, self._words_in(word_emb),
                                 word_mask)
        b, n = boxes_in.shape[:2]
        start = self.box_start.expand(b, 1, -1)
        tgt = torch.cat([start, self.box_emb(boxes_in[:, :-1])], dim=1) if n > 1 else start
        tgt = tgt + self._pos(n, tgt.device) + self.type_emb.weight[1]
        h = self._decode(tgt, mem, mpad)
        return torch.sigmoid(self.box_head(h)), self.stop_head(h).squeeze(-1)

    # -- training ----------------------------------------------------------------------------------

    def forward(self, inputs: dict, targets: dict | None = None):
        """Both directions, teacher-forced.

        ``inputs``: ``feats`` (B, R, F), ``feat_boxes`` (B, R, 4), ``feat_mask`` (B, R) bool,
        ``boxes`` (B, N, 4) normalised trace boxes, ``box_mask`` (B, N) bool, ``words`` (B, L) ids
        ``[BOS .. EOS PAD..]``. ``targets`` (anything truthy, or a dict of loss weights) asks for the
        loss. Returns ``({"words": (B, L-1, V), "boxes": (B, N, 4), "stop": (B, N)}, loss or None)``;
        the loss parts are in ``self.last_losses``.
        """
        feats, fboxes, fmask = inputs["feats"], inputs["feat_boxes"], inputs["feat_mask"]
        boxes, bmask, words = inputs["boxes"], inputs["box_mask"], inputs["words"]
        wmask = words != PAD
        word_logits = self.caption_logits(feats, fboxes, fmask, boxes, bmask, words[:, :-1])
        pboxes, stop = self.trace_outputs(feats, fboxes, fmask, self.word_emb(words), wmask, boxes)
        logits = {"words": word_logits, "boxes": pboxes, "stop": stop}
        if not targets:
            return logits, None
        c = self.config
        ce = F.cross_entropy(word_logits.reshape(-1, word_logits.shape[-1]), words[:, 1:].reshape(-1),
                             ignore_index=PAD)
        m = bmask.unsqueeze(-1).float()
        l1 = (torch.abs(pboxes - boxes) * m).sum() / (m.sum() * 4).clamp(min=1)
        last = bmask.long().sum(1) - 1
        stop_t = torch.zeros_like(stop)
        stop_t[torch.arange(len(last)), last.clamp(min=0)] = 1.0
        bce = (F.binary_cross_entropy_with_logits(stop, stop_t, reduction="none") * bmask).sum() / bmask.sum()
        loss = ce + c.box_weight * l1 + bce
        parts = {"caption_ce": ce, "trace_l1": l1, "stop_bce": bce}
        if c.cycle_weight > 0:
            # trace -> caption -> trace: the predicted caption as soft word embeddings (BOS + predicted)
            probs = F.softmax(word_logits, dim=-1)
            soft = torch.cat([self.word_emb(words[:, :1]), probs @ self.word_emb.weight], dim=1)
            cyc_boxes, _ = self.trace_outputs(feats, fboxes, fmask, soft, wmask, boxes)
            cyc_l1 = (torch.abs(cyc_boxes - boxes) * m).sum() / (m.sum() * 4).clamp(min=1)
            # caption -> trace -> caption: the predicted trace in place of the true one
            cyc_logits = self.caption_logits(feats, fboxes, fmask, pboxes, bmask, words[:, :-1])
            cyc_ce = F.cross_entropy(cyc_logits.reshape(-1, cyc_logits.shape[-1]),
                                     words[:, 1:].reshape(-1), ignore_index=PAD)
            loss = loss + c.cycle_weight * (c.box_weight * cyc_l1 + cyc_ce)
            parts.update(cycle_l1=cyc_l1, cycle_ce=cyc_ce)
        self.last_losses = {k: float(v.detach()) for k, v in parts.items()}
        return logits, loss

    # -- generation --------------------------------------------------------------------------------

    @torch.no_grad()
    def generate_caption(self, feats, feat_boxes, feat_mask, boxes, box_mask, max_len: int | None = None):
        """Greedy captions (B, <=L) token ids for the traces ``boxes``."""
        max_len = max_len or self.config.max_words
        b = feats.shape[0]
        mem, mpad = self._encode(self._regions(feats, feat_boxes), feat_mask, self._boxes_in(boxes), box_mask)
        out = torch.full((b, 1), BOS, dtype=torch.long, device=feats.device)
        done = torch.zeros(b, dtype=torch.bool, device=feats.device)
        for _ in range(max_len - 1):
            h = self._decode(self._words_in(self.word_emb(out)), mem, mpad)
            nxt = (h[:, -1] @ self.word_emb.weight.T).argmax(-1)
            nxt = torch.where(done, torch.full_like(nxt, PAD), nxt)
            out = torch.cat([out, nxt[:, None]], dim=1)
            done |= nxt == EOS
            if done.all():
                break
        return out

    @torch.no_grad()
    def generate_trace(self, feats, feat_boxes, feat_mask, words, max_boxes: int | None = None):
        """Boxes for captions ``words`` ((B, L) ids): a list of (n_i, 4) tensors, stopping when the
        stop head says so."""
        max_boxes = max_boxes or self.config.max_boxes
        b = feats.shape[0]
        mem, mpad = self._encode(self._regions(feats, feat_boxes), feat_mask,
                                 self._words_in(self.word_emb(words)), words != PAD)
        seq = self.box_start.expand(b, 1, -1)
        boxes = torch.zeros(b, 0, 4, device=feats.device)
        lengths = torch.full((b,), max_boxes, dtype=torch.long)
        for k in range(max_boxes):
            tgt = seq + self._pos(seq.shape[1], seq.device) + self.type_emb.weight[1]
            h = self._decode(tgt, mem, mpad)
            box = torch.sigmoid(self.box_head(h[:, -1]))
            stop = torch.sigmoid(self.stop_head(h[:, -1])).squeeze(-1)
            boxes = torch.cat([boxes, box[:, None]], dim=1)
            for i in range(b):
                if lengths[i] == max_boxes and stop[i] > 0.5:
                    lengths[i] = k + 1
            if (lengths < max_boxes).all():
                break
            seq = torch.cat([seq, self.box_emb(box)[:, None]], dim=1)
        return [boxes[i, : int(lengths[i])] for i in range(b)]


# -- checkpoints -------------------------------------------------------------------------------------


def save(model: MITR, vocab: Vocab, path: str | Path, extra: dict | None = None) -> None:
    """Weights as safetensors; the config, the vocabulary and ``extra`` as JSON metadata."""
    from safetensors.torch import save_file

    meta = {"model": "mitr", "config": json.dumps(asdict(model.config)), "vocab": json.dumps(vocab.itos),
            "extra": json.dumps(extra or {})}
    state = {k: v.detach().contiguous() for k, v in model.state_dict().items()}
    save_file(state, str(path), metadata=meta)


def load(path: str | Path) -> tuple[MITR, Vocab, dict]:
    """Rebuild a model saved by :func:`save`: ``(model in eval mode, vocab, extra)``."""
    from safetensors import safe_open
    from safetensors.torch import load_file

    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"no MITR checkpoint at {path}")
    try:
        with safe_open(str(path), "pt") as f:
            meta = f.metadata() or {}
        if meta.get("model") != "mitr":
            raise ValueError(f"{path} is not a MITR checkpoint")
        config = MITRConfig(**json.loads(meta["config"]))
        vocab = Vocab(json.loads(meta["vocab"]))
        extra = json.loads(meta.get("extra", "{}"))
    except (OSError, KeyError, json.JSONDecodeError, TypeError) as exc:
        raise ValueError(f"{path} is not a readable MITR checkpoint: {exc}") from None
    except Exception as exc:  # safetensors raises its own error type for corrupt headers
        if isinstance(exc, ValueError):
            raise
        raise ValueError(f"{path} is not a readable MITR checkpoint: {exc}") from None
    model = MITR(config)
    model.load_state_dict(load_file(str(path)))
    model.eval()
    return model, vocab, extra
