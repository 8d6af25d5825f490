"""The records of section 3 against what the code produces: every key a record has is declared,
every required key is there, and the main declarations keep no key the code no longer produces.

The records come from real runs through the fake Ollama (trials, weighed checks, a judge, an error
completed by --resume, a forced re-run of the held-out split, a part of a split, --api openai
with a schema), a pairwise compare, an annotation written through review, and the shipped example
runs in runs/example/ (judged ones, and the pairwise sidecar beside one)."""

import glob
import json
import os
from pathlib import Path

import pytest

from conftest import ROOT, copy_shipped, evalpy, load_json
from fake_ollama import shipped_fake

EXAMPLES = sorted(p for p in glob.glob(str(ROOT / "runs" / "example" / "*.json"))
                  if not p.endswith((evalpy.PAIRWISE_SUFFIX, evalpy.ANNOTATIONS_SUFFIX)))


TOOL = {"type": "function", "function": {"name": "lookup_order", "parameters": {"type": "object"}}}
AGENT_CASE = {"id": "agent-1", "input": "¿Y mi pedido A-1?", "difficulty": "easy", "note": "n", "tools": [TOOL],
              "tool_results": {"lookup_order": "enviado"}, "checks": [{"type": "tool_called", "value": "lookup_order"}]}


def run_cli(*argv):
    return evalpy.main([str(a) for a in argv])


FAKE_OF = {}   # the fake at each url, for a run that needs it to misbehave


def make_runs(url, journal_lines):
    """The run files of every kind `run` writes, in runs/ of the working folder; returns their paths."""
    assert run_cli("run", "--split", "golden/support/dev.jsonl", "--host", url, "--repeat", 2, "--limit", 6,
                   "--out", "runs/support-v2.json") == 0
    assert run_cli("run", "--split", "golden/support/dev.jsonl", "--prompt", "prompts/support/v1.txt", "--host", url,
                   "--limit", 6, "--out", "runs/support-v1.json") == 0
    assert run_cli("run", "--split", "dev", "--host", url, "--repeat", 3, "--retries", 0,
                   "--out", "runs/dev-errors.json") == 2    # one call failed (the fault set by the caller)
    assert run_cli("run", "--resume", "runs/dev-errors.json", "--host", url) == 0
    assert run_cli("run", "--split", "test", "--host", url, "--out", "runs/test-v3.json") == 0
    FAKE_OF[url].replace_after = (len(FAKE_OF[url].chat_bodies) + 2, "qwen2.5:7b", "e7" * 32)   # a model pulled again mid-run
    assert run_cli("run", "--split", "dev", "--host", url, "--limit", 3, "--out", "runs/replaced.json") == 2
    FAKE_OF[url].replace_after = None
    FAKE_OF[url].digests.clear()
    assert run_cli("run", "--split", "test", "--prompt", "prompts/v2.txt", "--rerun-test", "--host", url,
                   "--out", "runs/test-v2.json") == 0
    assert run_cli("run", "--split", "dev", "--api", "openai", "--format", "schema", "--cases", "dev-01,dev-02",
                   "--host", url, "--out", "runs/dev-openai.json") == 0
    os.makedirs("golden/records-agent", exist_ok=True)
    with open("golden/records-agent/dev.jsonl", "w", encoding="utf-8") as f:   # an agent: its transcript, turns out
        f.write(json.dumps(AGENT_CASE, ensure_ascii=False) + "\n")
    assert run_cli("run", "--split", "golden/records-agent/dev.jsonl", "--prompt", "prompts/v1.txt", "--host", url,
                   "--max-turns", 2, "--out", "runs/agent.json") == 0
    # a RAG split whose passages come from another retriever's file (run --context)
    passages = [json.loads(line) for line in Path("golden/rag/dev.jsonl").read_text(encoding="utf-8").splitlines()]
    Path("retriever-b.jsonl").write_text("".join(json.dumps({"id": c["id"], "context": c["context"][::-1]}) + "\n"
                                                 for c in passages), encoding="utf-8")
    assert run_cli("run", "--split", "golden/rag/dev.jsonl", "--context", "retriever-b.jsonl", "--limit", 3,
                   "--host", url, "--out", "runs/rag.json") == 0
    assert run_cli("run", "--split", "golden/rag/dev.jsonl", "--limit", 3, "--host", url, "--out", "runs/rag-split.json") == 0
    # RAG without relevance labels: a judge rates the passages (context_relevant)
    Path("unlabelled").mkdir()
    Path("unlabelled/dev.jsonl").write_text("".join(json.dumps({k: v for k, v in c.items() if k != "relevant"} | {
        "checks": [{"type": "context_relevant"}, {"type": "regex", "value": "\\w"}]}) + "\n" for c in passages[:3]), encoding="utf-8")
    assert run_cli("run", "--split", "unlabelled/dev.jsonl", "--prompt", "prompts/rag/v1.txt", "--host", url,
                   "--out", "runs/rag-judged.json") == 0
    # a long label set: the labels no case has and no answer gave leave the tables (labels_unseen)
    Path("many").mkdir()
    Path("many/labels.txt").write_text("".join(f"lab{i}\n" for i in range(60)) + "bug\n", encoding="utf-8")
    Path("many/dev.jsonl").write_text(json.dumps({"id": "m1", "input": "hola", "expected": "bug", "difficulty": "easy",
                                                  "note": "n"}) + "\n", encoding="utf-8")
    assert run_cli("run", "--split", "many/dev.jsonl", "--prompt", "prompts/v3.txt", "--host", url,
                   "--out", "runs/many-labels.json") == 0
    assert journal_lines, "no journal line was written"
    return sorted(glob.glob("runs/*.json"))


@pytest.fixture(scope="module")
def produced(tmp_path_factory):
    """{declaration name: [every record of that kind produced]}."""
    folder = tmp_path_factory.mktemp("records")
    copy_shipped("golden", folder)
    copy_shipped("prompts", folder)
    journal_lines = []
    real_append = evalpy.append_journal

    def recording_append(journal, entry):   # a spy: every journal line is written as before
        journal_lines.append(json.loads(json.dumps(entry)))
        real_append(journal, entry)

    fake = shipped_fake(latency=0)
    fake.agents[AGENT_CASE["input"]] = [[("lookup_order", {"order_id": "A-1"})]]   # never answers: out of turns
    fake.faults_for[json.loads((ROOT / "golden" / "dev.jsonl").read_text().splitlines()[0])["input"]] = ["500"]
    fake.start()
    FAKE_OF[fake.url] = fake
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(folder)
        mp.delenv("OLLAMA_HOST", raising=False)
        mp.setattr(evalpy, "append_journal", recording_append)
        try:
            paths = make_runs(fake.url, journal_lines)
            assert run_cli("compare", "runs/support-v1.json", "runs/support-v2.json", "--pairwise",
                           "¿Cuál ayuda más?", "--host", fake.url) in (0, 1)
        finally:
            fake.stop()
        completed = [p for p in paths if p.startswith("runs/dev-errors") and p != "runs/dev-errors.json"]
        assert len(completed) == 1, paths
        review = evalpy.Review(completed[0])
        review.save({"key": review.items[0]["key"], "text": "se equivoca de categoría"})

        records = {name: [] for name in ("LoadedCase", "JournalHeader", "AgentTurn", "JournaledAnswer", "JournaledVote", "Check", "Result", "RunFile", "RunConfig", "Vote", "GradedTrial",
                                         "GradedCase", "Score", "CompareResult", "ManyCompareResult", "ManyRow",
                                         "PairwiseVote", "PairwiseComparison", "PairwiseFile", "Annotation",
                                         "AnnotationsFile", "JudgeConfig")}
        for split in sorted(glob.glob("golden/**/*.jsonl", recursive=True)):
            cases = evalpy.load_split(split)[0]
            records["LoadedCase"] += cases
            records["Check"] += [c for case in cases for c in case["checks"]]
        for line in journal_lines:   # a header, then results with only the id and trial of their case
            records["JournalHeader" if "config" in line else "AgentTurn" if "turn" in line else "JournaledAnswer"
                    if "answer" in line else "JournaledVote" if "vote" in line else "Result"].append(line)
        records["RunConfig"] += [line["config"] for line in records["JournalHeader"]]
        graded = {}
        for path in paths + EXAMPLES:
            run = evalpy.load_run(path)
            records["RunFile"].append(run)
            records["RunConfig"].append(run["config"])
            records["Result"] += run["results"]
            records["Check"] += [c for r in run["results"] for c in r["checks"]]
            records["Vote"] += [v for r in run["results"] for v in r.get("judges") or []]
            cases = evalpy.grade_run(run)
            graded[path] = (run["config"], cases)
            records["GradedCase"] += cases
            records["GradedTrial"] += [t for c in cases for t in c["trials"]]
            records["Score"].append(evalpy.json_score(evalpy.report_score(path, run["config"], cases)))   # (as --json prints it)
        example = {p.rsplit("/", 1)[1]: p for p in EXAMPLES}
        for a, b in [("runs/support-v1.json", "runs/support-v2.json"), ("runs/dev-errors.json", completed[0]),
                     ("runs/test-v3.json", "runs/test-v2.json"), ("runs/dev-openai.json", "runs/dev-errors.json"), ("runs/rag-split.json", "runs/rag.json"),
                     (example["dev-v1.json"], example["dev-v2.json"]),
                     (example["support-dev-v1-judged.json"], example["support-dev-v2-judged.json"])]:
            if a == "runs/dev-openai.json":   # a part of the split against the whole: on the part's cases
                ids = {c["id"] for c in graded[a][1]}
                graded[b] = (graded[b][0], [c for c in graded[b][1] if c["id"] in ids])
            records["CompareResult"].append(evalpy.compare_runs(*graded[a], *graded[b], fisher=a.startswith("runs/test")))
        for group in (["dev-v1.json", "dev-v2.json", "dev-v3.json"], ["dev-v3.json", "dev-v3-schema.json", "dev-v2.json"]):
            many = evalpy.compare_many([(example[n], *graded[example[n]]) for n in group])
            records["ManyCompareResult"].append(many)
            records["ManyRow"] += many["runs"]
        for sidecar in glob.glob("runs/*" + evalpy.PAIRWISE_SUFFIX) + glob.glob(f"{ROOT}/runs/example/*{evalpy.PAIRWISE_SUFFIX}"):
            stored = load_json(sidecar)
            records["PairwiseFile"].append(stored)
            records["PairwiseComparison"] += stored["comparisons"]
            records["PairwiseVote"] += [v for c in stored["comparisons"] for v in c["verdicts"]]
        for sidecar in glob.glob("runs/*" + evalpy.ANNOTATIONS_SUFFIX):
            stored = load_json(sidecar)
            records["AnnotationsFile"].append(stored)
            records["Annotation"] += stored["annotations"].values()
        records["JudgeConfig"] += [c["judge"] for c in records["RunConfig"] + records["PairwiseComparison"] if c.get("judge")]
    return records


# every key of these is produced by some input above: a declaration cannot keep a stale key
MAIN = ("Score", "GradedCase", "Result", "RunConfig", "CompareResult")
RECORDS = ("LoadedCase", "JournalHeader", "AgentTurn", "JournaledAnswer", "JournaledVote", "Check", "Result", "RunFile", "RunConfig", "Vote", "GradedTrial", "GradedCase", "Score",
           "CompareResult", "ManyCompareResult", "ManyRow", "PairwiseVote", "PairwiseComparison", "PairwiseFile",
           "Annotation", "AnnotationsFile", "JudgeConfig")


@pytest.mark.parametrize("name", RECORDS)
def test_every_key_produced_is_declared_and_every_required_key_is_there(produced, name):
    declared = getattr(evalpy, name)
    records = produced[name]
    assert records, f"no {name} was produced: the test would prove nothing"
    undeclared = sorted({k for r in records for k in r} - set(declared.__annotations__))
    assert not undeclared, f"{name} does not declare {undeclared}"
    for r in records:
        assert isinstance(r, dict), f"a {name} that is not a dict: {r!r}"
        missing = sorted(declared.__required_keys__ - set(r))
        assert not missing, f"a {name} without its required {missing}: {sorted(r)}"


@pytest.mark.parametrize("name", MAIN)
def test_every_key_declared_is_produced(produced, name):
    stale = sorted(set(getattr(evalpy, name).__annotations__) - {k for r in produced[name] for k in r})
    assert not stale, f"{name} declares {stale}, which no run, report or compare produced"


def test_the_run_file_keys_are_the_declarations():
    """What a run file's result holds, in order, is read off the declarations, not listed twice."""
    assert evalpy.CASE_FIELDS == tuple(evalpy.Case.__annotations__)
    assert evalpy.CALL_FIELDS == tuple(evalpy.Call.__annotations__)
    assert set(evalpy.Result.__annotations__) == {*evalpy.CASE_FIELDS, "trial", *evalpy.CALL_FIELDS}
