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
import os
import re
import sqlite3
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache

import numpy as np

from sea.questions.entities import (
    BLANK,
    QUANTITY,
    QUANTITY_FORM,
    YEAR,
    YEAR_FORM,
    EntityFinder,
    Reading,
    Span,
    without_article,
    without_the,
)
from sea.memo import remembered
from sea.questions import geography
from sea.questions.model import Draft
from sea.questions.validation import INSTRUCTION_LIKE, instruction_like, phrasing_problem

GENERATOR_NAME = "offline-cloze"
# How much a question of each kind is worth asking: named facts first, then years and quantities.
_KIND_WEIGHT = {YEAR: 0.8, QUANTITY: 0.8}
_WORD = re.compile(r"[a-z0-9]+")
_LETTERS = re.compile(r"[^\W\d_]+")
GIVEN_PREFIX = 4  # letters a name shares with another word before that word gives it away
STATISTIC_AFTER = 12  # words after a year read for a statistic it dates
READ_SPARE = 1  # candidates read beyond those still needed, in case some fail
_BROKEN = re.compile(r"[\"“”„«»()\[\]{}]")
_FIRST_BRACKET = re.compile(r"\(([^()]*)\)")
_WORK_YEAR = re.compile(r"[^.]*?\b(?:is|was) an? (1[0-9]{3}|20[0-9]{2}) [A-Za-z]")  # "Vertigo is a 1958 American film"
_ANNIVERSARY = re.compile(r"\b\d+(?:st|nd|rd|th)\s+(?:anniversary|birthday|centenary)|\b(?:centenary|centennial|bicentenary|bicentennial)\b", re.I)
_ANNIVERSARY_AFTER = re.compile(r"\b\d+(?:st|nd|rd|th)\s+anniversary\b", re.I)  # "in ___ on the 40th anniversary of Apollo 11"
_YEARS_SPANNED = re.compile(r"\b(?:\d+|a|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)[- ](?:years?|seasons?)\b(?![- ]old)",
                            re.I)  # "spanned 75 years, from ___ to 1987", "executed two years later in 1946", "20 seasons … from ___ to 1999": arithmetic
_DEATH_YEAR = re.compile(r"\b(?:until (?:his|her) (?:death|suicide|assassination|execution) in"
                         r"|(?:[Hh]e|[Ss]he) (?:died|was killed|was executed|was assassinated) in) (\d{4})\b")
_BOUND_BEFORE = re.compile(r"\b(?:on the order of|exceed(?:s|ed|ing)?|more than|over|at least|at most|up to|greater than|less than|"
                           r"as (?:tall|high|long|large|deep|heavy|old|much|many|far|wide|big) as|"
                           r"fewer than|under|below|above)(?:\s+(?:[a-z]+\s+){0,2}of)?\s*$",
                           re.I)  # "depths exceeding ___", "peaks exceeding elevations of ___": every smaller option is true too
_APPROXIMATE_BEFORE = re.compile(r"\b(?:around|about|approximately|approx\.|roughly|circa|c\.|ca\.|some|nearly|almost|"
                                 r"an estimated)\s*$", re.I)  # "reigning from c. ___ BC": 1753 is as right as 1750
_ALTERNATIVE_YEAR = (re.compile(r"\b\d{3,4}\s*(?:or|/)\s*$"), re.compile(r"^\s*(?:or|/)\s*\d{3,4}\b"))  # "in ___ or 1843"
_NEGATED_BEFORE = re.compile(r"\b(?:not|nor|never|neither|no longer)\b(?:[\s,]+[\w'’-]+){0,6}[\s,]*$", re.I)
_DENOMINATOR_BEFORE = re.compile(r"\b(?:per|every|each)\s*$", re.I)  # "12 grams in every ___ of blood"
_UNIT_AFTER = re.compile(r"^\s*(?:[kMGT]?W|[kMG]?Hz|km|cm|mm|kg|mi|ft|lb|eV|AU|ly|metres|meters|feet|miles|kilometres|kilometers|"
                         r"tonnes|tons|watts|kelvin)\b")  # "up to 1039 W": a flattened 10^39, not a year
_YEAR_IN_A_NAME = re.compile(r"\b[A-Za-z]+-(\d{2})\b")  # "COVID-19": the name gives 2019 away
# "DIN standard ___": a code, not a year; "the Municipal Performance Index ___": an edition's name (round 62)
_DESIGNATION_BEFORE = re.compile(r"\b(?:standard|number|no\.|model|type|opus|op\.|route|flight|index)\s*$", re.I)
# A source's year: "(Sidwell ___)", "(Blench and Sagart ___)", "Near et al., ___", "(London: Weidenfeld and Nicolson, ___)"
_CITED_BEFORE = re.compile(r"\(\s*[A-Z][\w-]+(?:\s+(?:and|&)\s+[A-Z][\w-]+)?(?:\s+et al\.?)?\s*$|\bet al\.?,?\s*$"
                           r"|\([^():]*:[^()]*,\s*$")  # not "(Mendeleev's ___ periodic table", "(Japan, ___)"
_SURNAME_BEFORE, _PAGES_AFTER = re.compile(r"\b[A-Z][\w'’-]+\s*$"), re.compile(r"^\s*:\s*\d")  # "Trombetti ___: 1–2"
# "By ___, she was …", "growing since ___": any later year is true too; "Before ___, space was considered empty": any earlier one
_YEAR_BOUND_BEFORE = re.compile(r"\b(?:by|no later than|since|before|prior to|(?:mostly|largely|mainly|only|long|well) after)"
                                r"(?: the (?:end|start|beginning|middle) of)?\s*$", re.I)
# "The following year, …", "At this point …", "Two years later …": a sentence that leans on the one before it
_LEANS_BACK = re.compile(r"^(?:(?:In|During|By) )?(?:the (?:following|next|same|previous|preceding|subsequent)|that|this) "
                         r"(?:year|month|decade|day|week|season|spring|summer|autumn|winter|point|time|stage)\b"
                         r"|^(?:Later|Earlier) (?:that|in the|the same) (?:year|month|decade)\b"
                         r"|^(?:\w+|a few|several) (?:years?|months?|decades?|weeks?|days?) (?:later|earlier|after(?:wards)?)\b"
                         r"|\b(?:over|in|during) the (?:following|next|subsequent) (?:years|decades|months)\b"
                         r"|^(?:If so|If not|Otherwise|In that case)\b", re.I)
_UNNAMED_SOURCE = re.compile(r"^(?:Another|Other|Some|One) (?:source|sources|account|accounts|tradition|traditions|version|versions)\b")
_COMPARED_BEFORE = re.compile(r"\b(?:(?:larger|smaller|bigger|greater|more|less|fewer|older|younger) than|comparable(?: in \w+)? to"
                              r"|similar(?: in \w+)? to|(?:about|roughly|nearly|almost) the size of)(?: (?:that|those|the \w+) of)?\s*$",
                              re.I)  # "smaller than that of ___", "comparable to that of ___": several options true
_WHOLE_BEFORE = re.compile(r"\b(?:full|complete|whole)\s*$", re.I)  # "a full ___ revolution": 360 degrees by definition
# "Its capital and largest city is ___", "___ is the provincial capital": the blank is a capital, of what the sentence says
_CAPITAL_BESIDE = re.compile(rf"\bcapital\b(?:\s+[^\s,;.]+){{0,6}}?,?\s+{re.escape(BLANK)}|{re.escape(BLANK)}\s+(?:is|was|became)\s+(?:\w+\s+){{0,3}}capital\b",
                             re.I)
_EPITHET_BEFORE = re.compile(r"\S\s+[A-Z][a-z]+ the\s*$")  # "son of Louis the ___": a people's word in a name
# "the ___ subcontinent", "___ and Indian War", "the ___ Revolution": a people's word in a land's or an event's fixed name
_NAMED_LAND_AFTER = re.compile(r"^\s*(?:subcontinent|peninsula)\b|^\s*(?:and [A-Z]\w+ )?(?:Wars?|Revolution)\b", re.I)
_NAME_GIVEN_BEFORE = re.compile(r"\b(?:given|took|taking|adopted|received) the name\s*$|\brenamed\s*$", re.I)  # "Jacob, later given the name ___"
_ALIAS_AFTER = re.compile(r"^\s*\((?:now |formerly |modern |today |present-day )?[A-Z][\w'’-]*(?:[ -][A-Z][\w'’-]*)*\)")  # "___ (Persia)"
_OFFICIALLY_BEFORE = re.compile(r"\b(?:officially|formally)\s+(?:the\s+)?$", re.I)  # "Heidelberg University, officially ___ of Heidelberg": a name's form
_AS_OF = re.compile(r"\bas of(?: the)?(?: \d{1,2})?(?: (?:january|february|march|april|may|june|july|august|september|october|"
                    r"november|december))?(?: \d{1,2},?)?\s*$", re.I)  # "as of May ___": the date of a ranking or a count
_DECADE = re.compile(r"\b(1[0-9]{2}|20[0-9])0s\b")  # "in the 1960s"
# "60 mm (2.4 in)", "12 metres [39 feet]": the second is arithmetic ("[12]" is a citation)
_CONVERSION = re.compile(r"^\s*(?:\(|\[(?=[^\]]*[A-Za-z]))\s*(about|approx\.?|c\.|ca\.|~)?\s*\d")
# "5,280 English feet, or ___", "1 billion km per hour; ___"; "___, or 5,280 feet"
_OR_CONVERSION = (re.compile(r"\d\s*(?:(?:[A-Z][a-z]+|thousand|million|billion|trillion)\s+)?([^\W\d_][\w.]*)(?:\s+per\s+\w+)?(?:,?\s+or|;)\s*$"),
                  re.compile(r"^,?\s+or\s+(?:about\s+|approximately\s+)?\d[\d,.]*\s*([^\W\d_][\w.]*)"))
SIMILARITY_BAND = (0.1, 0.85)  # distractor vs answer: related, but not a paraphrase
YEAR_RANGE = 100  # distractor years within this many years of the answer
MADE_UP_YEARS = 29  # made-up distractor years within this many years of the answer
YEAR_MARGIN = 10  # ... and within this many of the paragraph's own earliest and latest years
STATS_SAMPLE = 200_000  # paragraphs read for the latest year
LOOKUPS_KEPT = 200_000  # definition lookups remembered before the memo starts over (~50 MB)
# "X is a country in …" -> "country": what an article's subject is, from its first sentence.
_DEFINITION = re.compile(r"\b(?:is|was|are|were)\s+(?:(?:one of|any of|a|an|the)\s+)*(.+)", re.I)
_DEFINITION_END = re.compile(r"[,;:()]|\s(?:of|in|on|at|that|which|who|whose|from|for|with|by|located|founded|known|to|"
                             r"between|where|within|near|than|as|after|before|behind|since|until)\b")
# Words a first sentence may end its subject's noun phrase on that say nothing of its kind.
NOT_A_TYPE = frozenset("""type form set part member name collection kind field class order group branch system process unit
area term concept object one person way item sum totality entity word place figure work piece series number being thing
use small large best largest long first similar such up right present during
through native active capable entire variety category aspect example list body""".split())
# Where a subject's noun phrase has ended: a participle or an adverb ("a country primarily located in …").
_STOP_AT = frozenset("""made found known written grown born spoken used run held built seen primarily mainly mostly largely
entirely usually typically generally chiefly predominantly originally traditionally commonly widely now""".split())
SAME_TYPE = {"capital": "city", "megacity": "city", "comune": "city", "municipality": "city", "town": "city", "metropolis": "city",
             "nation": "country", "organisation": "organization", "deitie": "deity"}
COMPOUND_TYPES = {"administrative region": "territory"}  # Hong Kong and Macau: no region beside Southeast Asia
# Words a name may carry its kind in ("Guaire River", "Lake Chad", "Kingdom of Poland").
NAME_HEADS = frozenset("""river lake mountain mountains mount sea ocean gulf bay strait channel island islands peninsula desert
basin plateau valley county province district prefecture voivodeship oblast governorate department canton university
college institute academy museum cathedral temple palace castle bridge dynasty empire kingdom republic party army navy
company corporation war battle treaty award prize festival council league association society union revolution canal
park station airport stadium sultanate caliphate khanate duchy principality emirate language""".split())
# Kinds of people spaCy calls NORP, which must not stand in for each other ("a Hindu" among "a Bengali").
GROUP_KINDS = {
    "religion": """hindu hinduism buddhist buddhism jewish judaism christian christianity muslim islamic islam catholic protestant
sikh sikhism jain jainism orthodox zoroastrian shia sunni taoist confucian pagan anglican lutheran calvinist methodist
baptist mormon evangelical coptic shinto vaishnava shaivite shiite shi'ite""",
    "region": """european asian african western eastern northern southern arab arabian latin nordic scandinavian slavic germanic
celtic mediterranean hispanic oriental balkan eurasian semitic indo-european anglo-saxon caribbean polynesian indigenous
aboriginal middle-eastern sub-saharan""",
    "politics": """nazi communist socialist republican democrat democratic conservative liberal labour fascist bolshevik marxist
whig tory federalist jacobin menshevik anarchist nationalist royalist loyalist""",
}
KIND_OF_GROUP = {word: kind for kind, words in GROUP_KINDS.items() for word in words.split()}
# Groups one of which contains the other: "a British" is also right where "a Scottish" is.
# "Irish" too: all Ireland was in the United Kingdom until 1922 ("a British" is right for Oscar Wilde).
CONTAINS = {"british": {"english", "scottish", "welsh", "irish"}, "dutch": {"netherlandish", "flemish", "hollandic"},
            "belgian": {"flemish", "walloon"}}
# "886,040 inhabitants in ___", "as of ___", "the ___ census": the date of a statistic, not a fact worth knowing.
_STATISTIC_WORDS = frozenset("inhabitants population residents census censuses estimate estimated estimates million billion speakers gdp "
                              "ranked ranking rankings".split())
_LARGE_NUMBER = re.compile(r"^\d{1,3}(,\d{3})+")
# "in Florence, ___": the place before the comma names the one in the blank.
_PLACE_THEN_ITS_COUNTRY = re.compile(r"\b(in|at|of|near) [A-Z][\w.'’-]+(?: [A-Z][\w.'’-]+)*,\s*$")
# "the pharaohs of ancient ___", "the culture of ancient Greece and ___": which civilisation, not which country or city
_ANCIENT_BEFORE = re.compile(r"\bancient\s+(?:[A-Z][\w'-]+,?\s+(?:and|or)\s+)?$"
                             r"|\bancient\b[^.;]*\b(?:Greece|Rome|Egypt|Mesopotamia|Persia),?\s+(?:and|or)\s+$", re.I)  # round 63
_EMBASSY_IN = re.compile(r"\bembass(?:y|ies)\s+in\s*$", re.I)  # "the German Embassy in ___": a capital (round 63)
# "in Nazi ___", "of British ___": a capitalised word before the blank, not the sentence's first nor a possessive
_NAME_WORD_BEFORE = re.compile(r"\S\s+[A-Z][\w.]*\s*$")
_AN_SOUND = ("hour", "honest", "honor", "honour", "heir")
_A_SOUND = ("eu", "uni", "uk", "ug", "uru", "use", "usu", "uti", "ure", "one", "once", "ewe")
_DANGLING = frozenset("of by and the in for to or a an with from at on".split())  # "Gulf of", "… Aksum by": cut spans

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


def _norm(text: str) -> str:
    return " ".join(text.lower().split())


def content_words(text: str) -> set[str]:
    """The text's words that carry meaning, crudely singular ("adults" and "adult" are one word here)."""
    from spacy.lang.en.stop_words import STOP_WORDS

    return {w[:-1] if w.endswith("s") and len(w) > 3 else w for w in _WORD.findall(text.lower())
            if len(w) >= 3 and w not in STOP_WORDS}


_HEAD_WORDS = frozenset(w[:-1] if w.endswith("s") and len(w) > 3 else w for w in NAME_HEADS)  # as content_words writes them


def name_words(text: str) -> set[str]:
    """The content words that tell a name from others of its kind: "black" in "Black Sea", not "sea"."""
    words = content_words(text)
    return words - _HEAD_WORDS or words


def same_name(a: str, b: str) -> bool:
    """Could the two name one thing, or one contain the other ("Amazon" and "Amazon River", "Africa" and
    "North Africa")? They share a telling word; "Black Sea" and "Red Sea" share only the kind."""
    return bool(name_words(a) & name_words(b))


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


def cut_off(text: str) -> bool:
    """A span that stops mid-phrase ("Gulf of", "Christianization of the Kingdom of Aksum by")."""
    words = text.lower().split()
    return not words or words[-1] in _DANGLING or words[0] in ("of", "by", "and", "or")


def group_kind(text: str) -> str:
    """What a group word names: a religion, a region's people, a political camp, or (otherwise) a nation."""
    words = without_article(text).lower().split()
    if words and words[-1].endswith("ism"):
        return "doctrine"  # "Shi'ism", "Hinduism": a belief, not a people
    return KIND_OF_GROUP.get("-".join(words)) or KIND_OF_GROUP.get(words[-1] if words else "", "nation")


def contain_each_other(a: str, b: str) -> bool:
    a, b = without_article(a).lower(), without_article(b).lower()
    return b in CONTAINS.get(a, ()) or a in CONTAINS.get(b, ())


def balanced(text: str) -> bool:
    straight = text.count('"') % 2 == 0
    return (straight and text.count("“") == text.count("”") and text.count("(") == text.count(")")
            and text.count("[") == text.count("]"))


def _singular(word: str) -> str:
    if word in ("species", "series") or word.endswith(("ss", "us", "is")) or len(word) <= 3:
        return word
    if word.endswith("ies"):
        return word[:-3] + "y"
    return word[:-1] if word.endswith("s") else word


def what_it_is(abstract: str) -> str | None:
    """The noun an article's first sentence defines its subject as: "Sudan … is a country in
    Northeast Africa" -> "country"; None when the sentence does not read that way or names only
    a generic noun ("a type of …", "a member of …") or a participle ("… is used to …")."""
    match = _DEFINITION.search(abstract.split(". ")[0])
    if not match:
        return None
    phrase = _DEFINITION_END.split(match.group(1).lower())[0]
    # "the largest city and administrative centre" -> "city"; "second-largest and … continent" -> "continent"
    return _type_noun(re.split(r"\s(?:and|or)\s", phrase)[0]) or _type_noun(phrase)


_PROPER_WORD = r"[A-Z][\w'’-]*[a-z][\w'’-]*"
_PROPER_NAME = re.compile(rf"{_PROPER_WORD}(?:\s+(?:of\s+(?:the\s+)?)?{_PROPER_WORD})*")


def where_it_is(abstract: str, name: str) -> frozenset[str]:
    """The proper names an article's first sentence places its subject among, after its "is a …":
    "Sudan is a country in Northeast Africa" -> {"Northeast Africa"}; "Jane Austen was an English
    novelist" -> {"English"}. Names of the subject itself are left out."""
    match = _DEFINITION.search(abstract.split(". ")[0])
    if not match:
        return frozenset()
    own = {w.lower() for w in _LETTERS.findall(name)}
    return frozenset(n for n in _PROPER_NAME.findall(match.group(1)) if not {w.lower() for w in _LETTERS.findall(n)} <= own)


_PLACE_WORD = re.compile(r"[^\s|-]+")
_COMPASS = frozenset("""north northern northeast northeastern northwest northwestern south southern southeast southeastern
southwest southwestern east eastern west western central middle upper lower greater""".split())
_KIND_WORDS = NAME_HEADS | frozenset("of the united democratic federal people's state states world earth great".split())


def _places(names: frozenset[str]) -> set[str]:
    """What tells each name's place, by its first letters ("India" and "Indian" meet): its telling
    words ("Northeast Africa" -> "afri"), or the whole name when it has only kind words ("United Kingdom")."""
    keys = set()
    for name in names:
        words = [w.lower() for w in name.split() if w.lower() not in _COMPASS]
        telling = [w[:GIVEN_PREFIX] for w in words if w not in _KIND_WORDS]
        keys.update(telling or ([" ".join(words)] if words else []))
    return keys


def placed_alike(answer: frozenset[str], candidate: frozenset[str]) -> int:
    """How much two definitions' whereabouts (where_it_is) agree: 0 when they share no place; else
    the places and the names they share ("Northeast Africa" agrees more with "Northeast Africa"
    than with "Northwest Africa"; "Northern Europe" and "Northeast Africa" not at all)."""
    shared = len(_places(answer) & _places(candidate))
    return shared + len(answer & candidate) if shared else 0


def has_a_place(where: frozenset[str]) -> bool:
    return bool(_places(where))


def _type_noun(phrase: str) -> str | None:
    words = phrase.split()
    # A participle ends the noun phrase ("a compound used [as a fuel]"); one before a noun is an adjective ("landlocked country").
    verb = next((i for i, w in enumerate(words) if w in _STOP_AT or (w.endswith(("ed", "ing")) and "-" not in w
                                                                      and (i > 0 or len(words) == 1))), len(words))
    words = _WORD.findall(" ".join(words[:verb]))  # "north-flowing river" stays
    if not words:
        return None
    word = _singular(words[-1])
    if word in NOT_A_TYPE or word.isdigit() or superlative(word):
        return None
    return COMPOUND_TYPES.get(" ".join(words[-2:]), SAME_TYPE.get(word, word))


_NOUNS_IN_EST = frozenset("""forest priest contest interest conquest protest harvest request tempest crest quest guest chest
nest test west arrest manifest inquest bequest digest pest vest rest everest""".split())


def superlative(word: str) -> bool:
    """"southernmost", "largest": an adjective a definition may end its first phrase on, not a kind."""
    return word.endswith("most") or (word.endswith("est") and word not in _NOUNS_IN_EST)


def named_type(name: str) -> str | None:
    """The kind a name states itself: "Tehran County" -> "county", "Gulf of Mexico" -> "gulf"."""
    words = name.lower().split()
    if len(words) < 2:
        return None
    if words[-1] in NAME_HEADS:
        return _singular(words[-1])
    if words[0] in NAME_HEADS and (len(words) == 2 or words[1] == "of"):
        return _singular(words[0])
    return None


def sampled(count: int, seed: int) -> np.ndarray | None:
    """Which of `count` paragraphs the corpus statistics read: all (None), or a seeded sample of STATS_SAMPLE."""
    if count <= STATS_SAMPLE:
        return None
    return np.sort(np.random.default_rng(seed).choice(count, STATS_SAMPLE, replace=False))


@lru_cache(maxsize=65536)  # every candidate of every pool is looked up by it, most of them many times
def title_key(title: str) -> str:
    """How a title is looked up from a span: "The Nile (river)" -> "nile"."""
    return _norm(without_the(title.split(" (")[0]))


class Definitions:
    """What each article's subject is: title key -> (document, type, name as a span writes it,
    whether its article writes it "the …", the proper names its definition places it among), in SQLite — in memory, or a file beside the
    knowledge base (the full dump's 7.1M titles never sit in RAM)."""

    LAYOUT = 5  # sea.kb.derived: bumped when the table (or how what_it_is reads a definition) changes

    def __init__(self, db: sqlite3.Connection):
        self._db = db
        self._found: dict[tuple[str, object], tuple | None] = {}  # the generator asks about the same names again and again

    @classmethod
    def of(cls, definitions: Iterable[tuple[int, str, str]]) -> Definitions:
        db = sqlite3.connect(":memory:", check_same_thread=False)
        fill_definitions(db, definitions)
        return cls(db)

    def _one(self, sql: str, value) -> tuple | None:
        return remembered(self._found, (sql, value), LOOKUPS_KEPT, lambda: self._db.execute(sql, (value,)).fetchone())

    def _entry(self, key: str) -> tuple | None:
        """(type, doc_id, definite, locale) of a title key: one query serves every question asked of it."""
        return self._one("SELECT type, doc_id, definite, locale FROM definitions WHERE key = ?", key)

    def type_of(self, key: str) -> str | None:
        found = self._entry(key)
        return found[0] if found else None

    def document_of(self, key: str) -> int | None:
        found = self._entry(key)
        return found[1] if found else None

    def definite(self, key: str) -> bool:
        """Whether the article on this title writes it "The …" ("The Middle East is …")."""
        found = self._entry(key)
        return bool(found and found[2])

    def where(self, key: str) -> frozenset[str]:
        """The proper names the article's definition places its subject among (where_it_is)."""
        found = self._entry(key)
        return frozenset(found[3].split("|")) - {""} if found else frozenset()

    def name_of(self, doc_id: int) -> tuple[str, bool]:
        """(the title as a span writes it, whether it is written "the …")."""
        return self._one("SELECT name, definite FROM definitions WHERE doc_id = ?", int(doc_id))

    def members(self, noun: str) -> list[int]:
        """The documents of a type, by doc_id."""
        return [d for (d,) in self._db.execute("SELECT doc_id FROM definitions WHERE type = ? ORDER BY doc_id", (noun,))]

    def names_of(self, nouns: Iterable[str]) -> list[str]:
        """The names of the documents of these types (as a span writes them), by doc_id."""
        nouns = sorted(nouns)
        return [name for (name,) in self._db.execute(
            f"SELECT name FROM definitions WHERE type IN ({', '.join('?' * len(nouns))}) ORDER BY doc_id", nouns)]

    def uses(self, word: str) -> int:
        """How many definitions place their subject with this word ("French": "… was a French painter")."""
        found = self._one("SELECT uses FROM place_words WHERE word = ?", word)
        return found[0] if found else 0

    @cached_property
    def size(self) -> int:
        return self._db.execute("SELECT COUNT(*) FROM definitions").fetchone()[0]

    def count(self, noun: str) -> int:
        return self._one("SELECT COUNT(*) FROM definitions WHERE type = ?", noun)[0]


def fill_definitions(db: sqlite3.Connection, definitions: Iterable[tuple[int, str, str]]) -> None:
    """The definitions table from (doc_id, title, abstract) rows. A common noun ("A continent is
    …") is no name; a plain title wins over a qualified one ("Jupiter", not "Jupiter (mythology)");
    otherwise the first title of a key wins."""
    db.execute("CREATE TABLE definitions (key TEXT PRIMARY KEY, doc_id INTEGER, type TEXT, name TEXT, definite INTEGER, "
               "plain INTEGER, locale TEXT)")

    def rows():
        for doc_id, title, abstract in definitions:
            noun = what_it_is(abstract)
            if noun and not abstract.startswith(("A ", "An ")):
                name = without_the(title.split(" (")[0])
                yield (title_key(title), doc_id, noun, name, abstract.startswith(f"The {name}"), " (" not in title,
                       "|".join(sorted(where_it_is(abstract, name))))

    db.executemany("INSERT INTO definitions VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (key) DO UPDATE SET doc_id = excluded.doc_id, "
                   "type = excluded.type, name = excluded.name, definite = excluded.definite, plain = excluded.plain, "
                   "locale = excluded.locale "
                   "WHERE definitions.plain = 0 AND excluded.plain = 1", rows())
    db.execute("CREATE INDEX definitions_by_type ON definitions (type, doc_id)")
    db.execute("CREATE INDEX definitions_by_document ON definitions (doc_id)")
    words = Counter(w for (locale,) in db.execute("SELECT locale FROM definitions") for w in _PLACE_WORD.findall(locale))
    db.execute("CREATE TABLE place_words (word TEXT PRIMARY KEY, uses INTEGER)")
    db.executemany("INSERT INTO place_words VALUES (?, ?)", words.items())


class CorpusStats:
    """What the knowledge base says that questions need: the latest year it mentions often
    enough to be its date (from `texts`: all paragraphs, or `sampled` ones), and what each
    article's subject is (`definitions`: a Definitions, or (doc_id, title, abstract) rows)."""

    def __init__(self, texts: Iterable[str], latest_year: int | None = None,
                 definitions: Definitions | Iterable[tuple[int, str, str]] = ()):
        years: Counter[int] = Counter()
        read = 0
        for read, text in enumerate(texts, 1):
            years.update({int(y) for y in YEAR_FORM.findall(text)})
        # The knowledge base's date: the latest year that enough paragraphs mention (a single
        # mention may be a plan or a typo); an explicit questions.latest_year wins.
        enough = max(3, round(0.0005 * read))
        self.latest_year = latest_year or max((y for y, n in years.items() if n >= enough), default=9999)
        self.definitions = definitions if isinstance(definitions, Definitions) else Definitions.of(definitions)
        self._kind_sizes: dict[str, int] = {}
        self._homelands: dict[str, str | None] = {}

    def type_of(self, text: str) -> str | None:
        """What the knowledge base's article calls it, or else what its own name says ("Guaire River")."""
        return self.definitions.type_of(title_key(text)) or named_type(without_the(text))

    def document_of(self, text: str) -> int | None:
        return self.definitions.document_of(title_key(text))

    def members(self, noun: str) -> list[int]:
        return self.definitions.members(noun)

    def where(self, text: str) -> frozenset[str]:
        return self.definitions.where(title_key(text))

    def article_writes_the(self, text: str) -> bool:
        return self.definitions.definite(title_key(text))

    def a_people(self, group: str) -> bool:
        """Is the group word (each part of "Danish-French") one the knowledge base's definitions often
        place people and things with ("French", "Mughal"), not an era, a style or a name ("Victorian",
        "Symbolist", "Correggio")? Often: in at least PEOPLE_SHARE of the definitions (and one)."""
        parts = _PLACE_WORD.findall(without_the(without_article(group)))
        least = max(1, PEOPLE_SHARE * self.definitions.size)
        return bool(parts) and all(self.definitions.uses(part) >= least for part in parts)

    @cached_property
    def _lands(self) -> list[str]:
        return self.definitions.names_of(LAND_TYPES)

    def homeland(self, group: str) -> str | None:
        """The land a people's word names (homeland_of), among the knowledge base's lands."""
        key = without_the(without_article(group)).lower()
        if key not in self._homelands:
            self._homelands[key] = homeland_of(key, self._lands)
        return self._homelands[key]

    def kind_size(self, noun: str) -> int:
        """How many articles the knowledge base gives this type."""
        if noun not in self._kind_sizes:
            self._kind_sizes[noun] = self.definitions.count(noun)
        return self._kind_sizes[noun]

    def as_span(self, doc_id: int, kind: str) -> Span:
        """A document's title as a candidate distractor of the given kind."""
        name, definite = self.definitions.name_of(doc_id)
        return Span(kind, name, "", bool(definite))


_INDEFINITE = re.compile(r"\b[Aa]n? ")
_ARTICLE_WORD = re.compile(r"\b(?:[Aa]n?|[Tt]he) ")


def article_before(span: Span, article: re.Pattern) -> str | None:
    """The first article (of those `article` matches, with its space) written right before the span
    in its sentence, without the space, or None. (Articles found then the span sought after each:
    a pattern per span would be compiled thousands of times.)"""
    for found in article.finditer(span.sentence):
        if span.sentence.startswith(span.text, found.end()):
            return found.group(0)[:-1]
    return None


def converted(answer: Span, before: str, after: str) -> bool:
    """Is a quantity the same figure as one beside it in another unit ("5,280 feet, or ___ yards")?"""
    found = _OR_CONVERSION[0].search(before) or _OR_CONVERSION[1].match(after)
    return found is not None and found.group(1) != QUANTITY_FORM.match(answer.text).group(2)


def answer_problem(span: Span, title: str) -> str | None:
    """Why this span would not make a fair question, or None."""
    if _BROKEN.search(span.text) or not balanced(span.sentence):
        return "a broken span or sentence (unbalanced quotes or brackets)"
    if span.kind != QUANTITY and cut_off(span.text):  # "2.4 in" is a unit, not a cut
        return "a span cut off mid-phrase (\"Gulf of\")"
    if "\n" in span.sentence:
        return "a list or a run of lines, not a sentence"
    if span.kind != "group" and article_before(span, _INDEFINITE):
        return "\"a\"/\"an\" before a name (\"an Atlantic–Congo language\"): the article would single out options"
    if span.text.endswith(("'s", "’s")):
        return "a possessive (\"Sri Lanka's\"): its form gives it away"
    if span.sentence.count(span.text) != 1:
        return "the answer appears twice in its sentence"
    before, _, after = span.sentence.partition(span.text)
    if before.endswith(("-", "–")) or after.startswith(("-", "–")):
        return "part of a compound word (\"Indo-___\")"
    if span.kind in (YEAR, QUANTITY) and (_CONVERSION.match(after) or before.rstrip().endswith("(")
                                          or span.kind == QUANTITY and (before.rstrip().endswith("[") or converted(span, before, after))):
        return "a number computable from the sentence (a unit conversion)"
    if span.kind == YEAR and _UNIT_AFTER.match(after):
        return "a number with a unit after it (\"luminosities up to ___ W\"), not a year"
    if span.kind == YEAR and span.text[-2:] in _YEAR_IN_A_NAME.findall(f"{title} {span.sentence}"):
        return "a year whose last two digits a name in the question carries (\"COVID-19\"): the name gives it away"
    if span.kind == YEAR and citation(before, after):
        return "the year of a source the sentence cites (\"(Sidwell ___)\", \"Near et al., ___\"), not a fact about the subject (round 69)"
    if span.kind == YEAR and _DESIGNATION_BEFORE.search(before):
        return "a number that names a thing (\"DIN standard ___\", \"Route ___\"), not a year"
    if span.kind == YEAR and (_ANNIVERSARY.search(span.sentence) or _YEARS_SPANNED.search(span.sentence)) \
            and len(set(YEAR_FORM.findall(span.sentence))) > 1:
        return "a year computable from the sentence (\"the 600th anniversary of 1325\", \"75 years, from ___ to 1987\")"
    if span.kind == YEAR and _ANNIVERSARY_AFTER.search(after):
        return ("a year the sentence then calls an event's numbered anniversary (\"in ___ on the 40th anniversary of Apollo 11\"): "
                "the event's year and arithmetic give it (round 70)")
    if span.kind in (YEAR, QUANTITY) and before.rstrip().endswith("^"):
        return "an exponent (\"3×10^___ ly\"): notation, not a fact worth knowing (round 62)"
    if span.kind == QUANTITY and before.rstrip().endswith(("±", "+/-", "+/−")):
        return "a measurement's margin of error (\"10,935 ± ___\"), not a fact worth knowing"
    if span.kind == QUANTITY and _DENOMINATOR_BEFORE.search(before):
        return "the quantity a figure is given per (\"12 grams in every ___ of blood\"): a convention of units, not a fact worth knowing"
    if span.kind == QUANTITY and title.endswith("(unit)"):
        return "a quantity in a unit's own article (\"one foot comprises ___\"): a conversion, not a fact about the world"
    if span.kind == QUANTITY and _WHOLE_BEFORE.search(before):
        return "a quantity after \"full\" (\"a full ___ revolution\"): what \"full\" means, not a fact"
    if span.kind == QUANTITY and _BOUND_BEFORE.search(before):
        return "a quantity after a bound (\"exceeding ___\", \"on the order of ___\"): more than one option would be true"
    if span.kind in (YEAR, QUANTITY) and _APPROXIMATE_BEFORE.search(before):
        return "an approximate figure (\"around ___\", \"c. ___\"): an option near it would be right too"
    if span.kind == YEAR and (_ALTERNATIVE_YEAR[0].search(before) or _ALTERNATIVE_YEAR[1].search(after)):
        return "a year given with its alternative (\"in ___ or 1843\"): the other year gives it away"
    if _NEGATED_BEFORE.search(before):
        return "a blank after a negation (\"was not a part of, nor did it belong to, ___\"): every wrong option would be true"
    if span.kind == YEAR and _YEAR_BOUND_BEFORE.search(before):
        return "a year after a bound (\"By ___, …\", \"Before ___, …\"): an option on the bound's far side would be true too"
    if span.kind == YEAR and a_world_wars_first_or_last_year(span, title):
        return ("a World War's first or last year, the war named (\"ended in May ___, ending World War II in Europe\"): every "
                "reader knows it, and an option inside the war would contradict \"the end of\" (round 61)")
    if _LEANS_BACK.search(span.sentence):
        return "a sentence that leans on the one before it (\"The following year, …\", \"At this point …\"): alone it does not say when"
    if _UNNAMED_SOURCE.match(span.sentence):
        return "a claim an unnamed source makes (\"Another source claims …\"): only the paragraph tells which"
    if span.kind not in (YEAR, QUANTITY) and _COMPARED_BEFORE.search(before):
        return "a name after a comparison (\"larger than Tanzania but smaller than ___\"): more than one option would be true"
    if span.kind == "group" and _EPITHET_BEFORE.search(before):
        return "a people's word in a person's epithet (\"Louis the ___\"): wording, not a fact"
    if span.kind == "group" and _NAMED_LAND_AFTER.match(after):
        return "a people's word in a land's or an event's fixed name (\"the ___ subcontinent\", \"___ and Indian War\"): wording, not a fact"
    if span.kind not in (YEAR, QUANTITY) and _NAME_GIVEN_BEFORE.search(before):
        return "a name given (\"Jacob, later given the name ___\"): wording, not a fact about a place or a people (round 64)"
    if span.kind not in (YEAR, QUANTITY) and _ALIAS_AFTER.match(after):
        return "a name the bracket after it gives again (\"a parliament in ___ (Persia)\"): it gives the answer away (round 64)"
    if span.kind == QUANTITY and restated(span.text, before + " " + after):
        return "a figure the sentence gives again, rounded (\"exactly ___, which is approximately 9.46 trillion km\"; round 64)"
    if _OFFICIALLY_BEFORE.search(before):
        return "a name's official form (\"officially ___ of Heidelberg\"): wording, not a fact"
    if span.kind == YEAR and _statistic_date(before, after):
        return "the date of a statistic (\"886,040 inhabitants in ___\"), not a fact worth knowing"
    if span.kind == "place" and _PLACE_THEN_ITS_COUNTRY.search(before):
        return "the place before it names it (\"in Florence, ___\")"
    if span.kind == "place" and _NAME_WORD_BEFORE.search(before):
        return "a place named with a word before it (\"Nazi ___\", \"British ___\"): the longer name gives it away"
    if span.kind in ("place", "group") and _ANCIENT_BEFORE.search(before):
        return ("a land or a people after \"ancient\" (\"an ancient ___ tragedian\"): it asks which ancient civilisation, and a "
                "modern state or nation offered beside it is ruled out by history")
    words = name_words(span.text)
    if words & content_words(title):
        return "the title gives the answer away"
    if words & content_words(before + " " + after):
        return "the rest of the sentence gives the answer away"
    if word_form_given(span.text, f"{title} {before} {after}"):
        return "another form of the answer's name is in the question (\"Scottish\" for \"Scotland\")"
    if instruction_like(span.sentence):  # also when the blank would hide the words that give it away
        return f"the sentence {INSTRUCTION_LIKE}"
    return None


_NAME_TOKEN = re.compile(r"[\w'’-]+")
NAME_WORDS = 4  # words in the longest name looked up around a blank ("Spring and Autumn period")


def placed_by_the_question(span: Span, title: str, stats: CorpusStats) -> str | None:
    """Another name in the sentence that the knowledge base places in the answer: "the Tang
    dynasty" (an imperial dynasty of China) gives away China, "Punjab" India or Pakistan, "Yunnan" (a province in
    Southwestern China) China, whatever the question is about. Not a name the answer's own article places it with in turn (neighbours
    name each other: Zambia and Zimbabwe), nor the title: where its subject lies is the fact asked."""
    answer = _place_key(span.text)
    if not answer:
        return None
    own, answer_with = title_key(title), {_place_key(place) for place in stats.where(span.text)}
    for name in names_around(span):
        if (title_key(name) != own and _place_key(name) not in answer_with
                and any(_place_key(place) - _COMPASS == answer for place in stats.where(name))):  # "Southwestern China": China
            return f"\"{name}\" in the question lies in the answer, by its article: it gives the answer away"
    return None


_ONE_WORD = re.compile(r"[\w'’]+")  # "David", not "Austria-Hungary" or "Weimar Republic"
_NAME_BREAK = re.compile(r"[,;:()\[\]\"“”]")  # a name does not run across these


def names_around(span: Span) -> Iterator[str]:
    """Every run of up to NAME_WORDS words that starts with a capital and does not cross a comma or a
    bracket, as the sentence writes it ("George H. W. Bush"), before the answer and then after it."""
    before, _, after = span.sentence.partition(span.text)
    for part in (piece for side in (before, after) for piece in _NAME_BREAK.split(side)):
        words = list(_NAME_TOKEN.finditer(part))
        for start in (i for i, word in enumerate(words) if word.group()[0].isupper()):
            for end in range(start + 1, min(start + NAME_WORDS, len(words)) + 1):
                yield part[words[start].start():words[end - 1].end()]


def _place_key(name: str) -> frozenset[str]:
    """A place's name as its words' first letters, compass words whole ("Indian" and "India" meet,
    "South Africa" and "Southern Africa" do not)."""
    words = [w.lower() for w in without_the(name).split()]
    telling = [w if w in _COMPASS else w[:GIVEN_PREFIX] for w in words if w not in _KIND_WORDS]
    return frozenset(telling or ([" ".join(words)] if words else []))


_IRREGULAR_FORMS = [("france", "french"), ("spain", "spanish"), ("rome", "roman"), ("netherlands", "dutch"), ("wales", "welsh"),
                    ("denmark", "danish"), ("finland", "finnish"), ("poland", "polish"), ("switzerland", "swiss"),
                    ("ireland", "irish"), ("philippines", "filipino"), ("madagascar", "malagasy"), ("greece", "greek"),
                    ("norway", "norwegian"), ("portugal", "portuguese"), ("scotland", "scottish"), ("england", "english")]
_OTHER_FORMS = {a: b for pair in _IRREGULAR_FORMS for a, b in (pair, pair[::-1])}  # the place and its people's word, both ways
_WHOLE_NAME_FORMS = [("united states", "american"), ("united kingdom", "british")]  # names whose words say nothing alone
_OTHER_WHOLE_FORMS = {a: b for pair in _WHOLE_NAME_FORMS for a, b in (pair, pair[::-1])}
_JAPANESE_WORDS = {"kana", "kanji", "hiragana", "katakana", "samurai", "shogun", "shogunate", "daimyo"}
_OWN_WORDS = {"egypt": {"pharaoh", "pharaohs"}, "egyptian": {"pharaoh", "pharaohs"}, "japan": _JAPANESE_WORDS,
              "japanese": _JAPANESE_WORDS, "rome": {"pope", "popes", "papal", "papacy", "vatican"},
              "israel": {"torah", "israelites", "tribes"}}  # words a reader ties to one place ("___'s warrior pharaoh", "the pope in ___")
_MORE_INITIALS = {"united states": "A"}  # "USA": a letter the name's own initials do not give


@lru_cache(maxsize=4096)  # one pattern per name: the names of a run would overflow re's own cache of 512
def initials(name: str) -> re.Pattern | None:
    """The name's initials as an abbreviation may write them ("the Democratic Republic of the Congo" ->
    "DRC", "D.R.C."; "the United States" -> "US", "U.S.", "USA"), or None for a name of one capitalised word."""
    letters = [word[0] for word in without_the(name).split() if word[:1].isupper()]
    if len(letters) < 2:
        return None
    extra = _MORE_INITIALS.get(without_the(name).lower())
    return re.compile(r"(?<![\w.])" + r"\.?\s?".join(letters) + r"\.?" + (rf"(?:{extra}\.?)?" if extra else "") + r"(?!\w)")


def word_form_given(answer: str, text: str) -> bool:
    """Does the text name the answer in another form: "Scottish" for "Scotland", "Chilean" for
    "Chile", "Curium" for "Curie", "Roman" for "Rome", "American" or "U.S." for "the United States"? (A
    name's first four letters or more, at least half of it, begin a word of the text; or the word
    is the name's irregular form; or the whole name's, or its initials: "U.S.", "the DRC"; or a group
    it contains: "English" for "British"; or a word only it has: "pharaoh" for "Egypt", "kana" for "Japanese".)"""
    whole = without_article(without_the(answer)).lower()
    other, abbreviation = _OTHER_WHOLE_FORMS.get(whole), initials(without_article(answer))
    if (other and re.search(rf"\b{other}s?\b", text, re.I)) or (abbreviation and abbreviation.search(text)):
        return True
    words = {w.lower() for w in _LETTERS.findall(text)}
    if (CONTAINS.get(whole, set()) | _OWN_WORDS.get(whole, set())) & words:
        return True
    for name in _LETTERS.findall(answer):
        if name[0].isupper() and len(name) >= GIVEN_PREFIX and name.lower() not in _HEAD_WORDS:
            stem = name[:max(GIVEN_PREFIX, (len(name) + 1) // 2)].lower()
            if any(w.startswith(stem) for w in words) or _OTHER_FORMS.get(name.lower()) in words | {w.removesuffix("s") for w in words}:  # "Swiss" ends in s
                return True
    return False


_FULL_STOP = re.compile(r"\.(?!\d)")  # not the point of "42.9 million"
# "according to UNCTAD in ___", "In ___, Coke products were sold in over 200 countries": the year a figure was given
_SOURCE_IN_BEFORE = re.compile(r"\baccording to\b[^,;]*\bin\s*$", re.I)
_ROUND_FIGURE = re.compile(r"\b(?:over|more than|upwards of) \d[\d,.]* (?!years?\b|centur)[a-z]")  # a count, not "from about 1798"
# "According to the ___ Journal Citation Reports", "in their ___ survey": the edition of a source, not a fact
_EDITION_AFTER = re.compile(r"^\s*(?:\S+\s+){0,3}(?:reports?|surveys?|polls?|lists?|index)\b", re.I)
_RANKED = re.compile(r"\b(?:ranked|rankings?)\b", re.I)  # "ranked as India's 6th cleanest city as per the survey for the year ___" (round 63)
# "a maximum depth of 25.5 m (84 ft) in ___", "from about 19 tonnes in ___": the year a measurement was made (round 62)
_MEASURED_IN_BEFORE = re.compile(r"(?:\d\s*[A-Za-z][A-Za-z ]{0,5}\d?\)|\btonnes)\s+in\s*$")
_MULTIPLIERS = {"thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12}
_FIGURE = re.compile(rf"(?<![\w.\[])(\d[\d,]*(?:\.\d+)?)(?!\])(?:\s+({'|'.join(_MULTIPLIERS)}))?\b")  # not "[12]", a citation


def citation(before: str, after: str) -> bool:
    """Is the blank the year of a source the sentence cites, by its author or its publisher? (Round 69's readers failed
    "(Sidwell ___)", "Near et al., ___" and a bibliography's "(Heidelberg: Winter, ___)" as wording.)"""
    return bool(_CITED_BEFORE.search(before) or _SURNAME_BEFORE.search(before) and _PAGES_AFTER.match(after))


def restated(quantity: str, rest: str) -> bool:
    """Does the rest of the sentence give the quantity's figure again, to within 1% ("9,460,730,472,580.8 km" and
    "approximately 9.46 trillion kilometres")?"""
    value = next(iter(_figures(quantity)), 0.0)
    return value > 0 and any(abs(figure - value) <= 0.01 * value for figure in _figures(rest))


def _figures(text: str) -> list[float]:
    """The numbers a text writes, each times its scale word ("9.46 trillion" -> 9.46e12)."""
    return [float(number.replace(",", "")) * _MULTIPLIERS.get(scale, 1.0) for number, scale in _FIGURE.findall(text)]


def _statistic_date(before: str, after: str) -> bool:
    """A year that only dates a figure: "886,040 inhabitants in ___", "In ___, the official
    population was 672,545", "as of the ___ census", "ranked as such as of May ___"."""
    near = before.lower().split()[-8:] + _FULL_STOP.split(after.lower())[0].split()[:STATISTIC_AFTER]
    return (bool(_STATISTIC_WORDS & {w.strip(".,;") for w in near}) or any(_LARGE_NUMBER.match(w) for w in near)
            or bool(_ROUND_FIGURE.search(" ".join(near)))
            or bool(_AS_OF.search(before)) or bool(_SOURCE_IN_BEFORE.search(before)) or bool(_EDITION_AFTER.match(after))
            or bool(_MEASURED_IN_BEFORE.search(before)) or bool(_RANKED.search(before.split(";")[-1])))


def same_form(candidate: Span, answer: Span, stats: CorpusStats, title: str = "") -> bool:
    """Could this candidate stand in the answer's place without standing out by its form or kind?
    Named things must be what the knowledge base calls the answer ("a country", not "a
    continent"), placed where it is (sharing a proper name of its definition when that has any:
    "a country in Northeast Africa" -> "a country in East Africa", not "in Northern Europe") and
    named alike ("Henan Province" among provinces named so); groups without an article of their
    own must be the same kind of group."""
    if candidate.kind != answer.kind or _BROKEN.search(candidate.text):
        return False
    if answer.kind == YEAR:
        return _plausible_year(int(candidate.text), answer, stats, title) and round_alike(int(candidate.text), int(answer.text))
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


_TAXON_ENDING = re.compile(r"(?:idae|aceae|inae|oideae)$")  # a Latin family or subfamily ("Bovidae", "Rosaceae", "Bovinae")


def taxon_ending(name: str) -> str | None:
    """The ending that marks a name as a Latin family or subfamily ("Bovidae": "idae"), or None."""
    found = _TAXON_ENDING.search(name) if " " not in name else None
    return found.group() if found else None


_CONTINENTS = frozenset("asia africa europe america americas oceania".split())


def part_of_a_continent(name: str) -> bool:
    """Is the name a continent's part by its compass ("Southeast Asia", "Western Europe", "Central America";
    not "South Africa", a country)?"""
    words = without_the(name).lower().split()
    return (len(words) == 2 and words[0] in _COMPASS and words[1] in _CONTINENTS
            and geography.country_code(name) is None)


def stem_kind(span: Span, stats: CorpusStats) -> str | None:
    """The kind a question may name ("Which river …"): a year or a quantity, told by its form, or
    the type every option shares; None for groups ("a Dutch" is no "Which nation"): a neutral stem."""
    if span.kind in (YEAR, QUANTITY):
        return span.kind
    return None if span.kind == "group" else stats.type_of(span.text)


def problem_before_distractors(span: Span, title: str, stats: CorpusStats, paragraph: str) -> str | None:
    """Why the span of the paragraph is no answer, as far as that can be told before any distractor is sought, or None."""
    if problem := answer_problem(span, title):
        return problem
    if needs_a_type(span, stats):
        return f"no article says what this {span.kind} is, so no distractor can be shown to be of its kind"
    if span.kind == YEAR and int(span.text) >= stats.latest_year - 1:
        return ("a year at the knowledge base's date or the one before: no option may come after that date, so the answer "
                "would be the latest option")
    if country_of_the_past(span, title, stats):
        return (f"a country in a sentence dated before {STATES_AS_TODAY}: its distractors would be today's countries, "
                "some of which did not exist then")
    if one_of_a_list_of_countries(span):
        return (f"a country in an open list beside {LISTED_COUNTRIES} or more others (\"such as Belgium, ___, Canada … etc.\"): "
                "the list holds some of the countries it could, so a distractor may be true too")
    if another_place_of_its_name(span, stats):
        return ("a place the sentence puts in another (\"___, Illinois\") that its article does not: the article is another "
                "place's of that name (Cairo in Egypt), and distractors sought near it would lie there (round 61)")
    return kind_problem(span, stats) or placed_by_the_question(span, title, stats) or cut_from_its_paragraph(span.sentence, paragraph)


# A subject its article's first sentence (or the World War its title names) dates only before this year, the First World
# War's end, which made most of Europe's and the Middle East's states (not its other years: an old city's article names
# old years), is older than today's states: a country answer's distractors would be anachronisms (rounds 49-58: Slovakia
# and Belarus among the Gediminids' realms, Bangladesh for the Mongol invasions Alauddin Khalji fended off, Saudi Arabia
# for Hatshepsut, Slovenia and Slovakia in the Seven Years' War, Belarus and Ukraine on the Great War's Eastern Front). A
# sentence's own dates are country_of_the_past's.
MODERN_STATES_FROM = 1919
_TODAY = re.compile(r"\b(?<!-)(?:modern|modern-day|present-day|present day|what is now|today|national hero)\b", re.I)  # today's states are meant
STATES_AS_TODAY = 1992  # the knowledge base's definitions describe today's countries, whose set settled when the Soviet Union and Yugoslavia broke up
_ERA_YEAR = re.compile(r"\b(\d{1,4})\s*(BCE?|CE|AD)\b|\bAD\s*(\d{1,4})\b")  # "509 BC", "266 CE", "AD 79"


def dates_named(text: str) -> list[int]:
    """The years a text names: four-digit years, decades ("the 1940s" -> 1940) and years with an era ("509 BC" -> -509, "420 CE" -> 420)."""
    years = [int(y) for y in YEAR_FORM.findall(text)] + [int(d) * 10 for d in _DECADE.findall(text)]
    for number, era, after_ad in _ERA_YEAR.findall(text):
        years.append(-int(number) if era.startswith("BC") else int(number or after_ad))
    return years


_ORDINALS = """first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth fourteenth
fifteenth sixteenth seventeenth eighteenth nineteenth""".split()
_CENTURY = re.compile(rf"\b(\d{{1,2}}(?:st|nd|rd|th)|{'|'.join(_ORDINALS)})[- ]century\b", re.I)  # "13th-century", "the eighteenth century"
# "ancient Egypt, ___, and Mesopotamia", "a spy in pre-modern ___"; not "an ancient city in ___", which is on today's map
_OF_ANTIQUITY = re.compile(r"\b(?:ancient|pre-?modern|medieval|feudal)\b(?! (?:city|town|village|port|site|ruins?|settlement)\b)"
                           r"|\bmillenni(?:um|a) BCE?\b|\bprehistor", re.I)


def centuries_named(text: str) -> list[int]:
    """The first year of each century a text names in figures or words ("13th-century" -> 1200, "the eighteenth century" -> 1700)."""
    return [100 * ((_ORDINALS.index(c.lower()) + 1 if c.isalpha() else int(c[:-2])) - 1) for c in _CENTURY.findall(text)]


def a_regions_capital(span: Span) -> bool:
    """Is the blank a capital ("Its capital and largest city is ___") that is no country's (Kunming, Munich)? Then a
    country's capital beside it (Beijing for Yunnan's, Berlin for Bavaria's) is ruled out by what every reader knows."""
    return (bool(_CAPITAL_BESIDE.search(span.sentence.replace(span.text, BLANK, 1))) and not geography.national_capital(span.text)
            and geography.country_code(span.text) is None)


def an_embassys_city(span: Span) -> bool:
    """Is the blank the city of an embassy ("to the German Embassy in ___")? Then a city that is no country's capital
    beside it (Toulouse, Marseille, Lyon beside Paris) is ruled out by what every reader knows."""
    return bool(_EMBASSY_IN.search(span.sentence.partition(span.text)[0]))


# Rounds 24-60: country answers in an open list ("such as", "including", "among", "as well as") beside 2 or more other
# countries, not a country's borders, failed 40% of the readers' verdicts (55 of 138; Francophone nations "such as
# Belgium, ___, Canada … etc.", Kurdish diasporas, steppes), the rest of the country questions about 15%.
LISTED_COUNTRIES = 2
_OPEN_LIST = re.compile(r"\b(?:such as|including|include[sd]?|among|etc|for example|e\.g|like|as well as|other)\b", re.I)


def one_of_a_list_of_countries(span: Span) -> bool:
    """Is the answer a country an open list holds beside LISTED_COUNTRIES or more others, in a sentence not about borders?"""
    others = geography.countries_named(span.sentence.replace(span.text, BLANK, 1))
    return (bool(geography.country_code(span.text)) and len(others) >= LISTED_COUNTRIES and bool(_OPEN_LIST.search(span.sentence))
            and not about_borders(span.sentence))


def country_of_the_past(span: Span, title: str, stats: CorpusStats) -> bool:
    """Is the answer a country in a sentence (or a title) dated before STATES_AS_TODAY, by a year, a
    century that ends before it ("13th-century ___", "during the eighteenth century") or antiquity ("ancient Egypt, ___")? Its distractors would be today's countries, and which of them existed then
    ("Pakistan" for field hockey in 1928, "Panama" for a president in 1829) is history the definitions do not hold."""
    text = f"{title} {span.sentence}"
    centuries = centuries_named(text)  # before today's states only: "the 20th century" holds them
    return stats.type_of(span.text) == "country" and (any(year < STATES_AS_TODAY for year in dates_named(text))
                                                       or (any(year + 100 < STATES_AS_TODAY for year in centuries) or _OF_ANTIQUITY.search(text))
                                                       and not _TODAY.search(text))


_SENTENCE_END = (".", "!", "?", ":", ";", '"', "”", "’", "'", ")")


_TITLE_ABBREVIATION_END = re.compile(r"\b(?:Sgt|Dr|Mr|Mrs|Ms|St|Gen|Lt|Col|Capt|Maj|Prof|Rev|Sen|Gov|Mt|Ft|Adm|Cpl|Pvt)\.$")  # "…, Sgt." | "Pepper"


def cut_from_its_paragraph(sentence: str, paragraph: str) -> str | None:
    """Why the sentence is no sentence of the paragraph, or None: the sentence splitter cut it where
    no sentence ends ("… part of a UNESCO | World Heritage Site since ___.", "… "Hello, Dolly!" | in ___, as
    well as …": it starts in lower case; "The rulers deposed include: | Ben Ali of Tunisia, …": what follows a colon
    needs what came before it; "Released in the UK on 26 May ___, Sgt." | "Pepper's …": it ends on a
    title's abbreviation with more to come), so it says nothing of what it is about."""
    start = paragraph.find(sentence)
    first = re.search(r"[^\W_]", sentence)
    before = paragraph[:start].rstrip()
    if ((start > 0 and (not before.endswith(_SENTENCE_END) or before.endswith(":"))) or (first and first.group(0).islower())
            or (_TITLE_ABBREVIATION_END.search(sentence) and paragraph[start + len(sentence):].strip())):
        return "a fragment of a sentence (the sentence splitter cut it where no sentence ends)"
    return None


def needs_a_type(span: Span, stats: CorpusStats) -> bool:
    """A named answer the knowledge base does not define: no distractor could be shown to be of its kind."""
    return span.kind not in (YEAR, QUANTITY, "group") and stats.type_of(span.text) is None


PEOPLE_SHARE = 0.001  # of the definitions a people's word must place their subjects in (10,000 articles: French 197, Mughal 8, Victorian 4)
MIN_KIND_SIZE = 10  # a kind with fewer members (continents, planets, oceans) is told apart by common knowledge


PLACE_TYPES = frozenset("""country city state province region island river lake sea mountain county district territory
kingdom empire archipelago peninsula desert village capital""".split())


_PEOPLE_ENDINGS = frozenset({"", "e", "n", "an", "ian", "ean", "ese", "i", "ish", "ic"})  # "Canad-ian", "Chin-ese", "Argentin-e"
LAND_TYPES = frozenset("country empire kingdom state region island".split())  # what a people's word may be named after


def homeland_of(people: str, lands: Iterable[str]) -> str | None:
    """The land a people's word (lower case) names: "french" -> "france", "american" -> "united
    states", else the land whose name the word starts with, but for the name's last two letters
    at most, and then ends as a people's word does: the longest such ("canadian" -> "Canada",
    "austrian" -> "Austria", not "Australia"; "romantic" names no "Romania"), or "<word> Empire"; None when no land is named so."""
    other = _OTHER_FORMS.get(people) or _OTHER_WHOLE_FORMS.get(people)
    if other:
        return other
    best, longest = None, 0
    for land in lands:
        if land.lower() == f"{people} empire":  # "Ottoman", "Byzantine"
            return land
        shared = len(os.path.commonprefix([people, land.lower()]))
        if (shared >= max(GIVEN_PREFIX, len(land) - 2) and people[shared:] in _PEOPLE_ENDINGS
                and shared > longest):
            best, longest = land, shared
    return best


def located(span: Span, stats: CorpusStats) -> Callable[[str], str | None] | None:
    """How to find an option on a map when a reader would rule out one far from the answer (Peru
    for a river in the United States, "Chinese" for a province of Alberta): a place by its own
    name, a people by its homeland; None for an answer of another kind."""
    if span.kind == "group":
        return stats.homeland if group_kind(span.text) == "nation" else None
    return (lambda name: name) if span.kind == "place" and stats.type_of(span.text) in PLACE_TYPES else None


def kind_problem(span: Span, stats: CorpusStats) -> str | None:
    """Why the answer's kind makes no fair question, or None: too few of its kind for a distractor
    a reader could not rule out by common knowledge ("Antarctica" among the continents), or a name
    the sentence uses as something other than what its article is about ("Tonga", the language,
    whose article is the country's: countries would be offered for a language)."""
    if span.kind == "group" and group_kind(span.text) != "nation":
        return ("a faith's, a region's or a political camp's word: the knowledge base's words of its kind are of other forms "
                "and overlap (\"the Christianity\", Sunni beside a sentence's Muslims, Arab for the African Goliath frog); "
                "readers failed 33 of the 39 such questions in rounds 24-69")
    if span.kind == "group" and not stats.a_people(span.text):
        return "a group word the knowledge base seldom places anyone with: an era, a style or a name (\"Victorian\"), not a people"
    if span.kind in (YEAR, QUANTITY, "group"):
        return None
    kind = stats.type_of(span.text)
    if span.kind != "place" and kind in PLACE_TYPES:
        return f"the sentence uses it as a {span.kind} but its article is about a {kind}"
    if stats.kind_size(kind) < MIN_KIND_SIZE:
        return f"fewer than {MIN_KIND_SIZE} of its kind ({kind}) in the knowledge base: common knowledge tells them apart"
    return None


_QUADRENNIAL = re.compile(r"\bOlympi|\bWorld Cups?\b|\bParalympi|\bCommonwealth Games\b|\bFields Medal")  # the Fields Medal: every fourth year since 1950
_PRESIDENTIAL_ELECTION = re.compile(r"\bpresidential (?:election|nomination|campaign)", re.I)  # the United States': every fourth year
_OLYMPIC = re.compile(r"\bOlympi|\bParalympi")
_WINTER_GAMES = re.compile(r"\bWinter (?:Olympi|Paralympi|Games)")
# The years the Games were held: none in 1916, 1940 or 1944; the Winter Games moved to even non-leap years in 1994.
SUMMER_GAMES = frozenset(range(1896, 2100, 4)) - {1916, 1940, 1944}
WINTER_GAMES = frozenset([*range(1924, 1940, 4), *range(1948, 1993, 4), *range(1994, 2100, 4)])


def year_cycle(answer: Span, title: str = "") -> int:
    """The step the answer's year keeps: 4 for the Olympics, World Cups and Fields Medals (named in the sentence or
    in the title of its article: "the most recent was held in ___ in Paris" in "Summer Olympic
    Games"), for a presidential election in a leap year ("the unsuccessful candidate … in ___ presidential
    election": the United States' cycle; round 50's readers failed 1865, 1871 and 1881 beside 1872), or when
    the sentence's other years (two or more) are the answer's give or take whole multiples of four ("in ___,
    1932 and 1936"); otherwise 1. A year off the cycle is ruled out by it."""
    gold, others = int(answer.text), _other_years(answer)
    cyclic = len(others) >= 2 and all((other - gold) % 4 == 0 for other in others)
    election = _PRESIDENTIAL_ELECTION.search(answer.sentence) and gold % 4 == 0
    return 4 if cyclic or election or _QUADRENNIAL.search(answer.sentence) or _QUADRENNIAL.search(title) else 1


def games_held(answer: Span, title: str = "") -> frozenset[int]:
    """The years the Olympic (or Paralympic) Games the sentence or the title names were held, when
    the answer is one of them ("first included in the Winter Olympics in ___": not 1946); else none."""
    named = f"{answer.sentence} {title}"
    if not _OLYMPIC.search(named):
        return frozenset()
    years = WINTER_GAMES if _WINTER_GAMES.search(named) else SUMMER_GAMES
    return years if int(answer.text) in years else frozenset()


def _plausible_year(year: int, answer: Span, stats: CorpusStats, title: str) -> bool:
    """Near the answer, on its cycle (a year the Games were held, where they are named), not after
    the knowledge base's date, not ruled out by the sentence's other years ("from 1971 until his
    overthrow in ___": not 1965), within the decade the sentence names around it ("in the 1960s … the
    Civil Rights Act of ___": not 1956) and on the answer's side of the decades it names elsewhere
    ("escalated in the 1990s but decreased from ___ onward": not 1991)."""
    gold, held = int(answer.text), games_held(answer, title)
    if (year >= stats.latest_year or abs(year - gold) > YEAR_RANGE or (year - gold) % year_cycle(answer, title)
            or (held and year not in held)):
        return False
    decades = [int(d) * 10 for d in _DECADE.findall(answer.sentence)]
    return (all(_against(year, decade) == _against(gold, decade) for decade in decades)
            and on_the_answers_side(year, gold, _other_years(answer)))


def _against(year: int, decade: int) -> int:
    """-1 before the decade, 0 within it, 1 after it."""
    return -1 if year < decade else 0 if year < decade + 10 else 1


ROUND_YEAR = 50  # "between 1250 and 1500": a round year among exact ones (1249, 1266) stands out as an estimate
ESTIMATED_BEFORE = 1500  # a round year before it is mostly an estimate; after it, mostly exact ("gamma rays, discovered in 1900")


def round_alike(year: int, answer: int) -> bool:
    """Does the year not stand out by its roundness: beside a round answer of an era of estimates (a
    multiple of ROUND_YEAR before ESTIMATED_BEFORE), a multiple of ten?"""
    return answer % ROUND_YEAR != 0 or answer >= ESTIMATED_BEFORE or year % 10 == 0


def _other_years(answer: Span) -> set[int]:
    return {int(y) for y in YEAR_FORM.findall(answer.sentence)} - {int(answer.text)}


def on_the_answers_side(year: int, gold: int, bounds: Iterable[int]) -> bool:
    """Is the year on the gold's side of every bound (and none of them)?"""
    return all(year != bound and (year > bound) == (gold > bound) for bound in bounds if bound != gold)


def _nearby_values(answer: Span, rng: np.random.Generator, title: str = "") -> list[str]:
    """Made-up wrong years or quantities near the answer, offered beside the neighbours' own (same_form
    then keeps the plausible ones, and _same_kind draws three of the six nearest of all)."""
    if answer.kind == YEAR:
        value, step = int(answer.text), year_cycle(answer, title)
        if step > 1:  # every year of the cycle within MADE_UP_YEARS: 1900 and 1908 beside 1904's Games, not 1972
            offsets = np.arange(1, MADE_UP_YEARS // step + 1) * step
            return [str(value + int(o)) for o in (*offsets, *-offsets)]
        offsets = rng.permutation(np.arange(1, MADE_UP_YEARS + 1))[:12] * rng.choice([-1, 1], 12)
        return [str(value + int(o)) for o in offsets]
    number, unit = QUANTITY_FORM.match(answer.text).groups()
    value = float(number.replace(",", ""))
    factors = rng.permutation([0.6, 0.7, 0.8, 0.9, 1.15, 1.3, 1.45, 1.6])  # never half or double: they stand out
    decimals = len(number.partition(".")[2])
    values = [round(value * f, decimals) for f in factors]
    return [f"{v:,.{decimals}f} {unit}" if "," in number else f"{v:.{decimals}f} {unit}" for v in values if v > 0 and v != value]


@dataclass(frozen=True)
class Candidate:
    span: Span
    answer: str  # as the options write it (with its article when the blank takes one)
    distractors: list[str]  # most tempting first; years and quantities: the three chosen
    cloze: str
    score: float


Encode = Callable[[list[str]], np.ndarray]  # texts -> normalised embeddings
CONSIDERED = 5  # distractor candidates read in place, most tempting first
QUANTITY_SPREAD = 10  # how many times larger or smaller than the answer a quantity distractor may be
POOL_LIMIT = 24  # same-kind candidates compared with the answer: names its own article names, neighbours' spans (nearest documents first), then related titles


def lifespan(text: str) -> tuple[int, int] | None:
    """The span of life or existence a text's first bracket gives, when it holds two years and a
    dash ("Adolf Hitler (20 April 1889 – 30 April 1945) was …" -> (1889, 1945)), or None."""
    first = _FIRST_BRACKET.search(text)
    years = YEAR_FORM.findall(first.group(1)) if first else []
    if len(years) == 2 and re.search(r"[–-]", first.group(1)):
        return int(years[0]), int(years[1])
    return None


_SEA = re.compile(r"\bcoast(?:s|al|line|lines)?\b|\bmaritime\b|\bports?\b|\bnaval\b|\bseaboard\b|\bshores?\b"
                  r"|\b(?:sea|seas|ocean|gulf|bay|strait|archipelagos?|islands?)\b(?! level)|\bvoyage\b|\bsail(?:s|ed|ing)?\b"
                  r"|\bwaters off\b|\boffshore\b", re.IGNORECASE)
_WATER_TITLE = re.compile(r"\b(?:Sea|Ocean|Gulf|Bay|Lake|Loch|Lagoon)\b")  # an article about a body of water: "Caspian Sea", "Lake Victoria"
_LANDLOCKED = re.compile(r"\blandlocked\b", re.IGNORECASE)
_LAND = re.compile(r"\b(?:flows?|flowing|borders?|bordered|bordering|deserts?|mountains?|extends?|extending|spans?|spanning|"
                   r"inland|landlocked|rivers?|tributary|plateaus?|steppes?)\b", re.IGNORECASE)


def about_the_sea(sentence: str) -> bool:
    """Does the sentence put its places by the sea ("the coasts of present-day ___", "maritime borders
    … in the Persian Gulf", "a voyage to ___", "an archipelago in northern ___", "an island … part of ___",
    "the waters off ___")? Then a landlocked distractor is ruled out by a map."""
    return _SEA.search(sentence) is not None


def about_the_land(sentence: str) -> bool:
    """Does the sentence put its places on land and not by the sea ("a river which flows through India and ___", "a desert
    in northwestern ___", "bordered by India and Bangladesh to the northwest, ___ to the northeast")? Then an island state
    is ruled out by a map."""
    return _LAND.search(sentence) is not None and not about_the_sea(sentence)


def landlocked(lead: str | None) -> bool:
    """Does an article's first sentence say its subject is landlocked ("Serbia … is a landlocked country")?
    (Not a later one: South Africa's lead names landlocked Lesotho.)"""
    return lead is not None and _LANDLOCKED.search(first_sentence(lead)) is not None


def work_year(lead: str) -> int | None:
    """The year of a work its lead's first sentence gives ("Vertigo is a 1958 American film"), or None."""
    work = _WORK_YEAR.match(lead)
    return int(work.group(1)) if work else None


def bounding_years(title: str, text: str) -> set[int]:
    """Years that bound the subject: in its title ("Indian Rebellion of 1857", "Russo-Turkish War
    (1877–1878)"), its lifespan in the text's first bracket ("Adolf Hitler (20 April 1889 – 30 April
    1945)"), its death ("until his death in 1820") and a work's year in its first sentence ("Vertigo
    is a 1958 American film": the novel it is based on came before). The generator reads the paragraph
    and the lead of the subject's article: a later paragraph seldom repeats the lifespan."""
    bounds = {int(y) for y in YEAR_FORM.findall(title)} | {int(y) for y in _DEATH_YEAR.findall(text)}
    work = work_year(text)
    return bounds | set(lifespan(text) or ()) | ({work} if work else set())


_SENTENCE_BREAK = re.compile(r"(?<![A-Z])(?<!\bc)(?<!\bca)(?<!\bSt)(?<!\bNo)(?<!\bU\.S)\.\s+(?=[A-Z\"“(])")  # not "c. 1162", "H. W.", "U.S."


def first_sentence(text: str) -> str:
    """An article's first sentence, read past "c. 1162", initials and "U.S."."""
    return _SENTENCE_BREAK.split(text, maxsplit=1)[0]


_DAY_OR_WORD = r"(?:\D|\b\d{1,2}\b)"  # "from 20 June 1837": a day of the month is no year
_PERIOD_YEAR = r"(?<![\d,.])(\d{3,4})(?!\d|,\d|\s*(?:BCE?|B\.C\.)\b)"  # not "1,200", nor "753 BC"
_NOT_A_COUNT = r"(?!\s+(?:people|persons|inhabitants|residents|members|metres|meters|feet|km|kilometres|miles|tons|tonnes)\b)"
_FROM_TO = re.compile(rf"\bfrom\b{_DAY_OR_WORD}{{0,30}}?{_PERIOD_YEAR}{_DAY_OR_WORD}{{0,40}}?\b(?:to|until|till)\b"
                      rf"{_DAY_OR_WORD}{{0,40}}?{_PERIOD_YEAR}{_NOT_A_COUNT}"
                      rf"|\bbetween\b{_DAY_OR_WORD}{{0,30}}?{_PERIOD_YEAR}{_DAY_OR_WORD}{{0,12}}?\band\b"
                      rf"{_DAY_OR_WORD}{{0,30}}?{_PERIOD_YEAR}{_NOT_A_COUNT}", re.IGNORECASE)
PERIOD_SHORTEST = 4  # years: a shorter period ("written between 1599 and 1601") leaves too few years to offer
# The World Wars' leads in the knowledge base give no years; readers rule out a year outside them (round 51: 1933 for
# the Normandy landings in "Western Front (World War II)"; round 53: 1904 and 1913 in World War I's Western Front).
WAR_YEARS = {"World War I": (1914, 1918), "First World War": (1914, 1918), "World War II": (1939, 1945),
             "Second World War": (1939, 1945)}
_QUALIFIER = re.compile(r"\(([^()]+)\)")  # "Western Front (World War II)": the war its title names


def period_of(lead: str) -> tuple[int, int] | None:
    """The years a thing lasted, as its article's first sentence gives them: "ruled from 1368 to 1644",
    "the German state between 1933 and 1945", "president of the United States from 1989 to 1993",
    "Queen from 20 June 1837 until her death on 22 January 1901", "from its formation in 1922 until its
    dissolution in 1991", or a bracket with two years and a dash; from the first start to the last end
    where it names several ("president from 1848 to 1852 and emperor from 1852 until 1870")."""
    first = first_sentence(lead)
    spans = [years for found in _FROM_TO.finditer(first) if (years := [int(y) for y in found.groups() if y])[0] < years[1]]
    if not spans:
        return lifespan(first)
    return min(start for start, _ in spans), max(end for _, end in spans)


# The year each prize was first given and each body or thing a reader dates began: "the 1903 Nobel Prize" is no 1898
# (round 58), "a founding member of the United Nations in ___" no 1913, "Starting in January ___, the disease" of COVID-19
# no 2010 (round 60)
BEGAN = {"Nobel Prize": 1901, "Pulitzer Prize": 1917, "Academy Award": 1929, "Oscar": 1929, "Fields Medal": 1936,
         "Grammy": 1959, "Turing Award": 1966, "Booker Prize": 1969, "Prix Goncourt": 1903, "League of Nations": 1920,
         "United Nations": 1945, "NATO": 1949, "European Union": 1993, "Soviet Union": 1922, "COVID-19": 2019}


def began_bounds(answer: Span, title: str) -> set[int]:
    """The year before each prize, body or thing the sentence or title names began (BEGAN), when the answer is after
    it: a bound for on_the_answers_side. Not when the answer is that year ("NATO was established in ___"): every option
    after it would single it out as the earliest."""
    return {first - 1 for name, first in BEGAN.items() if name in f"{title} {answer.sentence}" and int(answer.text) > first}


def wars_named(text: str) -> list[tuple[int, int]]:
    """The years of each World War the text names as a whole name ("World War I" is no part of "World War II")."""
    return [years for war, years in WAR_YEARS.items() if re.search(rf"\b{re.escape(war)}\b", text)]


def a_world_wars_first_or_last_year(answer: Span, title: str) -> bool:
    """Is the year a World War's first or last, with that war named by the sentence or the title (its brackets too)?"""
    return any(int(answer.text) in years for years in wars_named(f"{answer.sentence} {title}"))


def period_bounds(answer: Span, title: str, lead: Callable[[str], str | None]) -> set[int]:
    """Bounds that keep year distractors inside each period the sentence names around a year that
    lies within it (by its article's first sentence, or WAR_YEARS; a name in the title's brackets too): "Coming of
    age during the Weimar Republic, he moved to Berlin in ___" (1918-1933),
    "the Medal of Freedom by President George W. Bush in ___" (2001-2009) — a year outside is ruled
    out by the sentence; and the paragraph's own subject, which the question names ("British Raj":
    no Olympic year after 1947 for one it won). Not a period the answer begins or ends ("ruled from
    960 to ___", "the dissolution of the Soviet Union in ___": either side is a fair guess), nor a name
    around the blank of one word ("David" is also a statue), nor a period shorter than
    PERIOD_SHORTEST years. As bounds for on_the_answers_side: the year before and the year after. And a year
    after the end of the paragraph's own subject is still after its start ("US forces were withdrawn in ___",
    2011, in the Iraq War's article: not 1998), unless the sentence itself gives that start ("from 1944 to ___")."""
    gold, own, bounds = int(answer.text), title_key(title), set()
    around = (name for name in names_around(answer) if _ONE_WORD.fullmatch(name) is None and title_key(name) != own)
    for name in [title, *_QUALIFIER.findall(title), *around]:
        period = period_of(lead(name) or "") or WAR_YEARS.get(name)
        if not period or period[1] - period[0] < PERIOD_SHORTEST:
            continue
        if period[0] < gold < period[1]:
            bounds |= {period[0] - 1, period[1] + 1}
        elif name == title and gold >= period[1] and str(period[0]) not in answer.sentence:
            bounds.add(period[0] - 1)
    return bounds


_SCIENCE = re.compile(r"\b(?:is|was) an? (?:[A-Z][\w-]*\s+)*([a-z]+) scientist\b")  # the definition's, not "a principal scientist"


def science_of(lead: str | None) -> str | None:
    """The science a person's article's definition names before "scientist" ("… was an American computer scientist" ->
    "computer"), or None: rounds 57 and 64's readers failed Barbara McClintock, a geneticist, beside computer
    scientists (Unix's and C's makers), whom "scientist" alone would not tell apart."""
    found = _SCIENCE.search(first_sentence(lead)) if lead else None
    return found.group(1) if found else None


def era_of(lead: str) -> tuple[int, int] | None:
    """When a person lived, or else when they held the office their article's first sentence dates (period_of)."""
    return lifespan(lead) or period_of(lead)


def years_spanned(sentence: str) -> tuple[int, int] | None:
    """The first and last year a sentence names ("In 1770, he married ___": 1770), or None: the era of a
    person asked about in it when their own article does not date them."""
    years = dates_named(sentence)
    return (min(years), max(years)) if years else None


ACTIVE_YEARS = (0.1, 0.9)  # the quantiles of the years a person's article names that date their life, a stray later poll aside
AROUND_DATED_WORK = 20  # years of a life either side of the years its article dates (a work, a prize): Marx's 1848 and Schopenhauer's 1818 meet


def years_active(paragraphs: Iterable[str]) -> tuple[int, int] | None:
    """When a person lived and worked, by the years their article names (its leads in this
    knowledge base drop the lifespan): the ACTIVE_YEARS quantiles of them widened by
    AROUND_DATED_WORK, or None when it names none."""
    years = sorted(year for text in paragraphs for year in dates_named(text))
    if not years:
        return None
    first, last = years[int(ACTIVE_YEARS[0] * (len(years) - 1))], years[int(ACTIVE_YEARS[1] * (len(years) - 1))]
    return first - AROUND_DATED_WORK, last + AROUND_DATED_WORK


LIFETIMES_APART = 30  # years between two people's lives beyond which one could not have met, taught or followed the other
ACTIVE_AFTER_A_WORK = 10  # years: a person whose dated life starts this long after a work's year was not in it


def in_the_works_time(answer: tuple[int, int] | None, other: tuple[int, int] | None, work: int | None) -> bool:
    """Could this person have taken part in a work of that year, as the answer did? Not Tom Hanks
    (his article's years from 2002, so active from 1982) in 1958's Vertigo beside James Stewart (from 1915),
    nor John Wayne (his article's years end in 1970, so active until 1990) in 1995's Toy Story. Unknown: yes."""
    if work is None or answer is None or other is None or answer[0] > work + ACTIVE_AFTER_A_WORK:
        return True
    return other[0] <= work + ACTIVE_AFTER_A_WORK and other[1] >= work


def contemporaries(answer: tuple[int, int] | None, other: tuple[int, int] | None) -> bool:
    """Could two people with these lifespans (either unknown: yes) be told apart only by knowing
    who did what? Not when their lives lie LIFETIMES_APART years apart or more: a reader rules out
    Nicolas Poussin (1594–1665) among those Hokusai (1760–1849) influenced."""
    if answer is None or other is None:
        return True
    return other[0] - answer[1] < LIFETIMES_APART and answer[0] - other[1] < LIFETIMES_APART


def _same_kind(span: Span, pool: list[Span], paragraph: str, stats: CorpusStats, rng: np.random.Generator,
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
        key = _norm(text)
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
        values += [v for v in _nearby_values(span, rng, title) if _norm(v) not in texts and _norm(v) not in paragraph
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


def _most_tempting(span: Span, names: list[str], vectors: dict[str, np.ndarray], context: np.ndarray | None = None,
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


def _with_article(span: Span, definite: dict[str, bool]) -> tuple[str, Callable[[str], str]]:
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


def _read_alike(candidate: Candidate, readings: list[Reading] | None) -> tuple[list[str] | None, str]:
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


Related = Callable[[Span], list[Span]]  # an answer -> titles of its type whose articles are nearest its own
Linked = Callable[[str, list[str]], list[int]]  # (answer, names) -> per name, how many of the two articles name the other


def _joins(char: str) -> bool:
    """Whether a character next to a name makes it part of a longer word (as regex \\w, or a hyphen)."""
    return char.isalnum() or char in "_-"


def names_in(text: str, name: str) -> bool:
    """Is the name written in the text as a whole name ("Niger" is not in "Nigeria")? (By search
    rather than a regex: the generator asks this of thousands of names, each a pattern to compile.)"""
    start = text.find(name)
    while start >= 0:
        end = start + len(name)
        if not (start and _joins(text[start - 1])) and not (end < len(text) and _joins(text[end])):
            return True
        start = text.find(name, start + 1)
    return False


_BORDERS = re.compile(r"\bborder(?:s|ed|ing)?\b|\bneighbou?r(?:s|ing)?\b|\badjacent\b|\btripoint\b|\btrijunction\b"
                      r"|\b(?:bounded|surrounded) by\b|\bcoast(?:s|line|lines)?\b|\bshores?\b|\bseparated from\b"
                      r"|\b(?:lies|lying|located|situated) between\b", re.IGNORECASE)


_CONTAINER_TYPES = frozenset("country state province region county territory".split())
_CONTAINER_AFTER = re.compile(r"^,\s*([A-Z][\w'’-]+(?: [A-Z][\w'’-]+)*)(?=\s*(?:[.;:)]|,(?!\s*(?:and|or)\b|\s*[A-Z])|$))")  # "Cairo, Illinois."


def another_place_of_its_name(span: Span, stats: CorpusStats) -> bool:
    """Does the sentence put the place answer in a place the knowledge base knows ("___, Illinois") that the answer's
    article does not put it in? Then the article found for the answer is another place of that name."""
    container = _CONTAINER_AFTER.match(span.sentence.partition(span.text)[2])
    if (span.kind != "place" or container is None or SAME_TYPE.get(stats.type_of(span.text), stats.type_of(span.text)) != "city"
            or stats.type_of(container.group(1)) not in _CONTAINER_TYPES | {None}):
        return False  # a city and its state or land ("Cairo, Illinois": Illinois has no article here), not a list of lands
    return bool(stats.where(span.text)) and not nested(span.text, container.group(1), stats)


def named_containers(name: str, span: Span, stats: CorpusStats) -> set[frozenset[str]]:
    """The places the name's article puts it in that the answer's sentence names ("a country in
    Central America", "___, Greece", "a North American league"). An option must lie in just those
    the answer lies in: a reader rules out one that does not lie there, and one that lies in a
    place the sentence names beside the answer (Guatemala for a range "from Central America to ___")
    is no wrong answer."""
    words = _words_beside(span.sentence, span.text)
    kind = stats.type_of(name)
    return {key for place in stats.where(name) if (key := _place_key(place)) and stats.type_of(place) != kind  # a neighbour, not a container
            and all(k in words if k in _COMPASS else any(w.startswith(k) for w in words) for k in key)}


@lru_cache(maxsize=64)  # the candidates of the paragraph at hand; the full dump has millions of sentences
def _words_beside(sentence: str, answer: str) -> frozenset[str]:
    """The sentence's words but the answer's, lower case: named_containers asks it once for the answer and each distractor."""
    return frozenset(w.lower() for w in _LETTERS.findall(sentence.replace(answer, " ")))


def forget_memos() -> None:
    """Forget this module's memos, as a new process would (a benchmark's second pass pays what a new process pays)."""
    for memo in (title_key, initials, _words_beside):
        memo.cache_clear()


def nested(place: str, other: str, stats: CorpusStats) -> bool:
    """Does either place's article put it in the other ("Rome … the capital of Italy")? Then a
    people of the one is a people of the other too: "a Roman" is no wrong answer beside "an Italian".
    Only places of different kinds: a country's definition names its neighbours ("Bhutan … between
    China and India"), not what holds it."""
    if stats.type_of(place) == stats.type_of(other):
        return False
    return (_place_key(place) in {_place_key(p) for p in stats.where(other)}
            or _place_key(other) in {_place_key(p) for p in stats.where(place)})


def about_borders(sentence: str) -> bool:
    """Does the sentence say what borders what ("bordered by Ecuador and ___", "lies between Norway
    and ___", "a coastline along ___")? Then a distractor
    that is nobody's neighbour there (Uruguay for Colombia's northwest) is ruled out by a map."""
    return _BORDERS.search(sentence) is not None


_DIRECTION = r"(?i:(?:north|south)[- ]?(?:east|west)|north|south|east|west)"
_DIRECTIONS = rf"{_DIRECTION}(?:(?:,\s*|\s+and\s+|\s+or\s+)(?:the\s+)?{_DIRECTION})*"
_NAME_HERE = r"(?:the\s+)?[A-Z][\w'’.-]*(?:\s+[A-Z][\w'’.-]*)*"
_JOIN = r"(?:,\s*(?:and\s+)?|\s+and\s+)"
_DIRECTION_AFTER = re.compile(rf"^(?:{_JOIN}{_NAME_HERE})*\s*(?:to|on|in) (?:the|its) ({_DIRECTIONS})\b")  # "___ and Armenia to the west"
_DIRECTION_BEFORE = re.compile(rf"\b(?:to|on) (?:the|its) ({_DIRECTIONS}),? by\s+(?:{_NAME_HERE}{_JOIN})*$")  # "to the south by ___"


def directions_given(span: Span) -> frozenset[str]:
    """The compass directions the sentence gives for the answer from its subject ("Myanmar and ___ to
    the northwest", "bordered to the south by ___"): geography.COMPASS_DEGREES' words."""
    before, _, after = span.sentence.partition(span.text)
    found = _DIRECTION_AFTER.match(after) or _DIRECTION_BEFORE.search(before)
    if found is None:
        return frozenset()
    return frozenset(re.sub(r"[- ]", "", word.lower()) for word in re.findall(_DIRECTION, found.group(1), re.I))


def keep_where(names: list[str], linked: Sequence[int], keep: Sequence[bool]) -> tuple[list[str], list[int]]:
    """The names `keep` marks, with their links (links_between)."""
    kept = [(name, links) for name, links, wanted in zip(names, linked, keep, strict=True) if wanted]
    return [name for name, _ in kept], [links for _, links in kept]


def neighbours_only(names: list[str], linked: Sequence[int]) -> tuple[list[str], list[int]]:
    """The names linked to the answer by their articles (links_between), with their links."""
    return keep_where(names, linked, [bool(links) for links in linked])


def links_between(answer: str, names: list[str], leads: Callable[[str], str | None]) -> list[int]:
    """Per name, how many of the two articles' leads (`leads`: a name -> its article's lead, or
    None) name the other: 2 when Spain's names Portugal and Portugal's names Spain."""
    home = leads(answer)
    counts = []
    for name in names:
        own = leads(name)
        counts.append(int(home is not None and names_in(home, name)) + int(own is not None and names_in(own, answer)))
    return counts


# placed_alike at least: a place must share a region and its name ("East Asia"), not only a continent's stem ("America"); a
# people's land only a continent ("a French composer" tempts beside "German", "Chinese" does not)
PLACED_CLOSE = {"group": 1, "place": 2}


def near_on_a_map(land: str, names: list[str], place: Callable[[str], str | None], linked: Linked,
                  stats: CorpusStats, close: int) -> tuple[list[str], list[int]]:
    """The names a reader could not rule out by a map, with their links (links_between): those
    whose place (`place`: a place's own name, a people's land) and the answer's `land` name each
    other in their articles, or that the knowledge base's definitions place alike (`close`: placed_alike at least)
    (Canada and Mexico for the United States, Hunan and Hubei for Guangdong; not Peru, nor
    "Chinese" for a Canadian province)."""
    placed = [(name, other) for name in names if (other := place(name)) and not nested(land, other, stats)]
    links, home = linked(land, [other for _, other in placed]), stats.where(land)
    kept = [(name, count) for (name, other), count in zip(placed, links, strict=True)
            if count or placed_alike(home, stats.where(other)) >= close]
    return [name for name, _ in kept], [count for _, count in kept]


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


def dated_only_before(year: int, lead: str | None, active: tuple[int, int] | None) -> bool:
    """Does the subject's article date it only before `year`: its first sentence ("Boudica … in AD 60 or 61")
    or, where that names no year, the years the article names (years_active: Hipparchus's lead in the knowledge
    base drops "(c. 190 – c. 120 BC)"; his article's years, widened, run from 147 to 107 BC)?"""
    years = dates_named(first_sentence(lead or "")) or (list(active) if active else [])
    return bool(years) and max(years) < year


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
            and not _TODAY.search(span.sentence)):
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
    paragraph, bounds = _norm(text), frozenset(bounding_years(title, text)) | setting.subject_bounds
    pools, dropped, seen, spans_seen, nearby = [], [], set(), [], None
    spans = finder.spans(para_id, text)
    people = [span.text for span in spans if span.kind == "person"]
    for span in spans:
        key = _norm(span.text)
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
        pool = [name for name in _same_kind(span, [*named, *nearby, *related], paragraph, finder.stats, rng, years_within, title)
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
        blanked, written = _with_article(span, definite)
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
        distractors, closeness = _most_tempting(span, pool, vectors, context, articles, finder.stats, linked)
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
        distractors, problem = _read_alike(candidate, readings.get(i))
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
