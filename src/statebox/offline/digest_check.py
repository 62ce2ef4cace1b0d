"""Whether trials.jsonl is still what was appended: its lines recomputed against trials.digest."""

from __future__ import annotations

import json
from pathlib import Path

from statebox.runner.store import DIGEST, DIGEST_SEED, TRIALS, chain_digest, read_lines


def digest_problem(run: Path) -> str | None:
    """None when every trial line matches its chained digest; otherwise the first problem, naming the line."""
    if not (run / DIGEST).exists():
        if not (run / TRIALS).exists():
            return None
        return f"no {DIGEST}: the run was written before statebox kept one, so its lines cannot be checked"
    lines = _trial_lines(run / TRIALS)
    entries = _digest_entries(run / DIGEST)
    if isinstance(entries, str):
        return entries
    previous = DIGEST_SEED
    for (number, line), entry in zip(lines, entries, strict=False):
        previous = chain_digest(previous, line)
        if entry != previous:
            return f"{TRIALS}:{number} does not match its digest: the line was altered, removed or moved"
    if len(lines) != len(entries):
        more = f"{len(lines) - len(entries)} trial line(s) with no digest" if len(lines) > len(entries) else (
            f"{len(entries) - len(lines)} digest entr(ies) with no trial line: lines were removed")
        return f"{TRIALS} has {len(lines)} lines and {DIGEST} {len(entries)} entries ({more})"
    return None


def _trial_lines(path: Path) -> list[tuple[int, str]]:
    """The trial lines a writer appended whole, with their line numbers (the store's reader's lines)."""
    return [(line.number, line.text) for line in read_lines(path) if not line.unterminated and not line.torn]


def _digest_entries(path: Path) -> list[str] | str:
    out: list[str] = []
    for number, line in enumerate(path.read_text().split("\n")[:-1], 1):
        try:
            out.append(str(json.loads(line)["sha256"]))
        except (ValueError, KeyError, TypeError):
            return f"{DIGEST}:{number}: not a digest entry; the file was altered"
    return out
