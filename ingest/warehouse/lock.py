"""One writer per home: ``warehouse/perfdb.lock``, held by every command that writes.

The lock is an advisory ``flock`` on the file, which the kernel releases when its process ends, however it
ends; the file holds the holder's pid, command and start time so that a second writer can say who holds it:

    perfdb ingest: another perfdb process (pid 4242, `perfdb build`, since 2026-01-05 02:00:13) is writing to
    /srv/perfdb_home: wait for it to finish, or stop it

A lock whose process was killed is free again at once; the next writer takes it over and, since no other
writer can be running then, removes what the killed one left behind: ingest's staging folders
(``warehouse/perfdb-ingest-*``) and a half-made ``warehouse/*.duckdb.new`` (the serving link or a slot's copy). DuckDB's own lock on
``perfdb.duckdb`` (a dbt that outlived its perfdb) is reported the same way (``duckdb_busy``).

Held for the whole command, and again by the same process without waiting (``hold`` is re-entrant), until
``release_all``.
"""

from __future__ import annotations

import datetime as dt
import fcntl
import os
import re
import shutil
from pathlib import Path
from typing import IO

from ingest.faults import WriterBusy
from ingest.home import Home

LOCK_NAME = "perfdb.lock"
STAGING_PREFIX = "perfdb-ingest-"  # ingest's staging folders beside the database (``loading``)
HALF_MADE = ".new"  # ``serving`` writes a link or a slot as <name>.duckdb.new, then renames it into place

_held: dict[Path, IO[str]] = {}


def hold(home: Home, command: str) -> str | None:
    """The home's writer lock, taken for ``command`` (e.g. "ingest"); raises ``WriterBusy`` naming the
    holder when another process has it. Returns a note when it took over the lock of a process that died
    (what it left behind is removed then), else None."""
    path = home.warehouse_dir / LOCK_NAME
    if path in _held:
        return None
    home.warehouse_dir.mkdir(parents=True, exist_ok=True)
    f = path.open("a+", encoding="utf-8")
    try:
        fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        f.seek(0)
        holder = f.read().strip()
        f.close()
        raise WriterBusy(f"another perfdb process ({_describe(holder)}) is writing to {home.root}: wait for it to "
                         "finish, or stop it") from None
    f.seek(0)
    previous = f.read().strip()
    f.truncate(0)
    f.write(f"{os.getpid()} {command} {dt.datetime.now():%Y-%m-%d %H:%M:%S}\n")
    f.flush()
    _held[path] = f
    left = remove_leftovers(home)
    if not previous:
        return None
    note = f"took over the writer lock of {_describe(previous)}, which ended without releasing it"
    return note + (f"; removed what it left: {', '.join(left)}" if left else "")


def release_all() -> None:
    """Every lock this process holds, released (the file stays, empty: a writer that finds a pid in it
    knows that its holder did not finish)."""
    while _held:
        _path, f = _held.popitem()
        f.truncate(0)
        f.flush()
        fcntl.flock(f.fileno(), fcntl.LOCK_UN)
        f.close()


def remove_leftovers(home: Home) -> list[str]:
    """Staging folders and half-made serving files of a writer that was killed or failed; only safe
    while holding the lock (no other writer is running). Returns the names removed."""
    removed = []
    if home.warehouse_dir.is_dir():
        for p in sorted(home.warehouse_dir.glob(f"{STAGING_PREFIX}*")):
            shutil.rmtree(p, ignore_errors=True)
            removed.append(p.name)
        # a half-made serving link (serving.duckdb.new) or slot copy (serving-a.duckdb.new); a link to a
        # slot since removed leads nowhere, so what is looked at is the name, not what it leads to
        for p in sorted(home.warehouse_dir.glob(f"*.duckdb{HALF_MADE}")):
            p.unlink(missing_ok=True)
            removed.append(p.name)
    return removed


def duckdb_busy(e: Exception, db_path: Path) -> WriterBusy | None:
    """DuckDB's "Could not set lock on file ...: Conflicting lock is held in EXE (PID N)" as a ``WriterBusy``
    naming the process (a dbt left running by a perfdb that was killed, a reader opened read-write)."""
    m = re.search(r"Conflicting lock is held in (.*?) \(PID (\d+)\)", str(e))
    if "Could not set lock" not in str(e) or m is None:
        return None
    return WriterBusy(f"another process (pid {m.group(2)}, {m.group(1)}) has {db_path} open for writing: wait for it "
                      f"to finish, or stop it (`kill {m.group(2)}`)")


def _describe(holder: str) -> str:
    """"pid 4242, `perfdb build`, since ..." from the lock file's line."""
    parts = holder.split(" ", 2)
    if len(parts) < 3 or not parts[0].isdigit():
        return "pid unknown"
    return f"pid {parts[0]}, `perfdb {parts[1]}`, since {parts[2]}"
