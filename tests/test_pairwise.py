"""compare --pairwise: a judge reads both runs' answers side by side, in both orders; only a
preference that survives the swap counts. Verdicts are stored beside the candidate run and reused."""

import errno
import json
import itertools
import shlex
import sys
import threading
import os
import random
import time
import re
from pathlib import Path

import pytest
from scipy.stats import binomtest

from conftest import (MARKUP, evalpy, folder_refused, load_json, make_run, markdown_acted_on, open_refused,
                      others_stale_lock, run_with_file_size_limit, unchecksummed_lines, write_run)
from fake_ollama import unfenced

CRITERION = "Which answer helps the customer more?"


def answers_in(body):
    """The two answers of a pairwise request, as the judge reads them (A first)."""
    text = body["messages"][-1]["content"]
    a = text.split("\nAnswer A:\n", 1)[1].split("\n\nAnswer B:\n", 1)[0]
    b = text.split("\n\nAnswer B:\n", 1)[1]
    return unfenced(a), unfenced(b)


def verdict(winner, reason="razono"):
    return json.dumps({"reason": reason, "winner": winner})


def scripted_judge(fake, biased=(), unreadable=(), ties=()):
    """A judge that prefers the answer with "pedido" in it, except: for cases in `biased` it always
    picks A (the first it reads), for `unreadable` it writes no verdict, for `ties` it says tie."""
    def route(body):
        if body["messages"][0]["content"] != evalpy.PAIRWISE_PROMPT:
            return None
        a, b = answers_in(body)
        case = a.split("[")[1].split("]")[0]
        if case in biased:
            return verdict("A")
        if case in unreadable:
            return "Las dos están bien, creo."
        if case in ties:
            return verdict("tie")
        return verdict("A" if "pedido" in a else "B")
    fake.route = route


def two_runs(ids, candidate_better, baseline_better, **config):
    """Free-text runs of the same cases: each answer names its case as [id]; the better one of a
    pair has "pedido" in it. Returns (baseline path, candidate path)."""
    def run(better):
        return make_run([{"id": cid, "input": f"¿Y mi pedido {cid}?", "response":
                          f"[{cid}] Hola, su pedido está en camino." if cid in better else f"[{cid}] Hola."}
                         for cid in ids], labels=None, split="support-dev", **config)
    return (write_run("runs/base.json", run(baseline_better)), write_run("runs/cand.json", run(candidate_better)))


IDS = [f"c{i:02d}" for i in range(1, 13)]


def test_the_audit_tells_two_versions_of_one_baseline_apart(project, cli, fake):
    """82nd attack on issue 28: comparisons against two versions of runs/base.json (run again under its name) were two
    identical lines in the audit's Position section; each names its baseline's sha."""
    base, cand = two_runs(IDS[:4], candidate_better=IDS[:4], baseline_better=())
    scripted_judge(fake, biased=(IDS[0],))
    assert cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)[0] == 0
    first = evalpy.file_sha(base)
    two_runs(IDS[:4], candidate_better=IDS[:4], baseline_better=IDS[:1])   # base.json again, other answers; cand alike
    assert cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)[0] == 0
    lines = [line for line in cli("judge", cand, "--audit")[1].splitlines() if line.startswith("  against runs/base.json")]
    assert len(lines) == 2 and lines[0] != lines[1], lines
    assert f"(sha {first[:8]})" in lines[0] and f"(sha {evalpy.file_sha(base)[:8]})" in lines[1], lines


def test_runs_checked_out_with_cr_lf_keep_their_verdicts_and_annotations(project, cli, fake):
    """Round 116's note, carried: a checkout that made the run files' line ends CR LF (git's autocrlf) had the verdicts
    stored on them taken for another version's, every pair asked and paid for again, and their annotations shown as of
    another version; their hash reads CR LF as LF, the same JSON."""
    base, cand = two_runs(IDS[:4], candidate_better=IDS[:4], baseline_better=())
    scripted_judge(fake)
    first = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)
    assert first[0] == 0, first[2]
    asked = len(fake.chat_bodies)
    key = f"{IDS[0]}#1"   # (an answer's key in review: its case and trial)
    Path(cand + ".annotations.json").write_text(json.dumps({
        "format": evalpy.ANNOTATIONS_FORMAT, "run": os.path.basename(cand), "run_sha": evalpy.file_sha(cand),
        "annotations": {key: {"text": "greets well", "time": "2026-12-05T10:00:00+00:00"}}}))
    for path in (base, cand):
        Path(path).write_bytes(Path(path).read_bytes().replace(b"\n", b"\r\n"))
    again = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)
    assert again[0] == 0 and len(fake.chat_bodies) == asked, again[2]
    assert again[1].replace("(0 made now", "(8 made now") == first[1], again[1]
    code, out, err = cli("report", cand)
    assert code == 0 and "greets well" in out and "left out here" not in out, out + err
    # (its review) the sidecars an eval.py before that wrote on such a checkout, by the hash of the CR LF bytes, are
    # this run's too (all 8 asked again, the annotation "another version's"); and a lone CR's line ends, or no last
    # line feed, are the same JSON
    import hashlib
    raw = {path: hashlib.sha256(Path(path).read_bytes()).hexdigest() for path in (base, cand)}
    stored = json.loads(Path(cand + ".pairwise.json").read_text())
    for c in stored["comparisons"]:
        c["baseline_sha"], c["candidate_sha"] = raw[base], raw[cand]
    Path(cand + ".pairwise.json").write_text(json.dumps(stored))
    notes = json.loads(Path(cand + ".annotations.json").read_text())
    Path(cand + ".annotations.json").write_text(json.dumps(dict(notes, run_sha=raw[cand])))
    again = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)
    assert again[0] == 0 and len(fake.chat_bodies) == asked, again[2]
    code, out, err = cli("report", cand)
    assert code == 0 and "greets well" in out and "left out here" not in out, out + err
    for path in (base, cand):
        Path(path).write_bytes(Path(path).read_bytes().replace(b"\r\n", b"\r").rstrip(b"\r"))
    again = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)
    assert again[0] == 0 and len(fake.chat_bodies) == asked, again[2]
    code, out, err = cli("report", cand)
    assert code == 0 and "greets well" in out and "left out here" not in out, out + err


def test_a_pair_whose_first_trial_failed_says_it_of_trial_1(project, cli, fake):
    """Seventy-first attack on issue 28: with --repeat 3, a candidate whose trial 1 failed on two cases (trials 2 and 3
    answered) was listed as "Answered by only the baseline": the pairs are of trial 1, which is what it lacked."""
    def run(path, failed):
        made = make_run([{"id": cid, "input": f"¿Y mi pedido {cid}?", "response": [
            None if cid in failed else f"[{cid}] Hola, su pedido está en camino.", f"[{cid}] Hola.", f"[{cid}] Hola."]}
            for cid in IDS[:4]], labels=None, split="support-dev")
        return write_run(path, made)
    base, cand = run("runs/base.json", ()), run("runs/cand.json", ("c01", "c02"))
    scripted_judge(fake)
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)
    assert "Answered by only the baseline in trial 1 (not compared): c01, c02" in out, out + err


def test_a_preference_counts_only_when_it_survives_the_swap(project, cli, fake):
    base, cand = two_runs(IDS, candidate_better=IDS[:8], baseline_better=IDS[8:9])
    scripted_judge(fake, biased=("c01", "c02"), unreadable=("c03",), ties=("c04",))
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)
    assert code == 0, err
    lines = out.splitlines()
    start = lines.index(f"Pairwise (judge qwen2.5:7b; both orders; criterion: {CRITERION}):")
    # c05-c08 better in the candidate; c09 in the baseline; c10-c12 alike ("Hola." both): judged as
    # "pedido" in neither, so B wins in each order: a position flip too
    assert lines[start + 1:start + 8] == [
        "  Candidate wins (4): c05, c06, c07, c08",
        "  Baseline wins (1): c09",
        "  Ties (1): c04",
        "  Position flips (5, counted as ties): c01, c02, c10, c11, c12",
        "  Flip rate: 5/11 = 45% of pairs with a verdict  (the judge's position bias on these answers)",
        "  No verdict (1, not counted): c03 (unreadable verdict)",
        "  Sign test (exact, ties set aside, alpha 0.05): 4 candidate wins, 1 baseline wins: p = 0.38, "
        "could be chance"]
    assert lines[start + 8].startswith("  24 judge calls (24 made now, 0 failed), ")
    assert lines[start + 8].endswith(f" completion tokens; verdicts in {cand}.pairwise.json")
    bodies = [b for b in fake.chat_bodies if b["messages"][0]["content"] == evalpy.PAIRWISE_PROMPT]
    assert len(bodies) == 2 * len(IDS)
    first = [answers_in(b) for b in bodies if "[c05]" in b["messages"][1]["content"]]
    assert first == [("[c05] Hola.", "[c05] Hola, su pedido está en camino."),            # baseline read first
                     ("[c05] Hola, su pedido está en camino.", "[c05] Hola.")]            # then swapped
    figures = json.loads(cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url, "--json")[1])["pairwise"]
    assert figures["candidate_wins"] == ["c05", "c06", "c07", "c08"] and figures["flip_rate"] == 5 / 11
    assert figures["no_verdict"] == [{"id": "c03", "why": "unreadable verdict"}]
    assert figures["sign_test_p"] == pytest.approx(binomtest(4, 5, 0.5).pvalue)


def test_stored_verdicts_are_reused_without_a_call(project, cli, fake):
    base, cand = two_runs(IDS, candidate_better=IDS, baseline_better=())
    scripted_judge(fake)
    first = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)
    assert first[0] == 0 and "12 candidate wins, 0 baseline wins: p = 4.9e-04, the candidate is preferred beyond chance" in first[1]
    asked = len(fake.chat_bodies)
    stored = load_json(cand + ".pairwise.json")
    assert stored["format"] == "eval.py-pairwise/1" and len(stored["comparisons"]) == 1
    comparison = stored["comparisons"][0]
    assert comparison["baseline"] == base and comparison["judge"]["criterion"] == CRITERION
    assert comparison["baseline_sha"] == evalpy.sha256_bytes(Path(base).read_bytes())
    assert len(comparison["verdicts"]) == 24 and all(v["raw"] for v in comparison["verdicts"])
    again = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)   # only which digest the judge is
    assert again[0] == 0 and len(fake.chat_bodies) == asked
    assert again[1].replace("(0 made now", "(24 made now") == first[1]
    # (116th round) saved again by an editor with a byte-order mark: "damaged pairwise file ... move it aside to ask
    # the judge again", every verdict paid for thrown away; read past it
    Path(cand + ".pairwise.json").write_bytes(b"\xef\xbb\xbf" + Path(cand + ".pairwise.json").read_bytes())
    again = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)
    assert again[0] == 0 and len(fake.chat_bodies) == asked, again[2]
    # (116th round's fuzz) a stray comma on its 300th line of 842 was "(column 17); move it aside", naming no line
    held = Path(cand + ".pairwise.json").read_text(encoding="utf-8")
    lines = held.splitlines(keepends=True)
    at = next(n for n, line in enumerate(lines) if line.rstrip().endswith("}") and n > 20)
    Path(cand + ".pairwise.json").write_text("".join(lines[:at] + [lines[at].rstrip("\n") + ",,\n"] + lines[at + 1:]),
                                             encoding="utf-8")
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)
    assert code == 2 and f"damaged pairwise file (bad JSON: " in err and f"line {at + 1}, column" in err, err
    assert "mend it (the verdicts in it are paid for)" in err and len(fake.chat_bodies) == asked, err
    Path(cand + ".pairwise.json").write_text(held, encoding="utf-8")
    # another criterion is another comparison: asked, and stored beside the first
    cli("compare", base, cand, "--pairwise", "Which answer is shorter?", "--host", fake.url)
    assert len(fake.chat_bodies) == asked + 24
    assert [c["judge"]["criterion"] for c in load_json(cand + ".pairwise.json")["comparisons"]] == [
        CRITERION, "Which answer is shorter?"]
    # a changed run is another comparison: its stored verdicts no longer stand for it
    run = load_json(cand)
    run["results"][0]["response"] += " Gracias."
    write_run(cand, run)
    cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)
    assert len(fake.chat_bodies) == asked + 48
    assert len(load_json(cand + ".pairwise.json")["comparisons"]) == 3


def test_the_judge_is_shown_alike_whether_its_verdicts_were_asked_or_reused(project, cli, fake):
    """Thirty-seventh round on issue 28 (minor): --json named the judge's digests when the verdicts were asked
    and left them out when every one was reused: one comparison, two JSON answers."""
    base, cand = two_runs(IDS, candidate_better=IDS, baseline_better=())
    scripted_judge(fake)
    first = json.loads(cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url, "--json")[1])["pairwise"]
    again = json.loads(cli("compare", base, cand, "--pairwise", CRITERION, "--json")[1])["pairwise"]
    assert first["judge"].get("digests") and again["judge"] == first["judge"], (first["judge"], again["judge"])


def test_a_failed_call_is_named_for_its_pair_and_never_blamed_for_the_others(project, cli, fake):
    """Round 109: every verdict unreadable and one call failed (a pair's second order) said "1 pairwise judge call
    failed, so no pair has a verdict", and the failed pair "(unreadable verdict)": the first reason found was kept."""
    base, cand = two_runs(IDS[:3], candidate_better=IDS[:3], baseline_better=())
    scripted_judge(fake, unreadable=IDS[:3])
    fake.faults = [None] * 3 + ["500"]   # the fourth call: c02's second order
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url, "--retries", "0")
    assert code == 2 and "1 pairwise judge call failed (first: HTTP 500" in err and "so 1 pair has no verdict;" in err, err
    assert "No verdict (3, not counted): c01 (unreadable verdict), c02 (the judge call failed), c03 (unreadable verdict)" \
        in out, out


def test_a_compare_stopped_before_any_answer_leaves_a_confirmed_comparison_as_it_was(project, cli, fake):
    """Round 109's review: a confirmed comparison with a failed call, whose re-ask was stopped before any answer
    came, was stored as that compare's (its failed call brought back for a failed call): unconfirmed, its date the
    stopped one's; a judge re-pulled then kept every verdict apart. And (its review) one failed vote of three, the
    pair decided by the others, was said to leave "0 pairs" without a verdict."""
    base, cand = two_runs(IDS[:3], candidate_better=IDS[:3], baseline_better=())
    scripted_judge(fake)
    fake.faults = ["500"]   # the first call fails
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--judge-votes", "2", "--host", fake.url,
                         "--retries", "0")
    assert code == 2 and "), where each pair's other votes gave it a verdict all the same; this says" in err, err
    before = load_json(cand + ".pairwise.json")["comparisons"]
    assert len(before) == 1 and "unconfirmed" not in before[0]
    code, err = stopped_compare(base, cand, fake, "SIGTERM", 1)   # its one call out, unanswered, as it stops
    assert load_json(cand + ".pairwise.json")["comparisons"] == before
    # (its review) said so: "stored the verdicts" of a store that wrote nothing
    assert "no verdict came before it stopped, so none was stored" in err and "stored the verdicts" not in err, err
    fake.digests["qwen2.5:7b"] = "f6" * 32   # re-pulled: nothing of it was unconfirmed, nothing kept apart
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--judge-votes", "2", "--host", fake.url)
    assert code == 0 and "kept apart" not in err and "they are kept as they are, and every pair is asked anew" in err, err


def test_failed_calls_are_infrastructure_and_only_they_are_asked_again(project, cli, fake):
    base, cand = two_runs(IDS[:4], candidate_better=IDS[:4], baseline_better=())
    scripted_judge(fake)
    fake.faults = ["500"] * 4        # the first call, and its three retries
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url, "--fail-if-worse",
                         "--fail-on-regression")
    assert code == 2 and "1 pairwise judge call failed (first: HTTP 500" in err and "says nothing of either run" in err
    # (62nd attack) every other gate asked still gets its verdict: the failed judge call hid them
    assert "gate passed: 0 regression(s)" in err and "gate passed: significantly worse? no" in err, err
    assert "gates not judged: judged significantly worse side by side? 1 pairwise judge call failed" in err, err
    assert "No verdict (1, not counted): c01 (the judge call failed)" in out
    asked = len(fake.chat_bodies)
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url, "--fail-if-worse")
    assert code == 0, err
    assert len(fake.chat_bodies) == asked + 1                    # only the failed call
    assert "Candidate wins (4): c01, c02, c03, c04" in out and "(1 made now, 0 failed)" in out
    # as many as it makes (round 109: one order of a pair, never "both orders in all")
    assert "about 1 pair(s) (1 call, those their stored verdicts lack; 3 pair(s) stored already)" in err, err


def test_a_pairwise_call_past_the_servers_window_names_the_window_or_another_judge(project, cli, fake):
    """Round 134: a pairwise judge call a /v1 server refused past its window was told "compare again to ask only those",
    its error cut before the window's setting: asked alike it was refused alike, in a loop. As judge's, the window's
    setting or another judge is named, gated or not."""
    base, cand = two_runs(IDS[:4], candidate_better=IDS[:4], baseline_better=())
    scripted_judge(fake)
    for gate in (["--fail-if-worse"], []):
        fake.faults = ["llama_window"]
        code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url, "--api", "openai",
                             "--retries", "0", *gate)
        assert code == 2 and "judge's prompt does not fit the server's context window" in err, err
        assert "llama-cpp-python's --n_ctx" in err and "or compare with another --judge-model" in err, err


def test_the_gate_fails_when_the_judge_prefers_the_baseline(project, cli, fake):
    base, cand = two_runs(IDS, candidate_better=(), baseline_better=IDS)
    scripted_judge(fake)
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url, "--fail-if-worse")
    assert code == 1
    assert "GATE FAILED: judged significantly worse side by side? yes (0 candidate wins, 12 baseline wins" in err
    md = cli("compare", base, cand, "--pairwise", CRITERION, "--markdown")[1]
    assert "| 0 | 12 | 0 | 0 | 0/12 = 0% | 0 |" in md and "the baseline is preferred beyond chance" in md


def test_pairs_without_a_verdict_that_could_turn_the_gate_leave_it_undecided(project, cli, fake):
    """Sixty-second attack on issue 28: 6 baseline wins, 3 ties and 3 unreadable verdicts failed --fail-if-worse (p =
    0.031, exit 1), though the three going to the candidate made it 6-3, p = 0.51: read as report reads undecided
    answers, pairs without a verdict that could turn the gate leave it not judged (exit 2); ones that could not,
    do not."""
    base, cand = two_runs(IDS, candidate_better=(), baseline_better=IDS[:6])
    scripted_judge(fake, unreadable=tuple(IDS[9:]), ties=tuple(IDS[6:9]))
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url, "--fail-if-worse")
    assert code == 2 and ("gates not judged: judged significantly worse side by side? yes (0 candidate wins, 6 baseline "
                          "wins") in err and "; 3 pairs without a verdict could decide it; the Pairwise section says why" in err, err
    base, cand = two_runs(IDS, candidate_better=(), baseline_better=IDS[:11])   # 11 to 0, one open: worse either way
    os.unlink(cand + ".pairwise.json")
    scripted_judge(fake, unreadable=(IDS[11],))
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url, "--fail-if-worse")
    assert code == 1 and "GATE FAILED: judged significantly worse side by side? yes (0 candidate wins, 11 baseline" in err, err


def test_a_panel_with_votes_takes_each_judges_majority_then_the_panels(project, cli, fake):
    fake.models += ["llama3.1:8b", "gemma3:4b"]
    base, cand = two_runs(IDS[:6], candidate_better=IDS[:6], baseline_better=())
    flip = {"gemma3:4b"}

    def route(body):
        if body["messages"][0]["content"] != evalpy.PAIRWISE_PROMPT:
            return None
        a, b = answers_in(body)
        if body["model"] in flip:
            return verdict("A")
        return verdict("A" if "pedido" in a else "B")
    fake.route = route
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url, "--judge-model",
                         "qwen2.5:7b", "--judge-model", "llama3.1:8b", "--judge-model", "gemma3:4b", "--judge-votes", "3",
                         "--judge-temperature", "0.7")
    assert code == 0, err
    assert "Candidate wins (6)" in out                          # two of three judges agree in both orders
    assert "Flip rate by judge: qwen2.5:7b 0% · llama3.1:8b 0% · gemma3:4b 100%" in out
    # (71st attack) the panel's flip rate counts each judge's verdicts: a member that always picked one position was
    # 0% where its flip and another's win made ties
    assert "Flip rate: 6/18 = 33% of the panel's verdicts (each judge's on each pair)" in out, out
    assert json.loads(cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url, "--judge-model", "qwen2.5:7b",
                          "--judge-model", "llama3.1:8b", "--judge-model", "gemma3:4b", "--judge-votes", "3",
                          "--judge-temperature", "0.7", "--json")[1])["pairwise"]["flip_rate"] == pytest.approx(6 / 18)
    assert "6/18 = 33% of the panel's verdicts (each judge's on each pair) flipped with the order" in \
        cli("judge", cand, "--audit")[1]
    # (82nd) markdown put the panel's flips (0) beside the judges' rate (33%) in one cell: "0 (33%)"
    md = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url, "--judge-model", "qwen2.5:7b",
             "--judge-model", "llama3.1:8b", "--judge-model", "gemma3:4b", "--judge-votes", "3", "--judge-temperature", "0.7",
             "--markdown")[1]
    assert "| 6 | 0 | 0 | 0 | 6/18 = 33% | 0 |" in md and "Flip rate by judge: qwen2.5:7b 0% · llama3.1:8b 0% · gemma3:4b 100%\n\nSign" in md, md
    seeds = sorted({(b["model"], b["options"]["seed"]) for b in fake.chat_bodies
                    if b["messages"][0]["content"] == evalpy.PAIRWISE_PROMPT})
    assert len(seeds) == 9 and len([b for b in fake.chat_bodies if b["messages"][0]["content"] == evalpy.PAIRWISE_PROMPT]) == 6 * 3 * 3 * 2


def test_a_pair_decided_by_one_readable_vote_of_three_is_doubtful(project, cli, fake):
    """From the seventeenth attack: as a judge check's, a pairwise verdict resting on one readable vote
    of three was counted with nothing said. It still counts; it is listed as doubtful, the votes
    without a verdict counting against its certainty (the share of the votes asked that agree)."""
    base, cand = two_runs(IDS[:4], candidate_better=IDS[:4], baseline_better=())

    def route(body):
        if body["messages"][0]["content"] != evalpy.PAIRWISE_PROMPT:
            return None
        a, b = answers_in(body)
        case, seed = a.split("[")[1].split("]")[0], body["options"]["seed"]
        if case == "c01" and seed > 42 or case == "c02" and seed == 44:   # c01: 1 readable of 3, c02: 2 of 3
            return "Las dos están bien, creo."
        return verdict("A" if "pedido" in a else "B")
    fake.route = route
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--judge-votes", "3",
                         "--judge-temperature", "0.7", "--host", fake.url)
    assert code == 0, err
    assert "  Candidate wins (4): c01, c02, c03, c04" in out.splitlines()
    assert ("  Doubtful verdicts (2, counted; under certainty 0.8, the share of the votes asked that agree, a vote "
            "without a verdict counting against it): c01 (0.33), c02 (0.67)") in out.splitlines()
    again = ("--judge-votes", "3", "--judge-temperature", "0.7")   # the stored comparison's judge
    figures = json.loads(cli("compare", base, cand, "--pairwise", CRITERION, *again, "--json")[1])["pairwise"]
    assert figures["doubtful"] == [{"id": "c01", "outcome": "candidate", "certainty": pytest.approx(1 / 3)},
                                   {"id": "c02", "outcome": "candidate", "certainty": pytest.approx(2 / 3)}]
    md = cli("compare", base, cand, "--pairwise", CRITERION, *again, "--markdown")[1]
    assert "Doubtful verdicts (under certainty 0.8): `c01` (0.33), `c02` (0.67)" in md


def test_cases_one_run_did_not_answer_are_named(project, cli, fake):
    base, cand = two_runs(IDS[:5], candidate_better=IDS[:5], baseline_better=())
    for path, cid in ((base, "c01"), (cand, "c02"), (base, "c03"), (cand, "c03")):
        run = load_json(path)
        r = next(r for r in run["results"] if r["id"] == cid)
        r.update(response=None, error="HTTP 500: boom")
        write_run(path, run)
    scripted_judge(fake)
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)
    assert "Answered by only the candidate (not compared): c01" in out
    assert "Answered by only the baseline (not compared): c02" in out
    assert "Answered by neither run (not compared): c03" in out
    assert "Candidate wins (2): c04, c05" in out
    md = cli("compare", base, cand, "--pairwise", CRITERION, "--markdown")[1]
    assert "Answered by only the candidate (not compared): `c01`" in md and "Answered by neither run (not compared): `c03`" in md
    figures = json.loads(cli("compare", base, cand, "--pairwise", CRITERION, "--json")[1])["pairwise"]
    assert (figures["only_candidate"], figures["only_baseline"], figures["neither"]) == (["c01"], ["c02"], ["c03"])


def test_cases_one_run_never_ran_are_named_as_unanswered(project, cli, fake):
    """Forty-sixth round on issue 28: a baseline holding a case the candidate never ran (a run with --limit, or
    --cases) made compare --pairwise end in a traceback (KeyError), the verdicts it had paid for unsaid."""
    base, cand = two_runs(IDS[:5], candidate_better=IDS[:5], baseline_better=())
    for path, gone in ((cand, "c01"), (base, "c02")):
        run = load_json(path)
        run["results"] = [r for r in run["results"] if r["id"] != gone]
        run["config"].update(cases=4, subset={"cases": [i for i in IDS[:5] if i != gone]})   # run --cases
        write_run(path, run)
    scripted_judge(fake)
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)
    assert code == 0, err
    assert "Answered by only the baseline (not compared): c01" in out and "Answered by only the candidate (not compared): c02" in out
    assert "Candidate wins (3): c03, c04, c05" in out
    figures = json.loads(cli("compare", base, cand, "--pairwise", CRITERION, "--json")[1])["pairwise"]
    assert (figures["only_baseline"], figures["only_candidate"]) == (["c01"], ["c02"])
    assert cli("compare", base, cand, "--pairwise", CRITERION, "--html", "p.html")[0] == 0 and "c02" in Path("p.html").read_text()


@pytest.mark.parametrize("argv, message", [
    (["--judge-model", "x"], "--judge-model only applies with --pairwise"),
    (["--host", "127.0.0.1:9"], "--host only applies with --pairwise"),
    (["--jobs", "4"], "--jobs only applies with --pairwise"),
    (["--pairwise", "  "], "--pairwise needs a criterion in words"),
    (["--pairwise", "\u200b"], "--pairwise needs a criterion in words"),   # (round 108: a judge asked about nothing)
])
def test_judge_options_without_pairwise_are_refused(project, cli, argv, message):
    base, cand = two_runs(IDS[:2], candidate_better=(), baseline_better=())
    code, out, err = cli("compare", base, cand, *argv)
    assert code == 2 and message in err


def test_a_damaged_sidecar_is_an_error_and_is_never_overwritten(project, cli, fake):
    base, cand = two_runs(IDS[:2], candidate_better=IDS[:2], baseline_better=())
    scripted_judge(fake)
    for damage in ('{"format": "eval.py-pairwise/1", "comparisons": [', '{"format": "other"}',
                   '{"format": "eval.py-pairwise/1", "comparisons": [{"baseline_sha": "x"}]}',
                   '{"format": "eval.py-pairwise/1", "comparisons": [{"baseline_sha": "x", "candidate_sha": "y", '
                   '"judge": {"criterion": "c", "models": [1]}, "verdicts": []}]}'):
        Path(cand + ".pairwise.json").write_text(damage)
        code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)
        assert code == 2 and "damaged pairwise file" in err and "Traceback" not in err
        assert Path(cand + ".pairwise.json").read_text() == damage
    assert not [b for b in fake.chat_bodies if b["messages"][0]["content"] == evalpy.PAIRWISE_PROMPT]
    # bytes that are not UTF-8: said so, not the codec's message (a UnicodeDecodeError is a ValueError)
    Path(cand + ".pairwise.json").write_bytes(b'{"format": "eval.py-pairwise/1", "comparisons": [], "x": "\xff"}')
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)
    assert code == 2 and "damaged pairwise file (not UTF-8 (line 1))" in err and "codec" not in err, err
    # (116th round) its line, in a file of many
    Path(cand + ".pairwise.json").write_bytes(b'{"format": "eval.py-pairwise/1",\n"comparisons": [],\n"x": "\xff"}')
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)
    assert code == 2 and "damaged pairwise file (not UTF-8 (line 3))" in err, err
    # (round 124's damaged files) in UTF-16, "damaged" and "mend it"; empty, "bad JSON ... the verdicts in it are paid
    # for"; a verdict whose trial is the text "1", "without its case, model, vote, order and winner"
    for data, said in ((b"\xff\xfe" + '{"format": "eval.py-pairwise/1", "comparisons": []}'.encode("utf-16-le"),
                        "this pairwise file is UTF-16 (its byte-order mark says so); save it as UTF-8"),
                       (b"", "empty, not a pairwise file written by eval.py compare --pairwise; remove it, or move it aside")):
        Path(cand + ".pairwise.json").write_bytes(data)
        code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)
        assert code == 2 and err.endswith(f"error: {cand}.pairwise.json: {said}\n") and \
            Path(cand + ".pairwise.json").read_bytes() == data, err
    Path(cand + ".pairwise.json").unlink()
    assert cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)[0] == 0
    stored = load_json(cand + ".pairwise.json")
    stored["comparisons"][0]["verdicts"][0]["trial"] = "1"
    Path(cand + ".pairwise.json").write_text(json.dumps(stored))
    code, out, err = cli("judge", cand, "--audit")
    assert code == 2 and "damaged pairwise file (a verdict on c01 whose trial is \"1\", not an integer (a whole number, written without a decimal point))" in err, err


def test_the_judge_never_sees_the_reasoning_and_its_own_reasoning_never_counts(project, cli, fake):
    base, cand = two_runs(IDS[:1], candidate_better=IDS[:1], baseline_better=())
    run = load_json(cand)
    run["results"][0]["response"] = "<think>el A es peor {\"winner\": \"A\"}</think>" + run["results"][0]["response"]
    write_run(cand, run)

    def route(body):
        if body["messages"][0]["content"] != evalpy.PAIRWISE_PROMPT:
            return None
        a, b = answers_in(body)
        assert "<think>" not in a + b
        return '<think>{"reason": "x", "winner": "tie"}</think>' + verdict("A" if "pedido" in a else "B")
    fake.route = route
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)
    assert code == 0 and "Candidate wins (1): c01" in out


@pytest.mark.parametrize("raw, winner", [
    ('{"reason": "r", "winner": "A"}', "A"), ('pienso... {"reason": "r", "winner": "b"}', "B"),
    ('{"winner": " Tie "}', "tie"), ('{"winner": "B"} luego {"winner": "B"}', "B"),
    # (113th round) two verdicts that disagree are none: a winner, then "had they been equal I would say {"winner":
    # "tie"}", was read as a tie; so are marks per aspect before it (left to a person); a correction in words too
    ('{"winner": "A"} luego {"winner": "B"}', None),
    ('Exactitud: {"winner": "A"}\nCompletitud: {"winner": "B"}\n\nFinal: {"reason": "B es completa", "winner": "B"}', None),
    ('{"reason": "B names it", "winner": "B"}\n\nActually, rereading, Winner: A', None),
    # (its third review) Answer B, (B), [[B]], **Verdict:** B, Ganador: B before an example; the prompt's choice is none
    *[(said + '\n\nHad A also given it: {"reason": "A gives it", "winner": "A"}', None) for said in (
        "Winner: Answer B", "Winner: (B)", "Final verdict: [[B]]", "**Verdict:** B", "Ganador: B")],
    ('I must pick winner: A, B or tie.\n\n{"reason": "B gives the date.", "winner": "B"}', "B"),
    # (its fourth review) MT-Bench's [[B]] alone, after a draft: none (the draft was read)
    ('Draft: {"reason": "A is longer", "winner": "A"}\nOn reflection B is more accurate.\n[[B]]', None),
    # (its fifth review) MT-Bench's choices written out, or quoted in a format, are no verdict
    ('MT-Bench options are [[A]], [[B]] or [[C]]; I answer in JSON.\n{"reason": "r", "winner": "A"}', "A"),
    ('Format: output "[[A]]" if A is better, "[[B]]" if B is.\n{"reason": "r", "winner": "A"}', "A"),
    ('Winner: Answer B, since it cites the policy. Had A cited it: {"reason": "A also cites", "winner": "A"}.', None),
    # (its sixth review) [[B]] in prose, not ending its line, is no verdict; a word, a comma, a word is one
    ('MT-Bench wants a bracketed verdict (e.g. [[B]]); I answer in JSON instead.\n{"reason": "r", "winner": "A"}', "A"),
    ('Winner: B, clearly, since had A cited it: {"reason": "A also cites", "winner": "A"}.', None),
    # (its seventh review) MT-Bench's [[C]] is its tie; "B, A, by contrast" is B
    ('{"reason": "A is longer", "winner": "A"}\n\nOn reflection they are equally good.\n[[C]]', None),
    ('{"reason": "A is longer", "winner": "A"}\n\nWait.\nWinner: B, A, by contrast, never cites the policy.', None),
    ('{"reason": "A is longer", "winner": "A"}\n\nWait.\nWinner: B, yes, B.', None),
    ('Options: [[A]], [[B]] or [[C]].\n{"reason": "r", "winner": "A"}', "A"),
    ('{"reason": "B names the order", "winner": "B"}\n\nHad both been as good I would answer {"winner": "tie"}.', None),
    # (114th round) the prompt's choice in backticks, quotes or bold is none (its first was read: B and tie votes
    # lost); [[A]] after a comma in prose is read (only the last of a list of them is not)
    *[(said + '\n\n{"reason": "r", "winner": "B"}', "B") for said in (
        "Winner: `A`, `B` or `tie`", 'I must output "winner": "A", "B" or "tie".', "winner: 'A', 'B' or 'tie'",
        "Winner: **A**, **B** or **tie**", '{"reason": ..., "winner": "A", "B" or "tie"}')],
    ('{"reason": "draft", "winner": "B"}\n\nWait, B never gives the date. On reflection, [[A]]', None),
    ('Therefore, [[A]]\n\nHad they been equal: {"reason": "same", "winner": "tie"}', None),
    # (its review) an example's [[B]] is none ("for example, [[B]]")
    ('For example, [[B]]\n{"reason": "r", "winner": "A"}', "A"), ('e.g., [[A]]\n{"reason": "r", "winner": "B"}', "B"),
    # (its review) a negation after a word in marks is no choice: said again
    ('Winner: **B**, not A.\n{"reason": "r", "winner": "A"}', None), ('Winner: B, not A, not tie.\n{"reason": "r", "winner": "A"}', None),
    # (its eleventh review) a choice piped or with an Oxford comma is none
    ('Format:\nWinner: “A” | “B” | “tie”\n\n{"reason": "r", "winner": "B"}', "B"),
    ('Format:\nWinner: **A**, **B**, or **tie**\n\n{"reason": "r", "winner": "B"}', "B"),
    ('{"reason": "r", "winner": "A"}\n\nWait, rereading. B is better on point 3. Winner: B', None),
    ('{"winner": "both"}', None), ('{"winner": 1}', None), ("A", None), ('{"pass": true}', None),
    ('{"reason": "B is better", "winner": "B", "detail": {"winner": "A"}}', "B"),   # the outermost object's
    ('{"reason": "r", "detail": {"winner": "A"}}', None),
    # a raw line break in the last reason is read; a last object refused is no verdict, never the draft's
    ('{"reason": "borrador", "winner": "B"}\n{"reason": "final\nB es mejor", "winner": "B"}', "B"),
    ('{"reason": "borrador", "winner": "A"}\n{"reason": "final", "winner": "B",}', None),
    ('{"winner": "B"} y luego { una llave y "comillas {"reason": "r", "winner": "B"}', "B"),
    # (seventeenth attack) a last verdict unreadable is none, never the draft's before it
    ('{"winner": "A"} al final {"winner": "Answer B"}', None), ('{"winner": "A"} al final {"winner": "neither"}', None),
    ('{"winner": "A"} al final {"reason": "no lo sé"}', None),
    # (twenty-first attack) a brace quoted in the prose before the verdict does not hide it; inside the
    # verdict a nested object is never read, nor a draft before a final one unreadable
    ('A abre con "{" y no cierra.\n{"reason": "B cierra", "winner": "B"}', "B"),
    ('A abre con "{" {"reason": "r", "winner": "B", "detail": {"winner": "A"}}', "B"),
    ('{"winner": "A"} luego "{" y {"winner": "neither"}', None),
    ('A abre con "{" {"reason": "r", "detail": {"winner": "A"},}', None),
    # (112th round) a last verdict written as no JSON is none, never the draft's; code writing the key so after a
    # verdict is none too (left to a person); another judge's key is prose
    ('{"reason": "borrador", "winner": "A"}\nFinal: {“winner”: “B”}', None), ('{"winner": "A"}\n{Winner: tie}', None),
    ('{"winner": "B"} Código: `const w = {winner: a.score > b.score ? "A" : "B"}`', None),
    ('{"winner": "A"}\nFinal: {winner: B (clearly better)}', None), ('{"winner": "B"} {pass: true}', "B"),
])
def test_parse_winner_reads_the_last_verdict_and_guesses_nothing(raw, winner):
    assert evalpy.parse_winner(raw)[0] == winner


def test_a_pairwise_judge_that_quotes_a_think_tag_keeps_its_vote():
    said = '{"reason": "A cita </think>; B contesta", "winner": "B"}'
    assert evalpy.parse_winner(evalpy.answer_of(said)) == ("B", "A cita </think>; B contesta")


def test_a_winner_nested_in_the_verdict_never_decides_it(project, cli, fake):
    base, cand = two_runs(IDS[:3], candidate_better=IDS[:3], baseline_better=())

    def route(body):   # the real verdict outside, the other answer named in a detail inside
        if body["messages"][0]["content"] != evalpy.PAIRWISE_PROMPT:
            return None
        a, b = answers_in(body)
        real, other = ("A", "B") if "pedido" in a else ("B", "A")
        return json.dumps({"reason": f"{real} is better", "winner": real, "detail": {"winner": other}})
    fake.route = route
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)
    assert code == 0 and "Candidate wins (3): c01, c02, c03" in out, out + err


def test_a_pairwise_reply_of_the_129th_round_is_stored_as_a_person_s_vote(project, cli, fake):
    """129th round: pairwise replies whose verdict field named the other answer (its key restated, a comma's word,
    scores against the winner, under another key or spelling, a preference in words) were stored as the JSON's winner.
    Compared over HTTP, each is stored as no verdict, for a person; scores agreeing with the winner are still read."""
    base, cand = two_runs(IDS[:7], candidate_better=IDS[:7], baseline_better=())
    fields = {"c01": lambda real, other: {"verdict": f"Winner: {other}"},
              "c02": lambda real, other: {"verdict": f"{other}, clearly"},
              "c03": lambda real, other: {"verdict": [f"{real}: 6/10", f"{other}: 9/10"]},
              "c04": lambda real, other: {"verdict": {"overall": other}},
              "c05": lambda real, other: {"winner ": other},
              "c06": lambda real, other: {"verdict": f"I prefer {other}."},
              "c07": lambda real, other: {"verdict": [f"{real}: 9/10", f"{other}: 6/10"]}}

    def route(body):
        if body["messages"][0]["content"] != evalpy.PAIRWISE_PROMPT:
            return None
        a, b = answers_in(body)
        real, other = ("A", "B") if "pedido" in a else ("B", "A")
        case = a.split("[")[1].split("]")[0]
        return json.dumps({"reason": "x", "winner": real, **fields[case](real, other)})
    fake.route = route
    cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)
    verdicts = load_json(cand + ".pairwise.json")["comparisons"][0]["verdicts"]
    assert len(verdicts) == 14
    assert all(v["winner"] is None for v in verdicts if v["id"] != "c07"), verdicts
    assert all(v["winner"] in ("A", "B") for v in verdicts if v["id"] == "c07"), verdicts


def test_a_score_of_thousands_of_digits_is_no_verdict_and_never_a_traceback(project, cli, fake):
    """129th round: a score of over 4,300 digits in a verdict field ("B: 1/999...9") crashed compare --pairwise with
    Python's ValueError (exit 1, every verdict of the run lost): Python converts no longer integer. Such a score is
    compared with nothing; the vote, its field naming both answers, is a person's."""
    base, cand = two_runs(IDS[:2], candidate_better=IDS[:2], baseline_better=())

    def route(body):
        if body["messages"][0]["content"] != evalpy.PAIRWISE_PROMPT:
            return None
        a, b = answers_in(body)
        real, other = ("A", "B") if "pedido" in a else ("B", "A")
        scores = {"c01": [f"{real}: 1/10", f"{other}: 1/" + "9" * 4400], "c02": [f"{real}: " + "9" * 4400, f"{other}: 1"]}
        return json.dumps({"reason": "x", "winner": real, "verdict": scores[a.split("[")[1].split("]")[0]]})
    fake.route = route
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url, "--judge-max-tokens", 8192)
    assert code == 0 and "Traceback" not in err, out + err
    verdicts = load_json(cand + ".pairwise.json")["comparisons"][0]["verdicts"]
    assert len(verdicts) == 4 and all(v["winner"] is None for v in verdicts), verdicts


def test_a_verdict_too_large_to_read_is_named_as_such(project, cli, fake):
    # a window past the answer (Ollama bounds an answer at ten windows): a server that sends it all
    base, cand = two_runs(IDS[:2], candidate_better=IDS[:2], baseline_better=(), options={"num_ctx": 65536})
    scripted_judge(fake)
    judged = fake.route
    fake.route = lambda body: (verdict("A", reason="x" * evalpy.MAX_VERDICT_CHARS)
                               if "[c02]" in body["messages"][-1]["content"] else judged(body))
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url, "--judge-max-tokens", 2 ** 31 - 1)
    assert code == 0 and "  No verdict (1, not counted): c02 (the judge's answer was too large to read a verdict from)" in out
    assert err.count("too large to read a verdict from") == 2   # both orders


def test_a_judge_that_calls_a_tool_is_said_to_not_too_large(project, cli, fake):
    """119th round's review: a pairwise judge that answered with a tool call was listed under No verdict as "the
    judge's answer was too large to read a verdict from" (its vote's unread reason taken for the size's)."""
    base, cand = two_runs(IDS[:2], candidate_better=IDS[:2], baseline_better=())
    scripted_judge(fake)

    class JudgesCall(dict):
        def get(self, user, default=None):
            return [[("submit_verdict", {"winner": "A"})]] if user and "[c02]" in user else default
    fake.agents = JudgesCall()
    judged = fake.route
    fake.route = lambda body: None if "[c02]" in body["messages"][-1]["content"] else judged(body)
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)
    assert code == 0 and ("  No verdict (1, not counted): c02 (the judge called a tool (submit_verdict) instead of "
                          "answering, and a judge is offered none)") in out, out + err


def test_the_sign_test_equals_scipys_binomtest_on_many_inputs():
    rng = random.Random(16)
    pairs = [(w, l) for w in range(0, 31) for l in range(0, 31)] + [(rng.randrange(0, 400), rng.randrange(0, 400))
                                                                      for _ in range(300)]
    for wins, losses in pairs:
        expected = binomtest(wins, wins + losses, 0.5).pvalue if wins + losses else 1.0
        assert evalpy.sign_test(wins, losses) == pytest.approx(expected, rel=1e-9, abs=1e-300), (wins, losses)


def test_a_killed_compare_keeps_the_verdicts_it_paid_for(project, cli, fake):
    import signal
    import subprocess
    import sys
    import time
    base, cand = two_runs(IDS, candidate_better=IDS, baseline_better=())
    scripted_judge(fake)
    fake.latency = 0.25
    proc = subprocess.Popen([sys.executable, str(Path(evalpy.__file__)), "compare", base, cand, "--pairwise", CRITERION,
                             "--host", fake.url], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 20
    while len(fake.chat_bodies) < 6 and time.monotonic() < deadline:
        time.sleep(0.05)
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=20)
    assert proc.returncode == 2 and "interrupted" in err and "Traceback" not in err
    # (round 95) with the command, its judge as asked: the same command with another judge would ask all again
    printed = re.search("compare again to ask only the calls still missing: python (.*)", err).group(1)
    # (round 108) a call out as it stopped may answer past the store: said where it goes, never "stored" alone; (135th
    # round) and named only where it is left (one out as eval.py exits is dropped)
    assert (f"(any that came as it stopped are kept in {cand}.pairwise.json.journal, which the next compare stores)"
            in err) == os.path.lexists(f"{cand}.pairwise.json.journal"), err
    assert shlex.split(printed)[1:] == ["compare", "--pairwise", CRITERION, "--judge-model", "qwen2.5:7b",
                                        "--judge-votes", "1", "--judge-temperature", "0", "--seed", "42",
                                        "--judge-max-tokens", "1024", "--host", fake.url, "--", base, cand], printed
    # (round 96) a temperature as stored (0.123457 was another judge: every call asked again), a path after --
    judge = {"criterion": "c", "models": ["m"], "votes": 2, "temperature": 0.1234567, "seed": 7}
    assert shlex.split(evalpy.pairwise_command("-a.json", "b c.json", judge, None, None))[2:] == [
        "compare", "--pairwise", "c", "--judge-model", "m", "--judge-votes", "2", "--judge-temperature", "0.1234567",
        "--seed", "7", "--", "-a.json", "b c.json"]
    stored = load_json(cand + ".pairwise.json")["comparisons"][0]["verdicts"]
    assert 4 <= len(stored) < 24          # every call answered, those of a pair half asked too (thirteenth attack)
    # (one that came as it stopped, kept in the journal, is stored by the next compare and not asked again: counted,
    # the test failed on a loaded machine, where one came then)
    journal = f"{cand}.pairwise.json.journal"
    kept = sum(1 for line in open(journal, encoding="utf-8") if line.endswith("\n")) if os.path.lexists(journal) else 0
    asked = len(fake.chat_bodies)
    fake.latency = 0
    code, out, err = cli(*shlex.split(printed)[1:])   # the command printed, word for word
    assert code == 0 and "Candidate wins (12)" in out
    assert len(fake.chat_bodies) - asked == 24 - len(stored) - kept        # only what was missing


def test_a_stopped_compare_names_a_journal_only_where_there_is_one_and_goes_on_with_its_jobs(project, cli, fake):
    """135th round: a compare --pairwise stopped with every verdict stored (its server gone: the calls out waited for,
    each failure stored) was still told its answers "are kept in cand.json.pairwise.json.journal, which the next compare
    stores", a file that was not there; and the command printed to go on left out the --jobs it was given."""
    base, cand = two_runs(IDS, candidate_better=IDS, baseline_better=())
    scripted_judge(fake)
    judged, asked = fake.route, []

    def gone_after_one(body):   # (then every call: connection failed, and the breaker stops the compare)
        asked.append(body)
        if len(asked) == 1:
            threading.Thread(target=fake.stop).start()
        return judged(body)
    fake.route, host = gone_after_one, fake.url
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", host, "--retries", "0", "--jobs", "2")
    assert code == 2 and "stopped answering" in err and not os.path.lexists(f"{cand}.pairwise.json.journal"), err
    assert "journal" not in err, err
    printed = re.search("compare again to ask only the calls still missing: python (.*)", err).group(1)
    assert shlex.split(printed)[-7:] == ["--host", host, "--jobs", "2", "--", base, cand], printed


def test_a_stop_with_a_call_out_names_no_journal_that_call_never_writes(project, cli, fake):
    """135th round (its review): a compare --pairwise stopped by SIGTERM with its call still out (held by the server till
    eval.py is gone: dropped as it exits) said its answers "are kept in cand.json.pairwise.json.journal, which the next
    compare stores", a call out taken for one that may yet write it; no journal was ever left."""
    base, cand = two_runs(IDS[:3], candidate_better=IDS[:3], baseline_better=())
    scripted_judge(fake)
    code, err = stopped_compare(base, cand, fake, "SIGTERM", 3)   # two answered, the third out as it stops
    assert code == 2 and "stored the verdicts in" in err and "Traceback" not in err, err
    assert not os.path.lexists(f"{cand}.pairwise.json.journal") and "journal" not in err, err


@pytest.mark.parametrize("api", ["ollama", "openai"])
def test_judge_schema_constrains_the_verdict_over_either_api(project, cli, fake, api):
    base, cand = two_runs(IDS[:3], candidate_better=IDS[:3], baseline_better=(), api=api)
    scripted_judge(fake)
    fake.refused_formats = {"json_schema"}        # as llama-cpp-python's server: the other form is used
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url, "--judge-schema")
    assert code == 0, err
    bodies = [b for b in fake.chat_bodies if b["messages"][0]["content"] == evalpy.PAIRWISE_PROMPT]
    assert len(bodies) == 6
    if api == "ollama":
        assert all(b["format"] == evalpy.WINNER_SCHEMA for b in bodies)
    else:
        assert "--judge-schema: sent as response_format json_object with a schema" in err
        assert all(b["response_format"] == {"type": "json_object", "schema": evalpy.WINNER_SCHEMA} for b in bodies)
    assert load_json(cand + ".pairwise.json")["comparisons"][0]["judge"]["schema"] is True
    # without the schema it is another judge: its verdicts are asked, not taken from the schema's
    cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)
    assert len([b for b in fake.chat_bodies if b["messages"][0]["content"] == evalpy.PAIRWISE_PROMPT]) == 12


def test_a_judge_prompt_that_filled_its_window_is_named(project, cli, fake):
    """From the attack on issue 16: Ollama cuts a prompt longer than num_ctx without a word."""
    base, cand = two_runs(IDS[:2], candidate_better=IDS[:2], baseline_better=())
    run = load_json(cand)
    run["results"][0]["response"] += " " + "muy " * 5000
    write_run(cand, run)
    scripted_judge(fake)
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)
    assert code == 0, err
    assert "  Judge prompts that filled its window (num_ctx=4096), so the answers it read may have been cut (1): c01" in out
    assert all(b["options"]["num_ctx"] == 4096 for b in fake.chat_bodies if b["messages"][0]["content"] == evalpy.PAIRWISE_PROMPT)


def test_a_sidecar_that_is_not_a_file_is_refused_before_reading(project, cli, fake):
    base, cand = two_runs(IDS[:2], candidate_better=IDS[:2], baseline_better=())
    os.symlink("/dev/zero", cand + ".pairwise.json")
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)
    assert code == 2 and "not a regular file" in err
    assert os.path.islink(cand + ".pairwise.json")


def test_a_judge_replaced_while_compare_asks_it_is_said_of_the_stored_verdicts(project, cli, fake):
    """Round 107's review: a pairwise judge re-pulled after 2 of its calls had every verdict stored under its first
    digest, and the next compare reused them in silence. As a run does, it asks the server again after the last call."""
    base, cand = two_runs(IDS[:2], candidate_better=IDS[:2], baseline_better=())
    scripted_judge(fake)
    fake.replace_after = (2, "qwen2.5:7b", "d4" * 32)
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)
    assert code == 2 and "error: the judge qwen2.5:7b was replaced while it was asked (digest " in err, err
    assert (f"the verdicts stored in {cand}.pairwise.json may come from two models; they are kept apart and never reused: "
            "compare again once the judge stays one, and every pair is asked anew") in err, err
    out = cli("judge", cand, "--audit")[1]   # (round 108) said on its own line: which comparison
    assert "(criterion: Which answer helps the customer more?); the judge qwen2.5:7b was replaced while it was asked (" \
        in out and ": may be two models'" in out, out
    # (round 108) kept apart, never reused: the judge steady, the next compare asks every pair anew (it was refused for
    # good, and the cure it gave, moving the file aside, took every other comparison stored there with it)
    asked = len(fake.chat_bodies)
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)
    assert code == 0 and "note: the judge qwen2.5:7b was replaced while it was asked" in err, err
    assert len(fake.chat_bodies) - asked == 4, err
    comparisons = load_json(cand + ".pairwise.json")["comparisons"]
    assert [bool(c.get("replaced")) for c in comparisons] == [True, False] and comparisons[0]["replaced"][0]["now"] == "d4" * 32
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)   # stored: nothing asked
    assert code == 0 and len(fake.chat_bodies) - asked == 4 and "kept apart" not in err, err
    stored = load_json(cand + ".pairwise.json")   # (its review) hand-edited as eval.py never writes it: damaged
    stored["comparisons"][0]["replaced"] = [{"who": "nobody", "model": "qwen2.5:7b", "was": "x", "now": "x"}]
    Path(cand + ".pairwise.json").write_text(json.dumps(stored), encoding="utf-8")
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)
    assert code == 2 and "damaged pairwise file (a comparison whose replaced is not a list of" in err, err


def test_unconfirmed_verdicts_of_a_judge_pulled_again_are_never_reused_when_it_comes_back(project, cli, fake):
    """Round 109: verdicts journaled by a compare the judge was re-pulled under (A, then B) and stopped before its
    last check were stored unconfirmed as A's; the next compare (judge B) said "every pair is asked anew", and once
    the judge was back on A a third reused them, mixed, and confirmed them. Unconfirmed verdicts of a digest the server
    no longer names are kept apart (when the judge changed is not known), and the note says what is reused."""
    base, cand = two_runs(IDS[:3], candidate_better=IDS[:3], baseline_better=())
    scripted_judge(fake)
    judged = fake.route
    first = fake.digest("qwen2.5:7b")

    def unanswered_at_the_end(answers):   # /api/tags answers no list from the last answer on: no last check
        answered = itertools.count(1)
        fake.route = lambda body: (fake.listings.update({"/api/tags": {"models": 5}}) if next(answered) == answers
                                   else None) or judged(body)
    unanswered_at_the_end(4)
    fake.faults = [None] * 4 + ["500"] * 2   # two calls of the third pair fail: it is asked again next time
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url, "--retries", "0")
    assert code == 2 and "stay unconfirmed" in err, err
    fake.listings.clear()
    fake.digests["qwen2.5:7b"] = "b2" * 32   # re-pulled: B
    unanswered_at_the_end(6)
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)
    assert "kept apart and never reused, and every pair is asked anew" in err and len(fake.chat_bodies) == 12, err
    fake.listings.clear()
    fake.digests["qwen2.5:7b"] = first   # back on A: neither A's nor B's unconfirmed verdicts are reused
    fake.route = judged
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)
    assert code == 0 and "kept apart and never reused, and every pair is asked anew" in err, err
    assert len(fake.chat_bodies) == 18 and "0 pair(s) stored already" in err, err
    comparisons = load_json(cand + ".pairwise.json")["comparisons"]
    assert [(bool(c.get("replaced")), c.get("unconfirmed")) for c in comparisons] == [(True, None)] * 2 + [(False, None)]
    assert [c["judge"]["digests"] for c in comparisons] == [[first], ["b2" * 32], [first]]


def test_a_compare_of_another_criterion_keeps_apart_what_a_changed_judge_left_unconfirmed(project, cli, fake):
    """Round 109: verdicts of one criterion left unconfirmed as digest A; a compare of another criterion learnt the judge
    is B now, and left them; the judge back on A, the next compare of the first criterion confirmed and counted them,
    B's among them. A compare that learns a judge's digest keeps apart every comparison it leaves unconfirmed as another."""
    base, cand = two_runs(IDS[:2], candidate_better=IDS[:2], baseline_better=())
    scripted_judge(fake)
    judged, first = fake.route, fake.digest("qwen2.5:7b")
    answered = itertools.count(1)   # /api/tags answers no list from the fourth answer on: the last check never runs
    fake.route = lambda body: (fake.listings.update({"/api/tags": {"models": 5}}) if next(answered) == 4 else None) or judged(body)
    assert "stay unconfirmed" in cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)[2]
    fake.listings.clear()
    fake.route = judged
    fake.digests["qwen2.5:7b"] = "b7" * 32
    code, out, err = cli("compare", base, cand, "--pairwise", "Which is shorter?", "--host", fake.url)
    assert code == 0 and (f"note: 4 verdicts stored unconfirmed in {cand}.pairwise.json by the judge qwen2.5:7b as digest "
                          f"{first[:8]}, which it is no longer (now b7b7b7b7), of the comparison of the criterion "
                          f"{CRITERION}, may be two models': kept apart and never reused") in err, err
    # (its review) asked at the first digest all along: never said "replaced while it was asked"
    audit = cli("judge", cand, "--audit")[1]
    assert (f"was named by another digest after a compare that asked it stopped unconfirmed (digest {first[:8]} when "
            "asked, b7b7b7b7 when next asked: re-pulled?)") in audit and "while it was asked" not in audit, audit
    fake.digests["qwen2.5:7b"] = first   # back on A: the first criterion's are never reused, nor confirmed
    asked = len(fake.chat_bodies)
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)
    assert code == 0 and len(fake.chat_bodies) - asked == 4 and "every pair is asked anew" in err, err
    # (its review) this machine by another name is the same server: localhost's unconfirmed verdicts are kept apart too
    local = fake.url.replace("127.0.0.1", "localhost")
    answered = itertools.count(1)
    fake.route = lambda body: (fake.listings.update({"/api/tags": {"models": 5}}) if next(answered) == 4 else None) or judged(body)
    assert "stay unconfirmed" in cli("compare", base, cand, "--pairwise", "Which is kinder?", "--host", local)[2]
    fake.listings.clear()
    fake.route = judged
    fake.digests["qwen2.5:7b"] = "c8" * 32
    code, out, err = cli("compare", base, cand, "--pairwise", "Which is longer?", "--host", fake.url)
    assert "of the comparison of the criterion Which is kinder?, may be two models': kept apart" in err, err


def test_another_servers_judge_of_another_digest_is_never_said_pulled_again(project, cli, fake):
    """Round 110's review: verdicts left unconfirmed by a compare of server A, then a compare of server B, whose judge
    of that name is another digest: B's was said "pulled again" and A's verdicts kept apart for good; back on A, its
    unchanged judge was said pulled again too and every pair asked anew. Another server's judge is another judge:
    each server's verdicts stay as they are, and A's are used once A is asked again."""
    from fake_ollama import FakeOllama
    base, cand = two_runs(IDS[:3], candidate_better=IDS[:3], baseline_better=())
    scripted_judge(fake)
    judged, first = fake.route, fake.digest("qwen2.5:7b")
    answered = itertools.count(1)   # /api/tags answers no list from the fourth answer on: the last check never runs
    fake.route = lambda body: (fake.listings.update({"/api/tags": {"models": 5}}) if next(answered) == 4 else None) or judged(body)
    fake.faults = [None] * 4 + ["500"] * 2   # the third pair's calls fail: asked again next time
    assert "stay unconfirmed" in cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url, "--retries", "0")[2]
    fake.listings.clear()
    fake.route = judged
    other = FakeOllama().start()
    try:
        scripted_judge(other)
        other.digests["qwen2.5:7b"] = "e5" * 32
        code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", other.url)
        assert code == 0 and "pulled again" not in err and "kept apart" not in err, err
        assert (f"note: the judge qwen2.5:7b at {other.url} is digest e5e5e5e5, not {first[:8]} as at {fake.url}, "
                f"whose verdicts are stored in {cand}.pairwise.json: they are another server's judge's, kept as "
                "they are, and every pair is asked anew") in err, err
        assert len(other.chat_bodies) == 6
    finally:
        other.stop()
    asked = len(fake.chat_bodies)
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)
    assert code == 0 and "pulled again" not in err and "kept apart" not in err, err
    assert len(fake.chat_bodies) - asked == 2 and "2 pair(s) stored already" in err, err   # only the failed pair's calls
    comparisons = load_json(cand + ".pairwise.json")["comparisons"]
    assert sorted((c["judge"]["digests"], c.get("unconfirmed"), bool(c.get("replaced"))) for c in comparisons) == \
        sorted([([first], None, False), (["e5" * 32], None, False)])


def test_verdicts_left_unconfirmed_on_one_server_are_never_confirmed_by_another(project, cli, fake):
    """Round 110: a compare killed on server X (its judge re-pulled as it asked) left verdicts unconfirmed; the next
    compare, of server Y naming the judge by X's first digest, reused them, confirmed them and stored them as Y's:
    verdicts of two digests counted as one, without a word. Another server cannot say what X's judge was: the compare
    stops before any call and says which server confirms them."""
    from fake_ollama import FakeOllama
    base, cand = two_runs(IDS[:3], candidate_better=IDS[:3], baseline_better=())
    scripted_judge(fake)
    judged = fake.route
    answered = itertools.count(1)   # /api/tags answers no list from the fourth answer on: the last check never runs
    fake.route = lambda body: (fake.listings.update({"/api/tags": {"models": 5}}) if next(answered) == 4 else None) or judged(body)
    fake.faults = [None] * 4 + ["500"] * 2
    assert "stay unconfirmed" in cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url, "--retries", "0")[2]
    fake.listings.clear()
    fake.route = judged
    other = FakeOllama().start()
    try:
        scripted_judge(other)   # the same digest as X's first
        code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", other.url)
        assert code == 2 and other.chat_bodies == [], err
        assert (f"verdicts of this comparison stored in {cand}.pairwise.json were asked of {fake.url} by a compare that "
                "stopped before it confirmed which digest its judge was; another server cannot confirm them: compare "
                f"against {fake.url} once") in err, err
    finally:
        other.stop()
    comparison = load_json(cand + ".pairwise.json")["comparisons"][0]
    assert comparison["unconfirmed"] is True and comparison["host"] == fake.url
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)   # X confirms them
    assert code == 0 and "2 pair(s) stored already" in err, err


def test_a_spelling_is_taken_only_from_ollamas_comparisons_and_never_over_an_exact_name():
    """Round 109's review: a /v1 server's qwen3:8b and QWEN3:8B are two models; a compare over Ollama took the spelling
    of the last comparison matching in any case, a /v1 one too, and showed that model's verdicts under its name."""
    key = {"baseline_sha": "a", "candidate_sha": "b"}
    stored = lambda api, *models: dict(key, api=api, judge={"models": list(models)})
    for comparisons, asked, kept in (([stored("openai", "QWEN3:8B")], "qwen3:8b", "qwen3:8b"),
                                     ([stored("ollama", "qwen3:8b"), stored("ollama", "QWEN3:8B")], "qwen3:8b", "qwen3:8b"),
                                     ([stored("ollama", "QWEN3:8B")], "Qwen3:8b", "QWEN3:8B")):
        judge = {"models": [asked]}
        evalpy.spelled_as_stored(judge, comparisons, key, "ollama")
        assert judge["models"] == [kept], (comparisons, asked)


@pytest.mark.parametrize("a, b, same", [
    ("http://localhost:11434", "http://127.0.0.1:11434", True), ("http://localhost:11434", "http://[::1]:11434", True),
    ("http://127.0.0.2:11434", "http://127.0.0.1:11434", False), ("http://[::1]:11434", "http://127.0.0.1:11434", False),
    ("http://localhost:11434", "http://127.0.0.2:11434", False),
    ("http://LOCALHOST:11434", "http://localhost:11434", True), ("http://localhost:11435", "http://127.0.0.1:11434", False),
    ("https://localhost:11434", "http://127.0.0.1:11434", False)])
def test_one_server_is_this_machine_by_localhost_never_two_addresses(a, b, same):
    """Round 109's review: every two loopback addresses read as one server, so a compare against 127.0.0.1 kept apart
    the verdicts of another server listening on 127.0.0.2, which never changed, and had them asked again."""
    assert evalpy.same_server(a, b) is same and evalpy.same_server(b, a) is same


def test_a_judge_named_in_another_case_is_one_judge_and_its_verdicts_are_read(project, cli, fake):
    """Round 109: --judge-model Qwen2.5:7B (the server lists qwen2.5:7b) paid for every verdict, stored them, and showed
    each pair "not asked (interrupted)", exit 0; asked again, it paid again and said another compare had stored them.
    A server listing the judge in another case since (its digest the same) crashed the digest check (StopIteration,
    exit 1). And one that no longer names a digest left the stored verdicts shown as checked."""
    base, cand = two_runs(IDS[:2], candidate_better=IDS[:2], baseline_better=())
    scripted_judge(fake)
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url, "--judge-model", "Qwen2.5:7B")
    assert code == 0 and "Candidate wins (2): c01, c02" in out and "not asked" not in out, (out, err)
    asked = len(fake.chat_bodies)
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url, "--judge-model", "QWEN2.5:7b")
    assert code == 0 and len(fake.chat_bodies) == asked and "merged" not in err and "Candidate wins (2)" in out, err
    digest = fake.digest("qwen2.5:7b")
    fake.models = ["QWEN2.5:7B" if m == "qwen2.5:7b" else m for m in fake.models]   # listed in another case since
    fake.digests["QWEN2.5:7B"] = digest
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)
    assert code == 0 and len(fake.chat_bodies) == asked and "Candidate wins (2)" in out and "Traceback" not in err, err
    fake.listings["/api/tags"] = {"models": [{"name": m, "model": m} for m in fake.models]}   # no digest named
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url, "--json")
    assert code == 0 and json.loads(out)["pairwise"]["unchecked"].startswith(
        f"{fake.url} no longer says which digest the judge qwen2.5:7b is (the verdicts began with "), (out, err)
    assert "are shown as they are, unchecked" in err, err


def test_stored_verdicts_over_ollamas_v1_whose_digest_is_unread_now_are_said_unchecked(project, cli, fake):
    """126th round: over Ollama's /v1, verdicts stored under the judge's Ollama digest, then the judge pulled again and
    /api/version slow past its wait: its /v1 entry (which names no weights: its id, when it was pulled, "library") stood
    for a digest, read as another reading of the same judge, and the stored verdicts were shown as checked, relabelled
    with it. An entry that names no weights is no digest: the server cannot say, and they are said unchecked."""
    base, cand = two_runs(IDS[:2], candidate_better=IDS[:2], baseline_better=())
    scripted_judge(fake)
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--api", "openai", "--host", fake.url + "/v1")
    assert code == 0 and "Candidate wins (2)" in out, (out, err)
    asked = len(fake.chat_bodies)
    fake.digests["qwen2.5:7b"] = "ab" * 32                                  # pulled again
    fake.version_seconds = evalpy.OLLAMA_ASKED_SECONDS + 0.5                # and its /api/version slow
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--api", "openai", "--host", fake.url + "/v1",
                         "--json")
    assert code == 0 and len(fake.chat_bodies) == asked and json.loads(out)["pairwise"]["unchecked"].startswith(
        f"{fake.url}/v1 no longer says which digest the judge qwen2.5:7b is"), (out, err)
    fake.digests.clear()   # (the digest the verdicts were stored under, never relabelled with the entry's)
    assert json.loads(out)["pairwise"]["judge"]["digests"] == [fake.digest("qwen2.5:7b")], out


def compared_where_no_digest_is_named(cli, fake):
    """Two runs compared once where the judge's server names no digest of it (its /api/tags says nothing of what the
    judge is): a compare again shows the stored verdicts unchecked. Returns (baseline path, candidate path)."""
    base, cand = two_runs(IDS[:2], candidate_better=IDS[:2], baseline_better=())
    scripted_judge(fake)
    fake.listings["/api/tags"] = {"models": [{"name": "qwen2.5:7b", "model": "qwen2.5:7b", "size": 4683087332}]}
    assert cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)[0] == 0
    return base, cand


def said_of_a_comparison_stored_with(cli, fake, key, value):
    """(exit code, stderr) of compare --pairwise again, shown unchecked, once the stored comparison's `key` is `value`
    (... : taken out); the sidecar is checked unchanged."""
    base, cand = compared_where_no_digest_is_named(cli, fake)
    stored = load_json(cand + ".pairwise.json")
    if value is ...:
        del stored["comparisons"][0][key]
    else:
        stored["comparisons"][0][key] = value
    damaged = json.dumps(stored)
    Path(cand + ".pairwise.json").write_text(damaged)
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)
    assert Path(cand + ".pairwise.json").read_text() == damaged and "Traceback" not in err, err
    return code, err


@pytest.mark.parametrize("date", [..., None, True, 0, [], {}, "", "garbage", "9999-99-99"])
def test_a_stored_comparison_whose_date_is_missing_or_not_text_is_damaged(project, cli, fake, date):
    """134th round: a comparison without its date, shown unchecked ("stored on <its date>"), was a traceback (KeyError:
    'date'), exit 1, CI's "gate failed"; one of null, true, 0, [] or {} was shown as its date; "", "garbage" or
    "9999-99-99" were shown as "stored ... on  are shown as they are". eval.py writes one with every comparison, from its
    first sidecar on, as a clock gives it: one of none is damage, named."""
    code, err = said_of_a_comparison_stored_with(cli, fake, "date", date)
    said = ("without its date" if date is ... else f"whose date is not a date: {date!r}" if type(date) is str else
            "whose date is not text")
    assert code == 2 and err.endswith(
        f"error: runs/cand.json.pairwise.json: damaged pairwise file (a comparison {said}); mend it (the verdicts in it "
        "are paid for), or move it aside to ask the judge again\n"), err


@pytest.mark.parametrize("host", [True, 0, 1.5, [], {}, None, ..., "", "not a host"])
def test_a_stored_comparison_whose_host_is_not_text_is_damaged(project, cli, fake, host):
    """134th round: a comparison whose host was true, 0, 1.5, [], {} or null was read as one of an older eval.py that
    recorded none, and its verdicts, stored where no digest was named, reused without the "Unchecked" line, exit 0;
    so was one without a host, though every eval.py wrote one with every comparison (from its first sidecar on, a
    server's address as a run's config.host is); "" and "not a host" were shown as "stored where  named no digest".
    Each is damage, named."""
    code, err = said_of_a_comparison_stored_with(cli, fake, "host", host)
    said = ("without its host" if host is ... else "whose host is not text" if type(host) is not str else
            "whose host is not a server's address")
    assert code == 2 and f"error: runs/cand.json.pairwise.json: damaged pairwise file (a comparison {said}" in err and \
        err.endswith("); mend it (the verdicts in it are paid for), or move it aside to ask the judge again\n"), err


def test_stored_verdicts_of_a_judge_that_named_no_digest_are_said_unchecked(project, cli, fake):
    """127th round's hostile servers: verdicts stored where the judge's server gave no digest (Ollama's API of a server
    that names none) were reused silently, shown as the judge's, when another model answered to its name by then.
    (129th round: where its /api/tags says what the judge is, that checks them; here it says nothing of it.)"""
    base, cand = compared_where_no_digest_is_named(cli, fake)
    asked = len(fake.chat_bodies)
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url, "--json")
    assert code == 0 and len(fake.chat_bodies) == asked and json.loads(out)["pairwise"]["unchecked"].startswith(
        f"the verdicts of the judge qwen2.5:7b were stored where {fake.url} named no digest of it, so they cannot be "
        "checked against the judge now"), (out, err)


def test_a_pairwise_judge_swapped_where_no_digest_is_given_is_caught(project, cli, fake):
    """129th round: over a server that names no digest, a judge swapped after 2 of its calls (another family in its
    /api/tags) passed unseen, exit 0, and the next compare reused its verdicts, "unchecked". What /api/tags says of the
    judge stands for its digest there, as for a run's model: checked after the last call (over Ollama's API and its
    /v1), and by the next compare, which asks every pair anew of a judge said to be another model since."""
    import fake_ollama
    base, cand = two_runs(IDS[:2], candidate_better=IDS[:2], baseline_better=())
    scripted_judge(fake)
    fake.digests["qwen2.5:7b"] = ""
    def swapped_after(n):   # the judge listed as another family from the n-th call on
        fake.family = lambda m: "gemma" if len(fake.chat_bodies) >= n else fake_ollama.FakeOllama.family(m)
    said = ("the judge qwen2.5:7b was replaced while it was asked (its /api/tags named no digest, and said qwen2 7.6B "
            "Q4_K_M at the start, gemma 7.6B Q4_K_M after the last call: another model?)")
    for api, host in (("ollama", fake.url), ("openai", fake.url + "/v1")):
        swapped_after(len(fake.chat_bodies) + 2)
        code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--api", api, "--host", host)
        stored = load_json(cand + ".pairwise.json")["comparisons"]
        assert code == 2 and said in err and stored[0]["replaced"] == [
            {"who": "the judge", "model": "qwen2.5:7b", "was": "details:qwen2 7.6B Q4_K_M",
             "now": "details:gemma 7.6B Q4_K_M"}] and stored[0]["judge"]["details"] == [
            {"model_family": "qwen2", "parameter_size": "7.6B", "quantization": "Q4_K_M"}], (api, err)
        del fake.family
        os.unlink(cand + ".pairwise.json")
    # the judge steady, its verdicts stored; swapped between two compares: the next asks every pair anew
    assert cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)[0] == 0
    asked = len(fake.chat_bodies)
    swapped_after(0)
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url, "--json")
    assert code == 0 and len(fake.chat_bodies) == asked + 4 and not json.loads(out)["pairwise"].get("unchecked"), err
    assert (f"note: the judge qwen2.5:7b is another model (its /api/tags named no digest, and said qwen2 7.6B Q4_K_M, now "
            f"gemma 7.6B Q4_K_M) since the verdicts stored in {cand}.pairwise.json; they are kept as they are, and every "
            "pair is asked anew") in err, err
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url, "--json")   # (stored now)
    assert code == 0 and len(fake.chat_bodies) == asked + 4 and not json.loads(out)["pairwise"].get("unchecked"), err


def test_stored_verdicts_of_a_judge_naming_the_same_digest_stand_whatever_its_tags_say_now(project, cli, fake):
    """130th round: verdicts stored where the judge named a digest, the same digest named since but its /api/tags
    describing it otherwise (a size spelled 8.0B, then 8B): "the judge ... is another model (its /api/tags named no
    digest, and said ...)", one was named, and every pair was asked anew. The same digest of Ollama's API is the same
    judge (details_stand): its verdicts stand, nothing asked."""
    import fake_ollama
    base, cand = two_runs(IDS[:2], candidate_better=IDS[:2], baseline_better=())
    scripted_judge(fake)
    assert cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)[0] == 0
    asked = len(fake.chat_bodies)
    fake.family = lambda m: "qwen2.5" if m == "qwen2.5:7b" else fake_ollama.FakeOllama.family(m)
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url, "--json")
    assert code == 0 and len(fake.chat_bodies) == asked and not json.loads(out)["pairwise"].get("unchecked"), err
    assert "another model" not in err and "named no digest" not in err, err


def test_stored_verdicts_of_a_judge_that_named_no_digest_are_checked_once_it_names_one(project, cli, fake):
    """130th round: verdicts stored where the judge named no digest (its /api/tags' qwen2 recorded), the judge another
    model since that names a digest (gemma): "stored where ... named no digest of it, so they cannot be checked against
    the judge now; ... shown as they are, unchecked": a judge naming a digest recorded nothing of what its /api/tags
    said, so none was compared. They are checked by it, as where none is named: another model, every pair asked anew."""
    import fake_ollama
    base, cand = two_runs(IDS[:2], candidate_better=IDS[:2], baseline_better=())
    scripted_judge(fake)
    fake.digests["qwen2.5:7b"] = ""
    assert cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)[0] == 0
    asked = len(fake.chat_bodies)
    del fake.digests["qwen2.5:7b"]
    fake.family = lambda m: "gemma" if m == "qwen2.5:7b" else fake_ollama.FakeOllama.family(m)
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url, "--json")
    assert code == 0 and len(fake.chat_bodies) == asked + 4 and not json.loads(out)["pairwise"].get("unchecked"), err
    assert (f"note: the judge qwen2.5:7b is another model (its /api/tags named no digest then, and said qwen2 7.6B Q4_K_M, now "
            f"gemma 7.6B Q4_K_M) since the verdicts stored in {cand}.pairwise.json; they are kept as they are, and every "
            "pair is asked anew") in err, err


def test_unconfirmed_verdicts_of_a_judge_that_named_no_digest_are_kept_apart_once_another_names_one(project, cli, fake):
    """130th round: verdicts a compare stopped unconfirmed, where the judge named no digest (qwen2), the judge another
    model since that names a digest (gemma): the next compare went on, exit 0, without a word, and stored one comparison
    of both models' verdicts as the new digest's, what /api/tags said of the first and the unconfirmed mark gone. Kept
    apart and never reused, as where the judge names no digest now."""
    import fake_ollama
    base, cand = two_runs(IDS[:2], candidate_better=IDS[:2], baseline_better=())
    scripted_judge(fake)
    fake.digests["qwen2.5:7b"] = ""
    judged = fake.route

    def unlisted_at_the_last_call(body):   # /api/tags answers no list after the last verdict: it stays unconfirmed
        if len(fake.chat_bodies) == 4:
            fake.listings["/api/tags"] = {"models": 5}
        return judged(body)
    fake.route = unlisted_at_the_last_call
    cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)
    assert load_json(cand + ".pairwise.json")["comparisons"][0]["unconfirmed"] is True
    fake.listings.clear()
    fake.route = judged
    del fake.digests["qwen2.5:7b"]
    fake.family = lambda m: "gemma" if m == "qwen2.5:7b" else fake_ollama.FakeOllama.family(m)
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)
    assert code == 0 and ("note: the judge qwen2.5:7b is another model (its /api/tags named no digest then, and said qwen2 "
                          "7.6B Q4_K_M, now gemma 7.6B Q4_K_M) since the verdicts stored in "
                          f"{cand}.pairwise.json were asked, by a compare that never confirmed the judge after its last "
                          "call: they may be two models', kept apart and never reused") in err, err
    stored = load_json(cand + ".pairwise.json")["comparisons"]
    assert [c["judge"].get("digests") for c in stored] == [None, [fake.digest("qwen2.5:7b")]], stored


def test_a_comparison_an_older_eval_py_began_records_no_judge_of_now_as_its(project, cli, fake):
    """130th round: a comparison an older eval.py stored, its judge recorded by neither digest nor details, gone on with
    once the judge was swapped (another family under its name): no word, and the comparison was stored with what
    /api/tags says of the new judge as the whole comparison's, its first verdicts the other model's. Said, as run
    --resume and judge say it, and nothing read now recorded as the comparison's."""
    import fake_ollama
    base, cand = two_runs(IDS[:2], candidate_better=IDS[:2], baseline_better=())
    scripted_judge(fake)
    fake.digests["qwen2.5:7b"] = ""
    assert cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)[0] == 0
    sidecar = load_json(cand + ".pairwise.json")
    comparison = sidecar["comparisons"][0]
    comparison["judge"] = {k: v for k, v in comparison["judge"].items() if k not in ("digests", "details")}
    comparison["verdicts"] = comparison["verdicts"][:2]   # (stopped after two)
    Path(cand + ".pairwise.json").write_text(json.dumps(sidecar))
    fake.family = lambda m: "gemma" if m == "qwen2.5:7b" else fake_ollama.FakeOllama.family(m)
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)
    assert code == 0 and ("note: the comparison stored in runs/cand.json.pairwise.json began with no record of which "
                          "model each judge (qwen2.5:7b) was: the verdicts asked now cannot be told to be the same "
                          "models'") in err, err
    stored = load_json(cand + ".pairwise.json")["comparisons"]
    assert len(stored) == 1 and len(stored[0]["verdicts"]) == 4 and "details" not in stored[0]["judge"], stored


def test_stored_verdicts_of_a_judge_its_tags_no_longer_describe_are_said_unchecked_for_that(project, cli, fake):
    """129th round's hostile servers: verdicts stored where the judge named no digest, checked by what its /api/tags
    said of it (judge.details), were said "stored where ... named no digest of it, so they cannot be checked" once its
    /api/tags said nothing of it: untrue, they were checked before. The reason said is the one there is."""
    base, cand = two_runs(IDS[:2], candidate_better=IDS[:2], baseline_better=())
    scripted_judge(fake)
    fake.digests["qwen2.5:7b"] = ""
    assert cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)[0] == 0
    asked = len(fake.chat_bodies)
    fake.listings["/api/tags"] = {"models": [{"name": "qwen2.5:7b", "model": "qwen2.5:7b", "size": 4683087332}]}
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url, "--json")
    assert code == 0 and len(fake.chat_bodies) == asked and json.loads(out)["pairwise"]["unchecked"].startswith(
        f"could not ask {fake.url} again what the judge qwen2.5:7b is now (its /api/tags no longer says what it is); the "
        "verdicts were asked where it said it was qwen2 7.6B Q4_K_M;"), (out, err)
    assert "named no digest" not in err, err


def test_stored_verdicts_are_of_the_judge_as_it_is_now_or_said_unchecked(project, cli, fake):
    """Round 109: with every verdict stored and confirmed, a compare asked the server nothing: a judge pulled again
    since was shown as the stored verdicts of the other digest, without a word (with one call left to ask, the same
    compare asked every pair anew). The server is asked which digest the judge is; one that cannot say leaves the
    stored verdicts shown, said unchecked."""
    base, cand = two_runs(IDS[:2], candidate_better=IDS[:2], baseline_better=())
    scripted_judge(fake)
    assert cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)[0] == 0
    old = fake.digest("qwen2.5:7b")
    fake.digests["qwen2.5:7b"] = "c3" * 32
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url, "--json")
    assert code == 0 and len(fake.chat_bodies) == 8, err
    assert (f"note: the judge qwen2.5:7b was pulled again (digest {old[:8]}, now c3c3c3c3) since the verdicts stored in "
            f"{cand}.pairwise.json; they are kept as they are, and every pair is asked anew") in err, err
    assert json.loads(out)["pairwise"]["judge"]["digests"] == ["c3" * 32]
    # (its review) the audit's two lines of one criterion, each judge's, told apart by the digest
    audit = cli("judge", cand, "--audit")[1]
    assert f"(judge digest {old[:8]}), judge qwen2.5:7b" in audit and "(judge digest c3c3c3c3), judge qwen2.5:7b" in audit, audit
    fake.digests["qwen2.5:7b"] = old   # back: the first comparison's verdicts are this judge's, reused
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)
    assert code == 0 and len(fake.chat_bodies) == 8 and "unchecked" not in err, err
    assert (f"(digest c3c3c3c3, now {old[:8]}) since the verdicts stored in {cand}.pairwise.json; they are kept as they "
            "are; those stored of the judge as it is now (on ") in err, err
    fake.stop()
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url, "--json")
    assert code == 0 and json.loads(out)["pairwise"]["judge"]["digests"] == ["c3" * 32], err   # the last stored
    assert f"which digest the judge is now (cannot reach the model server at {fake.url} (ConnectionError)); the verdicts " \
        f"stored in {cand}.pairwise.json on " in err and "are shown as they are, unchecked" in err, err
    # (its review) and in every view: --json and --markdown said nothing of it
    assert json.loads(out)["pairwise"]["unchecked"].startswith(f"could not ask {fake.url} which digest the judge is now")
    for view in ((), ("--markdown",)):
        out = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url, *view)[1]
        assert ("Unchecked: could not ask" in out and "; these are the verdicts stored on " in out), out


def test_unconfirmed_verdicts_of_a_judge_that_names_no_digest_are_said_so(project, cli, fake):
    """129th round's hostile servers: verdicts a compare stopped unconfirmed, where the judge named no digest (what its
    /api/tags said stood for one), the judge swapped since, were said asked "by a compare that never confirmed its
    digest after its last call": it had none. Said of the judge, as it is."""
    import fake_ollama
    base, cand = two_runs(IDS[:2], candidate_better=IDS[:2], baseline_better=())
    scripted_judge(fake)
    fake.digests["qwen2.5:7b"] = ""
    judged = fake.route

    def swapped_at_the_last_call(body):   # another family as the last verdict is asked; then /api/tags answers no list
        if len(fake.chat_bodies) == 4:
            fake.family = lambda m: "gemma" if m == "qwen2.5:7b" else fake_ollama.FakeOllama.family(m)
            fake.listings["/api/tags"] = {"models": 5}
        return judged(body)
    fake.route = swapped_at_the_last_call
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)
    assert load_json(cand + ".pairwise.json")["comparisons"][0]["unconfirmed"] is True, err
    fake.listings.clear()
    fake.route = judged
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)
    assert code == 0 and ("note: the judge qwen2.5:7b is another model (its /api/tags named no digest, and said qwen2 "
                          "7.6B Q4_K_M, now gemma 7.6B Q4_K_M) since the verdicts stored in "
                          f"{cand}.pairwise.json were asked, by a compare that never confirmed the judge after its last "
                          "call: they may be two models'") in err and "digest after" not in err, err


def test_verdicts_whose_last_check_never_ran_are_checked_by_the_next_compare(project, cli, fake):
    """Round 107's note, left open: a compare stopped before it asked the server again which digest its judge is (or
    that could not ask it) stored its verdicts as checked, and the next compare, with nothing left to ask, reused them
    without a word though the judge was re-pulled as they were asked. They are stored unconfirmed till that check."""
    base, cand = two_runs(IDS[:2], candidate_better=IDS[:2], baseline_better=())
    scripted_judge(fake)
    judged = fake.route

    def replaced_at_the_last_call(body):   # re-pulled as the last verdict is asked; then /api/tags answers no list
        if len(fake.chat_bodies) == 4:
            fake.digests["qwen2.5:7b"] = "d4" * 32
            fake.listings["/api/tags"] = {"models": 5}
        return judged(body)
    fake.route = replaced_at_the_last_call
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)
    assert f"the verdicts stored in {cand}.pairwise.json stay unconfirmed: the next compare asks it" in err, err
    assert load_json(cand + ".pairwise.json")["comparisons"][0]["unconfirmed"] is True
    # (its review) the next compare asks only while the judge is on the digest it began with: no promise of it here
    assert "; unconfirmed (the compare that asked it never confirmed which digest its judge was after its last call): " \
        "may be two models'" in cli("judge", cand, "--audit")[1]
    assert json.loads(cli("judge", cand, "--audit", "--json")[1])["audit"]["position"]["comparisons"][0]["unconfirmed"]
    fake.listings.clear()
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)
    assert code == 0 and "note: the judge qwen2.5:7b was pulled again" in err and len(fake.chat_bodies) == 8, err
    # (round 109) when the judge changed, since the compare that never confirmed them began, is not known: kept apart
    assert ("were asked, by a compare that never confirmed its digest after its last call: they may be two models', kept "
            "apart and never reused, and every pair is asked anew") in err, err
    comparisons = load_json(cand + ".pairwise.json")["comparisons"]
    assert [(c.get("unconfirmed"), bool(c.get("replaced"))) for c in comparisons] == [(None, True), (None, False)]
    # the judge steady: the next compare asks its digest alone, and the verdicts stand, confirmed
    fake.route = lambda body: (fake.listings.update({"/api/tags": {"models": 5}}) if len(fake.chat_bodies) == 12
                               else None) or judged(body)
    code, out, err = cli("compare", base, cand, "--pairwise", "Which is shorter?", "--host", fake.url)
    assert "stay unconfirmed" in err and len(fake.chat_bodies) == 12, err
    fake.listings.clear()
    code, out, err = cli("compare", base, cand, "--pairwise", "Which is shorter?", "--host", fake.url)
    assert code == 0 and ("never confirmed which digest the judge was after its last call (it stopped first, or the "
                          "server did not say): asking the server now") in err, err
    assert len(fake.chat_bodies) == 12 and "unconfirmed" not in load_json(cand + ".pairwise.json")["comparisons"][-1]
    code, out, err = cli("compare", base, cand, "--pairwise", "Which is shorter?", "--host", fake.url)
    assert code == 0 and "asking it now" not in err and len(fake.chat_bodies) == 12, err
    stored = load_json(cand + ".pairwise.json")   # eval.py writes true or nothing
    stored["comparisons"][0]["unconfirmed"] = False
    Path(cand + ".pairwise.json").write_text(json.dumps(stored), encoding="utf-8")
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)
    assert code == 2 and "damaged pairwise file (a comparison whose unconfirmed is not true)" in err, err


def test_a_judge_named_with_escape_codes_is_printed_inert(project, cli, fake):
    hostile = "evil\x1b[31mred"
    fake.models += [hostile, hostile + ":latest"]
    fake.digests[hostile] = fake.digest(hostile + ":latest")   # one model by both names (two digests: two models)
    base, cand = two_runs(IDS[:2], candidate_better=IDS[:2], baseline_better=())
    scripted_judge(fake)
    for view in ((), ("--markdown",)):
        code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url, "--judge-model", hostile, *view)
        assert code == 0, err
        # markdown escapes the bracket too (issue 28, item 9): the comment shows evil\x1b[31mred
        shown = "evil\\x1b\\[31mred" if view else "evil\\x1b[31mred"
        assert "\x1b" not in out and "\x1b" not in err and shown in out
    out = cli("judge", cand, "--audit")[1]
    assert "\x1b" not in out and "evil\\x1b[31mred" in out


def test_the_audit_leaves_out_comparisons_of_another_version_of_the_run(project, cli, fake):
    """From the attack on issue 16: a run made again under the same name kept the old sidecar's flips."""
    base, cand = two_runs(IDS[:4], candidate_better=IDS[:4], baseline_better=())
    fake.route = lambda body: verdict("A") if body["messages"][0]["content"] == evalpy.PAIRWISE_PROMPT else None
    assert cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)[0] == 0
    assert "4/4 = 100% of pairs flipped" in cli("judge", cand, "--audit")[1]
    run = load_json(cand)
    run["results"][0]["response"] += " Otra versión."
    write_run(cand, run)
    code, out, err = cli("judge", cand, "--audit")
    assert code == 2 and "flipped" not in out
    assert "(those stored there are of another version of the run file)" in err


@pytest.mark.parametrize("comparison, said", [
    ({"judge": 3}, "whose judge has no criterion or models"),
    ({"judge": {"criterion": "c", "models": [1, 2]}}, "whose judge has no criterion or models"),
    ({"baseline": 7}, "whose baseline is not a path"), ({"baseline": ["a"]}, "whose baseline is not a path"),
    # (round 109's review) a seed or an api eval.py never writes: once taken for another comparison's, and pasted
    ({"judge": {"criterion": "c", "models": ["m"], "seed": "1 $(id)"}}, "whose judge's votes, seed, temperature or token"),
    ({"api": "ollama $(id)"}, "whose api is neither ollama nor openai"),
    # (round 108) a hash that is no text was taken as another comparison's, and the audit's short() crashed on it
    ({"baseline_sha": 5}, "whose baseline_sha is not text"), ({"candidate_sha": None}, "whose candidate_sha is not text"),
    # (round 108) a winner taken out was read as an unreadable verdict (null), not as the damage it is
    ({"verdicts": [{"id": "c01", "model": "m", "trial": 1, "vote": 1, "order": "baseline first"}]},
     "a verdict on c01 without its winner (A, B, tie or null)"),
    # (125th round's newcomer) one without its trial was said to lack five fields it had, and its case unnamed
    ({"verdicts": [{"id": "c01", "model": "m", "vote": 1, "order": "baseline first", "winner": "A"}]},
     "a verdict on c01 without its trial"),
    ({"verdicts": [{"trial": 1, "vote": 1, "order": "baseline first", "winner": "A"}]},
     "a verdict without its case id, judge model"),
    # (round 109) a verdict of a judge, vote or trial its comparison never asked was left out of the flip rate, unsaid
    *(({"verdicts": [{"id": "c01", "model": "m", "trial": 1, "vote": 1, "order": "baseline first", "winner": "A", **v}]},
       f"a verdict on c01 (trial {v.get('trial', 1)}, judge {v.get('model', 'm')}, vote {v.get('vote', 1)}) that its "
       "comparison never asked") for v in ({"model": "x:1b"}, {"trial": 0}, {"trial": 10 ** 30}, {"trial": 2}, {"vote": 0})),
    # (round 109's review) a verdict unconfirmed in a confirmed comparison: eval.py confirms them together
    ({"verdicts": [{"id": "c01", "model": "m", "trial": 1, "vote": 1, "order": "baseline first", "winner": "A",
                    "unconfirmed": True}]}, "a verdict on c01 unconfirmed in a comparison that is confirmed"),
    # (round 123) a verdict on a case the run does not hold: the audit counted its flip (1/28), compare left it out unsaid
    ({"verdicts": [{"id": "c99", "model": "m", "trial": 1, "vote": 1, "order": "baseline first", "winner": "A"}]},
     "a verdict on c99, a case the run it was made on does not hold")])
def test_an_audit_of_a_damaged_sidecar_is_an_error_not_a_crash(project, cli, comparison, said):
    """From the attack on issue 16: types the audit reads were not checked."""
    base, cand = two_runs(IDS[:2], candidate_better=IDS[:2], baseline_better=())
    stored = {"baseline": "x", "baseline_sha": "1", "candidate_sha": evalpy.sha256_bytes(Path(cand).read_bytes()),
              "date": "2026-12-07T09:00:00+00:00", "host": "http://127.0.0.1:11434",
              "judge": {"criterion": "c", "models": ["m"]}, "verdicts": [
                  {"id": "c01", "model": "m", "trial": 1, "vote": 1, "order": "baseline first", "winner": "A"}]}
    Path(cand + ".pairwise.json").write_text(json.dumps({"format": "eval.py-pairwise/1",
                                                         "comparisons": [dict(stored, **comparison)]}))
    for argv in (("judge", cand, "--audit"), ("compare", base, cand, "--pairwise", "c", "--judge-model", "m")):
        code, out, err = cli(*argv)
        assert code == 2 and "damaged pairwise file" in err and said in err and "Traceback" not in err, err


@pytest.mark.parametrize("argv", [["--jobs", "1"], ["--judge-votes", "1"], ["--timeout", "300"], ["--retries", "3"],
                                  ["--judge-temperature", "0"], ["--seed", "42"]])
def test_a_judge_option_typed_at_its_default_is_refused_too(project, cli, argv):
    """From the newcomer pass on issue 16: an option equal to its default slipped through."""
    base, cand = two_runs(IDS[:2], candidate_better=(), baseline_better=())
    code, out, err = cli("compare", base, cand, *argv)
    assert code == 2 and f"{argv[0]} only applies with --pairwise" in err


def test_an_interrupted_retry_keeps_the_stored_verdicts_of_pairs_it_did_not_reach(project, cli, fake):
    """A pair whose stored verdicts had one failed call waits to be asked again; stopping before
    it is reached must not drop the verdicts it already had."""
    import signal
    import subprocess
    import sys
    import time
    base, cand = two_runs(IDS, candidate_better=IDS, baseline_better=())
    scripted_judge(fake)
    assert cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)[0] == 0
    stored = load_json(cand + ".pairwise.json")
    for v in stored["comparisons"][0]["verdicts"]:
        if v["order"] == "candidate first":      # every pair: one order failed, one kept
            v.update(winner=None, raw=None, error="HTTP 500: boom")
    Path(cand + ".pairwise.json").write_text(json.dumps(stored))
    fake.latency = 0.3
    asked = len(fake.chat_bodies)
    proc = subprocess.Popen([sys.executable, str(Path(evalpy.__file__)), "compare", base, cand, "--pairwise", CRITERION,
                             "--host", fake.url], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 20
    while len(fake.chat_bodies) < asked + 3 and time.monotonic() < deadline:
        time.sleep(0.05)
    proc.send_signal(signal.SIGTERM)
    proc.communicate(timeout=20)
    verdicts = load_json(cand + ".pairwise.json")["comparisons"][0]["verdicts"]
    kept = [v for v in verdicts if v["order"] == "baseline first"]
    assert len(kept) == 12 and all(v["winner"] for v in kept)     # none of the good ones lost


def test_the_pairwise_markdown_quotes_the_criterion_and_ids_as_text(project, cli, fake):
    """Issue 28, item 9: the criterion (the user's words, or a sidecar's) and the ids of cases one
    run did not answer went into the pull-request comment as markdown."""
    ids = ["c`1 " + MARKUP, "c02", "c03"]
    base, cand = two_runs(ids, candidate_better=ids, baseline_better=())
    run = load_json(cand)
    run["results"][1].update(response=None, error="HTTP 500: boom")
    write_run(cand, run)
    fake.route = lambda body: verdict("A") if body["messages"][0]["content"] == evalpy.PAIRWISE_PROMPT else None
    code, md, err = cli("compare", base, cand, "--pairwise", "Which *helps* " + MARKUP, "--host", fake.url,
                        "--markdown")
    assert code == 0 and "**Pairwise**" in md and "Answered by only the baseline" in md, err
    assert all("[" not in line and "<" not in line and "*b*" not in line and "*helps*" not in line
               for line in markdown_acted_on(md)), md
    assert [line for line in md.splitlines() if line.lstrip().startswith("#")] == [md.splitlines()[0]]
    # (115th round's views) its cost, as the text says it: a pull request's comment said nothing of what it cost
    text = cli("compare", base, cand, "--pairwise", "Which *helps* " + MARKUP, "--host", fake.url)[1]
    cost = re.search(r"  (\d+ judge calls \(0 made now, 0 failed\), \d+ prompt \+ \d+ completion tokens);", text).group(1)
    assert f"Cost: {cost}." in cli("compare", base, cand, "--pairwise", "Which *helps* " + MARKUP, "--host", fake.url,
                                   "--markdown")[1]


def test_a_second_compare_of_a_candidate_being_asked_about_is_refused_and_pays_nothing(project, cli, fake):
    """Issue 28, item 6: the second of two compares to save replaced the whole comparison, so the first
    one's paid-for verdicts were lost (27 in the report); merged under the lock since, both still asked
    every call (twenty-first attack: a second compare started 3 s after the first stored the first's
    journal, then both asked the rest: 62 calls for 40). The candidate run is held while a compare asks
    about it: B asks a judge that fails and waits; A is refused at once, asking nothing; once B has
    stored its failed calls, A asks them again, and no failed call ever replaces an answer."""
    import subprocess
    import sys
    import threading
    import time
    from fake_ollama import FakeOllama
    base, cand = two_runs(IDS[:4], candidate_better=IDS[:4], baseline_better=())
    scripted_judge(fake)
    gate = threading.Event()
    failing = FakeOllama().start()
    try:
        failing.latency = lambda text: gate.wait(30) and 0   # B's first call waits here
        failing.faults = ["500"] * 100

        def compare(host):
            return subprocess.Popen([sys.executable, str(Path(evalpy.__file__)), "compare", base, cand, "--pairwise",
                                     CRITERION, "--host", host, "--retries", "0"],
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        b = compare(failing.url)
        deadline = time.monotonic() + 20
        while failing.in_flight == 0 and time.monotonic() < deadline:   # B has read the sidecar and asks
            time.sleep(0.02)
        assert failing.in_flight == 1
        a = compare(fake.url)
        a_out, a_err = a.communicate(timeout=30)
        # (121st round) the holder named by its pid, where the system says it (Linux's /proc/locks)
        holder = f" (pid {b.pid})" if os.path.exists("/proc/locks") else ""
        assert a.returncode == 2 and a_err.splitlines(keepends=True)[-1] == (f"error: another eval.py{holder} holds {cand} now (a compare --pairwise asking the "
                                               "judge about its pairs, or a run --resume completing it); wait for it, then "
                                               "compare again (the verdicts a compare of the same runs stores are reused)\n"), a_err
        assert fake.chat_bodies == []
        gate.set()
        b_out, b_err = b.communicate(timeout=30)
    finally:
        gate.set()
        failing.stop()
    assert b.returncode == 2 and "Traceback" not in b_err, b_err
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)
    assert code == 0 and "Candidate wins (4)" in out and len(fake.chat_bodies) == 8, err
    comparisons = load_json(cand + ".pairwise.json")["comparisons"]
    assert len(comparisons) == 1
    verdicts = comparisons[0]["verdicts"]
    assert len(verdicts) == 8 and all(v["error"] is None and v["winner"] for v in verdicts)


def test_a_compare_that_waits_for_the_verdicts_lock_says_whose_it_is_and_goes_on(project, fake):
    """Round 99: a compare whose verdicts file's lock another process held (a compare stopped by Ctrl-Z) waited
    for ever, its only line "waiting 10s for the pairwise judge", though the judge had answered. It names the
    lock and its holder once, and goes on, every verdict kept, when the holder lets go."""
    import subprocess
    import sys
    import time
    base, cand = two_runs(IDS[:2], candidate_better=IDS[:2], baseline_better=())
    scripted_judge(fake)
    holder = held_once_asked(fake, cand + ".pairwise.json.lock")
    proc = subprocess.Popen([sys.executable, str(Path(evalpy.__file__)), "compare", base, cand, "--pairwise",
                             CRITERION, "--host", fake.url], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 20
        while not fake.chat_bodies and time.monotonic() < deadline:   # its first verdict is in: it waits to journal it
            time.sleep(0.02)
        time.sleep(0.5)
        assert proc.poll() is None and len(fake.chat_bodies) == 1
    finally:
        holder.close()   # the holder lets go
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err
    assert err.count(f"waiting for {cand}.pairwise.json.lock: another eval.py (process 4242) holds it; this one goes on "
                     "when it lets go (one stopped with Ctrl-Z holds it until `fg` or its end)") == 1, err
    assert "Candidate wins (2)" in out and len(fake.chat_bodies) == 4
    assert len(load_json(cand + ".pairwise.json")["comparisons"][0]["verdicts"]) == 4


def test_a_lock_file_holding_no_pid_names_no_holder(tmp_path):
    """Round 100: the holder named in a lock's messages was the file's whole text (5 MB printed on one line; a line
    break split the message): a pid, or unknown."""
    for held, named in (("4242", "4242"), ("9" * 5_000_000, "?"), ("12\n34\r\x07", "?"), ("\x1b[2J", "?")):
        path = tmp_path / "x.lock"
        path.write_text(held)
        with open(path) as handle:
            assert evalpy.lock_holder(handle) == named
    path.write_bytes(b"\xff\xfe")   # (round 101: not UTF-8 was a UnicodeDecodeError, exit 1)
    with open(path) as handle:
        assert evalpy.lock_holder(handle) == "?"


def test_verdicts_another_compare_stored_meanwhile_are_merged_and_stand_in_for_failed_calls(capsys):
    """Issue 28, item 6, where the candidate cannot be held (no flock: Windows) or was replaced by a new
    file of its name meanwhile: the sidecar saved under its lock holds what another compare stored, and
    the figures are those it holds, a good verdict standing in for a call that failed here."""
    wanted = [("j", 1, order) for order in evalpy.ORDERS]
    pairs = [{"id": "c1", "trial": 1}]

    def vote(order, winner, error=None):
        return {"id": "c1", "trial": 1, "model": "j", "vote": 1, "order": order, "seed": 42, "winner": winner,
                "reason": None, "raw": None if error else "{}", "error": error, "prompt_tokens": None, "completion_tokens": None}
    mine = [vote(o, None, "HTTP 500") for o in evalpy.ORDERS]
    theirs = [vote(o, "B") for o in evalpy.ORDERS]
    votes, made = evalpy.merged_votes(theirs, mine, {}, pairs, wanted)
    assert votes == {("c1", 1): theirs} and made == 0
    assert capsys.readouterr().err == ("merged with 2 verdicts another compare stored meanwhile; they stand in for 2 calls "
                                       "that failed here\n")


def test_the_markdown_of_a_pairwise_compare_cuts_its_lists_of_ids():
    """Issue 28, twenty-first attack (minor, as compare --markdown's Fixed and Regressions): its doubtful and
    "answered by one run" lists named every id, past a pull request comment's 65,536 characters."""
    ids = [f"case-{n:05d}" for n in range(3000)]
    w = {"judge": {"models": ["j"], "votes": 1}, "criterion": "c", "candidate_wins": [], "baseline_wins": [], "ties": [],
         "flips": [], "flip_rate": None, "flip_verdicts": 0, "judge_verdicts": 0, "flip_rate_by_model": {}, "no_verdict": [],
         "reading": "r", "unchecked": None, "calls": 2, "asked_now": 2, "failed_calls": 0, "cut_calls": 0,
         "stopped_calls": 0, "prompt_tokens": 10, "completion_tokens": 4, "uncounted_calls": 0,
         "doubtful": [{"id": i, "certainty": 0.5} for i in ids], **{key: ids for key in evalpy.UNANSWERED_BY}}
    text = "\n".join(evalpy.pairwise_markdown(w))
    assert len(text) < 6000 and text.count("and 2980 more") == 1 + len(evalpy.UNANSWERED_BY), text


@pytest.mark.parametrize("limit, fails", [(0, ".pairwise.json.lock"), (16, ".pairwise.json.journal"),
                                          (1000, ".pairwise.json.journal")])
def test_a_full_disk_refuses_a_pairwise_compare_before_any_call(project, fake, limit, fails):
    """From the attack on issue 28, items 6 and 16: a save that could not write the lock said only
    "error: <lock>: File too large", and one that could not write the sidecar named its temp file. Round 133: the lock
    and the journal were first written with the first verdict, once --jobs calls were paid for (8 on a full disk), each
    lost; they are proved writable before the first call, as run's and judge's are, and nothing is left behind.
    Writes past `limit` bytes refused (EFBIG), as a full disk refuses them (0: not even the lock's pid; 16: the lock,
    not the journal's line; 1000: its line of 770 bytes, shorter than a verdict's, was written, and 4 calls paid for and
    lost: it is as long as a verdict's is likely to be)."""
    base, cand = two_runs(IDS[:8], candidate_better=IDS[:8], baseline_better=())
    scripted_judge(fake)
    done = run_with_file_size_limit(project, fake, limit, "compare", base, cand, "--pairwise", CRITERION, "--host",
                                    fake.url, "--jobs", "4")
    assert done.returncode == 2 and done.stderr.endswith(
        f"error: cannot write {cand}{fails} (File too large); nothing was asked yet. Raise the file-size limit (ulimit -f) "
        "or free some space, then compare again\n"), done.stderr
    assert fake.chat_bodies == [] and sorted(os.listdir("runs")) == ["base.json", "cand.json"]


def test_a_disk_that_fills_as_a_pairwise_compare_asks_stops_it_and_counts_the_verdicts_lost(project, fake):
    """Round 133's review, F1: a disk that held the check line and some verdicts, then no more, lost up to --jobs
    verdicts that came, paid for, and said "the verdicts before this one are kept" (or, none kept, "no verdict came
    before it stopped"); it stops asking at the first verdict it cannot journal, waits for the calls out, and counts
    the verdicts that came and were lost, and those stored."""
    base, cand = two_runs(IDS[:12], candidate_better=IDS[:12], baseline_better=())
    scripted_judge(fake)
    done = run_with_file_size_limit(project, fake, 12000, "compare", base, cand, "--pairwise", CRITERION, "--host",
                                    fake.url, "--jobs", "4")
    stored = len(load_json(cand + ".pairwise.json")["comparisons"][0]["verdicts"])
    lost = len(fake.chat_bodies) - stored
    assert done.returncode == 2 and 1 <= lost <= 4 and stored < 24, (stored, lost, done.stderr)
    assert done.stderr.endswith(
        f"error: cannot write {cand}.pairwise.json.journal (File too large): {lost} judge verdict{'s' * (lost > 1)} that "
        f"came could not be kept (paid for, and lost), and no call more was made; {stored} verdicts asked now are "
        f"stored in {cand}.pairwise.json. Raise the file-size limit (ulimit -f) or free some space, then compare again "
        "to ask only the rest\n"), done.stderr
    assert "no verdict came" not in done.stderr and "Traceback" not in done.stderr
    assert sorted(os.listdir("runs")) == ["base.json", "cand.json", "cand.json.pairwise.json"]


@pytest.mark.parametrize("leftover", [None, b"", b'{"comparison": {"baseline": "runs/base.json"}, "verdict": {"raw"'])
def test_a_pairwise_compare_with_nothing_to_ask_shows_its_verdicts_on_a_full_disk(project, cli, fake, leftover):
    """Round 133's check before the first call is made only where a call is to be made: a compare with every verdict
    stored and confirmed asks nothing and writes nothing, so a full disk still shows them. Its review, F2: a kill in that
    check left a journal of a torn line, or empty; `runs` listed it as "0 pairwise verdicts not yet stored", and the
    full disk refused the compare, "the judge verdicts asked are kept in" it: a journal holding no verdict line is none
    (`leftover`)."""
    base, cand = two_runs(IDS[:4], candidate_better=IDS[:4], baseline_better=())
    scripted_judge(fake)
    code, shown, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)
    asked, stored = len(fake.chat_bodies), (Path(cand + ".pairwise.json")).read_bytes()
    if leftover is not None:
        Path(cand + ".pairwise.json.journal").write_bytes(leftover)
        listed = cli("runs")[1]
        assert "not yet stored" not in listed and f"no pairwise verdict in it (what a compare --pairwise of {cand} " \
            "stopped before its first verdict left, or one starting now); the next compare --pairwise of it removes it" \
            in " ".join(listed.split()), listed
        assert not json.loads(cli("runs", "--json")[1])[-1]["unstored_pairwise"]
    done = run_with_file_size_limit(project, fake, 0, "compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)
    assert code == 0 and done.returncode == 0 and len(fake.chat_bodies) == asked == 8, done.stderr
    assert done.stdout == shown.replace("(8 made now", "(0 made now") and "(8 made now" in shown
    assert Path(cand + ".pairwise.json").read_bytes() == stored
    assert sorted(os.listdir("runs")) == ["base.json", "cand.json", "cand.json.pairwise.json"] + (
        [] if leftover is None else ["cand.json.pairwise.json.journal"])
    if leftover is not None:   # where the lock can be taken, the leftover is removed, the sidecar as it was
        assert cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)[0] == 0
        assert sorted(os.listdir("runs")) == ["base.json", "cand.json", "cand.json.pairwise.json"]
        assert Path(cand + ".pairwise.json").read_bytes() == stored


def test_a_call_that_fails_again_is_stored_as_its_latest_failure_and_nothing_is_merged(project, cli, fake):
    """From the attack on issue 28, item 6: a call that failed, asked again and failed again, kept the
    first failure (a stored verdict wins a tie) and was then named as "merged with 1 verdict another
    compare stored meanwhile", though no other compare ran."""
    base, cand = two_runs(IDS[:2], candidate_better=IDS[:2], baseline_better=())
    scripted_judge(fake)
    fake.faults = ["500"]
    assert cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url, "--retries", "0")[0] == 2
    fake.faults, fake.custom_error = ["custom"], "out of memory"
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url, "--retries", "0")
    assert code == 2 and "merged" not in err and "(1 made now, 1 failed)" in out, err
    errors = [v["error"] for v in load_json(cand + ".pairwise.json")["comparisons"][0]["verdicts"] if v["error"]]
    assert errors == ["HTTP 500: out of memory"]
    # every call failing (fourteenth attack, minor): "0 prompt + 0 completion tokens" of nothing counted, and
    # "some pairs have no verdict" where none has
    fake.faults = ["500"] * 8
    code, out, err = cli("compare", base, cand, "--pairwise", "Another question?", "--host", fake.url, "--retries", "0")
    assert code == 2 and "4 pairwise judge calls failed" in err and "so no pair has a verdict" in err, err
    assert "(4 made now, 4 failed), no token counted (no call was answered); verdicts in" in out, out


def test_pairwise_votes_have_the_judge_token_cap_and_an_uncapped_sidecar_is_continued(project, cli, fake):
    """Issue 31, item 4: a pairwise compare asks twice as many judge calls as a run; each is capped
    (num_predict), and a vote cut by the cap is named as such. Verdicts stored before the cap existed
    are reused as they were made unless --judge-max-tokens is given."""
    base, cand = two_runs(IDS[:4], candidate_better=IDS[:4], baseline_better=())
    scripted_judge(fake)
    route = fake.route
    fake.route = lambda body: ("Pienso. " * 600 + verdict("A")) if "[c04]" in body["messages"][-1]["content"] \
        and body["messages"][0]["content"] == evalpy.PAIRWISE_PROMPT else route(body)
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)
    assert code == 0, err
    assert {b["options"]["num_predict"] for b in fake.chat_bodies} == {1024}
    assert "  No verdict (1, not counted): c04 (the judge's answer was cut at its token limit (--judge-max-tokens))" in out
    sidecar = load_json(cand + ".pairwise.json")
    assert sidecar["comparisons"][0]["judge"]["num_predict"] == 1024
    # a sidecar of before the cap: the same comparison, its judge without num_predict
    for c in sidecar["comparisons"]:
        del c["judge"]["num_predict"]
        for v in c["verdicts"]:
            v.pop("done_reason")
            if "[c04]" in v["raw"] or v["raw"].startswith("Pienso"):
                v.update(winner=None, error="HTTP 500: runner died")   # a call to make again
    Path(cand + ".pairwise.json").write_text(json.dumps(sidecar), encoding="utf-8")
    fake.chat_bodies.clear()
    fake.route = route
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)
    assert code == 0, err
    assert len(fake.chat_bodies) == 2 and all("num_predict" not in b["options"] for b in fake.chat_bodies)
    assert "  Candidate wins (4): c01, c02, c03, c04" in out
    fake.chat_bodies.clear()
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url, "--judge-max-tokens", "512")
    assert code == 0, err
    assert len(fake.chat_bodies) == 8 and {b["options"]["num_predict"] for b in fake.chat_bodies} == {512}


def test_no_lock_file_is_left_after_a_pairwise_compare(project, cli, fake):
    """Issue 31, cosmetic: .lock files were left beside the runs after a normal completion."""
    base, cand = two_runs(IDS[:3], candidate_better=IDS[:3], baseline_better=())
    scripted_judge(fake)
    assert cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)[0] == 0
    assert sorted(p.name for p in (project / "runs").iterdir()) == ["base.json", "cand.json", "cand.json.pairwise.json"]


def test_a_pairwise_judge_of_agents_reads_neither_runs_transcript():
    """Both final answers are judged on the same footing: the baseline's calls are not the candidate's."""
    from conftest import agent_spec
    case = agent_spec("a1", [("cancel_order", {"order_id": "A-1"}, True)])
    text = evalpy.pairwise_messages("¿Cuál ayuda más?", case, "uno", "dos")[1]["content"]
    assert "cancel_order" not in text and "Answer A:\n```\nuno\n```" in text
    assert "cancel_order" in evalpy.judge_messages("c", case, "uno")[1]["content"]   # a judge of one answer reads its own


def test_a_case_id_with_a_line_break_is_one_line_in_the_pairwise_lists(project, cli, fake):
    """From the self-attack on the second attack on issue 28: pairwise's lists of ids (wins, ties,
    cases only one run answered) joined the ids raw, so an id's line break forged a line."""
    forged = "c09\nFORGED line\u2028FORGED2"
    ids = ["c01", forged, "c03", "c04\nFORGED again"]
    base, cand = two_runs(ids, candidate_better=ids, baseline_better=())
    run = load_json(base)
    next(r for r in run["results"] if r["id"] == ids[3]).update(response=None, error="HTTP 500: boom")
    write_run(base, run)
    scripted_judge(fake)
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)
    assert not [line for line in (out + err).replace("\u2028", "\n").splitlines() if line.lstrip().startswith("FORGED")], out
    assert "Candidate wins (3): c01, $'c09\\nFORGED line\\u2028FORGED2', c03" in out, out
    assert "Answered by only the candidate (not compared): $'c04\\nFORGED again" in out


def test_a_verdict_given_twice_or_with_fields_a_verdict_never_has_is_refused(project, cli, fake):
    """Eighth attack on issue 28, item 8: a second verdict for the same call appended to the sidecar
    (c01, "winner": "A") was counted in place of the first ("Baseline wins"), contrary to "the one
    stored first"; extra fields and a seed that is text were taken too. Each is a damaged file, named."""
    base, cand = two_runs(IDS[:4], candidate_better=IDS[:4], baseline_better=())
    scripted_judge(fake)
    assert cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)[0] == 0
    sidecar = Path(cand + ".pairwise.json")
    good = json.loads(sidecar.read_text())
    first = good["comparisons"][0]["verdicts"][0]
    assert first["id"] == "c01" and first["winner"] == "B" and first["order"] == "baseline first"
    for change, says in (
            (lambda vs: vs.append(dict(vs[0], winner="A")),
             "the verdict on c01 (trial 1, judge qwen2.5:7b, vote 1, baseline first) is given twice"),
            (lambda vs: vs[1].update(extra=1), "a verdict on c01 has a field a verdict never has: 'extra'"),
            (lambda vs: vs[2].update(seed=42.5), "a verdict on c02 has a seed that is not an integer (a whole number, written without a decimal point)"),
            (lambda vs: vs[3].update({"id\x1b[2J": 1}), "a verdict on c02 has a field a verdict never has: 'id\\x1b[2J'"),
            # fifteenth attack: a bad field was "a verdict without its case, model, vote, order and winner"
            (lambda vs: vs[1].update(prompt_tokens=-5), "a verdict on c01: prompt_tokens must be a whole number of 0 or more, or null"),
            # (twenty-seventh attack) an order or winner out of its values named neither case nor field
            (lambda vs: vs[1].update(winner="C"), 'a verdict on c01 whose winner is "C", not A, B, tie or null'),
            (lambda vs: vs[2].update(order="sideways"),
             'a verdict on c02 whose order is "sideways", not "baseline first" or "candidate first"'),
            # attack on the fix: the same call twice in two copies of one comparison
            ("copy", "a comparison of the same runs by the same judge stored twice")):
        damaged = json.loads(json.dumps(good))
        if change == "copy":
            damaged["comparisons"].append(dict(damaged["comparisons"][0], verdicts=[dict(first, winner="A")]))
        else:
            change(damaged["comparisons"][0]["verdicts"])
        sidecar.write_text(json.dumps(damaged))
        before = sidecar.read_bytes()
        code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)
        assert code == 2 and "Baseline wins" not in out, out
        assert f"{cand}.pairwise.json: damaged pairwise file ({says}); mend it (the verdicts in it are paid for), or move it aside" in err, err
        assert sidecar.read_bytes() == before


def test_verdicts_of_a_judge_pulled_again_are_kept_apart_never_mixed_with_new_ones(project, cli, fake):
    """Issue 28's leftover: the stored verdicts were found by the judge's name, so after `ollama pull`
    of the judge the calls still missing were asked of the new model and counted with the old one's.
    The judge's digest is recorded with its comparison; a judge pulled again is another comparison,
    asked whole, and the old one is kept as it is."""
    base, cand = two_runs(IDS[:4], candidate_better=IDS[:4], baseline_better=())
    scripted_judge(fake)
    fake.faults = ["500"] * 4        # one call fails: the next compare has a call to make
    assert cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)[0] == 2
    first = load_json(cand + ".pairwise.json")["comparisons"]
    old_digest = first[0]["judge"]["digests"][0]
    assert len(first) == 1 and len(old_digest) == 64
    fake.digests["qwen2.5:7b"] = "ab" * 32                                      # `ollama pull` again
    asked = len(fake.chat_bodies)
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)
    assert code == 0, err
    assert (f"note: the judge qwen2.5:7b was pulled again (digest {old_digest[:8]}, now {'ab' * 4}) since the verdicts "
            f"stored in {cand}.pairwise.json; they are kept as they are, and every pair is asked anew") in err, err
    assert len(fake.chat_bodies) - asked == 8 and "(8 made now, 0 failed)" in out
    stored = load_json(cand + ".pairwise.json")["comparisons"]
    assert stored[0] == first[0] and stored[1]["judge"]["digests"] == ["ab" * 32]
    # the judge as it is now has its verdicts: nothing more to ask, and nothing merged into the old
    asked = len(fake.chat_bodies)
    assert cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)[0] == 0
    assert len(fake.chat_bodies) == asked and load_json(cand + ".pairwise.json")["comparisons"] == stored
    # a comparison stored before digests were recorded is the same judge's: its failed call alone is asked
    older = dict(first[0], judge={k: v for k, v in first[0]["judge"].items() if k != "digests"})
    Path(cand + ".pairwise.json").write_text(json.dumps({"format": "eval.py-pairwise/1", "comparisons": [older]}))
    fake.digests.clear()
    asked = len(fake.chat_bodies)
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)
    assert code == 0 and len(fake.chat_bodies) == asked + 1 and "pulled again" not in err, err
    # (130th round) the judge kept as stored: a digest read now is never recorded as the whole comparison's, as judge
    # and run --resume keep theirs
    assert ["digests" in c["judge"] for c in load_json(cand + ".pairwise.json")["comparisons"]] == [False]
    # a damaged digest is named, never read as unknown
    damaged = dict(older, judge=dict(older["judge"], digests="junk"))
    Path(cand + ".pairwise.json").write_text(json.dumps({"format": "eval.py-pairwise/1", "comparisons": [damaged]}))
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)
    assert code == 2 and "damaged pairwise file (a comparison whose judge digests are not one text or null per judge model)" in err


@pytest.mark.parametrize("api", ["ollama", "openai"])
def test_a_panel_named_in_another_order_says_which_of_its_judges_was_pulled_again(project, cli, fake, api):
    """131st round: over --api openai, a panel named in another order (--judge-model llama3.1:8b --judge-model
    qwen2.5:7b of verdicts stored by qwen2.5:7b, llama3.1:8b) had its stored digests read by place: qwen2.5:7b pulled
    again was said "the judge llama3.1:8b was pulled again (digest <qwen's old>, now <llama's own>)", and verdicts
    left unconfirmed were kept apart as replaced by that wrong model and digests. Each digest is its own model's."""
    fake.models.append("llama3.1:8b")
    base, cand = two_runs(IDS[:2], candidate_better=IDS[:2], baseline_better=())
    scripted_judge(fake)
    judged, host = fake.route, fake.url + ("/v1" if api == "openai" else "")

    def compare(*models, criterion=CRITERION):
        return cli("compare", base, cand, "--pairwise", criterion, "--api", api, "--host", host,
                   *(w for m in models for w in ("--judge-model", m)))
    assert compare("qwen2.5:7b", "llama3.1:8b")[0] == 0
    asked = len(fake.chat_bodies)
    assert compare("llama3.1:8b", "qwen2.5:7b")[0] == 0 and len(fake.chat_bodies) == asked   # (the same panel)
    llama = fake.digest("llama3.1:8b")
    fake.digests["llama3.1:8b"] = "c3" * 32
    code, out, err = compare("llama3.1:8b", "qwen2.5:7b")
    assert code == 0 and (f"note: the judge llama3.1:8b was pulled again (digest {llama[:8]}, now c3c3c3c3) since the "
                          f"verdicts stored in {cand}.pairwise.json; they are kept as they are") in err, err
    # (a compare that stopped before its last check: its verdicts kept apart, the judge pulled again named as it is)
    answered = itertools.count(1)   # /api/tags answers no list from the eighth answer on: the last check never runs
    fake.route = lambda body: (fake.listings.update({"/api/tags": {"models": 5}}) if next(answered) == 8 else None) or judged(body)
    assert "stay unconfirmed" in compare("qwen2.5:7b", "llama3.1:8b", criterion="Which is kinder?")[2]
    fake.listings.clear()
    fake.route = judged
    qwen = fake.digest("qwen2.5:7b")
    fake.digests["qwen2.5:7b"] = "d4" * 32
    code, out, err = compare("llama3.1:8b", "qwen2.5:7b", criterion="Which is kinder?")
    assert code == 0 and (f"note: the judge qwen2.5:7b was pulled again (digest {qwen[:8]}, now d4d4d4d4) since the "
                          f"verdicts stored in {cand}.pairwise.json were asked, by a compare that never confirmed") in err, err
    kept = [c for c in load_json(cand + ".pairwise.json")["comparisons"] if c.get("replaced")]
    assert [r for c in kept for r in c["replaced"]] == [
        {"who": "the judge", "model": "qwen2.5:7b", "was": qwen, "now": "d4" * 32, "seen": "later"}], kept


def stopped_compare(base, cand, fake, stop, calls, criterion=CRITERION):
    """compare --pairwise of one judge with 2 votes (4 calls a pair, one call at a time) stopped by
    `stop` once the judge has received `calls` calls more: the last of them still unanswered, so the
    pair it belongs to is half asked. Returns (exit code, stderr)."""
    import signal
    import subprocess
    import sys
    import time
    import threading
    # the call out as the stop comes is held until the process is gone: answered while a slow machine stored the rest,
    # it was journaled after the store removed the journal (as it should: said, and stored by the next compare)
    calls, out = len(fake.chat_bodies) + calls, threading.Event()
    fake.latency = lambda text: 0.1 if len(fake.chat_bodies) < calls else out.wait(30) and 0
    proc = subprocess.Popen([sys.executable, str(Path(evalpy.__file__)), "compare", base, cand, "--pairwise", criterion,
                             "--judge-votes", "2", "--jobs", "1", "--host", fake.url],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60   # (a loaded machine: stopped at 20 s before its call came, it said "interrupted" alone)
    while len(fake.chat_bodies) < calls and time.monotonic() < deadline:
        time.sleep(0.02)
    if len(fake.chat_bodies) < calls:
        proc.kill(); out.set(); fake.latency = 0
        raise AssertionError(f"the compare never made its {calls}th call: {proc.communicate()[1]}")
    proc.send_signal(getattr(signal, stop))
    try:
        _, err = proc.communicate(timeout=20)
    finally:
        fake.latency = 0
        out.set()
    return proc.returncode, err


def test_a_stopped_reask_of_a_confirmed_comparison_keeps_apart_only_what_it_asked(project, cli, fake):
    """Round 109's review: a confirmed comparison with failed calls, whose re-ask was SIGKILLed, was made unconfirmed
    whole by the journal's verdicts; the judge re-pulled, the whole comparison was kept apart, said "replaced while it
    was asked", and once the judge was back every confirmed verdict was asked again. Only the verdicts asked since
    are kept apart; the confirmed stay the judge's as it was, reused when it is back."""
    base, cand = two_runs(IDS[:4], candidate_better=IDS[:4], baseline_better=())
    scripted_judge(fake)
    fake.faults = [None] * 10 + ["500"] * 6   # the last six calls fail: the comparison is stored, confirmed, with them
    assert cli("compare", base, cand, "--pairwise", CRITERION, "--judge-votes", "2", "--host", fake.url, "--retries",
               "0")[0] == 2
    old = fake.digest("qwen2.5:7b")
    stopped_compare(base, cand, fake, "SIGKILL", 3)   # the re-ask of the six: two answered, journaled
    journaled = len(Path(cand + ".pairwise.json.journal").read_bytes().splitlines())
    assert journaled == 2
    fake.digests["qwen2.5:7b"] = "e5" * 32
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--judge-votes", "2", "--host", fake.url)
    assert code == 0 and ("; 2 of them, asked by a compare that never confirmed its digest after its last call, may be "
                          "two models': kept apart and never reused, the others kept as they are, and every pair is "
                          "asked anew") in err, err
    comparisons = load_json(cand + ".pairwise.json")["comparisons"]
    assert [(len(c["verdicts"]), bool(c.get("replaced")), c["judge"]["digests"]) for c in comparisons] == [
        (14, False, [old]), (2, True, [old]), (16, False, ["e5" * 32])], comparisons
    assert not any("unconfirmed" in c or any("unconfirmed" in v for v in c["verdicts"]) for c in comparisons)
    fake.digests["qwen2.5:7b"] = old   # back: its 10 confirmed verdicts stand; the 4 failed and the 2 apart are asked
    asked = len(fake.chat_bodies)
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--judge-votes", "2", "--host", fake.url)
    assert code == 0 and len(fake.chat_bodies) - asked == 6, err


@pytest.mark.parametrize("stop", ["SIGINT", "SIGHUP", "SIGKILL"])   # (SIGTERM is handled as SIGHUP is)
def test_a_stop_at_any_moment_keeps_every_verdict_the_judge_answered(project, cli, fake, stop):
    """Issue 28, thirteenth attack, item 1: verdicts were stored only when compare ended, and only for
    pairs whose every call had come: Ctrl-C or SIGTERM dropped the calls of the pair in progress (7
    paid, 0 stored), SIGKILL or SIGHUP (a closed terminal) stored nothing. Each verdict is journaled
    as it comes (RUN.pairwise.json.journal); the next compare stores them and asks only the rest."""
    base, cand = two_runs(IDS[:4], candidate_better=IDS[:4], baseline_better=())
    scripted_judge(fake)
    code, err = stopped_compare(base, cand, fake, stop, 7)
    received = len(fake.chat_bodies)
    sidecar, journal = Path(cand + ".pairwise.json"), Path(cand + ".pairwise.json.journal")
    if stop == "SIGKILL":   # nothing ran after it: the 6 verdicts that came are in the journal, one a line
        assert not sidecar.exists() and len(journal.read_bytes().splitlines()) == 6
        kept = 6
        # (116th round) saved again by an editor with a byte-order mark: "damaged pairwise journal line", the advice
        # to remove it a verdict paid for lost; read past it
        journal.write_bytes(b"\xef\xbb\xbf" + journal.read_bytes())
        # and with a carriage return alone ending each line: its verdicts were passed over, asked again, the journal
        # removed; refused as such now, kept
        lf = journal.read_bytes()
        journal.write_bytes(lf.replace(b"\n", b"\r"))
        code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)
        assert code == 2 and "a line ends in a carriage return alone" in err and journal.exists(), err
        assert len(fake.chat_bodies) == received, err
        journal.write_bytes(lf)
        code, out, err = cli("runs")
        assert code == 0 and f"{journal}" in out, out
        assert f"6 pairwise verdicts not yet stored in {cand}.pairwise.json" in out, out
        # the sidecar's name given to run --resume: its journal was read as a run's ("move the journal aside")
        code, out, err = cli("run", "--resume", cand + ".pairwise.json")
        assert code == 2 and f"{journal} holds compare --pairwise's verdicts not yet stored in {sidecar}, not a run" in err, err
    else:   # stored as the compare stops, the half-asked pair's calls too
        assert code == 2 and "interrupted" in err and "Traceback" not in err, err
        assert not journal.exists()
        verdicts = load_json(sidecar)["comparisons"][0]["verdicts"]
        kept = len(verdicts)
        assert kept >= max(6, received - 1) and all(v["winner"] for v in verdicts), (kept, received)
        assert load_json(sidecar)["comparisons"][0]["unconfirmed"] is True   # (its judge's digest never asked again)
        for none in ("runs/none.json.pairwise.json", "runs/none.json.pairwise.json.journal"):   # (sixteenth attack)
            code, out, err = cli("run", "--resume", none)
            assert code == 2 and err == f"error: {none}: no such file (a name of compare --pairwise's, not a run's)\n", err
        # without a journal beside it, what the sidecar is (fifteenth attack: a journal that was not there was named)
        code, out, err = cli("run", "--resume", cand + ".pairwise.json")
        assert code == 2 and err == (f"error: {sidecar} holds compare --pairwise's verdicts on {cand}, not a run: there "
                                     "is nothing to resume\n"), err
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--judge-votes", "2", "--host", fake.url)
    assert code == 0 and "Candidate wins (4)" in out, err
    assert len(fake.chat_bodies) - received == 16 - kept           # only what was missing
    assert not journal.exists() and len(load_json(sidecar)["comparisons"][0]["verdicts"]) == 16
    assert "unconfirmed" not in load_json(sidecar)["comparisons"][0]   # asked, and checked at the end


@pytest.mark.parametrize("where", ["store_comparisons", "models_replaced", "settle_comparison", "stored, journal gone"])
def test_a_stop_as_the_verdicts_are_stored_names_where_they_are_and_the_command(project, cli, fake, monkeypatch, where):
    """120th round's kill-and-resume: a compare --pairwise stopped (Ctrl-C, SIGTERM) as it stored its verdicts said
    "interrupted" alone, every verdict paid for in the journal, unnamed; or after storing them, as it asked which digest
    its judge was. It says where they are and the command that stores them, asking nothing."""
    base, cand = two_runs(IDS[:4], candidate_better=IDS[:4], baseline_better=())
    scripted_judge(fake)
    gone = where == "stored, journal gone"   # (its review: stopped just after the store removed the journal)
    where = "store_comparisons" if gone else where
    real = getattr(evalpy, where)

    def stopped(*args, **kwargs):
        if gone:
            real(*args, **kwargs)
        raise KeyboardInterrupt
    monkeypatch.setattr(evalpy, where, stopped)
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)
    sidecar, journal = cand + ".pairwise.json", cand + ".pairwise.json.journal"
    command = (f"python eval.py compare --pairwise '{CRITERION}' --judge-model qwen2.5:7b --judge-votes 1 --judge-temperature "
               f"0 --seed 42 --judge-max-tokens 1024 --host {fake.url} -- {base} {cand}")
    assert code == 2 and err.splitlines()[-1] == (
        f"error: interrupted while storing the verdicts in {sidecar}: they are stored in it; the same compare reads "
        f"them, asking only for what is missing: {command}" if gone else
        f"error: interrupted while storing the verdicts in {sidecar}: every verdict that came is kept in {journal}; "
        f"the same compare stores them, asking only for what is missing: {command}"
        if where == "store_comparisons" else
        f"error: interrupted after storing the verdicts in {sidecar} (the judge's digest not yet checked again, which the "
        f"next compare does); compare again to read them, asking only for what is missing: {command}"), err
    monkeypatch.setattr(evalpy, where, real)
    asked = len(fake.chat_bodies)
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)   # (pasted, as it says)
    assert code == 0 and len(fake.chat_bodies) == asked and "Candidate wins (4)" in out, err
    assert not os.path.exists(journal) and len(load_json(sidecar)["comparisons"][0]["verdicts"]) == 8


def test_a_second_stop_before_any_answer_says_none_came_of_its_own(project, cli, fake):
    """Its review: a compare --pairwise stopped, then stopped again before any answer came, said "stored the verdicts"
    (the first's, stored unconfirmed, were counted as the second's)."""
    base, cand = two_runs(IDS[:4], candidate_better=IDS[:4], baseline_better=())
    scripted_judge(fake)
    code, err = stopped_compare(base, cand, fake, "SIGINT", 5)
    assert code == 2 and "stored the verdicts in" in err, err
    code, err = stopped_compare(base, cand, fake, "SIGINT", 1)   # (the first call still out as it stops)
    said = next(line for line in err.splitlines() if line.startswith(("stored the", "no verdict")))
    assert said.startswith("no verdict came before it stopped"), err


def test_ctrl_c_on_a_terminal_ends_the_progress_line_before_saying_what_was_stored(project, cli, fake, monkeypatch):
    """135th round's newcomer: Ctrl-C during compare --pairwise on a terminal printed "stored the verdicts in ..." on
    the progress line ("... ETA 9sstored the verdicts in ..."); run and judge end that line first. The stop comes
    after the third verdict is journaled; stderr claims to be a terminal, so the line is redrawn in place."""
    import signal
    base, cand = two_runs(IDS[:4], candidate_better=IDS[:4], baseline_better=())
    scripted_judge(fake)
    journaled, verdicts = evalpy.journal_verdict, []

    def stopped_after_the_third(*args):
        journaled(*args)
        verdicts.append(args)
        if len(verdicts) == 3:
            os.kill(os.getpid(), signal.SIGINT)
    monkeypatch.setattr(evalpy, "journal_verdict", stopped_after_the_third)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--jobs", "1", "--host", fake.url)
    assert code == 2 and "\r\x1b[K[" in err, err   # (drawn as on a terminal)
    assert any(line.startswith("stored the verdicts in") for line in err.split("\n")), err


def test_a_disk_full_for_the_store_too_says_the_verdict_lost_on_its_own_line(project, cli, fake, monkeypatch):
    """135th round's review, F1: a disk that filled as compare --pairwise asked (a verdict that came could not be
    journaled) and refused the store after it said "the judge verdicts asked are kept in ...journal": the verdict lost,
    paid for, went unsaid, and on a terminal the error was printed on the progress line. The fourth verdict's line, and
    every write of the sidecar, meet a full disk; stderr claims to be a terminal."""
    base, cand = two_runs(IDS[:4], candidate_better=IDS[:4], baseline_better=())
    scripted_judge(fake)
    appended, lines = evalpy.append_verdict_line, []

    def full_at_the_fourth(sidecar, line, keep=True):
        lines.append(keep)
        if lines.count(True) == 4:
            raise OSError(errno.ENOSPC, "No space left on device", sidecar + evalpy.JOURNAL_SUFFIX)
        appended(sidecar, line, keep)

    def full(path, text):
        raise OSError(errno.ENOSPC, "No space left on device", path)
    monkeypatch.setattr(evalpy, "append_verdict_line", full_at_the_fourth)
    monkeypatch.setattr(evalpy, "write_sidecar", full)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--jobs", "1", "--host", fake.url)
    journal = cand + ".pairwise.json.journal"
    assert code == 2 and len(fake.chat_bodies) == 4 and err.split("\nerror: ")[0].split("\n")[-1].startswith("\r\x1b[K["), err
    assert f"\nerror: cannot write {journal} (No space left on device): 1 judge verdict that came could not be kept " \
        f"(paid for, and lost), and no call more was made; the verdicts asked now before it are kept in {journal}, " \
        "and the next compare --pairwise stores them. Free some space, then compare again to ask only the rest" in err, err
    assert len(Path(journal).read_text().splitlines()) == 3 and not os.path.exists(cand + ".pairwise.json")


def test_a_stopped_pairwise_compare_asked_with_a_key_says_to_give_it_again(project, cli, fake, monkeypatch):
    """120th round's review: a compare --pairwise given --api-key, stopped as it stored its verdicts, printed a command
    without the key, which the server refused (401) when pasted."""
    key = "sk-test-0123456789abcdefghij"
    fake.api_key = key
    for out, temperature in (("runs/a.json", "0"), ("runs/b.json", "0.5")):
        assert cli("run", "--split", "dev", "--limit", 4, "--api", "openai", "--host", fake.url, "--api-key", key,
                   "--temperature", temperature, "--out", out)[0] in (0, 1)
    real = evalpy.store_comparisons
    monkeypatch.setattr(evalpy, "store_comparisons", lambda *a, **k: (_ for _ in ()).throw(KeyboardInterrupt))
    for api in (["--api", "openai"], []):   # (its review: --api left to the runs' own, the key was left out)
        code, out, err = cli("compare", "runs/a.json", "runs/b.json", "--pairwise", CRITERION, *api, "--host",
                             fake.url, "--api-key", key)
        assert "missing: " in err.splitlines()[-1], err
        command = err.splitlines()[-1].split("missing: ")[1]
        assert code == 2 and " --api-key YOUR_KEY -- runs/a.json runs/b.json" in command and key not in err, err
    monkeypatch.setattr(evalpy, "store_comparisons", real)
    argv = shlex.split(command.replace("YOUR_KEY", key))[2:]
    code, out, err = cli(*argv)
    assert code == 0 and "Pairwise" in out, err


def line_edited(line, judge=(), verdict=()):
    """A pairwise journal line (bytes) with its comparison's judge, and its verdict, given these values."""
    entry = json.loads(line)
    entry["comparison"]["judge"].update(judge)
    entry["verdict"].update(verdict)
    return json.dumps(entry).encode() + b"\n"


def verdict_flipped_in_a_killed_compare(fake):
    """compare --pairwise of two runs of four cases (2 votes), SIGKILLed after 7 verdicts, its journal's first verdict
    then given the other winner (its checksum left as it was): (the compare's argv, the journal, its lines as written,
    the line flipped)."""
    base, cand = two_runs(IDS[:4], candidate_better=IDS[:4], baseline_better=())
    scripted_judge(fake)
    stopped_compare(base, cand, fake, "SIGKILL", 7)
    journal = Path(cand + ".pairwise.json.journal")
    lines = journal.read_bytes().splitlines(keepends=True)
    other = re.sub(rb'"winner": "(A|B)"', lambda m: b'"winner": "' + {b"A": b"B", b"B": b"A"}[m[1]] + b'"', lines[1])
    assert other != lines[1]
    journal.write_bytes(lines[0] + other + b"".join(lines[2:]))
    return ("compare", base, cand, "--pairwise", CRITERION, "--judge-votes", "2", "--host", fake.url), journal, lines, other


@pytest.mark.parametrize("older_from", [0, 2], ids=["begun-by-an-older-eval-py", "gone-on-with-by-an-older-eval-py"])
def test_a_pairwise_verdict_changed_after_it_was_written_is_refused_by_its_checksum(project, cli, fake, older_from):
    """139th round: a journaled verdict still JSON after an edit or a bit flip (its winner made the other run) was stored
    as the judge's. Each line carries a CRC-32 of its own bytes: one that does not match is named and nothing is stored.
    A line without any is an older eval.py's, stored as it was, also after lines with one (they were refused as changed,
    the verdicts paid for lost)."""
    compare, journal, lines, other = verdict_flipped_in_a_killed_compare(fake)
    unmarked = unchecksummed_lines(b"".join(lines)).splitlines(keepends=True)
    assert unmarked[1] != lines[1]
    code, out, err = cli(*compare)
    assert code == 2 and f"{journal}:2: damaged pairwise journal line: {evalpy.CHECKSUM_MISMATCH}" in err, err
    assert "Traceback" not in err and journal.read_bytes() == lines[0] + other + b"".join(lines[2:])
    assert not Path(compare[2] + ".pairwise.json").exists()
    journal.write_bytes(b"".join([*lines[:older_from], *unmarked[older_from:]]))
    asked = len(fake.chat_bodies)
    code, out, err = cli(*compare)
    assert code == 0 and len(fake.chat_bodies) - asked == 16 - len(unmarked), err
    assert not journal.exists()


@pytest.mark.parametrize("cure", ["mend", "remove"])
def test_a_damaged_pairwise_journal_line_cured_as_its_message_says_stores_the_verdicts(project, cli, fake, cure):
    """140th round: a pairwise journal line its checksum refused was told "mend or remove that line": a line mended by
    hand (its winner put back) kept a "crc32" of other bytes, and was refused again. The cure says to take the "crc32"
    off as it is mended; either cure, done word for word, stores the verdicts (a line removed: its verdict asked
    again)."""
    compare, journal, lines, other = verdict_flipped_in_a_killed_compare(fake)
    code, out, err = cli(*compare)
    assert code == 2 and err.endswith(f"{journal}:2: damaged pairwise journal line: {evalpy.CHECKSUM_MISMATCH}; mend or "
                                      'remove that line (mend it as it was, taking its "crc32" field off the line as you '
                                      "do (a line without one is read as an older eval.py's); removed, its verdict is "
                                      "asked again), then compare again to store the verdicts (nothing was stored)\n"), err
    mended = [unchecksummed_lines(lines[1])] if cure == "mend" else []   # (its winner put back as it was, by hand)
    journal.write_bytes(b"".join([lines[0], *mended, *lines[2:]]))
    asked = len(fake.chat_bodies)
    code, out, err = cli(*compare)
    assert code == 0 and len(fake.chat_bodies) - asked == 16 - len(lines) + (cure == "remove"), err
    assert not journal.exists() and Path(compare[2] + ".pairwise.json").exists()


def test_a_damaged_journal_line_is_named_and_nothing_is_lost(project, cli, fake):
    """Thirteenth attack, item 1: a line of the journal edited (or a file of another tool) is named
    file:line, and neither the sidecar nor the journal is touched; a line torn by a kill (the last,
    without its line break) is left out, as a judging's."""
    base, cand = two_runs(IDS[:4], candidate_better=IDS[:4], baseline_better=())
    scripted_judge(fake)
    assert cli("compare", base, cand, "--pairwise", "Which is shorter?", "--host", fake.url)[0] == 0
    stored = Path(cand + ".pairwise.json").read_bytes()
    stopped_compare(base, cand, fake, "SIGKILL", 7)
    journal = Path(cand + ".pairwise.json.journal")
    lines = journal.read_bytes().splitlines(keepends=True)
    for line, says in [(b'{"comparison": {}, "verdict": {}}\n', "a comparison without its runs' hashes"),
                       (lines[1][:-1] + b" 7\n", "Extra data"),
                       (lines[1].replace(b'"winner": "', b'"winner": "B", "winner": "'), "key 'winner' is given twice"),
                       (lines[1].replace(b'"reason": "', b'"reason": "\xff'), "damaged pairwise journal line: not UTF-8"),
                       # (134th round) a prompt_sha of 0 was stored as a comparison of its own, its verdict never reused
                       (line_edited(lines[1], {"prompt_sha": 0}), "judge's prompt_sha is not a sha256 (64 hex digits)"),
                       (line_edited(lines[1], {"num_ctx": "4096"}), "judge's num_ctx is not a whole number, 1 or more"),
                       (line_edited(lines[1], {"schema": 1}), "judge's schema is not true"),
                       (line_edited(lines[1], {"runner": {"num_gpu": "x"}}), "judge's runner is not an object of Ollama's"),
                       (line_edited(lines[1], verdict={"copied": "yes"}), "whose copied is not true")]:
        journal.write_bytes(lines[0] + line + b"".join(lines[2:]))
        for argv in (("compare", base, cand, "--pairwise", CRITERION, "--judge-votes", "2", "--host", fake.url),
                     ("runs", "--json")):
            code, out, err = cli(*argv)
            shown = out if argv[0] == "runs" else err
            assert f"{journal}:2: damaged pairwise journal line" in shown and says in shown, shown
            assert code == (0 if argv[0] == "runs" else 2) and "Traceback" not in err
        assert Path(cand + ".pairwise.json").read_bytes() == stored
        assert journal.read_bytes() == lines[0] + line + b"".join(lines[2:])
    # (round 123) a second verdict for a call that has one, another winner: the lines' order chose, the other dropped
    other = re.sub(rb'"winner": "(A|B|tie)"', lambda m: b'"winner": "' + {b"A": b"B", b"B": b"A", b"tie": b"A"}[m[1]] + b'"',
                   lines[1])
    assert other != lines[1]
    journal.write_bytes(lines[0] + lines[1] + other + b"".join(lines[2:]))
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--judge-votes", "2", "--host", fake.url)
    assert code == 2 and f"{journal}:3: damaged pairwise journal line: a second verdict for the call line 2 holds the " \
        "verdict of (case" in err, err
    assert Path(cand + ".pairwise.json").read_bytes() == stored
    journal.write_bytes(b"".join(lines) + lines[1][:40])   # torn by a kill as it wrote
    received = len(fake.chat_bodies)
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--judge-votes", "2", "--host", fake.url)
    assert code == 0 and "Candidate wins (4)" in out and len(fake.chat_bodies) - received == 10, err
    assert not journal.exists() and len(load_json(cand + ".pairwise.json")["comparisons"]) == 2


def test_runs_offers_no_compare_for_a_journal_whose_candidate_cannot_be_read(project, cli, fake):
    """136th round: `runs` listed a pairwise journal whose candidate run was missing, damaged, a folder or a FIFO as
    verdicts "the next compare --pairwise of runs/cand.json stores them; go on with: ...", which that compare refuses
    ("no such run file"): its row says the candidate cannot be read, and offers no compare."""
    base, cand = two_runs(IDS[:4], candidate_better=IDS[:4], baseline_better=())
    scripted_judge(fake)
    stopped_compare(base, cand, fake, "SIGKILL", 7)
    whole = Path(cand).read_bytes()
    for make, said in ((lambda: None, "no such run file"), (lambda: Path(cand).write_bytes(whole[:200]), ""),
                       (lambda: os.mkdir(cand), ""), (lambda: os.mkfifo(cand), "")):
        if os.path.lexists(cand):
            os.rmdir(cand) if os.path.isdir(cand) else os.unlink(cand)
        make()
        code, out, err = cli("runs", os.path.dirname(cand) or ".")
        row = next(line for line in out.splitlines() if ".pairwise.json.journal" in line)
        assert code == 0 and f"its candidate run {cand} cannot be read ({said}" in row, out
        assert "go on with" not in row and "stores them" not in row, out


def test_runs_loads_a_candidate_with_a_journal_beside_it_once(project, cli, fake, monkeypatch):
    """136th round: `runs` loaded a candidate run twice where a pairwise journal was beside it, once for its own row and
    again to hold the journal's lines to its cases (a 15 MB run: 2 loads, 46 MB more at the peak): the row's load is
    reused."""
    base, cand = two_runs(IDS[:4], candidate_better=IDS[:4], baseline_better=())
    scripted_judge(fake)
    stopped_compare(base, cand, fake, "SIGKILL", 7)
    loaded, load_run = [], evalpy.load_run
    monkeypatch.setattr(evalpy, "load_run", lambda path, *args, **kwargs: loaded.append(path) or load_run(path, *args, **kwargs))
    code, out, err = cli("runs", os.path.dirname(cand) or ".")
    assert code == 0 and "6 pairwise verdicts not yet stored" in out and "go on with" in out, out
    assert loaded.count(cand) == 1, loaded


def test_a_journal_line_on_a_case_the_candidate_lacks_is_named_and_nothing_is_stored(project, cli, fake):
    """135th round: a journal line whose case id a bit flip changed (one the candidate run lacks) was stored into the
    sidecar and the journal removed; the same compare then refused the whole sidecar, naming no line, its cure ("move it
    aside") throwing away every verdict paid for. The line is named, as any damaged one, and nothing is stored."""
    base, cand = two_runs(IDS[:4], candidate_better=IDS[:4], baseline_better=())
    scripted_judge(fake)
    stopped_compare(base, cand, fake, "SIGKILL", 7)
    journal, sidecar = Path(cand + ".pairwise.json.journal"), Path(cand + ".pairwise.json")
    lines = journal.read_bytes().splitlines(keepends=True)
    flipped = lines[0] + line_edited(lines[1], verdict={"id": IDS[5]}) + b"".join(lines[2:])
    journal.write_bytes(flipped)
    command = ("compare", base, cand, "--pairwise", CRITERION, "--judge-votes", "2", "--host", fake.url)
    code, out, err = cli(*command)
    assert code == 2 and f"{journal}:2: damaged pairwise journal line: a verdict on {IDS[5]}, a case the run it was " \
        "made on does not hold; mend or remove that line" in err and "Traceback" not in err, err
    assert not sidecar.exists() and journal.read_bytes() == flipped
    # (round 136) and `runs` listed it as verdicts "not yet stored ...; the next compare --pairwise of it stores them",
    # which that compare refuses: it names the line, as compare does
    code, out, err = cli("runs", os.path.dirname(cand) or ".")
    assert code == 0 and f"damaged pairwise journal line: a verdict on {IDS[5]}, a case the run it was made on" in out, out
    assert "not yet stored" not in out, out
    journal.write_bytes(b"".join(lines))   # mended as it says: every verdict kept is stored, none asked again
    received = len(fake.chat_bodies)
    code, out, err = cli(*command)
    assert code == 0 and "Candidate wins (4)" in out and len(fake.chat_bodies) - received == 16 - len(lines), err
    assert not journal.exists() and len(load_json(sidecar)["comparisons"][0]["verdicts"]) == 16


def test_a_journal_of_another_comparison_is_stored_as_its_own_never_mixed_in(project, cli, fake):
    """Thirteenth attack, item 1: the journal a killed compare of another criterion left is stored as
    that comparison (what its compare would have stored), and none of its verdicts stands for this one's."""
    base, cand = two_runs(IDS[:4], candidate_better=IDS[:4], baseline_better=())
    scripted_judge(fake)
    stopped_compare(base, cand, fake, "SIGKILL", 7, criterion="Which is shorter?")
    received = len(fake.chat_bodies)
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--judge-votes", "2", "--host", fake.url)
    assert code == 0 and "Candidate wins (4)" in out and "16 judge calls (16 made now, 0 failed)" in out, err
    assert len(fake.chat_bodies) - received == 16
    comparisons = {c["judge"]["criterion"]: c for c in load_json(cand + ".pairwise.json")["comparisons"]}
    assert len(comparisons["Which is shorter?"]["verdicts"]) == 6 and len(comparisons[CRITERION]["verdicts"]) == 16
    assert not os.path.exists(cand + ".pairwise.json.journal")


def others_unreadable_journal(fake, monkeypatch):
    """Two runs, the candidate's compare --pairwise stopped, its journal another user's (uid 4321) of mode 600 in a
    sticky folder, this process seen as user 1000 (reading it fails as the system fails it, root reading every file):
    (baseline, candidate, journal)."""
    base, cand = two_runs(IDS[:4], candidate_better=IDS[:4], baseline_better=())
    scripted_judge(fake)
    stopped_compare(base, cand, fake, "SIGKILL", 7)
    journal = cand + ".pairwise.json.journal"
    os.chmod("runs", 0o1777)
    os.chown(journal, 4321, 4321)
    os.chmod(journal, 0o600)
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    open_refused(monkeypatch, journal)
    return base, cand, journal


def test_another_users_journal_that_cannot_be_read_asks_its_owner(project, cli, fake, monkeypatch):
    """129th round's perm attack: another user's stopped compare left its journal mode 600 (their umask 077) in a sticky
    folder (as /tmp): "Permission denied; it should hold compare --pairwise's verdicts: move it aside", which neither its
    mover nor its reader can do. It is said to be another user's: its owner asked, or both runs copied. (Ownership is set
    with chown, this process seen as user 1000; reading it fails as the system fails it, root reading every file.)"""
    base, cand, journal = others_unreadable_journal(fake, monkeypatch)
    asked = len(fake.chat_bodies)
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--judge-votes", "2", "--host", fake.url)
    assert code == 2 and len(fake.chat_bodies) == asked, err
    assert err.endswith(f"error: {journal}: Permission denied; it is another user's journal of compare --pairwise's "
                        "verdicts (uid 4321, mode 600): ask its owner to go on with that compare or to make the journal "
                        "readable, or copy both runs to a folder of yours and compare the copies\n"), err


def test_another_users_live_compare_with_an_unreadable_journal_is_waited_for(project, cli, fake, monkeypatch):
    """130th round's perm attack: `runs` of another user's compare --pairwise asking now, its journal mode 600 (their
    umask 077), offered "ask its owner to go on with that compare ..., or copy both runs ... and compare the copies": the
    copy asks again what that compare is paying for. The compare holding the candidate is named, to be waited for, as
    compare itself names it. (Ownership is set with chown, this process seen as user 1000; reading it fails as the
    system fails it, root reading every file.)"""
    import subprocess
    import sys
    base, cand, journal = others_unreadable_journal(fake, monkeypatch)
    live = subprocess.Popen([sys.executable, "-c", f"import fcntl, time\nf = open({cand!r}, 'rb')\n"
                             "fcntl.flock(f, fcntl.LOCK_EX)\nprint('held', flush=True)\ntime.sleep(60)"],
                            stdout=subprocess.PIPE, text=True)
    try:
        assert live.stdout.readline() == "held\n"
        code, out, err = cli("runs", "runs")
    finally:
        live.kill()
        live.wait()
    said = " ".join(out.split())
    assert f"another eval.py (pid {live.pid}) holds {cand} now (a compare --pairwise asking" in said, said
    assert "copy both runs" not in said, said


@pytest.mark.skipif(not os.path.exists("/proc/locks"), reason="the holder's pid and state are read in /proc")
def test_a_compare_stopped_with_ctrl_z_holding_the_candidate_is_said_stopped_with_its_cure(project, cli, fake):
    """Round 133's review, F3: a compare stopped with Ctrl-Z holding the candidate refused another with "wait for it",
    which waited for ever; it is said stopped, with the cure (`fg` it, or stop it there), as the lock's wait says it."""
    import signal
    import subprocess
    import sys
    base, cand = two_runs(IDS[:2], candidate_better=IDS[:2], baseline_better=())
    scripted_judge(fake)
    live = subprocess.Popen([sys.executable, "-c", f"import fcntl, time\nf = open({cand!r}, 'rb')\n"
                             "fcntl.flock(f, fcntl.LOCK_EX)\nprint('held', flush=True)\ntime.sleep(60)"],
                            stdout=subprocess.PIPE, text=True)
    try:
        assert live.stdout.readline() == "held\n"
        live.send_signal(signal.SIGSTOP)
        while Path(f"/proc/{live.pid}/stat").read_text().rpartition(")")[2].split()[0] != "T":   # (delivered as the
            # kernel schedules it)
            time.sleep(0.01)
        code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)
    finally:
        live.kill()
        live.wait()
    assert code == 2 and fake.chat_bodies == [] and err.endswith(
        f"error: another eval.py (pid {live.pid}) holds {cand} and is stopped (Ctrl-Z, or a SIGSTOP): it holds it until "
        f"it goes on. Bring it back with `fg` in its terminal (or kill -CONT {live.pid}) and let it finish, or stop it "
        "there with Ctrl-C (what it asked is kept), then compare again (the verdicts a compare of the same runs stores "
        "are reused)\n"), err


def test_another_users_journal_in_a_sticky_folder_is_said_in_the_way_and_never_stored(project, cli, fake, monkeypatch):
    """129th round: another user's stopped compare left its journal in a sticky folder (as /tmp). The next compare stored
    its verdicts, then could not remove it, and said they were "kept in" it for the next compare to store, with "ask its
    owner to move it aside,; undone, compare again": every compare failed alike. 130th round's perm attack: stored so,
    they made a sidecar of ours there, which its owner's compare could not write ("another user's file") and `runs` went
    on calling them "not yet stored". The journal is said in the way before it is stored or anything asked, nothing
    written; its owner's compare stores it. (Ownership is set with chown, this process seen as user 1000, and the removal
    fails as the system fails it.)"""
    base, cand = two_runs(IDS[:4], candidate_better=IDS[:4], baseline_better=())
    scripted_judge(fake)
    stopped_compare(base, cand, fake, "SIGKILL", 7)
    journal = cand + ".pairwise.json.journal"
    journaled = len(Path(journal).read_bytes().splitlines())
    assert not os.path.lexists(cand + ".pairwise.json")
    os.chmod("runs", 0o1777)
    os.chown(journal, 4321, 4321)
    real_lstat, real_unlink, real_geteuid = os.lstat, os.unlink, os.geteuid
    class Ours:   # what this process makes is user 1000's (it runs as root)
        def __init__(self, info):
            self.info, self.st_uid = info, 1000 if info.st_uid == 0 else info.st_uid
        def __getattr__(self, name):
            return getattr(self.info, name)
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    monkeypatch.setattr(os, "lstat", lambda path, *a, **kw: Ours(real_lstat(path, *a, **kw)))
    def sticky(path, *a, **kw):
        if os.fspath(path) == journal:
            raise PermissionError(errno.EPERM, "Operation not permitted", path)
        return real_unlink(path, *a, **kw)
    monkeypatch.setattr(os, "unlink", sticky)
    asked = len(fake.chat_bodies)
    for _ in range(2):
        code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--judge-votes", "2", "--host", fake.url)
        assert code == 2 and len(fake.chat_bodies) == asked, err
        assert err.endswith(f"error: cannot write {journal}: it is another user's file (uid 4321) in a folder where "
                            "each user replaces only their own (runs, sticky); the verdicts asked could not be stored, so "
                            "nothing was asked: ask its owner to move it aside, or copy both runs to a folder that can be "
                            "written and compare the copies\n") and "note: the verdicts" not in err, err
        assert not os.path.lexists(cand + ".pairwise.json")
    # (129th round's perm attack) runs offered it as the viewer's own: "the next compare stores them; go on with: ..."
    code, out, err = cli("runs", "runs")
    said = " ".join(out.split())
    assert (f"not yet stored in {cand}.pairwise.json by another user's compare --pairwise (uid 4321), stopped or asking "
            f"now: its owner's next compare --pairwise of {cand} stores them; ask its owner to go on with: ") in said, said
    assert "the next compare" not in said
    for name, real in (("unlink", real_unlink), ("lstat", real_lstat), ("geteuid", real_geteuid)):
        monkeypatch.setattr(os, name, real)   # a compare that may write it (this process as root) stores them, asking
    # only the rest
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--judge-votes", "2", "--host", fake.url)
    assert code == 0 and len(fake.chat_bodies) - asked == 16 - journaled, err
    assert not os.path.lexists(journal)


def test_the_audit_of_a_run_whose_compare_was_killed_names_the_journaled_verdicts(project, cli, fake):
    """Round 109: judge --audit of a candidate whose compare --pairwise was SIGKILLed (its verdicts in the journal
    alone) said no comparison is stored, and sent the reader to `judge`: it says how many wait in the journal and
    what stores them, alone and beside a comparison stored before."""
    base, cand = two_runs(IDS[:4], candidate_better=IDS[:4], baseline_better=())
    scripted_judge(fake)
    stopped_compare(base, cand, fake, "SIGKILL", 7, criterion="Which is shorter?")
    journal = Path(cand + ".pairwise.json.journal")
    count = len(journal.read_bytes().splitlines())
    said = (f"{count} pairwise verdicts a stopped compare --pairwise journaled in {journal} wait to be stored: the next "
            f"compare --pairwise of {cand} stores them (`python eval.py runs runs` gives it)")
    code, out, err = cli("judge", cand, "--audit")
    assert code == 2 and f"no pairwise comparison is stored beside it; {said}\n" in err, err
    # (its review) `runs` names the compare that goes on with it, as a stop by SIGTERM prints it
    listed = cli("runs", "runs")[1]
    assert (f"; go on with: python eval.py compare --pairwise 'Which is shorter?' --judge-model qwen2.5:7b --judge-votes 2 "
            f"--judge-temperature 0 --seed 42 --judge-max-tokens 1024 --api ollama --host {fake.url} -- {base} {cand}") \
        in listed, listed
    # (its review) a journal's words go into a command to paste: one eval.py never writes (an api of shell code) gives none
    lines = journal.read_text(encoding="utf-8").splitlines()
    forged = [json.dumps(dict(json.loads(l), comparison=dict(json.loads(l)["comparison"], api="ollama $(touch pwned)")))
              for l in lines]
    journal.write_text("\n".join(forged) + "\n", encoding="utf-8")
    listed = cli("runs", "runs")[1]
    assert "go on with" not in listed and "$(touch" not in listed, listed
    journal.write_text("\n".join(lines) + "\n", encoding="utf-8")
    # (its review) from another folder, the baseline by a path that opens it from there (its bytes the same)
    os.chdir("runs")
    try:
        listed = cli("runs", ".")[1]
    finally:
        os.chdir("..")
    assert f"--host {fake.url} -- ./base.json ./cand.json" in listed, listed
    assert cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)[0] == 0
    stopped_compare(base, cand, fake, "SIGKILL", 7, criterion="Which is shorter?")
    count = len(journal.read_bytes().splitlines())
    code, out, err = cli("judge", cand, "--audit")
    assert code == 0 and said.replace("7 pairwise", f"{count} pairwise") in out, out
    assert json.loads(cli("judge", cand, "--audit", "--json")[1])["audit"]["position"]["unstored"] == count


def test_runs_finds_a_killed_compares_baseline_from_any_folder_or_says_it_cannot(project, cli, fake):
    """Round 110's review: the baseline and the candidate in two folders, `runs .` from the candidate's offered a
    command naming the baseline as that compare was given it (base/b.json), which fails from there. It is looked
    for from each folder above the candidate too; one found nowhere is said so, the command kept for where it ran."""
    base, cand = two_runs(IDS[:4], candidate_better=IDS[:4], baseline_better=())
    os.makedirs("base")
    os.makedirs("cand")
    os.rename(base, "base/b.json")
    os.rename(cand, "cand/c.json")
    scripted_judge(fake)
    stopped_compare("base/b.json", "cand/c.json", fake, "SIGKILL", 7)
    os.chdir("cand")
    try:
        listed = cli("runs", ".")[1]
        assert f"--host {fake.url} -- ../base/b.json ./c.json" in listed, listed
        pasted = shlex.split(listed.split("go on with: ")[1].splitlines()[0])
        assert pasted[:3] == ["python", "eval.py", "compare"]
        asked = len(fake.chat_bodies)
        code, out, err = cli(*pasted[2:])
        journaled = int(re.search(r"(\d+) pairwise verdicts not yet stored", listed).group(1))
        assert code == 0 and "Candidate wins (4)" in out and len(fake.chat_bodies) - asked == 16 - journaled, err
        stopped_compare("../base/b.json", "c.json", fake, "SIGKILL", 3, criterion="Which is shorter?")
        os.rename("../base/b.json", "../b.json.kept")   # found from nowhere: said, never a command that fails as pasted
        listed = cli("runs", ".")[1]
        assert ("go on with, from the folder that compare ran in (its baseline, ../base/b.json, is not found from "
                f"here): python eval.py compare --pairwise 'Which is shorter?'") in listed, listed
        assert f"-- ../base/b.json {os.path.abspath('c.json')}" in listed, listed
    finally:
        os.chdir("..")


@pytest.mark.parametrize("target", ["gone/pw.json", "cand.json.pairwise.json"])
def test_a_sidecar_that_is_a_link_to_nothing_is_named_never_replaced(project, cli, fake, target):
    """Round 110: a pairwise sidecar that is a link whose target is gone (or a link to itself) was read as no sidecar:
    every pair asked again, the link replaced by a file; the audit said no comparison is stored."""
    base, cand = two_runs(IDS[:2], candidate_better=IDS[:2], baseline_better=())
    scripted_judge(fake)
    os.symlink(target, cand + ".pairwise.json")
    for command in (["compare", base, cand, "--pairwise", CRITERION, "--host", fake.url], ["judge", cand, "--audit"]):
        code, out, err = cli(*command)
        assert code == 2 and f"{cand}.pairwise.json" in err and "Traceback" not in err, err
        assert "a link to gone/pw.json, which does not exist; fix the link or remove it" in err if target.startswith("gone") \
            else "cannot" in err or "loop" in err.lower(), err
    assert fake.chat_bodies == [] and os.readlink(cand + ".pairwise.json") == target


def test_a_verdict_journaled_after_a_torn_line_is_never_glued_to_it(project, cli, fake):
    """Thirteenth attack, item 1: compares at once share the journal; one killed as it wrote leaves
    a torn last line, and the next verdict another compare appends must be a line of its own (glued
    to the torn one, both would be a damaged line in the middle)."""
    base, cand = two_runs(IDS[:4], candidate_better=IDS[:4], baseline_better=())
    scripted_judge(fake)
    stopped_compare(base, cand, fake, "SIGKILL", 3)
    journal = Path(cand + ".pairwise.json.journal")
    lines = journal.read_bytes().splitlines(keepends=True)
    journal.write_bytes(b"".join(lines[:-1]) + lines[-1][:50])   # the last line torn as it was written
    entry = json.loads(lines[-1])
    evalpy.journal_verdict(cand + ".pairwise.json", entry["comparison"], dict(entry["verdict"], vote=2))
    held = evalpy.journaled_comparisons(str(journal))
    assert [len(c["verdicts"]) for c in held] == [len(lines)] and held[0]["verdicts"][-1]["vote"] == 2
    assert journal.read_bytes().count(b"\n") == len(lines) and not os.path.exists(cand + ".pairwise.json.lock")
    # (111th round) a last line whole but for its line break is kept, by the reader and by the next verdict's write
    data = journal.read_bytes()
    journal.write_bytes(data[:-1])
    assert [len(c["verdicts"]) for c in evalpy.journaled_comparisons(str(journal))] == [len(lines)]
    assert evalpy.journaled_lines(str(journal)) == len(lines)   # (its review) the audit counts what the reader keeps
    evalpy.journal_verdict(cand + ".pairwise.json", entry["comparison"], dict(entry["verdict"]))
    assert journal.read_bytes().startswith(data) and [len(c["verdicts"]) for c in evalpy.journaled_comparisons(str(journal))] == [len(lines) + 1]


def test_a_judges_half_emoji_is_stored_and_read_back(project, cli, fake):
    """Fourteenth attack on issue 28, item 2: a judge's reason holding a lone surrogate escape (half of
    an emoji, "\\ud83d", as models write) was stored, and every later compare refused the whole
    sidecar as damaged: every verdict in it to be paid again. What eval.py writes, it reads back."""
    base, cand = two_runs(IDS[:2], candidate_better=IDS[:2], baseline_better=())

    def route(body):
        if body["messages"][0]["content"] != evalpy.PAIRWISE_PROMPT:
            return None
        a, _ = answers_in(body)
        return '{"reason": "keeps the \\ud83d emoji", "winner": "%s"}' % ("A" if "pedido" in a else "B")
    fake.route = route
    assert cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)[0] == 0
    asked = len(fake.chat_bodies)
    for view in ((), ("--json",), ("--markdown",), ("--html", "p.html")):
        code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url, *view)
        assert code == 0 and "damaged" not in err, err
    assert len(fake.chat_bodies) == asked                                 # nothing asked again
    assert "\ud83d" in load_json(cand + ".pairwise.json")["comparisons"][0]["verdicts"][0]["reason"]


def test_a_write_that_fails_for_a_reason_other_than_space_never_says_to_free_some(project, cli, fake):
    """Fourteenth attack on issue 28 (minor): every failed write said "free some space", a folder or a
    name the system refuses too. Here the lock's name is past the 255 bytes a file name may have, the
    sidecar's not: the error says so, and the advice is to fix that."""
    base, cand = two_runs(IDS[:2], candidate_better=IDS[:2], baseline_better=())
    long_name = "runs/" + "c" * (255 - len(".json.pairwise.json")) + ".json"
    os.rename(cand, long_name)
    scripted_judge(fake)
    code, out, err = cli("compare", base, long_name, "--pairwise", CRITERION, "--host", fake.url)
    # (round 107) refused before a verdict is asked, the name's length said: its sidecar's temp file had no room
    assert code == 2 and ".json.pairwise.json: its name is 255 bytes long" in err and "give the run a shorter name" in err, err
    assert "space" not in err and fake.chat_bodies == []


def test_a_stored_verdict_no_longer_asked_is_never_said_to_be_another_compares(project, cli, fake):
    """Fifteenth attack on issue 28 (minor): a verdict the sidecar held for a call no longer asked
    (a case the runs no longer have) made compare say "merged with 1 verdict another compare stored
    meanwhile", though no other compare ran."""
    base, cand = two_runs(IDS[:2], candidate_better=IDS[:2], baseline_better=())
    scripted_judge(fake)
    assert cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)[0] == 0
    stored = load_json(cand + ".pairwise.json")
    verdicts = stored["comparisons"][0]["verdicts"]
    stale = dict(verdicts[0], id="gone")
    stored["comparisons"][0]["verdicts"] = verdicts[1:] + [stale]   # one call to ask again, one verdict of no case now
    Path(cand + ".pairwise.json").write_text(json.dumps(stored))
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)
    # (round 123) a verdict on a case the run it was made on lacks is an edit: the file is damaged, said so (the audit
    # counted its flip), and nothing is asked nor stored
    assert code == 2 and "merged" not in err and "damaged pairwise file (a verdict on gone, a case the run it was made " \
        "on does not hold)" in err, err


def test_a_candidate_given_through_a_link_keeps_its_verdicts_beside_the_run_itself(project, cli, fake):
    """Twenty-first attack on issue 28, defect 2: `compare A latest.json --pairwise` (latest.json a link
    to runs/cand.json) stored its verdicts in latest.json.pairwise.json, so the same comparison by the
    run's own name asked every call again. The sidecar, its journal and lock are named after the file."""
    base, cand = two_runs(IDS[:3], candidate_better=IDS[:3], baseline_better=())
    scripted_judge(fake)
    Path("latest.json").symlink_to(cand)
    code, out, err = cli("compare", base, "latest.json", "--pairwise", CRITERION, "--host", fake.url)
    assert code == 0, err
    assert err.count(f"note: latest.json is a link to {cand}: ") == 1, err
    assert f"stored the verdicts in {cand}.pairwise.json" in err
    assert not [p for p in os.listdir(".") if p.startswith("latest.json.")]   # nothing beside the link
    asked = len(fake.chat_bodies)
    assert asked == 6
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)
    assert code == 0 and len(fake.chat_bodies) == asked, err    # by its own name: stored, nothing asked
    code, out, err = cli("compare", base, "latest.json", "--pairwise", CRITERION)   # no --host: nothing to ask
    assert code == 0 and "(0 made now" in out and f"verdicts in {cand}.pairwise.json" in out, err
    # judge --audit reads the comparisons stored beside the run, given by either name
    assert f"Position (pairwise comparisons stored in {cand}.pairwise.json)" in cli("judge", "latest.json", "--audit")[1]
    # (twenty-seventh attack) by a second name of the file (a hard link), the same comparison was asked again in full
    os.link(cand, "runs/second.json")
    code, out, err = cli("compare", base, "runs/second.json", "--pairwise", CRITERION, "--host", fake.url)
    assert code == 0 and len(fake.chat_bodies) == asked and "(0 made now" in out, err
    assert (f"note: runs/second.json is another name of {cand} (a hard link): what is kept beside that name is used "
            f"({cand}.pairwise.json)") in err and not os.path.exists("runs/second.json.pairwise.json")
    assert f"stored in {cand}.pairwise.json" in cli("judge", "runs/second.json", "--audit")[1]


def sidecar_linked_to_shared(cli, fake):
    """Two runs compared once, their sidecar then moved to shared/pw.json and linked to from where it was."""
    base, cand = two_runs(IDS[:2], candidate_better=IDS[:2], baseline_better=())
    scripted_judge(fake)
    assert cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)[0] == 0
    Path("shared").mkdir()
    os.replace(cand + ".pairwise.json", "shared/pw.json")
    Path(cand + ".pairwise.json").symlink_to("../shared/pw.json")
    return base, cand


def test_a_pairwise_sidecar_that_is_a_link_is_written_through_to_its_target(project, cli, fake):
    """Twenty-first attack on issue 28, defect 4: a RUN.pairwise.json that is a link was replaced by a
    plain file at the next compare's store; its target kept only what it held. Written through."""
    base, cand = sidecar_linked_to_shared(cli, fake)
    code, out, err = cli("compare", base, cand, "--pairwise", "Which answer is shorter?", "--host", fake.url)
    assert code == 0, err
    assert os.path.islink(cand + ".pairwise.json") and os.readlink(cand + ".pairwise.json") == "../shared/pw.json"
    assert [c["judge"]["criterion"] for c in load_json("shared/pw.json")["comparisons"]] == [
        CRITERION, "Which answer is shorter?"]
    assert os.listdir("shared") == ["pw.json"]


def test_sidecars_linked_to_one_shared_file_take_turns_under_its_own_lock(project, cli, fake):
    """Issue 28, twenty-third attack: two runs' sidecars linked to one shared file each took the lock of their
    own name and wrote through to the target: the last write dropped the other's comparison (40 calls paid,
    one comparison kept). A store through a link takes the lock beside the target too: here it waits for
    another process holding it, and stores once that one lets go."""
    import subprocess
    import sys
    import time
    base, cand = sidecar_linked_to_shared(cli, fake)
    holder = subprocess.Popen([sys.executable, "-c", "import fcntl, time\nf = open('shared/pw.json.lock', 'a+')\n"
                               "fcntl.flock(f, fcntl.LOCK_EX)\nprint('held', flush=True)\ntime.sleep(60)"],
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline() == "held\n"
        compare = subprocess.Popen([sys.executable, str(Path(evalpy.__file__)), "compare", base, cand, "--pairwise",
                                    "Which answer is shorter?", "--host", fake.url],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 20
        while len(fake.chat_bodies) < 8 and time.monotonic() < deadline:   # its 4 calls asked, then the store waits
            time.sleep(0.05)
        time.sleep(0.5)
        assert compare.poll() is None   # waiting for the shared file's lock
    finally:
        holder.kill()
        holder.wait()
    out, err = compare.communicate(timeout=30)
    assert compare.returncode == 0, err
    assert [c["judge"]["criterion"] for c in load_json("shared/pw.json")["comparisons"]] == [CRITERION, "Which answer is shorter?"]


def test_a_candidate_whose_folder_cannot_be_written_is_refused_before_any_call(project, cli, fake, monkeypatch):
    """Issue 28, twenty-third attack: beside a candidate in a read-only folder (given through a link since its
    sidecars go beside its file), compare --pairwise paid a call, then failed to store it. The folder is
    looked at first. (The folder is made unwritable to os.access: a read-only mount needs privileges. This process runs
    as root, whom no mode stops: a folder it cannot write is locked, chattr +i, and since the 129th round's perm attack
    that is said, never "make the folder writable", which chmod could not do.)"""
    base, cand = two_runs(IDS[:2], candidate_better=IDS[:2], baseline_better=())
    scripted_judge(fake)
    real_access = os.access
    folder_refused(monkeypatch, "runs")
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)
    assert code == 2 and err.endswith(f"error: cannot write {cand}.pairwise.json: its folder runs cannot be written; the "
                                      "verdicts asked could not be stored, so nothing was asked: its mode (755) lets "
                                      "you write in it, so it is locked: an immutable or append-only folder? (lsattr -d "
                                      "runs shows which; chattr -i -a undoes both), or copy both runs to a folder that "
                                      "can be written and compare the copies\n"), err   # (128th round: its cure; the verdicts' file named where it is there)
    assert fake.chat_bodies == []
    code, out, err = cli("review", cand, "--port", "0")
    assert code == 2 and err.endswith(f"error: cannot write {cand}.annotations.json: its folder runs cannot be written; "
                                      "no annotation could be saved there: its mode (755) lets you write in it, so it is "
                                      "locked: an immutable or append-only folder? (lsattr -d runs shows which; chattr -i "
                                      "-a undoes both), or copy the run to a folder that can be written and review the "
                                      "copy\n"), err
    # (twenty-fourth attack) a sidecar linked into such a folder: the target's folder is looked at too (20 calls
    # were paid, kept in the journal, then the store failed naming the link)
    monkeypatch.setattr(os, "access", real_access)
    base, cand = sidecar_linked_to_shared(cli, fake)
    folder_refused(monkeypatch, "shared")
    asked = len(fake.chat_bodies)
    code, out, err = cli("compare", base, cand, "--pairwise", "Which answer is shorter?", "--host", fake.url)
    assert code == 2 and err.endswith("error: cannot write shared/pw.json: its folder shared cannot be written; the "
                                      "verdicts asked could not be stored, so nothing was asked: its mode (755) lets "
                                      "you write in it, so it is locked: an immutable or append-only folder? (lsattr -d "
                                      "shared shows which; chattr -i -a undoes both), or copy both runs (and "
                                      "runs/cand.json.pairwise.json) to a folder that can be written and compare the "
                                      "copies\n"), err
    assert len(fake.chat_bodies) == asked
    # (twenty-seventh attack) in a sticky folder (as /tmp), another user's file is replaced by no rename of ours:
    # calls were paid, then the store failed. (Ownership is set with chown and this process seen as user 1000.)
    monkeypatch.setattr(os, "access", real_access)
    os.chmod("shared", 0o1777)
    os.chown("shared/pw.json", 4321, 4321)
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    code, out, err = cli("compare", base, cand, "--pairwise", "Which answer is shorter?", "--host", fake.url)
    assert code == 2 and err.endswith("error: cannot write shared/pw.json: it is another user's file (uid 4321) in a folder "
                                      "where each user replaces only their own (shared, sticky); the verdicts asked could "
                                      "not be stored, so nothing was asked: ask its owner to move it aside, or copy both runs "
                                      "(and runs/cand.json.pairwise.json) to a folder that can be written and compare the "
                                      "copies\n"), err   # (128th round's newcomer: no cure was said)
    assert len(fake.chat_bodies) == asked
    os.chown("shared/pw.json", 1000, 1000)   # one's own file there: stored as before
    assert cli("compare", base, cand, "--pairwise", "Which answer is shorter?", "--host", fake.url)[0] == 0


def test_runs_in_another_users_folder_ask_its_owner_or_the_copy(project, cli, fake, monkeypatch):
    """129th round: compare --pairwise of runs in another user's folder (755) said "make the folder writable", their
    chmod, which fails. Its owner is asked, or the copy made. (Ownership is set with chown, this process seen as user
    1000; the folder is made unwritable to os.access: root writes every folder.)"""
    base, cand = two_runs(IDS[:2], candidate_better=IDS[:2], baseline_better=())
    scripted_judge(fake)
    folder_refused(monkeypatch, "runs", 4321)
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)
    assert code == 2 and err.endswith(f"error: cannot write {cand}.pairwise.json: its folder runs cannot be written; the "
                                      "verdicts asked could not be stored, so nothing was asked: ask its owner (uid 4321) "
                                      "to let you write in runs, or copy both runs to a folder that can be written and "
                                      "compare the copies\n"), err
    assert fake.chat_bodies == []


def test_another_users_journal_in_their_folder_asks_its_owner_or_the_copy(project, cli, fake, monkeypatch):
    """130th round's perm attack: compare --pairwise of runs in another user's folder (755) holding their stopped
    compare's journal stored it first, and said "cannot write ...pairwise.json.lock (Permission denied): the judge
    verdicts asked are kept in ...journal, and the next compare --pairwise stores them; fix that and compare again": none
    was asked, and the folder is its owner's to fix. Refused before the journal is stored, nothing written, with the cure
    said where it holds none. (Ownership is set with chown, this process seen as user 1000; the folder is made
    unwritable to os.access: root writes every folder.)"""
    base, cand = two_runs(IDS[:4], candidate_better=IDS[:4], baseline_better=())
    scripted_judge(fake)
    stopped_compare(base, cand, fake, "SIGKILL", 7)
    journal = cand + ".pairwise.json.journal"
    held = Path(journal).read_bytes()
    os.chown(journal, 4321, 4321)
    folder_refused(monkeypatch, "runs", 4321)
    asked = len(fake.chat_bodies)
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--judge-votes", "2", "--host", fake.url)
    assert code == 2 and err.endswith(f"error: cannot write {cand}.pairwise.json: its folder runs cannot be written; the "
                                      "verdicts asked could not be stored, so nothing was asked: ask its owner (uid 4321) "
                                      "to let you write in runs, or copy both runs to a folder that can be written and "
                                      "compare the copies\n"), err
    assert "kept in" not in err and len(fake.chat_bodies) == asked
    assert sorted(os.listdir("runs")) == ["base.json", "cand.json", "cand.json.pairwise.json.journal"]
    assert Path(journal).read_bytes() == held


def test_runs_in_another_users_locked_folder_its_mode_lets_one_write_in_point_to_lsattr(project, cli, fake, monkeypatch):
    """130th round's perm attack: compare --pairwise of runs in another user's folder whose mode lets all write (777),
    made immutable (chattr +i), said "ask its owner (uid 1001) to let you write in oi": it lets all write already, and
    their chattr -i fails. The folder is said locked, and an administrator's chattr pointed to. (Ownership is set with
    chown, this process seen as user 1000; the folder is made unwritable to os.access, as chattr +i makes it.)"""
    base, cand = two_runs(IDS[:2], candidate_better=IDS[:2], baseline_better=())
    scripted_judge(fake)
    folder_refused(monkeypatch, "runs", 4321, 0o777)
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)
    assert code == 2 and err.endswith(f"error: cannot write {cand}.pairwise.json: its folder runs cannot be written; the "
                                      "verdicts asked could not be stored, so nothing was asked: its mode (777) lets you "
                                      "write in it, so it is locked: an immutable or append-only folder? (lsattr -d runs "
                                      "shows which; chattr -i -a undoes both, run by an administrator (root): ask one), or "
                                      "copy both runs to a folder that can be written and compare the copies\n"), err
    assert fake.chat_bodies == []


def test_verdicts_stored_beside_a_link_by_an_earlier_eval_py_are_never_asked_again_in_silence(project, cli, fake):
    """Verdicts an earlier eval.py stored through a link (latest.json.pairwise.json) are not where the
    run's are now: the compare is refused before any call, saying where to move them."""
    base, cand = two_runs(IDS[:2], candidate_better=IDS[:2], baseline_better=())
    scripted_judge(fake)
    assert cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)[0] == 0
    os.rename(cand + ".pairwise.json", "latest.json.pairwise.json")
    Path("latest.json").symlink_to(cand)
    asked = len(fake.chat_bodies)
    code, out, err = cli("compare", base, "latest.json", "--pairwise", CRITERION, "--host", fake.url)
    assert code == 2 and err.endswith(f"error: latest.json.pairwise.json, named after the link, holds verdicts an earlier "
                                      f"eval.py stored there; move it to {cand}.pairwise.json (there is none) or aside, and "
                                      "compare again: its verdicts would be asked again\n"), err
    assert len(fake.chat_bodies) == asked
    os.rename("latest.json.pairwise.json", cand + ".pairwise.json")
    code, out, err = cli("compare", base, "latest.json", "--pairwise", CRITERION, "--host", fake.url)
    assert code == 0 and len(fake.chat_bodies) == asked, err
    Path("latest.json.pairwise.json.journal").write_text("")   # a stopped compare's journal, beside the link
    code, out, err = cli("compare", base, "latest.json", "--pairwise", CRITERION, "--host", fake.url)
    assert code == 2 and err.endswith(f"error: latest.json.pairwise.json.journal, named after the link, holds verdicts an "
                                      f"earlier eval.py stored there; move it to {cand}.pairwise.json.journal (there is none) "
                                      "or aside, and compare again: its verdicts would be asked again\n"), err
    # (twenty-seventh attack) a link beside the link to the run's own sidecar is that sidecar, never refused
    os.remove("latest.json.pairwise.json.journal")
    Path("latest.json.pairwise.json").symlink_to(cand + ".pairwise.json")
    code, out, err = cli("compare", base, "latest.json", "--pairwise", CRITERION, "--host", fake.url)
    assert code == 0 and len(fake.chat_bodies) == asked, err


def long_winded_on(fake, case_id):
    """The scripted judge, which on case_id writes its verdict, then about 1,300 tokens (the fake counts
    4 characters a token), then its verdict again: past a 1,024-token limit."""
    scripted_judge(fake)
    plain = fake.route
    long_prose = "Pienso despacio. " * 300
    fake.route = lambda body: (plain(body) + long_prose + plain(body) if body["messages"][0]["content"] ==
                               evalpy.PAIRWISE_PROMPT and f"[{case_id}]" in body["messages"][-1]["content"] else plain(body))


def test_a_larger_token_limit_asks_only_the_pairwise_calls_the_smaller_cut(project, cli, fake):
    """Twenty-seventh attack on issue 28: `compare --pairwise ... --judge-max-tokens 2048` after verdicts cut at
    1024 asked every call again (20 where 2 were cut). With nothing else changed a verdict whose answer ended
    within the smaller limit stands; a winner read from a cut answer (a draft) is no verdict."""
    base, cand = two_runs(IDS[:5], candidate_better=IDS[:5], baseline_better=())
    long_winded_on(fake, IDS[1])
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url, "--json")
    assert code == 0, err
    w = json.loads(out)["pairwise"]
    assert w["calls"] == 10 and [p["id"] for p in w["no_verdict"]] == [IDS[1]], w["no_verdict"]
    assert w["no_verdict"][0]["why"] == "the judge's answer was cut at its token limit (--judge-max-tokens)"
    asked = len(fake.chat_bodies)
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url, "--judge-max-tokens", "2048",
                         "--json")
    assert code == 0 and len(fake.chat_bodies) - asked == 2, err
    assert all(f"[{IDS[1]}]" in b["messages"][-1]["content"] for b in fake.chat_bodies[asked:])
    assert "8 verdicts that ended within it stand" in err, err
    w = json.loads(out)["pairwise"]
    assert w["no_verdict"] == [] and len(w["candidate_wins"]) == 5 and w["asked_now"] == 2, w
    asked = len(fake.chat_bodies)   # stored under the larger limit now: asked nothing
    assert cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url, "--judge-max-tokens", "2048")[0] == 0
    assert len(fake.chat_bodies) == asked
    # another setting besides the limit is another judge: every call asked
    assert cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url, "--judge-max-tokens", "4096",
               "--judge-temperature", "0.5")[0] == 0
    assert len(fake.chat_bodies) - asked == 10


def test_a_verdict_the_server_stopped_short_of_the_limit_is_named_so_and_counted(project, cli, fake):
    """Thirty-first round on issue 28: a pairwise answer the server stopped short of the judge's limit (its
    window full: llama-cpp-python cuts max_tokens to n_ctx less the prompt) was named "cut at its token limit
    (--judge-max-tokens)", which a larger limit does not help, and the calls cut were counted nowhere."""
    base, cand = two_runs(IDS[:3], candidate_better=IDS[:3], baseline_better=())
    long_winded_on(fake, IDS[1])
    fake.openai_context = 800
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url, "--api", "openai")
    assert code == 0, err
    assert (f"No verdict (1, not counted): {IDS[1]} (the server stopped the judge's answer short of its token limit "
            "(its window full, or a limit of its own (its window is not known here)))") in out, out
    assert "6 judge calls (6 made now, 0 failed, 2 stopped by the server short of it)" in out, out
    # a larger limit asks nothing: the verdicts that ended stand, and the calls the server stopped stop alike
    asked = len(fake.chat_bodies)
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url, "--api", "openai",
                         "--judge-max-tokens", "2048")
    assert code == 0 and len(fake.chat_bodies) == asked, err
    assert ("4 verdicts that ended within it stand and 2 calls the server stopped short of it stand (its window full: "
            "asked again, they stop alike)") in err, err
    fake.openai_context = None
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url, "--api", "openai",
                         "--judge-max-tokens", "1000", "--json")   # a smaller limit: another judge, every call asked
    w = json.loads(out)["pairwise"]
    assert w["no_verdict"][0]["why"] == "the judge's answer was cut at its token limit (--judge-max-tokens)", w
    assert (w["cut_calls"], w["stopped_calls"]) == (2, 0), w


def test_a_larger_limit_goes_on_from_both_comparisons_and_never_from_another_models(project, cli, fake):
    """Twenty-eighth attack on issue 28: a compare with the larger limit that stored only some calls (stopped,
    or its calls failed) had its own comparison found, and the smaller limit's verdicts were no longer reused:
    every call asked again. And the smaller limit's comparison was chosen before the judge's digest was known,
    so one made by a model pulled since stood in for the judge's verdicts."""
    base, cand = two_runs(IDS[:4], candidate_better=IDS[:4], baseline_better=())
    scripted_judge(fake)
    plain = fake.route
    long_prose = "Pienso despacio. " * 300
    fake.route = lambda body: (long_prose + plain(body) if body["messages"][0]["content"] == evalpy.PAIRWISE_PROMPT
                               and f"[{IDS[1]}]" in body["messages"][-1]["content"] else plain(body))
    assert cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url, "--judge-max-tokens", "1024")[0] == 0
    fake.faults = ["500"] * 2   # the larger limit's two calls fail: its comparison holds them failed
    asked = len(fake.chat_bodies)
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url, "--judge-max-tokens", "2048",
                         "--retries", "0")
    assert len(fake.chat_bodies) - asked == 2 and "2 pairwise judge calls failed" in err, err
    # as a compare killed while it asked leaves it: its comparison holds only the calls it made (from its journal)
    sidecar = load_json(cand + ".pairwise.json")
    made = next(c for c in sidecar["comparisons"] if c["judge"]["num_predict"] == 2048)
    made["verdicts"] = [v for v in made["verdicts"] if v["error"]]
    Path(cand + ".pairwise.json").write_text(json.dumps(sidecar))
    asked = len(fake.chat_bodies)
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url, "--judge-max-tokens", "2048",
                         "--json")
    assert code == 0 and len(fake.chat_bodies) - asked == 2 and "6 verdicts that ended within it stand" in err, err
    assert json.loads(out)["pairwise"]["no_verdict"] == []
    # pulled again: 2048's verdicts are another model's, never reused for it; then back to the first model: its own are
    fake.digests["qwen2.5:7b"], first_model = "c" * 64, fake.route
    fake.route = lambda body: "Otro modelo. " + first_model(body) if first_model(body) else None
    asked = len(fake.chat_bodies)
    assert cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url, "--judge-max-tokens", "4096")[0] == 0
    assert len(fake.chat_bodies) - asked == 8
    del fake.digests["qwen2.5:7b"]
    fake.route = first_model
    asked = len(fake.chat_bodies)   # (4096's, the latest of a smaller limit, are another model's: passed over)
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url, "--judge-max-tokens", "8192")
    assert code == 0 and len(fake.chat_bodies) == asked and "8 verdicts that ended within it stand" in err, err
    stored = load_json(cand + ".pairwise.json")["comparisons"]
    by_limit = {c["judge"]["num_predict"]: c for c in stored}
    own = {evalpy.pairwise_call(v): v["raw"] for v in by_limit[2048]["verdicts"]}
    assert {evalpy.pairwise_call(v): v["raw"] for v in by_limit[8192]["verdicts"]} == own   # 2048's, not 4096's


def test_a_larger_limit_goes_on_from_every_smaller_limits_comparison(project, cli, fake):
    """Twenty-ninth attack on issue 28: only the comparison stored last with a smaller limit was read: after
    1024 (one pair cut) then 256 (two cut), 2048 asked again the pair that had ended within 1024."""
    base, cand = two_runs(IDS[:4], candidate_better=IDS[:4], baseline_better=())
    scripted_judge(fake)
    plain = fake.route
    lengths = {IDS[1]: 300, IDS[2]: 60}   # about 1,300 and 260 tokens of prose before the verdict
    fake.route = lambda body: next(("Pienso despacio. " * n + plain(body) for cid, n in lengths.items()
                                    if body["messages"][0]["content"] == evalpy.PAIRWISE_PROMPT
                                    and f"[{cid}]" in body["messages"][-1]["content"]), None) or plain(body)
    for limit in ("1024", "256"):
        assert cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url, "--judge-max-tokens", limit)[0] == 0
    asked = len(fake.chat_bodies)
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url, "--judge-max-tokens", "2048",
                         "--json")
    assert code == 0 and [b["messages"][-1]["content"].count(f"[{IDS[1]}]") > 0 for b in fake.chat_bodies[asked:]] == \
        [True, True], err
    assert "the comparisons stored with a token limit of 256, 1024: 6 verdicts that ended within it stand" in err, err
    assert json.loads(out)["pairwise"]["no_verdict"] == []


def test_a_stored_pairwise_verdict_that_copied_the_prompts_example_is_none():
    """74th attack: a verdict {"reason": "<your reasoning>", "winner": "A"} stored before the rule counted as a win;
    read again it is none, as one asked now is, and the pair has no outcome; a real verdict after such a draft stands."""
    def vote(order, raw, winner):
        return {"model": "m", "vote": 1, "order": order, "winner": winner, "raw": raw, "error": None}
    copied = '{"reason": "<your reasoning>", "winner": "A"}'
    real = 'draft {"reason": "<your reasoning>", "winner": "B"} then {"reason": "A cites the order", "winner": "A"}'
    both = [vote("candidate first", copied, "A"), vote("baseline first", copied, "B")]
    assert evalpy.pairwise_outcome(both)[0] is None
    flipped = 'draft {"reason": "<your reasoning>", "winner": "A"} then {"reason": "B cites the order", "winner": "B"}'
    assert evalpy.pairwise_outcome([vote("candidate first", real, "A"), vote("baseline first", flipped, "B")])[0] == "candidate"


def test_a_stored_pairwise_verdict_of_a_judge_stopped_looping_is_none():
    """119th round's review: a verdict a judge drafted before Ollama stopped it for repeating itself, stored by an
    eval.py before that rule, was counted (3 position flips); read again it is none, and says why."""
    def vote(order, winner, done_reason):
        return {"model": "m", "vote": 1, "order": order, "winner": winner, "raw": f'{{"winner": "{winner}"}} re-check re-check',
                "error": None, "done_reason": done_reason}
    looped = [vote("candidate first", "A", evalpy.REPEAT_STOP), vote("baseline first", "A", evalpy.REPEAT_STOP)]
    outcome, why, _ = evalpy.pairwise_outcome(looped)
    assert outcome is None and why == "the judge was stopped by its server for repeating itself before its verdict (a draft " \
        "before it is none)", why
    assert evalpy.pairwise_outcome([vote("candidate first", "A", "stop"), vote("baseline first", "A", "stop")])[0] == "flip"


def test_a_stored_pairwise_verdict_from_a_reply_giving_two_is_none():
    """113th round's check of older sidecars: a winner, then "had both been as good I would answer {"winner": "tie"}",
    stored by an older eval.py as a tie (its last), was reused as one where a verdict asked now is none."""
    def vote(order, raw, winner):
        return {"model": "m", "vote": 1, "order": order, "winner": winner, "raw": raw, "error": None}
    two = '{"reason": "A cita el pedido.", "winner": "A"}\n\nHad both been as good I would answer {"winner": "tie"}'
    assert evalpy.pairwise_outcome([vote("candidate first", two, "tie"), vote("baseline first", two, "tie")])[0] is None
    plain = '{"reason": "A cita el pedido.", "winner": "A"}'
    assert evalpy.pairwise_outcome([vote("candidate first", plain, "A"), vote("baseline first", plain.replace('"A"', '"B"'),
                                                                            "B")])[0] == "candidate"


def test_a_stored_pairwise_verdict_then_mt_benchs_other_is_read_again():
    """113th round's fifth review: a stored vote {"winner": "A"} then "[[B]]" (read as A before) was never read again:
    only a key written twice sent it to the reader."""
    vote = {"raw": '{"reason": "A is better", "winner": "A"}\n\n[[B]]', "winner": "A", "model": "m",
            "order": evalpy.ORDERS[0], "error": None}
    assert evalpy.said_two_things(vote, "winner")


def test_a_judge_that_refuses_every_pair_alike_stops_the_compare(project, cli, fake):
    """118th round's hostile judges: compare --pairwise had no breaker: a judge model not there (404 to every call)
    was asked 54 calls, a rate limit's 429s each waited out; five pairs in a row refused alike stop it, as judge
    stops, the verdicts that came stored and the command to go on given."""
    base, cand = two_runs(IDS, candidate_better=IDS, baseline_better=())
    scripted_judge(fake)
    fake.faults = ["404"] * 100
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url, "--jobs", 1)
    assert code == 2 and len(fake.chat_bodies) == 10, (len(fake.chat_bodies), err)
    assert err.endswith(f"error: stopped: the judge's server at {fake.url} answered 5 pairs' calls in a row that what they "
                        "asked is not there (HTTP 404: model \"qwen2.5:7b\" not found, try pulling it first (run `ollama "
                        "pull qwen2.5:7b`)); check the "
                        "model's name and --host (the server's base: an OpenAI-compatible one's ends in /v1), then compare "
                        "again\n"), err
    assert "compare again to ask only the calls still missing" in err, err
    fake.faults = []
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)
    assert code == 0 and "12 candidate wins" in out, out + err
    # (round 124's review) five pairs, the stop with the last, no call out: the comparison was stored, the stop unsaid
    five = two_runs(IDS[:5], candidate_better=IDS[:5], baseline_better=())
    fake.faults = ["404"] * 100
    code, out, err = cli("compare", *five, "--pairwise", CRITERION, "--host", fake.url, "--jobs", 1)
    assert code == 2 and "stop" not in err and (f"the judge's server at {fake.url} answered 5 pairs' calls "
                                                    "in a row that what they asked is not there") in err, err
    assert "(every pair had been asked: its failed calls are stored, to ask again)" in err, err


def test_a_held_lock_is_said_once_whatever_the_jobs(project, cli, fake):
    """118th round's kills: with --jobs 2 each worker's journal append waited on the held lock with a lock of its own,
    and each said it: the line twice or three times (the README: once, with the holder's pid)."""
    import subprocess
    import sys
    import time
    base, cand = two_runs(IDS[:4], candidate_better=IDS[:4], baseline_better=())
    scripted_judge(fake)
    holder = held_once_asked(fake, cand + ".pairwise.json.lock")
    proc = subprocess.Popen([sys.executable, str(Path(evalpy.__file__)), "compare", base, cand, "--pairwise",
                             CRITERION, "--jobs", "2", "--host", fake.url], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    try:
        deadline = time.monotonic() + 20
        while len(fake.chat_bodies) < 2 and time.monotonic() < deadline:   # both workers' verdicts in: both wait
            time.sleep(0.02)
        time.sleep(0.5)
        assert proc.poll() is None and len(fake.chat_bodies) == 2
    finally:
        holder.close()
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0 and err.count("waiting for") == 1, err


def held_by_4242(path):
    """A lock file held, as another eval.py (process 4242) holds it while it saves: let go when closed."""
    import fcntl
    holder = open(path, "a+")
    fcntl.flock(holder, fcntl.LOCK_EX)
    holder.write("4242")
    holder.flush()
    return holder


def held_once_asked(fake, path):
    """The lock at path held by process 4242 from the judge's first call on (the fake takes it before it answers), once
    the compare has checked before any call that it can journal: its verdicts then wait on it. Let go when closed."""
    import threading
    taken, route, lock = [], fake.route, threading.Lock()

    def first_takes(body):
        with lock:
            taken or taken.append(held_by_4242(path))
        return route(body)
    fake.route = first_takes

    class Holder:
        def close(self):
            with lock:
                taken and taken[0].close()
    return Holder()


def test_a_later_wait_on_a_held_lock_is_said_again(project, capsys):
    """118th round's review of the once-a-process rule: a second wait on the same lock by the same holder (stopped
    again with Ctrl-Z) was silent, the round-99 hang unsaid; workers waiting together say it once, a later wait again."""
    import threading
    def wait_once():
        holder = held_by_4242("x.lock")
        taker = threading.Thread(target=lambda: evalpy.FileLock("x.lock").release())
        taker.start()
        deadline, said = time.monotonic() + 10, ""
        while "waiting for x.lock" not in said and time.monotonic() < deadline:   # (the taker waits before the release,
            time.sleep(0.02)                                                       # however late it starts)
            said = capsys.readouterr().err
            shown.append(said)
        holder.close()
        taker.join(10)
    shown = []
    wait_once()
    wait_once()
    shown.append(capsys.readouterr().err)
    assert "".join(shown).count("waiting for x.lock: another eval.py (process 4242) holds it") == 2, shown


def test_a_sidecar_keeps_its_mode_and_one_made_read_only_is_never_replaced(project, cli, fake):
    """Round 124's damaged files: a save put a new file in the sidecar's place with the default mode, a 600 one made
    readable by all (and one made read-only replaced all the same, a rename needs only the folder)."""
    base, cand = two_runs(IDS[:4], candidate_better=IDS[:4], baseline_better=())
    scripted_judge(fake)
    assert cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)[0] == 0
    sidecar = cand + evalpy.PAIRWISE_SUFFIX
    os.chmod(sidecar, 0o600)
    code, out, err = cli("compare", base, cand, "--pairwise", "Which is shorter?", "--host", fake.url)
    assert code == 0 and os.stat(sidecar).st_mode & 0o777 == 0o600, err
    os.chmod(sidecar, 0o444)
    before, asked = open(sidecar, encoding="utf-8").read(), len(fake.chat_bodies)   # (refused before any call)
    code, out, err = cli("compare", base, cand, "--pairwise", "Which is kinder?", "--host", fake.url)
    assert code == 2 and len(fake.chat_bodies) == asked and ("error: cannot write runs/cand.json.pairwise.json: it is "
                                                            "read-only (mode 444): make it writable (chmod u+w runs/cand.json"
                                                            ".pairwise.json); the verdicts asked") in err, err
    assert open(sidecar, encoding="utf-8").read() == before and os.stat(sidecar).st_mode & 0o777 == 0o444
    assert "Traceback" not in err


def test_a_judge_that_is_a_judged_model_under_another_name_is_said_as_run_says_it(project, cli, fake):
    """128th round's hostile servers: compare --pairwise with a judge of the candidate's digest under another name (`ollama
    cp`) said nothing, where run and judge say it: only the judge was asked of the server, and the judged models' digests
    the runs recorded were never read."""
    fake.models = ["qwen2.5:7b", "same:latest"]
    fake.digests["same:latest"] = fake.digest("qwen2.5:7b")
    base, cand = two_runs(IDS[:2], candidate_better=IDS[:2], baseline_better=(), model_digest=fake.digest("qwen2.5:7b"),
                          model_family="qwen2")
    scripted_judge(fake)
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url, "--judge-model", "same")
    assert code == 0 and "note: the judge is same, the model being judged under another name (qwen2.5:7b: one digest)" \
        in err, err
    # (its review) the baseline's recorded digest the judge's, the candidate's another, under one name: said too
    for path, digest in ((cand, "c3" * 32), (base, fake.digest("qwen2.5:7b"))):
        run = load_json(path)
        run["config"]["model_digest"] = digest
        Path(path).write_text(json.dumps(run, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    os.unlink(cand + ".pairwise.json")
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url, "--judge-model", "same")
    assert code == 0 and err.count("note: the judge is same, the model being judged under another name (qwen2.5:7b: "
                                   "one digest)") == 1, err
    # (its third review) m and m:latest are one name to Ollama: said once
    run = load_json(cand)
    run["config"]["model"], run["config"]["model_digest"] = "QWEN2.5:7B", fake.digest("qwen2.5:7b")
    Path(cand).write_text(json.dumps(run, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    os.unlink(cand + ".pairwise.json")
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url, "--judge-model", "same")
    assert code == 0 and err.count("note: the judge is same") == 1, err


def test_verdicts_stored_and_confirmed_are_shown_where_their_file_cannot_be_locked(project, cli, fake):
    """128th round's newcomer: in a folder that cannot be written, compare --pairwise of verdicts stored and confirmed
    took the sidecar's lock to change nothing, and was refused: "the verdicts are stored, unconfirmed" (they were
    confirmed), exit 2, no result. (The lock is made to fail with a folder in its place.)"""
    base, cand = two_runs(IDS[:4], candidate_better=IDS[:4], baseline_better=())
    scripted_judge(fake)
    first = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)
    assert first[0] == 0, first[2]
    asked = len(fake.chat_bodies)
    os.mkdir(cand + ".pairwise.json.lock")
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)
    assert code == 0 and len(fake.chat_bodies) == asked, err
    shown = lambda text: [line for line in text.splitlines() if "pairwise" not in line.lower() and "stored" not in line]
    assert shown(out) == shown(first[1]) and "candidate" in out.lower(), (out, first[1])


def test_verdicts_an_append_only_folder_refuses_to_store_say_what_to_do(project, cli, fake, monkeypatch):
    """128th round's third newcomer: in an append-only folder (chattr +a) every verdict was paid, then storing them
    failed with "fix that" alone. lsattr's cure is said, and the journal keeps them. (The write fails as the system
    fails it.)"""
    base, cand = two_runs(IDS[:2], candidate_better=IDS[:2], baseline_better=())
    scripted_judge(fake)
    def append_only(path, text):
        raise PermissionError(errno.EPERM, "Operation not permitted", path + ".tmp-1", None, path)
    monkeypatch.setattr(evalpy, "write_sidecar", append_only)
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)
    assert code == 2 and err.endswith(
        f"error: cannot write {cand}.pairwise.json (Operation not permitted): the judge verdicts asked are kept in "
        f"{cand}.pairwise.json.journal, and the next compare --pairwise stores them; an immutable or append-only file or "
        f"folder? (lsattr -d runs {cand}.pairwise.json shows which; chattr -i -a undoes both); undone, compare again\n"), err


@pytest.mark.parametrize("sticky", [True, False])
def test_another_users_stale_lock_of_the_sidecar_is_refused_before_any_call(project, cli, fake, monkeypatch, sticky):
    """130th round's perm attack: the sidecar's .lock another user's (mode 644, their stopped eval.py's), in a sticky
    folder (as /tmp) or a shared one: compare --pairwise asked every pair (54 calls), then "cannot write
    CAND.pairwise.json.lock (Permission denied): the judge verdicts asked now are not stored": all paid for, none kept.
    It is refused before any call, named another user's lock, with a cure that works: its owner asked to move it aside
    where rm fails (sticky), rm where the folder can be written."""
    base, cand = two_runs(IDS[:4], candidate_better=IDS[:4], baseline_better=())
    scripted_judge(fake)
    if sticky:
        os.chmod("runs", 0o1777)
    lock = cand + ".pairwise.json.lock"
    others_stale_lock(monkeypatch, lock)
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url)
    assert code == 2 and fake.chat_bodies == [] and "asking" not in err, err
    cure = ("ask its owner (uid 4321) to move it aside (a folder where each user replaces only their own: runs, sticky)"
            if sticky else f"remove it (rm {lock};")
    assert (f"\nerror: cannot write {lock}: it is another user's lock (uid 4321), which you cannot write; the verdicts "
            f"asked could not be stored, so nothing was asked: {cure}") in err and err.endswith(", then compare again\n"), err
    assert not os.path.lexists(cand + ".pairwise.json")


@pytest.mark.parametrize("sticky", [True, False])
def test_a_stopped_compare_behind_another_users_stale_lock_names_it_whose_and_the_cure(project, cli, fake, monkeypatch,
                                                                                     sticky):
    """132nd round: a compare --pairwise killed (its verdicts in its journal, ours), the sidecar's .lock then another
    user's stale lock (mode 644): the same compare said "cannot write ...lock (Permission denied): the judge verdicts
    asked are kept in ...journal ...; fix that and compare again", naming no owner nor cure (rm fails in a sticky
    folder), and `runs` offered "go on with: compare --pairwise", which the lock refuses, naming no lock. Both name it
    another user's lock, with the cure of its owner's (or rm, where the folder allows it); the journal is kept."""
    base, cand = two_runs(IDS[:4], candidate_better=IDS[:4], baseline_better=())
    scripted_judge(fake)
    stopped_compare(base, cand, fake, "SIGKILL", 7)
    journal, lock = cand + ".pairwise.json.journal", cand + ".pairwise.json.lock"
    kept = Path(journal).read_bytes()
    if sticky:
        os.chmod("runs", 0o1777)
    os.chown(journal, 1000, 1000)   # ours: this process is seen as user 1000 (others_stale_lock)
    others_stale_lock(monkeypatch, lock)
    cure = ("ask its owner (uid 4321) to move it aside (a folder where each user replaces only their own: runs, sticky)"
            if sticky else f"remove it (rm {lock};")
    asked = len(fake.chat_bodies)
    code, out, err = cli("compare", base, cand, "--pairwise", CRITERION, "--judge-votes", "2", "--host", fake.url)
    assert code == 2 and len(fake.chat_bodies) == asked and Path(journal).read_bytes() == kept, err
    assert (f"error: cannot write {lock} (Permission denied): it is another user's lock (uid 4321); the judge verdicts "
            f"asked are kept in {journal}, and the next compare --pairwise stores them.\n{cure[0].upper()}{cure[1:]}") \
        in err and err.endswith(", then compare again\n"), err
    said = " ".join(cli("runs", "runs")[1].split())
    assert (f"{lock} is another user's lock (uid 4321): {cure}") in said and "; go on with: python eval.py compare" in said, said


def test_the_pages_pairwise_lists_show_an_id_as_its_fixed_list_does_never_as_a_shell_word(project, cli, fake):
    r"""133rd round: compare --pairwise --html listed its wins and ties as the text view does, shell-quoted
    ($'c\x1bz'), where the Fixed list and case links on the same page show c\x1bz: shell quoting is for a command to
    paste, and the page has one escaping for an id (esc)."""
    ids = ["c\x1bz", "c\u202ey", "c01"]
    base, cand = two_runs(ids, candidate_better=ids[:2], baseline_better=())
    scripted_judge(fake)
    assert cli("compare", base, cand, "--pairwise", CRITERION, "--host", fake.url, "--html", "p.html")[0] == 0
    page = Path("p.html").read_text(encoding="utf-8")
    assert "<li>Candidate wins (2): c\\x1bz, c\\u202ey</li>" in page, page   # (as esc shows an id: its case_link's)
    assert "$&#x27;" not in page and "\x1b" not in page, page
