"""A fake OpenAI-compatible model server that plays a suite's tasks like a competent scripted agent.

It recognises the task only from the customer's opening message, asks for private facts
before using them, takes generated ids from the tool results it has seen, and plays the
reference solution one tool call per response; modes add deliberate mistakes.

Requests are told apart by the `x-statebox-role` header statebox's model client sends, never
by prompt text: `customer` is answered as the task's scripted customer (`customer.py`), `judge`
as the rubric judge (`rubric.py`); every other request is the agent under test.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from statebox.fakemodel.plan import MISTAKES as MISTAKES, MODES as MODES, Mode as Mode, attempt_mode as attempt_mode
from statebox.lazy import lazy_facade

# The server half (Starlette, the HTTP stack) loads on first use, so the `statebox` command starts without it.
if TYPE_CHECKING:
    from statebox.fakemodel.app import FakeModelApp as FakeModelApp, FakeModelConfig as FakeModelConfig, Stats as Stats
    from statebox.fakemodel.serve import FakeModelServer as FakeModelServer, run_fake_model as run_fake_model

__getattr__, __dir__, __all__ = lazy_facade(__name__, __file__)
