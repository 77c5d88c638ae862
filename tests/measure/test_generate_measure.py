"""``perfdb generate measure``: deterministic bytes, the load shape the article's reports rely on, entities that
agree with each other, and the three forms of the same hours landing as the same raw rows."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import replace

import numpy as np
import pytest

from ingest import cli
from ingest.formats.measure import tables as measure_tables
from ingest.formats.measure.meascom_labels import BUSY, INC, KNOWN_KINDS, MAX, QUEUE, RESP, RESP_COUNTS, SNAP
from ingest.generate import measure
from ingest.warehouse import database, loading, serving
from ingest.generate._measure_inventory import SystemSpec
from ingest.generate._measure_model import ENTITY_COLUMNS, HEADER_COLUMNS, HOUR_US, TABLES, MeasureModel
from ingest.home import Home

SMALL = SystemSpec("\\TEST1", cpus=3, start=dt.date(2026, 1, 5), days=2, processes=12, discs=3, lines=1, seed=7)
PROD1 = replace(measure.DEMO_SYSTEMS[0], seed=1986)  # 8 CPUs, 60 days from Monday 2026-01-05


@pytest.fixture(scope="module")
def prod1_cpu():
    """busy, queue length and swap rate of every CPU-hour of the demo's \\PROD1, shape (days, 24, cpus)."""
    model = MeasureModel(PROD1)
    days = PROD1.dates()
    cols = [model.day_columns(d)["measure_cpu"] for d in days]

    def stack(name, scale):
        return np.array([np.reshape(c[name], (24, PROD1.cpus)) for c in cols]) / scale

    return model, days, stack("cpu_busy_time", HOUR_US), stack("cpu_qtime", HOUR_US), stack("swaps", 3600.0)


# -- determinism -----------------------------------------------------------------------------------------


def test_same_seed_same_bytes_other_seed_differs(tmp_path):
    first = measure.generate(SMALL, tmp_path / "a", measure.FORMS)
    again = measure.generate(SMALL, tmp_path / "b", measure.FORMS)
    other = measure.generate(replace(SMALL, seed=8), tmp_path / "c", measure.FORMS)
    names = [p.relative_to(tmp_path / "a").as_posix() for p in first]
    # 8 entity files per day in each structured form (TERMINAL in these only), one text report per day
    assert len(names) == 2 * 8 + 2 * 8 + 2
    assert "csv/TEST1/2026-01-05/cpu.csv" in names
    assert "binary/TEST1/2026-01-06/zmsproc" in names
    assert "meascom/TEST1/2026-01-06/meascom-2026-01-06.txt" in names
    assert [p.relative_to(tmp_path / "b").as_posix() for p in again] == names
    assert [p.relative_to(tmp_path / "c").as_posix() for p in other] == names
    assert all(a.read_bytes() == b.read_bytes() for a, b in zip(first, again))
    # every file carries counters, so a different seed changes every one of them
    assert all(a.read_bytes() != c.read_bytes() for a, c in zip(first, other))


def test_a_day_does_not_depend_on_the_other_days_generated():
    """Seeded per calendar day: regenerating one day alone gives the same values (a month can be rebuilt in parts)."""
    week = MeasureModel(replace(SMALL, days=7))
    day = dt.date(2026, 1, 9)
    week_cols = [week.day_columns(d) for d in week.spec.dates()]
    alone = MeasureModel(replace(SMALL, days=7)).day_columns(day)
    assert alone["measure_process"]["cpu_busy_time"] == week_cols[4]["measure_process"]["cpu_busy_time"]


def test_cpu_records_carry_the_systems_processor_type():
    """The CPU-TYPE code of the spec on every CPU record; the demo has a NonStop TXP system (2) and a VLX one
    (3), whose capacity thresholds differ (seed 001 L3194: 85 % and 95 %)."""
    vlx = MeasureModel(replace(SMALL, cpu_type=3))
    assert {r["cpu_type"] for r in vlx.records("measure_cpu", SMALL.start)} == {3}
    assert {r["cpu_type"] for r in MeasureModel(SMALL).records("measure_cpu", SMALL.start)} == {2}
    assert [(s.short_name, s.cpu_type) for s in measure.DEMO_SYSTEMS] == [("PROD1", 2), ("DEV1", 3)]


# -- records: contract columns, hourly intervals, LOADID --------------------------------------------------


def test_records_have_the_contract_columns_and_exact_hours():
    model = MeasureModel(SMALL)
    day = dt.date(2026, 2, 14)  # day 045 of the year
    for table in TABLES:
        rows = list(model.records(table, day))
        assert rows, table
        assert all(tuple(r) == HEADER_COLUMNS + ENTITY_COLUMNS[table] for r in rows)
    cpu = list(model.records("measure_cpu", day))
    assert len(cpu) == 24 * SMALL.cpus
    assert [r["loadid"] for r in cpu[:: SMALL.cpus]] == [f"DT045{h:02d}" for h in range(24)]
    assert cpu[0]["from_timestamp"] == dt.datetime(2026, 2, 14, 0, 0)
    assert cpu[-1]["to_timestamp"] == dt.datetime(2026, 2, 15, 0, 0)  # 23:00-24:00
    assert all(r["to_timestamp"] - r["from_timestamp"] == dt.timedelta(hours=1) for r in cpu)
    assert {r["delta_time"] for r in cpu} == {3_600_000_000}
    assert {r["system_name"] for r in cpu} == {"\\TEST1"}
    assert all(0 <= r["cpu_busy_time"] <= r["delta_time"] for r in cpu)


def test_entities_agree_with_each_other():
    model = MeasureModel(PROD1)
    day = dt.date(2026, 2, 10)
    cols = model.day_columns(day)
    cpu = {k: np.reshape(v, (24, PROD1.cpus)) for k, v in cols["measure_cpu"].items() if k in ("cpu_busy_time",)}
    proc = cols["measure_process"]
    busy = np.array(proc["cpu_busy_time"]).reshape(24, -1)
    ready = np.array(proc["ready_time"]).reshape(24, -1)
    proc_cpu = np.array(proc["cpu_num"]).reshape(24, -1)[0]
    # a CPU's busy time covers its processes' busy time (the rest is interrupts and system overhead)
    per_cpu = np.stack([busy[:, proc_cpu == c].sum(axis=1) for c in range(PROD1.cpus)], axis=1)
    assert (per_cpu < cpu["cpu_busy_time"]).all()
    assert (ready >= busy).all()
    # THROUGHPUT counts the transactions the server received; RESP-TIME / THROUGHPUT is a response time
    ud = list(model.records("measure_userdef", day))
    received = {(r["cpu_num"], r["pin"], r["from_timestamp"]): r["messages_received"] for r in model.records("measure_process", day)}
    through = [r for r in ud if r["name"] == "THROUGHPUT"]
    resp = [r for r in ud if r["name"] == "RESP-TIME"]
    assert {r["type"] for r in through} == {1} and {r["type"] for r in resp} == {3}
    assert all(r["counter_value"] == received[(r["cpu_num"], r["pin"], r["from_timestamp"])] for r in through)
    assert {r["program_file_name"].rsplit(".", 1)[0] for r in ud} == {"$PROGS.SERVER1"}
    per_trans_s = [q["counter_value"] / t["counter_value"] / 1e6 for q, t in zip(resp, through) if t["counter_value"]]
    assert 0.05 < np.median(per_trans_s) < 2.0
    # a measured server's file-system messages are its disc and $RECEIVE files' logical I/O
    sent = {(r["cpu_num"], r["pin"], r["from_timestamp"]): r["messages_sent"] for r in model.records("measure_process", day)}
    files = [r for r in model.records("measure_file", day) if r["device_type"] == 3]
    by_opener: dict = {}
    for r in files:
        key = (r["opener_cpu"], r["opener_pin"], r["from_timestamp"])
        by_opener[key] = by_opener.get(key, 0) + r["messages"]
        assert r["messages"] == r["reads"] + r["writes"] + r["updates_or_replies"] + r["deletes_or_writereads"]
    assert by_opener and all(total == sent[key] for key, total in by_opener.items())
    # physical I/O (DISCOPEN) exceeds logical (FILE), as the application article's Figures 6 and 7 show
    opens = list(model.records("measure_discopen", day))
    assert sum(r["driver_input_calls"] + r["driver_output_calls"] for r in opens) > sum(
        r["reads"] + r["writes"] + r["updates_or_replies"] for r in files
    )
    assert any(r["file_name"].endswith(".ORDERS0") for r in opens)  # alternate-key files appear only here


# -- the load shape ----------------------------------------------------------------------------------------


def test_weekday_busier_than_weekend(prod1_cpu):
    _model, days, busy, _q, _s = prod1_cpu
    weekday = np.array([d.weekday() < 5 for d in days])
    assert busy[weekday].mean() > 2.0 * busy[~weekday].mean()


def test_shift_1_busier_than_shift_3(prod1_cpu):
    _model, _days, busy, _q, _s = prod1_cpu
    shift1, shift2, shift3 = busy[:, 8:16].mean(), busy[:, 16:24].mean(), busy[:, 0:8].mean()
    assert shift1 > shift2 > shift3
    assert shift1 > 2.0 * shift3


def test_month_2_busier_than_month_1(prod1_cpu):
    # weekdays only: January (from the 5th) and February hold different shares of weekend days
    _model, days, busy, _q, _s = prod1_cpu
    weekday = np.array([d.weekday() < 5 for d in days])
    month = np.array([d.month for d in days])
    jan, feb = busy[weekday & (month == 1)].mean(), busy[weekday & (month == 2)].mean()
    assert feb > 1.025 * jan  # 5 % a month, less where the saturated CPU cannot grow


def test_saturated_cpu_crosses_the_thresholds(prod1_cpu):
    model, _days, busy, qlen, swaps = prod1_cpu
    (hot,) = np.flatnonzero(model.inv.saturated)
    others = [c for c in range(PROD1.cpus) if c != hot]
    assert busy[:, :, hot].max() > 0.90  # BUSY > 70 % (threshold T4) with room to spare
    assert busy[:, :, others].max() < 0.75
    assert qlen[:, :, hot].max() > 2.0  # QLEN > 2 (T1)
    assert swaps[:, :, hot].max() > 2.0  # SWAP > 2 per second (T3), on the saturated CPU only ...
    assert swaps[:, :, others].max() < 1.0
    assert (swaps < 1.0).mean() > 0.95  # ... while swapping is mostly well under 1 per second


def test_interrupt_busy_stays_under_25_percent(prod1_cpu):
    model, days, busy, _q, _s = prod1_cpu
    intr = np.array([np.reshape(model.day_columns(d)["measure_cpu"]["intr_busy_time"], (24, PROD1.cpus)) for d in days])
    assert (intr / HOUR_US).max() < 0.25
    assert ((intr / HOUR_US) <= busy).all()


def test_some_servers_queue_on_receive():
    """Figure 7's PROCESS condense keeps processes whose $RECEIVE queue exceeds .3: some must."""
    model = MeasureModel(PROD1)
    procs = [r for d in PROD1.dates()[:7] for r in model.records("measure_process", d)]
    aql = np.array([r["recv_qtime"] / r["delta_time"] for r in procs])
    assert 0.005 < (aql > 0.3).mean() < 0.2
    assert max(r["ready_time"] / r["cpu_busy_time"] for r in procs if r["cpu_busy_time"]) > 1.5


# -- the three forms of the same hours ----------------------------------------------------------------------



def _text_tolerance(column: str, raw: float, delta: int, row: dict) -> float:
    """How far a value read back from a RATE ON report may be from the raw value (meascom_writer's precision)."""
    kind = KNOWN_KINDS[column]
    seconds = delta / 1e6
    if kind == BUSY:
        return 0.005 / 100 * delta + 1  # percent with two decimals
    if kind == QUEUE:
        return (0.005 if raw / delta < 999.995 else 0.5) * delta + 1  # average length, two decimals
    if kind == INC:
        return (0.005 if raw / seconds < 999.995 else 0.5) * seconds + 1  # per second, two decimals
    if kind == RESP:
        # average in ms with two decimals, times the event count -- itself read back from a rate
        count_column = RESP_COUNTS[column]
        count = row[count_column] or 0
        average = raw / count if count else 0
        return 5.0 * count + average * _text_tolerance(count_column, count, delta, row) + 1
    assert kind in (MAX, SNAP)
    return 0


def _rows(con, table: str, form: str) -> dict:
    cur = con.execute(f"select * from raw.{table} where source_form = ? order by all", [form])
    names = [d[0] for d in cur.description]
    key = ("system_name", "cpu_num", "from_timestamp", "to_timestamp")
    rows = [dict(zip(names, r)) for r in cur.fetchall()]
    return {tuple(r[k] for k in key): r for r in rows}


def test_three_forms_land_as_the_same_rows(tmp_path):
    spec = replace(SMALL, days=1)
    files = measure.generate(spec, tmp_path / "gen", measure.FORMS)
    home = Home(tmp_path / "home").create()
    con = database.connect(home)
    results = [loading.ingest_file(con, f) for f in files]
    assert [(r.path.name, r.status) for r in results if r.status != "loaded"] == []
    assert {r.format for r in results} == {"measure.csv", "measure.binary", "measure.meascom"}

    # every form loads every record of every table
    model = MeasureModel(spec)
    counts = dict(con.execute("select format, sum(rows_loaded) from raw.ingest_files group by all").fetchall())
    total = sum(len(list(model.records(t, spec.start))) for t in TABLES)
    # the text report lists no TERMINAL entity (no report layout of it is published)
    text = total - len(list(model.records("measure_terminal", spec.start)))
    assert counts == {"measure.csv": total, "measure.binary": total, "measure.meascom": text}

    csv, binary, text = (_rows(con, "measure_cpu", form) for form in ("csv", "binary", "meascom"))
    assert len(csv) == len(binary) == len(text) == 24 * spec.cpus
    assert csv.keys() == binary.keys() == text.keys()
    generated = {(r["system_name"], r["cpu_num"], r["from_timestamp"], r["to_timestamp"]): r
                 for r in model.records("measure_cpu", spec.start)}
    assert generated.keys() == csv.keys()

    counters = [c for c in ENTITY_COLUMNS["measure_cpu"] if c in KNOWN_KINDS]
    assert {"cpu_busy_time", "cpu_qtime", "swaps", "intr_busy_time", "dispatches", "disc_ios"} <= set(counters)
    for key, raw in generated.items():
        # structured forms carry the raw values exactly (the binary ZMS layout has no max-queue items)
        for form_rows in (csv, binary):
            row = form_rows[key]
            assert {c: row[c] for c in ENTITY_COLUMNS["measure_cpu"] if c in row} == {
                c: raw[c] for c in ENTITY_COLUMNS["measure_cpu"] if c in row
            }
            assert (row["loadid"], row["delta_time"], row["error"], row["os_version"]) == (
                raw["loadid"], raw["delta_time"], 0, "G06")
        # the text report prints rates and percentages: equal within what it prints
        row = text[key]
        assert row["delta_time"] == raw["delta_time"]
        for c in counters:
            assert abs(row[c] - raw[c]) <= _text_tolerance(c, raw[c], raw["delta_time"], raw), (key, c, row[c], raw[c])
    # the structured forms agree on every column they both carry, in every table
    for table in TABLES:
        in_table = {c for (c,) in con.execute(
            "select column_name from information_schema.columns where table_schema = 'raw' and table_name = ?", [table]
        ).fetchall()}
        common = ", ".join(f'"{c}"' for c in HEADER_COLUMNS + ENTITY_COLUMNS[table] if c in in_table)
        csv_rows, binary_rows = (
            con.execute(f"select {common} from raw.{table} where source_form = ? order by all", [form]).fetchall()
            for form in ("csv", "binary")
        )
        assert len(csv_rows) == len(list(model.records(table, spec.start)))
        assert csv_rows == binary_rows, table
    con.close()


# -- command line and demo ----------------------------------------------------------------------------------


def test_cli_writes_the_requested_forms(tmp_path, capsys):
    rc = cli.main(["--home", str(tmp_path / "home"), "generate", "measure", "--system", "\\DEV9", "--cpus", "2",
                   "--days", "3", "--start", "2026-03-30", "--processes", "8", "--discs", "2", "--lines", "0",
                   "--seed", "5", "--forms", "csv,meascom", "--period", "week"])
    assert rc == 0
    written = sorted(p.relative_to(tmp_path / "home/landing/measure").as_posix()
                     for p in (tmp_path / "home/landing/measure").rglob("*") if p.is_file())
    # 2026-03-30 .. 04-01 is one ISO week (W14); no lines, so no line file and no terminal file
    assert written == sorted(
        [f"csv/DEV9/2026-W14/{t.removeprefix('measure_')}.csv" for t in TABLES if t not in ("measure_line", "measure_terminal")]
        + [f"meascom/DEV9/2026-W14/meascom-2026-{d}.txt" for d in ("03-30", "03-31", "04-01")]
    )
    assert "\\DEV9: 3 days from 2026-03-30 as csv, meascom: 9 files" in capsys.readouterr().out


@pytest.mark.parametrize(
    "args, message",
    [
        (["--cpus", "17"], "cpus 17: a NonStop system has 1 to 16 processors"),
        (["--system", "\\9LIVES"], "expected a backslash and 1-7 letters/digits, first a letter"),
        (["--days", "0"], "days 0: expected at least 1"),
        (["--cpu-type", "11"], "cpu type 11: expected a MEASURE CPU-TYPE code, 1 to 10"),
    ],
)
def test_cli_rejects_bad_arguments_with_a_message(tmp_path, capsys, args, message):
    rc = cli.main(["--home", str(tmp_path), "generate", "measure", *args])
    err = capsys.readouterr().err
    assert rc == 2
    assert message in err and "Traceback" not in err


def _demo_files(home: Home) -> list:
    return sorted(p for p in (home.landing / "measure").rglob("*") if p.is_file())


@pytest.mark.slow
def test_demo_spreads_the_forms_over_the_days(demo_home):
    files = _demo_files(demo_home)
    rel = [p.relative_to(demo_home.landing).as_posix() for p in files]
    text_days = sorted(re.search(r"meascom-(\d{4}-\d\d-\d\d)", r).group(1) for r in rel if "/meascom/" in r)
    # two systems x the 9 Wednesdays of 2026-01-05 .. 2026-03-05 as text
    assert len(text_days) == 18
    assert {dt.date.fromisoformat(d).weekday() for d in text_days} == {2}
    structured = {(r.split("/")[1], r.split("/")[2], r.split("/")[3]) for r in rel if "/meascom/" not in r}
    # every system-week arrives in exactly one structured form, binary and CSV alternating by week
    weeks = {(s, w) for _f, s, w in structured}
    assert len(weeks) == 2 * 9 and len(structured) == len(weeks)
    assert {f for f, s, w in structured if s == "PROD1" and w == "2026-W02"} == {"binary"}
    assert {f for f, s, w in structured if s == "PROD1" and w == "2026-W03"} == {"csv"}
    assert {f for f, s, w in structured if s == "DEV1" and w == "2026-W02"} == {"csv"}
    assert sum(p.stat().st_size for p in files) < 65e6  # small enough for a quick demo build


@pytest.mark.slow
def test_demo_loads_every_record_it_generates(demo_home):
    with serving.connect_serving(demo_home) as con:
        _assert_the_demo_loads_every_record(demo_home, con)


def _assert_the_demo_loads_every_record(demo_home, con):
    loaded = con.execute(
        "select status, count(*) from raw.ingest_files where path like '%/landing/measure/%' group by all"
    ).fetchall()
    assert loaded == [("loaded", len(_demo_files(demo_home)))]
    hours = con.execute(
        "select system_name, count(distinct from_timestamp), count(*) from raw.measure_cpu group by all order by all"
    ).fetchall()
    # DEV1 measured its Tuesday 2026-02-10 INTERVAL 30 MINUTES: 48 intervals that day, not 24
    assert hours == [("\\DEV1", 60 * 24 + 24, (60 * 24 + 24) * 4), ("\\PROD1", 60 * 24, 60 * 24 * 8)]
    forms = dict(con.execute("select source_form, count(*) from raw.measure_cpu group by all").fetchall())
    # 9 Wednesdays per system in text; of the 51 other days, PROD1 has 27 binary (weeks 1, 3, 5, 7 and the
    # 3 days of week 9) and 24 CSV, DEV1 the other way round (its half-hour day, in week 6, is binary)
    assert forms == {"meascom": 9 * 24 * (8 + 4), "binary": 27 * 24 * 8 + 24 * 24 * 4 + 24 * 4,
                     "csv": 24 * 24 * 8 + 27 * 24 * 4}
    # and every record of every table is there, but TERMINAL's of the days the demo writes as MEASCOM text
    # (no printed LIST TERMINAL layout: the text keeps it verbatim)
    text_tables = {e.table for e in measure_tables.TEXT_ENTITIES}
    expected = dict.fromkeys(TABLES, 0)
    for spec in measure.DEMO_SYSTEMS:
        model = MeasureModel(replace(spec, seed=1986))  # conftest's DEMO_SEED
        for day in spec.dates():
            for table, columns in model.day_columns(day).items():
                if day.weekday() != measure.DEMO_TEXT_WEEKDAY or table in text_tables:
                    expected[table] += len(columns["cpu_num"])
    assert {t: con.execute(f"select count(*) from raw.{t}").fetchall()[0][0] for t in TABLES} == expected


def test_processes_started_hourly_never_share_a_pin_in_one_hour():
    """A CPU that runs several utilities started hourly gives each its own PIN in each hour: CPU,PIN names one
    process per interval, which the process and file models join on (the nightly bench's 16-CPU, 200-process
    system; seed 101 puts three FUPs on CPU 9)."""
    spec = replace(SMALL, cpus=16, processes=200, discs=40, lines=4, days=1, seed=101)
    model = MeasureModel(spec)
    day = spec.dates()[0]
    procs = model.day_columns(day)["measure_process"]
    keys = list(zip(procs["cpu_num"], procs["pin"], procs["from_timestamp"]))
    assert len(keys) == len(set(keys))
    fup = [(c, p) for c, p, prog in zip(procs["cpu_num"], procs["pin"], procs["program_file_name"])
           if prog == "$SYSTEM.SYS01.FUP"]
    shared = {c for c in {c for c, _ in fup} if sum(1 for cc, _ in fup if cc == c) > 24}
    assert shared, "the seed no longer puts two utilities started hourly on one CPU"
