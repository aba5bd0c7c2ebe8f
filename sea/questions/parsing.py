"""Reading model replies: JSON from a question writer, and the testee's answer letter."""

from __future__ import annotations

import json
import re

from sea.choices import LETTERS

_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.DOTALL | re.IGNORECASE)


def extract_json(reply: str) -> object:
    """The JSON value in a reply, tolerating code fences and prose around it. Raises ValueError."""
    candidates = [match.group(1) for match in _FENCE.finditer(reply)] + [reply]
    for text in candidates:
        # Whichever bracket opens first encloses the value: a one-item array must not parse as its item.
        pairs = sorted((("{", "}"), ("[", "]")), key=lambda pair: (text.find(pair[0]) < 0, text.find(pair[0])))
        for opener, closer in pairs:
            start, end = text.find(opener), text.rfind(closer)
            if 0 <= start < end:
                try:
                    return json.loads(text[start:end + 1])
                except json.JSONDecodeError:
                    continue
    raise ValueError("no JSON object or array found in the reply")


# Forms the testee may use, strictest first. The letter must stand alone: "According to …"
# or "Based on …" start with a capital A or B and must not parse.
_LONE = re.compile(r"^[\s*(\[]*([A-D])[\s*)\].:]*$")
_BOXED = re.compile(r"\\boxed\{\s*\(?([A-D])\)?\s*\}")
_ANSWER = re.compile(r"\banswer\s*(?:is|:|=|-)?\s*[*(\[]*\s*([A-D])(?![A-Za-z0-9'])", re.IGNORECASE)
_LEADING = re.compile(r"^[\s*(\[]*([A-D])\s*[).:\]]\s+\S")


def parse_answer(reply: str) -> str | None:
    """The option letter a reply gives, or None when it is unparseable."""
    text = reply.strip().replace("**", "")
    for pattern in (_LONE, _BOXED):
        match = pattern.search(text)
        if match:
            return match.group(1)
    stated = [m.group(1) for m in _ANSWER.finditer(text) if m.group(1) in LETTERS]
    if stated:
        return stated[-1]  # a final answer after reasoning wins
    match = _LEADING.match(text)
    return match.group(1) if match else None
