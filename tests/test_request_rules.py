"""The request reader's rules as a registry: named, switchable, each with examples that run here; and
the one lexicon that the reader, the command model's rules and the object edits share."""

from __future__ import annotations

import pytest

from agent.grammar.commands import parse_command
from agent.grammar.lexicon import DEFAULT_AMOUNTS
from agent.language import reader
from agent.language.words import has_evidence
from agent.perception.things import detector_words, names_object, thing_words

EXAMPLES = [(rule.name, clause, expected) for rule in reader.RULES for clause, expected in rule.examples]


def _outcome(read, clause: str) -> str:
    c = reader.strip_polite(reader.clean_text(clause))
    try:
        out = read(c)
    except reader.Refusal:
        return "refuse"
    return "none" if out is None else "; ".join(command.format() for command in out)


def test_rules_are_named_once_and_have_examples():
    assert len(set(reader.RULE_NAMES)) == len(reader.RULES) >= 10
    assert all(rule.examples for rule in reader.RULES)


@pytest.mark.parametrize("name, clause, expected", EXAMPLES)
def test_each_rule_reads_its_examples(name, clause, expected):
    rule = next(r for r in reader.RULES if r.name == name)
    assert _outcome(rule.read, clause) == expected
    assert _outcome(reader.read_clause, clause) == expected  # no earlier rule takes the clause away


@pytest.mark.parametrize("rule", reader.RULES, ids=lambda r: r.name)
def test_switching_a_rule_off_changes_its_examples(rule):
    try:
        reader.use_rules(f"-{rule.name}")
        off = [_outcome(reader.read_clause, clause) for clause, _ in rule.examples]
    finally:
        reader.use_rules(None)
    assert off != [expected for _, expected in rule.examples]


def test_unknown_rule_names_are_refused():
    with pytest.raises(ValueError, match="unknown rule"):
        reader.use_rules("-no_such_rule")
    assert reader.use_rules(None) == frozenset(reader.RULE_NAMES)


@pytest.mark.parametrize("utterance, line, expected", [
    ("tell me a joke", "background white", False),
    ("tell me a joke", "auto_enhance", False),
    ("tell me a joke", "remove the joke", False),
    ("tell me a joke", "adjust_attr hue 30", False),
    ("make the background white", "background white", True),
    ("get rid of the dog", "remove the dog", True),
    ("make it look better", "auto_enhance", True),
])
def test_has_evidence_is_keyed_by_command_type(utterance, line, expected):
    assert has_evidence(parse_command(line), utterance, photo_open=True) is expected


def test_the_reader_and_the_finder_agree_on_what_can_be_found():
    words = thing_words()
    assert words == reader.detectable() and detector_words() < words
    for word in sorted(words):
        assert names_object(f"the {word}"), word
    for word in ("tiger", "swans", "animal"):  # the caption's words for what the detector finds
        assert word in words and word not in detector_words()
    for word in ("joke", "light", "sky", "head", "crane"):
        assert word not in words and not names_object(f"the {word}")
    assert names_object("the kangaroo on the left") and "kangaroo" not in words  # any animal WordNet knows


def test_one_table_of_default_amounts_for_the_reader_and_the_model_rules():
    from agent.command_model.grammar import PLUS
    from agent.command_model.rules import RuleContext, attr_amount

    for attr, (small, normal, large) in DEFAULT_AMOUNTS.items():
        if attr == "tint":
            continue
        for words, amount in ((["sharpen", "it", "a", "bit"], small), (["sharpen", "it"], normal),
                              (["sharpen", "it", "a", "lot"], large)):
            fix = attr_amount(["adjust_attr", attr, PLUS, "33"], RuleContext(request=words))
            assert float(fix.tokens[3]) == amount, (attr, words)
    line = reader.read("sharpen it a bit").commands[0].format()
    assert line == f"adjust_attr sharpness {DEFAULT_AMOUNTS['sharpness'][0]}"
