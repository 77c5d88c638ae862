"""A perfdb home: the folder that holds everything one installation writes.

    perfdb_home/
      landing/            the files as received (perfdb never changes or deletes them)
      warehouse/
        perfdb.duckdb     written by ingest and dbt
        serving.duckdb    the published copy every reader opens read-only
      reports/            report files written by the nightly DAG

A ``Home`` only names these paths: constructing one touches nothing on disc. A command that writes calls
``create()`` first; one that only reads (a report, ``perfdb sql``) leaves a missing home missing.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

DEFAULT_ROOT = "perfdb_home"


class Below:
    """A path attribute of a home or a lake: ``name`` inside the path its attribute ``folder`` holds (both only
    name their paths: reading one touches nothing on disc)."""

    def __init__(self, folder: str, name: str) -> None:
        self.folder, self.name = folder, name

    def __get__(self, instance: object, owner: type | None = None) -> Path:
        return getattr(instance, self.folder) / self.name


@dataclass(frozen=True)
class Home:
    root: Path

    @classmethod
    def locate(cls, root: str | os.PathLike | None = None) -> "Home":
        """``root`` (the ``--home`` option), else ``$PERFDB_HOME``, else ``./perfdb_home``."""
        return cls(Path(root or os.environ.get("PERFDB_HOME") or DEFAULT_ROOT).resolve())

    landing = Below("root", "landing")
    warehouse_dir = Below("root", "warehouse")
    db_path = Below("warehouse_dir", "perfdb.duckdb")
    serving_path = Below("warehouse_dir", "serving.duckdb")
    reports_dir = Below("root", "reports")

    def create(self) -> "Home":
        """Make the folders a writing command needs; returns the home, so ``Home(p).create()`` reads well."""
        for d in (self.landing, self.warehouse_dir, self.reports_dir):
            d.mkdir(parents=True, exist_ok=True)
        return self
