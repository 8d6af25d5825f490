"""The review page in real headless Chromium: hostile answers stay text, filters, keys, annotations kept."""

import contextlib
import functools
import os
import re
import time

import pytest

import browser
from conftest import HOSTILE, V2_HOSTILE_MISSES, evalpy, make_run, split_run, write_run

pytestmark = pytest.mark.skipif(browser.missing() is not None, reason=str(browser.missing()))


@contextlib.contextmanager
def review_tab(chromium, run, ready="#case h2", against=None):
    """The review page of a run (--against another) in a new tab of headless Chromium, served on a free port, gone
    afterwards."""
    httpd, url = browser.serve(evalpy, run, against)
    try:
        tab = chromium.new_page()
        try:
            tab.goto(url)
            tab.wait_for_selector(ready)
            yield tab
        finally:
            tab.context.close()
    finally:
        httpd.shutdown()
        httpd.server_close()


def fresh_alone(page, answer):
    """Whether the page takes a save's answer (a JS object literal) as newer than every one it has taken, the answers it
    took left as they were."""
    return page.evaluate(f"(async () => {{ const kept = [served, applied, new Set(retired)]; const taken = await fresh({answer}); "
                         "[served, applied, retired] = kept; return taken; })()")


class HeldAnswer:
    """A save's answer held back once the server answered it (200 or 409), as a server busy with another tab's save
    is slow to reply: hold() before the keys that save, release() to let it through."""

    def __init__(self, page):
        self.page, self.held = page, []

    def hold(self):
        self.page.route("**/annotations", lambda route: route.continue_() if self.held else
                        self.held.append((route, route.fetch())))

    def landed(self):
        """Waits till the held save's answer came back from the server (route.fetch() returned: its note is on file),
        however loaded the machine: a hand edit made before it found no file, or one the save then refused."""
        until(self.page, lambda: self.held)

    def release(self):
        route, response = self.held.pop()
        route.fulfill(response=response)
        self.page.wait_for_timeout(300)
        self.page.unroute("**/annotations")


def until(page, reached, seconds=30):
    """Waits till reached() holds, however loaded the machine (at most `seconds`, then fails), Playwright's route
    handlers let run meanwhile (a fixed wait guessed how long a save took)."""
    deadline = time.monotonic() + seconds
    while not reached():
        assert time.monotonic() < deadline, f"not reached in {seconds} s"
        page.wait_for_timeout(20)


def note_by_hand(text, key="dev-09#1", time="2026-01-02T10:00:00+01:00"):
    """The run's annotations file edited by hand: the note of `key` set to `text`, or removed (None)."""
    import json
    from pathlib import Path
    path = Path("runs/dev-v2.json.annotations.json")
    kept = json.loads(path.read_text()) if path.exists() else {"annotations": {}}
    kept["annotations"].pop(key, None)
    if text is not None:
        kept["annotations"][key] = {"text": text, "time": time}
    path.write_text(json.dumps(kept))


def stored(key):
    """The text of `key`'s note in the run's annotations file, None where there is none."""
    import json
    from pathlib import Path
    path = Path("runs/dev-v2.json.annotations.json")
    return json.loads(path.read_text()).get("annotations", {}).get(key, {}).get("text") if path.exists() else None


def save_note(page, typed=""):
    """The README's keys: "/" to the annotation (its caret at the end), the text typed after what it holds, Enter."""
    page.keyboard.press("/")
    if typed:
        page.keyboard.type(typed)
    page.keyboard.press("Enter")


def replace_note(page, text, said="saved"):
    """The annotation's text replaced by `text` and saved with Enter, the page then saying `said` of the save, from
    the start of what it says: found anywhere in it, "removed" passed a refusal ("... another page removed it ...")."""
    from playwright.sync_api import expect
    page.keyboard.press("/")
    page.fill("#annotationinput", text)
    page.keyboard.press("Enter")
    expect(page.locator("#savestatus")).to_have_text(re.compile("^" + re.escape(said)))


@pytest.fixture
def page(project, chromium):
    with review_tab(chromium, write_run("runs/dev-v2.json", split_run("dev", V2_HOSTILE_MISSES, prompt="prompts/v2.txt"))) as tab:
        yield tab


def test_the_review_page_end_to_end(page):
    from playwright.sync_api import expect
    # failures only, by default: the three wrong cases
    assert page.text_content("#pos") == "1 / 3"
    assert page.text_content("#case h2") == "dev-09"
    page.keyboard.press("j")
    assert page.text_content("#case h2") == "dev-11"
    # a hostile answer is shown as its characters and runs nothing
    assert page.text_content("#answer pre") == HOSTILE
    assert page.evaluate("window.pwned") is None
    assert page.query_selector("#case img") is None and page.query_selector("#case script") is None
    assert page.text_content("#counter") == "2 of 3 read"
    page.keyboard.press("k")
    assert page.text_content("#case h2") == "dev-09"
    # filters
    page.select_option("#status", "all")
    assert page.text_content("#pos") == "1 / 28"
    page.select_option("#difficulty", "trap")
    assert page.text_content("#pos") == "1 / 7"
    page.select_option("#difficulty", "")
    page.select_option("#label", "acceso")
    assert page.text_content("#pos") == "1 / 6"
    page.select_option("#label", "")
    page.select_option("#status", "failures")
    # "/" jumps to the annotation field; Enter saves at once
    page.keyboard.press("/")
    assert page.evaluate("document.activeElement.id") == "annotationinput"
    page.keyboard.type("picked the billing label for a broken page")
    # (63rd attack) the Enter that ends an input method's composition (Japanese, Chinese) is no save
    page.dispatch_event("#annotationinput", "keydown", {"key": "Enter", "isComposing": True, "bubbles": True})
    page.wait_for_timeout(200)
    assert page.text_content("#savestatus") == "not saved yet (Enter saves)" and page.text_content("#counts") == "No annotations yet."
    page.keyboard.press("Enter")
    expect(page.locator("#savestatus")).to_have_text(re.compile("^saved "))
    expect(page.locator("#counts")).to_have_text("picked the billing label for a broken page1")
    # (round 124's newcomer) the save leaves the field: j typed into the note, as the README's keys were followed
    assert page.evaluate("document.activeElement.id") != "annotationinput"
    page.keyboard.press("j")
    page.keyboard.press("/")
    page.keyboard.type("half a thought")
    page.keyboard.press("Escape")   # leaves it too, the draft kept
    page.keyboard.press("j")
    assert page.text_content("#case h2") == "dev-24"
    page.keyboard.press("k")
    assert page.input_value("#annotationinput") == "half a thought"
    assert page.text_content("#savestatus") == "not saved yet (Enter saves)"
    page.fill("#annotationinput", "")
    page.keyboard.press("Escape")
    page.keyboard.press("j")
    assert page.text_content("#case h2") == "dev-24"
    page.fill("#annotationinput", "picked the billing label for a broken page")
    page.click("#save")
    expect(page.locator("#counts")).to_have_text("picked the billing label for a broken page2")
    # a reload keeps what was saved
    page.reload()
    page.wait_for_selector("#case h2")
    assert page.input_value("#annotationinput") == "picked the billing label for a broken page"
    assert page.text_content("#counts") == "picked the billing label for a broken page2"
    options = page.eval_on_selector_all("#used option", "els => els.map(e => e.value)")
    assert options == ["picked the billing label for a broken page"]   # autocomplete from annotations used


def entries(page):
    return page.eval_on_selector_all("#list li", "els => els.map(e => [e.querySelector('.lid').textContent.trim(), "
                                     "e.querySelector('.pill').textContent, e.querySelector('.what')?.textContent ?? '', "
                                     "e.querySelector('.typed')?.textContent ?? '', e.classList.contains('current')])")


def test_the_list_beside_the_case_follows_the_filters_keys_and_annotations(page):
    from playwright.sync_api import expect
    # the failures in view, each with its verdict and what it answered; the current one marked
    assert entries(page) == [["dev-09", "fail", "→ facturación", "", True], ["dev-11", "fail", "→ INVALID", "", False],
                             ["dev-24", "fail", "→ petición", "", False]]
    page.keyboard.press("j")
    assert [e[4] for e in entries(page)] == [False, True, False]
    assert page.text_content("#answer pre") == HOSTILE and page.evaluate("window.pwned") is None
    # a click jumps; j and k go on from there
    page.click("#list li:nth-child(3) button")
    assert page.text_content("#case h2") == "dev-24" and page.text_content("#pos") == "3 / 3"
    page.keyboard.press("k")
    assert page.text_content("#case h2") == "dev-11" and [e[4] for e in entries(page)] == [False, True, False]
    # a saved annotation shows in the list at once, and after a reload
    page.fill("#annotationinput", "<b>answered with markup</b>")
    page.click("#save")
    expect(page.locator("#list li:nth-child(2) .typed")).to_have_text("<b>answered with markup</b>")
    assert page.query_selector("#list b") is None
    page.reload()
    page.wait_for_selector("#list li")
    assert entries(page)[1][3] == "<b>answered with markup</b>"
    # the list is the filtered view
    page.select_option("#status", "all")
    assert len(entries(page)) == 28 and entries(page)[0][:2] == ["dev-01", "pass"]
    page.select_option("#difficulty", "trap")
    traps = [c["id"] for c in evalpy.load_split("golden/dev.jsonl")[0] if c["difficulty"] == "trap"]
    assert [e[0] for e in entries(page)] == traps and len(traps) == 7
    page.select_option("#status", "regressions")
    assert entries(page) == [] and page.text_content("#pos") == "0 / 0"


def test_the_list_names_the_checks_a_free_text_answer_failed(project, chromium):
    from conftest import make_run
    checks = [{"name": "greets", "type": "icontains", "value": "hola", "blocking": True},
              {"name": "no <i>date</i>", "type": "not_contains", "value": "lunes", "blocking": True}]
    run = make_run([{"id": "s1", "response": "hola", "checks": checks},
                    {"id": "s2", "response": "el lunes", "checks": checks}], labels=None)
    write_run("runs/support.json", run)
    with review_tab(chromium, "runs/support.json", "#list li") as tab:
        assert entries(tab) == [["s2", "fail", "greets, no <i>date</i>", "", True]]


def test_the_list_quotes_a_check_name_that_would_read_as_two_or_as_another(project, chromium):
    """121st round's review: the list joined failed checks' names with ", " as they are: a failing "tone, no refund
    date" read as "tone" and "no refund date" failing; a name's line break beside one's written \\n read alike."""
    from conftest import make_run
    checks = [{"name": "tone, no refund date", "type": "icontains", "value": "zz", "blocking": True},
              {"name": "no refund date", "type": "not_contains", "value": "lunes", "blocking": True},
              {"name": "line\nbreak", "type": "icontains", "value": "zz", "blocking": True},
              {"name": "cancel\u200b", "type": "icontains", "value": "zz", "blocking": True},
              {"name": "cancel", "type": "icontains", "value": "zz", "blocking": True}]
    write_run("runs/support.json", make_run([{"id": "s1", "response": "hola", "checks": checks}], labels=None))
    with review_tab(chromium, "runs/support.json", "#list li") as tab:
        assert entries(tab) == [["s1", "fail", '"tone, no refund date", "line\\nbreak", "cancel\\u200b", cancel', "",
                                 True]], entries(tab)
        tab.click("#list li button")   # (and the case's own rows of checks: "check: cancel" twice, one holding a ZWSP)
        shown = tab.text_content("#case")
        assert 'check: "cancel\\u200b"' in shown and "check: cancel" in shown, shown


def test_the_answers_a_judge_left_open_have_a_filter_of_their_own(project, chromium):
    """113th round's newcomer: the report sends the answers without a verdict to review, whose filters (failures by
    default) had none for them: they were found only under "all"."""
    from conftest import make_run
    check = [{"name": "helps", "type": "judge", "value": "c", "blocking": True}]

    def case(cid, verdict, raw):
        return {"id": cid, "response": "r", "checks": check, "judges": [
            {"check": "helps", "model": "m", "vote": 1, "seed": 42, "pass": verdict, "reason": None, "raw": raw,
             "error": None, "prompt_tokens": 1, "completion_tokens": 1}]}
    write_run("runs/open.json", make_run([case("s1", None, "I think it passes."),
                                          case("s2", False, '{"reason": "no", "pass": false}')], labels=None))
    with review_tab(chromium, "runs/open.json", "#list li") as tab:
        assert [e[:2] for e in entries(tab)] == [["s2", "fail"]]
        tab.select_option("#status", "open")
        assert [e[:2] for e in entries(tab)] == [["s1", "open"]]


def test_a_free_text_set_offers_no_expected_label_filter(project, chromium, page):
    """Issue 31, cosmetic: the review page of a free-text set offered "any expected label", a filter
    over labels such a set does not have (its `expected`, when it has one, is an answer's text). It
    is gone there, and kept where there are labels."""
    from conftest import make_run
    checks = [{"name": "greets", "type": "icontains", "value": "hola", "blocking": True}]
    run = make_run([{"id": "s1", "response": "adiós", "checks": checks, "expected": "hola, te escribo ..."},
                    {"id": "s2", "response": "adiós", "checks": checks}], labels=None)
    write_run("runs/support.json", run)
    with review_tab(chromium, "runs/support.json", "#list li") as tab:
        assert not tab.is_visible("#label") and tab.is_visible("#difficulty")
    assert page.is_visible("#label")   # the classification run's page keeps it


def test_the_thinking_is_folded_above_the_answer_and_stays_text(project, chromium):
    """A reasoning model's thinking: folded (closed) above the answer, hostile text shown as text;
    an answer that stopped mid-thought says so."""
    run = split_run("dev", {"dev-09": f"<think>\n{HOSTILE}\n</think>\nfacturación", "dev-11": "<think>\nsigo"},
                    prompt="prompts/v2.txt")
    write_run("runs/thinking.json", run)
    with review_tab(chromium, "runs/thinking.json") as tab:
        assert tab.text_content("#case h2") == "dev-09"
        assert tab.eval_on_selector("#thinking", "d => d.open") is False   # folded until asked
        assert tab.text_content("#thinking summary") == f"Thinking ({len(HOSTILE)} characters; not scored)"
        assert tab.text_content("#thinking pre") == HOSTILE and tab.evaluate("window.pwned") is None
        order = tab.eval_on_selector_all("#thinking, #answer", "els => els.map(e => e.id)")
        assert order == ["thinking", "answer"]
        tab.keyboard.press("j")
        assert tab.text_content("#case h2") == "dev-11"
        assert "thinking never finished" in tab.text_content("#case")


def test_a_conversation_shows_its_turns_in_order_then_the_answer(project, chromium):
    from conftest import make_run
    turns = [{"role": "user", "content": "Mi pedido es el A-1."}, {"role": "assistant", "content": HOSTILE},
             {"role": "user", "content": "¿Y cuándo llega?"}]
    write_run("runs/conv.json", make_run([{"id": "c1", "expected": "bug", "messages": turns, "response": "acceso"}]))
    with review_tab(chromium, "runs/conv.json") as tab:
        shown = tab.eval_on_selector_all("#conversation .turn", "els => els.map(e => [e.querySelector('h3').textContent, "
                                         "e.querySelector('pre').textContent])")
        assert shown == [["Turn 1: user", "Mi pedido es el A-1."], ["Turn 2: assistant", HOSTILE],
                         ["Turn 3: user", "¿Y cuándo llega?"]]
        assert tab.evaluate("window.pwned") is None
        order = tab.eval_on_selector_all("#conversation, #answer", "els => els.map(e => e.id)")
        assert order == ["conversation", "answer"] and tab.text_content("#answer pre") == "acceso"


def test_direction_overrides_in_a_run_are_shown_as_codes(project, chromium):
    """From the attack on issue 17: an id with U+202E read backwards in the new list and heading."""
    from conftest import make_run
    write_run("runs/bidi.json", make_run([{"id": "case-\u202eevil", "expected": "bug", "response": "acceso\u202e!"}]))
    with review_tab(chromium, "runs/bidi.json") as tab:
        assert tab.text_content("#case h2") == "case-\\u202eevil"
        assert entries(tab)[0][0] == "case-\\u202eevil" and tab.text_content("#answer pre") == "acceso\\u202e!"
        assert "\u202e" not in tab.text_content("body")


def test_an_answer_a_hidden_character_made_invalid_shows_every_character(project, chromium, cli):
    """Round 122: "b\u200bug" (a zero-width space inside) showed as "bug" in the answer box beside "normalized label
    INVALID", and --against a run that answered "bug" as the same words with the opposite verdict; the report's page
    says every character, the review page did not."""
    this = write_run("runs/zw.json", make_run([{"id": "c1", "expected": "bug", "response": "b\u200bug"}]))
    other = write_run("runs/other.json", make_run([{"id": "c1", "expected": "bug", "response": "b\u200bug\xa0"}]))
    from playwright.sync_api import expect
    with review_tab(chromium, this, ready="#status", against=other) as tab:
        tab.select_option("#status", "all")
        expect(tab.locator("#case .cols > div")).to_have_count(2)   # (drawn after the filter: read at once, none yet)
        answers = tab.locator("#case .cols > div").all_text_contents()
        assert "every character: b\\u200bug" in answers[0] and "every character: b\\u200bug\\xa0" in answers[1], answers
    # (its review) a character Python calls printable that is drawn blank (the braille blank) is shown too
    blank = write_run("runs/blank.json", make_run([{"id": "c3", "expected": "bug", "response": "bug\u2800"}]))
    with review_tab(chromium, blank, ready="#status") as tab:
        tab.select_option("#status", "all")
        assert "every character: bug\\u2800" in tab.text_content("#answer"), tab.text_content("#answer")
    assert evalpy.every_character("bug\u2800") == "bug\\u2800"   # (the report's views too)
    assert "  every character: bug\\u2800" in cli("report", blank, "--case", "c3")[1]   # (report --case too)
    plain = write_run("runs/plain.json", make_run([{"id": "c2", "expected": "bug", "response": "bug"}]))
    with review_tab(chromium, plain, ready="#status") as tab:   # a label read: nothing more said
        tab.select_option("#status", "all")
        assert tab.text_content("#case h2") == "c2" and "every character" not in tab.text_content("#case")


def test_the_annotation_box_holds_as_many_characters_as_the_server_takes(page):
    """Round 122: the box's maxLength counted UTF-16 units, so 150 emoji pasted kept 100 and the page said "cut to 200
    characters"; the server takes 200 characters. The box has no maxLength (a cut by script lost the undo history, an
    input method's composition, a drop's text before it; the browser's own cut a drop or a text with many spaces the
    server takes, unsaid): a text past 200 characters as the server counts them is said to be, and never sent."""
    from playwright.sync_api import expect
    page.fill("#annotationinput", "wrong label" + " " * 4200 + "again")   # (its newcomer: sent as typed, a body past
    page.keyboard.press("Enter")                                         # what a save takes, refused)
    expect(page.locator("#savestatus")).to_have_text(re.compile("^saved "))
    page.fill("#annotationinput", "")
    page.focus("#annotationinput")
    page.keyboard.insert_text("\U0001F600" * 150)
    expect(page.locator("#annotationinput")).to_have_value("\U0001F600" * 150)   # (taken: a fixed 0.1 s guessed it)
    assert page.text_content("#savestatus") == "not saved yet (Enter saves)"
    page.keyboard.press("Enter")
    expect(page.locator("#savestatus")).to_have_text(re.compile("^saved "))
    page.fill("#annotationinput", "a" * 190 + "z")
    page.evaluate("document.getElementById('annotationinput').setSelectionRange(190, 190)")
    page.keyboard.insert_text("b" * 20)
    assert page.input_value("#annotationinput") == "a" * 190 + "b" * 20 + "z"   # (nothing the user put in is cut)
    expect(page.locator("#savestatus")).to_have_text("211 characters: an annotation holds at most 200; shorten it to save")
    page.keyboard.press("Enter")   # (never sent: the server would refuse it, the browser logging its 400 as an error)
    expect(page.locator("#savestatus")).to_have_text("211 characters: an annotation holds at most 200; shorten it to save")
    page.click("#next")
    page.click("#prev")   # (the draft, back: said too long, never "Enter saves")
    expect(page.locator("#savestatus")).to_have_text("211 characters: an annotation holds at most 200; shorten it to save")
    page.fill("#annotationinput", "a" * 100 + "\x1f\x1f" + "a" * 99)   # (spaces as the server counts them: 200)
    expect(page.locator("#savestatus")).to_have_text("not saved yet (Enter saves)")
    page.fill("#annotationinput", "a" * 100 + "\ufeff" + "a" * 100)     # (no space to the server: 201)
    expect(page.locator("#savestatus")).to_have_text("201 characters: an annotation holds at most 200; shorten it to save")
    page.fill("#annotationinput", "e\u0301" * 120)   # (round 123: 120 é, each an e and an accent apart, were "240 characters")
    expect(page.locator("#savestatus")).to_have_text("not saved yet (Enter saves)")
    page.keyboard.press("Enter")
    expect(page.locator("#savestatus")).to_have_text(re.compile("^saved "))
    import json
    key = page.text_content("#case h2") + "#1"
    assert json.loads(open("runs/dev-v2.json.annotations.json", encoding="utf-8").read())["annotations"][key]["text"] \
        == "\u00e9" * 120   # (kept in NFC, as the server counts it)
    spaced = "seen:" + " " * 24 + "at step()" + (" " * 24 + "x") * 13   # (510 units, 44 characters to the server)
    page.fill("#annotationinput", "")
    page.keyboard.insert_text(spaced)
    assert page.input_value("#annotationinput") == spaced   # (the browser's 400 units cut what the server takes)
    page.fill("#annotationinput", "a" * 190 + "z")
    page.evaluate("document.getElementById('annotationinput').setSelectionRange(190, 190)")
    page.keyboard.insert_text("b" * 20)
    page.keyboard.press("Control+z")   # the browser's own undo history is whole
    assert page.input_value("#annotationinput") == "a" * 190 + "z", page.input_value("#annotationinput")


def test_annotations_of_another_version_of_the_run_are_named_in_the_notice(project, chromium):
    """Issue 28, item 2: the page showed them as this run's, with a notice that did not say how many."""
    import json
    from pathlib import Path
    run = write_run("runs/dev-v2.json", split_run("dev", V2_HOSTILE_MISSES, prompt="prompts/v2.txt"))
    Path(run + ".annotations.json").write_text(json.dumps({
        "format": evalpy.ANNOTATIONS_FORMAT, "run": "dev-v2.json", "run_sha": "0123456789" * 6 + "abcd",
        "annotations": {"dev-09#1": {"text": "of an older run", "time": "2026-01-02T10:00:00+01:00"}}}))
    with review_tab(chromium, run) as tab:
        assert tab.text_content("#notice") == (
            f"1 annotation in {run}.annotations.json was written in review on another version of this run file "
            "(or on another run whose annotations it shares) (sha 01234567, 2026-01-02 10:00), left out here; the file keeps them.")
        assert "of an older run" not in tab.text_content("body")


def test_a_note_written_by_hand_is_shown_as_kept_and_an_enter_on_it_saves_nothing(project, chromium):
    """125th round: a note written by hand with a line break ("wrong\\nlabel") lost it in the one-line field
    ("wronglabel", said "saved"), and "/" then Enter stored that with a new time: two rows in the counts where there was
    one. It is shown as it is kept (its whitespace one space), and an Enter on the text on file saves nothing. A time
    written by hand that is no text read "saved null", "saved [object Object]"."""
    import hashlib
    import json
    from pathlib import Path
    run = write_run("runs/dev-v2.json", split_run("dev", V2_HOSTILE_MISSES, prompt="prompts/v2.txt"))
    notes = {"format": evalpy.ANNOTATIONS_FORMAT, "run": "dev-v2.json",
             "run_sha": hashlib.sha256(Path(run).read_bytes()).hexdigest(),
             "annotations": {"dev-09#1": {"text": "wrong\nlabel", "time": "2026-01-02T10:00:00+01:00"},
                             "dev-11#1": {"text": "wrong label", "time": {"a": 1}}}}
    Path(run + ".annotations.json").write_text(json.dumps(notes))
    with review_tab(chromium, run) as tab:
        assert tab.input_value("#annotationinput") == "wrong label"
        assert tab.text_content("#savestatus") == "saved 2026-01-02T10:00:00+01:00"
        tab.keyboard.press("/")
        tab.keyboard.press("Enter")
        tab.keyboard.press("j")
        assert tab.text_content("#case h2") == "dev-11" and tab.text_content("#savestatus") == "saved"
        tab.click("#save")
        tab.wait_for_timeout(300)
        assert json.loads(Path(run + ".annotations.json").read_text()) == notes
        assert tab.text_content("#savestatus") == "saved"


def test_a_reload_after_the_run_file_went_says_it_went(project, chromium):
    """125th round: renamed under the page, a reload said "The run file changed on disk ... Restart review to see the new
    file": there was none, and review started again would fail."""
    run = write_run("runs/dev-v2.json", split_run("dev", V2_HOSTILE_MISSES, prompt="prompts/v2.txt"))
    with review_tab(chromium, run) as tab:
        os.rename(run, "runs/moved.json")
        tab.reload()
        tab.wait_for_selector("#case h2")
        notice = tab.text_content("#notice")
        assert notice.startswith("The run file is no longer there (renamed or removed) since this review started") \
            and "Restart review" not in notice, notice


def test_a_rag_answer_is_shown_beside_its_passages_in_the_browser(project, chromium):
    """RAG (issue 30): the passages in rank order beside the answer, relevant ones marked, the
    relevant one not retrieved and the unsupported claim named; hostile passage text stays text."""
    from test_report import DIAGNOSED, claims_raw, diagnosed_run
    hostile = [("d9", [{"id": "x", "text": HOSTILE}], ["a"], (False, claims_raw(("Free shipping", False, None))), True)]
    with review_tab(chromium, diagnosed_run(project, DIAGNOSED[2:3] + hostile)) as tab:
        assert tab.text_content("#case h2") == "d3"
        passages = tab.text_content("#passages")
        assert "[1] a · relevant" in passages and "passage a" in passages
        assert "Unsupported claim (faithful): Shipping is free (marked supported by passage 'zz'" in passages
        tab.keyboard.press("j")
        assert tab.text_content("#case h2") == "d9"
        assert "Relevant, not retrieved: a" in tab.text_content("#passages")
        assert tab.text_content("#passages pre") == HOSTILE and tab.evaluate("window.pwned") is None


def test_the_page_shows_the_other_agent_runs_transcript(project, chromium):
    """review --against on agents: the other run's transcript, turn by turn, below this run's."""
    from conftest import agent_run, agent_spec, make_run
    other = agent_run()
    other["results"] = [make_run([agent_spec("a1", [("lookup_order", {"order_id": "A-1"}, True),
                                                     ("cancel_order", {"order_id": "A-1"}, True)])], labels=None)["results"][0]
                        if r["id"] == "a1" else r for r in other["results"]]
    mine, theirs = write_run("runs/agent.json", agent_run()), write_run("runs/other.json", other)
    with review_tab(chromium, mine, against=theirs) as tab:
        tab.select_option("#status", "all")
        assert tab.text_content("#case h2") == "a1"
        assert "calls lookup_order" in tab.text_content("#transcript")
        theirs_text = tab.text_content("#other-transcript")
        assert "Other run's transcript" in theirs_text and 'calls cancel_order({"order_id": "A-1"})' in theirs_text
        assert "fails: never cancels" in theirs_text


def test_a_turn_the_token_limit_cut_is_shown_cut_never_returned(project, chromium):
    """Round 110's review: a turn cut as it called tools (its calls never run) read "calls tools / returned -" on the
    page, where report --case says it was cut."""
    from conftest import agent_run, agent_spec, make_run
    run = agent_run()
    cut = agent_spec("a1", [("lookup_order", {"order_id": "A-1"}, True)])
    cut["transcript"] = cut["transcript"][:1]   # the call, never run: no tool message, no answer after it
    cut.update(response="", per_turn=[dict(cut["per_turn"][0], done_reason="length")], done_reason="length")
    run["results"] = [make_run([cut], labels=None)["results"][0] if r["id"] == "a1" else r for r in run["results"]]
    with review_tab(chromium, write_run("runs/agent.json", run)) as tab:
        tab.select_option("#status", "all")
        assert tab.text_content("#case h2") == "a1"
        shown = tab.text_content("#transcript")
        # the run sets no token limit, so its turn is said stopped as report's header says it (length_stop)
        assert "Turn 1: stopped for length short of every limit, its calls never run" in shown, shown
        assert "returned" not in shown and "token limit" not in shown, shown
        assert 'calls lookup_order({"order_id": "A-1"})' in shown


def test_a_save_the_server_cannot_take_says_so_and_never_waits_forever(project, chromium):
    """Fifty-second round on issue 28: with the review server stopped (or answering other than JSON), Save said
    "saving…" for good and the annotation was lost without a word."""
    from playwright.sync_api import expect
    run = write_run("runs/dev-v2.json", split_run("dev", V2_HOSTILE_MISSES, prompt="prompts/v2.txt"))
    httpd, url = browser.serve(evalpy, run)
    tab = chromium.new_page()
    try:
        tab.goto(url)
        tab.wait_for_selector("#case h2")
        httpd.shutdown()
        httpd.server_close()
        tab.fill("#annotationinput", "lost without a word")
        tab.click("#save")
        expect(tab.locator("#savestatus")).to_have_text(
            "perhaps not saved: the review server is not answering (is eval.py review still running?)", timeout=5000)
    finally:
        tab.context.close()


def test_a_run_the_server_cannot_show_says_why_on_the_page(project, chromium):
    """Fifty-second round on issue 28: /data answering an error (a damaged annotations file) left a blank page."""
    from pathlib import Path
    run = write_run("runs/dev-v2.json", split_run("dev", V2_HOSTILE_MISSES, prompt="prompts/v2.txt"))
    with review_tab(chromium, run) as tab:
        Path(run + ".annotations.json").write_text('{"format": "eval.py-annotations/1", "annotations": [', encoding="utf-8")
        tab.reload()
        tab.wait_for_selector("#notice:not([hidden])")
        assert tab.text_content("#notice").startswith(f"Cannot show the run: {run}.annotations.json: damaged"), \
            tab.text_content("#notice")


def test_an_empty_difficulty_or_tag_of_an_older_run_is_a_filter_of_its_own(project, chromium):
    """Fifty-second round on issue 28: a run file may hold an empty difficulty or tag (older runs wrote them); its
    option had the value of "any", and picking it showed every case."""
    import json
    from pathlib import Path
    run = write_run("runs/dev-v2.json", split_run("dev", V2_HOSTILE_MISSES, prompt="prompts/v2.txt"))
    held = json.loads(Path(run).read_text(encoding="utf-8"))
    for r in held["results"][:5]:
        r["difficulty"] = ""
    for r in held["results"][5:8]:
        r["tags"] = [""]
    Path(run).write_text(json.dumps(held), encoding="utf-8")
    with review_tab(chromium, run) as tab:
        tab.select_option("#status", "all")
        assert tab.text_content("#pos") == "1 / 28"
        tab.select_option("#difficulty", label="(empty)")
        assert tab.text_content("#pos") == "1 / 5"
        tab.select_option("#difficulty", "")
        tab.select_option("#tag", label="(empty)")
        assert tab.text_content("#pos") == "1 / 3"
        tab.select_option("#tag", "")
        tab.select_option("#difficulty", label="trap")
        assert tab.text_content("#pos") != "1 / 28"


def test_text_typed_and_not_saved_is_kept_when_moving_to_another_case(page):
    """Fifty-second round on issue 28: moving to another case dropped what was typed there and not saved, without a
    word. It is kept as a draft, said to be unsaved, and saved by Enter when back."""
    from playwright.sync_api import expect
    first = page.text_content("#case h2")
    page.fill("#annotationinput", "typed, then moved away")
    expect(page.locator("#savestatus")).to_have_text("not saved yet (Enter saves)")
    page.click("#next")
    assert page.text_content("#case h2") != first and page.input_value("#annotationinput") == ""
    page.click("#prev")
    assert page.text_content("#case h2") == first and page.input_value("#annotationinput") == "typed, then moved away"
    expect(page.locator("#savestatus")).to_have_text("not saved yet (Enter saves)")
    page.focus("#annotationinput")
    page.keyboard.press("Enter")
    expect(page.locator("#savestatus")).to_have_text(re.compile("^saved "))
    page.click("#next")
    page.click("#prev")
    expect(page.locator("#savestatus")).to_have_text(re.compile("^saved "))
    assert page.evaluate("drafts.size") == 0


def test_annotations_removed_or_edited_under_the_page_are_shown_as_the_file_holds_them_at_the_next_save(page):
    """125th round: the annotations file removed by hand as the page stayed open, a save of another answer made a new
    file of it alone, and the page still showed the first note "saved"; edited by hand, the page showed the old text
    "saved" beside a counts panel holding the new. Each save's answer says what the file holds of every answer."""
    import json
    from pathlib import Path
    from playwright.sync_api import expect
    notes = Path("runs/dev-v2.json.annotations.json")
    page.focus("#annotationinput")
    page.keyboard.type("first note")
    page.keyboard.press("Enter")
    expect(page.locator("#savestatus")).to_have_text(re.compile("^saved "))
    notes.unlink()
    page.keyboard.press("j")
    save_note(page, "second note")
    expect(page.locator("#savestatus")).to_have_text(re.compile("^saved "))
    expect(page.locator("#notice")).to_have_text("1 annotation was changed in the annotations file since this page "
                                                 "showed it (by another page, or by hand): shown as the file holds it now.")
    page.keyboard.press("k")
    assert page.input_value("#annotationinput") == "" and page.text_content("#savestatus") == ""
    assert "first note" not in page.text_content("#list")
    held = json.loads(notes.read_text())
    held["annotations"]["dev-09#1"] = {"text": "edited by hand", "time": "2026-01-02T10:00:00+01:00"}
    notes.write_text(json.dumps(held))
    page.keyboard.press("j")
    save_note(page, " again")
    expect(page.locator("#savestatus")).to_have_text(re.compile("^saved "))
    page.keyboard.press("k")
    assert page.input_value("#annotationinput") == "edited by hand", page.input_value("#annotationinput")
    assert page.text_content("#savestatus") == "saved 2026-01-02T10:00:00+01:00"


def test_a_paste_past_the_limit_is_kept_whole_and_said_too_long(page):
    """Round 107: 10,000 characters pasted into the annotation box were cut to its 200 by the browser, without a word,
    and the 200 saved as if they were all. (Round 122: the box has no maxLength, whose cut a drop or an input method met
    unsaid too: the text stays whole, is said too long, and is never sent.)"""
    from playwright.sync_api import expect
    page.focus("#annotationinput")
    page.evaluate("""() => { const box = document.getElementById("annotationinput"); const data = new DataTransfer();
        data.setData("text/plain", "x".repeat(10000));
        const pasted = new ClipboardEvent("paste", {clipboardData: data, bubbles: true, cancelable: true});
        if (box.dispatchEvent(pasted)) { box.value = "x".repeat(10000); box.dispatchEvent(new Event("input")); } }""")
    expect(page.locator("#savestatus")).to_have_text("10000 characters: an annotation holds at most 200; shorten it to save")
    page.keyboard.insert_text("y")   # (a trusted insertion past 400 units: never refused)
    assert page.input_value("#annotationinput") == "x" * 10000 + "y"


def test_a_paste_whose_line_breaks_the_box_makes_spaces_is_never_said_cut_where_it_fits(page):
    """121st round: 99 letters, CR LF, 99 letters, CR LF (202 characters) fit the box as 199 (each break one space, the
    last none), yet the page said "cut to 200 characters": it measured the clipboard's text raw."""
    from playwright.sync_api import expect
    page.focus("#annotationinput")
    page.evaluate("""() => { const box = document.getElementById("annotationinput"); const data = new DataTransfer();
        data.setData("text/plain", "a".repeat(99) + "\\r\\n" + "b".repeat(99) + "\\r\\n");
        const pasted = new ClipboardEvent("paste", {clipboardData: data, bubbles: true, cancelable: true});
        if (box.dispatchEvent(pasted)) { box.value = "a".repeat(99) + " " + "b".repeat(99); box.dispatchEvent(new Event("input")); } }""")
    expect(page.locator("#savestatus")).to_have_text("not saved yet (Enter saves)")   # (a fixed 0.2 s guessed it)


def test_a_tab_that_had_not_seen_another_tabs_save_is_told_and_saves_over_it_only_when_asked_again(page):
    """Round 88 on issue 28: Enter on a field that looked empty, in a tab loaded before another tab saved, removed that
    tab's annotation unseen. The page is told what is stored; its text stays typed, and Enter again replaces it."""
    import json
    import urllib.request
    from playwright.sync_api import expect
    key = page.text_content("#case h2") + "#1"
    other = urllib.request.Request(page.url + "annotations", method="POST", headers={"Content-Type": "application/json"},
                                   data=json.dumps({"key": key, "text": "saved in another tab", "was": ""}).encode())
    assert urllib.request.urlopen(other).status == 200
    page.fill("#annotationinput", "typed here")
    page.keyboard.press("Enter")
    expect(page.locator("#savestatus")).to_have_text(re.compile("^not saved: another page saved 'saved in another tab'"))
    assert page.input_value("#annotationinput") == "typed here"
    # (round 107) the list shows what is on file now, as the counts beside it do: it still showed no annotation
    expect(page.locator("#list .typed")).to_have_text("saved in another tab")   # (the run's one annotation)
    page.keyboard.press("/")   # (round 124: the save left the field, and a refusal never takes it back)
    page.keyboard.press("Enter")
    expect(page.locator("#savestatus")).to_have_text(re.compile("^saved "))
    assert json.loads(open("runs/dev-v2.json.annotations.json", encoding="utf-8").read())["annotations"][key]["text"] == "typed here"


def test_a_save_elsewhere_never_lets_an_answer_in_use_save_over_another_tabs_note_unseen(page):
    """125th round's second pass: each save's answer refreshed every other answer's note from the file, a draft's and a
    refused one's too: a tab's Enter then replaced another tab's note with no refusal ("mine" over "theirs", and over
    "theirs2" after "theirs" was refused), and an empty field in use said "saved" of a note it never showed, whose Enter
    removed it. And one tab saving alone was told each time that another page had changed a note (keys in another
    order)."""
    import json
    import urllib.request
    from pathlib import Path
    from playwright.sync_api import expect

    def elsewhere(key, text, was):   # another tab's save
        other = urllib.request.Request(page.url + "annotations", method="POST", headers={"Content-Type": "application/json"},
                                       data=json.dumps({"key": key, "text": text, "was": was}).encode())
        assert urllib.request.urlopen(other).status == 200

    def on_file():
        return {k: v["text"] for k, v in json.loads(Path("runs/dev-v2.json.annotations.json").read_text())["annotations"].items()}
    save_note(page, "first")
    page.keyboard.press("j")
    page.keyboard.press("/")
    page.keyboard.type("mine")
    page.keyboard.press("Escape")   # (a draft on dev-11)
    elsewhere("dev-11#1", "theirs", "")
    page.keyboard.press("k")
    save_note(page, " again")
    expect(page.locator("#savestatus")).to_have_text(re.compile("^saved "))
    assert page.is_hidden("#notice") or "changed in the annotations file" not in page.text_content("#notice")
    page.keyboard.press("j")
    save_note(page)
    expect(page.locator("#savestatus")).to_have_text(re.compile("^not saved: another page saved 'theirs'"))
    assert on_file() == {"dev-09#1": "first again", "dev-11#1": "theirs"}
    elsewhere("dev-11#1", "theirs2", "theirs")   # (a third tab, after the refusal)
    page.keyboard.press("k")
    save_note(page, "!")
    expect(page.locator("#savestatus")).to_have_text(re.compile("^saved "))
    page.keyboard.press("j")   # (126th round: the refusal on the page names the note heard since; the next Enter replaces it)
    expect(page.locator("#savestatus")).to_have_text(re.compile("^not saved: another page saved 'theirs2'"))
    assert on_file()["dev-11#1"] == "theirs2"
    save_note(page)
    expect(page.locator("#savestatus")).to_have_text(re.compile("^saved "))
    assert on_file()["dev-11#1"] == "mine"
    # an empty field in use as a save elsewhere lands: nothing said saved of it, and its Enter removes nothing
    held = []
    page.route("**/annotations", lambda route: held.append(route))
    page.keyboard.press("k")
    save_note(page, "?")
    until(page, lambda: held)   # (its request reached the route: held[0] is it)
    page.keyboard.press("j")
    page.keyboard.press("j")
    page.keyboard.press("/")   # (dev-24, nothing on file, its field in use)
    elsewhere("dev-24#1", "theirs3", "")
    held.pop().continue_()
    until(page, lambda: on_file()["dev-09#1"] == "first again!?")   # (the held save stored; a fixed 0.5 s failed under load)
    page.unroute("**/annotations")
    assert page.text_content("#case h2") == "dev-24"   # (its third pass: said, never "saved" of nothing shown)
    expect(page.locator("#savestatus")).to_have_text(re.compile("^another note is on file now"), timeout=30000)
    page.keyboard.press("Enter")
    expect(page.locator("#savestatus")).to_have_text(re.compile("^not saved: another page saved 'theirs3'"))
    assert on_file() == {"dev-09#1": "first again!?", "dev-11#1": "mine", "dev-24#1": "theirs3"}


def test_a_late_answer_an_answer_in_use_and_a_time_by_hand_never_show_what_the_file_does_not_hold(page):
    """125th round's third pass on the refresh a save's answer brings: an answer that came late (after a later save's)
    took the page back to the file as it was, and said this tab's own save was another page's; an answer in use as the
    refresh came kept saying "saved" of a text the file no longer held, and its Enter sent nothing; a time written by hand
    as an object was "changed" at every save."""
    import json
    from pathlib import Path
    from playwright.sync_api import expect
    notes = Path("runs/dev-v2.json.annotations.json")

    def save(text):
        page.keyboard.press("/")
        page.fill("#annotationinput", text)
        page.keyboard.press("Enter")
    save("x-old")
    expect(page.locator("#savestatus")).to_have_text(re.compile("^saved "))
    page.keyboard.press("j")
    save("y-old")
    expect(page.locator("#savestatus")).to_have_text(re.compile("^saved "))
    held = []

    def hold(route):   # the first save's answer held back once the server wrote it
        if held:
            route.continue_()
        else:
            held.append((route, route.fetch()))
    page.route("**/annotations", hold)
    page.keyboard.press("k")
    save("x-new")
    until(page, lambda: held)
    page.keyboard.press("j")
    save("y-new")
    expect(page.locator("#savestatus")).to_have_text(re.compile("^saved "))
    route, response = held.pop()
    route.fulfill(response=response)
    page.wait_for_timeout(300)
    page.unroute("**/annotations")
    assert page.input_value("#annotationinput") == "y-new" and "y-old" not in page.text_content("#counts")
    assert page.is_hidden("#notice") or "changed in the annotations file" not in page.text_content("#notice")
    # an answer in use (its field typed into) as a save elsewhere brings the file's hand edit: never "saved" of the old
    page.keyboard.press("k")
    page.keyboard.press("/")
    held_notes = json.loads(notes.read_text())
    held_notes["annotations"]["dev-09#1"] = {"text": "edited by hand", "time": {"day": "monday"}}
    notes.write_text(json.dumps(held_notes))
    page.evaluate("""() => fetch("/annotations", {method: "POST", headers: {"Content-Type": "application/json"},
        body: JSON.stringify({key: "dev-24#1", text: "z", was: "", run_sha: data.run_sha, run: data.run})})
        .then((r) => r.json()).then(async (answer) => { await fresh(answer); others(null, answer.annotations); })""")
    expect(page.locator("#savestatus")).to_have_text(re.compile("^another note is on file now"))
    page.keyboard.press("Enter")
    expect(page.locator("#savestatus")).to_have_text(re.compile("^not saved: another page saved 'edited by hand'"))
    assert json.loads(notes.read_text())["annotations"]["dev-09#1"]["text"] == "edited by hand"
    # a time written by hand as an object is no change at every save
    page.evaluate("document.getElementById('notice').hidden = true")
    page.keyboard.press("Escape")
    page.keyboard.press("j")
    save("y-again")
    expect(page.locator("#savestatus")).to_have_text(re.compile("^saved "))
    assert page.is_hidden("#notice"), page.text_content("#notice")


def test_an_answer_of_a_review_started_again_or_read_after_a_write_is_taken_and_said_as_it_is(page):
    """125th round's fourth pass: review started again on the same file numbered its answers anew, and an open tab took
    every one for a stale answer (counts wrong, another tab's note never shown); a refusal read after a write had the
    write's number and was taken under it; a note removed was "another note is on file now"; a time changed alone was
    "another note" too, whose Enter saved, naming nothing."""
    import json
    from pathlib import Path
    from playwright.sync_api import expect
    assert page.evaluate("(async () => { const kept = [served, applied]; const first = await fresh({read_as: 5, served: served}), "
                         "again = await fresh({read_as: 5, served: served}); [served, applied] = kept; return first && !again; })()")
    # (another review's numbers: taken, where it is the review serving the page now; 126th round: never one that is not)
    assert page.evaluate("(async () => { const kept = [served, applied, new Set(retired)]; served = 'older'; applied = 9; "
                         "const taken = await fresh({read_as: 1, served: kept[0]}); [served, applied, retired] = kept; "
                         "return taken; })()")
    assert not fresh_alone(page, "{read_as: 1, served: 'another'}")
    notes = Path("runs/dev-v2.json.annotations.json")
    save_note(page, "same")
    expect(page.locator("#savestatus")).to_have_text(re.compile("^saved "))

    def elsewhere_then(edit):   # the file edited by hand, then a save of another answer heard, dev-09's field in use
        held = json.loads(notes.read_text())
        edit(held["annotations"])
        notes.write_text(json.dumps(held))
        page.keyboard.press("/")
        page.evaluate("""() => fetch("/annotations", {method: "POST", headers: {"Content-Type": "application/json"},
            body: JSON.stringify({key: "dev-24#1", text: String(Math.random()), was: "", run_sha: data.run_sha, run: data.run})})
            .then((r) => r.json()).then(async (answer) => { if (await fresh(answer)) others(null, answer.annotations); })""")
        page.wait_for_timeout(300)
    elsewhere_then(lambda a: a["dev-09#1"].update(time="2026-01-02T10:00:00+01:00"))
    assert page.text_content("#savestatus") == "saved 2026-01-02T10:00:00+01:00", page.text_content("#savestatus")
    page.keyboard.press("Escape")
    elsewhere_then(lambda a: a.pop("dev-09#1"))
    assert page.text_content("#savestatus").startswith("the note was removed from the file since it was shown")
    page.keyboard.press("Enter")
    expect(page.locator("#savestatus")).to_have_text(re.compile("^not saved: no annotation is stored for this answer"))


def test_a_late_answer_that_agrees_an_older_reviews_answer_a_note_alike_as_stored_and_a_draft_are_told_right(page):
    """126th round in Chromium: this tab's own save, heard first in a later save's answer as its field was in use, was
    "another note is on file now" once its own late answer came, and its next save refused; a late refusal naming the
    note heard so left the next Enter refused again; a late answer of the review before a restart took the page back to
    the file as it was; a note edited by hand into its decomposed form was "another page saved 'café'" of 'café'; and a
    draft hid that another note was on file."""
    import json
    from pathlib import Path
    from playwright.sync_api import expect
    notes = Path("runs/dev-v2.json.annotations.json")
    answer = HeldAnswer(page)
    answer.hold()
    save_note(page, "own slow")
    answer.landed()
    page.keyboard.press("j")
    save_note(page, "fast")
    expect(page.locator("#savestatus")).to_have_text(re.compile("^saved "))
    page.keyboard.press("k")
    answer.release()
    expect(page.locator("#savestatus")).to_have_text(re.compile("^saved "))
    save_note(page, " more")
    expect(page.locator("#savestatus")).to_have_text(re.compile("^saved "))
    assert json.loads(notes.read_text())["annotations"]["dev-09#1"]["text"] == "own slow more"
    # a refusal answered late, naming the note a later answer brought: the next Enter saves
    note_by_hand("B note")
    answer.hold()
    page.keyboard.press("/")
    page.fill("#annotationinput", "mine")
    page.keyboard.press("Enter")
    answer.landed()
    page.keyboard.press("j")
    save_note(page, " again")
    expect(page.locator("#savestatus")).to_have_text(re.compile("^saved "))
    page.keyboard.press("k")
    answer.release()
    save_note(page)
    expect(page.locator("#savestatus")).to_have_text(re.compile("^saved "))
    assert json.loads(notes.read_text())["annotations"]["dev-09#1"]["text"] == "mine"
    # a note edited by hand into its decomposed form is the note shown
    page.keyboard.press("/")
    page.fill("#annotationinput", "café au lait")
    page.keyboard.press("Enter")
    expect(page.locator("#savestatus")).to_have_text(re.compile("^saved "))
    note_by_hand("cafe\u0301 au  lait")
    save_note(page, " extra")
    expect(page.locator("#savestatus")).to_have_text(re.compile("^saved "))
    assert json.loads(notes.read_text())["annotations"]["dev-09#1"]["text"] == "café au lait extra"
    # a draft, and another note on file: both said
    page.keyboard.press("/")
    page.keyboard.type(" more")
    page.keyboard.press("Escape")
    note_by_hand("HAND")
    page.keyboard.press("j")
    save_note(page, "!")
    expect(page.locator("#savestatus")).to_have_text(re.compile("^saved "))
    page.keyboard.press("k")
    assert page.text_content("#savestatus").startswith("not saved yet; another note is on file now"), \
        page.text_content("#savestatus")
    # an answer of the review before a restart (a smaller token) is older than any of this one's
    assert page.evaluate("(async () => { const kept = [served, applied, new Set(retired)]; served = 'older'; "
                         "const moved = await fresh({read_as: 1, served: kept[0]}), back = await fresh({read_as: 99, served: 'older'}), "
                         "between = await fresh({read_as: 99, served: 'restarted between'}); [served, applied, retired] = kept; "
                         "return moved && !back && !between; })()")


def test_a_late_answer_never_shows_a_note_removed_or_replaced_since_and_notes_alike_as_stored_are_one(page):
    """126th round's second pass in Chromium: a save's late answer was taken over a newer one that said the note was
    removed (that newer answer agreed with what the page showed, and the newest heard was let go), and the page said
    "saved" of a note the file no longer held; a late refusal named the note it saw, not the one heard since, and its
    "save again to replace it" was refused again; a hand edit alike as stored was "another note", and one alike the text
    saved was refused."""
    import json
    from pathlib import Path
    from playwright.sync_api import expect
    notes = Path("runs/dev-v2.json.annotations.json")
    answer = HeldAnswer(page)

    def elsewhere_then_release():   # a save of the next answer heard, then the held answer let through
        page.wait_for_timeout(300)
        page.keyboard.press("j")
        save_note(page, "!")
        expect(page.locator("#savestatus")).to_have_text(re.compile("^saved "))
        page.keyboard.press("k")
        answer.release()
    answer.hold()
    save_note(page, "B")
    answer.landed()
    note_by_hand(None)
    elsewhere_then_release()   # (waited for: the held answer is read after its release, later under load)
    expect(page.locator("#savestatus")).to_have_text(re.compile("^the note was removed from the file since it was shown"))
    note_by_hand("B1")
    answer.hold()
    page.keyboard.press("/")
    page.fill("#annotationinput", "mine")
    page.keyboard.press("Enter")
    answer.landed()
    note_by_hand("B1 C")
    elsewhere_then_release()
    expect(page.locator("#savestatus")).to_have_text(re.compile("^not saved: another page saved 'B1 C' for this answer"))
    save_note(page)
    expect(page.locator("#savestatus")).to_have_text(re.compile("^saved "))
    assert json.loads(notes.read_text())["annotations"]["dev-09#1"]["text"] == "mine"
    # alike as stored (spaced otherwise by hand): no other note under a draft, and one alike the text saved is no refusal
    page.keyboard.press("/")
    page.keyboard.type(" more")
    page.keyboard.press("Escape")
    note_by_hand("  mine ")
    page.keyboard.press("j")
    save_note(page, "!")
    page.keyboard.press("k")
    expect(page.locator("#savestatus")).to_have_text("not saved yet (Enter saves)")
    note_by_hand("mine  more")
    save_note(page)
    expect(page.locator("#savestatus")).to_have_text(re.compile("^saved "))
    assert json.loads(notes.read_text())["annotations"]["dev-09#1"]["text"] == "mine more"


def test_a_note_taken_late_is_said_and_a_rewritten_refusal_is_true_escaped_and_cut(page):
    """126th round's third pass in Chromium: an answer in use that took another page's note once no longer in use did so
    in silence (its own note, saved late, gone unsaid); a late answer alike the newer note heard showed the save's time,
    not the one on file; a late refusal rewritten to the newest note said "another page saved" the very note the page
    showed (changed and changed back), showed a zero-width character raw and was never cut; and a field typed alike the
    note on file was "another note ... Enter says which"."""
    from playwright.sync_api import expect
    answer = HeldAnswer(page)

    def elsewhere_then_release():
        page.wait_for_timeout(300)
        page.keyboard.press("j")
        save_note(page, "!")
        expect(page.locator("#savestatus")).to_have_text(re.compile("^saved "))
        answer.release()
        page.keyboard.press("k")
    answer.hold()
    save_note(page, "x1")
    answer.landed()
    note_by_hand("H")
    elsewhere_then_release()
    expect(page.locator("#notice")).to_contain_text("1 annotation was changed in the annotations file")
    assert page.input_value("#annotationinput") == "H"
    answer.hold()
    save_note(page, "2")
    answer.landed()
    note_by_hand("H2", time="2020-05-05T05:05:05+00:00")
    elsewhere_then_release()
    expect(page.locator("#savestatus")).to_have_text("saved 2020-05-05T05:05:05+00:00")
    note_by_hand("B")
    answer.hold()
    page.keyboard.press("/")
    page.fill("#annotationinput", "mine")
    page.keyboard.press("Enter")
    answer.landed()
    note_by_hand("H2", time="2020-05-05T05:05:05+00:00")
    elsewhere_then_release()
    expect(page.locator("#savestatus")).to_have_text(re.compile("^not saved: the note on file changed and changed back "
                                                                "since this page sent it"))
    said = page.evaluate("conflictWords({text: 'x1\u200b' + 'y'.repeat(100)}, '')")
    assert said.startswith("another page saved 'x1\\u200b" + "y" * 76 + "…' for this answer since this page showed none")
    assert "Enter says so" not in page.evaluate("statusOf({key: 'none', onFile: null, annotation: {text: 'A'}}, '  ')")
    # (its fourth pass) /served failing once leaves the review serving the page unretired; and while a save's answer waits
    # on it, the answer stays "saving…", never drawn as the note from before the save
    page.route("**/served", lambda route: route.abort())   # (its fifth pass: said; dropped unsaid, the page froze)
    # (127th round) taken whole, an answer of the review before the one serving the page retired that one: the page
    # followed the file no more. Neither review is retired, the page's stays, and its own note alone is taken (send)
    # (its review) nor is a later answer of the review the page heard last taken whole while which is newer is unknown:
    # a late one of it hid a note saved meanwhile through the restarted one
    assert page.evaluate("(async () => { const kept = [served, applied, new Set(retired)]; "
                         "const taken = await fresh({read_as: 1, served: 'middle'}), "
                         "late = await fresh({read_as: kept[1] + 5, served: kept[0]}), "
                         "banned = retired.has(kept[0]) || retired.has('middle'); [served, applied, retired] = kept; "
                         "passed.clear(); ownRead.clear(); return taken === 'own' && late === 'own' && !banned; })()")
    assert "could not ask which review serves it" in page.text_content("#notice")
    # (its second finding) a note changed on file, said after, keeps that sentence beside its own
    page.evaluate("changedNotice(1)")
    assert "could not ask which review serves it" in page.text_content("#notice") and \
        "1 annotation was changed" in page.text_content("#notice")
    page.unroute("**/served")
    # once /served answers, an answer of the review serving the page is taken whole again
    assert page.evaluate("(async () => { const kept = [served, applied, new Set(retired)]; served = UNKNOWN; "
                         "const taken = await fresh({read_as: kept[1] + 1, served: kept[0]}), back = served === kept[0]; "
                         "[served, applied, retired] = kept; return taken === true && back; })()")
    # (its fifth pass) an answer to /served come after another answer took a review meanwhile never takes its own
    asked = []
    page.route("**/served", lambda route: asked.append(route))
    page.evaluate("(() => { window.kept = [served, applied, new Set(retired)]; served = 'older'; "
                  "window.late = fresh({read_as: 1, served: 'middle'}); })()")
    until(page, lambda: asked)   # (its /served asked: a fixed 200 ms guessed it)
    page.evaluate("served = 'newest'")
    asked.pop().fulfill(status=200, content_type="application/json", body='{"served": "middle"}')
    assert page.evaluate("(async () => { const taken = await window.late, now = served, banned = retired.has('newest'); "
                         "[served, applied, retired] = window.kept; return !taken && now === 'newest' && !banned; })()")
    page.unroute("**/served")
    asked = []
    page.route("**/served", lambda route: asked.append(route))
    page.evaluate("served = 'older'")
    page.keyboard.press("/")
    page.fill("#annotationinput", "NEW")
    page.keyboard.press("Enter")
    until(page, lambda: asked)   # (the save asks /served first, held there: a fixed 300 ms guessed it)
    page.keyboard.press("j")
    page.keyboard.press("k")
    assert page.text_content("#savestatus") == "saving…" and page.input_value("#annotationinput") == "NEW"
    asked.pop().continue_()
    expect(page.locator("#savestatus")).to_have_text(re.compile("^saved "))
    page.unroute("**/served")
    assert page.evaluate("statusOf({key: 'none', onFile: {text: 'B  c'}, annotation: {text: 'A'}}, 'B c')") == "saved"
    assert page.evaluate("statusOf({key: 'none', onFile: {text: 'B'}, annotation: {text: 'A'}}, 'A')").startswith(
        "another note is on file now")


def two_saves_the_first_held(page):
    """"AAA" saved, its request held back (as a server busy with another tab's save), then "BBB" saved: (the answer's
    key, the held requests)."""
    key = page.text_content("#case h2") + "#1"
    held = []
    page.route("**/annotations", lambda route: held.append(route) if not held else route.continue_())
    page.fill("#annotationinput", "AAA")
    page.keyboard.press("Enter")
    until(page, lambda: held)   # (its request reached the route: held[0] is it)
    page.fill("#annotationinput", "BBB")
    page.keyboard.press("Enter")
    return key, held


def test_a_second_save_sent_before_the_first_is_answered_waits_for_it(page):
    """120th round's review: a save typed on and sent while the page's first was unanswered (held by the server behind
    another tab's) could reach the server first: refused as "another page removed it", then the first stored its older
    text and the page said "saved" under a box holding the newer. A page's saves of an answer go one after another."""
    import json
    from playwright.sync_api import expect
    key, held = two_saves_the_first_held(page)
    page.wait_for_timeout(500)
    assert len(held) == 1 and page.text_content("#savestatus") == "saving…"   # (the second waits, never sent ahead)
    held[0].continue_()
    expect(page.locator("#savestatus")).to_have_text(re.compile("^saved "))
    assert page.input_value("#annotationinput") == "BBB"
    assert json.loads(open("runs/dev-v2.json.annotations.json", encoding="utf-8").read())["annotations"][key]["text"] == "BBB"


def test_a_save_queued_behind_one_refused_for_another_tabs_save_never_saves_over_it(page):
    """Its review: a save queued behind one the server refused (another tab had saved since) was sent with the other
    tab's text as what the page showed, and replaced it unseen. Saves asked before the page was told wait for an Enter
    asked after it, as one alone does."""
    import json
    import urllib.request
    from playwright.sync_api import expect
    key, held = two_saves_the_first_held(page)
    page.wait_for_timeout(300)
    other = urllib.request.Request(page.url + "annotations", method="POST", headers={"Content-Type": "application/json"},
                                   data=json.dumps({"key": key, "text": "saved in another tab", "was": ""}).encode())
    assert urllib.request.urlopen(other).status == 200
    held[0].continue_()
    expect(page.locator("#savestatus")).to_have_text(re.compile("^not saved: another page saved 'saved in another tab'"))
    page.wait_for_timeout(500)
    stored = json.loads(open("runs/dev-v2.json.annotations.json", encoding="utf-8").read())["annotations"][key]["text"]
    assert stored == "saved in another tab" and page.input_value("#annotationinput") == "BBB"
    page.keyboard.press("/")
    page.keyboard.press("Enter")   # asked again, told: it saves over it
    expect(page.locator("#savestatus")).to_have_text(re.compile("^saved "))
    assert json.loads(open("runs/dev-v2.json.annotations.json", encoding="utf-8").read())["annotations"][key]["text"] == "BBB"


def test_text_typed_on_after_a_refused_save_is_the_draft_kept(page):
    """Its review: after a save refused for another tab's, the text typed on since was replaced in the drafts by the
    refused text: moving away and back showed it without what was typed after."""
    import json
    import urllib.request
    from playwright.sync_api import expect
    key, held = two_saves_the_first_held(page)
    page.wait_for_timeout(300)
    page.focus("#annotationinput")
    page.keyboard.press("End")   # (the save left the field; focused by script, its caret is at the start)
    page.keyboard.type(" and more typed")
    other = urllib.request.Request(page.url + "annotations", method="POST", headers={"Content-Type": "application/json"},
                                   data=json.dumps({"key": key, "text": "other tab", "was": ""}).encode())
    assert urllib.request.urlopen(other).status == 200
    held[0].continue_()
    expect(page.locator("#savestatus")).to_have_text(re.compile("^not saved: another page saved 'other tab'"))   # (taken)
    assert page.input_value("#annotationinput") == "BBB and more typed"
    page.locator("body").click(position={"x": 1, "y": 1})
    page.keyboard.press("j")
    page.wait_for_timeout(300)
    page.keyboard.press("k")
    page.wait_for_timeout(300)
    assert page.input_value("#annotationinput") == "BBB and more typed"


def test_each_turns_thinking_is_shown_under_its_turn(project, chromium):
    """114th round's agents: the page showed the last turn's thinking alone, above the transcript; each turn's is
    under its turn."""
    from conftest import agent_run, agent_spec, make_run
    run = agent_run()
    spec = agent_spec("a1", [("lookup_order", {"order_id": "A-1"}, True)])
    spec["transcript"][0]["thinking"], spec["transcript"][-1]["thinking"] = "THINK-TURN-1", "THINK-TURN-2"
    spec["thinking"] = "THINK-TURN-2"
    run["results"] = [make_run([spec], labels=None)["results"][0] if r["id"] == "a1" else r for r in run["results"]]
    with review_tab(chromium, write_run("runs/agent.json", run)) as tab:
        tab.select_option("#status", "all")
        assert tab.text_content("#case h2") == "a1"
        turns = tab.eval_on_selector_all("#transcript .turn", "bs => bs.map(b => b.textContent)")
        assert "THINK-TURN-1" in turns[0] and "THINK-TURN-2" not in turns[0] and "THINK-TURN-2" in turns[1], turns
        assert tab.query_selector("#thinking") is None   # (not again above the transcript)


def test_each_turns_inline_reasoning_is_folded_under_its_turn_apart_from_what_it_said(project, chromium):
    """Round 137: the page showed an agent's earlier turn as "<think>I could cancel it</think>", its reasoning as if
    said; it is folded under its turn, labelled not scored, as reasoning sent apart is."""
    from conftest import agent_run, agent_thinking_inline
    run = agent_run()
    run["results"] = [make_run([agent_thinking_inline("a1")], labels=None)["results"][0] if r["id"] == "a1" else r
                      for r in run["results"]]
    with review_tab(chromium, write_run("runs/agent.json", run)) as tab:
        tab.select_option("#status", "all")
        assert tab.text_content("#case h2") == "a1"
        folded = tab.eval_on_selector_all("#transcript .turn details", "ds => ds.map(d => [d.open, d.textContent])")
        assert folded == [[False, "Thinking (inline, before </think>; 17 characters; not scored)I could cancel it"],
                          [False, "Thinking (inline, before </think>; 10 characters; not scored)cancel? no"]], folded
        said = tab.eval_on_selector_all("#transcript .turn > pre", "ps => ps.map(p => p.textContent)")
        assert said == ["", "Su pedido está enviado."], said


def test_a_change_by_the_majority_of_trials_says_so_on_its_pill(project, chromium):
    """114th round: "fixed" beside two passing answers said nothing of the other run's failing trials."""
    this = write_run("runs/one.json", make_run([("c1", "bug", ["bug"]), ("c2", "bug", ["bug"])]))
    other = write_run("runs/three.json", make_run([("c1", "bug", ["bug", "acceso", "acceso"]),
                                                   ("c2", "bug", ["bug", "bug", "bug"])], temperature=0.7))
    with review_tab(chromium, this, ready="#status", against=other) as tab:   # (none fails: none shown at first)
        tab.select_option("#status", "fixed")
        assert tab.text_content("#case h2") == "c1"
        assert ("fixed (by the majority of each case's trials: this run pass; the other pass · fail · fail)"
                in tab.text_content("#case")), tab.text_content("#case")


def test_an_uncounted_vote_and_a_trial_the_other_run_lacks_are_said_so(project, chromium):
    """114th round: an agent out of turns whose judge an older eval.py asked showed "check: helpful FAIL" beside "judge
    ... on helpful: pass", nothing saying the vote is not counted nor that it ran out of turns; and review --against a run
    of fewer trials showed nothing for the trials it lacks (compare's page says "no such trial")."""
    from conftest import agent_spec
    out = agent_spec("o1", [("lookup_order", {"order_id": "A-1"}, True)] * 2, out_of_turns=True,
                     checks=[{"name": "helpful", "type": "judge", "value": "Ayuda."}])
    out["judges"] = [{"check": "helpful", "model": "qwen2.5:7b", "vote": 1, "seed": 42, "pass": True, "reason": "ayuda",
                      "raw": '{"reason": "ayuda", "pass": true}', "error": None, "prompt_tokens": 9, "completion_tokens": 9}]
    with review_tab(chromium, write_run("runs/old.json", make_run([out], labels=None, split="shop-dev", max_turns=2))) as tab:
        shown = tab.text_content("#case")
        assert "(not counted: an older eval.py asked it" in shown and "ran out of turns: no answer" in shown, shown
    this = write_run("runs/three.json", make_run([("c1", "bug", ["acceso", "bug", "bug"])], temperature=0.7))
    other = write_run("runs/one.json", make_run([("c1", "bug", ["bug"])]))
    with review_tab(chromium, this, ready="#status", against=other) as tab:
        from playwright.sync_api import expect
        tab.select_option("#status", "all")
        expect(tab.locator("#case h2")).to_have_text("c1 · trial 1")   # (the list drawn before j: on a busy machine,
        tab.keyboard.press("j")                                         # j came first and the redraw undid it)
        expect(tab.locator("#case h2")).to_have_text("c1 · trial 2")
        assert "(no answer there: it has fewer trials of this case, or did not ask it)" in tab.text_content("#case")


def test_the_review_page_shows_a_line_break_in_an_id_or_the_model_as_its_code(project, chromium):
    """116th round: a case id "x\\ny" read "x y" (another case's id) in the list and the heading, and the model
    "m\\nodel" read "m odel" in the header, as on the report pages before."""
    run = write_run("runs/n.json", make_run([("x\ny", "bug", "acceso"), ("x y", "bug", "acceso"), ("ok", "bug", "bug")],
                                            model="m\nodel"))
    with review_tab(chromium, run) as tab:
        assert tab.text_content("#case h2") == "x\\ny"
        assert "m\\nodel" in tab.text_content("#run")
        assert "x\\ny" in tab.text_content("body") and "x y" in tab.text_content("body")


def test_the_review_page_shows_a_line_break_in_a_tag_difficulty_or_check_as_its_code(project, chromium):
    """116th round's review: the filters, the case's pills and its checks still showed a line break as a space (two
    tags "t\\nag" and "t ag" in the tag filter, read alike); answers keep their lines."""
    checks = [{"name": "gr\neets", "type": "icontains", "value": "zz", "blocking": True}]
    run = write_run("runs/t.json", make_run([
        {"id": "q1", "response": "no\nreally", "checks": checks, "tags": ["t\nag"], "difficulty": "ha\nrd"},
        {"id": "q2", "response": "no", "checks": checks, "tags": ["t ag"], "difficulty": "ha rd"}], labels=None))
    with review_tab(chromium, run) as tab:
        tags = tab.eval_on_selector_all("#tag option", "os => os.map(o => o.textContent)")
        assert "t\\nag" in tags and "t ag" in tags, tags
        assert "ha\\nrd" in tab.eval_on_selector_all("#difficulty option", "os => os.map(o => o.textContent)")
        assert "gr\\neets" in tab.text_content("#case")
        assert "no\nreally" in tab.eval_on_selector_all("#case pre", "ps => ps.map(p => p.textContent)")


def test_the_review_page_shows_what_would_show_as_nothing_as_its_code(project, chromium):
    """Round 123, in Chromium: ids dev-09 and dev-\u200b09, tags xy and x\u200by, a difficulty ea\u200bsy showed
    alike in the list, the heading and the filters (report escapes them): a note could go on the look-alike case."""
    checks = [{"name": "zz", "type": "icontains", "value": "zz", "blocking": True}]
    run = write_run("runs/t.json", make_run([
        {"id": "dev-09", "response": "no", "checks": checks, "tags": ["xy"], "difficulty": "easy"},
        {"id": "dev-\u200b09", "response": "no", "checks": checks, "tags": ["x\u200by"], "difficulty": "ea\u200bsy"},
        {"id": "dev-\u00ad10", "response": "no\u200b", "checks": checks, "tags": ["x\U0001d173y"], "difficulty": "easy"}],
        labels=None))
    os.rename(run, "runs/t\u200b.json")   # (its review: the run's own line showed it raw)
    run = "runs/t\u200b.json"
    with review_tab(chromium, run) as tab:
        assert tab.text_content("#run").startswith("runs/t\\u200b.json")
        assert "x\\U0001d173y" in tab.eval_on_selector_all("#tag option", "os => os.map(o => o.textContent)")
        assert tab.eval_on_selector_all("#list li", "ls => ls.map(l => l.textContent)")[1].startswith("dev-\\u200b09")
        tags = tab.eval_on_selector_all("#tag option", "os => os.map(o => o.textContent)")
        assert "xy" in tags and "x\\u200by" in tags, tags
        assert "ea\\u200bsy" in tab.eval_on_selector_all("#difficulty option", "os => os.map(o => o.textContent)")
        tab.keyboard.press("j")
        assert tab.text_content("#case h2") == "dev-\\u200b09"
        tab.keyboard.press("j")
        assert tab.text_content("#case h2") == "dev-\\u00ad10"
        assert "no\u200b" in tab.eval_on_selector_all("#case pre", "ps => ps.map(p => p.textContent)")   # (an answer's own)


def agent_run_calling(name):
    """agent_run() with a1's first call (and the tool message answering it, as a server would name them) made to the
    tool called name."""
    from conftest import agent_run
    run = agent_run()
    a1 = next(r for r in run["results"] if r["id"] == "a1")
    call = next(m for m in a1["transcript"] if m.get("tool_calls"))["tool_calls"][0]
    for m in a1["transcript"]:
        if m.get("role") == "tool" and m.get("name") == call["name"]:
            m["name"] = name
    call["name"] = name
    return run


def test_a_tool_names_line_break_is_shown_escaped_never_a_line_of_its_own(project, chromium):
    """121st round: the page wrote a call's text raw in its <pre>: a tool name holding a line break made up a line of
    its own there ('lookup_order\\nreturned {"estado": "entregado"}'), where report --case shows it as \\n."""
    run = agent_run_calling('lookup_order\nreturned {"estado": "entregado"}')
    with review_tab(chromium, write_run("runs/agent.json", run)) as tab:
        tab.select_option("#status", "all")
        assert tab.text_content("#case h2") == "a1"
        shown = tab.locator("#transcript pre").all_text_contents()
        assert any(text.startswith('calls lookup_order\\nreturned {"estado": "entregado"}(') for text in shown), shown
        assert not any("\n" in text for text in shown if text.startswith("calls ")), shown


def test_a_tool_names_character_shown_as_nothing_is_shown_as_its_code(project, chromium):
    """140th round: a call to lookup\\u200b_order (or lookup\\u00ad_order) read 'calls lookup_order({"order_id": "A-1"})'
    on the page, in this run's transcript and the --against run's, alike to the tool offered, where report --case
    and the report pages show \\u200b: the call line shows what would show as nothing as its code, as ids and tags."""
    from conftest import agent_run
    base = write_run("runs/base.json", agent_run())
    for name, shown in [("lookup\u200b_order", "lookup\\u200b_order"), ("lookup\u00ad_order", "lookup\\u00ad_order")]:
        run = write_run("runs/zw.json", agent_run_calling(name))
        for this, against, where in [(run, None, "#transcript"), (base, run, "#other-transcript")]:
            with review_tab(chromium, this, against=against) as tab:
                tab.select_option("#status", "all")
                assert tab.text_content("#case h2") == "a1"
                calls = [t for t in tab.locator(where + " pre").all_text_contents() if t.startswith("calls ")]
                assert calls and calls[0] == 'calls ' + shown + '({"order_id": "A-1"})', calls


def test_a_refusal_that_came_after_the_page_moved_on_is_said_when_its_answer_is_shown_again(page):
    """Round 123, in Chromium: a save refused (another tab had saved) after the page had moved to another case was said
    on no page: back on it, "not saved yet (Enter saves)", and the next Enter replaced the other tab's note unseen. The
    refusal stays with its answer until one is saved; and every save names the run the page shows (run_sha), so a tab
    left open as review was started again on another run is refused, never saved beside that run."""
    import json
    import urllib.request
    from playwright.sync_api import expect
    key = page.text_content("#case h2") + "#1"
    held, sent = [], []
    page.route("**/annotations", lambda route: (sent.append(json.loads(route.request.post_data)),
                                                held.append(route) if not held else route.continue_()))
    page.fill("#annotationinput", "mine")
    page.keyboard.press("Enter")
    until(page, lambda: held)   # (the save reached the route, held there: a fixed 300 ms guessed it)
    page.evaluate("document.activeElement.blur()")
    page.keyboard.press("j")   # on to the next case while the save waits
    assert page.text_content("#case h2") != key[:-2]
    other = urllib.request.Request(page.url + "annotations", method="POST", headers={"Content-Type": "application/json"},
                                   data=json.dumps({"key": key, "text": "saved in another tab", "was": ""}).encode())
    assert urllib.request.urlopen(other).status == 200
    with page.expect_response("**/annotations"):   # (its refusal back at the page: a fixed 500 ms guessed it)
        held[0].continue_()
    page.keyboard.press("k")
    assert page.text_content("#case h2") == key[:-2]
    expect(page.locator("#savestatus")).to_have_text(re.compile("^not saved: another page saved 'saved in another tab'"))
    assert sent[0]["run_sha"] == evalpy.file_sha("runs/dev-v2.json") and sent[0]["run"] == "runs/dev-v2.json"
    page.keyboard.press("/")
    page.keyboard.press("Enter")   # asked again, told: it saves over it, and the refusal is gone
    expect(page.locator("#savestatus")).to_have_text(re.compile("^saved "))
    page.evaluate("document.activeElement.blur()")
    page.keyboard.press("j")
    page.keyboard.press("k")
    expect(page.locator("#savestatus")).to_have_text(re.compile("^saved "))


def test_what_a_save_came_to_is_said_where_its_answer_is_shown_now(page):
    """Round 124's review page: a save answered after the page moved away and back (j, then k: the save leaves the field
    now) was said into the line drawn before: one that landed read "not saved yet", one refused for another tab's
    save read "not saved yet" too, and the next Enter replaced that tab's note unseen; a text edited back, as the save
    was out, to what was on file before was said "saved" beside the other text the save stored."""
    import json
    import urllib.request
    from playwright.sync_api import expect
    key = page.text_content("#case h2") + "#1"
    held = []
    page.route("**/annotations", lambda route: held.append(route))

    def saved_now():
        return json.loads(open("runs/dev-v2.json.annotations.json", encoding="utf-8").read())["annotations"][key]["text"]

    def away_and_back():
        page.keyboard.press("j")
        page.keyboard.press("k")
        assert page.text_content("#case h2") + "#1" == key
    save_note(page, "wrong label")
    page.wait_for_function("document.activeElement.id !== 'annotationinput'")
    away_and_back()
    expect(page.locator("#savestatus")).to_have_text("saving…")
    held.pop().continue_()
    expect(page.locator("#savestatus")).to_have_text(re.compile("^saved "))
    assert saved_now() == "wrong label"
    # another tab saves; this one's save, out as it moved away and back, is refused: said, and never said over
    other = urllib.request.Request(page.url + "annotations", method="POST", headers={"Content-Type": "application/json"},
                                   data=json.dumps({"key": key, "text": "from the other tab", "was": "wrong label",
                                                    "run_sha": evalpy.file_sha("runs/dev-v2.json"),
                                                    "run": "runs/dev-v2.json"}).encode())
    assert urllib.request.urlopen(other).status == 200
    save_note(page, " here")
    page.wait_for_function("document.activeElement.id !== 'annotationinput'")
    away_and_back()
    held.pop().continue_()
    expect(page.locator("#savestatus")).to_have_text(re.compile("^not saved: another page saved 'from the other tab'"))
    assert saved_now() == "from the other tab" and page.evaluate("document.activeElement.id") != "annotationinput"
    away_and_back()   # (said again as it is drawn; j moved, never typed into the note)
    expect(page.locator("#savestatus")).to_have_text(re.compile("^not saved: another page saved 'from the other tab'"))
    assert page.input_value("#annotationinput") == "wrong label here"
    # edited back, as a save is out, to what is on file: a draft till the save is answered, never "saved"
    save_note(page)
    page.fill("#annotationinput", "from the other tab")
    expect(page.locator("#savestatus")).to_have_text("saving…")
    held.pop().continue_()
    expect(page.locator("#savestatus")).to_have_text("not saved yet (Enter saves)")
    assert saved_now() == "wrong label here" and page.input_value("#annotationinput") == "from the other tab"


def test_a_draft_stays_one_till_the_last_save_of_its_answer_lands(page):
    """Round 124's second pass on the review page: with two saves of an answer out ("a", then "ab") and the field edited
    back to "a", the first's landing dropped the draft: the page said "saved" beside "a" while the file held "ab", and
    the next redraw lost the "a". Also: a text saved with a trailing space, touched again, was "not saved yet"; a text
    too long was "saving…" while an earlier save waited; an empty Enter where nothing was on file, "annotation removed"."""
    from playwright.sync_api import expect
    key = page.text_content("#case h2") + "#1"
    held, holding = [], [True]
    page.route("**/annotations", lambda route: held.append(route) if holding[0] else route.continue_())
    page.keyboard.press("/")
    page.keyboard.press("Enter")   # nothing on file, nothing typed: nothing removed (125th round: nothing sent)
    page.wait_for_timeout(200)
    assert held == []
    expect(page.locator("#savestatus")).to_have_text("")
    page.keyboard.press("/")
    page.keyboard.type("a")
    page.keyboard.press("Enter")   # (held)
    until(page, lambda: held)
    page.keyboard.press("/")
    page.keyboard.type("b")
    page.keyboard.press("Enter")   # (waits behind it)
    page.keyboard.press("/")
    page.keyboard.press("Backspace")
    page.keyboard.type("x" * 201)
    expect(page.locator("#savestatus")).to_have_text("202 characters: an annotation holds at most 200; shorten it to save")
    page.fill("#annotationinput", "a")
    holding[0] = False
    held.pop().continue_()
    until(page, lambda: stored(key) == "ab")   # (the "a" written, answered, then the "ab" sent after it and written)
    expect(page.locator("#savestatus")).to_have_text("not saved yet (Enter saves)")
    assert page.input_value("#annotationinput") == "a"
    page.unroute("**/annotations")
    page.fill("#annotationinput", "wrong label ")
    page.keyboard.press("Enter")
    expect(page.locator("#savestatus")).to_have_text(re.compile("^saved "))
    page.keyboard.press("/")
    page.keyboard.type("s")
    page.keyboard.press("Backspace")
    expect(page.locator("#savestatus")).to_have_text(re.compile("^saved "))


def test_the_keys_move_on_from_a_filter_just_changed(page):
    """Round 124's newcomer: a filter changed from the keyboard kept the focus, and j, k and / did nothing till a click
    (the README's keys, in the page's commonest state)."""
    page.select_option("#status", "all")
    page.focus("#status")
    shown, pos = page.text_content("#case h2"), page.text_content("#pos")
    page.keyboard.press("j")
    assert page.text_content("#case h2") != shown and page.text_content("#pos") != pos
    page.focus("#status")
    page.keyboard.press("k")
    assert page.text_content("#case h2") == shown
    page.focus("#status")
    page.keyboard.press("/")
    assert page.evaluate("document.activeElement.id") == "annotationinput" and page.input_value("#annotationinput") == ""


def test_a_field_typed_back_to_the_note_on_file_takes_that_note(page):
    """127th round: a note removed by hand while its field was in use, the field emptied: the page said "saved" with the
    removed note's time, and its list entry still showed it; typed to a note edited by hand, its time was the page's.
    The note on file, once the field says it, is taken: its entry and its time."""
    page.evaluate("(() => { const it = shown[at]; it.annotation = {text: 'x note', time: 'T-page'}; it.onFile = null; "
                  "draw(); })()")
    page.keyboard.press("/")
    page.fill("#annotationinput", "")
    assert page.text_content("#savestatus") == "" and page.evaluate("shown[at].annotation === null && !('onFile' in shown[at])")
    assert "x note" not in page.text_content("#list")
    page.evaluate("(() => { const it = shown[at]; it.annotation = {text: 'x note', time: 'T-page'}; "
                  "it.onFile = {text: 'y by hand', time: 'T-hand'}; draw(); })()")
    page.keyboard.press("/")
    page.fill("#annotationinput", "y by hand")
    assert page.text_content("#savestatus") == "saved T-hand", page.text_content("#savestatus")
    assert "y by hand" in page.text_content("#list")


def test_an_answer_of_a_review_not_known_to_serve_the_page_is_this_notes_newest(page):
    """127th round: with /served not answering, a save's answer taken for its own note alone left beside it the note
    heard before it (H1), so a label typed back to H1 was "saved" and never sent, and the next saves said "another
    note is on file" for good. The answer to its own save is the newest the page knows of that note."""
    import json
    key = page.evaluate("shown[at].key")
    page.evaluate("(() => { const it = shown[at]; it.annotation = null; draw(); "
                  "it.onFile = {text: 'H1', time: 'T-hand'}; })()")   # (heard as its field was in use)
    answer = {"saved": key, "annotation": {"text": "mine", "time": "T-mine"}, "counts": [], "annotations": {},
              "read_as": 1, "served": "a review never heard of"}
    page.route("**/served", lambda route: route.abort())
    page.route("**/annotations", lambda route: route.fulfill(status=200, content_type="application/json",
                                                             body=json.dumps(answer)))
    page.evaluate("store(shown[at], 'mine')")
    until(page, lambda: page.evaluate("!!shown[at].annotation && shown[at].annotation.text === 'mine'"))   # (taken)
    page.unroute("**/annotations")
    page.unroute("**/served")
    assert page.evaluate("!('onFile' in shown[at]) && shown[at].annotation.text === 'mine'")
    # (its review) the counts, which that answer cannot tell, are said unknown, never "No annotations yet."
    assert page.text_content("#counts").startswith("Unknown while this page cannot ask which review serves it")
    page.keyboard.press("/")
    page.fill("#annotationinput", "H1")   # (typed back to the note heard before: a draft, never "saved")
    assert page.text_content("#savestatus").startswith("not saved yet"), page.text_content("#savestatus")


def test_a_review_confirmed_after_none_was_known_retires_those_heard_meanwhile(page):
    """127th round: the review before a restart was never retired once the page, after /served went unanswered, heard
    the restarted one confirmed: its late answer, /served unanswered again, was taken for its note over a newer one."""
    import json
    page.route("**/served", lambda route: route.abort())
    page.evaluate("(() => { window.kept = [served, applied, new Set(retired)]; })()")
    assert page.evaluate("(async () => await fresh({read_as: 1, served: 'R2'}))()") == "own"
    page.unroute("**/served")
    page.route("**/served", lambda route: route.fulfill(status=200, content_type="application/json",
                                                         body=json.dumps({"served": "R2"})))
    assert page.evaluate("(async () => await fresh({read_as: 2, served: 'R2'}))()") is True
    page.unroute("**/served")
    page.route("**/served", lambda route: route.abort())
    late = page.evaluate("(async () => { const taken = await fresh({read_as: 99, served: window.kept[0]}), "
                         "banned = retired.has(window.kept[0]); [served, applied, retired] = window.kept; "
                         "passed.clear(); return [taken, banned]; })()")
    page.unroute("**/served")
    assert late == [False, True], late


def test_an_answer_confirmed_after_a_newer_one_taken_alone_takes_no_page_back(page):
    """127th round: an answer held back, confirmed by /served after a newer answer of the same review was taken for its
    own note alone, was taken whole: the newer note shown as removed, "changed in the file", its next save refused as
    another page's. And the notice that /served did not answer stayed once the page followed the file again."""
    import json
    page.evaluate("(() => { window.kept = [served, applied, new Set(retired)]; })()")
    page.route("**/served", lambda route: route.abort())
    assert page.evaluate("(async () => await fresh({read_as: 2, served: 'R2'}))()") == "own"
    assert "could not ask which review serves it" in page.text_content("#notice")
    page.unroute("**/served")
    page.route("**/served", lambda route: route.fulfill(status=200, content_type="application/json",
                                                         body=json.dumps({"served": "R2"})))
    assert page.evaluate("(async () => await fresh({read_as: 1, served: 'R2'}))()") == "own"   # (older: its note alone)
    assert page.evaluate("(async () => [await fresh({read_as: 3, served: 'R2'}), served, applied])()") == [True, "R2", 3]
    assert "could not ask which review serves it" not in page.text_content("#notice")   # (following the file again)
    page.unroute("**/served")
    page.route("**/served", lambda route: route.fulfill(status=200, content_type="application/json",
                                                         body=json.dumps({"served": "R3"})))
    assert page.evaluate("(async () => await fresh({read_as: 1, served: 'R3'}))()") is True
    assert "could not ask which review serves it" not in page.text_content("#notice")   # (following the file again)
    page.unroute("**/served")
    # (its review) taken whole on the path of another answer confirming meanwhile too; and a change in the file said
    # beside it stays said
    page.route("**/served", lambda route: route.abort())
    assert page.evaluate("(async () => await fresh({read_as: 5, served: 'R4'}))()") == "own"
    page.evaluate("changedNotice(1)")
    page.unroute("**/served")
    page.route("**/served", lambda route: route.fulfill(status=200, content_type="application/json",
                                                         body=json.dumps({"served": "R4"})))
    # (the newer one's /served is answered after the older one is through: both ask meanwhile, but which answer the
    # browser reads first was left to chance, and the newer taken first rightly drops the older as stale)
    assert page.evaluate("""(async () => {
        const real = window.fetch; let asked = 0, release; const gate = new Promise((r) => { release = r; });
        window.fetch = async (url, options) => {
            if (url !== "/served" || asked++ === 0) return real(url, options);
            const response = await real(url, options); await gate; return response;
        };
        try {
            const older = fresh({read_as: 4, served: 'R4'}), newer = fresh({read_as: 6, served: 'R4'});
            const first = await older; release(); return [first, await newer, asked];
        } finally { window.fetch = real; }
    })()""") == ["own", True, 2]
    notice = page.text_content("#notice")
    assert "could not ask which review serves it" not in notice and "1 annotation was changed" in notice, notice
    page.unroute("**/served")
    page.evaluate("(() => { [served, applied, retired] = window.kept; })()")


def test_a_save_written_whose_answer_was_lost_is_never_called_another_pages(page):
    """128th round: a save's answer lost on its way back (a proxy dropping it once the server had written it) said
    "not saved", and the next save was refused as "another page saved" the very text this page had sent: no other page
    was there."""
    import json
    from playwright.sync_api import expect
    page.keyboard.press("/")
    page.fill("#annotationinput", "v1")
    page.keyboard.press("Enter")
    expect(page.locator("#savestatus")).to_have_text(re.compile("^saved"))
    page.route("**/annotations", lambda route: (route.fetch(), route.abort()))   # (written, its answer dropped)
    page.keyboard.press("/")
    page.fill("#annotationinput", "v3")
    page.keyboard.press("Enter")
    expect(page.locator("#savestatus")).to_have_text(re.compile("^perhaps not saved"))   # (it was: "not saved")
    page.unroute("**/annotations")
    assert json.loads(open("runs/dev-v2.json.annotations.json").read())["annotations"]["dev-09#1"]["text"] == "v3"
    page.keyboard.press("/")
    page.fill("#annotationinput", "v4")
    page.keyboard.press("Enter")
    expect(page.locator("#savestatus")).to_have_text(re.compile("heard no answer to"))
    status = page.text_content("#savestatus")
    assert status == ("not saved: 'v3' is on file, a text this page sent and heard no answer to (it may have reached the "
                      "file, or another page saved the same); nothing was saved now: save again to replace it"), status
    save_note(page)   # (Enter again: replaced, as it says)
    expect(page.locator("#savestatus")).to_have_text(re.compile("^saved"))
    assert json.loads(open("runs/dev-v2.json.annotations.json").read())["annotations"]["dev-09#1"]["text"] == "v4"
    # (its review) a removal whose answer came back as a proxy's 502 page, written all the same: never another page's
    page.route("**/annotations", lambda route: (route.fetch(), route.fulfill(status=502, content_type="text/html",
                                                                              body="<h1>502 Bad Gateway</h1>")))
    page.keyboard.press("/")
    page.fill("#annotationinput", "")
    page.keyboard.press("Enter")
    expect(page.locator("#savestatus")).to_have_text(re.compile("^perhaps not saved: an answer of HTTP 502 came"))
    page.unroute("**/annotations")
    assert "dev-09#1" not in json.loads(open("runs/dev-v2.json.annotations.json").read())["annotations"]
    page.keyboard.press("/")
    page.fill("#annotationinput", "v5")
    page.keyboard.press("Enter")
    expect(page.locator("#savestatus")).to_have_text(re.compile("heard no answer to"))
    assert page.text_content("#savestatus") == (
        "not saved: no annotation is on file, as a save this page sent and heard no answer to asked (it may have reached "
        "the file, or another page removed it); nothing was saved now: save again to save yours")
    # (its third review) a proxy's error page in JSON is no answer of the review's: never "not saved: undefined"; nor
    # (129th round) "the review server answered 502 without a reason": review never answers 502, a proxy did
    page.route("**/annotations", lambda route: (route.fetch(), route.fulfill(status=502, content_type="application/json",
                                                                              body='{"message": "Bad Gateway"}')))
    page.keyboard.press("/")
    page.fill("#annotationinput", "v5")
    page.keyboard.press("Enter")
    expect(page.locator("#savestatus")).to_have_text(
        "perhaps not saved: an answer of HTTP 502 came, not the review's (a proxy's, or changed on the way); save again, "
        "or reload the page to see what the file holds")
    page.unroute("**/annotations")
    page.keyboard.press("/")
    page.fill("#annotationinput", "v6")
    page.keyboard.press("Enter")
    expect(page.locator("#savestatus")).to_have_text(re.compile("'v5' is on file, a text this page sent"))
    # (its review) an answer heard since ends it: a refusal of another text is said as another page's
    note_by_hand("by hand")
    page.keyboard.press("/")
    page.fill("#annotationinput", "v7")
    page.keyboard.press("Enter")
    expect(page.locator("#savestatus")).to_have_text(re.compile("another page saved 'by hand'"))


def save_answered_as(page, text, status, body, content_type="application/json"):
    """A save of `text` that reaches the review (written) whose answer a proxy replaces with `body` (`status`)."""
    page.route("**/annotations", lambda route: (route.fetch(), route.fulfill(status=status, content_type=content_type,
                                                                              body=body)))
    page.keyboard.press("/")
    page.fill("#annotationinput", text)
    page.keyboard.press("Enter")


def test_a_200_answer_without_the_reviews_own_fields_is_no_answer(page):
    """129th round: a 200 holding only {"saved": "<key>"} (a body rewritten by a proxy, the save written) was taken as
    the review's: "saving…" stuck, then "annotation removed", the counts panel emptied (counts(undefined) threw), and the
    next save was refused, this page's own text called another page's."""
    import json
    from playwright.sync_api import expect
    save_note(page, "v1")
    expect(page.locator("#savestatus")).to_have_text(re.compile("^saved"))
    counts = page.text_content("#counts")
    key = page.evaluate("shown[at].key")
    save_answered_as(page, "v2", 200, json.dumps({"saved": key}))
    expect(page.locator("#savestatus")).to_have_text(
        "perhaps saved: an answer of HTTP 200 came, not the review's (cut short, or changed on the way); reload the page "
        "to see what the file holds")
    page.unroute("**/annotations")
    assert page.text_content("#counts") == counts   # (as last heard, never emptied)
    assert json.loads(open("runs/dev-v2.json.annotations.json").read())["annotations"][key]["text"] == "v2"
    page.keyboard.press("/")
    page.fill("#annotationinput", "v3")
    page.keyboard.press("Enter")
    expect(page.locator("#savestatus")).to_have_text(re.compile("^not saved: 'v2' is on file, a text this page sent and "
                                                                "heard no answer to"))


def test_a_409_without_the_reviews_own_fields_is_no_answer(page):
    """129th round: a proxy's 409 {"error": "Conflict"} (any non-2xx with an error in text) was taken as the review's
    refusal: "saving…" stuck, the counts blank, and this page's own save called another page's. The review's 409 always
    holds the note on file, the counts, every note, and when and by which review it was read."""
    import json
    from playwright.sync_api import expect
    save_note(page, "v1")
    expect(page.locator("#savestatus")).to_have_text(re.compile("^saved"))
    counts = page.text_content("#counts")
    save_answered_as(page, "v2", 409, json.dumps({"error": "Conflict"}))
    expect(page.locator("#savestatus")).to_have_text(re.compile("^perhaps not saved: an answer of HTTP 409 came, not the "
                                                                "review's"))
    page.unroute("**/annotations")
    assert page.text_content("#counts") == counts
    page.keyboard.press("/")
    page.fill("#annotationinput", "v3")
    page.keyboard.press("Enter")
    expect(page.locator("#savestatus")).to_have_text(re.compile("^not saved: 'v2' is on file, a text this page sent and "
                                                                "heard no answer to"))
    save_note(page)   # (Enter again: replaced, as it says)
    expect(page.locator("#savestatus")).to_have_text(re.compile("^saved"))


def said_no_answer_of_the_reviews(page, statuses):
    """Each status's {"error": ...} answered to a save that reached the file: "perhaps not saved", the text kept as
    unheard (the next save says so), and saved on the Enter after."""
    import json
    from playwright.sync_api import expect
    for n, status in enumerate(statuses):
        save_answered_as(page, f"v{n}", status, json.dumps({"error": "upstream request timeout"}))
        expect(page.locator("#savestatus")).to_have_text(
            f"perhaps not saved: an answer of HTTP {status} came, not the review's (a proxy's, or changed on the way); "
            "save again, or reload the page to see what the file holds")
        page.unroute("**/annotations")
        page.keyboard.press("/")
        page.fill("#annotationinput", f"v{n} again")
        page.keyboard.press("Enter")
        expect(page.locator("#savestatus")).to_have_text(re.compile(f"^not saved: 'v{n}' is on file, a text this page "
                                                                    "sent and heard no answer to"))
        save_note(page)
        expect(page.locator("#savestatus")).to_have_text(re.compile("^saved"))


def test_a_gateways_502_503_or_504_is_never_the_reviews_answer_whatever_its_body(page):
    """129th round: a gateway's 504 {"error": "upstream request timeout"}, come after the save reached the file, said
    "not saved: upstream request timeout" and kept no text unheard, so the next save called this page's own another
    page's. Review never answers 502, 503 or 504: "perhaps not saved", as of its HTML page; which said "the review
    server answered 502 without a reason", of an answer a proxy gave, and no cure."""
    said_no_answer_of_the_reviews(page, (502, 503, 504))


def test_a_save_whose_answer_never_comes_is_said_perhaps_after_the_pages_wait(project, chromium, monkeypatch):
    """129th round: a proxy holding a save's answer (45 s, or for good) left "saving…" as long, and every later save of
    that answer queued behind it. The page waits REVIEW_ANSWER_WAIT (the server's, here short), then says "perhaps"."""
    import json
    from playwright.sync_api import expect
    monkeypatch.setattr(evalpy, "REVIEW_ANSWER_WAIT", 0.5)
    with review_tab(chromium, write_run("runs/dev-v2.json", split_run("dev", V2_HOSTILE_MISSES, prompt="prompts/v2.txt"))) \
            as tab:
        held = []
        tab.route("**/annotations", lambda route: held.append((route, route.fetch())))   # (written, never answered)
        save_note(tab, "v1")
        expect(tab.locator("#savestatus")).to_have_text(
            "perhaps not saved: no answer came within 0.5 s (the review server, or a proxy between, is stuck); save "
            "again, or reload the page to see what the file holds")
        tab.unroute("**/annotations")
        assert json.loads(open("runs/dev-v2.json.annotations.json").read())["annotations"]["dev-09#1"]["text"] == "v1"
        save_note(tab, " more")   # (the next save is sent, never queued behind the held one)
        expect(tab.locator("#savestatus")).to_have_text(re.compile("^not saved: 'v1' is on file, a text this page sent "
                                                                   "and heard no answer to"))


def test_the_notice_and_counts_while_served_fails_keep_a_change_said_and_clear_once_it_answers(page):
    """128th round: where /served did not answer, the notice's sentence on notes changed in the file went (back at the
    next save); and an answer older than one taken for its own note, once /served answered, left the notice and the
    counts saying the page "cannot ask" which review serves it."""
    import json
    from playwright.sync_api import expect
    key = page.evaluate("shown[at].key")
    page.evaluate("changedNotice(1)")
    page.route("**/served", lambda route: route.abort())
    assert page.evaluate("(async () => await fresh({read_as: 2, served: 'R2'}))()") == "own"
    notice = page.text_content("#notice")
    assert "could not ask which review serves it" in notice and "1 annotation was changed" in notice, notice
    page.unroute("**/served")
    page.route("**/served", lambda route: route.fulfill(status=200, content_type="application/json",
                                                         body=json.dumps({"served": "R2"})))
    answer = {"saved": key, "annotation": {"text": "late", "time": "T"}, "counts": [], "annotations": {},
              "read_as": 1, "served": "R2"}   # (older than the one taken for its own note: its own note alone still)
    page.route("**/annotations", lambda route: route.fulfill(status=200, content_type="application/json",
                                                             body=json.dumps(answer)))
    page.evaluate("store(shown[at], 'late')")
    expect(page.locator("#savestatus")).to_have_text(re.compile("^saved"))
    page.unroute("**/annotations")
    page.unroute("**/served")
    notice = page.text_content("#notice")
    assert "could not ask" not in notice and "1 annotation was changed" in notice, notice
    # (its review) the others still as last heard: said so till an answer is taken whole
    assert "An older answer came late: the other notes are shown as this page last heard them" in notice, notice
    assert page.text_content("#counts") == "Unknown till the next save is answered (this one's answer came late).", \
        page.text_content("#counts")


def test_a_browser_without_abort_signal_timeout_saves_and_asks_which_review_serves_it(page):
    """129th round: a browser without AbortSignal.timeout (Chrome before 103, Firefox before 100, Safari before 16) never
    sent a save and said "saving…" for good: its TypeError came before the save's try; and could never ask /served."""
    from playwright.sync_api import expect
    page.add_init_script("delete AbortSignal.timeout")
    page.reload()
    page.wait_for_selector("#case h2")
    assert page.evaluate("typeof AbortSignal.timeout") == "undefined"
    save_note(page, "v1")
    expect(page.locator("#savestatus")).to_have_text(re.compile("^saved "))
    page.evaluate("served = 'a review before a restart'")   # (the next answer's review is asked after, at /served)
    save_note(page, " more")
    expect(page.locator("#savestatus")).to_have_text(re.compile("^saved "))
    assert "could not ask" not in page.text_content("#notice") and page.evaluate("typeof served") == "string"


def test_an_answer_of_a_status_the_review_never_gives_or_without_its_mark_is_no_answer(page):
    """129th round: a proxy's {"error": ...} under a status the review never gives (520, 522, 524, 429, 401, 407, 413)
    was read as the review's refusal: "not saved: upstream request timeout" of a save written, and the next save called
    this page's own text another page's. The review's refusals are 400, 408, 409, 412 and 500, each with its mark
    (served); a 500 or 408 without it is a proxy's too."""
    from playwright.sync_api import expect
    said_no_answer_of_the_reviews(page, (520, 522, 524, 429, 401, 407, 413, 500, 408))
    page.evaluate("store(shown[at], 'bad \\ud800 text')")   # (the review's own 400 is still its refusal, said as it is)
    expect(page.locator("#savestatus")).to_have_text(re.compile('^not saved: "text" '))


def test_a_save_given_up_on_never_lands_after_a_later_save_of_the_same_page(project, chromium, monkeypatch):
    """129th round: a save the page gave up on after its wait (held on the way) still landed later, over a save sent
    after it: "A" on file, "X" held and said "perhaps not saved", "A" again said "saved"; then the held "X" came with
    was=A, the file held A, and it was written: the page said "saved A", the file held X. Removal alike. Each save
    carries the revision of the note it showed (once the page's mark and its number, kept in the review's memory):
    another than the note's now is refused."""
    import json
    import requests
    from playwright.sync_api import expect
    monkeypatch.setattr(evalpy, "REVIEW_ANSWER_WAIT", 0.5)
    with review_tab(chromium, write_run("runs/dev-v2.json", split_run("dev", V2_HOSTILE_MISSES, prompt="prompts/v2.txt"))) \
            as tab:
        def typed(text):
            tab.keyboard.press("/")
            tab.fill("#annotationinput", text)
            tab.keyboard.press("Enter")
        for given_up in ("X", ""):   # (a removal alike)
            typed("A")
            expect(tab.locator("#savestatus")).to_have_text(re.compile("^saved"))
            held = []
            tab.route("**/annotations", lambda route: held.append(route.request))   # (never sent on: the proxy holds it)
            typed(given_up)
            expect(tab.locator("#savestatus")).to_have_text(
                "perhaps not saved: no answer came within 0.5 s (the review server, or a proxy between, is stuck); save "
                "again, or reload the page to see what the file holds")
            tab.unroute("**/annotations")
            typed("A")
            expect(tab.locator("#savestatus")).to_have_text(re.compile("^saved"))
            late = requests.post(tab.url + "annotations", data=held[0].post_data,   # (the proxy lets it go at last)
                                 headers={"Content-Type": "application/json"}, timeout=10)
            assert late.status_code == 409 and late.json()["annotation"]["text"] == "A" and late.json()["error"].startswith(
                "'A' was saved again for this answer since this page showed it"), late.text
            assert json.loads(open("runs/dev-v2.json.annotations.json").read())["annotations"]["dev-09#1"]["text"] == "A"
            typed("B")   # (never told another page changed it)
            expect(tab.locator("#savestatus")).to_have_text(re.compile("^saved"))


def test_a_save_given_up_on_never_lands_after_a_reload(project, chromium, monkeypatch):
    """129th round: the page's mark and its saves' numbers guarded one page only: "X" held by a proxy and said "perhaps
    not saved ... reload", the page reloaded (a new page) saved B then A, both "saved"; the held "X" came with was=A,
    the file held A, and it was written. The page sends the revision of the note it showed: another is refused."""
    import json
    import requests
    from playwright.sync_api import expect
    monkeypatch.setattr(evalpy, "REVIEW_ANSWER_WAIT", 0.5)
    with review_tab(chromium, write_run("runs/dev-v2.json", split_run("dev", V2_HOSTILE_MISSES, prompt="prompts/v2.txt"))) \
            as tab:
        save_note(tab, "A")
        expect(tab.locator("#savestatus")).to_have_text(re.compile("^saved"))
        held = []
        tab.route("**/annotations", lambda route: held.append(route.request))   # (never sent on: the proxy holds it)
        tab.fill("#annotationinput", "X")
        tab.keyboard.press("Enter")
        expect(tab.locator("#savestatus")).to_have_text(re.compile("perhaps not saved: no answer came"))
        tab.unroute("**/annotations")
        tab.reload()
        tab.wait_for_selector("#case h2")
        for text in ("B", "A"):
            tab.keyboard.press("/")
            tab.fill("#annotationinput", text)
            tab.keyboard.press("Enter")
            expect(tab.locator("#savestatus")).to_have_text(re.compile("^saved"))
        late = requests.post(tab.url + "annotations", data=held[0].post_data,   # (the proxy lets it go at last)
                             headers={"Content-Type": "application/json"}, timeout=10)
        assert late.status_code == 409 and late.json()["annotation"]["text"] == "A", late.text
        assert json.loads(open("runs/dev-v2.json.annotations.json").read())["annotations"]["dev-09#1"]["text"] == "A"


def test_a_save_that_reached_the_review_twice_is_said_saved(page):
    """129th round: a save sent again on the way (a proxy's retry) reaches the review twice; the second's answer, the
    one the page waits for, was refused as an older save of this page, its note on file ignored: "perhaps saved ...
    reload", and the next save refused once ("'v1' is on file, a text this page sent and heard no answer to"). The
    note on file is the text saved: "saved", and the next save is taken."""
    from playwright.sync_api import expect
    page.route("**/annotations", lambda route: (route.fetch(), route.fulfill(response=route.fetch())))
    save_note(page, "v1")
    expect(page.locator("#savestatus")).to_have_text(re.compile("^saved"))
    page.unroute("**/annotations")
    page.keyboard.press("/")
    page.fill("#annotationinput", "v2")
    page.keyboard.press("Enter")
    expect(page.locator("#savestatus")).to_have_text(re.compile("^saved"))


def test_a_late_copy_of_a_save_the_page_was_answered_never_refuses_its_next_save(page):
    """131st round: a copy of a save landing after the page was answered (a browser or a proxy sending the POST again)
    was written as a new revision, and the page's next save was refused ("'v1' was saved again for this answer since
    this page showed it ..."), no other page there. Each save carries an id of its own, the same in every copy, that
    the note it writes keeps: the copy is answered with the note on file, and the next save goes through."""
    import json
    import requests
    from playwright.sync_api import expect
    sent = []
    page.route("**/annotations", lambda route: (sent.append(route.request.post_data), route.continue_()))
    for text in ("v1", "v2"):   # (from no note, and from one)
        page.keyboard.press("/")
        page.fill("#annotationinput", text)
        page.keyboard.press("Enter")
        expect(page.locator("#savestatus")).to_have_text(re.compile("^saved"))
        late = requests.post(page.url + "annotations", data=sent[-1], headers={"Content-Type": "application/json"},
                             timeout=10)
        assert late.status_code == 200 and late.json()["annotation"]["text"] == text, late.text
    page.keyboard.press("/")
    page.fill("#annotationinput", "v3")
    page.keyboard.press("Enter")
    expect(page.locator("#savestatus")).to_have_text(re.compile("^saved"))
    assert json.loads(open("runs/dev-v2.json.annotations.json").read())["annotations"]["dev-09#1"]["text"] == "v3"
    assert len({json.loads(body)["save_id"] for body in sent}) == 3
    # the same text saved again after a save whose answer was lost (written) is that save again: nothing written anew
    page.unroute("**/annotations")
    page.route("**/annotations", lambda route: (sent.append(route.request.post_data), route.fetch(), route.abort()))
    page.keyboard.press("/")
    page.fill("#annotationinput", "v4")
    page.keyboard.press("Enter")
    expect(page.locator("#savestatus")).to_have_text(re.compile("^perhaps not saved"))
    page.unroute("**/annotations")
    page.route("**/annotations", lambda route: (sent.append(route.request.post_data), route.continue_()))
    on_file = open("runs/dev-v2.json.annotations.json", "rb").read()
    save_note(page)
    expect(page.locator("#savestatus")).to_have_text(re.compile("^saved"))
    assert open("runs/dev-v2.json.annotations.json", "rb").read() == on_file
    assert json.loads(sent[-1])["save_id"] == json.loads(sent[-2])["save_id"]


def test_a_save_held_from_before_a_removal_never_brings_the_note_back(project, chromium, monkeypatch):
    """131st round: "A" held by a proxy ("perhaps not saved"), "A" saved again, then removed: the held "A" landed,
    named from no note where none was on file, and was written, the removed note back. A removal keeps its revision in
    the file, sent to the page, which names it where it shows no note: the held save is refused, and the page's next
    save goes through, from this page and from one loaded after the removal."""
    import json
    import requests
    from playwright.sync_api import expect
    monkeypatch.setattr(evalpy, "REVIEW_ANSWER_WAIT", 0.5)
    notes = "runs/dev-v2.json.annotations.json"
    with review_tab(chromium, write_run("runs/dev-v2.json", split_run("dev", V2_HOSTILE_MISSES, prompt="prompts/v2.txt"))) \
            as tab:
        typed = functools.partial(replace_note, tab)
        held = []
        tab.route("**/annotations", lambda route: held.append(route.request))   # (never sent on: the proxy holds it)
        typed("A", "perhaps not saved: no answer came")
        tab.unroute("**/annotations")
        typed("A")
        typed("", "annotation removed")
        late = requests.post(tab.url + "annotations", data=held[0].post_data,   # (the proxy lets it go at last)
                             headers={"Content-Type": "application/json"}, timeout=10)
        assert late.status_code == 409 and late.json()["annotation"] is None, late.text
        assert "dev-09#1" not in json.loads(open(notes).read())["annotations"]
        typed("B")
        typed("", "annotation removed")
        tab.reload()
        tab.wait_for_selector("#case h2")
        typed("C")
        assert json.loads(open(notes).read())["annotations"]["dev-09#1"]["text"] == "C"


def test_a_page_told_of_a_removal_the_file_no_longer_holds_saves_again(project, chromium):
    """131st round: a page told of a removal at rev 4 kept the highest it heard ("revisions only grow"), so once its
    annotations file was moved aside (or an older copy put back: revisions start lower) each save named 4 against the
    file's 2 and was refused, for ever. The file's removals, as an answer taken whole says them, are the page's: lower
    ones too, so a save after the file started over goes through, and after an older copy is put back, the one save
    refused gives the page the file's, and the next goes through."""
    import json
    import shutil
    from playwright.sync_api import expect
    notes = "runs/dev-v2.json.annotations.json"
    with review_tab(chromium, write_run("runs/dev-v2.json", split_run("dev", V2_HOSTILE_MISSES, prompt="prompts/v2.txt"))) \
            as tab:
        typed = functools.partial(replace_note, tab)
        typed("A")
        typed("", "annotation removed")
        shutil.copy(notes, notes + ".old")   # (its removal at rev 2)
        typed("A2")
        typed("", "annotation removed")
        os.rename(notes, notes + ".moved")   # (the annotations started over)
        typed("B")
        typed("", "annotation removed")
        typed("C")
        assert json.loads(open(notes).read())["annotations"]["dev-09#1"]["text"] == "C"
        typed("", "annotation removed")
        typed("D")
        typed("", "annotation removed")   # (rev 4)
        shutil.copy(notes + ".old", notes)   # (an older copy put back)
        typed("E", "not saved: the annotations file holds an older removal")
        typed("E")
        assert json.loads(open(notes).read())["annotations"]["dev-09#1"]["text"] == "E"


def test_removing_a_note_another_page_removed_says_removed_and_the_next_save_goes_through(page):
    """132nd round, in Chromium: two tabs showed the note X; one removed it, and the other's removal was "not saved: no
    annotation is stored for this answer ... none is stored, as this save asked", where the same after a removal by
    hand was "removed". Removing a note no longer on file is done, nothing written; the page takes the file's removal,
    and its next save goes through."""
    import json
    import requests
    notes = "runs/dev-v2.json.annotations.json"
    key = page.text_content("#case h2") + "#1"
    replace_note(page, "X")
    rev = json.loads(open(notes).read())["annotations"][key]["rev"]
    other = requests.post(page.url + "annotations", json={"key": key, "text": "", "was": "X", "was_rev": rev,
                                                          "save_id": "another tab"}, timeout=10)   # (another tab's removal)
    assert other.status_code == 200 and other.json()["removed"] == {key: rev + 1}, other.text
    on_file = open(notes, "rb").read()
    replace_note(page, "", "annotation removed")
    assert open(notes, "rb").read() == on_file
    replace_note(page, "B")
    assert json.loads(open(notes).read())["annotations"][key]["text"] == "B"


def test_a_held_save_of_a_text_saved_again_since_never_refuses_the_next(project, chromium, monkeypatch):
    """131st round: "A" held by a proxy, "B" then "A" saved; the held "A" landed and was written as a newer note under
    its own id, and the page's next save was refused ("'A' was saved again ... held on the way"), untrue. The held
    save is refused, the note on file kept, and the next save goes through."""
    import json
    import requests
    from playwright.sync_api import expect
    monkeypatch.setattr(evalpy, "REVIEW_ANSWER_WAIT", 0.5)
    notes = "runs/dev-v2.json.annotations.json"
    with review_tab(chromium, write_run("runs/dev-v2.json", split_run("dev", V2_HOSTILE_MISSES, prompt="prompts/v2.txt"))) \
            as tab:
        typed = functools.partial(replace_note, tab)
        held = []
        tab.route("**/annotations", lambda route: held.append(route.request))
        typed("A", "perhaps not saved: no answer came")
        tab.unroute("**/annotations")
        typed("B")
        typed("A")
        on_file = json.loads(open(notes).read())["annotations"]["dev-09#1"]
        late = requests.post(tab.url + "annotations", data=held[0].post_data,
                             headers={"Content-Type": "application/json"}, timeout=10)
        assert late.status_code == 409 and late.json()["annotation"] == on_file, late.text
        typed("C")
        assert json.loads(open(notes).read())["annotations"]["dev-09#1"]["text"] == "C"
