"""WordNet 3.0 nouns and their hypernyms, read straight from Debian's ``wordnet-base`` dict files.

ImageNet's classes are WordNet noun synsets, and its class names are their synonym lists
("tabby, tabby cat"), so WordNet says what each class is a kind of: a tabby is a domestic cat, a
cat, a feline, a carnivore, ..., an animal. Easel uses that to check its everyday words
(:mod:`agent.perception.vocabulary`: every class it calls "cat" is under WordNet's cat) and to say
the kind of a thing when no species is sure ("an animal", "a vehicle": :func:`kind_of_class`).

No reader package is needed: ``index.noun`` maps a lemma to the byte offsets of its synsets in
``data.noun``, and each line of ``data.noun`` lists the synset's words and its pointers (``@`` a
hypernym, ``@i`` an instance hypernym). Only the lines asked for are read, with ``seek``; the
whole dictionary is never parsed. The folder is ``/usr/share/wordnet`` (Debian, ``apt-get install
wordnet-base``) or ``$EASEL_WORDNET``; without it :func:`available` is False and the callers fall
back to the hand-written map (nothing downloads).

The ImageNet class of index ``i`` is matched to the synset whose words best cover the class's
synonym list; ties ("crane" the bird, "crane" the machine) are broken by ImageNet's order, which is
the order of the synsets' offsets (its ids are ``n`` + the 8-digit offset, sorted).
"""

from __future__ import annotations

import functools
import os
import threading
from pathlib import Path

DEFAULT_DIR = "/usr/share/wordnet"

# The kinds Easel may say when it is sure of the kind but not of the species, most specific first,
# as WordNet 3.0 offsets of data.noun: a thing is of the first kind whose synset is among its
# hypernyms. "animal" is animal.n.01 (a person is not under it: person.n.01 is an organism),
# "vehicle" conveyance.n.03, not vehicle.n.01: WordNet files buses and trains under "public
# transport", beside vehicles (cars, boats, aircraft, bicycles), and people call them vehicles too.
KINDS: dict[str, int] = {"animal": 15388, "vehicle": 3100490}

_lock = threading.Lock()


def wordnet_dir() -> Path:
    return Path(os.environ.get("EASEL_WORDNET", DEFAULT_DIR))


def available() -> bool:
    d = wordnet_dir()
    return (d / "index.noun").is_file() and (d / "data.noun").is_file()


def _parse_index_line(line: str) -> tuple[int, ...]:
    parts = line.split()
    n_senses, n_ptr = int(parts[2]), int(parts[3])
    start = 4 + n_ptr + 2
    return tuple(int(o) for o in parts[start: start + n_senses])


@functools.cache
def _lookup(lemma: str, pos: str = "noun") -> tuple[int, ...]:
    """Offsets of ``lemma``'s synsets of part of speech ``pos`` ("noun", "adj", "adv", "verb"), by
    binary search in index.<pos> (sorted by lemma, byte order, after a licence header whose lines
    start with a space): a few seeks, where reading the whole index took a second."""
    key = lemma.encode("utf-8")

    def first_line_from(f, pos: int) -> bytes:
        """The first whole line starting at or after byte ``pos``."""
        f.seek(max(0, pos - 1))
        if pos:
            f.readline()
        return f.readline()

    def before(line: bytes) -> bool:  # the licence header sorts before every lemma
        return line.startswith(b" ") or line.split(b" ", 1)[0] < key

    with _lock, open(wordnet_dir() / f"index.{pos}", "rb") as f:
        f.seek(0, os.SEEK_END)
        lo, hi = 0, f.tell()
        while lo < hi:  # the smallest position whose next line is not before the key
            mid = (lo + hi) // 2
            line = first_line_from(f, mid)
            if line and before(line):
                lo = mid + 1
            else:
                hi = mid
        line = first_line_from(f, lo)
        if line and line.split(b" ", 1)[0] == key:
            return _parse_index_line(line.decode("utf-8"))
    return ()


@functools.cache
def synset(offset: int) -> tuple[tuple[str, ...], tuple[int, ...]]:
    """``(words, hypernym offsets)`` of the noun synset at ``offset`` of data.noun."""
    with _lock, open(wordnet_dir() / "data.noun", "rb") as f:
        f.seek(offset)
        parts = f.readline().decode("utf-8").split(" | ")[0].split()
    n_words = int(parts[3], 16)
    words = tuple(parts[4 + 2 * i].lower() for i in range(n_words))
    k = 4 + 2 * n_words
    n_ptr = int(parts[k])
    hyper = []
    for j in range(n_ptr):
        sym, off, pos = parts[k + 1 + 4 * j: k + 4 + 4 * j]
        if sym in ("@", "@i") and pos == "n":
            hyper.append(int(off))
    return words, tuple(hyper)


@functools.cache
def ancestors(offset: int) -> frozenset[int]:
    """Every hypernym of the synset, transitively (the synset itself included)."""
    out = {offset}
    todo = [offset]
    while todo:
        for h in synset(todo.pop())[1]:
            if h not in out:
                out.add(h)
                todo.append(h)
    return frozenset(out)


def synsets(word: str) -> tuple[int, ...]:
    """Offsets of the noun synsets of ``word`` ("tabby cat", "tabby_cat"), most frequent first."""
    return _lookup(word.strip().lower().replace(" ", "_"))


def is_a(word: str, kind: str) -> bool:
    """Whether some noun sense of ``word`` is a kind of ``kind`` (a :data:`KINDS` key or a word).

    >>> is_a("tabby", "cat"), is_a("cat", "animal"), is_a("bus", "vehicle"), is_a("person", "animal")  # doctest: +SKIP
    (True, True, True, False)
    """
    if not available():
        return False
    targets = {KINDS[kind]} if kind in KINDS else set(synsets(kind))
    return any(ancestors(s) & targets for s in synsets(word))


def first_is_a(word: str, kind: str) -> bool:
    """Whether the most frequent noun sense of ``word`` is a kind of ``kind`` ("bison" and "owl"
    are animals; "head", "crane" and "seal" are not, though a rarer sense of each is).

    >>> first_is_a("owl", "animal"), first_is_a("crane", "animal")  # doctest: +SKIP
    (True, False)
    """
    if not available():
        return False
    senses = synsets(word)
    targets = {KINDS[kind]} if kind in KINDS else set(synsets(kind))
    return bool(senses) and bool(ancestors(senses[0]) & targets)


def some_is_a(word: str, kind: str) -> bool:
    """Whether any noun sense of ``word`` is a kind of ``kind``: where both are known to be animals
    ("heron", whose most frequent sense here is Hero of Alexandria, is a bird).

    >>> some_is_a("heron", "bird"), some_is_a("bison", "cow")  # doctest: +SKIP
    (True, False)
    """
    if not available():
        return False
    targets = {KINDS[kind]} if kind in KINDS else set(synsets(kind))
    return any(ancestors(sense) & targets for sense in synsets(word))


def modifier(word: str) -> bool:
    """Whether WordNet knows ``word`` as an adjective or adverb ("entire", whose first noun sense
    is a stallion; "black"): not to be read as an animal's name.

    >>> modifier("entire"), modifier("bison")  # doctest: +SKIP
    (True, False)
    """
    return available() and bool(_lookup(word, "adj") or _lookup(word, "adv"))


def said_of(word: str, noun: str) -> bool:
    """Whether ``word`` before ``noun`` only says what the thing is like: WordNet knows it as an
    adjective and not as a noun ("cute", "groovy", "happy"), ``noun`` as a noun ("this less blurry",
    "the all except the sky" are no such pair), and the two words are no noun of their own ("hot dog",
    "polar bear", "bald eagle"). "the cute dog" is the dog.

    >>> said_of("cute", "dog"), said_of("hot", "dog"), said_of("teddy", "bear")  # doctest: +SKIP
    (True, False, False)
    """
    singular = noun[:-1] if noun.endswith("s") and noun not in ("ones", "others") else noun  # ("the smaller ones")
    return (available() and bool(_lookup(word, "adj")) and not _lookup(word, "noun")
            and bool(_lookup(noun, "noun") or _lookup(singular, "noun")) and not compound_noun(word, noun))


def noun_first(word: str) -> bool:
    """Whether WordNet knows ``word`` as a noun at least as often as a verb, and never as an adjective
    or adverb ("balloon", "violin"; not "file", "safe", "piano")."""
    nouns = _lookup(word, "noun")
    return bool(nouns) and len(nouns) >= len(_lookup(word, "verb")) and not _lookup(word, "adj") \
        and not _lookup(word, "adv")


def compound_noun(word: str, noun: str) -> bool:
    """Whether WordNet knows ``word noun`` as a noun of its own ("polar bear", "hot dog")."""
    return available() and bool(_lookup(f"{word}_{noun}", "noun"))


@functools.cache
def _classes(labels: tuple[str, ...]) -> tuple[int | None, ...]:
    out: list[int | None] = []
    last = -1
    for name in labels:
        lemmas = [w.strip().lower().replace(" ", "_") for w in name.split(",") if w.strip()]
        cands: dict[int, int] = {}
        for lem in lemmas:
            for off in synsets(lem):
                cands[off] = cands.get(off, 0) + 0
        for off in cands:
            words = set(synset(off)[0])
            cands[off] = sum(lem in words for lem in lemmas)
        if not cands:
            out.append(None)
            continue
        best = max(cands.values())
        tied = sorted(o for o, c in cands.items() if c == best)
        pick = next((o for o in tied if o > last), tied[0])
        out.append(pick)
        last = max(last, pick)
    return tuple(out)


def class_synsets(labels: list[str]) -> tuple[int | None, ...]:
    """The WordNet synset offset of each ImageNet class (names in index order), None if unmatched."""
    return _classes(tuple(labels))


def kind_of_class(labels: list[str], index: int) -> str | None:
    """The :data:`KINDS` word of ImageNet class ``index`` ("animal" for a tabby), or None."""
    if not available():
        return None
    off = class_synsets(labels)[index]
    if off is None:
        return None
    anc = ancestors(off)
    return next((k for k, o in KINDS.items() if o in anc), None)


def kinds_of_classes(labels: list[str]) -> tuple[str | None, ...]:
    """:func:`kind_of_class` for every class."""
    return _kinds(tuple(labels))


@functools.cache
def _kinds(labels: tuple[str, ...]) -> tuple[str | None, ...]:
    return tuple(kind_of_class(list(labels), i) for i in range(len(labels)))


def class_is_a(labels: list[str], index: int, word: str) -> bool:
    """Whether ImageNet class ``index`` is a kind of ``word`` in WordNet (class 281, "tabby", is a
    "cat"; class 292, "tiger", is a "cat" too: a big cat)."""
    if not available():
        return False
    off = class_synsets(labels)[index]
    return off is not None and bool(ancestors(off) & set(synsets(word)))
