"""Beam search under the command grammar: the model's own reading, as plain decoder words.

No rules run here; :mod:`.parser` applies them to the beams and computes the confidence. The one
hook is ``forbid``: a per-example test a rule may add on top of the grammar (a search may not take a
number the request does not say, :func:`agent.command_model.rules.search_numbers_from_request`).
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from dataclasses import dataclass

import torch

from agent.command_model.grammar import EOS, STRUCTURAL, UNK, allowed
from agent.command_model.model import CommandEnsemble, CommandModel
from agent.grammar.lexicon import SEARCH_COLOURS

# (prefix, next word) -> True when the word must not follow
Forbid = Callable[[list[str], str], bool]


@dataclass
class Beam:
    """One finished hypothesis of the decoder."""

    tokens: list[str]  # decoder words without <eos>
    logp: list[float]  # log-probability of each chosen word (incl. <eos>)
    # The decoder's probabilities of the colour words right after the command word (the colour
    # slot of adjust_color, the first word of a search), for the referent-colour ranker.
    slot: dict[str, float] | None = None


LENGTH_ALPHA = float(os.environ.get("EASEL_CM_LENGTH_ALPHA", "0"))


def _rank(logp: list[float], alpha: float) -> float:
    """Beam score: log-probability divided by length**alpha (alpha > 0 favours longer queries)."""
    return sum(logp) / (len(logp) ** alpha) if alpha else sum(logp)


@torch.no_grad()
def beam_decode(model: CommandModel | CommandEnsemble, batch: dict, source_words: list[list[str]], beam: int = 3,
                length_alpha: float | None = None,
                forbid: list[Forbid | None] | None = None) -> list[list[Beam]]:
    """Grammar-constrained beam search; for each example its finished beams, best first.

    ``source_words``: each example's encoded words (:attr:`Features.words`), which the pointers copy.
    ``forbid``: per example, an extra test on top of :func:`allowed` (None: the grammar alone).
    """
    model.eval()
    length_alpha = LENGTH_ALPHA if length_alpha is None else length_alpha
    words, cls = model.words(batch)
    word_mask, seg_con = batch["word_mask"], batch["seg_con"]
    keys = model.copy_k(words)
    h0, ctx0 = model.start(words, cls, word_mask, seg_con)
    vocab = model.cfg.vocab
    V = len(vocab)
    results = []
    for b in range(words.shape[0]):
        W = word_mask.shape[1]
        src = [w for w, m in zip(source_words[b] + [""] * (W - len(source_words[b])), word_mask[b].tolist()) if m]
        no = forbid[b] if forbid is not None else None
        # beams: (tokens, logps, h, ctx, prev_id, prev_copy)
        live = [([], [], h0[b:b + 1], ctx0[b:b + 1], model.word_index[EOS], torch.zeros(1, W, dtype=torch.bool))]
        done: list[Beam] = []
        slots: dict[str, dict[str, float]] = {}  # command word -> colour probabilities of the next word
        for _ in range(model.cfg.max_len):
            if not live:
                break
            n = len(live)
            prev = model.embed_prev(torch.tensor([x[4] for x in live]), torch.cat([x[5] for x in live]),
                                    words[b:b + 1].expand(n, -1, -1))
            logp, h, ctx = model.step(prev, torch.cat([x[2] for x in live]), torch.cat([x[3] for x in live]),
                                      words[b:b + 1].expand(n, -1, -1), keys[b:b + 1].expand(n, -1, -1),
                                      word_mask[b:b + 1].expand(n, -1), seg_con[b:b + 1].expand(n, -1))
            cands = []
            for k, (toks, lps, *_rest) in enumerate(live):
                probs: dict[str, float] = {}
                row = logp[k].exp()
                lp = row.tolist()
                for i in (row[:V] > 1e-6).nonzero().flatten().tolist():  # skip the negligible words
                    if vocab[i] != UNK:
                        probs[vocab[i]] = probs.get(vocab[i], 0.0) + lp[i]
                for j, w in enumerate(src):
                    if w in STRUCTURAL:
                        continue
                    p = lp[V + j] + lp[V + W + j]
                    if p > 1e-6:
                        probs[w] = probs.get(w, 0.0) + p
                if len(toks) == 1:
                    slots[toks[0]] = {w: p for w, p in probs.items() if w in SEARCH_COLOURS}
                ranked = sorted(((p, w) for w, p in probs.items()
                                 if allowed(toks, w) and not (no is not None and no(toks, w))), reverse=True)[:beam]
                for p, w in ranked:
                    cands.append((sum(lps) + math.log(p), k, w, math.log(p)))
            cands.sort(reverse=True)
            new_live = []
            for _score, k, w, lpw in cands:
                toks, lps = live[k][0] + [w], live[k][1] + [lpw]
                if w == EOS:
                    done.append(Beam(toks[:-1], lps, slots.get(toks[0])))
                    continue
                if len(new_live) < beam:
                    cm = torch.tensor([[sw == w and w not in STRUCTURAL for sw in src] + [False] * (W - len(src))])
                    new_live.append((toks, lps, h[k:k + 1], ctx[k:k + 1], model.word_index.get(w, model.word_index[UNK]), cm))
            live = new_live
            if len(done) >= beam and (not live or max(_rank(d.logp, length_alpha) for d in done)
                                      >= max(sum(x[1]) for x in live)):
                break
        done.sort(key=lambda d: -_rank(d.logp, length_alpha))
        results.append(done)
    return results
