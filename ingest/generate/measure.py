"""``perfdb generate measure``: realistic MEASURE data for one NonStop system, in any of the three input forms.

    perfdb generate measure --system '\\PROD1' --cpus 8 --cpu-type 2 --days 30 --start 2026-01-05 \\
        --processes 40 --discs 6 --lines 2 --seed 1986 --forms csv,binary,meascom --out DIR

The load model (``_measure_model``) decides the values; this module writes them the way MEASCOM would
have: for every day (``--period day``, one nightly ``LIST ... LOADID DT<jd><hh>`` run) or every ISO week
(``--period week``, the weekly CPLNWEEK subvolume of seed 001, structured records appended day after day)::

    DIR/csv/PROD1/2026-01-05/cpu.csv process.csv disc.csv line.csv userdef.csv file.csv discopen.csv terminal.csv
    DIR/binary/PROD1/2026-01-05/zmscpu zmsproc zmsdisc zmsline zmsudef zmsfile zmsdopen zmsterm
    DIR/meascom/PROD1/2026-01-05/meascom-2026-01-05.txt      (LIST CPU *, LIST PROCESS *, ... RATE ON; no TERMINAL)

Binary files carry the record name of their layout (the DDL ``FILE is`` name); text reports are always one
file per day. The same seed gives the same bytes. An entity with no records (``--lines 0``) gets no file.

``demo(home, seed)`` writes the demo data set into ``home/landing/measure``: two systems (``\\PROD1`` with 8
NonStop TXP CPUs, ``\\DEV1`` with 4 NonStop VLX CPUs, whose capacity thresholds differ: 85 % and 95 %,
seed 001 L3194) over 60 days from Monday 2026-01-05, across the January/February boundary; \\PROD1's second line
carries 15 ATMs, beyond seed 001's 13 (L3400), and \\DEV1 measured one Tuesday in 30-minute intervals. Most
days arrive as structured records in weekly files, binary and CSV alternating by week; every Wednesday
arrives as a MEASCOM text report.
"""

from __future__ import annotations

import datetime as dt
import json
import sys
from dataclasses import replace
from itertools import chain, groupby
from pathlib import Path
from typing import Callable, Iterable, Iterator

from ingest.generate._landing import landed
from ingest.generate._measure_inventory import SystemSpec
from ingest.generate._measure_model import TABLES, TEXT_TABLES, MeasureModel
from ingest.cli_options import add_generator_options, forms_of, output_dir, subcommand
from ingest.home import Home

# what `perfdb generate --help` lists and `perfdb generate measure --help` explains
HELP = "realistic MEASURE data (CPU, PROCESS, DISC, LINE, USERDEF, FILE, DISCOPEN, TERMINAL) for one system"
DESCRIPTION = """Hourly MEASURE records of one NonStop system with a daily load curve, shifts, weekends, monthly growth and a
few saturated CPUs; the same seed always gives the same bytes."""

FORMS = ("csv", "binary", "meascom")
CSV_NAMES = {table: table.removeprefix("measure_") + ".csv" for table in TABLES}

DEMO_START = dt.date(2026, 1, 5)
DEMO_DAYS = 60
DEMO_SYSTEMS = (
    SystemSpec("\\PROD1", cpus=8, start=DEMO_START, days=DEMO_DAYS, processes=32, discs=6, lines=2, file_openers=3,
               busy_pathmon=True, terminals_per_line=(10, 15), measure_share=0.006),
    # one Tuesday measured INTERVAL 30 MINUTES for an application analysis, against the performance data
    # base's INTERVAL 1 HOURS (seed 001 L1976, L2199); the two concurrent measurements of that day take
    # MEASURE past the 1.14 % of CPU seed 001 L1192 saw it take
    SystemSpec("\\DEV1", cpus=4, start=DEMO_START, days=DEMO_DAYS, processes=14, discs=3, lines=1, file_openers=2,
               cpu_type=3, terminals_per_line=(8,), half_hour_days=(dt.date(2026, 2, 10),), measure_share=0.007),
)
DEMO_TEXT_WEEKDAY = 2  # Wednesdays come as MEASCOM text


def period_label(day: dt.date, period: str) -> str:
    if period == "week":
        year, week, _ = day.isocalendar()
        return f"{year}-W{week:02d}"
    return day.isoformat()


def _non_empty(records: Iterator[dict]) -> Iterator[dict] | None:
    """The same records, or None when there are none (so no empty file is written)."""
    first = next(records, None)
    return None if first is None else chain([first], records)


def write_form(
    model: MeasureModel,
    form: str,
    dates: Iterable[dt.date],
    out: Path,
    *,
    period: str = "day",
    ddl_paths: Iterable[Path] = (),
) -> list[Path]:
    """Writes the given days of one system in one form under ``out/<form>/<SYSTEM>/<period>/``."""
    return _write(model, {form: _WRITERS[form](ddl_paths)}, dates, Path(out), period)


def _write(model: MeasureModel, writers: dict[str, Callable], dates, out: Path, period: str) -> list[Path]:
    written: list[Path] = []
    # period by period, so that every form of a period reuses the days the model has just computed
    for label, days in groupby(sorted(dates), key=lambda d: period_label(d, period)):
        days = list(days)
        for form, writer in writers.items():
            directory = out / form / model.spec.short_name / label
            directory.mkdir(parents=True, exist_ok=True)
            # a period's files land together, after its last day
            written.extend(landed(path, days[-1]) for path in writer(model, days, directory))
    return written


def _structured_writer(file_name: Callable[[str], str], write_file: Callable[[Path, str, Iterator[dict]], int]):
    """One file per entity holding all days of the period, as MEASCOM appends STRUCTURED records."""

    def write(model: MeasureModel, days: list[dt.date], directory: Path) -> list[Path]:
        written = []
        for table in TABLES:
            records = _non_empty(chain.from_iterable(model.records(table, d) for d in days))
            if records is not None:
                path = directory / file_name(table)
                write_file(path, table, records)
                written.append(path)
        return written

    return write


def _csv_writer(_ddl_paths) -> Callable:
    from ingest.formats.measure.csv_records import write_csv

    return _structured_writer(CSV_NAMES.__getitem__, write_csv)


def _binary_writer(ddl_paths) -> Callable:
    from ingest.formats.measure.binary_records import LAYOUT_FOR_TABLE, write_records
    from ingest.formats.measure.ddl import load_layouts

    layouts = load_layouts(list(ddl_paths))
    missing = sorted(LAYOUT_FOR_TABLE[t] for t in TABLES if LAYOUT_FOR_TABLE[t] not in layouts)
    if missing:
        raise ValueError(f"no DDL layout for record(s) {', '.join(missing)}: pass a DDL file with --ddl")
    layout_of = {t: layouts[LAYOUT_FOR_TABLE[t]] for t in TABLES}
    # binary files are named after their record, as the DDL's FILE clause names them
    return _structured_writer(
        lambda table: layout_of[table].name,
        lambda path, table, records: write_records(path, layout_of[table], records),
    )


def _meascom_writer(_ddl_paths) -> Callable:
    from ingest.formats.measure.meascom_writer import write_report

    def write(model: MeasureModel, days: list[dt.date], directory: Path) -> list[Path]:
        written = []
        for day in days:
            path = directory / f"meascom-{day.isoformat()}.txt"
            # newline="\n": the same bytes on every platform, as determinism promises
            with path.open("w", encoding="ascii", newline="\n") as f:
                prompt = 1
                for table in TEXT_TABLES:
                    records = _non_empty(model.records(table, day))
                    if records is not None:
                        prompt = write_report(f, table, records, rate_on=True, prompt=prompt)
            written.append(path)
        return written

    return write


_WRITERS = {"csv": _csv_writer, "binary": _binary_writer, "meascom": _meascom_writer}


def generate(
    spec: SystemSpec, out: Path, forms: Iterable[str], *, period: str = "day", ddl_paths: Iterable[Path] = ()
) -> list[Path]:
    """Every day of ``spec`` in every requested form."""
    writers = {form: _WRITERS[form](list(ddl_paths)) for form in forms}
    return _write(MeasureModel(spec), writers, spec.dates(), Path(out), period)


def demo(home: Home, seed: int) -> list[Path]:
    """The demo data set of ``perfdb demo`` and the shared test warehouse, written into ``home.landing``."""
    out = home.landing / "measure"
    written: list[Path] = []
    for n, base in enumerate(DEMO_SYSTEMS):
        model = MeasureModel(replace(base, seed=seed))
        by_form: dict[str, list[dt.date]] = {form: [] for form in FORMS}
        for day in model.spec.dates():
            week = (day - DEMO_START).days // 7
            form = "meascom" if day.weekday() == DEMO_TEXT_WEEKDAY else ("binary", "csv")[(week + n) % 2]
            by_form[form].append(day)
        for form, days in by_form.items():
            written.extend(write_form(model, form, days, out, period="week"))
    return written


# -- command line ------------------------------------------------------------------------------------


def add_parser(subparsers) -> None:
    p = subcommand(subparsers, "measure", cmd_generate_measure, HELP, DESCRIPTION)
    # --days is an int, not positive_int: SystemSpec names every bad value of a system in one message
    add_generator_options(p, "measure", start=DEMO_START, days=7)
    p.add_argument("--system", default="\\PROD1", help="node name, e.g. '\\PROD1' (default %(default)s)")
    p.add_argument("--cpus", type=int, default=8, help="processors, 1-16 (default %(default)s)")
    p.add_argument("--cpu-type", type=int, default=SystemSpec.cpu_type,
                   help="MEASURE CPU-TYPE code of the processors: 1 NonStop II, 2 TXP, 3 VLX, ... 10 (default %(default)s)")
    p.add_argument("--processes", type=int, default=40, help="measured processes (default %(default)s)")
    p.add_argument("--discs", type=int, default=6, help="disc volumes (default %(default)s)")
    p.add_argument("--lines", type=int, default=2, help="communication lines (default %(default)s)")
    p.add_argument("--growth", type=float, default=SystemSpec.growth_per_month,
                   help="month-on-month load growth, e.g. 0.05 = 5%% (default %(default)s)")
    p.add_argument("--saturated", type=int, default=None, help="CPUs built to saturate (default: one per 8 CPUs)")
    p.add_argument("--busy-pathmon", action="store_true",
                   help="a PATHMON polled for SERVER STATUS all day (Glasstone 1986, seed 001 L2448)")
    p.add_argument("--measure-share", type=float, default=SystemSpec.measure_share,
                   help="share of CPU busy MEASURE's own processes take, measured with the rest, e.g. 0.006 "
                        "(seed 001 L1192: 0.02 %% to 1.14 %%; default %(default)s: not measured)")
    p.add_argument("--forms", type=forms_of(FORMS), default=["csv"], help="comma-separated: csv,binary,meascom (default csv)")
    p.add_argument("--period", choices=["day", "week"], default="day", help="one set of files per day or per ISO week")
    p.add_argument("--ddl", action="append", default=[], help="extra DDL file for the binary layouts (repeatable)")


def cmd_generate_measure(args) -> int:
    try:
        spec = SystemSpec(
            args.system, args.cpus, args.start, args.days, processes=args.processes, discs=args.discs,
            lines=args.lines, cpu_type=args.cpu_type, seed=args.seed, growth_per_month=args.growth, saturated_cpus=args.saturated,
            busy_pathmon=args.busy_pathmon, measure_share=args.measure_share,
        )
    except ValueError as e:
        print(f"perfdb generate measure: {e}", file=sys.stderr)
        return 2
    out = output_dir(args, "measure")
    try:
        files = generate(spec, out, args.forms, period=args.period, ddl_paths=[Path(p) for p in args.ddl])
    except (ValueError, OSError) as e:
        print(f"perfdb generate measure: {e}", file=sys.stderr)
        return 1
    size = sum(f.stat().st_size for f in files)
    if args.json:
        print(json.dumps({"system": spec.name, "days": spec.days, "forms": args.forms, "out": str(out),
                          "files": [str(f) for f in files], "bytes": size}, indent=2))
    else:
        print(f"{spec.name}: {spec.days} days from {spec.start} as {', '.join(args.forms)}: "
              f"{len(files)} files, {size / 1e6:.1f} MB in {out}")
    return 0
