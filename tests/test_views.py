"""The views agree: report and compare work out every figure once (report_rows, compare_rows,
compare_many_rows), and text, markdown, the HTML page and --json only show
those rows. For every figure of the rows of a few runs (the shipped examples and runs built here:
trials, weighted checks, errors, a conversation), each view that shows it must show it written
the one way (figure_text), and --json must hold the same unrounded value where the figure says."""

import functools
import html
import json
import re
from pathlib import Path

import pytest

from conftest import ROOT, V1_MISSES, V2_MISSES, V3_MISSES, agent_run, evalpy, make_run, split_run, write_run

EXAMPLES = ROOT / "runs" / "example"

# What a view leaves out on purpose (a place: section key, row, field; see places()); every other
# figure must be in every view. A place leaves out all below it. A markdown comment is short: no per-label table, no slices, no
# trials table; a page draws each trial only as a bar; text and markdown have no intervals of a
# compare, and no per-run detail (per label or check, per difficulty: the page's and --json's).
LEFT_OUT = {
    "markdown": {"headline.trial.figure", "headline.trial.figure.ci", "headline.trial.invalid", "headline.invalid.of",
                 "problems.open", "problems.requests", "labels.row.figures", "checks.row.open",
                 "checks.judge", "by_difficulty", "by_tag", "trials", "speed.latency[1]", "speed.calls",
                 "speed.tokens", "speed.token_parts", "speed.thinking", "speed.load", "annotations",
                 "many.cases", "many.shared_cases", "many.all_cases", "many.comparisons",
                 "many.left_out", "many.row.not_scored", "failures.row", "retrieval.row", "retrieval.labelled", "retrieval_change.changes",
                 "diagnosis_change.row.which", "diagnosis_change.generation.which", "speed.without_prompt_count",
                 "speed.two_pass", "speed.with_load", "agent.cases", "agent.tools", "agent.turns", "agent.out_ids",
                 "per_label", "per_check", "per_difficulty"},
    "text": {"headline.pass_hat.figure", "speed.with_load",
             "headline.invalid.of", "per_label", "per_check", "per_difficulty"},
    "html": {"headline.trial.figure", "trials.trials.row", "headline.trial.invalid", "headline.pass_hat.figure", "problems.requests",
             "speed.calls", "annotations", "headline.invalid.of"},
}


def left_out(view, place, row, sec):
    """Whether a view leaves a place out; also the label check (markdown's headline says it, and
    text and page have no table of it alone), the cases not compared when there are none, and
    errors and undecided answers when there are none."""
    if any(place == p or place.startswith((p + ".", p + "[")) for p in LEFT_OUT[view]):
        return True
    if place.startswith("checks.row") and not row["judge"]:
        return row["type"] == "label" if view == "markdown" else not sec["plain_table"]
    if place.startswith(("outcome.not_compared", "outcome.errored")):
        return not row["figure"]["value"]
    if place == "headline.trial.invalid":   # answers matching no label: a free-text set has no labels
        return not sec["labels"]
    if place in ("problems.errors", "problems.open"):   # said only when there are some
        return not sec[place.split(".")[1]]["value"]
    if place == "problems.requests":   # the requests made, said beside the errors
        return not sec["errors"]["value"]
    if place.startswith("speed.rates"):   # the server's speeds, when it reported them
        return sec["rates"][0]["value"] is None if view == "markdown" else not sec["has_rates"]
    if place.startswith(("figures.invalid.figures", "figures.length.figures")) and place.endswith("[1]"):   # of how many answers: with trials
        return not row["majority_vote"]
    if place == "many.left_out" or place.startswith("many.row.not_scored"):   # said only when a case is left out
        return not (sec["left_out"] if place == "many.left_out" else row["not_scored"])["value"]
    if place.startswith("many.row.errored"):   # said only when a request failed
        return not row["errored"]["value"]
    return False


def figures(value, place, row=None):
    """(place, figure, row) for every figure under a value of the rows."""
    if isinstance(value, dict) and "kind" in value and "json" in value:
        yield place, value, row
        return
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from figures(inner, f"{place}.{key}", row)
    elif isinstance(value, list):
        for i, inner in enumerate(value):
            if isinstance(inner, dict) and "name" in inner:
                yield from figures({k: v for k, v in inner.items() if k != "name"}, row_place(place, inner), inner)
            else:
                yield from figures(inner, f"{place}[{i}]", row)


# rows that are each their own place (a headline's, a compare's); other rows are "row"
ROW_NAMES = {"bounds", "main", "mean", "trial", "pass_hat", "baseline", "invalid", "length", "fixed", "regressions", "not_compared",
             "errored", "stayed_right", "stayed_wrong", "candidate", "difference", "detectable", "fisher", "identical", "latency",
             "generation", "rose", "fell"}


def row_place(place, row):
    """A section's own rows are placed under it ('headline.main', 'checks.row'); a list of rows
    under another name keeps it ('trials.trials.row')."""
    under = place.removesuffix(".rows")
    return f"{under}.{row['name'] if row['name'] in ROW_NAMES else 'row'}"


def places(rows):
    for sec in rows:
        for place, f, row in figures({k: v for k, v in sec.items() if k != "key"}, sec["key"]):
            yield place, f, row, sec


def dig(doc, path):
    for step in path:
        if step == "#":
            return len(doc)
        doc = doc[step]
    return doc


def assert_in_json(doc, f, where):
    if f["json"] is None:
        return   # a sum of figures the JSON holds apart (requests made, tokens), or the page's own detail
    paths = f["json"] if isinstance(f["json"], dict) else {"value": f["json"]}
    for part, path in paths.items():
        assert dig(doc, path) == f[part], f"{where}: --json at {path} is {dig(doc, path)!r}, the rows {f[part]!r}"


def shown_forms(f):
    """The strings a view must show for a figure: its text; each id of a list of ids."""
    if f["kind"] == "ids":
        return list(f["value"])
    return [evalpy.figure_text(f)]


def assert_shown(views, place, f, row, sec):
    for view, text in views.items():
        for form, sub in [(shown_forms(f), place)] + ([([evalpy.interval(f["ci"])], place + ".ci")] if f.get("ci") else []):
            if left_out(view, sub, row, sec):
                continue
            for shown in form:
                needle = html.escape(shown, quote=True) if view == "html" else shown
                assert re.search(r"(?<![\w.])" + re.escape(needle) + r"(?!\w|\.\d)", text), \
                    f"{view} lacks {place} {shown!r} (row {row and row.get('name')!r})"


def check_agree(rows, views, doc):
    count = 0
    for place, f, row, sec in places(rows):
        assert_in_json(doc, f, place)
        assert_shown(views, place, f, row, sec)
        count += 1
    assert count > 5   # the walk found the figures


# --- the runs: the shipped examples, and runs built here for what they lack

def built_runs(folder):
    """Trials with an error, weighted checks with an error and a veto, a conversation case."""
    trials = {"t1": ["unsafe", "unsafe", "safe"], "t2": ["unsafe"] * 3, "t3": ["safe"] * 3, "t4": ["safe", None, "safe"]}
    cases = [{"id": cid, "input": cid, "expected": e, "tags": tags, "response": trials[cid]}
             for cid, e, tags in (("t1", "unsafe", ["red-team"]), ("t2", "unsafe", ["red-team", "injection"]),
                                  ("t3", "safe", []), ("t4", "safe", ["injection"]))]
    checks = [dict(evalpy.parse_check({"type": "contains", "value": v, "name": n, "weight": w})[0])
              for n, v, w in (("apology", "sorry", 1), ("refund", "refund", 2))]
    checks.append(evalpy.parse_check({"type": "not_contains", "value": "idiot", "name": "polite"})[0])
    free = [{"id": f"f{i}", "input": f"customer {i}", "checks": checks, "pass_threshold": 0.6, "difficulty": d,
             "response": r} for i, (d, r) in enumerate([("easy", "sorry, refund"), ("easy", "refund only"),
                                                        ("hard", "sorry"), ("hard", "sorry idiot refund"),
                                                        ("easy", None), ("hard", "nothing")])]
    judged = [{"id": f"j{i}", "input": f"customer {i}", "response": ["r"] * 3,
               "checks": [{"name": "helps", "type": "judge", "value": "c", "blocking": True}]} for i in range(4)]
    conv = [{"id": "c1", "messages": [{"role": "user", "content": "hola"}, {"role": "assistant", "content": "¿sí?"},
                                       {"role": "user", "content": "no puedo entrar"}], "expected": "acceso",
             "response": "bug"}, {"id": "c2", "expected": "bug", "response": "bug"}]
    return {"trials": write_run(folder / "trials.json", make_run(cases, labels=["safe", "unsafe"], temperature=0.7)),
            "free": write_run(folder / "free.json", make_run(free, labels=None, split="free")),
            "conv": write_run(folder / "conv.json", make_run(conv)),
            "open-trials": write_run(folder / "open-trials.json", judged_trials(make_run(judged, labels=None))),
            "agent": write_run(folder / "agent.json", agent_run()),
            "rag": write_run(folder / "rag.json", make_run(rag_cases(), labels=None, split="rag"))}


def rag_cases():
    """RAG: passages and relevance labels (a relevant passage missed, none retrieved, none labelled)."""
    def passages(*ids):
        return [{"id": i, "text": f"passage {i}"} for i in ids]
    check = [{"name": "answers", "type": "contains", "value": "30", "blocking": True}]
    return [{"id": cid, "input": f"question {cid}", "context": ctx, "relevant": rel, "response": answer, "checks": check}
            for cid, ctx, rel, answer in (("g1", passages("a", "x", "b"), ["a", "b", "c"], "30 days"),
                                          ("g2", passages("x", "y", "a"), ["a"], "no idea"),
                                          ("g3", [], ["a"], "30"), ("g4", passages("q"), [], "thirty"))]


def judged_trials(run):
    """Each answer judged, some left open: j0 passes 2 of 3 with one open, j1 fails one with two
    open, j2 passes all three, j3 one."""
    verdicts = {"j0": [True, True, None], "j1": [False, None, None], "j2": [True] * 3, "j3": [False, False, True]}
    for r in run["results"]:
        r["judges"] = [{"check": "helps", "model": "m", "vote": 1, "seed": 42, "pass": verdicts[r["id"]][r["trial"] - 1],
                        "reason": None, "raw": "x", "error": None, "prompt_tokens": 1, "completion_tokens": 1}]
    run["config"]["judge"] = {"models": ["m"], "votes": 1, "temperature": 0.0, "seed": 42}   # (as eval.py records it)
    return run


REPORTS = ["dev-v3", "test-v3", "support-dev-v1", "support-dev-v1-judged", "support-dev-v2-judged", "trials", "free", "conv",
           "open-trials", "agent", "rag", "rag-dev-v1"]


def run_path(name, built):
    return built[name] if name in built else str(EXAMPLES / f"{name}.json")


def views_of(cli, command, tmp_path):
    """text, markdown, the page, and the parsed --json of one command."""
    out = {}
    for view, flags in (("text", []), ("markdown", ["--markdown"]), ("json", ["--json"])):
        code, text, _ = cli(*command, *flags)
        assert code == 0
        out[view] = text
    page = tmp_path / "page.html"
    cli(*command, "--html", page, "--force")
    out["html"] = page.read_text(encoding="utf-8")
    return {k: v for k, v in out.items() if k != "json"}, json.loads(out["json"])


@pytest.mark.parametrize("name", REPORTS)
def test_every_figure_of_a_report_agrees_in_every_view(project, cli, tmp_path, name):
    path = run_path(name, built_runs(project))
    config, cases = evalpy.read_graded(path)
    rows = evalpy.report_rows(config, evalpy.report_score(path, config, cases))
    views, doc = views_of(cli, ("report", path), tmp_path)
    check_agree(rows, views, doc)


def write_dev_runs():
    return (write_run("runs/v1.json", split_run("dev", V1_MISSES, prompt="prompts/v1.txt")),
            write_run("runs/v2.json", split_run("dev", V2_MISSES, prompt="prompts/v2.txt")),
            write_run("runs/v3.json", split_run("dev", V3_MISSES)))


COMPARES = [("dev-v1", "dev-v2"), ("support-dev-v1-judged", "support-dev-v2-judged"), ("v2", "v3"), ("v1", "v2"),
            ("rag-dev-v1", "rag-dev-v1-b")]


@pytest.mark.parametrize("a, b", COMPARES)
def test_every_figure_of_a_compare_agrees_in_every_view(project, cli, tmp_path, a, b):
    built = dict(zip(("v1", "v2", "v3"), write_dev_runs()))
    a_path, b_path = run_path(a, built), run_path(b, built)
    (a_cfg, a_cases), (b_cfg, b_cases) = evalpy.read_graded(a_path), evalpy.read_graded(b_path)
    c = evalpy.compare_runs(a_cfg, a_cases, b_cfg, b_cases)
    views, doc = views_of(cli, ("compare", a_path, b_path), tmp_path)
    check_agree(evalpy.compare_rows(c, a_path, b_path), views, doc)


DETAIL_TABLE = re.compile(r"<h2>(Per \w+) \(on the (\d+) cases? both runs decided[^<]*\)</h2><table[^>]*>.*?<tbody>(.*?)</tbody>")


def detail_cells(key, row):
    """A row of --json's "details" as the page's table must write it: each run's figure, then the change."""
    def share_of(side, count, of, value):
        return "-" if side is None else evalpy.share_text({"count": side[count], "of": side[of], "value": side[value]})
    if key == "per_label":
        return [text for k in ("precision", "recall") for text in (
            evalpy.fmt(row["baseline"][k]) if row["baseline"][k] is not None else "-",
            evalpy.fmt(row["candidate"][k]) if row["candidate"][k] is not None else "-",
            evalpy.points(None if row["change"][k] is None else 100 * row["change"][k]))]
    parts = ("correct", "total", "accuracy") if key == "per_difficulty" else ("passed", "total", "rate")
    return [share_of(row["baseline"], *parts), share_of(row["candidate"], *parts),
            evalpy.points(None if row["change"] is None else 100 * row["change"])]


@pytest.mark.parametrize("a, b", [("v1", "v2"), ("support-dev-v1-judged", "support-dev-v2-judged"), ("trials", "trials-b")])
def test_every_figure_of_a_compare_pages_tables_is_in_its_json(project, cli, tmp_path, a, b):
    """131st round: compare --html's "Per label" (precision and recall of each run, and the change) and "Per
    difficulty" tables were worked out by the page alone (compare_detail_rows): --json, text and markdown held none of
    their figures. Every cell of those tables is now --json's "details", unrounded, as the page writes it."""
    built = {**dict(zip(("v1", "v2", "v3"), write_dev_runs())), **built_runs(project)}
    trials = json.loads(Path(built["trials"]).read_text(encoding="utf-8"))
    for r in trials["results"]:   # another run of the trials: t3 answered wrong once more
        r["response"] = "unsafe" if (r["id"], r["trial"]) == ("t3", 2) else r["response"]
    trials["config"]["date"] = "2026-01-03T10:00:00"
    built["trials-b"] = write_run(project / "trials-b.json", trials)
    paths = run_path(a, built), run_path(b, built)
    page = tmp_path / "page.html"
    code, out, err = cli("compare", *paths, "--json", "--html", page)
    assert code == 0, err
    details = json.loads(out)["details"]
    tables = DETAIL_TABLE.findall(page.read_text(encoding="utf-8"))
    assert [t[0] for t in tables] == ["Per label" if "per_label" in details else "Per check", "Per difficulty"], tables
    for title, cases, body in tables:
        key = title.lower().replace(" ", "_")
        assert int(cases) == details["cases"]
        rows = [[html.unescape(re.sub(r"<[^>]*>", "", c)) for c in re.findall(r"<td[^>]*>(.*?)</td>", tr)]
                for tr in re.findall(r"<tr>(.*?)</tr>", body)]
        assert [r[0] for r in rows] == list(details[key]), (title, rows)
        for name, *cells in rows:
            assert cells == detail_cells(key, details[key][name]), (title, name)


def rag_pair(folder):
    """Two retrievers' passages for the same RAG cases: g1 gains a relevant passage, g2 loses one."""
    a = folder / "rag.json"
    write_run(a, make_run(rag_cases(), labels=None, split="rag"))
    moved = [dict(c, context=c["context"][::-1][:1]) for c in rag_cases()]
    moved[0]["context"] = [{"id": "c", "text": "passage c"}] + moved[0]["context"]
    return str(a), write_run(folder / "rag-b.json", make_run(moved, labels=None, split="rag"))


def test_every_figure_of_a_rag_compare_agrees_in_every_view(project, cli, tmp_path, monkeypatch):
    a_path, b_path = rag_pair(project)
    runs = [evalpy.load_run(p) for p in (a_path, b_path)]
    graded = [evalpy.grade_run(r) for r in runs]
    c = evalpy.compare_runs(runs[0]["config"], graded[0], runs[1]["config"], graded[1])
    rows = evalpy.compare_rows(c, a_path, b_path)
    assert evalpy.section_of(rows, "retrieval_change")["changes"]   # the walk meets the retrieval rows
    views, doc = views_of(cli, ("compare", a_path, b_path), tmp_path)
    check_agree(rows, views, doc)
    assert_views_follow_the_rows(monkeypatch, "compare_rows", rows, lambda: {
        "text": evalpy.format_compare(c, a_path, b_path), "markdown": evalpy.markdown_compare(c, a_path, b_path),
        "html": evalpy.compare_page((a_path, b_path), runs, graded, c)}, only="retrieval_change")
    assert_views_follow_the_rows(monkeypatch, "compare_rows", rows, lambda: {
        "text": evalpy.format_compare(c, a_path, b_path), "markdown": evalpy.markdown_compare(c, a_path, b_path),
        "html": evalpy.compare_page((a_path, b_path), runs, graded, c)}, only="diagnosis_change")


def test_every_figure_of_a_compare_of_many_runs_agrees(project, cli, tmp_path):
    paths = write_dev_runs()
    m = evalpy.compare_many([(p, *evalpy.read_graded(p)) for p in paths])
    out = {}
    for view, flags in (("text", []), ("markdown", ["--markdown"]), ("json", ["--json"])):
        code, out[view], _ = cli("compare", *paths, *flags)
    doc = json.loads(out.pop("json"))
    check_agree(evalpy.compare_many_rows(m), out, doc)


def test_a_view_that_shows_a_figure_another_way_is_caught(project, cli, tmp_path, monkeypatch):
    """The test above can fail: a markdown that rounds the headline its own way disagrees."""
    path = run_path("dev-v3", {})
    config, cases = evalpy.read_graded(path)
    rows = evalpy.report_rows(config, evalpy.report_score(path, config, cases))
    views, doc = views_of(cli, ("report", path), tmp_path)
    views["markdown"] = views["markdown"].replace("11/28 = 39%", "11/28 = 39.3%")
    with pytest.raises(AssertionError, match="markdown lacks headline.baseline"):
        check_agree(rows, views, doc)
    doc["baseline"]["accuracy"] = round(doc["baseline"]["accuracy"], 2)
    with pytest.raises(AssertionError, match="--json at"):
        check_agree(rows, {}, doc)


# --- each view takes each figure from the rows: change one figure, and every view that shows it
# shows the change (a view working a figure out on its own would keep showing the old one)

SENTINEL = {"count": {"value": 97531}, "share": {"count": 97531, "of": 97532, "value": 97531 / 97532, "ci": [0.0111, 0.9222]},
            "p": {"value": 0.0000123}, "ms": {"value": 97531.0}, "tokens_per_s": {"value": 975.3},
            "fixed2": {"value": 0.9753}, "fixed3": {"value": 0.97531}, "percent": {"value": 0.97531}, "ids": {"value": ["zz-sentinel"]},
            "points_ci": {"value": {"estimate": 0.97531, "low": 0.86421, "high": 0.99753, "method": "m", "level": 0.95}},
            "size": {"value": 0.97531}, "points": {"value": 0.97531},
            "bounds": {"value": {"low": 0.0123, "high": 0.9753, "low_count": 975, "high_count": 97531, "of": 97533,
                                 "undecided_cases": 96556, "undecided_answers": 96556}}}


def changed_at(rows, n):
    """A copy of the rows with its n-th figure set to a value no run has."""
    rows = json.loads(json.dumps(rows))
    place, f, row, sec = list(places(rows))[n]
    f.update({k: v for k, v in SENTINEL[f["kind"]].items() if k != "ci" or f.get("ci")})
    return rows, place, f, row, sec


def occurrences(view, text, f):
    counts = []
    for form in shown_forms(f) + ([evalpy.interval(f["ci"])] if f.get("ci") else []):
        needle = html.escape(form, quote=True) if view == "html" else form
        counts.append(len(re.findall(r"(?<![\w.])" + re.escape(needle) + r"(?!\w|\.\d)", text)))
    return counts


# Figures the views show inside a reading, a sentence compare_runs words once from the same figure
IN_A_READING = {"figures.difference.figure", "figures.difference.p"}


def assert_views_follow_the_rows(monkeypatch, builder, rows, render, only=""):
    """render() -> {view: text}, made with builder patched to return the changed rows. The word
    diffs of a compare page are figured once (a pure function of two answers, and the slow part of
    a page: a render per figure would redo them every time)."""
    diff = functools.lru_cache(maxsize=None)(evalpy.budgeted_diff)
    monkeypatch.setattr(evalpy, "budgeted_diff", diff)
    before = render()
    every = list(places(rows))
    for n in range(len(every)):
        changed, place, f, row, sec = changed_at(rows, n)
        if f["kind"] == "ids" or place in IN_A_READING or not place.startswith(only):
            continue   # a page lists the answers of the cases named: a name no run has has none (the test above checks ids)
        original = every[n]
        monkeypatch.setattr(evalpy, "budgeted_diff", diff)
        monkeypatch.setattr(evalpy, builder, lambda *a, **k: changed)
        after = render()
        for view, text in after.items():
            if left_out(view, place, original[2], original[3]):
                continue
            grew = [a > b for a, b in zip(occurrences(view, text, f), occurrences(view, before[view], f))]
            assert grew[0], f"{view} does not show {place} from the rows"
        monkeypatch.undo()


@pytest.mark.parametrize("name", ["dev-v3", "support-dev-v1", "support-dev-v2-judged", "trials", "free", "open-trials", "rag"])
def test_each_report_view_shows_the_figures_of_the_rows(project, monkeypatch, name):
    path = run_path(name, built_runs(project))
    run = evalpy.load_run(path)
    config, cases = run["config"], evalpy.grade_run(run)
    s = evalpy.report_score(path, config, cases, annotations={})
    rows = evalpy.report_rows(config, s)
    assert_views_follow_the_rows(monkeypatch, "report_rows", rows, lambda: {
        "text": evalpy.format_report(config, s), "markdown": evalpy.markdown_report(config, s, path),
        "html": evalpy.report_page(path, run, cases, s, {})})


@pytest.mark.parametrize("a, b", [("v2", "v3"), ("support-dev-v1-judged", "support-dev-v2-judged")])
def test_each_compare_view_shows_the_figures_of_the_rows(project, monkeypatch, a, b):
    built = dict(zip(("v1", "v2", "v3"), write_dev_runs()))
    paths = run_path(a, built), run_path(b, built)
    runs = [evalpy.load_run(p) for p in paths]
    graded = [evalpy.grade_run(r) for r in runs]
    c = evalpy.compare_runs(runs[0]["config"], graded[0], runs[1]["config"], graded[1])
    assert_views_follow_the_rows(monkeypatch, "compare_rows", evalpy.compare_rows(c, *paths), lambda: {
        "text": evalpy.format_compare(c, *paths), "markdown": evalpy.markdown_compare(c, *paths),
        "html": evalpy.compare_page(paths, runs, graded, c)})


def test_annotations_naming_no_answer_of_the_run_are_left_out_of_every_view(project, cli, tmp_path):
    """Regression: the text and --json counted the annotations of answers the run does not have,
    which the page left out (with a warning): 3 in one view, 1 in the other."""
    path = write_run("runs/v2.json", split_run("dev", V2_MISSES, prompt="prompts/v2.txt"))
    annotations = {"dev-09#1": "wrong label", "dev-99#1": "wrong label", "dev-98#1": "gone", "dev-02#1": "two\u2028lines"}
    Path(path + evalpy.ANNOTATIONS_SUFFIX).write_text(json.dumps({"format": evalpy.ANNOTATIONS_FORMAT, "annotations": {
        k: {"text": v, "time": "2026-01-02T10:00:00"} for k, v in annotations.items()}}), encoding="utf-8")
    views, doc = views_of(cli, ("report", path), tmp_path)
    assert doc["annotations"]["counts"] == [["two\u2028lines", 1], ["wrong label", 1]]
    assert doc["annotations"]["left_out"] == ["dev-99#1", "dev-98#1"]
    assert "Annotations (2 answers annotated" in views["text"] and re.search(r"\n  wrong label +1\n", views["text"])
    assert re.search(r"\n  two\\u2028lines +1\n", views["text"]), views["text"]
    assert "gone" not in views["text"].split("Annotations (")[1].split("\n")[2]
    warning = "2 annotations in runs/v2.json.annotations.json name answers this run does not have"
    assert warning in views["text"] and warning in views["html"]
    assert '<td>wrong label</td><td data-sort="1">1</td>' in views["html"]
    # the markdown left them out altogether (thirteenth attack's leftover)
    assert ("**Annotations (2 answers annotated in review, from `runs/v2.json.annotations.json`):** \"two\\\\u2028lines\" (1), "
            "wrong label (1)" in views["markdown"]) and f"> {warning}" in views["markdown"], views["markdown"]


def test_a_fixed_share_near_the_ends_never_reads_as_the_end():
    """A per-label or pass@k figure: never 1.00 for a miss nor 0.00 for a hit, as percent()."""
    assert evalpy.fmt(2999 / 3000) == "0.9997" and evalpy.fmt(1 / 3000) == "0.0003" and evalpy.fmt(0.5) == "0.50"
    assert evalpy.fmt(1 - 1e-12) == ">0.999999" and evalpy.fmt(1) == "1.00" and evalpy.fmt(0) == "0.00"
    assert evalpy.figure_text({"kind": "fixed3", "value": 0.99991}) == "0.9999"


# --- a figure near the ends never reads as the end: a miss is never 1.00 nor +100.0 points, a
# hit never 0.00 nor +0.0 points (as percent() never prints 100% for a miss), in every view

def reads_as(text):
    """The number a figure's text reads as ('+0.0' -> 0, '0.9995' -> 0.9995, '>0.999999' -> None)."""
    m = re.fullmatch(r"[+\-−]?(\d+(?:\.\d+)?)(?: pts)?", text)
    return float(m.group(1)) if m else None


def assert_off_the_ends(rows):
    seen = 0
    for place, f, row, sec in places(rows):
        if f["kind"] in ("fixed2", "fixed3") and f["value"] is not None and 0 < f["value"] < 1:
            seen += 1
            assert reads_as(figure_text(f)) not in (0, 1), (place, row.get("name"), figure_text(f))
        if f["kind"] == "points" and f["value"]:
            seen += 1
            assert reads_as(figure_text(f)) != 0, (place, row.get("name"), figure_text(f))
        if f["kind"] == "points_ci" and f["value"]["estimate"]:
            seen += 1
            for end in ("estimate", "low", "high"):
                v = f["value"][end]
                if v is not None:
                    text = evalpy.signed_points(v)
                    assert (reads_as(text) != 0 or v == 0) and (reads_as(text) != 100 or abs(v) >= 1), (place, end, text)
    return seen


def figure_text(f):
    return evalpy.figure_text(f)


def test_figures_near_the_ends_never_read_as_the_end_in_any_view(project, cli, tmp_path):
    n = 2100   # a difference of one case in 2100 is 0.048 points: "+0.0" at one decimal
    hi = [("c0", "bug", ["acceso", "bug"])] + [(f"c{i}", "bug", ["bug", "bug"]) for i in range(1, n)]
    full = [(f"c{i}", "bug", ["bug", "bug"]) for i in range(n)]
    a = write_run(tmp_path / "hi.json", make_run(hi))
    b = write_run(tmp_path / "full.json", make_run(full))
    config, cases = evalpy.read_graded(a)
    rows = evalpy.report_rows(config, evalpy.report_score(a, config, cases))
    assert assert_off_the_ends(rows) >= 3   # bug's recall and f1, pass@1
    views, doc = views_of(cli, ("report", a), tmp_path)
    check_agree(rows, views, doc)
    assert re.search(r"\bbug\s+1\.00\s+0\.9998\s+0\.9999\s", views["text"]), views["text"]
    assert re.search(r"\b2\s+1\.00\s+0\.9995\s+2100", views["text"]), views["text"]   # pass^2: 2099/2100
    (a_cfg, a_cases), (b_cfg, b_cases) = evalpy.read_graded(a), evalpy.read_graded(b)
    c = evalpy.compare_runs(a_cfg, a_cases, b_cfg, b_cases)
    rows = evalpy.compare_rows(c, a, b)
    assert assert_off_the_ends(rows) >= 1
    views, doc = views_of(cli, ("compare", a, b), tmp_path)
    check_agree(rows, views, doc)
    for view in ("text", "markdown", "html"):
        assert not re.search(r"[+−]0\.0(?!\d)", views[view]), view
    assert "+0.02 points (95% CI −0.02 to +0.1)" in views["text"], views["text"]   # half a case in 2100: 0.024 points


def test_points_near_the_ends_keep_the_digits_that_tell_them_from_the_end():
    assert evalpy.signed_points(0.0003) == "+0.03"
    assert evalpy.signed_points(-0.0003) == "−0.03"
    assert evalpy.signed_points(0.99995) == "+99.995"
    assert evalpy.signed_points(-0.99995) == "−99.995"
    assert evalpy.signed_points(0.179) == "+17.9" and evalpy.signed_points(0) == "+0.0"
    assert evalpy.signed_points(1e-12) == "+<0.0001"
    assert evalpy.points(0.03) == "+0.03 pts" and evalpy.points(4.2) == "+4 pts" and evalpy.points(0.4) == "+0.4 pts"
    assert evalpy.points(99.996) == "+99.996 pts"
    # (round 107) a half away from zero, as the rates beside it: 11/16 = 69% -> 9/16 = 56% was "-12 pts"
    assert evalpy.points(100 * (9 / 16 - 11 / 16)) == "−13 pts" and evalpy.points(2.5) == "+3 pts"
    assert evalpy.percent(11 / 16) == "69%" and evalpy.percent(9 / 16) == "56%"
    assert evalpy.points(float("nan")) == "+nan pts" and evalpy.signed_points(float("nan")) == "+nan"   # shown, never raised
    assert evalpy.as_points(0.9999) == "99.99" and evalpy.as_points(0.1786) == "17.9"
    assert evalpy.as_points(0.00001) != "0" and evalpy.as_points(1) == "100"


def test_a_labels_run_with_no_answer_shows_no_baseline_in_any_view(project, cli, tmp_path):
    """Eighth attack on issue 28, item 12: a labels run whose every case is an error: the text left
    the majority baseline out ("no answers to score"), the markdown showed "Majority baseline (always
    `a`...) | 0/0 = -" and the page a baseline bar of nothing. Views only format the rows: none shows it."""
    path, rows, texts = views_of_a_run_down(cli, tmp_path)
    head = evalpy.section_of(rows, "headline")
    assert [r["name"] for r in head["rows"]] == ["main"]   # the rows, which every view formats
    assert "no answers to score" in texts["text"]
    for view, text in texts.items():
        assert "Majority baseline" not in text and "Majority: always" not in text, view


def views_of_a_run_down(cli, tmp_path):
    """The dev split's run whose every call failed: its path, its report's rows, and its text, markdown and page."""
    run = split_run("dev", {})
    for r in run["results"]:
        r.update(response=None, error="HTTP 500: down")
    path = write_run("runs/down.json", run)
    config, cases = evalpy.read_graded(path)
    rows = evalpy.report_rows(config, evalpy.report_score(path, config, cases))
    texts = {}
    for view, flags in (("text", []), ("markdown", ["--markdown"])):
        code, texts[view], err = cli("report", path, *flags)
        assert code == 0, err
    cli("report", path, "--html", tmp_path / "page.html", "--force")
    texts["html"] = (tmp_path / "page.html").read_text(encoding="utf-8")
    return path, rows, texts


def test_a_run_with_no_answer_shows_no_scored_table_and_no_figure_in_any_view(project, cli, tmp_path):
    """139th round's views: a run whose every answer errored: the text said "No answer was scored: no per-label,
    confusion, slice or failure table to show", where the page drew a per-label table of "-", a confusion matrix of
    zeros and "Failing cases (0) none", and the markdown "| Accuracy | 0/0 = - |", a figure no other view showed.
    The rows leave those sections out once; every view says so in the text's words."""
    path, rows, texts = views_of_a_run_down(cli, tmp_path)
    assert not {sec["key"] for sec in rows} & set(evalpy.SCORED_SECTIONS), rows
    for view, text in texts.items():
        assert evalpy.NOTHING_SCORED in text and "0/0" not in text, view
        assert "Per label" not in text and "Confusion" not in text and "Failing cases" not in text, view
    assert "| Accuracy | no answers to score | |" in texts["markdown"], texts["markdown"]


def test_an_annotation_holding_a_comma_is_one_entry_of_the_markdown_list(project, cli, tmp_path):
    """121st round: the markdown joins annotations with ", " beside their counts: "answered in Spanish (5), ignored
    the format (1), wrong label (1)" read as three annotations of two answers."""
    path = write_run("runs/v2.json", split_run("dev", V2_MISSES, prompt="prompts/v2.txt"))
    annotations = {"dev-09#1": "answered in Spanish (5), ignored the format", "dev-02#1": "wrong label"}
    Path(path + evalpy.ANNOTATIONS_SUFFIX).write_text(json.dumps({"format": evalpy.ANNOTATIONS_FORMAT, "annotations": {
        k: {"text": v, "time": "2026-01-02T10:00:00"} for k, v in annotations.items()}}), encoding="utf-8")
    views, doc = views_of(cli, ("report", path), tmp_path)
    assert (':** "answered in Spanish (5), ignored the format" (1), wrong label (1)' in views["markdown"]), views["markdown"]


def test_the_markdown_names_the_most_frequent_annotations_and_counts_the_rest(project, cli, tmp_path):
    """121st round: the markdown listed every annotation on one line (2,000 made a comment of 100,000 characters, past
    what GitHub takes); it names as many as it names failures, the most frequent, and counts the rest."""
    path = write_run("runs/v2.json", split_run("dev", V2_MISSES, prompt="prompts/v2.txt"))
    ids = [r["id"] for r in json.loads(Path(path).read_text(encoding="utf-8"))["results"]]
    Path(path + evalpy.ANNOTATIONS_SUFFIX).write_text(json.dumps({"format": evalpy.ANNOTATIONS_FORMAT, "annotations": {
        f"{i}#1": {"text": f"note {n}" if n else "common", "time": "2026-01-02T10:00:00"} for n, i in enumerate(ids)} | {
        f"{ids[0]}#1": {"text": "common", "time": "2026-01-02T10:00:00"}}}), encoding="utf-8")
    views, doc = views_of(cli, ("report", path), tmp_path)
    line = next(l for l in views["markdown"].splitlines() if l.startswith("**Annotations ("))
    assert line.count(" (1)") == evalpy.MARKDOWN_FAILURES and line.endswith(f", and {len(ids) - evalpy.MARKDOWN_FAILURES} more"), line
