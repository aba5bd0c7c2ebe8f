"""Keys come from the environment and never leave in what SEA stores or shows (sea.llm.keys)."""

import asyncio
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from sea.llm.providers import AnthropicMessages, OpenAIChat
from sea.llm.types import Decoding, ProviderError
from sea.settings import ModelSettings

KEY = "sk-SECRET-CANARY-1234567890"


class KeyEchoingServer(BaseHTTPRequestHandler):
    """Refuses every key, repeating it, as some OpenAI-compatible gateways do."""

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers["Content-Length"]))
        key = self.headers.get("x-api-key") or self.headers["Authorization"].removeprefix("Bearer ")
        body = json.dumps({"type": "error", "error": {"type": "authentication_error",
                                                      "message": f"Incorrect API key provided: {key}."}}).encode()
        self.send_response(401)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args) -> None:
        pass


@pytest.mark.parametrize("provider, model, suffix", [(OpenAIChat, "openai:gpt-4o-mini", "/v1"),
                                                     (AnthropicMessages, "anthropic:claude-haiku-4-5", "")])
def test_a_key_the_server_repeats_in_its_error_is_taken_out(provider, model, suffix, monkeypatch):
    """A bug hunt: the reason, stored in answers.parquet and MLflow and shown on the console, carried the key."""
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    monkeypatch.setenv("ANTHROPIC_API_KEY", KEY)
    server = ThreadingHTTPServer(("127.0.0.1", 0), KeyEchoingServer)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        settings = ModelSettings(model=model, base_url=f"http://127.0.0.1:{server.server_port}{suffix}")
        with pytest.raises(ProviderError) as error:
            asyncio.run(provider(settings).complete([{"role": "user", "content": "Which? A) x B) y"}], Decoding()))
    finally:
        server.shutdown()
    assert "HTTP 401 (" in error.value.reason and "Incorrect API key provided" in error.value.reason
    assert KEY not in error.value.reason and KEY not in str(error.value)
