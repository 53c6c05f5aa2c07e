"""Model inputs: one dialogue encoded (:func:`featurize`), examples padded into a batch
(:func:`collate`), and teacher-forcing targets (:func:`make_targets`)."""

from __future__ import annotations

from dataclasses import dataclass, field

import torch

from agent.command_model.grammar import EOS, STRUCTURAL, UNK
from agent.command_model.model import CommandModelConfig, get_tokenizer
from agent.command_model.tokens import concept_words, history_words, previous_command


@dataclass
class Features:
    """One example, encoded: word pieces with their word index, words with turn and segment."""

    input_ids: list[int]
    token_type_ids: list[int]
    piece_word: list[int]
    words: list[str]
    word_turn: list[int]
    seg_con: list[bool]
    previous: list[str] = field(default_factory=list)  # decoder words of the last command in the history
    concepts: list[str] = field(default_factory=list)  # all the concept phrases, for the rules

    @property
    def request(self) -> list[str]:
        return [w for w, t, c in zip(self.words, self.word_turn, self.seg_con) if t == 0 and not c]

    @property
    def earlier(self) -> list[str]:
        """Words of the dialogue (as kept) before the request."""
        return [w for w, t, c in zip(self.words, self.word_turn, self.seg_con) if t > 0 and not c]


def featurize(history: list[str], concepts: list[str], cfg: CommandModelConfig, tokenizer=None) -> Features:
    """Encode one dialogue for the model (history truncated from the left, most recent kept)."""
    tok = tokenizer or get_tokenizer(cfg)
    hw = history_words(history)
    cw = concept_words(concepts, cfg.concept_form)
    h_words = [w for w, _ in hw]
    pieces = tok([w for w in h_words], is_split_into_words=True, add_special_tokens=False) if h_words else None
    h_ids = pieces["input_ids"] if pieces else []
    h_wid = pieces.word_ids() if pieces else []
    if len(h_ids) > cfg.max_history_pieces:
        cut = len(h_ids) - cfg.max_history_pieces
        while cut < len(h_ids) and cut > 0 and h_wid[cut] == h_wid[cut - 1]:
            cut += 1  # do not start in the middle of a word
        h_ids, h_wid = h_ids[cut:], h_wid[cut:]
    used = sorted(set(h_wid))
    remap = {w: i for i, w in enumerate(used)}
    words = [h_words[w] for w in used]
    turns = [hw[w][1] for w in used]
    seg = [False] * len(words)
    c_ids: list[int] = []
    c_wid: list[int] = []
    if cw:
        cp = tok(cw, is_split_into_words=True, add_special_tokens=False)
        for pid, wid in zip(cp["input_ids"], cp.word_ids()):
            if len(c_ids) >= cfg.max_concept_pieces:
                break
            c_ids.append(pid)
            c_wid.append(wid)
        # drop a word cut in half at the end
        if c_wid and len(cp["input_ids"]) > len(c_ids) and cp.word_ids()[len(c_ids)] == c_wid[-1]:
            last = c_wid[-1]
            keep = [i for i, w in enumerate(c_wid) if w != last]
            c_ids, c_wid = [c_ids[i] for i in keep], [c_wid[i] for i in keep]
    c_used = sorted(set(c_wid))
    c_remap = {w: len(words) + i for i, w in enumerate(c_used)}
    words += [cw[w] for w in c_used]
    turns += [cfg.max_turns] * len(c_used)
    seg += [True] * len(c_used)
    cls, sep = tok.cls_token_id, tok.sep_token_id
    input_ids = [cls, *h_ids, sep]
    piece_word = [-1, *[remap[w] for w in h_wid], -1]
    types = [0] * len(input_ids)
    if c_ids:
        input_ids += [*c_ids, sep]
        piece_word += [*[c_remap[w] for w in c_wid], -1]
        types += [1] * (len(c_ids) + 1)
    return Features(input_ids, types, piece_word, words, turns, seg, previous_command(history),
                    [str(c) for c in concepts])


def collate(feats: list[Features], hidden: list[torch.Tensor] | None = None) -> dict:
    """Pad features into a batch (``hidden``: cached bottom-layer states instead of piece ids)."""
    B = len(feats)
    L = max(len(f.input_ids) for f in feats)
    W = max(max(len(f.words) for f in feats), 1)
    ids = torch.zeros(B, L, dtype=torch.long)
    types = torch.zeros(B, L, dtype=torch.long)
    att = torch.zeros(B, L, dtype=torch.long)
    pw = torch.full((B, L), -1, dtype=torch.long)
    turn = torch.zeros(B, W, dtype=torch.long)
    wmask = torch.zeros(B, W, dtype=torch.bool)
    seg = torch.zeros(B, W, dtype=torch.bool)
    for i, f in enumerate(feats):
        n, m = len(f.input_ids), len(f.words)
        ids[i, :n] = torch.tensor(f.input_ids)
        types[i, :n] = torch.tensor(f.token_type_ids)
        att[i, :n] = 1
        pw[i, :n] = torch.tensor(f.piece_word)
        turn[i, :m] = torch.tensor(f.word_turn, dtype=torch.long)
        wmask[i, :m] = True
        seg[i, :m] = torch.tensor(f.seg_con, dtype=torch.bool)
    batch = {"input_ids": ids, "token_type_ids": types, "attention_mask": att, "piece_word": pw,
             "word_turn": turn, "word_mask": wmask, "seg_con": seg}
    if hidden is not None:
        d = hidden[0].shape[-1]
        hs = torch.zeros(B, L, d, dtype=hidden[0].dtype)
        for i, h in enumerate(hidden):
            hs[i, : h.shape[0]] = h
        batch["hidden"] = hs
    return batch


def make_targets(feats: list[Features], token_lists: list[list[str]], cfg: CommandModelConfig,
                 word_index: dict[str, int]) -> dict:
    """Target tensors for :meth:`CommandModel.forward` from decoder words (``<eos>`` appended)."""
    B = len(feats)
    T = min(max(len(t) for t in token_lists) + 1, cfg.max_len)
    W = max(max(len(f.words) for f in feats), 1)
    ids = torch.zeros(B, T, dtype=torch.long)
    inv = torch.zeros(B, T, dtype=torch.bool)
    copy = torch.zeros(B, T, W, dtype=torch.bool)
    mask = torch.zeros(B, T, dtype=torch.bool)
    unk = word_index[UNK]
    for i, (f, toks) in enumerate(zip(feats, token_lists)):
        seq = [*toks, EOS][:T]
        for t, w in enumerate(seq):
            ids[i, t] = word_index.get(w, unk)
            inv[i, t] = w in word_index
            mask[i, t] = True
            if w not in STRUCTURAL:
                for j, sw in enumerate(f.words):
                    if sw == w:
                        copy[i, t, j] = True
    return {"ids": ids, "in_vocab": inv, "copy": copy, "mask": mask}

