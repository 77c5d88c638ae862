"""``perfdb dashboards warm``: fill Superset's chart-data cache for the warehouse just published.

Superset caches chart answers per published warehouse (``dashboards/published_cache.py``), so after
``perfdb publish`` the first analyst to open a dashboard would wait for every chart query. This asks
Superset, through its REST API, for every dashboard chart's data exactly as the browser's first view
does, so that the browser's requests find their answers in the cache.

Superset's own warm-up (the ``cache-warmup`` Celery task, ``PUT /api/v1/chart/warm_up_cache``) misses
the browser's cache keys here: it applies a dashboard's legacy ``default_filters``, not its native
filters, so the first system a System filter selects and a Date range filter's ``time_range`` are left
out of the key. Instead, for each dashboard:

1. each select filter's values are queried as the filter asks for them (its column, ascending, at most
   ``NATIVE_FILTER_DEFAULT_ROW_LIMIT`` rows); a filter that picks its first value by default then
   applies ``<column> IN (<first value>)`` (the System filters: ``system_name IN ('SYSA')``), as the
   browser does before any chart queries;
2. each chart's saved query (``query_context``, written when the chart is saved in Superset) gets the
   defaults of the filters whose scope holds it: their filters in front of its own, a time filter's
   ``time_range``; and is posted to ``/api/v1/chart/data``.

A chart whose saved query no longer matches its settings (edited but never saved in the chart editor)
is warmed under a key the browser does not ask for; ``tests/stack/test_browser.py`` says so.

Superset is ``--url`` (default ``$PERFDB_SUPERSET_URL`` or http://127.0.0.1:8088), the login
``SUPERSET_ADMIN_USERNAME`` (default ``admin``) and ``SUPERSET_ADMIN_PASSWORD``, from the environment
as ``perfdb serve`` takes them (``--env-file`` fills in what the environment does not set).
"""

from __future__ import annotations

import json
import os
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

from ingest.cli_options import subcommand
from ingest.env_file import SettingError, load_env_file
from ingest.superset_api import SupersetApi, SupersetError

DEFAULT_URL = "http://127.0.0.1:8088"
# the rows a select filter asks for its values (Superset's NATIVE_FILTER_DEFAULT_ROW_LIMIT)
FILTER_ROW_LIMIT = 1000
START_TIMEOUT_S = 600  # a first start migrates Superset's database and imports the bundle: minutes on 2 cores


@dataclass
class Warmed:
    """One dashboard's warm-up: chart queries asked for, how many were in the cache already, failures."""

    slug: str
    queries: int = 0
    cached_before: int = 0
    seconds: float = 0.0
    errors: list[str] = field(default_factory=list)

    def line(self) -> str:
        state = f"; {len(self.errors)} failed: {'; '.join(self.errors[:3])}" if self.errors else ""
        return (f"{self.slug}: {self.queries} chart queries warmed ({self.cached_before} were cached already) "
                f"in {self.seconds:.1f} s{state}")


def filter_values_query(native_filter: dict) -> dict:
    """The query a select filter sends for its values, as Superset's filter_select plugin builds it."""
    [target] = native_filter["targets"]
    column = target["column"]["name"]
    return {
        "datasource": {"id": target["datasetId"], "type": "table"},
        "force": False,
        "queries": [{
            "filters": [], "extras": {"having": "", "where": ""}, "columns": [column], "metrics": [],
            "orderby": [[column, native_filter["controlValues"].get("sortAscending", True)]],
            "row_limit": FILTER_ROW_LIMIT, "series_limit": 0, "order_desc": True,
        }],
        "result_format": "json",
        "result_type": "full",
    }


def in_scope(native_filter: dict, chart_id: int) -> bool:
    """Whether a dashboard-wide filter applies to the chart (perfdb's filters are scoped to the root)."""
    scope = native_filter.get("scope") or {}
    return chart_id not in scope.get("excluded", [])


def chart_query(saved: dict, defaults: list[dict]) -> dict:
    """The chart's saved query with the filter defaults (``extraFormData``) applied as the browser does."""
    query_context = json.loads(json.dumps(saved))
    for query in query_context["queries"]:
        query["filters"] = [f for extra in defaults for f in extra.get("filters", [])] + query.get("filters", [])
        for extra in defaults:
            if "time_range" in extra:
                query["time_range"] = extra["time_range"]
    return query_context


def count_cached(results: list[dict]) -> int:
    return sum(1 for r in results if r.get("is_cached"))


def warm_dashboard(superset: SupersetApi, dashboard: dict) -> Warmed:
    started = time.monotonic()
    warmed = Warmed(dashboard["slug"] or str(dashboard["id"]))
    metadata = json.loads(superset.result(f"/api/v1/dashboard/{dashboard['id']}")["json_metadata"] or "{}")
    defaults: list[tuple[dict, dict]] = []  # (filter, its default extraFormData)
    for native_filter in metadata.get("native_filter_configuration", []):
        extra = dict((native_filter.get("defaultDataMask") or {}).get("extraFormData") or {})
        if native_filter["filterType"] == "filter_select":
            [values] = superset.data(filter_values_query(native_filter))
            warmed.queries += 1
            warmed.cached_before += count_cached([values])
            if native_filter["controlValues"].get("defaultToFirstItem") and values["data"]:
                column = native_filter["targets"][0]["column"]["name"]
                extra["filters"] = [{"col": column, "op": "IN", "val": [values["data"][0][column]]}]
        if extra:
            defaults.append((native_filter, extra))
    for chart in superset.result(f"/api/v1/dashboard/{dashboard['id']}/charts"):
        saved = superset.result(f"/api/v1/chart/{chart['id']}").get("query_context")
        if not saved:
            warmed.errors.append(f"{chart['slice_name']}: no saved query (open it in the chart editor and save)")
            continue
        applied = [extra for native_filter, extra in defaults if in_scope(native_filter, chart["id"])]
        try:
            results = superset.data(chart_query(json.loads(saved), applied))
        except SupersetError as e:
            warmed.errors.append(f"{chart['slice_name']}: {e}")
            continue
        warmed.queries += len(results)
        warmed.cached_before += count_cached(results)
        warmed.errors += [f"{chart['slice_name']}: {r['error']}" for r in results if r.get("error")]
    warmed.seconds = round(time.monotonic() - started, 2)
    return warmed


def warm(superset: SupersetApi) -> list[Warmed]:
    """Every dashboard's charts, in the order of their slugs."""
    dashboards = superset.all("dashboard")
    return [warm_dashboard(superset, d) for d in sorted(dashboards, key=lambda d: d["slug"] or "")]


def as_admin(url: str, password: str) -> SupersetApi:
    """Superset at ``url`` logged in as ``SUPERSET_ADMIN_USERNAME`` (default ``admin``) with ``password``."""
    return SupersetApi(url, os.environ.get("SUPERSET_ADMIN_USERNAME", "").strip() or "admin", password)


def wait_until_up(url: str, exit_status: Callable[[], int | None], timeout_s: float = START_TIMEOUT_S) -> bool:
    """Whether Superset at ``url`` answered ``/health`` within ``timeout_s``; False as soon as
    ``exit_status()`` says the server process has ended."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline and exit_status() is None:
        try:
            with urllib.request.urlopen(f"{url}/health", timeout=10) as response:  # noqa: S310
                if response.status == 200:
                    return True
        except (urllib.error.URLError, TimeoutError, ConnectionError):
            pass  # not listening yet, or still importing
        time.sleep(1)  # a starting server: polled once a second, bounded by the deadline
    return False


def summary(warmed: list[Warmed]) -> str:
    """One line for a whole warm-up: its dashboards, chart queries, seconds and any failures."""
    failed = [f"{w.slug}: {e}" for w in warmed for e in w.errors]
    return (f"{len(warmed)} dashboards warmed: {sum(w.queries for w in warmed)} chart queries in "
            f"{sum(w.seconds for w in warmed):.1f} s" + (f"; {len(failed)} failed: {'; '.join(failed[:3])}" if failed else ""))


def cmd_warm(args) -> int:
    try:
        if args.env_file is not None and args.env_file.is_file():
            load_env_file(args.env_file)
        password = os.environ.get("SUPERSET_ADMIN_PASSWORD", "").strip()
        if not password:
            raise SettingError("SUPERSET_ADMIN_PASSWORD is empty: the warm-up logs in as Superset's admin")
        superset = as_admin(args.url, password)
        warmed = warm(superset)
    except (SettingError, SupersetError) as e:
        print(f"perfdb dashboards warm: {e}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps([asdict(w) for w in warmed], indent=2))
    else:
        print("\n".join(w.line() for w in warmed))
    return 1 if any(w.errors for w in warmed) else 0


def add_parser(subparsers) -> None:
    group = subparsers.add_parser("dashboards", help="Superset's dashboards")
    sub = group.add_subparsers(dest="action", required=True)
    s = subcommand(sub, "warm", cmd_warm, help="fill Superset's chart cache after a publish, as the first view asks")
    s.add_argument("--url", default=os.environ.get("PERFDB_SUPERSET_URL") or DEFAULT_URL,
                   help=f"the running Superset (default $PERFDB_SUPERSET_URL or {DEFAULT_URL})")
    s.add_argument("--env-file", type=Path, help="NAME=value settings for what the environment does not set (e.g. .env)")
