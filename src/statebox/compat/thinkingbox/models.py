"""Typed views of a ThinkingBox-Bench checkout: tasks, scenarios, the agent spec, servers, effects."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from statebox.mcp.servers_file import PYTHON_PLACEHOLDER, ServerSpec

Check = Literal["database", "rubrics_yesno"]


class TbTask(BaseModel):
    """One benchmark task, parsed from a test function's `\"\"\"!` YAML merged over its file's defaults."""

    model_config = ConfigDict(frozen=True)

    id: str  # "<file>.py:<function>"
    file: str  # the file name as the test list spells it
    path: str  # where it was found, relative to the checkout
    function: str
    domain: str
    scenario: str
    query: str
    user_context: str = ""
    init: dict[str, dict[str, Any]] = Field(default_factory=dict)  # server -> the task's own init
    checks: list[Check] = Field(default_factory=lambda: list[Check](["database"]))
    rubrics: list[str] = Field(default_factory=list)  # judged only when "rubrics_yesno" is a check
    max_user_sim_turns: int = 10
    max_agent_sim_turns: int | None = None  # None: unlimited
    bot_instructions: str | None = None  # a per-task override of the scenario's policy
    tags: list[str] = Field(default_factory=list)


class TbToolRef(BaseModel):
    """A tool the scenario makes visible to the agent."""

    name: str
    is_end_turn: bool = False
    direct_response: bool | str | None = None
    override_description: str | None = None


class TbPolicySource(BaseModel):
    """One policy document of a domain, searched by `search_policy`."""

    name: str
    snippets: list[str] = Field(default_factory=list)


class TbScenario(BaseModel):
    """A domain's scenario: its policy prompt, visible tools and per-server world state."""

    name: str
    bot_instructions: str = ""
    tools: list[TbToolRef] = Field(default_factory=list)
    world_state: dict[str, dict[str, Any]] = Field(default_factory=dict)

    def tool(self, name: str) -> TbToolRef | None:
        """The visible tool called `name`, if the scenario lists it."""
        return next((tool for tool in self.tools if tool.name == name), None)


class TbBuiltinTool(BaseModel):
    """A tool the agent spec adds on its own (e.g. the injection-report tool that ends the episode)."""

    name: str
    description: str = ""
    input_schema: dict[str, Any] = Field(default_factory=lambda: {"type": "object", "properties": {}})
    is_end_turn: bool = False


class TbAgentSpec(BaseModel):
    """The benchmark's agent prompt and built-in tools (dataset/agent/think.yaml)."""

    system_instructions: str
    builtin_tools: list[TbBuiltinTool] = Field(default_factory=list)
    parallel_tool_calls: bool = False


class TbServerEntry(BaseModel):
    """How servers.yaml says to start one tool server."""

    name: str
    type: str = "mcp-process"
    command: list[str] = Field(min_length=1)
    env: dict[str, str] = Field(default_factory=dict)

    def python_module(self) -> tuple[str, list[str]] | None:
        """`(module, args)` when the command is `{python} -m module args...`, the fork-server form."""
        if len(self.command) >= 3 and self.command[0] == PYTHON_PLACEHOLDER and self.command[1] == "-m":
            return self.command[2], self.command[3:]
        return None

    def spec(self, python: str) -> ServerSpec:
        """A startable spec, `{python}` replaced by the interpreter that runs the servers."""
        if self.type != "mcp-process":
            raise ValueError(f"server {self.name!r} has type {self.type!r}; only 'mcp-process' is supported")
        return ServerSpec(name=self.name, command=self.command, env=self.env).with_python(python)


class TbServers(BaseModel):
    """servers/servers.yaml: the tool servers by name."""

    servers: dict[str, TbServerEntry] = Field(default_factory=dict)

    def entry(self, name: str) -> TbServerEntry:
        if name not in self.servers:
            known = ", ".join(sorted(self.servers)) or "none"
            raise KeyError(f"servers.yaml has no server {name!r} (it has: {known})")
        return self.servers[name]


class TbServerInit(BaseModel):
    """What to send one server at `__reserved__init`, and the policy documents kept back from it."""

    server: str
    config: dict[str, Any]  # the merged world state, without `sources`
    sources: list[TbPolicySource] = Field(default_factory=list)


DiffType = Literal[
    "value mismatch",
    "length mismatch",
    "type mismatch",
    "missing in result (present in golden)",
    "present in result (missing in golden)",
    "result is None, golden is not",
    "result is not None, golden is None",
]


class TbDiffItem(BaseModel):
    """One difference between the result and golden databases, as the server reports it."""

    model_config = ConfigDict(extra="allow")

    path: str
    type: str  # one of DiffType on the published servers; kept open for others
    result: Any = None
    golden: Any = None


class TbEffects(BaseModel):
    """The answer of `__reserved__geteffects`."""

    model_config = ConfigDict(extra="allow")

    initial_db_state: Any = None
    result_db_state: Any = None
    result_db_hash: str
    golden_db_state: Any = None
    golden_db_hash: str
    diff: list[TbDiffItem] = Field(default_factory=list)
    rubrics_yesno: list[str] | None = None

    @property
    def hash_matches(self) -> bool:
        return self.result_db_hash == self.golden_db_hash


class CustomCheck(BaseModel):
    """Where a custom check's source is: the test file and the function, with its task id."""

    model_config = ConfigDict(frozen=True)

    task_id: str
    file: str  # absolute path of the test file
    label: str  # the test file relative to the checkout, as messages name it
    function: str
    lineno: int  # of the function's `def`
    data_root: str  # the checkout: the only tree the check may read besides Python's own
