"""`statebox openenv-serve DIR` serves a domain folder's tasks as OpenEnv episodes (the real server, over
WebSocket): the reference's calls earn reward 1.0, ending at once earns 0.0. `statebox proxy` opens the suites its
HTTP clients name, and never a folder path one sends (that would import code from any folder of the server)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
import pytest
from owndomain_kit import serving

from statebox.folders.folder import load_folder_suite
from statebox.openenv.client import StateboxEnv
from statebox.openenv.models import StateboxAction


@pytest.mark.slow
def test_an_episode_of_a_folder_domain_is_rewarded_by_its_end_state(scaffold: Path, tmp_path: Path) -> None:
    suite = load_folder_suite(scaffold)

    async def episode(url: str, follow_reference: bool) -> tuple[str, float | None]:
        async with StateboxEnv(base_url=url) as env:
            started = await env.reset(seed=1)
            task_id = started.observation.task_id
            assert task_id in {t.id for t in suite.tasks}, task_id
            if follow_reference:
                for call in suite.task(task_id).reference:
                    await env.step(StateboxAction(tool=call.tool, arguments=call.args))
            ended = await env.step(StateboxAction(end=True))
            assert ended.done
            return task_id, ended.reward

    with serving("openenv-serve", str(scaffold), log=tmp_path / "server.log") as url:
        passed, failed = asyncio.run(episode(url, True)), asyncio.run(episode(url, False))
    assert (passed[1], failed[1]) == (1.0, 0.0), (passed, failed)


def test_a_proxy_client_cannot_make_the_server_open_a_folder(scaffold: Path, tmp_path: Path) -> None:
    with serving("proxy", "--token", "t0k", log=tmp_path / "proxy.log", probe="/") as url:
        asked = {"suite": str(scaffold), "task": "upgrade_basic_to_plus", "user": "scripted"}
        answer = httpx.post(f"{url}/attempts", json=asked, headers={"Authorization": "Bearer t0k"}, timeout=30)
    assert answer.status_code == 404 and f"unknown suite {str(scaffold)!r}" in answer.json()["error"], answer.text
