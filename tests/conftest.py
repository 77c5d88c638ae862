"""Shared fixtures. One generated warehouse serves every end-to-end test of a pytest session.

``demo_home`` is built once: every generator's ``demo()`` writes into landing/, then the real pipeline
runs (ingest -> dbt build -> publish). Tests must treat it as read-only; a test that needs to change a
warehouse copies it first (``copy_of_demo_home``).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from ingest import cli, dbt_runner, warehouse
from ingest.warehouse import Home

REPO = Path(__file__).resolve().parents[1]
DEMO_SEED = 1986


def _shared_dir() -> Path:
    for candidate in (REPO.parent / "shared", REPO.parent.parent / "shared"):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError("the shared/ folder (seeds, notes, formats, oracles) is not beside the repository")


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    return _shared_dir()


@pytest.fixture(scope="session")
def demo_home(tmp_path_factory) -> Home:
    home = Home(tmp_path_factory.mktemp("demo_home")).create()
    cli.write_demo_landing(home, DEMO_SEED)
    results = cli.ingest_paths(home, [home.landing], quiet=True)
    bad = [r for r in results if not r.ok]
    assert not bad, [m for r in bad for m in r.messages]
    assert dbt_runner.build(home, quiet=True) == 0, "dbt build failed on the demo warehouse"
    warehouse.publish(home)
    return home


@pytest.fixture()
def copy_of_demo_home(demo_home, tmp_path) -> Home:
    target = tmp_path / "home"
    shutil.copytree(demo_home.root, target, ignore=shutil.ignore_patterns("dbt_logs", "dbt_target"))
    return Home(target)
