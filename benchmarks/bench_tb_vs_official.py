"""ThinkingBox-Bench through the official harness and through statebox, side by side, one after the other.

    python benchmarks/bench_tb_vs_official.py                  # 21 tasks x 2, concurrency 8, both harnesses
    python benchmarks/bench_tb_vs_official.py --only statebox  # statebox alone (e.g. while profiling)
    python benchmarks/bench_tb_vs_official.py --pss 32,128     # statebox's PSS per concurrent attempt
    python benchmarks/bench_tb_vs_official.py --startup        # wall time and start-up of a 3-task run

Builds what it needs into .cache/ (benchmarks/tb_env.py's server environment and checkout, the official
harness's own venv, a Typesense-free copy of the data for it), starts an instant scripted endpoint
(benchmarks/tb_scripted_model.py: the agent replays the task's reference calls and says <DONE>), then
runs `tb mcp-start` + `tb infer` and `statebox run thinkingbox-bench --agent llm` on the same sample,
each timed as the wall time of its command. Prints attempts/s for each and the ratio, and statebox's
per-attempt phase medians from the trials it wrote: setup, per agent turn (and what of a turn is the
endpoint's own time, the tool call's round trip, and the rest: statebox's), judge; and where each
attempt's time goes after the first began: statebox's own CPU, the servers' CPU (the process tree's
CPU less statebox's), waiting on the model, with statebox's share of the CPU as a ratio.
`--json FILE` writes every figure.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import threading
import time
from collections import defaultdict
from pathlib import Path
from typing import Any
from urllib.request import urlopen

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
import tb_env  # a script beside this one
import tb_official

ROOT = Path(__file__).resolve().parents[1]
CACHE = ROOT / ".cache" / "tb-official"
STATEBOX = ROOT / ".venv" / "bin" / "statebox"
PYTHON = ROOT / ".venv" / "bin" / "python"
RELEASE_LIST = Path("releases") / "thinkingbox_bench_v1" / "testlist_thinkingbox_bench_v1.yaml"
DOMAIN_PREFIXES = ("sandbox_external_retail", "external_booking_v1", "sandbox_auto_insurance",
                   "sandbox_neobank_support_v1", "sandbox_consulting")  # fmt: skip


def sample(data: Path, size: int) -> list[str]:
    """`size` tasks of the release list, round-robin over the five domains, no rubric task, and no two
    with the same opening message (the scripted endpoint tells tasks apart by it)."""
    from statebox.compat.thinkingbox import TbCheckout

    checkout = TbCheckout(data)
    ids = yaml.safe_load((data / RELEASE_LIST).read_text())
    by_domain: dict[str, list[str]] = defaultdict(list)
    seen: set[str] = set()
    for task_id in ids:
        prefix = next((p for p in DOMAIN_PREFIXES if task_id.startswith(p)), None)
        if prefix is None or "rubrics" in task_id:
            continue
        query = " ".join(checkout.task(task_id).query.split())
        if query not in seen:
            seen.add(query)
            by_domain[prefix].append(task_id)
    chosen: list[str] = []
    while len(chosen) < size and any(by_domain.values()):
        for prefix in DOMAIN_PREFIXES:
            if by_domain[prefix] and len(chosen) < size:
                chosen.append(by_domain[prefix].pop(0))
    return chosen


class Endpoint:
    """The scripted endpoint in its own process."""

    def __init__(self, data: Path, test_list: Path) -> None:
        script = Path(__file__).with_name("tb_scripted_model.py")
        self.process = subprocess.Popen(
            [str(PYTHON), str(script), "--data", str(data), "--test-list", str(test_list)],
            stdout=subprocess.PIPE, text=True, start_new_session=True,
        )  # fmt: skip
        assert self.process.stdout is not None
        self.url = self.process.stdout.readline().strip()
        if not self.url.startswith("http"):
            raise RuntimeError(f"the scripted endpoint did not start (said {self.url!r})")

    def stats(self) -> dict[str, Any]:
        with urlopen(f"{self.url}/stats", timeout=10) as response:
            return dict(json.loads(response.read()))

    def close(self) -> None:
        tb_official.stop(self.process)


class PssSampler:
    """Sums PSS (smaps_rollup) over a process and all its descendants, every `period_s`; keeps the peak."""

    def __init__(self, root: int, period_s: float = 0.25) -> None:
        self.root, self.period_s = root, period_s
        self.peak_kb, self.peak_processes, self.peak_servers, self.samples = 0, 0, 0, 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, daemon=True)

    def __enter__(self) -> PssSampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def _loop(self) -> None:
        while not self._stop.wait(self.period_s):
            tree = descendants(self.root)
            total = sum(pss_kb(pid) for pid, _ in tree)
            self.samples += 1
            if total > self.peak_kb:
                servers = sum(depth >= 2 for _, depth in tree)  # statebox -> templates -> server children
                self.peak_kb, self.peak_processes, self.peak_servers = total, len(tree), servers


def descendants(root: int) -> list[tuple[int, int]]:
    """`root` and every process below it (by parent pid), each with its depth below `root`."""
    children: dict[int, list[int]] = defaultdict(list)
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            parent = int(stat.rsplit(")", 1)[1].split()[1])
            children[parent].append(int(entry))
    found, todo = [], [(root, 0)]
    while todo:
        pid, depth = todo.pop()
        found.append((pid, depth))
        todo.extend((child, depth + 1) for child in children.get(pid, []))
    return found


def own_cpu_s(pid: int) -> float:
    """A live process's own CPU seconds (user + system, its children not counted); 0 once it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def tree_cpu_s(root: int) -> float:
    """CPU seconds of a live process tree so far: each live process's own and that of the children it
    reaped (a server forked from a template is counted in the template's once it is reaped)."""
    total = 0.0
    for pid, _ in descendants(root):
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += sum(int(f) for f in fields[11:15]) / os.sysconf("SC_CLK_TCK")
    return total


def time_split(rows: list[dict[str, Any]], own_s: float, servers_s: float) -> dict[str, float]:
    """Where an attempt's time goes after the first attempt began: statebox's own CPU, the servers' CPU
    (templates and every server process), and waiting on the model (the client's latency), per attempt;
    statebox's share of the CPU as a ratio."""
    steady = rows[1:] or rows
    model_s = sum(e["latency_s"] for r in steady for e in r["transcript"]["entries"]
                  if e["role"] == "agent" and e.get("latency_s") is not None)  # fmt: skip
    n = max(1, len(steady))
    return {"statebox_cpu_ms": 1000 * own_s / n, "servers_cpu_ms": 1000 * servers_s / n,
            "model_wait_ms": 1000 * model_s / n, "statebox_share": own_s / max(1e-9, own_s + servers_s)}  # fmt: skip


def pss_kb(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return 0


# statebox's command line under cProfile, timed by its main thread's CPU (not wall) time, while its campaign's
# attempts run (`Campaign.execute`: every task of the event loop, not the start-up before): `--profile FILE`
_PROFILED = """
import cProfile, sys, time
from statebox.cli import main
from statebox.runner.campaign import Campaign
out = sys.argv.pop(1)
sys.argv[0] = "statebox"
profiler, execute = cProfile.Profile(time.thread_time), Campaign.execute
async def profiled(self, *args):
    profiler.enable()
    try:
        return await execute(self, *args)
    finally:
        profiler.disable()
Campaign.execute = profiled
try:
    main()
except SystemExit as e:
    code = e.code
else:
    code = 0
profiler.dump_stats(out)
sys.exit(code)
"""


def run_statebox(
    env: tb_env.TbEnv,
    endpoint: str,
    test_list: Path,
    out: Path,
    *,
    repeat: int,
    concurrency: int,
    pss: bool = False,
    profile: Path | None = None,
) -> dict[str, Any]:
    """`statebox run` timed as a command; attempts, passes, start-up and (with `pss`) peak PSS; with `profile`,
    run under cProfile (main thread's CPU time) and its stats written there."""
    prefix = [str(PYTHON), "-c", _PROFILED, str(profile)] if profile else [str(STATEBOX)]
    command = [*prefix, "run", "thinkingbox-bench", "--data", str(env.data), "--server-python",
               str(env.python), "--agent", "llm", "--model", "openai:scripted", "--base-url", f"{endpoint}/agent/v1",
               "--test-list", str(test_list), "--repeat", str(repeat), "--concurrency", str(concurrency),
               "--out", str(out)]  # fmt: skip
    trials = out / "trials.jsonl"
    environ = {**tb_official.harness_environ(), "OPENAI_API_KEY": "unused"}
    started = time.perf_counter()
    first_line_s, own_cpu_first, own_cpu, tree_first = None, 0.0, 0.0, 0.0
    with (out.parent / f"{out.name}.log").open("wb") as log:
        process = subprocess.Popen(command, env=environ, stdout=log, stderr=subprocess.STDOUT)
        sampler = PssSampler(process.pid) if pss else None
        with sampler or _Nothing():
            while True:
                pid, status, usage = os.wait4(process.pid, os.WNOHANG)
                if pid == process.pid:
                    break
                own_cpu = own_cpu_s(process.pid) or own_cpu
                if first_line_s is None and trials.is_file() and trials.stat().st_size > 0:
                    first_line_s, own_cpu_first = time.perf_counter() - started, own_cpu
                    tree_first = tree_cpu_s(process.pid)
                time.sleep(0.01)
    wall = time.perf_counter() - started
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        tail = (out.parent / f"{out.name}.log").read_text(errors="replace").strip().splitlines()[-5:]
        raise RuntimeError(f"statebox run failed ({code}): " + " | ".join(tail))
    rows = [json.loads(line) for line in trials.read_text().splitlines() if line.strip()]
    result: dict[str, Any] = {"wall_s": wall, "attempts": len(rows), "passed": sum(bool(r["passed"]) for r in rows)}
    # CPU: the whole tree (statebox, its templates, every server child they reaped) and statebox's own
    result["cpu_s"] = usage.ru_utime + usage.ru_stime
    result["own_cpu_s"] = own_cpu
    if first_line_s is not None and rows:
        result["startup_s"] = first_line_s - rows[0]["timings"]["total_s"]  # until the first attempt began
        result["own_cpu_per_attempt_ms"] = 1000 * (own_cpu - own_cpu_first) / max(1, len(rows) - 1)
        turns = sum(e["role"] == "agent" and e.get("latency_s") is not None for r in rows[1:]
                    for e in r["transcript"]["entries"])  # fmt: skip
        result["own_cpu_per_turn_ms"] = 1000 * (own_cpu - own_cpu_first) / max(1, turns)  # setup and judge included
        own_steady = own_cpu - own_cpu_first
        result["time_split"] = time_split(rows, own_steady, result["cpu_s"] - tree_first - own_steady)
    result["phases"] = phases(rows)
    if sampler is not None:
        result["pss_peak_mb"] = sampler.peak_kb / 1024
        result["pss_processes"] = sampler.peak_processes
        result["pss_server_processes"] = sampler.peak_servers  # attempts in flight plus those forked ahead
        result["pss_per_attempt_mb"] = sampler.peak_kb / 1024 / concurrency
        result["pss_per_server_process_mb"] = sampler.peak_kb / 1024 / max(1, sampler.peak_servers)
    return result


class _Nothing:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None


def phases(rows: list[dict[str, Any]]) -> dict[str, float]:
    """Medians over attempts, in ms: setup, judge, and per agent turn the whole, the model call as the
    client saw it, the tool call's round trip, and the rest (statebox's own work in a turn)."""
    setup, judge, turn, model, tool, rest = [], [], [], [], [], []
    for row in rows:
        timings, entries = row["timings"], row["transcript"]["entries"]
        calls = [e for e in entries if e["role"] == "agent" and e.get("latency_s") is not None]
        if not calls:
            continue
        tool_s, previous = 0.0, 0.0
        for e in entries:
            if e["role"] == "tool":
                tool_s += e["at_s"] - previous
            previous = e["at_s"]
        model_s = sum(e["latency_s"] for e in calls)
        conversation = timings["conversation_s"]
        setup.append(timings["setup_s"])
        judge.append(timings["judge_s"])
        turn.append(conversation / len(calls))
        model.append(model_s / len(calls))
        tool.append(tool_s / len(calls))
        rest.append((conversation - model_s - tool_s) / len(calls))
    median = statistics.median
    return {name: round(1000 * median(values), 2) if values else float("nan")
            for name, values in (("setup_ms", setup), ("turn_ms", turn), ("model_call_ms", model),
                                 ("tool_call_ms", tool), ("turn_rest_ms", rest), ("judge_ms", judge))}  # fmt: skip


def load() -> str:
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", type=int, default=21, help="sample size (round-robin over the domains)")
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--only", choices=("both", "official", "statebox"), default="both")
    parser.add_argument("--pss", default=None, help="comma-separated concurrencies: statebox's PSS at each")
    parser.add_argument("--startup", action="store_true", help="statebox: a 3-task run's wall time and start-up")
    parser.add_argument("--timeout", type=float, default=900.0, help="seconds for the official harness's run")
    parser.add_argument("--json", type=Path, default=None, help="write every figure here")
    parser.add_argument("--profile", type=Path, default=None,
                        help="statebox's attempts under cProfile (CPU time): stats here")
    parser.add_argument("--thirdparty", type=Path, default=tb_env.DEFAULT_THIRDPARTY, help="the releases folder")
    args = parser.parse_args(argv)

    env = tb_env.build_env(args.thirdparty)
    tb_official.compile_bytecode([ROOT / "src", env.data / "servers", CACHE / "src"])  # both harnesses' sources
    work = CACHE / "runs" / time.strftime("%Y%m%dT%H%M%S")
    work.mkdir(parents=True)
    ids = sample(env.data, args.tasks)
    test_list = work / "sample.yaml"
    test_list.write_text(yaml.safe_dump(ids))
    report: dict[str, Any] = {"tasks": len(ids), "repeat": args.repeat, "concurrency": args.concurrency}
    print(f"sample: {len(ids)} tasks x {args.repeat} at concurrency {args.concurrency}; {load()}", flush=True)
    endpoint = Endpoint(env.data, test_list)
    try:
        if args.pss:
            report["pss"] = pss_runs(env, endpoint, test_list, work, [int(c) for c in args.pss.split(",")])
        elif args.startup:
            three = work / "three.yaml"
            three.write_text(yaml.safe_dump(ids[:3]))
            run = run_statebox(env, endpoint.url, three, work / "statebox-3", repeat=1, concurrency=8)
            report["startup"] = run
            print(f"statebox, 3 tasks: {run['wall_s']:.2f} s, start-up {run.get('startup_s', 0):.2f} s; {load()}")
        else:
            report.update(side_by_side(env, endpoint, test_list, work, args))
    finally:
        report["endpoint"] = endpoint.stats()
        endpoint.close()
    if args.json:
        args.json.write_text(json.dumps(report, indent=1) + "\n")
    return 0


def side_by_side(
    env: tb_env.TbEnv, endpoint: Endpoint, test_list: Path, work: Path, args: argparse.Namespace
) -> dict[str, Any]:
    report: dict[str, Any] = {}
    if args.only in ("both", "official"):
        official = tb_official.build_official(args.thirdparty, env.data, CACHE)
        copy = tb_official.typesense_free_copy(env.data, CACHE / "data")
        before = endpoint.stats()
        run = tb_official.OfficialRun(official, copy, work / "official").run(
            endpoint.url, test_list, repeat=args.repeat, batch=args.concurrency, timeout_s=args.timeout
        )
        run["endpoint_requests"] = _requests(endpoint.stats()) - _requests(before)
        run["attempts_per_s"] = run["attempts"] / run["wall_s"]
        run["cpu_per_attempt_s"] = run["cpu_s"] / max(1, run["attempts"])
        run["load"] = load()
        report["official"] = run
        counts = f"{run['attempts']} attempts ({run['passed']} passed, {run['errors']} errors)"
        rate = f"{run['wall_s']:.1f} s = {run['attempts_per_s']:.2f} attempts/s"
        print(f"official tb infer: {counts} in {rate}; {run['load']}", flush=True)
        print(f"  CPU {run['cpu_s']:.1f} s = {run['cpu_per_attempt_s']:.2f} s per attempt", flush=True)
    if args.only in ("both", "statebox"):
        before = endpoint.stats()
        run = run_statebox(env, endpoint.url, test_list, work / "statebox", repeat=args.repeat,
                           concurrency=args.concurrency, profile=args.profile)  # fmt: skip
        after = endpoint.stats()
        run["endpoint_requests"] = _requests(after) - _requests(before)
        busy_ms = 1000 * (after["busy_s"] - before["busy_s"])
        run["endpoint_busy_ms_per_request"] = busy_ms / max(1, run["endpoint_requests"])
        run["attempts_per_s"] = run["attempts"] / run["wall_s"]
        run["cpu_per_attempt_s"] = run["cpu_s"] / max(1, run["attempts"])
        run["load"] = load()
        report["statebox"] = run
        rate = f"{run['wall_s']:.1f} s = {run['attempts_per_s']:.2f} attempts/s"
        startup = f"start-up {run.get('startup_s', 0):.2f} s"
        counts = f"{run['attempts']} attempts ({run['passed']} passed)"
        print(f"statebox run:      {counts} in {rate} ({startup}); {run['load']}")
        own = run.get("own_cpu_per_attempt_ms", float("nan"))
        print(
            f"  CPU {run['cpu_s']:.1f} s = {run['cpu_per_attempt_s']:.2f} s per attempt "
            f"(statebox's own process, after the first attempt: {own:.1f} ms per attempt, "
            f"{run.get('own_cpu_per_turn_ms', float('nan')):.1f} ms per agent turn)",
            flush=True,
        )
        run["agent_request_bytes_median"] = after.get("agent_request_bytes_median")  # both harnesses' requests
        print("statebox medians per attempt: " + ", ".join(f"{k} {v}" for k, v in run["phases"].items())
              + f"; endpoint's own time {run['endpoint_busy_ms_per_request']:.2f} ms per request"
              + f", agent request median {run['agent_request_bytes_median']} bytes")  # fmt: skip
        if "time_split" in run:
            split = run["time_split"]
            print(f"  where an attempt's time goes (after the first began, per attempt): statebox's CPU "
                  f"{split['statebox_cpu_ms']:.1f} ms, the servers' CPU {split['servers_cpu_ms']:.1f} ms, "
                  f"waiting on the model {split['model_wait_ms']:.1f} ms; statebox's share of the CPU "
                  f"{split['statebox_share']:.3f}; {load()}", flush=True)  # fmt: skip
    if "official" in report and "statebox" in report:
        ratio = report["statebox"]["attempts_per_s"] / report["official"]["attempts_per_s"]
        cpu_ratio = report["official"]["cpu_per_attempt_s"] / report["statebox"]["cpu_per_attempt_s"]
        report["ratio"], report["cpu_ratio"] = ratio, cpu_ratio
        print(f"ratio statebox / official: {ratio:.1f}x attempts/s; {cpu_ratio:.1f}x less CPU per attempt")
    return report


def pss_runs(env: tb_env.TbEnv, endpoint: Endpoint, test_list: Path, work: Path, levels: list[int]) -> list[Any]:
    """statebox at each concurrency, enough repeats for every slot to be busy about three times over."""
    tasks = len(yaml.safe_load(test_list.read_text()))
    results = []
    for level in levels:
        repeat = max(1, -(-3 * level // tasks))
        run = run_statebox(env, endpoint.url, test_list, work / f"statebox-pss{level}", repeat=repeat,
                           concurrency=level, pss=True)  # fmt: skip
        run.update(concurrency=level, repeat=repeat, load=load())
        results.append(run)
        print(f"concurrency {level}: {run['attempts']} attempts in {run['wall_s']:.1f} s; peak PSS "
              f"{run['pss_peak_mb']:.0f} MB over {run['pss_processes']} processes = "
              f"{run['pss_per_attempt_mb']:.1f} MB per concurrent attempt ({run['pss_server_processes']} server "
              f"processes: {run['pss_per_server_process_mb']:.1f} MB each, all included); {run['load']}",
              flush=True)  # fmt: skip
    return results


def _requests(stats: dict[str, Any]) -> int:
    return int(sum(stats["by_role"].values()))


if __name__ == "__main__":
    sys.exit(main())
