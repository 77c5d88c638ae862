"""Shared fixtures. One generated warehouse serves every end-to-end test of a pytest session.

``demo_home`` is built once by the pipeline ``perfdb demo`` runs (``ingest.pipeline.demo``): every
generator's ``demo()`` writes into landing/, then ingest -> dbt build -> check -> publish. Tests must treat
it as read-only; a test that needs to change a warehouse copies it first (``copy_of_demo_home``).
"""

from __future__ import annotations

import fcntl
import os
import shutil
from pathlib import Path

import pytest

from ingest import pipeline
from ingest.cli_options import DEMO_SEED
from ingest.home import Home

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


def _session_dir(tmp_path_factory) -> Path:
    """The folder every process of this pytest session shares: xdist's workers each get a base temp of their
    own (``popen-gw0``...) inside the session's; without xdist the base temp is the session's."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


@pytest.fixture(scope="session", autouse=True)
def parse_cache(tmp_path_factory):
    """dbt's saved parse, shared by the session's homes (ingest/dbt_runner.py), on every xdist worker (it is
    replaced atomically), and kept out of the user's cache; in the environment, so the CLI and Airflow
    processes the tests start use it too."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PERFDB_CACHE", str(_session_dir(tmp_path_factory) / "perfdb_cache"))
        yield


@pytest.fixture(scope="session")
def demo_home(tmp_path_factory) -> Home:
    """Built once per session, whatever the number of xdist workers (three nights of dbt builds, minutes): the
    first worker to need it builds it under an exclusive lock, the others wait for it and open it as it is.
    The marker file is written last, so a build that died half-way is started over; a failed build leaves its
    message, and every dependent test of every worker fails at once with it (pytest does not cache a fixture's
    error) instead of building again."""
    shared = _session_dir(tmp_path_factory)
    root, built, failure = shared / "demo_home", shared / "demo_home.built", shared / "demo_home.failed"
    with open(shared / "demo_home.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes, or when a killed worker's process ends
        if failure.exists():
            pytest.fail(f"the shared demo warehouse could not be built: {failure.read_text()}")
        if not built.exists():
            shutil.rmtree(root, ignore_errors=True)
            home = Home(root).create()
            try:
                # the published demo carries its validation run, as `perfdb run` leaves it (audit.validation_*)
                failed = pipeline.demo(home, DEMO_SEED).failed
            except Exception as e:
                failure.write_text(f"{type(e).__name__}: {e}")
                raise
            if failed is not None:
                failure.write_text(f"{failed.name}: {failed.summary}; " + "; ".join(failed.problems[:5]))
                pytest.fail(failure.read_text())
            built.write_text(f"built by {os.environ.get('PYTEST_XDIST_WORKER', 'the only process')}\n")
    return Home(root)


@pytest.fixture()
def copy_of_demo_home(demo_home, tmp_path) -> Home:
    target = tmp_path / "home"
    shutil.copytree(demo_home.root, target, ignore=shutil.ignore_patterns("dbt_logs", "dbt_target"))
    return Home(target)
