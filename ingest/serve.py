"""``perfdb serve``: Superset on localhost with the perfdb dashboards, reading the published warehouse.

Superset cannot share this environment (it needs SQLAlchemy < 2, Airflow needs >= 2), so it runs from
its own virtualenv, ``.venv-superset`` beside the repository's ``.venv`` (or ``$PERFDB_SUPERSET_VENV``),
made with uv from ``dashboards/requirements.lock`` on first use and re-synced on every start (a no-op
when nothing changed). ``dashboards/bootstrap.py`` then migrates Superset's metadata database
(SQLite in ``<home>/superset/``), creates the admin user, imports the dashboards with the database
pointed at ``<home>/warehouse/serving.duckdb`` (read-only, no file or network access) and serves.

Secrets come only from the environment: ``SUPERSET_SECRET_KEY`` and ``SUPERSET_ADMIN_PASSWORD`` must be
set (``SUPERSET_ADMIN_USERNAME`` defaults to ``admin``); nothing starts without them.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from ingest.cli_options import home_of, subcommand
from ingest.home import Home

REPO = Path(__file__).resolve().parents[1]
DASHBOARDS = REPO / "dashboards"
LOCK = DASHBOARDS / "requirements.lock"
BOOTSTRAP = DASHBOARDS / "bootstrap.py"
SUPERSET_PYTHON_VERSION = "3.11"
REQUIRED_ENV = {
    "SUPERSET_SECRET_KEY": "a long random value, e.g. `export SUPERSET_SECRET_KEY=$(openssl rand -base64 42)`",
    "SUPERSET_ADMIN_PASSWORD": "the password of Superset's admin user",
}


class ServeError(Exception):
    """Something the user has to fix before Superset can start; the message says what."""


def superset_venv() -> Path:
    return Path(os.environ.get("PERFDB_SUPERSET_VENV") or REPO / ".venv-superset")


def superset_python(venv: Path | None = None) -> Path:
    return (venv or superset_venv()) / "bin" / "python"


def ensure_superset_venv(venv: Path | None = None) -> Path:
    """Create or re-sync Superset's virtualenv from the lock file; returns its python."""
    venv = venv or superset_venv()
    python = superset_python(venv)
    uv = shutil.which("uv")
    if uv is None:
        if python.exists():
            return python  # cannot re-sync without uv; use what is there
        raise ServeError(f"{venv} does not exist and uv is not installed to create it (https://docs.astral.sh/uv/)")
    if not python.exists():
        print(f"perfdb serve: creating {venv} from {LOCK.relative_to(REPO)}", file=sys.stderr)
        subprocess.run([uv, "venv", "--quiet", "--python", SUPERSET_PYTHON_VERSION, str(venv)], check=True)
    subprocess.run([uv, "pip", "sync", "--quiet", "--python", str(python), str(LOCK)], check=True)
    return python


def superset_env(home: Home) -> dict[str, str]:
    missing = [f"{name} ({hint})" for name, hint in REQUIRED_ENV.items() if not os.environ.get(name, "").strip()]
    if missing:
        raise ServeError("refusing to start Superset without " + "; ".join(missing))
    env = dict(os.environ)
    env.setdefault("SUPERSET_HOME", str(home.root / "superset"))
    env["SUPERSET_CONFIG_PATH"] = str(DASHBOARDS / "superset_config.py")
    return env


def bootstrap_command(python: Path, home: Home, host: str, port: int) -> list[str]:
    return [str(python), str(BOOTSTRAP), "--serving", str(home.serving_path), "--host", host, "--port", str(port)]


def serve(home: Home, port: int = 8088, host: str = "127.0.0.1") -> int:
    """Set up Superset for ``home`` and serve it until interrupted; returns the exit status."""
    try:
        env = superset_env(home)
        if not home.serving_path.exists():
            raise ServeError(f"{home.serving_path} does not exist yet: run `perfdb run` (or `perfdb demo`) first")
        python = ensure_superset_venv()
    except (ServeError, subprocess.CalledProcessError) as e:
        print(f"perfdb serve: {e}", file=sys.stderr)
        return 1
    print(f"perfdb serve: dashboards on http://{host}:{port}/ (Ctrl-C stops)", file=sys.stderr)
    try:
        return subprocess.run(bootstrap_command(python, home, host, port), env=env).returncode
    except KeyboardInterrupt:
        return 130


def cmd_serve(args) -> int:
    return serve(home_of(args), port=args.port, host=args.host)


def add_parser(subparsers) -> None:
    s = subcommand(subparsers, "serve", cmd_serve, help="Superset with the perfdb dashboards on localhost")
    s.add_argument("--port", type=int, default=8088)
    s.add_argument("--host", default="127.0.0.1", help="address to listen on (default: localhost only)")
