"""dbt's unit tests: each model's logic on fixed inputs (``unit_tests:`` in the models' yml files). A nightly
``perfdb build`` leaves them out, as dbt advises for production runs; they run here, every one of them,
through ``perfdb build --unit-tests``."""

from __future__ import annotations

import json

import pytest

from ingest import cli, dbt_runner

pytestmark = pytest.mark.slow


def results(home) -> list[dict]:
    return json.loads((dbt_runner.target_dir(home) / "run_results.json").read_text())["results"]


def manifest(home) -> dict:
    return json.loads((dbt_runner.target_dir(home) / "manifest.json").read_text())


def test_every_dbt_unit_test_passes(demo_home, copy_of_demo_home):
    home = copy_of_demo_home
    # `dbt build` runs a unit test just before the model it tests, and only for a selected model: the models
    # with unit tests are built again, on the demo's copy (which holds every model they read); building every
    # model again would only repeat the demo's nightly build and its data tests (the next test), for minutes
    tested = sorted({test["depends_on"]["nodes"][0].split(".")[-1] for test in manifest(demo_home)["unit_tests"].values()})
    assert cli.main(["--home", str(home.root), "build", "--unit-tests", "--select", " ".join(tested)]) == 0
    declared = manifest(home)["unit_tests"]
    ran = {r["unique_id"]: r["status"] for r in results(home) if r["unique_id"].startswith("unit_test.")}
    assert len(declared) >= 22
    assert ran == {unique_id: "pass" for unique_id in declared}


def test_a_nightly_build_runs_the_data_tests_and_no_unit_test(demo_home):
    kinds = [r["unique_id"].split(".")[0] for r in results(demo_home)]
    assert "unit_test" not in kinds
    assert kinds.count("test") == 501
