"""The layering the README describes, checked on every import (top-level or inside a function):
the core never reaches up into orchestration, and the model layer knows nothing of questions."""

import ast
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

# package -> what no module in it may import
FORBIDDEN = {
    "sea": ("flows", "tasks", "prefect", "mlflow"),
    "sea/llm": ("sea.questions", "sea.search", "sea.audit"),
    "sea/kb": ("sea.questions", "sea.search", "sea.audit", "sea.llm"),
    "sea/questions": ("sea.search", "sea.audit"),
    "sea/search": ("sea.audit",),
}


def imported(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


@pytest.mark.parametrize("package", FORBIDDEN)
def test_no_module_imports_a_layer_above_it(package):
    offending = sorted(
        f"{path.relative_to(REPO).as_posix()} imports {name}"
        for path in (REPO / package).rglob("*.py")
        for name in imported(path)
        if any(name == banned or name.startswith(banned + ".") for banned in FORBIDDEN[package])
    )
    assert not offending, offending


def test_the_check_sees_a_lazy_import(tmp_path):
    module = tmp_path / "m.py"
    module.write_text("def f():\n    from flows.audit import sea_audit\n")
    assert "flows.audit" in imported(module)
