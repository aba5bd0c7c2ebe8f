from sea.kb.sections import is_prose


def test_sections_of_citations_are_not_prose_also_when_a_word_qualifies_their_name():
    assert not is_prose("References") and not is_prose("Further reading > Biographies")
    assert not is_prose("Selected bibliography > Online") and not is_prose("General references")  # the excerpt's Schopenhauer
    assert is_prose("History > Early years") and is_prose("Selected works") and is_prose("Notes on the text")
