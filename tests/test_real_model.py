"""End to end against a real model: no fake anywhere. Asserts the pipeline, never the accuracy
(a 135M model does badly, and that is fine here)."""

import json
import os
import subprocess
import sys

import pytest

import real_model
from conftest import ROOT

pytestmark = pytest.mark.skipif(real_model.missing() is not None, reason=str(real_model.missing()))

# Answers are cut at 16 tokens so the suite stays fast; the committed runs/ have no such limit.
LIMIT = ["--option", "num_predict=16"]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    proc, url = real_model.start(tmp_path_factory.mktemp("server") / "llama-server.log")
    yield url
    real_model.stop(proc)


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    folder = tmp_path_factory.mktemp("real")
    for name in ("golden", "prompts"):
        subprocess.run(["cp", "-r", str(ROOT / name), str(folder / name)], check=True)
    return folder


def eval_py(project, *args):
    env = {k: v for k, v in os.environ.items() if k not in ("OLLAMA_HOST", "OPENAI_API_KEY")}
    return subprocess.run([sys.executable, str(ROOT / "eval.py"), *args], cwd=project, capture_output=True,
                          text=True, timeout=900, env=env)


def test_a_real_model_end_to_end(server, project):
    for version in ("v1", "v2", "v3"):
        done = eval_py(project, "run", "--split", "dev", "--api", "openai", "--host", server,
                       "--model", real_model.ALIAS, "--prompt", f"prompts/{version}.txt", *LIMIT)
        assert done.returncode == 0, done.stderr
        assert done.stdout.startswith("Accuracy: ")
        run = json.loads((project / "runs" / f"dev-{version}.json").read_text(encoding="utf-8"))
        config = run["config"]
        assert config["model"] == real_model.ALIAS and config["api"] == "openai" and config["host"] == server
        assert config["server_version"] == "uvicorn" and config["options"] == {"num_predict": 16}
        assert len(run["results"]) == 25
        for r in run["results"]:
            assert r["error"] is None and isinstance(r["response"], str)
            assert r["completion_tokens"] <= 16 and r["prompt_tokens"] > 0 and r["latency_ms"] > 0

    report = eval_py(project, "report", "runs/dev-v2.json", "--json")
    assert report.returncode == 0
    figures = json.loads(report.stdout)
    assert figures["scored"] == 25 and figures["errors"] == [] and figures["baseline"]["correct"] == 11

    compare = eval_py(project, "compare", "runs/dev-v1.json", "runs/dev-v3.json")
    assert compare.returncode == 0
    assert "  prompt: prompts/v1.txt -> prompts/v3.txt" in compare.stdout and "McNemar exact test" in compare.stdout


def test_the_same_seed_twice_and_the_measured_disagreement(server, project):
    for out in ("runs/seed-a.json", "runs/seed-b.json"):
        done = eval_py(project, "run", "--split", "dev", "--api", "openai", "--host", server, "--model",
                       real_model.ALIAS, "--prompt", "prompts/v2.txt", "--seed", "7", "--out", out, *LIMIT)
        assert done.returncode == 0, done.stderr
    a, b = (json.loads((project / p).read_text(encoding="utf-8")) for p in ("runs/seed-a.json", "runs/seed-b.json"))
    same = sum(x["response"] == y["response"] for x, y in zip(a["results"], b["results"]))
    compare = eval_py(project, "compare", "runs/seed-a.json", "runs/seed-b.json")
    assert "Changed: nothing in the configuration" in compare.stdout
    # whatever the server does, compare reports exactly what was measured
    assert f"Identical raw answers: {same} of 25" in compare.stdout
    print(f"same seed twice on a real model: {same} of 25 answers identical")
