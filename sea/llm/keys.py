"""API keys, from the environment only; importable without the SDKs, so the CLI can check them at once."""

from __future__ import annotations

import os
from collections.abc import Mapping

from sea.errors import ParamsError
from sea.settings import ModelSettings


def api_key(settings: ModelSettings) -> str:
    """The key from the environment, or a ParamsError naming the variable. Keyless local
    servers (e.g. Ollama) are used with api_key_env unset: the SDK then gets a placeholder."""
    variable = settings.key_variable
    if variable is None:
        return "no-key"
    key = os.environ.get(variable, "")
    if not key:
        raise ParamsError(f"{settings.model}: environment variable {variable} is not set; export it with your API key "
                          f"(keys are read from the environment only)")
    return key


def without_key(text: str, request_headers: Mapping[str, str]) -> str:
    """A server's words with the key its request carried taken out: some gateways repeat a refused key
    ("Incorrect API key provided: sk-…"), and these words are stored with the answers and shown."""
    for header in ("authorization", "x-api-key"):
        key = request_headers.get(header, "").removeprefix("Bearer ").strip()
        if len(key) >= 8:  # not the keyless placeholder
            text = text.replace(key, "<the key>")
    return text
