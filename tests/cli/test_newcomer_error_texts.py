"""Error texts quote at most a short prefix of any value, and never cut a quote in half."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from typer.testing import CliRunner

from statebox.cli import app
from statebox.mcp import running_proxy
from statebox.runner.hosted_suite import HostedAttemptFactory
from statebox.suites import Suite, load_suite
from statebox.suites.provider import provider_opener
from statebox.tasks.worlds import discover_domains
from statebox.tools import BoundTools, ToolSpec
from statebox.tools.arguments import ArgumentValidators

HUGE = "X" * 1_000_000
LONGEST_QUOTE = 60  # characters of a value an error text may quote
TOO_LONG = "X" * (LONGEST_QUOTE + 1)


def _string_only_tools() -> list[Any]:
    """Every tool of every built-in domain whose required arguments are all strings."""
    cases = []
    for name, domain in sorted(discover_domains().items()):
        for spec in domain.tools.specs():
            props = spec.input_schema.get("properties") or {}
            required = spec.input_schema.get("required") or []
            if required and all(props.get(r, {}).get("type") == "string" for r in required):
                cases.append(pytest.param(name, spec.name, required, id=f"{name}.{spec.name}"))
    return cases


@pytest.fixture(scope="module")
def suites() -> dict[str, Suite]:
    return {name: load_suite(name) for name in discover_domains()}


@pytest.mark.parametrize(("suite", "tool", "required"), _string_only_tools())
def test_a_long_argument_is_not_echoed_back_in_an_error(
    suites: dict[str, Suite], suite: str, tool: str, required: list[str]
) -> None:
    s = suites[suite]
    task = s.tasks[0]
    tools = BoundTools(s.domain_of(task).tools, s.open_session(task))
    outcome = tools.call(tool, dict.fromkeys(required, "X" * 10_000))  # a tool may answer (an empty search)
    if outcome.is_error:
        assert TOO_LONG not in outcome.text and len(outcome.text) < 5000, (len(outcome.text), outcome.text[:300])


def test_a_megabyte_argument_is_refused_before_the_tool_runs(suites: dict[str, Suite]) -> None:
    s = suites["retail"]
    task = s.tasks[0]
    outcome = BoundTools(s.domain_of(task).tools, s.open_session(task)).call("search_products", {"query": HUGE})
    said = "argument 'query' is 1,000,000 characters long; at most 20,000 are accepted."
    assert outcome.error_kind == "invalid_arguments" and said in outcome.text, outcome.text[:300]


def test_an_unknown_tool_with_a_one_megabyte_name_is_not_echoed_back(suites: dict[str, Suite]) -> None:
    s = suites["retail"]
    task = s.tasks[0]
    outcome = BoundTools(s.domain_of(task).tools, s.open_session(task)).call(HUGE, {})
    assert outcome.error_kind == "unknown_tool" and HUGE[:LONGEST_QUOTE] in outcome.text, outcome.text[:200]
    assert TOO_LONG not in outcome.text, len(outcome.text)


@pytest.mark.anyio
@pytest.mark.parametrize("field", ["suite", "task", "user"])
async def test_the_proxy_answers_a_one_megabyte_name_with_a_short_error(field: str) -> None:
    body = {"suite": "retail", "task": "cancel_desk_wrong_order_number", "user": "scripted", field: HUGE}
    factory = HostedAttemptFactory(provider_opener({}))  # what `statebox proxy` holds
    try:
        async with running_proxy(factory) as url, httpx.AsyncClient(base_url=url) as client:
            response = await client.post("/attempts", json=body, timeout=30)
    finally:
        await factory.aclose()
    assert response.status_code in (400, 404), response.text[:200]
    assert TOO_LONG not in response.text and len(response.text) < 500, (len(response.text), response.text[:200])


def test_a_wrong_type_null_says_null_once() -> None:
    spec = ToolSpec(name="t", description="", input_schema={"type": "object", "properties": {"n": {"type": "string"}}})
    message = ArgumentValidators().check(spec, {"n": None})
    assert message is not None and "must be string, got null." in message.replace("\n", "."), message
    assert "null null" not in message, message


def _cli(*args: str) -> str:
    result = CliRunner().invoke(app, list(args), input="")
    assert result.exit_code == 2, (result.exit_code, result.output)
    return " ".join(result.stderr.split())


def test_an_unknown_task_is_quoted_whole() -> None:
    assert _cli("serve", "retail", "nope_task") == "error: suite 'retail' has no task 'nope_task'"


def test_an_unknown_user_is_quoted_whole_with_the_choices_as_the_cli_spells_them() -> None:
    said = _cli("serve", "retail", "cancel_desk_wrong_order_number", "--user", "bogus")
    assert said == "error: --user 'bogus': choose one of scripted, llm, none", said


def test_an_unknown_suite_is_quoted_whole_with_balanced_punctuation() -> None:
    said = _cli("tasks", "nosuch")
    assert said.startswith("error: unknown suite 'nosuch'; available: ") and said.count("(") == said.count(")"), said


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"
