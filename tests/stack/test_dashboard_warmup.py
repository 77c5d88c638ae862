"""``perfdb dashboards warm``: how a chart's saved query gets the dashboard's filter defaults, and, without
a Superset to warm, one line saying what to fix, never a traceback.

The warm-up itself, against a real Superset and checked from a real browser (every first-view chart
query answered from the cache), is tests/stack/test_browser.py.
"""

from __future__ import annotations

import socket

from ingest import dashboard_warmup
from ingest.cli import main


def test_the_query_of_a_chart_gets_the_filter_defaults_in_front_of_its_own():
    saved = {"queries": [{"filters": [{"col": "day", "op": "TEMPORAL_RANGE", "val": "No filter"}], "row_limit": 10}]}
    system = {"filters": [{"col": "system_name", "op": "IN", "val": ["SYSA"]}]}
    query = dashboard_warmup.chart_query(saved, [system, {"time_range": "No filter"}])
    assert query["queries"] == [{
        "filters": [{"col": "system_name", "op": "IN", "val": ["SYSA"]}, {"col": "day", "op": "TEMPORAL_RANGE", "val": "No filter"}],
        "row_limit": 10,
        "time_range": "No filter",
    }]
    assert saved["queries"][0]["filters"] == [{"col": "day", "op": "TEMPORAL_RANGE", "val": "No filter"}]  # untouched


def test_without_the_admin_password_it_says_so(monkeypatch, capsys):
    monkeypatch.delenv("SUPERSET_ADMIN_PASSWORD", raising=False)
    assert main(["dashboards", "warm", "--url", "http://127.0.0.1:9"]) == 1
    assert capsys.readouterr().err == (
        "perfdb dashboards warm: SUPERSET_ADMIN_PASSWORD is empty: the warm-up logs in as Superset's admin\n"
    )


def test_a_superset_that_is_not_running_is_one_line(monkeypatch, capsys):
    monkeypatch.setenv("SUPERSET_ADMIN_PASSWORD", "secret")
    with socket.socket() as s:  # bound, never listening: a connection is refused at once
        s.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{s.getsockname()[1]}"
        assert main(["dashboards", "warm", "--url", url]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"perfdb dashboards warm: cannot reach Superset at {url}: ") and err.count("\n") == 1
