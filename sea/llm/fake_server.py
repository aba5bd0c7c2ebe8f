"""A small OpenAI- and Anthropic-compatible HTTP server on 127.0.0.1, for tests and benchmarks.

The real SDKs talk to it over real HTTP. It can inject faults in order (`script`), add latency,
enforce a requests-per-minute limit (answering 429 when a client exceeds it), and it counts
what it served so callers can check ledgers and caches against the server's own numbers."""

from __future__ import annotations

import email.utils
import json
import math
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

# Fault names usable in `script`, one per incoming request, in order; then every request is "ok".
# "timeout" hangs and never answers; "late" hangs, then does the work and answers (a client that
# gave up meanwhile was still billed for it, as on a real API); "trickle" answers, sending its body one
# byte every trickle_s seconds. The *_usage faults answer the
# prompt but report token usage that cannot be trusted (the server still counts the true usage);
# "429_date" gives its Retry-After as an HTTP date, retry_after_s (rounded up) from now, truncated to
# the second as HTTP dates are: the client then waits up to a second less than that. "length" answers the
# prompt but says the reply was cut at max_tokens (finish_reason "length", stop_reason "max_tokens").
USAGE_FAULTS = {"no_usage": None, "null_usage": "null", "negative_usage": -1000, "fractional_usage": 1.5,
                "huge_usage": 10**12, "zero_usage": 0}
# "quota" is OpenAI's 429 for an account whose quota is used up. "refusal" and "content_filter" answer with a refusal as
# each API sends one (see _refuse). "html" answers a web page; "stream" the reply as server-sent events, as a server that
# only streams does. "empty" answers with no reply at all: OpenAI's choices and Anthropic's content empty.
REFUSALS = ("refusal", "content_filter")
FAULTS = ("ok", "400", "401", "429", "429_date", "500", "timeout", "late", "trickle", "malformed", "die", "length", *USAGE_FAULTS,
          *REFUSALS, "html", "stream", "quota", "other_model", "empty")


def count_tokens(text: str) -> int:
    return len(text.split())


@dataclass
class ServerState:
    requests: int = 0
    served: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    rate_violations: int = 0
    authorizations: set[str] = field(default_factory=set)
    arrivals: list[float] = field(default_factory=list)  # times of admitted requests under a rate limit
    max_concurrent: int = 0
    concurrent: int = 0


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 256  # the default backlog of 5 resets connections when 64 clients connect at once


class FakeLLMServer:
    def __init__(self, *, latency_s: float = 0.0, requests_per_minute: float | None = None, window_s: float = 60.0,
                 script: list[str] | None = None, retry_after_s: float = 0.05, hang_s: float = 5.0, trickle_s: float = 0.05,
                 reply: Callable[[str], str] = lambda prompt: "Answer: A", tokens: Callable[[str], int] = count_tokens):
        unknown = set(script or []) - set(FAULTS)
        if unknown:
            raise ValueError(f"unknown faults {unknown}; use {FAULTS}")
        # The rate limit is checked over any sliding window of window_s seconds (pro rata), so a
        # short run can still catch a client that bursts.
        self.latency_s, self.window_s = latency_s, window_s
        self.requests_per_window = requests_per_minute * window_s / 60 if requests_per_minute else None
        self.script, self.retry_after_s, self.hang_s, self.reply = deque(script or []), retry_after_s, hang_s, reply
        self.trickle_s = trickle_s
        self.tokens = tokens  # how the server counts a text's tokens, in the usage it reports
        self.state = ServerState()
        self._lock = threading.Lock()
        self._httpd = _Server(("127.0.0.1", 0), self._handler())
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._httpd.server_address[1]}"

    def __enter__(self) -> FakeLLMServer:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    def _admit(self, authorization: str) -> str:
        """Count the request and decide its fate (a fault, a rate-limit 429, or ok)."""
        with self._lock:
            state = self.state
            state.requests += 1
            state.authorizations.add(authorization)
            fault = self.script.popleft() if self.script else "ok"
            if self.requests_per_window and fault == "ok":
                now = time.monotonic()
                recent = [t for t in state.arrivals if now - t < self.window_s]
                if len(recent) >= self.requests_per_window:
                    state.rate_violations += 1
                    return "429"
                state.arrivals.append(now)
            return fault

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            disable_nagle_algorithm = True  # else delayed ACKs add ~40 ms to every response

            def log_message(self, *args) -> None:  # keep test output clean
                pass

            def _send(self, status: int, body: bytes, headers: dict[str, str] | None = None,
                      content_type: str = "application/json", trickle_s: float = 0) -> None:
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(body)))
                for name, value in (headers or {}).items():
                    self.send_header(name, value)
                self.end_headers()
                try:
                    for chunk in [body[i:i + 1] for i in range(len(body))] if trickle_s else [body]:
                        self.wfile.write(chunk)
                        self.wfile.flush()
                        time.sleep(trickle_s)
                except (BrokenPipeError, ConnectionResetError):  # the client gave up ("late")
                    self.close_connection = True

            def do_POST(self) -> None:
                payload = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
                fault = server._admit(f"{self.headers.get('Authorization', '')} {self.headers.get('x-api-key', '')}".strip())
                if fault == "die":
                    threading.Thread(target=server.stop, daemon=True).start()
                    self.close_connection = True
                    return
                if fault in ("timeout", "late"):
                    time.sleep(server.hang_s)
                    if fault == "timeout":
                        return
                if fault in ("400", "401", "429", "429_date", "500"):
                    status = int(fault[:3])
                    error = json.dumps({"error": {"message": f"injected {fault}", "type": "injected"}}).encode()
                    retry_after = (email.utils.formatdate(time.time() + math.ceil(server.retry_after_s), usegmt=True)
                                   if fault == "429_date" else str(server.retry_after_s))
                    self._send(status, error, {"Retry-After": retry_after} if status == 429 else None)
                    return
                if fault == "quota":
                    error = {"error": {"message": "You exceeded your current quota", "type": "insufficient_quota",
                                       "code": "insufficient_quota"}}
                    self._send(429, json.dumps(error).encode())
                    return
                if fault == "malformed":
                    self._send(200, b'{"choices": [ {"message": ')
                    return
                if fault == "html":
                    self._send(200, b"<html><body><h1>Welcome</h1></body></html>", content_type="text/html")
                    return
                with server._lock:
                    server.state.concurrent += 1
                    server.state.max_concurrent = max(server.state.max_concurrent, server.state.concurrent)
                time.sleep(server.latency_s)
                prompt = "\n".join(str(m.get("content", "")) for m in payload.get("messages", []))
                text = server.reply(prompt)
                usage_in = server.tokens(prompt) + server.tokens(str(payload.get("system", "")))
                usage_out = server.tokens(text)
                with server._lock:
                    state = server.state
                    state.concurrent -= 1
                    state.served += 1
                    state.input_tokens += usage_in
                    state.output_tokens += usage_out
                anthropic = self.path.endswith("/messages")
                body = _anthropic_body(payload, text, usage_in, usage_out) if anthropic else _openai_body(payload, text, usage_in, usage_out)
                if fault in USAGE_FAULTS:
                    _spoil_usage(body, USAGE_FAULTS[fault])
                if fault == "length":
                    _cut(body)
                if fault == "other_model":
                    body["model"] = "another-model"
                if fault == "empty":
                    body["content" if anthropic else "choices"] = []
                if fault in REFUSALS:
                    _refuse(body, fault)
                if fault == "stream":
                    self._send(200, f"data: {json.dumps(body)}\n\ndata: [DONE]\n\n".encode(), content_type="text/event-stream")
                    return
                self._send(200, json.dumps(body).encode(), trickle_s=server.trickle_s if fault == "trickle" else 0)

        return Handler


def _openai_body(payload: dict, text: str, usage_in: int, usage_out: int) -> dict:
    return {
        "id": "chatcmpl-fake", "object": "chat.completion", "created": int(time.time()), "model": payload.get("model", ""),
        "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": text}}],
        "usage": {"prompt_tokens": usage_in, "completion_tokens": usage_out, "total_tokens": usage_in + usage_out},
    }


def _anthropic_body(payload: dict, text: str, usage_in: int, usage_out: int) -> dict:
    return {
        "id": "msg_fake", "type": "message", "role": "assistant", "model": payload.get("model", ""),
        "content": [{"type": "text", "text": text}], "stop_reason": "end_turn", "stop_sequence": None,
        "usage": {"input_tokens": usage_in, "output_tokens": usage_out},
    }


def _cut(body: dict) -> None:
    """The body of a reply the backend cut at max_tokens."""
    if "stop_reason" in body:
        body["stop_reason"] = "max_tokens"
    else:
        body["choices"][0]["finish_reason"] = "length"


def _spoil_usage(body: dict, value: object) -> None:
    """No usage (None), a null one ("null"), or every count replaced by `value`."""
    if value is None:
        del body["usage"]
    elif value == "null":
        body["usage"] = None
    else:
        body["usage"] = {name: value for name in body["usage"]}


def _refuse(body: dict, fault: str) -> None:
    """Anthropic's stop_reason "refusal" with no content; OpenAI's message.refusal, or its content filter, with content null."""
    if "stop_reason" in body:
        body.update(stop_reason="refusal", content=[])
    elif fault == "refusal":
        body["choices"][0]["message"].update(content=None, refusal="I'm sorry, I can't help with that.")
    else:
        body["choices"][0].update(finish_reason="content_filter", message={"role": "assistant", "content": None})
