"""Years and periods for the offline cloze generator: which years may stand beside a year answer
(within the paragraph's own dates, on the answer's four-year cycle, Olympic Games only when held,
round where the answer is round), the years a person, a work, a war or a period spans, and whether
two lives or a life and a work overlap."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

import numpy as np

from sea.questions.entities import QUANTITY_FORM, YEAR, YEAR_FORM, Span
from sea.questions.kinds import CorpusStats, first_sentence, names_around, title_key

_FIRST_BRACKET = re.compile(r"\(([^()]*)\)")
_WORK_YEAR = re.compile(r"[^.]*?\b(?:is|was) an? (1[0-9]{3}|20[0-9]{2}) [A-Za-z]")  # "Vertigo is a 1958 American film"

_DEATH_YEAR = re.compile(r"\b(?:until (?:his|her) (?:death|suicide|assassination|execution) in"
                         r"|(?:[Hh]e|[Ss]he) (?:died|was killed|was executed|was assassinated) in) (\d{4})\b")

_DECADE = re.compile(r"\b(1[0-9]{2}|20[0-9])0s\b")  # "in the 1960s"

YEAR_RANGE = 100  # distractor years within this many years of the answer
MADE_UP_YEARS = 29  # made-up distractor years within this many years of the answer

_ONE_WORD = re.compile(r"[\w'’]+")  # "David", not "Austria-Hungary" or "Weimar Republic"

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


def centuries_named(text: str) -> list[int]:
    """The first year of each century a text names in figures or words ("13th-century" -> 1200, "the eighteenth century" -> 1700)."""
    return [100 * ((_ORDINALS.index(c.lower()) + 1 if c.isalpha() else int(c[:-2])) - 1) for c in _CENTURY.findall(text)]


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


def plausible_year(year: int, answer: Span, stats: CorpusStats, title: str) -> bool:
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


def nearby_values(answer: Span, rng: np.random.Generator, title: str = "") -> list[str]:
    """Made-up wrong years or quantities near the answer, offered beside the neighbours' own (same_form
    then keeps the plausible ones, and same_kind draws three of the six nearest of all)."""
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


def lifespan(text: str) -> tuple[int, int] | None:
    """The span of life or existence a text's first bracket gives, when it holds two years and a
    dash ("Adolf Hitler (20 April 1889 – 30 April 1945) was …" -> (1889, 1945)), or None."""
    first = _FIRST_BRACKET.search(text)
    years = YEAR_FORM.findall(first.group(1)) if first else []
    if len(years) == 2 and re.search(r"[–-]", first.group(1)):
        return int(years[0]), int(years[1])
    return None


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


def dated_only_before(year: int, lead: str | None, active: tuple[int, int] | None) -> bool:
    """Does the subject's article date it only before `year`: its first sentence ("Boudica … in AD 60 or 61")
    or, where that names no year, the years the article names (years_active: Hipparchus's lead in the knowledge
    base drops "(c. 190 – c. 120 BC)"; his article's years, widened, run from 147 to 107 BC)?"""
    years = dates_named(first_sentence(lead or "")) or (list(active) if active else [])
    return bool(years) and max(years) < year
