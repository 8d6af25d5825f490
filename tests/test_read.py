"""Reading a run back: whatever its layout, a run file reads as json.load reads it, every result
checked; a damaged file fails in one line, where json.load places the damage."""

import json
import random
import re
import tracemalloc
from pathlib import Path

import pytest

from conftest import AGENT_TOOLS, ROOT, agent_run, evalpy, load_json, split_run, write_run
from conftest import make_run as make_run_of

CONFIG = {"model": "m", "prompt": "prompts/v1.txt", "prompt_sha": evalpy.sha256_bytes("Clasifica «el ticket».\n".encode()),
          "split": "dev", "split_sha": "5" * 64, "labels": ["bug", "acceso", "facturación"], "temperature": 0.0,
          "seed": 42, "repeat": 2, "prompt_text": "Clasifica «el ticket».\n"}


# (round 102) what a damaged run file's message tells to do
RESTORE = "; eval.py writes a run whole, at once: restore it from a copy, or run it again"

def make_run(cases=30):
    rng = random.Random(7)
    results = []
    for i in range(cases):
        for trial in (1, 2):
            results.append({
                "id": f"c{i:03d}", "input": f"ticket número {i} ünïcödé 🚀", "expected": CONFIG["labels"][i % 3],
                "difficulty": "easy", "note": "n", "tags": ["t"] if i % 4 else [],
                "checks": [{"name": "label", "type": "label", "blocking": True}],
                "trial": trial, "response": rng.choice(["bug", "Bug.", "acceso", "no sé", "x" * 50]),
                "error": None, "attempts": 1, "latency_ms": round(rng.uniform(0, 20000), 3),
                "prompt_tokens": rng.randrange(10 ** 6), "completion_tokens": 1, "done_reason": "stop",
                "judges": None})
    return {"format": evalpy.RUN_FORMAT, "config": dict(CONFIG), "results": results}


def read(path):
    return evalpy.load_run(str(path))


@pytest.mark.parametrize("layout", ["as written", "compact", "indent 4", "results before config"])
def test_any_layout_reads_what_json_load_reads(tmp_path, layout):
    run = make_run()
    if layout == "as written":
        text = "".join(evalpy.run_text(run))
    elif layout == "compact":
        text = json.dumps(run, ensure_ascii=False, separators=(",", ":"))
    elif layout == "indent 4":
        text = json.dumps(run, indent=4)
    else:
        text = json.dumps({"results": run["results"], "config": run["config"], "format": run["format"]})
    (tmp_path / "r.json").write_text(text, encoding="utf-8")
    back, reference = read(tmp_path / "r.json"), json.loads(text)
    assert back["results"] == reference["results"]
    assert back["config"] == dict(reference["config"], api="ollama", format=None, options={}, think="default")   # defaults filled


def test_keys_after_the_results_are_read_and_ignored(tmp_path):
    run = make_run(3)
    text = json.dumps(run)[:-1] + ', "notes": {"by": "me", "list": [1, 2]}}'
    (tmp_path / "r.json").write_text(text, encoding="utf-8")
    assert read(tmp_path / "r.json")["results"] == run["results"]


@pytest.mark.parametrize("tail", ["x", "{}", "]", ', "k"'])
def test_text_after_the_run_is_damage(tmp_path, tail):
    (tmp_path / "r.json").write_text(json.dumps(make_run(2)) + tail, encoding="utf-8")
    with pytest.raises(evalpy.EvalError, match="damaged or cut short"):
        read(tmp_path / "r.json")


def test_a_file_cut_anywhere_is_one_plain_error(tmp_path):
    data = "".join(evalpy.run_text(make_run(2))).encode()
    end = data.rstrip().rfind(b"}")   # cut anywhere before the closing brace
    for cut in range(end):
        (tmp_path / "r.json").write_bytes(data[:cut])
        with pytest.raises(evalpy.EvalError) as caught:
            read(tmp_path / "r.json")
        assert "damaged or cut short" in str(caught.value) or "not a valid run file" in str(caught.value), cut


def test_damage_is_placed_at_the_line_and_column_json_load_gives(tmp_path):
    text = "".join(evalpy.run_text(make_run(40)))
    starts = [i for i, ch in enumerate(text) if ch == '"' and text[i - 1] == " " and i > 2000]
    rng = random.Random(3)
    for at in rng.sample(starts, 40):
        damaged = text[:at] + "@" + text[at + 1:]   # a value or key that is not JSON
        with pytest.raises(json.JSONDecodeError) as reference:
            json.loads(damaged)
        (tmp_path / "r.json").write_text(damaged, encoding="utf-8")
        with pytest.raises(evalpy.EvalError) as caught:
            read(tmp_path / "r.json")
        where = f"line {reference.value.lineno}, column {reference.value.colno}"
        assert where in str(caught.value), (str(caught.value), where)


def test_not_utf8_is_one_plain_error(tmp_path):
    data = "".join(evalpy.run_text(make_run(3))).encode().replace(b"n\xc3\xbamero", b"n\xfamero", 1)
    (tmp_path / "r.json").write_bytes(data)
    with pytest.raises(evalpy.EvalError, match=r"not valid UTF-8 \(byte \d+\), which eval.py always writes"):
        read(tmp_path / "r.json")


def test_a_result_problem_deep_in_the_file_is_named(tmp_path):
    run = make_run(30)
    run["results"][45]["trial"] = 9
    (tmp_path / "r.json").write_text("".join(evalpy.run_text(run)), encoding="utf-8")
    with pytest.raises(evalpy.EvalError, match="result c022, trial 9: trial must be a whole number from 1 to config.repeat"):
        read(tmp_path / "r.json")


def traced_peak(work):
    """The most memory Python held at once while work() ran (tracemalloc: counted, not timed)."""
    tracemalloc.start()
    try:
        work()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_grading_a_run_holds_no_more_at_once_than_reading_it(tmp_path):
    """A report's run is graded in the room reading it takes: its text let go once read, each result once graded (a
    100,000-case report held the text through the checks and every result beside every graded case: 9% more here)."""
    path = tmp_path / "r.json"
    path.write_text(json.dumps(make_run(2000), ensure_ascii=False, separators=(",", ":")), encoding="utf-8")
    read_only = traced_peak(lambda: json.loads(path.read_text(encoding="utf-8")))
    graded = traced_peak(lambda: evalpy.read_graded(str(path)))
    assert graded <= read_only * 1.03, (graded, read_only)


def test_the_config_alone_is_read_even_from_a_run_cut_after_it(tmp_path):
    run = make_run(3)
    text = "".join(evalpy.run_text(run))
    (tmp_path / "r.json").write_text(text[: text.index('"results"') + 20], encoding="utf-8")   # cut: still fine
    assert evalpy.read_run_config(str(tmp_path / "r.json")) == run["config"]
    (tmp_path / "bad.json").write_text('{"format": "x", "config": [1]}', encoding="utf-8")
    assert evalpy.read_run_config(str(tmp_path / "bad.json")) is None
    assert evalpy.read_run_config(str(tmp_path / "none.json")) is None


def test_the_checks_fingerprint_follows_the_checks_not_how_they_are_held():
    def cases(checks_for):
        return [{"id": f"c{i}", "checks": checks_for(i)} for i in range(6)]
    label = [{"name": "label", "type": "label", "blocking": True}]
    shared = evalpy.checks_fingerprint(cases(lambda i: label))
    assert evalpy.checks_fingerprint(cases(lambda i: json.loads(json.dumps(label)))) == shared
    other = [{"name": "label", "type": "label", "blocking": False}]
    assert evalpy.checks_fingerprint(cases(lambda i: other if i == 3 else label)) != shared
    assert evalpy.checks_fingerprint(cases(lambda i: label + other if i == 5 else label)) != shared


@pytest.mark.parametrize("subset", [3, [1], {"limit": 0}, {"limit": "5"}, {"cases": "dev-01"}, {"limit": 2, "cases": []}])
def test_a_hand_edited_subset_is_refused_in_one_line(tmp_path, subset):
    run = make_run(3)
    run["config"]["subset"] = subset
    (tmp_path / "r.json").write_text(json.dumps(run), encoding="utf-8")
    with pytest.raises(evalpy.EvalError, match="config.subset must be null"):
        read(tmp_path / "r.json")


def test_an_empty_case_id_is_refused(tmp_path):
    run = make_run(2)
    for r in run["results"][:2]:
        r["id"] = ""
    (tmp_path / "r.json").write_text(json.dumps(run), encoding="utf-8")
    with pytest.raises(evalpy.EvalError, match="result 1: field 'id' is empty"):
        read(tmp_path / "r.json")


@pytest.mark.parametrize("edit, message", [
    # a trial moved to another case kept the count of answers: 6 cases reported in a run of 5, a gate passed
    (lambda run: run["results"][2].update(id="c000"), "result c000, trial 1 appears twice"),
    (lambda run: run["results"][3].update(id="c009"), "result c001 holds 1 of its 2 trials (no trial 2): results were taken out, moved"),
    (lambda run: run["results"].pop(3), "result c001 holds 1 of its 2 trials (no trial 2)"),
    # a trial's number taken out read as trial 1 given twice (every eval.py wrote it where a run repeats)
    (lambda run: run["results"][3].pop("trial"), "result c001 has no trial: config.repeat is 2, and each result names its trial"),
    # a subset that says other than the results: "only the first 2 cases" over 5, "0 chosen cases" over 5
    (lambda run: run["config"].update(subset={"limit": 2}), "config.subset says the first 2 cases, but the results hold 5"),
    (lambda run: run["config"].update(subset={"cases": []}), "config.subset.cases names other cases than the results hold (only the results hold c000, c001,"),
    (lambda run: run["config"].update(subset={"cases": ["c000", "c001", "c002", "c003", "x"]}),
     "config.subset.cases names other cases than the results hold (only it names x; only the results hold c004)"),
], ids=["trial-on-another", "trial-moved", "trial-taken-out", "trial-number-taken-out", "limit-under", "cases-empty", "cases-other"])
def test_every_case_holds_every_trial_and_the_subset_names_the_cases_held(tmp_path, edit, message):
    """Forty-seventh round on issue 28: only the number of answers was checked."""
    run = make_run(5)
    edit(run)
    (tmp_path / "r.json").write_text(json.dumps(run), encoding="utf-8")
    with pytest.raises(evalpy.EvalError, match=re.escape(message)):
        read(tmp_path / "r.json")


def test_a_run_of_chosen_cases_without_its_count_of_cases_is_reported(project, cli):
    """Forty-seventh round on issue 28: config.cases is optional (older runs), and a run of chosen cases without it
    made report end in a KeyError traceback."""
    run = make_run(3)
    run["config"]["subset"] = {"cases": ["c000", "c001", "c002"]}
    assert "cases" not in run["config"]   # (as an older eval.py wrote it)
    Path("r.json").write_text(json.dumps(run), encoding="utf-8")
    for view in ([], ["--markdown"], ["--html", "r.html"]):
        code, out, err = cli("report", "r.json", *view)
        assert code == 0 and "Traceback" not in err, err
    assert "only 3 chosen cases: --cases" in cli("report", "r.json")[1]


@pytest.mark.parametrize("edit", ["results taken out", "a second results key"])
def test_results_must_be_every_case_and_trial_the_config_counts(tmp_path, edit):
    """A second "results" key holding only the right answers made a failing run pass its gate."""
    run = make_run(6)
    run["config"]["cases"] = 6   # as eval.py records it
    if edit == "results taken out":
        run["results"] = run["results"][:-2]
        text = json.dumps(run)
    else:
        text = json.dumps(run)[:-1] + ', "results": ' + json.dumps(run["results"][:4]) + "}"
    (tmp_path / "r.json").write_text(text, encoding="utf-8")
    with pytest.raises(evalpy.EvalError, match="config.cases says 6 cases, but the results hold 5" if edit == "results taken out"
                       else r"damaged \(key 'results' is given twice\)"):   # refused as read, never its last value
        read(tmp_path / "r.json")


@pytest.mark.parametrize("edit, says", [
    (lambda r: r.update(input=5), "field 'input' must be a string, not a number"),
    (lambda r: r.update(input=["a"]), "field 'input' must be a string, not a list"),
    (lambda r: r.update(messages=[{"role": "user", "content": "hola"}]), "give either input or messages, not both"),
])
def test_a_hand_edited_input_is_refused_not_a_traceback(project, cli, edit, says):
    """From the attack on issue 18: an input of another type crashed judge and report --case."""
    run = split_run("dev", {})
    edit(run["results"][1])
    write_run("runs/edited.json", run)
    for argv in (["report", "runs/edited.json"], ["report", "runs/edited.json", "--case", "dev-02"],
                 ["judge", "runs/edited.json", "--host", "127.0.0.1:9"]):
        code, out, err = cli(*argv)
        assert code == 2 and says in err and "Traceback" not in err, argv


def test_a_labelled_result_without_its_label_check_is_refused(project, cli):
    """Attack 41: a result's checks emptied by hand in a run with labels was read, and report counted its
    answer a pass (19/28 for 18/28); compare alone refused it. Every case of a set with labels has the label
    check; a result without it is named (checks left out altogether are an older file's: the label check)."""
    run = split_run("dev", {})
    run["results"][1]["checks"] = []
    write_run("runs/edited.json", run)
    for argv in (["report", "runs/edited.json"], ["report", "runs/edited.json", "--case", "dev-02"]):
        code, out, err = cli(*argv)
        assert code == 2 and err == ("error: runs/edited.json: not a valid run file: result dev-02: no label check, which every "
                                     "case of a set with labels has (the run file was edited); restore it from a copy, or run it again\n"), (argv, err)
    del run["results"][1]["checks"]
    write_run("runs/older.json", run)
    assert cli("report", "runs/older.json")[0] in (0, 1)


@pytest.mark.parametrize("edit", [{"blocking": False}, {"weight": 1, "blocking": False}, {"weight": 1, "blocking": True}])
def test_a_label_check_that_may_fail_is_scored_as_blocking_and_named(project, cli, edit):
    """Attack 42: a label check made non-blocking or weighted let a wrong label pass (Accuracy 100%, gate
    passed). Attack 43: refused, a run made so by an older eval.py could no longer be read at all. A labelled
    case is scored on its label: such a check is read as blocking, unweighted, and the cases named."""
    run = split_run("dev", {"dev-02": "nonsense"})
    run["results"][1]["checks"][0].update(edit)
    if "weight" in edit:   # attack 44: the weighted label check was all its threshold weighed, and the run was refused
        run["results"][1]["pass_threshold"] = 0.5
    write_run("runs/edited.json", run)
    code, out, err = cli("report", "runs/edited.json", "--min-accuracy", "1")
    assert code == 1 and "Accuracy: 27/28" in out, out
    assert err.startswith("note: runs/edited.json: 1 case(s) hold a label check written non-blocking or weighted (dev-02): "
                          "scored as every label check is, blocking\n"), err


@pytest.mark.parametrize("transcript", ["gone", None, []])
def test_an_agents_answer_without_its_transcript_is_refused(project, cli, transcript):
    """Thirty-fourth round on issue 28: an answer of a case with tools whose transcript was taken out was read:
    its trajectory checks failed in the checks table while the agent section left the case out (1/1 = 100%)."""
    run = agent_run()
    if transcript == "gone":
        del run["results"][1]["transcript"]
    else:
        run["results"][1]["transcript"] = transcript
    write_run("runs/edited.json", run)
    code, out, err = cli("report", "runs/edited.json")
    assert code == 2 and "result a2: an answer of a case with tools holds its transcript" in err, err


@pytest.mark.parametrize("field, value, message", [
    ("context", "passages", "field 'context' must be a list of passages"),
    ("context", [{"id": "a", "text": "t"}, {"id": "a", "text": "u"}], "context: passage id 'a' is given twice"),
    ("relevant", [3], "field 'relevant' must be a list of passage ids"),
    ("context", [{"id": "a\n[2] (id: b", "text": "t"}], "must be 1 to 64 ASCII letters"),
])
def test_a_run_file_with_bad_passages_is_one_plain_error(project, cli, field, value, message):
    """RAG (issue 30): a hand-edited run is held to the split's rules for passages."""
    run = make_run_of([{"id": "r1", "input": "q", "context": [{"id": "a", "text": "t"}], "relevant": ["a"],
                     "response": "x", "checks": [{"name": "c", "type": "contains", "value": "x", "blocking": True}]}],
                   labels=None)
    run["results"][0][field] = value
    path = write_run("runs/bad.json", run)
    code, out, err = cli("report", path)
    assert code == 2 and "Traceback" not in err and message in err and err.count("\n") <= 2, err


def test_a_context_file_that_is_a_folder_or_not_utf8_is_one_line(project, cli, fake, tmp_path):
    (project / "rag").mkdir()
    (project / "rag" / "dev.jsonl").write_text(json.dumps({"id": "q1", "input": "q", "difficulty": "e", "note": "n",
                                                           "checks": [{"type": "contains", "value": "x"}]}) + "\n")
    (project / "ctx").mkdir()
    code, _, err = cli("run", "--split", "rag/dev.jsonl", "--prompt", "prompts/v1.txt", "--host", fake.url, "--context", "ctx")
    assert code == 2 and "ctx: is a folder, not a context file" in err
    (project / "ctx.jsonl").write_bytes(b'{"id": "q1", "context": [{"id": "a", "text": "\xff"}]}\n')
    code, _, err = cli("run", "--split", "rag/dev.jsonl", "--prompt", "prompts/v1.txt", "--host", fake.url,
                       "--context", "ctx.jsonl")
    assert code == 2 and "ctx.jsonl:1: not valid UTF-8" in err and fake.chat_bodies == []


@pytest.mark.parametrize("api, options, key", [("ollama", {"temperature": 0.9}, "temperature"),
                                               ("openai", {"seed": 7}, "seed"),
                                               ("openai", {"model": "other"}, "model"),
                                               ("openai", {"messages": []}, "messages")])
def test_options_a_run_sets_itself_are_refused_in_a_hand_edited_run_file(project, cli, api, options, key):
    """From the self-attack on the second attack's item 1: --option refuses temperature, seed and (over
    /v1) the request's own keys, but a hand-edited config.options still sent them on --resume, over
    what the run records (its temperature, its model, its prompt)."""
    run = split_run("dev", {})
    run["config"].update(api=api, options=options)
    write_run("runs/edited.json", run)
    code, out, err = cli("report", "runs/edited.json")
    assert code == 2 and f"config.options.{key}" in err and len(err.splitlines()) == 1, err
    if api == "ollama":   # over Ollama the options go in their own object: a model key there is only an option
        run["config"].update(options={"model": "other", "num_predict": 8})
        write_run("runs/kept.json", run)
        assert cli("report", "runs/kept.json")[0] == 0


def test_a_run_cut_inside_a_string_says_where_the_string_starts_in_words(tmp_path, cli):
    """Newcomer pass N14: a cut-off run file said "(line 112, column 10: Unterminated string starting
    at)": json's message leaves the place to its own str(), so it read cut off. The place now ends it."""
    text = "".join(evalpy.run_text(make_run(3)))
    at = text.index('"response"') + 1
    (tmp_path / "r.json").write_text(text[:at + 5], encoding="utf-8")
    line = text[:at].count("\n") + 1
    column = at - text.rfind("\n", 0, at) - 1
    code, out, err = cli("report", tmp_path / "r.json")
    assert code == 2 and err == (f"error: {tmp_path}/r.json: not a readable run file, damaged or cut short "
                                 f"(unterminated string starting at line {line}, column {column}){RESTORE}\n"), err
    (tmp_path / "r.json").write_text(text.replace('"results"', '"results" 3', 1), encoding="utf-8")
    code, out, err = cli("report", tmp_path / "r.json")
    assert code == 2 and ", column 12: Expecting ':' delimiter)" + RESTORE + "\n" in err, err     # a message that needs no place


def judged_twice_run():
    """Two free-text cases, each answered and judged once (c1's vote a pass), as eval.py writes them."""
    check = [{"name": "helps", "type": "judge", "value": "c", "blocking": True}]
    vote = {"check": "helps", "model": "m", "vote": 1, "seed": 42, "pass": True, "reason": "fine", "raw": "x",
            "error": None, "prompt_tokens": 1, "completion_tokens": 1}
    return make_run_of([{"id": f"c{i}", "response": "Hola Lucía", "checks": check, "judges": [vote]} for i in (1, 2)],
                       labels=None)


@pytest.mark.parametrize("old, new, key", [
    ('"response": "Hola Lucía"', '"response": "Hola Lucía", "response": "WRONG"', "response"),
    ('"pass": true', '"pass": true, "pass": false', "pass"),
    ('"format": ', '"format": "other", "format": ', "format"),
    ('"model": "qwen2.5:7b"', '"model": "llama3.2:3b", "model": "qwen2.5:7b"', "model"),
])
def test_a_key_given_twice_in_a_run_file_is_refused_never_read_as_its_last_value(project, cli, old, new, key):
    """Thirteenth attack on issue 28, item 2: run files were read with plain json.load, so a response
    given twice was scored as its last ("WRONG"), and "pass": true, "pass": false in a vote counted a
    fail. Journals and sidecars refuse a key twice; so does a run file, naming the file and the key. 132nd round: with
    no next step, where one cut short is restored from a copy or run again: so is this one (NaN and 1e999 alike)."""
    good = write_run("runs/good.json", judged_twice_run())
    text = open(good, encoding="utf-8").read()
    assert old in text
    with open("runs/dup.json", "w", encoding="utf-8") as f:
        f.write(text.replace(old, new, 1))
    for argv in (["report", "runs/dup.json"], ["report", "runs/dup.json", "--case", "c1"],
                 ["compare", "runs/good.json", "runs/dup.json"]):
        code, out, err = cli(*argv)
        assert code == 2 and out == "" and err == (f"error: runs/dup.json: not a readable run file, damaged (key {key!r} "
                                                   "is given twice); eval.py never writes that: restore it from a copy, "
                                                   "or run it again\n"), (argv, err)
    code, out, err = cli("runs")
    line = next(l for l in out.splitlines() if l.split()[:1] == ["runs/dup.json"])
    assert code == 0 and "not a readable run file" in line and "Traceback" not in err, out
    listed = {e["file"]: e for e in json.loads(cli("runs", "--json")[1])}
    assert f"(key {key!r} is given twice); " in listed["runs/dup.json"]["problem"], listed
    for value in ("NaN", "1e999"):
        with open("runs/nan.json", "w", encoding="utf-8") as f:
            f.write(text.replace('"pass": true', f'"pass": true, "n": {value}', 1))
        err = cli("report", "runs/nan.json")[2]
        assert err.endswith("; eval.py never writes that: restore it from a copy, or run it again\n"), err


def test_a_number_json_has_no_room_for_in_a_run_file_is_named_without_pythons_advice(tmp_path):
    """Once a plain "damaged or cut short". Thirteenth attack on issue 28, item 2: a 5,000-digit integer gave Python's own words ("use
    sys.set_int_max_str_digits() to increase the limit"), which exact_json was written to avoid."""
    text = json.dumps(make_run(2)).replace('"seed": 42', '"seed": ' + "9" * 5000)
    (tmp_path / "r.json").write_text(text, encoding="utf-8")
    with pytest.raises(evalpy.EvalError) as caught:
        read(tmp_path / "r.json")
    assert str(caught.value) == (f"{tmp_path}/r.json: not a readable run file, damaged "
                                 "(999999999999…9999 (5000 digits) is too large a number); eval.py never writes that: "
                                 "restore it from a copy, or run it again"), caught.value


def test_a_run_file_saved_with_a_bom_says_so_in_words(tmp_path):
    """Self-attack after the thirteenth attack on issue 28: json's own words for a BOM end with its
    advice to a programmer, "(decode using utf-8-sig)"."""
    (tmp_path / "r.json").write_text("\ufeff" + json.dumps(make_run(2)), encoding="utf-8")
    with pytest.raises(evalpy.EvalError) as caught:
        read(tmp_path / "r.json")
    assert str(caught.value) == (f"{tmp_path}/r.json: a run file that begins with a byte-order mark (BOM), which eval.py "
                                 "never writes: save it as UTF-8 without one"), caught.value   # (round 106: not "damaged")


def test_the_config_of_a_run_or_journal_giving_a_key_twice_is_not_read_as_its_last_value(tmp_path):
    """Thirteenth attack on issue 28, item 2: read_run_config, journal_config and named_for_its_model
    read a run's config with plain json.loads: "model" given twice was taken as its last value (a
    default name then said another model's run held it). A config that is no exact JSON says nothing."""
    run = make_run(2)
    twice = '"model": "other", "model": "m"'
    (tmp_path / "r.json").write_text(json.dumps(run).replace('"model": "m"', twice, 1), encoding="utf-8")
    (tmp_path / "j.json.journal").write_text(json.dumps({"format": evalpy.RUN_FORMAT, "config": run["config"]})
                                             .replace('"model": "m"', twice, 1) + "\n", encoding="utf-8")
    assert evalpy.read_run_config(str(tmp_path / "r.json")) is None
    assert evalpy.journal_config(str(tmp_path / "j.json.journal")) is None
    assert evalpy.named_for_its_model(str(tmp_path / "r.json"), "other") == str(tmp_path / "r.json")
    assert evalpy.named_for_its_model(str(tmp_path / "j.json"), "other") == str(tmp_path / "j.json")
    # a run damaged after its config (a key twice in a result) still has its config, read as exactly
    cut = json.dumps(run).replace('"response": "bug"', '"response": "bug", "response": "x"', 1)
    assert cut != json.dumps(run)
    (tmp_path / "r.json").write_text(cut, encoding="utf-8")
    assert evalpy.read_run_config(str(tmp_path / "r.json")) == run["config"]


def test_runs_names_a_file_given_for_a_folder_and_a_null_date_as_none(project, cli):
    """Thirty-eighth round on issue 28 (minor): `runs A/cand.json` said "no such folder" of a file there is; a
    run whose date is null showed "None" in the date column; a damaged journal's problem lost its line number."""
    path = write_run("runs/x.json", make_run_of([("a", "bug", "bug")], date=None))
    code, out, err = cli("runs", path)
    assert code == 2 and "runs/x.json: a file, not a folder" in err, err
    # (round 110's review) a folder that cannot be reached (a file in its path; a parent it may not enter) is never
    # "no such folder"
    code, out, err = cli("runs", path + "/inner")
    assert code == 2 and err == (f"error: {path}/inner: cannot read folder (Not a directory: a part of that path is a "
                                 "file, not a folder; check the path)\n"), err
    (project / "runs" / "y.json").write_text('{"format": "eval.py-run/1"\n', encoding="utf-8")
    code, out, err = cli("runs", "runs")
    row = next(line for line in out.splitlines() if "runs/x.json" in line)
    assert "None" not in row and " - " in row, out
    assert "(line 2, " in next(line for line in out.splitlines() if "runs/y.json" in line), out


def test_a_run_an_older_eval_py_made_of_a_set_refused_now_is_read(project, cli):
    """112th round's review: a split's tool_results rule written without its list, a required name written otherwise
    than its property, and a rule naming a parameter so, are refused at load now; a run an older eval.py made of such a
    set was refused too ("not a valid run file"), its answers lost to report and compare. Read as it was asked."""
    import copy
    from conftest import agent_run
    run = copy.deepcopy(agent_run())   # (its tools are conftest's own: edited in place, later tests met them so)
    r = run["results"][0]
    r["tool_results"] = {"lookup_order": {"arguments": {"orderid": "A-1"}, "result": "x"}}
    r["tools"][0]["function"]["parameters"]["required"] = ["Order_ID"]
    r["tool_results"]["cancel_order"] = [{"arguments": {"Order-Id": "A-1"}, "result": "y"}]
    code, out, err = cli("report", write_run("runs/old.json", run))
    assert code in (0, 1) and "not a valid run file" not in err, err


def test_out_of_turns_is_refused_on_an_answer_that_no_agent_gave(project, cli):
    """121st round: out_of_turns edited into a labelled answer (true, or 1, which equals true) made its right label
    INVALID, with exit 0, and compare said "every answer the same" above the regression it made."""
    for value, says in ((True, "result dev-02: out_of_turns is true, but the answer holds no transcript: only an agent runs "
                                "out of turns (it was edited)"),
                        (1, "result dev-02: out_of_turns must be true, false or null")):
        run = split_run("dev")
        next(r for r in run["results"] if r["id"] == "dev-02")["out_of_turns"] = value
        code, out, err = cli("report", write_run("runs/edited.json", run))
        assert code == 2 and says in err, err
    run = split_run("dev")
    next(r for r in run["results"] if r["id"] == "dev-02")["out_of_turns"] = False   # (as every labelled answer may say)
    assert cli("report", write_run("runs/edited.json", run))[0] in (0, 1)


def test_an_agents_answer_that_is_not_one_conversation_is_refused(project, cli):
    """Round 110: an agent's answer edited out of shape was read as whole, its figures changed: out_of_turns flipped
    either way (the pass rate moved, "ran out of turns" said of an answer), calls added to its answer (read as cut by the
    token limit), a tool message after a cut call (its cancel counted), a cut turn moved before others, per_turn of
    another length. Each is refused, naming the result and what does not hold."""
    import copy
    from conftest import agent_run, agent_spec, make_run
    look = ("lookup_order", {"order_id": "A-1"}, True)
    run = agent_run()
    cut = agent_spec("a1", [look])
    cut["transcript"] = cut["transcript"][:1]   # a turn the token limit cut as it called: its call never run
    cut.update(response="", per_turn=[dict(cut["per_turn"][0], done_reason="length")], done_reason="length")
    run["results"][0] = make_run([cut], labels=None)["results"][0]
    assert cli("report", write_run("runs/whole.json", run))[0] in (0, 1)

    def edited(case, change):
        changed = copy.deepcopy(run)
        change(next(r for r in changed["results"] if r["id"] == case))
        return write_run("runs/edited.json", changed)
    for case, change, says in (
            ("a4", lambda r: r.update(out_of_turns=False), "out_of_turns is false, but its last turn called tools, whose results came"),
            ("a2", lambda r: r.update(out_of_turns=True), "out_of_turns is true, but its last turn answered without calling a tool"),
            ("a2", lambda r: r["transcript"][-1].update(tool_calls=[{"id": None, "name": "lookup_order", "arguments": {}}]),
             "turn 3: call 1 (lookup_order) has no tool message after it"),
            ("a1", lambda r: r["transcript"].append({"role": "tool", "name": "lookup_order", "call_id": None,
                                                     "content": "{}", "matched": True}),
             "out_of_turns is false, but its last turn called tools, whose results came"),
            ("a1", lambda r: (r["transcript"].append({"role": "assistant", "content": "ok"}), r["per_turn"].append(r["per_turn"][0])),
             "turn 1: no turn follows an answer without calls, nor one stopped for length as it called tools"),
            ("a2", lambda r: r["per_turn"].pop(), "per_turn holds 2 turns' figures and the transcript 3 turns"),
            # (its review) per_turn taken out, nothing was checked: out_of_turns flipped beside it was read as whole
            ("a4", lambda r: r.update(out_of_turns=False, per_turn=None), "per_turn must be a list of each turn's figures"),
            # (112th round) the answer scored edited apart from its transcript's last turn, or the reverse
            ("a2", lambda r: r.update(response="Hola"), "response is not the last turn's answer in its transcript"),
            ("a2", lambda r: r["transcript"][-1].update(content="otra cosa"),
             "response is not the last turn's answer in its transcript"),
            # (its review) an answer the token limit cut as it wrote, too
            ("a1", lambda r: (r.update(response="Hola"), r["per_turn"][-1].update(done_reason="length")),
             "response is not the last turn's answer in its transcript"),
            # (its second review) out of turns: its last words or none, as every eval.py stored them, never others
            ("a4", lambda r: r.update(response="Tienes 30 días"), "response is not the last turn's answer in its transcript")):
        code, out, err = cli("report", edited(case, change))
        assert code == 2 and f"result {case}: " in err and says in err and "(it was edited)" in err, (says, err)
    # (111th round) a tool message's call_id taken out: a traceback, exit 1, in report, compare, runs and a resume
    changed = edited("a2", lambda r: (r["transcript"][0]["tool_calls"][0].update(id="c1"), r["transcript"][1].pop("call_id")))
    for argv in (("report", changed), ("compare", "runs/whole.json", changed), ("report", changed, "--case", "a2")):
        code, out, err = cli(*argv)
        assert code == 2 and err == ("error: runs/edited.json: not a valid run file: result a2: transcript message 2: a tool message has a name, "
                                     "a call_id (a string, or null), a content and matched; restore it from a copy, or run it again\n"), (argv, err)


@pytest.mark.parametrize("name", [["helps"], {"a": 1}, ""])
def test_a_judge_check_named_with_no_text_is_one_plain_error_not_a_traceback(project, cli, name):
    """114th round's gates: a run file whose judge check's name was edited to a list crashed report and compare
    (TypeError: unhashable type: 'list') with exit 1, which CI reads as a failed gate."""
    vote = {"check": "helps", "model": "qwen2.5:7b", "vote": 1, "seed": 42, "pass": True, "reason": "r",
            "raw": '{"reason": "r", "pass": true}', "error": None, "prompt_tokens": 1, "completion_tokens": 1}
    cases = [{"id": f"c{i}", "response": "r", "judges": [vote],
              "checks": [{"name": n, "type": "judge", "value": "c", "blocking": True}]} for i, n in ((0, "helps"), (1, name))]
    path = write_run("runs/edited.json", make_run_of(cases, labels=None))
    other = write_run("runs/other.json", make_run_of([dict(c, checks=[dict(c["checks"][0], name="helps")]) for c in cases],
                                                     labels=None, temperature=0.5))
    for argv in (("report", path, "--min-accuracy", "0.5"), ("compare", other, path, "--fail-on-regression")):
        code, out, err = cli(*argv)
        assert code == 2 and "Traceback" not in err and len(err.strip().splitlines()) == 1 and "edited.json" in err, err
        # (115th round's review) the check edited is named, not its intact vote ("a vote on helps, which is no judge check")
        assert f"result c1: checks: a judge check whose name is not text, or empty ({json.dumps(name)})" in err, err


def test_a_prompt_text_edited_apart_from_its_sha_is_refused(project, cli):
    """115th round's fuzz: config.prompt_text edited (its sha left) was read as the prompt the model was sent (review's
    system prompt, report --case) and compare said nothing had changed."""
    run = make_run(3)
    path = write_run("runs/a.json", run)
    assert cli("report", path)[0] == 0
    run["config"]["prompt_text"] = "Responde siempre bug.\n"
    path = write_run("runs/b.json", run)
    for argv in (("report", path), ("compare", "runs/a.json", path), ("report", path, "--case", "c000")):
        code, out, err = cli(*argv)
        assert code == 2 and ("runs/b.json: not a valid run file: config.prompt_text is not the text config.prompt_sha "
                              "records") in err, (argv, err)


def test_turns_the_run_s_turn_limit_contradicts_are_refused(project, cli):
    """115th round's fuzz: config.max_turns edited (2 to 8, or to 1) was read as it said: "ran out of turns" of answers
    that stopped at 2, under a limit of 8, and compare listed "max_turns: 2 -> 8" of runs asked alike."""
    run = agent_run()   # (a4 ran out of turns at 3, the run's limit)
    assert cli("report", write_run("runs/a.json", run))[0] in (0, 1)
    for limit, said in ((8, "result a4: it ran out of turns after 3, short of config.max_turns (8): it was edited"),
                        (1, "result a1: it took 2 turns, past config.max_turns (1): it was edited")):
        run["config"]["max_turns"] = limit
        code, out, err = cli("report", write_run(f"runs/m{limit}.json", run))
        assert code == 2 and said in err, err


SAYS_OK = {"name": "says ok", "type": "contains", "value": "ok"}


def free_text_run(cli, check=SAYS_OK, answers=("ok", "no")):
    """A run of free/s.jsonl, ten cases checked by `check` (by default for "ok", check "says ok"), c01-c07 answered
    answers[0] (ok) and c08-c10 answers[1] (not), as split_run builds it; its report --min-accuracy 0.75 as written
    fails the gate at 7/10."""
    Path("free").mkdir()
    Path("free/s.jsonl").write_text("".join(json.dumps({"id": f"c{i:02d}", "input": f"ticket {i}", "difficulty": "easy",
                                                        "note": "n", "checks": [check]}) + "\n"
                                            for i in range(1, 11)))
    run = split_run("free/s.jsonl", {f"c{i:02d}": answers[i > 7] for i in range(1, 11)})
    assert cli("report", write_run("runs/free.json", run), "--min-accuracy", 0.75)[0] == 1   # as written: 7/10
    return run


def test_a_run_whose_failing_cases_had_their_checks_emptied_is_refused_not_passed(project, cli):
    """134th round: a run of a free-text split, 7 of 10 passing, its 3 failing results' "checks" set to [] by hand, passed
    report --min-accuracy 0.75 at 10/10, said only to have 3 cases with no blocking check. The split it recorded (its
    sha) is at hand: each case's checks are held to it, and the file is refused, the first case named."""
    run = free_text_run(cli)
    for result in run["results"][7:]:
        result["checks"] = []
    code, out, err = cli("report", write_run("runs/free.json", run), "--min-accuracy", 0.75)
    assert code == 2 and err == ("error: runs/free.json: not a valid run file: case c08's checks (none) are not those "
                                 "free/s.jsonl gives it (says ok), as the run recorded it (split sha "
                                 f"{run['config']['split_sha'][:8]}): it was edited; restore it from a copy, or run it "
                                 "again\n"), err
    # the split gone (or edited since) tells nothing: read as before, its cases without a check said
    Path("free/s.jsonl").rename("free/gone.jsonl")
    code, out, err = cli("report", "runs/free.json")
    assert code == 0 and "3 case(s) have no check that blocks" in err, err


@pytest.mark.parametrize("edit", ["deleted", "null", "json"])
def test_a_response_format_recorded_beside_no_format_schema_is_refused(project, cli, edit):
    """134th round: config.format deleted from a --format schema run (runs/example/dev-v3-schema.json) was read as a
    run of before --format, its JSON answers as plain text: 5/28 = 18% became 0/28 in silence. Only a --format schema
    run records the response_format it sent, so one recorded beside another format (or none) is refused as an edit; a
    run of before --format, which records neither, is still read."""
    run = json.loads((ROOT / "runs" / "example" / "dev-v3-schema.json").read_text(encoding="utf-8"))
    assert "Accuracy: 5/28 = 18%" in cli("report", write_run("runs/as-made.json", run))[1]
    if edit == "deleted":
        del run["config"]["format"]
    else:
        run["config"]["format"] = None if edit == "null" else edit
    said = ("runs/edited.json: not a valid run file: "
            + ("config has no 'format'" if edit == "deleted" else f"config.format is {'null' if edit == 'null' else json.dumps(edit)}")
            + ", and config.response_format 'json_object' is the form only a --format schema run records")
    path = write_run("runs/edited.json", run)
    for argv in (("report", path), ("compare", "runs/as-made.json", path)):
        code, out, err = cli(*argv)
        assert code == 2 and said in err and err.count("\n") == 1, (argv, err)
    # (a run of before --format: it records neither, nor the api of a later eval.py, and is read as plain text)
    del run["config"]["response_format"], run["config"]["api"]
    if edit == "deleted":
        assert cli("report", write_run("runs/older.json", run))[0] == 0


@pytest.mark.parametrize("later", ["api", "think"])
def test_an_ollama_schema_run_whose_format_was_deleted_is_refused(project, cli, later):
    """134th round: config.format deleted from an Ollama --format schema run (24/28), which records no response_format,
    was read as a run of before --format, its JSON answers as text: 0/28, exit 0. Every eval.py since --format records a
    format (null without it), and the file holds a key only such a version records ("api", "think"): it is refused,
    naming that key; a run of before --format, holding neither, is read as before."""
    run = split_run("dev", format="schema", think="default")
    del run["config"]["format"]
    del run["config"][{"api": "think", "think": "api"}[later]]
    code, out, err = cli("report", write_run("runs/nofmt.json", run))
    assert code == 2 and err == (f"error: runs/nofmt.json: not a valid run file: config has no 'format', which every run "
                                 f"that records {later!r} records (null without --format), so it was taken out; restore "
                                 "it from a copy, or run it again\n"), err
    del run["config"][later]
    assert cli("report", write_run("runs/older.json", run))[0] == 0


def non_blocking(result):
    result["checks"][0]["blocking"] = False


def weighed(result):
    del result["checks"][0]["blocking"]
    result["checks"][0]["weight"] = 1


def renamed_emptied(result):
    result.update(checks=[], id=result["id"] + "x")


def loosened(result):   # still blocking, so the case can still fail: its value made what the answer holds
    result["checks"][0]["value"] = "no"


@pytest.mark.parametrize("edit, said", [
    (non_blocking, "case c08's check says ok's blocking is false, where free/s.jsonl gives true"),
    (weighed, "case c08's check says ok's weight is 1, where free/s.jsonl gives absent"),
    (renamed_emptied, "case c08x is not one free/s.jsonl holds"),
    (loosened, 'case c08\'s check says ok\'s value is "no", where free/s.jsonl gives "ok"')])
def test_near_forms_of_the_checks_edit_are_refused_too(project, cli, edit, said):
    """134th round: held by check names alone, a failing case's check made non-blocking, or weighted in its blocking's
    stead, or its checks emptied under an id the split lacks, passed report --min-accuracy 0.75 at 10/10, exit 0. Each
    result's checks are held to the split's whole, every field, and an id the split lacks is an edit too; a run of
    --limit 3 (fewer of its ids) is read as before. 135th round: held so only where some case could not fail, its
    check's value made what the failing answers hold (loosened, still blocking) passed at 10/10: every case is held."""
    run = free_text_run(cli)
    for result in run["results"][7:]:
        edit(result)
    code, out, err = cli("report", write_run("runs/free.json", run), "--min-accuracy", 0.75)
    assert code == 2 and err == (f"error: runs/free.json: not a valid run file: {said}, as the run recorded it (split "
                                 f"sha {run['config']['split_sha'][:8]}): it was edited; restore it from a copy, or run "
                                 "it again\n"), err
    fewer = split_run("free/s.jsonl", subset={"limit": 3})
    fewer["results"] = fewer["results"][:3]
    assert evalpy.checks_edited(fewer) is None
    fewer["results"][2]["id"] = "c11"
    assert evalpy.checks_edited(fewer).startswith("case c11 is not one free/s.jsonl holds"), evalpy.checks_edited(fewer)



def test_a_failing_result_renamed_with_a_passing_cases_checks_is_refused(project, cli):
    """135th round's review: where every case could fail, a result whose id the split lacks was taken if its checks were
    some case's: c01-c10 failing, renamed c01x-c10x and given c11's checks (not_contains ok, which their answers pass),
    passed report --min-accuracy 0.9 at 11/11, for 1/11. At the sha the run records the split holds every id it asked,
    so one it lacks is refused whatever the checks; a result given twice (an id, or a trial) is refused as read."""
    Path("sw").mkdir()
    checks = [{"name": "says bug", "type": "contains", "value": "bug"}] * 7 + [SAYS_OK] * 3 + [
        {"name": "no ok", "type": "not_contains", "value": "ok"}]
    Path("sw/s.jsonl").write_text("".join(json.dumps({"id": f"c{i:02d}", "input": f"ticket {i}", "difficulty": "easy",
                                                      "note": "n", "checks": [check]}) + "\n"
                                          for i, check in enumerate(checks, 1)), encoding="utf-8")
    run = split_run("sw/s.jsonl", {f"c{i:02d}": "nada" for i in range(1, 12)})
    assert "Pass rate: 1/11 = 9%" in cli("report", write_run("runs/sw.json", run))[1]
    renamed = json.loads(json.dumps(run))
    for result in renamed["results"][:10]:
        result.update(id=result["id"] + "x", checks=renamed["results"][10]["checks"])
    code, out, err = cli("report", write_run("runs/renamed.json", renamed), "--min-accuracy", 0.9)
    assert code == 2 and out == "" and err.startswith("error: runs/renamed.json: not a valid run file: case c01x is not "
                                                      "one sw/s.jsonl holds, as the run recorded it"), err
    run["results"][9] = dict(run["results"][10])   # c10's result made a second c11
    code, out, err = cli("report", write_run("runs/twice.json", run), "--min-accuracy", 0.9)
    assert code == 2 and "result c11, trial 1 appears twice" in err, err


def test_an_agent_runs_checks_loosened_by_hand_are_refused(project, cli):
    """135th round's review: the split's checks were formed without its tools.json, so every trajectory check of an
    agent split "needs the case's tools", nothing was held, and a run of golden/agent/dev.jsonl whose regex checks were
    made '(?s).' (what any answer holds) passed report --min-accuracy 0.9 at 12/12. Formed as load_split forms them, the
    split's tools merged in, the edit is refused; the run as made is read, held to the split."""
    run = split_run("golden/agent/dev.jsonl")
    assert evalpy.recorded_checks(run["config"]["split_path"], run["config"]["split_sha"]) is not None
    assert evalpy.checks_edited(run) is None
    for check in (c for r in run["results"] for c in r["checks"] if c["name"] in ("asks to confirm", "offers a return")):
        check["value"] = "(?s)."
    code, out, err = cli("report", write_run("runs/agent.json", run), "--min-accuracy", 0.9)
    assert code == 2 and out == "" and err.startswith(
        "error: runs/agent.json: not a valid run file: case agent-dev-03's check asks to confirm's value is \"(?s).\", "
        "where golden/agent/dev.jsonl gives"), err


# a case whose checks an older eval.py stored otherwise: a default name's placeholders written with spaces, a var's
# value in a pattern quantified ({{x}}{2}) and not in NFC (Jose + a combining accent)
OLDER_CASE = {"id": "c1", "input": "ticket", "difficulty": "easy", "note": "n",
              "vars": {"order": "A-1", "x": "ab", "name": "Jose\u0301"},
              "checks": [{"type": "contains", "value": "{{ order }}"}, {"type": "regex", "value": "^{{x}}{2}"},
                         {"type": "regex", "value": "(?i){{ name }}"}]}


# the checks of OLDER_CASE as each older eval.py wrote them in its run file (each shape is what that commit's
# `run` wrote of this case against tests/fake_ollama.py)
OLDER_SHAPES = {
    # 89c29c8 (before round 111): names filled with the vars; values filled as text, not in NFC
    "before round 111": [("contains A-1", "A-1"), ("regex ^ab{2}", "^ab{2}"),
                         ("regex (?i)Jose\u0301", "(?i)Jose\u0301")],
    # b32e63f~1: names as written, their placeholders' spaces kept; values as text, not in NFC (before ff27b7d)
    "before b32e63f": [("contains {{ order }}", "A-1"), ("regex ^{{x}}{2}", "^ab{2}"),
                       ("regex (?i){{ name }}", "(?i)Jose\u0301")],
    # 7aca3a0~1: names one way; a value in NFC, but no unit before a quantifier ("^ab{2}", now "^(?:ab){2}")
    "before 7aca3a0": [("contains {{order}}", "A-1"), ("regex ^{{x}}{2}", "^ab{2}"),
                       ("regex (?i){{name}}", "(?i)Jos\u00e9")],
}


def free_split(*cases):
    """free/s.jsonl holding these cases; returns its path."""
    Path("free").mkdir()
    Path("free/s.jsonl").write_text("".join(json.dumps(c) + "\n" for c in cases), encoding="utf-8")
    return "free/s.jsonl"


def checks_of_report(cli, run, *options):
    """(exit code, each check's (passed, total), stderr) of report --json of this run written as runs/r.json."""
    code, out, err = cli("report", write_run("runs/r.json", run), "--json", *options)
    return code, [(c["passed"], c["total"]) for c in json.loads(out)["checks"]] if out else None, err


@pytest.mark.parametrize("shape", OLDER_SHAPES)
def test_a_run_an_older_eval_py_stored_its_checks_otherwise_is_read_an_edit_refused(project, cli, shape):
    """136th round: held to the split's checks (checks_edited), an honest run of an older eval.py was refused as "it was
    edited" where README says one stored otherwise is read: its check names' placeholders written "{{ order }}" (before
    b32e63f), a var's value in a pattern filled as text with no unit before a quantifier (before 7aca3a0) or not in
    NFC (before ff27b7d). Each is read; a pattern an older eval.py filled otherwise is scored as the split
    fills it now (as stored, "^ab{2}" passed "abb", which "^(?:ab){2}" fails: the bug 7aca3a0 fixed); a value edited by
    hand is still refused."""
    run = split_run(free_split(OLDER_CASE), {"c1": "abb, pedido A-1"})
    run["results"][0]["checks"] = [{"name": name, "type": name.split()[0], "blocking": True, "value": value}
                                   for name, value in OLDER_SHAPES[shape]]
    code, out, err = cli("report", write_run("runs/old.json", run), "--json")
    assert code == 0 and "edited" not in err, err
    assert [(c["passed"], c["total"]) for c in json.loads(out)["checks"]] == [(1, 1), (0, 1), (0, 1)], out
    run["results"][0]["checks"][1]["value"] = "^a"   # (loosened by hand: what no eval.py stored of it)
    code, out, err = cli("report", write_run("runs/old.json", run))
    assert code == 2 and "'s value is \"^a\", where free/s.jsonl gives \"^(?:ab){2}\"" in err, err
    assert "it was edited" in err, err


def test_a_check_whose_true_was_edited_to_1_is_refused(project, cli):
    """135th round: a json check's schema asking {"ok": true} (enum [true]), c08-c10 answering {"ok": 1}, 7/10, its enum
    made [1] by hand in the failing results passed report --min-accuracy 0.75 at 10/10: Python's == takes 1 for true.
    Held as JSON holds them (same_json), true is not 1, and the file is refused; 1.0 is still 1, one number however
    written (a weight of 1.0 scores as 1), so nothing is said of it."""
    schema = {"type": "object", "properties": {"ok": {"enum": [True]}}, "required": ["ok"]}
    run = free_text_run(cli, {"name": "says ok", "type": "json", "schema": schema}, ('{"ok": true}', '{"ok": 1}'))
    for result in run["results"][7:]:
        result["checks"][0]["schema"]["properties"]["ok"]["enum"] = [1]
    code, out, err = cli("report", write_run("runs/free.json", run), "--min-accuracy", 0.75)
    assert code == 2 and ('case c08\'s check says ok\'s schema is {"type": "object", "properties": {"ok": {"enum": [1]}}, '
                          '"re…, where free/s.jsonl gives {"type": "object", "properties": {"ok": {"enum": [true]}}, …, '
                          'as the run recorded it') in err, err
    assert evalpy.checks_difference([{"name": "a", "weight": 1.0}], [{"name": "a", "weight": 1}], "s") is None
    assert evalpy.checks_difference([{"name": "a", "value": [1]}], [{"name": "a", "value": [True]}], "s") \
        == "check a's value is [1], where s gives [true]"


def test_a_pattern_an_older_eval_py_stored_not_in_nfc_is_scored_as_the_split_fills_it_now(project, cli):
    """136th round's review (F1): a run of an eval.py before ff27b7d stored "(?i)hola {{name}}" of a name written with
    a combining accent as "(?i)hola Jose\u0301", not in NFC; read as stored, it found nothing in the answers, read in
    NFC, and report scored 0/2 what that eval.py scored 1/2 and this one's run of the split 2/2. Scored as the split
    fills it now: 2/2, and a note says so once."""
    case = {"input": "q", "difficulty": "easy", "note": "n", "vars": {"name": "Jose\u0301"},
            "checks": [{"type": "regex", "value": "(?i)hola {{name}}"}]}
    run = split_run(free_split(dict(case, id="c1"), dict(case, id="c2")),
                    {"c1": "Hola Jose\u0301, tu pedido", "c2": "Hola Jos\u00e9, tu pedido"})
    for result in run["results"]:
        result["checks"][0]["value"] = "(?i)hola Jose\u0301"   # (what ff27b7d~1's run stored of both)
    code, checks, err = checks_of_report(cli, run)
    assert (code, checks) == (0, [(2, 2)]), err
    assert err.count("2 case(s) hold a check an older eval.py filled with the case's vars otherwise (c1, c2): "
                     "scored as free/s.jsonl fills it now") == 1, err


def test_a_run_edited_into_an_older_form_of_its_checks_scores_as_made(project, cli):
    """136th round's review (F2): a run this eval.py made, its "^(?:ab){2}" edited by hand into "^ab{2}" (what an eval.py
    before 7aca3a0 stored), was read as an older run and scored as edited: 2/2 where the run as made scored 1/2, and
    report --min-accuracy 1 passed it. Nothing in a run tells the two apart; scored as the split fills it now, the edit
    gains nothing: the same figures and exit as the run as made."""
    case = {"input": "q", "difficulty": "easy", "note": "n", "checks": [{"type": "regex", "value": "^{{x}}{2}"}]}
    run = split_run(free_split(dict(case, id="c1", vars={"x": "ab"}), dict(case, id="c2", vars={"x": "cd"})),
                    {"c1": "abb id", "c2": "cdcd id"})
    made = checks_of_report(cli, run, "--min-accuracy", 1)
    assert made[:2] == (1, [(1, 2)]), made
    run["results"][0]["checks"][0]["value"] = "^ab{2}"
    assert checks_of_report(cli, run, "--min-accuracy", 1)[:2] == made[:2]


# an agent case whose tool_called check's arguments hold a var: an eval.py before 0b63639 (round 111) stored them as
# written, {"order_id": "{{order_id}}"} (its run of this case against tests/fake_ollama.py held the check as this
# eval.py's does, but for its arguments)
UNFILLED_CASE = {"input": "¿Dónde está mi pedido A-1?", "difficulty": "easy", "note": "n", "vars": {"order_id": "A-1"},
                 "tools": AGENT_TOOLS[:1], "checks": [{"type": "tool_called", "value": "lookup_order",
                                                       "arguments": {"order_id": "{{order_id}}"}}],
                 "tool_results": {"lookup_order": [{"arguments": {"order_id": "A-1"}, "result": {"status": "enviado"}}]}}


def unfilled_runs(cli, fake, arguments):
    """runs/made.json, this eval.py's run of UNFILLED_CASE (c1) against the fake, its agent calling lookup_order with
    these arguments; and runs/older.json, the same with its check's arguments as an eval.py before round 111 stored
    them. Returns the exit code and check figures of report --min-accuracy 1 of the run as made."""
    free_split(dict(UNFILLED_CASE, id="c1"))
    fake.agents[UNFILLED_CASE["input"]] = [[("lookup_order", arguments)], "Está enviado."]
    code, out, err = cli("run", "--split", "free/s.jsonl", "--prompt", "prompts/v1.txt", "--host", fake.url,
                         "--out", "runs/made.json")
    assert code == 0, err
    older = load_json("runs/made.json")
    older["results"][0]["checks"][0]["arguments"] = {"order_id": "{{order_id}}"}
    older["config"]["date"] = "2026-01-01T09:30:00+01:00"   # (run before: never a copy of the run as made)
    write_run("runs/older.json", older)
    return checks_of_report(cli, load_json("runs/made.json"), "--min-accuracy", 1)[:2]


def test_a_tool_called_check_an_older_eval_py_stored_unfilled_is_scored_as_the_split_fills_it_now(project, cli, fake):
    """137th round: a run of an eval.py before round 111 stored a tool_called check's arguments as written,
    {"order_id": "{{order_id}}"}, where the split now gives {"order_id": "A-1"}: read, it was scored as stored, 0/1
    where the agent called lookup_order({"order_id": "A-1"}) as asked (the bug 0b63639 fixed), and compare refused it
    beside this eval.py's run as "other checks". Scored as the split fills it now, as a pattern an older eval.py filled
    otherwise is: 1/1, a note says so once, and compare finds nothing changed."""
    assert unfilled_runs(cli, fake, {"order_id": "A-1"}) == (0, [(1, 1)])
    code, out, err = cli("report", "runs/older.json", "--json", "--min-accuracy", 1)
    assert (code, [(c["passed"], c["total"]) for c in json.loads(out)["checks"]]) == (0, [(1, 1)]), err
    assert err.count("1 case(s) hold a check an older eval.py filled with the case's vars otherwise (c1): scored as "
                     "free/s.jsonl fills it now") == 1, err
    code, out, err = cli("compare", "runs/older.json", "runs/made.json", "--json")
    assert code == 0 and json.loads(out)["fixed"] == json.loads(out)["regressions"] == [], (out, err)


def test_a_run_edited_into_unfilled_tool_called_arguments_scores_as_made(project, cli, fake):
    """137th round: scored as stored, a run this eval.py made whose agent called lookup_order({"order_id":
    "{{order_id}}"}) (the placeholder itself, not the order), failing its check {"order_id": "A-1"}, passed report
    --min-accuracy 1 once that check's arguments were edited by hand into the form an eval.py before round 111 stored,
    {"order_id": "{{order_id}}"}, which nothing tells from an honest one. Scored as the split fills it now, the edit
    gains nothing: the same figures and exit as the run as made."""
    made = unfilled_runs(cli, fake, {"order_id": "{{order_id}}"})
    assert made == (1, [(0, 1)]), made
    assert checks_of_report(cli, load_json("runs/older.json"), "--min-accuracy", 1)[:2] == made
