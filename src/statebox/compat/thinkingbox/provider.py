"""ThinkingBox-Bench as a suite provider: `thinkingbox-bench`, opened from `--data PATH` with the
options that say how its tool servers run, validated against those servers."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from statebox.compat.common.counts import audit_counts, in_order
from statebox.compat.common.provider import SERVERS, SERVING, checked_python, checkout_folder, run_validation
from statebox.compat.thinkingbox.errors import TbFormatError
from statebox.compat.thinkingbox.options import TbRunOptions
from statebox.compat.thinkingbox.suite import SUITE_NAME, TbSuite, load_tb_suite
from statebox.runner.taskset import Listing
from statebox.suites.provider import SuiteError, SuiteInfo, SuiteOption, SuiteProvider, ValidationReport
from statebox.tools.quoting import message_of

if TYPE_CHECKING:
    from statebox.compat.thinkingbox.custom_check_isolation import Isolation
    from statebox.compat.thinkingbox.validation import TbTaskValidation

RUN = frozenset({"run"}) | SERVING
# The counts of `validate --json`, in the order it has always given them.
COUNTS = ("tasks", "ok", "reference_passes", "noop_passes", "read_only", "unnecessary_golden_writes",
          "tasks_with_unnecessary_writes", "golden_writes", "judge_attempts", "judge_disagreements",
          "noop_non_missing_kinds")  # fmt: skip
OPTIONS = (
    SuiteOption("data", "--data", Path, f"{SUITE_NAME}: a checkout of the benchmark's data repository.",
                commands=frozenset({"tasks", "validate", "run"}) | SERVING),
    SuiteOption("server_python", "--server-python", str, f"{SUITE_NAME}: the Python that runs the tool servers.",
                commands=SERVERS),
    SuiteOption("typesense", "--typesense", str, f"{SUITE_NAME}: search_policy through this Typesense URL.",
                commands=RUN),
    SuiteOption("fork", "--fork/--no-fork", bool, f"{SUITE_NAME}: fork `{{python}} -m` servers from a template.",
                default=True, commands=RUN),
    SuiteOption("unsafe_custom_checks", "--unsafe-custom-checks", bool,
                f"{SUITE_NAME}: run custom checks without bubblewrap (rlimits, seccomp and an audit hook only).",
                default=False, commands=SERVERS),
    SuiteOption("all", "--all", bool, f"{SUITE_NAME}: list the tasks the benchmark skips (tags: [skip]) too.",
                default=False, commands=frozenset({"tasks"})),
)  # fmt: skip


class ThinkingBoxBench(SuiteProvider[TbSuite]):
    """The benchmark read from a user's checkout; nothing of it ships with statebox."""

    options = OPTIONS

    def names(self) -> list[str]:
        return [SUITE_NAME]

    def catalog(self) -> list[SuiteInfo]:
        return [SuiteInfo(SUITE_NAME, None, "ThinkingBox-Bench v1.0 from a checkout (--data PATH)", ("--data",))]

    def open(
        self, name: str, options: Mapping[str, Any], patterns: list[str] | None, test_list: Path | None
    ) -> TbSuite:
        data = checkout_folder(SUITE_NAME, options.get("data"), "PATH", "a checkout of the benchmark's data repository")
        if test_list is not None and not test_list.is_file():
            raise SuiteError(f"--test-list {test_list}: no such file")
        run = run_options(options.get("server_python"), options.get("typesense"), bool(options.get("fork", True)),
                          bool(options.get("unsafe_custom_checks", False)))  # fmt: skip
        try:
            suite = load_tb_suite(data, test_list, run).select(patterns)
        except (TbFormatError, LookupError) as e:
            raise SuiteError(message_of(e)) from None
        suite = replace(suite, list_skipped=bool(options.get("all", False)))
        if "unsafe_custom_checks" in options and suite.custom_check_ids():  # a command that runs the checks
            suite = suite.with_options(replace(run, isolation=_isolation(run.unsafe_custom_checks)))
        return suite

    def validate(self, suite: TbSuite, *, concurrency: int, on_done: Callable[[], None]) -> ValidationReport:
        """The reference and no-op checks on the real servers."""
        from statebox.compat.thinkingbox.validation import validate_tb_suite  # the servers' side

        results = run_validation(validate_tb_suite(suite, concurrency=concurrency, on_done=on_done))
        ok = sum(r.ok for r in results)
        return ValidationReport(
            ok=ok == len(results),
            table=_validation_table(suite, results),
            summary="\n".join(validation_summary(suite.name, results)),
            json={
                "suite": suite.name,
                "tasks": [r.model_dump() for r in results],
                "counts": validation_counts(results),
                "unsupported": suite.unsupported_json(),
            },
        )


    def run_options(self, manifest: Mapping[str, Any]) -> tuple[dict[str, Any], Path | None]:
        """`--data` and `--test-list` as the run's manifest recorded them, where they still exist."""
        recorded = manifest.get("thinkingbox")
        if not isinstance(recorded, dict) or not isinstance(recorded.get("data"), str):
            return {}, None
        test_list = recorded.get("test_list")
        listed = Path(test_list) if isinstance(test_list, str) and Path(test_list).is_file() else None
        return {"data": Path(recorded["data"])}, listed


def _isolation(unsafe: bool) -> Isolation:
    from statebox.compat.thinkingbox.custom_check_isolation import IsolationUnavailable, find_isolation

    try:
        return find_isolation(unsafe)
    except IsolationUnavailable as e:
        raise SuiteError(str(e)) from None


def run_options(server_python: str | None, typesense: str | None, fork: bool, unsafe: bool = False) -> TbRunOptions:
    """`--server-python`, `--typesense`, `--fork/--no-fork` and `--unsafe-custom-checks`, checked."""
    python = checked_python(server_python, TbRunOptions().server_python)
    if typesense is not None:
        parts = urlsplit(typesense)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise SuiteError(f"--typesense {typesense!r}: expected a URL like http://localhost:8108")
    return TbRunOptions(server_python=python, typesense_url=typesense, fork=fork, unsafe_custom_checks=unsafe)


def validation_counts(results: list[TbTaskValidation]) -> dict[str, int]:
    """How many tasks have each outcome and finding."""
    own = {
        "noop_passes": sum(r.noop_passes is True for r in results),
        "noop_non_missing_kinds": sum(any(k != "missing_effect" for k in r.noop_kinds) for r in results),
    }
    return in_order(COUNTS, audit_counts(results, "golden_writes"), own)


def validation_summary(name: str, results: list[TbTaskValidation]) -> list[str]:
    """A line per check and per finding kind."""
    c = validation_counts(results)
    agree = c["judge_attempts"] - c["judge_disagreements"]
    share = f"{100 * agree / c['judge_attempts']:.1f}%" if c["judge_attempts"] else "-"
    return [
        f"{name}: {c['ok']}/{c['tasks']} tasks pass the reference and no-op checks "
        f"(reference passes {c['reference_passes']}, no-op passes {c['noop_passes']}, read-only {c['read_only']})",
        f"unnecessary golden writes: {c['unnecessary_golden_writes']} of {c['golden_writes']} state-changing "
        f"reference calls, in {c['tasks_with_unnecessary_writes']} tasks (the task passes without them)",
        f"typed judge agrees with the hash on {agree}/{c['judge_attempts']} reference and no-op attempts ({share}); "
        f"no-op attempts with a discrepancy other than missing_effect: {c['noop_non_missing_kinds']}",
    ]


def _validation_table(suite: TbSuite, results: list[TbTaskValidation]) -> Listing:
    columns = ("task", "reference passes", "no-op fails", "changes state", "problems", "findings")
    table = Listing(f"{suite.name}: reference and no-op checks on the tool servers", columns)
    for r in results:
        changes = "?" if r.read_only is None else ("no" if r.read_only else "yes")
        findings = [f"unnecessary golden write: {w}" for w in r.unnecessary_writes] + r.judge_disagreements
        table.rows.append((r.id, r.reference_passes, r.noop_fails, changes, "; ".join(r.problems), "; ".join(findings)))
    table.notes = suite.unsupported_notes()
    return table
