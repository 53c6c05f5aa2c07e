"""Which colour a request means when it names the colour by a thing: a learned ranker.

"Find a towel whose colour matches the girl's jacket", "change the colour of the image to the colour
of the sky": the command needs a colour word that the request never says. The command model's decoder
guesses one; the visual concepts of the image ("yellow jacket", "wooden table") usually hold the
answer, and words have typical colours ("sky" is skyblue, "leaves" green). This module scores every
candidate colour with a small conditional-logit model (a linear score per candidate, softmax over the
candidates) over these features:

- the decoder's own colour;
- concepts of that colour whose noun *is* a referent word ('jacket'), and their count;
- the MiniLM cosine similarity between the referent phrase and the nearest concept of that colour
  ('the cup' ~ 'brown pot'), and whether that concept is the nearest of all;
- the share of the image's colour concepts that have that colour, and whether it is the most frequent;
- how often the referent word went with that colour in the training data (a smoothed table);
- the colour's overall frequency, and whether the earlier dialogue said it.

The weights and the word table are fitted on CAISE's train split by ``python -m training
train-referent-colour`` and stored as JSON. Easel does not ship one: on CAISE's validation split the
hand-written rule (:func:`agent.command_model.rules.colour_of_referent`) chose the right colour more often
than the ranker (57.0 % against 55.3 % of 179 requests), though the ranker was better on train under
cross-validation (65.2 % against 60.7 %). Where a fitted file is at ``EASEL_REFERENT_COLOUR`` or at
``resources/command_model/referent_colour.json``, the command model uses it instead of the rule.
Everything here is plain Python and numpy; the MiniLM encoder is :func:`agent.perception.text.text_encoder`.
"""

from __future__ import annotations

import json
import logging
import math
import os
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from agent.grammar.lexicon import CAISE_SPELLING, COLOUR_NOUNS, EDIT_PALETTE, SEARCH_PALETTE, noun_key

log = logging.getLogger(__name__)

DEFAULT_PATH = Path(__file__).resolve().parent.parent / "resources" / "command_model" / "referent_colour.json"


# A concept's first word read as a colour: 'wooden table' is brown, 'golden crown' yellow in the
# editor's palette. For search, colours outside the editor's palette stay themselves.
_AS_EDIT = {"wooden": "brown", "tan": "brown", "chocolate": "brown", "beige": "brown", "golden": "yellow",
            "gold": "yellow", "blonde": "yellow", "maroon": "red", "brick": "red"}
_AS_SEARCH = {"wooden": "brown", "tan": "brown", "chocolate": "brown", "blonde": "yellow", "brick": "red",
              **CAISE_SPELLING}

FEATURES = ("model", "model_logp", "exact_head", "exact_any", "exact_count", "sim_head", "sim_phrase", "sim_best",
            "soft_vote", "share", "top", "absent", "word_prior", "prior", "history")
_FLOOR = math.log(1e-4)


def concept_colour(adjective: str, kind: str) -> str | None:
    """The palette colour a concept's first word names ('wooden' -> 'brown'), or None."""
    if kind == "edit":
        c = _AS_EDIT.get(adjective, adjective)
        return c if c in EDIT_PALETTE else None
    c = _AS_SEARCH.get(adjective, adjective)
    return c if c in SEARCH_PALETTE else None


@dataclass
class Query:
    """One colour decision: what the request refers to and what the image holds."""

    kind: str  # "edit" (adjust_color) or "search"
    referents: list[str]  # words naming the thing, in order ('girl's', 'jacket')
    concepts: list[tuple[str, str]]  # (palette colour, noun phrase) of the image's colour concepts
    model_colour: str | None
    history: set[str] = field(default_factory=set)  # words of the dialogue before the request
    slot: dict[str, float] | None = None  # the decoder's probabilities of the colour words

    @property
    def palette(self) -> tuple[str, ...]:
        return EDIT_PALETTE if self.kind == "edit" else SEARCH_PALETTE


def make_query(kind: str, referents: Sequence[str], concepts: Sequence[str], model_colour: str | None,
               history: set[str] | None = None, split: Callable[[str], list[str]] = str.split,
               slot: dict[str, float] | None = None) -> Query:
    pairs = []
    for phrase in concepts:
        words = split(phrase.lower())
        if len(words) >= 2:
            colour = concept_colour(words[0], kind)
            if colour:
                pairs.append((colour, " ".join(words[1:])))
    return Query(kind, list(referents), pairs, model_colour, set(history or ()), slot)


class ReferentColourModel:
    """The fitted ranker: weights per feature, the referent-word table, and the colour priors."""

    def __init__(self, weights: dict[str, float], word_counts: dict[str, dict[str, int]],
                 priors: dict[str, dict[str, float]], smoothing: float = 2.0, info: dict | None = None):
        self.weights = dict(weights)
        self.word_counts = word_counts
        self.priors = priors
        self.smoothing = smoothing
        self.info = info or {}
        self.w = np.array([self.weights.get(f, 0.0) for f in FEATURES])

    # -- features ---------------------------------------------------------------------------------

    def word_prior(self, kind: str, key: str, colour: str, exclude: str | None = None) -> float:
        """log P(colour | referent word) with additive smoothing towards the colour prior;
        ``exclude`` removes one training observation (leave-one-out while fitting)."""
        counts = dict(self.word_counts.get(key, {}))
        if exclude is not None and counts.get(exclude, 0) > 0:
            counts[exclude] -= 1
        n = sum(counts.values())
        p0 = self.priors[kind].get(colour, 1e-3)
        return math.log((counts.get(colour, 0) + self.smoothing * p0) / (n + self.smoothing))

    def features(self, q: Query, embed: Callable[[list[str]], np.ndarray] | None,
                 exclude: str | None = None) -> tuple[list[str], np.ndarray]:
        """Candidates and their feature matrix (candidates x FEATURES)."""
        cands = list(q.palette)
        head = noun_key(q.referents[-1]) if q.referents else ""
        keys = {noun_key(r) for r in q.referents}
        by_colour: dict[str, list[str]] = {}
        for colour, noun in q.concepts:
            by_colour.setdefault(colour, []).append(noun)
        counts = Counter(c for c, _ in q.concepts)
        total = max(1, sum(counts.values()))
        top = counts.most_common(1)[0][1] if counts else 0
        sim_head: dict[str, float] = {}
        sim_phrase: dict[str, float] = {}
        vote: dict[str, float] = {}
        if embed is not None and q.referents and q.concepts:
            nouns = sorted({n for _, n in q.concepts})
            vecs = embed([" ".join(q.referents), q.referents[-1]] + nouns)
            by_phrase = dict(zip(nouns, (vecs[2:] @ vecs[0]).tolist()))
            by_head = dict(zip(nouns, (vecs[2:] @ vecs[1]).tolist()))
            weights = {n: math.exp(v / 0.05) for n, v in by_phrase.items()}
            norm = sum(weights[n] for _, n in q.concepts)
            for colour, ns in by_colour.items():
                sim_phrase[colour] = max(by_phrase[n] for n in ns)
                sim_head[colour] = max(by_head[n] for n in ns)
                vote[colour] = sum(weights[n] for n in ns) / norm
        best = max(sim_phrase.values()) if sim_phrase else None
        slot = {c: p for c, p in (q.slot or {}).items() if c in q.palette}
        slot_total = sum(slot.values())
        kind_prior = self.priors[q.kind]
        x = np.zeros((len(cands), len(FEATURES)))
        for i, c in enumerate(cands):
            noun_keys = [{noun_key(w) for w in n.split()} for n in by_colour.get(c, [])]
            f = {
                "model": float(c == q.model_colour),
                "model_logp": max(_FLOOR, math.log(slot[c] / slot_total)) if slot.get(c) else (_FLOOR if slot else 0.0),
                "exact_head": float(any(head in nk for nk in noun_keys)),
                "exact_any": float(any(keys & nk for nk in noun_keys)),
                "exact_count": math.log1p(sum(head in nk for nk in noun_keys)),
                "sim_head": sim_head.get(c, 0.0),
                "sim_phrase": sim_phrase.get(c, 0.0),
                "sim_best": float(best is not None and sim_phrase.get(c) == best),
                "soft_vote": max(_FLOOR, math.log(vote[c])) if vote.get(c) else (_FLOOR if vote else 0.0),
                "share": counts.get(c, 0) / total,
                "top": float(top > 0 and counts.get(c, 0) == top),
                "absent": float(c not in counts),
                "word_prior": (self.word_prior(q.kind, head, c, exclude) - math.log(kind_prior.get(c, 1e-3)))
                if head else 0.0,
                "prior": math.log(kind_prior.get(c, 1e-3)),
                "history": float(c in q.history),
            }
            x[i] = [f[k] for k in FEATURES]
        return cands, x

    def rank(self, q: Query, embed=None) -> list[tuple[str, float]]:
        """Candidates with their probabilities, best first."""
        cands, x = self.features(q, embed)
        s = x @ self.w
        p = np.exp(s - s.max())
        p /= p.sum()
        return sorted(zip(cands, p.tolist()), key=lambda t: -t[1])

    # -- storage ----------------------------------------------------------------------------------

    def to_json(self) -> dict:
        return {"format": "easel-referent-colour-1", "features": list(FEATURES), "weights": self.weights,
                "smoothing": self.smoothing, "priors": self.priors, "word_counts": self.word_counts,
                "info": self.info}

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=1, sort_keys=True) + "\n")

    @classmethod
    def load(cls, path: str | Path = DEFAULT_PATH) -> ReferentColourModel:
        d = json.loads(Path(path).read_text())
        if d.get("format") != "easel-referent-colour-1":
            raise ValueError(f"{path}: not a referent-colour model")
        return cls(d["weights"], d["word_counts"], d["priors"], d.get("smoothing", 2.0), d.get("info"))


_DEFAULT: ReferentColourModel | None = None
_LOADED = False


def default_model() -> ReferentColourModel | None:
    """The ranker at ``EASEL_REFERENT_COLOUR`` or the default path, or None (then the hand-written
    rule decides). A file that is there but unreadable is reported once and ignored."""
    global _DEFAULT, _LOADED
    if not _LOADED:
        _LOADED = True
        path = Path(os.environ.get("EASEL_REFERENT_COLOUR") or DEFAULT_PATH)
        try:
            _DEFAULT = ReferentColourModel.load(path) if path.exists() else None
        except (OSError, ValueError) as exc:
            log.warning("referent-colour ranker %s not used: %s", path, exc)
            _DEFAULT = None
    return _DEFAULT


def reset() -> None:
    """Forget the loaded ranker, so the next :func:`default_model` reads the file again."""
    global _DEFAULT, _LOADED
    _DEFAULT, _LOADED = None, False


_LINKERS = {"of", "as", "matches", "match", "matching", "similar", "like", "with", "to"}
_SKIP = {"the", "a", "an", "that", "this", "those", "these", "same", "his", "her", "their", "its", "to", "as",
         "of", "with", "one", "color", "colour", "shade", "similar", "like", "whole", "entire", "complete",
         "full", "overall"}
_BREAK = {"in", "on", "at", "which", "who", "that", "whom", "whose", "kept", "is", "are", "was", "wearing", "worn",
          "seen", "from", "near", "behind", "under", "above", "below", "beside", "inside", "over", "of", "and",
          "if", "please", "color", "colour", "colors", "colours", "image", "picture", "photo", "pic", "for",
          "so", "but", "then", "where", "when", "while", "by", "being", "holding", "held", "placed", "has",
          "have", "there", "here", "shown", "visible", "it", "user", "can", "could", "would", "you", "me"}
_PLACES = {"left", "right", "leftmost", "rightmost", "center", "centre", "middle", "side", "bottom", "front",
           "corner", "first", "second", "third", "last", "upper", "lower", "above", "previous", "big", "small"}


def referent_phrase(request: Sequence[str]) -> list[str]:
    """The words naming the thing whose colour the request means, head noun last: 'the colour of
    the pendant in the chain' -> ['pendant']; 'same as baby girls top color' -> ['baby', 'girls',
    'top']; 'the color of left side fish fin' -> ['fish', 'fin']. Empty when there is none."""
    words = list(request)
    for i, w in enumerate(words):
        if w not in COLOUR_NOUNS:
            continue
        j = i + 1
        phrase: list[str] = []
        if j < len(words) and (words[j] in _LINKERS or words[j:j + 2] == ["same", "as"]):
            while j < len(words) and (words[j] in _SKIP or words[j] in _LINKERS):
                j += 1
            while j < len(words) and words[j] not in _BREAK and (words[j].isalpha() or "'" in words[j]):
                phrase.append(words[j])
                j += 1
        if not phrase:  # 'as baby girls top color': the words before the colour noun
            k = i - 1
            while k >= 0 and words[k] not in _BREAK and words[k] not in _SKIP and words[k] not in _LINKERS \
                    and (words[k].isalpha() or "'" in words[k]):
                phrase.insert(0, words[k])
                k -= 1
        phrase = [x for x in phrase if x not in _PLACES]
        if phrase:
            return phrase[-4:]
    return []


def gate(pred: Sequence[str], request: Sequence[str], concepts: Sequence[str], history=(),
         split: Callable[[str], list[str]] = str.split, slot: dict[str, float] | None = None) -> Query | None:
    """The ranking problem for a decoded command (``pred``, decoder words without directions), or
    None when the ranker has nothing to decide: the command carries no single colour, the request
    has no colour noun with a referent ('the colour of the sky'), or it states a colour itself."""
    if not pred:
        return None
    if pred[0] == "adjust_color" and len(pred) >= 2 and pred[1] in EDIT_PALETTE:
        kind, model_colour = "edit", pred[1]
    elif pred[0] == "search":
        found = [w for w in pred[1:] if w in SEARCH_PALETTE]
        if len(found) != 1:
            return None
        kind, model_colour = "search", found[0]
    else:
        return None
    said = set(request)
    if not COLOUR_NOUNS & said or said & set(SEARCH_PALETTE):
        return None
    refs = referent_phrase(request)
    if not refs or any(r in ("light", "dark") for r in refs):
        return None
    return make_query(kind, refs, concepts, model_colour, set(history), split, slot)


def warm() -> None:
    """Load the ranker and its MiniLM encoder now (the app does this in its model-loading worker),
    so the first 'the colour of the X' request does not wait for them."""
    if default_model() is not None:
        from agent.perception.text import text_encoder

        text_encoder().encode(["warm up"])
