"""The fake model as the agent under test, over real HTTP: each mode leaves the state it should."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator

import pytest
from fakemodel_shop import NOTE, REFUND, Attempt, ServerPool, client, play

from statebox.fakemodel import FakeModelServer
from statebox.fakemodel.agent import UNKNOWN_REQUEST
from statebox.tasks import Task

Serve = Callable[..., FakeModelServer]


@pytest.fixture(scope="module")
def serve() -> Iterator[Serve]:
    pool = ServerPool()
    yield pool.get
    pool.close()


def play_all(
    server: FakeModelServer, seeds: list[int | None], task: Task = REFUND, withhold: bool = False
) -> list[Attempt]:
    """Attempts with the given request seeds, played concurrently."""

    async def all_of() -> list[Attempt]:
        games = [play(server, server.app.suite, task, seed=s, withhold=withhold) for s in seeds]
        return list(await asyncio.gather(*games))

    return asyncio.run(all_of())


def run(serve: Serve, mode: str, *, withhold: bool = False) -> Attempt:
    return play_all(serve(mode=mode), [None], withhold=withhold)[0]


def kinds(attempt: Attempt) -> set[str]:
    return attempt.verdict.kinds()


def test_reference_mode_passes_the_task(serve: Serve) -> None:
    attempt = run(serve, "reference")
    assert attempt.verdict.passed, [d.describe() for d in attempt.verdict.discrepancies]
    assert [c[0] for c in attempt.calls] == ["find_order", "refund_order", "add_note"]


def test_reference_mode_asks_for_both_facts_in_one_question_before_any_call(serve: Serve) -> None:
    attempt = run(serve, "reference")
    first_text = attempt.messages[2]
    assert first_text["role"] == "assistant" and not first_text.get("tool_calls")
    assert first_text["content"] == "Could you please tell me your order number and your email address?"


def test_reference_mode_makes_one_tool_call_per_response_and_uses_generated_ids(serve: Serve) -> None:
    attempt = run(serve, "reference")
    with_calls = [m for m in attempt.messages if m.get("tool_calls")]
    assert all(len(m["tool_calls"]) == 1 for m in with_calls)
    assert attempt.calls[2][1]["body"] == "Refund RF-1 for a broken mug"


def test_reference_mode_ends_with_a_summary_that_asks_nothing(serve: Serve) -> None:
    attempt = run(serve, "reference")
    assert "completed" in attempt.final_reply and "?" not in attempt.final_reply


def test_skip_last_write_is_a_missing_effect(serve: Serve) -> None:
    attempt = run(serve, "skip-last-write")
    assert not attempt.verdict.passed
    assert kinds(attempt) == {"missing_effect"}
    assert [c[0] for c in attempt.calls] == ["find_order", "refund_order"]


def test_wrong_value_is_a_wrong_value(serve: Serve) -> None:
    attempt = run(serve, "wrong-value")
    assert kinds(attempt) == {"wrong_value"}, [d.describe() for d in attempt.verdict.discrepancies]
    (wrong,) = attempt.verdict.discrepancies
    assert (wrong.table, wrong.field, wrong.expected, wrong.actual) == ("refunds", "amount", 40.0, 20.0)


def test_extra_write_is_an_extra_effect(serve: Serve) -> None:
    attempt = run(serve, "extra-write")
    assert kinds(attempt) == {"extra_effect"}
    assert [c[0] for c in attempt.calls] == ["find_order", "refund_order", "add_note", "add_note"]


def test_give_up_calls_the_first_write_without_its_arguments_then_stops(serve: Serve) -> None:
    attempt = run(serve, "give-up")
    assert not attempt.verdict.passed and kinds(attempt) == {"missing_effect"}
    assert attempt.calls[-1] == ("refund_order", {}, True)
    assert "cannot complete" in attempt.final_reply


def test_flaky_with_error_rate_zero_always_passes(serve: Serve) -> None:
    played = play_all(serve(mode="flaky", error_rate=0.0), list(range(4)))
    assert all(a.verdict.passed for a in played)


def test_flaky_with_error_rate_one_always_fails(serve: Serve) -> None:
    played = play_all(serve(mode="flaky", error_rate=1.0), list(range(8)))
    assert [a.verdict.passed for a in played] == [False] * 8


def test_flaky_attempts_keep_one_mode_and_different_seeds_choose_differently(serve: Serve) -> None:
    played = play_all(serve(mode="flaky", error_rate=0.5), list(range(10)))
    assert all(len(a.modes) == 1 for a in played), [a.modes for a in played]
    modes = [next(iter(a.modes)) for a in played]
    assert "reference" in modes and len(set(modes)) >= 3, modes
    assert {a.verdict.passed for a in played} == {True, False}
    assert all(a.verdict.passed == (m == "reference") for a, m in zip(played, modes, strict=True))


def test_a_customer_without_the_facts_makes_it_give_up_and_the_task_fails(serve: Serve) -> None:
    attempt = run(serve, "reference", withhold=True)
    assert attempt.calls == []
    assert "cannot proceed without that information" in attempt.agent_texts()[1]
    assert not attempt.verdict.passed and kinds(attempt) == {"missing_effect"}


def test_the_opening_message_alone_picks_the_task(serve: Serve) -> None:
    (attempt,) = play_all(serve(mode="reference"), [None], task=NOTE)
    assert attempt.verdict.passed and [c[0] for c in attempt.calls] == ["add_note"]
    assert attempt.messages[2]["content"] == "Could you please tell me your order number?"


def test_an_unknown_opening_gets_a_polite_reply_and_no_tool_calls(serve: Serve) -> None:
    async def ask() -> tuple[str | None, object]:
        async with client(server) as api:
            response = await api.chat.completions.create(
                model="fake", messages=[{"role": "user", "content": "My mug arrived broken."}]
            )
        return response.choices[0].message.content, response.choices[0].message.tool_calls

    server = serve(mode="reference")
    text, calls = asyncio.run(ask())
    assert (text, calls) == (UNKNOWN_REQUEST, None)
