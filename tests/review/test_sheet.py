import re

import pandas as pd

from sea.review.sheet import review_page
from tests.audit.test_report import RIGHT_TO_LEFT, overridden_texts


def test_every_text_from_the_data_is_isolated_on_its_line():
    # an override left open in a title reversed the category and question id after it
    text = f"{RIGHT_TO_LEFT}Ζ" + "x" * 400
    sample = pd.DataFrame([{"id": "q1", "title": text, "category": text, "paragraph": "a paragraph", "question": text,
                            "options": [text, "B", "C", "D"], "answer": "A", "answers": {text: "B"}}])
    page = review_page("r", sample)
    assert overridden_texts(page) == (5, [])
    assert "overflow-wrap: anywhere" in page  # a 400-letter title wraps inside the card


def test_control_characters_from_the_data_do_not_reach_the_page():
    # a NUL and a terminal escape in a user's knowledge base were written into the review page as they were
    text = "Nul\x00Title \x1b[31mred\x7f"
    sample = pd.DataFrame([{"id": "q1", "title": text, "category": text, "paragraph": f"para {text}", "question": text,
                            "options": [text, "B", "C", "D"], "answer": "A", "answers": {"t": text}}])
    page = review_page("r", sample)
    assert not re.search("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]", page)
    assert page.count("NulTitle [31mred") == 6  # title, category, paragraph, question, option and answer keep their text
