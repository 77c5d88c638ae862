"""The ``perfdb`` command as the perfdb DAGs run it: a subprocess of the executable beside Airflow's
interpreter (or ``PERFDB_BIN``), on the home named by ``PERFDB_HOME``. Not a DAG file (.airflowignore)."""

from __future__ import annotations

import json
import logging
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

from airflow.sdk.exceptions import AirflowFailException

log = logging.getLogger(__name__)


class PerfdbCommandError(RuntimeError):
    """The command could not do its work (crash, lock, I/O); worth retrying."""


def home() -> Path:
    root = os.environ.get("PERFDB_HOME")
    if not root:
        raise AirflowFailException("PERFDB_HOME is not set: point it at the perfdb home (landing/, warehouse/)")
    return Path(root)


def perfdb_bin() -> str:
    if os.environ.get("PERFDB_BIN"):
        return os.environ["PERFDB_BIN"]
    beside = Path(sys.executable).with_name("perfdb")
    return str(beside) if beside.exists() else (shutil.which("perfdb") or "perfdb")


def perfdb(*args: str, capture: bool = False) -> subprocess.CompletedProcess:
    """Runs ``perfdb --home <home> ARGS``; stderr (and stdout unless captured) go to the task log."""
    command = [perfdb_bin(), "--home", str(home()), *args]
    log.info("running %s", shlex.join(command))
    return subprocess.run(command, stdout=subprocess.PIPE if capture else None, text=True)


def perfdb_ok(*args: str, capture: bool = False, hint: str = "") -> subprocess.CompletedProcess:
    """``perfdb(*args)`` that must succeed: another exit status raises ``PerfdbCommandError`` (the task is retried),
    its message ending in ``hint``."""
    proc = perfdb(*args, capture=capture)
    if proc.returncode != 0:
        raise PerfdbCommandError(f"perfdb {shlex.join(args)} exited {proc.returncode}{hint}")
    return proc


def json_summary(stdout: str | None) -> dict | list | None:
    """What a ``--json`` command (or ``--format json`` report) printed; None when it printed no JSON."""
    try:
        return json.loads(stdout or "")
    except json.JSONDecodeError:
        return None
