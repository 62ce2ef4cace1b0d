"""The clock shim: a Python started with `clock_pin_env` lives on 2025-10-01T13:00:00Z."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

from statebox.compat.thinkingbox import clock_pin_env
from statebox.compat.thinkingbox.clockpin import BENCH_NOW

PIN_EPOCH = 1759323600.0  # 2025-10-01T13:00:00Z

PROBE = """
import datetime, json, os, pickle, time
from datetime import date, datetime as dt, timezone
def read():
    return {"time": time.time(), "now_utc": dt.now(timezone.utc).isoformat(), "utcnow": dt.utcnow().isoformat(),
            "today": date.today().isoformat(), "dt_today": dt.today().date().isoformat(),
            "gmtime": time.strftime("%Y-%m-%d %H:%M", time.gmtime()), "ns": time.time_ns()}
first = read()
time.sleep(0.3)
later = read()
pid = os.fork()
if pid == 0:
    print(json.dumps({"child": read()}), flush=True)
    os._exit(0)
os.waitpid(pid, 0)
checks = {"isinstance_real": isinstance(datetime.datetime(2020, 1, 1), dt),
          "pickles": pickle.loads(pickle.dumps(dt.now())).year == 2025,
          "repr": repr(date.today())}
print(json.dumps({"first": first, "later": later, "checks": checks}))
"""


def probe(frozen: bool = False) -> dict[str, dict[str, Any]]:
    base = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    env = clock_pin_env(base, BENCH_NOW, "frozen" if frozen else "advance")
    ran = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, check=True)
    result: dict[str, dict[str, Any]] = {}
    for line in ran.stdout.splitlines():
        result.update(json.loads(line))
    return result


def test_time_and_datetime_read_the_pinned_instant() -> None:
    first = probe()["first"]
    assert PIN_EPOCH <= first["time"] < PIN_EPOCH + 1
    assert first["now_utc"].startswith("2025-10-01T13:00:0")
    assert first["utcnow"].startswith("2025-10-01T13:00:0")
    assert first["today"] == first["dt_today"] == "2025-10-01"
    assert first["gmtime"] == "2025-10-01 13:00"
    assert PIN_EPOCH * 1e9 <= first["ns"] < (PIN_EPOCH + 1) * 1e9


def test_the_pinned_clock_advances_and_a_forked_child_starts_again_at_the_pin() -> None:
    result = probe()
    first, later, child = (result[key]["time"] for key in ("first", "later", "child"))
    assert 0.25 < later - first < 5
    assert PIN_EPOCH <= child < later


def test_frozen_mode_stands_still() -> None:
    result = probe(frozen=True)
    assert result["first"]["time"] == result["later"]["time"] == result["child"]["time"] == PIN_EPOCH


def test_pinned_classes_still_behave_like_the_real_ones() -> None:
    assert probe()["checks"] == {"isinstance_real": True, "pickles": True, "repr": "datetime.date(2025, 10, 1)"}


def test_the_pin_goes_before_an_existing_pythonpath_and_none_leaves_env_alone() -> None:
    env = clock_pin_env({"PYTHONPATH": "servers/pkg", "A": "1"})
    assert env["PYTHONPATH"].endswith(os.pathsep + "servers/pkg") and env["STATEBOX_CLOCK_PIN"] == BENCH_NOW
    assert clock_pin_env({"A": "1"}, pin=None) == {"A": "1"}
