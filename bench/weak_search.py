"""When is a search's best match too weak to open? Measured on queries written for the sample library.

Each query either names something a photo of ``resources/library`` shows (written from what the
photos show, not from their indexed descriptions; the right photos listed) or something no photo
shows. For a threshold T on the query-description similarity (:data:`agent.search.library.WEAK_SIMILARITY`,
used by :func:`agent.search.library.is_weak` when a query's words are not all in what Easel saw), it
counts:

- right called weak: a query whose answer is in the library, answered "nothing looks like X";
- absent opened: a query for something absent whose best non-match would open;
- right opened right: the query's answer opened and the photo opened is one of the right ones.

T is chosen on the development part (fewest of the two errors; ties: the lower T), and the held-out
part, never used to choose, is then measured at that T. Run::

    .venv/bin/python bench/weak_search.py [--thresholds 0.30 0.35 ...]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agent.search import library as lib  # noqa: E402

# (query, right photos): written from what the photos show. None: nothing in the library shows it.
DEV = [
    ("a cat", ["chelsea.jpg", "two_cats.jpg", "blue_cat.jpg", "cat_and_coffee.jpg"]),
    ("cup of coffee", ["coffee.jpg", "cat_and_coffee.jpg"]),
    ("motorbike", ["motorcycle.jpg"]),
    ("a red balloon", ["red_balloon.jpg"]),
    ("stop sign", ["stop_sign.png"]),
    ("rocket", ["rocket.jpg"]),
    ("moon", ["moon.png"]),
    ("coins", ["coins.png"]),
    ("an astronaut", ["astronaut.jpg", "astronaut_face.jpg"]),
    ("a horse", ["horse.png"]),
    ("two cats", ["two_cats.jpg"]),
    ("green field", ["green_field.jpg"]),
    ("snowy tree", ["snowy_tree.jpg"]),
    ("a flag", ["tricolour_flag.png"]),
    ("sale poster", ["sale_poster.png"]),
    ("an exit sign", ["exit_sign.png"]),
    ("brick wall", ["brick.jpg"]),
    ("a clock", ["clock.jpg"]),
    ("galaxies", ["hubble_deep_field.jpg"]),
    ("sunset", ["sunset.jpg"]),
    ("a giraffe", None), ("a dog", None), ("pizza", None), ("an elephant", None), ("kites on a beach", None),
    ("a bicycle", None), ("a car", None), ("a birthday cake", None), ("a snowman", None), ("a sailing boat", None),
    ("a waterfall", None), ("a bride", None), ("a guitar", None), ("a laptop", None), ("a bowl of fruit", None),
    ("a mountain lake", None), ("a tiger", None), ("a pair of shoes", None), ("an airplane", None),
    ("a teddy bear", None),
]
HELD_OUT = [
    ("a grey cat", ["chelsea.jpg", "two_cats.jpg", "cat_and_coffee.jpg"]),
    ("coffee cup", ["coffee.jpg", "cat_and_coffee.jpg"]),
    ("a motorcycle", ["motorcycle.jpg"]),
    ("the moon", ["moon.png"]),
    ("a space rocket", ["rocket.jpg"]),
    ("a photographer with a camera", ["camera.png"]),
    ("a red stop sign", ["stop_sign.png"]),
    ("a black and white horse", ["horse.png"]),
    ("stars in space", ["hubble_deep_field.jpg"]),
    ("espresso", ["coffee.jpg", "cat_and_coffee.jpg"]),
    ("a zebra", None), ("a sandwich", None), ("a train", None), ("a lighthouse", None), ("fireworks", None),
    ("a bridge", None), ("a penguin", None), ("a christmas tree", None), ("a beach with palm trees", None),
    ("a football match", None),
]


def count(rows, threshold: float, encoder=None) -> dict:
    """The figures at ``threshold`` over ``rows`` of (query, right photos, best match): the threshold is
    :data:`~agent.search.library.WORD_SUPPORT` with ``encoder`` (the words' closeness to what perception
    named), else :data:`~agent.search.library.WEAK_SIMILARITY` (the query's to the description)."""
    name = "WORD_SUPPORT" if encoder is not None else "WEAK_SIMILARITY"
    old = getattr(lib, name)
    setattr(lib, name, threshold)
    try:
        out = {"right": 0, "right_called_weak": 0, "right_opened_right": 0, "absent": 0, "absent_opened": 0}
        for query, right, best in rows:
            weak = lib.is_weak(query, best, encoder)
            if right is None:
                out["absent"] += 1
                out["absent_opened"] += not weak
            else:
                out["right"] += 1
                out["right_called_weak"] += weak
                out["right_opened_right"] += (not weak) and Path(best.path).name in right
        return out
    finally:
        setattr(lib, name, old)


def line(name: str, threshold: float, c: dict) -> str:
    return (f"{name:9} T={threshold:.2f}  right called weak {c['right_called_weak']}/{c['right']}  "
            f"absent opened {c['absent_opened']}/{c['absent']}  right opened and right "
            f"{c['right_opened_right']}/{c['right']}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--thresholds", type=float, nargs="*",
                    default=[round(0.30 + 0.025 * i, 3) for i in range(21)])
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        library = lib.Library(Path(tmp) / "library.db")
        t0 = time.perf_counter()
        library.ensure_sample()
        print(f"indexed the sample library ({library.count()} photos) in {time.perf_counter() - t0:.1f} s")
        dev = [(q, r, library.search(q, limit=1)[0]) for q, r in DEV]
        held = [(q, r, library.search(q, limit=1)[0]) for q, r in HELD_OUT]
        library.close()

    encoder = library.encoder
    print("before: the query's similarity to the description alone (WEAK_SIMILARITY "
          f"{lib.WEAK_SIMILARITY:.2f}, set by hand):")
    for name, rows in (("dev", dev), ("held-out", held)):
        print("  " + line(name, lib.WEAK_SIMILARITY, count(rows, lib.WEAK_SIMILARITY)))
    print("each missing word's closeness to what perception named (WORD_SUPPORT), chosen on dev:")
    scored = []
    for t in args.thresholds:
        c = count(dev, t, encoder)
        scored.append((c["right_called_weak"] + c["absent_opened"], t))
        print("  " + line("dev", t, c))
    errors, chosen = min(scored)
    print(f"chosen WORD_SUPPORT={chosen:.2f} ({errors} errors on dev); in the code now: {lib.WORD_SUPPORT:.2f}")
    for name, rows in (("dev", dev), ("held-out", held)):
        print(line(name, chosen, count(rows, chosen, encoder)))
        if abs(chosen - lib.WORD_SUPPORT) > 1e-9:
            print(line(name, lib.WORD_SUPPORT, count(rows, lib.WORD_SUPPORT, encoder)) + "  (the code's)")
    print("similarities of the best match (dev):")
    for q, r, best in dev:
        missing = lib.missing_words(q, best)
        near = ", ".join(f"{w} {lib.support(w, best, encoder):.2f}" for w in missing)
        print(f"  {q!r:24} {'absent' if r is None else 'present':7} {Path(best.path).name:22} "
              f"sim {best.similarity or 0:.3f} missing: {near}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
