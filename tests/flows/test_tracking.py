"""flows/tracking.py: audits that start together on a new MLflow store."""

import subprocess
import sys
from pathlib import Path

from mlflow.tracking import MlflowClient

from flows.tracking import DESCRIPTION

REPO = Path(__file__).resolve().parents[2]
OPEN = "import sys; from flows.tracking import open_experiment; open_experiment(sys.argv[1], 'sea'); print('opened')"


def test_audits_that_start_together_on_a_new_store_all_open_it_and_leave_it_usable(tmp_path):
    uri = f"sqlite:///{tmp_path / 'new' / 'mlflow.db'}"
    starts = [subprocess.Popen([sys.executable, "-c", OPEN, uri], cwd=REPO, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True) for _ in range(4)]
    outputs = [start.communicate(timeout=300)[0] for start in starts]
    assert [start.returncode for start in starts] == [0] * 4, "\n".join(outputs)  # unlocked: alembic errors in most
    experiments = [e for e in MlflowClient(uri).search_experiments() if e.name == "sea"]
    assert len(experiments) == 1 and experiments[0].tags["mlflow.note.content"] == DESCRIPTION
