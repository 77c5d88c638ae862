"""Superset configuration for perfdb (loaded through ``SUPERSET_CONFIG_PATH``).

Everything secret or site-specific comes from the environment; nothing here has a usable default:

    SUPERSET_SECRET_KEY     signs sessions and encrypts stored connection secrets (required)
    SUPERSET_METADATA_URI   Superset's own metadata database (default: SQLite under $SUPERSET_HOME)
    SUPERSET_HOME           where the SQLite metadata database lives (default ~/.superset)

The perfdb database connection itself is not configured here: it comes from the bundle in this
folder, imported by ``bootstrap.py`` with the URI of the published ``serving.duckdb``.
"""

from __future__ import annotations

import os
from pathlib import Path

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

# No result cache: after `perfdb publish` the next chart query must show the new warehouse, and
# DuckDB answers these marts in milliseconds anyway.
DATA_CACHE_CONFIG = {"CACHE_TYPE": "NullCache"}
CACHE_CONFIG = {"CACHE_TYPE": "NullCache"}

# One user at a time on a laptop, a few in a team: in-memory rate-limit storage is enough and
# keeps Superset from warning about it on every start.
RATELIMIT_STORAGE_URI = "memory://"

# SQL Lab runs synchronously in the web process (no Celery); warehouse queries are short.
SQLLAB_TIMEOUT = 60
SUPERSET_WEBSERVER_TIMEOUT = 120

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
