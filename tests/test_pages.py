"""report --html and compare --html: the chart helpers, what each page holds, hostile text kept
inert, and the file written atomically, never over one that exists without --force."""

import base64
import difflib
import errno
import hashlib
import json
import os
import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest

from conftest import HOSTILE, evalpy, make_run, write_run, write_two_runs

SVG = "{http://www.w3.org/2000/svg}"


def svg_of(markup):
    """The chart as XML: it must be well formed, or a browser would draw nothing."""
    return ET.fromstring(re.search(r"<svg.*</svg>", markup, re.S).group())


def bars(svg):
    return [r for r in svg.iter(SVG + "rect") if "bar" in r.get("class").split()]


def row(name, value, n=20, **extra):
    correct = round(value * n) if value is not None else 0
    return {"name": name, "value": value, "ci": list(evalpy.wilson(correct, n)), **extra}


# --- the chart helpers

def test_scale_maps_a_share_to_pixels_and_never_leaves_the_plot():
    width = evalpy.CHART_WIDTH
    assert [evalpy.scale(x) for x in (0, 0.25, 0.5, 1)] == [0, width / 4, width / 2, width]
    assert evalpy.scale(0.123, width=100) == 12.3
    for outside, edge in ((-0.5, 0), (1.7, width), (float("inf"), 0), (float("nan"), 0), (None, 0)):
        assert evalpy.scale(outside) == edge


def test_an_interval_chart_draws_one_bar_and_whisker_per_row_on_one_axis():
    svg = svg_of(evalpy.interval_chart([row("Accuracy", 0.9), row("Baseline", 0.4, kind="baseline")], "c"))
    drawn = bars(svg)
    assert len(drawn) == 2 and [float(b.get("width")) for b in drawn] == [evalpy.scale(0.9), evalpy.scale(0.4)]
    assert "baseline" in drawn[1].get("class")
    whiskers = [p.get("d") for p in svg.iter(SVG + "path")]
    low, high = evalpy.wilson(18, 20)
    left = evalpy.CHART_NAME
    assert len(whiskers) == 2 and whiskers[0].startswith(f"M{left + evalpy.scale(low)} ")
    assert f"H{left + evalpy.scale(high)}" in whiskers[0]
    texts = ["".join(t.itertext()) for t in svg.iter(SVG + "text")]
    assert "90%" in texts and "40%" in texts and "0%" in texts and "100%" in texts   # values, and the axis


def test_zero_and_hundred_percent_stay_inside_the_chart():
    svg = svg_of(evalpy.interval_chart([row("none", 0.0), row("all", 1.0)], "c"))
    zero, full = bars(svg)
    assert float(zero.get("width")) == 0 and float(full.get("width")) == evalpy.CHART_WIDTH
    right = evalpy.CHART_NAME + evalpy.CHART_WIDTH
    for path in svg.iter(SVG + "path"):
        xs = [float(x) for x in re.findall(r"[MH](-?[\d.]+)", path.get("d"))]
        assert all(evalpy.CHART_NAME <= x <= right for x in xs)
    assert int(svg.get("width")) > right   # room for the value written after the bar


def test_one_case_and_no_case():
    one = svg_of(evalpy.interval_chart([row("easy (1)", 1.0, n=1, thin=True)], "by difficulty"))
    assert len(bars(one)) == 1 and "thin" in next(g for g in one.iter(SVG + "g")).get("class")
    assert "100% *" in ["".join(t.itertext()) for t in one.iter(SVG + "text")]
    assert "* fewer than 10 cases" in evalpy.interval_chart([row("easy (1)", 1.0, n=1, thin=True)], "x")
    empty = evalpy.interval_chart([], "By tag")
    assert "<svg" not in empty and "By tag: nothing to draw." in empty
    unscored = svg_of(evalpy.interval_chart([{"name": "Accuracy", "value": None, "ci": [None, None]}], "c"))
    assert bars(unscored) == [] and "no verdict to count" in ET.tostring(unscored, encoding="unicode")


def test_a_figure_without_an_interval_gets_no_empty_interval_label(project, cli):
    """From the attack pass after issue 26: one case with trials has no interval (no spread to
    read); the text views leave the interval out, the pages printed a bare '95% CI' beside it."""
    a = write_run("runs/t1.json", make_run([("c1", "bug", ["bug", "no sé"])]))
    b = write_run("runs/t2.json", make_run([("c1", "bug", ["bug", "bug"])], prompt="prompts/v2.txt"))
    assert cli("report", a, "--html", "report.html")[0] == 0 and cli("compare", a, b, "--html", "compare.html")[0] == 0
    report, compare = (Path(name).read_text(encoding="utf-8") for name in ("report.html", "compare.html"))
    assert "the mean over 1 case of each case&#x27;s pass rate" in report and "95% CI ;" not in report
    stats = re.findall(r'<div class="d">([^<]*)</div>', compare)
    assert "95% CI " not in stats and "95% CI" not in stats and "" in stats


def test_the_compare_pages_difference_tile_names_the_intervals_level(two_runs, cli):
    """From the tester's pass after issue 26: at --alpha 0.01 the difference's interval is 99%, as
    the text, markdown and the page's own reading say; the tile beside it said '95% CI' of it."""
    v2, v3 = two_runs
    assert cli("compare", v2, v3, "--alpha", "0.01", "--html", "compare.html")[0] == 0
    text = Path("compare.html").read_text(encoding="utf-8")
    stats = re.findall(r'<div class="d">([^<]*)</div>', text)
    assert "+7.1 points (99% CI " in text
    assert [d for d in stats if "to" in d] == [d for d in stats if d.startswith("99% CI ") and " to " in d] != []


def test_a_very_long_name_is_cut_to_fit_and_whole_in_its_tooltip():
    name = "a tag with a very long name indeed, " * 5 + "<script>"
    svg = svg_of(evalpy.interval_chart([row(name, 0.5)], "c"))
    label = next(t for t in svg.iter(SVG + "text") if t.get("class") == "name")
    drawn = "".join(label.itertext()).replace(label.find(SVG + "title").text, "", 1)
    assert len(drawn) == evalpy.CHART_NAME_CHARS and drawn.endswith("…")
    assert label.find(SVG + "title").text == name   # escaped in the markup, whole in the tooltip
    assert label.get("text-anchor") == "end"


def test_the_heat_map_has_a_cell_per_pair_with_its_count():
    confusion = {"bug": {"bug": 8, "acceso": 2, "INVALID": 0}, "acceso": {"bug": 0, "acceso": 0, "INVALID": 0}}
    svg = svg_of(evalpy.heat_map(confusion, "confusion"))
    cells = [r for r in svg.iter(SVG + "rect") if "cell" in r.get("class")]
    assert len(cells) == 6
    assert [c.get("class") for c in cells] == ["cell hit", "cell miss", "cell miss", "cell miss", "cell hit", "cell miss"]
    assert [c.get("fill-opacity") for c in cells[:3]] == ["0.81", "0.25", "0.06"]   # share of its row
    assert [c.get("fill-opacity") for c in cells[3:]] == ["0.06"] * 3                  # an empty row draws nothing
    counts = [t.text for t in svg.iter(SVG + "text") if (t.get("class") or "").startswith("count")]
    assert counts == ["8", "2", "0", "0", "0", "0"]
    assert "nothing to draw" in evalpy.heat_map({}, "confusion")


def test_esc_leaves_no_markup_and_shows_direction_overrides_as_codes():
    hostile = '</textarea><script>x()</script><a href="javascript:alert(1)">\u202egnp.exe\u2066 & "q"'
    shown = evalpy.esc(hostile)
    assert "<" not in shown and ">" not in shown and '"' not in shown
    assert "\u202e" not in shown and "\\u202e" in shown and "\\u2066" in shown
    assert evalpy.esc(evalpy.Markup("<b>ours</b>")) == "<b>ours</b>"   # only what eval.py built passes through
    assert evalpy.esc(3) == "3"


def test_a_word_diff_marks_only_what_changed_and_stays_text():
    old, new = evalpy.marked_diff("the answer is bug <b>", "the answer is acceso <b>")
    assert old == "<pre>the answer is <del>bug</del> &lt;b&gt;</pre>"
    assert new == "<pre>the answer is <ins>acceso</ins> &lt;b&gt;</pre>"
    same = evalpy.marked_diff("same", "same")
    assert same == ("<pre>same</pre>", "<pre>same</pre>")
    long_old, long_new = "w " * 2500, "w " * 2499 + "v "   # too costly to weigh word by word: shown whole, unmarked
    old, new = evalpy.marked_diff(long_old, long_new)
    assert old == f"<pre>{long_old}</pre>" and new.startswith(f"<pre>{long_new}</pre>")
    assert "shown unmarked" in new and "<del>" not in new + old


def test_answers_with_more_tokens_than_the_budget_are_not_indexed_at_all(monkeypatch):
    """The first search for a match walks every token of both: past the budget, nothing is built."""
    monkeypatch.setattr(evalpy, "DIFF_WORK", 100)
    monkeypatch.setattr(evalpy, "BudgetedMatcher", None)   # building one would be a TypeError
    old, new = evalpy.marked_diff("a b " * 26, "a c " * 26)   # 52 words each (spaces are not weighed)
    assert old == f"<pre>{'a b ' * 26}</pre>" and "shown unmarked" in new


def test_a_word_diff_of_a_looping_answer_stops_at_its_budget_and_says_so(project, cli, monkeypatch):
    """difflib is about cubic on a token repeated a thousand times, well inside any cap on the tokens'
    product ("x " * 1000 against "y " * 999 took 22 s a pair): what it weighs is counted, and past the
    budget the answers are shown whole, unmarked, with a note. Three such cases (the attack's repro had 27: each
    costs the same, up to its budget, so three show the bound holds per pair and sums)."""
    work = []
    weigh = difflib.SequenceMatcher.find_longest_match

    def counted(self, alo=0, ahi=None, blo=0, bhi=None):   # what difflib's inner loop may visit in this call
        ahi, bhi = len(self.a) if ahi is None else ahi, len(self.b) if bhi is None else bhi
        work.append((ahi - alo) + (bhi - blo) + sum(len(self.b2j.get(x, ())) for x in self.a[alo:ahi]))
        if sum(work) > 40 * evalpy.DIFF_WORK:
            raise RuntimeError("the word diff weighed past its budget")
        return weigh(self, alo, ahi, blo, bhi)
    monkeypatch.setattr(difflib.SequenceMatcher, "find_longest_match", counted)
    monkeypatch.setattr(evalpy, "PAGE_DIFF_WORK", 6 * evalpy.DIFF_WORK)   # room for each pair's own budget
    check = [{"name": "greets", "type": "contains", "value": "Hola", "blocking": True}]
    old = [{"id": f"c{n:02d}", "response": f"Hola Lucía, pedido A-{n}. " + "x " * 2500, "checks": check} for n in range(3)]
    new = [dict(c, response="x " * 2500 + "y") for c in old]   # the same word looping on both sides (spaces are not weighed)
    a, b = (write_run(f"runs/{n}.json", make_run(cases, labels=None, prompt=f"prompts/{n}.txt"))
            for n, cases in (("v1", old), ("v2", new)))
    code, out, err = cli("compare", a, b, "--html", "loop.html")
    assert code in (0, 1) and "wrote loop.html" in err
    assert sum(work) <= 4 * evalpy.DIFF_WORK
    text = Path("loop.html").read_text(encoding="utf-8")
    assert text.count("shown unmarked") == 3 and "<del>" not in text and "<ins>" not in text
    assert evalpy.marked_diff("the answer is bug", "the answer is acceso")[1] == "<pre>the answer is <ins>acceso</ins></pre>"


def test_answers_that_differ_only_in_spacing_say_so_on_the_compare_page(project, cli):
    """Issue 28, twenty-third attack (minor): spaces are not weighed by the word diff, so a case that changed its
    outcome on spacing alone ("a b" passes a check, "a  b" fails it) showed no mark and no word of why."""
    from conftest import make_run, write_run
    check = [{"name": "exact", "type": "regex", "value": "^a b$", "blocking": True}]
    a = write_run("runs/a.json", make_run([{"id": "c1", "response": "a b", "checks": check}], labels=None))
    b = write_run("runs/b.json", make_run([{"id": "c1", "response": "a  b", "checks": check}], labels=None,
                                          prompt="prompts/v2.txt"))
    assert cli("compare", a, b, "--html", "c.html")[0] == 0
    page = Path("c.html").read_text(encoding="utf-8")
    assert evalpy.SPACING_NOTE in page and "<pre>a  b</pre>" in page, page[-3000:]


def compare_page_of_one_case(cli, baseline, candidate):
    """compare --html of two runs of one free-text case c1 (passed by "yes" alone), answered so: the page."""
    check = [{"name": "exact", "type": "regex", "value": "^yes$", "blocking": True}]
    a = write_run("runs/a.json", make_run([{"id": "c1", "response": baseline, "checks": check}], labels=None))
    b = write_run("runs/b.json", make_run([{"id": "c1", "response": candidate, "checks": check}], labels=None,
                                          prompt="prompts/v2.txt"))
    assert cli("compare", a, b, "--html", "c.html")[0] == 0
    return Path("c.html").read_text(encoding="utf-8")


def test_the_compare_page_diffs_the_answer_scored_and_folds_the_reasoning_apart(project, cli):
    """138th round: compare --html diffed the raw response, its <think> block and all: reasoning that changed was marked
    as the change, though what was scored, the answer past </think>, changed alone. The diff is of the answers, each
    side's reasoning folded apart above it (as review folds it), not scored."""
    page = compare_page_of_one_case(cli, "<think>first I ponder</think>yes", "<think>then I muse</think>no")
    assert "<pre><del>yes</del></pre>" in page and "<pre><ins>no</ins></pre>" in page, page[-4000:]
    for thought in ("first I ponder", "then I muse"):
        assert re.search(r"<details class=\"thinking\"><summary>reasoning inline, before &lt;/think&gt;: not scored[^<]*"
                         rf"</summary><pre>{thought}</pre></details>", page), page[-4000:]
    assert "<del>first" not in page and "<ins>then" not in page


def test_the_compare_page_shows_no_answer_of_a_model_still_thinking_as_none_not_as_its_words(project, cli):
    """138th round, F6: a candidate that never closed its <think> had eval.py's placeholder "(no answer: still thinking
    when it stopped)" diffed against the baseline's answer, <ins>-marked as if the model had written it. Its cell holds
    no answer, the reason said in its verdict line, as an agent's that reached none."""
    page = compare_page_of_one_case(cli, "yes", "<think>still pondering")
    assert "<ins>(no answer" not in page and "<ins>" not in page.split('id="changed-table"')[1], page[-4000:]
    assert "<pre><del>yes</del></pre>" in page, page[-4000:]
    assert re.search(r'<div class="trial">fail[^<]*\(no answer: still thinking when it stopped\)</div>', page), page[-4000:]


def test_answers_with_more_words_than_the_budget_are_counted_as_work_and_never_listed():
    """Issue 28, twenty-third attack: a pair of 10 MB answers had every word's position listed before the
    size was looked at (2.9 GB, 16 s), and, over budget, spent none of the page's: every such pair paid it
    all again. Counting stops past the budget, and what was counted is work spent."""
    assert evalpy.budgeted_diff("a. " * 1000, "b. " * 1000, 100) == (None, None, 101)
    old, new, work = evalpy.budgeted_diff("a b", "a c", 100)
    assert "<ins>c</ins>" in new and 0 < work <= 100


def test_a_page_of_many_looping_pairs_stops_at_its_budget_and_says_how_many_are_unmarked(project, cli, monkeypatch):
    """Twenty-first attack on issue 28, defect 3: each pair had its budget, the page none (200 looping
    cases: 89 s, nothing printed). The page has one budget, the same steps summed over every pair;
    once spent, the other pairs are shown unmarked and the page says so once, with how many."""
    work = []
    weigh = difflib.SequenceMatcher.find_longest_match

    def counted(self, alo=0, ahi=None, blo=0, bhi=None):
        ahi, bhi = len(self.a) if ahi is None else ahi, len(self.b) if bhi is None else bhi
        work.append((ahi - alo) + (bhi - blo) + sum(len(self.b2j.get(x, ())) for x in self.a[alo:ahi]))
        return weigh(self, alo, ahi, blo, bhi)
    monkeypatch.setattr(difflib.SequenceMatcher, "find_longest_match", counted)
    monkeypatch.setattr(evalpy, "PAGE_DIFF_WORK", 200_000, raising=False)   # two pairs of 300 repeated words
    check = [{"name": "ends", "type": "contains", "value": "ok", "blocking": True}]
    old = [{"id": f"c{n:02d}", "response": "la " * 300 + "ok", "checks": check} for n in range(8)]
    new = [dict(c, response="la " * 300 + "no") for c in old]
    a, b = (write_run(f"runs/{n}.json", make_run(cases, labels=None, prompt=f"prompts/{n}.txt"))
            for n, cases in (("v1", old), ("v2", new)))
    code, out, err = cli("compare", a, b, "--html", "loop.html")
    assert code in (0, 1) and "wrote loop.html" in err
    assert sum(work) <= 200_000, sum(work)
    text = Path("loop.html").read_text(encoding="utf-8")
    assert text.count("<ins>no</ins>") == 2 and text.count("<del>ok</del>") == 2
    assert text.count("word diffs was spent") == 1 and "6 of the 8 answer pairs are shown unmarked" in text, text
    assert "shown unmarked" not in text.replace("6 of the 8 answer pairs are shown unmarked", "")


def test_spaces_are_not_weighed_by_a_word_diff_so_ordinary_answers_are_marked():
    """Twenty-first attack on issue 28, defect 3 (also): every space matched every other space, so two
    ordinary answers of 600 distinct words with many small edits ran out of the budget and were shown
    unmarked. Words are diffed; the spaces between them are shown as each answer has them."""
    words = [f"palabra{i}" for i in range(600)]
    edited = [w + "x" if i % 7 == 0 else w for i, w in enumerate(words)]
    old, new = evalpy.marked_diff(" ".join(words), " ".join(edited))
    assert "shown unmarked" not in new and new.count("<ins>") == 86, new[:200]
    old, new = evalpy.marked_diff(" ".join(words) + "\n", "  ".join(edited))   # other spaces: not a change
    assert "shown unmarked" not in new
    assert new.count("<ins>") == 86 and old.count("<del>") == 86
    assert new.startswith("<pre><ins>palabra0x</ins>  palabra1  palabra2") and old.endswith("palabra599\n</pre>")
    assert evalpy.marked_diff(" a  b\n", "a c")[0] == "<pre> a  <del>b</del>\n</pre>"
    assert evalpy.marked_diff("", "  ") == ("<pre></pre>", "<pre>  </pre>")


# --- the pages

def page_policy(text):
    policy = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">', text).group(1)
    style = re.search(r"<style>(.*?)</style>", text, re.S).group(1)
    script = re.search(r"<script>(.*?)</script>", text, re.S).group(1)
    return policy, style, script


def digest(text):
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


class Tags(HTMLParser):
    """Every tag a browser would build from the page, with its attributes (text is not a tag)."""

    def __init__(self, text):
        super().__init__()
        self.tags = []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))


def assert_self_contained(text):
    """Only the page's own style and script may run, nothing may be fetched, and nothing from a run
    became a tag: every tag and attribute is one eval.py writes."""
    policy, style, script = page_policy(text)
    assert policy.startswith("default-src 'none';")
    assert f"style-src {digest(style)};" in policy and f"script-src {digest(script)};" in policy
    tags = Tags(text).tags
    names = {tag for tag, _ in tags}
    assert names <= {"html", "head", "meta", "title", "style", "body", "header", "h1", "main", "section", "h2", "h3",
                     "table", "colgroup", "col", "thead", "tbody", "tr", "th", "td", "p", "ul", "li", "a", "pre", "div",
                     "del", "ins", "br", "input", "span", "svg", "g", "line", "text", "title", "rect", "path", "footer",
                     "script"}, names
    assert [tag for tag, _ in tags].count("script") == 1 and [tag for tag, _ in tags].count("style") == 1
    for tag, attributes in tags:
        assert not {"src", "action", "srcset", "style"} & set(attributes) and not any(a.startswith("on") for a in attributes)
        assert attributes.get("href", "#").startswith("#"), attributes   # links within the page only


def test_report_html_of_a_classification_run(dev_run, cli):
    run = json.loads(Path(dev_run).read_text())
    long_answer = "La categoría es facturación, aunque " + "x" * 5000 + " FIN"
    for r in run["results"]:
        if r["id"] == "dev-24":
            r["response"] = long_answer
    Path(dev_run).write_text(json.dumps(run))
    Path(dev_run + ".annotations.json").write_text(json.dumps({"format": evalpy.ANNOTATIONS_FORMAT, "annotations": {
        "dev-09#1": {"text": "billing word in the ticket", "time": "t"},
        # (116th round) typed with a space more: counted with the row, its case left out of the row's cases
        "dev-24#1": {"text": "billing  word in the ticket ", "time": "t"},
        "dev-11#1": {"text": "wrote a sentence", "time": "t"}, "dev-01#1": {"text": "right, oddly", "time": "t"}}}))
    code, out, err = cli("report", dev_run, "--html", "report.html")
    assert code == 0 and out.startswith("Accuracy: 25/28") and "wrote report.html" in err
    text = Path("report.html").read_text(encoding="utf-8")
    assert_self_contained(text)
    assert "25/28 = 89%" in text and "95% CI 73–96%" in text and "Majority baseline (always bug)" in text
    assert "Invalid answers" in text and "2 of 28" in text   # dev-11 and the long dev-24
    assert len(re.findall(r'class="cell (?:hit|miss)"', text)) == 4 * 5   # labels x (labels + INVALID)
    assert text.count('class="bar main"') == 1 and text.count('class="bar baseline"') == 1
    assert long_answer in text   # the raw answer, whole
    # annotations: counted, most frequent first, each linking to a row the page has
    table = text[text.index("Annotations (typed in review"):]
    shown = re.findall(r"<tr><td>([^<]*)</td><td[^>]*>(\d+)</td>", table)
    assert shown[:3] == [("billing word in the ticket", "2"), ("right, oddly", "1"), ("wrote a sentence", "1")]
    first = re.search(r"<tr><td>billing word in the ticket</td>.*?</tr>", table).group()
    assert len(re.findall(r'href="#case-\d+"', first)) == 2, first   # (both its cases linked)
    for anchor in re.findall(r'href="#(case-\d+)"', text):
        assert f'id="{anchor}"' in text
    assert "Annotated cases that did not fail" in text   # dev-01 passed but was annotated: it has a row too
    assert "sha256 " + run["config"]["prompt_sha"] in text and run["config"]["split_sha"] in text


def test_report_html_of_a_free_text_run_shows_checks_judges_and_reasons(project, cli):
    checks = [{"name": "greets", "type": "icontains", "value": "hola", "blocking": True},
              {"name": "helps", "type": "judge", "value": "Does it help?", "blocking": True}]

    def vote(ok, reason):
        return {"check": "helps", "model": "judge-m", "vote": 1, "seed": 42, "pass": ok, "reason": reason, "raw": "x",
                "error": None, "prompt_tokens": 50, "completion_tokens": 7}
    run = make_run([{"id": "s1", "response": "hola, aquí tiene", "checks": checks, "judges": [vote(True, "fine")]},
                    {"id": "s2", "response": "no sé", "checks": checks,
                     "judges": [vote(False, "it never says when the parcel arrives")]}],
                   labels=None, judge={"models": ["judge-m"], "votes": 1, "temperature": 0.0, "seed": 42})
    write_run("runs/support.json", run)
    assert cli("report", "runs/support.json", "--html", "support.html")[0] == 0
    text = Path("support.html").read_text(encoding="utf-8")
    assert_self_contained(text)
    assert "Pass rate" in text and "1/2 = 50%" in text
    assert "Judge checks (an LLM judge" in text and "2 calls (0 failed), 100 prompt + 14 completion tokens" in text
    assert "greets: icontains &#x27;hola&#x27;" in text
    assert "helps: judge-m: it never says when the parcel arrives" in text
    assert "<td>s1</td>" not in text   # a passing, unlabelled case has no row


def test_report_html_with_trials_shows_pass_at_k(tagged_run, cli):
    assert cli("report", tagged_run, "--html", "trials.html")[0] == 0
    text = Path("trials.html").read_text(encoding="utf-8")
    assert "pass@k (some trial of k passes)" in text and "Flaky cases, whose trials disagree (1):" in text
    assert '<div class="k">Accuracy, majority vote of each case&#x27;s trials</div>' in text
    assert '<div class="k">Accuracy</div>' in text   # the mean per case leads
    assert text.count('class="bar trial"') == 3 and text.count('class="bar vote"') == 1


def test_compare_html_shows_what_changed_and_each_changed_case_side_by_side(project, cli):
    v2, v3 = write_two_runs()
    code, out, err = cli("compare", v2, v3, "--html", "compare.html")
    assert code == 0 and "wrote compare.html" in err
    text = Path("compare.html").read_text(encoding="utf-8")
    assert_self_contained(text)
    assert "<td>prompt</td><td>prompts/v2.txt</td><td>prompts/v3.txt</td>" in text
    assert "25/28 = 89%" in text and "27/28 = 96%" in text and text.count('class="bar ') == 2
    # 3 fixed, 1 broken of 28: mid-p McNemar 2 x 5/16 - 4/16 = 0.375 (a hair under it in floating point)
    # 3 fixed, 1 broken of 28: mid-p McNemar 2 x 5/16 - 4/16 = 0.375, counted exactly
    assert "+7.1 points (95% CI " in text and "p = 0.38 (mid-p McNemar): could be chance" in text
    assert "Fisher" not in text and "Identical raw answers: 24 of 28." in text
    assert "With 4 changed cases of 28, no split of them could be told from chance" in text
    fixed = text[text.index("<h3>Fixed (3)</h3>"):text.index("<h3>Broken (1)</h3>")]
    assert re.findall(r">(dev-\d+)</a>", fixed) == ["dev-09", "dev-11", "dev-24"]
    assert "<del>facturación</del>" in text and "<ins>bug</ins>" in text   # dev-09: the word that changed
    assert "<td>facturación</td><td>-</td>" not in text
    assert "Per label (on the 28 cases both runs decided)" in text and "Per difficulty (on the 28 cases" in text
    assert len(re.findall(r'<tr id="case-\d+" class="(?:fixed|broken)"', text)) == 4


def test_a_compare_page_of_part_of_the_split_shows_each_runs_own_figures_on_the_cases_both_hold(project, cli):
    """Forty-seventh round on issue 28: against a run of 10 chosen cases, the page's per-label and per-difficulty
    tables counted the baseline's 28 (easy 17/19 -> 8/9), and their change in points subtracted across the two sets."""
    from conftest import load_json
    v2, v3 = write_two_runs()
    run = load_json(v3)
    chosen = [f"dev-{i:02d}" for i in range(1, 11)]
    run["results"] = [r for r in run["results"] if r["id"] in chosen]
    run["config"].update(cases=10, subset={"cases": chosen})
    write_run(v3, run)
    assert cli("compare", v2, v3, "--html", "c.html")[0] == 0
    text = Path("c.html").read_text(encoding="utf-8")
    table = text[text.index("Per difficulty (on the 10 cases both runs decided)"):]
    table = table[:table.index("</table>")]
    counts = [tuple(map(int, pair)) for pair in re.findall(r">(\d+)/(\d+) = ", table)]
    assert sum(of for _, of in counts[0::2]) == sum(of for _, of in counts[1::2]) == 10, counts


def test_hostile_text_from_a_run_is_inert_in_both_pages(project, cli):
    evil_id = '</textarea><script>window.pwned=3</script>'
    evil_label = 'javascript:alert(1)'
    answer = HOSTILE + " \u202eevil\u202c <a href=\"javascript:alert(2)\">x</a>"
    run = make_run([{"id": evil_id, "expected": "bug", "response": answer},
                    {"id": "ok", "expected": evil_label, "response": evil_label}], labels=["bug", evil_label])
    write_run("runs/evil.json", run)
    Path("runs/evil.json.annotations.json").write_text(json.dumps({"format": evalpy.ANNOTATIONS_FORMAT, "annotations": {
        f"{evil_id}#1": {"text": "<img src=x onerror=alert(4)>", "time": "t"}}}))
    assert cli("report", "runs/evil.json", "--html", "evil.html")[0] == 0
    text = Path("evil.html").read_text(encoding="utf-8")
    assert_self_contained(text)
    for raw in ("<script>window", "<img", "<a href=\"javascript", "\u202e", "</textarea>"):
        assert raw not in text
    assert "&lt;script&gt;window.pwned=1&lt;/script&gt;" in text and "\\u202eevil\\u202c" in text
    write_run("runs/evil-2.json", make_run([{"id": evil_id, "expected": "bug", "response": "bug"},
                                            {"id": "ok", "expected": evil_label, "response": "bug"}],
                                           labels=["bug", evil_label], prompt="prompts/v2.txt"))
    assert cli("compare", "runs/evil.json", "runs/evil-2.json", "--html", "evil-compare.html")[0] == 0
    text = Path("evil-compare.html").read_text(encoding="utf-8")
    assert_self_contained(text)
    for raw in ("<script>window", "<img", "<a href=\"javascript", "\u202e", "</textarea>"):
        assert raw not in text


def test_a_failing_cases_note_is_on_the_report_page_escaped(project, cli):
    """139th round: a case's note, why it exists (required of every case), was shown by report --case and review but
    nowhere on the report page, whose failing cases are "whole"; there now, escaped as every text from a run."""
    note = 'Regla 1: <b onclick="x()">404</b> & a broken link, not a bill'
    write_run("runs/noted.json", make_run([{"id": "dev-09", "expected": "bug", "response": "facturación", "note": note},
                                           {"id": "ok", "expected": "bug", "response": "bug", "note": "passes"}]))
    assert cli("report", "runs/noted.json", "--html", "noted.html")[0] == 0
    text = Path("noted.html").read_text(encoding="utf-8")
    assert_self_contained(text)
    row = re.search(r'<tr id="case-\d+">.*?</tr>', text, re.S).group()
    assert "dev-09" in row and evalpy.esc(note) in row and "<b onclick" not in text, row
    assert "passes" not in text   # (a passing case has no row)


# --- the file

def test_an_existing_file_is_kept_unless_force(dev_run, cli):
    Path("report.html").write_text("mine")
    # (round 103) a file that is no page of eval.py's is not told to take --force, which then refused it too
    code, out, err = cli("report", dev_run, "--html", "report.html")
    assert code == 2 and "is not a page eval.py wrote" in err and "add --force" not in err and out == "", err
    assert Path("report.html").read_text() == "mine"
    code, out, err = cli("report", dev_run, "--html", "report.html", "--force")   # not a page: never replaced
    assert code == 2 and "is not a page eval.py wrote; --force replaces only such a page" in err
    assert Path("report.html").read_text() == "mine"
    # (32nd round) a page of the user's own began as eval.py's do ("<!doctype html>"), and --force replaced it
    for mine in ("<!DOCTYPE html><p>my notes</p>", '<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><p>mine'):
        Path("report.html").write_text(mine)
        code, out, err = cli("report", dev_run, "--html", "report.html", "--force")
        assert code == 2 and "is not a page eval.py wrote" in err and Path("report.html").read_text() == mine, err
    os.unlink("report.html")
    assert cli("report", dev_run, "--html", "report.html")[0] == 0   # a page eval.py wrote: --force replaces it
    Path("report.html").write_text(Path("report.html").read_text().replace("</main>", "<p>zz-earlier-page-zz</p></main>"))
    code, out, err = cli("report", dev_run, "--html", "report.html")   # a page of eval.py's: --force is the way
    assert code == 2 and "report.html exists; add --force to replace it" in err and out == "", err
    code, out, err = cli("report", dev_run, "--html", "report.html", "--force")
    assert code == 0 and Path("report.html").read_text().startswith("<!doctype html>") and "zz-earlier-page-zz" not in Path("report.html").read_text()
    assert sorted(p.name for p in Path(".").iterdir() if p.name.startswith("report")) == ["report.html"]   # no temp file left
    Path("link.html").symlink_to("elsewhere.html")   # a dangling link is a file too
    assert cli("report", dev_run, "--html", "link.html")[0] == 2 and not Path("elsewhere.html").exists()
    # (round 122) --force through a link to a page replaced the link by a file, the page it led to left as it was
    Path("reports").mkdir()
    os.rename("report.html", "reports/dev.html")
    Path("latest.html").symlink_to("reports/dev.html")
    Path("reports/dev.html").write_text(Path("reports/dev.html").read_text().replace("</main>", "<p>zz-old-zz</p></main>"))
    code, out, err = cli("report", dev_run, "--html", "latest.html", "--force")
    assert code == 0 and os.path.islink("latest.html") and "zz-old-zz" not in Path("reports/dev.html").read_text(), err
    assert err == "note: latest.html is a link to reports/dev.html: the page is written there, the link kept\n" \
                  "wrote reports/dev.html\n", err


def test_a_page_never_replaces_what_it_was_made_from(project, cli):
    v2, v3 = write_two_runs()
    before = Path(v3).read_bytes()
    Path("run-link.html").symlink_to(v3)
    for argv in (("report", v3, "--html", v3, "--force"), ("compare", v2, v3, "--html", v3, "--force"),
                 ("compare", v2, v3, "--html", "runs/../runs/dev-v2.json", "--force")):
        code, out, err = cli(*argv)
        assert code == 2 and "name the page .html" in err
    for argv in (("report", v3, "--html", "run-link.html", "--force"), ("compare", v2, v3, "--html", "run-link.html", "--force")):
        code, out, err = cli(*argv)
        assert code == 2 and "run-link.html is runs/dev-v3.json, which this page is made from" in err
    assert Path(v3).read_bytes() == before
    Path(v2 + ".annotations.json").write_text(json.dumps({"format": evalpy.ANNOTATIONS_FORMAT, "annotations": {}}))
    Path(v2 + ".labels.json").write_text(json.dumps({"format": evalpy.OLD_ANNOTATIONS_FORMAT, "labels": {}}))
    Path("annotations-link.html").symlink_to(v2 + ".annotations.json")   # the same file under a page's name
    Path("labels-link.html").symlink_to(v2 + ".labels.json")             # and the older sidecar's
    for argv in (("report", v3, "--html", v3 + ".annotations.json", "--force"),
                 ("compare", v2, v3, "--html", "annotations-link.html", "--force"),
                 ("compare", v2, v3, "--html", "labels-link.html", "--force")):
        code, out, err = cli(*argv)
        assert code == 2 and ("name the page .html" in err or "which this page is made from" in err), err
    assert json.loads(Path(v2 + ".annotations.json").read_text())["annotations"] == {}
    assert json.loads(Path(v2 + ".labels.json").read_text())["labels"] == {}
    code, out, err = cli("report", v3, "--html", "runs/other-run.json", "--force")   # a run name, even a new one
    assert code == 2 and "name the page .html" in err and not Path("runs/other-run.json").exists()


def test_a_page_never_replaces_the_prompt_or_split_a_run_was_made_from(project, cli):
    """From the attack on issue 25: --force let a page replace the run's prompt, its split, or the
    labels.txt beside the split (only the runs and their sidecars were kept)."""
    v2, v3 = write_two_runs()
    config = json.loads(Path(v3).read_text())["config"]
    folder = os.path.dirname(config["split_path"])
    for made_from in (config["prompt"], config["split_path"], os.path.join(folder, "labels.txt")):
        assert Path(made_from).exists(), made_from
        before = Path(made_from).read_bytes()
        link = f"link-{len(made_from)}.html"
        Path(link).symlink_to(os.path.abspath(made_from))
        for argv in (("report", v3, "--html", link, "--force"), ("compare", v2, v3, "--html", link, "--force")):
            code, out, err = cli(*argv)
            assert code == 2 and "which this page is made from" in err, err
        assert Path(made_from).read_bytes() == before
    code, out, err = cli("report", v3, "--html", config["prompt"], "--force")
    assert code == 2 and "which this page is made from" in err


@pytest.mark.parametrize("argv, message", [
    (["report", "runs/dev-v2.json", "--force"], "--force only applies with --html FILE"),
    (["compare", "runs/dev-v2.json", "runs/dev-v3.json", "--force"], "--force only applies with --html FILE"),
    (["report", "runs/dev-v2.json", "--case", "dev-09", "--html", "x.html"], "--html writes the page of the whole run"),
    (["report", "runs/dev-v2.json", "--html", "runs"], "--html runs is a folder"),
    (["report", "runs/dev-v2.json", "--html", "nowhere/x.html"], "there is no folder nowhere: make it (mkdir -p nowhere), "
                                                                 "or give a file name in a folder that is there"),
    (["report", "runs/dev-v2.json", "--html", "runs/dev-v2.json/x.html"], "runs/dev-v2.json is not a folder; give a file "
                                                                          "name in one"),
    (["report", "runs/dev-v2.json", "--html", "runs/dev-v2.json/sub/x.html"], "runs/dev-v2.json is not a folder; give a "
                                                                              "file name in one"),
    # (125th round) a folder through a link to nothing: "there is no folder dl", which ls shows
    (["report", "runs/dev-v2.json", "--html", "dl/x.html"], "--html dl/x.html: dl is a link to /nonexistent/dir, which "
                                                             "does not exist; fix the link or remove it"),
    (["report", "runs/dev-v2.json", "--html", ""], "--html needs a file name"),
    (["report", "runs/dev-v2.json", "--html", "-"], "--html needs a file name"),
])
def test_page_usage_errors_are_plain(project, cli, argv, message):
    write_two_runs()
    os.symlink("/nonexistent/dir", "dl")
    code, out, err = cli(*argv)
    assert code == 2 and message in err and "Traceback" not in err and out == ""


def test_a_page_under_a_folder_that_cannot_be_entered_or_written_is_told_so(project, cli, monkeypatch):
    """128th round's newcomer: --html locked/sub/p.html, locked a folder that cannot be entered (chmod 644), said "there is
    no folder locked/sub: make it (mkdir -p locked/sub)" of a folder there, whose cure failed; so did the cure under a
    folder that cannot be written. (Access is refused through os.access: root reads every folder.)"""
    write_two_runs()
    os.makedirs("locked/sub")
    os.makedirs("shut")
    real_access = os.access
    monkeypatch.setattr(os, "access", lambda path, mode, **kw: False if (
        os.path.normpath(path) == "locked" and mode == os.X_OK or os.path.normpath(path) == "shut" and mode == os.W_OK)
        else real_access(path, mode, **kw))
    real_isdir = os.path.isdir
    monkeypatch.setattr(os.path, "isdir", lambda path: False if os.path.normpath(path).startswith("locked/")
                        else real_isdir(path))   # (as a stat under a folder that cannot be entered fails)
    monkeypatch.setattr(os.path, "lexists", lambda path, real=os.path.lexists: False if os.path.normpath(path).startswith(
        "locked/") else real(path))
    code, out, err = cli("report", "runs/dev-v2.json", "--html", "locked/sub/p.html")
    assert code == 2 and err == ("error: --html locked/sub/p.html: the folder locked cannot be entered (Permission "
                                 "denied): fix its permissions (chmod u+x locked), or give a file name in a folder that "
                                 "can be written\n"), err
    os.chown("locked", 4321, 4321)   # (another user's: chmod is theirs, and u+x lets in no one else; seen as user 1000)
    with monkeypatch.context() as patched:
        patched.setattr(os, "geteuid", lambda: 1000)
        code, out, err = cli("report", "runs/dev-v2.json", "--html", "locked/sub/p.html")
    assert code == 2 and err == ("error: --html locked/sub/p.html: the folder locked cannot be entered (Permission "
                                 "denied): ask its owner (uid 4321) to let you in, or give a file name in a folder that "
                                 "can be written\n"), err
    code, out, err = cli("report", "runs/dev-v2.json", "--html", "shut/new/p.html")
    assert code == 2 and err == ("error: --html shut/new/p.html: there is no folder shut/new, and shut cannot be written "
                                 "to make it: give a file name in a folder that is there\n"), err


def test_a_page_in_another_users_folder_asks_its_owner(project, cli, monkeypatch):
    """129th round: --html shut/p.html, shut another user's folder (mode 700, or root's 555), said "fix the permissions,
    or use another path": their chmod, which fails. Its owner is asked. (Ownership is set with chown, this process seen as
    user 1000, and the write fails as the system fails it.)"""
    write_two_runs()
    os.makedirs("shut")
    os.chown("shut", 4321, 4321)
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    def refused(path, text, replace=False):
        raise PermissionError(errno.EACCES, "Permission denied", f"{path}.tmp-1-1")
    monkeypatch.setattr(evalpy, "write_file", refused)
    code, out, err = cli("report", "runs/dev-v2.json", "--html", "shut/p.html")
    assert code == 2 and err == ("error: cannot write in shut (Permission denied): the page was not written; ask its owner "
                                 "(uid 4321) to let you write in shut, or give --html a file in a folder that can be "
                                 "written\n"), err


def test_a_page_refused_in_a_locked_folder_of_ones_own_points_to_lsattr(project, cli, monkeypatch):
    """130th round's perm attack: --html im/p.html, im one's own folder made immutable (chattr +i, its mode 755 still),
    said "...or one you do not own; make it writable, or copy it to a folder of yours and use it there": chmod changes
    nothing there, and "copy it" was said of a folder. folder_cure's words are said: locked, lsattr, an administrator's
    chattr. (This process seen as user 1000, the folder its; the write fails as the system fails it.)"""
    write_two_runs()
    os.makedirs("im")
    os.chown("im", 1000, 1000)
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    def immutable(path, text, replace=False):
        raise PermissionError(errno.EPERM, "Operation not permitted", f"{path}.tmp-1-1")
    monkeypatch.setattr(evalpy, "write_file", immutable)
    code, out, err = cli("report", "runs/dev-v2.json", "--html", "im/p.html")
    assert code == 2 and err == ("error: cannot write in im (Operation not permitted): the page was not written; its mode "
                                 "(755) lets you write in it, so it is locked: an immutable or append-only folder? (lsattr "
                                 "-d im shows which; chattr -i -a undoes both, run by an administrator (root): ask one), or "
                                 "give --html a file in a folder that can be written\n"), err


def test_a_page_with_no_failing_or_changed_case_has_no_filter_box(project, cli):
    """From the Chromium test of the real runs: a filter box over a table that was not there made
    the page's script fail."""
    v3 = write_run("runs/dev-v3.json", make_run([("a", "bug", "bug")], prompt="prompts/v3.txt"))
    again = write_run("runs/dev-v3-again.json", make_run([("a", "bug", "bug")], prompt="prompts/v2.txt"))
    assert cli("report", v3, "--html", "r.html")[0] == 0 and cli("compare", v3, again, "--html", "c.html")[0] == 0
    for page in ("r.html", "c.html"):
        text = Path(page).read_text(encoding="utf-8")
        assert "<input" not in text and "<p>none</p>" in text


def test_a_conversation_is_shown_turn_by_turn_before_the_answer(project, cli):
    turns = [{"role": "user", "content": "Mi pedido es el A-1."}, {"role": "assistant", "content": "<b>Gracias</b>"},
             {"role": "user", "content": "¿Y cuándo llega?"}]
    write_run("runs/conv.json", make_run([{"id": "c1", "expected": "bug", "messages": turns, "response": "acceso"}]))
    assert cli("report", "runs/conv.json", "--html", "conv.html")[0] == 0
    text = Path("conv.html").read_text(encoding="utf-8")
    row = text[text.index('<tr id="case-0">'):]
    assert row.index("Mi pedido es el A-1.") < row.index("&lt;b&gt;Gracias&lt;/b&gt;") < row.index("¿Y cuándo llega?") < row.index("<pre>acceso</pre>")
    assert re.findall(r'<div class="turn">(\w+)</div>', row) == ["user", "assistant", "user"]


def test_a_target_that_is_not_a_regular_file_is_never_replaced(dev_run, cli):
    """From the attack on issue 17: --force replaced /dev/null (as root) with the page."""
    os.mkfifo("pipe.html")
    code, out, err = cli("report", dev_run, "--html", "pipe.html", "--force")
    assert code == 2 and err == "error: --html pipe.html is a pipe or a device, never replaced; give another file name\n"
    assert Path("pipe.html").is_fifo()
    Path("gone.html").symlink_to("nowhere.html")   # (seventeenth attack: it was said to exist)
    code, out, err = cli("report", dev_run, "--html", "gone.html", "--force")
    assert code == 2 and err == ("error: --html gone.html is a link to nowhere.html, which does not exist, never replaced; "
                                 "give another file name\n"), err
    assert Path("gone.html").is_symlink()


def test_a_judge_setting_of_another_type_is_shown_not_a_traceback(project, cli):
    """From the attack on issue 17: a judge temperature of null made the page raise TypeError."""
    run = make_run([("a", "bug", "bug")], judge={"models": ["m"], "votes": 1, "temperature": None, "seed": 42})
    write_run("runs/j.json", run)
    code, out, err = cli("report", "runs/j.json", "--html", "j.html")
    assert code == 0 and "temperature null" in Path("j.html").read_text(encoding="utf-8")


def test_annotations_are_matched_to_their_answers_exactly(project, cli):
    """From the attack on issue 17: an id holding '#' took another case's annotation; with trials a
    failing case showed one trial's; annotations of answers the run does not have were counted.
    The sidecar here is the older RUN.labels.json, which is still read as the same."""
    run = make_run([{"id": "x", "expected": "bug", "response": ["acceso", "acceso"]},
                    {"id": "x#1", "expected": "bug", "response": ["acceso", "bug"]}])
    write_run("runs/h.json", run)
    Path("runs/h.json.labels.json").write_text(json.dumps({"format": evalpy.OLD_ANNOTATIONS_FORMAT, "labels": {
        "x#1#1": {"label": "label of x#1", "time": "t"}, "x#1": {"label": "wrong format", "time": "t"},
        "x#2": {"label": "hallucinated", "time": "t"}, "ghost#1": {"label": "stale", "time": "t"},
        "x#9": {"label": "stale", "time": "t"}}}))
    assert cli("report", "runs/h.json", "--html", "h.html")[0] == 0
    text = Path("h.html").read_text(encoding="utf-8")
    rows = {m.group(1): m.group(2) for m in re.finditer(r'<tr id="case-\d+"><td><a href="#case-\d+">([^<]*)</a>(.*?)</tr>', text)}
    assert rows["x"].endswith("<td>trial 1: wrong format; trial 2: hallucinated</td>")
    assert rows["x#1"].endswith("<td>trial 1: label of x#1</td>") and "label of x#1" not in rows["x"]
    assert "2 annotations in runs/h.json.labels.json name answers this run does not have" in text
    assert "ghost#1, x#9" in text and "<td>stale</td>" not in text


def test_a_lone_surrogate_in_a_run_is_shown_as_its_code_on_both_pages(project, cli):
    """From the attack on issue 25 (and issue 28's list): a server may send "\\ud800"; the run keeps
    it and the text views print it escaped, but both pages failed with UnicodeEncodeError (exit 1,
    a traceback). The page shows its code, as the other views do."""
    for name, answer in (("runs/s1.json", "bug \ud800"), ("runs/s2.json", "bug")):
        run = make_run([{"id": "odd", "expected": "bug", "response": answer}, {"id": "ok", "expected": "bug", "response": "bug"}])
        run["results"][0]["id"] = "odd\udfff"   # as a hand-edited or old run may hold it
        Path(name).parent.mkdir(exist_ok=True)
        Path(name).write_text(json.dumps(run))   # ASCII: the surrogates stay escapes, as eval.py writes them
    Path("runs/s1.json.annotations.json").write_text(json.dumps({"format": evalpy.ANNOTATIONS_FORMAT, "annotations": {
        "odd\udfff#1": {"text": "half \ud800 a character", "time": "t"}}}))
    for argv in (("report", "runs/s1.json", "--html", "s.html"), ("compare", "runs/s1.json", "runs/s2.json", "--html", "c.html")):
        code, out, err = cli(*argv)
        assert code in (0, 1) and "Traceback" not in err, err
        page = Path(argv[-1]).read_text(encoding="utf-8")
        assert "\\ud800<" in page and "odd\\udfff" in page   # the compare page marks it as a deleted word
    assert "half \\ud800 a character" in Path("s.html").read_text(encoding="utf-8")


def test_force_never_replaces_a_file_that_is_not_a_page_even_from_another_folder(project, cli):
    """From the second attack on issue 25: a run names its prompt and split relative to the folder it
    ran in, so from another folder the page's guard did not recognise them, and --force replaced
    the prompt, the split and labels.txt with HTML. --force now replaces a page and nothing else."""
    v2, v3 = write_two_runs()
    prompt = json.loads(Path(v3).read_text())["config"]["prompt"]
    before = Path(prompt).read_bytes()
    os.mkdir("elsewhere")
    os.chdir("elsewhere")
    for argv in (("report", f"../{v3}", "--html", f"../{prompt}", "--force"),
                 ("compare", f"../{v2}", f"../{v3}", "--html", "../golden/labels.txt", "--force")):
        code, out, err = cli(*argv)
        assert code == 2 and "is not a page eval.py wrote" in err, err
    os.chdir("..")
    assert Path(prompt).read_bytes() == before and Path("golden/labels.txt").read_text().startswith(("facturación", "#"))


def test_a_sidecar_or_run_that_is_a_pipe_is_one_line_not_a_hang(project, cli):
    """From the second attack on issue 25: a FIFO named RUN.annotations.json (or *.json in a listed
    folder) blocked report, review and runs for ever."""
    v2, v3 = write_two_runs()
    os.mkfifo(v3 + ".annotations.json")
    code, out, err = cli("report", v3)
    assert code == 2 and "not a regular file" in err
    os.unlink(v3 + ".annotations.json")
    os.mkfifo("runs/pipe.json")
    code, out, err = cli("runs")
    assert code == 0 and "runs/pipe.json" in out and "dev-v3" in out
    code, out, err = cli("report", "runs/pipe.json")
    assert code == 2 and "not a regular file" in err



def test_a_split_path_holding_half_a_character_does_not_break_the_page(project, cli):
    """From the second attack on issue 25: the page's guard compared its name with the run's split
    path, and a path holding a lone surrogate raised UnicodeEncodeError there (a traceback)."""
    v2, v3 = write_two_runs()
    run = json.loads(Path(v3).read_text())
    run["config"]["split_path"] = "golden/x\ud800.jsonl"
    Path("runs/odd.json").write_text(json.dumps(run))
    assert cli("report", v3, "--html", "odd.html")[0] in (0, 1)   # an earlier page: the guard looks only at existing files
    code, out, err = cli("report", "runs/odd.json", "--html", "odd.html", "--force")   # (73rd) a run file refused whole
    assert code == 2 and err == "error: runs/odd.json: not a valid run file: config.split_path is not a path (it holds " \
                                "half a character); restore it from a copy, or run it again\n", err


def test_a_full_disk_as_a_page_is_written_names_the_page(project):
    """From the attack on issue 28, item 16: --html on a full disk said only "error: File too large"
    (the temp file's failed write), naming no file. Writes past 100 bytes refused (EFBIG), as a full
    disk refuses them; the page is never half written, and no temp file is left."""
    import resource
    import signal
    import subprocess
    import sys
    v2, v3 = write_two_runs()

    def full_disk():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (100, 100))
    for argv in (["report", v3, "--html", "r.html"], ["compare", v2, v3, "--html", "c.html"]):
        done = subprocess.run([sys.executable, str(Path(evalpy.__file__)), *argv], capture_output=True, text=True,
                              preexec_fn=full_disk, timeout=60)
        assert done.returncode == 2 and done.stderr == f"error: cannot write {argv[-1]} (File too large)\n", done.stderr
    assert not [p for p in os.listdir(".") if p.endswith(".html") or ".tmp-" in p]


def test_a_page_the_system_refused_names_the_folder_or_the_file_and_what_to_do(project, cli, monkeypatch):
    """127th round's newcomer: --html where the system refused the write said "cannot write page.html (Permission
    denied)", the folder at fault unnamed and no cure; an immutable page given --force, the same words without its
    hint. (The write is made to fail as the system fails it: the temp file's, or the rename onto the page.)"""
    v2, v3 = write_two_runs()
    def refused(path, pieces, replace=False):
        raise PermissionError(errno.EACCES, "Permission denied", f"{path}.tmp-1")
    with monkeypatch.context() as patched:
        patched.setattr(evalpy, "write_file", refused)
        code, out, err = cli("report", v3, "--html", "page.html")
    assert code == 2 and err == ("error: cannot write in . (Permission denied: to read or write it, or to enter a folder on "
                                 "its path; fix the permissions, or use another path): the page was not written; give "
                                 "--html a file in a folder that can be written\n"), err
    assert cli("report", v3, "--html", "page.html")[0] in (0, 1)
    def immutable(path, pieces, replace=False):
        raise PermissionError(errno.EPERM, "Operation not permitted", f"{path}.tmp-1", None, path)
    with monkeypatch.context() as patched:
        patched.setattr(evalpy, "write_file", immutable)
        code, out, err = cli("compare", v2, v3, "--html", "page.html", "--force")
    assert code == 2 and err == ("error: cannot write page.html (Operation not permitted): an immutable or append-only "
                                 "file or folder? (lsattr -d . page.html shows which; chattr -i -a undoes both), or give "
                                 "--html another path\n"), err
    # (128th round's newcomer) a page eval.py wrote, made read-only: its folder was blamed, two cures run together
    os.chmod("page.html", 0o444)
    code, out, err = cli("compare", v2, v3, "--html", "page.html", "--force")
    assert code == 2 and err == ("error: cannot write page.html (it is read-only (mode 444)): make it writable (chmod u+w "
                                 "page.html), or give --html another path\n"), err
    os.chown("page.html", 4321, 4321)   # (another user's: chmod is theirs; this process seen as user 1000)
    with monkeypatch.context() as patched:
        patched.setattr(os, "geteuid", lambda: 1000)
        code, out, err = cli("compare", v2, v3, "--html", "page.html", "--force")
    assert code == 2 and err == ("error: cannot write page.html (it is read-only (mode 444)): ask its owner (uid 4321) to "
                                 "make it writable, or give --html another path\n"), err
    os.chown("page.html", 0, 0)
    os.chmod("page.html", 0o644)
    # another user's page in a sticky folder (as /tmp): lsattr's cure fails there; the rename fails as the system fails it
    # (ownership set with chown, this process seen as user 1000)
    os.makedirs("st")
    assert cli("report", v3, "--html", "st/page.html")[0] in (0, 1)
    os.chmod("st", 0o1777)
    os.chown("st/page.html", 4321, 4321)
    with monkeypatch.context() as patched:
        patched.setattr(os, "geteuid", lambda: 1000)
        patched.setattr(evalpy, "write_file", immutable)
        code, out, err = cli("report", v3, "--html", "st/page.html", "--force")
    assert code == 2 and err == ("error: cannot write st/page.html (Operation not permitted): it is another user's file "
                                 "(uid 4321) in a folder where each user replaces only their own (st, sticky): ask its "
                                 "owner to move it aside, or give --html another path\n"), err
    # (its third review) read-only too: "make it writable" was said, after which the sticky folder refused it all the same
    os.chmod("st/page.html", 0o444)
    with monkeypatch.context() as patched:
        patched.setattr(os, "geteuid", lambda: 1000)
        code, out, err = cli("report", v3, "--html", "st/page.html", "--force")
    assert code == 2 and err == ("error: cannot write st/page.html (it is read-only (mode 444)): ask its owner (uid 4321) "
                                 "to move it aside (a folder where each user replaces only their own: st, sticky), or give "
                                 "--html another path\n"), err


def test_a_rag_failure_shows_its_passages_beside_the_answer(project, cli):
    """RAG (issue 30): the failing case's row holds its passages, which are relevant, the relevant
    ones not retrieved and the claims found unsupported, escaped like every text from a run."""
    from test_report import diagnosed_run
    path = diagnosed_run(project)
    page = project / "rag.html"
    assert cli("report", path, "--html", page)[0] == 0
    html = page.read_text(encoding="utf-8")
    assert '<div class="trial">[1] x · not relevant</div><pre>passage x</pre>' in html
    assert "relevant, not retrieved: a" in html
    assert "unsupported claim (faithful): Shipping is free (marked supported by passage &#x27;zz&#x27;, which this " \
           "case does not have)" in html


def test_a_page_is_never_named_as_a_temp_file_the_next_write_would_remove(project, cli):
    """From my attack on the issue-28 --out fix: `report --html runs/b.json.tmp-999999` wrote the
    page there, and the next write of runs/b.json removed it as a dead process's temp file."""
    v2, v3 = write_two_runs()
    for name in ("runs/b.json.tmp-999999", "page.html.tmp-999999-3"):
        code, out, err = cli("report", v3, "--html", name)
        assert code == 2 and f"--html {name}: a name ending in .tmp-999999" in err and "temp file" in err, err
        assert not Path(name).exists()


def test_a_page_is_never_named_as_a_file_eval_py_keeps_beside_a_run(project, cli, fake):
    """Issue 28 (ninth attack), item 9: `report base.json --html base.json.journal` wrote the page
    there (then `run --resume base.json` read it as the journal), and a page written as
    X.pairwise.json.lock was removed by the next compare --pairwise. --html refuses every name
    eval.py keeps beside a run, as --out does, before anything is asked or written."""
    v2, v3 = write_two_runs()
    for suffix in evalpy.RESERVED_SUFFIXES:
        for argv in (("report", v3, "--html", v3 + suffix), ("compare", v2, v3, "--html", "page.html" + suffix),
                     ("report", v3, "--html", v3 + ".pairwise.json" + suffix.upper())):
            code, out, err = cli(*argv)
            assert code == 2 and out == "" and len(err.strip().splitlines()) == 1, (argv, err)
            assert "is for eval.py's files beside a run" in err and evalpy.RESERVED_SUFFIXES[suffix] in err or \
                "name the page .html" in err, (argv, err)
            assert not os.path.lexists(argv[-1]), argv
    code, out, err = cli("compare", v2, v3, "--pairwise", "Which answer is better?", "--host", fake.url,
                         "--html", v3 + ".pairwise.json.lock")
    assert code == 2 and "a name ending in .lock is for eval.py's files beside a run (a lock)" in err, err
    assert fake.chat_bodies == [] and not os.path.lexists(v3 + ".pairwise.json.lock")


def test_the_report_page_names_each_failed_trial_as_the_text_does(project, cli):
    """Round 105: the page listed a case failed in two trials as "a9 (HTTP 500: boom), a9 (HTTP 500: boom)", the
    trials unnamed (the text says "a9 trial 2", "a9 trial 3"), and past 20 errors cut its list without a word."""
    run = write_run("runs/t.json", make_run([("a1", "bug", ["bug", "bug", "bug"]), ("a9", "bug", ["bug", None, None])]
                                            + [(f"e{i}", "bug", [None, "bug", "bug"]) for i in range(20)]))
    code, out, err = cli("report", run, "--html", "t.html")
    page = Path("t.html").read_text(encoding="utf-8")
    assert "a9 trial 2 (HTTP 500: boom), a9 trial 3 (HTTP 500: boom)" in page, page
    assert "e17 trial 1 (HTTP 500: boom), and 2 more" in page
    text = cli("report", run)[1]
    assert "  a9 trial 2: HTTP 500: boom" in text and "  e19 trial 1: HTTP 500: boom" in text


def test_the_report_page_gives_each_trials_count_and_interval_and_the_checks_sha(project, cli):
    """114th round's views: the page drew each trial's bar ("trial 1 68%") with no count and no interval, a trial of 22
    cases beside two of 28 read alike, and named neither the checks nor their sha, which the text and JSON give."""
    run = write_run("runs/t.json", make_run([("a1", "bug", ["bug", "bug", "acceso"]), ("a2", "bug", [None, "bug", "bug"]),
                                             ("a3", "bug", ["acceso", "bug", "bug"])]))
    doc = json.loads(cli("report", run, "--json")[1])
    assert cli("report", run, "--html", "t.html")[0] in (0, 1)
    page = Path("t.html").read_text(encoding="utf-8")
    for t in doc["trials"]:
        shown = f"{t['correct']}/{t['scored']} = {round(100 * t['correct'] / t['scored'])}%"
        row = re.search(rf"<td>trial {t['trial']}</td><td[^>]*>{re.escape(shown)}</td><td[^>]*>([^<]+)</td>", page)
        assert row and row.group(1) == f"{round(100 * t['ci'][0])}–{round(100 * t['ci'][1])}%", (t, row and row.group(1))
    assert f"checks sha {doc['checks_sha'][:8]}" in page, doc["checks_sha"]


def test_the_pages_every_character_note_reads_the_answer_scored_not_the_reasoning(project, cli):
    """Round 105's review: a failing answer's "every character" note escaped the raw response from its <think>, cut at
    300 characters, never reaching the non-breaking space that made the answer no label."""
    think = "<think>\n" + "Hmm, let me think about this ticket carefully. " * 10 + "\n</think>\n\n"
    path = write_run("runs/inl.json", make_run([("dev-01", "bug", think + "Categoría:\u00a0bug")]))
    assert cli("report", path, "--html", "p.html")[0] in (0, 1)
    page = Path("p.html").read_text(encoding="utf-8")
    assert "every character: Categoría:\\xa0bug" in page and "every character: \\n&lt;think&gt;" not in page


def test_a_page_in_place_when_a_stop_comes_is_said_written(project, cli, monkeypatch):
    """Round 106: report --html stopped (SIGTERM, Ctrl-C) just after the page took its name said "interrupted" alone,
    exit 2; the page was whole, and the same command again was refused: it exists."""
    from conftest import make_run, write_run
    path = write_run("runs/a.json", make_run([("c1", "bug", "bug")]))
    link_new = evalpy.link_new

    def linked_then_stopped(tmp, name):
        link_new(tmp, name)
        raise KeyboardInterrupt
    monkeypatch.setattr(evalpy, "link_new", linked_then_stopped)
    code, out, err = cli("report", path, "--html", "p.html")
    assert code == 2 and err == "wrote p.html (whole: it was in place just before the stop)\ninterrupted\n", err
    assert "</html>" in Path("p.html").read_text(encoding="utf-8") and not [p for p in os.listdir(".") if ".tmp-" in p]


def test_a_failed_patterns_reason_on_the_page_shows_it_as_searched():
    """Round 106: the page's reason for a failed regex was Python's repr, every backslash doubled ('\\\\bA\\\\-1\\\\b'),
    not the pattern searched."""
    check = {"name": "order number", "type": "regex", "value": "\\bA\\-10007\\b"}
    assert evalpy.check_reason(check, {"votes": None}, {}) == "regex '\\bA\\-10007\\b'"
    assert evalpy.check_reason({"name": "exact", "type": "equals_expected"}, {"votes": None},
                               {"expected": "C:\\tmp"}) == "is not exactly 'C:\\tmp'"


class Cells(HTMLParser):
    """The text of each row of one table of a page, cell by cell."""

    def __init__(self, text, table_id):
        super().__init__()
        self.table_id, self.inside, self.rows, self.cell = table_id, False, [], None
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.inside = dict(attrs).get("id") == self.table_id
        elif self.inside and tag == "tr":
            self.rows.append([])
        elif self.inside and tag in ("td", "th"):
            self.cell = ""

    def handle_endtag(self, tag):
        if tag == "table":
            self.inside = False
        elif self.inside and tag in ("td", "th") and self.cell is not None:
            self.rows[-1].append(self.cell.strip())
            self.cell = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell += data


def test_the_compare_page_says_a_cases_change_once_and_shows_every_trial_of_either_run(project, cli):
    """113th round: each trial row of a changed case read the case's change, a trial that passed in both runs
    "broken"; and a case of one trial against three showed trial 1 alone, unnumbered."""
    def run(path, answers, **config):
        return write_run(path, make_run([{"id": "c1", "expected": "bug", "response": answers}], **config))
    a, b = run("runs/a.json", ["bug", "bug", "x"]), run("runs/b.json", ["x", "bug", "x"], prompt="prompts/v2.txt")
    one = run("runs/one.json", "x", prompt="prompts/v1.txt")
    for baseline, rows in [(a, [["c1 trial 1", "broken", "pass", "fail"], ["c1 trial 2", "", "pass", "pass"],
                                ["c1 trial 3", "", "fail", "fail"]]),
                           (one, [["c1 trial 1", "fixed", "fail", "fail"], ["c1 trial 2", "", "no s", "pass"],
                                  ["c1 trial 3", "", "no s", "pass"]])]:
        candidate = b if baseline == a else run("runs/c.json", ["x", "bug", "bug"], prompt="prompts/v2.txt")
        code, out, err = cli("compare", baseline, candidate, "--html", "c.html", "--force")
        assert code == 0, err
        table = Cells(Path("c.html").read_text(encoding="utf-8"), "changed-table").rows[1:]
        assert [r[:2] + [r[4][:4], r[5][:4]] for r in table] == rows, table


def test_the_compare_page_shows_the_cases_whose_pass_rate_moved_without_turning_their_majority(project, cli):
    """114th round's views: with trials, "Cases that changed (1)" beside "pass rate rose on 2 cases": a case from 2/3 to
    3/3 feeds the paired test, yet was shown side by side in no view."""
    def run(path, rows, **config):
        return write_run(path, make_run([{"id": cid, "expected": "bug", "response": answers} for cid, answers in rows],
                                        **config))
    a = run("runs/a.json", [("c1", ["x", "x", "bug"]), ("c2", ["bug", "bug", "x"]), ("c3", ["bug"] * 3)])
    b = run("runs/b.json", [("c1", ["bug", "bug", "x"]), ("c2", ["bug"] * 3), ("c3", ["bug"] * 3)], prompt="prompts/v2.txt")
    doc = json.loads(cli("compare", a, b, "--json")[1])
    assert (doc["fixed"], doc["rose"]) == (["c1"], ["c1", "c2"]), doc
    assert cli("compare", a, b, "--html", "c.html")[0] == 0
    page = Path("c.html").read_text(encoding="utf-8")
    assert "Cases that changed (2: 1 by their majority, 1 by their pass rate alone), answers side by side" in page
    table = Cells(page, "changed-table").rows[1:]
    assert [r[:2] for r in table] == [["c1 trial 1", "fixed"], ["c1 trial 2", ""], ["c1 trial 3", ""],
                                      ["c2 trial 1", "pass rate rose"], ["c2 trial 2", ""], ["c2 trial 3", ""]], table


def test_the_compare_page_says_why_an_agents_cell_holds_no_answer(project, cli):
    """114th round's views: an agent out of turns read "fail" above an empty cell on the compare page, where the report's
    page says it ran out of turns."""
    from conftest import agent_spec
    look = ("lookup_order", {"order_id": "A-1"}, True)
    a = write_run("runs/a.json", make_run([agent_spec("a1", [look, look], out_of_turns=True)], labels=None,
                                          split="agent-dev", max_turns=2))
    b = write_run("runs/b.json", make_run([agent_spec("a1", [look])], labels=None, split="agent-dev", max_turns=8))
    assert cli("compare", a, b, "--html", "c.html")[0] == 0
    table = Cells(Path("c.html").read_text(encoding="utf-8"), "changed-table").rows[1:]
    assert table[0][1] == "fixed" and table[0][4].startswith("fail (no answer: it ran out of turns)"), table


def test_the_compare_page_says_no_answer_of_a_trial_that_errored(project, cli):
    """113th round's review: a trial that got no answer read "bug → None" on the compare page, Python's word."""
    a = write_run("runs/a.json", make_run([{"id": "c1", "expected": "bug", "response": ["x", "x", "x"]}]))
    b = write_run("runs/b.json", make_run([{"id": "c1", "expected": "bug", "response": ["bug", None, "bug"]}],
                                          prompt="prompts/v2.txt"))
    assert cli("compare", a, b, "--html", "c.html")[0] == 0
    table = Cells(Path("c.html").read_text(encoding="utf-8"), "changed-table").rows[1:]
    assert [r[2] for r in table] == ["bug: INVALID → bug", "bug: INVALID → no answer", "bug: INVALID → bug"], table


def test_the_compare_page_shows_no_words_as_the_answer_of_an_agent_that_reached_none(project, cli):
    """116th round: an agent cut as it called tools, or out of turns, had the words beside its last calls shown in its
    cell as its answer, under "fail (no answer: ...)"; the report's page shows none."""
    from conftest import agent_spec
    look, words = ("lookup_order", {"order_id": "A-1"}, True), "Su pedido está enviado."
    a = write_run("runs/a.json", make_run([agent_spec("f1", [look]), agent_spec("f2", [look])], labels=None,
                                          split="agent-dev", max_turns=3))
    b = make_run([agent_spec("f1", [look]), agent_spec("f2", [look, look, look], out_of_turns=True)], labels=None,
                 split="agent-dev", max_turns=3, prompt="prompts/v2.txt")
    cut, out = b["results"]
    cut.update(response=words, done_reason="length", per_turn=[dict(cut["per_turn"][0], done_reason="length")],
               transcript=[{"role": "assistant", "content": words,
                            "tool_calls": [{"id": None, "name": "lookup_order", "arguments": {"order_id": "A-1"}}]}])
    out["response"] = words
    out["transcript"][-2]["content"] = words
    write_run("runs/b.json", b)
    assert cli("compare", a, "runs/b.json", "--html", "c.html")[0] == 0
    page = Path("c.html").read_text(encoding="utf-8")
    table = Cells(page, "changed-table").rows[1:]
    assert [(r[0], r[1], r[5]) for r in table] == [("f1", "broken", "fail (no answer: cut as it called tools)"),
                                                   ("f2", "broken", "fail (no answer: it ran out of turns)")], table
    assert words in table[0][4] and words in table[1][4]   # (the baseline's own answers, shown)


def test_a_line_break_in_a_name_is_shown_as_its_code_on_the_pages(project, cli):
    """116th round: a case id, a model name or a page's title holding a line break showed it as a space outside a
    <pre> (two cases "x\\ny" and "x y" read alike, the model "m odel"), where the terminal shows \\n."""
    a = write_run("runs/n.json", make_run([("x\ny", "bug", "acceso"), ("x y", "bug", "acceso"), ("ok", "bug", "bug")],
                                          model="m\nodel"))
    assert cli("report", a, "--html", "n.html")[0] == 0
    page = Path("n.html").read_text(encoding="utf-8")
    assert ">x\\ny</a>" in page and ">x y</a>" in page and "<td>m\\nodel</td>" in page, page
    assert "m\nodel" not in page[page.index("<body>"):]
    b = write_run("runs/m.json", make_run([("x\ny", "bug", "bug"), ("x y", "bug", "acceso"), ("ok", "bug", "bug")],
                                          model="m\nodel", prompt="prompts/v2.txt"))
    assert cli("compare", a, b, "--html", "c.html")[0] == 0
    assert "x\\ny" in Path("c.html").read_text(encoding="utf-8")


def test_every_one_line_field_of_a_page_shows_its_line_break_as_a_code(project, cli):
    """116th round's review of the pages: charts' labels (tags, difficulties), the failed checks and why (a check's name,
    its value, a judge model), warnings, the judge's line and the diagnosis still showed a line break as a space (two
    tags "t\\nag" and "t ag" read alike beside the table telling them apart); the compare page's expected answer of many
    lines became one line of codes, its indentation gone."""
    def check(name, value):
        return [{"name": name, "type": "icontains", "value": value, "blocking": True}]
    vote = {"check": "he\nlps", "model": "jud\nge", "vote": 1, "seed": 42, "pass": False, "reason": "r", "raw": "x",
            "error": None, "prompt_tokens": 1, "completion_tokens": 1}
    run = make_run([
        {"id": "q\n1", "response": "no", "checks": check("gr\neets", "zz\nyy"), "tags": ["t\nag"], "difficulty": "ha\nrd"},
        {"id": "q 1", "response": "no", "checks": check("gr eets", "zz yy"), "tags": ["t ag"], "difficulty": "ha rd"},
        {"id": "e\n1", "response": None, "checks": check("a", "b")},
        {"id": "j1", "response": "no", "judges": [vote],
         "checks": [{"name": "he\nlps", "type": "judge", "value": "ok?", "blocking": True}]}], labels=None)
    assert cli("report", write_run("runs/a.json", run), "--html", "a.html")[0] == 0
    body = Path("a.html").read_text(encoding="utf-8")
    body = re.sub(r"<pre>.*?</pre>|<script>.*?</script>|<style>.*?</style>", "", body[body.index("<body>"):], flags=re.S)
    assert "\n" not in re.sub(r">\s*<", "><", body).replace(">\n", ">").strip("\n"), [
        m.group() for m in re.finditer(r"[^<>]{0,30}\n[^<>]{0,30}", body)]
    assert "ha\\nrd (1)" in body and "t\\nag (1)" in body and "gr\\neets: icontains &#x27;zz\\nyy&#x27;" in body, body
    # the compare page: an expected answer of many lines in a <pre>, as its answers are
    expected = "def f():\n    return 1"
    equals = [{"name": "same", "type": "equals_expected", "blocking": True}]
    a = write_run("runs/ca.json", make_run([{"id": "c1", "expected": expected, "response": "x", "checks": equals}], labels=None))
    b = write_run("runs/cb.json", make_run([{"id": "c1", "expected": expected, "response": expected, "checks": equals}],
                                           labels=None, prompt="prompts/v2.txt"))
    assert cli("compare", a, b, "--html", "c.html")[0] == 0
    assert "<pre>def f():\n    return 1</pre>" in Path("c.html").read_text(encoding="utf-8")


def test_a_case_of_vars_alone_shows_its_vars_on_the_page(project, cli, fake):
    """118th round's newcomer: a case with vars and no input showed an empty cell on report --html (every failing case
    alike but for its answer), where report --case printed "Input: none ... Vars: {...}"; its vars are shown, escaped."""
    os.makedirs("p/prompts")
    Path("p/dev.jsonl").write_text(json.dumps({"id": "g-1", "vars": {"product": "Widget", "audience": "<b>kids</b>"},
                                               "checks": [{"type": "icontains", "value": "zzz"}], "difficulty": "easy",
                                               "note": "n"}) + "\n")
    Path("p/prompts/v1.txt").write_text("Write a slogan for {{product}} aimed at {{audience}}.\n")
    assert cli("run", "--split", "p/dev.jsonl", "--host", fake.url)[0] in (0, 1)
    assert cli("report", "runs/p-dev-v1.json", "--html", "g.html")[0] in (0, 1)
    page = Path("g.html").read_text(encoding="utf-8")
    assert ('no input: the model was asked by its prompt alone; the case&#x27;s vars</div><pre>{&quot;product&quot;: '
            '&quot;Widget&quot;, &quot;audience&quot;: &quot;&lt;b&gt;kids&lt;/b&gt;&quot;}</pre>') in page, page
    # (its review) and review's page: its /data holds the vars, shown under the input
    item = evalpy.review_items(json.loads(Path("runs/p-dev-v1.json").read_text(encoding="utf-8")))[0]
    assert item["vars"] == {"product": "Widget", "audience": "<b>kids</b>"} and item["input"] is None, item
    assert "block(\"The case's vars\", JSON.stringify(it.vars))" in evalpy.REVIEW_PAGE
