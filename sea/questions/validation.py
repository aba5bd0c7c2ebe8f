"""Schema and content checks for written questions; each failure has a reason."""

from __future__ import annotations

import re

from sea.questions.model import LETTERS, Draft

_POINTS_AT_HIDDEN_TEXT = re.compile(
    r"\b(the|this|that|above|given|provided)\s+(passage|text|paragraph|excerpt|context|article|extract|section)\b",
    re.IGNORECASE,
)


def _norm(text: str) -> str:
    return " ".join(text.lower().split())


def phrasing_problem(question: str, answer: str) -> str | None:
    """Why a question's wording is unusable, or None."""
    if not question.strip():
        return "empty question"
    if _POINTS_AT_HIDDEN_TEXT.search(question):
        return "refers to the hidden passage"
    if len(_norm(answer)) >= 3 and re.search(rf"\b{re.escape(_norm(answer))}\b", _norm(question)):
        return "gives the answer away"
    return None


def draft_from_item(item: object) -> tuple[Draft | None, str]:
    """A Draft from one writer JSON item, or None with the reason it is invalid."""
    if not isinstance(item, dict):
        return None, "item is not an object"
    question, options, answer = item.get("question"), item.get("options"), item.get("answer")
    statement = item.get("fact") or item.get("statement") or ""
    if isinstance(options, dict):
        options = [options.get(letter) for letter in LETTERS] if set(options) == set(LETTERS) else None
    if not isinstance(options, list) or len(options) != 4 or not all(isinstance(o, str) and o.strip() for o in options):
        return None, "needs exactly four non-empty options"
    options = [o.strip() for o in options]
    if len({_norm(o) for o in options}) != 4:
        return None, "options are not distinct"
    if not isinstance(answer, str) or answer.strip().upper() not in LETTERS:
        return None, f"answer {answer!r} is not one of the option letters"
    if not isinstance(question, str):
        return None, "question is not text"
    draft = Draft(question.strip(), tuple(options), LETTERS.index(answer.strip().upper()), str(statement).strip())
    problem = phrasing_problem(draft.question, draft.answer)
    return (None, problem) if problem else (draft, "")
