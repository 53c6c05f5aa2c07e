"""The examples in docstrings run: every module of agent/ and editor/ with a doctest is checked here
(examples that need models or photos are marked ``# doctest: +SKIP`` where they are written)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import agent
import editor


def _modules() -> list[str]:
    names = []
    for package in (agent, editor):
        for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            names.append(info.name)
    return sorted(names)


@pytest.mark.parametrize("name", _modules())
def test_docstring_examples(name):
    module = importlib.import_module(name)
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    for test in finder.find(module, name):
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"
