"""Shared fixtures. One generated warehouse serves every end-to-end test of a pytest session.

``demo_home`` is built once: every generator's ``demo()`` writes into landing/, then the real pipeline
runs (ingest -> dbt build -> check -> publish). Tests must treat it as read-only; a test that needs to change a
warehouse copies it first (``copy_of_demo_home``).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from ingest import cli, dbt_runner, warehouse
from ingest.warehouse import Home
from quality.runner import run_checks

REPO = Path(__file__).resolve().parents[1]
DEMO_SEED = 1986


_demo_failure: list[str] = []


@pytest.fixture(scope="session")
def demo_home(tmp_path_factory) -> Home:
    # pytest does not cache a fixture's error: remember it, so a broken build fails every dependent
    # test at once instead of being rebuilt for each of them
    if _demo_failure:
        pytest.fail(f"the shared demo warehouse could not be built: {_demo_failure[0]}")
    home = Home(tmp_path_factory.mktemp("demo_home")).create()
    cli.write_demo_landing(home, DEMO_SEED)
    results = cli.ingest_paths(home, [home.landing], quiet=True)
    bad = [m for r in results if not r.ok for m in r.messages]
    if bad:
        _demo_failure.append("ingest: " + "; ".join(bad[:5]))
    elif dbt_runner.build(home, quiet=True) != 0:
        _demo_failure.append("dbt build failed (output above)")
    elif not run_checks(home, quiet=True):
        # the published demo carries its validation run, as `perfdb run` leaves it (audit.validation_*)
        _demo_failure.append("quality checks failed (output above)")
    if _demo_failure:
        pytest.fail(_demo_failure[0])
    warehouse.publish(home)
    return home


@pytest.fixture()
def copy_of_demo_home(demo_home, tmp_path) -> Home:
    target = tmp_path / "home"
    shutil.copytree(demo_home.root, target, ignore=shutil.ignore_patterns("dbt_logs", "dbt_target"))
    return Home(target)
