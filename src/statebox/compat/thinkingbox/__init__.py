"""ThinkingBox-Bench, run unchanged from a user's checkout.

- `TbCheckout`: the checkout as data (tasks parsed without executing test files, scenarios,
  merged init configs, the agent spec, servers.yaml).
- `PolicySearch`: the embedded, typo-tolerant `search_policy`.
- `ServerLauncher` / `ForkServer`: tool-server processes per attempt, forked from a template
  that imported the server once; clock pinned to the benchmark's "now".
- `protocol`: the reserved init / effects / teardown tools.
"""

from statebox.compat.thinkingbox.clockpin import BENCH_NOW, clock_pin_env
from statebox.compat.thinkingbox.errors import TbFormatError
from statebox.compat.thinkingbox.forkserver import ForkedChild, ForkServer, ForkTarget, forked_stdio_client
from statebox.compat.thinkingbox.launch import ServerLauncher, StartedServer
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
from statebox.compat.thinkingbox.protocol import (
    discrepancy_kind,
    is_reserved,
    reserved_geteffects,
    reserved_init,
    reserved_teardown,
    visible_tools,
)
from statebox.compat.thinkingbox.search import PolicyHit, PolicySearch

__all__ = [
    "BENCH_NOW",
    "DOMAINS",
    "ForkServer",
    "ForkTarget",
    "ForkedChild",
    "PolicyHit",
    "PolicySearch",
    "ServerLauncher",
    "StartedServer",
    "TbAgentSpec",
    "TbBuiltinTool",
    "TbCheckout",
    "TbDiffItem",
    "TbEffects",
    "TbFormatError",
    "TbPolicySource",
    "TbScenario",
    "TbServerEntry",
    "TbServerInit",
    "TbServers",
    "TbTask",
    "TbToolRef",
    "clock_pin_env",
    "discrepancy_kind",
    "domain_of",
    "forked_stdio_client",
    "is_reserved",
    "merge_world_state",
    "reserved_geteffects",
    "reserved_init",
    "reserved_teardown",
    "split_task_id",
    "visible_tools",
]
