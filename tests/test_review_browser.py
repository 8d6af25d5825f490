"""The review page in real headless Chromium: hostile answers stay text, filters, keys, labels kept."""

import re

import pytest

import browser
from conftest import HOSTILE, V2_HOSTILE_MISSES, evalpy, split_run, write_run

pytestmark = pytest.mark.skipif(browser.missing() is not None, reason=str(browser.missing()))


@pytest.fixture
def page(project):
    from playwright.sync_api import sync_playwright
    run = write_run("runs/dev-v2.json", split_run("dev", V2_HOSTILE_MISSES, prompt="prompts/v2.txt"))
    httpd, url = browser.serve(evalpy, run)
    with sync_playwright() as p:
        chromium = browser.launch(p)
        tab = chromium.new_page()
        tab.goto(url)
        tab.wait_for_selector("#case h2")
        yield tab
        chromium.close()
    httpd.shutdown()
    httpd.server_close()


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
    # "/" jumps to the label field; Enter saves at once
    page.keyboard.press("/")
    assert page.evaluate("document.activeElement.id") == "labelinput"
    page.keyboard.type("picked the billing label for a broken page")
    page.keyboard.press("Enter")
    expect(page.locator("#savestatus")).to_have_text(re.compile("^saved "))
    expect(page.locator("#counts")).to_have_text("picked the billing label for a broken page1")
    page.keyboard.press("Escape")
    page.evaluate("document.activeElement.blur()")
    page.keyboard.press("j")
    page.keyboard.press("j")
    assert page.text_content("#case h2") == "dev-24"
    page.fill("#labelinput", "picked the billing label for a broken page")
    page.click("#save")
    expect(page.locator("#counts")).to_have_text("picked the billing label for a broken page2")
    # a reload keeps what was saved
    page.reload()
    page.wait_for_selector("#case h2")
    assert page.input_value("#labelinput") == "picked the billing label for a broken page"
    assert page.text_content("#counts") == "picked the billing label for a broken page2"
    options = page.eval_on_selector_all("#used option", "els => els.map(e => e.value)")
    assert options == ["picked the billing label for a broken page"]   # autocomplete from labels used


def test_the_thinking_is_folded_above_the_answer_and_stays_text(project):
    """A reasoning model's thinking: folded (closed) above the answer, hostile text shown as text;
    an answer that stopped mid-thought says so."""
    from playwright.sync_api import sync_playwright
    run = split_run("dev", {"dev-09": f"<think>\n{HOSTILE}\n</think>\nfacturación", "dev-11": "<think>\nsigo"},
                    prompt="prompts/v2.txt")
    write_run("runs/thinking.json", run)
    httpd, url = browser.serve(evalpy, "runs/thinking.json")
    try:
        with sync_playwright() as p:
            chromium = browser.launch(p)
            tab = chromium.new_page()
            tab.goto(url)
            tab.wait_for_selector("#case h2")
            assert tab.text_content("#case h2") == "dev-09"
            assert tab.eval_on_selector("#thinking", "d => d.open") is False   # folded until asked
            assert tab.text_content("#thinking summary") == f"Thinking ({len(HOSTILE)} characters; not scored)"
            assert tab.text_content("#thinking pre") == HOSTILE and tab.evaluate("window.pwned") is None
            order = tab.eval_on_selector_all("#thinking, #answer", "els => els.map(e => e.id)")
            assert order == ["thinking", "answer"]
            tab.keyboard.press("j")
            assert tab.text_content("#case h2") == "dev-11"
            assert "thinking never finished" in tab.text_content("#case")
            chromium.close()
    finally:
        httpd.shutdown()
        httpd.server_close()
