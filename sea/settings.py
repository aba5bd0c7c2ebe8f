"""params.yaml, validated once at the edge into typed settings."""

from __future__ import annotations

import functools
import re
from importlib import resources
from pathlib import Path
from typing import Literal, TypeVar, get_args, get_origin
from urllib.parse import urlsplit

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, ValidationInfo, field_validator, model_validator

from sea.errors import ParamsError

PROVIDERS = ("openai", "anthropic", "openai-compatible", "local", "simulated")
LOCAL_MODELS = ("smollm2-135m", "gemma3-270m")
DEFAULT_KEY_VARIABLES = {"openai": "OPENAI_API_KEY", "anthropic": "ANTHROPIC_API_KEY"}
DEFAULT_EMBEDDING_MODEL = "all-MiniLM-L6-v2"
IN_FLIGHT_DEFAULTS = {"openai": 8, "anthropic": 8, "openai-compatible": 8, "local": 32, "simulated": 256}
_Entry = TypeVar("_Entry")  # a price table's entry

# A dimension divisible by the common PQ sub-quantizer counts, so that the syntax of a
# factory string can be checked before the real embedding dimension is known.
_FACTORY_PROBE_DIM = 3840
_MLFLOW_EXPERIMENT_NAME_LIMIT = 500  # mlflow.utils.validation.MAX_EXPERIMENT_NAME_LENGTH (the core does not import MLflow)


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    @field_validator("*", mode="before")
    @classmethod
    def _yaml_booleans(cls, value: object, info: ValidationInfo) -> object:
        """YAML 1.1 reads on/off (and yes/no) as true/false: where the choices are 'on' and 'off' they mean those.
        Pydantic would read true and false as 1 and 0 where a number is expected: refused."""
        annotation = cls.model_fields[info.field_name].annotation
        types = {annotation, *get_args(annotation)}
        if isinstance(value, bool) and get_origin(annotation) is Literal and {"on", "off"} <= types:
            return "on" if value else "off"
        if isinstance(value, bool) and bool not in types and types & {int, float}:
            allowed = " or null" if type(None) in types else ""
            raise ValueError(f"{str(value).lower()} is not a number; write a number{allowed}")
        return value

    @field_validator("*")
    @classmethod
    def _home_expanded(cls, value: object) -> object:
        """~ in a path is the home directory, as in a shell."""
        return value.expanduser() if isinstance(value, Path) else value


class PathSettings(_Section):
    packaged_dir: Path = Path("data/packaged")
    kb_dir: Path = Path("data/kb")
    embeddings_dir: Path = Path("data/embeddings")
    index_dir: Path = Path("data/index")
    cache_dir: Path = Path("data/cache")
    responses_cache: Path = Path("data/cache/responses.sqlite")


class KbSettings(_Section):
    source: Literal["vital10k", "enwiki-sample", "wikipedia-dump", "jsonl", "parquet"] = "vital10k"
    input: Path = Path("data/packaged/vital10k.json")
    max_documents: int | None = Field(default=None, gt=0)
    min_paragraph_chars: int = Field(default=80, ge=1)
    max_paragraph_chars: int = Field(default=4000, ge=200)
    workers: int = Field(default=1, ge=1)
    chunk_documents: int = Field(default=2000, ge=1)
    # A *-multistream.xml.bz2 dump is built shard by shard through its index (where compute.* says)
    multistream_index: str | None = None  # null: the -multistream-index.txt.bz2 beside the dump
    streams_per_shard: int = Field(default=100, ge=1)  # bz2 streams (100 pages each) converted per task

    @model_validator(mode="after")
    def _paragraph_bounds_ordered(self) -> KbSettings:
        if self.min_paragraph_chars > self.max_paragraph_chars:
            raise ValueError(f"kb.min_paragraph_chars ({self.min_paragraph_chars}) is above kb.max_paragraph_chars "
                             f"({self.max_paragraph_chars}), so every paragraph would be skipped; lower the one or raise the other")
        return self


class ComputeSettings(_Section):
    """Where the heavy stages run: in this process, or on a Dask cluster through Prefect's DaskTaskRunner."""

    runner: Literal["local", "dask"] = "local"
    address: str | None = None  # an existing scheduler (`dask scheduler`, dask-jobqueue, …); null: a LocalCluster
    workers: int = Field(default=2, ge=1)  # worker processes of that LocalCluster
    connect_timeout_s: float = Field(default=10.0, gt=0)

    @model_validator(mode="after")
    def _address_needs_dask(self) -> ComputeSettings:
        if self.address and self.runner != "dask":
            raise ValueError("compute.address is set but compute.runner is 'local'; set runner: dask to use that scheduler")
        return self


class EmbeddingSettings(_Section):
    model: str = DEFAULT_EMBEDDING_MODEL
    batch_size: int = Field(default=64, ge=1)
    device: str = "cpu"  # whether this machine has it: sea.embeddings.require_device
    trust_remote_code: bool = False

    @field_validator("device")
    @classmethod
    def _a_device(cls, device: str) -> str:
        if not re.fullmatch(r"cpu|mps|cuda(:\d+)?", device):
            raise ValueError(f"{device!r} is not a device; use cpu, cuda, cuda:N or mps")
        return device


class IndexSettings(_Section):
    factory: str = "Flat"
    nprobe: int = Field(default=16, ge=1)
    ef_search: int = Field(default=64, ge=1)
    train_sample: int = Field(default=200_000, ge=1)
    rerank: int = Field(default=0, ge=0)  # > 0: re-score this many candidates exactly from documents.npy (PQ indexes)
    memory_gb: float = Field(default=1.0, gt=0)  # factory: auto picks the most exact index that fits this

    @field_validator("factory")
    @classmethod
    def _factory_parses(cls, factory: str) -> str:
        import faiss

        if factory == "auto":
            return factory
        try:
            faiss.index_factory(_FACTORY_PROBE_DIM, factory, faiss.METRIC_INNER_PRODUCT)
        except RuntimeError as error:
            first_line = str(error).strip().splitlines()[-1] if str(error).strip() else "unparseable"
            raise ValueError(
                f"FAISS cannot build {factory!r} ({first_line}); use e.g. 'Flat', 'HNSW32', 'IVF1024,Flat' or 'IVF4096,PQ32'"
            ) from None
        return factory


class ModelSettings(_Section):
    """One model in one role, named by a single string `provider:model`."""

    model: str
    base_url: str | None = None  # openai-compatible (required), or to redirect openai/anthropic
    api_key_env: str | None = None  # name of the environment variable holding the key, never the key
    max_in_flight: int | None = Field(default=None, ge=1)  # None: the provider's default (IN_FLIGHT_DEFAULTS)
    requests_per_minute: float | None = Field(default=None, gt=0)
    tokens_per_minute: float | None = Field(default=None, gt=0)
    timeout_s: float = Field(default=60.0, gt=0)
    max_attempts: int = Field(default=6, ge=1)
    # calls in a row failed for good -> stop the run; the generator's: also paragraphs in a row with no usable question
    stop_after_failures: int = Field(default=10, ge=1)
    backoff_base_s: float = Field(default=1.0, ge=0)
    backoff_cap_s: float = Field(default=60.0, ge=0)
    max_retry_after_s: float = Field(default=600.0, ge=0)  # a server's Retry-After above it stops the run, resumable
    temperature: float = Field(default=0.1, ge=0, le=2)
    top_p: float = Field(default=0.9, gt=0, le=1)
    max_tokens: int = Field(default=16, ge=1)
    local_mode: Literal["letters", "generate"] = "letters"  # local models: score option letters or decode

    @field_validator("model")
    @classmethod
    def _provider_known(cls, model: str) -> str:
        provider, _, name = model.partition(":")
        if provider not in PROVIDERS or not name:
            raise ValueError(f"{model!r} is not 'provider:model' with provider one of {', '.join(PROVIDERS)}")
        if provider == "local" and name not in LOCAL_MODELS:
            raise ValueError(f"unknown local model {name!r}; choose one of {', '.join(LOCAL_MODELS)}")
        return model

    @field_validator("base_url")
    @classmethod
    def _base_url_is_http(cls, base_url: str | None) -> str | None:
        if base_url is not None:
            parts = urlsplit(base_url)
            if parts.username or parts.password:  # sent as a Basic key, and recorded wherever the endpoint is
                raise ValueError(f"base_url {without_credentials(base_url)!r} holds a user name or password; give the key "
                                 f"through the environment instead (api_key_env names the variable)")
            if parts.scheme not in ("http", "https") or not parts.hostname:
                raise ValueError(f"base_url {base_url!r} is not an http(s) URL; write it like http://127.0.0.1:8000/v1")
        return base_url

    @model_validator(mode="after")
    def _endpoint_given(self) -> ModelSettings:
        if self.provider == "openai-compatible" and not self.base_url:
            raise ValueError("openai-compatible models need base_url (e.g. http://127.0.0.1:8000/v1)")
        return self

    @property
    def provider(self) -> str:
        return self.model.partition(":")[0]

    @property
    def name(self) -> str:
        return self.model.partition(":")[2]

    @property
    def in_flight(self) -> int:
        """Concurrent calls: in-process models batch what is in flight, so they take many at once."""
        return self.max_in_flight or IN_FLIGHT_DEFAULTS[self.provider]

    @property
    def key_variable(self) -> str | None:
        return self.api_key_env or DEFAULT_KEY_VARIABLES.get(self.provider)


class ModelsSettings(_Section):
    testee: ModelSettings = ModelSettings(model="simulated:paper-regime")
    generator: ModelSettings | None = None  # None: the offline question generator
    verifier: ModelSettings | None = None  # None: the generator verifies (questions.gate), none for offline questions


class BudgetSettings(_Section):
    """Hard limits on the testee; any combination. Reserved before each call is sent."""

    testee_calls: int | None = Field(default=1000, ge=1)
    tokens: int | None = Field(default=None, ge=1)
    dollars: float | None = Field(default=None, gt=0)


class Price(_Section):
    input: float = Field(ge=0)  # US dollars per million tokens
    output: float = Field(ge=0)


@functools.cache  # read at every params validation; callers do not change it
def default_prices() -> dict[str, dict[str, float]]:
    """sea/llm/prices.yaml: the packaged prices by model string, {"input": ..., "output": ...} each."""
    return yaml.safe_load(resources.files("sea.llm").joinpath("prices.yaml").read_text(encoding="utf-8"))


def listed_price(prices: dict[str, _Entry], model: str) -> _Entry | None:
    """The entry for the model string or its longest listed prefix (a dated snapshot: its model's); None when unlisted."""
    matches = [key for key in prices if model == key or model.startswith(key)]
    return prices[max(matches, key=len)] if matches else None


class SimulatedProfile(_Section):
    """A deterministic testee that knows the knowledge base except in planted blind spots."""

    blind_spot_regions: int = Field(default=5, ge=0)
    blind_spot_share: float = Field(default=0.05, ge=0, le=1)  # share of documents inside blind spots
    base_error: float = Field(default=0.2, ge=0, le=1)  # error rate outside blind spots
    category_error: dict[str, float] = {}  # error rate for whole categories, overriding base_error
    context_adoption: float = Field(default=0.3, ge=0, le=1)  # shown the paragraph: share answered from it (sea retest)
    shares_regions_of: str | None = None  # another profile, whose first shared_regions regions are blind spots here too
    shared_regions: int = Field(default=0, ge=0)  # (sea transfer's ground truth: a known overlap between two testees)
    seed: int = Field(default=0, ge=0)

    @field_validator("category_error")
    @classmethod
    def _categories_known(cls, errors: dict[str, float]) -> dict[str, float]:
        from sea.categories import CATEGORIES

        for name, rate in errors.items():
            if name not in CATEGORIES:
                raise ValueError(f"unknown category {name!r}; use one of the 13: {', '.join(CATEGORIES)}")
            if not 0 <= rate <= 1:
                raise ValueError(f"error rate for {name!r} must be within 0..1")
        return errors


class QuestionSettings(_Section):
    """Question generation (models.generator, or the offline cloze generator when it is null),
    the quality gate and the testee prompt."""

    per_paragraph: int = Field(default=5, ge=1)  # base questions per paragraph (paper: 5)
    variants: int = Field(default=2, ge=1)  # phrasings per question, the original included (paper: 5)
    gate: Literal["auto", "on", "off"] = "auto"  # verifier check; auto = on for LLM-written questions
    duplicate_similarity: float = Field(default=0.95, gt=0, le=1)  # drop a question this similar to a kept one
    section_hint: bool = False  # tell the testee the section title (the paper's prompt did)
    writer_attempts: int = Field(default=3, ge=1)  # tries for a writer reply with the right count of valid items
    neighbours: int = Field(default=10, ge=1)  # nearby documents that offline distractors come from
    latest_year: int | None = None  # the knowledge base's date: no offline year distractor after it (None: read from the text)
    seed: int = Field(default=0, ge=0)


class PlusSettings(_Section):
    """The sea_plus arm: the paper's loop spending the testee budget better. Each switch on its own."""

    adaptive: bool = True  # ask in rounds; stop asking a paragraph once decided (at or below tau, with ask_out_failing)
    round_size: int = Field(default=1, ge=1)  # questions per paragraph per round
    confidence_z: float = Field(default=1.28, gt=0)  # Wilson interval width for "decided"
    ask_out_failing: bool = True  # a paragraph decided above tau is asked all its questions; only one below stops early
    weighted_draw: bool = True  # draw candidates by similarity to their sources x those sources' error rates
    ranked_draw: bool = False  # ... or take those of the highest weight first, before those fewer failed sources retrieved (not with bandit, whose draw wins)
    evidence_sources: bool = False  # promote a paragraph only when P(its error rate > tau) reaches source_confidence
    source_confidence: float = Field(default=0.8, gt=0, lt=1)  # ... under a uniform prior: 2 of 2 or 4 of 5 wrong do, 1 of 1 not
    yield_pruning: bool = False  # prune a source by its yield (retrieved paragraphs that became sources), not gamma
    prune_below: float = Field(default=0.1, gt=0, lt=1)  # ... once P(its yield beats the arm's) falls below this
    bandit: bool = False  # share each batch among the sources by Thompson sampling on their yields
    region_retrieval: bool = False  # query from a source's region (it and the sources it led to); k by its yield
    failure_prior: bool = False  # weight candidates by a classifier of failure trained on the paragraphs evaluated so far
    guided_exploration: bool = True  # a step without candidates draws its exploration batch by the prior, not uniformly
    ranked_exploration: bool = False  # ... taking the scouts the prior ranks highest instead of drawing in proportion to it
    fill_by_exploration: bool = False  # a step whose candidates fill only part of the batch explores the rest
    prior_model: Literal["logistic", "neighbours"] = "neighbours"  # ... a logistic regression, or the failures of a candidate's nearest evaluated paragraphs


class SearchSettings(_Section):
    """The SEA loop; paper defaults."""

    batch_size: int = Field(default=40, ge=1)  # paragraphs per step
    k_documents: int = Field(default=50, ge=1)  # documents retrieved per source
    m_paragraphs: int = Field(default=10, ge=1)  # paragraphs kept per source
    tau: float = Field(default=0.5, ge=0, le=1)  # error rate above which a paragraph becomes a source
    gamma: float = Field(default=0.5, ge=0, le=1)  # descendants' mean error below which a source is pruned
    arms: list[str] = ["sea", "no_pruning", "random"]  # names from sea/search/arms.py, checked by check_audit
    seed: int = Field(default=0, ge=0)
    plus: PlusSettings = PlusSettings()


class AuditSettings(_Section):
    """Where audits are written and logged, and the testees audited beside models.testee."""

    runs_dir: Path = Path("runs")  # runs/<run_id>/: checkpoints, questions, answers, the DAG
    annotations_dir: Path = Path("annotations")  # annotations/<run_id>/: what is added after the audit (review/, compare/)
    testees: list[str] = []  # more model strings, each audited with models.testee's settings on the same questions
    mlflow_tracking_uri: str = "sqlite:///mlflow.db"  # overridden by the MLFLOW_TRACKING_URI environment variable
    mlflow_experiment: str = "sea-audit"
    schedule_cron: str = "0 6 * * 1"  # the recurring audit served by `make schedule`
    compare_calls: int = Field(default=1000, ge=1)  # testee calls to re-ask the previous audit's sources

    @field_validator("testees")
    @classmethod
    def _testees_parse(cls, testees: list[str]) -> list[str]:
        for model in testees:
            ModelSettings._provider_known(model)
        return testees

    @field_validator("mlflow_experiment")
    @classmethod
    def _an_experiment_name(cls, name: str) -> str:
        if not name.strip():
            raise ValueError(f"{name!r} is empty; name the MLflow experiment the audits are logged to, e.g. sea-audit")
        if len(name) > _MLFLOW_EXPERIMENT_NAME_LIMIT:
            raise ValueError(f"{len(name)} characters, more than MLflow's {_MLFLOW_EXPERIMENT_NAME_LIMIT}; shorten it")
        return name


class FindingsSettings(_Section):
    """`sea findings`: each testee's source paragraphs grouped into named error clusters."""

    anchor_neighbours: int = Field(default=150, ge=2)  # a cluster: the sources among one article's this many nearest
    min_cluster_size: int = Field(default=3, ge=2)  # smaller groups are left unclustered
    terms: int = Field(default=5, ge=1)  # distinctive terms naming a cluster
    generator_names: bool = True  # with models.generator set: a one-line name per cluster, written by it
    titles: int = Field(default=3, ge=1)  # central titles shown per cluster
    examples: int = Field(default=3, ge=0)  # wrong answers shown per cluster
    retest_questions: int | None = Field(default=500, ge=1)  # sea retest: wrong answers re-asked (None: all)
    transfer_calls: int | None = Field(default=2000, ge=0)  # sea transfer: new calls per testee (None: no limit)
    seed: int = Field(default=0, ge=0, le=2**32 - 1)  # the map's t-SNE layout (scikit-learn takes 32 bits)


class Params(_Section):
    paths: PathSettings = PathSettings()
    kb: KbSettings = KbSettings()
    compute: ComputeSettings = ComputeSettings()
    embedding: EmbeddingSettings = EmbeddingSettings()
    index: IndexSettings = IndexSettings()
    models: ModelsSettings = ModelsSettings()
    budget: BudgetSettings = BudgetSettings()
    prices: dict[str, Price] = {}
    simulated: dict[str, SimulatedProfile] = {"paper-regime": SimulatedProfile()}
    questions: QuestionSettings = QuestionSettings()
    search: SearchSettings = SearchSettings()
    audit: AuditSettings = AuditSettings()
    findings: FindingsSettings = FindingsSettings()

    @field_validator("prices", mode="before")
    @classmethod
    def _over_packaged_prices(cls, prices: object) -> object:
        """An entry giving only input or output takes the other from sea/llm/prices.yaml (the price the model has
        without the entry: its own or its longest listed prefix's), so --set prices.M.input=0.4 changes one."""
        if not isinstance(prices, dict) or not prices:
            return prices
        packaged = default_prices()
        return {model: {**(listed_price(packaged, str(model)) or {}), **entry} if isinstance(entry, dict) else entry
                for model, entry in prices.items()}

    @model_validator(mode="after")
    def _simulated_profiles_exist(self) -> Params:
        models = [(f"models.{role}.model", getattr(self.models, role)) for role in ("testee", "generator", "verifier")]
        for i, model in enumerate(self.audit.testees):
            settings = _beside(self.models.testee, model)
            if settings.provider == "openai-compatible" and not settings.base_url:
                raise ValueError(f"audit.testees.{i}: {model} has no base_url: a testee listed here shares models.testee's "
                                 f"endpoint only when both are openai-compatible; audit it as models.testee, with its base_url")
            models.append((f"audit.testees.{i}", settings))
        for key, settings in models:
            if settings is not None and settings.provider == "simulated" and key == "models.generator.model":
                raise ValueError(f"{key}: a simulated model answers questions but writes none; use an API or local "
                                 f"model, or null for the offline generator")
            if settings is not None and settings.provider == "simulated" and settings.name not in self.simulated:
                raise ValueError(
                    f"{key}: no simulated profile {settings.name!r}; define it under `simulated:` "
                    f"or use one of {', '.join(self.simulated)}"
                )
        for name, profile in self.simulated.items():
            _check_shared_regions(name, profile, self.simulated)
        return self

    def testee_settings(self) -> list[ModelSettings]:
        """models.testee, then each of audit.testees with the same limits and decoding."""
        first = self.models.testee
        return [first, *(_beside(first, model) for model in self.audit.testees if model != first.model)]


def _beside(first: ModelSettings, model: str) -> ModelSettings:
    """A testee of audit.testees: models.testee's settings, and its endpoint and key only when of the same provider
    (several models behind one server); another provider's key must never go to models.testee's server."""
    same_provider = model.partition(":")[0] == first.provider
    return first.model_copy(update={"model": model, **({} if same_provider else {"base_url": None, "api_key_env": None})})


def without_credentials(url: str) -> str:
    """The URL as it may be shown: without the user name and password it may carry."""
    parts = urlsplit(url)
    return parts._replace(netloc=parts.netloc.rpartition("@")[2]).geturl() if "@" in parts.netloc else url


def _check_shared_regions(name: str, profile: SimulatedProfile, profiles: dict[str, SimulatedProfile]) -> None:
    other = profile.shares_regions_of
    if other is None:
        if profile.shared_regions:
            raise ValueError(f"simulated.{name}.shared_regions: set shares_regions_of to the profile they come from")
        return
    if other == name or other not in profiles:
        raise ValueError(f"simulated.{name}.shares_regions_of: {other!r} is not another profile; use one of "
                         f"{', '.join(p for p in profiles if p != name) or '(none defined)'}")
    if profiles[other].shares_regions_of is not None:
        raise ValueError(f"simulated.{name}.shares_regions_of: {other!r} shares regions itself; share from a profile that does not")
    if profile.shared_regions > profiles[other].blind_spot_regions:
        raise ValueError(f"simulated.{name}.shared_regions: {profile.shared_regions} is more than the "
                         f"{profiles[other].blind_spot_regions} regions {other!r} plants")


def _describe(error: dict, file: str, raw: dict, overrides: dict[str, object]) -> str:
    loc = tuple(str(part) for part in error["loc"])
    key = ".".join(loc) or "params"
    if error["type"] == "extra_forbidden":
        return f"{key}: unknown key; remove it or check its spelling"
    if error["type"] == "value_error":
        return f"{key}: {error['msg'].removeprefix('Value error, ')}"
    if error["type"] == "literal_error":
        return f"{key}: {error['input']!r} is not allowed; {error['msg'].lower()}"
    given = error.get("input")
    where = "the override (--set)" if _made_by_override(loc, raw, overrides) else file
    section = _SECTIONS.get(error.get("ctx", {}).get("class_name", ""))
    if error["type"] == "model_type" and section is not None:
        fix = f"{key} is a section, not a value: set its keys, e.g. {_first_value_key(key, section)}, in {where}"
    elif error["type"] == "list_type" and isinstance(given, str):
        fix = f"write it as a list, e.g. [a, b], in {where}"
    else:
        fix = f"fix {where}"
    return f"{key}: {error['msg']} (got {given!r}); {fix}"


def _made_by_override(loc: tuple[str, ...], raw: dict, overrides: dict[str, object]) -> bool:
    """Whether the failing key is an override's, holds one, or lies in a section the file does not have, which
    an override made (--set models.generator.timeout_s=5 with no generator: models.generator.model is missing)."""
    section = loc[:-1]
    made = not isinstance(_at(raw, section), dict)
    paths = [tuple(_key_path(key, value)) for key, value in overrides.items()]
    return any(path[:len(loc)] == loc or loc[:len(path)] == path or (made and path[:len(section)] == section)
               for path in paths)


def _at(raw: dict, keys: tuple[str, ...]) -> object:
    """The value at the keys in raw params, None where a key is missing."""
    value: object = raw
    for key in keys:
        value = value.get(key) if isinstance(value, dict) else None
    return value


def _first_value_key(key: str, section: type[_Section]) -> str:
    """The dotted key of the section's first setting that is a value, not a section itself (models -> models.testee.model)."""
    name, field = next(iter(section.model_fields.items()))
    inner = _SECTIONS.get(getattr(field.annotation, "__name__", ""))
    return _first_value_key(f"{key}.{name}", inner) if inner is not None else f"{key}.{name}"


def _sections(cls: type[_Section]) -> dict[str, type[_Section]]:
    return {cls.__name__: cls} | {name: c for sub in cls.__subclasses__() for name, c in _sections(sub).items()}


_SECTIONS = _sections(_Section)


def parse_params(raw: object, file: str = "params.yaml", overrides: dict[str, object] | None = None) -> Params:
    """Params from raw YAML read from `file` with `overrides` (--set) applied; an error blames the one at fault."""
    overrides = overrides or {}
    shown = {key: without_credentials(value) if isinstance(value, str) else value for key, value in overrides.items()}
    origin = file + (" with " + ", ".join(f"{key}={value!r}" for key, value in shown.items()) if overrides else "")
    _require_sections(raw, origin)
    try:
        return Params.model_validate(apply_overrides(raw, overrides))
    except ValidationError as error:
        problems = "\n  ".join(_describe(item, file, raw, overrides) for item in error.errors())
        raise ParamsError(f"{origin} is invalid:\n  {problems}") from None


def _require_sections(raw: object, origin: str) -> None:
    if raw is None:
        raise ParamsError(f"{origin}: empty (no settings in it); expected a mapping of sections (paths, kb, search, …): "
                          f"write them into it, e.g. from the repository's params.yaml")
    if not isinstance(raw, dict):
        raise ParamsError(f"{origin}: expected a mapping of sections (paths, kb, search, …), got {type(raw).__name__}")


class _DuplicateKey(yaml.YAMLError):
    pass


class _UniqueKeyLoader(yaml.SafeLoader):
    """PyYAML keeps the last of a key given twice in one mapping; DVC refuses the file, and so does this."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict:
        seen: set[object] = set()
        for key_node, _ in node.value:
            if isinstance(key_node, yaml.ScalarNode) and key_node.tag != "tag:yaml.org,2002:merge":
                key = self.construct_object(key_node)
                if key in seen:
                    raise _DuplicateKey(f"line {key_node.start_mark.line + 1}: {key!r} is given twice in one mapping")
                seen.add(key)
        return super().construct_mapping(node, deep)


def load_params(path: Path | str = "params.yaml", overrides: dict[str, object] | None = None) -> Params:
    """params.yaml validated, with `overrides` ({"budget.testee_calls": 2000, ...}) applied first."""
    path = Path(path)
    if not path.is_file():
        raise ParamsError(f"{path.absolute()}: not found; run from the repository root or pass --params PATH")
    try:
        raw = yaml.load(path.read_text(encoding="utf-8"), Loader=_UniqueKeyLoader)
    except _DuplicateKey as error:
        raise ParamsError(f"{path}: {error}; keep one of them") from None
    except yaml.YAMLError as error:
        raise ParamsError(f"{path}: not valid YAML ({error}); fix the syntax") from None
    except UnicodeDecodeError as error:
        raise ParamsError(f"{path}: not UTF-8 text ({error}); save it as UTF-8") from None
    _require_sections(raw, str(path))  # named without the overrides, which parse_params applies to a mapping
    return parse_params(raw, str(path), overrides)


def apply_overrides(raw: dict, overrides: dict[str, object]) -> dict:
    """A copy of raw params with dotted keys set: {"search.arms": ["sea"]}."""
    import copy

    result = copy.deepcopy(raw)
    for dotted, value in overrides.items():
        section = result
        *parents, leaf = _key_path(dotted, value)
        for part in parents:
            if not isinstance(section.get(part), dict):
                section[part] = {}
            section = section[part]
        section[leaf] = value
    return result


def _key_path(dotted: str, value: object) -> list[str]:
    """The keys of a dotted override. An entry of `prices` or `simulated` is named by the user, and its name may
    hold dots (prices.openai:gpt-4.1-mini, prices.openai:gpt-4.1-mini.input): there it is all after the section
    up to the first of the entry's own keys. When none follows, a mapping sets the whole entry, all after the
    section its name, and any other value sets the key after the last dot, which is then a misspelt one
    (prices.openai:gpt-4.1-mini.inptu=0.4 is refused as an unknown key, not read as a model of that name)."""
    section, *rest = dotted.split(".")
    entry_keys = {"prices": Price.model_fields, "simulated": SimulatedProfile.model_fields}.get(section)
    if entry_keys is None or not rest:
        return [section, *rest]
    name_ends = len(rest) if isinstance(value, dict) else len(rest) - 1
    first_key = next((i for i, part in enumerate(rest) if i > 0 and part in entry_keys), max(name_ends, 1))
    return [section, ".".join(rest[:first_key]), *rest[first_key:]]


def parse_override(text: str) -> tuple[str, object]:
    """'budget.testee_calls=2000' -> ('budget.testee_calls', 2000); the value is read as YAML."""
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise ParamsError(f"override {text!r}: write it as section.key=value, e.g. budget.testee_calls=2000")
    try:
        return key.strip(), yaml.safe_load(value)
    except yaml.YAMLError:
        raise ParamsError(f"override {text!r}: the value is not valid YAML") from None
