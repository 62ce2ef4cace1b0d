"""Built-in suites as Inspect tasks: samples are statebox tasks, epochs are repeats.

`inspect eval statebox/retail --model openai-api/local/my-model` (or this file's path with
`@retail`) runs the retail suite; `-T tasks=retail-0*` selects tasks by glob (comma-separated),
`-T epochs=3` repeats each, `statebox/suite -T name=builtin` runs any built-in suite by name, and
`statebox/thinkingbox_bench -T data=CHECKOUT -T server_python=PY` runs ThinkingBox-Bench from a checkout.
Model roles: `--model-role customer=...` plays the customer (statebox's LLM customer),
`--model-role judge=...` judges the rubric questions.
"""

from __future__ import annotations

from inspect_ai import Epochs, Task, task
from inspect_ai.dataset import Sample

from statebox.integrations.inspect_task.errors import TaskArgumentError
from statebox.integrations.inspect_task.runtime import SuiteRuntime
from statebox.integrations.inspect_task.scorer import pass_tally, statebox_judge
from statebox.integrations.inspect_task.solver import statebox_attempt
from statebox.integrations.inspect_task.thinkingbox import open_thinkingbox
from statebox.llm.client import make_client
from statebox.runner.taskset import TaskSet
from statebox.suites import load_suite


def statebox_task(
    suite: str | TaskSet,
    tasks: str | list[str] | None = None,
    epochs: int = 1,
    time_budget_s: float = 600.0,
    judge_model: str | None = None,
    base_url: str | None = None,
) -> Task:
    """An Inspect task over a suite (a built-in one by name, or any loaded one), optionally narrowed by
    task-id globs.

    The `judge` model role judges the rubric questions; else `judge_model` (statebox's PROVIDER:MODEL,
    `base_url` for an openai: one); without either they are not judged, and every verdict document says so.
    """
    try:
        loaded = load_suite(suite) if isinstance(suite, str) else suite
    except LookupError as e:
        raise TaskArgumentError(f"statebox/suite: {e}") from None
    patterns = tasks.split(",") if isinstance(tasks, str) else tasks
    if patterns:
        loaded = loaded.select(patterns)
        if not loaded.tasks:
            raise TaskArgumentError(f"suite {loaded.name!r}: no task matches {', '.join(patterns)}")
    judge = make_client(judge_model, base_url=base_url if judge_model.startswith("openai:") else None) \
        if judge_model else None  # fmt: skip
    runtime = SuiteRuntime(loaded, time_budget_s=time_budget_s, judge_client=judge)
    samples = [
        Sample(
            id=t.id,
            input=t.opening_message,
            target="the required end state",
            metadata={"suite": loaded.name, "domain": t.domain, "task_hash": t.content_hash()},
        )
        for t in loaded.tasks
    ]
    return Task(
        dataset=samples,
        solver=statebox_attempt(runtime),
        scorer=statebox_judge(),
        epochs=Epochs(epochs, pass_tally()),
        name=f"statebox-{loaded.name}",
        metadata={"statebox_suite": loaded.name, "task_set_hash": loaded.content_hash()},
    )


@task
def suite(
    name: str = "builtin",
    tasks: str | None = None,
    epochs: int = 1,
    time_budget_s: float = 600.0,
    judge_model: str | None = None,
    base_url: str | None = None,
) -> Task:
    """Any built-in suite by name (a domain, or `builtin` for all of them); `-T judge_model=...` judges rubrics."""
    return statebox_task(name, tasks, epochs, time_budget_s, judge_model, base_url)


@task
def thinkingbox_bench(
    data: str,
    server_python: str | None = None,
    tasks: str | None = None,
    test_list: str | None = None,
    epochs: int = 1,
    time_budget_s: float = 600.0,
    fork: bool = True,
    typesense: str | None = None,
) -> Task:
    """ThinkingBox-Bench from a checkout of its data (`-T data=DIR`), its tool servers run by `server_python`."""
    suite = open_thinkingbox(data, server_python, test_list=test_list, fork=fork, typesense=typesense)
    return statebox_task(suite, tasks, epochs, time_budget_s)


@task
def retail(tasks: str | None = None, epochs: int = 1, time_budget_s: float = 600.0) -> Task:
    """The retail domain's tasks."""
    return statebox_task("retail", tasks, epochs, time_budget_s)


@task
def travel(tasks: str | None = None, epochs: int = 1, time_budget_s: float = 600.0) -> Task:
    """The travel domain's tasks."""
    return statebox_task("travel", tasks, epochs, time_budget_s)


@task
def neobank(tasks: str | None = None, epochs: int = 1, time_budget_s: float = 600.0) -> Task:
    """The neobank domain's tasks."""
    return statebox_task("neobank", tasks, epochs, time_budget_s)


@task
def consulting(tasks: str | None = None, epochs: int = 1, time_budget_s: float = 600.0) -> Task:
    """The consulting domain's tasks."""
    return statebox_task("consulting", tasks, epochs, time_budget_s)


@task
def auto_insurance(tasks: str | None = None, epochs: int = 1, time_budget_s: float = 600.0) -> Task:
    """The auto-insurance domain's tasks."""
    return statebox_task("auto_insurance", tasks, epochs, time_budget_s)
