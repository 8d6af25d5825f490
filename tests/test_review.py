"""Review: the trace viewer's server, its data and save endpoints, bad input, origin and path checks."""

import contextlib
import errno
import json
import shutil
import os
import signal
import socket
import subprocess
import sys
import threading
import time

import pytest
import requests
from pathlib import Path

from conftest import (HOSTILE, ROOT, V2_HOSTILE_MISSES, difficulties_alike, evalpy, load_json, make_run, others_stale_lock, split_run, write_run,
                      write_two_runs)


@pytest.fixture
def runs(project):
    """runs/dev-v2.json, whose dev-11 answer is markup, and runs/dev-v3.json, which fixes it."""
    return write_two_runs(V2_HOSTILE_MISSES)


@contextlib.contextmanager
def serving(review):
    """A review's server on a free port, in a thread, gone afterwards: its address."""
    httpd = evalpy.serve_review(review, 0)
    threading.Thread(target=httpd.serve_forever, args=(0.02,), daemon=True).start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()


@pytest.fixture
def server(runs):
    review = evalpy.Review(runs[1], against_path=runs[0])
    with serving(review) as url:
        yield url, review


def test_page_is_served_with_a_strict_policy(server):
    url, _ = server
    page = requests.get(url + "/")
    assert page.status_code == 200 and page.headers["Content-Type"].startswith("text/html")
    policy = page.headers["Content-Security-Policy"]
    assert "default-src 'none'" in policy and "script-src 'nonce-" in policy and "img-src 'none'" in policy
    assert "http://" not in page.text.replace(url, "") and "https://" not in page.text   # nothing from a CDN
    assert "innerHTML" not in page.text                                               # text only, never markup


def test_data_has_each_case_with_the_other_run(server):
    url, _ = server
    data = requests.get(url + "/data").json()
    assert data["run"] == "runs/dev-v3.json" and data["against"] == "runs/dev-v2.json" and data["changed"] is False
    items = {it["id"]: it for it in data["items"]}
    assert len(items) == 28
    fixed = items["dev-11"]
    assert fixed["change"] == "fixed" and fixed["other"]["response"] == HOSTILE and fixed["other"]["verdict"] == "fail"
    broken = items["dev-05"]
    assert broken["change"] == "regressed" and broken["verdict"] == "fail" and broken["predicted"] == "acceso"
    assert broken["system"].startswith("Trabajas en el equipo de soporte") and broken["input"]
    assert broken["checks"] == [{"name": "label", "ok": False}] and broken["latency_ms"] is not None


def test_the_thinking_is_shown_apart_and_answers_that_stopped_short_say_why(project):
    run = make_run([{"id": "a", "expected": "bug", "response": "<think>\nes un fallo\n</think>\nbug"},
                    {"id": "b", "expected": "bug", "response": "<think>\nsigo", "done_reason": "length"},
                    {"id": "c", "expected": "bug", "response": "bug", "thinking": "apart: es un fallo"},
                    ("d", "bug", "bug")])
    items = {i["id"]: i for i in evalpy.review_items(run)}
    assert items["a"]["thinking"] == "es un fallo" and items["a"]["verdict"] == "pass" and items["a"]["stopped"] == []
    assert items["b"]["thinking"] == "sigo" and items["b"]["predicted"] == "INVALID"
    assert items["b"]["stopped"] == ["thinking never finished", "stopped for length (a token limit or the window)"]
    assert items["c"]["thinking"] == "apart: es un fallo" and items["d"]["thinking"] is None
    text = evalpy.case_views(run, "c")[2]()
    assert "  thinking (sent apart; not scored):\n    apart: es un fallo\n  bug" in text
    assert "stopped for length (a token limit or the window: the report says which)" in evalpy.case_views(run, "b")[2]()


def test_the_filters_read_difficulties_and_tags_stored_alike_as_the_report_slices_them(project):
    """139th round's views: an older run's 'trap ' beside trap (café decomposed beside café) were two options alike in
    the difficulty filter, each picking half of trap's cases; so were its tags 'red-team ' and red-team."""
    cases = difficulties_alike()
    cases[1]["tags"], cases[0]["tags"] = ["red-team "], ["red-team", "inyeccio\u0301n", "inyecci\u00f3n"]
    items = evalpy.review_items(make_run(cases))
    assert [i["difficulty"] for i in items] == ["trap", "trap", "caf\u00e9", "caf\u00e9", "easy"]
    assert [i["tags"] for i in items[:3]] == [["red-team", "inyecci\u00f3n"], ["red-team"], []]


def test_an_annotation_is_saved_at_once_beside_the_run(server, project, runs):
    url, _ = server
    run_bytes = (project / runs[1]).read_bytes()
    answer = requests.post(url + "/annotations", json={"key": "dev-05#1", "text": "  confused  login with   billing "})
    assert answer.status_code == 200
    assert answer.json()["counts"] == [["confused login with billing", 1]]
    sidecar = load_json(runs[1] + ".annotations.json")
    assert sidecar["format"] == "eval.py-annotations/1"
    assert sidecar["annotations"]["dev-05#1"]["text"] == "confused login with billing"
    assert sidecar["annotations"]["dev-05#1"]["time"][:4].isdigit()
    assert (project / runs[1]).read_bytes() == run_bytes                 # the run file is never modified
    requests.post(url + "/annotations", json={"key": "dev-05#1", "text": ""})
    assert load_json(runs[1] + ".annotations.json")["annotations"] == {}   # an empty annotation removes it


def test_what_a_person_added_to_the_annotations_file_by_hand_is_kept_through_a_save(project, runs):
    """Thirty-eighth round on issue 28: a save in review wrote the file anew with its own fields alone: a key a
    person added at the top ("mine") and a field of their own on an annotation ("by") were gone."""
    review = evalpy.Review(runs[1])
    review.save({"key": "dev-05#1", "text": "confused login with billing"})
    path = project / (runs[1] + ".annotations.json")
    written = load_json(path)
    written["mine"] = {"reviewer": "alice"}
    written["annotations"]["dev-05#1"]["by"] = "alice"
    path.write_text(json.dumps(written))
    review.save({"key": "dev-09#1", "text": "answered with a sentence"})
    review.save({"key": "dev-05#1", "text": "confused login with billing, twice"})
    saved = load_json(path)
    assert saved["mine"] == {"reviewer": "alice"} and saved["annotations"]["dev-05#1"]["by"] == "alice", saved
    assert saved["annotations"]["dev-05#1"]["text"] == "confused login with billing, twice"
    # (39th round) a key of a person's own named "labels" (the older form's word) is theirs in the newer form too
    saved["labels"] = ["needs-triage"]
    path.write_text(json.dumps(saved))
    review.save({"key": "dev-09#1", "text": ""})
    assert load_json(path)["labels"] == ["needs-triage"]


def test_the_first_save_keeps_what_a_person_added_to_an_older_labels_file(project, runs):
    """Thirty-ninth round on issue 28: the first save from RUN.labels.json wrote the new file with the older one's
    annotations but without a key a person had added at its top ("reviewer")."""
    older = project / (runs[1] + ".labels.json")
    older.write_text(json.dumps({"format": "eval.py-labels/1", "run": "dev-v3.json", "reviewer": "alice", "labels": {
        "dev-05#1": {"label": "confused login with billing", "time": "2026-01-02T10:00:00+00:00", "by": "alice"}}}))
    evalpy.Review(runs[1]).save({"key": "dev-09#1", "text": "answered with a sentence"})
    saved = load_json(runs[1] + ".annotations.json")
    assert saved["reviewer"] == "alice" and saved["annotations"]["dev-05#1"]["by"] == "alice", saved


def test_an_older_labels_sidecar_is_read_and_never_written(project, runs, cli):
    """Before annotations had their own word, review wrote RUN.labels.json ({"labels": {key: {"label"}}}):
    report and review read it as the same; review's first save writes RUN.annotations.json with its
    annotations and the new one, and leaves the older file byte for byte as it was."""
    older = project / (runs[1] + ".labels.json")
    older.write_text(json.dumps({"format": "eval.py-labels/1", "run": "dev-v3.json", "labels": {
        "dev-05#1": {"label": "confused login with billing", "time": "2026-01-02T10:00:00+00:00"}}}))
    before = older.read_bytes()
    s = json.loads(cli("report", runs[1], "--json")[1])
    assert s["annotations"]["counts"] == [["confused login with billing", 1]]
    assert s["annotations"]["file"] == runs[1] + ".labels.json"
    review = evalpy.Review(runs[1])
    assert review.data()["items"][[i["key"] for i in review.items].index("dev-05#1")]["annotation"]["text"] == \
        "confused login with billing"
    review.save({"key": "dev-09#1", "text": "answered with a sentence"})
    saved = load_json(runs[1] + ".annotations.json")["annotations"]
    assert {k: v["text"] for k, v in saved.items()} == {"dev-05#1": "confused login with billing",
                                                       "dev-09#1": "answered with a sentence"}
    assert saved["dev-05#1"]["time"] == "2026-01-02T10:00:00+00:00"   # carried over as it was
    assert older.read_bytes() == before
    s = json.loads(cli("report", runs[1], "--json")[1])
    assert s["annotations"]["file"] == runs[1] + ".annotations.json" and len(s["annotations"]["counts"]) == 2


def test_a_dangling_link_in_the_new_name_never_hides_the_older_annotations(project, runs, cli):
    """From the attack on the rename: RUN.annotations.json a link to nothing made report show no
    annotations and review's first save drop the older file's; the older file is read, and the save
    replaces the link (never its target) with a file holding both."""
    older = project / (runs[1] + ".labels.json")
    older.write_text(json.dumps({"format": "eval.py-labels/1", "labels": {"dev-05#1": {"label": "kept", "time": "t"}}}))
    (project / (runs[1] + ".annotations.json")).symlink_to("nowhere.json")
    assert json.loads(cli("report", runs[1], "--json")[1])["annotations"]["counts"] == [["kept", 1]]
    evalpy.Review(runs[1]).save({"key": "dev-09#1", "text": "new"})
    saved = load_json(runs[1] + ".annotations.json")["annotations"]
    assert sorted(entry["text"] for entry in saved.values()) == ["kept", "new"]
    assert not (project / "runs" / "nowhere.json").exists() and not (project / "nowhere.json").exists()


def test_a_dangling_link_as_the_only_annotations_is_one_line_never_replaced(project, runs, cli):
    """From the second attack on issue 28: RUN.annotations.json a link to nothing (its target on a
    share not mounted) was read as no annotations without a word, and review's next save replaced
    the link. It is named with its target, exit 2, and left as it is."""
    link = project / (runs[1] + ".annotations.json")
    link.symlink_to("gone/annotations.json")
    for argv in (["report", runs[1]], ["report", runs[1], "--json"], ["report", runs[1], "--markdown"]):
        code, out, err = cli(*argv)
        assert code == 2 and err == (f"error: {runs[1]}.annotations.json: a link to gone/annotations.json, which "
                                     "does not exist; fix the link or remove it\n"), (argv, err)
    with pytest.raises(evalpy.EvalError, match="a link to gone/annotations.json, which does not exist"):
        evalpy.Review(runs[1]).save({"key": "dev-09#1", "text": "new"})
    assert link.is_symlink() and os.readlink(link) == "gone/annotations.json"


def test_concurrent_saves_lose_nothing(server, runs):
    url, _ = server
    keys = [f"dev-{i:02d}#1" for i in range(1, 26)]
    barrier = threading.Barrier(len(keys))

    def save(key):
        session = requests.Session()
        barrier.wait()
        assert session.post(url + "/annotations", json={"key": key, "text": f"kind {int(key[4:6]) % 3}"}).status_code == 200
    threads = [threading.Thread(target=save, args=(k,)) for k in keys]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    annotations = load_json(runs[1] + ".annotations.json")["annotations"]
    assert sorted(annotations) == keys
    assert not [p for p in os.listdir("runs") if p.endswith(".lock")]   # issue 31: no lock file left behind
    assert requests.get(url + "/data").json()["counts"] == [["kind 1", 9], ["kind 0", 8], ["kind 2", 8]]


@pytest.mark.parametrize("body, message", [
    (b"not json", "the body is not one JSON object (bad JSON: Expecting value"),   # (53rd) said of the body
    (b"\xff{}", "the body is not one JSON object (not UTF-8)"),
    (json.dumps({"key": "dev-99#1", "text": "x"}).encode(), "\"key\" 'dev-99#1' names no answer of this run"),
    (json.dumps({"key": "dev-01#1"}).encode(), '"text" is missing (a text)'),
    (json.dumps({"key": "dev-01#1", "text": 3}).encode(), '"text" is a number, not a text'),
    (json.dumps({"key": "dev-01#1", "label": "x"}).encode(), '"text" is missing'),   # the field is text
    (json.dumps(["dev-01#1", "x"]).encode(), "the body is a list, not an object: send {"),
    # issue 28, item 19: a key that cannot be looked up (a list, an object) was a 500
    (json.dumps({"key": ["dev-01#1"], "text": "x"}).encode(), '"key" is a list, not a text'),
    (json.dumps({"key": {"dev-01#1": 1}, "text": "x"}).encode(), '"key" is an object, not a text'),
    (json.dumps({"key": 1, "text": "x"}).encode(), '"key" is a number, not a text'),
    # (round 104) each refusal names the field at fault and what it holds; the shape is said after it
    (json.dumps({"key": "dev-01#2", "text": "x"}).encode(), "names no answer of this run (\"<case id>#<trial>\")"),
    (json.dumps({"key": "dev-01#1", "text": "x", "was": 0}).encode(), '"was" is a number, not a text'),
    (json.dumps({"key": "dev-01#1", "text": "x" * 201}).encode(), "at most 200 characters"),
    (b"", "small JSON object"),
    # (round 108) a body past the size was "must be a small JSON object, with its length in digits", its length in digits
    (b"{" + b" " * 5000 + b"}", "the body is 5,002 bytes, past the "),
])
def test_bad_saves_are_refused(server, runs, body, message):
    url, _ = server
    answer = requests.post(url + "/annotations", data=body, headers={"Content-Type": "application/json"})
    assert answer.status_code == 400 and message in answer.json()["error"]


@pytest.mark.parametrize("path", ["/../runs/dev-v3.json", "/runs/dev-v3.json", "/etc/passwd", "/data/../annotations", "/labels",
                                  "/%2e%2e/eval.py", "/index.html", "/favicon.ico", "//data", "///data", "//"])
def test_only_the_page_and_its_data_are_served(server, path):
    """(round 107) //data was served: http.server makes it /data before the handler reads it."""
    url, _ = server
    assert requests.get(url + path).status_code == 404
    # (126th round) and which review serves the page now: its token, that a late answer of another is told by
    served = requests.get(url + "/served")
    assert served.status_code == 200 and served.json() == {"served": requests.get(url + "/data").json()["served"]}
    if path.endswith("//data"):
        assert requests.post(url + path.replace("data", "annotations"), json={"key": "dev-01#1", "text": "x"},
                             headers={"Origin": url}).status_code == 404


def test_foreign_origins_and_hosts_are_refused(server):
    url, _ = server
    port = url.rsplit(":", 1)[1]
    assert requests.post(url + "/annotations", json={"key": "dev-01#1", "text": "x"},
                         headers={"Origin": "http://evil.example"}).status_code == 403
    assert requests.get(url + "/data", headers={"Origin": "http://localhost:1"}).status_code == 403
    assert requests.get(url + "/data", headers={"Host": f"evil.example:{port}"}).status_code == 403   # DNS rebinding
    assert requests.get(url + "/data", headers={"Origin": f"http://localhost:{port}"}).status_code == 200
    # (round 110) a second Host or Origin behind ours was let by unread
    for second in (f"Host: evil.example:{port}", "Origin: http://evil.example"):
        with socket.create_connection(("127.0.0.1", int(port)), timeout=5) as s:
            s.sendall(f"GET /data HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nOrigin: http://127.0.0.1:{port}\r\n"
                      f"{second}\r\nConnection: close\r\n\r\n".encode())
            status = s.recv(100).split(b"\r\n")[0]
            assert b" 403 " in status, (second, status)
    # (round 108) any other method: a 405 saying which are taken, after the Host and Origin (a 501 page, unlooked at)
    for method in ("PUT", "DELETE", "OPTIONS", "PATCH", "HEAD", "PROPFIND", "FOO"):
        answer = requests.request(method, url + "/annotations")
        assert answer.status_code == 405 and answer.headers["Allow"] == "GET, POST", (method, answer.status_code)
        assert (answer.content == b"") == (method == "HEAD"), method   # (a HEAD's answer holds no body)
        assert requests.request(method, url + "/annotations", headers={"Origin": "http://evil.example"}).status_code == 403


def test_a_run_given_by_a_long_path_takes_any_note_the_box_takes(project):
    """125th round: the page sends the run's path as given with each save, and the limit left it out: a run given by a
    path of 3,295 bytes had 200 emoji refused as "the body is 4,218 bytes, past the 4,144 an annotation's save takes"."""
    deep = os.path.join(*["d" * 200] * 16, "r.json")
    os.makedirs(os.path.dirname(deep))
    path = write_run(deep, make_run([("c1", "bug", "acceso"), ("c2", "bug", "bug")]))
    review = evalpy.Review(path)
    with serving(review) as url:
        data = requests.get(url + "/data").json()
        body = json.dumps({"key": "c1#1", "text": "\U0001f600" * evalpy.MAX_ANNOTATION, "was": "",
                           "run_sha": data["run_sha"], "run": data["run"]}).encode()   # (as the page's JSON.stringify)
        assert len(body) > 4096 + 6 * len("c1#1")   # (past what the limit took before)
        answer = requests.post(url + "/annotations", data=body, headers={"Content-Type": "application/json"})
        assert answer.status_code == 200, answer.text
        assert evalpy.Review(path).annotations()[0]["c1#1"]["text"] == "\U0001f600" * evalpy.MAX_ANNOTATION


def test_a_run_whose_path_is_not_utf8_takes_the_saves_of_its_page(project):
    """138th round: a run named r\xff.json (or in a folder of a byte not UTF-8) opened in review, and every save of its
    page was refused, '"run" holds \\udcff, half of a character': the page sends back the path /data gave it, which holds
    the byte as half a character. The run is compared as a path (same_file); another such name is another run."""
    name = os.fsdecode(b"r\xff.json")
    try:
        path = write_run(name, make_run([("c1", "bug", "acceso"), ("c2", "bug", "bug")]))
    except (OSError, UnicodeError):
        pytest.skip("this file system refuses a file name that is not UTF-8")
    with serving(evalpy.Review(path)) as url:
        data = requests.get(url + "/data", timeout=10).json()
        assert data["run"] == name
        save = {"key": "c1#1", "text": "wrong label", "was": "", "run_sha": data["run_sha"], "run": data["run"]}
        answer = requests.post(url + "/annotations", json=save, timeout=10)   # (json.dumps: "\udcff", as the page sends it)
        assert answer.status_code == 200, answer.text
        assert evalpy.Review(path).annotations()[0]["c1#1"]["text"] == "wrong label"
        # a path that is not this run's, of such a byte or of half a character no file name holds, is another page's run
        for other in (os.fsdecode(b"q\xff.json"), "r\ud800.json"):
            answer = requests.post(url + "/annotations", json=dict(save, run=other, was="wrong label"), timeout=10)
            assert answer.status_code == 412 and "this page shows another run" in answer.json()["error"], answer.text
        # the text is still held to what a text must be
        answer = requests.post(url + "/annotations", json=dict(save, text="z\udcff", was="wrong label"), timeout=10)
        assert answer.status_code == 400 and '"text" holds \\udcff' in answer.json()["error"], answer.text


def test_a_long_note_another_tab_shortened_is_answered_as_another_pages_save(project):
    """127th round: a hand-written note of 5,000 characters, shown, then shortened by another tab: this tab's save sent
    the long note back as what it showed, past a limit read from the file as it is now, and was refused for its size
    ("the body is 5,152 bytes") for good, never told another page saved. The limit takes the longest note the review
    read."""
    path = write_run("runs/r.json", make_run([("c1", "bug", "acceso"), ("c2", "bug", "bug")]))
    long = "long " * 1000
    Path(path + ".annotations.json").write_text(json.dumps({"format": evalpy.ANNOTATIONS_FORMAT, "run_sha":
        evalpy.sha256_bytes(Path(path).read_bytes()), "annotations": {"c1#1": {"text": long.strip(), "time": "t"}}}))
    review = evalpy.Review(path)
    with serving(review) as url:
        data = requests.get(url + "/data").json()
        def save(text, was):
            return requests.post(url + "/annotations", json={"key": "c1#1", "text": text, "was": was,
                                                              "run_sha": data["run_sha"], "run": data["run"]})
        assert save("short by tab2", long.strip()).status_code == 200
        answer = save("short by tab1", long.strip())
        assert answer.status_code == 409 and "short by tab2" in answer.text, answer.text


def test_a_save_held_on_the_way_never_lands_after_a_restart_or_from_another_page(project):
    """129th round: the table of saves taken (page, seq) lived in memory, and the guard compared texts: "A" on file, "X"
    held by a proxy, "A" saved again; review started again (or the page reloaded: a new page), the held "X" came with
    was=A, the file held A, and it was written over the later save. Each note keeps a revision in the annotations file
    that every write changes; a save that names another than the current one is another page's change, whatever its
    text was. A file and a client without revisions are checked by text, as before."""
    path = write_run("runs/r.json", make_run([("c1", "bug", "acceso"), ("c2", "bug", "bug")]))
    review = evalpy.Review(path)
    first = review.save({"key": "c1#1", "text": "A", "was": ""})["annotation"]
    for given_up in ("X", ""):   # (a removal alike)
        held = {"key": "c1#1", "text": given_up, "was": "A", "was_rev": first["rev"]}
        again = review.save({"key": "c1#1", "text": "A", "was": "A", "was_rev": first["rev"]})["annotation"]
        assert again["rev"] != first["rev"]
        with pytest.raises(evalpy.AnnotationChanged) as e:
            evalpy.Review(path).save(held)   # (a review started again, or another page: nothing of it in memory)
        assert str(e.value) == ("'A' was saved again for this answer since this page showed it (by another page, or by "
                                "this one in a later save: this one was held on the way); nothing was saved: save again "
                                "to replace it"), str(e.value)
        assert e.value.annotation == again and evalpy.Review(path).annotations()[0]["c1#1"] == again
        first = again
    # the same text as on file undoes nothing: taken (a save that reached the review twice)
    assert evalpy.Review(path).save({"key": "c1#1", "text": "A", "was": "B", "was_rev": 999})["annotation"]["text"] == "A"
    # a note removed and written again never takes a revision it had: a save held before the removal is refused
    now = evalpy.Review(path).annotations()[0]["c1#1"]
    evalpy.Review(path).save({"key": "c1#1", "text": "", "was": "A", "was_rev": now["rev"]})
    assert evalpy.Review(path).save({"key": "c1#1", "text": "A", "was": ""})["annotation"]["rev"] > now["rev"]
    # an older file's notes (no revision) and a client that sends none: by text, as before
    Path(path + ".annotations.json").write_text(json.dumps({"format": evalpy.ANNOTATIONS_FORMAT, "annotations": {
        "c1#1": {"text": "old", "time": "t"}}}))
    assert evalpy.Review(path).save({"key": "c1#1", "text": "new", "was": "old"})["annotation"]["text"] == "new"
    with pytest.raises(evalpy.AnnotationChanged):
        evalpy.Review(path).save({"key": "c1#1", "text": "newer", "was": "old"})


def test_a_save_of_the_text_on_file_is_a_new_revision_so_a_held_save_is_refused(project):
    """130th round: a save of the text already on file, answered "saved" without a write (its revision kept, so that a
    late copy of a page's own save would not refuse that page's next one), let a save another page had sent before it,
    naming that revision and held on the way, land over it: "X" saved by a page that showed no note, then a removal
    held since before it landed, and the file held none. Every save that is taken is written as a new revision, so a
    save sent before it is refused when it lands (a late copy of a page's own save refuses that page's next save once:
    saved again, it goes through)."""
    path = write_run("runs/r.json", make_run([("c1", "bug", "acceso"), ("c2", "bug", "bug")]))
    x = evalpy.Review(path).save({"key": "c1#1", "text": "X", "was": ""})["annotation"]
    held = {"key": "c1#1", "text": "", "was": "X", "was_rev": x["rev"]}   # sent, and held on the way
    for same in ({"key": "c1#1", "text": "X", "was": ""},   # another page, that showed no note
                 {"key": "c1#1", "text": "X", "was": "A", "was_rev": x["rev"] - 1}):   # one that showed an older one
        saved = evalpy.Review(path).save(same)["annotation"]
        assert saved["text"] == "X" and saved["rev"] > x["rev"]
        with pytest.raises(evalpy.AnnotationChanged):
            evalpy.Review(path).save(held)
        assert evalpy.Review(path).annotations()[0]["c1#1"] == saved
        x = saved
        held = dict(held, was_rev=x["rev"])


def test_a_late_copy_of_a_pages_own_save_is_answered_as_that_save_and_never_refuses_the_next(server, runs):
    """131st round: a late copy of a page's own save (a browser or a proxy sending a POST again whose answer was lost)
    was taken as a save of the text on file and written as a new revision, so the page's next save, naming the revision
    it had been answered, was refused ("'X' was saved again ... this one was held on the way"): a false refusal. Each
    save carries an id of its own ("save_id", the same in every copy of it) that the note it writes keeps; a copy
    of the save that wrote the note on file is answered with that note, nothing written. A save held on the way under
    another id is still refused, and a copy of a save whose note was replaced since is refused like any held save."""
    url, review = server
    sidecar = runs[1] + ".annotations.json"

    def save(**body):
        return requests.post(url + "/annotations", json={"key": "dev-05#1", **body}, timeout=10)
    first = save(text="A", was="", save_id="s1").json()["annotation"]
    sent = {"text": "X", "was": "A", "was_rev": first["rev"], "save_id": "s2"}
    x = save(**sent)
    assert x.status_code == 200, x.text
    on_file = Path(sidecar).read_bytes()
    again = save(**sent)   # (the copy, landing after the page was answered)
    assert again.status_code == 200 and again.json()["annotation"] == x.json()["annotation"], again.text
    assert Path(sidecar).read_bytes() == on_file
    y = save(text="Y", was="X", was_rev=x.json()["annotation"]["rev"], save_id="s3")   # (the page's next save)
    assert y.status_code == 200 and y.json()["annotation"]["text"] == "Y", y.text
    for held in ({"text": "", "was": "X", "was_rev": x.json()["annotation"]["rev"], "save_id": "s4"},   # another id
                 sent):   # (a copy of a save whose note was replaced since)
        late = save(**held)
        assert late.status_code == 409 and late.json()["annotation"]["text"] == "Y", late.text
    assert load_json(sidecar)["annotations"]["dev-05#1"]["text"] == "Y"
    # an older file's note (no id), and a client that sends none: as before
    stored = load_json(sidecar)
    stored["annotations"]["dev-05#1"] = {"text": "old", "time": "t"}
    Path(sidecar).write_text(json.dumps(stored))
    assert save(text="new", was="old", save_id="s5").status_code == 200
    assert save(text="newer", was="new").json()["annotation"]["text"] == "newer"
    assert save(text="x", was="newer", save_id=5).json()["error"].startswith('"save_id" is a number, not a text')
    assert save(text="x", was="newer", save_id="i" * 65).json()["error"].startswith('"save_id" is 65 characters, past 64')


def test_a_held_save_of_the_text_a_later_save_put_on_file_is_refused_and_never_refuses_the_next(server, runs):
    """131st round: a page's save of "A" held on the way (id s1, showing no note), then "B" and "A" again saved from
    it (a new id, rev 2); the held copy landed and was taken, its text being on file, written as rev 3 under s1: the
    page's next save, naming rev 2, was refused ("'A' was saved again ... held on the way"), a false refusal. A save
    that carries an id, named from a note (or none) older than the one on file, is held on the way, or from a page
    that has not seen the note: refused, nothing written, whatever its text, and the page's next save goes through.
    A client that sends no id is taken as before."""
    url, review = server
    sidecar = runs[1] + ".annotations.json"

    def save(**body):
        return requests.post(url + "/annotations", json={"key": "dev-05#1", **body}, timeout=10)
    held = {"text": "A", "was": "", "was_rev": None, "save_id": "s1"}   # (sent, and held on the way)
    b = save(text="B", was="", was_rev=None, save_id="s2").json()["annotation"]
    a = save(text="A", was="B", was_rev=b["rev"], save_id="s3").json()["annotation"]
    on_file = Path(sidecar).read_bytes()
    late = save(**held)
    assert late.status_code == 409 and late.json()["annotation"] == a, late.text
    assert late.json()["error"] == ("'A' was saved for this answer since this page showed none (by another page, or by "
                                    "this one in a later save: this one was held on the way); nothing was saved: the "
                                    "note on file is the text sent"), late.text
    assert Path(sidecar).read_bytes() == on_file
    c = save(text="C", was="A", was_rev=a["rev"], save_id="s4")   # (the page's next save)
    assert c.status_code == 200 and c.json()["annotation"]["text"] == "C", c.text
    # named from an older note alike; a client that sends no id: taken, a new revision, as before
    assert save(text="C", was="A", was_rev=a["rev"], save_id="s5").status_code == 409
    assert save(text="C", was="A", was_rev=a["rev"]).json()["annotation"]["rev"] > c.json()["annotation"]["rev"]


def test_a_save_held_from_before_a_removal_never_brings_the_note_back(server, runs):
    """131st round: a page's save of "A" held on the way (showing no note), "A" saved again from it (rev 1), then
    removed: the held save landed, named from no note where none was on file, and was written: the removed note came
    back (report counted it). A removal leaves its revision in the file ("removed": {key: {"rev", "time", "save_id"}}),
    sent to the page, which names it where it shows no note: a save sent before the removal is refused where it lands,
    the page's next save goes through, and report counts no removed note. A copy of the removal is answered as it."""
    url, review = server
    sidecar = runs[1] + ".annotations.json"

    def save(**body):
        return requests.post(url + "/annotations", json={"key": "dev-05#1", **body}, timeout=10)
    held = {"text": "A", "was": "", "was_rev": None, "save_id": "s1"}   # (sent, and held on the way)
    a = save(**held).json()["annotation"]   # (the page saves "A" again: the same id, its first unanswered)
    removal = {"text": "", "was": "A", "was_rev": a["rev"], "save_id": "s2"}
    gone = save(**removal)
    assert gone.status_code == 200 and gone.json()["annotation"] is None, gone.text
    rev = gone.json()["removed"]["dev-05#1"]
    assert rev > a["rev"] and load_json(sidecar)["removed"]["dev-05#1"]["rev"] == rev
    assert requests.get(url + "/data", timeout=10).json()["removed"] == {"dev-05#1": rev}
    assert save(**removal).status_code == 200   # (a copy of the removal)
    on_file = Path(sidecar).read_bytes()
    late = save(**held)
    assert late.status_code == 409 and late.json()["annotation"] is None, late.text
    assert late.json()["error"] == ("an annotation of this answer was saved and removed since this page showed none (by "
                                    "another page, or by this one in later saves: this one was held on the way); nothing "
                                    "was saved: save again to save yours"), late.text
    assert late.json()["removed"] == {"dev-05#1": rev}
    assert Path(sidecar).read_bytes() == on_file
    assert "dev-05#1" not in evalpy.run_annotations(runs[1])[0]   # (what report and compare count)
    b = save(text="B", was="", was_rev=rev, save_id="s3")   # (the page's next save, naming the removal)
    assert b.status_code == 200 and b.json()["annotation"]["text"] == "B" and b.json()["removed"] == {}, b.text
    assert "removed" not in load_json(sidecar)
    # a client that sends neither a revision nor an id: by text, as before
    save(text="", was="B")
    assert save(text="C", was="").json()["annotation"]["text"] == "C"


def test_a_page_told_of_a_removal_the_file_no_longer_holds_has_its_next_save_taken(server, runs):
    """131st round: a page told of a removal at rev 4, its annotations file then moved aside (or an older copy put back:
    revisions start lower), had each save refused "an annotation of this answer was saved and removed since this page
    showed none", untrue, and for ever: it kept the higher revision. The refusal says the file holds an older removal
    than the page was told of, and sends the file's; named, the next save goes through."""
    url, review = server
    sidecar = runs[1] + ".annotations.json"

    def save(**body):
        return requests.post(url + "/annotations", json={"key": "dev-05#1", **body}, timeout=10)
    rev = None
    for n, text in enumerate(["A", "", "A2", ""]):   # (saved and removed twice: the removal at rev 4)
        answer = save(text=text, was="" if text else ["A", "A2"][n // 2], was_rev=rev, save_id=f"s{n}").json()
        rev = answer["annotation"]["rev"] if text else answer["removed"]["dev-05#1"]
    assert rev == 4
    os.rename(sidecar, sidecar + ".old")   # (the annotations started over)
    b = save(text="B", was="", was_rev=rev, save_id="s5")
    assert b.status_code == 200, b.text
    gone = save(text="", was="B", was_rev=b.json()["annotation"]["rev"], save_id="s6")
    assert gone.json()["removed"] == {"dev-05#1": 2}, gone.text
    on_file = Path(sidecar).read_bytes()
    c = save(text="C", was="", was_rev=rev, save_id="s7")   # (named from the removal the page was told of first)
    assert c.status_code == 409 and c.json()["removed"] == {"dev-05#1": 2}, c.text
    assert c.json()["error"] == ("the annotations file holds an older removal of this answer's note than the one this page "
                                 "was told of (was the file moved aside, or an older copy put back?); nothing was saved: "
                                 "save again to save yours"), c.text
    assert Path(sidecar).read_bytes() == on_file
    c = save(text="C", was="", was_rev=c.json()["removed"]["dev-05#1"], save_id="s8")
    assert c.status_code == 200 and c.json()["annotation"]["text"] == "C", c.text


def test_a_note_older_than_the_one_the_page_named_is_said_older(server, runs):
    """131st round: an older copy of the annotations file put back, a save named from a later revision than the file's
    for its answer was refused as a later save's doing: 'B' saved, the file copied, removed (rev 2), the copy put back,
    a save named from that removal was "another page saved 'B' for this answer since this page showed none"; 'A', 'B',
    the file copied, 'X', the copy put back, a save named from 'X' was "another page saved 'B' ... since this page
    showed 'X'", untrue: 'B' was saved before. The refusal says the file holds an older note (or removal) than the
    page named, sends the file's, and the save named from it, as the cure says, goes through."""
    url, review = server
    sidecar = runs[1] + ".annotations.json"

    def save(key, text, was, was_rev, save_id):
        return requests.post(url + "/annotations", timeout=10, json={"key": key, "text": text, "was": was,
                                                                     "was_rev": was_rev, "save_id": save_id})
    older = " (was the file moved aside, or an older copy put back?); nothing was saved: "
    cases = [   # (its saves before the copy, after it, the save then refused, its refusal's words)
        ("dev-05#1", ["B"], [""], ("D", ""),
         "the annotations file holds an older note of this answer ('B') than the removal this page was told of" + older
         + "save again to replace it"),
        ("dev-06#1", ["A", "B"], ["X"], ("Y", "X"),
         "the annotations file holds an older note of this answer ('B') than the note this page showed ('X')" + older
         + "save again to replace it"),
        ("dev-07#1", ["A", ""], ["X"], ("Y", "X"),
         "the annotations file holds an older removal of this answer's note than the note this page showed ('X')" + older
         + "save again to save yours"),
        ("dev-08#1", ["B"], ["X"], ("B", "X"),
         "the annotations file holds an older note of this answer ('B') than the note this page showed ('X')" + older
         + "the note on file is the text sent"),
        ("dev-09#1", ["B"], ["X", "B"], ("Y", "B"),
         "the annotations file holds an older note of this answer ('B') than the later save of it this page showed" + older
         + "save again to replace it")]
    for key, before, after, (text, was), error in cases:
        shown, rev = "", None
        for n, note in enumerate(before + ["copy"] + after):
            if note == "copy":
                shutil.copy(sidecar, sidecar + ".old")
                continue
            answer = save(key, note, shown, rev, f"{key}-{n}").json()
            shown, rev = note, answer["annotation"]["rev"] if note else answer["removed"][key]
        assert shown == was
        shutil.copy(sidecar + ".old", sidecar)   # (an older copy put back)
        on_file = Path(sidecar).read_bytes()
        refused = save(key, text, was, rev, f"{key}-late")
        assert refused.status_code == 409 and refused.json()["error"] == error, refused.text
        assert Path(sidecar).read_bytes() == on_file
        # (the cure followed: the page takes the file's note, or its removal, and saves again from it)
        note = refused.json()["annotation"]
        again = save(key, "Z", note["text"] if note else "", note["rev"] if note else refused.json()["removed"][key],
                     f"{key}-again")
        assert again.status_code == 200 and again.json()["annotation"]["text"] == "Z", again.text


def test_removing_a_note_where_none_is_on_file_writes_nothing(server, runs):
    """131st round: an empty save where no note was ever on file (a page that showed its save refused, then cleared the
    field) was written as a removal, and another page's first save was refused ("an annotation of this answer was saved
    and removed since this page showed none"), untrue. Removing nothing is answered as done, nothing written."""
    url, review = server
    sidecar = runs[1] + ".annotations.json"

    def save(**body):
        return requests.post(url + "/annotations", json=body, timeout=10)
    assert save(key="dev-11#1", text="X", was="", was_rev=None, save_id="o1").status_code == 200
    on_file = Path(sidecar).read_bytes()
    nothing = save(key="dev-05#1", text="", was="", was_rev=None, save_id="e1")
    assert nothing.status_code == 200 and nothing.json()["annotation"] is None, nothing.text
    assert nothing.json()["removed"] == {} and Path(sidecar).read_bytes() == on_file
    b = save(key="dev-05#1", text="B", was="", was_rev=None, save_id="p2")   # (another page's first save)
    assert b.status_code == 200 and b.json()["annotation"]["text"] == "B", b.text


def test_removing_a_note_another_page_removed_is_answered_as_done(server, runs):
    """132nd round: two pages showed the note X; one removed it, then the other removed it too and was refused, 409 "no
    annotation is stored for this answer, though this page showed 'X' ...; nothing was saved: none is stored, as this
    save asked", where the same save after a removal by hand (no removal record) was answered "removed", as README says
    of an empty save where no note is on file. It writes nothing, so it can neither bring back nor lose a note (a late
    copy of an older removal alike): answered as done, with the file's removal, which the page's next save names."""
    url, review = server
    sidecar = runs[1] + ".annotations.json"

    def save(key, text, was, was_rev, save_id):
        return requests.post(url + "/annotations", timeout=10, json={"key": key, "text": text, "was": was,
                                                                     "was_rev": was_rev, "save_id": save_id})
    x = save("dev-05#1", "X", "", None, "p1").json()["annotation"]
    gone = save("dev-05#1", "", "X", x["rev"], "p2")   # (another page removes it)
    rev = gone.json()["removed"]["dev-05#1"]
    on_file = Path(sidecar).read_bytes()
    again = save("dev-05#1", "", "X", x["rev"], "p3")   # (this page removes it too)
    assert again.status_code == 200 and again.json()["annotation"] is None, again.text
    assert again.json()["removed"] == {"dev-05#1": rev} and Path(sidecar).read_bytes() == on_file
    b = save("dev-05#1", "B", "", rev, "p4")   # (the page's next save, naming the removal it was sent)
    assert b.status_code == 200 and b.json()["annotation"]["text"] == "B", b.text
    # a late copy of the first removal, the note saved and removed again since: nothing written, the later removal kept
    later = save("dev-05#1", "", "B", b.json()["annotation"]["rev"], "p5").json()["removed"]["dev-05#1"]
    on_file = Path(sidecar).read_bytes()
    late = save("dev-05#1", "", "X", x["rev"], "p2")
    assert late.status_code == 200 and late.json()["removed"] == {"dev-05#1": later}, late.text
    assert Path(sidecar).read_bytes() == on_file
    # an older copy of the file put back, holding an older removal than the note the page shows: nothing to lose
    y = save("dev-06#1", "Y", "", None, "q1").json()["annotation"]
    gone = save("dev-06#1", "", "Y", y["rev"], "q2").json()["removed"]["dev-06#1"]
    shutil.copy(sidecar, sidecar + ".old")
    y = save("dev-06#1", "Y2", "", gone, "q3").json()["annotation"]
    shutil.copy(sidecar + ".old", sidecar)
    on_file = Path(sidecar).read_bytes()
    removed = save("dev-06#1", "", "Y2", y["rev"], "q4")
    assert removed.status_code == 200 and removed.json()["annotation"] is None, removed.text
    assert Path(sidecar).read_bytes() == on_file


def test_the_pages_data_sends_the_removals_read_with_its_notes(server, runs, monkeypatch):
    """131st round: the page's data sent its notes from one read of the annotations file and the removals from whatever
    read was last, another thread's (a save's, answered meanwhile): notes of one file and removals of another. Both
    come from one read. (The saves are made where data() is between its read and its answer.)"""
    url, review = server

    def save(**body):
        return requests.post(url + "/annotations", json={"key": "dev-05#1", **body}, timeout=10)
    a = save(text="A", was="", was_rev=None, save_id="s1").json()["annotation"]
    rev = save(text="", was="A", was_rev=a["rev"], save_id="s2").json()["removed"]["dev-05#1"]
    notes_note = review.versions_note

    def saves_meanwhile(other_versions):   # (another page's saves, answered by the server's threads)
        b = save(text="B", was="", was_rev=rev, save_id="p1").json()["annotation"]
        save(text="", was="B", was_rev=b["rev"], save_id="p2")   # (its read the last: B on file, no removal)
        return notes_note(other_versions)
    monkeypatch.setattr(review, "versions_note", saves_meanwhile)
    data = review.data()
    assert next(item for item in data["items"] if item["key"] == "dev-05#1")["annotation"] is None
    assert data["removed"] == {"dev-05#1": rev}


@pytest.mark.parametrize("case_id", ["漢" * 1400, "id\udfff", "x" * 5000], ids=["4200-bytes", "lone-surrogate", "5000-ascii"])
def test_any_case_the_page_shows_can_be_annotated(project, case_id):
    """Fifty-second round on issue 28: a case of a long id (over 4 KB in UTF-8), or one holding a lone surrogate (a run
    file may: its JSON escapes it), was shown on the page, and its annotation refused ("the body must be a small JSON
    object", "half of a character"): the limit counted the key, and the key was held to what a text must be."""
    path = write_run("runs/r.json", make_run([(case_id.replace("\udfff", "\u2603"), "bug", "bug"), ("c2", "bug", "acceso")]))
    text = Path(path).read_text(encoding="utf-8")   # (as a file holds a lone surrogate: escaped)
    Path(path).write_text(text.replace("\u2603", "\\udfff").replace("\\u2603", "\\udfff"), encoding="utf-8")
    review = evalpy.Review(path)
    with serving(review) as url:
        key = requests.get(url + "/data").json()["items"][0]["key"]
        assert key == case_id + "#1"
        body = json.dumps({"key": key, "text": "y" * evalpy.MAX_ANNOTATION}).encode()   # as the page's JSON.stringify sends it
        answer = requests.post(url + "/annotations", data=body, headers={"Content-Type": "application/json"})
        assert answer.status_code == 200, answer.text
        assert evalpy.Review(path).annotations()[0][key]["text"] == "y" * evalpy.MAX_ANNOTATION
        # a text holding half of a character is still refused, and so is a body past what any key of the run needs
        body = json.dumps({"key": key, "text": "z\udfff"}).encode()
        answer = requests.post(url + "/annotations", data=body, headers={"Content-Type": "application/json"})
        assert answer.status_code == 400 and "half of a character" in answer.json()["error"], answer.text
        body = json.dumps({"key": key, "text": "y" * 50000}).encode()
        answer = requests.post(url + "/annotations", data=body, headers={"Content-Type": "application/json"})
        assert answer.status_code == 400 and "an annotation's save takes" in answer.json()["error"], answer.text


def test_on_port_80_the_host_a_browser_sends_without_its_port_is_ours():
    """Fifty-second round on issue 28: `review --port 80` refused its own page, whose Host (and Origin) a browser sends
    without the default port; any other port must still be named."""
    assert evalpy.review_hosts(80) == {"127.0.0.1:80", "localhost:80", "127.0.0.1", "localhost"}
    assert evalpy.review_hosts(8765) == {"127.0.0.1:8765", "localhost:8765"}


def test_a_run_file_that_changes_on_disk_is_flagged(server, project, runs):
    url, _ = server
    with open(project / runs[1], "a") as f:   # (a line feed more: the same JSON, the same run, 118th round)
        f.write("\n")
    assert requests.get(url + "/data").json()["changed"] is False
    run = json.loads((project / runs[1]).read_text(encoding="utf-8"))
    run["results"][0]["response"] += " edited"
    (project / runs[1]).write_text(json.dumps(run), encoding="utf-8")
    assert requests.get(url + "/data").json()["changed"] is True and requests.get(url + "/data").json()["gone"] is False
    # (125th round) renamed: the page said "changed ... Restart review to see the new file", of no file
    os.rename(project / runs[1], project / "runs" / "moved.json")
    data = requests.get(url + "/data").json()
    assert data["gone"] is True, data
    assert "if (data.gone) notes.push(\"The run file is no longer there (renamed or removed)" in requests.get(url + "/").text


def test_the_pages_annotation_row_links_every_case_it_counts():
    """82nd attack on issue 28: "wrong tone" on A and C and "wrong\u200b tone" on B are one row of 3 answers (as
    report counts them), but the page's row linked A and C alone: its cases were looked up by the commoner spelling."""
    annotations = {"A#1": {"text": "wrong tone"}, "B#1": {"text": "wrong\u200b tone"}, "C#1": {"text": "wrong tone"}}
    page = str(evalpy.annotation_table(annotations, {"A": "case-1", "B": "case-2", "C": "case-3"}))
    assert all(f'href="#case-{n}"' in page for n in (1, 2, 3)) and page.count("wrong") == 1, page


def test_report_counts_the_annotations(server, runs, cli):
    url, _ = server
    for key, text in (("dev-05#1", "confused login with billing"), ("dev-09#1", "confused login with billing"),
                      ("dev-11#1", "answered with a sentence")):
        requests.post(url + "/annotations", json={"key": key, "text": text})
    out = cli("report", runs[1])[1]
    assert "Annotations (3 answers annotated in review, from runs/dev-v3.json.annotations.json; most frequent first):" in out
    assert out.rstrip().endswith("  confused login with billing  2\n  answered with a sentence     1")
    s = json.loads(cli("report", runs[1], "--json")[1])
    assert s["annotations"]["counts"] == [["confused login with billing", 2], ["answered with a sentence", 1]]


def test_review_refuses_a_broken_sidecar_and_a_busy_port(runs, project, cli):
    (project / (runs[1] + ".annotations.json")).write_text("{not json")
    code, out, err = cli("review", runs[1], "--port", "0")
    assert code == 2 and "not as eval.py review writes an annotations file" in err
    # (round 124's damaged files) saved by an editor in UTF-16: "damaged", "mend it (a person's annotations are in it)"
    sidecar = '{"format": "eval.py-annotations/1", "annotations": {}}'
    for data, said in ((b"\xff\xfe" + sidecar.encode("utf-16-le"), "its byte-order mark says so"),
                       (sidecar.encode("utf-16-le"), "its zero bytes say so")):
        (project / (runs[1] + ".annotations.json")).write_bytes(data)
        code, out, err = cli("report", runs[1])
        assert code == 2 and err == (f"error: {runs[1]}.annotations.json: this annotations file is UTF-16 ({said}); save it "
                                     "as UTF-8\n"), err
    (project / (runs[1] + ".annotations.json")).unlink()
    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen()
    try:
        code, out, err = cli("review", runs[1], "--port", busy.getsockname()[1])
    finally:
        busy.close()
    assert code == 2 and "pick another --port" in err
    # (twenty-first attack, minor) a run reviewed against itself: every answer "the same" (compare refuses it too)
    code, out, err = cli("review", runs[1], "--against", f"./{runs[1]}", "--port", "0")
    assert code == 2 and err == f"error: {runs[1]} and ./{runs[1]} are the same run (one file); give --against another run\n", err


def test_review_prints_its_address_and_stops_cleanly_on_ctrl_c(runs, project):
    proc = subprocess.Popen([sys.executable, str(ROOT / "eval.py"), "review", runs[1], "--port", "0"], cwd=project,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    assert line.startswith(f"Reviewing {runs[1]} at http://127.0.0.1:")
    url = line.split(" at ")[1].split()[0]
    assert requests.get(url + "data").status_code == 200
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=10)
    assert proc.returncode == 0 and "stopped" in err and "Traceback" not in err


@pytest.mark.parametrize("annotations", [
    {"dev-05#1": {"text": 7}}, {"dev-05#1": {"text": ["x"]}}, {"dev-05#1": {}}, {"dev-05#1": "bug"},
    {"dev-05#1": {"label": "written in the older form"}}, ["dev-05#1"],
    {"dev-05#1": {"text": "[" * 100_000}} | {"x": json.loads("[" * 500 + "]" * 500)},
])
def test_a_damaged_annotations_sidecar_is_one_line_in_report_and_an_answer_from_review(server, runs, cli, annotations):
    url, review = server
    sidecar = {"format": evalpy.ANNOTATIONS_FORMAT, "run": "dev-v3.json", "run_sha": review.run_sha,
               "annotations": annotations}
    open(review.sidecar, "w", encoding="utf-8").write(json.dumps(sidecar))
    code, out, err = cli("report", runs[1])
    assert code == 2 and err.startswith(f"error: {runs[1]}.annotations.json: damaged") and err.endswith(
        ", not as eval.py review writes an annotations file; mend it (a person's annotations are in it), or move it "
        "aside to start afresh\n") and len(err) < 300, err
    data = requests.get(url + "/data", timeout=5)
    assert data.status_code == 500 and "damaged" in data.json()["error"]
    saved = requests.post(url + "/annotations", json={"key": "dev-05#1", "text": "formato"}, timeout=5)
    assert saved.status_code == 500 and "damaged" in saved.json()["error"]


@pytest.mark.parametrize("twice", ['"annotations": {"dev-05#1": {"text": "AAA"}}, "annotations": {}',
                                   '"annotations": {"dev-05#1": {"text": "AAA", "time": NaN}}'])
def test_an_annotations_sidecar_giving_a_key_twice_or_nan_is_damaged_never_read_loosely(server, runs, cli, twice):
    """Twelfth attack on issue 28: the sidecar was read with plain json.loads: of two "annotations"
    only the last was shown, and review's next save wrote the file without the first (lost); NaN was
    kept and written back, no longer JSON."""
    url, review = server
    text = f'{{"format": "{evalpy.ANNOTATIONS_FORMAT}", "run": "dev-v3.json", "run_sha": "{review.run_sha}", {twice}}}'
    open(review.sidecar, "w", encoding="utf-8").write(text)
    code, out, err = cli("report", runs[1])
    assert code == 2 and "annotations.json: damaged" in err, err
    saved = requests.post(url + "/annotations", json={"key": "dev-05#1", "text": "formato"}, timeout=5)
    assert saved.status_code == 500 and open(review.sidecar, encoding="utf-8").read() == text   # never rewritten


def test_the_review_server_answers_even_when_its_own_code_fails(server, monkeypatch):
    url, review = server
    monkeypatch.setattr(review, "data", lambda: {}["boom"])
    answer = requests.get(url + "/data", timeout=5)
    assert answer.status_code == 500 and answer.json() == {"error": "eval.py review failed: KeyError: 'boom'",
                                                           "served": review.served}


def test_a_prompt_placeholder_without_vars_is_shown_as_written(project):
    write_run("edited.json", split_run("dev", prompt_text="Hola {{customer}}, clasifica el ticket."))
    items = evalpy.Review("edited.json").items
    assert items[0]["system"] == "Hola {{customer}}, clasifica el ticket."


def test_a_run_whose_prompt_text_is_not_text_is_refused_in_one_line(project, cli):
    run = split_run("dev")
    run["config"]["prompt_text"] = None
    write_run("edited.json", run)
    for command in (["review", "edited.json", "--port", "0"], ["report", "edited.json"]):
        code, out, err = cli(*command)
        assert code == 2 and err == "error: edited.json: not a valid run file: config.prompt_text must be text; restore it from a copy, or run it again\n"


def test_a_body_shorter_than_its_content_length_gets_an_answer(runs, monkeypatch):
    """A page that promises more than it sends is answered 408 once the read gives up, not left hanging."""
    monkeypatch.setattr(evalpy, "REVIEW_READ_SECONDS", 0.3)
    httpd = evalpy.serve_review(evalpy.Review(runs[1]), 0)
    threading.Thread(target=httpd.serve_forever, args=(0.02,), daemon=True).start()
    port = httpd.server_address[1]
    with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
        s.sendall(f"POST /annotations HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
                  "Content-Length: 100\r\n\r\n{\"key\": ".encode())
        started = time.monotonic()
        reply = s.recv(4096).decode()
    httpd.shutdown()
    httpd.server_close()
    assert reply.startswith("HTTP/1.0 408") or reply.startswith("HTTP/1.1 408"), reply
    assert time.monotonic() - started < 6


def raw_save(port, lengths, body):
    """The review server's answer (bytes) to a save sent as written: its Content-Length lines as given."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
        s.sendall(f"POST /annotations HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
                  f"{lengths}\r\n".encode() + body)
        reply = b""
        while b"\r\n\r\n" not in reply or not reply.endswith(b"}"):
            got = s.recv(4096)
            if not got:
                break
            reply += got
    return reply


@pytest.mark.parametrize("length", ["1_0", "+10", "１0"])
def test_a_content_length_that_is_not_digits_is_a_400(runs, length):
    """Seventh attack on issue 28 (minor): Content-Length "1_0" was read as 10 (Python's int() takes
    underscores, signs and other scripts' digits); HTTP's is digits only."""
    httpd = evalpy.serve_review(evalpy.Review(runs[1]), 0)
    threading.Thread(target=httpd.serve_forever, args=(0.02,), daemon=True).start()
    port = httpd.server_address[1]
    reply = raw_save(port, f"Content-Length: {length}\r\n", b'{"k": 1234}').decode()
    httpd.shutdown()
    httpd.server_close()
    assert reply.split("\r\n")[0].endswith("400 Bad Request") and "with its length in digits" in reply, reply


def test_two_different_content_lengths_are_a_400(runs):
    """118th round's attack on review: two Content-Length headers that differ (RFC 9112 6.3: an error) had the first
    read, the save stored or refused as bad JSON by their order."""
    httpd = evalpy.serve_review(evalpy.Review(runs[1]), 0)
    threading.Thread(target=httpd.serve_forever, args=(0.02,), daemon=True).start()
    port = httpd.server_address[1]
    body = b'{"key": "dev-07#1", "text": "two lengths"}'
    try:
        for lengths in ((len(body), 5), (5, len(body))):
            reply = raw_save(port, f"Content-Length: {lengths[0]}\r\nContent-Length: {lengths[1]}\r\n", body)
            assert reply.split(b"\r\n")[0].endswith(b"400 Bad Request") and b"given twice" in reply, reply
        assert not os.path.exists(runs[1] + ".annotations.json")
        # (119th round: the same length, one with a space after it, is one length: it was "different values")
        for lengths in (f"Content-Length: {len(body)}\r\nContent-Length: {len(body)} \r\n",
                        f"Content-Length: {len(body)} \r\nContent-Length: {len(body)}\r\n", f"Content-Length: {len(body)}\t\r\n"):
            reply = raw_save(port, lengths, body)
            assert reply.split(b"\r\n")[0].endswith(b"200 OK"), (lengths, reply)
    finally:
        httpd.shutdown()
        httpd.server_close()
    assert load_json(runs[1] + ".annotations.json")["annotations"]["dev-07#1"]["text"] == "two lengths"


@pytest.mark.parametrize("framing, body", [
    ("Transfer-Encoding: chunked\r\nContent-Length: 33\r\n", b'{"key":"dev-07#1","text":"smug"}\n'),
    ("Content-Length: 43\r\nTransfer-Encoding: chunked\r\n", b'20\r\n{"key":"dev-07#1","text":"smug"}\r\n0\r\n\r\n'),
    ("Transfer-Encoding: chunked\r\n", b'20\r\n{"key":"dev-07#1","text":"smug"}\r\n0\r\n\r\n'),
    ("Transfer-Encoding: identity\r\nContent-Length: 33\r\n", b'{"key":"dev-07#1","text":"smug"}\n'),
], ids=["chunked-then-length", "length-then-chunked", "chunked-alone", "identity"])
def test_a_body_sent_with_transfer_encoding_is_a_400_never_read_by_its_length(runs, framing, body):
    """138th round's attack on review: a save with Transfer-Encoding: chunked and a Content-Length was read by its
    Content-Length and saved (RFC 9112 6.1: Transfer-Encoding overrides it; a server should refuse the two), and one
    truly chunked was "not one JSON object". Refused as two lengths are, saying how to send it."""
    with serving(evalpy.Review(runs[1])) as url:
        reply = raw_save(int(url.rsplit(":", 1)[1]), framing, body)
    assert reply.split(b"\r\n")[0].endswith(b"400 Bad Request") and b"sent with Transfer-Encoding is not taken" in reply, reply
    assert b"with its length in Content-Length alone" in reply
    assert not os.path.exists(runs[1] + ".annotations.json")


def test_a_page_that_goes_away_leaves_no_traceback(server, capsys):
    url, review = server
    host, port = url[len("http://"):].split(":")
    for _ in range(5):
        with socket.create_connection((host, int(port))) as s:
            s.sendall(f"GET /data HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
            s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")   # reset on close
    time.sleep(0.5)
    assert requests.get(url + "/data", timeout=5).status_code == 200
    assert "Traceback" not in capsys.readouterr().err


def test_annotations_of_an_earlier_run_of_the_same_name_are_left_out_named_and_kept(project, runs, cli, fake):
    """Issue 28, item 2: annotations saved in review for runs/x.json, the run made again under that
    name: report and report --html showed the old annotations as this run's, and one save in review
    rewrote the sidecar with the new sha, so they passed as current for good. They are left out and
    named (how many, from when) in report, the page and review; a save keeps them under their sha."""
    old_bytes = (project / runs[1]).read_bytes()
    old_sha = evalpy.sha256_bytes(old_bytes)
    review = evalpy.Review(runs[1])
    for key, text in (("dev-05#1", "old: confused login"), ("dev-09#1", "old: a sentence")):
        review.save({"key": key, "text": text})
    # (the two saves may fall in two seconds on a loaded machine: the first and the last are each's own)
    times = sorted(a["time"] for a in load_json(runs[1] + ".annotations.json")["annotations"].values())
    when = times[0]
    (project / runs[1]).unlink()
    fake.answers = {c["input"]: c["expected"] for c in map(json.loads, open("golden/dev.jsonl", encoding="utf-8"))}
    fake.answers[next(c["input"] for c in map(json.loads, open("golden/dev.jsonl", encoding="utf-8")) if c["id"] == "dev-05")] = "bug"
    assert cli("run", "--split", "dev", "--host", fake.url, "--out", runs[1])[0] == 0
    new_sha = evalpy.sha256_bytes((project / runs[1]).read_bytes())
    note = (f"2 annotations in {runs[1]}.annotations.json were written in review on another version of this run "
            f"file (or on another run whose annotations it shares) (sha {old_sha[:8]}, {when[:16].replace('T', ' ')}), left "
            "out here; the file keeps them")

    code, out, err = cli("report", runs[1])
    assert "old:" not in out and note in out
    s = json.loads(cli("report", runs[1], "--json")[1])["annotations"]
    assert s["counts"] == [] and s["other_versions"] == [{"run_sha": old_sha, "count": 2, "first": when, "last": times[-1]}]
    cli("report", runs[1], "--html", "x.html")
    page = (project / "x.html").read_text(encoding="utf-8")
    assert "old:" not in page and note in page

    review = evalpy.Review(runs[1])
    data = review.data()
    assert all(item["annotation"] is None for item in data["items"]) and data["counts"] == []
    assert data["other_versions"] == note
    review.save({"key": "dev-05#1", "text": "new: thinks it is a bug"})
    sidecar = load_json(runs[1] + ".annotations.json")
    assert sidecar["run_sha"] == new_sha and list(sidecar["annotations"]) == ["dev-05#1"]
    assert {k: v["text"] for k, v in sidecar["other_versions"][old_sha].items()} == {   # kept, never adopted
        "dev-05#1": "old: confused login", "dev-09#1": "old: a sentence"}
    s = json.loads(cli("report", runs[1], "--json")[1])["annotations"]
    assert s["counts"] == [["new: thinks it is a bug", 1]] and s["other_versions"][0]["count"] == 2
    review.save({"key": "dev-05#1", "text": ""})                    # removing this version's touches no other
    assert len(load_json(runs[1] + ".annotations.json")["other_versions"][old_sha]) == 2

    (project / runs[1]).write_bytes(old_bytes)                      # the old version back: its annotations are its own again
    s = json.loads(cli("report", runs[1], "--json")[1])["annotations"]
    assert s["counts"] == [["old: a sentence", 1], ["old: confused login", 1]] and s["other_versions"] == []


def test_a_lone_surrogate_in_an_answer_reaches_the_review_page_as_an_escape(project):
    """Issue 28, item 13 (review's part): "\\ud800" in an answer is sent in /data as a JSON escape (the
    page shows it, UTF-8 never has to hold it), and a save that sends one is a 400, not a 500."""
    from pathlib import Path
    Path("runs").mkdir()
    Path("runs/s.json").write_text(json.dumps(make_run([("odd", "bug", "bug \ud800 fin"), ("ok", "bug", "bug")])))
    httpd = evalpy.serve_review(evalpy.Review("runs/s.json"), 0)
    threading.Thread(target=httpd.serve_forever, args=(0.02,), daemon=True).start()
    url = f"http://127.0.0.1:{httpd.server_address[1]}"
    try:
        data = requests.get(url + "/data", timeout=5)
        assert data.status_code == 200 and b"bug \\ud800 fin" in data.content
        assert data.json()["items"][0]["response"] == "bug \ud800 fin"
        bad = requests.post(url + "/annotations", data=b'{"key": "odd#1", "text": "half \\ud800"}', timeout=5,
                            headers={"Content-Type": "application/json"})
        assert bad.status_code == 400 and '"text" holds \\ud800, half of a character' in bad.json()["error"], bad.text
        bad = requests.post(url + "/annotations", data=b'{"key": "odd#1", "text": "x", "was": "\\udc00"}', timeout=5,
                            headers={"Content-Type": "application/json"})   # (round 91) which field holds it
        assert bad.status_code == 409 and "this page showed '\\udc00'" in bad.json()["error"], bad.text   # (compared)
        bad = requests.post(url + "/annotations", data=b'["\\ud800"]', timeout=5, headers={"Content-Type": "application/json"})
        assert bad.status_code == 400 and bad.json()["error"].startswith("the body holds \\ud800"), bad.text
        assert requests.post(url + "/annotations", json={"key": "odd#1", "text": "medio carácter"}, timeout=5).status_code == 200
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_a_hostile_sidecar_of_another_version_is_named_inert(project, runs, cli):
    """From the attack on issue 28, item 2: the times and hash of another version's annotations are
    the file's text, not eval.py's; they are printed escaped, and a sidecar whose other versions are
    not annotations is damaged, in one line."""
    sidecar = project / (runs[1] + ".annotations.json")
    sidecar.write_text(json.dumps({"format": evalpy.ANNOTATIONS_FORMAT, "run_sha": "\x1b[31m" + "0" * 58,
                                   "annotations": {"dev-09#1": {"text": "t", "time": "\x1b[2J2026-01-01T10:00:00"}}}))
    code, out, err = cli("report", runs[1])
    assert code == 0 and "\x1b" not in out and "(sha \\x1b[31m, \\x1b[2J2026-01-01 1), left out here" in out
    for others in ([], {"abc": []}, {"abc": {"dev-09#1": {"text": ""}}}, {"abc": {"dev-09#1": "t"}}):
        sidecar.write_text(json.dumps({"format": evalpy.ANNOTATIONS_FORMAT, "annotations": {}, "other_versions": others}))
        code, out, err = cli("report", runs[1])
        assert code == 2 and "damaged" in err and "not as eval.py review writes an annotations file" in err, others
    # (twenty-seventh attack) one annotation without its text, among many, named only the file
    sidecar.write_text(json.dumps({"format": evalpy.ANNOTATIONS_FORMAT, "annotations": {
        "dev-01#1": {"text": "fine", "time": "t"}, "dev-09#1": {"text": 5, "time": "t"}}}))
    code, out, err = cli("report", runs[1])
    assert code == 2 and err.endswith(": damaged (the annotation of dev-09#1 has a number as its text, not text), not as "
                                      "eval.py review writes an annotations file; mend it (a person's annotations are "
                                      "in it), or move it aside to start afresh\n"), err
    sidecar.write_text(json.dumps({"format": evalpy.ANNOTATIONS_FORMAT, "annotations": {"dev-09#1": {"time": "t"}}}))
    code, out, err = cli("report", runs[1])   # (57th round: a number was said to be no text at all)
    assert code == 2 and "(the annotation of dev-09#1 has no text, or an empty one)" in err, err
    # (round 109) a text shown as nothing, which review's save takes for none, was counted as a blank row; (its review)
    # an older review saved a lone accent: none, left out, never the whole file refused as damaged
    for unseen in ("\u200b", "\u0301", "\u0301 \u0301"):
        sidecar.write_text(json.dumps({"format": evalpy.ANNOTATIONS_FORMAT, "annotations": {
            "dev-09#1": {"text": unseen}, "dev-10#1": {"text": "tono frío"}}}))
        code, out, err = cli("report", runs[1], "--json")
        assert code in (0, 1) and json.loads(out)["annotations"]["counts"] == [["tono frío", 1]], (out, err)
    sidecar.write_text(json.dumps({"format": evalpy.ANNOTATIONS_FORMAT, "annotations": {"dev-09#1": "just text"}}))
    code, out, err = cli("report", runs[1])   # (58th round: an entry that is text was said to have none)
    assert code == 2 and '(the annotation of dev-09#1 is text, not an object {"text": ..., "time": ...})' in err, err


def test_a_save_on_a_full_disk_is_said_as_such_and_leaves_no_lock(runs, project):
    """From the attack on issue 28, item 16: a save that could not write its lock or the sidecar was
    answered as a bug ("eval.py review failed: OSError ..."). Writes past 0 bytes refused (EFBIG), as
    a full disk refuses them."""
    import resource

    def full_disk():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))
    proc = subprocess.Popen([sys.executable, str(ROOT / "eval.py"), "review", runs[1], "--port", "0"], cwd=project,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=full_disk)
    try:
        url = proc.stdout.readline().split(" at ")[1].split()[0]
        saved = requests.post(url + "annotations", json={"key": "dev-05#1", "text": "x"}, timeout=5)
    finally:
        proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=10)
    assert saved.status_code == 500 and saved.json()["error"] == (
        f"cannot write {runs[1]}.annotations.json.lock (File too large): the annotation was not saved; those saved "
        "before are kept")
    assert sorted(p.name for p in (project / "runs").iterdir()) == ["dev-v2.json", "dev-v3.json"]


def test_what_to_do_about_a_file_not_permitted_follows_the_systems_words_never_repeats_them():
    """126th round: an immutable journal said "Operation not permitted: not permitted (an immutable file, or a folder you
    do not own); use another folder", its words twice and a cure `run --resume` cannot take (no --out); a review save
    refused so said no cure at all."""
    said = {e: f"{os.strerror(e)}{evalpy.os_hint(OSError(e, os.strerror(e)))}" for e in (errno.EPERM, errno.EACCES)}
    assert said[errno.EPERM] == ("Operation not permitted: an immutable file or folder (chattr -i undoes it), or one you "
                                 "do not own; make it writable, or copy it to a folder of yours and use it there")
    assert said[errno.EACCES] == ("Permission denied: to read or write it, or to enter a folder on its path; fix the "
                                  "permissions, or use another path")


def test_review_shows_an_agents_transcript_with_the_check_failed_on_each_call(project):
    from conftest import agent_run, write_run
    path = write_run("runs/agent.json", agent_run())
    items = {i["id"]: i for i in evalpy.review_items(evalpy.load_run(path))}
    turns = items["a2"]["transcript"]
    assert [t["turn"] for t in turns] == [1, 2, 3] and turns[2]["content"] == "Su pedido está enviado."
    assert turns[1]["calls"] == [{"call": 'cancel_order({"order_id": "A-1"})', "result": '{"status": "enviado"}',
                                  "matched": True, "why_no_result": None, "failed": ["never cancels"]}]
    assert turns[0]["calls"][0]["failed"] == []
    assert items["a3"]["transcript"][0]["calls"][0]["matched"] is False
    assert items["a3"]["transcript"][0]["calls"][0]["why_no_result"] == "(no result matched these arguments)"
    assert items["a4"]["out_of_turns"] is True and "transcript" not in evalpy.review_items(
        evalpy.load_run(write_run("runs/plain.json", __import__("conftest").make_run([("c1", "bug", "bug")]))))[0]
    assert 'it.transcript' in evalpy.REVIEW_PAGE and 'transcriptSteps("transcript"' in evalpy.REVIEW_PAGE


def test_review_against_another_agent_run_shows_its_transcript_too(project):
    """review --against: beside an agent's transcript, the other run's, turn by turn with the checks
    failed on each call; its final words alone would hide that it took another path."""
    from conftest import agent_run, agent_spec, make_run, write_run
    other = agent_run()
    other["results"] = [make_run([agent_spec("a1", [("lookup_order", {"order_id": "A-1"}, True),
                                                     ("cancel_order", {"order_id": "A-1"}, True)])], labels=None)["results"][0]
                        if r["id"] == "a1" else r for r in other["results"]]
    mine, theirs = write_run("runs/agent.json", agent_run()), write_run("runs/other.json", other)
    items = {i["id"]: i for i in evalpy.Review(mine, against_path=theirs).items}
    assert items["a1"]["change"] == "fixed"
    turns = items["a1"]["other"]["transcript"]
    assert [t["turn"] for t in turns] == [1, 2, 3] and turns[2]["content"] == "Su pedido está enviado."
    assert turns[1]["calls"][0]["call"] == 'cancel_order({"order_id": "A-1"})' and turns[1]["calls"][0]["failed"] == ["never cancels"]
    assert items["a1"]["other"]["out_of_turns"] is False and items["a4"]["other"]["out_of_turns"] is True
    assert len(items["a1"]["transcript"]) == 2
    assert "it.other.transcript" in evalpy.REVIEW_PAGE
    plain = evalpy.review_items(evalpy.load_run(str(ROOT / "runs" / "example" / "dev-v3.json")),
                                evalpy.load_run(str(ROOT / "runs" / "example" / "dev-v2.json")))
    assert "transcript" not in plain[0]["other"]


def test_review_serves_each_agent_turns_inline_reasoning_apart_from_what_it_said(project):
    """Round 137: review's page showed an agent's earlier turn as it came, "<think>I could cancel it</think>", as if the
    model had said it, where report --case and the pages show it apart and reasoning sent apart is folded under its
    turn, not scored. The page is served each turn's reasoning inline apart from its text, the other run's too."""
    from conftest import agent_run, agent_thinking_inline
    run = agent_run()
    run["results"] = [make_run([agent_thinking_inline("a1")], labels=None)["results"][0] if r["id"] == "a1" else r
                      for r in run["results"]]
    unclosed = agent_thinking_inline("a2", first="<think>still at it")   # (a turn that called tools, its reasoning open)
    run["results"] = [make_run([unclosed], labels=None)["results"][0] if r["id"] == "a2" else r for r in run["results"]]
    path = write_run("runs/think.json", run)
    with serving(evalpy.Review(path, against_path=path)) as url:
        items = {it["id"]: it for it in requests.get(url + "/data").json()["items"]}
    for turns in (items["a1"]["transcript"], items["a1"]["other"]["transcript"]):
        assert [(t["inline"], t["content"]) for t in turns] == [("I could cancel it", ""),
                                                                ("cancel? no", "Su pedido está enviado.")], turns
    assert [(t["inline"], t["content"]) for t in items["a2"]["transcript"]][0] == ("still at it", None)
    assert items["a3"]["transcript"][0]["inline"] is None and "<think>" not in json.dumps(items["a1"]["transcript"])
    assert "t.inline" in evalpy.REVIEW_PAGE and "never closed by a </think>" in evalpy.REVIEW_PAGE


def test_review_shows_the_passages_beside_the_answer_marked_relevant_with_unsupported_claims(project):
    """RAG (issue 30): each item carries its passages in rank order, which are relevant, the
    relevant ones not retrieved, and the claims the faithful judge found unsupported."""
    from test_report import diagnosed_run
    review = evalpy.Review(diagnosed_run(project))
    items = {it["id"]: it for it in review.items}
    assert items["d2"]["passages"] == [{"id": "x", "text": "passage x", "relevant": False}]
    assert items["d2"]["missing"] == ["a"]
    assert items["d3"]["unsupported"] == [{"claim": "Shipping is free", "passage": "zz", "check": "faithful",
                                           "why": "marked supported by passage 'zz', which this case does not have"}]
    assert items["d1"]["passages"] == [] and "passages" not in evalpy.review_items(
        evalpy.load_run(str(ROOT / "runs" / "example" / "dev-v3.json")))[0]


@pytest.mark.parametrize("run_sha", [5, None, ["abc"], {"sha": "abc"}, True, ""])
def test_a_sidecar_whose_run_sha_is_not_text_is_damaged_in_every_view(server, runs, cli, run_sha):
    """Issue 28, attack 4, item 9e: a run_sha of 5 was read as a sidecar that names no version (one
    of eval.py before run_sha), so its annotations passed as this run's. Only a sidecar without the
    key names no version; any other value that is not a hash is damage, refused by report, report
    --case and review alike."""
    url, review = server
    open(review.sidecar, "w", encoding="utf-8").write(json.dumps(
        {"format": evalpy.ANNOTATIONS_FORMAT, "run_sha": run_sha, "annotations": {"dev-05#1": {"text": "old", "time": None}}}))
    kind = "empty" if run_sha == "" else evalpy.json_kind(run_sha)   # (118th round: its field named, "damaged" alone)
    damaged = (f"error: {runs[1]}.annotations.json: damaged (its \"run_sha\" is {kind}, not the hash of a run file), not "
               "as eval.py review writes an annotations file")
    for argv in (("report", runs[1]), ("report", runs[1], "--json"), ("report", runs[1], "--case", "dev-05")):
        code, out, err = cli(*argv)
        assert code == 2 and err.startswith(damaged) and "old" not in out, (argv, err)
    assert requests.get(url + "/data", timeout=5).status_code == 500


def test_report_case_refuses_a_damaged_sidecar_as_the_other_views_do(runs, project, cli):
    """Issue 28, attack 4, item 9e: report --case exited 0 on a sidecar report refuses."""
    (project / (runs[1] + ".annotations.json")).write_text("{not json")
    for argv in (("report", runs[1]), ("report", runs[1], "--case", "dev-05"), ("report", runs[1], "--case", "dev-05", "--json")):
        code, out, err = cli(*argv)
        assert code == 2 and "not as eval.py review writes an annotations file" in err, argv
    # (125th round) a folder there was "is a folder, not a sidecar file": eval.py's word, and no cure
    (project / (runs[1] + ".annotations.json")).unlink()
    (project / (runs[1] + ".annotations.json")).mkdir()
    for argv in (("report", runs[1]), ("review", runs[1], "--port", "0")):
        code, out, err = cli(*argv)
        assert code == 2 and err == (f"error: {runs[1]}.annotations.json: a folder, where the run's annotations file "
                                     "goes; move it aside (or rename it), then give the same command again\n"), (argv, err)


def test_a_long_annotation_is_cut_in_the_report_table_and_kept_whole_in_json(runs, project, cli):
    """Issue 28, attack 4, item 9e: a hand-edited annotation of 100,000 characters padded every
    annotation row of the text report to its width (a 300 kB report)."""
    review = evalpy.Review(runs[1])
    long = "x" * 100_000
    (project / (runs[1] + ".annotations.json")).write_text(json.dumps(
        {"format": evalpy.ANNOTATIONS_FORMAT, "run_sha": review.run_sha,
         "annotations": {"dev-05#1": {"text": long, "time": None}, "dev-09#1": {"text": "short", "time": None},
                         "dev-11#1": {"text": "short", "time": None}}}))
    code, out, err = cli("report", runs[1])
    assert code == 0, err
    rows = out.split("most frequent first):\n", 1)[1].splitlines()
    assert rows[0].split() == ["short", "2"] and rows[1].split()[0].endswith("…") and len(out) < 10_000, rows
    assert max(map(len, rows[:2])) < 120
    assert json.loads(cli("report", runs[1], "--json")[1])["annotations"]["counts"][1] == [long, 1]


def test_a_stray_annotation_key_is_named_escaped_on_one_line_and_cut(runs, project, cli):
    """Issue 28, attack 4, item 9e, the same class: the keys of annotations that name no answer of
    the run are the file's text, printed in the report's note: escaped, on one line, cut."""
    review = evalpy.Review(runs[1])
    key = "\x1b[2J\nAccuracy: 100%" + "y" * 100_000
    (project / (runs[1] + ".annotations.json")).write_text(json.dumps(
        {"format": evalpy.ANNOTATIONS_FORMAT, "run_sha": review.run_sha, "annotations": {key: {"text": "t", "time": None}}}))
    code, out, err = cli("report", runs[1])
    assert code == 0 and "\x1b" not in out and not any(l.startswith("Accuracy: 100%") for l in out.splitlines()), out[-500:]
    assert "left out here: \\x1b[2J\\nAccuracy: 100%yyy" in out and len(out) < 10_000


def test_review_names_the_older_sidecar_it_carries_over_as_a_shell_word(runs, project):
    """From the fifth attack on issue 28 (item 7): "those of {path} carried over" printed the older
    sidecar's path raw, where the run's and the new sidecar's beside it are shell words."""
    spaced = project / "runs" / "my run.json"
    spaced.write_bytes((project / runs[1]).read_bytes())
    (project / "runs" / "my run.json.labels.json").write_text(json.dumps({"format": "eval.py-labels/1", "labels": {
        "dev-05#1": {"label": "confused login with billing", "time": "2026-01-02T10:00:00+00:00"}}}))
    proc = subprocess.Popen([sys.executable, str(ROOT / "eval.py"), "review", "runs/my run.json", "--port", "0"],
                            cwd=project, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
    finally:
        proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=10)
    assert line.startswith("Reviewing 'runs/my run.json' at http://127.0.0.1:"), line
    assert "(annotations go to 'runs/my run.json.annotations.json', those of 'runs/my run.json.labels.json' carried over;" in line


def test_annotations_of_a_run_given_through_a_link_are_kept_beside_the_run_itself(project, runs, cli):
    """Twenty-first attack on issue 28, defect 2: `review latest.json` (a link to the run) saved its
    labels in latest.json.annotations.json, which `report` of the run by its own name never showed.
    They go beside the run file, and are shown whichever name the run is given by."""
    Path("latest.json").symlink_to(runs[1])
    review = evalpy.Review("latest.json")
    assert review.sidecar == runs[1] + ".annotations.json"
    review.save({"key": "dev-05#1", "text": "confused login with billing"})
    assert not os.path.lexists("latest.json.annotations.json")
    assert load_json(runs[1] + ".annotations.json")["run"] == os.path.basename(runs[1])
    for name in (runs[1], "latest.json"):
        s = json.loads(cli("report", name, "--json")[1])
        assert s["annotations"]["file"] == runs[1] + ".annotations.json" and s["annotations"]["counts"] == [
            ["confused login with billing", 1]], name
    # the link pointed at another run while review is open: this run's annotations are read and written still
    os.unlink("latest.json")
    Path("latest.json").symlink_to(runs[0])
    review.save({"key": "dev-09#1", "text": "answered with a sentence"})
    assert len(load_json(runs[1] + ".annotations.json")["annotations"]) == 2 and not os.path.lexists(runs[0] + ".annotations.json")
    # (twenty-seventh attack) by a second name of the file (a hard link), review saved beside that name, and
    # report by the first showed nothing: the annotations beside the other name are its own
    os.link(runs[1], "runs/second.json")
    second = evalpy.Review("runs/second.json")
    assert second.sidecar == runs[1] + ".annotations.json"
    second.save({"key": "dev-11#1", "text": "answered with a sentence"})
    assert not os.path.lexists("runs/second.json.annotations.json")
    assert json.loads(cli("report", runs[1], "--json")[1])["annotations"]["counts"] == [
        ["answered with a sentence", 2], ["confused login with billing", 1]]
    assert json.loads(cli("report", "runs/second.json", "--json")[1])["annotations"]["file"] == runs[1] + ".annotations.json"
    # (twenty-eighth attack) two reviews begun by two names before either saved kept a file each: each save looks
    os.unlink(runs[1] + ".annotations.json")
    by_one, by_other = evalpy.Review("runs/second.json"), evalpy.Review(runs[1])
    by_one.save({"key": "dev-05#1", "text": "one"})
    by_other.save({"key": "dev-09#1", "text": "other"})
    assert set(load_json("runs/second.json.annotations.json")["annotations"]) == {"dev-05#1", "dev-09#1"}
    assert not os.path.exists(runs[1] + ".annotations.json")
    os.unlink("runs/second.json.annotations.json")
    # (thirtieth attack) a second name made by the user, then removed, never holds the run's files unasked
    os.link(runs[1], "runs/a-best.json")
    evalpy.Review(runs[1]).save({"key": "dev-05#1", "text": "kept"})
    os.unlink("runs/a-best.json")
    assert json.loads(cli("report", runs[1], "--json")[1])["annotations"]["counts"] == [["kept", 1]]
    os.unlink(runs[1] + ".annotations.json")
    # (twenty-ninth attack) a name that sorts first linked while a review is open, and saved to by its own review
    # first: the open review read that file and wrote its own, and an annotation was lost
    early = evalpy.Review("runs/second.json")
    os.link(runs[1], "runs/0.json")
    evalpy.Review("runs/0.json").save({"key": "dev-05#1", "text": "first"})
    early.save({"key": "dev-09#1", "text": "second"})
    early.save({"key": "dev-11#1", "text": "third"})
    assert set(load_json("runs/0.json.annotations.json")["annotations"]) == {"dev-05#1", "dev-09#1", "dev-11#1"}
    assert not [p for p in os.listdir("runs") if p.endswith(".annotations.json") and not p.startswith("0.json")]


def test_a_save_never_leaves_the_annotations_file_for_a_new_one_in_silence(project, runs):
    """Round 108: review opened by a second name of the run (a hard link) saves to the file beside the first name; that
    name renamed mid-session, the next save made a new file beside the second of one annotation, and the page counted
    the others gone. Refused, saying where they are and what to do; nothing written."""
    os.link(runs[1], "runs/b.json")
    evalpy.Review(runs[1]).save({"key": "dev-05#1", "text": "first"})
    review = evalpy.Review("runs/b.json")
    assert review.sidecar == runs[1] + ".annotations.json"
    os.rename(runs[1], "runs/renamed.json")
    with pytest.raises(evalpy.EvalError, match="beside a name the run no longer has .renamed or removed..; nothing was "
                                               "saved: move it to runs/b.json.annotations.json, then save again"):
        review.save({"key": "dev-09#1", "text": "second"})
    assert not os.path.lexists("runs/b.json.annotations.json")
    os.rename(runs[1] + ".annotations.json", "runs/b.json.annotations.json")   # as it says
    review.save({"key": "dev-09#1", "text": "second"})
    assert set(load_json("runs/b.json.annotations.json")["annotations"]) == {"dev-05#1", "dev-09#1"}
    # (its review) a page begun with no file, whose saves went to the one another name's review made, alike
    os.unlink("runs/b.json.annotations.json")
    os.link("runs/b.json", "runs/a.json")
    by_a, by_b = evalpy.Review("runs/a.json"), evalpy.Review("runs/b.json")
    by_b.save({"key": "dev-05#1", "text": "from b"})
    by_a.save({"key": "dev-09#1", "text": "from a"})   # into b's file, as it holds the run's annotations
    assert set(load_json("runs/b.json.annotations.json")["annotations"]) == {"dev-05#1", "dev-09#1"}
    os.unlink("runs/b.json")
    with pytest.raises(evalpy.EvalError, match="beside a name the run no longer has"):
        by_a.save({"key": "dev-11#1", "text": "from a again"})
    assert not os.path.lexists("runs/a.json.annotations.json")
    # (its review) the run renamed with its annotations (no second name): never a new file beside no run
    os.rename("runs/b.json.annotations.json", "runs/a.json.annotations.json")
    os.rename("runs/a.json", "runs/c.json")
    os.rename("runs/a.json.annotations.json", "runs/c.json.annotations.json")
    with pytest.raises(evalpy.EvalError, match="runs/a.json is no longer there .renamed or removed..: nothing was saved"):
        by_a.save({"key": "dev-11#1", "text": "from a again"})
    assert not os.path.lexists("runs/a.json.annotations.json")
    # (its review) and another run put under the old name: never beside it, under this page's run
    shutil.copy(runs[0], "runs/a.json")
    with pytest.raises(evalpy.EvalError, match="runs/a.json is no longer the run this page shows"):
        by_a.save({"key": "dev-11#1", "text": "from a again"})
    assert not os.path.lexists("runs/a.json.annotations.json")


def test_annotations_saved_through_a_link_by_an_earlier_eval_py_are_still_read(project, runs, cli):
    """Labels an earlier eval.py saved beside the link are shown while the run has none of its own
    name, and carried over by review's first save (the file beside the link is left as it is)."""
    Path("latest.json").symlink_to(runs[1])
    sha = evalpy.sha256_bytes(Path(runs[1]).read_bytes())
    Path("latest.json.annotations.json").write_text(json.dumps(
        {"format": evalpy.ANNOTATIONS_FORMAT, "run": "latest.json", "run_sha": sha,
         "annotations": {"dev-05#1": {"text": "kept", "time": "t"}}}))
    before = Path("latest.json.annotations.json").read_bytes()
    assert json.loads(cli("report", "latest.json", "--json")[1])["annotations"]["counts"] == [["kept", 1]]
    evalpy.Review("latest.json").save({"key": "dev-09#1", "text": "new"})
    saved = load_json(runs[1] + ".annotations.json")["annotations"]
    assert sorted(entry["text"] for entry in saved.values()) == ["kept", "new"]
    assert Path("latest.json.annotations.json").read_bytes() == before


def test_an_annotations_file_that_is_a_link_is_written_through_to_its_target(project, runs):
    """Twenty-first attack on issue 28, defect 4: RUN.annotations.json a link to a shared file was read
    through, then replaced by a plain file at the first save, so the shared file silently stopped
    being updated. The save goes to the link's target (atomically, beside it); the link stays."""
    shared = project / "shared"
    shared.mkdir()
    sha = evalpy.sha256_bytes(Path(runs[1]).read_bytes())
    (shared / "notes.json").write_text(json.dumps(
        {"format": evalpy.ANNOTATIONS_FORMAT, "run": "dev-v3.json", "run_sha": sha,
         "annotations": {"dev-05#1": {"text": "shared note", "time": "t"}}}))
    link = project / (runs[1] + ".annotations.json")
    link.symlink_to("../shared/notes.json")
    evalpy.Review(runs[1]).save({"key": "dev-09#1", "text": "second"})
    assert link.is_symlink() and os.readlink(link) == "../shared/notes.json"
    saved = load_json(shared / "notes.json")["annotations"]
    assert sorted(entry["text"] for entry in saved.values()) == ["second", "shared note"]
    assert os.listdir(shared) == ["notes.json"]   # no temp file left beside the target


def test_a_failed_write_through_an_annotations_link_names_its_target(project, runs, monkeypatch):
    """A save through a linked sidecar that cannot be written (its target's folder full or read-only)
    says where the write went, not only the link's name."""
    (project / "shared").mkdir()
    (project / "shared" / "notes.json").write_text(json.dumps({"format": evalpy.ANNOTATIONS_FORMAT, "annotations": {}}))
    (project / (runs[1] + ".annotations.json")).symlink_to("../shared/notes.json")
    def full(path, pieces, replace=False):
        raise OSError(28, "No space left on device", path + ".tmp-1")
    monkeypatch.setattr(evalpy, "write_file", full)
    with pytest.raises(evalpy.EvalError) as e:
        evalpy.Review(runs[1]).save({"key": "dev-09#1", "text": "new"})
    assert str(e.value) == (f"cannot write {runs[1]}.annotations.json (No space left on device, writing through the link "
                            "to shared/notes.json: the disk is full; free some space): the annotation was not saved; "
                            "those saved before are kept")


def test_a_save_the_system_refused_over_the_annotations_file_names_it_and_the_cure(project, runs, monkeypatch):
    """127th round's newcomer: an immutable annotations file (chattr +i) refused the rename onto it, and the save said
    "cannot write in . (Operation not permitted): make the folder writable", a folder that could be written; the
    file at fault, and its hint, were never said. (The rename is made to fail as chattr +i makes it.) 130th round: the
    lsattr words and the copy are two cures, a comma between them ("ask one) or copy the run" ran them together)."""
    evalpy.Review(runs[1]).save({"key": "dev-09#1", "text": "first"})
    sidecar = runs[1] + ".annotations.json"
    def immutable(tmp, path):
        raise PermissionError(errno.EPERM, "Operation not permitted", tmp, None, path)   # (as os.replace names both)
    with monkeypatch.context() as patched, pytest.raises(evalpy.EvalError) as e:
        patched.setattr(os, "replace", immutable)
        evalpy.Review(runs[1]).save({"key": "dev-09#1", "text": "second", "was": "first"})
    assert str(e.value) == (f"cannot write {sidecar} (Operation not permitted): the annotation was not saved; those "
                            f"saved before are kept: an immutable or append-only file or folder? (lsattr -d runs {sidecar} "
                            "shows which; chattr -i -a undoes both), or copy the run "
                            f"with its annotations ({runs[1]} {sidecar}) to a folder that can be written and review the "
                            "copy"), str(e.value)   # (its newcomer: "copy it and use it there" of a sidecar led nowhere)
    assert load_json(sidecar)["annotations"]["dev-09#1"]["text"] == "first"
    # a folder that cannot be written: the copy its cure offers takes the notes saved with it
    real_access = os.access
    monkeypatch.setattr(os, "access", lambda path, mode, **kw: False if os.path.abspath(path) == os.path.abspath(
        os.path.dirname(runs[1])) and mode == os.W_OK else real_access(path, mode, **kw))
    with pytest.raises(evalpy.EvalError) as e:
        evalpy.Review(runs[1])
    # (129th round's perm attack: to root, whom no mode stops, a folder it cannot write is locked: "make the folder
    # writable" was said, which chmod could not do)
    assert str(e.value).endswith(f"its mode (755) lets you write in it, so it is locked: an immutable or append-only "
                                 f"folder? (lsattr -d runs shows which; chattr -i -a undoes both), or copy the run with its "
                                 f"annotations ({runs[1]} {sidecar}) to a folder that can be written and review the copy"), \
        str(e.value)


def test_a_run_in_another_users_folder_asks_its_owner_or_the_copy(project, runs, monkeypatch):
    """129th round: review of a run in another user's folder (755) said "make the folder writable", their chmod, which
    fails. Its owner is asked, or the copy made. (Ownership is set with chown, this process seen as user 1000; the folder
    is made unwritable to os.access: root writes every folder.)"""
    folder = os.path.dirname(runs[1])
    os.chown(folder, 4321, 4321)
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    real_access = os.access
    monkeypatch.setattr(os, "access", lambda path, mode, **kw: False if os.path.abspath(path) == os.path.abspath(folder)
                        and mode == os.W_OK else real_access(path, mode, **kw))
    with pytest.raises(evalpy.EvalError) as e:
        evalpy.Review(runs[1])
    assert str(e.value).endswith(f"ask its owner (uid 4321) to let you write in {folder}, or copy the run to a folder "
                                 "that can be written and review the copy"), str(e.value)


def test_another_users_annotations_in_a_sticky_folder_or_a_read_only_one_say_what_to_do(project, runs, monkeypatch):
    """128th round's newcomer: another user's annotations file in a sticky folder (as /tmp) was refused at start with no
    cure, and a save refused onto it (EPERM) was told to use lsattr and chattr, which fail there; one made read-only
    (mode 444) ran two cures together. (Ownership is set with chown, this process seen as user 1000; the rename fails
    as the system fails it.)"""
    review = evalpy.Review(runs[1])
    review.save({"key": "dev-09#1", "text": "first"})
    sidecar = runs[1] + ".annotations.json"
    os.chmod(sidecar, 0o444)
    with pytest.raises(evalpy.EvalError) as e:
        review.save({"key": "dev-09#1", "text": "second", "was": "first"})
    assert str(e.value) == (f"cannot write {sidecar} (it is read-only (mode 444)): the annotation was not saved; those "
                            f"saved before are kept: make it writable (chmod u+w {sidecar}), or copy the run with its "
                            f"annotations ({runs[1]} {sidecar}) to a folder that can be written and review the copy"), \
        str(e.value)
    os.chmod(sidecar, 0o644)
    folder = os.path.dirname(runs[1])
    os.chmod(folder, 0o1777)
    os.chown(sidecar, 4321, 4321)
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    def refused(tmp, path):
        raise PermissionError(errno.EPERM, "Operation not permitted", tmp, None, path)
    with monkeypatch.context() as patched, pytest.raises(evalpy.EvalError) as e:
        patched.setattr(os, "replace", refused)
        review.save({"key": "dev-09#1", "text": "second", "was": "first"})
    assert str(e.value) == (f"cannot write {sidecar} (Operation not permitted): the annotation was not saved; those saved "
                            f"before are kept: it is another user's file (uid 4321) in a folder where each user replaces "
                            f"only their own ({folder}, sticky): ask its owner to move it aside, or copy the run with its "
                            f"annotations ({runs[1]} {sidecar}) to a folder that can be written and review the copy"), \
        str(e.value)
    with pytest.raises(evalpy.EvalError) as e:
        evalpy.Review(runs[1])
    assert str(e.value) == (f"cannot write {sidecar}: it is another user's file (uid 4321) in a folder where each user "
                            f"replaces only their own ({folder}, sticky); no annotation could be saved there: ask its owner "
                            f"to move it aside, or copy the run with its annotations ({runs[1]} {sidecar}) to a folder that "
                            "can be written and review the copy"), str(e.value)


def test_a_save_refused_by_another_users_stale_lock_names_whose_it_is_and_the_cure(runs, monkeypatch):
    """131st round's perm attack: review of a run in a shared folder (group-writable) where another user's stale
    RUN.annotations.json.lock sits (mode 644, their stopped eval.py's): a save was answered HTTP 500 "cannot write
    ...lock (Permission denied: ...; fix the permissions, or use another path)", whose cure is theirs. It says whose lock
    it is, and rm (which the folder allows), or the copy. (The lock is refused as the system refuses it: others_stale_lock.)"""
    lock = runs[1] + ".annotations.json.lock"
    others_stale_lock(monkeypatch, lock)
    with serving(evalpy.Review(runs[1], against_path=runs[0])) as url:
        answer = requests.post(url + "/annotations", json={"key": "dev-05#1", "text": "mine", "was": ""}, timeout=10)
    assert answer.status_code == 500 and answer.json()["error"] == (
        f"cannot write {lock} (Permission denied): it is another user's lock (uid 4321); the annotation was not saved; "
        f"those saved before are kept. Remove it (rm {lock}; where that is refused, lsattr -d runs shows an append-only or "
        "immutable folder, and chattr -a -i undoes it, run by an administrator (root): ask one), or copy the run to a "
        "folder that can be written and review the copy"), answer.text
    assert not os.path.exists(runs[1] + ".annotations.json")


def test_a_refused_save_in_a_folder_whose_name_holds_or_says_its_cure_whole(runs, monkeypatch):
    """131st round's perm2 attack: review's cure after "or" (a copy of the run) was review_unwritable's text cut at its
    first ", or ", which a folder named "q, or z" holds before it: another user's stale lock there was answered "..., or
    z' to let you write in ..." (and alike its sticky folder's file of another user, and a replace refused). The cures
    are built from their parts, never read back out of a message."""
    os.makedirs("q, or z")
    run = shutil.copy(runs[1], "q, or z/dev-v3.json")
    lock, sidecar = run + ".annotations.json.lock", run + ".annotations.json"
    copy = "copy the run to a folder that can be written and review the copy"
    with monkeypatch.context() as patched:
        others_stale_lock(patched, lock)
        with serving(evalpy.Review(run)) as url:
            answer = requests.post(url + "/annotations", json={"key": "dev-05#1", "text": "mine", "was": ""}, timeout=10)
        assert answer.status_code == 500 and answer.json()["error"] == (
            "cannot write 'q, or z/dev-v3.json.annotations.json.lock' (Permission denied): it is another user's lock (uid "
            "4321); the annotation was not saved; those saved before are kept. Remove it (rm 'q, or z/dev-v3.json."
            "annotations.json.lock'; where that is refused, lsattr -d 'q, or z' shows an append-only or immutable folder, "
            f"and chattr -a -i undoes it, run by an administrator (root): ask one), or {copy}"), answer.text
    os.unlink(lock)
    review = evalpy.Review(run)
    review.save({"key": "dev-09#1", "text": "first"})
    os.chmod("q, or z", 0o1777)
    os.chown(sidecar, 4321, 4321)
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    copy = (f"copy the run with its annotations ('{run}' '{sidecar}') to a folder that can be written and review the "
            "copy")
    def refused(tmp, path):
        raise PermissionError(errno.EPERM, "Operation not permitted", tmp, None, path)
    with monkeypatch.context() as patched, pytest.raises(evalpy.EvalError) as e:
        patched.setattr(os, "replace", refused)
        review.save({"key": "dev-09#1", "text": "second", "was": "first"})
    assert str(e.value) == (f"cannot write '{sidecar}' (Operation not permitted): the annotation was not saved; those "
                            "saved before are kept: it is another user's file (uid 4321) in a folder where each user "
                            f"replaces only their own ('q, or z', sticky): ask its owner to move it aside, or {copy}"), \
        str(e.value)
    with pytest.raises(evalpy.EvalError) as e:
        evalpy.Review(run)
    assert str(e.value) == (f"cannot write '{sidecar}': it is another user's file (uid 4321) in a folder where each user "
                            "replaces only their own ('q, or z', sticky); no annotation could be saved there: ask its "
                            f"owner to move it aside, or {copy}"), str(e.value)


def test_another_users_unreadable_annotations_never_offer_a_copy_cp_cannot_make(project, runs, monkeypatch):
    """130th round's perm attack: review of a run in a sticky folder beside another user's annotations of mode 600
    offered "copy the run with its annotations (...) to a folder that can be written and review the copy", and cp cannot
    read them. Their owner is asked to make them readable first. (Ownership is set with chown, this process seen as user
    1000; the file made unreadable to os.access: root reads every file.)"""
    folder = os.path.dirname(runs[1])
    sidecar = runs[1] + ".annotations.json"
    Path(sidecar).write_text('{"annotations": {}}\n')
    os.chmod(sidecar, 0o600)
    os.chmod(folder, 0o1777)
    os.chown(sidecar, 4321, 4321)
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    real_access = os.access
    monkeypatch.setattr(os, "access", lambda path, mode, **kw: False if os.path.abspath(path) == os.path.abspath(sidecar)
                        else real_access(path, mode, **kw))
    with pytest.raises(evalpy.EvalError) as e:
        evalpy.Review(runs[1])
    assert str(e.value).endswith(f"ask its owner to move it aside, or ask its owner to make {sidecar} readable (mode 600: "
                                 f"cp cannot read it), then copy the run with its annotations ({runs[1]} {sidecar}) to a "
                                 "folder that can be written and review the copy"), str(e.value)


def test_a_temp_file_the_system_will_not_remove_is_named(project, runs, monkeypatch, capsys):
    """Round 127 left it open: in an append-only folder (chattr +a) a save's temp file is made, the rename onto the
    annotations refused, and the temp file cannot be removed either: it stayed there unnamed, a stray file the user
    never made. It is named, with why and what to do. (Both calls fail as chattr +a makes them.)"""
    evalpy.Review(runs[1]).save({"key": "dev-09#1", "text": "first"})
    sidecar = runs[1] + ".annotations.json"
    real_unlink = os.unlink
    def append_only(tmp, path):
        raise PermissionError(errno.EPERM, "Operation not permitted", tmp, None, path)
    def kept(path, *a, **kw):
        if ".tmp-" in os.fspath(path):
            raise PermissionError(errno.EPERM, "Operation not permitted", path)
        return real_unlink(path, *a, **kw)
    with monkeypatch.context() as patched, pytest.raises(evalpy.EvalError):
        patched.setattr(os, "replace", append_only)
        patched.setattr(os, "unlink", kept)
        evalpy.Review(runs[1]).save({"key": "dev-09#1", "text": "second", "was": "first"})
    left = [name for name in os.listdir("runs") if ".tmp-" in name]
    assert len(left) == 1, left
    err = capsys.readouterr().err
    # (the lsattr cure, as every file the system will not remove says it since the 129th round's perm review)
    assert f"note: could not remove the temp file runs/{left[0]} (Operation not permitted): an immutable or append-only " \
           f"file or folder? (lsattr -d runs runs/{left[0]} shows which; chattr -i -a undoes both); then remove it (rm " \
           f"runs/{left[0]})" in err, err
    real_unlink(os.path.join("runs", left[0]))
    assert load_json(sidecar)["annotations"]["dev-09#1"]["text"] == "first"
    # (128th round's newcomer) its first save in such a folder, no annotations file yet: the folder is named, with
    # lsattr's cure, where the temp file kept there hid it ("an immutable file (chattr -i)", of no file)
    def append_only_link(tmp, path, **kw):
        raise PermissionError(errno.EPERM, "Operation not permitted", tmp, None, path)
    with monkeypatch.context() as patched, pytest.raises(evalpy.EvalError) as e:
        patched.setattr(os, "link", append_only_link)
        patched.setattr(os, "replace", append_only_link)
        patched.setattr(os, "unlink", kept)
        evalpy.Review(runs[0]).save({"key": "dev-09#1", "text": "first"})
    assert str(e.value) == ("cannot write in runs (Operation not permitted): the annotation was not saved; those saved "
                            "before are kept: an append-only or immutable folder? (lsattr -d runs shows which; chattr -a -i "
                            "undoes both), or copy the run to a folder that can be written and review the copy"), str(e.value)
    for name in os.listdir("runs"):
        if ".tmp-" in name:
            real_unlink(os.path.join("runs", name))


def test_the_page_counts_only_this_runs_answers_and_a_held_lock_is_said_not_waited_on(server, project, runs, monkeypatch):
    """Sixty-third attack on issue 28: the page counted every entry of the annotations file, report only those of this
    run's answers (200,000 entries of an older run: the page's table all of them, report's none); a save behind a lock
    another process held (a second review stopped with Ctrl-Z) never answered; an annotation of a zero-width space
    alone was saved, a blank row in every table."""
    url, review = server
    sidecar = runs[1] + ".annotations.json"
    run_sha = evalpy.sha256_bytes((project / runs[1]).read_bytes())
    Path(sidecar).write_text(json.dumps({"format": evalpy.ANNOTATIONS_FORMAT, "run_sha": run_sha, "annotations": {
        "dev-01#1": {"text": "A", "time": "2026-01-01T00:00:00"}, "old-9#1": {"text": "B", "time": "2026-01-01T00:00:00"},
        "dev-01#2": {"text": "A", "time": "2026-01-01T00:00:00"}}}), encoding="utf-8")
    data = requests.get(url + "/data").json()
    assert data.get("counts") == [["A", 1]], data
    assert requests.post(url + "/annotations", json={"key": "dev-02#1", "text": "B"}).json()["counts"] == [["A", 1], ["B", 1]]
    assert [n for n in review.notes() if "name answers this run does not have" in n], review.notes()
    assert load_json(sidecar)["annotations"]["old-9#1"]["text"] == "B"   # kept, never dropped
    for unseen in ("\u200b", "\u200e", "\ufe0f", "\u034f"):   # (64th) a direction mark, a selector, a joiner alone too
        answer = requests.post(url + "/annotations", json={"key": "dev-03#1", "text": unseen})
        assert answer.status_code == 200 and "dev-03#1" not in load_json(sidecar)["annotations"], unseen
    requests.post(url + "/annotations", json={"key": "dev-03#1", "text": "B\u200b"})   # (64th) one category, not two
    assert requests.get(url + "/data").json()["counts"] == [["B", 2], ["A", 1]]
    # (65th) but what is seen apart stays apart: two flags, an emoji family and its members, a Persian word's joiner
    scotland, england = ("\U0001f3f4" + "".join(chr(0xE0000 + ord(c)) for c in tag) + "\U000e007f" for tag in ("gbsct", "gbeng"))
    for a, b in ((scotland, england), ("\U0001f468\u200d\U0001f469", "\U0001f468\U0001f469"),
                 ("\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645", "\u0645\u06cc\u062e\u0648\u0627\u0647\u0645")):
        assert len(evalpy.annotation_counts({"a#1": {"text": "wrong " + a}, "b#1": {"text": "wrong " + b}})) == 2, (a, b)
    # (round 109) an é typed as e and a combining accent is the é typed whole: one row
    counted = evalpy.annotation_counts({"a#1": {"text": "mal categoría"}, "b#1": {"text": "mal categori\u0301a"}})
    assert len(counted) == 1 and counted[0][1] == 2, counted
    # (66th) a joiner beside a Latin letter, a space or the end joins nothing: one row
    alike = {f"k{i}#1": {"text": t} for i, t in enumerate(("wrong label", "wrong \u200dlabel", "wrong label\u200c", "wrong label\u200b"))}
    assert evalpy.annotation_counts(alike) == [("wrong label", 4)]
    # (112th round) a text written by hand with a space at an end reads as the text without: one row, not three "x"
    assert evalpy.annotation_counts({"a#1": {"text": "x "}, "b#1": {"text": "x"}, "c#1": {"text": " x"}}) == [("x", 3)]
    # (67th) nor between two Latin, Cyrillic or CJK letters, nor doubled where one joins; a shorthand or hieroglyph
    # format mark alone is no annotation
    for a, b in (("Größe falsch", "Grö\u200dße falsch"), ("неверная", "невер\u200dная"), ("错误标签", "错\u200d误标签"),
                 ("של", "ש\u200dל")):
        assert len(evalpy.annotation_counts({"a#1": {"text": a}, "b#1": {"text": b}})) == 1, (a, b)
    # (71st) but a joiner in an emoji sequence or a joining script stays, whatever its neighbours' block: a black cat
    # is not a cat and a black square, nor Adlam joined Adlam apart
    # (72nd) nor is a run of them one: ZWNJ+ZWJ in Arabic shows another form, two ZWJ break a family in three
    for a, b in (("\U0001f408\u200d\u2b1b", "\U0001f408\u2b1b"), ("\U0001e900\u200d\U0001e901", "\U0001e900\U0001e901"),
                 ("\u0628\u200c\u200d\u0627", "\u0628\u200c\u0627"),
                 ("\U0001f468\u200d\U0001f469\u200d\U0001f467", "\U0001f468\u200d\u200d\U0001f469\u200d\U0001f467")):
        assert len(evalpy.annotation_counts({"a#1": {"text": a}, "b#1": {"text": b}})) == 2, (a, b)
    for unseen in ("\U0001bca0", "\U00013430", "\u0301", "\u200b\u0301", "\u0301 \u0301", "\u0301\u00a0\u0301"):
        # (round 109: a lone accent too, and accents a space apart)
        answer = requests.post(url + "/annotations", json={"key": "dev-03#1", "text": unseen})
        assert answer.status_code == 200 and "dev-03#1" not in load_json(sidecar)["annotations"], unseen
    monkeypatch.setattr(evalpy, "REVIEW_SAVE_WAIT", 2.0)
    holder = subprocess.Popen([sys.executable, "-c", "import fcntl, sys, time; f = open(sys.argv[1], 'a+'); "
                               "fcntl.flock(f, fcntl.LOCK_EX); print('held', flush=True); time.sleep(30)", sidecar + ".lock"],
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        answer = requests.post(url + "/annotations", json={"key": "dev-04#1", "text": "C"}, timeout=10)
        assert answer.status_code == 500 and "is held by another eval.py (process " in answer.json()["error"], answer.text
        # (64th) saves queued behind it share the one wait, never one each (the third answered after 30 s). Each is
        # timed from its own send (not its thread's start, late under load): at most its one wait and a round trip; a
        # bound of two waits catches one that waited out another's wait before its own, and leaves a loaded machine a
        # whole wait of slack (135th round: one bound on all three, 2 s, counted late thread starts and failed in CI)
        answers = []

        def timed():
            sent = time.monotonic()
            answer = requests.post(url + "/annotations", json={"key": "dev-04#1", "text": "C"}, timeout=30)
            answers.append((answer.status_code, time.monotonic() - sent))
        threads = [threading.Thread(target=timed) for _ in range(3)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert [code for code, _ in answers] == [500] * 3 and max(took for _, took in answers) < 2 * evalpy.REVIEW_SAVE_WAIT, \
            answers
    finally:
        holder.kill()
        holder.wait()
    assert requests.post(url + "/annotations", json={"key": "dev-04#1", "text": "C"}, timeout=10).status_code == 200


def test_a_page_that_had_not_seen_another_pages_save_never_undoes_it(server):
    """Round 88 on issue 28: a tab loaded before another tab saved an annotation sent its own text (or an empty one, by
    Enter on a field that looked empty) and silently replaced or removed it. The page sends the text it showed: a save
    over another's is refused (409) with what is stored, and the same save again replaces it on purpose."""
    url, review = server
    assert requests.post(url + "/annotations", json={"key": "dev-05#1", "text": "label swap", "was": ""}).status_code == 200
    stale = requests.post(url + "/annotations", json={"key": "dev-05#1", "text": "", "was": ""})
    assert stale.status_code == 409 and stale.json()["annotation"]["text"] == "label swap", stale.text
    assert "another page saved 'label swap' for this answer" in stale.json()["error"]
    assert load_json("runs/dev-v3.json.annotations.json")["annotations"]["dev-05#1"]["text"] == "label swap"
    # the page now shows it as saved, and sends it as what it showed: a save on purpose replaces it
    again = requests.post(url + "/annotations", json={"key": "dev-05#1", "text": "read as billing", "was": "label swap"})
    assert again.status_code == 200 and again.json()["annotation"]["text"] == "read as billing"
    # the same text another page saved is no conflict; a page that says nothing of what it showed saves as before
    assert requests.post(url + "/annotations", json={"key": "dev-05#1", "text": "read as billing", "was": ""}).status_code == 200
    assert requests.post(url + "/annotations", json={"key": "dev-05#1", "text": "x"}).status_code == 200
    page = requests.get(url + "/").text
    assert "text: asStored(text), was: was" in page and "response.status === 409" in page


def test_an_annotation_written_by_hand_is_replaced_and_removed_by_the_page_that_shows_it(server):
    """Round 110: an annotation edited by hand with two spaces (or past 200 characters, as read) could never be changed
    from the page: the text the page sent back as shown was squeezed before it was compared (409 "another page saved
    'wrong  label' ... since this page showed 'wrong label'", for ever), and one of 5,000 characters sent back made the
    body "past the 4,144 an annotation's save takes", blamed on the text typed."""
    url, review = server
    Path("runs/dev-v3.json.annotations.json").write_text(json.dumps({
        "format": evalpy.ANNOTATIONS_FORMAT, "run": "dev-v3.json", "run_sha": review.run_sha, "annotations": {
            "dev-05#1": {"text": "wrong  label", "time": "2026-01-01T00:00:00+00:00"},
            "dev-06#1": {"text": "x" * 5000, "time": "2026-01-01T00:00:00+00:00"}}}), encoding="utf-8")
    saved = requests.post(url + "/annotations", json={"key": "dev-05#1", "text": "label confusion", "was": "wrong  label"})
    assert saved.status_code == 200 and saved.json()["annotation"]["text"] == "label confusion", saved.text
    removed = requests.post(url + "/annotations", json={"key": "dev-06#1", "text": "", "was": "x" * 5000})
    assert removed.status_code == 200 and removed.json()["annotation"] is None, removed.text
    assert set(load_json("runs/dev-v3.json.annotations.json")["annotations"]) == {"dev-05#1"}
    # what another page saved since is still a conflict, however it is spaced
    stale = requests.post(url + "/annotations", json={"key": "dev-05#1", "text": "y", "was": "wrong  label"})
    assert stale.status_code == 409 and "another page saved 'label confusion'" in stale.json()["error"], stale.text
    # (111th round) one holding half a character (read, and shown as \ud800) is changed and removed from the page too:
    # the text it shows, sent back as "was", was refused as holding one (400, for ever); the text typed still is
    Path("runs/dev-v3.json.annotations.json").write_text(
        '{"format": "%s", "run": "dev-v3.json", "run_sha": "%s", "annotations": {"dev-04#1": {"text": "bad \\ud800 text", '
        '"time": "2026-01-01T00:00:00+00:00"}}}' % (evalpy.ANNOTATIONS_FORMAT, review.run_sha), encoding="utf-8")
    sent = b'{"key": "dev-04#1", "text": "fixed", "was": "bad \\ud800 text"}'
    saved = requests.post(url + "/annotations", data=sent, headers={"Content-Type": "application/json"})
    assert saved.status_code == 200 and saved.json()["annotation"]["text"] == "fixed", saved.text
    sent = b'{"key": "dev-04#1", "text": "half \\ud800", "was": "fixed"}'
    refused = requests.post(url + "/annotations", data=sent, headers={"Content-Type": "application/json"})
    assert refused.status_code == 400 and '"text" holds \\ud800' in refused.json()["error"], refused.text


def test_two_names_of_a_run_file_choose_the_file_to_save_to_under_one_lock(project, runs, cli):
    """Round 88 on issue 28: two reviews by two names of one run file (a hard link), neither having saved, released
    their first saves together and made a file each (20 of 30 tries); each name then kept its own for good. The file
    is chosen under one lock every name takes; and files kept apart from before are named by report."""
    os.link(runs[1], "runs/second.json")
    lock = evalpy.FileLock(min(runs[1], "runs/second.json") + ".annotations.json.lock")
    done = []
    saver = threading.Thread(target=lambda: done.append(evalpy.Review("runs/second.json").save({"key": "dev-05#1", "text": "b"})))
    saver.start()
    time.sleep(0.5)
    waited = not done and not [p for p in os.listdir("runs") if p.endswith(".annotations.json")]
    lock.release()
    saver.join(10)
    assert waited and done   # it waited for the lock every name takes, then saved
    evalpy.Review(runs[1]).save({"key": "dev-09#1", "text": "a"})
    files = [p for p in os.listdir("runs") if p.endswith(".annotations.json")]
    assert files == ["second.json.annotations.json"] and set(load_json("runs/" + files[0])["annotations"]) == {"dev-05#1", "dev-09#1"}
    # a file beside each name, from before: report says which is read, and names the other
    Path(runs[1] + ".annotations.json").write_text(Path("runs/second.json.annotations.json").read_text(encoding="utf-8"),
                                                    encoding="utf-8")
    code, out, err = cli("report", runs[1])
    assert code == 0 and ("note: 2 names of one run file (hard links) each keep a file of their own: "
                          "runs/dev-v3.json.annotations.json, runs/second.json.annotations.json; only "
                          "runs/dev-v3.json.annotations.json is read and written") in err, err


def test_annotations_saved_by_an_editor_with_a_byte_order_mark_are_read(project, runs, cli):
    """Round 88 on issue 28: a sidecar edited by hand and saved with a BOM (Notepad) was "damaged" to report and review."""
    evalpy.Review(runs[1]).save({"key": "dev-05#1", "text": "label swap"})
    path = Path(runs[1] + ".annotations.json")
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    code, out, err = cli("report", runs[1], "--json")
    assert code == 0 and json.loads(out)["annotations"]["counts"] == [["label swap", 1]], err
    evalpy.Review(runs[1]).save({"key": "dev-09#1", "text": "sentence"})
    assert set(load_json(str(path))["annotations"]) == {"dev-05#1", "dev-09#1"}


def test_two_runs_whose_names_files_link_across_take_their_locks_in_one_order(project, runs, monkeypatch):
    """Round 89 on issue 28: a.json and b.json one run file, c.json and d.json another, b's annotations a link to c's
    and d's to a's: a save by b took a's lock, then b's and c's; one by d took c's, then d's and a's. Each held what
    the other waited for, and one was refused after 10 s. Every lock is taken in one order now."""
    os.rename(runs[0], "runs/a.json")
    os.rename(runs[1], "runs/c.json")
    os.link("runs/a.json", "runs/b.json")
    os.link("runs/c.json", "runs/d.json")
    for run in ("runs/a.json", "runs/c.json"):
        evalpy.Review(run).save({"key": "dev-05#1", "text": "first"})
    os.symlink("c.json.annotations.json", "runs/b.json.annotations.json")
    os.symlink("a.json.annotations.json", "runs/d.json.annotations.json")
    slow = evalpy.FileLock
    class SlowLock(slow):   # each lock held a while before the next is asked for: the interleaving that deadlocked
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            time.sleep(0.3)
    monkeypatch.setattr(evalpy, "FileLock", SlowLock)
    outcomes = []
    def save(name, key):
        try:
            evalpy.Review(name).save({"key": key, "text": "second"})
            outcomes.append("saved")
        except evalpy.EvalError as e:
            outcomes.append(str(e))
    savers = [threading.Thread(target=save, args=("runs/b.json", "dev-09#1")),
              threading.Thread(target=save, args=("runs/d.json", "dev-11#1"))]
    started = time.monotonic()
    for saver in savers:
        saver.start()
    for saver in savers:
        saver.join(30)
    assert outcomes == ["saved", "saved"] and time.monotonic() - started < 8, outcomes


def test_a_page_told_of_a_removal_or_saving_twice_in_a_row_is_told_the_truth(server):
    """Round 89 on issue 28: a 409 over a removed annotation said another page "saved ''"; and the text a page
    sends as what it showed is the text it stores (spaces run together), so saving twice in a row is no conflict."""
    url, review = server
    assert requests.post(url + "/annotations", json={"key": "dev-05#1", "text": "x", "was": ""}).status_code == 200
    assert requests.post(url + "/annotations", json={"key": "dev-05#1", "text": "", "was": "x"}).status_code == 200
    stale = requests.post(url + "/annotations", json={"key": "dev-05#1", "text": "y", "was": "x"})
    assert stale.status_code == 409 and stale.json()["error"] == (
        "no annotation is stored for this answer, though this page showed 'x' (another page removed it, or its "
        "annotations file was changed); nothing was saved: save again to save yours"), stale.text
    # (round 91) one never saved was said to be removed
    never = requests.post(url + "/annotations", json={"key": "dev-07#1", "text": "y", "was": "xxx"})
    assert never.status_code == 409 and "removed this answer's annotation" not in never.json()["error"], never.text
    assert requests.post(url + "/annotations", json={"key": "dev-09#1", "text": "z", "was": ""}).status_code == 200
    stale = requests.post(url + "/annotations", json={"key": "dev-09#1", "text": "w", "was": ""})
    assert "since this page showed none; nothing was saved: save again to replace it" in stale.json()["error"], stale.text
    assert requests.post(url + "/annotations", json={"key": "dev-05#1", "text": "a  b", "was": ""}).status_code == 200
    assert requests.post(url + "/annotations", json={"key": "dev-05#1", "text": "a b c", "was": "a  b"}).status_code == 200
    # (120th round) a page's saves of an answer go one after another, each sending what is on file as the last left it
    assert "const was = it.annotation ? it.annotation.text" in requests.get(url + "/").text


def test_a_client_gone_before_its_request_was_read_leaves_no_traceback(server, capsys):
    """Round 106: a connection reset part way through the request line or the headers (a scanner, a killed client)
    printed socketserver's traceback in review's terminal; it leaves nothing, and the server answers on."""
    url, review = server
    host, port = url[len("http://"):].split(":")
    for sent in (b"GE", f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n".encode()):
        with socket.create_connection((host, int(port))) as s:
            s.sendall(sent)
            time.sleep(0.2)
            s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")   # reset on close
    time.sleep(0.5)
    assert requests.get(url + "/data", timeout=5).status_code == 200
    assert "Traceback" not in capsys.readouterr().err


def test_a_clash_of_saves_quotes_the_text_as_shown_everywhere(server):
    """Round 106: the 409's words quoted the other page's text with Python's repr over the tool's escaping: a backslash
    doubled (regex \\\\d+), an escape as \\\\x1b, and the quotes changing with the text."""
    url, review = server
    assert requests.post(url + "/annotations", json={"key": "dev-05#1", "text": "regex \\d+ isn't \x1b[31m", "was": ""}
                         ).status_code == 200
    stale = requests.post(url + "/annotations", json={"key": "dev-05#1", "text": "mine", "was": "other's"})
    assert stale.status_code == 409 and stale.json()["error"].startswith(
        "another page saved 'regex \\d+ isn't \\x1b[31m' for this answer since this page showed 'other's'; "), stale.text


def test_a_post_whose_body_never_comes_holds_no_stop(runs):
    """127th round's review: a POST was counted as a save to answer before its body was read, and one whose body never
    came (a page closed as it sent) held a stop 10 s in silence. It is counted once its body is read."""
    review = evalpy.Review(runs[1])
    with serving(review) as url:
        port = int(url.rsplit(":", 1)[1])
        stalled = socket.create_connection(("127.0.0.1", port))
        stalled.sendall(f"POST /annotations HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: "
                        "application/json\r\nContent-Length: 500\r\n\r\n{".encode())
        time.sleep(0.3)
        with review.answering:
            assert review.posts == 0
        stalled.close()


def test_a_stop_during_a_save_prints_no_traceback_and_waits_for_the_save(runs, capsys):
    """114th round: Ctrl-C while pages saved printed socketserver's traceback after "stopped" (a request thread's socket
    closed under it: OSError, Bad file descriptor), and a save under way was dropped as eval.py exited, its temporary
    file left behind. The closed socket is no traceback; the stop waits for the save."""
    review = evalpy.Review(runs[1])
    httpd = evalpy.serve_review(review, 0)
    try:
        gone = socket.socket()
        gone.close()
        httpd.process_request_thread(gone, ("127.0.0.1", 1))   # (a request whose socket the stop closed)
        assert "Traceback" not in capsys.readouterr().err
        saved, taken = threading.Event(), threading.Event()

        def saving():   # a save holding the sidecar's lock as the stop comes
            with review.lock:
                taken.set()
                time.sleep(0.3)
                saved.set()
        holder = threading.Thread(target=saving)
        holder.start()
        assert taken.wait(10)   # (the lock held before the stop, however late the thread starts)

        # (127th round) and its answer is sent: the handler a daemon thread, eval.py exited between the write and the
        # answer, and the page said "not saved" of a note the file held (a POST being answered is counted)
        answered, counted = threading.Event(), threading.Event()

        def answering():
            with review.answering:
                review.posts += 1
            counted.set()
            with review.lock:   # (its save waits on the one under way)
                pass
            time.sleep(0.3)     # (its answer being sent)
            answered.set()
            with review.answering:
                review.posts -= 1
                review.answering.notify_all()
        answer = threading.Thread(target=answering)
        answer.start()
        assert counted.wait(10)   # (the POST counted before the stop, however late the thread starts: 135th round)

        def interrupted(*args):
            raise KeyboardInterrupt
        httpd.serve_forever = interrupted
        evalpy.serve_until_stopped(httpd, runs[1], "x.annotations.json")
        assert saved.is_set() and answered.is_set() and "stopped" in capsys.readouterr().err
        holder.join()
        answer.join()
    finally:
        httpd.server_close()


def test_a_save_read_whole_as_the_stop_came_is_refused_at_once_never_written_unanswered(runs, monkeypatch):
    """135th round: a POST whose body was read but not yet counted as the stop came was not waited for: the stop took
    the sidecar's lock and returned, and the save waited out its turn on it to be told "save again" of a review gone (or,
    its lock taken before the stop's, was written as eval.py exited, unanswered). Once the stop has begun, a save not yet
    counted is refused at once, nothing written, saying the review stopped."""
    monkeypatch.setattr(evalpy, "REVIEW_SAVE_WAIT", 2.0)
    review = evalpy.Review(runs[1])
    httpd = evalpy.serve_review(review, 0)
    read, go, answers = threading.Event(), threading.Event(), []
    parse = evalpy.exact_json

    def read_then_held(text):   # the body read whole, its handler held before it is counted
        read.set()
        assert go.wait(30)
        return parse(text)
    monkeypatch.setattr(evalpy, "exact_json", read_then_held)
    serve = threading.Thread(target=httpd.serve_forever, args=(0.02,))
    serve.start()
    post = threading.Thread(target=lambda: answers.append(requests.post(
        f"http://127.0.0.1:{httpd.server_address[1]}/annotations", json={"key": "dev-05#1", "text": "x", "was": ""},
        timeout=30)))
    post.start()
    try:
        assert read.wait(30)
        httpd.shutdown()
        serve.join()

        def interrupted(*args):
            raise KeyboardInterrupt
        httpd.serve_forever = interrupted
        evalpy.serve_until_stopped(httpd, runs[1], "x.annotations.json")
    finally:
        go.set()
        post.join()
        httpd.server_close()
    assert answers[0].status_code == 500 and answers[0].json()["error"].startswith(
        "eval.py review was stopped as this save came: nothing was saved"), answers[0].text
    assert not os.path.exists(runs[1] + ".annotations.json")


def test_a_change_read_by_the_majority_of_trials_says_so_beside_its_pill(project):
    """114th round: review --against a run of three trials marked a case "fixed" beside two passing answers (the
    other run's first trial passed; its failing second and third were never shown). The pill says by which trials."""
    this = write_run("runs/one.json", make_run([("c1", "bug", ["bug"]), ("c2", "bug", ["bug"])]))
    other = write_run("runs/three.json", make_run([("c1", "bug", ["bug", "acceso", "acceso"]),
                                                   ("c2", "bug", ["bug", "bug", "bug"])], temperature=0.7))
    items = {i["key"]: i for i in evalpy.Review(this, against_path=other).items}
    assert (items["c1#1"]["change"], items["c1#1"]["other"]["verdict"]) == ("fixed", "pass")
    assert items["c1#1"]["change_by"] == ("by the majority of each case's trials: this run pass; the other "
                                          "pass · fail · fail"), items["c1#1"]
    assert items["c2#1"]["change"] is None and items["c2#1"]["change_by"] is None
    # runs of one answer a case: the pill alone, as before
    same = write_run("runs/same.json", make_run([("c1", "bug", ["acceso"]), ("c2", "bug", ["bug"])], temperature=0.7))
    items = {i["key"]: i for i in evalpy.Review(this, against_path=same).items}
    assert items["c1#1"]["change"] == "fixed" and items["c1#1"]["change_by"] is None


def test_a_sidecar_damaged_by_a_stray_comma_names_its_line_and_says_to_mend_it(project, runs, cli):
    """116th round's fuzz: one stray comma in an annotations file was "damaged, ...; move it aside to start afresh",
    naming no line nor fault, the advice a person's annotations thrown away."""
    review = evalpy.Review(runs[1])
    for key in ("dev-05#1", "dev-09#1"):
        review.save({"key": key, "text": "misread the rule"})
    path = Path(runs[1] + ".annotations.json")
    text = path.read_text(encoding="utf-8")
    # (after the first note's last field, whichever it is: a save writes a note's fields back in their order)
    path.write_text(text.replace("\n  }", ",\n  }", 1), encoding="utf-8")
    line = text[:text.index("\n  }")].count("\n") + 1
    code, out, err = cli("report", runs[1])
    assert code == 2 and f"damaged (bad JSON: " in err and f"(line {line + 1}, column" in err, err
    assert "mend it (a person's annotations are in it)" in err, err


def test_a_damaged_annotations_sidecar_names_its_field_at_fault(runs, project, cli):
    """118th round's attack on review: a format at fault (or another version's), an other_versions, an annotations or
    a run_sha of the wrong kind were each "damaged" alone; an empty file, or one holding no annotation, was to be
    mended, "a person's annotations are in it"; another version's format was "damaged", to be mended."""
    sidecar = project / (runs[1] + ".annotations.json")
    sha = evalpy.file_sha(runs[1])
    mend = "mend it (a person's annotations are in it), or move it aside to start afresh"
    none = "it holds no annotation: move it aside, or remove it"
    one = {"dev-09#1": {"text": "t"}}
    for data, why, tail in (({"run_sha": sha, "annotations": one}, 'it has no "format"', mend),
                            ({"format": 1, "annotations": {}}, "its \"format\" is a number, not 'eval.py-annotations/1'", none),
                            ({"format": "notes/1", "annotations": one}, "its \"format\" is 'notes/1', not "
                                                                        "'eval.py-annotations/1'", mend),
                            ({"format": evalpy.ANNOTATIONS_FORMAT, "run_sha": sha, "annotations": []},
                             'its "annotations" is a list, not an object', none),
                            ({"format": evalpy.ANNOTATIONS_FORMAT, "run_sha": sha}, 'it has no "annotations"', none),
                            ({"format": evalpy.ANNOTATIONS_FORMAT, "annotations": one, "other_versions": 5},
                             'its "other_versions" is a number, not an object', mend),
                            ({"format": evalpy.ANNOTATIONS_FORMAT, "annotations": {}, "other_versions": {"abc": []}},
                             "the version 'abc' of its \"other_versions\" is a list, not an object", mend),
                            ([1], "its JSON is a list, not an object", none),
                            (True, "its JSON is true, not an object", none),
                            ([{"text": "t"}], "its JSON is a list, not an object", mend),
                            (["dev-09: the judge misread the rule"], "its JSON is a list, not an object", mend),
                            ("dev-09: the judge misread the rule", "its JSON is text, not an object", mend),
                            ({"format": evalpy.ANNOTATIONS_FORMAT, "run_sha": sha, "annotation": one}, 'it has no "annotations"',
                             mend),   # (a key misspelt holds them: never to be removed)
                            ([], "its JSON is a list, not an object", none),
                            (None, "its JSON is null, not an object", none)):   # (119th round: null read as unread)
        sidecar.write_text(json.dumps(data))
        code, out, err = cli("report", runs[1])
        assert code == 2 and err == (f"error: {runs[1]}.annotations.json: damaged ({why}), not as eval.py review "
                                     f"writes an annotations file; {tail}\n"), err
    sidecar.write_text(json.dumps({"format": "eval.py-annotations/2", "run_sha": sha, "annotations": one}))
    code, out, err = cli("report", runs[1])
    assert code == 2 and err == (f"error: {runs[1]}.annotations.json: annotations in the format 'eval.py-annotations/2', "
                                 "of another eval.py version, which this one (eval.py-annotations/1) does not read: read "
                                 "it with that version, or move it aside to start afresh\n"), err
    sidecar.write_text("")
    code, out, err = cli("report", runs[1])
    assert code == 2 and err == (f"error: {runs[1]}.annotations.json: empty, not as eval.py review writes an annotations "
                                 "file; remove it, or move it aside\n"), err
    # (round 123) an older eval.py's RUN.labels.json is told its own format: told the new one, it then had "no annotations"
    sidecar.unlink()
    older = project / (runs[1] + ".labels.json")
    older.write_text(json.dumps({"format": "zzz", "labels": {}}))
    code, out, err = cli("report", runs[1])
    assert code == 2 and "its \"format\" is 'zzz', not 'eval.py-labels/1'" in err, err


def test_a_damaged_sidecar_holding_only_removals_says_it_holds_no_annotation(server, runs, cli):
    """132nd round: a damaged annotations file holding no note, only review's removal records or its revision count,
    was to be mended, "a person's annotations are in it", in report, in review's /data and in its saves; it holds none
    (a removal is no note), as {"annotations": {}} alone is told. A note beside them, or a key of a person's own, is
    still to be mended."""
    url, review = server
    base = {"run": "dev-v3.json", "run_sha": review.run_sha}
    none = "it holds no annotation: move it aside, or remove it"
    mend = "mend it (a person's annotations are in it), or move it aside to start afresh"
    kind = "its \"format\" is a number, not 'eval.py-annotations/1'"
    for data, why, tail in (
            ({"format": 3, **base, "annotations": {}, "removed": {"dev-01#1": {"rev": 2, "time": "t"}}}, kind, none),
            ({"format": 3, **base, "revision": 7, "annotations": {}}, kind, none),
            ({"format": evalpy.ANNOTATIONS_FORMAT, **base, "revision": 2, "annotations": {}, "removed": ["dev-01#1"]},
             'its "removed" is a list, not an object', none),
            ({"format": 3, **base, "annotations": {"dev-09#1": {"text": "t"}}, "removed": {"dev-01#1": {"rev": 2}}},
             kind, mend),
            ({"format": 3, **base, "revision": 2, "annotations": {}, "by": "alice"}, kind, mend)):
        assert_damaged_everywhere(url, cli, runs[1], data, why, tail)


def assert_damaged_everywhere(url, cli, run, data, why, tail):
    """RUN.annotations.json written as data is refused as damaged (why, then its cure, tail) by report, by review's /data
    and by its saves, and never rewritten."""
    sidecar = Path(run + ".annotations.json")
    sidecar.write_text(json.dumps(data))
    code, out, err = cli("report", run)
    said = f"{run}.annotations.json: damaged ({why}), not as eval.py review writes an annotations file; {tail}"
    assert code == 2 and err == f"error: {said}\n", err
    answer = requests.get(url + "/data", timeout=10)
    assert answer.status_code == 500 and answer.json()["error"] == said, answer.text
    answer = requests.post(url + "/annotations", json={"key": "dev-05#1", "text": "x", "was": ""}, timeout=10)
    assert answer.status_code == 500 and answer.json()["error"].endswith(tail), answer.text
    assert json.loads(sidecar.read_text()) == data   # (never rewritten)


def test_a_removal_a_hand_edit_left_malformed_is_named_never_dropped_by_a_save(server, runs, cli):
    """133rd round: a removal record ("removed": {key: {"rev", "time"}}) a hand edit left malformed (a list, no rev, a rev
    of text or negative, a time of a number) was read as none, and the page's next save wrote the file without it,
    unsaid. The file is refused as damaged, the removal at fault named, as a note at fault is; one well formed is kept."""
    url, review = server
    base = {"format": evalpy.ANNOTATIONS_FORMAT, "run": "dev-v3.json", "run_sha": review.run_sha, "revision": 4,
            "annotations": {"dev-09#1": {"text": "t", "time": "x", "rev": 1}}}
    mend = "mend it (a person's annotations are in it), or move it aside to start afresh"
    at = 'the removal of dev-01#1 in its "removed"'
    whole = 'not a whole number of 0 or more up to 9,007,199,254,740,991'
    for removal, why in ((["rev", 2], f'{at} is a list, not an object {{"rev": ..., "time": ...}}'),
                         ("judge was right", f'{at} is text, not an object {{"rev": ..., "time": ...}}'),
                         ({"time": "t"}, f'{at} has no "rev"'), ({"rev": 2}, f'{at} has no "time"'),
                         ({"rev": "2", "time": "t"}, f'{at} has text as its "rev", {whole}'),
                         ({"rev": -5, "time": "t"}, f'{at} has a number as its "rev", {whole}'),
                         ({"rev": 2, "time": 7}, f'{at} has a number as its "time", not text'),
                         ({"rev": 2, "time": "t", "save_id": ["s"]}, f'{at} has a list as its "save_id", not text')):
        assert_damaged_everywhere(url, cli, runs[1], {**base, "removed": {"dev-01#1": removal}}, why, mend)
    kept = {"dev-01#1": {"rev": 2, "time": "t", "by": "alice"}}
    Path(runs[1] + ".annotations.json").write_text(json.dumps({**base, "removed": kept}))
    answer = requests.post(url + "/annotations", json={"key": "dev-05#1", "text": "x", "was": ""}, timeout=10)
    assert answer.status_code == 200 and answer.json()["removed"] == {"dev-01#1": 2}, answer.text
    assert load_json(runs[1] + ".annotations.json")["removed"] == kept


def sidecar_of(review, runs, **fields):
    """Writes the run's annotations file as a hand edit leaves it: this version's, its revision 4 unless given."""
    Path(runs[1] + ".annotations.json").write_text(json.dumps(
        {"format": evalpy.ANNOTATIONS_FORMAT, "run": "dev-v3.json", "run_sha": review.run_sha, "revision": 4, **fields}))


def post_note(url, key, text, was=""):
    return requests.post(url + "/annotations", json={"key": key, "text": text, "was": was}, timeout=10)


def test_a_whole_rev_written_as_a_float_is_its_number_in_a_note_and_in_a_removal(server, runs):
    """134th round: a removal whose "rev" a hand edit (or another tool's JSON) left 2.0 was refused as "not a whole
    number", the file damaged for review and report, where a note's 7.0 was read as no revision (checked by its text).
    Both are the number they are: the note's counted in the next revision, the removal kept and named to the page by it."""
    url, review = server
    sidecar_of(review, runs, annotations={"dev-09#1": {"text": "t", "time": "x", "rev": 7.0}})
    assert post_note(url, "dev-05#1", "x").json()["annotation"]["rev"] == 8
    sidecar_of(review, runs, annotations={"dev-09#1": {"text": "t", "time": "x", "rev": 1}},
               removed={"dev-01#1": {"rev": 2.0, "time": "t"}})
    answer = post_note(url, "dev-05#1", "x")
    assert answer.status_code == 200 and answer.json()["removed"] == {"dev-01#1": 2}, answer.text
    assert load_json(runs[1] + ".annotations.json")["removed"] == {"dev-01#1": {"rev": 2, "time": "t"}}


def test_a_sidecars_revision_written_as_a_float_is_its_number(server, runs, cli):
    """134th round: the sidecar's own "revision" a hand edit left 7.0 was still refused ("its "revision" is a number,
    not a whole number of 0 or more"), the file damaged for review and report, where a note's rev 7.0 was read. It is
    7: report reads the file, and the next save is revision 8; 7.5 is refused as before."""
    url, review = server
    sidecar_of(review, runs, revision=7.0, annotations={"dev-09#1": {"text": "t", "time": "x", "rev": 1}})
    code, out, err = cli("report", runs[1])
    assert code in (0, 1) and "damaged" not in err, err
    answer = post_note(url, "dev-05#1", "x")
    assert answer.status_code == 200 and answer.json()["annotation"]["rev"] == 8, answer.text
    assert load_json(runs[1] + ".annotations.json")["revision"] == 8
    sidecar_of(review, runs, revision=7.5, annotations={})
    answer = post_note(url, "dev-05#1", "y")
    assert answer.status_code == 500 and 'its "revision" is a number, not a whole number of 0 or more)' \
        in answer.json()["error"], answer.text


def test_a_removal_review_writes_at_the_revision_cap_is_read_and_the_next_holds_too(server, runs, cli):
    """133rd round: a note's rev at REVISION_PAST - 1 (a hand edit), a removal from the page was written with the capped
    rev 9,007,199,254,740,991, which the reader refused: the file was "damaged" for good, and mended it was again at the
    next removal. A removal at the cap is read (by its text, as a note at it is); one past it is still refused."""
    url, review = server
    cap = evalpy.REVISION_PAST
    sidecar_of(review, runs, annotations={"dev-09#1": {"text": "keep", "time": "t", "rev": cap - 1},
                                          "dev-05#1": {"text": "drop me", "time": "t", "rev": 2},
                                          "dev-06#1": {"text": "me too", "time": "t", "rev": 3}})
    for key, was in (("dev-05#1", "drop me"), ("dev-06#1", "me too")):
        answer = post_note(url, key, "", was)
        assert answer.status_code == 200 and answer.json()["removed"][key] == cap, answer.text
        assert requests.get(url + "/data", timeout=10).status_code == 200
        code, out, err = cli("report", runs[1])
        assert code == 0, err
    assert load_json(runs[1] + ".annotations.json")["removed"].keys() == {"dev-05#1", "dev-06#1"}
    assert post_note(url, "dev-05#1", "back", "").status_code == 200   # (checked by its text: none shown, none on file)
    past = {"dev-01#1": {"rev": cap + 1, "time": "t"}}
    mend = "mend it (a person's annotations are in it), or move it aside to start afresh"
    assert_damaged_everywhere(url, cli, runs[1], {"format": evalpy.ANNOTATIONS_FORMAT, "run_sha": review.run_sha,
                                                 "annotations": {"dev-09#1": {"text": "t"}}, "removed": past},
                              'the removal of dev-01#1 in its "removed" has a number as its "rev", not a whole number of '
                              '0 or more up to 9,007,199,254,740,991', mend)


def test_a_removal_of_an_answer_annotated_by_hand_since_is_kept_until_a_save_of_that_answer(server, runs):
    """133rd round: a removal of an answer a note was written for by hand since was dropped, its own fields with it, at
    the next save of any answer, though only a save of that answer writes over it (README: never dropped at the next
    save). It is kept as written until then; the hand-written note is the one the page shows and replaces."""
    url, review = server
    removal = {"rev": 3, "time": "z", "by": "alice"}
    sidecar_of(review, runs, annotations={"dev-09#1": {"text": "t", "time": "x", "rev": 1},
                                          "dev-01#1": {"text": "written by hand", "time": "y", "by": "bob"}},
               removed={"dev-01#1": removal})
    assert post_note(url, "dev-05#1", "x").status_code == 200
    assert load_json(runs[1] + ".annotations.json")["removed"] == {"dev-01#1": removal}
    answer = post_note(url, "dev-01#1", "by the page", "written by hand")
    assert answer.status_code == 200 and answer.json()["annotation"]["text"] == "by the page", answer.text
    assert "removed" not in load_json(runs[1] + ".annotations.json")


def test_an_older_run_versions_removals_are_kept_with_its_notes_through_saves(server, runs, cli):
    """133rd round: the annotations file of another version of the run (made again under its name), a save of this
    version's page kept that version's notes under "other_versions" and dropped its "removed", fields and all. They are
    kept under "other_versions_removed" by its hash, never this version's; one malformed there is named, as in "removed"."""
    url, review = server
    old = "0" * 64
    removal = {"rev": 3, "time": "z", "by": "alice"}
    sidecar_of(review, runs, run_sha=old, annotations={"dev-09#1": {"text": "old", "time": "x", "rev": 1}},
               removed={"dev-01#1": removal})
    for text in ("x", "y"):
        answer = post_note(url, "dev-05#1", text, "x" if text == "y" else "")
        assert answer.status_code == 200 and answer.json()["removed"] == {}, answer.text
        written = load_json(runs[1] + ".annotations.json")
        assert written["other_versions_removed"] == {old: {"dev-01#1": removal}} and "removed" not in written, written
        assert written["other_versions"] == {old: {"dev-09#1": {"text": "old", "time": "x", "rev": 1}}}
    assert_damaged_everywhere(url, cli, runs[1], {**written, "other_versions_removed": {old: {"dev-01#1": {"rev": 3}}}},
                              f'the removal of dev-01#1 in the version {old[:19] + "…"!r} of its "other_versions_removed" '
                              'has no "time"', "mend it (a person's annotations are in it), or move it aside to start afresh")


def test_a_note_written_by_hand_is_written_back_as_it_was_by_a_save_of_another_answer(server, runs):
    """133rd round: a note written by hand without "time" ({"text": "no time here"}) came back from a save of another
    answer as {"text": "no time here", "time": null}, in "other_versions" too: a field the person never wrote. Each is
    written back as it was, its fields in their order; the page's own save of it writes its time."""
    url, review = server
    notes = {"dev-09#1": {"text": "no time here"}, "dev-06#1": {"by": "bob", "text": "by first", "rev": 1}}
    sidecar_of(review, runs, annotations=notes, other_versions={"f" * 64: {"dev-01#1": {"text": "old", "x": 1}}})
    assert post_note(url, "dev-05#1", "x").status_code == 200
    written = load_json(runs[1] + ".annotations.json")
    assert {k: list(written["annotations"][k].items()) for k in notes} == {k: list(v.items()) for k, v in notes.items()}
    assert written["other_versions"] == {"f" * 64: {"dev-01#1": {"text": "old", "x": 1}}}
    answer = post_note(url, "dev-09#1", "now timed", "no time here")
    assert answer.status_code == 200 and isinstance(answer.json()["annotation"]["time"], str), answer.text


def test_a_note_or_removal_at_fault_is_named_by_its_whole_key_never_one_cut_alike_another(server, runs, cli):
    """133rd round: a removal (or a note) at fault was named by its key cut to 60 characters: of two long keys alike but
    for their end, both named the same, the one to mend was not said. It is named whole (escaped); a key past 240
    characters by both its ends and its length."""
    url, review = server
    long = "support-ticket-" + "billing-refund-" * 6
    mend = "mend it (a person's annotations are in it), or move it aside to start afresh"
    for removed, notes, why in (
            ({long + "A#1": {"rev": 2, "time": "t"}, long + "B#1": {"rev": "2", "time": "t"}}, {"dev-09#1": {"text": "t"}},
             f'the removal of {long}B#1 in its "removed" has text as its "rev", not a whole number of 0 or more up to '
             '9,007,199,254,740,991'),
            ({}, {long + "A#1": {"text": "t"}, long + "B#1": {"text": ""}}, f"the annotation of {long}B#1 has no text, "
                                                                              "or an empty one"),
            ({}, {"a" * 150 + "b" * 150 + "#1": [1]}, f"the annotation of {'a' * 100}…{'b' * 98}#1 (302 characters) is a "
                                                      'list, not an object {"text": ..., "time": ...}'),
            # (round 136) cut as shown, its backslash and n doubled (a\\nb) was cut between the two backslashes: its
            # last 100 began "\n", a line break's escape, and its length counted the doubling
            ({}, {"a" * 150 + "\\n" + "b" * 96 + "#1": [1]},
             f"the annotation of {'a' * 100}…\\\\n{'b' * 96}#1 (250 characters) is a list, not an object "
             '{"text": ..., "time": ...}')):
        assert_damaged_everywhere(url, cli, runs[1], {"format": evalpy.ANNOTATIONS_FORMAT, "run_sha": review.run_sha,
                                                      "annotations": notes, "removed": removed}, why, mend)


def test_a_save_refused_for_a_run_replaced_is_a_refusal_never_a_server_failure(server, runs):
    """121st round: the run file replaced under review, a save was refused with the right words but as HTTP 500, which
    the browser logs as the server's failure; it is 412 (not 409: the page reads that as another page's save)."""
    import shutil
    url, review = server
    shutil.copy(runs[0], runs[1])
    answer = requests.post(url + "/annotations", json={"key": "dev-05#1", "text": "x", "was": ""}, timeout=10)
    assert answer.status_code == 412 and "is no longer the run this page shows" in answer.json()["error"], answer.text


def test_a_save_from_a_page_of_another_run_is_refused(server, runs):
    """Round 123, in Chromium: a tab left open as review was started again on another run (at the same --port) said
    "saved" and put its note beside that run, on an answer the page never showed. The page sends the run it shows."""
    url, review = server
    shown = requests.get(url + "/data", timeout=10).json()["run_sha"]
    assert shown == evalpy.file_sha(runs[1])
    answer = requests.post(url + "/annotations", json={"key": "dev-05#1", "text": "x", "was": "", "run_sha": "0" * 64},
                           timeout=10)
    assert answer.status_code == 412 and answer.json()["error"].startswith(
        "this page shows another run than the one this review serves now (runs/dev-v3.json: review was started again "
        "since, on another run or a changed one): nothing was saved; reload the page"), answer.text
    assert not os.path.exists(runs[1] + ".annotations.json")
    answer = requests.post(url + "/annotations", json={"key": "dev-05#1", "text": "x", "was": "", "run_sha": 5}, timeout=10)
    assert answer.status_code == 400 and '"run_sha" is a number, not a text' in answer.json()["error"], answer.text
    # (its newcomer) a copy of the run, the same bytes under another name: the page names its run by its path too
    answer = requests.post(url + "/annotations", json={"key": "dev-05#1", "text": "x", "was": "", "run_sha": shown,
                                                       "run": "runs/copy.json"}, timeout=10)
    assert answer.status_code == 412 and "this page shows another run" in answer.json()["error"], answer.text
    answer = requests.post(url + "/annotations", json={"key": "dev-05#1", "text": "x", "was": "", "run_sha": shown,
                                                       "run": runs[1]}, timeout=10)
    assert answer.status_code == 200 and load_json(runs[1] + ".annotations.json")["annotations"]["dev-05#1"]["text"] == "x"
    # (125th round) the same file by another name (review started again as ./runs/dev-v3.json) is the same run
    for name in ("./" + runs[1], os.path.abspath(runs[1])):
        answer = requests.post(url + "/annotations", json={"key": "dev-05#1", "text": name[:20], "was": "x" if name[0] == "."
                                                           else "./" + runs[1][:18], "run_sha": shown, "run": name}, timeout=10)
        assert answer.status_code == 200, answer.text


def test_a_save_from_a_page_of_another_run_is_told_so_before_its_key_is_looked_up(server, runs):
    """129th round: a tab left open as review was started again on another run at the same port sends a key of its own
    run: it was told '"key" ... names no answer of this run ... send {"key": ...}', words for an API client, never the
    412 that says to reload. And a folder where the annotations file goes said "give the same command again" on the
    page, where its cure is to save again."""
    url, review = server
    answer = requests.post(url + "/annotations", json={"key": "dev-99#1", "text": "x", "was": "", "run_sha": "0" * 64,
                                                       "run": "runs/other.json"}, timeout=10)
    assert answer.status_code == 412 and answer.json()["error"].startswith(
        "this page shows another run than the one this review serves now"), answer.text
    os.mkdir(runs[1] + ".annotations.json")
    answer = requests.post(url + "/annotations", json={"key": "dev-05#1", "text": "x", "was": ""}, timeout=10)
    assert answer.status_code == 500 and answer.json()["error"] == (
        f"{runs[1]}.annotations.json: a folder, where the run's annotations file goes; move it aside (or rename it), "
        "then save again"), answer.text


def test_a_save_names_the_revision_of_the_note_it_showed(server, runs):
    """129th round: a save a page gave up on (held on the way) landed after a later one of that page and undid it; the
    page's mark and its saves' numbers, kept in memory, guarded one page of one review only. A save names the revision
    of the note it showed (was_rev, its "rev"; test_a_save_held_on_the_way_never_lands_after_a_restart_or_from_another_page):
    anything but a whole number, or null for none, is refused, naming it; a page's mark and number are no longer read."""
    url, review = server

    def save(text, was, **more):
        return requests.post(url + "/annotations", json={"key": "dev-05#1", "text": text, "was": was, **more}, timeout=10)
    first = save("A", "", was_rev=None).json()["annotation"]
    assert save("X", "A", was_rev=first["rev"], page="p1", seq=1).status_code == 200
    late = save("Y", "X", was_rev=first["rev"])   # (the text it names is on file: the revision is not)
    assert late.status_code == 409 and late.json()["annotation"]["text"] == "X", late.text
    assert load_json(runs[1] + ".annotations.json")["annotations"]["dev-05#1"]["text"] == "X"
    for rev, said in ((1.5, '"was_rev" is a number, not a whole'), ("3", '"was_rev" is text, not a whole'),
                      (-1, '"was_rev" is a number, not a whole')):
        answer = save("x", "X", was_rev=rev)
        assert answer.status_code == 400 and said in answer.json()["error"], answer.text
    # (its review) a note's "rev" a hand edit left negative, or past what a page's number holds exactly, counts as none:
    # checked by its text, where every save of it was refused for good ("was_rev" -5 refused; 2**53+1 read as 2**53,
    # "saved again" each time)
    sidecar = runs[1] + ".annotations.json"
    for bad in (-5, 2 ** 53 + 1, 10 ** 23):
        stored = load_json(sidecar)
        stored["annotations"]["dev-05#1"]["rev"] = bad
        stored["revision"] = 7
        with open(sidecar, "w", encoding="utf-8") as f:
            json.dump(stored, f)
        text = stored["annotations"]["dev-05#1"]["text"]
        answer = save(text + "+", text, was_rev=None)
        assert answer.status_code == 200 and answer.json()["annotation"]["rev"] == 8, answer.text
    stored = load_json(sidecar)   # a file's count past the bound is refused, mend it named
    stored["revision"] = 2 ** 53
    with open(sidecar, "w", encoding="utf-8") as f:
        json.dump(stored, f)
    answer = save("z", stored["annotations"]["dev-05#1"]["text"])
    assert answer.status_code == 500 and 'its "revision" is a number, not a whole number of 0 or more up to ' \
        "9,007,199,254,740,991" in answer.json()["error"], answer.text
