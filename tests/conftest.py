"""Shared fixtures. One generated warehouse serves every end-to-end test of a pytest session.

``demo_home`` is built once by the pipeline ``perfdb demo`` runs (``ingest.pipeline.demo``): every
generator's ``demo()`` writes into landing/, then ingest -> dbt build -> check -> publish. Tests must treat
it as read-only; a test that needs to change a warehouse copies it first (``copy_of_demo_home``).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from ingest import pipeline
from ingest.cli_options import DEMO_SEED
from ingest.home import Home

REPO = Path(__file__).resolve().parents[1]


_demo_failure: list[str] = []


def pytest_collection_modifyitems(items):
    """The files of tests marked ``slow`` (minutes each) first: `make test` hands whole files to two workers
    in this order (``--dist loadfile --no-loadscope-reorder``), so that the short files fill in at the end and
    both workers finish together. (pytest-xdist's own order, most tests first, left the longest files last.)"""
    slow_files = {item.path for item in items if item.get_closest_marker("slow")}
    items.sort(key=lambda item: item.path not in slow_files)  # stable: each file's tests stay in order


@pytest.fixture(scope="session", autouse=True)
def parse_cache(tmp_path_factory):
    """dbt's saved parse, shared by the session's homes (ingest/dbt_runner.py) and kept out of the user's cache;
    in the environment, so the CLI and Airflow processes the tests start use it too."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PERFDB_CACHE", str(tmp_path_factory.mktemp("perfdb_cache")))
        yield


@pytest.fixture(scope="session")
def demo_home(tmp_path_factory) -> Home:
    # pytest does not cache a fixture's error: remember it, so a broken build fails every dependent
    # test at once instead of being rebuilt for each of them
    if _demo_failure:
        pytest.fail(f"the shared demo warehouse could not be built: {_demo_failure[0]}")
    home = Home(tmp_path_factory.mktemp("demo_home")).create()
    # the published demo carries its validation run, as `perfdb run` leaves it (audit.validation_*)
    failed = pipeline.demo(home, DEMO_SEED).failed
    if failed is not None:
        _demo_failure.append(f"{failed.name}: {failed.summary}; " + "; ".join(failed.problems[:5]))
        pytest.fail(_demo_failure[0])
    return home


@pytest.fixture()
def copy_of_demo_home(demo_home, tmp_path) -> Home:
    target = tmp_path / "home"
    shutil.copytree(demo_home.root, target, ignore=shutil.ignore_patterns("dbt_logs", "dbt_target"))
    return Home(target)
