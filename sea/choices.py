"""The multiple-choice format that the question side writes and the model side reads: the option
letters, how options are laid out, and the instruction put before every question. Both layers
depend on this module; neither depends on the other."""

from __future__ import annotations

LETTERS = "ABCD"

TESTEE_INSTRUCTION = "Answer the multiple-choice question below. Reply with the letter of the correct option only, as \"Answer: X\"."
EVIDENCE_LABEL = "Paragraph: "  # begins an open-book prompt's one line of evidence, a JSON string


def format_options(options: list[str]) -> str:
    return "\n".join(f"{letter}) {option}" for letter, option in zip(LETTERS, options, strict=True))
