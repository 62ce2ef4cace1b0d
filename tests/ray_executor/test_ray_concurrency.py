"""`--concurrency` holds per model across the Ray cluster: the driver hands every attempt out."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("ray")

from statebox.fakemodel import FakeModelApp, FakeModelConfig, FakeModelServer
from statebox.suites import load_suite

pytestmark = pytest.mark.slow

STATEBOX = Path(sys.executable).with_name("statebox")


@dataclass
class InFlight:
    """An ASGI wrapper counting the chat requests in flight per model, and the most seen at once."""

    app: Any
    now: Counter[str] = field(default_factory=Counter)
    peak: Counter[str] = field(default_factory=Counter)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or not scope["path"].endswith("/chat/completions"):
            await self.app(scope, receive, send)
            return
        messages, body = [], b""
        while True:
            message = await receive()
            messages.append(message)
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        model = json.loads(body).get("model", "?")

        async def replay() -> Any:
            return messages.pop(0) if messages else await receive()

        self.now[model] += 1
        self.peak[model] = max(self.peak[model], self.now[model])
        try:
            await self.app(scope, replay, send)
        finally:
            self.now[model] -= 1


def test_attempts_in_flight_per_model_never_exceed_concurrency(ray_address: str, tmp_path: Path) -> None:
    suite = load_suite("retail")
    counter = InFlight(FakeModelApp(suite, FakeModelConfig(mode="reference", latency_ms=40)))
    tasks = [a for t in suite.tasks[:6] for a in ("--tasks", t.id)]
    with FakeModelServer(counter) as server:  # type: ignore[arg-type]  # any ASGI app serves
        command = [
            str(STATEBOX), "run", "retail", "--agent", "llm", "--model", "openai:fake-a", "--model", "openai:fake-b",
            "--base-url", server.base_url, "--user", "scripted", "--repeat", "2", "--concurrency", "2",
            "--out", str(tmp_path / "run"), "--no-progress", "--executor", "ray", "--ray-address", ray_address, *tasks,
        ]  # fmt: skip
        env = {**os.environ, "OPENAI_API_KEY": "unused"}
        done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    trials = (tmp_path / "run" / "trials.jsonl").read_text().splitlines()
    assert len(trials) == 6 * 2 * 2
    assert dict(counter.peak) == {"fake-a": 2, "fake-b": 2}, f"peak in flight per model: {dict(counter.peak)}"
