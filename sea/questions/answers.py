"""Whether a span is worth asking about, before any distractor is sought: refused when the title or the
rest of the sentence gives it away (in any form: "Scottish" for "Scotland"), when it could be computed
from the sentence (a unit conversion, an anniversary's year), when it is only the date of a statistic
or a cited source, when it or its sentence is broken, or when no article says what it is."""

from __future__ import annotations

import re
from functools import lru_cache

from sea.questions import geography
from sea.questions.entities import BLANK, QUANTITY, QUANTITY_FORM, YEAR, YEAR_FORM, Span, without_article, without_the
from sea.questions.kinds import (
    COMPASS_WORDS,
    CONTAINS,
    GIVEN_PREFIX,
    HEAD_WORDS,
    OTHER_FORMS,
    OTHER_WHOLE_FORMS,
    WORD_LETTERS,
    CorpusStats,
    balanced,
    content_words,
    cut_off,
    kind_problem,
    name_words,
    names_around,
    needs_a_type,
    title_key,
)
from sea.questions.places import about_borders, another_place_of_its_name, place_key
from sea.questions.validation import INSTRUCTION_LIKE, instruction_like
from sea.questions.years import a_world_wars_first_or_last_year, centuries_named, dates_named

STATISTIC_AFTER = 12  # words after a year read for a statistic it dates

BROKEN_MARKS = re.compile(r"[\"“”„«»()\[\]{}]")

_ANNIVERSARY = re.compile(r"\b\d+(?:st|nd|rd|th)\s+(?:anniversary|birthday|centenary)|\b(?:centenary|centennial|bicentenary|bicentennial)\b", re.I)
_ANNIVERSARY_AFTER = re.compile(r"\b\d+(?:st|nd|rd|th)\s+anniversary\b", re.I)  # "in ___ on the 40th anniversary of Apollo 11"
_YEARS_SPANNED = re.compile(r"\b(?:\d+|a|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)[- ](?:years?|seasons?)\b(?![- ]old)",
                            re.I)  # "spanned 75 years, from ___ to 1987", "executed two years later in 1946", "20 seasons … from ___ to 1999": arithmetic

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

_EPITHET_BEFORE = re.compile(r"\S\s+[A-Z][a-z]+ the\s*$")  # "son of Louis the ___": a people's word in a name
# "the ___ subcontinent", "___ and Indian War", "the ___ Revolution": a people's word in a land's or an event's fixed name
_NAMED_LAND_AFTER = re.compile(r"^\s*(?:subcontinent|peninsula)\b|^\s*(?:and [A-Z]\w+ )?(?:Wars?|Revolution)\b", re.I)
_NAME_GIVEN_BEFORE = re.compile(r"\b(?:given|took|taking|adopted|received) the name\s*$|\brenamed\s*$", re.I)  # "Jacob, later given the name ___"
_ALIAS_AFTER = re.compile(r"^\s*\((?:now |formerly |modern |today |present-day )?[A-Z][\w'’-]*(?:[ -][A-Z][\w'’-]*)*\)")  # "___ (Persia)"
_OFFICIALLY_BEFORE = re.compile(r"\b(?:officially|formally)\s+(?:the\s+)?$", re.I)  # "Heidelberg University, officially ___ of Heidelberg": a name's form
_AS_OF = re.compile(r"\bas of(?: the)?(?: \d{1,2})?(?: (?:january|february|march|april|may|june|july|august|september|october|"
                    r"november|december))?(?: \d{1,2},?)?\s*$", re.I)  # "as of May ___": the date of a ranking or a count

# "60 mm (2.4 in)", "12 metres [39 feet]": the second is arithmetic ("[12]" is a citation)
_CONVERSION = re.compile(r"^\s*(?:\(|\[(?=[^\]]*[A-Za-z]))\s*(about|approx\.?|c\.|ca\.|~)?\s*\d")
# "5,280 English feet, or ___", "1 billion km per hour; ___"; "___, or 5,280 feet"
_OR_CONVERSION = (re.compile(r"\d\s*(?:(?:[A-Z][a-z]+|thousand|million|billion|trillion)\s+)?([^\W\d_][\w.]*)(?:\s+per\s+\w+)?(?:,?\s+or|;)\s*$"),
                  re.compile(r"^,?\s+or\s+(?:about\s+|approximately\s+)?\d[\d,.]*\s*([^\W\d_][\w.]*)"))

# "886,040 inhabitants in ___", "as of ___", "the ___ census": the date of a statistic, not a fact worth knowing.
_STATISTIC_WORDS = frozenset("inhabitants population residents census censuses estimate estimated estimates million billion speakers gdp "
                              "ranked ranking rankings".split())
_LARGE_NUMBER = re.compile(r"^\d{1,3}(,\d{3})+")
# "in Florence, ___": the place before the comma names the one in the blank.
_PLACE_THEN_ITS_COUNTRY = re.compile(r"\b(in|at|of|near) [A-Z][\w.'’-]+(?: [A-Z][\w.'’-]+)*,\s*$")
# "the pharaohs of ancient ___", "the culture of ancient Greece and ___": which civilisation, not which country or city
_ANCIENT_BEFORE = re.compile(r"\bancient\s+(?:[A-Z][\w'-]+,?\s+(?:and|or)\s+)?$"
                             r"|\bancient\b[^.;]*\b(?:Greece|Rome|Egypt|Mesopotamia|Persia),?\s+(?:and|or)\s+$", re.I)  # round 63

# "in Nazi ___", "of British ___": a capitalised word before the blank, not the sentence's first nor a possessive
_NAME_WORD_BEFORE = re.compile(r"\S\s+[A-Z][\w.]*\s*$")

_INDEFINITE = re.compile(r"\b[Aa]n? ")


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


# The default knowledge base's longest sentence is 809 characters: a longer one is a paragraph cut
# mid-phrase at kb.max_paragraph_chars with no sentence end, which a question would quote whole.
MAX_SENTENCE_CHARS = 1000


def answer_problem(span: Span, title: str) -> str | None:
    """Why this span would not make a fair question, or None."""
    if BROKEN_MARKS.search(span.text) or not balanced(span.sentence):
        return "a broken span or sentence (unbalanced quotes or brackets)"
    if span.kind != QUANTITY and cut_off(span.text):  # "2.4 in" is a unit, not a cut
        return "a span cut off mid-phrase (\"Gulf of\")"
    if "\n" in span.sentence:
        return "a list or a run of lines, not a sentence"
    if len(span.sentence) > MAX_SENTENCE_CHARS:
        return f"a sentence over {MAX_SENTENCE_CHARS:,} characters (a paragraph with no sentence end): too long to ask"
    if "___" in span.sentence:
        return "a sentence with a blank of its own (\"written as ___\"): the question's blank would not be the only one"
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


def placed_by_the_question(span: Span, title: str, stats: CorpusStats) -> str | None:
    """Another name in the sentence that the knowledge base places in the answer: "the Tang
    dynasty" (an imperial dynasty of China) gives away China, "Punjab" India or Pakistan, "Yunnan" (a province in
    Southwestern China) China, whatever the question is about. Not a name the answer's own article places it with in turn (neighbours
    name each other: Zambia and Zimbabwe), nor the title: where its subject lies is the fact asked."""
    answer = place_key(span.text)
    if not answer:
        return None
    own, answer_with = title_key(title), {place_key(place) for place in stats.where(span.text)}
    for name in names_around(span):
        if (title_key(name) != own and place_key(name) not in answer_with
                and any(place_key(place) - COMPASS_WORDS == answer for place in stats.where(name))):  # "Southwestern China": China
            return f"\"{name}\" in the question lies in the answer, by its article: it gives the answer away"
    return None


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
    other, abbreviation = OTHER_WHOLE_FORMS.get(whole), initials(without_article(answer))
    if (other and re.search(rf"\b{other}s?\b", text, re.I)) or (abbreviation and abbreviation.search(text)):
        return True
    words = {w.lower() for w in WORD_LETTERS.findall(text)}
    if (CONTAINS.get(whole, set()) | _OWN_WORDS.get(whole, set())) & words:
        return True
    for name in WORD_LETTERS.findall(answer):
        if name[0].isupper() and len(name) >= GIVEN_PREFIX and name.lower() not in HEAD_WORDS:
            stem = name[:max(GIVEN_PREFIX, (len(name) + 1) // 2)].lower()
            if any(w.startswith(stem) for w in words) or OTHER_FORMS.get(name.lower()) in words | {w.removesuffix("s") for w in words}:  # "Swiss" ends in s
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


TODAY_WORDS = re.compile(r"\b(?<!-)(?:modern|modern-day|present-day|present day|what is now|today|national hero)\b", re.I)  # today's states are meant
STATES_AS_TODAY = 1992  # the knowledge base's definitions describe today's countries, whose set settled when the Soviet Union and Yugoslavia broke up

# "ancient Egypt, ___, and Mesopotamia", "a spy in pre-modern ___"; not "an ancient city in ___", which is on today's map
_OF_ANTIQUITY = re.compile(r"\b(?:ancient|pre-?modern|medieval|feudal)\b(?! (?:city|town|village|port|site|ruins?|settlement)\b)"
                           r"|\bmillenni(?:um|a) BCE?\b|\bprehistor", re.I)

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
                                                       and not TODAY_WORDS.search(text))


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
