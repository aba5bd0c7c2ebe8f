# The two commands a newcomer needs: `make audit` and `make test`. Both create .venv on first
# use and reinstall only when pyproject.toml changes (the stamp files below: the core for `make audit`,
# the test extras on top for `make test`). pip byte-compiles the
# 33,526 installed modules on one core (about 2.5 min); compileall does it on every core instead
# (about 1.2 min on 2). "|| true": a few packages ship files that are not Python 3 (test data, templates),
# as pip tolerates too. Compiled here rather than on first import, so that an environment with
# PYTHONDONTWRITEBYTECODE set does not compile on every import.
PYTHON ?= python3
VENV := .venv
STAMP := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test
PURELIB = "$$($(VENV)/bin/python -c 'import sysconfig; print(sysconfig.get_path("purelib"))')"

export PATH := $(CURDIR)/$(VENV)/bin:$(PATH)
# Offline and quiet: no model hub, no telemetry.
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1
export DVC_NO_ANALYTICS := 1
export DO_NOT_TRACK := 1
export PREFECT_SERVER_ANALYTICS_ENABLED := false
export MLFLOW_DISABLE_TELEMETRY := true

.PHONY: audit test check-report mlflow-ui schedule bench bench-steps bench-kb bench-scale bench-models bench-questions bench-headroom bench-anchors install clean

install: $(STAMP)

# The core install: what an audit needs. compileall skips modules already compiled, so the test
# stamp's second pass compiles only what the test extras added.
$(STAMP): pyproject.toml
	test -x $(VENV)/bin/python || $(PYTHON) -m venv $(VENV)
	$(VENV)/bin/python -m pip install --disable-pip-version-check --no-compile -q -e .
	$(VENV)/bin/python -m compileall -q -j 0 $(PURELIB) > /dev/null || true
	touch $(STAMP)

# The test extras on top (pytest, and inspect-ai and lm-eval, which run the exports: 50 more
# distributions, 174 MB, that `make audit` does not need).
$(TEST_STAMP): $(STAMP)
	$(VENV)/bin/python -m pip install --disable-pip-version-check --no-compile -q -e '.[test]'
	$(VENV)/bin/python -m compileall -q -j 0 $(PURELIB) > /dev/null || true
	touch $(TEST_STAMP)

# The whole pipeline of dvc.yaml: knowledge base, embeddings, index, the audit (all arms) and its
# report. A second run with nothing changed is a no-op.
audit: $(STAMP)
	dvc repro
	@echo
	@sea summary default
	@echo
	@echo "Report:  reports/audit.html (self-contained; open it in a browser)"
	@echo "Exports: exports/default/{jsonl,parquet,inspect,lm-eval} (the wrong answers as suites; README: Check and keep what you found)"
	@echo "MLflow:  make mlflow-ui, then http://127.0.0.1:5000"

# reports/audit.html in headless Chromium: no request leaves it, nothing wider than 1,280 or 1,400 px,
# every figure loaded, the filters work -> reports/benchmarks/report-check.{json,md,png}.
# Needs Chromium installed (Debian/Ubuntu: apt-get install chromium); installs the browser extra.
check-report: audit
	$(VENV)/bin/python -m pip install --disable-pip-version-check -q -e '.[browser]'
	python scripts/check_report.py reports/audit.html

# The MLflow UI on this machine only, over the store the audits log to: MLFLOW_TRACKING_URI when set,
# else audit.mlflow_tracking_uri (sqlite:///mlflow.db), as flows/tracking.py decides for the audits.
# A tracking server (http, https) is no backend store for `mlflow ui`, and serves its own UI: open that
# (shown without the user name and password the URI may carry).
MLFLOW_STORE = python -c 'from flows.tracking import tracking_uri; from sea.settings import load_params; print(tracking_uri(load_params()))'
mlflow-ui: $(STAMP)
	store="$$($(MLFLOW_STORE))" && case "$$store" in \
	  http://*|https://*) server="$$(echo "$$store" | sed 's|//[^/]*@|//|')"; \
	    echo "MLflow: the audits log to the tracking server $$server, which serves its own UI: open $$server (nothing started)";; \
	  *) mlflow ui --backend-store-uri "$$store" --host 127.0.0.1 --port 5000;; \
	esac

# Serve the recurring audit (audit.schedule_cron in params.yaml) until interrupted, against
# PREFECT_API_URL's server or one started for it. E.g. SCHEDULE_ARGS='--cron "* * * * *"'.
SCHEDULE_ARGS ?=
schedule: $(STAMP)
	python -m flows.deploy $(SCHEDULE_ARGS)

# The suite on TEST_WORKERS processes (pytest-xdist), a test file to a process: its module fixtures
# are built once. On 2 cores the suite is CPU-bound; more workers help only with more cores.
TEST_WORKERS ?= 2
test: $(TEST_STAMP)
	pytest -n $(TEST_WORKERS) --dist loadfile

# Discovery per unit of budget: every arm and sea_plus ablation x 5 blind-spot profiles x 5 seeds, in
# two question settings (1 phrasing at 2,000 and 5,000 questions, 2 at 1,000), plus the paper's
# setting, then the arms on SmolLM2 -> reports/benchmarks/discovery.json, .md and .png
# (several hours on 2 cores; `python benchmarks/discovery.py --seeds 1 --rows ...` for a quick look)
bench: audit
	python benchmarks/discovery.py
	python benchmarks/discovery.py --real-model

# Where an audit's time goes: seconds per task and step, Prefect overhead, replay
# -> reports/benchmarks/steps.json and steps.md
bench-steps: audit
	python benchmarks/steps.py

# Knowledge-base throughput figures -> reports/benchmarks/kb.json and kb.md
bench-kb: audit
	python benchmarks/kb.py

# The sharded build on 1 process vs a 2-worker Dask cluster, the paragraph store at 1M paragraphs,
# IVF-PQ at 1M vectors, and the full dump extrapolated with bench-kb's embedding rate (scale.json, scale.md)
bench-scale: audit
	python benchmarks/scale.py

# Rate-limit saturation and client overhead against a local fake server, SmolLM2 s/question
# -> reports/benchmarks/models.json and models.md
bench-models: $(STAMP)
	python benchmarks/models.py

# The offline question generator on 1,000 vital10k paragraphs; SmolLM2 closed- vs open-book
# -> reports/benchmarks/questions.json and questions.md
bench-questions: audit
	python benchmarks/questions.py

# What any search could find, estimated: random's and the best possible error rate per blind-spot profile and
# budget, from every paragraph's offline questions -> reports/benchmarks/headroom.json and headroom.md
bench-headroom: audit
	python benchmarks/headroom.py

# The error clusters of the default audit against the planted blind spots, by the anchors' neighbourhood
# size and beside average linkage -> reports/benchmarks/anchors.json and anchors.md
bench-anchors: audit
	python benchmarks/anchors.py

clean:
	rm -rf data/kb data/embeddings data/index data/cache runs
