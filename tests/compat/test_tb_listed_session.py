"""A session told its server's tool list does not list the tools again only to validate results;
one that is not told, or told that a tool declares an output schema, validates as the SDK does."""

from __future__ import annotations

from typing import Any

import mcp_types as types
import pytest

from statebox.compat.thinkingbox import TbCheckout, bench_launcher, reserved_geteffects, reserved_init
from statebox.mcp.launch.session import ListedSession
from tbfakes import RETAIL_FILE, FakeCheckout

pytestmark = pytest.mark.anyio
RETAIL = "sandbox_external_retail"


class CountingSession(ListedSession):
    """Counts every `tools/list` it sends, the SDK's own included."""

    listed = 0

    async def list_tools(self, *, params: types.PaginatedRequestParams | None = None) -> types.ListToolsResult:
        self.listed += 1
        return await super().list_tools(params=params)


async def attempt(fake: FakeCheckout, known: list[types.Tool] | None) -> tuple[int, Any]:
    """One reference attempt on a forked server; the session told `known` first (if given)."""
    checkout = TbCheckout(fake.root)
    config = checkout.init_config(checkout.task(f"{RETAIL_FILE}:test_cancel_order"), RETAIL).config
    async with (
        bench_launcher(checkout.servers(), cwd=checkout.root) as launcher,
        launcher.start(RETAIL) as started,
        CountingSession(started.streams) as session,
    ):
        await session.initialize()
        if known is not None:
            session.know_tools(known)
        await reserved_init(session, RETAIL, config)
        for step in config["golden_test_case"]["tool_interactions"]:
            await session.call_tool(step["tool"], step["parameters"])
        effects = await reserved_geteffects(session, RETAIL)
    return session.listed, effects


async def listing(fake: FakeCheckout) -> list[types.Tool]:
    checkout = TbCheckout(fake.root)
    async with bench_launcher(checkout.servers(), cwd=checkout.root) as launcher, launcher.connect(RETAIL) as server:
        return await server.list_tools()


async def test_a_session_told_the_tools_lists_nothing_and_the_effects_are_the_same(fake: FakeCheckout) -> None:
    tools = await listing(fake)
    assert tools and all(tool.output_schema is None for tool in tools)
    told, told_effects = await attempt(fake, tools)
    untold, untold_effects = await attempt(fake, None)
    assert (told, untold) == (0, 1)  # the SDK alone lists once per session, at the first result
    assert told_effects == untold_effects and told_effects.hash_matches


async def test_a_tool_known_to_declare_an_output_schema_is_validated_by_the_sdk(fake: FakeCheckout) -> None:
    tools = await listing(fake)
    schema = {"type": "object"}
    claimed = [t.model_copy(update={"output_schema": schema}) if t.name == "cancel_order" else t for t in tools]
    listed, _ = await attempt(fake, claimed)
    assert listed == 1  # the SDK lists, finds no schema after all, validates nothing
