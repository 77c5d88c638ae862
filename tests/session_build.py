"""A home built once per pytest session, whatever the number of xdist workers: the first worker to need it
builds it under an exclusive lock, the others wait for it and open it as it is. The marker file is written
last, so a build that died half-way is started over; a failed build leaves its message, and every dependent
test of every worker fails at once with it (pytest does not cache a fixture's error) instead of building again."""

from __future__ import annotations

import fcntl
import os
import shutil
from pathlib import Path
from typing import Callable

import pytest

from ingest.home import Home


def session_dir(tmp_path_factory) -> Path:
    """The folder every process of this pytest session shares: xdist's workers each get a base temp of their
    own (``popen-gw0``...) inside the session's; without xdist the base temp is the session's."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def built_once(tmp_path_factory, name: str, build: Callable[[Home], None]) -> Home:
    """The home ``name`` of the session, made by ``build`` (which raises on a failure) the first time it is asked for."""
    shared = session_dir(tmp_path_factory)
    root, built, failure = shared / name, shared / f"{name}.built", shared / f"{name}.failed"
    with open(shared / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes, or when a killed worker's process ends
        if failure.exists():
            pytest.fail(f"the shared warehouse {name} could not be built: {failure.read_text()}")
        if not built.exists():
            shutil.rmtree(root, ignore_errors=True)
            try:
                build(Home(root).create())
            except Exception as e:
                failure.write_text(f"{type(e).__name__}: {e}")
                raise
            built.write_text(f"built by {os.environ.get('PYTEST_XDIST_WORKER', 'the only process')}\n")
    return Home(root)
