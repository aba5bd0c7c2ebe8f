"""What the offline generator reads a name to be (sea.questions.kinds), on hand-made definitions."""

from sea.questions.entities import YEAR, Span
from sea.questions.kinds import CorpusStats, homeland_of, kind_problem, names_around, what_it_is, where_it_is
from sea.questions.rubric import check
from tests.questions.cases import CORPUS, DEFINITIONS, question_of


def test_the_knowledge_base_date_is_the_latest_year_it_mentions_often():
    stats = CorpusStats([*CORPUS, "A games is planned for 2036."])
    assert stats.latest_year == 2024  # 2036 is mentioned once: a plan, not the date


def test_what_an_article_says_its_subject_is():
    assert [what_it_is(abstract) for _, _, abstract in DEFINITIONS[:4]] == ["country", "country", "continent", "river"]
    assert what_it_is("Albert Einstein was a German-born theoretical physicist who developed relativity.") == "physicist"
    assert what_it_is("Gone fishing.") is None
    assert what_it_is("Ethanol is a compound used as a fuel.") == "compound"
    assert what_it_is("A hammer is a tool used to drive nails.") == "tool" and what_it_is("Rice is used in cooking.") is None
    assert what_it_is("Quarks are a type of particle.") is None  # "a type of": generic, says nothing
    assert what_it_is("Vilnius is the capital of Lithuania.") == "city" and what_it_is("Zeus and Hera are deities of Greece.") == "deity"
    assert what_it_is("Hong Kong is a special administrative region of China.") == "territory"  # not a region like Southeast Asia
    assert what_it_is("Southeast Asia is the geographical southeastern region of Asia.") == "region"


def test_a_title_names_its_plain_meaning_and_common_nouns_are_no_names():
    stats = CorpusStats([], definitions=[(1, "Jupiter (mythology)", "Jupiter is the god of the sky."),
                                         (2, "Jupiter", "Jupiter is the fifth planet from the Sun."),
                                         (3, "Continent", "A continent is any of several large landmasses."),
                                         (4, "Samara", "Samara is the largest city and administrative centre of Samara Oblast.")])
    assert stats.type_of("Jupiter") == "planet" and [stats.members(n) for n in ("god", "planet", "city")] == [[], [2], [4]]
    assert stats.type_of("Continent") is None and stats.type_of("Samara") == "city"  # "city and … centre": the first noun
    assert stats.type_of("Guaire River") == "river" and stats.type_of("Kingdom of Poland") == "kingdom"  # said by the name


def test_no_faith_region_or_political_camp_is_asked_about():
    """Rounds 67-69: the 30 questions whose answer was such a word passed 4 and 3 ("the Christianity" among adjectives,
    Sunni beside a sentence's Muslims, Arab for the Goliath frog); rounds 24-65 failed 7 of their 9."""
    stats = CorpusStats([], latest_year=2024, definitions=[(i, f"Ann {i}", f"Ann {i} was a {people} painter.")
                                                           for i, people in enumerate(["Christian", "Muslim", "African", "Tory"] * 3)])
    for word, sentence in (("Christian", "The pirates preyed on Christian shipping."), ("Christianity", "It spread Christianity."),
                           ("the African", "The largest frog is the African Goliath frog."), ("Tory", "His Tory government fell.")):
        assert "a faith's, a region's or a political camp's word" in kind_problem(Span("group", word, sentence), stats)
    assert kind_problem(Span("group", "Danish", "a Danish painter"), CorpusStats(
        [], latest_year=2024, definitions=[(i, f"Ann {i}", "Ann was a Danish painter.") for i in range(3)])) is None


def test_options_read_in_place_tell_their_kind(finder):
    readings = finder.read("The statue stands in _____, Brazil.", ["Rio de Janeiro", "Albert Einstein", "1990"])
    assert readings[0].kind == "place" and readings[1].kind == "person" and readings[2].kind == YEAR


def test_the_rubric_flags_each_fault(finder):
    paragraph = "The Rio Negro is the largest left tributary of the Amazon River, which was mapped in 1990."
    good = question_of('Fill in the blank about Rio Negro: "It was mapped in _____."', ["1990", "1985", "1978", "2001"], 0)
    assert all(check(finder, good, "Rio Negro", paragraph).values())
    countries = question_of('Fill in the blank about Khartoum: "It is the capital of _____."', ["Sudan", "Libya", "Egypt", "Kenya"], 0)
    assert check(finder, countries, "Khartoum", "It is the capital of Sudan.")["same_defined_type"]
    mixed = question_of('Fill in the blank about Khartoum: "It is the capital of _____."', ["Sudan", "Libya", "Africa", "Kenya"], 0)
    assert not check(finder, mixed, "Khartoum", "It is the capital of Sudan.")["same_defined_type"]  # a continent among countries
    leak = question_of('Fill in the blank about Rio Negro (Amazon): "The Rio Negro is the largest left tributary of the _____."',
                     ["Amazon River", "Niger River", "West Africa", "North America"], 0)
    verdict = check(finder, leak, "Rio Negro (Amazon)", paragraph)
    assert not verdict["no_title_leak"]
    future = question_of('Fill in the blank about Rio Negro: "It was mapped in _____."', ["1990", "1985", "2031", "2001"], 0)
    assert not check(finder, future, "Rio Negro", paragraph)["no_future_year"]
    article = question_of('Fill in the blank about Luzon: "It is an _____ of the north."', ["island", "nation", "archipelago", "region"], 0)
    assert not check(finder, article, "Luzon", "It is an island of the north.")["agreement"]
    written = question_of('Fill in the blank about Luzon: "It is _____ of the north."', ["an island", "a archipelago", "a cape", "a bay"], 0)
    assert not check(finder, written, "Luzon", "It is an island of the north.")["agreement"]  # "a archipelago"
    fitting = question_of('Fill in the blank about Luzon: "It is _____ of the north."', ["an island", "an archipelago", "a cape", "a bay"], 0)
    assert check(finder, fitting, "Luzon", "It is an island of the north.")["agreement"]
    stated = question_of('Fill in the blank about Rio Negro: "It was mapped in _____."', ["1985", "1990", "1978", "2001"], 0)
    assert not check(finder, stated, "Rio Negro", paragraph)["no_distractor_in_paragraph"]
    broken = question_of('Fill in the blank about Damascus: "Dubbed (the City of _____."', ["Jasmine", "Roses", "Lights", "Gold"], 0)
    assert not check(finder, broken, "Damascus", "Dubbed (the City of Jasmine.")["well_formed"]
    elsewhere = question_of('Fill in the blank about Khartoum: "It is the capital of _____."', ["Sudan", "Libya", "Netherlands", "Kenya"], 0)
    assert not check(finder, elsewhere, "Khartoum", "It is the capital of Sudan.")["placed_alike"]  # a European country
    assert check(finder, countries, "Khartoum", "It is the capital of Sudan.")["placed_alike"]
    games = question_of('Fill in the blank about Jesse Owens: "He won at the _____ Olympics."', ["1936", "1932", "1934", "1940"], 0)
    assert not check(finder, games, "Jesse Owens", "He won at the 1936 Olympics.")["on_cycle"]  # 1934 held no Games
    latest = question_of('Fill in the blank about Summer Olympic Games: "The most recent was held in _____ in Paris."',
                       ["2024", "2020", "2018", "2016"], 0)
    assert not check(finder, latest, "Summer Olympic Games", "The most recent was held in 2024 in Paris.")["on_cycle"]  # the title's cycle
    winter = 'Fill in the blank about Figure skating: "The team event was first included in the Winter Olympics in _____."'
    held = question_of(winter, ["2014", "2010", "1994", "2018"], 0)
    skipped = question_of(winter, ["2014", "1946", "1950", "1994"], 0)  # on the cycle, but no Winter Games were held then
    assert check(finder, held, "Figure skating", "x")["on_cycle"] and not check(finder, skipped, "Figure skating", "x")["on_cycle"]
    tiny = question_of('Fill in the blank about Grotius: "He wrote in exile in _____."', ["France", "Luxembourg", "Spain", "Italy"], 0)
    assert not check(finder, tiny, "Hugo Grotius", "He wrote in exile in France.")["alike_in_size"]  # 153 times smaller
    assert check(finder, countries, "Khartoum", "It is the capital of Sudan.")["alike_in_size"]


def test_definitions_read_past_adjectives_and_superlatives():
    assert what_it_is("Mali, officially the Republic of Mali, is a landlocked country in West Africa.") == "country"
    assert what_it_is("Africa is the world's second-largest and second-most populous continent after Asia.") == "continent"
    assert what_it_is("Antarctica is Earth's southernmost and least-populated continent.") == "continent"
    assert what_it_is("Delhi is a megacity and a union territory of India.") == "city"


def test_an_answer_of_a_small_kind_is_not_asked():
    continents = [(70 + i, name, f"{name} is a continent.") for i, name in enumerate(("Africa", "Asia", "Europe", "Antarctica"))]
    countries = [(80 + i, f"Land {i}", f"Land {i} is a country in Africa.") for i in range(10)]
    stats = CorpusStats([], latest_year=2024, definitions=[*continents, *countries])
    assert "common knowledge" in kind_problem(Span("place", "Africa", "Hares are native to Africa."), stats)
    assert kind_problem(Span("place", "Land 3", "Hares are native to Land 3."), stats) is None
    assert kind_problem(Span(YEAR, "1990", "It was mapped in 1990."), stats) is None


def test_where_an_article_places_its_subject():
    assert where_it_is(DEFINITIONS[0][2], "Sudan") == {"Northeast Africa"}  # not "Republic of the Sudan": before the definition
    assert where_it_is("Prague is the capital and largest city of the Czech Republic.", "Prague") == {"Czech Republic"}
    assert where_it_is("Pune is a city in the Indian state of Maharashtra, near Mumbai.", "Pune") == {"Indian", "Maharashtra", "Mumbai"}
    assert where_it_is("Jane Austen was an English novelist known for six novels.", "Jane Austen") == {"English"}
    assert where_it_is("The Czech Republic is a landlocked country.", "Czech Republic") == frozenset()  # its own name is no place
    assert where_it_is("Gone fishing.", "Gone") == frozenset()


def test_a_name_used_as_another_kind_than_its_article_is_not_asked():
    stats = CorpusStats([], latest_year=2024, definitions=[(i, f"Land{i}", f"Land{i} is a country in Oceania.") for i in range(12)]
                        + [(99, "Tonga", "Tonga is a country in Polynesia.")])
    assert kind_problem(Span("place", "Tonga", "Lusaka lies in Tonga."), stats) is None
    assert "article is about a country" in kind_problem(Span("language", "Tonga", "Tonga is spoken in Lusaka."), stats)


LANDS = ["Canada", "China", "Austria", "Australia", "Romania", "Portugal", "Mongol Empire", "Mongolia", "India", "Indonesia"]


def test_a_peoples_word_names_its_land():
    found = {word: homeland_of(word, LANDS) for word in ("canadian", "chinese", "austrian", "australian", "mongol", "mongolian",
                                                         "indian", "french", "american", "romantic", "anglo", "portuguese")}
    assert found == {"canadian": "Canada", "chinese": "China", "austrian": "Austria", "australian": "Australia",
                     "mongol": "Mongol Empire", "mongolian": "Mongolia", "indian": "India", "french": "france",
                     "american": "united states", "romantic": None, "anglo": None, "portuguese": "portugal"}


def test_names_around_a_blank_are_read_as_the_sentence_writes_them():
    names = list(names_around(Span(YEAR, "2004", "She received the Medal of Freedom from President George W. Bush in 2004.")))
    assert "George W. Bush" in names and "Medal of Freedom" in names and not any("2004" in name for name in names)
    assert "Paris, France" not in names_around(Span(YEAR, "1900", "It opened in Paris, France in 1900."))  # no name across a comma
