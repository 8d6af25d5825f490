"""Compare: two runs of the same split, case by case; refused across split versions."""

import html
import json
import os
import re
import shutil
import unicodedata
from pathlib import Path

import pytest
import numpy as np
import scipy.stats

from conftest import (LINKED, MARKUP, ROOT, V3_MISSES, answer_key, difficulties_alike, evalpy, github_linked, load_json, make_run, markdown_acted_on,
                      sha, split_run, write_run)

EXAMPLE = ROOT / "runs" / "example"


def test_compare_lists_fixed_and_regressions(two_runs, cli):
    code, out, err = cli("compare", *two_runs)
    assert code == 0, err
    lines = out.splitlines()
    assert "Fixed (3): dev-09, dev-11, dev-24" in lines
    assert "Regressions (1): dev-05" in lines
    assert "Stayed right: 24 · Stayed wrong: 0" in lines
    assert "Accuracy: 25/28 = 89% (95% CI 73–96%) -> 27/28 = 96% (95% CI 82–99%)" in lines
    assert "Invalid answers: 1 -> 0" in lines   # dev-11's "Categoría: bug" matched no label
    v2, v3 = (load_json(p)["config"] for p in two_runs)
    assert "  prompt: prompts/v2.txt -> prompts/v3.txt" in lines
    assert f"  prompt_sha: {v2['prompt_sha'][:8]} -> {v3['prompt_sha'][:8]}" in lines
    assert not any(l.startswith("  model:") for l in lines)


def test_the_same_labels_in_another_order_are_no_change_but_where_a_schema_sent_them(project, cli):
    """138th round: labels.txt sorted between two runs (the same four labels) was "Changed: labels: [...] -> [...]",
    though every answer is read order-free and no request held them. With --format schema they are the schema's enum,
    in their order: sent to the model, a change there."""
    from conftest import LABELS
    runs = {}
    for fmt in (None, "schema"):
        for order, labels in enumerate((LABELS, LABELS[::-1])):
            run = split_run("dev", V3_MISSES, format=fmt, date=f"2026-01-0{2 + order}T10:00:00+01:00")
            run["config"]["labels"] = labels
            runs[fmt, order] = write_run(f"runs/{fmt}-{order}.json", run)
    out = cli("compare", runs[None, 0], runs[None, 1])[1]
    assert "Changed: nothing in the configuration" in out, out
    out = cli("compare", runs["schema", 0], runs["schema", 1])[1]
    assert "labels: " in out and "Changed: nothing" not in out, out
    assert "labels" not in json.loads(cli("compare", runs[None, 0], runs[None, 1], runs["schema", 1], "--json")[1])["distinct"]


def test_compare_the_other_way_round(two_runs, cli):
    out = cli("compare", two_runs[1], two_runs[0])[1]
    assert "Fixed (1): dev-05" in out and "Regressions (3): dev-09, dev-11, dev-24" in out


def test_a_rerun_shows_no_configuration_change(two_runs, cli):
    rerun = write_run("runs/dev-v3-2.json", split_run("dev", V3_MISSES, date="2026-01-03T10:00:00+01:00"))
    out = cli("compare", two_runs[1], rerun)[1]
    assert "Changed: nothing in the configuration" in out
    assert "Fixed (0): -" in out and "Regressions (0): -" in out
    assert "Invalid answers" not in out   # said only where either run has some
    # (118th round's newcomer) one prompt named from a sub-folder (../prompts/v3.txt) is no change: its sha is the same
    elsewhere = split_run("dev", V3_MISSES, date="2026-01-03T10:00:00+01:00")
    elsewhere["config"]["prompt"] = "../prompts/v3.txt"
    out = cli("compare", two_runs[1], write_run("runs/dev-v3-3.json", elsewhere))[1]
    assert "Changed: nothing in the configuration" in out, out
    # (129th round) a family or quantization said in other case alone is no change, as a run's end and a resume read it
    said, other = (split_run("dev", V3_MISSES, date="2026-01-03T10:00:00+01:00") for _ in range(2))
    said["config"].update(model_family="qwen2", quantization="Q4_K_M")
    other["config"].update(model_family="Qwen2", quantization="q4_k_m")
    out = cli("compare", write_run("runs/said.json", said), write_run("runs/other.json", other))[1]
    assert "Changed: nothing in the configuration" in out, out
    other["config"]["quantization"] = "Q8_0"
    out = cli("compare", "runs/said.json", write_run("runs/other2.json", other))[1]
    assert "quantization: Q4_K_M -> Q8_0" in out, out


def test_compare_json(two_runs, cli):
    c = json.loads(cli("compare", *two_runs, "--json")[1])
    assert c["fixed"] == ["dev-09", "dev-11", "dev-24"] and c["regressions"] == ["dev-05"]
    assert c["baseline"]["correct"] == 25 and c["candidate"]["correct"] == 27
    assert c["changed"]["prompt"] == ["prompts/v2.txt", "prompts/v3.txt"]


def mid_p(fixed, broken):
    """The two-sided mid-p McNemar test from scipy's binomial (Fagerland, Lydersen and Laake 2013):
    twice the smaller tail less the probability of the table seen; 1 - half of it at a tie."""
    n, k = fixed + broken, min(fixed, broken)
    if fixed == broken:
        return 1 - scipy.stats.binom.pmf(k, n, 0.5) / 2
    return 2 * scipy.stats.binom.cdf(k, n, 0.5) - scipy.stats.binom.pmf(k, n, 0.5)


def test_compare_statistics_lines(dev_run, worse_run, cli):
    # baseline dev-v2 misses 09, 11, 24; candidate misses 01, 02, 04, 05, 06, 07
    c = json.loads(cli("compare", dev_run, worse_run, "--json")[1])
    assert len(c["fixed"]) == 3 and len(c["regressions"]) == 6
    assert c["test"] == {"name": "mid-p McNemar", "p": pytest.approx(mid_p(3, 6), rel=1e-9)}
    assert "fisher_p" not in c   # Fisher ignores the pairing: only on request
    d = c["difference"]
    assert d["estimate"] == pytest.approx(-3 / 28) and d["low"] < -0.25 and d["high"] > 0.05
    out = cli("compare", dev_run, worse_run)[1]
    def pts(x):
        return f"{100 * x:+.1f}".replace("-", "−")
    assert (f"  {pts(-3 / 28)} points (95% CI {pts(d['low'])} to {pts(d['high'])}), "
            f"p = {c['test']['p']:.2g} (mid-p McNemar): could be chance (any change in the interval fits these "
            f"cases)") in out
    assert "Fisher" not in out
    c = json.loads(cli("compare", dev_run, worse_run, "--json", "--fisher")[1])
    assert c["fisher_p"] == pytest.approx(scipy.stats.fisher_exact([[25, 3], [22, 6]]).pvalue, rel=1e-9)
    out = cli("compare", dev_run, worse_run, "--fisher")[1]
    assert f"ignoring that both runs answered the same cases: for a test set before the run): p = {c['fisher_p']:.2g}" in out


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
    # (121st round) which run holds which version, named
    assert (f"different versions of the split (dev {old_sha[:8]} in {two_runs[0]} (the baseline) vs dev {new_sha[:8]} in "
            "runs/dev-v3-2.json (the candidate))") in err, err
    assert "run the older configuration again on the split as it is now" in err   # the next step, not a dead end
    # (83rd attack) of the held-out split, that next step is refused by the guard: its edit is a test set of its own
    test_run = write_run("runs/test-v2.json", split_run("test"))
    add_a_case("golden/test.jsonl")
    code, out, err = cli("compare", test_run, write_run("runs/test-v3.json", split_run("test")))
    assert code == 2 and "compare runs of one version (the held-out guard refuses the older configuration on this one, unless " \
        "--rerun-test marks it forced, when they share most of their cases)" in err and "run the older" not in err, err


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
    # (135th round) the split at hand as the runs recorded it holds every id they asked: one it lacks is refused as the
    # run is read; compare's own word is of runs whose split is gone, which cannot tell
    code, out, err = cli("compare", two_runs[0], "edited.json")
    assert code == 2 and "edited.json: not a valid run file: case dev-99 is not one golden/dev.jsonl holds" in err, err
    Path("golden/dev.jsonl").rename("golden/gone.jsonl")
    code, out, err = cli("compare", two_runs[0], "edited.json")
    assert code == 2 and (f"the runs hold different cases ({two_runs[0]} (the baseline) holds dev-01, which edited.json "
                          f"(the candidate) lacks; edited.json (the candidate) holds dev-99, which {two_runs[0]} (the "
                          "baseline) lacks)") in err, err
    sha = run["config"]["split_sha"][:8]
    assert f"split sha {sha} vs {sha}" in err
    # (117th round) an id edited to end in a space: quoted, and refused among many runs too, where it was compared on
    # the rest, said to be a run of part of the split (--limit, --cases)
    run["results"][0]["id"] = "dev-02 "
    json.dump(run, open("edited.json", "w", encoding="utf-8"), ensure_ascii=False)
    code, out, err = cli("compare", two_runs[0], two_runs[1], "edited.json")
    assert code == 2 and (f"error: refusing to compare: the runs hold different cases ({two_runs[0]} holds dev-01, which "
                          f"edited.json lacks; edited.json holds 'dev-02 ', which {two_runs[0]} lacks)\n") == err, err
    # (its newcomer) the run at fault named, where among many "only" was of the two compared: a case taken out
    del run["results"][0]
    run["config"]["cases"] -= 1
    json.dump(run, open("edited.json", "w", encoding="utf-8"), ensure_ascii=False)
    code, out, err = cli("compare", two_runs[0], two_runs[1], "edited.json")
    assert code == 2 and (f"the runs hold different cases ({two_runs[0]} holds dev-01, which edited.json lacks)") in err, err
    run = load_json(two_runs[1])
    # (its review) what eval.py itself calls unseen, and another Unicode form, escaped: two ids read alike were shown
    run["results"][0]["id"] = "dev-01\u00ad"
    json.dump(run, open("edited.json", "w", encoding="utf-8"), ensure_ascii=False)
    code, out, err = cli("compare", two_runs[0], two_runs[1], "edited.json")
    assert code == 2 and f"edited.json holds $'dev-01\\u00ad', which {two_runs[0]} lacks)" in err, err
    assert evalpy.id_word(unicodedata.normalize("NFD", "ñandú")) == "$'n\\u0303andu\\u0301'"
    assert evalpy.id_word("ñandú") == "ñandú" and evalpy.id_word("dev-01") == "dev-01"
    # (its review) an id that reads as another's quoted form is quoted itself: two ids were shown alike
    assert evalpy.id_word("c\nF") != evalpy.id_word("$'c\\nF'") and evalpy.id_word("a  b") != evalpy.id_word("'a  b'")
    assert evalpy.id_word("O'Brien") == "O'Brien"


def test_the_gate_names_only_the_runs_with_a_failed_call_on_a_compared_case(project, cli, fake):
    """Issue 28, twenty-second attack (minor): of a full run whose one error is on a case the other run lacks,
    compare's gate said "ask its answers again: run --resume" as well: paid, and no figure changed."""
    fake.answers = answer_key("golden/dev.jsonl")
    fake.faults_for = {text: ["500"] for text in sorted(fake.answers)[:1]}   # one case's call fails in the full run
    assert cli("run", "--split", "dev", "--host", fake.url, "--retries", "0", "--out", "runs/full.json")[0] == 2
    failed_id = next(r["id"] for r in load_json("runs/full.json")["results"] if r["error"])
    fake.faults_for = {}
    five = [i for i in (f"dev-{n:02d}" for n in range(1, 29)) if i != failed_id][:5]
    fake.faults = ["500"]   # the five-case run's first call fails too
    assert cli("run", "--split", "dev", "--host", fake.url, "--retries", "0", "--cases", ",".join(five),
               "--out", "runs/five.json")[0] == 2
    code, out, err = cli("compare", "runs/full.json", "runs/five.json", "--fail-on-regression")
    assert code == 2 and "ask its answers again: python eval.py run --resume runs/five.json" in err, err
    assert "runs/full.json" not in err.split("(infrastructure, not the model)")[1], err


def test_two_runs_compare_on_the_cases_both_hold_when_one_ran_part_of_the_split(project, cli, fake):
    """Issue 31, item 7: compare of a full run and one made with --limit 5 refused, while adding a third
    run compared the 5 shared cases. Two runs compare on the shared cases too, and say so."""
    fake.answers = answer_key("golden/dev.jsonl", {"dev-02": "bug", "dev-03": "bug"})
    assert cli("run", "--split", "dev", "--host", fake.url, "--out", "runs/full.json")[0] == 0
    fake.answers = answer_key("golden/dev.jsonl", {"dev-04": "bug"})
    assert cli("run", "--split", "dev", "--host", fake.url, "--limit", "5", "--out", "runs/five.json")[0] == 0
    code, out, err = cli("compare", "runs/full.json", "runs/five.json")
    assert code == 0, err
    assert ("Cases: compared on the 5 cases both runs hold (the baseline holds 28, the candidate 5: only part of "
            "the split, the first 5 cases, --limit 5); the other 23 cases are left out") in out
    assert "Fixed (2): dev-02, dev-03" in out and "Regressions (1): dev-04" in out
    assert "Accuracy: 3/5 = 60%" in out and "-> 4/5 = 80%" in out   # both on the 5 shared cases
    assert "  subset: the whole split -> the first 5 cases, --limit 5" in out
    s = json.loads(cli("compare", "runs/five.json", "runs/full.json", "--json")[1])
    assert s["shared"] == {"cases": 5, "held": [5, 28]} and s["baseline"]["scored"] == 5
    assert cli("compare", "runs/full.json", "runs/five.json", "--html", "c.html")[0] == 0
    assert "Cases: compared on the 5 cases both runs hold" in (project / "c.html").read_text(encoding="utf-8")
    md = cli("compare", "runs/full.json", "runs/five.json", "--markdown")[1]
    assert "Compared on the 5 cases both runs hold (28 and 5)" in md
    # (round 106) the speed too is over the shared cases, not either run's own report's figure: said so in every view
    assert "Speed (the 5 cases both runs hold): median latency " in out, out
    assert "| Latency, median (the 5 cases both runs hold) | " in md
    assert "Speed (the 5 cases both runs hold)" in (project / "c.html").read_text(encoding="utf-8")
    edited = load_json("runs/five.json")
    edited["results"][0]["id"] = "dev-99"   # a case the split does not have: an edited run, still refused
    write_run("runs/edited.json", edited)
    # (117th round) beside another run of part of the split: the edited id was one the other part lacks, compared on
    # the rest, "only part of the split". (135th round) the split at hand as the run recorded it holds every id it
    # asked: one it lacks is refused as the run is read, beside any run
    lacked = "runs/edited.json: not a valid run file: case dev-99 is not one golden/dev.jsonl holds"
    for runs in (("runs/full.json",), ("runs/five.json",), ("runs/full.json", "runs/five.json")):
        code, out, err = cli("compare", *runs, "runs/edited.json")
        assert code == 2 and lacked in err, (runs, err)
    edited["results"][0]["id"] = "dev-06"   # a case of the split, past the first five
    write_run("runs/edited.json", edited)
    code, out, err = cli("compare", "runs/full.json", "runs/edited.json")
    assert code == 2 and "holds other cases than its part of the split" in err, err
    # (its review) a --limit 6 run holding the first 5: said of the part it recorded; a --cases run naming an id the
    # split has not, the id edited in both: refused, as the split says (135th round: as the run is read)
    edited["results"][0]["id"] = "dev-01"
    edited["config"]["subset"] = {"limit": 6}
    write_run("runs/edited.json", edited)
    code, out, err = cli("compare", "runs/full.json", "runs/edited.json")
    assert code == 2 and "holds other cases than its part of the split (the first 6 cases, --limit 6)" in err, err
    edited["results"][0]["id"] = "dev-01 "
    edited["config"]["subset"] = {"cases": [r["id"] for r in edited["results"]]}
    write_run("runs/edited.json", edited)
    code, out, err = cli("compare", "runs/five.json", "runs/edited.json")
    assert code == 2 and "runs/edited.json: not a valid run file: case dev-01" in err and "is not one golden/dev.jsonl" in err, err


def test_two_quick_runs_of_other_cases_compare_on_the_shared_ones_or_refuse_without_any(project, cli, fake):
    fake.answers = answer_key("golden/dev.jsonl")
    assert cli("run", "--split", "dev", "--host", fake.url, "--cases", "dev-01,dev-02", "--out", "runs/a.json")[0] == 0
    assert cli("run", "--split", "dev", "--host", fake.url, "--cases", "dev-02,dev-03", "--out", "runs/b.json")[0] == 0
    assert cli("run", "--split", "dev", "--host", fake.url, "--cases", "dev-04", "--out", "runs/c.json")[0] == 0
    code, out, err = cli("compare", "runs/a.json", "runs/b.json")
    assert code == 0 and "compared on the 1 case both runs hold" in out and "the other 2 cases are left out" in out
    code, out, err = cli("compare", "runs/a.json", "runs/c.json")
    assert code == 2 and "the runs hold different cases" in err and "they share none" in err
    # (48th) each run's part of the split said
    assert ("they share none (the baseline: 2 cases, only 2 chosen cases: --cases; the candidate: 1 case, only 1 chosen "
            "case: --cases)") in err, err
    # (51st) a run of the first 3 cases against one of 2 chosen ones: each run's part said, never the baseline's for both
    assert cli("run", "--split", "dev", "--host", fake.url, "--limit", "3", "--out", "runs/first.json")[0] == 0
    code, out, err = cli("compare", "runs/first.json", "runs/a.json")
    assert code == 0 and ("Cases: compared on the 2 cases both runs hold (the baseline holds 3, the candidate 2: only part "
                          "of the split, the baseline the first 3 cases, --limit 3; the candidate 2 chosen cases, --cases); "
                          "the other 1 case is left out") in out, out
    s = json.loads(cli("compare", "runs/first.json", "runs/a.json", "--json")[1])
    assert s["subset"] == [{"limit": 3}, {"cases": ["dev-01", "dev-02"]}]
    assert cli("compare", "runs/first.json", "runs/a.json", "--html", "c.html")[0] == 0
    page = (project / "c.html").read_text(encoding="utf-8")
    assert "the baseline the first 3 cases, --limit 3; the candidate 2 chosen cases, --cases" in page
    assert "Only part of the split was run" not in page   # (said once, in the sentence of the cases both hold)


NO_ACCURACY = "Accuracy: no case has a verdict in both runs, so there is no accuracy to compare"


def runs_of_three_cases(*answers):
    """A run of three cases per answer, each giving it to all three (None: every call failed), the second asked with
    another prompt (two runs alike would be one run's copies); their paths."""
    made = [make_run([{"id": f"e{i}", "expected": "bug", "response": answer} for i in range(1, 4)],
                     prompt=prompt) for answer, prompt in zip(answers, ("prompts/v3.txt", "prompts/v2.txt"))]
    return [write_run(f"runs/{name}.json", run) for name, run in zip(("first", "second"), made)]


def test_a_run_where_every_case_errored_gives_no_accuracy_to_compare_not_0_of_0(project, cli):
    """139th round: compare of a run against one whose every call failed printed "Accuracy (on the 0 cases both runs
    decided): 0/0 = - -> 0/0 = -" (and a markdown row of it): there is no accuracy to compare, said so."""
    runs = runs_of_three_cases("bug", None)
    for view in ([], ["--markdown"]):
        out = cli("compare", *runs, *view)[1]
        assert "0/0" not in out and NO_ACCURACY in out, out


def test_runs_whose_every_call_failed_have_nothing_scored_on_the_page_and_in_json(project, cli):
    """140th round: compare --html of two runs whose every call failed headed the page "Accuracy (on the 0 cases both
    runs decided)" over "Baseline 0/0 = -" and a per-label table of dashes, and --json said nothing of it (a baseline
    "scored": 0, "correct": 0): the page says there is no accuracy to compare, as the text does, and --json has
    "nothing_scored": true and its per-label table empty; a pair with verdicts has false."""
    for answers, nothing in (((None, None), True), (("bug", None), True), (("bug", "bug"), False)):
        runs = runs_of_three_cases(*answers)
        out = json.loads(cli("compare", *runs, "--json")[1])
        assert out["nothing_scored"] is nothing and (out["details"]["per_label"] == {}) is nothing, out
        Path("c.html").unlink(missing_ok=True)
        assert cli("compare", *runs, "--html", "c.html")[0] == 0
        page = html.unescape(re.sub(r"<[^>]+>", " ", Path("c.html").read_text(encoding="utf-8")))
        assert ("0/0" not in page and NO_ACCURACY in page and "Per label" not in page) is nothing, page
        assert ("3/3 = 100%" in page) is not nothing, page


def test_errors_are_kept_out_of_fixed_and_regressions(two_runs, cli):
    errored = write_run("runs/dev-v3-2.json", split_run("dev", {"dev-09": None}))   # dev-09 got no usable answer
    out = cli("compare", two_runs[0], errored)[1]
    assert "Fixed (2): dev-11, dev-24" in out
    assert "Not compared (1): dev-09  (no verdict in a run, or one its trials without a verdict could turn: an error, or a judge that gave none)" in out


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
        assert code == 2 and out == "" and (f"error: {dev_run} is given twice; " if other == dev_run else
                                            f"error: {dev_run} and {other} are the same run (one file); ") in err, err


def test_runs_of_different_splits_are_called_that(project, cli, dev_run):
    test_run = write_run("runs/test-v2.json", split_run("test", prompt="prompts/v2.txt"))
    code, out, err = cli("compare", dev_run, test_run)
    assert code == 2 and "different splits (golden/dev.jsonl vs golden/test.jsonl:" in err and "versions" not in err


def test_changed_values_print_as_json_and_trials_pair_like_for_like(project, cli):
    """compare printed Python reprs ({}, None, ['\\n']), left repeat out, and said "Accuracy" of a
    free-text set."""
    a = write_run("runs/a.json", make_run([("c1", "bug", "bug"), ("c2", "acceso", "bug")], options={}, format=None))
    b = write_run("runs/b.json", make_run([("c1", "bug", ["bug"] * 3), ("c2", "acceso", ["acceso"] * 3)],
                                          options={"stop": ["\n"]}, format="json"))
    out = cli("compare", a, b)[1]
    assert '  options: {} -> {"stop": ["\\n"]}' in out and "  format: none -> json" in out
    assert "  repeat: 1 -> 3" in out
    assert "Identical raw answers: 1 of 2 (trial 1 of each case: the trials both runs have)" in out
    free = [{"id": "c1", "response": "hola", "checks": [{"name": "says hi", "type": "contains", "value": "hola",
                                                         "blocking": True}]}]
    fa, fb = (write_run(f"runs/free-{n}.json", make_run(free, labels=None, prompt=f"prompts/{n}.txt")) for n in ("v1", "v2"))
    assert "Pass rate: 1/1 = 100% (95% CI 21–100%) -> 1/1 = 100% (95% CI 21–100%)" in cli("compare", fa, fb)[1]


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


def test_many_runs_are_each_tested_against_the_first_with_holm_adjusted_p_values(project, cli):
    """Issue 26: never against a best picked from the same data, which called chance a difference in
    9% of 10-run comparisons of identical systems; against the run given first, Holm-adjusted."""
    from statsmodels.stats.multitest import multipletests
    code, out, err = cli("compare", *four_runs())
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == "4 runs of dev (a74c6ae4), compared on 28 cases, each against the first listed (the reference)."
    assert [l.split()[:2] for l in lines[3:7]] == [["1", "dev-v1"], ["2", "dev-v2"], ["3", "dev-v3"], ["4", "dev-llama"]]
    assert lines[2].split() == ["#", "run", "prompt", "model", "accuracy", "95%", "CI", "vs", "reference", "p", "Holm", "p"]
    assert lines[3].split()[2:] == ["prompts/v1.txt", "qwen2.5:7b", "22/28", "=", "79%", "60–90%", "reference"]
    # against dev-v1 (misses 01, 02, 04, 05, 06, 07): dev-v2 6 fixed / 3 broken, dev-v3 5 / 0, dev-llama 6 / 1
    raw = [mid_p(6, 3), mid_p(5, 0), mid_p(6, 1)]
    holm = multipletests(raw, method="holm")[1]
    m = json.loads(cli("compare", *four_runs(), "--json")[1])
    assert m["reference"] == "runs/dev-v1.json" and m["cases"] == 28 and m["comparisons"] == 3
    assert [r["p"] for r in m["runs"][1:]] == pytest.approx(raw, rel=1e-9)
    assert [r["holm_p"] for r in m["runs"][1:]] == pytest.approx(list(holm), rel=1e-9)
    for r, (both, fixed, broken, neither) in zip(m["runs"][1:], [(19, 6, 3, 0), (22, 5, 0, 1), (21, 6, 1, 0)]):
        # each interval at 1 - 0.05/3 (Bonferroni over the three comparisons), as their p-values are adjusted
        assert [r["difference"][k] for k in ("estimate", "low", "high")] == pytest.approx(
            newcombe_paired(both, fixed, broken, neither, level=1 - 0.05 / 3), rel=1e-9)
    assert m["runs"][0]["ci"] == pytest.approx(list(scipy.stats.binomtest(22, 28).proportion_ci(method="wilson")))
    assert lines[5].split()[-9:] == ["+17.9", "points", "(98.3%", "CI", "−3.5", "to", "+40.1)", "0.031", "0.094"]   # raw p under alpha, adjusted over it
    assert "Holm p: adjusted for 3 comparisons" in out and "98.3% interval, wide enough for the 3 comparisons at once" in out
    assert lines[-2] == ("  dev-v3 − dev-v1: +17.9 points (98.3% CI −3.5 to +40.1), Holm-adjusted p = 0.094: could be "
                         "chance (any change in the interval fits these cases)")
    md = cli("compare", *four_runs(), "--markdown")[1]
    assert "| 3 | dev-v3 | prompts/v3.txt | qwen2.5:7b | 27/28 = 96% | 82–99% | +17.9 points (98.3% CI −3.5 to +40.1) | 0.031 | 0.094 |" in md


def test_a_row_of_many_runs_with_no_interval_says_why(project, cli):
    """117th round: a run whose every case fell by one trial in three had no interval in its row, where the legend said
    each row had one; a compare of two says why."""
    def trials(name, counts, day):
        return write_run(f"runs/{name}.json", make_run([(f"c{i}", "bug", ["bug"] * k + ["acceso"] * (3 - k))
                                                        for i, k in enumerate(counts)], date=f"2026-01-0{day}T09:30:00+01:00"))
    runs = trials("a", [3, 2, 2, 1, 3], 1), trials("b", [2, 1, 1, 0, 2], 2), trials("c", [3, 3, 2, 1, 3], 3)
    code, out, err = cli("compare", *runs)
    assert code == 0 and "No interval for b: every case moved alike, by the same amount.\n" in out, out
    assert "No interval for c" not in out and "(97.5% CI" in out
    # (its review) a run whose cases' pass rates all stayed: no case moved, not "moved alike"
    runs = trials("a", [3, 2, 2, 1, 3], 1), trials("b", [3, 2, 2, 1, 3], 2), trials("c", [3, 3, 2, 1, 3], 3)
    code, out, err = cli("compare", *runs)
    assert code == 0 and "No interval for b: no case moved.\n" in out and "moved alike" not in out, out


def test_many_runs_show_the_settings_that_tell_them_apart(project, cli):
    """113th round: each setting was cut at 30 columns, so two runs whose options differed in num_predict alone read
    '{"num_ctx": 4096, "num_predic…' alike in text and markdown. An object shows the entries that differ; a value is
    cut only where the runs stay apart."""
    runs = [write_run(f"runs/{name}.json", split_run("dev", options=options, judge=judge))
            for name, options, judge in [
                ("a", {"num_ctx": 4096, "num_predict": 2}, None),
                ("b", {"num_ctx": 4096, "num_predict": 3}, None),
                ("c", {"num_ctx": 4096, "num_predict": 3, "top_k": 1}, None)]]
    out = cli("compare", *runs)[1]
    rows = [" ".join(line.split()) for line in out.splitlines() if line[:3] in ("  1", "  2", "  3")]
    assert [row.split(" 28/28")[0] for row in rows] == [
        '1 a {"num_predict": 2}', '2 b {"num_predict": 3}', '3 c {"num_predict": 3, "top_k": 1}'], out
    md = cli("compare", *runs, "--markdown")[1]
    assert '| 1 | a | {"num\\_predict": 2} |' in md and '| 2 | b | {"num\\_predict": 3} |' in md, md
    # (113th round) a forced re-run of the held-out split is said, as a compare of two says it
    forced = write_run("runs/forced.json", split_run("dev", options={"num_ctx": 4096, "num_predict": 9},
                                                     rerun_test={"forced": True, "earlier": ["runs/t.json"]}))
    for view in ((), ("--markdown",)):
        assert "runs/forced.json: WARNING: a forced re-run of the held-out test split" in cli("compare", *runs, forced, *view)[1]
    assert json.loads(cli("compare", *runs, forced, "--json")[1])["rerun_test"] == [
        ["runs/forced.json", {"forced": True, "earlier": ["runs/t.json"]}]]
    # (its review) entries that differ past 30 columns are shown whole; keys in another order are no difference
    assert evalpy.settings_cells([{"settings": {"options": {"num_ctx": n, "stop": ["x", s]}}} for n, s in
                                  ((2048, "y"), (4096, "z"))], "options") == [
        '{"num_ctx": 2048, "stop": ["x", "y"]}', '{"num_ctx": 4096, "stop": ["x", "z"]}']
    assert evalpy.distinct_settings([{"options": {"a": 1, "b": 2}}, {"options": {"b": 2, "a": 1}}]) == []
    # a long value the cut would make alike is shown whole
    assert evalpy.settings_cells([{"settings": {"prompt": "prompts/" + "x" * 40 + n}} for n in "12"], "prompt") == [
        "prompts/" + "x" * 40 + "1", "prompts/" + "x" * 40 + "2"]


def test_many_runs_tell_apart_a_prompt_edited_in_place_and_a_model_pulled_again(project, cli):
    """138th round: in a table of three, a prompt's hash was left out wherever its names differed anywhere, so two runs
    of prompts/mine.txt edited between them (and two of one model re-pulled, beside another model) read as one setting.
    A hash is left out only where each name has one."""
    texts = ("Clasifica el ticket.\n", "Clasifica el ticket, con cuidado.\n", "Clasifica.\n")
    runs = [write_run(f"runs/{name}.json", split_run("dev", prompt=prompt, prompt_text=text, prompt_sha=sha(text),
                                                     model=model, model_digest=digest))
            for name, prompt, text, model, digest in [
                ("a", "prompts/mine.txt", texts[0], "qwen2.5:7b", "643816e6aa"),
                ("b", "prompts/mine.txt", texts[1], "qwen2.5:7b", "abababab00"),
                ("c", "prompts/v3.txt", texts[2], "llama3.2:3b", "5c7ac4aead")]]
    settings = [r["settings"] for r in json.loads(cli("compare", *runs, "--json")[1])["runs"]]
    assert [(s["prompt_sha"], s["model_digest"]) for s in settings] == [
        (sha(texts[0]), "643816e6aa"), (sha(texts[1]), "abababab00"), (sha(texts[2]), "5c7ac4aead")], settings
    out = cli("compare", *runs)[1]
    assert sha(texts[0])[:8] in out and "abababab" in out, out
    # where each name has one hash, the name alone tells the runs apart, as before
    assert evalpy.distinct_settings([{"prompt": p, "prompt_sha": h} for p, h in
                                     (("a.txt", "1"), ("a.txt", "1"), ("b.txt", "2"))]) == ["prompt"]


def test_many_runs_say_each_runs_invalid_answers_and_length_stops(project, cli):
    """73rd attack: a run cut at 3 tokens ranked last in a compare of three, and why (its answers stopped for length,
    none a label) was said in no view, as a compare of two says it."""
    from conftest import V1_MISSES
    cut = split_run("dev", {cid: "fact" for cid in ("dev-01", "dev-02", "dev-03")}, prompt="prompts/v2.txt")
    for r in cut["results"]:
        r["done_reason"] = "length" if r["id"] in ("dev-01", "dev-02", "dev-03") else "stop"
    paths = [write_run("runs/dev-v1.json", split_run("dev", V1_MISSES, prompt="prompts/v1.txt")),
             write_run("runs/dev-v2.json", cut), write_run("runs/dev-v3.json", split_run("dev", {}))]
    invalid = sum(answer not in ("facturación", "bug", "acceso", "petición") for answer in V1_MISSES.values())
    out = cli("compare", *paths)[1]
    assert (f"Invalid answers (no label; counted as wrong), by run: dev-v1 {invalid} of 28, dev-v2 3 of 28, dev-v3 0 of 28."
            in out), out
    assert ("Stopped for length (a token limit or the window: report each run says which), by run: dev-v1 0 of 28, "
            "dev-v2 3 of 28, dev-v3 0 of 28.") in out, out
    md = cli("compare", *paths, "--markdown")[1]
    assert "Stopped for length (a token limit or the window: report each run says which), by run: dev-v1 0 of 28" in md
    m = json.loads(cli("compare", *paths, "--json")[1])
    assert [(r["answers"], r["invalid_answers"], r["length_stops"]) for r in m["runs"]] == [(28, invalid, 0), (28, 3, 3), (28, 0, 0)]


def test_compare_counts_the_answers_ollama_stopped_for_repeating_themselves(project, cli):
    """Round 103: a baseline whose model looped on 4 of its answers (Ollama stops it: done_reason "repeat") read in
    compare only as "Invalid answers: 4 -> 0", nothing naming the loops, as answers stopped for length are named."""
    looped = split_run("dev", {cid: "ja ja ja" for cid in ("dev-01", "dev-02")}, prompt="prompts/v2.txt")
    for r in looped["results"]:
        r["done_reason"] = evalpy.REPEAT_STOP if r["id"] in ("dev-01", "dev-02") else "stop"
    a, b = write_run("runs/dev-v2.json", looped), write_run("runs/dev-v3.json", split_run("dev", {}))
    out = cli("compare", a, b)[1]
    assert ("Stopped for repeating itself: 2 -> 0 (the server cut a model that looped (Ollama: one token over 30 "
            "times; vLLM: its repetition check))") in out, out
    assert "| Stopped for repeating itself | 2 | 0 |" in cli("compare", a, b, "--markdown")[1]
    assert json.loads(cli("compare", a, b, "--json")[1])["repeat_stops"] == [2, 0]
    cli("compare", a, b, "--html", "c.html")
    assert "Stopped for repeating itself" in Path("c.html").read_text()
    code, out, err = cli("compare", a, b, write_run("runs/dev-v1.json", split_run("dev", {}, prompt="prompts/v1.txt")))
    assert "Stopped for repeating itself (the server cut a model that looped (Ollama: one token over 30 times; vLLM: " \
           "its repetition check)), by run: " \
           "dev-v2 2 of 28, dev-v3 0 of 28, dev-v1 0 of 28." in out, out


def test_the_readme_gives_the_many_run_intervals_the_level_the_table_prints():
    """From the tester's pass after issue 26: the README's "Three or more runs" said `vs reference`
    has 'a 95% interval', above its own example whose intervals are 98.3% (Bonferroni, three comparisons)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text[text.index("**Three or more runs.**"):text.index("**Side by side: `--pairwise`.**")]
    bullet = " ".join(section[section.index("- **Each run is paired with the reference**"):].split("\n- ")[0].split())
    assert "98.3% CI" in section and "95% interval" not in bullet and "widened for the number of comparisons" in bullet


def newcombe_paired(both, fixed, broken, neither, level=0.95):
    """Newcombe's (1998) method 10 for candidate minus baseline, written from the paper's formula
    (phi with its correction, then the two Wilson intervals from scipy)."""
    n = both + fixed + broken + neither
    a, b = (both + broken) / n, (both + fixed) / n
    (la, ua), (lb, ub) = (scipy.stats.binomtest(k, n).proportion_ci(method="wilson", confidence_level=level)
                          for k in (both + broken, both + fixed))
    margins = (both + broken) * (fixed + neither) * (both + fixed) * (broken + neither)
    cross = both * neither - broken * fixed
    cross = cross - n / 2 if cross > n / 2 else min(cross, 0)
    phi = cross / margins ** 0.5 if margins else 0
    d = b - a
    return (d, d - ((b - lb) ** 2 - 2 * phi * (b - lb) * (ua - a) + (ua - a) ** 2) ** 0.5,
            d + ((ub - b) ** 2 - 2 * phi * (ub - b) * (a - la) + (a - la) ** 2) ** 0.5)


def test_a_difference_that_survives_the_adjustment_is_called(project, cli):
    ten = {f"dev-{i:02d}": "no sé" for i in (1, 2, 3, 4, 6, 7, 8, 9, 10, 11)}
    runs = four_runs()
    out = cli("compare", write_run("runs/dev-bad.json", split_run("dev", ten, prompt="prompts/v1.txt")), *runs[1:])[1]
    # dev-v3 against the bad run: 10 fixed, 1 broken (dev-05)
    assert f"  dev-v3 − dev-bad: +32.1 points" in out and "dev-v3 is better than dev-bad beyond chance" in out


def test_runs_of_part_of_the_split_are_compared_on_the_cases_all_share(project, cli):
    runs = four_runs()
    part = split_run("dev", {}, prompt="prompts/v2.txt", subset={"limit": 10}, temperature=0.7)
    part["results"] = part["results"][:10]
    part["config"]["cases"] = 10
    write_run("runs/dev-quick.json", part)
    code, out, err = cli("compare", *runs, "runs/dev-quick.json")
    assert code == 0, err
    assert "5 runs of dev (a74c6ae4), compared on 10 cases, each against the first listed (the reference)." in out
    assert "Only the cases every run holds are compared (10; the runs hold 28, 28, 28, 28, 10)" in out
    assert " temperature " in out.splitlines()[2] and " subset " in out.splitlines()[2]


def test_many_runs_are_refused_as_two_are(project, cli):
    runs = four_runs()
    code, out, err = cli("compare", runs[0], runs[1], runs[0])
    assert code == 2 and f"error: {runs[0]} is given twice" in err
    # (31st round) a link among four was "both arguments are the same run", naming neither the link nor its run
    os.symlink(os.path.abspath(runs[1]), "lnk.json")
    code, out, err = cli("compare", runs[0], runs[1], runs[2], "lnk.json")
    assert code == 2 and f"error: {runs[1]} and lnk.json are the same run (one file)" in err, err
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
    # (63rd attack) a gate failed is the outcome, as over two runs: one pair not judged made it 2, which CI may retry
    assert code == 1 and "gates not judged: dev-v1 -> errored:" in err and "GATE FAILED: dev-v1 -> dev-v2" in err, err
    code, out, err = cli("compare", runs[0], runs[2], "runs/errored.json", "--fail-on-regression")
    assert code == 2 and "gates not judged: dev-v1 -> errored:" in err and "gate passed: dev-v1 -> dev-v3" in err, err
    assert json.loads(cli("compare", *runs, "--fail-on-regression", "--json")[1])["gates"]["exit"] == 1


def test_a_many_run_gate_says_the_cases_it_left_out_that_two_runs_share(project, cli):
    """Forty-seventh round on issue 28: with a third run of 10 chosen cases, dev-v1 -> dev-v2 passed with "0
    regression(s)" (its three regressions lie outside those 10) while the two compared alone failed, nothing
    saying that cases were left out."""
    runs = four_runs()
    chosen = [f"dev-{i:02d}" for i in range(1, 9)]
    part = load_json(runs[2])
    part["results"] = [r for r in part["results"] if r["id"] in chosen]
    part["config"].update(cases=8, subset={"cases": chosen})
    write_run("runs/part.json", part)
    # (62nd) said was not enough: a CI job reads the exit, and 0 hid the regressions; each run is gated on the cases it
    # and the first hold, as the two compared alone
    alone, alone_err = cli("compare", runs[0], runs[1], "--fail-on-regression")[::2]
    code, out, err = cli("compare", runs[0], runs[1], "runs/part.json", "--fail-on-regression")
    regressions = re.search(r"GATE FAILED: (\d+ regression\(s\): [^\n(]*)", alone_err).group(1).rstrip()
    assert alone == code == 1 and f"GATE FAILED: dev-v1 -> dev-v2: {regressions} (on the 28 cases these two hold)" in err, err
    # (48th) the test reads the cases every run decided: where a third run's errors left out cases these two decided,
    # the table's reading is not theirs to pass on (62nd: it passed them, exit 0)
    errored = write_run("runs/errored.json", split_run("dev", {f"dev-{i:02d}": None for i in range(1, 15)},
                                                       prompt="prompts/v2.txt", temperature=0.5))
    code, out, err = cli("compare", runs[0], runs[1], errored, "--fail-if-worse")
    assert code == 2 and ("gates not judged: dev-v1 -> dev-v2: significantly worse? not judged in this table (the table "
                          "reads the 14 cases every run decided, and these two decided 14 more); compare these two runs "
                          "alone to judge it") in err, err


def test_many_runs_with_no_case_in_common_are_refused_naming_what_each_holds(project, cli):
    """Forty-seventh round on issue 28: the refusal said "each asked other --cases" of runs that used --limit,
    and named none of them."""
    runs = four_runs()
    for path, ids, subset in (("runs/first.json", ["dev-01", "dev-02"], {"limit": 2}),
                              ("runs/last.json", ["dev-27", "dev-28"], {"cases": ["dev-27", "dev-28"]})):
        part = load_json(runs[1] if path == "runs/first.json" else runs[2])
        part["results"] = [r for r in part["results"] if r["id"] in ids]
        part["config"].update(cases=2, subset=subset)
        write_run(path, part)
    code, out, err = cli("compare", runs[0], "runs/first.json", "runs/last.json")
    assert code == 2 and err.strip() == (
        "error: refusing to compare: no case is held by every run (runs/dev-v1.json (28 cases); runs/first.json "
        "(2 cases, only the first 2 cases: --limit); runs/last.json (2 cases, only 2 chosen cases: --cases))"), err


def test_a_case_whose_open_trials_could_turn_it_is_left_out_of_many_runs_said_and_named(project, cli):
    """Round 104 (an attack on the views): with trials, a case one run answered once in three (two calls failed) is left
    out of the table, its majority still open, but no note said so: "compared on 3 cases" of 4, dev-v1's "not_scored"
    0 and its "errored" empty. The note names it and its run, as compare of two names the cases it did not compare."""
    from conftest import make_run
    def run(first, **config):
        return make_run([("c0", "bug", first)] + [(f"c{i}", "bug", ["bug"] * 3) for i in (1, 2, 3)], **config)
    a = write_run("runs/a.json", run([None, None, "bug"], prompt="prompts/v1.txt"))
    b = write_run("runs/b.json", run(["bug"] * 3, prompt="prompts/v2.txt"))
    c = write_run("runs/c.json", run(["acceso"] * 3))
    out = cli("compare", a, b, c)[1]
    assert "compared on 3 cases (each case's pass rate over its trials)" in out, out
    assert ("Left out: 1 case (c0) without a verdict in some run, or whose majority its trials without one could still "
            "turn (an error, or a judge that gave none; by run: a 1)") in out, out
    m = json.loads(cli("compare", a, b, c, "--json")[1])
    assert [r["not_scored"] for r in m["runs"]] == [1, 0, 0] and m["left_out"] == ["c0"], m["runs"]
    assert "Left out: 1 case (c0)" in cli("compare", a, b, c, "--markdown")[1]
    # (round 104, the command line) a run given after an option is one more run, not an unknown argument
    assert cli("compare", a, b, "--alpha", "0.1", c)[1] == cli("compare", "--alpha", "0.1", a, b, c)[1]
    assert cli("compare", a, b, "--alpha", "0.1", "--", c)[1] == cli("compare", "--alpha", "0.1", a, b, c)[1]

def test_a_run_that_mostly_failed_is_never_ranked_on_the_few_it_answered(project, cli):
    """From the attack on issue 18: a run whose calls failed on 27 of 28 cases ranked best on its
    one answer, and its pairings hid a real difference between the other two runs."""
    ids = [f"dev-{i:02d}" for i in range(1, 29)]
    a = write_run("runs/a.json", split_run("dev", {i: "no sé" for i in ids[20:]}, prompt="prompts/v1.txt"))
    b = write_run("runs/b.json", split_run("dev", {i: "no sé" for i in ids[10:]}, prompt="prompts/v2.txt"))
    one = write_run("runs/one.json", split_run("dev", {i: None for i in ids[1:]}, temperature=0.5))
    out = cli("compare", a, one, b)[1]
    assert "compared on 1 case, each against the first listed" in out
    # (113th round) every one named, as the JSON and a compare of two name them (the text and markdown cut them at 10)
    assert (f"Left out: 27 cases ({', '.join(ids[1:])}) "
            "without a verdict in some run, or whose majority its trials without one could still turn (an error, or a judge "
            "that gave none; by run: one 27)") in out, out
    code, out, err = cli("compare", a, b, one, "--fail-if-worse")
    assert code == 2 and "gates not judged" in err   # the gates say it too
    none = write_run("runs/none.json", split_run("dev", {i: None for i in ids}, temperature=0.6))
    code, out, err = cli("compare", a, b, none)
    assert code == 2 and "no case has a verdict in every run" in err
    assert "cases without one, by run: runs/none.json 28); finish or rerun them first" in err, err   # (48th) named
    m = json.loads(cli("compare", a, b, one, "--json")[1])
    assert [r["not_scored"] for r in m["runs"]] == [0, 0, 27] and m["cases"] == 1 and m["shared_cases"] == 28


def test_names_from_files_and_runs_reach_the_terminal_inert(project, cli):
    from conftest import write_two_runs
    v2, v3 = write_two_runs()
    evil = "runs/e\x1b[2J\u202evil.json"
    os.rename(v3, evil)
    out = cli("compare", v2, evil)[1]
    assert "\x1b" not in out and "\u202e" not in out and "Candidate: $'runs/e\\x1b[2J\\u202evil.json'" in out
    # (round 107) a line break in a run's name, shown as bash writes it, never ending the line
    os.rename(evil, "runs/new\nline.json")
    out = cli("compare", v2, "runs/new\nline.json")[1]
    assert "Candidate: $'runs/new\\x0aline.json'\n" in out, out
    os.rename("runs/new\nline.json", evil)
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
    # mid-p McNemar: c 1 fixed / 6 broken, p = 9/128 = 0.0703; a 1 / 3, p = 6/16; Holm: 0.14 and 0.375
    code, out, err = cli("compare", base, a, c, "--fail-if-worse", "--alpha", "0.1")
    assert code == 0, err
    assert ("gate passed: base -> c: significantly worse? no (c − base: −17.9 points (95% CI −36.5 to +1.1), "
            "Holm-adjusted p = 0.14: could be chance (any change in the interval fits these cases))") in err
    assert "gate passed: base -> a: significantly worse? no (a − base: −7.1 points" in err
    m = json.loads(cli("compare", base, a, c, "--json")[1])
    assert [r["holm_p"] for r in m["runs"][1:]] == pytest.approx([6 / 16, 2 * 9 / 128], rel=1e-9)
    code, out, err = cli("compare", base, c, "--fail-if-worse", "--alpha", "0.1")   # two runs: one comparison, no adjustment
    assert code == 1 and "p = 0.07 (mid-p McNemar): the candidate is worse beyond chance" in err


# --- issue 26: the paired difference with its interval; trials analysed per case

def trial_runs():
    """28 cases, 5 trials. The baseline passes 3 of 5 on ten cases and none on the rest (30 of 140
    answers, 21%); the candidate passes 2 of 5 on every case (56 of 140, 40%). By majority vote the
    candidate broke ten cases and fixed none; per answer it is far better."""
    def answers(passes):
        return ["bug"] * passes + ["no sé"] * (5 - passes)
    base = [(f"c{i:02d}", "bug", answers(3 if i < 10 else 0)) for i in range(28)]
    cand = [(f"c{i:02d}", "bug", answers(2)) for i in range(28)]
    return (write_run("runs/base.json", make_run(base, prompt="prompts/v1.txt")),
            write_run("runs/cand.json", make_run(cand, prompt="prompts/v2.txt")))


def cluster_ols(a_rates, b_rates, trials=5):
    """statsmodels' cluster-robust OLS of every answer's pass (0/1) on the candidate's indicator,
    clustered by case: the coefficient and its 95% interval."""
    import numpy as np
    import statsmodels.api as sm
    y, x, groups = [], [], []
    for case, (a, b) in enumerate(zip(a_rates, b_rates)):
        for side, passed in ((0, a), (1, b)):
            y += [1] * passed + [0] * (trials - passed)
            x += [side] * trials
            groups += [case] * trials
    fit = sm.OLS(np.array(y, float), sm.add_constant(np.array(x, float))).fit(
        cov_type="cluster", cov_kwds={"groups": np.array(groups)}, use_t=True)
    return fit.params[1], fit.conf_int()[1], fit.bse[1]


def test_trials_are_compared_case_by_case_not_by_majority_vote(project, cli):
    base, cand = trial_runs()
    c = json.loads(cli("compare", base, cand, "--json")[1])
    assert (len(c["fixed"]), len(c["regressions"])) == (0, 10)   # the majority vote, still shown
    per_case = [2 / 5 - (3 / 5 if i < 10 else 0) for i in range(28)]
    t = scipy.stats.ttest_1samp(per_case, 0)
    d = c["difference"]
    assert d["estimate"] == pytest.approx(sum(per_case) / 28) and round(100 * d["estimate"], 1) == 18.6
    assert [d["low"], d["high"]] == pytest.approx(list(t.confidence_interval()), rel=1e-9)
    assert c["test"] == {"name": "paired t-test on per-case pass rates", "p": pytest.approx(t.pvalue, rel=1e-9)}
    # the same figures as statsmodels' OLS on every answer, clustered by case (with a two-valued
    # regressor its small-sample factor is (N-1)/(N-2) on the variance, N = 280 answers)
    coef, (low, high), se = cluster_ols([3 if i < 10 else 0 for i in range(28)], [2] * 28)
    assert coef == pytest.approx(d["estimate"], rel=1e-12)
    assert se == pytest.approx(scipy.stats.tstd(per_case) / 28 ** 0.5 * (279 / 278) ** 0.5, rel=1e-9)
    assert round(se, 3) == 0.055 and round(low, 2) == round(d["low"], 2) == 0.07 and round(high, 2) == 0.3
    assert c["unit"] == "case pass rate" and c["baseline"]["accuracy"] == pytest.approx(30 / 140)
    code, out, err = cli("compare", base, cand, "--fail-if-worse")
    assert code == 0, err
    assert "+18.6 points (95% CI +7.2 to +29.9), p = 0.0024 (paired t-test on per-case pass rates)" in out and "the candidate is better beyond chance" in out
    assert "The unit is the case: each case's pass rate over its 5 trials. Fixed and Regressions are each case's majority vote, to read; the test uses the rates." in out
    assert "Fixed (0): - (by majority vote of each case's trials)" in out
    assert "Pass rate rose on 18, fell on 10 cases" in out
    # (round 107) the markdown a pull request reads says it too, and the unit's paragraph is its own
    md = cli("compare", base, cand, "--markdown")[1]
    assert "\n\nStayed right: 0 · stayed wrong: 18 · pass rate rose on 18, fell on 10 cases.\n" in md, md
    assert "\n\nThe unit is the case: each case's pass rate" in md, md
    code, out, err = cli("compare", cand, base, "--fail-if-worse")
    assert code == 1 and "GATE FAILED: significantly worse? yes (−18.6 points (95% CI −29.9 to −7.2)" in err


def test_one_answer_against_five_is_compared_as_the_chance_one_answer_passes(project, cli):
    """The same system at K=1 and K=5: a majority of five is more often right than one answer, which
    read as a gain the model never made. Per case, the two estimate the same thing."""
    one = [(f"c{i:02d}", "bug", "bug" if i % 2 else "no sé") for i in range(20)]          # 10 of 20
    five = [(f"c{i:02d}", "bug", ["bug"] * 3 + ["no sé"] * 2 if i % 2 else ["bug"] * 2 + ["no sé"] * 3)
            for i in range(20)]                                                            # majority: 10 of 20
    a = write_run("runs/one.json", make_run(one))
    b = write_run("runs/five.json", make_run(five, temperature=0.7))
    c = json.loads(cli("compare", a, b, "--json")[1])
    rates = [0.6 - 1 if i % 2 else 0.4 for i in range(20)]
    assert c["difference"]["estimate"] == pytest.approx(0.0, abs=1e-12)
    assert c["test"]["p"] == pytest.approx(scipy.stats.ttest_1samp(rates, 0).pvalue)
    out = cli("compare", a, b)[1]
    assert "its own trials (1 in the baseline, 5 in the candidate)" in out and "the test uses the rates" in out


def test_the_worked_example_states_the_difference_with_its_interval(project, cli):
    """20/28 -> 25/28, five fixed and none broken: exact McNemar said p = 0.0625, "not enough cases";
    the change is +17.9 points with a Newcombe interval clear of zero, mid-p = 0.031."""
    ids = [f"dev-{i:02d}" for i in range(1, 29)]
    a = write_run("runs/a.json", split_run("dev", {i: "no sé" for i in ids[:8]}, prompt="prompts/v1.txt"))
    b = write_run("runs/b.json", split_run("dev", {i: "no sé" for i in ids[5:8]}, prompt="prompts/v2.txt"))
    c = json.loads(cli("compare", a, b, "--json")[1])
    assert (len(c["fixed"]), len(c["regressions"]), c["baseline"]["correct"], c["candidate"]["correct"]) == (5, 0, 20, 25)
    d = c["difference"]
    assert [d["estimate"], d["low"], d["high"]] == pytest.approx(newcombe_paired(20, 5, 0, 3), rel=1e-9)
    assert d["method"] == "Newcombe's paired interval" and d["level"] == 0.95
    assert c["test"]["p"] == pytest.approx(mid_p(5, 0)) == 0.03125
    out = cli("compare", a, b)[1]
    assert "  +17.9 points (95% CI +1.6 to +34.7), p = 0.031 (mid-p McNemar): the candidate is better beyond chance" in out
    assert "could not have been told from chance" not in out   # said only of a change not called
    md = cli("compare", a, b, "--markdown")[1]
    assert "**Difference, candidate − baseline:** +17.9 points (95% CI +1.6 to +34.7), p = 0.031 (mid-p McNemar)" in md


def test_a_null_result_says_what_the_cases_still_allow(project, cli):
    """'Not enough cases to call it' was printed even at p = 1, where the data fit anything from a
    loss to a gain of many points: the interval says how much."""
    ids = [f"dev-{i:02d}" for i in range(1, 29)]
    a = write_run("runs/a.json", split_run("dev", {ids[0]: "no sé", ids[1]: "no sé"}, prompt="prompts/v1.txt"))
    b = write_run("runs/b.json", split_run("dev", {ids[2]: "no sé", ids[3]: "no sé"}, prompt="prompts/v2.txt"))
    c = json.loads(cli("compare", a, b, "--json")[1])
    assert c["test"]["p"] == pytest.approx(mid_p(2, 2)) and c["difference"]["estimate"] == 0
    assert [c["difference"]["low"], c["difference"]["high"]] == pytest.approx(newcombe_paired(24, 2, 2, 0)[1:], rel=1e-9)
    out = cli("compare", a, b)[1]
    low, high = (f"{100 * x:+.1f}".replace("-", "−") for x in (c["difference"]["low"], c["difference"]["high"]))
    assert (f"{low} to {high}), p = {c['test']['p']:.2g} (mid-p McNemar): could be chance (any change in the interval "
            "fits these cases)") in out
    assert "With 4 changed cases of 28, no split of them could be told from chance" in out


def test_what_one_case_or_none_cannot_tell_is_said_not_invented(project, cli):
    """From trying issue 26's change: one case with trials has no spread to read, and printed p = 1
    (a number no test gave); runs without a case in common printed what their changed cases could show."""
    a = write_run("runs/t1.json", make_run([("c1", "bug", ["bug", "no sé"])]))
    b = write_run("runs/t2.json", make_run([("c1", "bug", ["bug", "bug"])], prompt="prompts/v2.txt"))
    c = json.loads(cli("compare", a, b, "--json")[1])
    # (round 108) its one sign is the sign-flip test's coin: p 1/2, as README says of cases that all moved alike
    assert c["test"] == {"name": evalpy.ALIKE_TEST, "p": 0.5} and c["difference"]["low"] is None and c["significant"] is False
    out = cli("compare", a, b)[1]
    assert "  +50.0 points, p = 0.5 (mid-p sign-flip test on per-case pass rates): could be chance" in out, out
    third = write_run("runs/t3.json", make_run([("c1", "bug", ["no sé", "no sé"])], prompt="prompts/v1.txt"))
    m = json.loads(cli("compare", a, b, third, "--json")[1])
    assert [(r["p"], r["holm_p"]) for r in m["runs"][1:]] == [(0.5, 1.0), (0.5, 1.0)]
    code, out, err = cli("compare", a, b, "--fisher")
    # (51st) which run has trials is said, by its file
    assert code == 2 and ("--fisher tests the pass counts of one answer per case; runs/t1.json (the baseline) has 2 trials "
                          "a case and runs/t2.json (the candidate) has 2 trials a case, whose unit") in err, err
    one = write_run("runs/one.json", make_run([("c1", "bug", "bug")], prompt="prompts/v1.txt"))
    code, out, err = cli("compare", one, a, "--fisher")
    assert code == 2 and "one answer per case; runs/t1.json (the candidate) has 2 trials a case, whose unit" in err, err
    e1 = write_run("runs/e1.json", make_run([("c1", "bug", None), ("c2", "bug", None)]))
    e2 = write_run("runs/e2.json", make_run([("c1", "bug", None), ("c2", "bug", None)], prompt="prompts/v2.txt"))
    out = cli("compare", e1, e2)[1]
    assert "  no case has a verdict in both runs" in out and "changed its outcome" not in out


def test_where_the_test_and_the_interval_disagree_nothing_is_called(project, cli):
    """From the newcomer pass on issue 26: Newcombe's interval does not invert the mid-p test, and
    near the line 'worse beyond chance' was printed beside an interval reaching +0.1, or 'not told
    from chance' beside one wholly below zero; the gate followed the test alone."""
    ids = [f"c{i:03d}" for i in range(100)]
    # 100 cases: 1 both right, 1 fixed, 7 broken, 91 both wrong: mid-p 0.039, the interval reaches above zero
    right_a, right_b = {ids[0], *ids[2:9]}, {ids[0], ids[1]}
    a = write_run("runs/a.json", make_run([(i, "bug", "bug" if i in right_a else "no sé") for i in ids]))
    b = write_run("runs/b.json", make_run([(i, "bug", "bug" if i in right_b else "no sé") for i in ids],
                                          prompt="prompts/v2.txt"))
    c = json.loads(cli("compare", a, b, "--json")[1])
    assert c["test"]["p"] == pytest.approx(mid_p(1, 7)) and c["test"]["p"] < 0.05
    assert [c["difference"][k] for k in ("low", "high")] == pytest.approx(newcombe_paired(1, 1, 7, 91)[1:], rel=1e-9)
    assert c["difference"]["high"] > 0 and c["significant"] is False
    code, out, err = cli("compare", a, b, "--fail-if-worse")
    assert code == 0 and "borderline, not called (the test and the interval disagree: p is under 0.05, the interval reaches zero)" in out
    # (38th round) at an alpha equal to p, p is "at" it, not "under": the call (p <= alpha) is the same
    out = cli("compare", a, b, "--alpha", repr(c["test"]["p"]))[1]
    assert f"p is at {c['test']['p']:g}, the interval reaches zero" in out, out
    # 28 cases: 3 fixed, 10 broken: mid-p 0.057, but the interval lies wholly below zero
    ids = ids[:28]
    a = write_run("runs/c.json", make_run([(i, "bug", "no sé" if i in ids[:3] else "bug") for i in ids]))
    b = write_run("runs/d.json", make_run([(i, "bug", "no sé" if i in ids[3:13] else "bug") for i in ids],
                                          prompt="prompts/v2.txt"))
    c = json.loads(cli("compare", a, b, "--json")[1])
    assert c["test"]["p"] == pytest.approx(mid_p(3, 10)) and c["test"]["p"] > 0.05 and c["difference"]["high"] < 0
    assert "the interval clear of zero" in c["reading"] and c["significant"] is False


def test_the_interval_is_at_the_level_alpha_sets(project, cli):
    """--alpha 0.01 read a 95% interval clear of zero as 'not told from chance': the interval now
    follows alpha, so its level and the test's are one."""
    c = json.loads(cli("compare", str(EXAMPLE / "dev-v3.json"), str(EXAMPLE / "dev-v3-schema.json"), "--json",
                       "--alpha", "0.01")[1])
    d = c["difference"]
    assert d["level"] == 0.99
    assert [d["estimate"], d["low"], d["high"]] == pytest.approx(newcombe_paired(0, 5, 0, 23, level=0.99), rel=1e-9)
    assert "(99% CI " in c["reading"] and d["low"] < 0 and c["significant"] is False


def test_a_tiny_alpha_gives_its_interval_at_its_level(project, cli):
    """Attack 42: --alpha 1e-9 printed its interval as a "100% CI": the level is printed with the digits it needs."""
    runs = (str(EXAMPLE / "dev-v3.json"), str(EXAMPLE / "dev-v3-schema.json"))
    c = json.loads(cli("compare", *runs, "--json", "--alpha", "1e-9")[1])
    d = c["difference"]
    assert [d["estimate"], d["low"], d["high"]] == pytest.approx(newcombe_paired(0, 5, 0, 23, level=1 - 1e-9), rel=1e-6)
    assert "(99.9999999% CI " in c["reading"], c["reading"]   # (1e-16, past floats: test_call's bad values)


def runs_of_a_mid_p_of_three_eighths():
    """Two runs of ten cases, 1 fixed and 3 broken: a mid-p McNemar of exactly 0.375."""
    ids = [f"c{i}" for i in range(10)]
    a = write_run("runs/a.json", make_run([(i, "bug", "bug" if i in ids[1:4] else "no sé") for i in ids]))
    b = write_run("runs/b.json", make_run([(i, "bug", "bug" if i == ids[0] else "no sé") for i in ids],
                                          prompt="prompts/v2.txt"))
    return a, b


def test_alpha_and_the_level_are_shown_with_the_digits_that_tell_them_from_p(project, cli, tmp_path):
    """131st round: --alpha 0.37499999 was written 0.375 (:g) in compare's reading, its header and the gate line, beside
    a mid-p of exactly 0.375 (1 fixed, 3 broken): "p = 0.38 ... p is over 0.375", and its interval was a "62.5% CI" of
    62.500001%. alpha is now written as given (given()), p beside it with the digits that keep it over it, and the level
    with alpha's digits, in every view."""
    a, b = runs_of_a_mid_p_of_three_eighths()
    args = ("compare", a, b, "--fail-if-worse", "--alpha", "0.37499999")
    c = json.loads(cli(*args, "--json")[1])
    assert c["test"]["p"] == 0.375 and c["difference"]["estimate"] < 0
    code, out, err = cli(*args)
    assert "(Newcombe's paired interval; alpha 0.37499999):" in out, out
    assert "(62.500001% CI " in out and "p = 0.38 (mid-p McNemar)" in out and "p is over 0.37499999," in out, out
    assert "0.375)" not in out + err and "62.5% CI" not in out + err and "p is over 0.37499999," in err, err
    md = cli(*args, "--markdown")[1]
    assert "alpha 0.37499999)" in md and "(62.500001% CI " in md and "p is over 0.37499999," in md, md
    page = tmp_path / "c.html"
    cli(*args, "--html", page)
    text = page.read_text(encoding="utf-8")
    assert "alpha 0.37499999)" in text and "62.500001% CI " in text and "p is over 0.37499999," in text
    assert "0.375)" not in text and "62.5% CI" not in text
    # a level worked out (Bonferroni's, three comparisons) keeps three digits; one the user's alpha sets, its own
    assert [evalpy.level_text(1 - x) for x in (0.05, 0.05 / 3, 1e-9, 0.37499999, 0.0125)] == \
        ["95", "98.3", "99.9999999", "62.500001", "98.75"]


def test_the_level_keeps_every_digit_of_an_alpha_of_eleven_and_more(project, cli, tmp_path):
    """133rd round: the level kept alpha's digits only for alphas of up to 10 significant digits, so --alpha
    0.37499999999 printed a "62.5% CI" beside a p of 0.375. The level now takes every digit of the alpha given (up to
    a float's 17), in every view; a level worked out from it (Bonferroni's) keeps its few."""
    a, b = runs_of_a_mid_p_of_three_eighths()
    for alpha, level in (("0.37499999999", "62.500000001"), ("0.37499999999999994", "62.500000000000006")):
        args = ("compare", a, b, "--alpha", alpha)
        out = cli(*args)[1]
        assert f"({level}% CI " in out and "62.5% CI" not in out, out
        md = cli(*args, "--markdown")[1]
        assert f"({level}% CI " in md and "62.5% CI" not in md, md
        page = tmp_path / f"{alpha}.html"
        cli(*args, "--html", page)
        text = page.read_text(encoding="utf-8")
        assert f"{level}% CI " in text and "62.5% CI" not in text
    assert evalpy.level_text(1 - 0.05 / 3, 0.05) == "98.3"


def test_a_level_worked_out_from_a_tiny_alpha_is_cut_to_the_digits_it_needs(project, cli):
    """133rd round: a Bonferroni level at a tiny alpha (compare of 4 runs, --alpha 1e-9: 1 - 1e-9 / 3) was read as the
    level of an alpha typed (3.333334e-10: near 1 a float cannot tell them apart) and printed 99.99999996666666, 16
    digits, the last wrong. level_text knows the alpha given: a level not 1 - alpha is worked out, and takes the fewest
    digits that would not read 100 (99.99999996), in the rows and the note alike. Its review: rounded, 1 - 0.05 / 4 read
    98.8, more than the 98.75 its interval has; a level short in full is shown in full, any other cut, never rounded up."""
    assert evalpy.level_text(1 - 1e-9 / 3, 1e-9) == "99.99999996"
    assert [evalpy.level_text(1 - a / 3, a) for a in (1e-6, 1e-4)] == ["99.99996", "99.996"]
    assert [evalpy.level_text(1 - a / m, a) for a, m in ((0.05, 4), (0.01, 4), (0.001, 4), (0.05, 3), (0.05, 6))] == \
        ["98.75", "99.75", "99.975", "98.3", "99.1"]
    for view in ((), ("--markdown",)):
        out = cli("compare", *four_runs(), "--alpha", "1e-9", *view)[1]
        assert out.count("(99.99999996% CI ") >= 3 and "99.9999999666" not in out, out
    assert "with its 99.99999996% interval" in cli("compare", *four_runs(), "--alpha", "1e-9")[1]


def test_trials_that_always_agree_are_read_as_one_verdict_a_case(project, cli):
    """At temperature 0 every trial of a case agrees; the t-test on rates of 0 and 1 called four
    cases broken in every trial 'worse' (p = 0.043) where the same cases with one trial were not
    (mid-p 0.0625): trials that never differ add nothing, so the case's verdict is the unit."""
    ids = [f"c{i:02d}" for i in range(28)]
    def runs(k):
        a = write_run(f"runs/k{k}-a.json", make_run([(i, "bug", ["bug"] * k) for i in ids]))
        b = write_run(f"runs/k{k}-b.json", make_run([(i, "bug", ["no sé" if i in ids[:4] else "bug"] * k)
                                                     for i in ids], prompt="prompts/v2.txt"))
        return json.loads(cli("compare", a, b, "--json")[1])
    one, five = runs(1), runs(5)
    assert five["unit"] == one["unit"] == "case" and five["test"] == one["test"] == {"name": "mid-p McNemar",
                                                                                  "p": pytest.approx(mid_p(0, 4))}
    assert five["difference"] == one["difference"]
    out = cli("compare", "runs/k5-a.json", "runs/k5-b.json")[1]
    assert "Every case's trials agree (each passes all of them or none): its verdict is the unit, as with one answer." in out


def test_a_compare_with_cases_left_out_says_its_figures_are_on_the_rest(cli):
    """From the newcomer pass on issue 26: 'Pass rate: 0/3 = 0% -> 0/3 = 0%' of two runs whose
    judge decided 3 of 27 cases in both read as the runs' whole figure; report leads with bounds."""
    runs = [str(EXAMPLE / f"support-dev-v{v}.json") for v in (1, 2)]
    out = cli("compare", *runs)[1]
    assert "Pass rate (on the 3 cases both runs decided): 0/3 = 0% (95% CI 0–56%) -> 0/3 = 0% (95% CI 0–56%)" in out
    md = cli("compare", *runs, "--markdown")[1]
    assert "| Pass rate (on the 3 cases both runs decided) | 0/3 = 0% (95% CI 0–56%) |" in md


def test_cases_that_all_moved_alike_are_read_by_the_sign_flip_test_not_a_t_of_zero_spread(project, cli):
    """From the attack pass after issue 26: two cases with trials, each 3/3 in the baseline and 0/3
    in the candidate, have no spread, so the t-test's p was 0: 'worse beyond chance' (95% CI −100 to
    −100) and --fail-if-worse exited 1 on two cases, where one answer a case gives mid-p = 0.25.
    Every case moved alike: the sign-flip test reads it, its mid-p 1/2^n what mid-p McNemar gives n
    cases all one way (scipy's binomial), and half scipy's exact permutation test."""
    import numpy as np
    def runs(name, cases, before, after):
        return (write_run(f"runs/{name}-a.json", make_run([(f"c{i}", "bug", before) for i in range(cases)])),
                write_run(f"runs/{name}-b.json", make_run([(f"c{i}", "bug", after) for i in range(cases)],
                                                          prompt="prompts/v2.txt")))
    a, b = runs("two", 2, ["bug"] * 3, ["no sé"] * 3)
    # trials that all agree are the case's verdict (two cases broken): mid-p McNemar, as one answer each
    code, out, err = cli("compare", a, b, "--fail-if-worse")
    assert code == 0 and "Accuracy: 2/2 = 100% (95% CI 34–100%) -> 0/2 = 0% (95% CI 0–66%)" in out
    assert "p = 0.25 (mid-p McNemar): borderline, not called" in out   # its interval is clear of zero
    c = json.loads(cli("compare", a, b, "--json")[1])
    flips = scipy.stats.permutation_test((np.array([-1.0, -1.0]),), np.mean, permutation_type="samples",
                                         n_resamples=np.inf)
    assert c["test"]["p"] == mid_p(0, 2) == flips.pvalue / 2 and not c["significant"]
    # cases with trials that differ and all moved alike: no spread, the sign-flip test, no interval
    a, b = runs("alike", 2, ["bug"] * 3, ["bug"] + ["no sé"] * 2)
    code, out, err = cli("compare", a, b, "--fail-if-worse")
    assert code == 0 and "  −66.7 points, p = 0.25 (mid-p sign-flip test on per-case pass rates): could be chance" in out
    assert json.loads(cli("compare", a, b, "--json")[1])["difference"]["low"] is None
    # 0/3 -> 1/3 and 1/3 -> 2/3: the same +1/3, read exactly (in floats the two differ in the last bit)
    a = write_run("runs/mixed-a.json", make_run([("c0", "bug", ["no sé"] * 3), ("c1", "bug", ["bug"] + ["no sé"] * 2)]))
    b = write_run("runs/mixed-b.json", make_run([("c0", "bug", ["bug"] + ["no sé"] * 2), ("c1", "bug", ["bug"] * 2 + ["no sé"])],
                                                prompt="prompts/v2.txt"))
    c = json.loads(cli("compare", a, b, "--json")[1])
    assert c["test"] == {"name": "mid-p sign-flip test on per-case pass rates", "p": 0.25}
    # five cases alike tell, as five fixed with one answer each do, and the gate reads it
    a, b = runs("five", 5, ["bug"] * 3, ["bug"] + ["no sé"] * 2)
    code, out, err = cli("compare", a, b, "--fail-if-worse")
    assert code == 1 and f"p = {mid_p(0, 5):.2g} (mid-p sign-flip test on per-case pass rates): the candidate is worse" in err


def test_no_t_test_on_few_cases_claims_more_than_its_cases_can_show(project, cli):
    """From the attack pass after issue 26: three cases, 3/3 in the baseline, 0/3, 0/3 and 1/3 in the
    candidate: the t-test's p is 0.015 ('worse beyond chance', --fail-if-worse exit 1) while all
    three at 0/3, a stronger change, read 1/8 by the sign test. No assignment of n signs is rarer
    than all alike: the t-test's p is floored at their mid-p, 1/2^n (scipy: binomial and t)."""
    a = write_run("runs/a.json", make_run([(f"c{i}", "bug", ["bug"] * 3) for i in range(3)]))
    b = write_run("runs/b.json", make_run([("c0", "bug", ["no sé"] * 3), ("c1", "bug", ["no sé"] * 3),
                                           ("c2", "bug", ["bug"] + ["no sé"] * 2)], prompt="prompts/v2.txt"))
    assert scipy.stats.ttest_1samp([-1, -1, -2 / 3], 0).pvalue < 0.02
    c = json.loads(cli("compare", a, b, "--json")[1])
    assert c["test"] == {"name": "paired t-test on per-case pass rates, at its floor 1/2^m (m: the cases that moved)", "p": mid_p(0, 3)}
    assert not c["significant"] and cli("compare", a, b, "--fail-if-worse")[0] == 0
    many = json.loads(cli("compare", a, b, write_run("runs/c.json", make_run([(f"c{i}", "bug", ["bug"] * 3)
                                                                               for i in range(3)], prompt="prompts/v1.txt")),
                          "--json")[1])
    assert many["runs"][1]["p"] == 0.125 and many["runs"][1]["test"].endswith("at its floor 1/2^m (m: the cases that moved)")


def test_a_case_that_did_not_move_lowers_no_floor(project, cli):
    """Round 102: four cases 2/3 -> 3/3 and a fifth 3/3 in both: the t-test's 0.031 was floored at 1/2^5 and called
    ("worse beyond chance", --fail-if-worse exit 1), though the unmoved case has no sign to flip and the exact
    sign-flip test on the differences (scipy's permutation_test) cannot go below 0.125, mid-p 1/2^4."""
    moved = [1 / 3] * 4 + [0]
    exact = scipy.stats.permutation_test((np.array(moved),), np.mean, permutation_type="samples",
                                         n_resamples=np.inf).pvalue
    assert exact == pytest.approx(0.125) and scipy.stats.ttest_1samp(moved, 0).pvalue < 0.05
    a = write_run("runs/a.json", make_run([(f"c{i}", "bug", ["bug", "bug", "acceso"]) for i in range(4)]
                                          + [("c4", "bug", ["bug"] * 3)]))
    b = write_run("runs/b.json", make_run([(f"c{i}", "bug", ["bug"] * 3) for i in range(5)], prompt="prompts/v2.txt"))
    c = json.loads(cli("compare", a, b, "--json")[1])
    assert c["test"]["p"] == pytest.approx(exact - 0.125 / 2) == mid_p(0, 4) and not c["significant"], c["test"]
    assert cli("compare", b, a, "--fail-if-worse")[0] == 0
    # (round 102) in a compare of three, the runs' tests differ: each named by its run, not listed in another order
    c = write_run("runs/c.json", make_run([("c0", "bug", ["bug"] * 3), ("c1", "bug", ["bug", "acceso", "acceso"])]
                                          + [(f"c{i}", "bug", ["bug", "bug", "acceso"]) for i in (2, 3)]
                                          + [("c4", "bug", ["bug"] * 3)], prompt="prompts/v1.txt"))
    out = cli("compare", a, b, c)[1]
    assert ("p: by run, b: paired t-test on per-case pass rates, at its floor 1/2^m (m: the cases that moved); "
            "c: paired t-test on per-case pass rates, against the reference") in out, out


def test_a_p_equal_to_alpha_is_at_it_in_every_view_and_in_power(project, cli):
    """From the attack pass after issue 26: in floats the mid-p of 3 fixed and none broken was
    0.12500000000000003, so at --alpha 0.125 (p <= alpha calls it) compare said 'not told from
    chance' while its exact value, 1/8, is alpha; 5 fixed and 1 broken, also 1/8, was called by
    power's enumeration and not by compare. Few coins are now counted exactly (scipy's floats agree
    to their last bits)."""
    ids = [f"dev-{i:02d}" for i in range(1, 29)]
    a = write_run("runs/a.json", split_run("dev", {i: "no sé" for i in ids[:3]}, prompt="prompts/v1.txt"))
    b = write_run("runs/b.json", split_run("dev", {}, prompt="prompts/v2.txt"))
    c = json.loads(cli("compare", a, b, "--json", "--alpha", "0.125")[1])
    assert c["test"]["p"] == mid_p(3, 0) == 0.125 and c["significant"]
    code, out, err = cli("compare", a, b, "--alpha", "0.125", "--fail-if-worse")
    assert "p = 0.125 (mid-p McNemar): the candidate is better beyond chance" in out   # on the line, as the line
    assert cli("compare", b, a, "--alpha", "0.125", "--fail-if-worse")[0] == 1
    for fixed, broken, alpha in ((5, 1, 0.125), (6, 0, 1 / 64)):   # compare's test and power's cutoff agree
        assert evalpy.mcnemar_mid_p(fixed, broken) == alpha == pytest.approx(mid_p(fixed, broken), rel=1e-12)
        assert min(fixed, broken) <= evalpy.mid_p_cutoff(fixed + broken, alpha)[0]
    assert evalpy.sign_test(3, 0) == scipy.stats.binomtest(0, 3).pvalue == 0.25


def test_compare_markdown_quotes_what_the_runs_hold_as_code_or_escaped(project, cli):
    """Issue 28, item 9: the compare views for a pull request (two runs, many runs) showed a path,
    an id, a changed setting or a run's name holding markdown as markdown. (Round 136) Nor does any of them mention,
    link or reference on GitHub (LINKED), whose filters act on the rendered text, escapes and all."""
    tick = "c`1 " + MARKUP + LINKED
    name = "runs/r` " + (MARKUP + LINKED).replace("/", "_")
    base = make_run([(tick, "bug", "bug"), ("c2", "bug", "acceso")], model="m`` " + MARKUP + LINKED)
    cand = make_run([(tick, "bug", "acceso"), ("c2", "bug", "bug")], model="m " + MARKUP + LINKED + "`")
    again = dict(base, config=dict(base["config"], date="2026-01-03T09:30:00+01:00"))   # a rerun, not a copy
    paths = [write_run(f"{name}{i}.json", run) for i, run in enumerate((base, cand, again))]
    for argv in (paths[:2], paths):
        code, md, err = cli("compare", *argv, "--markdown", "--fail-on-regression")
        assert code == 1 and "**GATE FAILED" in md, err
        acted = markdown_acted_on(md)
        assert md.count("\n") > 5 and all("[" not in line and "<" not in line and "*b*" not in line
                                          and "_i_" not in line for line in acted), md
        assert [line for line in md.splitlines() if line.lstrip().startswith("#")] == [md.splitlines()[0]]
        table = [line for line in md.splitlines() if line.startswith("|")]
        assert len({line.count("|") - line.count("\\|") for line in table}) == 1, table   # every row as many cells
        assert github_linked(md) == [], md


def test_compare_diffs_agents_trajectories_case_by_case(project, cli):
    from conftest import agent_run, agent_spec
    baseline = agent_run()
    look, cancel = ("lookup_order", {"order_id": "A-1"}, True), ("cancel_order", {"order_id": "A-1"}, True)
    candidate = agent_run()
    changed = {"a1": agent_spec("a1", [look, cancel]),                 # started cancelling: trajectory broken
               "a2": agent_spec("a2", [look])}                          # stopped: trajectory fixed, fewer calls
    from conftest import make_run
    candidate["results"] = [make_run([changed[r["id"]]], labels=None)["results"][0] if r["id"] in changed else r
                            for r in candidate["results"]]
    a, b = write_run("runs/base.json", baseline), write_run("runs/cand.json", candidate)
    code, out, err = cli("compare", a, b)
    assert code == 0, err
    section = out.split("Trajectory changes, case by case (2 agents):\n", 1)[1].splitlines()
    assert section[:2] == [
        "  a1: started calling cancel_order; more calls: 1 -> 2; trajectory broken  (lookup_order -> lookup_order > cancel_order)",
        "  a2: stopped calling cancel_order; fewer calls: 2 -> 1; trajectory fixed  (lookup_order > cancel_order -> lookup_order)"]
    assert "Regressions (1): a1" in out and "Fixed (1): a2" in out
    doc = json.loads(cli("compare", a, b, "--json")[1])
    assert [r["id"] for r in doc["trajectory"]] == ["a1", "a2"]
    assert ("- `a1`: started calling cancel\\_order; more calls: 1 -\\> 2; trajectory broken "
            "(`lookup_order` → `lookup_order > cancel_order`)") in cli("compare", a, b, "--markdown")[1]
    assert cli("compare", a, b, "--html", "c.html")[0] == 0
    assert "started calling cancel_order; more calls: 1 -&gt; 2" in (project / "c.html").read_text(encoding="utf-8")


def test_the_same_tools_called_in_another_order_or_another_mix_is_a_trajectory_change(project, cli):
    """114th round's agents: lookup_order > cancel_order > lookup_order becoming lookup_order > lookup_order >
    cancel_order (the same tools, as many calls, first called in the same order) was no change, compare silent; and
    a later call to another tool (order, policy, order -> order, policy, policy) too."""
    from conftest import agent_spec, make_run
    order = lambda i: ("lookup_order", {"order_id": f"A-{i}"}, True)
    policy = ("cancel_order", {"order_id": "A-1"}, True)
    a, b = (write_run(f"runs/{name}.json", make_run([agent_spec(cid, path) for cid, path in zip(("a1", "a2"), calls)],
                                                    labels=None, split="agent-dev", max_turns=4))
            for name, calls in (("a", ([order(1), policy, order(3)], [order(1), policy, order(3)])),
                                ("b", ([order(1), order(3), policy], [order(1), policy, policy]))))
    out = cli("compare", a, b)[1]
    section = out.split("Trajectory changes, case by case (2 agents):\n", 1)[1].splitlines()
    assert section[:2] == [
        "  a1: called its tools in another order  (lookup_order > cancel_order > lookup_order -> lookup_order > "
        "lookup_order > cancel_order)",
        "  a2: calls per tool: cancel_order 1 -> 2, lookup_order 2 -> 1  (lookup_order > cancel_order > lookup_order -> "
        "lookup_order > cancel_order > cancel_order)"], out
    assert [r["id"] for r in json.loads(cli("compare", a, b, "--json")[1])["trajectory"]] == ["a1", "a2"]
    # (its review) beside more calls too: which tool's
    c, d = (write_run(f"runs/{name}.json", make_run([agent_spec("a1", [order(1)]), agent_spec("a2", calls)],
                                                    labels=None, split="agent-dev", max_turns=8))
            for name, calls in (("c", [order(1), order(2), policy, policy]), ("d", [order(1), policy, policy, policy, policy])))
    out = cli("compare", c, d)[1]
    assert "  a2: calls per tool: cancel_order 2 -> 4, lookup_order 2 -> 1; more calls: 4 -> 5  (" in out, out
    # (127th round) beside a tool started or stopped too: the other tools' counts and arguments (A-1 then A-2, unsaid)
    e, f = (write_run(f"runs/{name}.json", make_run([agent_spec("a1", [order(1)]), agent_spec("a2", calls)],
                                                    labels=None, split="agent-dev", max_turns=8))
            for name, calls in (("e", [order(1), policy]), ("f", [order(2), order(2), order(2)])))
    out = cli("compare", e, f)[1]
    assert ("  a2: stopped calling cancel_order; calls per tool: lookup_order 1 -> 3; more calls: 2 -> 3; other arguments "
            "to lookup_order  (") in out, out


def test_with_trials_a_trajectory_verdict_changes_by_the_majority_of_each_cases_trials(project, cli):
    """Fifty-second round on issue 28: with trials, the trajectory changes read each case's first trial alone, as
    Fixed and Regressions do not: a case whose trajectory passed by majority on both sides was listed as "trajectory
    fixed", and one that went from failing to passing by majority was not listed."""
    from conftest import agent_spec
    look, cancel = ("lookup_order", {"order_id": "A-1"}, True), ("cancel_order", {"order_id": "A-1"}, True)

    def trial_run(calls_by_case, **config):   # {case: [calls of trial 1, 2, 3]}: a run of three trials
        runs = [make_run([agent_spec(cid, calls[t]) for cid, calls in calls_by_case.items()], labels=None,
                         split="agent-dev", max_turns=3, **config) for t in range(3)]
        run = runs[0]
        run["config"]["repeat"] = 3
        run["results"] = [dict(r["results"][i], trial=t + 1) for i in range(len(calls_by_case)) for t, r in enumerate(runs)]
        return run
    a = write_run("runs/a.json", trial_run({"t1": [[look, cancel], [look], [look]], "t2": [[look], [cancel], [cancel]]}))
    b = write_run("runs/b.json", trial_run({"t1": [[look]] * 3, "t2": [[look], [look], [cancel]]}, prompt="prompts/v2.txt"))
    code, out, err = cli("compare", a, b)
    assert code == 0 and "Fixed (1): t2" in out, out
    section = out.split("Trajectory changes, case by case (2 agents; the calls of each case's first trial with an answer, "
                        "the verdict by the majority of its trials):\n", 1)[1].splitlines()
    assert section[:2] == [
        "  t1: stopped calling cancel_order; fewer calls: 2 -> 1  (lookup_order > cancel_order -> lookup_order)",
        "  t2: trajectory fixed  (lookup_order -> lookup_order)"], out
    rows = json.loads(cli("compare", a, b, "--json")[1])["trajectory"]
    assert [(r["id"], r["changes"], r["trials"]) for r in rows] == [
        ("t1", ["stopped calling cancel_order", "fewer calls: 2 -> 1"], [1, 1]), ("t2", ["trajectory fixed"], [1, 1])]
    assert "the calls of each case's first trial with an answer, the verdict by the majority of its trials" in cli("compare", a, b, "--markdown")[1]
    assert cli("compare", a, b, "--html", "c.html")[0] == 0
    assert "the calls of each case&#x27;s first trial with an answer, the verdict by the majority of its trials" in \
        (project / "c.html").read_text(encoding="utf-8")


def test_a_trajectory_its_open_trials_could_turn_is_neither_fixed_nor_broken(project, cli):
    """113th round: compare took the majority of the trajectory verdicts that came, where the report counts a level
    its trials without a verdict could turn as open (a pass, a failed call and a fail read "trajectory broken"); and
    it read the calls of a first trial that ran out of turns as "the first trial with an answer"."""
    from conftest import agent_spec
    look, cancel = ("lookup_order", {"order_id": "A-1"}, True), ("cancel_order", {"order_id": "A-1"}, True)

    def trial_run(trials_by_case, **config):   # {case: [trial 1, 2, 3]}, each its calls, "error" or ("out", calls)
        def result(cid, spec, t):
            if spec == "error":
                r = dict(agent_spec(cid, []), error="HTTP 500: boom", response=None, transcript=None, per_turn=None)
            elif spec == "thinking":   # (its review) still thinking when it stopped: no answer, and no call yet
                r = agent_spec(cid, [], final="<think>\nveamos, el pedido")
            else:
                r = agent_spec(cid, spec[1], out_of_turns=True) if spec[0] == "out" else agent_spec(cid, spec)
            return r
        run = make_run([agent_spec(cid, []) for cid in trials_by_case], labels=None, split="agent-dev", max_turns=3,
                       **config)
        run["config"]["repeat"] = 3
        run["results"] = [dict(make_run([result(cid, spec, t)], labels=None, split="agent-dev", max_turns=3)["results"][0],
                               trial=t + 1) for cid, specs in trials_by_case.items() for t, spec in enumerate(specs)]
        return run
    a = write_run("runs/a.json", trial_run({"t3": [[look]] * 3, "t4": [("out", [look, look, look]), [look], [look]],
                                            "t5": [[look]] * 3}))
    b = write_run("runs/b.json", trial_run({"t3": [[look], "error", [look, cancel]], "t4": [[look]] * 3,
                                            "t5": ["thinking", [look], [look]]}, prompt="prompts/v2.txt"))
    assert json.loads(cli("report", b, "--json")[1])["agent"]["trajectory"]["open"] == 1
    code, out, err = cli("compare", a, b, "--json")
    assert json.loads(out)["trajectory"] == [], out


def test_the_same_arguments_written_otherwise_are_the_same_call(project, cli):
    """111th round on issue 28: compare read two calls' arguments by their text, so one server's spacing or escapes
    ('{"order_id":"A\\u00f1-1"}' over /v1, an object over Ollama's API) were "the same calls with other arguments"
    for every agent. They are compared as JSON values where both read as one; as text where either does not."""
    from conftest import agent_run, agent_spec
    baseline, candidate = agent_run(), agent_run()
    written = [("lookup_order", {"order_id": "A-1", "n": 1}, True), ("lookup_order", '{"n":1,"order_id":"A-1"}', True),
               ("lookup_order", '{"order_id": "A\\u002d1", "n": 1.0}', True), ("lookup_order", '{"order_id": "A-1", "n": true}', True),
               ("lookup_order", '{"order_id": "A-1", "n": 1', True), ("lookup_order", '{"order_id": "A-1",  "n": 1', True)]
    cases = [("a1", 0, 1), ("a2", 0, 2), ("a3", 0, 3), ("a4", 4, 5)]   # a4: neither reads as JSON, their texts differ
    for side, pick in ((baseline, 0), (candidate, 1)):
        side["results"] = [make_run([agent_spec(cid, [written[picks[pick]]])], labels=None)["results"][0]
                           for cid, *picks in cases]
    out = cli("compare", write_run("runs/a.json", baseline), write_run("runs/b.json", candidate))[1]
    section = out.split("Trajectory changes, case by case (2 agents):\n", 1)[1].splitlines()
    assert section[:3] == ["  a3: the same calls with other arguments  (lookup_order -> lookup_order)",
                           "  a4: the same calls with other arguments  (lookup_order -> lookup_order)"], out


def test_the_same_calls_in_another_order_are_said_so(project, cli):
    """128th round: two lookups made in parallel, the same two in the opposite order in the candidate, were "the same
    calls with other arguments": each call was matched to the one in its place. Said to be in another order; calls
    another argument changed are still said so."""
    from conftest import agent_spec
    def look(order):
        return ("lookup_order", {"order_id": order}, True)
    calls = {"a1": ([look("A-1"), look("A-3")], [look("A-3"), look("A-1")]),
             "a2": ([look("A-1"), look("A-3")], [look("A-3"), look("A-5")])}
    baseline, candidate = (make_run([agent_spec(cid, pair[pick]) for cid, pair in calls.items()], labels=None,
                                    split="agent-dev", max_turns=3) for pick in (0, 1))
    code, out, err = cli("compare", write_run("runs/a.json", baseline), write_run("runs/b.json", candidate))
    section = out.split("Trajectory changes, case by case (2 agents):\n", 1)[-1].splitlines()
    assert section[:2] == ["  a1: the same calls in another order  (lookup_order > lookup_order -> lookup_order > lookup_order)",
                           "  a2: the same calls with other arguments; trajectory broken  (lookup_order > lookup_order "
                           "-> lookup_order > lookup_order)"], out + err


def test_a_tools_calls_in_another_order_beside_other_tools_are_not_other_arguments(project, cli):
    """128th round (second attack): where the tools came in another sequence, each tool's calls were matched by place,
    so lookup(A-1), lookup(A-2), cancel(A-2) -> lookup(A-2), cancel(A-2), lookup(A-1) said "other arguments to
    lookup_order", and so did lookup(A-2), lookup(A-1) -> lookup(A-1), a call made in both. Each call is matched once,
    in any order: other arguments only where a call of each run is left unmatched."""
    from conftest import agent_spec
    def look(order):
        return ("lookup_order", {"order_id": order}, True)
    cancel = ("cancel_order", {"order_id": "A-2"}, True)
    calls = {"a1": ([look("A-1"), look("A-2"), cancel], [look("A-2"), cancel, look("A-1")]),
             "a2": ([look("A-2"), look("A-1")], [look("A-1")]),
             "a3": ([look("A-1"), look("A-2"), cancel], [look("A-3"), cancel, look("A-1")])}
    baseline, candidate = (make_run([agent_spec(cid, pair[pick]) for cid, pair in calls.items()], labels=None,
                                    split="agent-dev", max_turns=4) for pick in (0, 1))
    code, out, err = cli("compare", write_run("runs/a.json", baseline), write_run("runs/b.json", candidate))
    section = out.split("Trajectory changes, case by case (3 agents):\n", 1)[-1].splitlines()
    assert section[:3] == [
        "  a1: called its tools in another order  (lookup_order > lookup_order > cancel_order -> lookup_order > "
        "cancel_order > lookup_order)",
        "  a2: calls per tool: lookup_order 2 -> 1; fewer calls: 2 -> 1  (lookup_order > lookup_order -> lookup_order)",
        "  a3: called its tools in another order; other arguments to lookup_order  (lookup_order > lookup_order > "
        "cancel_order -> lookup_order > cancel_order > lookup_order)"], out + err


def test_a_turn_the_token_limit_cut_is_said_cut_not_a_call_stopped(project, cli):
    """111th round: a candidate whose calling turn the token limit cut read "stopped calling lookup_order; fewer calls:
    1 -> 0" in compare, as if the model had dropped the call; the cut (its calls never run, so in no count) is said."""
    from conftest import agent_run
    baseline, candidate = agent_run(), agent_run()
    cut = dict(candidate["results"][0], response="", done_reason="length",
               transcript=[dict(candidate["results"][0]["transcript"][0])], per_turn=candidate["results"][0]["per_turn"][:1])
    cut["per_turn"] = [dict(cut["per_turn"][0], done_reason="length")]
    candidate["results"][0] = cut
    a, b = write_run("runs/a.json", baseline), write_run("runs/b.json", candidate)
    out = cli("compare", a, b)[1]
    assert "  a1: cut by the token limit at turn 1 (its calls never run); stopped calling lookup_order; fewer calls: " \
        "1 -> 0" in out, out
    out = cli("compare", b, a)[1]
    assert "  a1: no longer cut by the token limit; started calling lookup_order; more calls: 0 -> 1" in out, out
    # (its review) cut on both sides, at other turns: said too (a call run before the baseline's cut was "stopped")
    later = dict(baseline["results"][1], response="", done_reason="length", transcript=baseline["results"][1]["transcript"][:3],
                 per_turn=[baseline["results"][1]["per_turn"][0], dict(baseline["results"][1]["per_turn"][1], done_reason="length")])
    baseline["results"][0] = dict(later, id="a1", input=baseline["results"][0]["input"])   # (a1's question, a2's answer)
    out = cli("compare", write_run("runs/c.json", baseline), b)[1]
    assert "  a1: cut by the token limit at turn 1, not 2 (its calls never run); stopped calling lookup_order" in out, out


def test_a_tool_named_nothing_is_a_call_all_the_same(project, cli):
    """Fifty-third round on issue 28: a model's one call to a tool named "" was shown as no call at all ("none")."""
    from conftest import agent_run, agent_spec
    baseline, candidate = agent_run(), agent_run()
    candidate["results"][0] = make_run([agent_spec("a1", [("", {"order_id": "A-1"}, False)])], labels=None)["results"][0]
    out = cli("compare", write_run("runs/a.json", baseline), write_run("runs/b.json", candidate))[1]
    assert '  a1: started calling ""; stopped calling lookup_order; trajectory broken  (lookup_order -> "")' in out, out


def test_compare_markdown_quotes_the_trajectory_changes(project, cli, fake):
    """Issue 28 (fourth attack), item 3: the Trajectory changes section of compare --markdown was
    printed raw while every other section escaped: a tool name a server sent rendered as a remote
    image, an HTML tag and bold, and a case id's line break started a heading of its own."""
    from test_run import AGENT_CASE, ASK, agent_split
    split = agent_split(project, dict(AGENT_CASE, id="a1\n# HEAD c`1 " + MARKUP))
    fake.agents[ASK] = [[("![pwn](http://evil.example/t.png) <img src=x> **BOLD** `x` " + MARKUP + LINKED, {"order_id": "A-1"})],
                        "Hecho."]
    assert cli("run", "--split", split, "--host", fake.url, "--out", "runs/a.json")[0] == 0
    fake.agents[ASK] = [[("lookup_order", {"order_id": "A-1"})], "Está enviado."]
    assert cli("run", "--split", split, "--host", fake.url, "--out", "runs/b.json")[0] == 0
    code, md, err = cli("compare", "runs/a.json", "runs/b.json", "--markdown")
    assert code == 0, err
    assert "Trajectory changes" in md and "BOLD" in md, md
    acted = markdown_acted_on(md)
    assert all("[" not in line and "<" not in line and "**BOLD" not in line and "*b*" not in line
               and "_i_" not in line for line in acted), md
    assert [line for line in md.splitlines() if line.lstrip().startswith("#")] == [md.splitlines()[0]], md
    assert "a1\\n# HEAD" in md   # the id's line break shown escaped, in its own code span
    assert github_linked(md) == [], md   # (round 136) a tool name "@octocat" mentioned, "https://..." linked


def test_an_agents_answer_is_identical_only_if_its_transcript_is_too(project, cli):
    """Two agents that end on the same words by different paths did not give the same answer: compare's
    "Identical raw answers" counts one only when its transcript is the same too (ids of calls aside)."""
    from conftest import agent_run, agent_spec, make_run
    look, cancel = ("lookup_order", {"order_id": "A-1"}, True), ("cancel_order", {"order_id": "A-1"}, True)
    baseline, candidate = agent_run(), agent_run()
    changed = {"a1": agent_spec("a1", [look, cancel]), "a2": agent_spec("a2", [look])}   # same final words, other paths
    candidate["results"] = [make_run([changed[r["id"]]], labels=None)["results"][0] if r["id"] in changed else r
                            for r in candidate["results"]]
    for r in candidate["results"]:   # a server that numbers its calls otherwise changes no path
        for m in r["transcript"]:
            for call in m.get("tool_calls") or ():
                call["id"] = "call_other"
            if m["role"] == "tool":   # (its results answer that id: one conversation, as eval.py keeps it)
                m["call_id"] = "call_other"
    a, b = write_run("runs/base.json", baseline), write_run("runs/cand.json", candidate)
    doc = json.loads(cli("compare", a, b, "--json")[1])
    assert (doc["identical_answers"], doc["paired_answers"]) == (2, 4)
    assert "Identical raw answers: 2 of 4" in cli("compare", a, b)[1]


def test_compare_of_runs_without_agents_says_nothing_of_trajectories(two_runs, cli):
    out = cli("compare", *two_runs)[1]
    assert "Trajectory" not in out and json.loads(cli("compare", *two_runs, "--json")[1])["trajectory"] == []


# --- RAG: two retrievers on the same cases (issue 30)

def rag_runs(folder, q1="q1"):
    """The same two questions answered from two retrievers' passages: B finds q1's second relevant
    passage and ranks it first, and loses q2's only one."""
    def passages(*ids):
        return [{"id": i, "text": f"passage {i}"} for i in ids]
    q1_id = q1
    def run(name, q1, q2):
        specs = [{"id": cid, "input": f"question {cid}", "context": ctx, "relevant": rel, "response": "answer",
                  "checks": [{"name": "a", "type": "contains", "value": "answer", "blocking": True}]}
                 for cid, ctx, rel in ((q1_id, q1, ["a", "b"]), ("q2", q2, ["c"]), ("q3", passages("d"), ["d"]))]
        return write_run(folder / name, make_run(specs, labels=None, split="rag"))
    return (run("a.json", passages("x", "a"), passages("c", "y")),
            run("b.json", passages("b", "a"), passages("y", "z")))


def test_compare_shows_the_ids_of_retrieval_changes_on_one_line_and_as_code(project, cli):
    """Issue 28 (fourth attack), items 3 and 4, the same class: the cases that gained or lost a relevant
    passage were named raw, a line break in an id starting a line of its own in the text, and single
    backticks round it in the markdown, which a backtick in the id closed."""
    a, b = rag_runs(project, q1="q1`\nFORGED # HEAD " + MARKUP)
    code, text, err = cli("compare", a, b)
    assert code == 0, err
    assert "q1`\\nFORGED" in text and not any(line.startswith("FORGED") for line in text.splitlines()), text
    code, md, err = cli("compare", a, b, "--markdown")
    assert code == 0 and "q1`\\nFORGED" in md, err
    assert all("[" not in line and "<" not in line and "*b*" not in line and "_i_" not in line
               for line in markdown_acted_on(md)), md


def test_compare_names_the_cases_that_gained_or_lost_a_relevant_passage(project, cli):
    a, b = rag_runs(project)
    code, out, err = cli("compare", a, b, "--json")
    assert code == 0, err
    r = json.loads(out)["retrieval"]
    assert r["cases"] == 3 and r["gained"] == ["q1"] and r["lost"] == ["q2"]
    assert r["changes"] == [{"id": "q1", "gained": ["b"], "lost": []}, {"id": "q2", "gained": [], "lost": ["c"]}]
    # precision: a: q1 0.5, q2 1, q3 1; b: q1 1, q2 0, q3 1. recall: a: 0.5, 1, 1; b: 1, 0, 1
    assert r["precision"] == pytest.approx([2.5 / 3, 2 / 3]) and r["recall"] == pytest.approx([2.5 / 3, 2 / 3])
    diffs = [0.5, -1, 0]
    low, high = scipy.stats.t.interval(0.95, 2, loc=sum(diffs) / 3, scale=scipy.stats.sem(diffs))
    d = r["precision_difference"]
    assert d["estimate"] == pytest.approx(-0.5 / 3) and [d["low"], d["high"]] == pytest.approx([max(-1, low), min(1, high)])
    text = cli("compare", a, b)[1]
    assert "Retrieval (3 cases with passages and relevance labels on both sides):" in text
    assert "  gained a relevant passage: q1\n  lost a relevant passage: q2\n    q1: gained b\n    q2: lost c" in text
    assert "  context precision: 83% -> 67%, −16.7 points (95% CI −100.0 to +100.0)" in text
    markdown = cli("compare", a, b, "--markdown")[1]
    assert "Gained a relevant passage: `q1`; lost one: `q2`." in markdown


def test_a_retrieval_change_takes_the_level_of_alpha_and_says_why_it_has_no_interval(project, cli):
    """114th round's statistics audit: under --alpha 0.01 the retrieval difference kept a 95% interval beside the 99%
    one of the main difference (+0.9 to +54.6 read as beyond chance at the level asked); and every case moving alike
    (or one case) printed a difference with no interval and no word why."""
    a, b = rag_runs(project)
    d = json.loads(cli("compare", a, b, "--alpha", "0.01", "--json")[1])["retrieval"]["precision_difference"]
    diffs = [0.5, -1, 0]
    low, high = scipy.stats.t.interval(0.99, 2, loc=sum(diffs) / 3, scale=scipy.stats.sem(diffs))
    assert d["level"] == 0.99 and [d["low"], d["high"]] == pytest.approx([max(-1, low), min(1, high)]), d
    assert d["no_interval"] is None
    assert "context precision: 83% -> 67%, −16.7 points (99% CI −100.0 to +100.0)" in cli("compare", a, b, "--alpha", "0.01")[1]

    def passages(*ids):
        return [{"id": i, "text": f"passage {i}"} for i in ids]

    def run(name, ctx, ids=("g1", "g2"), **config):
        specs = [{"id": cid, "input": f"question {cid}", "context": ctx, "relevant": ["r1"], "response": "answer",
                  "checks": [{"name": "a", "type": "contains", "value": "answer", "blocking": True}]} for cid in ids]
        return write_run(project / name, make_run(specs, labels=None, split="rag", **config))
    none, found = run("none.json", []), run("found.json", passages("r1"))
    d = json.loads(cli("compare", none, found, "--json")[1])["retrieval"]["recall_difference"]
    assert (d["estimate"], d["low"], d["no_interval"]) == (1.0, None, "every case moved alike"), d
    for view in ((), ("--markdown",), ("--html", "alike.html")):
        code, out, err = cli("compare", none, found, *view)
        shown = out if not view or view[0] != "--html" else (project / "alike.html").read_text(encoding="utf-8")
        assert "+100.0 points (no interval: every case moved alike)" in shown, (view, err)
    one, other = run("one.json", [], ids=("g1",)), run("other.json", passages("r1"), ids=("g1",))
    assert "+100.0 points (no interval: one case)" in cli("compare", one, other)[1]
    # (its review) two runs of the same passages (two prompts): no case moved, not "every case moved alike"
    again = run("again.json", passages("r1"), temperature=0.5)
    code, out, err = cli("compare", found, again)
    assert "context recall: 100% -> 100%, +0.0 points (no interval: no case moved)" in out, err


def test_a_retrieval_change_that_cancels_out_is_no_change(project, cli):
    """Thirty-eighth round on issue 28: context recall moving +2/3 on one case and -2/3 on the other was summed in
    floats: "context recall: 50% -> 50%, -<0.0001 points", its estimate -5.6e-17. Exact, it is none."""
    def passages(*ids):
        return [{"id": i, "text": f"passage {i}"} for i in ids]
    def run(name, g1, g2):
        specs = [{"id": cid, "input": f"question {cid}", "context": ctx, "relevant": ["r1", "r2", "r3"], "response": "answer",
                  "checks": [{"name": "a", "type": "contains", "value": "answer", "blocking": True}]}
                 for cid, ctx in (("g1", g1), ("g2", g2))]
        return write_run(project / name, make_run(specs, labels=None, split="rag"))
    a = run("a.json", passages("x1"), passages("r1", "r2", "r3"))
    b = run("b.json", passages("r1", "r2"), passages("r1", "x2", "x3"))
    r = json.loads(cli("compare", a, b, "--json")[1])["retrieval"]
    assert r["recall"] == [0.5, 0.5] and r["recall_difference"]["estimate"] == 0, r
    assert "context recall: 50% -> 50%, +0.0 points" in cli("compare", a, b)[1]



def test_a_retrieval_change_counts_the_cases_it_measures_and_reads_one_set_of_labels(project, cli):
    """Round 102: a case labelled with nothing relevant (relevant []) has no figure, yet compare said "2 cases" of a
    mean over one; and relevance labels that differ between the runs (an edited file) were read from the candidate
    for both, the baseline's 72% shown as 78%."""
    def passages(*ids):
        return [{"id": i, "text": f"passage {i}"} for i in ids]
    def run(name, first, relevant=("a",)):
        specs = [{"id": cid, "input": f"question {cid}", "context": ctx, "relevant": rel, "response": "answer",
                  "checks": [{"name": "a", "type": "contains", "value": "answer", "blocking": True}]}
                 for cid, ctx, rel in (("r1", first, list(relevant)), ("r4", passages("a"), []))]
        return write_run(project / name, make_run(specs, labels=None, split="rag"))
    a, b = run("a.json", passages("x", "a")), run("b.json", passages("a", "x"))
    out = cli("compare", a, b)[1]
    assert "Retrieval (1 case with passages and relevance labels on both sides)" in out, out
    code, out, err = cli("compare", a, run("c.json", passages("a", "x"), relevant=("x",)))
    assert code == 2 and "the runs label the relevant passages of r1 otherwise" in err, err
    # (round 103) the same labels in another order are one set of labels, not an edit
    both, turned = run("d.json", passages("a", "x"), relevant=("a", "x")), run("e.json", passages("a", "x"), relevant=("x", "a"))
    code, out, err = cli("compare", both, turned)
    assert code == 0 and "Retrieval (1 case with passages" in out, err


def test_compare_of_runs_without_passages_says_nothing_of_retrieval(two_runs, cli):
    out = cli("compare", *two_runs, "--json")[1]
    assert "retrieval" not in json.loads(out)


def test_compare_shows_how_each_stage_count_of_the_diagnosis_moved(project, cli):
    from test_report import DIAGNOSED, claims_raw, diagnosed_run, passages
    a = diagnosed_run(project, name="a.json")
    better = [("d1", passages("a"), ["a"], (True, claims_raw(("Returns in 30 days", True, "a"))), True)] + DIAGNOSED[1:]
    b = diagnosed_run(project, better, name="b.json")
    code, out, err = cli("compare", a, b, "--json")
    assert code == 0, err
    d = json.loads(out)["diagnosis"]
    assert [d[0]["retrieval"], d[1]["retrieval"]] == [["d1", "d2"], ["d2"]]
    text = cli("compare", a, b)[1]
    assert "Diagnosis, failing cases by the stage to fix (baseline -> candidate):\n  retrieval: 2 -> 1  (d1, d2 -> d2)\n" \
           "  generation: 1 -> 1  (d3 -> d3)" in text
    assert "**Diagnosis**, failing cases by the stage to fix: retrieval 2 → 1 · generation 1 → 1 · task 1 → 1 · " \
           "unclear 1 → 1." in cli("compare", a, b, "--markdown")[1]
    # (round 102) a case whose verdict was lost left its stage: said in every view, never read as a fix
    lost = DIAGNOSED[:5] + [("d6", passages("a"), ["a"], (None, "no JSON here"), None)]
    c = diagnosed_run(project, lost, name="c.json")
    assert "  unclear: 1 -> 0  (d6 -> -)\n  no verdict, not diagnosed: 0 -> 1  (- -> d6)" in cli("compare", a, c)[1]
    assert "unclear 1 → 0 · no verdict, not diagnosed 0 → 1." in cli("compare", a, c, "--markdown")[1]
    # (round 103) and the heading names that row: no stage is to fix for a case without a verdict
    heading = "failing cases by the stage to fix, and the cases without a verdict"
    assert f"Diagnosis, {heading} (baseline -> candidate):" in cli("compare", a, c)[1]
    assert f"**Diagnosis**, {heading}: retrieval" in cli("compare", a, c, "--markdown")[1]
    cli("compare", a, c, "--html", str(project / "c.html"))
    assert f"Diagnosis, {heading} (baseline" in html.unescape((project / "c.html").read_text())


def test_compare_names_a_judge_or_label_change_as_the_held_out_guard_does(project, cli):
    """compare said "nothing in the configuration (a rerun...)" when the judge or the labels changed,
    which the held-out guard counts as another configuration: fixes and breaks got blamed on chance."""
    cases = [("c1", "bug", "bug"), ("c2", "acceso", "bug")]
    one = {"models": ["qwen2.5:7b"], "votes": 1, "temperature": 0.0, "seed": 42, "prompt_sha": "a" * 64}
    a = write_run("runs/a.json", make_run(cases, judge=one))
    b = write_run("runs/b.json", make_run(cases, judge=dict(one, models=["llama3.1:8b"], votes=3, temperature=0.7,
                                                                  schema=True)))
    out = cli("compare", a, b)[1]
    assert "Changed: nothing" not in out
    line = next(l for l in out.splitlines() if l.startswith("  judge: "))
    assert "llama3.1:8b" in line and "aaaaaaaaaaaa" not in line   # its prompt's hash short, as a hash is
    # models first, then each setting: what differs is not cut off in the narrow column of a many-run table
    assert line == ("  judge: qwen2.5:7b votes=1 temperature=0.0 seed=42 prompt_sha=aaaaaaaa -> "
                    "llama3.1:8b votes=3 temperature=0.7 seed=42 prompt_sha=aaaaaaaa schema=true")
    c = write_run("runs/c.json", make_run(cases, labels=["bug", "acceso", "mixed"]))
    d = write_run("runs/d.json", make_run(cases))
    changed = json.loads(cli("compare", d, c, "--json")[1])["changed"]
    assert list(changed) == ["labels"] and changed["labels"][1][-1] == "mixed"
    assert set(evalpy.TUNED_CONFIG) <= set(evalpy.COMPARED_CONFIG)   # every setting the guard compares


def test_a_panel_named_in_another_order_is_no_judge_change_and_its_digests_are_each_models(project, cli):
    """131st round: runs judged by the panel qwen2.5:7b, llama3.2:3b and by llama3.2:3b, qwen2.5:7b (the same panel,
    whose decision is order-free) were said to differ, "judge: qwen2.5:7b, llama3.2:3b ... -> llama3.2:3b, qwen2.5:7b",
    and each judge's digest was read by its place: the other model's. The same set of judges is the same judge; one of
    them re-pulled is still a change."""
    cases = [("c1", "bug", "bug"), ("c2", "acceso", "bug")]
    judge = {"models": ["qwen2.5:7b", "llama3.2:3b"], "votes": 1, "temperature": 0.0, "seed": 42, "prompt_sha": "a" * 64,
             "digests": ["q" * 64, "l" * 64]}
    a = write_run("runs/a.json", make_run(cases, judge=judge))
    b = write_run("runs/b.json", make_run(cases, judge=dict(judge, models=judge["models"][::-1],
                                                            digests=judge["digests"][::-1])))
    assert json.loads(cli("compare", a, b, "--json")[1])["changed"] == {}
    assert "  judge: " not in cli("compare", a, b)[1]
    # (by its own model: llama3.2:3b pulled again is another judge, whichever place it is named in)
    c = write_run("runs/c.json", make_run(cases, judge=dict(judge, models=judge["models"][::-1],
                                                            digests=["m" * 64, "q" * 64])))
    assert list(json.loads(cli("compare", a, c, "--json")[1])["changed"]) == ["judge"]
    # (and the same panel with tags written out, or with another number of votes, as before)
    d = write_run("runs/d.json", make_run(cases, judge=dict(judge, models=["llama3.2:3b", "qwen2.5:7b"], votes=3,
                                                            digests=judge["digests"][::-1])))
    assert list(json.loads(cli("compare", a, d, "--json")[1])["changed"]) == ["judge"]
    # (a name without its tag is its :latest, in any place; the digests kept in the first order are each the other's)
    tagless = dict(judge, models=["qwen2.5", "llama3.2:3b"])
    assert evalpy.same_setting("judge", tagless, dict(judge, models=["llama3.2:3b", "qwen2.5:latest"],
                                                      digests=judge["digests"][::-1]))
    assert not evalpy.same_setting("judge", tagless, dict(judge, models=["llama3.2:3b", "qwen2.5:latest"]))


def test_a_split_outside_golden_is_named_with_its_folder_and_told_apart_by_path(project, cli, fake):
    """Newcomer pass (issue 31): mine/dev.jsonl and ft/dev.jsonl were both split "dev", their runs
    runs/dev-v1.json, dev-v1-2.json among the golden set's, and compare called them "different
    versions of the split (dev a74c6ae4 vs dev da3a97b4)"."""
    fake.answers = answer_key("golden/dev.jsonl")
    lines = Path("golden/dev.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)
    for folder, part in (("mine", lines[:3]), ("ft", lines[3:6])):
        Path(folder).mkdir()
        Path(folder, "dev.jsonl").write_text("".join(part), encoding="utf-8")
        Path(folder, "labels.txt").write_text(Path("golden/labels.txt").read_text(encoding="utf-8"), encoding="utf-8")
    for folder in ("mine", "ft"):
        code, out, err = cli("run", "--split", f"{folder}/dev.jsonl", "--prompt", "prompts/v3.txt", "--host", fake.url)
        assert code == 0, err
        assert load_json(f"runs/{folder}-dev-v3.json")["config"]["split"] == f"{folder}-dev"
    assert "mine-dev" in cli("runs")[1]
    code, out, err = cli("compare", "runs/mine-dev-v3.json", "runs/ft-dev-v3.json")
    assert code == 2 and "different splits (mine/dev.jsonl vs ft/dev.jsonl: their cases, or the checks.json or tools.json beside them, differ)" in err and "versions" not in err
    older = load_json("runs/mine-dev-v3.json")   # made before the folder named the split: one file still
    older["config"]["split"] = "dev"
    assert cli("compare", write_run("older/dev-v3.json", older), "runs/mine-dev-v3.json")[0] == 0
    Path("copy").mkdir()   # the same questions in another folder: the same split, whatever it is called
    for name in ("dev.jsonl", "labels.txt"):
        Path("copy", name).write_bytes(Path("mine", name).read_bytes())
    assert cli("run", "--split", "copy/dev.jsonl", "--prompt", "prompts/v3.txt", "--host", fake.url)[0] == 0
    assert cli("compare", "runs/mine-dev-v3.json", "runs/copy-dev-v3.json")[0] == 0
    Path("mine/dev.jsonl").write_text("".join(lines[:4]), encoding="utf-8")
    assert cli("run", "--split", "mine/dev.jsonl", "--prompt", "prompts/v3.txt", "--host", fake.url,
               "--out", "runs/mine-2.json")[0] == 0
    code, out, err = cli("compare", "runs/mine-dev-v3.json", "runs/mine-2.json")
    assert code == 2 and "different versions of the split (mine-dev " in err
    # (115th round's newcomer) a set in a folder of its own folder (mine/rag/dev.jsonl) was named by its folder alone,
    # rag-dev: the shipped golden/rag set's name, its runs numbered among that set's (runs/rag-dev-v1-2.json)
    Path("mine/sub").mkdir()
    for name in ("dev.jsonl", "labels.txt"):
        Path("mine/sub", name).write_bytes(Path("mine", name).read_bytes())
    Path("golden/sub").mkdir()
    for name in ("dev.jsonl", "labels.txt"):
        Path("golden/sub", name).write_bytes(Path("ft", name).read_bytes())
    for split in ("golden/sub/dev.jsonl", "mine/sub/dev.jsonl", str(Path("mine/sub/dev.jsonl").resolve())):
        code, out, err = cli("run", "--split", split, "--prompt", "prompts/v3.txt", "--host", fake.url)
        assert code == 0, err
    assert [load_json(f"runs/{name}.json")["config"]["split"] for name in ("sub-dev-v3", "mine-sub-dev-v3", "mine-sub-dev-v3-2")] \
        == ["sub-dev", "mine-sub-dev", "mine-sub-dev"]
    assert "did you mean mine/sub/dev.jsonl?" in cli("run", "--split", "mine-sub-dev")[2]
    # (its review) a split in the current folder itself, dev.jsonl, was "dev": golden's name, its runs numbered among them
    Path("dev.jsonl").write_bytes(Path("mine/dev.jsonl").read_bytes())
    Path("labels.txt").write_bytes(Path("mine/labels.txt").read_bytes())
    assert cli("run", "--split", "./dev.jsonl", "--prompt", "prompts/v3.txt", "--host", fake.url, "--out", "here.json")[0] == 0
    assert load_json("here.json")["config"]["split"] == f"{Path.cwd().name}-dev"
    os.chdir("mine")   # (from outside the current folder: its folder's name, as before)
    assert cli("run", "--split", "../ft/dev.jsonl", "--prompt", "../prompts/v3.txt", "--host", fake.url,
               "--out", "ft.json")[0] == 0
    assert load_json("ft.json")["config"]["split"] == "ft-dev"
    # (its review) one under a golden/ folder by its path inside it, wherever it is run from (proj-golden-sub-dev)
    assert cli("run", "--split", "../golden/sub/dev.jsonl", "--prompt", "../prompts/v3.txt", "--host", fake.url,
               "--out", "sub.json")[0] == 0
    assert load_json("sub.json")["config"]["split"] == "sub-dev"


def test_a_copy_of_a_run_is_one_run_not_a_rerun(project, cli):
    """Thirty-second round on issue 28: `cp run.json copy.json; compare run.json copy.json` said "a rerun:
    differences are run-to-run variation", of a system that seemed to vary not at all; among many runs the
    copy was one more row and one more comparison in Holm's count. A copy, byte for byte, is refused."""
    a = write_run("runs/a.json", make_run([("c1", "bug", "bug"), ("c2", "bug", "acceso")]))
    shutil.copyfile(a, "runs/copy.json")
    b = make_run([("c1", "bug", "bug"), ("c2", "bug", "bug")])
    b = write_run("runs/b.json", dict(b, config=dict(b["config"], date="2026-01-03T09:30:00+01:00")))
    for argv in ((a, "runs/copy.json"), (a, b, "runs/copy.json")):
        code, out, err = cli("compare", *argv)
        assert code == 2 and out == "" and err == ("error: runs/a.json and runs/copy.json are one run (a copy: the same "
                                                   "configuration, begun at the same moment, and the same results); "
                                                   "compare it with another run\n"), err
    # (33rd round) a copy laid out otherwise (another indent, a line break added) was a rerun again
    Path("runs/copy.json").write_text(json.dumps(json.loads(Path(a).read_text()), indent=4) + "\n\n")
    assert "are one run (a copy" in cli("compare", a, "runs/copy.json")[2]
    # among many, the run of another split is named (it was "different splits (golden/dev.jsonl vs ...)" alone)
    other = make_run([("c1", "bug", "bug")])
    other["config"].update(split="support-dev", split_path="golden/support/dev.jsonl", split_sha="1" * 64)
    other = write_run("runs/other.json", other)
    code, out, err = cli("compare", a, b, other)
    assert code == 2 and err.startswith("error: runs/other.json against runs/a.json: refusing to compare: different "
                                        "splits (tickets.jsonl vs golden/support/dev.jsonl:"), err


def test_runs_of_one_split_whose_inputs_were_sent_otherwise_are_never_read_as_edited_nor_as_a_rerun(project, cli):
    """Attack 50: an eval.py before {{vars}} were filled in stored a case's input as written, today's stores it
    filled in, and both say version 0.1.0: a check of the input refused two honest runs as edited. (Round 123's review:
    that eval.py sent it as written too, "Cliente {{name}}": two questions, which compare had called a rerun.)"""
    older = make_run([{"id": "c1", "expected": "bug", "input": "Cliente {{name}}: no entro", "vars": {"name": "Ana"}},
                      ("c2", "bug", "bug")])
    newer = make_run([{"id": "c1", "expected": "bug", "input": "Cliente Ana: no entro", "vars": {"name": "Ana"},
                       "response": "acceso"}, ("c2", "bug", "bug")])
    newer["config"].update(date="2026-01-03T09:30:00+01:00", split_sha=older["config"]["split_sha"])
    code, out, err = cli("compare", write_run("runs/older.json", older), write_run("runs/newer.json", newer))
    assert code == 2 and err == ("error: refusing to compare: case c1 was asked its input with its {{vars}} unfilled in "
                                 "runs/older.json (the baseline) (an eval.py older than this one sent them as written), and "
                                 "filled in the other: two questions; run the older configuration again with this eval.py, "
                                 "then compare those\n"), err
    # (round 123) an input edited in one file is another question: it was scored a regression without a word
    for field, value in (("input", "Cliente Eva: no entro"), ("vars", {"name": "Eva"}),
                         ("messages", [{"role": "user", "content": "otra"}])):
        edited = json.loads(json.dumps(newer))
        edited["results"][0][field] = value
        if field == "messages":
            del edited["results"][0]["input"]
            older_too = json.loads(json.dumps(older))
            older_too["results"][0]["messages"] = [{"role": "user", "content": "Cliente Ana: no entro"}]
            del older_too["results"][0]["input"]
            write_run("runs/older.json", older_too)
        code, out, err = cli("compare", "runs/older.json", write_run("runs/edited.json", edited))
        assert code == 2 and out == "" and err.startswith(f"error: refusing to compare: case c1 has another {field} in "
                                                          "runs/older.json (the baseline) than in runs/edited.json"), err


def test_a_case_edited_in_one_run_file_is_refused_not_compared(project, cli):
    """Thirty-third round on issue 28: dev-01's expected label edited in one run file (same split hash) moved the
    change from +21.4 to +17.9 points, and a case's checks emptied took it out of the regressions, with nothing
    said. Two runs of one split hold each case as the split wrote it."""
    cases = [("c1", "bug", "bug"), ("c2", "bug", "acceso"), ("c3", "acceso", "acceso")]
    a = write_run("runs/a.json", make_run(cases))
    sha = load_json(a)["config"]["split_sha"]
    edited = make_run([("c1", "acceso", "bug")] + cases[1:])
    edited["config"].update(date="2026-01-03T09:30:00+01:00", split_sha=sha)   # its hash as the run recorded it
    b = write_run("runs/b.json", edited)
    code, out, err = cli("compare", a, b)
    assert code == 2 and out == "" and err == ("error: refusing to compare: case c1 has another expected in runs/a.json (the "
                                               "baseline) than in runs/b.json (the candidate), though both ran split sha " + sha[:8]
                                               + ": a run file was edited (report --case shows each)\n"), err
    edited = make_run(cases)
    edited["config"].update(date="2026-01-03T09:30:00+01:00", split_sha=sha)
    edited["results"][1]["checks"] = [{"name": "label", "type": "label", "blocking": True}, {"name": "any", "type": "regex", "value": "."}]
    c = write_run("runs/c.json", edited)
    code, out, err = cli("compare", a, write_run("runs/a2.json", dict(load_json(a), config=dict(load_json(a)["config"],
                                                                                                  date="2026-01-04"))), c)
    assert code == 2 and "case c2 has other checks in runs/a.json than in runs/c.json" in err, err
    # (34th round) checks emptied, or a pass threshold edited, were passed over
    edited = make_run(cases)
    edited["config"].update(date="2026-01-05T09:30:00+01:00", split_sha=sha)
    edited["results"][2]["checks"] = []   # (attack 41: refused by the run file's reading now, compare's before it)
    code, out, err = cli("compare", a, write_run("runs/d.json", edited))
    assert code == 2 and "runs/d.json: not a valid run file: result c3: no label check" in err, err
    weighted = [{"name": "hola", "type": "icontains", "value": "hola", "blocking": False, "weight": 1},
                {"name": "bug", "type": "icontains", "value": "bug", "blocking": False, "weight": 1}]
    spec = [{"id": "w1", "response": "hola", "checks": weighted, "pass_threshold": 0.5}]
    e = write_run("runs/e.json", make_run(spec, labels=None))
    edited = make_run([dict(spec[0], pass_threshold=0.25)], labels=None)
    edited["config"].update(date="2026-01-05T09:30:00+01:00", split_sha=load_json(e)["config"]["split_sha"])
    code, out, err = cli("compare", e, write_run("runs/f.json", edited))
    assert code == 2 and "refusing to compare: case w1 has another pass_threshold in runs/e.json (the baseline) than in runs/f.json" in err, err


def test_compare_of_one_case_says_is_not_are(project, cli):
    """From the fifth attack on issue 28 (item 7): compare printed "1 case are too few"."""
    a = write_run("runs/a.json", make_run([("c1", "bug", "bug")]))
    b = make_run([("c1", "bug", "bug")])
    b = write_run("runs/b.json", dict(b, config=dict(b["config"], date="2026-01-03T09:30:00+01:00")))   # a rerun
    code, out, err = cli("compare", a, b)
    assert code == 0, err
    assert "1 case is too few for any change to be told from chance" in out and "1 case are" not in out, out


def test_compare_says_a_subset_of_one_and_trial_seeds_in_words():
    """From the sixth attack on issue 28 (minor): compare printed "trial_seeds: null -> true", which a
    reader cannot tell the meaning of, and "the first 1 cases"."""
    assert evalpy.shown("subset", {"limit": 1}) == "the first case, --limit 1"
    assert evalpy.shown("subset", {"limit": 5}) == "the first 5 cases, --limit 5"
    on, off = evalpy.shown("trial_seeds", True), evalpy.shown("trial_seeds", None)
    assert on == "each trial its own seed (seed + trial - 1)" and off == "every trial the same seed", (on, off)
    # seventh attack: "subset: 3 chosen cases, --cases -> null", "context_sha: null -> 72290bf5"
    assert evalpy.shown("subset", None) == "the whole split"
    assert evalpy.shown("context_sha", None) == "the split's own passages"
    assert evalpy.shown("format", None) == "none" and evalpy.shown("response_format", None) == "none"


def test_a_compare_with_no_case_decided_in_both_runs_has_no_p(project, cli):
    """Issue 28, seventeenth attack (minor): with no case decided on both sides, compare --json gave p 1.0,
    read as "surely no change", where nothing was tested."""
    from conftest import make_run, write_run
    a = write_run("runs/a.json", make_run([("c1", "bug", None), ("c2", "bug", None)]))
    b = write_run("runs/b.json", make_run([("c1", "bug", "bug"), ("c2", "bug", "acceso")], prompt="prompts/v2.txt"))
    code, out, err = cli("compare", a, b, "--json")
    assert code == 0 and json.loads(out)["test"]["p"] is None, out
    code, out, err = cli("compare", a, b)
    assert code == 0 and "no case has a verdict in both runs" in out and "p = " not in out, out
    # with trials, no sentence on the unit of a test that was not made (eighteenth attack)
    a = write_run("runs/a3.json", make_run([("c1", "bug", [None] * 3), ("c2", "bug", [None] * 3)]))
    b = write_run("runs/b3.json", make_run([("c1", "bug", ["bug"] * 3), ("c2", "bug", ["acceso"] * 3)], prompt="prompts/v2.txt"))
    code, out, err = cli("compare", a, b)
    assert code == 0 and "no case has a verdict in both runs" in out and "unit" not in out, out


def test_fisher_with_no_case_decided_in_both_runs_has_no_p(project, cli):
    """Twenty-first attack on issue 28 (minor): with no case decided in both runs, compare --fisher gave
    p = 1 in every view and fisher_p 1.0 in --json, a test of nothing read as "surely no change" (c028a5f
    had removed it for McNemar only)."""
    from conftest import make_run, write_run
    a = write_run("runs/a.json", make_run([("c1", "bug", None), ("c2", "bug", None)]))
    b = write_run("runs/b.json", make_run([("c1", "bug", "bug"), ("c2", "bug", "acceso")], prompt="prompts/v2.txt"))
    code, out, err = cli("compare", a, b, "--json", "--fisher")
    assert code == 0 and "fisher_p" in json.loads(out) and json.loads(out)["fisher_p"] is None, out
    said = "Fisher exact test (--fisher; pass counts alone, ignoring that both runs answered the same cases: " \
           "for a test set before the run): no case has a verdict in both runs"
    for view in ((), ("--markdown",)):
        code, out, err = cli("compare", a, b, "--fisher", *view)
        assert code == 0 and said in out and "p = " not in out, out
    code, out, err = cli("compare", a, b, "--fisher", "--html", "c.html")
    text = Path("c.html").read_text(encoding="utf-8")
    assert code == 0 and said in text and "p = 1" not in text


def test_compare_markdown_cuts_each_list_of_ids_as_report_cuts_its_failures(project, cli):
    """Twenty-first attack on issue 28 (minor): compare --markdown listed every id of Fixed,
    Regressions, Not compared and Errored (20,000 regressions: a 200 kB pull-request comment, past its
    65,536 characters), where report --markdown names MARKDOWN_FAILURES failures and how many more."""
    n, right, wrong = evalpy.MARKDOWN_FAILURES + 5, ["bug"] * 3, ["acceso"] * 3   # three trials: errored ones
    a = write_run("runs/a.json", make_run([(f"r{i:02d}", "bug", right) for i in range(n)]
                                          + [(f"e{i:02d}", "bug", [None] * 3) for i in range(n)]
                                          + [(f"x{i:02d}", "bug", ["bug", "bug", None]) for i in range(n)]
                                          + [(f"f{i:02d}", "bug", wrong) for i in range(n)]))
    b = write_run("runs/b.json", make_run([(f"r{i:02d}", "bug", wrong) for i in range(n)]
                                          + [(f"e{i:02d}", "bug", right) for i in range(n)]
                                          + [(f"x{i:02d}", "bug", right) for i in range(n)]
                                          + [(f"f{i:02d}", "bug", right) for i in range(n)], prompt="prompts/v2.txt"))
    code, out, err = cli("compare", a, b, "--markdown")
    lines = [line for line in out.splitlines() if line.startswith("**")]
    cut = ", and 5 more (compare --json or the text view lists them all)"
    for head, first in (("**Fixed", "f"), ("**Regressions", "r"), ("**Not compared", "e"), ("**Errored", "x")):
        line = next(l for l in lines if l.startswith(head))
        shown = [f"`{first}{i:02d}`" for i in range(evalpy.MARKDOWN_FAILURES)]
        assert line.endswith(":** " + ", ".join(shown) + cut), line
    assert f"e{n - 1}" in cli("compare", a, b)[1] and f"x{n - 1}" in cli("compare", a, b)[1]   # the text view has them all
    # (117th round) an id the text view quotes is a code span here, exact, never shell-quoted around one
    odd = ["a  b", unicodedata.normalize("NFD", "café"), "x|y"]
    a = write_run("runs/a.json", make_run([(i, "bug", "acceso") for i in odd]))
    b = write_run("runs/b.json", make_run([(i, "bug", "bug") for i in odd], prompt="prompts/v2.txt"))
    fixed = next(l for l in cli("compare", a, b, "--markdown")[1].splitlines() if l.startswith("**Fixed"))
    assert fixed == "**Fixed (3):** `a  b`, `" + odd[1] + "`, `x|y`", fixed


def test_compare_json_differences_are_the_exact_differences_rounded_once(project, cli):
    """132nd round: compare --json subtracted floats: details.per_label.acceso.change.precision read 0.16666666666666669
    for 1/2 - 1/3, and the difference 0.20000000000000007 for 20/25 - 15/25 (runs[1].difference.estimate too, with
    three runs). Each is the exact difference of the counts, rounded once, as the views print it."""
    from fractions import Fraction
    specs = [(f"c{i:02d}", "bug" if i < 20 else "acceso") for i in range(25)]
    a = write_run("runs/a.json", make_run([(i, e, "acceso" if 10 <= int(i[1:]) < 20 else e) for i, e in specs]))
    b = write_run("runs/b.json", make_run([(i, e, "acceso" if 15 <= int(i[1:]) < 20 else e) for i, e in specs],
                                          prompt="prompts/v2.txt"))
    doc = json.loads(cli("compare", a, b, "--json")[1])
    assert doc["difference"]["estimate"] == float(Fraction(5, 25)) == 0.2, doc["difference"]
    per_label = doc["details"]["per_label"]
    assert per_label["acceso"]["change"] == {"precision": float(Fraction(1, 2) - Fraction(1, 3)), "recall": 0.0}
    assert per_label["bug"]["change"] == {"precision": 0.0, "recall": float(Fraction(15, 20) - Fraction(10, 20))}
    assert doc["details"]["per_difficulty"]["easy"]["change"] == float(Fraction(20, 25) - Fraction(15, 25))
    c = write_run("runs/c.json", make_run([(i, e, e) for i, e in specs], prompt="prompts/v1.txt"))
    doc = json.loads(cli("compare", a, b, c, "--json")[1])
    assert [r["difference"]["estimate"] for r in doc["runs"][1:]] == [0.2, 0.4], doc["runs"]


def test_compares_per_difficulty_rows_read_difficulties_stored_alike_as_one(project, cli):
    """139th round's views: an older run's 'trap ' beside trap (café decomposed beside café) were two rows "trap 1/1 ->
    1/1" in the page's per-difficulty table and compare --json: trap's 2/2 -> 1/2 was shown nowhere."""
    a = write_run("runs/a.json", make_run(difficulties_alike()))
    b = write_run("runs/b.json", make_run(difficulties_alike({"d1": "acceso", "d3": "acceso"}), prompt="prompts/v2.txt"))
    rows = json.loads(cli("compare", a, b, "--json")[1])["details"]["per_difficulty"]
    assert {d: [(r[s]["correct"], r[s]["total"]) for s in ("baseline", "candidate")] for d, r in rows.items()} == \
        {"trap": [(2, 2), (1, 2)], "caf\u00e9": [(0, 2), (1, 2)], "easy": [(1, 1), (1, 1)]}
    cli("compare", a, b, "--html", "runs/c.html")
    page = Path("runs/c.html").read_text(encoding="utf-8")
    assert page.count("<tr><td>trap</td>") == 1 and "<tr><td>trap</td><td class=\"n\">2/2 = 100%</td>" in page


def test_the_pages_slices_are_over_the_cases_both_runs_decided_as_its_headline(project, cli):
    """Fifty-sixth attack on issue 28: the page's per-difficulty and per-label figures kept, for the baseline, the
    cases the candidate got no usable answer for: easy 16/19 against 12/17, "-14 pts", where the headline compared the 26
    cases both decided (14/17 against 12/17 on the easy ones, -12 pts); cases outside a --limit were left out."""
    specs = [(f"e{i}", "bug", "bug") for i in range(4)] + [(f"h{i}", "acceso", "acceso") for i in range(2)]
    a = make_run([dict(zip(("id", "expected", "response"), s)) for s in specs])
    b = make_run([dict(zip(("id", "expected", "response"), s), response=None if s[0] in ("e0", "e1") else
                       "acceso" if s[0] == "e2" else s[2], error="HTTP 500") for s in specs])
    for r in (a, b):
        for x in r["results"]:
            x["difficulty"] = "hard" if x["id"].startswith("h") else "easy"
            x.pop("error", None) if x["response"] is not None else None
    write_run("runs/a.json", a)
    write_run("runs/b.json", b)
    (a_cfg, a_cases), (b_cfg, b_cases) = evalpy.read_graded("runs/a.json"), evalpy.read_graded("runs/b.json")
    rows = {sec["key"]: {r["name"]: r["figures"] for r in sec["rows"]}
            for sec in evalpy.compare_rows(evalpy.compare_runs(a_cfg, a_cases, b_cfg, b_cases), "a", "b")
            if sec["key"] in evalpy.DETAIL_HEADERS}
    easy = rows["per_difficulty"]["easy"]
    assert [(f["count"], f["of"]) for f in easy[:2]] == [(2, 2), (1, 2)] and easy[2]["value"] == pytest.approx(-0.5)
    assert rows["per_label"]["bug"][3]["value"] == 1.0   # bug recall of the baseline: 2 of the 2 both decided
    code, out, err = cli("compare", "runs/a.json", "runs/b.json", "--html", "runs/c.html", "--force")
    page = open("runs/c.html", encoding="utf-8").read()
    assert "Per difficulty (on the 4 cases both runs decided)" in page and "own figures" not in page, err
    # (round 93) with trials a slice counts each case by its majority vote, where the headline is a mean: said
    a["config"]["repeat"] = 2
    a["results"] = [dict(x, trial=t) for x in a["results"] for t in (1, 2)]
    write_run("runs/a2.json", a)
    code, out, err = cli("compare", "runs/a2.json", "runs/b.json", "--html", "runs/c2.html")
    page = open("runs/c2.html", encoding="utf-8").read()
    assert "Per difficulty (on the 4 cases both runs decided, each case by its majority of trials)" in page, err


def test_a_compare_counts_the_answers_cut_short_in_each_run(project, cli):
    """Sixty-eighth attack on issue 28, against a real llama-cpp-python server: a baseline of answers cut at 5 tokens
    (max_tokens=5) lost to a run without the cap "beyond chance", and compare said nothing of the cut beside the
    invalid answers: its loss was the cap's, not the prompt's."""
    cut = make_run([{"id": f"c{i}", "expected": "bug", "response": "La", "done_reason": "length"} for i in range(4)])
    whole = make_run([(f"c{i}", "bug", "bug") for i in range(4)], prompt="prompts/v2.txt")
    a, b = write_run("runs/cut.json", cut), write_run("runs/whole.json", whole)
    assert "Stopped for length: 4 -> 0 (a token limit or the window: report each run says which)" in cli("compare", a, b)[1]
    assert json.loads(cli("compare", a, b, "--json")[1])["length_stops"] == [4, 0]
    assert "| Stopped for length | 4 | 0 |" in cli("compare", a, b, "--markdown")[1]
    assert cli("compare", a, b, "--html", "c.html")[0] == 0 and "Stopped for length" in open("c.html", encoding="utf-8").read()
    other = write_run("runs/other.json", make_run([(f"c{i}", "bug", "bug") for i in range(4)], prompt="prompts/v1.txt"))
    assert "Stopped for length" not in cli("compare", b, other)[1]   # none in either: nothing said


def test_a_run_judged_with_other_checks_or_edited_under_another_version_is_never_compared_as_one_measure(project, cli):
    """Round 89 on issue 28: a candidate re-judged with laxer checks (judge --checks) compared as a rerun with nothing
    changed, a regression hidden and the gate passed; and a run file's checks edited passed too once its eval_version
    was changed (checks were compared only between runs of one eval.py, without checks_from). Checks are compared as
    they score, whatever wrote them."""
    base = split_run("dev")
    write_run("runs/base.json", base)
    lax = json.loads(json.dumps(base))
    extra = dict(evalpy.parse_check({"type": "not_contains", "value": "zzz", "name": "no zzz"})[0])
    for r in lax["results"]:
        r["checks"] = r["checks"] + [extra]
    lax["config"]["checks_from"] = "lenient/dev.jsonl"
    write_run("runs/lax.json", lax)
    code, out, err = cli("compare", "runs/base.json", "runs/lax.json", "--fail-on-regression")
    assert code == 2 and ("was scored with other checks in runs/base.json (the baseline) than in runs/lax.json (the "
                          "candidate) (runs/lax.json (the candidate) was judged with the checks of lenient/dev.jsonl)") in err, err
    del lax["config"]["checks_from"]
    lax["config"]["eval_version"] = "0.0.1"
    write_run("runs/lax.json", lax)
    # (135th round) the split at hand as the run recorded it, its checks edited are refused as it is read; compare's own
    # word is of runs whose split is gone (or changed since), which cannot tell
    code, out, err = cli("compare", "runs/base.json", "runs/lax.json", "--fail-on-regression")
    assert code == 2 and "runs/lax.json: not a valid run file: case dev-01's checks (label, no zzz) are not those" in err, err
    Path("golden/dev.jsonl").rename("golden/gone.jsonl")
    code, out, err = cli("compare", "runs/base.json", "runs/lax.json", "--fail-on-regression")
    assert code == 2 and "has other checks in runs/base.json (the baseline) than in runs/lax.json" in err, err
    # the same checks written by another eval.py (another version's run of one split) compare as before
    same = json.loads(json.dumps(base))
    same["config"]["eval_version"] = "0.0.1"
    write_run("runs/same.json", same)
    assert cli("compare", "runs/base.json", "runs/same.json", "--fail-on-regression")[0] == 0


def test_a_run_judged_with_another_pass_threshold_is_refused_as_judged_with_other_checks(project, cli):
    """138th round: a candidate judged again (judge --checks) where checks.json had only its pass_threshold lowered was
    refused as "a run file was edited", in a compare of two and of three, though none was and the cure was to judge
    both with the same checks, which the refusal of another weight says."""
    checks = [dict(evalpy.parse_check({"type": "icontains", "value": v, "name": v, "weight": 1})[0]) for v in ("bu", "g")]
    base, lax = (make_run([{"id": f"c{i}", "response": "bug", "checks": checks, "pass_threshold": t} for i in range(4)],
                          None) for t in (0.75, 0.5))
    lax["config"]["checks_from"] = "lenient/dev.jsonl"
    runs = [write_run(f"runs/{name}.json", run) for name, run in (("base", base), ("lax", lax), ("again", dict(
        base, config=dict(base["config"], date="2026-01-03T09:30:00+01:00"))))]
    for given in (runs[:2], runs):
        code, out, err = cli("compare", *given)
        assert code == 2 and "was scored with another pass_threshold in" in err and "was edited" not in err, err
        assert "(runs/lax.json (the candidate) was judged with the checks of lenient/dev.jsonl)" in err or \
            "(runs/lax.json was judged with the checks of lenient/dev.jsonl)" in err, err
        assert "judge both with the same checks (judge RUN --checks SPLIT)" in err, err


def test_checks_that_score_alike_compare_and_a_baseline_with_other_checks_is_refused_before_any_call(project, cli, fake):
    """Round 90 on issue 28: checks written otherwise but scoring alike (a weight of 2.0, another order) were refused
    as other checks; and run --compare with a baseline judged with other checks asked every case, then refused."""
    base = split_run("dev")
    write_run("runs/base.json", base)
    same = json.loads(json.dumps(base))
    extra = [dict(evalpy.parse_check({"type": "not_contains", "value": v, "name": n, "weight": w})[0])
             for v, n, w in (("zzz", "no zzz", 2), ("yyy", "no yyy", 1))]
    for r in base["results"]:
        r["checks"] = r["checks"] + extra
    for r in same["results"]:
        r["checks"] = [dict(c, weight=float(c["weight"])) if "weight" in c else c for c in reversed(r["checks"] + extra)]
    write_run("runs/base.json", base)
    write_run("runs/same.json", same)
    Path("golden/dev.jsonl").rename("golden/gone.jsonl")   # (at hand, its checks are another's: refused as read, 135th)
    code, out, err = cli("compare", "runs/base.json", "runs/same.json")
    assert code == 0, err
    Path("golden/gone.jsonl").rename("golden/dev.jsonl")
    lax = split_run("dev")
    for r in lax["results"]:
        r["checks"] = r["checks"] + extra[:1]
    lax["config"]["checks_from"] = "lenient/dev.jsonl"
    write_run("runs/lax.json", lax)
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--compare", "runs/lax.json")
    assert code == 2 and "refusing to compare with runs/lax.json: its case dev-01 scores with other checks than the " \
        "split's (it was judged with the checks of lenient/dev.jsonl)" in err, err
    assert fake.chat_bodies == []


def test_checks_that_differ_in_an_integer_past_a_float_are_other_checks():
    """Round 91 on issue 28: checks were compared with every number read as a float, so two integers past 2**53
    (an id in a schema's enum, a tool argument) read as one and compare took runs scored apart for one measure.
    Whole numbers compare exactly; 2 and 2.0 still score alike."""
    def enum(n):
        return {"checks": [{"name": "id", "type": "json",
                            "schema": {"type": "object", "properties": {"id": {"enum": [n]}}, "required": ["id"]}}]}
    assert evalpy.scored_checks(enum(9007199254740993)) != evalpy.scored_checks(enum(9007199254740992))
    assert evalpy.scored_checks(enum(2)) == evalpy.scored_checks(enum(2.0))
    weighted = [{"name": "x", "type": "contains", "value": "x", "weight": w} for w in (2, 2.0)]
    assert evalpy.scored_checks({"checks": weighted[:1]}) == evalpy.scored_checks({"checks": weighted[1:]})
    assert evalpy.scored_checks({"checks": [], "pass_threshold": 1}) == evalpy.scored_checks({"checks": [], "pass_threshold": 1.0})


def test_a_model_named_in_another_case_over_ollama_is_no_change(two_runs, cli):
    """Round 109: a run whose server listed QWEN2.5:7B beside one listing qwen2.5:7b (the same digest) read
    "Changed: model: QWEN2.5:7B -> qwen2.5:7b": Ollama reads a name in any case; the digests say a re-pull."""
    other = load_json(two_runs[1])
    other["config"]["model"] = "QWEN2.5:7B"
    Path("runs/upper.json").write_text(json.dumps(other), encoding="utf-8")
    out = cli("compare", two_runs[0], "runs/upper.json")[1]
    assert "model:" not in out and "QWEN" not in out.split("Fixed")[0], out
    other["config"]["api"] = "openai"   # a /v1 server's names are its own: told apart
    other["config"]["host"] = "http://127.0.0.1:8080/v1"
    Path("runs/upper-v1.json").write_text(json.dumps(other), encoding="utf-8")
    assert "model: qwen2.5:7b -> QWEN2.5:7B" in cli("compare", two_runs[0], "runs/upper-v1.json")[1]


def test_two_runs_of_a_server_of_ollamas_api_that_names_no_digest_are_never_a_mere_rerun(project, cli, fake):
    """127th round's hostile servers: over Ollama's API with no digest in /api/tags, two runs were "a rerun:
    differences are run-to-run variation", even where the family and size it gave changed (qwen2 7B, then llama
    70B): neither was compared. Another model cannot be ruled out, and what the server said of each is shown."""
    fake.digests["qwen2.5:7b"] = ""
    assert cli("run", "--split", "dev", "--host", fake.url, "--limit", 3, "--out", "runs/a.json")[0] == 0
    fake.answers = {k: v + " no" for k, v in answer_key("golden/dev.jsonl").items()}   # (another model's, or varying)
    assert cli("run", "--split", "dev", "--host", fake.url, "--limit", 3, "--out", "runs/b.json")[0] in (0, 1)
    out = cli("compare", "runs/a.json", "runs/b.json")[1]
    assert "Changed: nothing in the configuration, but the server names no weights of its model (no digest;" in out, out
    run = load_json("runs/b.json")
    run["config"].update(model_family="llama", parameter_size="70B")
    write_run("runs/c.json", run)
    out = cli("compare", "runs/a.json", "runs/c.json")[1]
    assert "  model_family: qwen2 -> llama" in out and "  parameter_size: 7.6B -> 70B" in out, out


def test_the_same_answers_scored_again_are_not_called_a_rerun(two_runs, cli):
    """Round 106: a run and its copy judged again (judge --out) compared as "nothing in the configuration (a rerun:
    differences are run-to-run variation)": no model answered twice, every answer the same. It is said so; a rerun
    whose answers differ is still a rerun."""
    same = write_run("runs/dev-v3-again.json", split_run("dev", V3_MISSES, date="2026-01-03T10:00:00+01:00"))
    out = cli("compare", two_runs[1], same)[1]
    # (its review) a rerun at T=0 answers alike: never said to be a run judged again, unless it is one
    assert "Changed: nothing in the configuration, and every answer the same (a rerun that answered alike): " \
           "differences are the judging's or the run-to-run variation's, not a change's" in out, out
    assert "every answer the same" in cli("compare", two_runs[1], same, "--markdown")[1]
    judged = load_json(same)
    judged["config"]["judged_from"] = two_runs[1]   # (its judge the same: nothing else changed)
    Path(same).write_text(json.dumps(judged), encoding="utf-8")
    out = cli("compare", two_runs[1], same)[1]
    assert "every answer the same: one run's answers judged or scored again, so differences are the judging's" in out, out
    other = write_run("runs/dev-v3-other.json", split_run("dev", {**V3_MISSES, "dev-01": "acceso"},
                                                          date="2026-01-04T10:00:00+01:00"))
    out = cli("compare", two_runs[1], other)[1]
    assert "Changed: nothing in the configuration (a rerun: differences are run-to-run variation)" in out, out
    # (its review) a rerun half of whose calls failed is no rerun whose every answer was the same
    failed = load_json(other)
    for r in failed["results"][:14]:
        r.update(response=None, error="HTTP 500: boom")
    Path(other).write_text(json.dumps(failed), encoding="utf-8")
    failed_same = load_json(same)
    failed_same["config"].pop("judged_from")
    failed_same["results"] = [dict(r, response=None, error="HTTP 500: boom") if n < 14 else r
                              for n, r in enumerate(failed_same["results"])]
    Path(same).write_text(json.dumps(failed_same), encoding="utf-8")
    out = cli("compare", two_runs[1], same)[1]
    assert "every answer the same" not in out and "Changed: nothing in the configuration (a rerun" in out, out


def test_one_split_by_an_absolute_and_a_relative_path_edited_between_is_one_split_edited(project, cli, fake):
    """Round 107's review: runs of one split edited between them, one run given its absolute path and one its relative
    path, were "different splits" (the paths differed as written), never "the split was edited between the runs"."""
    fake.answers = answer_key("golden/dev.jsonl")
    assert cli("run", "--split", "golden/dev.jsonl", "--host", fake.url, "--out", "runs/a.json")[0] == 0
    Path("golden/dev.jsonl").write_text("".join(Path("golden/dev.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)[:-1]),
                                        encoding="utf-8")
    assert cli("run", "--split", str(project / "golden" / "dev.jsonl"), "--host", fake.url, "--out", "runs/b.json")[0] == 0
    code, out, err = cli("compare", "runs/a.json", "runs/b.json")
    assert code == 2 and "The split was edited between the runs" in err and "different splits" not in err, err
    # (its review) the same file linked from another folder, beside checks of its own, is another split: never "edited"
    Path("q").mkdir()
    os.symlink(project / "golden" / "dev.jsonl", "q/dev.jsonl")
    Path("q/labels.txt").write_text(Path("golden/labels.txt").read_text(encoding="utf-8"), encoding="utf-8")
    Path("q/checks.json").write_text('[{"name": "short", "type": "max_latency_ms", "value": 60000}]', encoding="utf-8")
    code, out, err = cli("run", "--split", "q/dev.jsonl", "--host", fake.url, "--out", "runs/q.json")
    assert code in (0, 1), err
    code, out, err = cli("compare", "runs/b.json", "runs/q.json")
    assert code == 2 and "different splits" in err and "edited" not in err, err


def test_a_copy_judged_again_keeps_its_runs_errors_and_a_cut_answer_is_no_answer_alike(two_runs, cli):
    """Round 107: a run with a failed call and its copy judged again (judge --out, which keeps the error) was called
    "a rerun"; and a rerun one of whose answers the token limit cut in its thinking, the other answered, was said to
    have "every answer the same" beside the regression that cut made."""
    base = load_json(two_runs[1])
    base["results"][3].update(response=None, error="timed out after 120 s", done_reason=None)
    Path(two_runs[1]).write_text(json.dumps(base), encoding="utf-8")
    judged = dict(base, config=dict(base["config"], judged_from=two_runs[1], date="2026-01-03T10:00:00+01:00"))
    write_run("runs/judged.json", judged)
    out = cli("compare", two_runs[1], "runs/judged.json")[1]
    assert "every answer the same: one run's answers judged or scored again" in out, out
    rerun = dict(base, config=dict(base["config"], date="2026-01-03T10:00:00+01:00"))
    rerun["results"] = [dict(r) for r in base["results"]]
    rerun["results"][3].update(response="bug", error=None, done_reason="stop")   # the rerun's call came back
    rerun["results"][0].update(response="", thinking="Let me think", done_reason="length")
    write_run("runs/cut.json", rerun)
    base["results"][3].update(response="bug", error=None, done_reason="stop")
    Path(two_runs[1]).write_text(json.dumps(base), encoding="utf-8")
    for flags in ((), ("--markdown",)):
        out = cli("compare", two_runs[1], "runs/cut.json", *flags)[1]
        assert "every answer the same" not in out and "nothing in the configuration (a rerun" in out, out
    # (its review) both cut in their thinking, which each said otherwise: no answer alike either
    base["results"][0].update(response="", thinking="A first thought", done_reason="length")
    Path(two_runs[1]).write_text(json.dumps(base), encoding="utf-8")
    out = cli("compare", two_runs[1], "runs/cut.json")[1]
    assert "every answer the same" not in out, out
    base["results"][0]["thinking"] = "Let me think"
    Path(two_runs[1]).write_text(json.dumps(base), encoding="utf-8")
    assert "every answer the same (a rerun that answered alike)" in cli("compare", two_runs[1], "runs/cut.json")[1]


def test_a_run_judged_again_says_so_and_with_whose_checks(project, cli):
    """Round 106: compare of runs `judge` made (judge --checks s2/dev.jsonl) scored both with s2's checks and said so
    in no view: it read as a comparison under the split's own checks."""
    import shutil
    shutil.copy(ROOT / "runs" / "example" / "support-dev-v1.json", "a.json")
    shutil.copy(ROOT / "runs" / "example" / "support-dev-v1-judged.json", "b.json")
    judged = load_json("b.json")
    judged["config"]["checks_from"] = "s2/dev.jsonl"
    Path("b.json").write_text(json.dumps(judged), encoding="utf-8")
    out = cli("compare", "a.json", "b.json")[1]
    assert "Candidate: judged again by SmolLM2-135M-Instruct-Q4_1, 3 votes each, with the checks of s2/dev.jsonl" in out, out
    assert "judged again by SmolLM2-135M-Instruct-Q4\\_1, 3 votes each, with the checks of s2/dev.jsonl" in \
        cli("compare", "a.json", "b.json", "--markdown")[1]
    assert json.loads(cli("compare", "a.json", "b.json", "--json")[1])["judged_again"] == {
        "candidate": "judged again by SmolLM2-135M-Instruct-Q4_1, 3 votes each, with the checks of s2/dev.jsonl"}
    judged["config"]["checks_from"] = "s2/x\n## head"   # (its review) a file's words on a line of their own
    Path("b.json").write_text(json.dumps(judged), encoding="utf-8")
    out = cli("compare", "a.json", "b.json")[1]
    assert "\n## head" not in out and "with the checks of $'s2/x\\x0a## head'" in out, out


def test_a_digest_holding_a_line_break_is_shown_on_its_line(project, cli):
    """114th round's fuzz: a run file's model_digest edited to hold a line break split compare's line in two ("ab" then
    "cdef0: the model was re-pulled ..." on a line of its own)."""
    a, b = make_run([("c1", "bug", "bug")]), make_run([("c1", "bug", "acceso")], prompt="prompts/v2.txt")
    a["config"]["model_digest"], b["config"]["model_digest"] = "643816e6aa", "ab\ncdef0123"
    out = cli("compare", write_run("runs/a.json", a), write_run("runs/b.json", b))[1]
    assert "  model digest: 643816e6 -> ab\\ncdef0: the model was re-pulled" in out and "\ncdef0" not in out, out
    # (its review) a judge's digest too
    shown = evalpy.shown("judge", {"models": ["qwen2.5:7b"], "votes": 1, "digests": ["6438\n16e6f55a"]})
    assert "digests=6438\\n16e" in shown and "\n" not in shown, shown


def test_compare_says_a_candidate_agent_ran_out_of_turns(project, cli):
    """116th round: an agent that ran out of turns in the candidate, making the calls its baseline made, was said
    nowhere in compare's text and markdown (no trajectory change); one no longer out of turns neither."""
    from conftest import agent_spec
    look = ("lookup_order", {"order_id": "A-1"}, True)
    a = write_run("runs/a.json", make_run([agent_spec("t1", [look, look])], labels=None, split="agent-dev", max_turns=3))
    b = write_run("runs/b.json", make_run([agent_spec("t1", [look, look], out_of_turns=True)], labels=None,
                                          split="agent-dev", max_turns=2))
    rows = json.loads(cli("compare", a, b, "--json")[1])["trajectory"]
    assert [(r["id"], r["changes"]) for r in rows] == [("t1", ["ran out of turns (no answer)"])], rows
    assert "t1: ran out of turns (no answer)" in cli("compare", a, b)[1]
    assert "ran out of turns (no answer)" in cli("compare", a, b, "--markdown")[1]
    rows = json.loads(cli("compare", b, a, "--json")[1])["trajectory"]
    assert [(r["id"], r["changes"]) for r in rows] == [("t1", ["no longer out of turns"])], rows


def test_a_context_file_checked_out_with_cr_lf_is_the_same_passages(project, cli, fake):
    """118th round's review: the --context file was hashed by its bytes (the split by as_hashed): saved with CR LF it
    was "Changed: context_sha", and a stopped run was refused its resume, "the context file changed"."""
    shutil.copy("golden/rag/retriever-b.ndjson", "ctx.ndjson")
    assert cli("run", "--split", "golden/rag/dev.jsonl", "--context", "ctx.ndjson", "--out", "runs/b2.json",
               "--host", fake.url)[0] in (0, 1)
    Path("ctx.ndjson").write_bytes(Path("ctx.ndjson").read_bytes().replace(b"\n", b"\r\n"))
    assert cli("run", "--split", "golden/rag/dev.jsonl", "--context", "ctx.ndjson", "--out", "runs/b3.json",
               "--host", fake.url)[0] in (0, 1)
    code, out, err = cli("compare", "runs/b2.json", "runs/b3.json")
    assert "context" not in out.partition("Changed:")[2].split("\n")[0], out
    assert load_json("runs/b2.json")["config"]["context_sha"] == load_json("runs/b3.json")["config"]["context_sha"]
    # (its review) a run an eval.py before made of the CR LF file recorded the hash of its bytes: the same file too
    import hashlib
    older = load_json("runs/b3.json")
    older["config"]["context_sha"] = hashlib.sha256(Path("ctx.ndjson").read_bytes()).hexdigest()
    Path("runs/b4.json").write_text(json.dumps(older), encoding="utf-8")
    code, out, err = cli("compare", "runs/b2.json", "runs/b4.json")
    assert code == 0 and "context" not in out.partition("Changed:")[2].split("\n")[0], out + err


def test_two_runs_of_as_many_chosen_cases_name_the_cases_each_holds_alone(project, cli):
    """119th round's statistics check: two --cases runs of 10 cases each, dev-01..10 and dev-03..12, were "Changed:
    subset: 10 chosen cases, --cases -> 10 chosen cases, --cases", the same words on both sides."""
    source = load_json(ROOT / "runs/example/dev-v1.json")
    ids = [f"dev-{n:02d}" for n in range(1, 29)]
    for name, chosen, date in (("a", ids[0:10], "2026-11-30T20:07:26+00:00"), ("b", ids[2:12], "2026-12-01T10:00:00+00:00")):
        run = json.loads(json.dumps(source))
        run["results"] = [r for r in run["results"] if r["id"] in chosen]
        run["config"].update(cases=len(chosen), date=date, subset={"cases": chosen})
        Path(f"{name}.json").write_text(json.dumps(run, ensure_ascii=False), encoding="utf-8")
    code, out, err = cli("compare", "a.json", "b.json")
    assert ("subset: 10 chosen cases, --cases (dev-01, dev-02 not in the other) -> 10 chosen cases, --cases (dev-11, "
            "dev-12 not in the other)") in out, out + err
    run = load_json("b.json")   # (its review: the same cases in another order are no change)
    run["config"]["subset"]["cases"] = list(reversed(load_json("a.json")["config"]["subset"]["cases"]))
    run["results"] = load_json("a.json")["results"]
    Path("b.json").write_text(json.dumps(run, ensure_ascii=False), encoding="utf-8")
    code, out, err = cli("compare", "a.json", "b.json")
    assert "subset" not in out and "not in the other" not in out, out + err


def test_a_p_too_small_for_a_float_is_shown_as_a_bound_never_as_zero(project, cli):
    # 1,100 cases fixed and none broken: the true mid-p is 2^-1100 (scipy's log says about 1e-331), past the smallest
    # float, so the test's float is 0.0; it printed "p = 0.0e+00", a p no exact test can give
    n = 1100
    assert scipy.stats.binom.logpmf(0, n, 0.5) / np.log(10) < -300
    cases = [{"id": f"c{i:04d}", "expected": "bug"} for i in range(n)]
    write_run("runs/a.json", make_run([dict(c, response="acceso") for c in cases], prompt="prompts/a.txt", prompt_text="A\n"))
    write_run("runs/b.json", make_run([dict(c, response="bug") for c in cases], prompt="prompts/b.txt", prompt_text="B\n"))
    write_run("runs/c.json", make_run([dict(c, response="bug") for c in cases], prompt="prompts/c.txt", prompt_text="C\n"))
    out = cli("compare", "runs/a.json", "runs/b.json")[1]
    assert "p < 1e-300 (mid-p McNemar): the candidate is better beyond chance" in out and "0.0e+00" not in out
    assert json.loads(cli("compare", "runs/a.json", "runs/b.json", "--json")[1])["test"]["p"] == 0.0   # the nearest float
    table = cli("compare", "runs/a.json", "runs/b.json", "runs/c.json")[1]   # the Holm column of a table of three
    assert table.count("<1e-300") == 4 and "0.0e+00" not in table
    assert "0.0e+00" not in cli("compare", "runs/a.json", "runs/b.json", "--markdown")[1]
    # (round 124's review) Fisher's line said "p = <1e-300"
    fisher = cli("compare", "runs/a.json", "runs/b.json", "--fisher")[1]
    assert "for a test set before the run): p < 1e-300" in fisher and "= <" not in fisher, fisher


def test_a_run_whose_pattern_an_older_eval_py_filled_otherwise_is_compared_as_the_split_fills_it(project, cli):
    """136th round: a run of an eval.py before 7aca3a0 stored "^{{x}}{2}" of x "ab" as "^ab{2}", which report now scores
    as the split fills it ("^(?:ab){2}"), as this eval.py's run of it is: the same check, the same measure, compared
    (compare refused it as "other checks ... or an older eval.py stored its checks otherwise"); a pattern edited by hand
    into another is still refused."""
    Path("free").mkdir()
    Path("free/s.jsonl").write_text(json.dumps({"id": "c1", "input": "q", "difficulty": "easy", "note": "n", "vars": {
        "x": "ab"}, "checks": [{"type": "regex", "value": "^{{x}}{2}"}]}) + "\n", encoding="utf-8")
    newer = split_run("free/s.jsonl", {"c1": "abb id"}, date="2026-01-03T09:30:00+01:00")
    older = split_run("free/s.jsonl", {"c1": "abab id"})
    older["results"][0]["checks"][0]["value"] = "^ab{2}"
    code, out, err = cli("compare", write_run("runs/older.json", older), write_run("runs/newer.json", newer), "--json")
    assert code == 0 and json.loads(out)["regressions"] == ["c1"], (out, err)
    older["results"][0]["checks"][0]["value"] = "^a"
    code, out, err = cli("compare", write_run("runs/older.json", older), "runs/newer.json")
    assert code == 2 and "it was edited" in err, err


def test_a_stored_pattern_that_backtracks_names_its_run_and_the_cure_works_for_compare_and_review(project, cli, fake,
                                                                                                  monkeypatch):
    """139th round: a run whose stored regex (a+)+$ backtracks on an answer stopped compare and review with "check ...
    ran for over 5 s ...; rewrite the pattern, then report --checks": neither run file named, and no cure for them
    (neither took --checks, judge --checks refuses a run with no judge check). The line names the run file and the
    command to paste, the pattern rewritten in the split it came from; compare and review take --checks too."""
    monkeypatch.setattr(evalpy, "REGEX_SECONDS", 0.5)
    fake.default_answer = "a" * 34 + "b"
    case = {"id": "b1", "input": "x", "difficulty": "easy", "note": "n", "checks": [{"type": "regex", "value": "(a+)+$"}]}
    Path("s.jsonl").write_text(json.dumps(case) + "\n")
    for out in ("runs/s-v1.json", "other.json"):
        assert cli("run", "--split", "s.jsonl", "--prompt", "prompts/v1.txt", "--host", fake.url, "--out", out)[0] == 2
    cure = ("; rewrite the pattern in s.jsonl, then: python eval.py report runs/s-v1.json --checks s.jsonl (compare and "
            "review take --checks s.jsonl too)\n")
    stopped = "check 'regex (a+)+$' ran for over 0.5 s on the answer to b1 (its pattern backtracks on it)"
    code, out, err = cli("compare", "other.json", "runs/s-v1.json")
    assert code == 2 and err == f"error: other.json: {stopped}" + cure.replace(" runs/s-v1.json ", " other.json "), err
    with pytest.raises(evalpy.EvalError) as e:
        evalpy.Review("runs/s-v1.json")
    assert str(e.value) + "\n" == f"runs/s-v1.json: {stopped}" + cure
    Path("s.jsonl").write_text(json.dumps(dict(case, checks=[{"type": "regex", "value": "a+b$", "name": "regex (a+)+$"}])) + "\n")
    pasted = err.split("then: python eval.py ")[1].split(" (")[0].split()
    code, out, err = cli(*pasted)
    assert code == 0 and out.startswith("Pass rate: 1/1 = 100%"), err
    code, out, err = cli("compare", "other.json", "runs/s-v1.json", "--checks", "s.jsonl")
    assert code == 0 and "Stayed right: 1" in out, err
    assert [item["verdict"] for item in evalpy.Review("runs/s-v1.json", "other.json", "s.jsonl").items] == ["pass"], err
