"""A small stand-in for an Ollama server, over real HTTP on 127.0.0.1.

It speaks the parts of Ollama's API that eval.py uses: GET /api/tags, GET /api/version and
POST /api/chat (non-streaming), with Ollama's error shape {"error": "..."} and status codes; and,
as Ollama does too, the OpenAI-compatible GET /v1/models and POST /v1/chat/completions, with
OpenAI's error shape {"error": {"message": ..., "type": ...}}.
A test scripts its behaviour: what to answer per input, latency, and faults (HTTP 404, 500,
503, a dropped connection, a hang, a body that is not JSON) either for the next requests or
for the attempts on one particular input.
"""

import hashlib
import json
import os
import queue
import re
import socket
import sys
import threading
import time
import unicodedata
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

BUSY = "server busy, please try again.  maximum pending requests exceeded"


# Ollama's options and the JSON each takes, from api/types.go (Options and Runner; FromMap reads them):
# int fields take any JSON number (float64, truncated), float32 ones a number, bool ones true/false,
# stop an array. A name not listed is ignored with a log line (FromMap: "invalid option provided").
OPTION_TYPES = {**dict.fromkeys(("num_keep", "seed", "num_predict", "top_k", "repeat_last_n", "num_ctx", "num_batch",
                                 "num_gpu", "main_gpu", "num_thread", "draft_num_predict"), "integer"),
                **dict.fromkeys(("top_p", "min_p", "typical_p", "temperature", "repeat_penalty", "presence_penalty",
                                 "frequency_penalty"), "float32"),
                "use_mmap": "boolean", "stop": "array"}


# api/types.go Runner: the options a model is loaded with (num_ctx among them)
RUNNER_OPTIONS = ("num_ctx", "num_batch", "num_gpu", "main_gpu", "use_mmap", "num_thread")


def wrong_option_type(options):
    """FromMap's error for the first option of the wrong type (api/types.go: 'option %q must be of
    type %s'), or None."""
    for key, value in options.items():
        kind = OPTION_TYPES.get(key)
        number = isinstance(value, (int, float)) and not isinstance(value, bool)
        if value is None or kind is None:
            continue
        if (kind in ("integer", "float32") and not number) or (kind == "boolean" and not isinstance(value, bool)) \
                or (kind == "array" and not isinstance(value, list)):
            return f'option "{key}" must be of type {kind}'
        if kind == "array" and not all(isinstance(v, str) for v in value):
            return f'option "{key}" must be of an array of strings'
    return None


def open_object(schema):
    """Whether a schema holds an object that does not say "additionalProperties": false."""
    if isinstance(schema, list):
        return any(map(open_object, schema))
    if not isinstance(schema, dict):
        return False
    if schema.get("type") == "object" and schema.get("additionalProperties") is not False:
        return True
    return any(open_object(v) if k != "properties" else any(map(open_object, v.values())) for k, v in schema.items())


def openai_refusal(body):
    """OpenAI's own API's error object for what it refuses of a reasoning model's request, or None. Its words, as
    people's code quotes them from its 400s: the old cap's name ("Unsupported parameter: 'max_tokens' ...", code
    unsupported_parameter), a strict schema with an open object (trycompai/comp#2792: "additionalProperties is required
    to be supplied and to be false"), json_object asked by messages that never say json."""
    if "max_tokens" in body:
        return {"message": "Unsupported parameter: 'max_tokens' is not supported with this model. Use "
                           "'max_completion_tokens' instead.", "type": "invalid_request_error", "param": "max_tokens",
                "code": "unsupported_parameter"}
    form = body.get("response_format") or {}
    if form.get("type") == "json_schema" and form["json_schema"].get("strict") and open_object(form["json_schema"]["schema"]):
        return {"message": f"Invalid schema for response_format '{form['json_schema'].get('name')}': In context=(), "
                           "'additionalProperties' is required to be supplied and to be false.",
                "type": "invalid_request_error", "param": "response_format", "code": None}
    if form.get("type") == "json_object" and "json" not in json.dumps(body.get("messages")).lower():
        return {"message": "'messages' must contain the word 'json' in some form, to use 'response_format' of type "
                           "'json_object'.", "type": "invalid_request_error", "param": "messages", "code": None}
    return None


def sent_until_closed(write, size):
    """Writes size bytes of zeros by write(), a MiB at a time, until the client hangs up: the bytes that went out (those
    a client reading none of them leaves in the sockets' buffers, a few MiB, where one reading them all takes size)."""
    sent, piece = 0, bytes(1 << 20)
    try:
        while sent < size:
            write(piece[:size - sent])
            sent += min(len(piece), size - sent)
    except OSError:
        pass
    return sent


def shortest(name):
    """A model name as Ollama finds and lists it: types/model/name.go ParseNameBare (lines 146-176) cuts it at its last
    "/" for the model (its tag after a ":" past that "/"), at the one before for the namespace, and takes the rest, a
    scheme's "://" aside, for the host; ParseName fills in the default registry and namespace (registry.ollama.ai,
    library), and /api/tags names each model by its shortest name (server/model_list_cache.go:323-324, n.DisplayShortest(),
    which leaves out the host where it is the default, then the namespace where it is library, compared
    with strings.EqualFold). So library/foo/bar is host library, and registry.ollama.ai/m the namespace
    registry.ollama.ai: both kept whole."""
    parts = name.rsplit("/", 2)
    if len(parts) == 3 and parts[0].split("://", 1)[-1].casefold() == "registry.ollama.ai":
        parts = parts[1:]
    if len(parts) == 2 and parts[0].casefold() == "library":
        parts = parts[1:]
    return "/".join(parts)


class FakeOllama:
    def __init__(self, models=("qwen2.5:7b",), version="0.12.6"):
        self.models = list(models)
        self.version = version
        self.answers = {}             # input text -> answer text
        self.by_vars = []             # (its vars' values, answer) of each case with vars and no input
        self.default_answer = "bug"   # for inputs not in answers; may be a callable(input)
        self.prompted = None          # callable(request body, input) -> answer or None, tried before answers:
                                      # an answer that depends on the system prompt and the model (shipped_fake's)
        self.route = None             # callable(request body) -> answer or None, tried first
        self.api_key = None           # when set, /v1 requests need "Authorization: Bearer <key>"
        self.auth_headers = []        # the Authorization header of every chat request
        self.extra_fields = {}        # merged into every /api/chat answer, to send odd values
        self.raw_values = {}          # a string's JSON -> the raw text sent in its place (a number json.dumps cannot write)
        self.usage_extra = {}         # merged into every /v1 answer's usage, to send odd counts
        self.v1_finish = None         # the finish_reason every /v1 chat answer gives in place of its own ("length")
        self.version_auth = []        # the Authorization header of every /api/version request
        self.version_page = None      # bytes /api/version answers instead of its JSON (a proxy's page)
        self.version_seconds = 0      # how long /api/version is sat on before its answer (an Ollama under load)
        self.tags_seconds = 0         # how long /api/tags is sat on before its answer
        self.version_answer = None    # the JSON /api/version answers instead of {"version": ...} (an object without one)
        self.models_page = None       # /v1/models in pages of this many (has_more, last_id, ?after=)
        self.key_everywhere = False   # with api_key: /api/version wants it too (an auth proxy before Ollama)
        self.native_api = True        # /api/version answers: an Ollama (False: a /v1 server alone, llama.cpp's say)
        self.unasked_answer = None    # sent, after a pause, after every chat answer on the same connection
        self.refused_formats = set()  # response_format types /v1 refuses, as llama-cpp-python's server does json_schema
                                      # (or {model: those types}: one server, two models unlike)
        self.openai_rules = False     # /v1 refuses what OpenAI's own API refuses of a reasoning model (openai_refusal):
                                      # True, or the models that do
        self.drip_gets = False        # GET answers drip for hang_seconds: True, their headers; "drip_body", the body
        # interim responses sent before each answer, GET or chat: a proxy's 103 Early Hints (RFC 8297; Cloudflare sends
        # them), which a client reads past (RFC 9110 15.2: "A client MUST be able to parse one or more 1xx responses")
        self.early_hints = 0
        self.custom_error = ""        # the message of a "custom" fault (HTTP 500)
        self.custom_body = None       # the whole JSON body of a "custom" fault in place of its API's error shape
        self.refusal_preamble = ""    # text before the refusal's words, to push them far into the body
        self.int_bias_keys = False    # /v1 reads logit_bias's keys as token ids, as llama-cpp-python's server does
        # /v1 refuses a tool_choice naming no tool sent, as llama-cpp-python's server does (0.3.36), in the words of its
        # --chat_format's handler: "function-calling" (chatml-function-calling), "template" (any other); None: it does not
        self.unknown_tool_choice = None
        self.retry_after = 1          # seconds, sent with a 429
        self.redirect_location = b"http://127.0.0.1:9/api/chat"   # the Location of a "redirect" fault, as sent
        self.redirect_body = 0        # bytes of zeros in its body (a redirect's body no client needs)
        self.redirect_sent = queue.Queue()   # of those, the bytes sent before the client hung up, one a redirect
        self.latency = 0.0            # seconds, or a callable(input) -> seconds
        self.faults = []              # faults for the next chat requests, in order
        self.faults_for = {}          # input text -> faults for its successive attempts
        self.header_limit = None      # bytes of a header line past which it answers 431, as a front with a small
                                      # buffer does (Go's net/http and Apache: 431 Request Header Fields Too Large)
        self.hang_seconds = 5.0
        # model -> how it thinks: "apart" (Ollama's message.thinking, unless sent "think": false),
        # "inline" (a <think> block in the content), "unclosed" (a <think> block cut by the token limit)
        self.thinking = {}
        self.tags_capabilities = True
        # models whose template takes no tools: their capabilities lack "tools" (server/images.go Capabilities),
        # and a chat that sends tools is refused with a 400 (CheckCapabilities, routes.go handleScheduleError)
        self.without_tools = set()
        self.show_capabilities = True   # POST /api/show answers with them (an older server: False, a 404)
        # how a prompt longer than num_ctx is cut: "window" to num_ctx (older runners), "window-1" to
        # num_ctx - 1, "half" as current Ollama (llm/llama_server.go: past num_ctx - 1 tokens, keep
        # num_keep (4, api/types.go DefaultOptions) + 1 for BOS and cut to contextShiftPromptLimit)
        self.truncation = "window"
        # model -> the context it was trained on: a num_ctx past it is lowered to it (server/sched.go
        # effectiveContext, since v0.9.3; server/routes.go optionsForPrompt for the prompt)
        self.train_context = {}
        self.default_context = 4096   # the window of a load that sends no num_ctx (envconfig's default)
        # /v1 as llama-cpp-python's server: its n_ctx, which bounds every answer (llama_cpp/llama.py
        # _create_completion: max_tokens None is n_ctx - prompt tokens, and a larger one is cut to that)
        self.openai_context = None
        self.ps_context = True        # GET /api/ps lists each loaded model's context_length (since v0.9.7)
        self.windows = {}             # model -> the window its runner was loaded with, for /api/ps
        self.honours_truncate = True  # "truncate": false is read (since v0.12.6); an older server ignores it
        # count only the prompt tokens evaluated, as some versions do (current Ollama counts the cached
        # ones too: llm/llama_server.go promptEvalCount() is CacheN + PromptN)
        self.uncached_counts = False
        self.prompts_seen = set()   # /api/tags lists each model's capabilities (current Ollama; older ones do not)
        self.json_when_asked = False
        self.loads = []               # bodies of load requests (a chat with no messages), kept out of chat_bodies
        self.loaded = set()           # models loaded so far
        self.runners = {}             # model -> the load-time options its runner was loaded with
        self.loaded_once = set()
        self.reloads = 0              # loads of a model already loaded once: another runner's options
        self.load_seconds = 0.0       # how long the first request for a model takes to load it
        self.gone = set()             # models listed in /api/tags whose files are gone: every chat answers 404
        self.refuse_loads = False     # answer load requests with HTTP 500 (or a (status, words) pair)   # answer {"label": ...} when asked for structured output, as a grammar would
        self.digests = {}             # model -> the digest /api/tags reports, when a test replaces a model
        self.listings = {}            # GET path -> the JSON object sent instead of the usual answer (a wrong shape)
        # GET path -> (status, error): answered so, as Ollama's ListHandler answers a store it cannot read
        # (server/routes.go: c.JSON(http.StatusInternalServerError, gin.H{"error": err.Error()}))
        self.get_errors = {}
        self.server_header = None     # a Server: header sent with every answer, as a server names itself
        self.reasoning = "El cliente describe un cobro doble; eso es dinero de la cuenta."
        # agents: the user's message -> the model's steps, one per request of the conversation: a list of
        # (tool name, arguments) calls, or the final answer's text (or a callable(messages) -> text); past
        # the last step it repeats it (a model that calls tools forever). Arguments given as a string are
        # sent as that string. A dict step is sent as the assistant message itself, as the server wrote it
        # (api/types.go Message: content and tool_calls side by side; a hostile or odd server's shapes).
        # Keyed (the user's message, a seed), the steps of the requests asked with that seed alone: one trial's
        # (eval.py asks trial t with seed + t - 1), where its trials are to take other routes.
        self.agents = {}
        self.chat_bodies = []         # every /api/chat body received
        # whether a native answer that is done says why (done_reason): Ollama before v0.1.35 has none (api/types.go gained
        # it in cfa84b847), and since it is left out where empty (api/types.go:540 omitempty), as the reason of a runner
        # that stopped for the connection closing is (llm/server.go:258-267 String: "" but for stop and length)
        self.done_reason_sent = True
        # (n, model, digest): after the n-th chat, /api/tags lists the model under that digest (pulled again mid-run)
        self.replace_after = None
        self.listed_after = None      # (n, path, listing): after the n-th chat, GET path answers that listing
        self.errors_after = None      # (n, path, status, error): after the n-th chat, GET path answers that error
        self.connections = set()      # client (host, port) pairs seen: one per TCP connection
        self.chat_connections = set()  # those that carried a chat request
        self.open_sockets = set()     # connections open now, for hang_up_idle()
        self.proxied = []             # absolute URLs asked of it as an HTTP proxy
        self.in_flight = 0            # chat requests being answered right now
        self.max_in_flight = 0
        self.lock = threading.Lock()
        self.server = None

    def digest(self, model):
        """A model's digest as /api/tags gives it (sha256 hex); self.digests replaces it, as a re-pull does."""
        return self.digests[model] if model in self.digests else hashlib.sha256(model.encode()).hexdigest()

    def cut_prompt(self, tokens, num_ctx, num_keep=4):
        if self.truncation == "half":
            if tokens <= num_ctx - 1:
                return tokens
            # the request's num_keep (api/types.go DefaultOptions: 4; negative: the whole prompt), +1 for BOS
            keep = min((tokens if num_keep < 0 else num_keep) + 1, num_ctx - 1)
            return num_ctx - max((num_ctx - keep) // 2, 1)
        if self.truncation == "window-1":
            return min(tokens, num_ctx - 1)
        return min(tokens, num_ctx)

    def fingerprint(self):
        """What a /v1 answer says of its backend: Ollama's every answer "fp_ollama" (openai/openai.go toChatCompletion:
        SystemFingerprint), llama.cpp's server its build ("b7020-cpu")."""
        return "fp_ollama" if self.native_api else "b7020-cpu"

    def window(self, model, options):
        """The window a request's runner holds: its num_ctx (or the default), lowered to the model's
        training context (server/sched.go effectiveContext)."""
        num_ctx = options.get("num_ctx") if isinstance(options.get("num_ctx"), int) else self.default_context
        train = self.train_context.get(model)
        return min(num_ctx, train) if train else num_ctx

    @staticmethod
    def prompt_count(messages):
        """About 4 characters a token for every turn but the system prompt, whose tokens and the
        template's stand as 10."""
        return 10 + sum(len(str(m.get("content") or "")) // 4 for m in messages
                        if isinstance(m, dict) and m.get("role") != "system")

    def fitted_turns(self, messages, window):
        """server/prompt.go chatPrompt: while the rendered prompt is past the window, drop whole
        turns from the front, keeping every system message and always the last message."""
        for i in range(len(messages)):
            kept = [m for m in messages[:i] if m.get("role") == "system"] + messages[i:]
            if self.prompt_count(kept) <= window or i == len(messages) - 1:
                return kept
        return messages

    def capabilities(self, model):
        """A model's capabilities as Ollama names them (types/model/capability.go): completion, and
        thinking for the models scripted to think."""
        thinks = self.thinking.get(model) or self.thinking.get(str(model).removesuffix(":latest"))
        return ["completion"] + (["tools"] if model not in self.without_tools else []) + (["thinking"] if thinks else [])

    @staticmethod
    def family(model):
        """details.family as Ollama reports it for the models the tests name: qwen2.5 is "qwen2"."""
        name = model.lower()
        for prefix, family in (("qwen2", "qwen2"), ("qwen3", "qwen3"), ("llama", "llama"), ("smollm", "llama"),
                               ("gemma", "gemma3"), ("mistral", "llama"), ("gpt-oss", "gptoss")):
            if name.startswith(prefix):
                return family
        return re.match(r"[a-z]*", name).group()

    def load(self, model, options=None):
        """The first request for a model loads it (load_seconds, reported as load_duration), and so
        does one whose load-time options differ from the loaded runner's (server/sched.go needsReload
        compares api.Runner: num_ctx, num_batch, num_gpu, main_gpu, use_mmap, num_thread); later ones
        find it loaded and report the microseconds Ollama does. Returns load_duration in ns."""
        options = options or {}
        runner = tuple(options.get(k) for k in RUNNER_OPTIONS)
        with self.lock:
            first = self.runners.get(model) != runner
            self.runners[model] = runner
            self.loaded.add(model)
            self.reloads += first and model in self.loaded_once
            self.loaded_once.add(model)
        if first and self.load_seconds:
            time.sleep(self.load_seconds)
        return int(self.load_seconds * 1e9) if first and self.load_seconds else 1234567

    # -- scripting -------------------------------------------------------
    def next_fault(self, text):
        with self.lock:
            if self.faults_for.get(text):
                return self.faults_for[text].pop(0)
            if self.faults:
                return self.faults.pop(0)
        return None

    @staticmethod
    def agent_turn(messages):
        """(the last user message's text, how many assistant turns came after it): which step of a
        scripted agent a request asks for."""
        users = [i for i, m in enumerate(messages) if isinstance(m, dict) and m.get("role") == "user"]
        if not users:
            return None, 0
        return messages[users[-1]].get("content"), sum(1 for m in messages[users[-1]:] if m.get("role") == "assistant")

    @staticmethod
    def tool_history_problem(messages, openai):
        """Why a server refuses a conversation's tool turns, or None. Ollama decodes a call's arguments
        into a map (api/types.go ToolCallFunctionArguments.UnmarshalJSON), so a string is a 400 from
        ChatHandler's ShouldBindJSON; OpenAI wants each tool message to answer a call id of the assistant
        message before it, and arguments as a JSON string (platform.openai.com, Chat Completions:
        ChatCompletionToolMessageParam.tool_call_id, ChatCompletionMessageToolCall.function.arguments)."""
        ids = set()
        for m in messages:
            if not isinstance(m, dict):
                continue
            if m.get("role") == "assistant":
                if openai and not isinstance(m.get("content"), str):
                    # llama-cpp-python 0.3.36 (llama_types.ChatCompletionRequestAssistantMessage: content a str;
                    # its chatml-function-calling template reads message.content): null or missing is refused
                    return "messages.assistant.content: Input should be a valid string"
                ids = set()
                for call in m.get("tool_calls") or []:
                    arguments = (call.get("function") or {}).get("arguments")
                    if openai and not isinstance(arguments, str):
                        return "tool_calls[].function.arguments must be a string"
                    if not openai and not isinstance(arguments, dict):
                        return ("json: cannot unmarshal " + type(arguments).__name__ +
                                " into Go value of type map[string]interface {}")
                    ids.add(call.get("id"))
            elif m.get("role") == "tool":
                if openai and m.get("tool_call_id") not in ids:
                    return ("Invalid parameter: messages with role 'tool' must be a response to a preceding message "
                            "with 'tool_calls'.")
                if not openai and not isinstance(m.get("content"), str):
                    return "json: cannot unmarshal into Go struct field Message.messages.content of type string"
        return None

    def agent_message(self, body, openai):
        """The scripted agent's next message for this request, or None when its user message has no
        script: tool calls as Ollama sends them (api/types.go ToolCall: function.name, function.index,
        arguments an object; docs/api.md "Chat request (With history, with tools)"), or as OpenAI does
        (an id per call, type "function", arguments a JSON string, content null, finish_reason "tool_calls")."""
        user, turn = self.agent_turn(body.get("messages") or [])
        steps = self.agents.get((user, (body.get("options") or {}).get("seed", body.get("seed")))) or self.agents.get(user)
        if not steps:
            return None
        step = steps[min(turn, len(steps) - 1)]
        if callable(step):   # an answer made from what the tools returned
            step = step(body["messages"])
        if isinstance(step, str):
            return {"role": "assistant", "content": step}, "stop"
        if isinstance(step, dict):   # the message as given, in the API's own shape; a "done_reason" in it is why it ended
            step = dict(step)        # ("length": cut at the token limit, calls and all, as vLLM sends a cut call)
            why = step.pop("done_reason", None)
            return step, why or ("tool_calls" if openai and step.get("tool_calls") else "stop")
        if openai:
            # Ollama's /v1 sends the message's content as it is, "" beside calls, and each call's index (openai/openai.go
            # ToToolCalls: Index = tc.Function.Index; ToChatCompletion: Content: r.Message.Content); OpenAI and llama.cpp
            # send null
            calls = [{"id": f"call_{turn}_{i}", **({"index": i} if self.native_api else {}), "type": "function",
                      "function": {"name": name, "arguments": args if isinstance(args, str) else json.dumps(args)}}
                     for i, (name, args) in enumerate(step)]
            return {"role": "assistant", "content": "" if self.native_api else None, "tool_calls": calls}, "tool_calls"
        # each call with an id of its own, which a tool result names back (api/types.go Message.ToolCallID): in the
        # default native chat mode, the one llama-server gave it (llm/llama_server.go); in rendered mode, toolCallId()'s
        # "call_" and eight letters or digits (server/routes.go ChatHandler)
        calls = [{"id": f"call_{turn:04d}{i:04d}", "function": {"index": i, "name": name, "arguments": args}}
                 for i, (name, args) in enumerate(step)]
        return {"role": "assistant", "content": "", "tool_calls": calls}, "stop"

    def answer_for(self, text, body=None):
        prompted = self.prompted(body, text) if self.prompted and body is not None else None
        if prompted is not None:
            return prompted
        if text in self.answers:
            return self.answers[text]
        if body is not None and all(isinstance(m, dict) and m.get("role") == "system" for m in body.get("messages") or [1]):
            # a case with vars and no input asks with the filled prompt alone: the case whose every var is in it
            found = next((answer for values, answer in self.by_vars if all(v in text for v in values)), None)
            if found is not None:
                return found
        return self.default_answer(text) if callable(self.default_answer) else self.default_answer

    # -- lifecycle -------------------------------------------------------
    def start(self, port=0):
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"   # keep-alive, as Ollama's Go server does

            def setup(self):
                super().setup()
                # one send per response and no Nagle delay, so latency is the fake's own
                self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                with fake.lock:
                    fake.connections.add(self.client_address)
                    fake.open_sockets.add(self.connection)

            def finish(self):
                with fake.lock:
                    fake.open_sockets.discard(self.connection)
                super().finish()

            def log_message(self, *args):
                pass

            def parse_request(self):
                ok = super().parse_request()
                if ok and fake.header_limit and any(len(f"{k}: {v}") > fake.header_limit for k, v in self.headers.items()):
                    self.close_connection = True
                    self.send_raw(431, b"431 Request Header Fields Too Large", "text/plain; charset=utf-8")
                    return False
                if ok and self.path.startswith("http://"):   # asked as a proxy: serve it as the server
                    with fake.lock:
                        fake.proxied.append(self.path)
                    self.path = "/" + self.path.split("/", 3)[3]
                return ok

            def send_json(self, status, obj):
                text = json.dumps(obj)
                for quoted, raw in fake.raw_values.items():
                    text = text.replace(json.dumps(quoted), raw)
                body = text.encode()
                self.send_raw(status, body, "application/json; charset=utf-8")

            def send_raw(self, status, body, content_type):
                server = f"Server: {fake.server_header}\r\n" if fake.server_header is not None else ""
                head = (f"HTTP/1.1 {status} {self.responses.get(status, ('',))[0]}\r\n{server}"
                        f"Content-Type: {content_type}\r\nContent-Length: {len(body)}\r\n\r\n").encode()
                self.wfile.write(head + body)
                self.wfile.flush()

            def send_early_hints(self):
                self.wfile.write(b"HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload\r\n\r\n" * fake.early_hints)

            def do_GET(self):
                self.send_early_hints()
                if fake.drip_gets:   # the checks before a run, answered a few bytes at a time
                    self.drip(fake.drip_gets if isinstance(fake.drip_gets, str) else "drip_headers", "-")
                    return
                if self.path in fake.get_errors:
                    self.send_json(fake.get_errors[self.path][0], {"error": fake.get_errors[self.path][1]})
                elif self.path in fake.listings:
                    self.send_json(200, fake.listings[self.path])
                elif self.path == "/api/tags" and fake.native_api:   # (a /v1 server alone has none)
                    time.sleep(fake.tags_seconds)
                    self.send_json(200, {"models": [
                        {"name": m, "model": m, "modified_at": "2026-11-02T09:14:51.218337+01:00", "size": 4683087332,
                         "digest": fake.digest(m),
                         "details": {"parent_model": "", "format": "gguf", "family": fake.family(m),
                                     "families": [fake.family(m)], "parameter_size": "7.6B",
                                     "quantization_level": "Q4_K_M"},
                         # what the model can do, as current Ollama lists it (api/types.go ListModelResponse)
                         **({"capabilities": fake.capabilities(m)} if fake.tags_capabilities else {})}
                        for m in fake.models]})
                elif self.path.split("?")[0] == "/v1/models":
                    if fake.api_key and self.headers.get("Authorization") != f"Bearer {fake.api_key}":
                        self.send_json(401, {"error": {"message": "Incorrect API key provided", "type": "auth"}})
                        return
                    listed = [{"id": m, "object": "model", "created": 1764496800, "owned_by": "library"} for m in fake.models]
                    if fake.models_page:   # in pages, as OpenAI's lists page: has_more, last_id, ?after=ID for the next
                        after = urllib.parse.parse_qs(urllib.parse.urlsplit(self.path).query).get("after", [None])[0]
                        start = next((i + 1 for i, m in enumerate(listed) if m["id"] == after), 0)
                        page = listed[start:start + fake.models_page]
                        self.send_json(200, {"object": "list", "data": page, "has_more": start + len(page) < len(listed),
                                             "last_id": page[-1]["id"] if page else None})
                        return
                    self.send_json(200, {"object": "list", "data": listed})
                elif self.path == "/api/ps":
                    # server/routes.go PsHandler: the loaded models, each with its runner's context_length
                    # (api/types.go ProcessModelResponse; the field since v0.9.7)
                    self.send_json(200, {"models": [
                        {"name": m, "model": m, "size": 4683087332, "digest": fake.digest(m),
                         "details": {"family": fake.family(m)}, "expires_at": "2026-11-30T10:05:00.000000Z",
                         "size_vram": 0, **({"context_length": w} if fake.ps_context else {})}
                        for m, w in sorted(fake.windows.items())]})
                elif self.path == "/api/version" and fake.native_api:
                    fake.version_auth.append(self.headers.get("Authorization"))
                    time.sleep(fake.version_seconds)
                    if fake.key_everywhere and fake.api_key and self.headers.get("Authorization") != f"Bearer {fake.api_key}":
                        self.send_raw(401, b"401 Authorization Required", "text/html")   # a proxy's, before Ollama
                        return
                    if fake.version_page is not None:   # something else on that path (a proxy's page)
                        self.send_raw(200, fake.version_page, "text/html")
                        return
                    self.send_json(200, {"version": fake.version} if fake.version_answer is None else fake.version_answer)
                elif self.path == "/":
                    self.send_raw(200, b"Ollama is running", "text/plain; charset=utf-8")
                else:
                    self.send_raw(404, b"404 page not found", "text/plain")

            def do_POST(self):
                length = int(self.headers.get("Content-Length", 0))
                raw = self.rfile.read(length)
                openai = self.path == "/v1/chat/completions"
                if self.path == "/api/show" and fake.show_capabilities:
                    # api/types.go ShowResponse: a model's details, its capabilities among them
                    name = shortest((json.loads(raw or b"{}") or {}).get("model", ""))
                    name = name if ":" in name else name + ":latest"
                    known = next((m for m in fake.models if m.casefold() == name.casefold()), None)
                    if known is None or known in fake.gone:
                        self.send_error_json(404, f"model '{name}' not found", False)
                    else:
                        self.send_json(200, {"details": {"family": fake.family(known)}, "model_info": {},
                                             "capabilities": fake.capabilities(known)})
                    return
                if self.path != "/api/chat" and not openai:
                    self.send_raw(404, b"404 page not found", "text/plain")
                    return
                with fake.lock:
                    fake.auth_headers.append(self.headers.get("Authorization"))
                    fake.chat_connections.add(self.client_address)
                if openai and fake.api_key and self.headers.get("Authorization") != f"Bearer {fake.api_key}":
                    self.send_error_json(401, "Incorrect API key provided", openai)
                    return
                try:
                    body = json.loads(raw)
                except ValueError:
                    self.send_error_json(400, "invalid character looking for beginning of value", openai)
                    return
                if openai and fake.native_api and body.get("messages") == []:   # before the chat handler is reached
                    self.send_error_json(400, "[] is too short - 'messages'", openai)   # (middleware/openai.go ChatMiddleware)
                    return
                loading = not openai and body.get("messages") == []   # Ollama: load the model, answer nothing
                with fake.lock:
                    (fake.loads if loading else fake.chat_bodies).append(body)
                    if fake.replace_after and len(fake.chat_bodies) >= fake.replace_after[0]:
                        fake.digests[fake.replace_after[1]] = fake.replace_after[2]
                    if fake.listed_after and len(fake.chat_bodies) >= fake.listed_after[0]:   # (a /v1 server's swap)
                        fake.listings[fake.listed_after[1]] = fake.listed_after[2]
                    if fake.errors_after and len(fake.chat_bodies) >= fake.errors_after[0]:
                        fake.get_errors[fake.errors_after[1]] = fake.errors_after[2:]
                kind = {bool: "bool", str: "string", float: "number", dict: "object", list: "array"}.get(
                    type(body.get("top_logprobs")))
                # (an Ollama before v0.12.11 has no logprobs fields: any such value dropped, never read, 59241c5be)
                logprobs = openai and fake.native_api and not re.match(r"0\.(\d\.|1[01]\.|12\.([0-9]|10)$)", str(fake.version))
                if logprobs and kind:   # its /v1 reads it into an int (openai/openai.go:122), and a
                    # value JSON's reader cannot put there is a 400 before all else (middleware/openai.go:449-453)
                    number = f" {json.dumps(body['top_logprobs'])}" if kind == "number" else ""
                    self.send_error_json(400, f"json: cannot unmarshal {kind}{number} into Go struct field "
                                              "ChatCompletionRequest.top_logprobs of type int", openai)
                    return
                if logprobs and type(body.get("top_logprobs")) is int \
                        and not 0 <= body["top_logprobs"] <= 20:
                    # its /v1 passes top_logprobs on (openai/openai.go:122, :719 FromChatRequest) to the chat handler,
                    # which refuses it past 20 before it looks for the model (server/routes.go:2452-2454, since
                    # v0.12.11), a 400 in NewError's shape (middleware/openai.go:64-73 writeError, openai/openai.go:225)
                    self.send_error_json(400, "top_logprobs must be between 0 and 20", openai)
                    return
                model = shortest(str(body.get("model")))
                if ":" not in str(model):
                    model = f"{model}:latest"   # Ollama reads a bare name as its latest tag
                if not openai or fake.native_api:
                    # Ollama's chat resolves each part of the name against the models it has ignoring case
                    # (server/routes.go ChatHandler -> getExistingName, strings.EqualFold per part); its /v1 is the
                    # same handler behind middleware.ChatMiddleware
                    model = next((m for m in fake.models if m.casefold() == str(model).casefold()), model)
                if model not in fake.models:
                    # server/routes.go ChatHandler: getModel finds no manifest (os.IsNotExist), in the name as asked
                    # (over /v1 in its error shape: middleware/openai.go)
                    self.send_error_json(404, f"model '{body.get('model')}' not found", openai)
                    return
                if model not in fake.models or model in fake.gone:
                    # server/routes.go handleScheduleError(c, req.Model, err): a model whose files are missing
                    # (os.ErrNotExist), in the name as sent
                    self.send_error_json(404, f'model "{body.get("model")}" not found, try pulling it first', openai)
                    return
                think = body.get("think")
                if openai and fake.native_api:   # its /v1 asks for thinking in OpenAI's words (openai/openai.go
                    # FromChatRequest: reasoning.effort, else reasoning_effort, by thinkFromReasoningEffort)
                    effort = (body["reasoning"].get("effort") or "" if isinstance(body.get("reasoning"), dict)
                              else body.get("reasoning_effort") or "")
                    efforts = {"": None, "none": False, "minimal": "low", "low": "low", "medium": "medium",
                               "high": "high", "max": "max", "xhigh": "max", "ultra": "max"}
                    if not isinstance(effort, str) or effort not in efforts:   # (middleware/openai.go: a 400, NewError)
                        self.send_error_json(400, f'invalid reasoning value: "{effort}" (must be "minimal", "low", '
                                                  '"medium", "high", "xhigh", "ultra", "max", or "none")', openai)
                        return
                    think = efforts[effort]
                self.think = think
                if (not openai or fake.native_api) and not loading and think not in (None, False) \
                        and "thinking" not in fake.capabilities(model):
                    # server/routes.go ChatHandler: think asked of a model without the thinking capability
                    self.send_error_json(400, f'"{body.get("model")}" does not support thinking', openai)
                    return
                if (not openai or fake.native_api) and body.get("tools") and "tools" not in fake.capabilities(model):
                    # (over its /v1 too: the same handler, the error in NewError's shape)
                    # server/routes.go scheduleRunner: "<name> does not support tools" (images.go CheckCapabilities),
                    # the name whole: Model.Name is the parsed name with its host and namespace (server/images.go GetModel)
                    self.send_error_json(400, f"registry.ollama.ai/library/{model} does not support tools", openai)
                    return
                wrong = None if openai else wrong_option_type(body.get("options") or {})
                if wrong:   # api/types.go FromMap's error, sent by routes.go handleScheduleError as a 500
                    self.send_error_json(500, wrong, openai)
                    return
                if loading and fake.refuse_loads:   # True: a runner crashed; (status, words): what a proxy says instead
                    status, words = fake.refuse_loads if isinstance(fake.refuse_loads, tuple) else (
                        # (an older Ollama's words, which tests quote; current Ollama's are "llama-server process has
                        # terminated: ..." (llm/llama_server.go:1306-1325): eval.py reads neither, a 500 is a 500)
                        500, "llama runner process has terminated: exit status 2")
                    self.send_error_json(status, words, openai)
                    return
                self.load_ns = fake.load(model, body.get("options") if isinstance(body.get("options"), dict) else {})
                if not openai:
                    with fake.lock:
                        fake.windows[model] = fake.window(model, body.get("options") or {})
                if loading:   # no metrics, as Ollama's (server/routes.go ChatHandler: no messages -> done_reason "load")
                    self.send_json(200, {"model": body.get("model"), "created_at": "2026-11-30T10:00:00.000000Z",
                                         "message": {"role": "assistant", "content": ""},
                                         "done_reason": "load", "done": True})
                    return
                kind = (body.get("response_format") or {}).get("type")
                if openai and kind in (fake.refused_formats.get(model, ()) if isinstance(fake.refused_formats, dict)
                                       else fake.refused_formats):
                    # word for word how llama-cpp-python 0.3.36's server refuses a type outside its
                    # Literal["text", "json_object"]: a pydantic error wrapped in an HTTP 500
                    self.send_error_json(500, fake.refusal_preamble + (
                        "1 validation error:\n  {'type': 'literal_error', 'loc': ('body', 'response_format', "
                        "'type'), 'msg': \"Input should be 'text' or 'json_object'\", 'input': '" + str(kind) +
                        "', 'ctx': {'expected': \"'text' or 'json_object'\"}}\n\n  File \"llama_cpp/server/app.py\", "
                        "line 376, in create_chat_completion\n    POST /v1/chat/completions"), openai)
                    return
                if openai and fake.int_bias_keys and not all(
                        str(k).strip().lstrip("+-").isdigit() for k in body.get("logit_bias") or {}):
                    # byte for byte what llama-cpp-python 0.3.36's server answers a key that is no token id: int(k) in
                    # llama.py:1322 raises ValueError, wrapped by server/errors.py:155 as any exception is
                    key = next(k for k in body["logit_bias"] if not str(k).strip().lstrip("+-").isdigit())
                    self.send_raw(500, ('{"error":{"message":"invalid literal for int() with base 10: ' + repr(key) +
                                        '","type":"internal_server_error","param":null,"code":null}}').encode(),
                                  "application/json")
                    return
                choice = body.get("tool_choice")
                if openai and fake.unknown_tool_choice and body.get("tools") and isinstance(choice, dict) and (
                        name := choice.get("function", {}).get("name")) not in [t["function"]["name"] for t in body["tools"]]:
                    # llama_cpp/llama_chat_format.py raises ValueError for it (line 4303 under chatml-function-calling;
                    # 710 in chat_formatter_to_chat_completion_handler, any other), which server/errors.py:155-160 sends
                    # as a 500 of str(exc), "internal_server_error", no code
                    self.send_json(500, {"error": {"message": f"Tool with name '{name}' not found in tools"
                                                   if fake.unknown_tool_choice == "function-calling" else
                                                   f"Tool choice '{name}' not found in tools.",
                                                   "type": "internal_server_error", "param": None, "code": None}})
                    return
                if openai and (fake.openai_rules is True or body.get("model") in (fake.openai_rules or ())) and (
                        refused := openai_refusal(body)):
                    self.send_json(400, {"error": refused})
                    return
                refusal = fake.tool_history_problem(body["messages"], openai)
                if refusal:
                    self.send_error_json(400, refusal, openai)
                    return
                text = body["messages"][-1]["content"]
                self.answer_chat(model, text, body, openai)
                if fake.unasked_answer is not None:   # a broken server or proxy: one answer too many
                    time.sleep(0.02)
                    try:
                        self.send_json(200, {"model": model, "done": True, "done_reason": "stop",
                                             "message": {"role": "assistant", "content": fake.unasked_answer}})
                    except OSError:
                        pass   # the client had already closed the connection

            def drip(self, how, model):
                """A server that answers, but a few bytes at a time, for hang_seconds: each read
                gets something, so only a bound on the whole request ends it."""
                body = json.dumps({"model": model, "done": True, "message": {"role": "assistant", "content": "bug"}})
                head = f"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
                if how == "endless_chunked":
                    head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
                    body = "1\r\n \r\n" * 10_000
                elif how == "drip_headers":
                    head = head[:-2] + "".join(f"X-Pad-{i}: 1\r\n" for i in range(50)) + "\r\n"
                text = head + body if how != "drip_body" else body
                if how == "drip_body":
                    self.wfile.write(head.encode())
                deadline = time.monotonic() + fake.hang_seconds
                try:
                    for i in range(0, len(text), 4):
                        if time.monotonic() > deadline:
                            break
                        self.wfile.write(text[i:i + 4].encode())
                        self.wfile.flush()
                        time.sleep(0.05)
                except OSError:
                    pass   # the client gave up: as it should
                self.close_connection = True

            def send_error_json(self, status, message, openai):
                if openai and fake.native_api:   # Ollama's /v1: openai/openai.go NewError, its type by the status
                    kind = {400: "invalid_request_error", 404: "not_found_error"}.get(status, "api_error")
                    self.send_json(status, {"error": {"message": message, "type": kind, "param": None, "code": None}})
                elif openai:   # OpenAI's shape
                    self.send_json(status, {"error": {"message": message, "type": "api_error", "code": None}})
                else:        # Ollama's shape
                    self.send_json(status, {"error": message})

            def answer_chat(self, model, text, body, openai):
                # "In flight": from the request read to the answer ready to send. Counting the send
                # as well would count a request whose client already has its answer and asks again.
                with fake.lock:
                    fake.in_flight += 1
                    fake.max_in_flight = max(fake.max_in_flight, fake.in_flight)
                try:
                    delay = fake.latency(text) if callable(fake.latency) else fake.latency
                    if delay:
                        time.sleep(delay)
                finally:
                    with fake.lock:
                        fake.in_flight -= 1
                fault = fake.next_fault(text)
                self.send_early_hints()
                if fault == "500":
                    self.send_error_json(500, "llama runner process has terminated: exit status 2", openai)
                elif fault == "503":
                    self.send_error_json(503, BUSY, openai)
                elif fault == "429":
                    body = json.dumps({"error": {"message": "Rate limit reached", "type": "rate_limit"}}).encode()
                    head = (f"HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/json\r\n"
                            f"Retry-After: {fake.retry_after}\r\nContent-Length: {len(body)}\r\n\r\n").encode()
                    self.wfile.write(head + body)
                    self.wfile.flush()
                elif fault == "404":
                    self.send_error_json(404, f'model "{body.get("model")}" not found, try pulling it first', openai)
                elif fault and fault.startswith("404:"):   # a hostile server's 404 in a case's own words ("attachment x not found")
                    self.send_error_json(404, fault[len("404:"):], openai)
                elif fault in ("408", "413"):   # a proxy before it (nginx's pages: client_body_timeout, client_max_body_size)
                    said = {"408": "408 Request Time-out", "413": "413 Request Entity Too Large"}[fault]
                    self.send_raw(int(fault), f"<html><head><title>{said}</title></head><body><center><h1>{said}</h1>"
                                  "</center><hr><center>nginx</center></body></html>".encode(), "text/html")
                elif fault == "badjson":
                    self.send_raw(200, b"<html>proxy error</html>", "text/html")
                elif fault in ("cut_in_number", "array_body"):   # a body cut inside a figure; an array where an object is
                    one = json.dumps({"model": body.get("model"), "message": {"role": "assistant", "content": "bug"},
                                      "done": True, "eval_count": 12.5})
                    sent = one[:one.index("12.") + 3] if fault == "cut_in_number" else json.dumps([json.loads(one)])
                    self.send_raw(200, sent.encode(), "application/json")
                elif fault == "half_json":   # a proxy that sends the first half of an answer, its length matching
                    one = json.dumps({"model": body.get("model"), "created_at": "2026-11-02T09:14:51Z", "message": {
                        "role": "assistant", "content": "bug"}, "done": True, "done_reason": "stop"})
                    self.send_raw(200, one[:len(one) // 2].encode(), "application/json")
                elif fault == "two_objects":   # a proxy that sends two answers in one body (not Ollama's own)
                    one = json.dumps({"model": body.get("model"), "message": {"role": "assistant", "content": "bug"},
                                      "done": True, "done_reason": "stop"})
                    self.send_raw(200, (one + one).encode(), "application/json")   # (back to back: no stream's lines)
                elif fault == "repeat" or fault and fault.startswith("repeat:"):   # (repeat:TEXT: what it said before)
                    # a model that repeats one token over 30 times is stopped without a last, done piece
                    # (llm/llama_server.go Completion: 'if tokenRepeat > 30 { ... return ctx.Err() }', nil), and
                    # "stream": false answers with the pieces joined onto the last one, status 200 (server/routes.go
                    # writeChatResponse: resp = t; ... c.JSON(http.StatusOK, resp)): done false, no done_reason
                    # (api/types.go: omitempty) and no counts. Over /v1 the same is finish_reason null
                    # (openai/openai.go ToChatCompletion: a reason only 'if len(reason) > 0')
                    said = fault[len("repeat:"):] if fault.startswith("repeat:") else "ja " * 40
                    if openai:
                        self.send_json(200, {"id": "chatcmpl-1", "object": "chat.completion", "model": body.get("model"), "choices": [
                            {"index": 0, "message": {"role": "assistant", "content": said}, "finish_reason": None}],
                            "system_fingerprint": fake.fingerprint(),
                            # Ollama's usage then is zeros: no last piece brought Metrics, and its Usage is a plain
                            # struct, always sent (openai/openai.go:75-79 Usage, :133 `json:"usage,omitempty"`, :240 ToUsage)
                            **({"usage": {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0}}
                               if fake.native_api else {})})
                    else:
                        self.send_json(200, {"model": body.get("model"), "created_at": "2026-11-30T10:00:00.000000Z",
                                             "message": {"role": "assistant", "content": said}, "done": False})
                elif fault == "stream_piece":
                    # a server or proxy that streams though "stream": false was sent, cut after its first piece: a
                    # streamed chat is application/x-ndjson, one ChatResponse a line, done false till the last
                    # (server/routes.go ChatHandler: streamResponse sets the header; the whole answer of "stream":
                    # false, even a repeat stop, is c.JSON's application/json)
                    piece = {"model": body.get("model"), "created_at": "2026-11-30T10:00:00.000000Z",
                             "message": {"role": "assistant", "content": "fact"}, "done": False}
                    self.send_raw(200, json.dumps(piece).encode() + b"\n", "application/x-ndjson")
                elif fault == "no_context_shift":
                    # a prompt past the window where context shift is off (deepseek2's default, or "shift":
                    # false): llm/llama_server.go, the 400 with the words of its ErrorMessage
                    self.send_error_json(400, "the prompt is longer than the context length currently available to the "
                                              "model; shorten the prompt, adjust the context length in settings, or use a "
                                              "model with a longer context length", openai)
                elif fault == "native_window":
                    # a prompt past the window in native chat mode (a GGUF model with no renderer or parser, the default:
                    # server/routes.go:2357 chatModeForModel), one message, so never cut (:3040 truncateNativeChatMessages):
                    # llama-server's 400 body is the error's words as it sent them (llm/llama_server.go:1948, :1782
                    # statusErrorMessage; server/routes.go:3028-3031), over /v1 inside NewError's (middleware/openai.go)
                    self.send_error_json(400, json.dumps({"error": {
                        "code": 400, "message": "the request exceeds the available context size, try increasing it",
                        "type": "exceed_context_size_error", "n_prompt_tokens": 5012, "n_ctx": 4096}},
                        separators=(",", ":")), openai)
                elif fault == "bad_call" or fault and fault.startswith("bad_call:"):   # (bad_call:WHY: Go's words why)
                    # a tool call whose arguments do not parse (cut at the limit mid-JSON, or malformed) in native chat
                    # mode: llm/llama_server.go accumulatedToolCalls puts the streamed pieces together and fails with
                    # "llama-server returned invalid tool call arguments for %q: %w"; server/routes.go:3028-3031 sends
                    # it as a 500, over /v1 inside NewError's (middleware/openai.go). Its name: the first tool sent
                    name = ((body or {}).get("tools") or [{}])[0].get("function", {}).get("name", "lookup_order")
                    why = fault[len("bad_call:"):] if fault.startswith("bad_call:") else "unexpected end of JSON input"
                    self.send_error_json(500, f"llama-server returned invalid tool call arguments for "
                                              f"{json.dumps(name)}: {why}", openai)
                elif fault == "drop":
                    self.close_connection = True
                    self.connection.shutdown(socket.SHUT_RDWR)
                elif fault == "hang":
                    time.sleep(fake.hang_seconds)
                    self.close_connection = True
                elif fault == "503_format":     # busy, in words that happen to name the field
                    self.send_error_json(503, "overloaded while validating response_format; try again", openai)
                elif fault == "key_in_done_reason":   # the header sent back as why the answer ended
                    message = {"role": "assistant", "content": "bug"}
                    why = str(self.headers.get("Authorization"))
                    self.send_json(200, {"choices": [{"index": 0, "message": message, "finish_reason": why}]}
                                   if openai else {"model": body.get("model"), "done": True, "message": message, "done_reason": why})
                elif fault == "key_at_the_cut":       # the header where an error is cut short
                    self.send_raw(500, ("x" * 190 + " " + str(self.headers.get("Authorization"))).encode(), "text/plain")
                elif fault == "huge_length":          # a body it says is 100 GB long
                    self.wfile.write(b"HTTP/1.1 200 OK\r\nContent-Length: 100000000000\r\n\r\n{\"message\": ")
                    self.wfile.flush()
                    self.close_connection = True
                elif fault == "flood":                # an endless body, as fast as it goes
                    self.wfile.write(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")
                    chunk = b"100000\r\n" + b" " * 0x100000 + b"\r\n"
                    try:
                        for _ in range(200):   # 200 MiB at most
                            self.wfile.write(chunk)
                    except OSError:
                        pass
                    self.close_connection = True
                elif fault == "cut_body":   # hangs up ten bytes into a body it said was longer
                    self.wfile.write(b"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n{\"message\"")
                    self.wfile.flush()
                    self.close_connection = True
                elif fault == "bad_chunk":   # a chunked body whose chunk length is no hex number
                    self.wfile.write(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n")
                    self.wfile.flush()
                    self.close_connection = True
                elif str(fault).startswith("negative_chunk"):   # a chunked body whose chunk length is a number below zero:
                    # -5, or the one named after it ("negative_chunk-1")
                    length = fault.removeprefix("negative_chunk") or "-5"
                    self.wfile.write(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n%s\r\n{}\r\n0\r\n\r\n" % length.encode())
                    self.wfile.flush()
                    self.close_connection = True
                elif fault == "many_headers":   # a 200 past the 100 headers http.client reads
                    head = b"HTTP/1.1 200 OK\r\n" + b"".join(b"X-Trace-%d: v\r\n" % i for i in range(150))
                    self.wfile.write(head + b"Content-Length: 2\r\n\r\n{}")
                    self.wfile.flush()
                elif fault == "not_http":   # another service on the port, answering in its own protocol
                    self.wfile.write(b"SSH-2.0-OpenSSH_8.9\r\n")
                    self.wfile.flush()
                    self.close_connection = True
                elif fault == "bad_gzip":    # a body said to be gzip that is not
                    self.wfile.write(b"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: 7\r\n\r\nnotgzip")
                    self.wfile.flush()
                elif fault == "vllm_max_tokens":   # vLLM's words where the messages fit but max_tokens does not (a
                    # user's log of a real vLLM 400, word for word: opsconductor-ng's vLLM_transition/TOKEN_LIMIT_FIX.md)
                    self.send_json(400, {"error": {"message": "'max_tokens' or 'max_completion_tokens' is too large: "
                                                   "8000. This model's maximum context length is 4096 tokens and your "
                                                   "request has 2778 input tokens (8000 > 4096 - 2778). None",
                                                   "type": "BadRequestError", "param": None, "code": 400}})
                elif fault == "llama_window":   # llama-cpp-python's 400 for messages past its --n_ctx, word for word
                    # as a real server (0.3, SmolLM2-135M, --n_ctx 2048) sent it
                    self.send_json(400, {"error": {"message": "This model's maximum context length is 2048 tokens. "
                                                   "However, you requested 2100 tokens (2092 in the messages, 8 in the "
                                                   "completion). Please reduce the length of the messages or completion.",
                                                   "type": "invalid_request_error", "param": "messages",
                                                   "code": "context_length_exceeded"}})
                elif fault in ("max_tokens_422", "max_tokens_500"):   # OpenAI's words for the old cap, in another status
                    self.send_json(int(fault[-3:]), {"error": openai_refusal({"max_tokens": 1})})
                elif fault == "custom" and fake.custom_body is not None:
                    self.send_json(500, fake.custom_body)
                elif fault == "custom":
                    self.send_error_json(500, fake.custom_error, openai)
                elif fault == "401":
                    self.send_error_json(401, "invalid api key", openai)
                elif fault == "redirect":       # a proxy sending the client somewhere else
                    self.wfile.write(b"HTTP/1.1 307 Temporary Redirect\r\nLocation: " + fake.redirect_location +
                                     b"\r\nContent-Length: %d\r\n\r\n" % fake.redirect_body)
                    self.wfile.flush()
                    fake.redirect_sent.put(sent_until_closed(self.wfile.write, fake.redirect_body))
                    self.close_connection = True
                elif fault == "not_modified":   # a cache before the server, answering a request nobody made conditional
                    self.wfile.write(b"HTTP/1.1 304 Not Modified\r\n\r\n")
                    self.wfile.flush()
                elif fault == "multiple_choices":   # a 300 naming where one choice is (no redirect a client follows)
                    self.wfile.write(b"HTTP/1.1 300 Multiple Choices\r\nLocation: http://127.0.0.1:9/api/chat\r\n"
                                     b"Content-Length: 0\r\n\r\n")
                    self.wfile.flush()
                elif fault == "error_200":      # an error in a 200, as some servers send when a runner dies
                    self.send_json(200, {"error": "llama runner process no longer running: -1"})
                elif fault == "error_beside_answer":   # an answer and an error in one 200 (api/client.go reads the error)
                    message = {"role": "assistant", "content": "bug"}
                    self.send_json(200, {"model": body.get("model"), "done": True, "message": message,
                                         "error": "llama runner process no longer running: -1"})
                elif fault == "echo_headers":   # a debugging proxy: the request's headers in its error
                    body = ("upstream failed; request was:\n" + str(self.headers)).encode()
                    self.send_raw(500, body, "text/plain")
                elif fault == "key_in_reason":  # an empty 502 whose reason phrase repeats the header
                    self.wfile.write(f"HTTP/1.1 502 {self.headers.get('Authorization')}\r\n"
                                     "Content-Length: 0\r\n\r\n".encode())
                    self.wfile.flush()
                elif fault == "key_in_answer":  # a model or proxy that repeats what it was sent
                    message = {"role": "assistant", "content": f"you sent {self.headers.get('Authorization')}"}
                    self.send_json(200, {"choices": [{"index": 0, "message": message, "finish_reason": "stop"}]}
                                   if openai else {"model": body.get("model"), "done": True, "message": message})
                elif fault == "echo_user":      # a broken server or proxy that sends back the request's user turn
                    said = next(m["content"] for m in reversed(body["messages"]) if m.get("role") == "user")
                    message = {"role": "user", "content": said}
                    self.send_json(200, {"choices": [{"index": 0, "message": message, "finish_reason": "stop"}]}
                                   if openai else {"model": body.get("model"), "done": True, "message": message})
                elif fault == "no_length":      # a whole answer with no length, the connection left open
                    body = json.dumps({"model": body.get("model"), "done": True, "message": {"role": "assistant", "content": "bug"}})
                    self.wfile.write(f"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n{body}".encode())
                    self.wfile.flush()
                    time.sleep(fake.hang_seconds)
                    self.close_connection = True
                elif fault in ("drip_headers", "drip_body", "endless_chunked"):
                    self.drip(fault, model)
                else:
                    routed = fake.route(body) if fake.route else None
                    scripted = fake.agent_message(body, openai) if routed is None else None
                    # (an agent's turn is its script's: a tool's result looked up as an input said "a set of your own?")
                    content = routed if routed is not None else "" if scripted else fake.answer_for(text, body)
                    structured = body.get("response_format", {}).get("type") != "text" if openai and isinstance(
                        body.get("response_format"), dict) else bool(body.get("format")) and not openai
                    if fake.json_when_asked and structured and routed is None:
                        content = json.dumps({"label": content}, ensure_ascii=False)
                    message = {"role": "assistant", "content": content}
                    done_reason = "stop"
                    if scripted:
                        message, done_reason = scripted
                        content = message["content"] or ""
                    thinks = fake.thinking.get(model) or fake.thinking.get(model.removesuffix(":latest"))
                    if thinks == "apart" and self.think is not False:
                        message["thinking"] = fake.reasoning
                    elif thinks == "inline":
                        message["content"] = f"<think>\n{fake.reasoning}\n</think>\n\n{content}"
                    elif thinks == "unclosed":
                        message["content"], done_reason = f"<think>\n{fake.reasoning}", "length"
                    content = message["content"] or ""   # null beside OpenAI tool calls
                    options = body.get("options") if isinstance(body.get("options"), dict) else {}
                    turns = [m for m in body["messages"] if isinstance(m, dict)]
                    if not openai and isinstance(options.get("num_ctx"), int):
                        window = fake.window(model, options)
                        if body.get("truncate") is False and fake.honours_truncate:
                            # neither drop turns nor cut (server/routes.go: chatPrompt(..., truncate));
                            # the runner refuses a prompt past its window, a 400 in these words from v0.12.6 (its
                            # runner/ollamarunner/runner.go NewSequence, errorInputTooLong; that file is gone: current
                            # Ollama keeps the words for embeddings, llm/llama_server.go:2443, and in its native chat
                            # mode passes llama-server's own 400 on, the fault "native_window")
                            if fake.prompt_count(turns) > window:
                                self.send_error_json(400, "the input length exceeds the context length", openai)
                                return
                        else:
                            turns = fake.fitted_turns(turns, window)
                    prompt_tokens, completion_tokens = fake.prompt_count(turns), 1 + len(content) // 4
                    limit = body.get("max_tokens") if openai else options.get("num_predict")
                    if openai and fake.openai_context and prompt_tokens >= fake.openai_context:
                        # llama_cpp/llama.py _create_completion raises "Requested tokens (N) exceed context window
                        # of M" at a prompt of n_ctx tokens already (line 1344: len(prompt_tokens) >= self._n_ctx: no
                        # room is left for a token of answer), which llama_cpp/server/errors.py (context_length_exceeded)
                        # sends as this 400
                        self.send_json(400, {"error": {
                            "message": f"This model's maximum context length is {fake.openai_context} tokens. However, "
                                       f"you requested {prompt_tokens + (body.get('max_tokens') or 0)} tokens "
                                       f"({prompt_tokens} in the messages, {body.get('max_tokens')} in the completion). "
                                       "Please reduce the length of the messages or completion.",
                            "type": "invalid_request_error", "param": "messages", "code": "context_length_exceeded"}})
                        return
                    if openai and fake.openai_context:   # llama_cpp/llama.py _create_completion
                        room = fake.openai_context - prompt_tokens
                        limit = room if not isinstance(limit, int) or limit <= 0 or limit > room else limit
                    elif not openai and isinstance(options.get("num_ctx"), int) and not (
                            isinstance(limit, int) and 0 <= limit <= 10 * fake.window(model, options)):
                        # an open-ended answer (num_predict -1, Ollama's default, api/types.go DefaultOptions)
                        # is bounded at ten windows (llm/llama_server.go boundedNumPredict), past the window
                        limit = 10 * fake.window(model, options)
                    if thinks == "unclosed" and isinstance(limit, int) and limit > 0:
                        # cut inside its thinking: Ollama says "length" only once numPredicted reaches numPredict
                        # (llm/llama_server.go:1714-1716 and :2015-2017: llama-server's stop_type "limit" or
                        # finish_reason "length" is DoneReasonLength; once runner/ollamarunner/runner.go), its whole
                        # budget spent (a short answer said "length" under every limit, which no Ollama does)
                        completion_tokens = max(completion_tokens, limit)
                    thought = 1 + len(message.get("thinking") or "") // 4 if message.get("thinking") else 0
                    if isinstance(limit, int) and 0 < limit <= thought:
                        # the reasoning spends the budget first: Ollama bounds the whole generation by
                        # num_predict (llm/llama_server.go: NPredict) and splits the thinking off it after
                        # (server/routes.go ChatHandler, thinking.Parser): cut inside it, no answer at all
                        message["thinking"], message["content"] = message["thinking"][:4 * limit], ""
                        content, completion_tokens, done_reason = "", limit, "length"
                        thought = 0   # its count, the limit, is all thinking already: never counted twice
                    elif isinstance(limit, int) and 0 < limit - thought < completion_tokens:   # about 4 characters a token
                        message["content"] = content = content[:4 * (limit - thought)]
                        completion_tokens, done_reason = limit - thought, "length"
                    # Ollama's /v1 is its chat behind a translation: a json_object or json_schema response_format is
                    # its format (openai/openai.go FromChatRequest), its usage the same counts (ToUsage: EvalCount)
                    ollama = not openai or fake.native_api
                    formatted = body.get("format") if not openai else (body.get("response_format") or {}).get("type") in (
                        "json_object", "json_schema")
                    if thought and ollama and formatted and done_reason != "length":
                        # a format on a thinking model (server/routes.go ChatHandler, "structured outputs via
                        # double request", since v0.12.4): it thinks without the format, then is asked again
                        # with its thinking as an assistant turn; the metrics are the second request's
                        prompt_tokens += thought
                    elif thought:
                        # one generation: its count holds the thinking, once, over every API: Ollama's eval_count, its
                        # /v1's too (openai/openai.go ToUsage: CompletionTokens: r.EvalCount); llama.cpp's server
                        # every token decoded (tools/server server_task_result_cmpl_final::usage_json_oaicompat:
                        # "completion_tokens", n_decoded); vLLM's every token generated (entrypoints/openai/
                        # serving_chat.py: num_generated_tokens += len(output.token_ids)). OpenAI's
                        # completion_tokens_details.reasoning_tokens is a breakdown of it, never added to it
                        completion_tokens += thought
                    if isinstance(options.get("num_ctx"), int):   # a prompt past the window is cut, silently
                        keep = options.get("num_keep")
                        prompt_tokens = fake.cut_prompt(prompt_tokens, fake.window(model, options),
                                                        keep if isinstance(keep, int) else 4)
                    if openai:
                        if "thinking" in message:   # llama.cpp's and vLLM's name for it; Ollama's /v1 says "reasoning"
                            # (openai/openai.go Message.Reasoning, toChatCompletion: Reasoning: r.Message.Thinking)
                            message["reasoning" if fake.native_api else "reasoning_content"] = message.pop("thinking")
                        self.send_json(200, {
                            "id": "chatcmpl-1", "object": "chat.completion", "created": 1764496800, "model": body.get("model"),
                            "choices": [{"index": 0, "message": message, "finish_reason": fake.v1_finish or done_reason,
                                         # Ollama's /v1 reads logprobs and top_logprobs (openai/openai.go:121-122,
                                         # FromChatRequest :718-719) and sends them back in the choice (:272-274, :295)
                                         **({"logprobs": {"content": [{"token": "bug", "logprob": -0.01, "bytes": [98, 117, 103],
                                                                       "top_logprobs": []}]}}
                                            if fake.native_api and body.get("logprobs") is True else {})}],
                            "system_fingerprint": fake.fingerprint(),
                            "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                                      "total_tokens": prompt_tokens + completion_tokens,
                                      # (Ollama's Usage has no details: openai/openai.go Usage)
                                      **({"completion_tokens_details": {"reasoning_tokens": len(fake.reasoning) // 4}}
                                         if "reasoning_content" in message else {}), **fake.usage_extra}})
                        return
                    with fake.lock:   # a prompt asked before is in the cache
                        cached = text in fake.prompts_seen
                        fake.prompts_seen.add(text)
                    # the count holds the cached tokens too, the duration times only those evaluated
                    # (llm/llama_server.go: promptEvalCount() is CacheN + PromptN, the duration PromptMS)
                    evaluated = 1 if cached else prompt_tokens
                    counts = {"prompt_eval_count": prompt_tokens, "prompt_eval_duration": 2_000_000 * evaluated}
                    if cached and fake.uncached_counts:
                        # a version that counts only the tokens it evaluated sends 0 for a fully cached
                        # prompt, and a zero count is left out (api/types.go Metrics: omitempty)
                        counts = {}
                    self.send_json(200, {   # the model as it was sent (server/routes.go ChatHandler: Model: req.Model; over
                        # /v1 too: openai/openai.go ToChatCompletion, Model: r.Model)
                        "model": body.get("model"), "created_at": "2026-11-30T10:00:00.000000Z",
                        "message": message, **({"done_reason": done_reason} if fake.done_reason_sent else {}),
                        "done": True,
                        "total_duration": 812345678 - 1234567 + self.load_ns, "load_duration": self.load_ns,
                        **counts, "eval_count": completion_tokens, "eval_duration": 456789012, **fake.extra_fields})

        class Server(ThreadingHTTPServer):
            request_queue_size = 128   # many workers connecting at once
            daemon_threads = True
            block_on_close = False

        self.server = Server(("127.0.0.1", port), Handler)
        # polled every 20 ms, not 0.5 s: stop() returns as soon as the loop sees it (tests stop hundreds)
        threading.Thread(target=self.server.serve_forever, args=(0.02,), daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        return self

    def hang_up_idle(self):
        """Close every open connection, as a server does when its keep-alive timeout runs out."""
        with self.lock:
            for sock in self.open_sockets:
                try:
                    sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def stop(self):
        if self.server:
            self.server.shutdown()
            self.server.server_close()


# --- by hand: `python tests/fake_ollama.py`, to see every command work with no model at all ------

def splits_under(golden):
    """The split files under a folder of sets, or under each of a list of them."""
    import glob
    folders = [golden] if isinstance(golden, str) else golden
    return sorted({path for folder in folders for path in glob.glob(f"{folder}/**/*.jsonl", recursive=True)})


def filled_text(text, case):
    """A case's text as eval.py sends it, its {{vars}} filled in (the README's placeholders): the fake finds a case
    by that text too (a case of one's own with vars in its input got the default answer)."""
    v = case.get("vars") if isinstance(case.get("vars"), dict) else {}
    return re.sub(r"\{\{\s*([^{}\s]+)\s*\}\}", lambda m: str(v.get(m.group(1), m.group(0))), text)


def shipped_answers(golden):
    """input text -> a plausible answer for every case of the splits under `golden`: the expected
    label, except about one case in six, which gets the next label (so reports have something to
    show); for a free-text case, a reply that greets the customer and cites the order."""
    answers, by_filled, by_vars = {}, {}, []
    for path in splits_under(golden):
        labels = shipped_labels(path)
        for line in open(path, encoding="utf-8"):
            try:
                case = json.loads(line)
                text = case["messages"][-1]["content"] if case.get("messages") else case.get("input", "")
            except (ValueError, AttributeError):
                continue
            miss = hashlib.sha256(str(case.get("id")).encode()).digest()[0] % 6 == 0
            expected = case.get("expected")
            v = case.get("vars") if isinstance(case.get("vars"), dict) else {}
            filled = filled_text(text, case)
            if labels and expected in labels:
                answer = labels[(labels.index(expected) + miss) % len(labels)]
            else:
                answer = (f"Hola {v.get('customer', '')}, he revisado el pedido {v.get('order_id', '')} "
                          "y te escribo en cuanto tenga novedades.")
            answers[text] = answer
            by_filled.setdefault(filled, answer)
            if not text and v:   # asked with the filled prompt alone (no input): found by its vars' values
                by_vars.append(([str(x) for x in v.values() if str(x)], answer))
    # a case's own text first: another case's text filled in to the same words never answers for it
    return {**by_filled, **answers}, by_vars


# A prompt this long spells out the guide's definitions and rules (prompts/v3.txt does; v1 and v2,
# a line or two, do not): the fake misses one labelled case in six with it, one in three without.
RULES_PROMPT_CHARS = 1000
# The support prompt's rule "always include the order number" (prompts/support/v1.txt; v2 lost it)
ORDER_RULE = re.compile(r"n[úu]mero de pedido", re.I)


def sampling(body):
    """How a request samples, as Ollama's does: None at temperature 0 (the likeliest token is taken,
    slotState.sample: Argmax, seed or not); the seed at a temperature above 0 with a seed of 0 or
    more, which makes each request's sampling the same (the key comes from the seed and the token's
    place alone: mixSeed(seed, randomCounter), a counter per request); "fresh" with no seed: Ollama's
    default seed is -1 (api/types.go DefaultOptions) and a seed below 0 is none
    (x/mlxrunner/sample/sample.go Options.normalize: UseSeed false). Over /v1, temperature and seed
    are the request's own fields (openai/openai.go: options["seed"] only when r.Seed is set)."""
    options = body.get("options") if isinstance(body.get("options"), dict) else body
    temperature, seed = options.get("temperature"), options.get("seed")
    number = (int, float)
    if not (isinstance(temperature, number) and temperature > 0):
        return None
    return seed if isinstance(seed, number) and not isinstance(seed, bool) and seed >= 0 else "fresh"


def prompted_answers(golden):
    """callable(request body, input) -> an answer to a shipped case that depends on the system
    prompt and the model, the same every time (a hash of model, prompt and case decides): a
    classifier misses a case in three, or in six with a prompt that spells out the rules, each
    prompt and model its own cases; a support reply cites the order number always when the prompt
    asks for it, else one time in three. None for an input that is not a shipped case.
    A request that samples (sampling: a temperature above 0) is a draw: a case in four is
    borderline, and its answer flips, one draw in two, from the one it gets at temperature 0, so
    `--repeat` finds flaky cases as it would on Ollama. A seed decides the draw (the same seed, the
    same answer); without one the calls are counted per model, prompt and case, so the same run
    against a new fake gets the same answers (with --jobs above 1 the order the calls arrive in
    decides which trial gets which)."""
    calls, lock = {}, threading.Lock()
    read = {"seen": None, "cases": {}}

    def current_cases():
        """The cases as the files are now: a set edited while the fake runs (a case added, a label
        renamed) is answered as it reads now, not as it read at the start."""
        paths = splits_under(golden)
        seen = [(path, os.path.getmtime(path), os.path.getmtime(labels_txt) if os.path.exists(labels_txt) else None)
                for path in paths for labels_txt in [path.rsplit("/", 1)[0] + "/labels.txt"]]
        if seen != read["seen"]:
            cases, by_filled = {}, {}
            for path in paths:
                labels = shipped_labels(path)
                for line in open(path, encoding="utf-8"):
                    try:
                        case = json.loads(line)
                        text = case["messages"][-1]["content"] if case.get("messages") else case.get("input", "")
                        cases[text] = case, labels
                        by_filled.setdefault(filled_text(text, case), (case, labels))
                    except (ValueError, AttributeError, KeyError, TypeError):
                        continue
            read.update(seen=seen, cases={**by_filled, **cases})   # a case's own text first, as in shipped_answers
        return read["cases"]

    def answer(body, text):
        cases = current_cases()
        if text not in cases:
            return None
        case, labels = cases[text]
        turns = body.get("messages") if isinstance(body.get("messages"), list) else []
        system = next((t.get("content") for t in turns if isinstance(t, dict) and t.get("role") == "system"), "")
        system = system if isinstance(system, str) else ""

        def draw(what):
            key = "\0".join((str(body.get("model")), system, str(case.get("id")), what))
            return int.from_bytes(hashlib.sha256(key.encode()).digest()[:4], "big")
        flip, sampled = False, sampling(body)
        if sampled is not None and draw("borderline") % 4 == 0:
            if sampled == "fresh":
                key = (str(body.get("model")), system, str(case.get("id")))
                with lock:
                    call = calls[key] = calls.get(key, -1) + 1
                flip = draw(f"sample {call}") % 2 == 0
            else:
                flip = draw(f"seed {sampled}") % 2 == 0
        expected = case.get("expected")
        if labels and expected in labels:
            miss = (draw("label") % (6 if len(system) >= RULES_PROMPT_CHARS else 3) == 0) != flip
            return labels[(labels.index(expected) + miss) % len(labels)]
        v = case.get("vars", {})
        cites = ORDER_RULE.search(system) or ((draw("order") % 3 == 0) != flip)
        order = f"el pedido {v.get('order_id', '')}" if cites else "tu pedido"
        return f"Hola {v.get('customer', '')}, he revisado {order} y te escribo en cuanto tenga novedades."
    return answer


def shipped_labels(split_path):
    """The labels of labels.txt beside a split, [] if it has none: one a line, '#' starts a comment at
    a line's start or after a space (as eval.py reads the file: `neutral  # neither` is the label
    neutral, `C#` the label C#)."""
    try:
        with open(split_path.rsplit("/", 1)[0] + "/labels.txt", encoding="utf-8-sig") as f:
            return [label for label in (unicodedata.normalize("NFC", re.split(r"(?:^|\s)#", l, 1)[0].strip()) for l in f)
                    if label]
    except OSError:
        return []


def filled_from(value, values):
    """A case's text, or a check's arguments, with its {{vars}} filled as a model would read them (a placeholder alone
    gives the var's value as it is, a number staying one): the script of a user's own set with vars."""
    if isinstance(value, str):
        alone = re.fullmatch(r"\{\{\s*([^{}\s]+)\s*\}\}", value)
        if alone and alone.group(1) in values:
            return values[alone.group(1)]
        return re.sub(r"\{\{\s*([^{}\s]+)\s*\}\}", lambda m: str(values.get(m.group(1), m.group(0))), value)
    if isinstance(value, list):
        return [filled_from(v, values) for v in value]
    if isinstance(value, dict):
        return {filled_from(k, values) if isinstance(k, str) else k: filled_from(v, values) for k, v in value.items()}
    return value


def shipped_agents(golden):
    """user message -> scripted steps for every agent case (one with tools) of the splits under
    `golden`: the calls its tool_order and tool_called checks name, one a turn, then an answer that
    repeats what the last tool returned (or, with no call, asks for the order number and a
    confirmation). About one case in six calls lookup_order with an order that does not exist first,
    so that reports have a first failure to show."""
    agents = {}
    for path in splits_under(golden):
        tools_file = path.rsplit("/", 1)[0] + "/tools.json"
        for line in open(path, encoding="utf-8"):
            try:
                case = json.loads(line)
                values = case.get("vars") if isinstance(case.get("vars"), dict) else {}
                # (as a model reads its message: filled from the case's vars, as are the calls it makes; a set of a
                # user's own with {{order_id}} had no script, or called with "{{order_id}}" itself)
                case = {**case, "checks": filled_from(case.get("checks", []), values),
                        "messages": filled_from(case.get("messages", []), values)}
                text = case["messages"][-1]["content"] if case.get("messages") else filled_from(case.get("input", ""), values)
            except (ValueError, AttributeError, KeyError, TypeError):
                continue
            if not (case.get("tools") or os.path.exists(tools_file)):
                continue
            said = " ".join(m["content"] for m in case.get("messages", [])) + " " + text
            order = re.search(r"A-?\d{5}", said)
            order = {"order_id": order.group().replace("A", "A-", 1) if "-" not in order.group() else order.group()} if order else {}
            calls = []
            for check in sorted(case.get("checks", []), key=lambda c: c.get("type") != "tool_order"):   # the order first
                named = check.get("value") if check.get("type") == "tool_order" else [check.get("value")] \
                    if check.get("type") == "tool_called" else []
                for name in named:
                    arguments = check.get("arguments") if check.get("type") == "tool_called" and "arguments" in check else \
                        next((c.get("arguments", {}) for c in case.get("checks", []) if c.get("type") == "tool_called"
                              and c.get("value") == name and "arguments" in c), dict(order) if "order" in name else {})
                    # (a tool_order's names each, a name twice called twice: the check passes as written; a
                    # tool_called one already called is not called again)
                    if check.get("type") == "tool_order" or (name, arguments) not in calls:
                        calls.append((name, arguments))
            if hashlib.sha256(str(case.get("id")).encode()).digest()[0] % 6 == 0 and calls:
                calls.insert(0, ("lookup_order", {"order_id": "A-00000"}))   # a wrong argument, first
            agents[text] = [[call] for call in calls] + [lambda messages: (
                "Lo he consultado: " + messages[-1]["content"] if messages[-1].get("role") == "tool" else
                "Para ayudarte necesito el número de pedido; ¿me lo das? Si quieres cancelar algo, confírmamelo antes.")]
    return agents


# the models the README's commands name: with these, every command there runs against the fake
README_MODELS = ("qwen2.5:7b", "qwen3:8b", "llama3.2:3b", "llama3.1:8b", "SmolLM2-135M-Instruct-Q4_1:latest",
                 "Qwen/Qwen2.5-7B-Instruct:latest")


def shipped_fake(golden="golden", latency=0.02):
    """A FakeOllama (not started) that answers the shipped sets plausibly, differently for each prompt
    and model (prompted_answers), every judge with a pass, and every pairwise judge with the longer answer."""
    fake = FakeOllama(models=README_MODELS)
    judge = json.dumps({"reason": "La respuesta cita el pedido y contesta a lo que se pregunta.", "pass": True},
                       ensure_ascii=False)
    fake.route = lambda body: (side_by_side(body["messages"][-1]["content"]) if "\nAnswer A:\n" in body["messages"][-1]["content"]
                               else judge if "Criterion:" in body["messages"][-1]["content"]
                               else rag_judge(body["messages"][-1]["content"]))
    (fake.answers, fake.by_vars), fake.latency = shipped_answers(golden), latency
    fake.prompted = prompted_answers(golden)   # answers that change with the prompt and the model
    fake.agents = shipped_agents(golden)
    fake.thinking["qwen3:8b"] = "apart"   # a thinking model, as Ollama serves one
    fake.json_when_asked = True
    fake.refused_formats = {"json_schema"}   # as llama-cpp-python's server, the README's real model, does
    return fake


def unfenced(text):
    """What eval.py set between fences of backticks for a judge (eval.py fenced()), as the model wrote it."""
    text = text.strip("\n")
    fence = re.match("`{3,}\n", text)
    return text[fence.end():-len(fence.group())] if fence and text.endswith("\n" + fence.group()[:-1]) else text


def rag_judge(text):
    """A RAG judge's reply, in the shapes eval.py's prompts ask for (eval.py FAITHFUL_PROMPT,
    CONTEXT_RELEVANT_PROMPT): the answer's one claim supported by the first passage shown (no
    claim when there is none), or every passage rated, the first relevant. None for any other
    request (a model's answer)."""
    ids = re.findall(r"^\[\d+\] \(id: (.*)\)$", text, re.M)
    if "\n\nAnswer to check:\n" in text:
        answer = unfenced(text.split("\n\nAnswer to check:\n", 1)[1]).strip()
        return json.dumps({"claims": [{"claim": answer, "supported": True, "passage": ids[0]}] if ids else [],
                           "reason": "The answer's claim is in the first passage."})
    if "\n\nPassages:\n" in text:
        return json.dumps({"passages": [{"id": i, "relevant": n == 0} for n, i in enumerate(ids)],
                           "reason": "The first passage answers it."})
    return None


def side_by_side(text):
    """A pairwise judge's verdict: the longer answer wins, in either order (a tie when as long)."""
    a, b = map(unfenced, text.split("\nAnswer A:\n", 1)[1].split("\n\nAnswer B:\n", 1))
    winner = "A" if len(a) > len(b) else "B" if len(b) > len(a) else "tie"
    return json.dumps({"reason": "Compara las dos respuestas.", "winner": winner})


def by_hand(argv=None):
    import argparse
    p = argparse.ArgumentParser(description="A fake Ollama on 127.0.0.1 that answers the shipped golden sets "
                                            "plausibly, differently for each prompt and model (and every judge with "
                                            "a pass), to try eval.py without a model.")
    p.add_argument("--port", type=int, default=11434, help="port on 127.0.0.1 (default 11434, Ollama's)")
    p.add_argument("--golden", action="append", default=[], metavar="DIR",
                   help="a folder of your own sets to answer too, as it answers golden/'s (repeatable)")
    p.add_argument("--latency", type=float, default=0.02, help="seconds per answer (default 0.02)")
    args = p.parse_args(argv)
    for folder in args.golden:   # (a typo was taken in silence, and every input then said "start it with --golden DIR")
        if not os.path.isdir(folder):
            raise SystemExit(f"--golden {folder}: no such folder (the one `eval.py init` made, holding your sets)")
        if not any(name.endswith(".jsonl") for _, _, names in os.walk(folder) for name in names):
            print(f"fake: --golden {folder} holds no .jsonl set yet; its sets are read as they are asked",
                  file=sys.stderr, flush=True)
    # the shipped sets beside this file's folder, wherever it is started from (started in tests/, it read no golden/ and
    # answered 'bug' to every shipped case, saying "a set of your own?")
    shipped = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "golden")
    fake = shipped_fake([shipped, *args.golden], args.latency)
    told = []

    def unscripted(text):   # a set of one's own asked of a fake started without it: said once, never silent
        if not told:
            told.append(True)
            print("fake: asked an input it has no answer for (a set of your own? start the fake with --golden DIR); "
                  "it answers 'bug' to every such input", file=sys.stderr, flush=True)
        return "bug"
    fake.default_answer = unscripted
    try:
        fake.start(args.port)
    except OSError as e:
        raise SystemExit(f"cannot listen on 127.0.0.1:{args.port} ({e.strerror}); is Ollama running? pick --port")
    print(f"fake Ollama at {fake.url}, serving {', '.join(fake.models)} ({len(fake.answers)} scripted answers); "
          "Ctrl-C to stop", flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        fake.stop()


if __name__ == "__main__":
    by_hand()
