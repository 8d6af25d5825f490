"""Read back, grade, score: every figure from the run file alone; a bad run file is one plain error."""

import json
import os
from pathlib import Path
import subprocess
import sys

import pytest

from conftest import ROOT, difficulties_alike, evalpy, load_json, make_run, write_run


def test_report_json_has_the_hand_computed_figures(hand_run, cli):
    code, out, err = cli("report", hand_run, "--json")
    s = json.loads(out)
    assert (s["correct"], s["scored"], s["cases"], s["invalid"]) == (4, 7, 7, 1)
    assert {k: s["baseline"][k] for k in ("label", "correct", "total", "accuracy", "thin")} == \
        {"label": "bug", "correct": 3, "total": 7, "accuracy": 3 / 7, "thin": True}
    assert s["accuracy"] == 4 / 7 and s["mean_accuracy"] == 4 / 7 and s["pass_k"] == []
    assert s["accuracy_ci"] == list(evalpy.wilson(4, 7)) and s["baseline"]["ci"] == list(evalpy.wilson(3, 7))
    bug, acceso, fact, pet = (s["per_label"][k] for k in ("bug", "acceso", "facturación", "petición"))
    assert (bug["precision"], bug["recall"], bug["support"]) == (2 / 3, 2 / 3, 3)      # a1 a2 of a1 a2 a6
    assert bug["f1"] == pytest.approx(2 / 3)
    assert (acceso["precision"], acceso["recall"], acceso["support"]) == (1 / 2, 1.0, 1)
    assert acceso["f1"] == pytest.approx(2 / 3)
    assert (fact["precision"], fact["recall"], fact["support"]) == (1.0, 1 / 2, 2)
    assert (pet["precision"], pet["recall"], pet["f1"], pet["support"]) == (None, 0.0, None, 1)
    assert s["confusion"]["bug"] == {"facturación": 0, "bug": 2, "acceso": 1, "petición": 0, "INVALID": 0}
    assert s["confusion"]["facturación"] == {"facturación": 1, "bug": 0, "acceso": 0, "petición": 0, "INVALID": 1}
    assert s["confusion"]["petición"]["bug"] == 1
    assert s["by_difficulty"] == {
        "easy": {"correct": 3, "total": 4, "accuracy": 0.75, "ci": list(evalpy.wilson(3, 4)), "thin": True},
        "trap": {"correct": 1, "total": 3, "accuracy": 1 / 3, "ci": list(evalpy.wilson(1, 3)), "thin": True}}
    assert [(f["id"], f["got"]) for f in s["failures"]] == [("a3", "acceso"), ("a5", "INVALID"), ("a6", "bug")]
    assert s["errors"] == [] and "prompt_text" not in s["config"]


def test_difficulties_stored_alike_but_for_an_end_space_or_their_unicode_form_are_one_slice_in_every_view(project, cli):
    """139th round's views: an older run's 'trap ' beside trap, and café decomposed beside café, were rows of their own
    with one name in the text, the page's table and chart (trap 1/1 twice): trap's 2/2 was shown nowhere. They are
    read as the split must now write them, as tags are."""
    path = write_run("runs/d.json", make_run(difficulties_alike()))
    s = json.loads(cli("report", path, "--json")[1])
    assert {k: (g["correct"], g["total"]) for k, g in s["by_difficulty"].items()} == \
        {"trap": (2, 2), "caf\u00e9": (0, 2), "easy": (1, 1)}
    text = cli("report", path)[1]
    rows = text.split("By difficulty:\n")[1].split("\n\n")[0].splitlines()
    assert [r.split()[:2] for r in rows] == [["trap", "2/2"], ["caf\u00e9", "0/2"], ["easy", "1/1"]], text
    cli("report", path, "--html", "runs/d.html")
    page = Path("runs/d.html").read_text(encoding="utf-8")
    assert "trap (2)" in page and "trap (1)" not in page and "<td>trap</td><td>2</td><td data-sort=\"1.0\">2/2 = 100%" in page


def test_baseline_ties_go_to_the_first_label_in_labels_txt():
    run = {"config": {"labels": ["a", "b"], "repeat": 1},
           "results": [{"id": "1", "trial": 1, "expected": "b", "difficulty": "easy", "response": "b", "error": None},
                       {"id": "2", "trial": 1, "expected": "a", "difficulty": "easy", "response": "a", "error": None}]}
    base = evalpy.score(run["config"], evalpy.grade_run(run))["baseline"]
    assert base["label"] == "a" and base["tied"] == ["b"]
    sec = evalpy.rows_headline(evalpy.score(run["config"], evalpy.grade_run(run)))
    assert "Majority baseline (always 'a', tied with 'b'): 1/2 = 50%" in "\n".join(evalpy.headline(sec, []))
    assert "| Majority baseline (always `a`, tied with `b`) | 1/2 = 50% |" in "\n".join(evalpy.markdown_headline(sec))


def test_of_labels_tied_in_the_split_the_baseline_takes_the_one_with_more_answers():
    """A tie in the split's counts used to go to the first label even when its cases had errors: the
    baseline's figure (over answered cases) then depended on labels.txt's order, and the tie was not said."""
    def result(cid, expected, error=None):
        return {"id": cid, "trial": 1, "expected": expected, "difficulty": "easy", "response": None if error else expected,
                "error": error}
    run = {"config": {"labels": ["a", "b", "c"], "repeat": 1},
           "results": [result("1", "a", "HTTP 500"), result("2", "a"), result("3", "b"), result("4", "b"), result("5", "c")]}
    base = evalpy.score(run["config"], evalpy.grade_run(run))["baseline"]
    # (round 93) tied is said over the answered cases its figure counts: "always 'b', tied with 'a': 2/4" was said
    # where always 'a' reached 1/4 (a tie in the split, not among the cases scored)
    assert (base["label"], base["tied"], base["correct"], base["total"]) == ("b", [], 2, 4)
    run["results"][0] = result("1", "a")
    run["results"][3] = result("4", "b", "HTTP 500")   # the split's 2 and 2, answered 2 and 1: a, and no tie
    base = evalpy.score(run["config"], evalpy.grade_run(run))["baseline"]
    assert (base["label"], base["tied"], base["correct"], base["total"]) == ("a", [], 2, 4)
    run["results"][3] = result("4", "b")
    base = evalpy.score(run["config"], evalpy.grade_run(run))["baseline"]
    assert (base["label"], base["tied"], base["correct"], base["total"]) == ("a", ["b"], 2, 5)


def test_two_checks_of_one_name_in_a_stored_result_are_refused(hand_run, cli):
    """Round 107 (hand-edited runs): two checks named "dup" in each result, one that can never pass and one that can,
    were read by name, the last counting alone: 7/28 passed where every case fails. A split refuses the same."""
    run = load_json(hand_run)
    for r in run["results"]:
        r["checks"] += [{"name": "dup", "type": "regex", "blocking": True, "value": "zzz"},
                        {"name": "dup", "type": "regex", "blocking": True, "value": "\\w"}]
    Path("dup.json").write_text(json.dumps(run), encoding="utf-8")
    code, out, err = cli("report", "dup.json")
    assert code == 2 and "two checks are named 'dup' (a name is unique within a case)" in err, err


def test_a_replaced_model_the_run_never_asked_or_not_replaced_at_all_is_refused(hand_run, cli):
    """Round 107 (hand-edited runs): config.replaced was read whatever it said: "now" the same digest as "was", a
    model the run never asked, a judge it has none of, empty texts, one entry many times; and a line break in a digest
    reached the terminal raw. eval.py writes none of those."""
    run = load_json(hand_run)
    model = run["config"]["model"]
    entry = {"who": "the model", "model": model, "was": "abcdefgh111", "now": "abcdefgh222"}
    for bad in ([dict(entry, now=entry["was"])], [dict(entry, model="llama3:70b")], [dict(entry, who="the judge")],
                [dict(entry, now="")], [entry, entry]):
        run["config"]["replaced"] = bad
        Path("r.json").write_text(json.dumps(run), encoding="utf-8")
        code, out, err = cli("report", "r.json")
        assert code == 2 and "config.replaced" in err, (bad, err)
    run["config"]["replaced"] = [dict(entry, now="abcdefgh2\nAccuracy: 100%")]
    Path("r.json").write_text(json.dumps(run), encoding="utf-8")
    code, out, err = cli("report", "r.json")
    assert "(digest abcdefgh111 at the start, abcdefgh2\\nAc after the last call" in out, out   # told apart, escaped
    case = run["results"][0]["id"]
    assert "WARNING: the model" in cli("report", "r.json", "--case", case)[1]   # one case's view says it too


def test_a_run_file_in_a_folder_that_does_not_exist_says_so(project, cli):
    """Round 107's review: `report nope/x.json` said `runs nope` lists the runs there, which failed: no such folder."""
    code, out, err = cli("report", "nope/x.json")
    assert code == 2 and err == ("error: nope/x.json: no such run file (there is no folder nope: check the path, or "
                                 "`run --split ... --out nope/x.json` to make it)\n"), err


def test_a_run_named_without_runs_or_json_is_named_as_it_is(project, cli):
    """117th round's newcomer: `report dev-v2.json` (runs/ left off) and `report runs/dev-v2` (.json left off) were
    told to list `runs .` and offered a run command making a new one, beside the run they meant; --split golden/dev
    was told to give a path ending in .jsonl, golden/dev.jsonl unnamed."""
    write_run("runs/dev-v2.json", make_run([("c1", "bug", "bug")]))
    for given in ("dev-v2.json", "runs/dev-v2", "dev-v2"):
        code, out, err = cli("report", given)
        assert code == 2 and err == f"error: {given}: no such run file; did you mean runs/dev-v2.json?\n", err
    code, out, err = cli("run", "--split", "golden/dev")
    assert code == 2 and err.endswith("did you mean golden/dev.jsonl?\n"), err
    # (its review) a file that is no run is none to mean (report --json's a.json), and runs/ is looked in first; a
    # stopped run is meant too, its resume given
    Path("dev-v2.json").write_text(json.dumps({"split": "dev"}), encoding="utf-8")
    code, out, err = cli("report", "dev-v2")
    assert code == 2 and err == "error: dev-v2: no such run file; did you mean runs/dev-v2.json?\n", err
    os.rename("runs/dev-v2.json", "runs/dev-v2.json.journal")
    code, out, err = cli("report", "runs/dev-v2")
    assert code == 2 and err == "error: runs/dev-v2: no such run file; did you mean runs/dev-v2.json?\n", err
    code, out, err = cli("run", "--resume", "runs/dev-v2")
    assert code == 2 and err == ("error: --resume runs/dev-v2: no such run nor journal; did you mean runs/dev-v2.json? "
                                 "(python eval.py run --resume runs/dev-v2.json)\n"), err
    os.rename("runs/dev-v2.json.journal", "runs/dev-v2.json")
    code, out, err = cli("report", "dev-v2.json")
    assert code == 2 and "no such run file" not in err, err


def test_a_missing_run_is_offered_only_a_command_that_makes_it(project, cli):
    """Round 110: `report -` offered `run --out -` (stdout, refused), `report -- -x.json` `--out -x.json` (read as an
    option), a name too long for the files kept beside a run an --out run refuses; and a folder named -rr.json was
    offered `runs -rr.json`, refused as an unknown option."""
    for name, said in (("-", "(`python eval.py runs .` lists the runs there)"),
                       ("-nope.json", "`run --split ... --out=-nope.json` makes this one"),
                       ("a" * 230 + ".json", "(`python eval.py runs .` lists the runs there)")):
        code, out, err = cli("report", "--", name)
        assert code == 2 and said in err and "--out -\n" not in err, err
    for folder in ("runs/nope/", "nosuch/.", "nosuch/.."):   # (its review) a folder's path: --out there names no file
        code, out, err = cli("report", folder)
        assert code == 2 and "makes" not in err and "--out" not in err, err
    os.symlink("/nonexistent/share", "dl")   # a link to nothing is said so, never "no such folder"
    assert "dl: a link to /nonexistent/share, which does not exist; fix the link or remove it" in cli("runs", "dl")[2]
    assert "dl: a link to /nonexistent/share, which does not exist" in cli("runs", "dl/")[2]
    code, out, err = cli("report", "golden/labels.txt/x.json")   # a path through a file: said what to do
    assert code == 2 and err == ("error: golden/labels.txt/x.json: cannot read run file (Not a directory: a part of that "
                                 "path is a file, not a folder; check the path)\n"), err
    os.makedirs("-rr/sub.json")
    code, out, err = cli("report", "--", "-rr/sub.json")
    assert code == 2 and "python eval.py runs ./-rr/sub.json lists the runs in it" in err, err
    assert "lists the runs in it" not in cli("runs", "./-rr/sub.json")[2]


def test_a_missing_split_prompt_or_verdicts_file_says_what_to_do(project, cli):
    """111th round's newcomer: the README's own `run --split my/cases.jsonl`, `calibrate human.jsonl RUN` (a file the
    page explains only in the next section) and a mistyped --prompt said "no such ... file" and no more."""
    code, out, err = cli("run", "--split", "my/cases.jsonl", "--host", "127.0.0.1:1")
    assert code == 2 and err == ("error: my/cases.jsonl: no such split file (check the path; `python eval.py init FOLDER` "
                                 "writes a golden set to begin from)\n"), err
    code, out, err = cli("run", "--split", "dev", "--prompt", "prompts/v9.txt", "--host", "127.0.0.1:1")
    assert code == 2 and err == ("error: prompts/v9.txt: no such prompt file (the prompts in prompts/: v1.txt, v2.txt, "
                                 "v3.txt)\n"), err
    code, out, err = cli("run", "--split", "dev", "--prompt", "nope/v9.txt", "--host", "127.0.0.1:1")
    assert code == 2 and err == "error: nope/v9.txt: no such prompt file\n", err
    Path("requirements.txt").write_text("requests\n")   # (its review) a text file outside prompts/ is no prompt to offer
    code, out, err = cli("run", "--split", "dev", "--prompt", "v9.txt", "--host", "127.0.0.1:1")
    assert code == 2 and err == "error: v9.txt: no such prompt file\n", err
    code, out, err = cli("run", "--split", "dev", "--prompt", "prompts/support/v9.txt", "--host", "127.0.0.1:1")
    assert code == 2 and "(the prompts in prompts/support/: v1.txt" in err, err
    code, out, err = cli("calibrate", "human.jsonl", "runs/x.json")
    assert code == 2 and err == ("error: human.jsonl: no such verdicts file (it is yours to write: a person's verdicts, one "
                                 '{"id": ..., "check": ..., "pass": true or false} a line; see calibrate in the README)\n'), err


def test_a_path_through_a_link_to_nothing_names_the_link(project, cli):
    """111th round: `report dl/x.json` through a link to nothing offered `run --out dl/x.json`, which run refuses (dl is
    not a folder); `runs dl/.` said "no such folder"; a link to itself was said to be one to something that "does not
    exist". Each names the link, and what it is, wherever it stands in the path; nothing is offered through it."""
    os.symlink("/nonexistent/share", "dl")
    os.symlink("self", "self")
    gone = "error: dl: a link to /nonexistent/share, which does not exist; fix the link or remove it\n"
    loop = "error: self: a link that leads back to itself (a loop); fix the link or remove it\n"
    for argv, said in ((("report", "dl/x.json"), gone), (("report", "dl/sub/x.json"), gone), (("runs", "dl/."), gone),
                       (("runs", "dl/sub"), gone), (("runs", "self"), loop), (("runs", "self/"), loop),
                       (("report", "self/x.json"), loop), (("compare", "dl/x.json", "runs/nope.json"), gone)):
        code, out, err = cli(*argv)
        assert code == 2 and err == said, (argv, err)
    os.symlink("dl", "dl2")   # (its review) a link to that link: "dl, which does not exist" of a link that does
    assert cli("report", "dl2/x.json")[2] == "error: dl2: a link to dl -> /nonexistent/share, which does not exist; fix " \
        "the link or remove it\n"
    for i in range(3, 12):   # (its review) a chain cut where it is followed no further names no link "not there"
        os.symlink(f"dl{i - 1}", f"dl{i}")
    assert cli("report", "dl11/x.json")[2] == ("error: dl11: a link to dl10 -> dl9 -> dl8 -> dl7 -> dl6 -> dl5 -> dl4 -> "
                                               "dl3 -> ..., a chain of links too long to follow; fix the link or remove it\n")
    code, out, err = cli("run", "--split", "dev", "--out", "dl/x.json")
    assert code == 2 and err == "error: --out dl/x.json: dl is a link to /nonexistent/share, which does not exist; fix " \
        "the link or remove it\n", err


@pytest.mark.parametrize("name, kind, run", [
    ("runs/x.json.annotations.json", ".annotations.json is for review's annotations", "runs/x.json"),
    ("runs/x.json.pairwise.json.journal", ".pairwise.json.journal is for pairwise verdicts not yet", "runs/x.json"),
    ("runs/x.json.lock", ".lock is for a lock", "runs/x.json"),
    ("runs/x.json.tmp-3", ".tmp-3 is for a write in progress", "runs/x.json"),
])
def test_a_missing_run_by_a_name_eval_py_keeps_beside_a_run_is_never_to_be_made(project, cli, name, kind, run):
    """Round 109: `report runs/x.json.annotations.json` advised `run --out runs/x.json.annotations.json` to make it,
    which run refuses: such a name is said as what it is for, and the run it would sit beside named."""
    for command in (("report", name), ("compare", name, name), ("review", name)):
        code, out, err = cli(*command)
        assert code == 2 and "makes this one" not in err and "--out" not in err, err
        assert f"error: {name}: no such run file; a name ending in {kind}" in err, err
        assert f"beside a run, never a run: give the run's own path ({run})" in err, err


@pytest.mark.parametrize("text, message", [
    ('{"format": "eval.py-run/1", "config": {', "damaged or cut short (line 1, column"),
    ("not json at all", "not a run file: a run file is the JSON object run writes"),   # (round 105) not "damaged"
    ("[1, 2]", 'no "format": "eval.py-run/1"'),
    ('{"format": "eval.py-run/1", "config": {}, "results": []}', "config has no 'model'"),
    ('{"format": "eval.py-run/1", "results": [], "config": {"model": "m", "prompt": "p", "prompt_sha": "s", '
     '"split": "d", "split_sha": "s", "labels": ["a", "b"], "temperature": "hot", "seed": 1}}',
     "config.temperature must be a number"),
    ('{"format": "eval.py-run/1", "results": [], "config": {"model": "m", "prompt": "p", "prompt_sha": "' + "0" * 64 +
     '", "split": "d", "split_sha": "' + "1" * 64 + '", "labels": ["a", "b"], "temperature": 0, "seed": 1, '
     '"response_format": ["x"]}}',
     "config.response_format must be null or one of json_schema, json_object"),
    ('{"format": "eval.py-run/1", "config": ' + "[" * 100_000 + "]" * 100_000 + "}",
     "damaged (nested too deeply to read (past Python's recursion limit"),
    *((f'{{"format": "eval.py-run/1", "results": [], "config": {{"model": "m", "prompt": "p", "prompt_sha": "s", '
       f'"split": "d", "split_sha": "s", "labels": ["a", "b"], "temperature": {t}, "seed": 1}}}}',
       "config.temperature must be a number of 0 or more") for t in ("1" + "0" * 400, "-1")),
    # JSON has no NaN: refused as the file is read, as a journal line's is (thirteenth attack on issue 28, item 2)
    *((f'{{"format": "eval.py-run/1", "results": [], "config": {{"temperature": {t}}}}}',
       f"damaged ({t} is not a number (JSON has no {t}))") for t in ("NaN", "Infinity")),
    (None, "no such run file (`python eval.py runs .` lists the runs there; `run --split ... --out bad.json` makes this one)"),
])
def test_bad_run_files_are_one_plain_error(project, cli, text, message):
    if text is not None:
        (project / "bad.json").write_text(text)
    code, out, err = cli("report", "bad.json")
    assert code == 2 and message in err and out == ""
    assert err.startswith("error: bad.json: ") and len(err.strip().splitlines()) == 1


def test_a_check_stored_alike_in_every_answer_is_read_once_and_a_look_alike_on_its_own(project, cli):
    """Round 107: every answer stores its case's checks, each checked again (50 checks of 10,000 cases: most of a
    report's time); what was found of one is kept for the same check further on, by its values and their types:
    a value of true where every other answer holds 1 is refused, never taken for 1."""
    from conftest import agent_run, write_run
    run = agent_run()
    for r in run["results"]:
        r["checks"].append({"name": "few", "type": "max_tool_calls", "value": 1, "blocking": True})
    assert cli("report", write_run("runs/a.json", run))[0] in (0, 1)
    run["results"][-1]["checks"][-1]["value"] = True
    code, out, err = cli("report", write_run("runs/b.json", run))
    assert code == 2 and "check 'few'" in err, err


@pytest.mark.parametrize("note", [5, ["a"], {"why": "x"}])
def test_a_results_note_that_is_no_text_is_refused(hand_run, cli, note):
    """Round 109: a note of 5 (or a list nested 70 deep) was read, and report --case printed "Note: 5"; a difficulty
    of the wrong type is refused, naming the result and the field."""
    run = load_json(hand_run)
    run["results"][0]["note"] = note
    json.dump(run, open("note.json", "w"))
    code, out, err = cli("report", "note.json")
    assert code == 2 and f"field 'note' must be a string, not {evalpy.json_kind(note)}" in err and out == "", err


def test_edited_results_are_caught(hand_run, cli):
    run = load_json(hand_run)
    run["results"][1]["id"] = "a1"
    json.dump(run, open("dup.json", "w"))
    assert "result a1, trial 1 appears twice" in cli("report", "dup.json")[2]
    run = load_json(hand_run)
    run["results"][0]["expected"] = "spam"
    json.dump(run, open("spam.json", "w"))
    assert "label 'spam' is not in config.labels" in cli("report", "spam.json")[2]


def test_a_trial_edited_to_ask_another_question_is_refused_not_scored_on_the_first_trials(project, cli):
    """Issue 28, left from the twentieth attack: grade reads a case's expected label and checks from its
    first trial, so a run file whose trial 2 expects 'acceso' where trial 1 expects 'bug' was scored as if
    every trial expected 'bug' (and a check edited into trial 3 was never run)."""
    from conftest import make_run
    run = make_run([("c01", "bug", ["bug", "acceso", "bug"]), ("c02", "bug", ["bug"] * 3)])
    json.dump(run, open("same.json", "w"))
    assert cli("report", "same.json")[0] == 0
    for at, field, value in ((1, "expected", "acceso"), (2, "checks", [{"name": "label", "type": "label", "blocking": True}, {"name": "x", "type": "contains", "value": "b"}]),
                             (4, "tags", ["red-team"])):
        edited = json.loads(json.dumps(run))
        edited["results"][at][field] = value
        json.dump(edited, open("edited.json", "w"))
        code, out, err = cli("report", "edited.json")
        trial = edited["results"][at]["trial"]
        assert code == 2 and err == (f"error: edited.json: not a valid run file: result {edited['results'][at]['id']}, "
                                     f"trial {trial}: its {field} is not trial 1's (every trial of a case asks one "
                                     "question); restore it from a copy, or run it again\n"), err


def test_a_truncated_run_file_gives_no_traceback_from_the_real_command(hand_run, project):
    data = (project / hand_run).read_bytes()
    (project / "cut.json").write_bytes(data[: len(data) // 2])
    proc = subprocess.run([sys.executable, str(ROOT / "eval.py"), "report", "cut.json"],
                          capture_output=True, text=True, cwd=project, timeout=30)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "cut.json: not a readable run file, damaged or cut short" in proc.stderr


def edit(run, where, value):
    """A copy of run with one field changed: where is "config.key" or "result.key" (the first result)."""
    run = json.loads(json.dumps(run))
    block, key = where.split(".")
    (run["config"] if block == "config" else run["results"][0])[key] = value
    return run


@pytest.mark.parametrize("where, value, message", [
    ("result.checks", [{"name": "r", "type": "regex", "value": "("}], "check 'r': bad regular expression"),
    ("result.checks", [{"name": "r", "type": "regex"}], "check 'r': check 'regex' needs a non-empty string value"),
    ("result.checks", [{"name": "r", "type": "regex", "value": 5}], "needs a non-empty string value"),
    ("result.checks", [{"name": "r", "type": ["regex"]}], "check type ['regex'] is unknown"),
    ("result.checks", [{"name": "j", "type": "json", "schema": 5}], "check 'j': schema must be an object"),
    ("result.checks", [{"name": "l", "type": "max_latency_ms", "value": "x"}], "positive number of milliseconds"),
    ("result.expected", ["bug"], "field 'expected' must be a string, not a list"),
    ("result.response", 42, "response must be text or null"),
    # (round 102) neither an answer nor an error: read as a failed call, asked again and called infrastructure
    ("result.response", None, "neither a response nor an error (every answer eval.py stores has one or the other)"),
    ("result.latency_ms", "fast", "latency_ms must be a number or null"),
    # the ninth attack on issue 28, item 8: the message names the vote's field at fault; a count is a
    # whole number of 0 or more (-50000 prompt tokens was summed into the cost)
    ("result.judges", [{"check": "c", "model": "m", "pass": True, "prompt_tokens": "x"}],
     "judges: vote 1: prompt_tokens must be a number or null"),
    ("result.judges", [{"check": "c", "model": "m", "pass": True, "prompt_tokens": -50000}],
     "judges: vote 1: prompt_tokens must be a whole number of 0 or more, or null"),
    # (twenty-first attack, minor) 1 and 0 are no verdicts (Python's `in` took them for true and false)
    ("result.judges", [{"check": "c", "model": "m", "pass": 1}], "judges must be a list of votes with a check, a model and pass"),
    ("result.prompt_tokens", -50000, "prompt_tokens must be a whole number of 0 or more, or null"),
    ("result.completion_tokens", 2.5, "completion_tokens must be a whole number of 0 or more, or null"),
    # a call's measures are bounded: 1e300 ms printed 300 digits in every view, -5 ns a negative rate
    ("result.latency_ms", 1e300, "latency_ms must be a number from 0 to 2^53, or null"),
    ("result.attempts", 2.5, "attempts must be a whole number from 0 to 2^53, or null"),
    ("result.eval_duration_ns", -5, "eval_duration_ns must be a number from 0 to 2^53, or null"),
    ("config.rerun_test", {"forced": True, "earlier": 3}, 'config.rerun_test must be {"forced": true'),
    ("config.rerun_test", "yes", "config.rerun_test must be"),
    ("config.judge", {"models": "m"}, "config.judge must be null or an object whose models is a list"),
    # (seventeenth attack) a vote count of 2.0 or 2.5 was taken: report printed 2.5 votes, a resume a traceback
    ("config.judge", {"models": ["m"], "votes": 2.0}, "config.judge.votes must be a whole number from 1 to 1000"),
    ("config.judge", {"models": ["m"], "votes": 2.5}, "config.judge.votes must be a whole number from 1 to 1000"),
    ("config.judge", {"models": ["m"], "votes": 0}, "config.judge.votes must be a whole number from 1 to 1000"),
    ("config.judge", {"models": ["m"], "votes": 1, "seed": 4.2}, "config.judge.seed must be a whole number"),
    ("config.judge", {"models": ["m"], "votes": 1, "num_ctx": 1e9}, "config.judge.num_ctx must be a whole number, 1 or more"),
    ("config.judge", {"models": ["m"], "votes": 2 ** 64}, "config.judge.votes must be a whole number from 1 to 1000"),
    ("config.judge", {"models": ["m"], "votes": None}, "config.judge.votes must be a whole number from 1 to 1000"),
    ("config.judge", {"models": ["m"], "votes": 1, "seed": None}, "config.judge.seed must be a whole number"),
    ("config.judge", {"models": ["m"], "votes": 1, "digests": None}, "config.judge.digests must be a list"),
    ("config.repeat", 1_000_000_000_000, "config.repeat must be a whole number from 1 to 1000"),
    ("config.api", ["ollama"], "config.api must be one of ollama, openai"),
])
def test_every_field_of_a_hand_edited_run_is_checked_before_use(hand_run, cli, where, value, message):
    bad = edit(load_json(hand_run), where, value)
    open("edited.json", "w").write(json.dumps(bad))
    for command in (["report", "edited.json"], ["report", "edited.json", "--json"],
                    ["compare", hand_run, "edited.json"]):
        code, out, err = cli(*command)
        assert code == 2 and out == "" and err.startswith("error: edited.json: not a valid run file: "), err
        assert message in err and len(err.strip().splitlines()) == 1


def test_a_fault_in_one_trial_of_a_run_with_trials_names_the_trial(project, cli):
    """Forty-sixth round on issue 28: with --repeat, a bad response in a case's third trial was named by the case
    alone ("result c1: response must be text or null"), leaving five trials to search."""
    from conftest import make_run, write_run
    run = make_run([("c0", "bug", ["bug"] * 5), ("c1", "bug", ["bug"] * 5)])
    next(r for r in run["results"] if (r["id"], r["trial"]) == ("c1", 3))["response"] = 42
    write_run("runs/t.json", run)
    code, out, err = cli("report", "runs/t.json")
    assert code == 2 and "not a valid run file: result c1, trial 3: response must be text or null" in err, err
    run = make_run([("c0", "bug", ["bug"] * 5), ("c1", "bug", ["bug"] * 5)])   # a field of the case, in one trial (47th)
    next(r for r in run["results"] if (r["id"], r["trial"]) == ("c1", 4))["difficulty"] = 7
    write_run("runs/t.json", run)
    code, out, err = cli("report", "runs/t.json")
    assert code == 2 and "not a valid run file: result c1, trial 4: field 'difficulty'" in err, err


def test_a_number_too_long_for_a_float_is_one_line_and_runs_lists_the_file(hand_run, cli):
    """From the attack on issue 25: a temperature or a token count of 10**400 written as an integer
    crashed report with OverflowError, and with it the whole `runs` listing of the folder."""
    for edit in ({"config": {"temperature": 10 ** 400}}, {"result": {"prompt_tokens": 10 ** 400}}):
        run = load_json(hand_run)
        run["config"].update(edit.get("config", {}))
        run["results"][0].update(edit.get("result", {}))
        Path("odd").mkdir(exist_ok=True)
        Path("odd/big.json").write_text(json.dumps(run))
        code, out, err = cli("report", "odd/big.json")
        assert code == 2 and len(err.strip().splitlines()) == 1 and "must be a number" in err, err
        code, out, err = cli("runs", "odd")
        assert code == 0 and "odd/big.json" in out and "Traceback" not in err


@pytest.mark.parametrize("where, value, says", [
    ("model_load", {"ms": 10 ** 400, "load_duration_ns": None}, "config.model_load must be"),
    # NaN and Infinity, which JSON has not, are refused as the file is read (thirteenth attack on issue 28, item 2)
    ("judge", {"models": ["j"], "votes": float("nan")}, "damaged (NaN is not a number (JSON has no NaN))"),
    ("judge", {"models": ["j"], "temperature": float("inf")}, "damaged (Infinity is not a number (JSON has no Infinity))"),
    ("judge", {"models": ["j"], "votes": "3"}, "config.judge.votes must be a number"),
    # issue 31, item 4: the judge's token cap is sent as num_predict; -1 would be no cap at all, 2.5 a 400
    ("judge", {"models": ["j"], "num_predict": -1}, "config.judge.num_predict must be a whole number, 1 or more"),
    ("judge", {"models": ["j"], "num_predict": 2.5}, "config.judge.num_predict must be a whole number, 1 or more"),
    # a hand-edited judge.runner reached ask_judge's ** unread (from the attack pass on issue 27)
    ("judge", {"models": ["j"], "runner": ["num_thread"]}, "config.judge.runner must be an object"),
    ("judge", {"models": ["j"], "runner": {"top_k": 1}}, "config.judge.runner must be an object"),
    ("judge", {"models": ["j"], "runner": {"num_thread": "four"}}, "config.judge.runner must be an object"),
    ("judge", {"models": ["j"], "runner": {"use_mmap": 1}}, "config.judge.runner must be an object"),
    ("judge", {"models": ["j"], "runner": {"num_batch": 2 ** 64}}, "config.judge.runner must be an object"),
    ("options", {"num_ctx": float("nan")}, "damaged (NaN is not a number (JSON has no NaN))"),
    ("cases", float("nan"), "damaged (NaN is not a number (JSON has no NaN))"),
    ("cases", 2.5, "config.cases must be a whole number"),
    # (73rd attack) fields the README says are checked, taken as they came: a null count hid results taken out, a
    # list as host reached the client, any text passed for a sha (compare read "another split")
    ("cases", None, "config.cases must be a whole number"),
    ("split_sha", "zz", "config.split_sha must be a sha256 (64 hex digits)"),
    ("prompt_sha", "A" * 64, "config.prompt_sha must be a sha256 (64 hex digits)"),
    ("host", ["x"], "config.host must be text"),
    ("split_path", 5, "config.split_path must be text"),
    ("placeholders", [1], "config.placeholders must be text"),
    ("server", {"a": 1}, "config.server must be text or null"),
    ("eval_version", {}, "config.eval_version must be text or null"),
    ("date", None, "config.date must be a date and time as a run records it"),
    ("vote", float("nan"), "damaged (NaN is not a number (JSON has no NaN))"),
    ("vote", "1", "judges: vote 1: vote must be a number or null"),
    # (round 123) a judge's temperature below 0 and a prompt hash that is none, taken as they came
    ("judge", {"models": ["j"], "votes": 1, "seed": 1, "temperature": -1}, "config.judge.temperature must be a number of 0"),
    ("judge", {"models": ["j"], "votes": 1, "seed": 1, "prompt_sha": 1}, "config.judge.prompt_sha must be a sha256"),
    # (round 123) a panel naming one model twice, as run refuses it: each copy's votes landed on one slot
    ("judge", {"models": ["j", "J:latest"], "votes": 1, "seed": 1}, "config.judge.models names J:latest twice (a panel of "
                                                                     "judges is of different models)"),
    # the ninth attack on issue 28, item 15: one digest a judge model, text or null
    ("judge", {"models": ["j"], "digests": ["a" * 64, "b" * 64]}, "config.judge.digests must be a list of text or null"),
    ("judge", {"models": ["j"], "digests": [5]}, "config.judge.digests must be a list of text or null"),
])
def test_every_number_of_a_run_is_finite_or_refused_in_one_line(hand_run, cli, where, value, says):
    """From the second attack on issue 25: NaN, Infinity or 10**400 in these fields went through
    (report --json then printed bare NaN, not JSON) or crashed the page with OverflowError."""
    run = load_json(hand_run)
    if where == "vote":
        run["results"][0]["judges"] = [{"check": "c", "model": "j", "vote": value, "seed": 1, "pass": True,
                                        "reason": None, "raw": None, "error": None}]
    else:
        run["config"][where] = value
    Path("odd.json").write_text(json.dumps(run))
    for argv in (("report", "odd.json"), ("report", "odd.json", "--json")):
        code, out, err = cli(*argv)
        assert code == 2 and says in err and len(err.strip().splitlines()) == 1, err


@pytest.mark.parametrize("host, said", [
    ("http://u:sk-secret@h:1", "config.host 'http://…@h:1' holds a user name or password (before its @), which run never "
                               "records (it refuses such a --host): edited in, or written by another tool"),
    ("sk-secret@h", "config.host '…@h' holds a user name or password"),
    ("http://h:1/?key=sk-secret", "config.host: host 'http://h:1/?…': a query (?…) or fragment (#…) is no part of a "
                                  "server's address")])
def test_a_run_whose_host_holds_a_password_is_refused_unprinted(hand_run, cli, host, said):
    """132nd round: a run file whose config.host held a user name and password (hand-edited, or from elsewhere) was
    read, and report --html's server row and report --json printed the password, which run refuses unprinted. It is
    refused as damaged, the host shown as run's refusal shows it (a query too: it may hold a key)."""
    run = load_json(hand_run)
    run["config"]["host"] = host
    Path("odd").mkdir(exist_ok=True)
    Path("odd/h.json").write_text(json.dumps(run))
    for argv in (("report", "odd/h.json"), ("report", "odd/h.json", "--json"), ("report", "odd/h.json", "--markdown"),
                 ("report", "odd/h.json", "--html", "odd/h.html"), ("compare", hand_run, "odd/h.json"),
                 ("compare", "odd/h.json", hand_run, "--json")):
        code, out, err = cli(*argv)
        assert code == 2 and "sk-secret" not in out + err and len(err.strip().splitlines()) == 1, (argv, err)
        assert err.startswith(f"error: odd/h.json: not a valid run file: {said}") \
            and err.endswith("; restore it from a copy, or run it again\n"), err
    assert not os.path.exists("odd/h.html")
    code, out, err = cli("runs", "odd")
    assert code == 0 and "odd/h.json" in out and "sk-secret" not in out + err, out + err


@pytest.mark.parametrize("host, said", [
    ("http://127.0.0.1:1/?k=Zq7\nXw9", "config.host: host 'http://127.0.0.1:1/?…': a query (?…) or fragment (#…)"),
    ("http://127.0.0.1:1/#Zq7\r\nXw9", "config.host: host 'http://127.0.0.1:1/#…': a query (?…) or fragment (#…)"),
    ("http://127.0.0.1:1/?k=a@Zq7Xw9", "config.host: host 'http://…?…': a query (?…) or fragment (#…)"),
    ("http://127.0.0.1:1/?k=Zq7\n@Xw9", "config.host: host 'http://…?…': a query (?…) or fragment (#…)"),
    ("http://u:Zq7#Xw9@127.0.0.1:1", "config.host: host 'http://…#…': a query (?…) or fragment (#…)"),
    ("http://u:Zq7/Xw9?Xw9@127.0.0.1:1", "config.host: host 'http://…?…': a query (?…) or fragment (#…)"),
    ("http://u:Zq7@Xw9@127.0.0.1:1/?k=Xw9", "config.host 'http://…@127.0.0.1:1/?…' holds a user name or password"),
    ("http://u:Zq7\nXw9@127.0.0.1:1", "config.host 'http://…@127.0.0.1:1' holds a user name or password"),
    # (133rd round) a path parameter may hold a key as a query does: shown whole by report, runs and --json
    ("http://127.0.0.1:1/;token=Zq7Xw9", "config.host: host 'http://127.0.0.1:1/;…': a path parameter (;…) is no part"),
])
def test_no_letter_of_a_query_or_a_password_in_a_run_files_host_is_ever_printed(hand_run, cli, host, said):
    """132nd round: a line break in a run file's config.host, in its query, ended the part masked, and the rest of the
    query was printed on a line of its own; and a query holding an @ (http://h:1/?k=a@s3cret) was shown 'http://…@s3cret',
    said to hold a user name or password. Nothing after a ? or # is printed, to the end (nor before it where an @
    follows: a password may hold a ? or #); only an @ before them is a user name's and password's."""
    run = load_json(hand_run)
    run["config"]["host"] = host
    Path("odd").mkdir(exist_ok=True)
    Path("odd/h.json").write_text(json.dumps(run))
    for argv in (("report", "odd/h.json"), ("report", "odd/h.json", "--json"), ("runs", "odd")):
        code, out, err = cli(*argv)
        assert "Zq7" not in out + err and "Xw9" not in out + err, (argv, out, err)
        if argv[0] == "report":
            assert code == 2 and err.startswith(f"error: odd/h.json: not a valid run file: {said}") \
                and len(err.splitlines()) == 1, (argv, err)


def test_a_vote_holding_both_a_verdict_and_an_error_is_refused(hand_run, cli):
    """Round 123: a vote edited to hold pass false beside an error was scored as failing, and counted a failed call
    too ("27 judge calls (1 failed)"): a failed call has no verdict."""
    run = load_json(hand_run)
    run["results"][0]["judges"] = [{"check": "c", "model": "j", "vote": 1, "seed": 1, "pass": False, "reason": None,
                                    "raw": None, "error": "HTTP 500"}]
    Path("odd.json").write_text(json.dumps(run))
    for argv in (("report", "odd.json"), ("report", "odd.json", "--json")):
        code, out, err = cli(*argv)
        assert code == 2 and "judges: vote 1: both a verdict and an error (a failed call has no verdict: it was " \
            "edited)" in err and len(err.strip().splitlines()) == 1, err


@pytest.mark.parametrize("version", [5, True, -1, 1e300, ["0.12.6"], {"v": 1}])
def test_a_server_version_that_is_not_text_is_one_line_in_every_view(hand_run, cli, version):
    """From the fifth attack on issue 28 (item 3): a number, true or 1e300 as config.server_version
    crashed every report view with TypeError (the version was matched as text), exit 1. `run` records
    a version it cannot read as null, so this is a damaged or hand-edited file: one line naming it."""
    run = load_json(hand_run)
    run["config"]["server_version"] = version
    Path("odd").mkdir(exist_ok=True)
    Path("odd/v.json").write_text(json.dumps(run))
    for argv in (("report", "odd/v.json"), ("report", "odd/v.json", "--json"),
                 ("report", "odd/v.json", "--markdown"), ("report", "odd/v.json", "--html", "odd/v.html"),
                 ("compare", hand_run, "odd/v.json")):
        code, out, err = cli(*argv)
        assert code == 2 and out == ("" if "--markdown" not in argv else "**eval.py report: not done.**\n\n~~~~\nodd/v.json: "
                                     "not a valid run file: config.server_version must be text or null; restore it from a copy, or run it "
                                     "again\n~~~~\n"), out
        assert len(err.strip().splitlines()) == 1, (argv, err)
        assert err.startswith("error: odd/v.json: not a valid run file: config.server_version must be text or null"), err
    code, out, err = cli("runs", "odd")
    assert code == 0 and "odd/v.json" in out and "Traceback" not in err
