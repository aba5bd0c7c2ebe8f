"""One finished small audit of two simulated testees with a known overlap, shared by the findings,
review and export tests (it takes a minute; the root conftest makes it a session fixture)."""

import json
import shutil
from pathlib import Path

import pytest

from sea.audit.rundir import CONFIG_FILE, RunDir, open_run
from sea.audit.steps import in_process, run_steps
from sea.audit.workspace import Workspace
from tests.audit.conftest import small_audit

CONTEXT_ADOPTION = 0.4
PROBE, SHARER = "simulated:probe", "simulated:sharer"
SHARED_REGIONS = 2  # of the probe's 5
BLIND_SPOT_SHARE = 0.25  # of the documents: enough wrong answers among the few paragraphs the sample can ask about


@pytest.fixture(scope="session")
def finished_audit(vital_sample, tmp_path_factory) -> RunDir:
    """The `sea` arm to at most 1,500 questions (up to 4 a paragraph: the 500-article sample defines
    too few names for many questions a paragraph), on a probe testee that adopts the paragraph's
    answer 40% of the time when shown it, and on a sharer whose blind spots are 2 of the probe's
    5 planted regions plus one of its own."""
    params = small_audit(vital_sample, tmp_path_factory.mktemp("findings") / "runs", budget__testee_calls=1500,
                         search__arms=["sea"], questions__per_paragraph=4)
    raw = params.model_dump(mode="json")
    raw["simulated"]["probe"].update(context_adoption=CONTEXT_ADOPTION, blind_spot_share=BLIND_SPOT_SHARE)
    raw["simulated"]["sharer"] = {**raw["simulated"]["probe"], "blind_spot_regions": 1, "blind_spot_share": 0.02,
                                  "base_error": 0.1, "shares_regions_of": "probe", "shared_regions": SHARED_REGIONS, "seed": 7}
    raw["audit"]["testees"] = [SHARER]
    params = type(params).model_validate(raw)
    workspace = Workspace.of(open_run(params.audit.runs_dir, "test", params).root)
    for arm in workspace.run.arms():
        run_steps(arm, in_process(workspace))
    return workspace.run


def copy_of(finished_audit: RunDir, tmp_path: Path) -> RunDir:
    """A copy of the finished audit with annotations of its own: verdicts recorded there stay out of the other tests."""
    root = shutil.copytree(finished_audit.root, tmp_path / "runs" / finished_audit.run_id)
    config = json.loads((root / CONFIG_FILE).read_text(encoding="utf-8"))
    config["params"]["audit"]["annotations_dir"] = str(tmp_path / "annotations")
    (root / CONFIG_FILE).write_text(json.dumps(config), encoding="utf-8")
    return RunDir(root)
