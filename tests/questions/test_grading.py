import pytest

from sea.llm.cache import ResponseCache
from sea.llm.client import ModelClient
from sea.llm.fake_server import FakeLLMServer
from sea.llm.ledger import Ledger, PriceTable
from sea.llm.providers import AnthropicMessages, OpenAIChat
from sea.llm.types import CallFailure, Completion
from sea.questions import prompts
from sea.questions.grading import (
    answer_record,
    answers_table,
    ask,
    ask_once_each,
    tally,
)
from sea.settings import ModelSettings, default_prices
from sea.questions.model import Draft, Outcome
from sea.questions.shuffle import phrasings_to_questions

QUESTION = phrasings_to_questions(1, Draft("Which city is the capital of France?", ("Paris", "Lyon", "Lille", "Nice"), 0, ""),
                                  [], "g", 0)[0]


def completion(text):
    return Completion(text, 20, 3, 0.0001, 0.2, False, "openai:gpt-4o-mini")


def test_outcomes():
    wrong = next(letter for letter in "ABCD" if letter != QUESTION.gold_letter)
    records = [answer_record(QUESTION, "t", completion(f"Answer: {QUESTION.gold_letter}")),
               answer_record(QUESTION, "t", completion(f"Answer: {wrong}")),
               answer_record(QUESTION, "t", completion("According to history, it is Paris.")),
               answer_record(QUESTION, "t", CallFailure("HTTP 500", 6, "t"))]
    assert [r["outcome"] for r in records] == [Outcome.CORRECT, Outcome.WRONG, Outcome.UNPARSEABLE, Outcome.FAILED]
    assert records[2]["parsed_letter"] is None and records[3]["raw_reply"] == "HTTP 500"
    table = answers_table(records)
    assert table.num_rows == 4 and table.column("outcome").to_pylist()[1] == Outcome.WRONG


def test_tally_counts_unparseable_as_wrong_and_failed_calls_nowhere():
    assert tally([Outcome.CORRECT, Outcome.WRONG, Outcome.UNPARSEABLE, Outcome.CORRECT, Outcome.FAILED]) == (4, 2)
    assert tally(["failed"]) == (0, 0)  # read back from Parquet, outcomes are plain strings


def test_testee_prompt_has_no_section_hint_unless_asked():
    plain = prompts.testee_messages(QUESTION.question, QUESTION.options)[0]["content"]
    assert "Topic:" not in plain and "Answer: X" in plain and "A) " in plain
    hinted = prompts.testee_messages(QUESTION.question, QUESTION.options, hint="France > Politics")[0]["content"]
    assert "Topic: France > Politics" in hinted


def test_questions_asked_again_after_a_billable_failure_count_the_attempt_it_left_open(tmp_path, monkeypatch):
    # `sea retest` (compare, transfer) asks each question once within a budget of that many calls. Its
    # first run timed out on the first question, which the server may have billed: asked again, the same
    # questions take their cached replies and stop there (six calls the server saw, not seven). Other
    # questions have a budget of their own.
    questions = [phrasings_to_questions(i, Draft(f"Which city is number {i}?", ("Paris", "Lyon", "Lille", "Nice"), 0, ""),
                                        [], "g", 0)[0] for i in range(6)]
    messages = [prompts.testee_messages(q.question, q.options) for q in questions]
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    with FakeLLMServer(script=["timeout"], hang_s=1.0) as server:
        settings = ModelSettings(model="openai:gpt-4o-mini", base_url=server.base_url + "/v1", timeout_s=0.3,
                                 max_attempts=1, max_in_flight=1)
        client = ModelClient("testee", settings, OpenAIChat(settings), cache=ResponseCache(tmp_path / "responses.sqlite"),
                             ledger=Ledger(), prices=PriceTable(default_prices()))

        def ask(count: int) -> list[dict]:
            return ask_once_each(client, questions[:count], messages[:count], "retest n", "retest", tmp_path, False)

        first = ask(6)
        again = ask(6)
        requests_again = server.state.requests
        fewer = ask(5)
    assert [r["outcome"] == Outcome.FAILED for r in first] == [True] + [False] * 5
    assert [r["question_id"] for r in again] == [q.question_id for q in questions[1:]] and all(r["cached"] for r in again)
    assert requests_again == 6
    assert [r["cached"] for r in fewer] == [False] + [True] * 4 and server.state.requests == 7


@pytest.mark.parametrize("model, provider, suffix, fault, why", [
    ("openai:gpt-4o-mini", OpenAIChat, "/v1", "refusal", "I'm sorry, I can't help with that."),
    ("openai:gpt-4o-mini", OpenAIChat, "/v1", "content_filter", "content filter"),
    ("anthropic:claude-haiku-4-5", AnthropicMessages, "", "refusal", "stop_reason refusal")])
def test_a_refused_question_keeps_its_refusal_and_counts_neither_right_nor_wrong(model, provider, suffix, fault, why,
                                                                                 monkeypatch):
    """A bug hunt: a refusal or a filtered reply (content null) was stored as "" and graded unparseable, so wrong:
    46 of 46 wrong, every paragraph a blind spot."""
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test")
    with FakeLLMServer(script=[fault]) as server:
        settings = ModelSettings(model=model, base_url=server.base_url + suffix)
        client = ModelClient("testee", settings, provider(settings), cache=ResponseCache(None), ledger=Ledger(),
                             prices=PriceTable(default_prices()))
        [record], _ = client.run(ask(client, [QUESTION], [prompts.testee_messages(QUESTION.question, QUESTION.options)]))
    assert record["raw_reply"] == f"[refused: {why}]" and record["outcome"] == Outcome.FAILED
    assert record["input_tokens"] > 0 and record["parsed_letter"] is None  # it was served, and charged
    assert tally([record["outcome"]]) == (0, 0)
