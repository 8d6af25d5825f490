"""Report: the score of a run file rendered as text, markdown or JSON, never calling a model."""

import datetime
import itertools
import json
import os
import subprocess
import re
import shlex
import unicodedata
from pathlib import Path

import pytest
import scipy.stats

from conftest import (agent_refused_spec, agent_spec, LINKED, MARKUP, MATH, ROOT, answer_key, evalpy, github_linked, hand_cases, load_json, make_run, markdown_acted_on,
                      small_split, split_run, write_run)


def test_report_opens_with_accuracy_baseline_and_invalid(hand_run, cli):
    code, out, err = cli("report", hand_run)
    assert code == 0
    assert out.splitlines()[:3] == [
        "Accuracy: 4/7 = 57%  (95% CI 25–84%)",                 # a1 a2 a4 a7
        "Majority baseline (always 'bug'): 3/7 = 43%  (95% CI 16–75%)",  # bug is 3 of 7
        "Invalid answers: 1",                                   # a5
    ]


def test_a_long_label_set_leaves_out_the_labels_no_case_has_and_no_answer_gave(project, cli, fake):
    """Round 109: a labels.txt of 3,000 labels made a confusion matrix of 9 million cells (one case: 25 s, 1.2 GB,
    78 MB of report; 10,000 labels never finished). Past MANY_LABELS, the labels no case expects and no answer gave
    leave the tables, said so; a short set keeps every label."""
    Path("many").mkdir()
    Path("many/labels.txt").write_text("".join(f"lab{i}\n" for i in range(300)) + "bug\nacceso\n", encoding="utf-8")
    Path("many/dev.jsonl").write_text("".join(json.dumps({"id": f"c{i}", "input": text, "expected": "bug", "difficulty": "easy",
                                                          "note": "n"}) + "\n" for i, text in enumerate(("uno", "dos"))),
                                      encoding="utf-8")
    fake.answers = {"uno": "bug", "dos": "acceso"}
    for out in ("runs/a.json", "runs/b.json"):
        assert cli("run", "--split", "many/dev.jsonl", "--host", fake.url, "--out", out)[0] == 0
    report = json.loads(cli("report", "runs/a.json", "--json")[1])
    assert list(report["per_label"]) == ["bug", "acceso"] and report["labels_unseen"] == 300, list(report["per_label"])
    assert report["confusion"] == {"bug": {"bug": 1, "acceso": 1, "INVALID": 0}, "acceso": {"bug": 0, "acceso": 0, "INVALID": 0}}
    assert report["per_label"]["acceso"]["precision"] == 0.0 and report["per_label"]["bug"]["recall"] == 0.5
    out = cli("report", "runs/a.json")[1]
    assert "(300 labels of labels.txt (past 50) that no case expects and no answer gave are left out)" in out, out
    assert cli("compare", "runs/a.json", "runs/b.json")[0] == 0
    assert cli("report", "runs/a.json", "--html", "a.html")[0] == 0 and "300 labels of labels.txt" in Path("a.html").read_text()
    # a short set keeps every label, those no case has too
    short = write_run("runs/short.json", make_run([("a1", "bug", "bug")], labels=["bug", "acceso", "petición"]))
    assert list(json.loads(cli("report", short, "--json")[1])["per_label"]) == ["bug", "acceso", "petición"]


def test_report_text_sections(hand_run, cli):
    out = cli("report", hand_run)[1]
    assert "  bug               0.67    0.67  0.67        3" in out
    assert "  petición             -    0.00     -        1" in out
    assert "  easy  3/4 = 75%  95% CI 30–95%  (fewer than 10 cases: too few to read much into)" in out
    assert "  trap  1/3 = 33%  95% CI 6–79%   (fewer than 10 cases: too few to read much into)" in out
    assert "  a5  trap        facturación  INVALID  Categoría: facturación" in out
    assert "Confusion matrix (rows expected, columns predicted):" in out


def test_report_never_calls_a_model(project, cli, fake):
    """The run names a live server as its host: report still connects to it for nothing at all."""
    path = write_run("runs/s-v2.json", make_run(hand_cases(), prompt="prompts/v2.txt", host=fake.url))
    assert cli("report", path)[0] == 0
    assert fake.connections == set() and fake.chat_bodies == [] and fake.loads == []


def test_every_share_of_up_to_200_cases_rounds_its_half_up_in_every_view():
    """Thirty-ninth round on issue 28: 23/40 showed as 57% beside a recall of 0.58; and +6.25 points as +6.2.
    Against exact decimal arithmetic (Decimal, half up) for every k/n with n up to 200."""
    from decimal import ROUND_HALF_UP, Decimal
    def exact(k, n, digits):
        return f"{(Decimal(k) * 100 / Decimal(n)).quantize(Decimal(1).scaleb(-digits), ROUND_HALF_UP):f}"
    wrong = [(k, n) for n in range(1, 201) for k in range(1, n)
             if evalpy.rounded(k / n, 0, 100) != exact(k, n, 0) or evalpy.rounded(k / n, 1, 100) != exact(k, n, 1)]
    assert wrong == []
    assert evalpy.fmt(23 / 40) == "0.58" and evalpy.signed_points(1 / 16) == "+6.3" and evalpy.signed_points(-1 / 16) == "−6.3"


@pytest.mark.parametrize("part, whole, text", [
    (22, 25, "22/25 = 88%"), (0, 5, "0/5 = 0%"), (5, 5, "5/5 = 100%"), (14, 15, "14/15 = 93%"),
    (199, 200, "199/200 = 99.5%"),   # never "100%" with a failure in it
    (1, 300, "1/300 = 0.3%"),        # never "0%" with a success in it
    (0, 0, "0/0 = -"),
    (2999, 3000, "2999/3000 = 99.97%"), (1, 3000, "1/3000 = 0.03%"),   # from the second attack on issue 28
    (999999, 1000000, "999999/1000000 = 99.9999%"), (10 ** 9 - 1, 10 ** 9, "999999999/1000000000 = >99.9999%"),
    (1, 10 ** 9, "1/1000000000 = <0.0001%"),
    # (37th round) a half rounded up, always: 5/8 was 62% beside 3/8 at 38% (format() rounds a half to even)
    (1, 8, "1/8 = 13%"), (3, 8, "3/8 = 38%"), (5, 8, "5/8 = 63%"), (7, 8, "7/8 = 88%"), (37, 40, "37/40 = 93%"),
    # (39th round) from the decimal the share is, not the float's product: 100 * 0.575 is 57.49999999999999
    (23, 40, "23/40 = 58%"), (17, 40, "17/40 = 43%"), (69, 120, "69/120 = 58%"),
])
def test_percentages(part, whole, text):
    assert evalpy.count_percent(part, whole) == text


def test_a_rate_or_an_interval_short_of_100_or_above_0_never_prints_as_it():
    """From the second attack on issue 28: 2999/3000 printed "100.0%", its interval "100–100%", and
    1e-300 "0.0%"."""
    assert evalpy.percent(1e-300) == "<0.0001%" and evalpy.percent(1 - 2 ** -53) == ">99.9999%"
    assert evalpy.percent(1.0) == "100%" and evalpy.percent(0.0) == "0%" and evalpy.percent(0.995) == "99.5%"
    assert evalpy.percent(float("nan")) == "nan%" and evalpy.interval((float("nan"), 1.0)) == "nan–100%"   # no crash
    assert evalpy.interval(evalpy.wilson(2999, 3000)) == "99.8–99.99%"
    assert evalpy.interval(evalpy.wilson(1, 3000)) == "0.01–0.2%"
    assert evalpy.interval((0.0, 1.0)) == "0–100%" and evalpy.interval(evalpy.wilson(3, 7)) == "16–75%"


def test_one_failure_in_3000_cases_is_never_100_percent_in_any_view(project, cli):
    run = write_run("runs/big.json", make_run([(f"c{i}", "bug", "bug" if i else "acceso") for i in range(3000)]))
    text, markdown = cli("report", run)[1], cli("report", run, "--markdown")[1]
    assert text.splitlines()[0] == "Accuracy: 2999/3000 = 99.97%  (95% CI 99.8–99.99%)"
    assert "2999/3000 = 99.97%" in markdown and "99.8–99.99%" in markdown
    for out in (text, markdown, cli("report", run, "--html", "big.html")[1] + open("big.html", encoding="utf-8").read()):
        assert "100.0%" not in out and "100–100%" not in out and "2999/3000 = 100%" not in out, out


def test_the_markdown_report_says_how_the_answers_were_drawn(tagged_run, cli):
    """Round 107: the markdown's first line gave split, prompt and model, never the temperature, seed and trials
    the text's run line gives: a pull request read a 3-trial run at T=0.7 as one answer a case."""
    config = load_json(tagged_run)["config"]
    md = cli("report", tagged_run, "--markdown")[1]
    assert f" · T={config['temperature']:g} · seed {config['seed']} · 3 trials\n" in md, md


def test_two_runs_at_temperatures_six_digits_alike_show_each_its_own(project, cli):
    """138th round, F4: runs at --temperature 0.7 and 0.7000001 both showed T=0.7 (:g, six digits) in report's first
    line, the page's sampling row and the T column of runs, while compare said "temperature: 0.7 -> 0.7000001". Each
    shows the temperature it was run at, as the judge's row beside it does."""
    for t in (0.7, 0.7000001):
        write_run(f"runs/t{t}.json", split_run(temperature=t))
    assert " · T=0.7000001 · seed " in cli("report", "runs/t0.7000001.json")[1]
    assert cli("report", "runs/t0.7000001.json", "--html", "t.html")[0] == 0
    assert "temperature 0.7000001 · seed" in Path("t.html").read_text(encoding="utf-8")
    listed = cli("runs", "runs")[1]
    assert re.search(r"t0\.7000001\.json .* 0\.7000001 ", listed) and re.search(r"t0\.7\.json .* 0\.7 ", listed), listed


def test_the_markdown_report_names_the_answers_that_failed(project, cli):
    """Round 108: report --markdown of a run with errors gave their count alone, its gate line "1 request(s)...": a pull
    request's reader could not tell which case failed, which the text and compare's markdown name."""
    write_run("runs/e.json", make_run([("c1", "bug", "bug"), ("c2", "bug", None)]))
    md = cli("report", "runs/e.json", "--markdown")[1]
    assert "**Errors, not scored (1):** `c2` (first: `" in md, md
    run = load_json("runs/e.json")   # (its review) a line break in the error: shown escaped, as every view does
    run["results"][1]["error"] = "HTTP 500: boom\nsecond line"
    write_run("runs/e.json", run)
    assert "(first: `HTTP 500: boom\\nsecond line`)" in cli("report", "runs/e.json", "--markdown")[1]


def test_accuracy_per_tag(tagged_run, cli):
    """(127th round) With trials a slice counts each case once, by its trials' majority, and says so in every view:
    red-team at 100% under a headline of 92% read as a contradiction."""
    out = cli("report", tagged_run)[1]
    assert "\nBy tag (each case by the majority vote of its trials):\n" in out and \
        "\nBy difficulty (each case by the majority vote of its trials):\n" in out, out
    assert "  red-team   2/2 = 100%  95% CI 34–100%" in out
    s = json.loads(cli("report", tagged_run, "--json")[1])
    assert s["by_tag"]["injection"]["correct"] == 2 and s["by_tag"]["injection"]["total"] == 2
    assert s["slices_by"] == "majority"
    cli("report", tagged_run, "--html", "r.html")
    assert "By tag (each case by the majority vote of its trials)" in Path("r.html").read_text()
    one = write_run("runs/one.json", make_run([("a", "bug", "bug")]))
    assert "\nBy difficulty:\n" in cli("report", one)[1] and json.loads(cli("report", one, "--json")[1])["slices_by"] == "case"


def test_json_carries_unrounded_figures_and_gates(dev_run, cli):
    s = json.loads(cli("report", dev_run, "--json", "--min-accuracy", "0.9")[1])
    ci = scipy.stats.binomtest(25, 28).proportion_ci(method="wilson")
    assert s["accuracy"] == 25 / 28
    assert s["accuracy_ci"] == [pytest.approx(ci.low, rel=1e-12), pytest.approx(ci.high, rel=1e-12)]
    assert s["gates"] == {"exit": 1, "verdicts": ["GATE FAILED: accuracy 89% (95% CI 73–96%) against a minimum of 90%"]}


def test_markdown_views(dev_run, worse_run, cli):
    code, out, err = cli("report", dev_run, "--markdown", "--min-accuracy", "0.8")
    assert code == 0
    assert out.startswith("### eval.py report: `runs/dev-v2.json`")
    assert "| Accuracy | 25/28 = 89% | 73–96% |" in out
    assert "| Majority baseline (always `bug`) | 11/28 = 39% | 24–58% |" in out
    assert "**Failures (3):** `dev-09` (trap: expected bug, got facturación)" in out
    assert out.rstrip().endswith("**gate passed:** `accuracy 89% (95% CI 73–96%) against a minimum of 80%`")
    out = cli("compare", dev_run, worse_run, "--markdown")[1]
    assert "| Accuracy | 25/28 = 89% (95% CI 73–96%) | 22/28 = 79% (95% CI 60–90%) |" in out
    assert "**Fixed (3):** `dev-09`, `dev-11`, `dev-24`" in out
    assert "**Difference, candidate − baseline:** −10.7 points (95% CI " in out and "(mid-p McNemar)" in out
    with pytest.raises(SystemExit):
        cli("report", dev_run, "--json", "--markdown")


def test_a_run_with_no_answer_says_so_instead_of_a_baseline_of_nothing(project, cli):
    path = write_run("runs/none.json", make_run([("c1", "bug", None), ("c2", "acceso", None)]))
    code, out, err = cli("report", path)
    lines = out.splitlines()
    assert lines[0] == "Accuracy: no answers to score (2 errors, 0 undecided)"
    assert not any(line.startswith("Baseline") for line in lines) and "0/0" not in out
    assert "Scored with 1 check (label; checks sha" in out or "Scored with 0 checks (checks sha" in out
    assert "(;" not in out


def test_a_failure_shows_an_invalid_answer_as_written_and_names_a_check_beside_a_right_label(project, cli):
    """Sixty-seventh attack on issue 28: "bug\\nreport" and "bug\\xa0report" were listed as "got INVALID, answer
    bug report", a label of their set; and a right label whose other check failed read "expected bug, got bug"."""
    label_and_text = [{"name": "label", "type": "label", "blocking": True},
                      {"name": "exact", "type": "equals_expected", "blocking": True}]
    run = write_run("runs/f.json", make_run([("a", "bug", "bug\nacceso"), ("b", "bug", "bug\u00a0y\u00adx"),
                                             {"id": "c", "expected": "bug", "response": "**Bug**", "checks": label_and_text},
                                             ("d", "bug", "bug\\nacceso")]))   # (73rd) a backslash and an n, as written
    lines = cli("report", run)[1].splitlines()
    row = {line.split()[0]: line for line in lines[lines.index("Failures (4):") + 2:]}
    assert row["a"].split()[-2:] == ["INVALID", "bug\\nacceso"] and row["b"].split()[-2:] == ["INVALID", "bug\\xa0y\\xadx"], row
    assert row["d"].split()[-2:] == ["INVALID", "bug\\\\nacceso"], row
    # (74th) cut between two characters' escapes, never inside one: four backslashes then \xa0 left a lone "\x"
    assert evalpy.every_character("a" * 59 + "\\" * 4 + "\xa0bug", 70) == "a" * 59 + "\\" * 8 + "…"
    # (round 124's hostile Ollama) a line cut at 70 columns read every character of the answer: 50 MB took 50 s a
    # report; its first ones alone are read (the line the same: each character takes a column, or joins the one before)
    looked, invisible = [], evalpy.INVISIBLE_CHARS

    class Counted:
        def match(self, c):
            looked.append(c)
            return invisible.match(c)
    huge = "x" * 1_000_000
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(evalpy, "INVISIBLE_CHARS", Counted())
        assert evalpy.every_character(huge, 70) == "x" * 69 + "…" and len(looked) < 1000, len(looked)
        assert evalpy.every_character("\u0301" * 400 + "ab", 70) == "\u0301" * 400 + "ab"   # (marks: the whole read)
    assert "bug (exact failed)" in row["c"] and row["c"].endswith("**Bug**"), row
    # (70th) the other views say as much
    assert "expected bug, got bug (exact failed))" in cli("report", run, "--markdown")[1]
    assert cli("report", run, "--html", "f.html")[0] == 0
    page = open("f.html", encoding="utf-8").read()
    assert "bug (exact failed)" in page and "every character: bug\\xa0y\\xadx" in page, page[-3000:]
    assert page.count("every character:") == 2, page   # (74th) not for d: a backslash is shown as it is


def test_counts_of_one_are_singular(project, cli):
    out = cli("report", write_run("runs/one.json", make_run([("c1", "bug", "acceso")])))[1]
    assert "Scored with 1 check (label; checks sha" in out


@pytest.mark.parametrize("given, says", [
    ("golden/dev.jsonl", "golden/dev.jsonl looks like a split (a case on each line), not a run: run it with `python eval.py run --split"),
    ("runs/x.json.journal", "is the journal of an unfinished run: finish it with `python eval.py run --resume runs/x.json`"),
    # (round 102) a split of one case parsed whole as JSON: "no format", where a longer one was called a split
    ("one.jsonl", "one.jsonl looks like a split (a case on each line), not a run: run it with `python eval.py run --split one.jsonl`"),
    ("runs/x.json.annotations.json", "this is the annotations file of a review, not a run"),
    ("runs/x.json.labels.json", "this is the annotations file of a review, not a run"),
    ("runs/x.json.pairwise.json", "this holds compare --pairwise's verdicts, not a run: give the runs it compared"),
    # (round 105) a prompt was a run "damaged or cut short: restore it from a copy, or run it again"
    ("prompts/v2.txt", "prompts/v2.txt: not a run file: a run file is the JSON object run writes (it begins with {), in "
                       "runs/; a prompt is given to run: python eval.py run --split SPLIT --prompt prompts/v2.txt"),
    # (116th round) any .txt was a prompt to run: the labels, requirements.txt, given to run as the model's instructions
    ("golden/labels.txt", "golden/labels.txt: not a run file: a run file is the JSON object run writes (it begins with {), "
                          "in runs/; labels.txt holds a split's labels, one a line, read beside the split\n"),
    ("notes.txt", "notes.txt: not a run file: a run file is the JSON object run writes (it begins with {), in runs/\n"),
    # (round 140) a split's checks or tools, a retriever's passages, a person's verdicts not named .jsonl: sound files,
    # "not a valid run file ... restore it from a copy" (named as --prompt names them: set_file_kind)
    ("golden/support/checks.json", "golden/support/checks.json looks like a split's checks (checks.json), not a run: it "
                                   "is read beside its split; give a run file (in runs/)\n"),
    ("golden/agent/tools.json", "golden/agent/tools.json looks like a split's tools (tools.json), not a run: it is read "
                                "beside its split; give a run file (in runs/)\n"),
    ("golden/rag/retriever-b.ndjson", "golden/rag/retriever-b.ndjson looks like a retriever's passages (lines of id and "
                                      "context), not a run: give it to run as --context (python eval.py run --split SPLIT "
                                      "--context golden/rag/retriever-b.ndjson), then the run file it writes (in runs/)\n"),
    ("human.json", "human.json holds a person's verdicts, not a run: calibrate takes the verdicts first, then the run "
                   "(calibrate VERDICTS RUN)\n"),
])
def test_report_says_what_a_file_that_is_not_a_run_is(project, cli, given, says):
    (project / "runs").mkdir(exist_ok=True)
    (project / "runs" / "x.json.journal").write_text('{"format": "eval.py-run/1", "config": {}}\n')
    (project / "runs" / "x.json.annotations.json").write_text(json.dumps(
        {"format": evalpy.ANNOTATIONS_FORMAT, "run": "x.json", "annotations": {}}))
    (project / "runs" / "x.json.labels.json").write_text(json.dumps(   # the older name and form
        {"format": evalpy.OLD_ANNOTATIONS_FORMAT, "run": "x.json", "labels": {}}))
    (project / "runs" / "x.json.pairwise.json").write_text(json.dumps({"format": evalpy.PAIRWISE_FORMAT, "comparisons": []}))
    (project / "one.jsonl").write_text(Path("golden/dev.jsonl").read_text().splitlines()[0] + "\n")
    (project / "notes.txt").write_text("requests>=2\n")
    (project / "human.json").write_text('{"id": "dev-01", "check": "label", "pass": true}\n'
                                        '{"id": "dev-02", "check": "label", "pass": false}\n')
    code, out, err = cli("report", given)
    assert code == 2 and says in err and "damaged or cut short" not in err
    # (round 134) a sound file of another kind was told to be restored from a copy, as a damaged run is
    assert evalpy.RESTORE_RUN not in err, err
    if given.startswith("golden/"):   # compare reads its runs as report does
        code, out, err = cli("compare", given, write_run("runs/r.json", make_run([("c1", "bug", "bug")])))
        assert code == 2 and says in err, err


def test_what_report_compare_or_runs_printed_as_json_given_as_a_run_names_the_run_not_a_copy(project, cli, fake):
    """135th round: `report r.json --json > runs/r-report.json`, then `compare runs/r-report.json runs/s.json`, was "not
    a valid run file: no "format" ... (was it written by eval.py?); restore it from a copy", of a sound file eval.py had
    printed; so for compare's and runs' --json, in report, compare, judge and the `runs` listing. As --prompt it was
    already named. It is named as such here too, with the run(s) it names to give instead."""
    write_run("runs/r.json", make_run([("c1", "bug", "bug")]))
    write_run("runs/s.json", make_run([("c1", "bug", "acceso")]))
    write_run("runs/t.json", make_run([("c1", "bug", "petición")]))
    given = {"report": (["report", "runs/r.json"], "the run it reports (runs/r.json)"),
             "compare": (["compare", "runs/r.json", "runs/s.json"], "the runs it compared (runs/r.json, runs/s.json)"),
             "compare3": (["compare", "runs/r.json", "runs/s.json", "runs/t.json"],
                          "the runs it compared (runs/r.json, runs/s.json, runs/t.json)"),
             "runs": (["runs", "runs"], "a run it lists (")}
    for name, (argv, names) in given.items():
        code, out, err = cli(*argv, "--json")
        assert code == 0, err
        Path(f"runs/{name}-out.json").write_text(out, encoding="utf-8")
    for name, (argv, names) in given.items():
        said = (f"runs/{name}-out.json: not a run file: this is what `python eval.py {argv[0]} --json` prints, not a "
                f"run: give {names}")
        for command in (["report", f"runs/{name}-out.json"], ["compare", f"runs/{name}-out.json", "runs/s.json"],
                        ["judge", f"runs/{name}-out.json", "--host", fake.url]):
            code, out, err = cli(*command)
            assert code == 2 and err.startswith(f"error: {said}") and evalpy.RESTORE_RUN not in err, (command, err)
    listed = {row["file"]: row.get("problem") for row in json.loads(cli("runs", "runs", "--json")[1])}
    for name, (argv, names) in given.items():
        problem = listed[f"runs/{name}-out.json"]
        assert f"`python eval.py {argv[0]} --json` prints, not a run" in problem and evalpy.RESTORE_RUN not in problem, problem
    assert listed["runs/r.json"] is None and fake.chat_bodies == []   # (the runs themselves still listed as runs)


def test_what_report_case_or_power_printed_as_json_given_as_a_run_is_named_so(project, cli):
    """135th round (its review): `report runs/r.json --case c1 --json > runs/case.json`, then `report runs/case.json`, was
    still "not a valid run file ... restore it from a copy" (printed_view knew report's, compare's and runs' --json
    alone), and `runs` listed it so; power --json alike."""
    write_run("runs/r.json", make_run([("c1", "bug", "bug")]))
    given = {"report --case": ["report", "runs/r.json", "--case", "c1"], "power": ["power", "--rate", "0.1", "--rows", "50"],
             "power ": ["power", "--rows", "200"]}
    for n, (view, argv) in enumerate(given.items()):
        Path(f"runs/v{n}.json").write_text(cli(*argv, "--json")[1], encoding="utf-8")
        code, out, err = cli("report", f"runs/v{n}.json")
        assert code == 2 and f"not a run file: this is what `python eval.py {view.strip()} --json` prints, not a run" in err \
            and evalpy.RESTORE_RUN not in err, (argv, err)
    listed = {row["file"]: row.get("problem") for row in json.loads(cli("runs", "runs", "--json")[1])}
    assert all("--json` prints, not a run" in listed[f"runs/v{n}.json"] for n in range(len(given))), listed


@pytest.mark.parametrize("kind", ["PAIRWISE_FORMAT", "ANNOTATIONS_FORMAT", "OLD_ANNOTATIONS_FORMAT"])
def test_a_run_whose_format_alone_names_another_kind_is_a_damaged_run(project, cli, kind):
    """Round 134's review: a run whose "format" alone was edited to compare --pairwise's or a review's (its config and
    results whole) was said to be that sound file, "give the runs it compared", and lost the cure to restore it."""
    run = make_run([("c1", "bug", "bug")])
    path = write_run("runs/edited.json", {**run, "format": getattr(evalpy, kind)})
    code, out, err = cli("report", path)
    assert code == 2 and "not a valid run file" in err and err.rstrip().endswith(evalpy.RESTORE_RUN), err
    assert "pairwise" not in err.split("not a valid run file")[1] and "annotations file" not in err, err


def test_report_case_shows_one_case_in_full(project, cli):
    long = "Categoría: facturación. " + "Más texto. " * 40
    run = make_run([("c1", "bug", ["bug", long]), ("c2", "acceso", ["acceso", "acceso"])])
    path = write_run("runs/t.json", run)
    code, out, err = cli("report", path, "--case", "c1")
    assert code == 0 and out.startswith("Case c1 (easy) fails; expected bug")
    assert "Trial 1 -> bug (label pass)" in out and "Trial 2 -> INVALID (label fail)" in out
    assert long.strip() in out.replace("\n  ", "")   # uncut
    s = json.loads(cli("report", path, "--case", "c1", "--json")[1])
    assert [t["response"] for t in s["trials"]] == ["bug", long] and s["correct"] is False
    code, out, err = cli("report", path, "--case", "c3")
    assert code == 2 and "error: no case 'c3' in runs/t.json" in err
    # (round 134) an id that begins as typed is the one meant, where a near edit of a short one was offered (c11: "c01?")
    long = write_run("runs/long.json", make_run([("c01", "bug", "bug"), ("c02", "bug", "bug"), ("c11" + "A" * 300, "bug", "bug")]))
    code, out, err = cli("report", long, "--case", "c11")
    assert code == 2 and err.startswith("error: no case 'c11' in runs/long.json; did you mean c11AAA") and "c01" not in err, err
    # (round 133) ids joined by commas, as run --cases takes them: "did you mean c2?" dropped c1 without a word
    code, out, err = cli("report", path, "--case", "c1,c2")
    assert code == 2 and err == ("error: no case 'c1,c2' in runs/t.json: --case shows one case; give each in a report "
                                 "of its own, --case c1, then --case c2\n")


def test_report_case_finds_an_id_typed_in_another_unicode_form(project, cli):
    """137th round, S1: --case matched ids byte for byte where run --cases and the split's loader hold café and cafe + a
    combining accent one id (split_id_of): "no case 'café' in ...; did you mean café?". One that matches none is refused."""
    path = write_run("runs/u.json", make_run([("caf\u00e9", "bug", "bug"), ("c2", "bug", "bug")]))
    code, out, err = cli("report", path, "--case", "cafe\u0301")
    assert code == 0 and out.startswith("Case caf\u00e9 (easy) passes"), (out, err)
    assert json.loads(cli("report", path, "--case", "cafe\u0301", "--json")[1])["id"] == "caf\u00e9"
    code, out, err = cli("report", path, "--case", "cafe")
    assert code == 2 and err.startswith("error: no case 'cafe' in runs/u.json"), err


def test_report_case_of_an_id_an_older_run_holds_in_two_unicode_forms_picks_neither(project, cli):
    """137th round's review of S1: an older run (before the loader refused ids alike, 9b0cc33) holding \u1eb9\u0301 and
    e\u0323\u0301, each its own case, was asked --case e\u0301\u0323, a third spelling of both: split_id_of's table held
    each id as itself beside the forms only one id has, so the id already in NFC answered for both, and report showed
    the passing case of the two without a word. Each exact spelling is its own case; a third is none of them."""
    path = write_run("runs/old.json", make_run([("\u1eb9\u0301", "bug", "bug"), ("e\u0323\u0301", "bug", "feature"),
                                                ("c2", "bug", "bug")]))
    assert cli("report", path, "--case", "\u1eb9\u0301")[1].startswith("Case \u1eb9\u0301 (easy) passes")
    assert cli("report", path, "--case", "e\u0323\u0301")[1].startswith("Case e\u0323\u0301 (easy) fails")
    code, out, err = cli("report", path, "--case", "e\u0301\u0323")
    assert code == 2 and out == "" and err.startswith("error: no case 'e\u0301\u0323' in runs/old.json"), (out, err)


def test_report_case_suggests_a_command_that_runs_for_an_id_that_begins_with_a_dash(project, cli):
    """134th round: --case=-a,b said "give each in a report of its own, --case -a, then --case b", and --case -a was
    refused by the command line ("expected one argument"); "did you mean -dash?" was as little use. A value that begins
    with a dash is joined with =, as option_word writes it."""
    path = write_run("runs/d.json", make_run([("-a", "bug", "bug"), ("b", "bug", "bug"), ("-dash", "bug", "bug")]))
    code, out, err = cli("report", path, "--case=-a,b")
    assert code == 2 and err.endswith(": --case shows one case; give each in a report of its own, --case=-a, then --case b\n"), err
    assert cli("report", path, "--case=-a")[0] == 0 and cli("report", path, "--case", "b")[0] == 0
    code, out, err = cli("report", path, "--case", "dash")
    assert code == 2 and err == "error: no case 'dash' in runs/d.json; did you mean -dash (--case=-dash)?\n", err
    assert cli("report", path, "--case=-dash")[0] == 0


def test_report_case_suggests_a_command_that_pastes_for_an_id_with_a_space(project, cli):
    """Round 134: id "--x y" was suggested as "(--case=--x y)" and "give each ..., --case=--x y, then --case b", which
    pasted gave "unrecognized arguments: y"; "a b" as "--case a b". The option is quoted where the shell would split it."""
    path = write_run("runs/s.json", make_run([("--x y", "bug", "acceso"), ("a b", "bug", "bug"), ("b", "bug", "bug")]))
    code, out, err = cli("report", path, "--case=--x  y")
    assert code == 2 and err.endswith("did you mean --x y ('--case=--x y')?\n"), err
    code, out, err = cli("report", path, "--case=--x y,a b")
    assert err.endswith("give each in a report of its own, '--case=--x y', then --case 'a b'\n"), err
    for pasted in ("'--case=--x y'", "--case 'a b'"):
        assert cli("report", path, *shlex.split(pasted))[0] in (0, 1), pasted


def test_report_case_names_an_id_with_a_backslash_as_the_views_do(project, cli):
    """135th round: messages showed an id's backslash single where the views double it: "a\\nb" (a backslash, then n)
    was suggested as "did you mean a\\nb?", as a line break's escape reads; cut for a message, a\\\\nb could end in a
    lone backslash ("a\\…"). A message shows it through id_shown, and cuts on whole escapes."""
    path = write_run("runs/b.json", make_run([("a\\nb", "bug", "bug"), ("a\nb", "bug", "bug")]))
    code, out, err = cli("report", path, "--case", "A\\NB")
    assert code == 2 and err.endswith("; did you mean a\\\\nb?\n"), err
    code, out, err = cli("report", path, "--case", "a\\nb,a\nb")
    assert err.endswith("give each in a report of its own, --case 'a\\nb', then --case $'a\\nb'\n"), err
    assert cli("report", path, "--case", "a\\nb")[0] == 0
    assert evalpy.on_one_line(evalpy.id_shown("abc\\nd"), 5) == "abc…" and evalpy.one_line("abc\\\\d", 5) == "abc…"


def test_the_text_report_names_as_many_failures_as_the_readme_says(project, cli):
    """134th round: the text report names the first FAILURES_SHOWN failures, then "… and 2 more", where README said
    "--json and the text view list them all"."""
    path = write_run("runs/many.json", make_run([(f"c{i:03}", "bug", "acceso") for i in range(evalpy.FAILURES_SHOWN + 2)]))
    out = cli("report", path)[1]
    assert "\n  … and 2 more: report --json lists them all, review shows them one by one\n" in out, out[-500:]
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    assert f"`report`'s names the first {evalpy.FAILURES_SHOWN} failures and how many more" in readme
    assert "`--json` and the text view list them all" not in readme


def test_an_id_with_a_line_break_and_one_with_a_backslash_and_an_n_are_told_apart_in_every_view(project, cli):
    """134th round: ids "a\\nb" (a line break) and "a\\\\nb" (a backslash, then n) both showed as a\\nb in the text
    failures, --markdown and the page's failing cases. A backslash that would read as the start of an escape is doubled;
    one that would not (C:\\Users) is kept as it is."""
    path = write_run("runs/x.json", make_run([("a\nb", "bug", "acceso"), ("a\\nb", "bug", "acceso"),
                                             ("C:\\Users", "bug", "acceso")]))
    rows = cli("report", path)[1].split("Failures (3):\n")[1].splitlines()
    assert [row.split()[0] for row in rows[1:]] == ["a\\nb", "a\\\\nb", "C:\\Users"], rows
    markdown = cli("report", path, "--markdown")[1]
    assert "`a\\nb` (easy" in markdown and "`a\\\\nb` (easy" in markdown and "`C:\\Users` (easy" in markdown, markdown
    assert cli("report", path, "--html", "x.html")[0] == 0
    page = Path("x.html").read_text(encoding="utf-8")
    assert '">a\\nb</a>' in page and '">a\\\\nb</a>' in page and '">C:\\Users</a>' in page


def test_ids_with_escapes_show_as_the_failures_show_them_in_the_flaky_errors_open_and_case_views(project, cli):
    """Round 134: the flaky list (text and page), the Errors list, the "could turn it:" line and report --case's header
    still showed "a\nb" (a line break) and "a\\nb" (a backslash, then n) alike, and "x\\ty" as an escaped tab, where
    the failures and markdown show `x\\\\ty`. Every view shows an id through id_shown."""
    path = write_run("runs/x.json", make_run([{"id": "a\nb", "expected": "bug", "response": ["acceso", "bug"]},
                                               {"id": "a\\nb", "expected": "bug", "response": ["acceso", "bug"]},
                                               {"id": "x\\ty", "expected": "bug", "response": [None, None], "error": "boom"}]))
    out = cli("report", path)[1]
    flaky = ["  a\\nb (expected bug): acceso | bug", "  a\\\\nb (expected bug): acceso | bug"]
    assert out.split("Flaky cases (2, trials disagree):\n")[1].splitlines()[:2] == flaky, out
    assert "x\\\\ty trial 1: boom" in out and "could turn it: x\\\\ty" in out, out
    assert "`x\\\\ty" in cli("report", path, "--markdown")[1]
    assert cli("report", path, "--case", "a\nb")[1].startswith("Case a\\nb (")
    assert cli("report", path, "--case", "a\\nb")[1].startswith("Case a\\\\nb (")
    assert cli("report", path, "--html", "x.html")[0] == 0
    page = Path("x.html").read_text(encoding="utf-8").split("Flaky cases, whose trials disagree (2)")[1][:600]
    assert "a\\nb (expected bug)" in page and "a\\\\nb (expected bug)" in page, page


def test_runs_shows_a_refusal_of_many_lines_on_one_without_escaped_line_breaks(project, cli):
    """134th round: a stopped run whose split no longer loads was listed by `runs` with the problem's lines joined by a
    literal "\\n" ("small/s.jsonl:1: missing field 'note'\\nsmall/s.jsonl:2: ..."), as if the server had sent it so."""
    small_split(["bug", "acceso"], [("a", "nope")])
    header = make_run([("a", "bug", "bug")], labels=["bug", "acceso"], split="s", split_path="small/s.jsonl")
    Path("runs").mkdir()
    Path("runs/s.json.journal").write_text(json.dumps({"format": header["format"], "config": header["config"]}) + "\n")
    row = cli("runs")[1].splitlines()[1]
    assert row.startswith("  runs/s.json.journal ") and "\\n" not in row, row
    assert " / This run began with small/s.jsonl (or a checks.json or tools.json beside it) as it was: " in row, row
    assert "small/s.jsonl:1: label 'nope' is not in labels.txt" in json.loads(cli("runs", "--json")[1])[0]["problem"]


def test_runs_lists_every_run_file_newest_first(project, cli):
    write_run("runs/old.json", make_run([("c1", "bug", "bug"), ("c2", "acceso", "bug")], date="2026-01-01T09:00:00+01:00"))
    write_run("runs/new.json", make_run([("c1", "bug", "bug")], prompt="prompts/v2.txt", date="2026-02-01T09:00:00+01:00"))
    (project / "runs" / "broken.json").write_text("{", encoding="utf-8")
    code, out, err = cli("runs")
    lines = out.splitlines()
    assert code == 0 and lines[0].split() == ["file", "split", "prompt", "model", "config", "T", "trials", "date",
                                              "score"]
    assert lines[1].split()[0] == "runs/new.json" and lines[1].rstrip().endswith("accuracy 1/1 = 100%")
    assert lines[2].split()[0] == "runs/old.json" and "prompts/v3.txt" in lines[2] and "1/2 = 50%" in lines[2]
    assert lines[3].split()[0] == "runs/broken.json" and "not a readable run file" in lines[3]
    listed = json.loads(cli("runs", "--json")[1])
    assert [r["file"] for r in listed] == ["runs/new.json", "runs/old.json", "runs/broken.json"]
    assert listed[1]["correct"] == 1 and listed[1]["scored"] == 2 and "problem" in listed[2]
    code, out, err = cli("runs", "nowhere")
    assert code == 2 and "nowhere: no such folder" in err
    # (129th round's newcomer) in a folder no run was made from, or in runs/ itself, the default folder's absence says
    # why and what to give, where "runs: no such folder" alone was said
    os.chdir("runs")
    code, out, err = cli("runs")
    assert code == 2 and err == ("error: runs: no such folder here: run writes its runs in runs/ under the folder it is "
                                 "started from, and none was made from this one; give the folder the runs are in "
                                 "(`python eval.py runs .` for this one)\n"), err
    os.chdir("..")
    # and a pattern the shell passed as written, matching nothing, is no run to make ('run --split ... --out
    # 'runs/*.json' makes this one' was said)
    os.mkdir("empty")
    code, out, err = cli("report", "empty/*.json")
    assert code == 2 and err == ("error: 'empty/*.json': no run file matches it (the shell passed the pattern as written); "
                                 "`python eval.py runs empty` lists the runs there\n"), err
    code, out, err = cli("report", "runs/*.json")   # (quoted, where it matches: its runs named, never files that are none)
    assert code == 2 and err == ("error: 'runs/*.json': a pattern, which eval.py never expands (it matches runs/new.json, "
                                 "runs/old.json): name the run itself\n"), err
    # (its review) a folder named with a * that is there is a name as given, no pattern; a .json that is no run offers
    # no `runs .`
    os.mkdir("star*dir")
    code, out, err = cli("report", "star*dir/r2.json")
    assert code == 2 and "no such run file (`python eval.py runs 'star*dir'` lists the runs there" in err, err
    os.chdir("empty")
    open("package.json", "w").write("{}")
    code, out, err = cli("runs")
    assert code == 2 and "none was made from this one; give the folder the runs are in\n" in err, err


@pytest.mark.parametrize("date", ["9999-99-99", 5, "2026-13-01T09:00:00+01:00", "tomorrow", ""])
def test_runs_lists_a_run_whose_date_is_impossible_as_unreadable_never_first(project, cli, date):
    """Issue 28, attack 4, item 9f: a hand-edited config.date ("9999-99-99", 5) was sorted as a date
    and headed the list said to be newest first. A date no clock gives is a damaged run file: named,
    listed last as unreadable, and refused by report as every other damaged field is."""
    write_run("runs/real.json", make_run([("c1", "bug", "bug")], date="2026-01-01T09:00:00+01:00"))
    write_run("runs/odd.json", make_run([("c1", "bug", "bug")], date=date))
    lines = cli("runs")[1].splitlines()
    assert lines[1].split()[0] == "runs/real.json", lines
    assert lines[2].split()[0] == "runs/odd.json" and "config.date" in lines[2], lines
    listed = json.loads(cli("runs", "--json")[1])
    assert [r["file"] for r in listed] == ["runs/real.json", "runs/odd.json"] and "config.date" in listed[1]["problem"]
    code, out, err = cli("report", "runs/odd.json")
    assert code == 2 and "runs/odd.json" in err and "config.date" in err, err


def test_runs_orders_dates_by_the_instant_they_name_not_their_text(project, cli):
    """Two runs dated in two time zones: 10:00+05:00 is earlier than 09:00+01:00."""
    write_run("runs/east.json", make_run([("c1", "bug", "bug")], date="2026-01-01T10:00:00+05:00"))
    write_run("runs/west.json", make_run([("c1", "bug", "bug")], date="2026-01-01T09:00:00+01:00"))
    assert [r["file"] for r in json.loads(cli("runs", "--json")[1])] == ["runs/west.json", "runs/east.json"]
    # (73rd attack) each shown in this machine's zone: "2026-01-01 09:00" above "2026-01-01 10:00" read oldest first
    lines = cli("runs")[1].splitlines()
    shown = [re.search(r"\d{4}-\d\d-\d\d \d\d:\d\d", line).group() for line in lines[1:]]
    assert shown == [datetime.datetime.fromisoformat(d).astimezone().strftime("%Y-%m-%d %H:%M")
                     for d in ("2026-01-01T09:00:00+01:00", "2026-01-01T10:00:00+05:00")] and shown[0] > shown[1], lines


def test_runs_shows_a_files_problem_whole(project, cli):
    """73rd attack: the reason a file is no run was cut at 60 characters ("... python eval.py runs runs/d.…"), its
    remedy lost; it is the last column, shown whole."""
    (project / "runs" / "d.json").mkdir(parents=True)
    line = cli("runs")[1].splitlines()[1]
    assert line.endswith("is a folder, not a run file; python eval.py runs runs/d.json lists the runs in it"), line


def test_runs_tells_apart_runs_that_differ_only_in_how_the_model_was_asked(project, cli):
    """Issue 31, item 10: --think off and --think on runs (and --format, --option, --api, a seed,
    --limit) looked identical in `runs`; a config column says what each asked beyond the defaults."""
    cases = [("c1", "bug", "bug"), ("c2", "acceso", "acceso")]
    made = {"plain": {"options": {"num_ctx": 4096}, "think": "default"},
            "off": {"options": {"num_ctx": 4096}, "think": False},
            "on": {"options": {"num_ctx": 4096}, "think": True},
            "schema": {"api": "openai", "format": "schema", "options": {}},
            "opts": {"options": {"num_ctx": 4096, "top_p": 0.5, "num_predict": 8}, "seed": 7},
            "limit": {"options": {"num_ctx": 8192}, "subset": {"limit": 2}}}
    for name, config in made.items():
        write_run(f"runs/{name}.json", make_run(cases, **config))
    lines = {l.split()[0]: l for l in cli("runs")[1].splitlines()[1:]}
    shown = {name: lines[f"runs/{name}.json"].split("qwen2.5:7b", 1)[1].split("  0  ")[0].strip() for name in made}
    assert shown == {"plain": "ollama", "off": "ollama think=off", "on": "ollama think=on",
                     "schema": "openai format=schema", "opts": "ollama seed=7 top_p=0.5 num_predict=8",
                     "limit": "ollama num_ctx=8192 --limit 2"}, shown
    listed = {r["file"]: r for r in json.loads(cli("runs", "--json")[1])}
    assert listed["runs/on.json"]["think"] is True and listed["runs/schema.json"]["format"] == "schema"
    assert listed["runs/schema.json"]["api"] == "openai" and listed["runs/opts.json"]["options"]["top_p"] == 0.5
    assert listed["runs/opts.json"]["seed"] == 7 and listed["runs/limit.json"]["subset"] == {"limit": 2}


def test_runs_counts_errors_beside_the_score(project, cli):
    """Issue 31, item 10: a run with 24 failed calls read 'accuracy 3/3 = 100%' in `runs`, as if
    3 cases were all it had: the errors are said beside the figure."""
    cases = [(f"c{i:02d}", "bug", "bug" if i < 3 else None) for i in range(27)]
    write_run("runs/err.json", make_run(cases))
    line = cli("runs")[1].splitlines()[1]
    assert line.endswith("accuracy 3/3 = 100% (24 errors: run --resume)"), line
    assert json.loads(cli("runs", "--json")[1])[0]["errors"] == 24
    # (round 103) errors a resume would meet alike (a request refused as sent) are told to be fixed, not resumed
    refused = "HTTP 500: 1 validation error: {'type': 'int_parsing', 'loc': ('body', 'top_k')}"
    write_run("runs/err.json", make_run([{"id": c, "input": f"q {c}", "expected": "bug", "response": r, "error": refused}
                                         for c, _, r in cases]))
    line = cli("runs")[1].splitlines()[1]
    assert line.endswith("accuracy 3/3 = 100% (24 errors: fix what was sent, and run again)"), line
    # and the gates of report and compare, which called them the infrastructure's and said to --resume
    code, out, err = cli("report", "runs/err.json", "--min-accuracy", "0.5")
    assert code == 2 and ("gates not judged: 24 cases got no usable answer (what was sent, not the model); they would "
                          "fail alike asked again (refused as sent, or past the context window): fix what was sent and run again") in err
    assert "--resume" not in err and "infrastructure" not in err + out, err
    assert "Errors: 24 of 27 cases got no usable answer (refused as sent, or past the context window: what was sent is to fix, " \
           "not scored)" in out, out
    write_run("runs/ok.json", make_run([{"id": c, "input": f"q {c}", "expected": "bug", "response": "bug"}
                                        for c, _, _ in cases], prompt="prompts/v1.txt"))
    code, out, err = cli("compare", "runs/ok.json", "runs/err.json", "--fail-on-regression")
    assert code == 2 and "(what was sent, not the model); runs/err.json's answers: they would fail alike asked again " \
                         "(refused as sent, or past the context window): fix what was sent and run again" in err and "--resume" not in err, err
    # (a mix: those that would fail alike told apart from those a resume asks again, in every place that advises)
    mixed = load_json("runs/err.json")
    for r in mixed["results"][3:5]:
        r["error"] = "HTTP 503: busy"
    write_run("runs/err.json", mixed)
    assert cli("runs")[1].splitlines()[1].endswith("(24 errors: 22 to fix and run again, a resume asks the rest)")
    code, out, err = cli("report", "runs/err.json", "--min-accuracy", "0.5")
    assert "Errors: 24 of 27 cases got no usable answer (22 refused as sent or past the context window, 2 the " \
           "infrastructure's, not scored)" in out, out
    # (round 104) said in markdown and counted in --json as well, not in text and HTML alone
    md = cli("report", "runs/err.json", "--markdown")[1]
    assert "| Errors (not scored: 22 refused as sent or past the context window, 2 the infrastructure's) | 24 |" in md, md
    figures = json.loads(cli("report", "runs/err.json", "--json")[1])
    assert len(figures["errors"]) == 24 and figures["errors_alike"] == 22, figures["errors_alike"]
    assert ("(what was sent and the infrastructure, not the model); 22 of them would fail alike asked again (refused as "
            "sent, or past the context window): fix what was sent and run again; the other 2 a resume asks again (python eval.py run "
            "--resume runs/err.json), but it never finishes the run") in err, err
    err = cli("compare", "runs/ok.json", "runs/err.json", "--fail-on-regression")[2]
    assert "runs/err.json's answers: 22 of them would fail alike asked again" in err and \
           "; the other 2 a resume asks again (python eval.py run --resume runs/err.json), but it never finishes the run" \
           in err, err


def test_runs_lists_a_run_with_trials_by_its_headline_not_its_majority_vote(project, cli):
    """From the attack pass after issue 26: `runs` showed a run with trials by the majority vote of
    each case's trials, which the report only labels. Issue 26's two runs (28 cases, 5 trials) read
    21% -> 40% in their reports and 10/28 = 36% -> 0/28 = 0% in the listing: the order reversed."""
    def answers(passes):
        return ["bug"] * passes + ["no sé"] * (5 - passes)
    write_run("runs/base.json", make_run([(f"c{i:02d}", "bug", answers(3 if i < 10 else 0)) for i in range(28)],
                                         prompt="prompts/v1.txt", date="2026-01-01T09:00:00+01:00"))
    write_run("runs/cand.json", make_run([(f"c{i:02d}", "bug", answers(2)) for i in range(28)], prompt="prompts/v2.txt"))
    lines = cli("runs")[1].splitlines()
    assert lines[1].startswith("  runs/cand.json") and lines[1].endswith("accuracy 40% (mean per case)")
    assert lines[2].startswith("  runs/base.json") and lines[2].endswith("accuracy 21% (mean per case)")
    listed = json.loads(cli("runs", "--json")[1])
    reported = [json.loads(cli("report", f"runs/{name}.json", "--json")[1])["mean_accuracy"] for name in ("cand", "base")]
    assert [r["mean_accuracy"] for r in listed] == reported == [pytest.approx(0.4), pytest.approx(30 / 140)]


# --- Speed: wall time as measured, throughput from the server's own counts, loads apart

def test_speed_figures_worked_out_by_hand(project, cli):
    # latency ms, completion tokens, eval ns, load ns: the third call loaded the model (3.4 s)
    calls = [(100.0, 10, 500_000_000, 1_000_000), (200.0, 30, 500_000_000, 2_000_000),
             (300.0, 20, 1_000_000_000, 3_400_000_000), (1000.0, 40, 2_000_000_000, 5_000_000)]
    run = make_run([{"id": f"s{i}", "expected": "bug", "response": "bug", "latency_ms": c[0]} for i, c in enumerate(calls)])
    for r, (_, completion, eval_ns, load_ns) in zip(run["results"], calls):
        r.update(completion_tokens=completion, eval_duration_ns=eval_ns, load_duration_ns=load_ns,
                 prompt_tokens=100, prompt_eval_duration_ns=250_000_000)
    run["config"]["model_load"] = {"ms": 2412.0, "load_duration_ns": 2_300_000_000}
    write_run("runs/speed.json", run)
    sp = json.loads(cli("report", "runs/speed.json", "--json")[1])["speed"]
    assert sp["calls"] == 4 and sp["latency_ms_median"] == 250.0
    assert sp["latency_ms_p95"] == pytest.approx(300 + 0.85 * 700)          # between the 3rd and 4th of 4
    assert sp["generation_tokens_per_s"] == pytest.approx(100 / 4.0)         # 100 tokens in 4 s of eval
    assert "prompt_tokens_per_s" not in sp and sp["without_prompt_count"] == 0   # see below
    assert (sp["prompt_tokens"], sp["completion_tokens"], sp["calls_with_load"]) == (400, 100, 1)
    assert sp["load_before_run"] == {"ms": 2412.0, "load_duration_ns": 2_300_000_000}
    out = cli("report", "runs/speed.json")[1].splitlines()
    at = out.index("Speed (4 answers):")
    assert out[at + 1:at + 5] == [
        "  latency     median 250 ms · 95th percentile 895 ms (wall time of each request)",
        "  generation  25.0 tokens/s (the server's token count over its own duration; no prompt rate: its prompt "
        "count includes cached tokens its duration does not time)",
        "  tokens      500 (400 prompt + 100 completion)",
        "  model load  2.41 s before the first case, not charged to any; 1 answer included a load (s2: their "
        "latency holds it)"]   # by id (issue 27, item 2): a case's latency and max_latency_ms check hold the load
    assert sp["loaded"] == [{"id": "s2", "trial": 1}]
    md = cli("report", "runs/speed.json", "--markdown")[1]
    assert "| Latency, median / 95th percentile | 250 ms / 895 ms | |" in md
    assert "| Generation speed | 25.0 tokens/s | |" in md
    assert "| Answers that included a model load | 1 | |" in md


def test_a_load_is_named_only_on_an_answer(project, cli):
    """A failed call that recorded a load is not an answer: the count left it out, the names did not
    ("1 answer included a load (s0, s1)")."""
    run = make_run([("s0", "bug", "bug"), ("s1", "bug", "bug")])
    run["results"][0].update(load_duration_ns=3_000_000_000)
    run["results"][1].update(load_duration_ns=3_000_000_000, response=None, error="HTTP 500: boom")
    write_run("runs/loads.json", run)
    sp = json.loads(cli("report", "runs/loads.json", "--json")[1])["speed"]
    assert sp["calls_with_load"] == 1 and sp["loaded"] == [{"id": "s0", "trial": 1}]
    assert "1 answer included a load (s0: their latency holds it)" in cli("report", "runs/loads.json")[1]


def test_speed_without_server_durations_shows_latency_alone(project, cli):
    run = make_run([("a", "bug", "bug"), ("b", "bug", "bug")])
    for r in run["results"]:
        for key in ("prompt_tokens", "completion_tokens", "total_duration_ns", "load_duration_ns",
                    "prompt_eval_duration_ns", "eval_duration_ns"):
            r[key] = None
    write_run("runs/plain.json", run)
    out = cli("report", "runs/plain.json")[1].splitlines()
    at = out.index("Speed (2 answers):")
    assert out[at + 1].startswith("  latency     median 120 ms") and out[at + 2] == ""


# --- undecided cases: the headline gives bounds before any rate on the decided ones (issue 26, item 7)

EXAMPLE = ROOT / "runs" / "example" / "support-dev-v1.json"


def test_the_example_with_undecided_cases_leads_with_its_bounds(project, cli, tmp_path):
    """21 of its 27 cases wait on a judge that gave no verdict; the 6 decided all fail. In every view
    the bounds come first (all 21 failing: 0/27; all passing: 21/27), the decided cases' rate after."""
    lines = cli("report", EXAMPLE)[1].splitlines()
    assert lines[:2] == ["Pass rate: between 0/27 and 21/27 (21 undecided: 0% if every one fails, 78% if every one passes)",
                         "Pass rate on the 6 decided cases: 0/6 = 0%  (95% CI 0–39%)"]
    s = json.loads(cli("report", EXAMPLE, "--json")[1])
    assert s["bounds"] == {"low": 0.0, "high": 21 / 27, "low_count": 0, "high_count": 21, "of": 27,
                           "undecided_cases": 21, "undecided_answers": 21}
    assert (s["correct"], s["scored"], len(s["open"]), s["errors"]) == (0, 6, 21, [])
    md = cli("report", EXAMPLE, "--markdown")[1]
    table = md[md.index("| | result"):]
    assert table.splitlines()[2] == ("| **Pass rate** (21 undecided: 0% if every one fails, 78% if every one passes) "
                                     "| **between 0/27 and 21/27** | |")
    assert table.splitlines()[3] == "| Pass rate on the 6 decided cases | 0/6 = 0% | 0–39% |"
    cli("report", EXAMPLE, "--html", tmp_path / "r.html")
    page = (tmp_path / "r.html").read_text(encoding="utf-8")
    bounds = page.index('<div class="k">Pass rate, bounds</div><div class="v">between 0/27 and 21/27</div>')
    assert bounds < page.index('<div class="k">Pass rate on the 6 decided cases</div><div class="v">0/6 = 0%</div>')


def test_errors_stay_apart_from_the_undecided(project, cli):
    """c0 passes, c1 fails, c2 and c3 are undecided, c4 got no usable answer: the bounds are over the four
    cases decided or undecided (1/4 to 3/4); the error is no case of them, and said apart."""
    check = [{"name": "helps", "type": "judge", "value": "c", "blocking": True}]

    def case(i, verdict):
        vote = {"check": "helps", "model": "m", "vote": 1, "seed": 42, "pass": verdict, "reason": None, "raw": "x",
                "error": None, "prompt_tokens": 1, "completion_tokens": 1}
        return {"id": f"c{i}", "response": None if verdict == "error" else "r", "checks": check, "judges": [vote]}
    path = write_run("runs/e.json", make_run([case(i, v) for i, v in enumerate([True, False, None, None, "error"])],
                                             labels=None))
    s = json.loads(cli("report", path, "--json")[1])
    assert (s["bounds"]["low_count"], s["bounds"]["high_count"], s["bounds"]["of"]) == (1, 3, 4)
    assert [e["id"] for e in s["errors"]] == ["c4"] and [u["id"] for u in s["open"]] == ["c2", "c3"]
    lines = cli("report", path)[1].splitlines()
    assert lines[0] == "Pass rate: between 1/4 and 3/4 (2 undecided: 25% if every one fails, 75% if every one passes)"
    assert lines[1] == "Pass rate on the 2 decided cases: 1/2 = 50%  (95% CI 9–91%)"
    assert lines[2].startswith("Errors: 1 of 5 cases got no usable answer")
    # (127th round) of trials where each case was asked more than once, never "requests": an agent's takes one a turn
    path = write_run("runs/t.json", make_run([("a", "bug", ["bug", None]), ("b", "bug", ["bug", "bug"])]))
    assert "\nErrors: 1 of 4 trials got no usable answer (" in cli("report", path)[1]
    cli("report", path, "--html", "t.html")   # (and on the page, which said "1 requests")
    assert "1 of 4 trials got no usable answer (" in Path("t.html").read_text(encoding="utf-8")


def test_without_undecided_cases_there_are_no_bounds(dev_run, cli):
    s = json.loads(cli("report", dev_run, "--json")[1])
    assert s["bounds"] is None and s["mean_accuracy"] == s["accuracy"] and s["mean_accuracy_ci"] == s["accuracy_ci"]
    assert cli("report", dev_run)[1].startswith("Accuracy: 25/28 = 89%  (95% CI 73–96%)\n")


def test_runs_lists_a_run_with_undecided_cases_by_its_bounds(cli):
    """Issue 26, item 7, from the merge: `runs` still printed 'pass rate 0/6 = 0%' for the example
    whose 21 of 27 cases no judge decided; it says the bounds, as the report's headline does."""
    code, out, err = cli("runs", str(ROOT / "runs" / "example"))
    assert code == 0, err
    line = next(l for l in out.splitlines() if l.split()[0].endswith("support-dev-v1.json"))
    assert line.endswith("pass rate between 0/27 and 21/27 (21 undecided)")
    listing = json.loads(cli("runs", str(ROOT / "runs" / "example"), "--json")[1])
    entry = next(e for e in listing if e["file"].endswith("support-dev-v1.json"))
    assert (entry["bounds"]["low_count"], entry["bounds"]["high_count"], entry["bounds"]["of"]) == (0, 21, 27)
    assert next(e for e in listing if e["file"].endswith("dev-v3.json"))["bounds"] is None



def test_no_prompt_rate_and_partial_token_totals_said_partial(project, cli):
    """Issue 27, items 4 and 5, from Ollama's source: prompt_eval_count is CacheN + PromptN while
    prompt_eval_duration times PromptN alone (llm/llama_server.go, promptEvalCount()), so their
    ratio printed 50,000 tokens/s where 2,500 were read; and a count of zero is left out of the
    answer (api/types.go, Metrics: omitempty), so totals over answers without one are partial."""
    run = make_run([{"id": f"s{i}", "expected": "bug", "response": "bug"} for i in range(4)])
    for i, r in enumerate(run["results"]):
        # a cached prompt: 1,000 tokens counted, 50 of them evaluated in 20 ms
        r.update(prompt_tokens=1000 if i < 2 else None, prompt_eval_duration_ns=20_000_000)
    write_run("runs/cached.json", run)
    sp = json.loads(cli("report", "runs/cached.json", "--json")[1])["speed"]
    assert "prompt_tokens_per_s" not in sp and sp["prompt_tokens"] == 2000 and sp["without_prompt_count"] == 2
    out = cli("report", "runs/cached.json")[1]
    assert "tokens/s · prompt" not in out and "prompt rate" in out
    assert "partial: 2 answers sent no prompt count (Ollama leaves out a count of zero" in out
    # (64th attack) Ollama's reason is said of Ollama's answers alone
    write_run("runs/cached-v1.json", dict(run, config=dict(run["config"], api="openai")))
    out = cli("report", "runs/cached-v1.json")[1]
    assert "partial: 2 answers sent no prompt count\n" in out and "Ollama" not in out, out


@pytest.mark.parametrize("api", ["ollama", "openai"])
def test_a_turn_whose_call_the_server_refused_is_never_said_an_answer_that_sent_no_count(project, cli, api):
    """140th round: the Speed section counted a turn whose tool call the server refused as not JSON (a 500: no counts
    can come) among the answers that "sent no prompt count", and gave Ollama's omitted zero as why. It is said apart,
    as the server's refusal, and no answer is said to have sent no count."""
    run = make_run([agent_spec("a1", [("lookup_order", {"order_id": "A-1"}, True)]), agent_refused_spec("a2")],
                   labels=None, split="agent-dev", max_turns=3, api=api)
    write_run("runs/r.json", run)
    cli("report", "runs/r.json", "--html", "runs/r.html")
    for view in (cli("report", "runs/r.json")[1], Path("runs/r.html").read_text(encoding="utf-8")):
        speed = view[view.index("Speed"):][:1500]
        assert "sent no" not in speed and "Ollama" not in speed, speed
        assert "partial: leaves out 1 turn whose tool call the server refused as not JSON (it sends no counts then)" in speed, speed
    sp = json.loads(cli("report", "runs/r.json", "--json")[1])["speed"]
    assert (sp["calls"], sp["without_prompt_count"], sp["without_completion_count"], sp["refused_calls"]) == (2, 0, 0, 1), sp


def test_a_later_turn_whose_call_the_server_refused_is_said_left_out_of_the_speed_totals(project, cli):
    """140th round's review of 1f80950: the Speed section said a refused turn only of a trial whose one turn it was; a
    refusal after a lookup (turn 1 counted, turn 2 refused, no counts) read "tokens 51 (48 prompt + 3 completion)" with
    no partial line and --json refused_calls 0, where README says such a turn is said on a line of its own."""
    after = agent_refused_spec("a2", calls=[("lookup_order", {"order_id": "A-1"}, True)])
    run = make_run([agent_spec("a1", [("lookup_order", {"order_id": "A-1"}, True)]), after, agent_refused_spec("a3")],
                   labels=None, split="agent-dev", max_turns=3)
    write_run("runs/r.json", run)
    out = cli("report", "runs/r.json")[1]
    speed = out[out.index("Speed"):out.index("Failures")]
    assert "partial: leaves out 2 turns whose tool call the server refused as not JSON" in speed, speed
    assert "tokens      51 (48 prompt + 3 completion)" in speed and "sent no" not in speed, speed
    sp = json.loads(cli("report", "runs/r.json", "--json")[1])["speed"]
    assert (sp["calls"], sp["without_prompt_count"], sp["without_completion_count"], sp["refused_calls"]) == (3, 0, 0, 2), sp


def test_what_a_run_file_or_its_annotations_hold_is_printed_inert(project, cli):
    """Issue 28, item 8: review annotations were printed raw by report, ESC and all; so were an
    error, an id, a difficulty, a model name and a check's name from a hand-edited run file."""
    run = make_run([{"id": "c\x1b[31m1", "expected": "bug", "response": "acceso", "difficulty": "\x1b[2Jtrap"},
                    {"id": "c2", "expected": "bug", "response": None, "error": "HTTP 500: \x1b]0;pwned\x07"},
                    ("c3", "bug", "bug")], model="m\x1b[5m")
    path = write_run("runs/x.json", run)
    (project / "runs" / "x.json.annotations.json").write_text(json.dumps(
        {"format": evalpy.ANNOTATIONS_FORMAT, "run": "x.json",
         "annotations": {"c\x1b[31m1#1": {"text": "\x1b[31mconfused\u202e\x9b", "time": "t"}}}), encoding="utf-8")
    shown = ""
    for argv in ((), ("--markdown",), ("--case", "c\x1b[31m1"), ("--case", "c2", "--markdown")):
        code, out, err = cli("report", path, *argv)
        assert code in (0, 2), err
        shown += out + err
    shown += "".join(cli("runs", "runs")[1:]) + "".join(cli("compare", path, write_run("runs/y.json", run))[1:])
    assert "\x1b" not in shown and "\u202e" not in shown and "\x9b" not in shown
    assert "\\x1b[31mconfused\\u202e\\x9b" in shown and "\\x1b]0;pwned\\x07" in shown and "m\\x1b[5m" in shown
    code, out, err = cli("report", path, "--json")   # JSON escapes: the same text read back, inert on a screen
    assert "\x1b" not in out and "\x9b" not in out and "\u202e" not in out
    assert json.loads(out)["annotations"]["counts"] == [["\x1b[31mconfused\u202e\x9b", 1]]
    # (round 93) what a terminal shows as nothing between two letters: "bu\u200bg" printed as "bug" was no label
    path = write_run("runs/z.json", make_run([{"id": "b\u200b\ufeffz", "expected": "bug", "response": "bu\u200bg"},
                                               ("c2", "bug", "bug")]))
    out = cli("report", path)[1]
    assert "\u200b" not in out and "\ufeff" not in out and "bu\\u200bg" in out and "b\\u200b\\ufeffz" in out, out


def test_an_answer_never_closes_the_fence_of_report_case_markdown(project, cli):
    """Issue 28, item 9: an answer holding ~~~~ closed the block (its lines are indented 2 spaces,
    which a fence allows) and the rest rendered as markdown: headings, remote images. The fence is
    longer than any run of backticks or tildes in the text."""
    answer = f"sure\n~~~~\n{MARKUP}\n  ~~~~~~~~~~\n````````````\n~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~\nend"
    run = make_run([{"id": "c1", "expected": "bug", "response": answer, "note": "~~~~~\n# note"},
                    {"id": "c2", "expected": "bug", "input": "````` ~~~~~~ " + MARKUP, "response": "bug"}])
    path = write_run("runs/f.json", run)
    for case in ("c1", "c2"):
        md = cli("report", path, "--case", case, "--markdown")[1]
        first, last = md.splitlines()[0], md.splitlines()[-1]
        assert first == last and set(first) <= {"~"} and len(first) >= 4
        assert markdown_acted_on(md) == [], md
    assert cli("report", path, "--case", "c1", "--markdown")[1].splitlines()[0] == "~" * 33
    plain = write_run("runs/p.json", make_run([("c1", "bug", "bug")]))
    assert cli("report", plain, "--case", "c1", "--markdown")[1].splitlines()[0] == "~~~~"   # as before


def test_markdown_views_quote_what_files_hold_as_code_or_escaped(project, cli):
    """Issue 28, item 9, every markdown view: a model, split, prompt, path, id, difficulty, label,
    check or tag name holding markdown (a remote image, a heading, a backtick that ends its code
    span, a pipe that splits its table cell) is shown as text, in a pull-request comment too."""
    tick = "c`1 " + MARKUP
    check = {"name": "n`` " + MARKUP, "type": "contains", "value": "zzz", "blocking": True}
    free = make_run([{"id": tick, "response": "no", "difficulty": MARKUP, "tags": [MARKUP], "checks": [check]},
                     {"id": "c2", "response": "zzz", "checks": [check]}],
                    labels=None, model="m`" + MARKUP, split=MARKUP, prompt="prompts/`" + MARKUP)
    labelled = make_run([{"id": tick, "expected": MARKUP, "response": "bug", "difficulty": MARKUP, "tags": [MARKUP]},
                         ("c2", "bug", "bug")], labels=["bug", MARKUP])
    for run in (free, labelled):
        path = write_run("runs/x` " + MARKUP.replace("/", "_") + ".json", run)
        code, md, err = cli("report", path, "--markdown", "--min-accuracy", "0.9", "--must-pass", MARKUP)
        assert code == 1 and "**GATE FAILED" in md, err
        assert md.count("\n") > 5 and all("[" not in line and "<" not in line and "*b*" not in line
                                          and "_i_" not in line for line in markdown_acted_on(md)), md
        rows = [line for line in md.splitlines() if line.startswith("| Check ")]
        assert all(line.count("|") - line.count("\\|") == 4 for line in rows), rows   # one cell each, as headed
        assert [line for line in md.splitlines() if line.lstrip().startswith("#")] == [md.splitlines()[0]]


def test_a_lone_surrogate_in_an_answer_is_printed_escaped_in_every_view(project):
    """Issue 28, item 13: "\\ud800" in an answer failed the pages with UnicodeEncodeError, exit 1 (fixed
    on the pages before this); here the other views, through a real pipe (strict UTF-8, as CI reads
    them): text, markdown and --json of report, report --case and compare print it as its code, and
    --json reads back as the answer was."""
    import subprocess
    import sys
    from pathlib import Path
    base = write_run("runs/a.json", make_run([("odd", "bug", "bug"), ("ok", "bug", "bug")]))
    cand = "runs/b.json"   # ASCII: the surrogate stays an escape, as eval.py writes it
    Path(cand).write_text(json.dumps(make_run([("odd", "bug", "bug \ud800 fin"), ("ok", "bug", "bug")])))
    views = (["report", cand], ["report", cand, "--markdown"], ["report", cand, "--json"],
             ["report", cand, "--case", "odd"], ["report", cand, "--case", "odd", "--json"],
             ["compare", base, cand], ["compare", base, cand, "--markdown"], ["compare", base, cand, "--json"],
             ["runs", "runs"])
    # all at once (each a python start-up of its own, most of this test's time), then read in turn
    running = [subprocess.Popen([sys.executable, str(ROOT / "eval.py"), *argv], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE) for argv in views]
    for argv, proc in zip(views, running):
        stdout, stderr = proc.communicate(timeout=120)
        out, err = stdout.decode("utf-8"), stderr.decode("utf-8")   # strict: no half character passes
        assert proc.returncode == 0 and "Traceback" not in err, (argv, err)
        if "--json" in argv:
            doc = json.loads(out)
            if argv[0] == "compare":   # compare's figures hold no answer
                continue
            assert "bug \ud800 fin" in json.dumps(doc, ensure_ascii=False), argv   # the answer as it was
        elif argv[0] == "report" and "--markdown" not in argv:   # the views that show answers
            assert "bug \\ud800 fin" in out, argv


def every_case_errored(response=None):
    """Three cases expecting bug, each call failed (or answered `response`)."""
    return make_run([{"id": f"e{i}", "expected": "bug", "response": response, "error": "HTTP 500: runner died"}
                     for i in range(1, 4)])


def test_a_run_where_every_case_errored_has_its_tables_empty_in_json_as_every_view_leaves_them_out(project, cli):
    """139th round: report --json of a run whose every call failed still held a per-label table of nulls, a confusion
    matrix of zeros and checks of 0 of 0, where README says such a run shows none of them in every view. Each key is
    kept (a script reading one finds it), empty, and nothing_scored says why; a run with answers says false."""
    s = json.loads(cli("report", write_run("runs/dead.json", every_case_errored()), "--json")[1])
    assert s["nothing_scored"] is True and (s["per_label"], s["confusion"], s["checks"], s["by_difficulty"], s["trials"],
                                            s["failures"]) == ({}, {}, [], {}, [], []), s
    s = json.loads(cli("report", write_run("runs/alive.json", every_case_errored("bug")), "--json")[1])
    assert s["nothing_scored"] is False and s["checks"][0]["total"] == 3 and s["confusion"]["bug"]["bug"] == 3


def test_a_run_where_every_case_errored_prints_no_empty_tables(project, cli):
    """Issue 31, cosmetic: a run without a single answer printed per-label, confusion, slice and failure
    tables full of zeros and dashes."""
    path = write_run("runs/dead.json", every_case_errored())
    code, out, err = cli("report", path)
    assert out.startswith("Accuracy: no answers to score (3 errors, 0 undecided)")
    assert "No answer was scored: no per-label, confusion, slice or failure table to show." in out
    for empty in ("Per label:", "Confusion matrix", "By difficulty:", "Failures (0):"):
        assert empty not in out, empty
    md = cli("report", path, "--markdown")[1]
    assert "Failures" not in md and "No answer was scored" in md


# -- agents (issue 29) -----------------------------------------------------------------------------

def test_report_gives_the_final_result_and_the_trajectory_apart_with_first_failures(project, cli):
    from conftest import agent_run
    path = write_run("runs/agent.json", agent_run())
    code, out, err = cli("report", path)
    assert code == 0, err
    section = out.split("Agent (", 1)[1]
    lines = [" ".join(l.split()) for l in section.splitlines()]
    # final result: a1, a2 pass (a3 answered wrongly, a4 ran out of turns); trajectory: a1 and a4 pass
    assert "final result 2/4 = 50% (95% CI 15–85%)" in lines
    assert "trajectory 2/4 = 50% (95% CI 15–85%)" in lines
    assert "turns used: median 3, max 3 · ran out of turns: 1 (a4)" in lines
    assert "lookup_order 7 4 0 1 2" in lines and "cancel_order 1 1 0 0 0" in lines
    failures = section.split("First failure of each failing case", 1)[1].split("\n\n", 1)[0]
    rows = {l.split()[0]: " ".join(l.split()) for l in failures.splitlines()[2:]}
    assert rows["a2"] == 'a2 2 cancel_order({"order_id": "A-1"}) never cancels called a tool it must not call'
    assert rows["a3"].startswith('a3 1 lookup_order({"order_id": "A-7"}) - no tool result matched')
    assert rows["a4"] == "a4 3 - - ran out of turns (3) still calling tools"
    doc = json.loads(cli("report", path, "--json")[1])
    assert doc["agent"]["final"]["correct"] == 2 and doc["agent"]["trajectory"]["total"] == 4
    assert doc["agent"]["out_of_turns"] == [{"id": "a4", "trial": 1}]
    assert [f["id"] for f in doc["agent"]["first_failures"]] == ["a2", "a3", "a4"]
    markdown = cli("report", path, "--markdown")[1]
    assert "| Agents: final result | 2/4 = 50% | 15–85% |" in markdown
    assert "| Agents: ran out of turns | 1 | |" in markdown


def test_an_agents_inline_reasoning_is_told_apart_under_each_turn(project, cli):
    """133rd round: report --case printed an agent's turns as sent, "<think>cancel? no</think>It is in transit.", where
    a case of one turn, and an agent's turns with reasoning sent apart, show the reasoning apart from what was said
    (and scored). Each turn's inline reasoning is shown as the answer's is: "thinking (inline, ...; not scored)"."""
    from conftest import agent_thinking_inline
    case = agent_thinking_inline("t1")
    shown = cli("report", write_run("runs/think.json", make_run([case], labels=None, split="agent-dev", max_turns=3)),
                "--case", "t1")[1]
    assert ("  turn 1 (calls tools):\n    thinking (inline, before </think>; not scored):\n      I could cancel it\n"
            "    calls lookup_order(") in shown, shown
    assert ("  turn 2:\n    thinking (inline, before </think>; not scored):\n      cancel? no\n"
            "    Su pedido está enviado.\n") in shown, shown
    assert "<think>" not in shown, shown


def test_an_agents_final_result_reads_its_weighted_checks_against_the_threshold(project, cli):
    """Round 105: the final result counted an agent case that failed its pass_threshold as passing (its blocking
    checks alone were read), beside a weighted score of 0.33 and the case under Failures. A level is read as a case
    is: its blocking checks, and its weighted checks' share of their weight against the threshold."""
    from conftest import AGENT_CHECKS, agent_spec, make_run
    weighed = [dict(AGENT_CHECKS[0]), {"name": "names the order", "type": "contains", "value": "A-1", "weight": 2,
                                        "blocking": False},
               {"name": "says where", "type": "contains", "value": "enviado", "weight": 1, "blocking": False}]
    look = ("lookup_order", {"order_id": "A-1"}, True)
    cases = [dict(agent_spec("w1", [look], final="Su pedido A-1 está enviado.", checks=weighed), pass_threshold=0.8),
             dict(agent_spec("w2", [look], final="Su pedido está enviado.", checks=weighed), pass_threshold=0.8)]
    path = write_run("runs/weighed.json", make_run(cases, labels=None, split="agent-dev", max_turns=3))
    doc = json.loads(cli("report", path, "--json")[1])
    assert doc["agent"]["final"]["correct"] == 1 and doc["agent"]["trajectory"]["correct"] == 2, doc["agent"]
    assert "final result 1/2 = 50%" in " ".join(cli("report", path)[1].split())
    # (its review) weights on both levels: a level's own share short of the threshold fails it only where the case's is
    # short too; p1 passes (4 of 5) though its final answer's share is 0, and p2 fails (2 of 5) on its trajectory alone
    split = [{"name": "looks it up", "type": "tool_called", "value": "lookup_order", "weight": 1, "blocking": False},
             {"name": "never cancels", "type": "tool_not_called", "value": "cancel_order", "weight": 3, "blocking": False},
             {"name": "says where", "type": "contains", "value": "enviado", "weight": 1, "blocking": False}]
    cancel = ("cancel_order", {"order_id": "A-1"}, True)
    cases = [dict(agent_spec("p1", [look], final="No sé.", checks=split), pass_threshold=0.5),
             dict(agent_spec("p2", [look, cancel], final="Su pedido está enviado.", checks=split), pass_threshold=0.5)]
    path = write_run("runs/levels.json", make_run(cases, labels=None, split="agent-dev", max_turns=3))
    doc = json.loads(cli("report", path, "--json")[1])
    assert doc["correct"] == 1 and doc["agent"]["final"]["correct"] == 2 and doc["agent"]["trajectory"]["correct"] == 1
    assert [f["id"] for f in doc["agent"]["first_failures"]] == ["p2"]


def test_an_agents_first_failure_is_a_check_that_failed_it(project, cli):
    """113th round: the first failure blamed a non-blocking check (a call it "must not" make, blocking false) for a
    case its final answer failed; the checks that decide do. Weighed ones where its score fell short (p2 of the test
    above, blamed on "never cancels", weight 3, non-blocking) still do."""
    from conftest import AGENT_CHECKS, agent_spec, make_run
    checks = [{"name": "no cancel", "type": "tool_not_called", "value": "cancel_order", "blocking": False},
              dict(AGENT_CHECKS[0]), {"name": "says", "type": "contains", "value": "Enviado"}]
    look, cancel = ("lookup_order", {"order_id": "A-1"}, True), ("cancel_order", {"order_id": "A-1"}, True)
    path = write_run("runs/y.json", make_run([agent_spec("y1", [look, cancel], final="Nada", checks=checks)],
                                             labels=None, split="agent-dev", max_turns=3))
    [failure] = json.loads(cli("report", path, "--json")[1])["agent"]["first_failures"]
    assert (failure["check"], failure["what"]) == ("says", "the final answer fails it"), failure


def test_an_agents_call_with_other_arguments_is_its_first_failure_never_a_call_that_never_happened(project, cli):
    """125th round: a tool_called check with arguments failed by a call to its tool with others (lookup_order A-9, a
    result matched) had "the call never happened" for its first failure, turn and call none, though the wrong call was
    there at turn 1. The first call to the tool is the wrong step, and what it lacked is said."""
    from conftest import AGENT_CHECKS, agent_spec, make_run
    other, right = ("lookup_order", {"order_id": "A-9"}, True), ("lookup_order", {"order_id": "A-1"}, True)
    cases = [agent_spec("o1", [other], checks=AGENT_CHECKS[:1]),
             agent_spec("o2", [right], final="Nada", checks=AGENT_CHECKS[:1] + AGENT_CHECKS[3:]),
             agent_spec("o3", [], final="Nada", checks=AGENT_CHECKS[:1])]
    path = write_run("runs/o.json", make_run(cases, labels=None, split="agent-dev", max_turns=3))
    doc = json.loads(cli("report", path, "--json")[1])
    assert [(f["id"], f["turn"], f["call"], f["check"], f["what"]) for f in doc["agent"]["first_failures"]] == [
        ("o1", 1, 'lookup_order({"order_id": "A-9"})', "looks it up",
         'called lookup_order, never with {"order_id": "A-1"}'),
        ("o2", None, None, "says where", "the final answer fails it"),
        ("o3", None, None, "looks it up", "the call never happened")], doc["agent"]["first_failures"]
    rows = " ".join(cli("report", path)[1].split("First failure of each failing case", 1)[1].split())
    assert 'o1 1 lookup_order({"order_id": "A-9"}) looks it up called lookup_order, never with {"order_id": "A-1"}' \
        in rows, rows


def test_an_agents_first_failure_blames_no_right_call_nor_hides_a_cut_or_unread_arguments():
    """125th round's second pass on the first failure of a call with other arguments: a right call was blamed where two
    tool_called checks asked for A-1 and A-2 (A-1 made); a cut turn holding the right call was hidden behind an earlier
    call; arguments that are no JSON object were "never with" the very ones shown; and which was said hung on the order
    the checks were written in."""
    def call(arguments, turn=1, matched=True, problem=None, unread=None):
        return {"turn": turn, "name": "lookup", "text": f"lookup({arguments})", "arguments": arguments, "unread": unread,
                "problem": problem, "matched": matched, "no_tool": False, "no_result": False}
    one, two = ({"name": f"asks {k}", "type": "tool_called", "value": "lookup", "arguments": {"id": k}} for k in ("A-1", "A-2"))
    valid = {"name": "valid", "type": "tool_args_valid"}
    assert evalpy.first_failure([call({"id": "A-1"})], [one, two], {"asks A-1": True, "asks A-2": False}, False, 2) == {
        "turn": None, "call": None, "check": "asks A-2", "what": "the call never happened"}
    assert evalpy.first_failure([call({"id": "A-9"})], [one], {"asks A-1": False}, False, 2) == {
        "turn": 1, "call": 'lookup({\'id\': \'A-9\'})', "check": "asks A-1", "what": 'called lookup, never with {"id": "A-1"}'}
    assert evalpy.first_failure([call({"id": "A-9"}), call({"id": "A-1"}, turn=2)][:1], [one], {"asks A-1": False}, False,
                                2, cut=2, cut_tools=["lookup"])["what"].startswith("the token limit cut its calls")
    unread = "not JSON (expecting ',' delimiter at character 18)"
    assert evalpy.first_failure([call(None, unread=unread)], [one], {"asks A-1": False}, False, 2)["what"] == \
        f"its arguments are not a JSON object: {unread}"
    unfit = "its arguments are not a JSON object: they are a list"
    for checks in ([one, valid], [valid, one]):
        assert evalpy.first_failure([call([1], problem=unfit)], checks, {"asks A-1": False, "valid": False}, False, 2) == {
            "turn": 1, "call": "lookup([1])", "check": "valid", "what": f"arguments do not fit the tool: {unfit}"}


def test_an_agents_call_another_check_asked_for_or_before_a_cut_of_another_tool_is_told_right(project, cli):
    """126th round: a call a check that decides nothing asked for (lookup A-1, beside a blocking check for A-2) was
    blamed "never with A-2", as a call nobody asked for is; and a turn the token limit cut, calling another tool
    (send_email), hid the wrong call before it behind "the token limit cut its calls". The cut is the cause only where
    the cut turn called the tool the failed check names."""
    from conftest import agent_spec, make_run
    asks = [{"name": "asks A-2", "type": "tool_called", "value": "lookup_order", "arguments": {"order_id": "A-2"},
             "blocking": True},
            {"name": "asks A-1", "type": "tool_called", "value": "lookup_order", "arguments": {"order_id": "A-1"},
             "blocking": False}]
    one, nine = ("lookup_order", {"order_id": "A-1"}, True), ("lookup_order", {"order_id": "A-9"}, True)
    cases = [agent_spec("k1", [one], final="Nada", checks=asks), agent_spec("k2", [one], final="Nada", checks=asks[:1])]
    for case_id, cut_tool in (("k3", "send_email"), ("k4", "lookup_order")):
        case = agent_spec(case_id, [nine], final="Nada", checks=asks[:1])
        case["transcript"] = case["transcript"][:2] + [{"role": "assistant", "content": "", "tool_calls": [
            {"id": None, "name": cut_tool, "arguments": {"order_id": "A-2"}}]}]
        case["response"], case["per_turn"] = "", [case["per_turn"][0], dict(case["per_turn"][1], done_reason="length")]
        cases.append(case)
    doc = json.loads(cli("report", write_run("runs/k.json", make_run(cases, labels=None, split="agent-dev", max_turns=3)),
                         "--json")[1])
    assert [(f["id"], f["turn"], f["check"], f["what"]) for f in doc["agent"]["first_failures"]] == [
        ("k1", None, "asks A-2", "the call never happened"),
        ("k2", 1, "asks A-2", 'called lookup_order, never with {"order_id": "A-2"}'),
        ("k3", 1, "asks A-2", 'called lookup_order, never with {"order_id": "A-2"}'),
        ("k4", 2, None, "the token limit cut its calls, never run (raise num_predict, or the server's cap)")], \
        doc["agent"]["first_failures"]


def test_an_agents_call_to_a_tool_of_an_odd_name_is_shown_quoted_and_its_quote_closed(project, cli):
    """126th round: the first failure's call showed a tool named "" as '({"order_id": "A-1"})' and " lookup" as its
    arguments after a space, where the tool table quotes them; a name of 200 characters cut short left its quote open."""
    from conftest import agent_spec, make_run
    cases = [agent_spec(f"n{i}", [(name, {"order_id": "A-1"}, False)], final="Nada", checks=[
        {"name": "valid", "type": "tool_args_valid", "blocking": True}])
        for i, name in enumerate(("", " lookup", "x" * 200, "工具" * 20, "a\u202e" * 12))]
    doc = json.loads(cli("report", write_run("runs/n.json", make_run(cases, labels=None, split="agent-dev", max_turns=3)),
                         "--json")[1])
    assert [(f["call"], f["what"]) for f in doc["agent"]["first_failures"]] == [
        ('""({"order_id": "A-1"})', 'called a tool the case does not have ("")'),
        ('" lookup"({"order_id": "A-1"})', 'called a tool the case does not have (" lookup")'),
        ("x" * 200 + '({"order_id": "A-1"})', 'called a tool the case does not have ("' + "x" * 57 + '…")'),
        # (127th round) cut by the columns shown, not by length: a wide character, an unseen one as its code, kept closed
        ("工具" * 20 + '({"order_id": "A-1"})', 'called a tool the case does not have ("' + "工具" * 14 + '…")'),
        ('"' + "a\\u202e" * 12 + '"({"order_id": "A-1"})',
         'called a tool the case does not have ("' + "a\\u202e" * 8 + 'a…")')], doc["agent"]["first_failures"]


def test_an_agents_call_to_a_tool_the_set_gives_no_result_is_not_blamed_on_its_arguments(project, cli):
    """116th round's newcomer: every call to a tool whose results were left out of tools.json got "no result", and the
    first failure said "no tool result matched these arguments (a wrong or missing argument)" of a right call."""
    from conftest import AGENT_CHECKS, agent_spec, make_run
    look, cancel = ("lookup_order", {"order_id": "A-7"}, False), ("cancel_order", {"order_id": "A-1"}, False)
    cases = [agent_spec("n1", [cancel], final="Nada", checks=AGENT_CHECKS[:1]),
             agent_spec("n2", [look], final="Nada", checks=AGENT_CHECKS[:1])]   # (one its results do not match)
    doc = json.loads(cli("report", write_run("runs/n.json", make_run(cases, labels=None, split="agent-dev", max_turns=3)),
                         "--json")[1])
    assert [(f["id"], f["what"]) for f in doc["agent"]["first_failures"]] == [
        ("n1", 'the set gives "cancel_order" no result (tools.json nor the case\'s tool_results): every call to it gets none'),
        ("n2", "no tool result matched these arguments (a wrong or missing argument)")], doc["agent"]["first_failures"]


def test_an_agents_call_whose_arguments_are_no_json_is_said_so_never_a_wrong_argument(project, cli):
    """120th round: a call over /v1 whose arguments held a line break unescaped in a string ('{"order_id": "A-\\n1"}' as
    the model wrote it) was "its arguments are not a JSON object", no reason given, though they read as one, and without
    tool_args_valid its first failure was "no tool result matched these arguments (a wrong or missing argument)"."""
    from conftest import AGENT_CHECKS, agent_spec, make_run
    tools = [{"type": "function", "function": {"name": "lookup_order", "parameters": {
        "type": "object", "properties": {"order_id": {"type": "string"}}}}}]
    raw, cut = '{"order_id": "A-\n1"}', '{"order_id": "A-1"'
    assert evalpy.call_problem({"name": "lookup_order", "arguments": raw}, tools) == (
        "its arguments are not a JSON object: a line break written raw inside a string (JSON writes it \\n)")
    assert evalpy.call_problem({"name": "lookup_order", "arguments": cut}, tools) == (
        "its arguments are not a JSON object: not JSON (expecting ',' delimiter at character 19)")
    assert evalpy.call_problem({"name": "lookup_order", "arguments": '{"order_id": "A-\t1"}'}, tools).endswith(
        "a tab written raw inside a string (JSON writes it \\t)")
    cases = [agent_spec("j1", [("lookup_order", raw, False)], final="Nada", checks=AGENT_CHECKS[:1]),
             agent_spec("j2", [("lookup_order", cut, False)], final="Nada", checks=AGENT_CHECKS[:1])]
    doc = json.loads(cli("report", write_run("runs/j.json", make_run(cases, labels=None, split="agent-dev", max_turns=3)),
                         "--json")[1])
    assert [(f["id"], f["what"]) for f in doc["agent"]["first_failures"]] == [
        ("j1", "no tool result can match arguments that are not a JSON object: a line break written raw inside a "
               "string (JSON writes it \\n)"),
        ("j2", "no tool result can match arguments that are not a JSON object: not JSON (expecting ',' delimiter at "
               "character 19)")], doc["agent"]["first_failures"]


def thinking_agent(case_id, done_reason, **spec):
    """An agent_spec whose one call was made and matched, then whose last turn never closed its thinking, ended by
    done_reason (the run's and its last turn's)."""
    from conftest import agent_spec
    case = agent_spec(case_id, [("lookup_order", {"order_id": "A-1"}, True)], final="<think>The customer wants", **spec)
    return dict(case, done_reason=done_reason, per_turn=case["per_turn"][:-1] + [
        dict(case["per_turn"][-1], done_reason=done_reason)])


def test_an_agent_still_thinking_at_its_last_turn_reached_no_answer_but_made_its_calls(project, cli):
    """113th round's hostile Ollama: an agent whose last turn never finished thinking passed its final result where it
    had only trajectory checks (it reached no answer), and failed every trajectory check, "the call never happened" of
    a call made and matched. Its final result fails; its trajectory is read from the calls it made."""
    from conftest import AGENT_CHECKS, agent_spec, make_run
    cases = [thinking_agent("t1", "length"), thinking_agent("t2", "length", checks=AGENT_CHECKS[:3])]
    doc = json.loads(cli("report", write_run("runs/t.json", make_run(cases, labels=None, split="agent-dev",
                                                                        max_turns=3)), "--json")[1])
    assert (doc["agent"]["final"]["correct"], doc["agent"]["final"]["total"]) == (0, 2), doc["agent"]["final"]
    assert (doc["agent"]["trajectory"]["correct"], doc["agent"]["trajectory"]["total"]) == (2, 2), doc["agent"]
    assert [(f["id"], f["what"]) for f in doc["agent"]["first_failures"]] == [
        (cid, "still thinking when it stopped: no answer (raise num_predict, or the server's cap on an answer)")
        for cid in ("t1", "t2")]
    assert [c["passed"] for c in doc["checks"]] == [2, 2, 2, 0], doc["checks"]
    # (its review) every view says why it failed: its failures row named no check, --case showed passes alone
    text = cli("report", "runs/t.json")[1].split("\nFailures")[1]
    row = next(line for line in text.splitlines() if line.startswith("  t2 "))
    assert "no answer (still thinking when it stopped)" in row, row
    assert "no answer (still thinking when it stopped)" in cli("report", "runs/t.json", "--markdown")[1]
    assert "  answer: none (still thinking when it stopped" in cli("report", "runs/t.json", "--case", "t2")[1]


def test_an_agents_thinking_a_stop_ended_is_given_the_headers_cure_never_the_limits(project, cli):
    """135th round's agents attack: an agent whose last turn's reasoning a stop string or the model's own end ended
    (done_reason "stop") was rightly "raising num_predict will not help" in the header, and its first failure said
    "(raise num_predict, or the server's cap on an answer)" in the text, --json and the page. The cure is by cause,
    as the header's: the token limit's for one it cut."""
    from conftest import make_run
    write_run("runs/s.json", make_run([thinking_agent("s1", "stop"), thinking_agent("l1", "length")], labels=None,
                                      split="agent-dev", max_turns=3))
    stopped = ("still thinking when it stopped: no answer; a stop sequence (--option stop) or the model's own end came "
               "inside it, not the token limit (a stop string the reasoning writes ends it there; raising num_predict "
               "will not help)")
    cut = "still thinking when it stopped: no answer (raise num_predict, or the server's cap on an answer)"
    doc = json.loads(cli("report", "runs/s.json", "--json")[1])
    assert [(f["id"], f["what"]) for f in doc["agent"]["first_failures"]] == [("s1", stopped), ("l1", cut)], doc["agent"]
    text = cli("report", "runs/s.json")[1]
    header = next(line for line in text.splitlines() if line.startswith("Thinking never finished"))
    assert "s1: a stop sequence (--option stop) or the model's own end came inside it" in header, header
    rows = {line.split()[0]: line for line in text.split("\nFirst failure")[1].split("\n\n")[0].splitlines()
            if "still thinking" in line}
    assert rows["s1"].endswith(stopped) and rows["l1"].endswith(cut), rows
    assert cli("report", "runs/s.json", "--html", "s.html")[0] == 0
    assert "raising num_predict will not help)" in Path("s.html").read_text(encoding="utf-8").split("First failure")[-1]


def test_an_agents_first_failure_over_v1_names_the_limit_the_header_names(project, cli):
    """135th round's review, F2: an --api openai run with max_tokens 64, its agent's last turn cut inside its thinking,
    was told "raise max_tokens" in the header and "raise num_predict" in its First failure row and --json (first_failure
    named num_predict whatever the run): over /v1 the smallest cap stops the answer, and raising num_predict while
    max_tokens=64 stands cured nothing."""
    from conftest import make_run
    run = make_run([thinking_agent("l1", "length"), thinking_agent("s1", "stop")], labels=None, split="agent-dev",
                   max_turns=3)
    run["config"].update(api="openai", options={**(run["config"].get("options") or {}), "max_tokens": 64})
    write_run("runs/o.json", run)
    doc = json.loads(cli("report", "runs/o.json", "--json")[1])
    whats = [f["what"] for f in doc["agent"]["first_failures"]]
    assert whats[0] == "still thinking when it stopped: no answer (raise max_tokens, or the server's cap on an answer)"
    assert whats[1].endswith("raising max_tokens will not help)") and "num_predict" not in " ".join(whats), whats
    text = cli("report", "runs/o.json")[1]
    assert "raise max_tokens, --option max_tokens=N" in text and "raise num_predict" not in text, text


def test_an_agent_that_reached_no_answer_is_no_veto_and_its_weighted_row_says_why(project, cli):
    """114th round's review: an agent still thinking at its last turn, its weighed checks the trajectory's (read from
    its calls), scored 1 against 0.8 and was listed "failed by a blocking check whatever the score", its row naming no
    reason ("fail 1 0.8" and nothing failed). It reached no answer: its row says so (text, JSON, the page), and it is no veto."""
    from conftest import agent_spec, make_run
    look = ("lookup_order", {"order_id": "A-1"}, True)
    checks = [{"name": "looks it up", "type": "tool_called", "value": "lookup_order", "arguments": {"order_id": "A-1"},
               "weight": 3}, {"name": "never cancels", "type": "tool_not_called", "value": "cancel_order", "weight": 3},
              {"name": "says where", "type": "contains", "value": "enviado", "blocking": True}]
    cases = [dict(agent_spec("t1", [look], final="<think>The customer wants", checks=checks), pass_threshold=0.8),
             dict(agent_spec("t2", [look], checks=checks), pass_threshold=0.8),
             dict(agent_spec("t3", [look], final="No sé.", checks=checks), pass_threshold=0.8)]
    path = write_run("runs/t.json", make_run(cases, labels=None, split="agent-dev", max_turns=3))
    weighted = json.loads(cli("report", path, "--json")[1])["weighted"]
    assert weighted["vetoed"] == ["t3"], weighted   # (t3 answered, and its blocking check failed it)
    assert [(r["id"], r["correct"], r["score"], r["failed"], r["no_answer"]) for r in weighted["cases"]] == [
        ("t1", False, 1.0, [], 1), ("t2", True, 1.0, [], 0), ("t3", False, 1.0, [], 0)], weighted
    text = cli("report", path)[1]
    assert "  t1  fail     1      0.8        no answer\n" in text and "whatever the score (1): t3\n" in text, text
    assert cli("report", path, "--html", "t.html")[0] in (0, 1)
    page = (project / "t.html").read_text(encoding="utf-8")
    assert re.search(r">t1</a></td><td>fail</td>.*?<td>no answer</td>", page), page[page.find(">t1<"):][:400]
    # (its review) a case two of whose three trials answered and fell short says how many reached none
    checks = [{"name": "says enviado", "type": "contains", "value": "enviado", "weight": 1},
              {"name": "says pedido", "type": "contains", "value": "pedido", "weight": 1}]
    path = write_run("runs/w.json", make_run([{"id": "w1", "checks": checks, "pass_threshold": 0.8,
                                               "response": ["<think>the customer", "No sé.", "No sé."]}],
                                             labels=None, split="w"))
    assert "  w1  fail     0      0.8        no answer in 1 of 3 trials, says enviado, says pedido\n" in cli("report", path)[1]
    # (its views' review) a passing case one of whose trials reached none: counted in --json, and said beside the check
    # it failed for want of one (the row named the check alone, as if the answer had failed it)
    path = write_run("runs/p.json", make_run([{"id": "p1", "checks": checks, "pass_threshold": 0.5,
                                               "response": ["<think>the customer", "Enviado su pedido.",
                                                            "Enviado su pedido."]}], labels=None, split="w"))
    [row] = json.loads(cli("report", path, "--json")[1])["weighted"]["cases"]
    assert (row["correct"], row["no_answer"], row["trials"]) == (True, 1, 3), row
    assert "no answer in 1 of 3 trials, says enviado, says pedido" in cli("report", path)[1]
    # (115th round's review) said first: the text table cuts its cell at 60 characters, and it was the part cut
    long = [dict(c, name=f"{c['name']} {'x' * 40}") for c in checks]
    path = write_run("runs/q.json", make_run([{"id": "q1", "checks": long, "pass_threshold": 0.8,
                                               "response": ["<think>the customer", "No sé.", "No sé."]}],
                                             labels=None, split="w"))
    assert "  q1  fail     0      0.8        no answer in 1 of 3 trials, says enviado" in cli("report", path)[1]


def test_an_agent_out_of_turns_passes_no_check_of_an_answer_with_the_words_beside_its_last_calls(project, cli):
    """114th round's agents: a last turn that said "Su pedido está enviado." beside a call, cut by --max-turns, reached
    no answer (final result 0/1) yet passed "says where": 1/1 = 100% among the answers passing each check. It fails
    every check of an answer, as a trial still thinking does; its trajectory checks read its calls."""
    from conftest import agent_spec, make_run
    look = ("lookup_order", {"order_id": "A-1"}, True)
    spec = agent_spec("o1", [look, look], out_of_turns=True)
    spec["transcript"][-2]["content"] = spec["response"] = "Su pedido está enviado."   # (beside its last call)
    path = write_run("runs/o.json", make_run([spec], labels=None, split="agent-dev", max_turns=2))
    doc = json.loads(cli("report", path, "--json")[1])
    assert {c["name"]: c["passed"] for c in doc["checks"]} == {
        "looks it up": 1, "never cancels": 1, "valid arguments": 1, "says where": 0}, doc["checks"]
    assert doc["agent"]["final"]["correct"] == 0 and doc["agent"]["trajectory"]["correct"] == 1, doc["agent"]


def test_an_agent_out_of_turns_reads_no_label_from_the_words_beside_its_last_calls(project, cli):
    """114th round's review: a labelled agent out of turns failed, yet its label was read from the words beside its
    last calls (bug -> bug on the confusion matrix's diagonal, per label 1.00, 0 invalid): it is INVALID, as an answer
    still thinking is."""
    from conftest import agent_spec, make_run
    out = agent_spec("l1", [("lookup_order", {"order_id": "A-1"}, True)], out_of_turns=True, checks=[])
    out.pop("checks")
    out["expected"], out["transcript"][-2]["content"], out["response"] = "bug", "bug", "bug"
    answered = dict(agent_spec("l2", [], final="acceso", checks=[]), expected="acceso")
    answered.pop("checks")
    doc = json.loads(cli("report", write_run("runs/l.json", make_run([out, answered], split="agent-dev", max_turns=1)),
                         "--json")[1])
    assert (doc["correct"], doc["invalid"]) == (1, 1), doc
    assert [(f["id"], f["got"]) for f in doc["failures"]] == [("l1", "INVALID")], doc["failures"]


def test_each_turns_thinking_is_shown_under_its_turn(project, cli):
    """114th round's agents: every turn's thinking was kept in the transcript and never shown; the last turn's alone
    was, above turn 1 (report --case), and the page and review showed none but it."""
    from conftest import agent_spec, make_run
    spec = agent_spec("k1", [("lookup_order", {"order_id": "A-1"}, True)], final="No sé.")   # (failing: on the page)
    spec["transcript"][0]["thinking"], spec["transcript"][-1]["thinking"] = "THINK-TURN-1", "THINK-TURN-2"
    spec["thinking"] = "THINK-TURN-2"
    path = write_run("runs/k.json", make_run([spec], labels=None, split="agent-dev", max_turns=3))
    text = cli("report", path, "--case", "k1")[1]
    assert text.index("  turn 1") < text.index("THINK-TURN-1") < text.index("  turn 2") < text.index("THINK-TURN-2"), text
    assert text.count("THINK-TURN-2") == 1, text
    turns = json.loads(cli("report", path, "--case", "k1", "--json")[1])["trials"][0]["transcript"]
    assert [t["thinking"] for t in turns] == ["THINK-TURN-1", "THINK-TURN-2"], turns
    code, out, err = cli("report", path, "--html", "k.html")
    page = (project / "k.html").read_text(encoding="utf-8")
    assert "THINK-TURN-1" in page and page.index("THINK-TURN-1") < page.index("THINK-TURN-2"), err


def test_an_agents_final_result_a_judge_left_open_is_said_open(project, cli):
    """111th round on issue 28: an agent whose judge check got no verdict printed "final result 0/0 = -  (95% CI )" in
    every view, an empty interval and the case unsaid; it is counted open beside the level's figure, as a check's are."""
    from conftest import AGENT_CHECKS, agent_spec, make_run
    judged = [dict(AGENT_CHECKS[0]), {"name": "helpful", "type": "judge", "value": "Is it helpful?"}]
    look = ("lookup_order", {"order_id": "A-1"}, True)
    path = write_run("runs/open.json", make_run([agent_spec("j1", [look], checks=judged)], labels=None, split="agent-dev",
                                                 max_turns=3))
    doc = json.loads(cli("report", path, "--json")[1])
    assert doc["agent"]["final"]["total"] == 0 and doc["agent"]["final"]["open"] == 1, doc["agent"]
    text = cli("report", path)[1]
    assert "final result  0/0 = -, 1 open\n" in text and "CI )" not in text, text
    md = cli("report", path, "--markdown")[1]
    assert "| Agents: final result | 0/0 = -, 1 open |  |" in md and "| Agents: trajectory | 1/1 = 100% | 21" in md, md
    assert cli("report", path, "--html", "open.html")[0] in (0, 1, 2)
    page = (project / "open.html").read_text(encoding="utf-8")
    assert "final result: 0/0 = -, 1 open</li>" in page and "CI )" not in page
    # (its review) a trajectory a judge check's weight leaves open: 1 of 2 weighed checks against a threshold of 0.7,
    # with the judge's 2 of 5 undecided, could go either way; it was left out of the count, unsaid
    weighed = [{"name": "looks it up", "type": "tool_called", "value": "lookup_order", "weight": 1},
               {"name": "no calls", "type": "max_tool_calls", "value": 0, "weight": 1},
               {"name": "helpful", "type": "judge", "value": "Is it helpful?", "weight": 2},
               {"name": "says where", "type": "contains", "value": "enviado", "weight": 1}]
    cases = [dict(agent_spec("j1", [look], checks=weighed), pass_threshold=0.7),
             dict(agent_spec("j2", [look], checks=[dict(c, weight=1) for c in weighed]), pass_threshold=0.5)]
    path = write_run("runs/weighed.json", make_run(cases, labels=None, split="agent-dev", max_turns=3))
    doc = json.loads(cli("report", path, "--json")[1])["agent"]
    assert (doc["trajectory"]["total"], doc["trajectory"]["open"], doc["final"]["open"]) == (1, 1, 1), doc
    assert "trajectory    1/1 = 100%, 1 open" in cli("report", path)[1]


def test_agents_none_of_which_called_a_tool_are_said_to_be_that(project, cli):
    """74th attack (a real llama-cpp-python server, no function-calling chat format): the tools were dropped before
    the model saw them, and the report read 'the call never happened' as the model's failing, unsaid."""
    from conftest import agent_spec, make_run
    path = write_run("runs/nocalls.json", make_run([agent_spec(f"a{i}", [], final="No sé.") for i in (1, 2)], labels=None,
                                                   split="agent-dev", max_turns=3))
    said = "No answer called a tool. A server that drops the tools it is sent looks the same"
    assert said in cli("report", path)[1]
    assert said in cli("report", path, "--markdown")[1]
    assert cli("report", path, "--html", "nocalls.html")[0] in (0, 1) and said in (project / "nocalls.html").read_text()
    assert said not in cli("report", write_run("runs/agent.json", __import__("conftest").agent_run()))[1]


def test_a_report_without_agents_has_no_agent_section(hand_run, cli):
    out = cli("report", hand_run)[1]
    assert "Agent (" not in out and "agent" not in json.loads(cli("report", hand_run, "--json")[1])


def test_report_case_and_the_page_show_an_agents_transcript_turn_by_turn(project, cli):
    from conftest import agent_run
    path = write_run("runs/agent.json", agent_run())
    out = cli("report", path, "--case", "a2")[1]
    assert "Tools: lookup_order, cancel_order" in out
    assert out.index("turn 1 (calls tools):") < out.index('calls cancel_order({"order_id": "A-1"})   <- fails \'never cancels\'') \
        < out.index("turn 3:") < out.index("Su pedido está enviado.")
    doc = json.loads(cli("report", path, "--case", "a3", "--json")[1])
    assert doc["trials"][0]["transcript"][0]["calls"][0]["matched"] is False
    assert "(ran out of turns: still calling tools at the last one)" in cli("report", path, "--case", "a4")[1]
    assert cli("report", path, "--html", "page.html")[0] == 0
    page = (project / "page.html").read_text(encoding="utf-8")
    assert "calls cancel_order({&quot;order_id&quot;: &quot;A-1&quot;})   &lt;- fails &#x27;never cancels&#x27;" in page
    assert 'id="agent"' in page


def test_each_tool_result_answers_the_oldest_call_still_waiting():
    """Fifty-third round on issue 28: each result looked for its call from the first call of the transcript (50,000
    calls read in 40 s; tests/bench.py --only transcript). Read with a queue, each answers the oldest call still
    waiting, across turns, and a result of none (null content) leaves its call waiting."""
    def call(name):
        return {"id": None, "name": name, "arguments": {}}

    def tool(content, matched=True):
        return {"role": "tool", "name": "x", "call_id": None, "matched": matched, "content": content}
    transcript = [{"role": "assistant", "content": "", "tool_calls": [call("a"), call("b")]}, tool("ra"),
                  {"role": "assistant", "content": "", "tool_calls": [call("c")]}, tool(None), tool("rb", False), tool("rc"),
                  tool("stray"), {"role": "assistant", "content": "fin"}]
    turns = evalpy.transcript_turns({"transcript": transcript, "tools": []}, [], {})
    assert [[(c["call"], c["result"], c["matched"]) for c in t["calls"]] for t in turns] == [
        [("a({})", "ra", True), ("b({})", "rb", False)], [("c({})", "rc", True)], []]
    assert [t["content"] for t in turns] == ["", "", "fin"]


# --- RAG: the retrieval stage, measured offline from passages and relevance labels (issue 30)

def passages(*ids):
    return [{"id": i, "text": f"passage {i}"} for i in ids]


RAG_CASES = [   # id, passages in rank order, ids labelled relevant; precision and recall by hand
    ("r1", passages("a", "x", "b"), ["a", "b", "c"]),        # RAGAS: (1/1 + 2/3) / 2 = 0.833; recall 2/3
    ("r2", passages("x", "y", "a", "b", "z"), ["a", "b"]),   # relevant at ranks 3 and 4: (1/3 + 2/4) / 2 = 0.417; 1
    ("r3", [], ["a"]),                                       # nothing retrieved: 0 and 0
    ("r4", passages("a"), []),                               # nothing relevant exists: no precision, no recall
]


def rag_run(folder, cases=RAG_CASES, name="rag.json", **config):
    specs = [{"id": cid, "input": f"question {cid}", "context": ctx, "relevant": rel, "response": "an answer",
              "checks": [{"name": "says answer", "type": "contains", "value": "answer", "blocking": True}]}
             for cid, ctx, rel in cases]
    return write_run(folder / name, make_run(specs, labels=None, split="rag", **config))


def test_context_precision_and_recall_follow_ragas_definitions():
    assert evalpy.context_precision(["a", "x", "b"], {"a", "b", "c"}) == pytest.approx(5 / 6)   # 0.833
    assert evalpy.context_recall(["a", "x", "b"], ["a", "b", "c"]) == pytest.approx(2 / 3)      # 0.667
    assert evalpy.context_precision(["x", "y", "a", "b", "z"], {"a", "b"}) == pytest.approx(5 / 12)   # 0.417
    assert evalpy.context_precision(["a", "b", "x"], {"a", "b"}) == 1.0   # relevant first: the best order
    assert evalpy.context_precision(["x", "a", "b"], {"a", "b"}) == pytest.approx((1 / 2 + 2 / 3) / 2)
    assert evalpy.context_precision([], {"a"}) == 0.0 and evalpy.context_recall([], ["a"]) == 0.0
    assert evalpy.context_recall(["a"], []) is None


def ragas_average_precision(verdicts):
    """RAGAS's own arithmetic (explodinggradients/ragas, src/ragas/metrics/_context_precision.py,
    _calculate_average_precision), transcribed as the independent reference: precision@k times v_k
    summed, over the relevant count plus 1e-10."""
    numerator = sum(sum(verdicts[:i + 1]) / (i + 1) * verdicts[i] for i in range(len(verdicts)))
    return numerator / (sum(verdicts) + 1e-10)


def test_context_precision_is_ragas_rank_weighted_form_and_says_so():
    """The figure is RAGAS's rank-weighted Context Precision with relevance from the labels, on every
    order of up to six passages; the README and the report name it so, not as RAGAS's
    IDBasedContextPrecision (the share of retrieved ids that are relevant: [a, x, b] is 2/3 there, 5/6 here)."""
    for n in range(1, 7):
        for verdicts in itertools.product((0, 1), repeat=n):
            ranked = [f"p{i}" for i in range(n)]
            relevant = {p for p, v in zip(ranked, verdicts) if v} | {"unretrieved"}
            assert float(evalpy.context_precision(ranked, relevant)) == pytest.approx(
                ragas_average_precision(list(verdicts)), abs=1e-9), verdicts
    readme = (ROOT / "README.md").read_text()
    assert "two ID-based" not in readme and "not\n  RAGAS's `IDBasedContextPrecision`" in readme
    assert "RAGAS's `IDBasedContextRecall`" in readme
    assert "(RAGAS's Context Precision)" in evalpy.RETRIEVAL_WORDS["precision"][1]


def test_report_gives_retrieval_per_case_and_over_cases_offline(project, cli):
    path = rag_run(project)
    code, out, err = cli("report", path, "--json")
    assert code == 0, err
    r = json.loads(out)["retrieval"]
    assert r["labelled"] == 4 and r["recall_cases"] == 3 and r["precision_cases"] == 3
    by_id = {c["id"]: c for c in r["cases"]}
    assert by_id["r1"]["precision"] == pytest.approx(0.8333, abs=1e-4) and by_id["r1"]["recall"] == pytest.approx(0.6667, abs=1e-4)
    assert by_id["r1"]["missing"] == ["c"] and by_id["r3"]["missing"] == ["a"] and by_id["r4"]["recall"] is None
    assert by_id["r4"]["precision"] is None   # nothing labelled relevant: RAGAS's ID-based precision refuses it too
    precisions, recalls = [5 / 6, 5 / 12, 0], [2 / 3, 1, 0]
    assert r["precision"] == pytest.approx(sum(precisions) / 3) and r["recall"] == pytest.approx(sum(recalls) / 3)
    for values, ci in ((precisions, r["precision_ci"]), (recalls, r["recall_ci"])):   # Student's t over the cases
        low, high = scipy.stats.t.interval(0.95, len(values) - 1, loc=sum(values) / len(values),
                                           scale=scipy.stats.sem(values))
        assert ci == pytest.approx([max(0, low), min(1, high)])
    code, text, _ = cli("report", path)
    assert "Retrieval (offline, from the passages and the ids labelled relevant; 4 cases):" in text
    assert "  context precision  42% (95% CI " in text and "(over the 3 cases that name a relevant passage)" in text
    # (round 106) precision's count too, beside the header's 4: r4 labels none
    assert re.search(r"context precision .*\(over the 3 cases that name a relevant passage\)", text), text
    assert "  r1  3         0.833      0.667   c" in text
    assert "  r4  1         -          -       -" in text


def test_one_labelled_case_is_worded_for_one_and_shows_no_empty_interval(project, cli):
    """From the attack on issue 30: '(1 cases name one)' and '(95% CI -)' for a single case."""
    text = cli("report", rag_run(project, RAG_CASES[:1]))[1]
    assert "(over the 1 case that names a relevant passage)" in text and "1 cases" not in text
    # every count of cases on that surface is worded for one (the retrieval line, the markdown row)
    assert "1 cases" not in text and "1 cases" not in cli("report", rag_run(project, RAG_CASES[:1]), "--markdown")[1]
    assert "CI -" not in text and "  context precision  83% (no interval: one case)  rank-aware" in text


def test_a_retrieval_mean_without_an_interval_says_why(project, cli):
    """125th round: two cases alike (precision and recall 50% each) gave 'context precision 50%' with no interval and
    no word of why, where the section's legend promised one (compare says 'no interval: every case moved alike')."""
    alike = [("s1", passages("x", "a"), ["a", "z"]), ("s2", passages("y", "b"), ["b", "w"])]
    path = rag_run(project, alike)
    text = cli("report", path)[1]
    assert "  context precision  50% (no interval: every case the same)  rank-aware" in text, text
    assert "  context recall     50% (no interval: every case the same)  relevant" in text, text
    markdown = cli("report", path, "--markdown")[1]
    assert "| Context precision (retrieval, 2 cases) | 50% | none: every case the same |" in markdown, markdown
    cli("report", path, "--html", "rag.html")
    assert "context precision: 50% (no interval: every case the same)" in Path("rag.html").read_text()
    doc = json.loads(cli("report", path, "--json")[1])["retrieval"]
    assert doc["precision_ci"] == [None, None] and doc["precision"] == 0.5


def test_a_run_without_passages_has_no_retrieval_section(hand_run, cli):
    code, out, _ = cli("report", hand_run, "--json")
    assert "retrieval" not in json.loads(out)
    assert "Retrieval" not in cli("report", hand_run)[1]


# --- RAG: the diagnosis, which stage to fix (issue 30)

def vote(check, ok, raw=None):
    return {"check": check, "model": "judge", "vote": 1, "seed": 42, "pass": ok, "reason": "r",
            "raw": raw if raw is not None else json.dumps({"reason": "r", "pass": ok}), "error": None,
            "prompt_tokens": 10, "completion_tokens": 5}


def claims_raw(*items):
    return json.dumps({"claims": [{"claim": c, "supported": ok, "passage": p} for c, ok, p in items], "reason": "r"})


DIAGNOSED = [   # id, passages, relevant, faithful vote (pass, raw), answer relevant: the stage to fix
    ("d1", [], ["a"], (True, claims_raw()), False),                                     # retrieval: none retrieved
    ("d2", passages("x"), ["a"], (False, claims_raw(("Refunds in 5 days", False, None))), True),   # retrieval first
    ("d3", passages("a"), ["a"], (False, claims_raw(("Returns in 30 days", True, "a"),
                                                     ("Shipping is free", True, "zz"))), True),    # generation
    ("d4", passages("a", "x"), ["a"], (True, claims_raw(("Returns in 30 days", True, "a"))), False),  # task
    ("d5", passages("a"), ["a"], (True, claims_raw(("Returns in 30 days", True, "a"))), True),      # passes
    ("d6", passages("a"), ["a"], (None, "no JSON here"), False),                         # unclear: no verdict
]


def diagnosed_run(folder, cases=DIAGNOSED, name="diag.json"):
    checks = [{"name": "faithful", "type": "faithful", "blocking": True},
              {"name": "answer_relevant", "type": "answer_relevant", "blocking": True}]
    specs = [{"id": cid, "input": f"question {cid}", "context": ctx, "relevant": rel, "response": "answer",
              "checks": checks, "judges": [vote("faithful", *faithful), vote("answer_relevant", relevant)]}
             for cid, ctx, rel, faithful, relevant in cases]
    return write_run(folder / name, make_run(specs, labels=None, split="rag"))


def test_the_report_ends_with_the_stage_to_fix_for_each_failing_case(project, cli):
    path = diagnosed_run(project)
    d = json.loads(cli("report", path, "--json")[1])["diagnosis"]
    assert (d["cases"], d["failing"]) == (6, 5)
    assert (d["retrieval"], d["generation"], d["task"], d["unclear"]) == (["d1", "d2"], ["d3"], ["d4"], ["d6"])
    assert d["why"] == {"d1": "no passage retrieved", "d2": "relevant passage not retrieved: a",
                        "d3": "unsupported: Shipping is free", "d4": "faithful, but not an answer to the question",
                        "d6": "faithfulness has no verdict"}
    text = cli("report", path)[1]
    tail = text[text.index("Diagnosis: 5 failing of 6 RAG cases"):]
    assert text.rstrip().endswith(tail.rstrip())   # the report's last section
    assert "  retrieval   2      the retriever: its embedding, query or chunking" in tail
    assert "  generation  1      how the model uses the passages" in tail
    assert "  task        1      the prompt or the task's definition" in tail
    assert "  retrieval   d1: no passage retrieved\n  retrieval   d2: relevant passage not retrieved: a\n" \
           "  generation  d3: unsupported: Shipping is free\n" in tail
    markdown = cli("report", path, "--markdown")[1]
    assert "| retrieval | 2 | `d1`, `d2` | the retriever" in markdown
    page = project / "diag.html"
    cli("report", path, "--html", page)
    html = page.read_text(encoding="utf-8")
    assert "Diagnosis: which stage to fix" in html and html.rindex("Diagnosis") > html.rindex("Failing cases")


def test_a_rag_answer_whose_passages_were_taken_out_is_refused(project, cli):
    """111th round: a result of a faithful check whose context was taken out was read as one without passages: its
    stored pass read as a fail (a claim marked supported by a passage the case has not), the pass rate lower, exit 0.
    run never stores such an answer (a check that reads passages needs them): refused, naming the result."""
    path = diagnosed_run(project)
    run = load_json(path)
    del run["results"][4]["context"]
    code, out, err = cli("report", write_run("runs/edited.json", run))
    assert code == 2 and err == ("error: runs/edited.json: not a valid run file: result d5: check 'faithful' judges "
                                 "against the case's passages, and the result holds none (it was edited); restore it from a copy, or run it again\n"), err


def test_a_failing_case_without_a_faithful_check_is_unclear_not_called_faithful(project, cli):
    """From the attack on issue 30: with good passages and only a regex failing, the diagnosis said
    'faithful to the passages, yet it failed ...' though no judge had read the answer for faithfulness."""
    regex = [{"name": "regex", "type": "regex", "value": "NEVERMATCH", "blocking": True}]
    relevance = [{"name": "answer_relevant", "type": "answer_relevant", "blocking": True}]
    specs = [{"id": "m1", "input": "q", "context": passages("a"), "relevant": ["a"], "response": "x", "checks": regex},
             {"id": "m2", "input": "q", "context": passages("a"), "response": "x", "checks": regex},
             {"id": "m3", "input": "q", "context": passages("a"), "relevant": ["a"], "response": "x",
              "checks": relevance, "judges": [vote("answer_relevant", False)]}]
    path = write_run(project / "m.json", make_run(specs, labels=None, split="rag"))
    d = json.loads(cli("report", path, "--json")[1])["diagnosis"]
    assert d["unclear"] == ["m1", "m2", "m3"] and d["task"] == [], d
    # newcomer pass N14: check names are quoted ("yet it failed says 30 days" read as a sentence)
    assert d["why"]["m1"] == "no faithful check: its faithfulness is not known; it failed the check 'regex'"
    assert d["why"]["m3"] == "no faithful check: its faithfulness is not known; it failed the check 'answer_relevant'"
    assert "faithful to the passages" not in cli("report", path)[1]


def test_the_diagnosis_quotes_the_checks_a_faithful_answer_failed(project, cli):
    """Newcomer pass N14: "faithful to the passages, yet it failed says 30 days" read as a sentence
    about days; the checks a faithful answer failed are named as checks, quoted."""
    checks = [{"name": "faithful", "type": "faithful", "blocking": True},
              {"name": "says 30 days", "type": "contains", "value": "30", "blocking": True},
              {"name": "cites it", "type": "contains", "value": "[a]", "blocking": True}]
    specs = [{"id": "t1", "input": "q", "context": passages("a"), "relevant": ["a"], "response": "answer",
              "checks": checks[:2], "judges": [vote("faithful", True, claims_raw(("Returns", True, "a")))]},
             {"id": "t2", "input": "q", "context": passages("a"), "relevant": ["a"], "response": "answer",
              "checks": checks, "judges": [vote("faithful", True, claims_raw(("Returns", True, "a")))]}]
    path = write_run(project / "t.json", make_run(specs, labels=None, split="rag"))
    d = json.loads(cli("report", path, "--json")[1])["diagnosis"]
    assert d["why"] == {"t1": "faithful to the passages, yet it failed the check 'says 30 days'",
                        "t2": "faithful to the passages, yet it failed the checks 'says 30 days', 'cites it'"}


def test_a_labelled_case_whose_judge_found_no_passage_relevant_is_unclear_never_the_task_s(project, cli):
    """120th round: a case whose labels' relevant passages were all retrieved, its answer faithful, failing only its
    context_relevant check (the judge found no passage relevant) was the task's, "change the prompt": the judge and
    the person's labels disagree about retrieval, which no prompt fixes."""
    checks = [{"name": "ctx", "type": "context_relevant", "blocking": True},
              {"name": "faithful", "type": "faithful", "blocking": True},
              {"name": "says", "type": "contains", "value": "30", "blocking": True}]
    faithful = vote("faithful", True, claims_raw(("Returns", True, "a")))
    none_relevant = json.dumps({"passages": [{"id": "a", "relevant": False}], "reason": "r"})
    specs = [{"id": "l1", "input": "q", "context": passages("a"), "relevant": ["a"], "response": "30 days",
              "checks": checks, "judges": [vote("ctx", False, none_relevant), faithful]},
             {"id": "l2", "input": "q", "context": passages("a"), "relevant": ["a"], "response": "a month",
              "checks": checks, "judges": [vote("ctx", False, "{}"), faithful]}]
    specs.append(dict(specs[0], id="l3", relevant=[]))   # (its review: labels of nothing to retrieve agree with the judge)
    d = json.loads(cli("report", write_run(project / "l.json", make_run(specs, labels=None, split="rag")), "--json")[1])["diagnosis"]
    assert d["unclear"] == ["l1"] and d["task"] == ["l2", "l3"], d
    assert d["why"] == {"l1": "the judge found no passage relevant enough (the check 'ctx'), where every passage the "
                              "case labels relevant was retrieved: the judge or the labels are wrong",
                        "l2": "faithful to the passages, yet it failed the check 'says'",
                        "l3": "faithful to the passages, yet it failed the check 'ctx'"}, d["why"]


def test_a_case_whose_passages_nothing_rated_is_unclear_never_faithful_to_good_passages(project, cli):
    """121st round's newcomer: a failing case with passages but no relevant labels and no context_relevant check, its
    answer faithful, was the task's, "faithful to good passages": nothing said its passages were good."""
    checks = [{"name": "faithful", "type": "faithful", "blocking": True},
              {"name": "zzz", "type": "contains", "value": "ZZZ", "blocking": True}]
    faithful = vote("faithful", True, claims_raw(("Returns", True, "a")))
    specs = [{"id": "u1", "input": "q", "context": passages("a"), "response": "30 days", "checks": checks,
              "judges": [faithful]},
             {"id": "u2", "input": "q", "context": passages("a"), "relevant": ["a"], "response": "30 days", "checks": checks,
              "judges": [faithful]}]
    d = json.loads(cli("report", write_run(project / "u.json", make_run(specs, labels=None, split="rag")), "--json")[1])["diagnosis"]
    assert d["unclear"] == ["u1"] and d["task"] == ["u2"], d
    assert d["why"]["u1"] == ("no relevant labels nor context_relevant check: whether its passages were right is not known; "
                              "faithful to them, it failed the check 'zzz'"), d["why"]
    # (round 122) nor one whose context_relevant judge gave no verdict: it could have found them wrong (retrieval's)
    rated = checks + [{"name": "ctx", "type": "context_relevant", "blocking": False}]
    unread = dict(vote("ctx", None, "I cannot tell"), reason=None)
    specs = [{"id": "u3", "input": "q", "context": passages("a"), "response": "30 days", "checks": rated,
              "judges": [faithful, unread]}]
    d = json.loads(cli("report", write_run(project / "u3.json", make_run(specs, labels=None, split="rag3")), "--json")[1])["diagnosis"]
    assert d["unclear"] == ["u3"] and d["why"]["u3"] == (
        "its context_relevant judge gave no verdict: whether its passages were right is not known; faithful to them, it "
        "failed the check 'zzz'"), d
    shown = cli("report", str(project / "u3.json"))[1]   # (its newcomer) the text view cut it before its point at 110
    assert "u3: its context_relevant judge gave no verdict: whether its passages were right is not known; faithful to " \
           "them, it failed the check 'zzz'" in shown and "a judge and the labels disagreeing" in shown, shown


def test_a_case_with_trials_is_diagnosed_by_its_answer_that_failed_earliest(project, cli):
    """Round 102: with trials, the diagnosis read the first failing answer alone: trial 1 faithful and failing its
    check, trial 2 unfaithful, was called the task's ("faithful to the passages"), where generation failed first."""
    checks = [{"name": "faithful", "type": "faithful", "blocking": True},
              {"name": "says", "type": "contains", "value": "30", "blocking": True}]
    run = make_run([{"id": "k1", "input": "q", "context": passages("a"), "relevant": ["a"], "response": ["no", "no"],
                     "checks": checks, "judges": None}], labels=None, split="rag")
    run["results"][0]["judges"] = [vote("faithful", True, claims_raw(("x", True, "a")))]
    run["results"][1]["judges"] = [vote("faithful", False, claims_raw(("y", False, None)))]
    run["config"]["judge"] = {"models": ["judge"], "votes": 1, "temperature": 0.0, "seed": 42}   # (as eval.py records it)
    d = json.loads(cli("report", write_run(project / "tr.json", run), "--json")[1])["diagnosis"]
    assert d["generation"] == ["k1"] and d["task"] == [] and d["why"]["k1"] == "unsupported: y", d
    # an answer that never came (still thinking at its limit) tells no stage: a faithful one failing the task decides
    run["results"].append(dict(run["results"][0], trial=3, response="", thinking="long thoughts", done_reason="length",
                               judges=None))
    run["results"][1]["judges"] = [vote("faithful", True, claims_raw(("x", True, "a")))]
    run["config"]["repeat"] = 3
    d = json.loads(cli("report", write_run(project / "tr3.json", run), "--json")[1])["diagnosis"]
    assert d["task"] == ["k1"] and d["why"]["k1"] == "faithful to the passages, yet it failed the check 'says'", d
    # (and before a context_relevant check, which an unfinished answer fails unasked: no retrieval failure)
    ctx = [{"name": "ctx", "type": "context_relevant", "blocking": True}]
    run = make_run([{"id": "u1", "input": "q", "context": passages("a"), "response": "", "checks": checks + ctx,
                     "judges": [vote("ctx", True, "{}")]}], labels=None, split="rag")
    run["results"][0].update(thinking="hmm", done_reason="length")
    d = json.loads(cli("report", write_run(project / "u.json", run), "--json")[1])["diagnosis"]
    assert d["unclear"] == ["u1"] and d["why"]["u1"].startswith("it never answered"), d
    # (round 110) a case whose trials without a verdict could turn its majority is in no failure list: nor diagnosed
    checks = [{"name": "faithful", "type": "faithful", "blocking": True}]
    run = make_run([{"id": "o1", "input": "q", "context": passages("a"), "relevant": ["a"], "response": ["x", "y", "z"],
                     "checks": checks, "judges": None}], labels=None, split="rag")
    for r, ok in zip(run["results"], (True, False, None)):
        r["judges"] = [vote("faithful", ok, claims_raw(("x", ok, "a")) if ok is not None else "no verdict here")]
    run["config"]["judge"] = {"models": ["judge"], "votes": 1, "temperature": 0.0, "seed": 42}
    s = json.loads(cli("report", write_run(project / "open.json", run), "--json")[1])
    assert s["majority_open"] == ["o1"] and s["failures"] == [], s["majority_open"]
    d = s["diagnosis"]
    assert (d["failing"], d["undiagnosed"], d["undiagnosed_cases"], d["generation"]) == (0, 1, ["o1"], []), d
    # and the cases left out for want of a verdict are counted (9 of the example's 12 went unsaid)
    d = json.loads(cli("report", str(ROOT / "runs" / "example" / "rag-dev-v1.json"), "--json")[1])["diagnosis"]
    assert (d["failing"], d["undiagnosed"], d["cases"]) == (3, 9, 12), d
    assert "(9 without a verdict, a judge's left open or a call failed, not diagnosed)" in cli(
        "report", str(ROOT / "runs" / "example" / "rag-dev-v1.json"))[1]
    # (round 103) and named in every view, not in --json alone
    example = str(ROOT / "runs" / "example" / "rag-dev-v1.json")
    named = "rag-dev-01, rag-dev-02, rag-dev-03, rag-dev-05, rag-dev-07, rag-dev-08, rag-dev-09, rag-dev-10, rag-dev-12"
    assert f"  not diagnosed, without a verdict: {named}\n" in cli("report", example)[1]
    assert "Not diagnosed, without a verdict: `rag-dev-01`, `rag-dev-02`" in cli("report", example, "--markdown")[1]
    cli("report", example, "--html", str(project / "d.html"))
    page = (project / "d.html").read_text()
    assert "Not diagnosed, without a verdict: rag-dev-01, rag-dev-02, rag-dev-03, rag-dev-05" in page


def test_a_case_labelled_with_nothing_relevant_is_not_blamed_on_retrieval(project, cli):
    """From the attack on issue 30: context [] and relevant [] (nothing relevant exists) was blamed on
    the retriever ('no passage retrieved'); its precision was 0 and pulled the mean down."""
    path = diagnosed_run(project, [("e1", [], [], (True, claims_raw()), False),     # nothing to find: the task's
                                   ("e2", passages("x"), [], (True, claims_raw()), False),
                                   DIAGNOSED[0]], name="e.json")
    s = json.loads(cli("report", path, "--json")[1])
    assert s["diagnosis"]["retrieval"] == ["d1"] and s["diagnosis"]["task"] == ["e1", "e2"]
    assert {c["id"]: c["precision"] for c in s["retrieval"]["cases"]} == {"e1": None, "e2": None, "d1": 0.0}
    assert s["retrieval"]["precision"] == 0.0 and s["retrieval"]["precision_cases"] == 1


def ratings_raw(*items):
    return json.dumps({"passages": [{"id": i, "relevant": ok} for i, ok in items], "reason": "r"})


def test_judged_precision_counts_a_case_that_retrieved_nothing_as_zero(project, cli):
    """From the attack on issue 30: a case with no passages dropped out of 'Retrieval, judged' (its mean
    was over the others alone), though the labelled figures count none retrieved as 0."""
    check = [{"name": "context_relevant", "type": "context_relevant", "blocking": False}]
    specs = [{"id": "e1", "input": "q", "context": passages("a", "b"), "response": "x", "checks": check,
              "judges": [vote("context_relevant", True, ratings_raw(("a", True), ("b", False)))]},
             {"id": "e2", "input": "q", "context": [], "response": "x", "checks": check,
              "judges": [vote("context_relevant", False, ratings_raw())]}]
    path = write_run(project / "j.json", make_run(specs, labels=None, split="rag"))
    judged = json.loads(cli("report", path, "--json")[1])["retrieval_judged"]
    assert {c["id"]: c["precision"] for c in judged["by_case"]} == {"e1": 1.0, "e2": 0.0}
    assert judged["cases"] == 2 and judged["precision"] == 0.5


def test_judged_precision_is_the_mean_of_the_votes_precisions_as_the_verdict_reads_them(project, cli):
    """Round 110: three votes rating a, then b, then c alone relevant gave precisions 1, 1/2 and 1/3, so the check passed
    its 0.5 (two of three votes reach it); pooled by passage (no passage had most votes) the judged figure read 0. It is
    the mean of each readable vote's precision, as faithfulness reads its votes."""
    check = [{"name": "ctx", "type": "context_relevant", "value": 0.5, "blocking": True}]
    votes = [dict(vote("ctx", ok, ratings_raw(*[(i, i == pick) for i in "abc"])), vote=n)
             for n, (pick, ok) in enumerate((("a", True), ("b", True), ("c", False)), 1)]
    run = make_run([{"id": "v1", "input": "q", "context": passages("a", "b", "c"), "response": "x", "checks": check,
                     "judges": votes}], labels=None, split="rag")
    s = json.loads(cli("report", write_run(project / "v.json", run), "--json")[1])
    assert [(c["name"], c["passed"]) for c in s["checks"]] == [("ctx", 1)]
    assert s["retrieval_judged"]["by_case"] == [{"id": "v1", "check": "ctx", "precision": pytest.approx((1 + 1 / 2 + 1 / 3) / 3)}]


def rag_judge_stops_short(project, cli, fake, check, how, draft, votes=1):
    """A run of test_judge's RAG split, r1 and r2, judged by `check` alone (blocking), --judge-votes `votes`: r2's last
    vote stops before its last word, after `draft`, a verdict's JSON: stopped by Ollama for looping (how "repeat", the
    fault test_a_judge_stopped_for_repeating_itself_gives_no_verdict sends) or cut at its token limit (how "length":
    its prose runs past --judge-max-tokens 64). The run's path."""
    from test_judge import FAITHFUL, PASSAGES, rag_judge, write_rag_split
    split = write_rag_split(project)
    (project / "golden" / "ragtest" / "checks.json").write_text(json.dumps([{"type": check, "blocking": True}]))
    said = "Draft: " + draft + "\nBut wait, re-check" + " re-check" * 40
    plan = [None] * (votes - 1) + ["repeat:" + said if how == "repeat" else said]   # (the fake takes one a request)

    def of_r2(text):   # r2's judge of `check` (never the model): the faithful judge reads the answer, the other the passages
        return "question r2" in text and ("Answer to check:" in text if check == "faithful" else "Passages:" in text)

    def stopped(cid, normal):
        return plan.pop(0) or normal if how == "length" and cid == "r2" and plan else normal
    rag_judge(fake, lambda cid: stopped(cid, FAITHFUL[cid]),
              rated=lambda cid: stopped(cid, ratings_raw(*[(p["id"], n == 0) for n, p in enumerate(PASSAGES[cid])])))

    class StopsShort(dict):
        def get(self, text, default=None):
            return plan if how == "repeat" and text and of_r2(text) else default
        __getitem__ = get
    fake.faults_for = StopsShort()
    out = project / "runs" / f"{check}-{how}.json"
    code, _, err = cli("run", "--split", split, "--limit", 2, "--host", fake.url, "--judge-votes", votes,
                       "--judge-max-tokens", 64, "--out", out)
    assert code in (0, 1), err
    r2 = [v for v in load_json(out)["results"][1]["judges"] if v["check"] == check]
    assert len(r2) == votes and [(v["pass"], v["done_reason"]) for v in r2].count((None, how)) == 1, r2
    return out


@pytest.mark.parametrize("check, draft", [("faithful", claims_raw(("We ship to every EU country", True, "abroad"))),
                                          ("context_relevant", ratings_raw(("abroad", True)))])
def test_a_rag_judge_stopped_for_looping_gets_no_verdict_from_its_draft_when_read_again(project, cli, fake, check, draft):
    """138th round: a faithful or context_relevant vote Ollama stopped for looping was stored without a verdict, as the
    run said, but report read each RAG vote again from its raw output, and the draft before the loop passed it: 1/1,
    "gate passed", exit 0 on a verdict the judge never gave, and calibrate counted it as the judge's pass."""
    path = rag_judge_stops_short(project, cli, fake, check, "repeat", draft)
    code, out, err = cli("report", path, "--min-accuracy", 1)
    assert code == 2 and "gates not judged" in err and "gate passed" not in out + err, out + err
    s = json.loads(cli("report", path, "--json")[1])
    assert [(c["name"], c["passed"], c["total"], c["open"]) for c in s["checks"]] == [(check, 1, 1, 1)], s["checks"]
    Path("human.jsonl").write_text("".join(json.dumps({"id": cid, "check": check, "pass": ok}) + "\n"
                                           for cid, ok in (("r1", True), ("r2", False))))
    table = json.loads(cli("calibrate", "human.jsonl", path, "--json")[1])["checks"][check]
    assert (table["pairs"], table["undecided_answers"]) == (1, [{"id": "r2", "trial": 1}]), table   # left out


@pytest.mark.parametrize("how", ["repeat", "length"])
@pytest.mark.parametrize("votes", [1, 2])
def test_judged_precision_leaves_out_a_vote_stopped_short_of_its_verdict(project, cli, fake, how, votes):
    """138th round: "Retrieval, judged" read every context_relevant vote's ratings from its raw output, a vote cut at its
    token limit or stopped for looping too, which holds no verdict: a draft rating r2's one passage not relevant gave it
    0 (the mean 50%) where its judge gave none (r2 left out) or another vote of it rated the passage relevant (1)."""
    path = rag_judge_stops_short(project, cli, fake, "context_relevant", how, ratings_raw(("abroad", False)), votes)
    judged = json.loads(cli("report", path, "--json")[1])["retrieval_judged"]
    assert {c["id"]: c["precision"] for c in judged["by_case"]} == ({"r1": 1.0, "r2": 1.0} if votes == 2 else {"r1": 1.0})
    assert (judged["cases"], judged["precision"]) == (votes, 1.0), judged


@pytest.mark.parametrize("how", ["repeat", "length"])
def test_a_faithful_vote_stopped_short_of_its_verdict_names_no_claim_of_its_draft(project, cli, fake, how):
    """138th round: the claims of a faithful vote cut at its token limit or stopped for looping, which holds no verdict,
    were averaged and listed with a readable vote's: r2 failing on "Shipping is free" (1 of its 2 claims supported) read
    "25% of its claims supported" on the page, and the diagnosis and report --case named the draft's claims unsupported."""
    draft = claims_raw(("Draft claim one", False, None), ("Draft claim two", False, None))
    path = rag_judge_stops_short(project, cli, fake, "faithful", how, draft, votes=2)
    s = json.loads(cli("report", path, "--json")[1])
    assert s["diagnosis"]["why"] == {"r2": "unsupported: Shipping is free"}, s["diagnosis"]
    shown = json.loads(cli("report", path, "--case", "r2", "--json")[1])["trials"][0]["unsupported"]
    assert [c["claim"] for c in shown] == ["Shipping is free"], shown
    cli("report", path, "--html", "rag.html")
    page = Path("rag.html").read_text(encoding="utf-8")
    assert "faithful: 50% of its claims supported; unsupported: Shipping is free (" in page and "Draft claim" not in page


def test_a_set_without_passages_has_no_diagnosis(hand_run, cli):
    assert "diagnosis" not in json.loads(cli("report", hand_run, "--json")[1])


def test_hostile_passage_ids_and_claims_reach_no_terminal_raw(project, cli):
    """A judge's claims and the ids it cites come from a model: escaped wherever text shows them.
    Passage ids come from files, and are held at load to 1-64 letters, digits, _, . or - (a run file
    too), so a hostile one is refused, never shown."""
    evil = "\x1b[2J\u202eevil"
    cases = [("h1", passages("x"), ["r"], (False, claims_raw((f"claim {evil}", True, evil))), True),
             ("h2", passages("r"), ["r"], (False, claims_raw((f"claim {evil}", False, None))), True)]
    a = diagnosed_run(project, cases, name="h.json")
    b = diagnosed_run(project, [(cases[0][0], passages("r"), *cases[0][2:]), cases[1]], name="h2.json")
    for argv in (("report", a), ("report", a, "--case", "h1"), ("report", a, "--case", "h2"), ("compare", a, b)):
        code, out, err = cli(*argv)
        assert code == 0 and "\x1b" not in out + err and "\u202e" not in out + err, argv
        assert "\\x1b[2J\\u202eevil" in out or argv[0] == "compare", argv
    bad = diagnosed_run(project, [("h3", passages(evil), [evil], (False, claims_raw()), True)], name="h3.json")
    code, out, err = cli("report", bad)
    assert code == 2 and "must be 1 to 64 ASCII letters" in err and "\x1b" not in out + err, err


def test_a_tool_name_or_case_id_with_a_line_break_stays_on_its_line_in_every_text_view(project, cli, fake):
    """Issue 28 (fourth attack), item 4: a tool name a server sent with a line break printed a forged
    line in report --case's transcript and in compare's trajectory changes, and the first-failure
    table collapsed the break to a space, hiding it. Each is shown escaped, on its line."""
    from test_run import AGENT_CASE, ASK, agent_split
    name, case_id = "lookup_order\n  Accuracy: 100%\x1b[31m", "a1\nFORGED id"
    split = agent_split(project, dict(AGENT_CASE, id=case_id))
    fake.agents[ASK] = [[(name, {"order_id": "A-1"})], "Hecho."]
    assert cli("run", "--split", split, "--host", fake.url, "--out", "runs/a.json")[0] == 0
    fake.agents[ASK] = ["Hecho."]
    assert cli("run", "--split", split, "--host", fake.url, "--out", "runs/b.json")[0] == 0
    shown, quoted = "lookup_order\\n  Accuracy: 100%\\x1b[31m", '"lookup_order\\n  Accuracy: 100%\\x1b[31m"'
    for argv in (("report", "runs/a.json"), ("report", "runs/a.json", "--case", case_id),
                 ("compare", "runs/a.json", "runs/b.json"), ("compare", "runs/a.json", "runs/b.json", "--markdown")):
        code, out, err = cli(*argv)
        assert code == 0, err
        # (126th round) the first failure's call names its tool as the tool table does: quoted, a name of a line break
        assert (quoted if argv == ("report", "runs/a.json") else shown) in out and "a1\\nFORGED id" in out, (argv, out)
        assert not [line for line in out.splitlines() if line.lstrip().startswith(("Accuracy", "FORGED"))], (argv, out)
    report = cli("report", "runs/a.json")[1]
    first = report.split("First failure of each failing case", 1)[1].splitlines()[2]
    assert first.startswith('  a1\\nFORGED id  1     "lookup_order\\n  Accuracy'), first   # escaped, not collapsed
    assert f"    calls {shown}({{\"order_id\": \"A-1\"}})" in cli("report", "runs/a.json", "--case", case_id)[1]


def test_a_tool_name_with_a_control_character_is_escaped_alike_in_the_tool_table_and_the_failures(project, cli, fake):
    r"""133rd round: a tool name "a\x1bb" showed as "a\u001bb" (JSON's escape) in report's agent table and first
    failures, but as a\x1bb in --case and compare, where README says text from a server shows its controls as
    \x1b. Every view now writes the one escape."""
    from test_run import AGENT_CASE, ASK, agent_split
    split = agent_split(project, AGENT_CASE)
    fake.agents[ASK] = [[("a\x1bb", {"order_id": "A-1"})], "Hecho."]
    assert cli("run", "--split", split, "--host", fake.url, "--out", "runs/a.json")[0] == 0
    code, out, err = cli("report", "runs/a.json")
    assert code == 0 and "\\u001b" not in out + err and "\x1b" not in out, out
    assert '\n  "a\\x1bb"  1      1      1' in out and '  a1  1     "a\\x1bb"({"order_id": "A-1"})' in out, out
    assert 'called a tool the case does not have ("a\\x1bb")' in out, out
    # (as --case names the call; the tool's own answer, JSON the model was sent, is shown as it is)
    assert '    calls a\\x1bb({"order_id": "A-1"})' in cli("report", "runs/a.json", "--case", AGENT_CASE["id"])[1]


def test_a_check_name_with_a_control_character_is_escaped_alike_in_every_view(project, cli):
    r"""133rd round: a check named "\x1b[31mred" (checks.json) showed as "\u001b[31mred" (JSON's escape) in report's text
    and its page, but as \x1b[31mred in --markdown and compare's page, where README shows a file's text as \x1b. Its
    name goes the way fc77639 gave tool names (name_cell: in_quotes, its controls to on_one_line) in every view."""
    from conftest import AGENT_CHECKS, agent_spec
    check = {"name": "\x1b[31mred", "type": "tool_called", "value": "lookup_order", "blocking": True}
    paths = [write_run(f"runs/{name}.json", make_run([agent_spec("n1", calls, checks=[check, AGENT_CHECKS[3]])], labels=None,
                                                     split="agent-dev", max_turns=3))
             for name, calls in (("a", [("lookup_order", {"order_id": "A-1"}, True)]), ("b", []))]
    shown = []
    for argv in (("report", paths[1]), ("report", paths[1], "--markdown"), ("report", paths[1], "--case", "n1")):
        code, out, err = cli(*argv)
        assert code == 0 and "\\x1b[31mred" in out, (argv, out, err)
        shown.append(out)
    for argv in (("report", paths[1]), ("compare", *paths)):
        assert cli(*argv, "--html", f"{argv[0]}.html")[0] == 0
        shown.append(Path(f"{argv[0]}.html").read_text(encoding="utf-8"))
        assert "\\x1b[31mred" in shown[-1], shown[-1]
    assert not [out for out in shown if "\\u001b" in out or "\x1b" in out]


def test_a_case_id_with_a_line_break_stays_on_its_line_in_flaky_cases_and_gate_verdicts(project, cli):
    """Issue 28 (fourth attack), item 4, the same class: the flaky cases of a run with trials and a
    gate's verdict ("GATE FAILED: 1 regression(s): ...", on stderr and closing the markdown) named a
    case id raw, its line break a forged line of its own."""
    evil = "c1\nFORGED id"
    base = write_run("runs/a.json", make_run([{"id": evil, "expected": "bug", "response": ["bug", "acceso", "bug"]},
                                              {"id": "c2", "expected": "bug", "response": "bug"}]))
    cand = write_run("runs/b.json", make_run([{"id": evil, "expected": "bug", "response": "acceso"},
                                              {"id": "c2", "expected": "bug", "response": "bug"}]))
    for argv in (("report", base), ("compare", base, cand, "--fail-on-regression"),
                 ("compare", base, cand, "--markdown", "--fail-on-regression")):
        code, out, err = cli(*argv)
        assert code in (0, 1) and "c1\\nFORGED id" in out + err, (argv, out, err)
        assert not [line for line in (out + err).splitlines() if "FORGED" in line and "c1" not in line], (argv, out, err)
    assert "  c1\\nFORGED id (expected bug): bug | acceso | bug" in cli("report", base)[1]
    assert "GATE FAILED: 1 regression(s): c1\\nFORGED id" in cli("compare", base, cand, "--fail-on-regression")[2]
    # (round 108) closing the markdown, the ids a gate names are code: "@octocat" mentioned a user, "http://..." linked
    for mention in ("@octocat", "http://evil.example/a_b_"):
        base = write_run("runs/m1.json", make_run([{"id": mention, "expected": "bug", "response": "bug"}]))
        cand = write_run("runs/m2.json", make_run([{"id": mention, "expected": "bug", "response": "acceso"}]))
        out = cli("compare", base, cand, "--markdown", "--fail-on-regression")[1]
        assert out.rstrip().endswith(f"**GATE FAILED:** `1 regression(s): {mention}`"), out


def test_markdown_never_mentions_or_links_a_difficulty_a_checks_name_or_a_doubtful_id(project, cli):
    """Round 136: report --markdown gave a difficulty, a failed check's name and a doubtful verdict's case id as escaped
    text, which GitHub renders and then acts on: "@octocat" mentioned a user, "https://..." was a live link, "#12"
    referenced an issue. What md_text escapes, each word GitHub would link or mention is quoted as code."""
    name = f"helps {LINKED}"
    checks = [{"name": name, "type": "judge", "value": "c", "blocking": True}]
    no_verdict = vote(name, None) | {"error": "HTTP 500: boom", "raw": None}
    path = write_run("runs/l.json", make_run([
        {"id": "c1", "response": "r", "difficulty": f"hard {LINKED}", "checks": checks, "judges": [vote(name, False)]},
        {"id": f"c2 {LINKED}", "response": "r", "checks": checks, "judges": [no_verdict]}], labels=None))
    md = cli("report", path, "--markdown")[1]
    assert "**Failures (1):** `c1` (hard `@octocat` `@org/team` `https://evil.example/x` `www.evil.example`" in md, md
    assert "Doubtful verdicts, for a person to check (1):** c2 `@octocat`" in md, md
    assert github_linked(md) == [], md


def test_markdown_never_typesets_math_and_leaves_a_word_with_gh_inside_as_text(project, cli):
    """Round 136, after the fix above: a difficulty "$\\color{red}{\\Huge\\textsf{ALL PASS}}$" was escaped text, which GitHub
    typesets as math, its backslash escapes gone: huge red words in a pull request's comment; and "high-1", "weigh-2" were
    quoted as code as if GH-1 (a reference only at a word's start). A word with a $ is code; those stay text."""
    path = write_run("runs/m.json", make_run([{"id": "c1", "expected": "bug", "response": "acceso",
                                               "difficulty": f"{MATH} high-1 weigh-2 GH-7"}, ("c3", "bug", "bug")]))
    md = cli("report", path, "--markdown")[1]
    assert "`c1` (`$\\color{red}{\\Huge\\textsf{ALL` `PASS}}$` `$$x^2$$` high-1 weigh-2 `GH-7`: expected bug" in md, md
    assert github_linked(md) == [], md


def test_report_markdown_quotes_the_ids_of_its_diagnosis_as_code(project, cli):
    """Issue 28 (fourth attack), item 3, the same class: the markdown diagnosis table put each case id
    between single backticks, so an id holding one closed the span and the rest rendered as markup."""
    evil = "d`1\n# HEAD " + MARKUP
    path = diagnosed_run(project, [(evil, *DIAGNOSED[1][1:]), DIAGNOSED[0]], name="evil.json")
    code, md, err = cli("report", path, "--markdown")
    assert code == 0 and "Diagnosis" in md, err
    acted = markdown_acted_on(md)
    assert all("[" not in line and "<" not in line and "*b*" not in line and "_i_" not in line for line in acted), md
    assert "d`1\\n# HEAD" in md
    table = [line for line in md.splitlines() if line.startswith("| retrieval ")]
    assert table and all(line.count("|") - line.count("\\|") == 5 for line in table), table


def test_a_rag_set_where_every_case_passes_has_an_empty_diagnosis(project, cli):
    """Regression: the diagnosis's table of failing cases broke the report when there were none."""
    path = diagnosed_run(project, [DIAGNOSED[4]], name="all-pass.json")
    code, out, err = cli("report", path)
    assert code == 0, err
    assert out.rstrip().endswith("Diagnosis: 0 failing of 1 RAG case, by the stage to fix (retrieval, then generation, "
                                 "then the task: the README's \"The diagnosis\"):\n  stage       cases  what to change"
                                 "\n  retrieval   0      the retriever: its embedding, query or chunking (a relevant "
                                 "passage missing, or none retrieved)\n  generation  0      how the model uses the "
                                 "passages: it invents or ignores them (unfaithful); the prompt's grounding rules, or "
                                 "the model\n  task        0      the prompt or the task's definition: faithful to good "
                                 "passages, yet not answering the question\n  unclear     0      look at these by hand: "
                                 "no failed stage is known (a judge without a verdict, a judge and the labels disagreeing, or "
                                 "no RAG check failed)")


def test_a_line_break_from_a_server_or_a_run_file_never_starts_a_line_of_its_own(project, cli):
    """From the attack on issue 28: inert() escaped ESC but not a line break, so a server's error
    body, a judge's reason or error, and a run file's model or prompt printed a flush-left fake
    headline in report, a fake line in report --case and a fake row in runs."""
    forged = "\nAccuracy: 100% (forged)\u2028Accuracy: 100%"
    check = [{"name": "greets", "type": "judge", "value": "greets politely", "blocking": True}]
    vote = {"check": "greets", "model": "j" + forged, "vote": 1, "seed": 42, "prompt_tokens": None, "completion_tokens": None}
    judged = [{**vote, "pass": True, "raw": "{}", "reason": "fine" + forged, "error": None}]
    failed = [{**vote, "pass": None, "raw": None, "reason": None, "error": "HTTP 500: busy" + forged}]
    run = make_run([{"id": "c1", "response": None, "error": "HTTP 500: busy" + forged, "checks": check},
                    {"id": "c2", "response": "hola", "judges": judged, "note": "n" + forged, "checks": check},
                    {"id": "c3", "response": "hola", "judges": failed, "checks": check}],
                   labels=None, model="m" + forged, prompt="prompts/v9" + forged, split="tickets" + forged)
    path = write_run("runs/x.json", run)
    shown = [cli("report", path), cli("report", path, "--case", "c2"), cli("report", path, "--case", "c3"),
             cli("report", path, "--case", "c1"), cli("runs", "runs")]
    for code, out, err in shown:
        assert code in (0, 2), err
        # (escaped: \n in text, $'\x0a' in a command to paste, the judge it names)
        assert not [line for line in (out + err).splitlines() if "Accuracy: 100%" in line and "\\n" not in line
                    and "\\x0a" not in line], out
    assert "busy\\nAccuracy: 100% (forged)\\u2028Accuracy: 100%" in shown[0][1], shown[0]
    assert "fine\\nAccuracy" in shown[1][1] and "busy\\nAccuracy" in shown[2][1] and "n\\nAccuracy" in shown[1][1]
    assert len(shown[4][1].splitlines()) == 2   # the heading and one row


def test_a_case_id_with_a_line_break_never_starts_a_line_of_its_own(project, cli):
    """From the second attack on issue 28: compare listed "Fixed (1): a1" and report --case's "did you
    mean" named an id holding a line break raw, so the rest of the id printed as a line of its own."""
    forged = "a1\nFORGED line\u2028FORGED2\u2029FORGED3"
    before = write_run("runs/a.json", make_run([(forged, "bug", "acceso"), ("a2", "bug", "bug")]))
    after = write_run("runs/b.json", make_run([(forged, "bug", "bug"), ("a2", "bug", "acceso")]))
    shown = [cli("compare", before, after), cli("compare", after, before), cli("report", before, "--case", forged.replace("\n", " ")),
             cli("report", before), cli("report", before, "--markdown")]
    for code, out, err in shown:
        assert code in (0, 1, 2), err
        assert not [line for line in re.split("[\n\u2028\u2029]", out + err) if line.lstrip(" `|*").startswith("FORGED")], out + err
    assert "Fixed (1): $'a1\\nFORGED line\\u2028FORGED2\\u2029FORGED3'" in shown[0][1], shown[0][1]
    assert "Regressions (1): $'a1\\nFORGED line" in shown[1][1]
    assert "did you mean $'a1\\nFORGED line" in shown[2][2]


def test_a_case_id_with_a_line_break_is_one_line_in_the_lists_of_stopped_answers(project, cli):
    """From the self-attack on the second attack on issue 28: "Cut off by the token limit: 1 (ID)"
    named the answers raw (which()), so an id's line break forged a line of its own."""
    forged = "a1\nFORGED line\u2028FORGED2"
    run = write_run("runs/a.json", make_run([{"id": forged, "expected": "bug", "response": "bu", "done_reason": "length"},
                                             ("a2", "bug", "bug")]))
    out = cli("report", run)[1]
    assert not [line for line in out.replace("\u2028", "\n").splitlines() if line.lstrip().startswith("FORGED")], out
    assert "(a1\\nFORGED line\\u2028FORGED2)" in out, out


def test_check_names_expected_text_ids_and_difficulty_never_start_a_line_of_their_own(project, cli):
    """From the third attack on issue 28: a check's name, a case's expected text, id and difficulty
    from the split were printed raw in the "Scored with" line and in report --case (its heading,
    its "Trial 1 (name pass)" line), so a line break in one printed a forged line."""
    run = make_run([{"id": "c1\nFORGEDid", "expected": "hola\nFORGEDexp", "difficulty": "easy\u2028FORGEDd",
                     "response": "hola", "checks": [{"name": "greets\nFORGEDname", "type": "contains", "value": "hola"}]},
                    {"id": "c2", "response": "hola", "difficulty": "easy\nFORGEDd2",
                     "checks": [{"name": "greets\u2028FORGEDname2", "type": "contains", "value": "zzz"}]}], labels=None)
    path = write_run("runs/t.json", run)
    code, out, err = cli("report", path)
    assert code == 0, err
    code, case, err = cli("report", path, "--case", "c1\nFORGEDid")
    assert code == 0, err
    assert case.startswith("Case c1\\nFORGEDid (easy\\u2028FORGEDd) passes; expected hola\\nFORGEDexp\n"), case
    assert 'Trial 1 ("greets\\nFORGEDname" pass)' in case   # (121st round: quoted, as a name with a line break is in lists)
    for text in (out, case):
        assert not [line for line in re.split("[\n\u2028\u2029]", text) if line.startswith("FORGED")], text


@pytest.mark.parametrize("argv, flag", [
    (["report", "RUN", "--checks="], "--checks"), (["report", "RUN", "--case="], "--case"),
    (["report", "RUN", "--must-pass="], "--must-pass"), (["review", "RUN", "--against="], "--against"),
    (["compare", "RUN", "RUN2", "--pairwise", "which?", "--judge-model="], "--judge-model"),
    (["judge", "RUN", "--host="], "--host"),
])
def test_an_empty_option_value_is_refused_naming_its_flag(project, cli, fake, argv, flag):
    """From the fourth attack on issue 28, item 7: `report --checks=` and `--case=` printed the plain
    report, `review --against=` reviewed without one: an empty value was dropped in silence."""
    run = write_run("runs/s-v2.json", make_run(hand_cases(), prompt="prompts/v2.txt", host=fake.url))
    other = write_run("runs/s-v3.json", make_run(hand_cases(), prompt="prompts/v3.txt", host=fake.url))
    code, out, err = cli(*[{"RUN": run, "RUN2": other}.get(a, a) for a in argv])
    assert code == 2 and f"{flag} '' names nothing" in err and len(err.splitlines()) == 1, err
    assert out == "" and fake.chat_bodies == []


@pytest.mark.parametrize("argv, flag", [
    (["compare", "RUN", "RUN2", "--pairwise", "\udcff which?"], "--pairwise"), (["report", "RUN", "--case", "dev\udcff"], "--case"),
    (["run", "--split", "dev", "--model", "m\udce9"], "--model"), (["judge", "RUN", "--judge-model", "\udcff"], "--judge-model"),
])
def test_a_value_that_is_not_utf8_is_refused_naming_its_flag_and_byte(project, cli, fake, argv, flag):
    """Round 91 on issue 28: `compare --pairwise $'\\xff'` sent the criterion to the judge and stored it as half a
    character in the verdicts file, which no strict JSON reader takes; --model, --case named the value as '\\udcff'."""
    run = write_run("runs/s-v2.json", make_run(hand_cases(), prompt="prompts/v2.txt", host=fake.url))
    other = write_run("runs/s-v3.json", make_run(hand_cases(), prompt="prompts/v3.txt", host=fake.url))
    code, out, err = cli(*[{"RUN": run, "RUN2": other}.get(a, a) for a in argv], *(["--host", fake.url] if argv[0] != "report" else []))
    assert code == 2 and err.startswith(f"error: {flag} $'") and "\\x" in err and "not valid UTF-8" in err, err
    assert "udc" not in err and fake.chat_bodies == [] and not [p for p in os.listdir("runs") if "pairwise" in p]


@pytest.mark.parametrize("argv, says", [(["report", ""], "report: run '' names nothing"),
                                        (["compare", "RUN", " "], "compare: candidate ' ' names nothing"),
                                        (["runs", ""], "runs: folder '' names nothing"),
                                        (["init", ""], "init: DIR '' names nothing")])
def test_an_empty_positional_value_is_named(project, cli, fake, argv, says):
    """Item 7 of the fourth attack on issue 28, the class: `report "$RUN"` with RUN unset said
    "error: : no such run file"."""
    run = write_run("runs/s-v2.json", make_run(hand_cases(), prompt="prompts/v2.txt", host=fake.url))
    code, out, err = cli(*[run if a == "RUN" else a for a in argv])
    assert code == 2 and err == f"error: {says}\n" and out == "", err


def test_label_figures_count_every_answered_case_when_a_judge_check_is_undecided(project, cli, fake):
    """Newcomer pass (issue 31): with a judge check added by report --checks, the baseline and the
    per-label figures were worked out on the decided cases alone, which were exactly the label
    failures: "Majority baseline: 2/2 = 100%" for 8 answered cases."""
    fake.answers = answer_key("golden/dev.jsonl", {"dev-01": "acceso", "dev-02": "bug"})
    assert cli("run", "--split", "dev", "--host", fake.url, "--out", "runs/r.json")[0] == 0
    plain = json.loads(cli("report", "runs/r.json", "--json")[1])
    Path("golden/checks.json").write_text(json.dumps([{"name": "polite", "type": "judge", "value": "es amable"}]))
    code, out, err = cli("report", "runs/r.json", "--checks", "dev", "--json")
    assert code == 0, err
    s = json.loads(out)
    assert s["scored"] == 2   # the label failures; the rest wait for a judge
    assert s["baseline"] == plain["baseline"] and s["baseline"]["total"] == 28
    assert s["per_label"] == plain["per_label"] and s["confusion"] == plain["confusion"]
    text = cli("report", "runs/r.json", "--checks", "dev")[1]
    assert f"Majority baseline (always '{s['baseline']['label']}'): {s['baseline']['correct']}/28" in text


def test_a_run_where_every_call_failed_names_the_checks_it_is_scored_with(project, cli, fake):
    """Newcomer pass N14: a run where every call failed said "Scored with 0 checks", as though the
    split had none; it names the split's checks, with the same hash a run with answers has."""
    fake.faults = ["500"] * 40
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--retries", "0", "--limit", "3")
    assert code == 2, err
    fake.faults = []
    code, good, err = cli("run", "--split", "dev", "--host", fake.url, "--limit", "3", "--out", "runs/ok.json")
    assert code == 0, err
    scored = [l for l in out.splitlines() if l.startswith("Scored with")]
    assert scored == [l for l in good.splitlines() if l.startswith("Scored with")]
    assert scored[0].startswith("Scored with 1 check (label; checks sha "), scored


@pytest.mark.parametrize("cut", ["on_one_line", "one_line"])
def test_text_cut_to_a_width_never_ends_inside_an_escape(cut):
    """From the fifth attack on issue 28 (item 7): on_one_line('abc\\ndef', 5) gave 'abc\\…', a lone
    backslash the name does not hold, half of the escape made for its line break (the call column of
    the agent first-failure table cuts at 50). An escape is kept whole or left out whole; one_line
    cuts what inert escaped before it the same way."""
    import re
    shown = {"on_one_line": evalpy.on_one_line, "one_line": lambda t, w: evalpy.one_line(evalpy.inert(t), w)}[cut]
    texts = ["abc\ndef", "ab\x1b[31mred", "x\u202eevil\u2028y", "\x00\x01\x02\x03" * 5, "a\\b\x9bc"]
    if cut == "one_line":   # one_line makes a space of a line break
        texts = [t.replace("\n", " ").replace("\u2028", " ") for t in texts]
    for text in texts:
        whole = shown(text, 10 ** 6)
        for width in range(1, len(whole) + 2):
            got = shown(text, width)
            assert len(got) <= width and (got == whole or got.endswith("…")), (text, width, got)
            kept = got[:-1] if got.endswith("…") and got != whole else got
            assert whole.startswith(kept), (text, width, got)
            # the cut falls between escapes: what is kept ends where one of the whole text's pieces ends
            ends = {0} | {m.end() for m in re.finditer(r"\\(?:x[0-9a-f]{2}|u[0-9a-f]{4}|n)|.", whole, re.S)}
            assert len(kept) in ends, (text, width, got)
    assert evalpy.on_one_line("abc\ndef", 5) == "abc…"
    # the same cut where a tab is escaped too: a refused --option, a model name a server listed
    assert evalpy.option_shown("k=ab\tc" + "x" * 9, 6) == "k=ab…" and evalpy.name_shown("ab\tcdefgh", 4) == '"ab…"'
    # (round 108) a server listing a model of no name: quoted, never nothing between two commas ("m, , n")
    assert evalpy.names_text(["m", "", "n"]) == 'm, "", n'
    # (its review: drawn blank too; round 123: escaped as a zero-width space is, shown so as m\u200b is)
    assert evalpy.names_text(["\u3164", "m\u2800", "m\u00ad"]) == '\\u3164, m\\u2800, "m\\xad"'


def test_a_character_above_uffff_is_escaped_whole_and_cut_whole():
    """From the sixth attack on issue 28, item 8: name_shown wrote U+E0041 (an invisible tag
    character) as \\ue0041, which reads as U+E004 then "1"; cut_to did not know such an escape and
    could cut inside it. It is \\U000e0041, kept whole or left out whole."""
    import re
    name = "m\U000e0041:latest"
    whole = evalpy.name_shown(name, 10 ** 6)
    assert whole == '"m\\U000e0041:latest"', whole
    pieces = {m.end() for m in re.finditer(r"\\U[0-9a-f]{8}|.", whole[1:-1], re.S)} | {0}
    for width in range(1, len(whole)):
        got = evalpy.name_shown(name, width)
        kept = got[1:-1].removesuffix("…")
        assert whole[1:-1].startswith(kept) and len(kept) in pieces, (width, got)
    # a shell word for it names the same file when pasted (bash's $'\U000e0041')
    assert evalpy.shell_word("a\U000e0001b") in ("$'a\\U000e0001b'", "'a\U000e0001b'")


@pytest.mark.parametrize("name", ["c\x85d.json", os.fsdecode(b"r\xff/x.json"), "a\x1bb", "t\tn\nx", "q'uo\\te",
                                  "u\u2028v", "a\U000e0001b", "bidi\u202eb", "caf\u00e9\x9b"])
def test_a_shell_word_pasted_into_bash_names_the_same_file(name):
    """From the thirteenth attack on issue 28, item 4: a C1 control (U+0085) was written \\x85, which
    bash reads as the one byte 0x85, not the character's C2 85; a byte of a name that is not UTF-8
    (os.fsdecode's U+DCFF) was written \\udcff, which bash makes ED B3 BF. Each named another file.
    Checked against bash itself: the word, pasted, gives the name's own bytes."""
    word = evalpy.shell_word(name)
    pasted = subprocess.run(["bash", "-c", f"printf %s {word}"], capture_output=True, timeout=10,
                            env={**os.environ, "LC_ALL": "C.UTF-8"}).stdout
    assert pasted == os.fsencode(name), (word, pasted)


def test_a_digest_with_its_algorithm_is_shortened_after_it():
    """Issue 28, seventeenth attack (minor): a digest sent as sha256:... was shown 'sha256:a', every one alike."""
    assert evalpy.short("sha256:643816e6f55a12d3") == "643816e6" and evalpy.short("643816e6f55a") == "643816e6"


def test_a_cut_answer_and_an_id_with_a_tab_keep_to_their_columns(project, cli):
    """81st attack on issue 28: an answer in Chinese was cut at 70 characters, 140 columns (a failing case's line ran
    to 187 where one in Latin letters took 117), and a case id holding a tab was printed raw, its row out of line."""
    import wcwidth
    for text in ("中" * 3000, "x" * 68 + "中中", "e\u0301" * 100, "订单" * 40 + "x"):
        cut = evalpy.on_one_line(text, 70)
        assert cut.endswith("…") and wcwidth.wcswidth(cut) <= 70 and text.startswith(cut[:-1]), cut
        assert wcwidth.wcswidth(cut) >= 68 or text.startswith("x" * 68), cut   # cut at the width, not short of it
    assert evalpy.on_one_line("中" * 35, 70) == "中" * 35   # 70 columns: whole
    # (82nd) a flag is never cut in two (one half of it took two columns, past the width)
    assert evalpy.on_one_line("🇪🇸" * 6, 4) == "🇪🇸…" and evalpy.every_character("🇪🇸" * 6, 5) == "🇪🇸🇪🇸…"
    run = make_run([{"id": "tab\t-6", "expected": "bug", "response": "中" * 3000},
                    {"id": "c2", "expected": "bug", "response": "x" * 5000},
                    {"id": "c3", "expected": "bug", "response": "bug"}])
    code, out, err = cli("report", write_run("runs/cut.json", run))
    assert "\t" not in out and "tab\\t-6" in out, out
    rows = [line for line in out.splitlines() if "中中" in line or "xxxx" in line]
    assert len(rows) >= 2 and max(map(wcwidth.wcswidth, rows)) - min(map(wcwidth.wcswidth, rows)) <= 1, rows


def test_a_table_keeps_its_columns_in_line_past_wide_and_combining_characters(project, cli):
    """A tag in Chinese (two columns a character on a terminal) pushed its row's figures two columns right of the
    others', and an accent written as a combining mark pulled them one left: columns are padded by what is shown."""
    run = make_run([{"id": "订单-01", "expected": "bug", "response": "bug", "tags": ["退款"]},
                    {"id": "c2", "expected": "bug", "response": "feature", "tags": ["cafe\u0301"]},
                    {"id": "c3", "expected": "bug", "response": "bug", "tags": ["bug"]}])
    out = cli("report", write_run("runs/wide.json", run))[1].splitlines()
    rows = out[out.index("By tag:") + 1:out.index("By tag:") + 4]
    # counted here as a terminal does: wcwidth's rules, two for East Asian wide, none for a combining mark
    def columns(text):
        return sum(0 if unicodedata.combining(ch) else 2 if unicodedata.east_asian_width(ch) == "W" else 1 for ch in text)
    assert [columns(row[:row.index("/")]) for row in rows] == [9, 9, 9], rows
    # (74th) against wcwidth, the terminals' own count: a decomposed Hangul syllable, a skin tone, a family joined by
    # zero-width joiners, a heart shown as an emoji, a flag, a soft hyphen, full-width letters
    import wcwidth
    for text in ("\u1100\u1161\u11a8", "👍🏽", "👨\u200d👩\u200d👧", "❤\ufe0f", "#\ufe0f\u20e3", "🇪🇸", "a\xadb", "ｆｕｌｌ",
                 "x\u0301\u0302", "订单", "\u200b", "\ud7b0\ud7c6", "\U0001f3fb", "\u0600",   # (75th) the last three
                 # (82nd) a flag cut in two, a variation selector after a letter, a skin tone after no emoji
                 "🇪", "🇪🇸🇪", "a\ufe0f" * 3, "ℹ\ufe0f", "中🏽", "🏽🏽", "☝🏽", "a🏽"):
        assert evalpy.shown_width(text) == wcwidth.wcswidth(text), text


def test_a_table_keeps_its_columns_where_a_character_is_printed_escaped(project, cli):
    """A terminal that prints ASCII alone (PYTHONIOENCODING=ascii) shows devolución's ó as \\xf3, four columns where one
    was padded for, and a tag with a zero-width space (printed \\u200b, six columns, where it was counted none) pushed
    its row's figures out of line: a cell is padded by the columns it takes as printed."""
    import sys
    run = make_run([{"id": "c1", "expected": "bug", "response": "bug", "tags": ["devolución"]},
                    {"id": "c2", "expected": "bug", "response": "feature", "tags": ["bu\u200bg"]},
                    {"id": "c3", "expected": "bug", "response": "bug", "tags": ["entrega"]}])
    path = write_run("runs/narrow.json", run)
    for env in ({"PYTHONIOENCODING": "ascii"}, {"PYTHONIOENCODING": "utf-8"}):
        done = subprocess.run([sys.executable, str(ROOT / "eval.py"), "report", path], cwd=project, capture_output=True,
                              env={**os.environ, **env})
        out = done.stdout.decode("utf-8").splitlines()
        rows = out[out.index("By tag:") + 1:out.index("By tag:") + 4]
        assert any("devoluci" in row for row in rows) and any("\\u200b" in row for row in rows), rows
        import wcwidth
        assert len({wcwidth.wcswidth(row[:row.index("/")]) for row in rows}) == 1, (env, rows)


def test_a_command_to_paste_on_an_ascii_terminal_names_its_file_as_bash_reads_it(project):
    """120th round's outside try: on a terminal that prints ASCII alone (PYTHONIOENCODING=ascii) a command printed to
    paste quoted a name past ASCII as '...\\xf1...' (backslashreplace inside shlex's quotes), which bash reads as those
    four characters: pasted, compare --pairwise asked every call again under another criterion. Such a word is
    bash's $'...' with the character as its \\u escape."""
    import subprocess
    import sys
    done = subprocess.run([sys.executable, str(ROOT / "eval.py"), "report", "runs/añoñ.json"], cwd=project,
                          capture_output=True, env={**os.environ, "PYTHONIOENCODING": "ascii"})
    err = done.stderr.decode("ascii")
    assert done.returncode == 2 and "$'runs/a\\u00f1o\\u00f1.json'" in err and "\\xf1" not in err, err
    word = err.split("--out ")[1].split("`")[0]
    assert subprocess.run(["bash", "-c", f"printf %s {word}"], capture_output=True).stdout.decode() == "runs/añoñ.json"


def test_an_answer_still_thinking_is_told_from_an_empty_one_and_an_invalid_one_is_seen_whole(project, cli):
    """Round 105's attack on the views of the answer scored: an answer still thinking when it stopped and an empty one
    were both "" (JSON, the table, the flaky lines); a flaky line printed a soft hyphen raw ("bu­g", read as bug) and
    a line break as a space, where the failures table shows every character; the page said "the answer is what follows"
    of a <think> never closed."""
    path = write_run("runs/t.json", make_run([("shy", "bug", ["<think>x</think>bu\u00adg", "bug"]),
                                              ("open", "bug", ["<think>hmm", "bug"]), ("empty", "bug", "<think>x</think>"),
                                              ("cut", "bug", "<think>hmm")]))
    out = cli("report", path)[1]
    assert 'shy (expected bug): INVALID "bu\\xadg" | bug' in out, out
    assert "open (expected bug): INVALID (no answer: still thinking when it stopped) | bug" in out
    rows = {line.split()[0]: line for line in out.split("Failures (", 1)[1].splitlines() if line.startswith("  ")}
    assert rows["cut"].endswith("(no answer: still thinking when it stopped)") and "still thinking" not in rows["empty"]
    doc = json.loads(cli("report", path, "--json")[1])
    answers = {f["id"]: f["answer"] for f in doc["failures"]}
    assert answers["cut"] is None and answers["empty"] == ""
    assert cli("report", path, "--html", "p.html")[0] in (0, 1)
    assert "reasoning inline never closed (no answer: still thinking when it stopped)" in Path("p.html").read_text(encoding="utf-8")


def test_thinking_sent_apart_that_its_server_stopped_looping_is_no_answer(project, cli):
    """127th round: reasoning sent apart that looped till the server stopped it (Ollama's stop for repeating, vLLM's
    "repetition"), content "", was scored as an empty answer: a not_regex passed it, a judge was asked of it. No answer,
    as the same loop inline is, and said as a loop, not the token limit."""
    check = [{"name": "no refund", "type": "not_regex", "value": "reembolso", "blocking": True}]
    path = write_run("runs/l.json", make_run([
        {"id": "apart", "response": "", "thinking": "wait " * 50, "done_reason": evalpy.REPEAT_STOP, "checks": check},
        {"id": "inline", "response": "<think>" + "wait " * 50, "done_reason": evalpy.REPEAT_STOP, "checks": check},
        {"id": "fine", "response": "Hola", "checks": check}], labels=None))
    out = cli("report", path)[1]
    assert out.startswith("Pass rate: 1/3 "), out
    doc = json.loads(cli("report", path, "--json")[1])
    assert [u["id"] for u in doc["unfinished_thinking"]] == ["apart", "inline"], doc["unfinished_thinking"]
    assert doc["repeating"] == [] and "scored as it stands" not in out, out   # (its review: no answer, none scored)
    assert "or its server stopped it looping there (report --case says which; a temperature or a repetition penalty " \
           "may help)" in out, out   # (its newcomer: the loop's cure, which the repeats' line gave, kept)
    assert "answer: none (still thinking when it stopped: its server stopped it looping inside its thinking)" in \
        cli("report", path, "--case", "apart")[1]
    assert cli("report", path, "--html", "l.html")[0] in (0, 1)
    assert "thinking stopped by its server for looping (no answer: still thinking when it stopped)" in \
        Path("l.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("api, limit", [("ollama", "num_predict"), ("openai", "max_tokens")])
def test_inline_thinking_a_stop_sequence_ended_is_not_blamed_on_the_token_limit(project, cli, api, limit):
    """134th round: reasoning inline a stop string ended (--option stop="\\n\\n" fired inside it: done_reason "stop",
    7 tokens of num_predict 2048; over /v1 finish_reason "stop") was said "the token limit fell inside it (raise
    num_predict...), or its server stopped it looping there (report --case says which...)", and report --case named
    neither: both untrue, and raising the limit cured nothing. It is said as what ended it; a cut one keeps its cause."""
    path = write_run("runs/s.json", make_run([
        {"id": "c01", "expected": "bug", "response": "<think>\nOkay, the customer", "done_reason": "stop"},
        {"id": "c02", "expected": "bug", "response": "<think>\nOkay, the", "done_reason": "length"}],
        api=api, options={"stop": ["\n\n"], limit: 2048}))
    out = cli("report", path)[1]
    line = next(line for line in out.splitlines() if line.startswith("Thinking never finished: 2 (c01, c02)"))
    assert ": the token limit fell inside it (raise " + limit in line and "; c01: a stop sequence (--option stop) " \
        "or the model's own end came inside it, not the token limit" in line and "report --case says which" in line, line
    said = {case: cli("report", path, "--case", case)[1] for case in ("c01", "c02")}
    assert "answer: none (still thinking when it stopped: a stop sequence (--option stop) or the model's own end came " \
           "inside its thinking" in said["c01"], said["c01"]
    assert "answer: none (still thinking when it stopped: the token limit fell inside its thinking)" in said["c02"]
    write_run(path, make_run([{"id": "c01", "expected": "bug", "response": "<think>\nOkay", "done_reason": "stop"}],
                             api=api))
    line = next(line for line in cli("report", path)[1].splitlines() if line.startswith("Thinking never finished"))
    assert "token limit fell" not in line and "looping" not in line and "report --case says which" not in line, line


def test_thinking_never_closed_whose_server_said_no_done_reason_is_given_no_invented_cause(project, cli, fake):
    """140th round: an Ollama whose answer is done but says no done_reason (before v0.1.35, or a reason it leaves out as
    empty) ended inline reasoning never closed: the header said "the token limit fell inside it (raise num_predict...),
    or its server stopped it looping there", and an agent's first failure "(raise num_predict...)": causes no server
    named. The reason is said to be unknown; a cut one beside it keeps its cause."""
    fake.done_reason_sent = False
    fake.answers = answer_key("golden/dev.jsonl", {"dev-01": "<think>\nOkay, the customer"})
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--limit", 1, "--out", "runs/u.json")
    assert code == 0 and load_json("runs/u.json")["results"][0]["done_reason"] is None, err
    line = next(line for line in out.splitlines() if line.startswith("Thinking never finished: 1 (dev-01)"))
    assert "token limit" not in line and "looping" not in line and "its server did not say what stopped it" in line, line
    write_run("runs/u.json", make_run([
        {"id": "c01", "expected": "bug", "response": "<think>\nOkay, the customer", "done_reason": None},
        {"id": "c02", "expected": "bug", "response": "<think>\nOkay, the", "done_reason": "length"}]))
    line = next(line for line in cli("report", "runs/u.json")[1].splitlines() if line.startswith("Thinking never"))
    assert "the token limit fell inside it (raise num_predict" in line and "; c01: its server did not say" in line, line
    write_run("runs/a.json", make_run([thinking_agent("n1", None)], labels=None, split="agent-dev", max_turns=3))
    doc = json.loads(cli("report", "runs/a.json", "--json")[1])
    assert [f["what"] for f in doc["agent"]["first_failures"]] == [
        "still thinking when it stopped: no answer; its server did not say what stopped it (no done_reason, or none "
        "that names a limit or a loop): look at it by hand (report --case)"], doc["agent"]


def test_runs_lists_an_unfinished_run_whose_name_has_no_json(project, cli, fake):
    """Round 105: `run --out runs/other` (no .json) stopped left runs/other.journal, which `runs` never listed ("no
    run files"), so its resume command was said nowhere. A journal or a judging of any name is listed."""
    import subprocess
    import sys
    import time
    fake.latency = 0.3
    proc = subprocess.Popen([sys.executable, str(ROOT / "eval.py"), "run", "--split", "dev", "--host", fake.url, "--jobs", "1",
                             "--out", "runs/other"], cwd=project, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    journal, deadline = project / "runs" / "other.journal", time.monotonic() + 30
    # killed once its first line is whole (135th round: killed a fixed 1 s after the file appeared, a loaded machine's run
    # could still be writing it, left as a run stopped before asking anything, with no resume to say)
    while not (journal.exists() and b"\n" in journal.read_bytes()):
        assert time.monotonic() < deadline and proc.poll() is None, "the run wrote no journal line"
        time.sleep(0.05)
    proc.kill()
    proc.wait()
    code, out, err = cli("runs", "runs")
    assert code == 0 and "runs/other.journal" in out and "run --resume runs/other" in out, out
    # (127th round) its name as a word to paste, as a finished run's: a line break and a backslash's n read alike
    import shutil
    shutil.copy("runs/other.journal", "runs/o\nther.journal")
    shutil.copy("runs/other.journal", "runs/o\\nther.journal")
    out = cli("runs", "runs")[1]
    assert "$'runs/o\\x0ather.journal'" in out and "'runs/o\\nther.journal'" in out, out


def test_runs_names_the_temp_file_and_lock_a_kill_during_the_final_write_left(project, cli, hand_run):
    """Round 107: killed between the run file's link and its temp file's unlink, eval.py left RUN.tmp-PID-THREAD (a
    second name of the whole run) and RUN.lock, which `runs` never named; only a write of that name again, which a
    finished run never has, removed the temp file."""
    import subprocess
    import sys
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True,
                          timeout=30).stdout.strip()
    temp = f"{hand_run}.tmp-{gone}-140000000000000"
    os.link(hand_run, temp)
    Path(hand_run + ".lock").write_text(gone)
    code, out, err = cli("runs", "runs")
    assert code == 0 and f"a temp file eval.py (process {gone}, gone) left while writing {hand_run}: remove it" in out, out
    assert "runs/s-v2.json.lock" in out and "a lock no eval.py on this machine holds" in out, out
    assert out.count("accuracy 4/7") == 1, out   # the temp file, a second name of the run, is no second run
    listed = {e["file"]: e for e in json.loads(cli("runs", "runs", "--json")[1])}
    assert "remove it" in listed[temp]["problem"] and "takes it" in listed[hand_run + ".lock"]["problem"]
    # (127th round) its pid another program's now (a reboot, the pids wrapped round): still named, and removed by the
    # next write of its name; one of a Python alive is left alone (it may be writing)
    sleeper = subprocess.Popen(["sleep", "30"])
    try:
        other = f"{hand_run}.tmp-{sleeper.pid}-2"
        os.link(hand_run, other)
        out = cli("runs", "runs")[1]
        assert f"a temp file eval.py (process {sleeper.pid}, gone) left while writing {hand_run}: remove it" in out, out
        mine = f"{hand_run}.tmp-{os.getpid()}-3"
        os.link(hand_run, mine)
        assert f"(process {os.getpid()}," not in cli("runs", "runs")[1]
        evalpy.remove_stale_temp_files(hand_run)
        assert not os.path.exists(other) and os.path.exists(mine)
    finally:
        sleeper.kill()
        sleeper.wait()


def test_a_run_file_saved_in_utf16_is_said_so_not_damaged(project, cli):
    """Round 105: a whole run file saved as UTF-16 (an editor's "Unicode") was "damaged or cut short ... restore it
    from a copy, or run it again"."""
    Path("runs").mkdir()
    Path("runs/u16.json").write_bytes(json.dumps(make_run([("c1", "bug", "bug")])).encode("utf-16"))
    code, out, err = cli("report", "runs/u16.json")
    assert code == 2 and err == ("error: runs/u16.json: a run file in UTF-16 (its byte-order mark says so), not the UTF-8 "
                                 "eval.py writes: save it as UTF-8\n"), err
    # (round 106) saved again as Latin-1, or with a byte-order mark: said so, never "damaged or cut short"
    text = json.dumps(make_run([("c1", "bug", "facturación")]), ensure_ascii=False)
    Path("runs/latin.json").write_bytes(text.encode("latin-1"))
    code, out, err = cli("report", "runs/latin.json")
    assert code == 2 and err.startswith("error: runs/latin.json: not valid UTF-8 (byte ") and "Latin-1" in err, err
    data = text.encode("utf-8")   # (its review) cut inside a character: cut short, not another encoding
    Path("runs/cut.json").write_bytes(data[:data.index("ó".encode()) + 1])
    code, out, err = cli("report", "runs/cut.json")
    assert code == 2 and "damaged or cut short" in err and "Latin-1" not in err, err
    Path("runs/bom.json").write_bytes(text.encode("utf-8-sig"))
    code, out, err = cli("report", "runs/bom.json")
    assert code == 2 and err == ("error: runs/bom.json: a run file that begins with a byte-order mark (BOM), which eval.py "
                                 "never writes: save it as UTF-8 without one\n"), err


def test_runs_lists_a_finished_run_whose_name_has_no_json(project, cli, fake):
    """Round 106: `run --out runs/other` (no .json) finished was never listed by `runs`, though report reads it. A
    file of any name that begins as a run does is listed; another file without .json is not."""
    assert cli("run", "--split", "dev", "--host", fake.url, "--out", "runs/other")[0] in (0, 1)
    (project / "runs" / "notes.txt").write_text("not a run\n", encoding="utf-8")
    (project / "runs" / f"other.tmp-{os.getpid()}").write_bytes((project / "runs" / "other").read_bytes())   # a write under way
    code, out, err = cli("runs", "runs")
    assert code == 0 and "runs/other " in out and "notes.txt" not in out and ".tmp-" not in out, out


def test_the_first_answer_stopped_short_of_a_run_with_trials_is_named_by_its_trial(project, cli):
    """137th round (seen beside judge --audit's lists): the rows "Stopped for length short of every limit" and "Stopped
    at the context window" named their first answer by its bare id where it was trial 1 of a --repeat run, "(the first,
    e)", and "e trial 2" where trial 2; every other list names an answer of such a run by its trial."""
    run = make_run([("e", "bug", ["bu", "bu"]), ("f", "bug", ["bug", "bug"])], options={"num_ctx": 4096})
    for result in run["results"]:
        if result["id"] == "e":
            result.update(done_reason="length", prompt_tokens=5, completion_tokens=1)
        else:
            result.update(done_reason="length", prompt_tokens=4000, completion_tokens=96)
    write_run("runs/trials.json", run)
    out = cli("report", "runs/trials.json")[1]
    early = next((l for l in out.splitlines() if l.startswith("Stopped for length short of every limit: ")), out)
    window = next((l for l in out.splitlines() if l.startswith("Stopped at the context window: ")), out)
    assert "(the first, e trial 1)" in early, early
    assert "; the first, f trial 1)" in window, window


def test_agents_out_of_turns_with_trials_counts_answers_of_how_many_cases(project, cli):
    """Round 106: with --repeat 2, "ran out of turns: 20" stood under "12 cases with tools": answers, counted as if
    cases. With trials it says answers of how many cases, in the text and the markdown."""
    import copy
    from conftest import agent_run
    run = agent_run()
    again = copy.deepcopy(run["results"])
    for r in again:
        r["trial"] = 2
    run["results"] += again
    run["config"]["repeat"], run["config"]["temperature"] = 2, 0.7
    path = write_run("runs/agent2.json", run)
    code, out, err = cli("report", path)
    assert code in (0, 1) and "ran out of turns: 2 answers of 1 case (a4)" in " ".join(out.split()), out
    md = cli("report", path, "--markdown")[1]
    assert "| Agents: ran out of turns | 2 answers of 1 case | |" in md, md
    assert [(o["id"], o["trial"]) for o in json.loads(cli("report", path, "--json")[1])["agent"]["out_of_turns"]] == \
        [("a4", 1), ("a4", 2)]
    # (its review) one answer of one case, not "1 answers"
    from conftest import agent_spec, make_run   # (an answer of a4 that reached one: a conversation of its own, whole)
    answered = dict(make_run([agent_spec("a4", [("lookup_order", {"order_id": "A-1"}, True)])], labels=None)["results"][0],
                    trial=2)
    run["results"] = [answered if (r["id"], r["trial"]) == ("a4", 2) else r for r in run["results"]]
    path = write_run("runs/agent3.json", run)
    code, out, err = cli("report", path)
    assert "ran out of turns: 1 answer of 1 case (a4)" in " ".join(out.split()), err


def test_a_trial_cut_as_it_called_shows_no_answer_and_a_labelled_row_says_why_its_trials_had_none(project, cli):
    """115th round's review: a labelled agent's trial cut by the token limit as it called tools was shown with the
    words beside its calls as its answer (flaky: INVALID "acceso"; failures: the answer column "acceso"), and a
    labelled failure's row never said its trials ran out of turns or were cut (INVALID | INVALID | acceso)."""
    from conftest import agent_spec, make_run
    look = ("lookup_order", {"order_id": "A-1"}, True)
    spec = dict(agent_spec("l1", [look], final="acceso", checks=[]), expected="acceso", response=["acceso"] * 3)
    spec.pop("checks")
    run = make_run([spec], split="agent-dev", max_turns=3)
    cut, out = run["results"][0], run["results"][1]
    call = {"role": "assistant", "content": "acceso",
            "tool_calls": [{"id": None, "name": "lookup_order", "arguments": {"order_id": "A-1"}}]}
    cut.update(transcript=[call], done_reason="length",
               per_turn=[dict(cut["per_turn"][0], done_reason="length")])
    tool = {"role": "tool", "name": "lookup_order", "call_id": "c", "matched": True, "content": '{"status": "enviado"}'}
    out.update(transcript=[call, tool] * 3, out_of_turns=True, per_turn=[out["per_turn"][0]] * 3)
    path = write_run("runs/c.json", run)
    text = cli("report", path)[1]
    flaky = next(line for line in text.splitlines() if line.startswith("  l1 (expected acceso):"))
    assert flaky == "  l1 (expected acceso): INVALID (cut as it called tools) | INVALID (ran out of turns) | acceso", flaky
    row = next(line for line in text.split("\nFailures")[1].splitlines() if line.startswith("  l1 "))
    # (140th round: the stop the header lists it under, no limit set: not the token limit)
    assert "ran out of turns (3)" in row and "stopped for length short of every limit as it called tools (turn 1" in row \
        and "\nStopped for length short of every limit: 1 (l1 trial 1)" in text, row
    assert row.rstrip().endswith("(no answer: cut as it called tools)"), row
    assert '"acceso"' not in text, text
    doc = json.loads(cli("report", path, "--json")[1])
    assert [(a["answer"], a["cut"], a["out_of_turns"]) for a in doc["flaky"][0]["answers"]] == [
        (None, True, False), (None, False, True), ("acceso", False, False)], doc["flaky"]
    assert (doc["failures"][0]["answer"], doc["failures"][0]["no_answer"]) == (None, "cut as it called tools")
    assert "ran out of turns (3)" in cli("report", path, "--markdown")[1]


def test_report_case_names_a_case_outside_a_part_run_and_the_id_spelt_alike(project, cli, fake):
    """117th round's newcomers: report --case dev-20 of a --limit 10 run was "did you mean dev-10?", another case, the
    run's part unsaid; dev-9 was "did you mean dev-19?" (difflib's tie), DEV-09 named none."""
    assert cli("run", "--split", "dev", "--host", fake.url, "--limit", "10", "--out", "runs/ten.json")[0] == 0
    code, out, err = cli("report", "runs/ten.json", "--case", "dev-20")
    assert code == 2 and err == ("error: no case 'dev-20' in runs/ten.json: the run asked only part of its split (the "
                                 "first 10 cases, --limit 10), which dev-20 is not in\n"), err
    for given in ("dev-9", "DEV-09"):
        code, out, err = cli("report", "runs/ten.json", "--case", given)
        assert code == 2 and err.endswith("; did you mean dev-09?\n"), err
    # (its review) spelt alike outside the part too; 4,400 digits no traceback (int() of them raised)
    code, out, err = cli("report", "runs/ten.json", "--case", "DEV-0020")
    assert code == 2 and err.endswith("(the first 10 cases, --limit 10), which dev-20 is not in\n"), err
    code, out, err = cli("report", "runs/ten.json", "--case", "dev-" + "1" * 4400)
    assert code == 2 and err.startswith("error: no case") and "Traceback" not in err, err


def test_an_agent_that_reached_no_answer_is_no_generation_failure(project, cli, fake):
    """Round 123: a RAG case answered by an agent that ran out of turns (no answer, no judge asked) was diagnosed
    "generation: faithful failed", and with a second trial that answered faithfully and failed a regex, still
    generation's: an answer that never came tells no stage, as one still thinking at its limit does not."""
    tool = {"type": "function", "function": {"name": "get_weather", "description": "the weather", "parameters": {
        "type": "object", "required": ["city"], "properties": {"city": {"type": "string"}}}}}
    case = {"id": "x1", "input": "Loop on Oslo", "difficulty": "easy", "note": "n", "tools": [tool],
            "tool_results": {"get_weather": "snow"}, "context": [{"id": "A", "text": "Oslo is cold."}],
            "relevant": ["A"], "checks": [{"type": "faithful"}, {"type": "regex", "value": "warm"}]}
    os.makedirs("golden/loop", exist_ok=True)
    Path("golden/loop/dev.jsonl").write_text(json.dumps(case) + "\n", encoding="utf-8")
    Path("prompts/loop.txt").write_text("Answer from:\n{{context}}\n", encoding="utf-8")
    fake.agents = {"Loop on Oslo": [[("get_weather", {"city": "Oslo"})]]}   # calls the tool every turn
    run = ["run", "--split", "golden/loop/dev.jsonl", "--prompt", "prompts/loop.txt", "--host", fake.url, "--max-turns", "2"]
    code, out, err = cli(*run, "--out", "runs/loop.json")
    assert code == 0 and load_json("runs/loop.json")["results"][0]["out_of_turns"] is True, err
    d = json.loads(cli("report", "runs/loop.json", "--json")[1])["diagnosis"]
    assert d["unclear"] == ["x1"] and d["generation"] == [] and \
        d["why"]["x1"] == "it never answered (it ran out of turns): no check read an answer", d
    # a second trial answered, faithfully, failing the regex: the task's (it was generation's)
    fake.agents = {"Loop on Oslo": [[("get_weather", {"city": "Oslo"})], "It is cold in Oslo [A]."]}
    code, out, err = cli(*run, "--out", "runs/answered.json")
    both = load_json("runs/loop.json")
    answered = load_json("runs/answered.json")["results"][0]
    assert answered["out_of_turns"] is False and answered["response"] == "It is cold in Oslo [A].", answered
    both["config"]["repeat"] = 2
    found = {"pass": True, "reason": "r", "raw": claims_raw(("It is cold in Oslo", True, "A"))}   # (the fake's gave none)
    both["results"].append(dict(answered, trial=2, judges=[dict(answered["judges"][0], **found)]))
    d = json.loads(cli("report", write_run("runs/both.json", both), "--json")[1])["diagnosis"]
    assert d["generation"] == [] and d["task"] == ["x1"] and str(d["why"]["x1"]).startswith("faithful to the passages, yet it "
                                                                                      "failed the check"), (d, answered)


def test_what_shows_as_nothing_is_escaped_in_every_text_table(project, cli):
    """Round 123: a tag holding U+1D173 (a music format mark, drawn as nothing) was printed as it is in the by-tag table,
    its row reading "xy" beside the tag xy. What a report shows as nothing (INVISIBLE_CHARS) is escaped as a terminal's
    controls are, but the soft hyphen, which a terminal draws (one list kept in step with the other)."""
    assert {chr(c) for c in range(0x110000) if evalpy.INVISIBLE_CHARS.match(chr(c))} - {"\u00ad"} <= \
        {chr(c) for c in range(0x110000) if evalpy.CONTROL_CHARS.match(chr(c))}
    checks = [{"name": "zz", "type": "icontains", "value": "zz", "blocking": True}]
    write_run("runs/t.json", make_run([{"id": "c1", "response": "no", "checks": checks, "tags": ["x\U0001d173y"]},
                                       {"id": "c2", "response": "no", "checks": checks, "tags": ["xy", "a\u3164b"]}],
                                      labels=None))
    out = cli("report", "runs/t.json")[1]
    by_tag = out.split("By tag:\n")[1].split("\n\n")[0]
    assert "x\\U0001d173y" in by_tag and "a\\u3164b" in by_tag and "\U0001d173" not in out and "\u3164" not in out, by_tag
    # (its review) --json writes one past U+FFFF as its surrogates, the same value read back (\u1d173 was another tag)
    assert "x\U0001d173y" in json.loads(cli("report", "runs/t.json", "--json")[1])["by_tag"]
    assert '\\ud834\\udd73' in cli("report", "runs/t.json", "--json")[1]
    # and a check's name so escaped reads \U and eight digits (\u1d173 read as U+1D17 and a 3)
    assert evalpy.name_cell("x\U0001d173y") == '"x\\U0001d173y"'
    # (125th round) a quoted name cut short keeps its closing quote: '"aaaa…' was left open in report --markdown
    cut = evalpy.name_cell("a" * 90 + "\u202e" + "tail", 80)
    assert cut == '"' + "a" * 77 + '…"' and len(cut) == 80, cut
    assert evalpy.name_cell("cancel ", 80) == '"cancel "' and evalpy.name_cell("a" * 90, 80) == "a" * 79 + "…"



def stdout_json_under(project, encoding, *argv):
    """What eval.py ARGV prints on a stdout of `encoding` (PYTHONIOENCODING), read as JSON."""
    import sys
    done = subprocess.run([sys.executable, str(ROOT / "eval.py"), *argv], cwd=project, capture_output=True,
                          env={**os.environ, "PYTHONIOENCODING": encoding})
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.decode(encoding))


def test_json_on_a_stdout_that_cannot_hold_a_character_writes_it_as_a_json_escape(project):
    """Round 139's environment attack: on an ASCII stdout (PYTHONIOENCODING=ascii, LC_ALL=C) report --json and compare
    --json wrote facturación's ó as \\xf3 and an emoji as \\U0001f600 (main's backslashreplace), which JSON does not
    read. print_json writes each such character as a JSON escape, past U+FFFF as its two surrogates: read back, the
    same text as the UTF-8 output's."""
    cases = [{"id": "facturación-1", "expected": "bug", "response": "bug", "tags": ["facturación"]},
             {"id": "ticket-\U0001f600-000", "expected": "bug", "response": "feature", "tags": ["\U0001f600"]}]
    a, b = write_run("runs/a.json", make_run(cases)), write_run("runs/b.json", make_run(cases, prompt_file="prompts/v2.txt"))
    for argv in (("report", a, "--json"), ("compare", a, b, "--json")):
        utf8 = stdout_json_under(project, "utf-8", *argv)
        assert all(text in json.dumps(utf8, ensure_ascii=False) for text in ("facturación", "\U0001f600")), utf8
        assert stdout_json_under(project, "ascii", *argv) == utf8, argv
