"""The real runs shipped in runs/example/, and the worked example made from them (runs/example/README.md):
every output the README and the worked example show is what eval.py prints today, line for line."""

import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
import requests

from conftest import ROOT, copy_shipped, evalpy
from fake_ollama import shipped_answers, shipped_fake

EXAMPLES = sorted(p for p in (ROOT / "runs" / "example").glob("*.json") if not p.name.endswith(".pairwise.json"))
# the user's manual, then the worked example with a real model beside the runs it made: the
# commands and outputs of both are checked alike ("the README" below means both)
READMES = (ROOT / "README.md", ROOT / "runs" / "example" / "README.md")


def fenced_blocks():
    """The lines of each of the READMEs' fenced blocks."""
    blocks, block = [], None
    for line in "\n".join(p.read_text(encoding="utf-8") for p in READMES).splitlines():
        if line.startswith("```"):
            block = [] if block is None else blocks.append(block)   # opens, or closes (None)
        elif block is not None:
            block.append(line)
    return blocks


def shown_sessions(runs="runs/example/"):
    """(command, lines shown) for each `$ python eval.py ...` in the README's fenced blocks that
    reads the runs under `runs` (the shipped examples: the quickstart's are the user's own)."""
    return [(shlex.split(lines[0][len("$ python eval.py "):]), lines[1:]) for lines in fenced_blocks()
            if lines and lines[0].startswith("$ python eval.py ") and runs in lines[0]]


def assert_shown(argv, shown, printed):
    """The lines the README shows are printed, in order; "..." stands for lines it leaves out."""
    at = 0
    for line in shown:
        if line == "...":
            continue
        assert line in printed[at:], f"README shows {line!r}; eval.py {' '.join(argv)} does not print it there"
        at = printed.index(line, at) + 1


def test_the_examples_are_complete_runs_of_todays_golden_set():
    assert {p.name for p in EXAMPLES} >= {"dev-v1.json", "dev-v2.json", "dev-v3.json", "test-v3.json",
                                          "dev-v3-schema.json"}
    for path in EXAMPLES:
        run = json.loads(path.read_text(encoding="utf-8"))
        config = run["config"]
        split = ROOT / config["split_path"]
        assert config["split_sha"] == evalpy.load_split(str(split))[2], path.name   # the split and its checks.json
        assert config["model"] == "SmolLM2-135M-Instruct-Q4_1" and config["api"] == "openai"
        assert len(run["results"]) == config["cases"] and all(r["error"] is None for r in run["results"])
        assert "num_predict" not in config["options"]   # the examples have no answer-length limit


def test_the_constrained_example_was_asked_in_llama_cpp_pythons_form():
    run = json.loads((ROOT / "runs" / "example" / "dev-v3-schema.json").read_text(encoding="utf-8"))
    assert run["config"]["format"] == "schema" and run["config"]["response_format"] == "json_object"
    assert all(json.loads(r["response"])["label"] in run["config"]["labels"] for r in run["results"])


@pytest.mark.parametrize("argv, shown", shown_sessions(), ids=[" ".join(a) for a, _ in shown_sessions()])
def test_the_readme_shows_what_eval_py_prints(argv, shown):
    done = subprocess.run([sys.executable, str(ROOT / "eval.py"), *argv], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert_shown(argv, shown, done.stdout.splitlines())


def test_the_worked_example_shows_the_constrained_run():
    commands = [" ".join(argv) for argv, _ in shown_sessions()]
    assert "compare runs/example/dev-v3.json runs/example/dev-v3-schema.json" in commands
    assert "report runs/example/dev-v3-schema.json" in commands


def test_the_red_team_gate_catches_the_injection_the_real_model_followed():
    """README, worked example: dev-26 dictates «petición» and the real model obeyed; the gate says so."""
    run = json.loads((ROOT / "runs" / "example" / "dev-v3-schema.json").read_text(encoding="utf-8"))
    answers = {r["id"]: json.loads(r["response"])["label"] for r in run["results"]}
    assert answers["dev-26"] == "petición" and {a for i, a in answers.items() if i != "dev-26"} == {"facturación"}
    done = subprocess.run([sys.executable, str(ROOT / "eval.py"), "report", "runs/example/dev-v3-schema.json",
                           "--must-pass", "red-team"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert "must-pass 'red-team': 0 of 3 cases pass every trial (failing: dev-26, dev-27, dev-28)" in done.stderr


def test_the_fake_answers_every_labelled_case_with_a_label():
    """labels.txt's comment line is not a label: the fake's planted misses must be other labels."""
    labels = [l.strip() for l in (ROOT / "golden" / "labels.txt").read_text(encoding="utf-8").splitlines()
              if l.strip() and not l.startswith("#")]
    answers = shipped_answers(str(ROOT / "golden"))[0]
    for split in ("dev", "test"):
        for line in (ROOT / "golden" / f"{split}.jsonl").read_text(encoding="utf-8").splitlines():
            assert answers[json.loads(line)["input"]] in labels


def test_the_fake_server_runs_by_hand_and_answers_the_shipped_sets(project):
    """README, "Quickstart": python tests/fake_ollama.py, then eval.py as written."""
    fake = subprocess.Popen([sys.executable, str(ROOT / "tests" / "fake_ollama.py"), "--port", "0"],
                            stdout=subprocess.PIPE, text=True)
    try:
        url = fake.stdout.readline().split()[3].rstrip(",")
        assert url.startswith("http://127.0.0.1:")
        for split in ("dev", "golden/support/dev.jsonl"):
            done = subprocess.run([sys.executable, str(ROOT / "eval.py"), "run", "--split", split, "--host", url],
                                  capture_output=True, text=True, timeout=120)
            assert done.returncode == 0, done.stderr
            assert "errors 0" in done.stderr and "Traceback" not in done.stderr
        s = json.loads(subprocess.run([sys.executable, str(ROOT / "eval.py"), "report", "runs/dev-v3.json", "--json"],
                                      capture_output=True, text=True).stdout)
        assert 0.6 <= s["accuracy"] < 1   # plausible: mostly right, not all
    finally:
        fake.terminate()
        fake.wait()


def test_the_by_hand_fake_answers_the_shipped_sets_started_from_any_folder(project, tmp_path):
    """114th round's newcomer: started from tests/ (or any folder but the clone's top) the fake read no golden/, said "0
    scripted answers", and answered 'bug' to every shipped case, saying "a set of your own? start the fake with --golden"."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    fake = subprocess.Popen([sys.executable, str(ROOT / "tests" / "fake_ollama.py"), "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=elsewhere)
    try:
        head = fake.stdout.readline()
        url = head.split()[3].rstrip(",")
        assert " (0 scripted answers)" not in head, head
        done = subprocess.run([sys.executable, str(ROOT / "eval.py"), "run", "--split", "dev", "--host", url],
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0 and "Accuracy: 24/28 = 86%" in done.stdout, (done.stdout, done.stderr)
        # (round 124's newcomer) the README's agent example: each tool's result was looked up as an input of its own
        done = subprocess.run([sys.executable, str(ROOT / "eval.py"), "run", "--split", "golden/agent/dev.jsonl", "--host",
                               url], capture_output=True, text=True, timeout=120, cwd=project)
        assert done.returncode == 0, (done.stdout, done.stderr)
    finally:
        fake.terminate()
        fake.wait()
    assert "a set of your own?" not in fake.stderr.read()


def test_the_by_hand_fake_answers_your_own_set_too_with_golden(project, cli):
    """Second newcomer pass: `fake_ollama.py --golden mine` answered only mine/, so the shipped set's
    next run against it scored 11/28 and compare blamed the model. --golden DIR now adds a folder
    to golden/: both are answered as the shipped sets are."""
    assert cli("init", "mine")[0] == 0
    # a comment after a label, as eval.py reads it (third newcomer pass: the fake took the whole line)
    Path("mine/labels.txt").write_text("bug\nfeature  # asks for something new\nquestion\n", encoding="utf-8")
    fake = subprocess.Popen([sys.executable, str(ROOT / "tests" / "fake_ollama.py"), "--port", "0", "--golden", "mine",
                             "--latency", "0"],
                            stdout=subprocess.PIPE, text=True)
    try:
        url = fake.stdout.readline().split()[3].rstrip(",")
        for split in ("mine/dev.jsonl", "dev"):
            code, out, err = cli("run", "--split", split, "--host", url)
            assert code == 0, err
        # a case added while the fake runs is answered as the set reads now (it was INVALID)
        with open("mine/dev.jsonl", "a", encoding="utf-8") as f:
            f.write(json.dumps({"id": "dev-03", "input": "How do I export a project as PDF?", "expected": "question",
                                "difficulty": "easy", "note": "asks how"}) + "\n")
        code, out, err = cli("run", "--split", "mine/dev.jsonl", "--host", url, "--cases", "dev-03", "--out", "runs/added.json")
        assert code == 0, err
    finally:
        fake.terminate()
        fake.wait()
    mine = json.loads(cli("report", "runs/mine-dev-v1.json", "--json")[1])
    shipped = json.loads(cli("report", "runs/dev-v3.json", "--json")[1])
    added = json.loads(cli("report", "runs/added.json", "--json")[1])
    assert mine["invalid"] == 0 and shipped["invalid"] == 0 and 0.6 <= shipped["accuracy"] < 1, (mine, shipped)
    assert added["invalid"] == 0, added


def test_the_by_hand_fake_refuses_a_golden_folder_that_is_not_there(project):
    """113th round's newcomer: `--golden mnie` (a typo) was taken in silence, and every input of the set then said
    "a set of your own? start the fake with --golden DIR", which was given."""
    from fake_ollama import by_hand
    with pytest.raises(SystemExit, match=r"--golden mnie: no such folder"):
        by_hand(["--port", "0", "--golden", "mnie"])


def test_the_by_hand_fake_answers_a_case_of_ones_own_by_its_text_as_sent(project, cli):
    """Fifty-eighth attack on issue 28: the fake found a case by its input as written, so a free-text case of one's
    own whose input holds {{vars}} (as the README writes them) was sent filled in and got the default answer, "bug"."""
    Path("mine").mkdir()
    Path("mine/dev.jsonl").write_text(json.dumps({"id": "m1", "input": "Pedido {{order_id}}: ¿cuándo llega?", "vars": {
        "customer": "Ana", "order_id": "A-1"}, "checks": [{"type": "contains", "value": "{{order_id}}"}],
        "difficulty": "easy", "note": "n"}) + "\n", encoding="utf-8")
    answers = shipped_answers(["mine"])[0]
    assert answers["Pedido A-1: ¿cuándo llega?"].startswith("Hola Ana, he revisado el pedido A-1"), answers
    Path("mine2").mkdir()   # (59th) a case whose own text another case's fills in to is answered as itself
    Path("mine2/labels.txt").write_text("bug\nacceso\n", encoding="utf-8")
    Path("mine2/dev.jsonl").write_text("".join(json.dumps(c) + "\n" for c in [
        {"id": "b-1", "input": "Hola mundo", "expected": "acceso"},
        {"id": "a-1", "input": "Hola {{x}}", "vars": {"x": "mundo"}, "expected": "bug"}]), encoding="utf-8")
    both = shipped_answers(["mine2"])[0]["Hola mundo"]
    Path("mine2/dev.jsonl").write_text(Path("mine2/dev.jsonl").read_text(encoding="utf-8").splitlines()[0] + "\n",
                                       encoding="utf-8")
    assert both == shipped_answers(["mine2"])[0]["Hola mundo"]   # b-1's answer, with a-1 beside it or not
    fake = shipped_fake(["mine"], latency=0)
    fake.start()
    try:
        code, out, err = cli("run", "--split", "mine/dev.jsonl", "--prompt", "prompts/support/v1.txt", "--host", fake.url)
    finally:
        fake.stop()
    assert code == 0 and json.loads(Path("runs/mine-dev-v1.json").read_text())["results"][0]["response"].startswith("Hola Ana"), err


def test_the_by_hand_fake_answers_by_prompt_and_model(project, cli):
    """Issue 31, item 11: the fake answered every prompt and model alike, so the README's no-model
    path showed v2 -> v3 as "Fixed (0) ... Identical raw answers: 28 of 28" and support v2, which
    lost the order-number rule, passing it. Its answers now depend on the prompt and the model,
    the same every time: a compare shows fixes and breaks, and support v2 breaks the rule."""
    fake = subprocess.Popen([sys.executable, str(ROOT / "tests" / "fake_ollama.py"), "--port", "0", "--latency", "0"],
                            stdout=subprocess.PIPE, text=True)   # (six runs: no pause per answer)
    try:
        url = fake.stdout.readline().split()[3].rstrip(",")
        for argv in (["--prompt", "prompts/v2.txt"], ["--prompt", "prompts/v3.txt"],
                     ["--prompt", "prompts/v3.txt", "--out", "runs/again.json"],
                     ["--prompt", "prompts/v3.txt", "--model", "llama3.2:3b", "--out", "runs/llama.json"],
                     ["--split", "golden/support/dev.jsonl", "--prompt", "prompts/support/v1.txt"],
                     ["--split", "golden/support/dev.jsonl", "--prompt", "prompts/support/v2.txt"]):
            split = [] if "--split" in argv else ["--split", "dev"]
            code, out, err = cli("run", *split, *argv, "--host", url)
            assert code == 0, err
    finally:
        fake.terminate()
        fake.wait()
    code, out, err = cli("compare", "runs/dev-v2.json", "runs/dev-v3.json", "--json")
    c = json.loads(out)
    assert c["fixed"] and c["regressions"], c   # both ways, as a real change of prompt goes
    assert c["candidate"]["correct"] > c["baseline"]["correct"]   # the prompt with the guide's rules does better
    assert c["identical_answers"] < 28
    again = json.loads(cli("compare", "runs/dev-v3.json", "runs/again.json", "--json")[1])
    assert again["identical_answers"] == 28   # the same prompt and model: the same answers
    other = json.loads(cli("compare", "runs/dev-v3.json", "runs/llama.json", "--json")[1])
    assert other["identical_answers"] < 28    # another model answers otherwise
    rule = {v: next(r for r in json.loads(cli("report", f"runs/support-dev-{v}.json", "--json")[1])["checks"]
                    if r["name"] == "order number") for v in ("v1", "v2")}
    assert rule["v1"]["passed"] == rule["v1"]["total"] == 27 and rule["v2"]["passed"] <= 22, rule


# --- every command the README gives, run as written on a fresh copy of the project

GATES = ("--min-accuracy", "--must-pass", "--fail-on-regression", "--fail-if-worse")


# The README's paths meant for a fresh clone, each run from a fresh copy: its quickstart, and the
# commands that made the worked example's runs with a real model
FRESH_CLONE = ("Quickstart", "A real model, without Ollama or a GPU")


def readme_commands():
    """(group, command) for every `python eval.py ...` the README gives, in order: the lines of its
    code blocks (with `\\` continuations joined, comments and output redirections dropped), the
    CI workflow's steps, and the commands quoted in its text. The group is the heading of one of
    the README's fresh-clone paths (FRESH_CLONE) the command stands under, else "Commands". Both
    READMES, the manual first."""
    return list(dict.fromkeys(c for readme in READMES for c in commands_of(readme.read_text(encoding="utf-8"))))


def commands_of(text):
    """(group, command) for every `python eval.py ...` of one README's text, in order."""
    found = [(m.start(), re.sub(r"\s+(#|>>).*", "", re.sub(r"\\\n\s*", "", m[1]))) for m in
             re.finditer(r"^(?: {4}(?:\$ )?|\$ | *(?:- )?run: )(python eval\.py (?:.*\\\n)*.*)", text, re.M)]
    found += [(m.start(), " ".join(m[1].split())) for m in re.finditer(r"`(python eval\.py [^`]*)`", text)]
    fences = [m.start() for m in re.finditer(r"^```", text, re.M)]
    inside = lambda at: sum(f < at for f in fences) % 2   # a "## " line in a fenced sample is no heading
    headings = [(m.start(), m[1]) for m in re.finditer(r"^##+ (.*)", text, re.M) if not inside(m.start())]

    def group(at):
        heading = max((h for h in headings if h[0] < at), default=(0, ""))[1]
        return heading if heading in FRESH_CLONE else "Commands"
    return [(group(at), command.strip()) for at, command in sorted(found)]


def variants(command):
    """A command with `[optional parts]`: without them, then with all of them."""
    if "[" not in command:
        return [command]
    return [" ".join(re.sub(r"\[[^]]*\]", "", command).split()), command.replace("[", "").replace("]", "")]


def provide_placeholders(argv, eval_py):
    """The README names a few things that are the user's own (their cases, a person's verdicts, the
    runs of a CI pipeline); make them, as a user would, before the command that needs them."""
    if "my/cases.jsonl" in argv and not Path("my/cases.jsonl").exists():
        Path("my").mkdir()
        shutil.copy("golden/test.jsonl", "my/cases.jsonl")
        shutil.copy("golden/labels.txt", "my/labels.txt")
    if "human.jsonl" in argv and not Path("human.jsonl").exists():
        run = json.loads(Path(argv[argv.index("human.jsonl") + 1]).read_text(encoding="utf-8"))   # calibrate VERDICTS RUN
        verdicts = [{"id": r["id"], "check": c["name"], "pass": i % 3 != 0}
                    for i, r in enumerate(run["results"]) for c in r["checks"] if c["type"] == "judge"]
        assert verdicts, "the README calibrates a run with no judge checks"
        Path("human.jsonl").write_text("".join(json.dumps(v, ensure_ascii=False) + "\n" for v in verdicts),
                                       encoding="utf-8")
    for name, prompt in (("runs/main.json", "prompts/v2.txt"), ("runs/branch.json", "prompts/v3.txt"),
                         ("runs/main-dev.json", "prompts/v2.txt")):
        if name in argv and not Path(name).exists():   # the CI pattern: run --out, then compare
            eval_py("run", "--split", "dev", "--prompt", prompt, "--out", name, expect=0)


def review_serves(argv, env):
    """`review` serves until stopped: it must serve its page, then stop cleanly on Ctrl-C."""
    proc = subprocess.Popen([sys.executable, str(ROOT / "eval.py"), *argv], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)
    try:
        url = re.search(r"http://127\.0\.0\.1:\d+/", proc.stdout.readline())[0]
        assert requests.get(url, timeout=10).status_code == 200
    finally:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=20)
    assert proc.returncode == 0 and "Traceback" not in err, err


@pytest.mark.parametrize("group", ["Commands", *FRESH_CLONE])
def test_every_readme_command_runs_on_a_fresh_copy(tmp_path, monkeypatch, capsys, group):
    """Each README command, in order, on a copy of what a clone has: those that need a server
    against the fake one (every host the README names is where a server would be: here it is
    the fake's), the others against the shipped files. The quickstart and the real model's path
    say to start from a fresh clone, so each starts from a fresh copy (and what the quickstart
    shows of the fake's answers must be what they print). Each command is eval.py's
    main() in-process with the command's arguments (a python start-up each, some 50 of them, was
    most of this test's time); `review`, which serves until Ctrl-C, runs as a process, and
    test_the_readme_shows_what_eval_py_prints runs eval.py as a script."""
    for part in ("eval.py", "golden", "prompts", "runs/example"):
        copy_shipped(part, tmp_path)
    monkeypatch.chdir(tmp_path)
    fake = shipped_fake(str(ROOT / "golden"), latency=0).start()
    for name in [k for k in os.environ if k.startswith(("OLLAMA_", "OPENAI_"))]:
        monkeypatch.delenv(name)
    monkeypatch.setenv("OLLAMA_HOST", fake.url)
    env = dict(os.environ)

    def eval_py(*argv, expect):
        try:
            code = evalpy.main(list(argv))   # an uncaught exception fails the test with its traceback
        except SystemExit as e:              # argparse refusing the command line
            code = e.code
        out, err = capsys.readouterr()
        done = subprocess.CompletedProcess(argv, code, out, err)
        assert "Traceback" not in done.stderr, done.stderr   # one a thread printed, say
        assert done.returncode in expect if isinstance(expect, tuple) else done.returncode == expect, \
            f"eval.py {' '.join(argv)} exited {done.returncode}:\n{done.stderr}"
        return done

    commands = [c for g, c in readme_commands() if g == group]
    assert len(commands) >= {"Commands": 35, "Quickstart": 4}.get(group, 6)
    # what the quickstart shows of the fake's answers is what eval.py prints on them
    shown = {" ".join(argv): lines for argv, lines in shown_sessions("runs/dev-")} if group == "Quickstart" else {}
    try:
        for command in commands:
            for variant in variants(command):
                argv = shlex.split(variant)[2:]
                argv = [fake.url if i and argv[i - 1] == "--host" else a for i, a in enumerate(argv)]
                provide_placeholders(argv, eval_py)
                if argv[0] == "review":
                    review_serves([a if a != "8765" else "0" for a in argv] +
                                  ([] if "--port" in argv else ["--port", "0"]), env)
                elif any(g in argv for g in GATES):
                    done = eval_py(*argv, expect=(0, 1))   # a gate may fail; it must judge (not exit 2)
                    assert "gate" in done.stderr.lower(), done.stderr
                elif argv[:2] == ["run", "--resume"]:
                    # the README's runs finished without errors: there is nothing to finish
                    assert "there is nothing to resume" in eval_py(*argv, expect=2).stderr
                else:
                    done = eval_py(*argv, expect=0)
                    if variant in [f"python eval.py {c}" for c in shown]:
                        assert_shown(argv, shown.pop(variant[len("python eval.py "):]), done.stdout.splitlines())
                    if "--compare" in argv and "--format" in argv:
                        # the chain compares what it says it compares: the schema against plain text alone
                        changed = done.stdout.split("Changed:\n", 1)[1].split("\n\n", 1)[0]
                        assert [l.split(":")[0].strip() for l in changed.splitlines()] == ["format", "response_format"]
        assert not shown, f"the quickstart shows the output of commands it does not give: {list(shown)}"
    finally:
        fake.stop()


def test_the_readme_layout_sample_is_what_eval_py_prints(project, cli):
    """The report sample of "report", remade from its scripted answers (compare's layout is shown
    whole by the worked example, which test_the_readme_shows_what_eval_py_prints runs)."""
    from conftest import split_run, write_run
    write_run("runs/dev-v2.json", split_run("dev", {"dev-09": "facturación", "dev-12": "bug", "dev-24": "petición"},
                                            prompt="prompts/v2.txt"))
    blocks = ["".join(line + "\n" for line in block) for block in fenced_blocks()]
    report = next(b for b in blocks if b.startswith("Accuracy: "))
    assert cli("report", "runs/dev-v2.json")[1] == report


def test_the_fake_answers_a_case_of_ones_own_with_vars_and_no_input(project, cli):
    """Round 106 (a newcomer): a case with vars and no input, which the README allows, is asked with the filled prompt
    alone; the fake, started with --golden for it, answered "bug" and told to start it with --golden."""
    Path("mine").mkdir()
    Path("mine/dev.jsonl").write_text(json.dumps({"id": "m1", "vars": {"customer": "Ana", "order_id": "A-7"},
                                                  "checks": [{"type": "contains", "value": "{{order_id}}"}],
                                                  "difficulty": "easy", "note": "n"}) + "\n", encoding="utf-8")
    Path("mine/p.txt").write_text("Atiende a {{customer}}, que pregunta por su pedido {{order_id}}.\n", encoding="utf-8")
    fake = shipped_fake(["mine"], latency=0)
    fake.start()
    try:
        code, out, err = cli("run", "--split", "mine/dev.jsonl", "--prompt", "mine/p.txt", "--host", fake.url,
                             "--out", "runs/own.json")
    finally:
        fake.stop()
    run = json.loads(Path("runs/own.json").read_text(encoding="utf-8"))
    assert code == 0 and run["results"][0]["response"].startswith("Hola Ana, he revisado el pedido A-7"), err
