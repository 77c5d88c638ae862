"""The benchmark run: its fields, their units, validation, and the rows of ``raw.benchmark_runs``.

One record describes one run (docs/benchmark_format.md; JSON Schema in schema/benchmark-run.v1.json)::

    {"format": "perfdb-benchmark-run", "version": 1, "study": "APPC tuning", "run_label": "os2-tuned",
     "run_date": "2026-02-03", "system_under_test": {"platform": "OS/2", "product": "CM/2", "engines": 1},
     "parameters": {"ru_size": {"value": 16384, "unit": "bytes"}, "pacing_window": {"value": 63, "unit": "RUs"}},
     "workload": {"transaction_type": "file_transfer", "bytes_per_transaction": {"value": 1000000, "unit": "bytes"}},
     "results": {"elapsed": {"value": 5.1, "unit": "s"}, "transactions": 1,
                 "throughput": {"value": 1.57, "unit": "Mbit/s"}}}

Every measured quantity carries its unit; the loader converts it to the column's unit (seconds, bytes,
bytes per second, percent, CPU milliseconds per transaction, CPU seconds per byte) and rejects a unit of
the wrong kind. KB = 1024 bytes and MB = 1024 KB (the documents' KB/s are 1024-byte kilobytes); bits are
decimal (Mbit/s = 10**6 bit/s, as seed 000 computes it). ``parameters`` and ``results.extra`` are free
key/values with units, kept as JSON.

The CSV form has the same fields as columns named by their path (``system_under_test.platform``,
``results.throughput.value``, ``results.throughput.unit``, ``parameters.ru_size.value``); ``unflatten``
turns a row back into a record so both forms share one validation.
"""

from __future__ import annotations

import datetime as dt
import json
import math
from dataclasses import dataclass

import pyarrow as pa

from ingest.formats.base import Column, RawTable, SourceFamily

FORMAT_NAME = "perfdb-benchmark-run"
VERSIONS = (1,)
TABLE = "benchmark_runs"

# unit kind -> accepted unit -> factor to the column's unit
UNITS: dict[str, dict[str, float]] = {
    "time_s": {"s": 1.0, "ms": 1e-3, "us": 1e-6, "min": 60.0, "h": 3600.0},
    "time_ms": {"s": 1e3, "ms": 1.0, "us": 1e-3},
    "bytes": {"bytes": 1.0, "B": 1.0, "KB": 1024.0, "MB": 1024.0 ** 2, "GB": 1024.0 ** 3},
    "byte_rate": {"bytes/s": 1.0, "KB/s": 1024.0, "MB/s": 1024.0 ** 2, "GB/s": 1024.0 ** 3,
                  "bit/s": 1 / 8, "kbit/s": 1e3 / 8, "Mbit/s": 1e6 / 8, "Gbit/s": 1e9 / 8},
    "per_time": {"1/s": 1.0, "1/min": 1 / 60, "1/h": 1 / 3600},
    "percent": {"%": 1.0},
    "cpu_per_byte": {"s/byte": 1.0, "s/KB": 1 / 1024, "s/MB": 1 / 1024 ** 2, "ms/MB": 1e-3 / 1024 ** 2,
                     "us/KB": 1e-6 / 1024},
    "ki_per_kb": {"KI/KB": 1.0},
}


@dataclass(frozen=True)
class Field:
    path: str  # dotted path in the record
    column: str  # column of raw.benchmark_runs
    kind: str  # text | date | timestamp | int | number | quantity
    unit_kind: str | None = None  # for quantities: a key of UNITS
    required: bool = False
    minimum: float | None = None
    maximum: float | None = None


FIELDS: tuple[Field, ...] = (
    Field("format", "", "text", required=True),
    Field("version", "format_version", "int", required=True),
    Field("study", "study", "text", required=True),
    Field("run_label", "run_label", "text", required=True),
    Field("run_date", "run_date", "date", required=True),
    Field("started_at", "started_at", "timestamp"),
    Field("role", "role", "text"),
    Field("system_under_test.platform", "sut_platform", "text"),
    Field("system_under_test.product", "sut_product", "text"),
    Field("system_under_test.release", "sut_release", "text"),
    Field("system_under_test.service_level", "sut_service_level", "text"),
    Field("system_under_test.processor_model", "sut_processor_model", "text"),
    Field("system_under_test.engines", "sut_engines", "int", minimum=1),
    Field("system_under_test.mips_per_engine", "sut_mips_per_engine", "number", minimum=0),
    Field("workload.transaction_type", "transaction_type", "text"),
    Field("workload.bytes_per_transaction", "bytes_per_transaction", "quantity", "bytes", minimum=0),
    Field("workload.users", "users", "int", minimum=0),
    Field("workload.think_time", "think_time_s", "quantity", "time_s", minimum=0),
    Field("workload.sessions", "sessions", "int", minimum=0),
    Field("workload.repetitions", "repetitions", "int", minimum=1),
    Field("results.elapsed", "elapsed_s", "quantity", "time_s", minimum=0),
    Field("results.transactions", "transactions", "number", minimum=0),
    Field("results.transactions_per_s", "transactions_per_s", "quantity", "per_time", minimum=0),
    Field("results.throughput", "throughput_bytes_per_s", "quantity", "byte_rate", minimum=0),
    Field("results.cpu_utilization", "cpu_pct", "quantity", "percent", minimum=0, maximum=100),
    Field("results.cpu_time", "cpu_s", "quantity", "time_s", minimum=0),
    Field("results.cpu_per_transaction", "cpu_ms_per_transaction", "quantity", "time_ms", minimum=0),
    Field("results.cpu_per_byte", "cpu_s_per_byte", "quantity", "cpu_per_byte", minimum=0),
    Field("results.ki_per_kb", "ki_per_kb", "quantity", "ki_per_kb", minimum=0),
    Field("results.response_time", "response_time_s", "quantity", "time_s", minimum=0),
    Field("results.response_time_percentile.percentile", "response_pctl", "number", minimum=0, maximum=100),
    Field("results.response_time_percentile", "response_time_pctl_s", "quantity", "time_s", minimum=0),
    Field("results.itr", "itr_per_s", "quantity", "per_time", minimum=0),
    Field("provenance.source", "provenance_source", "text"),
    Field("provenance.measured_by", "measured_by", "text"),
    Field("provenance.tool", "tool", "text"),
    Field("provenance.note", "note", "text"),
)
FIELD_BY_PATH = {f.path: f for f in FIELDS}
SECTIONS = ("system_under_test", "workload", "results", "provenance")
FREE_MAPS = ("parameters", "results.extra")  # free key/values with units, stored as JSON
RESULT_PATHS = tuple(f.path for f in FIELDS if f.path.startswith("results.") and f.path.count(".") == 1)

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
        Column("started_at", pa.timestamp("us"), "`started_at`: start of the run, local civil time of the measured system."),
        Column("role", _STR, "`role`: which end this record measures when both ends were measured (`client`, `server`, ...)."),
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
        Column("parameters_json", _STR, "`parameters` as JSON: `{name: {value, unit}}`."),
        Column("extra_json", _STR, "`results.extra` as JSON, like `parameters_json`."),
        Column("provenance_source", _STR, "`provenance.source`."),
        Column("measured_by", _STR, "`provenance.measured_by`."),
        Column("tool", _STR, "`provenance.tool`."),
        Column("note", _STR, "`provenance.note`."),
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
        node[parts[-1]] = text.strip()
    return record


def _number(value, path: str, from_text: bool) -> float:
    if isinstance(value, bool) or (not from_text and not isinstance(value, (int, float))):
        raise RecordError(path, f"expected a number, found {json.dumps(value)}")
    if isinstance(value, str):
        try:
            value = float(value)
        except ValueError:
            raise RecordError(path, f"expected a number, found {value!r}") from None
    value = float(value)
    if not math.isfinite(value):
        raise RecordError(path, f"expected a finite number, found {value}")
    return value


def _bounded(f: Field, value: float, path: str) -> float:
    if f.minimum is not None and value < f.minimum:
        raise RecordError(path, f"{value:g} is below the minimum {f.minimum:g}")
    if f.maximum is not None and value > f.maximum:
        raise RecordError(path, f"{value:g} is above the maximum {f.maximum:g}")
    return value


def _quantity(f: Field, item, from_text: bool) -> float:
    if not isinstance(item, dict):
        raise RecordError(f.path, f"expected {{\"value\": <number>, \"unit\": <unit>}}, found {json.dumps(item)}")
    unknown = sorted(set(item) - {"value", "unit", "percentile"})
    if unknown:
        raise RecordError(f"{f.path}.{unknown[0]}", "unknown field (a quantity has value and unit)")
    if "value" not in item:
        raise RecordError(f"{f.path}.value", "missing required field")
    units = UNITS[f.unit_kind]
    unit = item.get("unit")
    if unit is None:
        raise RecordError(f"{f.path}.unit", f"missing unit; expected one of {', '.join(units)}")
    if unit not in units:
        raise RecordError(f"{f.path}.unit", f"unit {unit!r} is not a {f.unit_kind.replace('_', ' ')} unit; "
                                            f"expected one of {', '.join(units)}")
    value = _bounded(f, _number(item["value"], f"{f.path}.value", from_text), f"{f.path}.value")
    return value * units[unit]


def _scalar(f: Field, value, from_text: bool):
    if f.kind == "text":
        if not isinstance(value, str) or not value.strip():
            raise RecordError(f.path, f"expected a non-empty text, found {json.dumps(value)}")
        return value.strip()
    if f.kind == "date":
        try:
            return dt.date.fromisoformat(str(value))
        except ValueError:
            raise RecordError(f.path, f"expected a date YYYY-MM-DD, found {value!r}") from None
    if f.kind == "timestamp":
        try:
            stamp = dt.datetime.fromisoformat(str(value))
        except ValueError:
            raise RecordError(f.path, f"expected a time YYYY-MM-DDTHH:MM:SS, found {value!r}") from None
        # local civil time of the measured system, as every timestamp of the warehouse
        return stamp.replace(tzinfo=None)
    number = _bounded(f, _number(value, f.path, from_text), f.path)
    if f.kind == "int":
        if not number.is_integer():
            raise RecordError(f.path, f"expected a whole number, found {value}")
        return int(number)
    return number


def _free_map(path: str, items, from_text: bool) -> str:
    """Free key/values: each is a value with an optional unit; kept as JSON {name: {value, unit}}."""
    if not isinstance(items, dict):
        raise RecordError(path, f"expected an object of named values, found {json.dumps(items)}")
    out = {}
    for name, item in items.items():
        if isinstance(item, dict):
            unknown = sorted(set(item) - {"value", "unit"})
            if unknown or "value" not in item:
                raise RecordError(f"{path}.{name}", "expected {\"value\": ..., \"unit\": ...}")
            value, unit = item["value"], item.get("unit")
        else:
            value, unit = item, None
        if from_text and isinstance(value, str):
            try:
                value = float(value) if not value.strip().lstrip("-").isdigit() else int(value)
            except ValueError:
                pass  # a text value (a mode name, a yes/no, an IOBUF tuple) stays text
        if unit is not None and not isinstance(unit, str):
            raise RecordError(f"{path}.{name}.unit", f"expected a unit text, found {json.dumps(unit)}")
        out[name] = {"value": value, "unit": unit} if unit else {"value": value}
    return json.dumps(out, sort_keys=True)


def validate(record: dict, *, from_text: bool = False) -> dict:
    """The columns of one run, or RecordError naming the field. `from_text`: values came from CSV cells."""
    if not isinstance(record, dict):
        raise RecordError("(record)", f"expected a JSON object, found {type(record).__name__}")
    fmt = record.get("format")
    if fmt != FORMAT_NAME:
        raise RecordError("format", f"expected {FORMAT_NAME!r}, found {json.dumps(fmt)}")
    if "version" not in record:
        raise RecordError("version", "missing required field")
    version = record["version"]
    if not from_text and (isinstance(version, bool) or not isinstance(version, int)):
        raise RecordError("version", f"expected a whole number, found {json.dumps(version)}")
    if str(version).strip() not in {str(v) for v in VERSIONS}:
        raise RecordError("version", f"unknown version {str(version).strip()}; this loader reads version "
                                     f"{', '.join(map(str, VERSIONS))}")
    allowed_top = {p.split(".")[0] for p in FIELD_BY_PATH} | set(SECTIONS) | {"parameters"}
    for key in record:
        if key not in allowed_top:
            raise RecordError(key, "unknown field")
    for section in SECTIONS:
        body = record.get(section)
        if body is None:
            continue
        if not isinstance(body, dict):
            raise RecordError(section, f"expected an object, found {json.dumps(body)}")
        for key in body:
            path = f"{section}.{key}"
            if path not in FIELD_BY_PATH and path not in FREE_MAPS:
                raise RecordError(path, "unknown field")

    row: dict = {}
    for f in FIELDS:
        parts = f.path.split(".")
        node = record
        for part in parts[:-1]:
            node = node.get(part) if isinstance(node, dict) else None
        present = isinstance(node, dict) and parts[-1] in node
        if not present:
            if f.required:
                raise RecordError(f.path, "missing required field")
            if f.column:
                row[f.column] = None
            continue
        value = node[parts[-1]]
        if not f.column:
            continue
        if f.path == "results.response_time_percentile.percentile":
            row[f.column] = _scalar(f, value, from_text)
        elif f.kind == "quantity":
            row[f.column] = _quantity(f, value, from_text)
        else:
            row[f.column] = _scalar(f, value, from_text)
    pctl = (record.get("results") or {}).get("response_time_percentile")
    if pctl is not None and row["response_pctl"] is None:
        raise RecordError("results.response_time_percentile.percentile", "missing: which percentile the time is")
    if not any(((record.get("results") or {}).get(p.split(".")[1]) is not None) for p in RESULT_PATHS):
        raise RecordError("results", "expected at least one measured result (elapsed, transactions_per_s, "
                                     "throughput, cpu_utilization, response_time, ...)")
    row["parameters_json"] = _free_map("parameters", record["parameters"], from_text) if "parameters" in record else None
    extra = (record.get("results") or {}).get("extra")
    row["extra_json"] = _free_map("results.extra", extra, from_text) if extra is not None else None
    return row


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
