"""``perfdb report threshold``: the daily threshold report, for every domain.

For one date it prints first the processors whose shift values cross a ``cpu`` rule of the
``thresholds`` seed, one row per processor and shift from ``marts.rpt_threshold_violations``. The layout
is Figure 1 of King, "How to Set Up a Performance Data Base with MEASURE and ENFORM" (Tandem Systems
Review, December 1986). Each system and shift gets a block with a title. The report has the same
stacked headings as the figure. Numbers use the ENFORM F5.1 mask, which prints ``.2`` for 0.2. TIME
OF DAY is the hour of the processor's MAX CPU BUSY in the shift. When a day's records name no OS
version (MEASCOM text), the system's last version is shown with
``(carried forward from MM/DD/YY: this shift's records name none)``.
Sample output, for rows that carry the values of Figure 1::

                                    THRESHOLD REPORT
     SYSTEM: \\BANCA
     DATE: 05/08/86
     SHIFT 1
     OS VERSION: B30

          TIME   MAX    DELT   MAX    MAX    DELT   MAX    AVG    AVG    AVG    AVG
    CPU    OF    CPU    CPU    CPU    CPU    CPU    INTR   CPU    CPU    CPU    CPU
     #    DAY    QLEN   QLEN   SWAP   BUSY   BUSY   BUSY   QLEN   SWAP   BUSY   INTR
      0  11:00    2.0    1.3     .2   55.4   10.5    8.5    1.2     .1   42.6    6.3

Then it prints the other crossings of that date from ``marts.rpt_threshold_exceptions`` (disc, line,
process and USERDEF counter shifts, network intervals and snapshots): one line per crossed rule with the system or host, what
crossed, the interval, the rule, the observed value and the limit. A time on another day than DATE
carries its month and day; a snapshot with no previous one shows its own time only. Sample, from the
demo warehouse (``--date 2026-02-15 --system aix01``)::

                                                     OTHER THRESHOLD EXCEPTIONS
     DATE: 02/15/26

                                                     RULE   OBSERVED
     DOMAIN  SYSTEM       ENTITY        INTERVAL      ID      VALUE   LIMIT                          RULE
    network  aix01   STREAMS buffers  10:00-12:00  SNA-R01        85   > 30  CS/AIX pacing windows restricted for lack of memory
    network  aix01   STREAMS buffers  10:00-12:00  SNA-R02        85  >= 70  CS/AIX pacing windows cut back hard
    network  aix01   STREAMS buffers  10:00-12:00  SNA-R03         1   >= 1  buf_use_status = CONGESTED
    network  aix01   STREAMS buffers  10:00-12:00  SNA-R04         1   >= 1  max_buf_use_status = CONGESTED since the last reset

Last, how many rows each alarm rule of the ``thresholds`` seed flagged on the date, 0 included: the
crossings above and the processes of ``marts.rpt_process_activity`` outside the OLTP band of 5 to 20
file I/Os per transaction. Sample (abridged)::

            ROWS FLAGGED PER RULE
     DATE: 02/15/26

        RULE                         ROWS
         ID           ENTITY       FLAGGED
    CPU-T1       cpu                     1
    CPU-T5       cpu                     3
    LINE-T1      line                    3
    PROC-ACT-HI  process_activity        1

``--format csv`` and ``--format json`` print the rows of ``marts.rpt_threshold_exceptions`` for the date,
every domain (CPU rows one per crossed rule). In JSON each row is an object keyed by column name
(domain, system_name, entity, source_command, exception_date, shift, interval_start, interval_end,
rule_id, severity, rule, metric, observed_value, operator, limit_value, source). If nothing crossed a
threshold on that date, the table format prints nothing to stdout, as ENFORM did, and says so on stderr.
"""

from __future__ import annotations

import datetime as dt
import itertools
import sys

from ingest.cli_options import add_date, add_format, add_system_filter, home_of, subcommand
from ingest.home import Home
from ingest.reports._enform_format import Column, f_mask, i_mask, render_table, table_width, text_column
from ingest.reports._marts import (
    ReportError, has_data_on, no_data_message, print_machine_readable, query_mart, resolve_system, where,
)

# what `perfdb report --help` lists and `perfdb report threshold --help` explains
HELP = "daily threshold report (every rule of the thresholds seed crossed on a date)"
DESCRIPTION = """Processors whose shift values crossed a threshold on DATE, in the layout of the ENFORM threshold report,
then the other crossings of that date (disc, line, network)."""

MART = "marts.rpt_threshold_violations"
EXCEPTIONS = "marts.rpt_threshold_exceptions"
RULES = "seeds.thresholds"
PROCESS_ACTIVITY = "marts.rpt_process_activity"
# rules that select rows of a report rather than raise alarms (rpt_busy_process): nothing to count
SELECTION_ENTITIES = ("busy_process",)
DECIMALS = 4  # CSV and JSON: enough to tell a value from its limit (0.1004 > 0.1), no float noise

# Figure 1's columns: (mart column, heading, mask). The headings are the ones Figure 1 prints.
# Figure 9 has "AVG/INTR/BUSY" where Figure 1 prints "AVG CPU INTR".
FIGURE_1 = [
    ("cpu_num", "CPU/#", lambda v: i_mask(v, 2), 2),
    ("time_of_day", "TIME/OF/DAY", lambda v: v.strftime("%H:%M") if v is not None else "", 5),
    ("qlen_max", "MAX/CPU/QLEN", lambda v: f_mask(v, 5, 1), 5),
    ("qlen_spread_across_hours", "DELT/CPU/QLEN", lambda v: f_mask(v, 5, 1), 5),
    ("swaps_per_s_max", "MAX/CPU/SWAP", lambda v: f_mask(v, 5, 1), 5),
    ("busy_pct_max", "MAX/CPU/BUSY", lambda v: f_mask(v, 5, 1), 5),
    ("busy_pct_spread_across_hours", "DELT/CPU/BUSY", lambda v: f_mask(v, 5, 1), 5),
    ("ibusy_pct_max", "MAX/INTR/BUSY", lambda v: f_mask(v, 5, 1), 5),
    ("qlen_avg", "AVG/CPU/QLEN", lambda v: f_mask(v, 5, 1), 5),
    ("swaps_per_s_avg", "AVG/CPU/SWAP", lambda v: f_mask(v, 5, 1), 5),
    ("busy_pct_avg", "AVG/CPU/BUSY", lambda v: f_mask(v, 5, 1), 5),
    ("ibusy_pct_avg", "AVG/CPU/INTR", lambda v: f_mask(v, 5, 1), 5),
]
COLUMNS = [Column(heading, width, render) for _, heading, render, width in FIGURE_1]


def fetch(home: Home, date: dt.date, system: str | None) -> tuple[list[str], list[tuple]]:
    """The Figure 1 rows of one shift date."""
    sql, params = where({"shift_date = ?": date, "system_name = ?": system})
    return query_mart(home, f"select * from {MART}{sql} order by system_name, shift, cpu_num", params)


def fetch_exceptions(home: Home, date: dt.date, system: str | None, *, other_than_cpu: bool = False):
    """The rows of the unified mart for one date: every domain, or all but the CPU rows Figure 1 prints."""
    sql, params = where({
        "exception_date = ?": date, "system_name = ?": system, "domain <> ?": "cpu" if other_than_cpu else None,
    })
    order = " order by domain, system_name, interval_end, rule_id, entity, source_command"
    return query_mart(home, f"select * from {EXCEPTIONS}{sql}{order}", params)


def render(columns: list[str], rows: list[tuple]) -> list[str]:
    """The Figure 1 layout: one titled block per system, date and shift."""
    index = {name: i for i, name in enumerate(columns)}
    width = table_width(COLUMNS)
    lines: list[str] = []

    def block_key(row):
        return row[index["system_name"]], row[index["shift_date"]], row[index["shift"]]

    for (system, date, shift), block in itertools.groupby(rows, key=block_key):
        block = list(block)
        os_version = block[0][index["os_version"]] or ""
        if block[0][index["os_version_carried_forward"]]:
            measured_on = block[0][index["os_version_measured_on"]]
            os_version += f" (carried forward from {measured_on:%m/%d/%y}: this shift's records name none)"
        lines += [
            "THRESHOLD REPORT".center(width).rstrip(),
            f" SYSTEM: {system}",
            f" DATE: {date:%m/%d/%y}",
            f" SHIFT {shift}",
            f" OS VERSION: {os_version}",
            "",
        ]
        lines += render_table(COLUMNS, [[row[index[name]] for name, *_ in FIGURE_1] for row in block])
        lines.append("")
    return lines


def number_text(value: float, limit: float | None = None) -> str:
    """A value with no trailing zeros, and with as many decimals as it takes to tell it from its limit."""
    def trimmed(v: float, decimals: int) -> str:
        text = f"{v:.{decimals}f}"
        return text.rstrip("0").rstrip(".") if "." in text else text

    decimals = 3
    # 0.1004 against a limit of 0.1 must not print as 0.1
    while limit is not None and value != limit and decimals < 9:
        if trimmed(value, decimals) != trimmed(limit, decimals):
            break
        decimals += 1
    return trimmed(value, decimals)


def time_text(moment: dt.datetime | None, date: dt.date) -> str:
    """HH:MM on the report date, MM/DD HH:MM on another day."""
    if moment is None:
        return ""
    return f"{moment:%H:%M}" if moment.date() == date else f"{moment:%m/%d %H:%M}"


def render_exceptions(columns: list[str], rows: list[tuple], date: dt.date) -> list[str]:
    """The crossings other than Figure 1's: one line per crossed rule, under one title for the date."""
    index = {name: i for i, name in enumerate(columns)}

    def value(row, name):
        return row[index[name]]

    def interval(row) -> str:
        start, end = time_text(value(row, "interval_start"), date), time_text(value(row, "interval_end"), date)
        return f"{start}-{end}" if start else end

    texts = [
        [
            value(row, "domain"),
            str(value(row, "system_name")),
            value(row, "entity"),
            interval(row),
            value(row, "rule_id"),
            number_text(value(row, "observed_value"), value(row, "limit_value")),
            f"{value(row, 'operator')} {number_text(value(row, 'limit_value'))}",
            value(row, "rule") or "",
        ]
        for row in rows
    ]
    headings = ["DOMAIN", "SYSTEM", "ENTITY", "INTERVAL", "RULE/ID", "OBSERVED/VALUE", "LIMIT", "RULE"]
    table = [
        text_column(heading, [t[i] for t in texts], right=heading in ("OBSERVED/VALUE", "LIMIT"))
        for i, heading in enumerate(headings)
    ]
    width = table_width(table)
    lines = ["OTHER THRESHOLD EXCEPTIONS".center(width).rstrip(), f" DATE: {date:%m/%d/%y}", ""]
    return lines + render_table(table, texts) + [""]


def fetch_rule_counts(home: Home, date: dt.date, system: str | None) -> list[tuple[str, str, int]]:
    """(rule_id, entity, rows flagged on the date) for every alarm rule of the thresholds seed, 0 included:
    the crossings of rpt_threshold_exceptions, and the processes rpt_process_activity flags."""
    exceptions_sql, exceptions_params = where({"exception_date = ?": date, "system_name = ?": system})
    activity_sql, activity_params = where({"report_date = ?": date, "system_name = ?": system})
    marks = ", ".join("?" for _ in SELECTION_ENTITIES)
    _, rows = query_mart(
        home,
        f"with flagged as (select rule_id, count(*) as n from {EXCEPTIONS}{exceptions_sql} group by rule_id "
        f"union all select oltp_band_rule_id, count(*) from {PROCESS_ACTIVITY}{activity_sql} "
        "and oltp_band_rule_id is not null group by oltp_band_rule_id), "
        f"rules as (select distinct rule_id, entity from {RULES} where entity not in ({marks})) "
        "select rules.rule_id, rules.entity, coalesce(sum(flagged.n), 0) from rules "
        "left join flagged using (rule_id) group by rules.rule_id, rules.entity order by rules.entity, rules.rule_id",
        [*exceptions_params, *activity_params, *SELECTION_ENTITIES],
    )
    return [(rule_id, entity, int(n)) for rule_id, entity, n in rows]


def render_rule_counts(counts: list[tuple[str, str, int]], date: dt.date) -> list[str]:
    """How many rows each rule flagged on the date: one line per rule, the ones that flagged nothing too."""
    texts = [[rule_id, entity, str(n)] for rule_id, entity, n in counts]
    table = [
        text_column(heading, [t[i] for t in texts], right=i == 2)
        for i, heading in enumerate(["RULE/ID", "ENTITY", "ROWS/FLAGGED"])
    ]
    lines = ["ROWS FLAGGED PER RULE".center(table_width(table)).rstrip(), f" DATE: {date:%m/%d/%y}", ""]
    return lines + render_table(table, texts) + [""]


def print_report(home: Home, date: dt.date, fmt: str, system: str | None = None, out=None) -> int:
    """Exit status 0 when the date has data (crossings or none), 1 when it has none or the warehouse is missing."""
    out = out or sys.stdout
    try:
        system = resolve_system(home, system)
        exceptions = fetch_exceptions(home, date, system)
        if not exceptions[1] and not has_data_on(home, date):
            raise ReportError(no_data_message(home, f"on {date}"))
        if fmt != "table":
            print_machine_readable(*exceptions, fmt, out=out, decimals=DECIMALS)
            return 0
        figure_1 = fetch(home, date, system)
        others = fetch_exceptions(home, date, system, other_than_cpu=True)
        counts = fetch_rule_counts(home, date, system)
    except ReportError as e:
        print(f"perfdb report threshold: {e}", file=sys.stderr)
        return 1
    lines = render(*figure_1) if figure_1[1] else []
    if others[1]:
        lines += render_exceptions(*others, date)
    if any(n for *_, n in counts):
        lines += render_rule_counts(counts, date)
    if lines:
        out.write("\n".join(lines) + "\n")
    else:
        print(f"perfdb report threshold: nothing crossed a threshold on {date}", file=sys.stderr)
    return 0


def print_busiest_day(home: Home, fmt: str) -> int:
    """The threshold report of the date with the most crossings, of any domain (the latest one on a tie)."""
    try:
        _, rows = query_mart(
            home,
            f"select exception_date from {EXCEPTIONS} group by exception_date "
            "order by count(*) desc, exception_date desc limit 1",
            [],
        )
    except ReportError as e:
        print(f"perfdb report threshold: {e}", file=sys.stderr)
        return 1
    if not rows:
        print("perfdb report threshold: nothing crossed a threshold on any day", file=sys.stderr)
        return 0
    return print_report(home, rows[0][0], fmt)


def run(args) -> int:
    return print_report(home_of(args), args.date, args.format, args.system)


def add_parser(subparsers) -> None:
    p = subcommand(subparsers, "threshold", run, HELP, DESCRIPTION)
    add_date(p, "shift date or interval date")
    add_system_filter(p, "\\TAHITI")
    add_format(p)
