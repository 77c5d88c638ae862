"""``perfdb serve``: Superset on localhost with the perfdb dashboards, reading the published warehouse.

Superset cannot share this environment (it needs SQLAlchemy < 2, Airflow needs >= 2), so it runs from
its own virtualenv, ``.venv-superset`` beside the repository's ``.venv`` (or ``$PERFDB_SUPERSET_VENV``),
made with uv from ``dashboards/requirements.lock`` on first use and re-synced on every start (a no-op
when nothing changed). ``dashboards/bootstrap.py`` then migrates Superset's metadata database
(SQLite in ``<home>/superset/``), creates the admin user (once: a later start keeps its password), imports
the dashboards with the database pointed at ``<home>/warehouse/serving.duckdb`` (read-only, no file or
network access) and serves them with gunicorn (``--workers`` processes of 8 threads each; ``--dev`` uses
Flask's development server instead, one process, for working on the dashboards).

Once Superset answers, every dashboard's charts are warmed (``ingest/dashboard_warmup.py``; ``--no-warm``
skips it): the import gives the datasets new change times, which are part of the chart cache's keys, so
without it the first analyst after a start would wait for every chart query.

Secrets come only from the environment: ``SUPERSET_SECRET_KEY`` and ``SUPERSET_ADMIN_PASSWORD`` must be
set (``SUPERSET_ADMIN_USERNAME`` defaults to ``admin``); nothing starts without them. ``--env-file FILE``
(``make up`` passes ``.env``; ``ingest/env_file.py``) fills in the names the environment does not set: a
value exported in the shell wins over the file.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import threading
from pathlib import Path

from ingest import dashboard_warmup
from ingest.cli_options import home_of, subcommand
from ingest.env_file import SettingError, load_env_file
from ingest.home import Home
from ingest.superset_api import SupersetError

REPO = Path(__file__).resolve().parents[1]
DASHBOARDS = REPO / "dashboards"
LOCK = DASHBOARDS / "requirements.lock"
BOOTSTRAP = DASHBOARDS / "bootstrap.py"
SUPERSET_PYTHON_VERSION = "3.11"
REQUIRED_ENV = {
    "SUPERSET_SECRET_KEY": "a long random value, e.g. `export SUPERSET_SECRET_KEY=$(openssl rand -base64 42)`",
    "SUPERSET_ADMIN_PASSWORD": "the password of Superset's admin user",
}


DEFAULT_WORKERS = 2  # gunicorn processes; each holds one Superset app (about 300 MB) and serves 8 threads


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


def bootstrap_command(python: Path, home: Home, host: str, port: int, *, dev: bool = False,
                      workers: int = DEFAULT_WORKERS) -> list[str]:
    return [str(python), str(BOOTSTRAP), "--serving", str(home.serving_path), "--host", host, "--port", str(port),
            "--server", "werkzeug" if dev else "gunicorn", "--workers", str(workers)]


def local_url(host: str, port: int) -> str:
    """Where this machine reaches a server listening on ``host`` (every address: the loopback one)."""
    return f"http://{'127.0.0.1' if host in ('', '0.0.0.0', '::') else host}:{port}"


def warm_once_up(url: str, server: subprocess.Popen) -> None:
    """Warm the dashboards once Superset at ``url`` answers; one line says how it went (never fatal)."""
    try:
        if not dashboard_warmup.wait_until_up(url, server.poll):
            return  # Superset stopped, or never came up: its own log says why
        warmed = dashboard_warmup.warm(dashboard_warmup.as_admin(url, os.environ["SUPERSET_ADMIN_PASSWORD"]))
    except (SupersetError, OSError, ValueError, KeyError) as e:  # an answer not as expected, too
        print(f"perfdb serve: the dashboards were not warmed: {e}", file=sys.stderr, flush=True)
        return
    print(f"perfdb serve: {dashboard_warmup.summary(warmed)}", file=sys.stderr, flush=True)


def serve(home: Home, port: int = 8088, host: str = "127.0.0.1", *, env_file: Path | None = None, dev: bool = False,
          workers: int = DEFAULT_WORKERS, warm: bool = True) -> int:
    """Set up Superset for ``home`` and serve it until interrupted; returns the exit status."""
    try:
        if env_file is not None and env_file.is_file():
            taken = load_env_file(env_file)
            print(f"perfdb serve: from {env_file}: {', '.join(taken) or 'nothing (the environment sets it all)'}",
                  file=sys.stderr)
        env = superset_env(home)
        if not home.serving_path.exists():
            raise ServeError(f"{home.serving_path} does not exist yet: run `perfdb run` (or `perfdb demo`) first")
        python = ensure_superset_venv()
    except (ServeError, SettingError, subprocess.CalledProcessError) as e:
        print(f"perfdb serve: {e}", file=sys.stderr)
        return 1
    print(f"perfdb serve: dashboards on http://{host}:{port}/ (Ctrl-C stops)", file=sys.stderr)
    server = subprocess.Popen(bootstrap_command(python, home, host, port, dev=dev, workers=workers), env=env)
    if threading.current_thread() is threading.main_thread():
        # a service manager stops `perfdb serve` with SIGTERM: Superset (gunicorn) stops with it
        signal.signal(signal.SIGTERM, lambda signum, frame: server.terminate())
    if warm:
        threading.Thread(target=warm_once_up, args=(local_url(host, port), server), daemon=True).start()
    try:
        return server.wait()
    except KeyboardInterrupt:  # the terminal sent SIGINT to Superset too: let it stop on its own
        try:
            server.wait(timeout=30)
        except (subprocess.TimeoutExpired, KeyboardInterrupt):
            server.kill()
        return 130


def cmd_serve(args) -> int:
    return serve(home_of(args), port=args.port, host=args.host, env_file=args.env_file, dev=args.dev,
                 workers=args.workers, warm=not args.no_warm)


def add_parser(subparsers) -> None:
    s = subcommand(subparsers, "serve", cmd_serve, help="Superset with the perfdb dashboards on localhost")
    s.add_argument("--port", type=int, default=8088)
    s.add_argument("--host", default="127.0.0.1", help="address to listen on (default: localhost only)")
    s.add_argument("--env-file", type=Path, help="NAME=value settings for what the environment does not set (e.g. .env)")
    s.add_argument("--workers", type=int, default=int(os.environ.get("SUPERSET_WORKERS") or DEFAULT_WORKERS),
                   help=f"gunicorn worker processes, 8 threads each (default $SUPERSET_WORKERS or {DEFAULT_WORKERS})")
    s.add_argument("--dev", action="store_true", help="Flask's development server (one process) instead of gunicorn")
    s.add_argument("--no-warm", action="store_true",
                   help="do not fill the chart cache once Superset is up (the first view of each chart then queries)")
