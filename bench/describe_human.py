"""Easel's description (``describe``, no trace) against descriptions people wrote: ``python bench/describe_human.py [-v]``.

The photos are the sixty real, redistributable photos of :mod:`described_photos` (sources and
licences there). Each was described by hand in the style of Localized Narratives ("In this picture
I can see ...") from looking at the photo only, before Easel's caption of it was run or read
(``bench/human_descriptions.json``, field ``text``). Beside each description are the nouns a person
would accept for what the photo shows (``nouns``: the things named, their synonyms, the ground and
the sky where they show) and the colours a person would accept for the things whose colour can be
named (``colours``: noun -> colours), written at the same time.

Printed, for the development part and the held-out part (every third photo, :func:`described_photos.split`)
separately:

- CIDEr-D and METEOR 1.5 (pycocoevalcap; METEOR needs ``java``) of Easel's description against the
  one human description of each photo. Both are tokenised the same way here (lower case, letters and
  digits only), as PTBTokenizer would, without starting java for it. CIDEr's document frequencies
  are those of the part's references.
- The share of captions with a wrong noun: a noun of the caption (a word WordNet knows as a noun,
  singular or plural, that is not a layout or function word such as "picture", "left", "top",
  "area", nor a colour term) is right when it is one of the photo's accepted nouns or a WordNet
  hypernym of one of them ("an animal" for a cat, "an object" for anything: a kind is not wrong);
  otherwise it is wrong.
- The share of captions with a wrong colour: a colour term right before a noun (up to two words
  between: "a red and black motorcycle", "a tall beige object") or after "in" following a noun ("a
  person in black") is judged when the noun has accepted colours; a colour not among them is wrong.
  A colour of a noun that is not accepted or has no colours listed is not judged.

With ``-v`` each development caption is printed with its wrong words; held-out captions are never
printed.

    OMP_NUM_THREADS=1 .venv/bin/python bench/describe_human.py

Limits of the judging: a colour said of an area ("a brown area at the top") is not judged (an area
is no noun of the photo); a colour is judged against every colour a person would accept for the
thing, so the motorcycle's "black" (its seat and tyres) passes though people say "red".

Figures (dev / held-out): CIDEr-D 0.248 / 0.151, METEOR 0.144 / 0.128, captions with a wrong noun
7/40 / 5/20, with a wrong colour 0/40 / 2/20 with the wording before this bench; then CIDEr-D 0.365
/ 0.319, METEOR 0.217 / 0.226, nouns and colours unchanged, after descriptions of regions began as
people begin ("In this picture I can see the sky at the top. At the bottom I can see the grass.")
and photos with no colour "This is a black and white picture." (chosen on the development captions).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

DESCRIPTIONS = Path(__file__).resolve().parent / "human_descriptions.json"
COLOURS = {"red", "orange", "yellow", "green", "blue", "purple", "pink", "brown", "black", "white", "grey",
           "gray", "beige", "skyblue", "violet", "gold", "silver", "cream", "tan", "maroon", "navy", "teal",
           "turquoise", "cyan", "magenta"}
# words that say where or how, not what: never judged as nouns
LAYOUT = {"picture", "image", "photo", "photograph", "view", "left", "right", "top", "bottom", "centre",
          "center", "middle", "side", "sides", "front", "back", "corner", "area", "areas", "part", "parts",
          "edge", "half", "thing", "things", "something", "lot", "kind", "one", "ones", "way", "colour",
          "color", "shade", "place", "row", "rows", "background", "foreground", "distance", "close",
          "light", "dark", "pale", "bright", "deep", "tall", "small", "big", "large", "long", "little",
          "standing", "sitting", "lying", "hanging", "flying", "parked", "kept", "seen", "many", "some",
          "more", "other", "another", "first", "second", "third", "next", "behind", "above", "below",
          "near", "beside", "inside", "outside", "around", "between", "under", "over", "up", "down",
          "mostly", "also", "then", "there", "here", "it", "its", "they", "them", "this", "that", "these",
          "those", "i", "a", "an", "the", "in", "on", "at", "of", "and", "or", "with", "is", "are", "be",
          "can", "see", "has", "have", "by", "to", "from", "as", "no", "not", "which", "who", "what",
          "where", "whole", "rest", "bit", "top left", "plain", "spread", "across", "most", "much",
          "while", "like", "looks", "look", "shows", "show", "well", "too", "very", "quite", "all", "each",
          "both", "whose", "two", "three", "four", "five", "several", "few", "wearing", "holding", "upper",
          "lower", "far", "closer", "tone", "tones", "texture", "pattern", "surface", "scene",
          "perhaps", "maybe", "probably", "else", "nothing", "anything"}


def tokens(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def _singular(w: str) -> str:
    for suf, rep in (("ies", "y"), ("ves", "f"), ("es", ""), ("s", "")):
        if w.endswith(suf) and len(w) > len(suf) + 2:
            return w[: -len(suf)] + rep
    return w


def _forms(w: str) -> set[str]:
    out = {w, _singular(w)}
    if w.endswith("es"):
        out.add(w[:-1])
    return out


def _is_noun(w: str) -> bool:
    from agent.perception import wordnet

    return any(wordnet.synsets(f) for f in _forms(w))


def _accepted(w: str, nouns: set[str]) -> bool:
    from agent.perception import wordnet

    forms = _forms(w)
    if forms & nouns or any(_singular(n) in forms for n in nouns):
        return True
    mine = {o for f in forms for o in wordnet.synsets(f)}
    for n in nouns:
        for f in _forms(n):
            for o in wordnet.synsets(f):
                if mine & (wordnet.ancestors(o) | {o}):
                    return True
    return False


def judge(caption: str, truth: dict) -> tuple[list[str], list[str]]:
    """(wrong nouns, wrong "colour noun" pairs) of one caption."""
    nouns = {n.lower() for n in truth["nouns"]}
    colours = {k.lower(): set(v) for k, v in truth["colours"].items()}
    words = tokens(caption)
    # two-word nouns of the accepted set are joined first ("space shuttle", "bean bag")
    joined, i = [], 0
    while i < len(words):
        if i + 1 < len(words) and f"{words[i]} {words[i + 1]}" in nouns:
            joined.append(f"{words[i]} {words[i + 1]}")
            i += 2
        else:
            joined.append(words[i])
            i += 1
    wrong_nouns = []
    for w in joined:
        if w in LAYOUT or w in COLOURS or w.isdigit() or " " in w:
            continue
        if _is_noun(w) and not _accepted(w, nouns):
            wrong_nouns.append(w)

    def colours_of(noun: str) -> set[str] | None:
        for f in _forms(noun):
            if f in colours:
                return colours[f]
        return None

    wrong_colours = []
    for i, w in enumerate(joined):
        c = "grey" if w == "gray" else w
        if c not in COLOURS:
            continue
        c = {"skyblue": "blue"}.get(c, c)
        noun = None
        for j in range(i + 1, min(i + 4, len(joined))):  # "a red ... motorcycle"
            if joined[j] in ("in", "on", "at", "with", "of") or joined[j] in LAYOUT - {"light", "dark"}:
                break
            if colours_of(joined[j]) is not None or (joined[j] not in COLOURS and _is_noun(joined[j])
                                                    and joined[j] not in ("and",)):
                noun = joined[j]
                break
        if noun is None and i >= 2 and joined[i - 1] == "in":  # "a person in black"
            noun = joined[i - 2]
        allowed = colours_of(noun) if noun else None
        if allowed is not None and c not in allowed:
            wrong_colours.append(f"{w} {noun}")
    return wrong_nouns, wrong_colours


def scores(refs: dict[str, str], caps: dict[str, str]) -> tuple[float, float]:
    from pycocoevalcap.cider.cider import Cider
    from pycocoevalcap.meteor.meteor import Meteor

    gts = {k: [" ".join(tokens(v))] for k, v in refs.items()}
    res = {k: [" ".join(tokens(caps[k]))] for k in refs}
    cider, _ = Cider().compute_score(gts, res)
    try:
        meteor, _ = Meteor().compute_score(gts, res)
    except Exception as e:  # no java
        print(f"METEOR not computed: {e}", file=sys.stderr)
        meteor = float("nan")
    return float(cider), float(meteor)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args(argv)
    import cv2
    import described_photos as dp
    import torch

    from agent.describe.caption import describe_image

    torch.set_num_threads(1)
    cv2.setNumThreads(1)
    truth = {d["name"]: d for d in json.loads(DESCRIPTIONS.read_text())}
    names = [n for n in dp.present() if n in truth]
    caps, times = {}, []
    for n in names:
        img = dp.load(n)
        t = time.perf_counter()
        caps[n] = describe_image(img).text
        times.append(time.perf_counter() - t)
    for part in ("dev", "held"):
        sel = [n for n in names if dp.split(n) == part]
        bad_noun = bad_colour = bad_any = 0
        for n in sel:
            wn, wc = judge(caps[n], truth[n])
            bad_noun += bool(wn)
            bad_colour += bool(wc)
            bad_any += bool(wn or wc)
            if args.verbose and part == "dev":
                print(f"{n}: {caps[n]}\n    wrong nouns {wn}  wrong colours {wc}")
        cider, meteor = scores({n: truth[n]["text"] for n in sel}, caps)
        print(f"[{part}] {len(sel)} photos")
        print(f"{'CIDEr-D':<44}{cider:>8.3f}")
        print(f"{'METEOR':<44}{meteor:>8.3f}")
        print(f"{'captions with a wrong noun':<44}{bad_noun / len(sel):>8.3f} ({bad_noun}/{len(sel)})")
        print(f"{'captions with a wrong colour':<44}{bad_colour / len(sel):>8.3f} ({bad_colour}/{len(sel)})")
        print(f"{'captions with a wrong noun or colour':<44}{bad_any / len(sel):>8.3f} ({bad_any}/{len(sel)})")
    print(f"{'describe latency (1024 px), median s':<44}{np.median(times):>8.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
