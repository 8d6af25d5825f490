"""Normalize: free text onto the closed label set, or INVALID, exactly as the seed does."""

import pytest

from conftest import LABELS, evalpy

I = evalpy.INVALID

TABLE = [
    # what the seed accepts: case, a final full stop, a missing accent
    ("bug", "bug"),
    ("Bug", "bug"),
    ("BUG", "bug"),
    ("bug.", "bug"),
    ("Bug.", "bug"),
    ("facturacion", "facturación"),
    ("Facturación", "facturación"),
    ("FACTURACIÓN.", "facturación"),
    ("peticion", "petición"),
    ("Petición", "petición"),
    ("acceso", "acceso"),
    ("Accesó", "acceso"),                 # an accent too many is still the label
    # whitespace and the stripped characters . " ' ` * at both ends
    ("  acceso\n", "acceso"),
    ("\tbug\r\n", "bug"),
    ('"bug"', "bug"),
    ("'acceso'", "acceso"),
    ("`petición`", "petición"),
    ("**bug**", "bug"),
    ("*facturación*.", "facturación"),
    ('."bug".', "bug"),
    ("...bug...", "bug"),
    # what the seed rejects: the label inside a sentence, a prefix, an explanation
    ("Categoría: Bug", I),
    ("categoría: bug", I),
    ("La categoría es bug.", I),
    ("bug\n\nEl ticket describe un fallo de la aplicación.", I),
    ("Bug (error de la aplicación)", I),
    ("bug, acceso", I),
    ("bugs", I),
    ("billing", I),
    ("", I),
    ("   ", I),
    ("**", I),
    # whitespace inside the stripped characters is not stripped again (the seed's order)
    ("** bug **", I),
    ('"bug "', I),                        # (67th attack: the README now says so)
    ("* bug", I),
    ("bug .", I),
    ("- bug", I),
    ("[bug]", I),
    ("INVALID", I),
]


@pytest.mark.parametrize("answer, label", TABLE)
def test_normalize(answer, label):
    assert evalpy.normalize(answer, LABELS) == label


def test_decomposed_accents_match_composed_labels():
    assert evalpy.normalize("petic\u0069\u0301on", LABELS) == "petición"
    assert evalpy.normalize("facturaci\u00f3n", ["facturacio\u0301n", "bug"]) == "facturacio\u0301n"


def test_a_mark_that_is_part_of_a_letter_is_kept_an_accent_is_not():
    """Fifty-eighth attack on issue 28: every combining mark was dropped, so in Japanese ハグ (hug) was the label
    バグ (bug), in Hindi मल was मेल and बरा was बुरा: another word scored as right; labels.txt with ビル and ピル was
    refused as one label twice. An accent over a Latin, Greek, Cyrillic, Hebrew or Arabic letter is still ignored."""
    assert evalpy.normalize("ハグ", ["バグ", "請求"]) == evalpy.INVALID
    assert evalpy.normalize("バグ", ["バグ", "請求"]) == "バグ"
    assert evalpy.normalize("\u30cf\u3099\u30af\u3099", ["バグ", "請求"]) == "バグ"   # バグ written as ハ, ク and their marks
    assert evalpy.normalize("मल", ["मेल", "मैल"]) == evalpy.INVALID and evalpy.normalize("मैल", ["मेल", "मैल"]) == "मैल"
    assert evalpy.normalize("बरा", ["बुरा", "अच्छा"]) == evalpy.INVALID
    assert evalpy.normalize("ขาว", ["ข่าว", "อื่น"]) == evalpy.INVALID   # Thai: a tone mark makes "news" of "white"
    assert evalpy.label_key("ビル") != evalpy.label_key("ピル")
    for answer, label in [("Ελληνικά", "ελληνικα"), ("ПОЙДЁМ", "пойдем"), ("ايجابي", "إيجابي"), ("שָׁלוֹם", "שלום"),
                          ("Ệ", "e"), ("Crème brûlée", "creme brulee"),
                          # (59th) a variation selector chooses a glyph over any letter: ❤️ is ❤, 葛󠄀 is 葛
                          ("\u2764", "\u2764\ufe0f"), ("\u26a0\ufe0f", "\u26a0"), ("\u845b", "\u845b\U000e0100"),
                          ("\u00a9", "\u00a9\ufe0f")]:
        assert evalpy.normalize(answer, [label, "x"]) == label, answer
    # (59th) Thaana, NKo and Syriac marks are vowels and tones; a stroke through is no accent; a mark alone is kept
    for answer, label in [("\u0784\u07a8\u078c\u07b0", "\u0784\u07a6\u078c\u07b0"), ("\u07d3\u07eb", "\u07d3\u07ec"),
                          ("\u0710\u0733\u0712", "\u0710\u0730\u0712"), ("y\u0336e\u0336s\u0336", "yes"), ("\u0301x", "x"),
                          ("y\u20e5es", "yes"), ("y\u20ebes", "yes")]:   # (60th) other strokes through
        assert evalpy.normalize(answer, [label, "otro"]) == evalpy.INVALID, answer


# --- labels that begin or end with a character an answer loses at its ends

ODD_LABELS = [".NET", "N/A.", '"quoted"', "C*", "bug"]


@pytest.mark.parametrize("answer, label", [
    (".NET", ".NET"), (".net.", ".NET"), ("NET", ".NET"), ("N/A.", "N/A."), ("n/a", "N/A."),
    ('"quoted"', '"quoted"'), ("Quoted", '"quoted"'), ("C*", "C*"), ("**c**", "C*"), ("C", "C*"),
    ("C#", I), ("N/A!", I),
])
def test_a_label_is_trimmed_as_an_answer_is_and_shown_as_written(answer, label):
    """Normalization trims . " ' ` * from an answer's ends: the label is matched trimmed the same
    way, and the label as written in labels.txt is what the answer counts as."""
    assert evalpy.normalize(answer, ODD_LABELS) == label


def test_labels_that_end_in_trimmed_characters_score_through_a_run(project, cli, fake):
    from conftest import small_split
    split = small_split(ODD_LABELS, [("a", ".NET"), ("b", "N/A."), ("c", '"quoted"'), ("d", "C*")])
    fake.answers = {"ticket a": ".NET", "ticket b": "N/A.", "ticket c": '"quoted"', "ticket d": "c"}
    code, out, err = cli("run", "--split", split, "--prompt", "prompts/v1.txt", "--host", fake.url)
    assert code == 0 and out.startswith("Accuracy: 4/4 = 100%"), out + err
    assert "Invalid answers: 0" in out.splitlines()


# --- thinking: what is scored is the answer after the reasoning, never the reasoning

@pytest.mark.parametrize("response, answer", [
    ("bug", "bug"),                                                  # no reasoning: the response itself
    ("<think>\nUn cobro doble: facturación.\n</think>\n\nbug", "bug"),  # the answer after the block
    ("  <think>x</think>acceso", "acceso"),                          # leading whitespace before the block
    ("<think></think>petición", "petición"),                         # an empty block
    ("<think>\nsigo pensando", None),                                # never closed: no answer at all
    ("<think>", None),
    ("bug <think>x</think>", "bug <think>x</think>"),                # only a leading block is reasoning
    ("<think>a</think> b </think> c", "b </think> c"),               # the first close ends it
    # a template that opens <think> in the prompt (DeepSeek-R1's): the text has only the close
    ("Un cobro doble: facturación.\n</think>\n\nbug", "bug"),        # before a lone close is reasoning
    ("</think>acceso", "acceso"),
    ("pensando</think>", ""),                                        # reasoning and no answer
    ("a </think> b <think> c </think> d", "b <think> c </think> d"),  # the first close ends it
    ("usa <think> y </think> en HTML", "usa <think> y </think> en HTML"),  # a close after an open is text
    # a lone close inside a JSON object is quoted text (a judge naming the tag it saw), never the end of reasoning
    ('{"reason": "deja un </think> suelto", "pass": false}', '{"reason": "deja un </think> suelto", "pass": false}'),
    ('Veo que {"reason": "cita </think>", "winner": "B"}', 'Veo que {"reason": "cita </think>", "winner": "B"}'),
    ('{"label": "bug", "why": {"tag": "</think>"}}', '{"label": "bug", "why": {"tag": "</think>"}}'),
    # (139th round) so is one inside an array or a string that is the whole answer, JSON: a json check failed on "]
    ('["cierra con </think>"]', '["cierra con </think>"]'),
    ('["cierra con </think>", "y responde"]', '["cierra con </think>", "y responde"]'),
    ('"cita </think> y ya"', '"cita </think> y ya"'),
    ('<think>a</think>["b </think>"]', '["b </think>"]'),
    # ... but reasoning that wrote a whole object before its close is still reasoning
    ('Respondo {"label": "bug"}\n</think>\n\n{"label": "bug"}', '{"label": "bug"}'),
    ('{ una llave en prosa </think>acceso', "acceso"),
    ('El cliente escribió {"nombre y nada más\n</think>\n\nbug', "bug"),   # an object that never closes
    # the first close outside every object ends the reasoning
    ('Escribiría {"tag": "</think>"} y ya.\n</think>\n\nbug', "bug"),
    ('{"a": "</think>"} {"b": "</think>"}</think>acceso', "acceso"),
    # (twenty-first attack, minor) a second block right after the first is reasoning too, not the answer
    ("<think>a</think><think>b</think>acceso", "acceso"),
    ("<think>a</think>\n\n<think>b</think>\nacceso", "acceso"),
    ("razono</think>\n<think>y sigo</think>bug", "bug"),
    # (twenty-third attack) one that never closes is thinking cut off, as the first's is: a judge cut off in it
    # had the draft verdict it held read as its verdict (an answer about the tag at its start is lost so)
    ("<think>a</think><think>Borrador: {\"reason\": \"saluda\", \"pass\": true}. Pero", None),
])
def test_answer_of_drops_a_leading_reasoning_block(response, answer):
    assert evalpy.answer_of(response) == answer


def test_reasoning_blocks_one_after_another_are_read_in_place(monkeypatch):
    """Sixty-fourth attack on issue 28: each block after the first was split from what was left of the answer, sliced
    again (300,000 empty blocks took a run 34 s of CPU and every report 16 s). The first block is read as before, the
    rest in place, in one pass (bench.py times it); what is split is the same."""
    calls = []
    first = evalpy.first_thinking
    monkeypatch.setattr(evalpy, "first_thinking", lambda text: calls.append(len(text)) or first(text))
    assert evalpy.split_thinking("<think>a</think>\n <think> b </think>" * 1000 + " bug") == ("\n\n".join(["a", "b"] * 1000), "bug")
    assert len(calls) == 1
    assert evalpy.split_thinking("<think>a</think><think>b") == ("a\n\nb", None)   # the last never closed: still thinking
    assert evalpy.split_thinking("<think>a</think>\u00a0 ok <think>x</think>") == ("a", "ok <think>x</think>")


def test_the_reasoning_never_decides_the_label_or_a_check(project):
    """The reasoning names another label; only the answer after it is read."""
    from conftest import make_run
    checks = [{"name": "label", "type": "label", "blocking": True},
              {"name": "no money", "type": "not_contains", "value": "facturación", "blocking": False}]
    run = make_run([{"id": "a", "expected": "bug", "checks": checks,
                     "response": "<think>¿facturación? No: hay que arreglarlo.</think>\nbug"},
                    {"id": "b", "expected": "bug", "checks": checks, "response": "<think>facturación o bug"}])
    a, b = evalpy.grade_run(run)
    assert a["predicted"] == "bug" and a["correct"] is True and a["trials"][0]["checks"] == {"label": True, "no money": True}
    assert b["predicted"] == I and b["correct"] is False and not any(b["trials"][0]["checks"].values())
    assert b["trials"][0]["unfinished"] and not a["trials"][0]["unfinished"]


@pytest.mark.parametrize("response", ['{"label": ["acceso"], "why": "bug"}', '{"label": null, "reason": "bug"}',
                                      '{"label": 1, "reason": "bug"}', '{"label": {"x": "acceso"}, "why": "bug"}'])
def test_a_label_field_that_is_not_text_is_no_label(response):
    """Sixth attack on issue 28, item 3: with "label" present but not text, the label was read from
    another field (the reason); the answer gave a label, of the wrong kind: INVALID."""
    assert evalpy.label_of(response, ["bug", "acceso"], "json") == evalpy.INVALID
    assert evalpy.label_of('{"reason": "bug"}', ["bug", "acceso"], "json") == "bug"   # no label key: the one text


@pytest.mark.parametrize("response", ['{"label": "bug", "label": "acceso"}', '{"label": "bug", "n": NaN}'])
def test_a_structured_answer_giving_its_label_twice_is_no_label(response):
    """From the class of the fifth attack on issue 28, item 1: with --format json a key given twice
    was read as its last value; it says two things, and holds neither (INVALID), as a call's
    arguments do."""
    assert evalpy.extract_answer(response, "json") is None
    assert evalpy.extract_answer('{"label": "bug"}', "json") == "bug"
