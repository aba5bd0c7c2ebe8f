"""Distractors for a cloze answer: candidates of the answer's kind and form (same_form), the pool drawn
from nearby documents' spans, the most tempting of them by similarity to the answer and to the blank's
sentence, and the article each takes so that no option stands out by its form."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from sea.questions.answers import BROKEN_MARKS, article_before
from sea.questions.entities import QUANTITY, QUANTITY_FORM, YEAR, YEAR_FORM, Reading, Span, without_the
from sea.questions.kinds import (
    NAME_HEADS,
    CorpusStats,
    contain_each_other,
    cut_off,
    group_kind,
    has_a_place,
    named_type,
    normalised,
    part_of_a_continent,
    placed_alike,
    same_name,
    taxon_ending,
)
from sea.questions.years import nearby_values, on_the_answers_side, plausible_year, round_alike

SIMILARITY_BAND = (0.1, 0.85)  # distractor vs answer: related, but not a paraphrase

YEAR_MARGIN = 10  # ... and within this many of the paragraph's own earliest and latest years

_AN_SOUND = ("hour", "honest", "honor", "honour", "heir")
_A_SOUND = ("eu", "uni", "uk", "ug", "uru", "use", "usu", "uti", "ure", "one", "once", "ewe")


def article_for(text: str) -> str:
    """"a" or "an" by how the next word sounds: "a European", "an hour", "an FBI agent", "a NATO base"."""
    word = text.split()[0] if text.split() else ""
    lower = word.lower()
    if word.isupper() and word.isalpha() and len(word) <= 3:  # said letter by letter
        return "an" if word[0] in "AEFHILMNORSX" else "a"
    if lower.startswith(_AN_SOUND):
        return "an"
    if lower.startswith(_A_SOUND):
        return "a"
    return "an" if lower[:1] in "aeiou" else "a"


_ARTICLE_WORD = re.compile(r"\b(?:[Aa]n?|[Tt]he) ")


def same_form(candidate: Span, answer: Span, stats: CorpusStats, title: str = "") -> bool:
    """Could this candidate stand in the answer's place without standing out by its form or kind?
    Named things must be what the knowledge base calls the answer ("a country", not "a
    continent"), placed where it is (sharing a proper name of its definition when that has any:
    "a country in Northeast Africa" -> "a country in East Africa", not "in Northern Europe") and
    named alike ("Henan Province" among provinces named so); groups without an article of their
    own must be the same kind of group."""
    if candidate.kind != answer.kind or BROKEN_MARKS.search(candidate.text):
        return False
    if answer.kind == YEAR:
        return plausible_year(int(candidate.text), answer, stats, title) and round_alike(int(candidate.text), int(answer.text))
    if answer.kind == QUANTITY:
        return QUANTITY_FORM.match(candidate.text).group(2) == QUANTITY_FORM.match(answer.text).group(2)  # the same unit
    if cut_off(candidate.text):
        return False
    if candidate.text[:1].isupper() != answer.text[:1].isupper():
        return False
    if answer.kind in ("person", "group") and len(candidate.text.split()) != len(answer.text.split()):
        return False  # a bare surname among full names, "Romantic Italian" among "French": they stand out
    if named_type(without_the(candidate.text)) != named_type(without_the(answer.text)):
        return False  # "Henan Province" among "Yunnan", "Hunan": the form gives it away
    if taxon_ending(candidate.text) != taxon_ending(answer.text):
        return False  # "Wrasse" among "Bovidae", "Canidae": a common name among Latin families
    if part_of_a_continent(answer.text) and not part_of_a_continent(candidate.text):
        return False  # "Kashmir" and "Inner Mongolia" beside "Southeast Asia" (but "North Africa" may stand beside "the Middle East")
    what, other = stats.type_of(answer.text), stats.type_of(candidate.text)
    if answer.kind == "group" and what is None:
        kind = group_kind(answer.text)
        return (other is None and group_kind(candidate.text) == kind and not contain_each_other(candidate.text, answer.text)
                and (kind != "nation" or stats.a_people(candidate.text)))
    where = stats.where(answer.text)
    return what is not None and other == what and (not has_a_place(where) or placed_alike(where, stats.where(candidate.text)) > 0)


@dataclass(frozen=True)
class Candidate:
    span: Span
    answer: str  # as the options write it (with its article when the blank takes one)
    distractors: list[str]  # most tempting first; years and quantities: the three chosen
    cloze: str
    score: float


CONSIDERED = 5  # distractor candidates read in place, most tempting first
QUANTITY_SPREAD = 10  # how many times larger or smaller than the answer a quantity distractor may be
POOL_LIMIT = 24  # same-kind candidates compared with the answer: names its own article names, neighbours' spans (nearest documents first), then related titles


def same_kind(span: Span, pool: list[Span], paragraph: str, stats: CorpusStats, rng: np.random.Generator,
               bounds: frozenset[int] = frozenset(), title: str = "") -> list[str]:
    """Texts that could replace the answer without standing out by form, none in the paragraph
    and none another name of the answer. Years and quantities: the three chosen, the nearest
    values first (the neighbours' own, then made-up ones near the answer); years on the answer's
    side of each of the subject's `bounds` (bounding_years)."""
    texts: dict[str, str] = {}
    refused: set[tuple[str, str]] = set()  # a name the neighbours write a hundred times is judged once
    for candidate in pool:
        if (candidate.kind, candidate.text) in refused:
            continue
        text = without_the(candidate.text)
        key = normalised(text)
        if key in texts:
            continue
        if (key not in paragraph and same_form(candidate, span, stats, title)
                and (span.kind in (YEAR, QUANTITY) or not same_name(text, span.text))):  # "5,000 metres" and "10,000 metres" share words, not a value
            texts[key] = text
        else:
            refused.add((candidate.kind, candidate.text))
    if span.kind not in (YEAR, QUANTITY):
        return list(texts.values())[:POOL_LIMIT]
    values = list(texts.values())
    if not (span.kind == QUANTITY and span.with_the):  # "the 10,000 metres" names an event: a made-up "the 11,500 metres" is none
        values += [v for v in nearby_values(span, rng, title) if normalised(v) not in texts and normalised(v) not in paragraph
                   and same_form(Span(span.kind, v, ""), span, stats, title)]
    values = list(dict.fromkeys(v for v in values if v != span.text))
    if span.kind == YEAR:  # a year the paragraph's own dates make absurd ("2024" for a player who retired in 2006)
        years = [int(y) for y in YEAR_FORM.findall(paragraph)] or [int(span.text)]
        values = [v for v in values if min(years) - YEAR_MARGIN <= int(v) <= max(years) + YEAR_MARGIN]
        values = [v for v in values if on_the_answers_side(int(v), int(span.text), bounds)]  # none after Hitler's death
    if span.kind == QUANTITY:  # "60,440 km" or "250 km" beside a strait "2 km wide": a reader rules it out
        answer = _value(span.text)
        values = [v for v in values if answer / QUANTITY_SPREAD <= _value(v) <= answer * QUANTITY_SPREAD]
        low = range_start(span)  # "between roughly 585 and ___": no 372 nm
        values = [v for v in values if low is None or _value(v) > low]
    if len(values) < 3:
        return values
    closeness = [abs(_value(v) - _value(span.text)) for v in values]
    nearest = [values[i] for i in np.argsort(closeness, kind="stable")[:6]]
    return [nearest[i] for i in sorted(rng.choice(len(nearest), 3, replace=False))]


_RANGE_BEFORE = re.compile(r"(?:\b(?:between|from)\s+(?:roughly |about |around |approximately |some )?(\d[\d,]*(?:\.\d+)?)"
                           r"(?:\s*[^\W\d]+)?\s+(?:and|to)|(?<![\w.,])(\d[\d,]*(?:\.\d+)?)(?:\s*[^\W\d]+)?\s+to)\s*$", re.I)


def range_start(answer: Span) -> float | None:
    """The start of a range the answer ends ("between roughly 585 and ___", "from 12 to ___", "12 to ___"), when the answer lies above
    it: an option below it cannot end the range."""
    found = _RANGE_BEFORE.search(answer.sentence.partition(answer.text)[0])
    start = float((found.group(1) or found.group(2)).replace(",", "")) if found else None
    return start if start is not None and _value(answer.text) > start else None


def most_tempting(span: Span, names: list[str], vectors: dict[str, np.ndarray], context: np.ndarray | None = None,
                   articles: dict[str, np.ndarray] | None = None, stats: CorpusStats | None = None,
                   linked: Sequence[int] | None = None) -> tuple[list[str], float]:
    """The names whose own embedding is in the similarity band with the answer's, none sharing a
    word with a better one (two options that name one thing leave three real choices), and the
    mean similarity of the first three. Best first: those `linked` most to the answer (its article
    names them, theirs name it: Spain's names Portugal and Morocco, not Poland), then those whose
    definitions share the most of the answer's whereabouts (`stats`: "East Africa" before
    "Africa"), then closest to the answer plus closest to the `context` the blank stands in, each
    name told by its article's vector where it has one (a capital for Scotland's: "Glasgow",
    "Dublin" before "Oslo")."""
    if span.kind in (YEAR, QUANTITY):
        return names, 0.5
    scores = np.array([float(vectors[name] @ vectors[span.text]) for name in names])
    articles = articles or {}
    told = [articles.get(name, vectors[name]) for name in names]
    fit = np.array([float(v @ articles.get(span.text, vectors[span.text])) + (float(v @ context) if context is not None else 0.0)
                    for v in told])
    where = stats.where(span.text) if stats else frozenset()
    shared = np.array([placed_alike(where, stats.where(name)) if where else 0 for name in names])
    links = np.asarray(linked if linked is not None else np.zeros(len(names)))
    low, high = SIMILARITY_BAND
    ranked = []
    for i in np.lexsort((-fit, -shared, -links)):
        if (low <= scores[i] < high and not any(same_name(names[i], names[j]) for j in ranked)
                and len(ranked) < CONSIDERED):
            ranked.append(int(i))
    return [names[i] for i in ranked], float(np.mean(scores[ranked[:3]])) if ranked else 0.0


def _value(text: str) -> float:
    return float(text.split()[0].replace(",", ""))


_DEFINITE_HEADS = frozenset("""river sea ocean gulf bay strait channel islands peninsula desert basin plateau valley empire
kingdom republic union dynasty caliphate sultanate khanate mountains alps war revolution""".split())


def definite_by_name(name: str) -> bool:
    """Is the name written "the …" by its form: "the Rhine River", "the Kingdom of Galicia–Volhynia"?"""
    words = name.lower().split()
    return len(words) >= 2 and (words[-1] in _DEFINITE_HEADS or (words[0] in NAME_HEADS and words[1] == "of"))


def written_with_the(spans: Iterable[Span], stats: CorpusStats | None = None) -> dict[str, bool]:
    """Whether each name is mostly written "the …" where it was found ("the Bahamas", not "the
    Canada"), or its own article writes it so ("The Middle East is …": a name found a few times
    after another determiner, "its Middle East policy", still takes "the" in a blank)."""
    votes: dict[str, int] = {}
    for span in spans:
        votes[span.text] = votes.get(span.text, 0) + (1 if span.with_the else -1)
    return {text: vote > 0 or (stats is not None and stats.article_writes_the(text)) for text, vote in votes.items()}


def takes_the(name: str, definite: dict[str, bool]) -> bool:
    return bool(definite.get(name)) or definite_by_name(name)


def modifies_what_follows(span: Span, word: str, definite: dict[str, bool]) -> bool:
    """Does the "the" before a name that is not written "the …" belong to a noun after it ("the Kennedy administration",
    "show trials known as the Moscow trials")? Then every option keeps it: written only before the answer it gives the
    answer away. A place there is part of a longer name ("the Guinea baboon") and is not asked: "the Liberia baboon" is
    none (round 42). Not before "of" ("the Central Asia of antiquity")."""
    after = span.sentence.partition(f"{word} {span.text}")[2]
    return not takes_the(span.text, definite) and not after.lstrip().startswith("of ")


def with_article(span: Span, definite: dict[str, bool]) -> tuple[str, Callable[[str], str]]:
    """The text the blank replaces, and how an option is written: with its own article when the
    sentence puts one before the answer, so that no option stands out by its article. "a"/"an" is
    chosen by sound; "the" goes with the names written with it (`definite`): "the Soviet Union",
    "Russia", "the Czech Republic"."""
    word = article_before(span, _ARTICLE_WORD)
    if not word:
        return span.text, lambda option: option
    capital = word[0].isupper()
    if word.lower() == "the":
        # a group, a year or a quantity is an adjective here ("the British monarchy", "the 2023 Birthday Honours", "the 100
        # metres"), and so is a name not written "the …": every option keeps "the"
        if span.kind in ("group", YEAR, QUANTITY) or modifies_what_follows(span, word, definite):
            return f"{word} {span.text}", lambda option: f"{word} {option}"
        return f"{word} {span.text}", lambda option: f"{word} {option}" if (
            option == span.text or takes_the(option, definite)) else (option[:1].upper() + option[1:] if capital else option)
    return f"{word} {span.text}", lambda option: f"{article_for(option).capitalize() if capital else article_for(option)} {option}"


def read_alike(candidate: Candidate, readings: list[Reading] | None) -> tuple[list[str] | None, str]:
    """The three most tempting distractors that read as the answer's kind and number where they
    stand (`readings`: the answer's, then each distractor's), or None and why there are not three."""
    if readings is None:  # years and quantities are told by their form: already alike
        return candidate.distractors[:3], ""
    if readings[0].kind is None:
        return None, "the answer does not read as a named entity where it stands"
    alike = [d for d, reading in zip(candidate.distractors, readings[1:], strict=True) if reading == readings[0]]
    if len(alike) < 3:
        return None, f"fewer than three distractors that read as a {readings[0].kind} where they stand"
    return alike[:3], ""
