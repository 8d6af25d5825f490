"""The shipped golden data: the splits have the shape they were designed with; the shipped prompts tell their story."""

import json
import re
from collections import Counter

import pytest

from conftest import ROOT, evalpy, load_json, read_cases


@pytest.mark.parametrize("split, total, bugs", [("dev", 28, 11), ("test", 15, 6)])
def test_the_shipped_golden_set_has_the_designed_shape(split, total, bugs):
    cases, labels, _ = evalpy.load_split(str(ROOT / "golden" / f"{split}.jsonl"))
    counts = Counter(c["expected"] for c in cases)
    assert len(cases) == total and counts["bug"] == bugs
    assert set(counts) == set(labels) == {"facturación", "bug", "acceso", "petición"}
    assert [c["id"] for c in cases] == [f"{split}-{i:02d}" for i in range(1, total + 1)]
    assert {c["difficulty"] for c in cases} <= {"easy", "ambiguous", "trap"}
    if split == "dev":
        assert sum(c["difficulty"] != "easy" for c in cases) == 9
    assert all(c["note"].strip() for c in cases)


def test_every_hard_case_names_a_rule_the_guide_has():
    guide = (ROOT / "golden" / "GUIDE.md").read_text(encoding="utf-8")
    rules = {int(n) for n in re.findall(r"^(\d)\. \*\*", guide, re.M)}
    for split in ("dev", "test"):
        for case in read_cases(ROOT / "golden" / f"{split}.jsonl"):
            if case["difficulty"] != "easy":
                cited = re.match(r"Regla (\d):", case["note"])
                assert cited and int(cited[1]) in rules, case["id"]


def test_the_dev_split_has_a_red_team_subset_the_readme_gate_names():
    """README: report ... --must-pass red-team. Seed 001: malicious inputs as a subset gated apart."""
    red = [c for c in read_cases(ROOT / "golden" / "dev.jsonl") if "red-team" in c.get("tags", [])]
    assert len(red) >= 3 and all(c["difficulty"] == "trap" and c["note"].startswith("Regla 5:") for c in red)
    assert "--must-pass red-team" in (ROOT / "README.md").read_text(encoding="utf-8")


def test_dev_and_test_share_no_ticket():
    dev = {c["input"] for c in read_cases(ROOT / "golden" / "dev.jsonl")}
    test = {c["input"] for c in read_cases(ROOT / "golden" / "test.jsonl")}
    assert not dev & test


def test_the_shipped_support_set():
    for split, total, talks in (("dev", 27, 3), ("test", 22, 2)):
        cases, labels, _ = evalpy.load_split(str(ROOT / "golden" / "support" / f"{split}.jsonl"))
        assert labels is None and len(cases) == total
        assert {t for c in cases for t in c["tags"]} == {"entrega", "devolución", "artículo equivocado",
                                                         "artículo dañado", "facturación", "conversación"}
        conversations = [c for c in cases if "messages" in c]
        assert len(conversations) == talks and all("conversación" in c["tags"] for c in conversations)
        for c in conversations:   # the order is named in the first turn only: the answer must use it
            turns = c["messages"]
            assert [t["role"] for t in turns] == ["user", "assistant", "user"]
            assert c["vars"]["order_id"] in turns[0]["content"]
            assert not any(c["vars"]["order_id"] in t["content"] for t in turns[1:])
        for c in cases:
            assert [(x["name"], x.get("weight")) for x in c["checks"]] == [
                ("order number", 2), ("answers the question", 2), ("greets by name", 1), ("no refund date", None)]
            assert c["pass_threshold"] == 0.75 and c["checks"][3]["blocking"]   # a refund date fails it whatever the score
            assert c["vars"]["order_id"] in (c.get("input") or c["messages"][0]["content"])


def test_the_support_set_catches_a_prompt_that_lost_the_order_number_rule(project, cli, fake):
    """The seed's story on the shipped set: v2 shortened the prompt and dropped a rule."""
    def route(body):
        system, user = body["messages"][0]["content"], body["messages"][-1]["content"]
        if system == evalpy.JUDGE_PROMPT:
            return '{"reason": "contesta", "pass": true}'
        asked = " ".join(m["content"] for m in body["messages"][1:])   # a conversation names it in an earlier turn
        order = next(w.strip(".,:?¿") for w in asked.split() if w.startswith("A-"))
        keeps_rule = "Incluye siempre el número de pedido" in system
        name = system.split("Estás respondiendo a ")[1].split(".")[0]
        if keeps_rule or int(order[-1]) % 3:
            return f"Hola {name}, revisamos tu pedido {order} y te avisamos en cuanto haya novedades."
        return f"Hola {name}, lo revisamos y te avisamos en cuanto haya novedades."
    fake.route = route
    assert cli("run", "--split", "golden/support/dev.jsonl", "--prompt", "prompts/support/v1.txt", "--host", fake.url)[0] == 0
    assert cli("run", "--split", "golden/support/dev.jsonl", "--host", fake.url)[0] == 0   # newest: v2
    v1, v2 = load_json("runs/support-dev-v1.json"), load_json("runs/support-dev-v2.json")
    assert v2["config"]["prompt"] == "prompts/support/v2.txt"
    assert all(r["vars"]["order_id"] in r["response"] for r in v1["results"])   # v1 keeps the rule
    assert "Lucía" in fake.chat_bodies[0]["messages"][0]["content"]       # {{customer}} filled in
    omitted = [r["id"] for r in v2["results"] if r["vars"]["order_id"] not in r["response"]]
    report = cli("report", "runs/support-dev-v2.json")[1]
    line = next(l for l in report.splitlines() if l.startswith("  order number "))
    assert line.split()[-3:] == [f"{27 - len(omitted)}/27", "=", f"{100 * (27 - len(omitted)) / 27:.0f}%"]
    c = json.loads(cli("compare", "runs/support-dev-v1.json", "runs/support-dev-v2.json", "--json")[1])
    assert c["regressions"] == omitted and len(omitted) >= 6 and c["fixed"] == []


def test_the_shipped_agent_set():
    """golden/agent/: a shop assistant with three tools, 12 dev and 6 test cases, each with a note, every
    case judged on its trajectory and its final result; cancel_order is guarded in every trap."""
    for split, total in (("dev", 12), ("test", 6)):
        cases, labels, _ = evalpy.load_split(str(ROOT / "golden" / "agent" / f"{split}.jsonl"))
        assert len(cases) == total and labels is None
        assert [c["id"] for c in cases] == [f"agent-{split}-{i:02d}" for i in range(1, total + 1)]
        assert all(c["note"].strip() and [t["function"]["name"] for t in c["tools"]]
                   == ["lookup_order", "lookup_policy", "cancel_order"] for c in cases)
        assert all(any(k["type"] in evalpy.TRAJECTORY for k in c["checks"]) for c in cases)
        assert any("red-team" in c["tags"] for c in cases)
        for c in cases:
            if "red-team" in c["tags"]:
                assert {"type": "tool_not_called", "value": "cancel_order"}.items() <= next(
                    k for k in c["checks"] if k["type"] == "tool_not_called").items()
    assert (ROOT / "prompts" / "agent" / "v1.txt").read_text(encoding="utf-8").strip()


def test_the_fake_plays_the_shipped_agents_so_the_readme_commands_run(project, cli):
    from fake_ollama import shipped_fake
    fake = shipped_fake(latency=0).start()
    try:
        code, out, err = cli("run", "--split", "golden/agent/dev.jsonl", "--host", fake.url)
    finally:
        fake.stop()
    assert code == 0, err
    assert "Agent (12 cases with tools" in out and "trajectory" in out


def test_the_fake_plays_a_users_agent_set_with_vars(project):
    """112th round's newcomer: a set of their own whose input and tool_called arguments use {{order_id}} had no script
    on the fake (keyed on the input as written), or called with "{{order_id}}" itself: filled, as a model reads them."""
    from fake_ollama import shipped_agents
    folder = project / "golden" / "mine"
    folder.mkdir()
    (folder / "dev.jsonl").write_text(json.dumps({
        "id": "m1", "input": "¿Dónde está {{order_id}}?", "vars": {"order_id": "A-12345", "n": 2}, "tools": [],
        "checks": [{"type": "tool_called", "value": "lookup_order", "arguments": {"order_id": "{{order_id}}", "n": "{{n}}"}}],
        "difficulty": "easy", "note": "n"}) + "\n", encoding="utf-8")
    (folder / "tools.json").write_text("{}", encoding="utf-8")
    agents = shipped_agents(str(project / "golden" / "mine"))
    assert list(agents) == ["¿Dónde está A-12345?"]
    assert agents["¿Dónde está A-12345?"][0] == [("lookup_order", {"order_id": "A-12345", "n": 2})]
    # (117th round's newcomer) a tool_order naming a tool twice: called twice, so that the check passes as written
    (folder / "dev.jsonl").write_text(json.dumps({
        "id": "m2", "input": "¿Qué tiempo hace?", "tools": [], "difficulty": "easy", "note": "n",
        "checks": [{"type": "tool_order", "value": ["get_weather", "get_weather"]}]}) + "\n", encoding="utf-8")
    steps = shipped_agents(str(folder))["¿Qué tiempo hace?"]
    assert [step[0][0] for step in steps[:-1] if step[0][0] != "lookup_order"] == ["get_weather", "get_weather"], steps


def test_the_shipped_rag_set_has_the_cases_its_guide_promises():
    """golden/rag (issue 30): every case with passages and labels; some with a relevant passage
    missing, some with none retrieved, some with the relevant one ranked low; the guide names every
    case; the second retriever's file covers dev and finds every relevant passage."""
    guide = (ROOT / "golden" / "rag" / "GUIDE.md").read_text(encoding="utf-8")
    splits = {}
    for split, total in (("dev", 12), ("test", 6)):
        cases, labels, _ = evalpy.load_split(str(ROOT / "golden" / "rag" / f"{split}.jsonl"))
        assert labels is None and len(cases) == total and all(c["note"].strip() for c in cases)
        assert [c["id"] for c in cases] == [f"rag-{split}-{i:02d}" for i in range(1, total + 1)]
        assert all(c["relevant"] and {"faithful", "answer_relevant"} <= {k["type"] for k in c["checks"]} for c in cases)
        missing = [c for c in cases if c["context"] and set(c["relevant"]) - {p["id"] for p in c["context"]}]
        empty = [c for c in cases if not c["context"]]
        low = [c for c in cases if c["context"] and c["context"][0]["id"] not in c["relevant"]
               and set(c["relevant"]) <= {p["id"] for p in c["context"]}]
        assert missing and empty and low, split
        why = guide.split("## Why the cases are there", 1)[1]
        for c in cases:   # each case is named in the guide, by its id or as "-NN" after one of its split
            assert f"`{c['id']}`" in why or f"`-{c['id'][-2:]}`" in why, c["id"]
        splits[split] = cases
    b = evalpy.with_context_file(str(ROOT / "golden" / "rag" / "retriever-b.ndjson"), splits["dev"],
                                 {c["id"] for c in splits["dev"]})[0]
    assert all(evalpy.context_recall([p["id"] for p in c["context"]], c["relevant"]) == 1 for c in b)
    assert "{{context}}" in (ROOT / "prompts" / "rag" / "v1.txt").read_text(encoding="utf-8")


def test_the_rag_set_runs_end_to_end_and_diagnoses_its_missing_passages(project, cli):
    """Against the shipped fake (which judges every claim supported by the first passage): the
    cases whose relevant passage is missing, or that have none, fail as retrieval problems."""
    from fake_ollama import shipped_fake
    fake = shipped_fake(latency=0).start()
    try:
        code, out, err = cli("run", "--split", "golden/rag/dev.jsonl", "--host", fake.url, "--out", "runs/a.json")
        assert code == 0, err
        code, _, err = cli("run", "--split", "golden/rag/dev.jsonl", "--host", fake.url, "--out", "runs/b.json",
                           "--context", "golden/rag/retriever-b.ndjson")
        assert code == 0, err
    finally:
        fake.stop()
    a = json.loads(cli("report", "runs/a.json", "--json")[1])
    b = json.loads(cli("report", "runs/b.json", "--json")[1])
    assert a["retrieval"]["recall"] < 1 and b["retrieval"]["recall"] == 1 and b["retrieval"]["precision"] == 1
    assert set(a["diagnosis"]["retrieval"]) <= {"rag-dev-03", "rag-dev-09"}
    assert b["diagnosis"]["retrieval"] == []
    c = json.loads(cli("compare", "runs/a.json", "runs/b.json", "--json")[1])
    assert set(c["retrieval"]["gained"]) == {"rag-dev-03", "rag-dev-09"} and c["retrieval"]["lost"] == []
    assert c["changed"]["context_sha"][0] is None
