"""The LLM judge: votes, panels, unreadable verdicts kept open, cost, re-judging, calibration."""

import json

import pytest

from conftest import evalpy, load_json

CRITERION = "La respuesta contesta a lo que pregunta el cliente."


@pytest.fixture
def judged_split(project):
    folder = project / "golden" / "answers"
    folder.mkdir()
    (folder / "checks.json").write_text(json.dumps([
        {"name": "says hello", "type": "icontains", "value": "hola"},
        {"name": "answers", "type": "judge", "value": CRITERION}]))
    with open(folder / "dev.jsonl", "w") as f:
        for i in range(1, 11):
            f.write(json.dumps({"id": f"j{i:02d}", "input": f"pregunta {i}", "difficulty": "easy", "note": "n"}) + "\n")
    (project / "prompts" / "answers").mkdir()
    (project / "prompts" / "answers" / "v1.txt").write_text("Responde.\n")
    return "golden/answers/dev.jsonl"


def judge_replies(fake, decide):
    """The model answers 'hola, respuesta jNN'; the judge's reply comes from decide(case id, model, vote seed)."""
    def route(body):
        system = body["messages"][0]["content"]
        if system != evalpy.JUDGE_PROMPT:
            n = int(body["messages"][1]["content"].split()[-1])
            return f"hola, respuesta j{n:02d}"
        text = body["messages"][1]["content"]
        assert text.startswith(f"Criterion: {CRITERION}")
        cid = text.rsplit("respuesta ", 1)[1].strip()
        return decide(cid, body["model"], body["options"]["seed"])
    fake.route = route


def verdict(ok, prose=""):
    return prose + json.dumps({"reason": "porque sí" if ok else "no contesta", "pass": ok})


def test_judge_calls_are_recorded_and_reported_apart(judged_split, cli, fake):
    failing = {"j02", "j07"}
    judge_replies(fake, lambda cid, model, seed: verdict(cid not in failing,
                                                        prose="Lo he leído con calma.\n" if cid == "j02" else ""))
    code, out, err = cli("run", "--split", judged_split, "--host", fake.url)
    assert code == 0, err
    assert err.count("note: the judge is qwen2.5:7b, the model being judged") == 1
    judge_bodies = [b for b in fake.chat_bodies if b["messages"][0]["content"] == evalpy.JUDGE_PROMPT]
    assert len(judge_bodies) == 10
    assert judge_bodies[0]["options"] == {"temperature": 0.0, "seed": 42, "num_ctx": 4096}
    run = load_json("runs/answers-dev-v1.json")
    assert run["config"]["judge"]["models"] == ["qwen2.5:7b"] and run["config"]["judge"]["votes"] == 1
    vote = run["results"][1]["judges"][0]
    assert vote["check"] == "answers" and vote["pass"] is False and vote["reason"] == "no contesta"
    assert vote["raw"].startswith("Lo he leído con calma.")               # the judge's raw output is kept
    lines = out.splitlines()
    assert lines[0] == "Pass rate: 8/10 = 80%  (95% CI 49–94%)"
    assert "Checks (answers passing each):" in lines and "  says hello  icontains  blocking  10/10 = 100%" in lines
    assert any(l.startswith("Judge checks (LLM judge: qwen2.5:7b; reported apart") for l in lines)
    assert "  answers  judge  blocking  8/10 = 80%" in lines
    tokens = sum(v["prompt_tokens"] for r in run["results"] for v in r["judges"])
    assert any(l.startswith(f"  cost: 10 judge calls (0 failed), {tokens} prompt + ") for l in lines)
    assert "For human review (0):" in lines


def test_a_thinking_model_is_judged_on_its_answer_and_judges_after_its_reasoning(judged_split, cli, fake):
    """The judged answer reaches the judge without the reasoning before it; a judge's own reasoning
    never counts as its verdict, and a judge still reasoning when it stopped gave no verdict."""
    fake.reasoning = 'Pienso en voz alta: {"pass": true, "reason": "parece bien"}'
    fake.thinking["qwen2.5:7b"] = "inline"
    judge_replies(fake, lambda cid, model, seed: verdict(cid != "j03"))
    code, out, err = cli("run", "--split", judged_split, "--host", fake.url)
    assert code == 0, err
    judged = [b["messages"][1]["content"] for b in fake.chat_bodies if b["messages"][0]["content"] == evalpy.JUDGE_PROMPT]
    assert len(judged) == 10 and not any("Pienso" in text for text in judged)
    assert out.splitlines()[0] == "Pass rate: 9/10 = 90%  (95% CI 60–98%)"   # j03's verdict, not the reasoning's
    fake.thinking["qwen2.5:7b"] = "unclosed"
    assert cli("judge", "runs/answers-dev-v1.json", "--host", fake.url)[0] == 0
    out = cli("report", "runs/answers-dev-v1-judged.json")[1]
    assert "Undecided: 10 answers whose judge gave no verdict" in out   # never the {"pass": true} it was thinking


def test_unreadable_verdicts_are_kept_open_never_guessed(judged_split, cli, fake):
    judge_replies(fake, lambda cid, model, seed: "Creo que aprueba." if cid == "j03" else verdict(True))
    assert cli("run", "--split", judged_split, "--host", fake.url)[0] == 0
    out = cli("report", "runs/answers-dev-v1.json")[1]
    assert out.startswith("Pass rate: 9/9 = 100%")
    assert "Undecided: 1 answers whose judge gave no verdict" in out
    assert "  j03 · answers: no verdict (tie or unreadable answer from the judge)" in out
    assert load_json("runs/answers-dev-v1.json")["results"][2]["judges"][0]["pass"] is None


def test_votes_take_the_majority_and_flag_low_certainty(judged_split, cli, fake):
    # j01: votes pass, pass, fail -> pass with certainty 2/3 -> review
    judge_replies(fake, lambda cid, model, seed: verdict(not (cid == "j01" and seed == 44)))
    assert cli("run", "--split", judged_split, "--host", fake.url, "--judge-votes", 3,
               "--judge-temperature", "0.7")[0] == 0
    seeds = sorted({b["options"]["seed"] for b in fake.chat_bodies if b["messages"][0]["content"] == evalpy.JUDGE_PROMPT})
    assert seeds == [42, 43, 44]
    s = json.loads(cli("report", "runs/answers-dev-v1.json", "--json")[1])
    assert s["correct"] == 10
    assert s["judge"]["calls"] == 30
    assert s["judge"]["review"] == [{"id": "j01", "trial": 1, "check": "answers", "pass": True,
                                     "why": "low certainty (0.67)", "models": {"qwen2.5:7b": True}}]


def test_a_panel_that_disagrees_goes_to_review(project, judged_split, cli, fake):
    fake.models = ["qwen2.5:7b", "llama3.1:8b", "gemma2:9b"]
    # j04: qwen says pass, llama says fail -> no majority of two, open; j05: all three models, 2 to 1
    judge_replies(fake, lambda cid, model, seed: verdict(not (cid in ("j04",) and model == "llama3.1:8b")))
    code, out, err = cli("run", "--split", judged_split, "--host", fake.url,
                         "--judge-model", "qwen2.5:7b", "--judge-model", "llama3.1:8b")
    assert code == 0, err
    assert "note:" not in err   # the panel already has another family
    s = json.loads(cli("report", "runs/answers-dev-v1.json", "--json")[1])
    assert s["judge"]["calls"] == 20 and s["scored"] == 9
    assert s["judge"]["review"][0]["id"] == "j04" and "judges disagree" in s["judge"]["review"][0]["why"]
    assert s["judge"]["review"][0]["models"] == {"qwen2.5:7b": True, "llama3.1:8b": False}


def test_the_judge_command_writes_a_new_run_and_keeps_the_old(project, judged_split, cli, fake):
    fake.models = ["qwen2.5:7b", "llama3.1:8b"]
    judge_replies(fake, lambda cid, model, seed: verdict(model == "qwen2.5:7b" or cid != "j09"))
    assert cli("run", "--split", judged_split, "--host", fake.url)[0] == 0
    original = (project / "runs" / "answers-dev-v1.json").read_bytes()
    asked = len(fake.chat_bodies)
    code, out, err = cli("judge", "runs/answers-dev-v1.json", "--judge-model", "llama3.1:8b", "--host", fake.url)
    assert code == 0, err
    assert "wrote runs/answers-dev-v1-judged.json (runs/answers-dev-v1.json is unchanged)" in err
    assert (project / "runs" / "answers-dev-v1.json").read_bytes() == original
    assert len(fake.chat_bodies) - asked == 10                       # judge calls only, no new answers
    new = load_json("runs/answers-dev-v1-judged.json")
    assert new["config"]["judge"]["models"] == ["llama3.1:8b"] and new["config"]["judged_from"] == "runs/answers-dev-v1.json"
    assert out.startswith("Pass rate: 9/10 = 90%")
    assert [r["response"] for r in new["results"]] == [r["response"] for r in json.loads(original)["results"]]
    code, out, err = cli("judge", "runs/answers-dev-v1.json", "--judge-model", "llama3.1:8b", "--host", fake.url)
    assert "wrote runs/answers-dev-v1-judged-2.json" in err


def test_judge_command_on_a_run_without_judge_checks(project, cli, fake):
    assert cli("run", "--split", "dev", "--host", fake.url)[0] == 0
    code, out, err = cli("judge", "runs/dev-v3.json")
    assert code == 2 and "no answer has a judge check" in err


# --- calibration against a person's labels

HUMAN_FAILS = {"j01", "j02", "j03", "j04"}
JUDGE_FAILS = {"j01", "j02", "j03", "j05"}      # catches 3 of 4 real failures, one false alarm


@pytest.fixture
def calibration(project, judged_split, cli, fake):
    judge_replies(fake, lambda cid, model, seed: verdict(cid not in JUDGE_FAILS))
    assert cli("run", "--split", judged_split, "--host", fake.url)[0] == 0
    with open(project / "human.jsonl", "w") as f:
        for i in range(1, 11):
            f.write(json.dumps({"id": f"j{i:02d}", "check": "answers", "pass": f"j{i:02d}" not in HUMAN_FAILS}) + "\n")
    return "human.jsonl", "runs/answers-dev-v1.json"


def test_calibrate_on_a_hand_computed_table(calibration, cli):
    code, out, err = cli("calibrate", *calibration, "--json")
    assert code == 0, err
    a = json.loads(out)["checks"]["answers"]
    assert a["table"] == {"human_fail": {"judge_fail": 3, "judge_pass": 1},
                          "human_pass": {"judge_fail": 1, "judge_pass": 5}}
    assert a["failure_detection"] == 0.75 and a["pass_retention"] == pytest.approx(5 / 6)
    assert a["agreement"] == 0.8
    # kappa for a 2x2 table [[a, b], [c, d]] written another way: 2(ad - bc) / ((a+b)(b+d) + (a+c)(c+d))
    tp, fn, fp, tn = 3, 1, 1, 5
    assert a["kappa"] == pytest.approx(2 * (tp * tn - fn * fp) / ((tp + fn) * (fn + tn) + (tp + fp) * (fp + tn)), rel=1e-12)
    assert a["warnings"] == ["the judge catches only 75% of real failures (below 0.8): rework its prompt, "
                             "change its model, or review by hand"]
    out = cli("calibrate", *calibration)[1]
    assert "  Failure detection: 3/4 = 75%  (real failures the judge fails)" in out
    assert "  human fail           3           1" in out


def test_calibrate_warns_when_labels_are_unbalanced(calibration, project, cli):
    with open(project / "all-pass.jsonl", "w") as f:
        for i in range(5, 11):
            f.write(json.dumps({"id": f"j{i:02d}", "check": "answers", "pass": True}) + "\n")
    a = json.loads(cli("calibrate", "all-pass.jsonl", calibration[1], "--json")[1])["checks"]["answers"]
    assert a["failure_detection"] is None and a["agreement"] == pytest.approx(5 / 6)
    assert any("no human-labelled failure" in w for w in a["warnings"])
    assert any("unbalanced labels (0% failures): raw agreement misleads" in w for w in a["warnings"])


def test_calibrate_input_errors(calibration, project, cli):
    (project / "bad.jsonl").write_text('{"id": "j01", "check": "answers", "pass": "yes"}\n')
    code, out, err = cli("calibrate", "bad.jsonl", calibration[1])
    assert code == 2 and "bad.jsonl:1: expected" in err
    (project / "other.jsonl").write_text('{"id": "j01", "check": "tone", "pass": true}\n')
    code, out, err = cli("calibrate", "other.jsonl", calibration[1])
    assert code == 2 and "check 'tone' is not a judge check of runs/answers-dev-v1.json" in err
    assert "its judge checks are: answers" in err
    (project / "stray.jsonl").write_text('{"id": "j99", "check": "answers", "pass": true}\n')
    code, out, err = cli("calibrate", "stray.jsonl", calibration[1])
    assert code == 2 and "match no judge verdict" in err and "id j99" in err


def test_calibrate_with_its_arguments_swapped_says_which_is_which(calibration, cli):
    """It printed one error per line of the run file: 1,452 lines."""
    labels, run = calibration
    code, out, err = cli("calibrate", run, labels)
    assert code == 2 and len(err.splitlines()) == 1
    assert "is a run file, not a person's labels: calibrate takes the labels first, then the run" in err


def test_a_long_list_of_bad_label_lines_is_cut_at_twenty(calibration, project, cli):
    (project / "many.jsonl").write_text("not json\n" * 300)
    code, out, err = cli("calibrate", "many.jsonl", calibration[1])
    assert code == 2 and len(err.splitlines()) == 21 and err.rstrip().endswith("... and 280 more")


def test_calibrate_against_a_run_without_judge_checks_says_so(project, cli, fake):
    assert cli("run", "--split", "dev", "--host", fake.url)[0] == 0
    (project / "h.jsonl").write_text('{"id": "dev-01", "check": "answers", "pass": true}\n')
    code, out, err = cli("calibrate", "h.jsonl", "runs/dev-v3.json")
    assert code == 2 and "runs/dev-v3.json holds no judge verdict" in err


@pytest.mark.parametrize("raw, expected", [
    ('{"reason": "cita el pedido", "pass": true}', (True, "cita el pedido")),
    ('La respuesta no menciona el pedido.\n\n{"reason": "falta el pedido", "pass": false}', (False, "falta el pedido")),
    ('```json\n{"reason": "ok", "pass": true}\n```', (True, "ok")),
    ('{"reason": "primero", "pass": false} y luego {"reason": "al final", "pass": true}', (True, "al final")),
    ('{"reason": "x", "pass": tru', (None, None)),                # malformed JSON
    ('{"reason": "x", "pass": "true"}', (None, None)),           # a string is not a verdict
    ('{"reason": "x", "verdict": "PASS"}', (None, None)),
    ("Aprobado, sin duda.", (None, None)),                       # prose only
    ("", (None, None)),
])
def test_parse_verdict(raw, expected):
    assert evalpy.parse_verdict(raw) == expected


def test_a_verdict_nested_past_pythons_stack_is_unreadable_not_a_crash(judged_split, cli, fake):
    judge_replies(fake, lambda cid, model, seed: '{"pass": true, "reason": ' + "[" * 100_000)
    code, out, err = cli("run", "--split", judged_split, "--host", fake.url)
    assert code == 0, err
    votes = [v for r in load_json("runs/answers-dev-v1.json")["results"] for v in r["judges"]]
    assert len(votes) == 10 and all(v["pass"] is None for v in votes)


def test_a_panel_of_the_judged_family_alone_is_noted_once(project, judged_split, cli, fake):
    fake.models = ["qwen2.5:7b", "qwen2.5:14b"]
    judge_replies(fake, lambda cid, model, seed: verdict(True))
    code, out, err = cli("run", "--split", judged_split, "--host", fake.url, "--judge-model", "qwen2.5:14b")
    assert code == 0 and err.count("note: every judge (qwen2.5:14b) is of the family of qwen2.5:7b") == 1


def test_the_family_note_uses_the_family_the_server_reports(project, judged_split, cli, fake):
    """qwen3 and qwen2.5 share a name prefix but not a family (Ollama: qwen3, qwen2): no note. A judge
    given as the judged model itself is said to be that, not "of its family"."""
    fake.models = ["qwen2.5:7b", "qwen3:8b"]
    judge_replies(fake, lambda cid, model, seed: verdict(True))
    code, out, err = cli("run", "--split", judged_split, "--host", fake.url, "--judge-model", "qwen3:8b",
                         "--out", "runs/a.json")
    assert code == 0 and "note:" not in err, err
    code, out, err = cli("run", "--split", judged_split, "--host", fake.url, "--judge-model", "qwen2.5:7b",
                         "--out", "runs/b.json")
    assert code == 0 and "note: the judge is qwen2.5:7b, the model being judged" in err and "family of" not in err
    fake.models.append("gemma3:4b")
    code, out, err = cli("judge", "runs/a.json", "--host", fake.url, "--judge-model", "qwen2.5:7b",
                         "--judge-model", "gemma3:4b")
    assert code == 0 and "note:" not in err   # the panel has another family
    code, out, err = cli("judge", "runs/a.json", "--host", fake.url, "--judge-model", "qwen3:8b")
    assert code == 0 and "note:" not in err   # the run recorded qwen2, the judge is qwen3
