"""Compare: two runs of the same split, case by case; refused across split versions."""

import json
import os

import pytest
import scipy.stats

from conftest import V3_MISSES, answer_key, load_json, make_run, split_run, write_run


def test_compare_lists_fixed_and_regressions(two_runs, cli):
    code, out, err = cli("compare", *two_runs)
    assert code == 0, err
    lines = out.splitlines()
    assert "Fixed (3): dev-09, dev-11, dev-24" in lines
    assert "Regressions (1): dev-05" in lines
    assert "Stayed right: 24 · Stayed wrong: 0" in lines
    assert "Accuracy: 25/28 = 89% -> 27/28 = 96%" in lines
    assert "Invalid answers: 1 -> 0" in lines   # dev-11's "Categoría: bug" matched no label
    v2, v3 = (load_json(p)["config"] for p in two_runs)
    assert "  prompt: prompts/v2.txt -> prompts/v3.txt" in lines
    assert f"  prompt_sha: {v2['prompt_sha'][:8]} -> {v3['prompt_sha'][:8]}" in lines
    assert not any(l.startswith("  model:") for l in lines)


def test_compare_the_other_way_round(two_runs, cli):
    out = cli("compare", two_runs[1], two_runs[0])[1]
    assert "Fixed (1): dev-05" in out and "Regressions (3): dev-09, dev-11, dev-24" in out


def test_a_rerun_shows_no_configuration_change(two_runs, cli):
    rerun = write_run("runs/dev-v3-2.json", split_run("dev", V3_MISSES, date="2026-01-03T10:00:00+01:00"))
    out = cli("compare", two_runs[1], rerun)[1]
    assert "Changed: nothing in the configuration" in out
    assert "Fixed (0): -" in out and "Regressions (0): -" in out
    assert "Invalid answers" not in out   # said only where either run has some


def test_compare_json(two_runs, cli):
    c = json.loads(cli("compare", *two_runs, "--json")[1])
    assert c["fixed"] == ["dev-09", "dev-11", "dev-24"] and c["regressions"] == ["dev-05"]
    assert c["baseline"]["correct"] == 25 and c["candidate"]["correct"] == 27
    assert c["changed"]["prompt"] == ["prompts/v2.txt", "prompts/v3.txt"]


def test_compare_statistics_lines(dev_run, worse_run, cli):
    # baseline dev-v2 misses 09, 11, 24; candidate misses 01, 02, 04, 05, 06, 07
    c = json.loads(cli("compare", dev_run, worse_run, "--json")[1])
    assert len(c["fixed"]) == 3 and len(c["regressions"]) == 6
    assert c["mcnemar_p"] == pytest.approx(scipy.stats.binomtest(3, 9, 0.5).pvalue, rel=1e-9)
    assert c["fisher_p"] == pytest.approx(scipy.stats.fisher_exact([[25, 3], [22, 6]]).pvalue, rel=1e-9)
    out = cli("compare", dev_run, worse_run)[1]
    assert f"McNemar exact test (paired, alpha 0.05): 3 fixed, 6 broken: p = {c['mcnemar_p']:.2g}, " \
           "not enough cases to call it" in out
    assert f"Fisher exact test (pass/fail counts): p = {c['fisher_p']:.2g}" in out


@pytest.mark.parametrize("flag", ["--compare", "--comparar"])
def test_run_compares_as_it_finishes(dev_run, cli, fake, flag):
    fake.answers = answer_key("golden/dev.jsonl")
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, flag, dev_run)
    assert code == 0, err
    assert out.startswith("Accuracy: 28/28 = 100%")
    assert "Baseline:  runs/dev-v2.json" in out and "Fixed (3): dev-09, dev-11, dev-24" in out


def add_a_case(split="golden/dev.jsonl"):
    with open(split, "a", encoding="utf-8") as f:
        f.write(json.dumps({"id": "dev-99", "input": "Nuevo", "expected": "bug", "difficulty": "easy", "note": "n"}) + "\n")


def test_compare_refuses_runs_of_different_split_versions(two_runs, cli):
    old_sha = load_json(two_runs[0])["config"]["split_sha"]
    add_a_case()
    newer = write_run("runs/dev-v3-2.json", split_run("dev"))
    new_sha = load_json(newer)["config"]["split_sha"]
    code, out, err = cli("compare", two_runs[0], newer)
    assert code == 2 and out == ""
    assert f"different versions of the split (dev {old_sha[:8]} vs dev {new_sha[:8]})" in err


def test_run_compare_refuses_before_calling_the_model(two_runs, cli, fake):
    add_a_case()
    asked = len(fake.chat_bodies)
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--compare", two_runs[0])
    assert code == 2 and "another version of the split" in err
    assert len(fake.chat_bodies) == asked


def test_compare_refuses_runs_with_different_cases(two_runs, cli):
    run = load_json(two_runs[1])
    run["results"][0]["id"] = "dev-99"
    json.dump(run, open("edited.json", "w", encoding="utf-8"), ensure_ascii=False)
    code, out, err = cli("compare", two_runs[0], "edited.json")
    assert code == 2 and "different cases (dev-01, dev-99)" in err
    sha = run["config"]["split_sha"][:8]
    assert f"split sha {sha} vs {sha}" in err


def test_errors_are_kept_out_of_fixed_and_regressions(two_runs, cli):
    errored = write_run("runs/dev-v3-2.json", split_run("dev", {"dev-09": None}))   # dev-09 got no answer
    out = cli("compare", two_runs[0], errored)[1]
    assert "Fixed (2): dev-11, dev-24" in out
    assert "Not compared (1): dev-09  (no verdict in a run: an error, or a judge that gave none)" in out


def test_invalid_answers_are_counted_apart_in_every_view(two_runs, cli):
    assert json.loads(cli("compare", *two_runs, "--json")[1])["invalid_answers"] == [1, 0]
    assert "| Invalid answers | 1 | 0 |" in cli("compare", *two_runs, "--markdown")[1]


def test_with_trials_invalid_answers_say_out_of_how_many(project, cli):
    a = write_run("runs/a.json", split_run("dev", {"dev-11": "Categoría: bug"}, repeat=3))
    b = write_run("runs/b.json", split_run("dev", repeat=3))
    out = cli("compare", a, b)[1]
    assert "Invalid answers: 3 of 84 -> 0 of 84" in out.splitlines()
    assert "| Invalid answers | 3 of 84 | 0 of 84 |" in cli("compare", a, b, "--markdown")[1]
    c = json.loads(cli("compare", a, b, "--json")[1])
    assert c["invalid_answers"] == [3, 0] and c["answers"] == [84, 84]


def test_a_run_compared_with_itself_is_refused(project, cli, dev_run):
    for other in (dev_run, "./" + dev_run, os.path.abspath(dev_run)):
        code, out, err = cli("compare", dev_run, other)
        assert code == 2 and out == "" and "both arguments are the same run" in err


def test_runs_of_different_splits_are_called_that(project, cli, dev_run):
    test_run = write_run("runs/test-v2.json", split_run("test", prompt="prompts/v2.txt"))
    code, out, err = cli("compare", dev_run, test_run)
    assert code == 2 and "different splits (dev vs test)" in err and "versions" not in err


def test_changed_values_print_as_json_and_trials_pair_like_for_like(project, cli):
    """compare printed Python reprs ({}, None, ['\\n']), left repeat out, and said "Accuracy" of a
    free-text set."""
    a = write_run("runs/a.json", make_run([("c1", "bug", "bug"), ("c2", "acceso", "bug")], options={}, format=None))
    b = write_run("runs/b.json", make_run([("c1", "bug", ["bug"] * 3), ("c2", "acceso", ["acceso"] * 3)],
                                          options={"stop": ["\n"]}, format="json"))
    out = cli("compare", a, b)[1]
    assert '  options: {} -> {"stop": ["\\n"]}' in out and "  format: null -> json" in out
    assert "  repeat: 1 -> 3" in out
    assert "Identical raw answers: 1 of 2 (trial 1 of each case: the trials both runs have)" in out
    free = [{"id": "c1", "response": "hola", "checks": [{"name": "says hi", "type": "contains", "value": "hola",
                                                         "blocking": True}]}]
    fa, fb = (write_run(f"runs/free-{n}.json", make_run(free, labels=None, prompt=f"prompts/{n}.txt")) for n in ("v1", "v2"))
    assert "Pass rate: 1/1 = 100% -> 1/1 = 100%" in cli("compare", fa, fb)[1]


def test_a_model_name_and_its_latest_tag_are_one_model(project, cli, fake):
    """Ollama serves "smollm" as "smollm:latest": compare and the held-out rule must not call it a change."""
    fake.models.append("smollm:latest")
    fake.answers = answer_key("golden/dev.jsonl")
    assert cli("run", "--split", "dev", "--host", fake.url, "--model", "smollm", "--out", "runs/a.json")[0] == 0
    assert cli("run", "--split", "dev", "--host", fake.url, "--model", "smollm:latest", "--out", "runs/b.json")[0] == 0
    out = cli("compare", "runs/a.json", "runs/b.json")[1]
    assert "Changed: nothing in the configuration" in out
    fake.answers = answer_key("golden/test.jsonl")
    assert cli("run", "--split", "test", "--host", fake.url, "--model", "smollm")[0] == 0
    code, out, err = cli("run", "--split", "test", "--host", fake.url, "--model", "smollm:latest")
    assert code == 0 and "refusing" not in err   # the same configuration again is allowed
    code, out, err = cli("run", "--split", "test", "--host", fake.url, "--model", "qwen2.5:7b")
    assert code == 2 and "refusing to run the held-out test split again" in err   # another model is not


# --- three or more runs

def four_runs(worst=None):
    """dev-v1 (22/28), dev-v2 (25/28), dev-v3 (27/28) and dev-llama (27/28, another model)."""
    from conftest import V1_MISSES, V2_MISSES
    return [write_run("runs/dev-v1.json", split_run("dev", worst or V1_MISSES, prompt="prompts/v1.txt")),
            write_run("runs/dev-v2.json", split_run("dev", V2_MISSES, prompt="prompts/v2.txt")),
            write_run("runs/dev-v3.json", split_run("dev", V3_MISSES)),
            write_run("runs/dev-llama.json", split_run("dev", {"dev-03": "bug"}, model="llama3.1:8b"))]


def test_many_runs_make_one_table_best_first_with_holm_adjusted_tests(project, cli):
    code, out, err = cli("compare", *four_runs())
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == "4 runs of dev (a74c6ae4), compared on 28 cases, best first."
    assert [l.split()[:2] for l in lines[3:7]] == [["1", "dev-v3"], ["2", "dev-llama"], ["3", "dev-v2"], ["4", "dev-v1"]]
    assert lines[2].split() == ["#", "run", "prompt", "model", "accuracy", "95%", "CI", "vs", "best", "p", "Holm", "p"]
    assert lines[3].split()[2:] == ["prompts/v3.txt", "qwen2.5:7b", "27/28", "=", "96%", "82–99%", "best"]
    # the best against each: p by exact McNemar, adjusted by Holm for 3 comparisons (worked by hand in
    # test_stats: 0.0625 x 3, then 0.625 x 2 and 1 x 1, capped at 1)
    assert lines[4].endswith("+1 / +1  1      1") and lines[5].endswith("+3 / +1  0.62   1")
    assert lines[6].endswith("+5 / +0  0.062  0.19")
    assert "Holm p: adjusted for 3 comparisons" in out
    assert lines[-3:] == ["  dev-v3 and dev-llama cannot be told apart on 28 cases",
                          "  dev-v3 and dev-v2 cannot be told apart on 28 cases",
                          "  dev-v3 and dev-v1 cannot be told apart on 28 cases"]
    m = json.loads(cli("compare", *four_runs(), "--json")[1])
    assert m["best"] == "runs/dev-v3.json" and m["cases"] == 28 and m["comparisons"] == 3
    worst = m["runs"][-1]
    assert (worst["best_only"], worst["run_only"]) == (5, 0) and worst["p"] == 0.0625 and worst["holm_p"] == pytest.approx(0.1875)
    assert worst["ci"] == pytest.approx(list(scipy.stats.binomtest(22, 28).proportion_ci(method="wilson")))
    md = cli("compare", *four_runs(), "--markdown")[1]
    assert "| 4 | dev-v1 | prompts/v1.txt | qwen2.5:7b | 22/28 = 79% | 60–90% | +5 / +0 | 0.062 | 0.19 |" in md


def test_a_difference_that_survives_the_adjustment_is_called(project, cli):
    ten = {f"dev-{i:02d}": "no sé" for i in (1, 2, 3, 4, 6, 7, 8, 9, 10, 11)}
    out = cli("compare", *four_runs(worst=ten))[1]
    # 10 only the best got right, 1 (dev-05) only dev-v1: p = 2 x 12/2048 = 0.0117; times 3 = 0.035
    assert "+10 / +1  0.012  0.035" in out and "  dev-v3 is better than dev-v1 (adjusted p = 0.035)" in out


def test_runs_of_part_of_the_split_are_compared_on_the_cases_all_share(project, cli):
    runs = four_runs()
    part = split_run("dev", {}, prompt="prompts/v2.txt", subset={"limit": 10}, temperature=0.7)
    part["results"] = part["results"][:10]
    part["config"]["cases"] = 10
    write_run("runs/dev-quick.json", part)
    code, out, err = cli("compare", *runs, "runs/dev-quick.json")
    assert code == 0, err
    assert "5 runs of dev (a74c6ae4), compared on 10 cases, best first." in out
    assert "Only the cases every run holds are compared (10; the runs hold 28, 28, 28, 28, 10)" in out
    assert " temperature " in out.splitlines()[2] and " subset " in out.splitlines()[2]


def test_many_runs_are_refused_as_two_are(project, cli):
    runs = four_runs()
    code, out, err = cli("compare", runs[0], runs[1], runs[0])
    assert code == 2 and "both arguments are the same run" in err
    other = split_run("dev", {})
    other["config"]["split_sha"] = "0" * 64
    write_run("runs/other.json", other)
    code, out, err = cli("compare", *runs, "runs/other.json")
    assert code == 2 and "different versions of the split" in err
    for extra, says in ((["--pairwise", "Which is better?"], "--pairwise compares two runs"),
                        (["--html", "x.html"], "--html compares two runs"),
                        (["--judge-model", "m"], "--judge-model only applies with --pairwise")):
        code, out, err = cli("compare", *runs, *extra)
        assert code == 2 and says in err and out == ""


def test_gates_over_many_runs_take_the_first_as_the_baseline_of_each(project, cli):
    runs = four_runs()
    code, out, err = cli("compare", *runs, "--fail-on-regression")
    assert code == 1
    assert "GATE FAILED: dev-v1 -> dev-v2: 3 regression(s): dev-09, dev-11, dev-24" in err
    assert "gate passed: dev-v1 -> dev-v3: 0 regression(s)" in err
    assert "GATE FAILED: dev-v1 -> dev-llama: 1 regression(s): dev-03" in err
    code, out, err = cli("compare", *runs, "--fail-if-worse")
    assert code == 0 and err.count("gate passed: ") == 3
    errored = split_run("dev", {"dev-01": None}, prompt="prompts/v2.txt", temperature=0.5)
    write_run("runs/errored.json", errored)
    code, out, err = cli("compare", *runs, "runs/errored.json", "--fail-on-regression")
    assert code == 2 and "gates not judged" in err
    assert json.loads(cli("compare", *runs, "--fail-on-regression", "--json")[1])["gates"]["exit"] == 1


def test_a_run_that_mostly_failed_is_never_ranked_on_the_few_it_answered(project, cli):
    """From the attack on issue 18: a run whose calls failed on 27 of 28 cases ranked best on its
    one answer, and its pairings hid a real difference between the other two runs."""
    ids = [f"dev-{i:02d}" for i in range(1, 29)]
    a = write_run("runs/a.json", split_run("dev", {i: "no sé" for i in ids[20:]}, prompt="prompts/v1.txt"))
    b = write_run("runs/b.json", split_run("dev", {i: "no sé" for i in ids[10:]}, prompt="prompts/v2.txt"))
    one = write_run("runs/one.json", split_run("dev", {i: None for i in ids[1:]}, temperature=0.5))
    out = cli("compare", a, one, b)[1]
    assert "compared on 1 case, best first" in out
    assert "Left out: 27 cases without a verdict in some run (an error, or a judge that gave none; by run: one 27)" in out
    code, out, err = cli("compare", a, b, one, "--fail-if-worse")
    assert code == 2 and "gates not judged" in err   # the gates say it too
    none = write_run("runs/none.json", split_run("dev", {i: None for i in ids}, temperature=0.6))
    code, out, err = cli("compare", a, b, none)
    assert code == 2 and "no case has a verdict in every run" in err
    m = json.loads(cli("compare", a, b, one, "--json")[1])
    assert [r["not_scored"] for r in m["runs"]] == [0, 0, 27] and m["cases"] == 1 and m["shared_cases"] == 28


def test_names_from_files_and_runs_reach_the_terminal_inert(project, cli):
    from conftest import write_two_runs
    v2, v3 = write_two_runs()
    evil = "runs/e\x1b[2J\u202evil.json"
    os.rename(v3, evil)
    out = cli("compare", v2, evil)[1]
    assert "\x1b" not in out and "\u202e" not in out and "Candidate: runs/e\\x1b[2J\\u202evil.json" in out
    third = write_run("runs/dev-v1.json", split_run("dev", {}, prompt="prompts/v1.txt"))
    out = cli("compare", v2, evil, third)[1]
    assert "\x1b" not in out and "\u202e" not in out and "e\\x1b[2J\\u202evil" in out


def test_the_worse_gate_over_many_runs_reads_the_adjusted_p_as_the_table_does(project, cli):
    """From the newcomer pass on issue 18: --fail-if-worse failed CI on a raw p of 0.125 while the
    table beside it read the same comparison at its Holm-adjusted 0.25 ("cannot be told apart")."""
    from conftest import V2_MISSES
    base = write_run("runs/base.json", split_run("dev", V3_MISSES))
    a = write_run("runs/a.json", split_run("dev", V2_MISSES, prompt="prompts/v2.txt"))        # +1 / -3 against base: p = 0.625
    c = write_run("runs/c.json", split_run("dev", {i: "no sé" for i in ("dev-01", "dev-02", "dev-03", "dev-04",
                                                                      "dev-06", "dev-07")}, prompt="prompts/v1.txt"))   # +1 / -6: p = 0.125
    code, out, err = cli("compare", base, a, c, "--fail-if-worse", "--alpha", "0.2")
    assert code == 0, err
    assert "gate passed: base -> c: significantly worse? no (1 fixed, 6 broken: Holm-adjusted p = 0.25" in err
    assert "gate passed: base -> a: significantly worse? no (1 fixed, 3 broken: Holm-adjusted p = 0.62" in err
    code, out, err = cli("compare", base, c, "--fail-if-worse", "--alpha", "0.2")   # two runs: one comparison, no adjustment
    assert code == 1 and "p = 0.12, the candidate is worse beyond chance" in err
