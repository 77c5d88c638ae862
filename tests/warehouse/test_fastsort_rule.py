"""Seed 001's one-pass sort rule (001-aF19, L1284, L1344) on the demo warehouse: the FastSort statistics of the
nightly sorts of \\PROD1 and \\DEV1 (``ingest.generate._fastsort``). The small file (under 100 Kbytes) sorts in
memory every night but its three short-memory nights, when it writes runs to scratch: the findings; the large
files write runs every night, as a file beyond the memory must, and do not fire."""

from __future__ import annotations

import datetime as dt

import pytest

from ingest.generate import _fastsort, commands
from read_only_db import dict_rows, read_only

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def db(demo_home):
    yield from read_only(demo_home.serving_path)


def night(day: int, minute: int = 0) -> dt.datetime:
    return dt.datetime.combine(commands.DEMO_START + dt.timedelta(days=day), dt.time(_fastsort.HOUR, minute))


def test_the_short_memory_nights_fire_and_the_other_sorts_do_not(db):
    fired = db.execute("select system_name, captured_at, file_bytes, memory_bytes, initial_runs "
                       "from marts.rpt_fastsort_passes where fired order by captured_at").fetchall()
    assert fired == [("\\PROD1", night(11), 96000, 32768, 2), ("\\DEV1", night(25), 100000, 32768, 2),
                     ("\\PROD1", night(39), 96000, 32768, 2)]
    runs = db.execute("select system_name, file_bytes, one_pass, count(*) from marts.rpt_fastsort_passes "
                      "where not fired group by all order by all").fetchall()
    days = commands.DEMO_DAYS
    assert runs == [("\\DEV1", 100000, True, days - 1), ("\\DEV1", 5000000, False, days),
                    ("\\PROD1", 96000, True, days - 2), ("\\PROD1", 20000000, False, days)]
    (row,) = dict_rows(db, "select * from marts.rpt_rule_status where rule_id = '001-aF19'")
    assert (row["status"], row["evaluated_by"], row["evaluations"], row["systems"], row["findings"]) == (
        "evaluated", "rpt_fastsort_passes", 2 * 2 * days, 2, 3)
