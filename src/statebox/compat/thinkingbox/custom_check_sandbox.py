"""The process a ThinkingBox-Bench custom check runs in: a script for the servers' Python, never
imported by statebox (standard library only, so any Python >= 3.11 runs it).

It talks to its parent in lines of JSON (`custom_check_protocol` holds the parent's models):
the first line on stdin is the request (`file`, `label`, `function`, `data_root`, `context` — what
the benchmark hands a check as `x` —, `limits`, `judge`, `seccomp`, `audit_hook`); each `judge(...)`
question is a `{"kind": "question", ...}` line on stdout, answered by an `{"kind": "answer", ...}` line
on stdin when the parent has a judge model (without one the question is recorded and the check goes
on as if answered yes, so that every question is counted; the parent then reports the verdict as
not judged); the last line is `{"kind": "verdict", ...}`.

Before the check runs: CPU, address-space, file-size (0: no file can grow), open-file and process
limits; the request's seccomp filter (no exec, no new processes, no sockets); then an audit hook
refusing sockets, processes, file writes and opens outside the readable trees. These are the inner
layers; the outer one is the bubblewrap namespace the parent starts this script in. The check sees
the test file's imports, helper functions, classes and constants, and its own function.
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
SHOWN_CAP = 200  # characters of a judge argument kept in the record
REFUSED_EVENTS = (
    "socket.", "subprocess.", "os.system", "os.exec", "os.posix_spawn", "os.spawn", "os.fork", "os.forkpty",
    "os.kill", "os.killpg", "os.remove", "os.rename", "os.rmdir", "os.mkdir", "os.symlink", "os.link",
    "os.truncate", "os.chmod", "os.chown", "os.utime", "shutil.", "ctypes.", "sys._debugmallocstats",
    "urllib.Request", "webbrowser.open", "pty.spawn", "_posixsubprocess.", "os.startfile", "signal.",
)  # fmt: skip
WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC
PR_SET_NO_NEW_PRIVS, PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 38, 22, 2


class _Sink(io.StringIO):
    """Where the check's prints go: kept up to a cap, never on the result channel."""

    def write(self, text: str) -> int:
        if self.tell() < OUTPUT_CAP:
            super().write(text[: OUTPUT_CAP - self.tell()])
        return len(text)


class Channel:
    """The line-JSON link to the parent: questions out, answers in, the verdict out last."""

    def __init__(self, out_fd: int, in_fd: int) -> None:
        self.out = os.fdopen(out_fd, "w", encoding="utf-8")
        self.answers = os.fdopen(in_fd, "r", encoding="utf-8")
        self.judged = False  # set from the request
        self.max_questions = 50
        self.asked: list[dict[str, Any]] = []

    def send(self, message: dict[str, Any]) -> None:
        self.out.write(json.dumps(message) + "\n")
        self.out.flush()

    def ask(self, method: str, args: dict[str, str]) -> dict[str, Any]:
        """The judge's answer (`answer`, `reason`); without a judge model, a provisional yes."""
        if len(self.asked) >= self.max_questions:
            raise RuntimeError(f"more than {self.max_questions} judge questions in one check")
        number = len(self.asked) + 1
        shown = {key: _short(value) for key, value in args.items()}
        if not self.judged:
            self.asked.append({"method": method, "args": shown, "answer": None, "reason": ""})
            return {"answer": True, "reason": ""}
        self.send({"kind": "question", "id": number, "method": method, "args": args})
        reply = json.loads(self.answers.readline() or "null")
        if not isinstance(reply, dict) or reply.get("id") != number:
            raise RuntimeError("the parent did not answer the judge question")
        self.asked.append({"method": method, "args": shown, "answer": bool(reply.get("answer")),
                           "reason": str(reply.get("reason") or "")})  # fmt: skip
        return reply


class Judge:
    """The benchmark's LLM judge, as a check calls it; each question goes to the parent."""

    def __init__(self, channel: Channel) -> None:
        self._channel = channel

    def text_yesno(self, text: str, question: str) -> bool:
        return bool(self._channel.ask("text_yesno", {"text": str(text), "question": str(question)})["answer"])

    def text_yesno_with_motivation(self, text: str, question: str) -> dict[str, Any]:
        reply = self._channel.ask("text_yesno", {"text": str(text), "question": str(question)})
        return {"answer": bool(reply["answer"]), "motivation": str(reply.get("reason") or "")}

    def compare_yesno(self, first: str, second: str, question: str) -> bool:
        args = {"first": str(first), "second": str(second), "question": str(question)}
        return bool(self._channel.ask("compare_yesno", args)["answer"])

    def yesno(self, question: str) -> bool:
        return bool(self._channel.ask("yesno", {"question": str(question)})["answer"])

    def evaluate_bool(self, system: str, user: str) -> bool:
        return bool(self._channel.ask("evaluate_bool", {"system": str(system), "user": str(user)})["answer"])

    def no_repeat(self, first: str, second_list: list[str]) -> bool:
        """True unless the first text repeats one of the others (asked one at a time, stopping at a yes)."""
        question = "Does the first message repeat the content of the second message?"
        return not any(self.compare_yesno(first, second, question) for second in second_list)


def _short(value: Any) -> str:
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= SHOWN_CAP else text[: SHOWN_CAP - 3] + "..."


def set_limits(limits: dict[str, Any]) -> None:
    cpu = max(1, int(limits.get("cpu_s", 5)))
    memory = int(limits.get("memory_mb", 512)) * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64))
    resource.setrlimit(resource.RLIMIT_NPROC, (1, 1))  # (counted per user namespace inside bubblewrap)


def install_seccomp(program_hex: str) -> None:
    """Install the parent's seccomp filter on this process (no new privileges first, as the kernel asks)."""
    import ctypes  # only here, before the audit hook refuses it; dropped from sys.modules after

    program = bytes.fromhex(program_hex)
    libc = ctypes.CDLL(None, use_errno=True)

    class Fprog(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

    buffer = ctypes.create_string_buffer(program, len(program))
    fprog = Fprog(len(program) // 8, ctypes.cast(buffer, ctypes.c_void_p))
    if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS) failed")
    if libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(fprog), 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_SECCOMP) failed")
    for name in [m for m in sys.modules if m == "ctypes" or m.startswith("ctypes.")]:
        del sys.modules[name]


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


def framework_modules(context_type: type) -> None:
    """`from thinkingbox.common import Judge, TestContext` resolves to the stand-ins here."""
    package = types.ModuleType("thinkingbox")
    common = types.ModuleType("thinkingbox.common")
    common.Judge = Judge  # type: ignore[attr-defined]
    common.TestContext = context_type  # type: ignore[attr-defined]
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


def run(request: dict[str, Any], channel: Channel, sink: _Sink) -> dict[str, Any]:
    label, function = request["label"], request["function"]
    with open(request["file"], encoding="utf-8") as handle:
        source = handle.read()
    code = check_module(source, label, function)
    import custom_check_shapes as shapes  # beside this script (see main())

    framework_modules(shapes.TestContext)
    context = shapes.TestContext.from_json(request.get("context") or {})
    if request.get("seccomp"):
        install_seccomp(request["seccomp"])
    if request.get("audit_hook", True):
        install_audit_hook([request["data_root"], sys.prefix, sys.base_prefix, sys.exec_prefix, *sys.path])
    namespace: dict[str, Any] = {"__name__": "custom_check", "__file__": request["file"]}
    sys.stdout = sys.stderr = sink
    try:
        exec(code, namespace)
        check = namespace[function]
        given = {"x": context, "judge": Judge(channel)}
        check(**{name: given[name] for name in inspect.signature(check).parameters})
    except MemoryError:
        return {"status": "memory", "message": "MemoryError"}
    except BaseException as exc:  # the check's own failure or crash, reported, never raised
        line, function_line = where_failed(exc, label, function)
        status = "failed" if isinstance(exc, AssertionError) else "error"
        lines = source.splitlines()
        shown = lines[line - 1].strip()[:MESSAGE_CAP] if line and line <= len(lines) else ""
        return {"status": status, "message": describe(exc, ast.parse(source), line), "line": line,
                "function_line": function_line, "source": shown}  # fmt: skip
    return {"status": "passed", "message": ""}


def main() -> None:
    # The channel keeps its own copies of stdin and stdout; the check's fds 0 and 1 lead nowhere.
    out_fd, in_fd = os.dup(1), os.dup(0)
    nowhere = os.open(os.devnull, os.O_RDWR)
    os.dup2(nowhere, 0)
    os.dup2(nowhere, 1)
    channel = Channel(out_fd, in_fd)
    request = json.loads(channel.answers.readline())
    channel.judged, channel.max_questions = bool(request.get("judge")), int(request.get("max_questions", 50))
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # the context shapes, beside this script
    set_limits(request.get("limits") or {})
    result = run(request, channel, _Sink())
    channel.send({"kind": "verdict", **result, "questions": channel.asked})
    os._exit(0)  # no interpreter shutdown work under the check's leftovers


if __name__ == "__main__":
    main()
