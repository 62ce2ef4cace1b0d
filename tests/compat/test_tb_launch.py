"""Per-attempt servers from servers.yaml through statebox's launcher: forked or plainly started,
clock pinned, the reserved protocol."""

from __future__ import annotations

import json
import os
import signal

import anyio
import pytest

from statebox.compat.thinkingbox import (
    TbCheckout,
    TbDiffItem,
    bench_launcher,
    discrepancy_kind,
    reserved_geteffects,
    reserved_init,
    reserved_teardown,
    visible_tools,
)
from statebox.compat.thinkingbox.protocol import result_text
from statebox.mcp.errors import ToolServerError
from tbfakes import CONSULTING_FILE, RETAIL_FILE, FakeCheckout

pytestmark = pytest.mark.anyio
RETAIL, CONSULTING = "sandbox_external_retail", "sandbox_consulting"


def gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


@pytest.mark.parametrize(
    ("server", "task_id", "forked"),
    [(RETAIL, f"{RETAIL_FILE}:test_cancel_order", True), (CONSULTING, f"{CONSULTING_FILE}:test_escalation", False)],
)
async def test_an_attempt_replaying_the_reference_matches_the_golden_hash(
    fake: FakeCheckout, server: str, task_id: str, forked: bool
) -> None:
    checkout = TbCheckout(fake.root)
    task = checkout.task(task_id)
    init = checkout.init_config(task, server)
    async with bench_launcher(checkout.servers(), cwd=checkout.root) as launcher, launcher.connect(server) as started:
        session = started.session
        await reserved_init(session, server, init.config)
        for step in init.config["golden_test_case"]["tool_interactions"]:
            await session.call_tool(step["tool"], step["parameters"])
        clock = json.loads(result_text(await session.call_tool("is_warranty_active", {"product_id": "PRD-1"})))
        effects = await reserved_geteffects(session, server)
        assert json.loads(await reserved_teardown(session)) == {"status": "ok"}
    assert started.forked is forked
    assert effects.hash_matches and effects.diff == []
    assert clock["today"] == "2025-10-01"  # pinned, whether forked or started plainly
    assert gone(started.pid)


async def test_doing_nothing_leaves_a_diff_typed_as_missing_effects(fake: FakeCheckout) -> None:
    checkout = TbCheckout(fake.root)
    task = checkout.task(f"{RETAIL_FILE}:test_cancel_order")
    async with bench_launcher(checkout.servers(), cwd=checkout.root) as launcher, launcher.connect(RETAIL) as server:
        await reserved_init(server.session, RETAIL, checkout.init_config(task, RETAIL).config)
        effects = await reserved_geteffects(server.session, RETAIL)
    assert not effects.hash_matches
    assert [(item.path, item.type) for item in effects.diff] == [
        ("orders[1].cancellation_reason", "missing in result (present in golden)"),
        ("orders[1].status", "value mismatch"),
    ]
    assert [discrepancy_kind(item) for item in effects.diff] == ["missing_effect", "wrong_value"]


async def test_init_with_the_policy_sources_left_in_is_a_failed_start(fake: FakeCheckout) -> None:
    checkout = TbCheckout(fake.root)
    task = checkout.task(f"{RETAIL_FILE}:test_cancel_order")
    init = checkout.init_config(task, RETAIL)
    config = {**init.config, "sources": [source.model_dump() for source in init.sources]}
    async with bench_launcher(checkout.servers(), cwd=checkout.root) as launcher, launcher.connect(RETAIL) as server:
        with pytest.raises(ToolServerError, match=r"failed to initialise: .*cannot index sources"):
            await reserved_init(server.session, RETAIL, config)


async def test_agents_see_only_the_scenario_tools_never_reserved_ones(fake: FakeCheckout) -> None:
    checkout = TbCheckout(fake.root)
    scenario = checkout.scenario(RETAIL)
    async with bench_launcher(checkout.servers(), cwd=checkout.root) as launcher, launcher.connect(RETAIL) as server:
        tools = await server.list_tools()
    visible = {spec.name: spec for spec in visible_tools(tools, scenario)}
    assert set(visible) == {tool.name for tool in scenario.tools}
    assert "crash_now" not in visible and not any(name.startswith("__reserved__") for name in visible)
    assert visible["update_shipping_speed"].description == "Set an order's shipping speed (standard/expedited)."


def test_length_mismatches_read_as_missing_or_extra_effects() -> None:
    shorter = TbDiffItem(path="tickets", type="length mismatch", result=[], golden=[{"id": 1}])
    longer = TbDiffItem(path="tickets", type="length mismatch", result=[{"id": 1}], golden=[])
    extra = TbDiffItem(path="tickets[0]", type="present in result (missing in golden)")
    assert [discrepancy_kind(item) for item in (shorter, longer, extra)] == [
        "missing_effect",
        "extra_effect",
        "extra_effect",
    ]


async def test_a_dead_template_is_replaced_at_the_next_attempt(fake: FakeCheckout) -> None:
    checkout = TbCheckout(fake.root)
    async with bench_launcher(checkout.servers(), cwd=checkout.root) as launcher:
        async with launcher.connect(RETAIL) as first:
            pass
        await launcher.prepare(RETAIL)
        template = launcher.template(RETAIL)
        assert template is not None and template.template_pid is not None
        os.kill(template.template_pid, signal.SIGKILL)
        with anyio.fail_after(5):
            while template.alive:
                await anyio.sleep(0.01)
        async with launcher.connect(RETAIL) as second:
            assert await second.list_tools()
    assert second.forked and second.pid != first.pid
