"""Idle sessions: an episode untouched for longer than the idle timeout is closed, its state freed, and the
client's next step says why. Time is an injected clock, advanced by the test; reaping is called, not awaited."""

from __future__ import annotations

import asyncio

import httpx
import pytest

from statebox.mcp.http_serving import serving
from statebox.openenv.client import StateboxEnv
from statebox.openenv.environment import SessionExpired, StateboxEnvironment
from statebox.openenv.models import StateboxAction
from statebox.openenv.server import create_openenv_app
from statebox.openenv.source import EpisodeSource
from statebox.suites import Suite, load_suite

TASK = "air_purifier_return_refund_wrong_rma_number"
TIMEOUT_S = 30.0


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture(scope="module")
def retail() -> Suite:
    return load_suite("retail")


def test_an_idle_episode_is_closed_its_session_freed_and_the_next_step_says_why(retail: Suite) -> None:
    clock = Clock()
    source = EpisodeSource(retail, idle_timeout_s=TIMEOUT_S, clock=clock)
    env = StateboxEnvironment(source)

    async def go() -> None:
        await env.reset_async(task_id=TASK)
        episode = env.episode
        assert episode is not None
        clock.now += TIMEOUT_S - 1
        assert await source.reap_idle() == 0, "not idle long enough yet"
        await env.step_async(StateboxAction(tool="find_customer", arguments={"email": "x@example.com"}))
        clock.now += TIMEOUT_S - 1
        assert await source.reap_idle() == 0, "a step restarts the idle time"
        clock.now += 2
        assert await source.reap_idle() == 1
        assert env.episode is None and source.environments == set()
        with pytest.raises(Exception, match="closed"):
            episode.backend.session.effects()  # type: ignore[attr-defined]  # the world session is released
        with pytest.raises(SessionExpired, match=r"closed after 30 s without a reset or step .*reset to start"):
            await env.step_async(StateboxAction(message="hello?"))
        again = await env.reset_async(task_id=TASK)  # a reset starts over
        assert again.kind == "start" and env.episode is not None
        await env.aclose()

    asyncio.run(go())


def test_a_step_in_progress_is_never_idle(retail: Suite) -> None:
    clock = Clock()
    source = EpisodeSource(retail, idle_timeout_s=TIMEOUT_S, clock=clock)
    env = StateboxEnvironment(source)

    async def go() -> None:
        await env.reset_async(task_id=TASK)
        env._busy += 1  # as during a step awaiting the customer
        clock.now += 10 * TIMEOUT_S
        assert env.idle_since(clock.now) == 0.0 and await source.reap_idle() == 0
        env._busy -= 1
        assert await source.reap_idle() == 1

    asyncio.run(go())


def test_over_the_websocket_an_idle_session_frees_its_slot_and_the_client_gets_a_clear_error(retail: Suite) -> None:
    clock = Clock()
    source = EpisodeSource(retail, idle_timeout_s=TIMEOUT_S, clock=clock)
    app = create_openenv_app(source, max_sessions=1)

    async def go() -> None:
        async with serving(app) as url, httpx.AsyncClient(base_url=url) as http:
            async with StateboxEnv(base_url=url) as env:
                await env.reset(task_id=TASK)
                sessions = (await http.get("/ready")).json()["components"]["sessions"]
                assert sessions["active"] == 1 and sessions["ok"] is False, sessions  # the one slot is taken
                clock.now += TIMEOUT_S + 1
                assert await source.reap_idle() == 1
                sessions = (await http.get("/ready")).json()["components"]["sessions"]
                assert sessions["active"] == 0 and sessions["ok"] is True, sessions
                with pytest.raises(Exception, match="without a reset or step"):
                    await env.step(StateboxAction(message="still there?"))
            async with StateboxEnv(base_url=url) as other:  # the freed slot takes a new session
                assert (await other.reset(task_id=TASK)).observation.kind == "start"

    asyncio.run(go())
