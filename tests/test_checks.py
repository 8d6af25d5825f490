"""Checks: every check type validated at load and evaluated from stored answers; free text, vars, JSON."""

import json
import re
import sys
import time
import warnings
from pathlib import Path

import pytest

from conftest import ROOT, evalpy, load_json, make_run, small_split, split_run, write_run


def check(kind, value=None, **extra):
    c = {"type": kind, **extra}
    if value is not None:
        c["value"] = value
    parsed, problems = evalpy.parse_check(c)
    assert problems == []
    return parsed


def result(response, expected=None, latency_ms=100.0):
    return {"response": response, "expected": expected, "latency_ms": latency_ms}


def graded(predicted=None):
    return {"predicted": predicted, "judged": {}}


@pytest.mark.parametrize("c, passing, failing", [
    (check("contains", "A-123"), "Su pedido A-123 sale hoy", "Su pedido sale hoy"),
    (check("not_contains", "lo siento"), "Hecho.", "Pues lo siento mucho"),
    (check("icontains", "PEDIDO"), "su pedido", "su compra"),
    # (67th attack) an é sent as e and a combining accent failed contains "é": both are read in NFC
    (check("contains", "está"), "Su pedido esta\u0301 en camino", "Su pedido esta en camino"),
    (check("not_contains", "está"), "Su pedido esta en camino", "Su pedido esta\u0301 en camino"),
    (check("regex", r"\bA-\d{3}\b"), "pedido A-123.", "pedido A-1234"),
    # (125th round) regex and not_regex read the answer in NFC too: a not_regex rule let through the é contains caught
    (check("regex", "café"), "cafe\u0301 con leche", "cafe con leche"),
    (check("not_regex", "café"), "cafe con leche", "cafe\u0301 con leche"),
    # (its third and fourth passes) in NFC alone, however sent: as sent or in NFD, "sí" held "si" and a mark apart, and
    # a length counted the mark
    (check("not_regex", "\\bsi\\b"), "Si\u0301, claro", "si"),
    (check("not_regex", "(?i)\\bsi\\b"), "sí", "SI"),
    (check("regex", "^[\\s\\S]{9,}$"), "Un cafés.", "Un cafe\u0301."),
    (check("regex", "^[^áéíóú]*$"), "Un cafe.", "Un cafe\u0301."),
    # (its second pass) the pattern as written, never put in NFC: "\bcafe\u0301?\b" became "\bcafé?\b", and found no
    # "cafe"; "x[a-e\u0301]" a range to é, holding z; "[и\u0306-\u0308]" a range reversed, a traceback every report
    (check("regex", "\\bcafe\u0301?\\b"), "Un cafe por favor", "Un cafa"),
    (check("not_regex", "x[a-e\u0301]"), "xz", "xe"),
    (check("regex", "caf[e\u0301]"), "cafe", "cafi"),
    (check("regex", "(?i)b\u1112\u1161?"), "b\u1112", "bug"),
    (check("not_regex", "[и\u0306-\u0308]"), "ok", "и"),
    # (its second pass) icontains in NFC again once folded: "ΐ" and "Ϊ́" were never alike
    (check("icontains", "PRO\u03aa\u0301ON"), "pro\u0390on", "proion"),
    (check("icontains", "pro\u0390on"), "PRO\u03aa\u0301ON", "PROION"),
    (check("not_regex", r"(?i)reembolso.{0,20}lunes"), "Le avisaremos.", "El reembolso llegará el lunes"),
    (check("json"), '{"a": 1}', "a: 1"),
    (check("json", schema={"type": "object", "required": ["label"],
                           "properties": {"label": {"enum": ["bug", "acceso"]}}}), '{"label": "bug"}', '{"label": "otro"}'),
    # an answer is read as a call's arguments are (fifth attack on issue 28, items 1 and 2): a key
    # given twice holds neither value, NaN and 1e999 are no JSON numbers
    (check("json", schema={"properties": {"label": {"enum": ["bug"]}}}), '{"label": "bug"}',
     '{"label": "otro", "label": "bug"}'),
    (check("json", schema={"properties": {"n": {"type": "number"}}}), '{"n": 1e300}', '{"n": NaN}'),
    (check("json"), '{"n": -1e300}', '{"n": -1e999}'),
    # (round 105) past what Python reads, as the README says: 4,300 digits, about 1,000 levels
    (check("json"), '{"n": 1' + "0" * 4000 + '}', '{"n": 1' + "0" * 5000 + '}'),
    (check("json"), "[" * 900 + "]" * 900, "[" * 1100 + "]" * 1100),
])
def test_each_check_type_passes_and_fails(c, passing, failing):
    assert evalpy.CHECK_TYPES[c["type"]].evaluate(c, result(passing), graded()) is True
    assert evalpy.CHECK_TYPES[c["type"]].evaluate(c, result(failing), graded()) is False


def test_checks_that_look_at_more_than_the_text():
    assert evalpy.CHECK_TYPES["equals_expected"].evaluate(check("equals_expected"), result(" 42\n", expected="42"), graded())
    assert not evalpy.CHECK_TYPES["equals_expected"].evaluate(check("equals_expected"), result("42.", expected="42"), graded())
    # (round 105) read in NFC, as contains is: an á sent as a and a combining accent is the á the split holds
    for answer, expected in (("esta\u0301", "está"), ("está", "esta\u0301")):
        assert evalpy.CHECK_TYPES["equals_expected"].evaluate(check("equals_expected"), result(answer, expected=expected), graded())
    assert not evalpy.CHECK_TYPES["equals_expected"].evaluate(check("equals_expected"), result("esta", expected="está"), graded())
    assert evalpy.CHECK_TYPES["label"].evaluate(check("label"), result("x", expected="bug"), graded("bug"))
    assert not evalpy.CHECK_TYPES["label"].evaluate(check("label"), result("x", expected="bug"), graded("INVALID"))
    fast = check("max_latency_ms", 500)
    assert evalpy.CHECK_TYPES["max_latency_ms"].evaluate(fast, result("x", latency_ms=499.9), graded())
    assert not evalpy.CHECK_TYPES["max_latency_ms"].evaluate(fast, result("x", latency_ms=500.1), graded())


@pytest.mark.parametrize("value, schema, errors", [
    (3, {"type": "integer"}, 0), (3.5, {"type": "integer"}, 1), (True, {"type": "integer"}, 1),
    (True, {"type": "boolean"}, 0), (None, {"type": ["string", "null"]}, 0), ("x", {"type": "number"}, 1),
    ({"a": 1}, {"type": "object", "required": ["a", "b"]}, 1),
    ({"a": "x"}, {"properties": {"a": {"type": "integer"}}}, 1),
    ([1, 2, "3"], {"type": "array", "items": {"type": "integer"}}, 1),
    ("b", {"enum": ["a", "b"]}, 0), ("c", {"enum": ["a", "b"]}, 1),
    # JSON's equality, as is_subset's: true is not 1, false is not 0, at any depth; 1.0 is 1
    (1, {"enum": [True]}, 1), (True, {"enum": [1]}, 1), (0, {"enum": [False]}, 1), ([1], {"enum": [[True]]}, 1),
    ({"a": [0]}, {"enum": [{"a": [False]}]}, 1), (True, {"enum": [True]}, 0), (1.0, {"enum": [1]}, 0),
    # (61st attack on issue 28) an integer is a number with no fraction, as JSON Schema has it since draft 6: a rule
    # matching {"n": 1} took the call's 1.0 while tool_args_valid said it was no integer
    (1.0, {"type": "integer"}, 0), (-0.0, {"type": "integer"}, 0), (1e300, {"type": "integer"}, 0),
    (1.5, {"type": ["integer", "string"]}, 1), (False, {"type": ["integer"]}, 1),
])
def test_schema_subset(value, schema, errors):
    assert len(evalpy.schema_errors(value, schema)) == errors


@pytest.mark.parametrize("value, schema, message", [
    ("z", {"enum": [True, None, "x\ny"]}, '$ is not one of [true, null, "x\\ny"]'),
    ("z", {"enum": [f"option {i}" for i in range(200)]}, '$ is not one of ["option 0", "option 1", "option 2", "option 3", "option 4"…'),
    ({"a\nb": 1}, {"properties": {"a\nb": {"enum": ["\x1b[2J"]}}}, '$.a\\nb is not one of ["\\u001b[2J"]'),
])
def test_a_schema_error_shows_json_values_on_one_line_cut_short(value, schema, message):
    """From the fifth attack on issue 28, item 6: the enum was printed as Python shows it ([True,
    None, 'x\\ny']), whole however long; a property's name raw."""
    (error,) = evalpy.schema_errors(value, schema)
    assert error[:len(message)] == message and len(error) <= 100 and "\n" not in error and "\x1b" not in error, error
    (problem,) = evalpy.schema_problems({"x" * 500: 1})
    assert problem.startswith("schema: keyword 'xxx") and len(problem) < 150, problem


@pytest.mark.parametrize("written, message", [
    ({"type": "regex", "value": "(unclosed"}, "bad regular expression"),
    ({"type": "contain", "value": "x"}, "check type 'contain' is unknown"),
    ({"type": "contains"}, "needs a non-empty string value"),
    ({"type": "json", "schema": {"type": "object", "pattern": "x"}}, "keyword 'pattern' is not supported"),
    ({"type": "json", "schema": {"type": "strin"}}, "schema.type must be one of"),
    # (133rd round) an enum no value passes: empty, or none of its values of the schema's type
    ({"type": "json", "schema": {"enum": []}}, "check 'json': schema.enum is empty, so no answer can pass it; list the "
                                               "values an answer may be"),
    ({"type": "json", "schema": {"type": "string", "enum": [1]}},
     "check 'json': schema.enum holds no value the rest of the schema takes (1: $ is not string), so no answer can "
     "pass it; give values that fit it, or change the schema"),
    ({"type": "json", "schema": {"type": "object", "required": ["label"],
                                 "properties": {"label": {"type": "boolean", "enum": [1, 0]}}}},
     "schema.properties.label.enum holds no value the rest of the schema takes (1: $ is not boolean)"),
    ({"type": "contains", "value": "x", "blocking": "no"}, "blocking must be true or false"),
    ({"type": "label", "value": "x"}, "takes no value"),
    ({"type": "max_latency_ms", "value": -3}, "positive number of milliseconds"),
    ({"type": "contains", "value": "{{order}}"}, "uses {{order}} but the case has no vars.order"),
    ({"type": "label"}, "a label check needs labels.txt"),
    ({"type": "label", "blocking": False}, "a label check always blocks and has no weight"),
    ({"type": "label", "weight": 1}, "a label check always blocks and has no weight"),
    ({"type": "equals_expected"}, "equals_expected needs the case's 'expected'"),
    # (125th round) one the trimmed answer can never equal: " 42 " failed every answer, unsaid
    ({"type": "equals_expected"}, "case 'b': its 'expected' \" 42 \" begins or ends with white space, and the answer an "
                                  "equals_expected check compares with it is trimmed, so the check can never pass; trim it"),
])
def test_bad_checks_are_found_at_load_with_their_line(tmp_path, written, message):
    (tmp_path / "s.jsonl").write_text(
        json.dumps({"id": "a", "input": "x", "difficulty": "easy", "note": "n"}) + "\n" +
        json.dumps({"id": "b", "input": "x", "difficulty": "easy", "note": "n", "checks": [written],
                    **({"expected": " 42 "} if "white space" in message else {})}) + "\n")
    with pytest.raises(evalpy.EvalError) as e:
        evalpy.load_split(str(tmp_path / "s.jsonl"))
    assert f"{tmp_path}/s.jsonl:2: " in str(e.value) and message in str(e.value)


def test_an_enum_with_a_value_that_fits_is_kept():
    """133rd round's near-misses: an enum is refused only where none of its values fits its schema."""
    for schema in ({"type": "integer", "enum": [1.0, "x"]}, {"type": ["string", "null"], "enum": [None]},
                   {"enum": [1, "a"]}, {"type": "object", "required": ["a"], "enum": [{}, {"a": 1}]}):
        assert evalpy.schema_problems(schema) == [] and evalpy.enum_problems(schema) == [], schema
    assert evalpy.enum_problems({"type": "object", "required": ["a"], "enum": [{"b": 1}]}) == [
        "schema.enum holds no value the rest of the schema takes ({\"b\": 1}: $.a is missing), so no answer can pass it; "
        "give values that fit it, or change the schema"]


def test_an_enum_an_answer_need_never_meet_is_kept(tmp_path):
    """133rd round's review: an impossible enum under an optional property ({"debug": {"enum": []}}, the one way to say
    "no debug key"), under items, or beside a type that passes without it (null) was refused, "so no answer can pass
    it", though answers pass it. Only an enum every passing answer goes through (at the top, or under a property
    required of every object, the schema taking objects alone) makes a check impossible."""
    for schema, passing in (({"type": "object", "properties": {"debug": {"enum": []}}}, "{}"),
                            ({"type": "array", "items": {"enum": []}}, "[]"),
                            ({"type": "object", "properties": {"a": {"type": "string", "enum": [1]}}}, '{"b": 2}'),
                            ({"type": ["object", "null"], "required": ["a"], "properties": {"a": {"enum": []}}}, "null"),
                            ({"required": ["a"], "properties": {"a": {"enum": []}}}, '"x"'),
                            ({"type": "object", "required": ["a"], "properties": {
                                "a": {"type": "object", "properties": {"b": {"enum": []}}}}}, '{"a": {}}')):
        assert evalpy.passes_json(passing, schema), schema
        (tmp_path / "s.jsonl").write_text(json.dumps({"id": "b", "input": "x", "difficulty": "easy", "note": "n",
                                                      "checks": [{"type": "json", "schema": schema}]}) + "\n")
        assert [c["id"] for c in evalpy.load_split(str(tmp_path / "s.jsonl"))[0]] == ["b"], schema
    # a required property's, on every path (nested too), still can never pass
    for schema, where in (({"type": "object", "required": ["a"], "properties": {"a": {"enum": []}}}, "schema.properties.a"),
                          ({"type": "object", "required": ["a"], "properties": {"a": {"type": "object", "required": ["b"],
                            "properties": {"b": {"type": "string", "enum": [1]}}}}}, "schema.properties.a.properties.b")):
        assert evalpy.enum_problems(schema) and evalpy.enum_problems(schema)[0].startswith(where + ".enum "), schema


def test_a_run_stored_with_an_impossible_enum_is_read_as_it_was_made(project, cli):
    """133rd round's review: a run an older eval.py made with a json check of an impossible enum ({"enum": []},
    {"type": "string", "enum": [1]}) was "not a valid run file" to report and runs, its cure ("restore it from a copy")
    no cure: every copy holds the check. As a pattern that can match no text, it is refused in a split, never in a
    run: the run is read, its answers failing the check as they did."""
    for schema in ({"enum": []}, {"type": "string", "enum": [1]}):
        run = write_run("runs/e.json", make_run([{"id": "a", "response": "1", "checks": [
            {"name": "j", "type": "json", "blocking": True, "schema": schema}]}], labels=None))
        code, out, err = cli("report", run)
        assert code == 0 and "not a valid run file" not in err and "Pass rate: 0/1" in out, (schema, out, err)
        code, out, err = cli("runs")
        assert code == 0 and "not a valid run file" not in out + err, (out, err)
    # checks.json's is still refused, named there once
    Path("c").mkdir()
    Path("c/s.jsonl").write_text(json.dumps({"id": "b", "input": "x", "difficulty": "easy", "note": "n"}) + "\n")
    Path("c/checks.json").write_text(json.dumps([{"name": "j", "type": "json", "schema": {"enum": []}}]))
    with pytest.raises(evalpy.EvalError, match=r"^c/checks.json:1: check 1: check 'j': schema.enum is empty"):
        evalpy.load_split("c/s.jsonl")


def test_a_split_begun_before_an_impossible_enum_or_a_pattern_of_no_text_was_refused_is_resumed_as_it_began(project):
    """133rd round's review of cc853dd: a run an older eval.py began with a json check of an impossible enum, or a
    pattern that can match no text, opened in report but its resume was refused ("schema.enum is empty"), and
    mending the split as told was refused next as a split changed since the run began. A resume loads its split as it
    began (as_begun), in a case's checks and in checks.json alike; a new run is still refused."""
    Path("c").mkdir()
    checks = [{"name": "j", "type": "json", "schema": {"enum": []}}, {"name": "r", "type": "not_regex", "value": "a^"}]
    Path("c/s.jsonl").write_text(json.dumps({"id": "b", "input": "x", "difficulty": "easy", "note": "n",
                                             "checks": checks}) + "\n")
    for written in (Path("c/s.jsonl"), Path("c/checks.json")):
        if written.name == "checks.json":
            Path("c/s.jsonl").write_text(json.dumps({"id": "b", "input": "x", "difficulty": "easy", "note": "n"}) + "\n")
            written.write_text(json.dumps(checks[:1]))
        assert [c["name"] for c in evalpy.load_split("c/s.jsonl", as_begun=True)[0][0]["checks"]] \
            == ["j", "r"][:2 if written.name == "s.jsonl" else 1]
        with pytest.raises(evalpy.EvalError, match="schema.enum is empty"):
            evalpy.load_split("c/s.jsonl")


def test_a_check_without_a_name_is_named_by_the_name_it_gets(tmp_path):
    """125th round's newcomer: three regex checks on one line, unnamed, and both errors said "check 'regex'": a check
    with no name is named as the README says it is, by its type and value."""
    checks = [{"type": "regex", "value": "x", "weight": 1}, {"type": "regex", "value": "y", "weight": 1, "blocking": True},
              {"type": "regex", "value": "z", "weight": -1}, {"type": "contains", "value": 5}]
    (tmp_path / "s.jsonl").write_text(json.dumps({"id": "a", "input": "x", "difficulty": "easy", "note": "n",
                                                  "checks": checks}) + "\n")
    with pytest.raises(evalpy.EvalError) as e:
        evalpy.load_split(str(tmp_path / "s.jsonl"))
    said = str(e.value)
    assert "check 'regex y': a check with a weight counts toward the weighted score and does not block" in said, said
    assert "check 'regex z': weight must be a positive number, not -1" in said, said
    assert "check 'contains' needs a non-empty string value" in said, said   # (no text value: named by its type)
    # (its second pass) a wrong value names it by its type in every line: "max_tool_calls 3" was a second check
    (tmp_path / "s.jsonl").write_text(json.dumps({"id": "a", "input": "x", "difficulty": "easy", "note": "n", "tools": [
        {"type": "function", "function": {"name": "t", "parameters": {"type": "object"}}}],
        "checks": [{"type": "max_tool_calls", "value": "3", "weight": "x"}]}) + "\n")
    with pytest.raises(evalpy.EvalError) as e:
        evalpy.load_split(str(tmp_path / "s.jsonl"))
    assert "max_tool_calls 3" not in str(e.value) and "check 'max_tool_calls': weight must be" in str(e.value), str(e.value)


def test_an_expected_with_white_space_at_an_end_is_a_note_to_a_resume(tmp_path, capsys):
    """125th round's second pass: refused at load, an expected " 42 " left a run an older eval.py began with no way to
    finish: trimmed, the split's hash changed, and the resume was refused for that. A resume reads it as it began, and
    says so; a no-break space is shown as its code (it read as a space)."""
    (tmp_path / "s.jsonl").write_text(json.dumps({"id": "b", "input": "x", "difficulty": "easy", "note": "n", "expected": "42\u00a0",
                                                  "checks": [{"type": "equals_expected"}]}) + "\n")
    with pytest.raises(evalpy.EvalError) as e:
        evalpy.load_split(str(tmp_path / "s.jsonl"))
    assert "its 'expected' \"42\\u00a0\" begins or ends with white space" in str(e.value), str(e.value)
    cases, labels, sha = evalpy.load_split(str(tmp_path / "s.jsonl"), as_begun=True)
    assert [c["id"] for c in cases] == ["b"] and "(a run begun before it was refused: resumed as it began)" in \
        capsys.readouterr().err
    # (its review) the held-out guard reads the splits of other runs' journals: "resumed as it began" of a fresh run
    assert evalpy.recorded_split_cases(str(tmp_path / "s.jsonl"), sha)[0]["id"] == "b" and capsys.readouterr().err == ""
    # (126th round) two such cases: the second is "1 more such case", never "cases"
    with (tmp_path / "s.jsonl").open("a") as f:
        f.write(json.dumps({"id": "c", "input": "y", "difficulty": "easy", "note": "n", "expected": " 7",
                            "checks": [{"type": "equals_expected"}]}) + "\n")
    evalpy.load_split(str(tmp_path / "s.jsonl"), as_begun=True)
    assert capsys.readouterr().err.rstrip().endswith("resumed as it began); 1 more such case")


def test_a_set_python_reads_otherwise_later_is_refused_at_load_and_scored_as_read_in_a_run(tmp_path, project, cli):
    """127th round: [[:alpha:]]+ (a POSIX class to its writer) was taken, re's FutureWarning printed raw with a line
    of eval.py, and the pattern used as Python reads it, a set of '[:alph' then ']': no word passed. A set re
    reads otherwise later is refused at load, by file and line, with the cure; a resume, and a run's stored check,
    read it as it was read, in silence."""
    (tmp_path / "s.jsonl").write_text(json.dumps({"id": "b", "input": "x", "difficulty": "easy", "note": "n",
                                                  "vars": {"w": "q"}}) + "\n")
    for pattern, said in (("^[[:alpha:]]+$", "(Possible nested set at position 2): a '[' first in a set is the "
                                             "character '[' here, not a set inside it (POSIX classes such as "
                                             "[[:alpha:]] are not Python's: [^\\W\\d_] is a letter); escape it, \\["),
                          ("[a&&b]", "(Possible set intersection at position 2): a doubled '-', '&', '~' or '|'"),
                          # (its position is the pattern's as filled, shown: x for each placeholder)
                          ("{{w}}[x||y]", "(Possible set union at position 3): a doubled '-', '&', '~' or '|' in a set "
                                          "is two characters here, and an operation between sets in a later Python; "
                                          "escape one of them, as \\- (in the pattern with each placeholder as x: "
                                          "'x[x||y]')")):
        (tmp_path / "checks.json").write_text(json.dumps([{"type": "regex", "value": pattern}]))
        with pytest.raises(evalpy.EvalError) as e:
            evalpy.load_split(str(tmp_path / "s.jsonl"))
        assert str(e.value).startswith(f"{tmp_path}/checks.json:1: check 1: Python's re reads this pattern otherwise "
                                       f"in a later version {said}"), str(e.value)
        with warnings.catch_warnings():   # (re's own, which main() leaves unsaid)
            warnings.simplefilter("ignore", FutureWarning)
            evalpy.load_split(str(tmp_path / "s.jsonl"), as_begun=True)   # (a run begun before: resumed as it began)
    (tmp_path / "checks.json").unlink()
    (tmp_path / "s.jsonl").write_text(json.dumps({"id": "b", "input": "x", "difficulty": "easy", "note": "n",
                                                  "checks": [{"type": "not_regex", "value": "[[]"}]}) + "\n")
    with pytest.raises(evalpy.EvalError, match=re.escape("s.jsonl:1: check 'not_regex [[]': Python's re reads")):
        evalpy.load_split(str(tmp_path / "s.jsonl"))
    # a run that stored such a check is scored as Python reads it now, and says nothing of re's warning
    run = make_run([{"id": "a", "response": "abc", "checks": [{"name": "alpha", "type": "regex", "blocking": True,
                                                                "value": "^[[:alpha:]]+$"}]},
                    {"id": "b", "response": "a]", "checks": [{"name": "alpha", "type": "regex", "blocking": True,
                                                               "value": "^[[:alpha:]]+$"}]}], labels=None)
    code, out, err = cli("report", write_run("runs/r.json", run))
    assert code == 0 and err == "" and "Pass rate: 1/2" in out, (out, err)
    assert out.endswith("Failures (1):\n  id  difficulty  failed checks  answer\n  a   easy        alpha          abc\n"), out


def test_a_label_check_that_may_fail_in_checks_json_is_named_by_checks_json(project, cli):
    """Attack 43: a non-blocking label check in checks.json was blamed on every line of the split."""
    Path("golden/checks.json").write_text('[\n {"type": "label", "blocking": false}\n]\n')
    code, out, err = cli("run", "--split", "dev", "--host", "127.0.0.1:1")
    assert code == 2 and err == ("error: golden/checks.json:2: check 1: check 'label': a label check always blocks and has no "
                                 "weight (a labelled case is scored on its label)\n"), err


@pytest.mark.parametrize("written", [
    {"type": "regex"}, {"type": "regex", "name": "r"}, {"type": "contains", "value": "x", "name": 5},
    {"type": "contains", "value": "x", "name": ["a"]}, {"type": "not_regex", "value": 5},
    {"type": "contains", "value": "{{order}}", "name": {"n": 1}}, {"type": "judge", "value": ["{{order}}"]},
])
def test_a_malformed_check_in_a_case_is_one_line_as_in_checks_json(project, cli, written):
    """A case's own check is refused as the same check in checks.json is: one line naming the file
    and line, exit 2, never used anyway (a number as its name reached the placeholder filler)."""
    folder = project / "golden" / "orders"
    folder.mkdir()
    case = {"id": "a", "input": "x", "difficulty": "easy", "note": "n", "vars": {"order": "A-1"}}
    (folder / "dev.jsonl").write_text(json.dumps(case) + "\n" + json.dumps(dict(case, id="b", checks=[written])) + "\n")
    code, out, err = cli("run", "--split", "golden/orders/dev.jsonl", "--prompt", "prompts/v1.txt", "--host", "127.0.0.1:1")
    # (114th round) case a, with none, is said beside it: every problem in the one refusal
    assert code == 2 and len(err.splitlines()) == 2 and err.startswith("error: golden/orders/dev.jsonl:2: check "), err
    assert err.splitlines()[1].startswith("golden/orders/dev.jsonl:1: case 'a' has no checks"), err
    said = err.splitlines()[0].split("dev.jsonl:2: ", 1)[1] + "\n"
    (folder / "checks.json").write_text(json.dumps([written]))
    (folder / "dev.jsonl").write_text(json.dumps(case) + "\n")
    code, out, err = cli("run", "--split", "golden/orders/dev.jsonl", "--prompt", "prompts/v1.txt", "--host", "127.0.0.1:1")
    assert code == 2 and err == "error: golden/orders/checks.json:1: check 1: " + said, err


def test_default_checks_file_and_placeholders(tmp_path):
    (tmp_path / "checks.json").write_text(json.dumps([
        {"name": "order {{order}}", "type": "regex", "value": "\\b{{order}}\\b"}, {"type": "contains", "value": "Hola"}]))
    (tmp_path / "s.jsonl").write_text(json.dumps(
        {"id": "a", "input": "x", "difficulty": "easy", "note": "n", "vars": {"order": "A-1.5"},
         "checks": [{"type": "not_contains", "value": "lo siento", "blocking": False}]}) + "\n")
    cases, labels, _ = evalpy.load_split(str(tmp_path / "s.jsonl"))
    checks = cases[0]["checks"]
    # (111th round) a name is left as written, default or given: filled, a check was one per case in the report
    assert [c["name"] for c in checks] == ["order {{order}}", "contains Hola", "not_contains lo siento"]
    assert checks[0]["value"] == r"\bA\-1\.5\b"          # a var is literal inside a regex
    # (125th round) and in NFC, as the answer it is searched in: "Jose\u0301" found no "José", which contains found
    (tmp_path / "s2.jsonl").write_text(json.dumps({"id": "a", "input": "x", "difficulty": "easy", "note": "n",
                                                   "vars": {"order": "Jose\u0301"}}) + "\n")
    (pattern,) = [c for c in evalpy.load_split(str(tmp_path / "s2.jsonl"))[0][0]["checks"] if c["type"] == "regex"]
    assert pattern["value"] == "\\bJosé\\b" and evalpy.CHECK_TYPES["regex"].evaluate(pattern, result("Hola José."), graded())
    # (126th round) a quantifier after a placeholder takes the whole value, as a literal is one: "^{{x}}{2}$" with x
    # "ab" was "^ab{2}$", passed "abb" and failed "abab"; inside a class the value is its characters, as written
    for written, answer, passes in (("^{{x}}{2}$", "abb", False), ("^{{x}}{2}$", "abab", True), ("^{{x}}+$", "abab", True),
                                    ("^[{{x}}]+$", "baab", True), ("^[]{{x}}]+$", "]ab", True),
                                    # (its review) as re reads them: {,}, a verbose pattern's spaces and comments, (?#...)
                                    ("^{{x}}{,}$", "abab", True), ("^{{x}}{,}$", "abbb", False),
                                    ("(?x)^{{x}} {2}$", "abb", False), ("(?x)^{{x}}#c\n{2}$", "abab", True),
                                    ("(?#[)^{{x}}{2}$", "abb", False), ("(?x)^ # a [ note\n{{x}}{2}$", "abab", True),
                                    ("(?#[)^[]{{x}}+]+$", "(?:)", False), ("(?#[)^[]{{x}}+]+$", "+]ab", True)):
        (tmp_path / "s3.jsonl").write_text(json.dumps({"id": "a", "input": "x", "difficulty": "easy", "note": "n",
                                                       "vars": {"x": "ab", "order": "1"},
                                                       "checks": [{"type": "regex", "value": written}]}) + "\n")
        (check,) = [c for c in evalpy.load_split(str(tmp_path / "s3.jsonl"))[0][0]["checks"] if c["type"] == "regex" and c["value"] != "\\b1\\b"]
        assert evalpy.CHECK_TYPES["regex"].evaluate(check, result(answer), graded()) is passes, (written, answer)
    # (its review) a position re names counts in the pattern as filled: that pattern is shown
    (tmp_path / "s3.jsonl").write_text(json.dumps({"id": "a", "input": "x", "difficulty": "easy", "note": "n",
                                                   "vars": {"x": "zb", "order": "1"},
                                                   "checks": [{"type": "regex", "value": "^{{x}}("}]}) + "\n")
    with pytest.raises(evalpy.EvalError, match=re.escape("at position 3 (in the pattern as its vars fill it: '^zb(')")):
        evalpy.load_split(str(tmp_path / "s3.jsonl"))
    assert checks[2]["blocking"] is False
    (tmp_path / "checks.json").write_text('[{"type": "regex", "value": "("}]')
    with pytest.raises(evalpy.EvalError, match="bad regular expression"):
        evalpy.load_split(str(tmp_path / "s.jsonl"))
    (tmp_path / "checks.json").write_text('{"type": "regex"}')
    with pytest.raises(evalpy.EvalError, match="must be a JSON list"):
        evalpy.load_split(str(tmp_path / "s.jsonl"))


def test_a_value_is_text_wherever_its_placeholder_stands(tmp_path):
    """127th round: a placeholder where the parse's marks read as nothing (a range's start, [{{lo}}-9]; a group's name)
    threw the parse away, and {{x}}{2} after it was ab{2} again; a count given by a var ({{{n}}}, n 2) repeated the
    value's last character, and \\x{{h}} with h 41 searched for an A. A value is text: one unit where a quantifier
    repeats it or an escape would read on into it, and a var that would make a count is refused, as is a pattern
    of more placeholders than can be told apart."""
    def loaded(written, **vars):
        (tmp_path / "s.jsonl").write_text(json.dumps({"id": "a", "input": "x", "difficulty": "easy", "note": "n",
                                                      "vars": vars, "checks": [{"type": "regex", "value": written}]}) + "\n")
        return evalpy.load_split(str(tmp_path / "s.jsonl"))[0][0]["checks"][0]
    for written, vars, answer, passes in (("^[{{lo}}-9]{{x}}{2}$", {"lo": "0", "x": "ab"}, "5abb", False),
                                          ("^[{{lo}}-9]{{x}}{2}$", {"lo": "0", "x": "ab"}, "5abab", True),
                                          ("^(a)\\1{{n}}$", {"n": "0"}, "aa0", True),
                                          ("^a[{{{n}}}]$", {"n": "2"}, "a2", True)):   # (in a class: no count)
        check = loaded(written, **vars)
        assert evalpy.CHECK_TYPES["regex"].evaluate(check, result(answer), graded()) is passes, (written, answer, check)
    # (its newcomer) said as such, with the cure, never re's "incomplete escape \x" of the pattern filled
    for written in ("^\\x{{h}}$", "^\\u00{{h}}$", "^\\N{{{h}}}$"):   # (its review: \N{ too)
        with pytest.raises(evalpy.EvalError) as e:
            loaded(written, h="41")
        assert str(e.value).endswith(f"s.jsonl:1: check {'regex ' + written!r}: {evalpy.PLACEHOLDER_IN_ESCAPE}"), str(e.value)
    with pytest.raises(evalpy.EvalError) as e:   # (one problem of one cause: "invalid group reference 41" after it)
        loaded("^\\{{h}}$", h="41")
    assert "bad regular expression" not in str(e.value) and evalpy.PLACEHOLDER_ESCAPED in str(e.value), str(e.value)
    for written, shown in (("^{{x}}{{{n}}}$", "{{{n}}} fills as {2}"), ("^{{x}}{1{{n}},}$", "{1{{n}},} fills as {12,}")):
        with pytest.raises(evalpy.EvalError, match=re.escape(f"s.jsonl:1: check 'regex {written}': {shown}, a count of "
                                                             "repeats, where a var's value is text to find; write the count "
                                                             "in the pattern")):
            loaded(written, x="ab", n="2")
    assert loaded("^a{{{w}}}$", w="b")["value"] == "^a{b}$"   # (no count: text, as re reads it)
    # (its review) where the parse cannot say where the placeholders stand, refused, never filled as ab{2}
    with pytest.raises(evalpy.EvalError, match=re.escape("Python's parse of the pattern did not say where its placeholders "
                                                         "stand within 300 tries")):
        loaded("[{{x}}-z]" * 400 + "{{y}}{2}", x="a", y="cd")
    many = "{{x}}" * (evalpy.MOST_MARKED + 1)
    with pytest.raises(evalpy.EvalError, match="holds 65,537 placeholders, more than the 65,536 eval.py reads in one "
                                               "pattern; split it into checks"):
        loaded(many, x="a")


def test_a_placeholder_where_re_reads_a_name_is_refused(tmp_path):
    """128th round: a value where re reads a name, flags or a group (\\N{LATIN SMALL LETTER {{x}}}, (?{{f}})hello,
    (?P={{x}}), (?({{x}})b|c), (?P<{{x}}>a)) was taken as that name, never as text; and once a group's reference
    had tried its stand-ins, (?P<{{a}}>x){{b}}{2}(?P={{a}}) lost b's mark and filled as (?P<q>x)xy{2}(?P=q). Each is
    refused at load with its cause and cure (a group's name is no text to find: the 127th round's test took one), and
    \\N{LATIN CAPITAL LETTER {{x}}} of x "a b" no longer gives re's words on a backslash never written."""
    def refusal(written, **vars):
        (tmp_path / "s.jsonl").write_text(json.dumps({"id": "a", "input": "x", "difficulty": "easy", "note": "n",
                                                      "vars": vars, "checks": [{"type": "regex", "value": written}]}) + "\n")
        with pytest.raises(evalpy.EvalError) as e:
            evalpy.load_split(str(tmp_path / "s.jsonl"))
        return str(e.value)
    for written, vars, placeholder in (("(?P<{{a}}>x){{b}}{2}(?P={{a}})", {"a": "q", "b": "xy"}, "{{a}}"),
                                       ("\\N{LATIN SMALL LETTER {{x}}}", {"x": "A"}, "{{x}}"),
                                       ("\\N{LATIN CAPITAL LETTER {{x}}}", {"x": "a b"}, "{{x}}"),
                                       ("(?{{f}})hello", {"f": "i"}, "{{f}}"), ("(?{{f}}:abc)", {"f": "i"}, "{{f}}"),
                                       ("(?a{{f}})x", {"f": "i"}, "{{f}}"), ("(?P<n>a)(?P={{x}})", {"x": "n"}, "{{x}}"),
                                       ("(a)?(?({{x}})b|c)", {"x": "1"}, "{{x}}"), ("(?P<{{x}}>a)", {"x": "grp"}, "{{x}}"),
                                       ("^(?P<q>x)?(?({{g}})a|b){{y}}{2}$", {"g": "q", "y": "cd"}, "{{g}}"),
                                       # (its own review) as filled, a value after \\1 a unit, no '\\10'
                                       ("(a)\\1{{x}}(?P<n>b)(?P={{y}})", {"x": "0", "y": "n"}, "{{y}}")):
        said = refusal(written, **vars)
        assert said.endswith(f"s.jsonl:1: check {'regex ' + written!r}: {placeholder} "
                             + evalpy.PLACEHOLDER_NAMED), (written, said)


def test_a_placeholder_where_re_reads_a_group_is_refused_whatever_its_value(tmp_path):
    """129th round: a placeholder as a conditional's group or a group's reference was refused as one where re reads a
    name only when its value was a group the pattern has: of any other, re's words on the pattern filled ("invalid
    group reference 9", "unknown group name 'a'", "bad character in group name 'a\\\\ b'", a backslash never written).
    The parse is tried with a group the pattern has there too: the named refusal and its cure, whatever the value."""
    for written, vars in (("^(a)?(?({{n}})c|d)$", {"n": "9"}), ("(?P<ab>q)(?P={{x}})", {"x": "a"}),
                          ("(?P<ab>q)?(?({{x}})c|d)", {"x": "a b"}), ("(?P<ab>q)(?P={{x}})", {"x": "ab"})):
        (tmp_path / "s.jsonl").write_text(json.dumps({"id": "a", "input": "x", "difficulty": "easy", "note": "n",
                                                      "vars": vars, "checks": [{"type": "regex", "value": written}]}) + "\n")
        with pytest.raises(evalpy.EvalError) as e:
            evalpy.load_split(str(tmp_path / "s.jsonl"))
        placeholder = evalpy.PLACEHOLDER.search(written).group()
        assert str(e.value).endswith(f"s.jsonl:1: check {'regex ' + written!r}: {placeholder} "
                                     + evalpy.PLACEHOLDER_NAMED), (written, str(e.value))


def test_a_range_end_before_a_dash_is_text_never_a_name(tmp_path):
    """129th round: [a-{{p}}-\\d] (re reads [a-z-\\d] as a range and a '-') was refused as "{{p}} stands where Python's
    re reads a name" whatever p held: no stand-in the parse tried there was one character high enough to end the
    range, and "i", a name's, was. It is text: filled, and a value that breaks the range gets re's own words."""
    def loaded(written, **vars):
        (tmp_path / "s.jsonl").write_text(json.dumps({"id": "a", "input": "x", "difficulty": "easy", "note": "n",
                                                      "vars": vars, "checks": [{"type": "regex", "value": written}]}) + "\n")
        return evalpy.load_split(str(tmp_path / "s.jsonl"))[0][0]["checks"][0]
    for value in ("z", "b", "a", "{"):
        assert loaded("^[a-{{p}}-\\d]+$", p=value)["value"] == f"^[a-{re.escape(value)}-\\d]+$"
    check = loaded("^[a-{{p}}-\\d]+$", p="z")
    assert [evalpy.CHECK_TYPES["regex"].evaluate(check, result(answer), graded()) for answer in ("q-7", "Q")] == [True, False]
    for value, said in (("ab", "bad character range b-\\d"), ("-", "bad character range a-\\-")):
        with pytest.raises(evalpy.EvalError) as e:
            loaded("^[a-{{p}}-\\d]+$", p=value)
        assert said in str(e.value) and evalpy.PLACEHOLDER_NAMED not in str(e.value), str(e.value)


def test_a_range_end_above_every_mark_is_text_never_a_name(tmp_path):
    """129th round: [\\U000f0005-{{a}}] of a U+10FFFF, which re compiles, was refused as "{{a}} stands where Python's re
    reads a name": the marks (from U+F0000) and every text stand-in sit below the range's start, and the highest
    character was never tried alone, so the value as filled, the last stand-in, was taken for a name; checks.json's
    (?P<{{g}}>x)[\\U000f0005-{{a}}] was refused as "bad character range" of x, never naming {{g}}. A range's end is
    tried as the highest character: text, filled; a name is still named."""
    def loaded(written, **vars):
        (tmp_path / "s.jsonl").write_text(json.dumps({"id": "a", "input": "x", "difficulty": "easy", "note": "n",
                                                      "vars": vars, "checks": [{"type": "regex", "value": written}]}) + "\n")
        return evalpy.load_split(str(tmp_path / "s.jsonl"))[0][0]["checks"][0]
    for value in ("\U0010ffff", "\U000f0010"):
        check = loaded("[\\U000f0005-{{a}}]", a=value)
        assert check["value"] == f"[\\U000f0005-{value}]"
        assert evalpy.CHECK_TYPES["regex"].evaluate(check, result("\U000f0007"), graded()) is True
    with pytest.raises(evalpy.EvalError) as e:   # (a value below the start: re's own words)
        loaded("[\\U000f0005-{{a}}]", a="z")
    assert "bad character range" in str(e.value) and evalpy.PLACEHOLDER_NAMED not in str(e.value), str(e.value)
    (tmp_path / "checks.json").write_text(json.dumps([{"type": "regex", "value": "(?P<{{g}}>x)[\\U000f0005-{{a}}]"}]))
    (tmp_path / "s.jsonl").write_text(json.dumps({"id": "a", "input": "x", "difficulty": "easy", "note": "n",
                                                  "vars": {"g": "q", "a": "\U0010ffff"}}) + "\n")
    with pytest.raises(evalpy.EvalError) as e:
        evalpy.load_split(str(tmp_path / "s.jsonl"))
    assert str(e.value) == (f"{tmp_path}/checks.json:1: check 1: check 'regex (?P<{{{{g}}}}>x)[\\\\U000f0005-{{{{a}}}}]': "
                            f"{{{{g}}}} {evalpy.PLACEHOLDER_NAMED}"), str(e.value)


def test_a_value_after_an_octal_escape_in_a_class_is_its_characters(tmp_path):
    """128th round: in a class, a placeholder after \\0, \\01 or \\1 was filled as (?:value), as after one outside,
    so [\\1{{x}}] of x "a" held '(', '?' and ':' too. In a class a value is its characters, a digit that would join
    the octal escape ([\\1{{x}}] of x "2" is no \\12, a line break) written as a character of its own."""
    for written, value, answer, passes in (("^[\\1{{x}}]+$", "a", "(?:", False), ("^[\\1{{x}}]+$", "a", "a\x01", True),
                                           ("^[\\0{{x}}]$", "a", "?", False), ("^[\\1{{x}}]$", "2", "\n", False),
                                           ("^[\\1{{x}}]$", "2", "2", True), ("^[\\01{{x}}]+$", "7", "\x017", True),
                                           ("^[\\01{{x}}]$", "7", "\x0f", False), ("^(a)\\1{{x}}$", "0", "aa0", True)):
        (tmp_path / "s.jsonl").write_text(json.dumps({"id": "a", "input": "x", "difficulty": "easy", "note": "n",
                                                      "vars": {"x": value},
                                                      "checks": [{"type": "regex", "value": written}]}) + "\n")
        check = evalpy.load_split(str(tmp_path / "s.jsonl"))[0][0]["checks"][0]
        assert evalpy.CHECK_TYPES["regex"].evaluate(check, result(answer), graded()) is passes, (written, answer, check)


def test_a_value_at_a_range_start_after_an_octal_escape_is_its_characters(tmp_path):
    """128th round's second attacker: a value at a class's range start after \\0 or \\1 was wrapped as (?:value),
    [\\0{{x}}-9] of x "0" stored [\\0(?:0)-9] (a class of '(', '?', ':' and ')' to 9), and ^[\\1{{y}}-']$ of y "!"
    refused quoting a '(?:' never written: the marks telling where a placeholder stands fail at a range's start, and
    the stand-in read there was told of no class. It is filled as inside one: [\\0\\x30-9]."""
    for written, value, answer, passes in (("[\\0{{x}}-9]", "0", "(see above)", False), ("[\\0{{x}}-9]", "0", "5", True),
                                           ("^[\\1{{x}}-9]$", "0", "?", False), ("^[\\1{{x}}-9]$", "0", "\x01", True),
                                           ("^[\\1{{y}}-']$", "!", "!", True), ("^[\\1{{y}}-']$", "!", "(", False)):
        (tmp_path / "s.jsonl").write_text(json.dumps({"id": "a", "input": "x", "difficulty": "easy", "note": "n",
                                                      "vars": {evalpy.placeholder_names(written)[0]: value},
                                                      "checks": [{"type": "regex", "value": written}]}) + "\n")
        check = evalpy.load_split(str(tmp_path / "s.jsonl"))[0][0]["checks"][0]
        assert evalpy.CHECK_TYPES["regex"].evaluate(check, result(answer), graded()) is passes, (written, answer, check)
    assert check["value"] == "^[\\1!-']$"


def test_a_value_after_an_octal_escape_is_never_wrapped_in_a_class_or_comment_by_the_cases_fill(tmp_path):
    """129th round: a pattern failing with every placeholder alike ([{{a}}-m][n-{{b}}]: no one character starts the
    one range and ends the other) was read with the case's values, tried at once with each after \\0 or \\1 wrapped
    as (?:value) even inside a class or a comment: that failed, and the value was filled so, ^[{{a}}-m][n-{{b}}][\\0{{x}}
    -"]$ of x " " refused as "bad character range )-"", a (?#\\1{{x}}) as "unbalanced parenthesis", of a '(?:' never
    written (and a name's placeholder beside them got that, never its own refusal). Tried so, a value there is its
    characters, its first digit escaped."""
    def loaded(written, **vars):
        (tmp_path / "s.jsonl").write_text(json.dumps({"id": "a", "input": "x", "difficulty": "easy", "note": "n",
                                                      "vars": vars, "checks": [{"type": "regex", "value": written}]}) + "\n")
        return evalpy.load_split(str(tmp_path / "s.jsonl"))[0][0]["checks"][0]["value"]
    assert loaded('^[{{a}}-m][n-{{b}}][\\0{{x}}-"]$', a="a", b="z", x=" ") == '^[a-m][n-z][\\0\\ -"]$'
    assert loaded("^[{{a}}-m][n-{{b}}]z(?#\\1{{x}})$", a="a", b="z", x="q") == "^[a-m][n-z]z(?#\\1q)$"
    written = '(?P<{{g}}>a)[{{a}}-m][n-{{b}}][\\0{{x}}-"]'
    with pytest.raises(evalpy.EvalError) as e:
        loaded(written, g="q", a="a", b="z", x=" ")
    assert str(e.value).endswith(f"s.jsonl:1: check {'regex ' + written!r}: {{{{g}}}} {evalpy.PLACEHOLDER_NAMED}"), str(e.value)


def test_a_pattern_that_fails_whatever_its_placeholders_hold_is_refused_at_once(tmp_path, monkeypatch):
    """128th round: a long pattern of 40 placeholders and a stray '(' was parsed some 600 times (a stand-in tried at
    each placeholder in turn, twice over) before re's own words refused it: 25 s for a pattern of 35 KB. One that
    fails with every placeholder as a plain letter, and as its value, is refused at once, by re's words."""
    parses = []
    parse = evalpy.regex_parser.parse
    monkeypatch.setattr(evalpy.regex_parser, "parse", lambda *a, **k: parses.append(1) or parse(*a, **k))
    written = "(?:" + "|".join(f"w{i}" for i in range(50)) + ")" + "".join(f" {{{{v{i}}}}}" for i in range(40)) + "("
    (tmp_path / "s.jsonl").write_text(json.dumps({"id": "a", "input": "x", "difficulty": "easy", "note": "n",
                                                  "vars": {f"v{i}": "ab" for i in range(40)},
                                                  "checks": [{"type": "regex", "value": written}]}) + "\n")
    with pytest.raises(evalpy.EvalError, match=re.escape("bad regular expression: missing ), unterminated subpattern")):
        evalpy.load_split(str(tmp_path / "s.jsonl"))
    assert len(parses) < 20, len(parses)


def test_a_placeholder_at_a_range_start_is_read_in_one_parse(tmp_path, monkeypatch):
    """128th round's second attacker: a long pattern of 40 placeholders each at a class's range start, [{{x}}-9], took
    two parses apiece (its marks fail there; once the lowest character read, its marks were tried again in case the
    fault had been another's): 12 s to load. One whose own stand-in was the fault, the parse getting past it once
    changed, is not tried on its marks again."""
    parses = []
    parse = evalpy.regex_parser.parse
    monkeypatch.setattr(evalpy.regex_parser, "parse", lambda *a, **k: parses.append(1) or parse(*a, **k))
    written = "".join(f"(?:abc|def)[{{{{x{i}}}}}-9]" for i in range(40))
    (tmp_path / "s.jsonl").write_text(json.dumps({"id": "a", "input": "x", "difficulty": "easy", "note": "n",
                                                  "vars": {f"x{i}": "0" for i in range(40)},
                                                  "checks": [{"type": "regex", "value": written}]}) + "\n")
    check = evalpy.load_split(str(tmp_path / "s.jsonl"))[0][0]["checks"][0]
    assert check["value"] == "(?:abc|def)[0-9]" * 40
    assert len(parses) < 60, len(parses)   # (89 before: two apiece)


def test_a_pattern_of_a_range_pair_is_read_once_for_every_case(tmp_path, monkeypatch):
    """129th round: a pattern failing with every placeholder alike, [{{a}}-m][n-{{b}}] (no one character starts the one
    range and ends the other), was read anew with each case's values, none the cache had: ~30 KB of 40-140
    placeholders took 3-7 s a case, 5-11 min for 100 cases before the first call. A high character then the lowest,
    every placeholder alike, starts a range and ends one: the pattern is read once, whatever its cases."""
    parses = []
    parse = evalpy.regex_parser.parse
    monkeypatch.setattr(evalpy.regex_parser, "parse", lambda *a, **k: parses.append(1) or parse(*a, **k))
    written = "^[{{a}}-m][n-{{b}}]" + "".join(f"(?:q|r)[{{{{x{i}}}}}-9]" for i in range(10))
    lines = [{"id": str(k), "input": "x", "difficulty": "easy", "note": "n",
              "vars": {"a": "a", "b": "z", **{f"x{i}": str((k + i) % 10) for i in range(10)}},
              "checks": [{"type": "regex", "value": written}]} for k in range(10)]
    (tmp_path / "s.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))
    cases = evalpy.load_split(str(tmp_path / "s.jsonl"))[0]
    assert cases[3]["checks"][0]["value"] == "^[a-m][n-z]" + "".join(f"(?:q|r)[{(3 + i) % 10}-9]" for i in range(10))
    assert len(parses) < 60, len(parses)   # (one read of some 15 parses, then 3 a case for its fill: 167 before)


def test_a_placeholder_in_a_comment_is_read_as_re_reads_a_comment(tmp_path):
    """128th round: a(?#\\1{{x}})b was refused quoting a '(?:' never written (the value wrapped, as after \\1, inside
    the comment, whose first ')' then ended it), and a(?#{{{n}}}), or a verbose pattern's # up to {{{n}}} of them, was
    refused as a count of repeats, where re reads neither. In a comment a value is filled as text, never wrapped."""
    for written, vars, answer, passes in (("^a(?#\\1{{x}})b$", {"x": "z"}, "ab", True),
                                          ("^a(?#\\1{{x}})b$", {"x": "z"}, "azb", False),
                                          ("^a(?#{{{n}}})$", {"n": "2"}, "a", True),
                                          ("(?x)^a  # up to {{{n}}} of them\n$", {"n": "2"}, "a", True),
                                          ("(?x)^a  # up to {{{n}}} of them\n$", {"n": "2"}, "aa", False)):
        (tmp_path / "s.jsonl").write_text(json.dumps({"id": "a", "input": "x", "difficulty": "easy", "note": "n",
                                                      "vars": vars, "checks": [{"type": "regex", "value": written}]}) + "\n")
        check = evalpy.load_split(str(tmp_path / "s.jsonl"))[0][0]["checks"][0]
        assert evalpy.CHECK_TYPES["regex"].evaluate(check, result(answer), graded()) is passes, (written, answer, check)


def test_a_pattern_holding_a_placeholders_mark_is_read_apart_from_it(tmp_path):
    """128th round: a{{{n}}}[\\U000f0001z] of n 2 was taken: the class's own U+F0001 was the first placeholder's
    mark, so {{{n}}} was read as inside the class, no count. The marks are characters the pattern does not hold."""
    for written in ("^a{{{n}}}[\\U000f0001z]$", "^a{{{n}}}[\U000f0001z]$"):
        (tmp_path / "s.jsonl").write_text(json.dumps({"id": "a", "input": "x", "difficulty": "easy", "note": "n",
                                                      "vars": {"n": "2"},
                                                      "checks": [{"type": "regex", "value": written}]}) + "\n")
        with pytest.raises(evalpy.EvalError, match=re.escape("{{{n}}} fills as {2}, a count of repeats")):
            evalpy.load_split(str(tmp_path / "s.jsonl"))


def test_a_look_behind_of_a_placeholder_in_checks_json_is_judged_per_case(tmp_path):
    """128th round: checks.json's (?<=ab|{{x}})z, of cases whose x is cd and ef, was refused at load ("look-behind
    requires fixed-width pattern"): the file's own test fills each placeholder with one character. Its width is the
    value's: judged per case, a case whose value gives another width refused by its own line."""
    (tmp_path / "checks.json").write_text(json.dumps([{"type": "regex", "value": "(?<=ab|{{x}})z"}]))
    lines = [{"id": i, "input": "x", "difficulty": "easy", "note": "n", "vars": {"x": x}} for i, x in (("a", "cd"), ("b", "ef"))]
    (tmp_path / "s.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))
    cases = evalpy.load_split(str(tmp_path / "s.jsonl"))[0]
    assert [evalpy.CHECK_TYPES["regex"].evaluate(case["checks"][0], result("efz"), graded()) for case in cases] == [False, True]
    (tmp_path / "s.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines + [dict(lines[0], id="c", vars={"x": "g"})]))
    with pytest.raises(evalpy.EvalError) as e:
        evalpy.load_split(str(tmp_path / "s.jsonl"))
    assert str(e.value).startswith(f"{tmp_path}/s.jsonl:3: check 'regex (?<=ab|{{{{x}}}})z' (from checks.json") and str(
        e.value).endswith(f"bad regular expression: look-behind requires fixed-width pattern{evalpy.LOOK_BEHIND_CURE} (in "
                          "the pattern as its vars fill it: '(?<=ab|g)z')"), str(e.value)
    (tmp_path / "checks.json").write_text(json.dumps([{"type": "regex", "value": "(?<=a|bc){{x}}"}]))   # (no width mends it)
    with pytest.raises(evalpy.EvalError, match=re.escape("checks.json:1: check 1: bad regular expression: look-behind")):
        evalpy.load_split(str(tmp_path / "s.jsonl"))


def test_a_pattern_of_checks_json_every_case_fills_validly_loads(tmp_path):
    """128th round's second attacker: checks.json refused (?<=abc|{{x}}{{y}})z of x "c", y "de", (?<=abc|{{x}})z.*(?<=ab|
    {{y}})y of x "def", y "gh" and [a-{{x}}][{{y}}-9] of x "z", y "0", each of which its case's fill compiles: the file's
    test fills every placeholder alike. A fault the values may mend (one gone with the placeholders, or a look-behind's
    width where one stands) is each case's; one no value is at, (?<=a|bc)(?<=ab|{{x}}), is still the file's."""
    for written, vars, answer in (("(?<=abc|{{x}}{{y}})z", {"x": "c", "y": "de"}, "abcdez"),
                                  ("(?<=abc|{{x}})z.*(?<=ab|{{y}})y", {"x": "def", "y": "gh"}, "defz ghy"),
                                  ("[a-{{x}}][{{y}}-9]", {"x": "z", "y": "0"}, "b5")):
        (tmp_path / "checks.json").write_text(json.dumps([{"type": "regex", "value": written}]))
        (tmp_path / "s.jsonl").write_text(json.dumps({"id": "a", "input": "x", "difficulty": "easy", "note": "n",
                                                      "vars": vars}) + "\n")
        check = evalpy.load_split(str(tmp_path / "s.jsonl"))[0][0]["checks"][0]
        assert evalpy.CHECK_TYPES["regex"].evaluate(check, result(answer), graded()) is True, (written, check)
        assert evalpy.CHECK_TYPES["regex"].evaluate(check, result("zzy"), graded()) is False, (written, check)
    for written in ("(?<=a|bc)z{{x}}", "(?<=a|bc)(?<=ab|{{x}})z", "[9-0]{{x}}", "({{x}}"):
        (tmp_path / "checks.json").write_text(json.dumps([{"type": "regex", "value": written}]))
        with pytest.raises(evalpy.EvalError, match=re.escape("checks.json:1: check 1: bad regular expression: ")):
            evalpy.load_split(str(tmp_path / "s.jsonl"))


def test_a_placeholder_where_re_reads_a_name_in_checks_json_is_the_files_fault(tmp_path):
    """129th round: checks.json's (?P<g>a)(?P={{a}}) and (a)(?({{a}})c|d) were refused on every case's line, never
    naming checks.json, since every fill failing was taken for a fault values may mend; (?P<{{a}}>x) and (?{{a}})x,
    which x fills validly, were blamed on each case too. No value mends a placeholder where re reads a name: refused
    once, at the file's line, with its cause and cure."""
    (tmp_path / "s.jsonl").write_text("".join(json.dumps({"id": i, "input": "x", "difficulty": "easy", "note": "n",
                                                          "vars": {"a": a}}) + "\n" for i, a in (("a", "g"), ("b", "1"))))
    for written in ("(?P<g>a)(?P={{a}})", "(a)(?({{a}})c|d)", "(?P<{{a}}>x)", "(?{{a}})x"):
        (tmp_path / "checks.json").write_text(json.dumps([{"type": "regex", "value": written}]))
        with pytest.raises(evalpy.EvalError) as e:
            evalpy.load_split(str(tmp_path / "s.jsonl"))
        assert str(e.value) == (f"{tmp_path}/checks.json:1: check 1: check {'regex ' + written!r}: {{{{a}}}} "
                                + evalpy.PLACEHOLDER_NAMED), (written, str(e.value))


def test_a_placeholder_problem_of_checks_json_says_where_the_check_comes_from(tmp_path):
    """129th round: checks.json's x{{{n}}}, refused by each case whose n is a count ("fills as {2}, a count of repeats"),
    never said it came from checks.json, as other refusals of its checks on a case's line do, and a case's own copy of
    it, written on its line, was said to be checks.json's where its n was empty. Each problem of a shared check's
    placeholders says so; a case's own check does not."""
    (tmp_path / "checks.json").write_text(json.dumps([{"type": "regex", "value": "x{{{n}}}"}]))
    (tmp_path / "s.jsonl").write_text("".join(json.dumps(dict({"id": str(k), "input": "x", "difficulty": "easy", "note": "n",
                                                               "vars": {"n": n}}, **own)) + "\n"
                                              for k, (n, own) in enumerate((("2", {}), ("", {"checks": [
                                                  {"type": "regex", "value": "x{{{n}}}"}]})), 1)))
    with pytest.raises(evalpy.EvalError) as e:
        evalpy.load_split(str(tmp_path / "s.jsonl"))
    shared = "check 'regex x{{{n}}}' (from checks.json, which gives it to every case)"
    assert str(e.value).splitlines() == [
        f"{tmp_path}/s.jsonl:1: {shared}: {{{{{{n}}}}}} fills as {{2}}, a count of repeats, where a var's value is text "
        "to find; write the count in the pattern",
        f"{tmp_path}/s.jsonl:2: {shared} uses {{{{n}}}}, and vars.n is empty here: the pattern would look for nothing in "
        "its place; give it a value",
        f"{tmp_path}/s.jsonl:2: check 'regex x{{{{{{n}}}}}}' uses {{{{n}}}}, and vars.n is empty here: the pattern would "
        "look for nothing in its place; give it a value, or drop the check from this case"], str(e.value)


def test_a_range_pair_of_checks_json_every_case_fills_validly_loads(tmp_path):
    """129th round: checks.json refused ^[{{a}}-m][n-{{b}}][{{c}}]$ of cases a, z, qr and b, y, st ("bad character range
    x-m", the pattern with each placeholder as x), and (?<=ab|{{x}})[{{a}}-m][n-{{b}}] of x cd, a a, b z, though each
    case's fill compiles: no placeholder filled alike mends both ranges, and the pattern emptied of them fails. A fault
    some fill of each placeholder mends, as the parse reading where they stand finds, is each case's, by its own line."""
    def lines(*vars):
        return "".join(json.dumps({"id": str(n), "input": "x", "difficulty": "easy", "note": "n", "vars": v}) + "\n"
                       for n, v in enumerate(vars))
    (tmp_path / "checks.json").write_text(json.dumps([{"type": "regex", "value": "^[{{a}}-m][n-{{b}}][{{c}}]$"}]))
    (tmp_path / "s.jsonl").write_text(lines({"a": "a", "b": "z", "c": "qr"}, {"a": "b", "b": "y", "c": "st"}))
    cases = evalpy.load_split(str(tmp_path / "s.jsonl"))[0]
    assert [case["checks"][0]["value"] for case in cases] == ["^[a-m][n-z][qr]$", "^[b-m][n-y][st]$"]
    assert [evalpy.CHECK_TYPES["regex"].evaluate(case["checks"][0], result("anq"), graded()) for case in cases] == [True, False]
    (tmp_path / "s.jsonl").write_text(lines({"a": "a", "b": "z", "c": "qr"}, {"a": "n", "b": "y", "c": "st"}))
    with pytest.raises(evalpy.EvalError) as e:
        evalpy.load_split(str(tmp_path / "s.jsonl"))
    assert str(e.value).startswith(f"{tmp_path}/s.jsonl:2: check 'regex ^[{{{{a}}}}-m]") and "bad character range n-m" in str(
        e.value) and "checks.json:1" not in str(e.value), str(e.value)
    (tmp_path / "checks.json").write_text(json.dumps([{"type": "regex", "value": "(?<=ab|{{x}})[{{a}}-m][n-{{b}}]"}]))
    (tmp_path / "s.jsonl").write_text(lines({"x": "cd", "a": "a", "b": "z"}))
    check = evalpy.load_split(str(tmp_path / "s.jsonl"))[0][0]["checks"][0]
    assert check["value"] == "(?<=ab|cd)[a-m][n-z]"


def test_a_range_pair_beside_a_range_end_before_a_dash_in_checks_json_is_read_once(tmp_path, monkeypatch):
    """129th round: checks.json's [{{a}}-m][n-{{b}}][a-{{z}}-\\d] of a a, b z, z z was refused at the file's line ("bad
    character range x-m", each placeholder as x) though its fill compiles: no fill alike parses it (a range's start
    wants a low character, its end a high one, and the last's end one character), so the parse reading where the
    placeholders stand, without values, never ran, and was made with each case's values, a search a case (140
    placeholders: 5.6 s a case). A range's start is tried low and its end high in one fill: read once, judged per case."""
    parses = []
    parse = evalpy.regex_parser.parse
    monkeypatch.setattr(evalpy.regex_parser, "parse", lambda *a, **k: parses.append(1) or parse(*a, **k))
    written = "^[{{a}}-m][n-{{b}}]" + "".join(f"(?:q|r)[{{{{x{i}}}}}-9]" for i in range(10)) + "[a-{{z}}-\\d]$"
    (tmp_path / "checks.json").write_text(json.dumps([{"type": "regex", "value": written}]))
    (tmp_path / "s.jsonl").write_text("".join(
        json.dumps({"id": str(k), "input": "x", "difficulty": "easy", "note": "n",
                    "vars": {"a": "a", "b": "z", "z": "z", **{f"x{i}": str((k + i) % 10) for i in range(10)}}}) + "\n"
        for k in range(10)))
    cases = evalpy.load_split(str(tmp_path / "s.jsonl"))[0]
    assert cases[3]["checks"][0]["value"] == ("^[a-m][n-z]" + "".join(f"(?:q|r)[{(3 + i) % 10}-9]" for i in range(10))
                                              + "[a-z-\\d]$")
    assert len(parses) < 80, len(parses)
    (tmp_path / "s.jsonl").write_text(json.dumps({"id": "0", "input": "x", "difficulty": "easy", "note": "n",
                                                  "vars": {"a": "a", "b": "z", "z": "ab",
                                                           **{f"x{i}": "0" for i in range(10)}}}) + "\n")
    with pytest.raises(evalpy.EvalError) as e:   # (a case whose value breaks the range: its own line, re's words)
        evalpy.load_split(str(tmp_path / "s.jsonl"))
    assert str(e.value).startswith(f"{tmp_path}/s.jsonl:1: check 'regex ^[{{{{a}}}}-m]") and "bad character range b-\\d" in str(
        e.value) and "checks.json:1" not in str(e.value), str(e.value)


def test_a_pattern_of_checks_json_no_value_mends_is_refused_at_its_line(tmp_path):
    """129th round: checks.json's [\\w-{{a}}], [{{a}}-\\d], [{{a}}--], [{{a}}&&] and (?<=q|{{a}}{{b}}) loaded, then were
    refused on every case's line, never naming checks.json: the pattern emptied of its placeholders ([\\w-], [-\\d],
    [--], [&&]) was taken for a fill that mends it, where an empty value is refused itself, and a look-behind holding
    placeholders was never weighed (each is one character at least: q|ab has no one width). Refused once, at the
    file's line, as [x{{a}}--] was; one some values mend ([a-{{x}}][{{y}}-9], (?<=abc|{{x}}{{y}})z) is still each case's."""
    (tmp_path / "s.jsonl").write_text("".join(json.dumps({"id": i, "input": "x", "difficulty": "easy", "note": "n",
                                                          "vars": {"a": a, "b": b}}) + "\n" for i, a, b in (("1", "z", "y"),
                                                                                                          ("2", "b", "x"))))
    for written in ("[\\w-{{a}}]", "[{{a}}-\\d]", "[{{a}}--]", "[{{a}}&&]", "(?<=q|{{a}}{{b}})", "[x{{a}}--]"):
        (tmp_path / "checks.json").write_text(json.dumps([{"type": "regex", "value": written}]))
        with pytest.raises(evalpy.EvalError) as e:
            evalpy.load_split(str(tmp_path / "s.jsonl"))
        assert str(e.value).startswith(f"{tmp_path}/checks.json:1: check 1: ") and "s.jsonl" not in str(e.value), (
            written, str(e.value))
    for written in ("[a-{{a}}][{{b}}-9]", "(?<=abc|{{a}}{{b}})z", "(?<=ab|{{a}})z"):
        (tmp_path / "checks.json").write_text(json.dumps([{"type": "regex", "value": written}]))
        with pytest.raises(evalpy.EvalError) as e:
            evalpy.load_split(str(tmp_path / "s.jsonl"))
        assert "checks.json:1" not in str(e.value) and "s.jsonl:1" in str(e.value), (written, str(e.value))



def test_a_look_behind_of_checks_json_varying_whatever_its_values_is_refused_at_its_line(tmp_path):
    """130th round: checks.json's (?<={{label}}:\\s*)\\d+, (?<={{label}}: ?)\\d+, (?<=Total: |Total {{label}}: )\\d+ (re's
    parse takes "Total" out of both branches, leaving a branch inside), (?<!bc|x?\\b{{label}}) and (?<=[{{label}}]+)x
    loaded, then were refused on every case's line: a branch holding a placeholder was weighed by its least width alone,
    never as varying by itself, and a branch inside one never. No value mends them: refused once, at the file's line, as
    (?<=Total:\\s*)\\d+ is, saying what to do; one some values mend is still each case's."""
    (tmp_path / "s.jsonl").write_text("".join(json.dumps({"id": i, "input": "x", "difficulty": "easy", "note": "n",
                                                          "vars": {"label": f"Total{i}"}}) + "\n" for i in "12"))
    for written in ("(?<={{label}}:\\s*)\\d+", "(?<={{label}}: ?)\\d+", "(?<=Total: |Total {{label}}: )\\d+",
                    "(?<!bc|x?\\b{{label}})", "(?<=[{{label}}]+)x", "(?<=Total:\\s*)\\d+"):
        (tmp_path / "checks.json").write_text(json.dumps([{"type": "regex", "value": written}]))
        with pytest.raises(evalpy.EvalError) as e:
            evalpy.load_split(str(tmp_path / "s.jsonl"))
        assert str(e.value) == (f"{tmp_path}/checks.json:1: check 1: bad regular expression: look-behind requires "
                                f"fixed-width pattern{evalpy.LOOK_BEHIND_CURE}"), (written, str(e.value))
    for written in ("(?<=Total: |Total {{label}})\\d+", "(?<=Total: |{{label}}: )\\d+"):   # (a width of 6 mends them)
        (tmp_path / "checks.json").write_text(json.dumps([{"type": "regex", "value": written}]))
        with pytest.raises(evalpy.EvalError) as e:
            evalpy.load_split(str(tmp_path / "s.jsonl"))
        assert "checks.json:1" not in str(e.value) and "s.jsonl:1" in str(e.value), (written, str(e.value))


def test_a_look_behind_of_checks_json_with_a_group_of_placeholders_is_judged_per_case(tmp_path):
    """130th round: checks.json's (?<=Total: |(?:{{a}}|{{b}}) )\\d+ of cases whose a, b are Amount, Charge and Refund,
    Credit was refused at the file's line ("look-behind requires fixed-width pattern"), though each case's fill
    compiles: with each placeholder one character, (?:a|b) was parsed as a class, [ab], where no placeholder was
    looked for, and the branch was taken for one of width 2 beside 7. A look-behind is weighed on the parse that
    tells a placeholder's text from a class; so are (?i)(?<=order #|(?:{{a}}|{{b}}) #)\\d+ and (?<=(?:{{a}}|{{b}})|xyz)\\d."""
    def lines(*pairs):
        return "".join(json.dumps({"id": str(n), "input": "x", "difficulty": "easy", "note": "n",
                                   "vars": {"a": a, "b": b}}) + "\n" for n, (a, b) in enumerate(pairs))
    for written, pairs, answer, passes in (
            ("(?<=Total: |(?:{{a}}|{{b}}) )\\d+", (("Amount", "Charge"), ("Refund", "Credit")), "Charge 12", [True, False]),
            ("(?i)(?<=order #|(?:{{a}}|{{b}}) #)\\d+", (("Quote", "Claim"), ("Draft", "Bills")), "draft #7", [False, True]),
            ("(?<=(?:{{a}}|{{b}})|xyz)\\d", (("abc", "def"), ("ghi", "jkl")), "xyz1", [True, True]),
            ("(?<=(?:{{a}}|{{b}})|xyz)\\d", (("abc", "def"), ("ghi", "jkl")), "def1", [True, False])):
        (tmp_path / "checks.json").write_text(json.dumps([{"type": "regex", "value": written}]))
        (tmp_path / "s.jsonl").write_text(lines(*pairs))
        cases = evalpy.load_split(str(tmp_path / "s.jsonl"))[0]
        assert [evalpy.CHECK_TYPES["regex"].evaluate(case["checks"][0], result(answer), graded())
                for case in cases] == passes, (written, answer)
    (tmp_path / "checks.json").write_text(json.dumps([{"type": "regex", "value": "(?<=Total: |(?:{{a}}|{{b}}) )\\d+"}]))
    (tmp_path / "s.jsonl").write_text(lines(("Amount", "Charge"), ("Refund", "Fee")))
    with pytest.raises(evalpy.EvalError) as e:   # (a case whose values give two widths: its own line)
        evalpy.load_split(str(tmp_path / "s.jsonl"))
    assert str(e.value).startswith(f"{tmp_path}/s.jsonl:2: ") and "checks.json:1" not in str(e.value), str(e.value)


def test_a_look_behind_of_checks_json_referring_back_to_a_placeholder_is_judged_per_case(tmp_path):
    """130th round: checks.json's ({{a}})(?<=\\1|abc)x and ({{a}})(?<=-\\1|abcd)x of a = abc were refused at the file's
    line ("look-behind requires fixed-width pattern"), though (abc)(?<=\\1|abc)x compiles and scores: \\1 was weighed
    by re's width of its group as parsed, the placeholder's two marks (2, fixed), where it holds the value (a character
    or more). It is weighed as its group is: each case is judged by its own fill; a group no value gives one width
    ({{a}}+) is still refused at the file's line, as is (?<=(a|bc)){{a}}, whose group's weighing was a traceback."""
    def lines(*values):
        return "".join(json.dumps({"id": str(n), "input": "x", "difficulty": "easy", "note": "n",
                                   "vars": {"a": a}}) + "\n" for n, a in enumerate(values))
    for written, answer in (("({{a}})(?<=\\1|abc)x", "abcx"), ("({{a}})(?<=-\\1|abcd)x", "abc-abcx")):
        (tmp_path / "checks.json").write_text(json.dumps([{"type": "regex", "value": written}]))
        (tmp_path / "s.jsonl").write_text(lines("abc", "abc"))
        cases = evalpy.load_split(str(tmp_path / "s.jsonl"))[0]
        assert [evalpy.CHECK_TYPES["regex"].evaluate(case["checks"][0], result(answer), graded())
                for case in cases] == [True, True], written
        (tmp_path / "s.jsonl").write_text(lines("abc", "ab"))
        with pytest.raises(evalpy.EvalError) as e:   # (a value of another width: its case's line)
            evalpy.load_split(str(tmp_path / "s.jsonl"))
        assert str(e.value).startswith(f"{tmp_path}/s.jsonl:2: ") and "checks.json:1" not in str(e.value), str(e.value)
    (tmp_path / "s.jsonl").write_text(lines("abc", "abc"))
    for written in ("({{a}}+)(?<=\\1|abc)x", "(?<=(a|bc)){{a}}"):   # (the second's group was a traceback)
        (tmp_path / "checks.json").write_text(json.dumps([{"type": "regex", "value": written}]))
        with pytest.raises(evalpy.EvalError) as e:
            evalpy.load_split(str(tmp_path / "s.jsonl"))
        assert str(e.value) == (f"{tmp_path}/checks.json:1: check 1: bad regular expression: look-behind requires "
                                f"fixed-width pattern{evalpy.LOOK_BEHIND_CURE}"), (written, str(e.value))


def test_a_look_behind_of_checks_json_whose_branches_share_a_placeholder_is_weighed_by_its_one_value(tmp_path):
    """130th round: checks.json's (?<={{label}}: |{{label}}:)\\d+, whose branches differ by one character whatever
    label holds, (?<={{w}}{2}|Total)\\d+ (an even width beside 5), (?<={{a}}|{{a}}b)x, (?<={{a}}{{a}}|abc)x and
    (?<=(?:{{a}}\\.){2}|abcde)x were refused on every case's line: each occurrence of a placeholder was weighed as a
    width of its own, and a count as making it any width. One placeholder holds one value, a count a multiple of its
    width: no value mends these, refused once at the file's line; (?<={{a}}{2}|abcd)x and (?<={{a}}|{{b}}b)x, which
    some values mend, are still each case's."""
    (tmp_path / "s.jsonl").write_text("".join(json.dumps({"id": i, "input": "x", "difficulty": "easy", "note": "n",
                                                          "vars": v}) + "\n" for i, v in (
        ("1", {"label": "Total", "w": "ab", "a": "ab", "b": "a"}), ("2", {"label": "Sum", "w": "abc", "a": "abc", "b": "x"}))))
    for written in ("(?<={{label}}: |{{label}}:)\\d+", "(?<={{w}}{2}|Total)\\d+", "(?<={{a}}|{{a}}b)x",
                    "(?<={{a}}{{a}}|abc)x", "(?<=(?:{{a}}\\.){2}|abcde)x", "(?<!(?:{{a}}|b){{a}}|{{a}}{{a}}c)x"):
        (tmp_path / "checks.json").write_text(json.dumps([{"type": "regex", "value": written}]))
        with pytest.raises(evalpy.EvalError) as e:
            evalpy.load_split(str(tmp_path / "s.jsonl"))
        assert str(e.value) == (f"{tmp_path}/checks.json:1: check 1: bad regular expression: look-behind requires "
                                f"fixed-width pattern{evalpy.LOOK_BEHIND_CURE}"), (written, str(e.value))
    for written in ("(?<={{a}}{2}|abcd)x", "(?<={{a}}|{{b}}b)x"):   # (a = ab mends the first, b = a the second)
        (tmp_path / "checks.json").write_text(json.dumps([{"type": "regex", "value": written}]))
        with pytest.raises(evalpy.EvalError) as e:
            evalpy.load_split(str(tmp_path / "s.jsonl"))
        assert str(e.value).startswith(f"{tmp_path}/s.jsonl:2: ") and "s.jsonl:1" not in str(e.value), (
            written, str(e.value))


def test_a_look_behind_of_checks_json_referring_back_down_a_chain_weighs_each_group_once(tmp_path, monkeypatch):
    """130th round: checks.json's ({{a}})(\\1\\1)(\\2\\2)...(\\20\\20)(?<=\\21)x took 53 s to load: each \\N was
    weighed by walking its group's content again, each of which holds two more, twice as many walks a group (18 groups,
    19 s; 0.004 s before backreferences were weighed by their group). Each group is weighed once, whatever refers to it:
    counted here by the weighings made, not timed."""
    (tmp_path / "s.jsonl").write_text(json.dumps({"id": "1", "input": "x", "difficulty": "easy", "note": "n",
                                                  "vars": {"a": "ab"}}) + "\n")
    weighings = []
    weigh = evalpy.behind_width
    monkeypatch.setattr(evalpy, "behind_width", lambda *args: weighings.append(1) or weigh(*args))
    written = "({{a}})" + "".join(f"(\\{n}\\{n})" for n in range(1, 15)) + "(?<=\\15)x"
    (tmp_path / "checks.json").write_text(json.dumps([{"type": "regex", "value": written}]))
    evalpy.placeholder_places.cache_clear()
    assert len(evalpy.load_split(str(tmp_path / "s.jsonl"))[0]) == 1   # ((ab)(\1\1)...(?<=\15)x compiles)
    assert 0 < len(weighings) < 200, len(weighings)   # (each group's content once; 32,000 weighings before)


def test_a_look_behind_of_many_branches_is_weighed_without_comparing_every_pair(tmp_path, monkeypatch):
    """130th round: a look-behind's branches were compared two by two (179,700 comparisons for 600 branches), even where
    each is fixed text: checks.json's (?<=aadfb|aahqw|...2,000 words)\\s{{name}} took 2.9 s to load (0.24 s before),
    (?<={{p0}}|...|{{p999}})x 2.5 s (0.07 s). Branches of one weight are one kind, those of like counts that differ
    only by fixed characters refused at once; many kinds are each compared with the one of fewest placeholders.
    Counted here by the comparisons made, not timed; what no values make alike is still refused at the file's line."""
    (tmp_path / "s.jsonl").write_text(json.dumps({"id": "1", "input": "x", "difficulty": "easy", "note": "n",
                                                  "vars": {"name": "Ann", **{f"p{n}": "ab" for n in range(600)}}}) + "\n")
    compared = []
    compare = evalpy.unlike_widths
    monkeypatch.setattr(evalpy, "unlike_widths", lambda *args: compared.append(1) or compare(*args))
    words = [f"w{n:04}" for n in range(600)]
    for written in ("(?<=" + "|".join(words) + ")\\s{{name}}", "(?<=" + "|".join(f"{{{{p{n}}}}}" for n in range(600)) + ")x"):
        compared.clear()
        (tmp_path / "checks.json").write_text(json.dumps([{"type": "regex", "value": written}]))
        assert len(evalpy.load_split(str(tmp_path / "s.jsonl"))[0]) == 1
        assert len(compared) < 2 * 600, (written[:20], len(compared))   # (179,700 before)
    for written in ("(?<=" + "|".join(words) + "|w1000: )\\s{{name}}",
                    "(?<=" + "|".join(f"{{{{p{n}}}}}" for n in range(600)) + "|{{p0}}x)x"):
        (tmp_path / "checks.json").write_text(json.dumps([{"type": "regex", "value": written}]))
        with pytest.raises(evalpy.EvalError) as e:
            evalpy.load_split(str(tmp_path / "s.jsonl"))
        assert str(e.value) == (f"{tmp_path}/checks.json:1: check 1: bad regular expression: look-behind requires "
                                f"fixed-width pattern{evalpy.LOOK_BEHIND_CURE}"), (written[:20], str(e.value))


def test_a_look_behind_of_checks_json_referring_to_a_deeply_nested_group_is_judged_per_case(tmp_path):
    """130th round: checks.json's 350 nested groups around {{a}} then (?<=\\1|abc)x, which (abc) so nested fills and
    compiles, was refused at the file's line with the look-behind's cure (give each branch one width, which it has):
    weighing the look-behind ran past Python's stack, and the RecursionError left where the placeholders stand unknown,
    as if no value gave it one width. What is nested past weighing is left to each case's fill, whose compile says."""
    def lines(*values):
        return "".join(json.dumps({"id": str(n), "input": "x", "difficulty": "easy", "note": "n",
                                   "vars": {"a": a}}) + "\n" for n, a in enumerate(values, 1))
    (tmp_path / "checks.json").write_text(json.dumps([{"type": "regex", "value": "(" * 350 + "{{a}}" + ")" * 350
                                                       + "(?<=\\1|abc)x"}]))
    (tmp_path / "s.jsonl").write_text(lines("abc", "xyz"))
    assert len(evalpy.load_split(str(tmp_path / "s.jsonl"))[0]) == 2
    (tmp_path / "s.jsonl").write_text(lines("abc", "ab"))
    with pytest.raises(evalpy.EvalError) as e:   # (a value of another width: its case's line)
        evalpy.load_split(str(tmp_path / "s.jsonl"))
    assert str(e.value).startswith(f"{tmp_path}/s.jsonl:2: ") and "checks.json:1" not in str(e.value), str(e.value)
    assert "look-behind requires fixed-width pattern" in str(e.value), str(e.value)


def test_a_look_behind_cure_counts_a_value_as_it_is_filled(tmp_path):
    """130th round: (?<={{a}}|ab)\\d of a = "e\\u0301" (two characters written, one once in NFC) and (?<={{a}}|x)\\d of
    a = "\\u0958" (one written, two in NFC) were refused, each case's line saying "a var's value counted by its
    characters": the writer counts 2 and 1, and the widths look alike. It says the value is counted in NFC, as filled."""
    for value, written in (("e\u0301", "(?<={{a}}|ab)\\d"), ("\u0958", "(?<={{a}}|x)\\d")):
        (tmp_path / "s.jsonl").write_text(json.dumps({"id": "1", "input": "x", "difficulty": "easy", "note": "n",
                                                      "vars": {"a": value}}) + "\n")
        (tmp_path / "checks.json").write_text(json.dumps([{"type": "regex", "value": written}]))
        with pytest.raises(evalpy.EvalError) as e:
            evalpy.load_split(str(tmp_path / "s.jsonl"))
        assert str(e.value).startswith(f"{tmp_path}/s.jsonl:1: ") and "counted by its characters in NFC" in str(
            e.value), str(e.value)


def test_a_pattern_of_checks_json_found_in_every_answer_whatever_its_values_is_refused_at_its_line(tmp_path):
    """130th round: checks.json's (?:{{title}}\\. )?, {{title}}?, {{title}}| and (?:{{title}})* were refused on every
    case's line ("4 lines: ... its pattern is found in every answer, even an empty one"), where a? is refused once at
    the file's: a value is never empty, so the empty match that finds them in any answer passes by it whatever it is.
    Refused once, at the file's line; \\b{{title}}?\\b, not found in an empty answer, still loads."""
    (tmp_path / "s.jsonl").write_text("".join(json.dumps({"id": i, "input": "x", "difficulty": "easy", "note": "n",
                                                          "vars": {"title": "Dr"}}) + "\n" for i in "1234"))
    for written in ("(?:{{title}}\\. )?", "{{title}}?", "{{title}}|", "(?:{{title}})*"):
        (tmp_path / "checks.json").write_text(json.dumps([{"type": "regex", "value": written}]))
        with pytest.raises(evalpy.EvalError) as e:
            evalpy.load_split(str(tmp_path / "s.jsonl"))
        assert str(e.value) == (f"{tmp_path}/checks.json:1: check 1: {'regex ' + written!r}: {evalpy.ALWAYS_FOUND} "
                                "(|, ^, a*), so the check can never fail"), (written, str(e.value))
    (tmp_path / "checks.json").write_text(json.dumps([{"type": "regex", "value": "\\b{{title}}?\\b"}]))
    assert len(evalpy.load_split(str(tmp_path / "s.jsonl"))[0]) == 4

def test_an_optional_part_that_never_gives_back_then_more_is_found_in_every_answer(tmp_path):
    """130th round: checks.json's {{a}}?+$ of a = Dr loaded and passed every answer (100%), where {{a}}?$ is refused, as
    did a?+$ with no word: what never gives back what it took (?+, *+, {0,n}+, (?>...)) followed by anything was read as
    never nothing, where at the end of any text it has nothing to take, and is nothing there. It is read as its plain
    form, at the text's end: refused at checks.json's line, and at a case's own; x*+^ and (?>a*)^ still can fail."""
    for found in ("a*+x?", "a?+b?", "(?>a?)b?", "(?>a?)$", "a?+$", "a{0,3}+$", "(?:a?+)x?$"):
        assert evalpy.matches_any_answer(found) is True, found
    for fails in ("x*+^", "(?>a*)^", "a?+\\A", "a?+x"):
        assert evalpy.matches_any_answer(fails) is False, fails
    (tmp_path / "s.jsonl").write_text("".join(json.dumps({"id": i, "input": "x", "difficulty": "easy", "note": "n",
                                                          "vars": {"a": "Dr"}}) + "\n" for i in "12"))
    (tmp_path / "checks.json").write_text(json.dumps([{"type": "regex", "value": "{{a}}?+$"}]))
    with pytest.raises(evalpy.EvalError) as e:
        evalpy.load_split(str(tmp_path / "s.jsonl"))
    assert str(e.value) == (f"{tmp_path}/checks.json:1: check 1: 'regex {{{{a}}}}?+$': {evalpy.ALWAYS_FOUND} "
                            "(|, ^, a*), so the check can never fail"), str(e.value)
    (tmp_path / "checks.json").unlink()
    (tmp_path / "s.jsonl").write_text(json.dumps({"id": "1", "input": "x", "difficulty": "easy", "note": "n", "vars": {
        "a": "Dr"}, "checks": [{"name": "n", "type": "regex", "value": "(?>{{a}}?)$"}]}) + "\n")
    with pytest.raises(evalpy.EvalError) as e:
        evalpy.load_split(str(tmp_path / "s.jsonl"))
    assert str(e.value).startswith(f"{tmp_path}/s.jsonl:1: ") and evalpy.ALWAYS_FOUND in str(e.value), str(e.value)


def test_an_optional_part_that_never_gives_back_before_what_may_be_nothing_is_found_in_every_answer(tmp_path):
    """130th round: checks.json's ^(?:{{a}}: )?+\\d* of a = Total loaded and passed every answer (100%), where
    ^(?:{{a}}: )?\\d* is refused, as did ^\\s*+x?, ^(?>\\s*)x? and (?>^|a)b?: what never gives back (?+, *+, (?>...))
    with more after it was read as nothing at the text's end alone, which after ^ is at both ends. Where what follows
    it can be nothing anywhere, giving nothing back fails nothing: it is read as its plain form, refused at checks.json's
    line; x*+^, (?>a*)^, a?+\\A, a?+(?=b) and a*+\\b still can fail, as can ^(?>(a*))\\1 (the group is read again)."""
    for found in ("^\\s*+x?", "^(?>\\s*)x?", "\\A(?>\\s*)[b]?", "^a*+\\d?", "(?i)\\Ab*+.*", "(?>^|a)b?",
                  "^(?:(?:a: )?+)\\d*", "^a?+b?+c?+"):
        assert evalpy.matches_any_answer(found) is True, found
    for fails in ("x*+^", "(?>a*)^", "a?+\\A", "a?+(?=b)", "a*+\\b", "^(?>(a*))\\1", "^((?>a*))\\1"):
        assert evalpy.matches_any_answer(fails) is False, fails
    (tmp_path / "s.jsonl").write_text("".join(json.dumps({"id": i, "input": "x", "difficulty": "easy", "note": "n",
                                                          "vars": {"a": "Total"}}) + "\n" for i in "12"))
    (tmp_path / "checks.json").write_text(json.dumps([{"type": "regex", "value": "^(?:{{a}}: )?+\\d*"}]))
    with pytest.raises(evalpy.EvalError) as e:
        evalpy.load_split(str(tmp_path / "s.jsonl"))
    assert str(e.value) == (f"{tmp_path}/checks.json:1: check 1: 'regex ^(?:{{{{a}}}}: )?+\\\\d*': {evalpy.ALWAYS_FOUND} "
                            "(|, ^, a*), so the check can never fail"), str(e.value)


def test_what_never_gives_back_but_takes_no_character_is_found_as_its_plain_form(tmp_path):
    """131st round: checks.json's (?!{{a}})?+^ of a = Total loaded and passed every answer, where (?!{{a}})?^ is
    refused, as did (?=b)?+^, (?!x)*+\\A, (?<=x){0,2}+\\A.? and (?>(?=a)|\\b)?+^ (26 of 4,000 random possessive
    patterns): what never gives back (?+, *+, {0,n}+, (?>...)) with more after it was read as nothing at the text's
    end alone, but a part that can take no character (a lookaround, an anchor) has none to keep from what follows: it
    is read as its plain form, refused at checks.json's line. (?=a)++^ and x*+^ still can fail, as can (?:(?=(a)))?+\\1."""
    for found in ("(?!b)?+^", "(?=b)?+^", "(?!x)*+\\A", "(?<=x){0,2}+\\A.?", "(?>(?=a)|\\b)?+^", "(?:(?=ab)){0,2}+^",
                  "(?<!a)*+\\A"):
        assert evalpy.matches_any_answer(found) is True, found
    for fails in ("(?=a)++^", "x*+^", "(?>a|(?=b))^", "(?:(?=(a)))?+\\1", "(?!b)?+^x"):
        assert evalpy.matches_any_answer(fails) is False, fails
    (tmp_path / "s.jsonl").write_text("".join(json.dumps({"id": i, "input": "x", "difficulty": "easy", "note": "n",
                                                          "vars": {"a": "Total"}}) + "\n" for i in "12"))
    (tmp_path / "checks.json").write_text(json.dumps([{"type": "regex", "value": "(?!{{a}})?+^"}]))
    with pytest.raises(evalpy.EvalError) as e:
        evalpy.load_split(str(tmp_path / "s.jsonl"))
    assert str(e.value) == (f"{tmp_path}/checks.json:1: check 1: 'regex (?!{{{{a}}}})?+^': {evalpy.ALWAYS_FOUND} "
                            "(|, ^, a*), so the check can never fail"), str(e.value)


def test_a_repeated_group_of_any_text_or_a_branch_of_every_character_is_found_in_every_answer(tmp_path):
    """139th round: not_regex ^(.|\\n)*$ loaded, as did (?s)^(.*)?$, (?s)^(?:.+)?$, (?m)^(?:.*)+$ and
    \\A(?:[^\\n]|\\n)*\\Z: each matches every text, so the check could never pass. A repeat of a group that takes
    any text, and a branch of single characters that together take every one, are read; their near misses, which
    can fail (each on one of the texts below), are left alone."""
    texts = ["", "\n", "a\nb", "\n\n", "ab\n", "\r\n", "\u2028", 500 * "x"]
    for found in ("^(.|\\n)*$", "(?s)^(.*)?$", "(?s)^(?:.+)?$", "(?m)^(?:.*)+$", "\\A(?:[^\\n]|\\n)*\\Z", "^(?:.|\\s)*$",
                  "\\A(?:(?:.|[\\n])+)?\\Z", "(?s)^(?:.*?)+$"):
        assert all(re.search(found, t) for t in texts) and evalpy.matches_any_answer(found) is True, found
    for fails in ("^(.|\\r)*$", "^(?:.*)+$", "(?s)^(?:.{2,})?$", "(?s)^(?:.+){2,}$", "(?s)^(?:.*?)++$", "^(?:[^x]|\\n)*$",
                  "(?s)^(?:.+)$", "^(?:..|\\n)*$", "(?s)^(?:.+){0,0}$", "^(?:.|[^\\n])*$", "\\A(?:(?-s:.)|\\r)*\\Z"):
        assert not all(re.search(fails, t) for t in texts) and evalpy.matches_any_answer(fails) is False, fails
    (tmp_path / "s.jsonl").write_text(json.dumps({"id": "a", "input": "x", "difficulty": "easy", "note": "n",
                                                  "checks": [{"type": "not_regex", "value": "^(.|\\n)*$"}]}) + "\n")
    with pytest.raises(evalpy.EvalError) as e:
        evalpy.load_split(str(tmp_path / "s.jsonl"))
    assert evalpy.ALWAYS_FOUND in str(e.value), str(e.value)


def test_what_never_gives_back_before_a_lookbehind_it_cannot_fail_is_found_in_every_answer(tmp_path):
    """131st round: checks.json's [ab]*+(?<!x[ab]) loaded and passed every answer, as did {{a}}*+(?<!x{{a}}) of a = b,
    .?+(?<![ab]xb), a?+(?<!x)[ab]*+ and (?:ab)?+(?<!xab)++: what never gives back, followed by a lookbehind that needs a
    character, was read as nothing at the text's end alone. At the text's start what it takes is all there is before
    the lookbehind, which holds where it needs more characters than that can be, or one that is never taken. Left
    to fail: x*+(?<!x), a?+(?<!a), \\d*+(?<!\\d) (the lookbehind can see what it took), (?i)a*+(?<!A)
    (A is a), and (?>(a*))(?<!b)\\1."""
    for found in ("[ab]*+(?<!x[ab])", ".?+(?<![ab]xb)", "a?+(?<!x)[ab]*+", "(?:ab)?+(?<!xab)++", "(?>a|b)?+(?<!x)\\d?",
                  "b*+(?<!xb)", "(?>[a-c]*)(?<!d)"):
        assert evalpy.matches_any_answer(found) is True, found
    for fails in ("x*+(?<!x)", "a?+(?<!a)", "\\d*+(?<!\\d)", "(?i)a*+(?<!A)", "(?i:a*+)(?<!A)",
                  "a*+(?<!x)b", "^(?>(a*))(?<!b)\\1", "a*+(?<=x)", "x?+(?<!x)"):
        assert evalpy.matches_any_answer(fails) is False, fails
    (tmp_path / "s.jsonl").write_text("".join(json.dumps({"id": i, "input": "x", "difficulty": "easy", "note": "n",
                                                          "vars": {"a": a}}) + "\n" for i, a in (("1", "b"), ("2", "x"))))
    (tmp_path / "checks.json").write_text(json.dumps([{"type": "regex", "value": "[ab]*+(?<!x[ab])"}]))
    with pytest.raises(evalpy.EvalError) as e:
        evalpy.load_split(str(tmp_path / "s.jsonl"))
    assert str(e.value) == (f"{tmp_path}/checks.json:1: check 1: 'regex [ab]*+(?<!x[ab])': {evalpy.ALWAYS_FOUND} "
                            "(|, ^, a*), so the check can never fail"), str(e.value)
    # (with placeholders, by each case's values: b*+(?<!xb) is found in every answer, x*+(?<!xx) fails on "xx", so
    # checks.json's pattern is no fault of its own, blamed on the line whose values make it one)
    (tmp_path / "checks.json").write_text(json.dumps([{"type": "regex", "value": "{{a}}*+(?<!x{{a}})"}]))
    with pytest.raises(evalpy.EvalError) as e:
        evalpy.load_split(str(tmp_path / "s.jsonl"))
    assert str(e.value) == (f"{tmp_path}/s.jsonl:1: check 'regex {{{{a}}}}*+(?<!x{{{{a}}}})' (from checks.json, which "
                            f"gives it to every case): {evalpy.ALWAYS_FOUND} (|, ^, a*), so the check can never fail")
    # (x*+(?<!b), the pattern with x for its placeholder, is found in every answer, but b*+(?<!b) fails on "b": never
    # blamed on checks.json's line, only on the case whose value makes it so)
    (tmp_path / "checks.json").write_text(json.dumps([{"type": "regex", "value": "{{a}}*+(?<!b)"}]))
    with pytest.raises(evalpy.EvalError) as e:
        evalpy.load_split(str(tmp_path / "s.jsonl"))
    assert str(e.value) == (f"{tmp_path}/s.jsonl:2: check 'regex {{{{a}}}}*+(?<!b)' (from checks.json, which gives it "
                            f"to every case): {evalpy.ALWAYS_FOUND} (|, ^, a*), so the check can never fail")


@pytest.mark.parametrize("pattern, text", [
    ("(?>$)(?<!\\.)", "Hola."), ("(?>$)(?<![.!?])", "Hola!"), ("(?m)(?>$)(?<!\\.)", "a."), ("(?>(?!.))(?<!\\.)", "a."),
    ("(?>$|a)(?<!\\.)", "."), ("(?:(?=$))++(?<![.!?])", "a."), ("(?>\\Z)(?<!\\n)", "a\n"), ("(?:$)+(?<!\\.)", "a."),
    ("(?=\\Z)+(?<!x)", "x"), ("(?!a)+(?<!a)", "a"), ("(?>b*\\Z)(?<!a)", "a"), ("(?>[ab]*\\Z)(?<!x[ab])", "xa"),
    ("((?=\\Z){1,2}+)+(?<!a)", "a")])
def test_a_part_found_only_at_the_end_before_a_lookbehind_is_no_pattern_found_everywhere(pattern, text, tmp_path):
    """132nd round: (?>$)(?<!\\.), "no final period", was refused at load as found in every answer, though it fails
    on "Hola.", as were (?>\\Z)(?<!\\n), (?!a)+(?<!a), (?>b*\\Z)(?<!a) and checks.json's (?>$)(?<!{{end}}) (since
    56761b4): a part that never gives back, or any repeat, before a lookbehind needing more characters than it can
    take was read as found at the text's start, though it may match there only at the end ($, \\Z, (?!.)) or where a
    lookahead holds. It is read so only where the part itself can match at the start."""
    assert re.search(pattern, text) is None
    assert evalpy.matches_any_answer(pattern) is False, pattern
    (tmp_path / "s.jsonl").write_text(json.dumps({"id": "1", "input": "x", "difficulty": "easy", "note": "n",
                                                  "checks": [{"type": "regex", "value": pattern}]}) + "\n")
    evalpy.load_split(str(tmp_path / "s.jsonl"))


def test_a_placeholder_lookbehind_after_the_end_loads_from_checks_json(tmp_path):
    """132nd round: checks.json's (?>$)(?<!{{end}}) of end = . was refused on each case's line as found in every
    answer, though (?>$)(?<!\\.) fails on "Hola." (see the test above)."""
    (tmp_path / "s.jsonl").write_text("".join(json.dumps({"id": i, "input": "x", "difficulty": "easy", "note": "n",
                                                          "vars": {"end": e}}) + "\n" for i, e in (("1", "."), ("2", "!"))))
    (tmp_path / "checks.json").write_text(json.dumps([{"type": "regex", "value": "(?>$)(?<!{{end}})"}]))
    cases, _, _ = evalpy.load_split(str(tmp_path / "s.jsonl"))
    assert [c["id"] for c in cases] == ["1", "2"]


def test_a_possessive_count_over_a_part_empty_at_the_start_alone_can_fail(tmp_path):
    """132nd round: (?:a|\\A){2}+ was refused at load as found in every answer, though it fails on "a", as does
    (\\w++|\\A){2}+: a possessive repeat never gives back a pass that took something, so at the start of "a" its
    first pass takes the a and the second finds neither a nor the start; an exact or least count of 2 or more over a
    part that can be nothing at the start alone may not be reached. One that can be nothing anywhere, or at the end,
    stops at its empty pass there and is still found in every answer ((?:a?){2}+, (?:a|$){2}+), as is one count."""
    for fails, text in (("(?:a|\\A){2}+", "a"), ("(\\w++|\\A){2}+", "a"), ("(?:a|\\A){2,}+", "a"),
                        ("(?:a|\\A){2,3}+", "a"), ("(?:b|(?:a|\\A){2}+)", "a")):
        assert re.search(fails, text) is None, fails
        assert evalpy.matches_any_answer(fails) is False, fails
    for found in ("(?:a?){2}+", "(?:){2}+", "(?:a|){3}+", "(?:a|$){2}+", "(?:a|\\A){1}+", "(?:a|\\A)++",
                  "(?:a|\\A){0,2}+", "(?:a|\\A){2}"):
        assert evalpy.matches_any_answer(found) is True, found
    (tmp_path / "s.jsonl").write_text(json.dumps({"id": "1", "input": "x", "difficulty": "easy", "note": "n",
                                                  "checks": [{"type": "regex", "value": "(?:a|\\A){2}+"}]}) + "\n")
    evalpy.load_split(str(tmp_path / "s.jsonl"))


TEXTS = ("", "\n", "\n\n", "a\nb", "\n\na", "refund", "ab\n", "x")


def test_a_pattern_anchored_at_both_ends_around_any_text_is_found_in_every_answer(tmp_path):
    """139th round: (?s)^.*$, ^[\\s\\S]*$, (?m)^.*$, \\A[\\s\\S]*\\Z, (?s)^.*?$, (?s).+|^$ loaded as regex checks
    that passed every answer, and not_regex (?s)^.*(refund)?.*$ as one that failed every answer, where (?s).* is
    refused: anchored at both ends, such a pattern was read as a length cap that can fail. One whose middle takes any
    text under its flags is refused; one that can fail still loads: ^.*$ without (?s) or (?m) (on "a\\nb"), ^.+$ and
    (?s)^.+$ (on an empty answer), .+|^$ (on "\\n\\n"), ^.*x$, ^.{0,50}$."""
    found = ("(?s)^.*$", "^[\\s\\S]*$", "(?m)^.*$", "\\A[\\s\\S]*\\Z", "(?s)^.*?$", "(?s).+|^$", "(?s)^.*(refund)?.*$",
             "(?m)\\A.*$", "(?m)^.*\\Z", "^(?s:.*)$", "(?s)^.*+$", "^[\\w\\W]+$|^$")
    fails = ("^.+$", "^.*x$", "^.{0,50}$", "(?s)^.+$", "^.*$", ".+|^$", "\\A.*\\Z", "(?m)^.+$", "(?m)\\A.*\\Z",
             "(?s)^.*x?y.*$", "(?s)^(.*)\\1$", "(?s)^(?=a).*$", "(?s)^.*(?<!x)$")
    for pattern in found:
        assert all(re.search(pattern, t) for t in TEXTS), pattern
        assert evalpy.matches_any_answer(pattern) is True, pattern
    for pattern in fails:
        assert not all(re.search(pattern, t) for t in TEXTS), pattern
        assert evalpy.matches_any_answer(pattern) is False, pattern
    (tmp_path / "s.jsonl").write_text(json.dumps({"id": "a", "input": "x", "difficulty": "easy", "note": "n", "checks": [
        {"type": "not_regex", "value": "(?s)^.*(refund)?.*$"}]}) + "\n")
    with pytest.raises(evalpy.EvalError) as e:
        evalpy.load_split(str(tmp_path / "s.jsonl"))
    assert str(e.value) == (f"{tmp_path}/s.jsonl:1: check 'not_regex (?s)^.*(refund)?.*$': {evalpy.ALWAYS_FOUND} "
                            "(|, ^, a*), so the check can never pass"), str(e.value)

def test_two_checks_with_one_name_are_refused(tmp_path):
    (tmp_path / "s.jsonl").write_text(json.dumps(
        {"id": "a", "input": "x", "difficulty": "easy", "note": "n",
         "checks": [{"type": "contains", "value": "x", "name": "n"}, {"type": "contains", "value": "y", "name": "n"}]}) + "\n")
    with pytest.raises(evalpy.EvalError, match="two checks are named 'n'"):
        evalpy.load_split(str(tmp_path / "s.jsonl"))
    # (111th round's reviews) a name a run of before filled is read as the check written so, but never one another check
    # is written as ("asks Ana" beside "asks {{who}}" of who Ana: its votes are its own), nor one two checks fill alike;
    # such a split loads, as the eval.py before loaded it (refused, a run it began could not be finished)
    checks = [{"name": "asks {{who}}"}, {"name": "asks Ana"}, {"name": "a {{x}}"}, {"name": "a {{y}}"}, {"name": "b {{who}}"}]
    assert evalpy.filled_names(checks, {"who": "Ana", "x": "{{y}}", "y": "Bob"}) == {"a Bob": "a {{y}}", "b Ana": "b {{who}}"}
    assert evalpy.filled_names([{"name": "c {{x}}"}, {"name": "c {{y}}"}], {"x": "1", "y": "1"}) == {}
    (tmp_path / "s.jsonl").write_text(json.dumps({"id": "a", "input": "x", "difficulty": "easy", "note": "n", "vars": {"who": "Ana"},
                                                  "checks": [{"type": "contains", "value": "x", "name": "asks {{who}}"},
                                                             {"type": "contains", "value": "y", "name": "asks Ana"}]}) + "\n")
    assert [c["name"] for c in evalpy.load_split(str(tmp_path / "s.jsonl"))[0][0]["checks"]] == ["asks {{who}}", "asks Ana"]


# --- a free-text set through the real command line

ORDERS = [("o1", "A-101", "Ana"), ("o2", "A-102", "Bea"), ("o3", "A-103", "Carlos"), ("o4", "A-104", "Dani")]


@pytest.fixture
def free_text(project):
    folder = project / "golden" / "orders"
    folder.mkdir()
    (folder / "checks.json").write_text(json.dumps([
        {"name": "order number", "type": "regex", "value": "\\b{{order}}\\b"},
        {"name": "no refund date", "type": "not_regex", "value": "(?i)reembolso.{0,30}\\b(lunes|viernes)\\b"},
        {"name": "short", "type": "max_latency_ms", "value": 60000, "blocking": False}]))
    with open(folder / "dev.jsonl", "w", encoding="utf-8") as f:
        for cid, order, name in ORDERS:
            f.write(json.dumps({"id": cid, "input": f"¿Dónde está mi pedido {order}?", "vars": {"order": order, "name": name},
                                "difficulty": "easy", "note": "n"}, ensure_ascii=False) + "\n")
    (project / "prompts" / "orders").mkdir()
    (project / "prompts" / "orders" / "v1.txt").write_text("Atiende a {{name}}. Cita siempre el número de pedido.\n")
    (project / "prompts" / "orders" / "v2.txt").write_text("Atiende a {{name}}.\n")
    return "golden/orders/dev.jsonl"


def support_answer(order, omit=(), refund_date=()):
    said = "Lo revisamos hoy." if order in omit else f"Hola, su pedido {order} sale hoy."
    return said + (" El reembolso llegará el lunes." if order in refund_date else "")


def support_answers(fake, omit=(), refund_date=()):
    fake.default_answer = lambda text: support_answer(text.split("pedido ")[1].rstrip("?"), omit, refund_date)


def support_run(split, omit=(), **config):
    """The free-text set answered as support_answer would, written where run writes it (newest prompt: v2)."""
    answers = {cid: support_answer(order, omit) for cid, order, _ in ORDERS}
    return write_run("runs/orders-dev-v2.json", split_run(split, answers, prompt="prompts/orders/v2.txt", **config))


def test_free_text_set_is_scored_by_its_checks_alone(free_text, cli, fake):
    support_answers(fake, omit=("A-102",), refund_date=("A-103",))
    code, out, err = cli("run", "--split", free_text, "--host", fake.url)
    assert code == 0, err
    assert "wrote runs/orders-dev-v2.json" in err          # newest prompt of prompts/orders/
    lines = out.splitlines()
    assert lines[0] == "Pass rate: 2/4 = 50%  (95% CI 15–85%)"
    assert "Baseline" not in out and "Confusion" not in out and "Invalid answers" not in out
    assert "  order number    regex           blocking      3/4 = 75%" in lines
    assert "  no refund date  not_regex       blocking      3/4 = 75%" in lines
    assert "  short           max_latency_ms  not blocking  4/4 = 100%" in lines
    assert any(l.startswith("  o2  easy        order number") for l in lines)
    assert any("Scored with 3 checks (order number, no refund date, short; checks sha" in l for l in lines)
    run = load_json("runs/orders-dev-v2.json")
    assert run["config"]["labels"] is None
    assert run["results"][0]["checks"][0]["value"] == r"\bA\-101\b"


def test_prompt_variables_fill_the_system_prompt(free_text, cli, fake):
    support_answers(fake)
    assert cli("run", "--split", free_text, "--prompt", "prompts/orders/v1.txt", "--host", fake.url)[0] == 0
    assert fake.chat_bodies[1]["messages"] == [
        {"role": "system", "content": "Atiende a Bea. Cita siempre el número de pedido.\n"},
        {"role": "user", "content": "¿Dónde está mi pedido A-102?"}]


def test_a_placeholder_without_a_value_stops_the_run_before_any_call(free_text, project, cli, fake):
    (project / "prompts" / "orders" / "v3.txt").write_text("Atiende a {{name}} ({{tier}}).\n")
    code, out, err = cli("run", "--split", free_text, "--host", fake.url)
    assert code == 2
    # every case lacks it: said once, with its lines (issue 31, item 12)
    assert "golden/orders/dev.jsonl: 4 lines have no vars.tier, which prompts/orders/v3.txt uses as {{tier}} " \
           "(lines 1-4)" in err
    assert fake.chat_bodies == [] and not (project / "runs").exists()


def test_a_check_with_a_placeholder_is_one_check_of_every_case(free_text, project, cli, fake):
    """111th round's newcomer: checks.json's {"type": "icontains", "value": "{{name}}"} (no name given) was named as
    filled, so the report scored "4 checks" (icontains Ana, icontains Bea...), each of one answer, and the rule's own
    figure was nowhere. Its name is left as written: one row, over every case."""
    folder = project / "golden" / "orders"
    (folder / "checks.json").write_text(json.dumps([{"type": "icontains", "value": "{{name}}"},
                                                    {"name": "order {{order}}", "type": "regex", "value": "\\b{{order}}\\b"}]))
    assert cli("run", "--split", free_text, "--host", fake.url, "--out", "runs/n.json")[0] in (0, 1)
    rows = json.loads(cli("report", "runs/n.json", "--json")[1])["checks"]
    assert [(r["name"], r["total"]) for r in rows] == [("icontains {{name}}", 4), ("order {{order}}", 4)], rows
    # (its newcomer) a placeholder written with spaces in one case and without in another is one rule, one row
    lines = (folder / "dev.jsonl").read_text(encoding="utf-8").splitlines()
    (folder / "dev.jsonl").write_text("".join(json.dumps(dict(json.loads(l), checks=[
        {"type": "contains", "value": "{{ order }}" if i % 2 else "{{order}}"}]), ensure_ascii=False) + "\n"
        for i, l in enumerate(lines)), encoding="utf-8")
    assert cli("run", "--split", free_text, "--host", fake.url, "--out", "runs/s.json")[0] in (0, 1)
    rows = json.loads(cli("report", "runs/s.json", "--json")[1])["checks"]
    assert ("contains {{order}}", 4) in [(r["name"], r["total"]) for r in rows], rows


def test_changing_a_check_needs_no_model_call(free_text, project, cli, fake):
    run = support_run(free_text, omit=("A-102",), host=fake.url)
    asked = len(fake.chat_bodies)
    before = cli("report", run)[1]
    assert before.startswith("Pass rate: 3/4 = 75%")
    (project / "golden" / "orders" / "checks.json").write_text(json.dumps([
        {"name": "greets", "type": "icontains", "value": "hola"}]))
    code, out, err = cli("report", run, "--checks", free_text)
    assert code == 0 and "scored with the checks golden/orders/dev.jsonl defines now" in err
    assert out.startswith("Pass rate: 3/4 = 75%") and "Scored with 1 check (greets;" in out
    assert "  greets  icontains  blocking  3/4 = 75%" in out
    assert len(fake.chat_bodies) == asked
    assert cli("report", run)[1] == before    # the run itself is untouched
    code, out, err = cli("report", run, "--checks", "golden/dev.jsonl")
    assert code == 2 and "it lacks 4 of the run's cases (o1, o2, o3, o4)" in err


@pytest.mark.parametrize("edit, field", [("expected", "expected"), ("input", "input")])
def test_checks_from_a_split_whose_case_asks_or_expects_otherwise_are_refused(project, cli, dev_run, edit, field):
    """Issue 28, seventeenth attack: report --checks with a split whose dev-01 expects another label (or
    asks another input) scored the run against the run's label and said "Scored ... from" that split.
    --checks brings a split's checks; a case asked or expected otherwise is another question: refused,
    named, in report, report --case and judge."""
    cases = [json.loads(line) for line in (project / "golden" / "dev.jsonl").read_text(encoding="utf-8").splitlines()]
    cases[1][edit] = "acceso" if edit == "expected" else cases[1]["input"] + " (editado)"
    (project / "golden" / "edited.jsonl").write_text("".join(json.dumps(c, ensure_ascii=False) + "\n" for c in cases),
                                                     encoding="utf-8")
    for argv in (["report", dev_run], ["report", dev_run, "--case", "dev-01"], ["judge", dev_run]):
        code, out, err = cli(*argv, "--checks", "golden/edited.jsonl")
        assert code == 2 and out == "" and err == (
            f"error: --checks golden/edited.jsonl: case dev-02 has another {field} there than in the run; --checks brings "
            "a split's checks, never its questions or answers: run the split again\n"), err
    assert cli("report", dev_run, "--checks", "golden/dev.jsonl")[0] == 0


def test_a_judge_check_asked_otherwise_is_never_scored_with_the_votes_of_before(project, cli):
    """Issue 28, eighteenth attack: report --checks with a split whose judge check kept its name but asked
    another criterion ("written in French") scored it with the stored votes on the old one (24/27, gate
    passed), where judge --checks asks it anew. Refused, naming the case and check, with the judge command."""
    import shutil
    example = ROOT / "runs" / "example" / "support-dev-v1-judged.json"
    shutil.copy(example, "run.json")
    run = load_json("run.json")
    Path("crit").mkdir()
    cases = [json.loads(line) for line in (ROOT / run["config"]["split_path"]).read_text(encoding="utf-8").splitlines()]
    (Path("crit") / "dev.jsonl").write_text("".join(json.dumps(c, ensure_ascii=False) + "\n" for c in cases), encoding="utf-8")
    stored = json.loads((ROOT / Path(run["config"]["split_path"]).parent / "checks.json").read_text(encoding="utf-8"))
    for c in stored["checks"]:
        if c["type"] == "judge":
            c["value"] = "The answer is written entirely in French."
            name = c.get("name")
    (Path("crit") / "checks.json").write_text(json.dumps(stored), encoding="utf-8")
    code, out, err = cli("report", "run.json", "--checks", "crit/dev.jsonl", "--min-accuracy", "0.3")
    assert code == 2 and out == "" and err.startswith("error: --checks crit/dev.jsonl: case support-dev-01: its judge "
                                                     f"check {name} asks otherwise there than"), err
    assert "ask the judge it: python eval.py judge run.json" in err and "--checks crit/dev.jsonl" in err, err


def test_a_judge_check_the_split_dropped_has_its_votes_and_failed_calls_left_out(project, cli):
    """Issue 28, twenty-first attack: report --checks SPLIT whose checks no longer hold a judge check still
    read that check's votes: its failed calls stopped the gate (exit 2, naming a judge command that then
    refuses: no answer has a judge check there) and its verdicts were listed as doubtful."""
    import shutil
    shutil.copy(ROOT / "runs" / "example" / "support-dev-v1-judged.json", "run.json")
    run = load_json("run.json")
    for r in run["results"][:2]:   # the judge's first call on two answers failed
        r["judges"][0].update({"pass": None, "reason": None, "raw": None, "error": "HTTP 500: boom",
                               "prompt_tokens": None, "completion_tokens": None})
    Path("run.json").write_text(json.dumps(run), encoding="utf-8")
    assert cli("report", "run.json", "--min-accuracy", "0.1")[0] == 2   # the judge check scored: its failed calls stop it
    Path("dropped").mkdir()
    shutil.copy(ROOT / run["config"]["split_path"], "dropped/dev.jsonl")
    stored = json.loads((ROOT / Path(run["config"]["split_path"]).parent / "checks.json").read_text(encoding="utf-8"))
    stored["checks"] = [c for c in stored["checks"] if c["type"] != "judge"]
    Path("dropped/checks.json").write_text(json.dumps(stored), encoding="utf-8")
    code, out, err = cli("report", "run.json", "--checks", "dropped/dev.jsonl", "--min-accuracy", "0.1")
    # the gate is judged on the checks scored (the split's weights without the judge check's reach no pass)
    assert code == 1 and "GATE FAILED: pass rate 0%" in err and "judge call failed" not in err, err
    assert "answers the question" not in out and "Doubtful" not in out, out
    assert "judge" not in out.lower().replace("judged again by", ""), out   # (the run's provenance apart: round 91)


def test_the_markdown_report_says_the_judges_failed_calls_and_doubtful_verdicts(project, cli):
    """Issue 28, twenty-first attack (minor): text and page said "81 judge calls (2 failed)" and listed the
    doubtful verdicts; the markdown comment a pull request shows said neither, only the pass rate."""
    import shutil
    shutil.copy(ROOT / "runs" / "example" / "support-dev-v1-judged.json", "run.json")
    run = load_json("run.json")
    for r in run["results"][:2]:
        r["judges"][0].update({"pass": None, "reason": None, "raw": None, "error": "HTTP 500: boom",
                               "prompt_tokens": None, "completion_tokens": None})
    Path("run.json").write_text(json.dumps(run), encoding="utf-8")
    text, markdown = cli("report", "run.json")[1], cli("report", "run.json", "--markdown")[1]
    cost = re.search(r"cost: (81 judge calls \(2 failed[^)]*\), \d+ prompt \+ \d+ completion tokens)", text).group(1)
    doubtful = int(re.search(r"Doubtful verdicts, for a person to check \((\d+)\)", text).group(1))
    assert f"{cost}." in markdown and f"**Doubtful verdicts, for a person to check ({doubtful}):** support-dev-01" in markdown, markdown


def test_a_non_blocking_check_is_reported_but_does_not_decide(free_text, project, cli):
    (project / "golden" / "orders" / "checks.json").write_text(json.dumps([
        {"type": "contains", "value": "sale hoy"}, {"name": "apology", "type": "contains", "value": "disculpe", "blocking": False}]))
    out = cli("report", support_run(free_text))[1]
    assert out.startswith("Pass rate: 4/4 = 100%") and "  apology            contains  not blocking  0/4 = 0%" in out


def test_structured_output_json(project, cli, fake):
    answers = {"ticket a": '{"label": "Bug"}', "ticket b": '{"categoría": "acceso"}', "ticket c": "bug, seguro"}
    split = small_split(["bug", "acceso"], [("a", "bug"), ("b", "acceso"), ("c", "bug")])
    fake.answers = answers
    code, out, err = cli("run", "--split", split, "--prompt", "prompts/v3.txt", "--host", fake.url, "--format", "json")
    assert code == 0, err
    assert fake.chat_bodies[0]["format"] == "json"
    assert out.splitlines()[0].startswith("Accuracy: 2/3 = 67%") and "Invalid answers: 1" in out
    assert load_json("runs/small-s-v3.json")["config"]["format"] == "json"


def test_structured_output_schema_sends_the_labels(project, cli, fake):
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--format", "schema")
    assert code == 0, err
    assert fake.chat_bodies[0]["format"] == {
        "type": "object", "properties": {"label": {"type": "string", "enum": ["facturación", "bug", "acceso", "petición"]}},
        "required": ["label"]}
    assert "Invalid answers: 28" in out          # the fake answered plain text, not JSON: invalid, no crash


def test_schema_format_needs_labels(free_text, cli, fake):
    code, out, err = cli("run", "--split", free_text, "--host", fake.url, "--format", "schema")
    assert code == 2 and "this split has no labels.txt" in err


# Patterns that backtrack for hours on an answer that almost matches, each with such an answer.
RUNAWAY = [("(a+)+$", "a" * 30 + "!"), ("(a*)*b", "a" * 30), ("(.*)*x", "a" * 30), (r"^(\w+\s?)*$", "a" * 30 + "!"),
           ("((ab)+)+$", "ab" * 30 + "!"), ("(a{1,5})+$", "a" * 30 + "!"), ("x(?:a+)+y", "x" + "a" * 30),
           ("(?=(a+)+$)", "a" * 30 + "!"), ("(a+|b)+$", "a" * 30 + "!"), ("(?:a+|b)+$", "a" * 30 + "!"),
           ("(x+x+)+y", "x" * 30), ("(a+){1,100}$", "a" * 30 + "!"), (r"(\w+\s?){2,200}$", "a" * 30 + "!"),
           ("(a?){28}a{28}", "a" * 28), ("(a|aa)+$", "a" * 40 + "!"), (r"(\w*[ab])*$", "a" * 30 + "!")]


@pytest.mark.parametrize("pattern, answer", RUNAWAY)
def test_a_runaway_pattern_is_stopped_on_the_answer_it_backtracks_on(pattern, answer, monkeypatch):
    """Any shape that backtracks, nested repetitions or overlapping alternatives: the search stops
    after REGEX_SECONDS as a PatternTimeout (the pattern itself loads: it compiles)."""
    monkeypatch.setattr(evalpy, "REGEX_SECONDS", 0.2)
    assert evalpy.regex_problem(pattern) is None
    started = time.monotonic()
    with pytest.raises(evalpy.PatternTimeout):
        evalpy.guarded_search(pattern, answer)
    assert time.monotonic() - started < 2


@pytest.mark.parametrize("pattern, answer, found", [
    (r"\bA-\d{5}\b", "pedido A-12345", True), (r"(\d+,)*\d+", "1,2,3" * 20, True), ("(a{3})+", "a" * 40 + "!", True),
    (r"(?i)(reembols|abon)\w*[^.?!]{0,80}?(\b\d+\s+d[ií]as)", "reembolso en 3 días", True), ("[(a+)+]", "x", False),
    (r"(\d{1,3}\.){3}\d{1,3}", "10.0.0.1", True), (r"(\w+\s)+", "a " * 40, True),
])
def test_real_patterns_search_as_re_does(pattern, answer, found):
    assert evalpy.regex_problem(pattern) is None
    assert (evalpy.guarded_search(pattern, answer) is not None) is found


def test_a_catastrophic_pattern_in_a_hand_edited_run_is_stopped_not_run_for_hours(project, cli, monkeypatch):
    """(a+)+$ on 32 a's and a "!" would backtrack for hours: report stops after REGEX_SECONDS."""
    monkeypatch.setattr(evalpy, "REGEX_SECONDS", 0.5)
    check = {"name": "regex a+$", "type": "regex", "value": "(a+)+$", "blocking": True}   # "a+$" when run
    write_run("edited.json", make_run([{"id": "a", "checks": [check], "response": "a" * 32 + "!"}], labels=None))
    code, out, err = cli("report", "edited.json")
    assert code == 2 and out == ""
    # (its split, tickets.jsonl, is nowhere here: named as stored, never in a command that would fail)
    assert err == ("error: edited.json: check 'regex a+$' ran for over 0.5 s on the answer to a (its pattern backtracks "
                   "on it); rewrite the pattern in the split the run was made with (stored as tickets.jsonl, relative to "
                   "where it was made, and found neither from here nor beside the run), then score it with --checks SPLIT\n")


def test_the_cure_of_a_stopped_pattern_names_the_split_as_it_reads_from_here(project, cli, monkeypatch):
    """139th round: a run made in p1/ with --split s.jsonl stores s.jsonl; its stopped pattern's cure, "report
    p1/r.json --checks s.jsonl", pasted from the folder above, was "s.jsonl: no such split file". The split is
    named as it reads from here: beside the run where it is there, as stored where it is here."""
    monkeypatch.setattr(evalpy, "REGEX_SECONDS", 0.5)
    case = {"id": "a", "input": "x", "difficulty": "easy", "note": "n", "checks": [{"type": "regex", "value": "(a+)+$"}]}
    Path("p1").mkdir()
    Path("p1/s.jsonl").write_text(json.dumps(case) + "\n")
    made = make_run([{"id": "a", "input": "x", "checks": [{"name": "regex (a+)+$", "type": "regex", "value": "(a+)+$",
                                                           "blocking": True}], "response": "a" * 32 + "!"}], labels=None,
                    split="s", split_path="s.jsonl")
    write_run("p1/r.json", made)
    code, out, err = cli("report", "p1/r.json")
    assert code == 2 and err.endswith("; rewrite the pattern in p1/s.jsonl, then: python eval.py report p1/r.json "
                                      "--checks p1/s.jsonl (compare and review take --checks p1/s.jsonl too)\n"), err
    Path("p1/s.jsonl").write_text(json.dumps(dict(case, checks=[{"type": "regex", "value": "a+!$", "name": "regex (a+)+$"}]))
                                  + "\n")
    code, out, err = cli(*err.split("then: python eval.py ")[1].split(" (")[0].split())
    assert code == 0 and out.startswith("Pass rate: 1/1 = 100%"), err


def test_answers_nested_past_pythons_stack_are_not_json(project, cli, fake):
    deep = "[" * 100_000 + "]" * 100_000
    (project / "s.jsonl").write_text(json.dumps({"id": "a", "input": "x", "difficulty": "easy", "note": "n",
                                                 "checks": [{"type": "json"}]}) + "\n")
    fake.default_answer = deep
    # a window of 8192: Ollama stops an answer at ten windows (llm/llama_server.go boundedNumPredict),
    # and this one's 50,000 tokens (at the fake's 4 characters a token) would be cut at 40,960
    code, out, err = cli("run", "--split", "s.jsonl", "--prompt", "prompts/v1.txt", "--host", fake.url,
                         "--option", "num_ctx=8192")
    assert code == 0 and out.startswith("Pass rate: 0/1 = 0%"), err
    assert load_json("runs/s-v1.json")["results"][0]["response"] == deep   # stored exactly
    fake.answers = {"ticket a": deep}
    split = small_split(["bug", "acceso"], [("a", "bug")])
    code, out, err = cli("run", "--split", split, "--prompt", "prompts/v3.txt", "--host", fake.url,
                         "--format", "json", "--option", "num_ctx=8192")
    assert code == 0 and "Invalid answers: 1" in out, err


@pytest.mark.parametrize("kind, pattern", [("regex", "(a|aa)+$"), ("regex", "(a+)+$"), ("not_regex", r"^(\w+\s?)*$")])
def test_a_split_with_a_pattern_that_backtracks_stops_the_report_with_one_line(project, cli, fake, monkeypatch,
                                                                                kind, pattern):
    """The split loads, the answers are asked and kept; the search that backtracks on one is stopped
    after REGEX_SECONDS and the report says which check on which answer."""
    monkeypatch.setattr(evalpy, "REGEX_SECONDS", 0.5)
    fake.default_answer = "a" * 40 + "!"
    (project / "s.jsonl").write_text(json.dumps({"id": "a", "input": "x", "difficulty": "easy", "note": "n",
                                                 "checks": [{"type": kind, "value": pattern}]}) + "\n")
    code, out, err = cli("run", "--split", "s.jsonl", "--prompt", "prompts/v1.txt", "--host", fake.url)
    assert code == 2 and out == ""
    assert err.endswith(f"error: runs/s-v1.json: check {kind + ' ' + pattern!r} ran for over 0.5 s on the answer to a "
                        "(its pattern backtracks on it); rewrite the pattern in s.jsonl, then: python eval.py report "
                        "runs/s-v1.json --checks s.jsonl (compare and review take --checks s.jsonl too)\n")
    assert load_json("runs/s-v1.json")["results"][0]["response"] == "a" * 40 + "!"   # the answer is kept


# --- weighted criteria: a weighted sum against a threshold, blocking checks vetoing it (seed 001)

def weighed(name, weight, kind="contains", value=None):
    return check(kind, value or name, name=name, weight=weight)


@pytest.mark.parametrize("weights, passing, threshold, verdict", [
    ([0.1, 0.2, 0.4, 0.3], "abc", 0.7, True),      # 0.1 + 0.2 + 0.4 is 0.7 as written, not 0.7000000000000001
    ([0.1, 0.2, 0.4, 0.3], "abd", 0.7, False),     # 0.6
    ([7, 3], "a", 0.7, True),
    ([7, 3], "b", 0.7, False),
    ([1, 1, 1], "ab", 2 / 3, True),
    ([1, 1, 1], "a", 0.34, False),
    ([2, 1, 1], "ab", 0.75, True),
    ([2, 1, 1], "bc", 0.75, False),
    ([1, 2], "ab", 1, True),
    ([1, 2], "b", 1, False),
])
def test_the_weighted_score_passes_at_its_threshold_and_fails_below(weights, passing, threshold, verdict):
    checks = [weighed(name, w) for name, w in zip("abcd", weights)]
    passed = {c["name"]: c["name"] in passing for c in checks}
    score = evalpy.weighted_score(checks, passed)
    assert score[0] == score[1]
    assert evalpy.case_verdict(checks, passed, threshold, score) is verdict
    assert all(c["blocking"] is False for c in checks)      # a weight makes a check weigh, not block


def test_an_undecided_weighed_check_decides_only_when_it_could_tip_the_case():
    checks = [weighed("a", 6), weighed("b", 3), weighed("judge", 1, "judge", "helps")]
    for passed, threshold, verdict in [({"a": True, "b": True, "judge": None}, 0.9, True),    # 0.9 whatever it says
                                       ({"a": True, "b": False, "judge": None}, 0.7, None),   # 0.6 or 0.7
                                       ({"a": False, "b": True, "judge": None}, 0.7, False)]: # 0.4 at most
        assert evalpy.case_verdict(checks, passed, threshold, evalpy.weighted_score(checks, passed)) is verdict


def test_no_score_makes_up_for_a_failed_blocking_check():
    checks = [weighed("a", 1), weighed("b", 1), check("not_contains", "reembolso", name="policy")]
    passed = {"a": True, "b": True, "policy": False}
    assert evalpy.weighted_score(checks, passed) == (1, 1)
    assert evalpy.case_verdict(checks, passed, 0.5, evalpy.weighted_score(checks, passed)) is False
    passed["policy"] = True
    assert evalpy.case_verdict(checks, passed, 0.5, evalpy.weighted_score(checks, passed)) is True


@pytest.mark.parametrize("case_extra, written, message", [
    ({}, {"type": "contains", "value": "x", "weight": 0}, "weight must be a positive number, not 0"),
    ({}, {"type": "contains", "value": "x", "weight": -2}, "weight must be a positive number, not -2"),
    ({}, {"type": "contains", "value": "x", "weight": "2"}, 'weight must be a positive number, not "2"'),
    ({}, {"type": "contains", "value": "x", "weight": True}, "weight must be a positive number, not true"),
    ({}, {"type": "contains", "value": "x", "weight": float("inf")}, "Infinity is not a number"),
    ({}, {"type": "contains", "value": "x", "weight": 2, "blocking": True},
     'a check with a weight counts toward the weighted score and does not block'),
    ({"pass_threshold": 0}, {"type": "contains", "value": "x", "weight": 1}, "pass_threshold must be a number above 0"),
    ({"pass_threshold": 1.5}, {"type": "contains", "value": "x", "weight": 1}, "not 1.5"),
    ({"pass_threshold": "0.7"}, {"type": "contains", "value": "x", "weight": 1}, 'not "0.7"'),
    ({"pass_threshold": 0.7}, {"type": "contains", "value": "x"}, 'pass_threshold needs at least one check with a "weight"'),
])
def test_every_bad_weighting_is_refused_at_load_with_file_and_line(tmp_path, case_extra, written, message):
    (tmp_path / "s.jsonl").write_text(
        json.dumps({"id": "a", "input": "x", "difficulty": "easy", "note": "n"}) + "\n" +
        json.dumps({"id": "b", "input": "x", "difficulty": "easy", "note": "n", "checks": [written], **case_extra})
        + "\n")
    with pytest.raises(evalpy.EvalError) as e:
        evalpy.load_split(str(tmp_path / "s.jsonl"))
    assert f"{tmp_path}/s.jsonl:2: " in str(e.value) and message in str(e.value)


def test_a_checks_file_sets_the_threshold_and_its_mistakes_name_their_line(tmp_path):
    case = {"id": "a", "input": "x", "difficulty": "easy", "note": "n", "vars": {"order": "A-1"}}
    (tmp_path / "s.jsonl").write_text(json.dumps(case) + "\n" + json.dumps(dict(case, id="b", pass_threshold=1)) + "\n"
                                      + json.dumps(dict(case, id="c", pass_threshold=None)) + "\n")
    good = ('{\n "pass_threshold": 0.5,\n "checks": [\n  {"type": "contains", "value": "{{order}}", "weight": 2},\n'
            '  {"name": "greets", "type": "icontains", "value": "hola", "weight": 1},\n'
            '  {"name": "policy", "type": "not_contains", "value": "reembolso"}\n ]\n}\n')
    (tmp_path / "checks.json").write_text(good)
    cases, _, _ = evalpy.load_split(str(tmp_path / "s.jsonl"))
    assert [c.get("pass_threshold") for c in cases] == [0.5, 1, None]   # a case's own wins; null: blocking checks alone
    assert [(c["name"], c["blocking"], c.get("weight")) for c in cases[0]["checks"]] == [
        ("contains {{order}}", False, 2), ("greets", False, 1), ("policy", True, None)]
    for bad, where, message in [
            (good.replace('"weight": 1}', '"weight": 0}'), 5, "check 2: check 'greets': weight must be a positive number"),
            (good.replace('"reembolso"}', '"reembolso", "weight": 1, "blocking": true}'), 6, "check 3: "),
            (good.replace("0.5", "2"), 2, "pass_threshold must be a number above 0 and at most 1"),
            (good.replace('"pass_threshold"', '"threshold"'), 2, "unknown key 'threshold'")]:
        (tmp_path / "checks.json").write_text(bad)
        with pytest.raises(evalpy.EvalError) as e:
            evalpy.load_split(str(tmp_path / "s.jsonl"))
        assert f"checks.json:{where}: " in str(e.value) and message in str(e.value), str(e.value)
    (tmp_path / "checks.json").write_text('{"pass_threshold": 0.5, "checks": [{"type": "contains", "value": "x"}]}')
    with pytest.raises(evalpy.EvalError) as e:
        evalpy.load_split(str(tmp_path / "s.jsonl"))
    assert f"s.jsonl:1: pass_threshold needs at least one check with a \"weight\" (the threshold comes from checks.json)" in str(e.value)


@pytest.fixture
def weighted_set(free_text, project):
    (project / "golden" / "orders" / "checks.json").write_text(json.dumps({"pass_threshold": 0.7, "checks": [
        {"name": "order number", "type": "regex", "value": "\\b{{order}}\\b", "weight": 2},
        {"name": "greets", "type": "icontains", "value": "hola", "weight": 1},
        {"name": "no refund date", "type": "not_regex", "value": "(?i)reembolso.{0,30}\\b(lunes|viernes)\\b"}]}))
    return free_text


def test_the_report_says_the_rule_once_and_each_cases_score_beside_its_verdict(weighted_set, cli, fake):
    # o1 all pass (1); o2 no order number (1/3 < 0.7); o3 all weighed checks pass but a refund date blocks it;
    # o4 does not greet (2/3 < 0.7)
    fake.default_answer = lambda text: {"A-101": "Hola, su pedido A-101 sale hoy.", "A-102": "Hola, lo revisamos.",
                                        "A-103": "Hola, A-103: el reembolso llegará el lunes.",
                                        "A-104": "Su pedido A-104 sale hoy."}[text.split("pedido ")[1].rstrip("?")]
    code, out, err = cli("run", "--split", weighted_set, "--host", fake.url)
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "Pass rate: 1/4 = 25%  (95% CI 5–70%)"
    assert "Passes when: no blocking check fails and weighted score ≥ 0.7" in lines
    assert "  order number    regex      weight 2  3/4 = 75%" in lines
    assert "  greets          icontains  weight 1  3/4 = 75%" in lines
    assert "  no refund date  not_regex  blocking  3/4 = 75%" in lines
    start = lines.index("Weighted score per case (the share of the weighed checks' weight that passed):")
    assert [line.rstrip() for line in lines[start + 1:start + 6]] == [
        "  id  verdict  score  threshold  weighed checks failed",
        "  o1  pass     1      0.7",
        "  o2  fail     0.33   0.7        order number",
        "  o3  fail     1      0.7",
        "  o4  fail     0.67   0.7        greets"]
    assert "Failed by a blocking check whatever the score (1): o3" in lines
    report = json.loads(cli("report", "runs/orders-dev-v2.json", "--json")[1])
    assert report["weighted"]["thresholds"] == [0.7] and report["weighted"]["vetoed"] == ["o3"]
    assert [(r["id"], r["correct"], round(r["score"], 4)) for r in report["weighted"]["cases"]] == [
        ("o1", True, 1), ("o2", False, 0.3333), ("o3", False, 1), ("o4", False, 0.6667)]
    assert "Passes when: no blocking check fails and weighted score ≥ 0.7" in cli("report", "runs/orders-dev-v2.json",
                                                                                  "--markdown")[1]
    case = cli("report", "runs/orders-dev-v2.json", "--case", "o4")[1]
    assert "weighted score 0.67 (passes at 0.7)" in case


def test_a_new_threshold_rescores_without_a_model_call(weighted_set, project, cli, fake):
    fake.default_answer = lambda text: "Su pedido " + text.split("pedido ")[1].rstrip("?") + " sale hoy."
    assert cli("run", "--split", weighted_set, "--host", fake.url)[0] == 0
    asked = len(fake.chat_bodies)
    assert cli("report", "runs/orders-dev-v2.json")[1].startswith("Pass rate: 0/4 = 0%")    # 2/3 < 0.7
    checks = json.loads((project / "golden" / "orders" / "checks.json").read_text())
    (project / "golden" / "orders" / "checks.json").write_text(json.dumps(dict(checks, pass_threshold=0.6)))
    code, out, err = cli("report", "runs/orders-dev-v2.json", "--checks", weighted_set)
    assert code == 0 and out.startswith("Pass rate: 4/4 = 100%") and "weighted score ≥ 0.6" in out
    assert len(fake.chat_bodies) == asked
    before = json.loads(cli("report", "runs/orders-dev-v2.json", "--json")[1])["checks_sha"]
    after = json.loads(cli("report", "runs/orders-dev-v2.json", "--json", "--checks", weighted_set)[1])["checks_sha"]
    assert before != after          # the threshold is part of what scored the run


def test_every_view_of_a_rescored_report_says_whose_checks_scored_it(weighted_set, project, cli, fake):
    """From the seventeenth attack: only the text view (and stderr, which CI does not post) said the
    figures came from the split's checks now; a markdown comment or a page passed them off as the run's."""
    fake.default_answer = lambda text: "Su pedido " + text.split("pedido ")[1].rstrip("?") + " sale hoy."
    assert cli("run", "--split", weighted_set, "--host", fake.url)[0] == 0
    run = "runs/orders-dev-v2.json"
    sha = json.loads(cli("report", run, "--json", "--checks", weighted_set)[1])["checks_sha"][:8]
    said = f"Scored with the checks {weighted_set} defines now (3 checks; checks sha {sha}), not those stored in the run"
    code, out, err = cli("report", run, "--checks", weighted_set, "--markdown")
    assert code == 0 and f"> **Scored with the checks `{weighted_set}` defines now (3 checks; checks sha {sha}), not " \
        "those stored in the run**" in out.splitlines()
    code, out, err = cli("report", run, "--checks", weighted_set, "--html", "rescored.html")
    assert code == 0 and f"<li>{said}</li>" in Path("rescored.html").read_text(encoding="utf-8")
    assert "defines now" not in cli("report", run, "--markdown")[1]   # the run's own checks: nothing to say
    assert cli("report", run, "--html", "own.html")[0] == 0 and "defines now" not in Path("own.html").read_text(encoding="utf-8")


def test_a_pattern_placeholder_that_would_find_anything_or_an_escape_is_refused(free_text, project, cli):
    """Sixty-seventh attack on issue 28: \\b{{order}}\\b with an empty order was \\b\\b, and any answer with a word passed;
    ^\\{{x}}$ with x = d searched for a digit ("7" passed), (a)\\{{x}} with x = 1 for a backreference. Each is refused
    by its line; a backslash doubled before a placeholder, and \\{ before one, are literal and run."""
    lines = Path("golden/orders/dev.jsonl").read_text(encoding="utf-8").splitlines()
    first = json.loads(lines[0])
    Path("golden/orders/dev.jsonl").write_text("\n".join([json.dumps(dict(first, vars=dict(first["vars"], order="")))]
                                                          + lines[1:]) + "\n", encoding="utf-8")
    code, out, err = cli("run", "--split", "golden/orders/dev.jsonl", "--host", "127.0.0.1:9")
    assert code == 2 and ("golden/orders/dev.jsonl:1: check 'order number' (from checks.json, which gives it to every "
                          "case) uses {{order}}, and vars.order is empty here: the pattern would look for nothing in its "
                          "place") in err, err
    # (73rd) a tab or a space is a value (a separator: id{{sep}}name): it was refused as empty
    Path("golden/orders/dev.jsonl").write_text("\n".join([json.dumps(dict(first, vars=dict(first["vars"], order="\t")))]
                                                          + lines[1:]) + "\n", encoding="utf-8")
    code, out, err = cli("run", "--split", "golden/orders/dev.jsonl", "--host", "127.0.0.1:9")
    assert code == 2 and "is empty here" not in err and "cannot reach the model server" in err, err
    for value, refused in (("^\\{{order}}$", True), ("(a)\\{{order}}", True), ("\\\\\\{{order}}", True),
                           ("\\\\{{order}}", False), ("\\{{{order}}\\}", False)):
        own = dict(first, checks=[{"name": "n", "type": "regex", "value": value}])
        Path("golden/orders/dev.jsonl").write_text("\n".join([json.dumps(own)] + lines[1:]) + "\n", encoding="utf-8")
        code, out, err = cli("run", "--split", "golden/orders/dev.jsonl", "--host", "127.0.0.1:9")
        said = "check 'n': a placeholder follows a backslash, which would escape the first character of its value" in err
        assert code == 2 and said == refused, (value, err)
    # (67th) a pattern found in every answer: a regex that cannot fail, a not_regex that cannot pass
    for kind, value, never in (("regex", "|", "fail"), ("regex", "(?i)a*", "fail"), ("not_regex", "^", "pass"),
                               ("regex", "\\bfoo\\b|", "fail"), ("not_regex", "x*|$", "pass"), ("regex", "(?s).*\\Z", "fail"),
                               ("regex", "[$]?", "fail"), ("regex", "(?:x|)", "fail"),
                               # (73rd) an empty lookahead holds everywhere; an atomic group can be nothing too
                               ("regex", "(?=)", "fail"), ("not_regex", "(?=a*)", "pass"), ("regex", "(?>a*)", "fail"),
                               ("regex", "(?<=^)", "fail"),
                               # (73rd) an empty branch of a group without a name, a forbidding lookahead unanchored (it
                               # holds at the end of any text), a repeat of what can be nothing
                               ("regex", "(?:refund|)$", "fail"), ("regex", "(?!.*secret)", "fail"), ("regex", "(a*)+", "fail"),
                               ("not_regex", "x*(?:yes|)", "pass"),
                               # (round 105) nothing a group every match goes through matched, referred back to; a
                               # conditional whose both branches can be nothing; a backreference past a repeat that
                               # can be nothing (it was tried for 5 s an answer, then kept)
                               ("regex", "(a?)\\1", "fail"), ("not_regex", "()\\1", "pass"),
                               ("not_regex", "(a?)(?(1)|)", "pass"), ("not_regex", "(?:(a+)+\\1b)?", "pass"),
                               # a character whose code is an opcode's (6, AT's) was read as an anchor
                               ("regex", "(?!\x06)", "fail"),
                               # (round 106) a conditional on a group a match of nothing passed by (it takes something)
                               # takes its no branch; on one every match went through before it, its yes branch
                               ("not_regex", "(x)?(?(1)x|)", "pass"), ("regex", "(a)?(?(1)b|)", "fail"),
                               ("regex", "(a?)(?(1)|x)", "fail")):
        own = dict(first, checks=[{"name": "n", "type": kind, "value": value}])
        Path("golden/orders/dev.jsonl").write_text("\n".join([json.dumps(own)] + lines[1:]) + "\n", encoding="utf-8")
        code, out, err = cli("run", "--split", "golden/orders/dev.jsonl", "--host", "127.0.0.1:9")
        assert code == 2 and f"check 'n': its pattern is found in every answer, even an empty one (|, ^, a*), so the " \
                             f"check can never {never}" in err, (value, err)
    # (69th) a length capped, a word forbidden by a lookahead: each matches every short answer, and can fail
    for value in ("^[\\s\\S]{0,300}$", "^(?![\\s\\S]*(?i:contraseña es))", "^.{0,200}$",
                  # (71st) a longer cap, no tab, at most 100 lines: each matches answers of every kind, and can fail
                  "^[\\s\\S]{0,4000}$", "^[^\\t]*$", "^(?:[^\\n]*\\n){0,99}[^\\n]*$",
                  # (72nd) an anchor inside a group is an anchor
                  "^[^\\t\\n]*(\\n|$)", "(^|\\n)[^\\t\\n]*$", "(?i:^)[^\\t]*$",
                  # (73rd) a lookahead that needs something, or anchors the other end, can fail
                  "(?=a)", "^(?=$)", "(?<=x)", "(?>a)",
                  # what never gives back what it took can fail before an anchor: a*+ takes the a of "a"
                  "a*+\\A", "(?>a*)^", "(?:^a?+){2}", "(?:^(?>a*)){2}",
                  # (round 105) a backreference or conditional that needs something
                  "(a)?\\1", "(x?)(?(1)x|)", "(\\w+) \\1", "^(a?)\\1$",
                  # (round 106) a conditional whose branch taken needs something: in brackets or to the line's end
                  "^(<)?\\w+(?(1)>|$)", "(?:(a)|b)(?(1)|x)",
                  # (its review) a conditional inside the group it tests is nothing on the way in: that group may
                  # be nothing, so the conditional after it may take either branch
                  "(?:((?(1)A))|B)(?(1)a)", "((((x)|(?(1).))))((\\A))",
                  # (its review) no stuttered word, no run of six digits; a group a match may pass by, referred back to
                  "(?s)^(?!.*\\b(\\w+)\\s+\\1\\b)", "(?s)^(?:(?!(\\d)\\1{5}).)*$", "(?:x(a?))?\\1"):
        own = dict(first, checks=[{"name": "n", "type": "regex", "value": value}])
        Path("golden/orders/dev.jsonl").write_text("\n".join([json.dumps(own)] + lines[1:]) + "\n", encoding="utf-8")
        code, out, err = cli("run", "--split", "golden/orders/dev.jsonl", "--host", "127.0.0.1:9")
        assert "found in every answer" not in err and "cannot reach the model server" in err, (value, err)


def with_first_checks(checks, cli):
    """Runs golden/orders/dev.jsonl with its first case's checks replaced by `checks`, against no server (load alone
    decides); returns (code, err)."""
    lines = Path("golden/orders/dev.jsonl").read_text(encoding="utf-8").splitlines()
    own = dict(json.loads(lines[0]), checks=checks)
    Path("golden/orders/dev.jsonl").write_text("\n".join([json.dumps(own)] + lines[1:]) + "\n", encoding="utf-8")
    code, out, err = cli("run", "--split", "golden/orders/dev.jsonl", "--host", "127.0.0.1:9")
    return code, err


def test_a_pattern_that_can_match_no_text_is_refused(free_text, project, cli):
    """133rd round: a not_regex (?!) passed every answer and a regex a^ failed every one, both loaded without a word
    (as \\b\\B, $a, [^\\s\\S]). What is proven to match no text is refused by its line, as one found in every answer
    is; where a doubt remains, or one way matches, it runs."""
    for kind, value, never in (("not_regex", "(?!)", "fail"), ("regex", "a^", "pass"), ("regex", "\\b\\B", "pass"),
                               ("not_regex", "$a", "fail"), ("regex", "[^\\s\\S]", "pass"), ("regex", "x(?!)", "pass"),
                               ("regex", "(?m)a^", "pass"), ("not_regex", "(?=a)b", "fail"), ("regex", "\\Za", "pass"),
                               ("regex", "(?:x\\A|(?!y?))", "pass"), ("not_regex", "(refund^)+", "fail")):
        code, err = with_first_checks([{"name": "n", "type": kind, "value": value}], cli)
        assert code == 2 and err.startswith("error: golden/orders/dev.jsonl:1: ") and (
            f"check 'n': its pattern can match no text at all ((?!), a^, $a, \\b\\B, [^\\s\\S]), so the check can "
            f"never {never}") in err, (value, err)
    for value in ("$\\n", "(?m)\\n^", "(?!)|x", "(?=a)a", "(?i)(?=a)A", "(?s)$.", "\\b\\w\\B", "x^|y", "(a^)*b",
                  "[^\\s]", "(?!x)x", "a|\\Zb"):
        code, err = with_first_checks([{"name": "n", "type": "regex", "value": value}], cli)
        assert "can match no text" not in err and "cannot reach the model server" in err, (value, err)
    # one in checks.json is named there, once
    Path("golden/orders/checks.json").write_text(json.dumps([{"name": "never", "type": "not_regex", "value": "(?!)"}]),
                                                 encoding="utf-8")
    code, out, err = cli("run", "--split", "golden/orders/dev.jsonl", "--host", "127.0.0.1:9")
    assert code == 2 and err.startswith("error: golden/orders/checks.json:1: check 1: 'never': its pattern can match no "
                                        "text at all") and "dev.jsonl" not in err, err


def test_a_shared_pattern_found_in_every_answer_is_named_at_checks_json(free_text, project, cli):
    """83rd attack on issue 28: a regex "a*" in checks.json was blamed on every line of dev.jsonl ("10 lines: check
    'anything': ... (lines 1-10)"), none of which holds it; it is named once, at checks.json."""
    Path("golden/orders/checks.json").write_text(json.dumps([{"name": "anything", "type": "regex", "value": "a*"}]), encoding="utf-8")
    code, out, err = cli("run", "--split", "golden/orders/dev.jsonl", "--host", "127.0.0.1:9")
    assert code == 2 and err.startswith("error: golden/orders/checks.json:1: check 1: 'anything': its pattern is found in "
                                        "every answer, even an empty one") and "dev.jsonl" not in err, err


def test_checks_of_other_types_under_one_name_are_each_named_in_the_check_table(project, cli):
    """139th round: a contains, a not_contains and a regex each named "n" in a case of their own were one row of the
    check table, "n  contains  blocking  2/3", its figure counting the answers of three rules under the first case's
    type. The row names every type, "(by case)", as a role that differs is; --json gives them (types)."""
    def case(cid, kind, value, response):
        return {"id": cid, "response": response, "checks": [{"name": "n", "type": kind, "value": value, "blocking": True}]}
    run = write_run("runs/n.json", make_run([case("n1", "contains", "x", "x"), case("n2", "not_contains", "x", "x"),
                                             case("n3", "regex", "^y$", "y"), case("n4", "contains", "x", "x")], labels=None))
    row = next(line for line in cli("report", run)[1].splitlines() if line.split()[:1] == ["n"])
    assert row.split()[1:7] == ["contains", "or", "not_contains", "or", "regex", "(by"], row
    assert json.loads(cli("report", run, "--json")[1])["checks"][0]["types"] == ["contains", "not_contains", "regex"]
    run = write_run("runs/one.json", make_run([case("n1", "contains", "x", "x"), case("n2", "contains", "y", "x")],
                                              labels=None))
    assert "types" not in json.loads(cli("report", run, "--json")[1])["checks"][0]   # (one type: as before)

def test_a_judge_check_named_as_another_cases_plain_check_keeps_its_judge_section_whichever_comes_first(project, cli):
    """139th round: "n" a contains in c1 and a judge in c2 were one row, of c1's type, so the report lost its "Judge
    checks" section, its cost and its doubtful list (--json: type contains, judge null); with c2 first it had them. A
    judge check and a plain one of one name are two rows now, each in its own table, in either order."""
    vote = {"check": "n", "model": "j", "vote": 1, "seed": 42, "pass": False, "reason": "rude", "raw": "{}",
            "error": None, "prompt_tokens": 30, "completion_tokens": 9}
    plain = {"id": "c1", "response": "zz hello", "checks": [{"name": "n", "type": "contains", "value": "zz", "blocking": True}]}
    judged = {"id": "c2", "response": "hello", "judges": [vote],
              "checks": [{"name": "n", "type": "judge", "value": "Is it polite?", "blocking": True}]}
    for order in ([plain, judged], [judged, plain]):
        run = write_run("runs/mix.json", make_run(order, labels=None))
        out = cli("report", run)[1]
        assert "Judge checks" in out and "cost: 1 judge calls (0 failed), 30 prompt + 9 completion tokens" in out, out
        s = json.loads(cli("report", run, "--json")[1])
        assert sorted((c["name"], c["type"], c["passed"], c["total"]) for c in s["checks"]) == [
            ("n", "contains", 1, 1), ("n", "judge", 0, 1)], s["checks"]
        assert s["judge"]["calls"] == 1


def test_a_check_weighed_otherwise_by_case_shows_the_range(project, cli):
    """Sixty-seventh attack on issue 28: one check weighed 0.3 in one case and 2 in another was shown as weight 0.3,
    the first case's, in the text table and --json."""
    def case(cid, weight):
        return {"id": cid, "response": "zz", "pass_threshold": 0.5, "checks": [
            {"name": "zz", "type": "contains", "value": "zz", "blocking": False, "weight": weight},
            {"name": "hi", "type": "contains", "value": "hi", "blocking": False, "weight": 1}]}
    run = write_run("runs/w.json", make_run([case("a", 0.3), case("b", 2), case("c", 0.3)], labels=None))
    s = json.loads(cli("report", run, "--json")[1])
    assert next(c for c in s["checks"] if c["name"] == "zz")["roles"] == {"weights": [0.3, 2], "blocking": False,
                                                                         "not_blocking": False}
    assert "hi" in s["checks"][1]["name"] and "roles" not in s["checks"][1]
    assert "weight 0.3 to 2 (by case)" in cli("report", run)[1]
    # (69th) blocking in one case, weighed in others: both said
    cases = [case("a", 0.3), case("b", 2)]
    cases[0]["checks"][0] = {k: v for k, v in cases[0]["checks"][0].items() if k != "weight"} | {"blocking": True}
    run = write_run("runs/w2.json", make_run(cases, labels=None))
    assert "weight 2 or blocking (by case)" in cli("report", run)[1]
    # (70th) a labelled set whose extra check blocks in every case but the first is scored on more than its label:
    # "Pass rate", whichever case comes first (it read "Accuracy" from the first case's role alone)
    label = {"name": "label", "type": "label", "blocking": True}
    for first_blocks in (False, True):
        made = [{"id": f"c{i}", "expected": "bug", "response": "bug", "checks": [
            label, {"name": "short", "type": "contains", "value": "u", "blocking": first_blocks or i > 0}]} for i in range(3)]
        run = write_run(f"runs/l{first_blocks}.json", make_run(made))
        assert cli("report", run)[1].startswith("Pass rate: 3/3"), first_blocks


def test_a_weighed_check_refused_is_not_also_said_missing(project, cli):
    """Sixty-seventh attack on issue 28: a weighed check refused for a var the case lacks was followed by "pass_threshold
    needs at least one check with a weight", which it has."""
    Path("w").mkdir()
    Path("w/checks.json").write_text(json.dumps({"pass_threshold": 0.5, "checks": [
        {"type": "contains", "value": "{{a}}", "weight": 1}]}))
    Path("w/dev.jsonl").write_text(json.dumps({"id": "x", "input": "hola", "difficulty": "easy", "note": "n"}) + "\n")
    code, out, err = cli("run", "--split", "w/dev.jsonl", "--host", "127.0.0.1:9")
    assert code == 2 and "uses {{a}} but the case has no vars.a" in err and "needs at least one check" not in err, err
    # (70th) but a threshold beside no weighed check at all is said with another check's fault, never after its fix
    Path("w/checks.json").write_text(json.dumps({"pass_threshold": 0.5, "checks": [{"type": "contains", "value": "x"}]}))
    Path("w/dev.jsonl").write_text(json.dumps({"id": "x", "input": "hola", "difficulty": "easy", "note": "n",
                                               "checks": [{"type": "regex", "value": "("}]}) + "\n")
    code, out, err = cli("run", "--split", "w/dev.jsonl", "--host", "127.0.0.1:9")
    assert code == 2 and "needs at least one check with a \"weight\"" in err and "regular expression" in err, err


def test_weights_without_a_threshold_are_shown_not_applied(free_text, project, cli):
    (project / "golden" / "orders" / "checks.json").write_text(json.dumps([
        {"type": "contains", "value": "sale hoy"}, {"name": "apology", "type": "contains", "value": "disculpe", "weight": 1}]))
    out = cli("report", support_run(free_text))[1]
    assert out.startswith("Pass rate: 4/4 = 100%")
    assert "Passes when: no blocking check fails (weights are shown, not applied: no pass_threshold is set)" in out


def test_a_hand_edited_threshold_in_a_run_is_one_plain_error(weighted_set, project, cli, fake):
    fake.default_answer = lambda text: "Hola, su pedido " + text.split("pedido ")[1].rstrip("?") + " sale hoy."
    assert cli("run", "--split", weighted_set, "--host", fake.url)[0] == 0
    for bad, message in [(2, "pass_threshold must be a number above 0"), ("x", "pass_threshold must be")]:
        run = load_json("runs/orders-dev-v2.json")
        run["results"][1]["pass_threshold"] = bad
        path = write_run("runs/edited.json", run)
        code, out, err = cli("report", path)
        assert code == 2 and "o2" in err and message in err and "Traceback" not in err
    run = load_json("runs/orders-dev-v2.json")
    for c in run["results"][0]["checks"]:
        c.pop("weight", None)
    code, out, err = cli("report", write_run("runs/edited.json", run))
    assert code == 2 and 'pass_threshold needs at least one check with a "weight"' in err


def test_an_integer_too_long_for_a_float_is_refused_not_a_crash(tmp_path, project, cli, weighted_set):
    """From the attack on issue 16: 1 followed by 400 zeros overflowed the finite-number test."""
    huge = "1" + "0" * 400
    for written in ('{"type": "contains", "value": "x", "weight": %s}' % huge,):
        (tmp_path / "s.jsonl").write_text('{"id": "a", "input": "x", "difficulty": "easy", "note": "n", "checks": [%s]}\n' % written)
        with pytest.raises(evalpy.EvalError, match="s.jsonl:1: .*weight must be a positive number, not 1000"):
            evalpy.load_split(str(tmp_path / "s.jsonl"))
    (tmp_path / "s.jsonl").write_text('{"id": "a", "input": "x", "difficulty": "easy", "note": "n", "pass_threshold": %s, '
                                      '"checks": [{"type": "contains", "value": "x", "weight": 1}]}\n' % huge)
    with pytest.raises(evalpy.EvalError, match="s.jsonl:1: pass_threshold must be a number above 0"):
        evalpy.load_split(str(tmp_path / "s.jsonl"))
    (tmp_path / "checks.json").write_text('{"pass_threshold": %s, "checks": []}' % huge)
    with pytest.raises(evalpy.EvalError, match="checks.json:1: pass_threshold must be"):
        evalpy.load_split(str(tmp_path / "s.jsonl"))
    path = support_run(weighted_set)
    text = Path(path).read_text(encoding="utf-8")
    for edited in (text.replace('"weight": 2', '"weight": ' + huge, 1),
                   text.replace('"pass_threshold": 0.7', '"pass_threshold": ' + huge, 1)):
        Path("runs/huge.json").write_text(edited, encoding="utf-8")
        code, out, err = cli("report", "runs/huge.json")
        assert code == 2 and "not a valid run file" in err and "Traceback" not in err
        code, out, err = cli("runs", "runs")
        assert code == 0 and "huge.json" in out and "Traceback" not in err


def test_report_case_scores_with_the_checks_it_is_given(weighted_set, project, cli, fake):
    """From the attack on issue 16: --case ignored --checks and showed the stored verdict."""
    fake.default_answer = lambda text: "Hola, su pedido " + text.split("pedido ")[1].rstrip("?") + " sale hoy."
    assert cli("run", "--split", weighted_set, "--host", fake.url)[0] == 0
    assert "Case o1 (easy) passes" in cli("report", "runs/orders-dev-v2.json", "--case", "o1")[1]
    checks = json.loads((project / "golden" / "orders" / "checks.json").read_text())
    checks["checks"].append({"name": "tiny", "type": "icontains", "value": "zzz", "weight": 10})
    (project / "golden" / "orders" / "checks.json").write_text(json.dumps(checks))
    code, out, err = cli("report", "runs/orders-dev-v2.json", "--case", "o1", "--checks", weighted_set)
    assert code == 0 and "Case o1 (easy) fails" in out and "tiny fail" in out
    assert "scored with the checks golden/orders/dev.jsonl defines now" in err
    code, out, err = cli("report", "runs/orders-dev-v2.json", "--case", "o1", "--checks", "golden/dev.jsonl")
    assert code == 2 and "--checks golden/dev.jsonl: it lacks 4 of the run's cases" in err


def test_report_case_holds_to_the_whole_reports_rules_and_names_its_checks(weighted_set, project, cli, fake):
    """From the attack after issue 16: --case --checks took a split with other cases as long as it
    had the one asked for, its --json did not say which checks scored it, and a judge's verdict
    printed as True/None."""
    fake.default_answer = lambda text: "Hola, su pedido " + text.split("pedido ")[1].rstrip("?") + " sale hoy."
    assert cli("run", "--split", weighted_set, "--host", fake.url)[0] == 0
    run = "runs/orders-dev-v2.json"
    for checks in ((), ("--checks", weighted_set)):
        whole = json.loads(cli("report", run, "--json", *checks)[1])
        one = json.loads(cli("report", run, "--case", "o2", "--json", *checks)[1])
        assert (one["checks_from"], one["checks_sha"]) == (whole["checks_from"], whole["checks_sha"])
        text = cli("report", run, "--case", "o2", *checks)[1]
        assert f"Scored with checks sha {whole['checks_sha'][:8]} from {whole['checks_from']}" in text
    fewer = project / "golden" / "orders" / "fewer.jsonl"
    fewer.write_text("".join(line + "\n" for line in (project / "golden" / "orders" / "dev.jsonl").read_text().splitlines()[:2]))
    code, out, err = cli("report", run, "--case", "o1", "--checks", str(fewer))
    assert code == 2 and "it lacks 2 of the run's cases (o3, o4)" in err and out == ""
    code, out, err = cli("report", run, "--case", "o9", "--checks", weighted_set)
    assert code == 2 and f"no case 'o9' in {run}" in err, err


def test_report_case_says_a_judges_verdict_in_words(project, cli):
    check = [{"name": "helps", "type": "judge", "value": "c", "blocking": True}]
    votes = [{"check": "helps", "model": "m", "vote": v, "seed": 42, "pass": ok, "reason": why, "raw": "x",
              "error": None, "prompt_tokens": 1, "completion_tokens": 1}
             for v, ok, why in ((1, True, "fine"), (2, False, "vague"), (3, None, None))]
    write_run("runs/j.json", make_run([{"id": "c1", "response": "r", "checks": check, "judges": votes}], labels=None))
    out = cli("report", "runs/j.json", "--case", "c1")[1]
    assert "judge m on 'helps': pass (fine)" in out and "judge m on 'helps': fail (vague)" in out
    assert "judge m on 'helps': no verdict; it answered: x\n" in out and "()" not in out and "True" not in out \
        and "None" not in out   # (74th) what it answered, for the person asked to decide


def test_a_failing_score_never_shows_as_its_threshold(free_text, project, cli):
    """From the attack on issue 16: 2 of 3 at threshold 0.67 read '0.67  0.67' beside 'fail'."""
    (project / "golden" / "orders" / "checks.json").write_text(json.dumps({"pass_threshold": 0.67, "checks": [
        {"type": "contains", "value": "sale hoy", "weight": 1}, {"type": "contains", "value": "Hola", "weight": 1},
        {"type": "contains", "value": "zzz", "weight": 1}]}))
    out = cli("report", support_run(free_text))[1]
    assert "  o1  fail     0.667  0.67 " in out, out   # (111th round: to the places that keep it under its threshold)
    # attack 41: report --case showed the same score as "weighted score 0.67 (passes at 0.67)" beside a failure
    case = cli("report", support_run(free_text), "--case", "o1")[1]
    assert "weighted score 0.667 (passes at 0.67)" in case, case
    # (111th round's newcomer) thresholds are shown as written: 0.6667 and 0.666 read "(0.67 to 0.67)", a range of
    # one value, and each case's threshold 0.67
    lines = (project / "golden" / "orders" / "dev.jsonl").read_text(encoding="utf-8").splitlines()
    (project / "golden" / "orders" / "dev.jsonl").write_text("".join(json.dumps(dict(json.loads(l), pass_threshold=
        0.6667 if i % 2 else 0.666), ensure_ascii=False) + "\n" for i, l in enumerate(lines)), encoding="utf-8")
    out = cli("report", support_run(free_text))[1]
    assert "pass_threshold (0.666 to 0.6667)" in out and "  o1  pass     0.67     0.666 " in out, out
    assert "  o2  fail     0.66667  0.6667 " in out, out
    # (its review) 0.30000000000000004 beside 0.3 read "0.3" twice; a passing 0.6645 read 0.66 beside 0.661
    (project / "golden" / "orders" / "checks.json").write_text(json.dumps({"checks": [
        {"type": "contains", "value": "sale hoy", "weight": 0.6645}, {"type": "contains", "value": "zzz", "weight": 0.3355}]}))
    (project / "golden" / "orders" / "dev.jsonl").write_text("".join(json.dumps(dict(json.loads(l), pass_threshold=
        [0.6645000000000001, 0.6645, 0.661, 0.661][i]), ensure_ascii=False) + "\n" for i, l in enumerate(lines)), encoding="utf-8")
    out = cli("report", support_run(free_text))[1]
    assert "pass_threshold (0.661 to 0.6645000000000001)" in out, out
    assert "  o1  fail     0.66    0.6645000000000001 " in out and "  o2  pass     0.6645  0.6645 " in out, out
    assert "  o3  pass     0.664   0.661 " in out, out   # (as many places as show it reaches its threshold)
    assert "weighted score 0.664 (passes at 0.661)" in cli("report", support_run(free_text), "--case", "o3")[1]
    # (its review) with trials, a mean of 0.95 above 0.9 read "just under 0.9" (a trial short of it was enough); a range
    # a judge left open was rounded to one figure on the wrong side (0.664–0.6645 beside 0.6642 read 0.66)
    text = lambda low, high, threshold: evalpy.score_text({"score": low, "score_high": high, "threshold": threshold})
    assert (text(0.95, 0.95, 0.9), text(2 / 3, 2 / 3, 0.6), text(0.6, 0.6645, 0.661), text(0.664, 0.6645, 0.6642)) == \
        ("0.95", "0.67", "0.6–0.664", "0.66–0.6645")
    assert (evalpy.fmt_threshold(0.00001), evalpy.fmt_threshold(1.0), evalpy.fmt_threshold(0.30000000000000004)) == \
        ("0.00001", "1.0", "0.30000000000000004")
    # (its review) the side read exactly, as the verdict is: 7/11 is under 0.6363636363636364, its float; a mean of
    # three 7/10 is 7/10, never 0.6999999999999998 below 0.7; 1e-300 is no 302-character number
    from fractions import Fraction
    assert text(Fraction(7, 11), Fraction(7, 11), 0.6363636363636364) == "0.636"
    # (its review) 13/15 under 0.8666666666666667, its float, read "0.8666666666666667" beside it: no rounding to the
    # nearest shows it under, one rounded down does; and report --case read a trial's score as its float
    assert text(Fraction(13, 15), Fraction(13, 15), 0.8666666666666667) == "0.86666666666666667"
    share = evalpy.ExactShare(Fraction(7, 11))
    assert text(share, share, 0.6363636363636364) == "0.636"
    # (its review) a tiny score at its size, a score reaching its threshold exactly as its digits, weights as written
    assert text(Fraction(2, 10 ** 40), Fraction(2, 10 ** 40), 1e-40) == "2e-40"
    assert text(evalpy.exact(0.6666666666666666), evalpy.exact(0.6666666666666666), 0.6666666666666666) == "0.6666666666666666"
    assert evalpy.role({"weight": 0.3333333333333334, "blocking": False}) == "weight 0.3333333333333334"
    assert evalpy.fmt_threshold(1e-300) == "1e-300"
    lines = (project / "golden" / "orders" / "dev.jsonl").read_text(encoding="utf-8").splitlines()
    (project / "golden" / "orders" / "checks.json").write_text(json.dumps({"pass_threshold": 0.7, "checks": [
        {"type": "contains", "value": "sale hoy", "weight": 0.1}, {"type": "contains", "value": "Hola", "weight": 0.2},
        {"type": "contains", "value": "pedido", "weight": 0.4}, {"type": "contains", "value": "zzz", "weight": 0.3}]}))
    (project / "golden" / "orders" / "dev.jsonl").write_text("".join(json.dumps({k: v for k, v in json.loads(l).items()
        if k != "pass_threshold"}, ensure_ascii=False) + "\n" for l in lines), encoding="utf-8")
    path = support_run(free_text, repeat=3)
    out = cli("report", path)[1]
    assert "  o1  pass     0.7    0.7 " in out and "the mean of its trials', beside the verdict of their majority" in out, out
    (project / "golden" / "orders" / "checks.json").write_text(json.dumps({"pass_threshold": 0.6363636363636364, "checks": [
        {"type": "contains", "value": "sale hoy", "weight": 7}, {"type": "contains", "value": "zzz", "weight": 4}]}))
    path = support_run(free_text)
    assert "  o1  fail     0.636  0.6363636363636364 " in cli("report", path)[1]
    assert "weighted score 0.636 (passes at 0.6363636363636364)" in cli("report", path, "--case", "o1")[1]


# -- the trajectory of an agent (issue 29) ---------------------------------------------------------

TOOLS = [{"type": "function", "function": {"name": "lookup_order", "parameters": {
             "type": "object", "required": ["order_id"], "properties": {"order_id": {"type": "string"}}}}},
         {"type": "function", "function": {"name": "lookup_policy", "parameters": {"type": "object"}}},
         {"type": "function", "function": {"name": "cancel_order", "parameters": {"type": "object"}}}]


def agent_result(*calls):
    """A stored agent answer whose transcript made these calls, one turn each: (name, arguments) where
    arguments are an object (as Ollama sends them) or a JSON string (as OpenAI does)."""
    transcript = []
    for i, (name, arguments) in enumerate(calls):
        transcript += [{"role": "assistant", "content": "", "tool_calls": [{"id": None, "name": name, "arguments": arguments}]},
                       {"role": "tool", "name": name, "call_id": f"call_{i}", "content": "{}", "matched": True}]
    transcript.append({"role": "assistant", "content": "Hecho."})
    figures = {"latency_ms": 60.0, "prompt_tokens": 16, "completion_tokens": 1, "done_reason": "stop", "attempts": 1}
    return {"response": "Hecho.", "tools": TOOLS, "transcript": transcript, "out_of_turns": False,   # (as eval.py keeps it:
            "per_turn": [figures] * (len(calls) + 1)}                                                # a figure per turn)


LOOK = ("lookup_order", {"order_id": "A-1", "verbose": True})
LOOK_JSON = ("lookup_order", '{"order_id": "A-1"}')
POLICY = ("lookup_policy", {"topic": "devoluciones"})
CANCEL = ("cancel_order", {"order_id": "A-1"})


@pytest.mark.parametrize("c, passing, failing", [
    (check("tool_called", "lookup_order"), [LOOK], [POLICY]),
    (check("tool_called", "lookup_order", arguments={"order_id": "A-1"}), [POLICY, LOOK], [("lookup_order", {"order_id": "A-2"})]),
    (check("tool_called", "lookup_order", arguments={"order_id": "A-1"}), [LOOK_JSON], [("lookup_order", "{not json")]),
    (check("tool_called", "lookup_order", arguments={"verbose": 1}), [("lookup_order", {"verbose": 1})], [LOOK]),
    # inside lists as well (the fourth attack on issue 28, item 2): element by element, true is not 1
    (check("tool_called", "lookup_order", arguments={"flags": [True]}), [("lookup_order", {"flags": [True]})],
     [("lookup_order", {"flags": [1]})]),
    (check("tool_called", "lookup_order", arguments={"flags": [False]}), [("lookup_order", '{"flags": [false]}')],
     [("lookup_order", '{"flags": [0]}')]),
    (check("tool_called", "lookup_order", arguments={"lines": [{"gift": True}, [1]]}),
     [("lookup_order", {"lines": [{"gift": True}, [1.0]]})], [("lookup_order", {"lines": [{"gift": 1}, [1]]})]),
    (check("tool_called", "lookup_order", arguments={"lines": [[True]]}), [("lookup_order", {"lines": [[True]]})],
     [("lookup_order", {"lines": [[1]]})]),
    # a key given twice in an OpenAI arguments string is not one value or the other (fourth attack, 9c)
    (check("tool_called", "lookup_order", arguments={"order_id": "A-1"}), [LOOK_JSON],
     [("lookup_order", '{"order_id": "A-2", "order_id": "A-1"}')]),
    (check("tool_args_valid"), [LOOK_JSON], [("lookup_order", '{"order_id": "A-1", "order_id": "A-1"}')]),
    (check("tool_args_valid"), [LOOK_JSON], [("lookup_order", '{"order_id": "A-1", "n": NaN}')]),
    (check("tool_not_called", "cancel_order"), [LOOK, POLICY], [LOOK, CANCEL]),
    (check("tool_order", ["lookup_order", "cancel_order"]), [LOOK, POLICY, CANCEL], [CANCEL, LOOK]),
    (check("tool_order", ["lookup_order", "lookup_order"]), [LOOK, POLICY, LOOK], [LOOK, POLICY]),
    (check("max_tool_calls", 2), [LOOK, POLICY], [LOOK, LOOK, POLICY]),
    (check("max_tool_calls", 0), [], [POLICY]),
    (check("tool_args_valid"), [LOOK, LOOK_JSON, POLICY], [("lookup_order", {"id": "A-1"})]),
    (check("tool_args_valid"), [LOOK], [("lookup_order", {"order_id": 1})]),
    (check("tool_args_valid"), [LOOK], [("lookup_order", "[1]")]),
    (check("tool_args_valid"), [LOOK], [("refund", {})]),
])
def test_each_trajectory_check_passes_and_fails(c, passing, failing):
    evaluate = evalpy.CHECK_TYPES[c["type"]].evaluate
    assert evaluate(c, agent_result(*passing), graded()) is True
    assert evaluate(c, agent_result(*failing), graded()) is False


def test_trajectory_checks_score_a_stored_run_and_the_report_names_them(project, cli):
    checks = [check("tool_called", "lookup_order", arguments={"order_id": "A-1"}), check("tool_not_called", "cancel_order"),
              check("contains", "Hecho")]
    good = dict(agent_result(LOOK), id="good", checks=checks)
    bad = dict(agent_result(LOOK, CANCEL), id="bad", checks=checks)
    write_run("runs/agent.json", make_run([good, bad], labels=None, max_turns=8))
    code, out, err = cli("report", "runs/agent.json", "--json")
    assert code == 0, err
    rows = {c["name"]: c for c in json.loads(out)["checks"]}
    assert rows["tool_not_called cancel_order"]["passed"] == 1 and rows["tool_not_called cancel_order"]["total"] == 2
    assert rows['tool_called lookup_order {"order_id": "A-1"}']["passed"] == 2
    text = cli("report", "runs/agent.json")[1]
    trajectory = text.split("Trajectory checks (", 1)[1].split("\n\n", 1)[0]
    assert re.search(r"tool_not_called cancel_order +tool_not_called +blocking +1/2 = 50%", trajectory), trajectory
    assert "contains Hecho" not in trajectory


def test_a_stored_transcript_that_is_not_one_is_refused_by_report(project, cli):
    r = dict(agent_result(LOOK), id="a", checks=[check("max_tool_calls", 1)])
    r["transcript"][1]["matched"] = "yes"
    write_run("runs/agent.json", make_run([r], labels=None))
    code, out, err = cli("report", "runs/agent.json")
    assert code == 2 and "result a: transcript message 2: a tool message has a name, a call_id (a string, or null), a content and matched" in err


def test_a_call_whose_arguments_give_a_key_twice_is_said_to_be_so():
    call = {"name": "lookup_order", "arguments": '{"order_id": "A-2", "order_id": "A-1"}'}
    assert evalpy.call_arguments(call) is None
    assert evalpy.call_problem(call, TOOLS) == "its arguments are not a JSON object: key 'order_id' is given twice"
    assert evalpy.call_problem(dict(call, arguments="[1]"), TOOLS) == "its arguments are not a JSON object: they are a list"
    # (120th round's review) JSON written inside a string, encoded twice, is said so; a cut one has no "at at"
    assert evalpy.call_problem(dict(call, arguments=json.dumps(json.dumps({"order_id": "A-1"}))), TOOLS) == (
        "its arguments are not a JSON object: they are a string holding JSON (encoded twice)")
    assert evalpy.call_problem(dict(call, arguments='{"order_id": "A'), TOOLS) == (
        "its arguments are not a JSON object: not JSON (unterminated string starting at character 14)")
    # (its review) a list encoded twice is said so; a string of no JSON is a string; blank ones are empty
    assert evalpy.call_problem(dict(call, arguments=json.dumps(json.dumps([{"order_id": "A-1"}]))), TOOLS).endswith(
        "they are a string holding JSON (encoded twice)")
    assert evalpy.call_problem(dict(call, arguments='"{broken"'), TOOLS).endswith(": they are a string")
    assert evalpy.call_problem(dict(call, arguments=" "), TOOLS).endswith(": they are empty")


@pytest.mark.parametrize("message, calls", [(0, True), (0, 3.5), (0, 7), (0, "lookup_order"), (0, None),
                                           (0, {"name": "lookup_order"}), (1, True), (2, False)])
def test_tool_calls_that_are_not_a_list_are_refused_by_report_in_one_line(project, cli, message, calls):
    """From the fourth attack on issue 28, item 6: a transcript message whose tool_calls was true or a
    number was iterated before its type was looked at: TypeError, exit 1, in every view of the run."""
    r = dict(agent_result(LOOK), id="a", checks=[check("max_tool_calls", 1)])
    r["transcript"][message]["tool_calls"] = calls
    write_run("runs/agent.json", make_run([r], labels=None))
    for argv in ((), ("--json",), ("--case", "a")):
        code, out, err = cli("report", "runs/agent.json", *argv)
        assert code == 2 and err.count("\n") == 1, err
        assert f"result a: transcript message {message + 1}: tool_calls must be a list" in err, err


def test_report_checks_refuses_trajectory_checks_written_for_tools_the_run_never_had(project, cli):
    """report --checks validates a split's trajectory checks against the split's tools; scored against a
    run whose model was offered other tools (renamed, or none at all) they would judge a path it could
    not take: a tool_not_called of a tool it never had passes every case. Refused, naming the case."""
    from conftest import AGENT_TOOLS, agent_run
    run = write_run("runs/agent.json", agent_run())
    folder = project / "golden" / "agent-now"
    folder.mkdir(parents=True)
    renamed = [AGENT_TOOLS[0], {"type": "function", "function": {"name": "erase_order", "parameters": {"type": "object"}}}]

    def split(name, tools, checks):
        lines = [{"id": f"a{i}", "input": f"pedido a{i}", "difficulty": "easy", "note": "n", **({"tools": tools} if tools is not None else {}), "checks": checks}
                 for i in range(1, 5)]
        (folder / name).write_text("".join(json.dumps(l) + "\n" for l in lines), encoding="utf-8")
        return f"golden/agent-now/{name}"

    erase = split("renamed.jsonl", renamed, [{"type": "tool_not_called", "value": "erase_order"}])
    code, out, err = cli("report", run, "--checks", erase)
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert err.startswith(f"error: --checks {erase}: case a1: its trajectory checks are written for the tools ") \
        and "lookup_order, erase_order" in err and "lookup_order, cancel_order" in err, err
    code, out, err = cli("report", run, "--case", "a2", "--checks", erase)
    assert code == 2 and "case a1: its trajectory checks" in err, err   # the split does not fit the run
    # the same checks on the run's own tools are scored; a check on the final answer needs no tools
    same = split("same.jsonl", AGENT_TOOLS, [{"type": "tool_not_called", "value": "cancel_order"}])
    code, out, err = cli("report", run, "--checks", same)
    assert code == 0 and "Trajectory" in out and "3/4" in out, (out, err)
    plain = split("plain.jsonl", None, [{"type": "contains", "value": "enviado"}])
    assert cli("report", run, "--checks", plain)[0] == 0
    # a run whose model was offered no tool at all
    bare = write_run("runs/bare.json", make_run([{"id": f"a{i}", "input": f"pedido a{i}", "response": "enviado", "checks": [
        {"name": "says", "type": "contains", "value": "enviado", "blocking": True}]} for i in range(1, 5)], labels=None))
    code, out, err = cli("report", bare, "--checks", same)
    assert code == 2 and "but the run's model was offered other ones (none)" in err, err
    # the same names, defined otherwise (a description the model reads): not the tools it had either
    described = [dict(AGENT_TOOLS[0], function=dict(AGENT_TOOLS[0]["function"], description="Busca un pedido")), AGENT_TOOLS[1]]
    code, out, err = cli("report", run, "--checks", split("described.jsonl", described, [{"type": "tool_args_valid"}]))
    assert code == 2 and "was offered other definitions of them (lookup_order, cancel_order)" in err, err


def test_report_checks_rescores_a_run_with_a_split_that_gained_a_case(weighted_set, project, cli, fake):
    """Round 103 (a newcomer's own set): after adding a case to the split, report --checks refused every older run
    ("its cases are not the run's (dev-09 on one side only)"), though the README asks the split to hold the run's
    cases: it does, and the case added was never asked. Rescored, and the case left out is named."""
    fake.default_answer = lambda text: "Hola, su pedido " + text.split("pedido ")[1].rstrip("?") + " sale hoy."
    assert cli("run", "--split", weighted_set, "--host", fake.url, "--out", "runs/whole.json")[0] == 0
    with open(weighted_set, "a") as f:
        f.write(json.dumps({"id": "o9", "input": "¿Dónde está mi pedido X-9?", "vars": {"order": "X-9", "name": "Eva"},
                            "difficulty": "easy", "note": "added"}) + "\n")
    code, out, err = cli("report", "runs/whole.json", "--json", "--checks", weighted_set)
    assert code == 0 and json.loads(out)["cases"] == 4, err
    assert "its 1 case the run did not ask (o9) left out" in err, err
    # (round 105) named in every view, not on stderr alone (a CI reading --json or posting the markdown never saw it)
    assert json.loads(out)["checks_left_out"] == ["o9"]
    said = "not those stored in the run; its 1 case the run did not ask (o9) left out"
    assert said in cli("report", "runs/whole.json", "--markdown", "--checks", weighted_set)[1]
    assert "from " + weighted_set + "; its 1 case the run did not ask (o9) left out" in cli(
        "report", "runs/whole.json", "--checks", weighted_set)[1]
    assert cli("report", "runs/whole.json", "--checks", weighted_set, "--html", "w.html")[0] == 0
    assert said in Path("w.html").read_text(encoding="utf-8")
    assert json.loads(cli("report", "runs/whole.json", "--json")[1])["checks_left_out"] == []


@pytest.mark.parametrize("quick", [["--limit", "2"], ["--cases", "o3,o1"]])
def test_report_checks_scores_a_partial_run_on_the_cases_it_asked(weighted_set, project, cli, fake, quick):
    """From the fourth attack on issue 28, item 9b: every partial run (--limit, --cases) was refused
    by report --checks with "its cases are not the run's": the split has the cases not asked."""
    fake.default_answer = lambda text: "Hola, su pedido " + text.split("pedido ")[1].rstrip("?") + " sale hoy."
    assert cli("run", "--split", weighted_set, "--host", fake.url, *quick, "--out", "runs/part.json")[0] == 0
    plain = json.loads(cli("report", "runs/part.json", "--json")[1])
    code, out, err = cli("report", "runs/part.json", "--json", "--checks", weighted_set)
    assert code == 0, err
    rescored = json.loads(out)
    assert rescored["cases"] == plain["cases"] == 2 and rescored["correct"] == plain["correct"]
    assert rescored["checks_from"] == "golden/orders/dev.jsonl"
    code, out, err = cli("report", "runs/part.json", "--case", "o1", "--checks", weighted_set)
    assert code == 0 and "Case o1" in out, err
    fewer = project / "golden" / "orders" / "fewer.jsonl"   # a split without a case the run asked: still refused
    lines = (project / "golden" / "orders" / "dev.jsonl").read_text().splitlines()
    fewer.write_text("".join(line + "\n" for line in lines if '"o1"' not in line))
    code, out, err = cli("report", "runs/part.json", "--checks", str(fewer))
    assert code == 2 and "it lacks 1 of the run's cases (o1)" in err, err


def test_report_checks_that_is_not_a_split_is_named_as_checks(hand_run, cli):
    """Item 9b: a --checks path not ending in .jsonl was refused as `--split '…'`, a flag report has not."""
    code, out, err = cli("report", hand_run, "--checks", "golden/dev.txt")
    assert code == 2 and "--checks 'golden/dev.txt'" in err and "--split" not in err, err


def test_a_pattern_read_for_always_found_never_raises_nor_reads_its_groups_again():
    """Round 105's review: 400 nested alternations ((?:b|(?:b|...)), which Python compiles) raised RecursionError from
    the load; and each backreference worked its group out again, so (a?)(\\1\\1)(\\2\\2)... of 21 groups took 17 s."""
    import time
    chained = "(a?)" + "".join(f"(\\{i}\\{i})" for i in range(1, 20))
    started = time.monotonic()
    assert evalpy.matches_any_answer(chained) is True   # every group can be nothing: so is the whole
    assert time.monotonic() - started < 1   # (once each: milliseconds; again each time, 2.5 s here, tripling a group)
    deep = "(?:b|" * 400 + ")" * 400
    assert evalpy.filled_check_problems({"name": "c", "type": "regex", "value": deep}, None, case={"id": "1"}) == []


def test_a_pattern_pythons_re_fails_on_stops_the_report_in_one_line(project, cli):
    """Round 105's review: Python 3.11's re raises SystemError ("The span of capturing group is wrong") searching some
    possessive repeats of a group; x(?:(a).$|)++ on "xab" ended report in a traceback. It is one line naming the
    check and the case, as a pattern that backtracks past its time is."""
    check = {"name": "odd", "type": "regex", "value": "x(?:(a).$|)++", "blocking": True}
    path = write_run("runs/odd.json", make_run([{"id": "c1", "response": "xab", "checks": [check]}], labels=None))
    code, out, err = cli("report", path)
    if sys.version_info[:2] == (3, 11):   # (the fault is 3.11's)
        assert code == 2 and err.startswith("error: runs/odd.json: check 'odd': Python's re failed searching the answer to c1 "
                                            "(SystemError: The span of capturing group is wrong"), err
        assert len(err.splitlines()) == 1 and "Traceback" not in err
    else:
        assert code in (0, 1) and "Traceback" not in err


def test_a_shared_pattern_with_a_placeholder_is_judged_by_what_it_can_be_filled_with(free_text, project, cli):
    """Round 106: checks.json's \\\\{{who}} was "bad regular expression: incomplete escape \\\\x" (its placeholder tried as
    x, never written), not the backslash's own words a case's check gets; [{{who}}-a] was "bad character range x-a",
    though who = Ana fills it as a good one."""
    Path("golden/orders/checks.json").write_text(json.dumps([{"name": "who", "type": "regex", "value": "\\{{who}}"}]),
                                                 encoding="utf-8")
    code, out, err = cli("run", "--split", "golden/orders/dev.jsonl", "--host", "127.0.0.1:9")
    assert code == 2 and "placeholder follows a backslash" in err and "\\x" not in err, err
    for value in ("[{{order}}-a]", "[a-{{order}}]"):
        Path("golden/orders/checks.json").write_text(json.dumps([{"name": "who", "type": "regex", "value": value}]),
                                                     encoding="utf-8")
        code, out, err = cli("run", "--split", "golden/orders/dev.jsonl", "--host", "127.0.0.1:9")
        # refused by the cases it is filled for, never as the file's own fault (round 107: said to come from there)
        assert "checks.json:" not in err and ("(from checks.json, which gives it to every case)" in err
                                              or "cannot reach the model server" in err), err
    Path("golden/orders/checks.json").write_text(json.dumps([{"name": "who", "type": "regex", "value": "({{order}}"}]),
                                                 encoding="utf-8")
    code, out, err = cli("run", "--split", "golden/orders/dev.jsonl", "--host", "127.0.0.1:9")
    assert code == 2 and err.startswith("error: golden/orders/checks.json:1: check 1: bad regular expression"), err
    # (round 110's newcomer) a pattern found in every answer is the file's fault too: named by its line, as the others
    Path("golden/orders/checks.json").write_text(json.dumps([{"name": "who", "type": "contains", "value": "a"},
                                                             {"name": "nobad", "type": "not_regex", "value": "x|"}], indent=1),
                                                 encoding="utf-8")
    code, out, err = cli("run", "--split", "golden/orders/dev.jsonl", "--host", "127.0.0.1:9")
    assert code == 2 and err == ("error: golden/orders/checks.json:7: check 2: 'nobad': its pattern is found in every "
                                 "answer, even an empty one (|, ^, a*), so the check can never pass\n"), err


def test_a_weighted_case_left_undecided_by_a_failed_call_reads_error_not_open(weighted_set, project, cli, fake):
    """Round 106: a case whose call failed stood as "open" in the weighted score table, the word for a judge check
    still undecided; it is an error, as JSON's correct null and the Errors line say."""
    fake.default_answer = lambda text: "Hola, su pedido " + text.split("pedido ")[1].rstrip("?") + " sale hoy."
    o2 = next(json.loads(line)["input"] for line in Path(weighted_set).read_text(encoding="utf-8").splitlines()
              if json.loads(line)["id"] == "o2")
    fake.faults_for[o2] = ["500"] * 5
    code, out, err = cli("run", "--split", weighted_set, "--host", fake.url, "--retries", 0)
    assert code == 2, err
    lines = [line.rstrip() for line in out.splitlines()]
    start = lines.index("Weighted score per case (the share of the weighed checks' weight that passed):")
    assert "  o2  error    -      0.7" in lines[start + 1:start + 6], lines[start:start + 6]


def test_the_markdown_keeps_each_doubtful_verdicts_check_and_reason_and_a_judge_checks_open_count(project, cli):
    """Round 106: the markdown cut each doubtful verdict whole at 120 characters, so a long id took its check and its
    reason ("LLLL…"); and a judge check's row said "9/9 = 100%" without the 8 answers it left open."""
    import shutil
    shutil.copy(ROOT / "runs" / "example" / "support-dev-v1-judged.json", "run.json")
    run = load_json("run.json")
    long_id = "L" * 400
    # (renamed in the split too, and the run pointed at it: an id its split lacks is an edit, refused as read)
    split = Path("golden/support/dev.jsonl")
    split.write_text(split.read_text(encoding="utf-8").replace(json.dumps(run["results"][0]["id"]), json.dumps(long_id), 1),
                     encoding="utf-8")
    run["config"]["split_sha"] = evalpy.load_split(str(split))[2]
    assert long_id in evalpy.recorded_checks(str(split), run["config"]["split_sha"])[0]   # the run is held to it
    for r in run["results"]:
        if r["id"] == run["results"][0]["id"]:
            r["id"] = long_id
    for r in run["results"][:2]:
        r["judges"][0].update({"pass": None, "reason": None, "raw": None, "error": "HTTP 500: boom",
                               "prompt_tokens": None, "completion_tokens": None})
    Path("run.json").write_text(json.dumps(run), encoding="utf-8")
    text, markdown = cli("report", "run.json")[1], cli("report", "run.json", "--markdown")[1]
    entry = markdown.split("**Doubtful verdicts, for a person to check (")[1].split(":** ", 1)[1]
    assert entry.startswith("L" * 50) and "… · answers the question: low certainty" in entry.split("\n")[0], entry
    # (its review) a long id cut alone keeps its trial apart
    row = {"id": long_id, "trial": 2, "check": "helps", "why": "low certainty (0.67)"}
    assert evalpy.doubtful_line(row, 3, 60) == "L" * 59 + "… trial 2 · helps: low certainty (0.67)"
    opened = re.search(r"answers the question\s+judge\s+\S+ \S+\s+(\d+/\d+ = \d+%)\s+(\d+) open", text)
    assert opened and f"{opened.group(1)}, {opened.group(2)} open |" in markdown, (text, markdown)


def test_a_named_checks_bad_value_names_the_check(free_text, project, cli):
    """Round 106's review: a value the check's type refuses was named by the type alone ("check 'icontains' needs a
    non-empty string value") of a check named "signs", two checks of one type told apart by nothing."""
    Path("golden/orders/checks.json").write_text(json.dumps([{"name": "signs", "type": "icontains", "value": ""}]),
                                                 encoding="utf-8")
    code, out, err = cli("run", "--split", "golden/orders/dev.jsonl", "--host", "127.0.0.1:9")
    assert code == 2 and "check 'signs': check 'icontains' needs a non-empty string value" in err, err


def test_a_labelled_run_rescored_with_a_split_without_labels_is_refused(project, cli, fake):
    """Round 106: report --checks with a copy of the split and no labels.txt dropped every case's label check: a wrong
    label passed, beside the label baseline and confusion matrix, and a gate read the new figure."""
    import shutil
    assert cli("run", "--split", "dev", "--host", fake.url, "--out", "runs/l.json")[0] in (0, 1)
    Path("g2").mkdir()
    shutil.copy("golden/dev.jsonl", "g2/dev.jsonl")
    Path("g2/checks.json").write_text(json.dumps([{"name": "has c", "type": "contains", "value": "c"}]), encoding="utf-8")
    code, out, err = cli("report", "runs/l.json", "--checks", "g2/dev.jsonl")
    assert code == 2 and out == "" and "is scored on its label in the run, and there it has no label check (no " \
                                       "labels.txt beside the split)" in err, err


def test_a_rag_checks_value_is_said_as_what_it_is():
    """Round 110: a context_relevant check's bad value was "the share of its score a passing answer reaches": it rates
    passages, and its value is the precision their ratings reach; a faithful check's, the share of claims supported."""
    for kind, meaning in (("context_relevant", "the context precision the judge's ratings of its passages reach to pass"),
                          ("faithful", "the share of its claims the passages support in a passing answer")):
        check, problems = evalpy.parse_check({"type": kind, "value": 1.5})
        assert problems == [f"check {kind!r}: value is {meaning}, a number above 0 and at most 1, not 1.5"], problems


def test_a_count_written_with_a_decimal_point_is_said_so(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    """Round 110's newcomer: max_tool_calls 2.0 was refused as "needs a whole number", which 2.0 reads as."""
    check, problems = evalpy.parse_check({"type": "max_tool_calls", "value": 2.0})
    assert problems == ["check 'max_tool_calls' needs a whole number of 0 or more as value, written as one: 2, without "
                        "a decimal point or an exponent"], problems
    # (111th round) 2e0 and 20e-1 read 2.0 too, and were told "not 2.0" of a file that holds no such text
    path = Path("checks.json")
    for written in ("2e0", "20e-1", "2.0"):
        path.write_text('[{"name": "c", "type": "max_tool_calls", "value": %s}]' % written, encoding="utf-8")
        with pytest.raises(evalpy.EvalError) as refused:
            evalpy.load_default_checks(str(path))
        assert "written as one: 2, without a decimal point or an exponent" in str(refused.value) \
            and "not 2.0" not in str(refused.value), str(refused.value)
    # (its review) none given is not "not null", and -1 is no decimal point's fault
    assert evalpy.parse_check({"type": "max_tool_calls"})[1] == ["check 'max_tool_calls' needs a whole number of 0 or more as value"]
    assert evalpy.parse_check({"type": "max_tool_calls", "value": -1})[1] == [
        "check 'max_tool_calls' needs a whole number of 0 or more as value, not a number below 0"]
    # (its review) -2e0 reads -2.0: no number below 0 is quoted, as none can be quoted as written
    assert evalpy.parse_check({"type": "max_tool_calls", "value": -2.0})[1] == [
        "check 'max_tool_calls' needs a whole number of 0 or more as value, not a number below 0"]


def test_a_compare_pages_per_check_table_says_it_counts_answers(free_text, project, cli, fake):
    """112th round: with trials, compare's page headed its per-check table "each case by its majority of trials",
    where a check's row counts answers, trial by trial (4/7 on 6 cases); said so."""
    fake.default_answer = "Su pedido A-101 sale hoy."
    assert cli("run", "--split", free_text, "--host", fake.url, "--repeat", "2", "--out", "runs/a.json")[0] in (0, 1)
    assert cli("run", "--split", free_text, "--host", fake.url, "--repeat", "2", "--out", "runs/b.json")[0] in (0, 1)
    code, out, err = cli("compare", "runs/a.json", "runs/b.json", "--html", "c.html")
    page = open("c.html", encoding="utf-8").read()
    assert code == 0 and "both runs decided, each answer of their trials)" in page, err
    assert "each case by its majority of trials)" in page.split("Per difficulty", 1)[1] and "Per check (" in page


def test_a_compare_page_of_a_run_of_before_matches_its_checks_named_filled(free_text, project, cli, fake):
    """112th round: a run of an eval.py before round 111 names a check as its vars fill it ("icontains Ana"); compared
    with a run of now ("icontains {{name}}"), the page's per-check table matched no name and was empty, unsaid."""
    folder = project / "golden" / "orders"
    checks = json.loads((folder / "checks.json").read_text())
    (folder / "checks.json").write_text(json.dumps(checks + [{"type": "icontains", "value": "{{name}}"}]))
    fake.default_answer = "Su pedido A-101 sale hoy."
    assert cli("run", "--split", free_text, "--host", fake.url, "--out", "runs/now.json")[0] in (0, 1)
    now = load_json("runs/now.json")
    def filled(r):
        return [dict(c, name=c["name"].replace("{{name}}", r["vars"]["name"])) for c in r["checks"]]
    before = dict(now, results=[dict(r, checks=filled(r)) for r in now["results"]])
    Path("runs/before.json").write_text(json.dumps(before), encoding="utf-8")
    code, out, err = cli("compare", "runs/before.json", "runs/now.json", "--html", "c.html")
    page = open("c.html", encoding="utf-8").read()
    assert code == 0 and "icontains {{name}}" in page.split("Per check", 1)[1].split("Per difficulty", 1)[0], err


def test_a_check_name_holding_a_comma_or_a_line_break_is_listed_as_one_name(weighted_set, project, cli, fake):
    """121st round: check names are joined with ", " in the lists that name them (the "Scored with" line, a
    failure's row, the weighted table, markdown, report --case): a failing "tone, no refund date" beside a passing
    "no refund date" read as both failing; and the weighted table's column made a space of a name's line break."""
    (project / "golden" / "orders" / "checks.json").write_text(json.dumps({"pass_threshold": 0.7, "checks": [
        {"name": "order\nnumber", "type": "regex", "value": "\\b{{order}}\\b", "weight": 2},
        {"name": "greets", "type": "icontains", "value": "hola", "weight": 1},
        {"name": "tone, no refund date", "type": "regex", "value": "never said"},
        {"name": "no refund date", "type": "not_regex", "value": "(?i)reembolso"}]}))
    fake.default_answer = lambda text: "Su pedido sale hoy."
    code, out, err = cli("run", "--split", weighted_set, "--host", fake.url)
    assert code == 0, err
    lines = out.splitlines()
    assert 'Scored with 4 checks ("order\\nnumber", greets, "tone, no refund date", no refund date; checks sha' in out
    failed = '"order\\nnumber", greets, "tone, no refund date"'
    assert any(line.startswith("  o1 ") and failed in line for line in lines), out
    start = lines.index("Weighted score per case (the share of the weighed checks' weight that passed):")
    assert lines[start + 2].rstrip().endswith('0.7        greets, "order\\nnumber"'), lines[start + 2]
    markdown = cli("report", "runs/orders-dev-v2.json", "--markdown")[1]
    assert 'failed "order\\\\nnumber", greets, "tone, no refund date")' in markdown, markdown
    case = cli("report", "runs/orders-dev-v2.json", "--case", "o1")[1]
    assert '("order\\nnumber" fail, greets fail, "tone, no refund date" fail, no refund date pass)' in case, case
    page = cli("report", "runs/orders-dev-v2.json", "--html", str(project / "r.html"))
    assert page[0] == 0 and "greets, &quot;order\\nnumber&quot;</td>" in (project / "r.html").read_text(encoding="utf-8")
