"""`statebox import tau-bench TRAJ.json`: τ-bench's recorded trajectories replayed and judged on a checkout.

The file is τ-bench's results format: a JSON list of `{task_id, trial, reward, info: {task, source,
user_cost, reward_info}, traj}`, `traj` OpenAI chat messages (system, user, assistant with
`tool_calls`, tool). The domain is the one whose policy is the system message (else whose task at
`task_id` grades like the recorded one); the split is `--split` (default test). Each record is
checked before anything runs: its task id in range, its recorded task graded as the checkout's
(the same actions and outputs: else the checkout is another version of τ-bench), every tool it
calls one the domain has. `reward_info` null: the episode never finished (cut off).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from statebox.compat.taubench.checkout import DOMAINS, TauCheckout
from statebox.compat.taubench.errors import TauFormatError
from statebox.compat.taubench.models import Domain, TauTaskData
from statebox.compat.taubench.provider import TauBench
from statebox.compat.taubench.suite import TauSuite, suite_name
from statebox.importing import Importer, ImportFormatError, ImportPlan, RecordedAttempt, RecordedStep
from statebox.runner.record import RecordedOutcome
from statebox.suites.provider import SuiteError

STOP = "###STOP###"  # τ-bench's user simulator ends the conversation with it
FIELDS = ("task_id", "trial", "reward", "info", "traj")


class TauImporter(Importer):
    format = "tau-bench"
    description = "τ-bench results (a JSON list of {task_id, trial, reward, info, traj}) replayed on a checkout"

    def read(self, path: Path, options: Mapping[str, Any]) -> ImportPlan:
        records = _records(path)
        checkout = _checkout(options)
        split = str(options.get("split") or "test")
        domain = _domain(path, checkout, records, split)
        try:
            suite = TauBench().open(suite_name(domain, split), options, None, None)  # type: ignore[arg-type]
        except SuiteError as e:
            raise ImportFormatError(f"{path}: {e}") from None
        tools = checkout.tool_names(domain)
        attempts = [_attempt(path, i, r, suite, tools) for i, r in enumerate(records)]
        return ImportPlan(suite, attempts, manifest={"domain": domain, "split": split})


def _records(path: Path) -> list[dict[str, Any]]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as e:
        raise ImportFormatError(f"{path}: not a τ-bench trajectory file: not JSON ({e})") from None
    shape = "a JSON list of {" + ", ".join(FIELDS) + "}"
    if not isinstance(data, list) or not data:
        raise ImportFormatError(f"{path}: not a τ-bench trajectory file (expected {shape})")
    for i, record in enumerate(data):
        missing = [f for f in FIELDS if not isinstance(record, dict) or f not in record]
        if missing:
            raise ImportFormatError(
                f"{path}: record {i}: not a τ-bench trajectory (no {', '.join(missing)}; expected {shape})"
            )
    return data


def _checkout(options: Mapping[str, Any]) -> TauCheckout:
    data = options.get("data")
    if data is None:
        raise ImportFormatError("tau-bench import needs --data DIR: the τ-bench checkout the trajectories ran on")
    try:
        return TauCheckout(Path(data))
    except TauFormatError as e:
        raise ImportFormatError(str(e)) from None


def _domain(path: Path, checkout: TauCheckout, records: list[dict[str, Any]], split: str) -> Domain:
    """The domain whose policy opens the first trajectory, else the one whose tasks match most records."""
    first = records[0].get("traj") or [{}]
    system = first[0].get("content") if isinstance(first[0], dict) and first[0].get("role") == "system" else None
    for domain in DOMAINS:
        if isinstance(system, str) and system.strip() == checkout.wiki(domain).strip():
            return domain
    matches = {d: sum(_same_task(r, checkout.tasks(d, split)) for r in records)  # type: ignore[arg-type]
               for d in DOMAINS if split == "test" or d == "retail"}  # fmt: skip
    best = max(matches, key=lambda d: matches[d], default=None)
    if best is None or not matches[best]:
        raise ImportFormatError(f"{path}: record 0: neither τ-bench domain's policy nor its tasks match the "
                                f"trajectories (recorded on another version of τ-bench, or another --split?)")
    return best


def _same_task(record: dict[str, Any], tasks: list[TauTaskData]) -> bool:
    index = record.get("task_id")
    if not isinstance(index, int) or not 0 <= index < len(tasks):
        return False
    try:
        return TauTaskData.model_validate((record.get("info") or {}).get("task")).same_grading(tasks[index])
    except ValidationError:
        return False


def _attempt(path: Path, i: int, record: dict[str, Any], suite: TauSuite, tools: set[str]) -> RecordedAttempt:
    where = f"{path}: record {i} (task {record.get('task_id')}, trial {record.get('trial')})"
    index, trial = record["task_id"], record["trial"]
    if not isinstance(index, int) or not 0 <= index < len(suite.tasks):
        raise ImportFormatError(
            f"{where}: task_id {index!r} is out of range ({suite.name} has tasks 0 to {len(suite.tasks) - 1})"
        )
    if not isinstance(trial, int) or trial < 0:
        raise ImportFormatError(f"{where}: trial must be a whole number >= 0, not {trial!r}")
    task = suite.tau_task(str(index))
    info = record["info"] if isinstance(record["info"], dict) else {}
    try:
        recorded_task = TauTaskData.model_validate(info.get("task"))
    except ValidationError as e:
        raise ImportFormatError(f"{where}: info.task is not a τ-bench task ({e.errors()[0]['msg']})") from None
    if not recorded_task.same_grading(task.tau):
        raise ImportFormatError(
            f"{where}: its task is graded differently from task {index} of the checkout (other actions or "
            "outputs): the trajectories were recorded on another version of τ-bench"
        )
    opening, steps = _steps(where, record["traj"], tools)
    reward_info = info.get("reward_info")
    finished = isinstance(reward_info, dict)
    detail = dict(reward_info.get("info") or {}) if isinstance(reward_info, dict) else {}
    reward = float(record["reward"]) if finished else None
    passed = None if reward is None else reward == 1.0
    outcome = RecordedOutcome(format="tau-bench", record=i, reward=reward, passed=passed, detail=detail)
    return RecordedAttempt(task_id=str(index), repeat=trial, record=i, opening=opening, steps=steps,
                           finished=finished, recorded=outcome)  # fmt: skip


def _steps(where: str, traj: Any, tools: set[str]) -> tuple[str, list[RecordedStep]]:
    """The opening (the first user message) and the steps after it; tool results are left out (replayed)."""
    if not isinstance(traj, list) or not all(isinstance(m, dict) for m in traj):
        raise ImportFormatError(f"{where}: traj must be a list of chat messages")
    users = [n for n, m in enumerate(traj) if m.get("role") == "user"]
    if not users:
        raise ImportFormatError(f"{where}: traj has no user message to open the conversation")
    steps: list[RecordedStep] = []
    for n, message in enumerate(traj[users[0] + 1 :], start=users[0] + 1):
        role, content = message.get("role"), message.get("content") or ""
        if role == "user":
            steps.append(RecordedStep(kind="hear", text=str(content), ends=STOP in str(content)))
        elif role == "assistant" and message.get("tool_calls"):
            steps += [_call(f"{where}: traj[{n}]", call, tools) for call in message["tool_calls"]]
        elif role == "assistant":
            steps.append(RecordedStep(kind="say", text=str(content)))
    return str(traj[users[0]].get("content") or ""), steps


def _call(where: str, call: Any, tools: set[str]) -> RecordedStep:
    function = call.get("function") if isinstance(call, dict) else None
    if not isinstance(function, dict) or not isinstance(function.get("name"), str):
        raise ImportFormatError(f"{where}: a tool call without a function name")
    name, raw = function["name"], function.get("arguments")
    if name not in tools:
        raise ImportFormatError(f"{where}: calls {name!r}, a tool this τ-bench domain does not have")
    try:
        arguments = json.loads(raw) if isinstance(raw, str) else dict(raw or {})
    except ValueError:
        arguments = {}
    if not isinstance(arguments, dict):
        arguments = {}
    return RecordedStep(
        kind="call", tool=name, arguments=arguments, raw_arguments=raw if isinstance(raw, str) else None
    )
