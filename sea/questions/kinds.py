"""What the knowledge base says a name is, for the offline cloze generator (sea.questions.cloze): the type
noun an article's first sentence defines its subject as ("Sudan is a country …" -> "country") and the
places it sets it among, kept per title (Definitions); the kind a name states itself ("Guaire River");
the kinds of groups (religions, a region's people, political camps, nations); and corpus-wide facts read
once from the knowledge base (CorpusStats). With the few text helpers every rule reads names by."""

from __future__ import annotations

import os
import re
import sqlite3
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from functools import cached_property, lru_cache

import numpy as np

from sea.memo import remembered
from sea.questions import geography
from sea.questions.entities import QUANTITY, YEAR, YEAR_FORM, Span, without_article, without_the

_WORD = re.compile(r"[a-z0-9]+")
WORD_LETTERS = re.compile(r"[^\W\d_]+")
GIVEN_PREFIX = 4  # letters a name shares with another word before that word gives it away

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

_DANGLING = frozenset("of by and the in for to or a an with from at on".split())  # "Gulf of", "… Aksum by": cut spans


def normalised(text: str) -> str:
    return " ".join(text.lower().split())


def content_words(text: str) -> set[str]:
    """The text's words that carry meaning, crudely singular ("adults" and "adult" are one word here)."""
    from spacy.lang.en.stop_words import STOP_WORDS

    return {w[:-1] if w.endswith("s") and len(w) > 3 else w for w in _WORD.findall(text.lower())
            if len(w) >= 3 and w not in STOP_WORDS}


HEAD_WORDS = frozenset(w[:-1] if w.endswith("s") and len(w) > 3 else w for w in NAME_HEADS)  # as content_words writes them


def name_words(text: str) -> set[str]:
    """The content words that tell a name from others of its kind: "black" in "Black Sea", not "sea"."""
    words = content_words(text)
    return words - HEAD_WORDS or words


def same_name(a: str, b: str) -> bool:
    """Could the two name one thing, or one contain the other ("Amazon" and "Amazon River", "Africa" and
    "North Africa")? They share a telling word; "Black Sea" and "Red Sea" share only the kind."""
    return bool(name_words(a) & name_words(b))


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
    own = {w.lower() for w in WORD_LETTERS.findall(name)}
    return frozenset(n for n in _PROPER_NAME.findall(match.group(1)) if not {w.lower() for w in WORD_LETTERS.findall(n)} <= own)


_PLACE_WORD = re.compile(r"[^\s|-]+")
COMPASS_WORDS = frozenset("""north northern northeast northeastern northwest northwestern south southern southeast southeastern
southwest southwestern east eastern west western central middle upper lower greater""".split())
KIND_WORDS = NAME_HEADS | frozenset("of the united democratic federal people's state states world earth great".split())


def _places(names: frozenset[str]) -> set[str]:
    """What tells each name's place, by its first letters ("India" and "Indian" meet): its telling
    words ("Northeast Africa" -> "afri"), or the whole name when it has only kind words ("United Kingdom")."""
    keys = set()
    for name in names:
        words = [w.lower() for w in name.split() if w.lower() not in COMPASS_WORDS]
        telling = [w[:GIVEN_PREFIX] for w in words if w not in KIND_WORDS]
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
    return normalised(without_the(title.split(" (")[0]))


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


_NAME_TOKEN = re.compile(r"[\w'’-]+")
NAME_WORDS = 4  # words in the longest name looked up around a blank ("Spring and Autumn period")

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


_IRREGULAR_FORMS = [("france", "french"), ("spain", "spanish"), ("rome", "roman"), ("netherlands", "dutch"), ("wales", "welsh"),
                    ("denmark", "danish"), ("finland", "finnish"), ("poland", "polish"), ("switzerland", "swiss"),
                    ("ireland", "irish"), ("philippines", "filipino"), ("madagascar", "malagasy"), ("greece", "greek"),
                    ("norway", "norwegian"), ("portugal", "portuguese"), ("scotland", "scottish"), ("england", "english")]
OTHER_FORMS = {a: b for pair in _IRREGULAR_FORMS for a, b in (pair, pair[::-1])}  # the place and its people's word, both ways
_WHOLE_NAME_FORMS = [("united states", "american"), ("united kingdom", "british")]  # names whose words say nothing alone
OTHER_WHOLE_FORMS = {a: b for pair in _WHOLE_NAME_FORMS for a, b in (pair, pair[::-1])}

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
    return (len(words) == 2 and words[0] in COMPASS_WORDS and words[1] in _CONTINENTS
            and geography.country_code(name) is None)


def stem_kind(span: Span, stats: CorpusStats) -> str | None:
    """The kind a question may name ("Which river …"): a year or a quantity, told by its form, or
    the type every option shares; None for groups ("a Dutch" is no "Which nation"): a neutral stem."""
    if span.kind in (YEAR, QUANTITY):
        return span.kind
    return None if span.kind == "group" else stats.type_of(span.text)


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
    other = OTHER_FORMS.get(people) or OTHER_WHOLE_FORMS.get(people)
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


_SENTENCE_BREAK = re.compile(r"(?<![A-Z])(?<!\bc)(?<!\bca)(?<!\bSt)(?<!\bNo)(?<!\bU\.S)\.\s+(?=[A-Z\"“(])")  # not "c. 1162", "H. W.", "U.S."


def first_sentence(text: str) -> str:
    """An article's first sentence, read past "c. 1162", initials and "U.S."."""
    return _SENTENCE_BREAK.split(text, maxsplit=1)[0]
