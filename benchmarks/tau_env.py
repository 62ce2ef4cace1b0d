"""Build the τ-bench tool environment from a folder of third-party releases.

    python benchmarks/tau_env.py                         # ../shared/thirdparty -> .cache/tau-env
    python benchmarks/tau_env.py --thirdparty DIR --cache DIR [--json]

Unpacks τ-bench's tarball into `<cache>/data/` and makes a virtual environment `<cache>/venv/`
with the checkout installed editable (its own dependencies, litellm among them) and the official
`mcp` SDK, which statebox's small tool server needs in that Python. Prints the checkout and the
server Python, one per line (or one JSON object with `--json`). Run the servers with
`LITELLM_LOCAL_MODEL_COST_MAP=True` (statebox sets it): litellm otherwise tries to download a
price table when τ-bench is imported.

Idempotent: a stamp file records what the build was made from (the tarball's size and mtime, the
pins); when it matches, nothing is done and the paths come back in milliseconds. A failed build
leaves no stamp, so the next call starts over.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tarfile
import venv
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_THIRDPARTY = ROOT.parent / "shared" / "thirdparty"
DEFAULT_CACHE = ROOT / ".cache" / "tau-env"  # .cache/ is git-ignored
TARBALL = "tau-bench-59a200c.tar.gz"
FOLDER = "tau-bench"  # the tarball's one top-level folder
REQUIREMENTS = ("mcp>=2.3,<3",)  # statebox's server in that Python; τ-bench brings the rest
STAMP = "built.json"


class EnvError(Exception):
    """The environment cannot be built; the message names what is missing or what failed."""


@dataclass(frozen=True)
class TauEnv:
    """A built environment: the τ-bench checkout and the Python it is installed in."""

    data: Path
    python: Path

    def to_json(self) -> dict[str, str]:
        return {"data": str(self.data), "python": str(self.python)}


def build_env(thirdparty: Path = DEFAULT_THIRDPARTY, cache: Path = DEFAULT_CACHE, *, quiet: bool = True) -> TauEnv:
    """The environment in `cache`, built from `thirdparty` unless an identical build is there."""
    tarball = thirdparty / TARBALL
    if not tarball.is_file():
        raise EnvError(f"{tarball}: no such file (the τ-bench release)")
    env = TauEnv(data=cache / "data" / FOLDER, python=cache / "venv" / "bin" / "python")
    wanted = _stamp(tarball)
    stamp = cache / STAMP
    if stamp.is_file() and env.python.exists() and (env.data / "tau_bench").is_dir():
        try:
            if json.loads(stamp.read_text()) == wanted:
                return env
        except ValueError:
            pass  # a damaged stamp: rebuild
    stamp.unlink(missing_ok=True)
    _unpack(tarball, cache / "data")
    if not (env.data / "tau_bench" / "envs").is_dir():
        raise EnvError(f"{tarball}: has no {FOLDER}/tau_bench/envs")
    _make_venv(cache / "venv", env.data, quiet=quiet)
    stamp.write_text(json.dumps(wanted, indent=1) + "\n")
    return env


def _stamp(tarball: Path) -> dict[str, object]:
    info = tarball.stat()
    return {"tarball": str(tarball.resolve()), "size": info.st_size, "mtime": info.st_mtime,
            "requirements": list(REQUIREMENTS), "python": sys.version.split()[0]}  # fmt: skip


def _unpack(tarball: Path, into: Path) -> None:
    shutil.rmtree(into, ignore_errors=True)
    into.mkdir(parents=True)
    with tarfile.open(tarball) as archive:
        archive.extractall(into, filter="data")


def _make_venv(where: Path, checkout: Path, *, quiet: bool) -> None:
    shutil.rmtree(where, ignore_errors=True)
    venv.EnvBuilder(with_pip=True, clear=True).create(where)
    pip = [str(where / "bin" / "python"), "-m", "pip", "--disable-pip-version-check"] + (["-q"] if quiet else [])
    _run([*pip, "install", *REQUIREMENTS, "-e", str(checkout)])


def _run(command: list[str]) -> None:
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        tail = (done.stderr or done.stdout).strip().splitlines()[-5:]
        raise EnvError(f"{' '.join(command[3:6])}... failed ({done.returncode}): " + " | ".join(tail))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--thirdparty", type=Path, default=DEFAULT_THIRDPARTY, help="the third-party releases")
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE, help="where the environment is built")
    parser.add_argument("--json", action="store_true", help="print {data, python} as JSON")
    args = parser.parse_args(argv)
    try:
        env = build_env(args.thirdparty, args.cache)
    except EnvError as e:
        print(f"tau_env: {e}", file=sys.stderr)
        return 1
    print(json.dumps(env.to_json()) if args.json else f"{env.data}\n{env.python}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
