"""Names for clusters from their own text: class-based TF-IDF (as BERTopic names topics).

Each cluster's texts are joined into one document, and a term's weight in a cluster is its
frequency there times log(1 + A / f), A the mean number of terms per cluster and f the term's
frequency across all of them: common words everywhere score low, words that mark one cluster high.
A background document (the paragraphs evaluated but not failed) takes part in f, so that what
the whole audit is about does not name every cluster. When a generator model is configured, it
may also write a one-line name from those terms and titles, which it reads as data."""

from __future__ import annotations

import numpy as np
from sklearn.feature_extraction.text import CountVectorizer

from sea.llm.client import ModelClient
from sea.llm.types import CallFailure, Completion
from sea.questions.parsing import extract_json
from sea.questions.prompts import namer_messages

_TOKEN = r"(?u)\b[^\W\d_][\w'’-]*[^\W\d_]\b"  # words of two letters or more, no numbers
MIN_COUNT = 2  # a term shown must occur at least this often in its cluster


def distinctive_terms(cluster_texts: list[str], background: str, top: int) -> list[list[str]]:
    """The `top` most distinctive terms (words or two-word phrases) of each cluster, best first;
    a phrase's words are not repeated on their own."""
    if not cluster_texts:
        return []
    vectorizer = CountVectorizer(stop_words="english", ngram_range=(1, 2), token_pattern=_TOKEN)
    counts = vectorizer.fit_transform([*cluster_texts, background]).toarray().astype(float)
    terms = vectorizer.get_feature_names_out()
    totals = counts.sum(axis=1, keepdims=True)
    frequency = np.divide(counts, totals, out=np.zeros_like(counts), where=totals > 0)
    weight = frequency * np.log1p(counts.sum() / len(counts) / counts.sum(axis=0))
    names = []
    for row in range(len(cluster_texts)):
        chosen: list[str] = []
        for column in np.argsort(-weight[row], kind="stable"):
            if len(chosen) == top or weight[row, column] <= 0:
                break
            term = terms[column]
            if counts[row, column] < MIN_COUNT or any(_overlaps(term, other) for other in chosen):
                continue
            chosen.append(term)
        names.append(chosen)
    return names


def _overlaps(term: str, other: str) -> bool:
    return bool(set(term.split()) & set(other.split()))


NAME_WORDS = 10  # a written name longer than this is no one-line name


async def written_names(writer: ModelClient, clusters: list[dict]) -> list[str | None]:
    """A one-line name per cluster ({terms, titles}), written by a model that reads them as data;
    None where its reply holds no such name (the terms and titles still name the cluster)."""
    results, _ = await writer.complete_many([namer_messages(c["terms"], c["titles"], NAME_WORDS) for c in clusters])
    return [_name(result) for result in results]


def _name(result: Completion | CallFailure | None) -> str | None:
    if not isinstance(result, Completion):
        return None
    try:
        reply = extract_json(result.text)
    except ValueError:
        return None
    name = reply.get("name") if isinstance(reply, dict) else None
    if not isinstance(name, str):
        return None
    name = " ".join(name.split())
    return name if 0 < len(name.split()) <= NAME_WORDS else None
