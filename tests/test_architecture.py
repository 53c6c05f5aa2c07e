"""The house rules that keep agent/, editor/, app/ and training/ readable, checked on the import graph.

import-linter (``make lint``) checks the layers; this checks what it cannot: no import cycles at all
(imports inside functions included), no module importing another module's private names, a
docstring on every package of agent/, and a runner for every command that edits an image.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("agent", "editor", "app", "training")


def _graph():
    sys.path.insert(0, str(ROOT))
    return grimp.build_graph(*PACKAGES)


def test_no_import_cycles():
    graph = _graph()
    cycles = []
    for module in sorted(graph.modules):
        for imported in graph.find_modules_directly_imported_by(module):
            if imported.split(".")[0] in PACKAGES and graph.find_shortest_chain(importer=imported, imported=module):
                cycles.append(f"{module} <-> {imported}")
    assert not cycles, cycles


def test_no_module_imports_private_names():
    found = []
    for path in ROOT.rglob("*.py"):
        if ".venv" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] in PACKAGES:
                found += [f"{path.relative_to(ROOT)}: {node.module}.{a.name}" for a in node.names
                          if a.name.startswith("_") and not a.name.startswith("__")]
    assert not found, found


def test_every_agent_package_says_what_it_owns():
    for init in sorted((ROOT / "agent").glob("*/__init__.py")):
        doc = ast.get_docstring(ast.parse(init.read_text()))
        assert doc and len(doc.split()) >= 5, f"{init.relative_to(ROOT)} needs a docstring"


def test_every_editing_command_has_a_runner():
    from agent.edits.run import RUNNERS
    from agent.grammar.commands import GRAMMAR

    editing = {cls for classes in GRAMMAR.values() for cls in classes if cls.edits_image}
    assert editing and editing <= set(RUNNERS), editing - set(RUNNERS)
