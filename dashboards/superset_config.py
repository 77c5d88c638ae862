"""Superset configuration for perfdb (loaded through ``SUPERSET_CONFIG_PATH``).

Everything secret or site-specific comes from the environment; nothing here has a usable default:

    SUPERSET_SECRET_KEY     signs sessions and encrypts stored connection secrets (required)
    SUPERSET_METADATA_URI   Superset's own metadata database (default: SQLite under $SUPERSET_HOME)
    SUPERSET_HOME           where the SQLite metadata database lives (default ~/.superset)
    PERFDB_QUERY_TIMEOUT_S  longest a warehouse query (SQL Lab or chart) may run, seconds (default 60)
    PERFDB_SQLLAB_PER_USER  SQL Lab queries one user may run at once (default 2)
    PERFDB_SQLLAB_MAX       SQL Lab queries that may run at once on the server (default 4)
    PERFDB_SERVING          the published serving.duckdb whose identity keys the chart-data cache
                            (set by bootstrap.py from --serving)

The perfdb database connection itself is not configured here: it comes from the bundle in this
folder, imported by ``bootstrap.py`` with the URI of the published ``serving.duckdb``.
"""

from __future__ import annotations

import fcntl
import os
import re
import sqlite3
import sys
import threading
from pathlib import Path

from duckdb_engine import Dialect as _DuckDBDialect
from sqlalchemy import event
from sqlalchemy.pool import Pool, QueuePool

SECRET_KEY = os.environ.get("SUPERSET_SECRET_KEY", "").strip()
if not SECRET_KEY:
    # SystemExit, not an exception: Superset would log an exception and carry on with its default key.
    raise SystemExit(
        "perfdb superset: SUPERSET_SECRET_KEY is empty; refusing to start. "
        "Set it to a long random value, e.g. `export SUPERSET_SECRET_KEY=$(openssl rand -base64 42)`."
    )

_home = Path(os.environ.get("SUPERSET_HOME") or Path.home() / ".superset")
SQLALCHEMY_DATABASE_URI = os.environ.get("SUPERSET_METADATA_URI") or f"sqlite:///{_home / 'superset.db'}"

APP_NAME = "perfdb"

# Chart results are cached per published warehouse (published_cache.py, beside this file): DuckDB
# answers the marts in milliseconds, but Superset spends 0.2-0.7 s around each chart query (measured
# on a loaded 2-core machine) against 0.1-0.2 s for a cached answer. The key holds the identity of the
# file serving.duckdb points at, so after `perfdb publish` the next view reads the new warehouse.
# bootstrap.py names the file in PERFDB_SERVING. Other caches (metadata, thumbnails) stay off.
sys.path.insert(0, str(Path(__file__).resolve().parent))
DATA_CACHE_CONFIG = {
    "CACHE_TYPE": "published_cache.PublishedWarehouseCache",
    "PERFDB_SERVING": os.environ.get("PERFDB_SERVING", "/perfdb/warehouse/serving.duckdb"),
    "CACHE_DIR": str(_home / "chart_data_cache"),
    "CACHE_THRESHOLD": 5_000,  # files; the oldest go first once it is crossed
    "CACHE_DEFAULT_TIMEOUT": 7 * 24 * 3600,  # an answer is good until the next publish anyway
}
CACHE_CONFIG = {"CACHE_TYPE": "NullCache"}

# One user at a time on a laptop, a few in a team: in-memory rate-limit storage is enough and
# keeps Superset from warning about it on every start.
RATELIMIT_STORAGE_URI = "memory://"

# -- bounded queries ---------------------------------------------------------------------------------
# SQL Lab runs synchronously in the web process (no Celery). Superset's own SQLLAB_TIMEOUT is a SIGALRM
# that only works in a main thread, never in gunicorn's worker threads, and charts have no limit at all;
# so every DuckDB connection Superset takes for a query gets a timer that interrupts it (DuckDB's
# connection.interrupt()) once PERFDB_QUERY_TIMEOUT_S have passed. The thread, the worker and the other
# users' queries carry on.
QUERY_TIMEOUT_S = int(os.environ.get("PERFDB_QUERY_TIMEOUT_S") or 60)
SQLLAB_TIMEOUT = QUERY_TIMEOUT_S
SUPERSET_WEBSERVER_TIMEOUT = QUERY_TIMEOUT_S + 60  # the browser waits for the query's own answer
# Rows: SQL Lab wraps a query in a LIMIT (at most SQL_MAX_ROW, shown DISPLAY_MAX_ROW); charts at most ROW_LIMIT.
SQL_MAX_ROW = 100_000
DISPLAY_MAX_ROW = 10_000
ROW_LIMIT = 50_000
SAMPLES_ROW_LIMIT = 1_000


# -- SQL Lab under load --------------------------------------------------------------------------------
# A query runs in one of the web workers' threads (8 per worker) until it ends or the bound above stops it.
# Sixteen expensive queries at once used to hold every thread: /health and the dashboards waited for the
# bound. So SQL Lab may run at most PERFDB_SQLLAB_PER_USER queries per user (default 2) and
# PERFDB_SQLLAB_MAX in all (default 4, half the threads of one worker), across the worker processes; a
# query past either limit is refused at once with 429 and says why, and the other threads stay free for
# dashboards and /health. A slot is an exclusive lock on a file (fcntl): the kernel frees it when the
# request ends or its worker dies, so a killed worker never leaves a slot taken.
SQLLAB_PER_USER = int(os.environ.get("PERFDB_SQLLAB_PER_USER") or 2)
SQLLAB_MAX = int(os.environ.get("PERFDB_SQLLAB_MAX") or 4)
SQLLAB_PATHS = ("/api/v1/sqllab/execute/", "/api/v1/sqllab/export/")  # both run the user's SQL on the warehouse
SQLLAB_SLOTS_DIR = _home / "sqllab_slots"


def _take_slot(prefix: str, count: int):
    """An open file holding one of ``count`` exclusive locks named ``prefix``, or None when all are held."""
    SQLLAB_SLOTS_DIR.mkdir(parents=True, exist_ok=True)
    for k in range(count):
        slot = open(SQLLAB_SLOTS_DIR / f"{prefix}-{k}.lock", "a")
        try:
            fcntl.flock(slot, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return slot
        except BlockingIOError:
            slot.close()
    return None


def _limit_sql_lab(app) -> None:
    from flask import g, jsonify, request
    from flask_login import current_user

    @app.before_request
    def _take_sql_lab_slots():
        if not request.path.startswith(SQLLAB_PATHS):
            return None
        user = current_user.get_id() if current_user and current_user.is_authenticated else request.remote_addr
        mine = _take_slot(f"user-{re.sub(r'[^A-Za-z0-9_.-]', '_', str(user))}", SQLLAB_PER_USER)
        if mine is None:
            message = (f"SQL Lab: you already have {SQLLAB_PER_USER} queries running; wait for one to finish "
                       f"(PERFDB_SQLLAB_PER_USER)")
        else:
            shared = _take_slot("all", SQLLAB_MAX)
            if shared is not None:
                g.perfdb_sqllab_slots = (mine, shared)
                return None
            mine.close()
            message = f"SQL Lab: {SQLLAB_MAX} queries are running on this server; try again when one ends (PERFDB_SQLLAB_MAX)"
        return jsonify(message=message, errors=[{"message": message, "error_type": "GENERIC_BACKEND_ERROR",
                                                 "level": "error"}]), 429

    @app.teardown_request
    def _free_sql_lab_slots(_error=None) -> None:
        for slot in g.pop("perfdb_sqllab_slots", ()):
            slot.close()  # closing the file releases its lock


FLASK_APP_MUTATOR = _limit_sql_lab


# Superset writes a filter's values into the SQL as literals. duckdb_engine keeps the PostgreSQL
# dialect's assumption that a backslash in a literal must be doubled (PostgreSQL asks the server; the
# engine skips that step), but DuckDB reads '\\PROD1' as two backslashes: a NonStop system's name
# (\PROD1) chosen in a filter matched no row. DuckDB takes a backslash in a string literal as it is.
_DuckDBDialect._backslash_escapes = False


def _is_duckdb(dbapi_connection) -> bool:
    return type(dbapi_connection).__module__.split(".")[0] == "duckdb_engine"


# Superset runs SQL Lab's and the charts' statements on a raw DBAPI cursor, past SQLAlchemy's execute
# events, but every query checks a connection out of the pool (a NullPool: a new connection per query)
# and back in when done: the bound runs from checkout to checkin. DuckDB answers an interrupted query
# with "INTERRUPT Error: Interrupted!", which SQL Lab and the chart show.
@event.listens_for(Pool, "checkout")
def _start_query_timer(dbapi_connection, connection_record, connection_proxy) -> None:
    if not _is_duckdb(dbapi_connection):
        return  # Superset's metadata database
    timer = threading.Timer(QUERY_TIMEOUT_S, dbapi_connection.interrupt)
    timer.daemon = True
    connection_record.info["perfdb_query_timer"] = timer
    timer.start()


@event.listens_for(Pool, "checkin")
def _stop_query_timer(dbapi_connection, connection_record) -> None:
    timer = connection_record.info.pop("perfdb_query_timer", None)
    if timer is not None:
        timer.cancel()


# Superset writes a row of its action log and commits on every request. On SQLite (perfdb serve's
# metadata database) each commit in the default rollback-journal mode waits for several fsyncs, and
# SQLAlchemy 1.4 opens and closes a connection per request for a SQLite file (NullPool): together 21 %
# of the web workers' time while dashboards loaded (sampled with a profiler). In WAL mode a commit
# appends to the log without syncing (synchronous=NORMAL: a power cut may lose the last log rows, never
# corrupt the file) and readers in the other worker no longer wait on a writer; the pool keeps the
# connections open (closing the last one of a WAL database checkpoints it).
if SQLALCHEMY_DATABASE_URI.startswith("sqlite:"):
    SQLALCHEMY_ENGINE_OPTIONS = {
        "poolclass": QueuePool, "pool_size": 8, "max_overflow": 8,  # a worker's 8 threads
        "connect_args": {"check_same_thread": False},  # a pooled connection serves one thread at a time
    }


@event.listens_for(Pool, "connect")
def _sqlite_write_ahead_log(dbapi_connection, connection_record) -> None:
    if isinstance(dbapi_connection, sqlite3.Connection):
        dbapi_connection.execute("pragma journal_mode=wal")
        dbapi_connection.execute("pragma synchronous=normal")

# Nothing leaves the machine: the default policy lets the page load a telemetry pixel, map tiles
# and web fonts from third-party hosts. perfdb's dashboards need none of them.
TALISMAN_ENABLED = True
TALISMAN_CONFIG = {
    "content_security_policy": {
        "base-uri": ["'self'"],
        "default-src": ["'self'"],
        "img-src": ["'self'", "blob:", "data:"],
        "worker-src": ["'self'", "blob:"],
        "connect-src": ["'self'"],
        "object-src": "'none'",
        "style-src": ["'self'", "'unsafe-inline'"],
        "font-src": ["'self'", "data:"],
        "script-src": ["'self'", "'strict-dynamic'"],
    },
    "content_security_policy_nonce_in": ["script-src"],
    "force_https": False,
    "session_cookie_secure": os.environ.get("SUPERSET_COOKIE_SECURE", "false").lower() == "true",
}
THEME_FONT_URL_ALLOWED_DOMAINS: list[str] = []

# Behind the docker stack's published port or a reverse proxy, trust X-Forwarded-* headers.
ENABLE_PROXY_FIX = os.environ.get("SUPERSET_ENABLE_PROXY_FIX", "false").lower() == "true"
