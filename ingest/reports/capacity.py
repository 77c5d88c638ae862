"""``perfdb report capacity``: capacity planning as seed 001's "Capacity Planning Concepts" describes it.

    perfdb report capacity [--resource cpu|processor_pool|disc|line|interface|dasd_busy|dasd_response]
                           [--system NAME]
                           [--growth 0.10]
                           [--cost | --p95 | --benchmarks | --config LISTING] [--format table|csv|json]

The default report answers "when will each resource run out, and what does a growth do": one row per
resource from ``marts.fct_capacity_forecast`` (its peak now, its bounds of available capacity for its
resource and processor type, the growth of its daily peak, the projected crossing date of the lower bound
with the band of the slope's 95 % confidence limits, or the reason there is none) with the what-if of
``--growth`` (default +10 %, Evans' what-if step, seed 001 L1833): the projected peak, the response time
in units of the service time by an M/M/c model (``ingest.capacity.queueing``), the utilization at which
response time doubles (for information) and the projection's grade, read from the bands of
``marts.rpt_capacity_grade_band`` (the grades of every what-if mart, macros/capacity_grades.sql: within
capacity, warning, critical, saturated). A DASD volume has two rows: ``dasd_busy``, its peak device busy in
percent against the 70-80 % of reference_capacity_thresholds' ``dasd_busy`` row (perfdb's proposal, as a
disc's), and ``dasd_response``, its peak response time in ms against the rules catalogue's DASD-T1 limit (its
``unit`` is ms, its peak shown as ``3.1ms``): a response time is not a utilization, so it has no what-if. Sample (terminal, ``--resource cpu`` on the demo, an excerpt:
``\\PROD1``'s processors are NonStop TXPs, judged at 85 %, ``\\DEV1``'s VLXs at 95 %, z/OS CPs at 70-80 %)::

    resource  system  name    peak %  limit  /30d  crosses     status                 +10%    grade
    --------  ------  ------  ------  -----  ----  ----------  ---------------------  ------  ---------------
    cpu       \\PROD1  CPU 06   92.8*     85  +3.9  2026-01-07  above threshold        102.1*  saturated
    cpu       SYSA    CPU 03   78.6*  70-80  +7.9  2026-02-01  above threshold         86.5*  critical
    cpu       \\DEV1   CPU 01    92.8     95  +4.4  2026-03-13  crosses                102.1*  saturated
    cpu       \\PROD1  CPU 03    65.9     85  +3.0  2026-09-25  crosses                  72.5  within capacity

``--p95`` prints, per month, each processor's, disc's and line's busy avg, max and p95 of its hours with the
grade of the p95 and of the max against the same thresholds (``marts.rpt_capacity_p95_monthly``: a threshold
set on p95 ignores the few busiest hours a max is made of). Sample (five days of a small system, excerpt)::

    month       resource_type  system_name  resource_name  n_hours  busy_pct_avg  busy_pct_max  busy_pct_p95  ...  p95_grade
    2026-03-01  cpu            \\R1                      1      120          44.5          98.3          92.5  ...  critical
    2026-03-01  disc           \\R1          $DATA01            120          21.7          42.4            40  ...  within capacity

``--cost`` prints what a transaction costs (``marts.fct_capacity_cost_per_transaction``: CPU ms per
transaction, ETR, ITR) per source, system and day, the total that ``marts.rpt_workload_cost_per_transaction``
splits by component (the same transactions and measured CPU); ``--benchmarks`` the user's benchmark runs beside the
published ones (``marts.rpt_benchmark_vs_reference``); ``--config FILE`` checks a parameter listing (plain
CSV ``node,parameter,value,unit`` or a benchmark log) against the tuning rules of seeds 000, 002 and 003,
each finding naming its rule and source lines (no warehouse needed). ``--format json`` prints a JSON array
of objects keyed by the column names.
"""

from __future__ import annotations

import argparse
import math
import sys

from ingest.capacity import config_checks, queueing
from ingest.cli_options import add_format, add_system_filter, home_of, subcommand
from ingest.home import Home
from ingest.output import print_rows
from ingest.reports._marts import ReportError, query_mart, resolve_system, where

# what `perfdb report --help` lists and `perfdb report capacity --help` explains
HELP = "capacity forecast and what-if per resource, cost per transaction, benchmark comparison, config checks"
DESCRIPTION = """When each resource crosses its threshold (by resource and processor type) at the current growth, and what a
growth does to utilization, response time (M/M/c) and the grade against available capacity; or the cost per transaction, the benchmark comparison, or the tuning-rule findings
for a parameter listing."""

FORECAST = "marts.fct_capacity_forecast"
GRADE_BANDS = "marts.rpt_capacity_grade_band"
COST = "marts.fct_capacity_cost_per_transaction"
BENCHMARKS = "marts.rpt_benchmark_vs_reference"
P95 = "marts.rpt_capacity_p95_monthly"
RESOURCES = ("cpu", "processor_pool", "disc", "line", "interface", "dasd_busy", "dasd_response")

FORECAST_COLUMNS = (
    "resource_type", "system_name", "resource_name", "shift", "unit", "servers", "cpu_type", "history_points",
    "current_peak_pct", "threshold_pct", "threshold_upper_pct", "growth_pct_points_per_30_days", "crossing_date", "crossing_date_early", "crossing_date_late",
    "status", "status_detail",
)
WHATIF_COLUMNS = ("whatif_growth_pct", "projected_peak_pct", "response_factor", "projected_response_factor",
                  "doubling_utilization_pct", "assessment")


def growth_factor(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a growth factor such as 0.10 (+10 %) or -0.15, got {text!r}") from None
    if value <= -1:
        raise argparse.ArgumentTypeError(f"a growth of {value:+.0%} leaves no workload; expected a factor above -1")
    return value


def whatif_row(current_pct: float | None, servers: int, growth: float, grade: str | None) -> tuple:
    """The what-if columns for one resource, with the grade the warehouse gave its projection; a resource
    without a current peak gets none."""
    if current_pct is None:
        return (round(growth * 100, 2), None, None, None, None, None)
    servers = max(1, int(servers or 1))
    result = queueing.what_if(min(current_pct / 100, 0.999999), growth, servers)

    def finite(x: float) -> float | None:
        return None if math.isinf(x) else round(x, 4)

    return (round(growth * 100, 2), round(result["projected_utilization"] * 100, 2), finite(result["response_factor"]),
            finite(result["projected_response_factor"]), round(result["doubling_utilization"] * 100, 2), grade)


# The grade of each resource's projection: the band of rpt_capacity_grade_band (the grades of the what-if
# marts) of its thresholds' row holding the projection, computed as the marts compute it: the current peak
# as a fraction, grown, back to percent.
GRADED_FORECAST = f"""
    select forecast.*, bands.grade
    from {FORECAST} as forecast
    left join {GRADE_BANDS} as bands
        on bands.resource_type = forecast.resource_type
        and bands.cpu_type = forecast.threshold_cpu_type
        and (bands.from_pct is null or 100 * (forecast.current_peak_pct / 100 * (1 + $growth)) >= bands.from_pct)
        and (bands.to_pct is null or 100 * (forecast.current_peak_pct / 100 * (1 + $growth)) < bands.to_pct)
"""


def forecast_rows(home: Home, resource: str | None, system: str | None, growth: float) -> tuple[list[str], list[tuple]]:
    sql, params = where({"resource_type = ?": resource, "system_name = ?": system})
    columns, rows = query_mart(
        home,
        f"select {', '.join(FORECAST_COLUMNS)}, grade from ({GRADED_FORECAST.replace('$growth', 'cast(? as double)')}){sql} "
        "order by crossing_date nulls last, resource_type, system_name, resource_name, shift",
        [growth, growth, *params],
    )
    index = {c: i for i, c in enumerate(columns)}
    out = []
    for row in rows:
        # a growth scales a utilization; a response time (unit ms) has no what-if
        current = row[index["current_peak_pct"]] if row[index["unit"]] == "pct" else None
        extra = whatif_row(current, row[index["servers"]], growth, row[index["grade"]])
        rounded = tuple(round(v, 2) if isinstance(v, float) else v for v in row[:-1])
        out.append(rounded + extra)
    return list(columns[:-1]) + list(WHATIF_COLUMNS), out


def cost_rows(home: Home, system: str | None) -> tuple[list[str], list[tuple]]:
    sql, params = where({"system_name = ?": system})
    return query_mart(
        home,
        f"""select source, system_name, cast(period_start as date) as day,
                   sum(transactions) as transactions,
                   round(1000 * sum(busy_pct / 100 * cpu_count * period_s) / sum(transactions), 2) as cpu_ms_per_transaction,
                   round(max(etr_per_s), 3) as peak_etr_per_s,
                   round(sum(transactions) / sum(busy_pct / 100 * cpu_count * period_s), 3) as itr_per_cpu_s
            from {COST}{sql}
            group by source, system_name, cast(period_start as date)
            order by source, system_name, day""",
        params,
    )


def p95_rows(home: Home, resource: str | None, system: str | None) -> tuple[list[str], list[tuple]]:
    """Each processor, disc and line per month: busy avg, max and p95 of its hours (the p95 merged from day
    distributions, so it outlives the purged hours) and the grade of each against its available capacity."""
    sql, params = where({"resource_type = ?": resource, "system_name = ?": system})
    return query_mart(
        home,
        f"""select month, resource_type, system_name, resource_name, n_hours,
                   round(busy_pct_avg, 1) as busy_pct_avg, round(busy_pct_max, 1) as busy_pct_max,
                   busy_pct_p95, capacity_lower_pct, capacity_upper_pct, p95_grade, max_grade
            from {P95}{sql}
            order by month, resource_type, system_name, resource_name""",
        params,
    )


def benchmark_rows(home: Home) -> tuple[list[str], list[tuple]]:
    return query_mart(
        home,
        f"""select run_label, role, run_date, transaction_type, bytes_per_transaction,
                   reference_document, reference_table, reference_line_start, reference_run_label,
                   round(throughput_ratio, 3) as throughput_ratio, round(etr_ratio, 3) as etr_ratio,
                   round(cpu_per_byte_ratio, 3) as cpu_per_byte_ratio,
                   round(cpu_per_transaction_ratio, 3) as cpu_per_transaction_ratio, verdict
            from {BENCHMARKS} order by run_date, run_label, role""",
        [],
    )


def config_rows(path) -> tuple[list[str], list[tuple]]:
    findings = config_checks.check(config_checks.read_listing(path))
    columns = ["rule_id", "severity", "node", "parameters", "found", "expected", "source"]
    order = {"alert": 0, "warn": 1, "info": 2}
    findings.sort(key=lambda f: (order.get(f.severity, 3), f.node, f.rule_id))
    return columns, [tuple(f.as_row()[c] for c in columns) for f in findings]


def print_report(args, out=None) -> int:
    out = out or sys.stdout
    try:
        if args.config:
            columns, rows = config_rows(args.config)
            if not rows and args.format == "table":
                print(f"{args.config}: no finding: the listing follows every tuning rule that applies to it", file=sys.stderr)
                return 0
        else:
            home = home_of(args)
            args.system = resolve_system(home, args.system)
            if args.cost:
                columns, rows = cost_rows(home, args.system)
            elif args.benchmarks:
                columns, rows = benchmark_rows(home)
            elif args.p95:
                columns, rows = p95_rows(home, args.resource, args.system)
            else:
                columns, rows = forecast_rows(home, args.resource, args.system, args.growth)
    except (ReportError, config_checks.ListingError) as e:
        print(f"perfdb report capacity: {e}", file=sys.stderr)
        return 1
    except OSError as e:
        print(f"perfdb report capacity: {e}", file=sys.stderr)
        return 1
    if not rows and args.format == "table":
        print("perfdb report capacity: no rows: ingest MEASURE, SMF or benchmark data and run `perfdb run` first",
              file=sys.stderr)
        return 0
    if args.format == "table" and not (args.cost or args.benchmarks or args.config or args.p95):
        columns, rows = forecast_view(columns, rows, args.growth)
    elif args.format == "table" and args.benchmarks:
        columns, rows = choose(columns, rows, BENCHMARK_VIEW)
    print_rows(columns, rows, args.format, out=out)
    return 0


# the table a terminal shows (CSV and JSON keep every column): (mart column, heading)
BENCHMARK_VIEW = [("run_label", "run"), ("role", "role"), ("reference_document", "doc"),
                  ("reference_table", "published table"), ("throughput_ratio", "throughput x"),
                  ("etr_ratio", "etr x"), ("cpu_per_transaction_ratio", "cpu/tx x"), ("verdict", "verdict")]


def choose(columns: list[str], rows: list[tuple], view: list[tuple[str, str]]) -> tuple[list[str], list[tuple]]:
    index = {c: i for i, c in enumerate(columns)}
    return [heading for _, heading in view], [tuple(row[index[c]] for c, _ in view) for row in rows]


def forecast_view(columns: list[str], rows: list[tuple], growth: float) -> tuple[list[str], list[tuple]]:
    """The forecast on a terminal: one line per resource, a ``*`` after a peak at or above its threshold (the
    lower bound of available capacity), the limit as its band (``70-80``) or its one figure (``85`` for a
    NonStop TXP) and the projection's grade; the processor type, the confidence band, the detail and the
    M/M/c figures are in CSV/JSON."""
    index = {c: i for i, c in enumerate(columns)}

    def marked(row, column: str) -> str | None:
        value, limit = row[index[column]], row[index["threshold_pct"]]
        if value is None:
            return None
        unit = "" if row[index["unit"]] == "pct" else row[index["unit"]]
        return f"{value:.1f}{unit}" + ("*" if limit is not None and value >= limit else "")

    def one(value, spec: str) -> str | None:
        return None if value is None else format(value, spec)

    def limit(row) -> str | None:
        lower, upper = row[index["threshold_pct"]], row[index["threshold_upper_pct"]]
        if lower is None or upper is None or lower == upper:
            return one(lower, "g")
        return f"{lower:g}-{upper:g}"

    # /30d: the trend's growth in points per 30 days; +10%: the peak the what-if projects
    headings = ["resource", "system", "name", "peak %", "limit", "/30d", "crosses", "status", f"{growth:+.0%}", "grade"]
    view = [
        (row[index["resource_type"]], row[index["system_name"]], row[index["resource_name"]],
         marked(row, "current_peak_pct"), limit(row),
         one(row[index["growth_pct_points_per_30_days"]], "+.1f"), row[index["crossing_date"]],
         row[index["status"]], marked(row, "projected_peak_pct"), row[index["assessment"]])
        for row in rows
    ]
    return headings, view


def add_parser(subparsers) -> None:
    p = subcommand(subparsers, "capacity", print_report, HELP, DESCRIPTION)
    p.add_argument("--resource", choices=RESOURCES, help="only this kind of resource")
    add_system_filter(p)
    p.add_argument("--growth", type=growth_factor, default=0.10,
                   help="what-if workload growth as a factor, e.g. 0.10 = +10%%, -0.15 = -15%% (default %(default)s)")
    view = p.add_mutually_exclusive_group()
    view.add_argument("--cost", action="store_true", help="CPU ms per transaction, ETR and ITR per source, system and day")
    view.add_argument("--p95", action="store_true",
                      help="per month, each processor's, disc's and line's busy avg, max and p95, graded against its capacity")
    view.add_argument("--benchmarks", action="store_true", help="the site's benchmark runs beside the published results")
    view.add_argument("--config", metavar="LISTING",
                      help="check a parameter listing (CSV node,parameter,value,unit or a benchmark log) against the tuning rules")
    add_format(p)
