"""Text a page shows, from a knowledge base, a model or a reviewer: no HTML text may hold a control
character (a NUL or a terminal escape from a user's knowledge base); tab and line breaks stay."""

from __future__ import annotations

import re

_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def printable(text: str) -> str:
    return _CONTROL.sub("", text)
