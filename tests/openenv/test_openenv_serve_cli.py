"""`statebox openenv-serve` on the command line: loopback by default, a token elsewhere, one-line errors."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from openenv_play import STATEBOX, openenv_server

from statebox.openenv.client import StateboxEnv
from statebox.openenv.models import StateboxAction


def _serve(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(STATEBOX), "openenv-serve", *args], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "STATEBOX_TOKEN": ""})


def test_a_non_loopback_address_without_a_token_is_refused_in_one_line() -> None:
    done = _serve("retail", "--host", "0.0.0.0")
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("error: ") and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "--token" in done.stderr and "0.0.0.0" in done.stderr, done.stderr


def test_an_unknown_split_or_suite_is_a_one_line_error() -> None:
    split = _serve("retail", "--split", "validation")
    expected = "error: --split 'validation': expected train or test"
    assert (split.returncode, split.stderr.splitlines()[0]) == (2, expected)
    suite = _serve("nosuch")
    assert suite.returncode == 2 and "unknown suite 'nosuch'" in suite.stderr, suite.stderr


def test_the_core_cli_does_not_import_openenv() -> None:
    code = "import sys, statebox.cli; sys.exit(any(m.split('.')[0] == 'openenv' for m in sys.modules))"
    assert subprocess.run([sys.executable, "-c", code], timeout=120).returncode == 0


@pytest.mark.slow
def test_with_a_token_the_websocket_and_the_api_need_it_and_the_probes_do_not(tmp_path: Path) -> None:
    with openenv_server("retail", "--token", "s3cret", "--split", "train", log=tmp_path / "server.log") as url:
        assert httpx.get(f"{url}/health").status_code == 200
        assert httpx.get(f"{url}/ready").json()["components"]["suite"]["split"] == "train"
        assert httpx.get(f"{url}/schema").status_code == 401
        assert httpx.get(f"{url}/schema", headers={"Authorization": "Bearer s3cret"}).status_code == 200

        async def go() -> None:
            with pytest.raises(ConnectionError):
                await StateboxEnv(base_url=url).connect()
            with pytest.raises(ConnectionError):
                await StateboxEnv(base_url=url, token="wrong").connect()
            async with StateboxEnv(base_url=url, token="s3cret") as env:
                first = await env.reset(seed=3)
                assert first.observation.kind == "start" and first.observation.task_id
                ended = await env.step(StateboxAction(end=True))
                assert ended.done and ended.reward == 0.0

        asyncio.run(go())


@pytest.mark.slow
def test_with_a_user_model_an_llm_plays_the_customer(tmp_path: Path) -> None:
    from statebox.fakemodel.app import FakeModelApp, FakeModelConfig
    from statebox.fakemodel.serve import FakeModelServer
    from statebox.suites import load_suite

    app = FakeModelApp(load_suite("retail"), FakeModelConfig())
    with FakeModelServer(app) as model:
        args = ("retail", "--user-model", "openai:fake", "--base-url", model.base_url)
        with openenv_server(*args, log=tmp_path / "server.log") as url:
            customer = httpx.get(f"{url}/ready").json()["components"]["customer"]
            assert customer == {"ok": True, "kind": "llm", "model": "openai:fake"}, customer

            async def go() -> str:
                async with StateboxEnv(base_url=url) as env:
                    await env.reset(task_id="air_purifier_return_refund_wrong_rma_number")
                    answer = await env.step(StateboxAction(message="What is your email?"))
                    return answer.observation.text

            said = asyncio.run(go())
        assert "hollis.trevino@gmail.com" in said, said
        assert app.stats.by_role["customer"] >= 1, "the customer's answer came from the model"


@pytest.mark.slow
def test_a_port_in_use_is_a_one_line_error_naming_the_address() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = _serve("retail", "--port", str(port))
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("error: ") and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert f"127.0.0.1:{port}" in done.stderr, done.stderr
