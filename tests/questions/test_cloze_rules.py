"""Each rule of the offline generator on hand-made sentences: what a careful reader would refuse."""

import re

import numpy as np
import pytest

from sea.choices import LETTERS
from sea.questions import geography
from sea.questions.answers import (
    _INDEFINITE,
    answer_problem,
    article_before,
    citation,
    country_of_the_past,
    cut_from_its_paragraph,
    one_of_a_list_of_countries,
    placed_by_the_question,
    problem_before_distractors,
    restated,
    word_form_given,
)
from sea.questions.cloze import (
    ANTIQUITY_ENDS,
    MODERN_STATES_FROM,
    Setting,
    before_a_rulers_name,
    cloze_drafts,
    cloze_in,
    direct_question,
    of_a_persons_name,
    of_the_answers_time,
    problem_in_its_setting,
    science_of,
)
from sea.questions.distractors import (
    _ARTICLE_WORD,
    article_for,
    most_tempting,
    range_start,
    same_form,
    same_kind,
    takes_the,
    with_article,
    written_with_the,
)
from sea.questions.entities import QUANTITY, YEAR, EntityFinder, Span
from sea.questions.kinds import (
    CorpusStats,
    homeland_of,
    kind_problem,
    located,
    names_around,
    part_of_a_continent,
    placed_alike,
    same_name,
    taxon_ending,
    what_it_is,
    where_it_is,
)
from sea.questions.model import Question
from sea.questions.places import (
    a_regions_capital,
    about_borders,
    about_the_sea,
    an_embassys_city,
    another_place_of_its_name,
    directions_given,
    landlocked,
    links_between,
    named_containers,
    names_in,
    near_on_a_map,
    neighbours_only,
    nested,
)
from sea.questions.rubric import check
from sea.questions.years import (
    a_world_wars_first_or_last_year,
    began_bounds,
    bounding_years,
    centuries_named,
    contemporaries,
    dated_only_before,
    dates_named,
    era_of,
    games_held,
    in_the_works_time,
    lifespan,
    nearby_values,
    on_the_answers_side,
    period_bounds,
    period_of,
    work_year,
    year_cycle,
    years_active,
    years_spanned,
)

CORPUS = [f"The region held event {i} in 1990." for i in range(100)] + ["The festival of 2024 was held in Lyon."] * 3
DEFINITIONS = [(1, "Sudan", "Sudan, officially the Republic of the Sudan, is a country in Northeast Africa."),
               (2, "Libya", "Libya is a country in the Maghreb region of North Africa."),
               (3, "Africa", "Africa is the world's second-largest and second-most populous continent."),
               (4, "Nile", "The Nile is a major north-flowing river in northeastern Africa."),
               (5, "United States", "The United States of America is a country primarily located in North America."),
               (6, "Netherlands (country)", "The Netherlands is a country in Northwestern Europe."),
               (7, "Canada", "Canada is a country in North America."),
               *[(20 + i, name, f"{name} is a country in Africa.") for i, name in enumerate(("Egypt", "Kenya", "Chad", "Mali", "Ghana"))],
               *[(30 + i, name, f"{name} is a country in {where}.")  # the lands of the golfers' peoples
                 for i, (name, where) in enumerate((("Germany", "Central Europe"), ("Australia", "Oceania"), ("Argentina", "South America"),
                                                    ("Ireland", "Northwestern Europe")))],
               *[(10 + i, name, f"{name} was an English novelist.") for i, name in enumerate(("Ian Fleming", "John Gardner", "Gardner"))],
               *[(100 + 10 * i + j, f"Golfer {i}{j}", f"Golfer {i}{j} was a {people} golfer.")  # peoples the definitions use
                 for i, people in enumerate(("American", "German", "Australian", "Argentine", "Canadian", "Irish")) for j in range(3)]]
NAME_EACH_OTHER = lambda answer, names: [2] * len(names)  # noqa: E731  (the articles of every option and the answer's)
PEOPLE = CorpusStats([], latest_year=2024, definitions=DEFINITIONS)


@pytest.fixture(scope="module")
def finder():
    return EntityFinder(CorpusStats(CORPUS, latest_year=2024, definitions=DEFINITIONS))


def test_a_place_inside_a_longer_name_is_not_asked(finder):
    countries = [finder.stats.as_span(doc_id, "place") for doc_id in (2, 21, 22, 23, 24, 1)]  # Libya, Kenya, Chad, …, Sudan
    vectors = {name: np.array([0.6, 0.8]) for name in ("Libya", "Kenya", "Chad", "Mali", "Ghana", "Sudan")}
    vectors["Egypt"] = np.array([1.0, 0.0])
    encode = lambda texts: np.array([vectors.get(t, np.array([0.0, 1.0])) for t in texts])  # noqa: E731
    neighbours_first = lambda answer, names: [2 if name in ("Libya", "Sudan") else 1 for name in names]  # noqa: E731
    setting = Setting(related=lambda span: countries, linked=neighbours_first)  # one option apart from Egypt at most
    made, dropped = cloze_drafts(70, "Cairo", "Its zoo keeps the Egypt cheetah.", list, finder, encode, n=1, variants=1, seed=0,
                                 setting=setting)
    assert not made and any(answer == "Egypt" and "longer name" in why for answer, why in dropped)  # "the Libya cheetah" is none
    made, _ = cloze_drafts(71, "Cairo", "Its zoo keeps cheetahs from Egypt.", list, finder, encode, n=1, variants=1, seed=0,
                           setting=setting)
    assert [draft.answer for draft, _ in made] == ["Egypt"]


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


def test_a_distractor_the_knowledge_base_calls_something_else_is_refused(finder):
    sudan = Span("place", "Sudan", "x")
    assert same_form(Span("place", "Libya", "x"), sudan, finder.stats)  # both countries
    assert not same_form(Span("place", "Africa", "x"), sudan, finder.stats)  # a continent among countries
    assert not same_form(Span("place", "Eritrea", "x"), sudan, finder.stats)  # unknown to the knowledge base: not shown to be a country
    assert not same_form(sudan, Span("place", "Eritrea", "x"), finder.stats)  # nor anything offered for an answer it does not define


def test_titles_of_the_answer_type_serve_as_distractors(finder):
    text = "Khartoum is the capital of Sudan, on the Nile."
    countries = [finder.stats.as_span(doc_id, "place") for doc_id in (2, 3, 7, 20, 21, 22)]  # Libya, Africa, Canada, Egypt, …
    vectors = {name: np.array([0.6, 0.8]) for name in ("Libya", "Africa", "Canada", "Egypt", "Kenya", "Chad")}
    vectors["Sudan"] = np.array([1.0, 0.0])
    encode = lambda texts: np.array([vectors.get(t, np.array([0.0, 1.0])) for t in texts])  # noqa: E731  (sentences: one context)
    made, dropped = cloze_drafts(2, "Khartoum", text, list, finder, encode, n=1, variants=1, seed=0,
                                 setting=Setting(related=lambda span: countries, linked=NAME_EACH_OTHER))
    [(draft, _)] = made
    assert draft.answer == "Sudan" and set(draft.options) - {"Sudan"} <= {"Libya", "Canada", "Egypt", "Kenya", "Chad"}
    assert draft.question.startswith("Which country completes")  # the stem names the type every option shares
    made, dropped = cloze_drafts(2, "Khartoum", text, list, finder, encode, n=1, variants=1, seed=0)
    assert not made and any("Sudan" == answer and "distractors" in why for answer, why in dropped)


def test_the_neighbours_are_tagged_only_for_a_candidate_that_needs_distractors(finder):
    asked = []

    def neighbour_spans():
        asked.append(True)
        return []

    encode = lambda texts: np.ones((len(texts), 2))  # noqa: E731
    made, dropped = cloze_drafts(90, "Sudan", "Sudan lies on the Nile.", neighbour_spans, finder, encode, n=1, variants=1, seed=0)
    assert not made and ("Sudan", "the title gives the answer away") in dropped and not asked
    cloze_drafts(2, "Khartoum", "Khartoum is the capital of Sudan, on the Nile.", neighbour_spans, finder, encode, n=1, variants=1, seed=0)
    assert asked == [True]  # once, for Sudan


def test_the_subject_is_never_one_of_its_own_distractors(finder):
    text = "Khartoum is the capital of Sudan, on the Nile."
    countries = [finder.stats.as_span(doc_id, "place") for doc_id in (2, 7, 20, 21, 22)]  # Libya, Canada, Egypt, Kenya, Chad
    vectors = {name: np.array([0.6, 0.8]) for name in ("Libya", "Canada", "Egypt", "Kenya")} | {"Chad": np.array([0.7, 0.71])}
    vectors["Sudan"] = np.array([1.0, 0.0])
    encode = lambda texts: np.array([vectors.get(t, np.array([0.0, 1.0])) for t in texts])  # noqa: E731
    for title, expected in (("Khartoum", True), ("Lake Chad", False)):  # Chad, the nearest, unless the question is about it
        [(draft, _)] = cloze_drafts(2, title, text, list, finder, encode, n=1, variants=1, seed=0,
                                    setting=Setting(related=lambda span: countries, linked=NAME_EACH_OTHER))[0]
        assert ("Chad" in draft.options) == expected and draft.answer == "Sudan"


def test_articles_follow_the_sound():
    assert [article_for(w) for w in ("European", "Ugandan", "hour", "FBI", "NATO", "Indian", "Dutch")] == \
        ["a", "a", "an", "an", "a", "an", "a"]


def test_groups_stand_in_only_for_their_own_kind():
    peoples = ["Danish", "Swedish", "Bengali", "Sudanese", "French", "Danish-French", "British", "Irish"]
    stats = CorpusStats([], latest_year=2024, definitions=[(10 * i + j, f"Ann {i}{j}", f"Ann {i}{j} was a {people} painter.")
                                                           for i, people in enumerate(peoples) for j in range(3)])
    answer = Span("group", "Danish", "x")
    assert same_form(Span("group", "Swedish", "x"), answer, stats)
    assert not same_form(Span("group", "Victorian", "x"), answer, stats)  # an era: no definition places anyone with it
    assert "seldom" in kind_problem(Span("group", "Victorian", "a Victorian painter"), stats)
    assert kind_problem(Span("group", "Danish-French", "a Danish-French painter"), stats) is None
    assert not same_form(Span("group", "European", "x"), answer, stats)  # a continent's people among nations
    assert not same_form(Span("group", "Hindu", "x"), Span("group", "Bengali", "x"), stats)  # a religion
    assert not same_form(Span("group", "British", "x"), Span("group", "Scottish", "x"), stats)  # would also be right
    irish = Span("group", "Irish", "x")
    assert same_form(Span("group", "French", "x"), irish, stats) and same_form(Span("group", "British", "x"), answer, stats)
    assert not same_form(Span("group", "British", "x"), irish, stats)  # Wilde's Ireland was in the United Kingdom
    assert not same_form(Span("group", "Romantic Italian", "x"), Span("group", "French", "x"), stats)  # stands out by length
    assert not same_form(Span("group", "Shi'ism", "x"), Span("group", "Sudanese", "x"), stats)  # a belief among peoples


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


def test_outside_a_lead_no_sentence_that_begins_with_a_pronoun():
    """Rounds 70-72: "He was awarded the Nobel Prize …" in a section of Albert Camus, "It has a maximal depth …"."""
    section = Setting(in_the_lead=False)
    for sentence in ("He was awarded the Nobel Prize in 1957.", "It won the award in 1957.", "These counties were abolished in 1957."):
        assert "begins with a pronoun" in problem_in_its_setting(Span(YEAR, "1957", sentence), [], "Albert Camus", section)
        assert problem_in_its_setting(Span(YEAR, "1957", sentence), [], "Albert Camus", Setting()) is None  # a lead's: the subject
    assert problem_in_its_setting(Span(YEAR, "1957", "Camus was awarded the Nobel Prize in 1957."), [], "Albert Camus", section) is None
    assert problem_in_its_setting(Span(YEAR, "1957", "In 1957 he was awarded it."), [], "Albert Camus", section) is None


def test_a_cited_sources_year_is_not_asked():
    """Rounds 67-69: "(Sidwell ___)", "Near et al., ___" and bibliographies' "(Heidelberg: Winter, ___)" failed as wording."""
    for sentence in ("Chamic has Austroasiatic loanwords (Sidwell 2006).", "Approximate dates are from Near et al., 2006.",
                     "Bornean substrates (Blench and Sagart 2006).", "Ewald Osers (London: Weidenfeld and Nicolson, 2006)",
                     "A revised edition (reprinted London: Search Press, 2006).", "It is divergent (Trombetti 2006: 1–2)."):
        assert "source the sentence cites" in answer_problem(Span(YEAR, "2006", sentence), "Schopenhauer"), sentence
    for sentence in ("Mendeleev's 1869 table and (Meyer's 2006 table) agree.", "Kenzaburō Ōe (Japan, 2006) won it.",
                     "The city was founded in 2006 by traders.", "It was founded (in 2006) by traders."):
        assert not citation(*sentence.split("2006")), sentence


def test_the_title_must_not_give_the_answer_away():
    span = Span("place", "Amazon River", "It is the largest left tributary of the Amazon River.")
    assert answer_problem(span, "Rio Negro (Amazon)") == "the title gives the answer away"
    assert answer_problem(span, "Rio Negro") is None


def test_the_rest_of_the_sentence_must_not_give_the_answer_away():
    span = Span("person", "Ian Fleming", "Ian Fleming's hero was created by Ian Fleming in 1953.")
    assert answer_problem(span, "James Bond") == "the answer appears twice in its sentence"
    span = Span("place", "Amazon River", "The Amazon River is fed by the Amazon basin's rains.")
    assert answer_problem(span, "Rio Negro") == "the rest of the sentence gives the answer away"


def test_a_broken_span_or_sentence_is_refused():
    sentence = 'Known colloquially in Syria as aš-Šām and dubbed, poetically, the "City of Jasmine, Damascus is old.'
    assert "broken" in answer_problem(Span("work", "City of Jasmine", sentence), "Damascus")
    assert "broken" in answer_problem(Span("work", '"City', "The \"City\" is old."), "Damascus")
    assert "list" in answer_problem(Span("group", "Mbuti", "The western Bambenga,\nthe eastern Mbuti."), "Pygmies")
    assert "cut off" in answer_problem(Span("place", "Gulf of", "It flows into the Gulf of Mexico."), "Caracas")


def test_another_form_of_the_answer_in_the_question_gives_it_away():
    assert word_form_given("Scotland", "Robert led ___ in the First War of Scottish Independence")
    assert word_form_given("Pierre Curie", "Curium was named after Marie and ___") and word_form_given("Chile", "a Chilean politician")
    assert word_form_given("an Italian", "He led the Kingdom of Italy")
    assert not word_form_given("Moldavian", "a national hero in Moldova") and not word_form_given("Paris", "the Parliament")
    assert word_form_given("Rome", "In ancient Roman religion, Mars was the god of war") and word_form_given("French", "born in France")
    assert word_form_given("Egypt", "as 's preeminent warrior pharaoh") and word_form_given("Japanese", "the dictionary order of kana")
    assert not word_form_given("Israel", "as 's preeminent warrior pharaoh")  # round 42: a pharaoh's land is Egypt
    assert word_form_given("Rome", "churches in full communion with the pope in")  # round 51: Milan, Genoa, Naples beside it
    assert word_form_given("Israel", "in the Torah, … the grandfather of the twelve tribes of")  # round 51: Lebanon, Syria, Jordan
    assert not word_form_given("Milan", "churches in full communion with the pope in")
    assert word_form_given("Rome", "the Romans") and not word_form_given("Rome", "the Kingdom of Romania")
    assert word_form_given("the United States", "he is the father of American psychology")
    assert word_form_given("American", "a psychology course in the United States") and word_form_given("British", "United Kingdom")
    assert not word_form_given("the United States", "the Americas") and not word_form_given("United Kingdom", "the Britons")
    assert word_form_given("the United States", "the second-most populous city in the Southern U.S., with") and word_form_given("United States", "a US$ bond")
    assert word_form_given("the United Kingdom", "a UK charity") and word_form_given("the United States", "the USA")
    assert not word_form_given("the United States", "told us. He used the USB port") and not word_form_given("France", "the U.S. and UK")
    assert word_form_given("British", "Influenced by English folk-song, it broke with German style.")  # a part of the answer's group
    assert word_form_given("the Democratic Republic of the Congo", "with Tanzania (46%) and the DRC (40%) holding most of it")
    assert word_form_given("the United Arab Emirates", "the U.A.E. and Oman") and not word_form_given("the Congo", "the DRC")
    assert word_form_given("Switzerland", "Zwingli was a Swiss Christian theologian and leader of the Reformation in")  # round 62
    assert word_form_given("Greece", "ancient Greeks") and not word_form_given("Switzerland", "a Swedish theologian")
    assert not word_form_given("English", "a British composer")  # the whole names no one part
    span = Span("person", "Alessandro Volta", "It is named after Alessandro Volta.")
    assert "another form" in answer_problem(span, "Volt")
    assert "compound" in answer_problem(Span("group", "Iranian", "It is in the Indo-Iranian branch."), "Nepali language")


def test_a_unit_conversion_is_not_a_question():
    sentence = "The blade is at least 60 mm (2.4 in) long."
    assert "unit conversion" in answer_problem(Span(QUANTITY, "2.4 in", sentence), "Knife")
    assert "unit conversion" in answer_problem(Span(QUANTITY, "60 mm", sentence), "Knife")
    sentence = "It is relatively shallow, with a mean depth of 12 metres [39 feet]."
    assert "unit conversion" in answer_problem(Span(QUANTITY, "12 metres", sentence), "Lake Winnipeg")
    assert "unit conversion" in answer_problem(Span(QUANTITY, "39 feet", sentence), "Lake Winnipeg")
    sentence = "It is based on the older English unit of length equal to 5,280 English feet, or 1,760 yards."  # round 35
    assert "unit conversion" in answer_problem(Span(QUANTITY, "1,760 yards", sentence), "Mile")
    assert "unit conversion" in answer_problem(Span(QUANTITY, "1,760 yards", "It is 1,760 yards, or 5,280 feet, long."), "Mile")
    light = "It is approximately 1 billion kilometres per hour; 700 million miles per hour."
    assert "unit conversion" in answer_problem(Span(QUANTITY, "700 million miles", light), "Speed of light")
    assert answer_problem(Span(QUANTITY, "5 km", "The lake is 12 km long; 5 km wide."), "Lake Winnipeg") is None
    alternative = "The river is 120 km or 200 km with its tributaries."  # the same unit: another figure, not a conversion
    assert answer_problem(Span(QUANTITY, "200 km", alternative), "Volga") is None
    cited = "It is relatively shallow, with a mean depth of 12 metres [12]."  # a citation, not a conversion
    assert answer_problem(Span(QUANTITY, "12 metres", cited), "Lake Winnipeg") is None
    sentence = "In 1925, the 600th anniversary of its founding in 1325 was marked."
    assert "computable" in answer_problem(Span(YEAR, "1925", sentence), "Tenochtitlan")
    assert answer_problem(Span(YEAR, "1925", "It was marked in 1925."), "Tenochtitlan") is None
    luna = "It was published in July 2009 on the 40th anniversary of Apollo 11."  # round 70: 1969 + 40
    assert "anniversary" in answer_problem(Span(YEAR, "2009", luna), "Luna 15")
    assert answer_problem(Span(YEAR, "1325", "They marked the 600th anniversary of its founding in 1325."), "Tenochtitlan") is None
    assert answer_problem(Span(QUANTITY, "60 mm", "The blade is 60 mm long."), "Knife") is None
    sentence = "Her film-acting career spanned 75 years, from 1912, in silent film shorts, to 1987."
    assert "computable" in answer_problem(Span(YEAR, "1912", sentence), "Lillian Gish")
    assert answer_problem(Span(YEAR, "1912", "She worked for 75 years after 1912."), "Lillian Gish") is None  # no second year
    sentence = "He was overthrown in 1944, before being tried for war crimes and executed two years later in 1946."
    assert "computable" in answer_problem(Span(YEAR, "1944", sentence), "Ion Antonescu")
    assert answer_problem(Span(YEAR, "1944", "He was overthrown in 1944 and executed later, in 1946."), "Ion Antonescu") is None
    assert "computable" in answer_problem(Span(YEAR, "1979", "He played 20 seasons in the NHL from 1979 to 1999."), "Wayne Gretzky")
    sentence = "He started skating at four years old and competed from 2004 to 2022."  # an age, not a span
    assert answer_problem(Span(YEAR, "2004", sentence), "Yuzuru Hanyu") is None
    negated = "The Congo Free State was not a part of, nor did it belong to, Belgium."
    assert "negation" in answer_problem(Span("place", "Belgium", negated), "Congo Free State")
    assert answer_problem(Span("place", "Belgium", "The Congo Free State belonged to Belgium."), "Congo Free State") is None
    growing = "It has been one of the fastest-growing large cities in the United States since 2010."
    assert "far side would be true" in answer_problem(Span(YEAR, "2010", growing), "Austin, Texas")
    assert answer_problem(Span(YEAR, "2010", "It grew fastest in 2010."), "Austin, Texas") is None
    peaks = "More than 100 peaks exceeding elevations of 7,200 metres lie in the Himalayas."
    assert "after a bound" in answer_problem(Span(QUANTITY, "7,200 metres", peaks), "Himalayas")
    assert answer_problem(Span(QUANTITY, "7,200 metres", "A road at an elevation of 7,200 metres."), "Himalayas") is None


def test_a_fragment_the_sentence_splitter_cut_is_not_asked():
    paragraph = "The palace was listed in 1970 and is part of a UNESCO World Heritage Site since 1987. It houses Big Ben."
    assert "fragment" in cut_from_its_paragraph("World Heritage Site since 1987.", paragraph)
    assert cut_from_its_paragraph("It houses Big Ben.", paragraph) is None
    assert cut_from_its_paragraph("The palace was listed in 1970 and is part of a UNESCO World Heritage Site since 1987.", paragraph) is None
    assert cut_from_its_paragraph('He said: "It is done." Then he left.', 'He said: "It is done." Then he left.') is None
    dolly = 'He won the Grammy for "Hello, Dolly!" in 1965, as well as a Lifetime Award.'
    assert "fragment" in cut_from_its_paragraph("in 1965, as well as a Lifetime Award.", dolly)  # cut after "!": lower case
    fragment = Span(YEAR, "1965", "in 1965, as well as a Lifetime Award.")  # the check made before neighbours are tagged sees it too
    assert "fragment" in problem_before_distractors(fragment, "Louis Armstrong", CorpusStats([], latest_year=2024), dolly)


def test_a_quantity_that_names_an_event_takes_only_the_values_others_wrote():
    stats = CorpusStats([], latest_year=2024)
    sentence = "He won two Olympic gold medals over the 10,000 metres."
    pool = [Span(QUANTITY, t, "") for t in ("5,000 metres", "1,500 metres", "3,000 metres")]
    for seed in range(5):
        event = same_kind(Span(QUANTITY, "10,000 metres", sentence, with_the=True), pool, sentence.lower(), stats, np.random.default_rng(seed))
        assert sorted(event) == ["1,500 metres", "3,000 metres", "5,000 metres"]  # written by the neighbours, none made up
    fewer = same_kind(Span(QUANTITY, "10,000 metres", sentence, with_the=True), pool[:2], sentence.lower(), stats, np.random.default_rng(0))
    assert len(fewer) == 2  # too few: no question
    plain = same_kind(Span(QUANTITY, "10,000 metres", "The lake lies 10,000 metres up."), pool[:2], "", stats, np.random.default_rng(0))
    assert len(plain) == 3 and set(plain) - {"1,500 metres", "5,000 metres"}  # a measure may take a made-up value near it


def test_a_quantity_after_a_bound_has_more_than_one_true_option():
    for sentence in ("The blade is at least 60 mm long.", "Neutron stars have a radius on the order of 10 kilometers.",
                     "The basin reaches depths exceeding 4500 meters in some areas."):
        quantity = next(q for q in ("60 mm", "10 kilometers", "4500 meters") if q in sentence)
        assert "bound" in answer_problem(Span(QUANTITY, quantity, sentence), "Thing")
    assert answer_problem(Span(QUANTITY, "10 kilometers", "Its radius is 10 kilometers."), "Thing") is None


def test_a_continents_part_takes_only_continents_parts():
    """Round 47: Kashmir and Inner Mongolia (a country's regions) beside "Southeast Asia"."""
    assert part_of_a_continent("Southeast Asia") and part_of_a_continent("the Western Europe")
    assert not part_of_a_continent("South Africa") and not part_of_a_continent("Kashmir") and not part_of_a_continent("East Timor")
    stats = CorpusStats([], latest_year=2024, definitions=[(i, name, f"{name} is a region.")
                                                           for i, name in enumerate(("Southeast Asia", "East Asia", "Kashmir"))])
    answer = Span("place", "Southeast Asia", "It grows in Southeast Asia.")
    assert same_form(Span("place", "East Asia", "x"), answer, stats) and not same_form(Span("place", "Kashmir", "x"), answer, stats)
    assert same_form(Span("place", "Southeast Asia", "x"), Span("place", "Kashmir", "It lies in Kashmir."), stats)  # one way only


def test_a_place_in_a_persons_name_is_not_asked():
    """Round 47: "Maria Carolina of ___" (Austria) is wording, a style, not a fact."""
    sentence = "He was the brother of Marie Antoinette, Leopold II, Maria Carolina of Austria, and Maria Amalia."
    assert of_a_persons_name(Span("place", "Austria", sentence), ["Marie Antoinette", "Leopold II", "Maria Carolina"])
    assert not of_a_persons_name(Span("place", "Austria", sentence), ["Leopold II"])  # no person's name before "of"


def test_an_unnamed_sources_claim_and_an_official_names_form_are_not_asked():
    """Round 51: "Another source claims it was published … in ___" and "Heidelberg University, officially ___ of Heidelberg"."""
    claim = "Another source claims it was published in a finalized edition in 1605."
    assert "unnamed source" in answer_problem(Span(YEAR, "1605", claim), "Investiture of the Gods")
    assert answer_problem(Span(YEAR, "1605", "It was published in a finalized edition in 1605."), "Investiture of the Gods") is None
    greenland = "It is larger than the area of Tanzania, but smaller than that of Egypt."  # round 56: Libya and Sudan too
    assert "comparison" in answer_problem(Span("place", "Egypt", greenland), "Northeast Greenland National Park")
    assert answer_problem(Span("place", "Egypt", "It lies east of Egypt."), "Sinai") is None
    sikh = "It was the last major region of the Indian subcontinent to be conquered by the British."  # round 54
    assert "fixed name" in answer_problem(Span("group", "Indian", sikh), "Sikh Empire")
    assert answer_problem(Span("group", "Indian", "It was ruled by an Indian dynasty."), "Sikh Empire") is None
    official = "Heidelberg University, officially the Ruprecht Karl University of Heidelberg, is a public research university."
    assert "official form" in answer_problem(Span("organization", "Ruprecht Karl University", official), "Heidelberg University")


def test_a_subject_of_antiquity_is_dated_by_its_lead_or_its_articles_years():
    """Round 50: "Hipparchus was ___ astronomer" with a German, an Italian and a Dutch among the options."""
    assert dated_only_before(ANTIQUITY_ENDS, "Boudica was a queen who led an uprising against Rome in AD 60 or 61.", None)
    assert dated_only_before(ANTIQUITY_ENDS, "Hipparchus was a Greek astronomer.", (-147, -107))  # the lead drops his dates
    assert not dated_only_before(ANTIQUITY_ENDS, "Hipparchus was a Greek astronomer.", None)  # undated: no rule
    gediminas = "Gediminas was Grand Duke of Lithuania from 1316 until his death in 1341."
    assert not dated_only_before(ANTIQUITY_ENDS, gediminas, None) and dated_only_before(MODERN_STATES_FROM, gediminas, None)


def test_a_country_about_a_medieval_subject_or_century_is_not_asked():
    """Rounds 49-55: Slovakia and Belarus among the Gediminids' realms, Bangladesh for Alauddin Khalji's India, "13th-century ___"."""
    stats = CorpusStats([], latest_year=2024, definitions=[(0, "India", "India is a country in South Asia.")])
    gediminas = Setting(lead={"Gediminas": "Gediminas was Grand Duke of Lithuania from 1316 until his death in 1341."}.get)
    invasions = Span("place", "India", "He fended off several Mongol invasions of India.")
    assert "before today's states" in problem_in_its_setting(invasions, [], "Gediminas", gediminas)
    hero = Span("place", "India", "He is a national hero in present-day India.")  # today's states are meant
    assert problem_in_its_setting(hero, [], "Gediminas", gediminas) is None
    born = Span("place", "India", "He was born near Udupi in 13th-century India.")
    assert country_of_the_past(born, "Madhvacharya", stats)
    assert not country_of_the_past(Span("place", "India", "It grew in 20th-century India."), "Cinema", stats)
    assert not country_of_the_past(Span("place", "India", "It is in what is now 13th-century India."), "Place", stats)
    assert not of_a_persons_name(Span("place", "Austria", "Maria Carolina moved to Austria."), ["Maria Carolina"])
    assert not of_a_persons_name(Span("organisation", "Harvard", "I. Bernard Cohen of Harvard wrote it."), ["I. Bernard Cohen"])


def test_a_latin_family_takes_only_latin_families():
    """Round 46: "Wrasse" (a common name; the family is Labridae) beside Bovidae, Canidae and Hylidae."""
    stats = CorpusStats([], latest_year=2024, definitions=[(i, name, f"{name} is a family of animals.")
                                                           for i, name in enumerate(("Bovidae", "Canidae", "Wrasse", "Wales"))])
    answer = Span("organisation", "Bovidae", "They belong to the family Bovidae.")
    assert same_form(Span("organisation", "Canidae", "x"), answer, stats)
    assert not same_form(Span("organisation", "Wrasse", "x"), answer, stats)
    assert taxon_ending("Rosaceae") == "aceae" and taxon_ending("Wales") is None and taxon_ending("Family Bovidae") is None


def test_the_quantity_a_figure_is_given_per_is_not_a_question():
    """Round 45: "12 to 20 grams of hemoglobin in every ___ of blood" offered 70, 90 and 115 mL beside 100 mL."""
    sentence = "A healthy human has 12 to 20 grams of hemoglobin in every 100 mL of blood."
    assert "given per" in answer_problem(Span(QUANTITY, "100 mL", sentence), "Hemoglobin")
    assert "given per" in answer_problem(Span(QUANTITY, "100,000 people", "It had 12 doctors per 100,000 people."), "Health")
    assert answer_problem(Span(QUANTITY, "20 grams", sentence.replace("12 to ", "")), "Hemoglobin") is None  # the figure itself


def test_round_64s_given_names_aliases_and_restated_figures_are_not_asked():
    """Round 64: "Jacob, later given the name ___" (Israel as a country), "a parliament in ___ (Persia)", a light-year
    "equal to exactly ___, which is approximately 9.46 trillion kilometres"."""
    jacob = "Jacob, later given the name Israel, is the third Hebrew patriarch in Judaism."
    assert "name given" in answer_problem(Span("place", "Israel", jacob), "Jacob")
    assert answer_problem(Span("place", "Israel", "Jacob later lived in Israel with his sons."), "Jacob") is None
    persia = "The revolution led to the establishment of a parliament in Iran (Persia), and has been called epoch-making."
    assert "bracket after it" in answer_problem(Span("place", "Iran", persia), "Persian Constitutional Revolution")
    assert answer_problem(Span("place", "Iran", "It led to a parliament in Iran (in 1906)."), "Revolution") is None
    light_year = "It is equal to exactly 9460730472580.8 km, which is approximately 9.46 trillion kilometres."
    assert "gives again" in answer_problem(Span(QUANTITY, "9460730472580.8 km", light_year), "Light-year")
    assert restated("2.04 million", "a city of 2,040,000 people") and not restated("2.04 million", "a metro of 13.2 million")
    assert not restated("0 km", "0 km away")


def test_a_scientist_answer_takes_only_scientists_of_its_science():
    """Rounds 57 and 64: Barbara McClintock (a geneticist) beside Unix's and C's makers, all "scientists" by type."""
    assert science_of("Dennis MacAlistair Ritchie was an American computer scientist. He created C.") == "computer"
    assert science_of("Barbara McClintock was an American scientist and cytogeneticist.") is None
    assert science_of("Werner Heisenberg was a German theoretical physicist and a principal scientist in a program.") is None
    assert science_of(None) is None
    leads = {"Dennis Ritchie": "Dennis Ritchie was an American computer scientist.",
             "Donald Knuth": "Donald Knuth is an American computer scientist and mathematician.",
             "Grace Hopper": "Grace Hopper was an American computer scientist and naval officer.",
             "Ken Thompson": "Ken Thompson is an American computer scientist.",
             "Barbara McClintock": "Barbara McClintock was an American scientist and cytogeneticist."}
    stats = CorpusStats([f"The region held event {i} in 1990." for i in range(100)], latest_year=2024,
                        definitions=[(i, name, lead) for i, (name, lead) in enumerate(leads.items())]
                        + [(10 + i, f"Scientist {i}", f"Scientist {i} was a scientist.") for i in range(10)])
    finder = EntityFinder(stats)
    pool = [stats.as_span(i, "person") for i in (1, 2, 3, 4)]  # Knuth, Hopper, Thompson, McClintock
    tempting = {"Dennis Ritchie": [1.0, 0.0], "Barbara McClintock": [0.8, 0.6]}  # she tempts most
    encode = lambda texts: np.array([tempting.get(t, [1.0, 0.0] if "_" in t else [0.6, 0.8]) for t in texts])  # noqa: E731
    setting = Setting(related=lambda span: pool, linked=NAME_EACH_OTHER, lead=leads.get)
    made, _ = cloze_drafts(80, "C (programming language)", "C is a programming language created in 1972 by Dennis Ritchie.",
                           list, finder, encode, n=1, variants=1, seed=0, setting=setting)
    assert [set(draft.options) for draft, _ in made] == [{"Dennis Ritchie", "Donald Knuth", "Grace Hopper", "Ken Thompson"}]


def test_an_exponent_is_not_a_question():
    """Round 62: "800 kiloparsecs (3×10^___; …)" asked "6 ly" (both readers: notation, malformed options)."""
    sentence = "The two are separated by about 800 kiloparsecs (3×10^6 ly; 2×1019 km) and are moving closer."
    assert "exponent" in answer_problem(Span(QUANTITY, "6 ly", sentence), "Local Group")
    assert "exponent" not in (answer_problem(Span(QUANTITY, "6 ly", "It lies 6 ly away."), "Local Group") or "")


def test_a_margin_of_error_is_not_a_question():
    sentence = "The maximum known depth is 10,935 ± 6 meters at its southern end."
    assert "margin of error" in answer_problem(Span(QUANTITY, "6 meters", sentence), "Mariana Trench")
    assert answer_problem(Span(QUANTITY, "6 meters", "The depth varies by 6 meters."), "Mariana Trench") is None


def test_a_sentence_cut_after_a_titles_abbreviation_is_a_fragment():
    """Round 48: "Released in the UK on 26 May ___, Sgt." (the splitter cut "Sgt. Pepper's")."""
    paragraph = "Released in the UK on 26 May 1967, Sgt. Pepper's was a success."
    assert "fragment" in cut_from_its_paragraph("Released in the UK on 26 May 1967, Sgt.", paragraph)
    assert cut_from_its_paragraph("It was led by Gen.", "It was led by Gen.") is None  # nothing comes after it
    assert cut_from_its_paragraph(paragraph, paragraph) is None


def test_a_number_with_a_unit_after_it_is_no_year():
    """Round 48: "luminosities up to 1039 W" (10^39 flattened by the dump) asked as a year."""
    sentence = "They have luminosities up to 1039 W at radio wavelengths."
    assert "not a year" in answer_problem(Span(YEAR, "1039", sentence), "Radio galaxy")
    assert answer_problem(Span(YEAR, "1999", "In 1999 in Paris, it won."), "Thing") is None  # "in" is no unit


def test_a_number_that_names_a_thing_is_no_year():
    """Round 49: "created DIN standard 1940" asked as a year (both readers: a standard's number)."""
    sentence = "The Association of German Engineers created DIN standard 1940 which defines the Otto engine."
    assert "not a year" in answer_problem(Span(YEAR, "1940", sentence), "Nicolaus Otto")
    assert "not a year" in answer_problem(Span(YEAR, "1812", "It is known as Opus 1812."), "Overture")
    assert answer_problem(Span(YEAR, "1940", "The standard was created in 1940."), "DIN") is None  # a year of a standard
    sentence = "Raipur is ranked 7th in India's Ease of Living Index 2022 and 7th in the Municipal Performance Index 2020."
    assert "not a year" in answer_problem(Span(YEAR, "2020", sentence), "Raipur")  # round 62: an edition's name


def test_a_year_at_the_knowledge_bases_date_is_not_asked():
    """Round 47's "clashes have continued into ___" (2026): with no option after the knowledge base's date, the answer
    at that date, or the year before, would be the latest option (all 14 such questions of the knowledge base were)."""
    stats = CorpusStats([], latest_year=2026)

    def problem(year):
        sentence = f"The clashes continued into {year}."
        return problem_before_distractors(Span(YEAR, str(year), sentence), "Syrian civil war", stats, sentence)
    assert "latest option" in problem(2026) and "latest option" in problem(2025)
    assert problem(2024) is None


def test_no_year_distractor_after_the_knowledge_base_date_and_none_far_off():
    stats, answer = CorpusStats([], latest_year=2024), Span(YEAR, "2019", "It opened in 2019.")
    assert same_form(Span(YEAR, "2021", "x"), answer, stats) and not same_form(Span(YEAR, "2031", "x"), answer, stats)
    assert not same_form(Span(YEAR, "1890", "x"), answer, stats)  # more than a century away
    made_up = [y for y in nearby_values(Span(YEAR, "2023", "x"), np.random.default_rng(0)) if same_form(Span(YEAR, y, ""), answer, stats)]
    assert made_up and all(int(year) <= 2024 for year in made_up)
    assert not same_form(Span(YEAR, "2024", "x"), answer, stats)  # round 54: 2026 read as the future for a merger "formed in ___"


def test_beside_a_round_year_no_exact_one_stands_out():
    stats = CorpusStats([], latest_year=2024)
    moai = Span(YEAR, "1250", "The statues were carved between the years 1250 and 1500.")
    assert not same_form(Span(YEAR, "1249", "x"), moai, stats) and same_form(Span(YEAR, "1260", "x"), moai, stats)
    assert same_form(Span(YEAR, "1249", "x"), Span(YEAR, "1253", "It was built in 1253."), stats)  # an exact answer takes any year
    assert same_form(Span(YEAR, "1903", "x"), Span(YEAR, "1900", "Gamma rays were discovered in 1900."), stats)  # exact, not an estimate
    for seed in range(5):
        years = same_kind(moai, [], "between the years 1250 and 1500.", stats, np.random.default_rng(seed))
        assert all(int(year) % 10 == 0 for year in years)


def test_year_distractors_stay_within_the_paragraph_dates_and_quantities_are_never_half_or_double():
    stats = CorpusStats([], latest_year=2024)
    paragraph = "he played from 1989 to 2006. he won the award as a player in 1998."
    answer = Span(YEAR, "1998", "He won the award as a player in 1998.")
    pool = [Span(YEAR, y, "") for y in ("2024", "2013", "1890", "2001", "1975")]
    for seed in range(5):
        years = same_kind(answer, pool, paragraph, stats, np.random.default_rng(seed))
        assert len(years) == 3 and all(1979 <= int(y) <= 2016 for y in years)  # 1989–2006, ten years either side
    values = nearby_values(Span(QUANTITY, "70,550 square kilometres", "x"), np.random.default_rng(0))
    assert values and not {"35,275 square kilometres", "141,100 square kilometres"} & set(values)
    strait = Span(QUANTITY, "2 km", "The strait is 570 km long and 2 km wide at its narrowest point.")
    pool = [Span(QUANTITY, q, "") for q in ("250 km", "60,440 km", "1 km", "5 km")]
    for seed in range(5):  # round 43: no width a hundred times the answer's
        widths = same_kind(strait, pool, "the strait is 570 km long.", stats, np.random.default_rng(seed))
        assert widths and all(0.2 <= float(w.split()[0].replace(",", "")) <= 20 for w in widths)


def test_distractors_that_fit_the_sentence_and_the_article_come_first():
    answer = Span("place", "Edinburgh", "Scotland's capital is Edinburgh.")
    names = {"Edinburgh": [1.0, 0.0, 0.0], "Oslo": [0.7, 0.0, 0.714], "Glasgow": [0.6, 0.8, 0.0], "Cardiff": [0.6, 0.64, 0.48],
             "Bergen": [0.6, 0.0, 0.8]}
    vectors = {name: np.array(v) for name, v in names.items()}
    ranked, _ = most_tempting(answer, ["Oslo", "Bergen", "Glasgow", "Cardiff"], vectors)
    assert ranked[0] == "Oslo"  # nearest the answer by name alone
    scotland = np.array([0.0, 1.0, 0.0])
    ranked, _ = most_tempting(answer, ["Oslo", "Bergen", "Glasgow", "Cardiff"], vectors, context=scotland)
    assert ranked[:2] == ["Glasgow", "Cardiff"]
    articles = {"Bergen": np.array([0.6, 0.8, 0.0])}  # what its article says outweighs its name
    ranked, _ = most_tempting(answer, ["Oslo", "Bergen", "Glasgow", "Cardiff"], vectors, context=scotland, articles=articles)
    assert ranked.index("Bergen") < ranked.index("Oslo")


def test_a_year_keeps_the_distractors_its_neighbours_wrote_after_the(finder):
    text = "The charter of the league was signed in 1945."
    neighbours = [Span(YEAR, year, f"It was held at the {year} conference.", with_the=True) for year in ("1944", "1946", "1947")]
    made, dropped = cloze_drafts(3, "League charter", text, lambda: neighbours, finder, lambda texts: np.ones((len(texts), 2)),
                                 n=1, variants=1, seed=0)
    [(draft, _)] = made  # "the 1946 conference" does not make 1946 a name that needs "the" in "signed in ___"
    assert draft.answer == "1945" and set(draft.options) - {"1945"} <= {"1944", "1946", "1947"} | {str(y) for y in range(1935, 1956)}


def test_an_approximate_year_or_quantity_is_not_asked():
    for sentence, answer in (("Hammurabi reigned from c. 1792 BC to c. 1750 BC.", "1792"),
                             ("Teaching began around 1088, with guilds of students.", "1088"),
                             ("The city had approximately 1850 houses.", "1850")):
        assert "approximate" in answer_problem(Span(YEAR, answer, sentence), "Babylon")
    assert "approximate" in answer_problem(Span(QUANTITY, "300 km", "The river runs for about 300 km."), "Volga")
    assert answer_problem(Span(YEAR, "1088", "Teaching began in 1088, with guilds of students."), "Bologna") is None
    assert answer_problem(Span(QUANTITY, "300 km", "The river runs for 300 km."), "Volga") is None
    for sentence, answer in (("The supernova was seen in 1842 or 1843.", "1842"), ("It was built in 1842/1843.", "1843")):
        assert "alternative" in answer_problem(Span(YEAR, answer, sentence), "Crab Nebula")
    assert answer_problem(Span(YEAR, "1842", "It was seen in 1842, or so the chronicles say."), "Crab Nebula") is None


def test_a_year_after_a_bound_or_dating_a_ranking_is_not_asked():
    oprah = "By 2007, she was often ranked as the most influential woman in the world."
    assert "bound" in answer_problem(Span(YEAR, "2007", oprah), "Oprah Winfrey")
    assert "bound" in answer_problem(Span(YEAR, "1850", "The line was finished by 1850."), "Railway")
    luoyang = "By the end of 2022, Luoyang Municipality had jurisdiction over 7 municipal districts."  # round 54
    assert "bound" in answer_problem(Span(YEAR, "2022", luoyang), "Luoyang")
    before = "Before 1950, interplanetary space was widely considered to be an empty vacuum."  # round 51: 1942 is true too
    assert "bound" in answer_problem(Span(YEAR, "1950", before), "Interplanetary medium")
    assert answer_problem(Span(YEAR, "1950", "In 1950, space was found to hold a medium."), "Interplanetary medium") is None
    boxer = "He is ranked as such by BoxRec as of May 2026."
    assert "date of a statistic" in answer_problem(Span(YEAR, "2026", boxer), "Sugar Ray Robinson")
    fortune = "Coca-Cola ranked No. 94 in the 2024 Fortune 500 list of the largest United States corporations by revenue."
    assert "date of a statistic" in answer_problem(Span(YEAR, "2024", fortune), "Coca-Cola")  # round 41
    nature = "According to the 2022 Journal Citation Reports, Nature had one of the highest impact factors (50.5)."
    assert "date of a statistic" in answer_problem(Span(YEAR, "2022", nature), "Nature (journal)")  # the edition of a source
    rime = "Published in 1798 in the first edition of Lyrical Ballads, it recounts a sailor's voyage."
    assert answer_problem(Span(YEAR, "1798", rime), "The Rime of the Ancient Mariner") is None
    assert answer_problem(Span(YEAR, "2007", "In 2007, she was named the most influential woman."), "Oprah Winfrey") is None
    assert answer_problem(Span(YEAR, "1850", "The line was finished in May 1850."), "Railway") is None


def test_year_distractors_stay_in_the_decade_the_sentence_names_around_the_answer():
    stats = CorpusStats([], latest_year=2024)
    answer = Span(YEAR, "1964", "It achieved its goals in the 1960s, among them the Civil Rights Act of 1964.")
    assert same_form(Span(YEAR, "1962", "x"), answer, stats) and same_form(Span(YEAR, "1968", "x"), answer, stats)
    assert not same_form(Span(YEAR, "1956", "x"), answer, stats) and not same_form(Span(YEAR, "1971", "x"), answer, stats)
    elsewhere = Span(YEAR, "1975", "Born in the 1940s, he founded the party in 1975.")  # the decade does not hold the answer
    assert same_form(Span(YEAR, "1971", "x"), elsewhere, stats)


def test_no_year_distractor_the_sentence_rules_out():
    stats = CorpusStats([], latest_year=2024)
    answer = Span(YEAR, "1979", "He served from 1971 until his overthrow in 1979.")
    assert same_form(Span(YEAR, "1975", "x"), answer, stats)
    assert not same_form(Span(YEAR, "1965", "x"), answer, stats)  # before he came to power: ruled out by the sentence
    assert not same_form(Span(YEAR, "1971", "x"), answer, stats)


def test_dates_of_statistics_and_places_named_by_their_neighbour_are_not_asked():
    assert "statistic" in answer_problem(Span(YEAR, "2023", "It had 886,040 inhabitants in 2023 over 241 km2."), "Marseille")
    assert "statistic" in answer_problem(Span(YEAR, "2011", "At the 2011 census it had 500 people."), "Marseille")
    assert "statistic" in answer_problem(Span(YEAR, "2020", "It had 13 million residents as of the 2020 United States census."), "Ohio")
    assert answer_problem(Span(YEAR, "1979", "He was overthrown in 1979."), "Idi Amin") is None
    assert "statistic" in answer_problem(Span(YEAR, "2024", "It is the 14th largest state by GDP in 2024."), "Bihar")
    sentence = "It has been ranked as India's 6th cleanest city as per the Swachh Survekshan for the year 2021."
    assert "statistic" in answer_problem(Span(YEAR, "2021", sentence), "Raipur")  # round 63: a ranking's edition
    sentence = "In 1999, the AFI ranked him third among actors; he received the AFI Life Achievement Award in 1980."
    assert answer_problem(Span(YEAR, "1980", sentence), "James Stewart") is None  # the ranking is another clause's
    sentence = "Between the 2014 and 2020 censuses, its metropolitan area grew fast."
    assert "statistic" in answer_problem(Span(YEAR, "2020", sentence), "Toulouse")
    sentence = "In 2021, the official population of Wrocław was 672,545, making it the third-largest city in Poland."
    assert "statistic" in answer_problem(Span(YEAR, "2021", sentence), "Wrocław")  # the figure comes well after the year
    sentence = "In 2019, Burmese was spoken by 42.9 million people globally, including by 32.9 million speakers as a first language."
    assert "statistic" in answer_problem(Span(YEAR, "2019", sentence), "Burmese language")  # past a decimal point
    sentence = "The painting is in the Uffizi Gallery in Florence, Italy."
    assert "names it" in answer_problem(Span("place", "Italy", sentence), "The Birth of Venus")
    assert answer_problem(Span("place", "Florence", sentence), "The Birth of Venus") is None
    pharaoh = "Tutankhamun was a pharaoh of the Eighteenth Dynasty of ancient Egypt."
    assert "ancient civilisation" in answer_problem(Span("place", "Egypt", pharaoh), "Tutankhamun")
    classicism = "It rests on the art and literature of ancient Greece and Rome, with the emphasis on form."
    assert "ancient civilisation" in answer_problem(Span("place", "Rome", classicism), "Classicism")  # round 42: not Milan
    medieval = "It is defined partly by rediscovering the ancient culture developed in Greece and Rome during the Classical period."
    assert "ancient civilisation" in answer_problem(Span("place", "Rome", medieval), "Medieval philosophy")  # round 63
    assert answer_problem(Span("place", "Rome", "Ferries run between Greece and Rome's port."), "X") is None
    assert answer_problem(Span("place", "Egypt", "Tutankhamun's tomb lies in Egypt."), "Tutankhamun") is None
    sentence = "It had an average depth of 21 m (69 ft), and a maximum depth of 25.5 m (84 ft) in 2008."
    assert "statistic" in answer_problem(Span(YEAR, "2008", sentence), "Qinghai Lake")  # round 62: when it was measured
    sentence = "The annual production has risen from about 19 tonnes in 1990 to 35.5 tonnes in 2017."
    assert "statistic" in answer_problem(Span(YEAR, "1990", sentence), "Platinum")
    assert answer_problem(Span(YEAR, "2009", "He set world records in the 100 m in 2009."), "Usain Bolt") is None
    for qualifier in ("Nazi", "British"):  # only Germany was Nazi; "British Bangladesh" was never a name
        sentence = f"He was among the most powerful figures in {qualifier} Germany."
        assert "longer name" in answer_problem(Span("place", "Germany", sentence), "Heinrich Himmler")
    assert answer_problem(Span("place", "Germany", "He was among the most powerful figures in Germany."), "Heinrich Himmler") is None
    assert answer_problem(Span("place", "Germany", "In Germany, he was among the most powerful."), "Heinrich Himmler") is None
    assert answer_problem(Span("place", "West Bengal", "It struck India's West Bengal in 1970."), "1970 Bhola cyclone") is None


def test_a_country_is_not_asked_in_a_sentence_dated_before_todays_states():
    assert dates_named("He ruled from 1829 to 1837.") == [1829, 1837]
    assert dates_named("It was founded c. 509 BC and fell in 476 AD, or AD 480; the 1920s.") == [1920, -509, 476, 480]
    hockey = "He won three Olympic gold medals, in 1928, 1932 and 1936, during an era where Kenya dominated field hockey."
    assert "dated before 1992" in problem_before_distractors(Span("place", "Kenya", hockey), "Dhyan Chand", PEOPLE, hockey)
    kingdom = "The Ghana Empire began in western Mali and ended c. 509 BC."
    assert "dated before 1992" in problem_before_distractors(Span("place", "Mali", kingdom), "Ancient kingdom", PEOPLE, kingdom)
    coalition = "A coalition led by the Russian Empire included Romania, Egypt, and Montenegro."
    assert "dated before" in problem_before_distractors(Span("place", "Egypt", coalition), "Russo-Turkish War (1877–1878)", PEOPLE, coalition)
    assert "dated before" not in (problem_before_distractors(Span("place", "Egypt", coalition), "Russo-Turkish War", PEOPLE, coalition) or "")
    today = "As of 2023, Egypt is the most populous country of the Arab world."
    assert "dated before" not in (problem_before_distractors(Span("place", "Egypt", today), "Cairo", PEOPLE, today) or "")
    lake = "The lake was mapped in Canada in 1850."  # a city, not a country: places of other kinds stay
    cities = CorpusStats([], latest_year=2024, definitions=[(i, f"Town {i}", f"Town {i} is a city in Canada.") for i in range(12)])
    assert "dated before" not in (problem_before_distractors(Span("place", "Town 1", lake.replace("Canada", "Town 1")), "Lake", cities, lake) or "")


def test_distractors_share_the_answer_form():
    stats = PEOPLE
    person = Span("person", "Ian Fleming", "x")
    assert same_form(Span("person", "John Gardner", "x"), person, stats)
    assert not same_form(Span("place", "Paris", "x"), person, stats)  # another kind
    assert not same_form(Span("person", "ian fleming jr", "x"), person, stats)  # capitalised otherwise
    assert not same_form(Span("person", "Gardner", "x"), person, stats)  # a bare surname among full names
    united_states = Span("place", "United States", "x", with_the=True)  # "the" goes into the blank with the names that take it
    assert same_form(Span("place", "Canada", "x"), united_states, stats)
    assert same_form(united_states, Span("place", "Canada", "x"), stats)
    quantity = Span(QUANTITY, "60 mm", "x")
    assert same_form(Span(QUANTITY, "25 mm", "x"), quantity, stats) and not same_form(Span(QUANTITY, "3 kg", "x"), quantity, stats)


def test_no_second_right_answer_paraphrases_and_shared_words_are_refused():
    answer = Span("organisation", "United Nations", "It is an agency of the United Nations.", with_the=True)
    pool = [Span("organisation", text, "x") for text in ("UN Nations Office", "World Bank", "World Bank Group", "NATO", "OECD")]
    bodies = [(30 + i, name, f"The {name} is an intergovernmental organization.")
              for i, name in enumerate(("United Nations", "UN Nations Office", "World Bank", "World Bank Group", "NATO", "OECD"))]
    stats = CorpusStats([], latest_year=2024, definitions=bodies)
    kept = same_kind(answer, [Span(s.kind, s.text, "", with_the=True) for s in pool], "it is an agency of the united nations.",
                      stats, np.random.default_rng(0))
    assert "UN Nations Office" not in kept and {"World Bank", "NATO", "OECD"} <= set(kept)  # shares "nations" with the answer
    # By meaning: a near-synonym (similarity above the band) is never offered, nor two names of one thing.
    vectors = {"United Nations": np.array([1.0, 0.0]), "UN": np.array([0.99, 0.141]), "World Bank": np.array([0.6, 0.8]),
               "World Bank Group": np.array([0.58, 0.815]), "NATO": np.array([0.5, 0.866]), "OECD": np.array([0.4, 0.917])}
    ranked, _ = most_tempting(answer, ["UN", "World Bank", "World Bank Group", "NATO", "OECD"], vectors)
    assert ranked == ["World Bank", "NATO", "OECD"]


def test_options_read_in_place_tell_their_kind(finder):
    readings = finder.read("The statue stands in _____, Brazil.", ["Rio de Janeiro", "Albert Einstein", "1990"])
    assert readings[0].kind == "place" and readings[1].kind == "person" and readings[2].kind == YEAR


def test_a_blank_without_an_article_takes_no_name_that_needs_one(finder):
    text = "Khartoum is the capital of Sudan, on the Nile."
    countries = [finder.stats.as_span(doc_id, "place") for doc_id in (5, 6, 2, 7, 20, 21, 22)]  # United States, Netherlands, Libya, …
    vectors = {name: np.array([0.6, 0.8]) for name in ("Libya", "Canada", "Egypt", "Kenya", "Chad")}
    vectors |= {"United States": np.array([0.7, 0.71]), "Netherlands": np.array([0.7, 0.71]), "Sudan": np.array([1.0, 0.0])}
    encode = lambda texts: np.array([vectors.get(t, np.array([0.0, 1.0])) for t in texts])  # noqa: E731
    [(draft, _)] = cloze_drafts(2, "Khartoum", text, list, finder, encode, n=1, variants=1, seed=0,
                                setting=Setting(related=lambda span: countries, linked=NAME_EACH_OTHER))[0]
    assert "capital of _____," in draft.question  # "capital of United States" would stand out, and "the" would give Sudan away
    assert not {"United States", "Netherlands", "the United States", "the Netherlands"} & set(draft.options)


def test_an_article_before_the_blank_moves_into_it(finder):
    text = "Tiger Woods is an American professional golfer."
    neighbours = [Span("group", g, "x") for g in ("German", "Australian", "Argentine", "Canadian", "Irish")]
    vectors = {t: np.array([1.0, 0.0]) * 0.6 + np.array([0.0, 0.8]) for t in ("American", "German", "Australian", "Argentine", "Canadian", "Irish")}
    vectors["American"] = np.array([1.0, 0.0])
    made, dropped = cloze_drafts(1, "Tiger Woods", text, lambda: neighbours, finder, lambda texts: np.array([vectors.get(t, np.array([0.0, 1.0])) for t in texts]),
                                 n=3, variants=2, seed=0, setting=Setting(linked=NAME_EACH_OTHER))
    [(draft, _)] = made
    assert "is _____ professional golfer" in draft.question and "an American" in draft.options
    assert all(option.split()[0] == ("an" if option.split()[1][0] in "AEIOU" else "a") for option in draft.options)


def _question(text: str, options: list[str], gold: int) -> Question:
    return Question(base_question_id="b", para_id=1, variant=0, question=text, options=options,
                    gold_letter=LETTERS[gold], permutation=[0, 1, 2, 3], statement="", generator="t")


def test_a_sentence_that_ends_on_the_blank_after_a_preposition_is_asked_directly():
    assert direct_question("Yaoundé is the capital city of _____.", "country", "Yaoundé") == "Yaoundé is the capital city of which country?"
    assert (direct_question("It was founded by Usman dan Fodio in _____.", "year", "Sokoto Caliphate")
            == "About Sokoto Caliphate: It was founded by Usman dan Fodio in which year?")
    assert (direct_question("The Spanish–American War was fought in _____.", "year", "Spanish–American War")
            == "The Spanish–American War was fought in which year?")  # the sentence names its subject: no "About"
    assert direct_question("Psycho was released in _____.", "year", "Psycho (1960 film)") == "Psycho was released in which year?"
    assert direct_question("It borders _____ to the east.", "country", "Chad") is None  # the blank mid-sentence
    assert direct_question("It is a city in southern _____.", "country", "Benin City") is None  # after an adjective
    assert direct_question("It flows for _____.", "quantity", "Volga") is None  # "which quantity" asks nothing a person would
    assert direct_question("The Dutch are a _____.", None, "Dutch people") is None  # a group: no kind to name
    assert direct_question("It was designed by _____.", "landscape architect", "Central Park") is None  # read back: one word
    assert direct_question("… the largest tributary of _____.", "river", "Rio Negro") is None  # a cut sentence


def test_the_rubric_reads_a_direct_question_as_its_cloze(finder):
    for cloze in ("It was mapped in _____.", "It was mapped in _____"):
        direct = direct_question(cloze, "year", "Rio Negro")
        assert cloze_in(direct, "Rio Negro") == "It was mapped in _____."
    assert cloze_in('Fill in the blank about Rio Negro: "It was mapped in _____."', "Rio Negro") == "It was mapped in _____."
    assert cloze_in("What is the capital of Sudan?", "Khartoum") is None
    paragraph = "The Rio Negro is the largest left tributary of the Amazon River, which was mapped in 1990."
    options = ["1990", "1985", "1978", "2001"]
    quoted = check(finder, _question('Which year completes this statement about Rio Negro? "It was mapped in _____."', options, 0),
                   "Rio Negro", paragraph)
    direct = check(finder, _question(direct_question("It was mapped in _____.", "year", "Rio Negro"), options, 0), "Rio Negro", paragraph)
    assert direct == quoted and all(direct.values())
    future = _question(direct_question("It was mapped in _____.", "year", "Rio Negro"), ["1990", "1985", "2031", "2001"], 0)
    assert not check(finder, future, "Rio Negro", paragraph)["no_future_year"]


def test_options_are_spaced_alike(finder):
    text = "The Volga flows through the plain for 610\xa0km before it reaches the sea."  # a no-break space, as Wikipedia writes it
    neighbours = [Span(QUANTITY, q, "x") for q in ("702 km", "549 km", "793 km", "480 km")]
    made, _ = cloze_drafts(41, "Volga", text, lambda: neighbours, finder, lambda texts: np.array([[1.0, 0.0]] * len(texts)),
                           n=3, variants=1, seed=0, setting=Setting(linked=NAME_EACH_OTHER))
    [(draft, _)] = made
    assert draft.options[draft.gold] == "610 km" and all("\xa0" not in option for option in draft.options)
    spaced = _question('Fill in the blank about Volga: "It flows for _____."', ["610\xa0km", "702 km", "549 km", "793 km"], 0)
    assert not check(finder, spaced, "Volga", text)["agreement"]


def test_the_rubric_flags_each_fault(finder):
    paragraph = "The Rio Negro is the largest left tributary of the Amazon River, which was mapped in 1990."
    good = _question('Fill in the blank about Rio Negro: "It was mapped in _____."', ["1990", "1985", "1978", "2001"], 0)
    assert all(check(finder, good, "Rio Negro", paragraph).values())
    countries = _question('Fill in the blank about Khartoum: "It is the capital of _____."', ["Sudan", "Libya", "Egypt", "Kenya"], 0)
    assert check(finder, countries, "Khartoum", "It is the capital of Sudan.")["same_defined_type"]
    mixed = _question('Fill in the blank about Khartoum: "It is the capital of _____."', ["Sudan", "Libya", "Africa", "Kenya"], 0)
    assert not check(finder, mixed, "Khartoum", "It is the capital of Sudan.")["same_defined_type"]  # a continent among countries
    leak = _question('Fill in the blank about Rio Negro (Amazon): "The Rio Negro is the largest left tributary of the _____."',
                     ["Amazon River", "Niger River", "West Africa", "North America"], 0)
    verdict = check(finder, leak, "Rio Negro (Amazon)", paragraph)
    assert not verdict["no_title_leak"]
    future = _question('Fill in the blank about Rio Negro: "It was mapped in _____."', ["1990", "1985", "2031", "2001"], 0)
    assert not check(finder, future, "Rio Negro", paragraph)["no_future_year"]
    article = _question('Fill in the blank about Luzon: "It is an _____ of the north."', ["island", "nation", "archipelago", "region"], 0)
    assert not check(finder, article, "Luzon", "It is an island of the north.")["agreement"]
    written = _question('Fill in the blank about Luzon: "It is _____ of the north."', ["an island", "a archipelago", "a cape", "a bay"], 0)
    assert not check(finder, written, "Luzon", "It is an island of the north.")["agreement"]  # "a archipelago"
    fitting = _question('Fill in the blank about Luzon: "It is _____ of the north."', ["an island", "an archipelago", "a cape", "a bay"], 0)
    assert check(finder, fitting, "Luzon", "It is an island of the north.")["agreement"]
    stated = _question('Fill in the blank about Rio Negro: "It was mapped in _____."', ["1985", "1990", "1978", "2001"], 0)
    assert not check(finder, stated, "Rio Negro", paragraph)["no_distractor_in_paragraph"]
    broken = _question('Fill in the blank about Damascus: "Dubbed (the City of _____."', ["Jasmine", "Roses", "Lights", "Gold"], 0)
    assert not check(finder, broken, "Damascus", "Dubbed (the City of Jasmine.")["well_formed"]
    elsewhere = _question('Fill in the blank about Khartoum: "It is the capital of _____."', ["Sudan", "Libya", "Netherlands", "Kenya"], 0)
    assert not check(finder, elsewhere, "Khartoum", "It is the capital of Sudan.")["placed_alike"]  # a European country
    assert check(finder, countries, "Khartoum", "It is the capital of Sudan.")["placed_alike"]
    games = _question('Fill in the blank about Jesse Owens: "He won at the _____ Olympics."', ["1936", "1932", "1934", "1940"], 0)
    assert not check(finder, games, "Jesse Owens", "He won at the 1936 Olympics.")["on_cycle"]  # 1934 held no Games
    latest = _question('Fill in the blank about Summer Olympic Games: "The most recent was held in _____ in Paris."',
                       ["2024", "2020", "2018", "2016"], 0)
    assert not check(finder, latest, "Summer Olympic Games", "The most recent was held in 2024 in Paris.")["on_cycle"]  # the title's cycle
    winter = 'Fill in the blank about Figure skating: "The team event was first included in the Winter Olympics in _____."'
    held = _question(winter, ["2014", "2010", "1994", "2018"], 0)
    skipped = _question(winter, ["2014", "1946", "1950", "1994"], 0)  # on the cycle, but no Winter Games were held then
    assert check(finder, held, "Figure skating", "x")["on_cycle"] and not check(finder, skipped, "Figure skating", "x")["on_cycle"]
    tiny = _question('Fill in the blank about Grotius: "He wrote in exile in _____."', ["France", "Luxembourg", "Spain", "Italy"], 0)
    assert not check(finder, tiny, "Hugo Grotius", "He wrote in exile in France.")["alike_in_size"]  # 153 times smaller
    assert check(finder, countries, "Khartoum", "It is the capital of Sudan.")["alike_in_size"]


def test_names_that_share_only_their_kind_are_different_things():
    assert not same_name("Black Sea", "Mediterranean Sea") and not same_name("Ganges River", "Indus River")
    assert same_name("Amazon", "Amazon River") and same_name("Italy", "Kingdom of Italy") and same_name("Africa", "North Africa")
    span = Span("place", "Mediterranean Sea", "It links the Black Sea and the Mediterranean Sea.")
    assert answer_problem(span, "Sea of Marmara") is None  # "Sea" in the title and the sentence tells nothing
    assert answer_problem(Span("place", "Amazon River", "It feeds the Amazon River."), "Amazon basin") == "the title gives the answer away"


def test_the_moves_into_the_blank_with_the_names_that_take_it():
    span = Span("place", "Soviet Union", "It led to the dissolution of the Soviet Union in 1991.", with_the=True)
    blanked, written = with_article(span, written_with_the([Span("place", "Czech Republic", "", True),
                                                              Span("place", "Russia", "", False)]))
    assert blanked == "the Soviet Union"
    assert [written(o) for o in ("Soviet Union", "Russia", "Czech Republic", "Kingdom of Hungary")] == [
        "the Soviet Union", "Russia", "the Czech Republic", "the Kingdom of Hungary"]  # the last by the form of its name
    group = Span("group", "British", "In 1783 the British monarchy acknowledged it.", with_the=True)
    _, written = with_article(group, {})
    assert [written(o) for o in ("British", "Spanish")] == ["the British", "the Spanish"]  # an adjective: all keep "the"
    year = Span(YEAR, "2023", "He was knighted in the 2023 Birthday Honours.")
    _, written = with_article(year, {})
    assert [written(o) for o in ("2023", "2019")] == ["the 2023", "the 2019"]  # so is a year


def test_the_before_a_name_that_modifies_a_noun_stays_with_every_option():
    definite = written_with_the([Span("place", "Moscow", "", False), Span("place", "Netherlands", "", True)])
    trials = Span("place", "Moscow", "Stalin launched show trials known as the Moscow trials.", with_the=True)
    blanked, written = with_article(trials, definite)
    assert blanked == "the Moscow"
    assert [written(o) for o in ("Moscow", "Kazan", "Netherlands")] == ["the Moscow", "the Kazan", "the Netherlands"]
    listed = Span("place", "Hawaii", "Examples include the Hawaii, Iceland, and Yellowstone hotspots.", with_the=True)
    assert with_article(listed, {})[1]("Texas") == "the Texas"
    kept = Span("place", "Netherlands", "Trade with the Netherlands grew.", with_the=True)
    assert [with_article(kept, definite)[1](o) for o in ("Netherlands", "Belgium")] == ["the Netherlands", "Belgium"]
    administration = Span("person", "Kennedy", "It was the Kennedy administration's first crisis.", with_the=True)
    assert [with_article(administration, {})[1](o) for o in ("Kennedy", "Nixon")] == ["the Kennedy", "the Nixon"]
    # cloze_drafts withholds a place there instead (test_a_place_inside_a_longer_name_is_not_asked): "the Liberia baboon" is none


def test_a_name_its_own_article_writes_with_the_takes_the_in_the_blank():
    stats = CorpusStats([], definitions=[
        (1, "Middle East", "The Middle East is a geopolitical region encompassing the Arabian Peninsula."),
        (2, "Philippines", "The Philippines, officially the Republic of the Philippines, is an archipelagic country."),
        (3, "Iran", "Iran, officially the Islamic Republic of Iran, is a country in West Asia."),
        (4, "Soviet Union", "The Union of Soviet Socialist Republics, commonly known as the Soviet Union, was a country.")])
    found = [Span("place", "Middle East", "", False), Span("place", "Philippines", "", False), Span("place", "Iran", "", False),
             Span("place", "Soviet Union", "", True), Span("place", "Soviet Union", "", True), Span("place", "Soviet Union", "", False)]
    assert written_with_the(found) == {"Middle East": False, "Philippines": False, "Iran": False, "Soviet Union": True}
    assert written_with_the(found, stats) == {"Middle East": True, "Philippines": True, "Iran": False, "Soviet Union": True}
    gold = Span("place", "Central Asia", "Apples originated in the Central Asia of antiquity.", with_the=True)
    _, written = with_article(gold, written_with_the(found, stats))
    assert [written(o) for o in ("Middle East", "Iran", "Philippines")] == ["the Middle East", "Iran", "the Philippines"]
    assert takes_the("Middle East", written_with_the(found, stats)) and not takes_the("Middle East", written_with_the(found))
    assert takes_the("Rhine River", {}) and not takes_the("Iran", written_with_the(found, stats))


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


PLACES = CorpusStats([], latest_year=2024, definitions=[
    (1, "Sudan", "Sudan is a country in Northeast Africa."), (2, "Eritrea", "Eritrea is a country in Northeast Africa."),
    (3, "Mauritania", "Mauritania is a country in Northwest Africa."), (4, "Norway", "Norway is a Nordic country in Northern Europe."),
    (5, "Scotland", "Scotland is a country that is part of the United Kingdom."), (6, "Tuvalu", "Tuvalu is a country."),
    (7, "Wales", "Wales is a country that is part of the United Kingdom."),
    (8, "Henan", "Henan is a province of China."), (9, "Yunnan", "Yunnan is a province of China."),
    (10, "Hunan Province", "Hunan Province is a province of China.")])


def test_distractors_are_placed_where_the_answer_is():
    sudan, scotland = Span("place", "Sudan", "x"), Span("place", "Scotland", "x")
    assert same_form(Span("place", "Mauritania", "x"), sudan, PLACES)  # both in Africa
    assert not same_form(Span("place", "Norway", "x"), sudan, PLACES)  # a country, but in Europe
    assert not same_form(Span("place", "Tuvalu", "x"), sudan, PLACES)  # its article does not say where it is
    assert same_form(Span("place", "Wales", "x"), scotland, PLACES) and not same_form(Span("place", "Norway", "x"), scotland, PLACES)
    assert same_form(Span("place", "Norway", "x"), Span("place", "Tuvalu", "x"), PLACES)  # the answer's article says nowhere: no rule
    assert placed_alike(frozenset({"Indian", "Maharashtra"}), frozenset({"Gujarat", "India"})) > 0  # "Indian" and "India" meet
    assert placed_alike(frozenset({"Northern Europe"}), frozenset({"Northeast Africa"})) == 0  # compass words are no place
    assert placed_alike(frozenset({"Mediterranean Sea"}), frozenset({"Caribbean Sea"})) == 0  # nor kind words
    vectors = {"Sudan": np.array([1.0, 0.0]), "Mauritania": np.array([0.6, 0.8]), "Eritrea": np.array([0.5, 0.866]),
               "Norway": np.array([0.55, 0.835])}
    ranked, _ = most_tempting(sudan, ["Mauritania", "Eritrea"], vectors)
    assert ranked == ["Mauritania", "Eritrea"]  # nearer the answer's vector
    ranked, _ = most_tempting(sudan, ["Mauritania", "Eritrea"], vectors, stats=PLACES)
    assert ranked == ["Eritrea", "Mauritania"]  # "Northeast Africa" shares more of where Sudan is than "Northwest Africa"


def test_neighbours_the_articles_name_are_offered_first():
    leads = {"Spain": "Spain is a country in Southwestern Europe, bordered by Portugal and France.",
             "Portugal": "Portugal is a country on the Iberian Peninsula; Spain is its only neighbour.",
             "Morocco": "Morocco faces Spain across the Strait of Gibraltar.",
             "Niger": "Niger is a landlocked country in West Africa."}
    names = ["Poland", "Portugal", "Morocco", "France", "Nigeria"]
    assert links_between("Spain", names, leads.get) == [0, 2, 1, 1, 0]  # Poland's article (none here) and Spain's ignore each other
    assert links_between("Niger", ["Nigeria"], {"Nigeria": "Nigeria borders the Niger-Benue trough."}.get) == [0]  # not a whole name
    spain = Span("place", "Spain", "x")
    vectors = {"Spain": np.array([1.0, 0.0]), "Poland": np.array([0.7, 0.714]), "Portugal": np.array([0.5, 0.866]),
               "Morocco": np.array([0.4, 0.917]), "Italy": np.array([0.6, 0.8])}
    ranked, _ = most_tempting(spain, ["Poland", "Italy", "Portugal", "Morocco"], vectors)
    assert ranked == ["Poland", "Italy", "Portugal", "Morocco"]  # by vectors alone
    ranked, _ = most_tempting(spain, ["Poland", "Italy", "Portugal", "Morocco"], vectors, linked=[0, 0, 2, 1])
    assert ranked == ["Portugal", "Morocco", "Poland", "Italy"]
    # Where the sentence says what borders what, only linked names may stand (not Uruguay for Colombia's northwest).
    assert about_borders("Colombia is bordered by Venezuela to the east and _____ to the northwest.")
    assert about_borders("It is a tripoint of three countries.") and not about_borders("Spain won the match.")
    assert about_borders("The North Sea lies between Great Britain, Denmark and _____.")
    assert about_borders("It has a coastline along the Bay of Bengal.") and about_borders("It is bounded by _____ to the northeast.")
    assert not about_borders("The treaty was signed between Spain and _____.")
    assert neighbours_only(["Poland", "Portugal", "Morocco"], [0, 2, 1]) == (["Portugal", "Morocco"], [2, 1])


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


def test_a_name_that_carries_its_kind_stands_only_among_names_that_do():
    henan = Span("place", "Henan", "x")
    assert same_form(Span("place", "Yunnan", "x"), henan, PLACES)
    assert not same_form(Span("place", "Hunan Province", "x"), henan, PLACES)  # "Province" gives the odd one out
    assert not same_form(henan, Span("place", "Hunan Province", "x"), PLACES)


def test_a_year_on_a_cycle_takes_distractors_on_it():
    stats = CorpusStats([], latest_year=2024)
    games = Span(YEAR, "1928", "He won gold medals at the 1928, 1932 and 1936 Olympics.")
    assert year_cycle(games) == 4
    assert same_form(Span(YEAR, "1924", "x"), games, stats) and not same_form(Span(YEAR, "1922", "x"), games, stats)
    made_up = nearby_values(games, np.random.default_rng(0))
    assert made_up and all((int(y) - 1928) % 4 == 0 for y in made_up)
    assert year_cycle(Span(YEAR, "1966", "England won the World Cup in 1966.")) == 4
    assert year_cycle(Span(YEAR, "2006", "It hosted games of the 1974 and 2006 FIFA World Cups.")) == 4  # round 56: 1995, 2011
    assert year_cycle(Span(YEAR, "1982", "Connes was awarded the Fields Medal in 1982.")) == 4  # round 69: 1976, 1987, 1989
    assert year_cycle(Span(YEAR, "1850", "It was founded in 1850 and rebuilt in 1870.")) == 1  # one other year: no cycle
    assert year_cycle(Span(YEAR, "1850", "Founded in 1850, it was rebuilt in 1854 and again in 1857.")) == 1
    latest = Span(YEAR, "2024", "The most recent was held in 2024 in Paris.")  # the Games are named only by the article's title
    assert year_cycle(latest) == 1 and year_cycle(latest, "Summer Olympic Games") == 4
    assert not same_form(Span(YEAR, "2018", "x"), latest, stats, "Summer Olympic Games") and same_form(Span(YEAR, "2018", "x"), latest, stats)
    assert all((int(y) - 2024) % 4 == 0 for y in nearby_values(latest, np.random.default_rng(0), "Summer Olympic Games"))


def test_a_presidential_election_in_a_leap_year_keeps_the_cycle():
    """Round 50: 1865, 1871 and 1881 beside Greeley's 1872 presidential run (not election years)."""
    greeley = Span(YEAR, "1872", "He was the unsuccessful candidate in the 1872 presidential election against President Grant.")
    assert year_cycle(greeley) == 4
    assert year_cycle(Span(YEAR, "1995", "She won the 1995 presidential election.")) == 1  # not the United States' cycle
    assert year_cycle(Span(YEAR, "1872", "He was elected mayor in 1872.")) == 1


def test_a_year_a_name_carries_is_not_asked():
    """Round 50: "an outbreak in Wuhan in December ___" in "COVID-19 pandemic": the name gives 2019 away."""
    sentence = "The global COVID-19 pandemic began with an outbreak in Wuhan, China, in December 2019."
    assert "gives it away" in answer_problem(Span(YEAR, "2019", sentence), "COVID-19 pandemic")
    assert "gives it away" in answer_problem(Span(YEAR, "2019", "Its first outbreak was in 2019."), "COVID-19")  # by the title
    assert answer_problem(Span(YEAR, "2020", "It spread worldwide in 2020."), "COVID-19 pandemic") is None


def test_a_year_of_the_games_takes_only_years_they_were_held():
    stats = CorpusStats([], latest_year=2024)
    winter = Span(YEAR, "2014", "The team event was first included in the Winter Olympics in 2014.")
    assert same_form(Span(YEAR, "2010", "x"), winter, stats) and same_form(Span(YEAR, "1994", "x"), winter, stats)
    assert not same_form(Span(YEAR, "1946", "x"), winter, stats) and not same_form(Span(YEAR, "1950", "x"), winter, stats)
    assert 1992 in games_held(winter) and 1996 not in games_held(winter)  # the Winter Games moved in 1994
    medals = Span(YEAR, "1904", "The tradition of awarding medals began in 1904.")
    assert not same_form(Span(YEAR, "1916", "x"), medals, stats, "Summer Olympic Games")  # the war years held none
    assert same_form(Span(YEAR, "1916", "x"), medals, stats)  # no Games named: any year on no cycle
    made_up = [int(y) for y in nearby_values(medals, np.random.default_rng(0), "Summer Olympic Games")]
    assert {1900, 1908} <= set(made_up) and all(abs(y - 1904) < 30 and (y - 1904) % 4 == 0 for y in made_up)  # not 1972
    assert games_held(Span(YEAR, "1999", "He was named Athlete of the Century by the International Olympic Committee in 1999.")) == set()


def test_year_distractors_stay_on_the_answers_side_of_the_decades_the_sentence_names():
    stats = CorpusStats([], latest_year=2024)
    answer = Span(YEAR, "2005", "The conflict escalated in the 1990s but decreased from 2005 onward.")
    assert same_form(Span(YEAR, "2002", "x"), answer, stats) and same_form(Span(YEAR, "2009", "x"), answer, stats)
    assert not same_form(Span(YEAR, "1991", "x"), answer, stats) and not same_form(Span(YEAR, "1983", "x"), answer, stats)
    before = Span(YEAR, "1953", "He started singing in 1953, rising to prominence in the 1960s.")
    assert same_form(Span(YEAR, "1956", "x"), before, stats) and not same_form(Span(YEAR, "1968", "x"), before, stats)


def test_a_name_used_as_another_kind_than_its_article_is_not_asked():
    stats = CorpusStats([], latest_year=2024, definitions=[(i, f"Land{i}", f"Land{i} is a country in Oceania.") for i in range(12)]
                        + [(99, "Tonga", "Tonga is a country in Polynesia.")])
    assert kind_problem(Span("place", "Tonga", "Lusaka lies in Tonga."), stats) is None
    assert "article is about a country" in kind_problem(Span("language", "Tonga", "Tonga is spoken in Lusaka."), stats)


def test_year_distractors_stay_on_the_answers_side_of_the_years_that_bound_the_subject():
    text = "Adolf Hitler (20 April 1889 – 30 April 1945) was a dictator. He became chancellor in 1933."
    assert bounding_years("Adolf Hitler", text) == {1889, 1945}
    assert bounding_years("Indian Rebellion of 1857", "It began (in May) as a mutiny.") == {1857}
    assert bounding_years("Paris", "Paris (French pronunciation) is a city. It grew after 1850 and 1900.") == set()
    assert bounding_years("George III", "George III was King from 25 October 1760 until his death in 1820.") == {1820}
    assert bounding_years("Zhu Xi", "Zhu Xi taught at Mount Lu. He died in 1200 at his home.") == {1200}
    assert bounding_years("Adolf Hitler", "He was dictator from 1933 until his suicide in 1945.") == {1945}
    assert bounding_years("Vertigo (film)", "Vertigo is a 1958 American psychological thriller film.") == {1958}  # a work's year
    assert bounding_years("Dracula", "Dracula is an 1897 Gothic horror novel by Irish author Bram Stoker.") == {1897}
    assert bounding_years("Paris", "Paris is a city. In 1958 it was a 1958 host.") == set()  # only the first sentence says what it is
    answer = Span(YEAR, "1933", "He became chancellor in 1933.")
    pool = [Span(YEAR, y, "") for y in ("1925", "1938", "1944", "1948", "1951", "1887")]
    stats = CorpusStats([], latest_year=2024)
    kept = same_kind(answer, pool, text.lower(), stats, np.random.default_rng(0), frozenset({1889, 1945}))
    assert len(kept) == 3 and all(1889 < int(y) < 1945 for y in kept)  # none after his death, none before his birth
    after_1930 = [same_kind(answer, pool, text.lower(), stats, np.random.default_rng(seed), frozenset({1930})) for seed in range(20)]
    unbounded = [same_kind(answer, pool, text.lower(), stats, np.random.default_rng(seed)) for seed in range(20)]
    assert all(int(y) > 1930 for kept in after_1930 for y in kept)
    assert any(int(y) <= 1930 for kept in unbounded for y in kept)  # the bound, not chance, kept them out


def test_a_name_that_its_article_places_in_the_answer_gives_the_answer_away():
    stats = CorpusStats([], latest_year=2024, definitions=[
        (1, "Tang dynasty", "The Tang dynasty was an imperial dynasty of China that ruled from 618 to 907."),
        (2, "China", "China is a country in East Asia."),
        (3, "Zambia", "Zambia is a landlocked country in Southern Africa, bordered by Zimbabwe and Botswana."),
        (4, "Zimbabwe", "Zimbabwe is a landlocked country in Southern Africa, bordered by Zambia and Botswana."),
        (5, "Chang'an", "Chang'an is an ancient capital of China."),
        (6, "Yunnan", "Yunnan is a province in Southwestern China.")])
    sentence = "The An Lushan rebellion was a civil war in China at the midpoint of the Tang dynasty."
    assert "Tang dynasty" in placed_by_the_question(Span("place", "China", sentence), "An Lushan rebellion", stats)
    assert placed_by_the_question(Span("group", "Chinese", sentence.replace("China", "Chinese")), "An Lushan rebellion", stats)
    kunming = "Kunming is the capital of the province of Yunnan in China."  # round 45: a region of the answer is in it
    assert "Yunnan" in placed_by_the_question(Span("place", "China", kunming), "Kunming", stats)
    # The title is what the question asks about: where it lies is the fact asked, not a give-away.
    assert placed_by_the_question(Span("place", "China", "Chang'an was a capital of China."), "Chang'an", stats) is None
    # Neighbours name each other: Zimbabwe does not give Zambia away.
    bordered = "Botswana borders Zimbabwe and Zambia."
    assert placed_by_the_question(Span("place", "Zambia", bordered), "Botswana", stats) is None
    # Another place of the same continent is no give-away: "South Africa" is not "Southern Africa".
    assert placed_by_the_question(Span("place", "South Africa", "Zambia lies north of South Africa."), "Botswana", stats) is None


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


LANDS = ["Canada", "China", "Austria", "Australia", "Romania", "Portugal", "Mongol Empire", "Mongolia", "India", "Indonesia"]


def test_a_peoples_word_names_its_land():
    found = {word: homeland_of(word, LANDS) for word in ("canadian", "chinese", "austrian", "australian", "mongol", "mongolian",
                                                         "indian", "french", "american", "romantic", "anglo", "portuguese")}
    assert found == {"canadian": "Canada", "chinese": "China", "austrian": "Austria", "australian": "Australia",
                     "mongol": "Mongol Empire", "mongolian": "Mongolia", "indian": "India", "french": "france",
                     "american": "united states", "romantic": None, "anglo": None, "portuguese": "portugal"}


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


def test_a_place_in_a_sentence_about_borders_takes_only_linked_names():
    """Every country here lies in Northeast Africa with Sudan, near it by the map rule, but only
    those linked to it can be its neighbour: the border rule stays stricter than the map rule."""
    countries = ("Sudan", "Egypt", "Ethiopia", "Eritrea", "Chad", "Kenya")
    elsewhere = ("Spain", "Poland", "Italy", "Norway", "Greece")  # enough countries for a kind worth asking about
    finder = EntityFinder(CorpusStats(CORPUS, latest_year=2024, definitions=[
        *[(i, name, f"{name} is a country in Northeast Africa.") for i, name in enumerate(countries)],
        *[(10 + i, name, f"{name} is a country in Europe.") for i, name in enumerate(elsewhere)]]))
    text = "Khartoum is the capital of Sudan, which borders Egypt."
    pool = [finder.stats.as_span(doc_id, "place") for doc_id in (2, 3, 4, 5)]  # Ethiopia, Eritrea, Chad, Kenya
    vectors = {name: np.array([0.6, 0.8]) for name in countries} | {"Sudan": np.array([1.0, 0.0])}
    encode = lambda texts: np.array([vectors.get(t, np.array([0.0, 1.0])) for t in texts])  # noqa: E731
    neighbours = {"Ethiopia", "Eritrea"}  # linked here by decree; Chad and Kenya only near on the map
    linked = lambda answer, names: [2 if n in neighbours else 0 for n in names]  # noqa: E731
    made, dropped = cloze_drafts(9, "Nile", text, list, finder, encode, n=3, variants=1, seed=0,
                                 setting=Setting(related=lambda span: pool, linked=linked))
    assert not [draft for draft, _ in made if draft.answer == "Sudan"]
    assert ("Sudan", "a sentence about borders, and fewer than three distractors linked to the answer by their articles") in dropped
    neighbours.add("Chad")
    made, _ = cloze_drafts(9, "Nile", text, list, finder, encode, n=3, variants=1, seed=0,
                           setting=Setting(related=lambda span: pool, linked=linked))
    assert [set(draft.options) for draft, _ in made if draft.answer == "Sudan"] == [{"Sudan", "Ethiopia", "Eritrea", "Chad"}]


def test_a_landlocked_place_is_no_distractor_by_the_sea():
    assert about_the_sea("It held the coasts of present-day Montenegro and Albania.") and about_the_sea("maritime borders in the Gulf")
    assert about_the_sea("Novaya Zemlya is an archipelago in northern Russia.")  # round 35: no Belarus
    assert about_the_sea("Sakhalin is an island in Northeast Asia which is a part of Russia.")  # round 41: no Kazakhstan
    assert about_the_sea("There is a population in the waters off Chile.")  # round 49: no Bolivia
    assert not about_the_sea("More than 100 peaks exceed 7,000 metres above sea level.") and not about_the_sea("It borders Hungary.")
    assert landlocked("Serbia, officially the Republic of Serbia, is a landlocked country in Southeastern Europe. It borders Hungary.")
    assert not landlocked("South Africa is a country. It surrounds the landlocked Lesotho.") and not landlocked(None)
    countries = ("Montenegro", "Croatia", "Albania", "Greece", "Serbia", "Kosovo")
    finder = EntityFinder(CorpusStats(CORPUS, latest_year=2024, definitions=[
        *[(i, name, f"{name} is a country in Southeast Europe.") for i, name in enumerate(countries)],
        *[(10 + i, name, f"{name} is a country in Europe.") for i, name in enumerate(("Spain", "Poland", "Italy", "Norway"))]]))
    leads = {name: f"{name} is a {'landlocked ' if name in ('Serbia', 'Kosovo') else ''}country in Southeast Europe." for name in countries}
    pool = [finder.stats.as_span(doc_id, "place") for doc_id in range(1, 6)]
    near = {"Montenegro": [1.0, 0.0], "Serbia": [0.8, 0.6], "Kosovo": [0.8, 0.6]}  # the landlocked ones tempt most
    encode = lambda texts: np.array([near.get(t, [1.0, 0.0] if "_" in t else [0.6, 0.8]) for t in texts])  # noqa: E731

    def options(para_id, text, title="Venice"):  # the finder keeps a paragraph's spans by its id
        made, _ = cloze_drafts(para_id, title, text, list, finder, encode, n=1, variants=1, seed=0,
                               setting=Setting(related=lambda span: pool, linked=NAME_EACH_OTHER, lead=leads.get))
        return [set(draft.options) for draft, _ in made]
    by_sea, inland = options(9, "It ruled the coasts of present-day Montenegro as well as islands."), options(10, "It ruled Montenegro for a time.")
    assert len(by_sea) == 1 and not by_sea[0] & {"Serbia", "Kosovo"}
    assert len(inland) == 1 and {"Serbia", "Kosovo"} <= inland[0]  # inland, the nearest by their vectors stay
    [in_a_sea] = options(12, "It is bordered by Montenegro and Italy.", title="Ionian Sea")  # round 44: the Black Sea's "It"
    assert not in_a_sea & {"Serbia", "Kosovo"}
    leads["Montenegro"] = "Montenegro is a landlocked country."  # were the answer landlocked, the sea would be another's
    assert {"Serbia", "Kosovo"} <= options(11, "It bordered Montenegro, Albania and the Ionian Sea.")[0]


def test_a_country_takes_only_names_linked_to_it_and_a_city_any_near_on_the_map():
    countries = ("Sudan", "Egypt", "Ethiopia", "Eritrea", "Chad", "Kenya")
    cities = ("Khartoum", "Cairo", "Addis Ababa", "Asmara", "Nairobi", "Kampala")
    elsewhere = ("Spain", "Poland", "Italy", "Norway", "Greece", "Madrid", "Warsaw", "Rome", "Oslo", "Athens")
    finder = EntityFinder(CorpusStats(CORPUS, latest_year=2024, definitions=[
        *[(i, name, f"{name} is a country in Northeast Africa.") for i, name in enumerate(countries)],
        *[(10 + i, name, f"{name} is a city in Northeast Africa.") for i, name in enumerate(cities)],
        *[(20 + i, name, f"{name} is a {'country' if i < 5 else 'city'} in Europe.") for i, name in enumerate(elsewhere)]]))
    text = "The Blue Nile rises in Ethiopia and meets the White Nile at Khartoum."
    pool = [finder.stats.as_span(doc_id, "place") for doc_id in (0, 1, 3, 4, 5, 11, 13, 14, 15)]
    encode = lambda texts: np.array([[1.0, 0.0] if t in ("Ethiopia", "Khartoum") else [0.6, 0.8] for t in texts])  # noqa: E731
    neighbours = {"Sudan", "Eritrea"}  # linked to Ethiopia by decree; the rest only near on the map
    linked = lambda answer, names: [2 if n in neighbours else 0 for n in names]  # noqa: E731

    def drafts():
        return cloze_drafts(9, "Nile", text, list, finder, encode, n=3, variants=1, seed=0,
                            setting=Setting(related=lambda span: [s for s in pool if finder.stats.type_of(s.text) == finder.stats.type_of(span.text)],
                                            linked=linked))
    made, dropped = drafts()
    assert ("Ethiopia", "a country, and fewer than three distractors linked to the answer by their articles") in dropped
    [city] = [set(draft.options) - {"Khartoum"} for draft, _ in made if draft.answer == "Khartoum"]
    assert len(city) == 3 and city <= {"Cairo", "Asmara", "Nairobi", "Kampala"}  # none linked: near on the map is enough for a city
    neighbours.add("Kenya")
    made, _ = drafts()
    assert [set(draft.options) for draft, _ in made if draft.answer == "Ethiopia"] == [{"Ethiopia", "Sudan", "Eritrea", "Kenya"}]


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


@pytest.mark.parametrize(("sentence", "answer", "indefinite", "article"), [
    ("It is an Atlantic–Congo language.", "Atlantic–Congo", "an", "an"),
    ("A Dutch painter lived in the Hague.", "Dutch", "A", "A"),
    ("The Hague is the Dutch seat.", "Dutch", None, "the"),
    ("Then Dutch painters came.", "Dutch", None, None),      # "Then" ends in "the…" but is no article
    ("a banana and the Nile", "Nile", None, "the"),          # only the article right before the answer counts
    ("Ghana, a Ghana", "Ghana", "a", "a"),                   # the first mention has none, the second has one
])
def test_the_article_right_before_an_answer_is_found(sentence, answer, indefinite, article):
    span = Span("place", answer, sentence)
    assert article_before(span, _INDEFINITE) == indefinite
    assert article_before(span, _ARTICLE_WORD) == article
    # what one regex per answer found, before article_before replaced it
    assert bool(indefinite) == bool(re.search(rf"\b[Aa]n? {re.escape(answer)}", sentence))
    found = re.search(rf"\b([Aa]n?|[Tt]he) {re.escape(answer)}", sentence)
    assert article == (found.group(1) if found else None)


PAINTERS = [(200 + i, name, f"{name} ({born}–{died}) was a {people} painter.") for i, (name, born, died, people) in enumerate((
    ("Vincent van Gogh", 1853, 1890, "Dutch"), ("Nicolas Poussin", 1594, 1665, "French"), ("Claude Monet", 1840, 1926, "French"),
    ("Edgar Degas", 1834, 1917, "French"), ("Mary Cassatt", 1844, 1926, "American"), ("Paul Gauguin", 1848, 1903, "French"),
    ("Gustav Klimt", 1862, 1918, "Austrian"), ("Henri Matisse", 1869, 1954, "French"), ("Pieter Bruegel", 1525, 1569, "Flemish"),
    ("Georges Seurat", 1859, 1891, "French"), ("Paul Signac", 1863, 1935, "French"), ("Pierre Bonnard", 1867, 1947, "French")))]


def test_a_person_the_knowledge_base_cannot_date_stands_only_beside_a_modern_answer():
    """Round 51: Habermas (whose article in the knowledge base names no year) beside Kant as Schopenhauer's source."""
    dated = {"Immanuel Kant": (1724, 1804), "Friedrich Engels": (1820, 1895), "Stanley Kubrick": (1928, 1999)}
    setting = Setting(years_of=dated.get)
    assert not of_the_answers_time("Jürgen Habermas", (1724, 1804), None, setting)
    assert of_the_answers_time("Friedrich Engels", (1800, 1860), None, setting)
    assert of_the_answers_time("Jürgen Habermas", (1928, 1999), None, setting)  # beside a modern answer: kept
    assert of_the_answers_time("Jürgen Habermas", None, None, setting)  # an undated answer: nothing to compare


def test_a_lifespan_bounds_the_subject_and_keeps_people_to_their_era():
    assert lifespan("Nicolas Poussin (June 1594 – 19 November 1665) was a painter.") == (1594, 1665)
    assert lifespan("Paris (French: [paʁi]) is a city.") is None and lifespan("He was born (in 1950) there.") is None
    assert contemporaries((1853, 1890), (1840, 1926)) and contemporaries((1853, 1890), (1900, 1950))  # 10 years apart
    assert not contemporaries((1853, 1890), (1594, 1665)) and not contemporaries((1594, 1665), (1853, 1890))
    assert contemporaries((1853, 1890), None)  # unknown: no reason to refuse
    finder = EntityFinder(CorpusStats(CORPUS, latest_year=2024, definitions=PAINTERS))
    leads = {name: lead for _, name, lead in PAINTERS}
    painters = [finder.stats.as_span(doc_id, "person") for doc_id, _, _ in PAINTERS]
    vectors = {name: np.array([0.6, 0.8]) for _, name, _ in PAINTERS} | {"Nicolas Poussin": np.array([0.7, 0.71]),
                                                                         "Pieter Bruegel": np.array([0.69, 0.72])}
    vectors["Paul Gauguin"] = np.array([1.0, 0.0])
    encode = lambda texts: np.array([vectors.get(t, np.array([0.0, 1.0])) for t in texts])  # noqa: E731
    text = "Hokusai's prints influenced Paul Gauguin in Paris."
    options = {}
    for known in (True, False):
        setting = Setting(related=lambda span: painters, linked=NAME_EACH_OTHER, lead=lambda name: leads.get(name) if known else None)
        [(draft, _)] = cloze_drafts(92, "Hokusai", text, list, finder, encode, n=1, variants=1, seed=0, setting=setting)[0]
        options[known] = draft.options
    assert "Paul Gauguin" in options[True] and not {"Nicolas Poussin", "Pieter Bruegel"} & set(options[True])
    assert {"Nicolas Poussin", "Pieter Bruegel"} & set(options[False])  # the nearest by their vectors, but for their era


def test_a_person_whose_own_article_gives_no_dates_takes_distractors_of_the_sentences_era():
    """Round 33: Queen Victoria, Elizabeth I and Mary I as whom Louis XVI married in 1770."""
    assert era_of("Victoria was Queen of the United Kingdom from 20 June 1837 until her death on 22 January 1901.") == (1837, 1901)
    assert era_of("Nicolas Poussin (June 1594 – 19 November 1665) was a painter.") == (1594, 1665)
    assert years_spanned("In 1770, he married Marie Antoinette.") == (1770, 1770) and years_spanned("He married her.") is None
    assert era_of("Gerald Ford was the 38th president of the U.S. from 1974 to 1977.") == (1974, 1977)  # an office, for want of a life
    finder = EntityFinder(CorpusStats(CORPUS, latest_year=2024, definitions=PAINTERS))
    leads = {name: lead for _, name, lead in PAINTERS if name != "Paul Gauguin"}  # the answer's own article gives no dates
    painters = [finder.stats.as_span(doc_id, "person") for doc_id, _, _ in PAINTERS]
    vectors = {name: np.array([0.6, 0.8]) for _, name, _ in PAINTERS} | {"Nicolas Poussin": np.array([0.7, 0.71]),
                                                                         "Pieter Bruegel": np.array([0.69, 0.72])}
    vectors["Paul Gauguin"] = np.array([1.0, 0.0])
    encode = lambda texts: np.array([vectors.get(t, np.array([0.0, 1.0])) for t in texts])  # noqa: E731
    options = {}
    for para_id, dated, text in ((95, True, "Hokusai's prints influenced Paul Gauguin in Paris in 1888."),
                                 (96, False, "Hokusai's prints influenced Paul Gauguin in Paris.")):
        setting = Setting(related=lambda span: painters, linked=NAME_EACH_OTHER, lead=leads.get)
        drafts = cloze_drafts(para_id, "Hokusai", text, list, finder, encode, n=2, variants=1, seed=0, setting=setting)[0]
        [options[dated]] = [draft.options for draft, _ in drafts if "Paul Gauguin" in draft.options]
    assert not {"Nicolas Poussin", "Pieter Bruegel"} & set(options[True])
    assert {"Nicolas Poussin", "Pieter Bruegel"} & set(options[False])  # an undated sentence: no era to keep to


def test_people_are_dated_by_the_years_their_articles_name_and_kept_to_a_works_time():
    """Round 38: Isaac Newton as Karl Pearson's mentor, Tom Hanks in 1958's Vertigo (this knowledge base's leads drop lifespans)."""
    assert years_active(["He was born in 1848.", "He sailed in 1891 and died in 1903.", "A 2005 poll ranked him first."]) == (1828, 1923)
    assert years_active(["He painted."]) is None
    stewart, hanks, wayne = (1935, 1990), (1978, 2016), (1926, 1979)
    assert in_the_works_time(stewart, wayne, 1958) and not in_the_works_time(stewart, hanks, 1958)
    assert in_the_works_time(hanks, stewart, 1958)  # an answer of a later time (a remake's star): no reason to refuse
    assert not in_the_works_time(hanks, wayne, 1995)  # round 52: John Wayne (died 1979) among Toy Story's voices
    assert in_the_works_time(stewart, hanks, None) and in_the_works_time(stewart, None, 1958) and in_the_works_time(None, hanks, 1958)
    assert work_year("Vertigo is a 1958 American psychological thriller film.") == 1958 and work_year("Vertigo is a film.") is None
    finder = EntityFinder(CorpusStats(CORPUS, latest_year=2024, definitions=PAINTERS))
    painters = [finder.stats.as_span(doc_id, "person") for doc_id, _, _ in PAINTERS]
    active = {name: (int(lead.split("(")[1][:4]) + 20, int(lead.split("–")[1][:4])) for _, name, lead in PAINTERS}
    late = {"Gustav Klimt", "Henri Matisse", "Paul Signac", "Pierre Bonnard"}  # active from after 1880
    vectors = {name: np.array([0.6, 0.8]) for _, name, _ in PAINTERS} | {name: np.array([0.7, 0.71]) for name in late | {"Nicolas Poussin"}}
    vectors["Paul Gauguin"] = np.array([1.0, 0.0])
    encode = lambda texts: np.array([vectors.get(t, np.array([0.0, 1.0])) for t in texts])  # noqa: E731
    offered = {}
    for work in (1870, None):
        setting = Setting(related=lambda span: painters, linked=NAME_EACH_OTHER, years_of=active.get, work=work)
        offered[work] = {option for seed in range(5) for draft, _ in cloze_drafts(
            97, "The Detective", "The film stars Paul Gauguin as a detective.", list, finder, encode, n=1, variants=1,
            seed=seed, setting=setting)[0] for option in draft.options}
    assert "Paul Gauguin" in offered[1870] and not (late | {"Nicolas Poussin", "Pieter Bruegel"}) & offered[1870]
    assert late & offered[None] and not {"Nicolas Poussin", "Pieter Bruegel"} & offered[None]  # the era still holds


def _years_offered(finder, para_id: int, title: str, text: str, neighbours: range, setting: Setting) -> set[int]:
    """Every year option the drafts of a paragraph offer over 15 seeds, the neighbours writing `neighbours`."""
    years = set()
    for seed in range(15):
        for draft, _ in cloze_drafts(para_id, title, text, lambda: [Span(YEAR, str(y), "") for y in neighbours], finder,
                                     lambda texts: np.ones((len(texts), 2)), n=1, variants=1, seed=seed, setting=setting)[0]:
            years.update(int(option) for option in draft.options)
    return years


def test_the_lead_of_the_subjects_article_bounds_its_years(finder):
    """A later paragraph about Hitler does not repeat his dates; the lead of his article does."""
    text = "His armies lost Paris in 1944. His party was banned in 1956."
    made = {}
    for bounds in (frozenset(), frozenset(bounding_years("Adolf Hitler", "Adolf Hitler (20 April 1889 – 30 April 1945) was …"))):
        made[bool(bounds)] = _years_offered(finder, 93, "Adolf Hitler", text, range(1920, 1961, 3), Setting(subject_bounds=bounds))
    assert made[True] and max(made[True]) < 1945
    assert max(made[False]) > 1945  # without the bound, some options fall after his death


LEADS = {"Weimar Republic": "The Weimar Republic was the German state from 1918 to 1933. It followed the Empire.",
         "George W. Bush": "George Walker Bush is an American politician who was the 43rd president from 2001 to 2009.",
         "Soviet Union": "The Soviet Union was a country from its formation in 1922 until its dissolution in 1991.",
         "Song dynasty": "The Song dynasty was an imperial dynasty of China that ruled from 960 to 1279.",
         "David": "David is a marble statue sculpted from 1501 to 1504 by Michelangelo.",
         "Short Parliament": "The Short Parliament was a Parliament of England that sat from 1640 to 1642.",
         "Iraq War": "The Iraq War was a protracted armed conflict in Iraq from 2003 to 2011."}


@pytest.mark.parametrize("lead, period", [
    (LEADS["Weimar Republic"], (1918, 1933)), (LEADS["Soviet Union"], (1922, 1991)),
    ("The Crimean War was fought from October 1853 to February 1856.", (1853, 1856)),
    ("Nazi Germany was the German state between 1933 and 1945, when Hitler ruled.", (1933, 1945)),
    ("Hafez (1325–1390) was a Persian poet.", (1325, 1390)),
    ("Elizabeth I was Queen of England from 17 November 1558 until her death in 1603.", (1558, 1603)),  # a day is no year
    ("Paris is the capital of France. It grew from 1850 to 1870.", None),  # only the first sentence says what the thing is
    ("The Edo period is the period between 1600 or 1603 and 1868.", None),  # no clear start
    ("Rome was a republic from 509 BC to 27 BC.", None), ("The Han ruled from 202 BC to 220 AD.", None),  # BC is no year here
    ("The town grew from 1,200 to 1,500 people.", None), ("The range rises from 1850 to 1900 metres.", None),  # counts, not years
    ("Between 1933 and 1945, it was the German state.", (1933, 1945)),
    ("Gerald Ford was the 38th president of the U.S. from 1974 to 1977.", (1974, 1977)),  # "U.S." ends no sentence
    ("Napoleon III was president from 1848 to 1852 and emperor from 1852 until 1870.", (1848, 1870))])  # every span it names
def test_a_period_is_read_from_the_first_sentence_of_its_article(lead, period):
    assert period_of(lead) == period


def test_names_around_a_blank_are_read_as_the_sentence_writes_them():
    names = list(names_around(Span(YEAR, "2004", "She received the Medal of Freedom from President George W. Bush in 2004.")))
    assert "George W. Bush" in names and "Medal of Freedom" in names and not any("2004" in name for name in names)
    assert "Paris, France" not in names_around(Span(YEAR, "1900", "It opened in Paris, France in 1900."))  # no name across a comma


def test_year_distractors_stay_inside_a_period_the_sentence_names(finder):
    """Round 33: 1914 and 1915 for Brecht's move to Berlin "during the Weimar Republic"."""
    assert period_bounds(Span(YEAR, "1924", "During the Weimar Republic, he moved to Berlin in 1924."), "Bertolt Brecht",
                         LEADS.get) == {1917, 1934}
    sentence = "During the Golden Twenties, he moved to Berlin in 1926."  # a period short enough to hold few of the nearest years
    leads = {"Golden Twenties": "The Golden Twenties were a period of growth in Germany from 1924 to 1929."}
    made = {named: _years_offered(finder, 94, "Bertolt Brecht", sentence, range(1905, 1946, 2), Setting(lead=lead))
            for named, lead in ((False, lambda name: None), (True, leads.get))}
    assert made[True] and 1924 <= min(made[True]) and max(made[True]) <= 1929
    assert min(made[False]) < 1924 or max(made[False]) > 1929  # without the period, some options fall outside it
    # Round 39: the subject's own period too, as the question names it (Olympic years after the British Raj's 1947 end)
    assert period_bounds(Span(YEAR, "1100", "The Song dynasty ruled China, and Su Shi wrote in 1100."), "Song dynasty", LEADS.get) \
        == {959, 1280}
    assert period_bounds(Span(YEAR, "1100", "Su Shi wrote in 1100."), "Song dynasty", LEADS.get) == {959, 1280}
    assert period_bounds(Span(YEAR, "1100", "Su Shi wrote in 1100."), "Su Shi", LEADS.get) == set()
    # Round 46: a year at or after the subject's end is still after its start (1998 for the Iraq War's withdrawal in 2011)
    assert period_bounds(Span(YEAR, "2011", "US forces were officially withdrawn in 2011."), "Iraq War", LEADS.get) == {2002}
    assert period_bounds(Span(YEAR, "2014", "In 2014, the US became re-engaged in Iraq."), "Iraq War", LEADS.get) == {2002}
    assert period_bounds(Span(YEAR, "2011", "It was fought from 2003 to 2011."), "Iraq War", LEADS.get) == set()  # its own start
    assert period_bounds(Span(YEAR, "1990", "Iraq invaded Kuwait in 1990."), "Iraq War", LEADS.get) == set()  # before it
    # Rounds 51 and 53: the World Wars' leads give no years; 1933 for the Normandy landings, 1904 in World War I's Western Front
    normandy = Span(YEAR, "1944", "The second phase began in June 1944 with the Allied landings in Normandy.")
    assert period_bounds(normandy, "Western Front (World War II)", LEADS.get) == {1938, 1946}  # the war its title's brackets name
    balfour = Span(YEAR, "1917", "It was issued in 1917 during the First World War.")
    assert period_bounds(balfour, "Balfour Declaration", LEADS.get) == {1913, 1919}
    assert period_bounds(Span(YEAR, "1949", "After World War II, NATO was founded in 1949."), "NATO", LEADS.get) == set()
    defeat = Span(YEAR, "1945", "It continued until the defeat of Germany in May 1945.")  # round 58: 1950, 1951 and 1953 beside it
    assert "World War's first or last year" in answer_problem(defeat, "Western Front (World War II)")  # not asked (round 61)


@pytest.mark.parametrize("sentence, year, title", [
    ("The Song dynasty ruled China from 960 to 1279.", "1279", "Song dynasty"),  # the subject's own period is the fact asked
    ("It was formed after the dissolution of the Soviet Union in 1991.", "1991", "Commonwealth of Independent States"),  # the end itself
    ("Lenin was born in 1870 and later led the Soviet Union.", "1870", "Vladimir Lenin"),  # a year outside the period
    ("David Smith was born in 1502.", "1502", "David Smith"),  # a one-word name: "David" is also a statue
    ("He sat in the Short Parliament in 1641.", "1641", "John Pym")])  # too short a period to offer three years
def test_no_period_bounds_its_own_ends_or_a_year_outside_it(sentence, year, title):
    assert period_bounds(Span(YEAR, year, sentence), title, LEADS.get) == set()


def test_no_distractor_the_question_names_in_another_form():
    names = ("Portugal", "Spain", "France", "England", "Italy", "Germany", "Poland", "Sweden", "Norway", "Greece", "Austria")
    stats = CorpusStats([], latest_year=2024, definitions=[(i, name, f"{name} is a country in Europe.") for i, name in enumerate(names)])
    finder = EntityFinder(stats)
    countries = [stats.as_span(i, "place") for i in range(len(names))]
    vectors = {name: np.array([0.6, 0.8]) for name in names} | {"Portugal": np.array([1.0, 0.0]), "Spain": np.array([0.7, 0.71])}
    encode = lambda texts: np.array([vectors.get(t, np.array([0.0, 1.0])) for t in texts])  # noqa: E731
    text = "After the Spanish, Portugal colonised the coast."
    asked = set()
    for seed in range(5):
        for draft, _ in cloze_drafts(94, "Age of Discovery", text, list, finder, encode, n=1, variants=1, seed=seed,
                                     setting=Setting(related=lambda span: countries, linked=NAME_EACH_OTHER))[0]:
            asked.update(draft.options)
    assert "Portugal" in asked and "Spain" not in asked  # "the Spanish" rules Spain out (or makes it right)
    assert word_form_given("Spanish", "After the Spaniards") and not word_form_given("French", "After the Spaniards")


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


def test_a_name_that_states_its_kind_stands_only_among_names_that_do():
    stats = CorpusStats([], latest_year=2024, definitions=[
        (1, "Hindi", "Hindi is an Indo-Aryan language of India."), (2, "Hindustani language", "Hindustani is an Indo-Aryan language."),
        (3, "Bengali language", "Bengali is an Indo-Aryan language."), (4, "Urdu", "Urdu is an Indo-Aryan language.")])
    hindi = Span("language", "Hindi", "Raj Kapoor made films in Hindi.")
    assert same_form(Span("language", "Urdu", "x"), hindi, stats)
    assert not same_form(Span("language", "Hindustani language", "x"), hindi, stats)  # its form stands out


def test_round_57s_comparisons_epithets_sources_years_and_full_quantities_are_not_asked():
    """Round 57: "comparable to that of ___ or South America", "son of Louis ___" (the German), "according to UNCTAD in ___",
    "In ___, Coke products were sold in over 200 countries", "a full ___" (360 degree revolution)."""
    eris = "Both Eris and Pluto have a surface area that is comparable to that of Russia or South America."
    assert "comparison" in answer_problem(Span("place", "Russia", eris), "Eris (dwarf planet)")
    columbia = "Its drainage basin is roughly the size of France."
    assert "comparison" in answer_problem(Span("place", "France", columbia), "Columbia River")
    assert answer_problem(Span("place", "France", "Its drainage basin lies in France."), "Columbia River") is None
    louis = "Charles was the youngest son of Louis the German and Hemma."
    assert "epithet" in answer_problem(Span("group", "German", louis), "Charles the Fat")
    assert answer_problem(Span("group", "German", "The German army was defeated."), "Battle of Verdun") is None  # first word
    assert answer_problem(Span("group", "German", "In 1916 the German army was defeated."), "Battle of Verdun") is None
    unctad = "Maritime transport accounts for roughly 80% of international trade, according to UNCTAD in 2020."
    assert "statistic" in answer_problem(Span(YEAR, "2020", unctad), "Maritime transport")
    coke = "In 2012, Coke products were sold in over 200 countries and territories worldwide."
    assert "statistic" in answer_problem(Span(YEAR, "2012", coke), "Coca-Cola")
    romanticism = "It became prominent in Western culture from about 1798 until 1837."  # a year after "about" is no count
    assert answer_problem(Span(YEAR, "1837", romanticism), "Romanticism") is None
    engine = "At this point the crankshaft has completed a full 360 degree revolution."
    assert "full" in answer_problem(Span(QUANTITY, "360 degree revolution", engine), "Four-stroke engine")
    assert answer_problem(Span(QUANTITY, "360 degree revolution", "It turns by 360 degree revolution."), "Engine") is None


def test_a_country_in_a_sentence_of_a_spelled_or_modern_century_or_of_antiquity_is_not_asked():
    """Round 57: Belgium and Slovakia among "the eighteenth century's" courts, Bangladesh beside "ancient Egypt, ___"."""
    stats = CorpusStats([], latest_year=2024, definitions=[(0, "Austria", "Austria is a country in Central Europe."),
                                                           (1, "China", "China is a country in East Asia.")])
    merino = "During the eighteenth century, flocks were sent to the courts of a number of European countries, including Austria."
    assert country_of_the_past(Span("place", "Austria", merino), "Merino", stats)
    assert country_of_the_past(Span("place", "Austria", "It rose in 19th-century Austria."), "Opera", stats)
    assert not country_of_the_past(Span("place", "Austria", "It rose in 20th-century Austria."), "Opera", stats)
    brewing = "Emerging civilisations, including ancient Egypt, China, and Mesopotamia, brewed beer."
    assert country_of_the_past(Span("place", "China", brewing), "Brewing", stats)
    assert country_of_the_past(Span("place", "China", "Beans were grown in the seventh millennium BCE in China."), "Bean", stats)
    assert not country_of_the_past(Span("place", "China", "It is an ancient city in China."), "Xi'an", stats)  # today's map
    assert not country_of_the_past(Span("place", "China", "It is grown in China."), "Tea", stats)
    assert centuries_named("from the 13th-century to the Eighteenth century") == [1200, 1700]


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


def test_a_country_about_a_subject_dated_before_the_first_world_wars_end_is_not_asked():
    """Round 58: Slovenia and Slovakia beside Austria in the Seven Years' War, Belarus and Ukraine beside Russia on the
    First World War's Eastern Front (its lead names no year; its title's brackets name the war)."""
    leads = {"Seven Years' War": "The Seven Years' War, 1756 to 1763, was a global war fought by numerous great powers.",
             "Eastern Front (World War I)": "The Eastern Front of World War I was a theater of operations.",
             "Cold War": "The Cold War was a period of tension that lasted from 1947 to 1991."}
    setting = Setting(lead=leads.get)
    austria = Span("place", "Austria", "Great Britain and Prussia fought France and Austria.")
    assert "before today's states" in problem_in_its_setting(austria, [], "Seven Years' War", setting)
    russia = Span("place", "Russia", "It spanned the frontier between Russia and Romania.")
    assert "before today's states" in problem_in_its_setting(russia, [], "Eastern Front (World War I)", setting)
    assert problem_in_its_setting(austria, [], "Cold War", setting) is None  # after the war's end: today's states


def test_round_58s_back_references_event_names_rulers_and_prizes():
    """Round 58: "The following year, the first ___ settlements …", "___ and Indian War", "the ___ emperor Napoleon
    Bonaparte", 1898 and 1899 beside "the 1903 Nobel Prize"."""
    following = "The following year, the first Spanish settlements were established in the Caribbean."
    assert "leans on the one before" in answer_problem(Span("group", "Spanish", following), "History of the Caribbean")
    later = "Two years later, in 1494, the first Spanish settlements were established."
    assert "leans on the one before" in answer_problem(Span(YEAR, "1494", later), "History of the Caribbean")
    plain = "In 1494, the first Spanish settlements were established in the Caribbean."
    assert answer_problem(Span(YEAR, "1494", plain), "History of the Caribbean") is None
    war = "Related conflicts include the Third Silesian War, French and Indian War, and the Third Carnatic War."
    assert "fixed name" in answer_problem(Span("group", "French", war), "Seven Years' War")
    assert answer_problem(Span("group", "French", "The French army lost the war."), "Seven Years' War") is None
    napoleon = "It followed the downfall of the French emperor Napoleon Bonaparte."
    assert before_a_rulers_name(Span("group", "French", napoleon), ["Napoleon Bonaparte"])
    stoker = "Dracula is an 1897 Gothic horror novel by Irish author Bram Stoker."
    assert not before_a_rulers_name(Span("group", "Irish", stoker), ["Bram Stoker"])  # a writer's nation is worth asking
    curie = Span(YEAR, "1903", "She shared the 1903 Nobel Prize in Physics with her husband.")
    assert began_bounds(curie, "Marie Curie") == {1900}
    assert began_bounds(Span(YEAR, "1903", "She married in 1903."), "Marie Curie") == set()
    bounds = began_bounds(curie, "Marie Curie")
    assert on_the_answers_side(1905, 1903, bounds) and not on_the_answers_side(1899, 1903, bounds)


def test_round_59s_lists_after_a_colon_and_units_own_measures_are_not_asked():
    """Round 59: "The rulers deposed include: | Ben Ali of Tunisia, … and Saleh of Yemen in ___" (the lead-in cut off),
    "one foot comprises ___" (12 inches beside 8, 11 and 17: a conversion)."""
    paragraph = "The rulers deposed include: Ben Ali of Tunisia, Gaddafi of Libya, and Saleh of Yemen in 2012."
    assert "fragment" in cut_from_its_paragraph("Ben Ali of Tunisia, Gaddafi of Libya, and Saleh of Yemen in 2012.", paragraph)
    whole = "The rulers deposed include Ben Ali of Tunisia. Saleh of Yemen was deposed in 2012."
    assert cut_from_its_paragraph("Saleh of Yemen was deposed in 2012.", whole) is None
    foot = "In both customary and imperial units, one foot comprises 12 inches, and one yard comprises three feet."
    assert "unit's own article" in answer_problem(Span(QUANTITY, "12 inches", foot), "Foot (unit)")
    assert answer_problem(Span(QUANTITY, "12 inches", "The pike grew to 12 inches in a year."), "Pike (fish)") is None


def test_round_60s_ancient_peoples_back_references_ranges_beginnings_and_medieval_lands():
    """Round 60: "an ancient ___ tragedian" (French), "Her whereabouts over the following years …", "between roughly 585
    and ___" (372 nm), "a founding member of the United Nations in ___" (1913), "a spy in pre-modern ___"."""
    sophocles = "Sophocles was an ancient Greek tragedian."
    assert "after \"ancient\"" in answer_problem(Span("group", "Greek", sophocles), "Sophocles")
    assert answer_problem(Span("group", "Greek", "Sophocles was a Greek tragedian."), "Sophocles") is None
    artemisia = "Her whereabouts over the following years are unknown, but she resurfaced in Naples during 1649."
    assert "leans on the one before" in answer_problem(Span(YEAR, "1649", artemisia), "Artemisia Gentileschi")
    orange = Span(QUANTITY, "620 nanometres", "Orange is light with a wavelength between roughly 585 and 620 nanometres.")
    assert range_start(orange) == 585.0
    assert range_start(Span(QUANTITY, "620 nanometres", "Its wavelength is 620 nanometres.")) is None
    hemoglobin = Span(QUANTITY, "20 grams", "A healthy human has 12 to 20 grams of hemoglobin in every 100 mL of blood.")
    assert range_start(hemoglobin) == 12.0  # round 63: "12 to 12 grams" offered
    assert range_start(Span(QUANTITY, "20 grams", "It weighs 1.12 to 20 grams.")) == 1.12
    raj = Span(YEAR, "1945", "It was a founding member of the League of Nations and of the United Nations in 1945.")
    assert began_bounds(raj, "British Raj") == {1919}  # the League's; the United Nations began that year
    nato = Span(YEAR, "1949", "NATO was established with the signing of the North Atlantic Treaty in 1949.")
    assert began_bounds(nato, "NATO") == set()  # the beginning itself: options after it would single it out
    stats = CorpusStats([], latest_year=2024, definitions=[(0, "Japan", "Japan is a country in East Asia.")])
    ninja = Span("place", "Japan", "A ninja was a spy and infiltrator in pre-modern Japan.")
    assert country_of_the_past(ninja, "Ninja", stats)
    assert not country_of_the_past(Span("place", "Japan", "It is a medieval town in Japan."), "Kyoto", stats)


def test_a_country_in_an_open_list_of_countries_is_not_asked():
    """Rounds 55-60: "nations such as Belgium, ___, Canada, Senegal … etc." (Mali is francophone too), Kurdish diasporas."""
    francophone = "Literature by citizens of nations such as Belgium, Switzerland, Canada, Senegal and Morocco is Francophone."
    assert one_of_a_list_of_countries(Span("place", "Switzerland", francophone))
    closed = "The river passes through Jordan, Syria, Israel, and Palestine."  # a course, not examples
    assert not one_of_a_list_of_countries(Span("place", "Syria", closed))
    borders = "It is bordered by countries such as Belgium, Luxembourg, Germany and Switzerland."
    assert not one_of_a_list_of_countries(Span("place", "Germany", borders))  # borders: geography's own rules
    two = "It is spoken in countries such as Belgium and Switzerland."  # one other country: no list to speak of
    assert not one_of_a_list_of_countries(Span("place", "Switzerland", two))


def test_round_61s_bounds_back_references_world_war_years_and_places_of_another_name():
    """Round 61: "came mostly after ___" (1899 true too), "can grow as tall as ___" (13 m true too), "If so, …", "Clive of
    ___" for Robert Clive, "ended in May ___, … ending World War II in Europe" (1939 and 1941 beside it), Cairo, Illinois
    read as Egypt's Cairo (Giza and Alexandria beside it)."""
    music = "Neoclassicism and expressionism came mostly after 1900."
    assert "bound" in answer_problem(Span(YEAR, "1900", music), "20th-century classical music")
    cashew = "The tree can grow as tall as 14 meters."
    assert "bound" in answer_problem(Span(QUANTITY, "14 meters", cashew), "Cashew")
    cygnus = "If so, the radius of its event horizon has 300 km as upper bound."
    assert "leans on the one before" in answer_problem(Span(QUANTITY, "300 km", cygnus), "Cygnus X-1")
    clive = "Robert Clive, also known as Clive of India, was the first British Governor of the Bengal Presidency."
    assert of_a_persons_name(Span("place", "India", clive), ["Robert Clive"])
    reich = "It ended in May 1945, when the Allies entered Berlin, ending World War II in Europe."
    assert "World War's first or last year" in answer_problem(Span(YEAR, "1945", reich), "Nazi Germany")
    assert a_world_wars_first_or_last_year(Span(YEAR, "1945", "It continued until May 1945."), "Western Front (World War II)")
    assert not a_world_wars_first_or_last_year(Span(YEAR, "1944", "The landings began in June 1944."), "Western Front (World War II)")
    assert not a_world_wars_first_or_last_year(Span(YEAR, "1945", "He married in 1945."), "Albert Camus")
    stats = CorpusStats([], latest_year=2024, definitions=[
        (0, "Cairo", "Cairo is the capital city of Egypt and the Cairo Governorate."),
        (1, "Houston", "Houston is the most populous city in the U.S. state of Texas."),
        (2, "Texas", "Texas is a state in the South Central region of the United States.")])
    ohio = "It flows to its mouth on the Mississippi River at Cairo, Illinois."
    assert another_place_of_its_name(Span("place", "Cairo", ohio), stats)
    assert not another_place_of_its_name(Span("place", "Houston", "She was born in Houston, Texas."), stats)
    assert not another_place_of_its_name(Span("place", "Cairo", "It spread to Cairo, Dürer said."), stats)  # no state after
    assert not a_world_wars_first_or_last_year(Span(YEAR, "1918", "Born in 1918, he fought in World War II."), "Soldier")
