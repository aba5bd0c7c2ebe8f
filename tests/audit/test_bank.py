"""The question bank against a writer whose endpoint fails or whose replies are unusable, or a verifier whose endpoint fails."""

import json
from types import SimpleNamespace

import pytest

from sea.audit.bank import QuestionBank
from sea.llm.cache import ResponseCache
from sea.llm.client import ModelClient
from sea.llm.fake_server import FakeLLMServer
from sea.llm.ledger import Ledger, PriceTable
from sea.settings import default_prices
from sea.llm.providers import OpenAIChat
from sea.errors import SeaError
from sea.llm.types import EndpointFailing
from sea.files import write_json
from sea.questions.gate import verify
from sea.questions.generate import Drafted, invalid_record
from sea.questions.model import KEPT, UNSUPPORTED, Draft, Question
from sea.questions.shuffle import phrasings_to_questions
from sea.questions.writer import write_drafts
from sea.settings import ModelSettings


class Writer:
    """The parts of a QuestionGenerator the bank's generate phase uses, with an LLM writer."""

    def __init__(self, client: ModelClient | None):
        self.generator, self.verifier, self.name = client, None, "writer"
        self.duplicates = SimpleNamespace(apply=lambda questions: None)

    def prepare(self, para_ids: list[int]) -> None:
        pass

    def paragraph(self, para_id: int) -> SimpleNamespace:
        return SimpleNamespace(para_id=para_id, title=f"Article {para_id}", text="Some paragraph.")

    async def draft(self, paragraph: SimpleNamespace) -> Drafted:
        written = await write_drafts(self.generator, paragraph.title, paragraph.text, 2, 1)
        return Drafted([(d, None) for d in written.kept],
                       [invalid_record(paragraph.para_id, text, reason, self.name) for text, reason in written.dropped])

    async def phrase(self, paragraph: SimpleNamespace, drafted: Drafted) -> list[Question]:
        return [*drafted.dropped, *(q for draft, _ in drafted.drafts
                                    for q in phrasings_to_questions(paragraph.para_id, draft, [], self.name, 0))]


class Offline(Writer):
    """The offline generator's part: no model, and most paragraphs keep no question."""

    def __init__(self):
        super().__init__(None)

    async def draft(self, paragraph: SimpleNamespace) -> Drafted:
        return Drafted([], [invalid_record(paragraph.para_id, "a cloze", "answer given away", self.name)])


class Verified:
    """The parts of a QuestionGenerator the bank's rephrase phase uses: each drafted question put to a verifier."""

    def __init__(self, verifier: ModelClient):
        self.generator, self.verifier = None, verifier
        self.duplicates = SimpleNamespace(apply=lambda questions: None)

    def paragraph(self, para_id: int) -> SimpleNamespace:
        return SimpleNamespace(para_id=para_id, text="Paris is the capital of France.")

    async def phrase(self, paragraph: SimpleNamespace, drafted: Drafted) -> list:
        questions = [q for draft, phrasings in drafted.drafts
                     for q in phrasings_to_questions(paragraph.para_id, draft, phrasings, "writer", 0)]
        await verify(self.verifier, paragraph.text, questions)
        return questions


def verified_with(script: list[str], directory, para_ids: list[int]) -> QuestionBank:
    def answer(prompt):  # the gold answer, Paris, wherever the options put it
        return next(f"Answer: {line[0]}" for line in prompt.splitlines() if line.endswith(") Paris"))

    with FakeLLMServer(script=script, reply=answer) as server:
        settings = ModelSettings(model="openai:gpt-4o", base_url=f"{server.base_url}/v1", max_attempts=1, max_in_flight=1)
        verifier = ModelClient("verifier", settings, OpenAIChat(settings), cache=ResponseCache(None), ledger=Ledger(),
                               prices=PriceTable(default_prices()))
        bank = QuestionBank(directory, Verified(verifier))
        bank.phrased(para_ids)
    return bank


def drafted_with(script: list[str], tmp_path, para_ids: list[int]) -> QuestionBank:
    with FakeLLMServer(script=script) as server:
        settings = ModelSettings(model="openai:gpt-4o", base_url=f"{server.base_url}/v1", max_attempts=1)
        client = ModelClient("generator", settings, OpenAIChat(settings), cache=ResponseCache(None), ledger=Ledger(),
                             prices=PriceTable(default_prices()))
        bank = QuestionBank(tmp_path, Writer(client))
        bank.drafted(para_ids)
    return bank


GOOD = json.dumps({"questions": [{"question": f"Which city hosts landmark {i}?", "options": {"A": "Paris", "B": "Lyon", "C": "Nice",
                                                                                           "D": "Lille"}, "answer": "A",
                                  "fact": "It is in Paris."} for i in (1, 2)]})
CUT = '{"questions": [{"question": "Which city hosts'


def phrased_with(tmp_path, batches: list[list[int]], good: set[int] = frozenset(), stop_after_failures: int = 3):
    """The generate and rephrase phases, batch by batch, with a writer whose replies are all cut at max_tokens
    except those about the paragraphs in `good`; returns the server's request count and the error that stopped them."""
    cut_unless_good = lambda prompt: GOOD if any(f"Article {p}\"" in prompt for p in good) else CUT  # noqa: E731
    with FakeLLMServer(script=["length"] * 100, reply=cut_unless_good) as server:
        settings = ModelSettings(model="openai:gpt-4o", base_url=f"{server.base_url}/v1", max_attempts=1, max_tokens=512,
                                 stop_after_failures=stop_after_failures)
        client = ModelClient("generator", settings, OpenAIChat(settings), cache=ResponseCache(tmp_path / "responses.sqlite"),
                             ledger=Ledger(), prices=PriceTable(default_prices()))
        bank = QuestionBank(tmp_path / "bank", Writer(client))
        try:
            for batch in batches:
                bank.drafted(batch)
                bank.phrased(batch)
        except SeaError as error:
            return server.state.requests, str(error)
    return server.state.requests, None


@pytest.fixture(autouse=True)
def key(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")


def test_a_batch_that_ends_in_an_outage_is_not_kept(tmp_path):
    with pytest.raises(EndpointFailing, match="a probe after them failed too"):
        drafted_with(["500", "500"], tmp_path, [1])  # the call and the probe after it
    assert not list(tmp_path.glob("*.json"))  # a resumed run writes the paragraph again


def test_a_writer_whose_replies_are_all_cut_stops_the_run_once_and_a_resume_pays_nothing_again(tmp_path):
    # Every reply cut at max_tokens: the audit went on for 541 steps and 12,984 paid writer calls, never asking the testee.
    requests, stopped = phrased_with(tmp_path, [[1, 2], [3, 4], [5, 6]])
    assert requests == 4 and stopped.startswith("the question writer openai:gpt-4o gave no usable question for the last 4 "
                                                "paragraphs in a row (the commonest reason, 4 of 4 drops: reply cut at "
                                                "max_tokens=512); raise models.generator.max_tokens")
    assert "resume" in stopped and "\n" not in stopped
    assert sorted(p.name for p in (tmp_path / "bank").glob("*.json")) == ["1.json", "2.json", "3.json", "4.json"]
    again, _ = phrased_with(tmp_path, [[1, 2], [3, 4]])  # resumed: the paragraphs written are kept, nothing is asked again
    assert again == 0
    again, stopped = phrased_with(tmp_path, [[1, 2], [3, 4], [5, 6]])  # a review: a resume paid for 4 more before stopping
    assert again == 0 and "for the last 4 paragraphs in a row" in stopped  # at the same setting it stops before asking
    again, stopped = phrased_with(tmp_path, [[1, 2], [3, 4], [5, 6]], stop_after_failures=6)  # a higher one goes on
    assert again == 2 and "for the last 6 paragraphs in a row" in stopped


def test_the_count_of_paragraphs_without_a_usable_question_is_of_those_in_a_row(tmp_path):
    requests, stopped = phrased_with(tmp_path, [[1, 2, 3, 4, 5]], good={3})
    assert requests == 5 and stopped is None  # two without, a usable one, two without: under three in a row
    requests, stopped = phrased_with(tmp_path / "later", [[1, 2, 3, 4, 5], [6]], good={3})
    assert requests == 6 and "for the last 3 paragraphs in a row" in stopped  # the next batch makes three


def test_the_offline_generator_is_never_stopped_for_paragraphs_without_questions(tmp_path):
    bank = QuestionBank(tmp_path, Offline())
    bank.drafted(list(range(30)))
    assert bank.phrased(list(range(30))) == 30


def test_a_question_whose_verification_failed_is_not_dropped_for_good(tmp_path):
    """A bug hunt: a verifier call that failed after its retries (HTTP 503, later calls answered) was saved as the
    verdict `unsupported`, so 3 of 9 paragraphs were never asked, and a resumed run never verified them again."""
    draft = Draft("Which city is the capital of France?", ("Paris", "Lyon", "Lille", "Nice"), 0, "")
    for para_id in (1, 2):
        write_json(tmp_path / f"{para_id}.json", {"para_id": para_id, **Drafted([(draft, [])], []).to_json(), "draft_usage": {}})
    with pytest.raises(EndpointFailing, match=r"1 of the batch's questions could not be verified \(last: .*HTTP 500.*\), "
                                              r"so this step is not kept; .*sea models check openai:gpt-4o"):
        verified_with(["500"], tmp_path, [1, 2])  # the other paragraph's call is answered
    bank = verified_with([], tmp_path, [1, 2])  # resumed: both verified
    assert [q.verdict for p in (1, 2) for q in bank.questions(p)] == [KEPT, KEPT]


def test_a_question_whose_verification_the_endpoint_refused_is_dropped_and_the_batch_kept(tmp_path):
    # a review: a 400 (a content filter, a prompt too long) would come back at every resume, and the run never got past it
    draft = Draft("Which city is the capital of France?", ("Paris", "Lyon", "Lille", "Nice"), 0, "")
    for para_id in (1, 2):
        write_json(tmp_path / f"{para_id}.json", {"para_id": para_id, **Drafted([(draft, [])], []).to_json(), "draft_usage": {}})
    bank = verified_with(["400"], tmp_path, [1, 2])
    verdicts = sorted((q.verdict, q.reason.split(" (")[0]) for p in (1, 2) for q in bank.questions(p))
    assert verdicts == [(KEPT, ""), (UNSUPPORTED, "not verified: openai:gpt-4o: HTTP 400")]


def test_a_question_whose_verification_the_endpoint_refused_takes_its_rephrasings_with_it(tmp_path):
    """Found by a read-through: 10af780's refused base question went on to the next without its rephrasings, which were
    kept and asked; a question as written that fails verification takes them with it."""
    draft = Draft("Which city is the capital of France?", ("Paris", "Lyon", "Lille", "Nice"), 0, "")
    write_json(tmp_path / "1.json", {"para_id": 1, **Drafted([(draft, ["France's capital is which city?"])], []).to_json(),
                                     "draft_usage": {}})
    bank = verified_with(["400"], tmp_path, [1])  # the question as written is refused; its rephrasing would pass
    assert [(q.variant, q.verdict, q.reason.split(" (")[0]) for q in bank.questions(1)] == [
        (0, UNSUPPORTED, "not verified: openai:gpt-4o: HTTP 400"), (1, UNSUPPORTED, "the question as written failed verification")]
