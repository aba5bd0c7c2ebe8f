"""dvc.yaml's stage contracts: every project module a stage's command can import, and every
params section that code reads, is a dependency of the stage — else `dvc repro` could leave an
output stale after a change. Imports are followed statically and conservatively (imports inside
functions count too), starting from the CLI handler the stage's command dispatches to."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
import yaml

from flows.cli import parser

REPO = Path(__file__).resolve().parents[1]
PACKAGES = ("sea", "flows", "tasks")
SECTIONS = ("kb", "embedding", "index", "models", "budget", "prices", "simulated", "questions", "search", "audit", "findings")
_READS = re.compile(r"\bparams\.(" + "|".join(SECTIONS) + r")\b")
STAGES = yaml.safe_load((REPO / "dvc.yaml").read_text())["stages"]


def _file(module: str) -> Path | None:
    path = REPO.joinpath(*module.split("."))
    for candidate in (path.with_suffix(".py"), path / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _imported(nodes) -> set[Path]:
    found = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [f"{node.module}.{alias.name}" for alias in node.names] + [node.module]
        else:
            continue
        for name in names:
            if name.split(".")[0] in PACKAGES and (path := _file(name)):
                found.add(path)
    return found


def _closure(start: set[Path]) -> set[Path]:
    seen, todo = set(), list(start)
    while todo:
        path = todo.pop()
        if path not in seen:
            seen.add(path)
            todo += _imported(ast.walk(ast.parse(path.read_text())))
    return seen


def stage_modules(command: str) -> set[Path]:
    """The project files the stage's CLI handler can reach: flows/cli.py's top-level imports, the
    (lazy) imports of the handler and of the cli.py functions it calls, and everything those
    import. flows/cli.py itself only parses arguments and prints, so it is no stage's dependency
    (else any new command would rerun all)."""
    handler = parser().parse_args(command.split()[1:]).run
    tree = ast.parse((REPO / "flows" / "cli.py").read_text())
    functions = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    reached, todo = set(), [handler.__name__]
    while todo:
        name = todo.pop()
        if name not in reached:
            reached.add(name)
            todo += [n.id for n in ast.walk(functions[name]) if isinstance(n, ast.Name) and n.id in functions]
    lazy = set().union(*(_imported(ast.walk(functions[name])) for name in reached))
    return _closure(_imported(tree.body) | lazy) - {REPO / "flows" / "cli.py"}


def _covered(path: Path, deps: list[str]) -> bool:
    relative = path.relative_to(REPO).as_posix()
    return any(relative == dep or relative.startswith(dep.rstrip("/") + "/") for dep in deps)


@pytest.mark.parametrize("stage", [name for name, stage in STAGES.items() if stage["cmd"].startswith("sea ")])
def test_a_stage_depends_on_every_module_and_params_section_its_command_reads(stage):
    spec = STAGES[stage]
    modules = stage_modules(spec["cmd"])
    missing = sorted(p.relative_to(REPO).as_posix() for p in modules if not _covered(p, spec.get("deps", [])))
    assert not missing, f"stage {stage!r} imports {missing} without depending on them"
    listed = {str(key).split(".")[0] for key in spec.get("params", [])}
    read = {section for path in modules for section in _READS.findall(path.read_text())}
    assert read <= listed, f"stage {stage!r} reads params sections {sorted(read - listed)} it does not list"


def test_the_contract_check_sees_lazy_imports_and_params_reads():
    audit = stage_modules(STAGES["audit"]["cmd"])
    assert REPO / "sea" / "llm" / "simulated.py" in audit  # imported inside a function of sea/llm/registry.py
    assert REPO / "sea" / "index.py" in audit
    assert "index" in {s for p in audit for s in _READS.findall(p.read_text())}
    assert REPO / "sea" / "findings" / "retest.py" in stage_modules(STAGES["findings"]["cmd"])  # through a helper the handler calls


def test_the_stages_that_read_the_default_runs_reviews_depend_on_them_and_the_folder_is_kept():
    """A review import reruns the report and the exports; DVC fails on a dependency that does not exist."""
    folder = yaml.safe_load((REPO / "params.yaml").read_text())["audit"]["annotations_dir"]
    for stage in ("report", "exports"):
        assert "${audit.annotations_dir}/default" in STAGES[stage]["deps"], stage
    assert (REPO / folder / "default" / "README.md").is_file()
