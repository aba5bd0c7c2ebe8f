"""Model-access throughput: rate-limit saturation and client overhead against the local fake
server, and the local SmolLM2's seconds per question.

Run with `make bench-models`. Writes reports/benchmarks/models.json and models.md."""

from __future__ import annotations

import asyncio
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("OPENAI_API_KEY", "sk-benchmark-fake")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.report import write_report  # noqa: E402

from sea.choices import LETTERS  # noqa: E402
from sea.llm.cache import ResponseCache  # noqa: E402
from sea.llm.client import ModelClient  # noqa: E402
from sea.llm.fake_server import FakeLLMServer  # noqa: E402
from sea.llm.ledger import Ledger, PriceTable  # noqa: E402
from sea.llm.providers import OpenAIChat  # noqa: E402
from sea.llm.types import Completion  # noqa: E402
from sea.settings import ModelSettings, default_prices  # noqa: E402

COMMAND = "make bench-models"
LATENCY_S, LIMIT_RPM, SATURATION_CALLS = 0.05, 600, 300
OVERHEAD_CALLS = 300
QUESTIONS = [
    ("Which planet is closest to the Sun?", ["Venus", "Mercury", "Mars", "Earth"]),
    ("What is the chemical symbol for gold?", ["Ag", "Au", "Gd", "Go"]),
    ("Who wrote 'Romeo and Juliet'?", ["Charles Dickens", "Jane Austen", "William Shakespeare", "Mark Twain"]),
    ("What is the capital of Japan?", ["Kyoto", "Osaka", "Tokyo", "Nagoya"]),
    ("How many sides does a hexagon have?", ["Five", "Six", "Seven", "Eight"]),
    ("Which gas do plants absorb from the air?", ["Oxygen", "Nitrogen", "Carbon dioxide", "Helium"]),
    ("In which year did World War II end?", ["1943", "1944", "1945", "1946"]),
    ("What is the largest ocean on Earth?", ["Atlantic", "Indian", "Arctic", "Pacific"]),
]


def prompt(i: int) -> list[dict]:
    question, options = QUESTIONS[i % len(QUESTIONS)]
    body = f"Question {i}: {question}\n" + "\n".join(f"{letter}) {option}" for letter, option in zip(LETTERS, options))
    return [{"role": "user", "content": body + "\nReply with the letter only."}]


def client_for(server: FakeLLMServer, cache_path: Path | None = None, **settings) -> ModelClient:
    settings = ModelSettings(model="openai:gpt-4o-mini", base_url=f"{server.base_url}/v1", **settings)
    return ModelClient("testee", settings, OpenAIChat(settings), cache=ResponseCache(cache_path), ledger=Ledger(),
                       prices=PriceTable(default_prices()))


def bench_saturation() -> dict:
    with FakeLLMServer(latency_s=LATENCY_S, requests_per_minute=LIMIT_RPM, window_s=6) as server:
        client = client_for(server, requests_per_minute=LIMIT_RPM, max_in_flight=16)
        started = time.perf_counter()
        results, _ = client.run(client.complete_many([prompt(i) for i in range(SATURATION_CALLS)]))
        elapsed = time.perf_counter() - started
        arrivals = list(server.state.arrivals)
    steady_rpm = (len(arrivals) - 1) / (arrivals[-1] - arrivals[0]) * 60
    return {"latency_s": LATENCY_S, "limit_rpm": LIMIT_RPM, "calls": SATURATION_CALLS, "seconds": round(elapsed, 2),
            "achieved_rpm": round(steady_rpm, 1), "share_of_limit": round(steady_rpm / LIMIT_RPM, 4),
            "rate_limit_violations": server.state.rate_violations,
            "completed": sum(isinstance(r, Completion) for r in results)}


def _timed_calls(call, n: int) -> list[float]:
    timings = []
    for i in range(n):
        started = time.perf_counter()
        call(i)
        timings.append(time.perf_counter() - started)
    return timings


def bench_overhead() -> dict:
    """Sequential calls at zero server latency: the full client (limiter, budget, SQLite cache,
    ledger) against the bare SDK call it wraps; the difference is this layer's overhead."""
    with FakeLLMServer() as server, tempfile.TemporaryDirectory() as scratch:
        client = client_for(server, cache_path=Path(scratch) / "responses.sqlite")
        decoding = client.decoding()
        bare = _timed_calls(lambda i: client.run(client.provider.complete(prompt(10_000 + i), decoding)), OVERHEAD_CALLS)
        full = _timed_calls(lambda i: client.complete_sync(prompt(i)), OVERHEAD_CALLS)
        cached = _timed_calls(lambda i: client.complete_sync(prompt(i)), OVERHEAD_CALLS)
    bare_ms, full_ms, cached_ms = (1000 * statistics.median(t) for t in (bare, full, cached))
    return {"calls": OVERHEAD_CALLS, "bare_sdk_ms": round(bare_ms, 3), "full_client_ms": round(full_ms, 3),
            "client_overhead_ms": round(full_ms - bare_ms, 3), "cache_hit_ms": round(cached_ms, 3)}


def bench_local(models_dir: Path) -> dict:
    from sea.llm.local import LocalModel
    from sea.llm.types import Decoding

    started = time.perf_counter()
    model = LocalModel("smollm2-135m", models_dir)
    decoding = Decoding(max_tokens=1)

    async def answer(prompts):
        return await asyncio.gather(*(model.complete(p, decoding) for p in prompts))

    asyncio.run(answer([prompt(0)]))  # load and warm up
    load_s = time.perf_counter() - started
    n = 32
    started = time.perf_counter()
    for i in range(n):
        asyncio.run(answer([prompt(i)]))
    sequential = (time.perf_counter() - started) / n
    started = time.perf_counter()
    asyncio.run(answer([prompt(i) for i in range(n)]))
    batched = (time.perf_counter() - started) / n
    return {"model": "local:smollm2-135m", "load_and_first_answer_s": round(load_s, 2), "questions": n,
            "seconds_per_question_sequential": round(sequential, 3), "seconds_per_question_concurrent": round(batched, 3)}


def to_markdown(report: dict) -> str:
    saturation, overhead, local = report["saturation"], report["overhead"], report["local_model"]
    return "\n".join([
        "# Model-access benchmark", "",
        f"Command: `{report['command']}` on {report['machine']['cpus']} CPUs, {report['date']}. Targets from issue #3 in brackets.", "",
        "| measure | value |", "| --- | --- |",
        f"| rate-limit saturation (fake server: {saturation['latency_s'] * 1000:.0f} ms latency, {saturation['limit_rpm']} req/min) | "
        f"{saturation['achieved_rpm']} req/min = {saturation['share_of_limit']:.1%} of the limit [≥ 95%], "
        f"{saturation['rate_limit_violations']} 429s from the server, {saturation['completed']}/{saturation['calls']} completed |",
        f"| client overhead per call (median of {overhead['calls']}) | {overhead['client_overhead_ms']} ms [< 2 ms] "
        f"(full client {overhead['full_client_ms']} ms vs bare SDK call {overhead['bare_sdk_ms']} ms) |",
        f"| cache hit | {overhead['cache_hit_ms']} ms |",
        f"| {local['model']} | {local['seconds_per_question_sequential']} s/question one at a time, "
        f"{local['seconds_per_question_concurrent']} s/question for {local['questions']} concurrent (micro-batched); "
        f"load + first answer {local['load_and_first_answer_s']} s |",
    ]) + "\n"


def main() -> None:
    from sea.settings import load_params

    report = {
        "command": COMMAND,
        "date": time.strftime("%Y-%m-%d"),
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version()},
        "saturation": bench_saturation(),
        "overhead": bench_overhead(),
        "local_model": bench_local(load_params().paths.cache_dir / "models"),
    }
    write_report("models", report, to_markdown(report))


if __name__ == "__main__":
    main()
