"""`statebox openenv-serve retail --token`, a real process on loopback, under bounded floods.

Each flood is refused or reclaimed with the right status, the server's memory stays bounded, and
well-behaved episodes played during the flood (connected first, so that they hold their slots) earn
the right reward: 1.0 for the reference, 0.0 for a wrong refund.
"""

from __future__ import annotations

import functools
import json
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import AsyncExitStack
from typing import Any

import anyio
import httpx
import pytest
from openenv_episodes import task, wrong_reward
from served import AUTH, TOKEN, Served, started
from slow import Cut, dribble, slow_body, slow_head
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from statebox.openenv.client import StateboxEnv

pytestmark = [pytest.mark.anyio, pytest.mark.slow]

MAX_SESSIONS = 8
IDLE_S = 8.0  # an episode idle this long is closed; a WebSocket silent twice as long is closed too
MAX_BODY = 65_536
READ_TIMEOUT_S = 5.0  # a starved client (a loaded machine) may take seconds to send a head it has begun
JSON = {"Content-Type": "application/json"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    log = tmp_path_factory.mktemp("openenv") / "openenv.log"
    limits = ["--max-sessions", str(MAX_SESSIONS), "--idle-timeout", str(IDLE_S),
              "--max-body-bytes", str(MAX_BODY), "--read-timeout", str(READ_TIMEOUT_S)]
    task()  # loaded before any flood: loading it blocks the event loop the episodes and floods share
    with started(["openenv-serve", "retail", "--token", TOKEN, *limits], log) as served:
        yield served
    assert not served.tracebacks(), served.tracebacks()


@pytest.fixture
async def http(server: Served) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=server.url, headers=AUTH, timeout=60) as client:
        yield client


def ws_url(server: Served) -> str:
    return server.url.replace("http://", "ws://") + "/ws"


async def during(server: Served, flood: Callable[[], Awaitable[Any]]) -> list[str]:
    """Connect a reference episode and a wrong one, then run `flood` while they play; the wrong rewards."""
    wrong: list[str] = []
    async with AsyncExitStack() as stack:
        envs = [await stack.enter_async_context(StateboxEnv(base_url=server.url, token=TOKEN)) for _ in range(2)]

        async def play(env: StateboxEnv, honest: bool) -> None:
            if (problem := await wrong_reward(env, honest)) is not None:
                wrong.append(problem)

        async with anyio.create_task_group() as tg:
            tg.start_soon(play, envs[0], True)
            tg.start_soon(play, envs[1], False)
            await flood()
    return wrong


async def active(http: httpx.AsyncClient) -> int:
    return int((await http.get("/ready")).json()["components"]["sessions"]["active"])


async def until_active(http: httpx.AsyncClient, n: int, within_s: float = 30.0) -> None:
    with anyio.fail_after(within_s):
        while await active(http) != n:
            await anyio.sleep(0.1)


async def hold(server: Served, stack: AsyncExitStack, n: int) -> list[ClientConnection]:
    return [await stack.enter_async_context(connect(ws_url(server), additional_headers=AUTH)) for _ in range(n)]


async def test_a_handshake_past_max_sessions_is_429_and_memory_stays_bounded(
    server: Served, http: httpx.AsyncClient
) -> None:
    rss: list[float] = []
    for _ in range(3):
        refused: list[InvalidStatus] = []
        wrong = await during(server, functools.partial(_past_the_cap, server, http, refused))
        assert not wrong, wrong
        assert {r.response.status_code for r in refused} == {429}
        error = json.loads(bytes(refused[0].response.body or b""))["error"]
        assert "too many live sessions: 8" in error and "--max-sessions" in error, error
        await until_active(http, 0)
        rss.append(server.rss_mib())
    assert rss[-1] - rss[0] < 16, f"RSS (MiB) after each round: {rss}"


async def _past_the_cap(server: Served, http: httpx.AsyncClient, refused: list[InvalidStatus]) -> None:
    """Take every slot left, then try 20 more handshakes, the refusals appended to `refused`."""
    async with AsyncExitStack() as stack:
        await hold(server, stack, MAX_SESSIONS - 2)  # with the two well-behaved ones: every slot taken
        await until_active(http, MAX_SESSIONS)
        for _ in range(20):
            with pytest.raises(InvalidStatus) as raised:
                await hold(server, stack, 1)
            refused.append(raised.value)


async def test_idle_sessions_are_closed_and_their_slots_freed(server: Served, http: httpx.AsyncClient) -> None:
    before = server.rss_mib()
    async with AsyncExitStack() as stack:
        silent = await hold(server, stack, MAX_SESSIONS // 2)  # never say anything
        started_ = await hold(server, stack, MAX_SESSIONS // 2)  # reset, then go quiet
        for ws in started_:
            await ws.send(json.dumps({"type": "reset", "data": {}}))
            assert json.loads(await ws.recv())["type"] == "observation"
        await until_active(http, MAX_SESSIONS)
        closed: list[int | None] = []
        with anyio.fail_after(IDLE_S * 4):
            for ws in silent + started_:
                with pytest.raises(ConnectionClosed) as raised:
                    while True:
                        await ws.recv()  # an expired episode's notice may come first; then the close
                closed.append(raised.value.rcvd.code if raised.value.rcvd else None)
        assert closed == [1001] * MAX_SESSIONS, closed
    await until_active(http, 0)
    wrong = await during(server, lambda: anyio.sleep(0))  # the slots are free for new sessions
    assert not wrong, wrong
    assert server.rss_mib() < before + 16, f"RSS {before:.1f} -> {server.rss_mib():.1f} MiB"


MALFORMED = ["not json", "[]", "42", '"reset"', "[" * 30_000 + "]" * 30_000, '{"type": "step"}', '{"type": "nope"}']


async def test_malformed_messages_get_an_error_answer_and_the_session_goes_on(server: Served) -> None:
    async def flood() -> None:
        async with connect(ws_url(server), additional_headers=AUTH) as ws:
            for _ in range(5):
                for message in [*MALFORMED, b"\x00binary"]:
                    await ws.send(message)
                    answer = json.loads(await ws.recv())
                    assert answer["type"] == "error" and answer["data"]["code"] in (
                        "INVALID_JSON", "VALIDATION_ERROR", "UNKNOWN_TYPE"), (message[:20], answer)
            await ws.send(json.dumps({"type": "reset", "data": {}}))
            assert json.loads(await ws.recv())["type"] == "observation", "the session still works"

    wrong = await during(server, flood)
    assert not wrong, wrong


async def test_malformed_http_bodies_are_4xx_or_json_rpc_errors_never_500(http: httpx.AsyncClient) -> None:
    for body in ["{nope", "[1]", "[" * 30_000 + "]" * 30_000]:
        for path in ("/reset", "/step"):
            answer = await http.post(path, content=body, headers=JSON)
            assert answer.status_code in (400, 422), (path, body[:20], answer.status_code, answer.text[:200])
        rpc = await http.post("/mcp", content=body, headers=JSON)
        assert rpc.json()["error"]["code"] in (-32700, -32600), rpc.text
    not_an_action = await http.post("/step", json={"action": 7})
    assert not_an_action.status_code == 422, not_an_action.text


async def test_oversized_messages_and_bodies_are_refused(server: Served, http: httpx.AsyncClient) -> None:
    before = server.rss_mib()

    async def flood() -> None:
        for _ in range(10):
            async with connect(ws_url(server), additional_headers=AUTH, max_size=None) as ws:
                await ws.send("x" * (2 * MAX_BODY))
                with pytest.raises(ConnectionClosed) as raised:
                    await ws.recv()
                assert raised.value.rcvd is not None and raised.value.rcvd.code == 1009, raised.value
            for path in ("/reset", "/mcp"):
                answer = await http.post(path, content=b" " * (4 * MAX_BODY), headers=JSON)
                assert answer.status_code == 413 and "--max-body-bytes" in answer.text, (path, answer.text)

    wrong = await during(server, flood)
    assert not wrong, wrong
    assert server.rss_mib() < before + 16


async def test_wrong_and_missing_tokens_are_401_under_a_flood(server: Served) -> None:
    async with httpx.AsyncClient(base_url=server.url, timeout=60, limits=httpx.Limits(max_connections=20)) as stranger:

        async def one(headers: dict[str, str]) -> None:
            answer = await stranger.post("/reset", json={}, headers=headers)
            assert answer.status_code == 401, answer.text
            with pytest.raises(InvalidStatus) as raised:
                async with connect(ws_url(server), additional_headers=headers):
                    pass
            assert raised.value.response.status_code == 401

        async def flood() -> None:
            async with anyio.create_task_group() as tg:
                for i in range(40):
                    tg.start_soon(one, {} if i % 2 else {"Authorization": f"Bearer {TOKEN}{i}"})

        wrong = await during(server, flood)
    assert not wrong, wrong


async def test_slow_clients_get_408_and_silent_ones_are_closed(server: Served) -> None:
    cuts: dict[str, list[Cut]] = {"head": [], "silent": [], "body": []}
    give_up = READ_TIMEOUT_S * 6

    async def slowly(kind: str, first: bytes, then: bytes) -> None:
        cuts[kind].append(await dribble(server.host, server.port, first, then, 0.4, give_up))

    async def flood() -> None:
        async with anyio.create_task_group() as tg:
            for _ in range(20):
                tg.start_soon(slowly, "head", *slow_head(server.host, "/health"))
                tg.start_soon(slowly, "body", *slow_body(server.host, "/reset", AUTH))
            for _ in range(10):
                tg.start_soon(slowly, "silent", b"", b"")

    wrong = await during(server, flood)
    assert not wrong, wrong
    for kind, got in cuts.items():
        ended = sorted(round(c.after_s, 1) for c in got)
        assert ended[0] >= READ_TIMEOUT_S * 0.9 and ended[-1] < give_up, (kind, ended)
    assert {c.status for c in cuts["head"]} == {408}, [c.answer[:200] for c in cuts["head"]]
    assert {c.answer for c in cuts["silent"]} == {b""}
    assert all(c.status == 408 or c.reset for c in cuts["body"]), [c.answer[:200] for c in cuts["body"]]
