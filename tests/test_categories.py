import numpy as np

from sea.categories import (
    CATEGORIES,
    FROM_EMBEDDING,
    FROM_LABEL,
    FROM_LABEL_AND_EMBEDDING,
    candidates_for_label,
    category_prompts,
    category_source,
    pick_categories,
)
from sea.embeddings import titled_text
from tests.conftest import SAMPLE_ARTICLES


def test_there_are_the_papers_thirteen_categories():
    assert len(CATEGORIES) == 13
    assert "Natural and physical sciences" in CATEGORIES and "General reference" in CATEGORIES


def test_source_labels_narrow_the_choice():
    assert candidates_for_label("Mathematics") == ("Mathematics and logic",)
    assert candidates_for_label("Philosophy and religion") == ("Philosophy and thinking", "Religion and belief systems")
    assert candidates_for_label("Culture and the arts") == ("Culture and the arts",)  # already one of ours
    assert candidates_for_label("Uncategorized") == CATEGORIES
    assert candidates_for_label(None) == CATEGORIES
    assert category_source(("Mathematics and logic",)) == FROM_LABEL
    assert category_source(("Philosophy and thinking", "Religion and belief systems")) == FROM_LABEL_AND_EMBEDDING
    assert category_source(CATEGORIES) == FROM_EMBEDDING


def test_pick_respects_the_allowed_set():
    vectors = np.eye(13, dtype=np.float32)
    doc = vectors[[CATEGORIES.index("Geography and places")]]
    assert pick_categories(doc, vectors, [CATEGORIES]) == ["Geography and places"]
    assert pick_categories(doc, vectors, [("Mathematics and logic",)]) == ["Mathematics and logic"]


def test_embedding_assigns_obvious_articles(embedder):
    expected = {
        "Photosynthesis": "Natural and physical sciences",
        "Battle of Hastings": "History and events",
        "Pythagorean theorem": "Mathematics and logic",
        "Buddhism": "Religion and belief systems",
        "Mount Everest": "Geography and places",
        "Influenza": "Health and fitness",
    }
    vectors = embedder.encode([titled_text(title, text) for title, text in SAMPLE_ARTICLES])
    picked = pick_categories(vectors, embedder.encode(category_prompts()), [CATEGORIES] * len(SAMPLE_ARTICLES))
    assert dict(zip([title for title, _ in SAMPLE_ARTICLES], picked)) == expected
