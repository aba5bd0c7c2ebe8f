import json

import yaml

from sea.cli import main
from tests.conftest import SAMPLE_ARTICLES, write_jsonl


def _params_file(tmp_path, **kb):
    params = {
        "paths": {name: str(tmp_path / name) for name in ("packaged_dir", "kb_dir", "embeddings_dir", "index_dir", "cache_dir")},
        "kb": kb,
    }
    path = tmp_path / "params.yaml"
    path.write_text(yaml.safe_dump(params))
    return path


def test_build_stats_embed_index_query(tmp_path, capsys):
    source = write_jsonl(tmp_path / "kb.jsonl", [{"title": t, "text": x} for t, x in SAMPLE_ARTICLES])
    params = str(_params_file(tmp_path, source="jsonl", input=str(source)))
    for command in (["kb", "build"], ["embed"], ["index", "build"]):
        assert main(["--params", params, "--quiet", *command]) == 0
    capsys.readouterr()

    assert main(["--params", params, "kb", "stats", "--json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert stats["documents"] == len(SAMPLE_ARTICLES) and stats["paragraphs"] == len(SAMPLE_ARTICLES)
    assert sum(stats["categories"].values()) == len(SAMPLE_ARTICLES) and stats["uncategorised"] == 0

    assert main(["--params", params, "kb", "stats"]) == 0
    table = capsys.readouterr().out
    assert "documents: 6" in table and "Mathematics and logic" in table

    assert main(["--params", params, "index", "query", "highest mountain on Earth", "-k", "2"]) == 0
    assert capsys.readouterr().out.splitlines()[0].split("  ")[1] == "Mount Everest"


def test_errors_are_one_clear_line(tmp_path, capsys):
    params = _params_file(tmp_path, source="jsonl", input=str(tmp_path / "absent.jsonl"))
    assert main(["--params", str(params), "kb", "build"]) == 2
    error = capsys.readouterr().err
    assert error.startswith("sea: error: kb.input: file") and "Traceback" not in error

    params.write_text("kb:\n  source: 7\n")
    assert main(["--params", str(params), "kb", "build"]) == 2
    assert "kb.source" in capsys.readouterr().err
