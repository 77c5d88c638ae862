"""``perfdb rules``: every rule of the rules catalogue (``dbt_project/seeds/rules_catalogue.csv``) with its
status on this warehouse, from ``marts.rpt_rule_status`` of ``serving.duckdb`` (read-only): ``evaluated``,
with the values it compared and how many were findings, or ``not evaluable`` and why (the input it needs and
which capture or listing provides it).

The configuration rules that ``ingest.capacity.config_checks`` evaluates are counted from the parameter
listings loaded (``marts.rpt_config_findings``, in rpt_rule_status) and, here, outside SQL, on the parameters
of the benchmark runs the warehouse holds (``marts.fct_benchmark_run``, one node per run): a rule is evaluated
on every run that sets what it needs, and its findings are the checks' findings, added to the listings'.
"""

from __future__ import annotations

import sys

from ingest.cli_options import add_format, home_of, subcommand
from ingest.home import Home
from ingest.output import print_rows
from ingest.reports._marts import ReportError, query_mart

HELP = "every rule of the five documents with its status on this warehouse"
STATUS = "marts.rpt_rule_status"
MISSING = "marts.rpt_measure_missing_days"
KINDS = ("threshold", "selection", "configuration", "formula", "diagnostic")
STATUSES = ("evaluated", "not evaluable")
# the columns of a table on a terminal; CSV and JSON carry every column of the mart
SHOWN = ("rule_id", "document", "doc_rule", "lines", "kind", "status", "evaluations", "systems", "findings", "reason")


def _config_status(home: Home) -> dict[str, tuple[int, int]]:
    """rule_id -> (runs checked, findings) of the config_checks rules on the ingested benchmark runs."""
    from ingest.capacity import config_checks

    _, runs = query_mart(home, "select run_label, parameters_json from marts.fct_benchmark_run "
                               "where parameters_json is not null order by run_key", [])
    settings = [s for label, parameters in runs for s in config_checks.parameter_settings(label, parameters)]
    findings, applied = config_checks.evaluate(settings)
    return {rule_id: (checked, sum(f.rule_id == rule_id for f in findings)) for rule_id, checked in applied.items()}


def missing_days(home: Home) -> list[tuple[str, int, int]]:
    """(entity, systems, system-days) of the MEASURE entities a measured day lacks (a MEASCOM text day has no
    TERMINAL records): the rules on that entity's marts are evaluated without these days."""
    _, rows = query_mart(home, f"select entity, count(distinct system_name), count(*) from {MISSING} "
                               "group by entity order by entity", [])
    return rows


def fetch(home: Home, document: str | None, kind: str | None, status: str | None) -> tuple[list[str], list[tuple]]:
    columns, rows = query_mart(home, f"select * from {STATUS} order by document, rule_id", [])
    index = {c: i for i, c in enumerate(columns)}
    checked = _config_status(home)
    out = []
    for row in rows:
        row = list(row)
        if row[index["evaluated_by"]] == "config_checks" and row[index["rule_id"]] in checked:
            runs, found = checked[row[index["rule_id"]]]
            row[index["evaluations"]] = (row[index["evaluations"]] or 0) + runs
            row[index["findings"]] = (row[index["findings"]] or 0) + found
            row[index["status"]], row[index["reason"]] = "evaluated", None
        if (document is None or row[index["document"]] == document) and (kind is None or row[index["kind"]] == kind) \
                and (status is None or row[index["status"]] == status):
            out.append(tuple(row))
    return columns, out


def print_report(home: Home, document: str | None, kind: str | None, status: str | None, fmt: str, out=None) -> int:
    out = out or sys.stdout
    try:
        columns, rows = fetch(home, document, kind, status)
    except ReportError as e:
        print(f"perfdb rules: {e}", file=sys.stderr)
        return 1
    if fmt != "table":
        print_rows(columns, rows, fmt, out=out)
        return 0
    shown = [columns.index(c) for c in SHOWN]
    print_rows(list(SHOWN), [tuple(row[i] for i in shown) for row in rows], fmt, out=out)
    evaluated = sum(row[columns.index("status")] == "evaluated" for row in rows)
    for entity, systems, days in missing_days(home):
        print(f"{entity}: {days} days of {systems} systems measured without {entity} records: the rules on them are "
              f"evaluated without these days ({MISSING})", file=out)
    print(f"{len(rows)} rules: {evaluated} evaluated, {len(rows) - evaluated} not evaluable", file=out)
    return 0


def run(args) -> int:
    return print_report(home_of(args), args.doc, args.kind, args.status, args.format)


def add_parser(subparsers) -> None:
    p = subcommand(subparsers, "rules", run, HELP, __doc__.split("\n\n")[0])
    p.add_argument("--doc", help="only the rules of one document: 000, 001, 002, 003, 004 or formats")
    p.add_argument("--kind", choices=KINDS, help="only the rules of one kind")
    p.add_argument("--status", choices=STATUSES, help="only the rules evaluated, or only those not evaluable")
    add_format(p)
