"""sea_plus's learned failure prior (search.plus.failure_prior): a model trained during the audit
on the paragraphs evaluated so far (their embeddings; label: error rate above tau), predicting
which candidates will fail — a logistic regression, or (search.plus.prior_model: neighbours) the
failures among a candidate's most similar evaluated paragraphs. It is refitted from the search
state at every step, so a resumed search uses exactly the prior an uninterrupted one would, and
its predictions for each batch are kept with the batch, where the benchmark scores them (held
out: the model never saw the paragraphs it predicted)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from sklearn.linear_model import LogisticRegression

MIN_PER_CLASS = 5  # fewer failed (or passed) paragraphs than this: no prior yet
NEIGHBOURS = 10  # evaluated paragraphs the neighbours prior reads per candidate; a blind spot spans about 100 documents


class NeighbourPrior:
    """P(failure) of a paragraph from the k evaluated paragraphs most similar to it (cosine): their
    failures weighted by similarity, with one pseudo-paragraph at the overall failure rate, so that
    a candidate far from everything evaluated gets about that rate. Blind spots are regions of the
    embedding space, which a linear boundary draws poorly."""

    def __init__(self, vectors: np.ndarray, failed: np.ndarray, k: int = NEIGHBOURS):
        self.vectors = vectors
        self.failed = failed.astype(float)
        self.k = k

    def predict_proba(self, vectors: np.ndarray) -> np.ndarray:
        similarity = vectors @ self.vectors.T
        nearest = np.argsort(-similarity, axis=1, kind="stable")[:, : self.k]
        weight = np.clip(np.take_along_axis(similarity, nearest, axis=1), 0.0, None)
        failing = (weight * self.failed[nearest]).sum(axis=1) + self.failed.mean()
        probability = failing / (weight.sum(axis=1) + 1.0)
        return np.column_stack([1.0 - probability, probability])


def fit_prior(vectors: np.ndarray, failed: np.ndarray, model: str = "logistic") -> LogisticRegression | NeighbourPrior | None:
    """The prior fitted on evaluated paragraphs' vectors: a logistic regression with classes
    weighted to balance (failures are the rarer class early on), or the neighbours prior; None
    until both classes have MIN_PER_CLASS examples."""
    failures = int(failed.sum())
    if min(failures, len(failed) - failures) < MIN_PER_CLASS:
        return None
    if model == "neighbours":
        return NeighbourPrior(vectors, failed)
    from sklearn.linear_model import LogisticRegression  # here: scikit-learn is a second and a half of every audit's start

    return LogisticRegression(class_weight="balanced", max_iter=1000).fit(vectors, failed.astype(int))


def failure_probability(model: LogisticRegression | NeighbourPrior, vectors: np.ndarray) -> np.ndarray:
    return model.predict_proba(vectors)[:, 1]


def prior_quality(predicted: dict[int, float], error_rates: dict[int, float], tau: float) -> dict[str, float | int | None]:
    """Held-out accuracy (at probability 0.5) and ROC AUC of predictions against the error rates
    measured afterwards; AUC is None when the paragraphs scored are all of one class."""
    from sklearn.metrics import roc_auc_score

    scored = sorted(p for p in predicted if p in error_rates)
    if not scored:
        return {"paragraphs": 0, "accuracy": None, "auc": None}
    probability = np.array([predicted[p] for p in scored])
    failed = np.array([error_rates[p] > tau for p in scored])
    auc = float(roc_auc_score(failed, probability)) if 0 < failed.sum() < len(failed) else None
    return {"paragraphs": len(scored), "accuracy": float(np.mean((probability >= 0.5) == failed)), "auc": auc}
