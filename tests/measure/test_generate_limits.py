"""Generated MEASURE data respects physical limits under any growth: a CPU is at most 100 % busy, a disc
at most its hour, a line carries at most its speed (read and write busy together fill at most the hour).

A year at 5 % a month is the history the nightly build must survive; 100 % a month for four months pushes
every device far past its capacity, so the ceilings themselves are exercised, not merely avoided.
"""

from __future__ import annotations

import datetime as dt

import numpy as np
import pytest

from ingest.generate._measure_inventory import SystemSpec
from ingest.generate._measure_model import (
    DISC_BUSY_CEILING,
    HOUR_US,
    LINE_BYTES_PER_S,
    LINE_WRITE_CEILING,
    MeasureModel,
)

START = dt.date(2026, 1, 5)
YEAR_AT_5_PCT = SystemSpec("\\GROW1", cpus=2, start=START, days=365, processes=8, discs=2, lines=1, seed=11,
                           growth_per_month=0.05)
FOUR_MONTHS_DOUBLING = SystemSpec("\\GROW2", cpus=2, start=START, days=120, processes=8, discs=2, lines=1, seed=12,
                                  growth_per_month=1.0)


def _hours(model: MeasureModel, table: str, *columns: str) -> np.ndarray:
    """Sum of ``columns`` for every record of ``table`` over the generated days."""
    out = []
    for day in model.spec.dates():
        cols = model.day_columns(day)[table]
        out.append(sum(np.array(cols[c], dtype=np.int64) for c in columns))
    return np.concatenate(out)


@pytest.fixture(scope="module", params=[YEAR_AT_5_PCT, FOUR_MONTHS_DOUBLING], ids=["year_5pct", "doubling"])
def grown(request):
    model = MeasureModel(request.param)
    return {
        "cpu": _hours(model, "measure_cpu", "cpu_busy_time"),
        "process": _hours(model, "measure_process", "cpu_busy_time"),
        "disc": _hours(model, "measure_disc", "read_busy_time", "write_busy_time"),
        "line": _hours(model, "measure_line", "read_busy_time", "write_busy_time"),
        "line_write": _hours(model, "measure_line", "write_busy_time"),
        "line_bytes": _hours(model, "measure_line", "output_bytes"),
    }


def test_no_device_is_busier_than_its_hour(grown):
    for resource in ("cpu", "process", "disc", "line"):
        assert grown[resource].min() >= 0, resource
        assert grown[resource].max() <= HOUR_US, resource


def test_a_line_carries_at_most_its_speed(grown):
    assert grown["line_bytes"].max() <= LINE_BYTES_PER_S * 3600
    assert grown["line_write"].max() <= LINE_WRITE_CEILING * HOUR_US + 1


def test_doubling_load_reaches_the_ceilings_and_stays_consistent():
    """Past capacity the model serves what fits: busy at the ceiling, counters still agreeing."""
    model = MeasureModel(FOUR_MONTHS_DOUBLING)
    day = FOUR_MONTHS_DOUBLING.dates()[-5]  # a weekday in month four: 16 times the first month's load
    assert day.weekday() < 5
    cols = model.day_columns(day)
    disc, line, cpu = cols["measure_disc"], cols["measure_line"], cols["measure_cpu"]
    disc_busy = np.array(disc["read_busy_time"]) + np.array(disc["write_busy_time"])
    line_busy = np.array(line["read_busy_time"]) + np.array(line["write_busy_time"])
    assert disc_busy.max() == pytest.approx(DISC_BUSY_CEILING * HOUR_US, rel=1e-3)
    assert line_busy.max() == HOUR_US
    assert max(cpu["cpu_busy_time"]) == pytest.approx(0.99 * HOUR_US, rel=1e-3)
    # a disc process receives exactly its disc's requests, a line handler its line's, after capping too
    proc = model.records("measure_process", day)
    received = {(r["process_name"], r["from_timestamp"]): r["messages_received"] for r in proc}
    spec_procs = model.inv.procs
    for table, index, requests in (("disc", spec_procs.disc_index, disc["requests"]),
                                   ("line", spec_procs.line_index, line["requests"])):
        per_hour = np.reshape(requests, (24, -1))
        hours = sorted({t for (_, t) in received})
        for p in np.flatnonzero(index >= 0):
            got = [received[(spec_procs.name[p], t)] for t in hours]
            want = per_hour[:, index[p]]
            assert np.allclose(got, want, atol=1), table
