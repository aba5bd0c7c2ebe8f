"""The offline generator's year and period rules (sea.questions.years) on hand-made sentences."""

import pytest

from sea.questions.entities import YEAR, Span
from sea.questions.years import period_bounds, period_of, year_cycle
from tests.questions.cases import LEADS


def test_a_presidential_election_in_a_leap_year_keeps_the_cycle():
    """Round 50: 1865, 1871 and 1881 beside Greeley's 1872 presidential run (not election years)."""
    greeley = Span(YEAR, "1872", "He was the unsuccessful candidate in the 1872 presidential election against President Grant.")
    assert year_cycle(greeley) == 4
    assert year_cycle(Span(YEAR, "1995", "She won the 1995 presidential election.")) == 1  # not the United States' cycle
    assert year_cycle(Span(YEAR, "1872", "He was elected mayor in 1872.")) == 1


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


@pytest.mark.parametrize("sentence, year, title", [
    ("The Song dynasty ruled China from 960 to 1279.", "1279", "Song dynasty"),  # the subject's own period is the fact asked
    ("It was formed after the dissolution of the Soviet Union in 1991.", "1991", "Commonwealth of Independent States"),  # the end itself
    ("Lenin was born in 1870 and later led the Soviet Union.", "1870", "Vladimir Lenin"),  # a year outside the period
    ("David Smith was born in 1502.", "1502", "David Smith"),  # a one-word name: "David" is also a statue
    ("He sat in the Short Parliament in 1641.", "1641", "John Pym")])  # too short a period to offer three years
def test_no_period_bounds_its_own_ends_or_a_year_outside_it(sentence, year, title):
    assert period_bounds(Span(YEAR, year, sentence), title, LEADS.get) == set()
