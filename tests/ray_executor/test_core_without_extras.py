"""The core neither needs nor imports the optional extras (Ray, Inspect AI)."""

from __future__ import annotations

import subprocess
import sys
from importlib.metadata import requires
from pathlib import Path

EXTRAS = ("ray", "inspect_ai")

# Run in a fresh interpreter in which importing either extra fails, as if neither were installed.
WITHOUT_EXTRAS = """
import importlib.abc, sys
class NotInstalled(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {extras!r}:
            raise ModuleNotFoundError(f"No module named {{name!r}}")
        return None
sys.meta_path.insert(0, NotInstalled())
{body}
"""


def _python(body: str) -> subprocess.CompletedProcess[str]:
    code = WITHOUT_EXTRAS.format(extras=EXTRAS, body=body)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)


def test_the_cli_imports_and_lists_suites_with_neither_extra_installed() -> None:
    done = _python("import statebox.cli, statebox.runner.campaign; print('ok')")
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr[-2000:]


def test_importing_the_cli_loads_neither_extra_even_when_installed() -> None:
    code = (
        "import sys, statebox.cli, statebox.runner.campaign; print(sorted(m for m in sys.modules if m.split('.')[0] in "
    )
    code += f"{EXTRAS!r}))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "[]"


def test_executor_ray_without_ray_is_one_error_line_and_writes_nothing(tmp_path: Path) -> None:
    out = tmp_path / "run"
    body = (
        "import sys; from statebox.cli import main; "
        f"sys.argv = ['statebox', 'run', 'retail', '--agent', 'reference', '--tasks', 'cancel_desk*', "
        f"'--executor', 'ray', '--out', {str(out)!r}, '--no-progress']; main()"
    )
    done = _python(body)
    assert done.returncode == 2, (done.returncode, done.stderr[-2000:])
    assert done.stderr.strip().splitlines() == ["error: --executor ray needs Ray: pip install 'statebox[ray]'"]
    assert not out.exists() or not any(out.iterdir())


def test_the_core_wheel_depends_on_neither_extra() -> None:
    core = [r for r in requires("statebox") or [] if "extra ==" not in r]
    named = [r for r in core if r.split(">")[0].split("=")[0].split("[")[0].strip().lower() in ("ray", "inspect-ai")]
    assert core and named == []
