"""A user's ThinkingBox-Bench checkout, read as data: tasks, scenarios, agent spec, servers.

Test files are parsed with `ast` and never imported or executed (see `docstrings`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple

from pydantic import ValidationError

from statebox.compat.thinkingbox.checkout_files import (
    describe_validation_error,
    parse_agent,
    parse_scenario,
    parse_servers,
    parse_sources,
    read_yaml,
)
from statebox.compat.thinkingbox.docstrings import ParsedTestFile, TaskFunction, parse_test_file
from statebox.compat.thinkingbox.errors import TbFormatError
from statebox.compat.thinkingbox.merge import merge_world_state
from statebox.compat.thinkingbox.models import CustomCheck, TbAgentSpec, TbScenario, TbServerInit, TbServers, TbTask

DEFAULT_TEST_LIST = Path("releases/thinkingbox_bench_v1/testlist_thinkingbox_bench_v1.yaml")
TEST_CASE_DIR = Path("dataset/test_case")
SCENARIO_DIR = Path("dataset/scenario")
AGENT_FILE = Path("dataset/agent/think.yaml")
SERVERS_FILE = Path("servers/servers.yaml")

# File-name prefix -> domain; the longest matching prefix wins.
DOMAINS: dict[str, str] = {
    "sandbox_external_retail": "retail",
    "external_booking_v1": "travel",
    "sandbox_auto_insurance": "auto_insurance",
    "sandbox_neobank_support_v1": "neobank",
    "sandbox_consulting": "consulting",
}
UNKNOWN_DOMAIN = "other"
DATA_VARIABLE = "THINKINGBOX_DATA"  # world states name data files as `$THINKINGBOX_DATA/...`: the checkout

ALLOWED_KEYS = frozenset(
    {
        "scenario", "query", "user_context", "init", "max_user_sim_turns", "max_agent_sim_turns",
        "bot_instructions", "history", "format_query", "tags",
    }
)  # fmt: skip
UNSUPPORTED_KEYS = ("history", "format_query")  # allowed by the benchmark, unused by its tasks

Unsupported = tuple[str, str]  # (task id, reason)
SKIP_TAG = "skip"  # a task tagged so is left out, as the benchmark's own loader does


class TaskList(NamedTuple):
    """A test list read: the tasks statebox runs, those it cannot (with why), and those the benchmark skips."""

    tasks: list[TbTask]
    unsupported: list[Unsupported]
    skipped: list[TbTask]


def is_skipped(tags: list[str]) -> bool:
    """Whether a task's tags (its file's and its own) say to leave it out."""
    return any(tag.lower() == SKIP_TAG for tag in tags)


def domain_of(file: str) -> str:
    """The domain a test file belongs to, from its name's prefix."""
    name = Path(file).name
    matches = [prefix for prefix in DOMAINS if name.startswith(prefix)]
    return DOMAINS[max(matches, key=len)] if matches else UNKNOWN_DOMAIN


def split_task_id(task_id: str) -> tuple[str, str]:
    """`"<file>.py:<function>"` -> (file, function)."""
    file, sep, function = task_id.rpartition(":")
    if not sep or not file.endswith(".py") or not function.isidentifier():
        raise TbFormatError(f"{task_id!r} is not a task id of the form '<file>.py:<function>'")
    return file, function


class TbCheckout:
    """A checkout of the benchmark's data repository. Parsed files are cached on the instance."""

    def __init__(self, path: str | Path) -> None:
        self.root = Path(path).resolve()
        if not (self.root / TEST_CASE_DIR).is_dir():
            raise TbFormatError(f"{self.root} is not a ThinkingBox-Bench checkout: it has no {TEST_CASE_DIR}/")
        self._files: dict[Path, ParsedTestFile] = {}
        self._scenarios: dict[str, TbScenario] = {}

    # -- tasks -------------------------------------------------------------------------------

    def test_ids(self, test_list: str | Path | None = None) -> list[str]:
        """The task ids of a test list (default: the canonical one), in order, without repeats."""
        path = Path(test_list) if test_list is not None else self.root / DEFAULT_TEST_LIST
        data = read_yaml(path, "test list")
        if not isinstance(data, list) or not all(isinstance(item, str) for item in data):
            raise TbFormatError(f"{path}: a test list is a YAML list of '<file>.py:<function>' strings")
        for task_id in data:
            split_task_id(task_id)
        return list(dict.fromkeys(data))

    def tasks(self, test_list: str | Path | None = None) -> tuple[list[TbTask], list[Unsupported]]:
        """The supported tasks of a test list, and (id, reason) for each task statebox cannot run
        (tasks the benchmark skips are in neither: see `read_list`)."""
        tasks, unsupported, _ = self.read_list(test_list)
        return tasks, unsupported

    def read_list(self, test_list: str | Path | None = None) -> TaskList:
        """The tasks of a test list: supported, unsupported (with why) and skipped (`tags: [skip]`)."""
        found = TaskList([], [], [])
        for task_id in self.test_ids(test_list):
            task, reason = self._load(task_id)
            if task is not None and is_skipped(task.tags):
                found.skipped.append(task)
            elif task is not None:
                found.tasks.append(task)
            else:
                found.unsupported.append((task_id, reason or "unsupported"))
        return found

    def task(self, task_id: str) -> TbTask:
        """One task by id; an unsupported task is a `TbFormatError` giving the reason."""
        task, reason = self._load(task_id)
        if task is None:
            raise TbFormatError(f"{task_id}: unsupported: {reason}")
        return task

    def custom_check(self, task_id: str) -> CustomCheck | None:
        """Where the custom check of a task is (its test function), or None for a recognised-shape task."""
        file, function = split_task_id(task_id)
        path = self.resolve_file(file)
        found = self._parse(path).function(function)
        if found is None or not found.custom:
            return None
        return CustomCheck(
            task_id=task_id, file=str(path), label=self._relative(path), function=function, lineno=found.lineno,
            data_root=str(self.root),
        )  # fmt: skip

    def resolve_file(self, file: str) -> Path:
        """`test_case/<file>`, else `test_case/<prefix>/<file>` for the longest existing prefix dir."""
        base = self.root / TEST_CASE_DIR
        direct = base / file
        if direct.is_file():
            return direct
        parts = Path(file).stem.split("_")
        for size in range(len(parts), 0, -1):
            folder = base / "_".join(parts[:size])
            if folder.is_dir():
                if (folder / file).is_file():
                    return folder / file
                raise TbFormatError(f"test file {file} not found: not in {direct.parent} nor in {folder}")
        raise TbFormatError(f"test file {file} not found in {base} (and no prefix folder of its name exists)")

    def _load(self, task_id: str) -> tuple[TbTask | None, str | None]:
        file, function = split_task_id(task_id)
        path = self.resolve_file(file)
        parsed = self._parse(path)
        found = parsed.function(function)
        if found is None:
            raise TbFormatError(f"{task_id}: {self._relative(path)} has no task function {function}()")
        if found.unsupported is not None:
            return None, found.unsupported
        spec = {**parsed.defaults, **found.spec}  # the function's own YAML wins over the file's
        if isinstance(parsed.defaults.get("tags"), list) and isinstance(found.spec.get("tags"), list):
            spec["tags"] = [*parsed.defaults["tags"], *found.spec["tags"]]  # tags add up, as the benchmark has it
        unknown = sorted(set(spec) - ALLOWED_KEYS)
        if unknown:
            raise TbFormatError(f"{task_id}: unknown key(s) {', '.join(unknown)}; allowed: {sorted(ALLOWED_KEYS)}")
        used = [key for key in UNSUPPORTED_KEYS if spec.get(key)]
        if used:
            return None, f"uses {', '.join(used)}, which statebox does not support"
        return self._build(task_id, file, path, found, spec)

    def _build(
        self, task_id: str, file: str, path: Path, function: TaskFunction, spec: dict[str, Any]
    ) -> tuple[TbTask | None, str | None]:
        if not isinstance(spec.get("init", {}), dict):
            raise TbFormatError(f"{task_id}: field init must be a mapping of server name to config")
        fields = {
            key: spec[key]
            for key in ("scenario", "query", "user_context", "init", "max_user_sim_turns", "bot_instructions", "tags")
            if spec.get(key) is not None
        }
        fields["max_agent_sim_turns"] = spec.get("max_agent_sim_turns")
        try:
            task = TbTask(
                id=task_id,
                file=file,
                path=self._relative(path),
                function=function.name,
                domain=domain_of(file),
                checks=list(function.checks),
                **fields,
            )
        except ValidationError as exc:
            raise TbFormatError(f"{task_id}: {describe_validation_error(exc)}") from exc
        rubrics = self._rubrics(task)
        if "rubrics_yesno" in task.checks and not rubrics:
            return None, f"calls validate_rubrics_yesno but no server's init has rubrics_yesno (line {function.lineno})"
        return task.model_copy(update={"rubrics": rubrics if "rubrics_yesno" in task.checks else []}), None

    def _rubrics(self, task: TbTask) -> list[str]:
        questions: list[str] = []
        for server in self.task_servers(task):
            value = self.init_config(task, server).config.get("rubrics_yesno") or []
            if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
                raise TbFormatError(f"{task.id}: init.{server}.rubrics_yesno must be a list of questions")
            questions.extend(value)
        return questions

    def _parse(self, path: Path) -> ParsedTestFile:
        if path not in self._files:
            self._files[path] = parse_test_file(path, self._relative(path))
        return self._files[path]

    def _relative(self, path: Path) -> str:
        return str(path.relative_to(self.root)) if path.is_relative_to(self.root) else str(path)

    # -- scenarios, init, agent, servers -----------------------------------------------------

    def scenario(self, name: str) -> TbScenario:
        """`dataset/scenario/<name>.yaml`."""
        if name not in self._scenarios:
            path = self.root / SCENARIO_DIR / f"{name}.yaml"
            self._scenarios[name] = parse_scenario(name, read_yaml(path, f"scenario {name!r}"), self._relative(path))
        return self._scenarios[name]

    def policy(self, task: TbTask) -> str:
        """The domain policy the agent sees: the task's own override, else the scenario's."""
        return task.bot_instructions or self.scenario(task.scenario).bot_instructions

    def task_servers(self, task: TbTask) -> list[str]:
        """The servers an attempt of `task` needs: the scenario's world-state servers, then the task's."""
        return list(dict.fromkeys([*self.scenario(task.scenario).world_state, *task.init]))

    def init_config(self, task: TbTask, server: str) -> TbServerInit:
        """The merged world state for `server`, with `sources` taken out for the embedded search."""
        base = self.scenario(task.scenario).world_state.get(server) or {}
        merged = _with_data_root(merge_world_state(base, task.init.get(server) or {}), str(self.root))
        if not isinstance(merged, dict):
            raise TbFormatError(f"{task.id}: init.{server} must be a mapping")
        sources = parse_sources(merged.pop("sources", None), f"{task.id}: world state of {server}")
        return TbServerInit(server=server, config=merged, sources=sources)

    def agent(self) -> TbAgentSpec:
        """dataset/agent/think.yaml."""
        path = self.root / AGENT_FILE
        return parse_agent(read_yaml(path, "agent spec"), self._relative(path))

    def servers(self) -> TbServers:
        """servers/servers.yaml."""
        path = self.root / SERVERS_FILE
        return parse_servers(read_yaml(path, "servers file"), self._relative(path))


def _with_data_root(value: Any, root: str) -> Any:
    """`$THINKINGBOX_DATA` (or `${THINKINGBOX_DATA}`) in world-state strings is the checkout, as the
    benchmark's harness has it in the servers' environment."""
    if isinstance(value, str):
        return value.replace("${" + DATA_VARIABLE + "}", root).replace("$" + DATA_VARIABLE, root)
    if isinstance(value, dict):
        return {key: _with_data_root(item, root) for key, item in value.items()}
    if isinstance(value, list):
        return [_with_data_root(item, root) for item in value]
    return value
