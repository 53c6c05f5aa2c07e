"""Words: requests and histories as the encoder reads them, commands as the decoder writes them.

Numbers are written as a direction and a magnitude (``rotate <right> 90``, ``adjust_attr brightness
<minus> 30``); :func:`command_to_tokens` and :func:`tokens_to_command` convert between those words
and CAISE's command lines. Spelled numbers become digits before encoding ("forty five" -> "45").
"""

from __future__ import annotations

import re

from agent.command_model.grammar import EOS, LEFT, MINUS, NONE, PLUS, RIGHT, UNK
from agent.grammar.commands import CommandError, parse_command

_DIRECTION_WORDS = {LEFT: "left", RIGHT: "right", PLUS: "plus", MINUS: "minus"}

_WORD = re.compile(r"\d+(?:\.\d+)?|\.\d+|[a-z_]+(?:'[a-z]+)?|[^\sa-z0-9_]")

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

    The decoder writes no regions (``... in sky``): the request rules add them
    (:mod:`agent.language.reader`), and a regional command is written here as its whole-picture
    form; :func:`history_words` adds the region's words where the model reads earlier commands.
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
    if name == "crop" and hasattr(cmd, "target"):
        return ["crop", cmd.aspect] if cmd.aspect else ["crop", *(words_of(cmd.target) or [UNK])]
    if name == "crop":
        return ["crop", str(cmd.x1), str(cmd.y1), str(cmd.x2), str(cmd.y2)]
    if name == "remove":
        return ["remove", *(words_of(cmd.words) or [UNK])]
    if name == "background":
        return ["background", cmd.mode]
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
                region = getattr(parse_command(line), "region", "")
                if region:  # "adjust_attr brightness plus 20 in sky": where it was, too
                    toks = [*toks, "in", *words_of(region)]
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


def previous_command(history: list[str]) -> list[str]:
    """Decoder words of the last command line in ``history`` ([] when there is none)."""
    for line in reversed(history):
        head = line.split(":", 1)[0].strip().lower()
        if head in ("user_text", "assistant_text", "image_load") or not line.strip():
            continue
        try:
            return command_to_tokens(line)
        except CommandError:
            continue
    return []

