from sea.kb.wikitext import wikitext_sections

WIKITEXT = ("'''Vale''' (1775{{ndash}}1783) is {{convert|1300|mi|km}} long, {{convert|10|to|20|km|mi}} wide and covers "
            "{{convert|52419|sqmi|km2|abbr=out}} ({{nowrap|about {{convert|5|C|F}}}}); in French {{lang|fr|[[La Vale (river)|La "
            "Vale]]}}.{{citation needed|date=May 2020}} {{As of|2010}}, {{frac|3|1|2}} towns{{snd}}all small{{nbsp}}ones.{{Infobox river|name=Vale}}")


def test_templates_inside_a_sentence_keep_their_text_and_others_go():
    # Before: "(17751783) is long, wide and covers (); in French ." - the excerpt's figures were dropped with the templates
    assert wikitext_sections(WIKITEXT) == [("", "Vale (1775–1783) is 1300 mi long, 10 to 20 km wide and covers 52419 sq mi "
                                                "(about 5 °C); in French La Vale. As of 2010, 3 1/2 towns – all small ones.")]
