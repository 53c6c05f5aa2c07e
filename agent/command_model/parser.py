"""From a dialogue to a command: decode, then apply the rules, then compute the confidence.

This is the one place where the hand rules (:mod:`.rules`) meet the model's beams (:mod:`.decode`):
:func:`read` applies the rules that are on to one beam under its :class:`RuleContext` and then
computes the confidence from the model's probabilities and what the rules decided.
:class:`CommandModelParser` is the :class:`agent.dialogue.manager.CommandParser` the dialogue manager uses.
"""

from __future__ import annotations

import math
import os
import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import torch

from agent.command_model.checkpoint import DEFAULT_WEIGHTS, load_checkpoint
from agent.command_model.decode import Beam, beam_decode
from agent.command_model.features import Features, collate, featurize
from agent.command_model.model import CommandEnsemble, CommandModel, get_tokenizer
from agent.command_model.rules import RULE_NAMES, RuleContext, apply_rules, decode_forbid, select_rules
from agent.command_model.tokens import tokens_to_command
from agent.grammar.commands import CommandError, parse_command
from agent.grammar.turns import Prediction
from editor.models import lazy


def context_of(f: Features) -> RuleContext:
    """The rules' context of one encoded dialogue."""
    return RuleContext(f.request, f.previous, f.concepts, f.earlier)


@dataclass
class Reading:
    """One beam as a command: the words after the rules, the command line and its confidence."""

    tokens: list[str]
    text: str | None  # None for <none>
    confidence: float
    fired: list[str] = field(default_factory=list)  # the rules that changed the words
    ranked: tuple[int, float] | None = None  # (position, probability) of a colour the ranker chose


def read(beam: Beam, ctx: RuleContext | None, rules: Iterable[str] = RULE_NAMES) -> Reading:
    """Apply the rules that are on (none when ``ctx`` is None), then compute the confidence.

    The confidence is the joint probability of the structure (command, attribute, direction,
    number, <eos>); search words count with their geometric mean, so long queries are not
    penalised. A word the rules set from the request's own words is not the model's guess and does
    not count; a colour the ranker chose counts with the ranker's probability.
    """
    if ctx is None:
        applied_tokens, decided, probability, fired = beam.tokens, frozenset(), {}, []
    else:
        ctx = RuleContext(ctx.request, ctx.previous, ctx.concepts, ctx.history, list(beam.tokens), beam.slot)
        applied = apply_rules(beam.tokens, ctx, rules)
        applied_tokens, decided, probability, fired = applied.tokens, applied.decided, applied.probability, applied.fired
    text = tokens_to_command(applied_tokens)
    ranked = next(iter(probability.items()), None) if probability else None
    return Reading(applied_tokens, text, _confidence(beam, decided, probability if text is not None else {}),
                   fired, ranked)


def _confidence(beam: Beam, decided: frozenset[int], probability: dict[int, float]) -> float:
    if not beam.tokens:
        return 0.0
    logp = list(beam.logp)
    for position, p in probability.items():
        logp[position] = math.log(max(p, 1e-9))
    if beam.tokens[0] == "search":
        words = logp[1:len(beam.tokens)]
        rest = logp[0] + logp[-1]
        return math.exp(rest + (sum(words) / len(words) if words else 0.0))
    return math.exp(sum(lp for i, lp in enumerate(logp) if i not in decided))


@dataclass
class Decoded:
    """A beam with the context its rules read; ``text`` and ``confidence`` are its :class:`Reading`
    (computed once, on first use). ``request`` None: no rules."""

    tokens: list[str]
    logp: list[float]  # log-probability of each chosen word (incl. <eos>)
    request: list[str] | None = None  # the request's words (None: no rules)
    previous: list[str] | None = None  # the last command's decoder words
    concepts: list[str] | None = None  # the image's concept phrases
    slot: dict[str, float] | None = None  # the decoder's probabilities of the colour words
    history: list[str] | None = None  # words of the dialogue before the request
    rules: frozenset[str] = field(default=frozenset(RULE_NAMES), repr=False, compare=False)
    _reading: Reading | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def beam(self) -> Beam:
        return Beam(self.tokens, self.logp, self.slot)

    @property
    def context(self) -> RuleContext | None:
        if self.request is None:
            return None
        return RuleContext(self.request, self.previous or [], self.concepts or [], self.history or [])

    @property
    def reading(self) -> Reading:
        if self._reading is None:
            self._reading = read(self.beam, self.context, self.rules)
        return self._reading

    @property
    def text(self) -> str | None:
        return self.reading.text

    @property
    def confidence(self) -> float:
        return self.reading.confidence

    @property
    def _ranked(self) -> tuple[int, float] | None:
        return self.reading.ranked


def decode_batch(model: CommandModel | CommandEnsemble, feats: list[Features], hidden=None, beam: int = 3,
                 rules: bool | str | Iterable[str] = True) -> list[list[Decoded]]:
    """Decode a list of examples; for each its beams, best first. ``rules``: True all, False none,
    or the names of the rules to apply (see :func:`agent.command_model.rules.select_rules`)."""
    enabled = select_rules(rules)
    batch = collate(feats, hidden)
    ctxs = [context_of(f) if enabled else None for f in feats]
    forbid = [decode_forbid(c, enabled) if c is not None else None for c in ctxs]
    beams = beam_decode(model, batch, [f.words for f in feats], beam=beam, forbid=forbid)
    out = []
    for bs, c in zip(beams, ctxs):
        if c is None:
            out.append([Decoded(b.tokens, b.logp, slot=b.slot, rules=enabled) for b in bs])
        else:
            out.append([Decoded(b.tokens, b.logp, c.request, c.previous, c.concepts, b.slot, c.history, enabled)
                        for b in bs])
    return out


class CommandModelParser:
    """:class:`agent.dialogue.manager.CommandParser` backed by the learned model."""

    def __init__(self, model: CommandModel | CommandEnsemble, beam: int = 3):
        self.model = model
        self.beam = beam
        self.tokenizer = get_tokenizer(model.cfg)
        self._lock = threading.Lock()

    def predict(self, history: list[str], concepts: list[str]) -> Prediction:
        feats = featurize(list(history), list(concepts or []), self.model.cfg, self.tokenizer)
        with self._lock, torch.inference_mode():
            beams = decode_batch(self.model, [feats], beam=self.beam)[0]
        if not beams:
            return Prediction(None, 0.0)
        best = beams[0]
        alternatives = []
        for d in beams[1:]:
            t = d.text
            if t and t != best.text and t not in alternatives:
                alternatives.append(t)
        text = best.text
        if text is not None:
            try:
                text = parse_command(text).format()
            except CommandError:  # the grammar constraint makes this unreachable; be safe anyway
                return Prediction(None, 0.0, alternatives)
        return Prediction(text, best.confidence if text else 0.0, alternatives)


@lazy
def _default_parser() -> CommandModelParser:
    model, _ = load_checkpoint(Path(os.environ.get("EASEL_COMMAND_MODEL", DEFAULT_WEIGHTS)))
    return CommandModelParser(model)


def load_default_parser(path: str | Path | None = None) -> CommandModelParser | None:
    """The shipped command model, loaded once (None if its weights are not installed).

    ``path`` (or ``$EASEL_COMMAND_MODEL``) names other weights; they are loaded each time asked for.
    """
    default = Path(os.environ.get("EASEL_COMMAND_MODEL", DEFAULT_WEIGHTS))
    wanted = Path(path) if path else default
    if not wanted.exists():
        return None
    if wanted != default:
        model, _ = load_checkpoint(wanted)
        return CommandModelParser(model)
    return _default_parser()
