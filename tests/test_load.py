"""Load: the split, its labels and the prompt, validated line by line and hashed before any model call."""

import hashlib
import json
import os
from pathlib import Path

import pytest

from conftest import LABELS, evalpy, split_run, write_run

GOOD = {"id": "c1", "input": "No puedo entrar", "expected": "acceso", "difficulty": "easy", "note": "n"}


def write_split(tmp_path, lines, raw=None):
    (tmp_path / "labels.txt").write_text("\n".join(LABELS) + "\n", encoding="utf-8")
    path = tmp_path / "s.jsonl"
    if raw is not None:
        path.write_bytes(raw)
    else:
        path.write_text("".join(l if isinstance(l, str) else json.dumps(l, ensure_ascii=False) + "\n"
                                for l in lines), encoding="utf-8")
    return str(path)


def problems(path):
    with pytest.raises(evalpy.EvalError) as e:
        evalpy.load_split(path)
    return str(e.value).splitlines()


def test_good_split_loads_and_hashes_the_bytes(tmp_path):
    path = write_split(tmp_path, [GOOD, dict(GOOD, id="c2")])
    cases, labels, sha = evalpy.load_split(path)
    assert [c["id"] for c in cases] == ["c1", "c2"]
    assert labels == ["facturación", "bug", "acceso", "petición"]
    assert sha == hashlib.sha256(open(path, "rb").read()).hexdigest()


def test_spanish_field_names_are_aliases(tmp_path):
    case = {"id": "c1", "input": "x", "expected": "bug", "dificultad": "fácil", "nota": "por qué"}
    cases, _, _ = evalpy.load_split(write_split(tmp_path, [case]))
    assert cases[0]["difficulty"] == "fácil" and cases[0]["note"] == "por qué"


@pytest.mark.parametrize("line, message", [
    ("{not json\n", "s.jsonl:2: bad JSON"),
    ('["a list"]\n', "s.jsonl:2: expected a JSON object"),
    (json.dumps({k: v for k, v in GOOD.items() if k != "input"} | {"id": "x"}) + "\n", "s.jsonl:2: missing field 'input'"),
    (json.dumps(GOOD | {"id": "x", "input": "  "}) + "\n", "s.jsonl:2: field 'input' is empty"),
    (json.dumps(GOOD | {"id": "x", "note": 3}) + "\n", "s.jsonl:2: field 'note' must be a string"),
    (json.dumps(GOOD) + "\n", "s.jsonl:2: duplicate id 'c1' (first on line 1)"),
    (json.dumps(GOOD | {"id": "x", "expected": "Bug"}) + "\n", "s.jsonl:2: label 'Bug' is not in labels.txt (did you mean 'bug'?)"),
    (json.dumps(GOOD | {"id": "x", "expected": "spam"}) + "\n", "s.jsonl:2: label 'spam' is not in labels.txt"),
    (json.dumps(GOOD | {"id": "x", "expeted": "bug"}) + "\n", "s.jsonl:2: unknown field 'expeted'"),
    (json.dumps(GOOD | {"id": "x", "dificultad": "easy"}) + "\n", "s.jsonl:2: field 'difficulty' given twice"),
    ("\n", "s.jsonl:2: blank line"),
    ("   \n", "s.jsonl:2: blank line"),
    ('{"id": "a", "id": "b", "input": "x", "expected": "bug", "difficulty": "e", "note": "n"}\n',
     "s.jsonl:2: key 'id' is given twice"),
    ('{"id": "x", "input": "\\ud800", "expected": "bug", "difficulty": "e", "note": "n"}\n',
     "s.jsonl:2: holds \\ud800, half of a character (a lone surrogate)"),
    ('{"id": "x", "input": "t", "vars": {"n": NaN}, "expected": "bug", "difficulty": "e", "note": "n"}\n',
     "s.jsonl:2: NaN is not a number (JSON has no NaN)"),
    ('{"id": "x", "input": "t", "expected": "bug", "difficulty": "e", "note": "n", "checks": '
     '[{"type": "max_latency_ms", "value": Infinity}]}\n', "s.jsonl:2: Infinity is not a number"),
    ('{"id": "x", "input": "t", "vars": {"n": 1e999}, "expected": "bug", "difficulty": "e", "note": "n"}\n',
     "s.jsonl:2: 1e999 is too large a number"),
    ('{"id": "x", "input": "t", "vars": ' + "[" * 100_000 + "]" * 100_000 + '}\n',
     "s.jsonl:2: nested deeper than 64 levels"),
    ('{"id": "x", "input": "t", "expected": "bug", "difficulty": "e", "note": "n", "checks": [{"type": "json", '
     '"schema": ' + '{"items": ' * 70 + "{}" + "}" * 70 + '}]}\n', "s.jsonl:2: nested deeper than 64 levels"),
    ('{"id": "x", "input": "t", "expected": "bug", "difficulty": "e", "note": "n", "checks": '
     '[{"type": ["regex"], "value": "a"}]}\n', "s.jsonl:2: check type ['regex'] is unknown"),
    ('{"id": "x", "input": "t", "expected": "bug", "difficulty": "e", "note": "n", "checks": '
     '[{"type": {"a": 1}, "value": "a"}]}\n', "s.jsonl:2: check type {'a': 1} is unknown"),
    ('{"id": "x", "input": "unterminated\n', "s.jsonl:2: bad JSON: Unterminated string starting at (column 22)"),
])
def test_each_kind_of_problem_is_reported_with_file_and_line(tmp_path, line, message):
    found = problems(write_split(tmp_path, [GOOD, line, dict(GOOD, id="c3")]))
    assert any(p.startswith(f"{tmp_path}/{message}") for p in found), found


def test_all_problems_are_reported_at_once(tmp_path):
    found = problems(write_split(tmp_path, ["{bad\n", GOOD, "\n", dict(GOOD, expected="x")]))
    assert [p.split(": ")[0].rsplit(":", 1)[1] for p in found] == ["1", "3", "4"]


def test_bom_is_reported(tmp_path):
    raw = b"\xef\xbb\xbf" + json.dumps(GOOD).encode() + b"\n"
    assert any("s.jsonl:1: starts with a byte-order mark" in p for p in problems(write_split(tmp_path, [], raw)))


def test_crlf_line_endings_are_accepted(tmp_path):
    raw = (json.dumps(GOOD) + "\r\n" + json.dumps(dict(GOOD, id="c2")) + "\r\n").encode()
    cases, _, sha = evalpy.load_split(write_split(tmp_path, [], raw))
    assert [c["id"] for c in cases] == ["c1", "c2"]
    assert sha == hashlib.sha256(raw).hexdigest()   # the hash is of the bytes as they are


def test_invalid_utf8_and_empty_file(tmp_path):
    assert any("not valid UTF-8" in p for p in problems(write_split(tmp_path, [], b'{"id": "\xff"}\n')))
    assert any("no cases" in p for p in problems(write_split(tmp_path, [], b"")))


def test_no_labels_file_makes_a_free_text_set(tmp_path):
    (tmp_path / "s.jsonl").write_text(json.dumps(GOOD) + "\n" + json.dumps({"id": "c2", "input": "hola",
                                      "difficulty": "easy", "note": "n",
                                      "checks": [{"type": "contains", "value": "hola"}]}) + "\n")
    cases, labels, _ = evalpy.load_split(str(tmp_path / "s.jsonl"))
    assert labels is None
    assert cases[0]["checks"] == [] and "expected" not in cases[1]   # no implied label check


def test_bad_tags_are_refused_at_load(project, cli):
    (project / "golden" / "x.jsonl").write_text(
        json.dumps({"id": "a", "input": "x", "expected": "bug", "difficulty": "easy", "note": "n", "tags": "red"}) + "\n")
    code, out, err = cli("run", "--split", "golden/x.jsonl", "--host", "127.0.0.1:1")
    assert code == 2 and "golden/x.jsonl:1: field 'tags' must be a list of non-empty strings" in err


def test_missing_split(tmp_path):
    with pytest.raises(evalpy.EvalError, match="no such split file"):
        evalpy.load_split(str(tmp_path / "nope.jsonl"))


def test_labels_file_rules(tmp_path):
    path = tmp_path / "labels.txt"
    path.write_text("# comment\nbug  # trailing comment\n\nacceso\n", encoding="utf-8")
    assert evalpy.parse_labels(str(path)) == ["bug", "acceso"]
    path.write_text("facturación\nfacturacion\n", encoding="utf-8")
    with pytest.raises(evalpy.EvalError, match="repeats line 1"):
        evalpy.parse_labels(str(path))
    path.write_text("bug\n", encoding="utf-8")
    with pytest.raises(evalpy.EvalError, match="at least two labels"):
        evalpy.parse_labels(str(path))


def test_split_names_resolve_to_golden_files():
    assert evalpy.resolve_split("dev") == ("golden/dev.jsonl", "dev")
    assert evalpy.resolve_split("data/extra.jsonl") == ("data/extra.jsonl", "extra")
    with pytest.raises(evalpy.EvalError):
        evalpy.resolve_split("../dev")


def test_newest_prompt_is_the_highest_version_number(tmp_path):
    for name in ("v2.txt", "v10.txt", "v9.txt", "notes.txt"):
        (tmp_path / name).write_text("x")
    assert evalpy.newest_prompt(str(tmp_path)).endswith("v10.txt")
    with pytest.raises(evalpy.EvalError, match="pass --prompt"):
        evalpy.newest_prompt(str(tmp_path / "missing"))


def test_prompt_loading(tmp_path):
    (tmp_path / "p.txt").write_text("Clasifica.\n", encoding="utf-8")
    text, sha = evalpy.load_prompt(str(tmp_path / "p.txt"))
    assert text == "Clasifica.\n" and sha == hashlib.sha256(b"Clasifica.\n").hexdigest()
    (tmp_path / "e.txt").write_text(" \n")
    with pytest.raises(evalpy.EvalError, match="empty"):
        evalpy.load_prompt(str(tmp_path / "e.txt"))


def test_a_labels_file_that_is_not_utf8_is_named(tmp_path):
    path = write_split(tmp_path, [GOOD])
    (tmp_path / "labels.txt").write_bytes("facturación\nbug\nacceso\n".encode("latin-1"))
    with pytest.raises(evalpy.EvalError) as e:
        evalpy.load_split(path)
    assert str(e.value) == f"{tmp_path}/labels.txt: not valid UTF-8 (byte 10); save it as UTF-8"


def test_checks_json_is_held_to_the_same_json_rules(tmp_path):
    path = write_split(tmp_path, [GOOD])
    (tmp_path / "checks.json").write_text('[{"type": "contains", "value": "a", "value": "b"}]', encoding="utf-8")
    with pytest.raises(evalpy.EvalError) as e:
        evalpy.load_split(path)
    assert str(e.value) == f"{tmp_path}/checks.json: key 'value' is given twice"


def test_a_split_with_no_labels_and_no_checks_is_refused(project, cli, fake):
    """Every answer would pass: "Pass rate: 1/1 = 100%", scored with 0 checks."""
    (project / "free").mkdir()
    (project / "free" / "dev.jsonl").write_text(
        '{"id": "a", "input": "hola", "difficulty": "easy", "note": "n"}\n', encoding="utf-8")
    code, out, err = cli("run", "--split", "free/dev.jsonl", "--prompt", "prompts/v1.txt", "--host", fake.url)
    assert code == 2 and fake.chat_bodies == []
    assert "no labels.txt beside the split and no checks: nothing would be scored" in err
    assert not (project / "runs").exists() or not list((project / "runs").iterdir())


def test_an_unknown_split_name_lists_the_splits_there_are(project, cli):
    code, out, err = cli("run", "--split", "dve")
    assert code == 2 and "no split 'dve' (golden/dve.jsonl does not exist); did you mean dev?" in err
    assert "Splits in golden/: dev, golden/rag/dev.jsonl, golden/rag/test.jsonl, golden/support/dev.jsonl, golden/support/test.jsonl, test" in err


def test_an_unknown_command_suggests_the_near_one(project, capsys):
    with pytest.raises(SystemExit):
        evalpy.main(["rnu"])
    assert "did you mean run? (see eval.py --help)" in capsys.readouterr().err


def test_report_checks_takes_a_split_name_as_run_does(project, cli):
    run = write_run("runs/dev-v2.json", split_run("dev", prompt="prompts/v2.txt"))
    assert cli("report", run, "--checks", "dev")[0] == 0
    code, out, err = cli("report", run, "--checks", "dve")
    assert code == 2 and "did you mean dev?" in err


# --- conversation cases: "messages" instead of "input"

TURNS = [{"role": "user", "content": "Mi pedido es el {{order}}."}, {"role": "assistant", "content": "Gracias, lo miro."},
         {"role": "user", "content": "¿Y cuándo llega?"}]


def test_a_conversation_case_loads_with_its_vars_filled(tmp_path):
    case = {"id": "c1", "messages": TURNS, "vars": {"order": "A-77"}, "expected": "petición", "difficulty": "easy", "note": "n"}
    cases, _, sha = evalpy.load_split(write_split(tmp_path, [case]))
    assert cases[0]["messages"][0] == {"role": "user", "content": "Mi pedido es el A-77."}
    assert [t["role"] for t in cases[0]["messages"]] == ["user", "assistant", "user"] and "input" not in cases[0]
    assert evalpy.messages_for("Eres {{order}}", cases[0]) == [{"role": "system", "content": "Eres A-77"}] + [
        {"role": "user", "content": "Mi pedido es el A-77."}, TURNS[1], TURNS[2]]
    edited = write_split(tmp_path, [dict(case, messages=TURNS[:1] + [dict(TURNS[1], content="Vale.")] + TURNS[2:])])
    assert evalpy.load_split(edited)[2] != sha   # the hash covers every turn


@pytest.mark.parametrize("change, says", [
    ({"messages": [{"role": "system", "content": "Eres un pirata"}, TURNS[2]]},
     "messages turn 1: a system turn belongs in the prompt file, not in a case"),
    ({"messages": [{"role": "tool", "content": "x"}, TURNS[2]]}, 'messages turn 1: role "tool" is neither "user" nor "assistant"'),
    ({"messages": []}, "field 'messages' must be a non-empty list of turns"),
    ({"messages": "hola"}, "field 'messages' must be a non-empty list of turns"),
    ({"messages": TURNS[:2]}, "messages: the last turn is the assistant's; it must be the user's (the model answers it)"),
    ({"messages": [TURNS[0], {"role": "assistant", "content": "  "}, TURNS[2]]}, "messages turn 2: content must be non-empty text"),
    ({"messages": [{"role": "user", "content": 7}]}, "messages turn 1: content must be non-empty text"),
    ({"messages": [{"role": "user", "content": "x", "name": "bob"}]}, 'messages turn 1: must be an object with exactly "role" and "content"'),
    ({"messages": TURNS, "input": "hola"}, "give either input or messages, not both"),
    ({"messages": [{"role": "user", "content": "pedido {{order}}"}], "vars": {}}, "messages turn 1 uses {{order}} but the case has no vars.order"),
])
def test_every_conversation_mistake_is_named_with_its_file_and_line(tmp_path, change, says):
    case = {"id": "c2", "expected": "bug", "difficulty": "easy", "note": "n", "vars": {"order": "A-1"}, **change}
    path = write_split(tmp_path, [GOOD, case])
    assert any(line.startswith(f"{path}:2: {says}") for line in problems(path)), problems(path)


def test_a_run_file_with_a_damaged_conversation_is_refused(project, cli):
    run = split_run("dev", {})
    run["results"][0].pop("input")
    run["results"][0]["messages"] = [{"role": "assistant", "content": "hola"}]
    write_run("runs/bad.json", run)
    code, out, err = cli("report", "runs/bad.json")
    assert code == 2 and "the last turn is the assistant's" in err and "Traceback" not in err


@pytest.mark.parametrize("fields, split_says", [
    ({"note": None}, "missing field 'note'"),
    ({"difficulty": ""}, "field 'difficulty' is empty"),
    ({"id": " "}, "field 'id' is empty"),
    ({"tags": ["a", "a"]}, "field 'tags' repeats a tag"),
    ({"tags": [""]}, "field 'tags' must be a list of non-empty strings"),
    ({"input": None}, "missing field 'input' (or give vars)"),
])
def test_one_case_validator_where_split_and_run_file_differ(fields, split_says):
    """case_problems() is the validator of a split's line and of a run file's result; a run file
    keeps what older versions wrote, so these are refused in a split and accepted when stored."""
    case = {"id": "a", "input": "hola", "expected": "bug", "difficulty": "easy", "note": "n"}
    case.update(fields)
    case = {k: v for k, v in case.items() if v is not None}
    assert evalpy.case_problems(dict(case), ["bug", "acceso"]) == [split_says]
    assert evalpy.case_problems(dict(case), ["bug", "acceso"], stored=True) == []


def test_one_case_validator_says_the_same_at_both_boundaries():
    case = {"id": "a", "input": 3, "expected": "Bug", "difficulty": "easy", "note": "n", "vars": [], "checks": 5}
    says = ["field 'input' must be a string, not int", "field 'vars' must be an object of names to strings or numbers",
            "field 'checks' must be a list of checks"]
    assert evalpy.case_problems(dict(case), ["bug", "acceso"]) == says + ["label 'Bug' is not in labels.txt (did you mean 'bug'?)"]
    assert evalpy.case_problems(dict(case), ["bug", "acceso"], stored=True) == says + [
        "label 'Bug' is not in config.labels (did you mean 'bug'?)"]


@pytest.mark.parametrize("case, says", [
    ({"input": "hola", "vars": {"customer": ""}, "checks": [{"type": "icontains", "value": "{{customer}}"}]},
     "check 'icontains' needs a non-empty string value"),
    ({"messages": [{"role": "user", "content": "{{x}}"}], "vars": {"x": " "}, "checks": [{"type": "contains", "value": "a"}]},
     "messages turn 1: content must be non-empty text"),
    ({"input": "hola", "vars": {"x": " "}, "checks": [{"type": "contains", "value": "a", "name": "{{x}}"}]},
     "name must be a non-empty string"),
])
def test_what_a_var_leaves_empty_is_refused_before_any_call(project, cli, fake, case, says):
    """From the attack on issue 25: a check value, check name or turn that its vars fill with
    nothing passed the split's rules (checked before filling) but not the run file's (after): run
    asked every case, exited 0, and wrote a run file no command would read. Now the filled case
    is held to the run file's rules at load: refused with file and line, nothing asked."""
    Path("s.jsonl").write_text(json.dumps({"id": "v1", "difficulty": "easy", "note": "n", **case}) + "\n")
    code, out, err = cli("run", "--split", "s.jsonl", "--prompt", "prompts/v1.txt", "--host", fake.url)
    assert code == 2 and err.startswith("error: s.jsonl:1: ") and says in err
    assert fake.chat_bodies == [] and not list(Path("runs").glob("s-*"))


@pytest.mark.parametrize("what", ["split", "prompt"])
def test_a_file_name_that_is_not_utf8_is_refused_before_any_call(project, cli, fake, what):
    """From the attack on issue 25: a prompt or split named in bytes that are not UTF-8 ran to the
    end, and the run file (or, interrupted, its journal) was then refused as 'not a path'."""
    Path("ok.jsonl").write_text(json.dumps({"id": "v1", "input": "hola", "difficulty": "easy", "note": "n",
                                            "checks": [{"type": "contains", "value": "a"}]}) + "\n")
    odd = os.fsdecode(b"odd\xf3" + (b".jsonl" if what == "split" else b".txt"))
    Path(odd).write_bytes(Path("ok.jsonl" if what == "split" else "prompts/v1.txt").read_bytes())
    split, prompt = (odd, "prompts/v1.txt") if what == "split" else ("ok.jsonl", odd)
    code, out, err = cli("run", "--split", split, "--prompt", prompt, "--host", fake.url)
    assert code == 2 and f"the {what}'s file name is not valid UTF-8" in err and "\\udcf3" in err
    assert fake.chat_bodies == []


# --- RAG: passages and relevance labels (issue 30)

RAG = {"id": "r1", "input": "¿Puedo devolverlo?", "expected": "petición", "difficulty": "easy", "note": "n",
       "context": [{"id": "returns", "text": "30 días para devolver."}, {"id": "ship", "text": "Envío en 48 h."}],
       "relevant": ["returns"]}


def test_a_case_with_passages_and_relevant_ids_loads_as_written(tmp_path):
    cases, _, _ = evalpy.load_split(write_split(tmp_path, [RAG, dict(RAG, id="r2", context=[], relevant=[])]))
    assert cases[0]["context"] == RAG["context"] and cases[0]["relevant"] == ["returns"]
    assert cases[1]["context"] == [] and cases[1]["relevant"] == []   # the retriever found nothing


@pytest.mark.parametrize("change, message", [
    ({"context": "returns"}, "field 'context' must be a list of passages"),
    ({"context": [{"id": "a"}]}, "field 'context' must be a list of passages"),
    ({"context": [{"id": "a", "text": "t", "score": 0.9}]}, "field 'context' must be a list of passages"),
    ({"context": [{"id": "", "text": "t"}]}, "context passage 1: id must be non-empty text"),
    ({"context": [{"id": 7, "text": "t"}]}, "context passage 1: id must be non-empty text"),
    ({"context": [{"id": "a", "text": "t"}, {"id": "b", "text": " "}]}, "context passage 2 ('b'): text must be non-empty"),
    ({"context": [{"id": "a", "text": "t"}, {"id": "a", "text": "u"}]}, "context: passage id 'a' is given twice"),
    ({"relevant": "returns"}, "field 'relevant' must be a list of passage ids"),
    ({"relevant": ["returns", ""]}, "field 'relevant' must be a list of passage ids"),
    ({"relevant": ["returns", "returns"]}, "field 'relevant' repeats an id"),
    ({"vars": {"context": "x"}}, "vars.context clashes with the passages"),
])
def test_bad_passages_are_reported_with_file_and_line(tmp_path, change, message):
    found = problems(write_split(tmp_path, [GOOD, dict(RAG, **change)]))
    assert len(found) == 1 and found[0].startswith("s.jsonl:2: ".replace("s.jsonl", str(tmp_path / "s.jsonl"))) \
        and message in found[0], found


def test_the_context_placeholder_lays_out_numbered_passages_with_their_ids():
    text = evalpy.context_text(RAG["context"])
    assert text == "[1] (id: returns)\n30 días para devolver.\n\n[2] (id: ship)\nEnvío en 48 h."
    assert evalpy.context_text([]) == "(no passages were retrieved)"
    system = evalpy.messages_for("Answer from these passages:\n{{context}}\nEnd.", RAG)[0]["content"]
    assert system == f"Answer from these passages:\n{text}\nEnd."


def test_a_prompt_with_context_needs_passages_in_every_case(tmp_path):
    path = write_split(tmp_path, [RAG, GOOD])
    cases, _, _ = evalpy.load_split(path)
    found = evalpy.prompt_problems("p.txt", "Passages:\n{{context}}", path, cases)
    assert found == [f"{path}:2: p.txt uses {{{{context}}}} but this case has no context "
                     "(its passages, or run --context FILE)"]
