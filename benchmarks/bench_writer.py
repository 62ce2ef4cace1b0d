"""The Ray driver's writer: records per second from workers' JSON to the run directory.

    python benchmarks/bench_writer.py                      # 5,000 records, batches of 1 and 64, 5 runs
    python benchmarks/bench_writer.py --records 2000 --batch 1 --batch 16 --runs 3

The records are the realistic trials of `bench_report_scale.py` (a transcript of about 10 entries,
effects, a failure's discrepancies), handed to `DriverWriter.write` as the JSON a worker sends back:
each is checked to be one record line, checked against the trials already written, appended to trials.jsonl with its
chained digest, and its outcome told (to a no-op callback). Batch size 1 pays a lock, a file open and a digest
read per record. Also timed: the driver's writer before batching (each record parsed again
from its JSON, then `RunDir.append_trial`). The baseline, in the same run, is a
raw json-lines append of the same JSON strings (one file open, a buffered write per line). Printed:
the median over runs of records per second, the ratio to the baseline, and the load average.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from statebox.integrations.ray_executor.writer import DriverWriter, Handed
from statebox.runner.record import TrialRecord
from statebox.runner.store import RunDir

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_report_scale import DOMAINS, trial  # the same realistic records

TARGET = 5000.0  # records per second (issue #33)


def payloads(count: int) -> list[Handed]:
    rng = random.Random(33)
    handed = []
    for n in range(count):
        record = trial(rng, "model-a", f"task-{n // 3}", DOMAINS[n % len(DOMAINS)], n % 3, 0.6)
        handed.append(Handed(record.trial_id, "trial", record.model_dump_json(), record.passed))
    return handed


def raw_append(path: Path, handed: list[Handed]) -> float:
    start = time.perf_counter()
    with path.open("a") as f:
        for item in handed:
            f.write(item.payload + "\n")
    return time.perf_counter() - start


def writer_append(path: Path, handed: list[Handed], batch: int) -> float:
    path.mkdir()
    writer = DriverWriter(RunDir(path), lambda outcome, detail: None)
    start = time.perf_counter()
    for at in range(0, len(handed), batch):
        writer.write(handed[at : at + batch])
    spent = time.perf_counter() - start
    lines = (path / "trials.jsonl").read_text().count("\n")
    if lines != len(handed):
        raise SystemExit(f"{path}: {lines} trial lines written, {len(handed)} expected")
    return spent


def before_append(path: Path, handed: list[Handed]) -> float:
    path.mkdir()
    run = RunDir(path)
    start = time.perf_counter()
    for item in handed:
        run.append_trial(TrialRecord.model_validate_json(item.payload))
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--records", type=int, default=5000)
    parser.add_argument("--batch", type=int, action="append", help="batch sizes (default: 1 and 64)")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
    batches = args.batch or [1, 64]
    handed = payloads(args.records)
    size = sum(len(h.payload) for h in handed) / len(handed)
    print(f"{args.records} records of {size / 1000:.1f} KB on average, {args.runs} runs; "
          f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} at start")  # fmt: skip
    raw: list[float] = []
    before: list[float] = []
    timed: dict[int, list[float]] = {b: [] for b in batches}
    with tempfile.TemporaryDirectory(prefix="bench-writer-") as tmp:
        for run in range(args.runs):
            raw.append(raw_append(Path(tmp) / f"raw-{run}.jsonl", handed))
            before.append(before_append(Path(tmp) / f"before-{run}", handed))
            for b in batches:
                timed[b].append(writer_append(Path(tmp) / f"run-{run}-{b}", handed, b))
    baseline = args.records / statistics.median(raw)
    print("| writer | records/s (median) | ratio to raw append | target >= 5,000/s |")
    print("|---|---|---|---|")
    print(f"| raw json-lines append (baseline) | {baseline:,.0f} | 1.00 | |")
    rate = args.records / statistics.median(before)
    print(f"| before batching: parse + append_trial per record | {rate:,.0f} | {rate / baseline:.3f} | |")
    for b in batches:
        rate = args.records / statistics.median(timed[b])
        verdict = "met" if rate >= TARGET else "NOT met"
        print(f"| DriverWriter, batches of {b} | {rate:,.0f} | {rate / baseline:.3f} | {verdict} |")
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} at end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
