"""`statebox show`: one attempt in the terminal — conversation, verdict, changes against required, spend."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.markup import escape

from statebox.agents.transcript import Entry
from statebox.runner.record import ROLES, ErrorRecord, TrialRecord

FOLD = 160  # characters of a tool result or argument list shown before folding the rest


class ShowError(LookupError):
    """No such attempt in the run; the message lists what there is."""


def pick_record(
    trials: list[TrialRecord], task_id: str, repeat: int, model: str | None, errors: Sequence[ErrorRecord] = ()
) -> TrialRecord:
    """The attempt asked for: the task's, at this repeat, of this model (needed only when the run has several).
    An attempt that ended in an infrastructure error is a ShowError saying so."""
    finished = {t.trial_id for t in trials}
    for e in errors:
        mine = e.task_id == task_id and e.repeat == repeat and (model is None or (e.model or "-") == model)
        if mine and e.trial_id not in finished:
            raise ShowError(f"attempt {e.trial_id} did not finish: {e.kind}: {e.message} "
                            "(errors.jsonl; `statebox run --resume` retries it)")  # fmt: skip
    of_task = [t for t in trials if t.task_id == task_id]
    if not of_task:
        known = sorted({t.task_id for t in trials})
        raise ShowError(f"no attempt of task {task_id!r} in the run; its tasks: {', '.join(known[:10])}"
                        + (" ..." if len(known) > 10 else ""))  # fmt: skip
    models = sorted({t.model or "-" for t in of_task})
    if model is None and len(models) > 1:
        raise ShowError(f"task {task_id!r} was attempted by several models ({', '.join(models)}); give --model")
    chosen = [t for t in of_task if model is None or (t.model or "-") == model]
    for t in chosen:
        if t.repeat == repeat:
            return t
    repeats = ", ".join(str(t.repeat) for t in sorted(chosen, key=lambda t: t.repeat)) or "none"
    raise ShowError(f"task {task_id!r} has no attempt at --repeat {repeat}{f' by {model}' if model else ''}; "
                    f"repeats recorded: {repeats}")  # fmt: skip


def render(record: TrialRecord, console: Console, required: dict[str, Any] | None = None) -> None:
    """Print the attempt. `required` is the required effects (Effects.to_json()), when they can be had."""
    _header(record, console)
    _conversation(record, console)
    render_outcome(record, console, required)
    _spend(record, console)


def render_outcome(record: TrialRecord, console: Console, required: dict[str, Any] | None = None) -> None:
    """The verdict with its discrepancies, and what the agent changed against what was required;
    for an attempt judged by a benchmark's own check, that check's verdict."""
    check = record.effects.get("custom_check")
    if isinstance(check, dict):
        _custom_check(record, check, console)
        return
    _verdict(record, console)
    _section(console, "What the agent changed")
    _changes(record.effects, console)
    _section(console, "What was required")
    required = required if required is not None else _golden_changes(record.effects)
    if required is None:
        console.print("  (not available: the suite could not be opened to replay the reference)")
    else:
        _changes(required, console)


def _section(console: Console, title: str) -> None:
    console.print(f"\n[bold]{escape(title)}[/]")


def _header(r: TrialRecord, console: Console) -> None:
    verdict = "[green]PASSED[/]" if r.passed else "[red]FAILED[/]"
    console.print(f"[bold]{escape(r.trial_id)}[/]")
    ended: str = r.finish_reason or "?"
    if r.customer_end_reason:
        ended += f" ({r.customer_end_reason})"
    console.print(f"{verdict}  signature: {escape(r.signature or '-')}  finish: {escape(ended)}")
    console.print(f"agent {escape(r.agent)}, model {escape(r.model or '-')}, customer {escape(r.user or '-')}, "
                  f"repeat {r.repeat}")  # fmt: skip


def _conversation(r: TrialRecord, console: Console) -> None:
    _section(console, "Conversation")
    for i, e in enumerate(r.transcript.entries):
        for line in _entry_lines(e):
            console.print(f"[dim]{i:>3}[/] {line}")


def _entry_lines(e: Entry) -> list[str]:
    if e.role == "tool":
        mark = f"[red]error ({escape(e.error_kind or 'error')})[/] " if e.is_error else ""
        return [f"    [cyan]<- {escape(e.tool_name or '?')}[/] {mark}{escape(_fold(e.content))}"]
    lines = [f"[bold]{e.role}:[/] {escape(e.content)}"] if e.content else []
    for call in e.tool_calls:
        args = json.dumps(call.arguments, ensure_ascii=False) if call.arguments is not None else call.raw_arguments
        lines.append(f"    [cyan]-> {escape(call.name)}[/] {escape(_fold(args or ''))}")
    return lines


def _fold(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= FOLD else f"{text[:FOLD]} ... ({len(text) - FOLD} more characters)"


def _verdict(r: TrialRecord, console: Console) -> None:
    _section(console, "Verdict")
    state = "right" if r.state_passed else "wrong"
    console.print(f"end state {state}; discrepancies: {len(r.discrepancies)}")
    for d in r.discrepancies:
        console.print(f"  - {escape(_fold(d.describe()))}")
    for f in r.simulator_faults:
        console.print(f"  simulator fault {escape(f.kind)} (entry {f.message_index}): {escape(_fold(f.evidence))}")
    for q in r.rubrics:
        console.print(f"  rubric {'yes' if q.passed else 'NO'}: {escape(q.question)} {escape(_fold(q.reason))}")


def _custom_check(r: TrialRecord, check: dict[str, Any], console: Console) -> None:
    """A custom check's verdict: its one line, the failing line's text, the judge's questions, where it ran."""
    _section(console, "Verdict")
    console.print(f"{escape(str(check.get('summary', '')))}")
    if check.get("line") and check.get("source"):
        console.print(f"  {escape(str(check.get('label')))}:")
        console.print(f"    {check['line']}: {escape(str(check['source']))}")
    questions = check.get("questions") or []
    for q in questions:
        said = "not judged" if q.get("answer") is None else ("yes" if q["answer"] else "NO")
        asked = q.get("args", {}).get("question") or next(iter(q.get("args", {}).values()), "")
        reason = f" ({_fold(q['reason'])})" if q.get("reason") else ""
        console.print(f"  judge {escape(q.get('method', '?'))}: {escape(_fold(str(asked)))} -> {said}{escape(reason)}")
    for line in r.not_judged:
        console.print(f"  [yellow]{escape(line)}[/]")
    seccomp = "with seccomp" if check.get("seccomp") else "without seccomp"
    console.print(f"  judged in the {escape(str(check.get('sandbox', '?')))} sandbox ({seccomp}), "
                  f"{check.get('seconds', 0):.2f} s")  # fmt: skip
    _section(console, "What the check read")
    for server, info in sorted((r.effects.get("servers") or {}).items()):
        keys = ", ".join(info.get("effects_keys") or []) or "(nothing)"
        console.print(f"  x.effects[{escape(server)!r}]: {escape(keys)}")


def _changes(effects: dict[str, Any], console: Console) -> None:
    lines: list[str] = []
    for table, rows in sorted((effects.get("inserted") or {}).items()):
        lines += [f"  + {table} {_fold(json.dumps(row, ensure_ascii=False, default=str))}" for row in rows]
    for table, rows in sorted((effects.get("updated") or {}).items()):
        for u in rows:
            for field, v in sorted(u.get("fields", {}).items()):
                lines.append(f"  ~ {table}[{u.get('key')}].{field}: {v.get('before')!r} -> {v.get('after')!r}")
    for table, rows in sorted((effects.get("deleted") or {}).items()):
        lines += [f"  - {table} {_fold(json.dumps(row, ensure_ascii=False, default=str))}" for row in rows]
    for server, info in sorted((effects.get("servers") or {}).items()):
        same = info.get("result_db_hash") == info.get("golden_db_hash")
        lines.append(f"  server {server}: result hash {'equals' if same else 'differs from'} the golden hash")
    for line in lines or ["  (nothing)"]:
        console.print(escape(line))


def _golden_changes(effects: dict[str, Any]) -> dict[str, Any] | None:
    """The required changes a suite judged by its servers stored with the trial (`servers.*.golden_changes`)."""
    golden = [info.get("golden_changes") for info in (effects.get("servers") or {}).values()]
    if not golden or any(g is None for g in golden):
        return None
    merged: dict[str, Any] = {"inserted": {}, "updated": {}, "deleted": {}}
    for changes in golden:
        for kind in merged:
            merged[kind].update(changes.get(kind) or {})
    return merged


def _spend(r: TrialRecord, console: Console) -> None:
    _section(console, "Usage and cost")
    for role in ROLES:
        u = r.usage.get(role)
        cost = r.cost_usd.get(role)
        if u is None:
            continue
        price = "n/a" if cost is None else f"${cost:.4f}"
        console.print(f"  {role:<6} input {u.input}, cached {u.cached_input}, output {u.output} "
                      f"(reasoning {u.reasoning}); cost {price}")  # fmt: skip
    total = r.total_cost()
    time = r.timings.get("total_s")
    console.print(f"  total cost {'n/a' if total is None else f'${total:.4f}'}"
                  + (f", {time:.2f} s" if time is not None else ""))  # fmt: skip
