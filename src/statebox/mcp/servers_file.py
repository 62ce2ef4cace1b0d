"""The servers file: which external tool servers exist and how to start each one.

```yaml
servers:
  shop:
    command: ["{python}", "-m", "shop_server"]   # {python} is the configured interpreter
    env: {SHOP_MODE: "strict"}
```
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, Field, ValidationError

PYTHON_PLACEHOLDER = "{python}"


class ServerSpec(BaseModel):
    """How to start one external tool server speaking MCP over stdio."""

    name: str
    command: list[str] = Field(min_length=1)
    env: dict[str, str] = Field(default_factory=dict)

    def with_python(self, python: str) -> ServerSpec:
        """This spec with `{python}` in its command replaced by `python`."""
        command = [part.replace(PYTHON_PLACEHOLDER, python) for part in self.command]
        return self.model_copy(update={"command": command})


class _ServerEntry(BaseModel):
    command: list[str] = Field(min_length=1)
    env: dict[str, str] = Field(default_factory=dict)


class _ServersFile(BaseModel):
    servers: dict[str, _ServerEntry]


def load_servers_file(path: str | Path, python: str | None = None) -> dict[str, ServerSpec]:
    """Read a servers file; `{python}` becomes `python` (default: this interpreter)."""
    text = Path(path).read_text(encoding="utf-8")
    return parse_servers(yaml.safe_load(text), python=python, source=str(path))


def parse_servers(data: Any, python: str | None = None, source: str = "servers file") -> dict[str, ServerSpec]:
    """Validate already-parsed servers-file content into specs by name."""
    try:
        parsed = _ServersFile.model_validate(data)
    except ValidationError as exc:
        raise ValueError(f"{source} is not a valid servers file: {exc}") from exc
    interpreter = python or sys.executable
    return {
        name: ServerSpec(name=name, command=entry.command, env=entry.env).with_python(interpreter)
        for name, entry in parsed.servers.items()
    }
