"""The state judge: the agent's effects against the required effects, default deny, ids by content."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from statebox.judge.assignment import min_cost_assignment
from statebox.judge.rules import JudgingRules
from statebox.judge.verdict import Discrepancy, DiscrepancyKind, Verdict
from statebox.world import Effects, Row, RowChange


def judge_state(actual: Effects, required: Effects, rules: JudgingRules) -> Verdict:
    """Compare two sets of effects. Passed iff there is no discrepancy."""
    act = [c for c in actual.changes if not rules.table_ignored(c.table)]
    req = [c for c in required.changes if not rules.table_ignored(c.table)]
    # Generated ids are the (string) keys of inserted rows; numbers are never taken for ids.
    gen_a = {c.key for c in act if c.kind == "insert" and isinstance(c.key, str)}
    gen_r = {c.key for c in req if c.kind == "insert" and isinstance(c.key, str)}
    ids = _IdMap(gen_a, gen_r, rules)
    out: list[Discrepancy] = []
    out += _judge_inserts(act, req, rules, ids)
    out += _judge_keyed(act, req, rules, ids)
    ignored = rules.hash_ignored()
    return Verdict(
        passed=not out,
        discrepancies=out,
        state_hash=actual.state_hash(ignored),
        expected_hash=required.state_hash(ignored),
    )


class _IdMap:
    """Generated ids on each side, and the pairing found by matching inserted rows."""

    def __init__(self, gen_a: set[Any], gen_r: set[Any], rules: JudgingRules) -> None:
        self.gen_a, self.gen_r, self.rules = gen_a, gen_r, rules
        self.a_to_r: dict[Any, Any] = {}

    def same(self, a: Any, r: Any, *, provisional: bool = False) -> bool:
        """Equal values; generated ids are equal when matched (or, while matching, when not yet known)."""
        if _hashable(a) and _hashable(r) and a in self.gen_a and r in self.gen_r:
            if a in self.a_to_r:
                return bool(self.a_to_r[a] == r)
            return provisional
        return bool(a == r)

    def same_field(self, table: str, field: str, a: Any, r: Any, *, provisional: bool = False) -> bool:
        """`same`, or equivalent by the field's judging rule (numeric tolerance, dictated text)."""
        return self.same(a, r, provisional=provisional) or self.rules.equivalent(table, field, a, r)

    def show(self, a: Any) -> Any:
        """An actual value as it reads on the reference's side (for messages)."""
        if not _hashable(a):
            return a
        if a in self.a_to_r:
            return self.a_to_r[a]
        return f"{a} (a new row with no counterpart)" if a in self.gen_a else a


def _hashable(value: Any) -> bool:
    return not isinstance(value, list | dict)


def _hk(key: Any) -> Any:
    """A key usable in a dict: composite keys (lists) become tuples."""
    return tuple(key) if isinstance(key, list) else key


def _judged_fields(table: str, row: Row, rules: JudgingRules) -> list[str]:
    key = rules.key_columns(table)
    return [f for f in row if f not in key and rules.judged(table, f) and not rules.free_text(table, f)]


def _judge_inserts(act: list[RowChange], req: list[RowChange], rules: JudgingRules, ids: _IdMap) -> list[Discrepancy]:
    by_table: dict[str, tuple[list[Row], list[Row]]] = defaultdict(lambda: ([], []))
    for c in act:
        if c.kind == "insert" and c.after is not None:
            by_table[c.table][0].append(c.after)
    for c in req:
        if c.kind == "insert" and c.after is not None:
            by_table[c.table][1].append(c.after)
    matching = _match_until_stable(by_table, rules, ids)
    pairs: list[tuple[str, Row, Row]] = []
    out: list[Discrepancy] = []
    for table, (rows_a, rows_r) in sorted(by_table.items()):
        matched = matching[table]
        pairs += [(table, rows_a[i], rows_r[j]) for i, j in matched]
        used_a, used_r = {i for i, _ in matched}, {j for _, j in matched}
        out += [_unmatched("extra_effect", table, row, rules) for i, row in enumerate(rows_a) if i not in used_a]
        out += [_unmatched("missing_effect", table, row, rules) for j, row in enumerate(rows_r) if j not in used_r]
    for table, a, r in pairs:
        for f in _judged_fields(table, r, rules):
            if not ids.same_field(table, f, a.get(f), r.get(f)):
                out.append(
                    Discrepancy(
                        kind="wrong_value",
                        table=table,
                        key=rules.key_of(table, r),
                        field=f,
                        expected=r.get(f),
                        actual=ids.show(a.get(f)),
                    )
                )
    return out


def _match_until_stable(
    by_table: dict[str, tuple[list[Row], list[Row]]], rules: JudgingRules, ids: _IdMap
) -> dict[str, list[tuple[int, int]]]:
    """Match inserted rows by content; re-match once ids are known, until the pairing stops changing.

    The first pass treats any two generated ids as equal; later passes use the pairing found, so
    child rows (a comment on a new ticket) follow their parents.
    """
    matching: dict[str, list[tuple[int, int]]] = {}
    for _ in range(4):
        previous = dict(ids.a_to_r)
        fresh: dict[Any, Any] = {}
        for table, (rows_a, rows_r) in sorted(by_table.items()):
            cost = [[_mismatches(table, a, r, rules, ids) for r in rows_r] for a in rows_a]
            matching[table] = min_cost_assignment(cost) if rows_a and rows_r else []
            if not rules.world.table(table).composite:  # only single-column keys are generated ids
                for i, j in matching[table]:
                    fresh[rules.key_of(table, rows_a[i])] = rules.key_of(table, rows_r[j])
        ids.a_to_r.clear()
        ids.a_to_r.update(fresh)
        if fresh == previous:
            break
    return matching


def _mismatches(table: str, a: Row, r: Row, rules: JudgingRules, ids: _IdMap) -> float:
    fields = _judged_fields(table, r, rules)
    return float(sum(not ids.same_field(table, f, a.get(f), r.get(f), provisional=True) for f in fields))


def _unmatched(kind: DiscrepancyKind, table: str, row: Row, rules: JudgingRules) -> Discrepancy:
    """A row of one side that no row of the other matched: an extra effect (the agent's) or a missing one."""
    shown, key = _visible(table, row, rules), rules.key_of(table, row)
    if kind == "extra_effect":
        return Discrepancy(kind=kind, table=table, key=key, actual=shown)
    return Discrepancy(kind=kind, table=table, key=key, expected=shown)


def _visible(table: str, row: Row, rules: JudgingRules) -> Row:
    return {k: v for k, v in row.items() if rules.judged(table, k)}


def _judge_keyed(act: list[RowChange], req: list[RowChange], rules: JudgingRules, ids: _IdMap) -> list[Discrepancy]:
    """Updates and deletes of rows that existed before: matched by primary key."""
    a_by = {(c.table, _hk(c.key)): c for c in act if c.kind != "insert"}
    r_by = {(c.table, _hk(c.key)): c for c in req if c.kind != "insert"}
    out: list[Discrepancy] = []
    for table, hkey in sorted(a_by.keys() | r_by.keys(), key=lambda k: (k[0], str(k[1]))):
        a, r = a_by.get((table, hkey)), r_by.get((table, hkey))
        key = (a or r).key  # type: ignore[union-attr]
        if a is not None and r is not None and a.kind == r.kind == "update":
            out += _compare_updates(table, key, a, r, rules, ids)
            continue
        if a is not None and r is not None and a.kind == r.kind == "delete":
            continue
        if r is not None:
            out += _one_sided(r, "missing_effect", rules)
        if a is not None:
            out += _one_sided(a, "extra_effect", rules)
    return out


def _compare_updates(
    table: str, key: Any, a: RowChange, r: RowChange, rules: JudgingRules, ids: _IdMap
) -> list[Discrepancy]:
    out: list[Discrepancy] = []
    assert a.after is not None and r.after is not None
    changed_a, changed_r = set(a.changed_fields), set(r.changed_fields)
    for f in sorted(changed_a | changed_r):
        if not rules.judged(table, f):
            continue
        if rules.free_text(table, f):
            if (f in changed_a) != (f in changed_r):
                kind: DiscrepancyKind = "missing_effect" if f in changed_r else "extra_effect"
                out.append(
                    Discrepancy(
                        kind=kind, table=table, key=key, field=f, expected=r.after.get(f), actual=a.after.get(f)
                    )
                )
            continue
        if ids.same_field(table, f, a.after.get(f), r.after.get(f)):
            continue
        out.append(
            Discrepancy(
                kind=_kind(f in changed_a, f in changed_r),
                table=table,
                key=key,
                field=f,
                expected=r.after.get(f),
                actual=ids.show(a.after.get(f)),
            )
        )
    return out


def _one_sided(c: RowChange, kind: DiscrepancyKind, rules: JudgingRules) -> list[Discrepancy]:
    """A change made by one side only: a delete, or an update field by field."""
    if c.kind == "delete":
        row = _visible(c.table, c.before or {}, rules)
        expected: Any = "<deleted>" if kind == "missing_effect" else row
        actual: Any = row if kind == "missing_effect" else "<deleted>"
        return [Discrepancy(kind=kind, table=c.table, key=c.key, field=None, expected=expected, actual=actual)]
    assert c.before is not None and c.after is not None
    out = []
    for f in c.changed_fields:
        if rules.judged(c.table, f):
            before, after = c.before.get(f), c.after.get(f)
            expected, actual = (after, before) if kind == "missing_effect" else (before, after)
            out.append(Discrepancy(kind=kind, table=c.table, key=c.key, field=f, expected=expected, actual=actual))
    return out


def _kind(changed_by_agent: bool, changed_by_reference: bool) -> DiscrepancyKind:
    if changed_by_agent and changed_by_reference:
        return "wrong_value"
    return "missing_effect" if changed_by_reference else "extra_effect"
