import numpy as np

from sea.questions import geography
from sea.questions.cloze import Setting, cloze_drafts
from sea.questions.entities import EntityFinder
from sea.questions.kinds import CorpusStats

SOUTH_AMERICA = ("Uruguay", "Brazil", "Argentina", "Venezuela", "Colombia", "Ecuador", "Chile", "Bolivia", "Peru")
ELSEWHERE = ("Spain", "Poland", "Italy", "Norway", "Greece")  # enough countries for a kind worth asking about


def test_country_names_and_the_knowledge_bases_aliases():
    assert geography.country_code("the Netherlands") == geography.country_code("Netherlands") == "NL"
    assert geography.country_code("Czech Republic") == "CZ" and geography.country_code("Timor-Leste") == "TL"
    assert geography.country_code("Amazon River") is None and geography.country_code("Europe") is None


def test_the_countries_a_sentence_names_are_whole_names_and_the_longest():
    assert geography.countries_named("It flows through South Sudan and Uganda.") == {"SS", "UG"}  # not also Sudan
    assert geography.countries_named("It is spoken in North India and Pakistan.") == {"IN", "PK"}
    assert geography.countries_named("Benin City is the capital of Edo State, southern Nigeria.") == {"NG"}  # a name's start is no country
    assert geography.countries_named("Guinea-Bissau borders Senegal.") == {"GW", "SN"}  # not Guinea
    assert geography.countries_named("It lives on New Guinea, in Indonesia and Papua New Guinea.") == {"ID", "PG"}  # not Guinea
    assert geography.countries_named("It runs from New Mexico into Mexico.") == {"MX"} and not geography.countries_named("in New Mexico")


def test_what_a_country_answer_is_set_among():
    sentence = "Uruguay is bordered by Argentina to its west and Brazil to its north."
    assert geography.among("Brazil", sentence, "Uruguay", about_borders=True) == {"UY"}  # the subject's neighbours are the rivals
    assert geography.among("Brazil", sentence, "Tango", about_borders=True) == {"AR", "UY"}  # no country's article: the sentence's
    assert geography.among("Russia", "The Irtysh is a river in Russia, China, and Kazakhstan.", "Irtysh", False) == {"CN", "KZ"}
    assert geography.among("the Amazon", sentence, "Uruguay", about_borders=True) == frozenset()  # no country
    assert geography.among("Niger", "The river flows through Mali, Niger and Nigeria.", "Niger River", False) == {"ML", "NG"}


def test_distances_between_countries_are_between_their_nearest_towns():
    assert geography.distance_km("UY", "AR") < 50 and geography.distance_km("UY", "BR") < 50  # neighbours
    assert 200 < geography.distance_km("UY", "PY") < 600
    assert geography.distance_km("UY", "VE") > 3000 and geography.distance_km("KZ", "VN") > 3000
    assert geography.distance_km("UY", "XX") == float("inf")


def test_a_distractor_must_lie_about_as_near_as_the_answer():
    names = ["Venezuela", "Colombia", "Paraguay", "Chile", "Atlantis"]
    assert geography.within_reach("Brazil", names, frozenset({"UY"})) == [False, False, True, True, False]
    # The answer far from the countries named ("Germany" beside the United States): as far is no give-away.
    assert geography.within_reach("Germany", ["Poland", "Luxembourg"], frozenset({"US"})) == [True, True]
    assert geography.within_reach("Atlantis", names, frozenset({"UY"})) is None  # an answer not on the map: no rule


def _countries_finder(countries: tuple[str, ...]) -> EntityFinder:
    """A finder whose knowledge base defines these countries in South America and ELSEWHERE's in Europe."""
    return EntityFinder(CorpusStats([f"The region held event {i} in 1990." for i in range(100)], latest_year=2024,
                                    definitions=[*[(i, name, f"{name} is a country in South America.") for i, name in enumerate(countries)],
                                                 *[(20 + i, name, f"{name} is a country in Europe.") for i, name in enumerate(ELSEWHERE)]]))


def _options(finder: EntityFinder, para_id: int, title: str, text: str, pool_ids: tuple[int, ...], tempting: dict, answer: str,
             n: int = 2) -> list[set[str]]:
    """The options of the drafts whose answer is `answer`, every name linked to it and `tempting` its vectors."""
    pool = [finder.stats.as_span(doc_id, "place") for doc_id in pool_ids]
    encode = lambda texts: np.array([tempting.get(t, [1.0, 0.0] if "_" in t else [0.6, 0.8]) for t in texts])  # noqa: E731
    made, _ = cloze_drafts(para_id, title, text, list, finder, encode, n=n, variants=1, seed=0,
                           setting=Setting(related=lambda span: pool, linked=lambda answer, names: [2] * len(names)))
    return [set(draft.options) for draft, _ in made if draft.answer == answer]


def test_a_country_in_a_sentence_about_its_borders_takes_no_distractor_far_away():
    finder = _countries_finder(SOUTH_AMERICA)
    text = "Uruguay is bordered by Argentina to its west and Brazil to its north."
    tempting = {"Brazil": [1.0, 0.0], "Venezuela": [0.8, 0.6], "Colombia": [0.8, 0.6], "Ecuador": [0.8, 0.6]}  # the far ones tempt most

    def options(title):  # from Venezuela, Colombia, Ecuador, Chile, Bolivia, Peru
        return _options(finder, 1, title, text, tuple(range(3, 9)), tempting, "Brazil")
    # Chile and Bolivia lie 1,100-1,200 km from Uruguay, Peru 1,960 km (within FAR_KM), the others 3,700-4,000 km.
    assert options("Uruguay") == [{"Brazil", "Chile", "Bolivia", "Peru"}]
    assert options("Tango") == [{"Brazil", "Chile", "Bolivia", "Peru"}]  # set beside Argentina and Uruguay, no country's own article
    assert geography.among("Brazil", text, "Tango", about_borders=True) == {"AR", "UY"}


def test_no_distractor_borders_the_country_whose_borders_the_sentence_gives():
    """Round 33: Palestine beside Egypt for Israel's southwest, when it borders Israel too."""
    assert geography.land_neighbours("Bolivia") == {"BR", "PY", "AR", "CL", "PE"} and geography.land_neighbours("Tango") == set()
    finder = _countries_finder((*SOUTH_AMERICA, "Paraguay"))
    text = "Bolivia is bordered by Brazil to the north and east, Paraguay to the southeast and Argentina to the south."
    tempting = {"Brazil": [1.0, 0.0], "Chile": [0.8, 0.6], "Peru": [0.8, 0.6]}  # Bolivia's other neighbours tempt most

    def options(title):  # from Uruguay, Colombia, Ecuador, Chile, Peru
        return _options(finder, 2, title, text, (0, 4, 5, 6, 8), tempting, "Brazil", n=3)
    assert options("Bolivia") == [{"Brazil", "Uruguay", "Colombia", "Ecuador"}]
    assert options("Tango") and {"Chile", "Peru"} <= options("Tango")[0]  # no country's own borders: the most tempting stay


def test_a_country_far_larger_or_smaller_than_the_answer_is_no_distractor():
    """Rounds 13-34: Luxembourg beside France, Bhutan beside India, San Marino beside Italy stand out by their size."""
    assert 140 < geography.times_apart("France", "Luxembourg") == geography.times_apart("Luxembourg", "France") < 170
    assert geography.times_apart("France", "Belgium") < 20 and geography.times_apart("France", "Atlantis") is None
    assert geography.alike_in_size("Italy", ["San Marino", "Austria", "Atlantis"]) == [False, True, True]  # Atlantis: cannot tell
    assert geography.times_apart("Italy", "Vatican City") > 10_000  # GeoNames gives the Vatican no area: its population alone
    europe = ("France", "Luxembourg", "Belgium", "Spain", "Italy", "Germany", "Poland", "Norway", "Greece", "Austria")
    finder = EntityFinder(CorpusStats([f"The region held event {i} in 1990." for i in range(100)], latest_year=2024,
                                      definitions=[(i, name, f"{name} is a country in Western Europe.") for i, name in enumerate(europe)]))
    text = "Grotius wrote most of his major works in exile in France."
    tempting = {"France": [1.0, 0.0], "Luxembourg": [0.8, 0.6]}  # the smallest tempts most
    options = _options(finder, 3, "Hugo Grotius", text, (1, 2, 3, 4), tempting, "France", n=1)  # Luxembourg, Belgium, Spain, Italy
    assert options == [{"France", "Belgium", "Spain", "Italy"}]


def test_an_island_state_is_no_distractor_for_a_country_on_land_in_a_sentence_about_land():
    """Rounds 24-62: Sri Lanka for a river flowing through India and ___, Japan for a desert in northwestern ___."""
    assert geography.on_land("India", ["Sri Lanka", "Nepal", "Atlantis"]) == [False, True, True]  # Atlantis: cannot tell
    assert geography.on_land("Japan", ["China"]) is None and geography.on_land("Atlantis", ["China"]) is None
    asia = ("Bangladesh", "Sri Lanka", "Nepal", "Myanmar", "Bhutan", "India", "Pakistan", "China", "Japan", "Thailand", "Laos")
    finder = EntityFinder(CorpusStats([f"The region held event {i} in 1990." for i in range(100)], latest_year=2024,
                                      definitions=[(i, name, f"{name} is a country in South Asia.") for i, name in enumerate(asia)]))
    tempting = {"Bangladesh": [1.0, 0.0], "Sri Lanka": [0.8, 0.6]}  # the island tempts most

    def options(para_id, text):  # from Sri Lanka, Nepal, Myanmar, Bhutan, Pakistan
        return _options(finder, para_id, "Ganges", text, (1, 2, 3, 4, 6), tempting, "Bangladesh", n=1)
    assert options(4, "The Ganges is a river of Asia which flows through India and Bangladesh.") == [
        {"Bangladesh", "Nepal", "Myanmar", "Bhutan"}]
    assert "Sri Lanka" in options(5, "The Bay of Bengal washes the coasts of India and Bangladesh.")[0]  # the sea: islands stay
    assert "Sri Lanka" in options(6, "Trade between India and Bangladesh grew.")[0]  # nothing on land or sea: islands stay


def test_at_most_one_distractor_lies_beyond_the_borders_of_a_country_with_three_or_more_neighbours():
    """Rounds 24-64: Oman and Bangladesh beside Pakistan, Saudi Arabia and Jordan beside Egypt."""
    ranked = ["Iran", "Oman", "Bangladesh", "Afghanistan", "India"]
    assert geography.one_apart_at_most("Pakistan", ranked) == ["Iran", "Oman", "Afghanistan", "India"]
    assert geography.one_apart_at_most("France", ["England", "Poland", "Austria", "Spain"]) == ["England", "Poland", "Spain"]
    assert geography.one_apart_at_most("Japan", ranked) == ranked  # no land neighbours
    assert geography.one_apart_at_most("Panama", ranked) == ranked  # two: Colombia and Costa Rica


def test_bearings_run_from_a_countrys_centre_to_the_others_nearest_town():
    assert geography.bearing("TH", "CN") < 30 and 150 < geography.bearing("TH", "MY") < 210  # China north of Thailand, Malaysia south
    assert 290 < geography.bearing("LA", "CN") < 360  # the towns beside Laos, not China's centre northeast of it
    assert geography.bearing("TH", "XX") is None


def test_a_distractor_must_lie_in_the_direction_the_sentence_gives():
    """Rounds 40 and 45: China for Thailand's southern neighbour, Malaysia for Laos's northwestern one."""
    northwest = frozenset({"northwest"})
    assert geography.in_direction("China", ["India", "Nepal", "Malaysia", "Atlantis"], "Laos", northwest) == [True, True, False, False]
    assert geography.in_direction("Malaysia", ["China", "Singapore"], "Thailand", frozenset({"south"})) == [False, True]
    assert geography.in_direction("Malaysia", ["China"], "Thailand", frozenset({"north", "south"})) == [True]  # either way
    assert geography.in_direction("China", ["Malaysia"], "Laos", frozenset({"south"})) is None  # the answer not there: cannot tell
    assert geography.in_direction("China", ["Malaysia"], "Mekong", northwest) is None  # no country's own borders
    assert geography.in_direction("China", ["Malaysia"], "Laos", frozenset()) is None


def test_a_country_bordering_the_subject_one_way_takes_distractors_that_lie_that_way():
    asia = ("Laos", "China", "India", "Nepal", "Malaysia", "Bangladesh", "Myanmar", "Vietnam")
    finder = EntityFinder(CorpusStats([f"The region held event {i} in 1990." for i in range(100)], latest_year=2024,
                                      definitions=[*[(i, name, f"{name} is a country in Asia.") for i, name in enumerate(asia)],
                                                   *[(20 + i, name, f"{name} is a country in Europe.") for i, name in enumerate(ELSEWHERE)]]))
    tempting = {"China": [1.0, 0.0], "Malaysia": [0.8, 0.6]}  # the one far to the south tempts most

    def options(direction, title="Laos"):  # from India, Nepal, Malaysia, Bangladesh
        return _options(finder, 4, title, f"Laos is bordered by Myanmar and China to the {direction}, and Vietnam to the east.",
                        (2, 3, 4, 5), tempting, "China", n=1)
    assert options("northwest") == [{"China", "India", "Nepal", "Bangladesh"}]
    assert options("north") == [{"China", "India", "Nepal", "Bangladesh"}]  # Malaysia lies south whichever way the border runs
    assert options("northwest", title="Mekong") == [{"China", "Malaysia", "India", "Nepal"}]  # no country's own borders: no rule


def test_a_distractor_must_lie_about_as_near_the_water_as_the_answer():
    """Rounds 44 and 46: Norway, Finland and Poland among the Black Sea's shores, Finland and Poland among the Caspian's."""
    black_sea = frozenset({"BG", "GE", "RO", "TR", "UA"})
    assert geography.by_the_water("Russia", ["Norway", "Finland", "Poland", "Greece", "Moldova", "Atlantis"], black_sea) \
        == [False, False, False, True, True, False]
    caspian = frozenset({"KZ", "AZ", "IR", "TM"})
    assert geography.by_the_water("Russia", ["Finland", "Poland", "Ukraine", "Georgia", "Uzbekistan"], caspian) \
        == [False, False, False, True, True]
    assert geography.by_the_water("Russia", ["Finland"], frozenset({"KZ", "AZ"})) is None  # two shores do not place the water
    assert geography.by_the_water("Atlantis", ["Finland"], caspian) is None


def test_a_country_among_the_shores_of_a_sea_takes_only_distractors_near_it():
    europe = ("Bulgaria", "Georgia", "Romania", "Turkey", "Ukraine", "Russia", "Norway", "Finland", "Poland", "Greece", "Moldova",
              "Serbia")
    finder = EntityFinder(CorpusStats([f"The region held event {i} in 1990." for i in range(100)], latest_year=2024,
                                      definitions=[(i, name, f"{name} is a country in Europe.") for i, name in enumerate(europe)]))
    tempting = {"Russia": [1.0, 0.0], "Norway": [0.8, 0.6], "Finland": [0.8, 0.6]}  # the far north tempts most
    pool = [finder.stats.as_span(doc_id, "place") for doc_id in range(6, 12)]  # Norway, Finland, Poland, Greece, Moldova, Serbia
    encode = lambda texts: np.array([tempting.get(t, [1.0, 0.0] if "_" in t else [0.6, 0.8]) for t in texts])  # noqa: E731

    def drafts(title):
        made, dropped = cloze_drafts(6, title, "It is bordered by Bulgaria, Georgia, Romania, Russia, Turkey, and Ukraine.", list, finder,
                                     encode, n=6, variants=1, seed=0,
                                     setting=Setting(related=lambda span: pool, linked=lambda answer, names: [2] * len(names)))
        return {draft.answer: set(draft.options) for draft, _ in made}, dict(dropped)
    made, dropped = drafts("Black Sea")  # only Greece and Moldova lie about as near the sea as Russia: no third
    assert "Russia" not in made and "sea or lake" in dropped["Russia"]
    made, _ = drafts("Pontus")  # no body of water named: the most tempting stay
    assert {"Norway", "Finland"} <= made["Russia"]


def test_a_country_on_a_named_seas_shores_takes_only_distractors_on_them():
    """Round 52: Poland, Norway and Finland for the Sea of Azov's eastern shore; Germany and Belgium beside the Mediterranean."""
    assert geography.on_the_shores("Russia", ["Poland", "Norway", "Ukraine"], "Sea of Azov") == [False, False, True]
    provence = "Provence is a region of southeastern France; it is bordered by the Mediterranean Sea to the south."
    assert geography.on_the_shores("France", ["Germany", "Spain", "Belgium", "Italy"], provence) == [False, True, False, True]
    assert geography.on_the_shores("Germany", ["Poland"], provence) is None  # the answer is not on that sea
    assert geography.on_the_shores("France", ["Germany"], "Provence is a region of France.") is None  # no sea named
    crimea = "Across the Black Sea to the west lies Romania and to the south is Turkey."  # round 54: Iraq, Iran, Syria
    assert geography.on_the_shores("Turkey", ["Iraq", "Bulgaria"], crimea, frozenset({"RO"})) == [False, True]
    gaza = "Gaza is bordered by Egypt on the southwest, Israel on the east and north, and the Mediterranean Sea to the west."
    assert geography.on_the_shores("Israel", ["Jordan"], gaza, frozenset({"EG"})) == [False]  # Egypt shares the sea
    assert geography.on_the_shores("Turkey", ["Iraq"], "Turkey borders Iraq and the Black Sea.", frozenset({"IQ"})) is None
