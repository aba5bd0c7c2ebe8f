"""One finished small audit on the simulated testee, shared by the findings tests (it takes a minute)."""

import pytest

from sea.audit.rundir import RunDir, open_run
from sea.audit.steps import in_process, run_steps
from sea.audit.workspace import Workspace
from tests.audit.conftest import small_audit

CONTEXT_ADOPTION = 0.4


@pytest.fixture(scope="session")
def finished_audit(vital_sample, tmp_path_factory) -> RunDir:
    """The `sea` arm to at most 1,500 questions, on a probe testee that adopts the paragraph's
    answer 40% of the time when shown it."""
    params = small_audit(vital_sample, tmp_path_factory.mktemp("findings") / "runs", budget__testee_calls=1500,
                         search__arms=["sea"])
    raw = params.model_dump(mode="json")
    raw["simulated"]["probe"]["context_adoption"] = CONTEXT_ADOPTION
    params = type(params).model_validate(raw)
    workspace = Workspace.of(open_run(params.audit.runs_dir, "test", params).root)
    for arm in workspace.run.arms():
        run_steps(arm, in_process(workspace))
    return workspace.run
