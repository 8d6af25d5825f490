"""The shape of eval.py: each command is a short list of stages, and every option, its default
and its rules come from one table, OPTIONS."""

import ast
import os
import re
import shutil
import subprocess

import pytest

from conftest import ROOT, evalpy

LONGEST_COMMAND = 25   # lines, def to last line: a cmd_* only calls stages by name

# The positional arguments each command needs to parse
POSITIONALS = {"run": [], "report": ["r.json"], "compare": ["a.json", "b.json"], "runs": [], "judge": ["r.json"],
               "calibrate": ["human.jsonl", "r.json"], "review": ["r.json"], "power": [],
               "init": ["DIR"]}


def test_every_command_is_a_short_list_of_stages():
    tree = ast.parse((ROOT / "eval.py").read_text(encoding="utf-8"))
    commands = {node.name: node.end_lineno - node.lineno + 1 for node in tree.body
                if isinstance(node, ast.FunctionDef) and node.name.startswith("cmd_")}
    assert set(commands) == {f"cmd_{c}" for c in POSITIONALS}
    assert {name: n for name, n in commands.items() if n > LONGEST_COMMAND} == {}


def test_every_option_of_the_table_is_parsed_with_its_default():
    """What main() leaves in args for a command given no option is the table's default, for every
    row; a run-config or judge-call option is None in the parser so that even its default typed out
    is seen as given."""
    for command, positionals in POSITIONALS.items():
        args = evalpy.parser().parse_args([command, *positionals])
        for option in evalpy.options_of(command):
            deferred = option.run_config or option.judge_call or option.seen_given
            assert getattr(args, option.dest) == (None if deferred else option.default), option.flags[0]


@pytest.mark.parametrize("command", ["run", "compare", "judge"])
def test_the_defaults_filled_in_are_the_tables(project, monkeypatch, command):
    seen = {}

    def handler(args):
        if command != "run":
            evalpy.call_defaults(args)   # what compare --pairwise and judge do before they call a judge
        seen.update(vars(args))
        return 0

    monkeypatch.setattr(evalpy, f"cmd_{command}", handler)
    assert evalpy.main([command, *POSITIONALS[command]]) == 0
    for option in evalpy.options_of(command):
        assert seen[option.dest] == option.default, option.flags[0]
    if command == "run":
        assert seen["config_given"] == [] and seen["model"] == evalpy.DEFAULT_MODEL and seen["api"] == "ollama"


def test_the_help_shows_each_option_and_the_default_the_table_holds(capsys):
    for command in POSITIONALS:
        with pytest.raises(SystemExit):
            evalpy.main([command, "--help"])
        shown = " ".join(capsys.readouterr().out.split())   # unwrapped
        for option in evalpy.options_of(command):
            assert option.flags[0] in shown
            default = option.default
            if default is None or isinstance(default, (bool, list)):
                continue   # nothing, off, or empty: the help says what happens instead
            assert "default" in option.help and (f"{default:g}" if isinstance(default, (int, float)) else default) \
                in " ".join(option.help.split()), option.flags[0]


def test_run_help_names_every_default_name_the_readme_does(capsys):
    """Round 109: run --help gave runs/<split>-<prompt>.json or the next free name, where a run of another
    model holding it gives runs/<split>-<prompt>-<model>.json, as README's --out row says."""
    with pytest.raises(SystemExit):
        evalpy.main(["run", "--help"])
    shown = " ".join(capsys.readouterr().out.split())
    row = next(line for line in (ROOT / "README.md").read_text(encoding="utf-8").splitlines() if line.startswith("| `--out` |"))
    names = re.findall(r"`(runs/<[^`]+>\.json)`", row.rsplit("|", 2)[1])
    assert len(names) == 2 and all(name in shown for name in names), (names, shown)


def test_each_commands_help_says_what_an_option_does_there(capsys):
    """125th round's newcomer: judge --help read --rerun-test as run's ("run the held-out test split even though runs/
    shows...", which reads more folders than runs/), its own meaning after "judge:"; run --help's --format named
    Ollama's format alone, where --api openai sends response_format."""
    shown = {}
    for command in ("run", "judge"):
        with pytest.raises(SystemExit):
            evalpy.main([command, "--help"])
        shown[command] = " ".join(capsys.readouterr().out.split())
    assert "--rerun-test judge a run of the held-out test split with another judge" in shown["judge"]
    assert "run the held-out" not in shown["judge"] and "judge a run" not in shown["run"]
    assert "(in runs/, the runs/ of the split's project, or --out's folder)" in shown["run"]
    assert "(over --api openai, response_format json_object)" in shown["run"]


def test_alpha_is_one_constant():
    assert evalpy.compare_runs.__defaults__ [:2] == (evalpy.ALPHA, False) and evalpy.compare_many.__defaults__ == (evalpy.ALPHA,)
    for command in ("compare", "power"):
        (alpha,) = [o for o in evalpy.options_of(command) if o.dest == "alpha"]
        assert alpha.default == evalpy.ALPHA


def test_no_name_of_eval_py_is_given_twice():
    """A second def or constant of a name already given silently replaces the first for every caller: a helper named
    whole_counts (134th round) broke load_run's, and a second TABLE_RULE had left the first unread since it came."""
    tree = ast.parse((ROOT / "eval.py").read_text(encoding="utf-8"))
    names = [node.name for node in tree.body if isinstance(node, (ast.FunctionDef, ast.ClassDef))]
    names += [target.id for node in tree.body if isinstance(node, (ast.Assign, ast.AnnAssign))
              for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
              if isinstance(target, ast.Name)]
    given_twice = sorted({name for name in names if names.count(name) > 1})
    assert given_twice == [], given_twice


OLDER_PYTHON = next((p for p in (shutil.which("python3.10"), "/root/.pyenv/versions/3.10.13/bin/python")
                     if p and os.access(p, os.X_OK) and subprocess.run([p, "-c", "pass"], capture_output=True).returncode == 0),
                    None)


@pytest.mark.skipif(OLDER_PYTHON is None, reason="no Python 3.10 on this machine")
def test_an_older_python_is_told_in_a_word_which_one_eval_py_needs():
    """114th round's newcomer: the README said 3.10+; on 3.10 every command died in a traceback at an import
    (typing.NotRequired, then a pattern's possessive repeat). eval.py needs 3.11, says so, and exits 2."""
    done = subprocess.run([OLDER_PYTHON, str(ROOT / "eval.py"), "--version"], capture_output=True, text=True)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert done.stderr.startswith("error: eval.py needs Python 3.11 or newer; ") and " is 3.10" in done.stderr
    # (137th round's newcomers: the refusal gave no cure; then one, python3.11 -m venv .venv, that kept the venv's old
    # python, so the same refusal came again: --clear makes it anew)
    assert "python3.11 -m venv --clear .venv" in done.stderr and "python3.11 -m venv --clear .venv" in readme
    assert "Python 3.11+" in readme and "3.10" not in readme
