"""Suites for the processor chain: intervals, hourly rates, shift and month condensation, the threshold report.

* ``intermediate.int_cpu__interval``: the conformed interval every source feeds (MEASURE, SMF type 70):
  busy within 0-100 %, rates not negative, interval lengths as the timestamps say and at most an hour,
  no gap longer than one interval per processor.
* ``intermediate.int_cpu__hourly``: busy percentages within 0-100 %, queues and rates not negative, one
  row per processor and hour, at most one hour of measurement per hour.
* ``marts.fct_cpu_shift``: every *complete* shift has all its hours (8 for the default shifts), no shift
  has more; busy within 0-100 %; each average lies between its minimum and maximum. A shift is complete
  when it lies inside the processor's measured span (first to last measured hour): the shifts at either
  end of a capture may be partial, a shift in the middle with missing hours means missing data.
* ``marts.fct_cpu_monthly``: each monthly row equals the condensation of its shift rows, recomputed here
  (King 1986, Fig. 8: AVG of the shift averages, MAX of maxima and spreads, MIN of minima; counts summed).
* ``marts.rpt_threshold_violations``: a row only where the shift crosses a rule of seeds.thresholds, every
  crossing has its row, and the per-rule flags agree with the rules (recomputed from fct_cpu_shift, with a
  system's own rule replacing the `*` default as the seed describes).

Busy tolerance: percentages may exceed 100 by BUSY_TOLERANCE_PCT points, the rounding of RATE ON
percentages that the MEASCOM text form prints (two decimals) and the parser turns back into microseconds.
Beyond that, up to 100 + SKEW_LIMIT_PCT, a percentage is a warning, not a failure: real counters read a
little apart in time (the interval's end stamp and the busy counter) show a busy CPU at 100.6 %, and one
such hour must not hold back a night's publish; the dbt tests draw the same line (warn over 100).
"""

from __future__ import annotations

import great_expectations.expectations as gxe

from quality import slice as slicing
from quality.suite import Suite, check, not_negative, not_null, one_row_per

BUSY_TOLERANCE_PCT = 0.5
SKEW_LIMIT_PCT = 5.0
RECONCILE_TOLERANCE = 1e-6  # recomputed aggregates of doubles differ only by summation order
ORDER_TOLERANCE = 1e-9  # an average of equal values may differ from them in the last bits

MEASURES = ("busy_pct", "ibusy_pct", "sbusy_pct", "qlen", "mqlen", "swaps_per_s", "dispatches_per_s")
PERCENTAGES = ("busy_pct", "ibusy_pct", "sbusy_pct")
RATES = tuple(m for m in MEASURES if m not in PERCENTAGES)
SPREADS = ("qlen_spread_across_hours", "busy_pct_spread_across_hours")
SHIFT_COLUMNS = tuple(f"{m}_{a}" for m in MEASURES for a in ("avg", "max", "min")) + SPREADS
FIGURE_9_METRICS = ("qlen_max", "qlen_spread_across_hours", "swaps_per_s_max", "busy_pct_max",
                    "busy_pct_spread_across_hours", "ibusy_pct_max")

HOURLY_KEY = ("system_name", "cpu_num", "hour_start")
SHIFT_KEY = ("system_name", "cpu_num", "shift_date", "shift")
MONTH_KEY = ("system_name", "cpu_num", "shift", "month")
REPORT_KEY = ("system_name", "shift_date", "shift", "cpu_num")


def _percentage(column):
    return [
        check(f"{column}_in_range", f"{column} within 0-100 % (+{SKEW_LIMIT_PCT:g} points of counter skew)",
              gxe.ExpectColumnValuesToBeBetween(column=column, min_value=0, max_value=100 + SKEW_LIMIT_PCT)),
        check(f"{column}_at_most_100", f"{column} at most 100 % (+{BUSY_TOLERANCE_PCT:g} points of rounding)",
              gxe.ExpectColumnValuesToBeBetween(column=column, max_value=100 + BUSY_TOLERANCE_PCT, severity="warning")),
    ]


# -- int_cpu__interval ---------------------------------------------------------------------------------

INTERVAL_KEY = ("system_name", "cpu_num", "interval_start")

def _on_days(alias: str, time: str) -> str:
    """The row's (system, day of ``time``) is a touched day."""
    return slicing.on_days(f"{alias}.system_name", f"cast({alias}.{time} as date)")


def _shift_filter(alias: str, sliced: bool) -> str:
    return f"where {slicing.on_shift_dates(f'{alias}.system_name', f'{alias}.shift_date')}" if sliced else ""


def interval_query(sliced: bool) -> str:
    in_slice = (lambda alias: _on_days(alias, "interval_start")) if sliced else None
    source = slicing.source("intermediate.int_cpu__interval", in_slice, ("system_name", "cpu_num"), "interval_start")
    return f"""
with {source},

checked as (
    select
        in_slice,
        source,
        {", ".join(INTERVAL_KEY)},
        interval_end,
        interval_s,
        {", ".join(MEASURES)},
        epoch(interval_end) - epoch(interval_start) - interval_s as span_minus_interval_s,
        (epoch(interval_start) - epoch(lag(interval_end) over (
            partition by system_name, cpu_num order by interval_start
        ))) / nullif(interval_s, 0) as gap_in_intervals,
    from source
)

select * from checked where in_slice
"""


def interval_expectations():
    return [
        *not_null(("source", *INTERVAL_KEY, "interval_end"), "processor interval"),
        one_row_per("one_row_per_cpu_interval", INTERVAL_KEY, "system, processor and interval start"),
        *[c for m in PERCENTAGES for c in _percentage(m)],
        *[not_negative(m) for m in RATES],
        check("interval_length_in_range", "an interval lasts more than 0 and at most 3600 s",
              gxe.ExpectColumnValuesToBeBetween(column="interval_s", min_value=0, strict_min=True, max_value=3600)),
        check("interval_matches_timestamps", "interval_s equals interval_end - interval_start within 1 s",
              gxe.ExpectColumnValuesToBeBetween(column="span_minus_interval_s", min_value=-1, max_value=1)),
        check("no_gap_longer_than_an_interval",
              "between consecutive intervals of one processor no gap longer than one interval, from any source",
              gxe.ExpectColumnValuesToBeBetween(column="gap_in_intervals", max_value=1)),
    ]


# -- int_cpu__hourly -----------------------------------------------------------------------------------

def hourly_query(sliced: bool) -> str:
    where = f"where {_on_days('hourly', 'hour_start')}" if sliced else ""
    return f"""
select
    {", ".join(HOURLY_KEY)},
    measured_s,
    {", ".join(MEASURES)},
from intermediate.int_cpu__hourly as hourly
{where}
"""


def hourly_expectations():
    return [
        *not_null(HOURLY_KEY, "processor hour"),
        one_row_per("one_row_per_cpu_hour", HOURLY_KEY, "system, processor and hour"),
        *[c for m in PERCENTAGES for c in _percentage(m)],
        *[not_negative(m) for m in RATES],
        check("measured_at_most_an_hour", "an hour holds more than 0 and at most 3600 s of measurement",
              gxe.ExpectColumnValuesToBeBetween(column="measured_s", min_value=0, strict_min=True, max_value=3600)),
    ]


# -- fct_cpu_shift ---------------------------------------------------------------------------------------

def shift_query(sliced: bool) -> str:
    return f"""
with rules as (
    select
        system_name,
        shift,
        begin_hour,
        case when begin_hour < end_hour then end_hour - begin_hour else 24 - begin_hour + end_hour end as shift_hours,
    from seeds.shifts
),

own_rules as (
    select distinct system_name from seeds.shifts where system_name <> '*'
),

spans as (
    select
        system_name,
        cpu_num,
        min(hour_start) as first_hour_start,
        max(hour_start) + interval 1 hour as measured_until,
    from intermediate.int_cpu__hourly
    group by system_name, cpu_num
),

shifts as (
    select
        facts.*,
        rules.shift_hours,
        facts.shift_date + to_hours(rules.begin_hour) as shift_start,
    from marts.fct_cpu_shift as facts
    left join own_rules
        on own_rules.system_name = facts.system_name
    left join rules
        on rules.system_name = coalesce(own_rules.system_name, '*')
        and rules.shift = facts.shift
    {_shift_filter("facts", sliced)}
)

select
    {", ".join(f"shifts.{c}" for c in SHIFT_KEY)},
    shifts.n_hours,
    shifts.shift_hours,
    case
        when shifts.shift_start >= spans.first_hour_start
            and shifts.shift_start + to_hours(shifts.shift_hours) <= spans.measured_until
        then shifts.n_hours
    end as n_hours_if_complete,
    {", ".join(f"shifts.{c}" for c in SHIFT_COLUMNS)},
    {", ".join(f"greatest({m}_min - {m}_avg, {m}_avg - {m}_max) as {m}_avg_outside_min_max" for m in MEASURES)},
from shifts
left join spans
    on spans.system_name = shifts.system_name
    and spans.cpu_num = shifts.cpu_num
"""


def shift_expectations():
    return [
        *not_null(SHIFT_KEY, "processor shift"),
        one_row_per("one_row_per_cpu_shift", SHIFT_KEY, "system, processor, shift date and shift"),
        check(
            "complete_shift_has_all_hours",
            "a shift inside the processor's measured span has all its hours (8 for the default shifts)",
            gxe.ExpectColumnPairValuesToBeEqual(
                column_A="n_hours_if_complete", column_B="shift_hours", ignore_row_if="either_value_is_missing"
            ),
        ),
        check(
            "no_more_hours_than_the_shift",
            "no shift has more hours than the shifts seed gives it",
            gxe.ExpectColumnPairValuesAToBeGreaterThanB(
                column_A="shift_hours", column_B="n_hours", or_equal=True, ignore_row_if="either_value_is_missing"
            ),
        ),
        *[c for m in PERCENTAGES for a in ("avg", "max", "min") for c in _percentage(f"{m}_{a}")],
        *_percentage("busy_pct_spread_across_hours"),
        not_negative("qlen_spread_across_hours"),
        *[not_negative(f"{m}_min") for m in RATES],
        *[
            check(f"{m}_avg_between_min_and_max", f"{m}_avg lies between {m}_min and {m}_max",
                  gxe.ExpectColumnValuesToBeBetween(column=f"{m}_avg_outside_min_max", max_value=ORDER_TOLERANCE))
            for m in MEASURES
        ],
    ]


# -- fct_cpu_monthly -------------------------------------------------------------------------------------

def _condensed(column: str) -> str:
    if column.endswith("_avg"):
        return f"avg({column})"
    if column.endswith("_min"):
        return f"min({column})"
    return f"max({column})"  # maxima and spreads


def monthly_query(sliced: bool) -> str:
    shift_month = "cast(date_trunc('month', shift_rows.shift_date) as date)"
    where_shifts = f"where {slicing.in_months('shift_rows.system_name', shift_month)}" if sliced else ""
    where_months = f"where {slicing.in_months('months.system_name', 'months.month')}" if sliced else ""
    return f"""
with recomputed as (
    select
        system_name,
        cpu_num,
        shift,
        cast(date_trunc('month', shift_date) as date) as month,
        count(*) as n_shifts,
        sum(n_hours) as n_hours,
        {", ".join(f"{_condensed(c)} as {c}" for c in SHIFT_COLUMNS)},
    from marts.fct_cpu_shift as shift_rows
    {where_shifts}
    group by system_name, cpu_num, shift, cast(date_trunc('month', shift_date) as date)
),

monthly as (
    select * from marts.fct_cpu_monthly as months {where_months}
)

select
    {", ".join(f"coalesce(monthly.{k}, recomputed.{k}) as {k}" for k in MONTH_KEY)},
    case
        when monthly.system_name is null then 'marts.fct_cpu_monthly'
        when recomputed.system_name is null then 'marts.fct_cpu_shift'
    end as missing_from,
    monthly.n_shifts - recomputed.n_shifts as n_shifts_diff,
    monthly.n_hours - recomputed.n_hours as n_hours_diff,
    {", ".join(f"monthly.{c} - recomputed.{c} as {c}_diff" for c in SHIFT_COLUMNS)},
from monthly
full outer join recomputed
    on {" and ".join(f"recomputed.{k} = monthly.{k}" for k in MONTH_KEY)}
"""


def monthly_expectations():
    return [
        one_row_per("one_row_per_cpu_shift_month", MONTH_KEY, "system, processor, shift and month"),
        check("months_and_shifts_match", "every month has shift rows and every shift row's month has a row",
              gxe.ExpectColumnValuesToBeNull(column="missing_from")),
        *[
            check(f"{c}_equals_shift_rows", f"{c.removesuffix('_diff')} is the count of its shift rows' values",
                  gxe.ExpectColumnValuesToBeBetween(column=c, min_value=0, max_value=0))
            for c in ("n_shifts_diff", "n_hours_diff")
        ],
        *[
            check(f"{c}_equals_shift_rows", f"{c} is {_condensed(c).split('(')[0].upper()} of its shift rows' {c}",
                  gxe.ExpectColumnValuesToBeBetween(
                      column=f"{c}_diff", min_value=-RECONCILE_TOLERANCE, max_value=RECONCILE_TOLERANCE))
            for c in SHIFT_COLUMNS
        ],
    ]


# -- rpt_threshold_violations ----------------------------------------------------------------------------

def threshold_query(sliced: bool) -> str:
    return f"""
with shifts as (
    select * from marts.fct_cpu_shift as facts {_shift_filter("facts", sliced)}
),

report as (
    select * from marts.rpt_threshold_violations as reported {_shift_filter("reported", sliced)}
),

rules as (
    select
        systems.system_name,
        rule.metric,
        rule.operator,
        rule."limit" as limit_value,
    from (select distinct system_name from shifts) as systems
    inner join seeds.thresholds as rule
        on rule.entity = 'cpu'
        and rule.system_name in (systems.system_name, '*')
    where rule.system_name = systems.system_name
        or not exists (
            select 1
            from seeds.thresholds as own
            where own.entity = 'cpu'
                and own.metric = rule.metric
                and own.system_name = systems.system_name
        )
),

measures as (
    unpivot (select {", ".join(REPORT_KEY)}, {", ".join(SHIFT_COLUMNS)} from shifts)
    on {", ".join(SHIFT_COLUMNS)}
    into name metric value metric_value
),

evaluated as (
    select
        {", ".join(f"measures.{k}" for k in REPORT_KEY)},
        measures.metric,
        case rules.operator
            when '>' then measures.metric_value > rules.limit_value
            when '>=' then measures.metric_value >= rules.limit_value
            when '<' then measures.metric_value < rules.limit_value
            when '<=' then measures.metric_value <= rules.limit_value
        end as crossed,
    from measures
    inner join rules
        on rules.system_name = measures.system_name
        and rules.metric = measures.metric
),

crossings as (
    select
        {", ".join(REPORT_KEY)},
        count(*) filter (where crossed) as rules_crossed,
        {", ".join(f"coalesce(bool_or(crossed) filter (where metric = '{m}'), false) as {m}_crossed" for m in FIGURE_9_METRICS)},
    from evaluated
    group by {", ".join(REPORT_KEY)}
)

select
    {", ".join(f"coalesce(report.{k}, crossings.{k}) as {k}" for k in REPORT_KEY)},
    case when report.system_name is not null then coalesce(crossings.rules_crossed, 0) end
        as rules_crossed_by_reported_row,
    case when report.system_name is null and crossings.rules_crossed > 0 then crossings.rules_crossed end
        as rules_crossed_by_unreported_row,
    case when report.system_name is not null then
        {" + ".join(f"cast(coalesce(report.crossed_{m}, false) <> coalesce(crossings.{m}_crossed, false) as integer)" for m in FIGURE_9_METRICS)}
    end as flags_disagreeing,
from report
full outer join crossings
    on {" and ".join(f"crossings.{k} = report.{k}" for k in REPORT_KEY)}
"""


def threshold_expectations():
    return [
        one_row_per("one_row_per_cpu_shift", REPORT_KEY, "system, shift date, shift and processor"),
        check("reported_rows_cross_a_rule", "a report row only where the shift crosses a rule of seeds.thresholds",
              gxe.ExpectColumnValuesToBeBetween(column="rules_crossed_by_reported_row", min_value=1)),
        check("every_crossing_is_reported", "every shift that crosses a rule has its report row",
              gxe.ExpectColumnValuesToBeNull(column="rules_crossed_by_unreported_row")),
        check("crossed_flags_match_the_rules", "each crossed_<metric> flag says whether that rule is crossed",
              gxe.ExpectColumnValuesToBeBetween(column="flags_disagreeing", min_value=0, max_value=0)),
    ]


SUITES = [
    Suite.framed("intermediate.int_cpu__interval", interval_query, interval_expectations,
                 description="the conformed processor interval of every source (MEASURE CPU, SMF type 70)",
                 row_id=("source", *INTERVAL_KEY)),
    Suite.framed("intermediate.int_cpu__hourly", hourly_query, hourly_expectations,
                 description="hourly processor rates (King 1986, Fig. 5)", row_id=HOURLY_KEY),
    Suite.framed("marts.fct_cpu_shift", shift_query, shift_expectations,
                 requires=("seeds.shifts", "intermediate.int_cpu__hourly"),
                 description="processor shifts (King 1986, Fig. 6)", row_id=SHIFT_KEY),
    Suite.framed("marts.fct_cpu_monthly", monthly_query, monthly_expectations, requires=("marts.fct_cpu_shift",),
                 description="processor months = condensation of their shift rows (King 1986, Fig. 8)",
                 row_id=MONTH_KEY),
    Suite.framed("marts.rpt_threshold_violations", threshold_query, threshold_expectations,
                 relation="marts.fct_cpu_shift", requires=("marts.rpt_threshold_violations", "seeds.thresholds"),
                 description="the daily threshold report (King 1986, Fig. 9 -> Fig. 1)", row_id=REPORT_KEY),
]
