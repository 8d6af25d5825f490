"""Calling the model: the Ollama client, its preflight checks, timeouts and retries, over real HTTP."""

import contextlib
import http.server
import json
import math
import os
import queue
import re
import socket
import subprocess
import sys
import sysconfig
import threading
import time
import types
from pathlib import Path

import pytest

from conftest import ROOT, answer_key, eval_cli, evalpy, load_json, make_run, read_cases, write_run
from fake_ollama import sent_until_closed


@pytest.mark.parametrize("value, url", [
    ("", "http://127.0.0.1:11434"),
    ("0.0.0.0", "http://0.0.0.0:11434"),
    ("example.com", "http://example.com:11434"),
    ("example.com:8080", "http://example.com:8080"),
    ("example.com:", "http://example.com:11434"),
    ("http://example.com", "http://example.com:80"),
    ("https://example.com", "https://example.com:443"),
    ("https://example.com:8443/", "https://example.com:8443"),
    ("http://example.com:8080/ollama/", "http://example.com:8080/ollama"),
    ("'localhost:1234'", "http://localhost:1234"),
    ('  "localhost"  ', "http://localhost:11434"),
    ("::1", "http://[::1]:11434"),
    ("[::1]:5000", "http://[::1]:5000"),
    # (53rd) a port alone: Ollama's envconfig.Host reads ":1234" as "http://:1234" (its config_test.go, "only port"),
    # which Go dials on this machine
    (":1234", "http://127.0.0.1:1234"),
    ("http://:8080/v1", "http://127.0.0.1:8080/v1"),
    # (56th) empty brackets and a port: Go's net.SplitHostPort("[]:1") gives host "" and port "1", as ":1" does
    ("[]:1", "http://127.0.0.1:1"),
])
def test_host_is_read_as_the_ollama_cli_reads_it(value, url):
    assert evalpy.resolve_host(value) == url


@pytest.mark.parametrize("value", ["http://h:1/ollama'/", "http://h:1/v1'/", 'http://h:1/v1"/', "127.0.0.1:19690/'/",
                                   "http://h:1/'\"'/", "localhost", "[::1]", "https://example.com/v1/", ":1234",
                                   "'http://h:1/a/b/'"])
def test_a_host_as_read_is_read_again_as_itself(value):
    """131st round: a host whose path ended in a quote before the slash (http://h/ollama'/) was recorded as
    http://h/ollama', which read again is http://h/ollama: the run's journal was refused as damaged, 'not a server's
    address as a run records it', and completing the run asked another URL than it recorded."""
    once = evalpy.resolve_host(value)
    assert evalpy.resolve_host(once) == once


def test_a_file_named_otherwise_than_it_is_read_says_what_to_give(project, cli):
    """Fifty-third round on issue 28: `--split dev.jsonl` said only "no such split file", though golden/dev.jsonl is it;
    `report runs` only that it is a folder."""
    code, out, err = cli("run", "--split", "dev.jsonl")
    assert code == 2 and err == "error: dev.jsonl: no such split file; did you mean golden/dev.jsonl (--split dev)?\n", err
    code, out, err = cli("report", "runs/x.json", "--checks", "support/dev.jsonl")
    assert code == 2 and "support/dev.jsonl: no such split file; did you mean golden/support/dev.jsonl?" in err, err
    code, out, err = cli("run", "--split", "support/dev.jsonl")   # (54th) no --split name offered that --split refuses
    assert code == 2 and err == "error: support/dev.jsonl: no such split file; did you mean golden/support/dev.jsonl?\n", err
    os.makedirs("runs", exist_ok=True)
    code, out, err = cli("report", "runs")   # a folder of runs: the command that lists them
    assert code == 2 and err.startswith("error: runs: is a folder, not a run file; python eval.py runs runs lists the runs"), err


def test_unknown_scheme_is_refused():
    with pytest.raises(evalpy.EvalError, match="only http"):
        evalpy.resolve_host("ftp://example.com")


@pytest.mark.parametrize("value, why", [
    ("::::", "is not an IPv6 address"),
    ("127.0.0.1:99999", "'99999' is not a port"),
    ("127.0.0.1:0", "'0' is not a port"),
    ("127.0.0.1:1.5", "'1.5' is not a port"),
    ("http://h:notaport", "'notaport' is not a port"),
    ("exa mple.com", "is not a host name or an IP address"),
    ("http://user@example.com:80", "a user name or password in the host is not sent"),
    # thirteenth attack on issue 28: joined into the request's URL, or dropped by the server without a word
    ("http://127.0.0.1:9/v1?key=1", "a query (?…) or fragment (#…) is no part of a server's address"),
    ("127.0.0.1:9#x", "a query (?…) or fragment (#…) is no part of a server's address"),
    # attack 42: a bracket left open became port 80 in silence (Ollama's CLI trims it; a typo all the same)
    ("http://[::1", "a bracket of an IPv6 address is not closed (or opened)"),
    ("::1]:11434", "a bracket of an IPv6 address is not closed (or opened)"),
    # (56th) brackets holding nothing, and no port: Ollama's CLI made http://[]:11434 of it, no address at all;
    # read here as 127.0.0.1 in silence until now
    ("[]", "'[]': the brackets hold no IPv6 address"),
    ("http://[]/v1", "'http://[]/v1': the brackets hold no IPv6 address"),
    ("[[]]", "'[[]]': the brackets hold no IPv6 address"),   # (57th) it was 127.0.0.1 in silence
    ("[[::1]]", "'[[::1]]': the brackets hold no IPv6 address"),
    # (139th round) a terminal's colour code copied with the address was refused as an IPv6 bracket left open
    ("127.0.0.1:23001\x1b[31m", "it holds \\x1b, a control character, at character 16: no address holds one"),
    ("http://exa\u200bmple.com/v1", "it holds \\u200b, an invisible character, at character 11"),
    # (its review) a joiner, shown as nothing between two letters: /v\u200d1 printed raw as /v1 in the 404 it got
    ("http://127.0.0.1:9/v\u200d1", "it holds \\u200d, an invisible character, at character 21"),
    ("local\u200chost:9", "it holds \\u200c, an invisible character, at character 6"),
])
def test_a_host_that_cannot_be_read_is_one_line_never_another_port(project, cli, monkeypatch, value, why):
    """'::::' raised from requests.utils (exit 1); an unreadable port silently became 11434."""
    code, out, err = cli("run", "--split", "dev", "--host", value)
    assert code == 2 and why in err and "Traceback" not in err and len(err.splitlines()) == 1
    monkeypatch.setenv("OLLAMA_HOST", value)
    code, out, err = cli("run", "--split", "dev")
    assert code == 2 and why in err


@pytest.mark.parametrize("value", ["http://user:pw-SECRET@127.0.0.1:9/v1", "user:pw-SECRET@localhost",
                                   "https://pw-SECRET@[::1]:8080", "http://a:b@c:pw-SECRET@127.0.0.1:9"])
def test_a_host_with_credentials_is_refused_as_such_never_echoing_the_password(project, cli, monkeypatch, value):
    """From the third attack on issue 28: http://user:pw@host was refused as "is not an IPv6
    address", user@host as "not a host name": neither named the credentials as the problem, and
    both printed the password."""
    for argv in (["--host", value], []):
        monkeypatch.setenv("OLLAMA_HOST", value)
        code, out, err = cli("run", "--split", "dev", *argv)
        assert code == 2 and len(err.splitlines()) == 1 and "a user name or password in the host is not sent" in err, err
        assert "SECRET" not in err + out and "--api-key" in err, err
    # (round 104) a host wrong in another way too (a fragment, a scheme) printed it whole: every message masks it
    # (its review) a password holding a / ? or #, a scheme missing a slash (http:/u:pw@h was read as a host "http"),
    # a key in a query: never printed, each host with an @ refused as holding credentials
    # (a password holding a / and then a ?: test_no_letter_of_a_query_or_a_password_in_a_host_is_ever_printed)
    for wrong in (value.replace("127.0.0.1:9", "127.0.0.1:9/v1#x", 1), "ftp://" + value.split("://")[-1], value + "?",
                  "http:/" + value.split("://")[-1], "//" + value.split("://")[-1]):
        code, out, err = cli("run", "--split", "dev", "--host", wrong)
        assert code == 2 and "SECRET" not in err + out and "…@" in err and "user name or password" in err, (wrong, err)
    code, out, err = cli("run", "--split", "dev", "--host", "https://h?key=sk-SECRETSECRETSECRET1")
    assert code == 2 and "SECRET" not in err and "host 'https://h?…': a query" in err, err


QUERY_SAID = "a query (?…) or fragment (#…) is no part of a server's address"
# (132nd round) a secret in a query or fragment (one holding an @, or cut by a line break), or in a password holding
# a ? # / @ or a line break
SECRET_HOSTS = [
    ("http://127.0.0.1:1/?k=Zq7\nXw9", "'http://127.0.0.1:1/?…': QUERY"),
    ("http://127.0.0.1:1/#Zq7\r\nXw9", "'http://127.0.0.1:1/#…': QUERY"),
    ("http://127.0.0.1:1/?k=a@Zq7Xw9", "'http://…?…': QUERY"),
    ("http://127.0.0.1:1/#a@Zq7Xw9", "'http://…#…': QUERY"),
    ("http://127.0.0.1:1/?k=Zq7\n@Xw9", "'http://…?…': QUERY"),
    ("http://u:Zq7?Xw9@127.0.0.1:1", "'http://…?…': QUERY"),
    ("http://u:Zq7#Xw9@127.0.0.1:1", "'http://…#…': QUERY"),
    ("http://u:Zq7/Xw9?Xw9@127.0.0.1:1", "'http://…?…': QUERY"),
    ("http://a:b@u:Zq7/Xw9?#@127.0.0.1:1", "'http://…?…': CREDENTIALS"),
    ("http://u:Zq7@Xw9@127.0.0.1:1/?k=Xw9", "'http://…@127.0.0.1:1/?…': CREDENTIALS"),
    ("http://u:Zq7/Xw9@127.0.0.1:1", "'http://…@127.0.0.1:1': CREDENTIALS"),
    ("http://u:Zq7\nXw9@127.0.0.1:1", "'http://…@127.0.0.1:1': CREDENTIALS"),
    # (133rd round) a path parameter may hold a key as a query does: refused, never printed
    ("http://127.0.0.1:1/;token=Zq7Xw9", "'http://127.0.0.1:1/;…': PARAMETER"),
    ("127.0.0.1:1/v1;token=Zq7Xw9?k=Xw9", "'127.0.0.1:1/v1;…': PARAMETER"),
    ("http://127.0.0.1:1/;token=a@Zq7Xw9", "'http://…;…': PARAMETER"),
    # (133rd round) a ; before the @ is the password's (RFC 3986, urlsplit): refused as such, its server named
    ("http://u:p;Zq7Xw9@127.0.0.1:1", "'http://…@127.0.0.1:1': CREDENTIALS"),
    ("http://u;Zq7:Xw9@127.0.0.1:1", "'http://…@127.0.0.1:1': CREDENTIALS"),
    ("http://u:p;Zq7@127.0.0.1:1/;t=Xw9", "'http://…@127.0.0.1:1/;…': CREDENTIALS"),
]


@pytest.mark.parametrize("value, said", SECRET_HOSTS)
def test_no_letter_of_a_query_or_a_password_in_a_host_is_ever_printed(project, cli, monkeypatch, value, said):
    """132nd round: a line break in a host's query ended the part host_shown masked, so the rest of the query was
    printed, on a line of its own ('?…\\ncret'); and host_shown took what followed a host's last @ for its address, so a
    query holding an @ ('http://h:1/?k=a@s3cret') was shown 'http://…@s3cret', said to hold a user name or password.
    Nothing after a ? or # is printed, to the end (nor before it where an @ follows: a password may hold a ? or #), and
    a host holds a user name and password only where an @ comes before them; else it is refused as holding a query."""
    said = said.replace("QUERY", QUERY_SAID).replace("CREDENTIALS", "a user name or password in the host is not sent")
    said = said.replace("PARAMETER", "a path parameter (;…) is no part of a server's address")
    for argv in (["--host", value], []):
        monkeypatch.setenv("OLLAMA_HOST", value)
        code, out, err = cli("run", "--split", "dev", *argv)
        assert code == 2 and f"host {said}" in err and len(err.splitlines()) == 1, (argv, err)
        assert "Zq7" not in out + err and "Xw9" not in out + err, (argv, err)


@pytest.mark.parametrize("argv, says", [
    (["report", "runs/x.json", "--api-key", "sk-SECRETSECRETSECRET"], "unrecognized arguments: --api-key …"),
    (["run", "--split", "dev", "--api-kye=sk-SECRETSECRETSECRET"], "unrecognized arguments: --api-kye=…"),
    (["init", "--api-key=sk-SECRETSECRETSECRET"], "--api-key=… is an option of run, compare, judge, not of init, which needs DIR"),
    (["run", "--split", "dev", "--api", "openai", "--api-key", "sk-SECRETSECRETSECRET", "--api-key", "sk-SECRETSECRETSECRE2"],
     "argument --api-key: given twice, with two values: give it once"),
    (["run", "--split", "dev", "--host", "http://user:SECRETSECRET@127.0.0.1:9", "--host", "127.0.0.1:9"],
     "argument --host: given twice, with two values: give it once"),
    # attack 44: a key or host before the command was taken for the command, a key after --api for the API
    (["--api-key", "sk-SECRETSECRETSECRET", "run"], "invalid choice: a value of 21 characters (not shown: it may be a key)"),
    (["--host", "http://user:SECRETSECRET@127.0.0.1:9", "run"], "invalid choice: a value of 36 characters (not shown"),
    (["run", "--split", "dev", "--api", "sk-SECRETSECRETSECRET"], "argument --api: invalid choice: a value of 21 characters"),
    (["run", "--split", "dev", "--retries=sk-SECRETSECRETSECRET"], "argument --retries: a value of 21 characters"),
    (["run", "--split", "dev", "--seed", "sk-SECRETSECRETSECRET"], "argument --seed: a value of 21 characters (not shown"),
    # attack 45: a key beginning with "-" (base64url) was taken for an option, and printed
    (["report", "runs/x.json", "--api-key", "-SECRETabcdef0123456789"], "unrecognized arguments: --api-key …"),
])
def test_a_key_or_password_on_a_command_line_argparse_refuses_is_never_printed(project, capsys, argv, says):
    """Attack 43: `report RUN --api-key KEY` (a command that takes none), a typo of --api-key, and a key or host
    given twice printed the key, or the host's password, in the error."""
    with pytest.raises(SystemExit) as exit:
        evalpy.main(argv)
    err = capsys.readouterr().err
    assert exit.value.code == 2 and says in err and "SECRET" not in err and len(err.splitlines()) == 1, err


@pytest.mark.parametrize("argv, why", [
    # (round 104) the bound said, in the words of every other count (argparse's choices listed 0, 1, ..., 10)
    (["run", "--split", "dev", "--retries", "-1"], "argument --retries: '-1': give a whole number of retries from 0 to 10"),
    (["run", "--split", "dev", "--retries", "11"], "argument --retries: '11': give a whole number of retries from 0 to 10"),
    (["review", "runs/x.json", "--port", "99999"], "argument --port: '99999': give a port from 0 to 65535"),
    (["review", "runs/x.json", "--port", "-1"], "argument --port: '-1': give a port from 0 to 65535"),
    (["run", "--split", "dev", "--temperature", "-1"], "argument --temperature: '-1': give a temperature of 0 or more"),
    (["run", "--split", "dev", "--temperature", "nan"], "argument --temperature: 'nan'"),
    # (round 107) Python's digit grouping is no number a person means: "0_5", a slip for 0.5, ran at 5
    (["run", "--split", "dev", "--temperature", "0_5"], "argument --temperature: '0_5': give a temperature"),
    (["run", "--split", "dev", "--timeout", "1_0"], "argument --timeout: '1_0': give a number of seconds"),
    (["power", "--difference", "0_1", "--discordant", "1"], "argument --difference: '0_1': give a difference"),
    (["judge", "r.json", "--judge-temperature", "-0.5"], "argument --judge-temperature: '-0.5'"),
    (["run", "--jobs", "0"], "argument --jobs: '0': give a whole number, 1 or more"),
    # (round 92) int() reads an Arabic-Indic three and 1_000: no count is written so
    (["run", "--jobs", "\u0663"], "argument --jobs: '\u0663': give a whole number, 1 or more"),
    (["run", "--split", "dev", "--limit", "1_000"], "argument --limit: '1_000': give a whole number, 1 or more"),
    (["run", "--split", "dev", "--think", "hi\udcff"], "argument --think: invalid choice: 'hi\\xff'"),   # (a byte not UTF-8)
    # sixth attack on issue 28: 2^60 and 2^60+1 are one float64 in Ollama (trials copies); a
    # full-width digit was read as a digit
    (["run", "--split", "dev", "--seed", "1152921504606846976"], "argument --seed: '1152921504606846976': give a seed"),
    (["run", "--split", "dev", "--seed", "2147483648"], "argument --seed: '2147483648': give a seed"),
    # (round 108) "or below 0 for none" of -2147483648, below 0: the bound said
    (["run", "--split", "dev", "--seed", "-2147483648"], "argument --seed: '-2147483648': give a seed from 0 to 2147483647, "
                                                         "or one from -1 to -2147483647 for none"),
    (["run", "--split", "dev", "--seed", "\uff17"], "argument --seed: '\uff17': give a seed"),
    (["judge", "r.json", "--seed", "-99999999999999999999"], "argument --seed: '-99999999999999999999': give a seed"),
    # newcomer pass N14: "required: baseline, candidate, RUN", though more runs are optional
    (["compare"], "the following arguments are required: baseline, candidate (see"),
    (["compare", "runs/a.json"], "the following arguments are required: candidate (see"),
    # attack 42: a traceback (the normal quantile of 1 - 1e-16 / 2, which is 1.0 in floats)
    (["compare", "runs/a.json", "runs/b.json", "--alpha", "1e-16"], "argument --alpha: '1e-16': give a significance level from 1e-12"),
    (["power", "--rows", "100", "--alpha", "1e-13"], "argument --alpha: '1e-13': give a significance level from 1e-12"),
    # attack 42: an option of one value given twice kept the last in silence (a gate at 50%, asked for at 90%)
    (["report", "runs/x.json", "--min-accuracy", "0.9", "--min-accuracy", "50%"],
     "argument --min-accuracy: given twice, as 0.9 and 0.5: give it once"),
    (["run", "--split", "dev", "--api", "openai", "--api", "ollama"], "argument --api: given twice, as openai and ollama"),
    # (round 133) --cases given twice was told to give it once, never that its ids are joined by a comma
    (["run", "--split", "dev", "--cases", "dev-01", "--cases", "dev-02"], "argument --cases: given twice, as dev-01 and "
     "dev-02: give it once, both joined by a comma: --cases dev-01,dev-02 (see"),
    # attack 44: a power of ten of 10^8 digits written out before it was read (a hang)
    (["report", "runs/x.json", "--min-accuracy", "1e-99999999%"], "argument --min-accuracy: '1e-99999999%': give an accuracy"),
    (["compare", "runs/a.json", "runs/b.json", "--alpha", "1e+99999999%"], "argument --alpha: '1e+99999999%': give a probability"),
    # attack 45: the exponent written with underscores hung as before; above 1 in its last digit, no run passed
    (["power", "--rows", "100", "--alpha", "1e-99_999_999%"], "argument --alpha: '1e-99_999_999%': give a significance level"),
    (["report", "runs/x.json", "--min-accuracy", "1.0000000000000001"],
     "argument --min-accuracy: '1.0000000000000001': give an accuracy from 0 to 1"),
    # attack 49: the exponent in digits of another script (Arabic-Indic, full-width) hung as before
    (["report", "runs/x.json", "--min-accuracy", "1e-\u0669\u0669\u0669\u0669\u0669\u0669\u0669\u0669\u0669"],
     "argument --min-accuracy: '1e-\u0669\u0669\u0669\u0669\u0669\u0669\u0669\u0669\u0669': give an accuracy"),
    (["compare", "runs/a.json", "runs/b.json", "--alpha", "1e-\uff19\uff19\uff19\uff19\uff19\uff19\uff19%"],
     "argument --alpha: '1e-\uff19\uff19\uff19\uff19\uff19\uff19\uff19%': give a significance level"),
    # attack 50: a number in range, refused for its exponent, was told only to be in range
    (["report", "runs/x.json", "--min-accuracy", "1e-1000"], "argument --min-accuracy: '1e-1000': give an accuracy from 0 "
     "to 1, like 0.85, or a percentage like 85% (an exponent of 1000 or more is not read: write the number with a smaller one)"),
    # attack 54: said of a word holding e1000, and of a number out of range whatever its exponent
    (["report", "runs/x.json", "--min-accuracy", "release1234"], "argument --min-accuracy: 'release1234': give an accuracy "
     "from 0 to 1, like 0.85, or a percentage like 85% (see"),
    (["report", "runs/x.json", "--min-accuracy", "1e1000"], "argument --min-accuracy: '1e1000': give an accuracy "
     "from 0 to 1, like 0.85, or a percentage like 85% (see"),
    # attack 56: an --alpha past reading was told to be written with a smaller exponent, which is as far below 1e-12
    (["compare", "runs/a.json", "runs/b.json", "--alpha", "1e-1000"], "argument --alpha: '1e-1000': give a significance "
     "level from 1e-12 to below 1, like 0.05 or 5% (a smaller one is past what the intervals can be computed for) (see"),
    # attack 62: a level written past a float's digits was read as the float above it (p = 1/32 within 0.0312499...)
    (["compare", "runs/a.json", "runs/b.json", "--alpha", "0.03124999999999999999"], "argument --alpha: "
     "'0.03124999999999999999' has more digits than a level is read with (it would be read as 0.03125); write 0.03125, "
     "or the level with fewer digits (see"),
    # 132nd round: --prob past a float's digits was read as its float in silence (131071/131072, one row more), as
    # --alpha no longer was; so was --rate
    (["power", "--rate", "0.001", "--prob", "0.99999237060546875"], "argument --prob: '0.99999237060546875' has more "
     "digits than a probability is read with (it would be read as 0.9999923706054688); write 0.9999923706054688, or the "
     "probability with fewer digits (see"),
    (["power", "--rate", "0.10000000000000000001"], "argument --rate: '0.10000000000000000001' has more digits than a "
     "probability is read with (it would be read as 0.1); write 0.1, or the probability with fewer digits (see"),
])
def test_a_bad_value_is_one_line_that_says_where_the_help_is(project, capsys, argv, why):
    """Not eight lines of usage before the one that matters; never a traceback (--port 99999 was
    an OverflowError, --temperature -1 was taken)."""
    with pytest.raises(SystemExit) as exit:
        evalpy.main(argv)
    err = capsys.readouterr().err
    assert exit.value.code == 2 and err.startswith(f"error: {why}") and len(err.splitlines()) == 1
    assert err.rstrip().endswith(f"(see eval.py {argv[0]} --help)")


def test_a_utf8_value_is_read_as_such_where_the_locale_is_c(project, monkeypatch):
    """139th round's review: under LC_ALL=C with Python's UTF-8 mode off (-X utf8=0), argv is read as ASCII, each byte
    past it kept as a surrogate: --cases c-ó, valid UTF-8, was called "not valid UTF-8", a cure that cures nothing."""
    monkeypatch.setenv("LC_ALL", "C")
    code, out, err = eval_cli(project, "run", "--split", "dev", "--cases", "c-\u00f3", flags=("-X", "utf8=0"))
    assert code == 2 and "not valid UTF-8" not in err and "golden/dev.jsonl has no case" in err, err
    code, out, err = eval_cli(project, "run", "--split", "dev", "--cases", "c-\udcf3", flags=("-X", "utf8=0"))
    assert code == 2 and "--cases $'c-\\xf3': not valid UTF-8" in err, err   # (a Latin-1 byte: refused as before)


def test_backoff_grows_with_jitter_and_honours_retry_after():
    for attempt in range(4):
        ceiling = min(evalpy.RETRY_CAP_SECONDS, evalpy.RETRY_BASE_SECONDS * 2 ** attempt)
        waits = [evalpy.backoff(attempt) for _ in range(200)]
        assert all(ceiling / 2 <= w <= ceiling for w in waits)
        assert len(set(waits)) > 1
    assert evalpy.backoff(0, asked=2.5) == 2.5
    assert evalpy.backoff(0, asked=999) == evalpy.RETRY_CAP_SECONDS
    assert evalpy.backoff(50) <= evalpy.RETRY_CAP_SECONDS
    # (round 97) Retry-After as an HTTP date (RFC 9110 10.2.3), counted from now; a past one is no wait
    import email.utils
    later = email.utils.formatdate(time.time() + 20, usegmt=True)
    assert 15 <= evalpy.retry_after({"Retry-After": later}) <= 21
    assert evalpy.retry_after({"Retry-After": "Wed, 21 Oct 2015 07:28:00 GMT"}) == 0.0
    assert evalpy.retry_after({"Retry-After": "2.5"}) == 2.5 and evalpy.retry_after({"Retry-After": "soon"}) is None
    # round 98: a zone of 13 digits made the email package overflow (a traceback, exit 1); no date
    for zone in ("+9999999999999", "-99999999999999999999"):
        assert evalpy.retry_after({"Retry-After": f"Mon, 01 Jan 2030 00:00:00 {zone}"}) is None
    assert evalpy.retry_after({"Retry-After": "Fri, 31 Dec 9999 23:59:59 -2359"}) > 0
    # (round 104) a wait no server may ask (negative, NaN) is none asked: the backoff, never a retry at once
    for said in ("-5", "nan", "-inf"):
        assert evalpy.retry_after({"Retry-After": said}) is None, said
    assert evalpy.retry_after({"Retry-After": "0"}) == 0.0
    # (118th round) the two older HTTP date forms, GMT with no zone said (RFC 9110 5.6.7), were read as none
    assert 15 <= evalpy.retry_after({"Retry-After": time.asctime(time.gmtime(time.time() + 20))}) <= 21
    assert 15 <= evalpy.retry_after({"Retry-After": time.strftime("%A, %d-%b-%y %H:%M:%S GMT",
                                                                  time.gmtime(time.time() + 20))}) <= 21


REFUSING = []   # (the sockets closed_port() keeps bound till the tests end)


def closed_port():
    """A port on 127.0.0.1 nothing answers on: bound, never listening, and kept bound, so a connection to it is refused
    (closed at once, as before, another test's server or the other worker could take it: a real connection)."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    REFUSING.append(s)
    return s.getsockname()[1]


def test_unreachable_server_ends_the_run_before_any_file(project, cli):
    port = closed_port()
    code, out, err = cli("run", "--split", "dev", "--host", f"127.0.0.1:{port}")
    assert code == 2
    assert f"cannot reach the model server at http://127.0.0.1:{port}" in err
    assert "ollama serve" in err and "Traceback" not in err
    assert len(err.strip().splitlines()) <= 2
    assert not (project / "runs").exists()


@pytest.mark.parametrize("argv", [["run", "--split", "dev"], ["compare", "runs/a.json", "runs/b.json", "--pairwise", "Which is kinder?"]])
def test_a_python_without_requests_is_told_what_to_install_never_a_traceback(project, argv):
    """Attack 41: a Python without requests (a CI job's system python3) printed ModuleNotFoundError's
    traceback and exited 1, which CI reads as a failed gate. One line naming the package and this Python, exit 2,
    nothing written. (requests is made unimportable as Python itself does it: None in sys.modules.)"""
    if argv[0] == "compare":
        from conftest import make_run, write_run
        write_run("runs/a.json", make_run([("c1", "bug", "bug")]))
        write_run("runs/b.json", make_run([("c1", "bug", "feature")], prompt="prompts/v3.txt"))
    before = sorted(p.name for p in project.rglob("*"))
    blocked = ("import runpy, sys; sys.modules['requests'] = None; sys.argv = ['eval.py'] + sys.argv[1:]; "
               f"runpy.run_path({str(ROOT / 'eval.py')!r}, run_name='__main__')")
    done = subprocess.run([sys.executable, "-c", blocked, *argv], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.startswith("error: this command needs the Python package requests, and ")
    assert f"{sys.executable} cannot import it" in done.stderr and "-m pip install -r requirements.txt" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert sorted(p.name for p in project.rglob("*")) == before   # no journal, lock or run begun


def externally_managed_home(folder):
    """A Python home as Debian's and Ubuntu's python3 are (PEP 668), for PYTHONHOME: this Python's standard library with
    an EXTERNALLY-MANAGED file in it, and no site-packages (so no requests); its pip would refuse to install."""
    stdlib = sysconfig.get_path("stdlib")
    lib = folder / os.path.relpath(stdlib, sys.base_prefix)
    lib.mkdir(parents=True)
    for name in os.listdir(stdlib):
        if name != "site-packages":
            (lib / name).symlink_to(os.path.join(stdlib, name))
    (lib / "EXTERNALLY-MANAGED").write_text("[externally-managed]\nError=use a venv\n")
    return folder


def test_a_python_whose_pip_refuses_to_install_is_sent_to_a_venv(project, tmp_path):
    """Round 133: on Debian's python3 the cure of a missing requests, `python3 -m pip install -r requirements.txt`, fails
    "externally-managed-environment" as README's `pip install` does. It names a venv beside eval.py and its Python."""
    python = os.path.realpath(sys.executable)   # (the base Python, where the tests run in a venv)
    env = {**os.environ, "PYTHONHOME": str(externally_managed_home(tmp_path / "home"))}
    done = subprocess.run([python, str(ROOT / "eval.py"), "run", "--split", "dev"], capture_output=True, text=True,
                          timeout=60, env=env)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr == (f"error: this command needs the Python package requests, and {python} cannot import it (No "
                           f"module named 'requests'): {python}'s pip installs nothing outside a venv (it is externally "
                           f"managed), so make one beside eval.py: `cd {ROOT} && {python} -m venv .venv && .venv/bin/pip "
                           f"install -r requirements.txt`, then run eval.py with {ROOT}/.venv/bin/python (or `python` after "
                           "`. .venv/bin/activate`)\n")
    assert not (project / "runs").exists()


def test_a_server_gone_from_the_address_a_run_recorded_sends_the_user_to_host(project, cli, fake, monkeypatch):
    """Twenty-seventh attack on issue 28: resume, judge and compare --pairwise take the address the run
    recorded, and $OLLAMA_HOST not at all; told that server was gone, they said to point $OLLAMA_HOST at it,
    which, followed, changed nothing."""
    assert cli("run", "--split", "golden/support/dev.jsonl", "--prompt", "prompts/support/v1.txt", "--host", fake.url,
               "--limit", "3", "--out", "runs/dev-v3.json")[0] == 0
    run = json.loads((project / "runs" / "dev-v3.json").read_text())
    run["config"]["host"] = f"http://127.0.0.1:{closed_port()}"
    run["results"][0].update(response=None, error="HTTP 500: busy", judges=None)   # for run --resume to ask again
    (project / "moved.json").write_text(json.dumps(run))
    monkeypatch.setenv("OLLAMA_HOST", fake.url)
    said = ("Start it, or give --host where it listens now: this is the address moved.json recorded (a new run alone "
            "reads the address from the environment).\n")
    code, out, err = cli("judge", "moved.json", "--judge-model", "qwen2.5:7b")
    assert code == 2 and err.endswith(said) and "OLLAMA_HOST" not in err, err
    code, out, err = cli("compare", "runs/dev-v3.json", "moved.json", "--pairwise", "Which is better?")
    assert code == 2 and err.endswith(said), err
    code, out, err = cli("run", "--resume", "moved.json")
    assert code == 2 and err.endswith(said), err
    code, out, err = cli("run", "--resume", "moved.json", "--host", f"127.0.0.1:{closed_port()}")   # given: the usual words
    assert code == 2 and "ollama serve" in err and "OLLAMA_HOST" not in err, err
    # (111th round) given --host, judge and compare --pairwise still named $OLLAMA_HOST, which they never read
    code, out, err = cli("judge", "moved.json", "--judge-model", "qwen2.5:7b", "--host", f"127.0.0.1:{closed_port()}")
    assert code == 2 and err.endswith("Start it with `ollama serve`, or point --host at it.\n") and "OLLAMA_HOST" not in err, err
    code, out, err = cli("compare", "runs/dev-v3.json", "moved.json", "--pairwise", "Which?", "--host", f"127.0.0.1:{closed_port()}")
    assert code == 2 and err.endswith("Start it with `ollama serve`, or point --host at it.\n"), err


def test_missing_model_names_the_pull_command(project, cli, fake):
    fake.models = ["llama3.2:3b"]
    code, out, err = cli("run", "--split", "dev", "--host", fake.url)
    assert code == 2
    assert "ollama pull qwen2.5:7b" in err and "llama3.2:3b" in err
    assert fake.chat_bodies == []
    assert not (project / "runs").exists()


def test_model_without_tag_matches_latest(project, cli, fake):
    fake.models = ["mistral:latest"]
    fake.answers = answer_key("golden/dev.jsonl")
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--model", "mistral")
    assert code == 0, err


def test_a_server_that_is_not_ollama_is_named(project, cli):
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
    import threading

    class NotOllama(BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(500)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *a):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), NotOllama)
    threading.Thread(target=server.serve_forever, args=(0.02,), daemon=True).start()
    try:
        code, out, err = cli("run", "--split", "dev", "--host", f"127.0.0.1:{server.server_address[1]}")
    finally:
        server.shutdown()
    assert code == 2 and "answered HTTP 500" in err and "Traceback" not in err


def test_ollama_host_environment_variable_is_used(project, cli, fake, monkeypatch):
    monkeypatch.setenv("OLLAMA_HOST", fake.url.removeprefix("http://"))   # no scheme, as people write it
    fake.answers = answer_key("golden/dev.jsonl")
    code, out, err = cli("run", "--split", "dev")
    assert code == 0, err
    assert load_json("runs/dev-v3.json")["config"]["host"] == fake.url


def test_calls_go_through_the_proxy_the_environment_names(project, cli, fake, monkeypatch):
    # the model calls bypass Session.post, so they must still take requests' proxy settings
    through_the_fake_as_a_proxy(monkeypatch, fake)
    fake.answers = answer_key("golden/dev.jsonl")
    code, out, err = cli("run", "--split", "dev", "--host", "http://models.internal:11434")
    assert code == 0, err
    chats = [u for u in fake.proxied if u.endswith("/api/chat")]
    assert len(chats) == 1 + 28 and set(chats) == {"http://models.internal:11434/api/chat"}   # the load, the cases
    assert len(fake.loads) == 1
    assert "http://models.internal:11434/api/tags" in fake.proxied
    assert "Accuracy: 28/28 = 100%" in out
    fake.faults = ["redirect"]   # through a proxy, requests would follow it and credit the answer
    code, out, err = cli("run", "--split", "dev", "--host", "http://models.internal:11434", "--out", "runs/r.json")
    assert code == 2 and "a redirect to 'http://127.0.0.1:9/api/chat'" in load_json("runs/r.json")["results"][0]["error"]


def test_a_local_server_is_reached_directly_whatever_the_proxy_variables_say(project, cli, fake, monkeypatch):
    """Round 107: with HTTP_PROXY set (a company's) and no NO_PROXY, a healthy server on 127.0.0.1 was reached
    through the proxy: a dead proxy read as "cannot reach the model server", its 502 as the server's, and a key went
    to it. Loopback and "localhost" are never proxied, as Ollama's own Go client does (x/net httpproxy useProxy)."""
    monkeypatch.setenv("HTTP_PROXY", "http://127.0.0.1:9")   # nothing listens there
    for name in ("NO_PROXY", "no_proxy"):
        monkeypatch.delenv(name, raising=False)
    port = fake.url.rsplit(":", 1)[1]
    for host in (fake.url, f"localhost:{port}"):
        code, out, err = cli("run", "--split", "dev", "--host", host, "--limit", 2, "--out", f"runs/{len(fake.chat_bodies)}.json")
        assert code == 0, err
    assert fake.proxied == [] and len(fake.chat_bodies) == 4
    # (its review) an IPv4 loopback written as IPv6 is loopback too, as Go's IsLoopback reads it
    import requests
    assert evalpy.environ_proxies(requests, "http://[::ffff:127.0.0.1]:11434") == {}
    assert evalpy.environ_proxies(requests, "http://[::1]:11434") == evalpy.environ_proxies(requests, "http://127.0.0.2:1") == {}
    assert evalpy.environ_proxies(requests, "http://models.internal:11434") == {"http": "http://127.0.0.1:9"}


class QuietHandler(http.server.BaseHTTPRequestHandler):
    """A test server's handler that logs nothing; answer() sends a whole response."""

    def answer(self, status, body, headers=()):
        self.send_response(status)
        for k, v in dict(headers).items():
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *a):
        pass


def serving(handler):
    """A server of `handler` on a free port of 127.0.0.1, answering in a thread of its own."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, args=(0.02,), daemon=True).start()
    return server


def test_a_proxy_that_fails_is_named_never_the_server(project, cli, monkeypatch):
    """119th round's hostile servers: a proxy from $HTTP_PROXY that was down read "cannot reach the model server ...
    Start it with `ollama serve`", and one that wants credentials (407, RFC 9110 15.5.8) "is --host pointing at an
    Ollama server?": the proxy was never named. Its credentials are never shown."""
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    for name in ("NO_PROXY", "no_proxy"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HTTP_PROXY", "http://me:s3cret@127.0.0.1:9")   # nothing listens there
    code, out, err = cli("run", "--split", "dev", "--host", "http://models.internal:11434")
    assert code == 2 and err == ("error: cannot reach the model server at http://models.internal:11434 through the proxy "
                                 "http://127.0.0.1:9 from $HTTP_PROXY: the proxy did not take the request (ProxyError); is "
                                 "it down? Or set NO_PROXY=models.internal to reach the server without it\n"), err

    class WantsCredentials(BaseHTTPRequestHandler):
        def do_GET(self):
            body = b"<html>Proxy Authentication Required</html>"
            self.send_response(407)
            self.send_header("Proxy-Authenticate", 'Basic realm="corp"')
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        do_POST = do_CONNECT = do_GET   # (an https server is asked through it with CONNECT)

        def log_message(self, *a):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), WantsCredentials)
    threading.Thread(target=server.serve_forever, args=(0.02,), daemon=True).start()
    port = server.server_address[1]
    monkeypatch.setenv("HTTP_PROXY", f"http://127.0.0.1:{port}")
    monkeypatch.setenv("HTTPS_PROXY", f"http://me:wrong@127.0.0.1:{port}")
    try:
        code, out, err = cli("run", "--split", "dev", "--host", "http://models.internal:11434")
        assert code == 2 and err == (f"error: http://models.internal:11434/api/tags: the proxy http://127.0.0.1:{port} from "
                                     "$HTTP_PROXY wants credentials (HTTP 407 Proxy Authentication Required): give them in "
                                     "that variable (http://user:password@proxy:port), or set NO_PROXY=models.internal to "
                                     "reach the server without it\n"), err
        # (its review) an https server's CONNECT refused so was "is it down?"; credentials given, "give them"
        code, out, err = cli("run", "--split", "dev", "--host", "https://models.internal")
        assert code == 2 and (f"the proxy http://127.0.0.1:{port} from $HTTPS_PROXY refused the credentials that variable "
                              "gives (HTTP 407") in err and "wrong" not in err, err
    finally:
        server.shutdown()
        server.server_close()

    class ChatsWantCredentials(QuietHandler):   # (round 124) the list passed, each chat a 407
        def do_GET(self):
            tags = {"models": [{"name": "qwen2.5:7b", "model": "qwen2.5:7b", "digest": "ab" * 32}]}
            self.answer(200 if self.path.endswith("/api/tags") else 404, json.dumps(tags).encode())

        def do_POST(self):
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            self.answer(407, b"<html>Cache Access Denied</html>", {"Proxy-Authenticate": 'Basic realm="corp"'})

        def do_CONNECT(self):   # (squid: a port not among its SSL ports)
            self.answer(403, b"")

    server = serving(ChatsWantCredentials)
    port = server.server_address[1]
    monkeypatch.setenv("HTTP_PROXY", f"http://127.0.0.1:{port}")
    monkeypatch.setenv("HTTPS_PROXY", f"http://127.0.0.1:{port}")
    try:
        code, out, err = cli("run", "--split", "dev", "--host", "http://models.internal:11434", "--jobs", "1",
                             "--out", "proxied/chats.json")
        assert code == 2 and (f"stopped: the proxy before the server at http://models.internal:11434 refused 5 calls in a row "
                              f"for its credentials (HTTP 407: http://models.internal:11434/api/chat: the proxy "
                              f"http://127.0.0.1:{port} from $HTTP_PROXY wants credentials (HTTP 407 Proxy Authentication "
                              "Required): give them in that variable") in err, err
        # (its review) no proxy given, a 407 all the same: something on the path wants credentials, never "the proxy"
        for name in ("HTTP_PROXY", "HTTPS_PROXY"):
            monkeypatch.delenv(name)
        code, out, err = cli("run", "--split", "dev", "--host", f"http://127.0.0.1:{port}", "--jobs", "1",
                             "--out", "proxied/direct.json")
        assert code == 2 and (f"stopped: the server at http://127.0.0.1:{port} answered 5 calls in a row that proxy "
                              "credentials are wanted (HTTP 407") in err and "where eval.py asks it through no proxy: the " \
            "server itself, or a gateway before it, wants them, and eval.py sends none; ask its admin" in err, err
        monkeypatch.setenv("HTTPS_PROXY", f"http://127.0.0.1:{port}")
        # an https server's CONNECT refused (403): the proxy is up, and refused the tunnel
        code, out, err = cli("run", "--split", "dev", "--host", "https://models.internal:8443", "--out", "runs/tls.json")
        assert code == 2 and err == (f"error: cannot reach the model server at https://models.internal:8443 through the proxy "
                                     f"http://127.0.0.1:{port} from $HTTPS_PROXY: the proxy refused to open a tunnel to "
                                     "models.internal:8443 (HTTP 403 Forbidden to its CONNECT): its rules (the ports it tunnels to), "
                                     "or no https through it; ask its admin, or set NO_PROXY=models.internal to reach the "
                                     "server without it\n"), err
    finally:
        server.shutdown()
        server.server_close()
    for odd in ("http://me:se]cret@127.0.0.1:9", "http://me:se@c#r3t@127.0.0.1:9"):   # (its review: ValueError; # ends
        monkeypatch.setenv("HTTP_PROXY", odd)                                        # the URL, another host tried)
        code, out, err = cli("run", "--split", "dev", "--host", "http://models.internal:11434")
        assert code == 2 and "Start it" not in err and "is it down" not in err and "NO_PROXY=models.internal" in err, err
        assert "cret" not in err and "reserved characters (/ \\ @ : # ? [ ])" in err, err
    # (its review) a proxy's URL that cannot be used named it too, never "start the server"; a password holding / cut
    monkeypatch.setenv("HTTP_PROXY", "http://me:s3/cret@127.0.0.1:9")
    code, out, err = cli("run", "--split", "dev", "--host", "http://models.internal:11434")
    assert code == 2 and err == ("error: cannot reach the model server at http://models.internal:11434: the proxy "
                                 "http://127.0.0.1:9 from $HTTP_PROXY cannot be used (InvalidURL): its credentials' reserved "
                                 "characters (/ \\ @ : # ? [ ]) %-escaped, as a URL's are; or set NO_PROXY=models.internal to reach "
                                 "the server without it\n"), err


BRACKET_CURE = "a bracket of an IPv6 address is not closed (or opened): write http://[::1]:3128"
NOT_A_PORT = "its port is not a number (a whole number from 1 to 65535)"
CREDENTIALS_FIRST = "; a user name and password go before the proxy's address: http://user:password@host:port"


@pytest.mark.parametrize("proxy, fault", [
    # (139th round) a URL with no credentials at all was sent to them: its port, or its bracket, is what is named
    # (140th round) ...but with no @ before it, its digits may be a password (http://admin:99999999, the host forgotten):
    # named, never quoted
    ("http://127.0.0.1:99999", "its port is not one (a whole number from 1 to 65535)" + CREDENTIALS_FIRST),
    ("http://admin:99999999", "its port is not one (a whole number from 1 to 65535)" + CREDENTIALS_FIRST),
    # (140th round) no host after the @ at all: requests' reading of it was a TypeError, a traceback
    ("http://user:99999999@", "no host follows its @: give it as http://user:password@host:port"),
    ("http://[bad", BRACKET_CURE),
    # (its review) a password where the port goes (no @host) was quoted as the port; an IPv6 address unbracketed
    ("http://admin:hunter2", NOT_A_PORT + CREDENTIALS_FIRST),
    ("http://::1:3128", "an IPv6 address is written in brackets: write http://[::1]:3128"),
    # (its review) credentials holding no reserved character were told to %-escape them, whatever else was wrong
    ("http://u:pw@127.0.0.1:99999", "its port '99999' is not one (a whole number from 1 to 65535)"),
    ("http://u:pw@[::1:3128", BRACKET_CURE),
    ("http://u:hunter2@h:abc", NOT_A_PORT),
    # (its review) a terminal's colour code copied with it was "a bracket not closed", the [ the code's own
    ("http://127.0.0.1:3128\x1b[31m", "it holds \\x1b, a control character, at character 22: no address holds one"),
    ("http://u:hunter2@127.0.0.1:3\u200b128", "it holds \\u200b, an invisible character, at character 29"),
])
def test_a_proxy_url_that_does_not_parse_is_told_what_to_mend_never_quoting_a_password(project, cli, monkeypatch, proxy, fault):
    proxy_told(cli, monkeypatch, proxy, fault)


def proxy_told(cli, monkeypatch, proxy, fault):
    """The error of a run through $HTTP_PROXY=proxy: one line, the proxy named with its variable, `fault` the cure after
    the parenthesis, NO_PROXY offered, and no password (hunter2, 98765432, 99999999) printed."""
    monkeypatch.setenv("HTTP_PROXY", proxy)
    code, out, err = cli("run", "--split", "dev", "--host", "http://models.internal:11434")
    assert code == 2 and "from $HTTP_PROXY cannot be used" in err and f"): {fault}" in err and "; or set NO_PROXY=models.internal" \
        in err and "credentials" not in err and "hunter" not in err and "99999999" not in err and "98765432" not in err \
        and len(err.splitlines()) == 1, err
    return err


@pytest.mark.parametrize("proxy", ["http://u:p@:", "http://u:p@:0", "http://user:98765432@:", "http://u:p@:3128",
                                   "http://u:hunter2@:/"])
def test_a_proxy_with_an_empty_host_before_its_port_is_said_so_before_any_call(project, cli, monkeypatch, proxy):
    """140th round's review: a colon after the @ and no host before it (http://u:p@:) was no "no host" (its host and
    port, ":", were not empty): requests' reading of it was a TypeError, a traceback; http://u:p@:3128 was told to
    "give it with its scheme", which it has."""
    err = proxy_told(cli, monkeypatch, proxy, "no host follows its @: give it as http://user:password@host:port")
    assert "cannot be used (no host)" in err, err


@pytest.mark.parametrize("proxy, lacks, fault", [
    ("http://:", "no host", "no host in it: give it as http://host:port"),
    ("http://:3128", "no host", "no host in it: give it as http://host:port"),
    ("http://", "no host", "no host in it: give it as http://host:port"),
    ("http://u:p@ :3128", "no host", "no host follows its @: give it as http://user:password@host:port"),
    ("http://user:98765432@ ", "no host", "no host follows its @: give it as http://user:password@host:port"),
    ("http://u:hunter2@my proxy:3128", "a space in its host", "its host holds a space: no host name holds one; remove it"),
])
def test_a_proxy_with_no_host_is_told_so_never_to_add_a_scheme_nor_of_the_server(project, cli, monkeypatch, proxy, lacks, fault):
    """140th round's review: http://: (no host, no credentials) was told "give it with its scheme, http://host:port"
    (requests' InvalidProxyURL, read as no scheme: it is no host); a space for the host, or in it, was "the server's
    answer could not be read as HTTP: InvalidURL; is --host ... pointing at the model server?", the server blamed."""
    err = proxy_told(cli, monkeypatch, proxy, fault)
    assert f"cannot be used ({lacks})" in err and "--host" not in err, err


@pytest.mark.parametrize("proxy, fault", [
    ("http://u:p@[::1]:0", "its port '0' is not one (a whole number from 1 to 65535)"),
    ("http://u:p@127.0.0.1:00000", "its port '00000' is not one (a whole number from 1 to 65535)"),
    ("http://admin:0", "its port is not one (a whole number from 1 to 65535)" + CREDENTIALS_FIRST),
])
def test_a_proxy_port_0_is_refused_before_any_call_as_65536_is(project, cli, monkeypatch, proxy, fault):
    """140th round's review: requests takes port 0, so http://u:p@[::1]:0 was tried and told "the proxy did not take the
    request (ProxyError); is it down?", where :65536 is refused as no port; http://admin:0 (the host forgotten) too."""
    err = proxy_told(cli, monkeypatch, proxy, fault)
    assert "cannot be used (not a port)" in err and "is it down" not in err, err


def test_a_proxy_that_answers_an_error_itself_is_named_with_its_variable(project, cli, monkeypatch):
    """139th round's hostile proxy: one answering 502 and its HTML page (it cannot reach the server) was unnamed, the
    error reading "is --host (or $OLLAMA_HOST) pointing at an Ollama server?": the proxy is named, with its variable."""

    class BadGateway(QuietHandler):
        def do_GET(self):
            self.answer(502, b"<html><body><h1>502 Bad Gateway</h1></body></html>", {"Content-Type": "text/html"})

    for name in ("NO_PROXY", "no_proxy"):
        monkeypatch.delenv(name, raising=False)
    server = serving(BadGateway)
    port = server.server_address[1]
    monkeypatch.setenv("http_proxy", f"http://127.0.0.1:{port}")
    try:
        for api in ("ollama", "openai"):
            code, out, err = cli("run", "--split", "dev", "--api", api, "--model", "m", "--host", "http://models.internal:11434")
            assert code == 2 and (f"answered HTTP 502 through the proxy http://127.0.0.1:{port} from $http_proxy, which answers "
                                  "so itself where it cannot reach the server or its rules refuse the request: ask its admin, "
                                  "or set NO_PROXY=models.internal to reach the server without it; else, the server is busy") \
                in err, (api, err)
    finally:
        server.shutdown()
        server.server_close()


def test_no_proxy_leaves_the_calls_direct(project, cli, fake, monkeypatch):
    monkeypatch.setenv("HTTP_PROXY", "http://127.0.0.1:9")   # nothing listens there
    monkeypatch.setenv("NO_PROXY", "127.0.0.1")
    code, out, err = cli("run", "--split", "dev", "--host", fake.url)
    assert code == 0, err
    assert fake.proxied == [] and len(fake.chat_bodies) == 28


def test_request_is_the_ollama_chat_call_with_options(project, cli, fake):
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--temperature", "0.7", "--seed", "7")
    assert code == 0, err
    body = fake.chat_bodies[0]
    prompt = (project / "prompts" / "v3.txt").read_text(encoding="utf-8")
    assert body["model"] == "qwen2.5:7b" and body["stream"] is False
    assert body["options"] == {"temperature": 0.7, "seed": 7, "num_ctx": 4096}   # the window pinned, always
    assert body["messages"][0] == {"role": "system", "content": prompt}
    assert body["messages"][1]["role"] == "user"
    assert len(fake.chat_bodies) == 28


def test_each_request_has_a_connection_of_its_own(project, cli, fake):
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--jobs", "4")
    assert code == 0, err
    assert len(fake.chat_connections) == 28 + 1   # one request on each: nothing read after it is taken (+ the load)
    # and one for each check before and after the load (tags, show, version, ps), and after the last answer (tags, show,
    # version: is the model the one the run began with?)
    assert len(fake.connections) == 28 + 1 + 4 + 3


def test_an_answer_nobody_asked_for_is_never_credited_to_a_case(project, cli, fake):
    """A server that sends one extra response after each real one made most answers land on the
    wrong case with --jobs 8 when connections were reused. Each answer must be its case's own."""
    with open(project / "many.jsonl", "w") as f:
        for i in range(100):
            f.write(json.dumps({"id": f"c{i:03d}", "input": f"ticket {i}", "difficulty": "easy", "note": "n",
                                "checks": [{"type": "contains", "value": "answer"}]}) + "\n")
    fake.default_answer = lambda text: f"answer to {text}"
    fake.unasked_answer = "UNASKED"
    code, out, err = cli("run", "--split", "many.jsonl", "--prompt", "prompts/v1.txt", "--host", fake.url,
                         "--jobs", "8")
    assert code == 0, err
    results = load_json("runs/many-v1.json")["results"]
    assert [r["response"] for r in results] == [f"answer to ticket {i}" for i in range(100)]


def test_a_connection_the_server_closed_while_idle_is_replaced_not_failed(fake):
    client = evalpy.OllamaClient(fake.url, retries=0)
    messages = [{"role": "user", "content": "hola"}]
    assert client.chat("qwen2.5:7b", messages, {})["error"] is None
    fake.hang_up_idle()   # as llama.cpp's server does after 5 s without a request
    time.sleep(0.2)
    answer = client.chat("qwen2.5:7b", messages, {})
    assert answer["error"] is None and answer["attempts"] == 1
    assert len(fake.chat_connections) == 2


def test_transient_faults_are_retried_until_an_answer(project, cli, fake):
    key = answer_key("golden/dev.jsonl")
    fake.answers = key
    first = next(iter(key))
    fake.faults_for[first] = ["503", "500", "drop", "badjson"]
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--retries", "4")
    assert code == 0, err
    result = load_json("runs/dev-v3.json")["results"][0]
    assert result["attempts"] == 5 and result["error"] is None and result["response"] == key[first]
    assert out.startswith("Accuracy: 28/28 = 100%")


def test_a_hung_request_times_out_and_is_retried(project, cli, fake):
    key = answer_key("golden/dev.jsonl")
    fake.answers = key
    fake.hang_seconds = 3
    fake.faults_for[next(iter(key))] = ["hang"]
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--timeout", "0.3")
    assert code == 0, err
    assert load_json("runs/dev-v3.json")["results"][0]["attempts"] == 2


def test_a_case_that_fails_for_good_is_an_error_not_a_wrong_answer(project, cli, fake):
    key = answer_key("golden/dev.jsonl")
    fake.answers = key
    broken = list(key)[3]
    fake.faults_for[broken] = ["500"] * 10
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--retries", "2")
    assert code == 2                                     # an error ends the run with 2 ...
    run = load_json("runs/dev-v3.json")                  # ... but the run file is kept
    result = run["results"][3]
    assert result["response"] is None and result["attempts"] == 3
    assert result["error"].startswith("HTTP 500: llama runner process has terminated")
    lines = out.splitlines()
    assert lines[0] == "Accuracy: 27/27 = 100%  (95% CI 88–100%)"   # not scored, not counted as wrong
    assert lines[2] == "Invalid answers: 0"
    assert lines[3].startswith("Errors: 1 of 28 cases got no usable answer")
    assert "dev-04: HTTP 500" in out
    assert "1 case got no usable answer" in err


def test_model_gone_mid_run_is_not_retried(project, cli, fake):
    key = answer_key("golden/dev.jsonl")
    fake.answers = key
    fake.faults_for[list(key)[0]] = ["404", "404"]
    code, out, err = cli("run", "--split", "dev", "--host", fake.url)
    assert code == 2
    result = load_json("runs/dev-v3.json")["results"][0]
    assert result["attempts"] == 1 and "ollama pull qwen2.5:7b" in result["error"]


def test_retries_are_bounded(project, cli, fake):
    fake.faults = ["503"] * 1000
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--retries", "1")
    assert code == 2
    # each case asked twice; five in a row refused alike stop the run (round 98), their errors journaled
    asked = lambda: sum(1 for body in fake.chat_bodies if body.get("messages"))   # (not the model's load)
    journal = (project / "runs" / "dev-v3.json.journal").read_text().splitlines()[1:]
    # (the next case's call was out as it stopped: waited for and journaled, round 101)
    assert asked() == sum(json.loads(e)["attempts"] for e in journal) and len(journal) - evalpy.SERVER_GONE_AFTER in (0, 1)
    assert "server busy" in json.loads(journal[0])["error"]
    # round 101: a busy server (Ollama's queue full under many --jobs) is waited for, as a rate limit is
    assert (f"refused {evalpy.SERVER_GONE_AFTER} calls in a row as busy, each after its retries (HTTP 503: server busy"
            in err and "wait, then resume: " in err and "--retries 0" not in err), err   # (--jobs 1: no fewer)
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--retries", "0", "--out", "runs/all.json")
    results = load_json("runs/all.json")["results"]
    assert code == 2 and len(results) == 28 and all("server busy" in r["error"] and r["attempts"] == 1 for r in results)


def test_a_wait_the_server_asked_past_the_cap_is_said_where_the_call_failed(project, cli, fake, monkeypatch):
    """Round 109: a Retry-After of 60 s was cut to the 30 s eval.py waits at most, without a word (README: "honoured"),
    so a rate limit of a minute turned every case into an error. The error says the wait was cut, and what to do."""
    monkeypatch.setattr(evalpy, "RETRY_CAP_SECONDS", 0.05)   # (the cap itself, not its length, is under test)
    fake.answers = answer_key("golden/dev.jsonl")
    fake.faults, fake.retry_after = ["429"] * 2, 60
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--limit", 1, "--retries", 1, "--out", "runs/r.json")
    error = load_json("runs/r.json")["results"][0]["error"]
    assert code == 2 and error == ("HTTP 429: Rate limit reached (it had asked to wait 60 s, Retry-After; eval.py waits at "
                                   "most 0.05 s between tries: resume once its limit has passed)"), error
    # (round 110's review) a wait past the cap by less than a second said as asked, never "30 s, at most 30 s"; one of
    # no number of seconds (inf, 1e999, nan) is none asked, never "asked to wait inf s"
    monkeypatch.setattr(evalpy, "RETRY_CAP_SECONDS", 30)
    assert "asked to wait 30.4 s, Retry-After; eval.py waits at most 30 s" in evalpy.cut_wait_words(30.4)
    assert "asked to wait 30.001 s" in evalpy.cut_wait_words(30.000001)   # (its review) past the ms: rounded up
    assert "asked to wait 30.001 s" in evalpy.cut_wait_words(30.0000000001)   # never "30 s, at most 30 s"
    assert "asked to wait 44.471 s" in evalpy.cut_wait_words(44.47057771682739)   # (a date's: rounded up, to the ms)
    assert "asked to wait 10000000000000000 s" in evalpy.cut_wait_words(1e16)
    assert "asked to wait 1234567890 s" in evalpy.cut_wait_words(1234567890.0)
    assert "asked to wait 27661600 s" in evalpy.cut_wait_words(27661600.0) and "e+" not in evalpy.cut_wait_words(1234567.0)
    # (its review) no decimal read 1 ms over (32.002 * 1000 is 32002.000000000004), and no traceback past 1.8e305
    assert all(f"asked to wait {n / 1000:.3f}".rstrip("0").rstrip(".") + " s" in evalpy.cut_wait_words(n / 1000)
               for n in range(30001, 40000))
    assert "asked to wait 1e+308 s" in evalpy.cut_wait_words(1e308)
    # (its review) one past 1.8e305 with a dot in its digits was a traceback again; nor trailing zeros, nor 1e+18 in digits
    assert [evalpy.cut_wait_words(c).split("wait ")[1].split(" s,")[0] for c in (2.5e305, 1.5e18, 99.99999, 123456.78901)] \
        == ["2.5e+305", "1.5e+18", "100", "123456.79"]
    assert [evalpy.retry_after({"Retry-After": said}) for said in ("inf", "1e999", "nan", "-1", "30.4", "0")] == \
        [None, None, None, None, 30.4, 0.0]
    fake.faults, fake.retry_after = ["429"] * 2, 0.01   # a wait within the cap: nothing to say
    assert cli("run", "--split", "dev", "--host", fake.url, "--limit", 1, "--retries", 1, "--out", "runs/s.json")[0] == 2
    assert load_json("runs/s.json")["results"][0]["error"] == "HTTP 429: Rate limit reached"


def test_a_wait_asked_in_more_digits_than_a_float_holds_is_cut_and_said(project, cli, fake, monkeypatch):
    """140th round (a hostile server): a Retry-After of 400 digits (RFC 9110's delay-seconds, 1*DIGIT) read as a float
    is inf, taken for no wait at all: retried after the plain backoff, and the case's error never said a wait was
    asked. It is a wait past the cap, cut and said as 1e20's is; "inf" and "1e999", no digits alone, are still none."""
    monkeypatch.setattr(evalpy, "RETRY_CAP_SECONDS", 0.05)   # (the cap itself, not its length, is under test)
    assert evalpy.retry_after({"Retry-After": "1" * 400}) == math.inf
    assert [evalpy.retry_after({"Retry-After": said}) for said in ("inf", "1e999", "-" + "1" * 400)] == [None] * 3
    fake.faults, fake.retry_after = ["429"] * 2, "1" * 400
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--limit", 1, "--retries", 1)
    result = load_json("runs/dev-v3.json")["results"][0]
    assert code == 2 and result["attempts"] == 2 and result["error"] == (
        "HTTP 429: Rate limit reached (it had asked to wait over 1e+308 s, Retry-After; eval.py waits at most 0.05 s "
        "between tries: resume once its limit has passed)"), result


def test_a_client_a_breaker_stopped_retries_nothing_and_begins_nothing(fake):
    """Round 102: as a breaker stopped a run, it waited for the calls out to the end of their retries (a dead server's:
    1 + 2 + 4 s each, to keep a connection failure), and an agent's next turn or an answer's next vote was still
    asked. Once stopping, a call ends with its attempt and no call is begun."""
    fake.faults, fake.retry_after = ["503"] * 10, 20   # (a retry would wait 20 s)
    client = evalpy.CLIENTS["ollama"](fake.url, retries=3)
    ask = lambda: client.chat("qwen2.5:7b", [{"role": "user", "content": "hola"}], {})
    answers = []
    asking = threading.Thread(target=lambda: answers.append(ask()), daemon=True)
    asking.start()
    while not fake.chat_bodies:
        time.sleep(0.01)
    stopped = time.monotonic()
    client.stopping.set()
    asking.join(5)
    assert not asking.is_alive() and time.monotonic() - stopped < 2
    assert answers[0]["attempts"] == 1 and answers[0]["error"].startswith("HTTP 503")
    with pytest.raises(evalpy.StopAsking):
        ask()
    assert len(fake.chat_bodies) == 1


def test_progress_redraws_in_place_on_a_terminal(project, fake):
    import pty
    fake.answers = answer_key("golden/dev.jsonl")
    fake.latency = 0.01
    leader, follower = pty.openpty()
    proc = subprocess.Popen([sys.executable, str(ROOT / "eval.py"), "run", "--split", "dev", "--host", fake.url],
                            stdout=subprocess.PIPE, stderr=follower, cwd=project,
                            env={k: v for k, v in os.environ.items() if k != "OLLAMA_HOST"})
    os.close(follower)
    shown = b""
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:   # the terminal closes when the process ends
            break
        if not chunk:
            break
        shown += chunk
    proc.wait(timeout=30)
    os.close(leader)
    assert proc.returncode == 0
    assert b"\r\x1b[K[" in shown and b"[28/28] errors 0" in shown


def test_progress_goes_to_stderr_in_plain_lines_when_not_a_terminal(project, fake):
    fake.answers = answer_key("golden/dev.jsonl")
    proc = subprocess.run([sys.executable, str(ROOT / "eval.py"), "run", "--split", "dev", "--host", fake.url],
                          capture_output=True, text=True, cwd=project, timeout=60,
                          env={k: v for k, v in os.environ.items() if k != "OLLAMA_HOST"})
    assert proc.returncode == 0, proc.stderr
    assert "[28/28] errors 0" in proc.stderr and "\r" not in proc.stderr
    assert "prompts/v3.txt" in proc.stderr        # says which prompt the default picked
    assert proc.stdout.startswith("Accuracy: 28/28 = 100%  (95% CI 88–100%)\n")


def test_odd_figures_from_a_server_are_stored_as_unknown(project, cli, fake):
    """Token counts and durations that are not numbers would make a run file report refuses."""
    fake.extra_fields = {"prompt_eval_count": "12", "eval_count": [1], "eval_duration": float("nan"),
                         "done_reason": {"why": "stop"}}
    code, out, err = cli("run", "--split", "dev", "--host", fake.url)
    assert code == 0, err
    r = load_json("runs/dev-v3.json")["results"][0]
    assert (r["prompt_tokens"], r["completion_tokens"], r["eval_duration_ns"], r["done_reason"]) == (None,) * 4
    assert r["total_duration_ns"] == 812345678
    assert cli("report", "runs/dev-v3.json")[0] == 0
    # a count that is not a number is said once too, shown on one line (ninth attack on issue 28, item 8)
    assert err.count('prompt_eval_count "12"') == 1 and err.count("eval_count [1],") == 1, err


def test_a_408_is_asked_again_and_a_413_is_refused_as_sent(project, cli, fake):
    """111th round: a 408 (a proxy's own timeout: the request never reached the model) was stored as an error, never
    asked again, where --retries asks again a timeout; a 413 (the body past a proxy's limit) was told to be resumed,
    where the same body is refused alike: fix what was sent, as of a 400."""
    fake.faults = ["408"]
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--limit", "1", "--jobs", "1")
    result = load_json("runs/dev-v3.json")["results"][0]
    assert code == 0 and result["error"] is None and result["attempts"] == 2, err
    fake.faults = ["413"] * 8
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--limit", "2", "--jobs", "1", "--out", "runs/b.json")
    results = load_json("runs/b.json")["results"]
    assert code == 2 and [r["attempts"] for r in results] == [1, 1], err
    assert "2 of them the server refused as sent (an HTTP 400, 413 or 422" in err and "would refuse alike: fix it and run again" in err, err


@pytest.mark.parametrize("via", ["direct", "proxy"])
@pytest.mark.parametrize("drip", ["drip_headers", "drip_body", "endless_chunked", "no_length"])
def test_timeout_bounds_the_whole_request_however_slowly_it_comes(project, cli, fake, monkeypatch, drip, via):
    """A server that sends a few bytes every 50 ms satisfies every read; --timeout must still end
    each request: 2 cases, 0.25 s each, where the server would go on for 10 s a case. Through a proxy
    too, headers included: the worker itself is freed, not only the caller."""
    with open(project / "three.jsonl", "w") as f:
        for i in range(2):
            f.write(json.dumps({"id": f"c{i}", "input": f"ticket {i}", "difficulty": "easy", "note": "n",
                                "checks": [{"type": "contains", "value": "bug"}]}) + "\n")
    host = fake.url if via == "direct" else through_the_fake_as_a_proxy(monkeypatch, fake)
    fake.hang_seconds = 10
    fake.faults = [drip] * 2
    # (the checks before the run wait --timeout too: 0.25 s for /api/tags on a loaded machine refused the run once)
    monkeypatch.setattr(evalpy.ChatClient, "preflight_seconds", lambda self: evalpy.PREFLIGHT_TIMEOUT)
    started = time.monotonic()
    code, out, err = cli("run", "--split", "three.jsonl", "--prompt", "prompts/v1.txt", "--host", host,
                         "--timeout", "0.25", "--retries", "0")
    assert time.monotonic() - started < 6
    assert code == 2 and os.path.exists("runs/three-v1.json"), err
    assert [r["error"] for r in load_json("runs/three-v1.json")["results"]] == ["no answer within 0.25 s (timeout)"] * 2


def test_a_server_that_takes_calls_and_never_answers_stops_the_run_at_five_cases(project, cli, fake):
    """Round 123's hostile Ollama: a server whose runner is stuck takes every call and answers none; the breaker read
    failed connections and refusals alone, so each case waited out its timeout and retries (28 cases at the default 300 s
    and 3 retries: about 9 hours). Five cases in a row timed out stop it, resumable, with what to do."""
    fake.hang_seconds = 3
    fake.faults = ["hang"] * 40
    started = time.monotonic()
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--timeout", "0.2", "--retries", "1", "--jobs", "1")
    assert code == 2 and time.monotonic() - started < 20, err
    assert ("stopped: the server at " + fake.url + " answered none of 5 calls in a row in the time allowed (no answer "
            "within 0.2 s (timeout)): a server stuck (restart it), or a model slower than --timeout (give a larger one); "
            "then resume") in err, err
    assert "Resume with: python eval.py run --resume runs/dev-v3.json" in err, err
    # five cases, each asked twice (the fake reads the last as eval.py has given it up: a loaded machine, not yet)
    deadline = time.monotonic() + 10
    while len(fake.chat_bodies) < 10 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(fake.chat_bodies) == 10
    fake.faults = []
    code, out, err = cli("run", "--resume", "runs/dev-v3.json", "--timeout", "5")
    assert code == 0 and len(load_json("runs/dev-v3.json")["results"]) == 28, err
    # (its newcomer) a proxy's 408 on every call is its own timeout: it never stopped a run (28 cases, 4 tries each)
    fake.faults = ["408"] * 40
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--retries", "0", "--out", "runs/proxy.json")
    assert code == 2 and "answered none of 5 calls in a row in the time allowed (HTTP 408" in err, err
    # (its review) a server's own words ending so are no timeout of eval.py's: a 500 not retried stops nothing
    fake.faults, fake.custom_error = ["custom"] * 28, "upstream gave up (timeout)"
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--retries", "0", "--out", "runs/own.json")
    assert code == 2 and "stopped" not in err and len(load_json("runs/own.json")["results"]) == 28, err
    # timeouts among refusals are said as what they are, and a queue of --jobs as a cause
    stop = evalpy.ServerRefuses("no answer within 1 s (timeout)", [("(timeout)", "no answer within 1 s (timeout)")] * 3
                                + [("HTTP 500", "HTTP 500: busy")] * 2)
    assert evalpy.refused_why("the server", "calls", stop, "resume", 4).startswith(
        "stopped: the server refused 2 and answered none of 3 more of 5 calls in a row in the time allowed (the last: no "
        "answer within 1 s (timeout)); fix what it refuses, give a slow model a larger --timeout (or fewer --jobs: calls "
        "wait in its queue), then resume"), evalpy.refused_why("the server", "calls", stop, "resume", 4)
    limited = evalpy.ServerRefuses("HTTP 429: slow down", [("(timeout)", "no answer within 1 s (timeout)")] * 3
                                   + [("HTTP 429", "HTTP 429: slow down")] * 2)
    assert "; wait (its rate limit, or a busy server), give a slow model a larger --timeout, then resume" in \
        evalpy.refused_why("the server", "calls", limited, "resume", 1)


def test_the_breakers_count_cases_and_save_no_call_once_every_case_is_asked(project, cli, fake, monkeypatch):
    """Round 123's slow servers: with --jobs 8, five slow cases spread through the split timed out last, after every
    case was handed out, and the stop kept "23 of 28" in a journal, no run file, saving no call; one case's five trials
    dropped stopped a --repeat 5 run, and every resume of it; a timeout after a Retry-After cut short was no timeout to
    the breaker, and 28 cases waited out theirs."""
    slow = {json.loads(line)["input"] for i, line in enumerate(open("golden/dev.jsonl", encoding="utf-8")) if i % 6 == 2}
    fake.answers = answer_key("golden/dev.jsonl")
    fake.latency = lambda text: 4.0 if text in slow else 0.0   # (a timeout of 1.5 s: under a loaded machine one of 0.4
    # timed out an answer at once, and the five slow ones were no longer five in a row)
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--jobs", "8", "--timeout", "1.5", "--retries", "0",
                         "--out", "runs/slow.json")
    assert code == 2 and "stopped" not in err and "5 cases got no usable answer" in err, err
    # (round 124's review) the stop came with the last answer, nothing out: it stopped nothing, but its cure is said
    assert f"the server at {fake.url} answered none of 5 calls in a row in the time allowed" in err, err
    assert sum(r["error"] is not None for r in load_json("runs/slow.json")["results"]) == 5
    fake.latency = 0.0
    dropped = json.loads(open("golden/dev.jsonl", encoding="utf-8").readline())["input"]
    fake.faults_for[dropped] = ["drop"] * 100
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--jobs", "1", "--repeat", "5", "--limit", "6",
                         "--retries", "0", "--out", "runs/dropped.json")
    assert code == 2 and "stopped" not in err, err
    assert [r["id"] for r in load_json("runs/dropped.json")["results"] if r["error"]] == ["dev-01"] * 5
    fake.faults_for.clear()
    # (its review) an agent's failure is its turn's, "turn 1: connection failed ...": the breaker never read it
    fake.faults = ["drop"] * 100
    code, out, err = cli("run", "--split", "golden/agent/dev.jsonl", "--host", fake.url, "--jobs", "1", "--retries", "0",
                         "--out", "runs/agents.json")
    assert code == 2 and "stopped answering (5 cases in a row: turn 1: connection failed" in err, err
    # (its review) a stop once every case is handed out ends the retries of the calls out, their errors kept: the run
    # is written (it waited every retry out, 40 calls for 34)
    fake.faults, asked = ["hang"] * 100, len(fake.chat_bodies)
    fake.hang_seconds = 1.0
    code, out, err = cli("run", "--split", "dev", "--limit", "10", "--host", fake.url, "--jobs", "8", "--timeout", "0.3",
                         "--retries", "3", "--out", "runs/stuck.json")
    assert code == 2 and "stopping (the server answered none of 5 calls in a row in the time allowed)" in err, err
    assert all(r["error"] for r in load_json("runs/stuck.json")["results"]) and len(fake.chat_bodies) - asked < 40
    # (its review) and why, with what to do, is said beside the errors it wrote
    assert "a model slower than --timeout (give a larger one (or fewer --jobs: calls wait in its queue)); then resume " \
        "(every case had been asked: the run is written with its errors)" in err, err
    # (round 124's review) and when the stop comes with the last answer, no call out: it was never said
    code, out, err = cli("run", "--split", "dev", "--limit", "5", "--host", fake.url, "--jobs", "1", "--timeout", "0.3",
                         "--retries", "0", "--out", "runs/last.json")
    assert code == 2 and "stop" not in err and "a server stuck (restart it), or a model slower than --timeout (give " \
        "a larger one); then resume (every case had been asked: the run is written with its errors)" in err, err
    assert len(load_json("runs/last.json")["results"]) == 5
    # (125th round) nor is going on with --retries 0 "to store each one's error": every one is stored already
    fake.faults = ["500"] * 100
    code, out, err = cli("run", "--split", "dev", "--limit", "5", "--host", fake.url, "--jobs", "1", "--retries", "1",
                         "--out", "runs/refused.json")
    assert code == 2 and "stop" not in err and "; fix what it refuses (an --option it cannot read?) (every case had " \
        "been asked: the run is written with its errors)" in err and "--retries 0" not in err, err
    fake.faults = []
    monkeypatch.setattr(evalpy, "RETRY_CAP_SECONDS", 0.05)
    monkeypatch.setattr(evalpy, "RETRY_BASE_SECONDS", 0.01)
    fake.hang_seconds, fake.retry_after = 1.0, 31
    for text in answer_key("golden/dev.jsonl"):
        fake.faults_for[text] = ["429", "hang", "hang"]
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--jobs", "1", "--timeout", "0.3", "--retries", "1",
                         "--out", "runs/limited.json")
    assert code == 2 and "answered none of 5 calls in a row in the time allowed (no answer within 0.3 s (timeout) (it " \
        "had asked to wait 31 s, Retry-After" in err, err


def test_a_read_timeout_in_the_body_is_a_timeout_even_when_the_deadline_keeper_is_late(project, cli, fake, monkeypatch):
    """Regression (flaky on a busy machine): a body that stops coming hits requests' per-read
    timeout, which it reports as a ConnectionError; when that came before the deadline keeper had
    marked the request expired, the answer was recorded as 'connection failed', and counted toward
    the server being gone. Here the keeper never acts, so the read timeout always comes first."""
    monkeypatch.setattr(evalpy.Deadlines, "keep", lambda self: None)
    with open(project / "one.jsonl", "w") as f:
        f.write(json.dumps({"id": "c0", "input": "ticket", "difficulty": "easy", "note": "n",
                            "checks": [{"type": "contains", "value": "bug"}]}) + "\n")
    fake.hang_seconds = 3
    fake.faults = ["no_length"]
    code, out, err = cli("run", "--split", "one.jsonl", "--prompt", "prompts/v1.txt", "--host", fake.url,
                         "--timeout", "0.5000001", "--retries", "0")   # (round 122: as given, never "0.5 s")
    assert code == 2
    assert [r["error"] for r in load_json("runs/one-v1.json")["results"]] == ["no answer within 0.5000001 s (timeout)"]


def test_a_redirect_is_an_error_that_says_where_it_pointed(project, cli, fake):
    """Following it would credit another server's answer to --host."""
    fake.faults = ["redirect"]
    code, out, err = cli("run", "--split", "dev", "--host", fake.url)
    assert code == 2
    error = load_json("runs/dev-v3.json")["results"][0]["error"]
    assert error == ("answered HTTP 307, a redirect to 'http://127.0.0.1:9/api/chat'; eval.py does not follow "
                     "redirects, so an answer is never credited to the wrong server: point --host at where the "
                     "server really is")
    assert len(fake.chat_bodies) == 28   # asked once: a redirect is not retried
    # (115th round's hostile servers) a 304 is no redirect, and moving --host cures nothing: said as what it is
    fake.faults = ["not_modified"]
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--out", "runs/n.json", "--limit", "1")
    error = load_json("runs/n.json")["results"][0]["error"]
    assert code == 2 and error == ("answered HTTP 304 (Not Modified) with no answer and no Location to go to; eval.py "
                                   "asks nothing a 304 answers: is something before the server (a cache, a proxy) "
                                   "answering for it?"), error
    # (its review) one that names a Location is said to, never "no Location"
    fake.faults = ["multiple_choices"]
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--out", "runs/m.json", "--limit", "1")
    error = load_json("runs/m.json")["results"][0]["error"]
    assert code == 2 and error.startswith("answered HTTP 300 (Multiple Choices) with no answer and its Location "
                                          "'http://127.0.0.1:9/api/chat' not followed (eval.py follows no redirect)"), error


def redirecting_server(location, body=0, status=b"302 Found"):
    """A raw server answering every request with a 302 (or `status`) to location (bytes, as sent) and a body of `body`
    zeros: (its listening socket, close() stops it; a queue of the bytes of each body sent before the client hung up)."""
    listener, sent = socket.create_server(("127.0.0.1", 0)), queue.Queue()

    def serve():
        with contextlib.suppress(OSError):
            while True:
                conn, _ = listener.accept()
                with conn:
                    conn.recv(65536)
                    conn.sendall(b"HTTP/1.1 " + status + b"\r\nLocation: " + location + b"\r\nContent-Length: %d\r\n\r\n" % body)
                    sent.put(sent_until_closed(conn.sendall, body))
    threading.Thread(target=serve, daemon=True).start()
    return listener, sent


REDIRECT_SAID = ("answered HTTP {status}, a redirect to {location}; eval.py does not follow redirects, so an answer is "
                 "never credited to the wrong server: point --host at where the server really is")


def test_a_redirects_body_is_never_read(project, cli, fake):
    """140th round (a hostile server): requests reads the whole body of a redirect that names a Location, even with
    allow_redirects=False (Session.send's resolve_redirects), before eval.py's MAX_BODY sees a byte of it: a 302 with a
    1 MiB gzip of 512 MiB of zeros took 1.2 GB. Nothing of a redirect's body is read: the client hangs up with the
    most of a body of 48 MiB unsent (in the sockets' buffers, a few MiB), where all of it went out before."""
    body = 48 << 20
    listener, sent = redirecting_server(b"http://127.0.0.1:9/", body)
    try:
        port = listener.getsockname()[1]
        code, out, err = cli("run", "--split", "dev", "--host", f"http://127.0.0.1:{port}")
    finally:
        listener.close()
    assert code == 2 and err == f"error: http://127.0.0.1:{port}/api/tags " + REDIRECT_SAID.format(
        status=302, location="'http://127.0.0.1:9/'") + "\n", err
    assert sent.get(timeout=60) < body // 2   # (the timeout a guard: the server ends its answer once the client hangs up)
    fake.faults, fake.redirect_body = ["redirect"], body   # a chat call's
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--limit", 1)
    result = load_json("runs/dev-v3.json")["results"][0]
    assert code == 2 and result["error"] == REDIRECT_SAID.format(status=307, location="'http://127.0.0.1:9/api/chat'")
    assert result["attempts"] == 1 and fake.redirect_sent.get(timeout=60) < body // 2


@pytest.mark.parametrize("location, shown", [(b"http://127.0.0.1:9/caf\xe9", r"'http://127.0.0.1:9/caf\xe9'"),
                                             (b"http://127.0.0.1:9/caf\xc3\xa9", "'http://127.0.0.1:9/caf\u00e9'"),
                                             (b"http://[::1/x", "'http://[::1/x'")])
def test_a_redirect_to_a_location_that_does_not_parse_is_said_a_redirect(project, cli, fake, location, shown):
    """140th round (a hostile server): a Location that requests cannot read (a byte not UTF-8, an IPv6 address never
    closed) raised inside requests' redirect handling: "cannot reach the model server ... (UnicodeDecodeError). Start
    it with `ollama serve`" of a server that answered, and in a case Python's bare words, retried. Said as any
    redirect is, its Location as sent (a byte not UTF-8 escaped, UTF-8 read as such), and not retried."""
    for api in ("ollama", "openai"):
        listener, sent = redirecting_server(location)
        try:
            port = listener.getsockname()[1]
            code, out, err = cli("run", "--split", "dev", "--api", api, "--model", "m", "--host", f"http://127.0.0.1:{port}")
        finally:
            listener.close()
        assert code == 2 and REDIRECT_SAID.format(status=302, location=shown) + "\n" in err, err
    fake.faults, fake.redirect_location = ["redirect"] * 3, location
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--limit", 1)
    result = load_json("runs/dev-v3.json")["results"][0]
    assert code == 2 and result["error"] == REDIRECT_SAID.format(status=307, location=shown) and result["attempts"] == 1, result


def test_a_key_spread_in_a_300s_location_is_removed_as_in_a_redirects(project, cli):
    """140th round's review (G1): a 300 or 305 whose Location held the API key spread by a C1 control (\\xc2\\x80, UTF-8)
    showed it letter by letter (its Latin-1 reading, "s\u00c2\\x80k..."), where a 302 removed it: shown by location_shown
    too, the key is removed from both, and spread by a byte no UTF-8 (\\xff) as well."""
    key = "sk-proj-ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789abcd"
    for status, gap in ((b"300 Multiple Choices", b"\xc2\x80"), (b"305 Use Proxy", b"\xff")):
        listener, _ = redirecting_server(b"http://x/?k=" + gap.join(c.encode() for c in key), status=status)
        try:
            port = listener.getsockname()[1]
            code, out, err = cli("run", "--split", "dev", "--api", "openai", "--api-key", key, "--host",
                                 f"http://127.0.0.1:{port}/v1")
        finally:
            listener.close()
        assert code == 2 and "its Location 'http://x/?k=[API key removed]' not followed" in err, err


def test_a_300s_location_is_shown_as_a_redirects_is(project, cli):
    """140th round's leftover: a 300 (or any 3xx eval.py does not take for a redirect) quoted its Location through
    on_one_line and then repr: a tab came out \\\\t, its backslash doubled, and a UTF-8 Location as Latin-1 (cafÃ©).
    It is shown as a redirect's Location is (location_shown): \\t, and café."""
    listener, _ = redirecting_server(b"http://127.0.0.1:9/caf\xc3\xa9\tx", status=b"300 Multiple Choices")
    try:
        port = listener.getsockname()[1]
        code, out, err = cli("run", "--split", "dev", "--host", f"http://127.0.0.1:{port}")
    finally:
        listener.close()
    assert code == 2 and ("answered HTTP 300 with no answer and its Location "
                          "'http://127.0.0.1:9/caf\u00e9\\tx' not followed (eval.py follows no redirect)") in err, err


def test_an_error_sent_with_status_200_keeps_the_servers_words(project, cli, fake):
    fake.faults = ["error_200"] * 4
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--retries", "3")
    assert code == 2
    error = load_json("runs/dev-v3.json")["results"][0]["error"]
    assert error == "HTTP 200 with an error: llama runner process no longer running: -1"


def test_an_answer_beside_an_error_in_a_200_is_the_error_as_ollamas_own_client_reads_it(project, cli, fake):
    """Round 87 on issue 28: {"message": ..., "error": "..."} with status 200 was stored as an answer. Ollama's client
    (api/client.go, stream(): `if errorResponse.Error != "" { return errors.New(errorResponse.Error) }`) fails it."""
    fake.faults = ["error_beside_answer"] * 2
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--retries", "1", "--limit", "2")
    assert code == 2
    result = load_json("runs/dev-v3.json")["results"][0]
    assert result["response"] is None and result["error"] == "HTTP 200 with an error: llama runner process no longer running: -1"


def test_an_error_that_is_no_string_beside_an_answer_is_the_error_and_a_blank_one_is_shown(project, cli, fake):
    """Round 91 on issue 28: {"message": ..., "error": {}} (or false, 0, []) was stored as the answer. Ollama's client
    unmarshals "error" into a string (api/client.go stream(): `Error string `json:"error,omitempty"``); anything but a
    string or null fails that and the whole line is the error (`return errors.New(string(bts))`). An error of
    a space or a zero-width space was shown as nothing after the colon."""
    for error, stored in (({}, '"error": {}'), (False, '"error": false'), (0, '"error": 0'), ([], '"error": []'),
                          (" ", 'with an error: " "'), ("\u200b", 'with an error: "\\u200b"'), ("", None), (None, None)):
        fake.extra_fields = {"error": error}
        out_path = f"runs/error-{json.dumps(error).encode().hex()}.json"
        code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--retries", "0", "--limit", "1", "--out", out_path)
        result = load_json(out_path)["results"][0]
        if stored is None:
            assert code in (0, 1) and result["error"] is None and result["response"] == "bug", (error, result)
        else:
            assert code == 2 and result["response"] is None and stored in result["error"], (error, result)


def test_terminal_control_sequences_from_a_server_are_shown_inert(project, cli, fake):
    """An answer or an error holding ESC sequences must not recolour or move the user's terminal."""
    fake.answers = answer_key("golden/dev.jsonl", {"dev-01": "\x1b[2J\x1b[31mbug", "dev-03": "gub\u202e"})
    first = list(fake.answers)[1]
    fake.faults_for[first] = ["custom"] * 2
    fake.custom_error = "\x1b]0;pwned\x07 runner died"
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--retries", "1")
    assert code == 2
    run = load_json("runs/dev-v3.json")
    assert run["results"][0]["response"] == "\x1b[2J\x1b[31mbug"   # stored exactly
    assert run["results"][1]["error"] == "HTTP 500: \\x1b]0;pwned\\x07 runner died"
    report = cli("report", "runs/dev-v3.json")[1]
    assert "\x1b" not in out + err + report and "\\x1b[2J\\x1b[31mbug" in report
    assert "\u202e" not in report and "gub\\u202e" in report   # a right-to-left override is shown, not obeyed


@pytest.mark.parametrize("api", ["ollama", "openai"])
def test_an_errors_words_that_are_no_text_are_quoted_as_json(project, cli, fake, api):
    """132nd round: an HTTP error whose "error" (or its message) was a list or a number was stored in Python's
    words, "HTTP 500: [1, {'message': 3}]"; it is quoted as the JSON the server sent."""
    for body, said in (({"error": [1, {"message": 3}]}, '[1, {"message": 3}]'), ({"error": 7.5}, "7.5"),
                       ({"error": {"message": [None, True]}}, "[null, true]"),
                       ({"detail": [{"loc": ["body"]}]}, '[{"loc": ["body"]}]')):
        fake.faults = ["custom"] * 2
        fake.custom_body = body
        code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--retries", "1", "--limit", "1",
                             *(("--api", "openai") if api == "openai" else ()))
        assert code == 2 and load_json("runs/dev-v3.json")["results"][0]["error"] == f"HTTP 500: {said}", err
        os.remove("runs/dev-v3.json")


def test_behind_a_proxy_an_unasked_answer_is_never_credited_either(project, cli, fake, monkeypatch):
    """The proxy path (and so HTTPS) goes through requests, whose pool would reuse the connection."""
    host = through_the_fake_as_a_proxy(monkeypatch, fake)
    fake.answers = answer_key("golden/dev.jsonl")
    fake.unasked_answer = "UNASKED"
    code, out, err = cli("run", "--split", "dev", "--host", host, "--jobs", "4")
    assert code == 0 and out.startswith("Accuracy: 28/28 = 100%"), err
    assert len(fake.chat_bodies) == 28


def test_a_server_that_never_takes_the_connection_cannot_be_reached(project, cli, monkeypatch):
    """Thirty-second round on issue 28: a connection that never opened (a full backlog drops the SYN, as a
    firewall or a wrong address does) was named "took the request and sent nothing back"."""
    monkeypatch.setattr(evalpy, "PREFLIGHT_TIMEOUT", 1.0)
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(0)
    port, held = listener.getsockname()[1], []
    try:
        for _ in range(8):   # the accept queue filled: the kernel drops the next SYN, and connect() waits
            c = socket.socket()
            c.setblocking(False)
            with contextlib.suppress(BlockingIOError):
                c.connect(("127.0.0.1", port))
            held.append(c)
        code, out, err = cli("run", "--split", "dev", "--host", f"127.0.0.1:{port}")
    finally:
        for c in held + [listener]:
            c.close()
    assert code == 2 and err.startswith(f"error: cannot reach the model server at http://127.0.0.1:{port} "
                                        "(ConnectTimeout)"), err


def test_the_checks_before_a_run_are_bounded_too(project, cli, fake, monkeypatch):
    monkeypatch.setattr(evalpy, "PREFLIGHT_TIMEOUT", 0.5)
    fake.drip_gets = True
    fake.hang_seconds = 20
    started = time.monotonic()
    code, out, err = cli("run", "--split", "dev", "--host", fake.url)
    assert time.monotonic() - started < 10
    # (round 106) a server still making a long answer a timed-out run asked for is no "stuck" one to restart alone
    assert "a server busy with a long answer (one a run that timed out or was stopped left it making" in evalpy.SERVER_SILENT
    # (31st round) it said "cannot reach ... Start it with `ollama serve`" of a server that took the connection; (116th
    # round) and "sent nothing back" of one that sent its status line and some of its headers, slowly
    assert code == 2 and err == (f"error: the model server at {fake.url} gave no answer to /api/tags within 0.5 s "
                                 "(TimeoutError): something there took the request and sent back no answer's head "
                                 "(its status line and headers, whole) in time: "
                                 f"{evalpy.SERVER_SILENT}\n"), err
    # (round 105) a --timeout shorter than the checks' own bound is theirs too (it waited 10 s past --timeout 8)
    monkeypatch.setattr(evalpy, "PREFLIGHT_TIMEOUT", 10.0)
    started = time.monotonic()
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--timeout", "0.5")
    assert time.monotonic() - started < 5 and code == 2 and "gave no answer to /api/tags within 0.5 s" in err, err
    # (round 122) said to be --timeout's wait, the server maybe only slow; 0.004 s was said "0 s" (0 is refused)
    assert ("in time; that wait was --timeout's (the checks before a run wait 10 s, or --timeout where shorter): raise "
            "--timeout if the server is only slow; else a server busy") in err, err
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--timeout", "0.0012345")   # (its review: as given)
    assert code == 2 and "gave no answer to /api/tags within 0.0012345 s" in err and "--timeout's" in err, err
    # (round 106) a server that sent its status and headers, then dripped its body, "sent nothing back"
    monkeypatch.setattr(evalpy, "PREFLIGHT_TIMEOUT", 0.5)
    fake.drip_gets = "drip_body"
    code, out, err = cli("run", "--split", "dev", "--host", fake.url)
    assert code == 2 and err == (f"error: the model server at {fake.url} began its answer to /api/tags (HTTP 200) and did "
                                 "not finish it within 0.5 s: a server stuck (restart it), or not a model server at all\n"), err


def socket_server(reply):
    """A raw TCP server on 127.0.0.1 that reads each connection's request, sends reply() (bytes; nothing for b""),
    then closes it: what no HTTP server does. Returns its listening socket (close() stops it)."""
    import socket
    import threading
    listener = socket.create_server(("127.0.0.1", 0))

    def serve():
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            with conn:
                conn.recv(65536)
                conn.sendall(reply())
    threading.Thread(target=serve, daemon=True).start()
    return listener


@pytest.mark.parametrize("api", ["ollama", "openai"])
def test_a_check_before_a_run_answered_in_part_is_no_server_to_start(project, cli, api):
    """Round 108: /api/tags (or /v1/models) answered 200 with Content-Length 500, then the connection closed after a
    part: "cannot reach the model server ... Start it with `ollama serve`" of a server that answered."""
    closing = False
    listener = socket_server(lambda: b"" if closing else
                             b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{\"models\": [")
    try:
        code, out, err = cli("run", "--split", "dev", "--api", api, "--model", "m", "--retries", 0,
                             "--host", f"http://127.0.0.1:{listener.getsockname()[1]}")
        assert code == 2 and "began its answer to /" in err and "hung up before its end" in err, err
        assert "cannot reach" not in err and "Start it" not in err and "Start the server" not in err, err
        closing = True   # (its review) the connection taken, then closed unanswered: something listens there too
        code, out, err = cli("run", "--split", "dev", "--api", api, "--model", "m", "--retries", 0,
                             "--host", f"http://127.0.0.1:{listener.getsockname()[1]}")
        assert code == 2 and "and closed the connection without an answer (RemoteDisconnected)" in err, err
        assert "cannot reach" not in err and "Start it" not in err and "Start the server" not in err, err
    finally:
        listener.close()


def test_a_plain_http_server_asked_over_https_is_no_server_to_start(project, cli, fake):
    """Round 108: --host https:// of a running Ollama (plain HTTP) said "cannot reach ... (SSLError). Start it with
    `ollama serve`" of a server that was up."""
    code, out, err = cli("run", "--split", "dev", "--retries", 0, "--host", fake.url.replace("http://", "https://"))
    assert code == 2 and "no TLS answer (WRONG_VERSION_NUMBER): a server that speaks plain HTTP, as Ollama does? give " \
        f"--host (or $OLLAMA_HOST) as {fake.url}" in err and "Start it" not in err, err
    # (its review) a TLS server that refuses the handshake (a fatal alert: handshake_failure) is no plain-HTTP one
    listener = socket_server(lambda: bytes([0x15, 0x03, 0x03, 0x00, 0x02, 0x02, 0x28]))   # TLS alert record: fatal, handshake_failure
    try:
        code, out, err = cli("run", "--split", "dev", "--retries", 0, "--host", f"https://127.0.0.1:{listener.getsockname()[1]}")
    finally:
        listener.close()
    assert code == 2 and ": the TLS handshake failed ([SSL: " in err and "plain HTTP" not in err and "Start it" not in err, err
    assert "the server refused it (a TLS version, a host name or a client certificate it wants" in err, err   # no certificate's


@pytest.mark.parametrize("api, status", [("ollama", 429), ("ollama", 503), ("openai", 429), ("ollama", 404)])
def test_a_check_before_a_run_told_the_server_is_busy_says_to_try_again(project, cli, api, status):
    """Round 106: /api/tags answering 429 (a proxy's rate limit) or 503 was told "is --host (or $OLLAMA_HOST) pointing at an Ollama
    server?", never that the server is busy; a 404 there is still a question of where --host points."""
    server = raw_server({})
    server.RequestHandlerClass.answer = lambda self: (self.send_response(status), self.send_header("Content-Length", "0"),
                                                      self.end_headers())
    server.RequestHandlerClass.do_GET = server.RequestHandlerClass.answer
    try:
        code, out, err = cli("run", "--split", "dev", "--api", api, "--model", "m", "--host",
                             f"http://127.0.0.1:{server.server_address[1]}")
    finally:
        server.shutdown()
    busy = "the server is busy or failing: try again in a moment, or see its log; else, "
    assert code == 2 and f"answered HTTP {status}; " in err and (busy in err) == (status != 404), err


@pytest.mark.parametrize("fault, error", [
    # (round 105) each was "connection failed (ChunkedEncodingError)", or (ContentDecodingError): a body never chunked,
    # a connection that worked
    ("huge_length", "connection failed mid-answer: the server hung up before the end of its answer (IncompleteRead)"),
    ("cut_body", "connection failed mid-answer: the server hung up before the end of its answer (IncompleteRead)"),
    ("bad_chunk", "connection failed mid-answer: a chunk of the answer had no length that could be read "
                  "(InvalidChunkLength)"),
    ("bad_gzip", "the server's answer did not decode as its Content-Encoding header says (gzip)"),
    # (round 105) something answered, in what http.client cannot read: "connection failed (ConnectionError)", which the
    # breaker reads as the server gone
    ("many_headers", "the server's answer could not be read as HTTP: more than 100 headers"),
    ("not_http", "the server's answer could not be read as HTTP: no HTTP status line (another protocol, or a body alone)"),
    ("flood", "the server's answer is over 64 MiB"),
])
def test_a_body_too_big_or_broken_is_an_error_that_says_how(project, cli, fake, fault, error):
    fake.faults = [fault]
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--retries", "0")
    assert code == 2 and "Traceback" not in err
    assert load_json("runs/dev-v3.json")["results"][0]["error"] == error


NEGATIVE_CHUNK_SAID = ("the server's answer could not be read as HTTP: a chunk of the answer had no length that could be "
                      "read (a length below zero)")


@pytest.mark.parametrize("length", ["-5", "-1"])
@pytest.mark.parametrize("api", ["ollama", "openai"])
def test_a_chunk_length_below_zero_is_an_answer_not_http(project, cli, fake, api, length):
    """134th round: a chunked answer whose chunk length was "-5" (urllib3 reads it as a number, and http.client's read
    of -5 bytes raises a bare ValueError) was "cannot reach the model server ... (ValueError). Start it with `ollama
    serve`" before the run, of a server that answered, and in a case Python's "read length must be non-negative or
    -1". Both say the answer could not be read as HTTP, as a chunk length that is no number does. "-1" (a read of -1
    bytes reads to the end, raising no ValueError) was "hung up before its end (IncompleteRead) ... (restart it)"."""
    listener = socket_server(lambda: b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked"
                                     b'\r\n\r\n%s\r\n{"models":[]}\r\n0\r\n\r\n' % length.encode())
    host = f"http://127.0.0.1:{listener.getsockname()[1]}"
    try:
        code, out, err = cli("run", "--split", "dev", "--api", api, "--model", "m", "--retries", 0, "--host", host)
    finally:
        listener.close()
    assert code == 2 and err.startswith(f"error: {host}/") and f": {NEGATIVE_CHUNK_SAID}; is " in err, err
    assert "cannot reach" not in err and "Start it" not in err and "ValueError" not in err, err
    fake.faults = ["negative_chunk" + length]
    code, out, err = cli("run", "--split", "dev", "--api", api, "--host", fake.url, "--retries", 0, "--limit", 1,
                         "--out", "runs/chunk.json")
    assert code == 2 and load_json("runs/chunk.json")["results"][0]["error"] == NEGATIVE_CHUNK_SAID, err


def test_an_interim_response_before_the_answer_is_read_past(project, cli, fake):
    """115th round's hostile servers: a proxy's 103 Early Hints before the answer was taken for it: the case's error
    "HTTP 103: Early Hints" (never retried, the answer after it dropped) and, before a run, "answered HTTP 103; is
    --host pointing at an Ollama server?". A client reads past every interim response (RFC 9110 15.2)."""
    answers = []
    for hints in (0, 2):
        fake.early_hints = hints
        code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--retries", "0", "--limit", "3", "--out",
                             f"runs/h{hints}.json")
        assert code == 0 and "Traceback" not in err, err
        answers.append([(r["id"], r["error"], r["response"]) for r in load_json(f"runs/h{hints}.json")["results"]])
    assert answers[0] == answers[1] and len(answers[0]) == 3, answers
    # (its review) as many as the bound are read past; one more is said so, never taken for the answer
    fake.early_hints = evalpy.INTERIM_RESPONSES_READ
    assert cli("run", "--split", "dev", "--host", fake.url, "--retries", "0", "--limit", "1", "--out", "runs/b.json")[0] == 0
    fake.early_hints = evalpy.INTERIM_RESPONSES_READ + 1
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--retries", "0", "--limit", "1")
    assert code == 2 and "Traceback" not in err, err
    assert f"more than {evalpy.INTERIM_RESPONSES_READ} interim (1xx) responses before an answer" in err, err


def test_answers_cut_off_in_a_row_stop_the_run_said_so(project, cli, fake):
    """114th round's hostile Ollama: five answers cut off after their headers stopped the run as "5 calls in a row could
    not connect", beside its own "connection failed mid-answer": they connected."""
    fake.faults = ["cut_body"] * 30
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--retries", "0", "--jobs", "3")   # (calls out)
    assert code == 2 and "could not connect:" not in err and "in a row could not connect" not in err, err
    # (the line said while calls out are awaited: printed only where some are, as the stop comes)
    # (round 123: run's breaker counts cases, whatever its trials: "5 calls" was said of nine)
    assert evalpy.stop_words(evalpy.ServerGone("x"), "the server", "calls") == (
        f"the server stopped answering: {evalpy.SERVER_GONE_AFTER} cases in a row failed on the connection (could not "
        "connect, or were cut off mid-answer)")


def test_two_answers_in_one_body_are_said_so_not_not_json(project, cli, fake):
    """114th round's hostile Ollama: a body of two JSON objects was "the server's answer was not JSON (... it begins
    {"model": ...)", quoting a whole, valid first one."""
    fake.faults = ["two_objects"]
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--retries", "0", "--limit", "1")
    error = load_json("runs/dev-v3.json")["results"][0]["error"]
    assert code == 2 and error.startswith("the server's answer was JSON with more after it (from character "), error


def test_an_answer_cut_short_is_said_cut_not_not_json(project, cli, fake):
    """129th round's hostile proxy: a 200 holding the first half of an answer, its Content-Length matching, was "the
    server's answer was not JSON (... it begins {"model": ...)", quoting a start that looked whole."""
    fake.faults = ["half_json"]
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--retries", "0", "--limit", "1")
    error = load_json("runs/dev-v3.json")["results"][0]["error"]
    assert code == 2 and error.startswith("the server's answer was JSON cut short (its end never came, after "), error
    fake.faults = ["cut_in_number"]   # (its review) cut inside a figure ("12."): cut short too, where "not JSON" was said
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--retries", "0", "--limit", "1", "--out", "runs/n.json")
    assert load_json("runs/n.json")["results"][0]["error"].startswith("the server's answer was JSON cut short ("), err
    fake.faults = ["array_body"]   # (its review) an array is said so, where "had no message.content" was said
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--retries", "0", "--limit", "1", "--out", "runs/a.json")
    assert load_json("runs/a.json")["results"][0]["error"].startswith("the server's answer was JSON, a list, not an "
                                                                      "object: [{"), err
    fake.faults = ["badjson"]   # (a page that is no JSON at all is still not JSON)
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--retries", "0", "--limit", "1", "--out", "runs/b.json")
    assert load_json("runs/b.json")["results"][0]["error"].startswith("the server's answer was not JSON ("), err


def run_against_raw_bytes(cli, reply, read_first=False):
    """`run --split dev` against a listener that sends every connection `reply` (after reading the request, or not)
    and closes it: (its port, exit code, stderr)."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()

    def answer():
        with contextlib.suppress(OSError):
            while True:
                conn, _ = listener.accept()
                if read_first:
                    conn.recv(65536)
                conn.sendall(reply)
                conn.close()
    threading.Thread(target=answer, daemon=True).start()
    port = listener.getsockname()[1]
    try:
        code, out, err = cli("run", "--split", "dev", "--host", f"127.0.0.1:{port}")
    finally:
        listener.close()
    return port, code, err


def test_an_answer_with_two_unlike_lengths_is_no_server_to_start(project, cli):
    """113th round: a model list sent with two Content-Length headers that disagree (urllib3's InvalidHeader) was
    "cannot reach the model server ... Start the server": it was reached, and its answer cannot be read as HTTP."""
    port, code, err = run_against_raw_bytes(cli, b'HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 13\r\n'
                                                 b'Connection: close\r\n\r\n{"models": []}', read_first=True)
    assert code == 2 and err == (f"error: http://127.0.0.1:{port}/api/tags: the server's answer could not be read as "
                                 "HTTP: Content-Length contained multiple unmatching values (5, 13); is --host (or "
                                 "$OLLAMA_HOST) pointing at the model server?\n"), err


def test_a_version_page_that_is_not_json_is_an_unknown_version_not_a_refusal(project, cli, fake):
    """Round 105: /api/version answering a page of HTML, beside a server whose models answer, refused the whole run
    ("is --host (or $OLLAMA_HOST) pointing at an ollama server?"), where a version of no string, or a non-200, is unknown."""
    fake.answers = answer_key("golden/dev.jsonl")
    fake.version_page = b"<html>hello</html>"
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--limit", 2)
    assert code == 0, err
    assert load_json("runs/dev-v3.json")["config"]["server_version"] is None


def test_a_service_answering_in_another_protocol_is_not_a_server_to_start(project, cli):
    """Round 105: an SSH server on the port (or a 200 past 100 headers) was "cannot reach the model server ...
    Start it with `ollama serve`": something answered, and it is no model server."""
    port, code, err = run_against_raw_bytes(cli, b"SSH-2.0-OpenSSH_8.9\r\n")
    assert code == 2 and err == (f"error: http://127.0.0.1:{port}/api/tags: the server's answer could not "
                                 "be read as HTTP: no HTTP status line (another protocol, or a body alone); is --host "
                                 "(or $OLLAMA_HOST) pointing at the model server?\n"), err


def through_the_fake_as_a_proxy(monkeypatch, fake):
    monkeypatch.setenv("HTTP_PROXY", fake.url)
    monkeypatch.delenv("NO_PROXY", raising=False)
    monkeypatch.delenv("no_proxy", raising=False)
    return "http://models.internal:11434"


def test_a_body_cut_short_through_a_proxy_is_an_error_not_a_traceback(project, cli, fake, monkeypatch):
    """Through requests (proxies, HTTPS) a broken body raised urllib3's own error, uncaught: exit 1."""
    host = through_the_fake_as_a_proxy(monkeypatch, fake)
    fake.faults = ["cut_body"] * 2
    code, out, err = cli("run", "--split", "dev", "--host", host, "--retries", "1")
    assert code == 2 and "Traceback" not in err
    assert load_json("runs/dev-v3.json")["results"][0]["error"].startswith("connection failed mid-answer: the server hung up")


def test_timed_out_requests_through_a_proxy_leave_no_thread_behind(project, cli, fake, monkeypatch):
    import threading
    host = through_the_fake_as_a_proxy(monkeypatch, fake)
    fake.hang_seconds = 30
    fake.faults = ["endless_chunked"] * 16
    before = threading.active_count()
    code, out, err = cli("run", "--split", "dev", "--host", host, "--timeout", "0.5", "--retries", "0", "--jobs", "8")
    assert code == 2
    deadline = time.monotonic() + 5
    while threading.active_count() > before + 1 and time.monotonic() < deadline:
        time.sleep(0.1)
    assert threading.active_count() <= before + 1   # the fake's own handler threads aside, none left reading


def test_a_timeout_too_long_for_a_socket_is_one_line(project, capsys):
    """--timeout 1e10 was an OverflowError from the socket, exit 1, a journal left behind."""
    with pytest.raises(SystemExit) as exit:
        evalpy.main(["run", "--split", "dev", "--timeout", "1e10"])
    err = capsys.readouterr().err
    assert exit.value.code == 2 and "argument --timeout: '1e10': give a number of seconds above 0, at most" in err
    assert not (project / "runs").exists()


# --- thinking models: "think" as asked, the reasoning stored apart, the answer alone scored

@pytest.mark.parametrize("flag, sent", [("on", True), ("off", False), ("high", "high"), ("max", "max"), (None, "absent")])
def test_think_is_sent_as_asked_and_recorded(project, cli, fake, flag, sent):
    fake.version = "0.22.0"   # (max came in v0.21.3: test_think_max_on_an_older_ollama...)
    fake.models.append("qwen3:8b")
    fake.thinking["qwen3:8b"] = "apart"
    fake.answers = answer_key("golden/dev.jsonl")
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--model", "qwen3:8b",
                         *(["--think", flag] if flag else []))
    assert code == 0 and out.startswith("Accuracy: 28/28 = 100%"), err
    assert {body.get("think", "absent") for body in fake.chat_bodies} == {sent}
    run = load_json("runs/dev-v3.json")
    assert run["config"]["think"] == ("default" if flag is None else sent)
    thought = [r["thinking"] for r in run["results"]]
    assert thought == [None] * 28 if flag == "off" else thought == [fake.reasoning] * 28
    assert all(r["response"] == r["expected"] for r in run["results"])   # the content, untouched
    assert ("· think " + flag in out) if flag else "think" not in out


def test_inline_reasoning_is_stored_raw_and_scored_without_it(project, cli, fake):
    fake.thinking["qwen2.5:7b"] = "inline"
    fake.answers = answer_key("golden/dev.jsonl")
    code, out, err = cli("run", "--split", "dev", "--host", fake.url)
    assert code == 0 and out.startswith("Accuracy: 28/28 = 100%"), err
    r = load_json("runs/dev-v3.json")["results"][0]
    assert r["response"] == f"<think>\n{fake.reasoning}\n</think>\n\nbug" and r["thinking"] is None


def test_inline_reasoning_is_shown_apart_from_the_answer_that_was_scored(project, cli, fake):
    """Round 105: the failures table showed a failing answer's reasoning, cut at 70 characters, never the answer
    scored; report --case printed it as the answer, unmarked (reasoning sent apart is marked "not scored")."""
    fake.thinking["qwen2.5:7b"] = "inline"
    fake.reasoning = "Okay, the user says the export hangs. That could be a bug, or billing. Let me weigh it."
    fake.answers = answer_key("golden/dev.jsonl", {"dev-01": "facturación"})
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--repeat", 2)
    failures = out.split("Failures (", 1)[1]
    row = next(line for line in failures.splitlines() if line.startswith("  dev-01"))
    assert row.split()[-1] == "facturación" and "Okay" not in row, row
    case = cli("report", "runs/dev-v3.json", "--case", "dev-01")[1]
    assert "  thinking (inline, before </think>; not scored):\n    Okay, the user says" in case
    assert "  answer:\n    facturación" in case, case
    doc = json.loads(cli("report", "runs/dev-v3.json", "--json")[1])
    (failure,) = [f for f in doc["failures"] if f["id"] == "dev-01"]
    assert failure["answer"] == "facturación" and failure["response"].startswith("<think>")
    assert cli("report", "runs/dev-v3.json", "--html", "p.html")[0] in (0, 1)
    assert "reasoning inline, before &lt;/think&gt;: not scored" in Path("p.html").read_text(encoding="utf-8")
    # (112th round) reasoning whose </think> never came is said so, not "before </think>"
    fake.thinking["qwen2.5:7b"] = "unclosed"
    assert cli("run", "--split", "dev", "--host", fake.url, "--limit", 1, "--out", "runs/u.json")[0] in (0, 1)
    case = cli("report", "runs/u.json", "--case", "dev-01")[1]
    assert "  thinking (inline, never closed by a </think>; not scored):" in case and "before </think>" not in case, case


def test_reasoning_before_a_lone_closing_tag_is_never_scored(project, cli, fake):
    """Templates that open <think> in the prompt (DeepSeek-R1's) send `reasoning</think>answer`:
    the reasoning greets the customer, the answer does not, and the check must fail."""
    folder = project / "golden" / "greet"
    folder.mkdir()
    (folder / "dev.jsonl").write_text(json.dumps(
        {"id": "g1", "input": "¿Dónde está mi pedido?", "vars": {"customer": "Ana"}, "difficulty": "easy", "note": "n",
         "checks": [{"name": "greets by name", "type": "icontains", "value": "{{customer}}"}]}) + "\n", encoding="utf-8")
    fake.route = lambda body: "Hola Ana, debería saludar así.\n</think>\n\nSu pedido sale hoy."
    code, out, err = cli("run", "--split", "golden/greet/dev.jsonl", "--prompt", "prompts/v1.txt", "--host", fake.url)
    assert code == 0 and out.startswith("Pass rate: 0/1 = 0%"), out + err
    r = load_json("runs/greet-dev-v1.json")["results"][0]
    assert r["response"] == "Hola Ana, debería saludar así.\n</think>\n\nSu pedido sale hoy."   # stored as it came


def test_reasoning_that_never_closed_is_no_answer_and_is_counted_apart(project, cli, fake):
    fake.thinking["qwen2.5:7b"] = "unclosed"
    fake.answers = answer_key("golden/dev.jsonl")
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--option", "num_predict=64")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("Accuracy: 0/28 = 0%") and "Invalid answers: 28" in lines
    assert any(l.startswith("Thinking never finished: 28 (dev-01, dev-02,") and "and 18 more" in l for l in lines)
    assert any(l.startswith("Cut off by the token limit: 28 (dev-01,") and "num_predict" in l for l in lines)
    s = json.loads(cli("report", "runs/dev-v3.json", "--json")[1])
    assert len(s["unfinished_thinking"]) == 28 and len(s["cut_off"]) == 28
    md = cli("report", "runs/dev-v3.json", "--markdown")[1]
    assert "| Thinking never finished | 28 | |" in md and "| Cut off by the token limit | 28 | |" in md


def test_reasoning_asked_over_ollamas_v1_is_its_think(project, cli, fake):
    """Round 105's audit of the fake: Ollama's /v1 reads reasoning_effort as its think (openai/openai.go
    thinkFromReasoningEffort), refusing an effort it has no word for and a model that cannot think, as its chat does;
    "none" is no thinking. The fake answered them all, reasoning or not."""
    fake.answers = answer_key("golden/dev.jsonl")
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--limit", 1,
                         "--option", "reasoning_effort=low", "--out", "runs/refused.json")
    assert code == 2 and load_json("runs/refused.json")["results"][0]["error"] == 'HTTP 400: "qwen2.5:7b" does not support thinking'
    fake.thinking["qwen2.5:7b"] = "apart"
    for effort, thought in (("low", fake.reasoning), ("none", None)):
        code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--limit", 1,
                             "--option", f"reasoning_effort={effort}", "--out", f"runs/{effort}.json")
        assert code == 0 and load_json(f"runs/{effort}.json")["results"][0]["thinking"] == thought, (effort, err)
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--limit", 1,
                         "--option", "reasoning_effort=huge", "--out", "runs/huge.json")
    assert code == 2 and load_json("runs/huge.json")["results"][0]["error"].startswith(
        'HTTP 400: invalid reasoning value: "huge" (must be "minimal"'), err


def test_openai_servers_reasoning_content_is_stored_apart(project, cli, fake):
    fake.thinking["qwen2.5:7b"] = "apart"
    fake.answers = answer_key("golden/dev.jsonl")
    fake.native_api = False   # llama.cpp's server, say (Ollama's says "fp_ollama")
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url)
    assert code == 0 and out.startswith("Accuracy: 28/28 = 100%"), err
    r = load_json("runs/dev-v3.json")["results"][0]
    assert r["thinking"] == fake.reasoning and r["thinking_tokens"] == len(fake.reasoning) // 4
    assert r["system_fingerprint"] == "b7020-cpu"   # what an OpenAI-compatible server says of its backend
    assert f"{28 * (len(fake.reasoning) // 4)} of them thinking" in out
    # (112th round) a count of reasoning tokens past the completion's, which hold them, is kept out and said once
    fake.usage_extra = {"completion_tokens_details": {"reasoning_tokens": 10 ** 6}}
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--limit", 2, "--out", "runs/r.json")
    assert code == 0 and [r["thinking_tokens"] for r in load_json("runs/r.json")["results"]] == [None, None], err
    assert err.count("usage.completion_tokens_details.reasoning_tokens 1000000 beside ") == 1, err
    fake.usage_extra = {}
    # (round 104) Ollama's /v1 names it "reasoning" (openai/openai.go Message.Reasoning), and sends no count of it
    fake.native_api = True
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--limit", 1, "--out", "runs/o.json")
    r = load_json("runs/o.json")["results"][0]
    assert code == 0 and r["thinking"] == fake.reasoning and r["thinking_tokens"] is None, r
    # a server that sends both names keeps both, never one dropped in silence (each once where they are the same)
    first, fake.thinking = read_cases("golden/dev.jsonl")[0], {}
    fake.agents[first["input"]] = [{"role": "assistant", "content": first["expected"], "reasoning_content": "RC",
                                    "reasoning": "R"}]
    assert cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--limit", 1, "--out", "runs/b.json")[0] == 0
    assert load_json("runs/b.json")["results"][0]["thinking"] == "RC\n\nR"
    fake.agents[first["input"]][0]["reasoning"] = "RC"
    assert cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--limit", 1, "--out", "runs/s.json")[0] == 0
    assert load_json("runs/s.json")["results"][0]["thinking"] == "RC"
    # one of them no text: the text kept (the other was said to be kept out, and the text with it, in silence)
    fake.agents[first["input"]][0]["reasoning_content"] = ["x"]
    assert cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--limit", 1, "--out", "runs/t.json")[0] == 0
    assert load_json("runs/t.json")["results"][0]["thinking"] == "RC"


def test_think_with_the_openai_api_is_refused_before_asking(project, cli, fake):
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--think", "on")
    assert code == 2 and "--think is sent as Ollama's" in err and "reasoning_effort" in err
    assert fake.chat_bodies == []


def test_compare_shows_a_change_of_think(project, cli, fake):
    fake.models.append("qwen3:8b")
    fake.thinking["qwen3:8b"] = "apart"
    fake.answers = answer_key("golden/dev.jsonl")
    assert cli("run", "--split", "dev", "--host", fake.url, "--model", "qwen3:8b", "--out", "runs/a.json")[0] == 0
    assert cli("run", "--split", "dev", "--host", fake.url, "--model", "qwen3:8b", "--think", "off",
               "--out", "runs/b.json")[0] == 0
    out = cli("compare", "runs/a.json", "runs/b.json")[1]
    assert "  think: default -> false" in out.splitlines()


# --- the model's identity: what the server says it is, recorded, compared, and held to on resume

def test_the_run_records_the_model_as_the_server_describes_it(project, cli, fake):
    fake.answers = answer_key("golden/dev.jsonl")
    assert cli("run", "--split", "dev", "--host", fake.url)[0] == 0
    config = load_json("runs/dev-v3.json")["config"]
    assert config["model_digest"] == fake.digest("qwen2.5:7b") and len(config["model_digest"]) == 64
    assert (config["model_family"], config["parameter_size"], config["quantization"]) == ("qwen2", "7.6B", "Q4_K_M")


def test_compare_names_a_model_replaced_under_the_same_name(project, cli, fake):
    fake.answers = answer_key("golden/dev.jsonl")
    assert cli("run", "--split", "dev", "--host", fake.url, "--out", "runs/a.json")[0] == 0
    fake.digests["qwen2.5:7b"] = "2f4a1b7c" + "0" * 56   # `ollama pull` brought a new build
    assert cli("run", "--split", "dev", "--host", fake.url, "--out", "runs/b.json")[0] == 0
    code, out, err = cli("compare", "runs/a.json", "runs/b.json")
    old = load_json("runs/a.json")["config"]["model_digest"]
    assert code == 0 and (f"  model digest: {old[:8]} -> 2f4a1b7c: the model was re-pulled or replaced "
                          "under the same name") in out.splitlines()
    c = json.loads(cli("compare", "runs/a.json", "runs/b.json", "--json")[1])
    assert c["changed"]["model_digest"] == [old, "2f4a1b7c" + "0" * 56]
    # a run made before digests were recorded: unknown, never an error
    before = load_json("runs/a.json")
    for key in ("model_digest", "model_family", "parameter_size", "quantization"):
        del before["config"][key]
    json.dump(before, open("runs/before.json", "w", encoding="utf-8"), ensure_ascii=False)
    code, out, err = cli("compare", "runs/before.json", "runs/b.json")
    assert code == 0 and "  model digest: unknown -> 2f4a1b7c" in out.splitlines()
    # (31st round) two digests alike in their first 8 characters were shown as one: "2f4a1b7c -> 2f4a1b7c"
    fake.digests["qwen2.5:7b"] = "2f4a1b7c" + "1" * 56
    assert cli("run", "--split", "dev", "--host", fake.url, "--out", "runs/c.json")[0] == 0
    code, out, err = cli("compare", "runs/b.json", "runs/c.json")
    assert code == 0 and ("  model digest: 2f4a1b7c0000 -> 2f4a1b7c1111: the model was re-pulled or replaced under the "
                          "same name") in out.splitlines(), out


def test_a_run_is_not_resumed_on_a_model_replaced_since_it_began(project, cli, fake):
    fake.answers = answer_key("golden/dev.jsonl")
    assert cli("run", "--split", "dev", "--host", fake.url)[0] == 0
    run = load_json("runs/dev-v3.json")
    os.unlink("runs/dev-v3.json")
    lines = [json.dumps({"format": evalpy.RUN_FORMAT, "config": run["config"]})]
    lines += [json.dumps({k: r[k] for k in ("id",) + evalpy.CALL_FIELDS}) for r in run["results"][:5]]
    open("runs/dev-v3.json.journal", "w", encoding="utf-8").write("\n".join(lines) + "\n")
    fake.digests["qwen2.5:7b"] = "f" * 64
    fake.chat_bodies.clear()
    code, out, err = cli("run", "--resume", "runs/dev-v3.json", "--host", fake.url)
    assert code == 2 and "is not the model the run began with" in err and "ffffffff" in err
    assert fake.chat_bodies == [] and os.path.exists("runs/dev-v3.json.journal")   # nothing asked, nothing lost
    assert "--rerun-test" not in err, err
    # (round 122) of the held-out test split, another --out alone is refused: the way is named
    fake.answers, fake.digests["qwen2.5:7b"] = answer_key("golden/test.jsonl"), run["config"]["model_digest"]
    assert cli("run", "--split", "test", "--host", fake.url, "--out", "runs/t.json")[0] == 0
    config = load_json("runs/t.json")["config"]
    os.unlink("runs/t.json")
    open("runs/t.json.journal", "w", encoding="utf-8").write(json.dumps({"format": evalpy.RUN_FORMAT, "config": config}) + "\n")
    fake.digests["qwen2.5:7b"] = "f" * 64
    code, out, err = cli("run", "--resume", "runs/t.json", "--host", fake.url)
    assert code == 2 and "on the held-out test split, with --rerun-test, the run marked as forced" in err, err
    fake.digests["qwen2.5:7b"], fake.answers = run["config"]["model_digest"], answer_key("golden/dev.jsonl")
    # (113th round) a finished run with errors, completed on a model re-pulled since: no journal to move aside
    fake.digests["qwen2.5:7b"] = run["config"]["model_digest"]
    assert cli("run", "--resume", "runs/dev-v3.json", "--host", fake.url)[0] == 0
    done = load_json("runs/dev-v3.json")
    done["results"][0].update(error="HTTP 500: boom", response=None)
    Path("runs/dev-v3.json").write_text(json.dumps(done), encoding="utf-8")
    fake.digests["qwen2.5:7b"] = "f" * 64
    code, out, err = cli("run", "--resume", "runs/dev-v3.json", "--host", fake.url)
    assert code == 2 and "is not the model the run began with" in err and "move the journal aside" not in err, err
    assert "a finished run whose errors would have been asked again" in err
    # (37th round) a server that no longer gives the digest: resumed, and said, never passed over in silence
    fake.digests["qwen2.5:7b"] = ""
    code, out, err = cli("run", "--resume", "runs/dev-v3.json", "--host", fake.url)
    assert code == 0 and "no longer says which digest qwen2.5:7b is (the run began with " in err, err


def test_openai_servers_model_entry_is_recorded(project, cli, fake):
    fake.answers = answer_key("golden/dev.jsonl")
    assert cli("run", "--split", "dev", "--api", "openai", "--host", fake.url)[0] == 0
    config = load_json("runs/dev-v3.json")["config"]
    assert config["model_entry"] == {"id": "qwen2.5:7b", "object": "model", "created": 1764496800, "owned_by": "library"}
    # (round 124) Ollama's own /v1: its digest read beside it, from /api/tags; another /v1 server names none
    assert config["model_digest"] == evalpy.hashlib.sha256(b"qwen2.5:7b").hexdigest()
    fake.native_api = False
    assert cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--out", "runs/v1.json")[0] == 0
    assert "model_digest" not in load_json("runs/v1.json")["config"]


# --- answers cut short and prompts that filled the window, told apart from invalid answers

@pytest.mark.parametrize("api", ["ollama", "openai"])
def test_answers_stopped_by_the_token_limit_are_listed_apart(project, cli, fake, api):
    fake.answers = answer_key("golden/dev.jsonl", {"dev-02": "facturación, porque el cargo no cuadra con el plan"})
    code, out, err = cli("run", "--split", "dev", "--api", api, "--host", fake.url, "--option", "num_predict=3")
    assert code == 0, err
    r = load_json("runs/dev-v3.json")["results"][1]
    assert r["done_reason"] == "length" and r["response"] == "facturación, porque"[:12]
    lines = out.splitlines()
    assert "Invalid answers: 1" in lines
    assert any(l.startswith("Cut off by the token limit: 1 (dev-02): raise num_predict") for l in lines)
    assert json.loads(cli("report", "runs/dev-v3.json", "--json")[1])["cut_off"] == [{"id": "dev-02", "trial": 1}]


LONG = "facturación " + "y además " * 1200   # about 2,700 tokens at the fake's 4 characters a token


def test_an_answer_that_filled_the_window_is_told_from_one_num_predict_cut(project, cli, fake):
    """Issue 31, item 6: every real run said "raise num_predict; a better prompt will not fix these", but
    no num_predict was set: prompt + answer filled the server's 2,048-token window (137 + 1,911), and
    --format schema removed every cut-off. Over /v1 llama-cpp-python stops at its n_ctx (fake.openai_context)."""
    fake.answers = answer_key("golden/dev.jsonl", {"dev-02": LONG})
    fake.openai_context = 2048
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url)
    assert code == 0, err
    r = load_json("runs/dev-v3.json")["results"][1]
    assert r["done_reason"] == "length" and r["prompt_tokens"] + r["completion_tokens"] == 2048
    lines = out.splitlines()
    assert not any(l.startswith("Cut off by the token limit") for l in lines), out
    line = next(l for l in lines if l.startswith("Stopped at the context window: 1 (dev-02): "))
    assert ("prompt + answer stopped short of every limit the run set, most likely at the server's window (/v1 does not "
            f"report it) ({r['prompt_tokens']} + {r['completion_tokens']} tokens") in line, line
    # (65th attack) over /v1 the limit is named as the user sets it there
    assert "No max_tokens was set" in line and "--format schema" in line and "raise num_predict" not in line
    s = json.loads(cli("report", "runs/dev-v3.json", "--json")[1])
    assert s["cut_off"] == [] and [w["id"] for w in s["window_full"]] == ["dev-02"]
    assert "| Stopped at the context window | 1 | |" in cli("report", "runs/dev-v3.json", "--markdown")[1]
    # (round 106) max_tokens=0 sent, which llama-cpp-python reads as no limit: "No max_tokens was set" was untrue
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--option", "max_tokens=0",
                         "--out", "runs/zero.json")
    line = next(l for l in out.splitlines() if l.startswith("Stopped at the context window: 1 (dev-02): "))
    assert "max_tokens=0 was sent, which sets no limit: the server's own cap" in line and "No max_tokens" not in line, line
    # (its review) num_predict=-1, sent as max_tokens over /v1, the same
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--option", "num_predict=-1",
                         "--out", "runs/minus.json")
    line = next(l for l in out.splitlines() if l.startswith("Stopped at the context window: 1 (dev-02): "))
    assert "num_predict=-1 was sent, which sets no limit" in line, line
    # a num_predict set and reached is the other cause, whose cure is num_predict
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--option", "num_predict=50")
    assert any(l.startswith("Cut off by the token limit: 1 (dev-02): raise num_predict") for l in out.splitlines())
    assert "Stopped at the context window" not in out


def test_an_ollama_answer_that_never_stops_runs_past_the_window(project, cli, fake):
    """Ollama bounds an answer without num_predict at ten windows (llm/llama_server.go boundedNumPredict):
    a cut answer then holds more tokens than the window, which no num_predict explains."""
    fake.answers = answer_key("golden/dev.jsonl", {"dev-02": LONG})
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--option", "num_ctx=200")
    assert code == 0, err
    r = load_json("runs/dev-v3.json")["results"][1]
    assert r["done_reason"] == "length" and r["completion_tokens"] == 2000
    line = next(l for l in out.splitlines() if l.startswith("Stopped at the context window: 1 (dev-02): "))
    assert f"({r['prompt_tokens']} + 2000 tokens, window 200)" in line


@pytest.mark.parametrize("api, options", [("ollama", {"num_predict": 100, "num_ctx": 4096}),
                                          ("openai", {"max_completion_tokens": 100})])
def test_a_length_stop_is_put_down_to_what_its_counts_show(project, cli, api, options):
    """Sixty-fourth attack on issue 28: an answer stopped for "length" at 5 tokens of a num_predict of 100 was "cut
    off by the token limit: raise num_predict"; a cap set as max_completion_tokens (OpenAI's newer name) was taken for
    none, the answer blamed on the window; and any answer past Ollama's window was "stopped at ten windows" (4090 +
    50 of a 4096 window)."""
    run = make_run([("a", "bug", "bu"), ("b", "bug", "bug"), ("c", "bug", "bug")], api=api, options=options)
    for r, prompt, answer in zip(run["results"], (10, 10, 4090), (5, 100, 50)):
        r.update(done_reason="length", prompt_tokens=prompt, completion_tokens=answer)
    write_run("runs/r.json", run)
    out = cli("report", "runs/r.json")[1]
    limit = "num_predict" if api == "ollama" else "max_completion_tokens"
    assert f"Cut off by the token limit: 1 (b): raise {limit} (--option {limit}=N)" in out, out
    if api == "ollama":
        assert 'Stopped for length short of every limit: 1 (a): the server said "length" for an answer of 5 tokens, ' \
               "under the run's limit (100)" in out, out
        window = next(l for l in out.splitlines() if l.startswith("Stopped at the context window: 1 (c): "))
        assert "(4090 + 50 tokens, window 4096)" in window and "ten windows" not in window, window
        ten = make_run([("d", "bug", "bug")], options={"num_ctx": 4096})
        ten["results"][0].update(done_reason="length", prompt_tokens=10, completion_tokens=40960)
        write_run("runs/ten.json", ten)
        assert "(10 + 40960 tokens, window 4096) and Ollama stopped it at ten windows" in cli("report", "runs/ten.json")[1]
        # (65th) with no limit set, a short answer said "length" is short of every limit, not "cut off by num_predict"
        short = make_run([("e", "bug", "bu")], options={"num_ctx": 4096})
        short["results"][0].update(done_reason="length", prompt_tokens=5, completion_tokens=1)
        write_run("runs/short.json", short)
        out = cli("report", "runs/short.json")[1]
        assert 'Stopped for length short of every limit: 1 (e): the server said "length" for an answer of 1 token, with no ' \
               "limit set" in out and "Cut off by the token limit" not in out, out
    else:   # (65th) of two caps the smaller stops the answer, and the window's row names the option given
        both = make_run([("f", "bug", "bug")], api="openai", options={"max_tokens": 10, "max_completion_tokens": 100})
        both["results"][0].update(done_reason="length", prompt_tokens=5, completion_tokens=10)
        write_run("runs/both.json", both)
        assert "Cut off by the token limit: 1 (f): raise max_tokens (--option max_tokens=N)" in cli("report", "runs/both.json")[1]
        # (66th) num_predict, sent over /v1 as max_tokens, beside a smaller max_completion_tokens: the smaller stops it
        write_run("runs/both.json", dict(both, config=dict(both["config"], options={"num_predict": 200, "max_completion_tokens": 10})))
        assert "Cut off by the token limit: 1 (f): raise max_completion_tokens" in cli("report", "runs/both.json")[1]
        # (67th) which of two caps a server obeys is its own (vLLM: max_completion_tokens; Ollama's /v1: max_tokens),
        # so a run is never made with two
        for caps in (["max_tokens=10", "max_completion_tokens=100"], ["num_predict=200", "max_completion_tokens=10"]):
            code, _, err = cli("run", "--split", "dev", "--api", "openai", "--host", "127.0.0.1:9",
                               *[x for c in caps for x in ("--option", c)])
            assert code == 2 and "both cap the answer, and servers differ in which they obey: give one" in err, err
        run["results"][0].update(completion_tokens=3)
        write_run("runs/r.json", dict(run, config=dict(run["config"], options={"max_completion_tokens": 100})))
        out = cli("report", "runs/r.json")[1]
        assert "Its max_completion_tokens (100) was not reached" in out and "num_predict" not in out, out
        # (67th) over /v1 no window is reported: a stop at 10 + 3 tokens is not said to have reached it, nor is a
        # num_ctx the request never sends offered as its cure
        window = next((l for l in out.splitlines() if l.startswith("Stopped at the context window: ")), out)
        assert "stopped short of every limit the run set, most likely at the server's window (/v1 does not report it) " \
               "(10 + 3 tokens; the first, a)" in window and "num_ctx" not in window and "a larger context size" in window, window
        # (round 122) the window holds at least what an answer of the run that ended by itself held (b: 300 + 900): a
        # stop at 300 + 2 was said to be at the window, "start the server with a larger context size" (llama.cpp's -n)
        run["results"][1].update(done_reason="stop", prompt_tokens=300, completion_tokens=900)
        run["results"][0].update(prompt_tokens=300, completion_tokens=2)
        write_run("runs/held.json", dict(run, config=dict(run["config"], options={"max_completion_tokens": 1000})))
        out = cli("report", "runs/held.json")[1]
        assert 'Stopped for length short of every limit: 1 (a): the server said "length" for an answer of 2 tokens, ' \
               "under the run's limit (1000) and short of the window" in out, out
        assert "Stopped at the context window: 1 (c)" in out, out   # (4090 + 50: past what b held)
        # (round 123) a run completed by --resume asked its errors again of a server perhaps restarted with a larger
        # window (as the advice for them says): what they held bounds no window the earlier answers met
        write_run("runs/completed.json", dict(run, config=dict(run["config"], options={"max_completion_tokens": 1000},
                                                                 completed_from="runs/held.json")))
        out = cli("report", "runs/completed.json")[1]
        assert "Stopped at the context window: 2 (a, c)" in out and "Stopped for length short" not in out, out
    s = json.loads(cli("report", "runs/r.json", "--json")[1])
    assert s["limit_option"] == limit


def test_a_limit_the_server_ignored_is_not_the_cut(project, cli):
    """Sixty-eighth attack on issue 28, against llama-cpp-python, which reads no max_completion_tokens: an answer of
    1446 tokens (602 + 1446 = its window of 2048) under max_completion_tokens=5 was "Cut off by the token limit: raise
    max_completion_tokens", a cure that cures nothing."""
    run = make_run([("a", "bug", "una frase larga"), ("b", "bug", "bug")], api="openai", options={"max_completion_tokens": 5})
    run["results"][0].update(done_reason="length", prompt_tokens=602, completion_tokens=1446)
    write_run("runs/i.json", run)
    out = cli("report", "runs/i.json")[1]
    assert "Cut off by the token limit" not in out, out
    window = next((l for l in out.splitlines() if l.startswith("Stopped at the context window: 1 (a): ")), out)
    assert "ran past the limit the run set, which the server ignored, most likely to the server's window (/v1 does not report it) (602 + 1446 tokens)" in window \
        and "The server ignored its max_completion_tokens (5): the answer ran to " \
           "1446 tokens" in window, window
    ollama = make_run([("a", "bug", "una frase larga")], options={"num_predict": 5, "num_ctx": 4096})
    ollama["results"][0].update(done_reason="length", prompt_tokens=20, completion_tokens=300)
    write_run("runs/o.json", ollama)
    out = cli("report", "runs/o.json")[1]
    assert "Stopped for length short of every limit: 1 (a): the server said \"length\" for an answer of 300 tokens, past " \
           "the run's limit (5), which the server ignored, and short of the window" in out and "Cut off" not in out, out
    # (round 122) a /v1 answer stopped for length that sent no usage, no limit set, was "Cut off by the token limit:
    # raise max_tokens"
    unknown = make_run([("a", "bug", "una"), ("b", "bug", "bug")], api="openai")
    unknown["results"][0].update(done_reason="length", prompt_tokens=None, completion_tokens=None)
    write_run("runs/u.json", unknown)
    out = cli("report", "runs/u.json")[1]
    assert "Cut off" not in out and ('Stopped for length short of every limit: 1 (a): the server said "length" for an '
                                     "answer whose token count the server did not send, with no limit set, and no token "
                                     "count sent to tell the window from the server's own limit (or a fault); look at "
                                     "these by hand") in out, out


def test_a_prompt_that_filled_the_window_is_flagged(project, cli, fake):
    fake.answers = answer_key("golden/dev.jsonl")
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--option", "num_ctx=40")
    assert code == 0, err
    run = load_json("runs/dev-v3.json")
    assert {b["options"]["num_ctx"] for b in fake.chat_bodies} == {40} and run["config"]["options"] == {"num_ctx": 40}
    full = [r["id"] for r in run["results"] if r["prompt_tokens"] >= 40]
    assert full and len(full) < 28   # the long tickets, not the short ones
    flag = next(l for l in out.splitlines() if l.startswith("Input may have been cut to fit num_ctx=40:"))
    assert flag.startswith(f"Input may have been cut to fit num_ctx=40: {len(full)} ({full[0]},")
    s = json.loads(cli("report", "runs/dev-v3.json", "--json")[1])
    assert [x["id"] for x in s["input_may_be_cut"]] == full and s["num_ctx"] == 40
    items = {i["id"]: i for i in evalpy.review_items(run)}
    assert items[full[0]]["stopped"] == ["input may have been cut to fit num_ctx=40"]
    # the default window: sent, recorded, and no ticket comes near it
    code, out, err = cli("run", "--split", "dev", "--host", fake.url)
    assert code == 0 and "Input may have been cut" not in out
    assert load_json("runs/dev-v3-2.json")["config"]["options"] == {"num_ctx": 4096}


# --- the model is loaded before the first case, and no case pays for it

def test_the_model_is_loaded_before_the_first_case_and_the_load_is_recorded_apart(project, cli, fake):
    fake.answers = answer_key("golden/dev.jsonl")
    fake.load_seconds = 2.0   # (a case that paid for it would take 2 s; a loaded machine takes some 0.7 s a case)
    code, out, err = cli("run", "--split", "dev", "--host", fake.url)
    assert code == 0, err
    assert fake.loads == [{"model": "qwen2.5:7b", "messages": [], "stream": False,
                           "options": fake.chat_bodies[0]["options"]}] and len(fake.chat_bodies) == 28
    run = load_json("runs/dev-v3.json")
    load = run["config"]["model_load"]
    # issue 27, item 12: Ollama's load answer carries no metrics (server/routes.go, ChatHandler with no
    # messages), so the run records the wall time alone, not a field that is always null
    assert load["ms"] >= 2000 and set(load) == {"ms"}
    assert max(r["latency_ms"] for r in run["results"]) < 2000 and all(r["load_duration_ns"] == 1234567
                                                                       for r in run["results"])
    # (its time as the load took it: under a busy machine's load 2 s may be past 2,100 ms, never a fault)
    assert any(re.fullmatch(r"  model load  [\d,.]+ m?s before the first case, not charged to any; 0 answers included "
                            r"a load", l)
               for l in out.splitlines()), out


def test_a_failed_load_is_noted_and_the_run_goes_on(project, cli, fake):
    fake.answers = answer_key("golden/dev.jsonl")
    fake.refuse_loads, fake.load_seconds = True, 0.3
    code, out, err = cli("run", "--split", "dev", "--host", fake.url)
    assert code == 0 and "note: loading qwen2.5:7b before the first case failed (HTTP 500" in err
    run = load_json("runs/dev-v3.json")
    assert run["config"]["model_load"] is None and run["results"][0]["load_duration_ns"] == 300_000_000
    assert any(l.endswith("1 answer included a load (dev-01: their latency holds it)") for l in out.splitlines())   # the first case paid for it


def test_compare_shows_both_runs_speed(project, cli, fake):
    fake.answers = answer_key("golden/dev.jsonl")
    assert cli("run", "--split", "dev", "--host", fake.url, "--out", "runs/a.json")[0] == 0
    assert cli("run", "--split", "dev", "--host", fake.url, "--out", "runs/b.json", "--option", "num_ctx=8192")[0] == 0
    lines = cli("compare", "runs/a.json", "runs/b.json")[1].splitlines()
    assert any(l.startswith("Speed: median latency ") and " tokens/s -> " in l for l in lines)
    c = json.loads(cli("compare", "runs/a.json", "runs/b.json", "--json")[1])
    assert [s["calls"] for s in c["speed"]] == [28, 28]
    md = cli("compare", "runs/a.json", "runs/b.json", "--markdown")[1]
    assert "| Latency, median |" in md and "| Generation speed |" in md


def test_the_load_and_the_judge_ask_with_the_runs_window(project, cli, fake):
    """Ollama reloads a model whose runner options differ: a load without num_ctx would be paid
    twice; a judge prompt (criterion, case and answer) is the longest of a run."""
    fake.answers = answer_key("golden/dev.jsonl")
    assert cli("run", "--split", "dev", "--host", fake.url, "--option", "num_ctx=8192")[0] == 0
    assert fake.loads[-1]["options"]["num_ctx"] == 8192
    folder = project / "golden" / "judged"
    folder.mkdir()
    (folder / "checks.json").write_text(json.dumps([{"name": "ok", "type": "judge", "value": "Contesta."}]))
    (folder / "dev.jsonl").write_text(json.dumps({"id": "j1", "input": "hola", "difficulty": "easy", "note": "n"}) + "\n")
    fake.route = lambda body: '{"reason": "sí", "pass": true}' if "Criterion:" in body["messages"][-1]["content"] else None
    assert cli("run", "--split", "golden/judged/dev.jsonl", "--host", fake.url, "--prompt", "prompts/v3.txt")[0] == 0
    judged = [b for b in fake.chat_bodies if b["messages"][0]["content"] == evalpy.JUDGE_PROMPT]
    assert judged and all(b["options"]["num_ctx"] == 4096 for b in judged)


@pytest.mark.parametrize("key, value", [("model_digest", 12345), ("model_digest", ["x"]), ("model_family", {}),
                                        ("model_load", "abc"), ("model_load", [1, 2]), ("model_load", 5),
                                        ("model_load", {"x": 1}), ("model_load", {"ms": "fast"}),
                                        ("model_entry", "m")])
def test_a_hand_edited_identity_or_load_is_one_plain_error(project, cli, fake, key, value):
    fake.answers = answer_key("golden/dev.jsonl")
    assert cli("run", "--split", "dev", "--host", fake.url)[0] == 0
    run = load_json("runs/dev-v3.json")
    run["config"][key] = value
    json.dump(run, open("runs/edited.json", "w", encoding="utf-8"), ensure_ascii=False)
    for argv in (("report", "runs/edited.json"), ("compare", "runs/dev-v3.json", "runs/edited.json")):
        code, out, err = cli(*argv)
        assert code == 2 and f"config.{key}" in err and err.count("\n") <= 2, err
    lines = [json.dumps({"format": evalpy.RUN_FORMAT, "config": run["config"]})]
    open("runs/dev-v3-2.json.journal", "w", encoding="utf-8").write("\n".join(lines) + "\n")
    code, out, err = cli("run", "--resume", "runs/dev-v3-2.json", "--host", fake.url)
    assert code == 2 and f"config.{key}" in err


def test_what_a_server_says_of_its_model_is_kept_as_valid_json_and_printed_inert(project, cli, fake):
    fake.answers = answer_key("golden/dev.jsonl")
    assert cli("run", "--split", "dev", "--host", fake.url, "--out", "runs/a.json")[0] == 0
    fake.digests["qwen2.5:7b"] = "\x1b[31mRED"
    assert cli("run", "--split", "dev", "--host", fake.url, "--out", "runs/b.json")[0] == 0
    for view in ((), ("--markdown",)):
        out = cli("compare", "runs/a.json", "runs/b.json", *view)[1]
        assert "\x1b" not in out and "\\x1b[31mRED" in out and "model digest" in out


def test_a_model_named_in_another_case_runs_as_ollama_serves_it(project, cli, fake):
    """Issue 27, item 8: Ollama resolves each part of a model's name ignoring case (server/routes.go,
    ChatHandler -> getExistingName, strings.EqualFold), so --model Qwen2.5:7B was refused as 'not
    pulled' though Ollama would serve it. It runs, and the run records the name the server lists."""
    fake.answers = answer_key("golden/dev.jsonl")
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--model", "Qwen2.5:7B", "--limit", 3,
                         "--out", "runs/case.json")
    assert code == 0, err
    assert "note: Qwen2.5:7B is qwen2.5:7b on" in err
    run = load_json("runs/case.json")
    assert run["config"]["model"] == "qwen2.5:7b"
    assert {b["model"] for b in fake.chat_bodies} == {"qwen2.5:7b"}
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--model", "Qwen3:7B", "--limit", 3)
    assert code == 2 and "model 'Qwen3:7B' is not pulled" in err   # another model still is not


def test_two_listed_models_equal_ignoring_case_are_refused_as_ambiguous(project, cli, fake):
    """Ollama resolves every name through getExistingName (server/routes.go), which walks its
    manifests, a Go map, and takes each part from the last one equal ignoring case: with qwen:7b and
    Qwen:7b both listed, either may answer, whatever the casing asked. The run recorded the casing
    asked (and its digest) while the server answered with the other: refused before any call."""
    fake.models[:] = ["qwen:7b", "Qwen:7b"]
    fake.digests.update({"qwen:7b": "a" * 64, "Qwen:7b": "b" * 64})
    for asked in ("Qwen:7b", "QWEN:7B", "qwen:7b"):
        code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--model", asked, "--limit", 1)
        assert code == 2 and "Qwen:7b, qwen:7b" in err and "differ only in case" in err, (asked, err)
    assert fake.chat_bodies == [] and fake.loads == []
    # (125th round) over Ollama's own /v1 (the same store behind it) too: it recorded qwen:7b's digest, unsaid
    for asked in ("qwen:7b", "Qwen:7b"):
        code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url + "/v1", "--model", asked,
                             "--limit", 1)
        assert code == 2 and f"{fake.url} lists Qwen:7b, qwen:7b, which differ only in case" in err, (asked, err)
    assert fake.chat_bodies == []
    # (127th round) named by the name asked, never by the :latest the /v1 list gives it ("model 'm:latest'" of --model m)
    fake.models[:] = ["m:latest", "M:latest"]
    fake.digests.update({"m:latest": "a" * 64, "M:latest": "b" * 64})
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url + "/v1", "--model", "m", "--limit", 1)
    assert code == 2 and err.startswith("error: model 'm': ") and "differ only in case" in err, err
    fake.models[:] = ["qwen:7b", "Qwen:7b"]
    # (126th round) twins of one digest (`ollama cp qwen:7b Qwen:7b`) are one manifest, one model: either answers alike
    fake.digests["Qwen:7b"] = "a" * 64
    for api, host in (("ollama", fake.url), ("openai", fake.url + "/v1")):
        code, out, err = cli("run", "--split", "dev", "--api", api, "--host", host, "--model", "Qwen:7b", "--limit", 1,
                             "--out", f"runs/{api}.json")
        assert code == 0 and "differ only in case" not in err, (api, err)


def test_ollama_options_are_checked_before_any_call(project, cli, fake):
    """Issue 27, items 6 and 9, from Ollama's source: api/types.go FromMap fails a value of the wrong
    type ('option "stop" must be of type array'), which routes.go handleScheduleError sends as a 500
    that eval.py retried on every case; and it ignores a name it lacks with only a log line, so
    num_predictt sat in the run's options as if applied. A text for stop is sent as its list; any
    other wrong value, and an unknown name, is one line before any call."""
    fake.answers = answer_key("golden/dev.jsonl")
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--option", "stop=END", "--limit", 2,
                         "--out", "runs/stop.json")
    assert code == 0, err
    assert load_json("runs/stop.json")["config"]["options"]["stop"] == ["END"]
    assert all(b["options"]["stop"] == ["END"] for b in fake.chat_bodies)
    fake.chat_bodies.clear()
    fake.loads.clear()
    for option, says in (("num_predictt=1", "--option num_predictt: Ollama has no such option"),
                         ("num_ctx=abc", '--option num_ctx="abc": Ollama takes an integer there'),
                         ("use_mmap=1", "--option use_mmap=1: Ollama takes a boolean there"),
                         ("stop=5", "--option stop=5: Ollama takes a list of texts there"),
                         ("num_predict=64.5", "--option num_predict=64.5: Ollama takes an integer there"),
                         # a Go int holds 64 bits (api/types.go: int fields), 1e20 would overflow on the server
                         ("num_ctx=1e20", "Ollama takes an integer there")):
        code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--option", option, "--limit", 2)
        assert code == 2 and says in err, (option, err)
    assert fake.chat_bodies == [] and fake.loads == []   # before any call
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--option", "num_predictt=1", "--limit", 2,
                         "--unchecked-options", "--out", "runs/unchecked.json")
    assert code == 0 and load_json("runs/unchecked.json")["config"]["options"]["num_predictt"] == 1


def test_an_empty_stop_text_is_refused_before_any_call(project, cli, fake):
    """--option stop= (a shell variable left empty) was sent as [""]: Ollama's own runner ends an answer
    at the first stop text it contains (runner/common/stop.go FindStop, strings.Contains), and every
    text contains "", so every answer came back empty and was scored. One line, before any call."""
    for option in ("stop=", 'stop=["END", ""]'):
        code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--option", option, "--limit", 2)
        assert code == 2 and "an empty stop text ends every answer" in err, (option, err)
    assert fake.chat_bodies == [] and fake.loads == []
    assert cli("run", "--split", "dev", "--host", fake.url, "--option", "stop=[]", "--limit", 2)[0] == 0


@pytest.mark.parametrize("api", ["ollama", "openai"])
def test_an_option_that_begins_like_json_but_is_not_is_refused_before_any_call(project, cli, fake, api):
    """--option stop=['END'] (Python's quotes), a trailing comma or a missing bracket was sent as one
    stop text, brackets and all, without a word. A value that begins with [ or { is JSON or one line
    naming it; a text that begins so is written as a JSON string."""
    for option in ("stop=['END']", 'stop=["END",]', 'stop=["END", "STOP"', 'stop= [1, NaN]', 'logit_bias={1: 2}'):
        code, out, err = cli("run", "--split", "dev", "--api", api, "--host", fake.url, "--option", option,
                             "--limit", 2, "--unchecked-options")
        assert code == 2 and len(err.splitlines()) == 1, (option, err)
        assert err.startswith(f"error: --option {option}: it begins like JSON but is not JSON (") and \
            "\'\"[/INST]\"\'" in err, (option, err)
    code, out, err = cli("run", "--split", "dev", "--api", api, "--host", fake.url, "--option", 'stop=[\n"END"',
                         "--limit", 2)
    assert code == 2 and err.startswith('error: --option stop=[\\n"END": it begins like JSON') and \
        len(err.splitlines()) == 1, err
    assert fake.chat_bodies == [] and fake.loads == []
    code, out, err = cli("run", "--split", "dev", "--api", api, "--host", fake.url, "--option", 'stop="[/INST]"',
                         "--limit", 2, "--out", "runs/inst.json")
    assert code == 0, err
    assert {json.dumps(b["options"]["stop"] if api == "ollama" else b["stop"]) for b in fake.chat_bodies} == {
        '["[/INST]"]' if api == "ollama" else '"[/INST]"'}


def test_a_model_option_given_twice_with_two_values_is_refused_before_any_call(project, cli, fake):
    """Attack 42: --option num_ctx=2048 --option num_ctx=8192 sent 8192 alone, in silence. Two values are
    refused; the same one twice says one thing."""
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--option", "num_ctx=2048", "--option", "num_ctx =8192")
    assert code == 2 and err == "error: --option num_ctx is given twice, with two values; give it once\n", err
    assert fake.chat_bodies == []
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--option", "use_mmap=1", "--option", "use_mmap=true")
    assert code == 2 and err == "error: --option use_mmap is given twice, with two values; give it once\n", err   # 1 == True
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--option", "num_ctx=2048", "--option", "num_ctx=2048",
                         "--limit", 1)
    assert code in (0, 1) and fake.chat_bodies[0]["options"]["num_ctx"] == 2048, err


def refused_too_large(project, cli, fake, api, option, value, *more):
    """run --option OPTION=VALUE (and `more` arguments) refused before any call, on one line naming the option, as a
    number too large: no run written, nothing sent. Its error's text."""
    code, out, err = cli("run", "--split", "dev", "--api", api, "--host", fake.url, "--option", f"{option}={value}",
                         "--limit", 1, "--out", "runs/huge.json", *more)
    assert code == 2 and err.startswith(f"error: --option {option}={value[:3]}") and len(err.splitlines()) == 1, err
    assert "Traceback" not in err and "too large" in err and not (project / "runs" / "huge.json").exists()
    assert fake.chat_bodies == []
    return err


@pytest.mark.parametrize("api, option", [("ollama", "top_p"), ("openai", "top_p"), ("ollama", "num_ctx")])
def test_an_option_of_a_whole_number_too_long_for_a_float_is_refused_before_any_call(project, cli, fake, api, option):
    """139th round: --option top_p=<400 nines> (an int to JSON, no float) was taken and sent, and the run written then
    refused by report and compare as its own file ("config.options.top_p must be a finite number"). Refused at once,
    on one line naming the option, as 1e400 is."""
    refused_too_large(project, cli, fake, api, option, "9" * 400)


@pytest.mark.parametrize("value", ["1e400", "-1e400", "9" * 400 + ".5", "9" * 4301, "9" * 5000])
@pytest.mark.parametrize("api, option", [("ollama", "foo"), ("openai", "foo"), ("ollama", "top_p"), ("ollama", "num_predict"),
                                         ("openai", "max_tokens")])
def test_a_bare_option_number_too_large_for_a_float_is_refused_not_sent_as_text(project, cli, fake, api, option, value):
    """140th round's leftover: under --unchecked-options (or over /v1, where an option's name is the server's own) a bare
    --option foo=1e400, or <400 digits>.5, read as no finite JSON number, was sent as the TEXT "1e400", where the same
    number inside braces is refused; --option top_p=1e400 was said "Ollama takes a number there", of a number. A value
    that is a JSON number too large for a float is refused before any call, naming the option, as one in braces is.
    (The round's review: a whole number past Python's 4,300 digits, num_predict's said "Ollama takes an integer there".)"""
    fake.native_api = api == "ollama"
    unchecked = ["--unchecked-options"] if api == "ollama" and option == "foo" else []
    err = refused_too_large(project, cli, fake, api, option, value, *unchecked)
    assert "too large for any server" in err, err


@pytest.mark.parametrize("api", ["ollama", "openai"])
def test_an_unchecked_option_holding_a_whole_number_too_long_for_a_float_is_refused_before_any_call(project, cli, fake, api):
    """140th round: --unchecked-options --option foo='{"a": <400 nines>}' was sent, where top_p=<400 nines> is refused:
    Ollama reads an option's numbers as 64-bit floats (api/types.go ChatRequest.Options, a map[string]any, decoded by
    Go's encoding/json), and refuses such a request whole, every case. Refused at once, naming the option, at any depth;
    a long number a float holds is sent exactly as given, never as a float."""
    fake.native_api = api == "ollama"   # (over /v1 a server that is not Ollama's: an unknown field is its own)
    unchecked = ["--unchecked-options"] if api == "ollama" else []
    for value in ('{"a": %s}' % ("9" * 400), '[1, {"b": [-%s]}]' % ("9" * 400)):
        code, out, err = cli("run", "--split", "dev", "--api", api, "--host", fake.url, "--option", f"foo={value}",
                             "--limit", 1, "--out", "runs/huge.json", *unchecked)
        assert code == 2 and err.startswith("error: --option foo=") and len(err.splitlines()) == 1, err
        assert "Traceback" not in err and "too large" in err and not (project / "runs" / "huge.json").exists(), err
    assert fake.chat_bodies == []
    code, out, err = cli("run", "--split", "dev", "--api", api, "--host", fake.url, "--option",
                         'foo={"a": %s}' % ("9" * 300), "--limit", 1, "--out", "runs/long.json", *unchecked)
    sent = fake.chat_bodies and (fake.chat_bodies[0]["options"] if api == "ollama" else fake.chat_bodies[0]).get("foo")
    assert code == 0 and sent == {"a": int("9" * 300)}, (err, sent)
    assert load_json("runs/long.json")["config"]["options"]["foo"] == {"a": int("9" * 300)}


def test_a_request_refused_for_its_options_is_not_retried(fake):
    """The 500 Ollama sends for an option of the wrong type fails the same way every time: asked once,
    not four times (a run whose options were written in by hand reaches the server with it)."""
    client = evalpy.OllamaClient(fake.url, retries=3)
    answer = client.chat("qwen2.5:7b", [{"role": "user", "content": "ticket dev-01"}], {"stop": "END"})
    assert answer["error"] == 'HTTP 500: option "stop" must be of type array' and answer["attempts"] == 1
    assert len(fake.chat_bodies) == 1


def test_resuming_a_run_whose_options_ollama_refuses_stops_at_the_load(project, cli, fake):
    """A run started before options were checked may hold stop="END", which Ollama refuses on every
    request with a 500 (api/types.go FromMap). run --resume took the load's 500 for a slow load ('the
    first answers' latency may include the load') and asked every remaining case to fail it again.
    The load says it: one line naming the option, exit 2, no case asked, no completed run file. A stop
    list holding a number is refused in FromMap's other words ('must be of an array of strings'),
    which is not retried either."""
    fake.answers = answer_key("golden/dev.jsonl")
    fake.faults = ["500"] * 2
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--limit", 3, "--retries", 0,
                         "--out", "runs/old.json")
    run = load_json("runs/old.json")
    assert code == 2 and [r["error"] is None for r in run["results"]] == [False, False, True]
    run["config"]["options"]["stop"] = "END"
    with open("runs/old.json", "w", encoding="utf-8") as f:
        json.dump(run, f)
    fake.chat_bodies.clear()
    code, out, err = cli("run", "--resume", "runs/old.json", "--host", fake.url)
    assert code == 2 and 'option "stop" must be of type array' in err and "every case would fail" in err, err
    assert fake.chat_bodies == [] and not os.path.exists("runs/old-completed.json")
    client = evalpy.OllamaClient(fake.url, retries=3)
    answer = client.chat("qwen2.5:7b", [{"role": "user", "content": "ticket dev-01"}], {"stop": ["END", 1]})
    assert answer["error"] == 'HTTP 500: option "stop" must be of an array of strings' and answer["attempts"] == 1


def test_thinking_cut_by_the_token_limit_is_counted_as_unfinished(project, cli, fake):
    """Issue 27, item 3: Ollama bounds the whole generation by num_predict (llm/llama_server.go,
    NPredict) and splits the reasoning off it after (server/routes.go, thinking.Parser), so
    --think on --option num_predict=5 gave content "", done_reason "length", the reasoning apart:
    INVALID and 'cut off', but 'Thinking never finished' stayed empty though the README promises it."""
    fake.models.append("qwen3:8b")
    fake.thinking["qwen3:8b"] = "apart"
    fake.answers = answer_key("golden/dev.jsonl")
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--model", "qwen3:8b", "--think", "on",
                         "--option", "num_predict=5", "--limit", 3, "--out", "runs/cut.json")
    assert code == 0, err
    run = load_json("runs/cut.json")
    assert all(r["response"] == "" and r["done_reason"] == "length" and r["thinking"] for r in run["results"])
    s = json.loads(cli("report", "runs/cut.json", "--json")[1])
    assert [u["id"] for u in s["unfinished_thinking"]] == ["dev-01", "dev-02", "dev-03"]
    assert "Thinking never finished: 3" in cli("report", "runs/cut.json")[1]
    # (round 106) every view says no answer came, not an empty one; and the fake counts its tokens as Ollama does:
    # the limit, never the thinking again on top ("an answer of 21 tokens past the run's limit (5)")
    assert all(r["completion_tokens"] == 5 for r in run["results"]) and "Stopped for length" not in out
    assert [f["answer"] for f in s["failures"]] == [None, None, None]
    assert "(no answer: still thinking when it stopped)" in cli("report", "runs/cut.json")[1]
    shown = json.loads(cli("report", "runs/cut.json", "--case", "dev-01", "--json")[1])["trials"][0]
    assert shown["answer"] is None and shown["unfinished"] is True
    assert "answer: none (still thinking when it stopped: the token limit fell inside its thinking)" in \
        cli("report", "runs/cut.json", "--case", "dev-01")[1]
    assert cli("report", "runs/cut.json", "--html", "cut.html")[0] in (0, 1)
    assert "thinking cut by the token limit (no answer: still thinking when it stopped)" in \
        Path("cut.html").read_text(encoding="utf-8")
    # a budget the reasoning leaves room in: an answer, cut or not, is an answer
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--model", "qwen3:8b", "--think", "on",
                         "--option", "num_predict=64", "--limit", 3, "--out", "runs/room.json")
    assert code == 0 and json.loads(cli("report", "runs/room.json", "--json")[1])["unfinished_thinking"] == []


def test_a_format_on_a_thinking_model_says_its_counts_are_the_second_passs(project, cli, fake):
    """Issue 27, item 5: with a format on a thinking model Ollama lets it think without the format,
    then asks again with the thinking as an assistant turn and the format on (server/routes.go
    ChatHandler, "structured outputs via double request", since v0.12.4), and sends only the second
    request's metrics: the thinking sits in the prompt count and is missing from the completion
    count. The report said nothing. It says how many answers were counted so; without a format, or
    on a model that does not think, it says nothing."""
    fake.models.append("qwen3:8b")
    fake.thinking["qwen3:8b"] = "apart"
    fake.answers = answer_key("golden/dev.jsonl")
    fake.json_when_asked = True
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--model", "qwen3:8b", "--format", "json",
                         "--limit", 3, "--out", "runs/two.json")
    assert code == 0, err
    assert "second pass only: 3 answers thought under --format" in out
    assert json.loads(cli("report", "runs/two.json", "--json")[1])["speed"]["two_pass"] == 3
    assert cli("report", "runs/two.json", "--html", "two.html")[0] == 0 and "second pass only" in open("two.html").read()
    for argv in (("--model", "qwen3:8b"), ("--format", "json")):
        code, out, err = cli("run", "--split", "dev", "--host", fake.url, *argv, "--limit", 3, "--out", "runs/one.json")
        assert code == 0 and "second pass only" not in out
        os.remove("runs/one.json")


@pytest.mark.parametrize("flag", ["on", "off"])
def test_think_on_or_off_on_gpt_oss_stops_before_any_case(project, cli, fake, flag):
    """Issue 27, item 10: gpt-oss thinks in levels only; Ollama ignores true and false for it and its
    thinking cannot be turned off (docs/capabilities/thinking.mdx), so --think off recorded a run
    without thinking that had thought. One line, exit 2, before any case; a level runs; max is sent
    and noted as high (server/routes.go: harmony's max becomes high)."""
    fake.models.append("gpt-oss:20b")
    fake.thinking["gpt-oss:20b"] = "apart"
    fake.version = "0.22.0"   # (one that takes max)
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--model", "gpt-oss:20b", "--think", flag)
    assert code == 2 and "thinks in levels only" in err, err
    assert "pass --think low, medium or high" in err and fake.chat_bodies == [] and "Traceback" not in err
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--model", "gpt-oss:20b", "--think", "max",
                         "--limit", 2)
    assert code == 0 and "Ollama sends --think max to it as high" in err
    assert {b["think"] for b in fake.chat_bodies} == {"max"}


def test_thinking_cut_under_format_had_no_second_pass(project, cli, fake):
    """From the attack on issue 27: Ollama starts the second request only once content follows the
    thinking (server/routes.go, structuredOutputsState_ReadyToApply), so an answer the token limit
    stopped mid-thought had one pass; the Speed section counted it among the second-pass ones."""
    fake.models.append("qwen3:8b")
    fake.thinking["qwen3:8b"] = "apart"
    fake.answers = answer_key("golden/dev.jsonl")
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--model", "qwen3:8b", "--format", "json",
                         "--option", "num_predict=5", "--limit", 4, "--out", "runs/cut.json")
    assert code == 0 and "Thinking never finished: 4" in out and "second pass only" not in out
    assert json.loads(cli("report", "runs/cut.json", "--json")[1])["speed"]["two_pass"] == 0


def test_a_run_with_think_max_reads_back(project, cli, fake):
    """--think max (api/types.go ThinkValue.IsValid) ran, but its run file was refused by every
    command after: config.think did not allow "max"."""
    fake.version = "0.22.0"
    fake.models.append("qwen3:8b")
    fake.thinking["qwen3:8b"] = "apart"
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--model", "qwen3:8b", "--think", "max",
                         "--limit", 2, "--out", "runs/max.json")
    assert code == 0, err
    code, out, err = cli("report", "runs/max.json")
    assert code == 0, err


def test_think_on_a_model_that_does_not_think_stops_before_any_case(project, cli, fake):
    """Issue 27, item 7: Ollama answers think on a model without the thinking capability with a 400
    '"qwen2.5:7b" does not support thinking' (server/routes.go, ChatHandler), so --think on failed all
    28 cases. /api/tags lists each model's capabilities (api/types.go, ListModelResponse): one line first."""
    fake.answers = answer_key("golden/dev.jsonl")
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--think", "on")
    assert code == 2 and "--think on: qwen2.5:7b does not think on" in err and "(it can: completion, tools)" in err
    assert fake.chat_bodies == [] and fake.loads == [] and not os.path.exists("runs/dev-v3.json")
    assert cli("run", "--split", "dev", "--host", fake.url, "--think", "off", "--limit", 2)[0] == 0   # off is fine
    fake.tags_capabilities = False   # a server whose /api/tags lists none: /api/show says them
    fake.chat_bodies.clear()
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--think", "on", "--limit", 2, "--retries", 0)
    assert code == 2 and "--think on: qwen2.5:7b does not think on" in err and fake.chat_bodies == []
    fake.show_capabilities = False   # an older server says them nowhere: the first case's 400 says it instead
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--think", "on", "--limit", 2, "--retries", 0)
    assert code == 2 and 'HTTP 400: "qwen2.5:7b" does not support thinking' in out + err


def test_a_misspelt_model_is_offered_the_one_meant_before_pulling_the_typo(project, cli, fake):
    """135th round: --model qwen2.5:7 (the server has qwen2.5:7b) and --judge-model lama3.1:8b were told "Run `ollama pull
    qwen2.5:7`, or pick one it has: ...", the typo's pull first, where every other typo in eval.py is "did you mean X?"."""
    fake.models = ["llama3.1:8b", "qwen2.5:7b", "qwen3:8b"]
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--model", "qwen2.5:7")
    assert code == 2 and err == (f"error: model 'qwen2.5:7' is not pulled on {fake.url}; did you mean qwen2.5:7b?\n"
                                 "If 'qwen2.5:7' is the name you meant, run `ollama pull qwen2.5:7`; or pick one it has: llama3.1:8b, "
                                 "qwen2.5:7b, qwen3:8b.\n"), err
    for typed, meant in (("lama3.1:8b", "llama3.1:8b"), ("llama3.1:8", "llama3.1:8b")):   # (support's checks: a judge's)
        code, out, err = cli("run", "--split", "golden/support/dev.jsonl", "--judge-model", typed, "--host", fake.url)
        assert code == 2 and f"model '{typed}' is not pulled on {fake.url}; did you mean {meant}?\n" in err, err
        assert not err.split("did you mean")[0].count("ollama pull"), err
    # nothing close: the pull leads, as before
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--model", "mistral:7b")
    assert code == 2 and "did you mean" not in err and "Run `ollama pull mistral:7b`, or pick one it has" in err, err
    assert fake.chat_bodies == []


def test_a_model_named_with_ollamas_default_registry_and_namespace_is_the_one_listed(project, cli, fake):
    """135th round's hostile servers: --model library/qwen2.5:7b or registry.ollama.ai/library/qwen2.5:7b, where
    /api/tags lists qwen2.5:7b (server/routes.go ListHandler: n.DisplayShortest(), as the fake's shortest()), was
    refused "not pulled, run `ollama pull library/qwen2.5:7b`", a pull after which the list says qwen2.5:7b still. The
    name is matched as Ollama matches it, as the model that answered was already (ollama_same_name); another
    namespace is another model."""
    for model in ("library/qwen2.5:7b", "registry.ollama.ai/library/qwen2.5:7b", "Library/qwen2.5"):
        fake.models = ["qwen2.5:7b", "qwen2.5:latest"]
        code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--model", model, "--limit", 2, "--out", "runs/")
        assert code == 0 and "not pulled" not in err, (model, err)
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--model", "myorg/qwen2.5:7b", "--limit", 2)
    assert code == 2 and "model 'myorg/qwen2.5:7b' is not pulled on" in err, err


@pytest.mark.parametrize("model, listed", [("library/foo/bar", "foo/bar:latest"),
                                           ("registry.ollama.ai/qwen2.5:7b", "qwen2.5:7b")])
def test_a_default_registry_or_namespace_ollama_reads_otherwise_is_another_model(project, cli, fake, model, listed):
    """135th round's review, F3: tagged() took "library/" and "registry.ollama.ai/" off any name, where Ollama's
    ParseNameBare (types/model/name.go) reads library/foo/bar as the host library and registry.ollama.ai/qwen2.5:7b as
    the namespace registry.ollama.ai: the preflight passed, and the load said the model "is listed on HOST but cannot
    be loaded", to pull a name no registry holds. The default host goes only before a namespace, library only from
    namespace/model, as Ollama's DisplayShortest leaves them out."""
    fake.models = [listed]
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--model", model, "--limit", 2)
    assert code == 2 and f"model '{model}' is not pulled on" in err and "cannot be loaded" not in err, err
    assert fake.chat_bodies == [] and fake.loads == []
    assert not evalpy.ollama_same_name(listed, model)
    assert evalpy.ollama_same_name("myorg/x", "registry.ollama.ai/myorg/x:latest")
    assert evalpy.ollama_same_name("x:7b", "REGISTRY.OLLAMA.AI/Library/x:7b")


def test_a_listed_model_that_cannot_be_loaded_stops_before_the_cases(project, cli, fake):
    """Issue 27, item 11: a model /api/tags lists whose files are gone answers the load with 404
    'model "x" not found, try pulling it first' (server/routes.go handleScheduleError, os.ErrNotExist);
    every case was then asked and failed. The load says it first: exit 2, no case asked, no run file."""
    fake.gone.add("qwen2.5:7b")
    code, out, err = cli("run", "--split", "dev", "--host", fake.url)
    assert code == 2 and "qwen2.5:7b is listed on" in err and "but cannot be loaded" in err
    assert "ollama pull qwen2.5:7b" in err and fake.chat_bodies == [] and not os.path.exists("runs/dev-v3.json")
    assert not os.path.exists("runs/dev-v3.json.journal")


@pytest.mark.parametrize("truncation", ["half", "window-1"])
def test_a_prompt_cut_as_current_ollama_cuts_it_is_flagged(project, cli, fake, truncation):
    """Issue 27, item 1: eval.py flagged a prompt only when its count reached num_ctx. Current Ollama
    cuts a prompt past num_ctx - 1 tokens to about half the window (llm/llama_server.go,
    contextShiftPromptLimit: with num_ctx=200, 102 or 103 tokens), and some versions to num_ctx - 1:
    the long tickets arrived cut with no flag. Each is flagged by id, the short ones are not."""
    fake.truncation = truncation
    fake.answers = answer_key("golden/dev.jsonl")
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--option", "num_ctx=40")
    assert code == 0, err
    run = load_json("runs/dev-v3.json")
    cut_to = {40 - (40 - 5) // 2} if truncation == "half" else {39}
    cut = [r["id"] for r in run["results"] if r["prompt_tokens"] in cut_to]
    assert cut and len(cut) < 28 and all(r["prompt_tokens"] < 40 for r in run["results"])
    s = json.loads(cli("report", "runs/dev-v3.json", "--json")[1])
    assert [x["id"] for x in s["input_may_be_cut"]] == [r["id"] for r in run["results"]
                                                         if r["prompt_tokens"] in cut_to | {39, 40}]
    assert set(cut) <= {x["id"] for x in s["input_may_be_cut"]}
    assert "Input may have been cut to fit num_ctx=40" in out


def test_a_prompt_cut_with_the_runs_num_keep_is_flagged(project, cli, fake):
    """contextShiftPromptLimit (llm/llama_server.go) keeps the request's num_keep (+1 for BOS), not
    always 4: with --option num_keep=20 --option num_ctx=40 a long prompt is cut to 40 - (40 - 21) // 2
    = 31 tokens, a size the flag (num_keep 4: 22 or 23) never looked for. Every cut one is flagged."""
    fake.truncation = "half"
    fake.answers = answer_key("golden/dev.jsonl")
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--option", "num_ctx=40",
                         "--option", "num_keep=20")
    assert code == 0, err
    run = load_json("runs/dev-v3.json")
    cut = [r["id"] for r in run["results"] if r["prompt_tokens"] == 31]
    assert cut and len(cut) < 28
    s = json.loads(cli("report", "runs/dev-v3.json", "--json")[1])
    assert set(cut) <= {x["id"] for x in s["input_may_be_cut"]}
    assert "Input may have been cut to fit num_ctx=40" in out


def conversation_split(order_chars=830):
    """Four short conversations, one long one whose first turn (the order number) does not fit
    num_ctx=200, one long one that fits, and a long single prompt."""
    Path("conv").mkdir()
    Path("conv/checks.json").write_text(json.dumps([{"name": "order", "type": "contains", "value": "B-12"}]))
    def case(i, turns):
        return json.dumps({"id": i, "messages": [{"role": r, "content": t} for r, t in turns],
                           "difficulty": "easy", "note": "n"}) + "\n"
    order = ("Mi pedido es el B-12 y llegó roto. " + "Les cuento todo lo que pasó con la caja. " * 20)[:order_chars]
    Path("conv/dev.jsonl").write_text(
        "".join(case(f"short-{i}", [("user", f"Hola, ¿dónde está mi pedido número {i}? Lo pedí hace una semana y el "
                                              "seguimiento no dice nada. ¿Me pueden ayudar?")]) for i in range(4))
        + case("dropped", [("user", order), ("assistant", "Lo siento mucho. ¿Qué necesita?"),
                           ("user", "¿Cuándo me lo cambian?")])
        + case("fits", [("user", order[:480]), ("assistant", "Lo siento mucho. ¿Qué necesita?"),
                        ("user", "¿Cuándo me lo cambian?")])
        + case("long", [("user", order)]))
    Path("prompts/conv").mkdir()
    Path("prompts/conv/v1.txt").write_text("Atiende al cliente.\n")
    return ("run", "--split", "conv/dev.jsonl", "--prompt", "prompts/conv/v1.txt", "--option", "num_ctx=200",
            "--out", "runs/conv.json")


def test_a_conversation_that_does_not_fit_is_refused_not_shortened(project, cli, fake):
    """Issue 27, item 1: to fit a conversation in the window Ollama drops whole turns from the front,
    keeping the system prompt and the last turn (server/prompt.go chatPrompt), with no error: the
    turn holding the order number was gone, and no count can show it, for the rest then fits (the
    attack on a character estimate found it both missed drops and flagged prompts that fit). Since
    v0.12.6 a request can say "truncate": false (api/types.go ChatRequest): eval.py does so for
    conversations, and Ollama refuses the one that does not fit; the case is an error that says why
    and what to do, never an answer to half a conversation. Single prompts are sent as before."""
    argv = conversation_split()
    code, out, err = cli(*argv, "--host", fake.url)
    assert code == 2, err   # a case in error: the run says so
    # (34th round) the end of the run named only run --resume, which fails alike (it keeps the run's num_ctx)
    assert ("1 case got no usable answer from the server; it is recorded as an error, not scored.\n1 of them did not "
            "fit num_ctx, and would not fit again: run again with a larger --option num_ctx=N (a new run: --resume keeps "
            "this run's options)\n") in err and "--resume runs/conv.json" not in err, err
    results = {r["id"]: r for r in load_json("runs/conv.json")["results"]}
    assert results["dropped"]["response"] is None
    assert "the input length exceeds the context length: the conversation does not fit num_ctx; raise it " \
           "(--option num_ctx=N)" in results["dropped"]["error"] and results["dropped"]["attempts"] == 1
    assert results["fits"]["error"] is None and results["long"]["prompt_tokens"] == 200   # cut, and flagged
    assert [b.get("truncate", "unsent") for b in fake.chat_bodies] == [
        False if len(b["messages"]) > 2 else "unsent" for b in fake.chat_bodies] and len(fake.chat_bodies) == 7
    s = json.loads(cli("report", "runs/conv.json", "--json")[1])
    assert [x["id"] for x in s["input_may_be_cut"]] == ["long"] and s["turns_may_be_dropped"] == []
    assert "dropped: HTTP 400: the input length exceeds the context length" in cli("report", "runs/conv.json")[1]


@pytest.mark.parametrize("api", ["ollama", "openai"])
def test_ollamas_other_words_for_a_prompt_past_the_window_are_read_as_such(project, cli, fake, api):
    """Round 103 (audit of the fake against Ollama's source): where context shift is off (deepseek2's default, or
    "shift": false) Ollama refuses a long prompt in other words, "the prompt is longer than the context length
    currently available to the model; ..." (llm/llama_server.go). Not read as the window, the run told to --resume,
    which fails alike."""
    fake.answers = answer_key("golden/dev.jsonl")
    first = json.loads(Path("golden/dev.jsonl").read_text().splitlines()[0])["input"]
    fake.faults_for = {first: ["no_context_shift"] * 3}
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--limit", 2,
                         *(["--api", "openai"] if api == "openai" else []), "--out", "runs/w.json")
    result = load_json("runs/w.json")["results"][0]
    said = evalpy.WINDOW_TOO_SMALL if api == "ollama" else evalpy.WINDOW_TOO_SMALL_V1
    assert code == 2 and said in result["error"] and result["attempts"] == 1, (result, err)
    assert ("1 of them did not fit num_ctx, and would not fit again" if api == "ollama"
            else "1 of them did not fit the server's context window") in err, err
    if api == "openai":   # Ollama's own words: Ollama's settings, not llama.cpp's and vLLM's
        assert "Ollama's is set on the server (OLLAMA_CONTEXT_LENGTH)" in result["error"], result["error"]


def test_ollamas_v1_in_native_chat_mode_is_told_ollamas_window_settings(project, cli, fake):
    """139th round (audit of the fake against Ollama's source): in its native chat mode Ollama sends llama-server's own
    words for a prompt past the window ("the request exceeds the available context size"), over /v1 too: eval.py, which
    knew the server was Ollama, gave llama.cpp's, llama-cpp-python's and vLLM's flags as the cure. Another /v1 server's
    same words still get those."""
    first = json.loads(Path("golden/dev.jsonl").read_text().splitlines()[0])["input"]
    for ollama in (True, False):
        fake.native_api, fake.faults_for = ollama, {first: ["native_window"] * 3}
        code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--limit", 1, "--api", "openai", "--out", "runs/w.json")
        error = load_json("runs/w.json")["results"][0]["error"]
        assert code == 2 and evalpy.WINDOW_TOO_SMALL_V1 in error, (error, err)
        assert ("Ollama's is set on the server (OLLAMA_CONTEXT_LENGTH)" in error) is ollama, error
        assert ("llama.cpp's --ctx-size" in error) is not ollama, error
        os.remove("runs/w.json")


def test_vllms_words_for_a_cap_past_the_window_say_to_ask_for_fewer_tokens(project, cli, fake):
    """Round 122: vLLM now says "'max_tokens' or 'max_completion_tokens' is too large: 8000. This model's maximum context
    length is 4096 tokens and your request has 2778 input tokens": the messages fit, and fewer tokens asked would; only
    the older words ("(N in the messages, ...)") got that said."""
    fake.faults = ["vllm_max_tokens"]
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--limit", "1", "--retries", "0",
                         "--option", "max_tokens=8000", "--out", "runs/v.json")
    error = load_json("runs/v.json")["results"][0]["error"]
    assert code == 2 and error.endswith("vLLM's --max-model-len), or ask for fewer tokens (max_tokens)"), error


def test_a_conversation_past_a_v1_servers_window_is_said_never_to_fit_again(project, cli, fake):
    """74th attack (a real llama-cpp-python server): an agent's conversation past its 2048-token window got a 400
    ("This model's maximum context length is 2048 tokens..."), and the run said to ask it again with --resume, which
    fails alike: it is said not to fit the server's window, and how to give it a larger one."""
    argv = conversation_split()
    fake.openai_context = 150
    code, out, err = cli(*[a for a in argv if a not in ("--option", "num_ctx=200")], "--api", "openai", "--host", fake.url)
    results = {r["id"]: r for r in load_json("runs/conv.json")["results"]}
    assert code == 2 and results["dropped"]["error"].startswith("HTTP 400: This model's maximum context length is 150 "
                                                                 "tokens."), results["dropped"]
    # (75th) llama-cpp-python refuses only messages past its window: fewer tokens asked would not help, and is not said
    assert results["dropped"]["error"].endswith(": the conversation does not fit the server's context window; a larger "
                                                "window is the server's own setting (llama.cpp's --ctx-size, llama-cpp-python's --n_ctx, vLLM's "
                                                "--max-model-len)")
    # (75th) restarted with a larger window, the server fits them: --resume asks them alike
    assert "2 of them did not fit the server's context window: ask them again below once it holds a larger one " \
           "(llama.cpp's --ctx-size, llama-cpp-python's --n_ctx, vLLM's --max-model-len, Ollama's OLLAMA_CONTEXT_LENGTH). " \
           "Ask them again with: python eval.py run --resume runs/conv.json" in err, err


def test_a_prompt_of_exactly_a_v1_servers_window_is_refused_as_llama_cpp_python_refuses_it(project, cli, fake):
    """136th round: llama-cpp-python refuses a prompt of n_ctx tokens already (llama_cpp/llama.py:1344,
    len(prompt_tokens) >= self._n_ctx: no room for a token of answer); the fake answered it, so a test at the boundary
    passed where the real server gives the 400. At n_ctx the run is told the window; one token more, it is answered."""
    argv = ("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--limit", "1", "--retries", "0")
    assert cli(*argv, "--out", "runs/w0.json")[0] == 0
    fake.openai_context = fake.prompt_count(fake.chat_bodies[-1]["messages"])
    code, out, err = cli(*argv, "--out", "runs/w1.json")
    error = load_json("runs/w1.json")["results"][0]["error"]
    assert code == 2 and f"maximum context length is {fake.openai_context} tokens" in error, error
    assert evalpy.WINDOW_TOO_SMALL_V1 in error and not evalpy.refused_as_sent(error), error
    fake.openai_context += 1
    code, out, err = cli(*argv, "--out", "runs/w2.json")
    (r,) = load_json("runs/w2.json")["results"]
    assert code == 0 and r["error"] is None and r["completion_tokens"] == 1, (r, err)   # the one token of room


def test_a_conversation_an_older_ollama_shortened_is_flagged(project, cli, fake):
    """Before v0.12.6 Ollama ignores "truncate" and drops the turns unasked: then only an estimate
    can tell, from the conversation's characters at the run's tokens per character, and the report
    says the turns may have been dropped; a long conversation that fits and the short ones are not
    flagged; the long single prompt is the other flag, from its exact count."""
    fake.version, fake.honours_truncate = "0.12.5", False
    code, out, err = cli(*conversation_split(), "--host", fake.url)
    assert code == 0, err
    counts = {r["id"]: r["prompt_tokens"] for r in load_json("runs/conv.json")["results"]}
    assert counts["dropped"] < 50 < counts["fits"] < 200 == counts["long"]   # the fake dropped the first turn
    s = json.loads(cli("report", "runs/conv.json", "--json")[1])
    assert [x["id"] for x in s["turns_may_be_dropped"]] == ["dropped"]
    assert [x["id"] for x in s["input_may_be_cut"]] == ["long"]
    assert "Earlier turns may have been dropped to fit num_ctx=200: 1 (dropped): " in out
    assert "this Ollama (before v0.12.6) drops whole turns" in out
    assert "| Earlier turns may have been dropped to fit num_ctx=200 | 1 |" in cli("report", "runs/conv.json", "--markdown")[1]
    items = {i["id"]: i for i in evalpy.review_items(load_json("runs/conv.json"))}
    assert items["dropped"]["stopped"] == ["earlier turns may have been dropped to fit num_ctx=200"]
    assert items["fits"]["stopped"] == [] and items["long"]["stopped"] == ["input may have been cut to fit num_ctx=200"]


def test_a_build_from_source_is_not_told_it_is_before_v0_12_6(project, cli, fake):
    """129th round: a build from source says "0.0.0" (version/version.go) whatever its age, and a version unread says
    nothing, yet the flag told them "this Ollama (before v0.12.6) drops whole turns": its version is said unknown, and
    that v0.12.6 and later refuse such a conversation instead (as refuse_think_max reads 0.0.0)."""
    fake.version, fake.honours_truncate = "0.0.0", False
    code, out, err = cli(*conversation_split(), "--host", fake.url)
    assert code == 0, err
    assert "Earlier turns may have been dropped to fit num_ctx=200: 1 (dropped): " in out, out
    assert "before v0.12.6)" not in out and ("an Ollama before v0.12.6 drops whole turns from the front, keeping the "
                                             "system prompt and the last turn, without an error (this one's version, "
                                             "0.0.0, does not say which it is: a build from source says 0.0.0 whatever "
                                             "its age; v0.12.6 and later refuse such a conversation instead)") in out, out
    assert evalpy.turns_dropper(None).startswith("an Ollama before v0.12.6") and "version, unread," in \
        evalpy.turns_dropper(None) and evalpy.turns_dropper("0.11.0").startswith("this Ollama (before v0.12.6) drops")


def test_the_tokens_per_character_are_read_from_answers_of_one_turn(project):
    """127th round: the run's tokens per character was the median over every answer, conversations included, so where
    most conversations were shortened (40 tokens for 40,000 characters) their own rate was the normal one, and none was
    flagged. Read from answers of one turn where there are some."""
    def case(chars, tokens, turns):
        return {"trials": [{"sent_chars": chars, "prompt_tokens": tokens, "timing": [None] * 8, "turns": turns}]}
    cases = [case(200, 60, 1), case(240, 70, 1)] + [case(40_000, 40, 3)] * 3   # (10 tokens of each its template's)
    assert evalpy.tokens_per_char(cases, 4096) == pytest.approx(0.25)
    assert evalpy.tokens_per_char([case(40_000, 40, 3)] * 3, 4096) == pytest.approx(0.0005)   # (none of one turn: the largest)
    # (its review) nor an agent's: its count is its last turn's, its tools and calls in it (400 tokens for 200 sent)
    agent = case(200, 400, 1)
    agent["trials"][0]["agent"] = {}
    assert evalpy.tokens_per_char([case(3000, 925, 4)] * 8 + [agent] * 3, 4096) == pytest.approx(0.3)
    # (128th round's third attack) a short question of one turn (110 characters) still gives its rate: left out with the
    # greeting chats, no rate was read, and chats an older Ollama shortened went unflagged, unsaid
    assert evalpy.tokens_per_char([case(110, 32, 1)] * 3 + [case(2230, 253, 61)] * 4, 256) == pytest.approx(22 / 110)


def test_a_set_of_conversations_only_most_shortened_is_flagged(project, cli, fake):
    """128th round: with no answer of one turn the tokens per character fell back to every conversation's, and where
    most were shortened their own tiny rate (22 tokens for 903 characters) was the median: none was flagged. Read from
    the conversations whose characters could not have overflowed the window (at most a token a character). (Its sizes
    grew in the second attack, num_ctx 200 -> 400: a conversation must be big enough to carry a rate; and in the 129th,
    1,800 -> 2,400 characters: with its template's tokens counted apart, the fake's flat 10 read 1,800 as fitting.)"""
    fake.version, fake.honours_truncate = "0.12.5", False
    Path("conv").mkdir()
    Path("conv/checks.json").write_text(json.dumps([{"name": "order", "type": "contains", "value": "B-12"}]))
    order = ("Mi pedido es el B-12 y llegó roto. " + "Les cuento todo lo que pasó con la caja. " * 60)[:2400]
    def case(i, first):
        return json.dumps({"id": i, "messages": [{"role": "user", "content": first},
                                                 {"role": "assistant", "content": "Lo siento mucho. ¿Qué necesita?"},
                                                 {"role": "user", "content": "¿Cuándo me lo cambian?"}],
                           "difficulty": "easy", "note": "n"}) + "\n"
    Path("conv/dev.jsonl").write_text("".join(case(f"long-{i}", f"{i} {order}") for i in range(4))
                                      + "".join(case(f"short-{i}", f"Hola, ¿dónde está mi pedido {i}? Lo pedí hace una "
                                                     "semana, el seguimiento no dice nada desde el lunes y nadie me "
                                                     "contesta los correos. ¿Me pueden ayudar, por favor? Muchas gracias.")
                                                for i in range(2)))
    Path("prompts/conv").mkdir()
    Path("prompts/conv/v1.txt").write_text("Atiende al cliente.\n")
    code, out, err = cli("run", "--split", "conv/dev.jsonl", "--prompt", "prompts/conv/v1.txt", "--option", "num_ctx=400",
                         "--host", fake.url, "--out", "runs/conv.json")
    assert code == 0, err
    s = json.loads(cli("report", "runs/conv.json", "--json")[1])
    assert [x["id"] for x in s["turns_may_be_dropped"]] == [f"long-{i}" for i in range(4)], s["turns_may_be_dropped"]
    # none short enough either: the largest rate, for a shortened conversation's is below its own
    def talk(tokens):
        return {"trials": [{"sent_chars": 8000, "prompt_tokens": tokens, "timing": [None] * 8, "turns": 3}]}
    assert evalpy.tokens_per_char([talk(40)] * 3 + [talk(2020)], 4096) == pytest.approx(0.25)


def test_greeting_chats_too_small_to_carry_a_rate_flag_no_conversation_that_fit(project, cli, fake):
    """128th round (second attack): with conversations only, three greeting chats ("hola", "¿sí?", "ok") set the tokens
    per character, 12 tokens for 32 characters, most of them the template's; long chats that fit (1,619 tokens of
    2,048) were then read as 2,400 and flagged "Earlier turns may have been dropped". A conversation too small to carry
    a rate is left out of it."""
    fake.version, fake.honours_truncate = "0.12.5", False
    turn = "Mi pedido A-1 no ha llegado y el seguimiento no se actualiza desde hace días, ¿qué puedo hacer? "
    def case(i, first, last):
        return json.dumps({"id": i, "messages": [{"role": "user", "content": first},
                                                 {"role": "assistant", "content": "Lo miro."},
                                                 {"role": "user", "content": last}],
                           "difficulty": "easy", "note": "n", "checks": [{"type": "regex", "value": "."}]},
                          ensure_ascii=False) + "\n"
    Path("shop").mkdir()
    Path("shop/dev.jsonl").write_text("".join(case(f"hi-{i}", "hola", f"ok {i}") for i in range(3))
                                      + "".join(case(f"long-{i}", turn * 20, turn * 45 + str(i)) for i in range(3)))
    Path("prompts/shop").mkdir()
    Path("prompts/shop/v1.txt").write_text("Atiende al cliente.\n")
    code, out, err = cli("run", "--split", "shop/dev.jsonl", "--prompt", "prompts/shop/v1.txt", "--option",
                         "num_ctx=2048", "--host", fake.url, "--out", "runs/a.json")
    counts = {r["id"]: r["prompt_tokens"] for r in load_json("runs/a.json")["results"]}
    assert code == 0 and 1500 < counts["long-0"] < 2048, (counts, err)   # (all three turns: none dropped)
    assert "Earlier turns may have been dropped" not in out, out
    assert json.loads(cli("report", "runs/a.json", "--json")[1])["turns_may_be_dropped"] == []
    # (129th round) nor is anything else here big enough to carry a rate: the long ones are said not to be checked
    assert "Earlier turns not checked against num_ctx=2048: 3 (long-0, long-1, long-2)" in out, out


def test_an_agent_whose_question_an_older_ollama_dropped_is_flagged(project, cli, fake):
    """128th round: an agent's first turn fit num_ctx=512, but with a tool's long result its second did not, and Ollama
    0.12.5 dropped the question (per_turn prompt tokens [262, 312]): never flagged, for its size counted one turn and
    left out its calls and their results. Its last request is counted whole. (Its second attack: a turn counted below
    an earlier one is no sign of it, a prompt cache may count only what it had not seen; with no rate, none is flagged.
    In the 129th, counted as a chat template does, each message's tokens apart: the fake's flat 10 read it as fitting;
    and in its second attack a template's tokens a request (REQUEST_TOKENS) may be what set its short questions' rate:
    "grew", which lost under half its tokens, may have fit at the lowest rate, and is said not to have been checked.)"""
    fake.version, fake.honours_truncate, fake.prompt_count = "0.12.5", False, templated_count
    tool = {"type": "function", "function": {"name": "lookup_order", "description": "Find an order",
                                             "parameters": {"type": "object", "properties": {"order_id": {"type": "string"}}}}}
    def agent(i, question, result):
        fake.agents[question] = [[("lookup_order", {"order_id": "A-1"})], "Está enviado."]
        return {"id": i, "input": question, "difficulty": "easy", "note": "n", "tools": [tool],
                "tool_results": {"lookup_order": [{"arguments": {"order_id": "A-1"}, "result": result}]},
                "checks": [{"type": "tool_called", "value": "lookup_order"}]}
    cases = [{"id": f"short-{i}", "input": f"¿Dónde está mi pedido A-{i}? Lo pedí hace una semana y el seguimiento no "
              "dice nada. ¿Me pueden ayudar, por favor?", "difficulty": "easy", "note": "n",
              "checks": [{"type": "regex", "value": "."}]} for i in range(3)]
    cases += [agent("grew", "¿Dónde está mi pedido A-1? " * 37, "enviado desde el almacén central; " * 36),
              agent("shrank", "¿Dónde está mi pedido A-1? " * 60, "enviado desde el almacén; " * 24)]
    Path("shop").mkdir()
    Path("shop/dev.jsonl").write_text("".join(json.dumps(c, ensure_ascii=False) + "\n" for c in cases))
    Path("prompts/shop").mkdir()
    Path("prompts/shop/v1.txt").write_text("Atiende al cliente.\n")
    argv = ("run", "--split", "shop/dev.jsonl", "--prompt", "prompts/shop/v1.txt", "--option", "num_ctx=512",
            "--host", fake.url)
    code, out, err = cli(*argv, "--out", "runs/a.json")
    turns = {r["id"]: [t["prompt_tokens"] for t in r["per_turn"]] for r in load_json("runs/a.json")["results"]
             if r.get("per_turn")}
    assert code == 0 and turns["grew"][0] < turns["grew"][1] and turns["shrank"][1] < turns["shrank"][0], (turns, err)
    s = json.loads(cli("report", "runs/a.json", "--json")[1])
    assert [x["id"] for x in s["turns_may_be_dropped"]] == ["shrank"], s["turns_may_be_dropped"]
    assert [(x["id"], x["why"]) for x in s["turns_unchecked"]] == [("grew", "rate range")], s["turns_unchecked"]
    # the agents alone: no answer of one turn to read a rate from, and the count that fell is no sign; (129th round)
    # nothing was said, as if they had been checked: they are said not to have been, and why
    cli(*argv, "--cases", "grew,shrank", "--out", "runs/b.json")
    code, out, err = cli("report", "runs/b.json")
    s = json.loads(cli("report", "runs/b.json", "--json")[1])
    assert s["turns_may_be_dropped"] == [], s["turns_may_be_dropped"]
    assert [(x["id"], x["why"]) for x in s["turns_unchecked"]] == [("grew", "no rate: agents"), ("shrank", "no rate: agents")]
    assert ("Earlier turns not checked against num_ctx=512: 2 (grew, shrank): this Ollama (before v0.12.6) drops whole "
            "turns from the front, keeping the system prompt and the last turn, without an error, and only an estimate from the run's tokens per character could tell; "
            "no answer of one turn and no conversation here gives that rate (an agent's count holds its tools' "
            "definitions); a few cases of one turn without tools in the set would give it; ") in out, out


def test_a_system_prompt_filled_with_passages_flags_no_conversation_that_fit(project, cli, fake):
    """128th round: with {{context}} passages (or long {{vars}}) filling the system prompt, conversations that fit were
    flagged "may have been dropped": the prompt's characters were counted as written, so an answer of one turn read
    about 5 tokens a character (270 tokens for 56). The system prompt is counted as filled."""
    fake.version, fake.honours_truncate = "0.12.5", False
    fake.prompt_count = lambda messages: 10 + sum(len(str(m.get("content") or "")) // 4 for m in messages)   # its system too
    Path("rag").mkdir()
    passage = [{"id": "p0", "text": "Las devoluciones son gratis en pedidos de más de 50 EUR. " * 18}]
    def case(i, turns):
        return json.dumps({"id": i, "messages": [{"role": r, "content": t} for r, t in turns], "context": passage,
                           "vars": {"tienda": "Tienda Sur"}, "difficulty": "easy", "note": "n",
                           "checks": [{"type": "regex", "value": "."}]}, ensure_ascii=False) + "\n"
    Path("rag/dev.jsonl").write_text(
        "".join(case(f"one-{i}", [("user", f"¿Es gratis devolver el pedido {i}?")]) for i in range(3))
        + "".join(case(f"talk-{i}", [("user", "Quiero devolver un pedido de 60 EUR, llegó roto. " * 6),
                                     ("assistant", "Lo siento. ¿Cuándo lo recibió?"), ("user", f"Hace {i + 3} días.")])
                  for i in range(2)))
    Path("prompts/rag/passages.txt").write_text("Eres {{tienda}}. Responde con los pasajes:\n{{context}}\n")
    code, out, err = cli("run", "--split", "rag/dev.jsonl", "--prompt", "prompts/rag/passages.txt", "--option", "num_ctx=1024",
                         "--host", fake.url, "--out", "runs/rag.json")
    counts = {r["id"]: r["prompt_tokens"] for r in load_json("runs/rag.json")["results"]}
    assert code == 0 and counts["talk-0"] > 350, (counts, err)   # (the fake dropped nothing: every turn is counted)
    s = json.loads(cli("report", "runs/rag.json", "--json")[1])
    assert s["turns_may_be_dropped"] == [], s["turns_may_be_dropped"]


def test_an_agent_whose_count_holds_only_uncached_tokens_is_not_flagged(project, cli, fake):
    """128th round (second attack): an agent's last turn counted below its first (per_turn prompt tokens [81, 1]) was
    flagged "Earlier turns may have been dropped", on Ollama 0.12.6 that refuses rather than drops, and with num_ctx
    4096 it never came near: its prompt cache counted only the tokens it had not seen (llama-server does; older
    Ollamas did, ollama/ollama#16428). A count that falls is no sure sign: only the estimate over the window flags."""
    seen, full = [], type(fake).prompt_count
    def uncached(messages):   # the tokens past the longest earlier request this one starts with
        whole = full(messages)
        cached = max((full(s) for s in seen if messages[:len(s)] == s and len(s) < len(messages)),
                     default=0)
        seen.append(list(messages))
        return max(whole - cached, 1)
    fake.prompt_count = uncached
    tool = {"type": "function", "function": {"name": "lookup_order", "description": "Find an order",
                                             "parameters": {"type": "object", "properties": {"order_id": {"type": "string"}}}}}
    question = "¿Dónde está mi pedido A-1? Lo pedí hace dos semanas y necesito saber cuándo llega exactamente. " * 3
    fake.agents[question] = [[("lookup_order", {"order_id": "A-1"})], "Está enviado."]
    cases = [{"id": f"short-{i}", "input": f"¿Dónde está mi pedido A-{i}? Lo pedí hace una semana y el seguimiento no "
              "dice nada. ¿Me pueden ayudar, por favor?", "difficulty": "easy", "note": "n",
              "checks": [{"type": "regex", "value": "."}]} for i in range(3)]
    cases.append({"id": "agent", "input": question, "difficulty": "easy", "note": "n", "tools": [tool],
                  "tool_results": {"lookup_order": [{"arguments": {"order_id": "A-1"}, "result": "enviado"}]},
                  "checks": [{"type": "tool_called", "value": "lookup_order"}]})
    Path("shop").mkdir()
    Path("shop/dev.jsonl").write_text("".join(json.dumps(c, ensure_ascii=False) + "\n" for c in cases))
    Path("prompts/shop").mkdir()
    Path("prompts/shop/v1.txt").write_text("Atiende al cliente.\n")
    for version, honours in (("0.12.6", True), ("0.12.5", False)):   # (an older one drops, but nothing was past the window)
        fake.version, fake.honours_truncate = version, honours
        seen.clear()
        code, out, err = cli("run", "--split", "shop/dev.jsonl", "--prompt", "prompts/shop/v1.txt", "--option",
                             "num_ctx=4096", "--host", fake.url, "--out", f"runs/{version}.json")
        counts = [t["prompt_tokens"] for r in load_json(f"runs/{version}.json")["results"] for t in r.get("per_turn") or ()]
        assert code == 0 and counts[-1] < counts[0], (counts, err)
        assert "Earlier turns" not in out, out
        s = json.loads(cli("report", f"runs/{version}.json", "--json")[1])
        assert s["turns_may_be_dropped"] == [], (version, s["turns_may_be_dropped"])


def templated_count(messages):
    """A count as a real chat template and tokenizer give it (the 129th round's attack server): 3 tokens a request, 5 a
    message for its template (<|im_start|>user ... <|im_end|>), 4 ASCII characters a token, a token for any other
    character (a CJK text's rate), and its tool calls' JSON as text."""
    def tokens(text):
        ascii_chars = sum(ch < "\x80" for ch in text)
        return ascii_chars // 4 + len(text) - ascii_chars
    return 3 + sum(5 + tokens(str(m.get("content") or "")) + sum(tokens(json.dumps(c, ensure_ascii=False))
                                                                  for c in m.get("tool_calls") or ())
                   for m in messages if isinstance(m, dict))


def run_older_ollama(cli, fake, cases, system, num_ctx, name="set", count=templated_count, repeat=1):
    """The run of a set of cases on Ollama 0.12.5 (turns dropped unasked) counting as `count`, each asked `repeat`
    times: its prompt counts by id (the last trial's), its output and its report's JSON."""
    fake.version, fake.honours_truncate, fake.prompt_count = "0.12.5", False, count
    Path(name).mkdir()
    Path(f"{name}/dev.jsonl").write_text("".join(json.dumps({"difficulty": "easy", "note": "n", **c}, ensure_ascii=False)
                                                 + "\n" for c in cases), encoding="utf-8")
    Path(f"prompts/{name}").mkdir()
    Path(f"prompts/{name}/v1.txt").write_text(system, encoding="utf-8")
    code, out, err = cli("run", "--split", f"{name}/dev.jsonl", "--prompt", f"prompts/{name}/v1.txt", "--option",
                         f"num_ctx={num_ctx}", "--host", fake.url, "--out", f"runs/{name}.json", "--repeat", str(repeat))
    assert code == 0, err
    counts = {r["id"]: r["prompt_tokens"] for r in load_json(f"runs/{name}.json")["results"]}
    return counts, out, json.loads(cli("report", f"runs/{name}.json", "--json")[1])


def talk(i, *turns):
    """A conversation case: its turns alternate user and assistant, the last the user's."""
    return {"id": i, "messages": [{"role": r, "content": t} for r, t in zip(["user", "assistant"] * len(turns), turns)],
            "checks": [{"type": "regex", "value": "."}]}


def test_short_questions_whose_count_is_most_template_flag_no_conversation_that_fit(project, cli, fake):
    """129th round: one-turn questions of 6 to 24 characters under a 32-character system prompt counted about 25 tokens
    for 55 characters, most of them the template's own, and that rate read a 10,600-character conversation that fit
    (2,674 tokens of 4,096) as past the window: "Earlier turns may have been dropped". Each message's template tokens are
    counted apart, in the rate and in the estimate."""
    questions = ["My app crashes on login.", "I was charged twice.", "Where is my order?", "Refund please.", "Help!!"]
    log = "2024-05-01 12:00:01 ERROR payment gateway timeout after 30s, retrying request id 4821 ... " * 110
    cases = [{"id": f"q{i}", "input": q, "checks": [{"type": "regex", "value": "."}]} for i, q in enumerate(questions)]
    counts, out, s = run_older_ollama(cli, fake, cases + [talk("conv-long", log, "Let me look.", "So what failed?")],
                                      "Label it: bug, billing or other.\n", 4096)
    assert 2000 < counts["conv-long"] < 4096, counts   # (every turn counted: none dropped)
    assert "Earlier turns" not in out and s["turns_may_be_dropped"] == [], (out, s["turns_may_be_dropped"])


def test_questions_of_one_script_misjudge_no_conversation_of_another(project, cli, fake):
    """129th round: one rate a character for the whole run read a conversation in another script than its questions'
    by theirs: Chinese one-turn questions (about a token a character) flagged an English log of 3,200 characters that
    fit (about 900 tokens of 2,048) as "Earlier turns may have been dropped", and English questions (4 characters a
    token) missed a Chinese conversation of 2,400 characters whose first turns were dropped. A character outside ASCII
    is weighed as several ASCII ones."""
    zh = ["登录时应用总是崩溃，怎么办？", "我被重复扣款了两次，请退款。", "导出报表时出现错误五百。", "页面一直是空白的，刷新也没用。"]
    log = "日志如下：\n" + "ERROR sync worker 7 failed: connection reset by peer (retry 3 of 5)\n" * 47
    counts, out, s = run_older_ollama(cli, fake, [{"id": f"zh-{i}", "input": q, "checks": [{"type": "regex", "value": "."}]}
                                                  for i, q in enumerate(zh)]
                                      + [talk("en-log", log, "收到，我看到了重复的同步失败。", "这是 bug 吗？")],
                                      "请把客户的消息分类为 bug、billing 或 other，只回答标签。\n", 2048, "zh")
    assert 600 < counts["en-log"] < 2048, counts   # (every turn counted: none dropped)
    assert s["turns_may_be_dropped"] == [], s["turns_may_be_dropped"]
    en = ["The export to CSV has been failing for two days with a timeout error.",
          "I was charged twice for the March invoice and need one of them refunded."] * 2
    turn = "夜间同步任务又失败了，这是它这次的完整输出，请帮我看看问题出在哪里。" * 12
    turns = [x for i in range(8) for x in (f"第{i}轮：{turn}", "收到，还有其他输出吗？")] + ["那这是什么标签？"]
    counts, out, s = run_older_ollama(cli, fake, [{"id": f"en-{i}", "input": q, "checks": [{"type": "regex", "value": "."}]}
                                                  for i, q in enumerate(en)] + [talk("zh-talk", *turns)],
                                      "Label the customer's message as bug, billing or other.\n", 2048, "en")
    assert counts["zh-talk"] < 2048 < 8 * len(turn), counts   # (the fake dropped its first turns: (second attack) more
    # than a template's tokens a request, REQUEST_TOKENS, could hide at the lowest rate)
    assert [x["id"] for x in s["turns_may_be_dropped"]] == ["zh-talk"], s["turns_may_be_dropped"]


def test_counts_of_a_prompt_cache_say_the_turns_were_not_checked(project, cli, fake):
    """129th round: a server whose prompt cache counts only the tokens past what it had seen (llama-server does, older
    Ollamas did, ollama/ollama#16428) counted one-turn questions under a long system prompt at about 0.017 tokens a
    character, and no conversation could read past the window at that rate: one whose earlier turns were dropped went
    unflagged, unsaid. A rate under what any tokenizer reads says the counts are not whole prompts: the conversations
    that could have passed the window are said not to have been checked."""
    def uncached(messages):   # the tokens past the system prompt every request shares, which the cache holds
        return templated_count(messages) - templated_count(messages[:1]) + 1
    rules = "".join(f"Rule {i}: when the customer mentions topic {i}, weigh whether a fix to the product or a review of "
                    "a charge is needed, and answer with one label.\n" for i in range(12))
    questions = [{"id": f"q{i}", "input": f"The export to CSV has been failing for {i + 2} days with a timeout error, "
                  "and the report is due tomorrow.", "checks": [{"type": "regex", "value": "."}]} for i in range(4)]
    turn = "The nightly sync failed again; here is its whole log, line by line, as the job wrote it tonight. " * 12
    turns = [x for i in range(8) for x in (f"Part {i}: {turn}", "Got it, anything else?")] + ["So which label is it?"]
    counts, out, s = run_older_ollama(cli, fake, questions + [talk("conv", *turns)], rules, 2048, count=uncached)
    assert counts["q1"] < 40 and counts["conv"] < 2048, counts   # (its first turns dropped)
    assert s["turns_may_be_dropped"] == [], s["turns_may_be_dropped"]
    assert s["turns_unchecked"] == [{"id": "conv", "trial": 1, "why": "partial counts"}], s["turns_unchecked"]
    assert ("Earlier turns not checked against num_ctx=2048: 1 (conv): this Ollama (before v0.12.6) drops whole turns "
            "from the front, keeping the system prompt and the last turn, without an error, and only an estimate from the run's tokens per character could tell; the "
            "counts come to under 0.12 tokens a character, less than any tokenizer reads, so they are not whole "
            "prompts") in out, out


def test_an_agent_whose_short_question_a_long_tool_result_pushed_out_is_not_passed_in_silence(project, cli, fake):
    """129th round: an agent's question of 114 characters, then a lookup_order result of 7,800 (num_ctx 2048): Ollama
    0.11 dropped the question and counted 2,042. Its characters read past the window, but a count within the estimate's
    margin (WINDOW_SHORT) was taken for one that fit, and nothing was said: a turn that small is inside the margin, and
    no count tells it from a conversation that fit. It is said not to have been checked, with why (since the second
    attack, that its short questions' rate may be their template's tokens a request: at the lowest it fits)."""
    tool = {"type": "function", "function": {"name": "lookup_order", "description": "Look an order up",
                                             "parameters": {"type": "object", "properties": {"order_id": {"type": "string"}}}}}
    question = "Hi, where is my order A-1? I ordered it two weeks ago and the tracking page has not changed since then."
    history = "".join(f"2026-11-{i % 28 + 1:02d} 10:00 parcel scanned at hub {i}, status in transit, handled by carrier "
                      "desk.\n" for i in range(91))
    fake.agents[question] = [[("lookup_order", {"order_id": "A-1"})], "It is on its way."]
    cases = [{"id": f"plain-{i}", "input": f"Can you tell me when order B-{i} ships? I paid for express delivery.",
              "checks": [{"type": "regex", "value": "."}]} for i in range(4)]
    cases.append({"id": "agent", "input": question, "tools": [tool], "checks": [{"type": "tool_called", "value": "lookup_order"}],
                  "tool_results": {"lookup_order": [{"arguments": {"order_id": "A-1"}, "result": history}]}})
    counts, out, s = run_older_ollama(cli, fake, cases, "You are a shop assistant. Use the tools, then answer briefly.\n",
                                      2048)
    turns = [t["prompt_tokens"] for t in load_json("runs/set.json")["results"][-1]["per_turn"]]
    sent = next(b["messages"] for b in fake.chat_bodies if any(m["role"] == "tool" for m in b["messages"]))
    assert turns[-1] < 2048 < templated_count(sent), turns   # (the question dropped)
    assert s["turns_may_be_dropped"] == [] and [(x["id"], x["why"]) for x in s["turns_unchecked"]] == [
        ("agent", "rate range")], s
    assert "Earlier turns not checked against num_ctx=2048: 1 (agent): " in out, out


def test_an_agent_trial_that_lost_turns_is_flagged_beside_trials_of_its_case_that_took_another_route(project, cli, fake):
    """134th round: with --repeat 3 on Ollama 0.12.5, an agent's first trial called lookup_order twice and its question
    was dropped (counted 814 of num_ctx 1024), as every trial of a case asking the very same was, flagged; its two other
    trials called it once, fit, and counted more: the first was said not checked, "partial count", as a prompt cache's
    count of a prompt another trial counted whole. An agent's count is its last request's, and trials that took other
    routes sent other ones: a trial's count is read beside those of trials that sent the same last request alone."""
    tool = {"type": "function", "function": {"name": "lookup_order", "description": "Look an order up",
                                             "parameters": {"type": "object", "properties": {"order_id": {"type": "string"}}}}}
    results = {"lookup_order": [{"arguments": {"order_id": f"A-{n}"}, "result": f"{n}: " + EN_TURN * 30} for n in (1, 2, 3)]}
    cases = questions_and(EN_QUESTIONS)
    for name in ("same", "other"):
        question = f"Where are my orders A-1 and A-2? Asked for the {name} route. " + EN_TURN * 2
        fake.agents[question] = [[("lookup_order", {"order_id": "A-1"})], [("lookup_order", {"order_id": "A-2"})], "Shipped."]
        cases.append({"id": name, "input": question, "tools": [tool], "tool_results": results,
                      "checks": [{"type": "tool_called", "value": "lookup_order"}]})
    for seed in (43, 44):   # the other case's trials 2 and 3: one call, which fits
        fake.agents[question, seed] = [[("lookup_order", {"order_id": "A-3"})], "Shipped."]
    counts, out, s = run_older_ollama(cli, fake, cases, "You are a shop assistant. Use the tools, then answer briefly.\n",
                                      1024, repeat=3)
    turns = {(r["id"], r["trial"]): [t["prompt_tokens"] for t in r["per_turn"]]
             for r in load_json("runs/set.json")["results"] if r.get("per_turn")}
    assert turns["other", 1] == turns["same", 1] and turns["other", 1][-1] < turns["other", 2][-1] < 1024, turns
    assert [(x["id"], x["trial"]) for x in s["turns_may_be_dropped"]] == [
        ("same", 1), ("same", 2), ("same", 3), ("other", 1)], (s["turns_may_be_dropped"], s["turns_unchecked"])
    assert "Earlier turns may have been dropped to fit num_ctx=1024: 4 (same trial 1, same trial 2, same trial 3, " \
           "other trial 1)" in out, out


def scripted_count(per_request=3, per_message=5, hidden=0, digit=0.25):
    """A count as the 129th round's second attack server gave it: `per_request` tokens a request and `per_message` a
    message for the template, 4 ASCII characters a token (`digit` tokens a digit: a token each in qwen's and llama3's
    tokenizers), 0.35 tokens a Cyrillic or Arabic character, a token a CJK one; with `hidden` messages from the front
    left out, as a prompt cache counts only what it had not seen."""
    def tokens(text):
        return sum(digit if ch.isdigit() else 0.25 if ch < "\x80" else 0.35 if "\u0370" <= ch < "\u0700" else 1
                   for ch in str(text or ""))
    def count(messages):
        messages = [m for m in messages if isinstance(m, dict)]
        return per_request + math.ceil(sum(per_message + tokens(m.get("content")) for m in messages[hidden:]))
    return count


EN_QUESTIONS = ["The export to CSV has been failing for two days with an error 500 whenever I pick a month.",
                "I was charged twice for the March invoice and I would like the second charge refunded please.",
                "The mobile app logs me out every time I switch to another app and back again, on both phones.",
                "The dashboard page stays blank after login in Firefox, though it works fine in Chrome here."]
RU_QUESTIONS = ["Экспорт в CSV уже два дня падает с ошибкой 500, когда я выбираю больше месяца данных, помогите.",
                "С меня дважды списали деньги за мартовский счёт, и я хотел бы вернуть второй платёж на карту.",
                "Мобильное приложение выходит из аккаунта каждый раз, когда я переключаюсь на другое приложение.",
                "Страница панели остаётся пустой после входа в Firefox, хотя в Chrome на том же ноутбуке всё хорошо."]
EN_TURN = "The nightly sync failed again, here is what it printed this time, exactly the same as the last time. "
LABEL_IT = "Label the customer's message as bug, billing or other; answer with the label alone, nothing else.\n"


def questions_and(questions, *conversations):
    """One-turn cases of `questions`, then the conversations, each of `turns` turns of `text` and a last question."""
    return ([{"id": f"q{i}", "input": q, "checks": [{"type": "regex", "value": "."}]} for i, q in enumerate(questions)]
            + [talk(i, *[f"{n}: {text}" for n in range(turns)], "So is this a bug, billing or other?")
               for i, text, turns in conversations])


def test_a_conversation_in_another_script_than_the_questions_is_neither_flagged_nor_passed_unsaid(project, cli, fake):
    """129th round (second attack): every character from U+0250 up weighed as 4 Latin ones, CJK's rate, and Cyrillic or
    Arabic read about 0.35 tokens a character: a Russian conversation that fit (6,300 characters, about 2,100 tokens of
    4,096) under English questions was flagged "Earlier turns may have been dropped"; and Russian questions set a rate
    (0.09 a weighed character) at which an English conversation that lost three turns (19,481 characters, about 4,970
    tokens) read as fitting, and passed unsaid. A script whose rate is not known is read at both ends of its range: a
    conversation is flagged where it cannot have fit at either, and said not to have been checked where it may not."""
    ru_turn = "Ночная синхронизация снова упала, вот что она напечатала в этот раз, точно так же, как и в прошлый раз. "
    counts, out, s = run_older_ollama(cli, fake, questions_and(EN_QUESTIONS, ("ru-fits", ru_turn * 6, 10)), LABEL_IT,
                                      4096, "ru", count=scripted_count())
    assert 1500 < counts["ru-fits"] < 4096 and "Earlier turns may have been dropped" not in out, (counts, out)
    assert s["turns_may_be_dropped"] == [], s["turns_may_be_dropped"]
    counts, out, s = run_older_ollama(cli, fake, questions_and(RU_QUESTIONS, ("en-dropped", EN_TURN * 12, 16)), LABEL_IT,
                                      4096, "en", count=scripted_count())
    assert counts["en-dropped"] < 4096 < scripted_count()([{"content": EN_TURN * 12}] * 16), counts   # (turns dropped)
    assert [x["id"] for x in s["turns_may_be_dropped"] + s["turns_unchecked"]] == ["en-dropped"], s


def test_a_prompt_cache_that_hides_a_short_system_prompt_leaves_no_dropped_turns_unsaid(project, cli, fake):
    """129th round (second attack): a prompt cache that held only the system prompt every request shares counted the
    one-turn questions at about half their rate (0.10 tokens a character, over MIN_TOKENS_A_CHAR's 0.05 then), and a
    conversation that lost three turns read as fitting, unsaid (the same set counted whole was flagged)."""
    counts, out, s = run_older_ollama(cli, fake, questions_and(EN_QUESTIONS, ("en-dropped", EN_TURN * 12, 16)), LABEL_IT,
                                      4096, count=scripted_count(hidden=1))
    assert counts["en-dropped"] < 4096 < scripted_count()([{"content": EN_TURN * 12}] * 16), counts   # (turns dropped)
    assert [x["id"] for x in s["turns_may_be_dropped"] + s["turns_unchecked"]] == ["en-dropped"], s


LOG_LINE = "2024-03-12 14:22:{0:02d}.{0:03d} ERROR [req 8f3a2c{0:02d}] export job 48{0:03d} failed status=500 rows=40211\n"


def log_talk(lines):
    """A support chat pasting `lines` log lines twice (its digits a token each on some tokenizers, qwen's among them)."""
    log = "Here is the log from the last run:\n" + "".join(LOG_LINE.format(i) for i in range(lines))
    return talk(f"log{lines}", log, "Thanks, let me look at that.", log, "Got it.", "So is this a bug, billing or other?")


def test_conversations_denser_than_the_questions_leave_no_dropped_turns_unsaid(project, cli, fake):
    """129th round (third attack): support chats with pasted log lines, on a tokenizer that reads a digit as a token
    (about 0.5 tokens a character, where the English questions read 0.26), lost their first turn at 124% to 148% of
    num_ctx 2048 and passed unsaid: each one's count (1,304 for 4,788 characters) was already above its highest
    estimate, at the questions' rate, and fit. The conversations' own counts (those that fit: 0.5 a character) say the
    questions' rate does not hold for them: at theirs, the dropped ones could pass the window, and are said not to
    have been checked."""
    cases = questions_and(EN_QUESTIONS) + [log_talk(n) for n in (5, 10, 15, 25, 30)]
    count = scripted_count(digit=1)
    counts, out, s = run_older_ollama(cli, fake, cases, LABEL_IT, 2048, count=count)
    whole = {c["id"]: count([{"content": LABEL_IT}] + c.get("messages", [{"content": c.get("input")}])) for c in cases}
    assert [i for i in whole if whole[i] > 2048] == ["log25", "log30"] and counts["log30"] < 2048, (whole, counts)
    assert s["turns_may_be_dropped"] == [] and [(x["id"], x["why"]) for x in s["turns_unchecked"]] == [
        ("log25", "denser conversations"), ("log30", "denser conversations")], s
    assert "Earlier turns not checked against num_ctx=2048" in out, out


def test_a_conversation_of_digits_past_the_window_is_not_passed_unsaid_where_none_fits(project, cli, fake):
    """130th round: a support chat pasting log lines (a digit a token, about 0.5 tokens a character) lost its first
    turn at 171% of num_ctx 2048 and passed unsaid, as did three at 128-171%: shortened, each read about 0.27 a
    character, like the English questions' 0.26, so its estimate fit, and the "denser conversations" check needed one
    such chat that fit to show their rate. Where a conversation holds far more digits than the questions, it is read
    with each digit a token too, and where that passes the window it is said not to have been checked; an English chat
    of a few digits that fits is not."""
    chat = "I am on the Pro plan since 2021, Chrome 120 on Windows 11, and the report of 40,000 rows fails every time. "
    cases = questions_and(EN_QUESTIONS, ("en", chat * 4, 10)) + [log_talk(n) for n in (20, 25, 30)]
    count = scripted_count(digit=1)
    counts, out, s = run_older_ollama(cli, fake, cases, LABEL_IT, 2048, count=count)
    whole = {c["id"]: count([{"content": LABEL_IT}] + c.get("messages", [{"content": c.get("input")}])) for c in cases}
    assert [i for i in whole if whole[i] > 2048] == ["log20", "log25", "log30"], whole
    assert counts["log30"] < 2048 and 1200 < counts["en"] < 2048, counts   # (log30 lost its first turn; en fit whole)
    assert s["turns_may_be_dropped"] == [] and [(x["id"], x["why"]) for x in s["turns_unchecked"]] == [
        ("log20", "denser in digits"), ("log25", "denser in digits"), ("log30", "denser in digits")], s
    line = next(line for line in out.splitlines() if line.startswith("Earlier turns not checked against num_ctx=2048"))
    assert "(log20, log25, log30)" in line and "a token each" in line, line


def table_turn(seed):
    """A turn pasting a table of figures: 12 lines of six 7-digit numbers (575 characters, 504 of them digits)."""
    return "\n".join(" ".join(str(1000000 + (seed * 7919 + i * 104729 + j * 15485863) % 9000000) for j in range(6))
                     for i in range(12))


def test_a_conversation_of_digits_whose_count_rules_a_drop_out_is_not_said_unchecked(project, cli, fake):
    """130th round (second attack): on a tokenizer that reads digits as it reads letters, a support chat pasting a table
    of figures (8 turns of 575 characters, most of them digits) counted 1,225 tokens of num_ctx 4096, nothing dropped,
    and was said not checked, "denser in digits": read a token a digit it passes the window, but then Ollama would have
    kept turns taking some 3,800 tokens, three times its count. A count far below what the turns kept would take rules
    the reading out, and nothing is said."""
    cases = questions_and(EN_QUESTIONS) + [talk("table", *[table_turn(n) for n in range(8)],
                                                "So is this a bug, billing or other?")]
    count = scripted_count()
    counts, out, s = run_older_ollama(cli, fake, cases, LABEL_IT, 4096, count=count)
    assert counts["table"] == count([{"content": LABEL_IT}] + cases[-1]["messages"]) < 4096 * 0.4, counts   # (whole)
    assert scripted_count(digit=1)([{"content": LABEL_IT}] + cases[-1]["messages"]) > 4096   # (a token a digit: past)
    assert s["turns_may_be_dropped"] == s["turns_unchecked"] == [] and "Earlier turns" not in out, (s, out)


def test_a_short_turn_of_digits_dropped_before_long_prose_is_not_passed_unsaid(project, cli, fake):
    """130th round (second attack): a chat that pasted a short log of figures (697 characters, 616 of them digits, a
    token each on qwen's tokenizer), then five long turns of prose, lost its first turn at 117% of num_ctx 2048 and
    passed unsaid: of the whole, 8% are digits, and read a token a digit it came past its estimate by less than texts
    vary, so the reading was not taken. Its digits are in the turn the reading drops: each turn is read a token a digit
    where that turn comes past its estimate by more than texts vary, and it is said not to have been checked."""
    figures = " ".join(str(10000000 + (n * 7919 * 104729) % 90000000) for n in range(77))
    prose = "Thanks, I checked again and the problem is still there, could you please have a look at it for me? " * 13
    cases = questions_and(EN_QUESTIONS) + [talk("digfirst", "Log:\n" + figures, prose, prose, prose, prose, prose[:-100],
                                                "So is this a bug, billing or other?")]
    count = scripted_count(digit=1)
    counts, out, s = run_older_ollama(cli, fake, cases, LABEL_IT, 2048, count=count)
    whole = count([{"content": LABEL_IT}] + cases[-1]["messages"])
    assert counts["digfirst"] == count([{"content": LABEL_IT}] + cases[-1]["messages"][1:]) < 2048 < whole, counts
    assert s["turns_may_be_dropped"] + s["turns_unchecked"] == [
        {"id": "digfirst", "trial": 1, "why": "denser in digits"}], s


def test_a_system_prompt_of_digits_does_not_make_a_prose_chat_that_fit_read_as_shortened(project, cli, fake):
    """130th round (second attack): a system prompt holding a price list (60 lines, about 660 digits, a token each on
    qwen's tokenizer) set the questions' rate at some 0.4 tokens a character, and a chat of prose that fit whole (1,687
    tokens of num_ctx 2048) read far past the window at it: "Earlier turns may have been dropped". Its count is what
    it takes read with each digit a token and the rest at the rate of all but digits: it is said not checked, not
    shortened."""
    prices = "".join(f"SKU {100000 + n * 7919 % 900000} {n * 37 % 999 + 1}.{n * 13 % 100:02d}\n" for n in range(60))
    count = scripted_count(digit=1)
    cases = questions_and(EN_QUESTIONS, ("prose", EN_TURN * 5, 8))
    counts, out, s = run_older_ollama(cli, fake, cases, LABEL_IT + "Price list:\n" + prices, 2048, count=count)
    assert counts["prose"] == count([{"content": LABEL_IT + "Price list:\n" + prices}] + cases[-1]["messages"]), counts
    assert 2048 * 0.7 < counts["prose"] < 2048, counts   # (whole)
    assert s["turns_may_be_dropped"] == [] and s["turns_unchecked"] == [
        {"id": "prose", "trial": 1, "why": "sparser in digits"}], s
    assert "may have been dropped" not in out and "reads each digit as a token" in out, out


NUMBERED_QUESTIONS = [f"Order {48213907 + n * 7919} from {n + 3}/{n + 1}/2024 was charged twice, card ending {4821 + n}, "
                      f"ref {5512093847 + n * 104729}" for n in range(6)]


def test_questions_quoting_numbers_leave_no_dropped_prose_turns_said_to_fit(project, cli, fake):
    """130th round (third attack): on a tokenizer that reads digits as it reads letters, support tickets quoting order
    and card numbers (a third of their characters digits) read at no tokens a character with each digit taken as a
    token, and a prose chat that lost half its turns (160% of num_ctx 2048) read at that rate fit whole: said not
    checked, "sparser in digits ... read so, it fits whole", where it had been flagged. A rate of all but digits under
    what a tokenizer reads a text at says the digit-a-token reading does not hold for the run: it is flagged."""
    count = scripted_count()
    cases = questions_and(NUMBERED_QUESTIONS, ("prose", EN_TURN * 16, 8))
    counts, out, s = run_older_ollama(cli, fake, cases, LABEL_IT, 2048, count=count)
    assert counts["prose"] < 2048 < 1.5 * 2048 < count([{"content": LABEL_IT}] + cases[-1]["messages"]), counts
    assert s["turns_unchecked"] == [] and s["turns_may_be_dropped"] == [
        {"id": "prose", "trial": 1, "prompt_tokens": counts["prose"]}], s
    assert "it fits whole" not in out, out


def test_a_conversation_a_prompt_cache_counted_in_part_is_not_said_to_have_lost_turns(project, cli, fake):
    """130th round (third attack): a prompt cache that had seen all of a prose chat that fit (92% of num_ctx 2048) but
    what it had not counted it at 1 token for 5,405 characters (its third trial of --repeat 3; the first two counted
    1,880), and it was said "Earlier turns may have been dropped". A count under MIN_TOKENS_A_CHAR of its characters,
    with which no turn it could have lost (at a token a character at most) passes the window, is not of a prompt
    whole: it is said not checked, why "partial count", never shortened (as is one that lost turns: its count cannot
    tell). (Its quick review: one whose characters at that least rate pass the window lost turns whatever its count:
    a chat of 234% in short turns, counted 15, was said not checked, "too few for any turn it could have lost to have
    been dropped".)"""
    whole = scripted_count()
    def count(messages):   # (a cache that held all of a conversation but its last turn)
        return scripted_count(hidden=len(messages) - 1)(messages) if len(messages) > 2 else whole(messages)
    cases = questions_and(EN_QUESTIONS, ("fits", EN_TURN * 9 + EN_TURN[:40], 8), ("lost", EN_TURN * 16, 8),
                          ("far", EN_TURN * 2, 96))
    counts, out, s = run_older_ollama(cli, fake, cases, LABEL_IT, 2048, count=count)
    assert whole([{"content": LABEL_IT}] + cases[-3]["messages"]) < 2048 < whole([{"content": LABEL_IT}]
                                                                                 + cases[-2]["messages"]), counts
    far = sum(len(m["content"]) for m in cases[-1]["messages"])
    assert counts["fits"] < 20 and counts["lost"] < 20 and counts["far"] < 20 and evalpy.MIN_TOKENS_A_CHAR * far > 2048
    assert [t["id"] for t in s["turns_may_be_dropped"]] == ["far"] and s["turns_unchecked"] == [
        {"id": "fits", "trial": 1, "why": "partial count"}, {"id": "lost", "trial": 1, "why": "partial count"}], s
    assert "not a whole prompt's" in out, out


def test_two_questions_a_prompt_cache_counted_in_part_leave_the_rate_of_those_counted_whole(project, cli, fake):
    """131st round: a prompt cache that held the system prompt (about 1,000 tokens) for 2 of 8 questions counted them
    at 0.007 tokens a character; the other 6, counted whole, come past half of num_ctx 2048 and give no rate, so those
    2 made the run's (0.004), and every chat was said not checked, "the counts come to under 0.12 tokens a character",
    among them two counted whole that lost turns at 168% and 207% of the window (the round's SYSC set). A question's count under
    MIN_TOKENS_A_CHAR of its characters where another's is whole is read as what the cache had not seen, all but its
    system prompt: the chats that lost turns are flagged, and one the cache counted in part is said not checked."""
    whole = scripted_count()
    def count(messages):   # (the cache held the system prompt for the second and sixth questions and the first chat,
        # counted once turns were dropped till the whole fit)
        cached = messages[-1].get("content") == EN_QUESTIONS[1] or messages[-2].get("content") == "19: " + prose * 3
        return whole(messages) - whole(messages[:1]) + 3 if cached and whole(messages) <= 2048 else whole(messages)
    system = LABEL_IT + "Our product is a team calendar with shared boards, reminders and exports to several formats. " * 44
    prose = "Thanks, I checked again and the problem is still there, could you please have a look at it for me? "
    cases = questions_and(EN_QUESTIONS * 2) + [talk(f"many-{n}", *[f"{i}: " + prose * 3 for i in range(n)],
                                                   "So is this a bug, billing or other?") for n in (20, 30, 40)]
    counts, out, s = run_older_ollama(cli, fake, cases, system, 2048, count=count)
    assert counts["q0"] > 1024 and counts["q1"] < 0.12 * len(system) and counts["many-20"] < 1024, counts
    for c in cases[-2:]:   # (turns dropped, counted whole)
        assert 0.12 * sum(len(m["content"]) for m in c["messages"]) < counts[c["id"]] < 2048 < 1.6 * 2048 < whole(
            [{"content": system}] + c["messages"]), counts
    assert [x["id"] for x in s["turns_may_be_dropped"]] == ["many-30", "many-40"], s["turns_may_be_dropped"]
    assert s["turns_unchecked"] == [{"id": "many-20", "trial": 1, "why": "partial count"}], s["turns_unchecked"]


def prompt_cache(fake, cached):
    """The count of Ollama 0.12.5 with a prompt cache: `cached(messages, whole, seen)` of each prompt it kept, its turns
    dropped till their whole count (scripted_count()) fits, `seen` the prompts it counted before: (whole, count)."""
    whole, seen = scripted_count(), []
    def count(messages):
        counted = cached(messages, whole, seen)
        seen.append(messages)
        return counted
    # (turns dropped as the whole prompt is counted: the cache counts only the prompt kept)
    fake.fitted_turns = lambda messages, window: type(fake).fitted_turns(types.SimpleNamespace(prompt_count=whole),
                                                                         messages, window)
    return whole, count


def counted_1(messages, whole, seen):
    """A cache's count that is 1 for a prompt it had counted before (Ollama's runner evaluates its last token again)."""
    return 1 if messages in seen else whole(messages)


def counted_half(messages, whole, seen):
    """A cache's count that is half of a prompt it had counted before."""
    return whole(messages) // (2 if messages in seen else 1)


# a chat that loses its first turn at num_ctx 2048 (counted 1,201 whole)
LOST_TALK = talk("lost", EN_TURN * 45, "Noted.", EN_TURN * 45, "Noted.", "So is this a bug, billing or other?")


def test_a_chat_that_lost_turns_is_flagged_where_a_prompt_cache_counted_its_later_trials_as_1(project, cli, fake):
    """133rd round: with --repeat 3 on Ollama 0.12.5, whose prompt cache counted a prompt it had seen 1 (its runner
    evaluates the last token again), each question counted 60 on its first trial and 1 on the next two, and that median
    of every one-turn trial (0) made the run's rate: a chat whose first turn was dropped (counted 1,201 of 2,400 on its
    first trial) was said not checked, "the counts come to under 0.12 tokens a character", false of every first trial.
    A question's count a cache held past its system prompt sets no rate where another's is whole: the first trial's
    drop is flagged, the later ones said not checked, "partial count"."""
    whole, count = prompt_cache(fake, counted_1)
    cases = questions_and(EN_QUESTIONS) + [LOST_TALK]
    counts, out, s = run_older_ollama(cli, fake, cases, LABEL_IT, 2048, count=count, repeat=3)
    assert counts["q0"] == counts["lost"] == 1 < 2048 < whole([{"content": LABEL_IT}] + cases[-1]["messages"]), counts
    assert s["turns_may_be_dropped"] == [{"id": "lost", "trial": 1, "prompt_tokens": 1201}], s["turns_may_be_dropped"]
    assert s["turns_unchecked"] == [{"id": "lost", "trial": n, "why": "partial count"} for n in (2, 3)], s
    assert "Earlier turns may have been dropped to fit num_ctx=2048: 1 (lost trial 1)" in out, out


def prefix_cache(whole):
    """A prompt cache's count of a prompt whose tokens `whole` counts: the tokens past the longest prefix of 3 messages
    or more it had seen (at least 1), as a server's cache counts only what it had not seen."""
    seen = []

    def count(messages):
        held = max((whole(messages[:n]) - 3 for n in range(3, len(messages)) for p in seen if p[:n] == messages[:n]),
                   default=0)
        seen.append(list(messages))
        return max(whole(messages) - held, 1)
    return count



def test_a_chat_a_prompt_cache_counted_in_part_is_not_said_shortened_for_one_long_turn(project, cli, fake):
    """131st round: two chats sharing a history of 2 or 3 long user turns (2,600 to 3,900 characters) and differing in
    their last question fit whole (99% of num_ctx 2048); a prompt cache that had seen the first counted the second 16
    tokens, and it was said "Earlier turns may have been dropped". partial_count() read each turn it could have lost at
    a token a character, and a turn of 2,043 characters or more (some 500 tokens) with that count passed the window. A
    turn is read at the most a tokenizer reads a text at (MOST_TOKENS_A_CHAR), each digit a token: the second is said
    not checked, "partial count". A chat whose first turn alone passes the window, its count the rest's, is still
    flagged (each of a pair, counted whole and by the cache)."""
    whole = scripted_count()
    def fitted(messages, window):   # (Ollama fits the whole prompt, whatever its cache counts)
        for i in range(len(messages)):
            kept = [m for m in messages[:i] if m.get("role") == "system"] + messages[i:]
            if whole(kept) <= window or i == len(messages) - 1:
                return kept
        return messages
    count = prefix_cache(whole)
    fake.fitted_turns = fitted
    pairs = {f"{pieces}-turns": [x for _ in range(pieces) for x in ((EN_TURN * 80)[:(7930 - 60) // pieces - 8], "Go on.")]
             for pieces in (2, 3)}
    pairs["lost"] = [EN_TURN * 84, "Go on."]   # (its first turn, some 2,100 tokens, alone past the window)
    cases = questions_and(EN_QUESTIONS) + [talk(f"{name}-{n}", *history, question) for name, history in pairs.items()
                                           for n, question in enumerate(["So is this a bug, billing or other?",
                                                                         "And when will it be fixed, roughly?"])]
    counts, out, s = run_older_ollama(cli, fake, cases, LABEL_IT, 2048, count=count)
    for c in cases[-6:-2]:
        assert 0.95 * 2048 < whole([{"content": LABEL_IT}] + c["messages"]) <= 2048, c["id"]   # (whole)
    assert counts["2-turns-1"] < 20 and counts["3-turns-1"] < 20 and counts["lost-1"] < 100, counts
    assert [x["id"] for x in s["turns_may_be_dropped"]] == ["lost-0", "lost-1"], s["turns_may_be_dropped"]
    assert {x["id"]: x["why"] for x in s["turns_unchecked"] if x["id"].endswith("-1")} == {
        "2-turns-1": "partial count", "3-turns-1": "partial count"}, s["turns_unchecked"]


def test_a_chat_with_a_few_digits_in_every_turn_that_lost_turns_is_not_passed_unsaid(project, cli, fake):
    """130th round (third attack): on a tokenizer that reads a digit as a token, chats with 6% to 10% digits spread
    through every turn lost one or two turns at 113% to 120% of num_ctx 2048 and were in no list: each turn read a token
    a digit came past its estimate by less than texts vary (WINDOW_SHORT), so each was read at its estimate, and the
    whole fit. A turn is read a token a digit wherever that comes to more than its estimate: it is said not checked."""
    prose = "Thanks, I checked again and the problem is still there, could you please have a look at it for me? "
    turn = "".join(prose + str(10000000000 + n * 7919) + " " for n in range(8))   # (10% digits)
    cases = questions_and(EN_QUESTIONS, ("spread", turn, 8))
    count = scripted_count(digit=1)
    counts, out, s = run_older_ollama(cli, fake, cases, LABEL_IT, 2048, count=count)
    whole = count([{"content": LABEL_IT}] + cases[-1]["messages"])
    assert counts["spread"] < 2048 < whole < 1.25 * 2048, (counts, whole)   # (a turn or two dropped)
    assert s["turns_may_be_dropped"] + s["turns_unchecked"] == [
        {"id": "spread", "trial": 1, "why": "denser in digits"}], s


SUPPORT_SENTENCES = ["I tried logging in again this morning and it still shows the same spinning wheel.",
                     "We upgraded to version 4.2 last week and the problem started right after that.",
                     "Could you check whether anything changed on your side around March 3rd?",
                     "The report for Q2 is missing about 15 rows compared with the one from last month.",
                     "I have cleared the cache, restarted twice and even reinstalled the app on my phone.",
                     "It happens mostly in the afternoon, somewhere between 2 and 5 pm our time.",
                     "Our team of 12 people depends on this every day, so it is getting urgent.",
                     "The invoice number is on the attached page, it is the one dated 2024-05-01."]


def test_an_english_chat_quoting_a_few_figures_that_fit_near_the_window_is_not_said_denser_in_digits(project, cli,
                                                                                                    fake):
    """131st round: on a tokenizer that reads digits as it reads letters, ordinary English support chats (about 2%
    digits: "version 4.2", "March 3rd", "2024-05-01") that fit whole at 91% to 100% of num_ctx 2048 were said not
    checked, "denser in digits ... as pasted logs, code or tables do": read a token a digit they pass the window, but
    their counts came to more than all the chat but its first turn would take read so, and Ollama drops from the front:
    no drop could hide there. Nothing is said of them (the chats 6-10% digits that lost turns are still said not
    checked, test_a_chat_with_a_few_digits_in_every_turn_that_lost_turns_is_not_passed_unsaid)."""
    text = " ".join(SUPPORT_SENTENCES * 6)   # (3% digits)
    count = scripted_count()
    cases = questions_and(EN_QUESTIONS, ("fits-4", text[:1850], 4), ("fits-6", text[:1190], 6))
    counts, out, s = run_older_ollama(cli, fake, cases, LABEL_IT, 2048, count=count)
    for c in cases[-2:]:
        assert counts[c["id"]] == count([{"content": LABEL_IT}] + c["messages"]), counts   # (whole)
        assert 0.9 * 2048 < counts[c["id"]] < 2048, counts
    assert s["turns_may_be_dropped"] == s["turns_unchecked"] == [] and "Earlier turns" not in out, (s, out)


def test_a_chat_pasting_codes_in_capitals_that_lost_its_first_turn_is_not_passed_unsaid(project, cli, fake):
    """131st round (attack on the rule above): on a tokenizer that reads a digit as a token and a capital letter as
    half of one, chats of prose, then a pasted log ("2024-05-01 12:00:01 ERR SYNC 4821 FAIL 503") or hex dump ("0x7F3A
    DEAD BEEF 9C1B"), lost their first turn at 101% to 110% of num_ctx 2048 and were in no list: all but the first turn,
    read a token a digit and the rest at the questions' rate (0.26), came to less than the count (2,000 of a log's
    2,253), and the count was taken for the whole; the hex dumps, so read, fit whole. Those turns' letters are codes, no
    prose: in a turn far denser in digits than the questions they are read at the most a tokenizer reads a text at
    (MOST_TOKENS_A_CHAR), and each such chat is said not checked. One that fit whole is still not listed."""
    prose = "Hello, the nightly export job fails on our side and I attach what it printed for you to look at. "
    dumps = {"log": "2024-05-01 12:00:01 ERR SYNC 4821 FAIL 503 ", "hex": "0x7F3A DEAD BEEF 9C1B CAFE 4E2D ABCD EF01 "}
    def count(messages):   # (4 ASCII characters a token, a digit a token, a capital letter half a token)
        return 3 + math.ceil(sum(5 + sum(1 if ch.isdigit() else 0.5 if ch.isupper() else 0.25 for ch in m["content"])
                                 for m in messages))
    for name, paragraphs, lines, lost in (("log", 10, 66, True), ("log", 1, 67, True), ("hex", 10, 80, True),
                                          ("hex", 1, 85, True), ("log", 10, 58, False)):
        chat = talk("chat", prose * paragraphs, "Please paste the dump.", dumps[name] * lines, "Got it.",
                    "So is this a bug, billing or other?")
        counts, out, s = run_older_ollama(cli, fake, questions_and(EN_QUESTIONS) + [chat], LABEL_IT, 2048,
                                          f"{name}-{paragraphs}-{lines}", count=count)
        whole = count([{"content": LABEL_IT}] + chat["messages"])
        assert counts["chat"] == (count([{"content": LABEL_IT}] + chat["messages"][1:]) if lost else whole), counts
        assert (counts["chat"] < 2048 < whole) if lost else 0.9 * 2048 < whole <= 2048, (name, paragraphs, lines, whole)
        assert s["turns_may_be_dropped"] + s["turns_unchecked"] == ([{"id": "chat", "trial": 1,
                                                                       "why": "denser in digits"}] if lost else []), (
            name, paragraphs, lines, s)


def test_a_chat_with_a_short_first_turn_before_codes_in_capitals_that_fit_is_not_said_denser_in_digits(project, cli,
                                                                                                     fake):
    """131st round (attack on the rule above): chats of a short first turn ("Here it is."), then a pasted log or hex
    dump, that fit and were counted whole were said not checked, "denser in digits", down to 85% of num_ctx 2048: the
    dump read at MOST_TOKENS_A_CHAR alone passes the window, so it was taken for a turn Ollama may have dropped, and the
    count with it always passed the window. Its count tells: dropped, the dump would have left some 30 tokens, not
    1,950, so only the turns before it may have been dropped, and the count with the largest of those fits. Runs of the
    attack: a log on a tokenizer that reads a digit as a token and a capital letter as half of one (95%), and a hex dump
    on one that reads a digit as a third of a token (85%)."""
    dumps = {"log": ("2024-05-01 12:00:01 ERR SYNC 4821 FAIL 503 ", 64, 1), "hex": (
        "0x7F3A DEAD BEEF 9C1B CAFE 4E2D ABCD EF01 ", 96, 0.34)}
    for name, (dump, lines, digit) in dumps.items():
        def count(messages):   # (4 ASCII characters a token, a capital letter half a token)
            return 3 + math.ceil(sum(5 + sum(digit if ch.isdigit() else 0.5 if ch.isupper() else 0.25
                                             for ch in m["content"]) for m in messages))
        chat = talk("chat", "Here it is.", "Please paste the dump.", dump * lines, "Got it.",
                    "So is this a bug, billing or other?")
        counts, out, s = run_older_ollama(cli, fake, questions_and(EN_QUESTIONS) + [chat], LABEL_IT, 2048, name,
                                          count=count)
        whole = count([{"content": LABEL_IT}] + chat["messages"])
        assert counts["chat"] == whole and 0.84 * 2048 < whole < 0.96 * 2048, (name, counts, whole)
        assert s["turns_may_be_dropped"] == s["turns_unchecked"] == [], (name, s)


def test_a_chat_pasting_codes_a_prompt_cache_counted_in_part_is_said_a_partial_count(project, cli, fake):
    """131st round (attack on d971c78): two chats of a short first turn, then a pasted log, differing in their last
    question, fit whole (92% of num_ctx 2048) on a tokenizer that reads a digit as a token and a capital letter as half
    of one; a prompt cache that had seen the first counted the second 17 tokens, and it was said not checked, "denser
    in digits", for a count that was no whole prompt's. With no turn it could have lost that count passes the window
    (partial_count()): it is said not checked, "partial count", as other chats a cache counted in part are."""
    def whole(messages):   # (4 ASCII characters a token, a digit a token, a capital letter half a token)
        return 3 + math.ceil(sum(5 + sum(1 if ch.isdigit() else 0.5 if ch.isupper() else 0.25 for ch in m["content"])
                                 for m in messages))
    count = prefix_cache(whole)
    fake.fitted_turns = lambda messages, window: messages   # (both fit: no count of a drop to fill the cache)
    history = ["Here it is.", "Please paste the dump.", "2024-05-01 12:00:01 ERR SYNC 4821 FAIL 503 " * 62, "Got it."]
    cases = questions_and(EN_QUESTIONS) + [talk(f"log-{n}", *history, question) for n, question in enumerate(
        ["So is this a bug, billing or other?", "And when will it be fixed, roughly?"])]
    counts, out, s = run_older_ollama(cli, fake, cases, LABEL_IT, 2048, count=count)
    assert 0.9 * 2048 < whole([{"content": LABEL_IT}] + cases[-1]["messages"]) <= 2048 and counts["log-1"] < 20, counts
    assert s["turns_may_be_dropped"] == [] and s["turns_unchecked"] == [{"id": "log-1", "trial": 1,
                                                                         "why": "partial count"}], s


def test_a_chat_that_lost_a_first_turn_of_emoji_counted_far_under_its_estimate_is_not_passed_unsaid(project, cli,
                                                                                                    fake):
    """132nd round: on a tokenizer that reads an emoji as 2 tokens (as byte-level ones read many), a chat whose first
    turn was a run of emoji (1,620 characters) lost it at 146% of num_ctx 2048 and was in no list: read at the run's
    rate it fits (1,643 tokens), so its count (53) was never weighed, though it is far under even the lowest estimate
    (372), as the counts of conversations that read past the window are. There too a count so far under what its
    characters take is no whole prompt's: the chat is said not checked, "short count" (never shortened: a fitting chat
    a prompt cache counted in part reads the same)."""
    def count(messages):   # (4 ASCII characters a token, anything else 2)
        return 3 + math.ceil(sum(5 + sum(0.25 if ch < "\x80" else 2 for ch in m["content"]) for m in messages))
    chat = talk("emoji", "🎉🙏😀👍🚀✨🔥💯 " * 180, "Noted.", "So is this a bug, billing or other?")
    counts, out, s = run_older_ollama(cli, fake, questions_and(EN_QUESTIONS) + [chat], LABEL_IT, 2048, count=count)
    assert counts["emoji"] == count([{"content": LABEL_IT}] + chat["messages"][1:]) < 100, counts   # (emoji dropped)
    assert 1.4 * 2048 < count([{"content": LABEL_IT}] + chat["messages"]), counts
    assert s["turns_may_be_dropped"] + s["turns_unchecked"] == [{"id": "emoji", "trial": 1, "why": "short count"}], s
    assert "its count comes to far under what its characters take" in out, out


def the_second_of_two_cached_chats_is_unchecked(cli, fake, whole, history, name, most):
    """Two chats of `history` differing in their last question, both fitting whole (90% to 100% of num_ctx 2048, read
    by `whole`), on a prompt cache that had seen the first: the second, counted under `most` tokens, is said not
    checked, "partial count", never to have lost turns."""
    count = prefix_cache(whole)
    fake.fitted_turns = lambda messages, window: messages   # (both fit: no count of a drop to fill the cache)
    cases = questions_and(EN_QUESTIONS) + [talk(f"{name}-{n}", *history, question) for n, question in enumerate(
        ["So is this a bug, billing or other?", "So is this a bug, billing or other? Please answer quickly."])]
    counts, out, s = run_older_ollama(cli, fake, cases, LABEL_IT, 2048, count=count)
    assert 0.9 * 2048 < whole([{"content": LABEL_IT}] + cases[-1]["messages"]) <= 2048, counts   # (both fit)
    assert counts[f"{name}-1"] < most, counts
    assert s["turns_may_be_dropped"] == [] and "may have been dropped" not in out, s
    assert [x for x in s["turns_unchecked"] if x["id"] == f"{name}-1"] == [{"id": f"{name}-1", "trial": 1,
                                                                           "why": "partial count"}], s


def test_a_chat_of_long_prose_turns_a_prompt_cache_counted_in_part_is_not_said_shortened(project, cli, fake):
    """132nd round (attack on c3a0ab8): on a tokenizer that reads English at 0.2 tokens a character, two chats sharing
    a history of two prose turns of 4,500 characters, differing in their last question, fit whole (91% of num_ctx
    2048); a prompt cache that had seen the first counted the second 19 tokens, and it was said "Earlier turns may
    have been dropped ... its count fits". partial_count() read each turn it could have lost at the most a tokenizer
    reads a text at (MOST_TOKENS_A_CHAR), and one of prose past some 4,050 characters passed the window with that
    count. A turn is read as digits_past() reads it, at the run's rate where it is no denser in digits than the texts
    that rate is read from: the second is said not checked, "partial count"."""
    def whole(messages):   # (5 characters a token)
        return 3 + math.ceil(sum(5 + 0.2 * len(m["content"]) for m in messages))
    history = [EN_TURN * 45, "Noted.", EN_TURN.replace("nightly", "weekly") * 45, "Noted."]
    the_second_of_two_cached_chats_is_unchecked(cli, fake, whole, history, "prose", 20)


def test_a_chat_of_json_lines_a_prompt_cache_counted_in_part_is_not_said_shortened(project, cli, fake):
    """132nd round (review of cbd5529): two chats sharing a first turn of 84 JSON lines (7,560 characters, a fifth of
    them digits), differing in their last question, fit whole (95% of num_ctx 2048); a prompt cache that had seen the
    first counted the second 22 tokens, and it was said "Earlier turns may have been dropped ... its count fits".
    Read each digit a token, the JSON turn passed the window with that count, so partial_count() took the count for a
    drop's. But a drop keeps the system prompt and the last turn, and 22 is far under what even they take: the second
    is said not checked, "partial count"."""
    def whole(messages):   # (4 characters a token, digits too)
        return 3 + math.ceil(sum(5 + 0.25 * len(m["content"]) for m in messages))
    lines = '{"id": "a1b2", "ts": 1714564801, "vals": [0.12, 3.4, 56], "ok": true, "tags": ["x", "y"]}\n' * 84
    the_second_of_two_cached_chats_is_unchecked(cli, fake, whole, [lines, "Let me look."], "json", 25)


def a_chat_of_pasted_code_run(cli, fake, code):
    """Runs the questions and a chat whose first turn pastes `code`, on a tokenizer that reads each symbol of code as a
    token (an older Ollama that drops the first turns past num_ctx 2048); asserts the code was dropped. Returns the
    counts, the output, the run's summary and what the whole chat takes in tokens."""
    def count(messages):   # (4 letters, digits or spaces a token, each symbol a token)
        return 3 + math.ceil(sum(5 + sum(0.25 if ch.isalnum() or ch.isspace() else 1 for ch in m["content"])
                                 for m in messages))
    chat = talk("code", code, "Let me look.", "So is this a bug, billing or other?")
    counts, out, s = run_older_ollama(cli, fake, questions_and(EN_QUESTIONS) + [chat], LABEL_IT, 2048, count=count)
    assert counts["code"] == count([{"content": LABEL_IT}] + chat["messages"][1:]) < 100, counts   # (the code dropped)
    return counts, out, s, count([{"content": LABEL_IT}] + chat["messages"])


def test_a_chat_that_lost_its_first_turn_of_pasted_code_is_not_passed_unsaid(project, cli, fake):
    """132nd round (attack on ef53a86): on a tokenizer that reads each symbol of code as a token, a chat that pasted
    78 lines of code (6,396 characters) lost that first turn at 167% of num_ctx 2048 and was in no list, where before
    ef53a86 it was said not checked: its count (61) came a few tokens past what all but the first turn take read at the
    run's rate (58), and was taken for the whole chat's. A count about what all but the first turn take (within
    WINDOW_SHORT of it) is read as that turn's drop: it is said not checked, "denser in digits", again."""
    code = "def f(x):\n    return {'a': [x[0], x[1]], 'b': (x or {}).get('k', None)}  # map it\n" * 78
    counts, out, s, whole = a_chat_of_pasted_code_run(cli, fake, code)
    assert 1.6 * 2048 < whole, counts
    assert s["turns_may_be_dropped"] + s["turns_unchecked"] == [{"id": "code", "trial": 1,
                                                                   "why": "denser in digits"}], s


def test_a_chat_that_lost_a_shorter_first_turn_of_code_is_not_said_a_partial_count(project, cli, fake):
    """132nd round (attack on cbd5529): on a tokenizer that reads each symbol of code as a token, a chat that pasted
    54 lines of code (4,428 characters) lost that first turn at 117% of num_ctx 2048, no prompt cache, and was said not
    checked, "partial count": "too few for any turn it could have lost to have been dropped", which was false.
    partial_count() read the code at the run's rate past it by WINDOW_SHORT (some 1,830 tokens), and with the count
    (61) that fit; code of symbols reads some 0.52 tokens a character. Where a chat reads as fitting, a count is only
    said too few where even the most a tokenizer reads a turn at (MOST_TOKENS_A_CHAR) could not pass the window with
    it: the chat is said not checked, "short count" (its characters may take far more tokens than the run's rate says,
    as code may, and turns were dropped)."""
    code = "def f(x):\n    return {'a': [x[0], x[1]], 'b': (x or {}).get('k', None)}  # map it\n" * 54
    counts, out, s, whole = a_chat_of_pasted_code_run(cli, fake, code)
    assert 1.1 * 2048 < whole < 1.2 * 2048, counts
    assert s["turns_may_be_dropped"] + s["turns_unchecked"] == [{"id": "code", "trial": 1, "why": "short count"}], s
    assert "too few for any turn" not in out and "its count comes to far under what its characters take" in out, out


def test_a_prompt_cache_under_a_shorter_system_prompt_leaves_no_dropped_turns_unsaid(project, cli, fake):
    """129th round (third attack): a prompt cache that held a short system prompt (72 characters, under questions of
    about 190) counted the questions at 0.17 tokens a character, over MIN_TOKENS_A_CHAR's 0.12, and a conversation
    that lost three turns (about 120% of num_ctx 4096) read as fitting, unsaid. Under what a tokenizer reads a text at
    (LEAST_TOKENS_A_CHAR), the rate is read without the system prompt too, and at that one it could pass the window:
    not checked."""
    system = "Label the message as bug, billing or other. Answer with the label only.\n"
    questions = [f"{q} {EN_QUESTIONS[(i + 1) % 4]}" for i, q in enumerate(EN_QUESTIONS)]
    counts, out, s = run_older_ollama(cli, fake, questions_and(questions, ("en-dropped", EN_TURN * 12, 16)), system,
                                      4096, count=scripted_count(hidden=1))
    assert counts["en-dropped"] < 4096 < scripted_count()([{"content": EN_TURN * 12}] * 16), counts   # (turns dropped)
    assert [(x["id"], x["why"]) for x in s["turns_unchecked"]] == [("en-dropped", "system prompt unseen")], s
    assert "Earlier turns not checked against num_ctx=4096" in out, out


def test_a_templates_tokens_a_request_flag_no_conversation_that_fit(project, cli, fake):
    """129th round (second attack): Llama 3.2's template spends about 15 tokens a request besides 5 a message, and under
    questions of 14 to 26 characters those read as their words', a rate 1.4 times a text's: a conversation that fit
    (2,980 tokens of 4,096) was flagged "Earlier turns may have been dropped", and one that fit at 3,384 was said not
    checked for "its characters come to more tokens than the window holds", which they did not. A request's own tokens
    are allowed for: where they may be what set the rate, the conversation is said not to have been checked, truly."""
    short = ["My app crashes on login.", "I was charged twice.", "Where is my order?", "The button does nothing.",
             "Refund please.", "Export fails with 500.", "Cannot reset my password.", "Invoice has wrong VAT."]
    counts, out, s = run_older_ollama(cli, fake, questions_and(short, ("fits-3000", EN_TURN * 7, 16),
                                                               ("fits-3400", EN_TURN * 8, 16)),
                                      LABEL_IT, 4096, count=scripted_count(per_request=15))
    assert 2900 < counts["fits-3000"] < counts["fits-3400"] < 4096, counts   # (every turn counted)
    assert s["turns_may_be_dropped"] == [] and "Earlier turns may have been dropped" not in out, (out, s)
    assert "its characters come to more tokens than the window holds" not in out, out


def test_a_conversation_that_fit_near_the_window_is_not_said_to_pass_it(project, cli, fake):
    """129th round (third attack): on a template of 25 tokens a request (more than REQUEST_TOKENS) under short
    questions, a conversation that fit at 93% of the window was said not checked as "its characters come to more tokens
    than the window holds", which they did not: it says what is known, that its estimate even at its lowest does."""
    short = ["My app crashes on login.", "I was charged twice.", "Where is my order?", "The button does nothing.",
             "Refund please.", "Export fails with 500.", "Cannot reset my password.", "Invoice has wrong VAT."]
    counts, out, s = run_older_ollama(cli, fake, questions_and(short, ("fits", EN_TURN * 9, 16)), LABEL_IT, 4096,
                                      count=scripted_count(per_request=25))
    assert 3700 < counts["fits"] < 4096, counts   # (every turn counted)
    assert [(x["id"], x["why"]) for x in s["turns_unchecked"]] == [("fits", "near the window")], s
    assert "its characters come to more tokens than the window holds" not in out, out
    assert "its estimate, even at its lowest, comes to more tokens than the window holds" in out, out


def test_no_rate_says_why_in_the_sets_own_terms(project, cli, fake):
    """129th round (second attack): with every question of one turn past half the window (where a cut could hide in
    its count) and no agent, the note said "no answer of one turn and no conversation here gives that rate (an agent's
    count holds its tools' definitions)": it says the answers of one turn are too long to give it, and names agents
    only where there are some."""
    docs = [q + " " + EN_TURN * 90 for q in EN_QUESTIONS]
    counts, out, s = run_older_ollama(cli, fake, questions_and(docs, ("en-dropped", EN_TURN * 12, 16)), LABEL_IT, 4096,
                                      count=scripted_count())
    assert counts["q0"] > 2048 and [(x["id"], x["why"]) for x in s["turns_unchecked"]] == [("en-dropped", "no rate: long")], s
    assert "agent" not in out and "past half the window" in out, out


def test_a_conversation_near_a_trained_window_is_told_its_share_and_the_windows_own_cure(project, cli, fake):
    """129th round (second attack): a conversation past the window at every rate whose count fit within the estimate's
    margin was said not checked, "a turn that small (a short question before a long tool result) may have been
    dropped, or none", where three turns of about 310 tokens (19% of it) were; and its cure, "a larger num_ctx
    (--option num_ctx=N) would hold it whole", was given where num_ctx=8192 had been sent and the model's trained
    window (4,096) capped it. It says turns may have been dropped, not how many (130th round: its "up to about 25%"
    did not hold), and the window's cure (window_cure())."""
    fake.train_context = {model: 4096 for model in fake.models}
    counts, out, s = run_older_ollama(cli, fake, questions_and([q + " " + EN_TURN * 20 for q in EN_QUESTIONS],
                                                               ("near", EN_TURN * 11, 16)),
                                      LABEL_IT, 8192, count=scripted_count())
    assert counts["near"] < 4096 < scripted_count()([{"content": EN_TURN * 11}] * 16), counts   # (turns dropped)
    assert [(x["id"], x["why"]) for x in s["turns_unchecked"]] == [("near", "near the window")], s
    line = next(line for line in out.splitlines() if line.startswith("Earlier turns not checked"))
    assert "its count cannot tell how many" in line and "would hold it whole" not in line, line
    assert line.endswith("Ollama lowered num_ctx=8192 to the context the model was trained on, so raising it cannot "
                         "help: shorten the prompt, or pick a model trained on a longer context"), line


def test_a_conversation_near_the_window_is_told_no_share_the_check_cannot_hold_to(project, cli, fake):
    """130th round: a conversation past the window at every rate whose count fit within the estimate's margin was said
    not checked, "up to about 25% of it (a few turns, or a short question before a long tool result) may have been
    dropped, or none", where 34% had been (a chat of 2,984 tokens counted 1,967 of num_ctx 2048): the 25% is of its
    lowest estimate, which reads 0.2 tokens a character where the text reads 0.25. It names no share."""
    counts, out, s = run_older_ollama(cli, fake, questions_and(EN_QUESTIONS, ("near", EN_TURN * 7, 16)), LABEL_IT, 2048,
                                      count=scripted_count())
    whole = scripted_count()([{"content": LABEL_IT}] + questions_and((), ("near", EN_TURN * 7, 16))[0]["messages"])
    assert counts["near"] < 0.75 * whole, (counts, whole)   # (over a quarter of it dropped)
    assert [(x["id"], x["why"]) for x in s["turns_unchecked"]] == [("near", "near the window")], s
    line = next(line for line in out.splitlines() if line.startswith("Earlier turns not checked"))
    assert "25%" not in line and "a few turns" not in line and "its count cannot tell how many" in line, line


def test_each_reason_a_conversation_was_not_checked_names_its_own(project, cli, fake):
    """129th round (third attack): the reasons for conversations not checked were joined as one ("its characters may
    come to more tokens than the window holds, or fewer: ...; its characters come to more tokens than the window
    holds, ..."), which read as a contradiction, and only --json told which conversation had which: each reason names
    its own. And under a trained window smaller than num_ctx, "near the window, a larger one would tell" was said where
    no larger one can be had."""
    fake.train_context = {model: 2048 for model in fake.models}
    counts, out, s = run_older_ollama(cli, fake, questions_and(EN_QUESTIONS, ("range", EN_TURN * 5, 16),
                                                               ("near", EN_TURN * 7, 16)),
                                      LABEL_IT, 4096, count=scripted_count())
    assert [(x["id"], x["why"]) for x in s["turns_unchecked"]] == [("range", "rate range"), ("near", "near the window")], s
    line = next(line for line in out.splitlines() if line.startswith("Earlier turns not checked"))
    assert "; range: its characters may come to more tokens" in line, line
    assert "; near: its estimate, even at its lowest, comes to more tokens" in line, line
    assert "a larger one would tell" not in line, line


def test_a_prompt_that_fit_is_never_flagged_whatever_its_characters(project, cli, fake):
    """From the attack on issue 27: one tokens-per-character figure for a run flagged a long English
    ticket that fit (1,246 of 2,048 tokens) as cut, among Chinese tickets of about a token a
    character. A single prompt is flagged from its exact count alone (a cut size, or the window)."""
    def realistic_count(messages):   # CJK a token a character, other text 4 characters a token
        text = "".join(str(m.get("content") or "") for m in messages if m.get("role") != "system")
        cjk = sum("\u4e00" <= ch <= "\u9fff" for ch in text)
        return 10 + cjk + (len(text) - cjk) // 4
    fake.prompt_count, fake.truncation, fake.version = realistic_count, "half", "0.12.5"
    Path("bi").mkdir()
    Path("bi/labels.txt").write_text("bug\nbilling\n")
    zh = "我的账户被重复扣款了，请尽快帮我处理这个问题，谢谢。" * 3
    Path("bi/dev.jsonl").write_text("".join(
        json.dumps({"id": f"zh-{i}", "input": f"{i} " + zh, "expected": "billing", "difficulty": "easy", "note": "n"},
                   ensure_ascii=False) + "\n" for i in range(9)) + json.dumps(
        {"id": "en-long", "input": "The export button spins forever and the PDF never downloads. " * 80,
         "expected": "bug", "difficulty": "easy", "note": "n"}) + "\n")
    Path("prompts/bi").mkdir()
    Path("prompts/bi/v1.txt").write_text("Classify the ticket as bug or billing. Answer with the label only.\n")
    code, out, err = cli("run", "--split", "bi/dev.jsonl", "--prompt", "prompts/bi/v1.txt", "--host", fake.url,
                         "--option", "num_ctx=2048", "--out", "runs/bi.json")
    assert code == 0, err
    # it fits: under num_ctx - 1, and not the 1027 tokens a cut one would be
    assert {r["id"]: r["prompt_tokens"] for r in load_json("runs/bi.json")["results"]}["en-long"] == 1230
    assert json.loads(cli("report", "runs/bi.json", "--json")[1])["input_may_be_cut"] == []


def test_a_window_ollama_lowered_to_the_training_context_is_read_from_the_server(project, cli, fake):
    """Issue 27, item 1: Ollama lowers a num_ctx past the context the model was trained on to it
    (server/sched.go effectiveContext, since v0.9.3) and cuts prompts to that window without a word;
    eval.py read the num_ctx it sent (4096) and flagged nothing. It asks /api/ps after the load
    (api/types.go ProcessModelResponse.ContextLength, since v0.9.7), says so, records the window,
    and flags the prompts cut to it."""
    fake.train_context["qwen2.5:7b"] = 40
    fake.truncation = "half"
    fake.answers = answer_key("golden/dev.jsonl")
    code, out, err = cli("run", "--split", "dev", "--host", fake.url)
    assert code == 0, err
    assert "note: qwen2.5:7b runs with a window of 40 tokens" in err and "not the num_ctx=4096 asked" in err
    run = load_json("runs/dev-v3.json")
    assert run["config"]["context_length"] == 40 and run["config"]["options"] == {"num_ctx": 4096}
    cut = [r["id"] for r in run["results"] if r["prompt_tokens"] == 40 - (40 - 5) // 2]
    assert cut and len(cut) < 28
    s = json.loads(cli("report", "runs/dev-v3.json", "--json")[1])
    assert set(cut) <= {x["id"] for x in s["input_may_be_cut"]} and s["num_ctx"] == 40
    # a server that does not say (before v0.9.7): the num_ctx sent, and a null in the run
    fake.ps_context = False
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--option", "num_ctx=40")
    assert code == 0 and "runs with a window" not in err
    assert load_json("runs/dev-v3-2.json")["config"]["context_length"] is None
    fake.ps_context = True   # and compare says when two runs' windows differ
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--option", "num_ctx=4096", "--out", "runs/b.json")
    fake.train_context.clear()
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--option", "num_ctx=4096", "--out", "runs/c.json")
    assert "  context_length: 40 -> 4096" in cli("compare", "runs/b.json", "runs/c.json")[1].splitlines()


class PsProxy:
    """A server in front of the fake that answers /api/ps as a test says, and passes the rest on."""

    def __init__(self, fake, ps):
        import http.server, threading, urllib.request
        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *a):
                pass
            def relay(self, method):
                if self.path == "/api/ps":
                    body = json.dumps(ps).encode()
                    self.send_response(200)
                else:
                    data = self.rfile.read(int(self.headers.get("Content-Length", 0))) if method == "POST" else None
                    request = urllib.request.Request(fake.url + self.path, data=data, method=method,
                                                     headers={"Content-Type": "application/json"})
                    try:
                        with urllib.request.urlopen(request) as r:
                            body, status = r.read(), r.status
                    except urllib.error.HTTPError as e:
                        body, status = e.read(), e.code
                    self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            def do_GET(self):
                self.relay("GET")
            def do_POST(self):
                self.relay("POST")
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"


@pytest.mark.parametrize("ps", [
    {"models": [{"name": "qwen2.5:7b", "context_length": 100000}]},                     # larger than asked
    {"models": [{"name": "qwen2.5:7b", "context_length": 30}, {"model": "qwen2.5:7b", "context_length": 90}]},
], ids=["larger", "two"])
def test_a_window_the_server_states_never_hides_a_cut(project, cli, fake, ps):
    """From the attack on issue 27: an /api/ps context_length larger than the num_ctx sent was taken
    as the window (the prompts are fitted to the request's num_ctx all the same: server/routes.go
    optionsForPrompt only lowers it), and of two entries that disagree the first was taken: the
    prompts cut to fit num_ctx=40 went unflagged."""
    fake.truncation = "half"
    fake.answers = answer_key("golden/dev.jsonl")
    proxy = PsProxy(fake, ps)
    try:
        code, out, err = cli("run", "--split", "dev", "--host", proxy.url, "--option", "num_ctx=40")
    finally:
        proxy.server.shutdown()
    assert code == 0, err
    cut = [r["id"] for r in load_json("runs/dev-v3.json")["results"] if r["prompt_tokens"] == 40 - (40 - 5) // 2]
    s = json.loads(cli("report", "runs/dev-v3.json", "--json")[1])
    assert cut and set(cut) <= {x["id"] for x in s["input_may_be_cut"]} and s["num_ctx"] == 40
    assert "runs with a window" not in err


def test_a_window_ollama_lowered_is_not_cured_by_raising_num_ctx(project, cli, fake):
    """From the attack on issue 27: with the model trained on 40 tokens and num_ctx=8192 asked, the
    report said 'cut to fit num_ctx=40 ... raise it': the user asked 8192, and no num_ctx helps."""
    fake.train_context["qwen2.5:7b"] = 40
    fake.truncation = "half"
    fake.answers = answer_key("golden/dev.jsonl")
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--option", "num_ctx=8192")
    assert code == 0, err
    line = next(l for l in out.splitlines() if l.startswith("Input may have been cut"))
    assert line.startswith("Input may have been cut to fit the model's window of 40 tokens: ")
    assert "raising it cannot help: shorten the prompt, or pick a model trained on a longer context" in line
    assert "raise it (--option num_ctx=N)" not in line
    md = cli("report", "runs/dev-v3.json", "--markdown")[1]
    assert "| Input may have been cut to fit the model's window of 40 tokens |" in md


def test_a_run_that_does_not_know_its_window_shows_no_window_change(project, cli, fake):
    """From the attack on issue 27: a run made before /api/ps was read (or on a server that does not
    say) compared with one that knows its window printed 'context_length: null -> 4096' though both
    asked num_ctx=4096."""
    fake.answers = answer_key("golden/dev.jsonl")
    fake.ps_context = False
    assert cli("run", "--split", "dev", "--host", fake.url, "--out", "runs/a.json")[0] == 0
    fake.ps_context = True
    assert cli("run", "--split", "dev", "--host", fake.url, "--out", "runs/b.json")[0] == 0
    out = cli("compare", "runs/a.json", "runs/b.json")[1]
    assert "context_length" not in out
    assert "context_length" not in cli("compare", "runs/a.json", "runs/b.json", "runs/b.json")[1]


def test_prompt_counts_left_out_for_cached_prompts_make_the_totals_partial(project, cli, fake):
    """Issue 27, item 5: a version that counts only the prompt tokens it evaluated sends 0 for a fully
    cached prompt, and Ollama leaves a zero count out (api/types.go Metrics, omitempty): with --repeat 2
    half the counts were missing and the report summed the rest as if whole."""
    fake.uncached_counts = True
    fake.answers = answer_key("golden/dev.jsonl")
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--repeat", 2, "--limit", 5)
    assert code == 0, err
    run = load_json("runs/dev-v3.json")
    assert [r["prompt_tokens"] is None for r in run["results"]] == [False, True] * 5   # trial 2 of each: cached
    assert "partial: 5 answers sent no prompt count" in out
    assert json.loads(cli("report", "runs/dev-v3.json", "--json")[1])["speed"]["without_prompt_count"] == 5


@pytest.mark.parametrize("listing, said", [
    ({"models": 5}, '"models": 5, not a list of models'), ({"models": True}, '"models": true, not a list of models'),
    ({"models": "qwen2.5:7b"}, '"models": "qwen2.5:7b", not a list of models'),
    ({"models": {"name": "qwen2.5:7b"}}, '"models": {"name": "qwen2.5:7b"}, not a list of models'),
    ([{"name": "qwen2.5:7b"}], '[{"name": "qwen2.5:7b"}], not an object holding a list of models'),
    ("qwen2.5:7b", '"qwen2.5:7b", not an object holding a list of models'),
    # (33rd round) an object without the list was "model 'qwen2.5:7b' is not pulled ... pick one it has: none"
    ({}, '{}, with no "models" list of models'),
    ({"object": "list"}, '{"object": "list"}, with no "models" list of models'),
    # (round 106) another API's shape is named so
    ({"object": "list", "data": []}, '{"object": "list", "data": []}, with no "models" list of models (its "data" is an '
                                     "OpenAI-compatible server's list: give --api openai)"),
])
def test_a_model_list_of_the_wrong_shape_is_one_line_naming_the_server(project, cli, fake, listing, said):
    """Issue 28, item 15: /api/tags answering {"models": 5} or {"models": true} was a TypeError
    (exit 1); a text or an object was read as the list of what the server has."""
    fake.listings["/api/tags"] = listing
    code, out, err = cli("run", "--split", "dev", "--host", fake.url)
    assert code == 2 and "Traceback" not in err and len(err.splitlines()) == 1, err
    assert err == (f"error: {fake.url}/api/tags sent {said}; is --host (or $OLLAMA_HOST) pointing at an Ollama server? "
                   "(--api openai for other servers)\n")
    assert fake.chat_bodies == [] and not os.path.exists("runs")


def test_a_host_given_with_an_api_path_is_told_to_drop_it(project, cli, fake):
    """126th round's newcomer: --host http://127.0.0.1:PORT/api asked /api/api/tags, and its 404 said "is --host pointing
    at an Ollama server?", the path doubled and unsaid."""
    for path, says in (("/api", f"ends in /api, which eval.py adds itself: give {fake.url}"),
                       ("/proxy/api/", f"ends in /api, which eval.py adds itself: give {fake.url}/proxy"),
                       ("/v1/", f"ends in /v1, an OpenAI-compatible server's path: give --api openai --host {fake.url}/v1 "
                                f"(vLLM, llama.cpp, Ollama's /v1), or {fake.url} for Ollama's own API")):
        code, out, err = cli("run", "--split", "dev", "--host", fake.url + path, "--limit", 1)
        assert code == 2 and f"--host (or $OLLAMA_HOST) {says}" in err, err
    assert fake.chat_bodies == []
    # (127th round's newcomer) from $OLLAMA_HOST: "give --api openai" alone was refused (it never reads $OLLAMA_HOST);
    # the cure, followed word for word, runs
    with pytest.MonkeyPatch.context() as env:
        env.setenv("OLLAMA_HOST", fake.url + "/v1")
        code, out, err = cli("run", "--split", "dev", "--limit", 1)
        assert code == 2 and f"give --api openai --host {fake.url}/v1 (vLLM" in err, err
        code, out, err = cli("run", "--split", "dev", "--limit", 1, "--api", "openai", "--host", fake.url + "/v1")
        assert code == 0, err


def test_a_model_list_too_large_is_said_to_be_so_not_a_server_out_of_reach(project, cli, fake, monkeypatch):
    """Round 104 (a hostile server): /api/tags answering past MAX_BODY was "cannot reach the model server (ValueError)"
    and the advice to start `ollama serve`: it was reached, and sent too much."""
    monkeypatch.setattr(evalpy, "MAX_BODY", 4096)   # (the cap, 64 MiB, made small: the same path)
    fake.listings["/api/tags"] = {"models": [{"name": f"m{i}:7b", "model": f"m{i}:7b"} for i in range(200)]}
    code, out, err = cli("run", "--split", "dev", "--host", fake.url)
    assert code == 2 and "cannot reach" not in err and "ollama serve" not in err, err
    assert err.startswith(f"error: {fake.url}/api/tags: the server's answer is over ") and err.endswith(
        ", far past what a model server sends there; is --host (or $OLLAMA_HOST) pointing at the model server?\n"), err

def test_a_listed_model_whose_name_is_no_text_is_not_taken_for_one(project, cli, fake):
    """A name that is a number or a list names no model the run could ask for."""
    fake.listings["/api/tags"] = {"models": [{"name": 5}, {"name": ["qwen2.5:7b"], "model": {"x": 1}}]}
    code, out, err = cli("run", "--split", "dev", "--host", fake.url)
    assert code == 2 and "is not pulled" in err and "pick one it has: none (and 2 entries" in err, err


def test_a_model_lists_entries_of_no_name_are_said_beside_the_names_it_has(project, cli, fake):
    """132nd round: entries of /api/tags naming no model by a text were left out unsaid, and the model, listed among them
    as a list, was "not pulled ... pick one it has: none."; they are said as /v1/models' are (113th round)."""
    fake.listings["/api/tags"] = {"models": [{"name": ["qwen2.5:7b"], "model": {"a": 1}}, {"foo": 1},
                                             {"name": 5, "model": 5}, "qwen2.5:7b", {"name": "m:1b"}, {"name": ""}]}
    code, out, err = cli("run", "--split", "dev", "--host", fake.url)
    assert code == 2 and err.endswith(
        "Run `ollama pull qwen2.5:7b`, or pick one it has: m:1b (and 5 entries of its list with no name or model text, "
        'read as no model: the first, {"name": ["qwen2.5:7b"], "model": {"a": 1}}).\n'), err
    fake.listings["/api/tags"] = {"models": [{"foo": 1}]}
    code, out, err = cli("run", "--split", "dev", "--host", fake.url)
    assert code == 2 and err.endswith('pick one it has: none (and 1 entry of its list with no name or model text, read '
                                      'as no model: the first, {"foo": 1}).\n'), err
    assert fake.chat_bodies == []


def test_a_model_list_nested_too_deep_to_print_is_still_one_line():
    """What a server sent is shown in the message; a value json cannot print again is named by its kind."""
    deep = []
    for _ in range(5000):
        deep = [deep]
    with pytest.raises(evalpy.EvalError, match=r"^http://h/api/tags sent \[\.\.\.\], not an object holding a list"):
        evalpy.listed_models(deep, "models", "http://h/api/tags", "hint")
    with pytest.raises(evalpy.EvalError, match=r'^http://h/api/tags sent "models": \{\.\.\.\}, not a list of models'):
        evalpy.listed_models({"models": {"m": deep}}, "models", "http://h/api/tags", "hint")


def test_what_a_server_says_of_itself_and_its_models_is_printed_inert(project, cli, fake):
    """Issue 28, item 8: a server version, the names a server lists and the capabilities it gives
    a model were printed raw: an ESC in them recoloured or cleared the user's terminal."""
    fake.answers = answer_key("golden/dev.jsonl")
    fake.version = "0.1\x1b[31mRED"
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--out", "runs/a.json")
    assert code == 0 and "(ollama 0.1\\x1b[31mRED)" in err and "\x1b" not in out + err, err
    assert load_json("runs/a.json")["config"]["server_version"] == "0.1\x1b[31mRED"   # stored as it came
    fake.version = "0.2\x1b]0;pwned\x07"
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--out", "runs/b.json")
    shown = cli("compare", "runs/a.json", "runs/b.json")[1] + cli("runs", "runs")[1]
    assert code == 0 and "\x1b" not in out + err + shown and "\\x1b]0;pwned\\x07" in shown
    fake.models = ["evil\x1b[2J:latest", "qwen\u202e:7b"]
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--out", "runs/c.json")
    assert code == 2 and "pick one it has: evil\\x1b[2J:latest, qwen\\u202e:7b." in err
    assert "\x1b" not in err and "\u202e" not in err
    fake.listings["/api/tags"] = {"models": [{"name": "qwen2.5:7b", "capabilities": ["completion\x1b[31m"]}]}
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--think", "on", "--out", "runs/d.json")
    assert code == 2 and "(it can: completion\\x1b[31m)" in err and "\x1b" not in err, err


@pytest.mark.parametrize("split, given", [("dev", ["--think", "on"]), ("golden/agent/dev.jsonl", [])])
def test_an_authorization_value_a_server_lists_among_capabilities_is_never_printed(project, cli, fake, split, given):
    """Issue 28, eighteenth attack: a server listing an Authorization value among a model's capabilities had it
    printed by the refusal naming what the model can do (--think, or a split with tools): capabilities are
    scrubbed as they come, as every other text a server sends. (Over Ollama's API no key is sent, so the
    server cannot know one to echo; a bearer token it holds is removed all the same.)"""
    token = "Bearer sk-SECRETSECRET1234567"
    fake.listings["/api/tags"] = {"models": [{"name": "qwen2.5:7b", "capabilities": ["completion", token]}]}
    fake.show_capabilities = False   # (an older server: the listing's are read)
    code, out, err = cli("run", "--split", split, "--host", fake.url, *given, "--out", "runs/k.json")
    assert code == 2 and "(it can: completion, Bearer [removed])" in err and "SECRET" not in out + err, err


def test_what_a_model_can_do_is_read_from_api_show_as_chat_reads_it(project, cli, fake):
    """Round 103 (audit against Ollama's source): /api/tags may list fewer capabilities than chat has (server/
    model_list_cache.go reads no chat template in the model file; a model that prefers it thinks or calls tools:
    server/images.go PreferChatTemplate), and eval.py refused --think and agent sets that Ollama runs. /api/show's
    are chat's own (ShowHandler and ChatHandler both m.Capabilities()). And an embedding model, which cannot chat
    (ChatHandler: '"m" does not support chat', the load too), is refused before any case, not sent 28 of them."""
    fake.models.append("qwen3:8b")
    fake.thinking["qwen3:8b"] = "apart"
    fake.listings["/api/tags"] = {"models": [{"name": m, "model": m, "digest": "d" * 64, "capabilities": ["completion"]}
                                             for m in fake.models]}
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--model", "qwen3:8b", "--think", "on", "--limit", 1)
    assert code == 0, err
    code, out, err = cli("run", "--split", "golden/agent/dev.jsonl", "--host", fake.url, "--model", "qwen3:8b", "--limit", 1)
    assert code == 0, err
    fake.models.append("nomic-embed-text:latest")
    fake.listings["/api/tags"] = {"models": [{"name": "nomic-embed-text:latest", "capabilities": ["embedding"]}]}
    fake.show_capabilities = False
    before = len(fake.chat_bodies) + len(fake.loads)
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--model", "nomic-embed-text")
    assert code == 2 and "nomic-embed-text cannot chat on" in err and "(it can: embedding)" in err, err
    assert len(fake.chat_bodies) + len(fake.loads) == before


def test_which_errors_refuse_the_request_as_it_was_sent():
    """Round 103: a 400 or 422 refuses the request itself (Ollama's 'invalid think value', '"m" does not support chat'),
    as does a 500 that says so; asked again, each fails alike, and the run said to --resume. A /v1 server's window is
    widened by a restart, a 404 by a pull, a 500 of a crash passes."""
    said = evalpy.refused_as_sent
    assert said('HTTP 400: invalid think value: "max" (must be "high", "medium", "low", true, or false)')
    assert said("turn 2: HTTP 422: Unprocessable Entity") and said("HTTP 500: 2 validation errors: {...}")
    assert said('HTTP 500: option "stop" must be of type array')
    assert not said(f"HTTP 400: This model's maximum context length is 2048 tokens: {evalpy.WINDOW_TOO_SMALL_V1}; ...")
    assert not said("HTTP 404: model 'x' not found (run `ollama pull x`)") and not said("HTTP 500: llama runner crashed")
    assert not said("HTTP 500: the runner said: 2 validation errors") and not said(None)
    # (131st round) llama-cpp-python's 500 of Python's own words for a value it read as a number, as sent
    assert said("HTTP 500: invalid literal for int() with base 10: 'x'") and said("HTTP 500: could not convert string to float: 'a'")
    assert not said("HTTP 500: the runner said: invalid literal for int() with base 10: 'x'")


def test_llama_cpp_pythons_500s_for_what_the_request_names_refuse_it_as_sent():
    """136th round: llama-cpp-python 0.3.36 raises these itself for what the request names, and its server/errors.py
    sends each as a 500 of its words: a tool_choice naming no tool sent (llama_chat_format.py:4303, 710, 3078, 3614),
    logprobs of a server started with --logits_all false (llama.py:1365). Retried, each fails alike."""
    said = evalpy.refused_as_sent
    assert said("turn 1: HTTP 500: Tool with name 'nosuch' not found in tools")
    assert said("HTTP 500: Tool choice 'no such' not found in tools.")
    assert said("HTTP 500: logprobs is not supported for models created with logits_all=False")
    assert not said("HTTP 500: llama_decode returned -1") and not said("HTTP 500: the runner said: Tool choice 'x' "
                                                                        "not found in tools.")


def test_think_max_on_an_older_ollama_is_refused_before_any_case(project, cli, fake):
    """Round 103 (audit against Ollama's source): "max" is a think value since v0.21.3 (commit c2ebb4d57); an older
    Ollama refuses it with a 400 on every case ('invalid think value'), and the run said to --resume."""
    fake.models.append("qwen3:8b")
    fake.thinking["qwen3:8b"] = "apart"
    fake.version = "0.12.6"
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--model", "qwen3:8b", "--think", "max")
    assert code == 2 and "--think max: Ollama 0.12.6" in err and "takes high at most (max came in v0.21.3)" in err, err
    assert fake.chat_bodies == []
    fake.version = "0.0.0"   # a build from source (version/version.go), of any age: not refused
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--model", "qwen3:8b", "--think", "max", "--limit", 1)
    assert code == 0, err


def test_a_resumed_run_names_a_new_server_version_inert(project, cli, fake):
    fake.answers = answer_key("golden/dev.jsonl")
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--limit", "2", "--out", "runs/r.json")
    assert code == 0
    run = load_json("runs/r.json")
    lines = [json.dumps({"format": evalpy.RUN_FORMAT, "config": run["config"]})]
    lines += [json.dumps({k: v for k, v in r.items() if k in ("id", "trial") + evalpy.CALL_FIELDS})
              for r in run["results"][:1]]
    open("runs/s.json.journal", "w", encoding="utf-8").write("\n".join(lines) + "\n")
    fake.version = "9\x1b[2J"
    code, out, err = cli("run", "--resume", "runs/s.json", "--host", fake.url)
    assert code == 0 and "the server is now version 9\\x1b[2J" in err and "\x1b" not in err, err


def test_a_servers_long_or_many_lined_listing_is_one_short_message(project, cli, fake):
    """From the attack on item 8: a server listing 20,000 models made the error 'pick one it has'
    a line of a megabyte, and a name or a version holding a newline forged a line of its own."""
    fake.models = [f"m{i}" for i in range(20_000)] + ["x\nerror: forged"]
    code, out, err = cli("run", "--split", "dev", "--host", fake.url)
    assert code == 2 and len(err) < 2000 and "and 19981 more" in err and "\nerror: forged" not in err, err[:3000]
    fake.models = ["qwen2.5:7b"]
    fake.answers = answer_key("golden/dev.jsonl")
    fake.version = "0.1\nerror: forged\n" + "v" * 500
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--out", "runs/a.json")
    assert code == 0 and "\nerror: forged" not in err and len(err.splitlines()[0]) < 400, err
    fake.version = "0.2"
    assert cli("run", "--split", "dev", "--host", fake.url, "--out", "runs/b.json")[0] == 0
    out = cli("compare", "runs/a.json", "runs/b.json")[1]
    assert "  server_version: 0.1\\nerror: forged\\nvvv" in out and "\nerror: forged" not in out


NOT_CALLS = "the server's answer had tool_calls that are not calls: "


@pytest.mark.parametrize("api, message, error", [
    ("ollama", {"role": "assistant", "content": "", "tool_calls": [{"function": {"name": "x", "arguments": "{}"}}]},
     NOT_CALLS + "call 1's function.arguments is text, not an object"),
    ("ollama", {"role": "assistant", "content": "", "tool_calls": "lookup_order"}, NOT_CALLS + "tool_calls is text, not a list"),
    ("ollama", {"role": "assistant", "content": "", "tool_calls": [{"function": {"name": 7, "arguments": {}}}]},
     NOT_CALLS + "call 1's function.name is a number, not text"),
    ("openai", {"role": "assistant", "content": None, "tool_calls": [{"id": "c", "function": {"name": "x", "arguments": {}}}]},
     NOT_CALLS + "call 1's function.arguments is an object, not a JSON string"),
    ("openai", {"role": "assistant", "content": None, "tool_calls": []}, "the server's answer had no choices[0].message.content"),
    # from the fourth attack on issue 28, item 9d: each says what is wrong with which call
    ("openai", {"role": "assistant", "content": None, "tool_calls": [
        {"id": "c", "type": "function", "function": {"name": "x", "arguments": "{}"}},
        {"id": "d", "type": "function", "function": {"name": "x", "arguments": None}}]},
     NOT_CALLS + "call 2's function.arguments is null, not a JSON string"),
    ("openai", {"role": "assistant", "content": None, "tool_calls": [
        {"id": "c", "type": "custom", "custom": {"name": "x", "input": "hola"}}]},
     NOT_CALLS + 'call 1 has no function object (its type is "custom")'),
    ("openai", {"role": "assistant", "content": None, "tool_calls": [
        {"id": 7, "type": "function", "function": {"name": "x", "arguments": "{}"}}]},
     NOT_CALLS + "call 1's id is a number, not text"),
    ("openai", {"role": "assistant", "content": None, "tool_calls": [{"id": "c", "type": "function", "function": {"name": "x"}}]},
     NOT_CALLS + "call 1's function has no arguments"),
    # (126th round) a name left out is said so, never "null"
    ("openai", {"role": "assistant", "content": None, "tool_calls": [{"id": "c", "type": "function", "function": {
        "arguments": "{}"}}]}, NOT_CALLS + "call 1's function has no name"),
    ("ollama", {"role": "assistant", "content": "", "tool_calls": [True]}, NOT_CALLS + "call 1 is true, not an object"),
    ("ollama", {"role": "assistant", "content": "", "tool_calls": [
        {"type": "x\x1b[2J\n" * 20, "function": None}]},
     NOT_CALLS + 'call 1 has no function object (its type is "x\\u001b[2J\\nx\\u001b[2J\\nx…)'),   # never cut inside an escape (issue 28, fifth attack, item 7)
])
def test_tool_calls_that_are_not_calls_are_an_error_never_a_crash(api, message, error, monkeypatch):
    """A hostile server's tool_calls: arguments of the other API's type, not a list, a name that is
    no text, content null with no call. Each is one error on the answer, after its retries, that says
    which call is wrong and how (its type shown escaped, on one line, cut short)."""
    body = json.dumps({"model": "m", "done": True, "message": message} if api == "ollama"
                      else {"choices": [{"index": 0, "message": message, "finish_reason": "tool_calls"}]}).encode()
    monkeypatch.setattr(evalpy, "RETRY_BASE_SECONDS", 0.01)
    tools = [{"type": "function", "function": {"name": "x", "parameters": {"type": "object"}}}]
    answer = hostile_answer(body, lambda url: evalpy.CLIENTS[api](url, retries=1).chat(
        "m", [{"role": "user", "content": "hola"}], {}, tools=tools))
    assert answer["response"] is None and answer["attempts"] == 2
    assert answer["error"] == error


@pytest.mark.parametrize("beside", [{"content": None}, {"content": ""}, {"content": None, "reasoning_content": "hm"},
                                    {"content": "I will look it up."}])
def test_openais_deprecated_function_call_is_named_never_no_content(monkeypatch, beside):
    """126th round: a server answering OpenAI's deprecated "function_call" (one call, no tool_calls) was "the server's
    answer had no choices[0].message.content", asked again, the call unsaid. Named, and not asked again: the server's
    form is no passing fault. (127th round) Beside content "" or reasoning it was an answer that called nothing: the
    call dropped and the case scored."""
    body = json.dumps({"choices": [{"index": 0, "finish_reason": "function_call", "message": {
        "role": "assistant", **beside, "function_call": {"name": "x", "arguments": "{}"}}}]}).encode()
    tools = [{"type": "function", "function": {"name": "x", "parameters": {"type": "object"}}}]
    answer = hostile_answer(body, lambda url: evalpy.CLIENTS["openai"](url, retries=1).chat(
        "m", [{"role": "user", "content": "hola"}], {}, tools=tools))
    assert answer["response"] is None and answer["attempts"] == 1 and answer["error"] == (
        "the server answered with function_call, OpenAI's deprecated form of a tool call, which eval.py does not read: a "
        "server (or chat template) that sends tool_calls is needed")


@pytest.mark.parametrize("beside, said", [
    ({"content": None, "function_call": {"name": "cancel_order", "arguments": "{}"},
      "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "x", "arguments": "{}"}}]},
     "the server answered with function_call (OpenAI's deprecated form of a tool call) beside tool_calls, naming a call "
     "they do not hold: which calls the model made cannot be told"),
    ({"content": "", "function_call": [{"name": "x", "arguments": "{}"}]},
     "the server answered with function_call (OpenAI's deprecated form of a tool call) as a list, not one call: which "
     "calls the model made cannot be told"),
    ({"content": "", "function_call": "x"},
     "the server answered with function_call (OpenAI's deprecated form of a tool call) as text, not one call: which "
     "calls the model made cannot be told"),
    # (its review) arguments nested past what JSON is read to: another call, never a traceback
    ({"content": None, "function_call": {"name": "x", "arguments": "[" * 5000 + "]" * 5000},
      "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "x", "arguments": "{}"}}]},
     "the server answered with function_call (OpenAI's deprecated form of a tool call) beside tool_calls, naming a call "
     "they do not hold: which calls the model made cannot be told")])
def test_a_function_call_beside_other_tool_calls_or_of_another_shape_is_never_dropped(monkeypatch, beside, said):
    """128th round's hostile servers: function_call naming another call beside tool_calls was dropped (one call of two
    stored), and one that is no object beside content "" was an answer that called nothing."""
    body = json.dumps({"choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
        "role": "assistant", **beside}}]}).encode()
    tools = [{"type": "function", "function": {"name": "x", "parameters": {"type": "object"}}}]
    answer = hostile_answer(body, lambda url: evalpy.CLIENTS["openai"](url, retries=1).chat(
        "m", [{"role": "user", "content": "hola"}], {}, tools=tools))
    assert answer["response"] is None and answer["attempts"] == 1 and answer["error"] == said, answer


@pytest.mark.parametrize("legacy", [{"name": "x", "arguments": '{"a": 1}'}, {"name": "x", "arguments": '{"a":1}'},
                                    {"name": "x", "arguments": {"a": 1}}])
def test_a_function_call_that_repeats_the_tool_call_beside_it_is_that_call(legacy):
    """(Its control) a server that sends the one call both ways, function_call beside tool_calls, made one call, its
    arguments spaced otherwise or as an object ((its review) those failed the answer as a call tool_calls lacked)."""
    call = {"name": "x", "arguments": '{"a": 1}'}
    body = json.dumps({"choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
        "role": "assistant", "content": None, "function_call": legacy,
        "tool_calls": [{"id": "c1", "type": "function", "function": call}]}}]}).encode()
    tools = [{"type": "function", "function": {"name": "x", "parameters": {"type": "object"}}}]
    answer = hostile_answer(body, lambda url: evalpy.CLIENTS["openai"](url, retries=1).chat(
        "m", [{"role": "user", "content": "hola"}], {}, tools=tools))
    assert answer["error"] is None and [c["name"] for c in answer["tool_calls"]] == ["x"], answer


@pytest.mark.parametrize("listed, shown", [
    ("m:latest\n", '"m:latest\\n"'), ("m ", '"m "'), (" m", '" m"'), ("m\t", '"m\\t"'), ("m\u00a0", '"m\\xa0"'),
    ("m\u200b", 'm\\u200b'), ("my  model", '"my  model"')])   # (round 93: a zero-width space is shown escaped anyway)
def test_a_listed_name_that_differs_only_by_whitespace_is_shown_with_it(project, cli, fake, listed, shown):
    """From the attack on issue 28: /api/tags listing "m:latest\\n" (or "m ") gave "model 'm' is not
    pulled ... pick one it has: m:latest.", the very name asked for: the whitespace that makes
    it differ was flattened away. A name whose difference cannot be seen is shown quoted, escaped."""
    fake.models = [listed, "qwen2.5:7b"]
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--model", "m")
    assert code == 2 and f"pick one it has: {shown}, qwen2.5:7b." in err, err


@pytest.mark.parametrize("api", ["ollama", "openai"])
@pytest.mark.parametrize("option, flag", [("temperature =0.9", "--temperature"), (" seed=77", "--seed"),
                                          ("\ttemperature\t=1", "--temperature")])
def test_temperature_or_seed_with_spaces_around_its_name_is_refused_as_without(project, cli, fake, api, option, flag):
    """--option "temperature =0.9" passed the guard (it compared the name before stripping it) and
    was sent over --temperature, while the run recorded temperature 0.0: refused as temperature=0.9 is."""
    code, out, err = cli("run", "--split", "dev", "--api", api, "--host", fake.url, "--option", option, "--limit", 2)
    assert code == 2 and f"use {flag}" in err and len(err.splitlines()) == 1, err
    assert fake.chat_bodies == []


@pytest.mark.parametrize("api", ["ollama", "openai"])
def test_an_option_that_opens_a_quote_and_does_not_close_it_is_refused(project, cli, fake, api):
    """stop="[/INST] (no closing quote) was sent as a text with the quote in it; a value that begins
    with " was meant as a JSON string, as one that begins with [ or { was meant as JSON."""
    for option in ('stop="[/INST]', 'stop="\\x00"', 'stop= "END'):
        code, out, err = cli("run", "--split", "dev", "--api", api, "--host", fake.url, "--option", option,
                             "--limit", 2)
        assert code == 2 and len(err.splitlines()) == 1 and "is not JSON" in err, (option, err)
    assert fake.chat_bodies == []


def test_a_refused_option_is_shown_cut_short_and_with_its_tabs_escaped(project, cli, fake):
    """A 200 kB --option x=[[[... gave a 200 kB error line; a tab in it went out raw."""
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--option", "stop=[" * 40000)
    assert code == 2 and len(err) < 1000 and "…" in err, len(err)
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--option", "stop=[\t'END']")
    assert code == 2 and "\t" not in err and "stop=[\\t'END']" in err, err


def test_an_option_refused_by_its_name_or_type_is_one_short_line(project, cli, fake):
    """From the self-attack on the --option minor points: the errors for a name Ollama lacks and for a
    value of the wrong type showed the name raw (a line break in it printed a line of its own) and
    the value whole."""
    for option in ("a\nAccuracy: 100%=1", "num_predict=[" + "1," * 50000 + "1]", "x" * 5000 + "=1"):
        code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--option", option, "--limit", 2)
        assert code == 2 and len(err.splitlines()) == 1 and len(err) < 1000, (option[:20], err[:300])
    assert fake.chat_bodies == []


def test_a_contributors_own_prompts_and_sets_stay_out_of_the_tests(request, fake):
    """Newcomer pass N13: after adding prompts/v4.txt, as the README invites, the suite failed
    (runs/dev-v3.json not found): every test's project copied the working tree's prompts/ and golden/.
    It copies what the repository ships (the files git tracks, edits included), nothing a user added."""
    added = [ROOT / "prompts" / "v98.txt", ROOT / "golden" / "mine-n13.jsonl"]
    for path in added:
        assert not path.exists()
        path.write_text("Clasifica.\n")
    try:
        project = request.getfixturevalue("project")
    finally:
        for path in added:
            path.unlink()
    assert not (project / "prompts" / "v98.txt").exists() and not (project / "golden" / "mine-n13.jsonl").exists()
    assert (project / "prompts" / "v3.txt").exists() and (project / "golden" / "labels.txt").exists()
    fake.answers = answer_key("golden/dev.jsonl")
    assert evalpy.main(["run", "--split", "dev", "--host", fake.url]) == 0 and load_json("runs/dev-v3.json")["config"]["prompt"] == "prompts/v3.txt"


def hostile_answer(body, chat):
    """chat(client) against a server that answers every POST with body (bytes) as it stands."""
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
    import threading

    class Hostile(BaseHTTPRequestHandler):
        def do_POST(self):
            self.rfile.read(int(self.headers.get("Content-Length", 0)))
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *a):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Hostile)
    threading.Thread(target=server.serve_forever, args=(0.02,), daemon=True).start()
    try:
        return chat(f"http://127.0.0.1:{server.server_address[1]}")
    finally:
        server.shutdown()


def call_over(api, arguments, monkeypatch):
    """The call a server sends with arguments written as the model wrote them (JSON text): inside
    Ollama's body as it stands (an object there), as a JSON string in OpenAI's."""
    monkeypatch.setattr(evalpy, "RETRY_BASE_SECONDS", 0.01)
    if api == "ollama":
        body = ('{"model": "m", "done": true, "message": {"role": "assistant", "content": "", "tool_calls": '
                '[{"function": {"name": "lookup_order", "arguments": %s}}]}}' % arguments).encode()
    else:
        body = json.dumps({"choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
            "role": "assistant", "content": None,
            "tool_calls": [{"id": "c", "type": "function", "function": {"name": "lookup_order", "arguments": arguments}}]}}]}).encode()
    tools = [{"type": "function", "function": {"name": "lookup_order", "parameters": {
        "type": "object", "properties": {"order_id": {"type": "string"}}}}}]
    return hostile_answer(body, lambda url: evalpy.CLIENTS[api](url, retries=0).chat(
        "m", [{"role": "user", "content": "hola"}], {}, tools=tools)), tools


@pytest.mark.parametrize("arguments, why", [
    ('{"order_id": "A-9", "order_id": "A-1"}', "key 'order_id' is given twice"),
    ('{"order_id": "A-1", "n": NaN}', "NaN is not a number"),
    ('{"order_id": "A-1", "big": 1e999, "small": -Infinity}', "1e999 is too large a number"),
    ('{"order_id": "A-1", "deep": [{"a": 1, "a": 2}]}', "key 'a' is given twice"),
])
def test_a_calls_arguments_are_read_alike_over_both_apis(arguments, why, monkeypatch):
    """From the fifth attack on issue 28, items 1 and 2: Ollama's arguments, an object inside the body,
    went through plain json.loads: a key given twice was read as its last value (the rule for A-1
    answered a call that also said A-9), NaN and 1e999 were taken as numbers and written into the run
    file as NaN and Infinity, which JSON has not. The same model output over OpenAI (a string, read
    with exact_json) fails valid arguments: over both it is now the same call, scored the same."""
    seen = {}
    for api in ("ollama", "openai"):
        answer, tools = call_over(api, arguments, monkeypatch)
        assert answer["error"] is None, answer
        call = answer["tool_calls"][0]
        assert evalpy.call_arguments(call) is None   # neither value of the key, no rule matches it
        seen[api] = evalpy.call_problem(call, tools)
        assert why in seen[api], seen
        def refuse(name):
            raise ValueError(name)
        json.loads(evalpy.json_text(answer), parse_constant=refuse)   # the run file stays JSON
    assert seen["ollama"] == seen["openai"]


@pytest.mark.parametrize("api", ["ollama", "openai"])
@pytest.mark.parametrize("where", ["content", "name", "tool_calls"])
def test_a_server_answer_giving_a_key_twice_is_an_error_never_its_last_value(api, where, monkeypatch):
    """From the fifth attack on issue 28, item 1: a message's content or tool_calls, or a call's
    name, given twice in the body was silently read as the last one."""
    monkeypatch.setattr(evalpy, "RETRY_BASE_SECONDS", 0.01)
    name = '"name": "x", "name": "y"' if where == "name" else '"name": "x"'
    args = '{}' if api == "ollama" else '"{}"'
    calls = '[{"id": "c", "type": "function", "function": {%s, "arguments": %s}}]' % (name, args)
    message = ('{"role": "assistant", "content": "a"%s, "tool_calls": %s%s}'
               % (', "content": "b"' if where == "content" else "", calls,
                  ', "tool_calls": []' if where == "tool_calls" else ""))
    body = ('{"model": "m", "done": true, "message": %s}' % message if api == "ollama"
            else '{"choices": [{"index": 0, "finish_reason": "stop", "message": %s}]}' % message).encode()
    tools = [{"type": "function", "function": {"name": "x", "parameters": {"type": "object"}}}]
    answer = hostile_answer(body, lambda url: evalpy.CLIENTS[api](url, retries=0).chat(
        "m", [{"role": "user", "content": "hola"}], {}, tools=tools))
    key = {"content": "content", "name": "name", "tool_calls": "tool_calls"}[where]
    assert answer["response"] is None and f"key '{key}' is given twice" in answer["error"], answer


def test_ollama_arguments_that_are_nan_are_no_object(monkeypatch):
    """Attack on the fix above: only an object's arguments are kept as sent; arguments that are NaN
    are a number, refused as 5 is (never a call with unreadable arguments)."""
    answer, _ = call_over("ollama", "NaN", monkeypatch)
    assert answer["response"] is None and "call 1's function.arguments is a number, not an object" in answer["error"], answer


@pytest.mark.parametrize("big", ["1" * 5000, "-" + "9" * 4301], ids=["5000", "minus-4301"])
def test_a_calls_integer_too_long_for_python_is_kept_as_sent_like_1e999(big, monkeypatch):
    """From the sixth attack on issue 28, item 2: an integer argument of over 4,300 digits hit Python's
    int-digits limit: over Ollama the answer was "not JSON" (retried, resumed for ever), over OpenAI the
    message gave Python's advice (sys.set_int_max_str_digits). Like 1e999: kept as sent, the call's
    arguments invalid, the message about the number, short."""
    seen = {}
    for api in ("ollama", "openai"):
        answer, tools = call_over(api, '{"order_id": "A-1", "n": %s}' % big, monkeypatch)
        assert answer["error"] is None, answer
        call = answer["tool_calls"][0]
        assert evalpy.call_arguments(call) is None
        seen[api] = evalpy.call_problem(call, tools)
        assert "is too large a number" in seen[api] and "digits" in seen[api], seen
        assert "sys." not in seen[api] and len(seen[api]) < 200, seen
        assert big in evalpy.json_text(answer)   # kept as sent
    assert seen["ollama"] == seen["openai"]


def raw_server(bodies):
    """A server answering each path (GET or POST) with bodies[path] (bytes) as it stands, else 404."""
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
    import threading

    class Raw(BaseHTTPRequestHandler):
        def answer(self):
            self.rfile.read(int(self.headers.get("Content-Length", 0)))
            body = bodies.get(self.path.split("?")[0])
            self.send_response(200 if body is not None else 404)
            self.send_header("Content-Length", str(len(body or b"")))
            self.end_headers()
            self.wfile.write(body or b"")
        do_GET = do_POST = answer

        def log_message(self, *a):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Raw)
    threading.Thread(target=server.serve_forever, args=(0.02,), daemon=True).start()
    return server


@pytest.mark.parametrize("api, path, body, key", [
    ("ollama", "/api/tags", b'{"models": [{"name": "m:latest"}], "models": []}', "models"),
    ("ollama", "/api/version", b'{"version": "0.5.0", "version": "0.9.0"}', "version"),
    ("ollama", "/api/show", b'{"capabilities": ["completion"], "capabilities": ["tools"]}', "capabilities"),
    ("openai", "/v1/models", b'{"data": [{"id": "m"}], "data": [{"id": "other"}]}', "data"),
])
def test_an_answer_before_the_run_giving_a_key_twice_is_refused(api, path, body, key):
    """From the sixth attack on issue 28 (minor): the answers read before a run (/api/tags, /api/show,
    /api/version, /v1/models) went through plain json.loads, so a key given twice was read as its last
    value (another version recorded, another list of models). Read as JSON is, as every other answer."""
    server = raw_server({path: body})
    try:
        client = evalpy.CLIENTS[api](f"http://127.0.0.1:{server.server_address[1]}", retries=0)
        with pytest.raises(evalpy.EvalError, match=f"key '{key}' is given twice"):
            client.get_json(path.removeprefix("/v1"), {"model": "m"} if path == "/api/show" else None)
    finally:
        server.shutdown()


def test_a_server_version_holding_a_line_separator_is_shown_escaped(project, cli, fake):
    """From the sixth attack on issue 28 (minor): the run's first line showed the server's version
    with one_line, which makes a space of U+2028: the version shown was not the one stored."""
    fake.version = "0.1\u2028forged"
    fake.answers = answer_key("golden/dev.jsonl")
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--limit", 1)
    assert code == 0, err
    assert "(ollama 0.1\\u2028forged)" in err, err


@pytest.mark.parametrize("fields, says", [
    ({"done_reason": "load", "message": {"role": "assistant", "content": ""}},
     "the server answered as to a request with no messages (done_reason 'load'), not with the model's answer"),
    ({"done_reason": "unload"}, "the server answered as to a request with no messages (done_reason 'unload'), not with the model's answer"),
    ({"done": False}, 'the server\'s answer says it is not done ("done": false): a piece of an answer, not all of it'),
    # attack 42: a done that is no bool was taken for a whole answer
    ({"done": "false"}, 'the server\'s answer has "done": "false", which is neither true nor false: no telling whether it is '
                        'the whole answer'),
    ({"done": None}, 'the server\'s answer has "done": null, which is neither true nor false: no telling whether it is '
                     'the whole answer'),
    # (69th attack) another model's name: a proxy that fell back, whose answers were scored as qwen2.5:7b's
    ({"model": "llama3.2:1b"}, "the server answered as model llama3.2:1b, not qwen2.5:7b (a proxy or router that fell "
                               "back to another?)"),
])
def test_an_answer_to_no_messages_or_a_piece_of_a_stream_is_no_answer(project, cli, fake, fields, says):
    """Attack 41: done_reason "load" with an empty content (Ollama's answer to a request with no messages:
    server/routes.go ChatHandler) was stored as the model's answer "" and scored INVALID; "done": false (a
    piece of a stream) as a whole answer. Each is a failed call, asked again, never the model's answer."""
    fake.answers = answer_key("golden/dev.jsonl")
    fake.extra_fields = fields
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--limit", 2, "--retries", 1)
    results = load_json("runs/dev-v3.json")["results"]
    assert code == 2 and [(r["response"], r["error"], r["attempts"]) for r in results] == [(None, says, 2)] * 2, err


def test_the_first_piece_of_a_stream_alone_is_never_taken_for_a_repeat_stop(project, cli, fake):
    """Round 109: a server streaming though "stream": false was sent, one line (done false, no done_reason, as
    application/x-ndjson), was stored as the model's whole answer "fact", said stopped for repeating itself (a token
    over 30 times), scored. Ollama sends its repeat stop as application/json: a stream's piece is said so, not retried."""
    fake.answers = answer_key("golden/dev.jsonl")
    first = json.loads(Path("golden/dev.jsonl").read_text().splitlines()[0])["input"]
    fake.faults_for = {first: ["stream_piece"] * 3}
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--limit", 1, "--out", "runs/s.json")
    result = load_json("runs/s.json")["results"][0]
    assert code == 2 and result["response"] is None and result["attempts"] == 1, (err, result)
    assert result["error"] == ('the server streamed its answer (its first piece alone, "done": false, Content-Type '
                               'application/x-ndjson) though the request said "stream": false: a server or proxy that '
                               "ignores it; point --host at one that answers whole"), result


@pytest.mark.parametrize("api", ["ollama", "openai"])
def test_an_answer_ollama_stopped_for_repeating_itself_is_the_models_and_asked_once(project, cli, fake, api):
    """Round 103 (audit of the fake against Ollama's source): Ollama stops a model that repeats one token over 30 times
    and answers "stream": false with what it said so far, done false and no done_reason (llm/llama_server.go, server/
    routes.go writeChatResponse). eval.py read it as a piece of a stream: asked again (the same loop at temperature 0),
    then stored as an error and left out of the figures, where /v1 (finish_reason null) scored it. The model's own
    failure is its answer: stored once, said apart, scored."""
    key = answer_key("golden/dev.jsonl")
    fake.answers = key
    first = json.loads(Path("golden/dev.jsonl").read_text().splitlines()[0])["input"]
    fake.faults_for = {first: ["repeat"] * 3}
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--limit", 2, "--retries", 2,
                         *(["--api", "openai"] if api == "openai" else []), "--out", "runs/r.json")
    results = load_json("runs/r.json")["results"]
    assert code == 0 and results[0]["error"] is None and results[0]["response"] == "ja " * 40, err
    assert results[0]["attempts"] == 1 and fake.faults_for[first] == ["repeat"] * 2, results[0]
    # (round 104) over /v1 too: Ollama's answers there name it (openai/openai.go toChatCompletion: SystemFingerprint
    # "fp_ollama"), and its finish_reason null is that stop's alone (a reason "only if len(reason) > 0")
    assert results[0]["done_reason"] == "repeat", results[0]
    # (139th round) over /v1 its usage then is zeros, Ollama's placeholder for counts it never had: unknown, as /api/chat's
    assert results[0]["prompt_tokens"] is None and results[0]["completion_tokens"] is None, results[0]
    report = cli("report", "runs/r.json")[1]
    assert "\nInvalid answers: 1\n" in report, report
    assert "Stopped for repeating itself: 1 (dev-01): the server stopped the model for looping (Ollama when it gave one token" in report, report
    assert "stopped by its server for repeating itself" in cli("report", "runs/r.json", "--case", "dev-01")[1]
    item = evalpy.review_items(load_json("runs/r.json"))[0]   # (and the review page, beside the answer)
    assert "stopped by its server for repeating itself (it looped)" in item["stopped"], item
    if api == "openai":   # another server's null is not read as Ollama's stop
        fake.native_api, fake.faults_for = False, {first: ["repeat"]}
        assert cli("run", "--split", "dev", "--host", fake.url, "--limit", 1, "--api", "openai", "--out", "runs/o.json")[0] == 0
        assert load_json("runs/o.json")["results"][0]["done_reason"] is None


def test_a_model_swapped_while_the_run_goes_on_where_no_digest_is_given_is_caught_at_its_end(project, cli, fake):
    """Round 127 left it open: over a server of Ollama's API that names no digest, a model swapped while the run went on
    (another family, size or quantization in /api/tags after the fourth answer) passed unseen to its end, exit 0 (a
    resume and compare caught it, the run itself never). What /api/tags said of it stands for its digest there."""
    fake.digests["qwen2.5:7b"] = ""
    swapped = {"models": [{"name": "qwen2.5:7b", "model": "qwen2.5:7b", "modified_at": "2026-11-02T09:14:51+01:00",
                           "size": 4683087332, "digest": "", "details": {
                               "format": "gguf", "family": "llama", "families": ["llama"], "parameter_size": "8.0B",
                               "quantization_level": "Q4_K_M"}}]}
    fake.listed_after = (4, "/api/tags", swapped)
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--limit", 8, "--out", "runs/two.json")
    assert code == 2 and not os.path.exists("runs/two.json.journal"), err
    replaced = load_json("runs/two.json")["config"]["replaced"]
    assert replaced == [{"who": "the model", "model": "qwen2.5:7b", "was": "details:qwen2 7.6B Q4_K_M",
                         "now": "details:llama 8.0B Q4_K_M"}], replaced
    said = ("WARNING: the model qwen2.5:7b was replaced while it was asked (its /api/tags named no digest, and said "
            "qwen2 7.6B Q4_K_M at the start, llama 8.0B Q4_K_M after the last call: another model?): its answers may "
            "come from two models")
    assert said in err, err
    assert said in cli("report", "runs/two.json")[1]
    code, out, err = cli("run", "--resume", "runs/two.json", "--host", fake.url)   # (a finished run: nothing to resume)
    assert code == 2 and "Traceback" not in err, err
    # (128th round) begun on a digest, which the server no longer gives at the end, naming another family: replaced,
    # where "could not ask" was said, exit 0
    del fake.digests["qwen2.5:7b"]
    fake.listings.clear()
    fake.listed_after = (len(fake.chat_bodies) + 4, "/api/tags", swapped)
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--limit", 8, "--out", "runs/five.json")
    began = fake.digest("qwen2.5:7b")
    assert code == 2 and load_json("runs/five.json")["config"]["replaced"] == [
        {"who": "the model", "model": "qwen2.5:7b", "was": began, "now": "details:llama 8.0B Q4_K_M"}], err
    # (its review: "named no digest" was said of a run begun with one)
    assert (f"WARNING: the model qwen2.5:7b was replaced while it was asked (digest {began[:8]} at the start, none after "
            "the last call, where its /api/tags said llama 8.0B Q4_K_M: another model?)") in err, err
    assert "could not ask" not in err, err
    # (its review) over Ollama's /v1 alike: the digest gone, another family said
    fake.listings.clear()
    fake.listed_after = (len(fake.chat_bodies) + 4, "/api/tags", swapped)
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--limit", 8, "--api", "openai", "--out", "runs/six.json")
    assert code == 2 and load_json("runs/six.json")["config"]["replaced"][0]["now"] == "details:llama 8.0B Q4_K_M", err
    # (its review) a name listed twice with no digest, as two models by what is said of them: refused before any call
    fake.listings["/api/tags"] = {"models": [swapped["models"][0], dict(swapped["models"][0], details={
        "family": "qwen2", "parameter_size": "7.6B", "quantization_level": "Q4_K_M"})]}
    asked = len(fake.chat_bodies)
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--limit", 8, "--out", "runs/seven.json")
    assert code == 2 and "lists it 2 times with different details and no digest (llama 8.0B Q4_K_M; qwen2 7.6B " \
        "Q4_K_M): two models answer to that name" in err and len(fake.chat_bodies) == asked, err
    # (its third review) over Ollama's /v1 with no digest at all: a swap caught at the end, a name listed twice refused
    fake.digests["qwen2.5:7b"] = ""
    fake.listings.clear()
    fake.listed_after = (len(fake.chat_bodies) + 4, "/api/tags", swapped)
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--limit", 8, "--api", "openai", "--out",
                         "runs/nine.json")
    assert code == 2 and load_json("runs/nine.json")["config"]["replaced"] == replaced, err
    fake.listings.clear()   # (its third review) no longer listed at the end over /v1: said, where it passed unsaid
    fake.listed_after = (len(fake.chat_bodies) + 4, "/api/tags", {"models": []})
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--limit", 8, "--api", "openai", "--out",
                         "runs/nine2.json")
    assert code == 0 and " again what the model qwen2.5:7b is now (its /api/tags no longer says what it is); the run " \
        "records what its /api/tags said at the start, qwen2 7.6B Q4_K_M" in err, err
    fake.listed_after = None
    fake.listings["/api/tags"] = {"models": [swapped["models"][0], dict(swapped["models"][0], details={
        "family": "qwen2", "parameter_size": "7.6B", "quantization_level": "Q4_K_M"})]}
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--limit", 8, "--api", "openai", "--out",
                         "runs/ten.json")
    assert code == 2 and "lists it 2 times with different details and no digest" in err, err
    del fake.digests["qwen2.5:7b"]
    # (its review) one entry's blank size is unsaid: no two models; 2,000 entries alike are read at once
    fake.listings["/api/tags"] = {"models": [swapped["models"][0], dict(swapped["models"][0], details={
        "family": "llama", "parameter_size": " ", "quantization_level": "Q4_K_M"})] + [swapped["models"][0]] * 2000}
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--limit", 2, "--out", "runs/blank.json")
    assert code == 0 and "different details" not in err, err
    fake.listings.clear()
    # (its review) a server's digest that begins "details:" is a digest: one changed is told as re-pulled
    fake.digests["qwen2.5:7b"], fake.listed_after = "details:abc", None
    fake.replace_after = (len(fake.chat_bodies) + 4, "qwen2.5:7b", "e7" * 32)
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--limit", 8, "--out", "runs/eight.json")
    assert code == 2 and load_json("runs/eight.json")["config"]["replaced"][0]["now"] == "e7" * 32, err
    fake.replace_after = None
    del fake.digests["qwen2.5:7b"]
    fake.digests["qwen2.5:7b"] = ""
    fake.listings.clear()
    fake.listed_after = (len(fake.chat_bodies) + 2, "/api/tags", {"models": 3})   # (asked again, and no list came)
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--limit", 8, "--out", "runs/four.json")
    assert code == 0 and "note: could not ask http://127.0.0.1:" in err and " again what the model qwen2.5:7b is now (" \
        in err and "); the run records what its /api/tags said at the start, qwen2 7.6B Q4_K_M\n" in err, err
    fake.listings.clear()
    # the same family, size and quantization said at the end (nothing swapped), or fewer fields said: no warning
    fake.listed_after = (len(fake.chat_bodies) + 2, "/api/tags", {"models": [dict(swapped["models"][0], details={
        "family": "qwen2", "parameter_size": "7.6B"})]})
    fake.listings.clear()
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--limit", 8, "--out", "runs/three.json")
    assert code == 0 and "replaced" not in load_json("runs/three.json")["config"] or not load_json(
        "runs/three.json")["config"]["replaced"], err
    assert "WARNING" not in err, err


def test_a_name_listed_with_a_digest_and_again_without_one_as_another_model_is_refused(project, cli, fake):
    """129th round: a name listed twice, once with a digest and once with none, the two said to be other families (a
    proxy joining Ollama and a server naming no digest) passed: one digest was read as one model, though either may
    answer. Refused before any call, over Ollama's API and its /v1; the same details said twice are one model."""
    entry = {"name": "qwen2.5:7b", "model": "qwen2.5:7b", "modified_at": "2026-11-02T09:14:51+01:00", "size": 4683087332,
             "digest": "a1" * 32, "details": {"format": "gguf", "family": "qwen2", "parameter_size": "7.6B",
                                               "quantization_level": "Q4_K_M"}}
    other = dict(entry, digest="", details={"format": "gguf", "family": "llama", "parameter_size": "8.0B",
                                             "quantization_level": "Q4_K_M"})
    for api in ("ollama", "openai"):
        fake.listings["/api/tags"] = {"models": [entry, other]}
        asked = len(fake.chat_bodies)
        code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--limit", 2, "--api", api, "--out",
                             f"runs/{api}.json")
        assert code == 2 and "lists it 2 times with different details, not each with a digest (llama 8.0B Q4_K_M; " \
            "qwen2 7.6B Q4_K_M): two models answer to that name" in err and len(fake.chat_bodies) == asked, (api, err)
        fake.listings["/api/tags"] = {"models": [entry, dict(other, details=entry["details"])]}
        code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--limit", 2, "--api", api, "--out",
                             f"runs/{api}-alike.json")
        assert code == 0 and "different details" not in err, (api, err)


def test_details_said_again_differing_in_case_alone_are_one_model_and_a_failing_list_is_said_so(project, cli, fake):
    """129th round: where no digest is named, a quantization said again in other case (Q4_K_M, then q4_k_m: a proxy's
    spelling) was a model replaced (exit 2) and a resume refused; and over Ollama's /v1, an /api/tags answering 500 at
    the run's end was said to 'no longer say what it is'."""
    fake.digests["qwen2.5:7b"] = ""
    entry = {"name": "qwen2.5:7b", "model": "qwen2.5:7b", "modified_at": "2026-11-02T09:14:51+01:00", "size": 4683087332,
             "digest": "", "details": {"format": "gguf", "family": "qwen2", "parameter_size": "7.6B",
                                       "quantization_level": "Q4_K_M"}}
    lower = {"models": [dict(entry, details=dict(entry["details"], family="Qwen2", quantization_level="q4_k_m"))]}
    for api in ("ollama", "openai"):
        fake.listings["/api/tags"] = {"models": [entry]}
        fake.listed_after = (len(fake.chat_bodies) + 4, "/api/tags", lower)
        code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--limit", 8, "--api", api, "--out",
                             f"runs/{api}.json")
        assert code == 0 and load_json(f"runs/{api}.json")["config"].get("replaced") is None and "replaced" not in err, err
    fake.listed_after = None
    fake.listings["/api/tags"] = {"models": [entry]}
    fake.listings.clear()
    fake.listings["/api/tags"] = {"models": [entry]}
    fake.errors_after = (len(fake.chat_bodies) + 4, "/api/tags", 500, "internal error")
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--limit", 8, "--api", "openai", "--out",
                         "runs/failing.json")
    assert code == 0 and "what the model qwen2.5:7b is now (its /api/tags answered HTTP 500); the run records what its " \
        "/api/tags said at the start, qwen2 7.6B Q4_K_M" in err and "no longer says" not in err, err


def test_a_model_replaced_while_the_run_goes_on_is_said_in_every_view(project, cli, fake):
    """Round 107: a model gone mid-run ("not found") then back under another digest answered the rest of the run, and
    the run file recorded the first digest alone; compare with a run of the first model then read "nothing in the
    configuration". After the last answer the server is asked again: a changed digest is recorded (config.replaced),
    every view warns of it, and the run exits 2. (Its review: refused and left in its journal, the run was a dead end
    every message called unfinished.)"""
    fake.answers = answer_key("golden/dev.jsonl")
    assert cli("run", "--split", "dev", "--host", fake.url, "--out", "runs/one.json", "--limit", 12)[0] == 0
    fake.replace_after = (len(fake.chat_bodies) + 4, "qwen2.5:7b", "e7" * 32)   # pulled again after 4 of the next run
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--limit", 12, "--out", "runs/two.json")
    warning = "WARNING: the model qwen2.5:7b was replaced while it was asked (digest "
    assert code == 2 and not os.path.exists("runs/two.json.journal"), err
    replaced = load_json("runs/two.json")["config"]["replaced"]
    assert replaced == [{"who": "the model", "model": "qwen2.5:7b", "was": evalpy.hashlib.sha256(b"qwen2.5:7b").hexdigest(),
                         "now": "e7" * 32}], replaced
    assert warning in err and "e7e7e7e7 after the last call: re-pulled?): its answers may come from two models" in err, err
    for flags in ((), ("--markdown",)):
        assert "may come from two models" in cli("report", "runs/two.json", *flags)[1]
    assert json.loads(cli("report", "runs/two.json", "--json")[1])["replaced"] == replaced
    assert cli("report", "runs/two.json", "--html", "page.html")[0] == 0
    assert "may come from two models" in Path("page.html").read_text(encoding="utf-8")
    code, out, err = cli("report", "runs/two.json", "--min-accuracy", "0.5")   # no gate passes or fails it
    assert code == 2 and "gates not judged: the model qwen2.5:7b was replaced while it was asked" in err, err
    out = cli("compare", "runs/one.json", "runs/two.json")[1]
    assert "may come from two models" in out and "Changed: nothing in the configuration as recorded, but a model" in out, out
    # (its review) three runs compared, and a grid whose run had its model replaced: said, and exit 2
    assert cli("run", "--split", "dev", "--host", fake.url, "--prompt", "prompts/v2.txt", "--limit", 12, "--out",
               "runs/v2.json")[0] == 0
    out = cli("compare", "runs/one.json", "runs/two.json", "runs/v2.json")[1]
    assert "runs/two.json: WARNING: the model qwen2.5:7b was replaced" in out, out
    assert "may come from two models" in cli("compare", "runs/one.json", "runs/two.json", "runs/v2.json", "--markdown")[1]
    fake.models.append("llama3.2:3b")
    fake.replace_after = (len(fake.chat_bodies) + 4, "llama3.2:3b", "f6" * 32)
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--model", "qwen2.5:7b", "--model", "llama3.2:3b",
                         "--limit", 3, "--out", "grid/")
    assert code == 2 and "WARNING: the model llama3.2:3b was replaced" in out + err, err
    code, out, err = cli("compare", "runs/one.json", "runs/two.json", "--fail-on-regression")
    assert code == 2 and "gates not judged: candidate run: the model qwen2.5:7b was replaced" in err, err
    assert "(model replaced while it ran)" in cli("runs", "runs")[1]
    assert "may come from two models" in evalpy.Review("runs/two.json").data()["replaced"]   # (its review) the page too
    # (its review) a resume of its errors, the model back on its first digest or not, is refused: it said it would be
    broken = load_json("runs/two.json")
    broken["results"][0].update(response=None, error="HTTP 500: boom")
    write_run("runs/broken.json", broken)
    code, out, err = cli("run", "--resume", "runs/broken.json", "--host", fake.url)
    assert code == 2 and err.startswith("error: refusing to resume: the model qwen2.5:7b was replaced"), err
    fake.replace_after = None
    fake.digests.clear()   # the same model throughout: no warning
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--out", "runs/three.json", "--limit", 2)
    assert code == 0 and "replaced" not in load_json("runs/three.json")["config"], err
    # (round 124's hostile Ollama) a digest no longer given at the end was passed over as checked, unsaid
    fake.replace_after = (len(fake.chat_bodies) + 1, "qwen2.5:7b", "")
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--out", "runs/four.json", "--limit", 2)
    assert code == 0 and (f"note: could not ask {fake.url} again which digest the model qwen2.5:7b is now (it no longer "
                          "says which digest it is); the run records the one it began with") in err, err


def test_a_stop_as_the_run_asks_again_which_model_answered_says_where_every_answer_is(project, cli, fake, monkeypatch):
    """Round 107 (kill and resume): a SIGTERM while the run asked the server again, after its last answer, which digest
    its model is printed "interrupted" alone, neither the journal holding every answer nor the command that writes the
    run; the resume then writes it."""
    fake.answers = answer_key("golden/dev.jsonl")
    def stopped(*args, **kwargs):
        raise KeyboardInterrupt
    asks_again = evalpy.models_replaced
    monkeypatch.setattr(evalpy, "models_replaced", stopped)
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--limit", 3)
    assert code == 2 and "interrupted after the last answer: every answer is kept in runs/dev-v3.json.journal; resume " \
        "with: python eval.py run --resume runs/dev-v3.json" in err, err
    monkeypatch.setattr(evalpy, "models_replaced", asks_again)
    asked = len(fake.chat_bodies)
    code, out, err = cli("run", "--resume", "runs/dev-v3.json", "--host", fake.url)
    assert code == 0 and len(fake.chat_bodies) == asked, err
    assert len(load_json("runs/dev-v3.json")["results"]) == 3


def test_a_name_listed_twice_with_two_digests_is_refused(project, cli, fake):
    """Round 107: /api/tags listing mistral and mistral:latest (or one name twice, behind a proxy joining two servers)
    with two digests: the run recorded whichever came first, and compare of a run asked `mistral` against one asked
    `mistral:latest` said "the model was re-pulled or replaced under the same name"."""
    fake.models += ["mistral", "mistral:latest"]   # (the fake's digests: one per name as listed)
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--model", "mistral:latest")
    assert code == 2 and fake.chat_bodies == [], err
    assert "model 'mistral:latest': " in err and " lists it 2 times with different digests (" in err, err
    fake.models.remove("mistral")   # one listing: asked as it is
    fake.answers = answer_key("golden/dev.jsonl")
    assert cli("run", "--split", "dev", "--host", fake.url, "--model", "mistral", "--limit", 1)[0] == 0
    # (round 108) listed twice only after the last answer: said so, never "digest more tha" as if it were a hash
    fake.route = lambda body: fake.models.append("mistral") if "mistral" not in fake.models else None
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--model", "mistral", "--limit", 1, "--out", "runs/m.json")
    assert code == 2 and "more tha" not in err and "more tha" not in cli("report", "runs/m.json")[1], err
    assert "the model mistral was listed twice, with different digests, after the last call (digest " in err, err
    assert "(model listed twice at its end)" in cli("runs", "runs")[1]   # (its review: not "replaced")
    # (125th round) a name alike but for case pulled while the run went on: "could not ask ... again", exit 0
    fake.models.remove("mistral")
    fake.route = lambda body: fake.models.append("Mistral:latest") if "Mistral:latest" not in fake.models else None
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--model", "mistral", "--limit", 1, "--out", "runs/c.json")
    assert code == 2 and "the model mistral was listed beside a name alike but for case after the last call (digest " \
        in err and "Ollama may have answered with either" in err and "could not ask" not in err, err
    assert load_json("runs/c.json")["config"]["replaced"][0]["now"] == evalpy.LISTED_ALIKE
    code, out, err = cli("report", "runs/c.json")
    assert "listed beside a name alike but for case" in out + err and "names al" not in out + err, out + err
    assert "(model listed beside a name alike but for case at its end)" in cli("runs", "runs")[1]
    # (126th round) one of the same digest (`ollama cp`): one manifest, the same model, never "two models"
    fake.models.remove("Mistral:latest")
    fake.digests["Mistral:latest"] = fake.digest("mistral:latest")
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--model", "mistral", "--limit", 1, "--out", "runs/d.json")
    assert code == 0 and "replaced" not in load_json("runs/d.json")["config"] and "alike" not in err, err


def test_a_server_version_of_megabytes_is_kept_cut_as_a_digest_is(project, cli, fake):
    """Round 107: /api/version's "version" was stored whole (4 MB in the run file) and compare printed it on one 4 MB
    line; a digest is cut to ENTRY_TEXT characters for that very reason."""
    fake.answers = answer_key("golden/dev.jsonl")
    fake.version = "1." + "9" * 100_000
    assert cli("run", "--split", "dev", "--host", fake.url, "--limit", 1)[0] == 0
    assert load_json("runs/dev-v3.json")["config"]["server_version"] == fake.version[:evalpy.ENTRY_TEXT]
    assert len(evalpy.shown("server_version", "1." + "9" * 100_000)) <= evalpy.ENTRY_TEXT   # a hand-edited one: cut as shown


@pytest.mark.parametrize("api", ["ollama", "openai"])
def test_a_message_sent_back_as_the_users_is_no_answer(project, cli, fake, api):
    """Round 107: a server that sent the request's own user turn back ({"role": "user", "content": the case's input})
    had the customer's text scored as the model's answer: checks on what the customer wrote passed. Ollama and OpenAI
    answer as the assistant only (server/routes.go ChatHandler: api.Message{Role: "assistant"})."""
    fake.answers = answer_key("golden/dev.jsonl")
    first = json.loads(Path("golden/dev.jsonl").read_text(encoding="utf-8").splitlines()[0])["input"]
    fake.faults_for = {first: ["echo_user"] * 2}
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--api", api, "--limit", 2, "--retries", 1,
                         "--out", "runs/echo.json")
    (r1, r2) = load_json("runs/echo.json")["results"]
    assert code == 2 and r1["response"] is None and r2["error"] is None, err
    assert r1["error"] == ('the server\'s answer is a message of role "user", not the assistant\'s: not the model\'s answer '
                           "(a server echoing the request?)"), r1["error"]


def test_an_answer_named_as_its_model_in_other_letters_is_its_models_and_another_size_is_not(project, cli, fake):
    """Ollama echoes the name asked (server/routes.go ChatHandler), in any case: QWEN2.5:7B is qwen2.5:7b's answer.
    (71st attack) qwen2.5:0.5b, of the same family, is another model: its answers were scored as qwen2.5:7b's."""
    fake.answers = answer_key("golden/dev.jsonl")
    fake.extra_fields = {"model": "QWEN2.5:7B"}
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--limit", 2)
    assert code == 0 and all(r["error"] is None for r in load_json("runs/dev-v3.json")["results"]), err
    fake.extra_fields = {"model": "qwen2.5:0.5b"}
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--limit", 1, "--retries", 0, "--out", "runs/s.json")
    assert code == 2 and load_json("runs/s.json")["results"][0]["error"].startswith(
        "the server answered as model qwen2.5:0.5b, not qwen2.5:7b"), err
    assert "1 case got no usable answer from the server" in err   # (73rd) an answer, of no use: not "no answer"
    assert evalpy.ollama_same_name("gpt-oss:20b", "gpt-oss:20b-cloud") and evalpy.ollama_same_name("gpt-oss:20b", "gpt-oss:20b:cloud")
    assert not evalpy.ollama_same_name("myorg/qwen2.5:7b", "qwen2.5:7b")
    # (72nd) Ollama's default registry and namespace name the same model; a registry's port is no tag
    assert evalpy.ollama_same_name("registry.ollama.ai/library/qwen2.5:7b", "qwen2.5:7b")
    assert evalpy.ollama_same_name("localhost:5000/m:latest", "localhost:5000/m")


def test_a_negative_or_fractional_token_count_from_a_server_is_no_count_and_is_said_once(project, cli, fake):
    """Issue 28 (ninth attack), item 8: prompt_eval_count -1000000 was dropped silently and
    eval_count 2.5 summed ("tokens 7.5"). Ollama's counts are ints (api/types.go Metrics:
    PromptEvalCount int, EvalCount int), none below 0: one otherwise is kept out of the figures,
    and said once per field, with what was sent."""
    fake.extra_fields = {"prompt_eval_count": -1000000, "eval_count": 2.5}
    code, out, err = cli("run", "--split", "dev", "--host", fake.url)
    assert code == 0, err
    assert "which is no count (a whole number, 0 to 2^53)" in err, err   # (round 108: 10**30 is whole, and above it)
    results = load_json("runs/dev-v3.json")["results"]
    assert {(r["prompt_tokens"], r["completion_tokens"]) for r in results} == {(None, None)}
    assert err.count("prompt_tokens") == 1 and "-1000000" in err
    assert "sent prompt_eval_count -1000000, which is no count" in err and "sent eval_count 2.5, which" in err, err
    assert err.count("completion_tokens") == 1 and "2.5" in err
    # (117th round) a count of more digits than Python converts (4,300) was said to be "Infinity", which was not sent
    fake.raw_values = {"five thousand nines": "9" * 5000}
    fake.extra_fields = {"prompt_eval_count": "five thousand nines"}
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--limit", "1", "--out", "long.json")
    assert code == 0 and "sent prompt_eval_count 9999" in err and "Infinity" not in err, err
    assert load_json("long.json")["results"][0]["prompt_tokens"] is None
    fake.raw_values = {}
    code, out, err = cli("report", "runs/dev-v3.json", "--json")
    speed = json.loads(out)["speed"]
    assert (speed["prompt_tokens"], speed["completion_tokens"]) == (None, None)
    # fourteenth attack, item 3: one side known, the other not: "36 (36 prompt + 0 completion)" read as a zero
    fake.extra_fields = {"eval_count": True}
    assert cli("run", "--split", "dev", "--host", fake.url, "--limit", "2", "--out", "half.json")[0] == 0
    text = cli("report", "half.json")[1]
    assert re.search(r"tokens +\d+ \(\d+ prompt \+ \? completion\)\n +partial: no answer sent a completion count\n", text), text
    run = load_json("half.json")   # 7.0 in a run file (edited; sixteenth attack's leftover) is 7: no "7.0" in a total
    run["results"][0]["prompt_tokens"] = 7.0
    Path("half.json").write_text(json.dumps(run))
    assert not re.search(r"tokens +\d+\.0", cli("report", "half.json")[1])
    fake.extra_fields = {"prompt_eval_count": 4096.0}   # a whole number all the same, kept as one
    assert cli("run", "--split", "dev", "--host", fake.url, "--limit", "1", "--out", "whole.json")[0] == 0
    assert load_json("whole.json")["results"][0]["prompt_tokens"] == 4096
    assert type(load_json("whole.json")["results"][0]["prompt_tokens"]) is int
    # eleventh attack: 1.7e308 (a float, whole) was made a 309-digit int that overflowed every rate, in
    # every view; a count sent as the API key was printed in the note, unscrubbed
    fake.extra_fields = {"prompt_eval_count": 1.7e308, "eval_count": "Bearer sk-TOPSECRET123456"}
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--limit", "2", "--out", "big.json")
    # (an Authorization value is removed whatever key was given: with Ollama's API none is, round 106)
    assert code == 0 and "Traceback" not in err and "TOPSECRET" not in err, err
    assert "sent eval_count" in err and "[API key removed]" in err or "[removed]" in err, err
    assert {(r["prompt_tokens"], r["completion_tokens"]) for r in load_json("big.json")["results"]} == {(None, None)}
    for view in ([], ["--json"], ["--markdown"]):
        assert cli("report", "big.json", *view)[0] == 0
    # a duration from the server below 0 (api/types.go Metrics: time.Duration, a signed int64) or past
    # 2^53 ns is no measure: kept out of the speed figures, the run file readable
    fake.extra_fields = {"eval_duration": -456789012, "total_duration": 1e300}
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--limit", "2", "--out", "slow.json")
    assert code == 0, err
    assert {(r["eval_duration_ns"], r["total_duration_ns"]) for r in load_json("slow.json")["results"]} == {(None, None)}
    # (seventeenth attack) noted once each, as a count is: they were dropped in silence
    assert err.count("note: ") == 2 and "sent eval_duration -456789012, which is no duration" in err, err
    assert "sent total_duration 1e+300, which is no duration" in err, err
    code, out, err = cli("report", "slow.json", "--json")
    assert code == 0 and json.loads(out)["speed"]["generation_tokens_per_s"] is None, err


def test_a_temperature_of_minus_zero_is_zero(project, cli, fake):
    """Fourteenth attack on issue 28 (minor): --temperature=-0 was stored as -0.0 and shown T=-0."""
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--temperature=-0", "--limit", "1", "--out", "z.json")
    assert code == 0, err
    stored = load_json("z.json")["config"]["temperature"]
    assert stored == 0 and str(stored) == "0.0" and "T=-0" not in cli("report", "z.json")[1] + cli("runs", ".")[1]
    run = load_json("z.json")   # a run file of before, or edited: read as 0 (fifteenth attack); its judge's too (sixteenth)
    run["config"]["temperature"] = -0.0
    run["config"]["judge"] = {"models": ["m"], "temperature": -0.0}
    Path("z.json").write_text(json.dumps(run))
    assert str(json.loads(cli("report", "z.json", "--json")[1])["config"]["judge"]["temperature"]) == "0.0"
    assert str(json.loads(cli("report", "z.json", "--json")[1])["config"]["temperature"]) == "0.0"
    Path("z.json").write_text(json.dumps(run))
    assert "T=-0" not in cli("report", "z.json")[1] + cli("runs", ".")[1]


def test_a_huge_identity_value_from_api_tags_is_cut_as_a_v1_entrys_is(project, cli, fake):
    """Issue 28, seventeenth attack (minor): a 5 MB digest in /api/tags was stored whole (a 5 MB run file),
    while a /v1/models entry's values are cut at 200 characters."""
    fake.digests = {"qwen2.5:7b": "a" * 5_000_000}
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--limit", "1", "--out", "r.json")
    assert code == 0, err
    assert load_json("r.json")["config"]["model_digest"] == "a" * evalpy.ENTRY_TEXT and os.path.getsize("r.json") < 100_000


def test_a_name_told_from_the_listed_one_by_its_tag_alone_is_not_said_to_differ_in_case(project, cli):
    """Round 106: a server listing "qwen2.5" (a proxy that drops the tag) asked for qwen2.5:latest noted "(Ollama
    matches names ignoring case)" of names that differ only in the tag; each reason is said where it holds."""
    from fake_ollama import FakeOllama
    for listed, asked, why in (("qwen2.5", "qwen2.5:latest", "a name without a tag is its :latest"),
                               ("qwen2.5:latest", "Qwen2.5", "Ollama matches names ignoring case; a name without a tag "
                                                             "is its :latest"),
                               ("qwen2.5:7b", "Qwen2.5:7B", "Ollama matches names ignoring case")):
        fake = FakeOllama(models=(listed,))
        fake.start()
        try:
            code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--model", asked, "--limit", 1,
                                 "--retries", 0, "--out", f"runs/{listed}.json")
        finally:
            fake.stop()
        assert f"note: {asked} is {listed} on {fake.url} ({why})\n" in err, err


@pytest.mark.parametrize("api, message, error", [
    ("ollama", {"role": "assistant", "content": 5}, "the server's answer's message.content is a number, not text: 5"),
    ("ollama", {"role": "assistant", "content": ["acceso"]},
     "the server's answer's message.content is a list, not text: [\"acceso\"]"),
    ("openai", {"role": "assistant", "content": {"text": "bug"}},
     "the server's answer's choices[0].message.content is an object, not text: {\"text\": \"bug\"}"),
    ("ollama", {"role": "assistant"}, "the server's answer had no message.content"),
])
def test_an_answer_whose_content_is_no_text_says_what_it_is(api, message, error, monkeypatch):
    """Round 106: content 5 or ["acceso"] was "the server's answer had no message.content", of an answer that had one."""
    body = json.dumps({"model": "m", "done": True, "done_reason": "stop", "message": message} if api == "ollama"
                      else {"choices": [{"index": 0, "message": message, "finish_reason": "stop"}]}).encode()
    monkeypatch.setattr(evalpy, "RETRY_BASE_SECONDS", 0.01)
    answer = hostile_answer(body, lambda url: evalpy.CLIENTS[api](url, retries=1).chat(
        "m", [{"role": "user", "content": "hola"}], {}))
    assert answer["response"] is None and answer["attempts"] == 2 and answer["error"] == error, answer


def test_a_host_from_the_environment_is_named_so_and_a_port_or_name_that_is_none_is_refused(project, cli, monkeypatch):
    """Round 106: a bad $OLLAMA_HOST was "host 'garbage!!': ..." naming no source, though no --host was typed; a port
    in Arabic digits passed isdigit() and a 300-letter name the pattern, each then "cannot reach ... ollama serve"."""
    monkeypatch.setenv("OLLAMA_HOST", "garbage!!")
    code, out, err = cli("run", "--split", "dev")
    assert code == 2 and err.startswith("error: $OLLAMA_HOST (no --host given): host 'garbage!!': "), err
    monkeypatch.setenv("OPENAI_BASE_URL", "garbage here")
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--model", "m")
    assert code == 2 and err.startswith("error: $OPENAI_BASE_URL (no --host given): host 'garbage here': "), err
    for host, says in (("127.0.0.1:١٨٧٣٠", "'١٨٧٣٠' is not a port"), ("a" * 70 + ".com:18730", "is not a host name")):
        code, out, err = cli("run", "--split", "dev", "--host", host)
        assert code == 2 and says in err and "cannot reach" not in err, err


def test_an_api_key_given_to_ollamas_api_is_refused_never_dropped_in_silence(project, cli, fake):
    """Round 106: `run --api-key K` with Ollama's API (the default) never sent the key, and said nothing: a server that
    wants one answered 401, told 'is --host pointing at an Ollama server?'."""
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--api-key", "sk-" + "x" * 30)
    assert code == 2 and err == ("error: --api-key is sent to an OpenAI-compatible server alone (--api openai), as its "
                                 "Bearer token; Ollama's API takes none: leave it out, or give --api openai\n"), err
    assert fake.chat_bodies == []


def test_a_client_of_a_recorded_address_never_names_ollama_host(project):
    """Round 106's review: judge, resume and pairwise ask at the address the run recorded, yet a check before them
    asked whether "--host (or $OLLAMA_HOST)" pointed at the server; only a new run reads the variable."""
    import argparse
    args = argparse.Namespace(host=None, timeout=5, retries=0, jobs=1, api_key=None)
    client = evalpy.make_client({"api": "ollama", "host": "http://127.0.0.1:9"}, args, recorded="runs/x.json")
    assert "OLLAMA_HOST" not in client.host_words and "runs/x.json" in client.host_words
    assert "OLLAMA_HOST" in evalpy.make_client({"api": "ollama", "host": "http://127.0.0.1:9"}, args).host_words


def test_a_401_before_ollama_is_never_told_to_give_a_key_eval_py_would_refuse(project, cli, fake):
    """Round 106's review: five 401s over Ollama's API (a proxy that wants a key) stopped the run saying "give the key
    it takes (--api-key or $OPENAI_API_KEY), then resume", and a resume with --api-key is refused: a loop."""
    fake.faults = ["401"] * 10
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--jobs", 1, "--retries", 0)
    assert code == 2 and "refused 5 calls in a row for their API key" in err, err
    assert "reach Ollama without what wants a key (eval.py sends Ollama's API none)" in err and "--api-key" not in err, err


def test_a_404_page_not_ollamas_is_never_told_to_pull_the_model(project, cli, fake):
    """121st round: a proxy's 404 page on /api/chat (its model listed by /api/tags a moment before) said "run `ollama
    pull qwen2.5:7b`"; only Ollama's own words (model 'x' not found; model "x" not found, try pulling it first) say so."""
    key = answer_key("golden/dev.jsonl")
    fake.answers = key
    fake.faults_for[list(key)[0]] = ["404:<html><center><h1>404 Not Found</h1></center><hr><center>nginx</center></html>"]
    fake.faults_for[list(key)[1]] = ["404"]
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--retries", "0")
    results = load_json("runs/dev-v3.json")["results"]
    assert code == 2 and results[0]["error"].startswith("HTTP 404: ") and "nginx" in results[0]["error"], results[0]
    assert "ollama pull" not in results[0]["error"] and "(run `ollama pull qwen2.5:7b`)" in results[1]["error"], results[:2]


def test_a_proxy_s_404_page_on_the_load_is_never_told_to_pull_the_model(project, cli, fake):
    """121st round's review: the load before the first case read any 404 as Ollama's model gone ("Pull it again:
    `ollama pull qwen2.5:7b`"), a proxy's page too, its model listed a moment before; only Ollama's words say so."""
    fake.answers = answer_key("golden/dev.jsonl")
    fake.refuse_loads = (404, "<html><center><h1>404 Not Found</h1></center><hr><center>nginx</center></html>")
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--limit", "2")
    assert "ollama pull" not in err and "cannot be loaded" not in err, err
    assert "loading qwen2.5:7b before the first case failed (HTTP 404: " in err and "nginx" in err, err


def test_a_chat_that_lost_turns_is_flagged_where_a_prompt_cache_held_a_short_system_prompt(project, cli, fake):
    """133rd round: a prompt cache that held a short system prompt (98 characters) counted the questions after the first
    without it (31 tokens for 193 characters, 0.16: not under MIN_TOKENS_A_CHAR, so read with the system prompt's
    characters, 0.109), and three of four made the run's rate: a chat that lost a turn (counted 1,173) was said not
    checked, "partial counts", even at --repeat 1. A question's count under the highest's by more than texts vary,
    read without its system prompt no more past it, is read so: the drop is flagged."""
    def system_held(messages, whole, seen):
        held = messages[0]["role"] == "system" and any(s[0] == messages[0] for s in seen)
        return whole(messages) - whole(messages[:1]) + 3 if held else whole(messages)
    whole, count = prompt_cache(fake, system_held)
    counts, out, s = run_older_ollama(cli, fake, questions_and(EN_QUESTIONS) + [LOST_TALK], LABEL_IT, 2048,
                                      count=count)
    assert counts["q1"] > 0.12 * (len(LABEL_IT) + len(EN_QUESTIONS[1])) and counts["q1"] < counts["q0"] * 0.6, counts
    assert [(x["id"], x["trial"]) for x in s["turns_may_be_dropped"]] == [("lost", 1)], s["turns_may_be_dropped"]
    assert s["turns_unchecked"] == [], s["turns_unchecked"]


def test_chats_alone_flag_a_first_trial_that_lost_turns_where_a_prompt_cache_counted_the_later_ones_1(project, cli, fake):
    """133rd round: a run of chats and no one-turn questions, --repeat 3, a prompt cache counting a prompt it had seen 1:
    the rate of chats too short to have been shortened took every trial, the later ones counted 1, and came to 0: the
    chat whose first trial, counted whole, showed its lost turn was said not checked, "partial counts", as one that fit.
    Of a case's trials the highest count, the one no cache made smaller, gives its rate: the drop is flagged, the chat
    that fit is not."""
    whole, count = prompt_cache(fake, counted_1)
    cases = [talk("s0", EN_TURN * 2, "Noted.", "So is this a bug, billing or other?"), LOST_TALK,
             talk("fit", EN_TURN * 30, "Noted.", "So is this a bug, billing or other?")]
    counts, out, s = run_older_ollama(cli, fake, cases, LABEL_IT, 2048, count=count, repeat=3)
    assert counts["lost"] == 1 < 2048 < whole([{"content": LABEL_IT}] + LOST_TALK["messages"]), counts
    assert s["turns_may_be_dropped"] == [{"id": "lost", "trial": 1, "prompt_tokens": 1201}], s["turns_may_be_dropped"]
    assert all(x["id"] != "fit" for x in s["turns_may_be_dropped"]), s
    assert {(x["id"], x["why"]) for x in s["turns_unchecked"]} <= {("lost", "partial count"), ("fit", "partial count")}, s


def test_a_chat_that_lost_turns_is_flagged_where_a_prompt_cache_counted_its_later_trials_in_half(project, cli, fake):
    """133rd round: a prompt cache counting half of a prompt it had seen, --repeat 3: questions counted 60, 30, 30 and
    the later halves, read with the template taken off, fell under MIN_TOKENS_A_CHAR and set the run's rate there: a
    chat whose first trial (1,201) showed its lost turn was said not checked, "partial counts", in every trial. Of a
    case's trials the highest count gives its rate: the drop is flagged."""
    whole, count = prompt_cache(fake, counted_half)
    fit = talk("fit", EN_TURN * 30, "Noted.", "So is this a bug, billing or other?")
    counts, out, s = run_older_ollama(cli, fake, questions_and(EN_QUESTIONS) + [LOST_TALK, fit], LABEL_IT, 2048,
                                      count=count, repeat=3)
    assert counts["lost"] == 600, counts
    # (a chat that fit, its later trials counted half: a cache's part of the prompt its first trial counted whole)
    assert all(x["id"] != "fit" for x in s["turns_may_be_dropped"]), s["turns_may_be_dropped"]
    assert {"id": "lost", "trial": 1, "prompt_tokens": 1201} in s["turns_may_be_dropped"], s["turns_may_be_dropped"]
    assert all(x["why"] != "partial counts" for x in s["turns_unchecked"]), s["turns_unchecked"]


def test_a_chat_that_fit_near_the_window_is_not_flagged_where_a_prompt_cache_counted_its_later_trials_in_half(
        project, cli, fake):
    """133rd round: a prompt cache counting half of a prompt it had seen, --repeat 3: a chat that fit near the window
    (8,023 characters counted 2,039 of 2,048: past it at the run's highest rate, within it at its lowest) counted 1,019
    on its later trials, under what its characters take at any rate the run reads, and those trials were said "Earlier
    turns may have been dropped" (2 to 4 of 40 random chats). A trial counted under another of its case, one prompt
    asked again, is a cache's part of it: said not checked, "partial count"; the chat that lost a turn still flagged."""
    whole, count = prompt_cache(fake, counted_half)
    fit = talk("fit", EN_TURN * 39, "Noted.", EN_TURN * 39, "Noted.", "So is this a bug, billing or other?")
    counts, out, s = run_older_ollama(cli, fake, questions_and(EN_QUESTIONS) + [LOST_TALK, fit], LABEL_IT, 2048,
                                      count=count, repeat=3)
    assert counts["fit"] == whole([{"content": LABEL_IT}] + fit["messages"]) // 2 == 2039 // 2, counts
    assert [x for x in s["turns_may_be_dropped"] if x["id"] == "fit"] == [], s["turns_may_be_dropped"]
    assert {(x["trial"], x["why"]) for x in s["turns_unchecked"] if x["id"] == "fit"} >= {(2, "partial count"),
                                                                                          (3, "partial count")}, s
    assert {"id": "lost", "trial": 1, "prompt_tokens": 1201} in s["turns_may_be_dropped"], s["turns_may_be_dropped"]
