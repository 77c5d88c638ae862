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
from listings import shared
from listings.findings import shared_listings
from session_build import built_once, session_dir

REPO = Path(__file__).resolve().parents[1]


def pytest_collection_modifyitems(items):
    """The files of tests marked ``slow`` (minutes each) first: `make test` hands whole files to two workers
    in this order (``--dist loadfile --no-loadscope-reorder``), so that the short files fill in at the end and
    both workers finish together. (pytest-xdist's own order, most tests first, left the longest files last.)

    Among them, the first slow file whose first test needs the shared demo warehouse leads, then the slow files
    that need no demo: one worker builds the demo (minutes, once per session: ``demo_home``) while the other
    works through those, instead of waiting for the build."""
    slow_files = {item.path for item in items if item.get_closest_marker("slow")}
    demo_files = {item.path for item in items if "demo_home" in item.fixturenames}
    first_tests = {}
    for item in items:
        first_tests.setdefault(item.path, item)
    builder = next((path for path, item in first_tests.items()
                    if path in slow_files and "demo_home" in item.fixturenames), None)

    def rank(item) -> int:
        if item.path not in slow_files:
            return 3
        return 0 if item.path == builder else 2 if item.path in demo_files else 1

    items.sort(key=rank)  # stable: each file's tests stay in order


@pytest.fixture(scope="session", autouse=True)
def parse_cache(tmp_path_factory):
    """dbt's saved parse, shared by the session's homes (ingest/dbt_runner.py), on every xdist worker (it is
    replaced atomically), and kept out of the user's cache; in the environment, so the CLI and Airflow
    processes the tests start use it too."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PERFDB_CACHE", str(session_dir(tmp_path_factory) / "perfdb_cache"))
        yield


@pytest.fixture(scope="session")
def demo_home(tmp_path_factory) -> Home:
    """Built once per session (three nights of dbt builds, minutes), shared by the xdist workers."""
    def build(home: Home) -> None:
        # the published demo carries its validation run, as `perfdb run` leaves it (audit.validation_*)
        failed = pipeline.demo(home, DEMO_SEED).failed
        if failed is not None:
            raise AssertionError(f"{failed.name}: {failed.summary}; " + "; ".join(failed.problems[:5]))

    return built_once(tmp_path_factory, "demo_home", build)


@pytest.fixture(scope="session")
def configuration_listings(tmp_path_factory):
    """The listings rpt_config_findings is tested on (tests/listings/shared.py), one build for the session."""
    yield from shared_listings(tmp_path_factory, "configuration_listings", *shared.CONFIGURATION)


@pytest.fixture(scope="session")
def network_listings(tmp_path_factory):
    """The listings the marts across listings are tested on (tests/listings/shared.py), one build for the session."""
    yield from shared_listings(tmp_path_factory, "network_listings", *shared.NETWORK)


@pytest.fixture()
def copy_of_demo_home(demo_home, tmp_path) -> Home:
    target = tmp_path / "home"
    shutil.copytree(demo_home.root, target, ignore=shutil.ignore_patterns("dbt_logs", "dbt_target"))
    return Home(target)
