"""τ-bench as a suite provider: `tau-bench:airline` and `tau-bench:retail`, opened from `--data DIR` (a
τ-bench checkout), run on `--server-python PY` (a Python where that checkout's dependencies and `mcp` are)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from statebox.compat.common.provider import SERVERS, SERVING, checked_python, checkout_folder, run_validation
from statebox.compat.taubench.checkout import DOMAINS, SPLITS
from statebox.compat.taubench.errors import TauFormatError
from statebox.compat.taubench.models import Domain, Split
from statebox.compat.taubench.options import TauRunOptions
from statebox.compat.taubench.suite import PREFIX, TauSuite, load_tau_suite, suite_name
from statebox.suites.provider import SuiteError, SuiteInfo, SuiteOption, SuiteProvider, ValidationReport

OPEN = frozenset({"tasks", "validate", "run"}) | SERVING
OPTIONS = (
    SuiteOption("data", "--data", Path, f"{PREFIX}: a τ-bench checkout.", commands=OPEN),
    SuiteOption("server_python", "--server-python", str, f"{PREFIX}: a Python where τ-bench and mcp are installed.",
                commands=SERVERS),
    # openenv-serve has a --split of its own: there, name the split in the suite (tau-bench:retail:train).
    SuiteOption("split", "--split", str, f"{PREFIX}: test (default), or train / dev for retail.",
                commands=OPEN - {"openenv-serve"}),
    SuiteOption("fork", "--fork/--no-fork", bool, f"{PREFIX}: fork each attempt's server from a template.",
                default=True, commands=frozenset({"run"}) | SERVING),
)  # fmt: skip


class TauBench(SuiteProvider[TauSuite]):
    """τ-bench read from a user's checkout; nothing of it ships with statebox."""

    options = OPTIONS

    def names(self) -> list[str]:
        return [suite_name(d, s) for d in DOMAINS for s in SPLITS[d]]

    def catalog(self) -> list[SuiteInfo]:
        return [
            SuiteInfo(suite_name("airline", "test"), None, "τ-bench airline (50 test tasks) from a checkout",
                      ("--data",)),
            SuiteInfo(suite_name("retail", "test"), None,
                      "τ-bench retail (115 test tasks; --split train|dev) from a checkout", ("--data",)),
        ]  # fmt: skip

    def open(
        self, name: str, options: Mapping[str, Any], patterns: list[str] | None, test_list: Path | None
    ) -> TauSuite:
        domain, split = domain_split(name, options.get("split"))
        data = checkout_folder(name, options.get("data"), "DIR", "a τ-bench checkout")
        if test_list is not None:
            raise SuiteError(f"--test-list is for thinkingbox-bench; select {name} tasks with --tasks")
        run = run_options(options.get("server_python"), bool(options.get("fork", True)))
        try:
            return load_tau_suite(data, domain, split, run).select(patterns)
        except TauFormatError as e:
            raise SuiteError(str(e)) from None

    def validate(self, suite: TauSuite, *, concurrency: int, on_done: Callable[[], None]) -> ValidationReport:
        """The reference, no-op and necessity checks, and the audit, on τ-bench's own code."""
        from statebox.compat.taubench.validation import validate_tau_suite, validation_report  # the servers' side

        results = run_validation(validate_tau_suite(suite, concurrency=concurrency, on_done=on_done))
        return validation_report(suite, results)


def domain_split(name: str, split: str | None) -> tuple[Domain, Split]:
    """`tau-bench:retail` (+ `--split`) or `tau-bench:retail:train` as a domain and a split."""
    parts = name.split(":")
    domain = parts[1] if len(parts) > 1 else ""
    if domain not in DOMAINS or len(parts) > 3:
        raise SuiteError(f"unknown suite {name!r}; τ-bench suites are {', '.join(TauBench().names())}")
    named = parts[2] if len(parts) == 3 else None
    if split is not None and named is not None and split != named:
        raise SuiteError(f"--split {split}: suite {name!r} is the {named} split already")
    chosen = split or named or "test"
    valid = SPLITS[domain]
    if chosen not in valid:
        raise SuiteError(f"--split {chosen}: tau-bench:{domain} has the split(s) {', '.join(valid)}")
    return domain, chosen


def run_options(server_python: str | None, fork: bool) -> TauRunOptions:
    """`--server-python` and `--fork/--no-fork`, checked."""
    return TauRunOptions(server_python=checked_python(server_python, TauRunOptions().server_python), fork=fork)
