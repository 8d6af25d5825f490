"""--repeat K: every trial kept, the report's trial figures, resume and --jobs with trials."""

import json
import threading
from collections import Counter
from pathlib import Path

import pytest

from conftest import LABELS, answer_key, evalpy, load_json, make_run, small_split, write_run

# id, expected, the model's answer in trials 1, 2 and 3
SCRIPT = [
    ("c1", "bug", ["bug", "bug", "bug"]),
    ("c2", "acceso", ["acceso", "bug", "acceso"]),
    ("c3", "petición", ["bug", "bug", "petición"]),
    ("c4", "facturación", ["Categoría: facturación", "facturación", "bug"]),
]


def by_trial(fake, script):
    """Make the fake answer the n-th request for an input with the n-th scripted answer."""
    answers = {f"ticket {cid}": trials for cid, _, trials in script}
    seen, lock = Counter(), threading.Lock()

    def answer(text):
        with lock:
            n = seen[text]
            seen[text] += 1
        return answers[text][n % len(answers[text])]
    fake.default_answer = answer


def script_cases(script):
    return [{"id": cid, "expected": expected, "response": list(trials)} for cid, expected, trials in script]


@pytest.fixture
def trial_run(project):
    return write_run("runs/s-v2.json", make_run(script_cases(SCRIPT), prompt="prompts/v2.txt"))


def test_every_trial_is_kept_with_its_number(project, cli, fake):
    split = small_split(LABELS, [(cid, expected) for cid, expected, _ in SCRIPT])
    by_trial(fake, SCRIPT)
    code, out, err = cli("run", "--split", split, "--prompt", "prompts/v2.txt",
                         "--host", fake.url, "--repeat", 3)
    assert code == 0, err
    run = load_json("runs/small-s-v2.json")
    assert run["config"]["repeat"] == 3
    assert [(r["id"], r["trial"]) for r in run["results"]] == [(c, t) for c, _, _ in SCRIPT for t in (1, 2, 3)]
    assert [r["response"] for r in run["results"] if r["id"] == "c4"] == SCRIPT[3][2]


def test_trial_figures_by_hand(trial_run, cli):
    s = json.loads(cli("report", trial_run, "--json")[1])
    assert [(t["correct"], t["scored"], t["invalid"]) for t in s["trials"]] == [(2, 4, 1), (2, 4, 0), (3, 4, 0)]
    assert s["trials"][2]["ci"] == list(evalpy.wilson(3, 4))
    assert s["mean_accuracy"] == pytest.approx((0.5 + 0.5 + 0.75) / 3)
    assert (s["correct"], s["scored"]) == (2, 4)          # majority: c1 and c2 right, c3 wrong, c4 a tie
    assert (s["invalid"], s["answers"]) == (1, 12)
    # c = 3, 2, 1, 1 passes of n = 3 trials
    expected = {1: (7 / 12, 7 / 12), 2: (5 / 6, 1 / 3), 3: (1.0, 1 / 4)}
    for p in s["pass_k"]:
        assert (p["pass_at_k"], p["pass_hat_k"]) == pytest.approx(expected[p["k"]]), p
        assert p["cases"] == 4
    assert [f["id"] for f in s["flaky"]] == ["c2", "c3", "c4"]
    assert [a["predicted"] for a in s["flaky"][2]["answers"]] == ["INVALID", "facturación", "bug"]
    assert s["confusion"]["facturación"] == {"facturación": 1, "bug": 1, "acceso": 0, "petición": 0, "INVALID": 1}
    assert [(f["id"], f["got"]) for f in s["failures"]] == [("c3", "bug | bug | petición"),
                                                            ("c4", "INVALID | facturación | bug")]


def test_pass_at_k_rows_over_other_cases_say_so(project, cli):
    """Sixty-seventh attack on issue 28: a trial that errored leaves its case out of the larger k, and pass@2 = 0.75
    over 8 cases above pass@3 = 0.67 over 6 read as pass@k falling as k grows, on what seemed one set of cases."""
    cases = [("c1", "bug", ["bug", "bug", "bug"]), ("c2", "bug", ["bug", "acceso", None]), ("c3", "bug", ["acceso", "bug", "bug"])]
    write_run("runs/e.json", make_run(cases, prompt="prompts/v2.txt"))
    s = json.loads(cli("report", "runs/e.json", "--json")[1])
    assert [(p["k"], p["cases"]) for p in s["pass_k"]] == [(1, 3), (2, 3), (3, 2)]
    note = "Rows count cases with at least k trials decided (3 to 2): a trial that errored or was not scored leaves " \
           "its case out of the larger k, so the rows are not one set of cases"
    assert note in cli("report", "runs/e.json")[1]
    assert cli("report", "runs/e.json", "--html", "e.html")[0] == 0 and note in open("e.html", encoding="utf-8").read()
    write_run("runs/s.json", make_run(script_cases(SCRIPT), prompt="prompts/v2.txt"))
    assert "Rows count cases" not in cli("report", "runs/s.json")[1]


def test_a_majority_its_failed_trials_could_turn_is_no_verdict_in_the_report(project, cli):
    """Round 87 on issue 28: a right, a failed and a wrong trial made an even split of the two that came, so a fail;
    the report counted the case wrong in the majority vote and listed it under Failures, though the failed request
    alone decided it (compare, rightly, left it out: Not compared). Left out of every majority figure, and named."""
    cases = [("a1", "bug", ["bug", None, "acceso"]), ("a2", "bug", ["bug", None, "acceso"]),
             ("a3", "bug", ["bug", "bug", None]), ("a4", "bug", ["acceso", "acceso", None])]
    path = write_run("runs/e.json", make_run(cases, prompt="prompts/v2.txt"))
    s = json.loads(cli("report", path, "--json")[1])
    assert (s["correct"], s["scored"], s["decided_cases"]) == (1, 2, 4) and s["majority_open"] == ["a1", "a2"]
    assert [f["id"] for f in s["failures"]] == ["a4"] and s["by_difficulty"]["easy"]["total"] == 2
    assert s["mean_accuracy"] == pytest.approx((0.5 + 0.5 + 1 + 0) / 4)   # the mean reads every trial that came
    lines = cli("report", path)[1].splitlines()
    assert lines[0].endswith("the mean over 4 cases of each case's pass rate over its trials")
    assert lines[1].startswith("Majority vote of each case's trials: 1/2 = 50%  (95% CI ") and lines[1].endswith(
        "), leaving out 2 cases whose trials without a verdict could turn it: a1, a2")
    assert "Failures (1):" in lines
    assert "leaving out 2 cases whose trials without a verdict could turn it: `a1`, `a2`" in cli(
        "report", path, "--markdown")[1]
    assert cli("report", path, "--html", "e.html")[0] == 0
    assert "leaving out 2 cases whose trials without a verdict could turn it: a1, a2" in open("e.html", encoding="utf-8").read()
    # decided either way however the failed trial would have gone: counted, as before
    write_run("runs/d.json", make_run(cases[2:], prompt="prompts/v2.txt"))
    s = json.loads(cli("report", "runs/d.json", "--json")[1])
    assert (s["correct"], s["scored"], s["majority_open"]) == (1, 2, []) and "leaving out" not in cli("report", "runs/d.json")[1]
    # (round 88) every case left out: the text still gives the mean, the baseline and the cases left out, as the others do
    write_run("runs/all.json", make_run(cases[:2], prompt="prompts/v2.txt"))
    lines = cli("report", "runs/all.json")[1].splitlines()
    assert lines[0] == "Accuracy: 50%, the mean over 2 cases of each case's pass rate over its trials" and lines[1] == (
        "Majority vote of each case's trials: 0/0 = -, leaving out 2 cases whose trials without a verdict could turn it: a1, a2")
    assert lines[3].startswith("Majority baseline (always 'bug'): 2/2 = 100%")
    assert "Majority baseline" in cli("report", "runs/all.json", "--markdown")[1]


def test_trial_report_text(trial_run, cli):
    out = cli("report", trial_run)[1]
    lines = out.splitlines()
    # per-case rates 1, 2/3, 1/3, 1/3: t with 3 df reaches past 100%, cut there
    assert lines[0] == "Accuracy: 58%  (95% CI 8–100%), the mean over 4 cases of each case's pass rate over its trials"
    assert lines[1] == "Majority vote of each case's trials: 2/4 = 50%  (95% CI 15–85%)"
    assert lines[2] == "Each trial alone: trial 1: 2/4 = 50% · trial 2: 2/4 = 50% · trial 3: 3/4 = 75%"
    assert lines[4] == "Invalid answers: 1 of 12 (trial 1: 1 · trial 2: 0 · trial 3: 0)"
    assert "  trial 3  3/4 = 75%  95% CI 30–95%" in lines
    assert "  k  pass@k  pass^k  cases" in lines
    assert "  2    0.83    0.33      4" in lines
    assert "Flaky cases (3, trials disagree):" in lines
    assert '  c4 (expected facturación): INVALID "Categoría: facturación" | facturación | bug' in lines
    assert "  c2 (expected acceso): acceso | bug | acceso" in lines


def test_resume_with_trials_asks_only_the_missing_trials(project, cli, fake):
    assert cli("run", "--split", "dev", "--host", fake.url, "--repeat", 2)[0] == 0
    run = load_json("runs/dev-v3.json")
    (project / "runs" / "dev-v3.json").unlink()
    keep = run["results"][:17]
    lines = [json.dumps({"format": evalpy.RUN_FORMAT, "config": run["config"]})]
    lines += [json.dumps({k: r[k] for k in ("id", "trial") + evalpy.CALL_FIELDS}) for r in keep]
    (project / "runs" / "dev-v3.json.journal").write_text("\n".join(lines) + "\n")
    fake.chat_bodies.clear()
    code, out, err = cli("run", "--resume", "runs/dev-v3.json", "--host", fake.url)
    assert code == 0, err
    assert len(fake.chat_bodies) == 56 - 17
    assert "resuming runs/dev-v3.json: 17 answers kept, 39 to ask" in err
    assert [(r["id"], r["trial"]) for r in load_json("runs/dev-v3.json")["results"]] == \
        [(r["id"], r["trial"]) for r in run["results"]]


def test_jobs_with_trials_gives_the_same_run(project, cli, fake):
    fake.answers = answer_key("golden/dev.jsonl", {"dev-02": "bug"})
    assert cli("run", "--split", "dev", "--host", fake.url, "--repeat", 3, "--out", "runs/a.json")[0] == 0
    assert cli("run", "--split", "dev", "--host", fake.url, "--repeat", 3, "--jobs", 6, "--out", "runs/b.json")[0] == 0
    a, b = load_json("runs/a.json"), load_json("runs/b.json")
    strip = lambda run: [{k: v for k, v in r.items() if k not in ("latency_ms", "prompt_eval_duration_ns")} for r in run["results"]]   # durations: the second run finds its prompts cached
    assert strip(a) == strip(b) and len(a["results"]) == 84


def test_compare_counts_identical_raw_answers(trial_run, cli):
    script = [(c, e, list(t)) for c, e, t in SCRIPT]
    script[1][2][1] = "acceso"            # c2 trial 2 now right: 11 of 12 answers identical
    other = write_run("runs/s-v2-2.json", make_run(script_cases(script), prompt="prompts/v2.txt"))
    c = json.loads(cli("compare", trial_run, other, "--json")[1])
    assert (c["identical_answers"], c["paired_answers"]) == (11, 12)
    assert c["majority_vote"] is True and c["fixed"] == [] and c["regressions"] == []
    out = cli("compare", trial_run, other)[1]
    assert "Identical raw answers: 11 of 12" in out
    # per case (the unit with trials): c1 3/3, c2 2/3 then 3/3, c3 1/3, c4 1/3; scipy's t interval of each mean
    import scipy.stats
    ci = [scipy.stats.ttest_1samp(rates, 0).confidence_interval() for rates in ([1, 2 / 3, 1 / 3, 1 / 3], [1, 1, 1 / 3, 1 / 3])]
    assert [c["baseline"]["accuracy"], c["candidate"]["accuracy"]] == pytest.approx([7 / 12, 8 / 12])
    assert c["baseline"]["ci"] + c["candidate"]["ci"] == pytest.approx([ci[0].low, 1, ci[1].low, 1])   # capped at 100%
    assert "Accuracy (mean of each case's pass rate): 58% (95% CI 8–100%) -> 67% (95% CI 5–100%)" in out
    assert "Pass rate rose on 1, fell on 0 cases" in out


def test_repeat_is_refused_with_resume(project, cli):
    code, out, err = cli("run", "--resume", "runs/x.json", "--repeat", 2)
    assert code == 2 and "--resume takes its split" in err


def test_every_section_follows_the_majority_of_verdicts(project, cli):
    """dev-12 of the issue: 2 of 5 trials right, the plurality label right. The verdict (the
    majority of the trials' verdicts) is a failure; no section may show the case as right: the
    failure list shows every trial's label, the confusion matrix counts trials and says so, and
    compare follows the verdict."""
    runs = {"a": ["acceso", "acceso", "facturación", "bug", "petición"], "b": ["acceso"] * 5}
    for name, answers in runs.items():
        write_run(f"runs/{name}.json", make_run([("c1", "acceso", answers), ("c2", "bug", ["bug"] * 5)]))
    code, out, err = cli("report", "runs/a.json", "--json")
    s = json.loads(out)
    assert s["correct"] == 1 and [f["id"] for f in s["failures"]] == ["c1"]
    assert s["failures"][0]["got"] == "acceso | acceso | facturación | bug | petición"
    assert s["confusion"]["acceso"] == {"facturación": 1, "bug": 1, "acceso": 2, "petición": 1, "INVALID": 0}
    assert s["confusion"]["bug"]["bug"] == 5 and s["per_label"]["acceso"]["support"] == 5
    assert s["baseline"]["total"] == 2   # cases, as accuracy: the baseline is a case-level figure
    text = cli("report", "runs/a.json")[1]
    assert "Confusion matrix (rows expected, columns predicted; every trial counted):" in text
    assert "Per label (every trial counted):" in text
    assert "  c1  easy        acceso    acceso | acceso | facturación | bug | petición" in text
    c = json.loads(cli("compare", "runs/b.json", "runs/a.json", "--json")[1])
    assert c["regressions"] == ["c1"] and c["fixed"] == []


# --- the headline with trials: the case is the unit (issue 26, item 9)

# passing trials of 4 for twelve cases: spread enough that the interval stays inside 0-100%
PASSES = [2, 2, 3, 4, 0, 0, 4, 4, 1, 1, 4, 2]


def passes_run(passes, trials=4, errors=()):
    """Case k{i} passes its first passes[i] trials of `trials` and fails the rest; (case, trial)
    in errors got no usable answer."""
    cases = [{"id": f"k{i}", "expected": "bug",
              "response": [None if (i, t) in errors else "bug" if t <= p else "acceso" for t in range(1, trials + 1)]}
             for i, p in enumerate(passes)]
    return write_run("runs/k.json", make_run(cases, prompt="prompts/v2.txt"))


def test_the_headline_with_trials_is_a_cluster_robust_mean_by_case(project, cli):
    """The mean of each case's pass rate, 95% interval from Student's t with n - 1 df on the rates.
    Checked against statsmodels' OLS of every answer's 0/1 on a constant, clustered by case:
    its point is the mean of all answers (the mean per case when every case has as many trials);
    its variance, sum over cases of (K * (rate - mean))^2 / (nK)^2, is multiplied by its small-sample
    correction G/(G-1) * (N-1)/(N-k) with N = nK answers, k = 1 regressor, G = n clusters, which is
    n/(n-1): exactly sd(rates)^2 / n. With use_t its t has G - 1 = n - 1 df (df_resid_inference).
    And against scipy's one-sample t interval on the rates."""
    sm = pytest.importorskip("statsmodels.api", reason="pip install -r requirements-dev.txt")
    import numpy as np
    import scipy.stats
    s = json.loads(cli("report", passes_run(PASSES), "--json")[1])
    answers = np.array([1.0 if t <= p else 0.0 for p in PASSES for t in range(1, 5)])
    cluster = np.repeat(np.arange(len(PASSES)), 4)
    ols = sm.OLS(answers, np.ones_like(answers)).fit(cov_type="cluster", cov_kwds={"groups": cluster}, use_t=True)
    assert ols.df_resid_inference == len(PASSES) - 1
    assert s["mean_accuracy"] == pytest.approx(ols.params[0], rel=1e-12)
    assert s["mean_accuracy_ci"] == pytest.approx(list(ols.conf_int()[0]), rel=1e-9)
    rates = [p / 4 for p in PASSES]
    ci = scipy.stats.ttest_1samp(rates, 0).confidence_interval()
    assert s["mean_accuracy_ci"] == pytest.approx([ci.low, ci.high], rel=1e-9)
    # the majority vote stays, as a figure of its own: 4, 3 and 3 of 4 pass; 2 of 4 is a split, no pass
    assert (s["correct"], s["scored"]) == (5, 12)
    out = cli("report", "runs/k.json")[1].splitlines()
    low, high = (f"{100 * x:.0f}" for x in (ci.low, ci.high))
    assert out[0] == f"Accuracy: 56%  (95% CI {low}–{high}%), the mean over 12 cases of each case's pass rate over its trials"
    assert out[1].startswith("Majority vote of each case's trials: 5/12 = 42%")


def test_with_fewer_decided_trials_a_case_still_counts_once(project, cli):
    """An error leaves k0 with 3 decided trials: the mean per case weighs it as one case (its rate
    2/3), where the mean of the trials' accuracies would not. Checked against scipy on the rates."""
    import scipy.stats
    s = json.loads(cli("report", passes_run(PASSES, errors={(0, 4)}), "--json")[1])
    rates = [2 / 3] + [p / 4 for p in PASSES[1:]]
    ci = scipy.stats.ttest_1samp(rates, 0).confidence_interval()
    assert s["mean_accuracy"] == pytest.approx(sum(rates) / len(rates), rel=1e-12)
    assert s["mean_accuracy_ci"] == pytest.approx([ci.low, ci.high], rel=1e-9)
    by_trial = [t["accuracy"] for t in s["trials"]]
    assert s["mean_accuracy"] != pytest.approx(sum(by_trial) / len(by_trial))


def test_the_interval_is_cut_to_what_a_rate_can_be(trial_run, cli):
    """Rates 1, 2/3, 1/3, 1/3: scipy's t interval reaches past 1; a pass rate cannot."""
    import scipy.stats
    s = json.loads(cli("report", trial_run, "--json")[1])
    ci = scipy.stats.ttest_1samp([1, 2 / 3, 1 / 3, 1 / 3], 0).confidence_interval()
    assert ci.high > 1 and s["mean_accuracy_ci"] == [pytest.approx(ci.low, rel=1e-9), 1.0]
    one = write_run("runs/one.json", make_run([("c1", "bug", ["bug", "acceso"])]))
    s = json.loads(cli("report", one, "--json")[1])   # one case: no spread to read, no interval
    assert s["mean_accuracy"] == 0.5 and s["mean_accuracy_ci"] == [None, None]
    assert cli("report", one)[1].startswith("Accuracy: 50%, the mean over 1 case of each case's pass rate")


def judged_trials(verdicts):
    """Free-text cases j0, j1, ... with a judge check, one trial per verdict: True, False, or None
    (an unreadable verdict: undecided)."""
    check = [{"name": "helps", "type": "judge", "value": "c", "blocking": True}]
    run = make_run([{"id": f"j{i}", "response": ["r"] * len(v), "checks": check} for i, v in enumerate(verdicts)],
                   labels=None)
    for r in run["results"]:
        v = verdicts[int(r["id"][1:])][r["trial"] - 1]
        r["judges"] = [{"check": "helps", "model": "m", "vote": 1, "seed": 42, "pass": v, "reason": None, "raw": "x",
                        "error": None, "prompt_tokens": 1, "completion_tokens": 1}]
    run["config"]["judge"] = {"models": ["m"], "votes": 1, "temperature": 0.0, "seed": 42}   # (as eval.py records it)
    return run


def test_undecided_trials_bound_the_mean_per_case(project, cli):
    """j0 passes 2 of 3 with one undecided (2/3 to 3/3), j1 fails one of 3 with two undecided (0 to
    2/3), j2 passes 3 of 3, j3 1 of 3: the bounds are the means of those rates, by hand."""
    path = write_run("runs/j.json", judged_trials([[True, True, None], [False, None, None], [True] * 3,
                                                   [False, False, True]]))
    s = json.loads(cli("report", path, "--json")[1])
    low, high = (2 / 3 + 0 + 1 + 1 / 3) / 4, (1 + 2 / 3 + 1 + 1 / 3) / 4
    assert s["bounds"] == {"low": pytest.approx(low), "high": pytest.approx(high), "low_count": None,
                           "high_count": None, "of": 4, "undecided_cases": 2, "undecided_answers": 3}
    assert s["mean_accuracy"] == pytest.approx((1 + 0 + 1 + 1 / 3) / 4)   # the decided trials alone
    lines = cli("report", path)[1].splitlines()
    assert lines[0] == ("Pass rate: between 50% and 75% (3 undecided answers in 2 cases, failing for the low bound "
                        "and passing for the high; the mean over 4 cases of each case's pass rate)")
    assert lines[1].startswith("Pass rate on the decided answers: 58%  (95% CI ")
    for minimum, code, says in ((0.5, 0, "gate passed"), (0.6, 2, "gates not judged"), (0.76, 1, "GATE FAILED")):
        got, _, err = cli("report", path, "--min-accuracy", minimum)
        assert got == code and f"{says}: pass rate between 50% and 75% (3 undecided answers in 2 cases)" in err


def test_trials_that_always_agree_get_the_interval_of_a_proportion_never_one_of_no_width(project, cli):
    """From the newcomer pass on issue 26: every case passing all five trials printed 'Accuracy:
    100% (95% CI 100–100%)'. A t interval on 0s and 1s is Wald's; the cases' verdicts take Wilson's."""
    import scipy.stats
    cases = [(f"c{i:02d}", "bug", ["bug"] * 5) for i in range(20)] + [("c99", "bug", ["no sé"] * 5)]
    run = write_run("runs/all5.json", make_run(cases))
    s = json.loads(cli("report", run, "--json")[1])
    assert s["mean_accuracy"] == pytest.approx(20 / 21)
    assert s["mean_accuracy_ci"] == pytest.approx(list(scipy.stats.binomtest(20, 21).proportion_ci(method="wilson")))
    same = write_run("runs/same.json", make_run([(f"c{i:02d}", "bug", ["bug"] * 3 + ["no sé"] * 2) for i in range(6)]))
    s = json.loads(cli("report", same, "--json")[1])
    assert s["mean_accuracy"] == pytest.approx(0.6) and s["mean_accuracy_ci"] == [None, None]   # every case alike


def test_the_readme_says_which_interval_trials_that_always_agree_get():
    """From the tester's pass after issue 26: the README's report section still said that trials
    that always agree get 'the normal approximation of a proportion', after the headline took
    Wilson's interval on the cases' verdicts (test above)."""
    from conftest import ROOT
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = " ".join(text[text.index("**Trials: the case is the unit.**"):].split("\n\n")[0].split())
    assert "the interval is Wilson's on them, as with one answer" in section
    assert "the interval is the normal approximation of a proportion" not in section


def test_a_compare_with_trials_says_how_many_answers_no_judge_decided(project, cli):
    """From the last attack pass on issue 26: a case with some trials a judge left open was compared on
    its decided trials alone, and nothing in compare said any were left out (report leads with bounds)."""
    a = write_run("runs/j.json", judged_trials([[True, True, None], [False, None, None], [True] * 3, [False, False, True]]))
    run = judged_trials([[True] * 3, [False, True, True], [True, True, None], [True, False, True]])
    run["config"]["prompt"] = "prompts/v2.txt"
    b = write_run("runs/k.json", run)
    c = json.loads(cli("compare", a, b, "--json")[1])
    # (69th attack) the second case, a fail and two trials open, could turn either way: not compared; of the compared,
    # 1 open in the baseline, 1 in the candidate
    assert c["undecided_answers"] == 2 and len(c["not_compared"]) == 1, c
    out = cli("compare", a, b)[1]
    assert "Pass rate (mean of each case's pass rate, on the 3 cases both runs decided, 2 answers without a verdict left " \
           "out of their cases' rates):" in out
    assert "2 answers without a verdict left out" in cli("compare", a, b, "--markdown")[1]


def test_trials_are_samples_not_copies_each_asked_with_its_own_seed(project, cli):
    """Newcomer pass N15: `--temperature 0.7 --repeat 5` showed 0 flaky cases on the fake, and so it
    would on Ollama: every trial was sent seed 42, and a seed of 0 or more makes Ollama's sampling the
    same for the same request (x/mlxrunner/sample/sample.go; the fake follows it, sampling()). Trial t
    is now asked with seed + t - 1, recorded as trial_seeds, as a judge's votes are; a seed below 0
    sends none, and each request samples afresh. At temperature 0 the trials stay alike."""
    from fake_ollama import shipped_fake

    def trials(*options):
        fake = shipped_fake("golden", latency=0).start()
        try:
            code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--out", "runs/r.json",
                                 *(["--repeat", "5"] if "--repeat" not in options else []), *options)
        finally:
            fake.stop()
        assert code == 0, err
        run = load_json("runs/r.json")
        (project / "runs" / "r.json").unlink()
        by_case = {}
        for r in run["results"]:
            by_case.setdefault(r["id"], set()).add(r["response"])
        return [r["response"] for r in run["results"]], run, fake.chat_bodies, [c for c, said in by_case.items() if len(said) > 1]

    answers, run, bodies, flaky = trials("--temperature", "0.7")
    assert run["config"]["trial_seeds"] is True and run["config"]["seed"] == 42
    assert sorted({b["options"]["seed"] for b in bodies}) == [42, 43, 44, 45, 46]
    assert 2 <= len(flaky) <= 14, flaky                      # some cases waver, most answer alike every time
    assert trials("--temperature", "0.7")[0] == answers      # the same seeds: the same answers, a rerun alike
    # (73rd attack) no seed is sent: -3 went out as -3 to every trial, which llama.cpp (behind Ollama) takes as a seed
    for seed in ("-1", "-3"):
        fresh = trials("--temperature", "0.7", "--seed", seed)
        assert [b["options"].get("seed", "none") for b in fresh[2]] == ["none"] * 140 and 2 <= len(fresh[3]) <= 14
        assert fresh[1]["config"]["seed"] == int(seed)
    assert trials("--temperature", "0")[3] == []             # temperature 0: the likeliest answer every time
    # one answer per case records nothing new: its config is what it always was
    assert "trial_seeds" not in trials("--temperature", "0.7", "--repeat", "1")[1]["config"]


def test_a_run_made_before_trial_seeds_is_resumed_with_the_seed_it_was_asked_with():
    """A run file without trial_seeds asked every trial with its seed; a resume of one goes on so,
    or its trials would be asked two ways."""
    old = {"temperature": 0.7, "seed": 42}
    assert evalpy.case_options(old, 3)["seed"] == 42
    assert evalpy.case_options(dict(old, trial_seeds=True), 3)["seed"] == 44
    assert evalpy.case_options({"temperature": 0.7, "seed": -1, "trial_seeds": True}, 3)["seed"] == -1
    # (73rd attack) past 2^31 - 1, the largest seed the README allows, the seeds go on from 0 (2147483648 was sent)
    assert [evalpy.case_options({"temperature": 0.7, "seed": 2 ** 31 - 2, "trial_seeds": True}, t)["seed"]
            for t in (1, 2, 3, 4)] == [2 ** 31 - 2, 2 ** 31 - 1, 0, 1]


def test_a_mean_exactly_at_the_gate_passes_and_no_change_is_none(project, cli):
    """Thirty-seventh round on issue 28: the mean of the cases' pass rates was summed in floats, each rate
    (4/5) already rounded: 34 of 50 trials, exactly 68%, came out 0.6799999999999999 and failed
    --min-accuracy 0.68 (exit 1, "GATE FAILED: accuracy 67.99999999999999%"); and two runs of the same mean
    (2/3 and 2/3 against 3/3 and 1/3) differed by 5.6e-17, printed "+<0.0001 points"."""
    path = passes_run([4, 5, 3, 5, 5, 5, 1, 1, 2, 3], trials=5)
    code, out, err = cli("report", path, "--min-accuracy", "0.68", "--json")
    assert json.loads(out)["mean_accuracy"] == 0.68 and code == 0, err
    assert cli("report", path, "--min-accuracy", "0.6801")[0] == 1   # and a hair above it fails
    cases = [{"id": "a", "expected": "bug", "response": ["bug", "bug", "acceso"]},
             {"id": "b", "expected": "bug", "response": ["bug", "bug", "acceso"]}]
    write_run("runs/before.json", make_run(cases, prompt="prompts/v2.txt"))
    cases[0]["response"], cases[1]["response"] = ["bug"] * 3, ["bug", "acceso", "acceso"]
    write_run("runs/after.json", make_run(cases))
    change = json.loads(cli("compare", "runs/before.json", "runs/after.json", "--json")[1])
    assert change["difference"]["estimate"] == 0, change["difference"]
    # (38th round) no case moved, its trials in another order: no interval, and named so, not "t interval" and
    # "paired t-test" of none
    cases[0]["response"], cases[1]["response"] = ["acceso", "bug", "bug"], ["bug", "acceso", "bug"]
    write_run("runs/reordered.json", make_run(cases))
    change = json.loads(cli("compare", "runs/before.json", "runs/reordered.json", "--json")[1])
    assert change["difference"]["method"] == evalpy.UNMOVED_METHOD and change["test"] == {"name": evalpy.ALIKE_TEST, "p": 1.0}, change
    out = cli("compare", "runs/before.json", "runs/after.json")[1]
    assert "<0.0001" not in out and "+0.0 points" in out, out


def test_a_trial_that_failed_leaves_the_others_named_by_their_numbers(project, cli):
    """Round 108: a case whose first trial failed showed 'acceso | bug' among the flaky cases and failures, read as
    trials 1 and 2 though they were 2 and 3."""
    write_run("runs/t.json", make_run([{"id": "a", "expected": "bug", "response": [None, "acceso", "acceso"]},
                                       {"id": "b", "expected": "bug", "response": ["bug", "acceso", None]},
                                       {"id": "c", "expected": "bug", "response": ["bug", "acceso", "bug"]},
                                       {"id": "d", "expected": "bug", "response": [None, "acceso", "bug"]},
                                       {"id": "e", "expected": "bug", "response": ["acceso", "acceso", None]}]))
    out = cli("report", "runs/t.json")[1]
    # (112th round's review) its last trial failed: numbered, or it read as a case of two trials
    assert "b (expected bug): trial 1: bug | trial 2: acceso\n" in out and "c (expected bug): bug | acceso | bug" in out, out
    assert "d (expected bug): trial 2: acceso | trial 3: bug" in out, out   # among the flaky cases
    assert "trial 2: acceso | trial 3: acceso" in out, out   # a's, among the failures
    # (112th round) its last trial failed: numbered too, or "acceso | acceso" read as a case of two trials
    assert "trial 1: acceso | trial 2: acceso" in out, out
    assert cli("report", "runs/t.json", "--html", "t.html")[0] == 0   # (its review: the page's too)
    # (120th round) a trial whose every answer failed shows no interval, never "95% CI" followed by nothing
    write_run("runs/u.json", make_run([{"id": "a", "expected": "bug", "response": ["bug", None]},
                                       {"id": "b", "expected": "bug", "response": ["acceso", None]}]))
    line = next(l for l in cli("report", "runs/u.json")[1].splitlines() if l.startswith("  trial 2 "))
    assert "95% CI" not in line and line.rstrip() == line, line
    assert "trial 2: acceso | trial 3: acceso" in Path("t.html").read_text(encoding="utf-8")


def test_one_case_whose_trials_moved_gets_the_sign_flip_test_the_readme_names():
    """Round 108: one case, 1/1 -> 1/3, gave no p ("too few cases to tell (a t interval needs two cases that differ)")
    and named its method a t interval, where README says every case moved alike (one case is) gets the sign-flip
    test, mid-p 1/2^n: 0.5, what mid-p McNemar gives one case that changed with one answer each."""
    change = evalpy.paired_change([(1, 1, 1, 3)], evalpy.ALPHA)
    assert change["difference"]["method"] == evalpy.ALIKE_METHOD and change["test"] == {"name": evalpy.ALIKE_TEST, "p": 0.5}
    assert evalpy.paired_change([(1, 1, 0, 1)], evalpy.ALPHA)["test"]["p"] == 0.5   # (as one answer each: McNemar's)
    unmoved = evalpy.paired_change([(1, 3, 1, 3)], evalpy.ALPHA)
    assert unmoved["test"]["p"] == 1.0 and unmoved["difference"]["method"] == evalpy.UNMOVED_METHOD   # (117th: not "alike")


def test_the_markdown_headline_says_which_cases_pass_hat_k_is_over(project, cli):
    """Thirty-seventh round on issue 28: with an errored trial, pass^4 is over the cases with 4 decided trials
    (the text's table and the page say so in their "cases" column); the markdown headline gave "pass^4 (every
    trial right) | 58%" with no count, a figure over fewer cases than the rows beside it."""
    path = passes_run(PASSES, errors={(0, 4)})
    s = json.loads(cli("report", path, "--json")[1])
    # (k0: 2 right, 1 wrong and 1 failed: no majority vote, round 87; the mean and pass^k read it)
    assert s["pass_k"][-1]["cases"] == 11 and s["decided_cases"] == 12 and s["majority_open"] == ["k0"]
    md = cli("report", path, "--markdown")[1]
    assert f"| pass^4 (every trial right, over 11 of 12 cases) | {100 * s['pass_k'][-1]['pass_hat_k']:.0f}% |" in md, md
    assert "| pass^4 (every trial right) |" in cli("report", passes_run(PASSES), "--markdown")[1]


def test_a_trial_that_ran_out_of_turns_is_said_so_and_every_failing_trial_is_named(project, cli):
    """Round 109: of an agent's three trials, the first out of turns, the second right, the third cancelling: the flaky
    list read 'fail ""' for the first (as if the model answered nothing), and the failures row named the first
    trial's failures alone ("never cancels", the third's, nowhere)."""
    from conftest import agent_spec, make_run, write_run
    look, cancel = ("lookup_order", {"order_id": "A-1"}, True), ("cancel_order", {"order_id": "A-1"}, True)
    trials = [make_run([agent_spec("a1", calls, out_of_turns=out)], labels=None, split="agent-dev", max_turns=3,
                       repeat=3)["results"][n] for n, (calls, out) in enumerate([([look] * 3, True), ([look], False),
                                                                                 ([look, cancel], False)])]
    run = make_run([agent_spec("a1", [look])], labels=None, split="agent-dev", max_turns=3, repeat=3)
    run["results"] = trials
    path = write_run("runs/agents.json", run)
    out = cli("report", path)[1]
    assert 'a1: fail (ran out of turns) | pass "Su pedido está enviado." | fail "Su pedido está enviado."' in out, out
    failures = json.loads(cli("report", path, "--json")[1])["failures"]
    assert failures[0]["failed_checks"] == ["says where", "never cancels"] and failures[0]["out_of_turns"] == 3, failures
    assert failures[0]["answer"] == "Su pedido está enviado."   # a failing trial's answer that came, not the blank
    assert "says where, never cancels, ran out of turns (3)  Su pedido está enviado." in out, out


def test_a_weighted_case_its_open_trials_could_turn_has_no_verdict_in_any_view(project, cli, fake):
    """112th round: the headline left out a case whose trials without a verdict could turn it (an open judge, a pass
    and a fail), but its weighted table row, report --case and an agent's first failures gave it the fail its two
    decided trials tie to; and "Failed by a blocking check whatever the score" named a passing case one trial of which
    a blocking check failed. Such a case has no verdict anywhere; the blocking list names failing cases alone."""
    folder = project / "golden" / "w"
    folder.mkdir()
    (folder / "checks.json").write_text(json.dumps({"pass_threshold": 0.75, "checks": [
        {"name": "aaa", "type": "contains", "value": "AAA", "weight": 2},
        {"name": "q", "type": "judge", "value": "is it good", "weight": 1},
        {"name": "no veto", "type": "not_contains", "value": "VETO"}]}), encoding="utf-8")
    (folder / "dev.jsonl").write_text("".join(json.dumps({"id": i, "input": f"ticket {i}", "difficulty": "easy",
                                                          "note": "n"}) + "\n" for i in ("d1", "d3", "d4", "d5", "d6")), encoding="utf-8")
    (project / "prompts" / "w").mkdir()
    (project / "prompts" / "w" / "v1.txt").write_text("Responde.", encoding="utf-8")
    # trial t is asked with seed 42 + t - 1; d1 vetoed in one trial of three, passing in two; d3's judge open, yes, no
    # (its review) d5 vetoed once and failed by its score twice: failed by the score, never "whatever the score"; d6 by
    # the veto twice of three, its score passing in each: named
    answers = {"ticket d1": ["AAA J+ VETO", "AAA J+", "AAA J+"], "ticket d3": ["AAA J?", "AAA J+", "AAA J-"],
               "ticket d5": ["AAA J+ VETO", "J+", "J+"], "ticket d6": ["AAA J+ VETO", "AAA J+ VETO", "AAA J+"],
               "ticket d4": ["AAA J?"] * 3}   # (no trial decided: named beside d3, or 1 + 1 named of 3 left it unsaid)

    def route(body):
        text = body["messages"][-1]["content"]
        if body["messages"][0]["content"] != evalpy.JUDGE_PROMPT:
            return answers[text][body["options"]["seed"] - 42]
        return ('{"reason": "r", "pass": true}' if "J+" in text else '{"reason": "r", "pass": false}' if "J-" in text
                else "I cannot tell.")
    fake.route = route
    code, out, err = cli("run", "--split", "golden/w/dev.jsonl", "--repeat", "3", "--host", fake.url, "--out", "runs/w.json")
    assert code == 0, err
    report = json.loads(cli("report", "runs/w.json", "--json")[1])
    assert report["majority_open"] == ["d3", "d4"] and report["weighted"]["vetoed"] == ["d6"], report["weighted"]
    assert [(r["id"], r["correct"]) for r in report["weighted"]["cases"]] == [
        ("d1", True), ("d3", None), ("d4", None), ("d5", False), ("d6", False)]
    lines = cli("report", "runs/w.json")[1].splitlines()
    assert "Failed by a blocking check whatever the score (1): d6" in lines
    assert ["d3", "open"] in [line.split()[:2] for line in lines if line.startswith("  d3 ")], lines
    assert cli("report", "runs/w.json", "--case", "d3")[1].splitlines()[0] == (
        "Case d3 (easy) has no verdict: its trials without one could turn its majority")


def test_a_trial_still_thinking_scores_zero_in_the_weighted_table(project, cli, fake):
    """113th round: a trial still thinking when it stopped fails every check, but its weighted score was left out:
    a pass and two such trials read "fail, score 1, no weighed check failed", and a veto in the pass listed the case
    as failed by a blocking check whatever the score (its other trials fail by their score of 0)."""
    Path("golden/w").mkdir(parents=True)
    Path("golden/w/checks.json").write_text(json.dumps({"pass_threshold": 0.75, "checks": [
        {"name": "aaa", "type": "contains", "value": "AAA", "weight": 3},
        {"name": "no veto", "type": "not_contains", "value": "VETO"}]}))
    answers = {"ticket u1": ["AAA VETO", "<think>\nhmm", "<think>\nhmm"], "ticket u2": ["AAA", "<think>\nhmm", "AAA"]}
    Path("golden/w/dev.jsonl").write_text("".join(json.dumps({"id": i[7:], "input": i, "difficulty": "easy", "note": "n"})
                                                  + "\n" for i in answers))
    Path("prompts/w").mkdir()
    Path("prompts/w/v1.txt").write_text("Responde.")
    fake.route = lambda body: answers[body["messages"][-1]["content"]][body["options"]["seed"] - 42]
    code, out, err = cli("run", "--split", "golden/w/dev.jsonl", "--repeat", "3", "--host", fake.url, "--out", "runs/w.json")
    assert code == 0, err
    weighted = json.loads(cli("report", "runs/w.json", "--json")[1])["weighted"]
    assert [(c["id"], c["correct"], c["score"], c["failed"]) for c in weighted["cases"]] == [
        ("u1", False, 1 / 3, ["aaa"]), ("u2", True, 2 / 3, ["aaa"])], weighted
    assert weighted["vetoed"] == []


def test_an_agent_level_its_open_trials_could_turn_is_counted_open():
    """112th round: the Agent section's final result took the majority of the trials a judge decided, where the
    headline leaves out a case its open trials could turn: a pass and two open counted a pass (1 of 3 could be
    outvoted), a pass, an open and a fail a fail. Counted open, as the headline leaves them out."""
    def case(cid, finals):
        trials = [{"trial": n, "correct": v, "agent": {"final": v, "trajectory": None, "turns": 1, "out_of_turns": False,
                                                       "calls": [], "first_failure": None}}
                  for n, v in enumerate(finals, 1)]
        return {"id": cid, "checks": [], "trials": trials, "correct": None}
    figures = evalpy.agent_figures([case("e4", [True, None, None]), case("e5", [True, None, False]),
                                    case("e6", [True, True, None])])
    assert (figures["final"]["correct"], figures["final"]["total"], figures["final"]["open"]) == (1, 1, 2)


def test_a_case_failed_out_of_turns_or_by_its_score_is_never_said_vetoed():
    """112th round's review: an agent case whose trials ran out of turns (its score passing), failed "no BAD" with a
    score of 0, and passed, was listed as "Failed by a blocking check whatever the score" under its row of 0.33: the
    blocking check decided nothing. A case is listed when its trials the check failed, their score passing, would
    make it pass."""
    checks = [{"name": "ok", "type": "contains", "blocking": False, "weight": 1},
              {"name": "no BAD", "type": "not_contains", "blocking": True}]

    def trial(n, score, correct, bad=False, out=False):
        return {"trial": n, "weighted": (evalpy.ExactShare(score), evalpy.ExactShare(score)), "correct": correct,
                "checks": {"ok": score >= 0.5, "no BAD": not bad}, "agent": {"out_of_turns": out}}
    cases = [{"id": "A", "checks": checks, "pass_threshold": 0.5, "correct": False,
              "trials": [trial(1, 0.5, False, out=True), trial(2, 0, False, bad=True), trial(3, 0.5, True)]},
             {"id": "B", "checks": checks, "pass_threshold": 0.5, "correct": False,
              "trials": [trial(1, 0.5, False, bad=True), trial(2, 0.5, False, bad=True), trial(3, 0.5, True)]}]
    assert evalpy.weighted_figures(cases)["vetoed"] == ["B"]
    # (113th round) vetoed twice, failed by its score, and an error: without the vetoes 2 of 3 with the fourth open,
    # no verdict, never a pass; so it is not named
    errored = {"trial": 4, "weighted": None, "correct": None, "checks": {}, "agent": {"out_of_turns": False}}
    c = {"id": "C", "checks": checks, "pass_threshold": 0.5, "correct": False,
         "trials": [trial(1, 0.5, False, bad=True), trial(2, 0.5, False, bad=True), trial(3, 0, False), errored]}
    assert evalpy.weighted_figures([c])["vetoed"] == []


def test_a_run_of_one_trial_beside_one_of_more_changes_no_seeding(project, cli):
    """112th round's newcomer: compare of a run of one trial with one of --repeat 2, both of this eval.py, listed
    "trial_seeds: every trial the same seed -> each trial its own seed" beside "repeat: 1 -> 2": a run of one trial
    records none, and its one trial is asked with the seed under either rule."""
    one = make_run([{"id": "c1", "expected": "bug", "response": ["bug"]}], prompt="prompts/v2.txt")
    two = make_run([{"id": "c1", "expected": "bug", "response": ["bug", "bug"]}], prompt="prompts/v2.txt")
    two["config"]["trial_seeds"] = True
    write_run("runs/one.json", one)
    write_run("runs/two.json", two)
    changed = json.loads(cli("compare", "runs/one.json", "runs/two.json", "--json")[1])["changed"]
    assert "trial_seeds" not in changed and changed["repeat"] == [1, 2], changed
    assert evalpy.distinct_settings([one["config"], two["config"]]) == ["repeat"]


def test_each_failing_trials_stop_as_it_called_tools_is_said_in_every_view(project, cli, fake):
    """140th round's review, F4: with --repeat 2 and num_predict=11, trial 1's turn stopped for "length" at 1 token
    (short of every limit) as it called tools, trial 2's at 11 (the limit cut it). The header listed both, the HTML
    Failures both, but the text Failures, --markdown and --json (cut_by) said trial 1's stop alone: "raise
    num_predict", trial 2's cure, in no failure row. Each view lists each failing trial's stop, from one row."""
    from test_run import ASK, LENGTH_STOPS, agent_split, cut_calling_turn
    fake.agents[(ASK, 42)] = [cut_calling_turn("ollama", {"order_id": "A-1"}), "x"]
    fake.agents[(ASK, 43)] = [cut_calling_turn("ollama", {"order_id": "A-1"}, content="y" * 40), "x"]   # 11 tokens
    code, out, err = cli("run", "--split", agent_split(project), "--host", fake.url, "--out", "runs/a.json",
                         "--option", "num_predict=11", "--repeat", 2)
    assert code == 0 and [r["completion_tokens"] for r in load_json("runs/a.json")["results"]] == [1, 11], err
    said = [f"{LENGTH_STOPS[stop][2]} as it called tools (turn 1: its calls never run)"
            for stop in ("stopped_early", "cut_off")]
    out = cli("report", "runs/a.json")[1]
    assert f"{LENGTH_STOPS['stopped_early'][0]}: 1 (a1" in out and f"{LENGTH_STOPS['cut_off'][0]}: 1 (a1" in out, out
    failures = out[out.index("\nFailures"):]
    markdown = cli("report", "runs/a.json", "--markdown")[1]
    assert cli("report", "runs/a.json", "--html", "runs/a.html")[0] == 0
    page = Path("runs/a.html").read_text(encoding="utf-8")
    for view in (failures, markdown, page):
        assert all(words in view for words in said), (said, view)
    s = json.loads(cli("report", "runs/a.json", "--json")[1])
    assert s["failures"][0]["cut_calls"] == [{"trial": 1, "turn": 1, "cut_by": "stopped_early"},
                                             {"trial": 2, "turn": 1, "cut_by": "cut_off"}], s["failures"]
