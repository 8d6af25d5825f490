"""The real runs shipped in runs/example/, and the README's worked example made from them: every
output the README shows is what eval.py prints today, line for line."""

import json
import subprocess
import sys

import pytest

from conftest import ROOT, evalpy

EXAMPLES = sorted((ROOT / "runs" / "example").glob("*.json"))


def shown_sessions():
    """(command, lines shown) for each `$ python eval.py ...` in the README's fenced blocks."""
    blocks, block = [], None
    for line in (ROOT / "README.md").read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            block = [] if block is None else blocks.append(block)   # opens, or closes (None)
        elif block is not None:
            block.append(line)
    return [(lines[0][len("$ python eval.py "):].split(), lines[1:]) for lines in blocks
            if lines and lines[0].startswith("$ python eval.py ") and "runs/example/" in lines[0]]


def test_the_examples_are_complete_runs_of_todays_golden_set():
    assert {p.name for p in EXAMPLES} >= {"dev-v1.json", "dev-v2.json", "dev-v3.json", "test-v3.json",
                                          "dev-v3-schema.json"}
    for path in EXAMPLES:
        run = json.loads(path.read_text(encoding="utf-8"))
        config = run["config"]
        split = ROOT / config["split_path"]
        assert config["split_sha"] == evalpy.sha256_bytes(split.read_bytes()), path.name
        assert config["model"] == "SmolLM2-135M-Instruct-Q4_1" and config["api"] == "openai"
        assert len(run["results"]) == config["cases"] and all(r["error"] is None for r in run["results"])
        assert "num_predict" not in config["options"]   # the examples have no answer-length limit


def test_the_constrained_example_was_asked_in_llama_cpp_pythons_form():
    run = json.loads((ROOT / "runs" / "example" / "dev-v3-schema.json").read_text(encoding="utf-8"))
    assert run["config"]["format"] == "schema" and run["config"]["response_format"] == "json_object"
    assert all(json.loads(r["response"])["label"] in run["config"]["labels"] for r in run["results"])


@pytest.mark.parametrize("argv, shown", shown_sessions(), ids=[" ".join(a) for a, _ in shown_sessions()])
def test_the_readme_shows_what_eval_py_prints(argv, shown):
    done = subprocess.run([sys.executable, str(ROOT / "eval.py"), *argv], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    printed = done.stdout.splitlines()
    at = 0
    for line in shown:   # in order; "..." stands for lines the README leaves out
        if line == "...":
            continue
        assert line in printed[at:], f"README shows {line!r}; eval.py {' '.join(argv)} does not print it there"
        at = printed.index(line, at) + 1


def test_the_worked_example_shows_the_constrained_run():
    commands = [" ".join(argv) for argv, _ in shown_sessions()]
    assert "compare runs/example/dev-v3.json runs/example/dev-v3-schema.json" in commands
    assert "report runs/example/dev-v3-schema.json" in commands


def test_the_fake_server_runs_by_hand_and_answers_the_shipped_sets(project):
    """README, "Try it without Ollama": python tests/fake_ollama.py, then eval.py as written."""
    fake = subprocess.Popen([sys.executable, str(ROOT / "tests" / "fake_ollama.py"), "--port", "0"],
                            stdout=subprocess.PIPE, text=True)
    try:
        url = fake.stdout.readline().split()[3].rstrip(",")
        assert url.startswith("http://127.0.0.1:")
        for split in ("dev", "golden/support/dev.jsonl"):
            done = subprocess.run([sys.executable, str(ROOT / "eval.py"), "run", "--split", split, "--host", url],
                                  capture_output=True, text=True, timeout=120)
            assert done.returncode == 0, done.stderr
            assert "errors 0" in done.stderr and "Traceback" not in done.stderr
        s = json.loads(subprocess.run([sys.executable, str(ROOT / "eval.py"), "report", "runs/dev-v3.json", "--json"],
                                      capture_output=True, text=True).stdout)
        assert 0.6 <= s["accuracy"] < 1   # plausible: mostly right, not all
    finally:
        fake.terminate()
        fake.wait()
