"""The simulated testee checked against its own ground truth, through the real client."""

import re
import uuid

import numpy as np
import pandas as pd
import pytest

from sea.kb.schema import DOCUMENTS_FILE
from sea.llm.registry import build_models
from sea.llm.simulated import parse_prompt, supported_option
from sea.llm.types import Completion
from sea.questions import prompts


def test_prompt_parsing_reads_question_and_options():
    question, options = parse_prompt("Which city is the capital of France?\nA) Lyon\nB. Paris\n(C) Nice\nD: Lille\nReply with a letter.")
    assert question == "Which city is the capital of France? Reply with a letter."
    assert options == {"A": "Lyon", "B": "Paris", "C": "Nice", "D": "Lille"}
    assert supported_option(options, "Paris is the capital and largest city of France.") == "B"
    prompt = prompts.testee_messages("Which city is the capital of France?", ["Lyon", "Paris", "Nice", "Lille"])[0]["content"]
    assert parse_prompt(prompt) == ("Which city is the capital of France?", options)  # our instruction is not the topic


def _masked_questions(documents: pd.DataFrame, rng: np.random.Generator) -> list[tuple[int, str, list[dict]]]:
    """One question per document: its first sentence with the title masked; options are titles."""
    titles = documents["title"].tolist()
    asked = []
    for doc_id, title, abstract in documents[["doc_id", "title", "abstract"]].itertuples(index=False):
        sentence = re.split(r"(?<=\.)\s", abstract)[0].replace(title, "___")
        options = [title, *rng.choice([t for t in titles if t != title], 3, replace=False)]
        rng.shuffle(options)
        gold = "ABCD"[options.index(title)]
        body = f"Which subject fits the blank? {sentence}\n" + "\n".join(f"{l}) {o}" for l, o in zip("ABCD", options))
        asked.append((doc_id, gold, [{"role": "user", "content": body}]))
    return asked


def test_accuracy_is_near_chance_inside_blind_spots_and_high_outside(vital_sample):
    params = vital_sample.model_copy(update={"simulated": {"probe": vital_sample.simulated["paper-regime"].model_copy(
        update={"blind_spot_regions": 3, "blind_spot_share": 0.25, "base_error": 0.1, "seed": 7})}})
    params = params.model_copy(update={"models": params.models.model_copy(update={
        "testee": params.models.testee.model_copy(update={"model": "simulated:probe"})})})
    models = build_models(params, roles=("testee",))
    testee = models.clients["testee"]
    truth = set(testee.provider.ground_truth()["doc_id"])
    assert len(truth) == 125 and testee.provider.ground_truth()["region"].nunique() == 3

    documents = pd.read_parquet(params.paths.kb_dir / DOCUMENTS_FILE)
    asked = _masked_questions(documents, np.random.default_rng(0))
    results, exhausted = testee.run(testee.complete_many([messages for _, _, messages in asked]))
    assert not exhausted and all(isinstance(r, Completion) for r in results)
    correct = pd.DataFrame({"inside": [doc_id in truth for doc_id, _, _ in asked],
                            "correct": [r.text == f"Answer: {gold}" for r, (_, gold, _) in zip(results, asked)]})
    accuracy = correct.groupby("inside")["correct"].mean()
    assert accuracy[True] == pytest.approx(0.25, abs=0.12)  # guessing among four
    assert accuracy[False] >= 0.8  # 0.9 by profile, less the odd retrieval miss

    again, _ = testee.run(testee.complete_many([messages for _, _, messages in asked[:20]]))
    assert [r.text for r in again] == [r.text for r in results[:20]]  # deterministic per prompt


def test_category_error_overrides_the_base_rate(vital_sample):
    from sea.llm.simulated import SimulatedTestee
    from sea.settings import SimulatedProfile

    documents = pd.read_parquet(vital_sample.paths.kb_dir / DOCUMENTS_FILE)
    weak = documents["category"].mode()[0]
    profile = SimulatedProfile(blind_spot_regions=0, base_error=0.1, category_error={weak: 0.7})
    testee = SimulatedTestee("weak", profile, vital_sample, embedder=None)
    inside = documents[documents["category"] == weak]["doc_id"].iloc[0]
    outside = documents[documents["category"] != weak]["doc_id"].iloc[0]
    assert testee.error_rate(inside) == 0.7 and testee.error_rate(outside) == 0.1
    assert testee.ground_truth().empty


def test_two_testees_of_one_account_each_asked_more_than_their_slots_in_turn(vital_sample):
    """They share a rate limiter, whose semaphore binds to the event loop that first waits on it:
    the second testee must run on that loop too (it once failed with 'bound to a different event loop')."""
    raw = vital_sample.model_dump(mode="json")
    raw["models"]["testee"]["max_in_flight"] = 2
    raw["audit"]["testees"] = ["simulated:other"]
    raw["simulated"]["other"] = {**raw["simulated"]["paper-regime"], "seed": 5}
    models = build_models(type(vital_sample).model_validate(raw), roles=("testee",))
    first, second = models.testees.values()
    assert first.limiter is second.limiter
    asked = [prompts.testee_messages(f"Which year ended war number {i}?", ["1914", "1918", "1939", "1945"]) for i in range(8)]
    fresh = f"not cached {uuid.uuid4()}"  # replies from the cache would never wait for a slot
    for client in (first, second):
        results = client.run(client.complete_many(asked, cache_scope=fresh))[0]
        assert all(isinstance(r, Completion) and r.text.startswith("Answer: ") for r in results)
