"""`statebox.private_api.require`: a private name another package no longer has stops statebox with one line
naming the package, its version and what is missing."""

from __future__ import annotations

from importlib import metadata

import pytest

from statebox.private_api import PrivateApiChanged, exists, require


class Upstream:
    def method(self) -> None: ...

    table: dict[str, object] = {}  # noqa: RUF012 - a stand-in for another package's class


def test_names_that_are_there_pass() -> None:
    require(Upstream, ("method",), distribution="pytest", needed_by="statebox.x")
    require(Upstream, ("table",), distribution="pytest", needed_by="statebox.x", present=exists)


def test_a_missing_name_is_one_line_naming_the_package_version_the_class_and_the_user() -> None:
    with pytest.raises(PrivateApiChanged) as raised:
        require(Upstream, ("method", "gone", "also_gone"), distribution="pytest", needed_by="statebox.x")
    message = str(raised.value)
    expected = (f"error: statebox.x needs {__name__}.Upstream.gone/also_gone, which pytest "
                f"{metadata.version('pytest')} does not have")
    assert message.startswith(expected), message
    assert "\n" not in message


def test_a_name_that_fails_its_check_counts_as_missing_and_an_instance_is_named_by_its_class() -> None:
    with pytest.raises(PrivateApiChanged, match=r"Upstream\.table, which"):
        require(Upstream(), ("table",), distribution="pytest", needed_by="statebox.x")  # not callable


def test_a_package_not_installed_is_said_so() -> None:
    with pytest.raises(PrivateApiChanged, match=r"no-such-dist \(not installed\) does not have"):
        require(Upstream, ("gone",), distribution="no-such-dist", needed_by="statebox.x")


def test_uncaught_it_ends_the_process_with_exit_code_1() -> None:
    error = PrivateApiChanged("error: one line")
    assert isinstance(error, SystemExit) and str(error) == "error: one line"
