"""Every perfdb dashboard in a real browser: Debian's Chromium, headless, driven by Playwright.

Each dashboard must render every chart it lays out (a canvas, SVG, table or big number, or
Superset's "no results" state for an empty source) with no error panel, every chart with axes names
both of them, and a dashboard's first view after a publish and ``perfdb dashboards warm`` is answered
from Superset's chart cache for every chart and loads (every chart drawn) within LOAD_BUDGET_S once the
browser has Superset's scripts cached. Its screenshot goes to a
temporary folder, or, with PERFDB_UPDATE_SCREENSHOTS=1, to docs/screenshots/<slug>.png for the README
(so an ordinary test run never rewrites committed files). The page may load only from the Superset
under test: every other host is sent to a proxy that refuses (fonts, telemetry, map tiles), so nothing
leaves the machine; a proxy rather than Playwright's request routing, which turns the browser's cache off.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import urllib.parse
from pathlib import Path

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, sync_playwright

import superset_stack
from ingest import dashboard_warmup
from ingest.superset_api import SupersetApi
from ingest.warehouse.serving import publish

REPO = Path(__file__).resolve().parents[2]
SCREENSHOTS = REPO / "docs" / "screenshots"
CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]
RENDER_TIMEOUT_MS = 120_000
# The goal is 3 s. Timed on the page's clock, from the navigation's start to the frame with every chart drawn,
# on 2-core machines (docs/stack.md): 1.2-2.0 s with nothing else running and 1.4-2.9 s at load average 6.5 on
# one, 1.7-4.1 s with nothing else running on a slower one, of which Superset's scripts and page took 0.9-1.7 s
# before the first chart query. (Timed from outside, as this test did before, the test's own
# round trips to the browser, two per chart, added 0.5-1.5 s.) A view with cached answers measured up to
# 8.9 s beside two other test runs (load average 20-27). The budget keeps a third above that worst figure
LOAD_BUDGET_S = 12.0
ERROR_PANELS = ".ant-alert-error, [data-test='error-message'], .alert-danger"
CHART = "[data-test='chart-grid-component']"  # a chart's card; markdown cards have none
LOADING = "[data-test='loading-indicator'], .loading"
# what a chart's body holds once it has drawn: an echarts canvas, SVG, a table, a big number, or the
# empty state Superset shows for a query without rows (the header's icons are outside the body)
RENDERED = "[data-test='slice-container'] :is(canvas, svg, table, .header-line, .ant-empty)"


@pytest.fixture(scope="session")
def superset(request, demo_home, tmp_path_factory) -> superset_stack.SupersetStack:
    return superset_stack.shared(request.config, demo_home, tmp_path_factory)


@pytest.fixture(scope="module")
def screenshots(tmp_path_factory) -> Path:
    if os.environ.get("PERFDB_UPDATE_SCREENSHOTS") == "1":
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        return SCREENSHOTS
    return tmp_path_factory.mktemp("screenshots")


@pytest.fixture(scope="module")
def chromium_path() -> str:
    path = shutil.which("chromium") or "/usr/bin/chromium"
    if not Path(path).exists():
        pytest.fail("Chromium is missing: install Debian's package with `apt-get install -y chromium`")
    return path


@pytest.fixture(scope="module")
def refusing_proxy():
    """A localhost port bound but never listening: a connection to it is refused at once."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        yield f"http://127.0.0.1:{s.getsockname()[1]}"


@pytest.fixture(scope="module")
def page(superset, chromium_path, refusing_proxy):
    with sync_playwright() as p:
        # Chromium never sends loopback addresses (the Superset under test) through a proxy
        browser = p.chromium.launch(executable_path=chromium_path, args=[*CHROMIUM_FLAGS, f"--proxy-server={refusing_proxy}"])
        context = browser.new_context(viewport={"width": 1600, "height": 2400}, device_scale_factor=1)
        page = context.new_page()
        page.set_default_timeout(RENDER_TIMEOUT_MS)
        _log_in(page, superset)
        yield page
        browser.close()


def _log_in(page, superset) -> None:
    """Through Superset's login form. The login page posts its event log as it unloads; when the answer to
    that request (a session cookie without the user) lands after the login's, the browser arrives on the
    welcome page logged out and is sent back to the login page (seen once on a loaded machine). The second
    login has no such race: the page's log went with the first."""
    for _ in range(2):
        page.goto(f"{superset.url}/login/")
        page.fill("[data-test=username-input]", superset.username)
        page.fill("[data-test=password-input]", superset.password)
        with page.expect_navigation():
            page.click("[data-test=login-button]")
        if "/login" not in page.url:
            return
    raise AssertionError(f"Superset at {superset.url} did not keep the login session: {page.url}")


@pytest.fixture(scope="module")
def dashboards(superset) -> list[dict]:
    api = superset.session()
    found = [d for d in api.all("dashboard") if (d.get("slug") or "").startswith("perfdb-")]
    for d in found:
        r = api.get(f"/api/v1/dashboard/{d['id']}/charts")
        r.raise_for_status()
        d["charts"] = r.json()["result"]
        r = api.get(f"/api/v1/dashboard/{d['id']}")
        r.raise_for_status()
        d["native_filters"] = json.loads(r.json()["result"]["json_metadata"])["native_filter_configuration"]
    return sorted(found, key=lambda d: d["slug"])


# true on the first frame in which the page holds n chart cards, each drawn and none loading: then the time
# since the navigation began, on the page's own clock
ALL_DRAWN = """([chart, rendered, loading, n]) => {
    const cards = [...document.querySelectorAll(chart)];
    const drawn = cards.length >= n && cards.every(c => c.querySelector(rendered) && !c.querySelector(loading));
    return drawn && performance.now();
}"""


def open_dashboard(page: Page, url: str, expected_charts: int) -> tuple[list, float]:
    """Load a dashboard and wait until each of its charts has finished its query and drawn.

    Returns the chart-data responses the page received and the seconds from the navigation's start to the
    first frame with every chart drawn, timed by the page itself (checked once a frame), so that the test's
    own round trips to the browser are not counted; the page's later requests, such as its event log, are
    waited for but not counted."""
    responses = []

    def on_response(response):
        if "/api/v1/chart/data" in response.url:
            responses.append(response)

    page.on("response", on_response)
    try:
        page.goto(url)
        drawn_ms = page.wait_for_function(ALL_DRAWN, arg=[CHART, RENDERED, LOADING, expected_charts], polling="raf")
        drawn = round(drawn_ms.json_value() / 1000, 2)
        page.wait_for_load_state("networkidle")
    finally:
        page.remove_listener("response", on_response)
    return responses, drawn


def warm_queries(dashboard: dict) -> int:
    """The chart queries a warm-up of the dashboard asks for: one per chart, a second for a table paged by
    the server (its row count), and one per select filter (its values)."""
    return (sum(1 + bool(c["form_data"].get("server_pagination")) for c in dashboard["charts"])
            + sum(f["filterType"] == "filter_select" for f in dashboard["native_filters"]))


def first_value_filters(dashboard: dict) -> list[str]:
    """The columns of the dashboard's select filters that choose their first value by default."""
    return [
        f["targets"][0]["column"]["name"]
        for f in dashboard["native_filters"]
        if f["filterType"] == "filter_select" and f["controlValues"].get("defaultToFirstItem")
    ]


def filtered_columns(chart_data_response) -> set[str]:
    """The columns a chart-data request filters on."""
    body = json.loads(chart_data_response.request.post_data)
    return {f["col"] for query in body["queries"] for f in query.get("filters", [])}


def test_every_dashboard_renders_every_chart_without_errors(page, superset, dashboards, screenshots):
    assert {d["slug"] for d in dashboards} >= {"perfdb-thresholds", "perfdb-cpu", "perfdb-processes-discs", "perfdb-data-health",
                                            "perfdb-msu", "perfdb-rules"}
    # `perfdb serve` warmed every chart once Superset was up (that the browser then finds its answers in
    # the cache is the warm-up's test below, after a publish)
    assert superset.warm_line.startswith(
        f"perfdb serve: {len(dashboards)} dashboards warmed: {sum(map(warm_queries, dashboards))} chart queries in "
    ), superset.warm_line
    assert "failed" not in superset.warm_line, superset.warm_line
    for dashboard in dashboards:
        expected = len(dashboard["charts"])
        responses, _ = open_dashboard(page, f"{superset.url}/superset/dashboard/{dashboard['slug']}/?standalone=1", expected)
        charts_on_page = page.locator(CHART)
        assert charts_on_page.count() == expected, dashboard["slug"]
        assert len(responses) >= expected, f"{dashboard['slug']}: {len(responses)} chart queries for {expected} charts"
        failed = [(r.url, r.status) for r in responses if r.status != 200]
        assert not failed, f"{dashboard['slug']}: chart queries failed: {failed}"
        # a filter that picks its first value (System: never NonStop and z/OS averaged together) applies
        # before any chart queries, not only once the user presses "Apply filters"
        for column in first_value_filters(dashboard):
            unfiltered = [r.url for r in responses if "slice_id" in r.url and column not in filtered_columns(r)]
            assert not unfiltered, f"{dashboard['slug']}: charts queried without the {column} filter: {unfiltered}"
        errors = page.locator(ERROR_PANELS).all_inner_texts()
        assert not errors, f"{dashboard['slug']}: error panels: {errors}"
        for i in range(expected):
            assert charts_on_page.nth(i).locator(RENDERED).count() > 0, f"{dashboard['slug']}: chart {i} did not draw"
        titles = "\n".join(charts_on_page.all_inner_texts())
        missing = [c["slice_name"] for c in dashboard["charts"] if c["slice_name"] not in titles]
        assert not missing, f"{dashboard['slug']}: charts without their title on the page: {missing}"
        # down to the last card, not the tall viewport's empty bottom
        bottom = page.evaluate(
            "selector => Math.max(...[...document.querySelectorAll(selector)].map(e => e.getBoundingClientRect().bottom))",
            "[data-test='dashboard-component-chart-holder']",
        )
        page.evaluate("window.scrollTo(0, 0)")
        shot = screenshots / f"{dashboard['slug']}.png"
        page.screenshot(path=str(shot), clip={"x": 0, "y": 0, "width": page.viewport_size["width"], "height": bottom + 24})
        assert shot.stat().st_size > 20_000


def test_every_chart_with_axes_names_them(dashboards):
    unnamed = []
    for dashboard in dashboards:
        for chart in dashboard["charts"]:
            form = chart["form_data"]
            if form["viz_type"].startswith("echarts_"):
                if not (form.get("x_axis_title") or "").strip() or not (form.get("y_axis_title") or "").strip():
                    unnamed.append(f"{dashboard['slug']}: {chart['slice_name']}")
            elif form["viz_type"] == "heatmap_v2":
                # Superset 6.1's heat map has no axis-title control: its title names both axes
                if "(x: " not in chart["slice_name"] or ", y: " not in chart["slice_name"]:
                    unnamed.append(f"{dashboard['slug']}: {chart['slice_name']}")
    assert not unnamed, f"charts without axis titles: {unnamed}"


def uncached(chart_data_responses) -> list[str]:
    """The chart-data requests Superset answered without its cache (by the request's form data). Read before
    the page navigates again, so a response whose body the browser no longer has is the page before's: a
    request it sent as the navigation began (a filter's values, a table's row count), answered after."""
    missed = []
    for response in chart_data_responses:
        try:
            results = response.json()["result"]
        except PlaywrightError as e:
            if "navigated away from" not in str(e):
                raise
            continue
        if not all(result.get("is_cached") for result in results):
            missed.append(response.url.split("form_data=", 1)[-1])
    return missed


def test_every_dashboard_loads_from_the_warmed_cache_within_the_budget(page, superset, dashboards):
    urls = {d["slug"]: f"{superset.url}/superset/dashboard/{d['slug']}/?standalone=1" for d in dashboards}
    for dashboard in dashboards:  # Superset's scripts and styles into the browser's cache
        open_dashboard(page, urls[dashboard["slug"]], len(dashboard["charts"]))
    # the same warehouse published again: Superset's chart-data cache, keyed by the published file, is
    # empty for it; then warmed as the nightly DAG does after its publish
    publish(superset.home)
    api = SupersetApi(superset.url, superset.username, superset.password)
    warmed = {w.slug: w for w in dashboard_warmup.warm(api)}
    assert {d["slug"]: (warmed[d["slug"]].queries, warmed[d["slug"]].cached_before, warmed[d["slug"]].errors)
            for d in dashboards} == {
        # none of them cached before
        d["slug"]: (warm_queries(d), 0, []) for d in dashboards
    }
    first, again, missed = {}, {}, {}
    for dashboard in dashboards:
        slug = dashboard["slug"]
        for times in (first, again):
            responses, times[slug] = open_dashboard(page, urls[slug], len(dashboard["charts"]))
            if times is first:
                missed[slug] = uncached(responses)
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"dashboard load after a publish and `perfdb dashboards warm` (load average {load}): first view {first}; "
          f"seen again {again}")
    # the browser asks for each chart's data under the key the warm-up filled: no chart queries the warehouse
    assert missed == {slug: [] for slug in first}, f"first-view chart queries that missed the warmed cache: {missed}"
    slow = {slug: seconds for slug, seconds in first.items() if seconds > LOAD_BUDGET_S}
    assert not slow, f"dashboards slower than {LOAD_BUDGET_S} s on their first view: {slow} (all: {first})"


def test_the_page_reaches_no_other_host(page):
    other = page.context.new_page()
    try:
        with pytest.raises(PlaywrightError, match="ERR_PROXY_CONNECTION_FAILED"):
            other.goto("http://192.0.2.1/", timeout=30_000)  # TEST-NET-1: never a real host
    finally:
        other.close()


def test_the_data_health_dashboard_shows_the_validation_history(dashboards):
    [health] = [d for d in dashboards if d["slug"] == "perfdb-data-health"]
    assert {"Expectations per validation run", "Failing expectations of the latest run"} <= {
        c["slice_name"] for c in health["charts"]
    }


# the tables of kept forecasts against the peaks measured since, on the two dashboards that show them
FORECAST_TABLES = {
    "perfdb-workloads": ["Forecast vs actual"],
    "perfdb-capacity": ["Forecast vs actual", "Projected vs actual by month and quarter"],
}


def chart_data(responses, chart_id: int) -> dict:
    """The answer the page received for one chart's rows (its first query)."""
    answers = [r for r in responses if f'"slice_id":{chart_id}' in urllib.parse.unquote(r.url).replace(" ", "")]
    assert answers, f"no chart-data request of chart {chart_id}"
    return answers[-1].json()["result"][0]


def test_the_workloads_and_capacity_dashboards_draw_forecasts_against_what_was_measured(page, superset, dashboards):
    """The demo builds its two months night by night, so on first view the forecasts of the earlier nights
    stand against the peaks measured on their target days: rows drawn, not the note of a young warehouse."""
    for dashboard in [d for d in dashboards if d["slug"] in FORECAST_TABLES]:
        responses, _ = open_dashboard(page, f"{superset.url}/superset/dashboard/{dashboard['slug']}/?standalone=1",
                                      len(dashboard["charts"]))
        by_name = {c["slice_name"]: c for c in dashboard["charts"]}
        for title in FORECAST_TABLES[dashboard["slug"]]:
            chart = by_name[title]
            answer = chart_data(responses, chart["id"])
            assert answer["rowcount"] > 0, f"{dashboard['slug']}: {title} has no rows"
            if title == "Forecast vs actual":
                assert all(row["actual_pct"] is not None and row["note"] is None for row in answer["data"])
            else:
                assert all(row["forecasts_compared"] > 0 for row in answer["data"])
            card = page.locator(CHART).filter(has=page.get_by_text(title, exact=True))
            drawn = card.locator("table tbody tr")
            page_length = chart["form_data"]["page_length"]
            assert drawn.count() == min(answer["rowcount"], page_length), f"{dashboard['slug']}: {title}"
            # the first row drawn is the answer's first row (a number as the table formats it)
            first = answer["data"][0]
            value = first["actual_pct"] if "actual_pct" in first else first["mean_actual_pct"]
            assert f"{value:.1f}" in drawn.first.inner_text(), f"{dashboard['slug']}: {title}"


# -- a planted conflict on the Data health dashboard ----------------------------------------------------------

COPIES = "Copies of the same measurements in two files"


def _perfdb(home, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(Path(sys.executable).parent / "perfdb"), "--home", str(home.root), *args],
                          capture_output=True, text=True, timeout=600)


def _planted_copies(demo_home, folder: Path, changed: int) -> tuple[Path, Path, int, int]:
    """Beside a demo CPU file: its identical re-export with CRLF line ends (a duplicate of every row), and another
    site's copy of its first day with the busy time of ``changed`` records altered (a conflict). Returns the two
    paths, the rows of the file and those of its first day."""
    original = demo_home.landing / "measure" / "csv" / "DEV1" / "2026-W04" / "cpu.csv"
    header, *records = original.read_text().splitlines(keepends=True)
    crlf = folder / "reexport" / "cpu.csv"
    crlf.parent.mkdir(parents=True)
    crlf.write_bytes((header + "".join(records)).replace("\n", "\r\n").encode())
    first_day = [r for r in records if r.split(",")[3][:10] == records[0].split(",")[3][:10]]
    busy = header.rstrip("\n").split(",").index("cpu-busy-time")
    other_site = [",".join(f[:busy] + [str(int(f[busy]) // 2)] + f[busy + 1:]) if k < changed else r
                  for k, r in enumerate(first_day) for f in [r.split(",")]]
    site_b = folder / "siteB" / "cpu.csv"
    site_b.parent.mkdir(parents=True)
    site_b.write_text(header + "".join(other_site))
    return crlf, site_b, len(records), len(first_day)


def test_a_planted_conflict_shows_on_the_data_health_dashboard_and_fails_check_until_removed(
        page, superset, dashboards, demo_home, tmp_path):
    """Another site's copy of a demo system's day with other values (a conflict) and the same week exported
    again with CRLF line ends (a duplicate), ingested into the stack's warehouse, built and published: the
    copies chart lists both by kind with their row counts, through the API and drawn on the page; `perfdb check`
    fails on the conflict until `perfdb remove` takes the other site's copy out, and passes after. The warehouse
    is put back as it was at the end."""
    home = superset.home
    [health] = [d for d in dashboards if d["slug"] == "perfdb-data-health"]
    [chart] = [c for c in health["charts"] if c["slice_name"] == COPIES]
    url = f"{superset.url}/superset/dashboard/perfdb-data-health/?standalone=1"
    api = superset.session()
    crlf, site_b, week_rows, day_rows = _planted_copies(demo_home, tmp_path, changed=2)
    original = home.db_path.with_name("perfdb.original.duckdb")
    shutil.copyfile(home.db_path, original)

    def planted_rows(answer: dict) -> list[tuple]:
        """The chart's rows of the planted files: (kind, file's folder, other file's folder, duplicate rows,
        conflicting rows)."""
        return sorted((row["copy_kind"], Path(row["path"]).parent.name, Path(row["other_path"]).parent.name,
                       row["duplicate_rows"], row["conflicting_rows"]) for row in answer["data"]
                      if row["path"] in (str(crlf), str(site_b)))

    def shown() -> tuple[list[tuple], list[tuple]]:
        """The planted rows as the chart's own query answers through the chart-data API, and as the page
        received them for the chart on the dashboard."""
        saved = json.loads(api.result(f"/api/v1/chart/{chart['id']}")["query_context"])
        r = api.post("/api/v1/chart/data", body=saved)
        assert r.status_code == 200, r.text[:2000]
        responses, _ = open_dashboard(page, url, len(health["charts"]))
        return planted_rows(r.json()["result"][0]), planted_rows(chart_data(responses, chart["id"]))

    try:
        assert _perfdb(home, "ingest", str(crlf)).returncode == 0  # a duplicate is no failure
        ingest = _perfdb(home, "ingest", str(site_b))
        assert ingest.returncode == 1
        assert (f"{site_b}: 2 rows of raw.measure_cpu (\\DEV1) hold the same measurements as {crlf} with other "
                "values") in ingest.stderr
        check = _perfdb(home, "check")
        assert check.returncode == 1, check.stdout[-2000:]
        assert "raw.key_conflicts / no_conflicting_copies" in check.stdout + check.stderr, check.stderr[-2000:]
        assert _perfdb(home, "build", "--select", "rpt_key_conflicts").returncode == 0
        assert _perfdb(home, "publish").returncode == 0
        # per kind: the re-export duplicates every row of the week; the other site's day duplicates all but the
        # two changed rows of each earlier copy, and contradicts each in those two
        planted = [("conflict", "siteB", "2026-W04", day_rows - 2, 2), ("conflict", "siteB", "reexport", day_rows - 2, 2),
                   ("duplicate", "reexport", "2026-W04", week_rows, 0)]
        from_api, on_page = shown()
        assert from_api == on_page == planted
        card = page.locator(CHART).filter(has=page.get_by_text(COPIES, exact=True))
        drawn = card.locator("table tbody tr").all_inner_texts()
        assert [row for row in drawn if str(site_b) in row and "conflict" in row], drawn

        # the user keeps the demo's copy: the other site's goes, and the check passes
        assert _perfdb(home, "remove", str(site_b)).returncode == 0
        check = _perfdb(home, "check")
        assert check.returncode == 0, (check.stdout + check.stderr)[-2000:]
        assert _perfdb(home, "build", "--select", "rpt_key_conflicts").returncode == 0
        assert _perfdb(home, "publish").returncode == 0
        assert shown() == (planted[2:], planted[2:])
    finally:
        shutil.copyfile(original, home.db_path)
        original.unlink()
        publish(home)
