"""`inspect eval statebox/retail` (the registered name) and the task file's path both run a statebox suite."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("inspect_ai")

from inspect_ai import eval as inspect_eval
from inspect_ai.log import EvalLog, list_eval_logs, read_eval_log
from inspect_ai.model import get_model

import statebox.integrations.inspect_task.tasks as tasks_module
from statebox.fakemodel import FakeModelApp, FakeModelConfig, FakeModelServer
from statebox.suites import load_suite

INSPECT = Path(sys.executable).with_name("inspect")
TASK = "cancel_desk_wrong_order_number"


def _passed_once(log: EvalLog) -> None:
    assert log.status == "success", log.error
    assert log.eval.task_args.get("tasks") == TASK
    (sample,) = log.samples or []
    assert sample.scores is not None and sample.scores["statebox_judge"].value == "C"


def test_inspect_eval_statebox_retail_on_the_command_line(tmp_path: Path) -> None:
    with FakeModelServer(FakeModelApp(load_suite("retail"), FakeModelConfig(mode="reference"))) as server:
        env = {**os.environ, "FAKE_BASE_URL": server.base_url, "FAKE_API_KEY": "unused"}
        command = [
            str(INSPECT),
            "eval",
            "statebox/retail",
            "-T",
            f"tasks={TASK}",
            "--model",
            "openai-api/fake/agent",
            "--log-dir",
            str(tmp_path),
            "--display",
            "none",
        ]
        done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr[-2000:]
    (info,) = list_eval_logs(str(tmp_path))
    _passed_once(read_eval_log(info))


def test_the_task_file_path_names_the_same_task(tmp_path: Path) -> None:
    with FakeModelServer(FakeModelApp(load_suite("retail"), FakeModelConfig(mode="reference"))) as server:
        model = get_model("openai-api/fake/agent", base_url=server.base_url, api_key="unused")
        (log,) = inspect_eval(
            f"{tasks_module.__file__}@retail",
            task_args={"tasks": TASK},
            model=model,
            display="none",
            log_dir=str(tmp_path),
        )
    _passed_once(log)


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (
            ["statebox/thinkingbox_bench", "-T", "data={missing}"],
            "statebox/thinkingbox_bench: --data {missing}: no such directory",
        ),
        (["statebox/retail", "-T", "tasks=no_such_task_*"], "suite 'retail': no task matches no_such_task_*"),
        (["statebox/suite", "-T", "name=no_such_suite"], "statebox/suite: unknown suite 'no_such_suite'"),
    ],
)
def test_a_bad_task_argument_is_its_one_line_without_a_traceback(tmp_path: Path, args: list[str], line: str) -> None:
    missing = str(tmp_path / "missing")
    command = [str(INSPECT), "eval", *[a.format(missing=missing) for a in args], "--model", "mockllm/model",
               "--log-dir", str(tmp_path / "logs")]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=240, env={**os.environ, "COLUMNS": "400"})
    said = done.stdout + done.stderr
    assert done.returncode != 0 and "Traceback" not in said, said[-2000:]
    assert line.format(missing=missing) in said, said[-2000:]
