"""The pages of report --html and compare --html in real headless Chromium, opened from disk with
the network cut: the figures are in the DOM, the charts draw, no request leaves the page, hostile
text stays text, and the page reads with JavaScript off."""

import json
from pathlib import Path

import pytest

import browser
from conftest import HOSTILE, V2_HOSTILE_MISSES, evalpy, make_run, split_run, write_run, write_two_runs

pytestmark = pytest.mark.skipif(browser.missing() is not None, reason=str(browser.missing()))


def open_page(chromium, path, scripts=True, width=1280):
    """The page from disk, offline, every request recorded (and refused unless it is the file),
    and every console message kept: a style or script the CSP refused would show there."""
    url = Path(path).resolve().as_uri()
    context = chromium.new_context(offline=True, java_script_enabled=scripts, viewport={"width": width, "height": 900})
    requests, console = [], []
    context.route("**/*", lambda route: route.continue_() if route.request.url == url else route.abort())
    page = context.new_page()
    page.on("request", lambda r: requests.append(r.url))
    page.on("console", lambda m: console.append(f"{m.type}: {m.text}"))
    page.on("pageerror", lambda e: console.append(f"error: {e}"))
    page.goto(url)
    page.wait_for_load_state("load")
    return page, requests, console, url


def count(page, selector):
    return page.eval_on_selector_all(selector, "els => els.length")


def test_the_run_report_in_chromium(project, cli, chromium):
    run = write_run("runs/dev-v2.json", split_run("dev", V2_HOSTILE_MISSES, prompt="prompts/v2.txt"))
    assert cli("report", run, "--html", "report.html")[0] == 0
    page, requests, console, url = open_page(chromium, "report.html")
    assert requests == [url] and console == []
    assert "25/28 = 89%" in page.text_content("#headline") and "Majority baseline (always bug)" in page.text_content("#headline")
    assert count(page, "#headline svg rect.bar") == 2 and count(page, "#headline svg path.ci") == 2
    assert count(page, "#labels svg rect.cell") == 4 * 5
    cells = page.eval_on_selector_all("#labels svg text.count", "els => els.map(e => e.textContent)")
    assert sum(map(int, cells)) == 28
    assert count(page, "#difficulty svg rect.bar") == 3   # easy, trap, ambiguous
    box = page.eval_on_selector("#headline svg", "e => e.getBoundingClientRect().width")
    assert box > 300   # drawn, not collapsed
    # the failing cases: three rows, the hostile answer as its characters
    assert count(page, "#failures tbody tr") == 3
    assert HOSTILE in page.text_content("#failures") and page.evaluate("window.pwned") is None
    # the script sorts and filters (so it ran under the CSP)
    ids = lambda: page.eval_on_selector_all("#failures tbody tr:not([hidden]) td:first-child", "els => els.map(e => e.textContent)")
    assert ids() == ["dev-09", "dev-11", "dev-24"]
    page.click("#failures th:first-child")
    page.click("#failures th:first-child")
    assert ids() == ["dev-24", "dev-11", "dev-09"]
    page.fill("#failures .filter input", "petición")
    assert ids() == ["dev-24"] and page.text_content("#failures .filter .count") == "1 of 3 shown"
    page.fill("#failures .filter input", "")
    assert len(ids()) == 3 and page.text_content("#failures .filter .count") == ""


def test_with_scripts_off_every_figure_and_row_is_there(project, cli, chromium):
    run = write_run("runs/dev-v2.json", split_run("dev", V2_HOSTILE_MISSES, prompt="prompts/v2.txt"))
    assert cli("report", run, "--html", "report.html")[0] == 0
    page, requests, console, url = open_page(chromium, "report.html", scripts=False)
    assert requests == [url]
    assert "25/28 = 89%" in page.text_content("#headline") and count(page, "#labels svg rect.cell") == 20
    assert count(page, "#failures tbody tr") == 3 and page.is_visible("#failures tbody tr:nth-child(3)")
    assert not page.is_visible(".filter")   # no control that would do nothing
    page.emulate_media(media="print")
    assert page.is_visible("#failures tbody tr:nth-child(3)") and not page.is_visible(".filter")


def test_a_hostile_run_shows_its_text_inert_and_cannot_move_the_layout(project, cli, chromium):
    evil_id = '</textarea><script>window.pwned=3</script>'
    evil_label = 'javascript:window.pwned=5'
    answer = HOSTILE + " \u202eevil\u202c <a href=\"javascript:window.pwned=2\">x</a> " + "W" * 3000
    run = make_run([{"id": evil_id, "expected": "bug", "response": answer, "tags": ["<b>" + "t" * 300 + "</b>"]},
                    {"id": "ok", "expected": evil_label, "response": "bug"},
                    {"id": "lost", "expected": "bug", "response": None, "error": "E" * 3000}], labels=["bug", evil_label])
    write_run("runs/evil.json", run)
    Path("runs/evil.json.annotations.json").write_text(json.dumps({"format": evalpy.ANNOTATIONS_FORMAT, "annotations": {
        f"{evil_id}#1": {"text": "<img src=x onerror=window.pwned=4>", "time": "t"}}}))
    assert cli("report", "runs/evil.json", "--html", "evil.html")[0] == 0
    page, requests, console, url = open_page(chromium, "evil.html", width=1000)
    assert requests == [url] and console == []
    assert page.evaluate("window.pwned") is None
    assert count(page, "script") == 1 and count(page, "img") == 0 and count(page, "main a[href^=javascript]") == 0
    text = page.text_content("#failures")
    assert evil_id in text and HOSTILE in text and "\\u202eevil\\u202c" in text and "\u202e" not in text
    assert "<img src=x onerror=window.pwned=4>" in page.text_content("#annotations")
    for link in page.eval_on_selector_all("a", "els => els.map(e => e.getAttribute('href'))"):
        assert link.startswith("#case-")
    page.click("#annotations a")   # its link leads to the case's row
    assert page.evaluate("location.hash") == "#case-0" and page.evaluate("window.pwned") is None
    # 3,000 characters without a space and a 300-character tag: the page does not get wider, nor any section
    assert page.evaluate("document.documentElement.scrollWidth") <= 1000
    assert page.evaluate("[...document.querySelectorAll('section')].filter(s => s.scrollWidth > s.clientWidth + 1)"
                         ".map(s => s.querySelector('h2').textContent)") == []
    two = make_run([{"id": evil_id, "expected": "bug", "response": "bug"},
                    {"id": "ok", "expected": evil_label, "response": answer}, {"id": "lost", "expected": "bug", "response": "bug"}],
                   labels=["bug", evil_label], prompt="prompts/v2.txt")
    write_run("runs/evil-2.json", two)
    assert cli("compare", "runs/evil.json", "runs/evil-2.json", "--html", "evil-compare.html")[0] == 0
    page, requests, console, url = open_page(chromium, "evil-compare.html", width=1000)
    assert requests == [url] and console == [] and page.evaluate("window.pwned") is None
    assert count(page, "script") == 1 and count(page, "img") == 0
    assert HOSTILE in page.text_content("#changed") and page.evaluate("document.documentElement.scrollWidth") <= 1000


def test_the_comparison_in_chromium(project, cli, chromium):
    v2, v3 = write_two_runs()
    assert cli("compare", v2, v3, "--html", "compare.html")[0] == 0
    page, requests, console, url = open_page(chromium, "compare.html")
    assert requests == [url] and console == []
    head = page.text_content("#headline")
    assert "25/28 = 89%" in head and "27/28 = 96%" in head and "+7.1 points (95% CI −9.0 to +24.1), p = 0.38 (mid-p McNemar)" in head
    assert count(page, "#headline svg rect.bar") == 2 and count(page, "#headline svg path.ci") == 2
    assert page.eval_on_selector_all("#changes li", "els => els.map(e => e.textContent)") == ["dev-09", "dev-11", "dev-24", "dev-05"]
    assert count(page, "#changed tbody tr") == 4
    assert page.text_content("#changed tbody tr:first-child del") == "facturación"
    assert page.text_content("#changed tbody tr:first-child ins") == "bug"
    page.click("#changes a:text-is('dev-05')")
    assert page.evaluate("location.hash") == page.get_attribute("#changed tr.broken", "id").join(["#", ""])
    page, requests, console, url = open_page(chromium, "compare.html", scripts=False)
    assert requests == [url] and count(page, "#changed tbody tr") == 4 and "27/28 = 96%" in page.text_content("#headline")


@pytest.mark.parametrize("argv", [
    ["report", "runs/example/support-dev-v2-judged.json"],
    ["report", "runs/example/test-v3.json"],
    ["compare", "runs/example/support-dev-v1-judged.json", "runs/example/support-dev-v2-judged.json"],
    ["compare", "runs/example/dev-v1.json", "runs/example/dev-v2.json"],
], ids=["free-text report", "test report", "free-text compare", "dev compare"])
def test_the_pages_of_the_real_example_runs(chromium, cli, tmp_path, monkeypatch, argv):
    """The committed runs of a real model, free text and labels, as the README shows them."""
    from conftest import ROOT
    monkeypatch.chdir(ROOT)
    page_path = tmp_path / "page.html"
    assert cli(*argv, "--html", str(page_path))[0] == 0
    page, requests, console, url = open_page(chromium, page_path)
    assert requests == [url] and console == []
    assert count(page, "#headline svg rect.bar") >= 1 and count(page, "script") == 1
    if argv[1].startswith("runs/example/support-dev-v2"):
        assert "Judge checks" in page.text_content("#judge") and "weighted score ≥ 0.75" in page.text_content("#headline")
        failing = len(json.loads(cli("report", argv[1], "--json")[1])["failures"])
        assert failing > 0 and count(page, "#failures-table tbody tr") == failing
    assert page.evaluate("document.documentElement.scrollWidth") <= 1280


@pytest.mark.parametrize("command", ["report", "compare"])
def test_a_page_prints_readably_on_a4(project, cli, chromium, command):
    """From the newcomer pass on issue 17: printed on A4 the fixed columns left the answers about
    20 px, one letter a line."""
    v2, v3 = write_two_runs()
    assert cli(*(["report", v2] if command == "report" else ["compare", v2, v3]), "--html", "page.html")[0] == 0
    page, requests, console, url = open_page(chromium, "page.html", width=718)   # A4 less 1 cm margins, at 96 dpi
    page.emulate_media(media="print")
    table = "#failures-table" if command == "report" else "#changed-table"
    widths = page.eval_on_selector_all(f"{table} tbody tr:first-child td", "els => els.map(e => e.getBoundingClientRect().width)")
    assert min(widths[-3:-1] if command == "report" else widths[-2:]) >= 150, widths   # the input and the answers
    assert page.evaluate("document.documentElement.scrollWidth") <= 718 and not page.is_visible(".filter")
    assert len(page.pdf(format="A4")) > 1000
