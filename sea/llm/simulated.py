"""`simulated:<profile>`: a deterministic testee with planted blind spots and known ground truth.

It is black-box like a real model: it sees only the prompt text. It reads the options out of
the prompt, embeds the question, retrieves the nearest document from the knowledge base and
answers with the option that document's text supports — except inside a planted blind spot
(a region of embedding space around a few seed documents), where it guesses, and outside with a
profile-defined error rate (per category if set). Shown the paragraph (an open-book prompt), it
answers from the paragraph with the profile's context_adoption probability, and otherwise exactly
as it would without it: the memory-context conflict `sea retest` measures. Each decision is seeded
by the prompt, so the same prompt always gets the same answer while rephrasings are independent draws."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence

import numpy as np
import pandas as pd

from sea.choices import EVIDENCE_LABEL, LETTERS, TESTEE_INSTRUCTION
from sea.embeddings import Embedder, load_document_vectors
from sea.index import load_index
from sea.llm.batching import MicroBatcher
from sea.llm.types import Decoding, Message, ProviderReply
from sea.paragraphs import DocumentCategories, ParagraphStore
from sea.settings import Params, SimulatedProfile

_OPTION = re.compile(r"^\s*\(?([A-D])[).:]\s+(.+?)\s*$")
_WORD = re.compile(r"\w+")


def parse_prompt(prompt: str) -> tuple[str, dict[str, str]]:
    """(question text, {letter: option text}) from a multiple-choice prompt. Our own answering
    instruction is left out of the question: it says nothing about the topic, and every word
    embedded costs time and blurs the lookup."""
    options, question = {}, []
    for line in prompt.splitlines():
        match = _OPTION.match(line)
        if match:
            options[match.group(1)] = match.group(2)
        elif line.strip() and line.strip() != TESTEE_INSTRUCTION:
            question.append(line.strip())
    return " ".join(question), options


def prompt_of(messages: list[Message]) -> str:
    """The text the simulated testee reads: every message but the system's."""
    return "\n".join(message["content"] for message in messages if message["role"] != "system")


def split_evidence(prompt: str) -> tuple[str, str | None]:
    """(the closed-book prompt, the paragraph shown) of an open-book prompt; (prompt, None) for any
    other. The paragraph is one JSON line, so nothing inside it can pose as the question or an option."""
    _, marker, rest = prompt.partition("\n" + EVIDENCE_LABEL)
    if not marker:
        return prompt, None
    evidence, _, question = rest.partition("\n\n")
    return f"{TESTEE_INSTRUCTION}\n\n{question}", json.loads(evidence)


def supported_option(options: dict[str, str], evidence: str) -> str:
    """The option most contained in the evidence text: share of its words found there."""
    evidence_words = set(_WORD.findall(evidence.lower()))

    def support(letter: str) -> float:
        words = _WORD.findall(options[letter].lower())
        return sum(w in evidence_words for w in words) / len(words) if words else 0.0

    return max(sorted(options), key=support)


def plant_blind_spots(profile: SimulatedProfile, params: Params) -> dict[int, int]:
    """doc_id -> blind-spot region. Regions grow in turn around randomly seeded centres, each
    taking its next-nearest free document, until they cover blind_spot_share of the documents.
    A profile that shares regions of another also holds that one's first `shared_regions`
    regions, numbered after its own (a document in both keeps its own region).
    Deterministic for a profile and knowledge base: this is the simulated testee's ground truth."""
    planted = _grow_regions(profile, params)
    if profile.shares_regions_of is not None:
        for doc_id, region in _grow_regions(params.simulated[profile.shares_regions_of], params).items():
            if region < profile.shared_regions:
                planted.setdefault(doc_id, profile.blind_spot_regions + region)
    return planted


def _grow_regions(profile: SimulatedProfile, params: Params) -> dict[int, int]:
    vectors, doc_ids, _ = load_document_vectors(params.paths.embeddings_dir)
    target = round(profile.blind_spot_share * len(doc_ids))
    regions = min(profile.blind_spot_regions, len(doc_ids))
    if target == 0 or regions == 0:
        return {}
    centres = np.random.default_rng(profile.seed).choice(len(doc_ids), size=regions, replace=False)
    _, neighbours = load_index(params).search(np.asarray(vectors[np.sort(centres)]), min(target, len(doc_ids)))
    planted: dict[int, int] = {}
    for rank in range(neighbours.shape[1]):
        for region in range(regions):
            doc_id = int(neighbours[region, rank])
            if doc_id >= 0 and doc_id not in planted and len(planted) < target:
                planted[doc_id] = region
    return planted


def expected_error(profile: SimulatedProfile, planted: dict[int, int], category: str, doc_id: int) -> float:
    """The chance the simulated testee answers a question about a document wrongly (closed book)."""
    if doc_id in planted:
        return 1 - 1 / len(LETTERS)
    return profile.category_error.get(category, profile.base_error)


class SimulatedTestee:
    endpoint = "simulated"
    remote = False

    def __init__(self, name: str, profile: SimulatedProfile, params: Params, embedder: Embedder):
        self.name = name
        self.profile = profile
        self.embedder = embedder
        self.index = load_index(params)
        self.paragraphs = ParagraphStore(params.paths.kb_dir)
        self.category = DocumentCategories(self.paragraphs)
        self.blind_spots = plant_blind_spots(profile, params)
        self._batcher = MicroBatcher(self._answer_batch, max_batch=64)

    def ground_truth(self) -> pd.DataFrame:
        """The planted blind spots: one row per document inside one (doc_id, region)."""
        return pd.DataFrame({"doc_id": list(self.blind_spots), "region": list(self.blind_spots.values())}, dtype="int64")

    def error_rate(self, doc_id: int) -> float:
        return expected_error(self.profile, self.blind_spots, self.category.get(doc_id, ""), doc_id)

    def _answer_batch(self, prompts: Sequence[str]) -> list[str]:
        shown = [split_evidence(prompt) for prompt in prompts]
        parsed = [parse_prompt(closed) for closed, _ in shown]
        _, nearest = self.index.search(self.embedder.encode([question for question, _ in parsed]), 1)
        answers = []
        for prompt, (closed, evidence), (_, options), doc_id in zip(prompts, shown, parsed, nearest[:, 0], strict=True):
            answer = self._answer(closed, options, int(doc_id))
            if evidence is not None and len(options) >= 2 and self.adopts(prompt):
                answer = f"Answer: {supported_option(options, evidence)}"
            answers.append(answer)
        return answers

    def adopts(self, prompt: str) -> bool:
        """Whether the testee, shown evidence in this prompt, answers from it (context_adoption, drawn per prompt)."""
        return self._rng(prompt).random() < self.profile.context_adoption

    def _rng(self, prompt: str) -> np.random.Generator:
        return np.random.default_rng(int.from_bytes(hashlib.blake2b(f"{self.profile.seed}\x1f{prompt}".encode(), digest_size=8).digest(), "big"))

    def _answer(self, prompt: str, options: dict[str, str], doc_id: int) -> str:
        if len(options) < 2:
            return "I don't know."
        rng = self._rng(prompt)
        letters = sorted(options)
        if doc_id in self.blind_spots:
            return f"Answer: {rng.choice(letters)}"
        evidence = " ".join(self.paragraphs.of_documents([doc_id])["text"])
        supported = supported_option(options, evidence)
        if rng.random() < self.error_rate(doc_id):
            return f"Answer: {rng.choice([letter for letter in letters if letter != supported])}"
        return f"Answer: {supported}"

    async def complete(self, messages: list[Message], decoding: Decoding) -> ProviderReply:
        text = await self._batcher.submit(prompt_of(messages))
        # Token counts are estimates (~4 characters per token): this model has no tokenizer.
        return ProviderReply(text, max(1, sum(len(m["content"]) for m in messages) // 4), 3)
