"""End to end against a real model: no fake anywhere. Asserts the pipeline, never the accuracy
(a 135M model does badly, and that is fine here). A server that dies fails the test at once, with
its signal and the end of its log."""

import json
import os
import sys
import time

import pytest

import real_model
from conftest import ROOT, copy_shipped

needs_model = pytest.mark.skipif(real_model.missing() is not None, reason=str(real_model.missing()))

# Answers are cut at 8 tokens, and the dev split runs on four of its cases, so the suite stays fast (every label
# fits; the four hold every label, an easy case of each: the pipeline is asserted, not the model's skill on traps);
# the committed runs have no such limits.
LIMIT = ["--option", "num_predict=8"]
SOME = ["dev-01", "dev-02", "dev-03", "dev-04"]
CASES = len(SOME)
SEED = ["--seed", "7"]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    try:
        server = real_model.start(tmp_path_factory.mktemp("server") / "llama-server.log")
    except real_model.ServerDied as died:
        pytest.fail(str(died), pytrace=False)
    yield server
    server.stop()


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    folder = tmp_path_factory.mktemp("real")
    for name in ("golden", "prompts"):
        copy_shipped(name, folder)
    return folder


def eval_py(server, project, *args):
    env = {k: v for k, v in os.environ.items() if k not in ("OLLAMA_HOST", "OPENAI_API_KEY")}
    try:
        return real_model.run_watched(server, [sys.executable, str(ROOT / "eval.py"), *args], cwd=project, env=env)
    except real_model.ServerDied as died:
        pytest.fail(str(died), pytrace=False)


def ask(server, project, *args, split="dev"):
    return eval_py(server, project, "run", "--split", split, "--api", "openai", "--host", server.url,
                   "--model", real_model.ALIAS, *args)


@pytest.fixture(scope="module")
def dev_runs(server, project):
    """Prompts v1 and v3 on the dev split's first cases, as the README runs them, made once: the
    end-to-end test reads both, and the same-seed test asks v3 again (a real model's run is the slow part here)."""
    return {version: ask(server, project, "--prompt", f"prompts/{version}.txt", *SEED, *LIMIT, "--cases", ",".join(SOME))
            for version in ("v1", "v3")}


@needs_model
def test_a_real_model_end_to_end(server, project, dev_runs):
    for version, done in dev_runs.items():
        assert done.returncode == 0, done.stderr
        assert done.stdout.startswith("Accuracy: ")
        run = json.loads((project / "runs" / f"dev-{version}.json").read_text(encoding="utf-8"))
        config = run["config"]
        assert config["model"] == real_model.ALIAS and config["api"] == "openai" and config["host"] == server.url
        assert config["server_version"] == "uvicorn" and config["options"] == {"num_predict": 8}
        assert len(run["results"]) == CASES
        for r in run["results"]:
            assert r["error"] is None and isinstance(r["response"], str)
            assert r["completion_tokens"] <= 8 and r["prompt_tokens"] > 0 and r["latency_ms"] > 0

    report = eval_py(server, project, "report", "runs/dev-v3.json", "--json")
    assert report.returncode == 0
    figures = json.loads(report.stdout)
    cases = [json.loads(line) for line in (project / "golden" / "dev.jsonl").read_text(encoding="utf-8").splitlines()]
    expected = [c["expected"] for c in cases if c["id"] in SOME]
    most = max(expected.count(label) for label in expected)   # the majority baseline, counted here
    assert figures["scored"] == CASES and figures["errors"] == [] and figures["baseline"]["correct"] == most

    compare = eval_py(server, project, "compare", "runs/dev-v1.json", "runs/dev-v3.json")
    assert compare.returncode == 0
    assert "  prompt: prompts/v1.txt -> prompts/v3.txt" in compare.stdout and "(mid-p McNemar)" in compare.stdout


@needs_model
def test_the_same_seed_twice_and_the_measured_disagreement(server, project, dev_runs):
    assert dev_runs["v3"].returncode == 0, dev_runs["v3"].stderr
    done = ask(server, project, "--prompt", "prompts/v3.txt", *SEED, "--out", "runs/seed-again.json", *LIMIT,
               "--cases", ",".join(SOME))
    assert done.returncode == 0, done.stderr
    a, b = (json.loads((project / p).read_text(encoding="utf-8")) for p in ("runs/dev-v3.json", "runs/seed-again.json"))
    same = sum(x["response"] == y["response"] for x, y in zip(a["results"], b["results"]))
    compare = eval_py(server, project, "compare", "runs/dev-v3.json", "runs/seed-again.json")
    assert "Changed: nothing in the configuration" in compare.stdout
    # whatever the server does, compare reports exactly what was measured
    assert f"Identical raw answers: {same} of {CASES}" in compare.stdout
    print(f"same seed twice on a real model: {same} of {CASES} answers identical")


SCHEMA_CASES = ["dev-01", "dev-03", "dev-04", "dev-26"]


@needs_model
def test_format_schema_on_llama_cpp_python(server, project):
    """llama-cpp-python refuses OpenAI's json_schema form; eval.py finds the form it takes, and the
    grammar it then applies makes every answer a JSON object whose label is one of the labels.
    On four dev cases, not 28 (grammar-bound answers are the slowest): every label expected, and a
    red-team trap whose ticket dictates a label."""
    dev = (project / "golden" / "dev.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)
    some = [line for line in dev if json.loads(line)["id"] in SCHEMA_CASES]
    (project / "golden" / "dev-some.jsonl").write_text("".join(some), encoding="utf-8")
    done = ask(server, project, "--prompt", "prompts/v3.txt", "--format", "schema", "--out", "runs/schema.json",
               "--option", "num_predict=48", split="golden/dev-some.jsonl")
    assert done.returncode == 0, done.stderr
    assert "--format schema: sent as response_format json_object with a schema" in done.stderr
    assert "refused response_format json_schema: HTTP 500: 1 validation error" in done.stderr
    run = json.loads((project / "runs" / "schema.json").read_text(encoding="utf-8"))
    assert run["config"]["response_format"] == "json_object" and run["config"]["format"] == "schema"
    labels = run["config"]["labels"]
    assert [r["id"] for r in run["results"]] == SCHEMA_CASES
    for r in run["results"]:
        assert r["error"] is None and json.loads(r["response"])["label"] in labels, r["response"]
    figures = json.loads(eval_py(server, project, "report", "runs/schema.json", "--json").stdout)
    assert figures["invalid"] == 0 and figures["scored"] == len(SCHEMA_CASES)


# A stand-in for a llama.cpp server built for instructions the sandbox refuses: it lists its
# model, then dies with SIGSEGV on the first chat request, as the AMX build did.
CRASHING_SERVER = r"""
import http.server, json, os, signal, sys
class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        body = json.dumps({"object": "list", "data": [{"id": "crashy", "object": "model"}]}).encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    def do_POST(self):
        print("Thread 1 received signal SIGSEGV in ggml_compute_forward (libggml-cpu.so): ldtilecfg", flush=True)
        os.kill(os.getpid(), signal.SIGSEGV)
http.server.HTTPServer(("127.0.0.1", int(sys.argv[1])), Handler).serve_forever()
"""


def test_a_server_that_dies_fails_at_once_with_its_signal_and_log(tmp_path):
    server = real_model.start(tmp_path / "server.log", timeout=30, model="crashy",
                              command=lambda port: [sys.executable, "-c", CRASHING_SERVER, str(port)])
    started = time.monotonic()
    try:
        with pytest.raises(real_model.ServerDied) as died:
            real_model.run_watched(server, [sys.executable, str(ROOT / "eval.py"), "run", "--split",
                                            str(ROOT / "golden" / "dev.jsonl"), "--prompt", str(ROOT / "prompts" / "v1.txt"),
                                            "--api", "openai", "--host",
                                            server.url, "--model", "crashy", "--out", str(tmp_path / "r.json")],
                                   cwd=tmp_path)
    finally:
        server.stop()
    message = str(died.value)
    assert message.startswith("llama_cpp.server died with SIGSEGV: ")
    assert "ldtilecfg" in message and "-DGGML_NATIVE=OFF" in message
    # eval.py alone would retry all 25 cases with backoff for minutes; the watch stops it at once
    assert time.monotonic() - started < 30


@needs_model
def test_an_agent_loop_against_a_real_server(tmp_path_factory, project):
    """llama-cpp-python's server gives tool calls for any model with --chat_format chatml-function-calling.
    Forced to call lookup_order on every request (tool_choice, passed through as an option), a real
    server's calls (its own ids, arguments as a JSON string) go round the loop: each result goes back
    answering its call's id, the server takes the conversation, and the case runs out of turns. The
    loop and the storage are asserted, nothing of the model's skill."""
    def command(port):
        return real_model.llama_server_command(port) + ["--chat_format", "chatml-function-calling"]
    try:
        server = real_model.start(tmp_path_factory.mktemp("tools") / "llama-server.log", command=command)
    except real_model.ServerDied as died:
        pytest.fail(str(died), pytrace=False)
    try:
        done = ask(server, project, "--cases", "agent-dev-01", "--max-turns", "2", "--option", "num_predict=48",
                             "--option", 'tool_choice={"type": "function", "function": {"name": "lookup_order"}}',
                             "--out", "runs/agent-real.json", split="golden/agent/dev.jsonl")
    finally:
        server.stop()
    assert done.returncode == 0, done.stderr
    run = json.loads((project / "runs" / "agent-real.json").read_text(encoding="utf-8"))
    (r,) = run["results"]
    assert r["error"] is None and r["out_of_turns"] is True and len(r["per_turn"]) == 2 and run["config"]["max_turns"] == 2
    calls = [m for m in r["transcript"] if m["role"] == "assistant"]
    results = [m for m in r["transcript"] if m["role"] == "tool"]
    assert len(calls) == 2 and all(c["tool_calls"][0]["name"] == "lookup_order" for c in calls)
    assert all(isinstance(c["tool_calls"][0]["arguments"], str) and c["tool_calls"][0]["id"] for c in calls)
    assert [m["call_id"] for m in results] == [c["tool_calls"][0]["id"] for c in calls]
    assert "Agent (1 case with tools" in done.stdout and "ran out of turns: 1 (agent-dev-01)" in done.stdout
