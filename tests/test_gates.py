"""Gates for CI: exit 1 on a quality failure (accuracy, must-pass, regressions), 2 if a run cannot be judged."""

import pytest

from conftest import V1_MISSES, V2_MISSES, load_json, split_run, write_run


def test_min_accuracy_gate(dev_run, cli):
    code, out, err = cli("report", dev_run, "--min-accuracy", "0.9")
    assert code == 1 and "GATE FAILED: accuracy 89% against a minimum of 90%" in err
    assert out.startswith("Accuracy: 25/28 = 89%")          # the report is still printed
    code, out, err = cli("report", dev_run, "--min-accuracy", "85%")
    assert code == 0 and "gate passed: accuracy 89% against a minimum of 85%" in err
    assert cli("report", dev_run, "--min-accuracy", "0.88")[0] == 0
    with pytest.raises(SystemExit) as e:
        cli("report", dev_run, "--min-accuracy", "88")
    assert e.value.code == 2


def test_a_run_with_errors_cannot_pass_or_fail_a_gate(project, cli):
    errored = write_run("runs/dev-v3.json", split_run("dev", {"dev-01": None}))   # dev-01 got no answer
    code, out, err = cli("report", errored, "--min-accuracy", "0.5")
    assert code == 2 and "gates not judged: 1 request(s) got no answer" in err
    assert cli("report", errored)[0] == 0       # without a gate, a report is just a report
    clean = write_run("runs/dev-v3-2.json", split_run("dev"))
    code, out, err = cli("compare", errored, clean, "--fail-on-regression")
    assert code == 2 and "gates not judged" in err


def test_must_pass_is_never_averaged_away(tagged_run, cli):
    code, out, err = cli("report", tagged_run, "--must-pass", "red-team")
    # t1 is right by majority (2 of 3), but one trial failed: the gate fails
    assert code == 1 and "GATE FAILED: must-pass 'red-team': 1 of 2 cases pass every trial (failing: t1)" in err
    code, out, err = cli("report", tagged_run, "--must-pass", "injection")
    assert code == 0 and "gate passed: must-pass 'injection': 2 of 2" in err
    code, out, err = cli("report", tagged_run, "--must-pass", "red-teem")
    assert code == 2 and "error: --must-pass 'red-teem': no case has this tag (tags in this run: injection, red-team)" in err
    code, out, err = cli("report", tagged_run, "--must-pass", "red-team ")   # a stray space is shown, not hidden
    assert code == 2 and "error: --must-pass 'red-team ': no case has this tag" in err


def test_fail_on_regression_and_fail_if_worse(dev_run, worse_run, cli):
    assert cli("compare", dev_run, worse_run, "--fail-on-regression")[0] == 1
    code, out, err = cli("compare", dev_run, worse_run, "--fail-if-worse")
    assert code == 0 and "gate passed: significantly worse? no" in err          # 3 vs 6: mid-p = 0.36
    worst = write_run("runs/dev-v1-2.json", split_run("dev", V2_MISSES | V1_MISSES, prompt="prompts/v1.txt"))
    code, out, err = cli("compare", dev_run, worst, "--fail-if-worse")
    # 0 fixed, 6 broken: mid-p = 1/2**6 = 0.016
    assert code == 1 and "p = 0.016 (mid-p McNemar): the candidate is worse beyond chance" in err
    code, out, err = cli("compare", dev_run, worst, "--fail-if-worse", "--alpha", "0.01")
    assert code == 0
    same = write_run("runs/dev-v2-again.json", load_json(dev_run))
    assert cli("compare", dev_run, same, "--fail-on-regression", "--fail-if-worse")[0] == 0


def test_a_case_a_judge_left_open_is_not_called_an_infrastructure_failure(project, cli):
    """From the newcomer pass on issue 16: open cases (the judge gave no verdict) were reported as
    'got no answer (infrastructure)'. Gates are judged on the cases both runs decided."""
    from conftest import make_run, write_run
    check = [{"name": "helps", "type": "judge", "value": "c", "blocking": True}]

    def vote(ok):
        return [{"check": "helps", "model": "m", "vote": 1, "seed": 42, "pass": ok, "reason": None, "raw": "x",
                 "error": None, "prompt_tokens": 1, "completion_tokens": 1}]
    cases = [{"id": f"c{i}", "response": "r", "checks": check} for i in range(4)]
    base = write_run("runs/a.json", make_run([dict(c, judges=vote(True)) for c in cases], labels=None))
    cand = write_run("runs/b.json", make_run([dict(c, judges=vote(None if i == 0 else i != 3)) for i, c in enumerate(cases)],
                                             labels=None, prompt="prompts/v2.txt"))
    code, out, err = cli("compare", base, cand, "--fail-on-regression")
    assert code == 1 and "GATE FAILED: 1 regression(s): c3" in err and "infrastructure" not in err
    assert "Not compared (1): c0  (no verdict in a run: an error, or a judge that gave none)" in out
    none = write_run("runs/c.json", make_run([dict(c, judges=vote(None)) for c in cases], labels=None, prompt="prompts/v1.txt"))
    code, out, err = cli("compare", base, none, "--fail-on-regression")
    assert code == 2 and "no case has a verdict in both runs" in err


def judged_cases(verdicts, tags=()):
    """Free-text cases c0, c1, ... each judged once: True/False, None (an unreadable verdict) or
    "failed" (the judge call failed)."""
    from conftest import make_run
    check = [{"name": "helps", "type": "judge", "value": "c", "blocking": True}]
    cases = []
    for i, v in enumerate(verdicts):
        vote = {"check": "helps", "model": "m", "vote": 1, "seed": 42, "pass": None if v == "failed" else v,
                "reason": None, "raw": None if v == "failed" else "x", "error": "HTTP 503" if v == "failed" else None,
                "prompt_tokens": 1, "completion_tokens": 1}
        cases.append({"id": f"c{i}", "response": "r", "checks": check, "judges": [vote], "tags": list(tags)})
    return make_run(cases, labels=None)


def test_report_gates_follow_compares_rules_for_cases_without_a_verdict(project, cli):
    """From the attack pass after issue 16: report --min-accuracy exited 1 when no case had a
    verdict; --must-pass called an undecided case failing; a failed judge call left its case
    open and the gates were judged without it (while a failed pairwise call exits 2)."""
    none = write_run("runs/none.json", judged_cases([None, None]))
    code, out, err = cli("report", none, "--min-accuracy", "0.5")
    assert code == 2 and "gates not judged: no case has a verdict" in err and "GATE FAILED" not in err

    unsure = write_run("runs/unsure.json", judged_cases([True, None], tags=["red-team"]))
    code, out, err = cli("report", unsure, "--must-pass", "red-team")
    assert code == 2 and "must-pass 'red-team': 1 of 2 cases pass every trial (no verdict yet: c1)" in err
    assert "failing" not in err
    code, out, err = cli("report", unsure, "--min-accuracy", "0.5")   # judged on the decided case, as compare does
    assert code == 0 and "gate passed: accuracy 100%" in err

    broken = write_run("runs/broken.json", judged_cases([False, None], tags=["red-team"]))
    code, out, err = cli("report", broken, "--must-pass", "red-team")   # a proven failure needs no more verdicts
    assert code == 1 and "GATE FAILED: must-pass 'red-team': 0 of 2 cases pass every trial (failing: c0)" in err

    failed = write_run("runs/failed.json", judged_cases([True, True, "failed"]))
    code, out, err = cli("report", failed, "--min-accuracy", "0.5")
    assert code == 2 and "a judge call failed on 1 case (c2)" in err and "eval.py judge RUN" in err
    assert cli("report", failed)[0] == 0   # without a gate, a report is just a report
    base = write_run("runs/base.json", judged_cases([True, True, True]))
    code, out, err = cli("compare", base, failed, "--fail-on-regression")
    assert code == 2 and "gates not judged" in err
