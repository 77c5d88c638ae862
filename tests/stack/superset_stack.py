"""A real Superset for the end-to-end tests, started once per pytest session.

Superset runs from its own virtualenv (``.venv-superset``, or ``$PERFDB_SUPERSET_VENV``; `make test`
creates it), started by ``perfdb serve`` as a user starts it: a fresh SQLite metadata database in a
temporary SUPERSET_HOME, a random secret key and admin password, the bundle imported with the database
pointed at a copy of the demo warehouse's ``serving.duckdb`` (a copy, because a test publishes a new
warehouse into it), listening on a free localhost port. The stack is ready once serve has warmed the
dashboards (its line is ``warm_line``).

Test modules share it through ``shared()``: whichever module asks first starts it, the session's
end stops it.
"""

from __future__ import annotations

import os
import secrets
import shutil
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from ingest import serve
from ingest.home import Home
from ingest.superset_api import SupersetApi

START_TIMEOUT_S = 600  # migrations, the import and the warm-up on a busy 2-core machine
QUERY_TIMEOUT_S = 10  # the bound on a warehouse query (PERFDB_QUERY_TIMEOUT_S); the demo's take milliseconds
QUERY_MEMORY_LIMIT, QUERY_TEMP_LIMIT = "1GB", "2GB"  # each web worker's DuckDB (PERFDB_QUERY_*_LIMIT)
SQLLAB_PER_USER = 2  # PERFDB_SQLLAB_PER_USER, superset_config.py's default
_stack: "SupersetStack | None" = None


@dataclass
class SupersetStack:
    url: str
    home: Home
    username: str
    password: str
    process: subprocess.Popen
    log_path: Path
    warm_line: str = ""  # what perfdb serve said of its warm-up

    def session(self) -> SupersetApi:
        """Superset's REST API as the admin, with the CSRF token SQL Lab's POSTs need."""
        return SupersetApi(self.url, self.username, self.password, csrf=True, timeout_s=120)

    def log_tail(self, chars: int = 4000) -> str:
        return self.log_path.read_text(errors="replace")[-chars:]

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=30)


def superset_python() -> Path:
    python = serve.superset_python()
    if not python.exists():
        pytest.fail(
            f"Superset's virtualenv is missing ({python}). Create it with:\n"
            f"  uv venv --python 3.11 {serve.superset_venv()}\n"
            f"  uv pip sync --python {python} {serve.LOCK}"
        )
    return python


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def copy_home(source: Home, target: Path) -> Home:
    # symlinks=True: serving.duckdb stays a link to its slot, as `perfdb publish` leaves it
    shutil.copytree(source.root, target, symlinks=True, ignore=shutil.ignore_patterns("dbt_logs", "dbt_target", "landing"))
    return Home(target).create()


def start(demo_home: Home, workdir: Path) -> SupersetStack:
    python = superset_python()
    home = copy_home(demo_home, workdir / "home")
    username, password = "admin", secrets.token_urlsafe(16)
    env = dict(os.environ)
    env.update(
        SUPERSET_HOME=str(workdir / "superset_home"),
        SUPERSET_CONFIG_PATH=str(serve.DASHBOARDS / "superset_config.py"),
        SUPERSET_SECRET_KEY=secrets.token_urlsafe(42),
        SUPERSET_ADMIN_USERNAME=username,
        SUPERSET_ADMIN_PASSWORD=password,
        PERFDB_QUERY_TIMEOUT_S=str(QUERY_TIMEOUT_S),
        PERFDB_QUERY_MEMORY_LIMIT=QUERY_MEMORY_LIMIT,
        PERFDB_QUERY_TEMP_LIMIT=QUERY_TEMP_LIMIT,
    )
    env.pop("SUPERSET_METADATA_URI", None)
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    log_path = workdir / "superset.log"
    env["PERFDB_SUPERSET_VENV"] = str(python.parents[1])
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "ingest.cli", "--home", str(home.root), "serve", "--port", str(port)],
            env=env, stdout=log, stderr=subprocess.STDOUT, cwd=workdir,
        )
    stack = SupersetStack(url, home, username, password, process, log_path)
    deadline = time.monotonic() + START_TIMEOUT_S
    try:
        while time.monotonic() < deadline:
            if process.poll() is not None:
                pytest.fail(f"Superset exited with status {process.returncode} while starting:\n{stack.log_tail()}")
            warmed = [line for line in log_path.read_text(errors="replace").splitlines()
                      if line.startswith("perfdb serve: ") and "warmed" in line]
            if warmed:
                stack.warm_line = warmed[0]
                return stack
            time.sleep(0.5)  # polling a starting server, bounded by the deadline
        pytest.fail(f"perfdb serve did not warm {url} within {START_TIMEOUT_S}s:\n{stack.log_tail()}")
    except BaseException:
        stack.stop()  # a start that failed in any way leaves no server behind
        raise


def shared(config: pytest.Config, demo_home: Home, tmp_path_factory: pytest.TempPathFactory) -> SupersetStack:
    """The session's Superset, started on first use and stopped when the session ends."""
    global _stack
    if _stack is None or _stack.process.poll() is not None:
        _stack = start(demo_home, tmp_path_factory.mktemp("superset"))
        config.add_cleanup(_stack.stop)
    return _stack
