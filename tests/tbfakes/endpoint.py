"""The tests' fake model endpoint (tests/llm/fake_endpoints.py) for ThinkingBox-Bench tests, and a client of it."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from statebox.llm import ModelClient, RetryPolicy, make_client


def _fake_endpoints() -> ModuleType:
    name = "statebox_tbfakes_fake_endpoints"
    if name in sys.modules:
        return sys.modules[name]
    path = Path(__file__).resolve().parents[1] / "llm" / "fake_endpoints.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None, f"cannot load {path}"
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up while the class is created
    spec.loader.exec_module(module)
    return module


_fake = _fake_endpoints()
FakeEndpoint = _fake.FakeEndpoint
Scripted = _fake.Scripted
openai_reply = _fake.openai_reply
FAST_RETRY = RetryPolicy(max_retries=3, base_delay=0.001, max_delay=0.01, timeout_s=5.0, rng=random.Random(0))


def client_for(endpoint: Any, spec: str = "openai:scripted") -> ModelClient:
    """A model client of the endpoint (its OpenAI-compatible path)."""
    return make_client(spec, base_url=endpoint.openai_url, retry=FAST_RETRY, max_concurrency=1)
