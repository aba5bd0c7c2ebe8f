"""Schema and content checks for written questions; each failure has a reason."""

from __future__ import annotations

import re
import unicodedata

from sea.choices import LETTERS
from sea.questions.model import Draft

_POINTS_AT_HIDDEN_TEXT = re.compile(
    r"\b(the|this|that|above|given|provided)\s+(passage|text|paragraph|excerpt|context|article|extract|section)\b",
    re.IGNORECASE,
)


# Text addressed to the model as an instruction. Wikipedia prose is third person and names
# albums, songs and films such as "Answer to Job" or "Say Anything...", so a verb alone is not
# enough: each pattern wants the verb at the start of a clause (an imperative) with an object
# that only an instruction has, a "you" told what to do, an answer key, or an injection phrase.
_CLAUSE_START = r"""(?:^|[.!?;:\n]["'”’)]*\s*|["'“‘(]\s*|\bplease,?\s+)"""
_LETTER = r"""(?-i:[A-D])(?=\s*(?:[.,;:!?)"'”’]|$))"""  # an option letter, not the article "A"
_INSTRUCTION = re.compile("|".join((
    _CLAUSE_START + r"(?:answer|reply|respond)\s*(?::|\s(?:only|with|using|exactly|briefly|in\s+json|"
                    r"(?:the|this|each|every|all)\s+(?:following\s+)?questions?)\b)",
    _CLAUSE_START + r"(?:say|output|print|write|return)\s+(?:only|exactly|just|the\s+(?:letter|option)\b|" + _LETTER + ")",
    _CLAUSE_START + r"(?:choose|select|pick)\s+(?:the\s+)?(?:correct|right|best)\s+(?:answer|option|letter)",
    r"\b(?:choose|select|pick)\s+(?:(?:option|answer|letter|choice)\s+)?" + _LETTER,
    r"\b(?:ignore|disregard|forget|override)\b[^.?!\n]{0,40}\b(?:instructions?|prompts?)\b",
    r"\byou\s+(?:must|should|need\s+to|have\s+to|are\s+to|will|can\s+only)\s+(?:(?:now|only|always|never|not)\s+)*"
    r"(?:answer|reply|respond|choose|select|pick|output|say|print|ignore|disregard|forget|obey|comply|pretend)\b",
    r"\b(?:answer|option|choice)\b[^.?!\n]{0,60}?(?:\bis|=|:)\s*[\"'“(]*(?:option\s+|letter\s+)?" + _LETTER,
    r"\b(?:previous|prior|preceding|above)\s+instructions\b",
    r"\bsystem\s+prompt\b",
    r"\bas\s+an\s+AI(?:\s+(?:language\s+model|model|assistant|chatbot))?(?=\s*(?:[,.;:!?]|$))",
)), re.IGNORECASE)


INSTRUCTION_LIKE = "reads as an instruction to the model"


def instruction_like(text: str) -> bool:
    """Whether the text tells a model what to answer or to drop its instructions."""
    return _INSTRUCTION.search(text) is not None


def _norm(text: str) -> str:
    return " ".join(text.lower().split())


def _option_key(option: str) -> str:
    """What tells options apart for a reader: not case, spacing, invisible characters (a zero-width space), a
    sentence's closing punctuation or quotes around them ("Paris." and "'Paris'" are "Paris"); the signs that
    make a name or a number ("C++" and "C", "-40" and "40") do."""
    visible = "".join(c for c in option if unicodedata.category(c) != "Cf")
    return _norm(visible).strip("\"'“”‘’ ").rstrip(".,;:!? ").strip("\"'“”‘’ ")


# An option that marks itself or another as the answer: a check or cross mark anywhere, or a note at its end in
# brackets or after a dash ("Paris (correct)", "Lyon [wrong answer]", "Nice - the answer").
_MARKS_THE_ANSWER = re.compile(
    r"[\u2713\u2714\u2705\u2611\u2717\u2718\u274c]"
    r"|(?:[(\[]\s*|\s[-\u2013\u2014]\s*)(?:the\s+)?(?:(?:correct|right|true|incorrect|wrong|false)"
    r"(?:\s+(?:answer|option|choice))?|answer)\s*[)\]]?$",
    re.IGNORECASE)


def phrasing_problem(question: str, answer: str) -> str | None:
    """Why a question's wording is unusable, or None."""
    if not question.strip():
        return "empty question"
    if _POINTS_AT_HIDDEN_TEXT.search(question):
        return "refers to the hidden passage"
    if instruction_like(question):
        return INSTRUCTION_LIKE
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
    if len({_option_key(o) for o in options}) != 4:
        return None, "options are not distinct"
    if any(instruction_like(o) for o in options):
        return None, f"an option {INSTRUCTION_LIKE}"
    marked = next((o for o in options if _MARKS_THE_ANSWER.search(o)), None)
    if marked:
        return None, f"an option marks the answer: {marked[:80]!r}"
    if not isinstance(answer, str) or answer.strip().upper() not in LETTERS:
        return None, f"answer {answer!r} is not one of the option letters"
    if not isinstance(question, str):
        return None, "question is not text"
    draft = Draft(question.strip(), tuple(options), LETTERS.index(answer.strip().upper()), str(statement).strip())
    problem = phrasing_problem(draft.question, draft.answer)
    return (None, problem) if problem else (draft, "")
