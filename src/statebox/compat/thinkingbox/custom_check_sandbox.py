"""The sandbox a ThinkingBox-Bench custom check runs in: a script for the servers' Python, never
imported by statebox (standard library only, so any Python >= 3.11 runs it).

Input, one JSON object on stdin: `file` (the test file), `label` (its name in messages), `function`,
`data_root` (the checkout: the only tree it may read besides Python's own), `effects`, and `limits`
(`cpu_s`, `memory_mb`). Output, the last line on stdout: `{"status": "passed" | "failed" | "error"
| "memory", "message", "line", "function_line", "judge_calls"}`.

Before the check runs: CPU, address-space, file-size (0: no file can grow) and open-file limits;
then an audit hook that refuses sockets, processes, file writes and opens outside the readable
trees. The check sees the test file's imports, helper functions, classes and constants, and its
own function; nothing else of the file runs. `judge` questions are recorded and answered yes:
the sandbox has no model (the caller reports them as not judged).
"""

from __future__ import annotations

import ast
import inspect
import io
import json
import os
import resource
import sys
import traceback
import types
from typing import Any

OUTPUT_CAP = 64 * 1024  # what the check may print (kept away from the result channel)
MESSAGE_CAP = 400  # characters of a failure message
REFUSED_EVENTS = (
    "socket.", "subprocess.", "os.system", "os.exec", "os.posix_spawn", "os.spawn", "os.fork", "os.forkpty",
    "os.kill", "os.killpg", "os.remove", "os.rename", "os.rmdir", "os.mkdir", "os.symlink", "os.link",
    "os.truncate", "os.chmod", "os.chown", "os.utime", "shutil.", "ctypes.", "sys._debugmallocstats",
    "urllib.Request", "webbrowser.open", "pty.spawn",
)  # fmt: skip
WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC


class _Sink(io.StringIO):
    """Where the check's prints go: kept up to a cap, never on the result channel."""

    def write(self, text: str) -> int:
        if self.tell() < OUTPUT_CAP:
            super().write(text[: OUTPUT_CAP - self.tell()])
        return len(text)


class Judge:
    """Stands in for the benchmark's LLM judge: records each question and answers yes."""

    def __init__(self) -> None:
        self.calls: list[dict[str, Any]] = []

    def __getattr__(self, method: str) -> Any:
        if method.startswith("_"):
            raise AttributeError(method)

        def ask(*args: Any, **kwargs: Any) -> bool:
            shown = [_short(a) for a in args] + [f"{k}={_short(v)}" for k, v in kwargs.items()]
            self.calls.append({"method": method, "args": shown})
            return True

        return ask


class TestContext:
    """What the benchmark hands a test as `x`; only `effects` is known when the state is checked."""

    def __init__(self, effects: dict[str, Any]) -> None:
        self.effects = effects
        self.response = ""
        self.tool_direct_responses: list[str] = []
        self.tool_calls: list[Any] = []
        self.messages: list[Any] = []
        self.init_result: dict[str, Any] = {}
        self.metadata: dict[str, Any] = {}
        self.session_id = "00000000-0000-0000-0000-000000000000"

    def transcript(self, limit: int = 0) -> str:
        return ""

    def query(self) -> str:
        return ""


def _short(value: Any) -> str:
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= 200 else text[:197] + "..."


def set_limits(limits: dict[str, Any]) -> None:
    cpu = max(1, int(limits.get("cpu_s", 5)))
    memory = int(limits.get("memory_mb", 512)) * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64))


def install_audit_hook(readable: list[str]) -> None:
    roots = tuple(os.path.join(os.path.realpath(r), "") for r in readable if r)

    def hook(event: str, args: tuple[Any, ...]) -> None:
        if event.startswith(REFUSED_EVENTS):
            raise PermissionError(f"the custom-check sandbox refuses {event}")
        if event == "open":
            path, mode, flags = [*args, None, None, None][:3]
            writing = any(c in (mode or "") for c in "wax+") or bool((flags or 0) & WRITE_FLAGS)
            if writing:
                raise PermissionError(f"the custom-check sandbox refuses writing {path!r}")
            if isinstance(path, str | bytes) and not _inside(os.fsdecode(path), roots):
                raise PermissionError(f"the custom-check sandbox refuses opening {os.fsdecode(path)!r}")

    sys.addaudithook(hook)


def _inside(path: str, roots: tuple[str, ...]) -> bool:
    real = os.path.join(os.path.realpath(path), "")
    return real.startswith(roots)


def check_module(source: str, label: str, function: str) -> types.CodeType:
    """The test file reduced to what its check needs: imports, helpers, classes, constants, the function."""
    tree = ast.parse(source, filename=label)
    kept = [node for node in tree.body if _needed(node, function)]
    return compile(ast.Module(body=kept, type_ignores=[]), label, "exec")


def _needed(node: ast.stmt, function: str) -> bool:
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
        return node.name == function or not _is_task(node)
    return isinstance(node, ast.Import | ast.ImportFrom | ast.ClassDef | ast.Assign | ast.AnnAssign)


def _is_task(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    first = node.body[0] if node.body else None
    return (
        isinstance(first, ast.Expr)
        and isinstance(first.value, ast.Constant)
        and isinstance(first.value.value, str)
        and first.value.value.startswith("!")
    )


def framework_modules() -> None:
    """`from thinkingbox.common import Judge, TestContext` resolves to the stand-ins above."""
    package = types.ModuleType("thinkingbox")
    common = types.ModuleType("thinkingbox.common")
    common.Judge = Judge  # type: ignore[attr-defined]
    common.TestContext = TestContext  # type: ignore[attr-defined]
    package.common = common  # type: ignore[attr-defined]
    sys.modules["thinkingbox"] = package
    sys.modules["thinkingbox.common"] = common


def where_failed(exc: BaseException, label: str, function: str) -> tuple[int | None, int | None]:
    """The innermost line in the test file, and the line of the test function itself."""
    line = function_line = None
    for frame in traceback.extract_tb(exc.__traceback__):
        if frame.filename == label:
            line = frame.lineno
            if frame.name == function:
                function_line = frame.lineno
    return line, function_line


def describe(exc: BaseException, tree: ast.Module, line: int | None) -> str:
    text = str(exc).strip().splitlines()[0][:MESSAGE_CAP] if str(exc).strip() else ""
    if isinstance(exc, AssertionError):
        return f"AssertionError: {text}" if text else f"AssertionError: {_statement(tree, line)}"
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _statement(tree: ast.Module, line: int | None) -> str:
    """The failing `assert` as source (on one line), from the statement starting at `line`."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Assert) and node.lineno == line:
            text = "assert " + ast.unparse(node.test)
            return text if len(text) <= 300 else text[:297] + "..."
    return f"line {line}"


def run(request: dict[str, Any], sink: _Sink) -> dict[str, Any]:
    label, function = request["label"], request["function"]
    with open(request["file"], encoding="utf-8") as handle:
        source = handle.read()
    effects = request.get("effects") or {}
    readable = [request["data_root"], sys.prefix, sys.base_prefix, sys.exec_prefix, *sys.path]
    code = check_module(source, label, function)
    judge = Judge()
    framework_modules()
    install_audit_hook(readable)
    namespace: dict[str, Any] = {"__name__": "custom_check", "__file__": request["file"]}
    sys.stdout = sys.stderr = sink
    try:
        exec(code, namespace)
        check = namespace[function]
        given = {"x": TestContext(effects), "judge": judge}
        check(**{name: given[name] for name in inspect.signature(check).parameters})
    except MemoryError:
        return {"status": "memory", "message": "MemoryError", "judge_calls": judge.calls}
    except BaseException as exc:  # the check's own failure or crash, reported, never raised
        line, function_line = where_failed(exc, label, function)
        status = "failed" if isinstance(exc, AssertionError) else "error"
        message = describe(exc, ast.parse(source), line)
        return {"status": status, "message": message, "line": line, "function_line": function_line,
                "judge_calls": judge.calls}  # fmt: skip
    return {"status": "passed", "message": "", "judge_calls": judge.calls}


def main() -> None:
    result_channel = os.fdopen(os.dup(1), "w", encoding="utf-8")
    request = json.loads(sys.stdin.read())
    set_limits(request.get("limits") or {})
    result = run(request, _Sink())
    result_channel.write("\n" + json.dumps(result) + "\n")
    result_channel.flush()
    os._exit(0)  # no interpreter shutdown work under the check's leftovers


if __name__ == "__main__":
    main()
