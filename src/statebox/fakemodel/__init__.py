"""A fake OpenAI-compatible model server that plays a suite's tasks like a competent scripted agent.

It recognises the task only from the customer's opening message, asks for private facts
before using them, takes generated ids from the tool results it has seen, and plays the
reference solution one tool call per response; modes add deliberate mistakes.

Requests are told apart by their system message: one starting with `STATEBOX-USER-SIMULATOR`
is answered as the simulated customer (facts from a `FACTS:` block of `key: value` lines, see
`customer.py`), one starting with `STATEBOX-RUBRIC-JUDGE` as the rubric judge (`rubric.py`);
every other request is the agent under test.
"""

from statebox.fakemodel.app import FakeModelApp, FakeModelConfig, Stats
from statebox.fakemodel.plan import MISTAKES, MODES, Mode, attempt_mode
from statebox.fakemodel.serve import FakeModelServer, run_fake_model

__all__ = [
    "MISTAKES",
    "MODES",
    "FakeModelApp",
    "FakeModelConfig",
    "FakeModelServer",
    "Mode",
    "Stats",
    "attempt_mode",
    "run_fake_model",
]
