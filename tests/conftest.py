"""Shared fixtures: a fake Ollama on 127.0.0.1, a throw-away project folder, the CLI in-process,
and run files built directly (make_run) for the stages that only read them back."""

import contextlib
import errno
import functools
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

import eval as evalpy  # noqa: E402  (eval.py, the tool under test)

# Ctrl-C as a terminal gives it, to every eval.py a test starts: a suite run as a background job (a script's `&`) hands
# its processes SIGINT ignored, which eval.py keeps (by design) and its children inherit, and every Ctrl-C test ran on
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

from fake_ollama import FakeOllama  # noqa: E402

# how eval.py names itself in the commands it prints, started by its path from another folder (program())
STARTED = f"python {evalpy.shell_word(str(ROOT / 'eval.py'))}"


@pytest.fixture
def fake():
    server = FakeOllama().start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def module_chromium():
    """One headless Chromium for a module's browser tests: launching it costs about a second a test."""
    import browser
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        chromium = browser.launch(p)
        yield chromium
        chromium.close()


@pytest.fixture
def chromium(module_chromium):
    """The module's Chromium; every context (and so tab) a test opened is closed after it."""
    yield module_chromium
    for context in module_chromium.contexts:
        context.close()


@functools.lru_cache(maxsize=None)
def tracked(part):
    """The files git tracks under ROOT/part, asked once a session (most tests copy the shipped set,
    and a git process each time cost the suite seconds); None outside a git checkout."""
    try:
        listed = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z", "--", part], capture_output=True,
                                check=True, timeout=30).stdout.decode("utf-8").split("\0")
    except (OSError, subprocess.SubprocessError):
        return None
    return tuple(filter(None, listed)) or None


def copy_shipped(part, folder):
    """Copy ROOT/part (a folder or a file) into folder as the repository ships it: the files git
    tracks, with a contributor's edits, never the files one added (prompts/v4.txt, as the README
    invites, would become the default prompt of every test's run). Outside a git checkout (an
    unpacked archive), the whole of it."""
    listed = tracked(part)
    if not listed:
        (shutil.copytree if (ROOT / part).is_dir() else shutil.copy)(ROOT / part, folder / part)
        return
    for name in listed:
        if (ROOT / name).is_file():   # a tracked file the contributor deleted is not shipped either
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, folder / name)


@pytest.fixture
def project(tmp_path, monkeypatch):
    """A copy of the golden set and prompts in a temporary folder that is the working directory."""
    copy_shipped("golden", tmp_path)
    copy_shipped("prompts", tmp_path)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("OLLAMA_HOST", raising=False)
    monkeypatch.setattr(evalpy, "RETRY_BASE_SECONDS", 0.01)   # keep retry tests fast
    return tmp_path


@pytest.fixture
def cli(capsys):
    """Run `eval.py ARGS` in-process; returns (exit code, stdout, stderr)."""
    def run(*argv):
        code = evalpy.main([str(a) for a in argv])
        out, err = capsys.readouterr()
        return code, out, err
    return run


def read_cases(path):
    return [json.loads(line) for line in Path(path).read_text(encoding="utf-8").splitlines()]


def answer_key(split_path, overrides=None):
    """input text -> answer: the expected label, except for the ids in overrides."""
    overrides = overrides or {}
    return {c["input"]: overrides.get(c["id"], c["expected"]) for c in read_cases(split_path)}


def load_json(path):
    return json.loads(Path(path).read_text(encoding="utf-8"))


# --- answers several files use

LABELS = ["facturación", "bug", "acceso", "petición"]   # golden/labels.txt
HOSTILE = '<script>window.pwned=1</script><img src=x onerror="window.pwned=2">'
# prompt v2 on dev: 25/28; dev-11's answer matches no label (invalid)
V2_MISSES = {"dev-09": "facturación", "dev-11": "Categoría: bug", "dev-24": "petición"}
V2_HOSTILE_MISSES = V2_MISSES | {"dev-11": HOSTILE}   # the same, dev-11 answered with markup
V3_MISSES = {"dev-05": "acceso"}                                  # 27/28: fixes v2's three, breaks dev-05
V1_MISSES = {f"dev-{i:02d}": "acceso" for i in (1, 2, 4, 5, 6, 7)}   # 22/28: six that v2 got right


def small_split(labels, cases):
    """small/s.jsonl in the working folder, its cases (id, expected) asking "ticket <id>", and
    small/labels.txt beside it; returns the split's path."""
    Path("small").mkdir()
    Path("small/labels.txt").write_text("".join(label + "\n" for label in labels), encoding="utf-8")
    Path("small/s.jsonl").write_text("".join(
        json.dumps({"id": cid, "input": f"ticket {cid}", "expected": expected, "difficulty": "easy", "note": "n"},
                   ensure_ascii=False) + "\n" for cid, expected in cases), encoding="utf-8")
    return "small/s.jsonl"


# --- run files without a model: make_run builds what `eval.py run` would have written

LABEL_CHECK = {"name": "label", "type": "label", "blocking": True}


def sha(text):
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def make_run(cases, labels=LABELS, **config):
    """A run as eval.py writes it (format, config, one result per case and trial), built directly.

    A case is (id, expected, response) or a dict of result fields; missing fields get eval.py's
    values or a plain default (input "ticket <id>", difficulty "easy", the label check when there
    are labels). "response" is the model's answer, or a list of them, one per trial (the run's
    repeat is the longest list, or repeat=K); None is a request that got no usable answer ("error" says why).
    Keyword arguments replace config keys; the prompt's text is the shipped file's when there is one."""
    specs = [c if isinstance(c, dict) else dict(zip(("id", "expected", "response"), c)) for c in cases]
    repeat = config.setdefault(
        "repeat", max((len(s["response"]) for s in specs if isinstance(s.get("response"), list)), default=1))
    results = []
    for s in specs:
        case = {"id": s["id"]}
        if "messages" in s:   # a conversation case: its turns instead of an input
            case["messages"] = s["messages"]
        else:
            case["input"] = s.get("input", f"ticket {s['id']}")
        if "expected" in s:
            case["expected"] = s["expected"]
        case.update(difficulty=s.get("difficulty", "easy"), note=s.get("note", "n"), tags=s.get("tags", []))
        if "vars" in s:
            case["vars"] = s["vars"]
        case["checks"] = s.get("checks", [dict(LABEL_CHECK)] if labels is not None else [])
        if "pass_threshold" in s:
            case["pass_threshold"] = s["pass_threshold"]
        case.update({k: s[k] for k in ("tools", "tool_results") if k in s})   # an agent's
        case.update({k: s[k] for k in ("context", "relevant") if k in s})   # RAG: passages, relevance labels
        answers = s.get("response", s.get("expected"))
        for trial, answer in enumerate(answers if isinstance(answers, list) else [answers] * repeat, 1):
            call = {"response": answer, "error": None, "attempts": 1, "latency_ms": s.get("latency_ms", 120.0),
                    "prompt_tokens": 32, "completion_tokens": 2, "total_duration_ns": 812345678,
                    "load_duration_ns": 1234567, "prompt_eval_duration_ns": 123456789,
                    "eval_duration_ns": 456789012, "done_reason": s.get("done_reason", "stop"), "judges": s.get("judges"),
                    "thinking": s.get("thinking")}
            call.update({k: s[k] for k in ("transcript", "per_turn", "out_of_turns") if k in s})   # an agent's
            call.update({k: s[k] for k in evalpy.TIMING_FIELDS if k in s})   # (a turn that sent no counts: None)
            if answer is None:
                call = dict.fromkeys(call, None) | {"error": s.get("error", "HTTP 500: boom"), "attempts": 4}
            results.append({**case, "trial": trial, **call})
    prompt = config.get("prompt", "prompts/v3.txt")
    shipped = ROOT / prompt
    prompt_text = config.get("prompt_text", shipped.read_text(encoding="utf-8") if shipped.is_file()
                             else f"Clasifica el ticket ({prompt}).\n")
    split_id = json.dumps([[s["id"], s.get("input"), s.get("expected")] for s in specs], ensure_ascii=False)
    run_config = {
        "model": "qwen2.5:7b", "temperature": 0.0, "seed": 42, "repeat": repeat, "options": {}, "format": None,
        "prompt": prompt, "split": "tickets", "split_path": "tickets.jsonl", "api": "ollama",
        "host": "http://127.0.0.1:11434", "judge": None, "prompt_text": prompt_text, "prompt_sha": sha(prompt_text),
        "split_sha": sha(split_id), "labels": labels, "cases": len(specs), "date": "2026-01-02T09:30:00+01:00",
        "server": "ollama", "server_version": "0.12.6", "eval_version": evalpy.__version__}
    votes = [v for r in results for v in r.get("judges") or ()]
    if votes:   # eval.py records the judge it asked beside its votes, always: the models and votes they name
        run_config["judge"] = {"models": list(dict.fromkeys(v["model"] for v in votes)),
                               "votes": max(v.get("vote", 1) for v in votes), "temperature": 0.0, "seed": 42}
    run_config.update(config)
    return {"format": evalpy.RUN_FORMAT, "config": run_config, "results": results}


def split_run(split="dev", answers=None, **config):
    """make_run of a split in the working folder (a name in golden/ or a path), with its cases, labels
    and sha as loaded: every case answered with its expected label, except the ids in answers."""
    path, name = evalpy.resolve_split(split)
    cases, labels, split_sha = evalpy.load_split(path)
    answers = answers or {}
    specs = [dict(c, response=answers.get(c["id"], c.get("expected"))) for c in cases]
    return make_run(specs, labels, **{"split": name, "split_path": path, "split_sha": split_sha, **config})


def write_run(path, run):
    """A run file where eval.py would write it, laid out as eval.py lays it out; returns the path."""
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_text(json.dumps(run, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return str(path)


# --- runs several files read

# id, expected, difficulty, the model's answer: every figure of this run is worked out by hand in test_score.py
HAND_CASES = [
    ("a1", "bug", "easy", "bug"),
    ("a2", "bug", "easy", "Bug."),
    ("a3", "bug", "easy", "acceso"),
    ("a4", "acceso", "easy", "acceso"),
    ("a5", "facturación", "trap", "Categoría: facturación"),
    ("a6", "petición", "trap", "bug"),
    ("a7", "facturación", "trap", "facturacion"),
]


def hand_cases():
    return [{"id": cid, "expected": expected, "difficulty": difficulty, "response": answer}
            for cid, expected, difficulty, answer in HAND_CASES]


@pytest.fixture
def hand_run(project):
    """A 7-case run whose every figure is worked out by hand (4/7 right, a5 invalid)."""
    return write_run("runs/s-v2.json", make_run(hand_cases(), prompt="prompts/v2.txt"))


@pytest.fixture
def dev_run(project):
    """Prompt v2 on the dev split: 25/28, misses dev-09, dev-11 (invalid) and dev-24."""
    return write_run("runs/dev-v2.json", split_run("dev", V2_MISSES, prompt="prompts/v2.txt"))


@pytest.fixture
def worse_run(dev_run):
    """Prompt v1 on dev: 22/28, misses dev-01, 02, 04, 05, 06, 07 where dev-v2 misses 09, 11, 24."""
    return write_run("runs/dev-v1.json", split_run("dev", V1_MISSES, prompt="prompts/v1.txt"))


def write_two_runs(v2_misses=V2_MISSES):
    """runs/dev-v2.json (v2_misses) and runs/dev-v3.json (only dev-05 wrong): v3 fixes three, breaks one."""
    return (write_run("runs/dev-v2.json", split_run("dev", v2_misses, prompt="prompts/v2.txt")),
            write_run("runs/dev-v3.json", split_run("dev", V3_MISSES)))


@pytest.fixture
def two_runs(project):
    return write_two_runs()


# id, expected, difficulty as an older eval.py stored it, the model's answer: 'trap ' is trap, a decomposed café is café
# (written apart, each was a row of its own alike beside the other, 1/1 each, where trap is 2/2)
DIFFICULTIES_ALIKE = [("d1", "bug", "trap", "bug"), ("d2", "bug", "trap ", "bug"), ("d3", "acceso", "caf\u00e9", "bug"),
                      ("d4", "acceso", "cafe\u0301", "bug"), ("d5", "bug", "easy", "bug")]


def difficulties_alike(answers=None):
    """make_run's cases of DIFFICULTIES_ALIKE, each answered as it says except the ids in answers."""
    return [{"id": cid, "expected": expected, "difficulty": difficulty, "response": (answers or {}).get(cid, answer)}
            for cid, expected, difficulty, answer in DIFFICULTIES_ALIKE]


@pytest.fixture
def tagged_run(project):
    """Three trials of four tagged cases: t1 right by majority only (one trial failed), the rest always right."""
    trials = {"t1": ["unsafe", "unsafe", "safe"], "t2": ["unsafe"] * 3, "t3": ["safe"] * 3, "t4": ["safe"] * 3}
    cases = [{"id": cid, "input": cid, "expected": expected, "tags": tags, "response": trials[cid]}
             for cid, expected, tags in (("t1", "unsafe", ["red-team"]), ("t2", "unsafe", ["red-team", "injection"]),
                                         ("t3", "safe", []), ("t4", "safe", ["injection"]))]
    return write_run("runs/cases-v1.json", make_run(cases, ["safe", "unsafe"], prompt="prompts/v1.txt",
                                                    split="cases", split_path="tagged/cases.jsonl"))


# --- markdown, read as CommonMark reads it (a pull-request comment renders what eval.py prints)

MARKUP = "# Heading ![x](http://evil.example/p.png) <img src=x> [l](http://evil.example) *b* _i_ |"
# each of what GitHub acts on in rendered text: a mention, a team's, bare URLs, an email autolink, issue references
LINKED = "@octocat @org/team https://evil.example/x www.evil.example a@evil.example mailto:b@evil.example #12 GH-7 o/r#3"
# GitHub's math, typeset from the rendered text (a backslash escape inside is gone)
MATH = r"$\color{red}{\Huge\textsf{ALL PASS}}$ $$x^2$$"


def markdown_acted_on(md, rendered=False):
    """What of a markdown text a renderer would act on beyond our own markup: the lines outside
    fenced blocks, code spans and backslash escapes removed (CommonMark: a fence closes at a line
    of the same character at least as long, indented at most 3 spaces; a code span ends at a run of
    exactly as many backticks). rendered: an escaped character kept, its backslash gone, as the text
    GitHub then links and mentions from."""
    import re
    kept, fence = [], None
    for line in md.splitlines():
        opening = re.match(r" {0,3}(`{3,}|~{3,})", line)
        if fence is None and opening:
            fence = opening.group(1)
        elif fence is not None:
            if re.fullmatch(r" {0,3}" + re.escape(fence[0]) + "{%d,}\\s*" % len(fence), line):
                fence = None
        else:
            kept.append(outside_code(line, rendered))
    assert fence is None, "a fenced block is never closed"
    return kept


# What GitHub links or notifies from in rendered text, outside code: a mention or an email autolink (@), a bare URL, an
# issue reference (#12, GH-12 at a word's start, owner/repo#12); and what it typesets as math ($...$, $$...$$)
GITHUB_LINKED = re.compile(r"\S*(?:@|://|www\.|mailto:|xmpp:|#\d|\bgh-\d|\$)\S*", re.IGNORECASE)


def github_linked(md):
    """The words of a markdown text that GitHub would turn into a mention, a link, a reference or math."""
    return [w for line in markdown_acted_on(md, rendered=True) for w in GITHUB_LINKED.findall(line)]


def outside_code(line, rendered=False):
    import re
    out, i = [], 0
    while i < len(line):
        if line[i] == "\\" and i + 1 < len(line):
            out += [line[i + 1]] if rendered else []
            i += 2
            continue
        if line[i] == "`":
            j = i
            while j < len(line) and line[j] == "`":
                j += 1
            close = re.search(r"(?<!`)`{%d}(?!`)" % (j - i), line[j:])
            if close:
                i = j + close.end()
                continue
            out.append(line[i:j])
            i = j
            continue
        out.append(line[i])
        i += 1
    return "".join(out)


# --- agents (issue 29): a case with tools, and a stored answer that called them

AGENT_TOOLS = [{"type": "function", "function": {"name": "lookup_order", "parameters": {
                   "type": "object", "required": ["order_id"], "properties": {"order_id": {"type": "string"}}}}},
               {"type": "function", "function": {"name": "cancel_order", "parameters": {"type": "object"}}}]
AGENT_CHECKS = [{"name": "looks it up", "type": "tool_called", "value": "lookup_order", "arguments": {"order_id": "A-1"},
                 "blocking": True},
                {"name": "never cancels", "type": "tool_not_called", "value": "cancel_order", "blocking": True},
                {"name": "valid arguments", "type": "tool_args_valid", "blocking": True},
                {"name": "says where", "type": "contains", "value": "enviado", "blocking": True}]


def agent_spec(case_id, calls, final="Su pedido está enviado.", out_of_turns=False, checks=AGENT_CHECKS):
    """A make_run case for an agent whose turns made these calls, one turn each ((name, arguments, matched)),
    then answered `final` (or ran out of turns)."""
    transcript = []
    for i, (name, arguments, matched) in enumerate(calls):
        transcript += [{"role": "assistant", "content": "", "tool_calls": [{"id": None, "name": name, "arguments": arguments}]},
                       {"role": "tool", "name": name, "call_id": f"call_{2 * i}_0", "matched": matched,
                        "content": '{"status": "enviado"}' if matched else '{"error": "no result for these arguments"}'}]
    if not out_of_turns:
        transcript.append({"role": "assistant", "content": final})
    turns = len(calls) + (not out_of_turns)
    return {"id": case_id, "input": f"pedido {case_id}", "tools": AGENT_TOOLS, "checks": [dict(c) for c in checks],
            "tool_results": {"lookup_order": [{"arguments": {"order_id": "A-1"}, "result": {"status": "enviado"}}]},
            "response": final if not out_of_turns else "", "transcript": transcript, "out_of_turns": out_of_turns,
            "per_turn": [{"latency_ms": 60.0, "prompt_tokens": 16, "completion_tokens": 1, "done_reason": "stop",
                          "attempts": 1}] * turns}


def agent_refused_spec(case_id, words="unexpected end of JSON input", calls=()):
    """A make_run case for an agent whose last turn's tool call the server refused as not JSON (evalpy.CALL_REFUSED),
    `words` its words why: no answer, no token counts (none came), the call kept never run, as ask_agent keeps it;
    after `calls`, agent_spec's, a turn each with its counts, summed."""
    turn = {"latency_ms": 60.0, "prompt_tokens": None, "completion_tokens": None, "done_reason": evalpy.CALL_REFUSED,
            "attempts": 1}
    before = agent_spec(case_id, list(calls), out_of_turns=True)
    counted = {"prompt_tokens": 16 * len(calls), "completion_tokens": len(calls)} if calls else {}
    return {**before, "done_reason": evalpy.CALL_REFUSED, "per_turn": before["per_turn"] + [turn],
            **dict.fromkeys(evalpy.TIMING_FIELDS[1:]), **counted, "latency_ms": 60.0 * (len(calls) + 1),
            "out_of_turns": False, "transcript": before["transcript"] + [{"role": "assistant", "content": "", "tool_calls": [
                {"id": None, "name": "lookup_order", "arguments": "", "refused": words}]}]}


def agent_thinking_inline(case_id, first="<think>I could cancel it</think>", final="<think>cancel? no</think>Su pedido está enviado."):
    """A make_run case for an agent whose server wrote its reasoning inline: a lookup_order call whose turn said
    `first`, then `final`."""
    case = agent_spec(case_id, [("lookup_order", {"order_id": "A-1"}, True)], final=final)
    case["transcript"][0]["content"] = first
    return case


def agent_run(**config):
    """Four agents: a1 right all the way; a2 right answer, but it cancelled (trajectory fails); a3 asked with
    the wrong order id first (its first failure) and never found it; a4 called tools until it ran out of turns."""
    look, bad_look, cancel = ("lookup_order", {"order_id": "A-1"}, True), ("lookup_order", {"order_id": "A-7"}, False), \
        ("cancel_order", {"order_id": "A-1"}, True)
    cases = [agent_spec("a1", [look]), agent_spec("a2", [look, cancel]),
             agent_spec("a3", [bad_look, ("lookup_order", {"id": "A-1"}, False)], final="No lo encuentro."),
             agent_spec("a4", [look, look, look], out_of_turns=True)]
    return make_run(cases, labels=None, split="agent-dev", max_turns=3, **config)


# --- a value that forges lines: a line break, and Unicode's line and paragraph separators, which a
# terminal or a log viewer may break at too

FORGED = "zz\nFORGED1\u2028FORGED2\u2029FORGED3"
FORGED_SHOWN = "zz\\nFORGED1\\u2028FORGED2\\u2029FORGED3"            # as on_one_line shows it
FORGED_WORD = "$'zz\\x0aFORGED1\\u2028FORGED2\\u2029FORGED3'"         # as shell_word shows a path


def eval_cli(cwd, *argv, flags=()):
    """`python FLAGS eval.py ARGV` in cwd, as a user runs it: (exit code, stdout, stderr)."""
    done = subprocess.run([sys.executable, *flags, str(ROOT / "eval.py"), *map(str, argv)], cwd=cwd, capture_output=True,
                          text=True, encoding="utf-8", errors="surrogateescape", env={k: v for k, v in os.environ.items() if k != "OLLAMA_HOST"})
    return done.returncode, done.stdout, done.stderr


def run_with_file_size_limit(project, fake, limit, *argv):
    """eval.py with writes past `limit` bytes refused (EFBIG), as a full disk refuses them (ENOSPC)."""
    import resource

    def limit_writes():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return subprocess.run([sys.executable, str(ROOT / "eval.py"), *argv], cwd=project, capture_output=True,
                          text=True, timeout=60, preexec_fn=limit_writes,
                          env={k: v for k, v in os.environ.items() if k != "OLLAMA_HOST"})


def printed_lines(text):
    """The lines a terminal shows: broken at a line break, U+2028 and U+2029."""
    return re.split("[\n\u2028\u2029]", text.rstrip("\n")) if text else []


WRITE_FILE = evalpy.write_file   # eval.py's own, whatever a test patches in


def stopped_write(after, write_file=WRITE_FILE):
    """eval.py's write_file stopped by a Ctrl-C (or SIGTERM) as a run file is written (after=False: before
    it is there) or just after (after=True: written, and nothing after it done): monkeypatched in. (The
    write it stops is eval.py's own, whatever is patched in when it is called.)"""
    def write(path, pieces, replace=False):
        if after:
            write_file(path, pieces, replace)
        raise KeyboardInterrupt
    return write


def written_line(entry):
    """A journal, judging or pairwise journal line (bytes) as eval.py writes it, its checksum made for what it holds now
    (one it held is dropped): a test's edit standing for what eval.py could have written, not for damage."""
    return evalpy.checksummed_line({k: v for k, v in entry.items() if k != evalpy.LINE_CHECKSUM})


def bit_flipped(line, after):
    """line (bytes) with the low bit of the byte after `after` flipped: a letter stays a letter, a digit a digit, the
    line JSON still (what a bit flip on the disk, or an edit by hand, leaves)."""
    at = line.index(after) + len(after)
    return line[:at] + bytes([line[at] ^ 1]) + line[at + 1:]


def unchecksummed_lines(written):
    """A journal, judging or pairwise journal's bytes as an eval.py before checksums wrote them: each line's crc32 off."""
    unmarked = re.sub(rb', "crc32": "[0-9a-f]{8}"}\n', b"}\n", written)
    assert unmarked.count(b"\n") == written.count(b"\n") and b"crc32" not in unmarked.rsplit(b"\n", 1)[0]
    return unmarked


@contextlib.contextmanager
def lock_held_by_another(path):
    """Another process holding the lock file at path (its pid written in it), as a live eval.py does."""
    holder = subprocess.Popen([sys.executable, "-c", "import fcntl, os, sys, time\n"
                               f"f = open({str(path)!r}, 'a+'); fcntl.flock(f, fcntl.LOCK_EX)\n"
                               "f.truncate(0); f.write(str(os.getpid())); f.flush(); print('held', flush=True); time.sleep(60)"],
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline() == "held\n"
        yield holder
    finally:
        holder.kill()
        holder.wait()


def folder_refused(monkeypatch, folder, owner=None, mode=None):
    """`folder` unwritable to os.access, as a mode, a read-only mount or chattr +i makes it (root writes every folder);
    given an owner (a uid), the folder made its (of `mode`, if given), this process seen as user 1000."""
    if mode is not None:
        os.chmod(folder, mode)
    if owner is not None:
        os.chown(folder, owner, owner)
        monkeypatch.setattr(os, "geteuid", lambda: 1000)
    real_access = os.access
    monkeypatch.setattr(os, "access", lambda path, how, **kw: False if os.path.abspath(path) == os.path.abspath(folder)
                        and how == os.W_OK else real_access(path, how, **kw))


def open_refused(monkeypatch, *paths):
    """os.open of any of `paths` refused as the system refuses another user's file of mode 600 (root reads every file)."""
    refused, real_open = {os.path.abspath(p) for p in paths}, os.open
    def unreadable(path, flags, *a, **kw):
        if os.path.abspath(path) in refused:
            raise PermissionError(errno.EACCES, "Permission denied", path)
        return real_open(path, flags, *a, **kw)
    monkeypatch.setattr(os, "open", unreadable)


def removal_refused(monkeypatch, suffix):
    """The removal of a file ending in `suffix` (a tuple: any of them) refused as an append-only folder (chattr +a) refuses it."""
    real_unlink = os.unlink
    def append_only(path, *a, **kw):
        if os.fspath(path).endswith(suffix):
            raise PermissionError(errno.EPERM, "Operation not permitted", path)
        return real_unlink(path, *a, **kw)
    monkeypatch.setattr(os, "unlink", append_only)


def others_stale_lock(monkeypatch, path, uid=4321):
    """Another user's (uid) stale lock at path, mode 644, as their stopped eval.py leaves it: this process seen as user
    1000, the lock refused to it for writing as the system refuses it (it runs as root)."""
    Path(path).write_text("99999")
    os.chmod(path, 0o644)
    os.chown(path, uid, uid)
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    lock = os.path.abspath(path)
    real_access, real_open = os.access, os.open
    monkeypatch.setattr(os, "access", lambda p, how, **kw: False if os.path.abspath(p) == lock and how & os.W_OK
                        else real_access(p, how, **kw))
    def theirs(p, flags, *a, **kw):
        if os.path.abspath(p) == lock and flags & (os.O_WRONLY | os.O_RDWR):
            raise PermissionError(errno.EACCES, "Permission denied", p)
        return real_open(p, flags, *a, **kw)
    monkeypatch.setattr(os, "open", theirs)
