"""``perfdb report sizing``: the documents' sizing formulas on the site's own measured workloads.

    perfdb report sizing [--system NAME] [--utilization 0.70] [--mips N] [--format table|csv|json]
    perfdb report sizing --measured [--system NAME] [--format table|csv|json]
    perfdb report sizing --formulas [--system NAME] [--format table|csv|json]

One row per application workload (component ``application`` in the seed workload_definitions) with
transactions in the latest measured month of each system (``marts.fct_workload_monthly``): its measured CPU
milliseconds per transaction, and what the formulas of ``ingest.capacity.sizing`` make of it:

* ``transactions_per_s_per_cpu``: the transactions one processor completes per second at the target
  utilization (seed 001, the ATM article L3491: 60 % of 1,000 ms / 400 ms = 1.5 a second);
* with ``--mips`` (the processor's speed, which no record carries): the pathlength in thousands of
  instructions per transaction (seed 004 L4387) and the TN3270 terminals one processor carries at the
  target utilization, each sending two transactions a minute of that pathlength plus the 280 KI TCP/IP
  overhead (seed 004 L4393, L4536).

With ``--measured``, the mart ``marts.rpt_capacity_sizing_measured`` instead: per z/OS system and day the FTP
bytes and the CPU of the FTP workload as CPU seconds per MB and KI per KB, the TN3270 sessions and their CPU,
and the TN3270 terminals per processor from the application workloads' pathlength, through the same formulas
in SQL (``dbt_project/macros/sizing.sql``), with the MIPS of the seed ``processor_speeds`` and the target
utilization of the dbt var ``capacity_sizing_utilization``.

With ``--formulas``, the mart ``marts.rpt_formula_results``: every formula of the documents computed in SQL
(``dbt_project/macros/formulas.sql``) on each worked example the document prints (the seed
``reference_formula_inputs``), with the result the document prints and whether the formula reproduces it to
the printed precision, then the same formulas on the site's measured TN3270, FTP and application work
(``--system`` keeps the document's cases and that system's measured ones). A sample row::

    document  line  formula                 case_name    words                                           inputs                            result  unit  printed  agreement
    003       888   vtam_3172_outbound_bnn  BNN example  U_o = L_o x (1706 + 1585 + 26 x N_o) / M ...  l_o = 400, n_o = 3, m = 20000000  6.74    %     6.74%    agrees

Sample (table, ``--mips 1200``)::

    platform  system_name  month_start  workload  transactions  cpu_ms_per_transaction  transactions_per_s_per_cpu  pathlength_ki  tn3270_terminals_per_processor
    zos       SYSA         2026-01-01   TSO             309586                 50.0001                        14.0        60000.1                           418.0
"""

from __future__ import annotations

import argparse
import sys

from ingest.capacity import sizing
from ingest.cli_options import add_format, add_system_filter, home_of, positive_float, subcommand
from ingest.output import print_rows
from ingest.reports._marts import ReportError, query_mart, where

HELP = "the documents' sizing formulas on the measured cost per transaction of each workload"
DESCRIPTION = """Transactions per processor at a target utilization and, given the processor's MIPS, pathlength and TN3270
terminals per processor, from each workload's measured CPU per transaction (latest month per system)."""

MONTHLY = "marts.fct_workload_monthly"
MEASURED = "marts.rpt_capacity_sizing_measured"
FORMULAS = "marts.rpt_formula_results"
FORMULA_COLUMNS = ["document", "line", "formula", "case_name", "words", "inputs", "result", "unit", "printed",
                   "agreement"]
DEFINITIONS = "seeds.workload_definitions"
COLUMNS = ["platform", "system_name", "month_start", "workload", "transactions", "cpu_ms_per_transaction",
           "transactions_per_s_per_cpu", "pathlength_ki", "tn3270_terminals_per_processor"]


def fraction(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a utilization such as 0.70, got {text!r}") from None
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"a target utilization is between 0 and 1 (exclusive), got {value}")
    return value


def sizing_rows(home, system: str | None, utilization: float, mips: float | None) -> list[tuple]:
    sql, params = where({"m.system_name = ?": system})
    _, rows = query_mart(
        home,
        f"""select m.platform, m.system_name, m.month_start, m.workload, m.transactions, m.cpu_ms_per_transaction
            from {MONTHLY} as m
            inner join (select system_name, max(month_start) as month_start from {MONTHLY} group by system_name) as latest
                on latest.system_name = m.system_name and latest.month_start = m.month_start
            inner join (select distinct workload from {DEFINITIONS} where component = 'application') as applications
                on applications.workload = m.workload
            {sql}{' and' if sql else ' where'} m.transactions > 0
            order by m.platform, m.system_name, m.cpu_ms_per_transaction * m.transactions desc, m.workload""",
        params,
    )
    out = []
    for platform, system_name, month, workload, transactions, cpu_ms in rows:
        pathlength = terminals = None
        if mips is not None:
            pathlength = sizing.pathlength_ki_of_cpu_ms(cpu_ms, mips)
            terminals = round(sizing.tn3270_terminals_per_processor(utilization, mips, pathlength), 1)
            pathlength = round(pathlength, 1)
        out.append((platform, system_name, month, workload, int(transactions), round(cpu_ms, 4),
                    round(sizing.transactions_per_s_per_cpu(utilization, cpu_ms), 4), pathlength, terminals))
    return out


def measured_rows(home, system: str | None) -> tuple[list[str], list[tuple]]:
    sql, params = where({"system_id = ?": system})
    return query_mart(home, f"select * from {MEASURED}{sql} order by system_id, measured_date", params)


def formula_rows(home, system: str | None) -> list[tuple]:
    """The formulas' cases, the document's first; a result at the printed precision where the document prints
    one (the unrounded value is in the mart), else to 4 places."""
    sql, params = where({"(system_name is null or system_name = ?)": system})
    _, rows = query_mart(
        home,
        f"""select document, line, formula, case_name, words, inputs, result, decimals, unit, printed_text, agreement
            from {FORMULAS}{sql}
            order by source, document, formula, line, case_name""",
        params,
    )
    return [(document, line, formula, case_name, words, inputs, round(result, 4 if decimals is None else decimals),
             unit, printed, agreement)
            for document, line, formula, case_name, words, inputs, result, decimals, unit, printed, agreement in rows]


def print_report(args, out=None) -> int:
    try:
        if args.formulas:
            columns, rows = FORMULA_COLUMNS, formula_rows(home_of(args), args.system)
        elif args.measured:
            columns, rows = measured_rows(home_of(args), args.system)
        else:
            columns, rows = COLUMNS, sizing_rows(home_of(args), args.system, args.utilization, args.mips)
    except ReportError as e:
        print(f"perfdb report sizing: {e}", file=sys.stderr)
        return 1
    if not rows and args.format == "table":
        nothing = ("no formula results: the seed reference_formula_inputs is not loaded" if args.formulas
                   else "no z/OS FTP, TN3270 or application work: ingest SMF 119, SMF 30 and SMF 72.3 data"
                   if args.measured else "no workload with transactions: ingest SMF 72.3 or MEASURE data")
        print(f"perfdb report sizing: {nothing} and run `perfdb run`", file=sys.stderr)
        return 0
    print_rows(columns, rows, args.format, out=out or sys.stdout)
    return 0


def add_parser(subparsers) -> None:
    p = subcommand(subparsers, "sizing", print_report, HELP, DESCRIPTION)
    add_system_filter(p)
    p.add_argument("--utilization", type=fraction, default=0.70,
                   help="target processor utilization, e.g. 0.70 (default %(default)s)")
    p.add_argument("--mips", type=positive_float, help="the processor's MIPS, for pathlength and TN3270 terminals per processor")
    p.add_argument("--measured", action="store_true",
                   help="the formulas on the measured FTP, TN3270 and application work per z/OS system and day "
                        "(marts.rpt_capacity_sizing_measured; MIPS from the seed processor_speeds)")
    p.add_argument("--formulas", action="store_true",
                   help="every formula of the documents on its worked examples, with the printed result and "
                        "whether it agrees, and on the measured TN3270 and FTP work (marts.rpt_formula_results)")
    add_format(p)
