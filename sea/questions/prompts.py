"""Every prompt SEA sends, in our own words."""

from __future__ import annotations

from sea.llm.types import Message
from sea.questions.model import LETTERS

WRITER_SYSTEM = (
    "You write multiple-choice quiz questions that test whether someone knows a fact. "
    "You reply with JSON only."
)

WRITER_TASK = """Article: {title}
Paragraph:
\"\"\"
{text}
\"\"\"

Write {n} different questions about facts stated in this paragraph. Each question must:
- make sense on its own to a reader who has never seen the paragraph: name the subject
  instead of saying "the passage", "the text", "the article" or "the paragraph";
- have exactly four options, one correct and three plausible but wrong, all different;
- not contain its own answer.

Reply with a JSON object of this shape and nothing else:
{{"questions": [{{"question": "...", "options": {{"A": "...", "B": "...", "C": "...", "D": "..."}},
"answer": "A", "fact": "one sentence stating the fact the question tests"}}]}}"""

REPHRASE_SYSTEM = "You rewrite quiz questions in different words without changing what they ask. You reply with JSON only."

REPHRASE_TASK = """Question: {question}
Correct answer: {answer}

Write {n} rephrasings of this question. Each must ask for exactly the same fact, so that
"{answer}" stays the correct answer, must make sense on its own, and must not contain the answer.
Reply with a JSON object of this shape and nothing else:
{{"rephrasings": ["...", "..."]}}"""

TESTEE_INSTRUCTION = "Answer the multiple-choice question below. Reply with the letter of the correct option only, as \"Answer: X\"."

OPEN_BOOK_INSTRUCTION = (
    "Read the paragraph, then answer the multiple-choice question using it. "
    "Reply with the letter of the correct option only, as \"Answer: X\"."
)


def writer_messages(title: str, text: str, n: int) -> list[Message]:
    return [{"role": "system", "content": WRITER_SYSTEM},
            {"role": "user", "content": WRITER_TASK.format(title=title, text=text, n=n)}]


def rephrase_messages(question: str, answer: str, n: int) -> list[Message]:
    return [{"role": "system", "content": REPHRASE_SYSTEM},
            {"role": "user", "content": REPHRASE_TASK.format(question=question, answer=answer, n=n)}]


def format_options(options: list[str]) -> str:
    return "\n".join(f"{letter}) {option}" for letter, option in zip(LETTERS, options, strict=True))


def testee_messages(question: str, options: list[str], hint: str | None = None) -> list[Message]:
    """Closed-book: the testee sees the question alone (and, if switched on, the section as a hint)."""
    topic = f"Topic: {hint}\n\n" if hint else ""
    return [{"role": "user", "content": f"{TESTEE_INSTRUCTION}\n\n{topic}{question}\n{format_options(options)}"}]


def open_book_messages(paragraph: str, question: str, options: list[str]) -> list[Message]:
    """The verifier's (and the open-book benchmark's) prompt: the paragraph is shown."""
    return [{"role": "user", "content": f"{OPEN_BOOK_INSTRUCTION}\n\nParagraph:\n\"\"\"\n{paragraph}\n\"\"\"\n\n"
                                        f"{question}\n{format_options(options)}"}]
