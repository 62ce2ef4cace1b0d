"""The rooms as built: every import in src/statebox goes to the same room or a lower layer of docs/architecture.md."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "statebox"
# Plug-in discovery imports the plug-in package by name to list its sub-packages (tasks/suite.py).
DISCOVERY = {("tasks", "domains")}


def layers() -> dict[str, int]:
    table = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| (\d+) \| `(\w+)/` \|", table, flags=re.MULTILINE)
    return {room: int(layer) for layer, room in rows}


def imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = [node.module] if isinstance(node, ast.ImportFrom) and node.module and node.level == 0 else []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        found |= {n.split(".")[1] for n in names if n.startswith("statebox.") and n.count(".") >= 1}
    return found


def test_every_room_in_the_source_is_in_the_table() -> None:
    rooms = {p.name for p in SRC.iterdir() if p.is_dir() and not p.name.startswith("__")}
    assert rooms - set(layers()) == set(), "rooms missing from docs/architecture.md"


def test_no_room_imports_a_room_above_it() -> None:
    layer = layers()
    wrong = []
    for path in SRC.rglob("*.py"):
        room = path.relative_to(SRC).parts[0]
        if room not in layer:
            continue
        for target in imports(path) - {room}:
            if target in layer and layer[target] > layer[room] and (room, target) not in DISCOVERY:
                wrong.append(f"{path.relative_to(SRC)} imports {target} (layer {layer[target]} > {layer[room]})")
    assert not wrong, "\n".join(sorted(wrong))
