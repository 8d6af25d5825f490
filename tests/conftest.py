"""Shared fixtures: a fake Ollama on 127.0.0.1, a throw-away project folder, the CLI in-process."""

import json
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

import eval as evalpy  # noqa: E402  (eval.py, the tool under test)
from fake_ollama import FakeOllama  # noqa: E402


@pytest.fixture
def fake():
    server = FakeOllama().start()
    yield server
    server.stop()


@pytest.fixture
def project(tmp_path, monkeypatch):
    """A copy of the golden set and prompts in a temporary folder that is the working directory."""
    shutil.copytree(ROOT / "golden", tmp_path / "golden")
    shutil.copytree(ROOT / "prompts", tmp_path / "prompts")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("OLLAMA_HOST", raising=False)
    monkeypatch.setattr(evalpy, "RETRY_BASE_SECONDS", 0.01)   # keep retry tests fast
    return tmp_path


@pytest.fixture
def cli(capsys):
    """Run `eval.py ARGS` in-process; returns (exit code, stdout, stderr)."""
    def run(*argv):
        code = evalpy.main([str(a) for a in argv])
        out, err = capsys.readouterr()
        return code, out, err
    return run


def read_cases(path):
    return [json.loads(line) for line in Path(path).read_text(encoding="utf-8").splitlines()]


def answer_key(split_path, overrides=None):
    """input text -> answer: the expected label, except for the ids in overrides."""
    overrides = overrides or {}
    return {c["input"]: overrides.get(c["id"], c["expected"]) for c in read_cases(split_path)}


def load_json(path):
    return json.loads(Path(path).read_text(encoding="utf-8"))
