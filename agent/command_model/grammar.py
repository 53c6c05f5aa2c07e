"""The command grammar as the decoder sees it: the output words and what may follow what.

:func:`allowed` is the constraint the beam search applies at every step (:mod:`.decode`), so every
decoded command parses (:mod:`agent.grammar.commands`). A new command word goes into ``COMMAND_WORDS`` (and
the model's vocabulary, which a retraining builds from it) and gets a branch in :func:`allowed`.
The command names, attributes and their ranges, axes, background modes and aspects come from the one
grammar, :mod:`agent.grammar.commands`; what is decided here is only how a command is spelled in decoder
words (a signed number is a direction and a magnitude; free words are copied like a search's).

Regions (``adjust_attr brightness 20 in sky``, DESIGN.md "Regions") are not in the decoder's
language: :func:`allowed` ends every edit at its last argument, so the model never writes ``in``
and its reading of "brighten the sky" is the whole-picture form. The request rules
(:mod:`agent.language.reader`, :func:`agent.language.scope.region_of`) read where an edit applies and
are tried before the model; a reading of the model is kept only for clauses no rule reads.
"""

from __future__ import annotations

import re

from agent.grammar.commands import ASPECTS, ATTR_RANGES, BACKGROUND_MODES, FLIP_AXES, GRAMMAR
from editor.colors import COLORS

PAD, UNK, EOS = "<pad>", "<unk>", "<eos>"
LEFT, RIGHT, PLUS, MINUS, NONE = "<left>", "<right>", "<plus>", "<minus>", "<none>"
SPECIALS = (PAD, UNK, EOS, LEFT, RIGHT, PLUS, MINUS, NONE)
COMMAND_WORDS = (*GRAMMAR, NONE)
# Words of the output that only the generator may produce (copying "undo" from "undo that" would
# be harmless, but structure is decided by the generator and the gate learns faster this way).
STRUCTURAL = set(SPECIALS) | set(COMMAND_WORDS)
ATTRIBUTES = tuple(ATTR_RANGES)  # adjust_attr's first argument
AXES = FLIP_AXES  # flip's argument
# Argument words only the generator writes: the training script puts them in the vocabulary after
# SPECIALS and COMMAND_WORDS (training/train_commands.py, build_vocab), in this order. A checkpoint
# carries its own vocabulary, so a model trained before a word was added still loads.
ARGUMENT_WORDS = tuple(dict.fromkeys((*ATTRIBUTES, *AXES, "original", *COLORS, *BACKGROUND_MODES, *ASPECTS)))
FREE_WORDS = ("search", "remove")  # commands whose argument is words copied from the request

_NUMERIC = re.compile(r"^(\d+(\.\d+)?|\.\d+)$")


def is_number(word: str) -> bool:
    return bool(_NUMERIC.match(word))


def allowed(prefix: list[str], word: str, max_search_words: int = 8) -> bool:
    """Whether ``word`` may follow the decoder words ``prefix`` under the command grammar."""
    if not prefix:
        return word in COMMAND_WORDS
    name, args = prefix[0], prefix[1:]
    n = len(args)
    if name in FREE_WORDS or (name == "crop" and args and not args[0].isdigit() and args[0] not in ASPECTS):
        return _free_word(args, word, max_search_words, once=name == "search")
    if name == "rotate":
        if n == 0:
            return word in (LEFT, RIGHT)
        if n == 1:
            return is_number(word) and 0 <= float(word) <= 360
        return word == EOS
    if name == "adjust_attr":
        if n == 0:
            return word in ATTRIBUTES
        if n == 1:
            return word in (PLUS, MINUS)
        if n == 2:
            return is_number(word) and float(word) <= ATTR_RANGES[args[0]]
        return word == EOS
    if name == "adjust_color":
        if n == 0:
            return word in COLORS
        if n == 1:
            return is_number(word) and float(word) <= 1
        return word == EOS
    if name == "crop":
        if n == 0:  # a box, an aspect, or the first word of an object
            return word.isdigit() or word in ASPECTS or (word != EOS and _free_word(args, word, max_search_words, False))
        if args[0] in ASPECTS:
            return word == EOS
        if n < 4:
            return word.isdigit()
        return word == EOS
    if name == "background":
        return word in BACKGROUND_MODES if n == 0 else word == EOS
    if name == "flip":
        return word in AXES if n == 0 else word == EOS
    if name == "explain":
        return word in (EOS, "original") if n == 0 else word == EOS
    return word == EOS


def _free_word(args: list[str], word: str, max_words: int, once: bool) -> bool:
    """A word of a search query (each word once, no command words) or of an object's name ("the dog
    in the background"), at most ``max_words``."""
    if word == EOS:
        return len(args) >= 1
    if len(args) >= max_words or word in (STRUCTURAL if once else SPECIALS) or (once and word in args):
        return False
    return bool(re.match(r"^[a-z0-9'_-]", word)) and word not in ("-", "_")
