"""statebox clock pin, loaded at interpreter start-up from PYTHONPATH (standard library only).

When STATEBOX_CLOCK_PIN holds an ISO-8601 instant (e.g. 2025-10-01T13:00:00Z), the wall clock
of this Python process reads that instant at start-up and then advances with the real
monotonic clock (STATEBOX_CLOCK_MODE=frozen keeps it still instead). A forked child starts
again from the pinned instant. Pinned: time.time, time.time_ns, the no-argument forms of
time.gmtime/localtime/ctime/asctime/strftime, datetime.datetime.now/utcnow/today and
datetime.date.today. Clocks used for timeouts (monotonic, perf_counter) are left alone.

After pinning, any other sitecustomize module further down sys.path is run, so a Python
installation's own one keeps working.
"""

from __future__ import annotations

import os
import sys
from typing import Any

PIN_ENV = "STATEBOX_CLOCK_PIN"
MODE_ENV = "STATEBOX_CLOCK_MODE"


def _pinned_epoch(text: str) -> float:
    import datetime

    value = text.strip()
    if value.endswith(("Z", "z")):
        value = value[:-1] + "+00:00"
    instant = datetime.datetime.fromisoformat(value)
    if instant.tzinfo is None:
        instant = instant.replace(tzinfo=datetime.UTC)
    return instant.timestamp()


def install(pin: str, frozen: bool = False) -> None:
    """Pin this process's wall clock to `pin` (see the module docstring)."""
    import datetime as dt
    import time

    start = _pinned_epoch(pin)
    monotonic = time.monotonic
    anchor = [monotonic()]

    def now() -> float:
        return start if frozen else start + (monotonic() - anchor[0])

    def restart() -> None:
        anchor[0] = monotonic()

    os.register_at_fork(after_in_child=restart)
    _pin_time_module(time, now)
    _pin_datetime_module(dt, now)


def _pin_time_module(time: Any, now: Any) -> None:
    import functools

    real = {name: getattr(time, name) for name in ("gmtime", "localtime", "ctime", "asctime", "strftime")}

    def gmtime(secs: float | None = None) -> Any:
        return real["gmtime"](now() if secs is None else secs)

    def localtime(secs: float | None = None) -> Any:
        return real["localtime"](now() if secs is None else secs)

    def ctime(secs: float | None = None) -> str:
        return str(real["ctime"](now() if secs is None else secs))

    def asctime(t: Any = None) -> str:
        return str(real["asctime"](localtime() if t is None else t))

    def strftime(format: str, t: Any = None) -> str:
        return str(real["strftime"](format, localtime() if t is None else t))

    def time_ns() -> int:
        return int(now() * 1_000_000_000)

    # partial objects, like built-ins, do not bind as methods (logging keeps `converter = time.localtime`)
    for name, function in (
        ("time", now), ("time_ns", time_ns), ("gmtime", gmtime), ("localtime", localtime),
        ("ctime", ctime), ("asctime", asctime), ("strftime", strftime),
    ):  # fmt: skip
        setattr(time, name, functools.partial(function))


def _pin_datetime_module(dt: Any, now: Any) -> None:
    real_date, real_datetime, utc = dt.date, dt.datetime, dt.timezone.utc

    class _Pinned(type):
        # Values made by C code (e.g. pydantic-core) are plain dates/datetimes: still instances.
        def __instancecheck__(cls, obj: object) -> bool:
            return isinstance(obj, cls._real)  # type: ignore[attr-defined]

        def __subclasscheck__(cls, sub: type) -> bool:
            return issubclass(sub, cls._real)  # type: ignore[attr-defined]

    class date(real_date, metaclass=_Pinned):  # type: ignore[valid-type,misc]
        __slots__ = ()
        _real = real_date

        @classmethod
        def today(cls) -> Any:
            return cls.fromtimestamp(now())

        def __repr__(self) -> str:
            return repr(real_date(self.year, self.month, self.day))

    class datetime(real_datetime, metaclass=_Pinned):  # type: ignore[valid-type,misc]
        __slots__ = ()
        _real = real_datetime

        @classmethod
        def now(cls, tz: Any = None) -> Any:
            return cls.fromtimestamp(now(), tz)

        @classmethod
        def utcnow(cls) -> Any:
            return cls.fromtimestamp(now(), utc).replace(tzinfo=None)

        @classmethod
        def today(cls) -> Any:
            return cls.fromtimestamp(now())

        def __repr__(self) -> str:
            fields = (self.year, self.month, self.day, self.hour, self.minute, self.second, self.microsecond)
            return repr(real_datetime(*fields, self.tzinfo, fold=self.fold))

    for pinned in (date, datetime):
        pinned.__module__, pinned.__qualname__ = "datetime", pinned.__name__  # pickles as datetime.<name>
    dt.date, dt.datetime = date, datetime


def _run_next_sitecustomize() -> None:
    import importlib.util

    here = os.path.dirname(os.path.abspath(__file__))
    for entry in sys.path:
        if not entry or os.path.abspath(entry) == here:
            continue
        candidate = os.path.join(entry, "sitecustomize.py")
        if os.path.isfile(candidate):
            spec = importlib.util.spec_from_file_location("_statebox_next_sitecustomize", candidate)
            if spec is not None and spec.loader is not None:
                module = importlib.util.module_from_spec(spec)
                spec.loader.exec_module(module)
            return


if os.environ.get(PIN_ENV):
    install(os.environ[PIN_ENV], frozen=os.environ.get(MODE_ENV, "advance") == "frozen")
_run_next_sitecustomize()
