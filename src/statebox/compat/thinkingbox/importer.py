"""`statebox import tb-infer OUT.jsonl`: the official harness's `tb infer` output re-graded on the benchmark's servers.

One JSON line per attempt (the harness's decode result): `uid` (the test function), `messages` (typed by
`T`: `Text` with a role, `ToolCall`, `ParallelToolCall`, `ToolResponse`), `test_result` (`result`, `reward`,
`is_system_error`), `metadata` (`test_case_file`, `repetition`), `is_system_error`, `finish_reason`. The
task is `<test file name>:<uid>` of the checkout's canonical test list (a uid run from a test list is
that already); the agent's thinking (`Text` tagged
`think`) and the tool results are not replayed. A row without a test result, or with a system error, is
an attempt the harness never judged: replayed and judged here, with no recorded verdict.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from statebox.compat.thinkingbox.provider import ThinkingBoxBench
from statebox.compat.thinkingbox.suite import SUITE_NAME, TbSuite
from statebox.importing import Importer, ImportFormatError, ImportPlan, RecordedAttempt, RecordedStep
from statebox.runner.record import RecordedOutcome
from statebox.suites.provider import SuiteError

SHAPE = "one JSON object per line with uid, messages, test_result and metadata.test_case_file"


class TbInferImporter(Importer):
    format = "tb-infer"
    description = "ThinkingBox's `tb infer` output (JSONL, one decode result per attempt) re-graded on a checkout"

    def read(self, path: Path, options: Mapping[str, Any]) -> ImportPlan:
        rows = _rows(path)
        try:
            suite = ThinkingBoxBench().open(SUITE_NAME, options, None, None)
        except SuiteError as e:
            raise ImportFormatError(f"{path}: {e}") from None
        counts: Counter[str] = Counter()
        attempts = []
        for n, row in rows:
            task_id = _task_id(path, n, row, suite)
            repeat = row["metadata"].get("repetition")
            repeat = repeat if isinstance(repeat, int) and repeat >= 0 else counts[task_id]
            counts[task_id] += 1
            attempts.append(_attempt(f"{path}: line {n}", n - 1, row, task_id, repeat))
        return ImportPlan(suite, attempts, manifest={"test_list": None})


def _rows(path: Path) -> list[tuple[int, dict[str, Any]]]:
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as e:
        raise ImportFormatError(f"{path}: cannot be read ({e})") from None
    rows = []
    for n, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except ValueError:
            raise ImportFormatError(f"{path}: line {n}: not a tb infer output file: not JSON ({SHAPE})") from None
        ok = isinstance(row, dict) and isinstance(row.get("uid"), str) and isinstance(row.get("messages"), list)
        if not ok or not isinstance(row.get("metadata"), dict) or "test_case_file" not in row["metadata"]:
            raise ImportFormatError(f"{path}: line {n}: not a tb infer output row (expected {SHAPE})")
        rows.append((n, row))
    if not rows:
        raise ImportFormatError(f"{path}: no rows (expected {SHAPE})")
    return rows


def _task_id(path: Path, n: int, row: dict[str, Any], suite: TbSuite) -> str:
    uid = str(row["uid"])  # the test function, or (run from a test list) already `<file>.py:<function>`
    task_id = uid if ".py:" in uid else f"{Path(str(row['metadata']['test_case_file'])).name}:{uid}"
    if task_id not in suite.bench_tasks:
        unsupported = dict(suite.unsupported)
        why = f"unsupported: {unsupported[task_id]}" if task_id in unsupported else "not in the checkout's test list"
        raise ImportFormatError(f"{path}: line {n}: task {task_id} is {why}")
    return task_id


def _attempt(where: str, record: int, row: dict[str, Any], task_id: str, repeat: int) -> RecordedAttempt:
    opening: str | None = None
    steps: list[RecordedStep] = []
    for i, message in enumerate(row["messages"]):
        kind = message.get("T") if isinstance(message, dict) else None
        if kind == "Text" and message.get("role") == "user":
            text, done = str(message.get("content") or ""), bool((message.get("metadata") or {}).get("is_done"))
            if opening is None:
                opening = text
            else:
                steps.append(RecordedStep(kind="hear", text=text, ends=done))
        elif kind == "Text" and message.get("role") == "assistant" and opening is not None:
            if (message.get("metadata") or {}).get("tag", "text") != "think":
                steps.append(RecordedStep(kind="say", text=str(message.get("content") or "")))
        elif kind in ("ToolCall", "ParallelToolCall") and opening is not None:
            calls = message.get("tool_calls") if kind == "ParallelToolCall" else [message]
            steps += [_call(f"{where}: messages[{i}]", call) for call in calls or []]
        elif kind not in ("Text", "ToolResponse", "ToolCall", "ParallelToolCall"):
            raise ImportFormatError(f"{where}: messages[{i}] is not a Text, ToolCall, ParallelToolCall or ToolResponse")
    if opening is None:
        raise ImportFormatError(f"{where}: no user message opens the conversation")
    result = row.get("test_result")
    judged = isinstance(result, dict) and not result.get("is_system_error") and not row.get("is_system_error")
    detail = {"finish_reason": row.get("finish_reason"), "is_system_error": bool(row.get("is_system_error"))}
    outcome = RecordedOutcome(
        format="tb-infer",
        record=record,
        reward=float(result.get("reward", 0.0)) if judged and isinstance(result, dict) else None,
        passed=bool(result.get("result")) if judged and isinstance(result, dict) else None,
        detail=detail,
    )
    return RecordedAttempt(
        task_id=task_id, repeat=repeat, record=record, opening=opening, steps=steps, finished=judged, recorded=outcome
    )


def _call(where: str, call: Any) -> RecordedStep:
    if not isinstance(call, dict) or not isinstance(call.get("name"), str):
        raise ImportFormatError(f"{where}: a tool call without a name")
    arguments = call.get("arguments")
    return RecordedStep(kind="call", tool=call["name"], arguments=arguments if isinstance(arguments, dict) else {})
