"""Suites for the raw MEASURE tables (docs/measure_raw_contract.md): two per table.

``raw.<table>.columns`` checks the table's catalogue: every contract column is there, with its type
(integer, text or timestamp; the integer width is free, a float or text where an integer belongs is not).

``raw.<table>`` checks the records:

* non-null natural keys and DELTA-TIME;
* no natural key twice in one file. A MEASCOM LIST run twice lands in two files and raw keeps both copies
  (staging keeps one), so the key is unique per file, not per table;
* system names as NonStop node names: one leading backslash, a letter, at most 7 characters;
* timestamps inside the capture window: after the Tandem epoch (1975), not ending after the file
  arrived (a day of slack for the system's time zone), and inside the clock hour of the record's LOADID
  when the LOADID has the DT<jd><hh> form of the article ("LOADID DT<jd>23 ... FROM 23:00, FOR 1 HOURS");
* interval lengths as expected: DELTA-TIME positive and at most the hour the warehouse condenses into,
  and equal to to_timestamp - from_timestamp within a second;
* counters never negative (MEASURE counters only grow within an interval);
* for entities measured without pause (processors, discs, lines): no gap between consecutive intervals
  of one entity longer than one interval. Processes, files and user counters come and go, so a pause
  there is not missing data.

A failing row is named by its file and record ordinal, the way raw.rejects names a bad record.

``raw.<table>.required`` checks each (system, day) of the slice: every required counter of the entity
(``Column(required=True)`` in ``ingest/formats/measure/tables.py``, those the marts divide or condense) has a
value in at least one of the day's records. A day where one is NULL in every record (a renamed column, a
report form that lacks the item) would build marts of NULL busy or rates without a word; the counts are
aggregated in DuckDB, one row per (system, day) reaches pandas.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from functools import partial

import great_expectations.expectations as gxe
import pyarrow as pa

from ingest.formats.measure import tables as measure_tables
from quality import slice as slicing
from quality.suite import Suite, check, not_null

INTEGER, TEXT, TIMESTAMP = "integer", "text", "timestamp"
_TYPE_CLASS = {pa.int32(): INTEGER, pa.int64(): INTEGER, pa.string(): TEXT, pa.timestamp("us"): TIMESTAMP}

# the raw contract (ingest/formats/measure/tables.py) as type classes
HEADER = {
    "source_file_id": INTEGER,
    **{c.name: _TYPE_CLASS[c.type] for c in (*measure_tables.RECORD_COLUMNS, *measure_tables.HEADER)},
}

MEASURE_EPOCH = dt.datetime(1975, 1, 1)  # Julian timestamps count from 1974-12-31 on NonStop systems
MAX_INTERVAL_S = 3600  # int_cpu__hourly and its siblings condense intervals into clock hours
SPAN_TOLERANCE_S = 1.0
ARRIVAL_SLACK_H = 24  # measured times are local civil time; ingested_at is the warehouse's clock


@dataclass(frozen=True)
class RawTable:
    name: str
    ids: dict[str, str]  # entity columns after the header, with their type class
    counters: tuple[str, ...]  # BIGINT counters in raw units
    key: tuple[str, ...]  # natural key without the interval
    continuous: tuple[str, ...] = ()  # an entity measured without pause, for the gap check
    required: tuple[str, ...] = ()  # counters a system-day must have a value of (Column.required)


# entities measured without pause, for the gap check; a disc process pair may switch processors
# (takeover): the volume is the continuous entity
CONTINUOUS = {
    "measure_cpu": ("system_name", "cpu_num"),
    "measure_disc": ("system_name", "device_name"),
    "measure_line": ("system_name", "device_name"),
}

TABLES = tuple(
    RawTable(
        e.table,
        {c.name: _TYPE_CLASS[c.type] for c in e.ids},
        tuple(c.name for c in e.counters),
        key=e.key,
        continuous=CONTINUOUS.get(e.table, ()),
        required=tuple(c.name for c in e.counters if c.required),
    )
    for e in measure_tables.ENTITIES
)


def _q(column: str) -> str:
    return f'"{column}"'  # `index`, `type` and `error` are SQL keywords


def contract_types(table: RawTable) -> dict[str, str]:
    return {**HEADER, **table.ids, **{c: INTEGER for c in table.counters}}


# -- catalogue ---------------------------------------------------------------------------------------

def columns_query(table: RawTable) -> str:
    names = ", ".join(f"'{c}'" for c in contract_types(table))
    return f"""
select
    column_name,
    data_type,
    case
        when data_type in ('TINYINT', 'SMALLINT', 'INTEGER', 'BIGINT', 'HUGEINT',
                           'UTINYINT', 'USMALLINT', 'UINTEGER', 'UBIGINT') then 'integer'
        when data_type = 'VARCHAR' then 'text'
        when data_type like 'TIMESTAMP%' then 'timestamp'
        else lower(data_type)
    end as type_class,
from information_schema.columns
where table_schema = 'raw'
    and table_name = '{table.name}'
    and column_name in ({names})
"""


def columns_expectations(table: RawTable):
    types = contract_types(table)

    def build():
        return [
            check(
                "contract_columns_present",
                f"raw.{table.name} has every column of the raw contract",
                gxe.ExpectColumnDistinctValuesToContainSet(column="column_name", value_set=sorted(types)),
            ),
            check(
                "contract_column_types",
                "each contract column has its contract type (integer, text or timestamp)",
                gxe.ExpectColumnPairValuesToBeInSet(
                    column_A="column_name", column_B="type_class", value_pairs_set=sorted(types.items())
                ),
            ),
        ]

    return build


# -- records -------------------------------------------------------------------------------------------

def records_query(table: RawTable, sliced: bool = False) -> str:
    """The records of ``table``; ``sliced``: those of the files loaded since the last passing check."""
    in_slice = (lambda alias: slicing.in_files(f"{alias}.source_file_id")) if sliced else None
    source = slicing.source(f"raw.{table.name}", in_slice, table.continuous, "from_timestamp")
    counters = ", ".join(f"r.{_q(c)}" for c in table.counters)
    gap = overlap_s = "null::double"
    if table.continuous:
        partition = ", ".join(_q(c) for c in table.continuous)
        before = f"over (partition by {partition} order by from_timestamp, to_timestamp)"
        gap = f"(epoch(from_timestamp) - epoch(lag(to_timestamp) {before})) / nullif(delta_time / 1e6, 0)"
        # seconds the interval shares with the entity's interval before it: its busy would count twice in the
        # hour; a copy of that same interval (another file's, counted by raw.key_conflicts) is no overlap
        overlap_s = f"""case when from_timestamp = lag(from_timestamp) {before} and to_timestamp = lag(to_timestamp) {before}
        then 0 else greatest(epoch(lag(to_timestamp) {before}) - epoch(from_timestamp), 0) end"""
    # seconds an interval shares with the hour its LOADID names
    overlap = "epoch(least(to_timestamp, {h} + interval 1 hour)) - epoch(greatest(from_timestamp, {h}))"
    return f"""
with {source},

records as (
    select
        r.in_slice,
        files.file_name as source_file,  -- not file_name: FILE and DISCOPEN records have their own
        r.record_ordinal,
        r.source_file_id,
        {", ".join(f"r.{_q(c)}" for c in table.key)},
        r.from_timestamp,
        r.to_timestamp,
        r.delta_time,
        r.loadid,
        least({counters}) as smallest_counter,
        files.ingested_at,
        -- DT<jd><hh>: day of year and hour, no year
        case when regexp_full_match(r.loadid, 'DT[0-9]{{5}}') then
            to_days(cast(substr(r.loadid, 3, 3) as integer) - 1) + to_hours(cast(substr(r.loadid, 6, 2) as integer))
        end as loadid_offset,
    from source as r
    left join raw.ingest_files as files
        on files.file_id = r.source_file_id
),

loadid_hours as (
    -- the named hour in the year the interval starts and in the year it ends, so that DT00100 still
    -- matches an interval that began on December 31st
    select
        *,
        make_timestamp(year(from_timestamp), 1, 1, 0, 0, 0) + loadid_offset as loadid_hour_a,
        make_timestamp(year(to_timestamp), 1, 1, 0, 0, 0) + loadid_offset as loadid_hour_b,
    from records
),

checked as (
select
    * exclude (ingested_at, loadid_offset, loadid_hour_a, loadid_hour_b),
    delta_time / 1e6 as interval_s,
    (epoch(to_timestamp) - epoch(from_timestamp)) - delta_time / 1e6 as span_minus_delta_s,
    (epoch(ingested_at) - epoch(to_timestamp)) / 3600 as hours_from_end_to_arrival,
    case when loadid_offset is not null then
        greatest({overlap.format(h="loadid_hour_a")}, {overlap.format(h="loadid_hour_b")}, 0)
    end as loadid_hour_overlap_s,
    {gap} as gap_in_intervals,
    {overlap_s} as overlap_with_interval_before_s,
from loadid_hours
)

select * from checked where in_slice
"""


def records_expectations(table: RawTable):
    def build():
        not_nulls = not_null((*table.key, "from_timestamp", "to_timestamp", "delta_time"), "record")
        checks = [
            check(
                "natural_key_unique_per_file",
                "no natural key twice in one file (a LIST run twice lands as a second file, which staging removes)",
                gxe.ExpectCompoundColumnsToBeUnique(
                    column_list=["source_file_id", *table.key, "from_timestamp", "to_timestamp"]
                ),
            ),
            check(
                "system_name_is_a_node_name",
                r"system names are NonStop node names: one backslash, a letter, at most 7 characters",
                gxe.ExpectColumnValuesToMatchRegex(column="system_name", regex=r"^\\[A-Za-z][A-Za-z0-9]{0,6}$"),
            ),
            check(
                "starts_after_measure_epoch",
                "intervals start after 1975-01-01 (a wrongly converted Julian timestamp lands before)",
                gxe.ExpectColumnValuesToBeBetween(column="from_timestamp", min_value=MEASURE_EPOCH),
            ),
            check(
                "ends_before_file_arrived",
                f"no interval ends after its file arrived ({ARRIVAL_SLACK_H} h slack for the system's time zone)",
                gxe.ExpectColumnValuesToBeBetween(column="hours_from_end_to_arrival", min_value=-ARRIVAL_SLACK_H),
            ),
            check(
                "inside_loadid_hour",
                "an interval overlaps the clock hour its LOADID DT<jd><hh> names",
                gxe.ExpectColumnValuesToBeBetween(column="loadid_hour_overlap_s", min_value=0, strict_min=True),
            ),
            check(
                "interval_length_in_range",
                f"DELTA-TIME is positive and at most {MAX_INTERVAL_S} s (the hour the warehouse condenses into)",
                gxe.ExpectColumnValuesToBeBetween(
                    column="interval_s", min_value=0, strict_min=True, max_value=MAX_INTERVAL_S
                ),
            ),
            check(
                "interval_matches_timestamps",
                f"DELTA-TIME equals to_timestamp - from_timestamp within {SPAN_TOLERANCE_S:g} s",
                gxe.ExpectColumnValuesToBeBetween(
                    column="span_minus_delta_s", min_value=-SPAN_TOLERANCE_S, max_value=SPAN_TOLERANCE_S
                ),
            ),
            check(
                "counters_not_negative",
                "no counter is negative",
                gxe.ExpectColumnValuesToBeBetween(column="smallest_counter", min_value=0),
            ),
        ]
        if table.continuous:
            checks.append(check(
                "no_gap_longer_than_an_interval",
                f"between consecutive intervals of one {' / '.join(table.continuous[1:])} no gap longer than one interval",
                gxe.ExpectColumnValuesToBeBetween(column="gap_in_intervals", max_value=1),
            ))
            checks.append(check(
                "no_overlap_with_the_interval_before",
                f"no interval of one {' / '.join(table.continuous[1:])} starts more than {SPAN_TOLERANCE_S:g} s before "
                "the one before it ended (the seconds both hold would count twice)",
                gxe.ExpectColumnValuesToBeBetween(column="overlap_with_interval_before_s", max_value=SPAN_TOLERANCE_S),
            ))
        return not_nulls + checks

    return build


# -- required counters per system-day ------------------------------------------------------------------

def required_query(table: RawTable, sliced: bool = False) -> str:
    """One row per (system, day) of ``table`` (of the slice's days when ``sliced``): its records and, per
    required counter, how many of them have a value."""
    day = "cast(r.from_timestamp as date)"
    where = f"where {slicing.on_days('r.system_name', day)}" if sliced else ""
    counts = ",\n    ".join(f"count(r.{_q(c)}) as {c}_values" for c in table.required)
    return f"""
select
    r.system_name,
    {day} as day,
    count(*) as records,
    {counts},
from raw.{table.name} as r
{where}
group by r.system_name, {day}
"""


def required_expectations(table: RawTable):
    def build():
        return [
            check(
                f"{c}_present",
                f"every system-day has a {c} in some record (the marts divide or condense it; NULL in every "
                "record means the column was renamed or the form lacks it)",
                gxe.ExpectColumnValuesToBeBetween(column=f"{c}_values", min_value=1),
            )
            for c in table.required
        ]

    return build


SUITES = [
    suite
    for table in TABLES
    for suite in (
        Suite(
            name=f"raw.{table.name}.columns",
            relation=f"raw.{table.name}",
            query=columns_query(table),
            expectations=columns_expectations(table),
            description=f"raw.{table.name} has the columns and types of the raw contract",
            row_id=("column_name", "data_type"),
        ),
        Suite.framed(f"raw.{table.name}", partial(records_query, table), records_expectations(table),
                     requires=("raw.ingest_files",), description=f"the records of raw.{table.name}",
                     row_id=("source_file", "record_ordinal", "system_name", "from_timestamp")),
        *([Suite.framed(f"raw.{table.name}.required", partial(required_query, table), required_expectations(table),
                        relation=f"raw.{table.name}",
                        description=f"every system-day of raw.{table.name} has its required counters",
                        row_id=("system_name", "day", "records"))] if table.required else []),
    )
]
