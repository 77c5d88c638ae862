"""Export the perfdb dashboards from a running Superset back into this folder.

The round trip for changing a dashboard: ``perfdb serve``, edit charts and dashboards in the browser
and save them, then

    SUPERSET_ADMIN_PASSWORD=... .venv-superset/bin/python dashboards/export.py [--url http://127.0.0.1:8088]

and review the diff. Every dashboard whose slug starts with ``perfdb-`` is exported with its charts
and datasets, replacing the files here. Files are named after what they hold (chart title, dataset
table, dashboard slug), not Superset's ids, so the same object always lands in the same file.
``databases/perfdb.yaml`` and ``metadata.yaml`` are kept as they are: the exported database holds this
machine's path, and the connection settings in the repository are the ones that count.
"""

from __future__ import annotations

import argparse
import io
import os
import re
import sys
import zipfile
from pathlib import Path

import yaml

BUNDLE_DIR = Path(__file__).resolve().parent
# run from Superset's virtualenv, where perfdb is not installed: its REST client is the repository's (stdlib only)
sys.path.append(str(BUNDLE_DIR.parent))
from ingest.superset_api import SupersetApi, SupersetError  # noqa: E402

EXPORTED_FOLDERS = ("datasets", "charts", "dashboards")
SLUG_PREFIX = "perfdb-"


class _Dumper(yaml.SafeDumper):
    """Multi-line strings (a dataset's SQL, a dashboard's markdown) as readable literal blocks."""


def _str(dumper: yaml.SafeDumper, value: str):
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _str)


def readable(text: str) -> str:
    return yaml.dump(yaml.safe_load(text), Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=120)


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")


def file_name(folder: str, config: dict) -> str:
    if folder == "charts":
        return f"charts/{slug(config['slice_name'])}.yaml"
    if folder == "datasets":
        return f"datasets/{config['schema']}/{config['table_name']}.yaml"
    return f"dashboards/{config['slug']}.yaml"


def export(superset: SupersetApi) -> dict[str, str]:
    """The perfdb dashboards as {path in this folder: YAML text}."""
    dashboards = superset.all("dashboard")
    ids = sorted(d["id"] for d in dashboards if (d.get("slug") or "").startswith(SLUG_PREFIX))
    if not ids:
        raise SystemExit(f"export: no dashboard with a slug starting {SLUG_PREFIX!r} on {superset.url}")
    payload = superset.get("/api/v1/dashboard/export/", {"q": f"!({','.join(map(str, ids))})"}).raise_for_status().content
    files: dict[str, str] = {}
    with zipfile.ZipFile(io.BytesIO(payload)) as zf:
        for name in zf.namelist():
            inner = name.split("/", 1)[1]  # drop the zip's top folder
            folder = inner.split("/", 1)[0]
            if folder in EXPORTED_FOLDERS:
                text = zf.read(name).decode("utf-8")
                files[file_name(folder, yaml.safe_load(text))] = readable(text)
    return files


def write(files: dict[str, str]) -> None:
    for folder in EXPORTED_FOLDERS:
        for stale in (BUNDLE_DIR / folder).rglob("*.yaml"):
            stale.unlink()
    for relative, text in sorted(files.items()):
        path = BUNDLE_DIR / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        print(f"export: {relative}", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="Export the perfdb dashboards from Superset into dashboards/.")
    p.add_argument("--url", default="http://127.0.0.1:8088")
    p.add_argument("--username", default=os.environ.get("SUPERSET_ADMIN_USERNAME") or "admin")
    args = p.parse_args(argv)
    password = os.environ.get("SUPERSET_ADMIN_PASSWORD", "")
    if not password:
        print("export: set SUPERSET_ADMIN_PASSWORD to log in", file=sys.stderr)
        return 2
    try:
        write(export(SupersetApi(args.url, args.username, password)))
    except SupersetError as e:
        print(f"export: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
