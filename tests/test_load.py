"""Load: the split, its labels and the prompt, validated line by line and hashed before any model call."""

import errno
import hashlib
import json
import os
import shutil
import unicodedata
from pathlib import Path

import pytest

from conftest import (FORGED, FORGED_SHOWN, LABELS, ROOT, eval_cli, open_refused, evalpy, make_run, printed_lines, split_run, write_run,
                      write_two_runs)

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
    ('{"id": "x", "input": "unterminated\n', "s.jsonl:2: bad JSON: unterminated string starting at column 22"),
])
def test_each_kind_of_problem_is_reported_with_file_and_line(tmp_path, line, message):
    found = problems(write_split(tmp_path, [GOOD, line, dict(GOOD, id="c3")]))
    assert any(p.startswith(f"{tmp_path}/{message}") for p in found), found


def test_all_problems_are_reported_at_once(tmp_path):
    found = problems(write_split(tmp_path, ["{bad\n", GOOD, "\n", dict(GOOD, expected="x")]))
    # line 4: its label, and its id, line 2's (said at once, not once the label is fixed: N12)
    assert [p.split(": ")[0].rsplit(":", 1)[1] for p in found] == ["1", "3", "4", "4"]


def test_every_problem_of_a_split_and_its_prompt_is_reported_in_one_round(project, cli, fake):
    """Newcomer pass N12: a duplicate id on line 2 was reported only once line 1's unknown field was
    fixed, and a case without the vars.who the prompt uses only once its conversation was right. The
    README says every problem is reported at once: one refusal names them all."""
    Path("p.txt").write_text("Atiende a {{who}}.", encoding="utf-8")
    lines = [dict(GOOD, expeted="bug", vars={"who": "Ana"}), dict(GOOD, vars={"who": "Ana"}),
             {"id": "c3", "messages": [{"role": "user", "content": "hola"}, {"role": "assistant", "content": "sí"}],
              "expected": "bug", "difficulty": "easy", "note": "n"},
             dict(GOOD, id="c4", vars={"who": "Ana"})]
    Path("golden/mine.jsonl").write_text("".join(json.dumps(l) + "\n" for l in lines), encoding="utf-8")
    code, out, err = cli("run", "--split", "golden/mine.jsonl", "--prompt", "p.txt", "--host", fake.url)
    assert code == 2 and fake.chat_bodies == []
    said = err.removeprefix("error: ").splitlines()
    assert said[0].startswith("golden/mine.jsonl:1: unknown field 'expeted'"), err
    assert "golden/mine.jsonl:2: duplicate id 'c1' (first on line 1)" in said
    assert any(l.startswith("golden/mine.jsonl:3: ") and "user" in l for l in said), err
    assert "golden/mine.jsonl:3: p.txt uses {{who}} but this case has no vars.who" in said
    assert len(said) == 4, err


def test_a_var_no_placeholder_can_name_is_refused_where_it_is_written(tmp_path):
    """111th round's newcomer: vars {"order id": "A-9"} and a prompt, input or check writing {{order id}}: a space is in
    no placeholder's name, so it was sent as written, its value never, exit 0 without a word. Refused where written."""
    said = ("writes '{{order id}}', which no var fills: a placeholder's name begins with a letter or _ and holds letters, "
            "digits, _, - and characters past ASCII, never a space: rename vars.'order id'")
    path = write_split(tmp_path, [dict(GOOD, input="pedido {{ order id }}", vars={"order id": "A-9"})])
    assert problems(path) == [f"{path}:1: input {said.replace('{{order id}}', '{{ order id }}', 1)}"]
    path = write_split(tmp_path, [dict(GOOD, vars={"order id": "A-9"},
                                       checks=[{"name": "n", "type": "contains", "value": "{{order id}}"}])])
    assert problems(path) == [f"{path}:1: check 'n' {said}"]
    cases = evalpy.load_split(write_split(tmp_path, [dict(GOOD, vars={"order id": "A-9"})]))[0]
    assert evalpy.prompt_problems("p.txt", "Tu pedido {{order id}}.", str(tmp_path / "dev.jsonl"), cases) == [f"p.txt {said}"]
    # (its review) but a run begun before is resumed as it began: that eval.py sent it as written, and renamed, the split
    # is another, which no resume finishes
    assert evalpy.prompt_problems("p.txt", "Tu pedido {{order id}}.", str(tmp_path / "dev.jsonl"), cases, begun=True) == []


def test_a_placeholder_may_be_named_in_any_language_and_one_mistyped_is_refused(tmp_path):
    """Fifty-sixth attack on issue 28: only ASCII names were placeholders, so {{order-id}}, {{customer-name}} and
    {{año}} (a Spanish set's natural names) were sent as written, and checked for as written, though the case's
    vars held "order-id" and "año"; {{customer} was sent as written too. The run exited 0 without a word.
    (57th) Names in Devanagari or Thai, whose vowel signs are no letters to \\w, and año typed in NFD were still sent
    as written; and LaTeX, C or JSON text ({b}}, {{a},{b}}) was refused as a placeholder not closed: only a var's
    own name mistyped is."""
    nfd = "an\u0303o"
    case = dict(GOOD, input="Mi pedido {{order-id}} de {{ año }}, {{नाम}}, {{ชื่อ}}, {{" + nfd + "}}",
                vars={"order-id": "A-1", "año": 2024, "नाम": "Priya", "ชื่อ": "Somchai"},
                checks=[{"type": "contains", "value": "{{order-id}}"}])
    path = write_split(tmp_path, [case])
    cases, _, _ = evalpy.load_split(path)
    assert cases[0]["input"] == "Mi pedido A-1 de 2024, Priya, Somchai, 2024"
    assert [c["value"] for c in cases[0]["checks"] if c["type"] == "contains"] == ["A-1"]
    assert evalpy.prompt_problems("p.txt", "Atiende a {{customer-name}}.", path, cases) == [
        f"{path}:1: p.txt uses {{{{customer-name}}}} but this case has no vars.customer-name"]
    assert evalpy.prompt_problems("p.txt", "Atiende a {{" + nfd + "}} ({{नाम}}).", path, cases) == []
    for text, said in [("Hola {{customer}, ¿qué tal?", "'{{customer}'"), ("Hola {customer}} y {{x}}", "'{customer}}'")]:
        path = write_split(tmp_path, [dict(GOOD, input=text, vars={"customer": "Ana", "x": "y"})])
        assert problems(path) == [f"{path}:1: input writes {said}, a placeholder not closed as {{{{name}}}} is"], text
    path = write_split(tmp_path, [dict(GOOD, vars={"customer": "Ana"})])
    cases = evalpy.load_split(path)[0]
    assert evalpy.prompt_problems("p.txt", "Atiende a {{customer}.", path, cases) == [
        "p.txt writes '{{customer}', a placeholder not closed as {{name}} is"]
    path = write_split(tmp_path, [dict(GOOD, checks=[{"name": "n", "type": "contains", "value": "{{x}"}], vars={"x": "a"})])
    assert problems(path) == [f"{path}:1: check 'n' writes '{{{{x}}', a placeholder not closed as {{{{name}}}} is"]
    (tmp_path / "checks.json").write_text('[{"type": "regex", "value": "^{x}}"}]', encoding="utf-8")
    path = write_split(tmp_path, [dict(GOOD, vars={"x": "a"})])
    assert problems(path) == [f"{tmp_path}/checks.json: check 1: its value writes '{{x}}}}', a placeholder not closed "
                              "as {{name}} is"]
    (tmp_path / "checks.json").unlink()
    # (58th) a name holding a character shown as nothing is named escaped
    path = write_split(tmp_path, [dict(GOOD, input="hola {{customer\u200b}}", vars={"customer": "Ana"})])
    assert problems(path) == [f"{path}:1: input uses {{{{customer\\u200b}}}} but the case has no vars.customer\\u200b"]
    # (58th) two vars of one name in two Unicode forms: the input was filled with the last, in silence
    path = write_split(tmp_path, [dict(GOOD, input="year {{año}}", vars={"año": "2024", nfd: "1999"})])
    assert problems(path) == [f"{path}:1: field 'vars' gives the name {nfd!r} twice, written in two Unicode forms"]
    # JSON, LaTeX and C in a text are no placeholders, nor are a template language's own tags, unless a var is named
    text = ('{"a": {"b": 1}} {{#if x}} {{ }} {x} {{1}} $\\sqrt{\\frac{a}{b}}$ \\textbf{\\emph{total}} '
            'int m[2][1] = {{a},{b}}; {"label": {label}}')
    path = write_split(tmp_path, [dict(GOOD, input=text, vars={"x": "y"})])
    assert evalpy.load_split(path)[0][0]["input"] == text
    assert evalpy.prompt_problems("p.txt", text, path, evalpy.load_split(path)[0]) == []


def test_an_id_no_one_could_type_or_tell_apart_is_refused_with_its_line(tmp_path):   # joins_nothing
    """Fifty-sixth attack on issue 28: "c1" and "c1 " were two cases; `run --cases 'c1 '` ran c1 (the space trimmed,
    as every --cases id is), the other could never be chosen, and `report` listed both as c1. An id written in
    another Unicode form (NFD) or holding a zero-width space was another case shown as the same."""
    nfc, nfd = "petici\u00f3n-1", "petici\u006f\u0301n-1"
    for ids, said in [(["c1", "c1 "], "2: field 'id' 'c1 ' begins or ends with a space"),
                      ([" c1"], "1: field 'id' ' c1' begins or ends with a space"),
                      (["c\u200b1"], "1: field 'id' 'c\\u200b1' holds an invisible character (U+200B), shown as nothing"),
                      (["c1\n"], "1: field 'id' 'c1\\n' begins or ends with a line break"),
                      # (73rd) --cases a,b asks for a and b: an id with a comma could never be chosen
                      (["a,b"], "1: field 'id' 'a,b' holds a comma, which --cases reads as between two ids"),
                      # (120th round) no command line holds a NUL: its case could never be chosen
                      (["nul\x00id"], "1: field 'id' 'nul\\x00id' holds a NUL byte (\\x00), which no command line can give "
                                       "(--case, --cases): it could never be chosen"),
                      ([nfc, nfd], f"2: duplicate id {nfd!r} (first on line 1, written in another Unicode form)")]:   # (a line break or ESC inside is shown escaped)
        path = write_split(tmp_path, [dict(GOOD, id=i) for i in ids])
        assert problems(path) == [f"{path}:{said}"], (ids, problems(path))
    # (57th) a run begun with such ids (by an older eval.py) resumes as it began
    path = write_split(tmp_path, [dict(GOOD, id="c1 "), dict(GOOD, id="c\u200b2")])
    assert [c["id"] for c in evalpy.load_split(path, as_begun=True)[0]] == ["c1 ", "c\u200b2"]
    # (57th) joiners are parts of words and emoji: a family emoji, a Persian word
    ids = ["C1", "c1", "caf\u00e9 1", "\U0001f468\u200d\U0001f469\u200d\U0001f467", "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645"]
    path = write_split(tmp_path, [dict(GOOD, id=i) for i in ids])
    assert [c["id"] for c in evalpy.load_split(path)[0]] == ids   # told apart when shown
    # (61st) marks shown as nothing: a variation selector, a tag character, the grapheme joiner, Mongolian's free
    # variation selector; Khmer's unwritten vowel and the braille blank are drawn blank
    for mark in ("\ufe0f", "\U000e0100", "\U000e0061", "\u034f", "\u180b"):
        path = write_split(tmp_path, [dict(GOOD, id="a"), dict(GOOD, id="a" + mark)])
        assert problems(path) == [f"{path}:2: duplicate id {'a' + mark!r} (first on line 1, 'a', with a character shown as nothing)"]
    for blank in ("\u17b4", "\u2800"):
        path = write_split(tmp_path, [dict(GOOD, id="a" + blank)])
        assert problems(path) == [f"{path}:1: field 'id' {'a' + blank!r} holds an invisible character (U+{ord(blank):04X}), shown as nothing"]
    # (62nd) but the tags of a flag are what is shown: Scotland's and England's flags are two ids, two labels
    scotland = "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f"
    england = "\U0001f3f4\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f"
    path = write_split(tmp_path, [dict(GOOD, id="case-" + scotland), dict(GOOD, id="case-" + england)])
    assert [c["id"] for c in evalpy.load_split(path)[0]] == ["case-" + scotland, "case-" + england]
    assert evalpy.fold(scotland) != evalpy.fold(england) and evalpy.fold("a\U000e0041") == "a"
    # (121st round) two ids apart by a zero-width joiner or non-joiner alone ("c1" + U+200C beside "c1" was a second
    # "c1", report --case c1 the other's) are one id given twice; its review: an id that holds one is read (a Bengali
    # ra-phala, a Malayalam chillu, a Sinhala touching letter, an emoji sequence), never refused for it
    for twin in ("c1\u200c", "\u200dc1", "c\u200c1", "c1\u200c\u200c"):
        path = write_split(tmp_path, [dict(GOOD, id="c1"), dict(GOOD, id=twin)])
        assert problems(path) == [f"{path}:2: duplicate id {twin!r} (first on line 1, 'c1', with a character shown as nothing)"]
    ids = ["\u0d05\u0d35\u0d28\u0d4d\u200d", "\u09b0\u200d\u09cd\u09af\u09be\u09ac", "\u0d9a\u200d\u0dca\u0dc0",
           "\U0001f642\u200d\u2194\ufe0f", "\u0259\u200c\u0259"]
    path = write_split(tmp_path, [dict(GOOD, id=i) for i in ids])
    assert [c["id"] for c in evalpy.load_split(path)[0]] == ids
    for unseen in ("\u034f", "\U000e0041\U000e0042"):   # an id of nothing shown: a blank row in every table
        path = write_split(tmp_path, [dict(GOOD, id=unseen)])
        assert problems(path) == [f"{path}:1: field 'id' {ascii(unseen)} is shown as nothing (a grapheme joiner, tag characters)"]


def test_a_split_saved_with_other_line_ends_is_the_same_version_of_it(project, cli):
    """Fifty-sixth attack on issue 28: the sha was of the file's bytes, so the split saved with CRLF (a Windows
    checkout), without its last line feed, or its checks.json with a BOM, was "another version": compare refused
    two runs of the same cases, saying the split was edited between them. An edit of a value is still one."""
    path, checks = Path("golden/dev.jsonl"), Path("golden/support/checks.json")
    data, checks_data = path.read_bytes(), checks.read_bytes()
    sha, support_sha = evalpy.load_split(str(path))[2], evalpy.load_split("golden/support/dev.jsonl")[2]
    assert sha == evalpy.sha256_bytes(data)   # a file saved LF, one line feed at its end: its bytes' sha, as before
    write_run("runs/a.json", split_run("dev"))
    for saved in (data.replace(b"\n", b"\r\n"), data[:-1]):
        path.write_bytes(saved)
        assert evalpy.load_split(str(path))[2] == sha
    write_run("runs/b.json", split_run("dev", {"dev-01": "zzz"}, date="2026-01-03T09:30:00+01:00"))
    code, out, err = cli("compare", "runs/a.json", "runs/b.json")
    assert code == 0 and "Regressions" in out, err
    checks.write_bytes(b"\xef\xbb\xbf" + checks_data.replace(b"\n", b"\r\n"))
    assert evalpy.load_split("golden/support/dev.jsonl")[2] == support_sha
    path.write_bytes(data.replace(b'"note": "', b'"note": "(edited) ', 1))
    assert evalpy.load_split(str(path))[2] != sha


def test_one_round_names_no_fault_twice(project, cli, fake):
    """From the attack on N12: two empty ids are each "field 'id' is empty", not also a duplicate;
    a line whose vars are not an object is told so, not also that it lacks the prompt's var."""
    Path("p.txt").write_text("Atiende a {{who}}.", encoding="utf-8")
    lines = [dict(GOOD, id=""), dict(GOOD, id=""), dict(GOOD, id="c3", vars="Ana", expected="x")]
    Path("golden/mine.jsonl").write_text("".join(json.dumps(l) + "\n" for l in lines), encoding="utf-8")
    code, out, err = cli("run", "--split", "golden/mine.jsonl", "--prompt", "p.txt", "--host", fake.url)
    said = err.removeprefix("error: ").splitlines()
    assert code == 2 and "duplicate" not in err and "golden/mine.jsonl:3: p.txt uses" not in err, err
    assert "golden/mine.jsonl:1: p.txt uses {{who}} but this case has no vars.who" in said, err
    assert len([l for l in said if l.startswith("golden/mine.jsonl:3: ")]) == 2, err   # its vars, its label


def test_bom_is_reported(tmp_path):
    raw = b"\xef\xbb\xbf" + json.dumps(GOOD).encode() + b"\n"
    assert any("s.jsonl:1: starts with a byte-order mark" in p for p in problems(write_split(tmp_path, [], raw)))


def test_a_prompt_with_a_bom_is_refused_not_sent(project, cli):
    """Attack 41: a prompt saved with a byte-order mark was sent to the model with U+FEFF as its first character
    (prompt_text began with it); a split with one is refused. Refused alike, by its line."""
    Path("prompts/bom.txt").write_bytes(b"\xef\xbb\xbf" + Path("prompts/v2.txt").read_bytes())
    code, out, err = cli("run", "--split", "dev", "--prompt", "prompts/bom.txt", "--host", "127.0.0.1:1")
    assert code == 2 and err == ("error: prompts/bom.txt:1: the prompt starts with a byte-order mark (BOM); save it as UTF-8 "
                                 "without BOM\n"), err


@pytest.mark.parametrize("char, said", [("\x00", "a NUL byte (\\x00)"), ("\x1b", "a control character (\\x1b)"),
                                         ("\x01", "a control character (\\x01)"), ("\x7f", "a control character (\\x7f)"),
                                         ("\x9b", "a control character (\\x9b)"), ("\x85", "a control character (\\x85)")])
def test_a_prompt_holding_a_control_character_is_refused_by_its_line(project, cli, char, said):
    """120th round's damaged files: a prompt with a NUL byte (or ESC, SOH) in its middle was sent to the model, unsaid,
    where a labels.txt holding one is refused, and a prompt's byte-order mark too: no words for the model."""
    text = Path("prompts/v2.txt").read_text(encoding="utf-8")
    Path("prompts/ctl.txt").write_text(text.replace("\n", "\n" + "ab" + char + "c", 2).replace("ab" + char + "c", "abc", 1),
                                       encoding="utf-8", newline="")
    code, out, err = cli("run", "--split", "dev", "--prompt", "prompts/ctl.txt", "--host", "127.0.0.1:1")
    assert code == 2 and err == (f"error: prompts/ctl.txt:3: the prompt holds {said}, no word for the model (a copy's or "
                                 "an editor's slip): remove it\n"), err
    Path("prompts/ok.txt").write_text(text.replace("\n", "\tx\r\n\f", 1), encoding="utf-8", newline="")
    assert "holds" not in cli("run", "--split", "dev", "--prompt", "prompts/ok.txt", "--host", "127.0.0.1:1")[2]
    # (its review) C1's too, as labels' are; and its line counted at a carriage return alone too
    Path("prompts/cr.txt").write_text("a\rb\rc " + char + " {{text}}\r", encoding="utf-8", newline="")
    assert cli("run", "--split", "dev", "--prompt", "prompts/cr.txt", "--host", "127.0.0.1:1")[2].startswith(
        "error: prompts/cr.txt:3: the prompt holds")


def test_crlf_line_endings_are_accepted(tmp_path):
    raw = (json.dumps(GOOD) + "\r\n" + json.dumps(dict(GOOD, id="c2")) + "\r\n").encode()
    cases, _, sha = evalpy.load_split(write_split(tmp_path, [], raw))
    assert [c["id"] for c in cases] == ["c1", "c2"]
    # the hash is of the bytes with LF line ends (56th round: a CRLF copy of one split was "another version")
    assert sha == hashlib.sha256(raw.replace(b"\r\n", b"\n")).hexdigest()
    # (119th round) CR CR LF, what Windows Python writes of "\r\n" in text mode, is the same split; a run made of it by
    # an eval.py before (CR LF alone read as LF) is of this version
    doubled = raw.replace(b"\r\n", b"\r\r\n")
    path = write_split(tmp_path, [], doubled)
    assert evalpy.load_split(path)[2] == sha
    older = hashlib.sha256(doubled.replace(b"\r\n", b"\n")).hexdigest()
    assert older != sha and {sha, older} <= evalpy.split_shas(path)
    # (its review) and one made of it so, or of it with CR LF by an eval.py before LF hashing, the file since saved LF
    path = write_split(tmp_path, [], raw.replace(b"\r\n", b"\n"))
    assert {older, hashlib.sha256(raw).hexdigest()} <= evalpy.split_shas(path)
    # (its review) nor without a last line end, nor beside a checks.json saved otherwise: each file hashed its own way
    unended = doubled[:-3]
    old_form = lambda data: data.replace(b"\r\n", b"\n").rstrip(b"\n") + b"\n"   # (the hashing before CR CR LF)
    checks = b'[{"type": "icontains", "value": "bug"}]\n'
    (tmp_path / "checks.json").write_bytes(checks)
    then = hashlib.sha256(old_form(unended) + b"\0" + old_form(checks)).hexdigest()
    path = write_split(tmp_path, [], raw.replace(b"\r\n", b"\n"))
    assert then in evalpy.split_shas(path)


def test_invalid_utf8_and_empty_file(tmp_path):
    assert any("not valid UTF-8" in p for p in problems(write_split(tmp_path, [], b'{"id": "\xff"}\n')))
    assert any("no cases" in p for p in problems(write_split(tmp_path, [], b"")))


def test_no_labels_file_makes_a_free_text_set(tmp_path):
    contains = {"type": "contains", "value": "hola"}
    (tmp_path / "s.jsonl").write_text(json.dumps({**GOOD, "checks": [contains]}) + "\n" + json.dumps({"id": "c2", "input": "hola",
                                      "difficulty": "easy", "note": "n", "checks": [contains]}) + "\n")
    cases, labels, _ = evalpy.load_split(str(tmp_path / "s.jsonl"))
    assert labels is None
    assert [c["type"] for c in cases[0]["checks"]] == ["contains"] and "expected" not in cases[1]   # no implied label check


def test_a_free_text_case_with_no_checks_is_refused_with_its_line(project, cli):
    """Attack 41: in a free-text set, one case with no checks (none of its own, none in checks.json) passed
    whatever the answer, in silence ("Pass rate: 1/2", its trial "passes"). Refused by its line. (67th) So is one
    whose checks neither block nor count toward a threshold (non-blocking, or weighted with none): its set's pass
    rate was 100% with every check failing, and it passed its gate."""
    case = {"input": "hola", "difficulty": "easy", "note": "n"}
    lines = [{"id": "a", **case, "checks": [{"type": "contains", "value": "hola"}]}, {"id": "b", **case},
             {"id": "c", **case, "checks": [{"type": "contains", "value": "hola", "blocking": False}]},
             {"id": "d", **case, "checks": [{"type": "contains", "value": "hola", "weight": 1}], "pass_threshold": 0.5},
             {"id": "e", **case, "checks": [{"type": "contains", "value": "hola", "blocking": False},
                                            {"type": "regex", "value": "h"}]}]
    Path("free").mkdir()
    Path("free/dev.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))
    code, out, err = cli("run", "--split", "free/dev.jsonl", "--host", "127.0.0.1:1")
    assert code == 2 and err == ("error: free/dev.jsonl:2: case 'b' has no checks: it would pass whatever the answer. "
                                 "Give it checks (in the case or in checks.json)\n"
                                 "free/dev.jsonl:3: case 'c' has no check that blocks and no pass_threshold: it would pass "
                                 'whatever the answer (a check with "blocking": false, or a weight, only counts toward a '
                                 "threshold). Make one blocking, or give a pass_threshold\n"), err
    assert not Path("runs").exists()
    # (114th round's newcomer) said beside a problem of another line, in the one refusal: it was said only once the
    # other was mended
    Path("free/dev.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines[:2] + [dict(case, id="f", note=None)]))
    code, out, err = cli("run", "--split", "free/dev.jsonl", "--host", "127.0.0.1:1")
    assert code == 2 and "free/dev.jsonl:3: " in err and "free/dev.jsonl:2: case 'b' has no checks" in err, err
    # (its review) a classification set without its labels.txt is told so beside another problem, not each case's line
    # "give it checks"
    rows = [{"id": f"c{n}", "input": "x", "expected": "bug", "difficulty": "easy", "note": "n"} for n in (1, 2, 1)]
    Path("free/dev.jsonl").write_text("".join(json.dumps(line) + "\n" for line in rows))
    code, out, err = cli("run", "--split", "free/dev.jsonl", "--host", "127.0.0.1:1")
    assert code == 2 and "duplicate id 'c1'" in err and "no labels.txt beside the split and no checks" in err, err
    assert "has no checks" not in err, err


def test_bad_tags_are_refused_at_load(project, cli):
    (project / "golden" / "x.jsonl").write_text(
        json.dumps({"id": "a", "input": "x", "expected": "bug", "difficulty": "easy", "note": "n", "tags": "red"}) + "\n")
    code, out, err = cli("run", "--split", "golden/x.jsonl", "--host", "127.0.0.1:1")
    assert code == 2 and "golden/x.jsonl:1: field 'tags' must be a list of non-empty strings" in err
    # (114th round's gates) a tag with a space at an end, or decomposed, is refused: a tag apart from the one it shows as
    # (--must-pass red-team passed without the case tagged 'red-team ', the by-tag table two rows alike)
    import unicodedata
    for tag, why in (("red-team ", "'red-team ' has a space at an end"),
                     (unicodedata.normalize("NFD", "inyección"), "is not in Unicode's NFC form (an accent written apart "
                      "from its letter, most often): it would be a tag apart from 'inyección', the one it shows as; save the "
                      "file in NFC, or retype the tag"),   # (round 123: the form to type was 'inyecci\\xf3n')
                     ("\u0958\u093e\u0928\u0942\u0928", "is not in Unicode's NFC form")):   # (a composed letter NFC parts)
        (project / "golden" / "x.jsonl").write_text(json.dumps(
            {"id": "a", "input": "x", "expected": "bug", "difficulty": "easy", "note": "n", "tags": [tag]}) + "\n")
        code, out, err = cli("run", "--split", "golden/x.jsonl", "--host", "127.0.0.1:1")
        assert code == 2 and "golden/x.jsonl:1: field 'tags': " in err and why in err, err


@pytest.mark.parametrize("difficulty, why", [
    ("trap ", "'trap ' has a space at an end: it would be a difficulty apart from 'trap', the one it shows as; take the "
     "space out"),
    ("cafe\u0301", "is not in Unicode's NFC form (an accent written apart from its letter, most often): it would be a "
     "difficulty apart from 'caf\u00e9', the one it shows as; save the file in NFC, or retype the difficulty")])
def test_a_difficulty_with_a_space_at_an_end_or_not_in_nfc_is_refused_at_load_as_a_tag_is(project, cli, difficulty, why):
    """139th round's views: 'trap ' beside trap, a decomposed café beside café, were taken and made two rows alike in
    every view (trap 1/1 twice, its 2/2 nowhere), as tags were before 114th round's gates."""
    (project / "golden" / "x.jsonl").write_text(json.dumps(dict(GOOD, difficulty=difficulty)) + "\n")
    code, out, err = cli("run", "--split", "golden/x.jsonl", "--host", "127.0.0.1:1")
    assert code == 2 and "golden/x.jsonl:1: field 'difficulty': " in err and why in err, err


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


@pytest.mark.parametrize("text, says", [
    ("C\nC*\n", "labels.txt:2: label 'C*' repeats line 1"),
    ("bug\n\"Bug\"\n", "labels.txt:2: label '\"Bug\"' repeats line 1"),
    ("bug\n...\nacceso\n", "labels.txt:2: label '...' is nothing but the characters"),
    ("bug\nINVALID.\n", "labels.txt:2: INVALID is reserved"),
])
def test_labels_one_answer_could_not_tell_apart_are_refused_with_their_line(tmp_path, text, says):
    """Labels are matched as answers are, trimmed of . \" ' ` * at their ends: two that one answer
    would match, or one that trims to nothing (an empty answer would be it), are refused."""
    (tmp_path / "labels.txt").write_text(text, encoding="utf-8")
    with pytest.raises(evalpy.EvalError) as e:
        evalpy.parse_labels(str(tmp_path / "labels.txt"))
    assert str(e.value).startswith(f"{tmp_path}/{says}"), str(e.value)


@pytest.mark.parametrize("reserved", ["INVALID", "invalid.", "*Inválid*"])
def test_a_run_file_whose_labels_hold_the_reserved_invalid_is_refused(project, cli, reserved):
    """labels.txt refuses INVALID, but a run file's config.labels held it, and an answer that matched
    no label then scored as correct for a case expecting it."""
    from conftest import make_run
    write_run("runs/x.json", make_run([("a", reserved, "no sé, algo raro"), ("b", "bug", "bug")],
                                      labels=["bug", "acceso", reserved]))
    for args in (("report", "runs/x.json"), ("report", "runs/x.json", "--case", "a")):
        code, out, err = cli(*args)
        assert code == 2 and out == "" and len(err.splitlines()) == 1, (args, out, err)
        assert err.startswith("error: runs/x.json: ") and \
            f"config.labels: {reserved!r}: INVALID is reserved for answers that match no label" in err, err


def test_a_run_file_whose_labels_one_answer_could_not_tell_apart_is_refused(project, cli):
    from conftest import make_run
    write_run("runs/x.json", make_run([("a", "C", "C"), ("b", "C*", "C*")], labels=["C", "C*"]))
    code, out, err = cli("report", "runs/x.json")
    assert code == 2 and "runs/x.json" in err and "config.labels: 'C' and 'C*' are one label to an answer" in err, err


def test_split_names_resolve_to_golden_files():
    assert evalpy.resolve_split("dev") == ("golden/dev.jsonl", "dev")
    assert evalpy.resolve_split("data/extra.jsonl") == ("data/extra.jsonl", "data-extra")   # with its folder
    assert evalpy.resolve_split("./extra.jsonl") == ("./extra.jsonl", "extra")
    assert evalpy.resolve_split("golden/support/dev.jsonl") == ("golden/support/dev.jsonl", "support-dev")
    with pytest.raises(evalpy.EvalError):
        evalpy.resolve_split("../dev")


def test_newest_prompt_is_the_highest_version_number(tmp_path):
    for name in ("v2.txt", "v10.txt", "v9.txt", "notes.txt"):
        (tmp_path / name).write_text("x")
    assert evalpy.newest_prompt(str(tmp_path)).endswith("v10.txt")
    with pytest.raises(evalpy.EvalError, match="pass --prompt"):
        evalpy.newest_prompt(str(tmp_path / "missing"))
    # (56th round) a prompts folder that is there but cannot be listed was "no prompts/ folder here"
    with pytest.raises(evalpy.EvalError) as e:
        evalpy.newest_prompt(str(tmp_path / "v2.txt"))
    assert str(e.value) == f"{tmp_path}/v2.txt/: cannot be read (Not a directory); pass --prompt PATH"


def test_a_split_of_another_projects_golden_names_where_its_prompts_are(project, cli):
    """Round 110's newcomer: run from another folder, a split under the project's golden/ said "no prompts/ folder
    here; pass --prompt PATH", where the held-out guard found the project's runs/ all the same. The folder its
    prompts are in (golden/support/ -> prompts/support/ beside golden/) is named, and how to take it."""
    os.makedirs("elsewhere")
    os.chdir("elsewhere")
    try:
        code, out, err = cli("run", "--split", "../golden/support/dev.jsonl", "--host", "127.0.0.1:9")
        assert code == 2 and err == ("error: no prompt for ../golden/support/dev.jsonl here (no prompts/ folder here); "
                                     "the split is in ../golden, whose prompts are in ../prompts/support/: run from .., "
                                     "or pass --prompt with one of them\n"), err
        os.makedirs("prompts")   # (118th round) a prompts/ here is this folder's, never the project's split's: it was
        Path("prompts/v1.txt").write_text("Clasifica.\n", encoding="utf-8")   # taken without a word
        code, out, err = cli("run", "--split", "../golden/support/dev.jsonl", "--host", "127.0.0.1:9")
        assert code == 2 and "(prompts/ here is this folder's, not its project's); the split is in ../golden" in err, err
        shutil.copy("../golden/support/dev.jsonl", "dev.jsonl")   # a split of no project's golden/ takes it, as before
        assert "no prompt for" not in cli("run", "--split", "dev.jsonl", "--host", "127.0.0.1:9")[2]
    finally:
        os.chdir("..")
    # (116th round) run from inside golden/ itself, the split's path names no golden/: "no prompts/ folder here" alone
    os.chdir(project / "golden" / "support")
    try:
        code, out, err = cli("run", "--split", "dev.jsonl", "--host", "127.0.0.1:9")
        assert code == 2 and err == ("error: no prompt for dev.jsonl here (no prompts/ folder here); the split is in "
                                     "../../golden, whose prompts are in ../../prompts/support/: run from ../.., or pass "
                                     "--prompt with one of them\n"), err
    finally:
        os.chdir(project)


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
    # (34th round) a file of many lines gave a column alone: "bad JSON: Expecting ',' delimiter (column 67)"
    (tmp_path / "checks.json").write_text('[\n {"type": "contains", "value": "a"},\n {"type": "contains" "value": "b"}\n]\n',
                                          encoding="utf-8")
    with pytest.raises(evalpy.EvalError) as e:
        evalpy.load_split(path)
    assert str(e.value) == f"{tmp_path}/checks.json:3: bad JSON: Expecting ',' delimiter (column 22)", str(e.value)


def test_a_bad_pattern_in_checks_json_names_checks_json(tmp_path):
    """Thirty-seventh round on issue 28: a pattern that does not compile in checks.json was refused per case,
    "dev.jsonl: 5 lines: check 'regex (': bad regular expression ... (lines 1-5)": the split's lines, which
    hold no check. It is the file's line; one with a {{placeholder}} is still read case by case."""
    path = write_split(tmp_path, [GOOD])
    (tmp_path / "checks.json").write_text('[\n {"type": "contains", "value": "a"},\n {"type": "regex", "value": "("}\n]\n', encoding="utf-8")
    with pytest.raises(evalpy.EvalError) as e:
        evalpy.load_split(path)
    assert str(e.value).startswith(f"{tmp_path}/checks.json:3: check 2: bad regular expression: missing )"), str(e.value)
    # (39th round) one with a {{placeholder}} too: filled with a literal in each case, it fails whatever that holds
    path = write_split(tmp_path, [dict(GOOD, vars={"word": "acc"})])
    (tmp_path / "checks.json").write_text('[{"type": "regex", "value": "{{word}}("}]', encoding="utf-8")
    with pytest.raises(evalpy.EvalError) as e:
        evalpy.load_split(path)
    assert str(e.value).startswith(f"{tmp_path}/checks.json:1: check 1: bad regular expression"), str(e.value)
    (tmp_path / "checks.json").write_text('[{"type": "regex", "value": "^{{word}}"}]', encoding="utf-8")
    assert evalpy.load_split(path)
    # (127th round) a placeholder after \x: said with its cure, and no position of re's words after it
    (tmp_path / "checks.json").write_text('[{"type": "regex", "value": "\\\\x{{word}}"}]', encoding="utf-8")
    with pytest.raises(evalpy.EvalError) as e:
        evalpy.load_split(path)
    assert str(e.value).endswith(evalpy.PLACEHOLDER_IN_ESCAPE), str(e.value)


def test_a_pattern_of_checks_json_is_proved_once_not_once_a_case(tmp_path):
    """Round 137: checks.json's regex with no placeholder, the same in every case, was proved again for each (compiled,
    and parsed thrice to see whether it could decide anything): 4 of them cost 20 s of CPU at load on 20,000 cases.
    Its proof is counted: as many for 40 cases as for one, and a fault of it is still said of every case."""
    (tmp_path / "checks.json").write_text(json.dumps([{"type": "regex", "value": r"\border\b"}]), encoding="utf-8")
    proofs = []
    for n in (1, 40):
        evalpy.pattern_problems.cache_clear()
        cases, _, _ = evalpy.load_split(write_split(tmp_path, [dict(GOOD, id=f"c{i}") for i in range(n)]))
        assert len(cases) == n and all(c["checks"][1]["value"] == r"\border\b" for c in cases)
        proofs.append(evalpy.pattern_problems.cache_info().misses)
    assert proofs[1] == proofs[0] <= 2, proofs
    # a case's own pattern, found in every answer, is still said of each case that holds it
    path = write_split(tmp_path, [dict(GOOD, id=f"c{i}", checks=[{"type": "regex", "value": "a*"}]) for i in range(3)])
    said = problems(path)
    assert len(said) == 1 and said[0].startswith(f"{path}: 3 lines: check 'regex a*': {evalpy.ALWAYS_FOUND}"), said


def test_an_input_or_a_turn_its_vars_fill_with_nothing_is_refused_saying_so():
    """Round 107: "input": "{{c}}" with vars.c "" was sent as no user turn at all (and "  " as two spaces), where a
    written blank input is refused; a turn so filled was "content must be non-empty text", its {{t}} never named."""
    def said(**fields):
        return evalpy.parse_case(dict({"id": "e", "expected": "bug", "difficulty": "easy", "note": "n"}, **fields),
                                 ["bug"], [])[1]
    for blank in ("", "  "):
        assert said(input="{{c}}", vars={"c": blank}) == [
            "field 'input' is empty once its vars fill it ({{c}}): give vars.c a text, or leave 'input' out to ask the "
            "model by the prompt alone"]
    assert said(messages=[{"role": "user", "content": "{{t}}"}], vars={"t": " "}) == [
        "messages turn 1: content must be non-empty text (it is empty once its vars fill it: give them a text)"]
    assert said(input="hola {{t}}", vars={"t": ""}) == []   # something left: sent as it is
    # a turn of a zero-width space alone shows nothing, and says nothing: empty as a blank one is
    assert said(messages=[{"role": "user", "content": "\u200b"}]) == ["messages turn 1: content must be non-empty text"]
    # (its review) the input is the one user turn: the same rule, written or filled
    assert said(input="\u200b") == ["field 'input' is empty"]
    assert said(input="\u3164 \u2800") == ["field 'input' is empty"]   # (fillers eval.py itself draws blank)
    assert said(input="{{x}}", vars={"x": "\u200b"})[0].startswith("field 'input' is empty once its vars fill it")


def test_a_prompt_that_shows_nothing_to_a_case_without_input_is_refused(tmp_path):
    """Round 108: a prompt of {{x}} alone, with vars.x "" (or a zero-width space) and no input, sent one empty system
    turn and scored the answer; a prompt file of a zero-width space alone was taken where an empty one is refused."""
    cases = [{"id": "a", "line": 1, "vars": {"x": ""}}, {"id": "b", "line": 2, "vars": {"x": "\u200b"}},
             {"id": "c", "line": 3, "vars": {"x": ""}, "input": "hola"}, {"id": "d", "line": 4, "vars": {"x": "hola"}}]
    assert evalpy.prompt_problems("p.txt", "{{x}}", "s.jsonl", cases) == [
        f"s.jsonl:{n}: p.txt is empty once this case's vars fill it, and the case has no input: the model would be sent "
        "nothing (give vars.x a text, or the case an input)" for n in (1, 2)]
    assert evalpy.prompt_problems("p.txt", "Hola {{x}}", "s.jsonl", cases) == []   # something left: sent as it is
    (tmp_path / "p.txt").write_text("\u200b\n", encoding="utf-8")
    with pytest.raises(evalpy.EvalError, match="p.txt: the prompt is empty"):
        evalpy.load_prompt(str(tmp_path / "p.txt"))
    assert evalpy.load_prompt(str(tmp_path / "p.txt"), as_begun=True)[0] == "\u200b\n"   # (a resume: as it began)


def test_a_fault_of_checks_json_is_said_of_checks_json_naming_the_key_at_fault(tmp_path):
    """Fifty-sixth attack on issue 28: two checks of checks.json named alike were blamed on the split
    ("s.jsonl: 3 lines: two checks are named 'a'; give one a "name" (lines 1-3)"), though both had a name; a check
    whose "type" was misspelt ("typ") was told only what a check looks like, the key at fault unnamed."""
    path = write_split(tmp_path, [GOOD, dict(GOOD, id="c2")])
    (tmp_path / "checks.json").write_text('[\n {"name": "a", "type": "contains", "value": "x"},\n'
                                          ' {"name": "a", "type": "not_contains", "value": "y"}\n]\n', encoding="utf-8")
    assert problems(path) == [f"{tmp_path}/checks.json:3: check 2: named 'a' as check 1 is; give each check its own name"]
    (tmp_path / "checks.json").write_text('[{"type": "contains", "value": "x"}, {"type": "contains", "value": "x"}]',
                                          encoding="utf-8")   # two unnamed checks of one value: the same name
    assert problems(path) == [f"{tmp_path}/checks.json:1: check 2: named 'contains x' as check 1 is; give each check "
                              "its own name"]
    (tmp_path / "checks.json").write_text('[{"name": "{{w}}", "type": "contains", "value": "x"}]', encoding="utf-8")
    write_split(tmp_path, [dict(GOOD, vars={"w": "a"}), dict(GOOD, id="c2", vars={"w": "b"})])
    assert evalpy.load_split(path)   # a name filled from each case's vars is each case's own
    # (round 107) a case's check named as one of checks.json's: the case's is the one to rename, and both had names
    (tmp_path / "checks.json").write_text('[{"name": "a", "type": "contains", "value": "x"}]', encoding="utf-8")
    write_split(tmp_path, [dict(GOOD, checks=[{"name": "a", "type": "contains", "value": "y"}])])
    assert problems(path) == [f"{tmp_path}/s.jsonl:1: two checks are named 'a', this case's and one of checks.json's; give "
                              "the case's another \"name\""], problems(path)
    (tmp_path / "checks.json").write_text('[{"name": "a", "typ": "contains", "value": "x"}]', encoding="utf-8")
    assert problems(path) == [f'{tmp_path}/checks.json:1: check 1: a check needs a "type" (did you mean "type" for '
                              "'typ'?)"]
    (tmp_path / "checks.json").write_text('[{"value": "x"}]', encoding="utf-8")
    assert problems(path)[0].startswith(f'{tmp_path}/checks.json:1: check 1: a check needs a "type" (one of '), problems(path)
    (tmp_path / "checks.json").write_text('[5]', encoding="utf-8")
    assert problems(path) == [f'{tmp_path}/checks.json:1: check 1: a check is an object {{"type": ..., "value": ...}}']


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
    assert "Splits in golden/: dev, golden/agent/dev.jsonl, golden/agent/test.jsonl, golden/rag/dev.jsonl, golden/rag/test.jsonl, golden/support/dev.jsonl, golden/support/test.jsonl, test" in err
    # (113th round's newcomer) the folder `init mine` made, named as a split: its own splits, by path
    assert cli("init", "mine")[0] == 0
    code, out, err = cli("run", "--split", "mine")
    assert code == 2 and "no split 'mine' (golden/mine.jsonl does not exist); did you mean mine/dev.jsonl?" in err, err
    # (its review) a folder under golden/ too, and a path that needs quoting quoted
    assert "did you mean golden/support/dev.jsonl?" in cli("run", "--split", "support")[2]
    os.makedirs("sets")
    Path("sets/my dev.jsonl").write_text('{"id": "c1", "input": "x"}\n')   # (117th: a split's first line, a split)
    assert "did you mean 'sets/my dev.jsonl'?" in cli("run", "--split", "sets")[2]
    # (114th round) the folder named with its slash, as a shell completes it, gets the same hint
    code, out, err = cli("run", "--split", "mine/")
    assert code == 2 and "give a split name (dev, test) or a path ending in .jsonl; did you mean mine/dev.jsonl?" in err, err
    # (114th round's newcomer) a run's name for its split (mine-dev, support-dev): the file it names
    assert "did you mean mine/dev.jsonl?" in cli("run", "--split", "mine-dev")[2]
    assert "did you mean golden/support/test.jsonl?" in cli("run", "--split", "support-test")[2]
    # (its review) an empty folder of that name here hides no split under golden/
    os.makedirs("support")
    assert "did you mean golden/support/dev.jsonl?" in cli("run", "--split", "support/")[2]


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
    # (round 109) a case with passages that writes {{context}} in its own text: said whose placeholder it is
    ({"input": "según {{context}}", "context": [{"id": "p1", "text": "Envíos en 2 días."}]},
     "input uses {{context}} but the case has no vars.context (the passages fill {{context}} in the prompt file, not in "
     "a case's own text)"),
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
    says = ["field 'input' must be a string, not a number", "field 'vars' must be an object of names to strings or numbers",
            "field 'checks' must be a list of checks"]
    assert evalpy.case_problems(dict(case), ["bug", "acceso"]) == says + ["label 'Bug' is not in labels.txt (did you mean 'bug'?)"]
    assert evalpy.case_problems(dict(case), ["bug", "acceso"], stored=True) == says + [
        "label 'Bug' is not in config.labels (did you mean 'bug'?)"]
    # (round 109) a stored label in NFD read "is not in config.labels (did you mean 'facturación'?)" of the same word
    nfd = unicodedata.normalize("NFD", "facturación")
    assert evalpy.case_problems(dict(case, expected=nfd), ["facturación", "bug"], stored=True)[-1] == (
        f"label {nfd!r} is not in config.labels (the same word in another Unicode form: 'facturacio\\u0301n' here, "
        "'facturaci\\xf3n' in config.labels; eval.py writes both in NFC: the file was edited)")
    # (its review) and when config.labels is the side edited, the word of each side named as it is
    assert evalpy.case_problems(dict(case, expected="facturación"), [nfd, "bug"], stored=True)[-1].endswith(
        "(the same word in another Unicode form: 'facturaci\\xf3n' here, 'facturacio\\u0301n' in config.labels; eval.py "
        "writes both in NFC: the file was edited)")


@pytest.mark.parametrize("case, says", [
    # (111th round) said by the var, once: "check 'icontains ': check 'icontains ': check 'icontains' needs a non-empty
    # string value" blamed the value written and named no var
    ({"input": "hola", "vars": {"customer": ""}, "checks": [{"type": "icontains", "value": "{{customer}}"}]},
     "s.jsonl:1: check 'icontains {{customer}}' uses {{customer}}, and vars.customer is empty here: it would check for "
     "nothing; give it a value\n"),
    ({"input": "hola", "vars": {"x": " "}, "checks": [{"type": "judge", "value": " {{x}} "}]},
     "check 'judge  {{x}} ' uses {{x}}, and vars.x is ' ' here: the criterion shows nothing, so the judge would be asked "
     "about nothing; give it a value that shows text\n"),
    ({"messages": [{"role": "user", "content": "{{x}}"}], "vars": {"x": " "}, "checks": [{"type": "contains", "value": "a"}]},
     "messages turn 1: content must be non-empty text"),
    # (round 108) a judge's criterion of spaces or a zero-width space: the judge asked about nothing, and passing it
    ({"input": "hola", "checks": [{"type": "judge", "value": "\n\t"}]},
     "check 'judge' needs a criterion as value: its value shows nothing"),
    ({"input": "hola", "vars": {"x": "\u200b"}, "checks": [{"type": "judge", "value": "{{x}}"}]},
     "vars.x is '\\u200b' here: the criterion shows nothing"),
    ({"input": "hola", "checks": [{"type": "judge", "value": "\u3164\u2800"}]},   # (its review: fillers drawn blank)
     "check 'judge' needs a criterion as value: its value shows nothing"),
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


def test_a_bad_weight_is_said_alone_and_a_var_of_spaces_is_text_as_written(tmp_path):
    """139th round: a case's own check of "weight": 0 (true, "1") beside a pass_threshold was refused twice, the second
    time untrue: 'pass_threshold needs at least one check with a "weight"' (the refused check was dropped before the
    threshold was weighed). And contains "{{x}}" of vars.x = " " was refused as "vars.x is empty here" where contains
    " " written loads: a var of spaces is text, as README's text value is; a judge's criterion of one still is not."""
    def load(**case):
        (tmp_path / "s.jsonl").write_text(json.dumps({"id": "a", "input": "x", "difficulty": "easy", "note": "n", **case}) + "\n")
        return evalpy.load_split(str(tmp_path / "s.jsonl"))[0]
    for weight in (0, True, "1"):
        with pytest.raises(evalpy.EvalError) as e:
            load(pass_threshold=0.5, checks=[{"type": "contains", "value": "x", "weight": weight}])
        assert str(e.value) == (f"{tmp_path}/s.jsonl:1: check 'contains x': weight must be a positive number, not "
                                f"{json.dumps(weight)}"), str(e.value)
    written = load(checks=[{"type": "contains", "value": " "}])[0]["checks"][0]["value"]
    assert load(vars={"x": " "}, checks=[{"type": "contains", "value": "{{x}}"}])[0]["checks"][0]["value"] == written == " "
    with pytest.raises(evalpy.EvalError, match="vars.x is empty here"):
        load(vars={"x": ""}, checks=[{"type": "contains", "value": "{{x}}"}])

def test_a_judge_criterion_a_var_of_spaces_or_a_zero_width_space_fills_is_said_to_show_nothing_once(tmp_path):
    """139th round: a judge's "{{x}}" of vars.x " " was refused as "vars.x is empty here" (it is a space), and of
    "\\u200b" as "check 'judge {{x}}': check 'judge {{x}}': check 'judge' needs a criterion...", its name twice. Each
    says the var's value and that the criterion shows nothing, the check named once."""
    for value, shown in ((" ", "' '"), ("\u200b", "'\\u200b'"), ("\u00ad", "'\\xad'")):
        (tmp_path / "s.jsonl").write_text(json.dumps({"id": "a", "input": "x", "difficulty": "easy", "note": "n",
                                                      "vars": {"x": value}, "checks": [{"type": "judge", "value": "{{x}}"}]}))
        with pytest.raises(evalpy.EvalError) as e:
            evalpy.load_split(str(tmp_path / "s.jsonl"))
        assert str(e.value) == (f"{tmp_path}/s.jsonl:1: check 'judge {{{{x}}}}' uses {{{{x}}}}, and vars.x is {shown} here: "
                                "the criterion shows nothing, so the judge would be asked about nothing; give it a value "
                                "that shows text"), str(e.value)


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
    # the name as bash reads it back: the byte itself (\\udcf3 pasted named another file: thirteenth attack)
    assert code == 2 and f"the {what}'s file name is not valid UTF-8" in err and "$'odd\\xf3." in err
    assert fake.chat_bodies == []


def pipe_in_place(what):
    """The command that reads `what`, with a FIFO (no writer: an open or read of it waits for ever)
    where that file belongs."""
    Path("sp").mkdir()
    for name in ("dev.jsonl", "labels.txt"):
        Path("sp", name).write_bytes(Path("golden", name).read_bytes())
    run = write_run("runs/x.json", split_run("dev"))
    argv = {"split": ["run", "--split", "pipe.jsonl"], "labels": ["run", "--split", "sp/dev.jsonl"],
            "checks": ["run", "--split", "sp/dev.jsonl"], "prompt": ["run", "--split", "dev", "--prompt", "pipe.txt"],
            "report --checks": ["report", run, "--checks", "pipe.jsonl"],
            "journal": ["run", "--resume", "runs/y.json"], "verdicts": ["calibrate", "pipe.jsonl", run],
            "held-out runs": ["run", "--split", "test"], "held-out journal": ["run", "--split", "test"],
            "runs": ["runs", "runs"], "run file": ["report", "runs/pipe.json"]}[what]
    path = {"labels": "sp/labels.txt", "checks": "sp/checks.json", "prompt": "pipe.txt", "journal": "runs/y.json.journal",
            "held-out runs": "runs/pipe.json", "held-out journal": "runs/pipe.json.journal", "runs": "runs/pipe.json",
            "run file": "runs/pipe.json"}.get(what, "pipe.jsonl")
    if what == "labels":
        os.unlink(path)
    os.mkfifo(path)
    return argv, path


@pytest.mark.parametrize("what", ["split", "labels", "checks", "prompt", "report --checks", "journal", "verdicts",
                                  "held-out runs", "held-out journal", "runs", "run file"])
def test_a_pipe_where_a_file_is_read_is_one_line_never_a_hang(project, what):
    """Issue 28, item 12: a FIFO named *.json in a listed folder (and, it turned out, a split, its
    labels or checks, a prompt, a journal, a person's verdicts, the runs the held-out guard reads)
    blocked eval.py for ever: only regular files are opened. In a subprocess, so a hang fails the
    test instead of stopping the suite."""
    import subprocess
    import sys
    argv, path = pipe_in_place(what)
    try:
        done = subprocess.run([sys.executable, str(Path(evalpy.__file__)), *argv, *(
            ["--host", "127.0.0.1:9"] if argv[0] == "run" else [])], capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:   # a hang is for ever: 120 s leaves a loaded machine's slow start room
        pytest.fail(f"eval.py {' '.join(argv)} blocked on the pipe {path}")
    assert "Traceback" not in done.stderr and Path(path).is_fifo()
    if what in ("runs", "held-out runs", "held-out journal"):
        # a listing names it and goes on; the held-out guard reads no config from it, and the run goes on to the server
        assert ("runs/pipe.json" in done.stdout and "not a regular file" in done.stdout) if what == "runs" else \
            "127.0.0.1:9" in done.stderr
    else:
        assert done.returncode == 2 and f"{path}: not a regular file (a pipe or a device)" in done.stderr, done.stderr


def test_one_mistake_on_many_lines_is_said_once_with_its_lines(project, cli, fake):
    """Issue 31, item 12: 28 lines missing 'difficulty' said the same thing 28 times; now one line
    names the fault, how many lines have it and which, and other faults keep their own lines."""
    lines = [{"id": f"c{i}", "input": "hola", "expected": "bug", "note": "n"} for i in range(1, 29)]
    lines[4]["expected"] = "spam"   # another fault on line 5: still named on its own
    Path("golden/mine.jsonl").write_text("".join(json.dumps(l) + "\n" for l in lines), encoding="utf-8")
    code, out, err = cli("run", "--split", "golden/mine.jsonl", "--host", fake.url)
    assert code == 2 and fake.chat_bodies == []
    assert "golden/mine.jsonl: 28 lines lack 'difficulty' (lines 1-28)" in err, err
    assert "golden/mine.jsonl:5: label 'spam' is not in labels.txt" in err
    assert len(err.splitlines()) == 2, err


def test_one_line_with_a_mistake_twice_is_one_line_of_those_said_once(tmp_path):
    """129th round: a line holding the same problem twice (two checks of one pattern, x{{{n}}} of n 2) was counted
    twice and said twice: "s.jsonl: 4 lines: ... (lines 1, 1-3)", two times, of three lines. Each line is counted
    once, and the problem said once."""
    twice = [{"type": "regex", "value": "x{{{n}}}"}] * 2
    found = problems(write_split(tmp_path, [dict(GOOD, id=f"c{k}", vars={"n": "2"}, checks=twice if k == 1 else twice[:1])
                                            for k in (1, 2, 3)]))
    assert found == [f"{tmp_path}/s.jsonl: 3 lines: check 'regex x{{{{{{n}}}}}}': {{{{{{n}}}}}} fills as {{2}}, a count of "
                     "repeats, where a var's value is text to find; write the count in the pattern (lines 1-3)"], found


def test_two_lines_with_the_same_mistake_are_still_named_one_by_one(tmp_path):
    found = problems(write_split(tmp_path, [{k: v for k, v in GOOD.items() if k != "note"},
                                            dict(GOOD, id="c2"), dict(GOOD, id="c3", note=None)]))
    assert found == [f"{tmp_path}/s.jsonl:1: missing field 'note'", f"{tmp_path}/s.jsonl:3: field 'note' must be a "
                                                                     "string, not null"]


def test_a_missing_var_on_many_lines_is_said_once(project, cli, fake):
    """Issue 31, item 12: a {{var}} the cases lack, said once for all the lines that lack it."""
    Path("p.txt").write_text("Hola {{customer}}, pedido {{order_id}}.", encoding="utf-8")
    cases = [{"id": f"c{i}", "input": "hola", "expected": "bug", "difficulty": "easy", "note": "n",
              **({"vars": {"customer": "Ana", "order_id": "A-1"}} if i in (3, 9) else {})} for i in range(1, 11)]
    Path("golden/mine.jsonl").write_text("".join(json.dumps(c) + "\n" for c in cases), encoding="utf-8")
    code, out, err = cli("run", "--split", "golden/mine.jsonl", "--prompt", "p.txt", "--host", fake.url)
    assert code == 2 and fake.chat_bodies == []
    assert err.splitlines() == [
        "error: golden/mine.jsonl: 8 lines have no vars.customer, which p.txt uses as {{customer}} (lines 1-2, 4-8, 10)",
        "golden/mine.jsonl: 8 lines have no vars.order_id, which p.txt uses as {{order_id}} (lines 1-2, 4-8, 10)"], err


def test_init_makes_a_golden_set_ready_to_run(project, cli, fake):
    """Issue 31, item 12: `init DIR` writes a guide, labels, two example cases and a prompt, and
    says the command that runs them; that command works as printed."""
    code, out, err = cli("init", "mine")
    assert code == 0, err
    assert {p.relative_to("mine").as_posix() for p in Path("mine").rglob("*") if p.is_file()} == \
        {"GUIDE.md", "labels.txt", "dev.jsonl", "prompts/v1.txt"}
    cases, labels, _ = evalpy.load_split("mine/dev.jsonl")
    assert len(cases) == 2 and all(c["difficulty"] and c["note"] for c in cases)
    assert {c["expected"] for c in cases} <= set(labels)
    prompt = Path("mine/prompts/v1.txt").read_text(encoding="utf-8")
    assert all(label in prompt for label in labels)   # the prompt names the set's labels
    command = next(l.strip() for l in out.splitlines() if "eval.py run " in l)
    argv = command.split("eval.py ", 1)[1].split()
    assert argv[:3] == ["run", "--split", "mine/dev.jsonl"]
    code, out, err = cli(*argv, "--host", fake.url)
    assert code == 0, err
    assert len(fake.chat_bodies) == 2 and fake.chat_bodies[0]["messages"][0]["content"] == prompt


@pytest.mark.parametrize("argv, word, takes", [(["init", "-x"], "-x", "DIR"), (["report", "-r.json"], "-r.json", "run"),
                                               (["review", "--x.json"], "--x.json", "run")])
def test_a_value_that_begins_with_a_dash_is_named_not_reported_missing(project, capsys, argv, word, takes):
    """From the fourth attack on issue 28, item 9h: `init -x` said "the following arguments are
    required: DIR", naming nothing of the -x that was given."""
    with pytest.raises(SystemExit) as e:
        evalpy.main(argv)
    err = capsys.readouterr().err
    assert e.value.code == 2 and len(err.splitlines()) == 1, err
    assert f"{word} is not an option of eval.py {argv[0]}" in err and f"eval.py {argv[0]} -- {word}" in err, err
    assert f"which needs {takes}:" in err
    assert not Path(word).exists()


def test_init_never_overwrites_anything(project, cli):
    """Issue 31, item 12: a file init would write that already exists stops it before it writes any."""
    Path("mine/prompts").mkdir(parents=True)
    Path("mine/labels.txt").write_text("mine\n", encoding="utf-8")
    code, out, err = cli("init", "mine")
    assert code == 2 and "mine/labels.txt" in err and "exists" in err and len(err.splitlines()) == 1, err
    assert Path("mine/labels.txt").read_text(encoding="utf-8") == "mine\n"
    assert sorted(p.name for p in Path("mine").rglob("*")) == ["labels.txt", "prompts"]
    code, out, err = cli("init", "fresh")
    assert code == 0 and cli("init", "fresh")[0] == 2
    assert cli("init", "")[0] == 2 and not Path("GUIDE.md").exists()
    Path("afile").write_text("x")
    code, out, err = cli("init", "afile")
    assert code == 2 and "afile" in err and "Traceback" not in err
    # (round 110) an error of the machine says what to do, not "Not a directory" alone
    code, out, err = cli("init", "afile/sub")   # (round 136) naming the file, not "afile/sub: Not a directory"
    assert code == 2 and err == ("error: afile exists and is not a folder, and init would make afile/sub inside it; move or "
                                 "rename it, or give a path that does not go through it; init wrote nothing\n"), err
    # (73rd) a link to nothing is said to be one, as run says it
    Path("linked").mkdir()
    os.symlink("gone.jsonl", "linked/dev.jsonl")
    code, out, err = cli("init", "linked")
    assert code == 2 and "linked/dev.jsonl exists (a link to gone.jsonl, which does not exist)" in err, err
    # (round 122) init into a folder that is a link to nothing, or under one, said "No such file or directory" or "exists
    # and is not a folder": the link is named, and nothing is made
    os.symlink("nowhere", "dead")
    for folder in ("dead", "dead/proj", "dead/"):
        code, out, err = cli("init", folder)
        assert code == 2 and "dead is a link to nowhere, which does not exist" in err and "fix the link" in err, err
        assert "No such file" not in err and not os.path.lexists("nowhere"), err
    # (117th round's newcomer) init of a split's path made a folder named dev.jsonl; run of a split that is not there, or a
    # folder, was sent after a prompt ("no prompts/suport/ folder here"), the split's own fault said only with --prompt
    code, out, err = cli("init", "new/dev.jsonl")
    assert code == 2 and err.endswith("(like: python eval.py init new)\n") and not Path("new").exists(), err
    code, out, err = cli("init", "new/dev.jsonl/")   # (its review) a slash after it too
    assert code == 2 and err.endswith("(like: python eval.py init new)\n") and not Path("new").exists(), err
    code, out, err = cli("init", "golden/support/dev.JSONL")   # (its review) never a folder that exists, in any case
    assert code == 2 and err.endswith("(give a folder that does not exist yet)\n"), err
    for split, says in (("golden/suport/dev.jsonl", "golden/suport/dev.jsonl: no such split file"),
                        ("fresh", "is a folder, not a split file")):
        os.makedirs("fresh.jsonl", exist_ok=True)
        code, out, err = cli("run", "--split", split if split != "fresh" else "fresh.jsonl")
        assert code == 2 and says in err and "prompt" not in err, err


def init_refused(cli, folder, blocker, says):
    """init FOLDER with a file of the user's at blocker, where it would make a folder: refused, saying says, the file kept,
    nothing written."""
    os.makedirs(os.path.dirname(blocker) or ".", exist_ok=True)
    Path(blocker).write_text("mine\n", encoding="utf-8")
    code, out, err = cli("init", folder)
    assert code == 2 and err == f"error: {says}; init wrote nothing\n", err
    assert Path(blocker).read_text(encoding="utf-8") == "mine\n" and not os.path.exists(os.path.join(folder, "GUIDE.md"))


def test_init_names_a_file_where_it_would_make_a_folder_and_the_cure(project, cli):
    """Round 136: DIR/prompts a file said "cannot write DIR/prompts/v1.txt (Not a directory)", naming neither the file in
    the way nor a cure; so did a file where init makes golden/X's prompts/X/. Each is named, and nothing is written."""
    for folder, blocker, prompt, says in (
            ("p5", "p5/prompts", "p5/prompts/v1.txt", "p5/prompts exists and is not a folder, and init writes "
             "p5/prompts/v1.txt in it; move or rename it, or pick a new folder"),
            ("golden/faq", "prompts/faq", "prompts/faq/v1.txt", "prompts/faq exists and is not a folder, and init writes "
             "prompts/faq/v1.txt in it: the project's prompts, outside golden/faq, where every set under golden/faq/ "
             "keeps its prompt, so a new folder there meets it too; move or rename it, or init a folder outside golden/faq/")):
        init_refused(cli, folder, blocker, says)
        os.replace(blocker, blocker + ".old")   # the cure given works
        assert cli("init", folder)[0] == 0 and Path(prompt).is_file()


def test_init_names_the_projects_prompts_or_a_file_above_dir_in_the_way_with_a_cure_that_works(project, cli, monkeypatch):
    """Round 136, after the fix above: a file ./prompts was said in the way of init golden/faq with the cure "or pick a new
    folder", which every golden/* folder meets again (they all keep their prompts in ./prompts/); and a file above DIR
    (p8 for init p8/a/b, golden for init golden/faq) was never named: mkdir's "p8/a: Not a directory" named a path that
    does not exist. The file in the way is named, and the cure it gives works."""
    Path("elsewhere").mkdir()   # (the project's own golden/ and prompts/ are folders)
    monkeypatch.chdir("elsewhere")
    init_refused(cli, "golden/faq", "prompts", "prompts exists and is not a folder, and init writes prompts/faq/v1.txt in "
                 "it: the project's prompts, outside golden/faq, where every set under golden/ keeps its prompt, so a new "
                 "folder there meets it too; move or rename it, or init a folder outside golden/")
    assert cli("init", "golden/other")[0] == 2 and cli("init", "mine")[0] == 0 and Path("mine/prompts/v1.txt").is_file()
    os.replace("prompts", "prompts.old")
    assert cli("init", "golden/faq")[0] == 0 and Path("prompts/faq/v1.txt").is_file()
    init_refused(cli, "golden/sub/faq", "prompts/sub", "prompts/sub exists and is not a folder, and init writes "
                 "prompts/sub/faq/v1.txt in it: the project's prompts, outside golden/sub/faq, where every set under "
                 "golden/sub/ keeps its prompt, so a new folder there meets it too; move or rename it, or init a folder "
                 "outside golden/sub/")
    assert cli("init", "golden/two")[0] == 0   # outside golden/sub/, as said
    for folder, blocker in (("p8/a/b", "p8"), ("top/golden/faq", "top/golden")):
        init_refused(cli, folder, blocker, f"{blocker} exists and is not a folder, and init would make {folder} inside it; "
                     "move or rename it, or give a path that does not go through it")
        assert cli("init", folder.replace(blocker, blocker + "x", 1))[0] == 0   # a path not through it
        os.replace(blocker, blocker + ".old")
        assert cli("init", folder)[0] == 0 and Path(folder, "GUIDE.md").is_file()


def test_a_file_a_letter_off_or_its_extension_left_off_is_named(project, cli):
    """117th round's newcomer: --split suport, golden/suport/dev.jsonl, golden/agent/Dev.jsonl, --prompt v2.txt (from the
    project: prompts/v2.txt), --context retriever-c.ndjson and calibrate human (human.jsonl beside it) said only that the
    file was not there; the verdicts file was "yours to write", a file the user had."""
    for given, meant in (("suport", "golden/support/dev.jsonl"), ("golden/suport/dev.jsonl", "golden/support/dev.jsonl"),
                         ("golden/agent/Dev.jsonl", "golden/agent/dev.jsonl")):
        code, out, err = cli("run", "--split", given, "--host", "127.0.0.1:9")
        assert code == 2 and f"did you mean {meant}?" in err, err
    # (its review) never a file of another kind, which the same option then refuses (a run for a split, a split or the
    # labels for a prompt, a split for passages), nor prompts/'s for a prompt named alone (another split's prompt: the
    # split's own are offered, test_a_prompt_named_by_its_file_alone_is_offered_from_the_split_s_prompts)
    for option, given in (("--split", "runs/example/dev-v2.jsonl"), ("--prompt", "golden/labels"),
                          ("--prompt", "golden/dev"), ("--split", "golden/support/check.jsonl")):
        code, out, err = cli("run", *(("--split", "dev") if option == "--prompt" else ()), option, given,
                             "--host", "127.0.0.1:9")
        assert code == 2 and "did you mean" not in err, err
    code, out, err = cli("run", "--split", "golden/rag/dev.jsonl", "--context", "golden/rag/retriever-c.ndjson",
                         "--host", "127.0.0.1:9")
    assert code == 2 and err.startswith("error: golden/rag/retriever-c.ndjson: no such context file; did you mean "
                                        "golden/rag/retriever-b.ndjson?"), err
    Path("human.jsonl").write_text('{"id": "dev-01", "check": "label", "pass": true}\n')
    code, out, err = cli("calibrate", "human", "runs/x.json")
    assert code == 2 and err == "error: human: no such verdicts file; did you mean human.jsonl?\n", err


def test_the_hints_for_a_name_not_there_name_what_would_work(project, cli):
    """117th round's attack on the hints: --split FOLDER offered a retriever's passages beside its split; "dev copy" was
    offered as a name --split refuses; mine/prompts/v2.txt, not written yet, was "did you mean v1.txt?"; run --resume of
    a finished run's name gave a resume command that had nothing to resume; --resume=-- (argparse's []) a traceback."""
    assert cli("init", "mine")[0] == 0
    shutil.copy("golden/rag/retriever-b.ndjson", "mine/bm25.jsonl")
    code, out, err = cli("run", "--split", "mine", "--prompt", "mine/prompts/v1.txt", "--host", "127.0.0.1:9")
    assert code == 2 and "did you mean mine/dev.jsonl?" in err, err
    shutil.copy("golden/dev.jsonl", "golden/dev copy.jsonl")
    code, out, err = cli("run", "--split", "dev-copy", "--host", "127.0.0.1:9")
    assert code == 2 and "did you mean 'golden/dev copy.jsonl'?" in err, err
    code, out, err = cli("run", "--split", "mine/dev.jsonl", "--prompt", "mine/prompts/v2.txt", "--host", "127.0.0.1:9")
    assert code == 2 and err == "error: mine/prompts/v2.txt: no such prompt file (the prompts in mine/prompts/: v1.txt)\n", err
    write_run("runs/done.json", make_run([("c1", "bug", "bug")]))
    code, out, err = cli("run", "--resume", "done")
    assert code == 2 and err == ("error: --resume done: no such run nor journal; did you mean runs/done.json? (a finished "
                                 "run: python eval.py report runs/done.json)\n"), err
    # (its review) a finished run with errors is one to resume: its report was offered, "nothing to resume"
    write_run("runs/erred.json", make_run([("c1", "bug", None)]))
    code, out, err = cli("run", "--resume", "erred")
    assert code == 2 and err.endswith("did you mean runs/erred.json? (python eval.py run --resume runs/erred.json)\n"), err
    # (its review) a folder of passages alone offers none as a split
    os.makedirs("golden/ctx")
    shutil.copy("golden/rag/retriever-b.ndjson", "golden/ctx/passages.jsonl")
    code, out, err = cli("run", "--split", "ctx", "--host", "127.0.0.1:9")
    assert code == 2 and "did you mean golden/ctx/passages.jsonl" not in err, err
    # (its review) a path among the names offered as it is; a split of vars alone is a split; every kind of option
    code, out, err = cli("run", "--split", "support_dev_jsonl", "--host", "127.0.0.1:9")
    assert code == 2 and "did you mean golden/support/dev.jsonl?" in err, err
    Path("mine/v.jsonl").write_text(json.dumps({"id": "m-1", "vars": {"q": "hola"}, "difficulty": "easy", "note": "n"}) + "\n")
    code, out, err = cli("run", "--split", "mine/vv.jsonl", "--prompt", "mine/prompts/v1.txt", "--host", "127.0.0.1:9")
    assert code == 2 and "did you mean mine/v.jsonl?" in err, err
    for command in (("run", "--resume=--"), ("run", "--split", "dev", "--out=--"), ("report", "runs/done.json",
                                                                                 "--checks=--"),
                    ("run", "--split", "dev", "--timeout=--"), ("run", "--split", "dev", "--seed=--"),
                    ("run", "--split", "dev", "--option=--"), ("run", "--split", "dev", "--judge-model=--"),
                    ("run", "--split", "dev", "--seed", "5", "--seed=--")):
        code, out, err = cli(*command)
        assert code == 2 and "-- names nothing" in err, (command, err)


def test_a_split_named_with_a_dash_is_offered_by_its_path(project, cli):
    """Round 117's note: golden/-x.jsonl was offered as "did you mean -x?" and listed as -x, which `--split -x`
    refuses (argparse reads it as an option); its path is offered instead."""
    shutil.copy("golden/dev.jsonl", "golden/-x.jsonl")
    code, out, err = cli("run", "--split", "x", "--host", "127.0.0.1:9")
    assert code == 2 and err.startswith("error: no split 'x' (golden/x.jsonl does not exist); did you mean "
                                        "golden/-x.jsonl?\nSplits in golden/: golden/-x.jsonl, dev, "), err
    code, out, err = cli("run", "--split=-x.jsonl", "--host", "127.0.0.1:9")
    assert code == 2 and err == "error: -x.jsonl: no such split file; did you mean golden/-x.jsonl?\n", err
    code, out, err = cli("run", "--split", "dev.jsonl", "--host", "127.0.0.1:9")   # a name typed as it is, still offered
    assert code == 2 and err == "error: dev.jsonl: no such split file; did you mean golden/dev.jsonl (--split dev)?\n", err
    # (119th round) a path with a space in a folder of golden/ is listed quoted, as it is offered
    os.makedirs("golden/my set")
    shutil.copy("golden/dev.jsonl", "golden/my set/dev.jsonl")
    shutil.copy("golden/dev.jsonl", "golden/dev copy.jsonl")
    code, out, err = cli("run", "--split=devv", "--host", "127.0.0.1:9")
    listed = err.partition("\nSplits in golden/: ")[2]
    assert code == 2 and "'golden/dev copy.jsonl', " in listed and "'golden/my set/dev.jsonl', " in listed, err


def test_a_split_whose_name_ends_otherwise_in_jsonl_is_said_so(project, cli):
    """119th round's newcomer: DEV.JSONL, or Notepad's dev.jsonl.txt, was "no split 'DEV.JSONL' (golden/DEV.JSONL.jsonl
    does not exist)", the file there never named."""
    shutil.copy("golden/dev.jsonl", "DEV.JSONL")
    shutil.copy("golden/dev.jsonl", "golden/mine.jsonl.txt")
    code, out, err = cli("run", "--split", "DEV.JSONL", "--host", "127.0.0.1:9")
    assert code == 2 and err == ("error: DEV.JSONL: a split's file name ends in .jsonl, in lower case and nothing after "
                                 "it: rename it DEV.jsonl, then give --split DEV.jsonl\n"), err
    shutil.copy("golden/dev.jsonl", "golden/dev.jsonl.txt")   # (its review: never to rename onto a split there)
    code, out, err = cli("run", "--split", "golden/dev.jsonl.txt", "--host", "127.0.0.1:9")
    assert code == 2 and err.endswith("rename it (not golden/dev.jsonl, a split already there, which renaming would "
                                      "replace)\n"), err
    os.symlink("Extra.JSONL", "golden/Extra.jsonl")   # (a case-insensitive file system's one file by both names)
    shutil.copy("golden/dev.jsonl", "golden/Extra.JSONL")
    code, out, err = cli("run", "--split", "golden/Extra.JSONL", "--host", "127.0.0.1:9")
    assert code == 2 and err.endswith("give --split golden/Extra.jsonl, the same file by that name\n"), err
    code, out, err = cli("run", "--split", "mine.jsonl.txt", "--host", "127.0.0.1:9")
    assert code == 2 and err.startswith("error: golden/mine.jsonl.txt: a split's file name ends in .jsonl"), err


def test_a_split_name_a_letter_off_offers_splits_only(project, cli):
    """118th round's review: --split NAME offered a retriever's passages or a run saved as .jsonl in golden/ (and
    listed them as splits), each refused as given; the path form offered none already."""
    Path("golden/retrieved.jsonl").write_text('{"id": "dev-01", "context": ["Refunds take 5 days."]}\n')
    shutil.copy(ROOT / "runs/example/dev-v1.json", "golden/dev-old.jsonl")
    for name in ("retreived", "dev-olde"):
        code, out, err = cli("run", "--split", name, "--host", "127.0.0.1:9")
        listed = err.partition("\nSplits in golden/: ")[2]
        assert code == 2 and "did you mean" not in err and listed.startswith("dev, golden/agent/dev.jsonl"), err
        assert "retrieved" not in listed and "dev-old" not in listed, err


def test_init_that_fails_half_way_leaves_no_half_made_set(project, cli, monkeypatch):
    """From the attack on item 12: a disk that fills at init's last file left three of four, and a
    second init then refused the folder. Now the files init made are removed and it says why."""
    real = evalpy.write_file

    def full_disk(path, pieces, replace=False):
        if path.endswith("v1.txt"):
            raise OSError(28, "No space left on device", path)
        return real(path, pieces, replace)
    monkeypatch.setattr(evalpy, "write_file", full_disk)
    code, out, err = cli("init", "mine")
    assert code == 2 and err == "error: cannot write mine/prompts/v1.txt (No space left on device); init left nothing behind\n"
    assert not Path("mine").exists()   # (fifty-first round) nor the folders it made
    monkeypatch.setattr(evalpy, "write_file", real)
    Path("mine").mkdir()   # a folder of the user's own is kept, whatever init made in it is not
    monkeypatch.setattr(evalpy, "write_file", full_disk)
    assert cli("init", "mine")[0] == 2 and Path("mine").is_dir() and list(Path("mine").iterdir()) == []
    monkeypatch.setattr(evalpy, "write_file", real)
    assert cli("init", "mine")[0] == 0


def killed_init(project, patch):
    """A real `init mine` in a process of its own, killed by SIGKILL (nothing of its own cleanup runs) where `patch`, code
    run on eval.py's module `e` before its main, sends the signal."""
    import signal
    import subprocess
    import sys
    killer = ("import os, signal, importlib.util as u, sys; s = u.spec_from_file_location('e', sys.argv[1]); "
              "e = u.module_from_spec(s); s.loader.exec_module(e)\n" + patch + "\nsys.exit(e.main(['init', 'mine']))")
    done = subprocess.run([sys.executable, "-c", killer, str(ROOT / "eval.py")], cwd=project, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == -signal.SIGKILL, done.stderr


def test_init_killed_half_way_is_finished_by_the_same_init_again(project, cli):
    """138th round: an init killed (SIGKILL: nothing of its own cleanup runs) after its first files left mine/ holding
    GUIDE.md and labels.txt, and the same init again refused ("mine/GUIDE.md exists"), for good. What init left there,
    just as it writes it, is its own: the same init finishes the set; a file the user changed still stops it, kept."""
    # killed as it comes to its third file (dev.jsonl)
    killed_init(project, "real = e.write_file\n"
                         "def write(path, *a, **k):\n"
                         "    if path.endswith('dev.jsonl'): os.kill(os.getpid(), signal.SIGKILL)\n"
                         "    return real(path, *a, **k)\n"
                         "e.write_file = write")
    assert sorted(str(p) for p in Path("mine").rglob("*")) == ["mine/GUIDE.md", "mine/labels.txt", "mine/prompts"]
    guide = Path("mine/GUIDE.md").read_text(encoding="utf-8")
    Path("mine/labels.txt").write_text("mine\n", encoding="utf-8")   # changed since: the user's, init stops
    code, out, err = cli("init", "mine")
    assert code == 2 and "mine/labels.txt exists" in err and Path("mine/labels.txt").read_text() == "mine\n", err
    Path("mine/labels.txt").unlink()
    code, out, err = cli("init", "mine")
    assert code == 0 and "wrote mine/GUIDE.md, mine/labels.txt, mine/dev.jsonl, mine/prompts/v1.txt" in out, err
    assert Path("mine/GUIDE.md").read_text(encoding="utf-8") == guide and Path("mine/dev.jsonl").is_file()
    assert cli("init", "mine")[0] == 2   # a whole set is made: never written again


@pytest.mark.parametrize("last", ["dev.jsonl", "v1.txt"])
def test_init_killed_between_link_and_unlink_is_finished_without_its_temp_file(project, cli, last):
    """138th round, F2: an init killed just after it linked a file under its name, before it removed the temp file,
    left mine/dev.jsonl.tmp-PID-TID beside the set for good (the same init kept dev.jsonl as its own, never writing it
    again); killed so on its last file, every file whole, the same init refused ("mine/GUIDE.md exists ... pick a new
    folder"). The same init again removes its temp files and finishes the set: init's four files, nothing else."""
    killed_init(project, "real = e.link_new\n"
                         "def link(tmp, path):\n"
                         "    real(tmp, path)\n"
                         f"    if path.endswith({last!r}): os.kill(os.getpid(), signal.SIGKILL)\n"
                         "e.link_new = link")
    assert any(".tmp-" in p.name for p in Path("mine").rglob("*")), list(Path("mine").rglob("*"))
    code, out, err = cli("init", "mine")
    assert code == 0 and "wrote mine/GUIDE.md, mine/labels.txt, mine/dev.jsonl, mine/prompts/v1.txt" in out, err
    assert sorted(str(p) for p in Path("mine").rglob("*")) == [
        "mine/GUIDE.md", "mine/dev.jsonl", "mine/labels.txt", "mine/prompts", "mine/prompts/v1.txt"]
    assert cli("init", "mine")[0] == 2   # a whole set, no temp file of a killed init beside it: made, never written again


def test_init_racing_another_names_what_appeared_and_keeps_it(project, cli, monkeypatch):
    """137th round, S3: a file or folder that appeared between init's look and its write (another init at once) was
    "File exists", naming none. Named now, with a cure that works; what appeared is kept, and what init wrote taken back."""
    real_write, real_mkdir = evalpy.write_file, os.mkdir

    def other_init_first(path, pieces, replace=False):
        if path.endswith("labels.txt"):
            Path(path).write_text("theirs\n", encoding="utf-8")
        return real_write(path, pieces, replace)
    monkeypatch.setattr(evalpy, "write_file", other_init_first)
    code, out, err = cli("init", "mine")
    assert code == 2 and err == ("error: mine/labels.txt appeared while init was writing (another init or program writing "
                                 "there at once); init never replaces a file, so it left that as it is and took back what "
                                 "it wrote (pick a new folder)\n"), err
    assert [str(p) for p in Path("mine").rglob("*")] == ["mine/labels.txt"] and Path("mine/labels.txt").read_text() == "theirs\n"
    monkeypatch.setattr(evalpy, "write_file", real_write)

    def folder_made_first(path, *args, **kwargs):
        if str(path) == "next/prompts":
            real_mkdir(path)
        return real_mkdir(path, *args, **kwargs)
    monkeypatch.setattr(evalpy.os, "mkdir", folder_made_first)
    code, out, err = cli("init", "next")
    assert code == 2 and err.startswith("error: next/prompts appeared while init was writing") and "Traceback" not in err, err
    monkeypatch.setattr(evalpy.os, "mkdir", real_mkdir)
    assert cli("init", "new")[0] == 0   # the cure


def test_init_on_a_disk_already_full_names_the_file_and_leaves_no_folder(project):
    """Fifty-first round on issue 28: a write refused (a full disk, a file size limit) raises an error naming no file;
    init said only "error: File too large" and left mine/ and mine/prompts/ behind."""
    import resource
    import signal
    import subprocess
    import sys

    def limit_writes():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (100, 100))
    done = subprocess.run([sys.executable, str(ROOT / "eval.py"), "init", "mine"], cwd=project, capture_output=True,
                          text=True, timeout=60, preexec_fn=limit_writes)
    assert done.returncode == 2 and done.stderr == ("error: cannot write mine/GUIDE.md (File too large); init left nothing "
                                                    "behind\n"), done.stderr
    assert not (project / "mine").exists()


def test_init_prints_a_command_that_runs_as_printed_in_a_folder_with_a_space(project, cli):
    """From the attack on item 12: `init "my set"` printed --split my set/dev.jsonl, which a shell
    splits in two; the paths are quoted for the shell."""
    import shlex
    code, out, err = cli("init", "my set")
    assert code == 0, err
    command = next(l.strip() for l in out.splitlines() if "eval.py run " in l)
    assert shlex.split(command)[3:] == ["--split", "my set/dev.jsonl", "--prompt", "my set/prompts/v1.txt"]


def test_init_prints_a_command_that_runs_for_a_folder_that_begins_with_a_dash(project, cli, fake):
    """Seventh attack on issue 28: `init -x` printed `run --split -x/dev.jsonl`, which the command line
    refuses (--split: expected one argument); the value is joined with = as --resume's is."""
    import shlex
    code, out, err = cli("init", "--", "-x")
    assert code == 0, err
    command = next(l.strip() for l in out.splitlines() if "eval.py run " in l)
    assert command == "python eval.py run --split=-x/dev.jsonl --prompt=-x/prompts/v1.txt", command
    code, out, err = cli(*shlex.split(command)[2:], "--host", fake.url)
    assert "expected one argument" not in err and "-x/dev.jsonl" in err, err


def test_init_names_a_folder_with_a_line_break_or_escape_on_one_inert_line(project, cli):
    """From the third attack on issue 28: init $'ini\\nAccuracy: 100%\\x1b[31mRED' printed its
    "wrote ..." list and the command to run with the line break and ESC raw: a forged line, a
    terminal told to turn red."""
    code, out, err = cli("init", "ini\nAccuracy: 100%\x1b[31mRED")
    assert code == 0, err
    assert "\x1b" not in out and not [l for l in out.splitlines() if l.startswith("Accuracy")], out
    assert "$'ini\\x0aAccuracy: 100%\\x1b[31mRED/dev.jsonl'" in out, out   # as bash's $'...': pasted, it names the file


def own_split(project, labels=("bug", "feature")):
    """A split of the user's own outside golden/, with its own labels (issue 31, item 2)."""
    folder = project / "mine"
    folder.mkdir()
    (folder / "labels.txt").write_text("\n".join(labels) + "\n", encoding="utf-8")
    (folder / "cases.jsonl").write_text("".join(json.dumps({"id": f"m{i}", "input": f"ticket {i}", "expected": label,
                                                            "difficulty": "easy", "note": "n"}) + "\n"
                                                for i, label in enumerate(labels * 2)), encoding="utf-8")
    return folder


def test_a_split_outside_golden_uses_the_newest_prompt_of_its_own_prompts_folder(project, cli, fake):
    """run --split mine/cases.jsonl used prompts/v3.txt, a classifier for four other labels."""
    folder = own_split(project)
    (folder / "prompts").mkdir()
    for n, text in ((1, "Di bug o feature."), (2, "Clasifica el ticket: bug o feature. Solo la palabra.")):
        (folder / "prompts" / f"v{n}.txt").write_text(text + "\n", encoding="utf-8")
    code, out, err = cli("run", "--split", "mine/cases.jsonl", "--host", fake.url)
    assert code == 0, err
    run = json.loads((project / "runs" / "mine-cases-v2.json").read_text(encoding="utf-8"))
    assert run["config"]["prompt"] == os.path.join("mine", "prompts", "v2.txt")
    assert "warning" not in err   # its prompt names its labels


def test_a_prompt_that_does_not_name_the_splits_labels_is_warned_of(project, cli, fake):
    """Without a prompts folder of its own, the split gets the shipped prompt; stderr names the labels
    that differ, both ways, before any call."""
    own_split(project)
    code, out, err = cli("run", "--split", "mine/cases.jsonl", "--host", fake.url)
    assert code == 0, err
    assert ("warning: prompts/v3.txt does not name the label feature of mine/labels.txt, and names facturación, "
            "acceso, petición, labels mine/labels.txt does not have; is it the prompt for this split? "
            "(--prompt PATH, or put one in mine/prompts/)") in err
    assert err.index("warning: prompts/v3.txt") < err.index("split mine/cases.jsonl")   # before the run's first line
    # (118th round's newcomer) a prompt of the split's own folder is told what to change, never "put one in" its folder
    os.makedirs("mine/prompts")
    Path("mine/prompts/v1.txt").write_text("Label it: bug or question.\n")
    code, out, err = cli("run", "--split", "mine/cases.jsonl", "--host", fake.url)
    assert "warning: mine/prompts/v1.txt does not name the label feature of mine/labels.txt; add it to the prompt\n" in err, err


def test_a_golden_split_takes_the_prompt_help_names_and_the_warning_points_there(project, cli, fake, capsys):
    """Newcomer pass N11: the warning for golden/dev.jsonl said "put one in golden/prompts/", though
    golden splits take prompts/; with golden/prompts/v9.txt there, run --split dev used it while
    run --help said "here prompts/v3.txt". A split under golden/ takes the folder that mirrors it,
    always, and the warning sends one there."""
    (project / "golden" / "prompts").mkdir()
    (project / "golden" / "prompts" / "v9.txt").write_text("Responde bug o feature.\n", encoding="utf-8")
    (project / "prompts" / "v4.txt").write_text("Clasifica el ticket.\n", encoding="utf-8")
    with pytest.raises(SystemExit):
        cli("run", "--help")
    assert "here prompts/v4.txt" in " ".join(capsys.readouterr().out.split())
    fake.answers = {}
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--limit", "2")
    assert code == 0, err
    assert json.loads((project / "runs" / "dev-v4.json").read_text(encoding="utf-8"))["config"]["prompt"] == "prompts/v4.txt"
    assert "of golden/labels.txt; add them to the prompt\n" in err and "golden/prompts" not in err   # (its own folder's)
    own_split(project)
    os.rename(project / "mine", project / "golden" / "tickets")
    code, out, err = cli("run", "--split", "golden/tickets/cases.jsonl", "--host", fake.url)
    assert code == 2 and err == "error: no prompts/tickets/ folder here; pass --prompt PATH\n"
    code, out, err = cli("run", "--split", "golden/tickets/cases.jsonl", "--prompt", "prompts/v4.txt", "--host", fake.url)
    assert code == 0 and "(--prompt PATH, or put one in prompts/tickets/)" in err, err
    code, out, err = cli("init", "golden/new")          # a set made under golden/ gets its prompt where it is looked for
    assert code == 0 and "--prompt prompts/new/v1.txt" in out and not (project / "golden" / "new" / "prompts").exists()
    fake.answers = {}
    code, out, err = cli("run", "--split", "golden/new/dev.jsonl", "--host", fake.url)
    assert code == 0 and "prompt prompts/new/v1.txt" in err and "warning" not in err, err


def test_the_shipped_prompts_name_the_shipped_labels(project, cli, fake):
    fake.answers = {}
    code, out, err = cli("run", "--split", "dev", "--prompt", "prompts/v1.txt", "--host", fake.url, "--limit", "2")
    assert code == 0 and "does not name" not in err


# -- agents: tools and their simulated results (issue 29) ------------------------------------------

LOOKUP = {"type": "function", "function": {"name": "lookup_order", "description": "Find an order",
                                           "parameters": {"type": "object", "required": ["order_id"],
                                                          "properties": {"order_id": {"type": "string",
                                                                                      "description": "A-12345"}}}}}
AGENT = {"id": "a1", "input": "¿Dónde está mi pedido A-1?", "difficulty": "easy", "note": "n",
         "tools": [LOOKUP], "tool_results": {"lookup_order": [{"arguments": {"order_id": "A-1"}, "result": {"status": "sent"}}]},
         "checks": [{"type": "tool_called", "value": "lookup_order", "arguments": {"order_id": "A-1"}}]}


def write_free_split(tmp_path, lines):
    path = tmp_path / "agent.jsonl"
    path.write_text("".join(json.dumps(l, ensure_ascii=False) + "\n" for l in lines), encoding="utf-8")
    return str(path)


def test_a_case_with_tools_and_results_loads(tmp_path):
    cases, labels, _ = evalpy.load_split(write_free_split(tmp_path, [AGENT]))
    assert labels is None
    assert cases[0]["tools"] == [LOOKUP] and cases[0]["tool_results"] == AGENT["tool_results"]


@pytest.mark.parametrize("change, message", [
    ({"tools": {"lookup_order": {}}}, "field 'tools' must be a list of tool definitions"),
    ({"tools": [{"type": "function"}]}, "tools[1]: must be {\"type\": \"function\", \"function\": {\"name\", \"description\", \"parameters\"}}"),
    ({"tools": [LOOKUP, LOOKUP]}, "tools[2]: a second tool named 'lookup_order'"),
    ({"tools": [{"type": "function", "function": {"name": "x", "parameters": {"type": "object", "minLength": 2}}}]},
     "tools[1].function.parameters: keyword 'minLength' is not supported"),
    ({"tools": [{"type": "function", "function": {"name": "x", "parameters": {"type": "string"}}}]},
     "tools[1].function.parameters: must be a JSON Schema of \"type\": \"object\""),
    ({"tool_results": {"cancel_order": "ok"}}, "tool_results: 'cancel_order' is not one of the tools (lookup_order)"),
    ({"tool_results": {"lookup_order": [{"arguments": "A-1", "result": "x"}]}},
     "tool_results.lookup_order[1]: a rule is {\"arguments\": {...}, \"result\": ...}"),
    ({"tool_results": {"lookup_order": [{"arguments": {}}]}},
     "tool_results.lookup_order[1]: a rule is {\"arguments\": {...}, \"result\": ...}"),
    ({"tool_results": []}, "field 'tool_results' must be an object"),
    ({"tools": [[]]}, "tools[1]: must be {\"type\": \"function\""),
])
def test_bad_tools_are_refused_with_file_and_line(tmp_path, change, message):
    path = write_free_split(tmp_path, [dict(AGENT, id="ok"), dict(AGENT, **change)])
    found = problems(path)
    assert any(p.startswith(f"{path}:2: ") and message in p for p in found), found


@pytest.mark.parametrize("check, message", [
    ({"type": "tool_called"}, "check 'tool_called' needs a tool name as value"),
    ({"type": "tool_called", "value": "refund"}, "check 'tool_called refund': the case has no tool named 'refund'"),
    ({"type": "tool_called", "value": "lookup_order", "arguments": "A-1"}, "arguments must be an object"),
    ({"type": "tool_not_called", "value": "lookup_order", "arguments": {}}, "only a tool_called check takes arguments"),
    ({"type": "tool_order", "value": "lookup_order"}, "check 'tool_order' needs a list of at least two tool names"),
    ({"type": "max_tool_calls", "value": -1}, "check 'max_tool_calls' needs a whole number of 0 or more"),
    ({"type": "max_tool_calls", "value": 2.5}, "check 'max_tool_calls' needs a whole number of 0 or more"),
    ({"type": "tool_args_valid", "value": 1}, "check 'tool_args_valid' takes no value"),
])
def test_trajectory_checks_are_validated_at_load(tmp_path, check, message):
    path = write_free_split(tmp_path, [dict(AGENT, checks=[check])])
    found = problems(path)
    assert any(p.startswith(f"{path}:1: ") and message in p for p in found), found


def test_a_trajectory_check_needs_tools(tmp_path):
    case = {k: v for k, v in AGENT.items() if k not in ("tools", "tool_results")}
    found = problems(write_free_split(tmp_path, [dict(case, checks=[{"type": "max_tool_calls", "value": 2}])]))
    assert any("check 'max_tool_calls 2': needs the case's tools" in p for p in found), found


def test_split_level_tools_json_applies_to_every_case_and_a_case_wins(tmp_path):
    other = {"type": "function", "function": {"name": "cancel_order", "parameters": {"type": "object"}}}
    (tmp_path / "tools.json").write_text(json.dumps(
        {"tools": [dict(LOOKUP, function=dict(LOOKUP["function"], description="old")), other],
         "tool_results": {"lookup_order": "split's", "cancel_order": "cancelled"}}, indent=1), encoding="utf-8")
    bare = {k: v for k, v in AGENT.items() if k not in ("tools", "tool_results")}
    path = write_free_split(tmp_path, [bare, dict(AGENT, id="a2")])
    first, second = evalpy.load_split(path)[0]
    assert [t["function"]["name"] for t in first["tools"]] == ["lookup_order", "cancel_order"]
    assert first["tools"][0]["function"]["description"] == "old"
    assert first["tool_results"] == {"lookup_order": "split's", "cancel_order": "cancelled"}
    assert second["tools"][0] == LOOKUP   # the case's own definition of the same tool wins
    assert second["tool_results"]["lookup_order"] == AGENT["tool_results"]["lookup_order"]
    assert second["tool_results"]["cancel_order"] == "cancelled"


def test_a_case_with_empty_tools_opts_out_of_tools_json(tmp_path):
    """"tools": [] is a case asked with no tool at all (a control, say) in a split whose tools.json
    gives every other case tools: neither the split's tools nor its results are merged in."""
    (tmp_path / "tools.json").write_text(json.dumps({"tools": [LOOKUP], "tool_results": {"lookup_order": "sent"}}),
                                         encoding="utf-8")
    bare = {k: v for k, v in AGENT.items() if k not in ("tools", "tool_results", "checks")}
    plain = dict(bare, id="plain", tools=[], checks=[{"type": "contains", "value": "A-1"}])
    first, second = evalpy.load_split(write_free_split(tmp_path, [dict(bare, checks=AGENT["checks"]), plain]))[0]
    assert first["tools"] == [LOOKUP] and first["tool_results"] == {"lookup_order": "sent"}
    assert "tools" not in second and "tool_results" not in second
    # with no tools, a trajectory check or a tool's result has nothing to stand on: refused as before
    path = write_free_split(tmp_path, [dict(plain, checks=AGENT["checks"]),
                                       dict(plain, id="p2", tool_results={"lookup_order": "sent"})])
    found = problems(path)
    assert any(p.startswith(f"{path}:1: ") and "needs the case's tools" in p and '"tools": [] takes them away' in p
               for p in found), found
    assert any(p.startswith(f"{path}:2: ") and "'lookup_order' is not one of the tools (none)" in p for p in found), found


def test_a_bad_tools_json_names_its_line(tmp_path):
    (tmp_path / "tools.json").write_text('{"tools": [\n {"type": "function",\n  "function": {"name": ""}}\n],\n'
                                         ' "tool_result": {}}\n', encoding="utf-8")
    bare = {k: v for k, v in AGENT.items() if k not in ("tools", "tool_results", "checks")}
    with pytest.raises(evalpy.EvalError) as e:
        evalpy.load_split(write_free_split(tmp_path, [dict(bare, checks=[{"type": "contains", "value": "A"}])]))
    lines = str(e.value).splitlines()
    assert f"{tmp_path}/tools.json:5: unknown key 'tool_result' (keys: tools, tool_results)" in lines
    assert any(l.startswith(f"{tmp_path}/tools.json:2: tools[1]") for l in lines), lines


def test_tools_json_is_part_of_the_split_hash(tmp_path):
    path = write_free_split(tmp_path, [AGENT])
    before = evalpy.load_split(path)[2]
    (tmp_path / "tools.json").write_text('{"tool_results": {}}', encoding="utf-8")
    assert evalpy.load_split(path)[2] != before


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
    # each says which passage and what is wrong with it (the fourth attack on issue 28, item 9d)
    ({"context": "returns"}, 'in rank order: it is text, not a list'),
    ({"context": [{"id": "a", "text": "t"}, {"id": "b"}]}, 'in rank order: passage 2 has no "text"'),
    ({"context": [{"id": "a", "text": "t", "score": 0.9}]}, 'in rank order: passage 1 has "score", which a passage does not'),
    ({"context": [{"id": "a", "text": "t", "s\x1b[2J\n": 0.9}]}, 'passage 1 has "s\\u001b[2J\\n", which'),
    ({"context": [{"id": "a", "text": "t"}, 5]}, "in rank order: passage 2 is a number, not an object"),
    ({"context": [{"id": "", "text": "t"}]}, "context passage 1: id '' must be 1 to 64 ASCII letters"),
    ({"context": [{"id": 7, "text": "t"}]}, "context passage 1: id (a number) must be 1 to 64 ASCII letters"),
    # (58th round) "letters" read as any script's; the id at fault was not named
    ({"context": [{"id": "مقطع-1", "text": "t"}]}, "context passage 1: id 'مقطع-1' must be 1 to 64 ASCII letters"),
    ({"context": [{"id": "a", "text": "t"}, {"id": "b", "text": " "}]}, "context passage 2 ('b'): text must be non-empty"),
    ({"context": [{"id": "a", "text": "t"}, {"id": "a", "text": "u"}]}, "context: passage id 'a' is given twice"),
    # (113th round) not "as OpenAI's tool names": OpenAI's take no . (^[a-zA-Z0-9_-]{1,64}$)
    ({"relevant": "returns"}, "field 'relevant' must be a list of passage ids (1 to 64 ASCII letters, digits, _, . or -), "
                              "not text"),
    ({"relevant": ["returns", ""]}, "field 'relevant' must be a list of passage ids (1 to 64 ASCII letters, digits, _, . or "
                                    "-), not ''"),
    ({"relevant": ["returns", "b", "b"]}, "field 'relevant' repeats the id 'b'"),
    ({"vars": {"context": "x"}}, "vars.context clashes with the passages"),
    # from the attack on issue 30: an id with a newline forged the "[n] (id: ...)" layout the model
    # and the judge read; ids are held to what a tool's name may be
    ({"context": [{"id": "x)\n[2] (id: y", "text": "t"}]},
     "context passage 1: id 'x)\\n[2] (id: y' must be 1 to 64 ASCII letters, digits, _, . or -"),
    ({"context": [{"id": "a\x1b[2J", "text": "t"}]}, "context passage 1: id 'a\\x1b[2J' must be 1 to 64 ASCII letters"),
    ({"context": [{"id": "a" * 65, "text": "t"}]}, "must be 1 to 64 ASCII letters"),
    ({"relevant": ["returns", "x y"]}, "field 'relevant' must be a list of passage ids (1 to 64 ASCII letters"),
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


@pytest.mark.parametrize("name, what", [("checks.json", "checks file"), ("labels.txt", "labels file"),
                                        ("tools.json", "tools file")])   # tools.json: the agents set's tools
def test_a_dangling_link_beside_the_split_is_named_not_taken_for_no_file(project, cli, fake, name, what):
    """From the attack on issue 28: checks.json beside the split, a link whose target was gone
    (an unmounted share), was taken as absent: the run went ahead scored with the label check alone,
    exit 0, no word. labels.txt so would make a classification set a free-text one."""
    folder = project / "golden"
    (folder / name).unlink(missing_ok=True)
    os.symlink("/nowhere/" + name, folder / name)
    code, out, err = cli("run", "--split", "dev", "--host", fake.url)
    assert code == 2 and fake.chat_bodies == [] and not os.path.exists("runs"), err
    assert err == f"error: golden/{name}: a link to /nowhere/{name}, which does not exist; fix the link or remove it\n"
    os.symlink("/nowhere/dev.jsonl", project / "gone.jsonl")   # the split itself, named as such
    code, out, err = cli("run", "--split", "gone.jsonl", "--host", fake.url)
    assert code == 2 and "gone.jsonl: a link to /nowhere/dev.jsonl, which does not exist" in err, err
    # (121st round) by its name too: --split dev of a golden/dev.jsonl gone said "golden/dev.jsonl does not exist"
    (folder / "dev.jsonl").unlink()
    os.symlink("/nowhere/dev.jsonl", folder / "dev.jsonl")
    code, out, err = cli("run", "--split", "dev", "--host", fake.url)
    assert code == 2 and err == ("error: --split dev: golden/dev.jsonl is a link to /nowhere/dev.jsonl, which does not "
                                 "exist; fix the link or remove it\n"), err


def forged_split(project, cases, checks=None, labels=("bug", "feature")):
    """mine/cases.jsonl of (id, expected) cases, with labels.txt and checks.json beside it."""
    folder = project / "mine"
    folder.mkdir()
    (folder / "labels.txt").write_text("".join(label + "\n" for label in labels), encoding="utf-8")
    (folder / "cases.jsonl").write_text("".join(json.dumps({"id": cid, "input": f"ticket {i}", "expected": expected,
                                                            "difficulty": "easy", "note": "n"}) + "\n"
                                                for i, (cid, expected) in enumerate(cases)), encoding="utf-8")
    if checks is not None:
        (folder / "checks.json").write_text(json.dumps(checks), encoding="utf-8")
    return "mine/cases.jsonl"


# From the attack on issue 28 (its leftovers): an error printed a value from a file (a case id, a label,
# a check name) or a path with its line breaks raw: a forged line of its own. Each is shown on its line.
@pytest.mark.parametrize("make, extra, lines, says", [
    (lambda p: f"mine/{FORGED}.jsonl", (), 1, "error: $'mine/zz\\x0aFORGED1\\u2028FORGED2\\u2029FORGED3.jsonl': no such split file"),
    (lambda p: forged_split(p, [(FORGED, "bug"), (FORGED, "bug")]), (), 1,
     f"error: mine/cases.jsonl:2: duplicate id '{FORGED_SHOWN}' (first on line 1)"),
    (lambda p: forged_split(p, [("a", "bug"), (FORGED, "bug")]), ("--context", "ctx.jsonl"), 1,
     f"error: ctx.jsonl: no line for case {FORGED_SHOWN} "),
    (lambda p: forged_split(p, [("a", FORGED)]), (), 1,
     f"error: mine/cases.jsonl:1: label '{FORGED_SHOWN}' is not in labels.txt (labels: bug, feature)"),
    # (56th round) a label holds no line break (labels.txt is read by lines) nor ESC: refused, shown escaped
    (lambda p: forged_split(p, [("a", "bug")], labels=("bug", "feature\x1b[31m")), (), 1,
     "error: mine/labels.txt:2: label 'feature\\x1b[31m' holds a line break or control character"),
    (lambda p: forged_split(p, [("a", "bug")], [{"name": FORGED, "type": "regex", "value": "("}]), (), 1,
     "error: mine/checks.json:1: check 1: bad regular expression"),   # (37th round: its file and line, no name)
    (lambda p: forged_split(p, [("a", "bug")], [{"name": FORGED, "type": "contains", "value": "x"}] * 2), (), 1,
     f"error: mine/checks.json:1: check 2: named '{FORGED_SHOWN}' as check 1 is"),   # (56th: its own file)
])
def test_a_value_from_a_file_never_prints_a_line_of_its_own(project, fake, make, extra, lines, says):
    split = make(project)
    Path("ctx.jsonl").write_text(json.dumps({"id": "a", "context": []}) + "\n", encoding="utf-8")
    code, out, err = eval_cli(project, "run", "--split", split, "--host", fake.url, "--prompt", "prompts/v1.txt", *extra)
    shown = printed_lines(err)
    assert code == 2 and says in err and len(shown) == lines, err
    assert not [line for line in shown if line.startswith("FORGED")] and "\x1b" not in err, err
    assert fake.chat_bodies == []


def test_a_case_id_in_a_damaged_run_file_never_prints_a_line_of_its_own(project):
    """The self-attack on the leftovers of issue 28: a run file's result id was named raw in the
    one line that says why the file is refused."""
    run = make_run([(FORGED, "bug", "bug"), (FORGED, "bug", "bug")])
    write_run("runs/x.json", run)
    code, out, err = eval_cli(project, "report", "runs/x.json")
    assert code == 2 and f"result {FORGED_SHOWN}, trial 1 appears twice" in err and len(printed_lines(err)) == 1, err


def test_an_integer_too_long_for_python_is_refused_about_the_number(tmp_path):
    """From the sixth attack on issue 28, item 2: a split line holding an integer of over 4,300 digits
    was refused with Python's advice ("use sys.set_int_max_str_digits()"): it is a number too large,
    said short, as 1e999 is."""
    line = '{"id": "x", "input": "t", "vars": {"n": %s}, "expected": "bug", "difficulty": "e", "note": "n"}\n' % ("7" * 5000)
    found = problems(write_split(tmp_path, [GOOD, line]))
    hit = [p for p in found if p.startswith(f"{tmp_path}/s.jsonl:2: ")]
    assert hit and "(5000 digits) is too large a number" in hit[0] and "sys." not in hit[0] and len(hit[0]) < 200, found
    assert not evalpy.passes_json("1" * 5000, None)   # as 1e999: JSON the tool will not read as a number
    assert evalpy.number_shown("-" + "1" * 50 + ".25e5") == "-11111111111…25e5"   # digits counted of integers only
    assert evalpy.number_shown("-" + "1" * 50) == "-11111111111…1111 (50 digits)"


def test_an_error_quoting_a_huge_value_is_one_line_of_bounded_length(project, cli, fake):
    """Fifteenth attack on issue 28 (minor): a split whose duplicate id was 2 MB printed a 2 MB error
    line. An error line past 2,000 characters is cut in its middle: its start names the file, its end
    what to do."""
    big = "x" * 2_000_000
    case = {"input": "hola", "difficulty": "easy", "note": "n", "checks": [{"type": "contains", "value": "a"}]}
    Path("big.jsonl").write_text("".join(json.dumps(dict(case, id=big)) + "\n" for _ in range(2)))
    code, out, err = cli("run", "--split", "big.jsonl", "--prompt", "prompts/v1.txt", "--host", fake.url)
    assert code == 2 and err.startswith("error: big.jsonl") and len(err) < 2100 and "characters left out" in err, err[:300]
    assert err.count("\n") == 1 and fake.chat_bodies == []
    # the count is of what was left out (it said 500 more); the same line with a 10-character id is whole
    Path("bog.jsonl").write_text("".join(json.dumps(dict(case, id="x" * 10)) + "\n" for _ in range(2)))
    whole = len(cli("run", "--split", "bog.jsonl", "--prompt", "prompts/v1.txt", "--host", fake.url)[2].rstrip("\n"))
    left_out = int(err.split(" …(")[1].split(" characters left out)")[0])
    assert left_out == whole - 10 + 2_000_000 - 2000, (left_out, whole)
    # several problems: each line cut on its own, never one line cut into another (sixteenth attack)
    Path("many.jsonl").write_text(json.dumps(dict(case, id="a", **{"y" * 3000: 1})) + "\n" + json.dumps({"id": "b"}) + "\n")
    code, out, err = cli("run", "--split", "many.jsonl", "--prompt", "prompts/v1.txt", "--host", fake.url)
    lines = err.rstrip("\n").split("\n")
    assert code == 2 and len(lines) >= 2 and all(len(l) < 2100 for l in lines), err[:500]
    assert "many.jsonl:1" in lines[0] and any("many.jsonl:2" in l for l in lines[1:]), err[:3000]


def test_a_split_with_thousands_of_problems_says_the_first_hundred_and_how_many_more(tmp_path):
    """Issue 28, seventeenth attack: a case with 10,000 unknown fields printed a 10,000-line error."""
    case = {"id": "a", "input": "x", "expected": "bug", "difficulty": "easy", "note": "n",
            **{f"f{i}": 1 for i in range(1000)}}
    (tmp_path / "s.jsonl").write_text(json.dumps(case) + "\n", encoding="utf-8")
    (tmp_path / "labels.txt").write_text("bug\nacceso\n", encoding="utf-8")
    with pytest.raises(evalpy.EvalError) as e:
        evalpy.load_split(str(tmp_path / "s.jsonl"))
    lines = str(e.value).splitlines()
    assert len(lines) == evalpy.MOST_PROBLEMS + 1 and lines[-1] == "... and 900 more", lines[-3:]
    assert lines[0].endswith("s.jsonl:1: unknown field 'f0' (known: " + ", ".join(evalpy.CASE_FIELDS)
                             + "; 'dificultad' and 'nota' are accepted too)")


def test_a_label_holding_a_hash_is_a_label_and_a_comment_after_a_space_is_a_comment(tmp_path):
    """Issue 28, seventeenth attack: '#' anywhere began a comment, so C# and F# could not be labels: they
    were read as C and F, and a case expecting C# was refused as expecting no label."""
    (tmp_path / "labels.txt").write_text("# languages\nC#\nF#  # functional\nJava\t# the JVM\n", encoding="utf-8")
    assert evalpy.parse_labels(str(tmp_path / "labels.txt")) == ["C#", "F#", "Java"]


def test_checks_json_with_a_carriage_return_alone_is_refused_as_labels_are(tmp_path):
    """133rd round: checks.json saved with old Mac line ends read as the same checks, but hashed as another file (a new
    split version to the held-out rule), where LF, CRLF and a BOM hash alike; the split and labels.txt refuse it. So
    do checks.json and tools.json now, by the line; CRLF is read as LF."""
    checks = json.dumps([{"name": "n", "type": "contains", "value": "x"}], indent=1)
    path = tmp_path / "checks.json"
    path.write_bytes(checks.replace("\n", "\r\n").encode())
    assert [c["name"] for c in evalpy.load_default_checks(str(path))[0]] == ["n"]
    for name, load in (("checks.json", evalpy.load_default_checks), ("tools.json", evalpy.load_split_tools)):
        path = tmp_path / name
        path.write_bytes(checks.replace("\n", "\r").encode() if name == "checks.json" else b'{"tools": [],\r\n\r "tool_results": {}}')
        with pytest.raises(evalpy.EvalError) as e:
            load(str(path))
        assert str(e.value) == (f"{path}:{1 if name == 'checks.json' else 2}: a line ends in a carriage return alone (CR, "
                                "old Mac line ends); save it with LF or CRLF line ends"), e.value


def test_labels_are_lines_ended_by_a_line_feed_alone(tmp_path):
    """Fifty-sixth attack on issue 28: lines were split by str.splitlines, so a NEL (U+0085, what a cp1252 ellipsis
    becomes, misread) or U+2028 in a comment made the rest of the comment a label, and a form feed in a label split it
    in two (the cases' 'feature' then "not in labels.txt (labels: bug, feat, ure, question)"), every line number after
    it shifted."""
    path = tmp_path / "labels.txt"
    path.write_text("bug\r\nfeature   # new\u2026 not\u0085 sure\nquestion  # a\u2028crash\n", encoding="utf-8")
    assert evalpy.parse_labels(str(path)) == ["bug", "feature", "question"]
    path.write_text("# our labels\rbug\rfeature\r", encoding="utf-8")   # (57th) old Mac line ends: "needs two labels"
    with pytest.raises(evalpy.EvalError) as e:
        evalpy.parse_labels(str(path))
    assert str(e.value) == f"{path}:1: a line ends in a carriage return alone (CR, old Mac line ends); save it with LF or CRLF line ends"
    path.write_text("bug\r\nfeature\r\nx\ry\n", encoding="utf-8")
    with pytest.raises(evalpy.EvalError, match=r"labels.txt:3: a line ends in a carriage return alone"):
        evalpy.parse_labels(str(path))
    # (round 104) a split saved so too: "bad JSON: Extra data (column 93)" said nothing of why
    other = dict(GOOD, id="c2")
    split = write_split(tmp_path, None, raw=(json.dumps(GOOD) + "\r" + json.dumps(other) + "\r").encode())
    assert problems(split) == [f"{split}:1: a line ends in a carriage return alone (CR, old Mac line ends); save it with "
                               "LF or CRLF line ends"]
    split = write_split(tmp_path, None, raw=("\r" + json.dumps(GOOD) + "\r" + json.dumps(other)).encode())   # (one first)
    assert problems(split) == [f"{split}:1: a line ends in a carriage return alone (CR, old Mac line ends); save it with "
                               "LF or CRLF line ends"]
    # and one saved as UTF-16 (Windows' "Unicode"): one line, not a fault on every line read as UTF-8
    split = write_split(tmp_path, None, raw=(json.dumps(GOOD) + "\n" + json.dumps(other) + "\n").encode("utf-16"))
    assert problems(split) == [f"{split}: is UTF-16 (its byte-order mark says so); save it as UTF-8"]
    split = write_split(tmp_path, None, raw=(json.dumps(GOOD) + "\n").encode("utf-32"))
    assert problems(split) == [f"{split}: is UTF-32 (its byte-order mark says so); save it as UTF-8"]
    # (round 105) without a byte-order mark (Python's utf-16-le, PowerShell's Unicode written by some tools): a JSON fault
    # on every line; told by its zero bytes, which no UTF-8 JSON line holds (a raw one in a line is a fault of its own)
    for codec, name in (("utf-16-le", "UTF-16"), ("utf-16-be", "UTF-16"), ("utf-32-le", "UTF-32"), ("utf-32-be", "UTF-32")):
        split = write_split(tmp_path, None, raw=(json.dumps(GOOD) + "\n" + json.dumps(other) + "\n").encode(codec))
        assert problems(split) == [f"{split}: is {name} (its zero bytes say so); save it as UTF-8"], codec
    split = write_split(tmp_path, None, raw=json.dumps(GOOD).encode()[:-1] + b', "x": "\x00"}\n')
    assert problems(split) == [f"{split}:1: bad JSON: invalid control character at column {len(json.dumps(GOOD)) + 8}"]
    # a carriage return between a value's tokens is a space: the fault is the line's own (a comma left over)
    split = write_split(tmp_path, None, raw=b'{"id": "c1",\r"input": "x", "difficulty": "easy", "note": "n",}\n')
    assert problems(split) == [f"{split}:1: bad JSON: Expecting property name enclosed in double quotes (column 62); a "
                               "comma after the last item, which JSON does not allow"], problems(split)
    path.write_text("bug\nbu\u200bg\n", encoding="utf-8")   # (59th) two labels that look one
    with pytest.raises(evalpy.EvalError) as e:
        evalpy.parse_labels(str(path))
    assert str(e.value) == f"{path}:2: label 'bu\\u200bg' holds an invisible character (U+200B), shown as nothing"
    for blank in ("\u3164", "\u180e", "\u206a", "\U0001d173", "\u17b4", "\u2800"):   # (60th, 61st) drawn blank
        path.write_text(f"bug\nbu{blank}g\n", encoding="utf-8")
        with pytest.raises(evalpy.EvalError, match="holds an invisible character"):
            evalpy.parse_labels(str(path))
    for unseen in ("\U000e0041", "\u034f", "\ufe0f"):   # (61st) a tag character, the grapheme joiner: one label
        path.write_text(f"bug\nbug{unseen}\n", encoding="utf-8")
        with pytest.raises(evalpy.EvalError, match="labels.txt:2: "):
            evalpy.parse_labels(str(path))
    path.write_text("bug\n\u034f\n", encoding="utf-8")   # (62nd) a label of nothing shown is said so, not "trimmed"
    with pytest.raises(evalpy.EvalError, match=r"labels.txt:2: label '\\u034f' is shown as nothing"):
        evalpy.parse_labels(str(path))
    scotland, england = ("\U0001f3f4" + "".join(chr(0xE0000 + ord(c)) for c in tag) + "\U000e007f" for tag in ("gbsct", "gbeng"))
    path.write_text(f"{scotland}\n{england}\n", encoding="utf-8")
    assert evalpy.parse_labels(str(path)) == [scotland, england]
    for inside in ("\x0c", "\x0b", "\u2028", "\x85"):
        path.write_text(f"bug\nbug2\nfeat{inside}ure\nquestion\n", encoding="utf-8")
        with pytest.raises(evalpy.EvalError) as e:
            evalpy.parse_labels(str(path))
        assert str(e.value).startswith(f"{path}:3: label 'feat\\"), str(e.value)
        assert "a line break or control character" in str(e.value), str(e.value)


@pytest.mark.parametrize("inside", ["\t", "\x0b", "\x0c"])
def test_a_tab_inside_a_label_is_refused_at_its_line_of_labels_txt(project, fake, inside):
    """134th round: a TAB inside a label ("b<TAB>ug") got through labels.txt, and the split was blamed, the TAB printed
    raw: "g/dev.jsonl:1: label 'bug' is not in labels.txt (labels: ..., b<TAB>ug, ...)". It is refused at its line of
    labels.txt as an ESC is; a vertical tab and a form feed with it."""
    split = forged_split(project, [("a", "bug")], labels=("feature", f"b{inside}ug"))
    code, out, err = eval_cli(project, "run", "--split", split, "--host", fake.url, "--prompt", "prompts/v1.txt")
    assert code == 2 and err == (f"error: mine/labels.txt:2: label {f'b{inside}ug'!r} holds a line break or control "
                                 "character; write one label a line, in plain text\n"), err


@pytest.mark.parametrize("space", ["\u00a0", "\u3000", "\u2003", "\u1680"])
def test_an_odd_space_inside_a_label_is_refused_at_its_line_of_labels_txt(project, fake, space):
    """134th round: a space other than the plain one inside a label ("b<NBSP>ug", an ideographic or em space) got
    through labels.txt, and a case's "b ug" was blamed on the split, the odd space printed raw as a plain one. It is
    refused at its line of labels.txt, escaped, as a TAB is."""
    split = forged_split(project, [("a", "b ug")], labels=("feature", f"b{space}ug"))
    code, out, err = eval_cli(project, "run", "--split", split, "--host", fake.url, "--prompt", "prompts/v1.txt")
    assert code == 2 and err == (f"error: mine/labels.txt:2: label {f'b{space}ug'!r} holds a space other than the plain "
                                 f"one (U+{ord(space):04X}); write it with a plain space\n"), err
    assert "\\u" in err or "\\x" in err, err


def test_a_huge_label_is_cut_in_the_warning_that_names_it(tmp_path):
    """Issue 28, seventeenth attack (minor): a 5 MB label the prompt did not name was printed whole (200 kB here)."""
    huge = "x" * 200_000
    (tmp_path / "labels.txt").write_text(f"bug\n{huge}\n", encoding="utf-8")
    said = evalpy.label_mismatch(["bug", huge], str(tmp_path / "dev.jsonl"), "Di bug.", "p.txt")
    assert len(said) < 1000 and "does not name the label xxxx" in said, said[:300]


def test_a_context_file_with_thousands_of_problems_says_the_first_hundred_and_how_many_more(tmp_path):
    """Issue 28, nineteenth attack: the 100-problem cut of a split did not reach --context files (5,004 lines)."""
    lines = [json.dumps({"id": f"x{i}", "context": []}) for i in range(300)]
    (tmp_path / "ctx.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(evalpy.EvalError) as e:
        evalpy.with_context_file(str(tmp_path / "ctx.jsonl"), [{"id": "a"}], {"a"})
    said = str(e.value).splitlines()
    assert len(said) == evalpy.MOST_PROBLEMS + 1 and said[-1] == "... and 201 more", said[-2:]


class CountedId(str):
    """A passage id or tool name that counts how often it is compared: the work of a repeat check."""
    compared = 0

    def __eq__(self, other):
        CountedId.compared += 1
        return str.__eq__(self, other)

    __hash__ = str.__hash__


def test_a_repeated_passage_id_or_tool_name_is_found_in_linear_work():
    """Twenty-first attack on issue 28, defect 2: the repeated-passage-id check compared each id with
    every one before it (30,000 passages: 5 s at every load of a split, a --context file or a run file;
    100,000: 76 s for `runs` and `report`), and tool names the same way. The first id given twice is
    still the one named."""
    n = 3000
    passages = [{"id": CountedId(f"p{i}"), "text": "t"} for i in range(n)]
    passages += [{"id": CountedId("p7"), "text": "again"}, {"id": CountedId("p5"), "text": "again"}]
    CountedId.compared = 0
    assert evalpy.context_problems({"context": passages}) == ["context: passage id 'p7' is given twice"]
    assert CountedId.compared < 10 * n, CountedId.compared
    unhashable = [{"id": ["p"], "text": "t"}, {"id": {"p": 1}, "text": "t"}, {"id": "p", "text": "t"}]
    assert evalpy.context_problems({"context": unhashable}) == [f"context passage {i}: id ({kind}) must be {evalpy.PASSAGE_ID_WORDS}"
                                                                for i, kind in ((1, "a list"), (2, "an object"))]
    tools = [{"type": "function", "function": {"name": CountedId(f"t{i}")}} for i in range(n)]
    tools.append({"type": "function", "function": {"name": CountedId("t9")}})
    CountedId.compared = 0
    assert evalpy.tools_problems(tools) == [f"tools[{n + 1}]: a second tool named 't9'"]
    assert CountedId.compared < 10 * n, CountedId.compared


class CountedText(str):
    """A file's text that counts the characters its line lookups scan."""
    scanned = 0

    def count(self, sub, start=0, end=None):
        end = len(self) if end is None else end
        CountedText.scanned += max(end - start, 0)
        return str.count(self, sub, start, end)


def test_the_line_of_each_tool_in_a_long_tools_json_is_found_in_one_pass():
    """Twenty-first attack on issue 28, defect 2 (its relative): the line each tool of tools.json (or
    check of checks.json) begins on was counted from the top of the file for every item, quadratic in
    the number of items (30,000 tools: 20 s)."""
    n = 2000
    text = CountedText('{"tools": [\n' + ",\n".join('{"type": "function", "function": {"name": "t%d"}}' % i
                                                      for i in range(n)) + "\n]}\n")
    CountedText.scanned = 0
    lines = evalpy.item_lines(text, "tools")
    assert lines == list(range(2, n + 2))
    assert CountedText.scanned <= 2 * len(text), (CountedText.scanned, len(text))


def test_json_too_deep_to_read_says_which_limit_it_passed():
    """Fifty-third round on issue 28: JSON past Python's recursion limit (a tool call's arguments 10,000 levels deep)
    was said to be "nested deeper than 64 levels", though a server's answer 900 deep is read; a file people write is
    held to 64 levels, and says so."""
    deep = "[" * 5000 + "]" * 5000
    with pytest.raises(ValueError, match=r"^nested too deeply to read \(past Python's recursion limit, about 1,000 levels\)$"):
        evalpy.exact_json(deep)
    assert evalpy.exact_json("[" * 100 + "]" * 100)   # (read: a server's answer is not held to 64)
    for text in (deep, "[" * 100 + "]" * 100):
        with pytest.raises(ValueError, match=r"^nested deeper than 64 levels$"):
            evalpy.strict_json(text)


def test_a_key_misremembered_in_a_turn_a_passage_or_a_rule_is_named(tmp_path):
    """Fifty-eighth attack on issue 28: a turn with "text" for "content", a passage with "content" for "text", a tool
    rule with "args" for "arguments" were told what the shape is, the key at fault unnamed."""
    assert evalpy.turn_problems([{"role": "user", "text": "hola"}]) == [
        'messages turn 1: must be an object with exactly "role" and "content"; it has "text", not "content"']
    assert evalpy.passages_shape_problem([{"id": "a", "content": "x"}]) == 'passage 1 has no "text"; it has "content", not "text"'
    # (round 105) without a key of another name, said once: 'passage 1 has no "id"; it has no "id"'
    assert evalpy.passages_shape_problem([{"text": "t"}]) == 'passage 1 has no "id"'
    assert evalpy.passages_shape_problem([{"id": "a"}]) == 'passage 1 has no "text"'
    assert evalpy.tool_results_problems({"lookup": [{"args": {}, "result": 1}]}, [{"function": {"name": "lookup"}}]) == [
        'tool_results.lookup[1]: a rule is {"arguments": {...}, "result": ...}; it has "args", not "arguments" (a list is a '
        'list of rules; a result that is itself a list goes in a rule with "arguments": {})']


def test_a_newcomers_slips_in_a_split_are_named_as_such(tmp_path):
    """73rd attack on issue 28: a split an editor pretty-printed gave fourteen lines of "Expecting property name", none
    saying a split holds a case per line; a trailing comma said only what JSON expected; null read "not NoneType"."""
    pretty = "".join(json.dumps(dict(GOOD, id=f"c{i}"), indent=2) + "\n" for i in range(2))
    assert problems(write_split(tmp_path, [], raw=pretty.encode())) == [
        f"{tmp_path}/s.jsonl:1: an object spread over lines 1-7: a .jsonl file holds one JSON object per line (JSON "
        "Lines); write each case on a line of its own (and 1 more below)"]
    # (75th) however many lines it spans (a cap of 400 lines named each of a long one's lines apart)
    long = json.dumps(dict(GOOD, tags=[f"t{i}" for i in range(500)]), indent=2) + "\n"
    assert problems(write_split(tmp_path, [], raw=long.encode())) == [
        f"{tmp_path}/s.jsonl:1: an object spread over lines 1-509: a .jsonl file holds one JSON object per line (JSON "
        "Lines); write each case on a line of its own"]
    # (77th) a byte not UTF-8 on another line, or much space before it, hides no spread value
    latin = b'{"id": "b", "input": "caf\xe9", "expected": "bug", "difficulty": "e", "note": "n"}\n' + long.encode()
    assert any(":2: an object spread over lines 2-510" in p for p in problems(write_split(tmp_path, [], raw=latin)))
    assert "an object spread over lines 1-509" in problems(write_split(tmp_path, [], raw=b" " * 300 + long.encode()))[0]
    # (74th) one spread after a case on its line of its own is named too
    mixed = json.dumps(GOOD) + "\n" + json.dumps(dict(GOOD, id="c2"), indent=2) + "\n"
    assert problems(write_split(tmp_path, [], raw=mixed.encode())) == [
        f"{tmp_path}/s.jsonl:2: an object spread over lines 2-8: a .jsonl file holds one JSON object per line (JSON "
        "Lines); write each case on a line of its own"]
    listed = json.dumps([GOOD], indent=1) + "\n"
    assert "a list spread over lines 1-9" in problems(write_split(tmp_path, [], raw=listed.encode()))[0]
    comma = json.dumps(GOOD)[:-1] + ",}\n"
    found = problems(write_split(tmp_path, [comma, dict(GOOD, id="c2", difficulty=None)]))
    assert found[0].endswith("; a comma after the last item, which JSON does not allow"), found
    assert found[1].endswith("s.jsonl:2: field 'difficulty' must be a string, not null"), found


def test_a_run_a_journal_or_a_split_given_as_the_prompt_is_refused_before_any_call(project, cli, fake):
    """Round 105: `run --prompt runs/dev-v2.json` sent the run file's JSON to the model as its instructions, for
    every case, and scored it (86%) without a word. A prompt that is one of eval.py's own files, or a split, is
    refused in one line saying what it is; a prompt that is JSON of another kind is a prompt."""
    Path("runs").mkdir()
    write_run("runs/r.json", make_run([("c1", "bug", "bug")]))
    Path("runs/j.json.journal").write_text('{"format": "eval.py-run/1", "config": {}}\n{"id": "c1", "trial": 1}\n')
    Path("runs/v.jsonl").write_text('{"id": "j01", "check": "answers", "pass": true}\n')
    Path("runs/p.journal").write_text('{"comparison": {"baseline": "a.json"}, "verdict": {"case": "c1"}}\n')
    for prompt, says in (("runs/r.json", "runs/r.json is an eval.py run file, not a prompt: a prompt is plain text, what "
                                         "the model is told (see it with `python eval.py report runs/r.json`)"),
                         ("runs/j.json.journal", "runs/j.json.journal is the journal of an unfinished run, not a prompt"),
                         ("golden/dev.jsonl", "golden/dev.jsonl looks like a split (a case on each line), not a prompt: "
                                              "give it as --split, and a prompt's text file as --prompt"),
                         # (116th round) a split's labels, or its checks, ran as the model's instructions
                         ("golden/labels.txt", "golden/labels.txt holds a split's labels, one a line, not a prompt"),
                         ("golden/support/checks.json", "golden/support/checks.json looks like a split's checks "
                                                        "(checks.json), not a prompt: it is read beside its split"),
                         ("golden/agent/tools.json", "golden/agent/tools.json looks like a split's tools (tools.json), not "
                                                     "a prompt"),
                         ("runs/v.jsonl", "runs/v.jsonl holds a person's verdicts, not a prompt: calibrate reads them"),
                         ("runs/p.journal", "runs/p.journal is compare --pairwise's journal of verdicts, not a prompt"),
                         # (117th round) a retriever's passages: its note said to add {{context}} to them
                         ("golden/rag/retriever-b.ndjson", "golden/rag/retriever-b.ndjson looks like a retriever's "
                                                           "passages (lines of id and context), not a prompt: give it as --context")):
        code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--prompt", prompt)
        assert code == 2 and err.startswith(f"error: {says}") and len(err.splitlines()) == 1, err
    assert fake.chat_bodies == [] and sorted(os.listdir("runs")) == ["j.json.journal", "p.journal", "r.json", "v.jsonl"]
    Path("prompts/labels.txt").write_text("Label the ticket: bug, facturación, acceso or petición.\n")   # (a prompt's)
    assert cli("run", "--split", "dev", "--host", fake.url, "--prompt", "prompts/labels.txt", "--limit", 1,
               "--out", "runs/l.json")[0] == 0
    os.unlink("runs/l.json")
    # (117th round) a project kept under a folder named prompts: its golden/labels.txt was a prompt, sent to the model
    Path("prompts/proj").mkdir()
    shutil.copytree("golden", "prompts/proj/golden")
    os.chdir("prompts/proj")
    try:
        code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--prompt", "golden/labels.txt")
        assert code == 2 and "golden/labels.txt holds a split's labels, one a line, not a prompt" in err, err
    finally:
        os.chdir(project)
    shutil.rmtree("prompts/proj")
    # (118th round) a project itself named prompts: its golden/labels.txt was a prompt again, and report of a text file
    # of it offered to run it as one
    shutil.copytree("golden", "prompts/golden")
    Path("prompts/requirements.txt").write_text("requests\n")
    os.chdir("prompts")
    try:
        code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--prompt", "golden/labels.txt")
        assert code == 2 and "golden/labels.txt holds a split's labels, one a line, not a prompt" in err, err
        code, out, err = cli("report", "requirements.txt")
        assert code == 2 and "--prompt" not in err, err
    finally:
        os.chdir(project)
    shutil.rmtree("prompts/golden")
    os.unlink("prompts/requirements.txt")
    os.chdir("prompts")   # (its review) from inside prompts/, its own labels.txt is a prompt
    try:
        assert cli("run", "--split", "../golden/dev.jsonl", "--host", fake.url, "--prompt", "labels.txt", "--limit", 1,
                   "--out", "../runs/l.json")[0] == 0
    finally:
        os.chdir(project)
    os.unlink("runs/l.json")
    Path("prompts/json.txt").write_text('{"task": "label the ticket: bug, facturación, acceso or petición"}\n')
    assert cli("run", "--split", "dev", "--host", fake.url, "--prompt", "prompts/json.txt", "--limit", 1)[0] == 0
    # (its review) a prompt of JSON whose "format" begins as eval.py's do is a prompt
    Path("prompts/json.txt").write_text('{"task": "label the ticket: bug, facturación, acceso or petición", '
                                        '"format": "eval.py-like output"}\n')
    assert cli("run", "--split", "dev", "--host", fake.url, "--prompt", "prompts/json.txt", "--limit", 1, "--out",
               "runs/j2.json")[0] == 0
    # a few-shot prompt beginning with an example written as a case is a prompt: a split is nothing but cases
    Path("prompts/shots.txt").write_text('{"id": "x", "input": "no entro"}\nLabel it: bug, facturación, acceso or petición.\n')
    assert cli("run", "--split", "dev", "--host", fake.url, "--prompt", "prompts/shots.txt", "--limit", 1)[0] == 0


def test_what_report_compare_or_runs_printed_as_json_given_as_the_prompt_is_refused(project, cli, fake):
    """Round 106: `report r.json --json > rep.json` given as --prompt was sent to the model whole (a run's figures and
    answers as its instructions), exit 0: the mistake round 105 refused of the run file itself."""
    Path("runs").mkdir()
    write_run("runs/r.json", make_run([("c1", "bug", "bug")]))
    write_run("runs/s.json", make_run([("c1", "bug", "acceso")]))
    for n, argv in enumerate((["report", "runs/r.json"], ["compare", "runs/r.json", "runs/s.json"], ["runs", "runs"])):
        code, out, err = cli(*argv, "--json")
        Path(f"p{n}.json").write_text(out, encoding="utf-8")
        code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--prompt", f"p{n}.json")
        assert code == 2 and err == (f"error: p{n}.json is what `python eval.py {argv[0]} --json` prints, not a prompt: "
                                     "a prompt is plain text, what the model is told\n"), err
    assert fake.chat_bodies == []


def test_a_file_beside_a_split_or_a_prompt_in_utf16_is_said_so_and_an_empty_tools_list_is_named(tmp_path):
    """Round 106: checks.json or tools.json saved as UTF-16 was "not valid UTF-8 (byte 1)", with nothing to do; a prompt
    "the prompt is not valid UTF-8"; a split's own line named UTF-16. And tools.json's "tools": [] was "tools must be a
    list of tool definitions", of a list."""
    for name, content, begins in (("checks.json", "[]", "{["), ("tools.json", '{"tools": []}', "{[")):
        for codec, how in (("utf-16", "its byte-order mark says so"), ("utf-16-le", "its zero bytes say so")):
            path = tmp_path / name
            path.write_bytes(content.encode(codec))
            with pytest.raises(evalpy.EvalError) as e:
                evalpy.read_json_file(str(path), name)
            assert str(e.value) == f"{path}: is UTF-16 ({how}); save it as UTF-8", e.value
    prompt = tmp_path / "p.txt"
    prompt.write_bytes("Label the ticket.\n".encode("utf-16"))
    with pytest.raises(evalpy.EvalError) as e:
        evalpy.load_prompt(str(prompt))
    assert str(e.value) == f"{prompt}: the prompt is UTF-16 (its byte-order mark says so); save it as UTF-8"
    prompt.write_bytes("Etiqueta el tique.\n".encode("latin-1") + b"\xe9")
    with pytest.raises(evalpy.EvalError) as e:
        evalpy.load_prompt(str(prompt))
    assert str(e.value) == f"{prompt}: the prompt is not valid UTF-8 (byte 20); save it as UTF-8", e.value
    (tmp_path / "tools.json").write_text('{"tools": []}', encoding="utf-8")
    with pytest.raises(evalpy.EvalError) as e:
        evalpy.load_split_tools(str(tmp_path / "tools.json"))
    assert str(e.value) == f"{tmp_path}/tools.json:1: tools is an empty list: give the tools every case has, or remove the file"


def test_a_context_file_or_verdicts_in_utf16_are_said_so_in_one_line(tmp_path):
    """Round 107's review: a --context file in UTF-16 was a bad-JSON line for each of its lines and "no line for case"
    for every case, which it had; calibrate's verdicts file in UTF-16 the same, UTF-16 never named."""
    cases = [{"id": "r1"}, {"id": "r2"}]
    context = "".join(json.dumps({"id": c["id"], "context": ["a passage"]}) + "\n" for c in cases)
    verdicts = "".join(json.dumps({"id": c["id"], "check": "faithful", "pass": True}) + "\n" for c in cases)
    for codec, how in (("utf-16", "its byte-order mark says so"), ("utf-16-le", "its zero bytes say so")):
        path = tmp_path / "ctx.jsonl"
        path.write_bytes(context.encode(codec))
        with pytest.raises(evalpy.EvalError) as e:
            evalpy.with_context_file(str(path), cases, {"r1", "r2"})
        assert str(e.value) == f"{path}: is UTF-16 ({how}); save it as UTF-8", e.value
        path = tmp_path / "verdicts.jsonl"
        path.write_bytes(verdicts.encode(codec))
        with pytest.raises(evalpy.EvalError) as e:
            evalpy.read_human_verdicts(str(path))
        assert str(e.value) == f"{path}: is UTF-16 ({how}); save it as UTF-8", e.value


def test_a_short_utf8_prompt_with_a_stray_nul_is_never_called_utf16(tmp_path):
    """133rd round: Say\\x00 bug\\n (9 bytes) was "the prompt is UTF-16 (its zero bytes say so); save it as UTF-8", a
    cure that cured nothing, where a longer one was said to hold a NUL byte. A file that reads as UTF-8 apart from its
    zero bytes is UTF-16 only where they are laid out as UTF-16's are."""
    prompt = tmp_path / "p.txt"
    for data in (b"Say\x00 bug\n", b"Sa\x00 bug\n", b"Hi\x00\n", b"No\x00\x00 refund\n"):
        prompt.write_bytes(data)
        with pytest.raises(evalpy.EvalError) as e:
            evalpy.load_prompt(str(prompt))
        assert "UTF-16" not in str(e.value) and "the prompt holds a NUL byte (\\x00)" in str(e.value), (data, e.value)
    for text in ("Hi\n", "正常\n紧急\n"):   # (as short, in UTF-16: named so still)
        prompt.write_bytes(text.encode("utf-16-le"))
        with pytest.raises(evalpy.EvalError, match="the prompt is UTF-16 "):
            evalpy.load_prompt(str(prompt))


def prompt_refusal(path, data):
    """What load_prompt says of a prompt file of these bytes."""
    path.write_bytes(data)
    with pytest.raises(evalpy.EvalError) as e:
        evalpy.load_prompt(str(path))
    return str(e.value)


def test_utf16_holding_a_character_whose_low_byte_is_zero_is_still_utf16(tmp_path):
    """133rd round's review: UTF-16 without a mark holding 一 (U+4E00), U+6000 or Ā (U+0100), whose zero byte is at the
    other place from ASCII's, was "holds a NUL byte (\\x00) ...: remove it" (8ba92fb's layout took zero bytes at one
    parity alone), though it holds 34 of them; it is UTF-16 again, and the short UTF-8 with one NUL is not."""
    for text in ("Classify 一 ticket as bug or not.\n", "Say 一 word\n", "Hello 一\n", "Ā \u6000 price\n"):
        for codec in ("utf-16-le", "utf-16-be"):
            said = prompt_refusal(tmp_path / "p.txt", text.encode(codec))
            assert "the prompt is UTF-16 (its zero bytes say so); save it as UTF-8" in said, (text, codec, said)
    assert "the prompt holds a NUL byte (\\x00)" in prompt_refusal(tmp_path / "p.txt", b"Say\x00 bug\n")


def test_a_file_of_a_character_or_two_with_a_nul_is_never_called_utf32(tmp_path):
    """133rd round's review: a\\x00\\n (3 bytes: no UTF-32 character, read as "", all of it printable) was "the prompt is
    UTF-32 (its zero bytes say so); save it as UTF-8", as were 2-byte UTF-16 files and oj\\x00\\x00 (one UTF-32
    character): a cure that cured nothing, guessed of so few bytes. A reading of fewer than two characters names no
    encoding: these get the NUL message."""
    for data in (b"a\x00\n", b"\x00", b"A\x00", b"\x00N", b"oj\x00\x00", b"T\x00\x00\x00m"):
        said = prompt_refusal(tmp_path / "p.txt", data)
        assert "UTF-32" not in said and "the prompt holds a NUL byte (\\x00)" in said, (data, said)


def test_a_prompt_or_labels_in_utf16_without_a_mark_is_said_so_and_a_few_shot_list_is_a_prompt(tmp_path, project, cli, fake):
    """Round 106's review: ASCII saved as UTF-16 without a byte-order mark is valid UTF-8, so a prompt went to the model
    with a zero byte after every letter, and labels were 'control characters'; and a few-shot prompt beginning with a
    list of objects each with a "file" key was refused as what `runs --json` prints."""
    for codec, name in (("utf-16-le", "UTF-16"), ("utf-16-be", "UTF-16"), ("utf-32-le", "UTF-32")):
        prompt = tmp_path / "p.txt"
        prompt.write_bytes("Classify the ticket. Answer with one label.\n".encode(codec))
        with pytest.raises(evalpy.EvalError) as e:
            evalpy.load_prompt(str(prompt))
        assert str(e.value) == f"{prompt}: the prompt is {name} (its zero bytes say so); save it as UTF-8", codec
        labels = tmp_path / "labels.txt"
        labels.write_bytes("bug\nfacturación\n".encode(codec))
        with pytest.raises(evalpy.EvalError) as e:
            evalpy.parse_labels(str(labels))
        assert str(e.value) == f"{labels}: is {name} (its zero bytes say so); save it as UTF-8", codec
    # (its review) a zero-width space among the letters is still UTF-16; a NUL in a UTF-8 prompt is no encoding
    prompt.write_bytes("You sort support tickets.\u200b Answer with one word.\n".encode("utf-16-le"))
    with pytest.raises(evalpy.EvalError, match="the prompt is UTF-16 "):
        evalpy.load_prompt(str(prompt))
    for text in ("Clasifica el ticket.\x00\nResponde con una etiqueta.\n",   # (its review) a stray NUL in UTF-8, of
                 "Είσαι βοηθός υποστήριξης. \x00\nΤαξινόμησε το μήνυμα.\n"):   # any script, is no UTF-16
        prompt.write_bytes(text.encode("utf-8"))   # (120th round: refused as the NUL it is, never sent)
        with pytest.raises(evalpy.EvalError, match=r"p.txt:1: the prompt holds a NUL byte \(\\x00\)"):
            evalpy.load_prompt(str(prompt))
    # (its review) one line of Russian in UTF-16 is valid UTF-8 of control characters: UTF-16 all the same
    prompt.write_bytes("Ты помощник службы поддержки. Отвечай только меткой.".encode("utf-16-le"))
    with pytest.raises(evalpy.EvalError, match="the prompt is UTF-16 "):
        evalpy.load_prompt(str(prompt))
    # (its review) Chinese in UTF-16 has few zero bytes: named UTF-16 all the same, never sent with its zero bytes
    for text in ("账单\n退款\n投诉\n", "正常\n紧急\n中性\n"):
        labels.write_bytes(text.encode("utf-16-le"))
        with pytest.raises(evalpy.EvalError, match=r"labels.txt: is UTF-16 \(its zero bytes say so\)"):
            evalpy.parse_labels(str(labels))
    prompt.write_bytes("中性\n是否正常\n".encode("utf-16-le"))
    with pytest.raises(evalpy.EvalError, match="the prompt is UTF-16 "):
        evalpy.load_prompt(str(prompt))
    Path("prompts/shots.txt").write_text('[{"file": "crash.log", "label": "bug"}, {"file": "invoice.pdf", "label": '
                                         '"facturación"}]\nAbove: attachments and their labels. Label the ticket.\n')
    assert cli("run", "--split", "dev", "--host", fake.url, "--prompt", "prompts/shots.txt", "--limit", 1)[0] == 0


def test_a_free_text_set_left_with_inits_labels_says_to_remove_it(tmp_path, project, cli):
    """Round 106 (a newcomer): cases with no 'expected' beside init's labels.txt were "7 lines lack 'expected'", never
    saying that labels.txt made the set a labelled one, nor what to do for a free-text set."""
    assert cli("init", "mine")[0] == 0
    Path("mine/dev.jsonl").write_text("".join(json.dumps({"id": f"c{i}", "input": "hola", "difficulty": "easy",
                                                          "note": "n"}) + "\n" for i in range(3)), encoding="utf-8")
    code, out, err = cli("run", "--split", "mine/dev.jsonl", "--host", "127.0.0.1:9")
    assert code == 2 and err == ("error: mine/dev.jsonl: 3 lines lack 'expected' (lines 1-3)\nmine/dev.jsonl: most cases give "
                                 "no 'expected', and labels.txt beside the split makes every case a label to expect: for "
                                 "a free-text set, remove it\n"), err
    # (its review) a labelled set missing one case's 'expected' is never told to remove labels.txt
    lines = Path("golden/dev.jsonl").read_text(encoding="utf-8").splitlines()
    one = json.loads(lines[4])
    del one["expected"]
    Path("golden/dev.jsonl").write_text("\n".join(lines[:4] + [json.dumps(one)] + lines[5:]) + "\n", encoding="utf-8")
    code, out, err = cli("run", "--split", "dev", "--host", "127.0.0.1:9")
    assert code == 2 and err == "error: golden/dev.jsonl:5: missing field 'expected'\n", err


def test_a_split_saved_in_windows_ansi_is_one_line_saying_to_save_it_as_utf8(tmp_path, project, cli):
    """Round 106 (a newcomer): a split saved by Excel or Notepad as Windows-1252 was 26 lines of "not valid UTF-8 (byte
    N)", each byte another, so never said once, and none said what to do."""
    text = Path("golden/dev.jsonl").read_text(encoding="utf-8")
    Path("golden/ansi.jsonl").write_bytes(text.replace("\n", "\r\n").encode("cp1252"))
    code, out, err = cli("run", "--split", "golden/ansi.jsonl", "--host", "127.0.0.1:9")
    assert code == 2 and len(err.splitlines()) == 1 and err.startswith(
        "error: golden/ansi.jsonl: 26 lines are not valid UTF-8 (saved in another encoding: Windows' ANSI, Latin-1?); "
        "save it as UTF-8 (lines 1-"), err
    # (its review) two lines pasted in ANSI among UTF-8 ones: saving the file whole as UTF-8 would garble the others
    lines = text.split("\n")
    Path("golden/mixed.jsonl").write_bytes(b"\n".join(l.encode("cp1252" if n < 2 else "utf-8") for n, l in enumerate(lines)))
    code, out, err = cli("run", "--split", "golden/mixed.jsonl", "--host", "127.0.0.1:9")
    assert code == 2 and "golden/mixed.jsonl:1: not valid UTF-8 (byte 38); this line was saved in another encoding, the " \
                         "others' letters in UTF-8: type its letters again" in err and "save it as UTF-8" not in err, err


@pytest.mark.parametrize("result", [True, False, 5, None])
def test_a_tool_result_that_is_a_json_scalar_loads_as_any_result_does(project, result):
    """115th round's fuzz: a tool result of true, false, 5 or null (JSON, sent as its text, as the README says) crashed
    the load (TypeError: 'bool' object is not iterable, exit 1: a failed gate to CI), in tools.json or a case."""
    import shutil
    shutil.copytree(ROOT / "golden" / "agent", "agx")
    tools = json.loads(Path("agx/tools.json").read_text(encoding="utf-8"))
    tools["tool_results"]["cancel_order"] = result
    Path("agx/tools.json").write_text(json.dumps(tools), encoding="utf-8")
    cases = evalpy.load_split("agx/dev.jsonl")[0]
    assert all(c["tool_results"]["cancel_order"] == result for c in cases if "cancel_order" in c.get("tool_results", {}))
    assert any("cancel_order" in c.get("tool_results", {}) for c in cases)


def test_a_split_beside_this_projects_of_its_path_is_named_apart_and_its_runs_name_their_file(project, cli, fake):
    """116th round: rag/dev.jsonl in the current folder was named rag-dev, the shipped set's name (golden/rag/dev.jsonl),
    its runs numbered among that set's; another project's golden/dev.jsonl was this one's dev; and --split x-dev, the
    name of runs made from ../x/dev.jsonl, was answered "did you mean dev?", golden's, another file."""
    here = project.name
    for folder in ("rag", "other/golden", "golden/x/golden"):
        os.makedirs(folder)
    shutil.copy("golden/rag/dev.jsonl", "rag/dev.jsonl")
    shutil.copy("golden/dev.jsonl", "other/golden/dev.jsonl")
    shutil.copy("golden/dev.jsonl", "golden/x/golden/dev.jsonl")
    assert evalpy.resolve_split("rag/dev.jsonl")[1] == f"{here}-rag-dev"
    assert evalpy.resolve_split("other/golden/dev.jsonl")[1] == "other-golden-dev"
    assert evalpy.resolve_split("golden/x/golden/dev.jsonl")[1] == "x-golden-dev"
    assert evalpy.resolve_split("other/golden/extra.jsonl")[1] == "extra"   # (none here of that path: its own name)
    assert [evalpy.resolve_split(p)[1] for p in ("golden/rag/dev.jsonl", "golden/dev.jsonl", "dev")] == ["rag-dev", "dev", "dev"]
    os.chdir("golden")   # (its own golden/ is no other: test.jsonl from inside it is test, rag/dev.jsonl rag-dev)
    try:
        assert [evalpy.resolve_split(p)[1] for p in ("test.jsonl", "rag/dev.jsonl")] == ["test", "rag-dev"]
    finally:
        os.chdir(project)
    os.chdir("rag")   # (round 133, as README says) the current folder's golden/ is read: rag/ has none, dev.jsonl is dev
    try:
        assert evalpy.resolve_split("dev.jsonl")[1] == "dev"
    finally:
        os.chdir(project)
    os.makedirs(project.parent / "x", exist_ok=True)
    shutil.copy("golden/labels.txt", project.parent / "x" / "labels.txt")
    (project.parent / "x" / "dev.jsonl").write_text("".join(Path("golden/dev.jsonl").read_text(encoding="utf-8")
                                                            .splitlines(keepends=True)[:3]), encoding="utf-8")
    assert cli("run", "--split", "../x/dev.jsonl", "--prompt", "prompts/v2.txt", "--host", fake.url)[0] == 0
    for other in ("[1]", '{"config": "abc"}'):   # (117th round) a file in runs/ of no run, read past (AttributeError)
        Path("runs/x-dev-notes.json").write_text(other, encoding="utf-8")
        code, out, err = cli("run", "--split", "x-dev", "--prompt", "prompts/v2.txt", "--host", fake.url)
        assert code == 2 and "did you mean ../x/dev.jsonl?" in err, err


def test_a_set_s_likely_slips_are_noted_before_a_run(project, cli):
    """116th round's newcomer: a tool given no result (every call "no result", blamed on the model's arguments), a
    checks.json saved as check.json (never read: no judge, no checks), a retriever whose passage ids none of the labels
    name (recall and precision 0, blamed on the retriever), and --context passages a prompt without {{context}} never
    shows ("its judges do" of a split with none) were each run without a word, or with an untrue one."""
    import copy
    os.makedirs("mine/agent")
    tools = json.loads(Path("golden/agent/tools.json").read_text(encoding="utf-8"))
    del tools["tool_results"]["lookup_policy"]
    Path("mine/agent/tools.json").write_text(json.dumps(tools), encoding="utf-8")
    shutil.copy("golden/agent/dev.jsonl", "mine/agent/dev.jsonl")
    shutil.copy("golden/agent/checks.json", "mine/agent/check.json")
    code, out, err = cli("run", "--split", "mine/agent/dev.jsonl", "--prompt", "prompts/agent/v1.txt", "--host", "127.0.0.1:9")
    assert code == 2 and ("note: mine/agent/dev.jsonl: the tool lookup_policy has no result in tools.json nor in any "
                          'case: every call to it gets "no result for these arguments"') in err, err
    assert "note: mine/agent/check.json is not read beside the split: did you mean checks.json?" in err, err
    assert "cancel_order has no result" not in err   # (a tool the cases forbid needs none; the shipped set gives one)
    # (119th round) a tool some cases forbid and one is to call needs results: the note was left out, each of its calls
    # "no result matched these arguments"; only a tool every case offering it forbids needs none
    del tools["tool_results"]["cancel_order"]
    Path("mine/agent/tools.json").write_text(json.dumps(tools), encoding="utf-8")
    code, out, err = cli("run", "--split", "mine/agent/dev.jsonl", "--prompt", "prompts/agent/v1.txt", "--host", "127.0.0.1:9")
    assert "the tool cancel_order has no result in tools.json nor in any case" in err, err
    # (its review) a labels.txt misspelt, the split then refused for want of one: the file there named in the refusal
    os.makedirs("mine/lab")
    shutil.copy("golden/dev.jsonl", "mine/lab/dev.jsonl")
    shutil.copy("golden/labels.txt", "mine/lab/lables.txt")
    code, out, err = cli("run", "--split", "mine/lab/dev.jsonl", "--prompt", "prompts/v2.txt", "--host", "127.0.0.1:9")
    assert code == 2 and "(mine/lab/lables.txt is there: did you mean labels.txt?)" in err, err
    os.makedirs("mine/sup")   # (and a checks.json misspelt, of a free-text set)
    shutil.copy("golden/support/dev.jsonl", "mine/sup/dev.jsonl")
    shutil.copy("golden/support/checks.json", "mine/sup/check.json")
    code, out, err = cli("run", "--split", "mine/sup/dev.jsonl", "--prompt", "prompts/support/v2.txt", "--host", "127.0.0.1:9")
    assert code == 2 and "(mine/sup/check.json is there: did you mean checks.json?)" in err, err
    # (117th round's newcomer) a tools.json misspelt, the split then refused for want of tools: the file named there too
    os.makedirs("mine/tl")
    shutil.copy("golden/agent/tools.json", "mine/tl/tool.json")
    Path("mine/tl/dev.jsonl").write_text(json.dumps({"id": "a1", "input": "hi", "difficulty": "easy", "note": "n", "checks": [
        {"type": "tool_called", "value": "lookup_order"}]}) + "\n", encoding="utf-8")
    code, out, err = cli("run", "--split", "mine/tl/dev.jsonl", "--prompt", "prompts/agent/v1.txt", "--host", "127.0.0.1:9")
    assert code == 2 and "needs the case's tools" in err and err.startswith(   # (119th round: first, the likely cause)
        "error: mine/tl/tool.json is not read beside the split: did you mean tools.json?\n"), err
    # (its review) an empty list of rules gives none too; a null result is one (the text null), and a tool the cases
    # forbid needs none
    tools["tool_results"]["lookup_policy"] = []
    Path("mine/agent/tools.json").write_text(json.dumps(tools), encoding="utf-8")
    code, out, err = cli("run", "--split", "mine/agent/dev.jsonl", "--prompt", "prompts/agent/v1.txt", "--host", "127.0.0.1:9")
    assert code == 2 and "the tool lookup_policy has no result" in err, err
    tools["tool_results"]["lookup_policy"], tools["tool_results"]["cancel_order"] = None, []
    Path("mine/agent/tools.json").write_text(json.dumps(tools), encoding="utf-8")
    code, out, err = cli("run", "--split", "mine/agent/dev.jsonl", "--prompt", "prompts/agent/v1.txt", "--host", "127.0.0.1:9")
    assert code == 2 and "lookup_policy has no result" not in err, err
    assert "cancel_order has no result" in err, err   # (119th round: agent-dev-04 is to call it; six cases forbid it)
    forbidding = [line for line in Path("golden/agent/dev.jsonl").read_text(encoding="utf-8").splitlines()
                  if '"tool_not_called", "value": "cancel_order"' in line.replace("'", '"')]
    Path("mine/agent/dev.jsonl").write_text("\n".join(forbidding) + "\n", encoding="utf-8")
    code, out, err = cli("run", "--split", "mine/agent/dev.jsonl", "--prompt", "prompts/agent/v1.txt", "--host", "127.0.0.1:9")
    assert forbidding and "cancel_order has no result" not in err, err   # (every case offering it forbids it: none needed)
    retrieved = [json.loads(line) for line in Path("golden/rag/retriever-b.ndjson").read_text(encoding="utf-8").splitlines()]
    chunks = copy.deepcopy(retrieved)
    for line in chunks:
        for n, passage in enumerate(line["context"]):
            passage["id"] = f"chunk-{n}"
    Path("chunks.ndjson").write_text("".join(json.dumps(line) + "\n" for line in chunks), encoding="utf-8")
    code, out, err = cli("run", "--split", "golden/rag/dev.jsonl", "--context", "chunks.ndjson", "--host", "127.0.0.1:9")
    assert code == 2 and ("note: no passage id in --context chunks.ndjson is one a case's relevant labels name (its "
                          "recall and precision are 0): do the retriever's ids match the split's \"relevant\"?") in err, err
    code, out, err = cli("run", "--split", "golden/rag/dev.jsonl", "--context", "golden/rag/retriever-b.ndjson",
                         "--host", "127.0.0.1:9")
    assert code == 2 and "no passage id" not in err and "note:" not in err, err
    # (its review) a case the retriever missed, asked alone, is no mismatch of ids (the shipped rag-dev-03)
    code, out, err = cli("run", "--split", "golden/rag/dev.jsonl", "--cases", "rag-dev-03", "--host", "127.0.0.1:9")
    assert code == 2 and "note:" not in err, err
    # passages given by --context to a prompt without {{context}}, of a split with no judge: said so, with the fix
    dev_ids = [json.loads(line)["id"] for line in Path("golden/dev.jsonl").read_text(encoding="utf-8").splitlines()]
    Path("ctx.ndjson").write_text("".join(json.dumps({"id": i, "context": [{"id": "p", "text": "t"}]}) + "\n"
                                          for i in dev_ids), encoding="utf-8")
    code, out, err = cli("run", "--split", "dev", "--context", "ctx.ndjson", "--host", "127.0.0.1:9")
    assert code == 2 and ("note: --context ctx.ndjson gives the cases passages but prompts/v3.txt has no {{context}}: the "
                          "model never sees them; add {{context}} to the prompt\n") in err, err


def test_a_prompt_that_never_shows_the_case_is_said_to(project, cli, fake, tmp_path):
    """118th round's newcomer: cases with vars and no input, under a prompt using none of their vars, were each sent
    the same request (the score measured nothing), without a word; a prompt's {{input}} of cases that have an input
    was said to want vars.input (which would send it twice); --split dev run from outside the project named no place."""
    os.makedirs("v3s/prompts")
    Path("v3s/labels.txt").write_text("bug\nfeature\nquestion\n")
    Path("v3s/dev.jsonl").write_text("".join(json.dumps({"id": f"a{i}", "vars": {"ticket": t}, "expected": e,
                                                         "difficulty": "easy", "note": "x"}) + "\n"
                                             for i, (t, e) in enumerate([("App crashes", "bug"), ("Dark mode", "feature")])))
    Path("v3s/prompts/v1.txt").write_text("Classify the ticket as bug, feature or question.\n")
    code, out, err = cli("run", "--split", "v3s/dev.jsonl", "--host", fake.url)
    assert ("note: v3s/dev.jsonl: 2 cases have no input and v3s/prompts/v1.txt uses none of their vars: the model is sent "
            "the same request for each and never sees the case; add {{ticket}} to the prompt\n") in err, err
    Path("v3s/prompts/v2.txt").write_text("Classify the ticket as bug, feature or question: {{ticket}}\n")
    code, out, err = cli("run", "--split", "v3s/dev.jsonl", "--host", fake.url)
    assert "never sees the case" not in err, err
    Path("pin.txt").write_text("Classify this ticket: {{input}}\nAnswer facturación, bug, acceso or petición.\n")
    code, out, err = cli("run", "--split", "dev", "--prompt", "pin.txt", "--host", "127.0.0.1:9")
    assert code == 2 and err == ("error: golden/dev.jsonl: 28 lines have no vars.input, which pin.txt uses as {{input}}; "
                                 "a case's input (or its turns) is sent as the user's message already: take the "
                                 "placeholder out of the prompt (lines 1-28)\n"), err
    code, out, err = eval_cli(tmp_path.parent, "run", "--split", "dev", "--host", "127.0.0.1:9")
    assert code == 2 and err.endswith(f"(eval.py's own project has golden/dev.jsonl: run from {evalpy.shell_word(str(ROOT))})\n"), err


def test_a_prompt_named_by_its_file_alone_is_offered_from_the_split_s_prompts(project, cli):
    """118th round's newcomer: --prompt v2.txt (or v2) said "no such prompt file" alone, prompts/v2.txt there; a
    split's folder of prompts with no vN.txt named nothing of what it holds."""
    for given in ("v2.txt", "v2"):
        code, out, err = cli("run", "--split", "dev", "--prompt", given, "--host", "127.0.0.1:9")
        assert code == 2 and err == f"error: {given}: no such prompt file; did you mean prompts/v2.txt?\n", err
    os.makedirs("m2/prompts")
    shutil.copy("golden/dev.jsonl", "m2/dev.jsonl")
    shutil.copy("golden/labels.txt", "m2/labels.txt")
    Path("m2/prompts/prompt.txt").write_text("Label it: bug, facturación, acceso or petición.\n")
    code, out, err = cli("run", "--split", "m2/dev.jsonl", "--host", "127.0.0.1:9")
    assert code == 2 and err == ("error: no m2/prompts/v<N>.txt prompt found; pass --prompt PATH (there: "
                                 "m2/prompts/prompt.txt)\n"), err
    code, out, err = cli("run", "--split", "m2/dev.jsonl", "--prompt", "prompt", "--host", "127.0.0.1:9")
    assert code == 2 and err == "error: prompt: no such prompt file; did you mean m2/prompts/prompt.txt?\n", err
    code, out, err = cli("run", "--split", "m2/dev.jsonl", "--prompt", "v2.txt", "--host", "127.0.0.1:9")
    assert code == 2 and err == "error: v2.txt: no such prompt file\n", err   # (prompts/v2.txt: another split's)
    # (126th round's newcomer) a folder given: "is a folder, not a prompt file", and no cure
    code, out, err = cli("run", "--split", "m2/dev.jsonl", "--prompt", "m2/prompts/", "--host", "127.0.0.1:9")
    assert code == 2 and err == ("error: m2/prompts/: is a folder, not a prompt file; give one of its prompts "
                                 "(m2/prompts/prompt.txt)\n"), err
    # (its review) a folder of no prompts: none offered, never its other .txt files (labels.txt)
    code, out, err = cli("run", "--split", "m2/dev.jsonl", "--prompt", "golden", "--host", "127.0.0.1:9")
    assert code == 2 and err == ("error: golden: is a folder, not a prompt file; it holds no prompt file (vN.txt): give a "
                                 "prompt file's path\n"), err
    # (127th round's newcomer) one that cannot be read, or entered, was said to hold none, and one whose opening the
    # system refused (another's) was "cannot read prompt file". (The refusals are made as the system makes them.)
    real_listdir, real_access, real_open = os.listdir, os.access, open
    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(os, "listdir", lambda p: (_ for _ in ()).throw(PermissionError(13, "Permission denied", p))
                        if os.path.normpath(p) == "m2/prompts" else real_listdir(p))
        code, out, err = cli("run", "--split", "m2/dev.jsonl", "--prompt", "m2/prompts", "--host", "127.0.0.1:9")
    assert code == 2 and err.startswith("error: m2/prompts: is a folder, not a prompt file; it cannot be read (Permission "
                                        "denied: "), err
    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(os, "access", lambda p, mode, **kw: False if os.path.normpath(p) == "m2/prompts" and mode == os.X_OK
                        else real_access(p, mode, **kw))
        patched.setattr(os.path, "isfile", lambda p: False if os.path.dirname(p) == "m2/prompts" else os.path.exists(p)
                        and not os.path.isdir(p))
        code, out, err = cli("run", "--split", "m2/dev.jsonl", "--prompt", "m2/prompts", "--host", "127.0.0.1:9")
    assert code == 2 and err == ("error: m2/prompts: is a folder, not a prompt file; its files cannot be reached: the "
                                 "folder cannot be entered (Permission denied); fix its permissions (chmod +x), or give a "
                                 "prompt file's path\n"), err
    assert "cannot read prompt file" not in str(evalpy.unreadable("m2/prompts", "prompt file",
                                                                  PermissionError(13, "Permission denied", "m2/prompts")))


def test_the_session_s_hints_said_of_what_is_there(project, cli, fake):
    """118th round's review of its own hints: a split whose first line is past a MiB was no split to the hint; a var
    no placeholder can name was to be added as {{order id}}, which the next run refuses; a placeholder's name holding
    ';' (U+037E in NFC) grew a stray tail in the grouped message."""
    case = json.loads(Path("golden/dev.jsonl").read_text(encoding="utf-8").splitlines()[0])
    Path("golden/longdoc.jsonl").write_text(json.dumps(dict(case, input="mi factura " * 110_000)) + "\n")
    code, out, err = cli("run", "--split", "longdc", "--host", "127.0.0.1:9")
    assert code == 2 and "did you mean longdoc?" in err, err
    os.makedirs("t")
    shutil.copy("golden/labels.txt", "t/labels.txt")
    Path("t/w.jsonl").write_text(json.dumps({"id": "a", "vars": {"order id": "no puedo entrar"}, "expected": "acceso",
                                             "difficulty": "easy", "note": "n"}) + "\n")
    Path("t/p1.txt").write_text("Clasifica este ticket: facturación, bug, acceso o petición.\n")
    code, out, err = cli("run", "--split", "t/w.jsonl", "--prompt", "t/p1.txt", "--host", fake.url)
    assert ("uses none of its vars: the model is sent the same request for it and never sees the case; rename "
            "vars.'order id' (a placeholder's name begins with a letter or _ and holds letters, digits, _, - and "
            "characters past ASCII, never a space) and use it in the prompt\n") in err, err
    # (119th round: the rule whole, a name that breaks only its first letter's, 1st, was told what it had; two, "them")
    Path("t/w.jsonl").write_text(json.dumps({"id": "a", "vars": {"1st": "no puedo entrar", "-x": "y"}, "expected": "acceso",
                                             "difficulty": "easy", "note": "n"}) + "\n")
    code, out, err = cli("run", "--split", "t/w.jsonl", "--prompt", "t/p1.txt", "--host", fake.url)
    assert ("rename vars.'-x', vars.'1st' (a placeholder's name begins with a letter or _ and holds letters, digits, _, "
            "- and characters past ASCII, never a space) and use them in the prompt\n") in err, err
    Path("t/p8.txt").write_text("Clasifica (facturación, bug, acceso, petición): {{a\u037eb}}\n")
    code, out, err = cli("run", "--split", "dev", "--prompt", "t/p8.txt", "--host", "127.0.0.1:9")
    assert code == 2 and err == ("error: golden/dev.jsonl: 28 lines have no vars.a;b, which t/p8.txt uses as {{a;b}} "
                                 "(lines 1-28)\n"), err


def test_a_split_of_another_project_never_takes_this_folder_s_prompts(project, cli):
    """118th round's newcomer: run from a project's parent, proj/golden/ft/dev.jsonl took ./prompts/v1.txt (another
    project's) without a word, where proj/prompts/ft/ holds its own; and init proj/golden/faq3 from there wrote its
    prompt to proj/golden/faq3/prompts/, which no run from proj reads."""
    os.makedirs("proj")
    assert cli("init", "proj/golden/faq3")[0] == 0
    assert Path("proj/prompts/faq3/v1.txt").is_file() and not Path("proj/golden/faq3/prompts").exists()
    code, out, err = cli("run", "--split", "proj/golden/faq3/dev.jsonl", "--host", "127.0.0.1:9")   # (./prompts there)
    assert code == 2 and err == ("error: no prompt for proj/golden/faq3/dev.jsonl here (prompts/ here is this folder's, "
                                 "not its project's); the split is in proj/golden, whose prompts are in proj/prompts/faq3/: "
                                 "run from proj, or pass --prompt with one of them\n"), err
    # (119th round) nor through a link to that golden/: it ran with ./prompts/v1.txt unsaid, and init through it wrote
    # the prompt where no run from proj reads it
    os.symlink("proj/golden", "link")
    code, out, err = cli("run", "--split", "link/faq3/dev.jsonl", "--host", "127.0.0.1:9")
    assert code == 2 and "whose prompts are in proj/prompts/faq3/: run from proj" in err, err
    assert cli("init", "link/faq4")[0] == 0
    assert Path("proj/prompts/faq4/v1.txt").is_file() and not Path("proj/golden/faq4/prompts").exists()
    os.chdir("proj")
    code, out, err = cli("run", "--split", "golden/faq3/dev.jsonl", "--host", "127.0.0.1:9")
    assert code == 2 and "cannot reach the model server" in err, err


def test_a_project_s_paths_are_read_from_the_project_wherever_eval_py_runs(project, cli, fake):
    """118th round's sixth newcomer: from a project's sub-folder or parent, --prompt v1 offered this folder's prompt
    (or the shipped one), the labels warning sent the prompt to golden/X/prompts/ (which, made, was then taken),
    --split test offered eval.py's own project; init from inside golden/ wrote golden/X/prompts/, which no run reads;
    init of a whole path under a folder merely named golden/ wrote the prompt outside the project."""
    os.makedirs("p/notes")
    os.chdir("p")
    assert cli("init", "golden/tickets")[0] == 0 and Path("prompts/tickets/v1.txt").is_file()
    shutil.copy("golden/tickets/dev.jsonl", "golden/test.jsonl")
    os.chdir("notes")
    code, out, err = cli("run", "--split", "../golden/tickets/dev.jsonl", "--prompt", "v1", "--host", "127.0.0.1:9")
    assert code == 2 and err == "error: v1: no such prompt file; did you mean ../prompts/tickets/v1.txt?\n", err
    Path("../prompts/tickets/v2.txt").write_text("Classify as bug or feature.\n")
    code, out, err = cli("run", "--split", "../golden/tickets/dev.jsonl", "--prompt", "../prompts/tickets/v2.txt",
                         "--host", "127.0.0.1:9")
    assert ("warning: ../prompts/tickets/v2.txt does not name the label question of ../golden/tickets/labels.txt; add it "
            "to the prompt\n") in err, err
    code, out, err = cli("run", "--split", "test", "--host", "127.0.0.1:9")
    assert code == 2 and err.endswith("(the project above, .., has golden/test.jsonl: run from there)\n"), err
    os.chdir("../golden")
    assert cli("init", "faq")[0] == 0 and Path("../prompts/faq/v1.txt").is_file() and not Path("faq/prompts").exists()
    os.chdir(project)
    os.makedirs("g4/golden/proj")
    os.chdir("g4/golden/proj")
    whole = os.path.abspath("sets/faq")
    assert cli("init", whole)[0] == 0 and Path(whole, "prompts", "v1.txt").is_file() and not Path(project, "g4/prompts").exists()


def test_a_split_by_a_whole_path_through_a_link_to_here_is_this_project_s(project, cli, tmp_path):
    """118th round's review: $PWD/golden/support/dev.jsonl from a folder reached through a link (as scripts pass it)
    was another project's split, "run from" the very folder it ran in."""
    os.symlink(project, tmp_path.parent / (tmp_path.name + "-link"))
    linked = tmp_path.parent / (tmp_path.name + "-link")
    code, out, err = cli("run", "--split", str(linked / "golden" / "support" / "dev.jsonl"), "--host", "127.0.0.1:9")
    assert code == 2 and "cannot reach the model server" in err and "run from" not in err, err
    # (its review) nor a golden/support/ that is itself a link to a shared folder: golden/'s all the same
    shutil.move("golden/support", tmp_path.parent / (tmp_path.name + "-shared"))
    os.symlink(tmp_path.parent / (tmp_path.name + "-shared"), "golden/support")
    code, out, err = cli("run", "--split", "golden/support/dev.jsonl", "--host", "127.0.0.1:9")
    assert code == 2 and "cannot reach the model server" in err and "run from" not in err, err


def test_a_golden_folder_that_is_a_link_to_nothing_is_named_for_a_split_name(project, cli, fake):
    """121st round's review: golden/ itself a link to nothing (or a loop) said "no split 'dev' ... There is no golden/
    split here", where a path under it named the link."""
    os.rename(project / "golden", project / "g2")
    os.symlink("nowhere", project / "golden")
    code, out, err = cli("run", "--split", "dev", "--host", fake.url)
    assert code == 2 and err == "error: --split dev: golden is a link to nowhere, which does not exist; fix the link or remove it\n", err
    os.unlink(project / "golden")
    os.symlink("golden", project / "golden")
    code, out, err = cli("run", "--split", "dev", "--host", fake.url)
    assert code == 2 and err == "error: --split dev: golden is a link that leads back to itself (a loop); fix the link or remove it\n", err


def test_another_users_run_file_of_mode_600_asks_its_owner(project, cli, monkeypatch):
    """130th round's perm attack: another user's run file of mode 600 (a pairwise sidecar alike) was refused by report
    and runs with "cannot read run file (Permission denied: ... fix the permissions, or use another path)": their
    chmod, which fails. Whose it is is said, and its owner asked to make it readable. (Ownership is set with chown, this
    process seen as user 1000; its reading refused as the system refuses it.)"""
    write_two_runs()
    os.chmod("runs/dev-v2.json", 0o600)
    os.chown("runs/dev-v2.json", 4321, 4321)
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    open_refused(monkeypatch, "runs/dev-v2.json")
    said = ("runs/dev-v2.json: cannot read run file (Permission denied): it is another user's file (uid 4321, mode 600): "
            "ask its owner to make it readable")
    code, out, err = cli("report", "runs/dev-v2.json")
    assert code == 2 and err == f"error: {said}\n", err
    code, out, err = cli("runs", "runs")
    assert said.split(": ", 1)[1] in " ".join((out + err).split()) and "fix the permissions" not in out + err, (out, err)


NFC_ID, NFD_ID = "caf\u00e9", "cafe\u0301"   # one id as the split's loader holds it (id_as_shown), written two ways


def test_an_id_in_another_unicode_form_names_its_case_in_cases_and_context(project, cli, fake):
    """136th round, F1: the loader holds café and cafe + a combining accent one id, but --cases and --context matched
    ids byte for byte: "ctx.jsonl:1: the split has no case 'café'" beside "no line for case café", and "--cases: ... has
    no case café; did you mean café?". Each names the case alike, and the run records the split's own id."""
    split = forged_split(project, [(NFC_ID, "bug"), ("b", "bug")])
    Path("ctx.jsonl").write_text(json.dumps({"id": NFD_ID, "context": [{"id": "a", "text": "30 days."}]}) + "\n"
                                 + json.dumps({"id": "b", "context": []}) + "\n", encoding="utf-8")
    for extra, out_path in ((("--cases", NFD_ID), "runs/cases.json"), (("--context", "ctx.jsonl"), "runs/ctx.json")):
        code, out, err = cli("run", "--split", split, "--host", fake.url, "--prompt", "prompts/v1.txt",
                             "--out", out_path, *extra)
        assert code != 2 and "no case" not in err and "no line for case" not in err, err
        results = json.loads(Path(out_path).read_text(encoding="utf-8"))
        assert NFC_ID in {r["id"] for r in results["results"]}, results["results"]
        assert cli("report", out_path)[0] != 2   # (its subset names the ids its results hold)
    assert results["config"].get("subset") is None
    assert json.loads(Path("runs/cases.json").read_text(encoding="utf-8"))["config"]["subset"] == {"cases": [NFC_ID]}


def test_a_context_file_giving_one_case_in_two_unicode_forms_shows_both(tmp_path):
    """136th round, F1: a case's line given twice, once in each form, is said so, each form told apart (id_word)."""
    path = tmp_path / "ctx.jsonl"
    path.write_text("".join(json.dumps({"id": i, "context": []}) + "\n" for i in (NFC_ID, NFD_ID)), encoding="utf-8")
    with pytest.raises(evalpy.EvalError) as e:
        evalpy.with_context_file(str(path), [{"id": NFC_ID}], {NFC_ID})
    assert str(e.value) == f"{path}:2: case $'cafe\\u0301' is given twice (first on line 1, as café)", e.value
