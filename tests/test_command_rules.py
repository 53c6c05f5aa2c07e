"""The command model's rule registry: every rule documented and measurable, switched by name."""

from __future__ import annotations

import math

import pytest

from agent.command_model import RULE_NAMES, RULES, RuleContext, apply_rules, read, select_rules, words_of
from agent.command_model.decode import Beam


def test_every_rule_has_an_example_and_its_measured_worth():
    assert len(set(RULE_NAMES)) == len(RULES)
    for rule in RULES:
        doc = rule.fn.__doc__ or ""
        assert "Worth on validation:" in doc, rule.name
        assert "'" in doc, rule.name  # a quoted example request


@pytest.mark.parametrize("spec, expected", [
    ("all", set(RULE_NAMES)), (True, set(RULE_NAMES)), ("none", set()), (False, set()),
    ("rotate_direction,crop_box", {"rotate_direction", "crop_box"}),
    ("-rotate_direction", set(RULE_NAMES) - {"rotate_direction"}),
])
def test_select_rules(spec, expected):
    assert select_rules(spec) == expected


@pytest.mark.parametrize("spec", ["rotate_directions", "crop_box,-rotate_direction"])
def test_select_rules_refuses_typos_and_mixtures(spec):
    with pytest.raises(ValueError):
        select_rules(spec)


def test_a_rule_switched_off_leaves_the_models_words():
    ctx = RuleContext(words_of("rotate the image clockwise 90"))
    tokens = ["rotate", "<left>", "90"]
    assert apply_rules(tokens, ctx).tokens == ["rotate", "<right>", "90"]
    assert apply_rules(tokens, ctx).fired == ["rotate_direction"]
    assert apply_rules(tokens, ctx, select_rules("-rotate_direction")).tokens == tokens


def test_read_applies_the_rules_then_the_confidence_skips_what_they_decided():
    beam = Beam(["adjust_attr", "brightness", "<plus>", "30"], [-0.1, -0.2, -0.3, -1.5, -0.1])
    ctx = RuleContext(words_of("make it a bit darker"))
    r = read(beam, ctx)
    assert r.text == "adjust_attr brightness -10"
    assert r.confidence == pytest.approx(math.exp(-0.1 - 0.2 - 0.1))
    assert read(beam, None).text == "adjust_attr brightness 30"  # no context: no rules


def test_evaluate_commands_refuses_an_unknown_rule(capsys):
    from training.__main__ import main

    assert main(["evaluate-commands", "missing.json", "--rules", "no_such_rule"]) == 2
    assert "unknown rule" in capsys.readouterr().err
