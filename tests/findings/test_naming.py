"""Cluster names from hand-made texts: the words that mark a cluster, not the words of all."""

from sea.findings.naming import distinctive_terms


def test_each_cluster_is_named_by_its_own_terms():
    rivers = "The Danube river flows through Vienna. The Rhine river delta. The river Danube basin drains the Alps."
    painters = "Rembrandt painted portraits in Amsterdam. Vermeer painted interiors; both Dutch painters of portraits."
    background = "The history of Europe. Europe and its history. A river, a city, history."
    rivers_terms, painters_terms = distinctive_terms([rivers, painters], background, top=3)
    assert rivers_terms[0] in ("danube", "river") and {"danube", "river"} <= set(" ".join(rivers_terms).split())
    assert "painted" in painters_terms and "portraits" in painters_terms
    assert not {"history", "europe"} & set(rivers_terms + painters_terms)  # everywhere: names nothing


def test_rare_words_and_repeats_are_not_names():
    terms = distinctive_terms(["Kant wrote the critique. Kant and the critique of reason. Once: zebra."], "", top=5)[0]
    assert "zebra" not in terms  # one mention is not what a cluster is about
    assert len(terms) == len(set(terms)) and not any(set(a.split()) & set(b.split()) for a in terms for b in terms if a != b)
    assert distinctive_terms([], "anything", top=3) == []
