"""The machine-checkable part of "would a careful reader accept this question?" for offline
(cloze) questions, measured by `make bench-questions`.

Each question is read back from its own text: the sentence it asks about (quoted, or read back from
a direct question) is filled with each option in turn and tagged again, so an option's kind is
judged where it stands. The generator ranks its candidates by the same reading (the issue asked for
overgeneration scored by the rubric), so `same_type` confirms that ranking rather than testing it
blind; the blind test is the human-style review in reports/question_review.csv."""

from __future__ import annotations

from sea.choices import LETTERS
from sea.questions import geography
from sea.questions.cloze import cloze_in
from sea.questions.distractors import article_for
from sea.questions.entities import BLANK, QUANTITY, YEAR, YEAR_FORM, EntityFinder, Span, without_article, without_the
from sea.questions.kinds import CorpusStats, balanced, content_words, group_kind, has_a_place, name_words, placed_alike
from sea.questions.model import Question
from sea.questions.years import games_held, year_cycle

CRITERIA = {
    "same_type": "every distractor reads as the answer's kind and number where it stands",
    "typed_answer": "the answer is a named entity, a year or a quantity",
    "same_defined_type": "every option is what the knowledge base (or its name) says the answer is, or the same kind of group",
    "no_title_leak": "no telling word of the answer is in the paragraph's title (\"Black\", not \"Sea\")",
    "no_distractor_in_paragraph": "no distractor is stated in the paragraph",
    "agreement": "no option stands out by its article, capitalisation or spacing",
    "no_future_year": "no option is a year after the knowledge base's date",
    "well_formed": "the quoted sentence has balanced quotes and brackets",
    "placed_alike": "every option's article places it where the answer's places the answer, when that names a place",
    "on_cycle": "year options keep the answer's four-year cycle (Olympics, World Cups, a listed cycle), Games only in years they were held",
    "alike_in_size": f"no country option is over {geography.SIZES_APART:.0f} times larger or smaller than a country answer (population and area)",
}


def _article_agrees(cloze: str, options: list[str]) -> bool:
    before = cloze.split(BLANK)[0].split()
    if before and before[-1].lower() in ("a", "an"):
        return False  # an article outside the blank fits some options and not others
    bare = [without_article(option) for option in options]
    if all(b == option for b, option in zip(bare, options, strict=True)):
        return True
    return all(option == f"{article_for(b)} {b}" or option == f"{article_for(b).capitalize()} {b}"
               for b, option in zip(bare, options, strict=True))


def _same_defined_type(stats: CorpusStats, kind: str | None, gold: str, options: list[str]) -> bool:
    if kind in (YEAR, QUANTITY):
        return True
    if kind == "group":
        return len({group_kind(option) for option in options}) == 1
    return stats.type_of(gold) is not None and len({stats.type_of(option) for option in options}) == 1


def _placed_alike(stats: CorpusStats, gold: str, options: list[str]) -> bool:
    where = stats.where(gold)
    return not has_a_place(where) or all(placed_alike(where, stats.where(option)) > 0 for option in options)


def _on_cycle(cloze: str, title: str, gold: str, options: list[str]) -> bool:
    if not YEAR_FORM.fullmatch(gold):
        return True
    answer = Span(YEAR, gold, cloze.replace(BLANK, gold))
    step, held = year_cycle(answer, title), games_held(answer, title)
    return all(YEAR_FORM.fullmatch(o) and (int(o) - int(gold)) % step == 0 and (not held or int(o) in held) for o in options)


def check(finder: EntityFinder, question: Question, title: str, paragraph: str) -> dict[str, bool]:
    """criterion -> passed for one question (CRITERIA says what each means)."""
    cloze = cloze_in(question.question, title)
    if cloze is None:
        return dict.fromkeys(CRITERIA, False)
    options = list(question.options)
    gold = options[LETTERS.index(question.gold_letter)]
    readings = finder.read(cloze, options)
    answer = readings[options.index(gold)]
    bare = [without_article(option) for option in options]
    text = " ".join(paragraph.lower().split())
    return {
        "same_type": answer.kind is not None and all(reading == answer for reading in readings),
        "typed_answer": answer.kind is not None,
        "same_defined_type": _same_defined_type(finder.stats, answer.kind, without_article(gold), bare),
        "no_title_leak": not name_words(without_article(gold)) & content_words(title),
        "no_distractor_in_paragraph": not any(" ".join(b.lower().split()) in text for o, b in zip(options, bare, strict=True)
                                              if o != gold),
        "agreement": _article_agrees(cloze, options) and len({without_the(b)[:1].isupper() for b in bare
                                                              if not b[:1].isdigit()}) <= 1
                     and all(option == " ".join(option.split()) for option in options),
        "no_future_year": all(int(b) <= finder.stats.latest_year for b in bare if YEAR_FORM.fullmatch(b)),
        "well_formed": balanced(cloze),
        "placed_alike": _placed_alike(finder.stats, without_the(without_article(gold)), [without_the(b) for b in bare]),
        "on_cycle": _on_cycle(cloze, title, without_article(gold), bare),
        "alike_in_size": all(geography.alike_in_size(without_article(gold), bare)),
    }
