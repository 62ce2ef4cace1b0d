"""Recorded runs made statebox runs (`statebox import FORMAT FILE --out RUN`).

- `Importer` / `load_importer`: one plug-in per format (`statebox.importers` entry points, loaded when named).
- `RecordedAttempt`, `RecordedStep`, `ImportPlan`: what an importer reads out of a file.
- `ReplayingAgent` / `ReplayingCustomer`: play the recorded steps on fresh state.
- `import_run`: replays every attempt through `run_attempt` and writes a normal run directory.
"""

from statebox.importing.engine import ImportResult, import_run, source_problem
from statebox.importing.errors import ImportFormatError
from statebox.importing.recorded import ImportPlan, RecordedAttempt, RecordedStep
from statebox.importing.registry import Importer, importer_formats, load_importer
from statebox.importing.replay import Recording, ReplayingAgent, ReplayingCustomer

__all__ = [
    "ImportFormatError",
    "ImportPlan",
    "ImportResult",
    "Importer",
    "RecordedAttempt",
    "RecordedStep",
    "Recording",
    "ReplayingAgent",
    "ReplayingCustomer",
    "import_run",
    "importer_formats",
    "load_importer",
    "source_problem",
]
