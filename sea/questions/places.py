"""Where a sentence sets a place, for the offline cloze generator: by the sea or on land, among
borders or in a direction, inside a container it names ("Henan Province" in China), and which
countries lie near each other by the knowledge base's links and GeoNames (sea.questions.geography)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import lru_cache

from sea.questions import geography
from sea.questions.entities import BLANK, Span, without_the
from sea.questions.kinds import (
    COMPASS_WORDS,
    GIVEN_PREFIX,
    KIND_WORDS,
    SAME_TYPE,
    WORD_LETTERS,
    CorpusStats,
    first_sentence,
    placed_alike,
)

# "Its capital and largest city is ___", "___ is the provincial capital": the blank is a capital, of what the sentence says
_CAPITAL_BESIDE = re.compile(rf"\bcapital\b(?:\s+[^\s,;.]+){{0,6}}?,?\s+{re.escape(BLANK)}|{re.escape(BLANK)}\s+(?:is|was|became)\s+(?:\w+\s+){{0,3}}capital\b",
                             re.I)

_EMBASSY_IN = re.compile(r"\bembass(?:y|ies)\s+in\s*$", re.I)  # "the German Embassy in ___": a capital (round 63)


def place_key(name: str) -> frozenset[str]:
    """A place's name as its words' first letters, compass words whole ("Indian" and "India" meet,
    "South Africa" and "Southern Africa" do not)."""
    words = [w.lower() for w in without_the(name).split()]
    telling = [w if w in COMPASS_WORDS else w[:GIVEN_PREFIX] for w in words if w not in KIND_WORDS]
    return frozenset(telling or ([" ".join(words)] if words else []))


def a_regions_capital(span: Span) -> bool:
    """Is the blank a capital ("Its capital and largest city is ___") that is no country's (Kunming, Munich)? Then a
    country's capital beside it (Beijing for Yunnan's, Berlin for Bavaria's) is ruled out by what every reader knows."""
    return (bool(_CAPITAL_BESIDE.search(span.sentence.replace(span.text, BLANK, 1))) and not geography.national_capital(span.text)
            and geography.country_code(span.text) is None)


def an_embassys_city(span: Span) -> bool:
    """Is the blank the city of an embassy ("to the German Embassy in ___")? Then a city that is no country's capital
    beside it (Toulouse, Marseille, Lyon beside Paris) is ruled out by what every reader knows."""
    return bool(_EMBASSY_IN.search(span.sentence.partition(span.text)[0]))


_SEA = re.compile(r"\bcoast(?:s|al|line|lines)?\b|\bmaritime\b|\bports?\b|\bnaval\b|\bseaboard\b|\bshores?\b"
                  r"|\b(?:sea|seas|ocean|gulf|bay|strait|archipelagos?|islands?)\b(?! level)|\bvoyage\b|\bsail(?:s|ed|ing)?\b"
                  r"|\bwaters off\b|\boffshore\b", re.IGNORECASE)

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
    words = words_beside(span.sentence, span.text)
    kind = stats.type_of(name)
    return {key for place in stats.where(name) if (key := place_key(place)) and stats.type_of(place) != kind  # a neighbour, not a container
            and all(k in words if k in COMPASS_WORDS else any(w.startswith(k) for w in words) for k in key)}


@lru_cache(maxsize=64)  # the candidates of the paragraph at hand; the full dump has millions of sentences
def words_beside(sentence: str, answer: str) -> frozenset[str]:
    """The sentence's words but the answer's, lower case: named_containers asks it once for the answer and each distractor."""
    return frozenset(w.lower() for w in WORD_LETTERS.findall(sentence.replace(answer, " ")))


def nested(place: str, other: str, stats: CorpusStats) -> bool:
    """Does either place's article put it in the other ("Rome … the capital of Italy")? Then a
    people of the one is a people of the other too: "a Roman" is no wrong answer beside "an Italian".
    Only places of different kinds: a country's definition names its neighbours ("Bhutan … between
    China and India"), not what holds it."""
    if stats.type_of(place) == stats.type_of(other):
        return False
    return (place_key(place) in {place_key(p) for p in stats.where(other)}
            or place_key(other) in {place_key(p) for p in stats.where(place)})


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
