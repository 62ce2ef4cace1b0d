"""What the benchmark adapters (`compat/taubench/`, `compat/thinkingbox/`) do alike, in one place.

- `provider`: the checks of a provider's options (`--data`, `--server-python`) and its validation run.
- `backend`: `ServersBackend`, an attempt whose state lives in tool-server processes until `aclose()`.
- `validation`: the scripted checks (reference, no-op, the calls that change state and those a task
  passes without); `counts`: the counts both `validate` reports start from.

Nothing is imported here: the providers' entry points are read by every `statebox` command, and only
`provider` and `counts` are light enough for that.
"""
