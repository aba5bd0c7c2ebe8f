"""The LLM question writer and rephraser (generator role, any provider).

A reply with the wrong number of valid items is retried a bounded number of times, telling the
model what was wrong; then the valid items are kept and the rest recorded as dropped. Items are
never matched by position: each question carries its own options and answer, and each question
is rephrased in its own call."""

from __future__ import annotations

from dataclasses import dataclass, field

from sea.llm.client import CallFailed, ModelClient
from sea.llm.types import REFUSED, Message
from sea.questions.model import Draft
from sea.questions.parsing import extract_json
from sea.questions.prompts import rephrase_messages, writer_messages
from sea.questions.validation import draft_from_item, phrasing_problem

CUT_REPLY = "reply cut at max_tokens"  # the reason of a reply that is unreadable because the endpoint cut it there


@dataclass
class Written:
    """Valid results and what was dropped, as (text, reason)."""

    kept: list = field(default_factory=list)
    dropped: list[tuple[str, str]] = field(default_factory=list)


def _with_feedback(messages: list[Message], reply: str, problems: list[str], wanted: int) -> list[Message]:
    note = "; ".join(problems) if problems else "wrong number of items"
    return [*messages, {"role": "assistant", "content": reply},
            {"role": "user", "content": f"That reply had problems ({note}). Reply again with exactly {wanted} valid "
                                        "items, as JSON only."}]


async def _ask_until_enough(client: ModelClient, messages: list[Message], wanted: int, attempts: int, parse,
                            subject: str) -> Written:
    """Ask, parse with `parse(reply) -> Written`, and retry with feedback until `wanted` items are
    valid or attempts run out; the attempt with the most valid items wins. A call that failed for
    good (after the client's retries) ends the asking and is recorded as dropped under `subject`;
    an endpoint that refuses every call raises EndpointFailing."""
    best = Written()
    conversation = messages
    for _ in range(attempts):
        try:
            completion = await client.complete(conversation)
        except CallFailed as failed:
            if client.failing:  # the failure condemned the endpoint: every later call would fail too
                raise client.failing from None
            best.dropped.append((subject[:500], f"call failed: {failed.failure.reason}"))
            break
        reply = completion.text
        try:
            written = parse(reply)
        except ValueError as error:
            why = (f"{CUT_REPLY}={client.settings.max_tokens}" if completion.cut
                   else "refused" if reply.startswith(REFUSED) else "unreadable reply")
            written = Written(dropped=[(reply[:500], f"{why}: {error}")])
        if len(written.kept) >= len(best.kept):
            best = written
        if len(written.kept) >= wanted and not written.dropped:
            break
        conversation = _with_feedback(conversation, reply, [reason for _, reason in written.dropped], wanted)
    if len(best.kept) > wanted:
        best.dropped += [(str(extra), "more items than asked for") for extra in best.kept[wanted:]]
        best.kept = best.kept[:wanted]
    return best


def _parse_questions(reply: str) -> Written:
    data = extract_json(reply)
    items = data.get("questions") if isinstance(data, dict) else data
    if not isinstance(items, list):
        raise ValueError("no list of questions")
    written, seen = Written(), set()
    for item in items:
        draft, reason = draft_from_item(item)
        if draft and draft.question.lower() in seen:
            draft, reason = None, "repeats another question"
        if draft:
            seen.add(draft.question.lower())
            written.kept.append(draft)
        else:
            written.dropped.append((str(item)[:500], reason))
    return written


async def write_drafts(client: ModelClient, title: str, text: str, n: int, attempts: int) -> Written:
    """Up to n valid base questions about the paragraph."""
    return await _ask_until_enough(client, writer_messages(title, text, n), n, attempts, _parse_questions, title)


async def rephrase(client: ModelClient, draft: Draft, n: int, attempts: int) -> Written:
    """Up to n rephrasings of the question that keep its gold option's text as the answer (no call for none)."""
    if n == 0:
        return Written()

    def parse(reply: str) -> Written:
        data = extract_json(reply)
        items = data.get("rephrasings") if isinstance(data, dict) else data
        if not isinstance(items, list):
            raise ValueError("no list of rephrasings")
        written, seen = Written(), {draft.question.lower()}
        for item in items:
            text = item.strip() if isinstance(item, str) else ""
            reason = phrasing_problem(text, draft.answer) or ("repeats the question" if text.lower() in seen else None)
            if reason:
                written.dropped.append((str(item)[:500], reason))
            else:
                seen.add(text.lower())
                written.kept.append(text)
        return written

    return await _ask_until_enough(client, rephrase_messages(draft.question, draft.answer, n), n, attempts, parse,
                                   draft.question)
