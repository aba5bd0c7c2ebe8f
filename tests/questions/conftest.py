"""The entity finder over the hand-made corpus the offline generator's rule tests share."""

import pytest

from sea.questions.entities import EntityFinder
from sea.questions.kinds import CorpusStats
from tests.questions.cases import CORPUS, DEFINITIONS


@pytest.fixture(scope="module")
def finder():
    return EntityFinder(CorpusStats(CORPUS, latest_year=2024, definitions=DEFINITIONS))
