"""Spark tests: one local[2] Spark session for the module that needs one, and a small generated input set
(MEASURE in its three forms, SMF, command captures, benchmark runs) written with the generators' CLI.

Spark needs Java 17 and the `spark` extra (`make test` installs both); without them these tests fail
rather than skip, as the Spark path would be untested otherwise."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from ingest import cli

SMALL_INPUTS = [
    ["measure", "--days", "2", "--cpus", "2", "--processes", "4", "--discs", "2", "--lines", "1",
     "--forms", "csv,binary,meascom"],
    ["smf", "--days", "1"],
    ["commands", "--days", "1", "--every", "240"],
    ["benchmark"],
]


def write_small_inputs(landing_home: Path) -> Path:
    """The generated files under ``<landing_home>/landing``; returns that folder."""
    for args in SMALL_INPUTS:
        assert cli.main(["--home", str(landing_home), "generate", *args]) == 0
    return landing_home / "landing"


@pytest.fixture(scope="session")
def small_inputs(tmp_path_factory) -> Path:
    return write_small_inputs(tmp_path_factory.mktemp("small_inputs"))


@pytest.fixture()
def landing_copy(small_inputs, tmp_path) -> Path:
    target = tmp_path / "landing"
    shutil.copytree(small_inputs, target)
    return target


@pytest.fixture(scope="module")
def spark():
    from ingest.lake.job import spark_session

    session = spark_session("local[2]", "perfdb-tests")
    yield session
    session.stop()
