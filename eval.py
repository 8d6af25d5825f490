
#!/usr/bin/env python3
"""eval.py: did a change to an LLM system make it better, or does it only seem to?

Run a prompt and a model over a fixed, hand-labelled golden set, keep every raw
answer with the configuration that produced it, score offline, compare case by case.

    python eval.py run --split dev                          # newest prompt, qwen2.5:7b, T=0, seed 42
    python eval.py run --split dev --prompt prompts/v2.txt --compare runs/dev-v1.json
    python eval.py run --split dev --jobs 4 --repeat 5 --temperature 0.7
    python eval.py run --split golden/support/dev.jsonl     # free text: checks and an LLM judge
    python eval.py run --split dev --api openai --host 127.0.0.1:8000 --model M   # llama.cpp, vLLM...
    python eval.py run --resume runs/dev-v3.json            # finish an interrupted run
    python eval.py report runs/dev-v2.json [--json | --markdown] [--min-accuracy 0.9]
    python eval.py compare runs/dev-v2.json runs/dev-v3.json [--fail-on-regression]
    python eval.py compare runs/dev-v1.json runs/dev-v2.json runs/dev-v3.json     # many: each vs the first, Holm
    python eval.py compare runs/dev-v2.json runs/dev-v3.json --html compare.html   # one page, charts inline
    python eval.py runs                                     # the run files in runs/, one line each
    python eval.py judge runs/support-dev-v2.json --judge-model llama3.1:8b
    python eval.py calibrate human.jsonl runs/support-dev-v2.json
    python eval.py review runs/dev-v3.json --against runs/dev-v2.json
    python eval.py power --rate 0.16 --failures 6 --prob 0.8

Exit codes: 0 success, 1 a quality gate failed, 2 usage, input or infrastructure error.

The file reads top to bottom in the order the pipeline runs; each numbered section is one stage:
   1. Defaults         every tunable constant and file name, each with the reason for its value
                       and OPTIONS, every command-line option once: its default and its rules
   2. Helpers          errors, terminal text, JSON, whole-file writes, locks, signals: no stage's ideas
   3. Records          every record that crosses a stage (case, answer, config, score, sidecars...), declared once
   4. Checks           CHECK_TYPES: each check type's value rule and evaluation in one entry
   5. Load             split, labels, default checks, prompt, hashes; every problem before any call
   6. Model clients    Ollama and OpenAI-compatible, one requests.Session, timeouts, retries
   7. Judge            the judge's prompts and calls (one answer, or two answers side by side) and
                       how its votes become a verdict
   8. Run and store    the run's config, the journal, resume, the held-out rule, the run file
                       written and read back; run_split() is `run` up to its report
   9. Normalize, score normalize, grade(), score(): every figure from the run file alone
  10. Statistics       Wilson, Newcombe, mid-p McNemar, Student's t, Fisher, Holm, pass@k, pass^k, sizing (power)
  11. Report, compare  compare_runs(); every figure of a report or compare worked out once, as
                       rows that text and markdown only format (--json: unrounded); the CI gates
  12. Judge afterwards the judge command, pairwise comparison, calibration against people, the audit
  13. Pages            report --html and compare --html: one self-contained file formatting the rows
                       of 11, SVG charts drawn here
  14. Review           the local trace viewer, its page, and its annotations sidecar
  15. Command line     the parsers built from OPTIONS, one short cmd_* per command, main()
"""
import os
import signal
import sys

# what stops eval.py as Ctrl-C does: SIGTERM (a kill, CI's cancel), SIGHUP (a closed terminal, a dropped ssh session).
# A signal ignored as eval.py starts stays ignored: `nohup` (SIGHUP), a script's background job (SIGINT) asked
# for a run that goes on
IGNORED_AT_START = {getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP")
                    if hasattr(signal, name) and signal.getsignal(getattr(signal, name)) is signal.SIG_IGN}
STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP")   # (no SIGHUP on Windows)
                     if hasattr(signal, name) and getattr(signal, name) not in IGNORED_AT_START)

if __name__ == "__main__":   # Ctrl-C, SIGTERM or SIGHUP while the modules below load (requests takes a moment): a word, exit 2
    # at once, with nothing open to close: an exception raised there can be raised inside an import's lock
    # callback, which Python ignores ("Exception ignored ... SystemExit"), and the run went on after "interrupted"
    def stopped_at_start(signum, frame):
        try:   # a closed terminal or a reader gone: the word is lost, the stop is not
            sys.stderr.write("interrupted\n")
            sys.stderr.flush()
        finally:
            os._exit(2)
    for stop in {signal.SIGINT, *STOP_SIGNALS} - IGNORED_AT_START:
        signal.signal(stop, stopped_at_start)

import argparse
import base64
import bisect
import contextlib
import difflib
import errno
import functools
import gc
import hashlib
import heapq
import html
import ipaddress
import itertools
import json
import queue
import random
import re
import secrets
import shlex
import socket
import string
import threading
import time
import unicodedata
import urllib.parse
from collections import Counter, deque
from datetime import datetime
from decimal import Decimal
from fractions import Fraction
from math import atanh, ceil, comb, exp, floor, fsum, inf, isfinite, ldexp, lgamma, log, log1p, nextafter, pi, sqrt, tanh
from stat import S_ISDIR, S_ISREG   # (stat() itself is a page's figure, §13)
from statistics import NormalDist
from typing import NamedTuple, NotRequired, TypedDict
__version__ = "0.1.0"



# ---------------------------------------------------------------------------
# 1. Defaults. Each says why it is what it is.

DEFAULT_MODEL = "qwen2.5:7b"      # the model the methodology's worked example used
DEFAULT_TEMPERATURE = 0.0         # least run-to-run variation; it does not remove it
DEFAULT_SEED = 42                 # fixed, so a rerun asks the same question the same way
DEFAULT_HOST = "http://127.0.0.1:11434"   # where `ollama serve` listens by default
MAX_TIMEOUT = 1e6                 # seconds, 11 days: past any model, short of what a socket refuses
PROGRESS_EVERY = 10               # seconds between progress lines off a terminal while nothing arrives: a CI
                                  # log shows the run is alive, without a line a second

# A call whose load_duration is above this loaded the model: a loaded model reports a few
# milliseconds at most, a load takes from a second to minutes
LOADED_ABOVE_NS = 100_000_000

# Ollama's context window, sent with every request: its own default has changed between versions
# (2048, then 4096, then by memory), and a prompt longer than the window is cut without a word
DEFAULT_NUM_CTX = 4096
# Ollama's model options and the JSON each takes (api/types.go, Options and Runner, read by FromMap):
# a value of another type fails every request with a 500 ('option "stop" must be of type array');
# a name not listed is ignored with only a line in the server's log. Both are caught before any call.
OLLAMA_OPTIONS = {**dict.fromkeys(("num_keep", "seed", "num_predict", "top_k", "repeat_last_n", "num_ctx", "num_batch",
                                   "num_gpu", "main_gpu", "num_thread", "draft_num_predict"), "integer"),
                  **dict.fromkeys(("top_p", "min_p", "typical_p", "temperature", "repeat_penalty", "presence_penalty",
                                   "frequency_penalty"), "number"),
                  "use_mmap": "boolean", "stop": "list of texts"}
# The load-time ones (api/types.go Runner): Ollama reloads the model when a request's differ from the
# loaded runner's (server/sched.go needsReload), so the judge's calls carry the run's, or each
# judge call after a case would pay a reload, and the next case another. num_ctx is pinned apart.
RUNNER_OPTIONS = ("num_batch", "num_gpu", "main_gpu", "use_mmap", "num_thread", "draft_num_predict")
ENTRY_TEXT = 200   # characters kept of a server's metadata (a /v1/models entry, an /api/tags identity, a done
                   # reason, a system fingerprint): identity, not a dump (1 MB each made a 56 MB run of 28 answers)
DEFAULT_TIMEOUT = 300.0           # seconds per request: a 7B model's first load on CPU takes minutes
DEFAULT_RETRIES = 3               # retries after the first attempt; enough to ride out a restart
REGEX_SECONDS = 5.0               # one check's pattern on one answer: real ones take microseconds
MAX_REPEAT = 1000                 # trials per case: pass@k is tabulated for each k; more is no evaluation
MAX_VOTES = 1000                  # votes per judge model: past a thousand, agreement is measured, not improved
RETRY_BASE_SECONDS = 1.0          # backoff doubles from here: 1, 2, 4 s ... (with jitter)
RETRY_CAP_SECONDS = 30.0          # no single wait longer than this, Retry-After included
SERVER_GONE_AFTER = 5             # calls in a row that could not connect: the server is down, not busy
WINDOW_TOO_SMALL = "the conversation does not fit num_ctx"   # said of Ollama's 400 for a prompt past the window
PREFLIGHT_TIMEOUT = 10.0          # listing models is cheap; a server that takes longer is stuck
SMALL_SLICE = 10                  # a slice with fewer cases than this is flagged as thin
FAILURES_SHOWN = 100              # the text report lists this many failures; --json and review have all
MARKDOWN_FAILURES = 20            # a pull-request comment names this many
NAMES_SHOWN = 20                  # models (or capabilities) a server lists, named in a message: enough to pick from
LOW_CERTAINTY = 0.8               # judge votes agreeing less than this go to a person (the methodology's threshold)
# Tokens a judge's answer may take (num_predict with Ollama, max_tokens over --api openai): a reason and
# a verdict take a few hundred; a small judge that never stops would otherwise run until the window
# fills (7,872 tokens, 195 s, a vote of the README's judge example), and a vote it cuts has no verdict
DEFAULT_JUDGE_TOKENS = 1024
MAX_JUDGE_TOKENS = 2 ** 31 - 1   # llama.cpp reads a token count as a 32-bit int (n_predict)
GOLDEN_DIR = "golden"
PROMPTS_DIR = "prompts"
RUNS_DIR = "runs"
LABELS_FILE = "labels.txt"
CHECKS_FILE = "checks.json"       # default checks for every case of the splits beside it
TOOLS_FILE = "tools.json"         # tools and tool_results for every case of the splits beside it (agents)
DEFAULT_MAX_TURNS = 8             # requests per agent case: a few lookups and an answer; a loop stops here
MAX_TURNS = 100                   # --max-turns at most: past this a run is a loop, not an agent
NO_RESULT = {"error": "no result for these arguments"}   # what a call no tool_results rule matches gets back
INVALID = "INVALID"               # an answer that is not exactly one label after normalization

RUN_FORMAT = "eval.py-run/1"
JOURNAL_SUFFIX = ".journal"
# `judge`'s votes so far, beside the run it writes (RUN-judged.json.judging): an interrupted judging
# is gone on with by the same command, so no vote paid for is asked twice.
JUDGING_SUFFIX = ".judging"
JUDGING_FORMAT = "eval.py-judging/1"
NAME_HOLDERS = ("", JOURNAL_SUFFIX, JUDGING_SUFFIX)   # a run's name is taken by its file, its journal or a judging

# review's annotations of what went wrong, beside the run: RUN.annotations.json. Files of the older
# name and form are still read (never written).
ANNOTATIONS_SUFFIX = ".annotations.json"
ANNOTATIONS_FORMAT = "eval.py-annotations/1"
OLD_ANNOTATIONS_SUFFIX = ".labels.json"
OLD_ANNOTATIONS_FORMAT = "eval.py-labels/1"


PAIRWISE_SUFFIX = ".pairwise.json"   # beside the candidate run: RUN.pairwise.json
PAIRWISE_FORMAT = "eval.py-pairwise/1"
# each verdict as it comes, until compare stores it in the sidecar: RUN.pairwise.json.journal
PAIRWISE_JOURNAL_SUFFIX = PAIRWISE_SUFFIX + JOURNAL_SUFFIX


MAX_NESTING = 64   # levels of [ and { a hand-written file may hold; deeper is an accident or an attack
# levels a server's answer may hold (a tool call's arguments): Python reads and writes JSON to about 1,000,
# less the calls already under way, so an answer read at 950 could not be journaled
MAX_ANSWER_NESTING = 500
SECRET_LENGTH = 12   # the shortest API key taken for a secret; real ones run to 40 characters and more
MAX_BODY = 64 << 20   # bytes of one answer from a server: far past any model's, short of a memory attack
# bytes of an error body read for its words (a few hundred are kept): the API key's removal reads them whole, and
# 64 MiB of backslashes took it 47 s and 8 GB of memory. Any echo of a key of 8,000 characters that begins in the
# words kept ends inside it (the longest form of a character: &amp;#x0000000073; with a break of 100 beside it)
ERROR_WINDOW = 1 << 20
# characters of a judge's answer (its reasoning apart) searched for a verdict: a reason and a verdict
# are a few hundred, and a window of 128K tokens writes about 500K. Past it the vote is unreadable and
# says so; the search is linear, so this bounds its time too (about half a second at worst)
MAX_VERDICT_CHARS = 1 << 20


# The audit: where a judge leans (the biases methodology note 001 names), read from the verdicts a run already holds:
# answer length, its own family, the position in a pairwise comparison, its votes disagreeing.
AUDIT_FEW = 8   # judged answers below which quarters of four or fewer say nothing
LENGTH_SLIGHT = 0.2   # a rank correlation of length with the verdict within ±0.2: length sways it little
# Kappa's interval is a normal approximation. In simulated calibrations (failures 15-50% of the
# answers, judges catching 70-90% of them and passing 90-95% of passes; 3,000 tables each) its 95%
# interval held the true kappa anywhere from 84% to 99% of the time on 10 to 30 answers, 89-94% on
# 50 and 91-95% from 100 on (tables without a disagreement get none): below this it is called rough.
KAPPA_FEW = 100
UNSURE_SHARE = 0.2   # answers whose votes split, above which a judge is called unsure of itself


REVIEW_READ_SECONDS = 10   # a page sends its small requests at once; one that promises more body than it sends waits no longer
MAX_ANNOTATION = 200       # characters of one annotation: a name for a failure, not an essay
# seconds a review's save waits for the sidecar's lock: another save takes milliseconds; past this its holder is stopped
# (a second review suspended with Ctrl-Z) and the page, waiting on the answer, is told so
REVIEW_SAVE_WAIT = 10
ANNOTATION_SHOWN = 80      # characters of one shown in report's table (--json keeps it whole)

CHART_WIDTH = 520      # px of a chart's plot: 1 point of accuracy is 5 px, and the page still prints on A4
CHART_NAME = 190       # px for the names left of the bars
CHART_ROW = 26         # px per bar, whisker and name
CHART_NAME_CHARS = 24  # characters of a name drawn in a chart (they fit CHART_NAME); the whole name is in its tooltip
CELL = 52              # px per confusion-matrix cell: room for a four-digit count
DIFF_WORK = 5_000_000  # steps a word diff may take (difflib is about cubic on a repeated token); past them, unmarked
PAGE_DIFF_WORK = 6_000_000   # steps all the word diffs of one compare page may take together: about 2 s (a step is
                              # about 0.3 µs of Python; 6 x DIFF_WORK took 7 to 9 s on long answers)

# The significance level of every test a gate or a reading rests on (compare, power): the usual
# 5%, one false alarm in twenty comparisons of two equal systems
ALPHA = 0.05
# Sizing (power): the search limits and what its answers show
NEGLIGIBLE = 46                 # a term e^46 (10^20) times smaller than the first one no longer counts
MAX_FAILURES = 1_000            # failures of one kind to see: a handful; a search step sums a term per failure
MAX_SIZING_ROWS = 10 ** 15      # more rows than any test will have: the search at the tiniest rate still ends
MAX_ENUMERATED = 10 ** 6        # cases up to which the exact power and the splits are worked out: a quarter second
# Fair coins (changed cases, decided pairs) up to which the sign test and the mid-p McNemar test are
# counted in whole numbers, exactly: in floats their p came out a last bit above a power of two
# (3 one way: 0.25000000000000006), so at --alpha 0.25 or 0.125 a p equal to alpha read as above
# it. Past 64 such an alpha is below 1e-19; power's enumeration stays as fast
EXACT_COINS = 64
DISCORDANT_SHOWN = (0.10, 0.20, 0.40)   # shares of the cases changing verdict: a small, a usual, a large change
SHORTFALL_SEARCH = 64           # sizes below the first found whose exact power reaches the aim, tried for one that
MAX_SEARCHED = 10_000           # reaches it too (the power is a sawtooth in n); the largest n so searched: ms a size


class Option(NamedTuple):
    """One command-line option, declared once: §15 builds every parser from these rows, fills in
    their defaults and applies the --resume and judge-option rules from them. Plain data, so that
    this section names nothing of a later one (a converter named here would be a forward reference):
    `kind` names a way to read the value, which §15 resolves to its converter, or to the choices
    §3 declares (--api, --think)."""
    flags: tuple
    commands: tuple            # the commands that take it (an option whose help differs per command is one row each)
    help: str
    kind: str = "text"         # text, int, count, trials, tokens, seconds, retries, temperature, probability, accuracy,
                               # port, flag, each (repeatable), api, think, format
    default: object = None     # its value when not given; None: nothing, or what the help says is taken instead
    metavar: str = None
    group: str = None          # its section of the help; None: the command's own options
    exclusive: str = None      # the options sharing this name exclude each other
    run_config: bool = False   # part of a run's configuration: `run --resume` refuses it (the run has its own)
    judge_call: bool = False   # how compare and judge ask a judge: None until they ask one, refused if they ask none
    recorded_as: tuple = None  # with run_config: the config keys that hold what it changes of what the model is asked
                               # or how (None: its own name); () for one that changes which cases, how many times,
                               # or where the file goes, but nothing of a question

    @property
    def dest(self):
        return self.flags[0][2:].replace("-", "_")

    @property
    def asks(self):
        """The run-config keys this option changes the question in: what the held-out guard compares."""
        if not self.run_config:
            return ()
        return (self.dest,) if self.recorded_as is None else self.recorded_as


VIEWING = ("report", "compare")         # the commands that show a result
CALLING = ("run", "compare", "judge")   # the commands that may call a model
OPTIONS = (
    # the views of a result
    Option(("--json",), VIEWING, "print every figure as one JSON object, unrounded", "flag", False, exclusive="view"),
    Option(("--markdown",), VIEWING, "print a short GitHub-flavoured summary (for a pull request or $GITHUB_STEP_SUMMARY)",
           "flag", False, exclusive="view"),
    Option(("--html",), VIEWING, "also write the result as one self-contained HTML page (charts drawn inline, nothing "
                                 "fetched: open it offline, attach it, send it); an existing FILE is kept unless --force",
           metavar="FILE", group="page"),
    Option(("--force",), VIEWING, "with --html: replace FILE if it is a page eval.py wrote (never a page of your own)", "flag", False, group="page"),
    # how model calls are made
    Option(("--jobs",), CALLING, "model calls in flight at once (default 1)", "count",
           1,   # one call at a time: what any server takes; more is faster only where the server runs calls in parallel
           metavar="N", group="model calls", judge_call=True),
    Option(("--timeout",), CALLING, f"the longest one call may take, first byte sent to last byte read "
                                    f"(default {DEFAULT_TIMEOUT:g}: a first model load is slow)", "seconds",
           DEFAULT_TIMEOUT, metavar="S", group="model calls", judge_call=True),
    Option(("--retries",), CALLING, f"retries on connection errors, timeouts, 429 and 5xx (default {DEFAULT_RETRIES})",
           "retries", DEFAULT_RETRIES, metavar="N", group="model calls", judge_call=True),
    Option(("--api-key",), CALLING, "Bearer token for an OpenAI-compatible server (default $OPENAI_API_KEY); "
                                    "never written anywhere", group="model calls", judge_call=True),
    # how answers are judged, and the sampling seed
    Option(("--seed",), CALLING, f"sampling seed; trial t of --repeat uses seed+t-1 and a judge's vote i seed+i-1, so "
                                 f"that they are samples, not copies; below 0: none (default {DEFAULT_SEED})", "seed",
           DEFAULT_SEED, group="judge checks and sampling", run_config=True, judge_call=True),
    Option(("--judge-model",), CALLING, "the judge model (default: the run's model; compare --pairwise: the "
                                        "candidate's); repeat it for a panel of judges", "each",
           metavar="M", group="judge checks and sampling", run_config=True, judge_call=True, recorded_as=("judge",)),
    Option(("--judge-votes",), CALLING, "ask each judge N times and take the majority (default 1); agreement below "
                                        "0.8 is listed as doubtful", "votes",
           1,   # one vote: at temperature 0 more votes only repeat it
           metavar="N", group="judge checks and sampling", run_config=True, judge_call=True, recorded_as=("judge",)),
    Option(("--judge-temperature",), CALLING, "judge temperature (default 0; raise it so that --judge-votes sample, "
                                              "not repeat)", "temperature",
           0.0,   # the judge's least run-to-run variation, as a run's
           metavar="T", group="judge checks and sampling", run_config=True, judge_call=True, recorded_as=("judge",)),
    Option(("--judge-max-tokens",), CALLING, f"the most tokens one judge answer may take (default "
                                             f"{DEFAULT_JUDGE_TOKENS}: a verdict needs a few hundred); sent as "
                                             "num_predict to Ollama, max_tokens to an OpenAI-compatible server. A "
                                             "vote cut there has no verdict and is named as cut", "tokens",
           DEFAULT_JUDGE_TOKENS, metavar="N", group="judge checks and sampling", run_config=True, judge_call=True,
           recorded_as=("judge",)),
    Option(("--judge-schema",), CALLING, "constrain the judge's answer to its verdict's JSON Schema (reason first, "
                                         "verdict last), sent as --format schema sends a run's: for a small judge "
                                         "that cannot write the JSON unaided", "flag", False,
           group="judge checks and sampling", run_config=True, judge_call=True, recorded_as=("judge",)),
    # run
    Option(("--split",), ("run",), "dev, test (golden/<name>.jsonl), or a path ending in .jsonl", run_config=True,
           recorded_as=()),   # the guard compares runs of one split (its hash) already
    Option(("--prompt",), ("run",), "system prompt file (default: the newest prompts/vN.txt, highest N{newest}; of "
                                    "prompts/X/ for golden/X/, of DIR/prompts/ for a split in a DIR outside golden/ "
                                    "that has one); "
                                    "repeat it, or --model, for a grid: a run of each model with each prompt, then "
                                    "one compare of them all", "each",
           run_config=True, recorded_as=("prompt_sha",)),   # {newest}: the newest prompt where the help is asked
                                                             # for, filled in by §15; its text, not its file name
    Option(("--model",), ("run",), f"model name on the server (default {DEFAULT_MODEL}); repeat it for a grid "
                                   "(see --prompt)", "each", default=DEFAULT_MODEL, run_config=True),
    Option(("--temperature",), ("run",), f"sampling temperature (default {DEFAULT_TEMPERATURE:g})", "temperature",
           DEFAULT_TEMPERATURE, run_config=True),
    Option(("--host",), ("run",), f"server URL (default $OLLAMA_HOST, else {DEFAULT_HOST}); read as ollama reads it: "
                                   "no scheme means http, no port means 11434"),
    Option(("--out",), ("run",), "run file to write; if it exists, nothing is asked and run exits 2; a folder gets "
                                 "the default name (default runs/<split>-<prompt>.json, or the next free name: -2, "
                                 "-3...)", run_config=True, recorded_as=()),
    Option(("--compare", "--comparar"), ("run",), "after the run, compare it with this run file", metavar="RUN"),
    Option(("--limit",), ("run",), "ask only the first N cases (a quick look; the run says so wherever it is shown)",
           "count", metavar="N", exclusive="quick", run_config=True, recorded_as=()),
    Option(("--cases",), ("run",), "ask only these cases (a quick look, recorded as such)", metavar="ID,ID",
           exclusive="quick", run_config=True, recorded_as=()),
    Option(("--context",), ("run",), "RAG: take each case's passages from FILE, a JSONL your retriever wrote (one line "
                                     "{\"id\": case id, \"context\": [{\"id\", \"text\"}...]} per case), not from the "
                                     "split; recorded and hashed in the run, so two retrievers compare on the same cases",
           metavar="FILE", run_config=True, recorded_as=("context_sha",)),
    Option(("--rerun-test",), ("run",), "run the held-out test split even though runs/ shows it was already run with "
                                        "another configuration (prompt, model, temperature, seed, format, think, "
                                        "options, API, judge, labels; the run is marked as forced)",
           "flag", False, run_config=True, recorded_as=()),
    Option(("--resume",), ("run",), "finish an interrupted run (the path it printed)", metavar="PATH"),
    Option(("--api",), ("run",), "ollama (/api/chat, the default) or openai: any OpenAI-compatible server (llama.cpp, "
                                 "llama-cpp-python, vLLM, LM Studio, Ollama's /v1) at --host", "api",
           "ollama",   # Ollama's own API: the server DEFAULT_HOST and DEFAULT_MODEL are for
           run_config=True),
    Option(("--option",), ("run",), "a model option passed through (num_predict, num_ctx, top_p, stop...; JSON "
                                    "values parsed); repeatable; num_predict becomes max_tokens for --api openai",
           "each", metavar="KEY=VALUE", run_config=True, recorded_as=("options",)),
    Option(("--unchecked-options",), ("run",), "send --option names eval.py does not know as Ollama options "
                                               "(a newer server's); by default an unknown name is refused before "
                                               "any call, since Ollama ignores it without a word", "flag", False,
           run_config=True, recorded_as=()),   # how the run's options were read (they are compared as "options"):
                                               # a resumed run has them already
    Option(("--think",), ("run",), "thinking models (Ollama API): sent as \"think\": on/off are true/false, "
                                   "low/medium/high/max a level for models that have levels. Default: nothing sent, and "
                                   "Ollama then thinks on a model that can. A model that cannot is refused before any "
                                   "case. The reasoning is stored apart and never scored", "think",
           run_config=True),
    Option(("--format",), ("run",), "structured output: json sends Ollama's format \"json\"; schema sends a JSON "
                                    "Schema whose one property is an enum of the labels. The label is read from the "
                                    "JSON", "format", run_config=True),
    Option(("--max-turns",), ("run",), f"agents (cases with tools): requests per case at most; an answer still "
                                       f"calling tools at the last one ran out of turns and fails (default "
                                       f"{DEFAULT_MAX_TURNS}, at most {MAX_TURNS})", "count",
           DEFAULT_MAX_TURNS, metavar="N", run_config=True),
    Option(("--repeat",), ("run",), "ask K times per case with the same configuration, keeping every answer "
                                    "(default 1); the report adds pass@k, pass^k and the flaky cases", "trials",
           1,   # one answer per case; pass@k and the flaky cases need more, and cost as many times the calls
           metavar="K", run_config=True, recorded_as=()),   # the same question asked more times
    # report
    Option(("--checks",), ("report",), "score with the checks this split file (and its checks.json) defines now, "
                                       "instead of those stored in the run: change a check, re-report, no model call",
           metavar="SPLIT"),
    Option(("--min-accuracy",), ("report",), "gate: exit 1 if accuracy (with trials, the mean of each case's pass "
                                             "rate) is below X (0.85 or 85%%); with undecided cases, if even its high "
                                             "bound is, and exit 2 if X lies between the bounds", "accuracy", metavar="X"),
    Option(("--case",), ("report",), "show one case in full: its input, every trial's answer uncut, each check and "
                                     "each judge's reason", metavar="ID"),
    Option(("--must-pass",), ("report",), "gate: exit 1 if any case tagged TAG fails in any trial (repeatable)",
           "each", [], metavar="TAG"),
    # compare
    Option(("--alpha",), ("compare",), f"significance level of the paired test, of its reading and of "
                                       f"--fail-if-worse (default {ALPHA:g})", "significance", ALPHA),
    Option(("--fail-on-regression",), ("compare",), "gate: exit 1 if any case regressed (with trials: by its "
                                                    "majority vote)", "flag", False),
    Option(("--fail-if-worse",), ("compare",), "gate: exit 1 only if the candidate is significantly worse (the "
                                               "paired test: mid-p McNemar, or with trials a t-test on each case's "
                                               "pass rate; --alpha; with --pairwise, also if the judge significantly "
                                               "prefers the baseline)", "flag", False),
    Option(("--fisher",), ("compare",), "also print Fisher's exact test on the two pass counts, which ignores that "
                                        "both runs answered the same cases: only for a test chosen before the run "
                                        "(two runs)", "flag", False),
    Option(("--pairwise",), ("compare",), "ask a judge which answer meets CRITERION better, for every case both runs "
                                          "answered, in both orders (a preference counts only if it survives the "
                                          "swap); verdicts are stored in CANDIDATE" + PAIRWISE_SUFFIX + " and reused "
                                          "when the runs, the judge and the criterion are the same",
           metavar="CRITERION"),
    Option(("--host",), ("compare",), "with --pairwise: the judge's server (default: the candidate run's host)",
           judge_call=True),
    Option(("--api",), ("compare",), "with --pairwise: the judge server's API (default: the candidate run's)", "api",
           judge_call=True),
    # runs
    Option(("--json",), ("runs",), "print the list as JSON", "flag", False),
    # judge
    Option(("--host",), ("judge",), "server URL (default: the run's host)", judge_call=True),
    Option(("--out",), ("judge",), "file to write; if it exists, nothing is asked and judge exits 2; a folder gets "
                                   "the default name (default: the run's name with -judged, runs/x-judged.json, or "
                                   "the next free name: -judged-2 and so on)", judge_call=True),
    Option(("--audit",), ("judge",), "instead of judging, audit the verdicts RUN holds (no model call): pass rate by "
                                     "answer length, each judge's rate and family, split votes, and the position "
                                     "flips of pairwise comparisons stored beside it", "flag", False),
    Option(("--json",), ("judge",), "with --audit: print the audit as JSON", "flag", False),
    Option(("--checks",), ("judge",), "judge with the checks this split file (and its checks.json) defines now, "
                                      "instead of those stored in the run: a judge check added after the run is "
                                      "asked of the stored answers", metavar="SPLIT", judge_call=True),
    # calibrate
    Option(("--json",), ("calibrate",), "print the figures as JSON", "flag", False),
    Option(("--audit",), ("calibrate",), "add the judge-bias audit (judge RUN --audit), with people's verdicts by "
                                         "answer length beside the judge's", "flag", False),
    # review
    Option(("--against",), ("review",), "show this run's answer beside each case, and fixed/regressed",
           metavar="OTHER_RUN"),
    Option(("--port",), ("review",), "port on 127.0.0.1 (default 8765; 0 picks a free one)", "port",
           8765),   # fixed, so that the page's address is the same from one review to the next
    # power
    Option(("--difference",), ("power",), "the difference in pass rate a paired comparison should tell from chance, "
                                          "candidate minus baseline, e.g. 0.10 or 10%% (its sign does not matter)",
           "difference", metavar="D"),
    Option(("--discordant",), ("power",), "with --difference: the share of the cases expected to change verdict "
                                          "between the runs (fixed or broken), e.g. 0.14; at least the difference",
           "share", metavar="P"),
    Option(("--rate",), ("power",), "the failure rate you want to be able to catch, e.g. 0.16", "probability"),
    Option(("--failures",), ("power",), "with --rate: failures you want to see (default 6)", "count",
           6),   # a handful: enough failures of one kind to see a pattern in them, not a fluke
    Option(("--prob",), ("power",), "the chance to aim for: of seeing the failures (--rate), or the test's power "
                                    "(--difference) (default 0.8)", "probability",
           0.8),   # the conventional power of a test, 80%
    Option(("--rows",), ("power",), "cases both runs answer: alone, what compare's paired test can tell on that "
                                    "many; with --rate, the chance of seeing the failures", "count", metavar="N"),
    Option(("--unpaired",), ("power",), "with --rows: the failures Fisher's exact test needs against a baseline that "
                                        "never failed on as many rows; unpaired, for versions run on different rows "
                                        "or a test pre-registered that way", "flag", False),
    Option(("--alpha",), ("power",), f"significance level (default {ALPHA:g})", "significance", ALPHA),
    Option(("--json",), ("power",), "print the answer as JSON", "flag", False),
)

# What `run --resume` takes besides the run: how to make the calls, and a run to compare with;
# everything else is the run's configuration, which the run it resumes already has
RESUME_TAKES = tuple(o.flags[0] for o in OPTIONS if "run" in o.commands and not o.run_config and o.dest != "resume")



# ---------------------------------------------------------------------------
# 2. Helpers every stage uses: errors, text for a terminal, JSON, files written whole, locks,
#    signals. Nothing here knows what a case or a run is.

class EvalError(Exception):
    """A foreseeable problem: shown to the user as plain lines, exit 2."""


def warn(message):
    print(inert(message), file=sys.stderr, flush=True)


def say(text):
    """Print to stdout as a terminal should see it: whatever a server or a file put in the text
    (a model's name, a server's version, an annotation, an id) is shown escaped, never acted on.
    Every view people read goes out through here, warn() or handled(), so that no formatter has
    to remember it."""
    print(inert(text))


# Characters a terminal acts on (ESC starts colour and cursor sequences): shown escaped, never
# passed on, when text from a server or a model is printed or kept as an error.
CONTROL_CHARS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")   # and bidi overrides, lone surrogates


def char_escape(char):
    """One character as Python writes it escaped: \\xNN, \\uNNNN, or above U+FFFF \\UNNNNNNNN (four
    digits there would read as another character then a digit: U+E0041 as U+E004 and "1")."""
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def inert(text):
    return CONTROL_CHARS.sub(lambda m: char_escape(m.group()), text)


# Line breaks (and the Unicode line and paragraph separators) in text shown where one line is
# expected: a list entry, a table cell, a "Run:" line. Kept raw, a server's error body or a run
# file's model name starts a line of its own there, a fake headline or a fake row.
LINE_BREAKS = {"\n": "\\n", "\u2028": "\\u2028", "\u2029": "\\u2029"}


def on_one_line(text, width=None):
    """text inert and on one line, its line breaks shown escaped: nothing dropped, nothing obeyed;
    with width, cut there (one_line cuts too, but makes one space of every run of whitespace: a
    name's line break would be hidden)."""
    return cut_to(re.sub("[\n\u2028\u2029]", lambda m: LINE_BREAKS[m.group()], inert(str(text))), width)


# An escape inert, LINE_BREAKS or a tab's \\t made: a cut inside one would leave a lone backslash or "\x1", text
# that is in neither the name nor its escaped form
ESCAPE_MADE = re.compile(r"\\(?:x[0-9a-f]{2}|u[0-9a-f]{4}|U[0-9a-f]{8}|[nt])")


def cut_to(flat, width):
    """Text already made inert, cut to width with an ellipsis; an escape in it is kept whole or left
    out whole (escapes are at most ten characters: one that spans the cut starts at most nine before)."""
    if width is None or len(flat) <= width:
        return flat
    end = width - 1
    spanning = next((m for m in ESCAPE_MADE.finditer(flat, max(0, end - 9), end + 10) if m.start() < end < m.end()), None)
    return flat[:spanning.start() if spanning else end] + "…"


def shell_word(text):
    """text as one word to paste into a shell, on one line and inert: shlex.quote, or, when text holds
    a character a terminal acts on or a line break, bash's $'...' with that character escaped (the
    escaped form alone would name another file)."""
    text = str(text)
    if not CONTROL_CHARS.search(text) and not re.search("[\t\n\u2028\u2029]", text):   # a pasted tab may complete
        return shlex.quote(text)
    def escaped(c):
        if c in "\\'":
            return "\\" + c
        if "\udc80" <= c <= "\udcff":   # a byte of a name that is not UTF-8 (os.fsdecode's surrogateescape)
            return f"\\x{ord(c) - 0xdc00:02x}"   # bash's \xNN is that byte
        if CONTROL_CHARS.match(c) or c in "\t\n\u2028\u2029":
            # bash's \xNN is one byte, not a character: past ASCII (U+0085) it is \u0085, the character's UTF-8
            return char_escape(c) if not 0x80 <= ord(c) <= 0xff else f"\\u{ord(c):04x}"
        return c
    return "$'" + "".join(map(escaped, text)) + "'"


def program():
    """How the commands eval.py prints call it: `python eval.py`, or by the path it was started by
    from another folder (python3 ~/tools/eval.py ..., a link ~/bin/ev), so that a command pasted where
    it was printed runs. (Imported, as the tests do, it is `python eval.py`.)"""
    started = sys.argv[0] if __name__ == "__main__" and sys.argv and sys.argv[0] else "eval.py"
    if os.path.abspath(started) == os.path.abspath("eval.py"):
        return "python eval.py"
    return f"python {shell_word(started)}"


def option_word(flag, value):
    """An option and its value as a command to paste: a value that begins with a dash is joined with =,
    or the command line takes it for an option (--split=-x/dev.jsonl)."""
    return f"{flag}{'=' if value.startswith('-') else ' '}{shell_word(value)}"


def one_line(text, width=70):
    return cut_to(inert(" ".join(text.split())), width)


# Markdown (a pull-request comment, a step summary) renders what it is given: text from a file, a
# server or a model is data there, never markup. md_text escapes what markdown acts on inline (a
# remote image, a link, an HTML tag, emphasis, a table's pipe); md_code quotes as code, its
# delimiter a backtick run longer than any in the text (CommonMark ends a code span at a run of
# exactly as many); md_fence fences a block with a run of tildes longer than any of backticks or
# tildes in it (a fence closes at a line of at least as many, indented up to 3 spaces). Each makes
# one line of what it quotes but the fence, whose text keeps its lines.
MARKDOWN_ACTIVE = re.compile(r"([\\`*_\[\]<>|~#!&])")


def md_text(text):
    return MARKDOWN_ACTIVE.sub(r"\\\1", " ".join(str(text).splitlines()))


def md_code(text, cell=False):
    """`text` as a code span; cell: inside a table, whose pipes split cells even in code (GFM). What it
    quotes (an id, a path, a tool name) is exact: a line break in it is shown escaped, never dropped."""
    flat = on_one_line(text)
    ticks = "`" * (max(map(len, re.findall("`+", flat)), default=0) + 1)
    # a space each side keeps a text that starts or ends with a backtick (or a space each side) as it is
    pad = " " if flat[:1] == "`" or flat[-1:] == "`" or flat[:1] == flat[-1:] == " " or not flat else ""
    return f"{ticks}{pad}{flat.replace('|', chr(92) + '|') if cell else flat}{pad}{ticks}"


def md_fence(text):
    longest = max(map(len, re.findall("`+|~+", text)), default=0)
    fence = "~" * max(4, longest + 1)
    return f"{fence}\n{text}\n{fence}"


def json_preview(value, width=60, clean=str):
    """A JSON value a server or a file sent, as one short line for a message (inert, cut at width).
    clean (the API key's removal) sees the whole text, before it is cut short. A value nested too
    deep to print again is named by its kind: the message must not fail."""
    try:
        text = json_text(value)
    except (RecursionError, ValueError):
        text = "[...]" if isinstance(value, list) else "{...}"
    return one_line(clean(text)[:4 * width], width)


def unseen(char):
    """Whether a character is there but cannot be seen as itself: whitespace other than a space (a
    line break, a tab, a no-break space) and format characters (a zero-width space, a BOM), but
    for those inert() shows escaped anyway."""
    return ((char.isspace() and char != " ") or unicodedata.category(char) == "Cf") and not CONTROL_CHARS.match(char)


def name_shown(name, width=60):
    """A name a server listed, for a message: as it is (inert, cut at width), unless what tells it
    apart from the name asked for would be lost on the screen (a space at an end, two inside, a
    line break, a zero-width space: "m:latest\n" is not "m:latest"): then quoted, those escaped."""
    if name == name.strip(" ") and "  " not in name and not any(map(unseen, name)):
        return one_line(name, width)
    escaped = inert("".join(char_escape(c) if unseen(c) and c not in "\n\t" else {"\n": "\\n", "\t": "\\t"}.get(c, c)
                            for c in name))
    return '"' + cut_to(escaped, width) + '"'


def names_text(names, clean=str, empty="none"):
    """Names a server listed, for a message: the first NAMES_SHOWN, each one line (inert, cut short,
    cleaned of the API key first), then how many more. 100,000 of them, or one holding a line
    break, must not make the message a megabyte or forge a line of its own."""
    some = [name_shown(clean(str(name)), 60) for name in names[:NAMES_SHOWN]]
    more = len(names) - len(some)
    return ", ".join(some) + (f", and {more} more" if more > 0 else "") or empty


def entry_text(value):
    """A server's metadata text cut at ENTRY_TEXT; anything else as it came (checked where it is stored)."""
    return value[:ENTRY_TEXT] if isinstance(value, str) else value


def short(sha):
    """A hash's first 8 characters, after an algorithm's prefix a server may send (sha256:...), which
    would leave every digest the same 'sha256:a'."""
    return sha.split(":", 1)[-1][:8] if sha.startswith(("sha256:", "sha1:", "sha512:")) else sha[:8]


def shorts_apart(a, b):
    """Two hashes short (short), each as long as it takes to tell them apart: two digests alike in
    their first 8 characters shown as one ("digest 3f2a9c1b, now 3f2a9c1b") say nothing changed."""
    a, b = (h.split(":", 1)[-1] if h.startswith(("sha256:", "sha1:", "sha512:")) else h for h in (a, b))
    size = 8
    while a[:size] == b[:size] and size < max(len(a), len(b)):
        size += 4
    return a[:size], b[:size]


def rounded(x, d, scale=1):
    """x * scale with d decimals, a half rounded up (away from zero): 5/8 is 63%, as 3/8 is 38% (format() rounds
    a half to even: 62% beside 38% in one table). Up to 9 decimals from the shortest decimal the float reads as
    (23/40 is 0.575 and 199/200 is 0.995, where the floats are a hair under them, and 100 * 0.575 is
    57.49999999999999); past them, from the float's exact value."""
    from decimal import ROUND_HALF_UP, localcontext
    if not isfinite(x):
        return f"{x * scale:.{d}f}"
    with localcontext() as digits:   # as many as asked: 28, Decimal's own, failed a minimum of 30 digits (a traceback)
        digits.prec = d + 20 + len(str(int(abs(x) * scale)))
        if d <= 9 and not isinstance(x, Fraction):
            value = Decimal(repr(float(x))) * scale
        else:
            value = (Decimal(x.numerator) / Decimal(x.denominator) if isinstance(x, Fraction) else Decimal(x)) * scale
        return f"{value.quantize(Decimal(1).scaleb(-d), ROUND_HALF_UP):f}"


def fmt(x, digits=2):
    """A share as a fixed 0.97 (precision, recall, pass@k): never 1.00 for a miss nor 0.00 for a hit,
    as percent() never prints 100% for one (2999/3000 is 0.9997)."""
    return "-" if x is None else near_the_ends(x, lambda d: rounded(x, d), least=digits, whole=1, most=PERCENT_DIGITS + 2)


def exact(number):
    """A weight or threshold as written in decimal, exactly: 0.1 + 0.2 + 0.4 reaches 0.7."""
    return Fraction(repr(number)) if isinstance(number, float) else Fraction(number)


class ExactShare(float):
    """A share as the float every view shows, holding the exact fraction it rounds: a gate reads that one
    (18/23 and a minimum of 0.782608695652174 are one float, and the run, below its minimum, passed)."""

    def __new__(cls, exactly):
        share = super().__new__(cls, float(exactly))
        share.exactly = Fraction(exactly)
        return share


def exactly(share):
    """The exact fraction a share stands for: an ExactShare's own, or a float's as written in decimal."""
    return share.exactly if isinstance(share, ExactShare) else exact(share)


def decimal_digits(fraction):
    """A fraction written in decimal (or a float's), every digit: its denominator is 2^a 5^b, so it ends.
    Any other (a third) is given as its float."""
    odd = fraction.denominator >> (twos := (fraction.denominator & -fraction.denominator).bit_length() - 1)
    fives = 0
    while odd % 5 == 0:
        odd, fives = odd // 5, fives + 1
    if odd != 1:
        return repr(float(fraction))
    places = max(twos, fives)
    return f"{fraction.numerator * 10 ** places // fraction.denominator}e-{places}"


def beside(x, line, text_of, digits=(0, 1, 2, 3, 4, 6, 9), fits=lambda shown: True):
    """x as text_of(x, d) with the fewest digits d that keep it on its own side of a line it is read
    against: 89.8% against a minimum of 90% never prints as 90%, p = 0.0502 against alpha 0.05
    never as 0.05. A figure exactly on the line prints as the line does (p = 1/64 against alpha
    0.015625 as 0.015625, not 0.016). The text is read back exactly (in floats "99.99" / 100 is
    below 0.9999), against the line as it was written. Where the digits offered are too few (a
    chance of 0.9999999989999994 against 0.999999999), more are taken, up to what a float holds:
    two floats apart always print apart at 17 significant digits. fits: a further rule the text
    read back must keep (a chance below 1 never reads 100%)."""
    at = line.exactly if isinstance(line, ExactShare) else Fraction(str(line))
    if isinstance(x, ExactShare):   # a share a gate reads exactly is shown so (18/23 beside a minimum of one float with it)
        x, line = x.exactly, at
    places = at.denominator.bit_length()   # at least its decimals (2^a 5^b): a line of 40 digits takes more than 31 to differ
    for d in [*digits, *range(max(digits) + 1, max(digits) + 22 + places)]:
        text = text_of(x, d)
        shown = Fraction(text.rstrip("%")) / (100 if text.endswith("%") else 1)
        if (shown == at if x == line else shown != at and (shown < at) == (x < line)) and fits(shown):
            return text
    return text


def percent(x, line=None):
    """'88%'; never 100% for a miss nor 0% for a hit; against a line, with the digits that keep it
    on its side (89.8%, not 90%, against a minimum of 90%)."""
    if x is None:
        return "-"
    if line is not None:   # past 9 digits, from the float's exact value (Decimal): 100 * v adds an error there
        return beside(x, line, lambda v, d: f"{rounded(v, d, 100)}%",
                      fits=lambda shown: (shown < 1 or x >= 1) and (shown > 0 or x <= 0))
    return near_the_ends(x, lambda d: f"{rounded(x, d, 100)}%")


PERCENT_DIGITS = 4   # the most decimals a percent takes to stay off 100% or 0%: 99.9999%; past them ">99.9999%"


def near_the_ends(x, text_of, least=0, whole=100, most=PERCENT_DIGITS):
    """A share (or a difference of shares) as text_of(d) with the fewest decimals d from least on
    that never read all of it for a miss nor nothing for a hit (2999/3000 is 99.97%, not 100.0%;
    a difference of +0.0003 is +0.03 points, not +0.0); whole is what a share of 1 reads as (100
    for a percent or points, 1 for a fixed 0.97, the rows for expected failures). Past most
    decimals, ">99.9999%", "<0.0001%", "+<0.0001". Read back from the text as written (100 * x in
    floats is 100.0 for 1 - 2^-53)."""
    if not isfinite(x):   # Decimal cannot compare NaN: shown as it is
        return text_of(least)
    for d in range(least, most + 1):
        text = text_of(d)
        shown = abs(Decimal(text.rstrip("%").replace("\u2212", "-")))
        if (shown < whole or abs(x) >= 1) and (shown > 0 or x == 0):
            return text
    step = Decimal(1).scaleb(-most)
    sign = text[0] if text[0] in "+-\u2212" else ""
    return f"{sign}{'>' if abs(x) > 0.5 else '<'}{whole - step if abs(x) > 0.5 else step}{'%' if text.endswith('%') else ''}"


def level_text(level):
    """A confidence level as a percent, with the digits it needs never to read 100 ('95',
    '99.9999999' at alpha 1e-9, which .3g printed as a 100% interval)."""
    for digits in range(3, 18):
        text = f"{100 * level:.{digits}g}"
        if float(text) < 100:
            return text
    return text


def percent_line(line):
    """A line figures are read against (a minimum, a chance to reach) as a percent, every digit it
    was given (17.86%, 90.00004%: never rounded onto a figure); each figure then takes the digits
    that keep it apart from it (percent(x, line))."""
    from decimal import localcontext
    # as written, past a float's digits (0.85714285714285715, not 0.8571428571428571); else the float's exact value
    written = Decimal(decimal_digits(line.exactly) if isinstance(line, ExactShare) else str(line))
    with localcontext() as digits:   # every digit: Decimal's own 28 rounded 0.8000000000000000000000000000001 to 80%
        digits.prec = len(written.as_tuple().digits) + 2
        exact = written.scaleb(2).normalize()
    text, shown = f"{exact:f}", len(exact.as_tuple().digits)
    return f"{text if len(text) - shown <= 24 else f'{exact:e}'}%"   # --prob 1e-320: 1e-318%, not 320 zeros


def count_percent(part, whole):
    """'22/25 = 88%'. Never rounds a miss up to 100% or a hit down to 0%: 199/200 = 99.5%."""
    if not whole:
        return f"{part}/{whole} = -"
    return f"{part}/{whole} = {percent(part / whole)}"


def interval(ci):
    low, high = ci
    """'38–96%'; each end as percent() writes it: an end short of 100% (or above 0%) never reads as it."""
    return "" if low is None else f"{percent(low)[:-1]}–{percent(high)}"


def p_value(p, alpha=None):
    """'0.031', '2.4e-05'; read against alpha, with the digits that keep it on its side of it (below
    0.001 too: 0.000504 against --alpha 0.0005 is 5.04e-04, never 5.0e-04)."""
    if p is None:
        return "-"
    def text_of(v, d):
        return f"{v:.{d + 1}e}" if v < 0.001 else f"{v:.{d + 2}g}"
    if alpha is None:
        return text_of(p, 0)
    return beside(p, alpha, text_of, digits=(0, 1, 2, 3, 4, 6, 9))


def plural(n, noun):
    return f"{n} {noun}" + ("" if n == 1 else "s")


def plural_are(n, noun):
    """'1 case is', '2 cases are'."""
    return plural(n, noun) + (" is" if n == 1 else " are")


def table(rows, align_right_from=1):
    rows = [[on_one_line(c) for c in row] for row in rows]   # a cell is one line: a break in it would forge a row
    widths = [max(len(str(row[i])) for row in rows) for i in range(len(rows[0]))]
    lines = []
    for row in rows:
        cells = [c.rjust(w) if i >= align_right_from else c.ljust(w) for i, (c, w) in enumerate(zip(row, widths))]
        lines.append("  " + "  ".join(cells).rstrip())
    return lines


def print_json(obj):
    # json escapes the C0 controls itself; the others a terminal acts on (C1 such as \x9b, a CSI
    # alone; bidi overrides) become JSON escapes too: the same value read back, inert on a screen
    print(CONTROL_CHARS.sub(lambda m: f"\\u{ord(m.group()):04x}", json_text(obj, indent=2)))


def show(view, as_json, markdown, text, verdicts=()):
    """Print one view of a result: "json" (every figure, unrounded), "markdown" or "text", the
    last two built only when asked for. Gate verdicts close a markdown view and go to stderr, each on
    its line: the case ids and tags they name may hold a line break, shown escaped."""
    if view == "json":
        print_json(as_json)
    elif view == "markdown":
        say(markdown() + "".join(f"\n\n**{md_text(on_one_line(v))}**" for v in verdicts))
    else:
        say(text())
    for verdict in verdicts:
        warn(on_one_line(verdict))


def view_of(args):
    return "json" if args.json else "markdown" if getattr(args, "markdown", False) else "text"
LONE_SURROGATE = re.compile("[\ud800-\udfff]")   # "\\ud800" decodes to one: not text, and not UTF-8


def unique_pairs(pairs):
    """An object_pairs_hook: the object, or ValueError for a key given twice, which json.loads would
    silently read as its last value."""
    obj = {}
    for key, value in pairs:
        if key in obj:
            raise ValueError(f"key {on_one_line(repr(key), 60)} is given twice")
        obj[key] = value
    return obj


def number_shown(digits):
    """A number's text as sent, for a message: whole, unless too long to read (an integer of 5,000
    digits): then its ends and how many digits it has."""
    if len(digits) <= 40:
        return digits
    whole = digits.lstrip("-").isdigit()   # an integer's length is its size; a fraction's is not
    return f"{digits[:12]}…{digits[-4:]}" + (f" ({len(digits.lstrip('-'))} digits)" if whole else "")


def too_large(digits):
    return f"{number_shown(digits)} is too large a number"


def refused_constant(name):
    raise ValueError(f"{name} is not a number (JSON has no {name})")


def finite_number(digits):
    number = float(digits)
    if abs(number) == inf:
        raise ValueError(too_large(digits))
    return number


def whole_number(digits):
    try:
        return int(digits)
    except ValueError:
        raise ValueError(too_large(digits)) from None


# exact_json's rules, for a json.JSONDecoder too (read_run_config reads one value out of a damaged file)
EXACT_JSON = {"object_pairs_hook": unique_pairs, "parse_constant": refused_constant, "parse_float": finite_number,
              "parse_int": whole_number}


def exact_json(text):
    """json.loads of what JSON is: a key given twice, NaN or Infinity, or nesting past Python's stack
    is refused (ValueError), never read as the last value or as a number JSON does not have. An integer
    longer than Python converts (4,300 digits) is too large a number, as 1e999 is: Python's own words
    would advise sys.set_int_max_str_digits()."""
    try:
        return json.loads(text, **EXACT_JSON)
    except RecursionError:   # (not MAX_NESTING: a server's answer is read as deep as Python reads it)
        raise TooDeep("nested too deeply to read (past Python's recursion limit, about 1,000 levels)") from None


class TooDeep(ValueError):
    """JSON nested past what json.loads can read; a file people write is held to MAX_NESTING (strict_json)."""


class ArgumentsText(str):
    """An Ollama call's arguments JSON has no room for, kept as the text they were sent as
    (ChatClient.arguments_as_sent), as an OpenAI call's arguments always are."""


class GivenTwice(dict):
    """An object of a server's answer holding a key given twice (loose_json): its last values, as
    json.loads reads them, and every pair as it was sent (pairs)."""

    def __init__(self, pairs):
        super().__init__(pairs)
        self.pairs = pairs


class NotANumber(float):
    """NaN, Infinity or a number too large for a float (or, an integer, for Python to convert) in a
    server's answer (loose_json): the float
    json.loads would make, with its text as sent and why JSON has no room for it (as exact_json says)."""

    def __new__(cls, text):
        number = super().__new__(cls, text)
        number.text = text
        number.why = (too_large(text) if text[-1].isdigit()
                      else f"{text} is not a number (JSON has no {text})")
        return number


def loose_json(text):
    """json.loads of a server's answer, what JSON has no room for kept recognisable instead of refused:
    an object giving a key twice is a GivenTwice, NaN, Infinity and 1e999 are NotANumber. The caller
    decides: a figure that is no number is unknown, a call's arguments are kept as sent
    (arguments_as_sent), a key given twice anywhere else is refused (given_twice)."""
    def pairs(found):
        return GivenTwice(found) if len({k for k, _ in found}) < len(found) else dict(found)

    def number(digits):
        value = float(digits)
        return value if isfinite(value) else NotANumber(digits)

    def whole(digits):   # over 4,300 digits Python will not convert it: too large, as 1e999 is
        try:
            return int(digits)
        except ValueError:
            return NotANumber(digits)

    return json.loads(text, object_pairs_hook=pairs, parse_constant=NotANumber, parse_float=number, parse_int=whole)


def inexact_problem(value, numbers=True):
    """What JSON has no room for in a loose_json value (a key given twice; with numbers, NaN or a
    number too large), as exact_json says it, or None."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, GivenTwice):
            seen = set()
            key = next(k for k, _ in item.pairs if k in seen or seen.add(k))
            return f"key {on_one_line(repr(key), 40)} is given twice"
        if isinstance(item, NotANumber) and numbers:
            return item.why
        stack.extend(item.values() if isinstance(item, dict) else item if isinstance(item, list) else ())
    return None


def as_sent(value):
    """A loose_json value as JSON text as it was sent: each pair of a key given twice, NaN as NaN,
    1e999 as 1e999 (so that exact_json says of it what it would have said of the text itself)."""
    if isinstance(value, NotANumber):
        return value.text
    if isinstance(value, dict):
        pairs = value.pairs if isinstance(value, GivenTwice) else value.items()
        return "{" + ", ".join(f"{json_text(k)}: {as_sent(v)}" for k, v in pairs) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(map(as_sent, value)) + "]"
    return json_text(value)


def strict_json(text):
    """json.loads for files people write: exact_json, and nesting deeper than MAX_NESTING or a lone
    surrogate refused (ValueError) as well, instead of silently kept."""
    try:
        value = exact_json(text)
    except TooDeep:
        raise ValueError(f"nested deeper than {MAX_NESTING} levels") from None
    problem = unreadable_value(value)
    if problem:
        raise ValueError(problem)
    return value


def unreadable_value(value, most=None, surrogates=True):
    """Why a decoded JSON value cannot be used, or None: more than `most` levels of lists and objects
    (MAX_NESTING by default), or a lone surrogate in a key or string when `surrogates` is asked.
    Walked by a stack: recursion would fail on the values it is there to find."""
    most = MAX_NESTING if most is None else most
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (dict, list)):
            if depth > most:
                return f"nested deeper than {most} levels"
            inner = item if isinstance(item, list) else (list(item) + list(item.values()) if surrogates else item.values())
            stack.extend((each, depth + 1) for each in inner)
        elif surrogates and isinstance(item, str) and LONE_SURROGATE.search(item):
            return f"holds \\u{ord(LONE_SURROGATE.search(item).group()):04x}, half of a character (a lone surrogate)"
    return None


def nesting_past(value, most):
    """Whether a decoded JSON value holds more than `most` levels of lists and objects."""
    return unreadable_value(value, most, surrogates=False) is not None


def is_number(value):
    """A finite JSON number: not true/false, not an integer too long for a float (10**400). By exact
    type (json gives no subclass; bool is not int here): a 100,000-case report asks 800,000 times."""
    kind = type(value)
    if kind is not float and kind is not int:
        return False
    try:
        return isfinite(value)
    except OverflowError:
        return False


def json_text(obj, **options):
    """json.dumps with non-ASCII text kept readable, except a lone surrogate (a server may send
    "\\ud800"): UTF-8 cannot hold one, so it stays a JSON escape and reads back the same."""
    text = json.dumps(obj, ensure_ascii=False, **options)
    return LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def keys_off(obj, keys):
    """'; it has "text", not "content"': the first key of an object as written that is not one of `keys`, beside
    the first of `keys` it lacks (a misspelt or misremembered key), or ""; a key escaped and cut short."""
    if not isinstance(obj, dict):
        return f"; it is {json_kind(obj)}"
    extra = next((k for k in obj if k not in keys), None)
    lacks = next((k for k in keys if k not in obj), None)
    return ((f"; it has {one_line(json_text(extra), 40)}" if extra is not None else "")
            + (f", not {json_text(lacks)}" if extra is not None and lacks else f"; it has no {json_text(lacks)}" if lacks else ""))


def shown_value(value):
    """A value from a file as a message quotes it: text escaped and cut short, anything else by its kind."""
    return repr(value if len(value) <= 60 else value[:60] + "…") if isinstance(value, str) else f"({json_kind(value)})"


def json_kind(value):
    """What a decoded JSON value is, as a message says it: null, true, false, a number, text, a list,
    an object (never the value: it may be long, or hostile)."""
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    return ("a number" if isinstance(value, (int, float)) else "text" if isinstance(value, str)
            else "a list" if isinstance(value, list) else "an object")


def json_line(obj):
    return (json_text(obj) + "\n").encode("utf-8")


def same_json(a, b):
    """a and b are equal as JSON values are: Python's == takes true for 1 and false for 0, also
    inside lists and objects, where JSON (and JSON Schema's enum) tells them apart; 1.0 is still 1."""
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(map(same_json, a, b))
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(same_json(v, b[k]) for k, v in a.items())
    return a == b


BRACE_OR_QUOTE = re.compile(r'[{}"]')
# a JSON string as the lenient decoder (strict=False) reads one: a backslash escapes what follows and
# a raw control character is part of it (models write line breaks in their reasons unescaped); group 1
# is its closing quote, empty where the text ends first
JSON_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*("?)', re.DOTALL)
OBJECT_OPENING = re.compile(r'\{\s*"')   # how an object with a key begins; a brace in prose does not
# an object's first key, whole: "{" in prose is a quoted brace, "{"reason": a stray quote before an object
KEY_OPENING = re.compile(r'\{\s*"(?:[^"\\\s]|\\.)(?:[^"\\\n]|\\.){0,199}"\s*:')   # a key begins with no space
QUOTED_BRACE = re.compile(r'(?<=")\{(?=")')


def brace_pairs(text):
    """(the braces of a text paired as the JSON decoder pairs them, [(start, end)]; those left open,
    [(start, whether it opens like an object)]), for reading JSON objects out of a model's prose. Inside
    a brace that opens like an object a quote starts a string, and the braces in it are text, as the
    decoder reads them; outside every such brace a quote is prose, as a brace that does not open like an
    object is ("no {" in a judge's prose must not swallow the brace of the verdict after it). One pass,
    each string skipped whole: linear in the text."""
    pairs, opened, in_objects, pos = [], [], 0, 0
    while (m := BRACE_OR_QUOTE.search(text, pos)):
        at, pos = m.start(), m.end()
        if m.group() == "{":
            like = OBJECT_OPENING.match(text, at) is not None
            opened.append((at, like))
            in_objects += like
        elif m.group() == "}":
            if opened:   # a close with nothing open is prose
                start, like = opened.pop()
                in_objects -= like
                pairs.append((start, pos))
        elif in_objects:
            pos = JSON_STRING.match(text, at).end()   # past its closing quote, or to the end of the text
    return pairs, opened


def object_spans(text, pairs):
    """Of brace_pairs' pairs, those that open like an object and no other such pair holds, in order:
    the spans a decoder would read as the text's outermost objects."""
    spans = []
    for start, end in sorted(pairs):
        if (not spans or start >= spans[-1][1]) and OBJECT_OPENING.match(text, start):
            spans.append((start, end))
    return spans


def sha256_bytes(data):
    return hashlib.sha256(data).hexdigest()


def as_hashed(data):
    """A JSON or JSONL file's bytes as its sha256 is taken: without a BOM, its line ends LF, and one at its end.
    None of these can change a value (JSON holds no raw line break in a string), and a split saved on Windows
    (CRLF), or by an editor that leaves off the last line feed, was another version of it: its runs never
    compared. A file already so (LF, one line feed at its end) is hashed as its bytes, as before."""
    data = data.removeprefix(b"\xef\xbb\xbf").replace(b"\r\n", b"\n").rstrip(b"\n")
    return data + b"\n" if data else b""


class NotRegularFile(OSError):
    """A path to read that is a pipe, a device or a socket, not a file."""


def open_regular(path, mode="rb", encoding=None, errors=None):
    """PATH opened to read, if it is a regular file (a folder: IsADirectoryError; a pipe, a device:
    NotRegularFile). A FIFO with no writer blocks an ordinary open for ever, /dev/zero never ends a
    read: O_NONBLOCK lets the open return whatever PATH is, and fstat then looks at what was opened,
    so nothing can be swapped in between a look and the read."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0))
    try:
        mode_bits = os.fstat(fd).st_mode
        if S_ISDIR(mode_bits):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), path)
        if not S_ISREG(mode_bits):
            raise NotRegularFile(errno.EINVAL, "not a regular file (a pipe or a device)", path)
        with contextlib.suppress(OSError, AttributeError):
            os.set_blocking(fd, True)   # reads of a regular file never wait anyway; this keeps them plain
        return os.fdopen(fd, mode, encoding=encoding, errors=errors)
    except BaseException:
        os.close(fd)
        raise


def own_name(path):
    """The name of the file at path: path itself, or for a symbolic link (or a chain of them) its
    target's, relative to here as one would type it. What eval.py keeps beside a run (a completion,
    a journal, a judging, the annotations and pairwise sidecars, and their locks) is named after
    the file, never after a link to it: by each name its own, one paid for what the other stored.
    A link that leads to no file stays as it is: what reads it names it as such, with its target."""
    return os.path.relpath(os.path.realpath(path)) if os.path.islink(path) and os.path.exists(path) else path


def through_link(path, what):
    """own_name(path), said once on stderr when it is another ("note: X is a link to Y: what"), where
    a file is to be written after it."""
    own = own_name(path)
    if own != path:
        warn(f"note: {shell_word(path)} is a link to {shell_word(own)}: {what}")
    return own


def write_file(path, pieces, replace=False):
    """The one way eval.py writes a file: whole and atomically (a temp file beside it, fsync, then
    its name), so a reader sees the old file or the new one, never half of one. replace=False: a
    new file only, FileExistsError if the name is taken (a hard link fails on an existing name,
    rename would not); replace=True: over the old file (a sidecar eval.py owns). The temp file
    never outlives a failure (a full disk, say); those that killed processes left are removed first."""
    remove_stale_temp_files(path)
    tmp = f"{path}.tmp-{os.getpid()}-{threading.get_ident()}"
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            f.writelines([pieces] if isinstance(pieces, str) else pieces)
            f.flush()
            os.fsync(f.fileno())
        if replace:
            os.replace(tmp, path)
        else:
            link_new(tmp, path)
    finally:
        remove_quietly(tmp)


@contextlib.contextmanager
def sidecar_lock(path, wait=None):
    """The lock on a sidecar while it is read, changed and written (PATH.lock, which its journal's
    lines are written under too); for a sidecar that is a link, the lock beside its target as well:
    two sidecars linked to one shared file each took only their own, and the last write dropped
    what the other had stored. wait: FileLock's."""
    with FileLock(path + ".lock", wait=wait):
        own = own_name(path) if os.path.isfile(path) else path
        if own == path:
            yield
        else:
            with FileLock(own + ".lock", wait=wait):
                yield


def writable_beside(path, otherwise):
    """Refused before anything is asked (EvalError) when the folder of a sidecar to write cannot be
    written: a read-only mount, another's folder (a run given through a link, whose sidecars go beside
    its file, or a sidecar's link to a shared file), another's file in a sticky folder such as /tmp
    (written whole, a file is put in place by a rename, which there replaces only one's own). `otherwise`:
    what would have happened."""
    for written in dict.fromkeys((path, own_name(path) if os.path.isfile(path) else path)):   # a link: its target's too
        folder = os.path.dirname(written) or "."
        if os.path.isdir(folder) and not os.access(folder, os.W_OK):
            raise EvalError(f"cannot write {shell_word(written)}: its folder {shell_word(folder)} cannot be written; "
                            f"{otherwise}")
        if os.path.isdir(folder) and os.path.isfile(written) and hasattr(os, "geteuid"):
            folder_info, file_owner = os.stat(folder), os.stat(written).st_uid
            sticky = folder_info.st_mode & 0o1000   # stat.S_ISVTX (`stat` here is the page's figure helper)
            if sticky and os.geteuid() not in (0, folder_info.st_uid, file_owner):
                raise EvalError(f"cannot write {shell_word(written)}: it is another user's file (uid {file_owner}) in a "
                                f"folder where each user replaces only their own ({shell_word(folder)}, sticky); {otherwise}")


def write_sidecar(path, text):
    """A file eval.py keeps beside a run and rewrites (annotations, pairwise verdicts), written whole
    over the one there. One that is a link the user made (to a file shared elsewhere) is written
    through, at its target's name (own_name), the temp file beside the target: replaced by a file,
    the link would have left its target silently behind, never updated again. A link to nothing is
    no file to update (its target may be on a share not mounted): never created, it is replaced."""
    target = own_name(path) if os.path.isfile(path) else path
    try:
        write_file(target, text, replace=True)
    except OSError as e:   # the callers name the sidecar: said where the write went
        if target == path or e.errno is None:
            raise
        raise OSError(e.errno, f"{e.strerror}, writing through the link to {shell_word(target)}", path) from None


def link_new(tmp, path):
    """`tmp` under the name `path`, never over a file (or a link, a device, a pipe) already there."""
    try:
        os.link(tmp, path)
    except FileExistsError:
        raise
    except OSError:   # a file system without hard links: rename, after a last look
        if os.path.lexists(path):
            raise FileExistsError(f"{path} exists") from None
        os.replace(tmp, path)


def remove_quietly(path):
    try:
        os.unlink(path)
    except OSError:
        pass


# write_file's temp files: NAME.tmp-PID or NAME.tmp-PID-THREAD. One whose process is gone is removed
# by the next write of NAME, so no file of the user's may be given such a name (chosen_run_path).
TEMP_NAME = re.compile(r"(.+)(\.tmp-(\d+)(?:-\d+)?)")


def remove_stale_temp_files(path):
    """Temp files of `path` (`path.tmp-PID...`) whose process is gone: a kill during a write left them."""
    folder, name = os.path.split(path)
    try:
        names = os.listdir(folder or ".")
    except OSError:
        return
    for other in names:
        temp = TEMP_NAME.fullmatch(other)
        if temp and temp.group(1) == name and not process_alive(int(temp.group(3))):
            remove_quietly(os.path.join(folder, other))


def process_alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True
    return True


def open_lock_file(path):
    """The lock file at path, opened to hold a pid, never through a link: `open(path, "a+")` followed
    one and wrote the pid over its target (a victim's file). A link, a folder or anything but a
    regular file there is named, never written."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_APPEND | getattr(os, "O_NOFOLLOW", 0) | os.O_NONBLOCK, 0o644)
    except OSError as e:
        if e.errno in (errno.ELOOP, errno.EISDIR, errno.ENXIO):
            raise EvalError(f"{shell_word(path)}: not a lock file eval.py made (a link, a folder or a device); "
                            "remove it, then run again") from None
        raise OSError(e.errno, e.strerror, path) from None
    held = os.fstat(fd)
    # a hard link: another name of a file it would empty (0 links: its holder is releasing it, and
    # FileLock opens the file then at the path again)
    if not S_ISREG(held.st_mode) or held.st_nlink > 1:
        os.close(fd)
        raise EvalError(f"{shell_word(path)}: not a lock file eval.py made (not a regular file of its own, or a second "
                        "name of another file); remove it, then run again")
    return os.fdopen(fd, "a+")


def remedy(error):
    """What to do about a write that failed, as its error says: a full disk is not a folder the user
    may not write to ("free some space" for that sent people to delete files for nothing). A file
    past its size limit (EFBIG) is as full (the tests stand it in for a full disk; ulimit -f is rarer)."""
    return "Free some space" if error.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG) else "Fix that"


class FileLock:
    """An exclusive advisory lock (POSIX flock on PATH, which holds the holder's pid; none on
    Windows), released by release() or at the end of a with block, and by the kernel when its
    process dies: a lock file a killed process left is taken again at once. refuse: None to wait
    for a turn (two review servers, two compares saving one sidecar); else a function of the
    holder's pid giving the error to refuse with at once (two resumes of one run never both ask). wait: at most
    so many seconds for a turn, then refused (a review's save, which a page waits on)."""

    def __init__(self, path, refuse=None, wait=None):
        self.path, self.file, self.others = path, None, []
        try:
            import fcntl
        except ImportError:
            return
        if wait is not None and refuse is None:
            refuse = lambda holder: (f"{shell_word(path)} is held by another eval.py (process "
                                     f"{holder if holder not in (None, '?') else 'unknown'}), stopped or still saving, past "
                                     "the wait for a turn; nothing was saved: save again")
        deadline = time.monotonic() + (wait or 0)
        while self.file is None:
            handle = open_lock_file(path)
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | (fcntl.LOCK_NB if refuse else 0))
            except OSError:
                holder = lock_holder(handle)
                handle.close()
                if wait is not None and time.monotonic() < deadline:
                    time.sleep(0.05)
                    continue
                raise EvalError(refuse(holder)) from None
            if same_file(handle, path):
                self.file = handle
            else:   # its holder removed it as we waited: the lock is the file now at PATH
                handle.close()
        try:
            self.file.truncate(0)
            self.file.write(str(os.getpid()))
            self.file.flush()
        except OSError as e:   # a full disk: no lock file left behind, and the error names it
            remove_quietly(path)
            with contextlib.suppress(OSError):   # closing flushes the pid again, and fails again
                self.file.close()
            self.file = None
            raise OSError(e.errno, e.strerror, path) from None

    def hold_too(self, path, refuse):
        """Lock the file at path itself as well (hold_file), held as long as this lock: a lock named
        after a file is one per name, and a file's second name (a hard link) took a second lock (two
        resumes of one journal both asked)."""
        if self.file is None:   # no flock here (Windows)
            return
        try:
            handle = hold_file(path, refuse)
        except EvalError:
            self.release()
            raise
        if handle is not None:
            self.others.append(handle)

    def release(self):
        for handle in self.others:
            handle.close()
        self.others = []
        if self.file is not None:
            remove_quietly(self.path)   # while still held: whoever waits on it sees it gone and retries
            self.file.close()
            self.file = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.release()


def hold_file(path, refuse):
    """The file at path locked by this process (flock on the file, whatever name it is given by),
    held until the handle returned is closed; None if there is no such file (the caller's own checks
    say so) or no flock (Windows). Refused at once, EvalError(refuse), if another process holds it."""
    try:
        import fcntl
        handle = open_regular(path)
    except (ImportError, OSError):
        return None
    if not took_flock(handle, refuse):
        # no lock on a file open to read: NFS makes flock a byte-range lock, which wants it open to write
        # (flock(2), NOTES). Opened so (never truncated), or gone on without this hold: RUN.lock still holds
        handle.close()
        try:
            handle = os.fdopen(os.open(path, os.O_RDWR | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0)), "rb+")
        except OSError:
            return None
        if not S_ISREG(os.fstat(handle.fileno()).st_mode) or not took_flock(handle, refuse):
            handle.close()
            return None
    return handle


def took_flock(handle, refuse):
    """Whether an exclusive flock on handle was taken; refused (EvalError(refuse), handle closed) if
    another process holds one, the one error that says so; False for any other (a file system's)."""
    import fcntl
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except OSError as e:
        if e.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
            handle.close()
            raise EvalError(refuse) from None
        return False


def lock_holder(handle):
    """The pid in a lock file another process holds ("?" if none): the holder may be between
    emptying the file and writing its pid, so it is read a few times."""
    for _ in range(50):
        handle.seek(0)
        holder = handle.read().strip()
        if holder:
            return holder
        time.sleep(0.01)
    return "?"


def same_file(handle, path):
    try:
        return os.path.samestat(os.fstat(handle.fileno()), os.stat(path))
    except OSError:
        return False


@contextlib.contextmanager
def terminated_as_interrupted():
    """SIGTERM and SIGHUP (STOP_SIGNALS) end what runs inside as Ctrl-C does (a run: answers kept,
    resumable; a review: every label already saved), the checks and the model load before a run's
    first case included (a load can take minutes)."""
    def interrupt(signum, frame):
        raise KeyboardInterrupt
    previous = {stop: signal.signal(stop, interrupt) for stop in STOP_SIGNALS}
    try:
        yield
    finally:
        for stop, handler in previous.items():
            signal.signal(stop, handler)


def majority(votes, tie=None):
    """The value most votes give; `tie` when two values share the most; None when there is no vote.
    The one vote count in eval.py: a case's trials (labels, verdicts) and a judge's votes."""
    counts = Counter(votes).most_common(2)
    if not counts:
        return None
    return tie if len(counts) > 1 and counts[0][1] == counts[1][1] else counts[0][0]


def rate(part, whole):
    return part / whole if whole else None


def agreeing_share(readable, asked):
    """A verdict's certainty: the share of the votes asked that give its most common answer. A vote
    without a verdict (unreadable, cut, or a failed call) counts against it as a dissenting one does:
    of three votes, one readable pass and two unreadable is a pass of certainty 1/3, never 1."""
    return max(Counter(readable).values()) / asked if readable and asked else None



# ---------------------------------------------------------------------------
# 3. Records, declared once: the case, the check, the answer, the run config and the run file,
#    the graded case and the score, the compare results, the judges' votes and both sidecars:
#    plain dicts in the JSON's shape, their keys named here (tests/test_records.py holds them to it).

TURN_ROLES = ("user", "assistant")   # of a case's messages; the system turn is the prompt file's
FIELD_ALIASES = {"dificultad": "difficulty", "nota": "note"}

# Fields that describe how the answers were produced; compare shows those that differ. A superset of
# what the held-out guard counts as another configuration (TUNED_CONFIG, §8: labels and judge too), so
# a change the guard sees is never read as a rerun's variation.
COMPARED_CONFIG = ("subset", "context_sha", "prompt", "prompt_sha", "model", "model_digest", "temperature", "seed", "repeat",
                   "options", "format", "think", "response_format", "api", "server_version", "context_length", "max_turns",
                   "trial_seeds", "labels", "judge")

# run --think: what Ollama's "think" is sent as. "default" sends nothing, and is what runs made
# before --think existed did: Ollama then turns thinking on for a model that has the capability
# (server/routes.go, ChatHandler: req.Think nil -> true).
THINK_VALUES = {"on": True, "off": False, "low": "low", "medium": "medium", "high": "high",
                "max": "max"}   # the levels Ollama takes (api/types.go ThinkValue.IsValid)
THINK_DEFAULT = "default"
HARMONY_FAMILIES = ("gptoss", "gpt-oss")   # gpt-oss: levels only, max read as high (server/routes.go shouldUseHarmony)
APIS = ("ollama", "openai")   # the server APIs a run can speak: Ollama's own, and OpenAI's (llama.cpp, vLLM...)
THINK_FLAGS = {value: flag for flag, value in THINK_VALUES.items()}   # as the report names them

# What Ollama's /api/tags says of the model, as the run config records it: the digest changes when
# the model is pulled again or replaced under the same name
IDENTITY_FIELDS = ("model_digest", "model_family", "parameter_size", "quantization")


# The records below are plain dicts, read and written as JSON; these declarations name their keys
# and say what each holds. A key typed "X | None" may be null, or absent from older run files.

class Check(TypedDict, total=False):
    """One binary criterion (section 4 has every type). As a split writes it, "name" and
    "blocking" may be left out; as a run file stores it, both are there and placeholders are filled."""
    name: str            # unique within its case; reports and judge votes refer to it
    type: str            # a key of CHECK_TYPES
    value: str | float | list  # what the type needs: text, a pattern, milliseconds, a criterion, a tool name or names, a count
    schema: dict         # json checks only: the JSON Schema subset of schema_problems()
    blocking: bool       # a case passes only if every blocking check passes (default true; false with a weight)
    weight: float        # a weighed check: it counts toward the case's weighted score, never blocks
    arguments: dict      # tool_called only: what some call's arguments must hold (is_subset())


class Case(TypedDict, total=False):
    """One line of a split: the fixed question and what a right answer is. As a split writes it,
    "dificultad" and "nota" may stand for difficulty and note (FIELD_ALIASES); as a run file stores
    it, note may be missing (runs of older versions)."""
    id: str
    input: str           # the user turn; may be left out when the system prompt takes vars
    messages: list       # instead of input: the conversation so far, [{"role": "user"|"assistant",
                         # "content": ...}], ending with the user's turn; {{vars}} filled at load
    expected: str        # one of the labels; in a free-text set, what equals_expected compares with
    difficulty: str      # easy, medium, hard, trap...: reports slice by it
    note: str            # why the case exists
    tags: list           # free words: reports slice by them, --must-pass gates on them
    vars: dict           # {name: text or number} for the prompt's and checks' {{name}}
    checks: list         # of Check, the label check first in a labelled set
    pass_threshold: float  # with weighed checks: the share of their weight a passing case reaches
    tools: list          # agents: function definitions sent as the request's "tools" ({"type": "function",
                         # "function": {"name", "description", "parameters"}}), tools.json's merged in at load
    tool_results: dict   # agents: the simulated environment, {tool name: result, or [{"arguments", "result"}]}
    context: list        # RAG: the passages the retriever returned for this input, [{"id": ..., "text": ...}] in
                         # rank order ([]: it found none); the prompt's {{context}}; run --context replaces it
    relevant: list       # RAG: the ids of the passages a person judged relevant, retrieved or not


CASE_FIELDS = tuple(Case.__annotations__)   # a result holds them in this order


class LoadedCase(Case, total=False):
    """A case as load_split() returns it: what a run asks, and where in the split it is."""
    line: int            # its line in the split, for problems found after load; never stored in a run


# The functional form, because one key is "pass", which a class body cannot name.
VoteAlways = TypedDict("VoteAlways", {
    "check": str,            # the judge check's name
    "model": str,            # the judge model that voted
    "vote": int,             # 1..votes
    "seed": int,             # the judge's seed for this vote (its seed + vote - 1)
    "pass": bool | None,     # the verdict; None when unreadable, or when the call failed
    "reason": str | None,    # what the judge wrote before its verdict
    "raw": str | None,       # the judge's whole answer
    "error": str | None,     # why no answer came
    "unread": NotRequired[str],   # why no verdict was read from an answer that came (too large), when so
    "prompt_tokens": int | None,
    "completion_tokens": int | None,
})


class Vote(VoteAlways, total=False):
    """One judge model's answer about one check of one answer."""
    done_reason: str | None   # "length": cut at the judge's token limit (votes stored before issue 31 lack it)


class Call(TypedDict, total=False):
    """What the server did with one case: a chat call's outcome (ChatClient.chat), with the judges'
    votes on its answer. A failed call holds response, error and attempts only."""
    response: str | None           # the model's raw answer, exactly as sent; None if it never came
    error: str | None              # why it never came, after every retry
    attempts: int                  # calls made, retries included
    latency_ms: float              # wall time of the last attempt, as eval.py measured it
    prompt_tokens: int | None
    completion_tokens: int | None
    total_duration_ns: int | None  # Ollama's own timings, when the server sends them
    load_duration_ns: int | None   # above LOADED_ABOVE_NS: this call loaded the model
    prompt_eval_duration_ns: int | None
    eval_duration_ns: int | None
    done_reason: str | None        # stop, length...
    judges: list | None            # of Vote
    thinking: str | None           # the reasoning a server sent apart (Ollama's message.thinking)
    thinking_tokens: int | None    # of completion_tokens, those spent reasoning, when the server says
    system_fingerprint: str | None  # --api openai: the backend configuration that answered, when the server says
    transcript: list | None        # agents: every message after the case's own turns, in order: the assistant's
                                   # ({"role", "content", "tool_calls": [{"id", "name", "arguments" as sent}]}) and
                                   # the tools' ({"role": "tool", "name", "call_id", "content", "matched"})
    per_turn: list | None          # agents: each request's figures (latency_ms, tokens, done_reason, attempts);
                                   # the fields above sum them, done_reason is the last one's
    out_of_turns: bool | None      # agents: still calling tools at --max-turns; the case fails


CALL_FIELDS = tuple(Call.__annotations__)   # a result holds them in this order, after trial


class Result(Case, Call, total=False):
    """One answer in a run file: the case as it was (CASE_FIELDS), which trial, and what the server
    did (CALL_FIELDS). One journal line holds the same with id and trial only of the case."""
    trial: int           # 1..config.repeat


class JournalHeader(TypedDict):
    """The first line of a run's journal (RUN.journal, JOURNAL_SUFFIX); every line after it is one
    Result with only the id and trial of its case, an AgentTurn, a JournaledAnswer or a JournaledVote."""
    format: str          # RUN_FORMAT
    config: dict         # RunConfig


class AgentTurn(TypedDict):
    """A journal line for one turn of an agent's conversation, written as the turn ends, so that a
    resumed run goes on from it (read_journal); the run file holds the turns in the result's transcript."""
    id: str
    trial: int
    turn: int            # 1, 2, ...: the request's number in the conversation
    transcript: list     # the assistant's message, then one tool message per call it made
    figures: dict        # the request's TURN_FIGURES, as each of the result's per_turn


class JournaledAnswer(TypedDict):
    """A journal line for an answer with judge checks, written before its votes (ask_case); a resumed
    run keeps it and asks only the votes it lacks. The whole Result follows once every vote is in."""
    id: str
    trial: int
    answer: dict         # the Call, without judges


class JournaledVote(TypedDict):
    """A journal line for one vote on a JournaledAnswer, written as it comes (a later one for the
    same call replaces it: asked again after it failed)."""
    id: str
    trial: int
    vote: dict           # a Vote


class RunFile(JournalHeader):
    """A run file: the journal's header and every result, written whole when the run ends."""
    results: list        # of Result, one per case and trial, in the split's order


class RunConfig(TypedDict, total=False):
    """How a run's answers were produced: built by build_config (what was asked) and start_config
    (what was found at the start), read back through check_config. Never holds the API key."""
    model: str
    temperature: float
    seed: int
    repeat: int
    options: dict        # --option KEY=VALUE, passed through to the server
    format: str | None   # None, "json" or "schema"
    think: bool | str    # sent as Ollama's "think": true, false, "low"...; "default": nothing sent
    prompt: str          # the prompt file's path
    split: str           # the split's name (dev, test, support-dev)
    split_path: str
    api: str             # one of APIS
    host: str
    subset: dict | None            # {"limit": N} or {"cases": [ids]}: only part of the split was asked
    rerun_test: dict | None        # {"forced": true, "earlier": [paths]}: a held-out split run again
    held_out: bool                 # a run of the held-out split (a test.jsonl, or a link to one): true, else absent
    judge: dict | None             # models, votes, temperature, seed, prompt_sha of the judge
    response_format: str | None    # the form --format schema was sent in over --api openai
    prompt_text: str
    prompt_sha: str
    split_sha: str
    context_path: str              # run --context: the JSONL of passages that replaced the split's (RAG)
    context_sha: str               # its sha256, as split_sha pins the split
    labels: list | None            # the closed label set; None for a free-text set
    cases: int
    date: str
    server: str
    server_version: str | None
    eval_version: str
    placeholders: str              # PLACEHOLDER_RULE: a run begun without it read only ASCII names as placeholders
    judged_from: str               # set by `judge`: the run whose answers were judged again
    completed_from: str            # set by `run --resume` of a finished run: the run whose errors it asked again
    model_digest: str | None       # Ollama's /api/tags entry for the model: changes when it is re-pulled
    model_family: str | None
    parameter_size: str | None
    quantization: str | None
    model_entry: dict | None       # --api openai: the server's /v1/models entry, as it came
    model_load: dict | None        # the load before the first case: {"ms": wall time} (older runs: "load_duration_ns", null)
    context_length: int | None     # Ollama's /api/ps after the load: the window its runner holds (num_ctx, lowered to
                                   # the model's training context); null where the server does not say (before v0.9.7)
    max_turns: int | None          # agents: requests per case at most (--max-turns); only when the split has tools
    trial_seeds: bool              # trial t asked with seed + t - 1 (case_options()); older runs lack it: every trial
                                   # was asked with the seed, and a resume of one goes on so


class GradedTrial(TypedDict):
    """One answer read back and graded (grade())."""
    trial: int
    response: str | None
    predicted: str | None   # the label it normalizes to, INVALID, or None without labels
    checks: dict            # {check name: True, False, or None when undecided}
    weighted: tuple | None  # (lowest, highest) weighted score (weighted_score()); None without weights
    judged: dict            # {judge check name: the panel's verdict (judge_verdicts())}
    correct: bool | None    # case_verdict(): None if a check that could tip it is undecided, or on error
    error: str | None
    votes: list | None      # of Vote
    done_reason: str | None  # "length": cut off by the token limit (score's cut_off)
    unfinished: bool        # still thinking when it stopped: no answer, every check failed
    sent_chars: NotRequired[int]  # where a window is known (sent_size()): the characters its request sent,
    turns: NotRequired[int]       # and in how many turns, system prompt aside
    prompt_tokens: int | None  # against num_ctx: a prompt that filled the window may have been cut
    timing: tuple           # the answer's TIMING_FIELDS, in that order, and whether it thought then answered
                            # (under --format, Ollama's two passes), for speed_figures()
    agent: NotRequired[dict]  # an agent's answer: agent_trace(), its calls, turns and the two levels' verdicts


class Threshold(TypedDict, total=False):
    pass_threshold: float   # the weighted score a passing answer reaches; absent: blocking checks decide


class GradedPassages(TypedDict, total=False):
    """RAG only: what a graded case keeps of its passages, for the retrieval figures."""
    context: list           # the passages its answers were asked with (as the run stores them)
    relevant: list          # the ids a person judged relevant


class GradedCase(Threshold, GradedPassages):
    """A case with all its trials graded: the unit of every figure. Only pass_threshold may be absent."""
    id: str
    expected: str | None
    difficulty: str
    tags: list
    checks: list            # of Check
    trials: list            # of GradedTrial, by trial number
    decided_trials: int     # trials with a verdict (not errors, not undecided)
    passed_trials: int      # of those, how many passed
    correct: bool | None    # the majority of its decided trials (a split vote fails); None if none
    predicted: str | None   # the majority label of its decided trials, TIE on a split vote


class ReportAdds(TypedDict, total=False):
    """What a score holds only sometimes: the figures of a labelled set, and what report adds."""
    baseline: dict          # labels only: the majority-label baseline
    per_label: dict         # labels only: precision, recall, f1, support
    confusion: dict         # labels only: {expected: {predicted: cases}}
    checks_from: str        # set by report: the run file, or --checks SPLIT
    annotations: dict       # set by report when review annotated answers: {file, counts, left_out, other_versions}
    agent: dict             # cases with tools: agent_figures(), the final result and the trajectory apart
    retrieval: dict         # RAG only: context precision and recall, per case and over cases (retrieval_figures)
    diagnosis: dict         # RAG only: the failing cases by the stage to fix (diagnose)
    retrieval_judged: dict  # RAG without labels: the precision context_relevant's ratings give (judged_retrieval_figures)


class Score(ReportAdds):
    """Every figure of a report (score()); --json prints it as it is."""
    cases: int
    repeat: int
    measure: str            # "accuracy" when only the label decides, else "pass rate"
    scored: int             # cases with a verdict
    correct: int
    accuracy: float | None  # correct / scored, by each case's majority verdict
    accuracy_ci: list       # Wilson 95% interval of accuracy
    mean_accuracy: float | None    # the mean of each case's pass rate over its decided trials (headline_mean())
    mean_accuracy_ci: list  # its 95% interval: t on the cases' rates with trials, Wilson with one trial
    bounds: dict | None     # undecided_bounds(): the headline with every undecided answer failing, then passing; None if none
    trials: list            # per trial: accuracy, ci, scored, invalid
    invalid: int            # answers that were no label
    answers: int            # decided answers over all trials
    errors: list            # {id, trial, error}: no answer from the server, not scored
    open: list              # {id, trial}: a blocking check undecided
    unfinished_thinking: list  # {id, trial}: answers still thinking when they stopped (failed)
    cut_off: list           # {id, trial}: answers the token limit stopped (done_reason "length"): num_predict
    window_full: list       # {id, trial, prompt_tokens, completion_tokens, num_predict (the run's, or None)}:
                            # those the window stopped, not num_predict (filled_by_answer)
    stopped_early: list     # {id, trial, completion_tokens, limit}: "length" under the run's limit, short of the window
    limit_option: str       # the option that sets the answer's limit here (num_predict, max_tokens, max_completion_tokens)
    num_ctx: int | None     # the window prompts were fitted to (context_window()); None when none is known
    num_ctx_sent: int | None  # the num_ctx the run sent: larger when Ollama lowered it to the model's
    input_may_be_cut: list  # {id, trial, prompt_tokens}: prompts that filled num_ctx, which Ollama may cut
    turns_may_be_dropped: list  # {id, trial, prompt_tokens}: conversations Ollama may have shortened to fit it
    checks: list            # per check: name, type, blocking, passed, total, open
    checks_sha: str         # which checks scored the run
    weighted: dict | None   # weighted_figures(): thresholds, each weighed case's score, vetoes; None without weights
    judge: dict | None      # judge_summary(); None without judge checks
    by_difficulty: dict     # {difficulty: rate_figures()}
    by_tag: dict            # {tag: rate_figures()}
    pass_k: list            # with trials: {k, cases, pass_at_k, pass_hat_k}
    flaky: list             # cases whose trials disagree
    failures: list          # failure() of each failing case
    rerun_test: dict | None
    speed: dict             # speed_figures(): latency, tokens per second, calls that loaded the model


class CompareAdds(TypedDict, total=False):
    """What a comparison holds only sometimes."""
    retrieval: dict         # RAG only: context precision and recall on each side, and the relevant passages
                            # each case gained or lost (retrieval_change)
    diagnosis: list         # RAG only: [baseline's, candidate's] diagnose(): the failing cases by the stage to fix


class CompareResult(CompareAdds):
    """Two graded runs of one split compared case by case (compare_runs()); pairs are [baseline, candidate]."""
    changed: dict           # {COMPARED_CONFIG key: [baseline's, candidate's]} of the settings that differ
    fixed: list             # ids the candidate got right and the baseline wrong
    regressions: list       # ids the baseline got right and the candidate wrong
    stayed_right: list
    stayed_wrong: list
    not_compared: list      # ids without a verdict in either run
    failed: list            # ids with a failed call (an answer's or a judge's) on any trial of either run:
                            # the gates refuse to judge them
    errored: list           # those of them compared all the same (decided in both by the trials that came)
    invalid_answers: list | None  # [baseline's, candidate's] answers that were no label; None without labels
    answers: list           # [baseline's, candidate's] answers that came
    speed: list             # [baseline's, candidate's] speed_figures()
    baseline: dict          # side_figures() on the cases both decided: {correct, scored, accuracy, ci}
    candidate: dict         # the same, of the candidate (correct None with trials: accuracy is a mean of rates)
    difference: dict        # candidate - baseline: {estimate, low, high, method}, fractions (paired_change())
    test: dict              # {name, p}: mid-p McNemar, or with trials a paired t-test on per-case pass rates
    unit: str               # "case", or with trials "case pass rate"
    detectable: float | None  # without trials: the smallest difference the changed cases could have shown
    discordant: int         # fixed + regressions
    rose: list              # ids whose pass rate over trials went up (with trials: the unit, not the vote)
    undecided_answers: int  # answers of compared cases without a verdict (a judge gave none): out of the rates
    fell: list              # ids whose pass rate went down
    identical_answers: int  # of paired_answers, those word for word the same
    paired_answers: int     # answers to the same case and trial in both runs
    fisher_p: NotRequired[float | None]  # with --fisher only: Fisher's exact test of the pass counts, ignoring the pairing
    #                                      (None with no case decided in both runs, as test.p)
    alpha: float
    significant: bool       # test p <= alpha, with a difference
    reading: str            # the result in words (change_reading())
    majority_vote: bool     # either run had trials: fixed and regressions are by each case's majority vote
    trajectory: list        # agents: trajectory_changes(), {id, changes, calls, trials: whose calls} of each case whose calls or verdict changed
    subset: list | None     # [baseline's, candidate's] config.subset (None: the whole split): only part of the split was compared
    shared: dict | None     # {cases, held: [baseline's, candidate's]}: the runs held different cases, and
                            # only those both hold were compared (cases_both_hold()); None when they held the same
    measure: str            # "accuracy" or "pass rate"
    trials: list            # [baseline's, candidate's] trials per case (config repeat)
    trials_paired: int | None  # the fewer trials, when the runs' repeats differ
    rerun_test: dict        # {"baseline"|"candidate": config.rerun_test} of a forced held-out re-run


class ManyRow(TypedDict, total=False):
    """One run's line in compare_many(); the reference (the first run) has no test against itself."""
    run: str                # the run file's path
    name: str               # its short name (run_names())
    settings: dict          # {key: value} of the settings that tell the runs apart (distinct)
    correct: int | None     # None with trials (accuracy is then the mean of per-case pass rates)
    scored: int             # the cases every run decided
    accuracy: float | None
    ci: list                # Wilson 95% interval; with trials a t interval over cases
    not_scored: int         # shared cases without a verdict in this run
    errored: list           # compared cases with a failed request (an answer's or a judge's) in this run
    reference: bool         # the first run only
    paired: int             # the others: cases compared with the reference
    difference: dict        # this run - the reference: {estimate, low, high, method}
    test: str               # the test's name (paired_change())
    unit: str               # "case" or "case pass rate"
    p: float                # the test against the reference
    holm_p: float           # p adjusted by Holm for the number of comparisons
    significant: bool       # holm_p <= alpha, with a difference
    reading: str | None     # the comparison in words; None for the reference


class ManyCompareResult(TypedDict):
    """Three or more runs of one split (compare_many()), on the cases every run decided."""
    split: str
    split_sha: str
    runs: list              # of ManyRow, in the order given: the reference first
    reference: str          # the first run's path: every other run is tested against it
    cases: int              # the cases every run decided: every figure is on these
    shared_cases: int       # the cases every run holds
    all_cases: list         # the cases each run holds, in the order given
    partial: bool           # some run asked only part of the split
    comparisons: int        # tests against the reference (Holm's count)
    alpha: float
    distinct: list          # the settings that tell the runs apart (distinct_settings())
    measure: str
    majority_vote: bool     # some run had trials


class PairwiseVoteAlways(TypedDict):
    """What every stored pairwise vote holds."""
    id: str                 # the case
    trial: int
    model: str              # the judge model
    vote: int               # 1..votes
    order: str              # one of ORDERS: which run's answer the judge read as A
    seed: int
    winner: str | None      # "A", "B" or "tie"; None when unreadable, or when the call failed
    reason: str | None
    raw: str | None         # the judge's whole answer
    error: str | None       # why no answer came
    unread: NotRequired[str]   # why no verdict was read from an answer that came (too large), when so
    prompt_tokens: int | None
    completion_tokens: int | None


class PairwiseVote(PairwiseVoteAlways, total=False):
    """One judge model's verdict on one pair of answers in one order (pairwise_votes())."""
    done_reason: str | None   # "length": cut at the judge's token limit (votes stored before issue 31 lack it)


class PairwiseComparison(TypedDict):
    """One comparison stored in a pairwise sidecar: the runs' hashes and the judge are its key
    (COMPARISON_KEY); a compare with the same key reuses its verdicts."""
    baseline: str           # the baseline run's path
    baseline_sha: str       # the run files' hashes: a changed run is asked again
    candidate_sha: str
    judge: dict             # criterion, models, votes, temperature, seed, prompt_sha, schema (pairwise_judge())
    api: str
    host: str
    date: str
    eval_version: str
    verdicts: list          # of PairwiseVote


class PairwiseFile(TypedDict):
    """RUN.pairwise.json (PAIRWISE_SUFFIX), beside the candidate run of compare --pairwise."""
    format: str             # PAIRWISE_FORMAT
    comparisons: list       # of PairwiseComparison


class Annotation(TypedDict):
    """One answer's annotation, written in review: what went wrong, in a person's words."""
    text: str               # the person's words for what went wrong
    time: str               # when it was written, ISO 8601


class AnnotationsFile(TypedDict, total=False):
    """RUN.annotations.json (ANNOTATIONS_SUFFIX): review's annotations of a run's answers. The older
    RUN.labels.json held {"format": OLD_ANNOTATIONS_FORMAT, "labels": {key: {"label", "time"}}}."""
    format: str             # ANNOTATIONS_FORMAT
    run: str                # the run file's name
    run_sha: str            # the run file's hash when annotated: annotations of another version are stale
    annotations: dict       # {answer_key(): Annotation}, of the run file whose hash is run_sha
    other_versions: dict    # {run_sha: {answer_key(): Annotation}}: those written on other versions of the
                            # run file (one made again under its name), kept by review's saves, never shown as its own


class Inputs(NamedTuple):
    """What a run asks: the split's cases and labels (None for free text), the system prompt, and
    the hashes that pin both."""
    cases: list
    labels: list
    split_sha: str
    prompt_text: str
    prompt_sha: str
    whole: bool = True   # the cases are every case of the split (a --limit past its size, --cases naming all)
    context_sha: str | None = None   # run --context FILE: the hash of the passages' file


TEXT_FIELDS = ("response", "error", "done_reason", "reason", "raw", "unread", "thinking", "system_fingerprint")
NUMBER_FIELDS = ("attempts", "latency_ms", "prompt_tokens", "completion_tokens", "total_duration_ns",
                 "load_duration_ns", "prompt_eval_duration_ns", "eval_duration_ns", "thinking_tokens",
                 "vote", "seed")   # the last two: a judge's vote's
# Token counts: whole numbers, none below 0 (Ollama's api/types.go Metrics: PromptEvalCount int,
# EvalCount int; OpenAI's usage: integers). -1000000 or 2.5 is no count, and would be summed into a cost
COUNT_FIELDS = ("prompt_tokens", "completion_tokens", "thinking_tokens")
# A call's measures, eval.py's and the server's: none below 0 or past LARGEST_FIGURE (a latency of
# 1e300 ms printed 300 digits in every view, a negative duration a negative rate); attempts are whole
MEASURE_FIELDS = ("attempts", "latency_ms", "total_duration_ns", "load_duration_ns", "prompt_eval_duration_ns",
                  "eval_duration_ns")


def subset_words(subset):
    """A run's config.subset as a person reads it: 'the first 5 cases, --limit 5'."""
    if "limit" in subset:
        first = "the first case" if subset["limit"] == 1 else f"the first {subset['limit']} cases"
        return f"{first}, --limit {subset['limit']}"
    return f"{plural(len(subset['cases']), 'chosen case')}, --cases"


def subsets_words(subsets):
    """Two runs' config.subset, [baseline's, candidate's], as a person reads them: one part named once
    when one run or both ran it, else each run's own (a run of --cases is not one of --limit)."""
    words = [subset_words(s) for s in subsets if s]   # (one run of the whole split: the counts held say which is which)
    return words[0] if len(words) == 1 or words[0] == words[1] else f"the baseline {words[0]}; the candidate {words[1]}"


def shown(key, value):
    """A config value as compare prints it: hashes short, text as it is (control characters
    escaped: it came from a file or a server), anything else as JSON."""
    if key == "subset" and isinstance(value, dict):
        return inert(subset_words(value))
    if key == "model_digest":
        return inert(short(value)) if isinstance(value, str) else "unknown"   # runs before digests were recorded
    if key == "trial_seeds":   # true or absent (an older run): "null -> true" would tell a reader nothing
        return "each trial its own seed (seed + trial - 1)" if value is True else "every trial the same seed"
    if value is None:   # not set, said in words: "null" is JSON's, not a reader's
        return {"subset": "the whole split", "context_sha": "the split's own passages"}.get(key, "none")
    if key == "judge" and isinstance(value, dict) and isinstance(value.get("models"), list):
        # its models first, then each setting as key=value: what differs stays in sight in a narrow column
        return inert(" ".join([", ".join(map(str, value["models"]))] + [
            f"{k}={short(v) if k.endswith('_sha') and isinstance(v, str) else json_text(v)}"
            if k != "digests" or type(v) is not list else
            f"digests={','.join(short(d) if isinstance(d, str) else 'unknown' for d in v)}"
            for k, v in value.items() if k != "models"]))
    if isinstance(value, str):   # one line, as a setting is: a line break in it is shown, never obeyed
        return on_one_line(short(value) if key.endswith("_sha") else value)
    return inert(json_text(value))


def answer_problem(answer):
    """What is wrong with the fields a server's answer (or a judge's vote) was stored in, or None."""
    for key in TEXT_FIELDS:
        if answer.get(key) is not None and type(answer[key]) is not str:
            return f"{key} must be text or null"
    for key in NUMBER_FIELDS:
        value = answer.get(key)
        if value is not None and not is_number(value):   # 10**400 would overflow the figures
            return f"{key} must be a number or null"
        if value is not None and key in COUNT_FIELDS and not is_count(value):
            return f"{key} must be a whole number of 0 or more, or null"
        if value is not None and key in MEASURE_FIELDS and not (0 <= value <= LARGEST_FIGURE and (
                key != "attempts" or value == int(value))):
            return f"{key} must be {'a whole number' if key == 'attempts' else 'a number'} from 0 to 2^53, or null"
    return None


LARGEST_FIGURE = 2 ** 53   # past this a float is no longer whole to the unit; no call took so many tokens, ms or ns


def whole_counts(record):
    """The record with each count held as a float that is whole (7.0 tokens, in a hand-edited file) made
    the int a server's is made (ChatClient.chat): "7.0" printed in every total. In place; checked first."""
    for key in COUNT_FIELDS:
        if type(record.get(key)) is float:
            record[key] = int(record[key])
    return record


def whole_counts_of(entry):
    """whole_counts of each record a journal or judging line holds: an answer, its votes, a vote, a turn's figures."""
    for record in (entry, entry.get("answer"), entry.get("vote"), entry.get("figures"), *(entry.get("judges") or [])):
        if type(record) is dict:
            whole_counts(record)
    return entry


def is_count(value):
    """A count as a server may send it: a whole number of 0 or more (4096.0 is 4096), and one a float
    holds exactly (1.7e308 tokens is no count: it overflowed every rate worked out of it)."""
    return is_number(value) and 0 <= value <= LARGEST_FIGURE and value == int(value)


def tagged(model):
    """A model name without a tag is its :latest, as Ollama reads it (through either API)."""
    return model if ":" in model else model + ":latest"


def same_model(name):
    """What names one model on the server: Ollama matches a name ignoring case, and reads one without
    a tag as its :latest."""
    return tagged(name).casefold()


def refuse_given_twice(flag, values, same, why):
    """A repeated option whose values name one thing twice (`same` of each is equal): refused, naming
    both spellings (--model m --model m:latest ran one model twice and compared it with itself)."""
    seen = [v if v is None else same(v) for v in values]
    at = next((i for i in range(len(values)) if seen[i] in seen[:i]), None)
    if at is not None:
        twice, first = values[at], values[seen.index(seen[at])]
        raise EvalError(f"{flag} {on_one_line(twice)} is given twice{f' (as {on_one_line(first)})' if first != twice else ''}; "
                        f"{why}")


def same_setting(key, a, b):
    """Two recorded values of one config key that ask the same thing: "smollm" and "smollm:latest"
    are one model."""
    if key == "model" and isinstance(a, str) and isinstance(b, str):
        return tagged(a) == tagged(b)
    if key == "context_length" and (a is None or b is None):
        return True   # a run made before it was read, or on a server that does not say (before v0.9.7)
    if key == "judge" and isinstance(a, dict) and isinstance(b, dict):   # its models are models too
        models = [x.get("models") for x in (a, b)]
        return (all(isinstance(m, list) and all(isinstance(n, str) for n in m) for m in models)
                and [tagged(n) for n in models[0]] == [tagged(n) for n in models[1]] and same_judge(a, b, ("models",)))
    return a == b


def same_judge(a, b, besides=()):
    """Two recorded judges (config.judge) that ask alike: every setting the same (but `besides`), and
    no judge model with two known digests (judge.digests, one per model, null where the server gave
    none): a digest one side never recorded (a judge of before digests were) is no difference."""
    if type(a) is not dict or type(b) is not dict:
        return a == b
    def rest(judge):
        return {k: v for k, v in judge.items() if k not in ("digests", *besides)}
    def digests(judge):
        return judge.get("digests") if type(judge.get("digests")) is list else []
    return rest(a) == rest(b) and all(x == y for x, y in zip(digests(a), digests(b)) if x and y)


def config_problem(config, text_keys):
    """What eval.py reads from a config it did not just build (a run file, a journal)."""
    for key in text_keys + ("temperature", "seed"):
        if key not in config:
            return f"config has no {key!r}"
    for key in text_keys:
        if key != "labels" and not isinstance(config[key], str):
            return f"config.{key} must be a string"
        if key in ("prompt", "split_path") and LONE_SURROGATE.search(config[key]):
            return f"config.{key} is not a path (it holds half a character)"
    for key in ("context_path", "context_sha"):   # run --context: both or neither
        if (key in config) != ("context_path" in config) or key in config and type(config[key]) is not str:
            return "config.context_path and config.context_sha must both be text, or both be absent"
    if LONE_SURROGATE.search(config.get("context_path", "")):
        return "config.context_path is not a path (it holds half a character)"
    labels = config.get("labels")
    if labels is not None and not (isinstance(labels, list) and len(labels) >= 2
                                   and all(isinstance(l, str) and l for l in labels)):
        return "config.labels must be a list of at least two labels, or null for a free-text set"
    if config.setdefault("format", None) not in (None, "json", "schema"):
        return "config.format must be null, \"json\" or \"schema\""
    think = config.setdefault("think", THINK_DEFAULT)
    if not any(think is v for v in (True, False)) and think not in ("low", "medium", "high", "max", THINK_DEFAULT):
        return 'config.think must be true, false, "low", "medium", "high", "max" or "default"'
    if not isinstance(config.get("prompt_text", ""), str):
        return "config.prompt_text must be text"
    if not is_number(config["temperature"]) or config["temperature"] < 0:
        return "config.temperature must be a number of 0 or more"
    config["temperature"] += 0   # -0.0 (a run of before it was read as 0) is 0: "T=-0" in every view
    if isinstance(config["seed"], bool) or not isinstance(config["seed"], int):
        return "config.seed must be a whole number"
    repeat = config.setdefault("repeat", 1)
    if isinstance(repeat, bool) or not isinstance(repeat, int) or not 1 <= repeat <= MAX_REPEAT:
        return f"config.repeat must be a whole number from 1 to {MAX_REPEAT}"
    if not isinstance(config.setdefault("api", "ollama"), str) or config["api"] not in APIS:
        return f"config.api must be one of {', '.join(APIS)}"
    rerun = config.get("rerun_test")
    if rerun is not None and not (type(rerun) is dict and rerun.get("forced") is True and type(rerun.get("earlier")) is list
                                  and all(type(path) is str for path in rerun["earlier"])):
        return 'config.rerun_test must be {"forced": true, "earlier": [paths]} or null'
    judge = config.get("judge")
    if judge is not None and not (type(judge) is dict and type(judge.get("models")) is list and judge["models"]
                                  and all(type(m) is str for m in judge["models"])):
        return "config.judge must be null or an object whose models is a list of model names"
    for key in ("votes", "temperature", "seed", "num_ctx", "num_predict"):
        if judge is not None and judge.get(key) is not None and not is_number(judge[key]):
            return f"config.judge.{key} must be a number"
    # counts: 2.0 votes is no count to ask, 2^64 votes a call that never ends; a judge asks with a seed
    for key, least, most, needed in (("votes", 1, MAX_VOTES, True), ("num_ctx", 1, LARGEST_FIGURE, False),
                                     ("seed", -LARGEST_FIGURE, LARGEST_FIGURE, True)):
        value = (judge or {}).get(key)
        if judge is not None and (value is not None or needed and key in judge) \
                and not (type(value) is int and least <= value <= most):
            return f"config.judge.{key} must be a whole number" + (f" from 1 to {most}" if key == "votes" else
                                                                  ", 1 or more" if least == 1 else "")
    if judge is not None and judge.get("temperature") is not None:
        judge["temperature"] += 0   # -0.0 is 0, as the run's own temperature
    digests = (judge or {}).get("digests", [])   # prepare_judge: one per model, null where the server gave none
    if "digests" in (judge or {}) and not (type(digests) is list and len(digests) == len(judge["models"])
                                    and all(d is None or type(d) is str for d in digests)):
        return "config.judge.digests must be a list of text or null, one for each of config.judge.models"
    cap = (judge or {}).get("num_predict")   # sent with every judge call: a whole number of tokens, or none
    if cap is not None and not (type(cap) is int and 1 <= cap < 2 ** 63):
        return "config.judge.num_predict must be a whole number, 1 or more"
    runner = (judge or {}).get("runner")
    if runner is not None and not (type(runner) is dict and set(runner) <= set(RUNNER_OPTIONS)
                                   and runner_values_ok(runner)):
        return (f"config.judge.runner must be an object of Ollama's load-time options ({', '.join(RUNNER_OPTIONS)}), "
                "each of the type Ollama takes")
    if not isinstance(config.setdefault("options", {}), dict):
        return "config.options must be an object"
    odd = [k for k, v in config["options"].items() if isinstance(v, (int, float)) and not is_number(v)
           and not isinstance(v, bool)]
    if odd:   # NaN, Infinity, 10**400: no server takes them, and --json could not print them
        return f"config.options.{odd[0]} must be a finite number"
    # what the run sets itself, as --option refuses it: sent as an option it would override what the
    # run records (its temperature; over /v1, the request's own model, messages...)
    own = [k for k in config["options"] if k in ("temperature", "seed")
           or config.get("api") == "openai" and k in REQUEST_KEYS]
    if own:
        return f"config.options.{on_one_line(own[0])} is set by the run itself, never as an option"
    if config.get("cases") is not None and type(config["cases"]) is not int:
        return "config.cases must be a whole number"
    subset = config.get("subset")
    if subset is not None and not (type(subset) is dict and (
            list(subset) == ["limit"] and type(subset["limit"]) is int and subset["limit"] >= 1
            or list(subset) == ["cases"] and type(subset["cases"]) is list
            and all(type(i) is str for i in subset["cases"]))):
        return "config.subset must be null, {\"limit\": N} or {\"cases\": [ids]}"
    # what the server said of itself, read as text (drops_turns_unasked matches the version); `run`
    # records one it cannot read as null, so anything else is a damaged or hand-edited file
    for key in IDENTITY_FIELDS + ("server_version",):
        if config.get(key) is not None and type(config[key]) is not str:
            return f"config.{key} must be text or null"
    if config.get("model_entry") is not None and type(config["model_entry"]) is not dict:
        return "config.model_entry must be an object or null"
    load = config.get("model_load")
    # runs before issue 27 also hold "load_duration_ns", always null: Ollama's answer to a load has no metrics
    if load is not None and not (type(load) is dict and set(load) in ({"ms"}, {"ms", "load_duration_ns"})
                                 and is_number(load["ms"]) and 0 <= load["ms"] < MAX_TIMEOUT * 1000
                                 and (load.get("load_duration_ns") is None or type(load["load_duration_ns"]) is int)):
        return 'config.model_load must be null or {"ms": milliseconds}'
    if config.get("context_length") is not None and not (type(config["context_length"]) is int
                                                          and 0 < config["context_length"] < 2 ** 63):
        return "config.context_length must be a positive whole number or null"
    if config.get("date") is not None and run_instant(config["date"]) is None:   # runs sorts by it: "9999-99-99" headed the list
        return "config.date must be a date and time as a run records it (2026-01-02T09:30:00+01:00), or absent"
    if config.get("trial_seeds", True) is not True:   # present only as true: a false one would be another's file
        return "config.trial_seeds must be true or absent"
    turns = config.get("max_turns")
    if turns is not None and not (type(turns) is int and 1 <= turns <= MAX_TURNS):
        return f"config.max_turns must be a whole number from 1 to {MAX_TURNS}"
    if config.get("response_format") not in (None, *SCHEMA_FORMS):
        return f"config.response_format must be null or one of {', '.join(SCHEMA_FORMS)}"
    if config.get("format") == "schema" and config["api"] == "openai" and config.get("response_format") is None:
        config["response_format"] = "json_schema"   # runs made before the form was recorded sent this one
    return None

def run_instant(date):
    """The moment a run's config.date names (ISO 8601, as start_config writes it), as a timestamp that
    orders runs across time zones (one without an offset is taken as local time); None for what no
    clock gives ("9999-99-99", 5)."""
    try:
        return datetime.fromisoformat(date).astimezone().timestamp() if type(date) is str else None
    except (ValueError, OverflowError, OSError):
        return None


# The two ways an OpenAI-compatible server takes a JSON Schema for structured output: OpenAI's
# own, and llama-cpp-python's server, which refuses that one and wants the schema beside
# "json_object". The run config records which one its answers were asked with.
SCHEMA_FORMS = {"json_schema": "json_schema", "json_object": "json_object with a schema"}


def sent_num_ctx(config):
    """The num_ctx a run sent Ollama: what it asked for, and what its judge asks with."""
    num_ctx = (config.get("options") or {}).get("num_ctx")
    return num_ctx if config.get("api", "ollama") == "ollama" and type(num_ctx) is int and num_ctx > 0 else None


def context_window(config):
    """The window a prompt to Ollama had to fit (one that reaches it may have been cut): the num_ctx
    sent, or the smaller one the server said its runner holds (lowered to the model's training
    context). Never a larger one: a prompt is fitted to the request's num_ctx all the same
    (server/routes.go optionsForPrompt only lowers it)."""
    sent, held = sent_num_ctx(config), config.get("context_length")
    if config.get("api", "ollama") != "ollama" or not (type(held) is int and held > 0):
        return sent
    return min(held, sent) if sent else held

THINK_OPEN, THINK_CLOSE = "<think>", "</think>"


def split_thinking(response):
    """(reasoning, answer) of a response. The answer is what is scored, checked and judged: the
    response without a leading <think>...</think> block (the reasoning that servers and models
    which do not send it apart put inline). It is None when the block never closed: the model was
    still thinking when it stopped, and said nothing. A chat template that opens <think> in the
    prompt (DeepSeek-R1's and others) leaves only the close in the response: text before a
    </think> that no <think> opened is reasoning too, unless that close is inside a JSON object,
    where it is quoted text (a judge's {"reason": "it leaks a </think> tag", ...}). A block that
    follows at once is reasoning as well (a model may think in several)."""
    reasoning, answer = first_thinking(response)
    if reasoning is None or answer is None or not answer.startswith(THINK_OPEN):
        return reasoning, answer
    # One that never closes is thinking cut off, as the first's is: read as the answer, a draft verdict in it
    # was a judge's verdict (an answer that speaks of the tag at its start is counted as unfinished thinking).
    # Read by place, never by slicing what is left (300,000 empty blocks took a run 34 s, and every report 16).
    parts, at = [reasoning], 0
    while answer.startswith(THINK_OPEN, at):
        end = answer.find(THINK_CLOSE, at + len(THINK_OPEN))
        if end < 0:
            return "\n\n".join(parts + [answer[at + len(THINK_OPEN):].strip()]), None
        parts.append(answer[at + len(THINK_OPEN):end].strip())
        at = LEADING_SPACE.match(answer, end + len(THINK_CLOSE)).end()
    return "\n\n".join(parts), answer[at:]


LEADING_SPACE = re.compile(r"\s*")   # what str.lstrip takes from a text's start


def first_thinking(response):
    """split_thinking of the first block alone."""
    text = response.lstrip()
    opened = text.startswith(THINK_OPEN)
    end = text.find(THINK_CLOSE) if opened else unquoted_close(text)
    if not opened and (end < 0 or text.find(THINK_OPEN, 0, end) >= 0):   # no close, or one that closes a block in the answer
        return None, response
    if end < 0:
        return text[len(THINK_OPEN):].strip(), None
    return text[len(THINK_OPEN) if opened else 0:end].strip(), text[end + len(THINK_CLOSE):].lstrip()


def answer_of(response):
    return split_thinking(response)[1]


def unquoted_close(text):
    """Where the first </think> of a text is that no JSON object holds (one that closes, braces and
    strings read as the decoder reads them: in a string of one too), or -1. One that never closes is
    not counted: reasoning may quote a stray {" before its </think>."""
    end = text.find(THINK_CLOSE)
    if end < 0 or text.find("{", 0, end) < 0:   # no close, or no object before it (most answers): no scan
        return end
    spans = object_spans(text, brace_pairs(text)[0])
    starts = [start for start, _ in spans]
    while end >= 0:
        i = bisect.bisect_right(starts, end) - 1   # the last object that opens before it: the only one that can hold it
        if i < 0 or end >= spans[i][1]:
            return end
        end = text.find(THINK_CLOSE, spans[i][1])   # past that object
    return end



# ---------------------------------------------------------------------------
# 4. Checks: binary criteria evaluated from the stored answer, so a changed check needs no model
#    call. Every check type is one entry of CHECK_TYPES: what its value must be, how it is evaluated.

CHECK_KEYS = ("type", "value", "name", "blocking", "schema", "weight", "arguments")
SCHEMA_KEYWORDS = ("type", "enum", "required", "properties", "items")
SCHEMA_TYPES = ("string", "number", "integer", "boolean", "object", "array", "null")
# words a tool's parameters carry for the model to read, which constrain no value: a tool schema
# without "description" is rare, so these are allowed there (and only there) and never validated
ANNOTATION_KEYWORDS = ("description", "title", "examples", "default")


def schema_problems(schema, where="schema", annotations=False):
    """The JSON Schema subset eval.py validates: type, enum, required, properties, items (and, in a
    tool's parameters, the annotations that constrain nothing)."""
    if not isinstance(schema, dict):
        return [f"{where} must be an object"]
    known = SCHEMA_KEYWORDS + (ANNOTATION_KEYWORDS if annotations else ())
    problems = [f"{where}: keyword {on_one_line(repr(k), 40)} is not supported (use {', '.join(known)})"
                for k in schema if k not in known]
    kinds = schema.get("type", "string")
    kinds = kinds if isinstance(kinds, list) else [kinds]
    if not kinds or any(k not in SCHEMA_TYPES for k in kinds):
        problems.append(f"{where}.type must be one of {', '.join(SCHEMA_TYPES)} (or a list of them)")
    if "enum" in schema and not isinstance(schema["enum"], list):
        problems.append(f"{where}.enum must be a list")
    if "required" in schema and not (isinstance(schema["required"], list)
                                     and all(isinstance(r, str) for r in schema["required"])):
        problems.append(f"{where}.required must be a list of property names")
    if "properties" in schema:
        if not isinstance(schema["properties"], dict):
            problems.append(f"{where}.properties must be an object")
        else:
            for name, sub in schema["properties"].items():
                problems += schema_problems(sub, f"{where}.properties.{on_one_line(name)}", annotations)
    if "items" in schema:
        problems += schema_problems(schema["items"], f"{where}.items", annotations)
    return problems


def schema_errors(value, schema, where="$"):
    """Validate against the supported JSON Schema subset; returns what does not match."""
    kinds = schema.get("type")
    kinds = [kinds] if isinstance(kinds, str) else kinds
    python = {"string": (str,), "number": (int, float), "integer": (int,), "boolean": (bool,),
              "object": (dict,), "array": (list,), "null": (type(None),)}
    # an integer is a number with no fraction, 1.0 as well as 1 (JSON Schema since draft 6): a rule matching 1
    # took the call's 1.0 while this said it was no integer
    whole = type(value) is float and value.is_integer()
    if kinds and not any((isinstance(value, python[k]) or k == "integer" and whole)
                         and not (k in ("number", "integer") and isinstance(value, bool)) for k in kinds):
        return [f"{where} is not {' or '.join(kinds)}"]
    if "enum" in schema and not any(same_json(value, option) for option in schema["enum"]):
        # as JSON writes the values (true, null, "x\\ny"; not Python's True, None), cut short
        return [f"{where} is not one of {on_one_line(json_text(schema['enum']), 60)}"]
    errors = []
    if isinstance(value, dict):
        errors += [f"{where}.{on_one_line(name, 40)} is missing" for name in schema.get("required", []) if name not in value]
        for name, sub in schema.get("properties", {}).items():
            if name in value:
                errors += schema_errors(value[name], sub, f"{where}.{on_one_line(name, 40)}")
    if isinstance(value, list) and "items" in schema:
        for i, item in enumerate(value):
            errors += schema_errors(item, schema["items"], f"{where}[{i}]")
    return errors


def passes_json(text, schema):
    """The answer is JSON (read as a call's arguments are, exact_json: a key given twice holds
    neither value, NaN is no number) and fits the schema."""
    try:
        value = exact_json(text)
    except (ValueError, RecursionError):
        return False
    return not schema or not schema_errors(value, schema)


def regex_problem(pattern):
    """Why a check's pattern cannot be used (it does not compile), or None. A pattern that
    backtracks for ever on some answer is not looked for here: guarded_search() stops it."""
    try:
        re.compile(pattern)
    except (re.error, RecursionError, OverflowError) as e:
        return f"bad regular expression: {e}"
    return None


class PatternTimeout(Exception):
    """A check's pattern ran past REGEX_SECONDS on one answer."""


def stop_pattern(signum, frame):
    raise PatternTimeout


def guarded_search(pattern, text):
    """re.search, stopped after REGEX_SECONDS: the defence against a pattern that backtracks for
    hours on an answer that almost matches ((a+)+$, (\\w+\\s?)*$, (a|aa)+$, or \\s+$ on a long
    answer), whatever its shape. The timer's signal handler raises PatternTimeout, and the re
    engine checks for signals as it backtracks, so the search stops there. A timer signal reaches
    only the main thread, where scoring runs; elsewhere (and without setitimer) the search is plain."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        return re.search(pattern, text)
    previous = signal.signal(signal.SIGALRM, stop_pattern)
    signal.setitimer(signal.ITIMER_REAL, REGEX_SECONDS)
    try:
        return re.search(pattern, text)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


# Agents: the trajectory, read from a result's transcript. A call's arguments are stored as the
# server sent them: an object from Ollama (api/types.go ToolCallFunction.Arguments), a JSON string
# from an OpenAI-compatible server; call_arguments() reads either.

def tool_calls_of(r):
    """Every tool call of an answer, in the order they were made."""
    return [call for m in r.get("transcript") or () if m.get("role") == "assistant" for call in m.get("tool_calls") or ()]


def call_arguments(call):
    """A stored call's arguments as an object, or None when they are not one (unreadable JSON, a list)."""
    return read_arguments(call)[0]


def read_arguments(call):
    """(a stored call's arguments as an object or None, what JSON has no room for in them or None).
    A string (OpenAI's) is read as JSON is (exact_json): a key given twice is not its last value."""
    arguments = call.get("arguments")
    if isinstance(arguments, str):
        try:
            arguments = exact_json(arguments)
        except json.JSONDecodeError:   # not JSON at all: nothing more to say
            return None, None
        except ValueError as e:        # JSON's text, holding what JSON does not allow
            return None, str(e)
    return (arguments, None) if isinstance(arguments, dict) else (None, None)


def is_subset(part, whole):
    """`part` is within `whole`: each key of an object, recursively, with an equal value; any other
    value (a list, element by element) equal as JSON's are (same_json: true is not 1)."""
    if isinstance(part, dict):
        return isinstance(whole, dict) and all(k in whole and is_subset(v, whole[k]) for k, v in part.items())
    return same_json(part, whole)


def tool_named(tools, name):
    return next((t["function"] for t in tools or () if t["function"]["name"] == name), None)


def call_problem(call, tools):
    """Why a call's arguments do not fit its tool's parameters (the json check's validator), or None."""
    tool = tool_named(tools, call.get("name"))
    if tool is None:
        return f"there is no tool named {one_line(json_text(call.get('name')), 40)}"
    arguments, why = read_arguments(call)
    if arguments is None:
        return "its arguments are not a JSON object" + (f": {one_line(why, 80)}" if why else "")
    errors = schema_errors(arguments, tool.get("parameters") or {})
    return errors[0] if errors else None


def called_with(c, r, t=None):
    return any(call.get("name") == c["value"] and ("arguments" not in c or is_subset(c["arguments"], call_arguments(call)))
               for call in tool_calls_of(r))


def in_order(names, calls):
    """names appear among the calls in this order, other calls between them or not."""
    made = iter(call.get("name") for call in calls)
    return all(name in made for name in names)


class CheckType:
    """One kind of check. value: what its "value" must be (str, float for milliseconds, "tool" a
    tool's name, "tools" a list of them, "count" a whole number, None for none). evaluate(check, result, trial): True, False, or None when it cannot be decided, from the
    stored result (response, expected, latency_ms) and the graded trial (its label, its judges'
    verdicts). pattern: its value is a regular expression, escaped when a placeholder fills it,
    compiled at load and searched under a timer. needs: what its case must have. shown: its mark
    in reports."""

    def __init__(self, value, evaluate, pattern=False, needs=None, shown="", blocks=True):
        self.value, self.evaluate, self.pattern, self.needs, self.shown = value, evaluate, pattern, needs, shown
        self.blocks = blocks   # blocking unless the check says otherwise (context_relevant rates the retriever)


def judged(c, r, t):
    """A judge check's verdict: its votes' (judge_verdicts), None while undecided."""
    return t["judged"].get(c["name"], {}).get("pass")


CHECK_TYPES = {
    "contains": CheckType(str, lambda c, r, t: c["value"] in r["response"]),
    "not_contains": CheckType(str, lambda c, r, t: c["value"] not in r["response"]),
    "icontains": CheckType(str, lambda c, r, t: c["value"].casefold() in r["response"].casefold()),
    "regex": CheckType(str, lambda c, r, t: guarded_search(c["value"], r["response"]) is not None, pattern=True),
    "not_regex": CheckType(str, lambda c, r, t: guarded_search(c["value"], r["response"]) is None, pattern=True),
    "equals_expected": CheckType(None, lambda c, r, t: r["response"].strip() == r.get("expected"), needs="expected"),
    "label": CheckType(None, lambda c, r, t: t["predicted"] == r.get("expected"), needs="labels"),
    "json": CheckType(None, lambda c, r, t: passes_json(r["response"], c.get("schema"))),
    "max_latency_ms": CheckType(float, lambda c, r, t: r.get("latency_ms") is not None and r["latency_ms"] <= c["value"]),
    "judge": CheckType(str, judged, shown=" (LLM judge)"),
    # RAG (section 7 has their prompts): value, when given, is the share a passing answer reaches
    "faithful": CheckType("share", judged, needs="context", shown=" (LLM judge: every claim supported by a passage)"),
    "answer_relevant": CheckType(None, judged, shown=" (LLM judge: answers the question)"),
    "context_relevant": CheckType("share", judged, needs="context", shown=" (LLM judge: rates each passage)",
                                  blocks=False),
    # the trajectory of an agent (a case with tools): which tools it called, how, in what order, how often
    "tool_called": CheckType("tool", called_with, needs="tools", shown=" (trajectory)"),
    "tool_not_called": CheckType("tool", lambda c, r, t: all(call.get("name") != c["value"] for call in tool_calls_of(r)),
                                 needs="tools", shown=" (trajectory)"),
    "tool_order": CheckType("tools", lambda c, r, t: in_order(c["value"], tool_calls_of(r)), needs="tools",
                            shown=" (trajectory)"),
    "max_tool_calls": CheckType("count", lambda c, r, t: len(tool_calls_of(r)) <= c["value"], needs="tools",
                                shown=" (trajectory)"),
    "tool_args_valid": CheckType(None, lambda c, r, t: all(call_problem(call, r.get("tools")) is None
                                                           for call in tool_calls_of(r)), needs="tools",
                                 shown=" (trajectory)"),
}
JUDGE_CHECKS = ("judge", "faithful", "answer_relevant", "context_relevant")   # the types a judge model answers
TRAJECTORY = tuple(kind for kind, t in CHECK_TYPES.items() if t.needs == "tools")   # the rest judge the final answer


def value_problem(kind, want, obj):
    """What is wrong with a check's "value" for its type, or None."""
    value = obj.get("value")
    if want is None:
        return f"check {kind!r} takes no value" if "value" in obj else None
    if want is str and not (isinstance(value, str) and value):
        return f"check {kind!r} needs a non-empty string value"
    if want is float and (isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0):
        return f"check {kind!r} needs a positive number of milliseconds as value"
    if want == "tool" and not (isinstance(value, str) and value.strip()):
        return f"check {kind!r} needs a tool name as value"
    if want == "tools" and not (isinstance(value, list) and len(value) >= 2
                                and all(isinstance(v, str) and v.strip() for v in value)):
        return f"check {kind!r} needs a list of at least two tool names as value"
    if want == "count" and not (type(value) is int and value >= 0):
        return f"check {kind!r} needs a whole number of 0 or more as value"
    if want == "share" and "value" in obj and not is_share(value):
        return (f"check {kind!r}: value is the share of its score a passing answer reaches, a number above 0 "
                f"and at most 1, not {one_line(json_text(value), 40)}")
    return None


def parse_check(obj, older=None) -> tuple[Check | None, list]:
    """Validate one check as written (before its placeholders are filled). Returns (check, problems).
    older: a list, for a split a run began with under older rules (its resume): a label check written
    non-blocking or weighted is scored as every label check is, its name added to the list, not refused."""
    if not isinstance(obj, dict):
        return None, ['a check is an object {"type": ..., "value": ...}']
    if "type" not in obj:   # a misspelt "type" named: the rest of the check is not read without it
        near = difflib.get_close_matches("type", [k for k in obj if k not in CHECK_KEYS], n=1, cutoff=0.5)
        return None, ['a check needs a "type" ' + (f'(did you mean "type" for {one_line(near[0], 40)!r}?)' if near else
                                                    f"(one of {', '.join(CHECK_TYPES)})")]
    kind = obj["type"]
    if not isinstance(kind, str) or kind not in CHECK_TYPES:
        return None, [f"check type {kind!r} is unknown (types: {', '.join(CHECK_TYPES)})"]
    if label_rule_broken(obj) and older is not None:
        older.append(obj.get("name", kind))
        obj = {k: v for k, v in obj.items() if k not in ("weight", "blocking")}
    problems = [f"check {kind!r}: unknown key {k!r} (keys: {', '.join(CHECK_KEYS)})" for k in obj if k not in CHECK_KEYS]
    if label_rule_broken(obj):
        problems.append(f"check {kind!r}: {LABEL_RULE}")
    want, value = CHECK_TYPES[kind].value, obj.get("value")
    problems += filter(None, [value_problem(kind, want, obj)])
    if "arguments" in obj and kind != "tool_called":
        problems.append(f"check {kind!r}: only a tool_called check takes arguments")
    elif "arguments" in obj and not isinstance(obj["arguments"], dict):
        problems.append(f"check {kind!r}: arguments must be an object, a subset of some call's arguments")
    if "schema" in obj:
        problems += [f"check {kind!r}: {p}" for p in
                     (schema_problems(obj["schema"]) if kind == "json" else ["only a json check takes a schema"])]
    weighed = "weight" in obj
    blocks = not weighed and CHECK_TYPES[kind].blocks
    if not isinstance(obj.get("blocking", blocks), bool):
        problems.append(f"check {kind!r}: blocking must be true or false")
    problems += [f"check {kind!r}: {p}" for p in weight_problems(obj)]
    name = obj.get("name", kind if want == "share" else default_check_name(kind, value, obj.get("arguments")))
    if not (isinstance(name, str) and name.strip()):
        problems.append(f"check {kind!r}: name must be a non-empty string")
    check = {"name": name, "type": kind, "blocking": obj.get("blocking", blocks)}
    check.update({k: obj[k] for k in ("value", "schema", "weight", "arguments") if k in obj})
    return check, problems


# A labelled case is scored on its label: a label check that may fail and the case still pass counted a wrong label right
LABEL_RULE = "a label check always blocks and has no weight (a labelled case is scored on its label)"


def label_rule_broken(check):
    """Whether a check as written or stored is a label check made non-blocking or weighted."""
    return type(check) is dict and check.get("type") == "label" and ("weight" in check or check.get("blocking") is False)


def default_check_name(kind, value, arguments=None):
    """A check's name when it has none: its type and value ("tool_order lookup_order > cancel_order"),
    and a tool_called check's arguments, so two calls of one tool are two names."""
    if value is None:
        return kind
    shown = " > ".join(map(str, value)) if isinstance(value, list) else str(value)
    return f"{kind} {shown}" + (f" {json_text(arguments)}" if isinstance(arguments, dict) else "")


# Methodology note 001's two rules for a case's binary checks: every one must pass, or a weighted sum must reach a
# threshold, with safety and policy checks blocking whatever the sum. A check either blocks or
# weighs, never both: a blocking check that also weighed would count twice.
def is_share(value):
    return is_number(value) and 0 < value <= 1


def weight_problems(obj):
    """What is wrong with a check's "weight", or []: a positive number, on a check that does not block."""
    if "weight" not in obj:
        return []
    w = obj["weight"]
    if not is_number(w) or w <= 0:
        return [f"weight must be a positive number, not {one_line(json_text(w), 40)}"]
    if obj.get("blocking") is True:
        return ['a check with a weight counts toward the weighted score and does not block; '
                'drop "blocking": true or the weight']
    return []


def threshold_problem(value, checks):
    """What is wrong with a case's pass_threshold given its checks, or None."""
    if value is None:
        return None
    if not is_share(value):
        return f"pass_threshold must be a number above 0 and at most 1 (a share of the weight), not {one_line(json_text(value), 40)}"
    if not any("weight" in c for c in checks):
        return 'pass_threshold needs at least one check with a "weight"'
    return None


def can_fail(case):
    """Whether some answer fails the case: a check of it blocks, or its weighted score must reach a threshold. Checks
    that neither block nor count toward one (only "blocking": false, or weights with no pass_threshold) are reported,
    and the case passes whatever the answer: a free-text set of them had a pass rate of 100% and passed its gate."""
    return any(c.get("blocking", "weight" not in c) for c in case["checks"]) or case.get("pass_threshold") is not None


def weighted_score(checks, passed):
    """(lowest, highest) share of the weighed checks' weight that passes: an undecided check (a judge
    with no verdict) may go either way, so the two differ until it is decided. None without weights."""
    weighed = [c for c in checks if "weight" in c]
    if not weighed:
        return None
    total = sum(exact(c["weight"]) for c in weighed)
    sure = sum(exact(c["weight"]) for c in weighed if passed.get(c["name"]) is True)
    maybe = sum(exact(c["weight"]) for c in weighed if passed.get(c["name"]) is None)
    return sure / total, (sure + maybe) / total


def stored_check_problem(check, labels):
    """What is wrong with a check as a run file holds it (placeholders filled in), or None: the
    same rules as in a split, so a hand-edited run cannot hang or crash a report."""
    if type(check) is not dict or type(check.get("name")) is not str:
        return "a check must be an object with a name"
    _, problems = parse_check(check)
    problems = problems or filled_check_problems(check, labels)
    named = f"check {check['name']!r}: "
    return None if not problems else problems[0] if problems[0].startswith(named) else named + problems[0]


ANY_ANSWERS = ("", "x", "0", "\n", "Hola, ¿qué tal?", "日本語")   # a pattern found in all of these is in any answer


def filled_check_problems(check, labels, case=None):
    """What the rules of a check's type say of it once its placeholders are filled: a pattern
    that does not compile, a label check without labels, a comparison without a case's
    expected answer. `case`: the split's case, when the check comes from a split, not a run."""
    kind = CHECK_TYPES[check["type"]]
    problems = [regex_problem(check["value"])] if kind.pattern else []
    if kind.pattern and case is not None and not problems[0] and all(re.search(check["value"], p) for p in ANY_ANSWERS):
        problems.append("its pattern is found in every answer, even an empty one (|, ^, a*), so the check can never "
                        + ("fail" if check["type"] == "regex" else "pass"))
    if kind.needs == "labels" and labels is None:
        problems.append(f"a label check needs {LABELS_FILE} beside the split" if case is not None
                        else "a label check needs config.labels")
    if kind.needs == "expected" and case is not None and "expected" not in case:
        problems.append("equals_expected needs the case's 'expected'")
    if kind.needs == "tools" and case is not None:
        if not case.get("tools"):
            problems.append(f"needs the case's tools (a \"tools\" list, or {TOOLS_FILE} beside the split; "
                            "a case's \"tools\": [] takes them away)")
        else:
            names = check["value"] if isinstance(check.get("value"), list) else [check.get("value")] * (kind.value == "tool")
            problems += [f"the case has no tool named {n!r} (tools: {', '.join(t['function']['name'] for t in case['tools'])})"
                         for n in names if tool_named(case["tools"], n) is None]
    return [p for p in problems if p]


LABEL_CHECK = {"name": "label", "type": "label", "blocking": True}   # every labelled case has one


def run_checks(checks, r, trial, threshold=None):
    """({check name: passed}, verdict, weighted score) of one answer: case_verdict() of its checks'
    results, and weighted_score() of them (None when no check has a weight)."""
    passed = {}
    for c in checks:
        try:
            passed[c["name"]] = CHECK_TYPES[c["type"]].evaluate(c, r, trial)
        except PatternTimeout:
            raise EvalError(f"check {c['name']!r} ran for over {REGEX_SECONDS:g} s on the answer to {on_one_line(r.get('id'))} "
                            "(its pattern backtracks on it); rewrite the pattern, then report --checks") from None
    weighted = weighted_score(checks, passed) if any("weight" in c for c in checks) else None
    return passed, case_verdict(checks, passed, threshold, weighted), weighted


def case_verdict(checks, passed, threshold, weighted):
    """An answer passes when every blocking check passes and, with a threshold, when its weighted
    score reaches it; no score makes up for a failed blocking check. It stays open (None) while
    an undecided check could still tip it."""
    verdict = True
    for c in checks:
        ok = passed[c["name"]]
        if c["blocking"] and ok is not True and verdict is not False:
            verdict = ok
    if threshold is None or verdict is False:
        return verdict
    low, high = weighted
    t = exact(threshold)
    return False if high < t else verdict if low >= t else None



# ---------------------------------------------------------------------------
# 5. Load: the split, its labels and default checks, the prompt, and their hashes. Every
#    problem in them is found before any model call.

# Marks that only choose a glyph (emoji or text style, a CJK or Mongolian variant): one character to a reader, over
# any letter. Overlays (a stroke through, U+0334-U+0338) and the marks for symbols (U+20D0-U+20FF: a slash through,
# a circle round) are no accents: y̶e̶s̶ struck out is not yes.
VARIATION_SELECTOR = re.compile("[\ufe00-\ufe0f\u180b-\u180d\u180f\U000e0100-\U000e01ef]")
# Shown as nothing, and part of no letter: the grapheme joiner, and tag characters but in a flag (a black flag, then
# tags ending in a cancel tag: Scotland's and England's flags differ in them alone). Ignored where text is matched
# (labels) or told apart (ids), never refused.
UNSEEN_MARKS = re.compile("\U0001f3f4[\U000e0020-\U000e007e]+\U000e007f|[\u034f\U000e0000-\U000e007f]")


def without_unseen(text):
    """text without the marks UNSEEN_MARKS finds shown as nothing, its flags whole."""
    return UNSEEN_MARKS.sub(lambda m: m.group() if len(m.group()) > 1 else "", text)
OVERLAY_MARKS = set(range(0x0334, 0x0339)) | set(range(0x20D0, 0x2100))


def accents_drop(code):
    """Whether a combining mark over the letter of code point `code` is an accent, ignored when labels are matched:
    over Latin, Greek, Cyrillic, Armenian, Hebrew and Arabic letters (é, ё, the vowel points, a hamza), with their
    extensions and presentation forms. Over an Indic, Thai, Thaana, Syriac, NKo or kana letter it is part of the
    letter: मेल is not मल, ބަތް is not ބިތް, バグ is not ハグ. A mark with no letter before it is kept."""
    return code is not None and (code < 0x0700 or 0x0750 <= code < 0x0780 or 0x08A0 <= code < 0x0900
                                 or 0x1E00 <= code < 0x2000 or 0xFB1D <= code < 0xFE00 or 0xFE70 <= code < 0xFF00)


def fold(text):
    """Lowercase without accents: how answers and labels are matched."""
    if text.isascii():
        return text.lower()
    kept, base = [], None
    for c in unicodedata.normalize("NFD", without_unseen(VARIATION_SELECTOR.sub("", text.lower()))):
        if unicodedata.category(c) != "Mn":
            base = ord(c)
        elif accents_drop(base) and ord(c) not in OVERLAY_MARKS:
            continue
        kept.append(c)
    return "".join(kept)


def id_as_shown(text):
    """An id as a reader sees it: two ids alike so are one case's."""
    return unicodedata.normalize("NFC", without_unseen(VARIATION_SELECTOR.sub("", text)))


STRIP_CHARS = ".\"'`*"   # trimmed from an answer's ends: "Bug." and **bug** are the label bug
STRIP_SHOWN = " ".join(STRIP_CHARS)   # as a message names them


def label_key(text):
    """What an answer and a label are matched by: trimmed of whitespace, then of STRIP_CHARS, at
    their ends, and folded. A label goes through it too, or one that begins or ends with such a
    character (.NET, N/A., C*) could never be matched."""
    return fold(text.strip().strip(STRIP_CHARS))


def resolve_split(value, flag="--split"):
    """`dev` means golden/dev.jsonl; anything ending in .jsonl is a path as given. The split's
    name is its path inside golden/ without .jsonl, with - for / (golden/support/dev.jsonl: support-dev);
    outside golden/, its folder's name and its own (mine/dev.jsonl: mine-dev), so that the runs of
    two sets' dev.jsonl are not all "dev", named runs/dev-v1.json among the golden set's.
    flag: the option that gave it, which a refusal names (report takes a split as --checks)."""
    if value.endswith(".jsonl"):
        there = os.path.join(GOLDEN_DIR, value)
        if not os.path.lexists(value) and not os.path.isabs(value) and os.path.isfile(there):   # `--split dev.jsonl`
            # (a name with a folder in it is no --split name: the path alone)
            short = value[:-len(".jsonl")]
            raise EvalError(f"{shell_word(value)}: no such split file; did you mean {shell_word(there)}"
                            + (f" ({flag} {shell_word(short)})?" if flag == "--split" and re.fullmatch(r"[A-Za-z0-9_.-]+", short)
                               else "?"))
        inside = os.path.relpath(value, GOLDEN_DIR)
        name = inside if not inside.startswith("..") else os.path.basename(value)
        if inside.startswith("..") and os.path.dirname(os.path.normpath(value)):   # ../x.jsonl: its folder's name
            name = os.path.join(os.path.basename(os.path.dirname(os.path.abspath(value))), name)
        return value, name[:-len(".jsonl")].replace(os.sep, "-")
    if not re.fullmatch(r"[A-Za-z0-9_.-]+", value):
        raise EvalError(f"{flag} {value!r}: give a split name (dev, test) or a path ending in .jsonl")
    path = os.path.join(GOLDEN_DIR, value + ".jsonl")
    if not os.path.exists(path):
        names = sorted((f[:-len(".jsonl")] if folder == GOLDEN_DIR else os.path.join(folder, f))   # a name, or a path
                       for folder, _, files in os.walk(GOLDEN_DIR) for f in files if f.endswith(".jsonl"))
        near = difflib.get_close_matches(value, names, n=1)
        raise EvalError(f"no split {value!r} ({shell_word(path)} does not exist)" + (f"; did you mean {on_one_line(near[0])}?" if near else "")
                        + (f"\nSplits in {GOLDEN_DIR}/: {', '.join(map(on_one_line, names))} (or give a path ending in .jsonl)"
                           if names else f"\nThere is no {GOLDEN_DIR}/ split here; give a path ending in .jsonl"))
    return path, value


def read_bytes(path, what):
    """A file named by the user, whole: only a regular file is opened (a pipe would block for ever)."""
    try:
        with open_regular(path) as f:
            return f.read()
    except OSError as e:
        raise unreadable(path, what, e) from None


def unreadable(path, what, error):
    """The one-line error for a file that cannot be opened."""
    if isinstance(error, FileNotFoundError) and os.path.islink(path):   # a target gone (an unmounted share, a move)
        return EvalError(f"{shell_word(path)}: a link to {shell_word(os.readlink(path))}, which does not exist; fix the link or remove it")
    if isinstance(error, FileNotFoundError):
        return EvalError(f"{shell_word(path)}: no such {what}")
    if isinstance(error, IsADirectoryError):
        return EvalError(f"{shell_word(path)}: is a folder, not a {what}"
                         + (f"; {program()} runs {shell_word(path)} lists the runs in it" if what == "run file" else ""))
    if isinstance(error, NotRegularFile):
        return EvalError(f"{shell_word(path)}: not a regular file (a pipe or a device), so not a {what}")
    return EvalError(f"{shell_word(path)}: cannot read {what} ({error.strerror})")


def json_problem(error):
    """One line for a JSON error: JSONDecodeError's message and column, or what strict_json refused."""
    if isinstance(error, json.JSONDecodeError):
        return f"bad JSON: {json_error_at(error, f'column {error.colno}')}"
    return str(error)


def line_problem(error):
    """Why a line of a journal or judging cannot be read: not UTF-8, or json_problem."""
    return "not UTF-8" if isinstance(error, UnicodeDecodeError) else json_problem(error)


def json_error_at(error, where):
    """A JSONDecodeError's message with its place: json leaves some unfinished ("Unterminated
    string starting at") for its own str() to end with the place, so they get it as their end;
    the others get it in brackets."""
    if error.msg.endswith(" at"):
        return f"{error.msg[0].lower()}{error.msg[1:]} {where}"
    return f"{decode_message(error)} ({where})"


def decode_message(error):
    """A JSONDecodeError's message, without json's advice to a programmer: a file an editor saved with
    a BOM is "Unexpected UTF-8 BOM (decode using utf-8-sig)"."""
    return "a byte-order mark (BOM) before the JSON" if error.msg.startswith("Unexpected UTF-8 BOM") else error.msg


LABEL_COMMENT = re.compile(r"(?:^|\s)#")   # a comment in labels.txt: '#' at a line's start or after a space


# What a report shows as nothing at all (control characters and direction marks are shown escaped, CONTROL_CHARS):
# a soft hyphen, a zero-width space, a word joiner, invisible operators, a BOM. An id holding one is another case
# (or a label) that looks like the first. (Zero-width joiners and non-joiners are not: an emoji sequence or a Persian word needs them.)
INVISIBLE_CHARS = re.compile("[\u00ad\u115f\u1160\u17b4\u17b5\u180e\u200b\u2060-\u2064\u206a-\u206f\u2800\u3164\ufeff"
                             "\uffa0\U0001d173-\U0001d17a]")   # (and Hangul fillers, Khmer's unwritten vowels and the braille
                                                               # blank, drawn blank; music's format marks)


def parse_labels(path):
    """The closed label set beside a split: one label a line; '#' starts a comment at the start of a
    line or after a space (`bug  # the product`), so that C# or F# can be labels."""
    try:
        text = read_bytes(path, "label file").decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise EvalError(f"{shell_word(path)}: not valid UTF-8 (byte {e.start + 1}); save it as UTF-8") from None
    if "\r" in text.replace("\r\n", ""):   # old Mac line ends: one line, which a "# header" made a comment whole
        raise EvalError(f"{shell_word(path)}:{text[:text.replace(chr(13) + chr(10), '  ').index(chr(13))].count(chr(10)) + 1}: "
                        "a line ends in a carriage return alone (CR, old Mac line ends); save it with LF or CRLF line ends")
    labels, seen = [], {}
    # a line ends at a line feed alone: str.splitlines also breaks at NEL, U+2028, a form feed..., which made a
    # comment's tail a label, or one label two
    for number, line in enumerate(text.split("\n"), 1):
        label = unicodedata.normalize("NFC", LABEL_COMMENT.split(line.removesuffix("\r"), 1)[0].strip())
        if not label:
            continue
        if CONTROL_CHARS.search(label) or re.search("[\r\x85\u2028\u2029]", label):
            raise EvalError(f"{shell_word(path)}:{number}: label {label!r} holds a line break or control character; "
                            "write one label a line, in plain text")
        if INVISIBLE_CHARS.search(label):   # bu\u200bg beside bug: two labels no one could tell apart, nor type
            raise EvalError(f"{shell_word(path)}:{number}: label {label!r} holds an invisible character "
                            f"(U+{ord(INVISIBLE_CHARS.search(label).group()):04X}), shown as nothing")
        key = label_key(label)
        if not id_as_shown(label):
            raise EvalError(f"{shell_word(path)}:{number}: label {ascii(label)} is shown as nothing (a grapheme joiner, tag "
                            "characters); write the label")
        if not key:   # an empty answer would be this label
            raise EvalError(f"{shell_word(path)}:{number}: label {label!r} is nothing but the characters {STRIP_SHOWN} trimmed "
                            "from an answer's ends; no answer could name it")
        if key in seen:
            raise EvalError(f"{shell_word(path)}:{number}: label {label!r} repeats line {seen[key]} (answers are matched without "
                            f"case, accents or the characters {STRIP_SHOWN} at their ends, so one answer would be both)")
        if key == label_key(INVALID):
            raise EvalError(f"{shell_word(path)}:{number}: {INVALID} is reserved for answers that match no label")
        seen[key] = number
        labels.append(label)
    if len(labels) < 2:
        raise EvalError(f"{shell_word(path)}: needs at least two labels, one per line")
    return labels


# A placeholder's name: a letter of any script or _, then letters, digits, _, - and any other character past ASCII
# but a space ({{order-id}}, {{año}}, {{नाम}}, whose vowel signs are no letters to \w); a name of ASCII letters
# alone left those sent as written. Names are matched in NFC, as labels are: {{año}} typed either way is one name.
VAR_NAME = r"[^\W\d](?:[\w-]|[^\x00-\x7f\s])*"
PLACEHOLDER = re.compile(rf"\{{\{{\s*({VAR_NAME})\s*\}}\}}")
# {{name} or {name}}: a placeholder of a var mistyped, sent as written. Said only of a name the case has a var of:
# LaTeX (\frac{a}{b}}), C ({{a},{b}}) and JSON ({"a": {b}}) hold these shapes by right.
UNCLOSED_PLACEHOLDER = re.compile(rf"\{{\{{\s*({VAR_NAME})\s*\}}(?!\}})|(?<!\{{)\{{\s*({VAR_NAME})\s*\}}\}}")


# What a run records of the placeholder names it read: a resume of a run begun without it (when a name was ASCII
# alone: {{नाम}} was sent as written) is refused where the split or prompt holds a name past ASCII, never mixed.
PLACEHOLDER_RULE = "any script"
ASCII_VAR_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def by_name(values):
    """vars (or any values of placeholders) keyed by their names in NFC."""
    return {unicodedata.normalize("NFC", k): v for k, v in values.items()}


def var_shown(name):
    """A placeholder's name as a message shows it: a character a terminal shows as nothing (a soft hyphen, a
    zero-width space) escaped, or "no vars.customer" would name a var the case has."""
    return name if name.isprintable() else repr(name)[1:-1]


def placeholder_names(text):
    """The names of a text's placeholders, in NFC, each once, in order."""
    return list(dict.fromkeys(unicodedata.normalize("NFC", name) for name in PLACEHOLDER.findall(text)))


def unclosed_placeholders(text, where, names):
    """The mistyped placeholders of the vars `names` (in NFC) in a text, as problems of `where`."""
    return [f"{where} writes {found!r}, a placeholder not closed as {{{{name}}}} is"
            for found in dict.fromkeys(m.group() for m in UNCLOSED_PLACEHOLDER.finditer(text)
                                       if unicodedata.normalize("NFC", m.group(1) or m.group(2)) in names)]


def render(template, values, escape=str):
    """Fill {{name}} placeholders; escape= re.escape keeps a value literal inside a regex. One with
    no value stays as written (a run is refused before that; a page only shows the prompt)."""
    named = by_name(values)
    return PLACEHOLDER.sub(lambda m: escape(str(named[key])) if (key := unicodedata.normalize("NFC", m.group(1))) in named
                           else m.group(0), template)


# a placeholder after an odd run of backslashes: the last one would make an escape of the value's first character
# (\{{x}} with x = "d" searched for a digit)
ESCAPED_PLACEHOLDER = re.compile(rf"(?<!\\)(?:\\\\)*\\(?={PLACEHOLDER.pattern})")


def pattern_placeholder_problems(check, names):
    """What is wrong with a pattern check's placeholders for a case's vars (names: by_name): one after a backslash,
    which the backslash would join, or one whose var is empty, which leaves a pattern that finds anything (\b{{id}}\b
    with an empty id is \b\b: any answer with a word passed)."""
    problems = []
    if ESCAPED_PLACEHOLDER.search(check["value"]):
        problems.append(f"check {check['name']!r}: a placeholder follows a backslash, which would escape the first "
                        "character of its value (\\{{x}} with x = d searches for any digit); drop the backslash, or "
                        "double it for a backslash itself")
    empty = [v for v in placeholder_names(check["value"]) if isinstance(names[v], str) and not names[v].strip()]
    if empty:
        problems.append(f"check {check['name']!r} uses {{{{{var_shown(empty[0])}}}}}, and vars.{var_shown(empty[0])} is "
                        "empty here: the pattern would look for nothing in its place; give it a value, or drop the check "
                        "from this case")
    return problems


def case_checks(case, defaults, labels, older=None):
    """The checks one case is scored with: the implied label check (classification sets), the
    split's default checks, then its own; placeholders filled from its vars. Returns (checks, problems).
    older: see parse_check."""
    written, problems = [], []
    for obj in case.get("checks", []):
        check, check_problems = parse_check(obj, older)
        if check and isinstance(check.get("value"), str) and older is None:   # (a run begun before: as it began)
            check_problems += unclosed_placeholders(check["value"], f"check {check['name']!r}", by_name(case.get("vars", {})))
        problems += check_problems
        if check and not check_problems:   # a broken check is named once, never filled in (a number as its name) or used
            written.append(check)
    merged = list(defaults) + written
    if labels is not None and not any(c["type"] == "label" for c in merged):
        merged.insert(0, dict(LABEL_CHECK))
    checks, names, case_names = [], set(), by_name(case.get("vars", {}))
    for check in merged:
        missing = [v for v in placeholder_names(check.get("value", "") if isinstance(check.get("value"), str) else "")
                   if v not in case_names]
        if missing:
            problems.append(f"check {check['name']!r} uses {{{{{var_shown(missing[0])}}}}} but the case has no vars.{var_shown(missing[0])}")
            continue
        if isinstance(check.get("value"), str) and CHECK_TYPES[check["type"]].pattern:
            problems += pattern_placeholder_problems(check, case_names)
        check = dict(check)
        if isinstance(check.get("value"), str):
            literal = re.escape if CHECK_TYPES[check["type"]].pattern else str
            check["value"] = render(check["value"], case.get("vars", {}), literal)
            check["name"] = render(check["name"], case.get("vars", {}))
        # the check as filled is what the run file stores, and reading it back holds it to the
        # same rules: a value or name a var leaves empty is refused here, before any call
        filled = parse_check(check)[1] or filled_check_problems(check, labels, case)
        problems += [f"check {check['name']!r}: {p}" for p in filled]
        if check["name"] in names:
            problems.append(f"two checks are named {check['name']!r}; give one a \"name\"")
        names.add(check["name"])
        checks.append(check)
    return checks, problems


TOOL_KEYS = ("name", "description", "parameters")   # of a tool's "function", as Ollama and OpenAI take it
TOOL_NAME = re.compile(r"[A-Za-z0-9_.-]{1,64}")     # what OpenAI takes as a function's name
TOOL_NAME_WORDS = "1 to 64 ASCII letters, digits, _, . or -"
TOOL_SHAPE = '{"type": "function", "function": {"name", "description", "parameters"}}'


def tool_problems(tool, where, names):
    """What is wrong with one tool definition (api/types.go Tool and ToolFunction; OpenAI's function
    tool), or []. names: the set of the names of the tools before it, which it adds to (a set: a
    list searched for each name was quadratic in the number of tools)."""
    if not (isinstance(tool, dict) and set(tool) == {"type", "function"} and tool["type"] == "function"
            and isinstance(tool["function"], dict)):
        return [f"{where}: must be {TOOL_SHAPE}"]
    function, problems = tool["function"], []
    problems += [f"{where}.function: unknown key {k!r} (keys: {', '.join(TOOL_KEYS)})" for k in function if k not in TOOL_KEYS]
    name = function.get("name")
    if not (isinstance(name, str) and TOOL_NAME.fullmatch(name)):
        problems.append(f"{where}.function.name {shown_value(name)} must be {TOOL_NAME_WORDS} (OpenAI's rule for a tool's name)")
    elif name in names:
        problems.append(f"{where}: a second tool named {name!r}")
    if isinstance(name, str):   # a bad name (a list, an object) is named above, and cannot be hashed
        names.add(name)
    if "description" in function and not isinstance(function["description"], str):
        problems.append(f"{where}.function.description must be text")
    parameters = function.get("parameters", {"type": "object"})
    if not (isinstance(parameters, dict) and parameters.get("type") == "object"):
        problems.append(f'{where}.function.parameters: must be a JSON Schema of "type": "object" (a call\'s arguments are an object)')
    else:
        problems += schema_problems(parameters, f"{where}.function.parameters", annotations=True)
    return problems


def tools_problems(tools):
    if not isinstance(tools, list):   # [] is allowed: a case that opts out of tools.json (merged_tools)
        return [f"field 'tools' must be a list of tool definitions {TOOL_SHAPE}"]
    names = set()
    return [p for i, tool in enumerate(tools, 1) for p in tool_problems(tool, f"tools[{i}]", names)]


def tool_results_problems(results, tools, where="tool_results"):
    """What is wrong with a case's simulated environment: a result per tool (text, or JSON sent as
    its text), or a list of rules {"arguments": {...}, "result": ...} tried in order."""
    if not isinstance(results, dict):
        return ["field 'tool_results' must be an object {tool name: result, or a list of rules}"]
    names = [t["function"]["name"] for t in tools or ()]
    known, problems = set(names), []   # a set to look up: the list searched for each result was quadratic
    for name, given in results.items():
        if name not in known:
            problems.append(f"{where}: {name!r} is not one of the tools ({', '.join(names) or 'none'})")
        for j, rule in enumerate(given if isinstance(given, list) else (), 1):
            if not (isinstance(rule, dict) and set(rule) == {"arguments", "result"} and isinstance(rule["arguments"], dict)):
                problems.append(f'{where}.{on_one_line(name)}[{j}]: a rule is {{"arguments": {{...}}, "result": ...}}'
                                + keys_off(rule, ("arguments", "result")) + ' (a list is a list of rules; a result that is '
                                'itself a list goes in a rule with "arguments": {})')
    return problems


def merged_tools(case, split_tools):
    """A case's tools and tool_results over the split's (tools.json): the case's own definition of a
    tool, and its own results for one, take the place of the split's; the others are added."""
    tools, results = split_tools
    if case.get("tools") == []:   # a case asked with no tool at all (a control) in a split whose tools.json arms the rest
        del case["tools"]         # stored as a case without tools: no key the run, report and checks must read as "none"
        return
    own = case.get("tools") or []
    names = {t["function"]["name"]: t for t in own}
    merged = [names.pop(t["function"]["name"], t) for t in tools] + [t for t in own if t["function"]["name"] in names]
    if merged:
        case["tools"] = merged
    if results or "tool_results" in case:
        case["tool_results"] = {**results, **case.get("tool_results", {})}


def parse_case(obj, labels, defaults, default_threshold=None, split_tools=((), {}), older=None) -> tuple[Case, list]:
    """Check one decoded line; return (case, problems). labels is None for a free-text set;
    default_threshold is checks.json's pass_threshold, which a case's own replaces; split_tools
    the tools and tool_results of tools.json, which a case's own override tool by tool; older: see parse_check."""
    if not isinstance(obj, dict):
        return None, ["expected a JSON object {...} with id, input, expected, difficulty, note"]
    problems, case = [], {}
    for key, value in obj.items():
        name = FIELD_ALIASES.get(key, key)
        if name not in CASE_FIELDS:
            problems.append(f"unknown field {key!r} (known: {', '.join(CASE_FIELDS)}; "
                            "'dificultad' and 'nota' are accepted too)")
            continue
        if name in case:
            problems.append(f"field {name!r} given twice (as {name!r} and its alias)")
            continue
        case[name] = value
    expected = case.get("expected")
    if labels is not None and isinstance(expected, str):
        case["expected"] = unicodedata.normalize("NFC", expected)   # as labels.txt is read
    problems += case_problems(case, labels, begun=older is not None)
    if problems:
        return case, problems
    if "messages" in case:
        case["messages"], problems = filled_turns(case["messages"], case.get("vars", {}), typos=older is None)
        problems = problems or turn_problems(case["messages"])   # as filled: as a run file will hold them
        if problems:
            return case, problems
    if isinstance(case.get("input"), str):   # filled as a turn is: the input is the one user turn
        problems = unfilled(case["input"], case.get("vars", {}), "input", typos=older is None)
        if problems:
            return case, problems
        case["input"] = render(case["input"], case.get("vars", {}))
    merged_tools(case, split_tools)
    if "tool_results" in case:
        problems = tool_results_problems(case["tool_results"], case.get("tools"))
        if problems:
            return case, problems
    case["checks"], check_problems = case_checks(case, defaults, labels, older)
    own = "pass_threshold" in case
    case["pass_threshold"] = case.get("pass_threshold", default_threshold)
    if older and not any("weight" in c for c in case["checks"]):   # its weighted label check was all it weighed
        case["pass_threshold"] = None
    problem = threshold_problem(case["pass_threshold"], case["checks"])
    if problem:
        check_problems.append(problem + ("" if own else f" (the threshold comes from {CHECKS_FILE})"))
    if case["pass_threshold"] is None:
        del case["pass_threshold"]
    return case, check_problems


def case_problems(case, labels, stored=False, begun=False):
    """What is wrong with a case's fields, in the order they are declared (Case), or []: one
    validator for a split's line and for a run file's result, which stores its case as it was.
    stored: a run file's, which runs of older versions made: it may have no note (and its note is
    not read), an empty difficulty, input or expected, and empty or repeated tags; and it may give
    neither input nor messages. Its checks are validated as stored (stored_check_problem), a
    split's as written (case_checks), so this only says whether they are a list. begun: a split a run
    began with (its resume), whose ids are held to the rules of the eval.py that began it."""
    problems, new_rules = [], not stored and not begun
    required = ("id", "difficulty") if stored else ("id", "difficulty", "note")   # tuples: this runs once a result
    if labels is not None:
        required += ("expected",)
    if not stored and "vars" not in case and "messages" not in case:
        required += ("input",)
    if "messages" in case:
        problems += ["give either input or messages, not both"] * ("input" in case)
        problems += turn_problems(case["messages"])
    optional_text = tuple(f for f in ("input", "expected") if f not in required and f in case)
    for name in required + optional_text:
        if name not in case:
            problems.append(f"missing field {name!r}" + (" (or give vars)" if name == "input" else ""))
        elif not isinstance(case[name], str):
            problems.append(f"field {name!r} must be a string, not {type(case[name]).__name__}")
        elif not case[name].strip() and (not stored or not case[name] and name == "id"):
            problems.append(f"field {name!r} is empty")   # a stored id may be blank, not empty: older runs
        elif name == "id" and new_rules and case[name] != case[name].strip():   # --cases trims it: never chosen
            problems.append(f"field 'id' {case[name]!r} begins or ends with a space")
        elif name == "id" and new_rules and INVISIBLE_CHARS.search(case[name]):   # shown as another id is
            problems.append(f"field 'id' {case[name]!r} holds an invisible character "
                            f"(U+{ord(INVISIBLE_CHARS.search(case[name]).group()):04X}), shown as nothing")
        elif name == "id" and new_rules and not id_as_shown(case[name]):   # a blank row in every table
            problems.append(f"field 'id' {ascii(case[name])} is shown as nothing (a grapheme joiner, tag characters)")
    tags = case.setdefault("tags", [])
    if not isinstance(tags, list) or tags and not all(isinstance(t, str) and (stored or t.strip()) for t in tags):
        problems.append("field 'tags' must be a list of " + ("strings" if stored else "non-empty strings"))
    elif not stored and len(set(tags)) != len(tags):
        problems.append("field 'tags' repeats a tag")
    if "vars" in case:
        variables = case["vars"]
        if not isinstance(variables, dict) or not all(
                isinstance(k, str) and isinstance(v, (str, int, float)) and not isinstance(v, bool)
                for k, v in variables.items()):
            problems.append("field 'vars' must be an object of names to strings or numbers")
            case["vars"] = {}
        elif len(by_name(variables)) < len(variables):   # a placeholder names both: which one it is filled with is chance
            seen = set()
            twice = next(k for k in variables if (n := unicodedata.normalize("NFC", k)) in seen or seen.add(n))
            problems.append(f"field 'vars' gives the name {twice!r} twice, written in two Unicode forms")
    if "checks" in case and not isinstance(case["checks"], list):
        problems.append("field 'checks' must be a list of checks")
        case["checks"] = []
    tool_problems_found = tools_problems(case["tools"]) if "tools" in case else []
    problems += tool_problems_found
    if "tool_results" in case and (stored or not isinstance(case["tool_results"], dict)):
        # a split's rules are read once merged with tools.json (parse_case); a run's as stored
        problems += tool_results_problems(case["tool_results"], [] if tool_problems_found else case.get("tools"))
    problems += context_problems(case)
    expected = case.get("expected")
    if labels is not None and isinstance(expected, str) and (stored or expected.strip()) and expected not in labels:
        near = [l for l in labels if label_key(l) == label_key(expected)]
        hint = f" (did you mean {near[0]!r}?)" if near else f" (labels: {', '.join(labels)})"
        problems.append(f"label {expected!r} is not in " + ("config.labels" if stored else LABELS_FILE) + hint)
    return problems


def turn_problems(turns):
    """What is wrong with a case's messages as written: a conversation so far, user and assistant
    turns with text, the user's last (the model's answer is the next turn)."""
    if not isinstance(turns, list) or not turns:
        return ["field 'messages' must be a non-empty list of turns {\"role\": \"user\", \"content\": ...}"]
    problems = []
    for number, turn in enumerate(turns, 1):
        if not isinstance(turn, dict) or set(turn) != {"role", "content"}:
            problems.append(f"messages turn {number}: must be an object with exactly \"role\" and \"content\""
                            + keys_off(turn, ("role", "content")))
        elif turn["role"] == "system":
            problems.append(f"messages turn {number}: a system turn belongs in the prompt file, not in a case")
        elif turn["role"] not in TURN_ROLES:
            problems.append(f"messages turn {number}: role {one_line(json_text(turn['role']), 30)} is neither "
                            "\"user\" nor \"assistant\"")
        elif not isinstance(turn["content"], str) or not turn["content"].strip():
            problems.append(f"messages turn {number}: content must be non-empty text")
    if not problems and turns[-1]["role"] != "user":
        problems.append(f"messages: the last turn is the {turns[-1]['role']}'s; it must be the user's "
                        "(the model answers it)")
    return problems


# RAG (methodology note 001, "Evals per a RAG"): a case may carry the passages its retriever
# returned and the ids a person judged relevant, so retrieval is measured apart from generation.
CONTEXT_VAR = "context"   # the prompt's {{context}}: the case's passages, laid out by context_text()
# A passage id is shown in the "[n] (id: ...)" layout the model and the judge read, and cited back by
# the judge: held to what a tool's name may be, so no newline or control character can forge a passage.
PASSAGE_ID, PASSAGE_ID_WORDS = TOOL_NAME, TOOL_NAME_WORDS + ", as OpenAI's tool names"


def context_problems(case):
    """What is wrong with a case's context (passages {"id", "text"} in rank order; [] when the
    retriever found none) and relevant (ids a person judged relevant, retrieved or not), or []."""
    problems = []
    if "context" in case:
        passages = case["context"]
        shape = passages_shape_problem(passages)
        if shape:
            problems.append(f'field \'context\' must be a list of passages {{"id": ..., "text": ...}}, in rank order: {shape}')
        else:
            for number, p in enumerate(passages, 1):
                if not (isinstance(p["id"], str) and PASSAGE_ID.fullmatch(p["id"])):
                    problems.append(f"context passage {number}: id {shown_value(p['id'])} must be {PASSAGE_ID_WORDS}")
                elif not (isinstance(p["text"], str) and p["text"].strip()):
                    problems.append(f"context passage {number} ({p['id']!r}): text must be non-empty text")
            seen, twice = set(), None
            for p in passages:   # a set: a list searched for each id was quadratic (100,000 passages: 76 s per load)
                if not isinstance(p["id"], str):
                    continue   # named above; a list or an object cannot be hashed
                if p["id"] in seen:
                    twice = p["id"]
                    break
                seen.add(p["id"])
            if twice is not None:
                problems.append(f"context: passage id {twice!r} is given twice")
        if CONTEXT_VAR in (case.get("vars") or {}):
            problems.append(f"vars.{CONTEXT_VAR} clashes with the passages the prompt's {{{{{CONTEXT_VAR}}}}} shows; "
                            "rename the var")
    if "relevant" in case:
        relevant = case["relevant"]
        wrong = None if not isinstance(relevant, list) else next(
            (i for i in relevant if not (isinstance(i, str) and PASSAGE_ID.fullmatch(i))), None)
        if not isinstance(relevant, list) or wrong is not None:
            problems.append(f"field 'relevant' must be a list of passage ids ({PASSAGE_ID_WORDS})"
                            + (f", not {shown_value(wrong)}" if wrong is not None else f", not {json_kind(relevant)}"))
        elif len(set(relevant)) != len(relevant):
            seen = set()
            problems.append(f"field 'relevant' repeats the id {next(i for i in relevant if i in seen or seen.add(i))!r}")
    return problems


def passages_shape_problem(passages):
    """Which passage is not an object of exactly "id" and "text", and why, or None. A key is named
    escaped and cut short: it comes from a file or a retriever."""
    if not isinstance(passages, list):
        return f"it is {json_kind(passages)}, not a list"
    for number, p in enumerate(passages, 1):
        if type(p) is not dict:
            return f"passage {number} is {json_kind(p)}, not an object"
        missing = next((k for k in ("id", "text") if k not in p), None)
        if missing:
            return f'passage {number} has no "{missing}"' + keys_off(p, ("id", "text"))
        extra = next((k for k in p if k not in ("id", "text")), None)
        if extra is not None:
            return f'passage {number} has {one_line(json_text(extra), 40)}, which a passage does not have (only "id" and "text")'
    return None


def context_text(passages):
    """The passages as the prompt's {{context}} shows them: numbered in rank order, each with its id
    (a judge cites that id), a blank line between two; one line when the retriever found none."""
    if not passages:
        return "(no passages were retrieved)"
    return "\n\n".join(f"[{n}] (id: {p['id']})\n{p['text']}" for n, p in enumerate(passages, 1))


def prompt_values(case):
    """What a prompt's placeholders are filled with: the case's vars, and its passages as {{context}}."""
    values = dict(case.get("vars") or {})
    if isinstance(case.get("context"), list):
        values[CONTEXT_VAR] = context_text(case["context"])
    return values


def filled_turns(turns, values, typos=True):
    """A case's turns with their {{vars}} filled; a placeholder the case has no value for is a problem."""
    problems = [problem for number, turn in enumerate(turns, 1)
                for problem in unfilled(turn["content"], values, f"messages turn {number}", typos)]
    return [{"role": t["role"], "content": render(t["content"], values)} for t in turns], problems


def unfilled(text, values, where, typos=True):
    """The placeholders of a case's text (an input, a turn) its vars give no value for, and (typos) those of its
    vars mistyped, as problems."""
    named = by_name(values)
    return (unclosed_placeholders(text, where, named) if typos else []) + [
        f"{where} uses {{{{{var_shown(name)}}}}} but the case has no vars.{var_shown(name)}" for name in placeholder_names(text)
        if name not in named]


DEFAULTS_KEYS = ("checks", "pass_threshold")   # checks.json as an object: {"pass_threshold": 0.7, "checks": [...]}


def read_json_file(path, what):
    """(bytes, text, value) of a JSON file beside a split; one line naming it if it is not UTF-8 or
    not one JSON value (a BOM is allowed)."""
    data = read_bytes(path, what)
    try:
        text = data.decode("utf-8-sig")
        return data, text, strict_json(text)
    except UnicodeDecodeError as e:
        raise EvalError(f"{shell_word(path)}: not valid UTF-8 (byte {e.start + 1})") from None
    except ValueError as e:   # a file of many lines: its line too (column alone named no place in it)
        line = f":{e.lineno}" if isinstance(e, json.JSONDecodeError) else ""
        raise EvalError(f"{shell_word(path)}{line}: {json_problem(e)}") from None


def load_default_checks(path, older=None):
    """checks.json beside a split: checks every case of the split is scored with, and the threshold
    of their weighted score, if any. Returns (checks, threshold, the file's bytes). A link whose
    target is gone is read, and named (read_bytes): taken for no file, the split's checks would be
    left out in silence. older: see parse_check."""
    if not os.path.lexists(path):
        return [], None, b""
    data, text, written = read_json_file(path, "checks file")
    threshold, problems = None, []
    if isinstance(written, dict) and "checks" in written:
        problems += [f"{shell_word(path)}:{line_of(text, json_text(key))}: unknown key {key!r} (keys: {', '.join(DEFAULTS_KEYS)})"
                     for key in written if key not in DEFAULTS_KEYS]
        threshold = written.get("pass_threshold")
        if threshold is not None and not is_share(threshold):
            problems.append(f"{shell_word(path)}:{line_of(text, json_text('pass_threshold'))}: pass_threshold must be a number above 0 "
                            f"and at most 1 (a share of the weight), not {one_line(json_text(threshold), 40)}")
        written = written.get("checks", [])
    if not isinstance(written, list):
        raise EvalError(f"{shell_word(path)}: must be a JSON list of checks, or an object "
                        '{"pass_threshold": ..., "checks": [...]}')
    checks, lines, named = [], item_lines(text), {}
    for number, obj in enumerate(written, 1):
        check, check_problems = parse_check(obj, older)
        # two of one name are this file's fault, said once here (each case said it, of the split's lines); a name
        # filled from a case's vars may be each case's own
        if check and not check_problems and not PLACEHOLDER.search(check["name"]):
            if check["name"] in named:
                check_problems = [f"named {check['name']!r} as check {named[check['name']]} is; "
                                  "give each check its own name"]
            named.setdefault(check["name"], number)
        # a pattern that does not compile is refused here, naming this file (left to each case, it was blamed on
        # every line of the split, which holds no check); a {{placeholder}} is filled with a literal in each case,
        # tried here as one ("({{x}}" fails whatever x holds)
        if not check_problems and CHECK_TYPES[check["type"]].pattern:
            check_problems = [p for p in [regex_problem(PLACEHOLDER.sub("x", check["value"]))] if p]
        where = f"{shell_word(path)}:{lines[number - 1]}" if len(lines) == len(written) else f"{shell_word(path)}"
        problems += [f"{where}: check {number}: {p}" for p in check_problems]
        checks.append(check)
    if problems:
        raise EvalError(capped(problems, MOST_PROBLEMS))
    return checks, threshold, data


TOOLS_KEYS = ("tools", "tool_results")   # tools.json: {"tools": [...], "tool_results": {...}}


def load_split_tools(path):
    """tools.json beside a split: tools and tool_results every case of the split has, unless it gives
    its own. Returns (tools, tool_results, the file's bytes); problems name the file and line."""
    if not os.path.lexists(path):   # a dangling link is read, and named, as checks.json's is
        return [], {}, b""
    data, text, written = read_json_file(path, "tools file")
    if not isinstance(written, dict):
        raise EvalError(f'{shell_word(path)}: must be a JSON object {{"tools": [...], "tool_results": {{...}}}}')
    problems = [f"{shell_word(path)}:{line_of(text, json_text(key))}: unknown key {key!r} (keys: {', '.join(TOOLS_KEYS)})"
                for key in written if key not in TOOLS_KEYS]
    tools, results = written.get("tools", []), written.get("tool_results", {})
    if "tools" in written and not (isinstance(tools, list) and tools):
        problems.append(f"{shell_word(path)}:{line_of(text, json_text('tools'))}: tools must be a list of tool definitions {TOOL_SHAPE}")
        tools = []
    lines, names = item_lines(text, "tools"), set()
    for i, tool in enumerate(tools, 1):
        where = f"{shell_word(path)}:{lines[i - 1]}" if len(lines) == len(tools) else shell_word(path)
        problems += [f"{where}: {p}" for p in tool_problems(tool, f"tools[{i}]", names)]
    if not problems:
        problems += [f"{shell_word(path)}:{line_of(text, json_text('tool_results'))}: {p}" for p in tool_results_problems(results, tools)]
    if problems:
        raise EvalError(capped(problems, MOST_PROBLEMS))
    return tools, results, data


def line_of(text, needle):
    """The line of the first occurrence of needle in text (1 if absent): where a key was written."""
    return text.count("\n", 0, max(text.find(needle), 0)) + 1


def item_lines(text, key="checks"):
    """The line each check of a checks.json begins on: the items of its top-level list, or of the
    list under its "checks" key (or another key: tools.json's "tools"). [] when they cannot be found
    (the caller then names the file only)."""
    start = re.search(rf'"{key}"\s*:\s*\[', text) if text.lstrip().startswith("{") else re.search(r"\[", text)
    if not start:
        return []
    decoder, lines, i = json.JSONDecoder(), [], start.end()
    blank = re.compile(r"[\s,]*")
    line, counted = 1, 0   # newlines counted up to `counted`: from the top for each item was quadratic in their number
    try:
        while True:
            i = blank.match(text, i).end()
            if i >= len(text) or text[i] == "]":
                return lines
            line, counted = line + text.count("\n", counted, i), i
            lines.append(line)
            _, i = decoder.raw_decode(text, i)
    except ValueError:
        return []


def jsonl_objects(path, data, problems):
    """(line number, "path:line", object) for each line of a JSONL file's bytes that is one JSON
    value; what is wrong with the others goes to `problems`, each with its line."""
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()   # the newline that ends the last line
    for number, raw in enumerate(lines, 1):
        where = f"{shell_word(path)}:{number}"
        raw = raw.removesuffix(b"\r")   # CRLF files are fine
        if not raw.strip():
            problems.append(f"{where}: blank line (one case per line, no empty lines)")
            continue
        try:
            yield number, where, strict_json(raw.decode("utf-8"))
        except UnicodeDecodeError as e:
            problems.append(f"{where}: not valid UTF-8 (byte {e.start + 1})")
        except ValueError as e:
            problems.append(f"{where}: {json_problem(e)}")


def split_sha_of(data, checks_data, tools_data, form=None):
    """A split's sha256, of its bytes and its checks.json's and tools.json's (b"" where there is none), each
    as_hashed; form=bytes: as eval.py took it before (the bytes as they are)."""
    form = form or as_hashed
    return sha256_bytes(form(data) + (b"\0" + form(checks_data) if checks_data else b"")
                        + (b"\0" + TOOLS_FILE.encode() + b"\0" + form(tools_data) if tools_data else b""))


def split_shas(path):
    """Every sha the split at `path` goes by as it is now: its own, and the one an eval.py before as_hashed took
    (a run of it saved with CRLF, made then, is of this version); none if it cannot be read."""
    folder = os.path.dirname(path) or "."
    try:
        data, checks_data, tools_data = (read_bytes(each, "split file") if each == path or os.path.lexists(each) else b""
                                         for each in (path, os.path.join(folder, CHECKS_FILE), os.path.join(folder, TOOLS_FILE)))
    except (EvalError, OSError):
        return set()
    return {split_sha_of(data, checks_data, tools_data), split_sha_of(data, checks_data, tools_data, bytes)}


def load_split(path, more_problems=None, as_begun=False):
    """Read and validate a split. Returns (cases, labels, sha256). labels is None for a free-text set
    (no labels.txt beside it). The sha covers the split and its checks.json, if any. Every problem is
    found in one round: a line at fault still claims its id (a second line with it is a duplicate now,
    not once the first is fixed), and more_problems(cases) adds what a caller finds in them (the
    prompt's vars), the lines at fault included, to the one refusal. as_begun: a resume (see load_prompt)."""
    folder = os.path.dirname(path) or "."
    data = read_bytes(path, "split file")
    labels_path = os.path.join(folder, LABELS_FILE)
    # lexists: a link whose target is gone is a file that should be there, named (parse_labels reads
    # it through read_bytes), never taken for no file: the set would be scored as free text, in silence
    labels = parse_labels(labels_path) if os.path.lexists(labels_path) else None
    older = [] if as_begun else None   # label checks a resume scores as every label check is
    defaults, threshold, checks_data = load_default_checks(os.path.join(folder, CHECKS_FILE), older)
    tools, tool_results, tools_data = load_split_tools(os.path.join(folder, TOOLS_FILE))
    sha = split_sha_of(data, checks_data, tools_data)
    problems, cases, first_line_of, at_fault = [], [], {}, []
    if data.startswith(b"\xef\xbb\xbf"):
        problems.append(f"{shell_word(path)}:1: starts with a byte-order mark (BOM); save it as UTF-8 without BOM")
        data = data[3:]
    for number, where, obj in jsonl_objects(path, data, problems):
        case, case_problems = parse_case(obj, labels, defaults, threshold, (tools, tool_results), older)
        problems.extend(f"{where}: {p}" for p in case_problems)
        case_id = case.get("id") if case is not None else None
        case_id = case_id if isinstance(case_id, str) and case_id else None   # an empty one is said as such
        # one id in two Unicode forms (a precomposed ó, or o and its accent), or with a mark shown as nothing (a
        # variation selector, a tag character), is shown alike: a duplicate
        same = id_as_shown(case_id) if case_id is not None and older is None else case_id
        if same in first_line_of:
            number_first, id_first = first_line_of[same]
            problems.append(f"{where}: duplicate id {case_id!r} (first on line {number_first}" + (
                ")" if id_first == case_id else ", written in another Unicode form)" if unicodedata.normalize("NFC", id_first)
                == unicodedata.normalize("NFC", case_id) else f", {id_first!r}, with a character shown as nothing)"))
            continue
        if case_id is not None:
            first_line_of[same] = (number, case_id)
        if case_problems:
            if case is not None and type(obj.get("vars", {})) is dict:   # its vars can still be read against the prompt
                at_fault.append({"line": number, "vars": obj.get("vars", {}),
                                 **({"context": []} if "context" in case else {})})   # passages there: {{context}} has a value
            continue
        case["line"] = number
        cases.append(case)
    if older is None:   # a check of checks.json with a var mistyped: its file's fault, of the names the cases' vars have
        known = {name for case in cases for name in by_name(case.get("vars", {}))}
        problems += [f"{shell_word(os.path.join(folder, CHECKS_FILE))}: check {number}: {p}" for number, check in enumerate(defaults, 1)
                     if isinstance(check.get("value"), str) for p in unclosed_placeholders(check["value"], "its value", known)]
    if problems and more_problems:
        problems += more_problems(sorted(cases + at_fault, key=lambda c: c["line"]))
    if not data:
        problems.append(f"{shell_word(path)}: no cases (the file is empty)")
    elif labels is None and cases and not problems and not any(case["checks"] for case in cases):
        problems.append(f"{shell_word(path)}: no {LABELS_FILE} beside the split and no checks: nothing would be scored. Add "
                        f"{LABELS_FILE} for a classification set, or checks (in the cases or {CHECKS_FILE}) "
                        "for a free-text set")
    elif labels is None and not problems:   # one case of a free-text set with no checks passed whatever it was sent
        unchecked = [f"{shell_word(path)}:{case['line']}: case {case['id']!r} " + (
                     "has no checks: it would pass whatever the answer. Give it checks (in the case or in "
                     f"{CHECKS_FILE})" if not case["checks"] else
                     "has no check that blocks and no pass_threshold: it would pass whatever the answer (a check with "
                     "\"blocking\": false, or a weight, only counts toward a threshold). Make one blocking, or give a "
                     "pass_threshold") for case in cases if not can_fail(case)]
        if as_begun and unchecked:   # begun before such a case was refused: its answers are kept, the case named
            warn(f"note: {unchecked[0]} (then rescore: report --checks)" + (f"; {len(unchecked) - 1} more such cases"
                                                                            if len(unchecked) > 1 else ""))
        else:
            problems += unchecked
    if problems:   # cut: a split with 10,000 unknown fields said each on a line of its own
        raise EvalError(capped(summarised(path, problems), MOST_PROBLEMS))
    if older:
        warn(f"note: {shell_word(path)}: a label check written non-blocking or weighted ({', '.join(map(on_one_line, dict.fromkeys(older)))}) "
             f"is scored as every label check is, blocking; {LABEL_RULE.split(' (')[0]}: write it so for your next run")
    return cases, labels, sha


# A fault on this many lines or more is said once, with its lines: 28 lines missing a field, not 28
# lines saying so. Two are still named one by one, where a line number says all there is.
SAID_ONCE_FROM = 3


MOST_PROBLEMS = 100   # problems of a file shown at once (a split, checks, tools, context): enough to fix a batch, never thousands


def capped(problems, shown=20):
    """A list of problems, one a line, cut at `shown` with how many more there are."""
    more = len(problems) - shown
    return "\n".join(problems[:shown] + ([f"... and {more} more"] if more > 0 else []))


def summarised(path, problems):
    """`path:N: what` problems with the same `what` on SAID_ONCE_FROM lines or more become one
    `path: 28 lines lack 'difficulty' (lines 1-28)`, where the first of them stood; others stay."""
    prefix, lines_of = f"{shell_word(path)}:", {}
    for problem in problems:
        m = re.fullmatch(r"(\d+): (.*)", problem[len(prefix):], re.S) if problem.startswith(prefix) else None
        if m:
            lines_of.setdefault(m[2], []).append(int(m[1]))
    out = []
    for problem in problems:
        m = re.fullmatch(r"(\d+): (.*)", problem[len(prefix):], re.S) if problem.startswith(prefix) else None
        numbers = lines_of.get(m[2], []) if m else []
        if len(numbers) < SAID_ONCE_FROM:
            out.append(problem)
        elif int(m[1]) == numbers[0]:
            out.append(f"{shell_word(path)}: {many_lines(len(numbers), m[2])} (lines {number_ranges(numbers)})")
    return out


def many_lines(count, what):
    """One problem of many lines, said of all of them."""
    if what.startswith("missing field "):
        return f"{count} lines lack {what[len('missing field '):]}"
    var = re.fullmatch(r"(.*) uses \{\{([^{}]+)\}\} but this case has no vars\.[^{}]+", what, re.S)
    if var:
        return f"{count} lines have no vars.{var[2]}, which {var[1]} uses as {{{{{var[2]}}}}}"
    return f"{count} lines: {what}"


def number_ranges(numbers):
    """[1, 2, 3, 5, 7, 8] as '1-3, 5, 7-8'."""
    runs = []
    for n in numbers:
        if runs and n == runs[-1][1] + 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    return ", ".join(f"{a}" if a == b else f"{a}-{b}" for a, b in runs)


# `init DIR`: a new golden set to fill in, in the shape load_split reads, every file a template that
# says what goes in it. Two example cases, so the first run works and shows what a case holds.
NEW_SET_LABELS = ("bug", "feature", "question")
NEW_SET_CASES = (
    {"id": "dev-01", "input": "The app closes every time I press Save on a new project.", "expected": "bug",
     "difficulty": "easy", "note": "Something that should work does not: rule 1."},
    {"id": "dev-02", "input": "Saving is so slow it feels broken. Could you add an autosave?", "expected": "feature",
     "difficulty": "ambiguous", "note": "Says 'broken', but asks for something the product does not do: rule 2."},
)
NEW_SET_GUIDE = """# Labelling guide

Write this before the cases, so that a doubtful case is labelled by a rule and not by the mood of
the day. Every case's `note` names the rule or reason behind its label. When a new case cannot be
decided with this guide, fix the guide first, then label the case.

## The labels (one a line in labels.txt)

| label | what it means | what has to be done |
|---|---|---|
| `bug` | Something that should work does not. | Fix the product. |
| `feature` | A wish for something the product does not do. | Decide whether to build it. |
| `question` | How to do something the product already does. | Answer it. |

## Rules for the hard cases

1. **Label by what has to be done, not by the words used.**
2. **A wish phrased as a complaint is still a wish** (`feature`), when nothing is broken.

## Difficulty

- `easy`: one label is obvious.
- `ambiguous`: two labels fit; a rule above decides.
- `trap`: the words point to one label, a rule to another.

## Cases

One JSON object a line in dev.jsonl (iterate on it) and, once, test.jsonl (run it at the end):
`id`, `input`, `expected` (a label above), `difficulty`, `note` (why the case exists).
"""
NEW_SET_PROMPT = ("Read the user's message and say which category it belongs to: bug, feature or question.\n\n"
                  "- bug: something that should work does not.\n"
                  "- feature: a wish for something the product does not do.\n"
                  "- question: how to do something the product already does.\n\n"
                  "Answer with the category alone, in lower case.\n")


def prompts_home(split_path):
    """Where a split's prompts belong: under golden/, the folder that mirrors the split's (golden/ ->
    prompts/, golden/support/ -> prompts/support/), always, so `run --split dev` takes the prompt
    `run --help` names; elsewhere the split's own prompts/ folder (mine/cases.jsonl -> mine/prompts/,
    as a set of one's own is laid out)."""
    folder = os.path.dirname(split_path) or "."
    if under_golden(split_path):
        return os.path.normpath(os.path.join(PROMPTS_DIR, os.path.relpath(folder, GOLDEN_DIR)))
    return os.path.normpath(os.path.join(folder, PROMPTS_DIR))


def under_golden(split_path):
    inside = os.path.relpath(os.path.dirname(split_path) or ".", GOLDEN_DIR)
    return inside != os.pardir and not inside.startswith(os.pardir + os.sep)


def new_golden_set(folder):
    """{path: text} of the files `init` writes into folder: guide, labels, example cases, prompt."""
    return {os.path.join(folder, "GUIDE.md"): NEW_SET_GUIDE,
            os.path.join(folder, LABELS_FILE): "".join(l + "\n" for l in NEW_SET_LABELS),
            os.path.join(folder, "dev.jsonl"): "".join(json_text(c) + "\n" for c in NEW_SET_CASES),
            # under golden/ the prompt goes where its splits look for it: prompts/X/, not golden/X/prompts/
            os.path.join(prompts_home(os.path.join(folder, "dev.jsonl")), "v1.txt"): NEW_SET_PROMPT}


def write_golden_set(folder):
    """init: the new set's files, each written whole, after making sure none of them exists (a
    half-made set beside a user's own labels.txt would be worse than none)."""
    if not folder.strip():
        raise EvalError(f"init needs a folder name, like: {program()} init mine")
    files = new_golden_set(folder)
    if os.path.lexists(folder) and not os.path.isdir(folder):
        raise EvalError(f"{shell_word(folder)} exists and is not a folder; init writes a new golden set into a folder")
    taken = [path for path in files if os.path.lexists(path)]
    if taken:
        raise EvalError(f"{shell_word(taken[0])} exists; init never replaces a file, so it wrote nothing (pick a new folder)")
    made, written = [], []   # the folders init makes (one of the user's own is kept), parents first, then its files
    try:
        for path in files:   # the folders first: one that cannot be made (a file by that name) stops it before any file
            missing = []
            folder_path = os.path.dirname(path)
            while folder_path and not os.path.lexists(folder_path):
                missing.insert(0, folder_path)
                folder_path = os.path.dirname(folder_path)
            for folder_path in missing:
                os.mkdir(folder_path)
                made.append(folder_path)
        for path, text in files.items():
            try:
                write_file(path, text)
            except OSError as e:   # a full disk's error names no file
                raise EvalError(f"cannot write {shell_word(path)} ({e.strerror}); init left nothing behind") from None
            written.append(path)
    except BaseException:   # no half-made set is left (these files and folders are init's own, just made)
        for path in written:
            remove_quietly(path)
        for folder_path in reversed(made):
            with contextlib.suppress(OSError):
                os.rmdir(folder_path)
        raise
    return files


def prompt_problems(prompt_path, prompt_text, split_path, cases):
    """Every {{name}} in the prompt needs a value in every case's vars: found before any call."""
    names = sorted(placeholder_names(prompt_text))
    has = [(case, set(by_name(prompt_values(case)))) for case in cases]   # each case's names once, not once a name
    known = set().union(*(named for _, named in has))
    return unclosed_placeholders(prompt_text, shell_word(prompt_path), known) + [f"{shell_word(split_path)}:{case['line']}: {shell_word(prompt_path)} uses {{{{{var_shown(name)}}}}} but this case has "
            + ("no context (its passages, or run --context FILE)" if name == CONTEXT_VAR else f"no vars.{var_shown(name)}")
            for case, named in has for name in names if name not in named]


def prompt_folder(split_path):
    """The folder whose newest prompt a split takes: its prompts_home(); a split outside golden/
    without a prompts/ folder of its own falls back to prompts/, and run warns when that prompt does
    not name its labels (label_mismatch)."""
    home = prompts_home(split_path)
    return home if under_golden(split_path) or os.path.isdir(home) else PROMPTS_DIR


def prompt_labels_path(prompt_path):
    """labels.txt of the set a prompt was written for, the inverse of prompt_folder: DIR/labels.txt
    for DIR/prompts/vN.txt, golden/X/labels.txt for prompts/X/vN.txt; None where there is none."""
    folder = os.path.dirname(prompt_path) or "."
    inside = os.path.relpath(folder, PROMPTS_DIR)
    if inside == ".":
        path = os.path.join(GOLDEN_DIR, LABELS_FILE)
    elif not inside.startswith(".."):
        path = os.path.join(GOLDEN_DIR, inside, LABELS_FILE)
    elif os.path.basename(os.path.normpath(folder)) == PROMPTS_DIR:
        path = os.path.join(os.path.dirname(os.path.normpath(folder)), LABELS_FILE)
    else:
        return None
    return path if os.path.isfile(path) else None


def names_label(text, label):
    """Whether a prompt names a label as a word of its own, matched as answers are (fold)."""
    return re.search(r"(?<!\w)" + re.escape(fold(label)) + r"(?!\w)", fold(text)) is not None


def named_labels(labels, shown=10):
    """Labels in a message: each on one line and cut at 60 characters, the first `shown` of them (a 5 MB
    label was printed whole)."""
    return ", ".join(on_one_line(l, 60) for l in labels[:shown]) + (f" and {len(labels) - shown} more" if len(labels) > shown else "")


def label_mismatch(labels, split_path, prompt_text, prompt_path):
    """A warning when a prompt looks written for another label set: labels of the split it never
    names, and labels of its own set (prompt_labels_path) it names that the split lacks. A prompt
    for four labels asked about two of them scores, without a word, a question nobody asked."""
    if not labels:
        return None
    labels_path = os.path.join(os.path.dirname(split_path) or ".", LABELS_FILE)
    missing = [l for l in labels if not names_label(prompt_text, l)]
    theirs_path = prompt_labels_path(prompt_path)
    try:
        theirs = parse_labels(theirs_path) if theirs_path else []
    except EvalError:
        theirs = []   # another set's broken labels.txt is that set's problem, found when it runs
    folded = {fold(l) for l in labels}
    extra = [l for l in theirs if fold(l) not in folded and names_label(prompt_text, l)]
    if not missing and not extra:
        return None
    said = []
    if missing:
        said.append(f"does not name the {'label' if len(missing) == 1 else 'labels'} {named_labels(missing)} of {shell_word(labels_path)}")
    if extra:
        said.append(f"names {named_labels(extra)}, {'a label' if len(extra) == 1 else 'labels'} {shell_word(labels_path)} does not have")
    return inert(f"warning: {shell_word(prompt_path)} {', and '.join(said)}; is it the prompt for this split? "
                 f"(--prompt PATH, or put one in {shell_word(prompts_home(split_path) + os.sep)})")


def newest_prompt(folder=PROMPTS_DIR):
    """The prompt with the highest version number: prompts/v3.txt beats v2.txt and v10.txt beats v9."""
    try:
        names = os.listdir(folder)
    except FileNotFoundError:
        raise EvalError(f"no {shell_word(folder)}/ folder here; pass --prompt PATH") from None
    except OSError as e:   # there, but not to be listed: said as what it is
        raise EvalError(f"{shell_word(folder)}/: cannot be read ({e.strerror or type(e).__name__}); pass --prompt PATH") from None
    versions = [(int(m.group(1)), name) for name in names
                if (m := re.fullmatch(r"v(\d+)\.txt", name))]
    if not versions:
        raise EvalError(f"no {shell_word(folder)}/v<N>.txt prompt found; pass --prompt PATH")
    return os.path.join(folder, max(versions)[1])


def load_prompt(path, as_begun=False):
    """Returns (text, sha256 of the file's bytes). as_begun: a resume, which asks the rest of its cases
    what its first were asked, under the rules it began with (its prompt's hash is the file's)."""
    data = read_bytes(path, "prompt file")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise EvalError(f"{shell_word(path)}: the prompt is not valid UTF-8") from None
    if text.startswith("\ufeff") and as_begun:   # removed, the hash would change and the answers paid for be asked again
        warn(f"note: {shell_word(path)} starts with a byte-order mark, sent to the model as the run's first answers were; "
             "save it without BOM for your next run")
    elif text.startswith("\ufeff"):   # an editor's mark of UTF-8, not words for the model: it was sent as the prompt's first
        raise EvalError(f"{shell_word(path)}:1: the prompt starts with a byte-order mark (BOM); save it as UTF-8 without BOM")
    if not text.strip():
        raise EvalError(f"{shell_word(path)}: the prompt is empty")
    return text, sha256_bytes(data)


def refuse_names_read_otherwise(config, prompt_text):
    """A run begun by an eval.py that read only ASCII names as placeholders: resumed here, a {{नाम}} it sent as
    written would be filled in the cases left, one run asking two things. Refused if its split or prompt holds one."""
    def sent(value):   # what a placeholder is filled in: an input, a turn's content, a check's value; no note or id
        if isinstance(value, dict):
            return "\n".join([v for k, v in value.items() if k in ("input", "content", "value") and isinstance(v, str)]
                             + [sent(v) for k, v in value.items() if k in ("messages", "checks")])
        return "\n".join(map(sent, value)) if isinstance(value, list) else ""

    def as_read(path):   # each line of a split alone, JSON's escapes read back; a broken line is the load's to name
        text = read_bytes(path, "split file").decode("utf-8", "replace")
        for line in text.split("\n") if path.endswith(".jsonl") else [text]:   # (splitlines broke a line at U+2028)
            with contextlib.suppress(ValueError, RecursionError):
                value = json.loads(line)
                yield sent({"checks": value} if isinstance(value, list) else value)
    folder = os.path.dirname(config["split_path"]) or "."
    texts = [(config["prompt"], prompt_text)] + [
        (path, "\n".join(as_read(path))) for path in
        (config["split_path"], os.path.join(folder, CHECKS_FILE)) if path == config["split_path"] or os.path.lexists(path)]
    for path, text in texts:
        found = next((name for name in PLACEHOLDER.findall(text) if not ASCII_VAR_NAME.fullmatch(name)), None)
        if found is not None:
            raise EvalError(f"refusing to resume: {shell_word(path)} holds {{{{{var_shown(found)}}}}}, which the eval.py that began "
                            "this run sent as written (it read as placeholders only names of ASCII letters, digits and _) and this one fills in: "
                            "finished here, the run would ask its cases two ways. Run it afresh (without --resume)")


def load_inputs(config, more_prompts=(), notes=True, as_begun=False):
    """The split and the prompt a run will use, every problem in them found before any call;
    more_prompts: a grid's other prompts, checked against the same cases before its first run.
    notes=False: the run itself will print its notes. as_begun: a resume (see load_prompt)."""
    prompt_text, prompt_sha = load_prompt(config["prompt"], as_begun)
    if as_begun and config.get("placeholders") != PLACEHOLDER_RULE:
        refuse_names_read_otherwise(config, prompt_text)
    # a split at fault is refused with its prompt's problems too (its cases' vars), in one round
    cases, labels, split_sha = load_split(config["split_path"], lambda cases: prompt_problems(
        config["prompt"], prompt_text, config["split_path"], cases), as_begun)
    split_ids = {c["id"] for c in cases}
    chosen = subset_of(cases, config.get("subset"), config["split_path"])
    context_sha = None
    if config.get("context_path"):
        chosen, context_sha = with_context_file(config["context_path"], chosen, split_ids)
    problems = [p for path in (config["prompt"], *more_prompts)
                for p in prompt_problems(path, prompt_text if path == config["prompt"] else load_prompt(path)[0],
                                         config["split_path"], chosen)]
    problems += [f"{shell_word(config['split_path'])}:{case['line']}: check {c['name']!r} judges against the case's passages, but "
                 "this case has no context (give it, or run --context FILE)"
                 for case in chosen for c in case["checks"] if CHECK_TYPES[c["type"]].needs == "context"
                 and "context" not in case]
    if problems:
        raise EvalError(capped(summarised(config["split_path"], problems), MOST_PROBLEMS))
    if config.get("format") == "schema" and labels is None:
        raise EvalError("--format schema constrains the answer to the labels; this split has no labels.txt")
    if notes and any("context" in c for c in chosen) and CONTEXT_VAR not in placeholder_names(prompt_text):
        warn(f"note: the cases carry passages but {shell_word(config['prompt'])} has no {{{{{CONTEXT_VAR}}}}}: the model never "
             "sees them (its judges do)")
    return Inputs(chosen, labels, split_sha, prompt_text, prompt_sha, whole=len(chosen) == len(cases),
                  context_sha=context_sha)


def subset_of(cases, subset, split_path):
    """run --limit N (the first N cases) or --cases ID,ID (those, in the split's order): a quick
    look, recorded in the run as such. The split's hash stays the whole split's."""
    if not subset:
        return cases
    if "cases" in subset:
        ids = set(subset["cases"])
        unknown = sorted(ids - {c["id"] for c in cases})
        if unknown:
            raise EvalError(f"--cases: {shell_word(split_path)} has no case {', '.join(map(on_one_line, unknown[:5]))}")
        return [c for c in cases if c["id"] in ids]
    return cases[:subset["limit"]]


def with_context_file(path, cases, split_ids):
    """run --context FILE: the cases with the passages FILE gives them (one JSON line per case,
    {"id": ..., "context": [...]}, as the user's retriever wrote it) in place of the split's, and the
    sha256 of FILE's bytes. Every case asked needs its line, so a run never mixes two retrievers;
    a line for a case the split does not have is refused (a retriever run on another split)."""
    data = read_bytes(path, "context file")
    passages, seen, problems = {}, {}, []
    for number, where, obj in jsonl_objects(path, data.removeprefix(b"\xef\xbb\xbf"), problems):
        if type(obj) is not dict or set(obj) != {"id", "context"} or not isinstance(obj["id"], str):
            problems.append(f'{where}: each line must be {{"id": case id, "context": [passages]}}, and nothing else')
            continue
        case_id, found = obj["id"], context_problems({"context": obj["context"]})
        if case_id in seen:
            found.insert(0, f"case {case_id!r} is given twice (first on line {seen[case_id]})")
        elif case_id not in split_ids:
            found.insert(0, f"the split has no case {case_id!r}")
        problems += [f"{where}: {p}" for p in found]
        seen.setdefault(case_id, number)
        passages.setdefault(case_id, obj["context"])
    missing = [c["id"] for c in cases if c["id"] not in seen]
    if missing:
        problems.append(f"{shell_word(path)}: no line for case {', '.join(map(on_one_line, missing[:5]))}" + (" …" if len(missing) > 5 else "")
                        + " (every case asked needs one; write \"context\": [] where the retriever found nothing)")
    if problems:
        raise EvalError(capped(problems, MOST_PROBLEMS))
    return [dict(c, context=passages[c["id"]]) for c in cases], sha256_bytes(data)


def checks_from_split(split):
    """The checks a split (a name or a path, as run --split takes it) defines now, and the threshold
    of their weighted score, for report --checks: rescoring without a model call."""
    cases, _, _ = load_split(resolve_split(split, "--checks")[0])
    return {c["id"]: {"checks": c["checks"], "pass_threshold": c.get("pass_threshold"), "tools": c.get("tools") or [],
                      "asked": {k: c.get(k) for k in ASKED_FIELDS}} for c in cases}


# What a case asks and what a right answer is: a split whose case holds another of these is another
# question, whose checks never score the run's answers (report --checks brings checks, not labels)
ASKED_FIELDS = ("input", "messages", "vars", "expected", "relevant")


def same_questions(path, checks, results):
    """report --checks, judge --checks: each case of the split asks and expects what the run's did;
    the first that does not is named."""
    for r in results:
        field = next((k for k in ASKED_FIELDS if r.get(k) != checks[r["id"]]["asked"][k]), None)
        if field:
            raise EvalError(f"--checks {shell_word(path)}: case {on_one_line(r['id'])} has another {field} there than "
                            "in the run; --checks brings a split's checks, never its questions or answers: run the split again")


def same_cases(path, checks, cases, partial=False):
    """The split's cases are the run's; a partial run's (--limit, --cases) are among the split's."""
    ids = {c["id"] for c in cases}
    only = one_sided(ids - set(checks), set()) if partial else one_sided(set(checks), ids)
    if only:
        raise EvalError(f"--checks {shell_word(path)}: its cases are not the run's ({only} on one side only)")


def same_tools(path, checks, results):
    """report --checks: a split's trajectory checks were validated against the tools the split defines
    now; scored on answers whose model was offered other tools (renamed, redefined, or none) they would
    judge a path it could not take (a tool_not_called of a tool it never had passes). Refused, naming
    the first such case. Checks on the final answer need no tools and are scored whatever they were."""
    for r in results:
        rule = checks[r["id"]]
        offered = r.get("tools") or []
        if offered != rule["tools"] and any(c["type"] in TRAJECTORY for c in rule["checks"]):
            names = [", ".join(on_one_line(t["function"]["name"]) for t in tools) or "none" for tools in (rule["tools"], offered)]
            raise EvalError(f"--checks {shell_word(path)}: case {on_one_line(r['id'])}: its trajectory checks are written for the tools "
                            f"{shell_word(path)} defines now ({names[0]}), but the run's model was offered "
                            f"{'other definitions of them' if names[0] == names[1] else 'other ones'} ({names[1]}); "
                            "run the split again to score its trajectory")


def one_sided(a_ids, b_ids):
    """The ids only one of two sets holds, the first five named (an empty one as ''); "" when the
    sets are equal."""
    only = sorted(a_ids ^ b_ids)
    return ", ".join(repr(i) if not i else on_one_line(i) for i in only[:5]) + (" …" if len(only) > 5 else "")



# ---------------------------------------------------------------------------
# 6. Model clients: Ollama's /api/chat and the OpenAI-compatible /v1/chat/completions, through
#    one requests.Session, with a time limit on each whole request and bounded retries.

def resolve_host(value):
    """Read a host the way the ollama CLI reads OLLAMA_HOST.

    No scheme means http and port 11434; an explicit http:// or https:// without a port
    means 80 or 443; quotes, spaces and trailing slashes are ignored. A host that is neither a
    name nor an address, or a port that is not one, is refused: never another port in silence."""
    value = (value or "").strip().strip("\"'").strip()
    scheme, sep, rest = value.partition("://")
    default_port = "11434"
    if not sep:
        scheme, rest = "http", value
    elif scheme == "http":
        default_port = "80"
    elif scheme == "https":
        default_port = "443"
    elif scheme not in ("http", "https"):
        raise EvalError(f"host {value!r}: only http:// and https:// are supported")
    hostport, _, path = rest.partition("/")
    if "?" in rest or "#" in rest:   # joined to /api/chat, it would ask another URL, or the server would drop it
        raise EvalError(f"host {value!r}: a query (?…) or fragment (#…) is no part of a server's address; give the "
                        "scheme, host, port and path only")
    if "@" in hostport:   # user:password@host: refused as what it is, the password never printed
        where = (f"{scheme}://" if sep else "") + "…@" + hostport.rpartition("@")[2] + (f"/{path}" if path else "")
        raise EvalError(f"host {where!r}: a user name or password in the host is not sent (it would be written in "
                        "the run file); give a key to an OpenAI-compatible server with --api-key")
    if hostport.count("[") != hostport.count("]"):   # a typo Ollama's CLI trims away ("[::1" is [::1]:80): said instead
        raise EvalError(f"host {value!r}: a bracket of an IPv6 address is not closed (or opened): write [::1] or [::1]:11434")
    m = re.fullmatch(r"\[([^\]]*)\]:([^:]*)|([^:\[\]]*):([^:]*)", hostport)
    if m:   # (a port alone, ":1234" or "[]:1234", is this machine's: Go's net.SplitHostPort leaves the host empty,
        # and Go dials an empty host here)
        host, port = (m.group(1), m.group(2)) if m.group(1) is not None else (m.group(3), m.group(4))
        host = host or "127.0.0.1"
    elif hostport.startswith("[") and not re.fullmatch(r"\[[^\[\]]+\]", hostport):   # "[]", "[[]]", "[::1]x"
        raise EvalError(f"host {value!r}: the brackets hold no IPv6 address: write [::1], or a port alone (:11434)")
    else:
        host, port = hostport.strip("[]") or "127.0.0.1", default_port
    if not port:
        port = default_port
    if not port.isdigit() or not 0 < int(port) <= 65535:
        raise EvalError(f"host {value!r}: {port!r} is not a port (a whole number from 1 to 65535)")
    if ":" in host:
        try:
            ipaddress.IPv6Address(host)
        except ValueError:
            raise EvalError(f"host {value!r}: {host!r} is not an IPv6 address") from None
        host = f"[{host}]"
    elif not re.fullmatch(r"[A-Za-z0-9]([A-Za-z0-9_.-]*[A-Za-z0-9])?", host):
        raise EvalError(f"host {value!r}: {host!r} is not a host name or an IP address")
    if CONTROL_CHARS.search(path) or re.search(r"\s", path):   # no URL holds one; kept, every message naming
        raise EvalError(f"host {value!r}: a URL's path holds no space, line break or control character")   # the server would break its line
    path = path.rstrip("/")
    return f"{scheme}://{host}:{port}" + (f"/{path}" if path else "")


class CallFailed(Exception):
    """One request failed. `retry` says whether another attempt may succeed."""

    def __init__(self, reason, retry, wait=None, status=None, body=b""):
        super().__init__(reason)
        self.retry = retry
        self.wait = wait       # seconds the server asked us to wait (Retry-After)
        self.status = status   # the HTTP status, when the server answered
        self.body = body       # what it answered, whole


def error_text(body, reason="", clean=str, headers=None):
    """The server's own words for an HTTP error, from the raw body: Ollama sends {"error": "..."}.
    clean (the API key's removal) sees the words whole, before they are cut short; a body that is
    no JSON read in the charset its Content-Type names (a key in UTF-16 read as UTF-8 was a key with
    a NUL between its letters: no echo of it, and left in the run file). Its first ERROR_WINDOW bytes alone."""
    body = (body or b"")[:ERROR_WINDOW]
    try:
        obj = json.loads(body)
        message = (obj.get("error") or obj.get("detail")) if isinstance(obj, dict) else None
        if isinstance(message, dict):   # OpenAI's {"error": {"message": ..., "type": ...}}
            message = message.get("message")
        if message:
            return inert(clean(str(message)[:ERROR_WINDOW])[:300])
    except (ValueError, RecursionError):
        pass
    return inert(clean((body_text(body, headers) or reason or "").strip())[:200])


def body_text(body, headers=None):
    """A server's body as text, in the charset its Content-Type names where Python knows it, else UTF-8."""
    import codecs
    named = re.search(r"charset=[\"']?([\w.:-]+)", (headers or {}).get("Content-Type") or "", re.IGNORECASE)
    try:   # a codec of bytes to bytes (base64, rot13, zlib) is no charset, and idna takes no "replace"
        codec = codecs.lookup(named.group(1)) if named else None
        return body.decode(codec.name if codec and codec._is_text_encoding else "utf-8", errors="replace")
    except (LookupError, UnicodeError, ValueError):
        return body.decode("utf-8", errors="replace")


def listed_models(listing, key, where, hint, clean=str):
    """The entries of a server's model list (/api/tags' {"models": [...]}, /v1/models' {"data": [...]}):
    a null list is an empty one (Go encodes a slice it never filled as null); an object without it,
    or any other shape, is one line naming the server and what it sent (cleaned of the API key),
    never a TypeError, a text read as names, nor "not pulled" of a server that lists no models at all."""
    if not isinstance(listing, dict) or key not in listing:
        raise EvalError(f"{where} sent {json_preview(listing, clean=clean)}, not an object holding a list of models; {hint}")
    models = listing.get(key)
    if models is None:
        return []
    if type(models) is not list:
        raise EvalError(f"{where} sent {json_text(key)}: {json_preview(models, clean=clean)}, not a list of models; {hint}")
    return [entry for entry in models if isinstance(entry, dict)]


def retry_after(headers):
    try:
        return max(0.0, float(headers.get("Retry-After", "")))
    except ValueError:
        return None


# What of an Authorization header a server may echo back in an error ("Authorization: Bearer
# sk-...", "Bearer sk-..."): removed before any text from a server is stored or printed.
AUTHORIZATION_ECHO = re.compile(r"(?i)(authorization[\"']?\s*[:=]\s*[\"']?)[^\r\n\"',}]*|\bbearer\s+[^\s\"',}]+")


class Deadlines:
    """The time limit on whole requests, for all the workers of a client, kept by one thread: a
    request still running at its deadline has its socket shut down, which wakes the worker
    reading from it. A per-read timeout alone lets a server that sends a byte now and then hold
    a worker for ever; a thread per request to wait on would cost every request two handoffs."""

    def __init__(self):
        self.lock = threading.Condition()
        self.running = {}                  # id -> {"deadline", "sock", "expired"}, one per worker at most
        self.waking_at = None              # the deadline the keeper sleeps until
        self.current = threading.local()   # the request this thread is making, for its socket to join
        self.keeper = None

    def start(self, seconds):
        watched = {"deadline": time.monotonic() + seconds, "sock": None, "expired": False}
        with self.lock:
            self.running[id(watched)] = watched
            if self.keeper is None:
                self.keeper = threading.Thread(target=self.keep, name="eval.py deadlines", daemon=True)
                self.keeper.start()
            if self.waking_at is None or watched["deadline"] < self.waking_at:
                self.lock.notify()
        self.current.watched = watched
        return watched

    def connected(self, sock):
        """Called in the requesting thread with each socket its request opens."""
        watched = getattr(self.current, "watched", None)
        if watched is not None:
            with self.lock:
                watched["sock"] = sock
                if watched["expired"]:
                    shut(sock)

    def finish(self, watched):
        self.current.watched = None
        with self.lock:
            self.running.pop(id(watched), None)

    def keep(self):
        with self.lock:
            while True:
                now = time.monotonic()
                for key, watched in list(self.running.items()):
                    if watched["deadline"] <= now:
                        del self.running[key]
                        watched["expired"] = True
                        shut(watched["sock"])
                if not self.running:   # nothing to watch: the next request starts a keeper again
                    self.keeper = self.waking_at = None
                    return
                self.waking_at = min(w["deadline"] for w in self.running.values())
                self.lock.wait(self.waking_at - now)


def shut(sock):
    """Wake whoever reads from this socket: it reads the end of the stream at once."""
    try:
        if sock is not None:
            sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass   # already closed


def watched_adapter(requests, deadlines):
    """requests' HTTPAdapter, whose connections hand each socket they open to `deadlines`. The
    pools it watches are subclasses of the ones requests gives it (plain, TLS, through a proxy),
    so nothing of the transport is imported beside requests."""
    watched_pools = {}

    def watched(pool):
        if getattr(pool, "watched", False):
            return pool
        if pool not in watched_pools:
            class Connection(pool.ConnectionCls):
                def _new_conn(self):
                    sock = super()._new_conn()
                    deadlines.connected(sock)
                    return sock
            watched_pools[pool] = type(pool.__name__, (pool,), {"ConnectionCls": Connection, "watched": True})
        return watched_pools[pool]

    def watch(manager):
        manager.pool_classes_by_scheme = {scheme: watched(pool) for scheme, pool in manager.pool_classes_by_scheme.items()}
        return manager

    class Adapter(requests.adapters.HTTPAdapter):
        def init_poolmanager(self, *args, **kwargs):
            super().init_poolmanager(*args, **kwargs)
            watch(self.poolmanager)

        def proxy_manager_for(self, proxy, **kwargs):
            return watch(super().proxy_manager_for(proxy, **kwargs))

    return Adapter


# A server echoes the key as it was sent, or as it shows text: URL-encoded (a request line in a log,
# hex in either case, "/" kept or not, "+" for a space and a space for "+"; encoded twice, %252B, through
# a proxy), HTML-escaped (an error page: a named entity, or a numeric one, &#39; &#039; &#x27;; escaped
# twice, &amp;lt;), JSON-escaped inside a body that is not JSON (PHP's "\/", Go's \u003c, .NET's \u002B:
# any character, either case), upper- or lower-cased. A base64-style key ("+", "/", "=")
# differs in each, and a server may mix them; searched for as a list of whole forms, each form missing from
# the list reached the run file. So each character but a letter or digit (which every form keeps as it is)
# matches any form of itself.
KEY_REF_ZEROS = 8   # leading zeros read in a numeric reference (&#00038;): no encoder pads more, and a bound keeps each form's width known
KEY_BREAK_SPACES = 24   # spaces or tabs either side of a break: a block indented in YAML or a nested dump
KEY_INDENT = r"(?:[ \t]|\\t)"   # a space or a tab, as it is or JSON-escaped (json.dumps of a tab-indented block)
KEY_BREAK = re.compile(rf"{KEY_INDENT}{{0,{KEY_BREAK_SPACES}}}(?:\r?\n|\\r\\n|\\n){KEY_INDENT}{{0,{KEY_BREAK_SPACES}}}")   # a log wrapped inside the key, as it is or JSON-escaped
KEY_BREAK_WIDTH = (1, 4 * KEY_BREAK_SPACES + 4)
# the fewest of the key's characters in a row taken for an echo of it (half of a key under twice that): 20
# characters of a random key never come by chance, and an echo of a long key's first 70 was kept whole
KEY_ECHO_LEAST = 20
KEY_EXACT_SECONDS = 2.0   # of one text, to follow a key holding "&", "%" or "\\" through it (KeyEcho.read_spans)
KEY_MISSES_KEPT = 4096   # near echoes remembered by what is around them (KeyEcho.read_spans): a flood's repeats
KEY_BLOCK_PLACES = 3   # places in the key one block is tried at, at most (a key that repeats itself: KeyEcho)
KEY_AMBIGUOUS = "&%\\"   # characters written as themselves at the start of another form of themselves ("&amp;", "%25", "\\\\")


def key_char_forms(c):
    """The forms a server may write one character of the key in: (pattern, fewest and most characters it
    matches), each once, the widest first (one pattern takes the first form that fits: "&" first took the "&"
    of "&amp;", and the echo's end was left). A letter or digit too: a server may escape every character."""
    hex_case = lambda digits: "".join(f"[{d.upper()}{d.lower()}]" if d.isalpha() else d for d in digits)
    utf8 = c.encode("utf-8", "surrogatepass")
    utf16 = c.encode("utf-16-be", "surrogatepass")   # a character past U+FFFF is escaped as its two surrogates
    forms = [("".join(r"\\u" + hex_case(utf16[i:i + 2].hex()) for i in range(0, len(utf16), 2)), 3 * len(utf16), 3 * len(utf16))]
    # URL-encoded once, or twice: two forms apart, never one with an optional part (which gives one length of
    # two, and "%25" in a key then read as "%" written twice cut the key's echo there)
    forms += [("".join(f"{escape}{hex_case(f'{b:02x}')}" for b in utf8), len(escape) * len(utf8) + 2 * len(utf8), len(escape) * len(utf8) + 2 * len(utf8))
              for escape in ("%25", "%")]
    decimal, hexadecimal = str(ord(c)), f"{ord(c):x}"
    html = [(f"#0{{0,{KEY_REF_ZEROS}}}{decimal};", len(decimal) + 2, len(decimal) + 2 + KEY_REF_ZEROS),
            (f"#[xX]0{{0,{KEY_REF_ZEROS}}}{hex_case(hexadecimal)};", len(hexadecimal) + 3, len(hexadecimal) + 3 + KEY_REF_ZEROS)]
    # one name in any case: the pattern ignores case, so &amp; and &AMP; were two ways to match it
    html += [(f"{name};", len(name) + 1, len(name) + 1) for name in dict.fromkeys(n.lower() for n in html_entity_names(c))]
    forms += [(f"&amp;{form}", lo + 5, hi + 5) for form, lo, hi in html] + [(f"&{form}", lo + 1, hi + 1) for form, lo, hi in html]
    # a byte in a string's or a byte string's repr (Python's, C's, JavaScript's): \x73
    forms += [("".join(r"\\x" + hex_case(f"{b:02x}") for b in utf8), 4 * len(utf8), 4 * len(utf8))]
    # a \u escape is the first form's already (twice, it matched two ways)
    forms += [(re.escape(e), len(e), len(e)) for e in {json.dumps(c)[1:-1]} | ({"\\/"} if c == "/" else set())
              if e != c and not e.startswith("\\u")]
    forms += [("\\+", 1, 1)] if c == " " else [(" ", 1, 1)] if c == "+" else []
    forms.sort(key=lambda form: -form[2])   # stable: forms of one width keep the order above
    forms.append((re.escape(c), 1, 1))
    # each form once: two alike ("/" as itself and as its JSON escape) are two ways to match one character,
    # and a near echo of the key cost 2^n tries per start (a hostile server's answer held a run for minutes)
    return list({form[0]: form for form in forms}.values())


@functools.lru_cache(maxsize=None)   # (a pass over HTML's 2,000 names for each character of a key)
def html_entity_names(c):
    import html.entities
    return sorted({name.rstrip(";") for name, value in html.entities.html5.items() if value == c})


def key_blocks(key, size):
    """(start, end) of blocks of the key end to end, none longer than size, each begun by a letter or digit where
    one is near (so the search can skip ahead to it), none shorter than half of size."""
    blocks, start = [], 0
    while start < len(key):
        end = min(len(key), start + size)
        if end < len(key):
            end = next((e for e in range(end, start + (size + 1) // 2, -1) if key[e].isascii() and key[e].isalnum()), end)
        blocks.append((start, end))
        start = end
    return blocks


def key_encodings(key):
    """The key encoded whole, as a server may echo it (a header logged as bytes, a credential made of it: Basic is
    base64 of "user:key"), each with where a character of it begins and ends in the key (in bytes, the key's
    characters for an ASCII key), counting a byte a character holds some bits of: base64 of the key behind 0, 1
    and 2 bytes (so in each of the three ways its bits fall on base64's 6-bit characters in a longer text),
    every character whose bits are all the key's, its first byte and its last included; in the standard and
    the URL-safe alphabet; and hex, plain or with a space or a colon between bytes. In the key's view (lower case: base64's case is lost, and no more than
    that is found by chance in 20 of the key's characters)."""
    raw = key.encode("utf-8")
    encoded = []
    for behind in range(3):   # bits before the key: 0, 8 or 16; its first whole character is the one at or past them
        first, last = -(-8 * behind // 6), 8 * (behind + len(raw)) // 6   # characters [first, last) hold the key's bits alone
        standard = base64.b64encode(bytes(behind) + raw).decode()[first:last]
        at = lambda j, behind=behind, first=first: 6 * (j + first) - 8 * behind   # the key's bit character j begins at
        for text in dict.fromkeys((standard, standard.translate(str.maketrans("+/", "-_")))):
            encoded.append((text.translate(KEY_VIEW), (lambda j, at=at: at(j) // 8, lambda j, at=at: -(-at(j) // 8))))
    encoded.append((raw.hex(), (lambda j: j // 2, lambda j: (j + 1) // 2)))
    for between in " :":   # a dump's bytes (bytes.hex(" "), "73:6b:2d"): a byte is 3 characters, its separator the third
        encoded.append((raw.hex(between), (lambda j: j // 3, lambda j: (j + 1) // 3)))
    return encoded


# What a server writes for one character of text, read back to it to find where an echo of the key may be:
# URL escapes (once or twice), HTML references (numeric or named, escaped once or twice), JSON escapes, and
# a line break (read as nothing), in either case (an echo upper-cased whole: \U0073, &AMP;LT;). Only where to
# look: the key is then followed in the text itself. A key holding a backslash is read a second way too, "\\"
# kept as two (its backslash as itself, then the next character escaped: "\" then "\u0063").
KEY_ESCAPES = r"|%(?:25)?[0-9A-Fa-f]{2}|&(?:amp;)?(?:#(?:0{0,8}[0-9]{1,7}|[xX]0{0,8}[0-9A-Fa-f]{1,6})|[A-Za-z][A-Za-z0-9]{1,31});|\\u[0-9A-Fa-f]{4}|\\x[0-9A-Fa-f]{2}"
# A \x or \u escape inside a JSON string ("\\x73"), or JSON inside that ("\\\\x73", each layer doubles the
# backslashes): a judge's reason, a call's arguments, read from that JSON, is the key's \x form. Read from the
# start of a run of backslashes alone (inside one, it would be tried again at each of them: a flood of
# backslashes read in quadratic time) before "\\" is read as a backslash; not in the reading that keeps "\\" as two.
KEY_ESCAPED_TWICE = r"|(?<!\\)\\{2,}+(?:u[0-9A-Fa-f]{4}|x[0-9A-Fa-f]{2})"
# A line break there too ("\\n", "\\\\n": a key wrapped in a log, quoted in a judge's JSON), its indentation's tabs
# alike, under two to five layers: 2, 4, 8 or 16 backslashes exactly, a whole run of them (an odd run is an escaped
# backslash before an escape: "\\\n" is a backslash, then a break; and tried inside a run, a flood of escaped
# tabs was read in minutes). Read as nothing.
KEY_DEEP_ESCAPE = r"(?<!\\)(?:\\{16}|\\{8}|\\{4}|\\{2})(?!\\)"
KEY_DEEP_INDENT = rf"(?:[ \t]|{KEY_DEEP_ESCAPE}t)"   # (its tabs as deep as its break: one layer of them is KEY_BREAK's)
KEY_DEEP_BREAK = (rf"|{KEY_DEEP_INDENT}{{0,{KEY_BREAK_SPACES}}}{KEY_DEEP_ESCAPE}(?:r{KEY_DEEP_ESCAPE})?n"
                  rf"{KEY_DEEP_INDENT}{{0,{KEY_BREAK_SPACES}}}")
# Every escape or break begins with one of these: looked at there alone (each alternative tried at each letter
# of 1 MiB of JSON cost half its time)
KEY_READ_AT = r"(?=[ \t\\\r\n%&])"
KEY_READINGS = (re.compile(KEY_READ_AT + "(?:" + KEY_BREAK.pattern + KEY_DEEP_BREAK + KEY_ESCAPES + KEY_ESCAPED_TWICE + r"|\\[\\/\"'bfnrt])", re.IGNORECASE),   # a break first: "\n" in an echo is one
                re.compile(KEY_READ_AT + "(?:" + KEY_BREAK.pattern + KEY_ESCAPES + r"|\\[/\"'bfnrt])", re.IGNORECASE),
                # and for a key holding "+": a space beside a line break kept (a "+" form-decoded, then the log wrapped
                # before or after it)
                re.compile(KEY_READ_AT + r"(?:\r?\n|\\r\\n|\\n" + KEY_ESCAPES + KEY_ESCAPED_TWICE + r"|\\[\\/\"'bfnrt])", re.IGNORECASE))
KEY_JSON_ESCAPES = {"b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
# a key's letters in either case, and "+" as a space (form-decoded), read alike: by character, so no length changes
KEY_VIEW = str.maketrans(string.ascii_uppercase + "+", string.ascii_lowercase + " ")


@functools.lru_cache(maxsize=None)
def entities_any_case():
    """HTML's named characters by name in lower case (an echo upper- or lower-cased whole: &HAT; for "^", which
    HTML names "Hat"), the ASCII one where two names differ only in case."""
    import html.entities
    named = {}
    for name, value in html.entities.html5.items():
        if name.endswith(";") and (name.lower() not in named or value.isascii() and not named[name.lower()].isascii()):
            named[name.lower()] = value
    return named


@functools.lru_cache(maxsize=4096)   # a flood of escapes is a few of them many times over
def key_escape_read(escape):
    """The character an escape KEY_READINGS found stands for ("" for a line break), or the escape itself where
    it stands for none (an entity HTML has no name for, a number past Unicode)."""
    if re.fullmatch(KEY_BREAK.pattern + KEY_DEEP_BREAK, escape, re.IGNORECASE):   # "\N" upper-cased too
        return ""
    body = "&" + escape[5:] if escape[:5].lower() == "&amp;" and len(escape) > 5 else escape   # escaped twice
    if body.startswith("%"):
        return chr(int(body[-2:], 16))
    if body.startswith("&#"):
        number = int(body[3:-1], 16) if body[2] in "xX" else int(body[2:-1])
        return chr(number) if number <= sys.maxunicode else escape
    if body.startswith("&"):
        return entities_any_case().get(body[1:].lower(), escape)
    if body[0] == "\\" and body.lstrip("\\")[:1].lower() in ("u", "x"):   # \x73, or inside JSON: \\x73, \\\\x73...
        return chr(int(body.lstrip("\\")[1:], 16))
    return KEY_JSON_ESCAPES.get(body[1].lower(), body[1])


def read_back(text, reading=KEY_READINGS[0]):
    """(the text with each escape read back to its character, letters in lower case and "+" as a space;
    where each part of that reading begins, in it and in the text), to find blocks of the key in."""
    from array import array
    view_at, text_at = array("q", [0]), array("q", [0])   # (8 bytes a mark: lists of ints took 8 GB for 64 MiB of "\\")
    if not re.search(r"[%&\\\n]", text):
        return text.translate(KEY_VIEW), view_at, text_at
    shift, view_mark, text_mark = 0, view_at.append, text_at.append   # shift: how much longer the reading is, so far
    def read(m):
        nonlocal shift
        start, end = m.span()
        char = key_escape_read(m.group())
        view_mark(start + shift)
        text_mark(start)
        shift += len(char) - end + start
        view_mark(end + shift)
        text_mark(end)
        return char
    return reading.sub(read, text).translate(KEY_VIEW), view_at, text_at


def reading_maps(view_at, text_at):
    """From read_back's marks: where the character read at v begins in the text (past a line break read as
    nothing), where the one read before v ends (short of a line break after it), and where in the reading the
    character at t of the text is (or the one it is part of)."""
    def begins(v):
        k = bisect.bisect_right(view_at, v) - 1
        return text_at[k] + v - view_at[k]
    def ends(v):
        k = bisect.bisect_left(view_at, v)
        k = k if k < len(view_at) and view_at[k] == v else k - 1
        return text_at[k] + v - view_at[k]
    def read_at(t):
        k = bisect.bisect_right(text_at, t) - 1
        return min(view_at[k] + t - text_at[k], view_at[k + 1]) if k + 1 < len(view_at) else view_at[k] + t - text_at[k]
    return begins, ends, read_at


def agreeing(alike, most):
    """The largest n up to most for which alike(n) holds, where it holds for every n up to some point (a common
    prefix's length), in as many comparisons of slices as most has bits."""
    low, high = 0, most
    while low < high:
        middle = (low + high + 1) // 2
        low, high = (middle, high) if alike(middle) else (low, middle - 1)
    return low


class KeyEcho:
    """Every form of an API key a server may echo, in any mix, in any case (a server may log it upper-
    or lower-cased: most of the secret all the same), any `least` characters of it in a row (a server
    that shortens it in its message, at either end; an answer cut at its token limit inside an echo),
    broken by line breaks (a log wrapped at its width).

    Any `least` characters of the key in a row hold one of its blocks whole (blocks of half that, end to
    end). So the blocks are looked for, as plain text, in a reading of the text with every escape read back
    to its character (read_back); a pattern of every form of each character searched the text itself at a
    second a megabyte, and one that could try each character two ways (a backslash as itself or as its JSON
    escape) took 2^n tries on a text of backslashes. The blocks are cut from the key as it is, and from the
    key as it reads back (a key holding "%41", echoed as it is, reads "a" there). From each block found, the
    echo is the reading's agreement with the key on and back, for a key that holds no "&", "%" or "\\" (what
    every character of such a key is written as reads back to it, and to nothing else). For one that does,
    the key is followed in the text itself, a character at a time, every form of it from every place the last
    one left ("&amp;" in a key is "&" then "amp;", or "&" written as "&amp;"), where the reading does not
    hold the whole key (a reading may take a character the wrong way). The echo is all it reached if that is
    `least` characters or more. The key encoded whole (base64, hex: key_encodings) is one more text to compare
    the reading with, its blocks looked for alike, and what an echo of it covers counted in the key's characters."""

    def __init__(self, key):
        self.least = min(len(key), max(SECRET_LENGTH, min((len(key) + 1) // 2, KEY_ECHO_LEAST)))
        self.size = (self.least + 1) // 2
        self.forms = [key_char_forms(c) for c in key]
        self.compiled = [[(re.compile(form, re.IGNORECASE), lo, hi) for form, lo, hi in each] for each in self.forms]
        # each character's forms by the character they begin with, and end with, to try only those that can fit
        # (a hex digit's class "[Cc]" ends a form; an escaped character is its pattern's last)
        self.leads, self.trails = [{} for _ in key], [{} for _ in key]
        for leads, trails, each, compiled in zip(self.leads, self.trails, self.forms, self.compiled):
            for (form, _, _), one in zip(each, compiled):
                for index, ends in ((leads, {form[1] if form[0] == "\\" else form[0]}),
                                    (trails, set(hex_class.group(1)) if (hex_class := re.search(r"\[(\w\w)\]$", form)) else {form[-1]})):
                    for case in {case for end in ends for case in (end.lower(), end.upper())}:
                        index.setdefault(case, []).append(one)
        self.runs = {}
        self.key, self.plain = key, not any(c in KEY_AMBIGUOUS for c in key)
        self.readings = [KEY_READINGS[0]] + [KEY_READINGS[1]] * ("\\" in key) + [KEY_READINGS[2]] * ("+" in key)
        # what a reading of an echo is compared with: the key as it is (each character written in some form), and
        # the key as the same reading reads it (the key written as it is, read back), each with where its
        # characters begin and end in the key
        as_is = key.translate(KEY_VIEW)
        self.targets, self.blocks = [], []
        for reading in self.readings:
            read, view_at, text_at = read_back(key, reading)
            targets = [(as_is, (lambda j: j, lambda j: j))] + ([(read, reading_maps(view_at, text_at)[:2])] if read != as_is else [])
            if not self.blocks:   # the key encoded whole (base64, hex) in the first reading alone: its text holds no escape
                self.encoded = range(len(targets), len(targets) + len(encoded := key_encodings(key)) if key.isascii() else len(targets))
                targets += encoded if key.isascii() else []
            # each block once, with its places in each target: all of them where a key holds it twice or three times
            # (an echo holding only its second copy, compared with the key at the first, fell short: kept); where a
            # key repeats itself more, its first, its last and the one with the most room on both sides (trying
            # every place of a block of a key of "x9Y" a thousand times took 45 s a MiB of near echoes)
            places = {}
            for t, (target, _) in enumerate(targets, len(self.targets)):
                for start, end in key_blocks(target, self.size):
                    places.setdefault(target[start:end], []).append((t, start))
            def some(held):
                if len(held) <= KEY_BLOCK_PLACES:
                    return held
                roomiest = max(held, key=lambda place: min(place[1], len(self.targets[place[0]][0]) - place[1]))
                return list(dict.fromkeys([held[0], held[-1], roomiest]))
            self.targets += targets
            self.blocks.append([(block, some(held)) for block, held in places.items()])

    def run(self, i):
        """The key's characters from i on, up to `size` of them, as one pattern, and how many: each a character
        no form of which is the start of another's (a letter or digit, "-", "_", ...), so the pattern has one
        way through; none from a character that has ("&" as itself or as "&amp;": followed one way, the run took
        "&amp;amp;" for the key's "&" and lost the key's "amp;" after it). Made when first wanted."""
        if i not in self.runs:
            ahead = list(itertools.takewhile(lambda j: self.key[j] not in KEY_AMBIGUOUS, range(i, min(len(self.key), i + self.size))))
            self.runs[i] = (re.compile("".join(f"(?:{KEY_BREAK.pattern})?(?:{'|'.join(form for form, _, _ in self.forms[j])})" for j in ahead),
                                       re.IGNORECASE) if ahead else None, len(ahead))
        return self.runs[i]

    def onward(self, text, place, first):
        """How many of the key's characters from `first` on follow `place`, and the furthest end they reach."""
        reach, count, end, i = {place}, 0, place, first
        while i < len(self.forms):
            if len(reach) == 1:
                pattern, taken = self.run(i)
                if pattern and (m := pattern.match(text, next(iter(reach)))):
                    reach, count, end, i = {m.end()}, count + taken, max(end, m.end()), i + taken
                    continue
            reach |= {m.end() for at in reach if text[at:at + 1] in " \t\r\n\\" and (m := KEY_BREAK.match(text, at))}   # a block is before
            leads = self.leads[i]
            reach = {m.end() for at in reach for form, _, _ in (leads.get(text[at:at + 1], ()) if text[at:at + 1].isascii() else self.compiled[i])
                     if (m := form.match(text, at))}
            if not reach:
                break
            count, end, i = count + 1, max(end, *reach), i + 1
        return count, end

    def backward(self, text, place, last):
        """How many of the key's characters before `last` end at `place`, and the earliest start they reach.
        (At most a block's length or so: the block found first is the echo's first whole one.)"""
        ends_here = lambda pattern, lo, hi, at: {s for s in range(max(0, at - hi), at - lo + 1) if pattern.fullmatch(text, s, at)}
        # a break ends in a space, a tab or a line's end: looked for only there (an echo of a block many times over
        # tried every width of it at each)
        breaks_here = lambda at: ends_here(KEY_BREAK, *KEY_BREAK_WIDTH, at) if re.sub(KEY_INDENT + r"*\Z", "", text[max(0, at - 2 * KEY_BREAK_SPACES - 1):at])[-1:] in ("\n", "n") else set()
        reach, count, start = {place}, 0, place
        for i in reversed(range(last)):
            reach |= {s for at in reach for s in breaks_here(at)}   # and a block after
            reach = {s for at in reach for form, lo, hi in (self.trails[i].get(text[at - 1:at], ()) if text[at - 1:at].isascii() else self.compiled[i])
                     for s in ends_here(form, lo, hi, at)}
            if not reach:
                break
            count, start = count + 1, min(start, *reach)
        return count, start

    def spans(self, text):
        """(start, end) of each echo of the key in text, in order; echoes two readings found that overlap, as one."""
        merged = []
        for start, end in sorted(span for r in range(len(self.readings)) for span in self.read_spans(text, r)):
            if merged and start <= merged[-1][1]:
                merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
            else:
                merged.append((start, end))
        return iter(merged)

    def read_spans(self, text, r):
        view, view_at, text_at = read_back(text, self.readings[r])
        begins, ends, read_at = reading_maps(view_at, text_at)
        started = time.monotonic()
        # the next place each block is read, nearest first; a block found inside an echo already taken is looked
        # for again past its end (one by one, each of the blocks of a flood of echoes was every echo's work)
        blocks = self.blocks[r]
        waiting = [(v, n) for n, (block, _) in enumerate(blocks) if (v := view.find(block)) >= 0]
        heapq.heapify(waiting)
        covered = 0
        # a block read where it is no echo, by what the reading holds around it as far as any target reaches: read
        # alike anywhere else (a flood of one near echo, 150,000 copies a MiB, tried each at its every place)
        reach, missed = max(len(target) for target, _ in self.targets), set()
        while waiting:
            v, n = waiting[0]
            block, places = blocks[n]
            if begins(v) >= covered:
                # a key that holds no "&", "%" or "\\" is read back exactly; one that does is followed in the text
                # too, for KEY_EXACT_SECONDS of a text (a flood of near echoes of such a key took minutes a MiB)
                exact = not self.plain and time.monotonic() - started < KEY_EXACT_SECONDS
                around = None if exact else (n, min(v, reach), view[max(0, v - reach):v + len(block) + reach])
                span = None if around in missed else next(filter(None, (
                    self.echo_at(text, view, begins, ends, v, block, t, j, exact and t not in self.encoded) for t, j in places)), None)
                if span is None and around is not None:
                    if len(missed) > KEY_MISSES_KEPT:
                        missed.clear()
                    missed.add(around)
                if span:
                    yield span
                    covered = span[1]
            v = view.find(block, max(v + 1, read_at(covered)))
            if v >= 0:
                heapq.heapreplace(waiting, (v, n))
            else:
                heapq.heappop(waiting)

    def echo_at(self, text, view, begins, ends, v, block, t, j, exact):
        """(start, end) in the text of the echo the block read at v is part of, taken as the block at j of
        target t, if it is `least` of the key's characters or more; else None."""
        target, (key_begins, key_ends) = self.targets[t]
        after, length = v + len(block), len(block)
        on = agreeing(lambda k: view[after:after + k] == target[j + length:j + length + k], len(target) - j - length)
        back = agreeing(lambda k: view[v - k:v] == target[j - k:j], min(j, v))
        first, last = key_begins(j), key_ends(j + length)   # the block's characters of the key
        if not exact or on == len(target) - j - length:   # the reading is the key's echo on
            on, end = key_ends(j + length + on) - last, ends(after + on)
        else:
            on, end = self.onward(text, ends(after), last)
        if not exact or back == j:
            back, start = first - key_begins(j - back), begins(v - back)
        else:
            back, start = self.backward(text, begins(v), first)
        return (start, end) if back + last - first + on >= self.least else None

    def search(self, text):
        return next(self.spans(text), None)

    def sub(self, replacement, text):
        out, at = [], 0
        for start, end in self.spans(text):
            if end > at:
                out += [text[at:max(start, at)], replacement]
                at = end
        return "".join(out) + text[at:]



class ChatClient:
    """How to reach one model server, shared by the workers of a run, and the retry policy every
    API shares. Subclasses say how to list models and how to ask.

    Every call goes through one requests.Session, its pool sized to the workers. Every request
    still has a connection of its own ("Connection: close", and the socket closed after the
    answer): a server that sends a response nobody asked for on a reused connection would have it
    read as the answer to the next request, and nothing in a response says which request it
    answers. Every request has a time limit on the whole exchange (Deadlines), so a server that
    drips bytes costs that request a timeout and nothing more."""

    api = None
    count_names = {}   # each count by the name the server sent it under, for the note on one that is no count
    start_hint = ""
    key_source = "--api-key"   # where the key came from (make_client says), for a server that refuses it

    def __init__(self, host, timeout=DEFAULT_TIMEOUT, retries=DEFAULT_RETRIES, api_key=None, jobs=1):
        try:
            import requests   # imported here so report and compare start without it
        except ImportError as e:   # a Python other than the one it was installed for (a CI job's system python3)
            raise EvalError(f"this command needs the Python package requests, and {sys.executable} cannot import it "
                            f"({e}): install it with `{shlex.quote(sys.executable)} -m pip install -r requirements.txt` "
                            "beside eval.py, or run eval.py with the Python that has it") from None
        import http.cookiejar
        self.requests = requests
        self.host = host
        self.timeout = timeout
        self.retries = retries
        self.api_key = api_key
        self.key_echo = KeyEcho(api_key) if api_key and len(api_key) >= SECRET_LENGTH else None
        self.identities = {}   # model -> what the server said of it at preflight (IDENTITY_FIELDS, model_entry)
        self.names = {}        # model as asked -> as the server lists it, where they differ in case only (Ollama)
        self.capabilities = {}  # model -> what /api/tags says it can do (current Ollama), when it says
        self.counts_refused, self.noting = frozenset(), threading.Lock()   # token and duration fields said to be none (no_count)
        self.session = requests.Session()
        # Proxy settings are read from the environment once, not on every request (requests does
        # that by default, and it costs more than the rest of a request to a local server).
        self.session.trust_env = False
        self.session.proxies = requests.utils.get_environ_proxies(host)
        self.session.cookies.set_policy(http.cookiejar.DefaultCookiePolicy(allowed_domains=[]))   # no state between answers
        self.deadlines = Deadlines()
        pool = watched_adapter(requests, self.deadlines)(pool_connections=1, pool_maxsize=max(1, jobs), max_retries=0)
        self.session.mount("http://", pool)
        self.session.mount("https://", pool)
        self.session.headers = requests.structures.CaseInsensitiveDict(   # these alone, not requests' defaults
            {"User-Agent": f"eval.py/{__version__}", "Content-Type": "application/json", "Connection": "close"})
        if api_key:
            self.session.headers["Authorization"] = f"Bearer {api_key}"   # never stored, never printed

    def scrub(self, text, answer=False):
        """Text from the server without the API key, which a hostile or careless server may echo;
        in anything but an answer, without any Authorization value either. A "key" shorter than
        SECRET_LENGTH is a placeholder ("ollama"), not a secret: searching answers for it would
        rewrite them."""
        if not answer:
            text = AUTHORIZATION_ECHO.sub(lambda m: (m.group(1) or "Bearer ") + "[removed]", text)
        return self.key_echo.sub("[API key removed]", text) if self.key_echo else text

    def scrub_value(self, value):
        """A value of an answer (a tool call) with every text in it scrubbed as an answer is, names and values,
        each as the type it was. (Its JSON text scrubbed, an echo ending in a backslash took the backslash of an
        escaped quote, and the text was no JSON: a traceback, and the paid answer lost.)"""
        root = [None]
        todo = [(value, root, 0)]   # (a value, where its scrubbed copy goes): by a stack, as deep as JSON is read
        while todo:   # (by recursion, arguments 600 levels deep ended the run in a RecursionError)
            item, into, at = todo.pop()
            if isinstance(item, str):
                into[at] = type(item)(self.scrub(item, answer=True)) if type(item) is ArgumentsText else self.scrub(item, answer=True)
            elif isinstance(item, dict):
                names = [self.scrub(k, answer=True) for k in item]
                into[at] = copy = dict.fromkeys(names)   # (in order: of two names scrubbed alike, the later value stands)
                if len(copy) < len(names):
                    todo.extend(reversed(list(zip(item.values(), itertools.repeat(copy), names))))
                    continue
                for name, v in zip(names, item.values()):   # a plain value at once: a wide answer is many of them
                    if isinstance(v, (dict, list)) or isinstance(v, str):
                        todo.append((v, copy, name))
                    else:
                        copy[name] = v
            elif isinstance(item, list):
                into[at] = copy = [None] * len(item)
                for i, v in enumerate(item):
                    if isinstance(v, (dict, list, str)):
                        todo.append((v, copy, i))
                    else:
                        copy[i] = v
            else:
                into[at] = item
        return root[0]

    def get_json(self, path, body=None):
        """(status, JSON body or None, response headers) of a quick GET (a POST of body, where the API
        asks with one: /api/show), for the checks before a run."""
        try:
            status, reason, headers, data = self.request("GET" if body is None else "POST", path,
                                                         None if body is None else json.dumps(body).encode(),
                                                         PREFLIGHT_TIMEOUT)
        except (TimeoutError, self.requests.exceptions.ReadTimeout) as e:   # it took the request, and sat on it
            raise EvalError(f"the model server at {self.host} gave no answer to {path} within {PREFLIGHT_TIMEOUT:g} s "
                            f"({type(e).__name__}): something there took the request and sent nothing back: a server "
                            "stuck (restart it), or not a model server at all") from None
        except (OSError, ValueError, self.requests.exceptions.RequestException) as e:
            raise EvalError(f"cannot reach the model server at {self.host} ({type(e).__name__}).\n"
                            f"{self.start_hint}") from None
        if 300 <= status < 400:
            raise EvalError(f"{self.host}{path} {self.redirect_text(status, headers)}")
        if status != 200:
            return status, None, headers
        try:
            answer = loose_json(data)
        except (ValueError, RecursionError):
            raise EvalError(f"{self.host}{path} answered with something that is not JSON; "
                            f"is --host pointing at an {self.api} server?") from None
        # a key given twice is neither value (another version, other models), as in every answer; a
        # NaN figure is only unknown (a Python server sends one), and kept plain values drop it
        problem = inexact_problem(answer, numbers=False)
        if problem:
            raise EvalError(f"{self.host}{path} answered with JSON that is not JSON as JSON is: {self.scrub(problem)}")
        return 200, answer, headers

    def redirect_text(self, status, headers):
        return (f"answered HTTP {status}, a redirect to {self.scrub(headers.get('Location') or '(nowhere)')!r}; "
                "eval.py does not follow redirects, so an answer is never credited to the wrong server: "
                "point --host at where the server really is")

    def request(self, method, path, data, seconds):
        """One request within `seconds`, from the first byte sent to the last byte read:
        (status, reason, headers, body). Raises what requests raises, TimeoutError, or
        ValueError for a body over MAX_BODY."""
        watched = self.deadlines.start(seconds)
        try:
            answer = self.exchange(method, path, data, seconds)
        except self.requests.exceptions.ConnectTimeout:   # no connection ever made: nothing there answered
            raise
        except Exception:
            # Past the deadline, whatever broke the request is its time running out: requests reports
            # a read timeout in the middle of a body as a ConnectionError, and on a busy machine the
            # read timeout can fire before the keeper has marked the request expired.
            if watched["expired"] or time.monotonic() >= watched["deadline"]:
                raise TimeoutError from None
            raise
        finally:
            self.deadlines.finish(watched)
        if watched["expired"]:   # a body without a length ends where the deadline cut it: not an answer
            raise TimeoutError
        return answer

    def exchange(self, method, path, data, seconds):
        with self.session.request(method, self.host + path, data=data, timeout=seconds,
                                  allow_redirects=False, stream=True) as r:
            # The socket is taken from its connection before the body is read: the pool gets back
            # a connection without one, which it replaces, and the socket closes here after the answer.
            connection, sock = r.raw.connection, None
            if connection is not None:
                sock, connection.sock = connection.sock, None
            try:
                chunks, size = [], 0
                for chunk in r.iter_content(1 << 16):   # requests' own errors, where r.raw raises urllib3's
                    chunks.append(chunk)
                    size += len(chunk)
                    if size > MAX_BODY:
                        raise ValueError(f"the server's answer is over {MAX_BODY >> 20} MiB")
                return r.status_code, r.reason, r.headers, b"".join(chunks)
            finally:
                if sock is not None:
                    sock.close()

    def post(self, path, body, model):
        """POST, turning every way it can fail into a CallFailed that says whether to retry."""
        errors = self.requests.exceptions
        try:
            status, reason, headers, data = self.request("POST", path, json.dumps(body).encode(), self.timeout)
        except (errors.Timeout, TimeoutError):
            raise CallFailed(f"no answer within {self.timeout:g} s (timeout)", retry=True) from None
        except ValueError as e:
            raise CallFailed(str(e), retry=True) from None
        except (errors.RequestException, OSError) as e:
            raise CallFailed(f"connection failed ({type(e).__name__})", retry=True) from None
        if 300 <= status < 400:
            raise CallFailed(self.redirect_text(status, headers), retry=False)
        if status != 200:
            why = f"HTTP {status}: {error_text(data, reason, self.scrub, headers)}"
            if status == 400 and self.api == "ollama" and re.search(rb"exceeds the (available )?context", data or b""):
                why += f": {WINDOW_TOO_SMALL}; raise it (--option num_ctx=N)"
            if status == 404 and self.api == "ollama":
                why += f" (run `ollama pull {shell_word(model)}`)"
            # a 500 that names an option of the wrong type (api/types.go FromMap: 'must be of type
            # array', 'must be of an array of strings') fails every time
            transient = (status == 429 or status >= 500) and b"must be of " not in (data or b"")
            raise CallFailed(why, retry=transient, wait=retry_after(headers) if transient else None,
                             status=status, body=data)
        try:
            answer = self.arguments_as_sent(loose_json(data))
            if nesting_past(answer, MAX_ANSWER_NESTING):
                raise RecursionError
        except UnicodeDecodeError as e:   # its start, shown, looks like JSON: the byte at fault said
            raise CallFailed(f"the server's answer was not UTF-8 (byte {e.start + 1} of {len(data)} is 0x{data[e.start]:02x}), "
                             "as JSON is", retry=True) from None
        except RecursionError:   # valid JSON, perhaps, but deeper than Python reads: no answer any model writes
            raise CallFailed(f"the server's answer was JSON nested too deeply to read (deeper than {MAX_ANSWER_NESTING} "
                             "levels)", retry=True) from None
        except ValueError:
            # what it was, so a stream (text/event-stream), a proxy's page or noise can be told apart
            begins = f"it begins {one_line(error_text(data, '', self.scrub, headers), 80)}" if (data or b"").strip() else "it was empty"
            raise CallFailed(f"the server's answer was not JSON (Content-Type {one_line(self.scrub(headers.get('Content-Type') or 'none'), 60)}; "
                             f"{begins})", retry=True) from None
        # a key given twice says two things: the server's answer is neither (a NaN figure is unknown)
        problem = inexact_problem(answer, numbers=False)
        if problem:
            raise CallFailed(f"the server's answer was not JSON as JSON is: {self.scrub(problem)}", retry=True)
        if isinstance(answer, dict) and "error" in answer and not {"message", "choices"} & set(answer):
            # an error sent with status 200: keep the server's own words
            raise CallFailed(f"HTTP 200 with an error: {error_text(data, reason, self.scrub, headers)}", retry=True)
        return answer

    def load(self, model, options):
        """Load the model before the first case, so that no case is charged for it; None where the
        API has no way to (an OpenAI-compatible server loads at start)."""
        return None

    @staticmethod
    def arguments_as_sent(answer):
        """A loose_json answer, where the API sends a call's arguments inside the body (Ollama), with
        arguments JSON has no room for (a key given twice, NaN, 1e999) kept as the text they were
        sent as, an ArgumentsText: read then as an OpenAI call's string is (read_arguments), neither
        value of the key, no number JSON lacks, so one model output scores the same over both APIs
        and the run file stays JSON. OpenAI's arguments are a string already."""
        return answer


    @staticmethod
    def read_tool_calls(calls, arguments_type):
        """A message's tool_calls as eval.py stores them, [{"id", "name", "arguments"}], each as the
        server sent it; [] for none. Raises CallFailed for calls that are not calls."""
        if calls is None:
            return []
        problem = ChatClient.tool_calls_problem(calls, arguments_type)
        if problem:
            raise CallFailed(f"the server's answer had tool_calls that are not calls: {problem}", retry=True)
        return [{"id": c.get("id"), "name": c["function"]["name"], "arguments": c["function"].get("arguments", {})}
                for c in calls]

    @staticmethod
    def tool_calls_problem(calls, arguments_type):
        """Which call of a server's tool_calls is not one eval.py can answer, and why, or None: each an
        object with a function {name: text, arguments: arguments_type} and an id that is text or absent
        (an OpenAI "custom" call has no function: its type is named)."""
        if not isinstance(calls, list):
            return f"tool_calls is {json_kind(calls)}, not a list"
        for number, c in enumerate(calls, 1):
            if not isinstance(c, dict):
                return f"call {number} is {json_kind(c)}, not an object"
            function = c.get("function")
            if not isinstance(function, dict):
                kind = f" (its type is {one_line(json_text(c['type']), 30)})" if "type" in c else ""
                return f"call {number} has no function object{kind}"
            if not isinstance(function.get("name"), str):
                return f"call {number}'s function.name is {json_kind(function.get('name'))}, not text"
            arguments = function.get("arguments", {})
            if "arguments" not in function and arguments_type is not dict:   # Ollama's may be left out: {}
                return f"call {number}'s function has no arguments"
            if not isinstance(arguments, arguments_type) and type(arguments) is not ArgumentsText:
                return (f"call {number}'s function.arguments is {json_kind(arguments)}, "
                        f"not {'an object' if arguments_type is dict else 'a JSON string'}")
            if not isinstance(c.get("id", ""), (str, type(None))):
                return f"call {number}'s id is {json_kind(c['id'])}, not text"
        return None

    def no_count(self, key, value):
        """None for a figure the server sent that cannot be one ("12" tokens, -1000000 tokens, 2.5
        tokens, a duration below 0), or a text that is none (thinking of 5): kept out of the figures and the
        run, and said once per field, with what was sent, so that totals and rates short of it are not read
        as whole, nor an answer as one without thinking."""
        if key in COUNT_FIELDS:
            sent, what, figures = self.count_names.get(key, key), "count (a whole number of 0 or more)", "token figures"
        elif key.endswith("_duration_ns"):   # a server's duration: nanoseconds (Ollama's time.Duration, an int64)
            sent, what, figures = key[:-len("_ns")], "duration (nanoseconds, 0 to 2^53)", "speed figures"
        elif key in TEXT_FIELDS:   # thinking of 5, a finish reason of a list: no words of the model's, yet said
            sent, what, figures = key, "text", "run file"
        else:
            return None
        with self.noting:
            said, self.counts_refused = key in self.counts_refused, self.counts_refused | {key}
        if not said:
            shown = self.scrub(json_text(value))   # (text, or a list of it, may hold the key a server echoed)
            warn(f"note: {self.host} sent {sent} {on_one_line(shown, 40)}, which is no {what}: kept out of the "
                 f"{figures} ({key}), as are any more like it")
        return None

    def chat(self, model, messages, options, fmt=None, think=THINK_DEFAULT, tools=None):
        """Ask once, retrying transient faults. Never raises: a failure comes back as `error`. With
        tools, the answer may hold tool_calls ([{"id", "name", "arguments"}], as the server sent them)."""
        for attempt in range(self.retries + 1):
            started = time.monotonic()
            try:
                answer = self.chat_once(model, messages, options, fmt, think, tools)
            except CallFailed as failure:
                if not failure.retry or attempt == self.retries:   # (a message may quote what the server sent: a key it echoed)
                    return {"response": None, "error": self.scrub(str(failure)), "attempts": attempt + 1}
                time.sleep(backoff(attempt, failure.wait))
                continue
            answer = {k: v if answer_problem({k: v}) is None else self.no_count(k, v) for k, v in answer.items()}   # "12" tokens: unknown
            answer.update({k: int(answer[k]) for k in COUNT_FIELDS if type(answer.get(k)) is float})   # 4096.0 is 4096
            # the model's words (its answer, its thinking) as written; the server's, without anything like a credential
            answer = {k: self.scrub(v, answer=k in ("response", "thinking")) if isinstance(v, str) else v for k, v in answer.items()}
            # metadata cut once scrubbed: cut first, a key it echoes would be cut past the scrub's reach, and kept in part
            answer.update({k: entry_text(answer.get(k)) for k in ("done_reason", "system_fingerprint") if k in answer})
            if answer.get("tool_calls"):   # what a model wrote into a call, as into an answer: no key in it
                answer["tool_calls"] = self.scrub_value(answer["tool_calls"])
            answer.update(error=None, attempts=attempt + 1,
                          latency_ms=round((time.monotonic() - started) * 1000, 1))
            return answer


class OllamaClient(ChatClient):
    """Ollama's own API: /api/tags, /api/version, /api/chat."""

    api = "ollama"
    start_hint = "Start it with `ollama serve`, or point --host (or $OLLAMA_HOST) at it."
    count_names = {"prompt_tokens": "prompt_eval_count", "completion_tokens": "eval_count"}   # api/types.go Metrics

    def preflight(self, model):
        """Before the first case: is the server there, and is the model pulled? Returns its version."""
        status, tags, _ = self.get_json("/api/tags")
        hint = "is --host pointing at an Ollama server? (--api openai for other servers)"
        if status != 200:
            raise EvalError(f"{self.host}/api/tags answered HTTP {status}; {hint}")
        names, entries = set(), {}
        for entry in listed_models(tags, "models", f"{self.host}/api/tags", hint, self.scrub):
            for k in ("name", "model"):
                if entry.get(k) and type(entry[k]) is str:   # a number or a list names no model to ask for
                    names.add(entry[k])
                    entries.setdefault(entry[k], entry)
        wanted = tagged(model)
        alike = sorted({tagged(n) for n in names if tagged(n).casefold() == wanted.casefold()})
        if len(alike) > 1:   # getExistingName takes each part from whichever manifest its map walk meets last
            raise EvalError(f"model {model!r}: {self.host} lists {names_text(alike, self.scrub)}, which differ only in "
                            "case, and Ollama may answer any of them with either; remove all but one "
                            "(`ollama rm`), or `ollama cp` one to a name of its own and ask for that")
        if model not in names and wanted not in names:
            # Ollama serves a name whose parts match one it has ignoring case (server/routes.go,
            # getExistingName: strings.EqualFold part by part): Qwen2.5:7B is qwen2.5:7b
            wanted = next((n for n in sorted(names) if tagged(n).casefold() == wanted.casefold()), wanted)
            if wanted in names:
                self.names[model] = wanted
        if model not in names and wanted not in names:
            raise EvalError(f"model {model!r} is not pulled on {self.host}.\n"
                            f"Run `ollama pull {shell_word(model)}`, or pick one it has: {names_text(sorted(names), self.scrub)}.")
        entry = entries.get(model) or entries.get(wanted)
        self.identities[model] = self.identity(entry)
        capabilities = entry.get("capabilities")   # api/types.go ListModelResponse, in current versions
        if not isinstance(capabilities, list):   # else /api/show's (ShowResponse), where the server has them
            try:
                status, shown, _ = self.get_json("/api/show", {"model": wanted if wanted in names else model})
            except EvalError:
                status, shown = None, None
            capabilities = shown.get("capabilities") if status == 200 and isinstance(shown, dict) else None
        if isinstance(capabilities, list):
            # scrubbed as they come, as every text a server sends: a server that echoes the key among them
            # had it printed by the refusal that names what the model can do
            self.capabilities[model] = [self.scrub(str(c)) for c in capabilities]
        status, version, _ = self.get_json("/api/version")
        version = version.get("version") if status == 200 and isinstance(version, dict) else None
        return self.scrub(version) if isinstance(version, str) else None

    def load(self, model, options):
        """Ollama loads a model on a chat with no messages, and answers nothing. The load is timed
        and recorded; if it fails, the run goes on and the first case carries the load. It is sent
        the run's options: Ollama loads again a model asked with other runner options (num_ctx)."""
        started = time.monotonic()
        try:
            data = self.post("/api/chat", {"model": model, "messages": [], "stream": False, "options": options}, model)
        except CallFailed as failure:
            if failure.status == 404:   # listed, but its files are gone (server/routes.go handleScheduleError)
                raise EvalError(f"{on_one_line(model)} is listed on {self.host} but cannot be loaded ({on_one_line(failure)}); every case "
                                f"would fail the same way. Pull it again: `ollama pull {shell_word(model)}`") from None
            if failure.status == 500 and b"must be of " in (failure.body or b""):
                # an option Ollama refuses (api/types.go FromMap), as a run started before they were
                # checked may hold: every case would be refused the same way
                raise EvalError(f"{self.host} refuses the run's options ({on_one_line(failure)}); every case would fail the "
                                "same way. Run again with the option written as Ollama takes it") from None
            warn(f"note: loading {on_one_line(model)} before the first case failed ({on_one_line(failure)}); the first answers' "
                 "latency may include the load")
            return None
        # only the wall time: Ollama answers a load with no metrics at all (server/routes.go, ChatHandler:
        # no messages -> a ChatResponse of model, created_at, message, done and done_reason "load")
        return {"ms": round((time.monotonic() - started) * 1000, 1)}

    def window(self, model, options):
        """The window the loaded model's runner holds, from /api/ps (api/types.go
        ProcessModelResponse.ContextLength, since v0.9.7), or None where the server does not say.
        Ollama lowers a num_ctx past the model's training context to it (server/sched.go
        effectiveContext, since v0.9.3) without a word: the run says so."""
        try:
            status, ps, _ = self.get_json("/api/ps")
        except EvalError:
            return None
        entries = ps.get("models") if status == 200 and isinstance(ps, dict) else None
        wanted = tagged(model).casefold()
        found = [e.get("context_length") for e in entries if isinstance(e, dict)
                 and any(tagged(str(e.get(k))).casefold() == wanted for k in ("name", "model") if e.get(k))] \
            if isinstance(entries, list) else []
        # several entries that disagree (another model's runner, a proxy's merge): none is the answer
        window = found[0] if found and len(set(map(repr, found))) == 1 and type(found[0]) is int \
            and 0 < found[0] < 2 ** 63 else None
        asked = options.get("num_ctx")
        if window and type(asked) is int and window < asked:
            warn(f"note: {on_one_line(model)} runs with a window of {window} tokens on {self.host}, not the num_ctx={asked} "
                 "asked: Ollama lowers it to the context the model was trained on, and cuts a longer prompt "
                 "to fit without an error")
        return window

    def identity(self, entry):
        """The model as /api/tags describes it: its digest changes when it is re-pulled or replaced."""
        details = entry.get("details") if isinstance(entry.get("details"), dict) else {}
        found = (entry.get("digest"), details.get("family"), details.get("parameter_size"),
                 details.get("quantization_level"))
        # cut as a /v1/models entry's values are: a 5 MB "digest" made a 5 MB run file
        return {k: self.scrub(v)[:ENTRY_TEXT] if isinstance(v, str) and v else None for k, v in zip(IDENTITY_FIELDS, found)}

    def chat_once(self, model, messages, options, fmt=None, think=THINK_DEFAULT, tools=None):
        body = {"model": model, "stream": False, "options": options, "messages": messages}
        if fmt is not None:
            body["format"] = fmt
        if think != THINK_DEFAULT:
            body["think"] = think
        if sum(m.get("role") != "system" for m in messages) > 1:
            # a conversation that does not fit the window: Ollama would drop its earlier turns without a
            # word (server/prompt.go chatPrompt), which no count can show; asked not to truncate (since
            # v0.12.6, api/types.go ChatRequest.Truncate) it refuses instead, and the case says why
            body["truncate"] = False
        if tools:
            body["tools"] = tools   # api/types.go ChatRequest.Tools
        data = self.post("/api/chat", body, model)
        try:
            content = data["message"]["content"]
            if not isinstance(content, str):
                raise TypeError
        except (KeyError, TypeError):
            raise CallFailed("the server's answer had no message.content", retry=True) from None
        # done_reason "load" or "unload" answers a request with no messages (server/routes.go ChatHandler), and done
        # false is one piece of a stream (the answer to "stream": false is the last, done): neither is the model's answer
        if data.get("done_reason") in ("load", "unload"):
            raise CallFailed(f"the server answered as to a request with no messages (done_reason {data['done_reason']!r}), "
                             "not with the model's answer", retry=True)
        if data.get("done") is False:
            raise CallFailed('the server\'s answer says it is not done ("done": false): a piece of an answer, not all of it', retry=True)
        if "done" in data and type(data["done"]) is not bool:   # Ollama's is a bool (api/types.go ChatResponse.Done)
            raise CallFailed(f"the server's answer has \"done\": {cut_to(on_one_line(json_text(data['done'])), 40)}, which is "
                             "neither true nor false: no telling whether it is the whole answer", retry=True)
        # api/types.go Message.ToolCalls: [{"id"?, "function": {"index", "name", "arguments": an object}}]
        calls = {"tool_calls": self.read_tool_calls(data["message"].get("tool_calls"), dict)} if tools else {}
        return {**calls, 
            "response": content,
            "prompt_tokens": data.get("prompt_eval_count"),
            "completion_tokens": data.get("eval_count"),
            "total_duration_ns": data.get("total_duration"),
            "load_duration_ns": data.get("load_duration"),
            "prompt_eval_duration_ns": data.get("prompt_eval_duration"),
            "eval_duration_ns": data.get("eval_duration"),
            "done_reason": data.get("done_reason"),
            "thinking": data["message"].get("thinking"),
        }

    @staticmethod
    def arguments_as_sent(answer):
        message = answer.get("message") if isinstance(answer, dict) else None
        calls = message.get("tool_calls") if isinstance(message, dict) else None
        for call in calls if isinstance(calls, list) else ():
            function = call.get("function") if isinstance(call, dict) else None
            # an object only: arguments that are NaN are no object, refused as a number is
            if isinstance(function, dict) and isinstance(function.get("arguments"), dict) \
                    and inexact_problem(function["arguments"]):
                function["arguments"] = ArgumentsText(as_sent(function["arguments"]))
        return answer

    @staticmethod
    def wire(transcript):
        """An agent's transcript as Ollama takes it back (docs/api.md, "Chat request (With history, with
        tools)"): the assistant's calls with their arguments as objects, each result as a tool message
        naming its tool (api/types.go Message.ToolName; and ToolCallID where the call had an id)."""
        messages = []
        for m in transcript:
            if m["role"] == "assistant":
                turn = {"role": "assistant", "content": m.get("content") or ""}
                if m.get("tool_calls"):
                    turn["tool_calls"] = [{**({"id": c["id"]} if c.get("id") else {}),
                                           "function": {"name": c["name"], "arguments": call_arguments(c) or {}}}
                                          for c in m["tool_calls"]]
                messages.append(turn)
            else:
                messages.append({"role": "tool", "content": m["content"], "tool_name": m["name"]})
        return messages


OPENAI_RENAMED = {"num_predict": "max_tokens"}   # Ollama option names people already use
ANSWER_CAPS = ("num_predict", "max_tokens", "max_completion_tokens")   # the options that cap an answer's tokens


def response_format(fmt, schema_form):
    """The OpenAI `response_format` for --format json, or for a schema in the given form."""
    if fmt == "json":
        return {"type": "json_object"}
    if schema_form == "json_object":
        return {"type": "json_object", "schema": fmt}
    return {"type": "json_schema", "json_schema": {"name": "answer", "schema": fmt, "strict": True}}


# Content as a list of parts: which kinds eval.py reads, into the answer or the reasoning, and the
# key of each that holds its text. The Chat Completions schema's assistant content parts are text and
# refusal; Mistral's API sends a reasoning model's answer as a ThinkChunk ({"type": "thinking",
# "thinking": [text chunks], "closed": ...}) beside TextChunks (its OpenAPI spec).
CONTENT_PARTS = {"text": ("answer", "text"), "refusal": ("answer", "refusal"), "thinking": ("thinking", "thinking")}


def part_text(value):
    """The text of a part's value: a text, or a list of text chunks ({"type": "text", "text": ...})."""
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(c, dict) and isinstance(c.get("text"), str) for c in value):
        return "".join(c["text"] for c in value)
    return None


def content_parts(parts, clean=str):
    """(answer, reasoning or None) of a message whose content is a list of parts: the text of its text
    and refusal parts, and of its thinking parts, each joined as sent. A part of any other kind (an
    image, a citation) is never dropped without a word: CallFailed showing it (cleaned of the API key),
    not retried, since a server that answers so answers so again."""
    said = {"answer": [], "thinking": []}
    for part in parts:
        where, key = CONTENT_PARTS.get(part.get("type") if isinstance(part, dict) else None, (None, None))
        text = part_text(part.get(key)) if where else None
        if text is None:
            raise CallFailed("choices[0].message.content is a list of parts, and eval.py reads only "
                             f"{', '.join(list(CONTENT_PARTS)[:-1])} and {list(CONTENT_PARTS)[-1]} ones, not "
                             f"{json_preview(part, 100, clean)}", retry=False)
        said[where].append(text)
    return "".join(said["answer"]), "".join(said["thinking"]) or None


class OpenAIClient(ChatClient):
    """The OpenAI-compatible API that llama.cpp's server, llama-cpp-python, vLLM, LM Studio and
    Ollama itself speak: /v1/models and /v1/chat/completions."""

    api = "openai"
    start_hint = "Start the server, or point --host at its base URL (e.g. http://127.0.0.1:8000)."
    count_names = {"prompt_tokens": "usage.prompt_tokens", "completion_tokens": "usage.completion_tokens",
                   "thinking_tokens": "usage.completion_tokens_details.reasoning_tokens"}
    schema_form = "json_schema"   # until choose_schema_form finds what the server takes

    def __init__(self, host, *args, **kwargs):
        super().__init__(host if host.rstrip("/").endswith("/v1") else host.rstrip("/") + "/v1", *args, **kwargs)

    def preflight(self, model):
        """Is the server there, and does it serve the model? Returns what it says it is."""
        status, listing, headers = self.get_json("/models")
        if status in (401, 403):
            raise EvalError(f"{self.host}/models answered HTTP {status}: " + (
                f"the server refused the API key in {self.key_source}: check it, and that it is one for this server"
                if self.api_key else "the server wants an API key (--api-key or $OPENAI_API_KEY)"))
        hint = "is --host the base URL of an OpenAI-compatible server?"
        if status != 200:
            raise EvalError(f"{self.host}/models answered HTTP {status}; {hint}")
        served = [m for m in listed_models(listing, "data", f"{self.host}/models", hint, self.scrub)
                  if type(m.get("id")) is str]
        ids = [m["id"] for m in served]
        # Ollama's /v1 lists "name:latest" and serves it as "name", as its own API does
        if model not in ids and tagged(model) not in ids:
            raise EvalError(f"model {model!r} is not served by {self.host}; it serves: {names_text(ids, self.scrub)}")
        entry = next(m for m in served if m["id"] in (model, tagged(model)))
        # all an OpenAI-compatible server says of a model: its /v1/models entry, kept as it came. Its
        # plain values only; the key is scrubbed from their names as from the values (a server may
        # echo it as a name: {"Bearer sk-...": 1}), and each is cut short only after, or half a key stays.
        self.identities[model] = {"model_entry": {
            self.scrub(str(k))[:ENTRY_TEXT]: self.scrub(v)[:ENTRY_TEXT] if type(v) is str else v for k, v in entry.items()
            if type(v) is str or type(v) in (int, float, bool) and abs(v) < inf}}
        return self.scrub(headers["Server"]) if isinstance(headers.get("Server"), str) else None

    def chat_once(self, model, messages, options, fmt=None, think=THINK_DEFAULT, tools=None):
        body = {"model": model, "messages": messages, "stream": False}
        body.update({OPENAI_RENAMED.get(k, k): v for k, v in options.items()})
        if fmt is not None:
            body["response_format"] = response_format(fmt, self.schema_form)
        if tools:
            body["tools"] = tools
        data = self.post("/chat/completions", body, model)
        calls = {}
        try:
            # the choice of index 0 (OpenAI numbers each choice; a server may list them in another order)
            choice = next((c for c in data["choices"] if isinstance(c, dict) and c.get("index") == 0), data["choices"][0])
            message = choice["message"]   # llama.cpp and vLLM send reasoning apart as reasoning_content
            content = message["content"]
            thinking = message.get("reasoning_content") or message.get("reasoning")
            if tools:   # OpenAI: [{"id", "type": "function", "function": {"name", "arguments": a JSON string}}]
                calls["tool_calls"] = self.read_tool_calls(message.get("tool_calls"), str)
            if isinstance(content, list):   # parts: Mistral's reasoning models send their thinking among them
                content, thought = content_parts(content, self.scrub)
                if thought:
                    thinking = f"{thinking}\n\n{thought}" if isinstance(thinking, str) and thinking else thought
            if (content is None or isinstance(content, str) and not content.strip()) \
                    and isinstance(message.get("refusal"), str) and message["refusal"]:
                # a model that refuses under structured outputs sends its words as `refusal`, content null
                # (the API's ChatCompletionResponseMessage; "" or spaces from some servers): its answer, as a refusal part is
                content = message["refusal"]
            if content is None and not tools and isinstance(message.get("tool_calls"), list) and message["tool_calls"] \
                    and all(isinstance(c, dict) and isinstance(c.get("function"), dict) for c in message["tool_calls"]):
                # calls where no tool was offered: the model's answer, empty (Ollama's content is "" then), never a
                # server fault to ask again
                content = ""
            if content is None and isinstance(thinking, str) and thinking and not calls.get("tool_calls"):
                # all reasoning and no answer: what they send when max_tokens falls inside the reasoning
                # (finish_reason "length"). An answer, empty, as Ollama's is; grade() counts it as thinking
                # that never finished, never as a server fault to retry
                content = ""
            if not isinstance(content, str) and not (content is None and calls.get("tool_calls")):
                raise TypeError   # content is null beside tool calls, and only there
        except (KeyError, IndexError, TypeError, AttributeError):
            raise CallFailed("the server's answer had no choices[0].message.content", retry=True) from None
        usage = data.get("usage") if isinstance(data.get("usage"), dict) else {}
        details = usage.get("completion_tokens_details") if isinstance(usage.get("completion_tokens_details"), dict) else {}
        return {**calls, "response": content, "prompt_tokens": usage.get("prompt_tokens"),
                "completion_tokens": usage.get("completion_tokens"), "done_reason": choice.get("finish_reason"),
                "thinking": thinking,
                "thinking_tokens": details.get("reasoning_tokens"), "system_fingerprint": data.get("system_fingerprint")}

    @staticmethod
    def wire(transcript):
        """An agent's transcript as OpenAI takes it back: the assistant's calls with their ids and
        arguments as the JSON string it sent, each result as a tool message answering its call's id. A
        server that gave a call no id gets one made from its place, the same on every turn."""
        messages = []
        for number, m in enumerate(transcript):
            if m["role"] == "assistant":
                # a null content (beside tool calls) goes back as "": OpenAI takes either, and llama-cpp-python's
                # server refuses null (llama_types.ChatCompletionRequestAssistantMessage: content a str) and
                # its chatml-function-calling template reads message.content, so it cannot be left out
                turn = {"role": "assistant", "content": m.get("content") or ""}
                if m.get("tool_calls"):
                    turn["tool_calls"] = [{"id": c.get("id") or f"call_{number}_{i}", "type": "function",
                                           "function": {"name": c["name"], "arguments": c["arguments"] if isinstance(
                                               c["arguments"], str) else json_text(c["arguments"])}}
                                          for i, c in enumerate(m["tool_calls"])]
                messages.append(turn)
            else:
                messages.append({"role": "tool", "tool_call_id": m["call_id"], "content": m["content"]})
        return messages

    def choose_schema_form(self, model, fmt, forms=SCHEMA_FORMS):
        """--format schema: ask once in each form in turn and keep the first the server accepts, so
        a server that takes none is one clear error before the run, not an error on every case.
        Returns (the form, why each form before it was refused)."""
        refusals = []
        for form in forms:
            self.schema_form = form
            refusal = self.probe(model, fmt)
            if refusal is None:
                return form, refusals
            refusals.append(f"response_format {SCHEMA_FORMS[form]}: {refusal}")
        raise EvalError(f"{self.host} refused --format schema ({on_one_line('; '.join(refusals))}).\n"
                        "Use --format json, or a server that supports JSON Schema output.")

    def probe(self, model, fmt):
        """A one-token question in the current form: None if answered, else the server's refusal
        of the form, on one line. A refusal is an HTTP 400 or 422, or a 500 that names
        response_format (llama-cpp-python's). Faults (a 503, a timeout) are retried as a case's
        are; they, and any other answer (401, 404), stop the run if they last: moving to the next
        form on a mere fault could pick one that a server accepts while ignoring its schema."""
        for attempt in range(self.retries + 1):
            try:
                self.chat_once(model, [{"role": "user", "content": "ok"}], {"max_tokens": 1}, fmt)
                return None
            except CallFailed as failure:
                said = self.scrub(" ".join(str(failure).split()))
                if failure.status in (400, 422) or failure.status == 500 and b"response_format" in failure.body:
                    return said
                if not failure.retry or attempt == self.retries:
                    raise EvalError(f"cannot learn whether {self.host} takes --format schema: {said}") from None
                time.sleep(backoff(attempt, failure.wait))


CLIENTS = dict(zip(APIS, (OllamaClient, OpenAIClient)))


def key_source(args):
    """Where the API key came from, as a message names it."""
    return "--api-key" if getattr(args, "api_key", None) else "$OPENAI_API_KEY"


def api_key_of(args):
    """The API key as a server reads it: whitespace around it (a paste, a file's last line break)
    trimmed, since a server trims a header's value (RFC 9110, 5.5) and may echo it so; the key
    sent and the key searched for in what comes back must be the same text. A line break, a
    control character or a character beyond ASCII inside (a zero-width space copied from a web
    page) cannot go in a header as it is: refused by where it came from and where in the key it
    stands, the key itself never printed (else requests fails, and the server seemed unreachable)."""
    given, key = key_source(args), getattr(args, "api_key", None) or os.environ.get("OPENAI_API_KEY")
    key = (key or "").strip()
    bad = re.search(r"[^\x20-\x7e]", key)
    if bad:
        what = {"\n": "a line break", "\r": "a line break (\\r)", "\t": "a tab"}.get(bad.group(), f"U+{ord(bad.group()):04X}")
        raise EvalError(f"the API key in {given} holds {what} at character {bad.start() + 1}, which an HTTP header "
                        "cannot carry; give the key alone, in ASCII, on one line")
    return key or None


def make_client(config, args, recorded=None):
    """The client of config's server. recorded: the run whose recorded address config holds (a resume,
    judge, compare --pairwise without --host): told the server is not there, the user is sent to --host,
    never to $OLLAMA_HOST, which only a new run reads."""
    key = api_key_of(args) if config["api"] == "openai" else None
    client = CLIENTS[config["api"]](config["host"], timeout=args.timeout, retries=args.retries,
                                    api_key=key, jobs=getattr(args, "jobs", 1))
    client.key_source = key_source(args)
    if recorded is not None and getattr(args, "host", None) is None:
        client.start_hint = (f"Start it, or give --host where it listens now: this is the address {shell_word(recorded)} "
                             "recorded (a new run alone reads the address from the environment).")
    return client


def backoff(attempt, asked=None):
    """Exponential backoff with jitter, so parallel workers do not retry in lockstep."""
    if asked is not None:
        return min(asked, RETRY_CAP_SECONDS)
    ceiling = min(RETRY_CAP_SECONDS, RETRY_BASE_SECONDS * 2 ** attempt)
    return ceiling / 2 + random.uniform(0, ceiling / 2)


def messages_for(system, case):
    """The system prompt (its {{vars}} and {{context}} filled from the case), then the case's conversation."""
    return [{"role": "system", "content": render(system, prompt_values(case))}] + conversation(case)


def conversation(case):
    """What the model is answering: a conversation case's turns, else its input as the one user turn."""
    if case.get("messages"):
        return [dict(turn) for turn in case["messages"]]
    return [{"role": "user", "content": case["input"]}] if case.get("input") else []


def case_context(case):
    """What the user said, as a judge reads it: the input, a conversation turn by turn (the answer
    is the assistant's next turn), or the vars; and an agent's tool calls with their results, in order."""
    if case.get("messages"):
        said = "Conversation so far:\n" + "\n\n".join(f"[{t['role']}]\n{t['content']}" for t in case["messages"])
    else:
        said = "User's message:\n" + (case.get("input") or json.dumps(case.get("vars", {}), ensure_ascii=False))
    steps = transcript_lines(case.get("transcript"), final=False)
    return said + ("\n\nWhat the assistant did before answering (its tool calls and what each returned):\n"
                   + "\n".join(steps) if steps else "")


def call_text(call):
    """A tool call as a person (or a judge) reads it: lookup_order({"order_id": "A-1"})."""
    arguments = call.get("arguments")
    return f"{call.get('name')}({arguments if isinstance(arguments, str) else json_text(arguments)})"


def transcript_lines(transcript, final=True):
    """An agent's transcript turn by turn, as plain lines: what the assistant said and called, and
    what each tool returned. final=False leaves out the final answer (the judge reads it apart)."""
    lines = []
    for number, m in enumerate(transcript or (), 1):
        if m["role"] == "tool":
            lines.append(f"  -> {m['name']} returned: {m['content']}" + ("" if m.get("matched", True) else
                                                                        "  (no result matched these arguments)"))
        elif m.get("tool_calls") or final:
            said = (m.get("content") or "").strip()
            lines += [f"[assistant] {said}"] * bool(said) + [f"[assistant calls] {call_text(c)}" for c in m.get("tool_calls") or ()]
    return lines


def output_format(fmt, labels):
    """Ollama's `format`: "json", or a JSON Schema whose one property is the closed label set."""
    if fmt == "json":
        return "json"
    if fmt == "schema":
        return {"type": "object", "properties": {"label": {"type": "string", "enum": labels}},
                "required": ["label"]}
    return None


def choose_response_format(client, config, labels, resuming):
    """--format schema over --api openai: the form of response_format this server takes, said on
    stderr. A resumed run keeps the form its first answers were asked with, so one run never mixes two."""
    schema = output_format("schema", labels)
    if resuming:
        try:
            client.choose_schema_form(config["model"], schema, [config["response_format"]])
        except EvalError as e:
            raise EvalError(f"{e}".split("\n")[0] + f"\nThis run's answers so far were asked with response_format "
                            f"{SCHEMA_FORMS[config['response_format']]}: resume it against a server that takes "
                            "that form (--host).") from None
        return config["response_format"]
    form, refusals = client.choose_schema_form(config["model"], schema)
    why = f" ({client.host} refused {one_line('; '.join(refusals), 150)})" if refusals else ""
    warn(f"--format schema: sent as response_format {SCHEMA_FORMS[form]}{why}")
    return form



# ---------------------------------------------------------------------------
# 7. The judge: a model reads an answer against a criterion and votes; the votes become a verdict.

# The judge reads one answer against one criterion, reasons first and gives its verdict last:
# asking for the reason before the verdict makes it weigh the answer instead of its length.
JUDGE_PROMPT = """You grade one answer written by an AI assistant against one criterion.
Read the user's message and the answer. First reason about whether the answer meets the
criterion, quoting the words that decide it. Judge that criterion only: length, tone and style
count only if the criterion names them. Then give your verdict.
Reply with a single JSON object, the reasoning first and the verdict last:
{"reason": "<your reasoning>", "pass": true or false}"""


# --judge-schema: the judge's answer constrained to its verdict's shape, reason first, for a small
# model that cannot otherwise write the JSON (the server turns the schema into a grammar).
VERDICT_SCHEMA = {"type": "object", "properties": {"reason": {"type": "string"}, "pass": {"type": "boolean"}},
                  "required": ["reason", "pass"]}


def judge_messages(criterion, case, answer):
    return [{"role": "system", "content": JUDGE_PROMPT},
            {"role": "user", "content": f"Criterion: {criterion}\n\n{case_context(case)}\n\n{passages_read(case)}"
                                        f"Answer to grade:\n{answer}"}]


def passages_read(case):
    """A RAG case's passages as its judge reads them (the layout the model read them in), or nothing."""
    if not isinstance(case.get("context"), list):
        return ""
    return f"Passages the answer was given:\n{context_text(case['context'])}\n\n"


def last_verdict(raw, read):
    """(verdict, reason) from a judge's output: what read(object) finds (anything but None) in the
    last of its outermost JSON objects. An object inside another is never the verdict: {"winner": "B",
    "detail": {"winner": "A"}} is B. (None, None) when there is no object, when the output ends inside
    an object that never closed (the judge was cut off before its verdict), when it is too large to
    search (verdict_unread), or when the last object is one the decoder refuses or holds no verdict
    read() can read ("pass": "false", null, or none at all): the judge's last word is its verdict, and
    a draft or an example before it never stands in for it. An unreadable verdict is recorded, never
    guessed. The last, because a judge reasons before it decides."""
    if verdict_unread(raw):
        return None, None
    last, cut = final_object(raw)
    if cut or last is None:
        return None, None
    verdict = read(last)
    if verdict is None:
        return None, None
    reason = last.get("reason")
    return verdict, reason if isinstance(reason, str) else None


def verdict_unread(raw):
    """Why no verdict is searched for in a judge's answer, or None: over MAX_VERDICT_CHARS."""
    if len(raw) <= MAX_VERDICT_CHARS:
        return None
    return (f"the judge's answer is {len(raw):,} characters, too large to read a verdict from "
            f"(at most {MAX_VERDICT_CHARS:,} are searched)")


VERDICT_DIGS = 8   # openings a last span the decoder refuses is looked inside for (each level a pass over it)


def final_object(text, digs=VERDICT_DIGS, quoted_until=0):
    """(the last of a text's outermost JSON objects, or None where there is none or the decoder refuses
    it; whether the text ends inside one that never closed). The outermost pairs of braces (brace_pairs)
    that open like an object are found in one pass and only the last is decoded, leniently (a raw line
    break in a string is read): linear in the text, where decoding from every brace was not.
    A brace quoted in the judge's prose (The code opens with "{" ...) opens like an object; the quotes
    would then pair off wrongly and swallow the verdict after it (or hide the one before it). So the
    braces are paired in a copy where each "{" not followed by a key is prose (quoted_braces_blanked,
    the same length), and the spans found are decoded from the text itself. A stray quote before a
    verdict cut off ("{"reason": ...) is no quoted brace: the judge was cut off inside its verdict, and
    a draft before it, or one its reason quotes, never stands in for it. Where the last pair is refused,
    a few times, from the end, it is looked inside with its opening brace read as prose, and only the
    pair its closing brace belongs to is tried (an object closed before it is held by the refused one, a
    rubric before a trailing comma: never the verdict). An object nested in one that decodes is never
    looked at."""
    shape = quoted_braces_blanked(text)
    pairs, opened = brace_pairs(shape)
    # the first brace never closed that opens like an object: the text was cut inside it, and every
    # pair after it is inside it
    cut = next((at for at, like in opened if like), None)
    if cut is not None:
        # a fragment quoted in prose ("{"a": 1" is not JSON) is looked past, its brace read as prose; one that
        # is JSON to the end of the text is the judge cut off inside its verdict, and a draft before it never
        # stands in for it (cut_vote). (Only the brace: a string the fragment leaves open would run on through
        # the judge's prose to its verdict's first quote, and take the verdict with it.)
        # An opening inside the JSON part of a fragment looked past ("{"a": {"b": 1" oops) is the fragment's too.
        ends = json_prefix_end(text, cut) if digs and cut > 0 and (text[cut - 1] == '"' or cut < quoted_until) else None
        if ends is None:
            return None, True
        return final_object(f"{text[:cut]} {text[cut + 1:]}", digs - 1, max(quoted_until, ends))
    spans = object_spans(shape, pairs)
    if not spans:
        return None, False
    start, end = spans[-1]
    for _ in range(digs + 1):
        value = decoded_object(text[start:end])
        if value is not None:
            return value, False
        inside = shape[start + 1:end]   # its opening brace read as prose
        closing = next((s for s, e in brace_pairs(inside)[0] if e == len(inside)), None)
        if closing is None or not OBJECT_OPENING.match(inside, closing):
            break
        start += 1 + closing
    return None, False


# lenient as decoded_object (a raw line break in a string is read); a whole number kept as its digits, as
# Python refuses to convert one of over 4,300 (a ValueError that is no JSONDecodeError)
PLAIN_DECODER = json.JSONDecoder(strict=False, parse_int=str)
# the end of a text cut inside a JSON literal or number: a valid start of one, which the decoder refuses
PARTIAL_SCALAR = re.compile(r"\s*(?:t(?:r(?:ue?)?)?|f(?:a(?:l(?:se?)?)?)?|n(?:u(?:ll?)?)?|-?[\d.eE+-]*)\s*")


def json_prefix_end(text, start):
    """Where text, read from start, stops being the beginning of a JSON value, or None when all of it
    is one (a value the text ends inside: cut off). A value that decodes whole ends there."""
    try:
        return PLAIN_DECODER.raw_decode(text, start)[1]
    except json.JSONDecodeError as e:
        if e.msg.startswith("Unterminated string") or PARTIAL_SCALAR.fullmatch(text, e.pos):
            return None
        return e.pos
    except (RecursionError, ValueError):   # nested past the interpreter's depth: still open at the end
        return None


def quoted_braces_blanked(text):
    """text with each brace quoted in prose, "{" not followed by a key, as a space: one pass."""
    if '"{"' not in text:
        return text
    return QUOTED_BRACE.sub(lambda m: m.group() if KEY_OPENING.match(text, m.start()) else " ", text)


def decoded_object(text):
    """The JSON object text is, whole, or None. A key given twice (unique_pairs) says two things: the
    object is refused, never read as its last. Decoded alone: a decode error counts the lines before
    it, which from the whole text is not linear."""
    try:
        value, stop = json.JSONDecoder(strict=False, object_pairs_hook=unique_pairs).raw_decode(text)
    except (ValueError, RecursionError):
        return None
    return value if stop == len(text) and isinstance(value, dict) else None


def parse_verdict(raw):
    """(pass, reason): the binary judge's verdict is a boolean "pass"."""
    return last_verdict(raw, lambda obj: obj["pass"] if isinstance(obj.get("pass"), bool) else None)


class JudgeKind(NamedTuple):
    """What sets one way of judging apart from the other: its system prompt, the vote's key for
    its verdict, the schema that verdict is held to with --judge-schema, and its reader."""
    prompt: str
    verdict: str
    schema: dict
    parse: object   # the judge's answer -> (verdict, reason)


BINARY = JudgeKind(JUDGE_PROMPT, "pass", VERDICT_SCHEMA, parse_verdict)


# RAG, the generation stage (RAGAS's faithfulness and answer relevance) and, without labels, the
# retrieval stage, judged with the machinery above: each is one JudgeKind whose verdict is the
# vote's "pass", so votes, panels, doubtful verdicts, calibration and the audit treat it as any
# judge check. Faithfulness reads claims, not a verdict: the judge lists the answer's claims and
# marks each supported or not with the passage that supports it; the verdict is worked out here.
FAITHFUL_PROMPT = """You check whether an answer written by an AI assistant is faithful to the passages it was given.
First list every claim the answer makes: each statement of fact, policy, number or promise, one per item.
Then mark each claim supported only if a passage states it or it follows directly from one, and give that
passage's id; a claim the passages do not state is not supported, however plausible or true elsewhere.
Saying it does not know, or asking the user something, is not a claim.
Reply with a single JSON object, the claims first and your summary last:
{"claims": [{"claim": "<the claim>", "supported": true or false, "passage": "<passage id>" or null}], "reason": "<one line>"}"""
FAITHFUL_SCHEMA = {"type": "object", "required": ["claims", "reason"], "properties": {
    "claims": {"type": "array", "items": {"type": "object", "required": ["claim", "supported", "passage"], "properties": {
        "claim": {"type": "string"}, "supported": {"type": "boolean"}, "passage": {"type": ["string", "null"]}}}},
    "reason": {"type": "string"}}}
ANSWER_RELEVANT_CRITERION = ("The answer addresses the user's question: it answers what was asked, or says plainly "
                             "that it cannot. Whether it is correct or supported by the passages does not matter here, "
                             "only whether it is an answer to this question rather than to another one.")
CONTEXT_RELEVANT_PROMPT = """You rate passages that a search returned for a user's message.
For each passage, by its id, say whether it holds information needed to answer the message.
A passage on the same topic that does not help answer this message is not relevant.
Reply with a single JSON object, the passages in the order given and your summary last:
{"passages": [{"id": "<passage id>", "relevant": true or false}], "reason": "<one line>"}"""
CONTEXT_RELEVANT_SCHEMA = {"type": "object", "required": ["passages", "reason"], "properties": {
    "passages": {"type": "array", "items": {"type": "object", "required": ["id", "relevant"], "properties": {
        "id": {"type": "string"}, "relevant": {"type": "boolean"}}}},
    "reason": {"type": "string"}}}


def read_claims(obj):
    """The claims of a faithfulness verdict as the judge wrote them, or None when they are not there."""
    claims = obj.get("claims")
    if not isinstance(claims, list) or not all(
            type(c) is dict and isinstance(c.get("claim"), str) and isinstance(c.get("supported"), bool)
            and (c.get("passage") is None or isinstance(c.get("passage"), str)) for c in claims):
        return None
    return claims


def faithfulness(claims, case):
    """(score, unsupported claims) of an answer's claims: the share supported (1 when it makes none:
    nothing unfaithful was said). A claim counts as supported only when the judge cites a passage
    the case has: a cited id the case does not have (a judge's slip or invention) makes it
    unsupported, and says so, as does support claimed with no passage named."""
    ids = {p["id"] for p in case.get("context") or []}
    unsupported = []
    for c in claims:
        if c["supported"] and c.get("passage") in ids:
            continue
        why = ("not supported by the passages" if not c["supported"] else
               "marked supported, but no passage is named" if c.get("passage") is None else
               f"marked supported by passage {c['passage']!r}, which this case does not have")
        unsupported.append({"claim": c["claim"], "passage": c.get("passage"), "why": why})
    return (1 - Fraction(len(unsupported), len(claims)) if claims else Fraction(1)), unsupported


def check_share(check, default):
    """A faithful or context_relevant check's threshold: its value, else the default."""
    return exact(check["value"]) if "value" in check else default


def faithful_kind(case, check):
    """The faithfulness judge of one check of one case: its verdict passes when the share of the
    answer's claims the case's passages support reaches the check's value (every claim by default)."""
    def parse(raw):
        claims, reason = last_verdict(raw, read_claims)
        if claims is None:
            return None, None
        return faithfulness(claims, case)[0] >= check_share(check, Fraction(1)), reason
    return JudgeKind(FAITHFUL_PROMPT, "pass", FAITHFUL_SCHEMA, parse)


def read_ratings(obj, ids):
    """{passage id: relevant} of a context-relevance verdict, every passage of the case rated and no
    other; None otherwise (a passage left unrated is never guessed)."""
    rated = obj.get("passages")
    if not isinstance(rated, list) or not all(type(p) is dict and isinstance(p.get("id"), str)
                                              and isinstance(p.get("relevant"), bool) for p in rated):
        return None
    ratings = {p["id"]: p["relevant"] for p in rated}
    return ratings if set(ratings) == set(ids) and len(rated) == len(ids) else None


def context_relevant_kind(case, check):
    """The context-relevance judge (no relevance labels): it rates each passage, and its verdict
    passes when the precision those ratings give (context_precision) reaches the check's value, by
    default when any passage is relevant."""
    ids = [p["id"] for p in case.get("context") or []]

    def parse(raw):
        ratings, reason = last_verdict(raw, lambda obj: read_ratings(obj, ids))
        if ratings is None:
            return None, None
        precision = context_precision(ids, {i for i, ok in ratings.items() if ok})
        return (precision >= check_share(check, 0) if "value" in check else precision > 0), reason
    return JudgeKind(CONTEXT_RELEVANT_PROMPT, "pass", CONTEXT_RELEVANT_SCHEMA, parse)


def judged_precision(case, check_name):
    """RAG without labels: the context precision a case's context_relevant votes give, each passage
    relevant when most readable votes on it say so; None without a readable vote. No passage retrieved
    is 0 whatever the judge said, as in the labelled figures: the retriever found nothing relevant."""
    ids = [p["id"] for p in case.get("context") or []]
    if not ids:
        return Fraction(0)
    said = {}
    for t in case["trials"]:
        for v in t["votes"] or []:
            ratings = v["check"] == check_name and v.get("raw") and last_verdict(answer_of(v["raw"]) or "",
                                                                                 lambda obj: read_ratings(obj, ids))[0]
            for i, ok in (ratings or {}).items():
                said.setdefault(i, []).append(ok)
    if not said:
        return None
    return context_precision(ids, {i for i, oks in said.items() if majority(oks, tie=False)})


def faithful_reading(case, trial, check):
    """What a faithful check's votes on one answer say, read again from each vote's raw output (the
    run stores it exactly): the mean share of supported claims over the readable votes, and every
    unsupported claim any of them found (once each); (None, []) without a readable vote."""
    scores, unsupported, seen = [], [], set()
    for v in trial.get("votes") or []:
        if v["check"] != check["name"] or not v.get("raw"):
            continue
        claims = last_verdict(answer_of(v["raw"]) or "", read_claims)[0]
        if claims is None:
            continue
        score, missing = faithfulness(claims, case)
        scores.append(score)
        for claim in missing:
            if claim["claim"] not in seen:
                seen.add(claim["claim"])
                unsupported.append(claim)
    return (float(sum(scores) / len(scores)) if scores else None), unsupported


def reread_votes(votes, checks, case):
    """The votes as graded: a cut one without a verdict (cut_vote: one stored by an eval.py that read a
    draft from it), and each faithful and context_relevant vote's verdict read again from its stored raw
    output against the check as it is now (its threshold may have changed: report --checks) and the
    case's passages: the verdict is worked out by eval.py, not said by the judge."""
    rag = {c["name"]: c for c in checks if c["type"] in ("faithful", "context_relevant")}
    if not rag and not any(cut_vote(v) and v.get("pass") is not None for v in votes):
        return votes
    out = []
    for v in votes:
        check = rag.get(v["check"])
        said = answer_of(v["raw"]) if check and v.get("raw") is not None and not v.get("error") else None
        out.append({**v, "pass": None, "reason": None} if cut_vote(v) and v.get("pass") is not None else
                   v if said is None or cut_vote(v) else {**v, "pass": judge_request(check, case, "")[0].parse(said)[0]})
    return out


def rag_messages(check, case, answer):
    """What a RAG judge check sends: the passages beside the question (and the answer, but for
    context_relevant, which rates the retriever's passages alone)."""
    if check["type"] == "context_relevant":
        return [{"role": "system", "content": CONTEXT_RELEVANT_PROMPT},
                {"role": "user", "content": f"{case_context(case)}\n\nPassages:\n{context_text(case.get('context') or [])}"}]
    return [{"role": "system", "content": FAITHFUL_PROMPT},
            {"role": "user", "content": passages_read(dict(case, context=case.get("context") or []))
                                        + f"{case_context(case)}\n\nAnswer to check:\n{answer}"}]


def judge_request(check, case, answer):
    """(kind, messages) of one judge check of one answer."""
    if check["type"] == "judge":
        return BINARY, judge_messages(check["value"], case, answer)
    if check["type"] == "answer_relevant":
        return BINARY, judge_messages(ANSWER_RELEVANT_CRITERION, case, answer)
    kind = faithful_kind if check["type"] == "faithful" else context_relevant_kind
    return kind(case, check), rag_messages(check, case, answer)


def ask_judge(client, judge, kind, messages, who) -> dict:
    """One vote: one call of one judge model (who["model"]), its verdict read from the answer, the
    raw output kept. The one place a judge is asked: its temperature, a seed per vote (seed,
    seed + 1, ...: votes are samples, not copies), the pinned window and the schema; a failed call
    is a vote with an error and no verdict. who: the vote's leading fields, model and vote included."""
    options = {**(judge.get("runner") or {}), "temperature": judge["temperature"], "seed": nth_seed(judge["seed"], who["vote"]),
               **({"num_ctx": judge["num_ctx"]} if judge.get("num_ctx") else {}),
               **({"num_predict": judge["num_predict"]} if judge.get("num_predict") else {})}   # max_tokens over /v1
    said = client.chat(who["model"], messages, options, kind.schema if judge.get("schema") else None)
    # a thinking judge: its verdict is after its reasoning; unfinished reasoning is no verdict
    said_answer = answer_of(said["response"]) if said["response"] is not None else None
    verdict, reason = kind.parse(said_answer) if said_answer is not None else (None, None)
    if said.get("done_reason") == "length" and not said["error"]:   # its last word never came: a draft is no verdict
        verdict, reason = None, None
    unread = verdict_unread(said_answer) if said_answer is not None else None
    if unread:
        warn(f"warning: {on_one_line(who['model'])} on {on_one_line(who.get('id') or who['check'])}: {unread}; the vote is unreadable")
    return {**who, "seed": options["seed"], kind.verdict: verdict, "reason": reason, "raw": said["response"],
            "error": said["error"], **({"unread": unread} if unread else {}), "prompt_tokens": said.get("prompt_tokens"),
            "completion_tokens": said.get("completion_tokens"), "done_reason": said.get("done_reason")}


def cut_vote(vote):
    """A judge answer a token limit stopped (Ollama's done_reason and OpenAI's finish_reason are both
    "length"): it has no verdict, whatever it held (the judge's last word, its verdict, never came; a
    draft before it is none), and it is not the judge failing to write one."""
    return vote.get("done_reason") == "length" and not vote.get("error")


def cut_at_cap(vote, judge):
    """A cut vote that the judge's own token cap (config.judge.num_predict) stopped: it used the cap
    up, or did not say how much it used. One stopped short of the cap was stopped by the server (its
    window full, or a bound of its own: Ollama's 10 x num_ctx, llama.cpp's n_ctx less the prompt): a
    larger cap asks it again for the same stop."""
    cap = judge.get("num_predict") if type(judge) is dict else None
    used = vote.get("completion_tokens")
    return cut_vote(vote) and type(cap) is int and (type(used) is not int or used >= cap)


def cut_counts(judge, votes):
    """(how many of the votes were cut at the judge's cap, how many the server stopped short of it,
    the judge models whose votes it stopped)."""
    cut = sum(1 for v in votes if cut_at_cap(v, judge))
    stopped = [v for v in votes if cut_vote(v) and not cut_at_cap(v, judge)]
    return cut, len(stopped), sorted({str(v.get("model")) for v in stopped})


def judge_answer(client, judge, case, answer, kept=None, on_vote=None) -> list[Vote]:
    """Every vote of every judge model on every judge check of a case. kept: votes a judging already
    holds, {(check, model, vote): vote}, reused unless their call failed; on_vote(vote) is told of
    each vote asked now, as it comes (judge journals it)."""
    votes = []
    for check in case["checks"]:
        if check["type"] not in JUDGE_CHECKS:
            continue
        kind, messages = judge_request(check, case, answer)
        for model in judge["models"]:
            for vote in range(1, judge["votes"] + 1):
                old = (kept or {}).get((check["name"], model, vote))
                if old is None or old.get("error"):
                    old = ask_judge(client, judge, kind, messages, {"check": check["name"], "model": model, "vote": vote})
                    if on_vote:
                        on_vote(old)
                votes.append(old)
    return votes


def model_family(model, identities):
    """The family the server reported for a model (Ollama's details.family), else a guess from its
    name (qwen2.5:7b -> qwen). A judge of the candidate's own family tends to go easy on it."""
    return (identities.get(model) or {}).get("model_family") or re.match(r"[a-z]*", model.lower()).group()


def judge_note(model, judges, identities):
    """Warn when nothing but the judged model's own family judges it."""
    if judges == [model]:
        warn(f"note: the judge is {on_one_line(model)}, the model being judged; a judge tends to favour its own answers "
             "(add a --judge-model of another family)")
    elif all(model_family(judge, identities) == model_family(model, identities) for judge in judges):
        family = model_family(model, identities)
        warn(f"note: every judge ({on_one_line(', '.join(judges))}) is of the family of {on_one_line(model)} ({on_one_line(family)}), which a judge "
             "tends to favour (add a --judge-model of another family for a panel)")


def has_judge_check(cases):
    return any(c["type"] in JUDGE_CHECKS for case in cases for c in case["checks"])


def judge_config(args, kind, judged, api, configs, criterion=None):
    """How a judge is asked, recorded beside its votes: the models (default: the judged model, the
    candidate's in a pairwise comparison), votes, temperature, seed, the prompt's hash; a pairwise
    judge's criterion first. With Ollama the judge's window is pinned as the runs' were (the largest
    of them): its prompt holds whole answers."""
    window = max(filter(None, map(sent_num_ctx, configs)), default=None) or (
        DEFAULT_NUM_CTX if api == "ollama" else None)
    runner = {k: v for cfg in configs for k, v in (cfg.get("options") or {}).items() if k in RUNNER_OPTIONS}
    refuse_given_twice("--judge-model", args.judge_model or [], same_model,
                       "a panel of judges needs different models (--judge-votes asks one several times)")
    return {**({"criterion": criterion} if criterion is not None else {}),
            "models": args.judge_model or [judged], "votes": args.judge_votes,
            "temperature": args.judge_temperature, "seed": DEFAULT_SEED if args.seed is None else args.seed,
            "prompt_sha": sha256_bytes(kind.prompt.encode()), **({"num_ctx": window} if window else {}),
            **({"num_predict": args.judge_max_tokens} if args.judge_max_tokens else {}),
            **({"runner": runner} if runner and api == "ollama" else {}),
            **({"schema": True} if args.judge_schema else {})}


def prepare_judge(client, api, judge, kind, pin=True):
    """Before the first judge call: is every judge model there, and, with --judge-schema over
    --api openai, which form of response_format does the server take (asked once). With pin, the
    judge's config records each judge model's digest where the server gives one (Ollama's
    /api/tags), as a run records its model's: a judging gone on with after a re-pull is then one of
    other settings (judging_state), and compare shows the change. A judge config that holds digests
    already (a run resumed) is refused on another, as the run's model is."""
    for model in judge["models"]:
        client.preflight(model)
    now = [client.identities.get(m, {}).get("model_digest") for m in judge["models"]]   # by the name as asked
    if "digests" in judge:
        changed = next(((m, was, new) for m, was, new in zip(judge["models"], judge["digests"], now)
                        if was and new and was != new), None)
        if changed:
            raise EvalError(f"refusing to resume: the judge {on_one_line(changed[0])} on {client.host} is not the model the "
                            f"run began with (digest {short(changed[1])}, now {short(changed[2])}: re-pulled or replaced); "
                            "its votes would mix two models. Run again.")
        for model, was, new in zip(judge["models"], judge["digests"], now):
            if was and not new:   # (as the judged model's: said, never passed over as checked)
                warn(f"note: {on_one_line(client.host)} no longer says which digest the judge {on_one_line(model)} is (its votes "
                     f"began with {short(was)}): the votes asked now cannot be told to be the same model's")
    elif pin and any(now):
        judge["digests"] = now
    # recorded as the server lists them, as the judged model is: Qwen2.5:7B judging qwen2.5:7b is one model
    judge["models"] = [client.names.get(m, m) for m in judge["models"]]
    if judge.get("schema") and api == "openai":
        form, _ = client.choose_schema_form(judge["models"][0], kind.schema)
        warn(f"--judge-schema: sent as response_format {SCHEMA_FORMS[form]}")


def judge_verdicts(votes):
    """Per judge check: each judge model's majority over its votes, then the panel's majority.
    A tie, or no readable vote, leaves the verdict open (None): it is never guessed."""
    by_check = {}
    for vote in votes or []:
        by_check.setdefault(vote["check"], {}).setdefault(vote["model"], []).append(vote)
    verdicts = {}
    for check, models in by_check.items():
        per_model, certainties, unreadable, failed, too_large, cut, split = {}, [], 0, 0, 0, 0, False
        for model, model_votes in models.items():
            readable = [v["pass"] for v in model_votes if v.get("pass") is not None]
            failed += sum(1 for v in model_votes if v.get("error"))
            unreadable += sum(1 for v in model_votes if v.get("pass") is None and not v.get("error"))
            too_large += sum(1 for v in model_votes if v.get("unread"))
            cut += sum(1 for v in model_votes if v.get("pass") is None and cut_vote(v))
            per_model[model] = majority(readable)
            if readable:
                certainties.append(agreeing_share(readable, len(model_votes)))
                split = split or len(set(readable)) > 1   # votes that disagree, not votes that said nothing
        decided = [v for v in per_model.values() if v is not None]
        verdicts[check] = {
            "pass": majority(decided) if len(decided) == len(per_model) else None,
            "models": per_model, "certainty": min(certainties) if certainties else None, "split": split,
            "votes": sum(map(len, models.values())),
            "disagree": len(set(decided)) > 1, "unreadable": unreadable, "failed": failed, "too_large": too_large,
            "cut": cut}
    return verdicts


def judge_call_failed(trial):
    """An answer with a judge call that failed (the server, not the judge): like an answer that never
    came, that vote says nothing of the model, and had it come it could have changed the verdict (one
    readable pass beside a failed call of two is a tie the call could have made); judging again asks it."""
    return any(j["failed"] for j in trial["judged"].values())


def judge_summary(config, cases):
    """Judge checks apart from pattern checks: their cost, and the verdicts a person should look at."""
    votes = [v for case in cases for t in case["trials"] for v in t["votes"] or []]
    judge, doubtful = config.get("judge"), []
    for case in cases:
        for t in case["trials"]:
            for name, j in t["judged"].items():
                reasons = []
                if j["pass"] is None:
                    capped = any(cut_at_cap(v, judge) for v in t["votes"] or [] if v["check"] == name)
                    reasons.append("no verdict (the judge call failed)" if j["failed"] and not j["unreadable"] else
                                   "no verdict (the judge's answer was too large to read a verdict from)"
                                   if j.get("too_large") else
                                   f"no verdict (the judge's answer was cut at its token limit"
                                   f"{cap_words(judge)}: --judge-max-tokens)"
                                   if j.get("cut") and j["cut"] == j["unreadable"] and capped else
                                   "no verdict (the server stopped the judge's answer short of its token limit: its "
                                   "window was full)" if j.get("cut") and j["cut"] == j["unreadable"] else
                                   "no verdict (tie or unreadable answer from the judge)")
                if j["certainty"] is not None and j["certainty"] < LOW_CERTAINTY:
                    silent = j["unreadable"] + j["failed"]
                    reasons.append(f"low certainty ({j['certainty']:.2f}"
                                   + (f"; {silent} of {j['votes']} votes gave no verdict" if silent else "") + ")")
                if j["disagree"]:
                    reasons.append("judges disagree")
                if reasons:
                    doubtful.append({"id": case["id"], "trial": t["trial"], "check": name, "pass": j["pass"],
                                   "why": "; ".join(reasons), "models": j["models"]})
    return {"config": config.get("judge"), "calls": len(votes),
            "failed_calls": sum(1 for v in votes if v.get("error")),
            **dict(zip(("cut_calls", "stopped_calls", "stopped_models"), cut_counts(judge, votes))),
            **tokens_counted(votes), "doubtful": doubtful}


def tokens_counted(calls):
    """The tokens the judge's calls cost, as its server counted them: a total of the counts sent,
    None when answers came and none sent a count (no count is not zero), and how many answered calls
    sent none (a total without them is partial, and says so). A failed call cost nothing known."""
    uncounted = sum(1 for v in calls if v.get("raw") is not None
                    and (v.get("prompt_tokens") is None or v.get("completion_tokens") is None))
    totals = {}
    for key in ("prompt_tokens", "completion_tokens"):
        known = [v[key] for v in calls if v.get(key) is not None]
        totals[key] = sum(known) if known else None   # every call failed: nothing counted, not a zero
    return {**totals, "uncounted_calls": uncounted}


def cap_words(judge):
    """', 1024 tokens': the judge's token limit as recorded (none before issue 31)."""
    return f", {(judge or {})['num_predict']} tokens" if (judge or {}).get("num_predict") else ""


def judge_command(path, config, checks=None, **instead):
    """`python eval.py judge RUN ...` to paste: the judge's options as the run recorded them
    (config["judge"]), so that it asks the same judge again, not the default one (a judge the
    command names itself: the judged model, one vote, T=0); `instead` replaces some of them (an
    audit's advice: more votes). The path shell-quoted, and after -- when it begins with a dash: it
    is a positional, which option_word's = cannot join."""
    recorded = (config or {}).get("judge")
    judge = {**(recorded if type(recorded) is dict else {}), **instead}
    models = judge.get("models") if type(judge.get("models")) is list else []
    value = lambda key: shell_word(str(judge[key]))   # as the file holds it, and inert: a run file may be edited
    words = [option_word("--judge-model", str(m)) for m in (models if models != [(config or {}).get("model")] else [])]
    if judge.get("votes", 1) != 1:
        words.append(f"--judge-votes {value('votes')}")
    if judge.get("temperature"):
        words.append(f"--judge-temperature {value('temperature')}")
    if judge.get("seed", DEFAULT_SEED) != DEFAULT_SEED:
        words.append(option_word("--seed", str(judge["seed"])))
    if judge.get("num_predict", DEFAULT_JUDGE_TOKENS) != DEFAULT_JUDGE_TOKENS:
        words.append(f"--judge-max-tokens {value('num_predict')}")
    if judge.get("schema"):
        words.append("--judge-schema")
    if checks:
        words.append(option_word("--checks", checks))
    command = [f"{program()} judge", *([] if path.startswith("-") else [shell_word(path)]), *words,
               *(["--", shell_word(path)] if path.startswith("-") else [])]
    return " ".join(command)


def raised_cap(was, now):
    """Whether judge `now` is judge `was` (config.judge) asked with a larger token limit and nothing
    else changed, and the same answer is drawn again (temperature 0, or a seed): the limit only stops
    an answer, so one that ended within the smaller ends the same way within the larger, and its vote
    stands; only the votes the limit cut (or that failed, or gave no verdict) need asking again.
    Unseeded above temperature 0 each vote is a fresh sample: drawing again only the long ones would
    weigh the verdict towards the short, so every vote is asked."""
    caps = [j.get("num_predict") if type(j) is dict else None for j in (was, now)]
    return (all(type(c) is int for c in caps) and caps[1] > caps[0] and drawn_again(now)
            and same_judge(was, now, ("num_predict",)))


def drawn_again(judge):
    """Whether a judge asked again draws the same answers: at temperature 0, or with a seed."""
    return judge.get("temperature") == 0 or type(judge.get("seed")) is int and judge["seed"] >= 0


def judge_again(path, config, checks=None, cut=0, stopped=0, stopped_models=()):
    """(the command that asks a run's judge again, why it is that one or ""): the same judge (its votes
    with a verdict stand; judge_run), or with `cut` votes cut at the judge's own cap (cut_at_cap: a
    recorded cap) the same judge with twice the cap, which asks only those, the failed calls and the
    votes without a verdict (raised_cap), or unseeded every vote. With votes only `stopped` by the
    server short of the cap (its window full), another judge: asked again alike they stop alike, and the
    same judge over a run whose other votes all stand asks every vote afresh. In a panel only the
    members whose votes were stopped (stopped_models) are replaced: the panel stays a panel."""
    if not cut and stopped:
        were = "was" if stopped == 1 else "were"
        members = ((config or {}).get("judge") or {}).get("models")
        members = members if type(members) is list else []
        gone = [m for m in members if str(m) in (stopped_models or ())]
        new = ["MODEL"] if len(gone) < 2 else [f"MODEL{i}" for i in range(1, len(gone) + 1)]
        kept = [m for m in members if m not in gone] if gone and len(members) > 1 else []
        return judge_command(path, config, checks, models=kept + new), (
            f"{plural(stopped, 'judge answer')} {were} stopped by the server short of the token limit, its window "
            f"full: asked again alike {'it stops' if stopped == 1 else 'they stop'} alike, so "
            + (f"{' and '.join(new)} {'is' if len(new) == 1 else 'are'} named in the panel in place of "
               f"{', '.join(on_one_line(str(m)) for m in gone)} (a panel changed is another judge: every vote of it is "
               "asked)" if kept else
               f"other judge models ({', '.join(new)}) are named in place of "
               f"{', '.join(on_one_line(str(m)) for m in gone)}" if len(new) > 1 else "another judge MODEL is named")
            + f" ({'one that answers' if len(new) == 1 else 'models that answer'} within the window, or over /v1 a server "
            "started with a larger context)")
    if not cut:
        return judge_command(path, config, checks), ""
    judge = config["judge"]
    if judge["num_predict"] >= MAX_JUDGE_TOKENS:   # no larger cap to name: the same one asked every vote again
        return judge_command(path, config, checks, models=["MODEL"]), (
            f"{plural(cut, 'judge answer')} {'was' if cut == 1 else 'were'} cut at the largest token limit a judge is "
            f"sent ({MAX_JUDGE_TOKENS}), so another judge MODEL is named")
    command = judge_command(path, config, checks, num_predict=min(2 * judge["num_predict"], MAX_JUDGE_TOKENS))
    return command, (f"{plural(cut, 'judge answer')} {'was' if cut == 1 else 'were'} cut at the token limit; with a "
                     "larger --judge-max-tokens " + ("only they, and any call that failed or gave no verdict, are asked "
                                                     "again" if drawn_again(judge) else
                                                     "every vote is asked again (unseeded, each vote is a fresh sample)")
                     + (f" ({stopped} more {'was' if stopped == 1 else 'were'} stopped by the server short of it, its "
                        f"window full: a larger limit stops {'it' if stopped == 1 else 'them'} alike)" if stopped else ""))


def failed_judge_calls(results):
    """The votes of a run's judges whose call failed: verdicts left open, to ask again (`judge`)."""
    return [v for r in results for v in r.get("judges") or [] if v.get("error")]


def judge_call_warnings(results, config, path):
    """What stderr says at the end of a run or a judge command about its judge calls, which the
    report alone would leave in `report --case`: how many failed and the first reason (their
    verdicts are left open), and when no judge answer held a readable verdict, that a small judge
    may need --judge-schema (unless it had it)."""
    judge = config.get("judge") or {}
    votes = [v for r in results for v in r.get("judges") or []]
    failed = failed_judge_calls(results)
    lines = []
    if failed:
        lines.append(f"{len(failed)} of {plural(len(votes), 'judge call')} failed; the first: "
                     f"{one_line(failed[0]['error'], 200)}. Their verdicts are left open, never guessed; "
                     f"{judge_command(path, config)} asks the judge again")
    answered = [v for v in votes if not v.get("error")]
    capped, stopped, _ = cut_counts(judge, answered)
    if capped:
        command, why = judge_again(path, config, cut=capped)
        lines.append(f"{plural(capped, 'judge answer')} {'was' if capped == 1 else 'were'} cut at the judge's token limit "
                     f"({judge['num_predict']} tokens) before {'its' if capped == 1 else 'their'} verdict; {command}: "
                     f"{why.partition('; ')[2] or why}")
    if stopped:
        lines.append(f"{plural(stopped, 'judge answer')} {'was' if stopped == 1 else 'were'} stopped by the server short "
                     f"of the judge's token limit, before {'its' if stopped == 1 else 'their'} verdict: its window was "
                     "full (a larger --judge-max-tokens does not help)")
    if answered and capped + stopped < len(answered) and all(v.get("pass") is None for v in answered):
        lines.append(f"no verdict could be read from any of the {plural(len(answered), 'judge answer')}"
                     + ("" if judge.get("schema") else
                        "; a small judge may not write the verdict's JSON unaided: try --judge-schema"))
    return lines


def judge_agreement(pairs):
    """How a judge's verdicts match human ones, each a (human_pass, judge_pass) pair. Failures are
    what a judge is for, so they are counted on their own: raw agreement misleads when most pass.
    Each share carries its Wilson 95% interval, kappa its large-sample one (cohen_kappa)."""
    caught = sum(not h and not j for h, j in pairs)
    missed = sum(not h and j for h, j in pairs)
    kept = sum(h and j for h, j in pairs)
    false_alarms = sum(h and not j for h, j in pairs)
    n = len(pairs)
    kappa, kappa_se, *kappa_ci = cohen_kappa([[caught, missed], [false_alarms, kept]])

    def ci(successes, total):   # Wilson's; none where there is nothing to count
        return list(wilson(successes, total)) if total else None
    return {"pairs": n, "table": {"human_fail": {"judge_fail": caught, "judge_pass": missed},
                                  "human_pass": {"judge_fail": false_alarms, "judge_pass": kept}},
            "failure_detection": rate(caught, caught + missed), "failure_detection_ci": ci(caught, caught + missed),
            "pass_retention": rate(kept, kept + false_alarms), "pass_retention_ci": ci(kept, kept + false_alarms),
            "agreement": rate(caught + kept, n), "kappa": kappa, "kappa_se": kappa_se,
            "kappa_ci": None if kappa_se is None else kappa_ci, "human_fail_share": rate(caught + missed, n)}


# Two answers side by side: a judge tends to prefer the one it reads first, so every pair is asked
# in both orders, and only a preference that survives the swap counts (methodology note 001).
PAIRWISE_PROMPT = """You compare two answers, A and B, written by AI assistants to the same user message,
against one criterion. Read the message and both answers. First reason about which answer meets the
criterion better, quoting the words that decide it. Judge that criterion only: which answer comes
first, its length, tone and style count for nothing unless the criterion names them. When neither is
better, say so.
Reply with a single JSON object, the reasoning first and the verdict last:
{"reason": "<your reasoning>", "winner": "A", "B" or "tie"}"""
ORDERS = ("baseline first", "candidate first")   # which run's answer the judge reads as A
WINNERS = {"a": "A", "b": "B", "tie": "tie"}
WINNER_SCHEMA = {"type": "object", "required": ["reason", "winner"],
                 "properties": {"reason": {"type": "string"}, "winner": {"enum": ["A", "B", "tie"]}}}


def pairwise_messages(criterion, case, first, second):
    # an agent's transcript is one run's path, not both: the two final answers are compared on their own
    case = {k: v for k, v in case.items() if k != "transcript"}
    return [{"role": "system", "content": PAIRWISE_PROMPT},
            {"role": "user", "content": f"Criterion: {criterion}\n\n{case_context(case)}\n\n"
                                        f"Answer A:\n{first}\n\nAnswer B:\n{second}"}]


def parse_winner(raw):
    """(winner, reason): the pairwise judge's verdict is a "winner" of A, B or tie (any case)."""
    def winner(obj):
        said = obj.get("winner")
        return WINNERS.get(said.strip().casefold()) if isinstance(said, str) else None
    return last_verdict(raw, winner)


PAIRWISE = JudgeKind(PAIRWISE_PROMPT, "winner", WINNER_SCHEMA, parse_winner)


def pairwise_votes(client, judge, pair, kept, on_vote=None):
    """Every vote of every judge model on one pair of answers, in both orders. kept: the votes
    already stored for this pair, {(model, vote, order): vote}; those without an error are reused.
    on_vote(vote) is told of each vote asked now, as it comes (compare journals it)."""
    votes = []
    for model in judge["models"]:
        for vote in range(1, judge["votes"] + 1):
            for order in ORDERS:
                old = kept.get((model, vote, order))
                if old is not None and not old.get("error"):
                    votes.append(old)
                    continue
                first, second = ((pair["baseline"], pair["candidate"]) if order == ORDERS[0]
                                 else (pair["candidate"], pair["baseline"]))
                votes.append(ask_judge(client, judge, PAIRWISE,
                                       pairwise_messages(judge["criterion"], pair["case"], first, second),
                                       {"id": pair["id"], "trial": pair["trial"], "model": model, "vote": vote,
                                        "order": order}))
                if on_vote:
                    on_vote(votes[-1])
    return votes


def preferred_run(order, winner):
    """The run a verdict prefers: A is the run read first."""
    if winner == "tie":
        return "tie"
    return ("baseline" if winner == "A" else "candidate") if order == ORDERS[0] else (
        "candidate" if winner == "A" else "baseline")


def pairwise_outcome(votes, judge=None):
    """One pair's outcome from its votes: "candidate" or "baseline" (both orders agree), "tie", "flip"
    (each order preferred the answer in the same place: a tie caused by position), or None with why
    (an unreadable verdict or a failed call: never guessed). Each model's majority over its votes in
    each order, both orders combined per model, then the panel's majority; a split panel is a tie."""
    by_model = {}
    for v in votes:
        by_model.setdefault(v["model"], {}).setdefault(v["order"], []).append(v)
    outcomes, why = {}, None
    for model, orders in by_model.items():
        sides = []
        for order in ORDERS:
            order_votes = orders.get(order, [])
            # a verdict read from a cut answer (stored by an eval.py that read drafts) is none
            readable = [preferred_run(order, v["winner"]) for v in order_votes if v.get("winner") and not cut_vote(v)]
            if not readable:
                why = why or ("the judge call failed" if any(v.get("error") for v in order_votes)
                              else "the judge's answer was too large to read a verdict from"
                              if any(v.get("unread") for v in order_votes)
                              else "the judge's answer was cut at its token limit (--judge-max-tokens)"
                              if order_votes and all(cut_vote(v) for v in order_votes)
                              and any(cut_at_cap(v, judge) for v in order_votes)
                              else "the server stopped the judge's answer short of its token limit (its window was full)"
                              if order_votes and all(cut_vote(v) for v in order_votes) else "unreadable verdict")
                sides.append(None)
            else:
                sides.append(majority(readable, tie="tie"))
        if None in sides:
            outcomes[model] = None
        elif sides[0] == sides[1]:
            outcomes[model] = sides[0]
        else:
            outcomes[model] = "flip" if "tie" not in sides else "tie"
    if not outcomes or None in outcomes.values():
        return None, why or "no verdict", outcomes
    return majority(outcomes.values(), tie="tie"), None, outcomes



# ---------------------------------------------------------------------------
# 8. Run and store: every finished case is appended to a journal at once, so a killed run loses
#    nothing; the run file is written once, atomically, at the end, and read back checked line by
#    line. The held-out split is run once.

def build_config(args) -> RunConfig:
    """What `run` was asked for: the first keys of a run's config. start_config adds what the
    start of the run finds (hashes, labels, server version, judge); config_problem reads one back."""
    split_path, split_name = resolve_split(args.split)
    prompt_path = args.prompt or newest_prompt(prompt_folder(split_path))
    for what, path in (("split", split_path), ("prompt", prompt_path), ("context file", args.context or "")):
        if LONE_SURROGATE.search(path):   # config_problem refuses it when the run is read back
            raise EvalError(f"{shell_word(path)}: the {what}'s file name is not valid UTF-8, and a run file records "
                            "it as text; rename the file")
    return {
        "model": args.model, "temperature": args.temperature, "seed": args.seed, "repeat": args.repeat,
        "options": pinned_options(ollama_options(parse_options(args.option), args.api, args.unchecked_options),
                                  args.api), "format": args.format,
        "think": think_value(args.think, args.api),
        "prompt": prompt_path,
        "split": split_name, "split_path": split_path, **({"context_path": args.context} if args.context else {}),
        "api": args.api, "host": server_url(args.api, args.host),
        "max_turns": max_turns(args.max_turns),   # start_config drops it for a split without tools
        **quick_look(args.limit, args.cases),
    }


def max_turns(value):
    if value > MAX_TURNS:
        raise EvalError(f"--max-turns {value}: at most {MAX_TURNS} (an agent that needs more is in a loop)")
    return value


def quick_look(limit, cases):
    """run --limit N or --cases ID,ID as the run records it ({"subset": ...}), or {}: the whole split.
    Ids are kept once each, as given. A --cases that names no id (",", or an empty shell variable)
    is refused: it would ask nothing, or everything, and pass for a run of what was meant."""
    if limit:
        return {"subset": {"limit": limit}}
    if cases is None:
        return {}
    ids = list(dict.fromkeys(i.strip() for i in cases.split(",") if i.strip()))
    if not ids:
        raise EvalError(f"--cases {cases!r} names no case: give case ids separated by commas, e.g. --cases dev-01,dev-09")
    return {"subset": {"cases": ids}}


def ollama_options(options, api, unchecked=False):
    """--option values Ollama would refuse or ignore, caught before any call: a text for stop becomes
    its list (stop=END is ["END"]); any other value of the wrong type, or a name Ollama does not
    have (unless unchecked), is one line. Other APIs take their own options, unchecked, but for the
    keys of the request itself (request_keys_refused)."""
    if api != "ollama":
        return request_keys_refused(options)
    checked = {}
    for key, value in options.items():
        kind = OLLAMA_OPTIONS.get(key)
        if kind is None:
            if not unchecked:
                raise EvalError(f"--option {option_shown(key)}: Ollama has no such option and would ignore it without a word "
                                f"(its options: {', '.join(sorted(OLLAMA_OPTIONS))}); a newer server's option "
                                "goes through with --unchecked-options")
        elif kind == "list of texts" and type(value) is str:
            value = [value]
        elif kind == "integer" and type(value) is float and value.is_integer() and abs(value) < 2 ** 63:
            value = int(value)   # 64.0 is 64, as Ollama reads it
        elif not (value is None or (kind == "integer" and type(value) is int and -2 ** 63 <= value < 2 ** 63)
                  or (kind == "number" and type(value) in (int, float))
                  or (kind == "boolean" and type(value) is bool)
                  or (kind == "list of texts" and type(value) is list and all(type(v) is str for v in value))):
            raise EvalError(f"--option {option_shown(f'{key}={json_text(value)}')}: Ollama takes {'an' if kind[0] in 'ai' else 'a'} "
                            f"{kind} there (e.g. {OPTION_EXAMPLES[kind].format(key=key)})")
        if kind == "list of texts" and "" in (value or []):
            # Ollama's own runner ends an answer at the first stop text it contains (runner/common/stop.go
            # FindStop, strings.Contains), and every text contains "": each answer would come back empty
            raise EvalError(f"--option {option_shown(f'{key}={json_text(value)}')}: an empty stop text ends every answer before its "
                            "first word; leave it out (is a shell variable empty?)")
        checked[key] = value
    return checked


# The keys of an OpenAI-compatible request that eval.py sets itself, and what sets each. Over /v1 an
# --option goes into the request body beside them: model=other asked another model, messages=[...]
# replaced the prompt and every case, while the run was recorded and scored as the model and prompt
# given. (temperature and seed are refused for both APIs by parse_options.)
REQUEST_KEYS = {
    "model": "--model sets it, and the run records it",
    "messages": "the prompt (--prompt) and each case's input make them",
    "stream": "eval.py reads each answer whole",
    "stream_options": "eval.py reads each answer whole",
    "n": "eval.py reads one answer a request; --repeat N asks each case N times",
    "response_format": "--format sets it",
    "tools": "a case's tools set them (its tools field, or tools.json beside the split)",
    "functions": "a case's tools set them (its tools field, or tools.json beside the split)",
    "function_call": "a case's tools set them (its tools field, or tools.json beside the split)",
}


def request_keys_refused(options):
    for key in options:
        if key in REQUEST_KEYS:
            raise EvalError(f"--option {on_one_line(key)}: eval.py sets the request's {key} itself; {REQUEST_KEYS[key]}")
    for ours, theirs in OPENAI_RENAMED.items():   # both would be sent as one key, the last given winning
        if ours in options and theirs in options:
            raise EvalError(f"--option {ours} is sent as {theirs}: give one of --option {ours} and --option {theirs}")
    caps = [k for k in ANSWER_CAPS if k in options]
    if len(caps) > 1:   # which one a server obeys is its own (vLLM, SGLang: max_completion_tokens; Ollama's /v1: max_tokens)
        raise EvalError(f"--option {caps[0]} and --option {caps[1]} both cap the answer, and servers differ in which "
                        f"they obey: give one")
    return options


def runner_values_ok(runner):
    """A run file's judge.runner holds values Ollama takes (a hand-edited one is read like --option)."""
    try:
        return ollama_options(runner, "ollama") == runner
    except EvalError:
        return False


# How each kind of Ollama option is written on the command line.
OPTION_EXAMPLES = {"integer": "--option {key}=64", "number": "--option {key}=0.9", "boolean": "--option {key}=true",
                   "list of texts": '--option {key}=\'["\\n", "END"]\''}


def pinned_options(options, api):
    """Ollama's num_ctx is always sent (DEFAULT_NUM_CTX unless --option num_ctx=N), so a run asks
    the same way whatever the server's version defaults to, and the report can tell when a prompt
    filled the window."""
    return {"num_ctx": DEFAULT_NUM_CTX, **options} if api == "ollama" else options


def think_value(think, api):
    if think is None:
        return THINK_DEFAULT
    if api != "ollama":
        raise EvalError("--think is sent as Ollama's \"think\"; an OpenAI-compatible server takes its own "
                        "option, e.g. --option reasoning_effort=low")
    return THINK_VALUES[think]


def server_url(api, host):
    """--host, else $OLLAMA_HOST for Ollama (read as the ollama CLI reads it), else $OPENAI_BASE_URL."""
    if host is not None:
        return resolve_host(host)
    if api == "ollama":
        return resolve_host(os.environ.get("OLLAMA_HOST", ""))
    if os.environ.get("OPENAI_BASE_URL"):
        return resolve_host(os.environ["OPENAI_BASE_URL"])
    raise EvalError("--api openai needs --host (the server's base URL, e.g. http://127.0.0.1:8000) "
                    "or $OPENAI_BASE_URL")


def parse_options(pairs):
    """--option KEY=VALUE: values that parse as JSON are JSON (512, 0.9, ["\\n"]), others stay text.
    A value that begins with [, { or " was meant as JSON: one that does not parse (stop=['END'], a
    trailing comma, a missing bracket, stop="[/INST] with no closing quote) is refused, never sent
    as one text, brackets and quotes and all."""
    options = {}
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise EvalError(f"--option {option_shown(pair)}: write KEY=VALUE, e.g. --option num_predict=64")
        key = key.strip()   # the name sent: "temperature =0.9" is temperature, and must meet the guard as such
        if key in ("temperature", "seed"):
            raise EvalError(f"--option {key}: use --{key}, which is recorded and compared as such")
        try:
            parsed = strict_json(value)
        except ValueError as e:
            if value.lstrip().startswith(("[", "{", '"')):
                raise EvalError(f"--option {option_shown(pair)}: it begins like JSON but is not "
                                f"JSON ({json_problem(e)}); "
                                f"write JSON, e.g. --option stop='[\"END\", \"STOP\"]', or a text that begins with "
                                f"[ or {{ as a JSON string, e.g. --option stop='\"[/INST]\"'") from None
            parsed = value
        if key in options and json_text(options[key]) != json_text(parsed):   # (the last was kept, the first never sent;
            # as JSON: 1 and true are one to Python, two values to a server)
            raise EvalError(f"--option {option_shown(key)} is given twice, with two values; give it once")
        options[key] = parsed
    return options


def option_shown(pair, width=120):
    """A refused --option as an error shows it: on one line, its tabs escaped too (they would line up
    as spaces), and cut short (a 200 kB value would be a 200 kB line)."""
    return cut_to(on_one_line(pair).replace("\t", "\\t"), width)


def default_run_path(split_name, prompt_path, model=None):
    """runs/dev-v3.json; in a grid, where runs differ by model too, runs/dev-v3-qwen2.5-7b.json."""
    stem = os.path.splitext(os.path.basename(prompt_path))[0]
    return os.path.join(RUNS_DIR, f"{split_name}-{stem}{'' if model is None else model_tag(model)}.json")


def model_tag(model):
    """-qwen2.5-7b: a model's name in a file name, what a file name cannot hold, or should not, made a dash."""
    return "-" + (re.sub(r"[^A-Za-z0-9._-]+", "-", model).strip("-.") or "model")


def named_for_its_model(path, model):
    """A default name a run of another model holds gives way to one that says this run's model
    (runs/dev-v3.json, then runs/dev-v3-llama3.2-3b.json), not to runs/dev-v3-2.json, which says
    nothing of what differs; a name this model's run holds moves on to -2 as before."""
    holder = None
    for taken, whole in ((path, True), (path + JOURNAL_SUFFIX, False)):
        try:
            with open_regular(taken) as f:
                holder = exact_json((f.read() if whole else f.readline()).decode("utf-8"))["config"]["model"]
            break
        except (OSError, ValueError, KeyError, TypeError):   # absent or unreadable: nothing said of its model
            continue
    if not isinstance(holder, str) or same_model(holder) == same_model(model):   # m is m:latest
        return path
    base, ext = os.path.splitext(path)
    return base + model_tag(model) + ext


# The names of the files eval.py keeps beside a run: a run file by one of them would be read as that file.
# (the longer name first: X.pairwise.json.journal is named as what it is, not as a run's journal)
RESERVED_SUFFIXES = {ANNOTATIONS_SUFFIX: "review's annotations", OLD_ANNOTATIONS_SUFFIX: "review's annotations",
                     PAIRWISE_SUFFIX: "pairwise verdicts",
                     PAIRWISE_JOURNAL_SUFFIX: "pairwise verdicts not yet stored in the sidecar",
                     JOURNAL_SUFFIX: "an unfinished run's answers",
                     JUDGING_SUFFIX: "an unfinished judging's votes", ".lock": "a lock"}


def chosen_run_path(out, default, held_by=NAME_HOLDERS):
    """(where a new run file goes, whether that name is the user's own): `run` and `judge` alike. A
    default name moves to the next free one; a name given with --out is taken as given or refused,
    so that a `report` of that name reads this run and no older one; --out naming a folder puts
    the default name in it. Refused before any call: a name that is taken (a dangling link too:
    the final write could not take it), one of eval.py's own names, a path through a file."""
    if out is None:
        return default, False
    if out == "":   # an empty shell variable: the default name would pass for the file asked for
        raise EvalError("--out '' names no file: give a file name or a folder (without --out, the default name is used)")
    if out == "-":
        raise EvalError("--out -: a run is written to a file, never to stdout; give a file name "
                        "(report RUN --json prints it)")
    if out.endswith(("/", os.sep)) or os.path.isdir(out):
        return os.path.join(out, os.path.basename(default)), False
    suffix = next((s for s in RESERVED_SUFFIXES if out.endswith(s)), None)
    temp = TEMP_NAME.fullmatch(os.path.basename(out))
    if suffix or temp:
        what = RESERVED_SUFFIXES[suffix] if suffix else \
            f"a write in progress, removed by the next write of {os.path.join(os.path.dirname(out), temp.group(1))}"
        raise EvalError(f"--out {shell_word(out)}: a name ending in {suffix or temp.group(2)} is for eval.py's files beside a run "
                        f"({what}); give the run another name")
    folder = os.path.dirname(out)
    while folder and not os.path.lexists(folder):   # the folders still to make: the first that exists must be one
        folder = os.path.dirname(folder)
    if folder and not os.path.isdir(folder):
        raise EvalError(f"--out {shell_word(out)}: {shell_word(folder)} is not a folder; run files go in a folder")
    for taken in (out + suffix for suffix in held_by):   # (judge goes on with a judging of its own: judging_target)
        in_the_way = (journal_in_the_way(out) if taken == out + JOURNAL_SUFFIX and os.path.isfile(taken) else
                      judging_in_the_way(out) if taken == out + JUDGING_SUFFIX and os.path.isfile(taken) else None)
        if in_the_way:   # a run's answers, paid for: never "remove it"
            raise EvalError(f"--out {shell_word(out)}: {in_the_way}, or give another --out")
        if os.path.lexists(taken):
            raise EvalError(f"--out {shell_word(out)}: {shell_word(taken)} exists, and eval.py never overwrites a run; remove it or "
                            "give another --out (without --out, the next free name is used)")
    return out, True


def journal_in_the_way(run_path):
    """What the journal at a run's name is: a live run's (its lock held, the holder named), an
    interrupted one's, with the command that finishes it, or None when it is no run's journal."""
    holder = live_holder(run_path)   # (read, never taken: a look must not stop the run it looks at)
    if holder is not None:
        return (f"another eval.py (pid {on_one_line(holder, 20)}) is writing this run ({shell_word(run_path + JOURNAL_SUFFIX)}); "
                "wait for it")
    if journal_config(run_path + JOURNAL_SUFFIX) is None:   # no run's header: not a journal --resume could go on with
        return None
    return f"{shell_word(run_path + JOURNAL_SUFFIX)} holds an unfinished run (interrupted); finish it with: {resume_command(run_path)}"


def judging_in_the_way(run_path):
    """What the judging at a run's name is: a live judge's, or an unfinished one's, with how to finish
    it (its votes are paid for: never "remove it"); None when it is no judging."""
    holder = live_holder(run_path)
    if holder is not None:
        return (f"another eval.py (pid {holder}) is judging into this name ({shell_word(run_path + JUDGING_SUFFIX)}); "
                "wait for it")
    try:
        header, entries = judging_lines(run_path + JUDGING_SUFFIX)
    except EvalError as e:   # a judging all the same: never "a run" to remove
        return f"{e}; it is an unfinished judging: move it aside"
    return (f"{shell_word(run_path + JUDGING_SUFFIX)} holds an unfinished judging of {shell_word(header['config']['judged_from'])} "
            f"({plural(votes_held(entries), 'vote')}); the judge command that began it, given again with "
            f"{option_word('--out', run_path)}, finishes it")


def votes_held(entries):
    """How many votes a judging's lines hold: each call's last (one asked again after it failed
    replaces it), failed ones none."""
    calls = {}
    for _, entry in entries:
        vote = entry["vote"]
        calls[json_text([entry["id"], entry["trial"], vote["check"], vote["model"], vote["vote"]])] = vote
    return sum(1 for vote in calls.values() if not vote["error"])


def numbered_names(path):
    """path, path-2, path-3 ... (a run's default name and those it moves to)."""
    base, ext = os.path.splitext(path)
    yield path
    yield from (f"{base}-{n}{ext}" for n in itertools.count(2))


def name_taken(path, held_by=NAME_HOLDERS):
    """A run file, a journal or a judging holds the name (a dangling link too)."""
    return any(os.path.lexists(path + suffix) for suffix in held_by)


def free_run_path(path):
    """The first of path, path-2, path-3 ... that no run file, journal or judging holds."""
    return next(p for p in numbered_names(path) if not name_taken(p))


def run_text(run):
    """The run file's text, piece by piece: the same as json.dumps(run, indent=1), without ever
    holding a second copy of a large run in memory as one string."""
    yield '{\n "format": ' + json.dumps(run["format"]) + ',\n "config": '
    yield json_text(run["config"], indent=1).replace("\n", "\n ") + ',\n "results": ['
    for i, result in enumerate(run["results"]):
        yield ("\n  " if i == 0 else ",\n  ") + json_text(result, indent=1).replace("\n", "\n  ")
    yield "\n ]\n}\n" if run["results"] else "]\n}\n"


def run_lock(run_path):
    """The lock on a run while a process asks for its answers (RUN.lock), so two resumes of one
    journal never both call the model: the second is refused, told who holds it."""
    return FileLock(run_path + ".lock", lambda holder: f"another eval.py (pid {holder}) is finishing this run "
                                                       f"({shell_word(run_path)}); wait for it, or stop it first")


def live_holder(run_path):
    """The pid of a live eval.py writing the run at run_path (holding its RUN.lock), else None. Read
    only, never locked: a look from `runs` must not stop a run from taking its lock. Linux's lock table
    (/proc/locks) names who holds a flock on the file; elsewhere the pid the file holds is taken when
    that process is running (a pid reused since may pass for it)."""
    try:
        with open_regular(run_path + ".lock", "rb") as f:
            held, said = os.fstat(f.fileno()), f.read(32).decode("ascii").strip()
    except (OSError, UnicodeDecodeError):
        return None
    try:
        with open("/proc/locks", encoding="ascii") as table:
            where = f"{os.major(held.st_dev):02x}:{os.minor(held.st_dev):02x}:{held.st_ino}"   # as the kernel writes it
            holders = [fields[4] for fields in map(str.split, table)
                       if len(fields) > 5 and fields[1] == "FLOCK" and fields[5] == where]
        return next((pid for pid in holders if pid != str(os.getpid())), None)
    except (OSError, UnicodeDecodeError):
        pass   # not Linux: the pid in the file, if a process has it
    if not said.isascii() or not said.isdigit() or not 0 < int(said) < 2 ** 31 or int(said) == os.getpid():
        return None
    try:
        os.kill(int(said), 0)
    except PermissionError:   # a process of another user has that pid: running
        return said
    except OSError:
        return None
    return said


def open_journal(run_path, config, exact=False, header=None, suffix=JOURNAL_SUFFIX, lock_for=run_lock):
    """Create the journal exclusively (it reserves the run's name) and write its header: a run's
    ({"format", "config"}), or the one given (a judging's, with its suffix and lock). An exact name
    taken meanwhile is refused, not moved."""
    folder = os.path.dirname(run_path) or "."
    if os.path.exists(folder) and not os.path.isdir(folder):
        raise EvalError(f"{shell_word(folder)} is not a folder; run files go in a folder (see --out)")
    what = "run" if header is None else "judge"
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as e:   # a read-only mount, /proc: named, with what would have gone there
        raise EvalError(f"cannot make the folder {shell_word(e.filename or folder)} for {shell_word(run_path)} "
                        f"({e.strerror}); no case was asked yet: give --out in a folder that can be written") from None
    while True:
        run_path = run_path if exact else free_run_path(run_path)
        try:
            fd = os.open(run_path + suffix, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            if exact:   # (a run file of that name was refused before: chosen_run_path)
                raise EvalError(f"--out {shell_word(run_path)}: another run took this name meanwhile") from None
            continue   # another run took the name between our look and our open
        except OSError as e:   # a folder that cannot be written (Permission denied, Read-only file system)
            raise EvalError(f"cannot write {shell_word(run_path + suffix)} ({e.strerror}); no case was asked yet: "
                            f"{remedy(e).lower()}, or give --out in a folder that can be written, and {what} again") from None
        journal, lock = os.fdopen(fd, "ab"), None
        try:
            lock = lock_for(run_path)
            lock.hold_too(run_path + suffix, f"{shell_word(run_path + suffix)} is held by another eval.py")
            append_journal(journal, header or {"format": RUN_FORMAT, "config": config})
        except BaseException as e:   # a full disk before the first answer (or a stop): leave nothing behind,
            abandon_journal(run_path, journal, lock, suffix)   # or the same --out is refused next time
            if isinstance(e, OSError):
                raise EvalError(f"cannot write {shell_word(e.filename or run_path + suffix)} ({e.strerror}); nothing "
                                f"was asked yet. {remedy(e)} and {what} again") from None
            raise
        return run_path, journal, lock


def abandon_journal(run_path, journal, lock, suffix=JOURNAL_SUFFIX):
    """Undo open_journal: a journal that holds no answer of its own goes, and so does its lock."""
    with contextlib.suppress(OSError):   # a write that failed fails again as the file is closed
        journal.close()
    remove_quietly(run_path + suffix)
    if lock:
        lock.release()


# What a run is asked again from (a journal's header, or a finished run being completed): its own inputs
# and server, each text
RESUMED_KEYS = ("model", "prompt", "prompt_sha", "split", "split_path", "split_sha", "host", "labels")


def resumed_problem(config):
    """What a run asked again (a journal's header, a finished run completed) must hold beyond what
    report reads: its inputs and server as text, and its judge's votes, seed and temperature, which
    each vote is asked with (report reads a judge without them; a resume would guess them)."""
    problem = config_problem(config, RESUMED_KEYS)
    if not problem and "completed_from" in config and not isinstance(config["completed_from"], str):
        problem = "config.completed_from must be the path of the run it completes"
    if problem or config.get("judge") is None:
        return problem
    missing = next((k for k in ("votes", "seed", "temperature") if k not in config["judge"]), None)
    return missing and f"config.judge has no {missing!r}, which its votes are asked with"


JOURNAL_OPENING = b'{"format": "' + RUN_FORMAT.encode() + b'", "config": {'   # how every run journal begins


def read_journal(path, turns=None, where=None, begun=None):
    """Returns (config, {(case id, trial): call result}). A torn last line (killed mid-write) is dropped.
    An agent's turns, journaled as each ended, go into `turns` ({(case id, trial): [turn, ...]}) when given;
    an answer journaled before its judges' votes, with the votes journaled since, into `begun`
    ({(case id, trial): {"answer": ..., "votes": {(check, model, vote): vote}}}), unless its result is whole;
    `where`, when given, gets the line each answer or turn of a (case id, trial) is first on, for a
    message that names a line of a case the split lacks (refuse_changed)."""
    # Each line is decoded on its own, strictly: bytes that are not UTF-8 were edited in (a kill tears only
    # the last line, perhaps inside a character), and U+FFFD in their place would be stored in the run for good.
    lines = read_bytes(path, "journal").split(b"\n")
    try:
        header = exact_json(lines[0].decode("utf-8"))
        config = header["config"]
        if header.get("format") != RUN_FORMAT or not isinstance(config, dict):
            raise KeyError
    except (ValueError, KeyError, TypeError) as e:
        # no complete first line, and what there is begins as eval.py's: killed, or out of space, before
        # anything was asked (a file of another's is never called a run to remove)
        if len(lines) == 1 and (lines[0][:len(JOURNAL_OPENING)] == JOURNAL_OPENING[:len(lines[0])]):
            raise EvalError(f"{shell_word(path)}: the run that made it stopped before asking anything (its first line is "
                            "incomplete); remove it and run again") from None
        if isinstance(e, ValueError):   # a line that is no exact JSON: say why, as a judging's header does
            raise EvalError(f"{shell_word(path)}:1: damaged journal header ({line_problem(e)})") from None
        raise EvalError(f"{shell_word(path)}: not a journal written by eval.py (bad first line)") from None
    problem = resumed_problem(config) or labels_problem(config["labels"])
    if problem:
        raise EvalError(f"{shell_word(path)}:1: damaged journal header: {problem}")
    config.setdefault("repeat", 1)
    done, placed, voting = {}, {}, {}   # placed: {(case id, trial): {turn: (line, entry)}}, to hold each turn to the others
    answered_at = {}   # {(case id, trial): the line of its answer}: an answer kept is never asked again
    for number, raw in enumerate(lines[1:], 2):
        try:
            line = raw.decode("utf-8")
            if not line.strip():
                continue
            entry = exact_json(line)   # a field twice is an edit, as in a run file, never read as its last value
        except ValueError as e:   # (a UnicodeDecodeError is one)
            if number == len(lines):   # only a last line with no newline can be torn by a kill
                continue
            raise EvalError(f"{shell_word(path)}:{number}: damaged journal line ({line_problem(e)}); "
                            "it was not cut short by a kill, so it was edited") from None
        problem = journal_entry_problem(entry, config)
        if not problem and "turn" in entry:   # (an entry with a problem may have no id to key it by)
            key = (entry["id"], entry.get("trial", 1))
            problem = turn_conflict(entry, placed.setdefault(key, {}), number, config["repeat"])
        if problem:
            raise EvalError(f"{shell_word(path)}:{number}: damaged journal line: {problem}")
        whole_counts_of(entry)
        key = (entry["id"], entry.get("trial", 1))
        if key in answered_at and "vote" not in entry:   # a result, an answer or a turn after the answer: edited in
            raise EvalError(f"{shell_word(path)}:{number}: damaged journal line: {on_one_line(key[0], 60)}"
                            f"{f' (trial {key[1]})' if config['repeat'] > 1 else ''} has its answer on line "
                            f"{answered_at[key]} already, and an answer kept is never asked again: it was edited")
        if where is not None:
            where.setdefault(key, number)
        if "turn" in entry:
            if turns is not None and placed[key][entry["turn"]][0] == number:   # a turn journaled twice alike: once
                turns.setdefault(key, []).append(entry)
            continue
        if "answer" in entry or "vote" in entry:
            judging = voting.setdefault(key, {"votes": {}})
            if "answer" in entry:   # another answer (asked again after an error): the votes on one before are not its
                voting[key] = judging = {"answer": entry["answer"], "votes": {}}
            elif "answer" not in judging:   # journaled after its answer, always
                raise EvalError(f"{shell_word(path)}:{number}: damaged journal line: a vote on an answer the journal "
                                "does not hold before it")
            else:   # a vote asked again after its call failed replaces it
                vote = entry["vote"]
                judging["votes"][vote["check"], vote["model"], vote["vote"]] = vote
            continue
        done[key] = entry
        if entry.get("error") is None:
            answered_at[key] = number
        voting.pop(key, None)   # the whole result: its answer and votes journaled before it are in it
    if begun is not None:   # an answer whose votes a stop cut short; after an error line too (asked again)
        begun.update(voting)
    return config, done


def journal_entry_problem(entry, config):
    """A journal line is held to what a run file's result is held to: resuming never writes a run
    that report would refuse."""
    if type(entry) is not dict or type(entry.get("id")) is not str:
        return "not an answer with an id"
    if "turn" in entry:   # one turn of an agent's conversation
        trial = entry.get("trial", 1)
        if type(trial) is not int or not 1 <= trial <= config["repeat"] or type(entry["turn"]) is not int \
                or entry["turn"] < 1 or type(entry.get("figures")) is not dict or answer_problem(entry["figures"]):
            return "an agent's turn needs a trial, a turn number and its figures"
        return transcript_problem(entry.get("transcript")) or turn_problem(entry["transcript"])
    if "answer" in entry or "vote" in entry:   # an answer to judge, journaled before its votes; one vote
        trial = entry.get("trial")
        if type(trial) is int and not 1 <= trial <= config["repeat"]:
            return f"trial {trial} of a run of {plural(config['repeat'], 'trial')}"
        if set(entry) not in ({"id", "trial", "answer"}, {"id", "trial", "vote"}) or type(trial) is not int \
                or not 1 <= trial <= config["repeat"] or type(entry.get("answer", entry.get("vote"))) is not dict:
            return "an answer to judge, or a vote on it, needs its id, its trial and nothing else"
        if "vote" in entry:
            vote = entry["vote"]
            return votes_problem([vote]) or judged_vote_problem(vote) or judges_votes_problem([vote], config, None)
        answer = entry["answer"]
        if type(answer.get("response")) is not str or answer.get("judges") is not None or answer.get("error") is not None:
            return "an answer to judge has a response, no error and no votes yet"
        return recorded_answer_problem(dict(answer, trial=trial), config)
    return recorded_answer_problem(entry, config)


def turn_problem(transcript):
    """What makes a journaled turn other than ask_agent writes one, or None: the assistant's message,
    then one tool message answering each of its calls, in order. Kept otherwise, a resume would send
    the model a call without its result, or count an empty turn as one."""
    if not transcript or transcript[0]["role"] != "assistant" or any(m["role"] != "tool" for m in transcript[1:]):
        return "a turn's transcript is the assistant's message, then one tool message per call it made"
    calls, results = transcript[0].get("tool_calls") or [], transcript[1:]
    for number, call in enumerate(calls, 1):
        name = on_one_line(call["name"], 60)
        if number > len(results):
            return f"call {number} ({name}) has no tool message after it"
        if results[number - 1]["name"] != call["name"] or call.get("id") and results[number - 1]["call_id"] != call["id"]:
            return (f"call {number} ({name}) is answered by a tool message for "
                    f"{on_one_line(results[number - 1]['name'], 60)} (call_id {on_one_line(results[number - 1]['call_id'], 60)})")
    if len(results) > len(calls):
        return "a turn's transcript is the assistant's message, then one tool message per call it made (it has more)"
    return None


def turn_conflict(entry, placed, number, repeat):
    """What makes a turn line disagree with the turns of its case and trial before it (placed:
    {turn: (line, entry)}, which it joins), or None. Each turn is journaled once, in order (1, 2, 3...),
    and a turn that calls no tool ends the conversation: a turn journaled again with other content,
    out of order, or after such an answer was edited in."""
    name = on_one_line(trial_name(entry["id"], entry.get("trial", 1), repeat > 1), 60)
    turn = entry["turn"]
    if turn in placed:
        line, before = placed[turn]
        return None if before == entry else f"turn {turn} of {name} is journaled twice (at line {line}) with other content"
    if turn > 1 and turn - 1 not in placed:   # a resume goes on from the turn after the last it has
        return f"turn {turn} of {name} has no turn {turn - 1} before it"
    if turn > 1 and not placed[turn - 1][1]["transcript"][0].get("tool_calls"):
        return (f"turn {turn} of {name} follows turn {turn - 1}, which answered without calling a tool "
                f"(line {placed[turn - 1][0]}: the conversation ended there)")
    placed[turn] = (number, entry)
    return None


def reopen_journal(path):
    """Open a journal to append, first cutting off a line torn by a kill. In bytes: a count of
    characters is not an offset in a file that holds any non-ASCII text. Its header is never cut: the
    caller read it whole, so a header without its line break (a kill between the two) gets it."""
    journal = open(path, "rb+")
    data = journal.read()
    end = data.rfind(b"\n") + 1
    journal.truncate(end if end else len(data))
    journal.seek(0, os.SEEK_END)
    if not end and data:
        journal.write(b"\n")
        journal.flush()
    return journal


def append_journal(journal, entry):
    journal.write(json_line(entry))
    journal.flush()   # on disk (in the OS) before the next case: a SIGKILL loses nothing


class InFlight:
    """The requests out right now and what each waits for ('case dev-13', 'the judge on dev-13'):
    the progress line names the oldest, so a long silence says what it is spent on."""

    def __init__(self):
        self.lock, self.out, self.numbers = threading.Lock(), {}, iter(range(1 << 62))

    @contextlib.contextmanager
    def request(self, what):
        with self.lock:
            number = next(self.numbers)
            self.out[number] = (time.monotonic(), what)
        try:
            yield
        finally:
            with self.lock:
                del self.out[number]

    def oldest(self):
        """(what, seconds out, requests out) of the oldest request out, or None."""
        with self.lock:
            if not self.out:
                return None
            since, what = min(self.out.values())
            return what, time.monotonic() - since, len(self.out)


class Progress:
    """done/total, errors, elapsed and ETA on stderr, and the oldest request still out: redrawn on
    a terminal; off one (a CI log), a line every 5% of the run, at a new error (one a second at
    most), and every PROGRESS_EVERY seconds, answer or not (tick() draws it while nothing arrives)."""

    def __init__(self, total, already, stream=None):
        # sys.stderr as it is now, not at import: main() puts a ReaderGone in front of it
        self.total, self.already, self.stream = total, already, stream or sys.stderr
        self.tty = self.stream.isatty()
        self.started = self.last = time.monotonic()
        self.shown = (already, 0)   # (done, errors) of the last line written off a terminal
        self.counts = (already, 0)  # (done, errors) now
        self.step = max(1, ceil(total / 20))   # at least 5% more a line: 28 cases, a line every 2
        self.error_shown_at = -inf   # when a line last showed a new error
        self.waiting = InFlight()

    def tick(self):
        """Called while no answer arrives: the line again, with how long the oldest request has been out."""
        self.update(*self.counts)

    def due(self, now, done, errors):
        if self.tty:
            return now - self.last >= 0.1
        if errors != self.shown[1] and now - self.error_shown_at >= 1:
            self.error_shown_at = now
            return True
        return done // self.step > self.shown[0] // self.step or now - self.last >= PROGRESS_EVERY

    def update(self, done, errors, final=False):
        now = time.monotonic()
        self.counts = (done, errors)
        if not (final or self.due(now, done, errors)):
            return
        if final and not self.tty and self.shown == (done, errors):
            return   # the last line already said it
        self.last, self.shown = now, (done, errors)
        elapsed = now - self.started
        fresh = done - self.already
        left = self.total - done
        eta = f"{elapsed / fresh * left:.0f}s" if fresh and left else "-"
        line = f"[{done}/{self.total}] errors {errors} · {elapsed:.1f}s elapsed · ETA {eta}"
        oldest = None if final else self.waiting.oldest()
        if oldest and oldest[1] >= 1:   # a request out for less is no silence worth naming
            what, seconds, out = oldest
            # what names a case by its id (the judge's too): escaped and on one line, or an id's escape
            # sequence would act on the terminal and its line break forge a line
            line += f" · waiting {seconds:.0f}s for {on_one_line(what)}" + (f" (oldest of {out} out)" if out > 1 else "")
        if self.tty:
            self.stream.write("\r\033[K" + line + ("\n" if final else ""))
        else:
            self.stream.write(line + "\n")
        self.stream.flush()


def nth_seed(seed, n):
    """The seed of the n-th sample (a trial, a judge's vote): seed + n - 1, so samples are not copies.
    A seed below 0 is no seed: every sample is drawn afresh, none of them seeded."""
    return seed + n - 1 if seed >= 0 else seed


def case_options(config, trial=1):
    """The options an answer is asked with. Trial t of a run with trial_seeds uses seed + t - 1: with
    one seed for every trial, a server that honours it (Ollama does) draws the same sample each time,
    and --repeat at a temperature above 0 would measure nothing. A seed below 0 is no seed: each
    request samples afresh."""
    seed = nth_seed(config["seed"], trial) if config.get("trial_seeds") else config["seed"]
    return {"temperature": config["temperature"], "seed": seed, **config.get("options", {})}


def ask_case(client, config, prompt_text, case, kept=(), on_turn=None, waiting=None, trial=1, begun=None):
    """One answer to one case, then (if it has judge checks) the judge's votes on it; each request
    is registered in `waiting` (InFlight) while it is out. A case with tools is a conversation of
    requests (ask_agent): kept holds the turns a journal already has, and on_turn(turn) journals
    each new one as it ends. An answer to judge is told to on_turn too, before its votes, and then
    each vote as it comes ({"answer": ...}, {"vote": ...}): a stop among the votes loses none paid
    for. begun: such an answer a journal holds, with its votes ({"answer", "votes"}): not asked
    again, and only the votes it lacks (or that failed) are."""
    waiting, on_turn = waiting or InFlight(), on_turn or (lambda entry: None)
    options = case_options(config, trial)
    if begun:
        answer = dict(begun["answer"])
    else:
        with waiting.request(f"case {case['id']}"):
            if case.get("tools"):
                answer = ask_agent(client, config, prompt_text, case, kept, on_turn, trial)
            else:
                answer = client.chat(config["model"], messages_for(prompt_text, case), options,
                                     output_format(config.get("format"), config["labels"]), config.get("think", THINK_DEFAULT))
    said = answer_of(answer["response"]) if answer["response"] is not None else None
    if said is not None and config.get("judge"):
        if not begun and has_judge_check([case]):
            on_turn({"answer": answer})
        judged = dict(case, transcript=answer["transcript"]) if case.get("tools") else case
        with waiting.request(f"the judge on {case['id']}"):
            answer["judges"] = judge_answer(client, config["judge"], judged, said, (begun or {}).get("votes"),
                                            lambda vote: on_turn({"vote": vote})) or None
    return answer


# Agents. A case with tools is asked in turns: each answer that calls tools gets one tool message per
# call, with the result its case's tool_results give (nothing real is touched), and is asked again,
# until an answer calls none or --max-turns requests were made. Each turn is journaled as it ends.

SUMMED = ("attempts", "latency_ms", "prompt_tokens", "completion_tokens", "total_duration_ns", "load_duration_ns",
          "prompt_eval_duration_ns", "eval_duration_ns", "thinking_tokens")   # over an agent's turns
TURN_FIGURES = SUMMED + ("done_reason",)   # what each turn keeps of its request (per_turn)


def tool_result(call, case):
    """(the text a call gets back, whether the case's tool_results had one for it). A rule matches
    when its arguments are within the call's; a call nothing matches gets NO_RESULT."""
    if tool_named(case.get("tools"), call["name"]) is None:
        return json_text({"error": f"there is no tool named {call['name']}"}), False
    given = (case.get("tool_results") or {}).get(call["name"], NO_RESULT)
    if given is NO_RESULT:
        return json_text(NO_RESULT), False
    if isinstance(given, list):
        arguments = call_arguments(call)
        given = next((rule["result"] for rule in given if arguments is not None and is_subset(rule["arguments"], arguments)),
                     NO_RESULT)
        if given is NO_RESULT:
            return json_text(NO_RESULT), False
    return (given if isinstance(given, str) else json_text(given)), True


def agent_turn(answer, number):
    """One turn as the journal and the transcript keep it: the assistant's message (its calls as the
    server sent them, an id made from its place for a call without one), and the request's figures.
    number: the message's place in the transcript."""
    message = {"role": "assistant", "content": answer["response"]}
    if answer.get("thinking"):
        message["thinking"] = answer["thinking"]
    if answer.get("tool_calls"):
        message["tool_calls"] = answer["tool_calls"]
    return message, {k: answer.get(k) for k in TURN_FIGURES}


def summed(per_turn):
    """An agent's figures over its turns: counts and times added (None where no turn has one), the
    last turn's done_reason."""
    total = {k: sum(f[k] for f in per_turn if f.get(k) is not None) if any(f.get(k) is not None for f in per_turn)
             else None for k in SUMMED}
    total["latency_ms"] = round(total["latency_ms"], 1) if total["latency_ms"] is not None else None
    total["done_reason"] = per_turn[-1].get("done_reason") if per_turn else None
    return total


def ask_agent(client, config, prompt_text, case, kept, on_turn, trial=1):
    """The loop of one agent case. Returns the result's call fields: the final answer as response,
    the transcript, per_turn, and the figures summed; an error names its turn and keeps the turns before."""
    transcript, per_turn = [], []
    for turn in kept:   # journaled before an interruption: not asked again
        transcript += turn["transcript"]
        per_turn.append(turn["figures"])
    system = messages_for(prompt_text, case)
    fmt, think = output_format(config.get("format"), config["labels"]), config.get("think", THINK_DEFAULT)
    max_turns = config.get("max_turns") or DEFAULT_MAX_TURNS
    last = transcript[-1] if transcript and transcript[-1]["role"] == "assistant" else None
    while len(per_turn) < max_turns and not (last and not last.get("tool_calls")):
        answer = client.chat(config["model"], system + client.wire(transcript), case_options(config, trial), fmt, think,
                             case["tools"])
        if answer["error"] is not None:
            return {**summed(per_turn + [answer]), "response": None, "error": f"turn {len(per_turn) + 1}: {answer['error']}",
                    "transcript": transcript, "per_turn": per_turn, "out_of_turns": False}
        last, figures = agent_turn(answer, len(transcript))
        made = [last]
        for i, call in enumerate(last.get("tool_calls") or ()):
            content, matched = tool_result(call, case)
            made.append({"role": "tool", "name": call["name"], "call_id": call.get("id") or f"call_{len(transcript)}_{i}",
                         "content": content, "matched": matched})
        on_turn({"turn": len(per_turn) + 1, "transcript": made, "figures": figures})
        transcript += made
        per_turn.append(figures)
    out = bool(last is None or last.get("tool_calls"))
    said = (last or {}).get("content")
    return {**summed(per_turn), "response": said if isinstance(said, str) else "",
            "error": None, "thinking": (last or {}).get("thinking"), "transcript": transcript, "per_turn": per_turn,
            "out_of_turns": out}


def awaited(waiting, what, ask):
    """ask(item) as ask_all asks it, registered in `waiting` (InFlight) as what(item) while it is out."""
    def asking(item, trial):
        with waiting.request(what(item)):
            return ask(item)
    return asking


def ask_all(work, jobs, ask, on_answer, on_wait=None):
    """Call ask(case, trial) for each (case, trial) in `work` with `jobs` in flight; call
    on_answer(case, trial, result) in the main thread as answers arrive, and on_wait() about twice
    a second while none does (the progress line's timer). Workers are daemons: Ctrl-C never waits
    for them, and once it (or any error) stops the main thread, none takes more work: a call made then
    would be paid for and never kept."""
    pending = iter(work)
    take = threading.Lock()
    answers = queue.Queue()
    closed = False

    def worker():
        while True:
            with take:
                item = None if closed else next(pending, None)
            if item is None:
                return
            case, trial = item
            try:
                answers.put((case, trial, ask(case, trial)))
            except BaseException as e:   # a bug must surface in the main thread, not hang it
                answers.put((case, trial, e))
                return

    for _ in range(min(jobs, len(work))):
        threading.Thread(target=worker, daemon=True).start()
    try:
        for _ in range(len(work)):
            while True:
                try:
                    case, trial, result = answers.get(timeout=min(0.5, PROGRESS_EVERY))
                    break
                except queue.Empty:
                    if on_wait:
                        on_wait()
            if isinstance(result, BaseException):
                raise result
            on_answer(case, trial, result)
    finally:
        with take:
            closed = True


def assemble_run(config, cases, answers):
    """The run file's content: config plus one result per case and trial, in the split's order."""
    results = []
    for case in cases:
        for trial in range(1, config["repeat"] + 1):
            result = {k: case[k] for k in CASE_FIELDS if k in case}
            result["trial"] = trial
            answer = answers[case["id"], trial]
            result.update({k: answer.get(k) for k in CALL_FIELDS})
            results.append(result)
    return {"format": RUN_FORMAT, "config": config, "results": results}


HELD_OUT_SPLITS = ("test.jsonl",)   # golden/test.jsonl, golden/support/test.jsonl ...
# What a change to the system touches: every run option that changes what the model is asked or how
# (the option table's run_config rows, by the keys they are recorded as), and the labels beside the
# split, which the answers are asked for and read against. The split's checks are in its hash.
TUNED_CONFIG = tuple(dict.fromkeys([k for o in OPTIONS if "run" in o.commands for k in o.asks] + ["labels"]))


def journal_config(path, leniently=False):
    """The config of an unfinished run, from its journal's first line; None if it has none (a file
    that does not begin as eval.py's run journals do, {"format": RUN_FORMAT, "config": {...}}): an
    interrupted run of the held-out split has seen it as much as a finished one. leniently: a header
    damaged by a key given twice read all the same, as the held-out guard reads it (a damaged journal
    of a test run let the test split run again with another prompt)."""
    try:
        with open_regular(path) as f:
            line = f.readline().decode("utf-8")
            header = json.loads(line) if leniently else exact_json(line)   # a key twice says nothing, as in a run file
        return (header["config"] if isinstance(header, dict) and header.get("format") == RUN_FORMAT
                and isinstance(header.get("config"), dict) else None)
    except (OSError, ValueError, KeyError, RecursionError):
        return None


def as_tuned(key, value):
    """A recorded setting as a person chose it: the judge's digests are the server's (a run's model
    digest is not in TUNED_CONFIG either), and are not known before the server is asked."""
    return {k: v for k, v in value.items() if k != "digests"} if key == "judge" and type(value) is dict else value


# runs/example/: the runs this project ships, made on another machine, which are not the user's own
SHIPPED_RUNS = "example"


def is_held_out(split_path):
    """Whether a split is the held-out one: its file named test.jsonl, or a link to such a file (golden/final.jsonl
    -> test.jsonl ran another prompt on test unmarked). A copy under another name is another split to eval.py."""
    return any(os.path.basename(p) in HELD_OUT_SPLITS for p in (split_path, os.path.realpath(split_path)))


def runs_beside(split_path):
    """The runs folders of the project a split is in (the folder holding golden/, then runs/): a run made from
    another folder (--split ../golden/test.jsonl) is looked for where runs are kept. By the path as given and by
    the file's own (a golden/ linked into another folder: its runs are the project's it is in)."""
    found = []
    for folder in dict.fromkeys(os.path.dirname(p) for p in (os.path.abspath(split_path), os.path.realpath(split_path))):
        while os.path.basename(folder) != "golden" and os.path.dirname(folder) != folder:
            folder = os.path.dirname(folder)
        if os.path.basename(folder) == "golden":
            found.append(os.path.relpath(os.path.join(os.path.dirname(folder), RUNS_DIR)))
    return found


# Shown as nothing beside INVISIBLE_CHARS and what VARIATION_SELECTOR and UNSEEN_MARKS find: direction marks, the
# interlinear annotation marks and the object mark. The joiners (U+200C, U+200D) apart: nothing between two Latin
# letters, yet they shape a Persian word or join an emoji family.
MARKS_SHOWN_AS_NOTHING = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ufff9-\ufffc]")
JOINERS = re.compile("[\u200c\u200d]")
# a joiner beside ASCII, a space or a text's end joins nothing: shown as nothing there too
LOOSE_JOINERS = re.compile("(?:^|(?<=[\x00-\x7f]))[\u200c\u200d]+|[\u200c\u200d]+(?=[\x00-\x7f]|$)")


def without_marks(text, joiners=True):
    """text without what a reader cannot see (INVISIBLE_CHARS, variation selectors, the grapheme joiner, tag
    characters but a flag's, direction marks), and without the joiners unless joiners=False (where text is shown
    apart: two annotations, one with a joiner in an emoji family, are two)."""
    text = without_unseen(INVISIBLE_CHARS.sub("", VARIATION_SELECTOR.sub("", MARKS_SHOWN_AS_NOTHING.sub("", text))))
    return JOINERS.sub("", text) if joiners else LOOSE_JOINERS.sub("", text)


def as_read(text):
    """Text as a reader tells it from other text: in NFKC (full-width letters are letters), in any case, any run of
    whitespace one space, without what is shown as nothing (without_marks)."""
    return " ".join(unicodedata.normalize("NFKC", without_marks(text)).casefold().split())


def case_texts(cases):
    """The texts of each case of a set that no other case of it has, as read (as_read): its input, its turns'
    contents, its vars' values, of two words or more (a name, a number, a language or "hi" tells no case apart, and
    two sets of their own share them). Cases alike in every text (one copied, or each asked a trial in a run file)
    are one. Passages are no question: new questions over the same articles are another set. What the held-out
    guard tells a case by: the ticket, wherever it is (in the input or a var), whatever var is added beside it."""
    def texts(case):
        turns = case.get("messages") if isinstance(case.get("messages"), list) else []
        found = [case.get("input")] + [t.get("content") for t in turns if isinstance(t, dict)]
        found += list(case["vars"].values()) if isinstance(case.get("vars"), dict) else []
        read = (as_read(t) for t in found if isinstance(t, str))
        return frozenset(t for t in read if len(t.split()) >= 2)
    each = list(dict.fromkeys(texts(c) for c in cases))   # (each case twice hid a whole set: a text two shared was none)
    seen = Counter(t for found in each for t in found)
    return [{t for t in found if seen[t] == 1} for found in each]


def held_cases(path, journal):
    """(ids, the texts each case asks by: case_texts) of the cases a run file holds answers of; a journal holds their ids alone
    (None for what they ask). Both empty where it cannot be read."""
    try:   # (a kill mid-write cuts a journal's last answer inside a letter: the lines before it still count)
        with open_regular(path, "r", encoding="utf-8", errors="replace") as f:
            if journal:   # its header, then one answer a line
                return {line.get("id") for line in map(json_or_none, itertools.islice(f, 1, None))
                        if isinstance(line, dict) and isinstance(line.get("id"), str)}, None
            run = json.loads(f.read())
        results = [r for r in run.get("results", []) if isinstance(r, dict) and isinstance(r.get("id"), str)]
        return {r["id"] for r in results}, case_texts(results)
    except (OSError, ValueError, RecursionError, AttributeError, TypeError):
        return set(), set()


def json_or_none(line):
    """A line as JSON, or None where it is none (a journal's last line cut short)."""
    try:
        return json.loads(line)
    except (ValueError, RecursionError):
        return None


def same_split_cases(held, ids, texts):
    """Whether a run of a held-out split held the cases of this one (more than half the smaller set): an earlier
    version of it, by whatever path it was run (another folder, a link, a copy). A case is told by the texts no other
    case of its set has (case_texts): two cases, one of each set, are one where they share such a text (ids renamed,
    the ticket moved into a var, a sentence every case shares reworded). A journal, which stores no question, is told
    by its ids. Two sets of their own ask other things, whatever their ids (test-01 is every test split's first id).
    ids, texts: this set's, found once for every earlier run."""
    held_ids, theirs = held
    if theirs is None:
        return bool(held_ids and ids) and len(held_ids & ids) * 2 > min(len(held_ids), len(ids))
    if not theirs or not texts:
        return False
    mine = set().union(*texts)
    shared = sum(bool(found & mine) for found in theirs)   # (a text is one case's in each set: each pairs two cases)
    return shared * 2 > min(len(theirs), len(texts))


def earlier_held_out_runs(folders, split_sha, config, cases):
    """Earlier runs of the same held-out split made with another configuration (TUNED_CONFIG, and the model's and
    judge's digests once the server has said them: a model replaced under its name is another model): in the folders
    given, and in a runs folder (runs/, ../runs, /project/runs) in every folder under it (runs moved to runs/archive/
    were seen all the same), but for the runs this project ships."""
    found, paths, shas = [], {}, split_shas(config["split_path"]) | {split_sha}
    for folder in folders:
        if os.path.basename(os.path.normpath(folder)) == RUNS_DIR:
            walked = set()   # links to folders are followed (an archive kept on another disk), each folder once
            shipped = {os.path.realpath(os.path.join(folder, SHIPPED_RUNS))}
            for at, subfolders, names in os.walk(folder, followlinks=True):
                walked.add(os.path.realpath(at))
                subfolders[:] = sorted(d for d in subfolders if d != SHIPPED_RUNS   # shipped runs, by any path
                                       and os.path.realpath(os.path.join(at, d)) not in walked | shipped)
                for name in sorted(names):
                    paths.setdefault(os.path.realpath(os.path.join(at, name)), (os.path.normpath(os.path.join(at, name)), name))
        elif os.path.isdir(folder):
            for name in sorted(os.listdir(folder)):   # each file once, by the name first met (runs/ before ../runs)
                paths.setdefault(os.path.realpath(os.path.join(folder, name)), (os.path.normpath(os.path.join(folder, name)), name))
    names = HELD_OUT_SPLITS + tuple(os.path.basename(p) for p in (config["split_path"], os.path.realpath(config["split_path"])))
    ids, texts = {c["id"] for c in cases}, case_texts(cases)
    for path, name in paths.values():
        earlier = (read_run_config(path, leniently=True) if name.endswith(".json") else
                   journal_config(path, leniently=True) if name.endswith(".json" + JOURNAL_SUFFIX) else None)
        # the same split is the same bytes, or a split file of the same name holding its cases: one edited, or with a
        # checks.json put beside it, is another version of it. Its recorded path cannot tell (relative to a folder
        # not recorded; a link), nor its name (golden/support/test.jsonl and support/test.jsonl are both support-test)
        same_bytes = type(earlier.get("split_sha") if earlier else None) is str and earlier["split_sha"] in shas
        if earlier and (same_bytes or (
                (earlier.get("held_out") is True   # (a run through a link named otherwise records that name)
                 or isinstance(earlier.get("split_path"), str) and os.path.basename(earlier["split_path"]) in names)
                and same_split_cases(held_cases(path, name.endswith(JOURNAL_SUFFIX)), ids, texts))):
            # a key an older run did not record is not known to differ
            differs = [k for k in TUNED_CONFIG if k in earlier
                       and not same_setting(k, as_tuned(k, earlier[k]), as_tuned(k, config.get(k)))]
            if config["api"] == "ollama":   # Ollama reads a name in any case: LLAMA3.2:3B is llama3.2:3b, the digests say the rest
                differs = [k for k in differs if not ollama_alike(k, earlier.get(k), config.get(k))]
            was, now = earlier.get("model_digest"), config.get("model_digest")
            differs += ["model_digest"] if type(was) is str and type(now) is str and was != now and "model" not in differs else []
            was = earlier["judge"].get("digests") if type(earlier.get("judge")) is dict else None
            now = (config.get("judge") or {}).get("digests")
            differs += ["judge_digest"] if type(was) is list and type(now) is list and "judge" not in differs and any(
                type(x) is str and type(y) is str and x != y for x, y in zip(was, now)) else []
            differs += [] if same_bytes else ["split_sha"]
            if differs:
                found.append({"path": path, "prompt": earlier.get("prompt"), "model": earlier.get("model"),
                              "differs": differs})
    return found


# A recorded setting as a person names it, and whether the name is plural: "with different labels",
# "with a different prompt", never "another labels" or "another prompt_sha".
SETTING_WORDS = {"prompt_sha": "prompt", "context_sha": "context file", "think": "think setting", "api": "API",
                 "max_turns": "max turns", "split_sha": "version of the split (its cases, checks or tools)",
                 "model_digest": "model under the same name (another digest: re-pulled or replaced)",
                 "judge_digest": "judge model under the same name (another digest: re-pulled or replaced)"}
PLURAL_SETTINGS = ("labels", "options", "max_turns")


def setting_in_words(key):
    return ("different " if key in PLURAL_SETTINGS else "another " if key == "split_sha" else "a different ") \
        + SETTING_WORDS.get(key, key)


def ollama_alike(key, was, now):
    """Whether two recorded models (or judges) are one to Ollama, which reads a name in any case, and one without a tag
    as its :latest (same_model): what else tells them apart is their digests."""
    if key == "model" and type(was) is str and type(now) is str:
        return same_model(was) == same_model(now)
    if key == "judge" and type(was) is dict and type(now) is dict and type(was.get("models")) is list \
            and type(now.get("models")) is list and all(type(m) is str for m in was["models"] + now["models"]):
        return same_setting(key, as_tuned(key, dict(was, models=list(map(same_model, was["models"])))),
                            as_tuned(key, dict(now, models=list(map(same_model, now["models"])))))
    return False


def held_out_guard(config, inputs, judge, out, exact, forced):
    """The guard of a run of the held-out split, by the model's digest: asked before the server is (None), and
    again once it has said which model the name is (and the judge's, which it pins). Its run is named .json, where
    later runs of it look, and never kept with the runs this project ships, which they pass over."""
    if exact and not out.endswith(".json"):   # (runs/first.txt, then another prompt on test: nothing found it)
        raise EvalError(f"--out {shell_word(out)}: a run of the held-out split is named NAME.json, where a later run of "
                        "it looks for it (the held-out guard, as runs and report do); give a name ending in .json")
    folders = [RUNS_DIR, os.path.dirname(out) or ".", *runs_beside(config["split_path"])]
    # a folder named example/ in a runs folder, by any path (a link), is passed over as the shipped runs: never written
    where = os.path.realpath(os.path.dirname(out) or ".")
    for runs in (os.path.realpath(f) for f in folders if os.path.basename(os.path.normpath(f)) == RUNS_DIR):
        inside = os.path.relpath(where, runs).split(os.sep)
        if inside[0] != os.pardir and SHIPPED_RUNS in inside:
            raise EvalError(f"--out {shell_word(out)}: a folder named {SHIPPED_RUNS}/ in runs/ holds the runs shipped with "
                            "eval.py, which a later run of the held-out split passes over; write this run elsewhere (runs/)")
    asked = dict(config, prompt_sha=inputs.prompt_sha, labels=inputs.labels, judge=judge)
    return lambda digest: guard_held_out(dict(asked, model_digest=digest), inputs, folders, forced)


def guard_held_out(config, inputs, folders, forced):
    """None if the held-out split may run; else refused, or with --rerun-test the record of a
    forced re-run."""
    earlier = earlier_held_out_runs(folders, inputs.split_sha, config, inputs.cases)
    if not earlier:
        return None
    first = earlier[0]
    why = (f"{shell_word(first['path'])} already ran this split with {' and '.join(map(setting_in_words, first['differs']))} "
           f"({shell_word(first['prompt'])}, {on_one_line(first['model'])})")
    if not forced:
        raise EvalError(f"refusing to run the held-out {on_one_line(config['split'])} split again: {why}.\n"
                        "Re-running it after changes turns it into one more dev set. Pass --rerun-test to run "
                        "it anyway; the run will be marked as a forced re-run.")
    warn(f"warning: forced re-run of the held-out {on_one_line(config['split'])} split ({why}); the run is marked as such")
    return {"forced": True, "earlier": [e["path"] for e in earlier]}


def open_or_resume(args, held):
    """(config, answers kept, agents' turns kept, journal path to resume or None, finished run to
    complete or None, {(case id, trial): its first journal line}, answers kept with only some of their
    votes) for a new run, a resumed one, or the completion of a finished run that has errors. The locks
    it takes go into `held`, for the caller to release: what is kept is read under them, so two resumes
    (or completions) at once never both ask a case, one having read before the other asked."""
    if not args.resume:
        if not args.split:
            raise EvalError("run needs --split (dev, test, or a path ending in .jsonl), or --resume PATH")
        return build_config(args), {}, {}, None, None, {}, {}
    if args.config_given:   # the run-config options of OPTIONS (§1) given, in its order
        raise EvalError(f"--resume takes its split, prompt, model and options from the run it resumes; "
                        f"{args.config_given[0]} cannot be given with it "
                        f"(give only {', '.join(RESUME_TAKES[:-1])} or {RESUME_TAKES[-1]})")
    if args.resume.endswith((PAIRWISE_SUFFIX, PAIRWISE_JOURNAL_SUFFIX)) and not os.path.lexists(args.resume) \
            and not os.path.lexists(args.resume + JOURNAL_SUFFIX):
        raise EvalError(f"{shell_word(args.resume)}: no such file (a name of compare --pairwise's, not a run's)")
    refuse_pairwise_journal(args.resume)
    if args.resume.endswith(".lock"):   # a lock a run (or a killed judge) left: never read as a run file
        raise EvalError(f"{shell_word(args.resume)} is the lock of {shell_word(args.resume[:-len('.lock')])} while "
                        "eval.py writes it, not a run: give the run's own name")
    if args.resume.endswith(PAIRWISE_SUFFIX):   # never its journal read as a run's ("move the journal aside")
        if os.path.lexists(args.resume + JOURNAL_SUFFIX):
            refuse_pairwise_journal(args.resume + JOURNAL_SUFFIX)
        raise EvalError(f"{shell_word(args.resume)} holds compare --pairwise's verdicts on "
                        f"{shell_word(args.resume[:-len(PAIRWISE_SUFFIX)])}, not a run: there is nothing to resume")
    run_path = args.resume[:-len(JOURNAL_SUFFIX)] if args.resume.endswith(JOURNAL_SUFFIX) else args.resume
    if not os.path.exists(run_path + JOURNAL_SUFFIX):
        if not os.path.exists(run_path):
            if os.path.isfile(run_path + JUDGING_SUFFIX):   # a judge's, not a run's: the judge finishes it
                raise EvalError(f"--resume {shell_word(run_path)}: no run journal there; {judging_in_the_way(run_path)}")
            if os.path.islink(run_path + JOURNAL_SUFFIX):   # a loop of links, or one whose target went
                raise EvalError(f"{shell_word(run_path + JOURNAL_SUFFIX)} is a link that leads to no file (to "
                                f"{shell_word(os.readlink(run_path + JOURNAL_SUFFIX))}: a loop of links, or a target gone)")
            raise EvalError(f"{shell_word(run_path + JOURNAL_SUFFIX)}: no such journal; give the path the interrupted run printed")
        # completed under the run's own name: never once by each name, paid twice
        run_path = through_link(run_path, "that run is the one completed")
        # read before its lock is taken: RUN.lock of a file that is no run (Gemfile's Gemfile.lock) is never touched
        config, done, turns = answers_to_complete(run_path)
        refuse_judged_with_checks(run_path, config)
        held.append(resume_lock(run_path, run_path, run_path))   # the finished run's: one completion of it at a time
        unfinished, finished = completions_of(run_path, config)
        if finished:   # its errors were asked again already: asked a third time, they would be paid twice
            raise EvalError(completed_in(run_path, finished))
        if not unfinished:
            # the stored host read again as a given one is: a file's host is never a line break in a message
            config["host"] = resolve_host(args.host if args.host is not None else config["host"])
            return config, done, turns, None, run_path, {}, {}
        # an interrupted completion holds answers paid for: gone on with, never a new one begun beside it
        holder = live_holder(unfinished)
        if holder is not None:   # not interrupted: being made now
            raise EvalError(f"another eval.py (pid {holder}) is completing {shell_word(run_path)} into "
                            f"{shell_word(unfinished)} now; wait for it")
        warn(f"going on with the completion of {shell_word(run_path)} interrupted in {shell_word(unfinished + JOURNAL_SUFFIX)}")
        run_path = unfinished
    if os.path.islink(run_path + JOURNAL_SUFFIX) and os.path.isfile(run_path + JOURNAL_SUFFIX):
        # resumed under the journal's own name: under two names, two resumes took two locks and both asked
        target = linked_journal(run_path + JOURNAL_SUFFIX)
        linked, run_path = run_path, target[:-len(JOURNAL_SUFFIX)]
        warn(f"note: {shell_word(linked + JOURNAL_SUFFIX)} is a link to {shell_word(target)}: that run is the one resumed")
    if os.path.lexists(run_path):   # a link to nothing too: the run file could never be written over it
        raise EvalError(left_journal(run_path))
    if journal_config(run_path + JOURNAL_SUFFIX) is None:   # none of eval.py's: said why, its RUN.lock untouched
        read_journal(run_path + JOURNAL_SUFFIX)
    held.append(resume_lock(run_path, run_path + JOURNAL_SUFFIX, args.resume))
    if not os.path.exists(run_path + JOURNAL_SUFFIX):   # finished as we waited for the lock
        raise EvalError(f"{shell_word(run_path)} was finished by another eval.py meanwhile; there is nothing to resume")
    turns, where, begun = {}, {}, {}
    config, done = read_journal(run_path + JOURNAL_SUFFIX, turns, where, begun)
    refuse_judged_with_checks(run_path, config)   # a completion begun by an eval.py that did not refuse it
    config["host"] = resolve_host(args.host if args.host is not None else config["host"])   # as above
    done = {k: v for k, v in done.items() if v.get("error") is None}   # errors are asked again
    # an agent asked again goes on from its last journaled turn: a turn that was answered is not asked twice
    turns = {k: kept_turns(v) for k, v in turns.items() if k not in done}
    if "completed_from" in config:
        copied_again(config, done, turns, run_path)
    return config, done, turns, run_path, None, where, begun


def refuse_judged_with_checks(run_path, config):
    """A run judged with another split's checks (judge --checks) is never completed: a completion asks
    with its split's, and the answers it keeps hold votes on the others, which no reader takes."""
    if "checks_from" in config:
        raise EvalError(f"{shell_word(run_path)} was judged with the checks of {shell_word(str(config['checks_from']))} "
                        f"(judge --checks), and a completion asks with its split's: complete the run it was judged "
                        f"from ({shell_word(str(config.get('judged_from')))}), then judge the completion with "
                        f"--checks {shell_word(str(config['checks_from']))}")


def linked_journal(journal):
    """The own name (own_name) of a run journal that is a link: a run's journal by its name
    (RUN.journal), or refused, naming both: which run a link to saved.jnl is cannot be told."""
    target = own_name(journal)
    if not target.endswith(JOURNAL_SUFFIX):
        raise EvalError(f"{shell_word(journal)} is a link to {shell_word(target)}, which is no run's "
                        f"journal by its name (RUN{JOURNAL_SUFFIX}); name it so, or resume it by its own name")
    return target


def copied_again(config, done, turns, run_path):
    """A completion's journal begins with a copy of the answers it keeps (complete_journal): one killed
    in that copy holds only some. The rest are taken from the finished run again, as long as it is
    still the run completed (else the journal holds what it holds), so none is asked twice. The finished
    run is named as it was given, from the folder the completion began in; from another folder it is
    found beside the completion, which is always written beside it."""
    given = config["completed_from"]
    beside = os.path.join(os.path.dirname(run_path), os.path.basename(given))
    for path in dict.fromkeys((given, beside)):
        try:
            finished, kept, kept_turns_ = answers_to_complete(path)
        except EvalError:   # gone, damaged, or completed by hand meanwhile: nothing to take from it
            continue
        if same_except(finished, config, ("host", "completed_from")):
            break
    else:
        if len(done) < (config.get("cases") or 0) * config["repeat"]:   # what the copy lacks is asked: said, never silent
            warn(f"note: {shell_word(given)}, the run this completes, is not there (nor beside it); what its journal lacks "
                 "is asked, an answer a stop cut from its copy too")
        return
    for key, answer in kept.items():
        done.setdefault(key, answer)
    for key, kept_turn in kept_turns_.items():   # an agent's turns: the copy's, or more asked since
        if key not in done and len(kept_turn) > len(turns.get(key, ())):
            turns[key] = kept_turn


def kept_turns(entries):
    """An agent's journaled turns, 1, 2, 3... up to the first missing one (each turn once: a turn
    journaled again after a resume that was itself interrupted replaces nothing before it)."""
    by_number = {e["turn"]: e for e in entries}
    kept = []
    while len(kept) + 1 in by_number:
        kept.append(by_number[len(kept) + 1])
    return kept


def answers_to_complete(run_path):
    """A finished run's config, its answers without an error, and the turns its agents that failed
    had finished (they go on from there): what `run --resume` keeps when it completes a run whose
    calls failed. A run without errors has nothing to complete."""
    run = load_run(run_path, stored_checks=False)   # its answers are scored with the split's checks, which say their notes
    problem = resumed_problem(dict(run["config"]))   # what a completion asks with (its split, its host, its judge)
    if problem:
        raise EvalError(f"{shell_word(run_path)}: not a run eval.py can complete: {problem}")
    done = {(r["id"], r["trial"]): {k: r.get(k) for k in CALL_FIELDS} for r in run["results"] if r.get("error") is None}
    if len(done) == len(run["results"]):
        failed = any(v.get("error") for r in run["results"] for v in r.get("judges") or [])
        raise EvalError(f"{shell_word(run_path)} is a finished run without errors; there is nothing to resume"
                        + (f" (the judge calls that failed are asked again by: {judge_command(run_path, run['config'])})"
                           if failed else ""))
    turns = {(r["id"], r["trial"]): finished_turns(r) for r in run["results"] if r.get("error") is not None
             and r.get("transcript")}
    return dict(run["config"], completed_from=run_path), done, {k: v for k, v in turns.items() if v}


def finished_turns(r):
    """A stored agent's transcript cut back into the turns it was journaled as (each assistant
    message with the tool messages after it, and its per_turn figures); [] when they do not pair up."""
    turns = []
    for m in r["transcript"]:
        if m["role"] == "assistant":
            turns.append({"turn": len(turns) + 1, "transcript": [m], "figures": None})
        elif turns:
            turns[-1]["transcript"].append(m)
    figures = r.get("per_turn") or []
    # a call without its result, or an answer without calls before the last turn (a hand edit), is no
    # conversation to go on from: the case is asked afresh, as journaled turns would be refused
    if len(figures) != len(turns) or any(turn_problem(t["transcript"]) for t in turns) \
            or any(not t["transcript"][0].get("tool_calls") for t in turns[:-1]):
        return []
    return [dict(t, figures=f) for t, f in zip(turns, figures)]


def completion_names(finished):
    """Where the completions of the finished run `finished` are written: FINISHED-completed.json,
    then -2, -3 ... (complete_journal takes the first free one)."""
    base, ext = os.path.splitext(finished)
    return numbered_names(base + "-completed" + ext)


def names_of(path):
    """path, then the other names its file has in its folder (hard links, which share its inode): a
    run completed by one name is completed, whichever name it is given by next."""
    try:
        held = os.stat(path)
        if held.st_nlink < 2:
            return [path]
        folder = os.path.dirname(path)
        by_file = NAMES_IN_FOLDER.get(folder) if NAMES_IN_FOLDER is not None else None
        if by_file is None:
            by_file = {}
            with os.scandir(folder or ".") as entries:
                for e in entries:
                    if e.is_file(follow_symlinks=False) and (seen := e.stat(follow_symlinks=False)).st_nlink > 1:
                        by_file.setdefault((seen.st_dev, seen.st_ino), []).append(os.path.join(folder, e.name))
            if NAMES_IN_FOLDER is not None:
                NAMES_IN_FOLDER[folder] = by_file
    except OSError:
        return [path]
    return [path] + sorted(other for other in by_file.get((held.st_dev, held.st_ino), [])
                           if os.path.basename(other) != os.path.basename(path))


def kept_beside(path, suffix, kept=None, say=True):
    """path + suffix, where eval.py keeps what it stores of a run: or, while nothing stands there
    (none of the suffixes `kept`), what another name of the same file in its folder has (a hard link:
    names_of), said on stderr (with say); with nothing beside any name, the name given (a second name the
    user made, and may remove, never holds the run's files unasked; review looks at each save)."""
    names = names_of(path)
    held = [name for name in names if any(os.path.lexists(name + s) for s in kept or (suffix,))]
    chosen = held[0] if held and path not in held else path
    if chosen != path and say:
        warn(f"note: {shell_word(path)} is another name of {shell_word(chosen)} (a hard link): what is kept beside "
             f"that name is used ({shell_word(chosen + suffix)})")
    return chosen + suffix


# names_of's map of each folder by file, while `runs` lists one (remembering_names): built once, or a
# folder of 3,000 runs with a second name each (a `cp -al` backup) was scanned 3,000 times
NAMES_IN_FOLDER = None


@contextlib.contextmanager
def remembering_names():
    global NAMES_IN_FOLDER
    NAMES_IN_FOLDER = {}
    try:
        yield
    finally:
        NAMES_IN_FOLDER = None


def completions_of(finished, config):
    """(the run path of an unfinished completion of `finished` or None, that of its last finished
    completion or None), told by their names and their configs: a completion's is its run's with the
    run it completes (completed_from: a copy of the run is none), perhaps asked at another host.
    `config` is the finished run's, with completed_from."""
    unfinished = done = None
    def ours(other):
        return other is not None and "completed_from" in other and same_except(other, config, ("host", "completed_from"))
    for path in (p for name in names_of(finished) for p in itertools.takewhile(name_taken, completion_names(name))):
        written = None
        if os.path.isfile(path):
            with contextlib.suppress(EvalError):
                written = load_run(path)["config"]
        if ours(written):
            done = path
        elif unfinished is None and os.path.isfile(path + JOURNAL_SUFFIX) and ours(journal_config(path + JOURNAL_SUFFIX)):
            unfinished = path   # (another file at its name: resuming it says so, with what finishes it)
    return unfinished, done


def completed_in(finished, completion):
    """What to say of a run whose errors were asked again in `completion`: the last run of the chain
    (a completion completed in turn), and how to complete it in turn if calls failed again."""
    last = chain_end(completion)
    try:
        errors = sum(r.get("error") is not None for r in load_run(last)["results"])
    except EvalError:
        errors = 0
    chain = shell_word(completion) + (f", and that in {shell_word(last)}" if last != completion else "")
    return (f"{shell_word(finished)} was completed in {chain}, which has "
            + (f"{plural(errors, 'error')}: {resume_command(last)}" if errors else "no error; use that run"))


def finished_completion(finished, config):
    """The last finished completion of the run at `finished`, or None: `runs` and report's gates name
    it instead of `run --resume`, which would refuse. A link to a run: its file's, which a completion
    through the link is named after (open_or_resume)."""
    finished = own_name(finished)
    try:
        done = completions_of(finished, dict(config, completed_from=finished))[1]
    except OSError:
        return None
    return done and chain_end(done)


def chain_end(completion):
    """The last finished run of a chain of completions from `completion` (its errors asked again in a
    completion of it, and so on): what a person is sent to, never a link of the chain that a resume
    refuses in turn."""
    seen = {completion}
    while True:
        try:
            config = load_run(completion)["config"]
            later = completions_of(completion, dict(config, completed_from=completion))[1]
        except (EvalError, OSError):
            return completion
        if not later or later in seen:
            return completion
        seen.add(later)
        completion = later


def complete_journal(finished, config, done, turns):
    """The journal of a run that completes `finished` in a file of its own, holding the answers
    it keeps, so that the completion can itself be interrupted and resumed."""
    run_path, journal, lock = open_journal(next(completion_names(finished)), config)
    try:
        for (case_id, trial), answer in done.items():
            append_journal(journal, {"id": case_id, "trial": trial, **answer})
        for (case_id, trial), kept in turns.items():   # an agent's finished turns: a resume of this goes on from them too
            for turn in kept:
                append_journal(journal, {"id": case_id, "trial": trial, **turn})
    except BaseException as e:   # the answers it copies are all in `finished`: nothing is lost by going
        abandon_journal(run_path, journal, lock)
        if isinstance(e, OSError):
            raise EvalError(f"cannot write {shell_word(run_path + JOURNAL_SUFFIX)} ({e.strerror}); nothing was asked yet and "
                            f"{shell_word(finished)} is unchanged. {remedy(e)} and run again") from None
        raise
    warn(f"completing {shell_word(finished)} ({plural(len(done), 'answer')} kept, the rest asked again) into {shell_word(run_path)}; "
         f"{shell_word(finished)} is unchanged")
    return run_path, journal, lock


def stray_journal_line(config, ids, where, journal):
    """The error for the first line of a journal whose case is not one of its run's (ids: the cases
    the run asks, its --cases or --limit of the split), or None. Only an edit puts one there."""
    lines = sorted((number, case_id) for (case_id, _), number in where.items() if case_id not in ids)
    if not lines:
        return None
    number, case_id = lines[0]
    subset = f", {subset_words(config['subset'])}" if config.get("subset") else ""
    return EvalError(f"{shell_word(journal)}:{number}: damaged journal line: {on_one_line(case_id, 60)} is not one of "
                     f"this run's cases (the split {shell_word(config['split_path'])}{subset}); it was edited: mend or "
                     "remove that line")


def refuse_changed(config, inputs, done, where=None, journal=None):
    """A resumed run must ask the same questions of the same cases, and hold answers to no other.
    where: {(case id, trial): its first line in the journal at `journal`}, every answer and turn it holds
    (an answer in error, or an agent's turn, too: dropped in silence, it hid an edit)."""
    for what, path, then, now in (("split", config["split_path"], config["split_sha"], inputs.split_sha),
                                  ("prompt", config["prompt"], config["prompt_sha"], inputs.prompt_sha),
                                  ("context file", config.get("context_path"), config.get("context_sha"),
                                   inputs.context_sha)):
        if then != now and not (what == "split" and then in split_shas(path)):   # (a run of an older eval.py: its sha)
            # a split's hash covers the checks.json and tools.json beside it too (made, edited or removed)
            raise EvalError(f"refusing to resume: the {what} {shell_word(path)}"
                            + (f" (or a {CHECKS_FILE} or {TOOLS_FILE} beside it, made, edited or removed since)"
                               if what == "split" else "")
                            + f" changed since the run started (sha {short(then)} then, {short(now)} now){read_from_here([path])}")
    if config["labels"] != inputs.labels:
        raise EvalError(f"refusing to resume: the labels beside {shell_word(config['split_path'])} changed since the run "
                        f"started ({on_one_line(config['labels'])} then, {on_one_line(inputs.labels)} now)")
    ids = {case["id"] for case in inputs.cases}
    edited = stray_journal_line(config, ids, where or {}, journal)
    if edited:
        raise edited
    stray = sorted({case_id for case_id, _ in done} - ids)
    if stray:
        raise EvalError(f"refusing to resume: the journal holds answers to cases the split does not have "
                        f"({', '.join(map(on_one_line, stray[:5]))}); it was edited")


def grid_of(args):
    """`run` as one Namespace per run it makes. One --model and one --prompt (or none): [args] with
    those values, as ever. More: a grid, every model with every prompt, models outer, so that the
    first combination (the compare's reference) is the first model with the first prompt."""
    models = args.model if isinstance(args.model, list) else [args.model]
    prompts = args.prompt if isinstance(args.prompt, list) else [args.prompt]
    if args.resume or len(models) * len(prompts) == 1:   # --resume refuses --model and --prompt itself
        return [argparse.Namespace(**{**vars(args), "model": models[0], "prompt": prompts[0]})]
    for flag, values, same in (("--model", models, same_model), ("--prompt", prompts, os.path.normpath)):
        refuse_given_twice(flag, values, same, "each value of a grid makes its own runs")
    refuse_grid(args, len(models) * len(prompts))
    return [argparse.Namespace(**{**vars(args), "model": m, "prompt": p, "by_model": True})
            for m in models for p in prompts]


def refuse_grid(args, runs):
    """What a grid cannot mean, said before any call: one --out file for several runs, one
    --compare run for several, and several configurations on the held-out split."""
    if args.out and not (args.out.endswith(("/", os.sep)) or os.path.isdir(args.out)):
        raise EvalError(f"--out {shell_word(args.out)} names one run file; a grid of {runs} runs needs a folder (--out runs/sweep/) "
                        "or no --out")
    if args.compare:
        raise EvalError(f"--compare compares one run with {shell_word(args.compare)}; a grid compares its {runs} runs with its "
                        "first (drop --compare, then compare any of them with it)")
    if args.split and is_held_out(resolve_split(args.split)[0]) and not args.rerun_test:
        raise EvalError(f"a grid runs the held-out split {shell_word(args.split)} with {runs} configurations, which makes it one "
                        "more dev set; run the grid on dev, then test once, with the configuration you chose")


def check_grid(grid):
    """Every prompt of a grid readable and fillable by every case, every model on the server and able
    to do what is asked of it, before its first run: a typo (or a {{nope}}) in the last one is found
    now, not after every run before it has been paid for. Returns each run's config."""
    configs = [build_config(args) for args in grid]
    prompts = list(dict.fromkeys(config["prompt"] for config in configs))
    inputs = load_inputs(configs[0], prompts[1:], notes=False)
    client = make_client(configs[0], grid[0])
    for config in {config["model"]: config for config in configs}.values():
        client.preflight(config["model"])
        refuse_model(client, config, inputs.cases)
    return configs


def run_split(args):
    """Everything `run` does before its report: the inputs and the server checked, every case and
    trial without an answer asked and journaled, the run file written. Returns (run, its path, the
    graded --compare baseline or None, how many calls ended in error), or None if interrupted."""
    held = []   # the run's locks: a resume's is taken before its journal is read
    try:
        return run_held(args, held)
    finally:
        for lock in held:
            lock.release()


def read_from_here(paths):
    """What to add to an error on a file a run recorded by a relative path: it is read from the
    current folder, which may not be the one the run was made in (its paths are relative to that)."""
    if all(not p or os.path.isabs(p) for p in paths):
        return ""
    return (f" (read from {shell_word(os.getcwd())}; the run recorded it relative to the folder it was made in: "
            "if that is another, resume from there)")


def run_held(args, held):
    """run_split with its locks in `held`."""
    config, done, turns, run_path, completes, where, begun = open_or_resume(args, held)
    resuming = bool(run_path or completes)
    try:
        inputs = load_inputs(config, as_begun=resuming)
    except EvalError as e:   # a resume from another folder reads the run's relative paths from this one
        missing = [p for p in (config["split_path"], config["prompt"], config.get("context_path")) if p and not os.path.lexists(p)]
        raise EvalError(f"{e}{read_from_here(missing) if resuming and missing else ''}") from None
    rerun = guarded = None
    mismatch = None if resuming else label_mismatch(inputs.labels, config["split_path"], inputs.prompt_text,
                                                    config["prompt"])
    if mismatch:
        warn(mismatch)
    judge = config.get("judge") if resuming else (
        judge_config(args, BINARY, config["model"], config["api"], [config]) if has_judge_check(inputs.cases) else None)
    if resuming:
        refuse_changed(config, inputs, done, where, run_path and run_path + JOURNAL_SUFFIX)
    else:
        by_model = getattr(args, "by_model", False)   # a run of a grid: its default name says its model too
        wanted, exact = chosen_run_path(args.out, default_run_path(config["split"], config["prompt"],
                                                                   config["model"] if by_model else None))
        if not exact and not by_model:
            wanted = named_for_its_model(wanted, config["model"])
        if is_held_out(config["split_path"]):
            guarded = held_out_guard(config, inputs, judge, wanted, exact, args.rerun_test)
            rerun = guarded(None)
    baseline = read_baseline(args.compare, config, inputs.split_sha) if args.compare else None
    client = make_client(config, args, run_path or completes)
    server_version, identity = preflight_server(client, config, judge, inputs, resuming)
    if guarded and rerun is None:   # the digests the server gave now (the judge's pinned by preflight_server)
        rerun = guarded(identity.get("model_digest"))
    load = client.load(config["model"], case_options(config))
    form = None
    if config["api"] == "openai" and config.get("format") == "schema":
        form = choose_response_format(client, config, inputs.labels, resuming=resuming)
    if run_path:
        journal = resume_journal(run_path, config, server_version, len(inputs.cases), len(done), len(begun))
    elif completes:
        run_path, journal, lock = complete_journal(completes, config, done, turns)
        held.append(lock)
    else:
        window = {"context_length": client.window(config["model"], case_options(config))} if config["api"] == "ollama" else {}
        start_config(config, inputs, rerun, judge, form, server_version, dict(identity, model_load=load, **window))
        run_path, journal, lock = open_journal(wanted, config, exact)
        held.append(lock)
        if run_path != wanted:
            holder = next(wanted + suffix for suffix in NAME_HOLDERS if os.path.lexists(wanted + suffix))
            warn(f"{shell_word(holder)} exists; writing {shell_word(run_path)} instead")
    errors = ask_remaining(args, config, inputs, done, client, run_path, journal, turns, begun)
    if errors is None:
        return None   # interrupted: the answers are in the journal
    run = assemble_run(config, inputs.cases, done)
    del done, inputs   # the run holds what is needed now; a 100k-case run is big
    try:   # (a SIGTERM is a KeyboardInterrupt here: cmd_run and run_grid run this under terminated_as_interrupted)
        write_run(run, run_path)
    except KeyboardInterrupt:   # where the answers are depends on how far the write went: say which
        warn(stopped_writing(run_path))
        return None
    return run, run_path, baseline, errors


def read_baseline(path, config, split_sha):
    """run --compare: the graded run to compare with, refused before any call if it answered
    another version of the split."""
    baseline = read_graded(path)
    same_split(baseline[0], dict(config, split_sha=split_sha),
               f"refusing to compare with {shell_word(path)}: it was run on another version of the split")
    return baseline


def preflight_server(client, config, judge, inputs, resuming):
    """The server is there and has the model and every judge; the run's first line says what runs
    where. Returns the server's version and what it says of the model (IDENTITY_FIELDS)."""
    server_version = client.preflight(config["model"])
    refuse_model(client, config, inputs.cases)
    think, family = config.get("think", THINK_DEFAULT), client.identities.get(config["model"], {}).get("model_family")
    if family in HARMONY_FAMILIES and think == "max":
        warn(f"note: {on_one_line(config['model'])} has no level above high; Ollama sends --think max to it as high "
             "(server/routes.go)")
    if config["model"] in client.names:   # the run records the name as the server lists it
        asked, config["model"] = config["model"], client.names[config["model"]]
        warn(f"note: {on_one_line(asked)} is {on_one_line(config['model'])} on {on_one_line(config['host'])} (Ollama matches names ignoring case)")
        client.identities[config["model"]] = client.identities.get(asked, {})
    if judge:   # a run begun before judge digests were recorded is finished as it was begun
        prepare_judge(client, config["api"], judge, BINARY, pin=not resuming)
    identity = client.identities.get(config["model"], {})
    if resuming:
        was, now = config.get("model_digest"), identity.get("model_digest")
        if was and now and was != now:
            raise EvalError(f"refusing to resume: {on_one_line(config['model'])} on {on_one_line(config['host'])} is not the model the run "
                            f"began with (digest {short(was)}, now {short(now)}: re-pulled or replaced); its "
                            "answers would mix two models. Run again.")
        if was and not now:   # (not Ollama, or a proxy before it that leaves the digest out)
            warn(f"note: {on_one_line(config['host'])} no longer says which digest {on_one_line(config['model'])} is (the run began with "
                 f"{short(was)}): the answers asked now cannot be told to be the same model's")
    elif judge:
        judge_note(config["model"], judge["models"], client.identities)
    warn(f"split {shell_word(config['split_path'])} ({plural(len(inputs.cases), 'case')}, sha {short(inputs.split_sha)}) · prompt "
         f"{shell_word(config['prompt'])} (sha {short(inputs.prompt_sha)}) · {on_one_line(config['model'])} at {on_one_line(config['host'])} "
         f"({' '.join(filter(None, (config['api'], server_version and on_one_line(server_version, 60))))})")
    return server_version, identity


def refuse_model(client, config, cases):
    """What the model (preflighted on `client`) cannot do that the run asks of it on every case:
    refused before any call (a grid: before its first run)."""
    think, capabilities = config.get("think", THINK_DEFAULT), client.capabilities.get(config["model"])
    if think not in (THINK_DEFAULT, False) and capabilities is not None and "thinking" not in capabilities:
        # Ollama refuses think on such a model with a 400 on every case (server/routes.go, ChatHandler)
        raise EvalError(f"--think {THINK_FLAGS[think]}: {on_one_line(config['model'])} does not think on {on_one_line(config['host'])} (it can: "
                        f"{names_text(capabilities, empty='nothing listed')}); Ollama would refuse every case. Leave --think "
                        "out, or pick a thinking model")
    if capabilities is not None and "tools" not in capabilities and any(case.get("tools") for case in cases):
        # Ollama refuses tools to a model whose template has none: a 400 "does not support tools" on every
        # case (server/images.go CheckCapabilities, through routes.go scheduleRunner)
        raise EvalError(f"{on_one_line(config['model'])} cannot call tools on {on_one_line(config['host'])} (it can: "
                        f"{names_text(capabilities, empty='nothing listed')}), and {shell_word(config['split_path'])} has cases with "
                        "tools; Ollama would refuse every one. Pick a model that can (its capabilities list tools)")
    family = client.identities.get(config["model"], {}).get("model_family")
    if family in HARMONY_FAMILIES and think in (True, False):
        # gpt-oss thinks in levels only: Ollama ignores true and false for it (docs/capabilities/thinking.mdx)
        raise EvalError(f"--think {THINK_FLAGS[think]}: {on_one_line(config['model'])} is a {family} model, which thinks in levels "
                        "only (Ollama ignores on and off for it, and its thinking cannot be turned off); pass --think "
                        "low, medium or high")


def start_config(config, inputs, rerun, judge, form, server_version, identity):
    """What a new run's config records once its inputs and server are known, in the order a run
    file has always held it."""
    if rerun:
        config["rerun_test"] = rerun
    if is_held_out(config["split_path"]):   # found as such by a later run, whatever the name it was run by (a link)
        config["held_out"] = True
    if inputs.whole:   # --limit 100 of 28 cases asked them all: a run of the whole split, compared as one
        config.pop("subset", None)
    config["judge"] = judge
    if form:
        config["response_format"] = form
    if config["repeat"] > 1:
        config["trial_seeds"] = True   # each trial its own seed: samples, not copies (case_options)
    if not any(case.get("tools") for case in inputs.cases):
        config.pop("max_turns", None)   # no case has tools: no turns to count, and nothing for compare to show
    if inputs.context_sha:
        config["context_sha"] = inputs.context_sha
    config.update(prompt_text=inputs.prompt_text, prompt_sha=inputs.prompt_sha, split_sha=inputs.split_sha,
                  labels=inputs.labels, cases=len(inputs.cases),
                  date=datetime.now().astimezone().isoformat(timespec="seconds"),
                  server=config["api"], server_version=server_version, eval_version=__version__,
                  placeholders=PLACEHOLDER_RULE, **identity)


def journal_written(run_path):
    """Whether the run file at run_path is the one its journal was writing (a stop came between writing
    it and removing the journal): its config the journal's, and every answer in the journal in it. A
    file put there meanwhile (a copy, another run) is not: told to remove the journal, the answers
    paid for would go with it. A journal that cannot be read raises its EvalError: it is at fault."""
    config, done = read_journal(run_path + JOURNAL_SUFFIX)
    try:
        run = load_run(run_path, stored_checks=False)   # its answers alone are read here
    except EvalError:
        return False
    stored = {(r["id"], r["trial"]): r for r in run["results"]}
    where = ("host",)   # a resume may have gone on at another address of the server
    return same_except(run["config"], config, where) and all(
        (key in stored and all(stored[key].get(k) == v for k, v in answer.items() if k in CALL_FIELDS))
        for key, answer in done.items())


def same_except(a, b, keys):
    """Two configs alike but for `keys`."""
    return {k: v for k, v in a.items() if k not in keys} == {k: v for k, v in b.items() if k not in keys}


def what_is_there(path):
    """What is at a run's name that is not a file (and so never the run): a link to nothing, a folder,
    a pipe or a device; None for a file or a link to one."""
    if os.path.islink(path) and not os.path.exists(path):
        try:
            return f"a link to {shell_word(os.readlink(path))}, which does not exist"
        except OSError:   # gone meanwhile
            return "a link to nothing"
    if os.path.isdir(path):
        return "a folder"
    return "a pipe or a device" if os.path.lexists(path) and not os.path.isfile(path) else None


def left_journal(run_path):
    """What to say of a journal beside a run file of its name (or anything else there): done, in its
    way, or itself damaged."""
    there = what_is_there(run_path)
    if there:
        return (f"{shell_word(run_path)} is {there}, not the run {shell_word(run_path + JOURNAL_SUFFIX)} was writing: "
                f"move {shell_word(run_path)} aside, then: {resume_command(run_path)}")
    try:
        written = journal_written(run_path)
    except EvalError as e:   # never "move the run file aside" for what is wrong with the journal
        return f"{e}; {shell_word(run_path)} beside it is a finished run: move the journal aside"
    if written:
        return (f"{shell_word(run_path)} is a finished run, and {shell_word(run_path + JOURNAL_SUFFIX)} was left behind by a stop "
                f"just after the run file was written: every answer is in {shell_word(run_path)}; remove the journal")
    return (f"{shell_word(run_path)} is not the run {shell_word(run_path + JOURNAL_SUFFIX)} was writing (another config or other "
            f"answers): move {shell_word(run_path)} aside, then: {resume_command(run_path)}")


def left_judging(path):
    """What to say of a judging beside a run file of its name: done, when that file is the run it
    wrote (a stop came between writing it and removing the judging); else that file is in its way;
    or the judging itself is damaged."""
    problem = judging_problem(path + JUDGING_SUFFIX)
    if problem:   # never "move the run file aside" for what is wrong with the judging
        return f"{problem}; {shell_word(path)} beside it is a finished run: move the judging aside"
    if judging_written(path):
        return (f"{shell_word(path)} was written just before the judge that made it stopped: every vote is in it; "
                f"remove {shell_word(path + JUDGING_SUFFIX)}")
    return (f"{shell_word(path)} is not the run {shell_word(path + JUDGING_SUFFIX)} was writing (another config or other "
            f"votes): move {shell_word(path)} aside, then judge again with the same options to finish it")


def judging_lines(path):
    """(header, [(line number, entry)]) of a judging, its torn last line left out. Raises EvalError
    naming the file and line for anything `judge` would refuse of it without the run: a damaged
    header, a line that is not one vote, a vote of a judge model or number its header does not have."""
    try:
        with open_regular(path, "rb") as f:
            first, rest = f.readline(), [line for line in f if line.endswith(b"\n")]
    except OSError as e:
        raise EvalError(f"{shell_word(path)}: {e.strerror}") from None
    try:
        header = exact_json(first.decode("utf-8"))
        judge = header["config"]["judge"]
        if header["format"] != JUDGING_FORMAT or type(header["config"]["judged_from"]) is not str \
                or type(judge["models"]) is not list or not all(type(m) is str for m in judge["models"]) \
                or type(judge["votes"]) is not int:
            raise TypeError
    except (ValueError, UnicodeDecodeError, KeyError, TypeError):
        raise EvalError(f"{shell_word(path)}: damaged judging (its first line)") from None
    problem = run_config_problem(dict(header["config"]))   # a copy: the check fills in defaults
    if problem:   # a digest of "junk" read as unknown would let another model's votes in
        raise EvalError(f"{shell_word(path)}:1: damaged judging header: {problem}")
    entries, kept_at = [], {}   # kept_at: {a call with its vote: its line}; one is asked again only after it failed
    for number, line in enumerate(rest, 2):
        try:
            entry = exact_json(line.decode("utf-8"))
            problem = judging_line_problem(entry) or (
                (entry["vote"]["model"] not in judge["models"] or not 1 <= entry["vote"]["vote"] <= judge["votes"])
                and "a vote of another judge or number")
        except ValueError as e:   # (a UnicodeDecodeError is one: line_problem tells them apart)
            raise EvalError(f"{shell_word(path)}:{number}: damaged judging line ({line_problem(e)})") from None
        call = None if problem else (json_text(entry["id"]), entry["trial"], entry["vote"]["check"],
                                     entry["vote"]["model"], entry["vote"]["vote"])
        if call in kept_at:
            problem = f"a vote kept on line {kept_at[call]} already (a vote is asked again only after its call failed)"
        if problem:
            raise EvalError(f"{shell_word(path)}:{number}: damaged judging line: {problem}")
        if not entry["vote"].get("error"):
            kept_at[call] = number
        entries.append((number, whole_counts_of(entry)))
    return header, entries


def judging_problem(path):
    """What `judge` would refuse in a judging, with the run it judges as it is now (its answers and
    their judge checks, unless --checks gave them), or None."""
    try:
        header, entries = judging_lines(path)
    except EvalError as e:
        return str(e)
    config = header["config"]
    if config["judged_from"].endswith(JUDGING_SUFFIX) or not os.path.isfile(config["judged_from"]):
        return None   # no run there to read it against (and never a judging read through itself)
    try:
        run = load_run(config["judged_from"])   # as given to judge: another folder, or another file there now, is
    except EvalError:                            # not this run: its answers are no measure of the judging's lines
        return None   # (judge says what is wrong with the run it is given)
    if not same_except(run["config"], config, ("judged_from", "checks_from", "judge", "host")):
        return None
    checks = {(r["id"], r["trial"]): {c["name"] for c in r["checks"] if c["type"] in JUDGE_CHECKS} for r in run["results"]}
    for number, entry in entries:
        key, vote = (entry["id"], entry["trial"]), entry["vote"]
        if key not in checks or not config.get("checks_from") and vote["check"] not in checks[key]:
            return f"{shell_word(path)}:{number}: damaged judging line: a vote on no judge check of an answer of {shell_word(config['judged_from'])}"
    return None


def judging_written(path):
    """Whether the run file at path holds a judging's config and every vote it kept (the judging read
    whole: judging_problem found nothing)."""
    try:
        run = load_run(path)
        header, entries = judging_lines(path + JUDGING_SUFFIX)
    except EvalError:
        return False
    stored = {(r["id"], r["trial"]): r.get("judges") or [] for r in run["results"]}
    return ("judged_from" in run["config"] and same_except(run["config"], header["config"], ("host", "judged_from", "checks_from"))
            and all(entry["vote"]["error"] or entry["vote"] in stored.get((entry["id"], entry["trial"]), [])
                    for _, entry in entries))


def judged_vote_problem(vote):
    """What a journaled vote lacks or has that a Vote (ask_judge's) never has, or None: it goes into the
    judged run as it is. Every field but "unread" is there (done_reason too: judgings are newer than it)."""
    fields = set(Vote.__annotations__)
    missing, extra = sorted(fields - {"unread"} - set(vote)), sorted(set(vote) - fields)
    if missing or extra:
        return (f"the vote has no {on_one_line(missing[0], 40)!r}" if missing
                else f"the vote has an unexpected field {on_one_line(extra[0], 40)!r}")
    return None


def judging_line_problem(entry):
    """What makes a line of a judging other than one vote as `judge` journals it, or None."""
    if type(entry) is not dict or type(entry.get("id")) is not str or type(entry.get("trial")) is not int:
        return "not a vote on an answer of this run"
    if set(entry) != {"id", "trial", "vote"}:
        return "unexpected fields beside id, trial and vote"
    vote = entry["vote"]
    return (votes_problem([vote]) or judged_vote_problem(vote)
            or (type(vote["vote"]) is not int and "a vote of another check, judge or number"))


def resume_command(run_path):
    """The command that finishes a run, to paste: the path shell-quoted (a space in it broke the
    command, and a $(...) in it ran when pasted) and on one line (a line break in --out printed a
    line of its own: a fake "Accuracy: 100%"). A path that begins with a dash is joined with =, or the
    command line takes it for an option (--out=-x.json). A tab, line break or ESC is written as bash's
    $'\\t' (shell_word): the command names that file as printed."""
    return f"{program()} run {option_word('--resume', run_path)}"


def answers_again(run_path, config):
    """What asks a run's missing answers again, to paste: `run --resume RUN`, or, of a run judged with
    another split's checks (never completed: refuse_judged_with_checks), the run it was judged from."""
    if "checks_from" in config:
        return (f"complete the run it was judged from ({resume_command(str(config.get('judged_from')))}), then judge "
                f"the completion with --checks {shell_word(str(config['checks_from']))} (which asks those checks' judge "
                "of every answer again)")
    return resume_command(run_path)


def resume_lock(run_path, holding, resumed):
    """The lock on the run at run_path, taken before the file `holding` its answers (its journal, or
    the finished run) is read; `resumed` is the run the message says to resume."""
    try:
        lock = run_lock(run_path)
    except OSError as e:   # a full disk: the journal (or run) is as it was, every answer in it safe
        raise EvalError(f"cannot write {shell_word(e.filename)} ({e.strerror}); the answers in {shell_word(holding)} "
                        f"are safe.\n{remedy(e)}, then: {resume_command(resumed)}") from None
    lock.hold_too(holding, f"another eval.py holds {shell_word(holding)} now (finishing it under another of its names, "
                           "a hard link, or asking the judge about its pairs); wait for it, or stop it first")
    return lock


def resume_journal(run_path, config, server_version, cases, kept, begun=0):
    """The interrupted run's journal (locked by open_or_resume) open for more answers."""
    if config.get("server_version") != server_version:
        warn(f"note: the server is now version {on_one_line(str(server_version), 60)}; the run began on "
             f"{on_one_line(str(config.get('server_version')), 60)}")
    journal = reopen_journal(run_path + JOURNAL_SUFFIX)
    judging = f" ({begun} of them answered already: only what they lack is asked)" if begun else ""
    warn(f"resuming {shell_word(run_path)}: {plural(kept, 'answer')} kept, {cases * config['repeat'] - kept} to ask{judging}")
    return journal


class StopAsking(Exception):
    """Raised in a worker whose command stopped: no more calls."""


class ServerGone(Exception):
    """Calls failed to connect SERVER_GONE_AFTER times in a row: the run stops, resumable."""


def ask_remaining(args, config, inputs, done, client, run_path, journal, turns=None, begun=None):
    """Ask every case and trial without an answer in `done`, journaling each answer as it comes (and
    each turn of an agent's, going on from those in `turns`; each vote on an answer, going on from
    the answers to judge in `begun`). Returns how many ended in error, or None if the run was
    interrupted."""
    work = [(case, trial) for case in inputs.cases for trial in range(1, config["repeat"] + 1)
            if (case["id"], trial) not in done]
    progress = Progress(len(inputs.cases) * config["repeat"], len(done))
    errors = unreachable = 0
    writing = threading.Lock()   # agents' turns are journaled by the workers, answers by this thread

    def journaled(entry):
        try:
            with writing:
                append_journal(journal, entry)
        except OSError as e:   # a full disk: what is in the journal is safe, a torn last line aside
            raise EvalError(f"cannot write to {shell_word(run_path + JOURNAL_SUFFIX)} ({e.strerror}); the {plural(len(done), 'answer')} "
                            f"before this one {'is' if len(done) == 1 else 'are'} safe in it.\n{remedy(e)}, then: {resume_command(run_path)}") from None

    def ask(case, trial):
        return ask_case(client, config, inputs.prompt_text, case, (turns or {}).get((case["id"], trial), ()),
                        lambda turn: journaled({"id": case["id"], "trial": trial, **turn}), progress.waiting, trial,
                        (begun or {}).get((case["id"], trial)))

    def on_answer(case, trial, answer):
        nonlocal errors, unreachable
        journaled({"id": case["id"], "trial": trial, **answer})
        done[case["id"], trial] = answer
        errors += answer["error"] is not None
        progress.update(len(done), errors)
        unreachable = unreachable + 1 if (answer["error"] or "").startswith("connection failed") else 0
        if unreachable >= SERVER_GONE_AFTER:   # every case left would wait out its retries for nothing
            raise ServerGone(answer["error"])

    try:
        with terminated_as_interrupted():
            ask_all(work, args.jobs, ask, on_answer, progress.tick)
    except (KeyboardInterrupt, ServerGone) as stop:
        progress.update(len(done), errors, final=True)
        why = (f"stopped: the server stopped answering ({SERVER_GONE_AFTER} calls in a row: {on_one_line(stop)})"
               if isinstance(stop, ServerGone) else "interrupted")
        warn(f"{why}: {len(done) - errors} of {plural(progress.total, 'answer')} kept in {shell_word(run_path + JOURNAL_SUFFIX)}\n"
             f"Resume with: {resume_command(run_path)}")
        return None
    finally:
        try:
            journal.close()
        except OSError:
            pass   # a full disk: the error above says so
    progress.update(len(done), errors, final=True)
    return errors


def write_run(run, run_path):
    """The run file, written once and atomically; then its journal goes."""
    try:
        write_file(run_path, run_text(run))
    except FileExistsError:
        raise EvalError(f"{shell_word(run_path)} appeared while the run was writing; the answers are still in "
                        f"{shell_word(run_path + JOURNAL_SUFFIX)}") from None
    except OSError as e:
        raise EvalError(f"cannot write {shell_word(run_path)} ({e.strerror}); every answer is kept in "
                        f"{shell_word(run_path + JOURNAL_SUFFIX)}.\nFix the cause, then: {resume_command(run_path)}") from None
    try:
        os.unlink(run_path + JOURNAL_SUFFIX)
    except FileNotFoundError:   # removed by hand meanwhile: the run file holds every answer, which is what matters
        warn(f"note: {shell_word(run_path + JOURNAL_SUFFIX)} was removed while the run was writing; {shell_word(run_path)} "
             "holds every answer")
    warn(f"wrote {shell_word(run_path)}")


def refuse_pairwise_journal(path):
    """compare --pairwise's journal given as a run, or a run's journal: said what it is, never read
    as a run's journal (its name ends as one's)."""
    if path.endswith(PAIRWISE_JOURNAL_SUFFIX):
        sidecar = path[:-len(JOURNAL_SUFFIX)]
        raise EvalError(f"{shell_word(path)} holds compare --pairwise's verdicts not yet stored in {shell_word(sidecar)}, not a "
                        f"run; the next compare --pairwise of {shell_word(sidecar[:-len(PAIRWISE_SUFFIX)])} stores them")


def stopped_writing(run_path):
    """What to say of a stop as a run file is written (as judge_run says of a judged one): not yet
    written, the journal holds every answer; written, its journal left beside it; or all done."""
    journal = run_path + JOURNAL_SUFFIX
    if not os.path.lexists(run_path):
        return (f"interrupted while writing {shell_word(run_path)}: every answer is kept in {shell_word(journal)}\n"
                f"Resume with: {resume_command(run_path)}")
    if os.path.lexists(journal):
        return left_journal(run_path)
    return f"interrupted just after writing {shell_word(run_path)}: every answer is in it (report {shell_word(run_path)})"


NOTED = set()   # (what, run file) load_run has said a note of: cases with no checks, label checks it made blocking


def older_label_checks(run):
    """The ids of the results whose label check is written non-blocking or weighted, each made blocking
    and unweighted in place (LABEL_RULE): read as stored, a wrong label passed."""
    results = run.get("results") if type(run) is dict else None
    held = [r for r in results if type(r) is dict and type(r.get("checks")) is list] if type(results) is list else []
    ids = []
    for r in held:
        broken = [c for c in r["checks"] if label_rule_broken(c)]
        for c in broken:
            c.pop("weight", None)
            c["blocking"] = True
        if broken:
            ids.append(r.get("id"))
            if not any(type(c) is dict and "weight" in c for c in r["checks"]):
                r.pop("pass_threshold", None)   # its weighted label check was all it weighed
    return list(dict.fromkeys(i for i in ids if type(i) is str))


def load_run(path, stored_checks=True):
    """A run file, read whole and checked, result by result. Raises EvalError, in one line, for
    anything wrong with it. stored_checks=False: it is scored with a split's checks (report --checks),
    so nothing is noted of its own."""
    refuse_pairwise_journal(path)
    if path.endswith(JOURNAL_SUFFIX) and not os.path.lexists(path):
        run_path = path[:-len(JOURNAL_SUFFIX)]
        raise EvalError(f"{shell_word(path)}: no such journal" + (f"; {shell_word(run_path)} is the run" if os.path.isfile(run_path) else ""))
    if path.endswith(JOURNAL_SUFFIX):
        run_path = path[:-len(JOURNAL_SUFFIX)]
        holder = live_holder(run_path)
        if holder:
            raise EvalError(f"{shell_word(path)} is the journal of a run eval.py (pid {holder}) is making now; wait for it")
        if os.path.lexists(run_path):
            raise EvalError(left_journal(run_path))
        raise EvalError(f"{shell_word(path)} is the journal of an unfinished run: finish it with "
                        f"`{resume_command(run_path)}`, then use the run file")
    if path.endswith(JUDGING_SUFFIX) and not os.path.lexists(path):
        raise EvalError(f"{shell_word(path)}: no such judging" + (f"; {shell_word(path[:-len(JUDGING_SUFFIX)])} is the run"
                                                                  if os.path.isfile(path[:-len(JUDGING_SUFFIX)]) else ""))
    if path.endswith(JUDGING_SUFFIX) or not os.path.exists(path) and os.path.exists(path + JUDGING_SUFFIX):
        judging = path if path.endswith(JUDGING_SUFFIX) else path + JUDGING_SUFFIX
        holder = live_holder(judging[:-len(JUDGING_SUFFIX)])
        if holder:
            raise EvalError(f"{shell_word(judging)} is being written now by eval.py (pid {holder}); wait for it")
        if os.path.isfile(judging[:-len(JUDGING_SUFFIX)]):
            raise EvalError(left_judging(judging[:-len(JUDGING_SUFFIX)]))
        problem = judging_problem(judging)
        if problem:
            raise EvalError(f"{problem}; move it aside")
        raise EvalError(f"{shell_word(judging)} holds the votes of a judging that did not finish: the judge command that "
                        f"began it, given again, asks only the rest and writes {shell_word(judging[:-len(JUDGING_SUFFIX)])}")
    if not os.path.exists(path) and os.path.exists(path + JOURNAL_SUFFIX) and live_holder(path):
        raise EvalError(f"{shell_word(path)} is being made now by eval.py (pid {live_holder(path)}); wait for it")
    if not os.path.exists(path) and os.path.exists(path + JOURNAL_SUFFIX):
        raise EvalError(f"{shell_word(path)}: this run did not finish; its answers are in {shell_word(path + JOURNAL_SUFFIX)}.\n"
                        f"Finish it with: {resume_command(path)}")
    try:
        with open_regular(path, "r", encoding="utf-8") as f:
            run = exact_json(f.read())   # read once, as json.load would: a 100,000-case run is large
    except OSError as e:
        raise unreadable(path, "run file", e) from None
    except json.JSONDecodeError as e:
        if path.endswith(".jsonl"):
            raise EvalError(f"{shell_word(path)} looks like a split, not a run: run it with `{program()} run --split "
                            f"{shell_word(path)}`, then report the run file it writes") from None
        where = f"line {e.lineno}, column {e.colno}"
        raise damaged(path, f" ({json_error_at(e, where) if e.msg.endswith(' at') else f'{where}: {decode_message(e)}'})") from None
    except UnicodeDecodeError:
        raise damaged(path) from None
    except ValueError as e:   # what JSON has no room for: a key given twice (json.load would read its last value),
        # NaN, 1e999 or a 5,000-digit integer, nesting past Python's stack. No kill leaves that: it was edited in.
        raise EvalError(f"{shell_word(path)}: not a readable run file, damaged ({e})") from None
    older = older_label_checks(run)
    problem = head_problem(run) or results_problem(run["results"], run["config"])
    if problem:
        raise EvalError(f"{shell_word(path)}: not a valid run file: {problem}")
    unchecked = sorted({r["id"] for r in run["results"] if not can_fail(r)})
    for what, ids, says in (("label", older, "hold a label check written non-blocking or weighted ({}): scored as every "
                                               "label check is, blocking"),   # by an eval.py before the rule, or edited
                            ("unchecked", unchecked, "have no check that blocks (nor a pass_threshold) and pass whatever "
                                                     "the answer ({}); give them checks in the split, then report "
                                                     "--checks")):   # refused in a split now
        if ids and stored_checks and (what, os.path.realpath(path)) not in NOTED:   # said once, however often it is read
            NOTED.add((what, os.path.realpath(path)))
            warn(f"note: {shell_word(path)}: {len(ids)} case(s) "
                 + says.format(", ".join(map(on_one_line, ids[:5])) + (", ..." if len(ids) > 5 else "")))
    return run


def damaged(path, where=""):
    return EvalError(f"{shell_word(path)}: not a readable run file, damaged or cut short{where}")


def read_run_config(path, leniently=False):
    """Only the config block of a run file; None if there is none. A run cut short or damaged
    after its config still has one: eval.py writes it first. leniently: as the held-out guard reads
    it, a key given twice or a NaN read all the same (such a run of test let it run again unmarked)."""
    try:
        with open_regular(path, "r", encoding="utf-8") as f:
            text = f.read()
        # a key given twice is read as neither of its values, as load_run reads it
        run = json.loads(text) if leniently else exact_json(text)
        config = run.get("config") if isinstance(run, dict) else None
    except (OSError, UnicodeDecodeError):
        return None
    except (ValueError, RecursionError):
        at = text.find('"config": ')
        try:
            config = json.JSONDecoder(**({} if leniently else EXACT_JSON)).raw_decode(text, at + 10)[0] if at >= 0 else None
        except (ValueError, RecursionError):
            return None
    return config if isinstance(config, dict) else None


def head_problem(run):
    """What must hold of a run file's format and config before any result is read."""
    if isinstance(run, dict) and run.get("format") in (ANNOTATIONS_FORMAT, OLD_ANNOTATIONS_FORMAT):
        return "this is the annotations file of a review, not a run: give the run it sits beside"
    if isinstance(run, dict) and run.get("format") == PAIRWISE_FORMAT:
        return "this holds compare --pairwise's verdicts, not a run: give the runs it compared"
    if not isinstance(run, dict) or run.get("format") != RUN_FORMAT:
        return f"no \"format\": \"{RUN_FORMAT}\" (was it written by eval.py?)"
    config = run.get("config")
    if not isinstance(config, dict) or not isinstance(run.get("results"), list):
        return "needs a config object and a results list"
    return run_config_problem(config)


def run_config_problem(config):
    """What must hold of a run's config (a run file's, or the one a judging will write), or None."""
    return config_problem(config, ("model", "prompt", "prompt_sha", "split", "split_sha", "labels")) or labels_problem(
        config["labels"])


def labels_problem(labels):
    """What parse_labels refuses in a label set a run file holds, or None: labels one answer would
    match both of (or none of, trimmed to nothing), which would score by the order they are listed in,
    and INVALID, which every answer that matches no label would be."""
    seen = {}
    for label in labels or []:
        key = label_key(label)
        if not key:
            return f"config.labels: {label!r} is nothing but the characters {STRIP_SHOWN} trimmed from an answer's ends"
        if key == label_key(INVALID):
            return f"config.labels: {label!r}: {INVALID} is reserved for answers that match no label"
        if key in seen:
            return (f"config.labels: {seen[key]!r} and {label!r} are one label to an answer (matched without case, "
                    f"accents or the characters {STRIP_SHOWN} at its ends)")
        seen[key] = label
    return None


def results_problem(results, config):
    """What is wrong with the first bad result, or None; fills in the defaults of fields left out.
    Every case the config counts must have every trial: a run with results taken out must not pass a
    gate (a second "results" key holding only the right answers is refused as it is read: load_run)."""
    seen, first = set(), {}
    for i, r in enumerate(results, 1):
        problem = result_problem(r, i, config, config["labels"], seen) or other_question(r, first.setdefault(r["id"], r))
        if problem:
            return problem
    trials = {}
    for r in results:   # in the file's order: the first case at fault is named
        trials.setdefault(r["id"], set()).add(r["trial"])
    for cid, held in trials.items():   # a trial moved to another case: the count stays, two cases' rates move
        if len(held) != config["repeat"]:
            missing = min(set(range(1, config["repeat"] + 1)) - held)
            return (f"result {on_one_line(cid)} holds {len(held)} of its {config['repeat']} trials (no trial {missing}): "
                    "results were taken out, moved to another case or added")
    cases = config.get("cases")
    if type(cases) is int and len(trials) != cases:
        return (f"config.cases says {cases} cases, but the results hold {len(trials)}: results were taken out or added")
    subset = config.get("subset") or {}
    if "limit" in subset and subset["limit"] < len(trials):   # (one past the split's size asked it all)
        return f"config.subset says the first {subset['limit']} cases, but the results hold {len(trials)}"
    if "cases" in subset and set(subset["cases"]) != set(trials):
        other = sorted(set(subset["cases"]) ^ set(trials))
        return (f"config.subset.cases names other cases than the results hold "
                f"({', '.join(map(on_one_line, other[:5]))}{', ...' if len(other) > 5 else ''})")
    return None


def result_problem(r, i, config, labels, seen):
    """What is wrong with the i-th result, or None; fills in the defaults of fields left out. A
    result stores its case as it was (case_problems, as stored), then its answer."""
    if type(r) is not dict:
        return f"result {i} is not an object"
    problems = case_problems(r, labels, stored=True)
    # which of a case's trials, where it has more than one (a trial that is no whole number says so itself)
    which = f", trial {r.get('trial', 1)}" if type(r.get("trial", 1)) is int and config.get("repeat") != 1 else ""
    if problems:   # named by its position while its id is in doubt
        return (f"result {on_one_line(r['id']) + which if type(r.get('id')) is str and r['id'] else i}: "
                f"{problems[0]}")
    if "trial" not in r and config.get("repeat") != 1:   # (every eval.py wrote it where a run repeats)
        return (f"result {on_one_line(r['id'])} has no trial: config.repeat is {on_one_line(json_text(config.get('repeat')), 20)}, "
                "and each result names its trial")
    trial = r.setdefault("trial", 1)
    named = f"result {on_one_line(r['id'])}{which}"
    problem = recorded_answer_problem(r, config)
    if problem:
        return f"{named}: {problem}"
    for answered in (r, *(r.get("judges") or [])):
        whole_counts(answered)
    checks = r.setdefault("checks", [dict(LABEL_CHECK)] if labels else [])
    for c in checks:
        problem = stored_check_problem(c, labels)
        if problem:
            return f"{named}: {problem}"
        c.setdefault("blocking", "weight" not in c)
    if labels and not any(c["type"] == "label" for c in checks):   # taken out, the answer was scored on what was left
        return (f"{named}: no label check, which every case of a set with labels has "
                "(the run file was edited)")
    problem = threshold_problem(r.get("pass_threshold"), checks)
    if problem:
        return f"{named}: {problem}"
    key = (r["id"], trial)
    if key in seen:
        return f"result {on_one_line(r['id'])}, trial {trial} appears twice"
    seen.add(key)
    return None


def other_question(r, first):
    """What makes a trial's case other than its first trial's (grade reads the case from that one), or
    None: trials of one case ask one question, and a trial edited to hold another was scored on the first's."""
    field = next((f for f in CASE_FIELDS if r.get(f) != first.get(f)), None) if r is not first else None
    return field and (f"result {on_one_line(r['id'])}, trial {r['trial']}: its {field} is not trial {first['trial']}'s "
                      "(every trial of a case asks one question)")


def recorded_answer_problem(r, config):
    """What a journal line and a run file's result share: the trial, the judges' votes, and the
    fields the server's answer went into."""
    trial = r.get("trial", 1)
    if type(trial) is not int or not 1 <= trial <= config["repeat"]:
        return "trial must be a whole number from 1 to config.repeat"
    votes = r.get("judges")
    return ((votes_problem(votes) or judges_votes_problem(votes, config, r.get("checks"))) if votes else None) \
        or answer_problem(r) or agent_answer_problem(r)


def judges_votes_problem(votes, config, checks):
    """What makes an answer's votes other than its judge's (config.judge), or None: a vote given twice,
    of a model or number the judge has not (or no number), on a check the answer has not. Counted, one would decide a verdict or add to the cost (judgings and pairwise files are held
    to the same)."""
    judge = config.get("judge")
    if type(judge) is not dict or type(judge.get("models")) is not list or type(judge.get("votes")) is not int:
        judge = None   # (a hand-made run may name no judge: its votes are still held to numbers, each once)
    judged = {c.get("name") for c in checks if type(c) is dict and c.get("type") in JUDGE_CHECKS} if type(checks) is list else None
    seen = set()
    for v in votes:
        number = v.get("vote")
        if type(number) is not int or number < 1 or judge and (v["model"] not in judge["models"] or number > judge["votes"]):
            return f"judges: a vote of {on_one_line(v['model'], 40)} (vote {on_one_line(json_text(number), 20)}) that config.judge has not"
        if (v["check"], v["model"], number) in seen:
            return f"judges: vote {number} of {on_one_line(v['model'], 40)} on {on_one_line(v['check'], 40)} is given twice"
        seen.add((v["check"], v["model"], number))
        if judged is not None and v["check"] not in judged:
            return f"judges: a vote on {on_one_line(v['check'], 40)}, which is no judge check of this answer"
    return None


def votes_problem(votes):
    """What is wrong with an answer's judge votes (a run's result's, a judging line's), or None."""
    if type(votes) is not list or not all(type(v) is dict and type(v.get("check")) is str and type(v.get("model")) is str
                                          and (v.get("pass") is None or type(v["pass"]) is bool) for v in votes):
        return "judges must be a list of votes with a check, a model and pass true, false or null"
    # a vote's figures are named by field: "judges must be a list..." said nothing of "prompt_tokens": "5"
    return next((f"judges: vote {n}: {problem}" for n, problem in enumerate(map(answer_problem, votes), 1) if problem), None)


def transcript_problem(transcript):
    """What is wrong with a stored transcript, or None: a report reads every call and result in it."""
    if type(transcript) is not list:
        return "transcript must be a list of messages"
    for number, m in enumerate(transcript, 1):
        if type(m) is not dict or m.get("role") not in ("assistant", "tool"):
            return f"transcript message {number} must be an assistant or a tool message"
        if m["role"] == "tool" and not (type(m.get("name")) is str and type(m.get("content")) is str
                                        and type(m.get("matched")) is bool and type(m.get("call_id")) is str):
            return f"transcript message {number}: a tool message has a name, a call_id, a content and matched"
        calls = m.get("tool_calls", [])
        if type(calls) is not list:   # before its calls are read: true or a number cannot be
            return f"transcript message {number}: tool_calls must be a list"
        if m["role"] == "assistant" and not (m.get("content") is None or type(m["content"]) is str) or not all(
                type(c) is dict and type(c.get("name")) is str and (c.get("id") is None or type(c["id"]) is str)
                and type(c.get("arguments")) in (dict, str) for c in calls):
            return f"transcript message {number}: an assistant message has text and calls {{id, name, arguments}}"
    return None


def agent_answer_problem(r):
    """The fields an agent's answer adds: its transcript, each turn's figures, out_of_turns."""
    if r.get("transcript") is not None and (problem := transcript_problem(r["transcript"])):
        return problem
    if r.get("tools") and r.get("error") is None and r.get("response") is not None and not r.get("transcript"):
        # (an edit: the trajectory checks read as failing, the agent section left it out, and both were shown)
        return "an answer of a case with tools holds its transcript, the messages it ended with; this one has none"
    turns = r.get("per_turn")
    if turns is not None and not (type(turns) is list and all(type(f) is dict and not answer_problem(f) for f in turns)):
        return "per_turn must be a list of each turn's figures"
    if r.get("out_of_turns") not in (None, True, False):
        return "out_of_turns must be true, false or null"
    return None



# ---------------------------------------------------------------------------
# 9. Normalize, grade, score: everything is recomputed from the run file alone. A case
#    is the unit: with --repeat K its verdict is the majority of its trials. Normalizing maps free
#    text onto the closed label set or INVALID, deliberately strictly: a wrong label and an answer
#    that ignored the format are different problems.

TIE = "(tie)"   # the majority vote of a case whose trials split evenly between answers


def normalize(answer, labels):
    return folded_labels(tuple(labels)).get(label_key(answer), INVALID)


@functools.lru_cache(maxsize=16)
def folded_labels(labels):
    """{label as an answer is matched (label_key): the label as written}, built once per label set,
    not once per answer."""
    return {label_key(label): label for label in labels}


def extract_answer(response, fmt):
    """With --format json or schema the label sits inside a JSON object; None if it does not."""
    if fmt in (None, "text"):
        return response
    try:   # exact_json: {"label": "a", "label": "b"} says two things, neither is the answer
        value = exact_json(response)
    except (ValueError, RecursionError):   # nested past Python's stack: not an answer either
        return None
    if isinstance(value, dict):
        if "label" in value:   # a label given as a list, a number, null: the wrong kind, not the reason's text
            return value["label"] if isinstance(value["label"], str) else None
        strings = [v for v in value.values() if isinstance(v, str)]
        return strings[0] if len(strings) == 1 else None
    return value if isinstance(value, str) else None


def label_of(response, labels, fmt=None):
    answer = extract_answer(response, fmt)
    return INVALID if answer is None else normalize(answer, labels)


def label_reader(labels, fmt):
    """label_of for one run. Answers repeat (a classifier says "bug" thousands of times), so each
    distinct answer is read once."""
    return functools.lru_cache(maxsize=4096)(lambda response: label_of(response, labels, fmt))


NO_VERDICTS = {}   # shared by every trial without judge votes; never written to

# what the Speed section reads of each answer, kept by grade() as one tuple per trial
TIMING_FIELDS = ("latency_ms", "prompt_tokens", "completion_tokens", "prompt_eval_duration_ns", "eval_duration_ns",
                 "load_duration_ns", "thinking_tokens")


def thinking_cut(r):
    """Of an empty answer: reasoning sent apart (Ollama's message.thinking) that the token limit
    stopped before any answer. Ollama bounds the whole generation by num_predict
    (llm/llama_server.go, NPredict) and splits the thinking off it afterwards, so a small limit is
    spent on the reasoning first."""
    return r.get("done_reason") == "length" and bool(r.get("thinking"))


def sent_size(result, system_chars):
    """(characters sent, turns) of a case's request, for the window flags. The system prompt is
    counted as written (its {{vars}} are short)."""
    turns = result.get("messages")
    if isinstance(turns, list) and turns:
        return system_chars + sum(len(str(m.get("content") or "")) for m in turns if isinstance(m, dict)), len(turns)
    return system_chars + len(str(result.get("input") or "")), 1


def votes_on(votes, checks):
    """The votes on the judge checks scored: a judge check the split no longer has (report --checks)
    is scored nowhere, and its votes (failed calls among them) neither decide a gate nor are doubtful."""
    if not votes:
        return votes
    judged = {c["name"] for c in checks if c["type"] in JUDGE_CHECKS}
    return [v for v in votes if v["check"] in judged]


def grade(config: RunConfig, results: list[Result], rules_by_id=None) -> list[GradedCase]:
    """One entry per case, in the run's order: its fields, each trial graded check by check, and
    its verdict (the majority of its trials). A trial the server never answered is an error: not
    the model's fault, not scored. Each result is read once.
    rules_by_id ({id: {"checks": [...], "pass_threshold": t}}) replaces the checks stored in the run."""
    labels = config["labels"]
    predict = label_reader(labels, config.get("format")) if labels is not None else None
    system_chars = len(config.get("prompt_text") or "") if context_window(config) else None
    cases = {}
    for r in results:
        case = cases.get(r["id"])
        if case is None:
            # only what scoring needs: at 100,000 cases every key costs megabytes
            rule = r if rules_by_id is None else rules_by_id.get(r["id"], {})
            case = cases[r["id"]] = {"id": r["id"], "expected": r.get("expected"), "difficulty": r.get("difficulty"),
                                     "tags": r.get("tags") or [], "checks": rule.get("checks") or [], "trials": []}
            if rule.get("pass_threshold") is not None:   # only then: one key more per case costs 8% at 100,000
                case["pass_threshold"] = rule["pass_threshold"]
            case.update({k: r[k] for k in ("context", "relevant") if k in r})   # RAG: retrieval is scored from them
        response, error = r.get("response"), r.get("error")
        trial = {"trial": r["trial"], "response": response, "predicted": None, "checks": {}, "weighted": None,
                 "judged": NO_VERDICTS, "correct": None, "error": error, "votes": votes_on(r.get("judges"), case["checks"]),
                 "done_reason": r.get("done_reason"), "unfinished": False, "prompt_tokens": r.get("prompt_tokens"),
                 "timing": (*map(r.get, TIMING_FIELDS), bool(r.get("thinking") and r.get("response")))}
        if system_chars is not None:   # two keys more cost a trial nothing: its dict has room for them
            trial["sent_chars"], trial["turns"] = sent_size(r, system_chars)
        if error is not None or response is None:
            trial["error"] = error or "no answer"
        elif (said := answer_of(response)) is None or ((not said or said.isspace()) and thinking_cut(r)):
            # still thinking when it stopped: no answer, so INVALID and every check failed
            trial.update(unfinished=True, predicted=INVALID if predict else None, correct=False,
                         checks={c["name"]: False for c in case["checks"]})
        else:
            if predict:
                trial["predicted"] = predict(said)
            if trial["votes"]:
                trial["votes"] = reread_votes(trial["votes"], case["checks"], r)
                trial["judged"] = judge_verdicts(trial["votes"])
            trial["checks"], trial["correct"], trial["weighted"] = run_checks(
                case["checks"], r if said is response else dict(r, response=said), trial, case.get("pass_threshold"))
            if r.get("out_of_turns"):   # an agent still calling tools at --max-turns reached no answer: it fails
                trial["correct"] = False
        if r.get("transcript") is not None and trial["error"] is None:
            trial["agent"] = agent_trace(r, case["checks"], trial)
        case["trials"].append(trial)
    for case in cases.values():
        trials = case["trials"]
        if len(trials) == 1:   # the common case, kept cheap: a 100,000-case report does this 100,000 times
            t = trials[0]
            case["decided_trials"] = int(t["correct"] is not None)
            case["passed_trials"] = int(t["correct"] is True)
            case["correct"] = t["correct"]
            case["predicted"] = t["predicted"] if case["decided_trials"] else None
            continue
        trials.sort(key=lambda t: t["trial"])
        decided = [t for t in trials if t["correct"] is not None]
        case["decided_trials"] = len(decided)
        case["passed_trials"] = sum(t["correct"] for t in decided)
        case["correct"] = majority((t["correct"] for t in decided), tie=False)   # a split vote is no pass
        case["predicted"] = majority((t["predicted"] for t in decided), tie=TIE) if labels is not None else None
    return list(cases.values())


def level_verdict(checks, passed):
    """The verdict of some blocking checks: False if one fails, None if one is undecided, else True."""
    verdicts = [passed.get(c["name"]) for c in checks if c["blocking"]]
    return False if False in verdicts else None if None in verdicts else True


def agent_trace(r, checks, trial):
    """What the report reads of an agent's answer, at the two levels the method names: the final
    result (its checks on the answer, and reaching one within --max-turns) and the trajectory (its
    trajectory checks; None without any); each call, with its turn, whether its arguments fit its
    tool and whether a result matched it; and, when it failed, its first failure (first_failure())."""
    calls, pending, turn = [], [], 0
    for m in r["transcript"]:
        if m["role"] == "assistant":
            turn += 1
            for call in m.get("tool_calls") or ():
                calls.append({"turn": turn, "name": call["name"], "text": call_text(call),
                              "problem": call_problem(call, r.get("tools")), "matched": None})
                pending.append(calls[-1])
        elif pending:
            pending.pop(0)["matched"] = m["matched"]
    out = bool(r.get("out_of_turns"))
    final = [c for c in checks if c["type"] not in TRAJECTORY]
    trajectory = [c for c in checks if c["type"] in TRAJECTORY]
    trace = {"calls": calls, "turns": len(r.get("per_turn") or ()) or turn, "out_of_turns": out,
             "final": False if out else level_verdict(final, trial["checks"]),
             "trajectory": level_verdict(trajectory, trial["checks"]) if trajectory else None, "first_failure": None,
             "path": transcript_path(r["transcript"])}
    if trial["correct"] is False:
        trace["first_failure"] = first_failure(calls, checks, trial["checks"], out, trace["turns"])
    return trace


def transcript_path(transcript):
    """A hash of what an agent said and did, turn by turn: two answers with the same final words are
    the same answer only if their paths are the same too (compare's identical answers). The ids a
    server gives its calls, and the tool messages' references to them, are no part of the path.
    json_text: a lone surrogate a server sent (half a character) is hashed as its escape, since UTF-8
    cannot hold it; any other text hashes as it always did."""
    said = [{k: ([{k2: v2 for k2, v2 in call.items() if k2 != "id"} for call in v] if k == "tool_calls" else v)
             for k, v in m.items() if k != "call_id"} for m in transcript]
    return sha256_bytes(json_text(said, sort_keys=True).encode())


def first_failure(calls, checks, passed, out, turns):
    """The first wrong step of a failing agent, as the method has it (label the first failure in a
    chain; what follows is often its cascade): the first call that a failed check points at (a tool
    it must not call, arguments its tool refuses, the call past max_tool_calls) or that no result
    matched; else the first failed check that points at no call, or running out of turns.
    {"turn", "call", "check", "what"}; turn and call are None when no call is at fault."""
    failed = {c["name"]: c for c in checks if passed.get(c["name"]) is False}
    for number, call in enumerate(calls, 1):
        for c in failed.values():
            what = (c["type"] == "tool_not_called" and call["name"] == c["value"] and "called a tool it must not call"
                    or c["type"] == "tool_args_valid" and call["problem"] and f"arguments do not fit the tool: {call['problem']}"
                    or c["type"] == "max_tool_calls" and number == c["value"] + 1 and f"call {number}, past the {c['value']} allowed")
            if what:
                return {"turn": call["turn"], "call": call["text"], "check": c["name"], "what": what}
        if call["matched"] is False:
            return {"turn": call["turn"], "call": call["text"], "check": None,
                    "what": "no tool result matched these arguments (a wrong or missing argument)"}
    for c in failed.values():
        what = {"tool_called": "the call never happened", "tool_order": "the calls did not come in this order"}.get(c["type"])
        if what:
            return {"turn": None, "call": None, "check": c["name"], "what": what}
    if out:   # before the answer's checks: there is no answer to check
        return {"turn": turns, "call": None, "check": None, "what": f"ran out of turns ({turns}) still calling tools"}
    return next(({"turn": None, "call": None, "check": name, "what": "the final answer fails it"} for name in failed), None)


def agent_figures(cases):
    """The report's Agent section: the final-result and trajectory pass rates apart (each case's
    majority over its trials, as the headline), turns used, the cases that ran out of turns, every
    tool's calls, and the first failure of each failing case. None when no case has tools."""
    final, trajectory, tools, turns, out, first = [0, 0], [0, 0], {}, [], [], []
    agents = 0
    for c in cases:
        traces = [(t, t["agent"]) for t in c["trials"] if "agent" in t]
        if not traces:
            continue
        agents += 1
        for level, tally in (("final", final), ("trajectory", trajectory)):
            votes = [a[level] for _, a in traces if a[level] is not None]
            if votes:
                tally[0] += majority(votes, tie=False)
                tally[1] += 1
        for t, a in traces:
            turns.append(a["turns"])
            if a["out_of_turns"]:
                out.append({"id": c["id"], "trial": t["trial"]})
            for call in a["calls"]:
                row = tools.setdefault(call["name"], {"name": call["name"], "calls": 0, "cases": set(), "invalid": 0,
                                                      "unmatched": 0})
                row["calls"] += 1
                row["cases"].add(c["id"])
                row["invalid"] += call["problem"] is not None
                row["unmatched"] += call["matched"] is False
        failing = next(((t, a) for t, a in traces if a["first_failure"]), None)
        if c["correct"] is False and failing:
            first.append({"id": c["id"], "trial": failing[0]["trial"], **failing[1]["first_failure"]})
    if not agents:
        return None
    turns.sort()
    return {"cases": agents, "final": rate_figures(*final), "trajectory": rate_figures(*trajectory) if trajectory[1] else None,
            "turns": {"median": (turns[(len(turns) - 1) // 2] + turns[len(turns) // 2]) / 2 if turns else None,
                      "max": turns[-1] if turns else None},
            "out_of_turns": out, "tools": [dict(row, cases=len(row["cases"])) for row in sorted(tools.values(), key=lambda r: r["name"])],
            "first_failures": first}


def grade_run(run, rules_by_id=None):
    return grade(run["config"], run["results"], rules_by_id)


def read_graded(path, rules_by_id=None):
    """(config, graded cases) of a run file; its results are let go once graded."""
    run = load_run(path)
    return run["config"], grade(run["config"], run.pop("results"), rules_by_id)


def is_flaky(case):
    return len({(t["predicted"], t["correct"]) for t in case["trials"] if t["correct"] is not None}) > 1


def f1_score(precision, recall):
    if precision is None or recall is None:
        return None
    return 2 * precision * recall / (precision + recall) if precision + recall else 0.0


def rate_figures(correct, total):
    """The rate of passing cases with its Wilson 95% interval, and whether it is too thin to read."""
    return {"correct": correct, "total": total, "accuracy": rate(correct, total),
            "ci": list(wilson(correct, total)), "thin": total < SMALL_SLICE}


def slice_figures(groups):
    """{name: [correct, total]} -> {name: rate_figures}."""
    return {name: rate_figures(correct, total) for name, (correct, total) in groups.items()}


def check_table(cases):
    """Pass rate of every check, by name, over all decided answers: 'order number: 92/110'."""
    table = {}
    for case in cases:
        by_name = {c["name"]: c for c in case["checks"]}
        for t in case["trials"]:
            for name, ok in t["checks"].items():
                row = table.get(name)
                if row is None:
                    check = by_name[name]
                    row = table[name] = {"name": name, "type": check["type"], "blocking": check["blocking"],
                                         "passed": 0, "total": 0, "open": 0}
                    if "weight" in check:
                        row["weight"] = check["weight"]
                weight = by_name[name].get("weight")
                if weight is not None and weight != row.get("weight"):   # one name, weighed otherwise in another case
                    low, high = row.get("weight_range", (row["weight"],) * 2) if "weight" in row else (weight, weight)
                    row["weight_range"] = [min(low, weight), max(high, weight)]
                if ok is None:
                    row["open"] += 1
                else:
                    row["passed"] += ok
                    row["total"] += 1
    # a check no answer reached (every call failed) is still one the run is scored with: 0 of 0,
    # never left out, so a report of a run that got no answer names the split's checks
    for case in cases:
        for check in case["checks"]:
            if check["name"] not in table:
                table[check["name"]] = {"name": check["name"], "type": check["type"], "blocking": check["blocking"],
                                        "passed": 0, "total": 0, "open": 0,
                                        **({"weight": check["weight"]} if "weight" in check else {})}
    return list(table.values())


def checks_fingerprint(cases):
    """A short hash of the checks a report was scored with, to tell two scorings apart: each
    distinct list of checks with the ids of the cases that have it, in the run's order."""
    groups = {}
    for c in cases:
        rule = json_text(c["checks"], sort_keys=True)
        if c.get("pass_threshold") is not None:   # runs without a threshold keep the hash they always had
            rule += f"\npass_threshold {c['pass_threshold']!r}"
        groups.setdefault(rule, []).append(c["id"])
    spec = sorted(text + "\n" + json_text(ids) for text, ids in groups.items())
    return sha256_bytes("\n".join(spec).encode())


def weighted_figures(cases):
    """The rule that decided the cases, and each case's weighted score beside its verdict (the mean
    of its decided trials' scores; an undecided judge check leaves a range). None without weights."""
    weighed = [c for c in cases if any("weight" in check for check in c["checks"])]
    if not weighed:
        return None
    rows, vetoed = [], []
    for c in weighed:
        decided = [t for t in c["trials"] if t["weighted"] is not None]
        weighted_names = {x["name"] for x in c["checks"] if "weight" in x}
        low = fsum(float(t["weighted"][0]) for t in decided) / len(decided) if decided else None
        high = fsum(float(t["weighted"][1]) for t in decided) / len(decided) if decided else None
        rows.append({"id": c["id"], "correct": c["correct"], "score": low, "score_high": high,
                     "threshold": c.get("pass_threshold"),
                     "short_of_threshold": c.get("pass_threshold") is not None and any(
                         t["weighted"][1] < exact(c.get("pass_threshold")) for t in decided),
                     # (a name's check looked up by a scan for each: 1,600 weighted checks a case took 17 s)
                     "failed": sorted({name for t in decided for name, ok in t["checks"].items()
                                       if ok is False and name in weighted_names})})
        if c.get("pass_threshold") is not None and any(
                t["correct"] is False and t["weighted"][0] >= exact(c.get("pass_threshold")) for t in decided):
            vetoed.append(c["id"])
    thresholds = sorted({c.get("pass_threshold") for c in cases if c.get("pass_threshold") is not None})
    return {"thresholds": thresholds, "without_threshold": sum(c.get("pass_threshold") is None for c in cases),
            "cases": rows, "vetoed": vetoed}


def rule_text(w):
    """The rule in force, said once: 'passes when: no blocking check fails and weighted score ≥ 0.7'."""
    t = w["thresholds"]
    if not t:
        return "Passes when: no blocking check fails (weights are shown, not applied: no pass_threshold is set)"
    bound = fmt_share(t[0]) if len(t) == 1 else f"the case's pass_threshold ({fmt_share(t[0])} to {fmt_share(t[-1])})"
    alone = (f"; {plural(w['without_threshold'], 'case')} without a threshold: blocking checks alone"
             if w["without_threshold"] else "")
    return f"Passes when: no blocking check fails and weighted score ≥ {bound}{alone}"


def fmt_share(x):
    return f"{x:.2f}".rstrip("0").rstrip(".") if x is not None else "-"


def measure(labels, checks):
    """What a report calls its headline: accuracy when the label alone decides, else pass rate."""
    only_label = all(row["type"] == "label" or not (row["blocking"] or "weight" in row) for row in checks)
    return "accuracy" if labels is not None and only_label else "pass rate"


def score(config: RunConfig, cases: list[GradedCase]) -> Score:
    """Every figure of a report, from graded cases, in one pass over them where it can be."""
    labels, repeat = config["labels"], config["repeat"]
    per_trial = {t: [0, 0, 0] for t in range(1, repeat + 1)}   # decided, correct, invalid answers
    scored, errors, undecided, flaky, failures = [], [], [], [], []
    # each case's share of passing trials over its decided ones, and over its decided and undecided
    # ones with every undecided answer failing (low), then passing (high): the headline and its bounds
    # (kept as exact sums, a bound on its line must not fall a last bit short of it; and the rates only
    # with trials: at 100,000 cases three lists of floats are 10 MB)
    rates, low_sum, high_sum, counted_cases, open_cases = [], 0, 0, 0, 0
    unfinished, cut_off = [], []   # answers still thinking when they stopped; answers stopped by the token limit
    window_full, limit = [], answer_limit(config)   # answers that stopped at the window, not at num_predict
    stopped_early = []   # answers stopped for "length" short of the run's limit and of the window: neither stopped them
    window = context_window(config)
    filled, dropped = window_flags(config, cases)   # prompts Ollama may have cut, conversations it may have shortened
    by_difficulty, by_tag, outcomes, expected = {}, {}, {}, {}   # outcomes: (expected, predicted) -> trials
    answered = {}   # expected -> cases with an answer: the baseline's, which like accuracy counts cases
    for c in cases:
        expected[c["expected"]] = expected.get(c["expected"], 0) + 1
        opened, labelled = 0, False
        for t in c["trials"]:
            if t["unfinished"]:
                unfinished.append({"id": c["id"], "trial": t["trial"]})
            if t["done_reason"] == "length" and t["error"] is None:
                tokens = filled_by_answer(t, limit, window, config["api"])
                answer = t["timing"][TIMING_FIELDS.index("completion_tokens")]
                if tokens:
                    window_full.append({"id": c["id"], "trial": t["trial"], **tokens, "num_predict": limit})
                elif is_amount(answer) and not (limit and answer >= limit):   # (5 tokens of 100, or of no limit set, was
                    stopped_early.append({"id": c["id"], "trial": t["trial"],    # "cut off by num_predict")
                                          "completion_tokens": answer, "limit": limit})
                else:
                    cut_off.append({"id": c["id"], "trial": t["trial"]})
            if t["predicted"] is not None:
                # the label figures read every answer's label, decided or not: a judge check still
                # waiting for its verdict leaves the label known (the decided alone would be a biased few)
                pair = c["expected"], t["predicted"]
                outcomes[pair] = outcomes.get(pair, 0) + 1
                labelled = True
            if t["correct"] is not None:
                row = per_trial[t["trial"]]
                row[0] += 1
                row[1] += t["correct"]
                row[2] += t["predicted"] == INVALID
            elif t["error"] is not None:
                errors.append({"id": c["id"], "trial": t["trial"], "error": t["error"]})
            else:
                undecided.append({"id": c["id"], "trial": t["trial"]})
                opened += 1
        if labelled:
            answered[c["expected"]] = answered.get(c["expected"], 0) + 1
        counted, passed = c["decided_trials"] + opened, c["passed_trials"]
        if counted:
            # a case of one answer adds an integer (cheap); a case of trials a fraction
            low_sum += passed if counted == 1 else Fraction(passed, counted)
            high_sum += passed + opened if counted == 1 else Fraction(passed + opened, counted)
            counted_cases += 1
            open_cases += bool(opened)
        if not c["decided_trials"]:
            continue
        if repeat > 1:
            rates.append(Fraction(passed, c["decided_trials"]))   # exact: 34 of 50 is 68%, never 67.99999999999999%
        scored.append(c)
        ok = c["correct"]
        group = by_difficulty.get(c["difficulty"])
        if group is None:
            group = by_difficulty[c["difficulty"]] = [0, 0]
        group[0] += ok
        group[1] += 1
        for tag in c["tags"]:
            group = by_tag.setdefault(tag, [0, 0])
            group[0] += ok
            group[1] += 1
        if not ok:
            failures.append(c)
        if c["decided_trials"] > 1 and is_flaky(c):
            flaky.append({"id": c["id"], "expected": c["expected"],
                          "answers": [{"trial": t["trial"], "predicted": t["predicted"], "passed": t["correct"],
                                       "response": t["response"]} for t in c["trials"] if t["correct"] is not None]})
    # each trial alone is a sample of independent cases, so it gets a Wilson interval; the pooled
    # trials are not (trials of one case agree more than two cases do): the mean's interval comes
    # from the spread of the cases' rates (headline_mean)
    trials = [{"trial": t, **rate_figures(correct, decided), "scored": decided, "invalid": invalid}
              for t, (decided, correct, invalid) in per_trial.items()]
    pass_k = []
    if repeat > 1:
        for k in range(1, repeat + 1):
            eligible = [c for c in cases if c["decided_trials"] >= k]
            at_k = fsum(pass_at_k(c["decided_trials"], c["passed_trials"], k) for c in eligible)
            hat_k = fsum(pass_hat_k(c["decided_trials"], c["passed_trials"], k) for c in eligible)
            pass_k.append({"k": k, "cases": len(eligible), "pass_at_k": rate(at_k, len(eligible)),
                           "pass_hat_k": rate(hat_k, len(eligible))})
    checks = check_table(cases)
    correct = len(scored) - len(failures)
    mean, mean_ci = headline_mean(rates, repeat, correct, len(scored))
    s = {
        "cases": len(cases),
        "repeat": repeat,
        "measure": measure(labels, checks),
        "scored": len(scored),
        "correct": correct,
        "accuracy": rate(correct, len(scored)),
        "accuracy_ci": list(wilson(correct, len(scored))),
        "mean_accuracy": mean,
        "mean_accuracy_ci": mean_ci,
        "bounds": undecided_bounds((low_sum, high_sum, counted_cases), repeat, correct, open_cases, len(undecided))
        if undecided else None,
        "trials": trials,
        "invalid": sum(t["invalid"] for t in trials),
        "answers": sum(t["scored"] for t in trials),
        "errors": errors,
        "open": undecided,
        "unfinished_thinking": unfinished,
        "cut_off": cut_off,
        "window_full": window_full,
        "stopped_early": stopped_early,
        "limit_option": limit_option(config),
        "num_ctx": window,
        "num_ctx_sent": sent_num_ctx(config),
        "input_may_be_cut": filled,
        "turns_may_be_dropped": dropped,
        "checks": checks,
        "checks_sha": checks_fingerprint(cases),
        "weighted": weighted_figures(cases),
        "judge": judge_summary(config, cases) if any(r["type"] in JUDGE_CHECKS for r in checks) else None,
        "by_difficulty": slice_figures(by_difficulty),
        "by_tag": slice_figures(by_tag),
        "pass_k": pass_k,
        "flaky": flaky,
        "failures": [failure(c) for c in failures],
        "rerun_test": config.get("rerun_test"),
        "speed": speed_figures(config, cases),
    }
    if labels is not None:
        s.update(label_figures(outcomes, labels, expected, answered))
    # what only some sets have (agents, RAG): a key of the score only where there is something to say
    for key, figures in (("agent", agent_figures), ("retrieval", retrieval_figures),
                         ("retrieval_judged", judged_retrieval_figures), ("diagnosis", diagnose)):
        found = figures(cases)
        if found:
            s[key] = found
    return s


# RAG, the retrieval stage: measured without a model, from the passages each case holds (what the
# retriever returned, in rank order) and the ids a person judged relevant. The definitions are
# RAGAS's (docs.ragas.io, "Context Precision", "Context Recall", the ID-based forms).
def context_precision(ranked, relevant):
    """RAGAS's Context Precision@K: the sum over ranks k of precision@k times v_k (1 when the passage at
    rank k is relevant), over the relevant passages among the K retrieved: the mean of precision@k at
    the ranks that hold a relevant passage. Relevant first scores higher: [relevant, not, relevant]
    is (1/1 + 2/3) / 2 = 0.833. No relevant passage retrieved (or none at all) is 0, as in RAGAS. Exact (a
    Fraction), so that means and differences of them are too: +2/3 and -2/3 are no change, not -5.6e-17."""
    hits, total = 0, Fraction(0)
    for k, passage in enumerate(ranked, 1):
        if passage in relevant:
            hits += 1
            total += Fraction(hits, k)
    return total / hits if hits else Fraction(0)


def labelled_precision(ranked, relevant):
    """A labelled case's context precision; None when a person labelled nothing relevant (relevant []):
    no retriever could rank a relevant passage first, so a 0 would blame it for the set. RAGAS's
    ID-based precision has no value there either (explodinggradients/ragas,
    src/ragas/metrics/collections/_context_precision.py, IDBasedContextPrecision.ascore: "reference_context_ids
    cannot be empty"); context_recall is None there for the same reason."""
    return context_precision(ranked, set(relevant)) if relevant else None


def context_recall(ranked, relevant):
    """RAGAS's ID-based Context Recall: the relevant passages retrieved over all relevant passages;
    None when the case names none (nothing to recall). Exact, as context_precision."""
    return Fraction(len(set(ranked) & set(relevant)), len(relevant)) if relevant else None


def retrieval_figures(cases):
    """Context precision and recall of each case that holds passages and relevance labels, and their
    means over those cases with 95% intervals (case_mean: the case is the unit); None without any."""
    rows = []
    for c in cases:
        if "context" in c and "relevant" in c:
            ranked = [p["id"] for p in c["context"]]
            rows.append({"id": c["id"], "passages": len(ranked),
                         "precision": labelled_precision(ranked, c["relevant"]),
                         "recall": context_recall(ranked, c["relevant"]),
                         "found": [i for i in ranked if i in c["relevant"]],
                         "missing": [i for i in c["relevant"] if i not in ranked]})
    if not rows:
        return None
    out = {"labelled": len(rows)}
    for key in ("precision", "recall"):   # over the cases that name a relevant passage
        values = [r[key] for r in rows if r[key] is not None]
        out[key], out[key + "_ci"] = case_mean(values) if values else (None, [None, None])
        out[key + "_cases"] = len(values)
    # each case's figures as the floats a report holds (the means above were taken exactly)
    return {**out, "cases": [{**r, **{k: None if r[k] is None else float(r[k]) for k in ("precision", "recall")}} for r in rows]}


def judged_retrieval_figures(cases):
    """RAG without relevance labels: the context precision each case's context_relevant ratings give
    (judged_precision), and its mean over those cases with a 95% interval. Reported apart from the
    labelled figures: a judge's ratings are not a person's labels. None without such a check."""
    rows = []
    for c in cases:
        check = next((k for k in c["checks"] if k["type"] == "context_relevant"), None)
        precision = judged_precision(c, check["name"]) if check and "context" in c else None
        if precision is not None:
            rows.append({"id": c["id"], "check": check["name"], "precision": precision})
    if not rows:
        return None
    mean, ci = case_mean([r["precision"] for r in rows])   # exact, then each case's as the float a report holds
    return {"cases": len(rows), "precision": mean, "precision_ci": ci, "by_case": [{**r, "precision": float(r["precision"])} for r in rows]}


# The diagnosis of methodology note 001 ("Evals per a RAG"): low context relevance is the
# retriever's to fix, low faithfulness the generator's, low answer relevance the prompt's or the
# task's. Each failing case goes to the first stage that failed it, in the pipeline's order: a
# generator cannot be faithful to a passage it never got.
STAGES = ("retrieval", "generation", "task", "unclear")
STAGE_FIX = {"retrieval": "the retriever: its embedding, query or chunking (a relevant passage missing, or none retrieved)",
             "generation": "how the model uses the passages: it invents or ignores them (unfaithful); the prompt's "
                           "grounding rules, or the model",
             "task": "the prompt or the task's definition: faithful to good passages, yet not answering the question",
             "unclear": "look at these by hand: no failed stage is known (a judge without a verdict, or no RAG check failed)"}


def stage_of(case, trial):
    """(stage, why) of one failing answer of a case with passages: the first stage that failed it."""
    if not case["context"] and case.get("relevant") != []:   # [] : a person found nothing to retrieve
        return "retrieval", "no passage retrieved"
    missing = [i for i in case.get("relevant") or [] if i not in {p["id"] for p in case["context"]}]
    if missing:
        return "retrieval", "relevant passage not retrieved: " + ", ".join(missing)
    for c in case["checks"]:
        if c["type"] == "context_relevant" and "relevant" not in case and trial["checks"].get(c["name"]) is False:
            return "retrieval", f"{c['name']}: the judge found no passage relevant enough"
    faithful = [c for c in case["checks"] if c["type"] == "faithful"]
    for c in faithful:
        if trial["checks"].get(c["name"]) is False:
            unsupported = faithful_reading(case, trial, c)[1]
            return "generation", "; ".join(f"unsupported: {u['claim']}" for u in unsupported) or f"{c['name']} failed"
    if any(trial["checks"].get(c["name"]) is None for c in faithful):
        return "unclear", "faithfulness has no verdict"
    failed = [c["name"] for c in case["checks"] if c["blocking"] and trial["checks"].get(c["name"]) is False]
    if not failed:
        return "unclear", "no blocking check failed"
    if not faithful:   # no judge read the answer against the passages: generation is not ruled out
        return "unclear", "no faithful check: its faithfulness is not known; it failed " + the_checks(failed)
    relevance = [c["name"] for c in case["checks"] if c["type"] == "answer_relevant" and c["name"] in failed]
    return "task", ("faithful, but not an answer to the question" if relevance
                    else "faithful to the passages, yet it failed " + the_checks(failed))


def the_checks(names):
    """Checks named as checks, quoted: a check's name is the user's words ("says 30 days"), which
    would otherwise read as the sentence's own."""
    return f"the check{'s' if len(names) > 1 else ''} " + ", ".join(f"'{n}'" for n in names)


def diagnose(cases):
    """RAG: each failing case with passages by the stage to fix (stage_of its first failing
    answer), with why; None when no case has passages."""
    rag = [c for c in cases if "context" in c]
    if not rag:
        return None
    out = {stage: [] for stage in STAGES}
    why = {}
    for c in rag:
        if c["correct"] is not False:
            continue
        trial = next(t for t in c["trials"] if t["correct"] is False)
        stage, why[c["id"]] = stage_of(c, trial)
        out[stage].append(c["id"])
    return {"cases": len(rag), "failing": len(why), **out, "why": why}


def headline_mean(rates, repeat, correct, scored):
    """The headline with trials and its 95% interval: the mean of each case's pass rate (rates),
    the case being the unit sampled. The interval is Student's t on the cases' rates (n - 1 df),
    which is the cluster-robust mean of every answer with the case as cluster (Miller 2024,
    "Adding Error Bars to Evals"): trials of one case agree more than two cases do, so an interval
    on the pooled answers would be falsely narrow. Per case, not the mean of the trials'
    accuracies: the two agree while every case has as many decided trials, and only the case's
    rate still weighs each case once when errors or undecided answers leave some with fewer.
    Cut to 0-100%, where a rate lives. With one trial the rates are the verdicts: the mean is the
    accuracy, and Wilson's interval is the one a proportion needs (a t interval on 0s and 1s is
    the Wald interval, wrong at the edges); rates are then not kept."""
    if repeat == 1:
        return (ExactShare(Fraction(correct, scored)) if scored else None), list(wilson(correct, scored))
    return case_mean(rates)


def case_mean(rates):
    """(mean, [low, high]) of per-case pass rates: Student's t over the cases, cut to 0-100%; when
    every case passed all its trials or none (temperature 0), the rates are verdicts and Wilson's
    interval on the cases is the one a proportion needs (a t interval on 0s and 1s is Wald's, of no
    width at 100%); when every case has the same rate otherwise, no interval."""
    if all(r in (0, 1) for r in rates):
        passed = sum(r == 1 for r in rates)
        return (ExactShare(Fraction(passed, len(rates))) if rates else None), list(wilson(passed, len(rates)))
    mean, low, high, _ = mean_difference(rates)
    mean = ExactShare(sum(map(Fraction, rates), Fraction(0)) / len(rates))   # (the float of it is mean_difference's)
    return mean, [None, None] if low is None else [max(0.0, low), min(1.0, high)]


def undecided_bounds(sums, repeat, correct, open_cases, open_answers):
    """How far the undecided answers could move the headline: every one failing (low), every one
    passing (high), over every case decided or undecided (a case with only errors is in neither).
    With one trial these are counts of cases (0/27 to 21/27); with trials, the mean of each case's
    pass rate with its undecided trials failing, then passing (low_count and high_count None).
    sums: (the cases' low rates summed, their high rates summed, how many cases)."""
    low_sum, high_sum, of = sums
    counts = repeat == 1
    return {"low": ExactShare(Fraction(low_sum) / of) if of else None, "high": ExactShare(Fraction(high_sum) / of) if of else None,
            "low_count": correct if counts else None, "high_count": correct + open_cases if counts else None,
            "of": of, "undecided_cases": open_cases, "undecided_answers": open_answers}


def speed_figures(config, cases):
    """How fast the model answered, from what each answer recorded: wall latency as eval.py measured
    it, tokens per second from the server's own counts and durations (Ollama's eval_count over
    eval_duration), and which calls paid for loading the model. The load before the run is apart."""
    rows = [t["timing"] for c in cases for t in c["trials"] if t["error"] is None and t["response"] is not None]
    def whole(i):   # a server may send 4096.0 for 4096: a count all the same
        return [row[i] for row in rows if is_amount(row[i])]
    latencies = sorted(whole(0))

    def per_second(tokens_at, ns_at):
        pairs = [(row[tokens_at], row[ns_at]) for row in rows
                 if is_amount(row[tokens_at]) and is_amount(row[ns_at]) and row[ns_at] > 0]
        return rate(sum(p[0] for p in pairs), sum(p[1] for p in pairs) / 1e9) if pairs else None
    prompt, completion, thinking = whole(1), whole(2), whole(6)
    loads = whole(5)
    return {"calls": len(rows),
            "latency_ms_median": percentile(latencies, 50), "latency_ms_p95": percentile(latencies, 95),
            # no prompt rate: Ollama's prompt_eval_count counts the cached tokens too (llm/llama_server.go:
            # promptEvalCount() is CacheN + PromptN) while prompt_eval_duration times only those evaluated
            # (PromptMS), so their ratio was 50,000 tokens/s where 2,500 were read
            "generation_tokens_per_s": per_second(2, 4),
            "prompt_tokens": sum(prompt) if prompt else None, "completion_tokens": sum(completion) if completion else None,
            # answers that sent no count: Ollama leaves out a count of zero (api/types.go Metrics, omitempty),
            # which older versions gave a fully cached prompt; the totals are then partial
            "without_prompt_count": len(rows) - len(prompt) if prompt else 0,
            "api": config.get("api", "ollama"),   # whose reason a count left out has
            "without_completion_count": len(rows) - len(completion) if completion else 0,   # none is no count (?)
            "thinking_tokens": sum(thinking) if thinking else None,
            # a format on a thinking model: Ollama lets it think unconstrained, then asks again with the
            # thinking as an assistant turn and the format on (server/routes.go ChatHandler, "structured
            # outputs via double request", since v0.12.4); the counts are the second request's
            "two_pass": sum(row[7] for row in rows) if config.get("format") and config.get("api") == "ollama" else 0,
            "calls_with_load": sum(ns > LOADED_ABOVE_NS for ns in loads) if loads else None,
            # by id: a case's latency (and its max_latency_ms check) then holds a load, whoever caused it
            "loaded": [{"id": c["id"], "trial": t["trial"]} for c in cases for t in c["trials"]
                       if t["error"] is None and t["response"] is not None
                       and is_amount(t["timing"][5]) and t["timing"][5] > LOADED_ABOVE_NS] if loads else [],
            "load_before_run": config.get("model_load")}


def is_amount(value):
    """A count or a duration as a server may send it: a number (not a bool), finite, not negative."""
    return type(value) in (int, float) and 0 <= value < inf


def window_flags(config, cases):
    """(cut, dropped): the answers whose prompt Ollama may have cut to fit its window, and the
    conversations whose earlier turns it may have dropped, each [{id, trial, prompt_tokens}].
    A prompt is cut when its count is a size Ollama cuts to (filled_window()): exact, never a guess.
    A conversation is shortened otherwise, whole turns from the front, keeping the system prompt and
    the last turn (server/prompt.go chatPrompt), and then fits, so no count shows it. Since v0.12.6
    eval.py asks Ollama not to (ChatRequest.Truncate): it refuses instead, an error that names the
    case. An older server drops them unasked, and only an estimate can say a conversation may have
    lost turns: one whose characters, at the run's tokens per character, come far past the window
    though its count fits."""
    window = context_window(config)
    cut, dropped = [], []
    if not window:
        return cut, dropped
    keep = num_keep(config)
    per_char = tokens_per_char(cases, window) if drops_turns_unasked(config.get("server_version")) else None
    for c in cases:
        for t in c["trials"]:
            tokens = t["prompt_tokens"]
            if filled_window(tokens, window, keep):
                cut.append({"id": c["id"], "trial": t["trial"], "prompt_tokens": tokens})
            if per_char and t.get("turns", 1) > 1 and is_amount(tokens) and tokens <= window \
                    and tokens < WINDOW_SHORT * t["sent_chars"] * per_char and t["sent_chars"] * per_char > window:
                dropped.append({"id": c["id"], "trial": t["trial"], "prompt_tokens": tokens})
    return cut, dropped


# A conversation counted at under this share of what its characters take (at the run's median tokens
# per character) was shortened: tokens per character vary between texts of one set by less than that.
WINDOW_SHORT = 0.75


def drops_turns_unasked(version):
    """Whether an Ollama of this version drops a conversation's turns even when asked not to: before
    v0.12.6, which has no `truncate` (api/types.go ChatRequest), or a version it cannot read."""
    numbers = re.match(r"v?(\d+)\.(\d+)\.(\d+)", version or "")
    return numbers is None or tuple(map(int, numbers.groups())) < (0, 12, 6)


def answer_limit(config):
    """The answer's token limit the run set (--option num_predict, or over /v1 max_tokens or OpenAI's newer name for
    it, max_completion_tokens); None when none was: Ollama then bounds an answer at ten windows, llama.cpp's servers
    at the window."""
    limit = (config.get("options") or {}).get(limit_option(config))
    return limit if type(limit) is int and limit > 0 else None


def limit_option(config):
    """The option that sets the answer's token limit in this run, as the user would raise it: num_predict, or over /v1
    the smallest of num_predict (sent there as max_tokens), max_tokens and max_completion_tokens given (a cap of the
    last was blamed on the window; of several, the first reached stops the answer)."""
    options = config.get("options") or {}
    if config.get("api") == "openai":   # (num_predict is sent there as max_tokens: of all given, the smallest stops it)
        given = [k for k in ANSWER_CAPS if type(options.get(k)) is int and options[k] > 0]
        return min(given, key=options.get, default="max_tokens")
    return "num_predict"


def filled_by_answer(t, limit, window, api):
    """{prompt_tokens, completion_tokens} of an answer cut short ("length") by the window, not by
    num_predict: it did not reach a limit the run set, and prompt + answer reached the window
    (Ollama's: an open-ended answer runs past it, to ten windows, llm/llama_server.go
    boundedNumPredict) or, over /v1 where the window is not known, no other limit was there (a
    llama.cpp server stops an answer at its n_ctx, llama-cpp-python's _create_completion). None
    when num_predict stopped it, or nothing says which did. Its cure is a shorter answer (a prompt
    that asks for one, --format schema) or a larger window, never a larger num_predict."""
    prompt, answer = t["prompt_tokens"], t["timing"][TIMING_FIELDS.index("completion_tokens")]
    if not (is_amount(prompt) and is_amount(answer)) or (limit and answer >= limit):
        return None
    if (window and prompt + answer >= window - 1) or (api == "openai" and not window):
        return {"prompt_tokens": prompt, "completion_tokens": answer}
    return None


def tokens_per_char(cases, window):
    """The run's median prompt tokens per character sent, over answers well inside the window and
    counted in one pass (not a format's second pass, whose count holds the thinking), from at most
    about 2,000 cases; None without any."""
    step = max(1, len(cases) // 2000)
    ratios = sorted(t["prompt_tokens"] / t["sent_chars"] for c in cases[::step] for t in c["trials"]
                    if t.get("sent_chars") and not t["timing"][7] and is_amount(t["prompt_tokens"])
                    and 0 < t["prompt_tokens"] < window / 2)
    return ratios[len(ratios) // 2] if ratios else None


def filled_window(prompt_tokens, window, num_keep=4):
    """The prompt's count says Ollama may have cut it to fit the window: it reached num_ctx (older
    runners cut to it), or num_ctx - 1, or is the size current Ollama cuts a longer prompt to
    (llm/llama_server.go contextShiftPromptLimit: num_ctx less half of what num_keep leaves, the
    request's num_keep, 4 by default, api/types.go DefaultOptions, plus 1 where the tokenizer adds a
    BOS token; a negative one keeps the whole prompt, cut to num_ctx - 1)."""
    if not (window and is_amount(prompt_tokens)):
        return False
    return prompt_tokens >= window - 1 or prompt_tokens in cut_sizes(window, num_keep)


@functools.lru_cache(maxsize=64)
def cut_sizes(window, num_keep):
    """The sizes current Ollama cuts a prompt too long for the window to (num_keep with and without
    a BOS token): worked out once per window, not once per answer of a large run."""
    keeps = {max(0, min(k, window - 1)) for k in (num_keep, num_keep + 1)} if num_keep >= 0 else set()
    return frozenset(window - max((window - keep) // 2, 1) for keep in keeps)


def num_keep(config):
    """The num_keep a run sent Ollama (--option num_keep=N), else Ollama's default 4."""
    keep = (config.get("options") or {}).get("num_keep")
    return keep if type(keep) is int else 4


def failure(case):
    """A failing case: what it got is every decided trial's label, so that a case whose most
    frequent label is right but whose trials mostly failed never reads as right."""
    trials = case["trials"]
    wrong = trials[0] if len(trials) == 1 else next(t for t in trials if t["correct"] is False)
    got = case["predicted"] if len(trials) == 1 else (
        " | ".join(t["predicted"] for t in trials if t["correct"] is not None) if case["predicted"] is not None else None)
    return {"id": case["id"], "difficulty": case["difficulty"], "expected": case["expected"],
            "got": got, "response": wrong["response"],
            "failed_checks": [name for name, ok in wrong["checks"].items() if ok is False]}


def tied_text(base, shown):
    """The labels as common as the baseline's, said beside it (", tied with 'acceso'"), or nothing."""
    return f", tied with {' and '.join(map(shown, base['tied']))}" if base.get("tied") else ""


def label_figures(outcomes, labels, counts, scored):
    """What only a closed label set has: the majority baseline, per-label figures, the confusion
    matrix. outcomes: {(expected, predicted): answered trials}, every trial counted; counts:
    {expected: all cases}; scored: {expected: cases with an answer}, for the baseline, which
    like accuracy counts cases."""
    # of labels as common in the split, the one with the most answered cases (then the first in labels.txt):
    # the baseline's figure is over answered cases, and a tie is said, not hidden behind one label
    majority_label = max(labels, key=lambda label: (counts.get(label, 0), scored.get(label, 0)))
    tied = [label for label in labels if label != majority_label and counts.get(label, 0) == counts.get(majority_label, 0)]
    columns = labels + [INVALID]
    confusion = {e: {p: 0 for p in columns} for e in labels}
    for (e, p), n in outcomes.items():
        confusion[e][p] += n
    per_label = {}
    for label in labels:
        tp = confusion[label][label]
        precision = rate(tp, sum(confusion[e][label] for e in labels))
        recall = rate(tp, sum(confusion[label].values()))
        per_label[label] = {"precision": precision, "recall": recall,
                            "f1": f1_score(precision, recall), "support": sum(confusion[label].values())}
    baseline = rate_figures(scored.get(majority_label, 0), sum(scored.values()))
    return {"baseline": {"label": majority_label, "tied": tied, **baseline}, "per_label": per_label, "confusion": confusion}



# ---------------------------------------------------------------------------
# 10. Statistics: exact tests and intervals, standard library only, in log space where the numbers
#    grow. Checked against scipy in tests/test_stats.py.

Z95 = NormalDist().inv_cdf(0.975)   # 1.959963984540054
FISHER_TIE = 1 + 1e-7                # tables this close in probability count as equally extreme (as R does)


def percentile(ordered, q):
    """The q-th percentile of sorted values, interpolating linearly between the two nearest ranks
    (numpy's and scipy's default); None for no values."""
    if not ordered:
        return None
    at = (len(ordered) - 1) * q / 100
    low = int(at)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (at - low)


def average_ranks(values):
    """Ranks 1..n, tied values sharing the mean of the ranks they span (as scipy.stats.rankdata)."""
    order = sorted(range(len(values)), key=values.__getitem__)
    ranks, i = [0.0] * len(values), 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return ranks


def spearman(xs, ys):
    """Spearman's rank correlation (Pearson's on average ranks); None when either side is constant."""
    rx, ry = average_ranks(xs), average_ranks(ys)
    n = len(rx)
    if n < 2:
        return None
    mx, my = fsum(rx) / n, fsum(ry) / n
    sxy = fsum((a - mx) * (b - my) for a, b in zip(rx, ry))
    sxx, syy = fsum((a - mx) ** 2 for a in rx), fsum((b - my) ** 2 for b in ry)
    return sxy / sqrt(sxx * syy) if sxx and syy else None


def spearman_interval(rho, n, z=Z95):
    """Spearman's rho's 95% interval by Fisher's z, with the standard error Bonett & Wright (2000)
    give for a rank correlation, sqrt((1 + rho²/2) / (n - 3)). Not Pearson's 1/sqrt(n - 3): a rank
    correlation's z varies more than Pearson's, and their form grows with rho to follow it. In
    simulations of what the audit reads (a pass/fail verdict leaning on length through a logistic
    curve, true rho 0 to 0.78, 27 to 100 answers) it held the true rho 95-99% of the time, the
    plain form 94-98%: it erred wide, not narrow. (None, None) without rho, with n <= 3, or with a
    rho of ±1, whose z is infinite: an interval of no width would claim a certainty there is not."""
    if rho is None or n <= 3 or abs(rho) >= 1:
        return None, None
    centre, half = atanh(rho), z * sqrt((1 + rho * rho / 2) / (n - 3))
    return tanh(centre - half), tanh(centre + half)


def cohen_kappa(table, z=Z95):
    """Cohen's kappa of a square table of counts (one rater's categories as rows, the other's as
    columns) with its large-sample standard error as Fleiss, Cohen & Everitt (1969) corrected it
    (statsmodels' cohens_kappa computes the same) and the interval kappa ± z·se, cut to kappa's
    range [-1, 1]. A normal approximation: on few answers it covers the truth less often than it
    says (KAPPA_FEW). (kappa, se, low, high): all None when kappa is undefined (no answer, or both
    raters always in the same one category); no interval when no answer is disagreed on, or when a
    rater used one category only: the formula's spread is zero there however few the answers."""
    n = sum(map(sum, table))
    if n == 0:
        return None, None, None, None
    k = len(table)
    p = [[count / n for count in row] for row in table]
    rows = [fsum(row) for row in p]
    cols = [fsum(p[i][j] for i in range(k)) for j in range(k)]
    observed, chance = fsum(p[i][i] for i in range(k)), fsum(rows[i] * cols[i] for i in range(k))
    if chance >= 1:
        return None, None, None, None
    kappa = (observed - chance) / (1 - chance)
    if all(table[i][j] == 0 for i in range(k) for j in range(k) if i != j) or 0 in rows or 0 in cols:
        # nothing disagreed on, or a rater who used one verdict only (kappa is then 0 by construction):
        # the formula's spread is zero, and an interval of no width would claim a certainty there is not
        return kappa, None, None, None
    agreed = fsum(p[i][i] * (1 - (rows[i] + cols[i]) * (1 - kappa)) ** 2 for i in range(k))
    disagreed = (1 - kappa) ** 2 * fsum(p[i][j] * (cols[i] + rows[j]) ** 2
                                         for i in range(k) for j in range(k) if i != j)
    variance = (agreed + disagreed - (kappa - chance * (1 - kappa)) ** 2) / ((1 - chance) ** 2 * n)
    se = sqrt(max(0.0, variance))
    return kappa, se, max(-1.0, kappa - z * se), min(1.0, kappa + z * se)


def wilson(successes, n, z=Z95):
    """Wilson score interval for a proportion: sane at 0/n and n/n, unlike the normal one."""
    if n == 0:
        return None, None
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
    return low, high


def log_comb(n, k):
    return lgamma(n + 1) - lgamma(k + 1) - lgamma(n - k + 1)


def sum_exp(logs):
    """log-sum-exp: add probabilities kept as logarithms without underflow."""
    logs = list(logs)
    if not logs:
        return 0.0
    top = max(logs)
    return exp(top) * fsum(exp(x - top) for x in logs)


def binom_log_pmf(k, n, p):
    if p == 0:
        return 0.0 if k == 0 else -inf
    if p == 1:
        return 0.0 if k == n else -inf
    return log_comb(n, k) + k * log(p) + (n - k) * log1p(-p)


def binom_cdf(k, n, p):
    """P(X <= k) for X ~ Binomial(n, p)."""
    if k < 0:
        return 0.0
    if k >= n:
        return 1.0
    return min(1.0, sum_exp(binom_log_pmf(i, n, p) for i in range(k + 1)))


def coin_counts(k, n):
    """(C(n, 0) + ... + C(n, k), C(n, k)): the ways n fair coins show at most k heads, and exactly
    k, as whole numbers, from which the tests on few coins are worked out exactly."""
    term = tail = 1
    for i in range(1, k + 1):
        term = term * (n - i + 1) // i
        tail += term
    return tail, term


def sign_test(wins, losses):
    """Two-sided exact sign test (binomial, p = 1/2), ties set aside: under no preference, each
    decided pair is a fair coin. Exact McNemar is this test on the discordant cases."""
    n = wins + losses
    if n == 0:
        return 1.0
    if n <= EXACT_COINS:
        return min(1.0, 2 * coin_counts(min(wins, losses), n)[0] / 2 ** n)
    return min(1.0, 2 * binom_cdf(min(wins, losses), n, 0.5))


def mcnemar_exact(fixed, broken):
    """Two-sided exact McNemar test: under no change, each discordant case is a fair coin."""
    return sign_test(fixed, broken)


def mcnemar_mid_p(fixed, broken):
    """Two-sided mid-p McNemar test (Fagerland, Lydersen and Laake 2013): the exact test with half the
    probability of the table seen. The exact test is too cautious on few discordant cases (5 fixed
    and 0 broken: p = 0.0625, never under 0.05); the mid-p stays at or under alpha in their 9,595
    scenarios and has almost the power of the asymptotic test. This is the test compare uses."""
    wins = min(fixed, broken)
    n = fixed + broken
    if n == 0:
        return 1.0
    if n <= EXACT_COINS:
        tail, seen = coin_counts(wins, n)
        return (2 ** (n + 1) - seen) / 2 ** (n + 1) if fixed == broken else (2 * tail - seen) / 2 ** n
    seen = exp(binom_log_pmf(wins, n, 0.5))
    if fixed == broken:
        return 1.0 - seen / 2
    return min(1.0, 2 * binom_cdf(wins, n, 0.5) - seen)


def paired_difference(both, fixed, broken, neither, z=Z95):
    """Candidate minus baseline in the share of cases passed, with Newcombe's (1998) method 10 interval
    for paired proportions: each run's Wilson interval, combined with the correlation of the
    pairs (phi, corrected). Good coverage on few cases, never outside -1..1. (estimate, low, high)."""
    n = both + fixed + broken + neither
    if n == 0:
        return None, None, None
    a_pass, b_pass = both + broken, both + fixed
    p_a, p_b = a_pass / n, b_pass / n
    (l_a, u_a), (l_b, u_b) = wilson(a_pass, n, z), wilson(b_pass, n, z)
    margins = (both + broken) * (fixed + neither) * (both + fixed) * (broken + neither)
    cross = both * neither - broken * fixed
    corrected = cross - n / 2 if cross > n / 2 else cross if cross < 0 else 0
    phi = corrected / sqrt(margins) if margins else 0.0
    d = p_b - p_a
    low = d - sqrt(max(0.0, (p_b - l_b) ** 2 - 2 * phi * (p_b - l_b) * (u_a - p_a) + (u_a - p_a) ** 2))
    high = d + sqrt(max(0.0, (u_b - p_b) ** 2 - 2 * phi * (u_b - p_b) * (p_a - l_a) + (p_a - l_a) ** 2))
    return d, max(-1.0, low), min(1.0, high)


def beta_ratio(x, a, b):
    """The regularized incomplete beta function I_x(a, b), by its continued fraction (modified
    Lentz), on the side where it converges fast: what Student's t distribution needs."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    if x > (a + 1) / (a + b + 2):
        return 1.0 - beta_ratio(1 - x, b, a)
    front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x)) / a
    tiny, c, d = 1e-300, 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1 / (d if abs(d) > tiny else tiny)
    f = d
    for m in range(1, 500):
        for numerator in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                          -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1 + numerator * d
            d = 1 / (d if abs(d) > tiny else tiny)
            c = 1 + numerator / c
            c = c if abs(c) > tiny else tiny
            f *= c * d
        if abs(c * d - 1) < 1e-15:
            break
    return front * f


def t_two_sided(t, df):
    """P(|T| >= |t|) for Student's t with df degrees of freedom."""
    return beta_ratio(df / (df + t * t), df / 2, 0.5)


def t_quantile(q, df):
    """The q-quantile of Student's t (q > 1/2), by bisection on its tail: 2.0518 at 0.975 and 27 df."""
    low, high = 0.0, 1.0
    while t_two_sided(high, df) > 2 * (1 - q):
        high *= 2
    for _ in range(200):
        mid = (low + high) / 2
        low, high = (mid, high) if t_two_sided(mid, df) > 2 * (1 - q) else (low, mid)
    return (low + high) / 2


def mean_difference(differences, alpha=ALPHA):
    """The mean of per-case differences with its 1 - alpha t interval (n - 1 degrees of freedom) and
    the paired t-test's two-sided p: the analysis of trials, where each case's pass rate over its
    own trials is one observation. Equal to a cluster-robust (by case) mean of every answer.
    (estimate, low, high, p); one case: no interval and p None. Every case alike (no spread): no
    interval either (a t interval of zero width would claim certainty no sample gives), and the
    exact sign-flip p, 2 / 2**n when they all moved, 1 when none did."""
    n = len(differences)
    if n == 0:
        return None, None, None, None
    # rates given exactly (Fractions) make an exact mean, rounded once: a gate at 68% passes 34 of 50, and no
    # change prints as none (summed in floats, 4/5 and its like drifted to 0.6799999999999999, and 0 to 5.6e-17)
    exact = all(isinstance(d, (int, Fraction)) for d in differences)
    mean = float(sum(differences, Fraction(0)) / n) if exact else fsum(differences) / n
    if n < 2:
        return mean, None, None, None
    sd = sqrt(fsum((float(d) - mean) ** 2 for d in differences) / (n - 1))
    if sd == 0:
        return mean, None, None, (1.0 if mean == 0 else min(1.0, 2 * 0.5 ** n))
    se = sd / sqrt(n)
    half = t_quantile(1 - alpha / 2, n - 1) * se
    return mean, max(-1.0, mean - half), min(1.0, mean + half), t_two_sided(mean / se, n - 1)


def detectable_difference(cases, discordant, alpha):
    """The smallest difference (a share of the cases) the mid-p McNemar test could tell from chance
    when `discordant` cases changed: the most even split it would call. None when no split would."""
    rarer, _ = mid_p_cutoff(discordant, alpha)
    return None if rarer < 0 or discordant == 0 else (discordant - 2 * rarer) / cases


# The two analyses of a paired comparison, named as every view and --json names them.
BINARY_METHOD = "Newcombe's paired interval"
BINARY_TEST = "mid-p McNemar"
RATES_METHOD = "mean of per-case differences, t interval"
RATES_TEST = "paired t-test on per-case pass rates"
# Every case's pass rate moved by the same amount: no spread, so no t interval and no t-test (t is
# infinite, its p 0 on two cases); the sign-flip test, mid-p as compare's McNemar, still reads it
ALIKE_METHOD = "mean of per-case differences, no interval (every case moved alike)"
ALIKE_TEST = "mid-p sign-flip test on per-case pass rates"
# On a few cases the t-test's normal tails claim more than the cases can show: no assignment of n
# signs is rarer than all alike, whose mid-p is 1/2^n, so its p is never taken below that
FLOORED_TEST = "paired t-test on per-case pass rates, at its floor 1/2^n"


def unanimous(pairs):
    """Every case's trials agree, on both sides (a case passes all its trials or none): what a run
    at temperature 0 gives. Its trials then add nothing; the case's one verdict is the observation."""
    return all(a in (0, a_of) and b in (0, b_of) for a, a_of, b, b_of in pairs)


def paired_change(pairs, alpha, level_alpha=None):
    """Candidate minus baseline over the same cases, each pair (baseline passed, of decided,
    candidate passed, of decided), with a 1 - level_alpha interval (default: alpha's). Each case
    one verdict (one answer, or trials that all agree): Newcombe's interval and the mid-p McNemar
    test on the cases that changed. Trials that differ: each case's pass rate over its own trials
    is one observation (trials of a case are not independent; cases are), and the per-case
    differences get a t interval and test, its p never below 1/2^n (when every case moved alike,
    which leaves no spread, the mid-p sign-flip test and no interval). A majority vote is never the
    unit: a majority of five is more often right than one answer, which would read as a change the
    model never made."""
    level_alpha = alpha if level_alpha is None else level_alpha
    if unanimous(pairs):
        fixed = sum(b == b_of and a < a_of for a, a_of, b, b_of in pairs)
        broken = sum(a == a_of and b < b_of for a, a_of, b, b_of in pairs)
        both = sum(a == a_of and b == b_of for a, a_of, b, b_of in pairs)
        z = -NormalDist().inv_cdf(level_alpha / 2)   # the lower tail: 1 - level_alpha / 2 nears 1.0 in floats
        estimate, low, high = paired_difference(both, fixed, broken, len(pairs) - fixed - broken - both, z)
        return {"difference": {"estimate": estimate, "low": low, "high": high, "level": 1 - level_alpha,
                               "method": BINARY_METHOD},
                # no case decided on both sides tests nothing: no p (1.0 read as "surely no change")
                "test": {"name": BINARY_TEST, "p": mcnemar_mid_p(fixed, broken) if pairs else None}, "unit": "case",
                "detectable": detectable_difference(len(pairs), fixed + broken, alpha) if pairs else None}
    differences = [Fraction(b, b_of) - Fraction(a, a_of) for a, a_of, b, b_of in pairs]   # exact: 2/3 -> 2/3 is no change
    estimate, low, high, p = mean_difference(differences, level_alpha)
    alike = len(pairs) > 1 and len(set(differences)) == 1
    if alike:   # (none moved at all: no interval either, and p 1; named a t interval, it had none)
        # every case moved by the same amount (read exactly: 0/3 -> 1/3 and 1/3 -> 2/3 differ in
        # floats): under no change each case's sign is a coin, and only the two assignments with
        # every sign alike are as extreme; their mid-p is 1/2^n, what mid-p McNemar gives n cases
        # all fixed with one answer each (two cases: 0.25, not the t-test's 0)
        return {"difference": {"estimate": estimate, "low": None, "high": None, "level": 1 - level_alpha,
                               "method": ALIKE_METHOD},
                "test": {"name": ALIKE_TEST, "p": ldexp(1.0, -len(pairs)) if estimate else 1.0}, "unit": "case pass rate",
                "detectable": None}
    floor = ldexp(1.0, -len(pairs))   # three cases moving -100, -100, -67 points gave p = 0.015 where alike gave 0.125
    floored = p is not None and p < floor
    return {"difference": {"estimate": estimate, "low": low, "high": high, "level": 1 - level_alpha,
                           "method": RATES_METHOD},
            "test": {"name": FLOORED_TEST if floored else RATES_TEST, "p": floor if floored else p},
            "unit": "case pass rate", "detectable": None}


def called(change, alpha):
    """Whether a paired change is called: the test under alpha AND the interval clear of zero. The
    two are different calculations (Newcombe's interval does not invert the mid-p test) and can
    disagree near the line; a verdict that one of them contradicts is not given."""
    d, p = change["difference"], change["test"]["p"]
    clear = d["low"] is None or d["low"] > 0 or d["high"] < 0
    return bool(d["estimate"]) and p is not None and p <= alpha and clear


def holm(p_values):
    """Holm's step-down adjustment for m comparisons: the k-th smallest p-value is multiplied by
    m - k + 1, kept no smaller than the one before it, and capped at 1. Reading each adjusted p
    against alpha keeps the chance of any false "better" among all m at most alpha."""
    order = sorted(range(len(p_values)), key=lambda i: p_values[i])
    adjusted, running = [1.0] * len(p_values), 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(p_values) - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted


def fisher_exact(a, b, c, d):
    """Two-sided Fisher's exact test on [[a, b], [c, d]]: the probability, with the margins
    fixed, of a table no more likely than the one seen."""
    row1, row2, col1 = a + b, c + d, a + c
    n = row1 + row2
    if row1 == 0 or row2 == 0 or col1 == 0 or col1 == n:
        return 1.0
    def log_p(x):
        return log_comb(row1, x) + log_comb(row2, col1 - x) - log_comb(n, col1)
    seen = log_p(a) + log(FISHER_TIE)
    tables = (log_p(x) for x in range(max(0, col1 - row2), min(row1, col1) + 1))
    return min(1.0, sum_exp(lp for lp in tables if lp <= seen))


def pass_at_k(n, c, k):
    """Unbiased pass@k (Chen et al. 2021): P(at least one of k trials drawn from n passes)."""
    if n - c < k:
        return 1.0
    return 1.0 - comb(n - c, k) / comb(n, k)


def pass_hat_k(n, c, k):
    """pass^k (Yao et al. 2024, tau-bench): P(all k trials drawn from n pass). The one that matters in production."""
    return comb(c, k) / comb(n, k)


# Sizing: `power`. Every question is answered exactly and in well under a second, however small
# the rate or large the count: searches bisect, and a binomial tail is summed from where it starts
# only as far as its terms still count.



def stirling_error(x):
    """log(x!) - log(sqrt(2 pi x) (x/e)^x): small, and from its series once x is large, where
    lgamma's own size would swamp it."""
    if x < 16:
        return lgamma(x + 1) - (x + 0.5) * log(x) + x - 0.5 * log(2 * pi)
    inverse = 1 / (x * x)
    return (1 / 12 - inverse * (1 / 360 - inverse * (1 / 1260 - inverse * (1 / 1680 - inverse / 1188)))) / x


def deviance(x, mean):
    """x log(x / mean) + mean - x, by its series in v = (x - mean) / (x + mean) when x is near the
    mean, where the two terms would cancel."""
    if abs(x - mean) >= 0.1 * (x + mean):
        return x * log(x / mean) + mean - x
    v = (x - mean) / (x + mean)
    total, term, j = (x - mean) * v, 2 * x * v, 1
    while True:
        term *= v * v
        more = total + term / (2 * j + 1)
        if more == total:
            return total
        total, j = more, j + 1


def binom_log_term(k, n, p):
    """log P(X = k), X ~ Binomial(n, p), to about 15 digits however large n (Loader 2000's saddle
    point form), where lgamma's difference keeps about 9 at a million."""
    if k == 0 or k == n or p in (0, 1):
        return binom_log_pmf(k, n, p)
    return (stirling_error(n) - stirling_error(k) - stirling_error(n - k) - deviance(k, n * p)
            - deviance(n - k, n * (1 - p)) + 0.5 * log(n / (2 * pi * k * (n - k))))


def terms_from(log_first, i, n, p, step):
    """The log probabilities of Binomial(n, p) from the one at i (log_first), going up (step 1) or
    down (-1), each from the one before, until they no longer count: walked away from the mode,
    where they only fall, that is a few standard deviations' worth."""
    odds = log(p) - log1p(-p)
    logs = [log_first]
    while (i < n if step > 0 else i > 0) and logs[-1] > log_first - NEGLIGIBLE:
        logs.append(logs[-1] + (log((n - i) / (i + 1)) + odds if step > 0 else log(i / (n - i + 1)) - odds))
        i += step
    return logs


def binom_at_most(k, n, p):
    """P(X <= k) for X ~ Binomial(n, p) in a few standard deviations' worth of terms, not k of them:
    summed from k away from the mean (below it the tail itself; above it the upper tail, taken
    from 1) while the terms still count."""
    if k < 0:
        return 0.0
    if k >= n:
        return 1.0
    if p in (0, 1):
        return float(p == 0)
    if k < n * p:
        return min(1.0, sum_exp(terms_from(binom_log_term(k, n, p), k, n, p, -1)))
    return max(0.0, 1.0 - sum_exp(terms_from(binom_log_term(k + 1, n, p), k + 1, n, p, 1)))


def failures_at_least(failures, rows, rate):
    """P(at least `failures` of `rows` fail) when each fails at `rate`, in O(failures) terms: those
    below `failures`, each from the one before, starting from P(none) (no lgamma of a huge row
    count: 10^10 rows at a rate of 1e-9 keep their digits). When the tail above is the smaller
    side it is summed instead, as far as its terms count, so that a tiny chance keeps its digits."""
    if failures <= 0:
        return 1.0
    if failures > rows:
        return 0.0
    odds = log(rate) - log1p(-rate)
    below = [rows * log1p(-rate)]
    for i in range(1, failures):
        below.append(below[-1] + log((rows - i + 1) / i) + odds)
    if failures - 1 < rows * rate:
        return max(0.0, 1.0 - sum_exp(below))
    at = below[-1] + log((rows - failures + 1) / failures) + odds
    return min(1.0, sum_exp(terms_from(at, failures, rows, rate, 1)))


def rows_for_failures(rate, failures, prob, limit=MAX_SIZING_ROWS):
    """Fewest rows for P(at least `failures` failures) >= prob when each row fails at `rate`. The
    chance only grows with the rows: double until it is reached, then bisect (a hundred tails of
    O(failures) terms; stepping one row at a time took minutes at a rate of 1e-4). None when not
    even `limit` rows reach it."""
    short, enough = failures - 1, failures   # fewer rows than failures never show them all
    while failures_at_least(failures, enough, rate) < prob:
        if enough >= limit:
            return None
        short, enough = enough, min(2 * enough, limit)
    while enough - short > 1:
        middle = (short + enough) // 2
        short, enough = (short, middle) if failures_at_least(failures, middle, rate) >= prob else (middle, enough)
    return enough


def failures_for_fisher(rows, alpha):
    """Fewest failures out of `rows` that Fisher's test tells apart from a baseline that never
    failed on as many rows, at significance alpha: the unpaired test the methodology notes registered."""
    for failures in range(1, rows + 1):
        if fisher_exact(rows - failures, failures, rows, 0) <= alpha:
            return failures
    return None


def fewest_one_way(alpha, test, most):
    """The fewest cases that, all changing verdict the same way, `test` (fixed, broken) calls at
    alpha; None if not even `most` would."""
    return next((k for k in range(1, most + 1) if test(k, 0) <= alpha), None)


def connor_cases(difference, discordant, alpha, prob):
    """Cases a paired comparison needs for McNemar's test to reach power `prob` at two-sided alpha,
    by Connor's (1987, Biometrics 43:207-211) normal approximation: with D the difference in pass
    rate and P the share of cases that change verdict, (z_{1-alpha/2} sqrt(P) + z_prob
    sqrt(P - D^2))^2 / D^2, rounded up. None when it is beyond counting (a D of 1e-200). The bracket
    is sqrt(n)·D: below zero (a power aimed so low, prob 1e-9, that no case is needed) its square
    is no size, and one case is the answer (squared, it grew as the aim fell: 205 cases for 1e-9)."""
    z_alpha = -NormalDist().inv_cdf(max(alpha / 2, 1e-300))
    squared = difference * difference
    if squared == 0:
        return None
    root = z_alpha * sqrt(discordant) + NormalDist().inv_cdf(prob) * sqrt(discordant - squared)
    if root <= 0:
        return 1
    cases = root ** 2 / squared
    return ceil(cases) if cases <= MAX_SIZING_ROWS else None


def binomial_mass(n, p):
    """(first, logs): the counts of Binomial(n, p) that carry its mass, from `first` up, as log
    probabilities relative to the likeliest count (each from its neighbour)."""
    if p == 1:
        return n, [0.0]
    mode = min(n, floor((n + 1) * p))
    down = terms_from(0.0, mode, n, p, -1)
    return mode - len(down) + 1, down[:0:-1] + terms_from(0.0, mode, n, p, 1)


def mid_p_at(k, m, below):
    """The two-sided mid-p McNemar p of k cases one way and m - k the other (k <= m/2), given
    below = P(X <= k) for X ~ Binomial(m, 1/2): twice the tail, less the table seen once."""
    if m == 0:
        return 1.0   # nothing changed: nothing to tell
    if m <= EXACT_COINS:
        return mcnemar_mid_p(m - k, k)   # exactly, as compare reads it
    seen = exp(binom_log_term(k, m, 0.5))
    return 2 * below - seen if 2 * k < m else 1 - seen / 2


def mid_p_cutoff(m, alpha):
    """(k, P(X <= k), X ~ Binomial(m, 1/2)): the most cases the rarer direction may hold among m
    discordant ones for the mid-p McNemar test to reject at alpha, -1 when even none would do.
    Guessed from the normal approximation, then set right one case at a time."""
    z = -NormalDist().inv_cdf(max(alpha / 2, 1e-300))
    k = max(-1, min(m // 2, floor(m / 2 - z * sqrt(m) / 2)))
    below = binom_at_most(k, m, 0.5)
    while 2 * (k + 1) <= m and mid_p_at(k + 1, m, below + exp(binom_log_term(k + 1, m, 0.5))) <= alpha:
        k += 1
        below += exp(binom_log_term(k, m, 0.5))
    while k >= 0 and mid_p_at(k, m, below) > alpha:
        below -= exp(binom_log_term(k, m, 0.5))
        k -= 1
    return k, max(0.0, below)


def difference_way(difference, discordant):
    """The chance that a case changing verdict moves the pass rate the difference's way: of a share P
    changing, (P + |D|) / 2 go that way and (P - |D|) / 2 the other."""
    return min(1.0, (discordant + abs(difference)) / (2 * discordant))


def mcnemar_power(cases, difference, discordant, alpha):
    """The exact power of the two-sided mid-p McNemar test (the one compare uses) on `cases` cases
    when a share `discordant` of them change verdict and the pass rate moves by `difference`:
    the discordant count m ~ Binomial(cases, discordant); of those, the count that moved the
    difference's way ~ Binomial(m, difference_way()); the test rejects when mid-p <= alpha, which
    for each m is a count in the rarer direction at or below a cutoff. Only the m that carry
    Binomial(cases, discordant)'s mass are enumerated, and from one m to the next the cutoff rises
    by one case at most and each tail P(X <= cutoff) moves by a term or two: O(1) per m, a tenth
    of a second for 100,000 cases."""
    toward = difference_way(difference, discordant)
    shares = (0.5, toward, 1 - toward)   # the null's split, and the two ways round of the true one
    first, logs = binomial_mass(cases, discordant)
    k, below = mid_p_cutoff(first, alpha)
    tails = [below] + [binom_at_most(k, first, r) for r in shares[1:]]
    power = weight = 0.0
    for m, log_weight in enumerate(logs, first):
        if m > first:
            if k >= 0:   # one more discordant case: the mass at k that it lifts past k leaves each tail
                tails = [max(0.0, t - r * exp(binom_log_term(k, m - 1, r))) for t, r in zip(tails, shares)]
            if 2 * (k + 1) <= m and mid_p_at(k + 1, m, tails[0] + exp(binom_log_term(k + 1, m, 0.5))) <= alpha:
                k += 1
                tails = [t + exp(binom_log_term(k, m, r)) for t, r in zip(tails, shares)]
        w = exp(log_weight)
        weight += w
        if k >= 0:
            power += w * (1.0 if 2 * k >= m else tails[1] + tails[2])
    return min(1.0, power / weight)


def given(value):
    """A number the user gave, as short as reads back exactly: 0.05, never 0.9999999999999999 as 1
    (which :g writes)."""
    text = f"{value:g}"
    return text if float(text) == value else repr(value)


def off_the_ends(x, digits=3):
    """A worked-out share with 3 significant digits, more where they would make it read 1 (or 0)
    while it is not."""
    for d in range(digits, 18):
        text = f"{x:.{d}g}"
        if (float(text) < 1 or x >= 1) and (float(text) > 0 or x <= 0):
            return text
    return repr(x)


def as_points(share):
    """A difference in pass rate as points: 0.1786 -> '17.9'; never 100 short of all the cases nor 0
    for some (0.9999 -> '99.99', as near_the_ends)."""
    text = f"{100 * share:.3g}"
    if 0 < abs(Decimal(text)) < 100 or share in (0, 1) or not isfinite(share):
        return text
    return near_the_ends(share, lambda d: f"{100 * share:.{d}f}", least=1)


def points_of(share):
    """'17.9 points', '1 point'."""
    return f"{as_points(share)} point" + ("" if as_points(share) == "1" else "s")


def fewest_cases_for_power(difference, discordant, alpha, prob, guess):
    """The smallest number of cases whose exact power (mcnemar_power) reaches prob, searched from
    Connor's guess; None when not even MAX_ENUMERATED cases reach it. The power rises with the cases
    but not evenly (one case more can move the test's cutoff and lose some), so a size reaching prob
    is found by doubling the step from the guess, a crossing (reached here, not one case before) by
    bisection, and then, up to MAX_SEARCHED cases, the SHORTFALL_SEARCH sizes below it are tried for
    one that reaches it too. Never below the test's minimum: fewer cases, all changed one way, are
    never called (power 0), so the search stops there."""
    def reaches(n):
        return mcnemar_power(n, difference, discordant, alpha) >= prob
    least = fewest_one_way(alpha, mcnemar_mid_p, MAX_ENUMERATED)
    if least is None:
        return None
    guess = min(max(guess, least), MAX_ENUMERATED)
    step = 1
    if reaches(guess):   # a crossing below: short (does not reach) < enough (reaches)
        enough = guess
        while enough > least and reaches(short := max(least - 1, enough - step)):
            enough, step = short, 2 * step
        short = max(least - 1, enough - step)
    else:
        short = guess
        while not reaches(enough := min(MAX_ENUMERATED, short + step)):
            if enough == MAX_ENUMERATED:
                return None
            short, step = enough, 2 * step
    while enough - short > 1:
        middle = (short + enough) // 2
        short, enough = (short, middle) if reaches(middle) else (middle, enough)
    while enough <= MAX_SEARCHED:   # an earlier tooth of the saw that reaches it too
        below = next((n for n in range(enough - 1, max(least, enough - SHORTFALL_SEARCH) - 1, -1) if reaches(n)), None)
        if below is None:
            break
        enough = below
    return enough


def paired_cases_answer(difference, discordant, alpha, prob):
    """`power --difference D --discordant P`: the fewest cases whose exact power, for the test compare
    uses, reaches prob (searched from Connor's formula), and that power."""
    size = f"a difference of {points_of(abs(difference))} in pass rate"
    if abs(difference) > discordant:
        raise EvalError(f"--difference {given(difference)} with --discordant {given(discordant)}: {size} needs at least "
                        f"{as_points(abs(difference))}% of the cases to change verdict. Only a case that changes "
                        f"verdict moves the pass rate, so the share that changes bounds the difference: give "
                        f"--discordant {given(abs(difference))} or more")
    connor = connor_cases(difference, discordant, alpha, prob)
    if connor is None:
        raise EvalError(f"{size} would need more than {MAX_SIZING_ROWS:,} cases")
    fewest = fewest_cases_for_power(difference, discordant, alpha, prob, connor) if connor <= MAX_ENUMERATED else None
    cases = fewest or connor
    power = mcnemar_power(cases, difference, discordant, alpha) if cases <= MAX_ENUMERATED else None
    toward = difference_way(difference, discordant)
    aim = percent_line(prob)   # as given: the power then takes the digits that keep it apart (percent(power, prob))
    lines = [f"{plural(cases, 'case')}: what a paired comparison needs for {aim} power to tell {size} from chance "
             f"at alpha {given(alpha)}",
             f"(when {percent_line(discordant)} of the cases change verdict between the runs; "
             + (f"the fewest whose exact power reaches it; Connor 1987's formula for McNemar's test, where the "
                f"search starts, gives {connor})." if fewest else "Connor 1987's formula for McNemar's test).")]
    if fewest is None:
        lines.append(f"(The exact power is enumerated up to {MAX_ENUMERATED:,} cases only"
                     + ("; no size up to there reaches it.)" if connor <= MAX_ENUMERATED else ".)"))
    if power is not None:
        lines += [f"Exact power at {plural(cases, 'case')} of the mid-p McNemar test compare uses: {percent(power, prob)}",
                  f"(discordant cases ~ Binomial({cases}, {given(discordant)}), each going the difference's way with "
                  f"probability (P + D) / 2P = {off_the_ends(toward)}; called at mid-p <= {given(alpha)}).",
                  f"Power: the chance that a comparison of that many cases calls the difference, if it is real."]
    return lines, {"difference": difference, "discordant": discordant, "alpha": alpha, "prob": prob, "cases": cases,
                   "power": power, "connor_cases": connor, "exact": fewest is not None,
                   "method": "exact power, searched from Connor 1987", "test": "mid-p McNemar"}


def discordant_split(rows, share, alpha):
    """On `rows` cases of which a share change verdict: the smallest difference the mid-p McNemar
    test calls (detectable_difference's answer, in a few standard deviations' worth of terms, not
    the discordant count's), the most even split it calls (all one way when it calls none) and
    that split's p."""
    discordant = max(1, floor(share * rows + 0.5))
    rarer, below = mid_p_cutoff(discordant, alpha)
    p = mcnemar_mid_p(discordant, 0) if rarer < 0 else mid_p_at(rarer, discordant, below)
    return {"share": share, "discordant": discordant, "difference": None if rarer < 0 else (discordant - 2 * rarer) / rows,
            "split": [discordant - max(0, rarer), max(0, rarer)], "p": p}


def detectable_answer(rows, alpha):
    """`power --rows N`: what the mid-p McNemar test compare uses can tell from chance on N cases."""
    changed = fewest_one_way(alpha, mcnemar_mid_p, rows)
    if changed is None:
        needed = fewest_one_way(alpha, mcnemar_mid_p, 1 << 12)   # 2^-1075 is 0 in floats: found by then
        raise EvalError(f"on {plural(rows, 'case')} no change can be told from chance at alpha {given(alpha)}: even all {rows} "
                        f"changing verdict the same way give p = {p_value(mcnemar_mid_p(rows, 0), alpha)} (mid-p "
                        f"McNemar, the test compare uses); it needs {plural(needed, 'case')} or more")
    p, p_less = mcnemar_mid_p(changed, 0), mcnemar_mid_p(changed - 1, 0)
    lines = [f"{changed} of {rows} cases ({as_points(changed / rows)} points): the fewest changes of verdict, all one "
             f"way, that compare's test (mid-p McNemar) tells from chance at alpha {given(alpha)}",
             f"({changed} one way and none the other give p = {p_value(p, alpha)}"
             + (f"; {changed - 1} give p = {p_value(p_less, alpha)})." if changed > 1 else ").")]
    if fewest_one_way(alpha, mcnemar_exact, rows) is None:
        lines.append(f"The exact McNemar test could never reach {given(alpha)} on {plural(rows, 'case')}: all {rows} one way give "
                     f"p = {p_value(mcnemar_exact(rows, 0), alpha)}.")
    if rows > MAX_ENUMERATED:
        shown = []
        lines.append(f"(How the smallest difference grows with the cases that change is worked out up to "
                     f"{MAX_ENUMERATED:,} cases.)")
    else:
        shown = [discordant_split(rows, share, alpha) for share in DISCORDANT_SHOWN]
        shown = [s for i, s in enumerate(shown) if s["discordant"] not in {t["discordant"] for t in shown[:i]}]
        lines.append("Changes both ways cancel out: the more cases change verdict, the larger a difference must be.")
    for s in shown:
        split = f"{s['split'][0]} one way, {s['split'][1]} the other, p = {p_value(s['p'], alpha)}"
        lines.append(f"  if {100 * s['share']:g}% of the cases change verdict ({s['discordant']}): "
                     + (f"no difference can be told from chance ({split})" if s["difference"] is None else
                        f"a difference must be at least {points_of(s['difference'])} to be told from chance "
                        f"({split})"))
    return lines, {"rows": rows, "alpha": alpha, "test": "mid-p McNemar", "changed": changed,
                   "difference": changed / rows, "p": p, "by_discordant": shown}


def seen_chance(failures, rows, rate):
    """failures_at_least, kept off 1 and 0 where the true chance is: past 1 - 2^-53 the sum reads
    1.0, while at a rate below 1 none failing stays possible (a chance of 1.0 printed "100.0%")."""
    chance = failures_at_least(failures, rows, rate)
    if chance >= 1 and 0 < failures and rate < 1:
        return nextafter(1.0, 0.0)
    if chance <= 0 < rate and failures <= rows:
        return nextafter(0.0, 1.0)
    return chance


def failures_answer(rate, rows, failures, prob):
    """`power --rate R [--rows N]`: rows needed to see the failures, or the chance of seeing them."""
    if failures > MAX_FAILURES:
        raise EvalError(f"--failures {failures}: at most {MAX_FAILURES:,} (failures of one kind to read through)")
    if rows is not None:
        chance = seen_chance(failures, rows, rate)
        shown = near_the_ends(chance, lambda d: f"{100 * chance:.{d}f}%", least=1)   # 58.2%, never 100.0% short of it
        expected = near_the_ends(rate, lambda d: f"{rows * rate:.{d}f}", least=1, whole=rows)   # 0.001, never 0.0 for some
        lines = [f"{shown}: the chance of seeing at least {plural(failures, 'failure')} in {plural(rows, 'row')} "
                 f"when each fails with probability {given(rate)}",
                 f"(failures ~ Binomial({rows}, {given(rate)}); {expected} expected)."]
        return lines, {"rows": rows, "rate": rate, "failures": failures, "probability": chance}
    rows = rows_for_failures(rate, failures, prob)
    if rows is None:
        raise EvalError(f"no set of up to {MAX_SIZING_ROWS:,} rows reaches {percent_line(prob)} at rate {given(rate)}")
    chance = seen_chance(failures, rows, rate)
    before = seen_chance(failures, rows - 1, rate)
    lines = [f"{plural(rows, 'row')}: the fewest that give at least {plural(failures, 'failure')} with probability "
             f">= {percent_line(prob)} when each row fails with probability {given(rate)}",
             f"(P = {percent(chance, prob)} at {plural(rows, 'row')}, {percent(before, prob)} at {rows - 1}; "
             f"failures ~ Binomial(rows, {given(rate)})). Use more rows than that, not the expected count."]
    return lines, {"rows": rows, "rate": rate, "failures": failures, "prob": prob, "probability": chance}


def fisher_answer(rows, alpha):
    """`power --rows N --unpaired`: failures Fisher's test needs against a never-failing baseline."""
    needed = failures_for_fisher(rows, alpha)
    if needed is None:   # the fewest rows that can: every one failing is the most a test of them can show
        least = next(n for n in itertools.count(rows + 1) if failures_for_fisher(n, alpha) is not None)
        raise EvalError(f"at {plural(rows, 'row')} no number of failures reaches alpha {given(alpha)}: Fisher's exact "
                        f"test needs {plural(least, 'row')} or more")
    p = fisher_exact(rows - needed, needed, rows, 0)
    p_less = fisher_exact(rows - needed + 1, needed - 1, rows, 0)
    lines = [f"{plural(needed, 'failure')}: the fewest that Fisher's exact test (two-sided) tells apart from a "
             f"baseline that never failed on {plural(rows, 'row')}, at alpha {given(alpha)}",
             f"({rows - needed}/{rows} vs {rows}/{rows} gives p = {p_value(p, alpha)}; "
             f"{rows - needed + 1}/{rows} gives p = {p_value(p_less, alpha)}).",
             f"Unpaired: for versions run on different rows, or a test pre-registered so; two runs over the same "
             f"cases are compare's paired question (power --rows {rows})."]
    return lines, {"rows": rows, "alpha": alpha, "failures": needed, "p": p, "test": "Fisher exact, unpaired"}


def power_answer(rate, rows, failures, prob, alpha, difference, discordant, unpaired):
    """`power`: the sizing questions, each answered exactly. Returns (lines, figures)."""
    if (difference is None) != (discordant is None):
        raise EvalError("--difference and --discordant go together: the difference in pass rate to tell from "
                        "chance, and the share of the cases expected to change verdict; see power --help")
    if difference is not None:
        if rate is not None or rows is not None or unpaired:
            raise EvalError("--difference and --discordant ask how many cases a paired comparison needs: "
                            "give them without --rate, --rows or --unpaired")
        return paired_cases_answer(difference, discordant, alpha, prob)
    if unpaired and (rows is None or rate is not None):
        raise EvalError("--unpaired goes with --rows alone: the failures Fisher's test needs on that many fresh rows")
    if rate is not None:
        return failures_answer(rate, rows, failures, prob)
    if rows is not None:
        return fisher_answer(rows, alpha) if unpaired else detectable_answer(rows, alpha)
    raise EvalError("power needs --difference with --discordant (cases a paired comparison needs), --rows (what "
                    "compare can tell on that many cases), or --rate (rows needed to see failures; with --rows, "
                    "the chance of seeing them); see power --help")



# ---------------------------------------------------------------------------
# 11. Report, compare, gates: text for people, --json for machines (unrounded), --markdown for
#     pull requests; exit 1 when quality falls short, 2 when a run cannot be judged.

def trial_name(case_id, trial, numbered=True):
    """An answer's name: 'dev-07 trial 2', or the case id alone where a case has one answer."""
    return f"{case_id} trial {trial}" if numbered else case_id


def verdict_word(ok, undecided="open"):
    """A verdict in one word, the same in every view: pass, fail, or the undecided's word."""
    return {True: "pass", False: "fail"}.get(ok, undecided)


def asked(case):
    """What the model was asked, as data for every view: the input, or the conversation's
    turns (the answer is the next turn)."""
    return {"input": case.get("input"), "messages": case.get("messages") or None}


# The rows: report and compare compute every figure once, into sections of rows whose values
# are already worked out; text, markdown and the page (13) only format them, so no view can
# disagree with another. A figure names where --json holds it, unrounded ("json": its path).

def figure(kind, value, json_at=None, **parts):
    """One figure of the rows: its kind says how the views write it (FIGURE_TEXT)."""
    return {"kind": kind, "value": value, "json": json_at, **parts}


def share(count, of, at=None, keys=("correct", "scored", "accuracy", "ci"), ci=None):
    """count of `of` and its rate (with its 95% interval when given), found in the JSON at `at`
    under keys (count, of, rate, interval; None where the JSON keeps no such key)."""
    paths = {part: [*at, key] for part, key in zip(("count", "of", "value", "ci"), keys) if key} if at is not None else None
    if paths is not None and ci is None:
        paths.pop("ci", None)
    return figure("share", rate(count, of), paths, count=count, of=of, ci=None if ci is None else list(ci))


def share_text(f):
    """'22/25 = 88%': a share as every view writes it ('-' where a run has none)."""
    if f["of"] is None:
        return "-"
    return f"{f['count']}/{f['of']} = {percent(f['value'])}" if f["of"] else f"{f['count']}/{f['of']} = -"


def duration(ms):
    return "-" if ms is None else f"{ms:.0f} ms" if ms < 1000 else f"{ms / 1000:.2f} s"


def speed(value):
    return "-" if value is None else f"{value:.1f} tokens/s"


def points(d):
    """A change in percentage points: '+4 pts', '+0.4 pts' when it rounds to nothing, '+0.03 pts'
    when that does too (d is in points already: a share of 1 reads 100)."""
    if d is None:
        return "-"
    return f"{near_the_ends(d / 100, lambda n: f'{d:+.{n}f}', least=0 if not isfinite(d) or round(d) or d == 0 else 1)} pts"


def signed_points(d, digits=1):
    """A difference in percentage points with its sign: '+17.9', '-3.0'; with the digits that keep a
    difference off 0 and off 100 points short of them (+0.03, +99.95), as near_the_ends."""
    signed = lambda text: text if text.startswith("-") else "+" + text   # a half rounded up, as percents are
    return "-" if d is None else near_the_ends(d, lambda n: signed(rounded(d, n, 100)), least=digits).replace("-", "−")


def difference_text(d):
    """'+17.9 points (95% CI +1.6 to +34.7)': the interval at its level (98.3% for three comparisons)."""
    if d["estimate"] is None:
        return "-"
    ci = (f" ({level_text(d['level'])}% CI {signed_points(d['low'])} to {signed_points(d['high'])})"
          if d["low"] is not None else "")
    return f"{signed_points(d['estimate'])} points{ci}"


def size_text(d):
    """A difference without its sign, in points: '17.9 points' (power's points_of())."""
    return "-" if d is None else points_of(d)


def ids_text(ids, empty="-"):
    """'dev-09, dev-11'. An id holding a line break (a split may have one) is shown escaped: raw, the
    rest of it printed as a line of its own after "Fixed (1):"."""
    return ", ".join(on_one_line(i) for i in ids) or empty


def bounds_text(b):
    """'between 0/27 and 21/27' (cases, with one trial); 'between 40% and 65%' (a mean of rates, with trials)."""
    if b["low_count"] is None:
        return f"between {percent(b['low'])} and {percent(b['high'])}"
    return f"between {b['low_count']}/{b['of']} and {b['high_count']}/{b['of']}"


def bounds_detail(b):
    """What the bounds mean, beside them in every view."""
    if b["low_count"] is not None:
        return (f"{b['undecided_cases']} undecided: {percent(b['low'])} if every one fails, "
                f"{percent(b['high'])} if every one passes")
    return (f"{plural(b['undecided_answers'], 'undecided answer')} in {plural(b['undecided_cases'], 'case')}, "
            f"failing for the low bound and passing for the high; the mean over {b['of']} cases of each case's pass rate")


# How each kind of figure is written, the same in every view (a page writes it escaped).
FIGURE_TEXT = {"share": share_text, "count": str, "p": p_value, "ms": duration, "tokens_per_s": speed,
               "ids": ids_text, "fixed2": fmt, "fixed3": lambda x: fmt(x, 3), "points": points,
               "percent": percent, "interval": interval, "points_ci": difference_text, "size": size_text,
               "bounds": bounds_text, "number": lambda v: "-" if v is None else f"{v:g}"}   # a median of whole numbers: 3, 2.5


def figure_text(f):
    if f["kind"] == "p" and f.get("alpha") is not None:   # a p-value read against alpha keeps its side of it
        return p_value(f["value"], f["alpha"])
    return FIGURE_TEXT[f["kind"]](f["value"] if f["kind"] != "share" else f)


def section_of(rows, key):
    """A section of the rows by its key; None when the rows have none (nothing to show)."""
    return next((sec for sec in rows if sec["key"] == key), None)


def describe_config(config):
    trials = f" · {config['repeat']} trials" if config["repeat"] > 1 else ""
    fmt = f" · format {config['format']}" if config.get("format") else ""
    think = config.get("think", THINK_DEFAULT)
    think = "" if think == THINK_DEFAULT else f" · think {THINK_FLAGS[think]}"
    return (f"{on_one_line(config['split'])} ({short(config['split_sha'])}{subset_text(config)}) · "
            f"{shell_word(config['prompt'])} ({short(config['prompt_sha'])}) · {on_one_line(config['model'])} · T={config['temperature']:g} "
            f"· seed {config['seed']}{trials}{fmt}{think}")


def subset_text(config):
    subset = config.get("subset")
    if not subset:
        return ""
    n = config.get("cases") or subset.get("limit") or len(subset["cases"])   # (a run without config.cases: as asked)
    return (f", only {'the first case' if n == 1 else f'the first {n} cases'}: --limit" if "limit" in subset
            else f", only {plural(n, 'chosen case')}: --cases")


def rerun_warning(rerun):
    return (f"WARNING: a forced re-run of the held-out test split (it had already been run: "
            f"{', '.join(map(shell_word, rerun['earlier']))}); its figures are no longer a clean held-out measure.")


def report_rows(config, s):
    """A run's report as rows: every figure its views show, worked out here once, in sections
    keyed by what they hold; a section the run has nothing for is left out."""
    sections = [rows_headline(s), rows_problems(s), rows_run(config, s), rows_labels(s), rows_checks(s), rows_agent(s),
                *(rows_slice(key, s) for key in ("by_difficulty", "by_tag")), rows_weighted(s["weighted"]),
                rows_trials(s), rows_speed(s["speed"], s["repeat"]), rows_failures(s), rows_annotations(s),
                rows_retrieval(s), rows_retrieval_judged(s), rows_diagnosis(s)]
    return [sec for sec in sections if sec]


def rows_headline(s):
    """The headline: its bounds first when answers are undecided; the rate on the decided cases
    (with trials: the mean of each case's pass rate, then the majority vote's), each trial's,
    pass^k, the baseline to beat."""
    main = share(s["correct"], s["scored"], [], ("correct", "scored", "accuracy", "accuracy_ci"), s["accuracy_ci"])
    rows = [{"name": "bounds", "figure": figure("bounds", s["bounds"], ["bounds"])}] if s["bounds"] else []
    rows.append({"name": "main", "figure": main})
    if s["repeat"] > 1:
        rows.append({"name": "mean", "cases": s["scored"], "figure": figure(
            "percent", s["mean_accuracy"], {"value": ["mean_accuracy"], "ci": ["mean_accuracy_ci"]}, ci=s["mean_accuracy_ci"])})
        rows += [{"name": "trial", "trial": t["trial"], "figure": share(t["correct"], t["scored"], ["trials", i], ci=t["ci"]),
                  "invalid": figure("count", t["invalid"], ["trials", i, "invalid"])} for i, t in enumerate(s["trials"])]
        rows.append({"name": "pass_hat", "cases": s["pass_k"][-1]["cases"], "of": s["scored"],
                     "figure": figure("percent", s["pass_k"][-1]["pass_hat_k"], ["pass_k", len(s["pass_k"]) - 1, "pass_hat_k"])})
    if "baseline" in s and (s["scored"] or s["bounds"]):   # nothing answered: no baseline of nothing (0/0), in any view
        base = s["baseline"]
        rows.append({"name": "baseline", "label": base["label"], "tied": base["tied"],
                     "figure": share(base["correct"], base["total"], ["baseline"], ("correct", "total", "accuracy", "ci"), base["ci"])})
        rows.append({"name": "invalid", "figure": figure("count", s["invalid"], ["invalid"]),
                     "of": figure("count", s["answers"], ["answers"])})
    return {"key": "headline", "measure": s["measure"], "repeat": s["repeat"], "labels": "baseline" in s, "rows": rows}


def count_of(s, key):
    """How many a list of the score holds (the JSON has the list: '#' is its length)."""
    return figure("count", len(s[key]), [key, "#"])


def rows_problems(s):
    """What kept answers out of the figures: errors, undecided judges, answers that stopped short."""
    rows = [{"name": name, "figure": count_of(s, name), "which": which(s[name], s["repeat"])}
            for name in ("unfinished_thinking", "cut_off", "window_full", "stopped_early", "input_may_be_cut",
                         "turns_may_be_dropped")
            if s.get(name)]
    for row in rows:
        if row["name"] == "window_full":   # the first one's counts say what filled the window
            row["example"] = dict(s["window_full"][0], num_ctx=s["num_ctx"], more=len(s["window_full"]) > 1,
                                  option=s.get("limit_option", "num_predict"))
        if row["name"] == "stopped_early":
            row["example"] = dict(s["stopped_early"][0], more=len(s["stopped_early"]) > 1)
    return {"key": "problems", "rerun": s["rerun_test"] and rerun_warning(s["rerun_test"]), "num_ctx": s["num_ctx"],
            "limit_option": s.get("limit_option", "num_predict"),
            "num_ctx_sent": s.get("num_ctx_sent"),
            "errors": count_of(s, "errors"), "open": count_of(s, "open"),
            # every request made: answered, failed, or answered without a verdict
            "requests": figure("count", s["answers"] + len(s["errors"]) + len(s["open"])),
            "failed": [{"name": trial_name(e["id"], e["trial"], s["repeat"] > 1), "id": e["id"], "error": e["error"]}
                       for e in s["errors"]], "rows": rows}


def rows_run(config, s):
    return {"key": "run", "config": describe_config(config), "checks": [c["name"] for c in s["checks"]],
            "checks_sha": short(s["checks_sha"]), "checks_from": s.get("checks_from", "the run file"),
            "rule": rule_text(s["weighted"]) if s["weighted"] else None}


def rescored_text(run, code=str):
    """report --checks SPLIT: every view says the figures come from the split's checks now, not the
    run's (the text view's "Scored with ... from SPLIT"; a markdown comment or a page said nothing,
    and passed rescored figures off as the run's). None when the run's own checks scored it."""
    if run["checks_from"] == "the run file":
        return None
    return (f"Scored with the checks {code(run['checks_from'])} defines now ({plural(len(run['checks']), 'check')}; "
            f"checks sha {run['checks_sha']}), not those stored in the run")


def rows_labels(s):
    if "baseline" not in s:
        return None
    rows = [{"name": label, "figures": [figure("fixed2", m[k], ["per_label", label, k]) for k in ("precision", "recall", "f1")]
             + [figure("count", m["support"], ["per_label", label, "support"])]} for label, m in s["per_label"].items()]
    return {"key": "labels", "every_trial": s["repeat"] > 1, "rows": rows, "confusion": s["confusion"]}


def rows_checks(s):
    """The checks, pattern and code checks apart from judge checks (with the judge's cost and what
    a person should see); the label check alone is no table."""
    rows = [{"name": c["name"], "type": c["type"], "role": role(c), "judge": c["type"] in JUDGE_CHECKS,
             "trajectory": c["type"] in TRAJECTORY, "shown": CHECK_TYPES[c["type"]].shown,
             "figure": share(c["passed"], c["total"], ["checks", i], ("passed", "total", None, None)),
             "open": figure("count", c["open"], ["checks", i, "open"])} for i, c in enumerate(s["checks"])]
    plain = [r for r in rows if not r["judge"]]
    judged = bool(len(plain) < len(rows))
    out = {"key": "checks", "rows": rows, "repeat": s["repeat"],
           "plain_table": bool(plain) and not (len(plain) == 1 and plain[0]["type"] == "label" and not judged)}
    if judged:
        j = s["judge"]
        out["judge"] = {"models": ", ".join((j["config"] or {}).get("models", [])) or "?", "doubtful": j["doubtful"],
                        **{k: figure("count", j[k], ["judge", k]) for k in
                           ("calls", "failed_calls", "cut_calls", "stopped_calls", "prompt_tokens", "completion_tokens",
                            "uncounted_calls")}}
    return out


def rows_agent(s):
    """Agents: the final result and the trajectory, each with its interval; turns used and the cases
    that ran out of them; each tool's calls; the first failure of each failing case."""
    a = s.get("agent")
    if not a:
        return None
    levels = [{"name": name, "figure": share(a[key]["correct"], a[key]["total"], ["agent", key],
                                             ("correct", "total", "accuracy", "ci"), ci=a[key]["ci"])}
              for key, name in (("final", "final result"), ("trajectory", "trajectory")) if a[key]]
    tools = [{"name": t["name"], "figures": [figure("count", t[k], ["agent", "tools", i, k])
                                             for k in ("calls", "cases", "invalid", "unmatched")]}
             for i, t in enumerate(a["tools"])]
    return {"key": "agent", "cases": figure("count", a["cases"], ["agent", "cases"]), "rows": levels, "tools": tools,
            "turns": [figure("number", a["turns"]["median"], ["agent", "turns", "median"]),
                      figure("count", a["turns"]["max"], ["agent", "turns", "max"])],
            "out_of_turns": figure("count", len(a["out_of_turns"]), ["agent", "out_of_turns", "#"]),
            "out_ids": figure("ids", sorted({o["id"] for o in a["out_of_turns"]}), None),
            "first_failures": a["first_failures"], "repeat": s["repeat"]}


def rows_slice(key, s):
    """By difficulty or by tag: each slice's share with its interval, thin ones marked."""
    if key == "by_tag" and not s[key]:
        return None
    return {"key": key, "rows": [{"name": name, "thin": g["thin"], "figure": share(
        g["correct"], g["total"], [key, name], ("correct", "total", "accuracy", "ci"), g["ci"])} for name, g in s[key].items()]}


def rows_weighted(w):
    if not w:
        return None
    rows = [{"name": r["id"], "verdict": verdict_word(r["correct"]), "score": r["score"], "score_text": score_text(r),
             "threshold": fmt_share(r["threshold"]), "failed": r["failed"]} for r in w["cases"]]
    return {"key": "weighted", "rule": rule_text(w), "rows": rows, "vetoed": w["vetoed"]}


def rows_trials(s):
    if not s["pass_k"]:
        return None
    rows = [{"name": p["k"], "figures": [figure("count", p["k"], ["pass_k", i, "k"]),
                                         figure("fixed2", p["pass_at_k"], ["pass_k", i, "pass_at_k"]),
                                         figure("fixed2", p["pass_hat_k"], ["pass_k", i, "pass_hat_k"]),
                                         figure("count", p["cases"], ["pass_k", i, "cases"])]} for i, p in enumerate(s["pass_k"])]
    counts = [p["cases"] for p in s["pass_k"]]
    # a case counts toward k only with k trials decided: the rows' cases differ, and pass@k can fall as k grows
    fewer = (f"Rows count cases with at least k trials decided ({counts[0]} to {counts[-1]}): a trial that errored or "
             "was not scored leaves its case out of the larger k, so the rows are not one set of cases"
             if counts[0] != counts[-1] else None)
    return {"key": "trials", "repeat": s["repeat"], "rows": rows, "fewer": fewer, "flaky": [flaky_line(f) for f in s["flaky"]],
            "trials": [{"name": f"trial {t['trial']}", "figure": share(t["correct"], t["scored"], ["trials", i], ci=t["ci"])}
                       for i, t in enumerate(s["trials"])]}


def rows_speed(sp, repeat):
    """Wall time and the server's own throughput; the load before the run is never a case's."""
    if not sp["calls"]:
        return None
    def f(kind, key):
        return figure(kind, sp[key], ["speed", key])
    tokens = sp["prompt_tokens"] is not None or sp["completion_tokens"] is not None
    load = sp["load_before_run"]
    return {"key": "speed", "calls": f("count", "calls"), "latency": [f("ms", "latency_ms_median"), f("ms", "latency_ms_p95")],
            "rates": [f("tokens_per_s", "generation_tokens_per_s")],
            "has_rates": sp["generation_tokens_per_s"] is not None,
            "without_prompt_count": f("count", "without_prompt_count") if sp["without_prompt_count"] else None,
            "api": sp.get("api", "ollama"),
            "without_completion_count": (f("count", "without_completion_count")
                                         if sp.get("without_completion_count") else None),
            "two_pass": f("count", "two_pass") if sp.get("two_pass") else None,
            # the tokens of every answer, prompt and completion: what a run costs
            "tokens": figure("count", (sp["prompt_tokens"] or 0) + (sp["completion_tokens"] or 0)) if tokens else None,
            # a side no answer sent a count for is unknown (None, shown "?"), never a zero
            "token_parts": [figure("count", sp[k], ["speed", k] if sp[k] is not None else None)
                            for k in ("prompt_tokens", "completion_tokens")],
            "thinking": f("count", "thinking_tokens") if sp["thinking_tokens"] else None,
            "load": figure("ms", load["ms"], ["speed", "load_before_run", "ms"]) if load else None,
            "with_load": f("count", "calls_with_load") if sp["calls_with_load"] is not None else None,
            "loaded": which(sp["loaded"], repeat) if sp.get("loaded") else "",
            "rows": []}


def rows_failures(s):
    """Every failing case, as failure() made it (not copied: a large run has tens of thousands):
    the views choose how many to list."""
    return {"key": "failures", "labels": "baseline" in s, "count": count_of(s, "failures"), "rows": s["failures"]}


def rows_annotations(s):
    annotations = s.get("annotations")
    if not annotations:
        return None
    return {"key": "annotations", "file": annotations["file"],
            "total": figure("count", sum(n for _, n in annotations["counts"])),
            "left_out": annotations["left_out"] and stray_warning(annotations["file"], annotations["left_out"]),
            "other_versions": annotations["other_versions"] and versions_note(annotations["file"],
                                                                              annotations["other_versions"]),
            "rows": [{"name": text, "figure": figure("count", n, ["annotations", "counts", i, 1])}
                     for i, (text, n) in enumerate(annotations["counts"])]}


# --- the report as text: each section of the rows, formatted

def rows_retrieval(s):
    """RAG: the retrieval stage's figures, from labels, offline: the means over cases with their
    intervals, then each case's (the relevant passages it missed named)."""
    r = s.get("retrieval")
    if not r:
        return None
    at = ["retrieval"]
    return {"key": "retrieval", "labelled": figure("count", r["labelled"], [*at, "labelled"]),
            "recall_cases": figure("count", r["recall_cases"], [*at, "recall_cases"]),   # precision's too: the same cases
            **{k: figure("percent", r[k], {"value": [*at, k], "ci": [*at, k + "_ci"]}, ci=r[k + "_ci"])
               for k in ("precision", "recall")},
            "rows": [{"name": c["id"], "passages": figure("count", c["passages"], [*at, "cases", i, "passages"]),
                      **{k: figure("fixed3", c[k], [*at, "cases", i, k]) for k in ("precision", "recall")},
                      "missing": figure("ids", c["missing"], [*at, "cases", i, "missing"])}
                     for i, c in enumerate(r["cases"])]}


def rows_retrieval_judged(s):
    """RAG without labels: the precision a judge's ratings give, apart from labelled figures."""
    r = s.get("retrieval_judged")
    if not r:
        return None
    at = ["retrieval_judged"]
    return {"key": "retrieval_judged", "cases": figure("count", r["cases"], [*at, "cases"]),
            "precision": figure("percent", r["precision"], {"value": [*at, "precision"], "ci": [*at, "precision_ci"]},
                                ci=r["precision_ci"]),
            "rows": [{"name": c["id"], "check": c["check"], "precision": figure("fixed3", c["precision"], [*at, "by_case", i, "precision"])}
                     for i, c in enumerate(r["by_case"])]}


def rows_diagnosis(s):
    """RAG: the failing cases by the stage to fix, each with its cases, what to change, and why each."""
    d = s.get("diagnosis")
    if not d:
        return None
    return {"key": "diagnosis", "cases": figure("count", d["cases"], ["diagnosis", "cases"]),
            "failing": figure("count", d["failing"], ["diagnosis", "failing"]),
            "rows": [{"name": stage, "count": figure("count", len(d[stage]), ["diagnosis", stage, "#"]),
                      "which": figure("ids", d[stage], ["diagnosis", stage]), "fix": STAGE_FIX[stage]} for stage in STAGES],
            "why": [[i, d["why"][i]] for stage in STAGES for i in d[stage]]}


def headline(sec, problems):
    """The opening lines: the bounds when answers are undecided, then accuracy (or pass rate) on the
    decided cases (with trials: the mean per case, the majority vote, each trial), baseline, invalid answers."""
    name = sec["measure"].capitalize()
    main, invalid, bounds = row_of(sec, "main")["figure"], row_of(sec, "invalid"), row_of(sec, "bounds")
    if not main["of"] and not bounds:   # every call failed: no figure, not a baseline of nothing
        return [f"{name}: no answers to score ({plural(problems['errors']['value'], 'error')}, "
                f"{figure_text(problems['open'])} undecided)"]
    # undecided answers: what they could make of the headline comes first, the decided alone after
    lines = [f"{name}: {figure_text(bounds['figure'])} ({bounds_detail(bounds['figure']['value'])})"] if bounds else []
    trials = [r for r in sec["rows"] if r["name"] == "trial"]
    if sec["repeat"] == 1:
        decided = f" on the {plural(main['of'], 'decided case')}" if bounds else ""
        lines.append(f"{name}{decided}: {figure_text(main)}  (95% CI {interval(main['ci'])})")
    else:
        mean = row_of(sec, "mean")
        lines += [f"{name}{' on the decided answers' if bounds else ''}: {figure_text(mean['figure'])}  "
                  f"(95% CI {interval(mean['figure']['ci'])}), {mean_words(mean)}",
                  f"Majority vote of each case's trials: {figure_text(main)}  (95% CI {interval(main['ci'])})",
                  "Each trial alone: " + " · ".join(f"trial {t['trial']}: {figure_text(t['figure'])}" for t in trials)]
    base = row_of(sec, "baseline")
    if base:
        quoted = "'{}'".format
        lines += [f"Majority baseline (always {quoted(base['label'])}{tied_text(base, quoted)}): {figure_text(base['figure'])}"
                  f"  (95% CI {interval(base['figure']['ci'])})", invalid_line(invalid, trials)]
    return [line.replace("  (95% CI )", "") for line in lines]


def mean_words(mean):
    """What the headline with trials is, in every view."""
    return f"the mean over {plural(mean['cases'], 'case')} of each case's pass rate over its trials"


def invalid_line(invalid, trials):
    """Invalid answers; with trials, of how many answers, and each trial's."""
    if not trials:
        return f"Invalid answers: {figure_text(invalid['figure'])}"
    return (f"Invalid answers: {figure_text(invalid['figure'])} of {figure_text(invalid['of'])} ("
            + " · ".join(f"trial {t['trial']}: {figure_text(t['invalid'])}" for t in trials) + ")")


def slice_lines(sec):
    rows = []
    for r in sec["rows"]:
        thin = f"(fewer than {SMALL_SLICE} cases: too few to read much into)" if r["thin"] else ""
        rows.append([r["name"], figure_text(r["figure"]), f"95% CI {interval(r['figure']['ci'])}", thin])
    return table(rows, align_right_from=99) if rows else ["  -"]


def label_section(sec):
    each = " (every trial counted)" if sec["every_trial"] else ""
    rows = [["label", "precision", "recall", "f1", "support"]]
    rows += [[r["name"], *(figure_text(f) for f in r["figures"])] for r in sec["rows"]]
    out = [f"Per label{each}:"] + table(rows)
    columns = list(next(iter(sec["confusion"].values())))
    rows = [["expected"] + columns] + [[e] + list(row.values()) for e, row in sec["confusion"].items()]
    each = "; every trial counted" if each else ""
    return out + ["", f"Confusion matrix (rows expected, columns predicted{each}):"] + table(rows)


def turns_line(sec):
    median, most = sec["turns"]
    return (f"turns used: median {figure_text(median)}, max {figure_text(most)} · ran out of turns: "
            f"{figure_text(sec['out_of_turns'])}" + (f" ({figure_text(sec['out_ids'])})" if sec["out_ids"]["value"] else ""))


def name_cell(name):
    """A name a model made up (a tool's), as a table's cell: on one line, cut short (5,000 characters widened every
    row), and quoted where it would look like another or like none ("cancel ", "")."""
    plain = (name and name == name.strip() and not name.startswith('"') and not INVISIBLE_CHARS.search(name)
             and without_unseen(name) == name)
    quoted = INVISIBLE_CHARS.sub(lambda m: f"\\u{ord(m.group()):04x}", json.dumps(name, ensure_ascii=False))   # cancel\u200b
    return on_one_line(name if plain else quoted, 50)


def agent_section(sec):
    """Agents, at the method's two levels, then how they got there: turns, tools, first failures."""
    out = [f"Agent ({plural(sec['cases']['value'], 'case')} with tools; the final result and the trajectory "
           "judged apart):"]
    out += table([[r["name"], figure_text(r["figure"]), f"(95% CI {interval(r['figure']['ci'])})"] for r in sec["rows"]],
                 align_right_from=99)
    out.append("  " + turns_line(sec))
    if sec["tools"]:
        out += [""] + table([["tool", "calls", "cases", "invalid arguments", "no matching result"]]
                            + [[name_cell(t["name"]), *map(figure_text, t["figures"])] for t in sec["tools"]],
                            align_right_from=99)   # a name the model made up may hold escape sequences
    out += ["", "First failure of each failing case (the first wrong step; what follows is often its cascade):"]
    rows = [["id"] + ["trial"] * (sec["repeat"] > 1) + ["turn", "call", "check", "what went wrong"]]
    rows += [[f["id"]] + [str(f["trial"])] * (sec["repeat"] > 1) + [str(f["turn"] or "-"), on_one_line(f["call"] or "-", 50),
                                                                   f["check"] or "-", f["what"]]
             for f in sec["first_failures"][:FAILURES_SHOWN]]
    return out + (table(rows, align_right_from=99) if sec["first_failures"] else ["  -"])


def check_section(sec):
    """Pattern and code checks first; judge checks apart, with their cost and what a person should see."""
    out = []
    def rows(checks):
        return table([[r["name"], r["type"], r["role"], figure_text(r["figure"]),
                       f"{figure_text(r['open'])} open" if r["open"]["value"] else ""] for r in checks],
                     align_right_from=99)
    plain = [r for r in sec["rows"] if not r["judge"] and not r["trajectory"]]
    if sec["plain_table"] and plain:
        out += ["Checks (answers passing each):"] + rows(plain)
    if any(r["trajectory"] for r in sec["rows"]):
        out += ["" if out else None, "Trajectory checks (the tools an agent called, how, in what order, how often):"]
        out += rows([r for r in sec["rows"] if r["trajectory"]])
    if "judge" in sec:
        j = sec["judge"]
        out += ["" if out else None, f"Judge checks (LLM judge: {j['models']}; reported apart, a judge can be wrong):"]
        out += rows([r for r in sec["rows"] if r["judge"]])
        out.append(f"  cost: {judge_cost(j)}")
        out += ["", f"Doubtful verdicts, for a person to check ({len(j['doubtful'])}):"]
        out += [f"  {on_one_line(doubtful_line(r, sec['repeat']))}" for r in j["doubtful"]] or ["  -"]
    return [line for line in out if line is not None]


def judge_cost(j, calls="judge calls"):
    """'12 judge calls (0 failed), 3400 prompt + 120 completion tokens'."""
    # (compare --pairwise counts its calls in words of its own: no such figures)
    cut, stopped = j.get("cut_calls"), j.get("stopped_calls")
    return (f"{figure_text(j['calls'])} {calls} ({figure_text(j['failed_calls'])} failed"
            + (f", {figure_text(cut)} cut at the token limit" if cut and cut["value"] else "")
            + (f", {figure_text(stopped)} stopped by the server short of it" if stopped and stopped["value"] else "") + "), "
            + tokens_text(*(j[k]["value"] for k in ("prompt_tokens", "completion_tokens", "uncounted_calls"))))


def tokens_text(prompt, completion, uncounted):
    """'3400 prompt + 120 completion tokens', saying so when a server sent no count for some calls
    or for all (tokens_counted): an unknown count is never written as a zero."""
    if prompt is None and completion is None:
        return (f"token counts unknown ({plural(uncounted, 'answered call')}, none sent its count)" if uncounted
                else "no token counted (no call was answered)")
    partial = f" (partial: {plural(uncounted, 'answered call')} sent no count)" if uncounted else ""
    return f"{'?' if prompt is None else prompt} prompt + {'?' if completion is None else completion} completion tokens{partial}"


def doubtful_line(r, repeat):
    """An answer a person should look at, and why: 'dev-07 trial 2 · helps: low certainty (0.67)'."""
    return f"{trial_name(r['id'], r['trial'], repeat > 1)} · {r['check']}: {r['why']}"


def role(check):
    """What a check does to the verdict, as the check table says it."""
    if "weight_range" in check:   # (the first case's weight alone was shown)
        return f"weight {check['weight_range'][0]:g} to {check['weight_range'][1]:g} (by case)"
    return f"weight {check['weight']:g}" if "weight" in check else "blocking" if check["blocking"] else "not blocking"


def score_text(row):
    """A case's weighted score: '0.67', or '0.33–1' while an undecided judge check could tip it;
    'just under 0.67' when rounding would show a failing score equal to its threshold."""
    if row["score"] is None:
        return "-"
    low, high = fmt_share(row["score"]), fmt_share(row["score_high"])
    decided = low == high
    if row.get("short_of_threshold") and low == fmt_share(row["threshold"]):
        low = f"just under {low}"
    return low if decided else f"{low}–{high}"


def weighted_section(sec):
    rows = [["id", "verdict", "score", "threshold", "weighed checks failed"]]
    rows += [[r["name"], r["verdict"], r["score_text"], r["threshold"], one_line(", ".join(r["failed"]), 60)]
             for r in sec["rows"][:FAILURES_SHOWN]]
    out = ["Weighted score per case (the share of the weighed checks' weight that passed):"]
    out += table(rows, align_right_from=99)
    more = len(sec["rows"]) - FAILURES_SHOWN
    out += [f"  … and {more} more: report --json lists them all"] if more > 0 else []
    if sec["vetoed"]:
        out.append(f"Failed by a blocking check whatever the score ({len(sec['vetoed'])}): {ids_text(sec['vetoed'])}")
    return out


def trial_section(sec):
    out = [f"Trials ({sec['repeat']} per case):"]
    out += table([[t["name"], figure_text(t["figure"]), f"95% CI {interval(t['figure']['ci'])}"] for t in sec["trials"]],
                 align_right_from=99)
    rows = [["k", "pass@k", "pass^k", "cases"]] + [[figure_text(f) for f in r["figures"]] for r in sec["rows"]]
    out += [""] + table(rows) + ([sec["fewer"]] if sec["fewer"] else [])
    out += ["", f"Flaky cases ({len(sec['flaky'])}, trials disagree):"]
    out += [f"  {line}" for line in sec["flaky"]]
    return out + ([] if sec["flaky"] else ["  -"])


def flaky_line(f):
    """A case whose trials disagree: 'dev-07 (expected bug): bug | acceso "Es acceso."'."""
    expected = f" (expected {f['expected']})" if f["expected"] is not None else ""
    return f"{on_one_line(f['id'])}{expected}: " + " | ".join(trial_answer(a) for a in f["answers"])


def trial_answer(a):
    """A label as the model wrote it, or the label and what it wrote; pass/fail in a free-text set."""
    shown = a["predicted"] if a["predicted"] is not None else verdict_word(bool(a["passed"]))
    return shown if a["response"].strip() == shown else f'{shown} "{one_line(a["response"], 30)}"'


def failure_section(sec):
    out = [f"Failures ({figure_text(sec['count'])}):"]
    if not sec["rows"]:
        return out + ["  -"]
    shown = sec["rows"][:FAILURES_SHOWN]
    if sec["labels"]:
        rows = [["id", "difficulty", "expected", "got", "answer"]]
        rows += [[f["id"], f["difficulty"], f["expected"], f["got"], one_line(f["response"])] for f in shown]
    else:
        rows = [["id", "difficulty", "failed checks", "answer"]]
        rows += [[f["id"], f["difficulty"], ", ".join(f["failed_checks"]), one_line(f["response"], 60)] for f in shown]
    more = len(sec["rows"]) - len(shown)
    return out + table(rows, align_right_from=99) + (
        [f"  … and {more} more: report --json lists them all, review shows them one by one"] if more else [])


RETRIEVAL_WORDS = {"precision": ("context precision", "rank-aware: relevant passages ranked first score higher (RAGAS)"),
                   "recall": ("context recall", "relevant passages retrieved, of all a person labelled relevant")}


def retrieval_section(sec):
    """RAG: the retrieval stage, apart from the answers: low figures here are the retriever's to fix."""
    out = [f"Retrieval (offline, from the passages and the ids labelled relevant; "
           f"{plural(sec['labelled']['value'], 'case')}):"]
    named = sec["recall_cases"]["value"]   # the cases both means are over: a relevant passage exists
    out += table([[RETRIEVAL_WORDS[k][0], side_text(sec[k]),
                   RETRIEVAL_WORDS[k][1] + (f" ({plural(named, 'case')} {'names' if named == 1 else 'name'} one)"
                                            if k == "recall" else "")]
                  for k in ("precision", "recall")], align_right_from=99)
    out += table([["id", "passages", "precision", "recall", "relevant, not retrieved"]]
                 + [[inert(r["name"]), figure_text(r["passages"]), figure_text(r["precision"]), figure_text(r["recall"]),
                     inert(figure_text(r["missing"]))] for r in sec["rows"]], align_right_from=99)
    return out


def retrieval_judged_lines(sec):
    """RAG without labels: the judged precision, as text and the page say it."""
    return [f"Retrieval, judged (no relevance labels: context_relevant's ratings; {plural(sec['cases']['value'], 'case')}):",
            f"  judged context precision  {side_text(sec['precision'])}: "
            "a judge's ratings, not a person's labels; calibrate it before trusting it"]


def retrieval_judged_section(sec):
    return retrieval_judged_lines(sec) + table([["id", "judged precision"]] + [
        [inert(r["name"]), figure_text(r["precision"])] for r in sec["rows"]], align_right_from=99)


def diagnosis_head(sec):
    return (f"Diagnosis: {figure_text(sec['failing'])} failing of {plural(sec['cases']['value'], 'case')} with passages, "
            "by the stage to fix (methodology note 001: retrieval, then generation, then the task):")


def diagnosis_section(sec):
    """RAG: which stage to fix, the report's last word."""
    out = [diagnosis_head(sec)]
    out += table([["stage", "cases", "what to change"]] + [
        [r["name"], figure_text(r["count"]), r["fix"]] for r in sec["rows"]], align_right_from=99)
    why = dict(sec["why"])   # then each failing case under its stage, with why (none when all pass)
    failing = [[r["name"], f"{inert(i)}: {one_line(inert(why[i]), 110)}"] for r in sec["rows"] for i in r["which"]["value"]]
    return out + (table(failing, align_right_from=99) if failing else [])


def annotation_section(sec):
    out = [f"Annotations ({plural(sec['total']['value'], 'answer')} annotated in review, from {sec['file']}; "
           "most frequent first):"]
    # cut: review saves MAX_ANNOTATION characters, but a hand-edited one of 100,000 padded every row to it
    out += table([[on_one_line(r["name"], ANNOTATION_SHOWN), figure_text(r["figure"])] for r in sec["rows"]]) if sec["rows"] else ["  -"]
    return out + [f"  {note}" for note in (sec["left_out"], sec["other_versions"]) if note]


def which(answers, repeat):
    """dev-07, dev-11 trial 2, ...: the answers of a list, at most ten named."""
    named = [on_one_line(trial_name(a["id"], a["trial"], repeat > 1)) for a in answers[:10]]   # an id's line break: no line of its own
    return ", ".join(named) + (f", and {len(answers) - 10} more" if len(answers) > 10 else "")


def window_name(sec):
    """The window prompts were fitted to: the num_ctx sent, or the model's own when Ollama lowered it."""
    lowered = sec["num_ctx_sent"] and sec["num_ctx"] < sec["num_ctx_sent"]
    return f"the model's window of {sec['num_ctx']} tokens" if lowered else f"num_ctx={sec['num_ctx']}"


def window_cure(sec):
    if sec["num_ctx_sent"] and sec["num_ctx"] < sec["num_ctx_sent"]:
        return (f"Ollama lowered num_ctx={sec['num_ctx_sent']} to the context the model was trained on, so raising "
                "it cannot help: shorten the prompt, or pick a model trained on a longer context")
    return "raise it (--option num_ctx=N)"


def stopped_short_lines(sec):
    """Answers that ended before they were done: not the prompt's fault, and not fixed by a better one."""
    said = {"unfinished_thinking": ("Thinking never finished", "the reasoning had not closed when the answer stopped, "
                                    "so there is no answer (scored as failed)"),
            "cut_off": ("Cut off by the token limit", f"raise {sec.get('limit_option', 'num_predict')} (--option "
                        f"{sec.get('limit_option', 'num_predict')}=N); a better prompt will not fix these"),
            "stopped_early": ("Stopped for length short of every limit", "the server said \"length\" for {example}, {limit} "
                              "and short of the window: neither stopped it (the server's own limit, or a fault); look at "
                              "these by hand"),
            "window_full": ("Stopped at the context window", "{example}, before the model stopped on its own. "
                            "{limit}; ask for a short answer in the prompt or constrain it (--format schema){wider}"),
            "input_may_be_cut": (f"Input may have been cut to fit {window_name(sec)}", "the prompt's token "
                                 "count reached the window, or is the size Ollama cuts a longer prompt to (about half "
                                 "the window in current versions), and Ollama cuts without an error; " + window_cure(sec)),
            "turns_may_be_dropped": (f"Earlier turns may have been dropped to fit {window_name(sec)}",
                                     "the conversation's characters take far more than the window but its count fits: "
                                     "this Ollama (before v0.12.6) drops whole turns from the front, keeping the system "
                                     "prompt and the last turn, without an error, and the model never saw them; "
                                     + window_cure(sec))}
    return [f"{said[r['name']][0]}: {figure_text(r['figure'])} ({r['which']}): "
            + (said[r["name"]][1].format(**(early_words if r["name"] == "stopped_early" else window_words)(r["example"]))
               if "example" in r else said[r["name"]][1])
            for r in sec["rows"]]


def early_words(e):
    """What stopped_short_lines says of an answer stopped for length short of every limit: the first such one's count."""
    first = f" (the first, {on_one_line(trial_name(e['id'], e['trial'], e['trial'] > 1))})" if e["more"] else ""
    return {"example": f"an answer of {plural(e['completion_tokens'], 'token')}{first}",
            "limit": f"under the run's limit ({e['limit']})" if e["limit"] else "with no limit set"}


def window_words(e):
    """What filled the window, in the words of stopped_short_lines: the first such answer's tokens."""
    window = f", window {e['num_ctx']}" if e.get("num_ctx") else ""
    first = f"; the first, {on_one_line(trial_name(e['id'], e['trial'], e['trial'] > 1))}" if e["more"] else ""
    past = e.get("num_ctx") and e["prompt_tokens"] + e["completion_tokens"] > e["num_ctx"]
    ten = past and e["completion_tokens"] >= 10 * e["num_ctx"] - 1   # Ollama's bound on an open answer (boundedNumPredict)
    # over /v1 no window is reported: a stop short of every limit the run set is most likely it, never known to be
    said = (f"prompt + answer {'ran past' if past else 'reached'} the server's window" if e.get("num_ctx") else
            "prompt + answer stopped short of every limit the run set, most likely at the server's window (/v1 does not "
            "report it)")
    return {"example": f"{said} ({e['prompt_tokens']} + {e['completion_tokens']} tokens{window}{first})"
                       + (" and Ollama stopped it at ten windows" if ten else ""),
            # past the window, Ollama shifted it and went on: a larger one only lets the answer run longer
            "wider": "" if past else (", or give it a larger window (--option num_ctx=N)" if e.get("num_ctx") else
                                      ", or start the server with a larger context size"),
            "limit": (f"Its {e.get('option', 'num_predict')} ({e['num_predict']}) was not reached, so raising it will not help"
                      if e.get("num_predict") else f"No {e.get('option', 'num_predict')} was set, and one will not help")}


def speed_section(sec):
    """Wall time and the server's own throughput; the load before the run is never a case's."""
    median, p95 = (figure_text(f) for f in sec["latency"])
    out = [f"Speed ({plural(sec['calls']['value'], 'answer')}):",
           f"  latency     median {median} · 95th percentile {p95} (wall time of each request)"]
    if sec["has_rates"]:
        out.append(f"  generation  {figure_text(sec['rates'][0])} (the server's token count over its own duration; "
                   "no prompt rate: its prompt count includes cached tokens its duration does not time)")
    if sec["tokens"]:
        thinking = f", {figure_text(sec['thinking'])} of them thinking" if sec["thinking"] else ""
        prompt, completion = ("?" if f["value"] is None else figure_text(f) for f in sec["token_parts"])
        out.append(f"  tokens      {figure_text(sec['tokens'])} ({prompt} prompt + {completion} completion{thinking})")
        if sec["without_prompt_count"]:
            out.append(f"              partial: {plural(sec['without_prompt_count']['value'], 'answer')} sent no prompt "
                       "count" + (" (Ollama leaves out a count of zero, which some versions give a fully cached prompt)"
                                  if sec["api"] == "ollama" else ""))
        if sec["without_completion_count"]:
            out.append(f"              partial: {plural(sec['without_completion_count']['value'], 'answer')} sent no "
                       "completion count")
        if None in (f["value"] for f in sec["token_parts"]):
            out.append(f"              partial: no answer sent a {'prompt' if prompt == '?' else 'completion'} count")
        if sec["two_pass"]:
            out.append(f"              second pass only: {plural(sec['two_pass']['value'], 'answer')} thought under "
                       "--format, which Ollama asks twice (thinking, then the answer in the format) and counts once: "
                       "the prompt count holds the thinking, the completion count leaves it out")
    if sec["load"] or sec["with_load"]:
        before = f"{figure_text(sec['load'])} before the first case, not charged to any; " if sec["load"] else ""
        calls = sec["with_load"]
        out.append(f"  model load  {before}" + (f"{plural(calls['value'], 'answer')} included a load" if calls
                                                else "no load figures from the server")
                   + (f" ({sec['loaded']}: their latency holds it)" if sec["loaded"] else ""))
    return out


def format_report(config, s, run_path="RUN"):
    rows = report_rows(config, s)
    problems = section_of(rows, "problems")
    out = headline(section_of(rows, "headline"), problems)
    if problems["rerun"]:
        out.append(problems["rerun"])
    if problems["failed"]:
        out.append(f"Errors: {figure_text(problems['errors'])} of {figure_text(problems['requests'])} requests "
                   "got no answer (infrastructure, not scored)")
        out += [f"  {on_one_line(e['name'])}: {on_one_line(e['error'])}" for e in problems["failed"]]
    run = section_of(rows, "run")
    if problems["open"]["value"]:   # a judge that gave none, or a judge check added since (report --checks): never asked
        again, why = judge_again(run_path, config, None if run["checks_from"] == "the run file" else run["checks_from"],
                                 *map((s.get("judge") or {}).get, ("cut_calls", "stopped_calls", "stopped_models")))
        out.append(f"Undecided: {plural(problems['open']['value'], 'answer')} whose judge check has no verdict "
                   f"(none given, or not yet asked: {again} asks{'; ' + why if why else ''}; not scored; "
                   "see the doubtful verdicts below)")
    out += stopped_short_lines(problems)
    out += ["", "Run: " + run["config"],
            f"Scored with {plural(len(run['checks']), 'check')} ("
            + "".join(f"{on_one_line(name)}, " for name in run["checks"]).removesuffix(", ") + ("; " if run["checks"] else "")
            + f"checks sha {run['checks_sha']}) from {on_one_line(run['checks_from'])}"]
    if run["rule"]:
        out.append(run["rule"])
    nothing = not s["answers"] and not s["open"]   # undecided answers still have their judges' doubtful verdicts
    if nothing:
        out += ["", NOTHING_SCORED]
    for key, title, lines in TEXT_SECTIONS:
        sec = section_of(rows, key) if not (nothing and key in SCORED_SECTIONS) else None
        part = lines(sec) if sec else []
        out += [""] + ([title] if title else []) + part if part else []
    return "\n".join(out)


# Without one answer (every call failed), these sections would be tables of zeros and dashes: one line
# says so instead.
SCORED_SECTIONS = ("labels", "checks", "by_difficulty", "by_tag", "weighted", "trials", "failures")
NOTHING_SCORED = "No answer was scored: no per-label, confusion, slice or failure table to show."


# The report's sections after its head, in order, as text: (key, title, the lines of the section).
TEXT_SECTIONS = [("labels", None, label_section), ("checks", None, check_section), ("agent", None, agent_section),
                 ("by_difficulty", "By difficulty:", slice_lines), ("by_tag", "By tag:", slice_lines),
                 ("weighted", None, weighted_section), ("trials", None, trial_section), ("speed", None, speed_section),
                 ("failures", None, failure_section), ("annotations", None, annotation_section),
                 ("retrieval", None, retrieval_section), ("retrieval_judged", None, retrieval_judged_section),
                 ("diagnosis", None, diagnosis_section)]


def markdown_report(config, s, path):
    rows = report_rows(config, s)
    head, problems, checks = (section_of(rows, k) for k in ("headline", "problems", "checks"))
    run = section_of(rows, "run")
    out = [f"### eval.py report: {md_code(path)}", "",
           f"{md_text(config['split'])} (`{short(config['split_sha'])}`{md_text(subset_text(config))}) · {md_code(config['prompt'])} "
           f"(`{short(config['prompt_sha'])}`) · {md_code(config['model'])}", ""]
    if problems["rerun"]:
        out += [f"> **{md_text(problems['rerun'])}**", ""]
    if rescored_text(run):
        out += [f"> **{rescored_text(run, md_code)}**", ""]
    if run["rule"]:
        out += [run["rule"], ""]
    out += ["| | result | 95% CI |", "|---|---|---|"] + markdown_headline(head)
    out += [f"| Check {md_code(r['name'], cell=True)}{r['shown']} | {figure_text(r['figure'])} | |"
            for r in checks["rows"] if r["type"] != "label"]
    agent = section_of(rows, "agent")
    if agent:
        out += [f"| Agents: {r['name']} | {figure_text(r['figure'])} | {interval(r['figure']['ci'])} |" for r in agent["rows"]]
        out.append(f"| Agents: ran out of turns | {figure_text(agent['out_of_turns'])} | |")
    if problems["failed"]:
        out.append(f"| Errors (not scored) | {figure_text(problems['errors'])} | |")
    out += [f"| {MARKDOWN_STOPPED[r['name']].format(window=window_name(problems))} | {figure_text(r['figure'])} | |"
            for r in problems["rows"]]
    out += markdown_speed(section_of(rows, "speed"))
    out += markdown_retrieval(section_of(rows, "retrieval"))
    judged = section_of(rows, "retrieval_judged")
    out += [f"| Judged context precision (a judge's ratings, {plural(judged['cases']['value'], 'case')}) | "
            f"{figure_text(judged['precision'])} | {interval(judged['precision']['ci'])} |"] if judged else []
    out += markdown_judge(checks.get("judge"), checks["repeat"])
    return "\n".join(out + ["", markdown_failures(section_of(rows, "failures")) if s["answers"] or s["open"] else NOTHING_SCORED]
                     + markdown_annotations(section_of(rows, "annotations")) + markdown_diagnosis(section_of(rows, "diagnosis")))


def markdown_judge(j, repeat):
    """The judge checks' cost and the verdicts a person should look at, as the text says them (a failed
    call or a doubtful verdict left unsaid, a reader would take the pass rate at its word)."""
    if not j:
        return []
    doubtful = "; ".join(md_text(on_one_line(doubtful_line(r, repeat), 120)) for r in j["doubtful"][:MARKDOWN_FAILURES])
    more = f", and {len(j['doubtful']) - MARKDOWN_FAILURES} more" if len(j["doubtful"]) > MARKDOWN_FAILURES else ""
    return ["", f"**Judge checks** ({md_text(j['models'])}; a judge can be wrong): {md_text(judge_cost(j))}. "
                f"**Doubtful verdicts, for a person to check ({len(j['doubtful'])}):** {doubtful or 'none'}{more}"]


def markdown_annotations(sec):
    """review's annotations, most frequent first, and what was left out of them, as the text says."""
    if not sec:
        return []
    counted = ", ".join(f"{md_text(on_one_line(r['name'], ANNOTATION_SHOWN))} ({figure_text(r['figure'])})"
                        for r in sec["rows"]) or "none"
    return ["", f"**Annotations ({plural(sec['total']['value'], 'answer')} annotated in review, from "
                f"{md_code(sec['file'])}):** {counted}"] + [f"> {md_text(note)}" for note in (sec["left_out"], sec["other_versions"]) if note]


def markdown_diagnosis(sec):
    """RAG: the diagnosis table, last, as in the text."""
    if not sec:
        return []
    return ["", f"**{diagnosis_head(sec)}**", "", "| stage | cases | which | what to change |", "|---|---|---|---|"] + [
        f"| {r['name']} | {figure_text(r['count'])} | {ids_text([md_code(i, cell=True) for i in r['which']['value']])} | {r['fix']} |"
        for r in sec["rows"]]


def markdown_retrieval(sec):
    """RAG: the two retrieval means as rows of the summary table (each case's: report or the page); both
    are over the cases that name a relevant passage (recall_cases)."""
    if not sec:
        return []
    return [f"| {RETRIEVAL_WORDS[k][0].capitalize()} (retrieval, "
            f"{plural(sec['recall_cases']['value'], 'case')}) | "
            f"{figure_text(sec[k])} | {interval(sec[k]['ci'])} |" for k in ("precision", "recall")]


MARKDOWN_STOPPED = {"unfinished_thinking": "Thinking never finished", "cut_off": "Cut off by the token limit",
                    "window_full": "Stopped at the context window", "stopped_early": "Stopped for length short of every limit",
                    "input_may_be_cut": "Input may have been cut to fit {window}",
                    "turns_may_be_dropped": "Earlier turns may have been dropped to fit {window}"}


def pass_hat_over(row):
    """The cases pass^k is over, where errors or undecided answers left some with fewer than k decided trials
    (the text's table and the page say it by their "cases" column)."""
    return f", over {row['cases']} of {plural(row['of'], 'case')}" if row["cases"] != row["of"] else ""


def markdown_headline(sec):
    name = sec["measure"].capitalize()
    main, bounds = row_of(sec, "main")["figure"], row_of(sec, "bounds")
    out = [f"| **{name}** ({bounds_detail(bounds['figure']['value'])}) | **{figure_text(bounds['figure'])}** | |"] if bounds else []
    if sec["repeat"] > 1:
        mean = row_of(sec, "mean")
        out += [f"| {name}{', decided answers' if bounds else ''}: {mean_words(mean)} | {figure_text(mean['figure'])} "
                f"| {interval(mean['figure']['ci'])} |",
                f"| Majority vote of each case's trials | {figure_text(main)} | {interval(main['ci'])} |",
                f"| pass^{sec['repeat']} (every trial right{pass_hat_over(row_of(sec, 'pass_hat'))}) "
                f"| {figure_text(row_of(sec, 'pass_hat')['figure'])} | |"]
    else:
        decided = f" on the {plural(main['of'], 'decided case')}" if bounds else ""
        out.append(f"| {name}{decided} | {figure_text(main)} | {interval(main['ci'])} |")
    base = row_of(sec, "baseline")
    if base:
        out.append(f"| Majority baseline (always {md_code(base['label'], cell=True)}"
                   f"{tied_text(base, lambda label: md_code(label, cell=True))}) | {figure_text(base['figure'])} | "
                   f"{interval(base['figure']['ci'])} |")
        out.append(f"| Invalid answers | {figure_text(row_of(sec, 'invalid')['figure'])} | |")
    return out


def markdown_speed(sec):
    if not sec:
        return []
    out = [f"| Latency, median / 95th percentile | {figure_text(sec['latency'][0])} / {figure_text(sec['latency'][1])} | |"]
    if sec["rates"][0]["value"] is not None:
        out.append(f"| Generation speed | {figure_text(sec['rates'][0])} | |")
    if sec["with_load"] and sec["with_load"]["value"]:
        out.append(f"| Answers that included a model load | {figure_text(sec['with_load'])} | |")
    return out


def markdown_failures(sec):
    """'**Failures (3):** `dev-09` (hard: expected bug, got acceso), ...': a pull request names a few."""
    failures = ", ".join(f"{md_code(f['id'])} ({md_text(f['difficulty'])}: "
                         + (f"expected {md_text(f['expected'])}, got {md_text(f['got'])})" if sec["labels"]
                            else f"failed {md_text(', '.join(f['failed_checks']))})")
                         for f in sec["rows"][:MARKDOWN_FAILURES]) or "none"
    if len(sec["rows"]) > MARKDOWN_FAILURES:
        failures += f", and {len(sec['rows']) - MARKDOWN_FAILURES} more"
    return f"**Failures ({figure_text(sec['count'])}):** {failures}"


def asked_lines(case):
    """report --case: what was asked (asked()), as text; each trial's answer follows."""
    what = asked(case)
    if not what["messages"]:
        return ["Input:", *(f"  {line}" for line in inert(what["input"] or "").splitlines())]
    lines = ["Conversation (the answer is the next turn):"]
    for turn in what["messages"]:
        lines += [f"  [{turn['role']}]"] + [f"    {line}" for line in inert(turn["content"]).splitlines()]
    return lines


def failed_on(call, number, checks, passed, tools):
    """The failed checks a call is at fault for: a tool it must not call, arguments its tool refuses,
    the call past max_tool_calls."""
    return [c["name"] for c in checks if passed.get(c["name"]) is False and (
        c["type"] == "tool_not_called" and call["name"] == c["value"]
        or c["type"] == "tool_args_valid" and call_problem(call, tools) is not None
        or c["type"] == "max_tool_calls" and number == c["value"] + 1)]


def transcript_turns(result, checks, passed):
    """An agent's transcript turn by turn, as report --case, review and the pages show it: each turn's
    text and calls, each call with its arguments, its result (and whether a rule matched it) and the
    checks that failed on it. [] for an answer that is not an agent's."""
    turns, number = [], 0
    waiting = deque()   # the calls without a result yet, oldest first: a tool's message answers the oldest
    for m in result.get("transcript") or ():
        if m["role"] == "assistant":
            calls = []
            for call in m.get("tool_calls") or ():
                number += 1
                calls.append({"call": call_text(call), "result": None, "matched": None,
                              "failed": failed_on(call, number, checks, passed, result.get("tools"))})
            turns.append({"turn": len(turns) + 1, "content": m.get("content"), "calls": calls})
            waiting.extend(calls)
        elif waiting:   # (searched from the first call for each result, 50,000 calls took 40 s)
            waiting[0].update(result=m["content"], matched=m["matched"])
            if waiting[0]["result"] is not None:   # a result of none leaves its call waiting, as it was
                waiting.popleft()
    return turns


def turn_lines(turns, out_of_turns=False):
    """report --case: the transcript turn by turn, as text."""
    lines = []
    for t in turns:
        lines.append(f"  turn {t['turn']}" + (":" if t["content"] or not t["calls"] else " (calls tools):"))
        lines += [f"    {line}" for line in inert(t["content"] or "").splitlines()]
        for c in t["calls"]:
            lines.append(f"    calls {on_one_line(c['call'])}" + (f"   <- fails {', '.join(map(repr, c['failed']))}" if c["failed"] else ""))
            lines.append(f"      returned {inert(one_line(c['result'] or '-', 200))}"
                         + ("" if c["matched"] is not False else "   (no result matched these arguments)"))
    return lines + (["  (ran out of turns: still calling tools at the last one)"] if out_of_turns else [])


def case_views(run, case_id, rules_by_id=None, checks_path=None):
    """report --case: one case in full, every trial's answer uncut, as (JSON, markdown, text);
    with rules_by_id (report --checks), scored by the checks the split defines now. It names the
    checks that scored it as the whole report does (their source and hash)."""
    results = [r for r in run["results"] if r["id"] == case_id]
    if not results:
        near = difflib.get_close_matches(case_id, [r["id"] for r in run["results"]], n=1)
        raise EvalError(f"no case {case_id!r} in this run" + (f"; did you mean {on_one_line(near[0])}?" if near else ""))
    graded = grade(run["config"], run["results"], rules_by_id)   # the whole run: the checks' hash covers it
    case = next(c for c in graded if c["id"] == case_id)
    first = results[0]
    detail = {k: first.get(k) for k in ("id", "input", "messages", "vars", "expected", "difficulty", "note", "tags",
                                        "context", "relevant")}
    detail.update(checks_from=checks_path or "the run file", checks_sha=checks_fingerprint(graded))
    thinking = {r["trial"]: r.get("thinking") for r in results}
    by_trial = {r["trial"]: r for r in results}
    if first.get("tools"):
        detail["tools"] = [t["function"]["name"] for t in first["tools"]]
    detail.update(checks=case["checks"], pass_threshold=case.get("pass_threshold"), correct=case["correct"], trials=[
        {"trial": t["trial"], "response": t["response"], "thinking": thinking[t["trial"]], "error": t["error"],
         **({"transcript": transcript_turns(by_trial[t["trial"]], case["checks"], t["checks"]),
             "out_of_turns": bool(by_trial[t["trial"]].get("out_of_turns"))} if first.get("tools") else {}),
         "predicted": t["predicted"], "checks": t["checks"], "correct": t["correct"], "done_reason": t["done_reason"],
         "weighted": [float(x) for x in t["weighted"]] if t["weighted"] else None,
         "judges": [{**{k: v.get(k) for k in ("check", "model", "vote", "pass", "reason", "error", "unread", "done_reason")},
                     # cut at the judge's cap (a larger one helps) or stopped by the server short of it (it does not)
                     "cut": ("cap" if cut_at_cap(v, run["config"].get("judge")) else "server") if cut_vote(v) else None}
                    for v in t["votes"] or []],
         "unsupported": [dict(claim, check=c["name"]) for c in case["checks"] if c["type"] == "faithful"
                         for claim in faithful_reading(first, t, c)[1]]}
        for t in case["trials"]])
    verdict = {True: "passes", False: "fails", None: "has no verdict"}[case["correct"]]
    # The case's id, difficulty, expected text and check names come from the split: shown on one
    # line each, a line break in one would print a line of its own (a forged verdict or trial).
    lines = [f"Case {on_one_line(case_id)} ({on_one_line(detail['difficulty'])}) {verdict}"
             + (f"; expected {on_one_line(detail['expected'])}" if detail["expected"] is not None else ""),
             f"Note: {on_one_line(detail['note'])}",
             f"Scored with checks sha {short(detail['checks_sha'])} from {on_one_line(detail['checks_from'])}",
             *asked_lines(detail)]
    if detail["vars"]:
        lines.append(f"Vars: {json_text(detail['vars'])}")
    if detail.get("tools"):
        lines.append(f"Tools: {', '.join(on_one_line(name) for name in detail['tools'])}")
    lines += passage_lines(detail)
    for t in detail["trials"]:
        label = f" -> {t['predicted']}" if t["predicted"] is not None else ""
        checks = ", ".join(f"{on_one_line(name)} {verdict_word(ok)}" for name, ok in t["checks"].items())
        threshold = case.get("pass_threshold")   # a score short of it never shown as equal to it, rounded ("1 (passes at 1)")
        score = (f" · weighted score {score_text({'score': t['weighted'][0], 'score_high': t['weighted'][1], 'threshold': threshold, 'short_of_threshold': threshold is not None and t['weighted'][1] < exact(threshold)})}"
                 + (f" (passes at {fmt_share(threshold)})" if threshold is not None else "")
                 if t["weighted"] else "")
        lines += ["", f"Trial {t['trial']}{label}" + (f": error {on_one_line(t['error'])}" if t["error"] else f" ({checks})")
                  + score + (" · stopped by the token limit" if t["done_reason"] == "length" else "")]
        if t["thinking"]:
            lines += ["  thinking (sent apart; not scored):"] + [f"    {line}" for line in inert(t["thinking"]).splitlines()]
        if t.get("transcript"):   # an agent: every turn, the answer last
            lines += turn_lines(t["transcript"], t["out_of_turns"])
        else:
            lines += [f"  {line}" for line in inert(t["response"] or "").splitlines()]
        lines += [f"  judge {on_one_line(j['model'])} on {j['check']!r}: {verdict_word(j['pass'], 'no verdict')}"
                  + (f" ({on_one_line(why)})" if (why := j["reason"] or j["error"] or j["unread"]) else "")
                  + {"cap": " (cut at the judge's token limit)", None: "",
                     "server": " (stopped by the server short of the judge's token limit: its window was full)"}[j["cut"]]
                  for j in t["judges"]]
        lines += [f"  unsupported claim ({on_one_line(c['check'])}): {on_one_line(c['claim'])} ({on_one_line(c['why'])})"
                  for c in t["unsupported"]]
    text = "\n".join(lines)
    return detail, lambda: md_fence(text), lambda: text


# What a run's config says about how the model was asked besides its prompt, model and temperature:
# `runs` shows what of it is not the default, so that two runs differing only there look different
ASKED_CONFIG = ("api", "seed", "format", "think", "options", "subset")


def asked_text(config):
    """'ollama think=off', 'openai format=schema', 'ollama seed=7 top_p=0.5 --limit 5': the API, then
    each setting away from its default (the num_ctx eval.py pins is one; another num_ctx is shown)."""
    parts = [shown("api", config.get("api", "ollama"))]
    if config.get("seed") != DEFAULT_SEED:
        parts.append(f"seed={shown('seed', config.get('seed'))}")
    if config.get("format") is not None:
        parts.append(f"format={shown('format', config['format'])}")
    if config.get("think") not in (None, THINK_DEFAULT):
        parts.append(f"think={shown('think', THINK_FLAGS.get(config['think'], config['think']))}")
    options = config.get("options") if isinstance(config.get("options"), dict) else {}
    parts += [f"{on_one_line(k)}={shown(k, v)}" for k, v in options.items()
              if not (k == "num_ctx" and v == DEFAULT_NUM_CTX and config.get("api", "ollama") == "ollama")]
    subset = config.get("subset")
    if subset:
        parts.append(f"--limit {subset['limit']}" if "limit" in subset else f"--cases {len(subset['cases'])}")
    return " ".join(parts)


def passage_lines(case):
    """RAG: a case's passages in rank order, each marked relevant or not when a person labelled them,
    and the relevant ones the retriever missed."""
    if not isinstance(case.get("context"), list):
        return []
    relevant = case.get("relevant")
    mark = (lambda i: " [relevant]" if i in relevant else " [not relevant]") if relevant is not None else (lambda i: "")
    lines = [f"Passages ({len(case['context'])}, in rank order):"] if case["context"] else ["Passages: none retrieved"]
    lines += [f"  [{n}] {inert(p['id'])}{mark(p['id'])}: {one_line(inert(p['text']), 100)}"
              for n, p in enumerate(case["context"], 1)]
    missing = [i for i in relevant or [] if i not in {p["id"] for p in case["context"]}]
    return lines + ([f"  relevant, not retrieved: {inert(', '.join(missing))}"] if missing else [])


def run_listing(folder):
    """`runs`: each run file in a folder, one line each, newest first (by the date it records):
    what it ran and its headline. A file that is not a readable run is listed as such, never
    skipped in silence."""
    rows, listing = [], []
    paths = sorted(os.path.join(folder, f) for f in os.listdir(folder)
                   if f.endswith((".json", ".json" + JOURNAL_SUFFIX, ".json" + JUDGING_SUFFIX))
                   and not f.endswith((ANNOTATIONS_SUFFIX, OLD_ANNOTATIONS_SUFFIX, PAIRWISE_SUFFIX)))
    journals = set()   # listed already, by their files: a link to one is no second unfinished run
    for path in paths:
        try:
            if path.endswith(JOURNAL_SUFFIX) and not path.endswith(PAIRWISE_JOURNAL_SUFFIX) and os.path.islink(path) \
                    and os.path.isfile(path):
                path = linked_journal(path)   # by its own name, as run --resume takes it (or refuses it)
            if path.endswith(JOURNAL_SUFFIX):
                if os.path.realpath(path) in journals:
                    continue
                journals.add(os.path.realpath(path))
            if path.endswith(PAIRWISE_JOURNAL_SUFFIX):   # a compare --pairwise stopped (or asking now): its verdicts
                row, entry = pairwise_journal_listing(path)
                rows.append(row)
                listing.append(entry)
                continue
            if path.endswith(JUDGING_SUFFIX):   # an interrupted judge: its votes so far
                row, entry = judging_listing(path)
                rows.append(row)
                listing.append(entry)
                continue
            if path.endswith(JOURNAL_SUFFIX):   # an interrupted run: what it holds so far, and how to finish it
                row, entry = unfinished_listing(path)
                rows.append(row)
                listing.append(entry)
                continue
            config, cases = read_graded(path)
        except EvalError as e:
            # the problem without the file's name the row begins with, its line kept ("6: damaged journal line (...")
            said = str(e).split(": ", 1)[-1] if not str(e).startswith(shell_word(path) + ":") else str(e)[len(shell_word(path)) + 1:].lstrip()
            rows.append([shell_word(path), "-", "-", "-", "-", "-", "-", "-", one_line(said, 60)])
            listing.append({"file": path, "problem": str(e)})
            continue
        s = score(config, cases)
        # undecided cases (a judge gave no verdict) make the figure a range, said first as the report does;
        # with trials, the report's headline too: the mean of each case's pass rate, not the majority vote
        figure = (f"{s['measure']} {bounds_text(s['bounds'])} ({s['bounds']['undecided_cases']} undecided)" if s["bounds"]
                  else "no answers" if not s["scored"]
                  else f"{s['measure']} {percent(s['mean_accuracy'])} (mean per case)" if s["repeat"] > 1
                  else f"{s['measure']} {count_percent(s['correct'], s['scored'])}")
        if config.get("judged_from"):   # else a re-judged run reads as the run it came from
            figure += f" ({judged_again_text(config)})"
        completed = finished_completion(path, config) if s["errors"] else None
        if s["errors"]:   # a figure over the answers that came is not the run's: say what is missing, and the cure
            figure += f" ({plural(len(s['errors']), 'error')}: " + (f"completed in {shell_word(completed)})" if completed
                                                                    else "complete the run judged)" if "checks_from" in config
                                                                    else "run --resume)")
        rows.append([shell_word(path), f"{config['split']} {short(config['split_sha'])}", shell_word(config["prompt"]), config["model"],
                     asked_text(config), f"{config['temperature']:g}", config["repeat"],
                     str(config.get("date") or "-")[:16], figure])   # (a null date: "-", as none)
        listing.append({"file": path, "split": config["split"], "split_sha": config["split_sha"],
                        "prompt": config["prompt"], "model": config["model"], "temperature": config["temperature"],
                        **{k: config.get(k) for k in ASKED_CONFIG}, "errors": len(s["errors"]),
                        "repeat": config["repeat"], "date": config.get("date"), "measure": s["measure"],
                        "correct": s["correct"], "scored": s["scored"], "accuracy": s["accuracy"],
                        "mean_accuracy": s["mean_accuracy"], "bounds": s["bounds"],
                        **({"judged_from": config["judged_from"], "judge": config.get("judge")} if config.get("judged_from") else {}),
                        **({"completed_in": completed} if completed else {})})
    # by the instant each date names (read_graded refused one that names none); undated runs last
    order = sorted(range(len(listing)), key=lambda i: (listing[i].get("date") is not None,
                                                       listing[i].get("date") and run_instant(listing[i]["date"])),
                   reverse=True)
    rows = [["file", "split", "prompt", "model", "config", "T", "trials", "date", "score"]] + [rows[i] for i in order]
    listing = [listing[i] for i in order]
    text = "\n".join(table(rows, align_right_from=99)) if listing else f"no run files in {shell_word(folder)}"
    return listing, None, lambda: text


def unfinished_listing(path):
    """`runs`: an unfinished run, from its journal: its row and its JSON entry, saying how many
    answers it has of how many (when its split is still the one it ran) and the command that finishes it."""
    run_path, where = path[:-len(JOURNAL_SUFFIX)], {}
    config, done = read_journal(path, where=where)
    answers = sum(e.get("error") is None and e.get("response") is not None for e in done.values())
    try:   # how many it asks: its split as it ran; an edited split is not its own (resume says so)
        cases, _, split_sha = load_split(config["split_path"])
        asked = (subset_of(cases, config.get("subset"), config["split_path"])   # the file read again only if it differs
                 if split_sha == config["split_sha"] or config["split_sha"] in split_shas(config["split_path"]) else None)
    except EvalError:
        asked = None
    expected = None if asked is None else len(asked) * config["repeat"]
    edited = asked is not None and stray_journal_line(config, {c["id"] for c in asked}, where, path)
    if edited:   # resume refuses it: said as a damaged journal, never with a command that fails
        raise edited
    resume, holder, written = resume_command(run_path), live_holder(run_path), os.path.lexists(run_path)
    figure = (f"being made now by eval.py (pid {holder}): {plural(answers, 'answer')} so far" if holder else
              left_journal(run_path) if written else   # (resume says the same)
              f"unfinished: {answers}{'' if expected is None else f' of {expected}'} answers; finish with: {resume}")
    row = [path, f"{config['split']} {short(config['split_sha'])}", config["prompt"], config["model"],
           asked_text(config), f"{config['temperature']:g}", config["repeat"], str(config.get("date", "-"))[:16], figure]
    entry = {"file": path, "unfinished": not holder and not written, **({"live": int(holder)} if holder else {}),
             **({"problem": figure} if written and not holder else {}), "split": config["split"], "split_sha": config["split_sha"],
             "prompt": config["prompt"], "model": config["model"], "temperature": config["temperature"],
             **{k: config.get(k) for k in ASKED_CONFIG}, "repeat": config["repeat"], "date": config.get("date"),
             "answers": answers, "expected_answers": expected, **({"resume": resume} if not holder and not written else {})}
    return row, entry


def pairwise_journal_listing(path):
    """`runs`: the verdicts compare --pairwise journaled and has not stored in its sidecar yet (a
    compare stopped, or one asking now): how many, of which runs and judges; the next compare of
    that candidate stores them. A damaged one: the line at fault (journaled_comparisons)."""
    sidecar = path[:-len(JOURNAL_SUFFIX)]
    held = journaled_comparisons(path)
    verdicts = sum(len(c["verdicts"]) for c in held)
    judges = ", ".join(dict.fromkeys(on_one_line(m, 40) for c in held for m in c["judge"]["models"]))
    figure = (f"{plural(verdicts, 'pairwise verdict')} not yet stored in {shell_word(sidecar)} (a compare --pairwise stopped, "
              f"or asking now); the next compare --pairwise of {shell_word(sidecar[:-len(PAIRWISE_SUFFIX)])} stores them")
    row = [shell_word(path), "-", "-", judges or "-", "-", "-", "-", "-", figure]
    return row, {"file": path, "unstored_pairwise": True, "sidecar": sidecar, "verdicts": verdicts,
                 "comparisons": [{"baseline": c["baseline"] if type(c.get("baseline")) is str else None,
                                  "criterion": c["judge"]["criterion"], "judges": c["judge"]["models"],
                                  "verdicts": len(c["verdicts"])} for c in held]}


def judged_again_text(config):
    """Who judged a run's answers again (`judge`), and how many votes each: for `runs`."""
    judge = config.get("judge") if type(config.get("judge")) is dict else {}
    models = [on_one_line(m, 30) for m in judge.get("models") or [] if type(m) is str]
    votes = judge.get("votes") if type(judge.get("votes")) is int else 1
    return f"judged again by {', '.join(models) or '?'}" + (f", {votes} votes each" if votes > 1 else "")


def judged_answers(results):
    """The answers `judge` asks about: those the model gave, with a judge check."""
    return [r for r in results if r.get("response") is not None and answer_of(r["response"]) is not None
            and any(c["type"] in JUDGE_CHECKS for c in r["checks"])]


def answers_sha(todo):
    """What a judging was begun on: its votes are the answers' and checks' it hashes, and no other's."""
    return sha256_bytes(json_text(todo).encode("utf-8", "surrogatepass"))


@functools.lru_cache(maxsize=4)
def judged_run_read(path, stamp):
    """(config, answers_sha) of the run a judging judges, read once for all its judgings that `runs` lists (200
    judgings of one run read it 200 times); stamp: its inode, size and modification time, so a run changed since is
    read again."""
    run = load_run(path)
    return run["config"], answers_sha(judged_answers(run["results"]))


def judged_run_changed(judged_from, header):
    """Why the run a judging was begun on cannot finish it now (its answers or checks are others, or it
    cannot be read), or None: the judge command given again would begin anew, paying every vote again.
    None too for a judging with --checks, whose answers are the run's with that file's checks."""
    if header["config"].get("checks_from"):
        return None
    try:
        held = os.stat(judged_from) if os.path.exists(judged_from) else None
        config, sha = judged_run_read(judged_from, held and (held.st_ino, held.st_size, held.st_mtime_ns))
    except EvalError as e:   # (a path as the judge was given it: from another folder, it may name nothing)
        why = "no such file" if not os.path.lexists(judged_from) else on_one_line(str(e), 200)
        return (f"{shell_word(judged_from)} cannot be read from here ({why}): give the judge command in the folder it was "
                "begun in, with the run as it was")
    own = ("judge", "host", "judged_from", "checks_from")   # what judging adds to the run's configuration
    if any(config.get(k) != header["config"].get(k) for k in set(config) | set(header["config"]) if k not in own):
        return None   # another run by that name (read from another folder, say): nothing known of the judging's own
    if sha == header.get("answers_sha"):
        return None
    return (f"{shell_word(judged_from)} holds other answers or checks than it was begun on: judging it again begins anew "
            "(put the run back as it was to finish this one)")


def judging_listing(path):
    """`runs`: a judging, from its lines: unfinished (the run it judges, by whom, how many votes it
    holds; the judge command that began it finishes it), left beside its run, being written now, or
    damaged (what judge would refuse: it is never offered as the way to finish it)."""
    run_path = path[:-len(JUDGING_SUFFIX)]
    header, entries = judging_lines(path)   # (a damaged one: listed as such by run_listing)
    problem = judging_problem(path)
    if problem:
        raise EvalError(f"{problem}; move it aside")
    votes = votes_held(entries)
    config = header["config"]
    judged_from, models = config["judged_from"], config["judge"]["models"]
    holder = live_holder(run_path)
    written = os.path.lexists(run_path)
    judges = ", ".join(on_one_line(m, 40) for m in models)
    unfit = None if holder or written else judged_run_changed(judged_from, header)
    figure = (f"being judged now by eval.py (pid {holder}): {plural(votes, 'vote')} so far" if holder else
              left_judging(run_path) if written else
              f"unfinished judging of {shell_word(judged_from)} by {judges}: {plural(votes, 'vote')}; " + (unfit or
              "the judge command that began it, given again, finishes it"))
    model = config.get("model")
    row = [shell_word(path), "-", "-", on_one_line(model if type(model) is str else json_text(model), 40), "-", "-", "-", "-",
           figure]
    return row, {"file": path, "unfinished_judging": not written and not holder and not unfit,
                 **({"problem": figure} if written and not holder or unfit else {}), **({"live": int(holder)} if holder else {}),
                 "judged_from": judged_from, "judges": models, "votes": votes}


def report_score(run_path, config, cases, checks_path=None, annotations=None, other_versions=None):
    """The score a report shows: the figures, where the checks came from, and the annotations
    written in review on this version of the run file, if any (read from beside the run unless
    given); those written on another version are counted apart."""
    s = dict(score(config, cases), checks_from=checks_path or "the run file")
    if annotations is None:
        annotations, other_versions = run_annotations(run_path)
    if annotations or other_versions:
        # only the annotations of answers of this run, as the page counts them; the others are named apart
        strays = stray_annotations(annotations, cases)
        left_out = set(strays)   # a set: a sidecar may name many answers of an older run
        kept = {k: v for k, v in annotations.items() if k not in left_out}
        s["annotations"] = {"file": annotations_file(run_path), "counts": annotation_counts(kept), "left_out": strays,
                            "other_versions": version_summary(other_versions or {})}
    return s


def stray_annotations(annotations, cases):
    """The keys of annotations that name no answer of this run (written for another version of it?)."""
    answers = {answer_key(c["id"], t["trial"]) for c in cases for t in c["trials"]}
    return [key for key in annotations if key not in answers]


def stray_warning(file, strays):
    return (f"{plural(len(strays), 'annotation')} in {file} name answers this run does not have (written for "
            f"another version of it?), left out here: {', '.join(on_one_line(k, 40) for k in strays[:10])}")   # the file's text


def report_gates(cases, s, min_accuracy=None, must_pass=(), checks_path=None, run_path="RUN", config=None, completed=None):
    """(exit code, messages) for the gates asked of a report. Scored with a split's checks now
    (report --checks), the judge to ask again is asked with them: a judge check added after the run
    was never asked, and plain `judge RUN` would not see it."""
    if min_accuracy is None and not must_pass:
        return 0, []
    # the same judge keeps a vote cut at its token limit (asked alike, cut alike): with any, a larger limit
    command, why = judge_again(run_path, config, checks_path,
                               *map((s.get("judge") or {}).get, ("cut_calls", "stopped_calls", "stopped_models")))
    again = f"judge again ({command})" + (f": {why}" if why else "")
    known = sorted({t for c in cases for t in c["tags"]})
    must_pass = list(dict.fromkeys(must_pass))   # a tag given twice is one gate, said once
    for tag in must_pass:
        if tag not in known:
            return 2, [f"error: --must-pass {tag!r}: no case has this tag (tags in this run: {', '.join(known) or 'none'})"]
    if s["errors"]:   # completed already (`completed`): run --resume would refuse; the completion is the run to judge
        return 2, [f"gates not judged: {len(s['errors'])} request(s) got no answer (infrastructure, not the model); "
                   + (f"{shell_word(run_path)} was completed in {shell_word(completed)}: give the gates that run "
                      f"(report {shell_word(completed)} ...)" if completed
                      else f"finish the run ({answers_again(run_path, config or {})}) or run again")]
    judge_failed = sorted({c["id"] for c in cases for t in c["trials"] if judge_call_failed(t)})
    if judge_failed:
        return 2, [f"gates not judged: a judge call failed on {plural(len(judge_failed), 'case')} "
                   f"({', '.join(judge_failed[:10])}{', ...' if len(judge_failed) > 10 else ''}) (infrastructure, not the "
                   f"model: a verdict may rest on the votes that came); {again}"]
    if min_accuracy is not None and not cases:   # (an older eval.py wrote a run of `--cases ,`: none)
        return 2, [f"gates not judged: {shell_word(run_path)} holds no case; run the split again"]
    if min_accuracy is not None and not s["scored"]:
        return 2, [f"gates not judged: no case has a verdict (the judge gave none); {again}"]
    outcomes = []   # (passed: True, False or None for undecided, verdict), in the order the gates are read
    if min_accuracy is not None:
        outcomes.append(accuracy_gate(s, min_accuracy))
    for tag in must_pass:
        tagged = [c for c in cases if tag in c["tags"]]
        # every trial must pass: an adversarial case is never averaged away, nor let through undecided
        broken = [c["id"] for c in tagged if any(t["correct"] is False for t in c["trials"])]
        unsure = [c["id"] for c in tagged if c["id"] not in broken and any(t["correct"] is None for t in c["trials"])]
        verdict = f"must-pass '{tag}': {len(tagged) - len(broken) - len(unsure)} of {plural(len(tagged), 'case')} pass every trial"
        if broken:
            outcomes.append((False, verdict + f" (failing: {', '.join(broken)})"))
        elif unsure:
            outcomes.append((None, verdict + f" (no verdict yet: {', '.join(unsure)})"))
        else:
            outcomes.append((True, verdict))
    if config and config.get("subset"):   # the line a CI log keeps: a gate over part of the split says so (a case not asked)
        outcomes = [(ok, f"{verdict} (only part of the split: {subset_words(config['subset'])})") for ok, verdict in outcomes]
    return gate_outcome(outcomes, again)


def accuracy_gate(s, minimum):
    """--min-accuracy: (passed: True, False or None when undecided, its verdict). The point is read against the
    minimum, its interval shown beside it. With undecided answers the bounds are read instead:
    below the minimum even if every undecided one passed fails; at or above it even if every one
    failed passes; between, the undecided answers decide, and the gate cannot judge."""
    b = s["bounds"]
    # the minimum as it was given (17.86%, never rounded to 18%); each figure gets the digits to differ from it
    against = f"against a minimum of {percent_line(minimum)}"
    if b is None:
        verdict = (f"accuracy {percent(s['mean_accuracy'], minimum)} (95% CI {interval(s['mean_accuracy_ci'])}) "
                   f"{against}").replace(" (95% CI )", "")
        return exactly(s["mean_accuracy"]) >= exactly(minimum), verdict
    low, high = percent(b["low"], minimum), percent(b["high"], minimum)
    if b["low_count"] is None:
        which = f"{plural(b['undecided_answers'], 'undecided answer')} in {plural(b['undecided_cases'], 'case')}"
    else:
        low, high = f"{b['low_count']}/{b['of']} = {low}", f"{b['high_count']}/{b['of']} = {high}"
        which = plural(b["undecided_cases"], "undecided case")
    verdict = f"accuracy between {low} and {high} ({which}) {against}"
    return (False if exactly(b["high"]) < exactly(minimum) else True if exactly(b["low"]) >= exactly(minimum) else None), verdict


def refuse_same_run(a_path, b_path, instead="compare it with another run"):
    """A run compared with itself would be read as a rerun whose differences are noise."""
    try:
        same = os.path.samefile(a_path, b_path)
    except OSError:
        return   # a missing file: reading it says so
    if same:
        raise EvalError((f"{shell_word(a_path)} is given twice" if a_path == b_path else
                         f"{shell_word(a_path)} and {shell_word(b_path)} are the same run (one file)") + f"; {instead}")


def same_split(a_cfg, b_cfg, refusal="refusing to compare: the runs used different versions of the split"):
    """Runs of two versions of a split answer different questions: they are never compared. The same
    hash is the same questions, whatever the file was called (a copy, or a name from an older
    version); else two files are different splits, and "versions" only one file edited between the runs."""
    if a_cfg["split_sha"] == b_cfg["split_sha"]:
        return
    where = [cfg.get("split_path") or cfg["split"] for cfg in (a_cfg, b_cfg)]   # older runs: the name alone
    if os.path.normpath(where[0]) == os.path.normpath(where[1]) and {a_cfg["split_sha"], b_cfg["split_sha"]} <= split_shas(where[0]):
        return   # one run of an older eval.py, which took the sha of the bytes as they are: the same file, unedited
    if os.path.normpath(where[0]) != os.path.normpath(where[1]):
        raise EvalError(f"{refusal.split(':')[0]}: different splits ({shell_word(where[0])} vs "
                        f"{shell_word(where[1])}); compare runs of one split")
    unread = "" if split_shas(where[0]) else (f" (or, if one was made by an eval.py older than its LF hashing, of a split "
                                               f"saved with CRLF, {shell_word(where[0])} is needed to tell: it cannot be read)")
    raise EvalError(f"{refusal} ({on_one_line(a_cfg['split'])} {short(a_cfg['split_sha'])} vs "
                    f"{on_one_line(b_cfg['split'])} {short(b_cfg['split_sha'])})\nThe split was edited between "
                    f"the runs{unread}: run the older configuration again on the split as it is now, then compare those")


def case_rates(cases, ids):
    """(passed, decided) trials of each case named, in that order."""
    return [(cases[i]["passed_trials"], cases[i]["decided_trials"]) for i in ids]


def side_figures(rates):
    """One run's figure over the compared cases: its share passed with Wilson's interval when each
    case has one answer; with trials, the mean of the cases' pass rates with a t interval over cases."""
    n = len(rates)
    if all(passed in (0, of) for passed, of in rates):   # one answer a case, or trials that always agree
        correct = sum(passed == of for passed, of in rates)
        return {"correct": correct, "scored": n, "accuracy": rate(correct, n), "ci": list(wilson(correct, n))}
    mean, ci = case_mean([Fraction(passed, of) for passed, of in rates])
    return {"correct": None, "scored": n, "accuracy": mean, "ci": ci}


def cases_both_hold(a_cfg, a_cases, b_cfg, b_cases, names=("the baseline", "the candidate")):
    """(baseline's cases, candidate's by id, {cases, held} or None): the cases both runs hold, as a
    compare of many runs takes them, when one asked only part of the split (--limit, --cases), so
    that a quick run compares with a full one. Cases only a full run of the split lacks are an
    edited run: refused, as is a pair with no case in common."""
    a_ids, b_by_id = {c["id"] for c in a_cases}, {c["id"]: c for c in b_cases}
    empty = [name for name, ids in zip(names, (a_ids, b_by_id)) if not ids]
    if empty:   # (an older eval.py wrote a run of `--cases ,`: no case at all; two such were "compared", 0/0)
        raise EvalError(f"refusing to compare: {' and '.join(empty)} {'hold' if len(empty) > 1 else 'holds'} no case; "
                        "run the split again")
    only = one_sided(a_ids, set(b_by_id))
    if not only:
        return a_cases, b_by_id, None
    explained = ((not a_ids - set(b_by_id) or b_cfg.get("subset")) and (not set(b_by_id) - a_ids or a_cfg.get("subset")))
    kept = [c for c in a_cases if c["id"] in b_by_id]
    if not explained or not kept:
        part = (f"; they share none (the baseline: {plural(len(a_ids), 'case')}{subset_text(a_cfg)}; the candidate: "
                f"{plural(len(b_by_id), 'case')}{subset_text(b_cfg)})") if explained else ""
        raise EvalError(f"refusing to compare: the runs hold different cases ({only}); split sha "
                        f"{short(a_cfg['split_sha'])} vs {short(b_cfg['split_sha'])}{part}")
    return kept, {c["id"]: b_by_id[c["id"]] for c in kept}, {"cases": len(kept), "held": [len(a_ids), len(b_by_id)]}


def refuse_edited_cases(a_cfg, a_cases, b_cfg, b_by_id, names=("the baseline", "the candidate")):
    """Two runs of one split (one hash) hold each case as the split wrote it: a case whose expected
    answer, checks or pass threshold differ between them was edited in a run file, and would move the figures with
    nothing said. Checks judged from another split (checks_from) differ on purpose, and another
    version of eval.py may have written the same checks otherwise (its defaults filled in); a field an
    older run did not store is not known to differ."""
    alike = not (a_cfg.get("checks_from") or b_cfg.get("checks_from")) and a_cfg.get("eval_version") == b_cfg.get("eval_version")
    for case in a_cases:
        other = b_by_id.get(case["id"])
        if other is None:
            continue
        # checks emptied or a threshold edited count too, where one eval.py wrote both (it writes them alike)
        differs = [field for field in ("expected", "checks", "pass_threshold") if case.get(field) != other.get(field)
                   and (alike if field != "expected" else case.get(field) and other.get(field))]
        if differs:
            raise EvalError(f"refusing to compare: case {on_one_line(case['id'])} has another {differs[0]} in {names[0]} "
                            f"than in {names[1]}, though both ran split sha {short(a_cfg['split_sha'])}: a run file "
                            "was edited (report --case shows each)")


def still_decided(case):
    """Whether a case's majority stands however its trials whose calls failed would have gone: 2 of 4 trials came,
    a pass and a fail (a split is no pass), and the 2 left could have made it 3 to 1 either way."""
    left = sum(t["correct"] is None and bool(t["error"] or judge_call_failed(t)) for t in case["trials"])
    passed, decided = case["passed_trials"], case["decided_trials"]
    return 2 * passed > decided + left or 2 * (passed + left) <= decided + left


def compare_runs(a_cfg, a_cases, b_cfg, b_cases, alpha=ALPHA, fisher=False, names=("the baseline", "the candidate")):
    """Two graded runs of one split, case by case: what the candidate fixed and broke, the change
    with its interval, and whether it is more than chance (paired_change()). fisher: also Fisher's
    test, which ignores the pairing, for a user who set it before the run (seed 002 did). names: the
    runs as a refusal names them."""
    same_split(a_cfg, b_cfg)
    a_cases, b_cases, shared = cases_both_hold(a_cfg, a_cases, b_cfg, b_cases, names)
    refuse_edited_cases(a_cfg, a_cases, b_cfg, b_cases, names)
    buckets = {"fixed": [], "regressions": [], "stayed_right": [], "stayed_wrong": [], "not_compared": []}
    identical = paired = 0
    # a failed call on any trial of either side (not a judge that gave none): with trials, the votes left
    # can still decide, but a majority moved by a failed request is no verdict on the model. failed: every
    # such case, which the gates refuse to judge; errored: those of them compared all the same, whose
    # figures rest on what came (a case not compared is in no figure: listed under both, it was said to be)
    failed = []
    compared, rose, fell = [], [], []
    for a in a_cases:
        b = b_cases[a["id"]]
        if any(t["error"] or judge_call_failed(t) for c in (a, b) for t in c["trials"]):
            failed.append(a["id"])
        if a["correct"] is None or b["correct"] is None or not (still_decided(a) and still_decided(b)):
            buckets["not_compared"].append(a["id"])   # an error on either side is not the model's doing
        else:
            compared.append(a["id"])
            if a["correct"] == b["correct"]:
                buckets["stayed_right" if a["correct"] else "stayed_wrong"].append(a["id"])
            else:
                buckets["fixed" if b["correct"] else "regressions"].append(a["id"])
            change = b["passed_trials"] * a["decided_trials"] - a["passed_trials"] * b["decided_trials"]
            (rose if change > 0 else fell if change < 0 else []).append(a["id"])
        b_answers = {t["trial"]: said_and_done(t) for t in b["trials"] if t["response"] is not None}
        for t in a["trials"]:
            if t["response"] is not None and t["trial"] in b_answers:
                paired += 1
                identical += said_and_done(t) == b_answers[t["trial"]]
    a_by_id = {c["id"]: c for c in a_cases}
    a_rates, b_rates = case_rates(a_by_id, compared), case_rates(b_cases, compared)
    change = paired_change([(*x, *y) for x, y in zip(a_rates, b_rates)], alpha)
    p = change["test"]["p"]
    estimate = change["difference"]["estimate"]
    if fisher and change["unit"] != "case":
        repeated = [f"{name} has {cfg['repeat']} trials a case" for name, cfg in zip(names, (a_cfg, b_cfg)) if cfg["repeat"] > 1]
        raise EvalError(f"--fisher tests the pass counts of one answer per case; {' and '.join(repeated)}, whose unit "
                        "is each case's pass rate (the per-case test is printed); leave --fisher out")
    changed = {k: [a_cfg.get(k), b_cfg.get(k)] for k in COMPARED_CONFIG if not same_setting(k, a_cfg.get(k), b_cfg.get(k))}
    # answers that matched no label, apart from wrong ones: a format fixed is not a task learnt
    invalid = [sum(t["predicted"] == INVALID for c in cases for t in c["trials"]) for cases in (a_cases, b_cases.values())]
    answers = [sum(t["response"] is not None for c in cases for t in c["trials"]) for cases in (a_cases, b_cases.values())]
    trials = a_cfg["repeat"] > 1 or b_cfg["repeat"] > 1
    result = {"changed": changed, **buckets, "failed": failed,
              "errored": [i for i in failed if i not in buckets["not_compared"]], "invalid_answers": invalid if a_cfg["labels"] is not None else None,
              "answers": answers, "speed": [speed_figures(a_cfg, a_cases), speed_figures(b_cfg, b_cases.values())],
              "baseline": side_figures(a_rates), "candidate": side_figures(b_rates),
              "difference": change["difference"], "test": change["test"], "unit": change["unit"],
              "detectable": change["detectable"], "discordant": len(buckets["fixed"]) + len(buckets["regressions"]),
              "rose": rose, "fell": fell,
              # answers of compared cases a judge left without a verdict: out of their case's rate, and said so
              "undecided_answers": sum(t["correct"] is None and t["error"] is None and t["response"] is not None
                                       for i in compared for side in (a_by_id, b_cases) for t in side[i]["trials"]),
              "identical_answers": identical, "paired_answers": paired,
              "alpha": alpha, "significant": called(change, alpha),
              "reading": change_reading(change["difference"], p, alpha, called(change, alpha), test=change["test"]["name"]),
              "majority_vote": trials,
              # each run's config.subset, where either ran part of the split
              "subset": [a_cfg.get("subset"), b_cfg.get("subset")] if a_cfg.get("subset") or b_cfg.get("subset") else None,
              "shared": shared,
              "measure": measure(a_cfg["labels"], check_table(a_cases) + check_table(b_cases.values())),
              "trials": [a_cfg["repeat"], b_cfg["repeat"]],
              "trials_paired": min(a_cfg["repeat"], b_cfg["repeat"]) if a_cfg["repeat"] != b_cfg["repeat"] else None,
              "rerun_test": {side: cfg["rerun_test"] for side, cfg in (("baseline", a_cfg), ("candidate", b_cfg))
                             if cfg.get("rerun_test")},
              "trajectory": trajectory_changes(a_cases, b_cases)}
    retrieval = retrieval_change(a_cases, b_cases)
    if retrieval:
        result["retrieval"] = retrieval
    diagnoses = [diagnose(a_cases), diagnose(list(b_cases.values()))]
    if all(diagnoses):
        result["diagnosis"] = diagnoses
    if fisher:
        a_pass, b_pass, n = (len(buckets["stayed_right"]) + len(buckets["regressions"]),
                             len(buckets["stayed_right"]) + len(buckets["fixed"]), len(compared))
        # no case decided in both runs tests nothing: no p (1.0 read as "surely no change"), as McNemar's
        result["fisher_p"] = fisher_exact(a_pass, n - a_pass, b_pass, n - b_pass) if n else None
    return result


def said_and_done(trial):
    """What makes two answers identical: the words, and for an agent the path to them (transcript_path())."""
    return trial["response"], trial["agent"]["path"] if "agent" in trial else None


def trajectory_changes(a_cases, b_cases):
    """Agents, case by case: which tools a case started or stopped calling, calls that came in another
    order, more or fewer calls (each case's first trial with an answer: its trials' calls are many), a
    trajectory that started or stopped passing (by the majority of its trials, as the report's
    figure and the fixes and breaks of the final verdict). [] without agents."""
    rows = []
    for a in a_cases:
        pair = (a, b_cases[a["id"]])
        firsts = [next((t for t in c["trials"] if "agent" in t), None) for c in pair]
        if None in firsts:
            continue
        traces = [t["agent"] for t in firsts]
        (x, y), changes = ([call["name"] for call in trace["calls"]] for trace in traces), []
        changes += [f"started calling {name or chr(34) * 2}" for name in sorted(set(y) - set(x))]
        changes += [f"stopped calling {name or chr(34) * 2}" for name in sorted(set(x) - set(y))]
        if set(x) == set(y) and list(dict.fromkeys(x)) != list(dict.fromkeys(y)):
            changes.append("called its tools in another order")
        if len(x) != len(y):
            changes.append(f"{'more' if len(y) > len(x) else 'fewer'} calls: {len(x)} -> {len(y)}")
        verdicts = [majority([t["agent"]["trajectory"] for t in c["trials"] if "agent" in t and t["agent"]["trajectory"] is not None],
                             tie=False) for c in pair]
        if None not in verdicts and verdicts[0] != verdicts[1]:
            changes.append("trajectory " + ("fixed" if verdicts[1] else "broken"))
        if changes:
            # a tool a model named "" is shown as such, never read as no call
            rows.append({"id": a["id"], "changes": changes, "calls": [" > ".join(n or '""' for n in names) or "none" for names in (x, y)],
                         "trials": [t["trial"] for t in firsts]})
    return rows


def trajectory_heading(cases, trials):
    """The heading of compare's trajectory changes: how many agents, and, where a run has trials, which
    trial's calls are shown and what decides the verdict."""
    return (f"Trajectory changes, case by case ({plural(len(cases), 'agent')}"
            + ("; the calls of each case's first trial with an answer, the verdict by the majority of its trials"
               if max(trials) > 1 else "")
            + ")")


def retrieval_change(a_cases, b_by_id):
    """RAG: two retrievers on the same cases (run --context). Per case, the relevant passages the
    candidate's passages hold that the baseline's lack (gained) and the reverse (lost); over the cases
    both label, each side's mean context precision and recall and the paired difference with its t
    interval (the case is the unit). None when no case holds passages and labels on both sides."""
    rows, changes = [], []
    for a in a_cases:
        b = b_by_id[a["id"]]
        if not all("context" in c and "relevant" in c for c in (a, b)):
            continue
        relevant = b["relevant"]
        found = [{p["id"] for p in c["context"]} & set(relevant) for c in (a, b)]
        rows.append([[f(ranked, relevant) for ranked in
                      ([p["id"] for p in a["context"]], [p["id"] for p in b["context"]])]
                     for f in (labelled_precision, context_recall)])
        gained, lost = ([i for i in relevant if i in found[x] and i not in found[1 - x]] for x in (1, 0))
        if gained or lost:
            changes.append({"id": a["id"], "gained": gained, "lost": lost})
    if not rows:
        return None
    out = {"cases": len(rows), "gained": [c["id"] for c in changes if c["gained"]],
           "lost": [c["id"] for c in changes if c["lost"]], "changes": changes}
    for n, key in enumerate(("precision", "recall")):
        pairs = [r[n] for r in rows if None not in r[n]]
        means = [float(sum(p[side] for p in pairs) / len(pairs)) if pairs else None for side in (0, 1)]   # exact, as the difference
        estimate, low, high, _ = mean_difference([b - a for a, b in pairs])
        out[key] = means
        out[key + "_difference"] = {"estimate": estimate, "low": low, "high": high, "level": 1 - ALPHA,
                                    "method": "paired t over cases"}
    return out


def change_reading(d, p, alpha, called, p_said="p", test=None,
                   verdict=("the candidate is better", "the candidate is worse")):
    """A paired change in words, led by its size and interval, then the test; a verdict only where
    the test and the interval agree (called()), "borderline" where they do not."""
    if d["estimate"] is None:
        return "no case has a verdict in both runs"
    if p is None:
        return f"{difference_text(d)}: too few cases to tell (a t interval needs two cases that differ)"
    said = f"{difference_text(d)}, {p_said} = {p_value(p, alpha)}" + (f" ({test})" if test else "")
    if called:
        return f"{said}: {verdict[0] if d['estimate'] > 0 else verdict[1]} beyond chance"
    clear = d["low"] is not None and (d["low"] > 0 or d["high"] < 0)
    if d["estimate"] and (clear or p <= alpha):
        return (f"{said}: borderline, not called (the test and the interval disagree: p is "
                f"{'under' if p < alpha else 'at' if p == alpha else 'over'} {alpha:g}, the interval {'clear of' if clear else 'reaches'} zero)")
    if d["low"] is None:
        return f"{said}: could be chance"
    return f"{said}: could be chance (any change in the interval fits these cases)"


def run_names(paths):
    """Short names for a table of runs: each file's name without .json, or its path when two
    runs share a name."""
    names = [os.path.basename(p).removesuffix(".json") for p in paths]
    return [on_one_line(n) for n in (names if len(set(names)) == len(names) else paths)]


def distinct_settings(configs):
    """The settings that tell runs apart: compared config keys whose values differ among them (a
    prompt's hash only when its name does not already differ; a model's digest likewise)."""
    keys = [k for k in COMPARED_CONFIG if len({json_text(cfg.get(k)) for cfg in configs
                                              if k != "context_length" or cfg.get(k) is not None}) > 1]
    implied = {"prompt_sha": "prompt", "model_digest": "model"}
    return [k for k in keys if implied.get(k) not in keys]


def shared_cases(runs):
    """The ids every run holds, in the first run's order: what a compare of many runs is made on."""
    held = [{c["id"] for c in cases} for _, _, cases in runs]
    return [c["id"] for c in runs[0][2] if all(c["id"] in ids for ids in held)]


def decided_by_all(shared, by_id):
    """The shared cases every run has a verdict on (by_id: each run's graded cases by id), in shared's order."""
    return [i for i in shared if all(ids[i]["correct"] is not None for ids in by_id)]


def compare_many(runs, alpha=ALPHA):
    """Three or more runs of one split (path, config, graded cases), on the cases all of them hold
    and decided: each run's figure with its interval, in the order given, and each later run against
    the first (the reference, chosen before the data, as the gates take it) by paired_change(), the
    p-values adjusted by Holm's method for the number of comparisons. Testing against the best of
    the same runs would pick the winner and then test it, and call chance a difference."""
    configs = [cfg for _, cfg, _ in runs]
    for path, cfg, cases in runs[1:]:
        try:
            same_split(configs[0], cfg)
        except EvalError as e:   # among many, the run at odds named
            raise EvalError(f"{shell_word(path)} against {shell_word(runs[0][0])}: {e}") from None
        refuse_edited_cases(configs[0], runs[0][2], cfg, {c["id"]: c for c in cases},
                            (shell_word(runs[0][0]), shell_word(path)))
    by_id = [{c["id"]: c for c in cases} for _, _, cases in runs]
    shared = shared_cases(runs)
    if not shared:
        parts = [f"{shell_word(path)} ({plural(len(cases), 'case')}{subset_text(cfg)})" for path, cfg, cases in runs]
        raise EvalError(f"refusing to compare: no case is held by every run ({'; '.join(parts)})")
    # every figure on the cases each run decided: a run whose calls failed must not rank on the few
    # it answered, nor hide a difference between the others
    decided = decided_by_all(shared, by_id)
    if not decided:
        without = [f"{shell_word(path)} {sum(ids[i]['correct'] is None for i in shared)}"
                   for (path, _, _), ids in zip(runs, by_id) if any(ids[i]["correct"] is None for i in shared)]
        raise EvalError("refusing to compare: no case has a verdict in every run (errors, or a judge that gave "
                        f"none; cases without one, by run: {', '.join(without)}); finish or rerun them first")
    names = run_names([path for path, _, _ in runs])
    distinct = distinct_settings(configs)
    rates = [case_rates(ids, decided) for ids in by_id]
    rows = [{"run": path, "name": name, "settings": {k: cfg.get(k) for k in distinct}, **side_figures(r),
             "not_scored": sum(ids[i]["correct"] is None for i in shared),
             # decided all the same, on the trials and votes that came: said, as compare of two says it
             "errored": [i for i in decided if any(t["error"] or judge_call_failed(t) for t in ids[i]["trials"])]}
            for (path, cfg, _), ids, name, r in zip(runs, by_id, names, rates)]
    for row, r in zip(rows[1:], rates[1:]):
        pairs = [(*x, *y) for x, y in zip(rates[0], r)]
        # each interval wide enough for all the comparisons at once (Bonferroni), as their p is adjusted
        change = paired_change(pairs, alpha, alpha / (len(rows) - 1))
        row.update(paired=len(pairs), difference=change["difference"], test=change["test"]["name"],
                   p=change["test"]["p"], unit=change["unit"])
    # a comparison without a p (one case: no spread to read) still counts in the adjustment, as a 1
    for row, adjusted in zip(rows[1:], holm([1.0 if row["p"] is None else row["p"] for row in rows[1:]])):
        row["holm_p"] = None if row["p"] is None else adjusted
        row["significant"] = called({"difference": row["difference"], "test": {"p": row["holm_p"]}}, alpha)
        row["reading"] = (f"{row['name']} − {rows[0]['name']}: " + change_reading(
            row["difference"], row["holm_p"], alpha, row["significant"], "Holm-adjusted p",
            verdict=(f"{row['name']} is better than {rows[0]['name']}", f"{row['name']} is worse than {rows[0]['name']}")))
    rows[0].update(reference=True, reading=None)
    return {"split": configs[0]["split"], "split_sha": configs[0]["split_sha"], "runs": rows,
            "reference": rows[0]["run"], "cases": len(decided), "shared_cases": len(shared),
            "all_cases": [len(ids) for ids in by_id],
            "partial": any(len(ids) != len(shared) for ids in by_id) or any(cfg.get("subset") for cfg in configs),
            "comparisons": len(rows) - 1, "alpha": alpha, "distinct": distinct,
            "measure": measure(configs[0]["labels"], [row for _, _, cases in runs for row in check_table(cases)]),
            "majority_vote": any(cfg["repeat"] > 1 for cfg in configs)}


def compare_many_rows(m):
    """compare of many runs as rows: each run's figures (the reference first), what the comparison
    rests on, and the readings, worked out here once."""
    rows = []
    for i, r in enumerate(m["runs"]):
        at = ["runs", i]
        row = {"name": r["name"], "reference": bool(r.get("reference")), "settings": r["settings"],
               "reading": r["reading"], "figure": side_figure(r, at),
               "not_scored": figure("count", r["not_scored"], [*at, "not_scored"]),
               "errored": figure("ids", r["errored"], [*at, "errored"])}
        if not r.get("reference"):
            row.update(difference=figure("points_ci", r["difference"], [*at, "difference"]),
                       p=figure("p", r["p"], [*at, "p"], alpha=m["alpha"]),
                       holm_p=figure("p", r["holm_p"], [*at, "holm_p"], alpha=m["alpha"]), test=r["test"])
        rows.append(row)
    return [{"key": "many", "split": m["split"], "split_sha": short(m["split_sha"]), "distinct": m["distinct"],
             "measure": m["measure"], "majority_vote": m["majority_vote"], "partial": m["partial"], "alpha": m["alpha"],
             "cases": figure("count", m["cases"], ["cases"]), "shared_cases": figure("count", m["shared_cases"], ["shared_cases"]),
             "all_cases": [figure("count", n, ["all_cases", i]) for i, n in enumerate(m["all_cases"])],
             "comparisons": figure("count", m["comparisons"], ["comparisons"]),
             "left_out": figure("count", m["shared_cases"] - m["cases"]), "rows": rows}]


def many_rows(sec):
    """The table of a compare of many runs, as text cells."""
    header = ["#", "run", *(config_label(k) for k in sec["distinct"]), sec["measure"], "95% CI",
              "vs reference", "p", "Holm p"]
    rows = [header]
    for n, r in enumerate(sec["rows"], 1):
        rows.append([n, r["name"], *("-" if v is None else one_line(shown(k, v), 30) for k, v in r["settings"].items()),
                     figure_text(r["figure"]), interval(r["figure"]["ci"]) or "-",
                     "reference" if r["reference"] else figure_text(r["difference"]),
                     "" if r["reference"] else figure_text(r["p"]), "" if r["reference"] else figure_text(r["holm_p"])])
    return rows


def many_notes(sec):
    """What the table rests on: the shared cases, the reference, the pairing, the adjustment."""
    each = " (each case's pass rate over its trials)" if sec["majority_vote"] else ""
    notes = [f"{len(sec['rows'])} runs of {on_one_line(sec['split'])} ({sec['split_sha']}), compared on "
             f"{plural(sec['cases']['value'], 'case')}{each}, each against the first listed (the reference)."]
    if sec["partial"]:
        notes.append(f"Only the cases every run holds are compared ({figure_text(sec['shared_cases'])}; the runs hold "
                     f"{', '.join(figure_text(n) for n in sec['all_cases'])}): some ran only part of the split (--limit, --cases).")
    left_out = [f"{r['name']} {figure_text(r['not_scored'])}" for r in sec["rows"] if r["not_scored"]["value"]]
    if left_out:
        notes.append(f"Left out: {plural(sec['left_out']['value'], 'case')} without a verdict in some run "
                     f"(an error, or a judge that gave none; by run: {', '.join(left_out)}). Every figure is on the "
                     f"{figure_text(sec['cases'])} all decided.")
    errored = [f"{r['name']} {figure_text(r['errored'])}" for r in sec["rows"] if r["errored"]["value"]]
    if errored:
        notes.append(f"Errored ({ERRORED_WORDS}): by run, {'; '.join(errored)}.")
    tests = sorted({r["test"] for r in sec["rows"] if not r["reference"]})
    level = sec["rows"][1]["difference"]["value"]["level"]
    notes += [f"vs reference: this run minus the first, with its {level_text(level)}% interval, wide enough for "
              + (f"the {sec['comparisons']['value']} comparisons at once (Bonferroni)." if sec["comparisons"]["value"] > 1
                 else "its one comparison."),
              f"p: {' / '.join(tests)} against the reference; Holm p: adjusted for "
              f"{plural(sec['comparisons']['value'], 'comparison')} (read this one, at alpha {sec['alpha']:g}).",
              "The reference is the run listed first, not the best: testing against a winner picked from the same "
              "data finds differences that are not there."]
    return notes


def format_many(m):
    sec = section_of(compare_many_rows(m), "many")
    notes = many_notes(sec)
    out = [notes[0], ""] + table(many_rows(sec), align_right_from=99) + [""] + notes[1:]
    return "\n".join(out + ["Readings:"] + [f"  {r['reading']}" for r in sec["rows"] if not r["reference"]])


def markdown_many(m):
    sec = section_of(compare_many_rows(m), "many")
    rows, notes = many_rows(sec), many_notes(sec)
    notes = [md_text(note) for note in notes]   # they name the split and the runs
    out = [f"### eval.py compare: {len(sec['rows'])} runs", "", notes[0], "",
           "| " + " | ".join(md_text(c) for c in rows[0]) + " |", "|" + "---|" * len(rows[0])]
    out += ["| " + " | ".join(md_text(c) for c in row) + " |" for row in rows[1:]]
    return "\n".join(out + [""] + notes[1:] + ["", "Readings:", ""]
                     + [f"- {md_text(r['reading'])}" for r in sec["rows"] if not r["reference"]])


def pairwise_reading(wins, losses, p, alpha):
    """The judge's side-by-side verdicts in words: wins each way, the sign test's p, and whether
    the preference is more than chance."""
    counts = f"{wins} candidate wins, {losses} baseline wins"
    if wins + losses == 0:
        return f"{counts}: no pair has a winner"
    if p <= alpha:
        return (f"{counts}: p = {p_value(p, alpha)}, the "
                f"{'candidate' if wins > losses else 'baseline'} is preferred beyond chance")
    return f"{counts}: p = {p_value(p, alpha)}, could be chance"


def pairwise_certainty(votes):
    """A pair's certainty, as a judge check's: the least, over each judge model and order, of the
    share of the votes asked that give its most common answer (a vote without one counts against)."""
    by_side = {}
    for v in votes:
        by_side.setdefault((v["model"], v["order"]), []).append(v)
    shares = [agreeing_share([v["winner"] for v in side if v.get("winner")], len(side)) for side in by_side.values()]
    return min((x for x in shares if x is not None), default=None)


def pairwise_figures(asked, alpha):
    """compare --pairwise, counted: wins each way, ties, position flips, pairs without a verdict
    (why), and the sign test on wins against losses."""
    outcomes = {"candidate": [], "baseline": [], "tie": [], "flip": []}
    no_verdict, doubtful, flips_by_model, decided_by_model = [], [], {}, {}
    calls = [v for pair_votes in asked["votes"].values() for v in pair_votes]
    for pair in asked["pairs"]:
        votes = asked["votes"].get((pair["id"], pair["trial"]))
        outcome, why, per_model = pairwise_outcome(votes, asked["judge"]) if votes else (None, "not asked (interrupted)", {})
        for model, o in per_model.items():
            if o is not None:
                decided_by_model[model] = decided_by_model.get(model, 0) + 1
                flips_by_model[model] = flips_by_model.get(model, 0) + (o == "flip")
        if outcome is None:
            no_verdict.append({"id": pair["id"], "why": why})
        else:
            outcomes[outcome].append(pair["id"])
            certainty = pairwise_certainty(votes)
            if certainty is not None and certainty < LOW_CERTAINTY:
                doubtful.append({"id": pair["id"], "outcome": outcome, "certainty": certainty})
    window = asked["judge"].get("num_ctx")
    filled = [pair["id"] for pair in asked["pairs"] if any(filled_window(v.get("prompt_tokens"), window)
                                                           for v in asked["votes"].get((pair["id"], pair["trial"]), []))]
    wins, losses = len(outcomes["candidate"]), len(outcomes["baseline"])
    p = sign_test(wins, losses)
    decided = len(asked["pairs"]) - len(no_verdict)
    return {"criterion": asked["judge"]["criterion"], "judge": asked["judge"], "pairs": len(asked["pairs"]),
            "candidate_wins": outcomes["candidate"], "baseline_wins": outcomes["baseline"], "ties": outcomes["tie"],
            "flips": outcomes["flip"], "flip_rate": rate(len(outcomes["flip"]), decided),
            "flip_rate_by_model": {m: rate(flips_by_model[m], n) for m, n in decided_by_model.items()},
            "no_verdict": no_verdict, "doubtful": doubtful, **asked["unanswered"], "sign_test_p": p, "alpha": alpha,
            "significant": wins + losses > 0 and p <= alpha, "reading": pairwise_reading(wins, losses, p, alpha),
            "calls": len(calls), "asked_now": asked["asked"], "failed_calls": sum(1 for v in calls if v.get("error")),
            **dict(zip(("cut_calls", "stopped_calls", "stopped_models"), cut_counts(asked["judge"], calls))),
            "first_error": next((v["error"] for v in calls if v.get("error")), None),
            **tokens_counted(calls),
            "sidecar": asked["sidecar"], "trial_one": asked["trial_one"], "num_ctx": window, "input_may_be_cut": filled}


UNANSWERED_BY = {"only_baseline": "only the baseline", "only_candidate": "only the candidate", "neither": "neither run"}


def pairwise_lines(w):
    """compare --pairwise, as text."""
    ids = ids_text
    j = w["judge"]
    out = ["", f"Pairwise (judge {on_one_line(', '.join(j['models']))}"
               + (f", {j['votes']} votes" if j["votes"] > 1 else "") + f"; both orders; criterion: {one_line(inert(w['criterion']), 60)}):",
           f"  Candidate wins ({len(w['candidate_wins'])}): {ids(w['candidate_wins'])}",
           f"  Baseline wins ({len(w['baseline_wins'])}): {ids(w['baseline_wins'])}",
           f"  Ties ({len(w['ties'])}): {ids(w['ties'])}",
           f"  Position flips ({len(w['flips'])}, counted as ties): {ids(w['flips'])}",
           f"  Flip rate: {count_percent(len(w['flips']), w['pairs'] - len(w['no_verdict']))} of pairs with a verdict"
           "  (the judge's position bias on these answers)"]
    if len(w["flip_rate_by_model"]) > 1:
        out.append("  Flip rate by judge: " + " · ".join(f"{on_one_line(m)} {percent(r)}" for m, r in w["flip_rate_by_model"].items()))
    if w["no_verdict"]:
        out.append(f"  No verdict ({len(w['no_verdict'])}, not counted): "
                   + ", ".join(f"{on_one_line(n['id'])} ({on_one_line(n['why'])})" for n in w["no_verdict"]))
    if w["doubtful"]:
        out.append(f"  Doubtful verdicts ({len(w['doubtful'])}, counted; under certainty {LOW_CERTAINTY:g}, the share of "
                   "the votes asked that agree, a vote without a verdict counting against it): "
                   + ", ".join(f"{on_one_line(d['id'])} ({d['certainty']:.2f})" for d in w["doubtful"]))
    for key, label in UNANSWERED_BY.items():
        if w[key]:
            out.append(f"  Answered by {label} (not compared): {ids(w[key])}")
    if w["input_may_be_cut"]:
        out.append(f"  Judge prompts that filled its window (num_ctx={w['num_ctx']}), so the answers it read may have "
                   f"been cut ({len(w['input_may_be_cut'])}): {ids(w['input_may_be_cut'])}")
    out += [f"  Sign test (exact, ties set aside, alpha {w['alpha']:g}): {w['reading']}",
            f"  {w['calls']} judge calls ({w['asked_now']} made now, {w['failed_calls']} failed"
            + (f", {w['cut_calls']} cut at the token limit" if w["cut_calls"] else "")
            + (f", {w['stopped_calls']} stopped by the server short of it" if w["stopped_calls"] else "") + "), "
            f"{tokens_text(w['prompt_tokens'], w['completion_tokens'], w['uncounted_calls'])}; verdicts in {w['sidecar']}"
            + (" · trial 1 of each case" if w["trial_one"] else "")]
    return out


def pairwise_markdown(w):
    return ["", f"**Pairwise** ({md_text(', '.join(w['judge']['models']))}, both orders; "
                f"criterion: {md_text(one_line(w['criterion'], 60))}):", "",
            "| candidate wins | baseline wins | ties | position flips | no verdict |", "|---|---|---|---|---|",
            f"| {len(w['candidate_wins'])} | {len(w['baseline_wins'])} | {len(w['ties'])} | "
            f"{len(w['flips'])} ({percent(w['flip_rate'])}) | {len(w['no_verdict'])} |", "",
            f"Sign test: {w['reading']}."] + [
        f"Doubtful verdicts (under certainty {LOW_CERTAINTY:g}): "
        + ", ".join(f"{md_code(d['id'])} ({d['certainty']:.2f})" for d in w["doubtful"][:MARKDOWN_FAILURES])
        + (f", and {len(w['doubtful']) - MARKDOWN_FAILURES} more" if len(w["doubtful"]) > MARKDOWN_FAILURES else "")
    ] * bool(w["doubtful"]) + [f"Answered by {label} (not compared): " + markdown_ids(w[key])
                               for key, label in UNANSWERED_BY.items() if w[key]]


def config_label(key):
    return "model digest" if key == "model_digest" else key


def compare_rows(c, baseline_path, candidate_path):
    """compare of two runs as rows: every figure its views show, worked out here once."""
    d, test = c["difference"], c["test"]
    return [{"key": "runs", "paths": [baseline_path, candidate_path], "subset": c["subset"], "shared": c["shared"],
             "warnings": [[side, rerun_warning(r)] for side, r in c["rerun_test"].items()],
             # (no case decided in both runs: no unit to speak of)
             "changed": change_rows(c["changed"]), "trials": trials_note(c["trials"], c["unit"]) if c["baseline"]["scored"] else None},
            {"key": "outcome", "majority_vote": c["majority_vote"], "rows": [
                {"name": name, "figure": figure("ids", c[name], [name]), "count": figure("count", len(c[name]), None)}
                for name in ("fixed", "regressions", "not_compared", "errored",
                             *(("rose", "fell") if c["majority_vote"] else ()))] + [
                {"name": name, "figure": figure("count", len(c[name]), None)} for name in ("stayed_right", "stayed_wrong")]},
            {"key": "figures", "measure": c["measure"], "majority_vote": c["majority_vote"], "unit": c["unit"],
             "cases": c["baseline"]["scored"], "undecided_answers": c["undecided_answers"], "rows": [
                {"name": side, "figure": side_figure(c[side], [side])} for side in ("baseline", "candidate")] + invalid_rows(c) + [
                {"name": "difference", "figure": figure("points_ci", d, ["difference"]), "method": d["method"],
                 "test": test["name"], "p": figure("p", test["p"], ["test", "p"], alpha=c["alpha"]),
                 "alpha": c["alpha"], "reading": c["reading"]},
                *([{"name": "detectable", "figure": figure("size", c["detectable"], ["detectable"]),
                    "cases": c["baseline"]["scored"], "discordant": c["discordant"],
                    "fewest": fewest_one_way(c["alpha"], mcnemar_mid_p, c["baseline"]["scored"])}]
                  if c["unit"] == "case" and c["baseline"]["scored"] and not c["significant"] else []),
                *([{"name": "fisher", "figure": figure("p", c["fisher_p"], ["fisher_p"], alpha=c["alpha"])}]
                  if "fisher_p" in c else []),
                {"name": "identical", "figure": figure("count", c["identical_answers"], ["identical_answers"]),
                 "of": figure("count", c["paired_answers"], ["paired_answers"]), "trials_paired": c["trials_paired"]}]},
            {"key": "speed", "rows": speed_pair_rows(c["speed"])},
            {"key": "trajectory", "cases": c["trajectory"], "heading": trajectory_heading(c["trajectory"], c["trials"])},
            *filter(None, [rows_retrieval_change(c.get("retrieval")), rows_diagnosis_change(c.get("diagnosis"))])]


def rows_diagnosis_change(d):
    """RAG: how the count of failing cases each stage has to fix moved, and which cases on each side."""
    if not d:
        return None
    return {"key": "diagnosis_change", "rows": [
        {"name": stage, "figures": [figure("count", len(d[i][stage]), ["diagnosis", i, stage, "#"]) for i in (0, 1)],
         "which": [figure("ids", d[i][stage], ["diagnosis", i, stage]) for i in (0, 1)]} for stage in STAGES]}


def diagnosis_change_lines(sec):
    """RAG, compare: each stage's count of failing cases, baseline -> candidate, and which."""
    return ["Diagnosis, failing cases by the stage to fix (baseline -> candidate):"] + [
        f"  {r['name']}: {figure_text(r['figures'][0])} -> {figure_text(r['figures'][1])}"
        f"  ({inert(figure_text(r['which'][0]))} -> {inert(figure_text(r['which'][1]))})" for r in sec["rows"]]


def rows_retrieval_change(r):
    """RAG: the two retrievers' figures and the cases that gained or lost a relevant passage."""
    if not r:
        return None
    at = ["retrieval"]
    return {"key": "retrieval_change", "cases": figure("count", r["cases"], [*at, "cases"]),
            "rows": [{"name": key, "figures": [figure("percent", r[key][i], [*at, key, i]) for i in (0, 1)],
                      "difference": figure("points_ci", r[key + "_difference"], [*at, key + "_difference"])}
                     for key in ("precision", "recall")],
            "gained": figure("ids", r["gained"], [*at, "gained"]), "lost": figure("ids", r["lost"], [*at, "lost"]),
            "changes": [{"name": ch["id"], **{k: figure("ids", ch[k], [*at, "changes", i, k]) for k in ("gained", "lost")}}
                        for i, ch in enumerate(r["changes"])]}


def retrieval_change_lines(sec):
    """RAG, compare: the retrieval stage's change, as text and the page say it."""
    out = [f"Retrieval ({plural(sec['cases']['value'], 'case')} with passages and relevance labels on both sides):"]
    out += [f"  {RETRIEVAL_WORDS[r['name']][0]}: {figure_text(r['figures'][0])} -> {figure_text(r['figures'][1])}, "
            f"{figure_text(r['difference'])}" for r in sec["rows"]]
    out += [f"  gained a relevant passage: {figure_text(sec['gained'])}",
            f"  lost a relevant passage: {figure_text(sec['lost'])}"]
    out += [f"    {on_one_line(r['name'])}: " + "; ".join(f"{k} {figure_text(r[k])}" for k in ("gained", "lost") if r[k]["value"])
            for r in sec["changes"]]
    return [inert(line) for line in out]   # ids come from the split and the retriever's file


def side_figure(f, at):
    """A run's figure in a compare: a share of cases, or with trials the mean of per-case rates."""
    if f["correct"] is None:
        return figure("percent", f["accuracy"], [*at, "accuracy"], ci=f["ci"])
    return share(f["correct"], f["scored"], at, ci=f["ci"])


def trials_note(trials, unit):
    """What a compare with trials measures, said once; None without trials."""
    a, b = trials
    if a == b == 1:
        return None
    if unit == "case":
        return ("Every case's trials agree (each passes all of them or none): its verdict is the unit, as with "
                "one answer.")
    same = (f"each case's pass rate over its {a} trials" if a == b else
            f"each case's pass rate over its own trials ({a} in the baseline, {b} in the candidate), which "
            "estimates the chance one answer passes whatever the number of trials")
    return (f"The unit is the case: {same}. Fixed and Regressions are each case's majority vote, to read; "
            "the test uses the rates.")


def invalid_rows(c):
    """Invalid answers of each run, out of its answers; none when no run has any."""
    if not any(c["invalid_answers"] or []):
        return []
    return [{"name": "invalid", "majority_vote": c["majority_vote"], "figures": [
        [figure("count", c["invalid_answers"][i], ["invalid_answers", i]), figure("count", c["answers"][i], ["answers", i])]
        for i in (0, 1)]}]


def speed_pair_rows(pair):
    """Both runs' median latency, and their generation speed when either server reported one;
    nothing unless both runs timed their calls."""
    a, b = pair
    if not (a["calls"] and b["calls"]):
        return []
    rows = [{"name": "latency", "figures": [figure("ms", x["latency_ms_median"], ["speed", i, "latency_ms_median"])
                                            for i, x in enumerate(pair)]}]
    if a["generation_tokens_per_s"] or b["generation_tokens_per_s"]:
        rows.append({"name": "generation", "figures": [
            figure("tokens_per_s", x["generation_tokens_per_s"], ["speed", i, "generation_tokens_per_s"]) for i, x in enumerate(pair)]})
    return rows


def change_rows(changed):
    """compare's "Changed": each differing setting as it is shown, with what a re-pull means."""
    rows = []
    for key, (old, new) in changed.items():
        if key == "model_digest" and type(old) is str and type(new) is str:   # as long as it takes to differ
            old_text, new_text = map(inert, shorts_apart(old, new))
        else:
            old_text, new_text = shown(key, old), shown(key, new)
        rows.append({"setting": config_label(key), "old": old_text, "new": new_text,
                     "note": ": the model was re-pulled or replaced under the same name"
                     if key == "model_digest" and "model" not in changed and old and new else ""})
    return rows


def row_of(sec, name):
    return next((r for r in sec["rows"] if r["name"] == name), None)


# What compare says of a case with a failed request: its figures rest on what came, and no gate reads them
ERRORED_WORDS = ("a request, an answer or a judge's vote, failed in some trial of a run: these cases' figures rest "
                 "on what came, and the gates refuse to judge them")


def outcome_line(sec, name):
    """'Fixed (3): dev-09, dev-11, dev-24'."""
    r = row_of(sec, name)
    return f"{name.replace('_', ' ').capitalize()} ({figure_text(r['count'])}): {figure_text(r['figure'])}"


def format_compare(c, baseline_path, candidate_path):
    rows = compare_rows(c, baseline_path, candidate_path)
    runs, outcome, figures = (section_of(rows, k) for k in ("runs", "outcome", "figures"))
    out = [f"Baseline:  {inert(runs['paths'][0])}", f"Candidate: {inert(runs['paths'][1])}"]
    if runs["shared"]:
        out.append(shared_text(runs))
    elif runs["subset"]:
        out.append(f"Cases: only part of the split ({subsets_words(runs['subset'])}), not a full comparison")
    out += [f"{side.capitalize()}: {warning}" for side, warning in runs["warnings"]]
    if runs["changed"]:
        out.append("Changed:")
        out += [f"  {r['setting']}: {r['old']} -> {r['new']}{r['note']}" for r in runs["changed"]]
    else:
        out.append("Changed: nothing in the configuration (a rerun: differences are run-to-run variation)")
    if runs["trials"]:
        out.append(runs["trials"])
    vote = " (by majority vote of each case's trials)" if figures["majority_vote"] else ""
    out += ["", outcome_line(outcome, "fixed") + vote, outcome_line(outcome, "regressions") + vote,
            f"Stayed right: {figure_text(row_of(outcome, 'stayed_right')['figure'])} · "
            f"Stayed wrong: {figure_text(row_of(outcome, 'stayed_wrong')['figure'])}"]
    if figures["majority_vote"]:
        out.append(f"Pass rate rose on {figure_text(row_of(outcome, 'rose')['count'])}, fell on "
                   f"{figure_text(row_of(outcome, 'fell')['count'])} cases")
    if row_of(outcome, "not_compared")["figure"]["value"]:
        out.append(outcome_line(outcome, "not_compared") + "  (no verdict in a run: an error, or a judge that gave none)")
    if row_of(outcome, "errored")["figure"]["value"]:
        out.append(outcome_line(outcome, "errored") + f"  ({ERRORED_WORDS})")
    base, cand, diff = (row_of(figures, k) for k in ("baseline", "candidate", "difference"))
    unit = measure_unit(figures, outcome)
    out += [f"{figures['measure'].capitalize()}{unit}: {side_text(base['figure'])} -> {side_text(cand['figure'])}",
            *([f"Invalid answers: {invalid_text(row_of(figures, 'invalid'))}"] if row_of(figures, "invalid") else []),
            f"Difference, candidate − baseline ({diff['method']}; alpha {diff['alpha']:g}):",
            f"  {diff['reading']}",
            *([detectable_text(row_of(figures, "detectable"))] if row_of(figures, "detectable") else []),
            *([fisher_text(row_of(figures, "fisher"))] if row_of(figures, "fisher") else []),
            f"Identical raw answers: {identical_text(row_of(figures, 'identical'))}"]
    speeds = section_of(rows, "speed")["rows"]
    if speeds:
        out.append("Speed: " + " · ".join(f"{SPEED_WORDS[r['name']][0]} {figure_text(r['figures'][0])} -> "
                                          f"{figure_text(r['figures'][1])}" for r in speeds))
    out += trajectory_lines(section_of(rows, "trajectory"))
    if c.get("pairwise"):
        out += pairwise_lines(c["pairwise"])
    if section_of(rows, "retrieval_change"):
        out += [""] + retrieval_change_lines(section_of(rows, "retrieval_change"))
    if section_of(rows, "diagnosis_change"):
        out += [""] + diagnosis_change_lines(section_of(rows, "diagnosis_change"))
    return "\n".join(out)


def shared_text(runs):
    """Two runs that held different cases, compared on those both hold: which, and why."""
    n, (a, b) = runs["shared"]["cases"], runs["shared"]["held"]
    why = f": only part of the split, {subsets_words(runs['subset'])}" if runs["subset"] else ""
    return (f"Cases: compared on the {plural(n, 'case')} both runs hold (the baseline holds {a}, the candidate "
            f"{b}{why}); the other {plural_are(a + b - 2 * n, 'case')} left out")


def trajectory_lines(sec):
    """compare: the agents' trajectory changes, case by case. The tool names in them are what a model
    made up and the ids what a split holds: each on its line, a break in one shown escaped."""
    if not sec["cases"]:
        return []
    return ["", f"{sec['heading']}:"] + [
        f"  {on_one_line(r['id'])}: {on_one_line('; '.join(r['changes']))}  "
        f"({on_one_line(r['calls'][0])} -> {on_one_line(r['calls'][1])})" for r in sec["cases"]]


def trajectory_markdown(sec):
    """compare --markdown: the trajectory changes as a list, ids and calls as code, the changes
    escaped: a tool name a model made up is data there, never an image, a tag or a heading."""
    if not sec["cases"]:
        return []
    return ["", f"**Trajectory changes**{sec['heading'].removeprefix('Trajectory changes')}:", ""] + [
        f"- {md_code(r['id'])}: {md_text(on_one_line('; '.join(r['changes'])))} "
        f"({md_code(r['calls'][0])} → {md_code(r['calls'][1])})" for r in sec["cases"]]


# The speed rows of a compare, as text and page name them and as markdown heads them.
SPEED_WORDS = {"latency": ("median latency", "Latency, median"), "generation": ("generation", "Generation speed")}


def identical_text(r):
    """'27 of 28', and which trials were paired when the runs have different numbers of trials."""
    k = r["trials_paired"]
    return (f"{figure_text(r['figure'])} of {figure_text(r['of'])}"
            + ("" if k is None else f" (trial 1{f'–{k}' if k > 1 else ''} of each case: the trials both runs have)"))


def measure_unit(figures, outcome):
    """What the compared figure is of, said beside its name: a mean of per-case rates with trials;
    the cases both runs decided, when some were left out."""
    left_out = row_of(outcome, "not_compared")["count"]["value"]
    parts = (["mean of each case's pass rate"] if figures["unit"] != "case" else []) + (
        [f"on the {plural(figures['cases'], 'case')} both runs decided"] if left_out else []) + (
        [f"{plural(figures['undecided_answers'], 'answer')} without a verdict left out of their cases' rates"]
        if figures["undecided_answers"] else [])
    return f" ({', '.join(parts)})" if parts else ""


def side_text(f):
    """A run's figure with its interval: '20/28 = 71% (95% CI 53–85%)'."""
    return figure_text(f) + (f" (95% CI {interval(f['ci'])})" if f.get("ci") and f["ci"][0] is not None else "")


def detectable_text(r):
    """What the number of changed cases could show at all, in words."""
    cases, changed = r["cases"], r["discordant"]
    if not changed:
        needed = r["fewest"]
        return ("No case changed its outcome; " + (
            f"with {plural(cases, 'case')}, at least {needed} must change, all the same way, for a change to be "
            "told from chance" if needed else f"{plural_are(cases, 'case')} too few for any change to be told from chance"))
    if r["figure"]["value"] is None:
        return (f"With {plural(changed, 'changed case')} of {cases}, no split of them could be told from chance, "
                "whichever way they went: run more cases")
    return (f"With {plural(changed, 'changed case')} of {cases}, a change smaller than {figure_text(r['figure'])} could "
            "not have been told from chance")


def fisher_text(r):
    said = "no case has a verdict in both runs" if r["figure"]["value"] is None else f"p = {figure_text(r['figure'])}"
    return (f"Fisher exact test (--fisher; pass counts alone, ignoring that both runs answered the same cases: "
            f"for a test set before the run): {said}")


def invalid_text(r, arrow=" -> "):
    """"25 -> 0"; with trials, out of how many answers ("22 of 75 -> 25 of 75"): a count of
    trials beside a count of cases would read as more than it is."""
    return arrow.join(invalid_side(r, i) for i in (0, 1))


def invalid_side(r, i):
    count, answers = r["figures"][i]
    return figure_text(count) + (f" of {figure_text(answers)}" if r["majority_vote"] else "")


def markdown_compare(c, baseline_path, candidate_path):
    rows = compare_rows(c, baseline_path, candidate_path)
    runs, outcome, figures = (section_of(rows, k) for k in ("runs", "outcome", "figures"))
    out = [f"### eval.py compare: {md_code(runs['paths'][0])} → {md_code(runs['paths'][1])}", ""]
    out += [f"> **{side.capitalize()}: {md_text(warning)}**" for side, warning in runs["warnings"]]
    if runs["shared"]:
        out.append(f"Compared on the {plural(runs['shared']['cases'], 'case')} both runs hold "
                   f"({runs['shared']['held'][0]} and {runs['shared']['held'][1]}); the others are left out.")
    elif runs["subset"]:
        out.append(f"> **Cases: only part of the split ({md_text(subsets_words(runs['subset']))}), not a full comparison**")
    if runs["changed"]:
        out.append("Changed: " + "; ".join(f"{r['setting']} {md_code(r['old'])} → {md_code(r['new'])}" for r in runs["changed"]))
    base, cand, diff = (row_of(figures, k) for k in ("baseline", "candidate", "difference"))
    unit = measure_unit(figures, outcome)
    out += ["", "| | baseline | candidate |", "|---|---|---|",
            f"| {figures['measure'].capitalize()}{unit} | {side_text(base['figure'])} | {side_text(cand['figure'])} |"]
    if row_of(figures, "invalid"):
        out.append("| Invalid answers | " + " | ".join(invalid_side(row_of(figures, "invalid"), i) for i in (0, 1)) + " |")
    out += [f"| {SPEED_WORDS[r['name']][1]} | {figure_text(r['figures'][0])} | {figure_text(r['figures'][1])} |"
            for r in section_of(rows, "speed")["rows"]]
    out += ["", f"**Difference, candidate − baseline:** {diff['reading']} ({diff['method']}; alpha {diff['alpha']:g})."]
    out += [md_text(runs["trials"])] if runs["trials"] else []
    vote = " by majority vote" if figures["majority_vote"] else ""
    for name in ("fixed", "regressions"):
        r = row_of(outcome, name)
        out += ["", f"**{name.capitalize()}{vote} ({figure_text(r['count'])}):** " + markdown_ids(r["figure"]["value"], "none")]
    if row_of(outcome, "not_compared")["figure"]["value"]:
        out += ["", "**Not compared (no verdict in a run: an error, or a judge that gave none):** "
                + markdown_ids(row_of(outcome, "not_compared")["figure"]["value"])]
    if row_of(outcome, "errored")["figure"]["value"]:
        out += ["", f"**Errored ({ERRORED_WORDS}):** " + markdown_ids(row_of(outcome, "errored")["figure"]["value"])]
    notes = [detectable_text(row_of(figures, "detectable"))] if row_of(figures, "detectable") else []
    notes += [fisher_text(row_of(figures, "fisher"))] if row_of(figures, "fisher") else []
    out += ["", " ".join(f"{n}." for n in notes + [f"Identical raw answers: {identical_text(row_of(figures, 'identical'))}"])]
    out += trajectory_markdown(section_of(rows, "trajectory"))
    if c.get("pairwise"):
        out += pairwise_markdown(c["pairwise"])
    retrieval = section_of(rows, "retrieval_change")
    if retrieval:
        out += ["", f"**Retrieval** ({plural(retrieval['cases']['value'], 'case')}): "
                + "; ".join(f"{RETRIEVAL_WORDS[r['name']][0]} {figure_text(r['figures'][0])} → {figure_text(r['figures'][1])}, "
                            f"{figure_text(r['difference'])}" for r in retrieval["rows"])
                + f". Gained a relevant passage: {markdown_ids(retrieval['gained']['value'], 'none')}; "
                  f"lost one: {markdown_ids(retrieval['lost']['value'], 'none')}."]
    diagnosis = section_of(rows, "diagnosis_change")
    if diagnosis:
        out += ["", "**Diagnosis**, failing cases by the stage to fix: " + " · ".join(
            f"{r['name']} {figure_text(r['figures'][0])} → {figure_text(r['figures'][1])}" for r in diagnosis["rows"]) + "."]
    return "\n".join(out)


def markdown_ids(ids, empty="-"):
    """The first MARKDOWN_FAILURES ids as code, then how many more, as report --markdown cuts its
    failures: 20,000 ids made a 200 kB comment, past a pull request's 65,536 characters."""
    more = len(ids) - MARKDOWN_FAILURES
    return (ids_text([md_code(i) for i in ids[:MARKDOWN_FAILURES]], empty)
            + (f", and {more} more (compare --json or the text view lists them all)" if more > 0 else ""))


def compare_detail_rows(a_cfg, a_cases, b_cfg, b_cases):
    """Each run's own figures per label (per check in a free-text set) and per difficulty, with
    the change in points: what a compare page shows beside the comparison. On the cases both runs
    hold and decided, as the headline's are: a case one run got no answer for (or no verdict on) left in the
    other's slice made its change a change of cases as much as of answers."""
    a_cases, b_by_id, _ = cases_both_hold(a_cfg, a_cases, b_cfg, b_cases)
    a_by_id = {c["id"]: c for c in a_cases}
    decided = decided_by_all([c["id"] for c in a_cases], [a_by_id, b_by_id])
    sa, sb = score(a_cfg, [a_by_id[i] for i in decided]), score(b_cfg, [b_by_id[i] for i in decided])
    if "per_label" in sa and "per_label" in sb:
        first = {"key": "per_label", "rows": [
            {"name": label, "figures": [*pair_figures("fixed2", m["precision"], sb["per_label"][label]["precision"]),
                                        *pair_figures("fixed2", m["recall"], sb["per_label"][label]["recall"])]}
            for label, m in sa["per_label"].items() if label in sb["per_label"]]}
    else:
        b_checks = {x["name"]: x for x in sb["checks"]}
        first = {"key": "per_check", "rows": [
            {"name": x["name"], "figures": share_pair(x["passed"], x["total"], b_checks[x["name"]]["passed"],
                                                      b_checks[x["name"]]["total"])}
            for x in sa["checks"] if x["name"] in b_checks]}
    b_groups = sb["by_difficulty"]
    first["decided"] = len(decided)
    return [first, {"key": "per_difficulty", "decided": len(decided), "rows": [
        {"name": d, "figures": share_pair(g["correct"], g["total"], *((b_groups[d]["correct"], b_groups[d]["total"])
                                                                      if d in b_groups else (None, None)))}
        for d, g in sa["by_difficulty"].items()]}]


def pair_figures(kind, a, b):
    """A figure of each run and the change between them in points (None when either lacks it)."""
    return [figure(kind, a), figure(kind, b), figure("points", None if a is None or b is None else 100 * (b - a))]


def share_pair(a_count, a_of, b_count, b_of):
    """Each run's share and the change in points; a share the candidate lacks is None."""
    b = share(b_count, b_of) if b_of is not None else figure("share", None, count=None, of=None)
    return [share(a_count, a_of), b, pair_figures("share", rate(a_count, a_of), b["value"])[2]]


def gate_outcome(outcomes, again=""):
    """(exit code, messages) of the gates asked, each (passed: True, False or None when undecided,
    verdict): every gate's verdict, in the order read, so that CI tells a gate that passed from one
    never read. Exit 1 if any failed, else 2 if any is undecided (`again` says how to decide it), else 0."""
    words = {True: "gate passed: {}", False: "GATE FAILED: {}", None: "gates not judged: {}; " + again}
    code = 1 if False in (ok for ok, _ in outcomes) else 2 if None in (ok for ok, _ in outcomes) else 0
    return code, [words[ok].format(verdict) for ok, verdict in outcomes]


def compare_gates(c, fail_on_regression=False, fail_if_worse=False, runs=(), aside=("", None)):
    """(exit code, messages) of compare's gates. runs: (path, config, graded cases) of the two, so
    that a run left without verdicts is named with the judge command that asks its own judge again.
    aside: what the regressions were counted on, where it needs saying; why --fail-if-worse is not judged here."""
    w = c.get("pairwise")
    judge_failed = None
    if w and w["failed_calls"]:   # the judge's gate alone is left open: every other gate asked still gets its verdict
        some = "no pair has a verdict" if len(w["no_verdict"]) == w["pairs"] else "some pairs have no verdict"
        judge_failed = (f"{plural(w['failed_calls'], 'pairwise judge call')} failed (first: {one_line(w['first_error'], 160)}), "
                        f"so {some}; this says nothing of either run")
        if not (fail_on_regression or fail_if_worse):
            return 2, [judge_failed + ". Compare again to ask only those (the others are stored)"]
    if not (fail_on_regression or fail_if_worse):
        return 0, []
    if c["failed"]:
        # each run at fault on a compared case with what asks its calls again: an answer by run --resume (or its
        # completion, made already), a judge call by judge (run --resume refuses a run whose answers all came)
        failed = set(c["failed"])
        again = [f"{shell_word(path)} was completed in {shell_word(done)}: compare that run"
                 if (done := finished_completion(path, config)) else f"ask its answers again: {answers_again(path, config)}"
                 for path, config, cases in runs if any(t["error"] for case in cases if case["id"] in failed
                                                        for t in case["trials"])]
        again += [f"ask its failed judge calls again: {judge_command(path, config)}" for path, config, cases in runs
                  if any(judge_call_failed(t) for case in cases if case["id"] in failed for t in case["trials"])]
        return 2, [f"gates not judged: a request got no answer in a run on {plural(len(c['failed']), 'case')} "
                   f"({', '.join(c['failed'][:10])}{', ...' if len(c['failed']) > 10 else ''}) "
                   "(infrastructure, not the model); " + ("; ".join(again) or "finish or rerun it first")]
    if not c["baseline"]["scored"]:
        # each run's judge as report names it: a larger cap for votes it cut, another model for those its server stopped
        again = ["".join((command, f" ({why})" if why else "")) for command, why in
                 (judge_again(path, config, None, *cut_counts(config.get("judge"), [v for case in cases for t in case["trials"]
                                                                                      for v in t["votes"] or []]))
                  for path, config, cases in runs if any(x["correct"] is None for x in cases))]
        return 2, ["gates not judged: no case has a verdict in both runs (their judge gave none); "
                   f"judge them again: {'; '.join(again) or f'{program()} judge RUN'}"]
    outcomes = []   # in the order the gates are read
    if fail_on_regression:
        verdict = f"{len(c['regressions'])} regression(s)" + (f": {', '.join(c['regressions'])}" if c["regressions"] else "")
        if c["majority_vote"]:   # with trials a case regresses when its majority vote does; its rate may fall short of that
            verdict += f" (by majority vote; pass rate fell on {plural(len(c['fell']), 'case')}: --fail-if-worse reads the rates)"
        outcomes.append((not c["regressions"], verdict + aside[0]))
    if fail_if_worse and aside[1]:
        outcomes.append((None, f"significantly worse? not judged in this table ({aside[1]})"))
    elif fail_if_worse:
        worse = c["significant"] and c["difference"]["estimate"] < 0
        outcomes.append((not worse, f"significantly worse? {'yes' if worse else 'no'} ({c['reading']})"))
    if judge_failed:
        outcomes.append((None, ("judged significantly worse side by side? " if fail_if_worse else "") + judge_failed))
    elif fail_if_worse and w:
        # pairs the judge gave no verdict on are read as report reads undecided answers: either way they could go
        wins, losses, open_pairs = len(w["candidate_wins"]), len(w["baseline_wins"]), len(w["no_verdict"])
        ends = {bool(x + y and sign_test(x, y) <= w["alpha"] and y > x) for x, y in ((wins + open_pairs, losses), (wins, losses + open_pairs))}
        worse = w["significant"] and losses > wins
        outcomes.append((None if len(ends) > 1 else not worse,
                         f"judged significantly worse side by side? {'yes' if worse else 'no'} ({w['reading']})"
                         + (f"; {plural(open_pairs, 'pair')} without a verdict could decide it" if len(ends) > 1 else "")))
    if c["subset"]:   # the line a CI log keeps: gates over part of the split say so
        outcomes = [(ok, f"{verdict} (only part of the split: {subsets_words(c['subset'])})") for ok, verdict in outcomes]
    return gate_outcome(outcomes, "compare these two runs alone to judge it" if aside[1] else
                        "compare again to ask only those (the others are stored)" if judge_failed else
                        "the Pairwise section says why each of those pairs has no verdict" if None in (ok for ok, _ in outcomes) else "")


def many_gates(runs, m, fail_on_regression=False, fail_if_worse=False):
    """The gates of a compare of many runs: the first run listed is the baseline, and each other run
    is gated against it as compare of two would; exit 1 if a gate failed, else 2 if one was not judged, else 0."""
    if not (fail_on_regression or fail_if_worse):
        return 0, []
    shared = set(shared_cases(runs))
    names = run_names([path for path, _, _ in runs])
    (_, base_cfg, base_cases), code, verdicts = runs[0], 0, []
    by_id = [{x["id"]: x for x in cases} for _, _, cases in runs]
    decided = set(decided_by_all(shared, by_id))   # what the table's tests read (compare_many)
    for (_, cfg, cases), row, name, run, ids in zip(runs[1:], m["runs"][1:], names[1:], runs[1:], by_id[1:]):
        # each against the first on the cases these two hold, as the two compared alone: a case that broke is a
        # regression whatever another run holds (a run of part of the split beside them hid 6 of them, exit 0)
        held = set(by_id[0]) & set(ids)
        c = compare_runs(base_cfg, [x for x in base_cases if x["id"] in held], cfg, [x for x in cases if x["id"] in held],
                         alpha=m["alpha"])
        # "significantly worse" over several comparisons at once: the table's reading, at the Holm-adjusted p, of
        # the cases every run decided; where these two decided more, it is not theirs to pass on
        c.update(significant=row["significant"], reading=row["reading"], difference=row["difference"])
        both = {i for i in held if by_id[0][i]["correct"] is not None and ids[i]["correct"] is not None}
        aside = (f" (on the {plural(len(held), 'case')} these two hold)" if held != shared else "",
                 f"the table reads the {plural(len(decided), 'case')} every run decided, and these two decided "
                 f"{len(both - decided)} more" if both - decided else None)
        one_code, one_verdicts = compare_gates(c, fail_on_regression, fail_if_worse, (runs[0], run), aside)
        code = 1 if 1 in (code, one_code) else max(code, one_code)   # as gate_outcome: a gate failed is the outcome
        verdicts += [f"{head}: {names[0]} -> {name}: {rest}" for head, rest in (v.split(": ", 1) for v in one_verdicts)]
    return code, verdicts


def report_run(run, run_path, baseline, errors, compare_path):
    """The report of a run just made (and its comparison, with --compare); exit 2 if a case got no answer, or a
    judge call failed (its verdict is left open, as `judge` leaves it, exit 2 too)."""
    config = run["config"]
    cases = grade_run(run)
    say(format_report(config, score(config, cases), run_path))
    if baseline:
        say("")
        say(format_compare(compare_runs(*baseline, config, cases), compare_path, run_path))
    for line in judge_call_warnings(run["results"], config, run_path):
        warn(line)
    if errors:
        # the next step, as an interrupted run gives it: --resume asks only those again, into a new file; a
        # conversation past the window fails again alike, and --resume keeps the run's options
        window = sum(WINDOW_TOO_SMALL in (r.get("error") or "") for r in run["results"])
        warn(f"{errors} request(s) got no answer from the server; they are recorded as errors, not scored.\n"
             + (f"{window} of them did not fit num_ctx, and would not fit again: run again with a larger "
                "--option num_ctx=N (a new run: --resume keeps this run's options)" + (". " if window < errors else "")
                if window else "")
             + (f"Ask {'the others' if window else 'them'} again with: {resume_command(run_path)}" if window < errors else ""))
        return 2
    return 2 if failed_judge_calls(run["results"]) else 0


def run_grid(grid):
    """run with several --model or --prompt: each combination's run in turn, then one compare of
    them all, the first the reference (each run's report is `report RUN`). Exit 2 if a run was
    interrupted (the rest are not started) or a call got no answer."""
    configs = check_grid(grid)
    runs, with_errors, judged_open = [], [], []
    for at, args in enumerate(grid):
        try:
            with terminated_as_interrupted():
                finished = run_split(args)
        except EvalError as e:
            raise EvalError(f"{e}\n{grid_stopped(configs, at, runs)}") from None
        except KeyboardInterrupt:   # before the run's first case (its load): handled() says "interrupted"
            warn(grid_stopped(configs, at, runs))
            raise
        if finished is None:
            warn(grid_stopped(configs, at, runs))
            return 2
        run, run_path, _, errors = finished
        runs.append((run_path, run["config"], grade_run(run)))
        with_errors += [(run_path, errors)] if errors else []
        judged_open += [(run_path, run)] if failed_judge_calls(run["results"]) else []
    print(format_many(compare_many(runs)))
    for run_path, errors in with_errors:
        warn(f"{shell_word(run_path)}: {errors} request(s) got no answer from the server; they are recorded as errors, not "
             f"scored. Complete it with: {resume_command(run_path)}")
    for run_path, run in judged_open:
        for line in judge_call_warnings(run["results"], run["config"], run_path):
            warn(f"{shell_word(run_path)}: {line}")
    return 2 if with_errors or judged_open else 0


def grid_stopped(configs, at, runs):
    """What a grid that stopped in its run `at` (from 0) made and did not: each run's message says
    how to resume it; this says which runs were never started."""
    def named(config):
        return f"{on_one_line(config['model'])} with {shell_word(config['prompt'])}"
    made = ", ".join(shell_word(run[0]) for run in runs) or "none"
    return (f"the grid stopped at run {at + 1} of {len(configs)} ({named(configs[at])}); made: {made}; "
            f"not made: {', '.join(map(named, configs[at + 1:])) or 'none'}")


def answer_key(case_id, trial):
    """How the annotations sidecar names an answer: 'dev-09#1'."""
    return f"{case_id}#{trial}"


def answer_key_parts(key):
    """(case id, trial as written) of an annotations key; an id may hold '#', so the last one splits."""
    case_id, _, trial = key.rpartition("#")
    return case_id, trial


def annotations_file(run_path, own=None):
    """The sidecar of a run that review writes and report reads: RUN.annotations.json beside the run
    file (own_name: a link to a run shows the annotations of the run), or while none stands there,
    an older one that is read, never written (review's first save writes its annotations into the
    new file and leaves it as it is): RUN.labels.json of eval.py before 0.2, and through a link, the
    one an earlier eval.py wrote beside the link. own: the run file's name, if known already."""
    own = own or own_name(run_path)
    path = kept_beside(own, ANNOTATIONS_SUFFIX, say=False)   # (review says so)
    older = [name + suffix for suffix in (ANNOTATIONS_SUFFIX, OLD_ANNOTATIONS_SUFFIX)
             for name in dict.fromkeys((own, run_path))][1:]
    # exists, not lexists: a dangling link in the new name must not hide the older file's annotations
    return path if os.path.exists(path) else next((name for name in older if os.path.exists(name)), path)


def read_annotations(path):
    """An annotations sidecar: {"annotations": {answer key: {"text": ..., "time": ...}}, "run_sha": the
    hash of the run file they were written on (None if it says none), "other_versions": {run sha:
    annotations}}. The older form ({"labels": {key: {"label": ..., "time": ...}}}) is read as the same.
    A link to nothing is named with its target (read_bytes), never read as no annotations: its target
    may be on a share not mounted, and review's next save would replace the link."""
    if not os.path.lexists(path):
        return {"annotations": {}, "run_sha": None, "other_versions": {}, "kept": {}}
    if os.path.exists(path) and not os.path.isdir(path) and not os.path.isfile(path):   # a pipe would block the read for ever
        raise EvalError(f"{shell_word(path)}: not a regular file (a pipe or a device); move it aside")
    try:
        data = exact_json(read_bytes(path, "sidecar file").decode("utf-8"))   # a key twice: refused, never its last
        older = data.get("format") == OLD_ANNOTATIONS_FORMAT
        if data.get("format") not in (ANNOTATIONS_FORMAT, OLD_ANNOTATIONS_FORMAT):
            raise ValueError
        text_key = "label" if older else "text"
        others = data.get("other_versions", {})
        if not isinstance(others, dict):
            raise ValueError
        annotations = annotation_entries(data["labels" if older else "annotations"], text_key)
        other_versions = {sha: annotation_entries(written, text_key) for sha, written in others.items()}
        # only a sidecar without the key names no version (eval.py before run_sha): a 5 read as none
        # passed another run's annotations as this one's
        if "run_sha" in data and not (isinstance(data["run_sha"], str) and data["run_sha"]):
            raise ValueError
    except (ValueError, KeyError, TypeError, AttributeError, UnicodeDecodeError, RecursionError) as e:
        why = f" ({e})" if type(e) is ValueError and e.args else ""   # annotation_entries names the one at fault
        raise EvalError(f"{shell_word(path)}: damaged{why}, not an annotations file written by eval.py review; "
                        "move it aside to start afresh") from None
    # what a person added by hand (a key of their own) is the file's too: kept through every save
    kept = {k: v for k, v in data.items() if k not in ("format", "run", "run_sha", "labels" if older else "annotations", "other_versions")}
    return {"annotations": annotations, "run_sha": data.get("run_sha"), "other_versions": other_versions, "kept": kept}


def annotation_entries(written, text_key):
    """{answer key: {"text", "time"}} from one version's annotations as stored; ValueError (naming the
    annotation at fault) if they are not."""
    if not isinstance(written, dict):
        raise ValueError
    for key, entry in written.items():
        if not (isinstance(entry, dict) and isinstance(entry.get(text_key), str) and entry[text_key]):
            held = entry.get(text_key) if isinstance(entry, dict) else None
            raise ValueError(f"the annotation of {on_one_line(key, 60)} " + (
                f"is {json_kind(entry)}, not an object {{\"{text_key}\": ..., \"time\": ...}}" if not isinstance(entry, dict) else
                f"has no {text_key}, or an empty one" if held in (None, "") else
                f"has {json_kind(held)} as its {text_key}, not text"))
    # each as written, any field of a person's own ("by": "alice") with it: a save in review kept only text and time
    return {key: {**{k: v for k, v in entry.items() if k != text_key}, "text": entry[text_key], "time": entry.get("time")}
            for key, entry in written.items()}


def annotations_by_version(sidecar, run_sha):
    """(the annotations written on the run file whose hash is run_sha, those of its other versions by
    hash). A sidecar that names no version (eval.py before run_sha) is taken as this version's."""
    versions = {sha: dict(written) for sha, written in sidecar["other_versions"].items()}
    main = run_sha if sidecar["run_sha"] is None else sidecar["run_sha"]
    versions[main] = {**versions.get(main, {}), **sidecar["annotations"]}
    current = versions.pop(run_sha, {})
    return current, {sha: written for sha, written in versions.items() if written}


def run_annotations(run_path):
    """The annotations review wrote on this version of a run, and those it keeps of other versions
    (the run made again under the same name), by the run file's hash: never shown as this run's."""
    sidecar = read_annotations(annotations_file(run_path))
    if sidecar["run_sha"] is None and not sidecar["other_versions"]:   # nothing to tell apart: no hash to take
        return sidecar["annotations"], {}
    return annotations_by_version(sidecar, sha256_bytes(read_bytes(run_path, "run file")))


def version_summary(other_versions):
    """Each other version's annotations as a report counts them: its hash, how many, the first and
    last time one was written (ISO text as stored), the earliest version first."""
    summary = []
    for sha, written in other_versions.items():
        times = sorted(t for t in (entry.get("time") for entry in written.values()) if isinstance(t, str))
        summary.append({"run_sha": sha, "count": len(written), "first": times[0] if times else None,
                        "last": times[-1] if times else None})
    return sorted(summary, key=lambda v: (v["first"] or "", v["run_sha"]))


def versions_note(file, summary):
    """One line naming the annotations left out because they were written on another version of the run."""
    def when(v):   # the times are the file's text: shown escaped
        first, last = (on_one_line(t[:16].replace("T", " ")) if t else None for t in (v["first"], v["last"]))
        return "time unknown" if first is None else first if first == last else f"{first} to {last}"
    total = sum(v["count"] for v in summary)
    each = "; ".join((f"{v['count']} on " if len(summary) > 1 else "") + f"sha {short(on_one_line(v['run_sha']))}, {when(v)}"
                     for v in summary)
    return (f"{plural(total, 'annotation')} in {file} {'was' if total == 1 else 'were'} written in review on "
            f"{'another version' if len(summary) == 1 else 'other versions'} of this run file ({each}), left out "
            "here; the file keeps them")


def annotation_counts(annotations):
    """The annotations, most frequent first: the methodology's count that says what to fix first. Two texts alike but
    for what is shown as nothing ("real one" and "real one" with a zero-width space) are one, under its commoner form
    (they were two rows that read the same)."""
    forms = {}
    for entry in annotations.values():
        forms.setdefault(without_marks(entry["text"], joiners=False), Counter())[entry["text"]] += 1
    counts = [(alike.most_common(1)[0][0], sum(alike.values())) for alike in forms.values()]
    return sorted(counts, key=lambda item: (-item[1], item[0]))


def trial_verdict(t):
    if t["error"] is not None:
        return "error"
    return verdict_word(t["correct"])



# ---------------------------------------------------------------------------
# 12. Judge after the run: the judge command, the pairwise comparison of two runs, calibration
#     against people's verdicts, and the audit of a judge's biases.

VERDICT_FIELDS = frozenset({"id", "check", "pass", "trial", "note"})   # a person's verdict; a note says why, never read


def read_human_verdicts(path):
    """VERDICTS: a person's, one JSON object a line, {"id": ..., "check": ..., "pass": true|false} (+ "trial",
    which a run of more than one trial of each case needs: trials_named). Returns (the verdicts by (id, trial,
    check), the lines that name no trial)."""
    data = read_bytes(path, "verdicts file").removeprefix(b"\xef\xbb\xbf")   # a BOM, as before
    if re.match(rb'\s*\{\s*"format"\s*:\s*"' + re.escape(RUN_FORMAT.encode()), data):
        raise EvalError(f"{shell_word(path)} is a run file, not a person's verdicts: calibrate takes the verdicts first, "
                        "then the run (calibrate VERDICTS RUN)")
    verdicts, problems, untrialled = {}, [], []
    for number, raw in enumerate(data.split(b"\n"), 1):
        if not raw.strip():
            continue
        try:   # as every file people write is read (strict_json): a "pass" given twice is neither
            obj = strict_json(raw.decode("utf-8"))
        except UnicodeDecodeError as e:
            problems.append(f"{shell_word(path)}:{number}: not valid UTF-8 (byte {e.start + 1})")
            continue
        except ValueError as e:
            problems.append(f"{shell_word(path)}:{number}: {json_problem(e)}")
            continue
        unknown = sorted(set(obj) - VERDICT_FIELDS) if isinstance(obj, dict) else []
        if unknown:   # a typo ("trail": 2) was read as trial 1, paired with another trial's judge verdict
            problems.append(f"{shell_word(path)}:{number}: unknown field {on_one_line(repr(unknown[0]), 40)} (a verdict has "
                            f"{', '.join(sorted(VERDICT_FIELDS))})")
            continue
        if isinstance(obj, dict) and "trial" not in obj:
            untrialled.append(number)
        trial = obj.get("trial", 1) if isinstance(obj, dict) else 1
        if type(trial) is not int or trial < 1:   # true and 1.0 are equal to 1 as keys: matched to trial 1
            problems.append(f'{shell_word(path)}:{number}: "trial" must be a whole number, 1 or more')
            continue
        try:
            key = (obj["id"], trial, obj["check"])
            if not isinstance(obj["pass"], bool) or not isinstance(key[0], str) or not isinstance(key[2], str):
                raise TypeError
            hash(key)   # a trial that is a list or an object cannot be looked up
        except (ValueError, KeyError, TypeError, RecursionError):
            problems.append(f'{shell_word(path)}:{number}: expected {{"id": "...", "check": "...", "pass": true or false}}')
            continue
        if key in verdicts:
            problems.append(f"{shell_word(path)}:{number}: a second verdict for {on_one_line(key[0])} / {on_one_line(key[2])}")
        verdicts[key] = obj["pass"]
    if problems or not verdicts:
        raise EvalError(capped(problems) or f"{shell_word(path)}: no verdicts")
    return verdicts, untrialled


def trials_named(path, untrialled, trials):
    """Refuses verdicts that name no trial for a run of more than one trial of each case: taken for trial 1, a
    verdict on another trial's answer was set beside trial 1's judge verdict in silence."""
    if untrialled and trials > 1:
        raise EvalError(capped([f'{shell_word(path)}:{number}: no "trial", and the run has {trials} trials of each case: say '
                                f'which answer the person read ("trial": 1 to {trials})' for number in untrialled]))


def with_checks_now(path, results, subset=None):
    """judge --checks: the run's answers carrying the checks the split defines now in place of the
    stored ones, as report --checks scores them, so a judge check added after the run can be asked.
    The judged run stores them with each answer: its report needs no --checks again."""
    checks = checks_from_split(path)
    same_cases(path, checks, results, subset)
    same_questions(path, checks, results)
    same_tools(path, checks, results)
    warn(f"judged with the checks {path} defines now, not those stored in the run")
    now = []
    for r in results:
        rule = checks[r["id"]]
        r = {k: v for k, v in r.items() if k != "pass_threshold"}   # none written is none, as run stores it
        now.append(dict(r, checks=rule["checks"], **({"pass_threshold": rule["pass_threshold"]}
                                                       if rule["pass_threshold"] is not None else {})))
    return now


def judge_run(args, run, target):
    """Judge an existing run's answers again (another judge, more votes, a panel) into a run file of
    its own, each answer's votes journaled as they come (a judging: JUDGING_SUFFIX) so that an
    interrupted judging is gone on with by the same command. Returns (the judged run, where it was
    written, how many answers had a judge call fail), or None if interrupted."""
    asked_before = {(r["id"], r["trial"]): judge_questions(r["checks"]) for r in run["results"]}
    if args.checks:
        run["results"] = with_checks_now(args.checks, run["results"], run["config"].get("subset"))
    config = dict(run["config"], judged_from=args.run, **({"checks_from": args.checks} if args.checks else {}))
    config["judge"] = judge_config(args, BINARY, config["model"], config["api"], [config])
    todo = judged_answers(run["results"])
    if not todo:   # the command to paste asks the judge asked for now
        raise EvalError(f"{shell_word(args.run)}: no answer has a judge check"
                        + (f" in {shell_word(args.checks)}" if args.checks else "; add one to the split and judge the answers "
                           f"with it: {judge_command(args.run, config, checks='SPLIT')}"))
    config["host"] = resolve_host(args.host if args.host is not None else config["host"])
    client = make_client(config, args, args.run)
    prepare_judge(client, config["api"], config["judge"], BINARY)
    # the judged model's family as the run recorded it; the judges' as the server says now
    judge_note(config["model"], config["judge"]["models"],
               {**client.identities, config["model"]: {"model_family": config.get("model_family")}})
    header = {"format": JUDGING_FORMAT, "answers_sha": answers_sha(todo), "config": config}
    path, journal, lock, kept = begin_judging(target, header, todo, config["judge"])
    # what the judging holds, call by call (the run's own votes, reused below, are in the run, not in it)
    in_judging = {(*key, *call): bool(v.get("error")) for key, by_call in kept.items() for call, v in by_call.items()}
    # with a larger token limit (as report names it for cut votes) the votes cut at the smaller are asked again
    raised = raised_cap(run["config"].get("judge"), config["judge"])
    # a call that failed, or an answer without a verdict (not cut): what `judge RUN`, as report names it, is for
    was = run["config"].get("judge")
    missing_before = any(v.get("error") or raised and cut_at_cap(v, was) or v.get("pass") is None and not cut_vote(v)
                         for r in todo for v in r.get("judges") or [])
    # a larger limit is asked for the votes it cut: with none, every vote stands (one the server stopped stops alike)
    if (missing_before or args.checks or raised) and (raised or same_judge(run["config"].get("judge"), config["judge"])):
        # the judge again, as the run's failed calls say to, or with --checks (a judge check added: report
        # --checks's gate names this command), on the judge checks asked as before (a check dropped, added or
        # asked otherwise has no vote that stands)
        unchanged = {(r["id"], r["trial"]): {name for name, asked in judge_questions(r["checks"]).items()
                                             if asked_before[r["id"], r["trial"]].get(name) == asked} for r in todo}
        kept = with_the_runs_own_votes(kept, todo, unchanged, raised, (
            "the calls that failed, gave no verdict or were cut at the token limit" if raised else
            "the calls that failed or gave no verdict (not cut at its token limit)") + (
            ", or are of a judge check new or asked otherwise" if args.checks else ""), was)
    try:
        asked = ask_judges(args, client, config["judge"], todo, kept, path, journal, in_judging)
        if asked is None:
            return None
        votes, failed = asked
        # an answer judged now has these votes; any other has none (--checks may have taken its judge check away)
        results = [dict(r, judges=votes.get((r["id"], r["trial"]))) for r in run["results"]]
        judged = {"format": RUN_FORMAT, "config": config, "results": results}
        try:
            with terminated_as_interrupted():
                written = write_judged(judged, args.run, path)
                os.unlink(path + JUDGING_SUFFIX)
        except KeyboardInterrupt:
            warn(left_judging(path) if os.path.lexists(path) else
                 f"interrupted while writing {shell_word(path)}: every vote is kept in {shell_word(path + JUDGING_SUFFIX)}, "
                 "and the same judge command writes it, asking nothing")
            return None
    finally:
        with contextlib.suppress(OSError):   # a full disk: the error on the way out says so
            journal.close()
        lock.release()
    return judged, written, failed


def ask_judges(args, client, judge, todo, kept, path, journal, held):
    """Ask the judges every vote on the answers in `todo` that `kept` ({(id, trial): {(check, model,
    vote): vote}}, a judging's and the run's own) lacks or holds failed, journaling each vote as it
    comes; `held`: the judging's calls, {(id, trial, check, model, vote): whether it failed}, kept up
    to date. Returns ({(id, trial): votes}, how many answers had a judge call fail), or None if
    interrupted."""
    wanted = len(judge["models"]) * judge["votes"]
    def complete(r):   # every vote of the answer kept, none failed
        held = kept.get((r["id"], r["trial"]), {})
        return len(held) == wanted * judge_checks(r) and not any(v.get("error") for v in held.values())
    votes = {(r["id"], r["trial"]): judge_answer(client, judge, r, answer_of(r["response"]), kept[r["id"], r["trial"]])
             for r in todo if complete(r)}   # (asks nothing)
    work = [(r, r["trial"]) for r in todo if not complete(r)]
    progress, failed, writing = Progress(len(todo), len(votes)), 0, threading.Lock()

    def journaled(result, vote):   # in a worker: a vote is paid for the moment it comes
        try:
            with writing:
                append_journal(journal, {"id": result["id"], "trial": result["trial"], "vote": vote})
                held[result["id"], result["trial"], vote["check"], vote["model"], vote["vote"]] = bool(vote["error"])
        except OSError as e:   # a full disk: what is in the judging is safe, a torn last line aside
            raise EvalError(f"cannot write to {shell_word(path + JUDGING_SUFFIX)} ({e.strerror}); the votes before "
                            f"this one are safe: {held_words(held, path + JUDGING_SUFFIX)}.\n{remedy(e)}, then "
                            "judge again with the same options to ask only the rest") from None

    def ask(r):
        return judge_answer(client, judge, r, answer_of(r["response"]), kept.get((r["id"], r["trial"])),
                            lambda vote: journaled(r, vote))

    def on_votes(result, trial, result_votes):
        nonlocal failed
        votes[result["id"], trial] = result_votes
        failed += any(v["error"] for v in result_votes)
        progress.update(len(votes), failed)

    try:
        with terminated_as_interrupted():
            ask_all(work, args.jobs, awaited(progress.waiting, lambda r: f"the judge on {r['id']}", ask), on_votes,
                    progress.tick)
    except KeyboardInterrupt:
        progress.update(len(votes), failed, final=True)
        with writing:   # once a worker has written its vote's line, and before a later one: the count is the file's
            with contextlib.suppress(OSError):
                journal.close()
            warn(f"interrupted: {held_words(held, path + JUDGING_SUFFIX)}\n"
                 f"The same judge command (with {option_word('--out', path)}) asks only the rest")
        return None
    progress.update(len(votes), failed, final=True)
    return votes, failed


def held_words(held, where):
    """'20 votes kept in X.judging (and 22 failed calls to ask again)': a judging's calls as the next
    judge counts them (a failed call is no vote; a call asked again after it failed is one)."""
    failed = sum(held.values())
    return (f"{plural(len(held) - failed, 'vote')} kept in {shell_word(where)}"
            + (f" (and {plural(failed, 'failed call')} to ask again)" if failed else ""))


def judge_questions(checks):
    """{name: (type, criterion)} of the judge checks of an answer: what its judge is asked (a RAG
    check's value is a threshold, its verdict read again from the vote: report --checks)."""
    return {c["name"]: (c["type"], c.get("value") if c["type"] == "judge" else None) for c in checks
            if c["type"] in JUDGE_CHECKS}


def with_the_runs_own_votes(kept, todo, unchanged, raised, asked, was=None):
    """The judge asked as the run's own was (the same models, votes, seed...) of a run some of whose
    judge calls failed or gave no verdict (`judge RUN`, as the run's end and report say), or with
    --checks: the votes the run holds with a verdict stand, as a judging's do, and only the rest are
    asked again, never one already paid for. (A run whose votes all gave a verdict is judged afresh
    without --checks: the same judge asked again is a question of its own.) raised: the judge's token
    limit is larger than the run's (raised_cap), and nothing else differs: a vote stands only if its
    answer ended within the smaller one, so one cut (verdict or not) is asked again."""
    merged = {}
    for r in todo:
        key = (r["id"], r["trial"])
        # a vote stands with its verdict, or cut at its token limit (asked alike, it is cut alike); one the
        # judge gave none in is asked again, as a failed call is (else `judge again` asked nothing)
        own = {(v["check"], v["model"], v["vote"]): v for v in r.get("judges") or []
               if not v.get("error") and v["check"] in unchanged[key]
               and ((v.get("pass") is not None or cut_vote(v)) if not raised else   # stopped short of the cap:
                    v.get("pass") is not None and not cut_vote(v) or cut_vote(v) and not cut_at_cap(v, was))}   # alike
        merged[key] = {**own, **{k: v for k, v in kept.get(key, {}).items() if not v.get("error") or k not in own}}
    reused = sum(len(own) for own in merged.values()) - sum(len(v) for v in kept.values())
    # of them, the votes the server stopped short of the run's limit (kept only with a larger one)
    stopped = sum(1 for key, own in merged.items() for k, v in own.items() if cut_vote(v) and k not in kept.get(key, {}))
    if reused > 0:
        warn((f"the run's judge with a larger token limit: "
              + (f"its {plural(reused - stopped, 'vote')} that ended within the run's limit stand (they end the same way "
                 "within this one)" if reused > stopped else "")
              + (" and " if stopped and reused > stopped else "")
              + (f"{plural(stopped, 'vote')} the server stopped short of it stand{'s' if stopped == 1 else ''} (its window "
                 f"full: asked again, {'it stops' if stopped == 1 else 'they stop'} alike)" if stopped else "") if raised else
              f"the same judge as the run's: its {plural(reused, 'vote')} stand") + f"; only {asked} are asked")
    return merged


def judge_checks(result):
    """How many judge checks an answer has."""
    return sum(c["type"] in JUDGE_CHECKS for c in result["checks"])


def judging_lock(path):
    """The lock on a judging while a process asks its judges (PATH.lock, as a run's)."""
    return FileLock(path + ".lock", lambda holder: f"another eval.py (pid {holder}) is judging into {shell_word(path)}; "
                                                   "wait for it, or stop it first")


def begin_judging(target, header, todo, judge):
    """(path, judging open to append, its lock, votes kept {(id, trial): {(check, model, vote): vote}}):
    the judging of the same answers by the same judge that was interrupted at the judged run's name
    (or, without --out, at a name it moved to), gone on with; else a new one at the first free name.
    A judging of other answers or another judge is never touched: an --out that holds one is
    refused, saying what differs."""
    out, exact = target
    for path in [out] if exact else numbered_names(out):
        judging = path + JUDGING_SUFFIX
        state, said = judging_state(judging, header) if os.path.lexists(judging) else (None, None)
        holder = live_holder(path) if state not in (None, "same") else None
        if holder:   # not "interrupted": another judge is at work on it (the same judging: the lock says so)
            state, said = "live", f"is being written now by eval.py (pid {holder})"
        if os.path.lexists(path) and state == "same":   # done, or a file in its way: never asked again into a -2
            raise EvalError(left_judging(path))
        if name_taken(path, ("", JOURNAL_SUFFIX)) and not exact:
            continue
        if state is None:
            path, journal, lock = open_journal(path, None, exact, header, JUDGING_SUFFIX, judging_lock)
            return path, journal, lock, {}
        if state == "same":
            lock = judging_lock(path)
            try:
                votes = read_judging(judging, todo)
                journal = reopen_journal(judging)
            except BaseException:
                lock.release()
                raise
            failed = sum(1 for by_call in votes.values() for v in by_call.values() if v.get("error"))
            wanted = sum(map(judge_checks, todo)) * len(judge["models"]) * judge["votes"]
            warn(f"going on with the judging interrupted in {shell_word(judging)}: "
                 f"{sum(map(len, votes.values())) - failed} of {plural(wanted, 'vote')} kept"
                 + (f", {plural(failed, 'failed call')} to ask again" if failed else ""))
            return path, journal, lock, votes
        advice = {"other": "judge with what it was begun with to finish it", "empty": "remove it",
                  "live": "wait for it"}.get(state, "move it aside")
        if exact:
            raise EvalError(f"--out {shell_word(path)}: {shell_word(judging)} {said}; {advice}, or give another --out")
        warn(f"note: {shell_word(judging)} {said}; it is left as it is")
    raise AssertionError("unreachable: numbered_names never ends")


def judging_state(path, header):
    """(state, what to say) of the judging at path against the one to make: ("same", None), ("other",
    how its settings differ), ("empty", ...) when a stop before its header was whole left it holding
    nothing, or ("broken", why it cannot be read); what is said follows its name."""
    try:
        with open_regular(path, "rb") as f:
            first = f.readline()
            ended = first.endswith(b"\n") or bool(f.read(1))
    except OSError as e:   # a folder, a pipe, a link to nothing, no permission
        return "broken", f"cannot be read ({e.strerror})"
    try:
        held = exact_json(first.decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        held = None
    if type(held) is not dict or held.get("format") != JUDGING_FORMAT or type(held.get("config")) is not dict:
        # no line ended: no vote was ever written after it
        return ("broken", "has a damaged first line, so its votes cannot be matched to answers and a judge") if ended \
            else ("empty", "was left by a judge stopped before it asked anything, and holds no vote")
    problem = run_config_problem(dict(held["config"]))
    if problem:   # never "other settings" for what is damaged: a digest too many is no model pulled again
        return "broken", f"has a damaged first line ({problem}), so its votes cannot be matched to answers and a judge"
    if held.get("answers_sha") != header["answers_sha"]:
        return "other", "holds an interrupted judging of other answers or checks"
    mine, theirs = header["config"], held["config"]
    # the same answers named by another path, or the same server by another address, are the same judging
    skip = ("judged_from", "checks_from", "host")
    judge, their_judge = mine["judge"], theirs.get("judge") if type(theirs.get("judge")) is dict else {}
    differ = [(k, theirs.get(k), mine.get(k)) for k in sorted(set(mine) | set(theirs))
              if k not in skip and k != "judge" and mine.get(k) != theirs.get(k)]
    differ += [(f"judge {k}", their_judge.get(k), judge.get(k)) for k in sorted(set(judge) | set(their_judge))
               if judge.get(k) != their_judge.get(k) and k != "digests"]
    if not same_judge({"digests": judge.get("digests")}, {"digests": their_judge.get("digests")}):   # unknown: no difference
        differ.append(("judge digests (the model was pulled again)", their_judge.get("digests"), judge.get("digests")))
    shown = lambda value: on_one_line(json_text(value), 40)
    if not differ:
        return "same", None
    return "other", ("holds an interrupted judging of other settings: "
                     + "; ".join(f"{k} {shown(there)} there, {shown(now)} now" for k, there, now in differ))


def read_judging(path, todo):
    """The votes a judging holds, {(id, trial): {(check, model, vote): vote}}, its lines read as
    judging_lines reads them and each held to the answers to judge now; a later line for a vote
    replaces an earlier (asked again after its call failed)."""
    checks = {(r["id"], r["trial"]): {c["name"] for c in r["checks"] if c["type"] in JUDGE_CHECKS} for r in todo}
    try:
        _, entries = judging_lines(path)
    except EvalError as e:
        raise EvalError(f"{e}; move it aside to judge again from the start") from None
    votes = {}
    for number, entry in entries:
        key, vote = (entry["id"], entry["trial"]), entry["vote"]
        if key not in checks or vote["check"] not in checks[key]:
            what = "not a vote on an answer of this run" if key not in checks else "a vote of another check, judge or number"
            raise EvalError(f"{shell_word(path)}:{number}: damaged judging line: {what}; move it aside to judge again "
                            "from the start")
        votes.setdefault(key, {})[vote["check"], vote["model"], vote["vote"]] = vote
    return votes


# A sidecar holds every pairwise comparison made against its run, each under the key that decides
# whether stored verdicts can stand for new ones: the two runs' bytes and the judge, criterion included.
COMPARISON_KEY = ("baseline_sha", "candidate_sha", "judge")


def answer_pairs(a_run, b_run):
    """The cases both runs answered, trial 1 of each, in the baseline's order, and the ids of those
    one run (or neither) answered: an error or reasoning that never ended is no answer to compare, nor is
    a case one run never asked (it ran part of the split: --limit, --cases)."""
    def answers(run):
        return {r["id"]: (r, answer_of(r["response"]) if r.get("response") is not None else None)
                for r in run["results"] if r["trial"] == 1}
    a, b = answers(a_run), answers(b_run)
    pairs, unanswered = [], {"only_baseline": [], "only_candidate": [], "neither": []}
    for cid, (case, a_answer) in [*a.items(), *((cid, (case, None)) for cid, (case, _) in b.items() if cid not in a)]:
        b_answer = b.get(cid, (None, None))[1]
        if a_answer is not None and b_answer is not None:
            pairs.append({"id": cid, "trial": 1, "case": case, "baseline": a_answer, "candidate": b_answer})
        else:
            side = "only_baseline" if a_answer is not None else "only_candidate" if b_answer is not None else "neither"
            unanswered[side].append(cid)
    return pairs, unanswered


def file_sha(path):
    return sha256_bytes(read_bytes(path, "run file"))


def read_pairwise(path):
    """The comparisons stored in a pairwise sidecar ([] if there is none); a damaged one is an error,
    never overwritten: it holds verdicts someone paid for."""
    if not os.path.exists(path):
        return []
    if not os.path.isfile(path):
        raise EvalError(f"{shell_word(path)}: not a regular file; move it aside to ask the judge again")
    try:
        # read as exactly as it is written (not strict_json's rules for files people write): a judge's
        # half emoji ("\\ud83d") stored in a verdict made the whole sidecar unreadable, every verdict lost
        stored = exact_json(read_bytes(path, "pairwise file").decode("utf-8"))
        problem = pairwise_problem(stored)
    except (ValueError, UnicodeDecodeError) as e:
        problem = line_problem(e)
    if problem:
        raise EvalError(f"{shell_word(path)}: damaged pairwise file ({problem}); move it aside to ask the judge again")
    for c in stored["comparisons"]:
        for v in c["verdicts"]:
            whole_counts(v)
    return stored["comparisons"]


def pairwise_problem(stored):
    """What is wrong with a decoded pairwise sidecar, or None."""
    if type(stored) is not dict or stored.get("format") != PAIRWISE_FORMAT or type(stored.get("comparisons")) is not list:
        return f'expected {{"format": "{PAIRWISE_FORMAT}", "comparisons": [...]}}'
    seen = []
    for c in stored["comparisons"]:
        if type(c) is not dict or not all(k in c for k in COMPARISON_KEY) or type(c.get("verdicts")) is not list:
            return "a comparison without its runs' hashes, its judge or its verdicts"
        judge = c["judge"]
        if (type(judge) is not dict or type(judge.get("criterion")) is not str or type(judge.get("models")) is not list
                or not all(type(m) is str for m in judge["models"]) or type(c.get("baseline", "")) is not str):
            return "a comparison whose judge has no criterion or models"
        digests = judge.get("digests", [None] * len(judge["models"]))   # prepare_judge's: one per model, or null
        if type(digests) is not list or len(digests) != len(judge["models"]) or not all(d is None or type(d) is str for d in digests):
            return "a comparison whose judge digests are not one text or null per judge model"
        if any(all(c[k] == other[k] for k in COMPARISON_KEY) for other in seen):
            # eval.py keeps one comparison per runs and judge (store_comparisons merges): which would count?
            return "a comparison of the same runs by the same judge stored twice"
        seen.append(c)
        calls = set()
        for v in c["verdicts"]:
            if (type(v) is not dict or type(v.get("id")) is not str or type(v.get("model")) is not str
                    or type(v.get("trial")) is not int or type(v.get("vote")) is not int):
                return "a verdict without its case, model, vote, order and winner (A, B, tie or null)"
            if v.get("order") not in ORDERS or v.get("winner") not in (*WINNERS.values(), None):
                field = "order" if v.get("order") not in ORDERS else "winner"
                return (f"a verdict on {on_one_line(v['id'], 60)} whose {field} is "
                        f"{on_one_line(json_text(v.get(field)), 40)}, not " + (" or ".join(map(json_text, ORDERS))
                                                                               if field == "order" else "A, B, tie or null"))
            problem = (answer_problem(v) and f"a verdict on {on_one_line(v['id'], 40)}: {answer_problem(v)}") \
                or verdict_problem(v, calls)
            if problem:
                return problem
    return None


PAIRWISE_VOTE_FIELDS = frozenset(PairwiseVote.__annotations__)   # what ask_judge writes of a pairwise vote


def verdict_problem(v, calls):
    """What is wrong with one well-typed stored pairwise verdict beyond its keys, or None; calls: the
    calls of the comparison's verdicts before it, to which its own is added. A second verdict for
    one call is refused, not merged: which copy counts would be the file's order (the last, read into
    a dict), and another for a call already reported may be a forged one. A field ask_judge never
    writes means the file was made by something else."""
    name = on_one_line(v["id"], 40)
    extra = sorted(set(v) - PAIRWISE_VOTE_FIELDS)
    if extra:
        return f"a verdict on {name} has a field a verdict never has: {on_one_line(repr(extra[0]), 40)}"
    if "seed" in v and (type(v["seed"]) is not int):
        return f"a verdict on {name} has a seed that is not a whole number"
    call = pairwise_call(v)
    if call in calls:
        return (f"the verdict on {name} (trial {v['trial']}, judge {on_one_line(v['model'], 40)}, vote {v['vote']}, "
                f"{v['order']}) is given twice")
    calls.add(call)
    return None


def pairwise_call(v):
    """The call a pairwise verdict answers: its case and trial, judge, vote and order."""
    return v["id"], v["trial"], v["model"], v["vote"], v["order"]


def verdict_worth(v):
    """How much a stored pairwise verdict is worth: a failed call 0, an unreadable answer 1, a verdict 2."""
    return 0 if v.get("error") else 1 if v.get("winner") is None else 2


def merged_verdicts(stored, new):
    """One comparison's verdicts from what the sidecar holds and what a compare brings: per call,
    the one worth more; of two answers worth as much the one stored first, so a save never puts a
    worse verdict, or another for one already paid for and perhaps reported, in place of a stored
    one; of two failures the latest, which says best why the call fails now."""
    merged = {pairwise_call(v): v for v in stored}
    for v in new:
        old = merged.get(pairwise_call(v))
        if old is None or verdict_worth(v) > verdict_worth(old) or verdict_worth(v) == verdict_worth(old) == 0:
            merged[pairwise_call(v)] = v
    return list(merged.values())


def merged_comparison(comparisons, comparison):
    """(the sidecar's comparisons with `comparison` merged in, it as stored): its verdicts merged
    with those of the same comparison stored before (merged_verdicts), every other kept."""
    same = stored_comparison(comparisons, comparison)
    verdicts = merged_verdicts(same["verdicts"] if same else [], comparison["verdicts"])
    brought = {id(v) for v in comparison["verdicts"]}
    # where and when the verdicts were asked: this compare's, unless it added none of its own
    stored = dict(comparison if same is None or any(id(v) in brought for v in verdicts) else same, verdicts=verdicts)
    return [c for c in comparisons if c is not same] + [stored], stored


def store_comparisons(path, brought=()):
    """Store in the sidecar what the journal beside it holds (a compare's verdicts as they came:
    journal_verdict), then the comparisons `brought` (a compare's own, at its end), and remove the
    journal. Under the lock, so two compares of the same runs and judge at once (each read the
    sidecar before the other saved) keep every answer either paid for, and no verdict is journaled
    between the read and the removal. Atomic: a stop before the journal goes leaves it, and storing
    it again changes nothing. Returns the last comparison brought, as stored."""
    lock, journal = path + ".lock", path + JOURNAL_SUFFIX
    stored = None
    try:
        with sidecar_lock(path):
            comparisons = read_pairwise(path)
            held = journaled_comparisons(journal) if os.path.lexists(journal) else []
            for comparison in held + list(brought):
                comparisons, stored = merged_comparison(comparisons, comparison)
            if held or brought:
                write_sidecar(path, json_text({"format": PAIRWISE_FORMAT, "comparisons": comparisons}, indent=1) + "\n")
            if held or os.path.lexists(journal):   # (one of torn lines only holds no verdict)
                os.unlink(journal)
    except OSError as e:   # a full disk: the sidecar as it was is kept, and the journal with it
        kept = (f"the judge verdicts asked are kept in {shell_word(journal)}, and the next compare --pairwise stores them"
                if os.path.isfile(journal) and os.path.getsize(journal) else
                "the judge verdicts asked now are not stored (those stored before are kept)")
        raise EvalError(f"cannot write {shell_word(e.filename if e.filename in (lock, journal) else path)} ({e.strerror}): "
                        f"{kept}; {remedy(e).lower()} and compare again") from None
    return stored


# compare --pairwise journals each verdict the moment it comes (RUN.pairwise.json.journal), so that
# no stop loses one paid for, SIGKILL and a closed terminal included. A line is one verdict with the
# comparison it belongs to, whole (its runs' hashes, its judge): compares at once append their lines
# in turns, under the sidecar's lock, and any compare stores every line into its own comparison
# (store_comparisons), never into another's.
PAIRWISE_JOURNAL_FIELDS = frozenset(PairwiseComparison.__annotations__) - {"verdicts"}


def journal_verdict(sidecar, comparison, verdict):
    """Append one verdict, as it came, to the sidecar's journal with its comparison (without
    verdicts), flushed and fsync'd before the next call. Under the sidecar's lock: lines of two
    compares never interleave, and none is written into a journal a store is taking away. A line a
    kill tore is cut off first (the next would be glued to it); one a full disk cut is taken back."""
    path, lock = sidecar + JOURNAL_SUFFIX, sidecar + ".lock"
    line = json_line({"comparison": comparison, "verdict": verdict})
    try:
        with FileLock(lock):
            fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0), 0o644)
            with os.fdopen(fd, "r+b", buffering=0) as f:   # unbuffered: a write cut short is seen here, not on close
                if not S_ISREG(os.fstat(fd).st_mode):   # a pipe, a device: never written into
                    raise NotRegularFile(errno.EINVAL, "not a regular file (a pipe or a device)", path)
                end = f.seek(0, os.SEEK_END)
                if end:
                    f.seek(end - 1)
                    if f.read(1) != b"\n":   # torn by a kill as another compare wrote (rare; the journal is small)
                        f.seek(0)
                        end = f.read().rfind(b"\n") + 1
                        f.truncate(end)
                f.seek(end)
                try:
                    left = memoryview(line)
                    while left:
                        left = left[f.write(left):]
                    os.fsync(fd)
                except OSError:
                    with contextlib.suppress(OSError):
                        f.truncate(end)
                    if not end:   # its first line: nothing left behind
                        remove_quietly(path)
                    raise
    except OSError as e:
        raise EvalError(f"cannot write {shell_word(e.filename if e.filename == lock else path)} ({e.strerror}); the "
                        f"verdicts before this one are kept. {remedy(e)}, then compare again to ask only the rest") from None


def journaled_comparisons(path):
    """The comparisons a pairwise journal holds, each with its verdicts in the order they came (of
    its lines, the last one's where and when); a line a kill tore (the last, without its line
    break) left out. A damaged line is an error naming it, and nothing is stored."""
    try:
        with open_regular(path, "rb") as f:
            lines = [line for line in f if line.endswith(b"\n")]
    except OSError as e:
        raise EvalError(f"{shell_word(path)}: {e.strerror}; it should hold compare --pairwise's verdicts: "
                        "move it aside") from None
    held = {}
    for number, line in enumerate(lines, 1):
        try:
            entry = exact_json(line.decode("utf-8"))
            problem = pairwise_journal_problem(entry)
        except ValueError as e:   # (UnicodeDecodeError is one)
            problem = line_problem(e)
        if problem:
            raise EvalError(f"{shell_word(path)}:{number}: damaged pairwise journal line: {problem}; mend or remove "
                            "that line, then compare again to store the others (nothing was stored)")
        held.setdefault(json_text([entry["comparison"][k] for k in COMPARISON_KEY]), []).append(entry)
    return [dict(entries[-1]["comparison"], verdicts=[e["verdict"] for e in entries]) for entries in held.values()]


def pairwise_journal_problem(entry):
    """What makes a journal line other than one verdict with its comparison, as journal_verdict
    writes it, or None: held to what the sidecar holds them to, and the verdict to its judge."""
    if type(entry) is not dict or set(entry) != {"comparison", "verdict"} or type(entry["comparison"]) is not dict:
        return 'not {"comparison": ..., "verdict": ...}'
    comparison, verdict = entry["comparison"], entry["verdict"]
    extra = sorted(set(comparison) - PAIRWISE_JOURNAL_FIELDS)
    if extra:
        return f"its comparison has a field a comparison never has: {on_one_line(repr(extra[0]), 40)}"
    problem = pairwise_problem({"format": PAIRWISE_FORMAT, "comparisons": [dict(comparison, verdicts=[verdict])]})
    if problem:
        return problem
    judge = comparison["judge"]
    if verdict["model"] not in judge["models"] or type(judge.get("votes")) is not int \
            or not 1 <= verdict["vote"] <= judge["votes"]:
        return "a verdict of a judge model or vote number its comparison's judge has not"
    return None


def merged_votes(saved, mine, kept, pairs, wanted):
    """(votes by pair, calls made now) of a comparison as saved: the figures are those of the merged
    verdicts, what the next compare reads. Said on stderr when another compare of the same runs and
    judge stored verdicts while this one asked (by value: the sidecar is read back, not shared)."""
    # stored before this compare began (a call no longer asked among them too): neither made now nor another's
    before = {pairwise_call(v): v for by_vote in kept.values() for v in by_vote.values()}
    made = {pairwise_call(v): v for v in mine if before.get(pairwise_call(v)) is not v}
    own = {pairwise_call(v): v for v in mine}
    theirs = [v for v in saved if own.get(pairwise_call(v)) != v and before.get(pairwise_call(v)) != v]
    if theirs:
        replaced = sum(1 for v in theirs if made.get(pairwise_call(v), {}).get("error"))
        warn(f"merged with {plural(len(theirs), 'verdict')} another compare stored meanwhile"
             + (f"; they stand in for {plural(replaced, 'call')} that failed here" if replaced else ""))
    by_call = {pairwise_call(v): v for v in saved}
    votes = {(p["id"], p["trial"]): [by_call[(p["id"], p["trial"], *w)] for w in wanted]
             for p in pairs if all((p["id"], p["trial"], *w) in by_call for w in wanted)}
    return votes, sum(made.get(pairwise_call(v)) == v for pair_votes in votes.values() for v in pair_votes)


def uncapped_if_stored(judge, key, comparisons):
    """A comparison stored before judge calls had a token cap (its judge has no num_predict) is
    continued as it was made, uncapped, so that its verdicts stand and any still missing are asked
    the same way; --judge-max-tokens given asks with the cap, anew."""
    uncapped = {k: v for k, v in judge.items() if k != "num_predict"}
    return uncapped if stored_comparison(comparisons, dict(key, judge=uncapped)) else judge


def stored_comparison(comparisons, key):
    """The stored comparison of key's runs and judge, or None. The judge's digests are read as
    same_judge reads them: unknown on one side (before the server is asked, or a comparison of before
    digests were recorded) is no difference, a judge pulled again is another judge. Of several (the
    judge pulled again between them) the one stored last: store_comparisons puts it at the end."""
    return next((c for c in reversed(comparisons) if c["baseline_sha"] == key["baseline_sha"]
                 and c["candidate_sha"] == key["candidate_sha"] and same_judge(c["judge"], key["judge"])), None)


def raised_comparison(comparisons, key):
    """The stored comparisons of key's runs by key's judge with a smaller token limit (raised_cap), as
    the verdicts of key's judge: those of answers that ended within their limit (they end the same way
    within the larger), each call's from the comparison stored last that has one (a stopped compare holds
    only some); the cut ones, and the failed calls, are left to ask. None if there is none."""
    smaller = [c for c in reversed(comparisons) if c["baseline_sha"] == key["baseline_sha"]
               and c["candidate_sha"] == key["candidate_sha"] and raised_cap(c["judge"], key["judge"])]
    if not smaller:
        return None
    verdicts = {}
    for c in smaller:
        for v in c["verdicts"]:
            if not v.get("error") and not cut_at_cap(v, c["judge"]):   # stopped short of it: stops alike
                verdicts.setdefault(pairwise_call(v), v)
    return {"limits": sorted({c["judge"]["num_predict"] for c in smaller}), "verdicts": list(verdicts.values())}


def with_raised(stored, raised):
    """The comparison to go on with: stored's verdicts (key's own judge), and for a call it lacks or
    holds failed, the verdict of the same judge with a smaller limit (raised_comparison), if it has one:
    a compare with the larger limit stopped before it stored them all loses none of them."""
    if raised is None:
        return stored
    mine = (stored or {}).get("verdicts", [])
    theirs = {pairwise_call(v) for v in raised["verdicts"]}
    return {"verdicts": [*(v for v in mine if v.get("error") and pairwise_call(v) not in theirs), *raised["verdicts"],
                         *(v for v in mine if not v.get("error"))]}


def pairwise_missing(kept, wanted, pair):
    """The calls of a pair still to make: never stored, or failed."""
    stored_votes = kept.get((pair["id"], pair["trial"]), {})
    return [w for w in wanted if stored_votes.get(w) is None or stored_votes[w].get("error")]


def pairwise_plan(stored, pairs, wanted):
    """(the stored verdicts by pair and call, the pairs with calls still to make, the votes of the
    others) of a comparison against what it holds."""
    kept = {}
    for v in stored["verdicts"] if stored else []:
        kept.setdefault((v["id"], v["trial"]), {})[v["model"], v["vote"], v["order"]] = v
    todo = [p for p in pairs if pairwise_missing(kept, wanted, p)]
    asking = {(p["id"], p["trial"]) for p in todo}
    votes = {(p["id"], p["trial"]): [kept[p["id"], p["trial"]][w] for w in wanted]
             for p in pairs if (p["id"], p["trial"]) not in asking}
    return kept, todo, votes


def pairwise_compare(args, a_path, a_run, b_path, b_run):
    """compare --pairwise: the judge's verdicts on every pair of answers, in both orders, asked for
    those not stored yet (or whose call failed) and stored beside the candidate run. Returns the
    verdicts by pair, the pairs, the unanswered ids, the judge and how many calls were made now.
    The candidate run is held from before its stored verdicts are read: a second compare that read
    them while the first asked would ask what the first had yet to store, paid twice."""
    held = hold_file(own_name(b_path), f"another eval.py holds {shell_word(b_path)} now (a compare --pairwise asking the judge "
                             "about its pairs, or a run --resume completing it); wait for it, then compare again "
                             "(the verdicts a compare of the same runs stores are reused)")
    try:
        return pairwise_held(args, a_path, a_run, b_path, b_run)
    finally:
        if held is not None:
            held.close()


def pairwise_held(args, a_path, a_run, b_path, b_run):
    """pairwise_compare with the candidate run held."""
    judge = judge_config(args, PAIRWISE, b_run["config"]["model"], args.api or b_run["config"]["api"],
                         [a_run["config"], b_run["config"]], criterion=args.pairwise)
    pairs, unanswered = answer_pairs(a_run, b_run)
    # beside the run file, whichever name it is given by: by a link's, the same comparison was asked again
    sidecar = kept_beside(through_link(b_path, "its pairwise verdicts are kept beside it"), PAIRWISE_SUFFIX,
                          (PAIRWISE_SUFFIX, PAIRWISE_SUFFIX + JOURNAL_SUFFIX))
    for suffix in (PAIRWISE_SUFFIX, PAIRWISE_JOURNAL_SUFFIX):   # before any call is paid
        theirs, ours = b_path + suffix, sidecar[:-len(PAIRWISE_SUFFIX)] + suffix
        # (a link beside the link to the run's own sidecar is that sidecar)
        if ours != theirs and os.path.lexists(theirs) and os.path.realpath(theirs) != os.path.realpath(ours):
            raise EvalError(f"{shell_word(theirs)}, named after the link, holds verdicts an earlier eval.py stored there; "
                            f"move it to {shell_word(ours)}" + (" (there is none)" if not os.path.lexists(ours)
                                                                else ", once that one is moved aside,")
                            + " or aside, and compare again: its verdicts would be asked again")
    key = {"baseline_sha": file_sha(a_path), "candidate_sha": file_sha(b_path), "judge": judge}
    if os.path.lexists(sidecar + JOURNAL_SUFFIX):   # verdicts a stopped compare journaled: stored first, then read
        store_comparisons(sidecar)
    comparisons = read_pairwise(sidecar)
    if not args.judge_max_tokens_given:
        key["judge"] = judge = uncapped_if_stored(judge, key, comparisons)
    stored = stored_comparison(comparisons, key)
    wanted = [(m, n, o) for m in judge["models"] for n in range(1, judge["votes"] + 1) for o in ORDERS]
    kept, todo, votes = pairwise_plan(stored, pairs, wanted)
    if todo:
        writable_beside(sidecar, "the verdicts asked could not be stored, so nothing was asked")
        config = {"api": args.api or b_run["config"]["api"],
                  "host": resolve_host(args.host if args.host is not None else b_run["config"]["host"])}
        client = make_client(config, args, b_path)
        prepare_judge(client, config["api"], judge, PAIRWISE)   # the judge's digests, now known
        if stored and stored_comparison(comparisons, key) is not stored:   # its verdicts are another model's
            was = stored["judge"].get("digests")   # a list: same_judge found two known digests that differ
            model, old, new = next((m, a, b) for m, a, b in zip(judge["models"], was, judge["digests"]) if a and b and a != b)
            warn(f"note: the judge {on_one_line(model)} was pulled again (digest {'{}, now {}'.format(*shorts_apart(old, new))}) since the "
                 f"verdicts stored in {shell_word(sidecar)}; they are kept as they are, and every pair is asked anew")
            stored = stored_comparison(comparisons, key)
        # the same judge with a smaller limit, found once the digests are known (never another model's verdicts)
        raised = raised_comparison(comparisons, key)
        kept, todo, votes = pairwise_plan(with_raised(stored, raised), pairs, wanted)
        used = [v for v in raised["verdicts"] if kept.get((v["id"], v["trial"]), {}).get((v["model"], v["vote"], v["order"]))
                is v] if raised else []
        if used:
            limits = ", ".join(map(str, raised["limits"]))
            stopped = sum(1 for v in used if cut_vote(v))
            warn(f"the comparison{'s' if len(raised['limits']) > 1 else ''} stored with a token limit of {limits}: "
                 + (f"{plural(len(used) - stopped, 'verdict')} that ended within it stand" if len(used) > stopped else "")
                 + (" and " if stopped and len(used) > stopped else "")
                 + (f"{plural(stopped, 'call')} the server stopped short of it stand{'s' if stopped == 1 else ''} (its window "
                    f"full: asked again, {'it stops' if stopped == 1 else 'they stop'} alike)" if stopped else "")
                 + "; only the calls cut at it, failed, or never made are asked")
        missing = functools.partial(pairwise_missing, kept, wanted)
        for judged_model in dict.fromkeys((b_run["config"]["model"], a_run["config"]["model"])):
            judge_note(judged_model, judge["models"], client.identities)
        calls = sum(len(missing(p)) for p in todo)
        warn(f"asking {on_one_line(judge['models'][0]) if len(judge['models']) == 1 else 'a panel'} about {len(todo)} pair(s) "
             f"({plural(calls, 'call')}, both orders in all; {len(pairs) - len(todo)} pair(s) stored already)")
        progress, failed, interrupted = Progress(len(todo), 0), 0, False
        asking = {"baseline": a_path, **key, "api": config["api"], "host": config["host"],
                  "date": datetime.now().astimezone().isoformat(timespec="seconds"), "eval_version": __version__}
        stopped = False

        def journaled(vote):   # in a worker: a verdict is paid for the moment it comes
            # journaled even once the compare has stored what it has (the sidecar's lock orders the two):
            # one that came during the store is in the journal the next compare stores
            journal_verdict(sidecar, asking, vote)
            if stopped:   # stopped: the rest of this pair's calls would be paid for and never kept
                raise StopAsking

        def on_votes(pair, trial, pair_votes):
            nonlocal failed
            votes[pair["id"], trial] = pair_votes
            failed += any(v["error"] for v in pair_votes)
            progress.update(len(votes) - (len(pairs) - len(todo)), failed)

        try:
            with terminated_as_interrupted():
                ask_all([(p, p["trial"]) for p in todo], args.jobs,
                        awaited(progress.waiting, lambda p: f"the pairwise judge on {p['id']}",
                                lambda p: pairwise_votes(client, judge, p, kept.get((p["id"], p["trial"]), {}), journaled)),
                        on_votes, progress.tick)
            progress.update(len(todo), failed, final=True)
        except KeyboardInterrupt:
            interrupted = True
            raise
        finally:   # interrupted too (Ctrl-C, SIGTERM, SIGHUP): every verdict paid for is stored, and reused next time
            stopped = True
            # a pair not asked again keeps what was stored of it; the calls of one half asked are in the journal
            mine = [v for p in pairs for v in votes.get((p["id"], p["trial"]), kept.get((p["id"], p["trial"]), {}).values())]
            saved = store_comparisons(sidecar, [dict(asking, verdicts=mine)])
            warn(f"stored the verdicts in {shell_word(sidecar)}" + ("; compare again to ask only the calls still missing"
                                                         if interrupted else ""))
        votes, asked_now = merged_votes(saved["verdicts"], mine, kept, pairs, wanted)
    else:   # nothing asked: the judge as it was when its verdicts were (its digests), as when they were asked
        asked_now = 0
        judge = {**judge, **{k: v for k, v in ((stored or {}).get("judge") or {}).items() if k == "digests"}}
    return {"judge": judge, "pairs": pairs, "votes": votes, "unanswered": unanswered, "sidecar": sidecar,
            "asked": asked_now, "trial_one": max(a_run["config"]["repeat"], b_run["config"]["repeat"]) > 1}


def judge_target(run_path, out):
    """(the run judged, by its file's own name; the run; where its judged run goes, as judged_path
    gives it), refused now, before the judge's calls are paid for. By a link's name, its default name
    and judging were the link's, and a judging stopped by one name was asked again by the other. The
    run is read first: a file that is no run is named as such, not for the folder it is in."""
    given, run_path = run_path, through_link(run_path, "that run is the one judged")
    run = load_run(run_path)
    if given != run_path and out is None:   # the link's default names an earlier eval.py judged into: its votes stand
        # RUN-judged.json, then -2, -3 ... while a name is held (the first free one ends them, as free_run_path's)
        for beside in itertools.takewhile(name_taken, numbered_names(os.path.splitext(given)[0] + "-judged.json")):
            if os.path.lexists(beside + JUDGING_SUFFIX):
                raise EvalError(f"{shell_word(beside + JUDGING_SUFFIX)}, named after the link, holds a judging an earlier "
                                f"eval.py began there; judge with --out {shell_word(beside)} to go on with it, or move it aside")
    target = judged_path(run_path, out)
    judging = target[0] + JUDGING_SUFFIX   # votes a stopped judge kept there: never paid again under another --out
    # the judging too: another user's in a sticky folder is appended to, then never removed once the run is written
    for path in (target[0], judging):
        writable_beside(path, "the judged run could not be written there; give --out in a folder that can be written"
                        + (f", with {shell_word(judging)} copied beside it (OUT{JUDGING_SUFFIX}) to go on with the votes it "
                           "holds" if os.path.isfile(judging) else ""))
    return run_path, run, target


def judged_path(run_path, out):
    """(where the re-judged run goes, whether --out named it): RUN-judged.json, or the next free name;
    an --out that exists is refused before any judge is asked, as run's is, never moved to -2 (then
    `judge --out j.json && report j.json` would read an older file). A judging there is gone on
    with, or refused, once the judge is known (begin_judging)."""
    if out and os.path.isfile(out) and os.path.lexists(out + JUDGING_SUFFIX):
        raise EvalError(left_judging(out))   # not "remove it" of the run the judging wrote
    return chosen_run_path(out, os.path.splitext(run_path)[0] + "-judged.json", ("", JOURNAL_SUFFIX))


def write_judged(judged, run_path, out):
    """The re-judged run, in a file of its own, at the name its judging holds: the run it came from
    is never touched."""
    try:
        write_file(out, run_text(judged))
    except FileExistsError:
        raise EvalError(f"{shell_word(out)} appeared while the judge was asked; it was not overwritten, and the votes are "
                        f"kept in {shell_word(out + JUDGING_SUFFIX)}") from None
    except OSError as e:
        raise EvalError(f"cannot write {shell_word(out)} ({e.strerror}); the votes are kept in {shell_word(out + JUDGING_SUFFIX)}: "
                        f"fix the cause and judge again with the same options. {shell_word(run_path)} is unchanged") from None
    warn(f"wrote {shell_word(out)} ({shell_word(run_path)} is unchanged)")
    return out


def calibration(human, verdicts, human_path, run_path):
    """Per judge check: how the judge's verdicts agree with a person's on the same answers."""
    judged = sorted({k[2] for k in verdicts})
    if not judged:
        raise EvalError(f"{shell_word(run_path)} holds no judge verdict: it has no judge check, or its judge was never "
                        "asked (add a judge check and use `judge`, or run again)")
    stray = sorted({k[2] for k in human} - set(judged))
    if stray:
        raise EvalError(f"{shell_word(human_path)}: check {stray[0]!r} is not a judge check of {shell_word(run_path)}; its judge "
                        f"checks are: {', '.join(map(on_one_line, judged))}")
    unknown = [k for k in human if k not in verdicts]
    if unknown:
        raise EvalError(f"{shell_word(human_path)}: {plural(len(unknown), 'verdict')} {'matches' if len(unknown) == 1 else 'match'} "
                        f"no judge verdict in {shell_word(run_path)} (first: id {on_one_line(unknown[0][0])}, "
                        f"trial {on_one_line(str(unknown[0][1]))}, check {on_one_line(repr(unknown[0][2]))})")
    report = {}
    for check in sorted({k[2] for k in human}):
        keys = [k for k in human if k[2] == check]
        pairs = [(human[k], verdicts[k]) for k in keys if verdicts[k] is not None]
        report[check] = dict(judge_agreement(pairs), undecided=len(keys) - len(pairs))
        unjudged_failures = sum(1 for k in keys if verdicts[k] is None and human[k] is False)
        report[check]["warnings"] = calibration_warnings(report[check], unjudged_failures)
    return report


def judge_votes_of(config):
    """How many times the run's judge was asked about each answer."""
    return (config.get("judge") or {}).get("votes") or 1


def judge_verdicts_of(cases):
    """{(case id, trial, check name): the judge's verdict} of a graded run."""
    return {(c["id"], t["trial"], name): j["pass"] for c in cases for t in c["trials"] for name, j in t["judged"].items()}


def calibration_warnings(a, unjudged_failures=0):
    """Failure detection is read by its interval, not its point: 4 of 5 caught is 80%, on the line,
    yet its interval (38-96%) leaves open a judge that misses half the failures. unjudged_failures:
    the person's failures on answers the judge left without a verdict, which the table leaves out:
    with none in it, there were failures all the same, to be said so (not "no failure")."""
    warnings = []
    detection, ci = a["failure_detection"], a["failure_detection_ci"]
    caught, failures = a["table"]["human_fail"]["judge_fail"], sum(a["table"]["human_fail"].values())
    if detection is None and unjudged_failures:
        warnings.append(f"the person's {plural(unjudged_failures, 'failure')} "
                        f"{'all fell on answers' if unjudged_failures > 1 else 'fell on an answer'} the judge left "
                        "without a verdict (a tie, an unreadable answer, one cut at its token limit or a failed call): its "
                        "failure detection cannot be measured; judge them again, or give verdicts on answers it decided")
    elif detection is None:
        warnings.append("no failure in the person's verdicts: the judge's failure detection cannot be measured")
    elif ci[1] < LOW_CERTAINTY:
        warnings.append(f"the judge catches only {percent(detection, LOW_CERTAINTY)} of real failures, at most "
                        f"{percent(ci[1], LOW_CERTAINTY)} by its 95% interval (below {LOW_CERTAINTY:g}): rework its "
                        "prompt, change its model, or check its verdicts by hand")
    elif ci[0] < LOW_CERTAINTY:
        warnings.append(f"cannot tell yet whether the judge catches enough real failures: it caught {caught} of "
                        f"{failures} (95% CI {percent_interval(ci, LOW_CERTAINTY)}, reaching below {LOW_CERTAINTY:g}); "
                        "label more failing answers")
    fail_share = a["human_fail_share"]
    if fail_share is not None and min(fail_share, 1 - fail_share) < 0.2:
        warnings.append(f"unbalanced verdicts ({percent(fail_share)} failures): raw agreement misleads; "
                        "read failure detection and kappa instead")
    return warnings


def percent_interval(ci, line=None):
    """'38–96%'; read against a line, each end with the digits that keep it on its side."""
    if line is None:
        return interval(ci)
    return f"{percent(ci[0], line)[:-1]}–{percent(ci[1], line)}"


def rate_with_interval(count, total, ci, line=None):
    """'4/5 = 80% (95% CI 38–96%)'."""
    if not total:
        return f"{count}/{total} = -"
    return f"{count}/{total} = {percent(count / total, line)} (95% CI {percent_interval(ci, line)})"


def kappa_text(a):
    """Kappa with its interval, said to be a large-sample one, and rough below KAPPA_FEW answers."""
    if a["kappa"] is None:
        return "-"
    if a["kappa_ci"] is None:
        t = a["table"]
        one_sided = not (t["human_fail"]["judge_fail"] + t["human_fail"]["judge_pass"]) or not (
            t["human_pass"]["judge_fail"] + t["human_pass"]["judge_pass"]) or not (
            t["human_fail"]["judge_fail"] + t["human_pass"]["judge_fail"]) or not (
            t["human_fail"]["judge_pass"] + t["human_pass"]["judge_pass"])
        why = ("the person or the judge gave one verdict only, so kappa has nothing to measure" if one_sided else
               "no answer is disagreed on, and the large-sample formula needs some disagreement")
        return f"{a['kappa']:.2f} (no interval: {why})"
    low, high = a["kappa_ci"]
    rough = f", rough on {a['pairs']} answers" if a["pairs"] < KAPPA_FEW else ""
    return f"{a['kappa']:.2f} (95% CI {low:.2f} to {high:.2f}, a large-sample approximation{rough})"


def format_calibration(report):
    out = []
    for check, a in report.items():
        t = a["table"]
        # failure detection is read against the line its warnings use: its figures keep to their side
        detection = rate_with_interval(t["human_fail"]["judge_fail"], sum(t["human_fail"].values()),
                                       a["failure_detection_ci"], LOW_CERTAINTY)
        retention = rate_with_interval(t["human_pass"]["judge_pass"], sum(t["human_pass"].values()), a["pass_retention_ci"])
        out += [f"Check {check!r}: {plural(a['pairs'], 'answer')} judged by a person"
                + (f" ({a['undecided']} more where the judge gave no verdict)" if a["undecided"] else ""),
                f"  Failure detection: {detection}: real failures the judge fails",
                f"  Pass retention:    {retention}: real passes the judge leaves alone",
                f"  Raw agreement:     {percent(a['agreement'])}",
                f"  Cohen's kappa:     {kappa_text(a)}", ""]
        out += table([["", "judge fail", "judge pass"],
                      ["human fail", t["human_fail"]["judge_fail"], t["human_fail"]["judge_pass"]],
                      ["human pass", t["human_pass"]["judge_fail"], t["human_pass"]["judge_pass"]]])
        out += [f"  WARNING: {w}" for w in a["warnings"]] + [""]
    return "\n".join(out).rstrip()


def judge_audit(config, cases, run_path, human=None):
    """Per judge check: verdicts by answer-length quarter with the rank correlation, each judge's
    pass rate (and whether it shares the judged model's family), and split votes; then the flip rate
    of every pairwise comparison stored beside the run. human: a person's verdicts, when calibrating."""
    judged = sorted({name for c in cases for t in c["trials"] for name in t["judged"]})
    position = stored_flip_rates(kept_beside(own_name(run_path), PAIRWISE_SUFFIX), file_sha(run_path))
    if not judged and not position["comparisons"]:
        stale = " (those stored there are of another version of the run file)" if position["stale"] else ""
        raise EvalError("the run holds no judge verdict to audit: it has no judge check, or its judge was never "
                        f"asked ({judge_command(run_path, config)} asks it), and no pairwise comparison is stored beside it{stale}")
    family = config.get("model_family") or model_family(config["model"], {})
    checks = {}
    for name in judged:
        rows = [(len(answer_of(t["response"]) or ""), c["id"], t["trial"], t["judged"][name])
                for c in cases for t in c["trials"] if name in t["judged"]]
        decided = [r for r in rows if r[3]["pass"] is not None]
        checks[name] = {"answers": len(rows), "verbosity": length_bias(decided, human, name),
                        "judges": judge_rates(rows, config["model"], family), "consistency": vote_consistency(rows)}
    return {"model": config["model"], "family": family, "checks": checks, "position": position}


def length_bias(rows, human, check):
    """Verdicts by answer length: pass rate per quarter (shortest first) and Spearman's correlation of
    length with the verdict; with a person's verdicts, theirs beside the judge's."""
    rows = sorted(rows, key=lambda r: (r[0], r[1], r[2]))
    labelled = [(r[0], human[r[1], r[2], check]) for r in rows if human and (r[1], r[2], check) in human]
    n, quarters = len(rows), []
    cuts = quarter_cuts([r[0] for r in rows])
    for q in range(4):
        part = rows[cuts[q]:cuts[q + 1]]
        people = [human[r[1], r[2], check] for r in part if human and (r[1], r[2], check) in human]
        quarters.append({"chars": [part[0][0], part[-1][0]] if part else None, "total": len(part),
                         "passed": sum(r[3]["pass"] for r in part),
                         "human_total": len(people), "human_passed": sum(people)})
    rho = spearman([r[0] for r in rows], [int(r[3]["pass"]) for r in rows])
    human_rho = spearman([x for x, _ in labelled], [int(h) for _, h in labelled]) if human else None
    ci, human_ci = spearman_interval(rho, n), spearman_interval(human_rho, len(labelled))
    return {"answers": n, "quarters": quarters, "even": cuts == [q * n // 4 for q in range(5)], "spearman": rho, "spearman_ci": None if ci[0] is None else list(ci),
            "human_spearman": human_rho, "human_spearman_ci": None if human_ci[0] is None else list(human_ci),
            "reading": length_reading(n, quarters, (rho, *ci), (human_rho, *human_ci), bool(labelled))}


def quarter_cuts(lengths):
    """Where the sorted lengths are cut into four quarters: at each quarter's share of the count,
    moved to the nearer edge of the run of equal lengths it would fall in. Answers of one length
    stay in one quarter (cut by case id, two quarters shared a length and showed a gradient that
    was only the ids' order); the quarters are then uneven, and one may be empty."""
    n = len(lengths)
    cuts = [0]
    for q in (1, 2, 3):
        at = q * n // 4
        if 0 < at < n and lengths[at - 1] == lengths[at]:
            start, end = bisect.bisect_left(lengths, lengths[at]), bisect.bisect_right(lengths, lengths[at])
            at = start if at - start < end - at else end
        cuts.append(at)
    return cuts + [n]


def filled_quarters(quarters):
    return [q for q in quarters if q["total"]]


def rho_text(rho, low, high):
    """'+0.05, 95% CI -0.34 to +0.42': the ends, read against 0 and ±LENGTH_SLIGHT, with the digits
    that keep them on their side of both."""
    def end(x):
        return max((beside(x, line, lambda v, d: f"{v:+.{d}f}", digits=(2, 3, 4, 6))
                    for line in (0, -LENGTH_SLIGHT, LENGTH_SLIGHT)), key=len)
    return f"{rho:+.2f}" + ("" if low is None else f", 95% CI {end(low)} to {end(high)}")


def length_reading(n, quarters, judge, people, labelled):
    """judge, people: (rho, low, high) of the judge's verdicts and of people's. The reading follows
    the interval: a bias is named only when it leaves out 0, 'little sign' only when it lies within
    ±LENGTH_SLIGHT, and anything between is too few answers to tell."""
    (rho, low, high), (human_rho, human_low, human_high) = judge, people
    # a rho of ±1 has no interval (spearman_interval): every pass on one side of every fail is read as its sign
    low, high = (rho, rho) if low is None and rho is not None and abs(rho) >= 1 else (low, high)
    if n < AUDIT_FEW:
        return f"too few judged answers ({n}) to read a length effect"
    short_q, long_q = filled_quarters(quarters)[0], filled_quarters(quarters)[-1]
    if short_q is long_q:   # one length, every answer in one quarter: lengths, not verdicts, never change
        return (f"every answer has the same length ({short_q['chars'][0]} characters): a length bias cannot be "
                f"measured (the judge passes {count_percent(short_q['passed'], short_q['total'])})")
    if rho is None:
        return "every verdict is the same: length cannot sway what never changes"
    long_rate, short_rate = (percent(rate(q["passed"], q["total"])) for q in (long_q, short_q))
    if short_q is quarters[0] and long_q is quarters[-1]:
        said = f"the judge passes {long_rate} of the longest quarter and {short_rate} of the shortest"
    else:   # an end quarter is empty (its share went to a neighbour of the same length): name the lengths read
        said = (f"the judge passes {long_rate} of the longest answers ({long_q['chars'][0]}–{long_q['chars'][1]} "
                f"characters) and {short_rate} of the shortest ({short_q['chars'][0]}–{short_q['chars'][1]})")
    said += f" (Spearman {rho_text(*judge)})"
    if labelled and human_rho is not None:
        # A gap is claimed only where the two intervals do not overlap. Cautious (the correlations
        # share answers, so their difference varies less than the two intervals suggest) and simple
        # to check by eye; a gap the intervals cannot carry is said to be too few answers
        gap = rho - human_rho
        apart = human_low is not None and (low > human_high or high < human_low)
        return said + (f"; people's verdicts give {rho_text(*people)}: "
                       + ("the judge follows length as people do" if abs(gap) <= LENGTH_SLIGHT else
                          "too few answers to tell whether the judge follows length more or less than people do"
                          if not apart else
                          "the judge rewards length more than people do" if gap > 0 else
                          "the judge rewards length less than people do"))
    if low > 0:
        return said + (": longer answers pass more often; a length bias unless they really are better "
                       "(a person's verdicts tell: calibrate --audit)")
    if high < 0:
        return said + ": shorter answers pass more often; read some long ones it failed"
    if -LENGTH_SLIGHT <= low and high <= LENGTH_SLIGHT:
        return said + ": little sign that length sways it"
    return said + ": too few answers to rule out a length effect"


def judge_rates(rows, judged_model, family):
    """Each judge model's pass rate over the answers it decided, and whether it is of the judged
    model's family (a judge tends to favour its own): the family the run recorded, else the name's."""
    rates = {}
    for _, _, _, verdict in rows:
        for model, said in verdict["models"].items():
            same = model == judged_model or model_family(model, {}) == family
            r = rates.setdefault(model, {"passed": 0, "total": 0, "same_family": same})
            if said is not None:
                r["passed"] += said
                r["total"] += 1
    return rates


def vote_consistency(rows):
    """With several votes per judge: the answers where a judge's own votes split, those under the
    certainty threshold (already listed as doubtful), and those where the panel's judges disagree."""
    def named(r):
        return trial_name(r[1], r[2], r[2] != 1)
    certain = [r for r in rows if r[3]["certainty"] is not None]
    return {"answers": len(rows), "split": [named(r) for r in rows if r[3]["split"]],
            "low_certainty": [named(r) for r in certain if r[3]["certainty"] < LOW_CERTAINTY],
            "panel_split": [named(r) for r in rows if r[3]["disagree"]]}


def stored_flip_rates(path, run_sha):
    """The flip rate of every pairwise comparison stored in a sidecar: how often the judge preferred
    a position rather than an answer. Comparisons made on another version of the run file (one
    run again under the same name) are not its answers: counted apart, not read."""
    found, stale = [], 0
    for comparison in read_pairwise(path):
        if comparison["candidate_sha"] != run_sha:
            stale += 1
            continue
        by_pair = {}
        for v in comparison["verdicts"]:
            by_pair.setdefault((v["id"], v["trial"]), []).append(v)
        outcomes = [pairwise_outcome(votes, comparison["judge"])[0] for votes in by_pair.values()]
        decided = [o for o in outcomes if o is not None]
        found.append({"baseline": comparison.get("baseline"), "criterion": comparison["judge"].get("criterion"),
                      "models": comparison["judge"].get("models"), "flips": decided.count("flip"),
                      "decided": len(decided), "flip_rate": rate(decided.count("flip"), len(decided))})
    return {"file": path, "comparisons": found, "stale": stale}


def format_audit(audit, config, run_path):
    votes = judge_votes_of(config)
    out = [f"Judge audit: the judged model is {on_one_line(audit['model'])} (family {on_one_line(audit['family'])})"]
    for name, a in audit["checks"].items():
        v = a["verbosity"]
        out += ["", f"Check {inert(name)!r} ({plural(v['answers'], 'answer')} with a verdict of {a['answers']} judged):"]
        if a["answers"] > v["answers"]:
            out.append(f"  No verdict on {plural(a['answers'] - v['answers'], 'answer')} (an unreadable answer from the judge, one cut at "
                       "its token limit, a failed call, or votes that tied): the figures below leave them out")
        out.append(f"  Length: {v['reading']}")
        if v["answers"] >= AUDIT_FEW and len(filled_quarters(v["quarters"])) > 1:
            people = any(q["human_total"] for q in v["quarters"])
            rows = [["quarter", "characters", "judge passes"] + (["people pass"] if people else [])]
            for label, q in zip(("shortest", "second", "third", "longest"), v["quarters"]):
                if not q["total"]:   # its share of answers went to a neighbour with the same length
                    rows.append([label, "-", "-"] + (["-"] if people else []))
                    continue
                rows.append([label, f"{q['chars'][0]}–{q['chars'][1]}", count_percent(q["passed"], q["total"])]
                            + ([count_percent(q["human_passed"], q["human_total"]) if q["human_total"] else "-"]
                               if people else []))
            out += ["  " + line for line in table(rows, align_right_from=99)]
            if not v["even"]:
                out.append("    (answers of one length stay in one quarter: the quarters are uneven)")
        for model, r in a["judges"].items():
            same = " · same family as the judged model: it may go easy on it" if r["same_family"] else ""
            out.append(f"  Judge {on_one_line(model)}: passes {count_percent(r['passed'], r['total'])}{same}")
        if len(a["judges"]) > 1 and any(r["same_family"] for r in a["judges"].values()) and not all(
                r["same_family"] for r in a["judges"].values()):
            out.append("  (compare the same-family judge's rate with the others': a gap on the same answers is "
                       "self-preference, or a stricter judge)")
        c = a["consistency"]
        if votes > 1:
            out.append(f"  Self-consistency ({votes} votes each): {count_percent(len(c['split']), c['answers'])} of "
                       f"answers split their votes; {len(c['low_certainty'])} under certainty {LOW_CERTAINTY:g} "
                       "(already listed as doubtful)" + (f": {', '.join(c['low_certainty'])}" if c["low_certainty"] else ""))
            if c["answers"] and len(c["split"]) / c["answers"] > UNSURE_SHARE:
                out.append("  The judge disagrees with itself on more than one answer in five: treat its verdicts "
                           "as unsure, and calibrate it or change it before trusting its rate")
        else:
            # more votes at T=0 repeat the first: a temperature of 0.7 unless the judge had one
            more = {"votes": 3, **({} if (config.get("judge") or {}).get("temperature") else {"temperature": 0.7})}
            out.append(f"  Self-consistency: one vote per judge, nothing to measure "
                       f"({judge_command(run_path, config, **more)} asks again)")
        if len(a["judges"]) > 1:
            out.append(f"  Panel: the judges disagree on {count_percent(len(c['panel_split']), c['answers'])} of answers"
                       + (f": {', '.join(c['panel_split'])}" if c["panel_split"] else ""))
    position = audit["position"]
    stale = (f" ({plural(position['stale'], 'comparison')} stored for another version of this run file, not read)"
             if position["stale"] else "")
    if position["comparisons"]:
        out += ["", f"Position (pairwise comparisons stored in {position['file']}){stale}:"]
        for p in position["comparisons"]:
            out.append(f"  against {inert(p['baseline'] or '?')}, judge {inert(', '.join(p['models'] or []))}: "
                       f"{count_percent(p['flips'], p['decided'])} of pairs flipped with the order"
                       f" (criterion: {one_line(inert(p['criterion'] or ''), 50)})")
    else:
        out += ["", f"Position: no pairwise comparison stored beside this run ({position['file']}){stale}; "
                    "compare BASELINE RUN --pairwise CRITERION makes one"]
    return "\n".join(out)



# ---------------------------------------------------------------------------
# 13. Pages: `report --html` and `compare --html` write one self-contained file to look at, send or
#     attach to a CI run: inline CSS, SVG charts drawn here, and a small script that only sorts
#     and filters tables, under a Content-Security-Policy that forbids everything else (no request
#     leaves the page). Every figure is also written as text, so the page reads with scripts off.
#     Whatever came from a run reaches the page through esc(): it is shown as text, never markup.

class Markup(str):
    """HTML made here, from escaped parts: put in a page as it is. Any other value is escaped."""


def esc(value):
    """Any value as HTML text: markup escaped, control and bidi-override characters shown as
    codes (\\u202e), so text from a run can neither run nor reorder the page around it."""
    return value if isinstance(value, Markup) else Markup(html.escape(inert(str(value)), quote=True))


def scale(share, width=CHART_WIDTH):
    """A share (0 to 1) as pixels along a plot, clamped: no figure draws outside its chart."""
    if share is None or not isfinite(share):
        return 0.0
    return round(min(1.0, max(0.0, share)) * width, 1)


def svg_text(text, x, y, cls, anchor="start", limit=CHART_NAME_CHARS):
    """A name drawn in a chart, cut to fit, the whole of it in a tooltip."""
    cut = text if len(text) <= limit else text[:limit - 1] + "…"
    return (f'<text class="{cls}" x="{x}" y="{y}" text-anchor="{anchor}"><title>{esc(text)}</title>'
            f'{esc(cut)}</text>')


def interval_chart(rows, caption):
    """Bars with their 95% intervals drawn as whiskers, on one 0–100% axis. rows: {"name", "value",
    "ci": [low, high], "kind": a CSS class, "thin": marked as a small slice}; a row without a value
    (nothing scored) is named and left without a bar, never drawn as 0."""
    if not rows:
        return Markup(f'<p class="empty">{esc(caption)}: nothing to draw.</p>')
    top, left = 24, CHART_NAME
    height, width = top + CHART_ROW * len(rows) + 6, CHART_NAME + CHART_WIDTH + 96
    out = [f'<svg class="chart" role="img" aria-label="{esc(caption)}" viewBox="0 0 {width} {height}" '
           f'width="{width}" height="{height}" xmlns="http://www.w3.org/2000/svg">']
    for tick in (0, 0.25, 0.5, 0.75, 1):
        x = left + scale(tick)
        out.append(f'<line class="grid" x1="{x}" y1="{top - 4}" x2="{x}" y2="{height - 2}"/>'
                   f'<text class="tick" x="{x}" y="{top - 9}" text-anchor="middle">{tick:.0%}</text>')
    for i, row in enumerate(rows):
        y = top + i * CHART_ROW
        mid = y + CHART_ROW / 2
        out.append(f'<g class="row{" thin" if row.get("thin") else ""}">'
                   + svg_text(row["name"], left - 8, mid + 4, "name", "end"))
        if row["value"] is None:
            out.append(f'<text class="value" x="{left + 4}" y="{mid + 4}">no verdict to count</text></g>')
            continue
        out.append(f'<rect class="bar {esc(row.get("kind", ""))}" x="{left}" y="{y + 6}" '
                   f'width="{scale(row["value"])}" height="{CHART_ROW - 12}"/>')
        low, high = row.get("ci") or (None, None)
        if low is not None:
            x1, x2 = left + scale(low), left + scale(high)
            out.append(f'<path class="ci" d="M{x1} {mid}H{x2}M{x1} {mid - 6}V{mid + 6}M{x2} {mid - 6}V{mid + 6}"/>')
        mark = " *" if row.get("thin") else ""
        out.append(f'<text class="value" x="{left + CHART_WIDTH + 8}" y="{mid + 4}">{percent(row["value"])}{mark}</text></g>')
    out.append("</svg>")
    note = (f'<p class="note">* fewer than {SMALL_SLICE} cases: too few to read much into.</p>'
            if any(r.get("thin") for r in rows) else "")
    return Markup("".join(out) + note)


def heat_map(confusion, caption):
    """The confusion matrix as a heat map: rows expected, columns predicted, each cell's count
    written in it and shaded by its share of the row (the diagonal green, the rest red)."""
    rows = list(confusion)
    columns = list(next(iter(confusion.values()))) if rows else []
    if not rows or not columns:
        return Markup(f'<p class="empty">{esc(caption)}: nothing to draw.</p>')
    top, left = 96, CHART_NAME
    width, height = left + CELL * len(columns) + 80, top + CELL * len(rows) + 24   # the last name leans right
    out = [f'<svg class="chart heat" role="img" aria-label="{esc(caption)}" viewBox="0 0 {width} {height}" '
           f'width="{width}" height="{height}" xmlns="http://www.w3.org/2000/svg">',
           f'<text class="axis" x="{left}" y="12">predicted →</text>',
           f'<text class="axis" x="{left - 8}" y="{top - 6}" text-anchor="end">expected ↓</text>']
    for j, column in enumerate(columns):
        x, y = left + j * CELL + CELL / 2 + 4, top - 8
        out.append(f'<g transform="rotate(-40 {x} {y})">{svg_text(column, x, y, "name", limit=14)}</g>')
    for i, expected in enumerate(rows):
        y = top + i * CELL
        total = sum(confusion[expected].values())
        out.append(svg_text(expected, left - 8, y + CELL / 2 + 4, "name", "end"))
        for j, predicted in enumerate(columns):
            n = confusion[expected][predicted]
            share = n / total if total else 0.0
            x = left + j * CELL
            kind = "hit" if expected == predicted else "miss"
            out.append(f'<rect class="cell {kind}" x="{x}" y="{y}" width="{CELL - 2}" height="{CELL - 2}" '
                       f'fill-opacity="{0.06 + 0.94 * share:.2f}"><title>{esc(expected)} → {esc(predicted)}: {n}</title></rect>'
                       f'<text class="count{" strong" if share > 0.55 else ""}" x="{x + CELL / 2 - 1}" '
                       f'y="{y + CELL / 2 + 5}" text-anchor="middle">{n}</text>')
    out.append("</svg>")
    return Markup("".join(out))


def html_table(header, rows, sortable=True, table_id=None, numeric_from=99, widths=None, keyed=False):
    """A table of text (escaped here) or Markup cells. A cell may be (shown, sort key) so that a
    column of '22/25 = 88%' sorts by the rate. With sortable, the script sorts by a header click.
    keyed (or no header): the first column holds eval.py's own names, kept on one line. widths: a
    class per column (col.id, .short, .mid, .wide in PAGE_STYLE), for the tables of whole answers,
    laid out fixed so that no answer can widen the page."""
    classes = ["sortable"] * sortable + ["kv"] * (header is None or keyed) + ["fixed"] * bool(widths)
    cls = f' class="{" ".join(classes)}"' if classes else ""
    ident = f' id="{table_id}"' if table_id else ""
    out = [f"<table{cls}{ident}>"]
    if widths:
        out.append("<colgroup>" + "".join(f'<col class="{w}">' for w in widths) + "</colgroup>")
    if header is not None:
        out.append("<thead><tr>" + "".join(f"<th>{esc(h)}</th>" for h in header) + "</tr></thead>")
    out.append("<tbody>")
    for row in rows:
        attributes = ""
        if isinstance(row, dict):   # {"cells": [...], "id": anchor, "class": ...}
            attributes = "".join(f' {k}="{esc(row[k])}"' for k in ("id", "class") if row.get(k))
            row = row["cells"]
        cells = []
        for i, cell in enumerate(row):
            shown, key = cell if isinstance(cell, tuple) else (cell, None)
            sort = f' data-sort="{esc(key)}"' if key is not None else ""
            num = ' class="n"' if i >= numeric_from else ""
            cells.append(f"<td{num}{sort}>{esc('-' if shown is None else shown)}</td>")
        out.append(f"<tr{attributes}>" + "".join(cells) + "</tr>")
    return Markup("".join(out) + "</tbody></table>")


def filter_box(table_id, what):
    """A text filter over a table's rows: hidden until the script shows it, so with scripts off
    the page has no control that does nothing (and every row shows)."""
    return Markup(f'<p class="filter" hidden><input type="search" data-filter="{table_id}" '
                  f'placeholder="filter {esc(what)}" aria-label="filter {esc(what)}"> <span class="count"></span></p>')


def pre(text):
    return Markup(f"<pre>{esc('' if text is None else text)}</pre>")


def section(title, *parts, ident=None):
    anchor = f' id="{ident}"' if ident else ""
    return Markup(f"<section{anchor}><h2>{esc(title)}</h2>" + "".join(esc(p) for p in parts if p) + "</section>")


def class_of(cls):
    return f' class="{cls}"' if cls else ""


def paragraph(text, cls=None):
    return Markup(f"<p{class_of(cls)}>{esc(text)}</p>")


def bullet_list(items, cls=None):
    if not items:
        return Markup("")
    return Markup(f"<ul{class_of(cls)}>" + "".join(f"<li>{esc(i)}</li>" for i in items) + "</ul>")


def asked_html(result):
    """What the model was asked (asked()), as a page shows it; the answer beside it is the next turn."""
    what = asked(result)
    if not what["messages"]:
        return pre(what["input"])
    return Markup("".join(f'<div class="turn">{esc(t["role"])}</div>{pre(t["content"])}' for t in what["messages"]))


def case_link(case_id, anchors):
    """A case's id, linking to its row on the page when it has one (anchors: id -> our own
    'case-N': never an id from the run, which may hold anything)."""
    return Markup(f'<a href="#{anchors[case_id]}">{esc(case_id)}</a>') if case_id in anchors else esc(case_id)


def config_rows(config, path):
    """The head of a page: everything that produced the run, hashes whole."""
    digest = config.get("model_digest")
    trials = f" · {config['repeat']} trials per case" if config["repeat"] > 1 else ""
    think = config.get("think", THINK_DEFAULT)
    extras = [f"format {config['format']}"] if config.get("format") else []
    extras += [f"think {THINK_FLAGS[think]}"] if think != THINK_DEFAULT else []
    rows = [["run file", path],
            ["model", config["model"] + (f" · digest {digest}" if isinstance(digest, str) else "")],
            ["prompt", f"{config['prompt']} · sha256 {config['prompt_sha']}"],
            ["split", f"{config['split']} · sha256 {config['split_sha']}{subset_text(config)}"],
            ["sampling", f"temperature {config['temperature']:g} · seed {config['seed']}{trials}"],
            ["options", " · ".join([json_text(config.get("options") or {})] + extras)]]
    if config.get("judge"):
        j = config["judge"]
        rows.append(["judge", f"{', '.join(j.get('models', []))} · {j.get('votes', 1)} vote(s) · "
                              f"temperature {json_text(j.get('temperature', 0))}"])
    server = " · ".join(str(config[k]) for k in ("api", "host", "server_version") if config.get(k))
    rows += [["server", server or "-"], ["date", config.get("date", "-")], ["eval.py", config.get("eval_version", "-")]]
    return rows


def ci_detail(ci):
    """'95% CI 53–85%' beside a figure; nothing where it has no interval (one case with trials)."""
    return f"95% CI {interval(ci)}" if ci and ci[0] is not None else ""


def stat(name, figure, detail=""):
    return Markup(f'<div class="stat"><div class="k">{esc(name)}</div><div class="v">{esc(figure)}</div>'
                  f'<div class="d">{esc(detail)}</div></div>')


def check_reason(check, trial, result):
    """Why a check failed on an answer, in words a reader can act on."""
    kind = check["type"]
    if kind == "faithful":
        score, unsupported = faithful_reading(result, trial, check)
        if unsupported:
            return (f"{percent(score)} of its claims supported; " if score is not None else "") + "; ".join(
                f"unsupported: {c['claim']} ({c['why']})" for c in unsupported)
    if kind in JUDGE_CHECKS:
        reasons = [f"{v['model']}: {v.get('reason') or v.get('error') or 'no reason given'}"
                   for v in trial["votes"] or [] if v["check"] == check["name"] and v.get("pass") is False]
        return "; ".join(reasons) or "the judge said it fails"
    if kind == "label":
        return f"expected {result.get('expected')}, got {trial['predicted']}"
    if kind == "max_latency_ms":
        return f"took {result.get('latency_ms')} ms, more than {check['value']:g}"
    if kind == "json":
        return "not JSON" + (" matching its schema" if check.get("schema") else "")
    if kind == "equals_expected":
        return f"is not exactly {result.get('expected')!r}"
    if kind in TRAJECTORY:
        return trajectory_reason(check, tool_calls_of(result), result.get("tools"))
    return f"{kind} {check['value']!r}"


def trajectory_reason(check, calls, tools):
    """Why a trajectory check failed, naming the calls at fault."""
    kind, value, made = check["type"], check.get("value"), ", ".join(c["name"] for c in calls) or "none"
    if kind == "tool_called":
        return f"never called {value}" + (f" with {json_text(check['arguments'])}" if "arguments" in check else "") + \
            f" (calls: {made})"
    if kind == "tool_not_called":
        return f"called {value}, which it must not: " + "; ".join(call_text(c) for c in calls if c["name"] == value)
    if kind == "tool_order":
        return f"did not call {' > '.join(value)} in that order (calls: {made})"
    if kind == "max_tool_calls":
        return f"made {len(calls)} calls, more than {value}"
    return "; ".join(f"{call_text(c)}: {call_problem(c, tools)}" for c in calls if call_problem(c, tools))


def trial_answers(case, results):
    """Every trial's raw answer, whole, as the page shows it under a case."""
    parts = []
    for t in case["trials"]:
        r = results[case["id"], t["trial"]]
        head = f"trial {t['trial']}: {trial_verdict(t)}" if len(case["trials"]) > 1 else ""
        if r.get("thinking"):
            head += (" · " if head else "") + f"thinking ({len(r['thinking'])} characters) sent apart, not scored"
        body = f"ERROR: {t['error']}" if t["error"] else t["response"]
        if r.get("transcript") is not None and not t["error"]:   # an agent: its turns, the answer last
            body = "\n".join(line[2:] for line in turn_lines(transcript_turns(r, case["checks"], t["checks"]),
                                                               r.get("out_of_turns")))
        parts.append((f'<div class="trial">{esc(head)}</div>' if head else "") + pre(body))
    return Markup("".join(parts))


def passages_html(case, trial):
    """RAG: a failing case's passages beside its answer on the page (passages_beside), or nothing."""
    seen = passages_beside(case, trial or case["trials"][0])
    if not seen:
        return Markup("")
    mark = {None: "", True: " · relevant", False: " · not relevant"}
    out = [f'<div class="trial">passages, in rank order{"" if seen["passages"] else ": none retrieved"}</div>']
    out += [f'<div class="trial">[{n}] {esc(p["id"])}{mark[p["relevant"]]}</div>' + pre(p["text"])
            for n, p in enumerate(seen["passages"], 1)]
    out += [paragraph("relevant, not retrieved: " + ", ".join(seen["missing"]), "warn")] if seen["missing"] else []
    out += [paragraph(f"unsupported claim ({u['check']}): {u['claim']} ({u['why']})", "warn") for u in seen["unsupported"]]
    return Markup("".join(out))


def failure_rows(s, failing, results, annotated, anchors):
    """One row per failing case (those the report's rows list): what it was asked, what was
    expected, what came back (whole), and why it failed."""
    rows = []
    for c in failing:
        first = results[c["id"], c["trials"][0]["trial"]]
        wrong = [t for t in c["trials"] if t["correct"] is False]
        if "baseline" in s:
            why = " | ".join(t["predicted"] or "-" for t in c["trials"] if t["correct"] is not None)
            middle = [c["expected"], why]
        else:
            by_name = {check["name"]: check for check in c["checks"]}
            reasons = sorted({f"{name}: {check_reason(by_name[name], t, results[c['id'], t['trial']])}"
                              for t in wrong for name, ok in t["checks"].items() if ok is False})
            middle = [Markup("<br>".join(esc(r) for r in reasons) or "-")]
        rows.append({"id": anchors[c["id"]], "cells": [case_link(c["id"], anchors), c["difficulty"], *middle,
                                                        Markup(asked_html(first) + passages_html(c, wrong[0] if wrong else None)),
                                                        trial_answers(c, results),
                                                        "; ".join(annotated.get(c["id"], []))]})
    header = (["id", "difficulty", "expected", "normalized"] if "baseline" in s else ["id", "difficulty", "failed checks and why"])
    return header + ["input (or conversation)", "raw answer, whole", "annotation (review)"], rows


def annotation_table(annotations, anchors):
    """The annotations typed in review, most frequent first, each with links to its cases."""
    by_text = {}
    for key, entry in annotations.items():
        by_text.setdefault(entry["text"], []).append(answer_key_parts(key)[0])
    rows = [[text, (n, n), Markup(", ".join(case_link(i, anchors) for i in dict.fromkeys(sorted(by_text[text]))))]
            for text, n in annotation_counts(annotations)]
    return html_table(["annotation", "answers", "cases"], rows)


def annotations_by_case(annotations, cases, repeat):
    """The annotations typed in review, by case id (each trial's, 'trial 2: ...' with trials),
    only those on an answer of this run, and the keys of those that name no answer of it."""
    by_case, strays = {}, stray_annotations(annotations, cases)
    left_out = set(strays)
    for key, entry in annotations.items():
        if key in left_out:
            continue
        case_id, trial = answer_key_parts(key)
        by_case.setdefault(case_id, []).append(f"trial {trial}: {entry['text']}" if repeat > 1 else entry["text"])
    return by_case, strays


def report_page(path, run, cases, s, annotations):
    """The run report as one HTML page: the rows of report_rows(), formatted, and each failing
    case's answers whole."""
    config = run["config"]
    rows = report_rows(config, s)
    results = {(r["id"], r["trial"]): r for r in run["results"]}
    annotated, strays = annotations_by_case(annotations, cases, config["repeat"])
    left_out = set(strays)
    annotations = {k: v for k, v in annotations.items() if k not in left_out}
    failing = {f["id"] for f in section_of(rows, "failures")["rows"]}
    # only the cases the page has a row for: the failing ones and those annotated in review
    anchors = {c["id"]: f"case-{i}" for i, c in enumerate(cases) if c["id"] in failing or c["id"] in annotated}
    head, problems, run_sec = (section_of(rows, k) for k in ("headline", "problems", "run"))
    name = head["measure"].capitalize()
    warnings = [problems["rerun"]] if problems["rerun"] else []
    warnings += [rescored_text(run_sec)] if rescored_text(run_sec) else []
    warnings += [f"{figure_text(problems['errors'])} requests got no answer (infrastructure, not scored): "
                 + ", ".join(f"{e['id']} ({e['error']})" for e in problems["failed"][:20])] if problems["failed"] else []
    warnings += [f"{plural(problems['open']['value'], 'answer')} without a verdict from their judge (not scored)"] \
        if problems["open"]["value"] else []
    warnings += [stray_warning(annotations_file(path), strays)] if strays else []
    annotated_sec = section_of(rows, "annotations")
    warnings += [annotated_sec["other_versions"]] if annotated_sec and annotated_sec["other_versions"] else []
    warnings += stopped_short_lines(problems)
    parts = [section("Run", html_table(None, config_rows(config, path), sortable=False)),
             section("Warnings", bullet_list(warnings, "warn")) if warnings else "",
             section(name, Markup('<div class="stats">' + "".join(headline_stats(head, problems)) + "</div>"),
                     paragraph(run_sec["rule"]) if run_sec["rule"] else "",
                     interval_chart(headline_bars(head), f"{name} with its 95% interval"), ident="headline")]
    for key, part in PAGE_SECTIONS:
        sec = section_of(rows, key)
        if sec:
            parts += part(sec, anchors, name)
    if annotations:
        parts.append(section("Annotations (typed in review, most frequent first)", annotation_table(annotations, anchors),
                             ident="annotations"))
    header, table_rows = failure_rows(s, [c for c in cases if c["id"] in failing], results, annotated, anchors)
    parts.append(section(f"Failing cases ({figure_text(section_of(rows, 'failures')['count'])})",
                         filter_box("failures-table", "failing cases") if table_rows else "",
                         html_table(header, table_rows, table_id="failures-table",
                                    widths=["id", "short", *(["short", "short"] if "baseline" in s else ["wide"]),
                                            "wide", "wide", "mid"])
                         if table_rows else paragraph("none"), ident="failures"))
    other = [c for c in cases if c["id"] in annotated and c["id"] not in failing]
    if other:
        other_rows = [{"id": anchors[c["id"]], "cells": [c["id"], verdict_word(c["correct"], "no verdict"),
                                                          trial_answers(c, results), "; ".join(annotated[c["id"]])]}
                      for c in other]
        parts.append(section("Annotated cases that did not fail", html_table(
            ["id", "verdict", "raw answer, whole", "annotation (review)"], other_rows, widths=["id", "short", "wide", "mid"])))
    for key, part in PAGE_LAST:
        sec = section_of(rows, key)
        if sec:
            parts += part(sec, anchors, name)
    return html_page(f"eval.py report: {path}", parts)


def headline_stats(head, problems):
    """The figures at the top of a report page: the bounds first when answers are undecided, then
    the rate on the decided cases (with trials, the mean of each case's pass rate before the
    majority vote)."""
    main, bounds = row_of(head, "main")["figure"], row_of(head, "bounds")
    name = head["measure"].capitalize()
    stats = [stat(f"{name}, bounds", figure_text(bounds["figure"]), bounds_detail(bounds["figure"]["value"]))] if bounds else []
    if head["repeat"] > 1:
        mean = row_of(head, "mean")
        stats.append(stat(f"{name}{', decided answers' if bounds else ''}", figure_text(mean["figure"]),
                          "; ".join(filter(None, (ci_detail(mean["figure"]["ci"]), mean_words(mean))))))
    decided = f" on the {plural(main['of'], 'decided case')}" if bounds and head["repeat"] == 1 else ""
    stats.append(stat(name + (", majority vote of each case's trials" if head["repeat"] > 1 else decided),
                      figure_text(main) if main["of"] else "no answers", f"95% CI {interval(main['ci'])}" if main["of"] else ""))
    base = row_of(head, "baseline")
    if base:
        invalid = row_of(head, "invalid")
        stats.append(stat(f"Majority baseline (always {base['label']}{tied_text(base, str)})", figure_text(base["figure"]),
                          f"95% CI {interval(base['figure']['ci'])}"))
        stats.append(stat("Invalid answers", f"{figure_text(invalid['figure'])} of {figure_text(invalid['of'])}",
                          "matched no label; counted as wrong"))
    if problems["errors"]["value"] or problems["open"]["value"]:
        stats.append(stat("Not scored", f"{figure_text(problems['errors'])} errors · {figure_text(problems['open'])} undecided"))
    return stats


def headline_bars(head):
    """The bars at the top of a report: the headline figure (with trials: the mean per case, then
    the majority vote and each trial) and the majority baseline it must beat. Bounds are no bar:
    the figures above the chart lead with them."""
    name = head["measure"].capitalize()
    main, bounds = row_of(head, "main")["figure"], row_of(head, "bounds")
    bars = []
    if head["repeat"] > 1:
        mean = row_of(head, "mean")["figure"]
        bars.append({"name": f"{name}, mean per case", "value": mean["value"], "ci": mean["ci"], "kind": "main"})
    decided = f", {main['of']} decided" if bounds and head["repeat"] == 1 else ""
    bars.append({"name": name + (", majority vote" if head["repeat"] > 1 else decided), "value": main["value"],
                 "ci": main["ci"], "kind": "vote" if head["repeat"] > 1 else "main"})
    bars += [{"name": f"trial {r['trial']}", "value": r["figure"]["value"], "ci": r["figure"]["ci"], "kind": "trial"}
             for r in head["rows"] if r["name"] == "trial"]
    base = row_of(head, "baseline")
    if base:
        bars.append({"name": f"Majority: always {base['label']}", "value": base["figure"]["value"],
                     "ci": base["figure"]["ci"], "kind": "baseline"})
    return bars


def sorted_by_value(f):
    """A figure as a table cell that sorts by its value."""
    return figure_text(f), f["value"]


def label_part(sec, anchors, name):
    each = " (every trial counted)" if sec["every_trial"] else ""
    rows = [[r["name"], *(sorted_by_value(f) for f in r["figures"][:3]), figure_text(r["figures"][3])] for r in sec["rows"]]
    return [section(f"Per label{each}", html_table(["label", "precision", "recall", "f1", "support"], rows, numeric_from=1),
                    paragraph(f"Confusion matrix: rows are the expected label, columns the one the answer normalized to{each}."),
                    heat_map(sec["confusion"], "confusion matrix"), ident="labels")]


def check_cells(checks):
    return [[r["name"], r["type"], r["role"], sorted_by_value(r["figure"]), r["open"]["value"] or ""] for r in checks]


def check_part(sec, anchors, name):
    parts = []
    header = ["check", "type", "role", "answers passing", "open"]
    if sec["plain_table"]:
        parts.append(section("Checks", html_table(header, check_cells([r for r in sec["rows"] if not r["judge"]])),
                             ident="checks"))
    if "judge" in sec:
        j = sec["judge"]
        review = [doubtful_line(r, sec["repeat"]) for r in j["doubtful"]]
        parts.append(section(
            "Judge checks (an LLM judge: reported apart, as a judge can be wrong)",
            html_table(header, check_cells([r for r in sec["rows"] if r["judge"]])),
            paragraph(f"Judge: {j['models']} · cost: {judge_cost(j, 'calls')}"),
            paragraph(f"Doubtful verdicts, for a person to check ({len(review)}):"), bullet_list(review) or paragraph("none"), ident="judge"))
    return parts


def weighted_part(sec, anchors, name):
    return [section("Weighted score per case", paragraph(sec["rule"]), html_table(
        ["id", "verdict", "score", "threshold", "weighed checks failed"],
        [[case_link(r["name"], anchors), r["verdict"], (r["score_text"], r["score"]), r["threshold"], ", ".join(r["failed"])]
         for r in sec["rows"]]),
        paragraph(f"Failed by a blocking check whatever the score: {', '.join(sec['vetoed'])}") if sec["vetoed"] else "")]


def slice_part(sec, anchors, name):
    """By difficulty or by tag: the bars with their intervals, and the table."""
    bars = [{"name": f"{r['name']} ({r['figure']['of']})",
             "value": r["figure"]["value"], "ci": r["figure"]["ci"], "thin": r["thin"]} for r in sec["rows"]]
    rows = [[r["name"], r["figure"]["of"], sorted_by_value(r["figure"]), interval(r["figure"]["ci"]),
             f"fewer than {SMALL_SLICE} cases" if r["thin"] else ""] for r in sec["rows"]]
    what = "difficulty" if sec["key"] == "by_difficulty" else "tag"
    return [section(f"By {what}", interval_chart(bars, f"{name} by {what}"),
                    html_table(["slice", "cases", "passing", "95% CI", ""], rows),
                    ident="difficulty" if what == "difficulty" else None)]


def trial_part(sec, anchors, name):
    return [section(f"Trials ({sec['repeat']} per case)", html_table(
        ["k", "pass@k (some trial of k passes)", "pass^k (all k pass)", "cases"],
        [[figure_text(f) for f in r["figures"]] for r in sec["rows"]], numeric_from=1),
        paragraph(sec["fewer"]) if sec["fewer"] else "",
        paragraph(f"Flaky cases, whose trials disagree ({len(sec['flaky'])}):"), bullet_list(sec["flaky"]) or paragraph("none"))]


def agent_part(sec, anchors, name):
    """Agents: the two levels with their intervals, turns, each tool, the first failure of each failing case."""
    rows = [[f["id"]] + [f["trial"]] * (sec["repeat"] > 1) + [f["turn"] or "-", cut_to(f["call"] or "-", 80), f["check"] or "-",
                                                              f["what"]] for f in sec["first_failures"]]
    return [section("Agent", interval_chart([{"name": r["name"], "value": r["figure"]["value"], "ci": r["figure"]["ci"]}
                                             for r in sec["rows"]], "Final result and trajectory, with their 95% intervals"),
                    bullet_list([f"{r['name']}: {figure_text(r['figure'])} (95% CI {interval(r['figure']['ci'])})"
                                 for r in sec["rows"]] + [turns_line(sec)]),
                    html_table(["tool", "calls", "cases", "invalid arguments", "no matching result"],
                               [[name_cell(t["name"]), *map(figure_text, t["figures"])] for t in sec["tools"]], numeric_from=1)
                    if sec["tools"] else "",
                    paragraph("First failure of each failing case (the first wrong step; what follows is often its cascade):"),
                    html_table(["id"] + ["trial"] * (sec["repeat"] > 1) + ["turn", "call", "check", "what went wrong"], rows)
                    if rows else paragraph("none"), ident="agent")]


def speed_part(sec, anchors, name):
    return [section("Speed", bullet_list([line.strip() for line in speed_section(sec)[1:]]))]


# The report page's sections between its headline and its annotations, in order.
def retrieval_part(sec, anchors, name):
    """RAG: the retrieval stage's figures, the means drawn with their intervals, each case in a table."""
    labelled = figure_text(sec["labelled"])
    return [section(f"Retrieval (offline, from the passages and the ids labelled relevant; {labelled} cases)",
                    interval_chart([{"name": RETRIEVAL_WORDS[k][0], "value": sec[k]["value"], "ci": sec[k]["ci"]}
                                    for k in ("precision", "recall")], "context precision and recall, 95% intervals"),
                    bullet_list([f"{RETRIEVAL_WORDS[k][0]}: {side_text(sec[k])}: "
                                 f"{RETRIEVAL_WORDS[k][1]}" for k in ("precision", "recall")]
                                + [f"{plural(sec['recall_cases']['value'], 'case')} "
                                   f"{'names' if sec['recall_cases']['value'] == 1 else 'name'} a relevant passage"]),
                    html_table(["id", "passages", "precision", "recall", "relevant, not retrieved"],
                               [[case_link(r["name"], anchors), figure_text(r["passages"]),
                                 (figure_text(r["precision"]), r["precision"]["value"] if r["precision"]["value"] is not None else -1),
                                 (figure_text(r["recall"]), r["recall"]["value"] if r["recall"]["value"] is not None else -1),
                                 figure_text(r["missing"])] for r in sec["rows"]], numeric_from=1),
                    ident="retrieval")]


def retrieval_judged_part(sec, anchors, name):
    lines = retrieval_judged_lines(sec)
    return [section(lines[0].rstrip(":"), paragraph(lines[1].strip()), html_table(
        ["id", "judged precision"], [[case_link(r["name"], anchors), (figure_text(r["precision"]), r["precision"]["value"])]
                                     for r in sec["rows"]], numeric_from=1), ident="retrieval-judged")]


def diagnosis_part(sec, anchors, name):
    return [section("Diagnosis: which stage to fix", paragraph(diagnosis_head(sec)), html_table(
        ["stage", "cases", "which", "what to change"],
        [[r["name"], (figure_text(r["count"]), r["count"]["value"]),
          Markup(", ".join(case_link(i, anchors) for i in r["which"]["value"]) or "-"), r["fix"]] for r in sec["rows"]],
        keyed=True), bullet_list([f"{i}: {why}" for i, why in sec["why"]]), ident="diagnosis")]


PAGE_SECTIONS = [("labels", label_part), ("checks", check_part), ("agent", agent_part), ("weighted", weighted_part),
                 ("by_difficulty", slice_part), ("by_tag", slice_part), ("trials", trial_part), ("speed", speed_part),
                 ("retrieval", retrieval_part), ("retrieval_judged", retrieval_judged_part)]
PAGE_LAST = [("diagnosis", diagnosis_part)]   # after the failing cases: the page's last word, as the report's


class DiffBudgetSpent(Exception):
    """A word diff reached DIFF_WORK steps before it finished."""


class BudgetedMatcher(difflib.SequenceMatcher):
    """difflib's matcher, counting what each search for the longest match may visit (its inner loop
    walks every place in b of every token of a in the range) before it searches: a budget no input
    can overrun, where a cap on the tokens' product let 2,000 tokens of one repeated word take 22 s."""

    def __init__(self, a, b, budget):
        self.work, self.budget = 0, budget
        super().__init__(None, a, b, autojunk=False)

    def find_longest_match(self, alo=0, ahi=None, blo=0, bhi=None):
        ahi, bhi = len(self.a) if ahi is None else ahi, len(self.b) if bhi is None else bhi
        self.work += (ahi - alo) + (bhi - blo)   # the count below, and the match's extension, walk at most these
        if self.work <= self.budget:
            self.work += sum(len(self.b2j.get(x, ())) for x in itertools.islice(self.a, alo, ahi))
        if self.work > self.budget:
            raise DiffBudgetSpent
        return super().find_longest_match(alo, ahi, blo, bhi)


UNMARKED_NOTE = "Too long or too repetitive to compare word by word: both answers are shown unmarked."
WORD = re.compile(r"\w+|[^\w\s]")   # what a word diff weighs: words and marks, never the spaces between them
SPACING_NOTE = "These answers differ only in their spacing (spaces, line breaks), which the marks leave out."


def budgeted_diff(old, new, budget):
    """Two answers as HTML with the words each lacks marked, and the steps the diff took:
    (old, new, work), or (None, None, work) when it would take more than budget. Spaces are not
    weighed (every space matched every other, so ordinary answers ran out of the budget): each
    answer keeps its own between its words, unmarked."""
    texts = [text or "" for text in (old, new)]
    # counted before any list is made, and the count is work spent: more words than the budget are never
    # diffed (the first search alone walks them all), and a 10 MB answer's positions took gigabytes
    counted = sum(1 for _ in itertools.islice(itertools.chain(*map(WORD.finditer, texts)), budget + 1))
    if counted > budget:
        return None, None, counted
    spans = [[m.span() for m in WORD.finditer(text)] for text in texts]
    a, b = ([text[i:j] for i, j in sp] for text, sp in zip(texts, spans))
    matcher = BudgetedMatcher(a, b, budget)
    try:
        opcodes = matcher.get_opcodes()
    except DiffBudgetSpent:
        return None, None, matcher.work
    sides = [marked_side(texts[0], spans[0], [(op, i1, i2) for op, i1, i2, _, _ in opcodes], "del"),
             marked_side(texts[1], spans[1], [(op, j1, j2) for op, _, _, j1, j2 in opcodes], "ins")]
    return *sides, matcher.work


def marked_side(text, spans, runs, tag):
    """One answer as HTML: its text before the first word, then each run of words (op, first,
    past the last) with the spaces after it; a changed run's words (not those spaces) in <tag>."""
    def start(n):
        return spans[n][0] if n < len(spans) else len(text)
    out = [esc(text[:start(0)])]
    for op, lo, hi in runs:
        if lo == hi:
            continue
        if op == "equal":
            out.append(esc(text[start(lo):start(hi)]))
        else:
            end = spans[hi - 1][1]
            out.append(f"<{tag}>{esc(text[start(lo):end])}</{tag}>{esc(text[end:start(hi)])}")
    return Markup(f'<pre>{"".join(out)}</pre>')


def marked_diff(old, new):
    """Two answers as HTML, each with the words the other lacks marked (<del> in the old one,
    <ins> in the new); answers whose diff would take more than DIFF_WORK steps are shown whole,
    unmarked, and the new one's cell says so."""
    left, right, _ = budgeted_diff(old, new, DIFF_WORK)
    return too_costly_pair(old, new) if left is None else (left, right)


def too_costly_pair(old, new):
    return pre(old), Markup(pre(new) + paragraph(UNMARKED_NOTE, "note"))


# The headers of a compare page's per-run tables, by section key.
DETAIL_HEADERS = {"per_label": ("Per label", ["label", "precision: baseline", "candidate", "Δ", "recall: baseline",
                                              "candidate", "Δ"]),
                  "per_check": ("Per check", ["check", "baseline", "candidate", "Δ"]),
                  "per_difficulty": ("Per difficulty", ["difficulty", "baseline", "candidate", "Δ"])}


def detail_sections(rows):
    """Each run's figures on the cases both decided, beside the change, as compare_detail_rows worked them out."""
    def cell(f):
        return (figure_text(f), f["value"]) if f["kind"] == "points" else figure_text(f)
    return [section(f"{DETAIL_HEADERS[sec['key']][0]} (on the {plural(sec['decided'], 'case')} both runs decided)", html_table(
        DETAIL_HEADERS[sec["key"]][1], [[r["name"], *(cell(f) for f in r["figures"])] for r in sec["rows"]],
        numeric_from=1)) for sec in rows]


def changed_case_rows(fixed, broken, a_run, a_cases, b_cases, anchors):
    """A row per trial of each case that changed its outcome: what was asked, and both answers
    with the words that differ marked; and how many pairs the page's budget for word diffs
    (PAGE_DIFF_WORK: each pair had its own, and 200 looping cases took 89 s) left unmarked."""
    a_by_id, b_by_id = {x["id"]: x for x in a_cases}, {x["id"]: x for x in b_cases}
    a_results = {(r["id"], r["trial"]): r for r in a_run["results"]}
    rows, left, unmarked = [], PAGE_DIFF_WORK, 0

    def page_diff(old, new):
        nonlocal left, unmarked
        if left > 0:
            budget = min(DIFF_WORK, left)
            marked_old, marked_new, work = budgeted_diff(old, new, budget)
            left -= work
            if marked_old is not None:
                if (old or "") != (new or "") and "<ins>" not in marked_new and "<del>" not in marked_old:
                    marked_new = Markup(marked_new + paragraph(SPACING_NOTE, "note"))   # else the change looks like none
                return marked_old, marked_new
            if budget == DIFF_WORK:   # the pair's own budget bound: its cell says so
                return too_costly_pair(old, new)
        left, unmarked = 0, unmarked + 1   # the page's is spent: this pair and every one after it shown whole, no search
        return pre(old), pre(new)

    for case_id in fixed + broken:
        a, b = a_by_id[case_id], b_by_id[case_id]
        b_trials = {t["trial"]: t for t in b["trials"]}
        change = "fixed" if case_id in fixed else "broken"
        for t in a["trials"]:
            o = b_trials.get(t["trial"])
            if o is None:
                continue
            old, new = page_diff(t["response"] if t["error"] is None else f"ERROR: {t['error']}",
                                 o["response"] if o["error"] is None else f"ERROR: {o['error']}")
            label = f": {t['predicted']} → {o['predicted']}" if t["predicted"] is not None else ""
            rows.append({"id": anchors[case_id] if t["trial"] == a["trials"][0]["trial"] else None, "class": change,
                         "cells": [trial_name(case_id, t["trial"], len(a["trials"]) > 1), change,
                                   (a["expected"] or "") + label, asked_html(a_results[case_id, t["trial"]]),
                                   Markup(f'<div class="trial">{trial_verdict(t)}</div>{old}'),
                                   Markup(f'<div class="trial">{trial_verdict(o)}</div>{new}')]})
    return rows, unmarked


def unmarked_note(unmarked, pairs):
    """The page's word, once, that its budget for word diffs left pairs unmarked."""
    return paragraph(f"The page's budget for word diffs was spent: {unmarked} of the {pairs} answer pairs are shown "
                     "unmarked (the last ones in the table), with the words that differ not marked.", "note")


def compare_page(paths, runs, graded, c):
    """The comparison as one HTML page: what changed, both figures, the tests in words, and each
    case that changed its outcome with the two answers side by side."""
    (a_path, b_path), (a_run, b_run), (a_cases, b_cases) = paths, runs, graded
    a_cfg, b_cfg = a_run["config"], b_run["config"]
    rows = compare_rows(c, a_path, b_path)
    runs, outcome, figures = (section_of(rows, k) for k in ("runs", "outcome", "figures"))
    fixed, broken = (row_of(outcome, k)["figure"]["value"] for k in ("fixed", "regressions"))
    anchors = {i: f"case-{n}" for n, i in enumerate(fixed + broken)}
    changed = [[r["setting"], r["old"], r["new"]] for r in runs["changed"]]
    parts = [section("Runs", html_table(["", "baseline", "candidate"],
                                        [["run file", a_path, b_path], ["model", a_cfg["model"], b_cfg["model"]],
                                         ["prompt", a_cfg["prompt"], b_cfg["prompt"]],
                                         ["date", a_cfg.get("date", "-"), b_cfg.get("date", "-")],
                                         ["split", f"{a_cfg['split']} · sha256 {a_cfg['split_sha']}",
                                          f"{b_cfg['split']} · sha256 {b_cfg['split_sha']}"]], sortable=False, keyed=True)),
             section("What changed", html_table(["setting", "baseline", "candidate"], changed, sortable=False) if changed
                     else paragraph("Nothing in the configuration: a rerun, so differences are run-to-run variation.")),
             compare_warnings(runs), compare_headline(runs, outcome, figures),
             section("Fixed and broken" + (" (by majority vote of each case's trials)" if figures["majority_vote"] else ""),
                     Markup('<div class="cols">' + id_column("Fixed", fixed, anchors)
                            + id_column("Broken", broken, anchors) + "</div>"),
                     paragraph(f"Stayed right: {figure_text(row_of(outcome, 'stayed_right')['figure'])} · "
                               f"stayed wrong: {figure_text(row_of(outcome, 'stayed_wrong')['figure'])}"
                               + (f" · pass rate rose on {figure_text(row_of(outcome, 'rose')['count'])}, fell on "
                                  f"{figure_text(row_of(outcome, 'fell')['count'])} cases" if figures["majority_vote"] else "")),
                     ident="changes")]
    parts += detail_sections(compare_detail_rows(a_cfg, a_cases, b_cfg, b_cases))
    changed_rows, unmarked = changed_case_rows(fixed, broken, a_run, a_cases, b_cases, anchors)
    parts.append(section(f"Cases that changed ({len(fixed) + len(broken)}), answers side by side",
                         paragraph("Words only the baseline has are struck through; words only the candidate has are "
                                   "underlined and shaded."),
                         unmarked_note(unmarked, len(changed_rows)) if unmarked else "",
                         filter_box("changed-table", "changed cases") if changed_rows else "",
                         html_table(["case", "change", "expected: baseline → candidate", "input", "baseline answer",
                                     "candidate answer"], changed_rows, table_id="changed-table",
                                    widths=["id", "short", "mid", "mid", "wide", "wide"]) if changed_rows else paragraph("none"),
                         ident="changed"))
    speeds = section_of(rows, "speed")["rows"]
    if speeds:
        line = " · ".join(f"{SPEED_WORDS[r['name']][0]} {figure_text(r['figures'][0])} → {figure_text(r['figures'][1])}"
                          for r in speeds)
        parts.append(section("Speed", paragraph(line[:1].upper() + line[1:])))
    trajectory = section_of(rows, "trajectory")["cases"]
    if trajectory:
        parts.append(section(section_of(rows, "trajectory")["heading"], html_table(
            ["case", "what changed", "baseline calls", "candidate calls"],
            [[r["id"], "; ".join(r["changes"]), *r["calls"]] for r in trajectory]), ident="trajectory"))
    if c.get("pairwise"):
        lines = [line.strip() for line in pairwise_lines(c["pairwise"]) if line.strip()]
        parts.append(section("Pairwise judge", paragraph(lines[0]), bullet_list(lines[1:])))
    if section_of(rows, "retrieval_change"):
        lines = [line.strip() for line in retrieval_change_lines(section_of(rows, "retrieval_change"))]
        parts.append(section("Retrieval", paragraph(lines[0]), bullet_list(lines[1:]), ident="retrieval"))
    if section_of(rows, "diagnosis_change"):
        lines = [line.strip() for line in diagnosis_change_lines(section_of(rows, "diagnosis_change"))]
        parts.append(section("Diagnosis: which stage to fix", paragraph(lines[0]), bullet_list(lines[1:]), ident="diagnosis"))
    return html_page(f"eval.py compare: {a_path} → {b_path}", parts)


def compare_warnings(runs):
    notes = [f"{side.capitalize()}: {warning}" for side, warning in runs["warnings"]]
    notes += [shared_text(runs)] if runs["shared"] else \
        [f"Only part of the split was run ({subsets_words(runs['subset'])}): not a full comparison"] if runs["subset"] else []
    return section("Warnings", bullet_list(notes, "warn")) if notes else ""


def compare_headline(runs, outcome, figures):
    """Both runs' figures with their intervals, the difference with its interval, as stats and a
    chart, and the test in words."""
    name = figures["measure"].capitalize()
    base, cand, diff = (row_of(figures, k) for k in ("baseline", "candidate", "difference"))
    fixed, broken = (row_of(outcome, k)["count"] for k in ("fixed", "regressions"))
    bars = [{"name": "Baseline", "value": base["figure"]["value"], "ci": base["figure"]["ci"], "kind": "baseline"},
            {"name": "Candidate", "value": cand["figure"]["value"], "ci": cand["figure"]["ci"], "kind": "main"}]
    readings = [f"Difference, candidate − baseline ({diff['method']}; alpha {diff['alpha']:g}): {diff['reading']}.",
                *([runs["trials"]] if runs["trials"] else []),
                *([detectable_text(row_of(figures, "detectable")) + "."] if row_of(figures, "detectable") else []),
                *([fisher_text(row_of(figures, "fisher")) + "."] if row_of(figures, "fisher") else []),
                f"Identical raw answers: {identical_text(row_of(figures, 'identical'))}."]
    left_out = row_of(outcome, "not_compared")
    if left_out["figure"]["value"]:
        readings.append(f"Not compared ({figure_text(left_out['count'])}, no verdict in a run: an error, or a judge that "
                        f"gave none): {figure_text(left_out['figure'])}")
    errored = row_of(outcome, "errored")
    if errored["figure"]["value"]:
        readings.append(f"Errored ({figure_text(errored['count'])}, {ERRORED_WORDS}): {figure_text(errored['figure'])}")
    invalid = row_of(figures, "invalid")
    vote = " (majority vote)" if figures["majority_vote"] else ""
    d = diff["figure"]["value"]
    stats = (stat("Baseline", figure_text(base["figure"]), ci_detail(base["figure"]["ci"]))
             + stat("Candidate", figure_text(cand["figure"]), ci_detail(cand["figure"]["ci"]))
             + stat("Difference", f"{signed_points(d['estimate'])} pts",
                    f"{level_text(d['level'])}% CI {signed_points(d['low'])} to {signed_points(d['high'])}"
                    if d["low"] is not None else "")
             + stat("Fixed · broken" + vote, f"{figure_text(fixed)} · {figure_text(broken)}")
             + (stat("Invalid answers", invalid_text(invalid, " → ")) if invalid else ""))
    unit = measure_unit(figures, outcome)
    return section(name + unit, Markup(f'<div class="stats">{stats}</div>'),
                   interval_chart(bars, f"{name} of both runs with 95% intervals"), bullet_list(readings), ident="headline")


def id_column(title, ids, anchors):
    return (f"<div><h3>{title} ({len(ids)})</h3>"
            + (bullet_list([case_link(i, anchors) for i in ids]) or paragraph("none")) + "</div>")


PAGE_STYLE = """
:root{color-scheme:light}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1d1d1f;background:#f6f6f4}
header{padding:14px 24px;background:#fff;border-bottom:1px solid #ddd}
h1{font-size:19px;margin:0;overflow-wrap:anywhere}h1 small{color:#666;font-weight:normal}
main{padding:12px 24px;max-width:1280px}
section{background:#fff;border:1px solid #ddd;border-radius:6px;padding:10px 16px 14px;margin:0 0 14px;overflow-x:auto;
overflow-wrap:anywhere}
h2{font-size:16px;margin:4px 0 10px}h3{font-size:14px;margin:4px 0}
table{border-collapse:collapse;margin:6px 0;max-width:100%}
th,td{padding:4px 8px;border-bottom:1px solid #e8e8e4;text-align:left;vertical-align:top;overflow-wrap:anywhere;unicode-bidi:isolate}
th{background:#f3f3f0;font-weight:600}
table.kv td:first-child{white-space:nowrap;color:#555}table.fixed{table-layout:fixed;width:100%}
col.id{width:9em}col.short{width:8em}col.mid{width:13em}col.wide{width:auto}
table.sortable th{cursor:pointer}th[aria-sort=ascending]::after{content:" ▲"}th[aria-sort=descending]::after{content:" ▼"}
td.n{text-align:right;font-variant-numeric:tabular-nums}
pre{white-space:pre-wrap;overflow-wrap:anywhere;margin:0;background:#f3f3f0;border:1px solid #e2e2de;border-radius:4px;
padding:6px;font:12.5px/1.4 ui-monospace,Menlo,Consolas,monospace;max-width:100%;unicode-bidi:isolate}
del{background:#ffd9d6;text-decoration:line-through}ins{background:#c9f2d0;text-decoration:underline}
.stats{display:flex;gap:12px;flex-wrap:wrap;margin-bottom:8px}
.stat{border:1px solid #e2e2de;border-radius:6px;padding:6px 12px;min-width:150px;overflow-wrap:anywhere}
.stat .k{color:#555;font-size:12px}.stat .v{font-size:20px;font-weight:600}.stat .d{color:#555;font-size:12px}
.warn li{color:#8a4b00}.note,.empty{color:#666}.trial,.turn{color:#555;font-size:12px;margin:4px 0 2px}
.cols{display:grid;grid-template-columns:1fr 1fr;gap:16px}
tr.fixed td:nth-child(2){color:#17702b;font-weight:600}tr.broken td:nth-child(2){color:#b3261e;font-weight:600}
:target{outline:2px solid #e0b400}
.filter input{padding:4px 6px;font:inherit;width:22em}.count{color:#666}
svg.chart{display:block;max-width:100%;height:auto;font:12px system-ui,sans-serif;margin:6px 0}
svg .grid{stroke:#e2e2de}svg .tick,svg .axis{fill:#666}svg .name{fill:#1d1d1f}svg .value{fill:#1d1d1f;font-weight:600}
svg .bar{fill:#4a78c2}svg .bar.baseline{fill:#b9b9b4}svg .bar.trial{fill:#9db7e0}svg .row.thin .bar{fill-opacity:.55}
svg .ci{stroke:#1d1d1f;stroke-width:1.5;fill:none}
svg .bar.vote{fill:#7a9bd3}
svg .cell.hit{fill:#1f8a3a}svg .cell.miss{fill:#c0392b}svg .count{fill:#1d1d1f;font-weight:600}svg .count.strong{fill:#fff}
footer{color:#777;padding:0 24px 24px;font-size:12px}
@media (max-width:1000px){col.id{width:6em}col.short{width:5em}col.mid{width:8em}}
@media print{body{background:#fff;font-size:11px}main{padding:0}header{padding:4px 0}
section{border:0;padding:0;overflow:visible;break-inside:auto}.filter{display:none}
col.id{width:6em}col.short{width:5em}col.mid{width:7em}pre{font-size:9.5px;padding:3px}th,td{padding:2px 4px}
tr{break-inside:avoid}tr[hidden]{display:table-row}a{color:inherit;text-decoration:none}}
"""

PAGE_SCRIPT = """
"use strict";
function cellKey(row, column) {
  const cell = row.cells[column];
  if (!cell) return "";
  const raw = cell.dataset.sort !== undefined ? cell.dataset.sort : cell.textContent.trim();
  const number = Number(raw);
  return raw !== "" && raw !== "-" && !Number.isNaN(number) ? number : raw.toLowerCase();
}
for (const table of document.querySelectorAll("table.sortable")) {
  const headers = [...table.tHead.rows[0].cells];
  headers.forEach((th, column) => {
    th.tabIndex = 0;
    th.title = "sort by this column";
    const sort = () => {
      const up = th.getAttribute("aria-sort") !== "ascending";
      headers.forEach((h) => h.removeAttribute("aria-sort"));
      th.setAttribute("aria-sort", up ? "ascending" : "descending");
      const rows = [...table.tBodies[0].rows];
      rows.sort((a, b) => {
        const x = cellKey(a, column), y = cellKey(b, column);
        const order = typeof x === typeof y ? (x < y ? -1 : x > y ? 1 : 0) : (typeof x === "number" ? -1 : 1);
        return up ? order : -order;
      });
      table.tBodies[0].append(...rows);
    };
    th.addEventListener("click", sort);
    th.addEventListener("keydown", (e) => { if (e.key === "Enter") sort(); });
  });
}
for (const box of document.querySelectorAll("input[data-filter]")) {
  const table = document.getElementById(box.dataset.filter);
  if (!table) continue;
  const rows = [...table.tBodies[0].rows];
  const count = box.parentElement.querySelector(".count");
  box.parentElement.hidden = false;
  box.addEventListener("input", () => {
    const words = box.value.toLowerCase().split(/\\s+/).filter(Boolean);
    let shown = 0;
    for (const row of rows) {
      const text = row.textContent.toLowerCase();
      row.hidden = !words.every((w) => text.includes(w));
      shown += !row.hidden;
    }
    count.textContent = words.length ? shown + " of " + rows.length + " shown" : "";
  });
}
"""


def csp_hash(text):
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


# Nothing may load: no image, font, frame or connection, and only this file's own style and script.
PAGE_POLICY = (f"default-src 'none'; style-src {csp_hash(PAGE_STYLE)}; script-src {csp_hash(PAGE_SCRIPT)}; "
               "base-uri 'none'; form-action 'none'")


# how every page eval.py writes begins, since its first (its policy's first words): what --force may replace. Not
# "<!doctype html>" alone, which every hand-written page begins with too (--force replaced a user's notes.html)
PAGE_START = ('<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" '
              'content="default-src \'none\'; style-src \'sha256-').encode()


def html_page(title, parts):
    return "".join([
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{PAGE_POLICY}">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{esc(title)}</title><style>{PAGE_STYLE}</style></head><body>",
        f"<header><h1>{esc(title)}</h1></header><main>", *parts, "</main>",
        f"<footer>Made by eval.py {__version__} from the run files alone; every figure is recomputed from them. "
        "Tables sort by a click on their header.</footer>",
        f"<script>{PAGE_SCRIPT}</script></body></html>\n"])


def is_page(path):
    """Whether a file begins as every page eval.py writes begins."""
    try:
        with open_regular(path) as f:
            return f.read(len(PAGE_START)) == PAGE_START
    except OSError:
        return False


def files_of_run(path, config):
    """A run, the files eval.py keeps beside it, and the files it was made from (its prompt, its
    split and the labels and checks beside it): what a page must never replace."""
    split = config.get("split_path")   # (an older run names its split alone: nothing beside it to keep)
    return [path, *(name + suffix for name in dict.fromkeys((path, own_name(path)))   # a link's and its run's
                    for suffix in (ANNOTATIONS_SUFFIX, OLD_ANNOTATIONS_SUFFIX, PAIRWISE_SUFFIX, PAIRWISE_JOURNAL_SUFFIX,
                                   JOURNAL_SUFFIX, ".lock")),
            config["prompt"], *([split, os.path.join(os.path.dirname(split), LABELS_FILE),
                                 os.path.join(os.path.dirname(split), CHECKS_FILE)] if split else [])]


def refuse_page_name(path):
    """A page's name that is a run's, a split's or one of the files eval.py keeps beside a run:
    refused, as --out refuses it. A page at X.json.journal would be read as X.json's journal by
    `run --resume`; one at X.pairwise.json.lock is removed by the next compare --pairwise."""
    if path.lower().endswith((".json", ".jsonl")):
        raise EvalError(f"--html {shell_word(path)}: .json and .jsonl names are for runs, their sidecars and splits; name the page .html")
    temp = TEMP_NAME.fullmatch(os.path.basename(path))
    if temp:   # the next write of NAME would remove the page as a dead process's temp file
        raise EvalError(f"--html {shell_word(path)}: a name ending in {temp.group(2)} is a temp file's, removed by the next write "
                        f"of {shell_word(os.path.join(os.path.dirname(path), temp.group(1)))}; name the page .html")
    # in any case: on a folder that ignores it (macOS, Windows) X.json.JOURNAL is X.json.journal
    suffix = next((s for s in RESERVED_SUFFIXES if path.lower().endswith(s.lower())), None)
    if suffix:
        raise EvalError(f"--html {shell_word(path)}: a name ending in {suffix} is for eval.py's files beside a run "
                        f"({RESERVED_SUFFIXES[suffix]}); name the page .html")


def write_page(path, text, force, inputs):
    """Write a page atomically. An existing file is kept unless force; one of the files the page
    was made from (a run, its sidecars, its prompt and split) never, even with force."""
    refuse_page_name(path)
    for given in filter(None, inputs):
        with contextlib.suppress(OSError, ValueError):   # ValueError: a path holding half a character
            if os.path.samefile(path, given):
                raise EvalError(f"--html {shell_word(path)} is {shell_word(given)}, which this page is made from; write the page elsewhere")
    if os.path.isdir(path):
        raise EvalError(f"--html {shell_word(path)} is a folder; give a file name, like report.html")
    folder = os.path.dirname(path) or "."
    if not os.path.isdir(folder):
        raise EvalError(f"--html {shell_word(path)}: there is no folder {shell_word(folder)}")
    if os.path.lexists(path) and not os.path.isfile(path):   # a device, a pipe, a dangling link: never replaced
        raise EvalError(f"--html {shell_word(path)} is {what_is_there(path) or 'not a regular file'}, never replaced; "
                        "give another file name")
    if os.path.lexists(path) and not force:
        raise EvalError(f"{shell_word(path)} exists; add --force to replace it, or give another file name")
    if os.path.lexists(path) and not is_page(path):
        # the files a run was made from are named relative to where it ran, so from another folder
        # they cannot all be recognised: --force replaces a page eval.py wrote, and nothing else
        raise EvalError(f"--html {shell_word(path)} exists and is not a page eval.py wrote; --force replaces only such a "
                        "page, never another file (a prompt, a split, a page of your own, anything you made)")
    try:
        write_file(path, text, replace=force)
    except FileExistsError:   # it appeared meanwhile: never a silent overwrite
        raise EvalError(f"{shell_word(path)} exists; add --force to replace it, or give another file name") from None
    except OSError as e:      # a full disk: the failed write was the temp file's, which is gone; the page is named
        raise EvalError(f"cannot write {shell_word(path)} ({e.strerror})") from None
    warn(f"wrote {shell_word(path)}")



# ---------------------------------------------------------------------------
# 14. Review: read the traces one by one in a local page, annotate what went wrong on each failure,
#     count the annotations, fix the most frequent first. Annotations live in a sidecar file beside
#     the run (the run itself is never touched). The page itself is REVIEW_PAGE.

def review_items(run, against=None):
    """One item per case and trial, everything the page shows, as plain data."""
    config = run["config"]
    changes = {}
    cases = grade_run(run)
    other = {}
    if against:
        against_cases = grade_run(against)
        c = compare_runs(against["config"], against_cases, config, cases)
        changes = {**{i: "fixed" for i in c["fixed"]}, **{i: "regressed" for i in c["regressions"]}}
        their_results = {(r["id"], r["trial"]): r for r in against["results"]}
        for case in against_cases:
            for t in case["trials"]:
                other[case["id"], t["trial"]] = other_answer(their_results[case["id"], t["trial"]], case, t)
    results = {(r["id"], r["trial"]): r for r in run["results"]}
    fitted_to = window_name({"num_ctx": context_window(config), "num_ctx_sent": sent_num_ctx(config)})
    cut, dropped = ({(x["id"], x["trial"]) for x in flags} for flags in window_flags(config, cases))
    items = []
    for case in cases:
        for t in case["trials"]:
            r = results[case["id"], t["trial"]]
            o = other.get((case["id"], t["trial"]))
            items.append({
                "key": answer_key(case["id"], t["trial"]), "id": case["id"], "trial": t["trial"],
                "difficulty": case["difficulty"], "tags": case["tags"], "note": r.get("note"),
                "system": render(config.get("prompt_text", ""), prompt_values(r)),
                **asked(r), "response": t["response"], "predicted": t["predicted"],
                "expected": case["expected"], "verdict": trial_verdict(t), "error": t["error"],
                "checks": [{"name": name, "ok": ok} for name, ok in t["checks"].items()],
                "judges": [{**{k: v.get(k) for k in ("check", "model", "vote", "pass")},
                            "reason": v.get("reason") or v.get("unread")} for v in r.get("judges") or []],   # why none was read
                "latency_ms": r.get("latency_ms"), "prompt_tokens": r.get("prompt_tokens"),
                "completion_tokens": r.get("completion_tokens"),
                "thinking": r.get("thinking") or (split_thinking(t["response"])[0] if t["response"] else None),
                "stopped": [why for why, yes in (
                    ("thinking never finished", t["unfinished"]),
                    ("cut off by the token limit", t["done_reason"] == "length"),
                    (f"input may have been cut to fit {fitted_to}", (case["id"], t["trial"]) in cut),
                    (f"earlier turns may have been dropped to fit {fitted_to}",
                     (case["id"], t["trial"]) in dropped)) if yes],
                "other": o,
                "change": changes.get(case["id"]),
                **({"transcript": transcript_turns(r, case["checks"], t["checks"]),
                    "out_of_turns": bool(r.get("out_of_turns"))} if r.get("transcript") is not None else {}),
                **passages_beside(case, t),
            })
    return items


def other_answer(r, case, t):
    """review --against: the other run's answer beside this one; an agent's with its transcript turn by
    turn, since the same final words may have come by another path."""
    return {"response": t["response"], "verdict": trial_verdict(t), "predicted": t["predicted"],
            **({"transcript": transcript_turns(r, case["checks"], t["checks"]),
                "out_of_turns": bool(r.get("out_of_turns"))} if r.get("transcript") is not None else {})}


def passages_beside(case, trial):
    """RAG: what review and the page show beside an answer: its passages in rank order, each marked
    relevant or not when a person labelled them, the relevant ones not retrieved, and the claims
    its faithful checks found unsupported. {} for a case without passages."""
    if not isinstance(case.get("context"), list):
        return {}
    relevant = case.get("relevant")
    return {"passages": [{"id": p["id"], "text": p["text"], "relevant": None if relevant is None else p["id"] in relevant}
                         for p in case["context"]],
            "missing": [i for i in relevant or [] if i not in {p["id"] for p in case["context"]}],
            "unsupported": [dict(claim, check=c["name"]) for c in case["checks"] if c["type"] == "faithful"
                            for claim in faithful_reading(case, trial, c)[1]]}


class Review:
    """The state behind the page: the run as loaded, and the sidecar of annotations (saved at once)."""

    def __init__(self, path, against_path=None):
        self.path, self.against_path = path, against_path
        # the run file's name, taken once: a link pointed elsewhere while review is open never has one
        # run's annotations read and another's written
        self.own = own_name(path)
        self.run = load_run(path)
        self.run_sha = sha256_bytes(read_bytes(path, "run file"))
        self.items = review_items(self.run, load_run(against_path) if against_path else None)
        self.keys = {item["key"] for item in self.items}
        # the largest save a page of this run sends: its text, and a key of up to 6 bytes a character as JSON (an
        # escape); an id of 4 KB is the run's, and its annotation is saved as any other's
        self.most_body = 4096 + 6 * max(map(len, self.keys), default=0)
        kept_beside(self.own, ANNOTATIONS_SUFFIX)   # (said once: which name's file, for a second name of the run)
        writable_beside(self.sidecar, "no annotation could be saved there")
        self.annotations()   # a damaged sidecar is refused before the page is served
        self.lock = threading.Lock()

    @property
    def sidecar(self):
        """The file saves go to (an older RUN.labels.json is only read), looked up at each use: a second
        name of the run linked while review is open, whose own review saved first, has the file (kept_beside)."""
        return kept_beside(self.own, ANNOTATIONS_SUFFIX, say=False)

    def annotations(self, sidecar=None):
        """(this version's annotations, those of other versions of the run file by hash): the sidecar
        (the one given, under its lock) as it is now, read against the run as it was loaded."""
        # the file written, once there, else the older ones
        read_from = sidecar or self.sidecar
        read_from = read_from if os.path.exists(read_from) else annotations_file(self.path, self.own)   # (as it does)
        return annotations_by_version(read_annotations(read_from), self.run_sha)

    def versions_note(self, other_versions=None):
        """The line naming annotations written on other versions of the run (as the sidecar holds them
        now, unless given), or None."""
        others = version_summary(self.annotations()[1] if other_versions is None else other_versions)
        return versions_note(annotations_file(self.path, self.own), others) if others else None

    def of_this_run(self, annotations):
        """The annotations of this run's answers, as report counts them (an older sidecar, or one edited by hand, may
        name others: counted on the page and not in report, two tables of one file disagreed)."""
        return {k: v for k, v in annotations.items() if k in self.keys}

    def notes(self):
        """What review says as it starts: annotations of other versions of the run, and of answers it lacks."""
        annotations, other_versions = self.annotations()
        strays = [k for k in annotations if k not in self.keys]
        return [note for note in (self.versions_note(other_versions),
                                  strays and stray_warning(annotations_file(self.path, self.own), strays)) if note]

    def data(self):
        annotations, other_versions = self.annotations()
        try:
            changed = sha256_bytes(read_bytes(self.path, "run file")) != self.run_sha
        except EvalError:
            changed = True
        config = self.run["config"]
        return {"run": self.path, "against": self.against_path, "changed": changed,
                "other_versions": self.versions_note(other_versions),
                "config": {k: config.get(k) for k in ("model", "prompt", "split", "repeat", "labels")},
                "items": [dict(item, annotation=annotations.get(item["key"])) for item in self.items],
                "counts": annotation_counts(self.of_this_run(annotations))}

    def save(self, body):
        """Write one annotation (an empty one removes it) to the sidecar: read, change, write, under
        a lock, so two tabs saving at once lose nothing; atomically, so a crash loses nothing."""
        # the key's type first: a list or an object cannot be looked up in a set (a TypeError, a 500)
        if (not isinstance(body, dict) or not isinstance(body.get("key"), str) or body["key"] not in self.keys
                or not isinstance(body.get("text"), str)):
            raise ValueError('send {"key": "<case id>#<trial>", "text": "<what went wrong>"} for a case of this run')
        text = " ".join(body["text"].split())
        text = text if as_read(text) else ""   # a zero-width space or a direction mark alone is none
        if len(text) > MAX_ANNOTATION:
            raise ValueError(f"an annotation is at most {MAX_ANNOTATION} characters")
        try:
            return self.write(body["key"], text)
        except OSError as e:   # a full disk, a read-only folder: the user's machine, not a bug in review
            lock = self.sidecar + ".lock"
            raise EvalError(f"cannot write {shell_word(lock if e.filename == lock else self.sidecar)} ({e.strerror}): the "
                            "annotation was not saved; those saved before are kept") from None

    def write(self, key, text):
        """save(), once the request is read: the sidecar read, changed and written under its lock."""
        sidecar, deadline = self.sidecar, time.monotonic() + REVIEW_SAVE_WAIT
        # one wait for both turns, this page's other saves' and another process's (each its own wait: saves queued behind
        # a held lock were answered 10 s apart, the third after 30)
        if not self.lock.acquire(timeout=REVIEW_SAVE_WAIT):
            raise EvalError(f"another save of this review has waited on {shell_word(sidecar)}'s lock past the wait for a turn; "
                            "nothing was saved: save again")
        try:
            with sidecar_lock(sidecar, wait=max(0.0, deadline - time.monotonic())):
                return self.write_locked(sidecar, key, text)
        finally:
            self.lock.release()

    def write_locked(self, sidecar, key, text):
        """write(), under the locks."""
        # this version's annotations only: those of another version of the run file (one made
        # again under its name) are kept under their hash, never adopted as these, never dropped
        annotations, other_versions = self.annotations(sidecar)
        if text:
            annotations[key] = {**annotations.get(key, {}), "text": text, "time": datetime.now().astimezone().isoformat(timespec="seconds")}
        else:
            annotations.pop(key, None)
        kept = read_annotations(sidecar if os.path.exists(sidecar) else annotations_file(self.path, self.own))["kept"]
        write_sidecar(sidecar, json_text({**kept, "format": ANNOTATIONS_FORMAT, "run": os.path.basename(self.own),
                                           "run_sha": self.run_sha, "annotations": annotations,
                                           **({"other_versions": other_versions} if other_versions else {})},
                                          indent=1) + "\n")
        return {"saved": key, "annotation": annotations.get(key), "counts": annotation_counts(self.of_this_run(annotations))}


def review_handler(review, nonce):
    from http.server import BaseHTTPRequestHandler

    class Handler(BaseHTTPRequestHandler):
        server_version = "eval.py-review"
        timeout = REVIEW_READ_SECONDS

        def log_message(self, *args):
            pass

        def allowed(self):
            """Only this page may talk to this server: the Host must be ours (no DNS rebinding) and
            an Origin, when sent, too (no other site's page posting annotations)."""
            ours = review_hosts(self.server.server_address[1])
            origin = self.headers.get("Origin")
            if self.headers.get("Host") not in ours or (origin is not None and origin not in {f"http://{h}" for h in ours}):
                self.send(403, "text/plain; charset=utf-8", b"forbidden: foreign origin or host\n")
                return False
            return True

        def send(self, status, kind, body, extra=()):
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.send_header("X-Content-Type-Options", "nosniff")
            for name, value in extra:
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(body)

        def send_json(self, status, obj):
            self.send(status, "application/json; charset=utf-8", json_text(obj).encode())

        def answer(self, respond):
            """Every request gets an answer, even when the code behind it fails: a page left
            waiting for a response that never comes looks like a hang."""
            try:
                try:
                    respond()
                except ConnectionError:
                    raise
                except TimeoutError:
                    self.send_json(408, {"error": "the request's body did not all arrive (less than its Content-Length)"})
                except (ValueError, UnicodeDecodeError) as e:
                    self.send_json(400, {"error": str(e)})
                except EvalError as e:
                    self.send_json(500, {"error": str(e)})
                except Exception as e:   # a bug: said, not swallowed
                    self.send_json(500, {"error": f"eval.py review failed: {type(e).__name__}: {e}"})
            except (ConnectionError, TimeoutError):
                self.close_connection = True   # the page went away, or never sent all it promised

        def do_GET(self):
            self.answer(self.get)

        def do_POST(self):
            self.answer(self.post)

        def get(self):
            if not self.allowed():
                return
            if self.path == "/":
                policy = (f"default-src 'none'; script-src 'nonce-{nonce}'; style-src 'unsafe-inline'; "
                          "connect-src 'self'; img-src 'none'; base-uri 'none'; form-action 'none'")
                self.send(200, "text/html; charset=utf-8", REVIEW_PAGE.replace("{{nonce}}", nonce).encode(),
                          [("Content-Security-Policy", policy), ("X-Frame-Options", "DENY")])
            elif self.path == "/data":
                self.send_json(200, review.data())
            else:
                self.send(404, "text/plain; charset=utf-8", b"not found\n")

        def post(self):
            if not self.allowed():
                return
            if self.path != "/annotations":
                self.send(404, "text/plain; charset=utf-8", b"not found\n")
                return
            said = self.headers.get("Content-Length", "0")
            length = int(said) if said.isascii() and said.isdigit() else 0   # int() would take " 1_0 " for 10
            if not 0 < length <= review.most_body:
                raise ValueError("the body must be a small JSON object, with its length in digits")
            try:
                body = exact_json(self.rfile.read(length).decode("utf-8"))
            except ValueError as e:   # (a UnicodeDecodeError is one: line_problem tells them apart)
                raise ValueError(f"the body is not one JSON object ({line_problem(e)})") from None
            # a key is looked up among the run's (an id of a run file may hold half a character: its JSON escapes it)
            problem = unreadable_value({k: v for k, v in body.items() if k != "key"} if isinstance(body, dict) else body)
            if problem:
                raise ValueError(problem)
            self.send_json(200, review.save(body))

    return Handler


def review_hosts(port):
    """The Host (and Origin, after http://) the review page's own requests carry: on port 80 a browser sends
    the address without the port."""
    return {f"127.0.0.1:{port}", f"localhost:{port}"} | ({"127.0.0.1", "localhost"} if port == 80 else set())


def serve_review(review, port):
    from http.server import ThreadingHTTPServer

    class Server(ThreadingHTTPServer):
        request_queue_size = 128   # the default 5 resets connections when many tabs save at once
        daemon_threads = True

    try:
        server = Server(("127.0.0.1", port), review_handler(review, secrets.token_urlsafe(16)))
    except OSError as e:
        raise EvalError(f"cannot listen on 127.0.0.1:{port} ({e.strerror}); pick another --port") from None
    return server


def serve_until_stopped(server, run_path, sidecar):
    """Serve the page until Ctrl-C, SIGTERM or SIGHUP; every annotation is already saved by then."""
    read_from = annotations_file(run_path)
    older = f", those of {shell_word(read_from)} carried over" if read_from != sidecar else ""
    print(inert(f"Reviewing {shell_word(run_path)} at http://127.0.0.1:{server.server_address[1]}/  (annotations go to "
                f"{shell_word(sidecar)}{older}; Ctrl-C to stop)"), flush=True)
    try:
        with terminated_as_interrupted():
            server.serve_forever()
    except KeyboardInterrupt:
        warn("stopped")
    finally:
        server.server_close()

# ---------------------------------------------------------------------------
# The review page, served by `eval.py review`.

REVIEW_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>eval.py review</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:0;color:#1d1d1f;background:#f6f6f4;overflow-wrap:anywhere}
select{max-width:14em}
header,#bar{padding:8px 16px;background:#fff;border-bottom:1px solid #ddd;display:flex;gap:10px;align-items:center;flex-wrap:wrap}
header b{font-size:15px}.notice{background:#fff3c4;border:1px solid #e0b400;padding:4px 8px;border-radius:4px}
main{display:grid;grid-template-columns:250px minmax(0,1fr) 280px;gap:16px;padding:16px}
section,aside,nav{background:#fff;border:1px solid #ddd;border-radius:6px;padding:12px 16px}
nav{padding:8px;position:sticky;top:8px;align-self:start;max-height:calc(100vh - 130px);overflow:auto}
#list{list-style:none;margin:0;padding:0}#list button{all:unset;box-sizing:border-box;display:block;width:100%;cursor:pointer;
padding:4px 6px;border-radius:4px;border-bottom:1px solid #eee;overflow-wrap:anywhere}
#list button:hover{background:#f3f3f0}#list li.current button{background:#e3ecfa;outline:1px solid #4a78c2}
#list button:focus-visible{outline:2px solid #4a78c2}#list .what,#list .typed{display:block;font-size:12px;color:#555}
#list .typed{color:#8a4b00}#list li.read .lid{color:#666}#list li.current .lid{color:inherit;font-weight:600}
h2{font-size:16px;margin:0 0 6px}h3{font-size:13px;margin:12px 0 4px;color:#555;text-transform:uppercase;letter-spacing:.04em}
pre{white-space:pre-wrap;word-break:break-word;background:#f3f3f0;border:1px solid #e2e2de;padding:8px;border-radius:4px;margin:0;
max-height:22em;overflow:auto}
.pill{display:inline-block;padding:1px 8px;border-radius:10px;background:#eee;margin-right:4px;font-size:12px}
.pass{background:#d7f5dc}.fail{background:#ffd9d6}.error{background:#e6e0ff}.open{background:#fff0c2}
.fixed{background:#d7f5dc}.regressed{background:#ffd9d6}
table{border-collapse:collapse;width:100%}td{padding:2px 4px;border-bottom:1px solid #eee;vertical-align:top}
td:first-child{width:14em;color:#555}td.n{text-align:right}
.cols{display:grid;grid-template-columns:1fr 1fr;gap:12px}
.turn.assistant pre{background:#eef3fb}
#annotationform{display:flex;gap:6px;margin-top:6px}#annotationinput{flex:1;padding:5px;font:inherit}
.muted{color:#777}
</style></head><body>
<header><b>eval.py review</b><span id="run" class="muted"></span><span id="notice" class="notice" hidden></span></header>
<div id="bar">
<label>show <select id="status">
<option value="failures">failures</option><option value="invalid">invalid</option><option value="errors">errors</option>
<option value="regressions">regressions</option><option value="fixed">fixed</option><option value="all">all</option></select></label>
<select id="difficulty"><option value="">any difficulty</option></select>
<select id="label"><option value="">any expected label</option></select>
<select id="tag"><option value="">any tag</option></select>
<button id="prev" title="previous (k)">&#9664; k</button><span id="pos"></span><button id="next" title="next (j)">j &#9654;</button>
<span id="counter" class="muted"></span>
</div>
<main><nav aria-label="cases in view"><h3>Cases in view</h3><ol id="list"></ol></nav><section id="case"></section>
<aside><h3>Annotations</h3><table id="counts"></table><p class="muted">j / k: next and previous &middot; /: annotation field &middot; Enter: save</p></aside></main>
<datalist id="used"></datalist>
<script nonce="{{nonce}}">
"use strict";
let data = null, shown = [], at = 0;
const read = new Set();
const drafts = new Map();   // key: what was typed and not saved yet (moving to another case keeps it, a save ends it)
const $ = (id) => document.getElementById(id);
// Control and bidi-override characters shown as codes (\\u202e), as the report pages show them: an id
// or answer from a run must not reorder what is around it.
const CONTROL = /[\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069]/g;
function visible(text) { return String(text).replace(CONTROL, (c) => { const n = c.charCodeAt(0); return n < 256 ? "\\\\x" + n.toString(16).padStart(2, "0") : "\\\\u" + n.toString(16).padStart(4, "0"); }); }
function el(tag, text, cls) { const e = document.createElement(tag); if (text !== undefined && text !== null) e.textContent = visible(text); if (cls) e.className = cls; return e; }
// a filter's value is "=" and what it picks: "" is "any", and an older run's empty difficulty or tag is a value of its own
function option(select, value) { select.appendChild(el("option", value === "" ? "(empty)" : value)).value = "=" + value; }
function picked(id) { const v = $(id).value; return v ? v.slice(1) : null; }
function matches(it) {
  const s = $("status").value;
  if (s === "failures" && it.verdict !== "fail") return false;
  if (s === "invalid" && it.predicted !== "INVALID") return false;
  if (s === "errors" && it.verdict !== "error") return false;
  if (s === "regressions" && it.change !== "regressed") return false;
  if (s === "fixed" && it.change !== "fixed") return false;
  if (picked("difficulty") !== null && it.difficulty !== picked("difficulty")) return false;
  if (picked("label") !== null && it.expected !== picked("label")) return false;
  if (picked("tag") !== null && !it.tags.includes(picked("tag"))) return false;
  return true;
}
function refilter() { shown = data.items.filter(matches); at = 0; drawList(); draw(); }
function listEntry(it, i) {
  const li = el("li"); li.dataset.index = i;
  const button = el("button"); button.title = "show this case";
  const head = el("span", it.id + (data.config.repeat > 1 ? " · trial " + it.trial : "") + " ", "lid");
  button.appendChild(head); button.appendChild(el("span", it.verdict, "pill " + it.verdict));
  const what = data.config.labels ? (it.predicted === null ? "" : "→ " + it.predicted)
    : it.checks.filter((c) => c.ok === false).map((c) => c.name).join(", ");
  if (what) button.appendChild(el("span", what, "what"));
  if (it.annotation) button.appendChild(el("span", it.annotation.text, "typed"));
  button.onclick = () => { at = i; draw(); };
  li.appendChild(button); return li;
}
function drawList() { $("list").replaceChildren(...shown.map(listEntry)); }
function markList() {
  for (const li of $("list").children) {
    const i = Number(li.dataset.index);
    li.classList.toggle("current", i === at); li.classList.toggle("read", read.has(shown[i].key));
    if (i === at) li.scrollIntoView({block: "nearest"});
  }
}
function block(title, text) { const d = el("div"); d.appendChild(el("h3", title)); d.appendChild(el("pre", text === null || text === undefined ? "(none)" : text)); return d; }
function transcriptSteps(id, title, answer) {   // an agent: every turn, each call with its arguments, its result and the checks it failed
  const steps = el("div"); steps.id = id;
  steps.appendChild(el("h3", title + (answer.out_of_turns ? " (ran out of turns)" : "")));
  for (const t of answer.transcript) {
    const b = block("Turn " + t.turn + (t.calls.length ? ": calls tools" : ": answers"), t.content || "");
    b.className = "turn assistant";
    for (const c of t.calls) {
      const call = el("div", undefined, "call" + (c.failed.length ? " fail" : ""));
      call.appendChild(el("pre", "calls " + c.call));
      call.appendChild(el("pre", "returned " + (c.result === null ? "-" : c.result) + (c.matched === false ? "  (no result matched these arguments)" : "")));
      if (c.failed.length) call.appendChild(el("p", "fails: " + c.failed.join(", "), "pill fail"));
      b.appendChild(call);
    }
    steps.appendChild(b);
  }
  return steps;
}
function draw() {
  const box = $("case"); box.replaceChildren();
  $("pos").textContent = shown.length ? (at + 1) + " / " + shown.length : "0 / 0";
  if (!shown.length) { box.appendChild(el("p", "No case matches these filters.", "muted")); counter(); return; }
  const it = shown[at]; read.add(it.key); markList();
  const head = el("h2", it.id + (data.config.repeat > 1 ? " · trial " + it.trial : ""));
  box.appendChild(head);
  const pills = el("div");
  pills.appendChild(el("span", it.verdict, "pill " + it.verdict));
  if (it.change) pills.appendChild(el("span", it.change, "pill " + it.change));
  pills.appendChild(el("span", it.difficulty, "pill"));
  for (const t of it.tags) pills.appendChild(el("span", "#" + t, "pill"));
  for (const why of it.stopped) pills.appendChild(el("span", why, "pill fail"));
  box.appendChild(pills);
  if (it.note) box.appendChild(el("p", it.note, "muted"));
  const sys = el("details"); sys.appendChild(el("summary", "System prompt")); sys.appendChild(el("pre", it.system)); box.appendChild(sys);
  if (it.messages) {
    const turns = el("div"); turns.id = "conversation";
    it.messages.forEach((turn, i) => { const b = block("Turn " + (i + 1) + ": " + turn.role, turn.content); b.className = "turn " + (turn.role === "user" ? "user" : "assistant"); turns.appendChild(b); });
    box.appendChild(turns);
  } else box.appendChild(block("Input", it.input));
  if (it.transcript) box.appendChild(transcriptSteps("transcript", "Transcript, turn by turn", it));
  if (it.other && it.other.transcript)   // the other run's path to its answer, not only its final words
    box.appendChild(transcriptSteps("other-transcript", "Other run's transcript, turn by turn", it.other));
  if (it.thinking) {
    const thought = el("details"); thought.id = "thinking";
    thought.appendChild(el("summary", "Thinking (" + it.thinking.length + " characters; not scored)"));
    thought.appendChild(el("pre", it.thinking)); box.appendChild(thought);
  }
  const answers = el("div", undefined, it.other || it.passages ? "cols" : "");
  const mine = block(it.messages ? "Answer (the next assistant turn), exactly as given" : "Answer, exactly as given",
                     it.error ? "ERROR: " + it.error : it.response);
  mine.id = "answer"; answers.appendChild(mine);
  if (it.other) answers.appendChild(block("Other run (" + it.other.verdict + ")", it.other.response));
  if (it.passages) {
    const ps = el("div"); ps.id = "passages"; ps.appendChild(el("h3", "Passages the answer was given, in rank order"));
    if (!it.passages.length) ps.appendChild(el("p", "none retrieved", "muted"));
    it.passages.forEach((p, i) => {
      const mark = p.relevant === null ? "" : (p.relevant ? " · relevant" : " · not relevant");
      const d = block("[" + (i + 1) + "] " + p.id + mark, p.text); if (p.relevant) d.className = "relevant"; ps.appendChild(d);
    });
    if (it.missing.length) ps.appendChild(el("p", "Relevant, not retrieved: " + it.missing.join(", "), "fail"));
    for (const u of it.unsupported) ps.appendChild(el("p", "Unsupported claim (" + u.check + "): " + u.claim + " (" + u.why + ")", "fail"));
    answers.appendChild(ps);
  }
  box.appendChild(answers);
  const facts = el("table");
  const row = (k, v) => { const tr = el("tr"); tr.appendChild(el("td", k)); tr.appendChild(el("td", v === null || v === undefined ? "-" : v)); facts.appendChild(tr); };
  if (data.config.labels) { row("normalized label", it.predicted); row("expected", it.expected); }
  for (const c of it.checks) row("check: " + c.name, c.ok === null ? "open" : (c.ok ? "pass" : "FAIL"));
  for (const j of it.judges) row("judge " + j.model + " #" + j.vote + " on " + j.check, (j.pass === null ? "no verdict" : (j.pass ? "pass" : "fail")) + (j.reason ? ": " + j.reason : ""));
  row("latency", it.latency_ms === null ? null : it.latency_ms + " ms");
  row("tokens", (it.prompt_tokens ?? "-") + " in, " + (it.completion_tokens ?? "-") + " out");
  box.appendChild(el("h3", "Details")); box.appendChild(facts);
  box.appendChild(el("h3", "What went wrong"));
  const form = el("div"); form.id = "annotationform";
  const input = el("input"); input.id = "annotationinput"; input.setAttribute("list", "used"); input.maxLength = 200;
  input.placeholder = "e.g. answered with a sentence instead of the label";
  input.value = drafts.has(it.key) ? drafts.get(it.key) : (it.annotation ? it.annotation.text : "");
  const save = el("button", "Save"); save.id = "save";
  const status = el("span", drafts.has(it.key) ? "not saved yet (Enter saves)" : (it.annotation ? "saved " + it.annotation.time : ""), "muted"); status.id = "savestatus";
  input.addEventListener("input", () => {
    const saved = it.annotation ? it.annotation.text : "";
    if (input.value === saved) { drafts.delete(it.key); status.textContent = it.annotation ? "saved " + it.annotation.time : ""; }
    else { drafts.set(it.key, input.value); status.textContent = "not saved yet (Enter saves)"; }
  });
  save.onclick = () => store(it, input.value, status);
  // (the Enter that ends an input method's composition, in Japanese or Chinese, is the composition's, not a save)
  input.addEventListener("keydown", (e) => { if (e.key === "Enter" && !e.isComposing) { e.preventDefault(); store(it, input.value, status); } });
  form.appendChild(input); form.appendChild(save); box.appendChild(form); box.appendChild(status);
  counter();
}
function counter() { const n = shown.filter((it) => read.has(it.key)).length; $("counter").textContent = n + " of " + shown.length + " read"; }
function counts(list) {
  const t = $("counts"); t.replaceChildren();
  if (!list.length) { t.appendChild(el("tr")).appendChild(el("td", "No annotations yet.", "muted")); }
  for (const [text, n] of list) { const tr = el("tr"); tr.appendChild(el("td", text)); tr.appendChild(el("td", n, "n")); t.appendChild(tr); }
  const used = $("used"); used.replaceChildren(); for (const [text] of list) used.appendChild(el("option", text)).value = text;
}
// what a request that got no JSON answer says: the server stopped (Ctrl-C), or something else answered
function unanswered(response) {
  return response ? "the review server answered " + response.status + " without a reason" : "the review server is not answering (is eval.py review still running?)";
}
async function store(it, text, status) {
  status.textContent = "saving…";
  let response = null, answer;
  try {
    response = await fetch("/annotations", {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify({key: it.key, text: text})});
    answer = await response.json();
  } catch (e) { status.textContent = "not saved: " + unanswered(response); return; }
  if (!response.ok) { status.textContent = "not saved: " + answer.error; return; }
  if (drafts.get(it.key) === text) drafts.delete(it.key);   // (typed on since: still a draft)
  it.annotation = answer.annotation; status.textContent = answer.annotation ? "saved " + answer.annotation.time : "annotation removed";
  counts(answer.counts);
  const i = shown.indexOf(it);
  if (i >= 0) { $("list").children[i].replaceWith(listEntry(it, i)); markList(); }
}
function move(step) { if (!shown.length) return; at = Math.min(shown.length - 1, Math.max(0, at + step)); draw(); }
document.addEventListener("keydown", (e) => {
  const typing = e.target && (e.target.tagName === "INPUT" || e.target.tagName === "SELECT");
  if (typing) return;
  if (e.key === "j") move(1); else if (e.key === "k") move(-1);
  else if (e.key === "/") { e.preventDefault(); const i = $("annotationinput"); if (i) i.focus(); }
});
function cannotShow(why) { $("notice").hidden = false; $("notice").textContent = "Cannot show the run: " + why; }
async function start() {
  let response = null;
  try { response = await fetch("/data"); data = await response.json(); } catch (e) { return cannotShow(unanswered(response)); }
  if (!response.ok) return cannotShow(data.error);
  $("run").textContent = visible(data.run + " · " + data.config.model + " · " + data.config.prompt + (data.against ? " · against " + data.against : ""));
  const notes = [];
  if (data.changed) notes.push("The run file changed on disk since this review started: what you see is the run as it was loaded. Restart review to see the new file.");
  if (data.other_versions) notes.push(data.other_versions + ".");
  if (notes.length) { $("notice").hidden = false; $("notice").textContent = notes.join(" "); }
  const values = (f) => [...new Set(data.items.flatMap(f))].sort();
  for (const v of values((it) => [it.difficulty])) option($("difficulty"), v);
  // a free-text set has no labels to filter by: its expected, if any, is an answer's text
  if (data.config.labels) for (const v of values((it) => it.expected === null ? [] : [it.expected])) option($("label"), v);
  else $("label").hidden = true;
  for (const v of values((it) => it.tags)) option($("tag"), v);
  for (const id of ["status", "difficulty", "label", "tag"]) $(id).onchange = refilter;
  $("prev").onclick = () => move(-1); $("next").onclick = () => move(1);
  counts(data.counts); refilter();
}
// leaving the page with text typed and never saved: the browser asks first
window.addEventListener("beforeunload", (e) => { if (drafts.size) { e.preventDefault(); e.returnValue = ""; } });
start();
</script></body></html>
"""



# ---------------------------------------------------------------------------
# 15. The command line: each command calls the stages above by name.

def positive_int(text):
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: give a whole number, 1 or more")
    return value


MAX_SEED = 2 ** 31 - 1   # llama.cpp's seed is 32 bits; Ollama reads a number as a float64 (api/types.go
                         # FromMap), where 2^60 and 2^60 + 1 are one seed: the trials would be copies


def seed_number(text):
    """A sampling seed in ASCII digits, 0 to MAX_SEED, or below 0 (no seed) down to -MAX_SEED: int()
    reads full-width digits and any size, which a server then reads as another number."""
    if not re.fullmatch(r"-?[0-9]{1,10}", text) or abs(int(text)) > MAX_SEED:
        raise argparse.ArgumentTypeError(f"{on_one_line(repr(text))}: give a seed from 0 to {MAX_SEED}, "
                                          "or below 0 for none")
    return int(text)


def token_count(text):
    """A number of tokens a server is asked to stop at: llama.cpp reads it as a 32-bit int (n_predict)."""
    count = positive_int(text)
    if count > MAX_JUDGE_TOKENS:
        raise argparse.ArgumentTypeError(f"{text!r}: at most {MAX_JUDGE_TOKENS} tokens")
    return count


def repeat_count(text):
    count = positive_int(text)
    if count > MAX_REPEAT:
        raise argparse.ArgumentTypeError(f"at most {MAX_REPEAT} trials per case")
    return count


def vote_count(text):
    count = positive_int(text)
    if count > MAX_VOTES:
        raise argparse.ArgumentTypeError(f"at most {MAX_VOTES} votes per judge model")
    return count


def number_within(text, accepted, why):
    """A float argument that `accepted` takes (nan never is); otherwise argparse's error, `why`."""
    try:
        value = float(text)
    except ValueError:
        value = None
    if value is None or not accepted(value):
        raise argparse.ArgumentTypeError(why)
    return value + 0.0   # -0 is 0 ("T=-0" in every view)


def positive_float(text):
    return number_within(text, lambda v: 0 < v <= MAX_TIMEOUT,
                         f"{text!r}: give a number of seconds above 0, at most {MAX_TIMEOUT:,.0f}")


def temperature(text):
    return number_within(text, lambda v: 0 <= v < inf, f"{text!r}: give a temperature of 0 or more, like 0 or 0.7")


def port_number(text):
    if not text.isdigit() or int(text) > 65535:
        raise argparse.ArgumentTypeError(f"{text!r}: give a port from 0 to 65535 (0 picks a free one)")
    return int(text)


def ascii_digits(text):
    """Digits of another script as ASCII ones: float() and Fraction() read "1e-٩٩٩٩٩٩٩٩٩", and the check of an
    exponent's size read ASCII digits alone (10^999999999 was written out: a hang)."""
    return re.sub(r"\d", lambda m: str(unicodedata.decimal(m.group())), text)


HUGE_EXPONENT = re.compile(r"[eE][+-]?0*[1-9]\d{3}")   # an exponent of 1000 or more: refused before it is read


def tiny_past_reading(text):
    """Whether text is a number below 1 whose exponent is past what parse_rate reads (1e-1000)."""
    # (1e1000, or a word holding e1000, would be refused anyway)
    return bool(re.fullmatch(r"\s*\+?(?:\d+\.?\d*|\.\d+)[eE]-0*[1-9]\d{3,}%?\s*", ascii_digits(text).replace("_", "")))


def rate_refused(text, wanted):
    """The one line refusing a rate: what to give, and why a number of a huge exponent, in range, was not read."""
    return (f"{text!r}: give {wanted}" + (" (an exponent of 1000 or more is not read: write the number with a smaller one)"
                                           if tiny_past_reading(text) else ""))


def parse_rate(text):
    """'0.85' or '85%' as 0.85; None if it is neither. A percentage is divided exactly: in floats
    23.6 / 100 is 0.23600000000000002, a line 23.58% would keep its side of by printing as 23.6%."""
    text = ascii_digits(text)
    if HUGE_EXPONENT.search(text.replace("_", "")):   # 1e-99_999_999%: Fraction writes out 10^99999999 first
        return None
    try:
        # + 0.0: a -0 given is 0 ("against a minimum of -0%")
        return (float(Fraction(text[:-1]) / 100) if text.endswith("%") else float(text)) + 0.0
    except (ValueError, ZeroDivisionError):
        return None


def probability(text):
    """A probability strictly between 0 and 1."""
    value = parse_rate(text)
    if value is None or not 0 < value < 1:
        raise argparse.ArgumentTypeError(rate_refused(text, "a probability between 0 and 1, exclusive, like 0.05 or 5%"))
    return value


# The smallest --alpha: below it 1 - alpha/2 is too near 1 in floats for the interval's quantile
# (at 1e-16 it is 1.0, and a normal or t quantile of 1 is infinite).
LEAST_ALPHA = 1e-12


def significance(text):
    """A significance level: a probability no smaller than LEAST_ALPHA."""
    value = parse_rate(text)
    if (value is not None and 0 < value < LEAST_ALPHA) or (value is None and tiny_past_reading(text)):
        raise argparse.ArgumentTypeError(f"{text!r}: give a significance level from {LEAST_ALPHA:g} to below 1, like 0.05 "
                                         f"or 5% (a smaller one is past what the intervals can be computed for)")
    alpha = probability(text)
    # a level written past a float's digits is another level once read (0.03124999999999999999 is 0.03125, and p = 1/32
    # was read as within it): said, not rounded in silence
    written = ascii_digits(text)
    with contextlib.suppress(ValueError, ZeroDivisionError):
        if (Fraction(written[:-1]) / 100 if written.endswith("%") else Fraction(written)) != Fraction(repr(alpha)):
            raise argparse.ArgumentTypeError(f"{text!r} has more digits than a level is read with (it would be read as "
                                             f"{alpha!r}); write {alpha!r}, or the level with fewer digits")
    return alpha


def difference_in_rate(text):
    """A difference in pass rate, either sign, not 0: 0.10, -0.05 or 10%."""
    value = parse_rate(text)
    if value is None or not 0 < abs(value) <= 1:
        raise argparse.ArgumentTypeError(rate_refused(text, "a difference in pass rate from -1 to 1, not 0, like 0.10 or 10%"))
    return value


def share_of_cases(text):
    """A share of the cases above 0, at most all of them: 0.14 or 14%."""
    value = parse_rate(text)
    if value is None or not 0 < value <= 1:
        raise argparse.ArgumentTypeError(rate_refused(text, "a share of the cases above 0 and at most 1, like 0.14 or 14%"))
    return value


MOST_MINIMUM_DIGITS = 4000   # characters of a minimum, read exactly (Fraction): Python converts no more than 4,300 digits at once


def accuracy_threshold(text):
    """0 and 1 are allowed here (1 means every case must pass). Kept exactly as written (ExactShare):
    0.85714285714285715 is the float of 24/28, and a run of 24/28, below it, passed."""
    value = parse_rate(text)
    if value is None or not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(rate_refused(text, "an accuracy from 0 to 1, like 0.85, or a percentage like 85%"))
    written = ascii_digits(text.strip())
    if len(written) > MOST_MINIMUM_DIGITS:   # past Python's 4,300 digits the float was read, not what was written
        raise argparse.ArgumentTypeError(f"{text[:40]!r}... ({len(text):,} characters): give an accuracy with at "
                                         f"most {MOST_MINIMUM_DIGITS:,} digits, like 0.85")
    try:
        share = ExactShare(Fraction(written[:-1]) / 100 if written.endswith("%") else Fraction(written))
    except ValueError:   # what float reads and Fraction does not ("0.8_5"): its float, exactly
        share = ExactShare(Fraction(value))
    if not 0 <= share.exactly <= 1:   # 1.0000000000000001 is 1.0 as a float: a gate no run could pass
        raise argparse.ArgumentTypeError(f"{text!r}: give an accuracy from 0 to 1, like 0.85, or a percentage like 85%")
    return share


class CommandLine(argparse.ArgumentParser):
    """argparse, saying what is wrong in one line and where the help is, instead of the usage first;
    never taking a prefix for an option (`--api` must not quietly become `--api-key`)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **{"allow_abbrev": False, **kwargs})
        self.given = []

    def parse_known_args(self, args=None, namespace=None):
        self.given = list(sys.argv[1:] if args is None else args)   # what error() may name
        return super().parse_known_args(args, namespace)

    def parse_args(self, args=None, namespace=None):
        known, extra = self.parse_known_args(args, namespace)
        if extra:   # named without the values given to them: `report --api-key sk-...` printed the key
            # said by the command's own parser (its help, its options' spelling: `run --splt`)
            command = next((a.choices[known.command] for a in self._actions if isinstance(a, argparse._SubParsersAction)
                            and getattr(known, "command", None) in a.choices), self)
            option = next((w.split("=", 1)[0] for w in extra if w.startswith("--")), None)
            near = option and difflib.get_close_matches(option, list(command._option_string_actions), n=1)
            # an option of the command given before it (`eval.py --json runs`): where it goes, not itself as a spelling
            hint = (f"; give {near[0]} after the command ({self.prog} {known.command} {near[0]} ...)" if near and near[0] == option
                    else f"; did you mean {near[0]}?" if near else "")
            command.error(f"unrecognized arguments: {' '.join(unprinted_values(extra))}{hint}")
        return known

    def error(self, message):
        # a value refused (a command name, a choice, a number) as long as a key is not shown: `eval.py --api-key KEY run`
        # took KEY for the command, and `--api KEY` (for --api-key) for the API
        message = re.sub(r"(invalid (?:choice|int value|float value): |^argument \S+: )('(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\")",
                         lambda m: m.group(1) + unshown_value(m.group(2)), message)
        required = re.fullmatch(r"the following arguments are required: (.*)", message)
        if required:   # argparse lists a positional that may be left out (compare's more RUNs) among them
            optional = {a.metavar or a.dest for a in self._actions if not a.option_strings and a.nargs in ("*", "?")}
            names = [n for n in required.group(1).split(", ") if n not in optional]
            message = f"the following arguments are required: {', '.join(names)}"
        wrong = re.search(r"invalid choice: '([^']*)' \(choose from (.*)\)", message)
        near = wrong and difflib.get_close_matches(wrong.group(1), re.findall(r"'([^']*)'", wrong.group(2)), n=1)
        hint = f"; did you mean {near[0]}?" if near else ""
        misplaced = self.option_before_command() if "invalid choice" in message else None
        if misplaced:   # `eval.py --model m run`: the value was taken for the command
            hint = f"; {misplaced}"
        self.exit(2, f"error: {self.unknown_dash_word(message) or message}{hint} (see {self.prog} --help)\n")

    def option_before_command(self):
        """Where an option of a command given before the command goes (`eval.py --model m run`), or None."""
        commands = next((a.choices for a in self._actions if isinstance(a, argparse._SubParsersAction)), {})
        command = next((w for w in self.given if w in commands), None)
        option = next((w.split("=", 1)[0] for w in self.given if w.startswith("--")), None)
        if command is None or option is None or self.given.index(command) < self.given.index(
                next(w for w in self.given if w.startswith("--"))) or option not in commands[command]._option_string_actions:
            return None
        return f"give {option} after the command ({self.prog} {command} {option} ...)"

    def unknown_dash_word(self, message):
        """`init -x`: argparse takes -x for an option it does not know and says only that DIR is
        missing. Said instead: -x is no option here, and how to give it as the value."""
        if not message.startswith("the following arguments are required:") or "--" in self.given:
            return None
        word = next((w for w in self.given if w.startswith("-") and w.split("=", 1)[0] not in self._option_string_actions
                     and not self._negative_number_matcher.match(w)), None)
        if word is None:
            return None
        needs = message.removeprefix("the following arguments are required: ")
        if "=" in word:   # an option with its value, never a DIR: named without it (a key given to the wrong command)
            return f"{unprinted_values([word])[0]} is not an option of {self.prog}, which needs {needs}"
        return (f"{on_one_line(word)} is not an option of {self.prog}, which needs {needs}: to give "
                f"{on_one_line(word)} as it, put -- before it ({self.prog} -- {shell_word(word)})")


def unshown_value(quoted):
    """A value argparse or a converter refused, as its message quotes it: one as long as a key is, and not a
    number, by its length alone."""
    value = quoted[1:-1]
    if len(value) < SECRET_LENGTH or re.fullmatch(r"[\d.eE+\-%/_ ]*", value):
        return quoted
    return f"a value of {len(value)} characters (not shown: it may be a key)"


def unprinted_values(words):
    """Words argparse could not place, as an error shows them: an option's value (after it, or after its
    "=") as "…", since the option may be a key given to a command that takes none, or a typo of --api-key."""
    shown = []
    for i, word in enumerate(words):
        if word.startswith("-") and "=" in word:
            shown.append(on_one_line(word.split("=", 1)[0]) + "=…")
        elif i and words[i - 1].startswith("-") and "=" not in words[i - 1] and not (word.startswith("-") and len(word) < SECRET_LENGTH):
            shown.append("…")   # (a key may begin with "-": base64url)
        else:
            shown.append(on_one_line(word))
    return shown


# Where GivenOnce keeps the values given so far, in the namespace until main() takes it out
GIVEN_VALUES = "_given_values"
# The options whose values are never printed: a key, and a host that may hold a password (refused unprinted)
UNPRINTED = ("api_key", "host")


class GivenOnce(argparse.Action):
    """An option of one value given twice with two values is refused: argparse keeps the last in silence
    (`--min-accuracy 0.9 ... --min-accuracy 0.5` gated at 0.5, the first never seen). The same value twice
    says one thing and is taken."""

    def __call__(self, parser, namespace, values, option_string=None):
        given = namespace.__dict__.setdefault(GIVEN_VALUES, {})
        blank = next((v for v in (given.get(self.dest), values) if isinstance(v, str) and not v.strip()), None)
        if blank is not None:   # an empty value has its own refusal, which names it (refuse_empty_values)
            given[self.dest] = values = blank
        elif self.dest in given and given[self.dest] != values:
            raise argparse.ArgumentError(self, "given twice, with two values: give it once" if self.dest in UNPRINTED else
                                         f"given twice, as {shell_word(str(given[self.dest]))} and {shell_word(str(values))}: "
                                         "give it once")
        given[self.dest] = values
        setattr(namespace, self.dest, values)


# How each kind of value in OPTIONS (§1) is read: the converters above, and the choices §3 declares.
OPTION_KINDS = {
    "text": {}, "seed": {"type": seed_number}, "count": {"type": positive_int}, "trials": {"type": repeat_count},
    "votes": {"type": vote_count},
    "tokens": {"type": token_count},
    "seconds": {"type": positive_float}, "retries": {"type": int, "choices": range(0, 11)},
    "temperature": {"type": temperature}, "probability": {"type": probability}, "significance": {"type": significance},
    "accuracy": {"type": accuracy_threshold}, "port": {"type": port_number},
    "difference": {"type": difference_in_rate}, "share": {"type": share_of_cases},
    "flag": {"action": "store_true"}, "each": {"action": "append"},
    "api": {"choices": APIS}, "think": {"choices": list(THINK_VALUES)}, "format": {"choices": ["json", "schema"]},
}


def options_of(command, **wanted):
    """The rows of OPTIONS that `command` takes, in the table's order; wanted: only those whose
    fields have these values (run_config=True, judge_call=True)."""
    return [o for o in OPTIONS if command in o.commands and all(getattr(o, k) == v for k, v in wanted.items())]


def parsed_default(option):
    """None for an option whose being given matters: `run --resume` refuses any of the run's
    configuration, and compare and judge refuse a judge's options when they ask none; even a
    default typed out is seen. fill_defaults() puts the table's default in afterwards."""
    return None if option.run_config or option.judge_call else option.default


def add_options(command_parser, command, newest):
    """The command's options from the table, each in its section of the help, in the table's order."""
    sections, exclusive = {None: command_parser}, {}
    for option in options_of(command):
        if option.group not in sections:
            sections[option.group] = command_parser.add_argument_group(option.group)
        into = sections[option.group]
        if option.exclusive:
            if option.exclusive not in exclusive:
                exclusive[option.exclusive] = into.add_mutually_exclusive_group()
            into = exclusive[option.exclusive]
        kind = OPTION_KINDS[option.kind]
        into.add_argument(*option.flags, default=parsed_default(option), help=option.help.replace("{newest}", newest),
                          **({"metavar": option.metavar} if option.metavar else {}),
                          **({"action": GivenOnce} if "action" not in kind else {}), **kind)


# Options whose empty value has its own refusal, which says what to give instead (chosen_run_path,
# refuse_page_options, refuse_judge_options_alone, quick_look).
OWN_EMPTY_REFUSAL = ("--out", "--html", "--pairwise", "--cases")


def refuse_empty_values(args):
    """An option given nothing (`--prompt=`, or `--prompt "$P"` with P unset) is refused, naming the
    flag: read as not given, it ran the default prompt (or a grid against it), the split's own
    passages, a plain report for --case=, a new run for --resume=. Blanks name nothing either; nor
    does a blank RUN, DIR or folder (`report "$RUN"` said "error: : no such run file")."""
    for option in options_of(args.command):
        if option.kind in ("text", "each") and option.flags[0] not in OWN_EMPTY_REFUSAL:
            blank = first_blank(getattr(args, option.dest))
            if blank is not None:
                raise EvalError(f"{option.flags[0]} {shell_word(blank)} names nothing: give a value, or leave "
                                f"{option.flags[0]} out")
    for name, settings in COMMANDS[args.command][2]:
        blank = first_blank(getattr(args, name))
        if blank is not None:
            raise EvalError(f"{args.command}: {settings.get('metavar', name)} {shell_word(blank)} names nothing")


def first_blank(given):
    """The first empty or blank text among an argument's values (one, or a list), else None."""
    return next((v for v in (given if isinstance(given, list) else [given]) if isinstance(v, str) and not v.strip()), None)


def given_options(args, options):
    """The flags of those options the command line gave (parsed_default left them None otherwise)."""
    return [o.flags[0] for o in options if getattr(args, o.dest) is not None]


def fill_defaults(args, options):
    """The table's default for each of these options that parsed_default left None."""
    for option in options:
        if getattr(args, option.dest) is None:
            setattr(args, option.dest, option.default)


# Each command: its one-line summary, its description in --help, and its positional arguments (the
# options are OPTIONS' rows, §1).
COMMANDS = {
    "run": ("ask the model about every case of a split and store a run file",
            "Ask the model about every case of a split, store the raw answers with "
            "their configuration in runs/, then print the report.", []),
    "report": ("score a run file (never calls a model)",
               "Recompute every figure from a run file alone: accuracy (or pass rate) with its 95% interval "
               "beside the majority-label baseline; with trials, the mean of each case's pass rate with an "
               "interval over cases; where a judge left cases undecided, the bounds they allow first "
               "(between 0/27 and 21/27); then errors, per-label and per-check figures, slices, failures.",
               [("run", {"help": "a run file, e.g. runs/dev-v3.json"})]),
    "compare": ("compare runs of the same split case by case (two; or three and more in one table)",
                "Which cases a change fixed and which it broke, and the change in pass rate with its 95% "
                "interval and a paired test (mid-p McNemar; with trials, per-case pass rates). With three or "
                "more runs: one table, each run tested against the first (Holm-adjusted). "
                "Refuses runs made on different versions of the split. Never calls a model, except with "
                "--pairwise, which asks a judge (the model-call and judge options apply "
                "to it alone) and stores its verdicts beside the candidate run.",
                [("baseline", {"help": "the run before the change"}),
                 ("candidate", {"help": "the run after the change"}),
                 ("more", {"nargs": "*", "metavar": "RUN",
                           "help": "more runs of the same split: a table of all of them in the order given, each "
                                   "tested against the first, the reference (Holm-adjusted); the gates take it as "
                                   "the baseline of each other"})]),
    "runs": ("list the run files in a folder, one line each, newest first",
             "Each run file in FOLDER: its split and hash, prompt, model, temperature, "
             "trials, date and headline figure, newest first; an interrupted run (its journal) with its answers "
             "so far and the command that finishes it.",
             [("folder", {"nargs": "?", "default": RUNS_DIR, "help": f"the folder (default {RUNS_DIR})"})]),
    "init": ("start a golden set of your own: a guide, labels, two example cases and a prompt",
             "Write into DIR a labelling guide (GUIDE.md) to fill in, labels.txt, dev.jsonl with two example "
             "cases (with difficulty and note) and prompts/v1.txt, ready for run --split DIR/dev.jsonl "
             "--prompt DIR/prompts/v1.txt (init prints the command). "
             "Nothing that exists is ever replaced: if any of these files is there, nothing is written.",
             [("folder", {"metavar": "DIR", "help": "the folder of the new set (made if missing)"})]),
    "judge": ("judge a run's answers again into a new run file (the original is kept)",
              "Ask the judge(s) about every answer that has a judge check, and write a new "
              "run file with the votes. The run itself is never modified.",
              [("run", {"help": "the run whose answers to judge"})]),
    "calibrate": ("measure a judge against a person's verdicts",
                  "VERDICTS is JSONL, one {\"id\": ..., \"check\": ..., \"pass\": true|false} "
                  "(optionally \"trial\") a line: a person's verdicts on answers in RUN. For each "
                  "judge check: the share of real failures the judge catches, of real passes it "
                  "leaves alone (each with its Wilson 95% interval), raw agreement, Cohen's kappa "
                  "(with its large-sample interval) and the 2x2 table, with warnings when failure "
                  "detection's interval reaches below 0.8 or the verdicts are unbalanced.",
                  [("verdicts", {"help": "JSONL of a person's verdicts"}),
                   ("run", {"help": "a run with judge verdicts for those answers"})]),
    "review": ("read a run's traces in the browser and annotate what went wrong",
               "Serve a local page (127.0.0.1 only) to read every case of a run and write a "
               "free-text annotation of what went wrong on each failure. Annotations are saved at once "
               "to RUN.annotations.json; the run file is never modified. report counts them.",
               [("run", {"help": "the run to read"})]),
    "power": ("how many cases a comparison needs, and what a number of cases can tell",
              "Sizing questions, each answered exactly and at once. Three of them:\n\n"
              "How many cases does a paired comparison (compare) need? --difference is the change in pass rate to\n"
              "tell from chance, --discordant the share of the cases expected to change verdict between the runs\n"
              "(fixed or broken; at least the difference). The fewest cases whose exact power, for the mid-p\n"
              "McNemar test compare uses, reaches --prob, searched from Connor's (1987) formula:\n"
              "  power --difference 0.10 --discordant 0.14    99 cases for 80% power at alpha 0.05\n\n"
              "What can a comparison of N cases tell? The fewest changes of verdict, all one way, that compare's\n"
              "test calls, and the smallest difference it calls when 10%, 20% or 40% of the cases change:\n"
              "  power --rows 28                              5 of 28 changed, all one way: p = 0.031\n\n"
              "How many rows does a test need to show a rule's failures? The chance of seeing them is binomial:\n"
              "  power --rate 0.16 --failures 6 --prob 0.8    rows to see >= 6 failures with 80% chance\n"
              "  power --rate 0.16 --rows 38                  chance of seeing >= 6 failures in 38 rows\n\n"
              "For an unpaired test (versions run on different rows, or one pre-registered that way):\n"
              "  power --rows 40 --unpaired                   failures Fisher's test needs against a baseline\n"
              "                                               that never failed", []),
}


def parser():
    p = CommandLine(prog="eval.py", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog="Exit codes: 0 success, 1 quality gate failed, "
                                       "2 usage, input or infrastructure error.")
    p.add_argument("--version", action="version", version=f"eval.py {__version__}")
    sub = p.add_subparsers(dest="command", required=True, metavar="{" + ",".join(COMMANDS) + "}")
    try:
        newest = f", here {newest_prompt()}"
    except EvalError:
        newest = ""

    for name, (summary, description, positionals) in COMMANDS.items():
        command_parser = sub.add_parser(name, help=summary, description=description,
                                        formatter_class=argparse.RawDescriptionHelpFormatter if "\n" in description
                                        else argparse.HelpFormatter)
        for flag, settings in positionals:
            command_parser.add_argument(flag, **settings)
        add_options(command_parser, name, newest)   # every option from OPTIONS (§1)
    return p


def cmd_run(args):
    grid = grid_of(args)
    if len(grid) > 1:
        return run_grid(grid)
    with terminated_as_interrupted():
        finished = run_split(grid[0])
    if finished is None:
        return 2   # interrupted: the answers are in the journal, and the message says how to resume
    return report_run(*finished, args.compare)


def refuse_page_options(args):
    if args.force and args.html is None:
        raise EvalError("--force only applies with --html FILE (it lets the page replace FILE)")
    if args.html is not None and (not args.html.strip() or args.html == "-"):
        raise EvalError("--html needs a file name, like report.html (the page is a file, never stdout)")
    if args.html is not None:   # before a pairwise judge is paid, or a run read, for a page never written
        refuse_page_name(args.html)


def cmd_report(args):
    refuse_page_options(args)
    checks = checks_from_split(args.checks) if args.checks else None
    if args.case:
        return show_one_case(args, checks)
    run, config, cases = graded_for_report(args, checks)
    annotations, other_versions = run_annotations(args.run)
    s = report_score(args.run, config, cases, args.checks, annotations, other_versions)
    completed = finished_completion(args.run, config) if s["errors"] else None
    code, verdicts = report_gates(cases, s, args.min_accuracy, args.must_pass, args.checks, args.run, config, completed)
    if args.html is not None:
        write_page(args.html, report_page(args.run, run, cases, s, annotations), args.force,
                   [*files_of_run(args.run, config), args.checks])
    show(view_of(args), {"run": args.run, "config": {k: v for k, v in config.items() if k != "prompt_text"},
                         **s, "gates": {"exit": code, "verdicts": verdicts}},
         lambda: markdown_report(config, s, args.run), lambda: format_report(config, s, args.run), verdicts)
    return code


def show_one_case(args, checks):
    """report --case: one case in full, graded as the whole report would grade it."""
    if args.html is not None:
        raise EvalError("--html writes the page of the whole run; drop --case (or drop --html to see one case)")
    gate = "--min-accuracy" if args.min_accuracy is not None else "--must-pass" if args.must_pass else None
    if gate:   # judged over one case, or not at all, a gate would pass what the run may fail
        raise EvalError(f"{gate} is a gate on the whole run; drop --case (or drop {gate} to see one case)")
    run = load_run(args.run, checks is None)
    run_annotations(args.run)   # a damaged sidecar is refused here as by every other view of the run
    scored_with_checks_now(args, checks, run)
    show(view_of(args), *case_views(run, args.case, checks, args.checks))
    return 0


def graded_for_report(args, checks):
    """(the run itself if the page needs it, else None; its config; its graded cases)."""
    if args.html is None and checks is None:
        return (None, *read_graded(args.run))   # its results are let go once graded
    run = load_run(args.run, checks is None)   # the page shows inputs and answers; --checks reads each answer's tools
    scored_with_checks_now(args, checks, run)
    return (run if args.html is not None else None), run["config"], grade_run(run, checks)


def same_judge_checks(path, checks, run, run_path):
    """report --checks: a judge check the split asks otherwise (another criterion, or type) than the one
    the run's votes answered, under the same name, would be scored with those votes: refused, naming the
    case and the check, with the judge command that asks it."""
    for r in run["results"]:
        stored = {c["name"]: c for c in r["checks"] if c["type"] in JUDGE_CHECKS}
        for c in checks[r["id"]]["checks"]:
            was = stored.get(c.get("name"))
            # a judge check's value is its criterion; the RAG checks' is a threshold, rescored from the stored votes
            asked = (c["type"], c.get("value") if c["type"] == "judge" else None)
            if was is not None and asked != (was["type"], was.get("value") if was["type"] == "judge" else None) \
                    and any(v["check"] == c["name"] for v in r.get("judges") or []):
                raise EvalError(f"--checks {shell_word(path)}: case {on_one_line(r['id'])}: its judge check "
                                f"{on_one_line(c['name'], 60)} asks otherwise there than the one the run's votes answered; "
                                f"ask the judge it: {judge_command(run_path, run['config'], path)}")


def scored_with_checks_now(args, checks, run):
    """report --checks: the split's cases must be the run's (hold them, for a partial run), its
    trajectory checks written for the tools the run's model had; the report says whose checks it used."""
    if args.checks:
        same_cases(args.checks, checks, run["results"], partial=bool(run["config"].get("subset")))
        same_questions(args.checks, checks, run["results"])
        same_tools(args.checks, checks, run["results"])
        same_judge_checks(args.checks, checks, run, args.run)
        warn(f"scored with the checks {shell_word(args.checks)} defines now, not those stored in the run")


def cmd_compare(args):
    refuse_page_options(args)
    paths = [args.baseline, args.candidate, *args.more]
    refuse_same_runs(paths)
    if args.more:
        return compare_many_runs(args, paths)
    refuse_judge_options_alone(args)
    (a_run, a_config, a_cases), (b_run, b_config, b_cases) = graded_pair(args)
    refuse_copies(paths, (a_config, b_config))
    c = compare_runs(a_config, a_cases, b_config, b_cases, alpha=args.alpha, fisher=args.fisher,
                     names=(f"{shell_word(args.baseline)} (the baseline)", f"{shell_word(args.candidate)} (the candidate)"))
    if args.pairwise:
        c["pairwise"] = pairwise_figures(pairwise_compare(args, args.baseline, a_run, args.candidate, b_run), args.alpha)
    code, verdicts = compare_gates(c, args.fail_on_regression, args.fail_if_worse,
                                   ((args.baseline, a_config, a_cases), (args.candidate, b_config, b_cases)))
    if args.html is not None:
        write_page(args.html, compare_page((args.baseline, args.candidate), (a_run, b_run), (a_cases, b_cases), c),
                   args.force, [*files_of_run(args.baseline, a_config), *files_of_run(args.candidate, b_config)])
    show(view_of(args), {"baseline_run": args.baseline, "candidate_run": args.candidate, **c,
                         "gates": {"exit": code, "verdicts": verdicts}},
         lambda: markdown_compare(c, args.baseline, args.candidate),
         lambda: format_compare(c, args.baseline, args.candidate), verdicts)
    return code


def refuse_same_runs(paths):
    for i, path in enumerate(paths):
        for other in paths[i + 1:]:
            refuse_same_run(path, other)


def refuse_copies(paths, configs):
    """Two files of one run (a copy: the same configuration, begun at the same moment, with the same
    results, however laid out) read as a rerun that varied not at all: a system that looks perfectly
    repeatable, and one more comparison counted. The results are read again only of runs whose
    configurations are alike, date and all (a rerun's date differs)."""
    results = {}   # each run read once, however many others share its configuration
    def results_of(path):
        if path not in results:
            results[path] = load_run(path)["results"]
        return results[path]
    for i, (path, config) in enumerate(zip(paths, configs)):
        for other, other_config in zip(paths[i + 1:], configs[i + 1:]):
            if config != other_config:
                continue
            try:
                same = results_of(path) == results_of(other)
            except EvalError:
                continue   # read a moment ago: gone since, its reading said so or will
            if same:
                raise EvalError(f"{shell_word(path)} and {shell_word(other)} are one run (a copy: the same configuration, "
                                "begun at the same moment, and the same results); compare it with another run")


def graded_pair(args):
    """(run or None, config, graded cases) of the baseline and of the candidate: the runs
    themselves only when --pairwise or --html needs their answers, not only their grades."""
    if args.pairwise or args.html:
        a_run, b_run = load_run(args.baseline), load_run(args.candidate)
        return (a_run, a_run["config"], grade_run(a_run)), (b_run, b_run["config"], grade_run(b_run))
    return (None, *read_graded(args.baseline)), (None, *read_graded(args.candidate))


def compare_many_runs(args, paths):
    if args.pairwise is not None or args.html or args.fisher:
        flag = "--pairwise" if args.pairwise is not None else "--html" if args.html else "--fisher"
        raise EvalError(f"{flag} compares two runs; give a baseline and a candidate, not {len(paths)} runs")
    refuse_call_options(args, "only applies with --pairwise, which compares two runs")
    runs = [(path, *read_graded(path)) for path in paths]
    refuse_copies(paths, [config for _, config, _ in runs])
    m = compare_many(runs, alpha=args.alpha)
    code, verdicts = many_gates(runs, m, args.fail_on_regression, args.fail_if_worse)
    show(view_of(args), {**m, "gates": {"exit": code, "verdicts": verdicts}},
         lambda: markdown_many(m), lambda: format_many(m), verdicts)
    return code


def refuse_call_options(args, why):
    """Options for asking a judge, given to a command that asks none: refused, never silently ignored
    (compare and judge leave them None when not given: even a default typed out is seen)."""
    given = given_options(args, options_of(args.command, judge_call=True))
    if given:
        raise EvalError(f"{given[0]} {why}")


def call_defaults(args):
    """The defaults of the options compare and judge leave None, once they are to ask a judge."""
    fill_defaults(args, options_of(args.command, judge_call=True))


def refuse_judge_options_alone(args):
    """compare's judge and call options only mean something with --pairwise."""
    if args.pairwise is None:
        refuse_call_options(args, "only applies with --pairwise (compare alone never calls a model)")
    elif not args.pairwise.strip():
        raise EvalError("--pairwise needs a criterion in words, e.g. --pairwise \"Which answer helps the customer more?\"")
    args.judge_max_tokens_given = args.judge_max_tokens is not None   # the cap's default spares an uncapped sidecar
    call_defaults(args)


def cmd_judge(args):
    if args.audit:
        refuse_call_options(args, "does not apply with --audit: the audit reads the verdicts the run holds and asks no judge")
        config, cases = read_graded(args.run)
        return show_audit(args, config, cases)
    if args.json:
        raise EvalError("--json applies to --audit only; judge writes a run file and prints its report")
    call_defaults(args)
    args.run, run, target = judge_target(args.run, args.out)
    done = judge_run(args, run, target)
    if done is None:
        return 2   # interrupted: the votes are in the judging, and the message says how to go on
    judged, written, failed = done
    say(format_report(judged["config"], score(judged["config"], grade_run(judged)), written))
    for line in judge_call_warnings(judged["results"], judged["config"], written):
        warn(line)
    return 2 if failed else 0


def cmd_calibrate(args):
    human, untrialled = read_human_verdicts(args.verdicts)
    config, cases = read_graded(args.run)
    trials_named(args.verdicts, untrialled, config["repeat"])
    report = calibration(human, judge_verdicts_of(cases), args.verdicts, args.run)
    audit = judge_audit(config, cases, args.run, human) if args.audit else None
    show(view_of(args), {"verdicts": args.verdicts, "run": args.run, "checks": report, **({"audit": audit} if audit else {})},
         None, lambda: format_calibration(report) + (f"\n\n{format_audit(audit, config, args.run)}" if audit else ""))
    return 0


def show_audit(args, config, cases):
    audit = judge_audit(config, cases, args.run)
    show(view_of(args), {"run": args.run, "audit": audit}, None, lambda: format_audit(audit, config, args.run))
    return 0


def cmd_review(args):
    if args.against:   # its differences would all be "the same answer": nothing to review against
        refuse_same_run(args.run, args.against, "give --against another run")
    through_link(args.run, "its annotations are kept beside it")
    review = Review(args.run, args.against)
    for note in review.notes():
        warn(f"note: {note}")
    serve_until_stopped(serve_review(review, args.port), args.run, review.sidecar)
    return 0


def cmd_runs(args):
    if not os.path.isdir(args.folder):
        raise EvalError(f"{shell_word(args.folder)}: " + ("a file, not a folder: runs lists the runs in a folder (report reads one run)"
                                                          if os.path.exists(args.folder) else "no such folder"))
    with remembering_names():   # the folder's second names looked up once, not once per run with errors
        listing = run_listing(args.folder)
    show(view_of(args), *listing)
    return 0


def cmd_init(args):
    files = write_golden_set(args.folder)
    split, prompt = (p for p in files if p.endswith((".jsonl", "v1.txt")))
    # The folder's name is the user's: a line break or ESC in it is shown escaped, never obeyed.
    print(f"wrote {', '.join(map(shell_word, files))}\n"
          f"Write the labelling rules in {shell_word(os.path.join(args.folder, 'GUIDE.md'))} and the labels in "
          f"{shell_word(os.path.join(args.folder, LABELS_FILE))}, then your cases in {shell_word(split)}, then try it:\n"
          f"    {program()} run {option_word('--split', split)} {option_word('--prompt', prompt)}")
    return 0


def cmd_power(args):
    lines, figures = power_answer(args.rate, args.rows, args.failures, args.prob, args.alpha, args.difference,
                                  args.discordant, args.unpaired)
    show(view_of(args), figures, None, lambda: "\n".join(lines))
    return 0


@contextlib.contextmanager
def cyclic_collector(off):
    """off: short batch jobs over one big tree of dicts that holds no reference cycles: the cyclic
    collector would only walk that tree again and again (40% of a 100,000-case report)."""
    collecting = gc.isenabled()
    if off:
        gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()   # main() is also called in-process, by the tests


class ReaderGone:
    """stdout or stderr, for a reader that may go away (`run ... 2>&1 | head -3`): from the first
    write that meets the closed pipe on, what is written goes to /dev/null. A progress line, a note
    or the report printed at the end never stops a run, a judge or a pairwise compare half way, and
    the command's exit code stays its outcome (the run file written, a gate failed), never a
    BrokenPipeError read as success."""

    def __init__(self, stream):
        self.stream, self.gone = stream, stream is None   # None: Python found no descriptor to write to

    def isatty(self):
        return not self.gone and self.stream.isatty()

    def write(self, text):
        if not self.gone:
            try:
                return self.stream.write(text)   # a line-buffered stream writes through here
            except OSError as e:
                self.reader_left(e)
        return len(text)

    def flush(self):
        if not self.gone:
            try:
                self.stream.flush()
            except OSError as e:
                self.reader_left(e)

    def reader_left(self, e):
        """A closed pipe, or a descriptor closed from the start (`2>&-`); any other failure (a full
        disk under `> report.txt`) is the user's to hear of."""
        if e.errno not in (errno.EPIPE, errno.EBADF):   # named: "No space left on device" alone names no file
            stream = {1: "standard output", 2: "standard error"}.get(self.fileno_or_none(), "the output")
            raise EvalError(f"cannot write to {stream} ({e.strerror}); {remedy(e).lower()} where it goes") from None
        self.gone = True
        try:   # the descriptor itself to /dev/null: what is still buffered, flushed at exit, goes there too
            devnull = os.open(os.devnull, os.O_WRONLY)
            try:
                os.dup2(devnull, self.stream.fileno())
            finally:
                os.close(devnull)
            self.stream.flush()
        except (OSError, ValueError, AttributeError):   # no descriptor (a test's capture): nothing left to fail
            pass

    def fileno_or_none(self):
        try:
            return self.stream.fileno()
        except (OSError, ValueError, AttributeError):   # a test's capture has none
            return None

    def __getattr__(self, name):   # isatty, fileno, encoding...: the stream's own
        return getattr(self.stream, name)


@contextlib.contextmanager
def readers_may_leave():
    """stdout and stderr as ReaderGone while a command runs; as they were after (main() is also called
    in-process, by the tests)."""
    streams = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = ReaderGone(sys.stdout), ReaderGone(sys.stderr)
    try:
        yield
    finally:
        sys.stdout, sys.stderr = streams


def handled(handler, args):
    """The command's exit code; every foreseeable failure as one plain line, exit 2."""
    try:
        if threading.current_thread() is not threading.main_thread():   # (signals are the main thread's)
            return handler(args)
        if signal.SIGINT not in IGNORED_AT_START:
            signal.signal(signal.SIGINT, signal.default_int_handler)   # from here on Ctrl-C stops what runs, said below
        with terminated_as_interrupted():   # and SIGTERM or SIGHUP, whatever the command is doing (a report being worked out)
            return handler(args)
    except EvalError as e:
        last_word(f"error: {inert(str(e))}")   # it may quote what a server or a file sent
        return 2
    except KeyboardInterrupt:
        last_word("interrupted")
        return 2
    except OSError as e:      # disk full, no permission: the user's machine, not a bug
        where = f"{shell_word(os.fsdecode(e.filename))}: " if e.filename else ""
        last_word(inert(f"error: {where}{e.strerror or e}"))
        return 2


LONGEST_ERROR = 2000   # characters of an error line: one quoting a 5 MB id from a file printed all of it


def last_word(line):
    """The command's last word on stderr, each line past LONGEST_ERROR cut in its middle (its start
    names the file, its end says what to do); a stderr that cannot take it (2>/dev/full) leaves the exit
    code to say it."""
    line = "\n".join(f"{part[:LONGEST_ERROR - 500]} …({len(part) - LONGEST_ERROR} characters left out)… {part[-500:]}"
                     if len(part) > LONGEST_ERROR else part for part in line.split("\n"))   # each line of it whole or cut
    with contextlib.suppress(OSError, EvalError):
        print(line, file=sys.stderr)


def main(argv=None):
    for stream in (sys.stdout, sys.stderr):   # a lone surrogate in an answer is printed escaped
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    args = parser().parse_args(argv)
    vars(args).pop(GIVEN_VALUES, None)
    if args.command == "run":   # what `run --resume` refuses is seen before the defaults fill it in
        args.config_given = given_options(args, options_of("run", run_config=True))
        fill_defaults(args, options_of("run"))
    handler = {"run": cmd_run, "report": cmd_report, "compare": cmd_compare, "runs": cmd_runs, "judge": cmd_judge,
               "calibrate": cmd_calibrate, "review": cmd_review, "power": cmd_power, "init": cmd_init}[args.command]
    with cyclic_collector(off=args.command in ("report", "compare", "runs", "calibrate")), readers_may_leave():
        return handled(lambda a: refuse_empty_values(a) or handler(a), args)


if __name__ == "__main__":
    code = main()
    # the command is done: a stop during Python's shutdown is the system's (the import-time handler's exit, or
    # a KeyboardInterrupt, there printed "Exception ignored ... SystemExit" after a finished run)
    for stop in {signal.SIGINT, *STOP_SIGNALS} - IGNORED_AT_START:
        signal.signal(stop, signal.SIG_DFL)
    sys.exit(code)

