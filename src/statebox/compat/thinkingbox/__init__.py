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

from statebox.lazy import lazy_attributes

if TYPE_CHECKING:
    from statebox.compat.thinkingbox.backend import TbBackend, TbRuntime
    from statebox.compat.thinkingbox.clockpin import BENCH_NOW, clock_pin_env
    from statebox.compat.thinkingbox.effects import TbJudgement, judge_effects
    from statebox.compat.thinkingbox.errors import TbFormatError
    from statebox.compat.thinkingbox.launch import bench_launcher, launch_specs
    from statebox.compat.thinkingbox.loader import DOMAINS, TbCheckout, domain_of, split_task_id
    from statebox.compat.thinkingbox.merge import merge_world_state
    from statebox.compat.thinkingbox.models import (
        TbAgentSpec,
        TbBuiltinTool,
        TbDiffItem,
        TbEffects,
        TbPolicySource,
        TbScenario,
        TbServerEntry,
        TbServerInit,
        TbServers,
        TbTask,
        TbToolRef,
    )
    from statebox.compat.thinkingbox.options import TbRunOptions
    from statebox.compat.thinkingbox.protocol import (
        discrepancy_kind,
        is_reserved,
        reserved_geteffects,
        reserved_init,
        reserved_teardown,
        visible_tools,
    )
    from statebox.compat.thinkingbox.provider import ThinkingBoxBench
    from statebox.compat.thinkingbox.search import PolicyHit, PolicySearch
    from statebox.compat.thinkingbox.source import DONE_MARKER, TbSource
    from statebox.compat.thinkingbox.suite import SUITE_NAME, TbSuite, load_tb_suite
    from statebox.compat.thinkingbox.surface import TbToolSurface
    from statebox.compat.thinkingbox.task import TbBenchTask
    from statebox.compat.thinkingbox.validation import TbTaskValidation, validate_tb_suite

# Where each name lives; loaded on first use, so that the suite provider's entry point (read by every
# `statebox` command) does not bring in the MCP SDK and the servers' protocol.
_PARTS = {
    "TbBackend": "backend",
    "TbRuntime": "backend",
    "BENCH_NOW": "clockpin",
    "clock_pin_env": "clockpin",
    "TbJudgement": "effects",
    "judge_effects": "effects",
    "TbFormatError": "errors",
    "bench_launcher": "launch",
    "launch_specs": "launch",
    "DOMAINS": "loader",
    "TbCheckout": "loader",
    "domain_of": "loader",
    "split_task_id": "loader",
    "merge_world_state": "merge",
    "TbAgentSpec": "models",
    "TbBuiltinTool": "models",
    "TbDiffItem": "models",
    "TbEffects": "models",
    "TbPolicySource": "models",
    "TbScenario": "models",
    "TbServerEntry": "models",
    "TbServerInit": "models",
    "TbServers": "models",
    "TbTask": "models",
    "TbToolRef": "models",
    "TbRunOptions": "options",
    "discrepancy_kind": "protocol",
    "is_reserved": "protocol",
    "reserved_geteffects": "protocol",
    "reserved_init": "protocol",
    "reserved_teardown": "protocol",
    "visible_tools": "protocol",
    "ThinkingBoxBench": "provider",
    "PolicyHit": "search",
    "PolicySearch": "search",
    "DONE_MARKER": "source",
    "TbSource": "source",
    "SUITE_NAME": "suite",
    "TbSuite": "suite",
    "load_tb_suite": "suite",
    "TbToolSurface": "surface",
    "TbBenchTask": "task",
    "TbTaskValidation": "validation",
    "validate_tb_suite": "validation",
}

__getattr__ = lazy_attributes(__name__, _PARTS)


__all__ = [
    "BENCH_NOW",
    "DOMAINS",
    "DONE_MARKER",
    "SUITE_NAME",
    "PolicyHit",
    "PolicySearch",
    "TbAgentSpec",
    "TbBackend",
    "TbBenchTask",
    "TbBuiltinTool",
    "TbCheckout",
    "TbDiffItem",
    "TbEffects",
    "TbFormatError",
    "TbJudgement",
    "TbPolicySource",
    "TbRunOptions",
    "TbRuntime",
    "TbScenario",
    "TbServerEntry",
    "TbServerInit",
    "TbServers",
    "TbSource",
    "TbSuite",
    "TbTask",
    "TbTaskValidation",
    "TbToolRef",
    "TbToolSurface",
    "ThinkingBoxBench",
    "bench_launcher",
    "clock_pin_env",
    "discrepancy_kind",
    "domain_of",
    "is_reserved",
    "judge_effects",
    "launch_specs",
    "load_tb_suite",
    "merge_world_state",
    "reserved_geteffects",
    "reserved_init",
    "reserved_teardown",
    "split_task_id",
    "validate_tb_suite",
    "visible_tools",
]
