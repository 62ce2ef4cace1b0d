"""`statebox proxy --token`, a real process on loopback, under bounded floods.

Each flood is refused or reclaimed with the right status, the server's memory stays bounded, and
well-behaved attempts played during the flood get the right verdict (the reference passes, a wrong
write fails with exactly its discrepancy).
"""

from __future__ import annotations

import functools
import json
import os
import subprocess
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from proxy_attempts import TASK, wrong_verdict
from served import AUTH, STATEBOX, Served, started
from slow import Cut, dribble, slow_body, slow_head

pytestmark = [pytest.mark.anyio, pytest.mark.slow]

MAX_ATTEMPTS = 24
IDLE_S = 20.0  # long enough that no attempt of the floods idles out on a loaded machine
RECLAIM_IDLE_S = 8.0  # the reclaiming test's own proxy: an attempt idle this long is reclaimed
MAX_BODY = 65_536
READ_TIMEOUT_S = 5.0  # a starved client (a loaded machine) may take seconds to send a head it has begun


def _proxy(log: Path, idle_s: float) -> Iterator[Served]:
    limits = ["--max-attempts", str(MAX_ATTEMPTS), "--idle-timeout", str(idle_s),
              "--max-body-bytes", str(MAX_BODY), "--read-timeout", str(READ_TIMEOUT_S)]
    with started(["proxy", "--token", "flood-test-token", *limits], log) as served:
        yield served
    assert not served.tracebacks(), served.tracebacks()


@pytest.fixture(scope="module")
def proxy(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    yield from _proxy(tmp_path_factory.mktemp("proxy") / "proxy.log", IDLE_S)


@pytest.fixture
def reclaiming_proxy(tmp_path: Path) -> Iterator[Served]:
    """A proxy of its own with a short idle timeout, so waiting for it to reclaim takes seconds, not half a minute."""
    yield from _proxy(tmp_path / "proxy.log", RECLAIM_IDLE_S)


def _operator(proxy: Served) -> httpx.AsyncClient:
    limits = httpx.Limits(max_connections=200)
    return httpx.AsyncClient(base_url=proxy.url, headers=AUTH, timeout=120, limits=limits)


@pytest.fixture
async def operator(proxy: Served) -> AsyncIterator[httpx.AsyncClient]:
    async with _operator(proxy) as client:
        yield client


async def during(flood: Callable[[], Awaitable[Any]], operator: httpx.AsyncClient, honest_pairs: int = 2) -> list[str]:
    """Run `flood` while pairs of well-behaved attempts are played; the wrong verdicts they got."""
    wrong: list[str] = []

    async def play(honest: bool) -> None:
        if (problem := await wrong_verdict(operator, honest)) is not None:
            wrong.append(problem)

    async with anyio.create_task_group() as tg:
        for _ in range(honest_pairs):
            tg.start_soon(play, True)
            tg.start_soon(play, False)
        await flood()
    return wrong


async def live_attempts(operator: httpx.AsyncClient) -> int:
    return int((await operator.get("/ready")).json()["attempts"])


async def create(operator: httpx.AsyncClient) -> httpx.Response:
    return await operator.post("/attempts", json={"suite": "retail", "task": TASK, "user": None})


async def test_creating_past_the_cap_is_429_and_memory_stays_bounded_round_after_round(
    proxy: Served, operator: httpx.AsyncClient
) -> None:
    assert await wrong_verdict(operator, honest=True) is None  # warm: the suite is open, its images built
    rounds: list[tuple[int, int, float]] = []
    for _ in range(4):
        answers: list[httpx.Response] = []
        wrong = await during(functools.partial(_creations, operator, 3 * MAX_ATTEMPTS, answers), operator, 1)
        assert not wrong, wrong
        made = [r.json()["id"] for r in answers if r.status_code == 201]
        refused = [r for r in answers if r.status_code == 429]
        assert len(made) + len(refused) == len(answers), {r.status_code for r in answers}
        assert MAX_ATTEMPTS - 2 <= len(made) <= MAX_ATTEMPTS, len(made)  # the well-behaved pair held up to 2
        error = refused[0].json()["error"]
        assert "too many live attempts: 24" in error and "--max-attempts" in error, error
        for attempt_id in made:
            assert (await operator.delete(f"/attempts/{attempt_id}")).status_code == 204
        rounds.append((len(made), len(refused), proxy.rss_mib()))
    assert await live_attempts(operator) == 0
    growth = rounds[-1][2] - rounds[0][2]
    assert growth < 24, f"RSS (MiB) grew {growth:.1f} between the first and the last of {len(rounds)} rounds: {rounds}"


async def _creations(operator: httpx.AsyncClient, n: int, answers: list[httpx.Response]) -> None:
    """`n` creations at once, their answers appended to `answers`."""

    async def one() -> None:
        answers.append(await create(operator))

    async with anyio.create_task_group() as tg:
        for _ in range(n):
            tg.start_soon(one)


async def test_idle_attempts_are_reclaimed_and_their_slots_freed(reclaiming_proxy: Served) -> None:
    proxy = reclaiming_proxy
    async with _operator(proxy) as operator:
        made = [(await create(operator)).json()["id"] for _ in range(MAX_ATTEMPTS)]
        assert (await create(operator)).status_code == 429
        held = proxy.rss_mib()
        await anyio.sleep(RECLAIM_IDLE_S * 1.5 + 1)  # idle past the timeout, and a reclaim period (timeout / 4)
        assert await live_attempts(operator) == 0
        assert (await operator.get(f"/attempts/{made[0]}")).status_code == 404
        wrong = await during(lambda: anyio.sleep(0), operator)  # the slots are free again for new attempts
        assert not wrong, wrong
        rss = proxy.rss_mib()
        assert rss < held + 8, f"RSS after reclaiming {MAX_ATTEMPTS} idle attempts: {rss:.1f} MiB"


MCP_HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
MALFORMED = {
    "not JSON": b"{not json",
    "empty": b"",
    "a bare string": b'"ping"',
    "an array of numbers": b"[1, 2]",
    "nested 30,000 deep": b"[" * 30_000 + b"]" * 30_000,
    "not UTF-8": b'{"jsonrpc": "2.0", "id": 1, "method": "\xff"}',
    "JSON-RPC 1.0": b'{"jsonrpc": "1.0", "id": 1, "method": "ping"}',
    "a null method": b'{"jsonrpc": "2.0", "id": 1, "method": null}',
}


async def test_malformed_json_rpc_gets_a_json_rpc_error_never_a_500(proxy: Served, operator: httpx.AsyncClient) -> None:
    mcp_url = (await create(operator)).json()["mcp_url"]

    async def flood() -> None:
        for _ in range(5):
            for name, body in MALFORMED.items():
                answer = await operator.post(mcp_url, content=body, headers=MCP_HEADERS)
                error = answer.json().get("error", {})
                assert answer.status_code == 400 and error.get("code") in (-32700, -32600, -32602), (name, answer.text)

    wrong = await during(flood, operator)
    assert not wrong, wrong
    deep = await operator.post("/attempts", content=MALFORMED["nested 30,000 deep"])
    assert deep.status_code == 400 and "body must be JSON" in deep.json()["error"], deep.text


async def test_an_oversized_body_is_413_on_the_operator_api_and_on_mcp(
    proxy: Served, operator: httpx.AsyncClient
) -> None:
    mcp_url = (await create(operator)).json()["mcp_url"]
    big = json.dumps({"suite": "retail", "task": "x" * (4 * MAX_BODY)}).encode()
    before = proxy.rss_mib()

    async def chunks() -> AsyncIterator[bytes]:  # no Content-Length: the cap is counted as the body arrives
        for _ in range(64):
            yield b" " * 4096

    async def flood() -> None:
        for _ in range(20):
            declared = await operator.post("/attempts", content=big)
            assert declared.status_code == 413 and "--max-body-bytes" in declared.json()["error"], declared.text
            streamed = await operator.post("/attempts", content=chunks())
            assert streamed.status_code == 413, streamed.text
            rpc = await operator.post(mcp_url, content=big, headers=MCP_HEADERS)
            assert rpc.status_code == 413 and rpc.json()["error"]["code"] == -32600, rpc.text

    wrong = await during(flood, operator)
    assert not wrong, wrong
    assert proxy.rss_mib() < before + 16, f"RSS {before:.1f} -> {proxy.rss_mib():.1f} MiB after refusing 60 bodies"
    call = {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "find_customer", "arguments": {"email": "x" * (MAX_BODY // 2)}}}
    under = await operator.post(mcp_url, json=call, headers=MCP_HEADERS)
    assert under.status_code == 200 and "result" in under.json(), under.text


async def test_wrong_and_missing_tokens_are_401_under_a_flood(proxy: Served, operator: httpx.AsyncClient) -> None:
    tokens = [None, "", "Bearer", "Bearer wrong", "Bearer flood-test-token-but-longer", "Basic Zm9vOmJhcg==",
              "Bearer " + "x" * 8000, "bearer flood-test-tokeN"]
    async with httpx.AsyncClient(base_url=proxy.url, timeout=60, limits=httpx.Limits(max_connections=20)) as stranger:

        async def one(token: str | None) -> None:
            headers = {} if token is None else {"Authorization": token}
            for method, path in (("POST", "/attempts"), ("GET", "/attempts/x"), ("DELETE", "/attempts/x")):
                answer = await stranger.request(method, path, headers=headers, json={"suite": "retail", "task": TASK})
                assert answer.status_code == 401 and answer.headers["www-authenticate"] == "Bearer", (token, answer)

        async def flood() -> None:
            async with anyio.create_task_group() as tg:
                for _ in range(25):
                    for token in tokens:
                        tg.start_soon(one, token)

        before = proxy.rss_mib()
        wrong = await during(flood, operator)
    assert not wrong, wrong
    assert proxy.rss_mib() < before + 16


async def test_slow_clients_get_408_and_silent_ones_are_closed(proxy: Served, operator: httpx.AsyncClient) -> None:
    cuts: dict[str, list[Cut]] = {"head": [], "silent": [], "body": []}
    give_up = READ_TIMEOUT_S * 6

    async def slowly(kind: str, first: bytes, then: bytes) -> None:
        cuts[kind].append(await dribble(proxy.host, proxy.port, first, then, 0.4, give_up))

    async def flood() -> None:
        async with anyio.create_task_group() as tg:
            for _ in range(30):
                tg.start_soon(slowly, "head", *slow_head(proxy.host))
                tg.start_soon(slowly, "body", *slow_body(proxy.host, "/attempts", AUTH))
            for _ in range(10):
                tg.start_soon(slowly, "silent", b"", b"")

    wrong = await during(flood, operator)
    assert not wrong, wrong
    for kind, got in cuts.items():
        ended = sorted(round(c.after_s, 1) for c in got)
        assert ended[0] >= READ_TIMEOUT_S * 0.9 and ended[-1] < give_up, (kind, ended)
    assert {c.status for c in cuts["head"]} == {408}, [c.answer[:200] for c in cuts["head"]]
    assert {c.answer for c in cuts["silent"]} == {b""}, "a connection that asked nothing is closed without an answer"
    # A slow body's connection is closed with the client still sending: a reset may lose the answer.
    answered = [c for c in cuts["body"] if not c.reset]
    assert {c.status for c in answered} <= {408} and all(c.status == 408 or c.reset for c in cuts["body"])
    if answered:
        body = json.loads(answered[0].answer.split(b"\r\n\r\n", 1)[1])
        assert "--read-timeout" in body["error"] and "body" in body["error"], body


def test_the_limits_are_options_with_their_defaults_in_help() -> None:
    done = subprocess.run([STATEBOX, "proxy", "--help"], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "COLUMNS": "200"})
    for option, default in (("--max-attempts", "256"), ("--max-body-bytes", "1048576"), ("--read-timeout", "10.0")):
        line = next((ln for ln in done.stdout.splitlines() if option in ln), "")
        assert f"[default: {default}]" in line, (option, line)

