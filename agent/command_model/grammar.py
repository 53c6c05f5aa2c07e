"""The command grammar as the decoder sees it: the output words and what may follow what.

:func:`allowed` is the constraint the beam search applies at every step (:mod:`.decode`), so every
decoded command parses (:mod:`agent.commands`). A new command word goes into ``COMMAND_WORDS`` (and
the model's vocabulary, which a retraining builds from it) and gets a branch in :func:`allowed`.
"""

from __future__ import annotations

import re

from editor.colors import COLORS

PAD, UNK, EOS = "<pad>", "<unk>", "<eos>"
LEFT, RIGHT, PLUS, MINUS, NONE = "<left>", "<right>", "<plus>", "<minus>", "<none>"
SPECIALS = (PAD, UNK, EOS, LEFT, RIGHT, PLUS, MINUS, NONE)
COMMAND_WORDS = ("search", "rotate", "adjust_color", "adjust_attr", "image_cutout", "crop", "undo",
                 "redo", "flip", "explain", "describe", NONE)
# Words of the output that only the generator may produce (copying "undo" from "undo that" would
# be harmless, but structure is decided by the generator and the gate learns faster this way).
STRUCTURAL = set(SPECIALS) | set(COMMAND_WORDS)
ATTRIBUTES = ("brightness", "contrast")  # adjust_attr's first argument
AXES = ("horizontal", "vertical")  # flip's argument
# Argument words only the generator writes: the training script puts them in the vocabulary after
# SPECIALS and COMMAND_WORDS (training/train_commands.py, build_vocab), in this order.
ARGUMENT_WORDS = (*ATTRIBUTES, *AXES, "original", *COLORS)

_NUMERIC = re.compile(r"^(\d+(\.\d+)?|\.\d+)$")


def is_number(word: str) -> bool:
    return bool(_NUMERIC.match(word))


def allowed(prefix: list[str], word: str, max_search_words: int = 8) -> bool:
    """Whether ``word`` may follow the decoder words ``prefix`` under the command grammar."""
    if not prefix:
        return word in COMMAND_WORDS
    name, args = prefix[0], prefix[1:]
    n = len(args)
    if name == "search":
        if word == EOS:
            return n >= 1
        if n >= max_search_words or word in STRUCTURAL or word in args:
            return False  # a query names each word once
        return bool(re.match(r"^[a-z0-9'_-]", word)) and word not in ("-", "_")
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
            return is_number(word) and float(word) <= 100
        return word == EOS
    if name == "adjust_color":
        if n == 0:
            return word in COLORS
        if n == 1:
            return is_number(word) and float(word) <= 1
        return word == EOS
    if name == "crop":
        if n < 4:
            return word.isdigit()
        return word == EOS
    if name == "flip":
        return word in AXES if n == 0 else word == EOS
    if name == "explain":
        return word in (EOS, "original") if n == 0 else word == EOS
    return word == EOS

