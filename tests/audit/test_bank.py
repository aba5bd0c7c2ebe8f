"""The question bank against a writer whose endpoint fails."""

from types import SimpleNamespace

import pytest

from sea.audit.bank import QuestionBank
from sea.llm.cache import ResponseCache
from sea.llm.client import ModelClient
from sea.llm.fake_server import FakeLLMServer
from sea.llm.ledger import Ledger, PriceTable, default_prices
from sea.llm.providers import OpenAIChat
from sea.llm.types import EndpointFailing
from sea.questions.generate import Drafted, invalid_record
from sea.questions.writer import write_drafts
from sea.settings import ModelSettings


class Writer:
    """The parts of a QuestionGenerator the bank's generate phase uses, with an LLM writer."""

    def __init__(self, client: ModelClient):
        self.generator, self.verifier, self.name = client, None, "writer"

    def prepare(self, para_ids: list[int]) -> None:
        pass

    def paragraph(self, para_id: int) -> SimpleNamespace:
        return SimpleNamespace(para_id=para_id, title=f"Article {para_id}", text="Some paragraph.")

    async def draft(self, paragraph: SimpleNamespace) -> Drafted:
        written = await write_drafts(self.generator, paragraph.title, paragraph.text, 2, 1)
        return Drafted([(d, None) for d in written.kept],
                       [invalid_record(paragraph.para_id, text, reason, self.name) for text, reason in written.dropped])


def drafted_with(script: list[str], tmp_path, para_ids: list[int]) -> QuestionBank:
    with FakeLLMServer(script=script) as server:
        settings = ModelSettings(model="openai:gpt-4o", base_url=f"{server.base_url}/v1", max_attempts=1)
        client = ModelClient("generator", settings, OpenAIChat(settings), cache=ResponseCache(None), ledger=Ledger(),
                             prices=PriceTable(default_prices()))
        bank = QuestionBank(tmp_path, Writer(client))
        bank.drafted(para_ids)
    return bank


@pytest.fixture(autouse=True)
def key(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")


def test_a_batch_that_ends_in_an_outage_is_not_kept(tmp_path):
    with pytest.raises(EndpointFailing, match="none has been answered since"):
        drafted_with(["500"], tmp_path, [1])
    assert not list(tmp_path.glob("*.json"))  # a resumed run writes the paragraph again
