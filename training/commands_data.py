"""CAISE command data: loading, visual concepts, and CAISE's exact-match metric."""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from agent.grammar.commands import CommandError, command_type, parse_command

DATA_DIR = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "caise"
if not DATA_DIR.exists():  # worktrees live in /work/wt/NAME, the data in /work/shared
    DATA_DIR = Path("/work/shared/data/caise")


@dataclass
class Example:
    """One request: the dialogue so far, the concepts of the image in play, the target command."""

    history: list[str]
    concepts: list[str]
    api: str
    uid: str = ""
    source: str = "caise"
    extra: dict = field(default_factory=dict)


class ConceptIndex:
    """Concept phrases of CAISE images, looked up by image id (``md_12_image_3``)."""

    def __init__(self, concepts_path: str | Path, id2idx_path: str | Path):
        try:
            self.concepts = json.loads(Path(concepts_path).read_text())
            self.id2idx = json.loads(Path(id2idx_path).read_text())
        except (OSError, json.JSONDecodeError) as exc:
            raise ValueError(f"cannot read the image concepts ({concepts_path}, {id2idx_path}): {exc}") from exc

    def of(self, image_id: str) -> list[str]:
        idx = self.id2idx.get(image_id.strip())
        if idx is None or not 0 <= idx < len(self.concepts):
            return []
        return list(self.concepts[idx])


def load_caise(path: str | Path, concepts: ConceptIndex | None = None) -> list[Example]:
    """Examples of a CAISE-format file; the concepts are those of the last image loaded."""
    path = Path(path)
    try:
        data = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as exc:
        raise ValueError(f"cannot read {path}: {exc}") from exc
    if not isinstance(data, list):
        raise ValueError(f"{path}: expected a JSON list of CAISE instances")
    out = []
    for i, item in enumerate(data):
        if not isinstance(item, dict) or "api" not in item or "history_utte" not in item:
            raise ValueError(f"{path}: instance {i} lacks 'api' or 'history_utte'")
        imgs = [s.strip() for s in item.get("history_img", []) if str(s).strip()]
        con = concepts.of(imgs[-1]) if (concepts and imgs) else list(item.get("concepts", []))
        out.append(Example(list(item["history_utte"]), con, item["api"], str(item.get("uid", i)),
                           item.get("source", "caise")))
    return out


def find_concepts(data_file: str | Path, concepts: str | Path | None = None,
                  id2idx: str | Path | None = None) -> ConceptIndex | None:
    """The concept index beside ``data_file`` (or given); None when there is none."""
    folder = Path(data_file).resolve().parent
    c = Path(concepts) if concepts else folder / "image_concept.json"
    m = Path(id2idx) if id2idx else folder / "image_h5_id2idx.json"
    if concepts or id2idx or (c.exists() and m.exists()):
        return ConceptIndex(c, m)
    return None


def gold_type(api: str) -> str:
    """CAISE's command type of a target (search, brightness, contrast, ...)."""
    try:
        return command_type(api)
    except CommandError:
        return api.split()[0].lower() if api.split() else "?"


def caise_match(pred: str | None, gold: str) -> bool:
    """CAISE's rule: exact match after lowercasing and trimming; search words in any order;
    adjust_color correct when the colour matches, whatever the intensity."""
    if pred is None:
        return False
    p, g = " ".join(pred.lower().split()), " ".join(gold.lower().split())
    if p == g:
        return True
    pw, gw = p.split(), g.split()
    if not pw or not gw or pw[0] != gw[0]:
        return False
    if gw[0] == "search":
        return sorted(pw[1:]) == sorted(gw[1:])
    if gw[0] == "adjust_color":
        return len(pw) > 1 and len(gw) > 1 and pw[1] == gw[1]
    return False


def accuracy_table(preds: list[str | None], golds: list[str]) -> dict:
    """Exact-match accuracy per command type and in total."""
    hit: Counter = Counter()
    n: Counter = Counter()
    for p, g in zip(preds, golds):
        t = gold_type(g)
        n[t] += 1
        hit[t] += caise_match(p, g)
    order = ["search", "adjust_color", "brightness", "contrast", "rotate", "image_cutout"]
    types = [t for t in order if t in n] + sorted(t for t in n if t not in order)
    table = {t: {"n": n[t], "correct": hit[t], "accuracy": hit[t] / n[t]} for t in types}
    total = sum(n.values())
    table["total"] = {"n": total, "correct": sum(hit.values()),
                      "accuracy": sum(hit.values()) / total if total else 0.0}
    return table


def confusion(preds: list[str | None], golds: list[str]) -> dict[str, Counter]:
    out: dict[str, Counter] = defaultdict(Counter)
    for p, g in zip(preds, golds):
        pt = "none" if p is None else gold_type(p)
        out[gold_type(g)][pt] += 1
    return dict(out)


def valid_command(text: str) -> bool:
    try:
        parse_command(text)
        return True
    except CommandError:
        return False


def search_breakdown(examples: list[Example], preds: list[str | None]) -> Counter:
    """Where the gold words of each search could come from, split by right/wrong:

    - ``request``: all in the last request; ``dialogue``: all in the dialogue so far;
    - ``concepts``: all in the dialogue or the concept phrases (copyable, but the concept must be chosen);
    - ``elsewhere``: some gold word is in neither: the model can only guess it from its vocabulary
      (the object 'the man is holding', a misspelling, a plural the user did not type).
    Errors are also counted as ``colour only`` when the words match apart from one colour word.
    """
    from agent.command_model import SEARCH_COLOURS, concept_words, history_words, words_of

    out: Counter = Counter()
    for ex, pred in zip(examples, preds):
        if gold_type(ex.api) != "search":
            continue
        ok = caise_match(pred, ex.api)
        gold = set(words_of(ex.api)[1:])
        hw = history_words(ex.history)
        request = {w for w, t in hw if t == 0}
        dialogue = {w for w, _ in hw}
        if gold <= request:
            where = "request"
        elif gold <= dialogue:
            where = "dialogue"
        elif gold <= dialogue | set(concept_words(ex.concepts)):
            where = "concepts"
        else:
            where = "elsewhere"
        out[("right" if ok else "wrong", where)] += 1
        if not ok and pred:
            said = set(words_of(pred)[1:])
            if gold - SEARCH_COLOURS == said - SEARCH_COLOURS and gold != said:
                out[("wrong", "colour only")] += 1
    return out
