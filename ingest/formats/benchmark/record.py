"""The benchmark run: from a record (a JSON object, or a CSV row made into one) to a row of ``raw.benchmark_runs``.

One record describes one run (docs/benchmark_format.md; its fields are declared once, in the JSON Schema
schema/benchmark-run.v1.json, which ``run_schema`` reads)::

    {"format": "perfdb-benchmark-run", "version": 1, "study": "APPC tuning", "run_label": "os2-tuned",
     "run_date": "2026-02-03", "system_under_test": {"platform": "OS/2", "product": "CM/2", "engines": 1},
     "parameters": {"ru_size": {"value": 16384, "unit": "bytes"}, "pacing_window": {"value": 63, "unit": "RUs"}},
     "workload": {"transaction_type": "file_transfer", "bytes_per_transaction": {"value": 1000000, "unit": "bytes"}},
     "results": {"elapsed": {"value": 5.1, "unit": "s"}, "transactions": 1,
                 "throughput": {"value": 1.57, "unit": "Mbit/s"}}}

``validate`` checks it against the schema (``RecordError`` names the field and what was expected), then
converts every quantity to its column's unit (seconds, bytes, bytes per second, percent, CPU milliseconds
per transaction, CPU seconds per byte) with the schema's factors: KB = 1024 bytes and MB = 1024 KB (the
documents' KB/s are 1024-byte kilobytes); bits are decimal (Mbit/s = 10**6 bit/s, as seed 000 computes
it). ``parameters`` and ``results.extra`` are free named values with units, kept as JSON.

The CSV form has the same fields as columns named by their path (``system_under_test.platform``,
``results.throughput.value``, ``results.throughput.unit``, ``parameters.ru_size.value``); ``unflatten``
turns a row back into a record, numbers where the schema wants numbers, so both forms share one validation.
"""

from __future__ import annotations

import datetime as dt
import json
import math

import pyarrow as pa

from ingest.formats.base import Column, RawTable, SourceFamily
from ingest.formats.benchmark.run_schema import FIELDS, Field, problem

TABLE = "benchmark_runs"
# CSV cells the schema wants as numbers: numeric fields and the values of quantities
_NUMBER_PATHS = frozenset(
    [f.path for f in FIELDS if f.kind in ("int", "number")] + [f"{f.path}.value" for f in FIELDS if f.kind == "quantity"]
)
_FREE_PREFIXES = tuple(f"{f.path}." for f in FIELDS if f.kind == "free")

BENCHMARK = SourceFamily(
    "benchmark",
    "Benchmark runs as the benchmark parsers load them (docs/benchmark_format.md): the perfdb benchmark log in JSON "
    "lines or CSV, and APPC APING output. One row per run, quantities in the columns' units.",
    "docs/benchmark_raw_contract.md",
)
_I32, _I64, _F64, _STR = pa.int32(), pa.int64(), pa.float64(), pa.string()
RUNS = RawTable(
    TABLE, BENCHMARK,
    "One row per benchmark run, as loaded; staging keeps the copy of the latest file when a run is loaded twice.",
    (
        Column("record_ordinal", _I64, "Position of the run in its file (0-based)."),
        Column("line_number", _I64, "Line of the file the run starts on."),
        Column("source_format", _STR, "The parser: `benchmark.jsonl`, `benchmark.csv` or `benchmark.aping`."),
        Column("format_version", _I32, "`version`: the benchmark log format version."),
        Column("study", _STR, "`study`: the study or benchmark series."),
        Column("run_label", _STR, "`run_label`: the run's name in the study."),
        Column("run_date", pa.date32(), "`run_date`: the day of the run."),
        Column("started_at", pa.timestamp("us"), "`started_at`: start of the run, local civil time of the measured system.",
               optional=True),
        Column("role", _STR, "`role`: which end this record measures when both ends were measured (`client`, `server`, ...).",
               optional=True),
        Column("sut_platform", _STR, "`system_under_test.platform`."),
        Column("sut_product", _STR, "`system_under_test.product`."),
        Column("sut_release", _STR, "`system_under_test.release`."),
        Column("sut_service_level", _STR, "`system_under_test.service_level`."),
        Column("sut_processor_model", _STR, "`system_under_test.processor_model`."),
        Column("sut_engines", _I32, "`system_under_test.engines`: the processors `cpu_pct` averages over."),
        Column("sut_mips_per_engine", _F64, "`system_under_test.mips_per_engine`."),
        Column("transaction_type", _STR, "`workload.transaction_type`: `file_transfer`, `inquiry`, `interactive`, ..."),
        Column("bytes_per_transaction", _F64, "`workload.bytes_per_transaction`, bytes."),
        Column("users", _I64, "`workload.users`: terminals driving the load."),
        Column("think_time_s", _F64, "`workload.think_time`, s."),
        Column("sessions", _I64, "`workload.sessions`."),
        Column("repetitions", _I64, "`workload.repetitions`."),
        Column("elapsed_s", _F64, "`results.elapsed`: the measured run, s."),
        Column("transactions", _F64, "`results.transactions`: completed within `elapsed_s`."),
        Column("transactions_per_s", _F64, "`results.transactions_per_s`: external throughput rate, per second."),
        Column("throughput_bytes_per_s", _F64, "`results.throughput`, bytes per second."),
        Column("cpu_pct", _F64, "`results.cpu_utilization`: percent, the average over the engines."),
        Column("cpu_s", _F64, "`results.cpu_time`: CPU consumed by the run, s."),
        Column("cpu_ms_per_transaction", _F64, "`results.cpu_per_transaction`, CPU ms."),
        Column("cpu_s_per_byte", _F64, "`results.cpu_per_byte`, CPU seconds per byte."),
        Column("ki_per_kb", _F64, "`results.ki_per_kb`: thousand instructions per KB."),
        Column("response_time_s", _F64, "`results.response_time`: mean response time, s."),
        Column("response_time_pctl_s", _F64, "`results.response_time_percentile`, s."),
        Column("response_pctl", _F64, "`results.response_time_percentile.percentile`: which percentile."),
        Column("itr_per_s", _F64, "`results.itr`: internal throughput rate, per second."),
        Column("parameters_json", _STR, "`parameters` as JSON: `{name: {value, unit}}`.", verbatim=True),
        Column("extra_json", _STR, "`results.extra` as JSON, like `parameters_json`.", verbatim=True),
        Column("provenance_source", _STR, "`provenance.source`."),
        Column("measured_by", _STR, "`provenance.measured_by`."),
        Column("tool", _STR, "`provenance.tool`."),
        Column("note", _STR, "`provenance.note`.", verbatim=True),
    ),
    natural_key=("study", "run_label", "role", "run_date", "started_at"),
)



class RecordError(Exception):
    """One run is not valid; `field` is the dotted path of the field at fault."""

    def __init__(self, field: str, message: str):
        super().__init__(f"field '{field}': {message}")
        self.field = field


def unflatten(columns: dict[str, str]) -> dict:
    """A CSV row (path-named columns, empty cells left out) as a nested record."""
    record: dict = {}
    for path, text in columns.items():
        if text is None or text.strip() == "":
            continue
        node = record
        parts = path.split(".")
        for part in parts[:-1]:
            child = node.setdefault(part, {})
            if not isinstance(child, dict):
                raise RecordError(path, f"'{'.'.join(parts[:-1])}' is both a value and a group of fields")
            node = child
        node[parts[-1]] = _cell(path, text.strip())
    return record


def _cell(path: str, text: str):
    """A CSV cell as the JSON value it stands for: a number where the schema wants one (left as text when it
    is not one, for the schema to say so), and in the free named values whatever reads as a number."""
    free = path.startswith(_FREE_PREFIXES) and not path.endswith(".unit")
    if path not in _NUMBER_PATHS and not free:
        return text
    try:
        number = int(text) if text.lstrip("-").isdigit() else float(text)
    except ValueError:
        return text  # a free text value (a mode name, a yes/no, an IOBUF tuple) stays text
    return number if math.isfinite(number) else text


def validate(record) -> dict:
    """The columns of one run, or RecordError naming the field and what was expected."""
    found = problem(record)
    if found is not None:
        raise RecordError(*found)
    row: dict = {}
    for f in FIELDS:
        value = _value_at(record, f.path)
        row[f.column] = None if value is None else _CONVERT[f.kind](f, value)
    return row


def _value_at(record: dict, path: str):
    node = record
    for part in path.split("."):
        node = node.get(part) if isinstance(node, dict) else None
    return node


def _finite(path: str, value) -> float:
    # json.loads reads NaN and Infinity, which JSON Schema takes for numbers; and integers of any size, which
    # a float cannot hold beyond about 1.8e308 (math.isfinite raises OverflowError on them)
    try:
        finite = math.isfinite(value)
    except OverflowError:
        finite = False
    if not finite:
        raise RecordError(path, f"expected a finite number, found {_shown(value)}")
    return float(value)


def _whole(f: Field, value) -> int:
    """An integer field within its column's type (the schema's limits aside, JSON integers have no bound)."""
    bits = _COLUMN_TYPES[f.column].bit_width
    if not -(2 ** (bits - 1)) <= int(value) < 2 ** (bits - 1):
        raise RecordError(f.path, f"expected a whole number of at most {bits} bits, found {_shown(value)}")
    return int(value)


def _shown(value) -> str:
    """A number as the message shows it: at most 40 digits (Python refuses to print more than 4300)."""
    if isinstance(value, int) and abs(value).bit_length() > 128:
        return f"an integer of {abs(value).bit_length()} bits"
    return str(value)


def _date(f: Field, value: str) -> dt.date:
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        raise RecordError(f.path, f"expected a date YYYY-MM-DD, found {json.dumps(value)}") from None


def _timestamp(f: Field, value: str) -> dt.datetime:
    try:
        stamp = dt.datetime.fromisoformat(value)
    except ValueError:
        raise RecordError(f.path, f"expected a time YYYY-MM-DDTHH:MM:SS, found {json.dumps(value)}") from None
    return stamp.replace(tzinfo=None)  # local civil time of the measured system, as every timestamp of the warehouse


def _free(f: Field, items: dict) -> str:
    """Named values, each kept as {"value": ..., "unit": ...} (no unit: {"value": ...})."""
    out = {}
    for name, item in items.items():
        value, unit = (item["value"], item.get("unit")) if isinstance(item, dict) else (item, None)
        out[name] = {"value": value, "unit": unit} if unit else {"value": value}
    return json.dumps(out, sort_keys=True)


_CONVERT = {
    "text": lambda f, value: value.strip(),
    "date": _date,
    "timestamp": _timestamp,
    "int": _whole,
    "number": lambda f, value: _finite(f.path, value),
    "quantity": lambda f, item: _finite(f"{f.path}.value", item["value"]) * f.units[item["unit"]],
    "free": _free,
}


_COLUMN_TYPES = {c.name: c.type for c in RUNS.columns}


class RunSink:
    """Collects validated runs and builds the Arrow table of raw.benchmark_runs (column lists, no row inserts)."""

    def __init__(self, source_format: str):
        self.source_format = source_format
        self.columns: dict[str, list] = {name: [] for name in RUNS.column_names}

    def __len__(self) -> int:
        return len(self.columns["record_ordinal"])

    def add(self, row: dict, *, record_ordinal: int, line_number: int) -> None:
        row = {**row, "record_ordinal": record_ordinal, "line_number": line_number,
               "source_format": self.source_format}
        for name, values in self.columns.items():
            values.append(row.get(name))

    def table(self) -> pa.Table:
        return pa.table({c.name: pa.array(self.columns[c.name], c.type) for c in RUNS.columns})
