"""Each rule of the offline generator's drafting (sea.questions.cloze) on hand-made sentences: what a careful reader would refuse."""

import numpy as np

from sea.questions.answers import answer_problem, country_of_the_past, word_form_given
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
from sea.questions.entities import QUANTITY, YEAR, EntityFinder, Span
from sea.questions.kinds import CorpusStats
from sea.questions.places import about_the_sea, another_place_of_its_name, landlocked
from sea.questions.rubric import check
from sea.questions.years import (
    a_world_wars_first_or_last_year,
    began_bounds,
    bounding_years,
    contemporaries,
    dated_only_before,
    era_of,
    in_the_works_time,
    lifespan,
    on_the_answers_side,
    period_bounds,
    work_year,
    years_active,
    years_spanned,
)
from tests.questions.cases import CORPUS, LEADS, question_of

NAME_EACH_OTHER = lambda answer, names: [2] * len(names)  # noqa: E731  (the articles of every option and the answer's)


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


def test_outside_a_lead_no_sentence_that_begins_with_a_pronoun():
    """Rounds 70-72: "He was awarded the Nobel Prize …" in a section of Albert Camus, "It has a maximal depth …"."""
    section = Setting(in_the_lead=False)
    for sentence in ("He was awarded the Nobel Prize in 1957.", "It won the award in 1957.", "These counties were abolished in 1957."):
        assert "begins with a pronoun" in problem_in_its_setting(Span(YEAR, "1957", sentence), [], "Albert Camus", section)
        assert problem_in_its_setting(Span(YEAR, "1957", sentence), [], "Albert Camus", Setting()) is None  # a lead's: the subject
    assert problem_in_its_setting(Span(YEAR, "1957", "Camus was awarded the Nobel Prize in 1957."), [], "Albert Camus", section) is None
    assert problem_in_its_setting(Span(YEAR, "1957", "In 1957 he was awarded it."), [], "Albert Camus", section) is None


def test_a_place_in_a_persons_name_is_not_asked():
    """Round 47: "Maria Carolina of ___" (Austria) is wording, a style, not a fact."""
    sentence = "He was the brother of Marie Antoinette, Leopold II, Maria Carolina of Austria, and Maria Amalia."
    assert of_a_persons_name(Span("place", "Austria", sentence), ["Marie Antoinette", "Leopold II", "Maria Carolina"])
    assert not of_a_persons_name(Span("place", "Austria", sentence), ["Leopold II"])  # no person's name before "of"


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


def test_a_year_keeps_the_distractors_its_neighbours_wrote_after_the(finder):
    text = "The charter of the league was signed in 1945."
    neighbours = [Span(YEAR, year, f"It was held at the {year} conference.", with_the=True) for year in ("1944", "1946", "1947")]
    made, dropped = cloze_drafts(3, "League charter", text, lambda: neighbours, finder, lambda texts: np.ones((len(texts), 2)),
                                 n=1, variants=1, seed=0)
    [(draft, _)] = made  # "the 1946 conference" does not make 1946 a name that needs "the" in "signed in ___"
    assert draft.answer == "1945" and set(draft.options) - {"1945"} <= {"1944", "1946", "1947"} | {str(y) for y in range(1935, 1956)}


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
    quoted = check(finder, question_of('Which year completes this statement about Rio Negro? "It was mapped in _____."', options, 0),
                   "Rio Negro", paragraph)
    direct = check(finder, question_of(direct_question("It was mapped in _____.", "year", "Rio Negro"), options, 0), "Rio Negro", paragraph)
    assert direct == quoted and all(direct.values())
    future = question_of(direct_question("It was mapped in _____.", "year", "Rio Negro"), ["1990", "1985", "2031", "2001"], 0)
    assert not check(finder, future, "Rio Negro", paragraph)["no_future_year"]


def test_options_are_spaced_alike(finder):
    text = "The Volga flows through the plain for 610\xa0km before it reaches the sea."  # a no-break space, as Wikipedia writes it
    neighbours = [Span(QUANTITY, q, "x") for q in ("702 km", "549 km", "793 km", "480 km")]
    made, _ = cloze_drafts(41, "Volga", text, lambda: neighbours, finder, lambda texts: np.array([[1.0, 0.0]] * len(texts)),
                           n=3, variants=1, seed=0, setting=Setting(linked=NAME_EACH_OTHER))
    [(draft, _)] = made
    assert draft.options[draft.gold] == "610 km" and all("\xa0" not in option for option in draft.options)
    spaced = question_of('Fill in the blank about Volga: "It flows for _____."', ["610\xa0km", "702 km", "549 km", "793 km"], 0)
    assert not check(finder, spaced, "Volga", text)["agreement"]


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
