"""YAML documents parsed once per content: a task file's parse, kept as JSON under the user's cache folder.

PyYAML's constructor runs in Python even over libyaml's parser (about 1.3 ms per task file, most of
`statebox tasks`'s CPU); reading the same document back as JSON takes a tenth of that. An entry is
named by a digest of the file's bytes and of PyYAML's version, so an edited file, or another
PyYAML, is parsed again. Only documents JSON keeps exactly (string keys; strings, numbers, booleans,
null, lists and mappings: every built-in task file) are kept; any other is parsed every time. The
folder is `$STATEBOX_CACHE_DIR`, else `$XDG_CACHE_HOME/statebox`, else `~/.cache/statebox`; a cache
that cannot be read or written is passed over (the file is parsed), never an error.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from pathlib import Path
from typing import Any

import yaml

FOLDER = "yaml-v1"


def load_yaml_cached(path: Path, loader: type[yaml.SafeLoader]) -> Any:
    """The one YAML document in `path`, from the cache when its bytes were parsed before (raises OSError,
    UnicodeDecodeError, yaml.YAMLError as parsing does)."""
    data = path.read_bytes()
    entry = _entry(data, loader)
    if entry is not None:
        try:
            return json.loads(entry.read_bytes())
        except (OSError, ValueError):
            pass  # absent or unreadable: parse, and (re)write it
    text = data.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")  # as a text-mode read gives it
    doc = yaml.load(text, Loader=loader)
    if entry is not None and _json_keeps(doc):
        _write(entry, json.dumps(doc, ensure_ascii=False, separators=(",", ":")))
    return doc


def cache_folder() -> Path:
    """Where the parsed documents are kept."""
    explicit = os.environ.get("STATEBOX_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "statebox"


def _entry(data: bytes, loader: type[yaml.SafeLoader]) -> Path | None:
    try:
        folder = cache_folder() / FOLDER
    except RuntimeError:  # no home directory to put it in
        return None
    key = hashlib.sha256(f"{yaml.__version__}:{loader.__name__}:".encode() + data).hexdigest()
    return folder / key[:2] / f"{key[2:]}.json"


def _json_keeps(value: Any) -> bool:
    """Whether JSON gives `value` back equal and of the same types (no dates, sets, bytes, tuples, int keys)."""
    if value is None or type(value) in (str, int, float, bool):
        return True
    if type(value) is list:
        return all(_json_keeps(v) for v in value)
    if type(value) is dict:
        return all(type(k) is str and _json_keeps(v) for k, v in value.items())
    return False


def _write(entry: Path, text: str) -> None:
    """Whole or not at all (a concurrent reader never sees half an entry); a failure leaves no entry."""
    partial = entry.with_name(f".{entry.name}.{os.getpid()}.partial")
    try:
        entry.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        partial.write_text(text, encoding="utf-8")
        os.replace(partial, entry)
    except OSError:
        with contextlib.suppress(OSError):
            partial.unlink(missing_ok=True)
