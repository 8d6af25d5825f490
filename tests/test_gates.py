"""Gates for CI (exit 1 on a quality failure, 2 when a run cannot be judged), tags, and the held-out test split that is run once."""

import json

import pytest
import scipy.stats

from conftest import answer_key, load_json

V2_MISSES = {"dev-09": "facturación", "dev-11": "Categoría: bug", "dev-24": "petición"}


@pytest.fixture
def dev_run(project, cli, fake):
    fake.answers = answer_key("golden/dev.jsonl", V2_MISSES)
    assert cli("run", "--split", "dev", "--prompt", "prompts/v2.txt", "--host", fake.url)[0] == 0
    return "runs/dev-v2.json"   # 22/25 = 88%


def test_min_accuracy_gate(dev_run, cli):
    code, out, err = cli("report", dev_run, "--min-accuracy", "0.9")
    assert code == 1 and "GATE FAILED: accuracy 88% against a minimum of 90%" in err
    assert out.startswith("Accuracy: 22/25 = 88%")          # the report is still printed
    code, out, err = cli("report", dev_run, "--min-accuracy", "85%")
    assert code == 0 and "gate passed: accuracy 88% against a minimum of 85%" in err
    assert cli("report", dev_run, "--min-accuracy", "0.88")[0] == 0
    with pytest.raises(SystemExit) as e:
        cli("report", dev_run, "--min-accuracy", "88")
    assert e.value.code == 2


def test_a_run_with_errors_cannot_pass_or_fail_a_gate(project, cli, fake):
    fake.answers = answer_key("golden/dev.jsonl")
    fake.faults_for[list(fake.answers)[0]] = ["500"] * 5
    assert cli("run", "--split", "dev", "--host", fake.url, "--retries", "0")[0] == 2
    code, out, err = cli("report", "runs/dev-v3.json", "--min-accuracy", "0.5")
    assert code == 2 and "gates not judged: 1 request(s) got no answer" in err
    assert cli("report", "runs/dev-v3.json")[0] == 0       # without a gate, a report is just a report
    fake.faults_for.clear()
    assert cli("run", "--split", "dev", "--host", fake.url)[0] == 0
    code, out, err = cli("compare", "runs/dev-v3.json", "runs/dev-v3-2.json", "--fail-on-regression")
    assert code == 2 and "gates not judged" in err


@pytest.fixture
def tagged_run(project, cli, fake):
    (project / "tagged").mkdir()
    (project / "tagged" / "labels.txt").write_text("safe\nunsafe\n")
    cases = [("t1", "unsafe", ["red-team"]), ("t2", "unsafe", ["red-team", "injection"]),
             ("t3", "safe", []), ("t4", "safe", ["injection"])]
    with open(project / "tagged" / "cases.jsonl", "w") as f:
        for cid, expected, tags in cases:
            f.write(json.dumps({"id": cid, "input": cid, "expected": expected, "difficulty": "easy",
                                "note": "n", "tags": tags}) + "\n")
    trials = {"t1": ["unsafe", "unsafe", "safe"], "t2": ["unsafe"] * 3, "t3": ["safe"] * 3, "t4": ["safe"] * 3}
    calls = {}

    def answer(text):
        calls[text] = calls.get(text, 0) + 1
        return trials[text][calls[text] - 1]
    fake.default_answer = answer
    code, out, err = cli("run", "--split", "tagged/cases.jsonl", "--prompt", "prompts/v1.txt",
                         "--host", fake.url, "--repeat", 3)
    assert code == 0, err
    return "runs/cases-v1.json"


def test_must_pass_is_never_averaged_away(tagged_run, cli):
    code, out, err = cli("report", tagged_run, "--must-pass", "red-team")
    # t1 is right by majority (2 of 3), but one trial failed: the gate fails
    assert code == 1 and "GATE FAILED: must-pass 'red-team': 1 of 2 cases pass every trial (failing: t1)" in err
    code, out, err = cli("report", tagged_run, "--must-pass", "injection")
    assert code == 0 and "gate passed: must-pass 'injection': 2 of 2" in err
    code, out, err = cli("report", tagged_run, "--must-pass", "red-teem")
    assert code == 2 and "no case has this tag (tags in this run: injection, red-team)" in err


def test_bad_tags_are_refused_at_load(project, cli):
    (project / "golden" / "x.jsonl").write_text(
        json.dumps({"id": "a", "input": "x", "expected": "bug", "difficulty": "easy", "note": "n", "tags": "red"}) + "\n")
    code, out, err = cli("run", "--split", "golden/x.jsonl", "--host", "127.0.0.1:1")
    assert code == 2 and "golden/x.jsonl:1: field 'tags' must be a list of non-empty strings" in err


@pytest.fixture
def worse_run(project, cli, fake, dev_run):
    fake.answers = answer_key("golden/dev.jsonl", {f"dev-{i:02d}": "acceso" for i in (1, 2, 4, 5, 6, 7)})
    assert cli("run", "--split", "dev", "--prompt", "prompts/v1.txt", "--host", fake.url)[0] == 0
    return "runs/dev-v1.json"   # misses dev-01, 02, 04, 05, 06, 07 where dev-v2 missed 09, 11, 24


def test_compare_statistics_lines(dev_run, worse_run, cli):
    # baseline dev-v2 misses 09, 11, 24; candidate misses 01, 02, 04, 05, 06, 07
    c = json.loads(cli("compare", dev_run, worse_run, "--json")[1])
    assert len(c["fixed"]) == 3 and len(c["regressions"]) == 6
    assert c["mcnemar_p"] == pytest.approx(scipy.stats.binomtest(3, 9, 0.5).pvalue, rel=1e-9)
    assert c["fisher_p"] == pytest.approx(scipy.stats.fisher_exact([[22, 3], [19, 6]]).pvalue, rel=1e-9)
    out = cli("compare", dev_run, worse_run)[1]
    assert f"McNemar exact test (paired, alpha 0.05): 3 fixed, 6 broken: p = {c['mcnemar_p']:.2g}, " \
           "not enough cases to call it" in out
    assert f"Fisher exact test (pass/fail counts): p = {c['fisher_p']:.2g}" in out


def test_fail_on_regression_and_fail_if_worse(dev_run, worse_run, project, cli, fake):
    assert cli("compare", dev_run, worse_run, "--fail-on-regression")[0] == 1
    code, out, err = cli("compare", dev_run, worse_run, "--fail-if-worse")
    assert code == 0 and "gate passed: significantly worse? no" in err          # 3 vs 6: p = 0.51
    fake.answers = answer_key("golden/dev.jsonl", V2_MISSES | {f"dev-{i:02d}": "acceso" for i in (1, 2, 4, 5, 6, 7)})
    assert cli("run", "--split", "dev", "--prompt", "prompts/v1.txt", "--host", fake.url)[0] == 0
    code, out, err = cli("compare", dev_run, "runs/dev-v1-2.json", "--fail-if-worse")
    assert code == 1 and "0 fixed, 6 broken: p = 0.031, the candidate is worse beyond chance" in err
    code, out, err = cli("compare", dev_run, "runs/dev-v1-2.json", "--fail-if-worse", "--alpha", "0.01")
    assert code == 0
    assert cli("compare", dev_run, dev_run, "--fail-on-regression", "--fail-if-worse")[0] == 0


# --- the held-out split

@pytest.fixture
def test_run(project, cli, fake):
    fake.answers = answer_key("golden/test.jsonl")
    assert cli("run", "--split", "test", "--prompt", "prompts/v2.txt", "--host", fake.url)[0] == 0
    fake.chat_bodies.clear()
    return "runs/test-v2.json"


def test_the_test_split_is_not_rerun_after_a_change(test_run, project, cli, fake):
    code, out, err = cli("run", "--split", "test", "--host", fake.url)
    assert code == 2
    assert "refusing to run the held-out test split again: runs/test-v2.json already ran this split " \
           "with another prompt_sha (prompts/v2.txt, qwen2.5:7b)" in err
    assert "--rerun-test" in err
    assert fake.chat_bodies == [] and not (project / "runs" / "test-v3.json").exists()
    code, out, err = cli("run", "--split", "test", "--prompt", "prompts/v2.txt", "--host", fake.url, "--temperature", "0.5")
    assert code == 2 and "another temperature" in err


def test_the_same_configuration_may_run_again(test_run, cli, fake):
    code, out, err = cli("run", "--split", "test", "--prompt", "prompts/v2.txt", "--host", fake.url)
    assert code == 0, err
    assert "rerun_test" not in load_json("runs/test-v2-2.json")["config"]


def test_a_forced_rerun_is_marked_everywhere(test_run, cli, fake):
    code, out, err = cli("run", "--split", "test", "--host", fake.url, "--rerun-test")
    assert code == 0 and "warning: forced re-run of the held-out test split" in err
    config = load_json("runs/test-v3.json")["config"]
    assert config["rerun_test"] == {"forced": True, "earlier": ["runs/test-v2.json"]}
    warning = "WARNING: a forced re-run of the held-out test split (it had already been run: runs/test-v2.json)"
    assert warning in cli("report", "runs/test-v3.json")[1]
    assert warning in cli("report", "runs/test-v3.json", "--markdown")[1]
    assert "Candidate: " + warning in cli("compare", test_run, "runs/test-v3.json")[1]
    assert json.loads(cli("report", "runs/test-v3.json", "--json")[1])["rerun_test"]["forced"] is True


def test_dev_is_never_guarded(dev_run, cli, fake):
    assert cli("run", "--split", "dev", "--prompt", "prompts/v3.txt", "--host", fake.url)[0] == 0


def test_an_interrupted_run_of_the_test_split_counts_for_the_held_out_rule(project, cli, fake):
    """Its answers were seen: stopping it before the end does not make the split unseen."""
    import signal
    import subprocess
    import sys
    import time
    from conftest import ROOT
    fake.answers = answer_key("golden/test.jsonl")
    fake.latency = 0.1
    proc = subprocess.Popen([sys.executable, str(ROOT / "eval.py"), "run", "--split", "test", "--prompt",
                             "prompts/v3.txt", "--host", fake.url], cwd=project,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 20
    while len(fake.chat_bodies) < 3 and time.monotonic() < deadline:
        time.sleep(0.02)
    proc.send_signal(signal.SIGINT)
    assert proc.wait(timeout=20) == 2
    assert (project / "runs" / "test-v3.json.journal").exists()
    fake.chat_bodies.clear()
    code, out, err = cli("run", "--split", "test", "--prompt", "prompts/v2.txt", "--host", fake.url)
    assert code == 2 and fake.chat_bodies == []
    assert "runs/test-v3.json.journal already ran this split with another prompt_sha (prompts/v3.txt" in err
