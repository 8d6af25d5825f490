"""Gates for CI: exit 1 on a quality failure (accuracy, must-pass, regressions), 2 if a run cannot be judged."""

import json
import re
from fractions import Fraction
from pathlib import Path

import pytest

from conftest import ROOT, V1_MISSES, V2_MISSES, evalpy, load_json, split_run, write_run


def test_min_accuracy_gate(dev_run, cli):
    code, out, err = cli("report", dev_run, "--min-accuracy", "0.9")
    assert code == 1 and "GATE FAILED: accuracy 89% (95% CI 73–96%) against a minimum of 90%" in err
    assert out.startswith("Accuracy: 25/28 = 89%")          # the report is still printed
    code, out, err = cli("report", dev_run, "--min-accuracy", "85%")
    assert code == 0 and "gate passed: accuracy 89% (95% CI 73–96%) against a minimum of 85%" in err
    assert cli("report", dev_run, "--min-accuracy", "0.88")[0] == 0
    for zero in ("-0", "-0%", "-0.0"):   # a minimum of zero, however written (it said "-0%")
        code, out, err = cli("report", dev_run, f"--min-accuracy={zero}")
        assert code == 0 and "against a minimum of 0%" in err and "-0" not in err, err
    with pytest.raises(SystemExit) as e:
        cli("report", dev_run, "--min-accuracy", "88")
    assert e.value.code == 2


def test_a_run_with_errors_cannot_pass_or_fail_a_gate(project, cli):
    errored = write_run("runs/dev-v3.json", split_run("dev", {"dev-01": None}))   # dev-01 got no usable answer
    code, out, err = cli("report", errored, "--min-accuracy", "0.5")
    assert code == 2 and "gates not judged: 1 case got no usable answer" in err
    assert cli("report", errored)[0] == 0       # without a gate, a report is just a report
    clean = write_run("runs/dev-v3-2.json", split_run("dev"))
    code, out, err = cli("compare", errored, clean, "--fail-on-regression")
    assert code == 2 and "gates not judged" in err


def test_an_error_in_one_trial_stops_every_gate_never_moves_a_majority(project, cli):
    """Issue 28, seventeenth attack: with --repeat 3, an error in trial 2 of a case left bug, acceso:
    an even split that fails, so compare --fail-on-regression exited 1 with "1 regression(s): c01", never
    naming the error (and 0, "gate passed", the other way round). A trial without an answer is a request
    that failed, not the model's doing: no gate is judged over it, in a compare of two or of many."""
    from conftest import make_run
    whole = [("c01", "bug", ["bug", "bug", "acceso"]), ("c02", "bug", ["bug"] * 3), ("c03", "bug", ["bug"] * 3)]
    cut = [("c01", "bug", ["bug", None, "acceso"]), ("c02", "bug", ["bug"] * 3), ("c03", "bug", ["bug", None, "bug"])]
    a = write_run("runs/whole.json", make_run(whole))
    b = write_run("runs/cut.json", make_run(cut, prompt="prompts/v2.txt"))
    c = write_run("runs/other.json", make_run(whole, prompt="prompts/v1.txt"))
    for argv in ([a, b], [b, a], [a, c, b]):
        for gate in ("--fail-on-regression", "--fail-if-worse"):
            code, out, err = cli("compare", *argv, gate)
            assert code == 2 and "a request got no usable answer in a run on 2 cases (c01, c03) (infrastructure" in err, (argv, err)
    code, out, err = cli("report", b, "--min-accuracy", "0.5")
    assert code == 2 and "gates not judged: 2 trials got no usable answer" in err
    # (115th round's views) a judge call alone that failed is said so, as report says it, never a request without answer
    judge = {"name": "helps", "type": "judge", "value": "Helps.", "blocking": True}

    def vote(error=None):
        return {"check": "helps", "model": "qwen2.5:7b", "vote": 1, "seed": 42, "pass": None if error else True,
                "reason": None if error else "ok", "raw": None if error else '{"reason": "ok", "pass": true}',
                "error": error, "prompt_tokens": 10, "completion_tokens": 5}
    runs = [write_run(f"runs/j{n}.json", make_run([{"id": f"c{i}", "response": "answer", "checks": [dict(judge)],
                                                    "judges": [vote("HTTP 500: boom" if n and i == 1 else None)]}
                                                   for i in range(1, 4)], labels=None, split="s")) for n in (0, 1)]
    code, out, err = cli("compare", *runs, "--fail-on-regression")
    assert code == 2 and "gates not judged: a judge call failed in a run on 1 case (c1) (" in err, err
    # (eighteenth attack) every view of the compare names the case whose figures rest on the trials that came; (67th)
    # one whose missing trial could have turned it (a pass and a fail of three) is not compared, never a regression
    # (round 105) of the compared cases alone: c01 failed too, and is under Not compared
    assert re.search(r"^Errored \(1\): c03  \(of the cases compared, a request, an answer or a judge's vote failed",
                     cli("compare", a, b)[1], re.M)
    assert "**Errored (1; of the cases compared, a request, an answer or a judge's vote failed" in cli("compare", a, b, "--markdown")[1]
    compared = json.loads(cli("compare", a, b, "--json")[1])
    assert compared["errored"] == ["c03"] and compared["not_compared"] == ["c01"] and compared["regressions"] == [], compared
    assert cli("compare", a, b, "--html", "c.html")[0] == 0 and "Errored (1, of the cases compared, a request" in Path("c.html").read_text()
    many = cli("compare", a, c, b)[1]   # (nineteenth attack) a compare of many runs said nothing of it
    # (70th) a table of many leaves out c01, whose missing trial could turn it, as a compare of two does
    assert "Errored (of the cases compared, a request, an answer or a judge's vote failed" in many and "by run, cut c03." in many, many
    table = json.loads(cli("compare", a, c, b, "--json")[1])
    assert table["runs"][2]["errored"] == ["c03"] and "compared on 2 cases" in many, many


def test_a_majority_a_judges_open_trial_could_turn_is_not_compared(project, cli):
    """Sixty-ninth attack on issue 28: a pass, a fail and a trial whose judge gave no verdict read as a 1-1 split, a
    fail: a regression and GATE FAILED, exit 1, though judging the third could make it a 2-1 pass."""
    from conftest import make_run
    check = [{"name": "ok", "type": "judge", "value": "ok", "blocking": True}]

    judge = {"models": ["j"], "votes": 1, "temperature": 0.0, "seed": 42, "prompt_sha": evalpy.sha256_bytes(evalpy.JUDGE_PROMPT.encode())}

    def run(path, verdicts, **extra):
        made = make_run([{"id": "c01", "response": ["a", "b", "c"], "checks": check}], labels=None, judge=judge, **extra)
        for r, v in zip(made["results"], verdicts):
            r["judges"] = [{"check": "ok", "model": "j", "vote": 1, "seed": 42, "pass": v, "reason": "r",   # None: unreadable
                            "raw": "{}" if v is not None else "no verdict here", "error": None}]
        return write_run(path, made)
    a, b = run("runs/a.json", [True, True, True]), run("runs/b.json", [True, False, None], prompt="prompts/v2.txt")
    code, out, err = cli("compare", a, b, "--json")
    compared = json.loads(out or err)
    assert compared["regressions"] == [] and compared["not_compared"] == ["c01"], compared
    code, out, err = cli("compare", a, b, "--fail-on-regression")
    assert code != 1 and "GATE FAILED" not in err, err
    # (71st) three runs where that case is all: the refusal names the run it is open in, never an empty list
    c = run("runs/c.json", [True, True, True], prompt="prompts/v1.txt")
    code, out, err = cli("compare", a, c, b)
    assert code == 2 and "cases without one, by run: runs/b.json 1)" in err, err


JUDGE_CHECK = [{"name": "ok", "type": "judge", "value": "ok", "blocking": True}]


def judged_trials(path, spec, **extra):
    """A run judged by one judge check, written at path: spec "T T N|F F F", a case a '|', a trial a letter (T passes, F
    fails, N: the judge gave no verdict)."""
    from conftest import make_run
    judge = {"models": ["j"], "votes": 1, "temperature": 0.0, "seed": 42,
             "prompt_sha": evalpy.sha256_bytes(evalpy.JUDGE_PROMPT.encode())}
    cases = [g.split() for g in spec.split("|")]
    made = make_run([{"id": f"c{i:02d}", "response": [f"a{t}" for t in range(len(v))], "checks": JUDGE_CHECK}
                     for i, v in enumerate(cases, 1)], labels=None, judge=judge, **extra)
    verdicts = iter({"T": True, "F": False, "N": None}[x] for v in cases for x in v)
    for r in made["results"]:
        v = next(verdicts)
        r["judges"] = [{"check": "ok", "model": "j", "vote": 1, "seed": 42, "pass": v, "reason": "r",
                        "raw": "{}" if v is not None else "I cannot decide", "error": None}]
    return write_run(path, made)


def test_a_former_pass_the_candidates_judge_left_open_leaves_the_regression_gate_unjudged(project, cli):
    """Round 122 (a newcomer in CI): a candidate whose judge gave no verdict on the cases the baseline passed got "gate
    passed: 0 regression(s)", exit 0, judged on the cases both failed alone; those could be regressions."""
    from conftest import make_run
    check = [{"name": "ok", "type": "judge", "value": "ok", "blocking": True}]
    judge = {"models": ["j"], "votes": 1, "temperature": 0.0, "seed": 42, "prompt_sha": evalpy.sha256_bytes(evalpy.JUDGE_PROMPT.encode())}

    def run(path, verdicts, **extra):
        made = make_run([{"id": f"c{i}", "response": "a", "checks": check} for i in range(1, 5)], labels=None, judge=judge,
                        **extra)
        for r, v in zip(made["results"], verdicts):
            r["judges"] = [{"check": "ok", "model": "j", "vote": 1, "seed": 42, "pass": v, "reason": "r",
                            "raw": "{}" if v is not None else "I cannot decide", "error": None}]
        return write_run(path, made)
    a = run("runs/a.json", [True, True, False, False])
    b = run("runs/b.json", [True, None, False, None], prompt="prompts/v2.txt")
    code, out, err = cli("compare", a, b, "--fail-on-regression")
    assert code == 2 and ("gates not judged: 0 regression(s); but 1 case without a verdict in a run could be a regression "
                          "(c2); asked again, their votes would come back alike: runs/b.json: a person reads them") in err, err
    # (as report says it: never "judge them again"); (its review) a brace in the run's path, quoted in the advice, was
    # a traceback, exit 1
    braced = run("runs/b{x}.json", [True, None, False, None], prompt="prompts/v2.txt")
    code, out, err = cli("compare", a, braced, "--fail-on-regression")
    assert code == 2 and "could be a regression (c2); asked again, their votes would come back alike: 'runs/b{x}.json'" in err, err
    d = run("runs/d.json", [True, True, None, False], prompt="prompts/v3.txt")   # (its review) a table of three: its own
    code, out, err = cli("compare", a, b, d, "--fail-on-regression", "--fail-if-worse")   # advice, never "compare alone"
    assert code == 2 and "could be a regression (c2); asked again, their votes would come back alike" in err, err
    # (its newcomer) a baseline left open that the candidate fails could be one too; and --fail-if-worse passed what the
    # open cases could overturn (4 failing, 4 open of 12 passing: one more failing is p = 0.031)
    code, out, err = cli("compare", run("runs/e.json", [None, True, False, False]), run("runs/f.json", [False, True, False, False],
                         prompt="prompts/v2.txt"), "--fail-on-regression")
    assert code == 2 and "0 regression(s); but 1 case without a verdict in a run could be a regression (c1)" in err, err

    def twelve(path, verdicts, **extra):
        made = make_run([{"id": f"c{i:02d}", "response": "a", "checks": check} for i in range(12)], labels=None, judge=judge,
                        **extra)
        for r, v in zip(made["results"], verdicts):
            r["judges"] = [{"check": "ok", "model": "j", "vote": 1, "seed": 42, "pass": v, "reason": "r",
                            "raw": "{}" if v is not None else "I cannot decide", "error": None}]
        return write_run(path, made)
    c12, d12 = twelve("runs/c12.json", [True] * 12), twelve("runs/d12.json", [False] * 4 + [None] * 4 + [True] * 4,
                                                            prompt="prompts/v2.txt")
    code, out, err = cli("compare", c12, d12, "--fail-if-worse")
    assert code == 2 and ("significantly worse? no (−50.0 points" in err and "; but 4 cases with answers without a "
                          "verdict could decide it (c04, c05, c06, c07)") in err, err
    code, out, err = cli("compare", c12, twelve("runs/e12.json", [False] * 8 + [True] * 4, prompt="prompts/v3.txt"),
                         "--fail-if-worse")
    assert code == 1 and "GATE FAILED: significantly worse? yes" in err, err   # (decided: no open case to turn it)

    trials = judged_trials
    # (its review) with trials the t test is not monotone in the open ones: none or all of c08's three passing is p =
    # 0.051 and 0.11, one of three p = 0.0499 (scipy's ttest_1samp agrees): the extremes alone passed it
    base = trials("runs/t1.json", "F F F|T T T|T T F|T F F|T T T|T T T|T T T|T T T")
    cand = trials("runs/t2.json", "F F F|T F F|F F F|T T F|T T F|T T T|T F F|N N N", prompt="prompts/v2.txt")
    code, out, err = cli("compare", base, cand, "--fail-if-worse")
    assert code == 2 and "could decide it (c08)" in err, err
    # open trials inside cases compared by their majority (two of three passing) could turn it too: five fails are p = 1/32
    base = trials("runs/t3.json", "T T T|T T T|T T T|T T T|T T T")
    cand = trials("runs/t4.json", "T T N|T T N|T T N|T T N|T T N", prompt="prompts/v2.txt")
    code, out, err = cli("compare", base, cand, "--fail-if-worse")
    assert code == 2 and "5 cases with answers without a verdict could decide it (c01, c02, c03, c04, c05)" in err, err
    # a table of three reads Holm-adjusted p's: an open case there could turn a gate the two-run reading called alike
    a3, c3 = trials("runs/A.json", "T|T|T|T|T|T|T|T"), trials("runs/C.json", "T|T|T|T|T|N|T|T", prompt="prompts/v3.txt")
    b3 = trials("runs/B.json", "F|F|F|F|F|N|T|T", prompt="prompts/v2.txt")
    code, out, err = cli("compare", a3, b3, c3, "--fail-if-worse")
    assert code == 2 and "could decide it (c06)" in err, err
    # (its review) an open trial in C moves C's p, and with it B's Holm-adjusted one: A -> B is not judged either
    a10 = trials("runs/A10.json", "|".join(["T T T"] * 10))
    b10 = trials("runs/B10.json", "|".join(["F F F"] * 5 + ["T T T"] * 5), prompt="prompts/v2.txt")
    c10 = trials("runs/C10.json", "T T N|T T F|T T T|T F F|T T T|T T F|T T T|F F F|T T F|T T T", prompt="prompts/v3.txt")
    code, out, err = cli("compare", a10, b10, c10, "--fail-if-worse")
    assert code == 2 and "gate passed" not in err and "A10 -> B10: significantly worse? no" in err, err
    code, out, err = cli("compare", a, run("runs/c.json", [False, None, False, None], prompt="prompts/v1.txt"), "--fail-on-regression")
    assert code == 1 and "GATE FAILED: 1 regression(s): c1" in err, err   # (a regression seen fails it all the same)


def test_a_case_not_compared_for_an_error_is_listed_once_and_still_stops_the_gates(project, cli):
    """Issue 28, twentieth attack (minor, left then): a case with no answer in a run was listed under "Not
    compared" and under "Errored", whose words say its figures rest on what came: it is in no figure."""
    errored = write_run("runs/dev-v3.json", split_run("dev", {"dev-01": None}))   # dev-01 got no usable answer
    clean = write_run("runs/dev-v3-2.json", split_run("dev"))
    out = cli("compare", clean, errored)[1]
    assert re.search(r"^Not compared \(1\): dev-01 ", out, re.M) and "Errored" not in out, out
    assert "Errored" not in cli("compare", clean, errored, "--markdown")[1]
    shown = json.loads(cli("compare", clean, errored, "--json")[1])
    assert (shown["not_compared"], shown["errored"], shown["failed"]) == (["dev-01"], [], ["dev-01"])
    code, out, err = cli("compare", clean, errored, "--fail-on-regression")
    assert code == 2 and "a request got no usable answer in a run on 1 case (dev-01) (infrastructure" in err, err
    # (twenty-first attack, item 5) naming the run at fault and what asks its calls again ("finish or rerun it")
    assert "(infrastructure, not the model); ask its answers again: python eval.py run --resume runs/dev-v3.json" in err, err


def test_a_gate_given_with_case_is_refused_never_dropped(dev_run, tagged_run, cli):
    """Issue 28, seventeenth attack: report --case ID --min-accuracy 0.99 exited 0 on a run the same gate
    fails (exit 1 without --case): the gate was never judged, and nothing said so."""
    for run, gate in ((dev_run, ["--min-accuracy", "0.99"]), (tagged_run, ["--must-pass", "red-team"])):
        assert cli("report", run, *gate)[0] == 1
        code, out, err = cli("report", run, "--case", "dev-01" if run == dev_run else "t1", *gate)
        assert code == 2 and out == "" and err == (f"error: {gate[0]} is a gate on the whole run; drop --case "
                                                   f"(or drop {gate[0]} to see one case)\n"), err


def test_a_must_pass_tag_given_twice_is_one_gate_said_once(tagged_run, cli):
    """Issue 28, seventeenth attack (minor): --must-pass red-team --must-pass red-team printed its line twice."""
    code, out, err = cli("report", tagged_run, "--must-pass", "red-team", "--must-pass", "red-team")
    assert code == 1 and err.count("must-pass 'red-team'") == 1, err


def test_a_must_pass_tag_is_matched_as_splits_now_write_tags(project, cli):
    """115th round's review: a run an older eval.py made of a case tagged 'red-team ' (a trailing space, refused at
    load since) passed `--must-pass red-team` with that case failing ("1 of 1 case pass"), and a tag pasted decomposed
    (NFD, as a macOS terminal may send it) was "no case has this tag" beside one that looks the same."""
    from conftest import make_run
    cases = [{"id": "t1", "input": "t1", "expected": "unsafe", "tags": ["red-team"], "response": ["unsafe"]},
             {"id": "t2", "input": "t2", "expected": "unsafe", "tags": ["red-team "], "response": ["safe"]},
             {"id": "t3", "input": "t3", "expected": "safe", "tags": ["inyecci\u00f3n"], "response": ["safe"]}]
    path = write_run("runs/old.json", make_run(cases, ["safe", "unsafe"], prompt="prompts/v1.txt", split="cases"))
    code, out, err = cli("report", path, "--must-pass", "red-team")
    assert code == 1 and "GATE FAILED: must-pass 'red-team': 1 of 2 cases pass every trial (failing: t2)" in err, err
    code, out, err = cli("report", path, "--must-pass", "inyeccio\u0301n", "--must-pass", "inyecci\u00f3n ")
    assert code == 0 and err.count("gate passed: must-pass") == 1 and "1 of 1 case pass every trial" in err, err
    # (its review) the by-tag table reads them alike too: two rows 'red-team' side by side, one 0/1, one 1/1
    assert list(json.loads(cli("report", path, "--json")[1])["by_tag"]) == ["red-team", "inyecci\u00f3n"]
    # (116th round) a tag no case has lists the run's tags once each, as the table shows them (red-team, red-team )
    cases[2]["tags"] = ["inyeccio\u0301n"]
    path = write_run("runs/older.json", make_run(cases, ["safe", "unsafe"], prompt="prompts/v1.txt", split="cases"))
    code, out, err = cli("report", path, "--must-pass", "Red-Team")
    assert code == 2 and "(tags in this run: inyecci\u00f3n, red-team)" in err, err


def test_must_pass_is_never_averaged_away(tagged_run, cli, capsys):
    code, out, err = cli("report", tagged_run, "--must-pass", "red-team")
    # t1 is right by majority (2 of 3), but one trial failed: the gate fails
    assert code == 1 and "GATE FAILED: must-pass 'red-team': 1 of 2 cases pass every trial (failing: t1)" in err
    code, out, err = cli("report", tagged_run, "--must-pass", "injection")
    assert code == 0 and "gate passed: must-pass 'injection': 2 of 2" in err
    code, out, err = cli("report", tagged_run, "--must-pass", "red-teem")
    assert code == 2 and "error: --must-pass 'red-teem': no case has this tag (tags in this run: injection, red-team)" in err
    # (round 122) beside it, every other gate's verdict: a misspelt tag hid a failing one (exit 2 where 1 was due)
    code, out, err = cli("report", tagged_run, "--must-pass", "red-team", "--must-pass", "red-teem", "--markdown")
    assert code == 1 and "GATE FAILED: must-pass 'red-team': 1 of 2 cases pass every trial (failing: t1)" in err, err
    assert "error: --must-pass 'red-teem': no case has this tag" in err and "red-teem" in out and "GATE FAILED" in out, out
    # (its CI newcomer) a refused compare wrote nothing to --markdown: the step summary showed the report alone
    code, out, err = cli("compare", tagged_run, "runs/none.json", "--markdown", "--fail-on-regression")
    assert code == 2 and out.startswith("**eval.py compare: not done.**\n\n~~~~\nruns/none.json: no such run file"), out
    capsys.readouterr()
    with pytest.raises(SystemExit) as exited:   # (its review) an option misspelt, refused before the command runs
        evalpy.main(["compare", tagged_run, tagged_run, "--markdown", "--fail-on-regresion"])
    out = capsys.readouterr().out
    assert exited.value.code == 2 and out.startswith("**eval.py compare: not done.**\n\n~~~~\n") and "--fail-on-regresion" in out, out
    for argv, shown in ((["--markdown"], "**eval.py: not done.**"), (["compare", tagged_run, "--markdown", "--json"], "")):
        with pytest.raises(SystemExit):   # (its review) the top level is "eval.py", never "eval.py eval.py"; --json's
            evalpy.main(argv)             # standard output is JSON alone
        out = capsys.readouterr().out
        assert out.startswith(shown) and (shown or out == ""), out
    code, out, err = cli("compare", tagged_run, "runs/none.json", "--json")
    assert code == 2 and out == "", out
    code, out, err = cli("report", tagged_run, "--must-pass", "injection", "--must-pass", "red-teem")
    assert code == 2 and "gate passed: must-pass 'injection'" in err and "'red-teem': no case has this tag" in err, err
    # (115th round) a stray space is read past, as a split's tags are held to none at their ends
    code, out, err = cli("report", tagged_run, "--must-pass", "red-team ")
    assert code == 1 and "GATE FAILED: must-pass 'red-team ': 1 of 2 cases pass every trial (failing: t1)" in err, err
    assert "part of the split" not in err


def test_must_pass_of_a_tag_a_run_of_part_of_the_split_never_asked_says_so(project, cli, fake):
    """114th round's gates: `run --limit 10` left dev-26 to dev-28 (red-team) out; --must-pass red-team said "no case has
    this tag (tags in this run: none)", untrue of the split."""
    assert cli("run", "--split", "dev", "--limit", "10", "--host", fake.url, "--out", "runs/part.json")[0] in (0, 1)
    code, out, err = cli("report", "runs/part.json", "--must-pass", "red-team")
    assert code == 2 and ("no case has this tag (tags in this run: none); the run holds only part of the split (the first "
                          "10 cases, --limit 10): cases with it may not have been asked") in err, err


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
    again = load_json(dev_run)
    same = write_run("runs/dev-v2-again.json", dict(again, config=dict(again["config"], date="2026-01-03T09:30:00+01:00")))
    assert cli("compare", dev_run, same, "--fail-on-regression", "--fail-if-worse")[0] == 0


def test_a_case_a_judge_left_open_is_not_called_an_infrastructure_failure(project, cli):
    """From the newcomer pass on issue 16: open cases (the judge gave no verdict) were reported as
    'got no usable answer (infrastructure)'. Gates are judged on the cases both runs decided."""
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
    assert "Not compared (1): c0  (no verdict in a run, or one its trials without a verdict could turn: an error, or a judge that gave none)" in out
    # (75th attack) its judge recorded, at temperature 0 with a seed: asked again its votes come back alike, and the
    # gate named a judge that asks nothing; it names a person or a judge asked otherwise
    alike = write_run("runs/e.json", make_run([dict(c, judges=vote(None)) for c in cases], labels=None, prompt="prompts/v1.txt",
                                              judge={"models": ["m"], "votes": 1, "temperature": 0.0, "seed": 42}))
    code, out, err = cli("compare", base, alike, "--fail-on-regression")
    assert code == 2 and "no case has a verdict in both runs" in err
    assert "judge them again" not in err and ("asked again, their votes would come back alike: runs/e.json: "
                                                            f"{evalpy.PERSON_READS}, or a judge asked otherwise "
                                                            "(another --judge-model; --judge-schema") in err, err
    # (twenty-ninth attack) votes its server stopped (no cap of the run's own): the same judge, named, stopped again
    stopped = write_run("runs/d.json", make_run([dict(c, judges=[dict(vote(None)[0], done_reason="length")]) for c in cases],
                                                labels=None, prompt="prompts/v1.txt"))
    code, out, err = cli("compare", base, stopped, "--fail-on-regression")
    assert code == 2 and ("judge them again: python eval.py judge runs/d.json --judge-model MODEL (4 judge answers were "
                          "stopped by the server short of the token limit") in err, err


def judged_cases(verdicts, tags=()):
    """Free-text cases c0, c1, ... each judged once: True/False, None (an unreadable verdict) or
    "failed" (the judge call failed)."""
    from conftest import make_run
    check = [{"name": "helps", "type": "judge", "value": "c", "blocking": True}]
    cases = []
    for i, v in enumerate(verdicts):
        vote = {"check": "helps", "model": "qwen2.5:7b", "vote": 1, "seed": 42, "pass": None if v == "failed" else v,
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
    code, out, err = cli("report", unsure, "--min-accuracy", "0.5")   # even with c1 failing, 1/2 reaches 50%
    assert code == 0 and "gate passed: pass rate between 1/2 = 50% and 2/2 = 100% (1 undecided case)" in err

    broken = write_run("runs/broken.json", judged_cases([False, None], tags=["red-team"]))
    code, out, err = cli("report", broken, "--must-pass", "red-team")   # a proven failure needs no more verdicts
    # (112th round) the case left undecided named beside the failing one: "0 of 2 pass (failing: c0)" left c1 unsaid
    assert code == 1 and "GATE FAILED: must-pass 'red-team': 0 of 2 cases pass every trial (failing: c0; no verdict yet: c1)" \
        in err, err

    failed = write_run("runs/failed.json", judged_cases([True, True, "failed"]))
    code, out, err = cli("report", failed, "--min-accuracy", "0.5")
    assert code == 2 and "a judge call failed on 1 case (c2)" in err and "judge again (python eval.py judge runs/failed.json)" in err
    assert cli("report", failed)[0] == 0   # without a gate, a report is just a report
    base = write_run("runs/base.json", judged_cases([True, True, True]))
    code, out, err = cli("compare", base, failed, "--fail-on-regression")
    assert code == 2 and "gates not judged" in err


def test_a_judge_call_that_failed_beside_a_readable_vote_stops_the_gates(project, cli):
    """Issue 28, eighteenth attack: with --judge-votes 2 and every second call an HTTP 500, each verdict
    rested on one vote of two (the failed one could have made it a tie) and the gates passed (exit 0) or
    failed (exit 1) on them; the README says a gate over a judge call that failed exits 2."""
    from conftest import make_run
    check = [{"name": "helps", "type": "judge", "value": "c", "blocking": True}]

    def votes(first):
        ok = {"check": "helps", "model": "m", "vote": 1, "seed": 42, "pass": first, "reason": None, "raw": "x",
              "error": None, "prompt_tokens": 1, "completion_tokens": 1}
        return [ok, dict(ok, **{"vote": 2, "seed": 43, "pass": None, "raw": None, "error": "HTTP 500: boom"})]

    def run(first, **config):
        return make_run([{"id": f"c{i}", "response": "r", "checks": check, "judges": votes(first)} for i in range(3)],
                        labels=None, **config)
    half = write_run("runs/half.json", run(True))
    for v in load_json(half)["results"][0]["judges"][1:]:
        assert v["pass"] is None and v["error"]
    code, out, err = cli("report", half, "--min-accuracy", "1.0")
    assert code == 2 and "a judge call failed on 3 cases (c0, c1, c2)" in err, err
    worse = write_run("runs/worse.json", run(False, prompt="prompts/v2.txt"))
    code, out, err = cli("compare", half, worse, "--fail-on-regression")
    assert code == 2 and "gates not judged" in err and "(c0, c1, c2)" in err, err
    # (twentieth attack) with the judge commands that ask them again: run --resume refuses such runs
    assert ("(infrastructure, not the model); ask its failed judge calls again: python eval.py judge runs/half.json" in err
            and "; ask its failed judge calls again: python eval.py judge runs/worse.json" in err), err



def test_the_gates_say_to_fix_a_judge_call_the_server_refuses_as_sent(project, cli):
    """Round 103's leftover: a judge call refused as sent (llama-cpp-python's 500 "1 validation error") fails alike
    asked again, and the judge's own end says to fix what was sent; report's and compare's gates still called it the
    infrastructure's and sent the user to `judge RUN` alone."""
    from conftest import make_run
    check = [{"name": "helps", "type": "judge", "value": "c", "blocking": True}]
    refused = "HTTP 500: 1 validation error: {'type': 'int_parsing', 'loc': ('body', 'max_tokens')}"

    def run(error, first=True, **config):
        ok = {"check": "helps", "model": "m", "vote": 1, "seed": 42, "pass": first, "reason": None, "raw": "x",
              "error": None, "prompt_tokens": 1, "completion_tokens": 1}
        votes = [ok, dict(ok, **{"vote": 2, "seed": 43, "pass": None, "raw": None, "error": error})]
        return make_run([{"id": f"c{i}", "response": "r", "checks": check, "judges": votes} for i in range(2)],
                        labels=None, **config)
    sent = write_run("runs/sent.json", run(refused))
    code, out, err = cli("report", sent, "--min-accuracy", "1.0")
    assert code == 2 and "a judge call failed on 2 cases (c0, c1) (what was sent, not the model" in err, err
    assert "fix what was sent (the server refuses it as it is, and would again), then judge again (" in err, err
    worse = write_run("runs/worse.json", run(refused, False, prompt="prompts/v2.txt"))
    code, out, err = cli("compare", sent, worse, "--fail-on-regression")
    assert code == 2 and "(what was sent, not the model); ask its failed judge calls again once what was sent is " \
        "fixed (the server refuses it as it is, and would again): python eval.py judge runs/sent.json" in err, err
    # a passing fault beside it is the infrastructure's too, and its own advice is kept
    mixed = write_run("runs/mixed.json", run("HTTP 503: busy", False, prompt="prompts/v2.txt"))
    code, out, err = cli("compare", sent, mixed, "--fail-on-regression")
    assert code == 2 and "(what was sent and the infrastructure, not the model)" in err, err
    assert "; ask its failed judge calls again: python eval.py judge runs/mixed.json" in err, err
    code, out, err = cli("report", mixed, "--min-accuracy", "1.0")
    assert code == 2 and "(infrastructure, not the model: a verdict may rest on the votes that came); judge again (" \
        in err, err

def test_a_point_just_below_the_minimum_never_prints_as_the_minimum(project, cli, fake):
    """Issue 26, item 6: 44 of 49 is 89.8%; against --min-accuracy 0.9 it fails and says 89.8%, with
    its Wilson interval beside it (checked against scipy), never 'accuracy 90% against a minimum of 90%'."""
    import scipy.stats
    from conftest import answer_key, small_split
    split = small_split(["bug", "acceso"], [(f"t{i:02d}", "bug") for i in range(49)])
    fake.answers = answer_key(split, {f"t{i:02d}": "acceso" for i in range(5)})
    assert cli("run", "--split", split, "--host", fake.url, "--out", "runs/49.json")[0] == 0
    code, out, err = cli("report", "runs/49.json", "--min-accuracy", "0.9")
    ci = scipy.stats.binomtest(44, 49).proportion_ci(method="wilson")
    assert code == 1 and f"GATE FAILED: accuracy 89.8% (95% CI {100 * ci.low:.0f}–{100 * ci.high:.0f}%) against a " \
                         "minimum of 90%" in err
    assert "90% against" not in err and out.startswith("Accuracy: 44/49 = 90%")   # the headline alone reads no line
    code, out, err = cli("report", "runs/49.json", "--min-accuracy", "0.8979")   # nor the minimum as the figure
    assert code == 0 and "gate passed: accuracy 90% (95% CI" in err and "against a minimum of 89.79%" in err
    code, out, err = cli("report", "runs/49.json", "--min-accuracy", "0.89797")   # just over 44/49
    assert code == 1 and "GATE FAILED: accuracy 89.796% (95% CI" in err and "against a minimum of 89.797%" in err
    # the minimum as it was given, never rounded onto the figure (from the newcomer pass on issue 26:
    # 5/28 = 17.857% against 0.1786 printed 'against a minimum of 18%')
    code, out, err = cli("report", str(ROOT / "runs" / "example" / "dev-v3-schema.json"), "--min-accuracy", "0.1786")
    assert code == 1 and "GATE FAILED: accuracy 17.857% (95% CI 8–36%) against a minimum of 17.86%" in err


def test_the_minimum_never_prints_as_the_figure_it_is_read_against(project, cli):
    """From the attack pass after issue 26: each of the two kept to its side of the other, yet both
    could print alike: 2 of 3 against --min-accuracy 0.671 printed 'GATE FAILED: accuracy 67% ...
    against a minimum of 67%'; 0.675 and 70% already printed apart and still do."""
    from conftest import make_run
    path = write_run("runs/three.json", make_run([("c1", "bug", "bug"), ("c2", "bug", "bug"), ("c3", "bug", "acceso")]))
    code, out, err = cli("report", path, "--min-accuracy", "0.671")
    assert code == 1 and "GATE FAILED: accuracy 67% (95% CI 21–94%) against a minimum of 67.1%" in err
    assert "against a minimum of 67.5%" in cli("report", path, "--min-accuracy", "0.675")[2]   # as given
    assert "accuracy 67% (95% CI 21–94%) against a minimum of 70%" in cli("report", path, "--min-accuracy", "0.7")[2]
    path = write_run("runs/b.json", judged_cases([True, None, False]))   # between 1/3 and 2/3
    code, out, err = cli("report", path, "--min-accuracy", "0.671")
    assert code == 1 and "between 1/3 = 33% and 2/3 = 67% (1 undecided case) against a minimum of 67.1%" in err


def test_a_minimum_given_as_a_percentage_is_read_as_written(project, cli):
    """From the tester's pass after issue 26: '23.6%' was read as 23.6 / 100 in floats,
    0.23600000000000002, so 25 of 106 (23.58%) kept to its side of that by printing 23.6%:
    'GATE FAILED: accuracy 23.6% against a minimum of 23.6%'. 0.236 printed 23.58%."""
    from conftest import make_run
    path = write_run("runs/106.json", make_run([(f"c{i:03d}", "bug", "bug" if i < 25 else "acceso") for i in range(106)]))
    for given in ("23.6%", "0.236"):
        code, out, err = cli("report", path, "--min-accuracy", given)
        assert code == 1 and "GATE FAILED: accuracy 23.58% (95% CI 17–33%) against a minimum of 23.6%" in err, given


def test_a_minimum_with_many_digits_is_printed_with_all_of_them(project, cli):
    """From the tester's pass after issue 26: the minimum was printed with 6 significant digits, so
    9 of 10 against --min-accuracy 0.9000004 failed saying 'accuracy 90% ... against a minimum of 90%'."""
    from conftest import make_run
    path = write_run("runs/10.json", make_run([(f"c{i}", "bug", "bug" if i < 9 else "acceso") for i in range(10)]))
    code, out, err = cli("report", path, "--min-accuracy", "0.9000004")
    assert code == 1 and "GATE FAILED: accuracy 90% (95% CI 60–98%) against a minimum of 90.00004%" in err
    code, out, err = cli("report", path, "--min-accuracy", "0.8999996")
    assert code == 0 and "gate passed: accuracy 90% (95% CI 60–98%) against a minimum of 89.99996%" in err


@pytest.mark.parametrize("k, n, below, at", [
    (24, 28, "0.85714285714285715", "0.857142857142857142857142857142857142857142857"),   # attack 43: 17 digits
    (18, 23, "0.782608695652174", "78.26086956521739%"),                                 # attack 44: 15 were not enough
])
def test_a_minimum_is_read_exactly_against_the_runs_exact_share(project, cli, k, n, below, at):
    """A minimum and the run's share that are one float: the minimum just above k/n passed a run of k/n.
    Both are read exactly (ExactShare): above fails, at or under passes, with trials and undecided bounds too."""
    from conftest import make_run
    path = write_run("runs/k.json", make_run([(f"c{i:02d}", "bug", "bug" if i < k else "acceso") for i in range(n)]))
    assert float(below) == k / n   # the case in point
    code, _, err = cli("report", path, "--min-accuracy", below)
    assert code == 1
    # the message shows why: the share with the digits that put it under the minimum (both printed alike, before)
    shown, minimum = re.search(r"GATE FAILED: accuracy ([0-9.]+)% .*against a minimum of ([0-9.]+)%", err).groups()
    assert Fraction(shown) < Fraction(minimum) == Fraction(below) * 100, err
    assert cli("report", path, "--min-accuracy", at)[0] == 0
    trials = write_run("runs/t.json", make_run([(f"c{i:02d}", "bug", ["bug" if i < k else "acceso"] * 2) for i in range(n)]))
    assert cli("report", trials, "--min-accuracy", below)[0] == 1
    assert cli("report", trials, "--min-accuracy", at)[0] == 0
    # trials that differ: the mean of the cases' rates, exactly
    assert evalpy.case_mean([Fraction(1, 3), 1, 0])[0].exactly == Fraction(4, 9)


@pytest.mark.parametrize("minimum, code, shown", [
    ("0.6666666666666666666666666667", 1, "66.66666666666666666666666667%"),    # 28 digits: a traceback (exit 1) before
    ("0.8000000000000000000000000000001", 1, "80.00000000000000000000000000001%"),   # printed as 80%, failing 80%
    ("0.66666666666666666666666666666666666", 0, "66.666666666666666666666666666666666%"),   # was 6.67e+1%
    ("0.666666666666666666666666666666666666666666666666666666666666666667", 1,
     "66.6666666666666666666666666666666666666666666666666666666666666667%"),   # differs from 2/3 past 31 decimals
    ("0.0000000000000000000000000000000000001", 0, "1e-35%"),   # zeros past 24: shown short
])
def test_a_minimum_of_many_digits_is_printed_as_written_and_the_share_on_its_side(project, cli, minimum, code, shown):
    """Forty-seventh round on issue 28: Decimal's 28 digits rounded a long minimum, or failed on it."""
    from conftest import make_run
    path = write_run("runs/3.json", make_run([(f"c{i}", "bug", "bug" if i < 2 else "acceso") for i in range(3)]))
    got, _, err = cli("report", path, "--min-accuracy", minimum)
    assert got == code and f"against a minimum of {shown}" in err, err
    share = re.search(r"accuracy ([0-9.]+)%", err).group(1)
    assert (Fraction(share) / 100 < Fraction(minimum)) == (Fraction(2, 3) < Fraction(minimum)), err


def test_a_minimum_past_the_digits_python_converts_is_refused(project, cli, capsys):
    """Forty-seventh round on issue 28: past Python's 4,300 digits the minimum's float was read, not what was written."""
    with pytest.raises(SystemExit) as e:
        cli("report", "runs/x.json", "--min-accuracy", "0." + "6" * 5000)
    assert e.value.code == 2 and "(5,002 characters): give an accuracy with at most 4,000 digits" in capsys.readouterr().err
    with pytest.raises(SystemExit):   # (48th) the limit said is the limit kept: 4,102 characters were read
        cli("report", "runs/x.json", "--min-accuracy", "0." + "6" * 4100)
    assert "(4,102 characters): give an accuracy with at most 4,000 digits" in capsys.readouterr().err


def test_a_gate_over_a_run_of_no_case_says_so(project, cli):
    """Forty-eighth round on issue 28: a run of no case (an older eval.py wrote one for `--cases ,`) was told to
    judge again, though it has no judge."""
    from conftest import make_run
    run = make_run([("c0", "bug", "bug")])
    run["results"], run["config"]["cases"], run["config"]["subset"] = [], 0, {"cases": []}
    path = write_run("runs/none.json", run)
    code, out, err = cli("report", path, "--min-accuracy", "0.5")
    assert code == 2 and "gates not judged: runs/none.json holds no case; run the split again" in err, err
    run["config"]["temperature"] = 0.5   # another run of no case: two such were compared, 0/0, the gate sent to a judge
    code, out, err = cli("compare", path, write_run("runs/none2.json", run), "--fail-on-regression")
    assert code == 2 and ("refusing to compare: runs/none.json (the baseline) and runs/none2.json (the candidate) "
                          "hold no case; run the split again") in err, err
    full = write_run("runs/full.json", make_run([("c0", "bug", "bug")]))   # (fifty-first) one of them: the file is named
    for pair, says in (((full, path), "runs/none.json (the candidate) holds no case"),
                       ((path, full), "runs/none.json (the baseline) holds no case")):
        for view in ([], ["--html", "c.html"]):
            code, out, err = cli("compare", *pair, *view)
            assert code == 2 and f"refusing to compare: {says}; run the split again" in err and "Traceback" not in err, err


def test_with_undecided_cases_the_gate_reads_the_bound_that_matters(project, cli):
    """c0 to c2 pass, c3 fails, c4 and c5 are undecided: between 3/6 and 5/6. A minimum at or under
    the low bound passes whatever the judge says, one over the high bound fails whatever it says;
    between, the undecided cases decide and the gate cannot judge (exit 2, saying the bounds)."""
    path = write_run("runs/b.json", judged_cases([True, True, True, False, None, None]))
    for minimum, code, says in ((0.5, 0, "gate passed"), (0.6, 2, "gates not judged"), (0.85, 1, "GATE FAILED")):
        got, _, err = cli("report", path, "--min-accuracy", minimum)
        assert got == code, (minimum, err)
        assert f"{says}: pass rate between 3/6 = 50% and 5/6 = 83% (2 undecided cases) against a minimum of" in err
    # (its judge recorded, at temperature 0 with a seed: asked again its votes come back alike)
    assert f"{evalpy.PERSON_READS}, or a judge asked otherwise" in cli("report", path, "--min-accuracy", 0.6)[2]
    code, out, err = cli("report", path, "--min-accuracy", 0.83)   # 5/6 is 83.3%: never 83% against 83%
    assert code == 2 and "5/6 = 83.3% (2 undecided cases) against a minimum of 83%" in err


def test_with_trials_the_regression_gate_says_it_reads_the_majority_vote(project, cli):
    """From the newcomer pass on issue 26: twenty cases falling from 5/5 to 3/5 passed
    --fail-on-regression with 'gate passed: 0 regression(s)', nothing saying the gate reads the vote."""
    from conftest import make_run, write_run
    a = write_run("runs/all5.json", make_run([(f"c{i:02d}", "bug", ["bug"] * 5) for i in range(20)]))
    b = write_run("runs/drop.json", make_run([(f"c{i:02d}", "bug", ["bug"] * 3 + ["no sé"] * 2) for i in range(20)],
                                             prompt="prompts/v2.txt"))
    code, out, err = cli("compare", a, b, "--fail-on-regression")
    assert code == 0
    assert ("gate passed: 0 regression(s) (by majority vote; pass rate fell on 20 cases: --fail-if-worse reads "
            "the rates)") in err
    code, out, err = cli("compare", a, b, "--fail-if-worse")
    assert code == 1 and "GATE FAILED: significantly worse? yes (−40.0 points" in err


def test_every_gate_asked_gets_its_verdict_when_another_fails(tagged_run, dev_run, worse_run, cli):
    """From the second newcomer pass on issue 31: with one gate failing, the ones that passed were
    not printed, so CI could not tell a passed gate from one never evaluated. Each gate's verdict,
    passed or failed, on stderr and in --json, in the order the gates are read; exit 1."""
    import json
    code, out, err = cli("report", tagged_run, "--min-accuracy", "0.99", "--must-pass", "injection")
    lines = [line for line in err.splitlines() if line.startswith(("GATE FAILED: ", "gate passed: "))]
    assert code == 1 and [line.split(":")[0] for line in lines] == ["GATE FAILED", "gate passed"], err
    assert "GATE FAILED: accuracy" in lines[0] and lines[1].startswith("gate passed: must-pass 'injection': 2 of 2")
    code, out, err = cli("report", tagged_run, "--json", "--min-accuracy", "0.99", "--must-pass", "injection")
    assert code == 1 and [v.split(":")[0] for v in json.loads(out)["gates"]["verdicts"]] == ["GATE FAILED", "gate passed"]
    code, out, err = cli("compare", dev_run, worse_run, "--fail-on-regression", "--fail-if-worse")
    assert code == 1 and "GATE FAILED: 6 regression(s)" in err, err
    assert "gate passed: significantly worse? no" in err
    assert err.index("GATE FAILED: 6 regression(s)") < err.index("gate passed: significantly worse? no")


def test_a_report_whose_reader_left_still_exits_with_its_gate(dev_run):
    """`report RUN --min-accuracy 0.9 | head -1` exited 0: the closed stdout was read as success and
    the failed gate never said. The report's reader going away changes nothing of the exit code."""
    import os
    import subprocess
    import sys
    proc = subprocess.Popen([sys.executable, str(ROOT / "eval.py"), "report", str(dev_run), "--min-accuracy", "0.9"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={k: v for k, v in os.environ.items() if k != "OLLAMA_HOST"})
    proc.stdout.close()
    err = proc.stderr.read()
    assert proc.wait(timeout=60) == 1 and "GATE FAILED: accuracy 89%" in err and "Traceback" not in err


def test_a_gate_over_part_of_the_split_says_so_on_its_line(dev_run, worse_run, cli):
    """Sixty-second attack on issue 28: `report --must-pass` over a run of chosen cases said "gate passed: must-pass
    'rt': 1 of 1 case pass every trial" while the split's other case of that tag, never asked, fails; the gate's line
    is what a CI log keeps, and it did not say the run was partial (nor did compare's)."""
    part = load_json(worse_run)
    chosen = ["dev-01", "dev-02", "dev-03"]
    part["results"] = [r for r in part["results"] if r["id"] in chosen]
    part["config"].update(cases=3, subset={"cases": chosen})
    write_run("runs/part.json", part)
    code, out, err = cli("report", "runs/part.json", "--min-accuracy", "0.1")
    assert code == 0 and re.search(r"gate passed: accuracy .* against a minimum of 10% \(only part of the split: "
                                   r"3 chosen cases, --cases\)", err), err
    code, out, err = cli("compare", dev_run, "runs/part.json", "--fail-on-regression", "--fail-if-worse")
    assert code == 1 and err.count("(only part of the split: 3 chosen cases, --cases)") == 2, err
    code, out, err = cli("report", dev_run, "--min-accuracy", "0.1")   # a whole run's line says nothing of it
    assert code == 0 and "part of the split" not in err, err


def test_answers_left_open_inside_decided_cases_are_advised_by_the_run_that_holds_them(project, cli):
    """Round 123: answers a judge left open in cases whose majority still stands (open to the gates all the same) got
    "judge them again: python eval.py judge RUN", naming no run (in a table of three, not even the one holding them),
    where report says their votes would come back alike."""
    def run(path, spec, prompt):
        return judged_trials(path, spec, prompt=prompt)
    d = run("runs/d.json", "|".join(["T T T"] * 5), "prompts/v1.txt")
    e = run("runs/e.json", "|".join(["T T N"] * 5), "prompts/v2.txt")
    code, out, err = cli("compare", d, e, "--fail-if-worse")
    assert code == 2 and "asked again, their votes would come back alike: runs/e.json: a person reads them" in err \
        and "judge RUN" not in err, err
    a = run("runs/a.json", "|".join(["T T T"] * 10), "prompts/v1.txt")
    b = run("runs/b.json", "|".join(["F F F"] * 5 + ["T T T"] * 5), "prompts/v2.txt")
    c = run("runs/c.json", "T T N|T T F|T T T|T F F|T T T|T T F|T T T|F F F|T T F|T T T", "prompts/v3.txt")
    code, out, err = cli("compare", a, b, c, "--fail-if-worse")
    assert code == 2 and "runs/c.json: a person reads them" in err and "judge RUN" not in err, err
