"""``perfdb docs``: dbt's documentation site (every model, column and test, and the lineage graph from the raw
sources to the marts and the dashboards) beside Great Expectations' Data Docs, written into the home::

    $ perfdb --home perfdb_home docs
    dbt docs (models, columns, lineage graph): perfdb_home/warehouse/dbt_docs/index.html
    GX Data Docs (validation results):         perfdb_home/warehouse/docs/index.html

``dbt docs generate --static`` makes one self-contained page (manifest and catalog inside), so the file opens
from disc without a server. ``--serve`` serves both sites on 127.0.0.1 (and nothing else of the home: the
databases are not reachable) until Ctrl-C.
"""

from __future__ import annotations

import functools
import http.server
import json
import shutil
import sys
from pathlib import Path

from ingest.cli_options import home_of, subcommand
from ingest.home import Home
from ingest.output import shown

SITES = {  # URL folder -> (folder under warehouse/, what it shows)
    "dbt_docs": "dbt docs (models, columns, lineage graph)",
    "docs": "GX Data Docs (validation results)",
}
INDEX = """<!doctype html><html><head><meta charset="utf-8"><title>perfdb docs</title></head><body>
<h1>perfdb documentation</h1><ul>{items}</ul></body></html>"""


def dbt_docs_path(home: Home) -> Path:
    return home.warehouse_dir / "dbt_docs" / "index.html"


def generate(home: Home, *, quiet: bool = False) -> Path | None:
    """dbt's static docs page of the home's warehouse, copied to ``warehouse/dbt_docs/index.html``."""
    from ingest import dbt_runner

    if not home.db_path.exists():
        raise FileNotFoundError(f"{home.db_path} does not exist: run `perfdb run` (or ingest and build) first")
    if dbt_runner.run_dbt(home, ["docs", "generate", "--static"], quiet=quiet) != 0:
        return None
    target = dbt_docs_path(home)
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(dbt_runner.target_dir(home) / "static_index.html", target)
    return target


def sites(home: Home) -> dict[str, Path]:
    """The sites that exist, by URL folder."""
    found = {name: home.warehouse_dir / name / "index.html" for name in SITES}
    return {name: path for name, path in found.items() if path.exists()}


class _DocsHandler(http.server.SimpleHTTPRequestHandler):
    """Serves ``/`` (links to the sites) and files below the site folders only."""

    def __init__(self, *args, home: Home, **kwargs):
        self.home = home
        super().__init__(*args, directory=str(home.warehouse_dir), **kwargs)

    def do_GET(self):  # noqa: N802 (http.server's name)
        path = self.path.split("?", 1)[0]
        if path == "/":
            items = "".join(f'<li><a href="/{name}/index.html">{SITES[name]}</a></li>' for name in sites(self.home))
            body = INDEX.format(items=items or "<li>nothing generated yet: run perfdb docs</li>").encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        elif path.strip("/").split("/")[0] in SITES and ".." not in path:
            super().do_GET()
        else:
            self.send_error(404, "only the documentation sites are served")

    def log_message(self, format, *args):  # one quiet line per request is noise on a terminal
        pass


def server(home: Home, port: int, host: str = "127.0.0.1") -> http.server.ThreadingHTTPServer:
    return http.server.ThreadingHTTPServer((host, port), functools.partial(_DocsHandler, home=home))


def cmd_docs(args) -> int:
    home = home_of(args)
    if not args.no_generate:
        if generate(home.create(), quiet=args.json) is None:
            print("perfdb docs: dbt docs generate failed (see above)", file=sys.stderr)
            return 1
    found = sites(home)
    if args.json:
        print(json.dumps({name: str(found[name]) if name in found else None for name in SITES}, indent=2))
    else:
        width = max(len(text) for text in SITES.values()) + 1
        for name, text in SITES.items():
            where = shown(found[name]) if name in found else "not generated yet (`perfdb check` writes it)"
            print(f"{text + ':':<{width}} {where}")
    if not args.serve:
        return 0
    httpd = server(home, args.port)
    print(f"perfdb docs: serving on http://127.0.0.1:{httpd.server_address[1]}/ (Ctrl-C stops)",
          file=sys.stderr, flush=True)
    sys.stdout.flush()
    try:
        httpd.serve_forever()
    except KeyboardInterrupt:
        return 0
    finally:
        httpd.server_close()
    return 0


def add_parser(subparsers) -> None:
    p = subcommand(subparsers, "docs", cmd_docs, help="write (or serve) dbt's docs site beside the GX Data Docs")
    p.add_argument("--serve", action="store_true", help="serve both sites on 127.0.0.1 until Ctrl-C")
    p.add_argument("--port", type=int, default=8580, help="port for --serve (default %(default)s; 0: any free one)")
    p.add_argument("--no-generate", action="store_true", help="serve or list what was generated before")
