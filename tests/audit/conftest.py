"""A small audit on the 500-article sample: 6 paragraphs a step, 2 × 2 questions a paragraph."""

from __future__ import annotations

from pathlib import Path

import pytest

from sea.audit.rundir import open_run
from sea.audit.workspace import Workspace
from sea.settings import Params


SEARCHED_SHARE = 0.3  # blind spots enough that a searching arm has sources to retrieve from within a step or two


def small_audit(params: Params, runs_dir, blind_spot_share: float = 0.1, **overrides) -> Params:
    """The sample's params with a probe profile (10% blind spots unless told), small batches and a small budget."""
    raw = params.model_dump(mode="json")
    raw["simulated"] = {"probe": {**raw["simulated"]["paper-regime"], "blind_spot_share": blind_spot_share}}
    raw["models"]["testee"]["model"] = "simulated:probe"
    raw["search"].update(batch_size=6, k_documents=10, m_paragraphs=4)
    raw["questions"].update(per_paragraph=2, variants=2)
    raw["budget"]["testee_calls"] = 200
    raw["audit"]["runs_dir"] = str(runs_dir)
    raw["audit"]["annotations_dir"] = str(Path(runs_dir).parent / "annotations")
    for dotted, value in overrides.items():
        section, key = dotted.split("__")
        raw[section][key] = value
    return Params.model_validate(raw)


@pytest.fixture
def audit_params(vital_sample, tmp_path):
    return small_audit(vital_sample, tmp_path / "runs")


@pytest.fixture
def workspace(audit_params):
    return Workspace.of(open_run(audit_params.audit.runs_dir, "test", audit_params).root)
