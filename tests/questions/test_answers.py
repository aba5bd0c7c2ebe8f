"""Which spans the offline generator refuses to ask about (sea.questions.answers), on hand-made sentences."""

from sea.questions.answers import (
    answer_problem,
    citation,
    country_of_the_past,
    cut_from_its_paragraph,
    one_of_a_list_of_countries,
    placed_by_the_question,
    problem_before_distractors,
    restated,
    word_form_given,
)
from sea.questions.entities import QUANTITY, YEAR, Span
from sea.questions.kinds import CorpusStats, same_name
from sea.questions.years import centuries_named, dates_named
from tests.questions.cases import PEOPLE


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


def test_a_sentence_too_long_to_ask_is_refused():
    """A paragraph with no sentence end reads as one sentence of thousands of characters: no question quotes it."""
    run_on = "The river rises in the hills and flows past " + ", past ".join(f"the mill of village {i}" for i in range(60))
    span = Span("place", "Amazon River", f"{run_on} into the Amazon River")
    assert len(span.sentence) > 1000 and "too long" in answer_problem(span, "Rio Negro")
    assert answer_problem(Span("place", "Amazon River", span.sentence[-400:]), "Rio Negro") is None


def test_a_broken_span_or_sentence_is_refused():
    sentence = 'Known colloquially in Syria as aš-Šām and dubbed, poetically, the "City of Jasmine, Damascus is old.'
    assert "broken" in answer_problem(Span("work", "City of Jasmine", sentence), "Damascus")
    assert "broken" in answer_problem(Span("work", '"City', "The \"City\" is old."), "Damascus")
    assert "list" in answer_problem(Span("group", "Mbuti", "The western Bambenga,\nthe eastern Mbuti."), "Pygmies")
    sentence = "It was founded in 1850, its motto written as _____ on its gate."  # a paragraph's own blank
    assert "a blank of its own" in answer_problem(Span(YEAR, "1850", sentence), "Old School")
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


def test_a_quantity_after_a_bound_has_more_than_one_true_option():
    for sentence in ("The blade is at least 60 mm long.", "Neutron stars have a radius on the order of 10 kilometers.",
                     "The basin reaches depths exceeding 4500 meters in some areas."):
        quantity = next(q for q in ("60 mm", "10 kilometers", "4500 meters") if q in sentence)
        assert "bound" in answer_problem(Span(QUANTITY, quantity, sentence), "Thing")
    assert answer_problem(Span(QUANTITY, "10 kilometers", "Its radius is 10 kilometers."), "Thing") is None


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


def test_names_that_share_only_their_kind_are_different_things():
    assert not same_name("Black Sea", "Mediterranean Sea") and not same_name("Ganges River", "Indus River")
    assert same_name("Amazon", "Amazon River") and same_name("Italy", "Kingdom of Italy") and same_name("Africa", "North Africa")
    span = Span("place", "Mediterranean Sea", "It links the Black Sea and the Mediterranean Sea.")
    assert answer_problem(span, "Sea of Marmara") is None  # "Sea" in the title and the sentence tells nothing
    assert answer_problem(Span("place", "Amazon River", "It feeds the Amazon River."), "Amazon basin") == "the title gives the answer away"


def test_a_year_a_name_carries_is_not_asked():
    """Round 50: "an outbreak in Wuhan in December ___" in "COVID-19 pandemic": the name gives 2019 away."""
    sentence = "The global COVID-19 pandemic began with an outbreak in Wuhan, China, in December 2019."
    assert "gives it away" in answer_problem(Span(YEAR, "2019", sentence), "COVID-19 pandemic")
    assert "gives it away" in answer_problem(Span(YEAR, "2019", "Its first outbreak was in 2019."), "COVID-19")  # by the title
    assert answer_problem(Span(YEAR, "2020", "It spread worldwide in 2020."), "COVID-19 pandemic") is None


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
