"""The offline question generator: cloze questions that need no LLM, deterministic by seed.

The answer is a typed span of the paragraph — a person, place, organisation, group, work, event,
language, year or quantity found by spaCy — blanked out of its sentence. Common nouns are never
answers: a blind review found them testing word choice rather than facts. A span is refused when
the title or the rest of the sentence gives it away (in any form: "Scottish" for "Scotland"), when
it is part of a compound word ("Indo-Iranian"), when it could be computed from the sentence
(a unit conversion, an anniversary's year, a city's country after its name), when it is only the date of a statistic,
or when it or its sentence is broken (unbalanced quotes or brackets, a cut span, a list).

The three distractors are of the answer's kind as the knowledge base tells it: a named answer is
asked about only when an article defines it ("Sudan is a country …") or its name says it
("Guaire River"), and every distractor must be defined the same way ("a country", not "a
continent" or a city), placed alike when the answer's definition says where it is (sharing a
proper name: "a country in Northeast Africa" takes "a country in East Africa", not one "in
Northern Europe"; those sharing most come first) and named alike ("Henan Province" only among
provinces named so); groups (nationalities, religions, a region's people, political camps) stand
in only for their own kind and never for one that contains them ("British" for "Scottish"), and a
nationality only where the knowledge base's definitions often place people with it ("French", not
"Victorian", an era, or "Symbolist", a style); a country set among countries (in a sentence
about borders in a country's own article, or beside countries the sentence names) takes none far
from them on a map (sea.questions.geography). They
come from semantically near documents' spans, then from the titles of the answer's type whose
articles are nearest its own; never in the paragraph, never another name of the answer or of each
other ("Amazon" for "Amazon River"; "Black Sea" and "Red Sea" are two seas), never a year after the knowledge base's date, one the sentence's other years
rule out or one far outside the paragraph's own dates, never half or double a quantity; capitalised, introduced ("the …") and, for people, named as fully as the answer. The
article moves into the blank, chosen by sound ("a European"), when the sentence has "a"/"an"
before the answer. Among those, the ones closest to the answer and fitting the blank's sentence and
the paragraph's article best (each told by its own article's vector where it has one) are tried
first, never a paraphrase of the answer, and kept only if each reads as the answer's kind and
number where it stands.
Candidates are scored and the best `per_paragraph` kept; a paragraph with none good enough
yields none, with the reasons recorded. Phrasings come from templates that name the answer's
kind only when it is told reliably (a year or a quantity), and are neutral otherwise."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import numpy as np

from sea.questions import geography
from sea.questions.answers import TODAY_WORDS, initials, problem_before_distractors, word_form_given
from sea.questions.distractors import (
    Candidate,
    modifies_what_follows,
    most_tempting,
    read_alike,
    same_kind,
    takes_the,
    with_article,
    written_with_the,
)
from sea.questions.entities import BLANK, QUANTITY, YEAR, EntityFinder, Span
from sea.questions.kinds import first_sentence, located, normalised, same_name, stem_kind, title_key
from sea.questions.model import Draft
from sea.questions.places import (
    Linked,
    a_regions_capital,
    about_borders,
    about_the_land,
    about_the_sea,
    an_embassys_city,
    directions_given,
    keep_where,
    landlocked,
    named_containers,
    near_on_a_map,
    neighbours_only,
    words_beside,
)
from sea.questions.validation import phrasing_problem
from sea.questions.years import (
    began_bounds,
    bounding_years,
    contemporaries,
    dated_only_before,
    era_of,
    in_the_works_time,
    period_bounds,
    wars_named,
    years_spanned,
)

GENERATOR_NAME = "offline-cloze"
# How much a question of each kind is worth asking: named facts first, then years and quantities.
_KIND_WEIGHT = {YEAR: 0.8, QUANTITY: 0.8}

READ_SPARE = 1  # candidates read beyond those still needed, in case some fail

TYPED_TEMPLATES = (
    "Which {kind} completes this statement about {title}? \"{cloze}\"",
    "In this statement about {title}, which {kind} belongs in the blank? \"{cloze}\"",
    "\"{cloze}\" — which {kind} is missing from this statement about {title}?",
    "Complete this fact about {title} with the right {kind}: \"{cloze}\"",
    "Regarding {title}, which {kind} fills the blank? \"{cloze}\"",
)
NEUTRAL_TEMPLATES = (
    "Fill in the blank about {title}: \"{cloze}\"",
    "What completes this statement about {title}? \"{cloze}\"",
    "Regarding {title}, what belongs in the blank? \"{cloze}\"",
    "\"{cloze}\" — in this statement about {title}, what is missing?",
    "Complete this fact about {title}: \"{cloze}\"",
)
# The words a blank may follow at a sentence's end to be asked as "which <kind>?" in its place: prepositions, whose
# object the blank is, so "which country" reads as it would in a question a person asks ("… the capital of which country?").
_DIRECT_AFTER = frozenset("of in to until from into at by for with on near after before since during within across "
                          "through".split())


def direct_question(cloze: str, kind: str | None, title: str) -> str | None:
    """The cloze asked as a question about its one fact where that is a plain substitution: a whole sentence that ends on
    the blank after a preposition, the blank read as "which <kind>" ("Budapest is the capital and most populous city of
    which country?"), "About <title>: " before it unless it begins with its subject ("The Spanish–American War was …").
    None for a quantity or a group (no kind a "which" can name), a kind of several words (cloze_in reads back one), a
    cut sentence, or a blank elsewhere: there the quoted cloze stays."""
    if kind is None or kind == QUANTITY or " " in kind or "…" in cloze:
        return None
    match = re.fullmatch(rf"(.*\b(\w+)) {BLANK}\.?", cloze, flags=re.S)
    if match is None or match.group(2) not in _DIRECT_AFTER:
        return None
    question, subject = f"{match.group(1)} which {kind}?", re.sub(r" [(][^)]*[)]$", "", title)
    return question if question.startswith((f"{subject} ", f"The {subject} ")) else f"About {title}: {question}"


_QUOTED_CLOZE = re.compile(r"\"([^\"]*" + re.escape(BLANK) + r"[^\"]*)\"")
_WHICH_AT_THE_END = re.compile(r" which [^\s?]+\?$")  # direct_question names a kind of one word


def cloze_in(question: str, title: str) -> str | None:
    """The sentence with its blank that a question asks about: quoted in a cloze question, read back from a direct one
    (direct_question's inverse); None when there is none."""
    quoted = _QUOTED_CLOZE.search(question)
    if quoted:
        return quoted.group(1)
    read, found = _WHICH_AT_THE_END.subn(f" {BLANK}.", question.removeprefix(f"About {title}: "))
    return read if found else None


# A subject its article's first sentence (or the World War its title names) dates only before this year, the First World
# War's end, which made most of Europe's and the Middle East's states (not its other years: an old city's article names
# old years), is older than today's states: a country answer's distractors would be anachronisms (rounds 49-58: Slovakia
# and Belarus among the Gediminids' realms, Bangladesh for the Mongol invasions Alauddin Khalji fended off, Saudi Arabia
# for Hatshepsut, Slovenia and Slovakia in the Seven Years' War, Belarus and Ukraine on the Great War's Eastern Front). A
# sentence's own dates are country_of_the_past's.
MODERN_STATES_FROM = 1919

Encode = Callable[[list[str]], np.ndarray]  # texts -> normalised embeddings

_WATER_TITLE = re.compile(r"\b(?:Sea|Ocean|Gulf|Bay|Lake|Loch|Lagoon)\b")  # an article about a body of water: "Caspian Sea", "Lake Victoria"

_SCIENCE = re.compile(r"\b(?:is|was) an? (?:[A-Z][\w-]*\s+)*([a-z]+) scientist\b")  # the definition's, not "a principal scientist"


def science_of(lead: str | None) -> str | None:
    """The science a person's article's definition names before "scientist" ("… was an American computer scientist" ->
    "computer"), or None: rounds 57 and 64's readers failed Barbara McClintock, a geneticist, beside computer
    scientists (Unix's and C's makers), whom "scientist" alone would not tell apart."""
    found = _SCIENCE.search(first_sentence(lead)) if lead else None
    return found.group(1) if found else None


Related = Callable[[Span], list[Span]]  # an answer -> titles of its type whose articles are nearest its own


def forget_memos() -> None:
    """Forget this module's memos, as a new process would (a benchmark's second pass pays what a new process pays)."""
    for memo in (title_key, initials, words_beside):
        memo.cache_clear()


# placed_alike at least: a place must share a region and its name ("East Asia"), not only a continent's stem ("America"); a
# people's land only a continent ("a French composer" tempts beside "German", "Chinese" does not)
PLACED_CLOSE = {"group": 1, "place": 2}


@dataclass(frozen=True)
class Setting:
    """Where the paragraph stands in the knowledge base, for distractors that fit it: `related`
    titles for an answer, the article vectors of names that have an article, `home`, the vector
    of the paragraph's own article, how `linked` names are to an answer by their articles, and the
    names of its kind the answer's article names (`named_by`), offered before any other."""
    related: Related = lambda span: []
    article_vectors: Callable[[list[str]], dict[str, np.ndarray]] = lambda names: {}
    home: np.ndarray | None = None
    linked: Linked = lambda answer, names: [0] * len(names)
    named_by: Related = lambda span: []  # names of the answer's kind that its own article's lead names (Spain's: Portugal, France)
    subject_bounds: frozenset[int] = frozenset()  # bounding_years of the paragraph's article's lead
    lead: Callable[[str], str | None] = lambda name: None  # the lead of a name's article: its lifespan, whether it is landlocked
    years_of: Callable[[str], tuple[int, int] | None] = lambda name: None  # years_active of a name's article
    work: int | None = None  # the year of the paragraph's subject when it is a work (work_year)
    in_the_lead: bool = True  # the paragraph is its article's lead, where "He" and "It" stand for the subject


# Beside a person answer whose era ends before this year, no person the knowledge base cannot date (round 51's readers
# failed Habermas beside Schopenhauer and Rosalind Franklin among chemistry's founders; the knowledge base's leads drop
# lifespans). Beside later answers such people are mostly of their time: the rule there withheld 43 questions, most of
# them good (Bogart for Casablanca, Kubrick for 2001); here 20, most with a distractor from another century.
UNDATED_AFTER = 1900


def of_the_answers_time(name: str, era: tuple[int, int] | None, active: tuple[int, int] | None, setting: Setting) -> bool:
    """Could this person stand beside a person answer of that era (`active`: its article's years) without
    dates ruling them out: contemporaries, in the time of the work the paragraph is about, and dated at all
    where the answer's era ends before UNDATED_AFTER?"""
    dated = setting.years_of(name)
    own = era_of(setting.lead(name) or "") or dated
    if own is None and era is not None and era[1] < UNDATED_AFTER:
        return False
    return contemporaries(era, own) and in_the_works_time(active, dated, setting.work)


ANTIQUITY_ENDS = 500  # a subject its article dates only before this year belongs to antiquity

# Rounds 70-72 (the enwiki excerpt's whole articles): outside a lead, 14 and 17 of the 34 questions on a sentence that
# begins with one of these failed, 39 and 37 of the other 250; in vital10k's leads, where they stand for the subject, 12% as others
_PRONOUN_FIRST = re.compile(r"^(?:He|She|His|Her|It|Its|They|Their|This|These|Those|Such)\b")


def problem_in_its_setting(span: Span, people: Iterable[str], title: str, setting: Setting) -> str | None:
    """Why the span is no answer given the people its paragraph names and its subject's article, or None."""
    if not setting.in_the_lead and _PRONOUN_FIRST.match(span.sentence):
        return ("a sentence outside its article's lead that begins with a pronoun (\"He was awarded …\", \"It won …\"): it may stand "
                "for anyone or anything the section names, and the question does not say")
    if of_a_persons_name(span, people):
        return "a place in a person's name or style (\"Maria Carolina of ___\", \"Clive of ___\"): wording, not a fact"
    if before_a_rulers_name(span, people):
        return "a people's word before a ruler's name (\"the ___ emperor Napoleon Bonaparte\"): whom they ruled gives it away"
    if span.kind == "group" and dated_only_before(ANTIQUITY_ENDS, setting.lead(title), setting.years_of(title)):
        return "a people's word about a subject of antiquity: its distractors would be today's nations (\"a German astronomer\" of 150 BC)"
    war = next(iter(wars_named(title)), None)
    if (geography.country_code(span.text) and dated_only_before(MODERN_STATES_FROM, setting.lead(title), war)
            and not TODAY_WORDS.search(span.sentence)):
        return "a country about a subject from before today's states: its distractors would be anachronisms (\"Mongol invasions of ___\" under Alauddin Khalji)"
    return None


_RULER_BEFORE_NAME = re.compile(r"^\s*(?:emperor|empress|king|queen|tsar|czar|sultan|shah|pharaoh|president|(?:prime )?minister|"
                                r"chancellor|dictator|leader)\s+(.+)", re.I)


def before_a_rulers_name(span: Span, people: Iterable[str]) -> bool:
    """Is a people's word a ruler's, before the ruler's name ("the ___ emperor Napoleon Bonaparte")? Whom they ruled is
    common knowledge: round 58's readers failed "the British" and "the German emperor Napoleon". Not a writer's or a
    composer's ("by ___ author Bram Stoker"): which nation they came from is a fact worth asking."""
    ruler = _RULER_BEFORE_NAME.match(span.sentence.partition(span.text)[2])
    return span.kind == "group" and ruler is not None and any(ruler.group(1).startswith(person) for person in people)


def of_a_persons_name(span: Span, people: Iterable[str]) -> bool:
    """Is a place the "of ___" of one of the `people`'s names or styles ("Maria Carolina of ___", "Tsar
    Alexis of ___", "Clive of ___")? Round 47's readers failed "Maria Carolina of Austria" as wording."""
    before = span.sentence.partition(span.text)[0].rstrip()
    return span.kind == "place" and before.endswith(" of") and any(before[:-3].rstrip().endswith(name)
                                                                     for person in people for name in (person, person.split()[-1]))


def cloze_drafts(para_id: int, title: str, text: str, neighbour_spans: Callable[[], list[Span]], finder: EntityFinder,
                 encode: Encode, n: int, variants: int, seed: int, setting: Setting = Setting()
                 ) -> tuple[list[tuple[Draft, list[str]]], list[tuple[str, str]]]:
    """Up to n (draft, rephrasings) pairs for the paragraph, the best by score, and the candidates
    dropped with reasons. Distractors come from the neighbours' spans, then from the setting's
    related titles, and those that fit the blank's sentence and the paragraph's article best are tried first.
    `neighbour_spans` is called only once a candidate needs distractors (tagging the neighbours is
    most of the generator's time, and about half the paragraphs have no such candidate)."""
    rng = np.random.default_rng(int.from_bytes(hashlib.blake2b(f"{seed}\x1f{para_id}".encode(), digest_size=8).digest(), "big"))
    paragraph, bounds = normalised(text), frozenset(bounding_years(title, text)) | setting.subject_bounds
    pools, dropped, seen, spans_seen, nearby = [], [], set(), [], None
    spans = finder.spans(para_id, text)
    people = [span.text for span in spans if span.kind == "person"]
    for span in spans:
        key = normalised(span.text)
        if key in seen:
            continue
        seen.add(key)
        problem = problem_before_distractors(span, title, finder.stats, text) or problem_in_its_setting(span, people, title, setting)
        if problem:
            dropped.append((span.text, problem))
            continue
        if nearby is None:
            nearby = neighbour_spans()
        named = setting.named_by(span) if span.kind not in (YEAR, QUANTITY) else []
        related = setting.related(span)
        before, _, after = span.sentence.partition(span.text)
        years_within = bounds | period_bounds(span, title, setting.lead) | began_bounds(span, title) if span.kind == YEAR else bounds
        pool = [name for name in same_kind(span, [*named, *nearby, *related], paragraph, finder.stats, rng, years_within, title)
                if not same_name(name, title)  # never the subject itself ("William Shockley" among his own group)
                and not (span.kind in ("place", "group") and word_form_given(name, f"{title} {before} {after}"))]  # "Spanish" beside "Spaniards"
        if span.kind == "person":
            active = setting.years_of(span.text)
            era = era_of(setting.lead(span.text) or "") or years_spanned(span.sentence) or active
            pool = [name for name in pool if of_the_answers_time(name, era, active, setting)]
            field = science_of(setting.lead(span.text))
            if field:  # no geneticist among C's creators
                pool = [name for name in pool if science_of(setting.lead(name)) == field]
        if (span.kind == "place" and (about_the_sea(span.sentence) or about_the_sea(title))  # "It is bordered by ___" in "Black Sea"
                and not landlocked(setting.lead(span.text))):  # Hungary's sea is another's
            pool = [name for name in pool if not landlocked(setting.lead(name))]
        if span.kind == "place" and a_regions_capital(span):  # no Beijing as Yunnan's capital
            pool = [name for name in pool if not geography.national_capital(name) or geography.country_code(name)]
        if span.kind == "place" and an_embassys_city(span):  # no Lyon beside Paris
            pool = [name for name in pool if geography.national_capital(name)]
        if len(pool) < 3:
            dropped.append((span.text, f"fewer than three {span.kind} distractors of the same form nearby"))
            continue
        pools.append((span, pool))
        spans_seen += named + related
    definite = written_with_the([*(nearby or []), *spans_seen], finder.stats)
    named = []
    for span, pool in pools:
        blanked, written = with_article(span, definite)
        if span.kind == "place" and blanked.lower().startswith("the ") and modifies_what_follows(span, blanked.split()[0], definite):
            dropped.append((span.text, "a place inside a longer name (\"the ___ trials\", \"the ___ baboon\"): a distractor would make one up"))
            continue
        if blanked == span.text and span.kind not in ("group", YEAR, QUANTITY):  # no article before the blank: "originated in Middle East" reads wrong
            pool = [name for name in pool if not takes_the(name, definite)]
        named.append((span, pool, blanked, written))
    clozes = [span.sentence.replace(blanked, BLANK, 1).replace('"', "'") for span, _, blanked, _ in named]
    names = sorted({t for span, pool in pools if span.kind not in (YEAR, QUANTITY) for t in (span.text, *pool)})
    texts = names + [cloze for (span, *_), cloze in zip(named, clozes, strict=True) if span.kind not in (YEAR, QUANTITY)]
    vectors = dict(zip(texts, encode(texts), strict=True)) if texts else {}  # one call for the paragraph
    articles = setting.article_vectors(names)
    candidates = []
    for (span, pool, _, written), cloze in zip(named, clozes, strict=True):
        context = vectors.get(cloze)
        if context is not None and setting.home is not None:
            context = (context + setting.home) / np.linalg.norm(context + setting.home)
        if span.kind not in (YEAR, QUANTITY):
            within = named_containers(span.text, span, finder.stats)
            pool = [name for name in pool if named_containers(name, span, finder.stats) == within]
            if len(pool) < 3:
                dropped.append((span.text, "fewer than three distractors lie in just the places the sentence names that the answer lies in"))
                continue
        linked, place = None, located(span, finder.stats)
        if place:
            land = place(span.text)
            if land is None:
                dropped.append((span.text, "a people's word that names no land in the knowledge base, so its distractors cannot be placed near it"))
                continue
            pool, linked = near_on_a_map(land, pool, place, setting.linked, finder.stats, PLACED_CLOSE[span.kind])
            if len(pool) < 3:
                dropped.append((span.text, f"fewer than three {span.kind} distractors near the answer on a map (by their "
                                           "articles): a reader would rule out the others"))
                continue
        elif span.kind not in (YEAR, QUANTITY):
            linked = setting.linked(span.text, pool)
        # A neighbour in the same region is not enough in a sentence about borders, nor for a country: a reader knows
        # countries, and rounds 13-19 passed 61% of country questions with an unlinked distractor (Panama beside the United States), 90% of the rest.
        borders = about_borders(span.sentence)
        strict = "a sentence about borders" if borders else "a country" if finder.stats.type_of(span.text) == "country" else None
        if linked is not None and strict:
            pool, linked = neighbours_only(pool, linked)
            if len(pool) < 3:
                dropped.append((span.text, f"{strict}, and fewer than three distractors linked to the answer by their articles"))
                continue
        among = geography.among(span.text, span.sentence, title, borders)  # the countries the sentence sets the answer among
        reachable = None if linked is None else geography.within_reach(span.text, pool, among)
        if reachable is not None:
            pool, linked = keep_where(pool, linked, reachable)
            if len(pool) < 3:
                dropped.append((span.text, "a country set among countries, and fewer than three distractors near them on a map"))
                continue
        country = geography.country_code(span.text)
        near_water = geography.by_the_water(span.text, pool, among) if linked is not None and country and _WATER_TITLE.search(title) else None
        if near_water is not None:  # Finland and Poland among the Caspian's shores
            pool, linked = keep_where(pool, linked, near_water)
            if len(pool) < 3:
                dropped.append((span.text, "a country among the shores of a sea or lake, and fewer than three distractors about as near it"))
                continue
        shores = geography.on_the_shores(span.text, pool, f"{title} {span.sentence}", among) if linked is not None else None
        if shores is not None:  # Germany and Belgium beside "the Mediterranean"
            pool, linked = keep_where(pool, linked, shores)
            if len(pool) < 3:
                dropped.append((span.text, "a country on the shores of a sea the question names, and fewer than three distractors on them"))
                continue
        inland = geography.on_land(span.text, pool) if linked is not None and about_the_land(span.sentence) else None
        if inland is not None:  # Sri Lanka for a river that flows through India and ___
            pool, linked = keep_where(pool, linked, inland)
            if len(pool) < 3:
                dropped.append((span.text, "a country with land borders in a sentence about land, and fewer than three "
                                           "distractors that are no island state"))
                continue
        if linked is not None and country:  # Luxembourg beside France stands out by its size
            pool, linked = keep_where(pool, linked, geography.alike_in_size(span.text, pool))
            if len(pool) < 3:
                dropped.append((span.text, f"a country, and fewer than three distractors within {geography.SIZES_APART:.0f} times its size"))
                continue
        around = geography.land_neighbours(title) if borders else frozenset()
        if linked is not None and country in around:  # Palestine beside Egypt for Israel's southwest
            pool, linked = keep_where(pool, linked, [geography.country_code(name) not in around for name in pool])
            if len(pool) < 3:
                dropped.append((span.text, "a sentence about a country's borders, and fewer than three distractors that do not border it too"))
                continue
        toward = geography.in_direction(span.text, pool, title, directions_given(span)) if linked is not None and borders else None
        if toward is not None:  # Malaysia for Laos's northwest
            pool, linked = keep_where(pool, linked, toward)
            if len(pool) < 3:
                dropped.append((span.text, "a sentence that gives the direction of a country's border, and fewer than three distractors "
                                           "that lie that way"))
                continue
        distractors, closeness = most_tempting(span, pool, vectors, context, articles, finder.stats, linked)
        if linked is not None and country:  # Oman and Bangladesh beside Pakistan
            distractors = geography.one_apart_at_most(span.text, distractors)
        if len(distractors) < 3:
            dropped.append((span.text, f"fewer than three {span.kind} distractors close to the answer but not paraphrases"))
            continue
        score = _KIND_WEIGHT.get(span.kind, 1.0) + closeness - 0.01 * max(0, len(cloze.split()) - 30)
        candidates.append(Candidate(span, written(span.text), [written(d) for d in distractors], cloze, score))
    ranked = sorted(candidates, key=lambda c: -c.score)  # stable: ties keep the paragraph's order
    made, readings, read_until = [], {}, 0
    for i, candidate in enumerate(ranked):
        if len(made) == n:
            break
        if i >= read_until:  # read this candidate and the next few in place, in one batch
            read_until = min(len(ranked), i + n - len(made) + READ_SPARE)
            batch = [j for j in range(i, read_until) if ranked[j].span.kind not in (YEAR, QUANTITY)]
            readings.update(zip(batch, finder.read_many([(ranked[j].cloze, [ranked[j].answer, *ranked[j].distractors])
                                                         for j in batch]), strict=True))
        span, answer = candidate.span, candidate.answer
        distractors, problem = read_alike(candidate, readings.get(i))
        kind = stem_kind(span, finder.stats)
        templates = TYPED_TEMPLATES if kind else NEUTRAL_TEMPLATES
        direct = direct_question(candidate.cloze, kind, title)
        phrasings = [*([direct] if direct else []), *(template.format(title=title, cloze=candidate.cloze, kind=kind)
                                                      for template in templates[:variants])][:variants]
        problem = problem or phrasing_problem(phrasings[0], answer) or (None if answer in text else "answer not in the paragraph")
        if problem:
            dropped.append((span.text, problem))
            continue
        gold = int(rng.integers(4))
        # one plain space throughout: "21\xa0million" beside "17 million" would single out the answer by its bytes
        options = [" ".join(option.split()) for option in distractors[:gold] + [answer] + distractors[gold:]]
        rephrasings = [p for p in phrasings[1:] if phrasing_problem(p, answer) is None]
        made.append((Draft(phrasings[0], tuple(options), gold, span.sentence), rephrasings))
    return made, dropped
