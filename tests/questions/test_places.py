"""Where the offline generator reads a sentence to set a place (sea.questions.places), on hand-made sentences."""

import pytest

from sea.questions import geography
from sea.questions.entities import Span
from sea.questions.kinds import CorpusStats, located
from sea.questions.places import (
    a_regions_capital,
    an_embassys_city,
    directions_given,
    links_between,
    named_containers,
    names_in,
    near_on_a_map,
    nested,
)


@pytest.mark.parametrize(("sentence", "answer", "directions"), [
    ("It is bordered by Myanmar and China to the northwest, Vietnam to the east.", "China", {"northwest"}),
    ("It borders the sea to the west, Turkey to the north and northwest, Iraq to the east.", "Turkey", {"north", "northwest"}),
    ("It is bounded by Georgia to the northwest, Turkey and Armenia to the west, and Iran to the south.", "Turkey", {"west"}),
    ("It is bordered to the north by Brazil and to the south by Argentina.", "Argentina", {"south"}),
    ("It is bordered to the north-east by Brazil, Paraguay and Argentina.", "Paraguay", {"northeast"}),
    ("It de facto borders only Russia and Georgia.", "Russia", set()),
    ("Brazil won the final, to the north of the city.", "Brazil", set()),  # "won the final": not a list of names
])
def test_the_directions_a_sentence_gives_for_the_answer(sentence, answer, directions):
    assert directions_given(Span("place", answer, sentence)) == directions


def test_a_place_the_sentence_names_the_answer_in_holds_every_distractor():
    stats = CorpusStats([], latest_year=2024, definitions=[
        (1, "Crete", "Crete is a Greek island in the Mediterranean."),
        (2, "Rhodes", "Rhodes is an island of Greece."),
        (3, "Sardinia", "Sardinia is an island of Italy in the Mediterranean Sea."),
        (4, "Guatemala", "Guatemala is a country in Central America."),
        (5, "Uruguay", "Uruguay is a country in South America.")])
    knossos = Span("place", "Crete", "Knossos is an archaeological site in Crete, Greece.")
    assert named_containers("Crete", knossos, stats) == {frozenset({"gree"})}  # "Greek" islands, "Greece" named
    assert named_containers("Rhodes", knossos, stats) == named_containers("Crete", knossos, stats)
    assert named_containers("Sardinia", knossos, stats) == set()  # not in Greece: ruled out
    assert named_containers("Guatemala", Span("place", "Guatemala", "It lives in Guatemala and Peru."), stats) == set()  # none named
    central = Span("place", "Guatemala", "In Central America it lives in Guatemala.")
    assert named_containers("Uruguay", central, stats) != named_containers("Guatemala", central, stats)
    # "South America" does not hold a country of Central America: compass words count whole.
    south = Span("place", "Guatemala", "In South America and Guatemala.")
    assert named_containers("Guatemala", south, stats) == set()
    # The other way round: an option in a place the sentence names beside an answer outside it is no wrong answer.
    beyond = Span("place", "Uruguay", "Its range runs from Central America to Uruguay.")
    assert named_containers("Uruguay", beyond, stats) == set() and named_containers("Guatemala", beyond, stats)
    # A neighbour a country's definition names is no container: Ecuador stays an option beside Peru.
    andes = CorpusStats([], latest_year=2024, definitions=[
        (1, "Ecuador", "Ecuador is a country in South America, between Colombia and Peru."), (2, "Peru", "Peru is a country in South America."),
        (3, "Chile", "Chile is a country in South America.")])
    fringe = Span("place", "Chile", "Its north lies in Peru and its fringes lie in Chile.")
    assert named_containers("Ecuador", fringe, andes) == named_containers("Chile", fringe, andes) == set()


def test_distractors_far_from_the_answer_on_a_map_are_refused():
    stats = CorpusStats([], latest_year=2024, definitions=[
        (1, "United States", "The United States is a country primarily located in North America."),
        (2, "Canada", "Canada is a country in North America."),
        (3, "Peru", "Peru is a country in western South America."),
        (4, "Mexico", "Mexico is a country in North America."),
        (5, "Colombia", "Colombia is a country primarily located in South America."),
        (6, "China", "China is a country in East Asia."),
        (7, "Germany", "Germany is a country in Central Europe."),
        (8, "France", "France is a country in Western Europe."),
        (9, "Japan", "Japan is an island country in East Asia.")])
    leads = {"United States": "It shares borders with Canada to its north and with Mexico to its south."}.get
    river = Span("place", "the United States", "The Ohio River is a river in the United States.")
    assert located(river, stats)("Peru") == "Peru"
    # Peru shares only the stem of "America" with the answer's "North America"; Canada and Mexico are named by its article.
    assert near_on_a_map("United States", ["Peru", "Canada", "Colombia", "Mexico"], located(river, stats),
                         lambda answer, names: links_between(answer, names, leads), stats, 2) == (["Canada", "Mexico"], [1, 1])
    # A people by its land: a continent shared is enough (French beside German), another continent is not (Chinese).
    composer = Span("group", "German", "Bach was a German composer.")
    assert located(composer, stats) is not None and located(Span("group", "Hindu", "a Hindu temple"), stats) is None
    near, _ = near_on_a_map(stats.homeland("German"), ["French", "Chinese", "Romantic"], located(composer, stats),
                            lambda answer, names: [0] * len(names), stats, 1)
    assert near == ["French"]
    assert located(Span("person", "Ian Fleming", "x"), stats) is None  # people are not placed on a map


@pytest.mark.parametrize(("text", "name", "named"), [
    ("Niger borders Nigeria.", "Niger", True),
    ("Nigeria lies south of it.", "Niger", False),          # part of a longer word
    ("the Niger-Congo languages", "Niger", False),           # a hyphen joins it to another word
    ("Trans-Niger trade", "Niger", False),
    ("Nigeria, then Niger.", "Niger", True),                 # the second mention stands alone
    ("Niger_basin", "Niger", False),
    ("Nigerés", "Niger", False),                             # a letter beyond ASCII still joins
    ("(Niger)", "Niger", True),
    ("Chad borders Niger", "Niger", True),                   # at the very end
    ("Niger and Chad", "Niger", True),                       # at the very start
    ("", "Niger", False),
])
def test_a_name_counts_only_where_it_stands_alone(text, name, named):
    assert names_in(text, name) is named


def test_a_people_of_a_place_within_the_answers_land_is_no_wrong_answer():
    stats = CorpusStats([], latest_year=2024, definitions=[
        (1, "Italy", "Italy is a country in Southern Europe."), (2, "Rome", "Rome is the capital city of Italy."),
        (3, "France", "France is a country in Western Europe."), (4, "Spain", "Spain is a country in Southern Europe.")])
    painter = Span("group", "Italian", "Alberti was an Italian humanist.")
    assert nested("Italy", "rome", stats) and not nested("Italy", "France", stats)
    neighbours = CorpusStats([], latest_year=2024, definitions=[
        (1, "India", "India is a country in South Asia."), (2, "Bhutan", "Bhutan is a country in South Asia, between China and India.")])
    assert not nested("India", "Bhutan", neighbours)  # a neighbour its definition names, not a place within it
    near, _ = near_on_a_map(stats.homeland("Italian"), ["Roman", "French", "Spanish"], located(painter, stats),
                            lambda answer, names: [1] * len(names), stats, 1)
    assert near == ["French", "Spanish"]


def test_a_regions_capital_is_told_from_countries_capitals():
    """Rounds 55 and 57: Beijing among the options for Yunnan's and Fujian's capital."""
    assert a_regions_capital(Span("place", "Kunming", "The capital of the province is Kunming."))
    assert a_regions_capital(Span("place", "Munich", "The state's capital and largest city is Munich; others include Nuremberg."))
    assert a_regions_capital(Span("place", "Wuhan", "Its provincial capital at Wuhan serves as a hub."))
    assert not a_regions_capital(Span("place", "Beijing", "Beijing is the capital of China."))  # a country's capital
    assert not a_regions_capital(Span("place", "Ethiopia", "Addis Ababa is the capital and largest city of Ethiopia."))  # a country
    assert not a_regions_capital(Span("place", "Kunming", "He was born in Kunming."))
    euler = "He spent most of his life in Saint Petersburg, Russia, and in Berlin, then the capital of Prussia."
    assert not a_regions_capital(Span("place", "Saint Petersburg", euler))
    assert geography.national_capital("Beijing") and not geography.national_capital("Kunming")


def test_an_embassys_city_is_told_from_other_cities():
    """Round 63: Toulouse, Marseille and Lyon for the German Embassy in Paris (Dreyfus): an embassy sits in a capital."""
    dreyfus = "He was convicted of communicating French military secrets to the German Embassy in Paris."
    assert an_embassys_city(Span("place", "Paris", dreyfus))
    assert not an_embassys_city(Span("place", "Paris", "He studied in Paris at the embassy's expense."))
    assert geography.national_capital("Paris") and not geography.national_capital("Lyon")
