"""Well-behaved OpenEnv episodes, played while the server is under attack: each must earn the right reward."""

from __future__ import annotations

import functools

from openenv_play import open_conversation, play_calls

from statebox.openenv.client import StateboxEnv
from statebox.openenv.models import StateboxAction
from statebox.suites import load_suite
from statebox.tasks import RefCall, Task

TASK = "air_purifier_return_refund_wrong_rma_number"  # the reference earns 1.0; a wrong refund amount 0.0


@functools.cache
def task() -> Task:
    """Loaded once: loading the suite blocks the event loop every flood shares with the well-behaved episodes."""
    return load_suite("retail").task(TASK)


def calls(honest: bool) -> list[RefCall]:
    if honest:
        return list(task().reference)
    return [c.model_copy(update={"args": {**c.args, "amount": 168.60}}) if c.tool == "issue_refund" else c
            for c in task().reference]


async def wrong_reward(env: StateboxEnv, honest: bool) -> str | None:
    """Play one episode on a connected client; a description of a wrong reward, or None."""
    await env.reset(task_id=TASK)
    await open_conversation(env, task())
    await play_calls(env, calls(honest))
    last = await env.step(StateboxAction(message="Done.", end=True))
    info = last.observation.info
    expected = (True, 1.0, True) if honest else (True, 0.0, False)
    if (last.done, last.reward, info["passed"]) != expected:
        return f"{'reference' if honest else 'wrong refund'}: {last.reward} {info['discrepancies']}"
    return None
