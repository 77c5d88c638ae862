"""The pipeline ``perfdb run``, ``perfdb demo`` and the shared test warehouse go through: ingest -> build ->
check -> publish, publishing only what built and passed its checks. (The demo's whole way through, night by
night with its checks passing, is the ``demo_home`` fixture every slow test uses; what its nights leave,
tests/warehouse/test_forecast_history.py.)"""

from __future__ import annotations

import datetime as dt

import duckdb

from ingest import cli, dbt_runner, pipeline
from ingest.generate._landing import landed, landing_day
from ingest.home import Home
from test_warehouse import CSV_HEADER, _csv_row


def _serving_cpus(home: Home) -> list[int]:
    with duckdb.connect(str(home.serving_path), read_only=True) as con:
        return [r[0] for r in con.execute("select cpu_num from raw.measure_cpu order by 1").fetchall()]


def test_run_publishes_a_rejected_file_only_when_accepted_and_never_past_a_failed_check(tmp_path, capsys):
    home = Home(tmp_path / "home").create()
    (home.landing / "cpu.csv").write_text(CSV_HEADER + _csv_row(0, 1_800_000_000) + _csv_row(1, 900_000_000))
    (home.landing / "notes.txt").write_text("not a measurement\n")
    assert cli.main(["--home", str(home.root), "run", "--skip-check"]) == 1  # a file was rejected
    err = capsys.readouterr().err
    assert "[2/2] notes.txt: rejected" in err
    assert "nothing built or published (--accept-rejects publishes anyway)" in err
    assert f"published {home.serving_path}" not in err
    assert not home.serving_path.exists()
    cli.main(["--home", str(home.root), "run", "--skip-check", "--accept-rejects"])
    assert f"published {home.serving_path}" in capsys.readouterr().err
    assert _serving_cpus(home) == [0, 1]

    # a LOADID naming another hour than its interval: dbt builds it, the raw MEASURE suite fails it (notes.txt,
    # still in landing/, is tried and rejected again: the run goes on only as asked)
    (home.landing / "cpu-late.csv").write_text(CSV_HEADER + _csv_row(2, 5).replace("DT00510", "DT00611"))
    assert cli.main(["--home", str(home.root), "run", "--accept-rejects"]) == 1
    out, err = capsys.readouterr()
    assert "FAILED raw.measure_cpu / inside_loadid_hour" in out
    assert "perfdb run: validation failed; serving.duckdb left as it was" in err
    assert "published" not in err
    assert _serving_cpus(home) == [0, 1]


def test_a_failed_build_stops_the_pipeline_before_check_and_publish(tmp_path, monkeypatch):
    home = Home(tmp_path / "home").create()
    (home.landing / "cpu.csv").write_text(CSV_HEADER + _csv_row(0, 1_000))
    not_a_project = tmp_path / "not_a_dbt_project"  # dbt finds no dbt_project.yml there and fails
    not_a_project.mkdir()
    monkeypatch.setattr(dbt_runner, "DBT_PROJECT", not_a_project)
    result = pipeline.run(home, quiet=True)
    assert [(s.name, s.status) for s in result.steps] == [("ingest", "passed"), ("build", "failed")]
    assert result.steps[0].summary.startswith("1 files: 1 loaded, 0 with rejects")
    assert (result.ok, result.failed.name, result.validation) == (False, "build", None)
    assert not home.serving_path.exists()


def test_stop_on_rejects_ends_the_run_at_ingest(tmp_path):
    """The demo's data must load cleanly: a rejected file ends its run before dbt starts."""
    home = Home(tmp_path / "home").create()
    (home.landing / "cpu.csv").write_text(CSV_HEADER + _csv_row(0, 1_000))
    (home.landing / "empty.dat").write_bytes(b"")
    told = []
    result = pipeline.run(home, stop_on_rejects=True, on_step=lambda step, _result: told.append(step.name))
    assert told == ["ingest"]
    (ingest,) = result.steps
    assert ingest.status == "failed"
    assert ingest.problems == [f"{home.landing / 'empty.dat'}: empty file: expected at least one record (at start of file)"]
    assert [r.status for r in result.files] == ["loaded", "rejected"]
    assert not (home.warehouse_dir / "dbt_target").exists()


def test_the_demo_takes_its_files_in_a_month_at_a_time_as_they_landed(tmp_path):
    """A file lands the morning after the last day it holds; the demo's night for the files that landed in a
    month is the last of those days."""
    last_days = {"w02.csv": dt.date(2026, 1, 11), "w05.csv": dt.date(2026, 2, 1), "jan.log": dt.date(2026, 1, 31),
                 "wed.txt": dt.date(2026, 1, 28), "march.dump": dt.date(2026, 3, 5)}
    files = {}
    for name, last_day in last_days.items():
        (tmp_path / name).write_text("data\n")
        files[name] = landed(tmp_path / name, last_day)
    assert landing_day(files["w05.csv"]) == dt.date(2026, 2, 2)
    assert pipeline.demo_nights(list(files.values())) == [
        (dt.date(2026, 1, 29), [files["w02.csv"], files["wed.txt"]]),
        (dt.date(2026, 2, 2), [files["jan.log"], files["w05.csv"]]),
        (dt.date(2026, 3, 6), [files["march.dump"]]),
    ]
