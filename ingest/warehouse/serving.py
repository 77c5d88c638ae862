"""The published warehouse: ``serving.duckdb``, the copy every reader opens read-only.

``publish`` replaces it with an atomic rename, so a reader sees either the old file or the new one, never
half of either; readers connect without file or network access, so SQL typed into Superset or
``perfdb sql`` cannot read the server's files.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import duckdb

from ingest.home import Home
from ingest.warehouse import faults, lock
from ingest.warehouse.database import writer_config


def connect_serving(home: Home) -> duckdb.DuckDBPyConnection:
    """Read-only, no file or network access: what every reader of the published warehouse uses."""
    if not home.serving_path.exists():
        raise FileNotFoundError(
            f"{home.serving_path} does not exist yet: run `perfdb run` (or ingest, build, publish) first"
        )
    return duckdb.connect(
        str(home.serving_path),
        read_only=True,
        config={"enable_external_access": False},
    )


def publish(home: Home) -> Path:
    """Copy the built database next to the serving file, then rename it over in one step."""
    if not home.db_path.exists():
        raise FileNotFoundError(f"{home.db_path} does not exist: nothing to publish (run ingest and build first)")
    try:
        con = duckdb.connect(str(home.db_path), config=writer_config())
    except duckdb.IOException as e:
        raise lock.duckdb_busy(e, home.db_path) or e
    tmp = home.serving_path.with_name(home.serving_path.name + ".new")
    try:
        con.execute("checkpoint")
        con.close()
        shutil.copyfile(home.db_path, tmp)
        with tmp.open("rb+") as f:
            os.fsync(f.fileno())
        os.replace(tmp, home.serving_path)
    except Exception as e:
        tmp.unlink(missing_ok=True)  # the old serving.duckdb stays as it was
        raise faults.translate(e, f"publishing {home.serving_path}") or e
    return home.serving_path
