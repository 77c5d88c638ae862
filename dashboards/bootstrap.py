"""Set up Superset for perfdb and start it. Runs inside Superset's own virtualenv (or image).

    python dashboards/bootstrap.py --serving PATH/TO/serving.duckdb [--host 127.0.0.1] [--port 8088]
                                   [--server werkzeug|gunicorn] [--workers 2] [--no-serve]

Every step is idempotent, so this runs on every start:

1. refuse to start when ``SUPERSET_SECRET_KEY`` or ``SUPERSET_ADMIN_PASSWORD`` is empty;
2. ``superset db upgrade``: create or migrate the metadata database (SQLite under ``SUPERSET_HOME``
   unless ``SUPERSET_METADATA_URI`` names another one);
3. ``superset init``: roles and permissions;
4. the admin user from ``SUPERSET_ADMIN_USERNAME`` (default ``admin``), ``SUPERSET_ADMIN_PASSWORD``
   and ``SUPERSET_ADMIN_EMAIL``, created on the first start; later starts keep its password;
5. zip the YAML bundle beside this script, with the perfdb database pointed at ``--serving``
   (read-only, DuckDB external access disabled, configuration locked, memory and spill bounded) and the dashboards' filters
   scoped without chart ids, and import it: databases,
   datasets, charts, then dashboards, each overwriting what an earlier start imported;
6. start the web server (``gunicorn``, the default: ``--workers`` processes of 8 threads each, what
   ``perfdb serve`` and the docker image run; ``werkzeug``: this process, threaded, for development).

Steps 2 to 4 are what the ``superset db upgrade`` / ``fab create-admin`` / ``superset init``
commands do, run in this one process so Superset's app is built once instead of four times.
Step 5 is ``superset import-dashboards`` with two fixes: that command never overwrites the
databases, datasets and charts a dashboard refers to (so an edited bundle would not take effect),
and it keeps whatever URI the zip holds (so the URI is written into the zip here).
"""

from __future__ import annotations

import argparse
import io
import os
import sys
import zipfile
from pathlib import Path

import yaml

BUNDLE_DIR = Path(__file__).resolve().parent
BUNDLE_FOLDERS = ("databases", "datasets", "charts", "dashboards")
BUNDLE_ROOT = "perfdb_dashboards"  # the top folder inside the zip, as in a Superset export

# Whatever the YAML says, the perfdb connection is opened like this: DuckDB allows many read-only
# processes on a file, and a reader without file or network access cannot read the server's files
# (read_csv('/etc/passwd')) or URLs from SQL Lab; locked configuration means SQL Lab cannot SET
# its way back out, nor past the memory and spill bounds below.
def duckdb_connect_args(workers: int, home: Path) -> dict:
    """The DuckDB connection of every web worker.

    DuckDB's default memory limit is 80 % of the machine per process, so two workers could claim 160 %
    (one SQL Lab query grew a worker to 3.4 GB): each worker gets PERFDB_QUERY_MEMORY_LIMIT (default a
    quarter of the machine's memory shared by the workers), and a query that needs more spills to
    ``<SUPERSET_HOME>/duckdb_tmp`` up to PERFDB_QUERY_TEMP_LIMIT (default 4GB), then fails with DuckDB's
    own "Out of Memory" message.
    """
    ram = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    config = {
        "enable_external_access": False,
        "lock_configuration": True,
        "memory_limit": os.environ.get("PERFDB_QUERY_MEMORY_LIMIT", "").strip() or f"{ram // 4 // max(workers, 1) // 2**20}MB",
        "max_temp_directory_size": os.environ.get("PERFDB_QUERY_TEMP_LIMIT", "").strip() or "4GB",
        "temp_directory": str(home / "duckdb_tmp"),
    }
    import duckdb

    try:  # a size DuckDB cannot read would fail every query later; say so now, with the variable's name
        duckdb.connect(":memory:", config={k: config[k] for k in ("memory_limit", "max_temp_directory_size")}).close()
    except duckdb.Error as e:
        fail(f"PERFDB_QUERY_MEMORY_LIMIT or PERFDB_QUERY_TEMP_LIMIT is not a DuckDB size such as 2GB: {e}")
    return {"read_only": True, "config": config}


def fail(message: str) -> None:
    print(f"perfdb superset: {message}", file=sys.stderr)
    raise SystemExit(2)


def required_env(name: str, hint: str) -> str:
    value = os.environ.get(name, "").strip()
    if not value:
        fail(f"{name} is empty; refusing to start. {hint}")
    return value


def duckdb_uri(serving: Path) -> str:
    # duckdb_engine takes the file path as the URL's database part: duckdb:////abs/path.duckdb
    return "duckdb:///" + str(serving)


def bundle_zip(serving: Path, connect_args: dict) -> bytes:
    """The bundle in this folder as a Superset import zip, the database URI pointed at ``serving`` and
    opened with ``connect_args``."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.write(BUNDLE_DIR / "metadata.yaml", f"{BUNDLE_ROOT}/metadata.yaml")
        for folder in BUNDLE_FOLDERS:
            for path in sorted((BUNDLE_DIR / folder).rglob("*.yaml")):
                text = path.read_text(encoding="utf-8")
                if folder == "databases":
                    config = yaml.safe_load(text)
                    config["sqlalchemy_uri"] = duckdb_uri(serving)
                    config["allow_dml"] = False
                    config["allow_file_upload"] = False
                    extra = config.setdefault("extra", {}) or {}
                    extra.setdefault("engine_params", {})["connect_args"] = connect_args
                    config["extra"] = extra
                    text = yaml.safe_dump(config, sort_keys=False)
                elif folder == "dashboards":
                    text = yaml.safe_dump(without_chart_ids_in_scope(yaml.safe_load(text)), sort_keys=False)
                zf.writestr(f"{BUNDLE_ROOT}/{path.relative_to(BUNDLE_DIR).as_posix()}", text)
    return buf.getvalue()


def without_chart_ids_in_scope(dashboard: dict) -> dict:
    """The dashboard without the chart ids its filters list as in scope.

    Those are the ids of the Superset that exported the bundle; the import renumbers the charts (in
    file order, so a chart added to the bundle shifts the others) but keeps these lists as they are, and
    the browser applies a filter only to the charts its list names. Without a list, a filter applies to
    every chart of its scope (``scope.rootPath`` less ``scope.excluded``, which the import does renumber).
    """
    metadata = dashboard.get("metadata") or {}
    for native_filter in metadata.get("native_filter_configuration", []):
        native_filter.pop("chartsInScope", None)
    (metadata.get("global_chart_configuration") or {}).pop("chartsInScope", None)
    return dashboard


def contents_as(contents: dict[str, str], model_type: str) -> dict[str, str]:
    """The same files, declared as an export of ``model_type``: each import command checks that."""
    metadata = yaml.safe_load(contents["metadata.yaml"])
    metadata["type"] = model_type
    return {**contents, "metadata.yaml": yaml.safe_dump(metadata)}


def setup(app, serving: Path, admin: dict[str, str], zip_path: Path, connect_args: dict) -> None:
    from flask_migrate import upgrade

    from superset import db, security_manager
    from superset.commands.chart.importers.v1 import ImportChartsCommand
    from superset.commands.dashboard.importers.v1 import ImportDashboardsCommand
    from superset.commands.database.importers.v1 import ImportDatabasesCommand
    from superset.commands.dataset.importers.v1 import ImportDatasetsCommand
    from superset.commands.importers.v1.utils import get_contents_from_bundle
    from superset.extensions import appbuilder
    from superset.utils.core import override_user

    with app.app_context():
        print("perfdb superset: migrating the metadata database", file=sys.stderr)
        upgrade()

        print("perfdb superset: syncing roles and permissions", file=sys.stderr)
        appbuilder.add_permissions(update_perms=True)
        security_manager.sync_role_definitions()
        db.session.commit()

        user = security_manager.find_user(username=admin["username"])
        if user is None:
            role = security_manager.find_role(security_manager.auth_role_admin)
            user = security_manager.add_user(
                admin["username"], "perfdb", "admin", admin["email"], role, password=admin["password"]
            )
            if not user:
                fail(f"could not create the admin user {admin['username']!r}")
            print(f"perfdb superset: created admin user {admin['username']!r}", file=sys.stderr)
        else:
            # set once, when the user is created: a password changed in Superset survives a restart
            print(f"perfdb superset: admin user {admin['username']!r} exists; its password is kept "
                  "(`superset fab reset-password` changes it)", file=sys.stderr)
        db.session.commit()

        zip_path.write_bytes(bundle_zip(serving, connect_args))
        with zipfile.ZipFile(zip_path) as zf:
            contents = get_contents_from_bundle(zf)
        with override_user(user):
            ImportDatabasesCommand(contents_as(contents, "Database"), overwrite=True).run()
            ImportDatasetsCommand(contents_as(contents, "SqlaTable"), overwrite=True).run()
            ImportChartsCommand(contents_as(contents, "Slice"), overwrite=True).run()
            ImportDashboardsCommand(contents_as(contents, "Dashboard"), overwrite=True).run()
        print(f"perfdb superset: imported {zip_path} (database: {serving})", file=sys.stderr)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description="Set up Superset for perfdb and start it.")
    p.add_argument("--serving", required=True, type=Path, help="the published serving.duckdb")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8088)
    p.add_argument("--server", choices=["werkzeug", "gunicorn"], default="gunicorn")
    p.add_argument("--workers", type=int, default=2, help="gunicorn worker processes")
    p.add_argument("--no-serve", action="store_true", help="set up and import, then exit (an init job)")
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    required_env("SUPERSET_SECRET_KEY", "Set it to a long random value, e.g. `openssl rand -base64 42`.")
    admin = {
        "username": os.environ.get("SUPERSET_ADMIN_USERNAME", "").strip() or "admin",
        "password": required_env("SUPERSET_ADMIN_PASSWORD", "Choose the password of Superset's admin user."),
        "email": os.environ.get("SUPERSET_ADMIN_EMAIL", "").strip() or "admin@localhost",
    }
    os.environ.setdefault("SUPERSET_CONFIG_PATH", str(BUNDLE_DIR / "superset_config.py"))
    home = Path(os.environ.setdefault("SUPERSET_HOME", str(Path.home() / ".superset")))
    home.mkdir(parents=True, exist_ok=True)
    # absolute, but not resolved: serving.duckdb is a link that each publish points at the other slot,
    # and Superset must follow it on every query, not stay on the slot it pointed at when this started
    serving = Path(os.path.abspath(args.serving))
    # the chart-data cache keys its entries by the file this link points at (superset_config.py);
    # gunicorn's workers inherit it
    os.environ["PERFDB_SERVING"] = str(serving)
    if not serving.exists():
        print(
            f"perfdb superset: warning: {serving} does not exist yet; charts fail until `perfdb publish` writes it",
            file=sys.stderr,
        )

    connect_args = duckdb_connect_args(args.workers if args.server == "gunicorn" else 1, home)

    from superset.app import create_app

    app = create_app()
    setup(app, serving, admin, home / "perfdb_dashboards.zip", connect_args)
    if args.no_serve:
        return 0

    print(f"perfdb superset: serving on http://{args.host}:{args.port}/", file=sys.stderr, flush=True)
    if args.server == "gunicorn":
        gunicorn = Path(sys.executable).with_name("gunicorn")
        os.execv(str(gunicorn), [
            str(gunicorn), "--bind", f"{args.host}:{args.port}", "--workers", str(args.workers),
            "--worker-class", "gthread", "--threads", "8", "--timeout", "120",
            "--access-logfile", "-", "superset.app:create_app()",
        ])
    from werkzeug.serving import run_simple

    run_simple(args.host, args.port, app, threaded=True, use_reloader=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
