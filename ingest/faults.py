"""Faults of the machine rather than of the input: a full disc, another writer, a database DuckDB gave up on.

Each is a ``WarehouseFault`` whose message is one line that says what happened, where, and what to do;
``perfdb`` prints it (or, with ``--json``, a summary holding it) and exits 1, never with a traceback.
Bad input is not a fault: it is a reject, recorded with its position, and ingest goes on.

    try:
        con.commit()
    except Exception as e:
        raise faults.translate(e, "committing 3 files to warehouse/perfdb.duckdb") or e
"""

from __future__ import annotations

import errno
import os
import signal


class WarehouseFault(Exception):
    """Stops the command: one line for the user (``str(fault)``)."""


class NoRoom(WarehouseFault):
    """The disc is full, or a quota or the file size limit was reached, while writing."""


class WriterBusy(WarehouseFault):
    """Another process is writing the same home."""


_NO_ROOM_ERRNOS = {errno.ENOSPC, errno.EFBIG, errno.EDQUOT}
_NO_ROOM_TEXTS = ("No space left on device", "File too large", "Disk quota exceeded")


def no_room(e: BaseException) -> bool:
    """Whether ``e`` (an OSError, an Arrow or DuckDB error) says that a write found no room."""
    if isinstance(e, OSError) and e.errno in _NO_ROOM_ERRNOS:
        return True
    return any(text in str(e) for text in _NO_ROOM_TEXTS)


def translate(e: BaseException, doing: str) -> WarehouseFault | None:
    """The fault ``e`` is, raised while ``doing`` (e.g. "committing 3 files to ..."); None for an error that
    belongs to the data (a value DuckDB refuses), which the caller handles as such."""
    if isinstance(e, WarehouseFault):
        return e
    import duckdb  # here, not at the top: ``perfdb --help`` and ``perfdb generate`` start without DuckDB

    detail = _first_line(e)
    if no_room(e):
        return NoRoom(f"no room to write while {doing} ({detail}): free space on the disc (or raise the file size "
                      "limit) and run the command again; what was committed before stays, nothing half-written does")
    if isinstance(e, duckdb.Error) and ("database has been invalidated" in str(e) or isinstance(e, duckdb.FatalException)):
        return WarehouseFault(f"the database stopped while {doing} ({detail}); run the command again: DuckDB "
                              "recovers the last committed state from its write-ahead log")
    return None


def _first_line(e: BaseException) -> str:
    text = str(e).strip().splitlines()
    return f"{type(e).__name__}: {text[0] if text else ''}"[:300]


# -- kill points ------------------------------------------------------------------------------------------

KILL_AT = "PERFDB_KILL_AT"  # "<point>:<n>": SIGKILL at the n-th passage of the point (tests of a killed run)
_passages: dict[str, int] = {}


def reached(point: str) -> None:
    """A place where a writing command may be killed (a group of files staged, before and after a commit, a
    publish's half-made file, a dbt node done). With ``$PERFDB_KILL_AT`` set to ``point:n`` the process kills
    itself with SIGKILL the n-th time it passes ``point``: a kill -9 at a known step, without sleeps, for the
    test that a retry ends as a clean run would (``tests/warehouse/test_kill_retry.py``). Unset, it costs one
    look at the environment."""
    wanted = os.environ.get(KILL_AT)
    if not wanted or wanted.rpartition(":")[0] != point:
        return
    _passages[point] = _passages.get(point, 0) + 1
    if _passages[point] == int(wanted.rpartition(":")[2]):
        os.kill(os.getpid(), signal.SIGKILL)
