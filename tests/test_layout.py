"""eval.py's order is its architecture: helpers and records first, each stage after what it uses."""

import ast
import re

from conftest import ROOT

SOURCE = open(f"{ROOT}/eval.py", encoding="utf-8").read()
TREE = ast.parse(SOURCE)
MOST_FORWARD_USES = 20   # issue 25's bound; eval.py has far fewer today


def sections():
    """[(first line, number)] of the numbered banners: a dashed line, then '# N. ...'."""
    lines = SOURCE.splitlines()
    return [(i + 2, int(m.group(1))) for i, line in enumerate(lines[:-1])
            if line.startswith("# ----") and (m := re.match(r"# (\d+)\.", lines[i + 1]))]


def section_of(lineno, banners):
    return max((number for first, number in banners if first <= lineno), default=0)


def defined_names(node):
    if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
        return [node.name]
    targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
    return [n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)]


def local_names(node):
    """Names a definition binds itself (arguments, assignments, except-as): never another section's."""
    names = set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.arg):
            names.add(sub.arg)
        elif isinstance(sub, ast.Name) and not isinstance(sub.ctx, ast.Load):
            names.add(sub.id)
        elif isinstance(sub, ast.ExceptHandler) and sub.name:
            names.add(sub.name)
        elif isinstance(sub, (ast.FunctionDef, ast.ClassDef)) and sub is not node:
            names.add(sub.name)
    return names


def forward_uses():
    """{(user, used)}: a top-level definition using a top-level name of a later section."""
    banners = sections()
    home = {name: section_of(node.lineno, banners) for node in TREE.body for name in defined_names(node)}
    uses = set()
    for node in TREE.body:
        where = section_of(node.lineno, banners)
        own = local_names(node) if isinstance(node, (ast.FunctionDef, ast.ClassDef)) else set()
        for sub in ast.walk(node):
            if (isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Load) and sub.id not in own
                    and home.get(sub.id, 0) > where):
                uses.add((", ".join(defined_names(node)) or f"line {node.lineno}", sub.id))
    return uses


def test_the_sections_are_numbered_in_order_and_named_in_the_map():
    numbers = [number for _, number in sections()]
    assert numbers == list(range(1, len(numbers) + 1))
    doc = ast.get_docstring(TREE)
    for number in numbers:
        assert re.search(rf"^\s*{number}\. \w", doc, re.M), f"section {number} is missing from the docstring's map"


def test_earlier_sections_seldom_reach_forward():
    uses = forward_uses()
    assert len(uses) <= MOST_FORWARD_USES, sorted(uses)


def test_the_forward_count_sees_a_forward_use():
    """The counter can fail: a name used before its section is counted."""
    banners = sections()
    assert banners and section_of(banners[-1][0], banners) == banners[-1][1]
    assert ("EvalError", "main") not in forward_uses()   # sanity: helpers do not call the command line
    assert any(user == "score" for user, _ in forward_uses())   # score() uses the statistics after it

