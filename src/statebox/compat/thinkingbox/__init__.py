"""ThinkingBox-Bench, run unchanged from a user's checkout.

- `TbCheckout`: the checkout as data (tasks parsed without executing test files, scenarios,
  merged init configs, the agent spec, servers.yaml).
- `PolicySearch`: the embedded, typo-tolerant `search_policy`.
- `bench_launcher`: servers.yaml as configuration of statebox's tool-server launcher
  (`statebox.mcp.launch`): forked where the command allows, clock pinned to the benchmark's "now".
- `protocol`: the reserved init / effects / teardown tools.
- `TbSuite` / `load_tb_suite`: the checkout's tasks as statebox tasks; `TbSource` runs their
  attempts in a campaign (a `TbBackend` each); `validate_tb_suite` checks reference and no-op.
- `ThinkingBoxBench`: the suite provider (`statebox.suites` entry point) the command line opens it through.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from statebox.lazy import lazy_facade

# The names below load on first use, so that the suite provider's entry point (read by every
# `statebox` command) does not bring in the MCP SDK and the servers' protocol.
if TYPE_CHECKING:
    from statebox.compat.thinkingbox.backend import TbBackend as TbBackend, TbRuntime as TbRuntime
    from statebox.compat.thinkingbox.clockpin import BENCH_NOW as BENCH_NOW, clock_pin_env as clock_pin_env
    from statebox.compat.thinkingbox.effects import TbJudgement as TbJudgement, judge_effects as judge_effects
    from statebox.compat.thinkingbox.errors import TbFormatError as TbFormatError
    from statebox.compat.thinkingbox.launch import (
        BenchLaunch as BenchLaunch,
        bench_launcher as bench_launcher,
        launch_specs as launch_specs,
    )
    from statebox.compat.thinkingbox.loader import (
        DOMAINS as DOMAINS,
        TbCheckout as TbCheckout,
        domain_of as domain_of,
        split_task_id as split_task_id,
    )
    from statebox.compat.thinkingbox.merge import merge_world_state as merge_world_state
    from statebox.compat.thinkingbox.models import (
        TbAgentSpec as TbAgentSpec,
        TbBuiltinTool as TbBuiltinTool,
        TbDiffItem as TbDiffItem,
        TbEffects as TbEffects,
        TbPolicySource as TbPolicySource,
        TbScenario as TbScenario,
        TbServerEntry as TbServerEntry,
        TbServerInit as TbServerInit,
        TbServers as TbServers,
        TbTask as TbTask,
        TbToolRef as TbToolRef,
    )
    from statebox.compat.thinkingbox.options import TbRunOptions as TbRunOptions
    from statebox.compat.thinkingbox.protocol import (
        discrepancy_kind as discrepancy_kind,
        is_reserved as is_reserved,
        reserved_geteffects as reserved_geteffects,
        reserved_init as reserved_init,
        reserved_teardown as reserved_teardown,
        visible_tools as visible_tools,
    )
    from statebox.compat.thinkingbox.provider import ThinkingBoxBench as ThinkingBoxBench
    from statebox.compat.thinkingbox.search import PolicyHit as PolicyHit, PolicySearch as PolicySearch
    from statebox.compat.thinkingbox.source import DONE_MARKER as DONE_MARKER, TbSource as TbSource
    from statebox.compat.thinkingbox.suite import (
        SUITE_NAME as SUITE_NAME,
        TbSuite as TbSuite,
        load_tb_suite as load_tb_suite,
    )
    from statebox.compat.thinkingbox.surface import TbToolSurface as TbToolSurface
    from statebox.compat.thinkingbox.task import TbBenchTask as TbBenchTask
    from statebox.compat.thinkingbox.validation import (
        TbTaskValidation as TbTaskValidation,
        validate_tb_suite as validate_tb_suite,
    )

__getattr__, __dir__, __all__ = lazy_facade(__name__, __file__)
