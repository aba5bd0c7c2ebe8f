"""The paper's 13 top-level Wikipedia categories and how source labels map onto them."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

# Each category is embedded from its name plus a short gloss, so that similarity to a
# document's title + abstract reflects the topic rather than the wording of a bare name.
CATEGORY_GLOSSES: dict[str, str] = {
    "General reference": "encyclopedias, dictionaries, libraries, reference works, information and knowledge organisation",
    "Culture and the arts": "art, music, film, literature, theatre, painting, architecture, sports, games, entertainment, mass media",
    "Geography and places": "countries, cities, regions, continents, rivers, mountains, lakes, islands, landmarks",
    "Health and fitness": "medicine, diseases, public health, nutrition, exercise, drugs, treatments, hospitals",
    "History and events": "historical periods, empires, wars, battles, revolutions, dynasties, historical events",
    "Human activities": "everyday life, work, recreation, cooking, food, clothing, hobbies, transport, trade, agriculture",
    "Mathematics and logic": "mathematics, numbers, algebra, geometry, calculus, statistics, logic, proofs",
    "Natural and physical sciences": "physics, chemistry, biology, astronomy, earth science, animals, plants, elements, organisms",
    "People and self": "biographies of people, politicians, scientists, artists, writers, rulers, human identity and psychology",
    "Philosophy and thinking": "philosophy, ethics, metaphysics, epistemology, philosophers' ideas, reasoning and thought",
    "Religion and belief systems": "religions, gods, mythology, churches, scriptures, faiths, spiritual beliefs",
    "Society and social sciences": "society, politics, law, economics, government, education, language, organisations",
    "Technology and applied sciences": "technology, engineering, computing, inventions, machines, electronics, industry",
}
CATEGORIES: tuple[str, ...] = tuple(CATEGORY_GLOSSES)

# Topic labels of the Level-4 Vital Articles. A label that spans two of our categories
# narrows the choice, and embedding similarity picks within it.
VITAL_TOPIC_CATEGORIES: dict[str, tuple[str, ...]] = {
    "People": ("People and self",),
    "Biology and health sciences": ("Natural and physical sciences", "Health and fitness"),
    "Geography": ("Geography and places",),
    "Physical sciences": ("Natural and physical sciences",),
    "Society and social sciences": ("Society and social sciences",),
    "Arts": ("Culture and the arts",),
    "Technology": ("Technology and applied sciences",),
    "History": ("History and events",),
    "Everyday life": ("Human activities",),
    "Philosophy and religion": ("Philosophy and thinking", "Religion and belief systems"),
    "Mathematics": ("Mathematics and logic",),
}

# category_source values
FROM_LABEL = "source_label"
FROM_LABEL_AND_EMBEDDING = "source_label+embedding"
FROM_EMBEDDING = "embedding"


def candidates_for_label(label: str | None) -> tuple[str, ...]:
    """Categories a source's own label allows; all 13 when the label is absent or unknown."""
    if not label:
        return CATEGORIES
    if label in CATEGORY_GLOSSES:
        return (label,)
    return VITAL_TOPIC_CATEGORIES.get(label, CATEGORIES)


def category_prompts() -> list[str]:
    return [f"{name}: {gloss}" for name, gloss in CATEGORY_GLOSSES.items()]


def pick_categories(
    doc_vectors: np.ndarray, category_vectors: np.ndarray, allowed: Sequence[tuple[str, ...]]
) -> list[str]:
    """For each document, the allowed category whose vector is most similar to it."""
    similarity = doc_vectors @ category_vectors.T
    picked = []
    for row, options in zip(similarity, allowed, strict=True):
        mask = np.full(len(CATEGORIES), -np.inf, dtype=np.float32)
        mask[[CATEGORIES.index(name) for name in options]] = 0.0
        picked.append(CATEGORIES[int(np.argmax(row + mask))])
    return picked


def category_source(options: tuple[str, ...]) -> str:
    if len(options) == 1:
        return FROM_LABEL
    return FROM_EMBEDDING if len(options) == len(CATEGORIES) else FROM_LABEL_AND_EMBEDDING
