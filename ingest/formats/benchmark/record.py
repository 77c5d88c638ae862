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

from ingest.formats.benchmark.run_schema import FIELDS, Field, problem

TABLE = "benchmark_runs"
# CSV cells the schema wants as numbers: numeric fields and the values of quantities
_NUMBER_PATHS = frozenset(
    [f.path for f in FIELDS if f.kind in ("int", "number")] + [f"{f.path}.value" for f in FIELDS if f.kind == "quantity"]
)
_FREE_PREFIXES = tuple(f"{f.path}." for f in FIELDS if f.kind == "free")

ARROW_COLUMNS: tuple[tuple[str, pa.DataType], ...] = (
    ("record_ordinal", pa.int64()),
    ("line_number", pa.int64()),
    ("source_format", pa.string()),
    ("format_version", pa.int32()),
    ("study", pa.string()),
    ("run_label", pa.string()),
    ("run_date", pa.date32()),
    ("started_at", pa.timestamp("us")),
    ("role", pa.string()),
    ("sut_platform", pa.string()),
    ("sut_product", pa.string()),
    ("sut_release", pa.string()),
    ("sut_service_level", pa.string()),
    ("sut_processor_model", pa.string()),
    ("sut_engines", pa.int32()),
    ("sut_mips_per_engine", pa.float64()),
    ("transaction_type", pa.string()),
    ("bytes_per_transaction", pa.float64()),
    ("users", pa.int64()),
    ("think_time_s", pa.float64()),
    ("sessions", pa.int64()),
    ("repetitions", pa.int64()),
    ("elapsed_s", pa.float64()),
    ("transactions", pa.float64()),
    ("transactions_per_s", pa.float64()),
    ("throughput_bytes_per_s", pa.float64()),
    ("cpu_pct", pa.float64()),
    ("cpu_s", pa.float64()),
    ("cpu_ms_per_transaction", pa.float64()),
    ("cpu_s_per_byte", pa.float64()),
    ("ki_per_kb", pa.float64()),
    ("response_time_s", pa.float64()),
    ("response_time_pctl_s", pa.float64()),
    ("response_pctl", pa.float64()),
    ("itr_per_s", pa.float64()),
    ("parameters_json", pa.string()),
    ("extra_json", pa.string()),
    ("provenance_source", pa.string()),
    ("measured_by", pa.string()),
    ("tool", pa.string()),
    ("note", pa.string()),
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
    # json.loads reads NaN and Infinity, which JSON Schema takes for numbers
    if not math.isfinite(value):
        raise RecordError(path, f"expected a finite number, found {value}")
    return float(value)


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
    "int": lambda f, value: int(value),
    "number": lambda f, value: _finite(f.path, value),
    "quantity": lambda f, item: _finite(f"{f.path}.value", item["value"]) * f.units[item["unit"]],
    "free": _free,
}


class RunSink:
    """Collects validated runs and builds the Arrow table of raw.benchmark_runs (column lists, no row inserts)."""

    def __init__(self, source_format: str):
        self.source_format = source_format
        self.columns: dict[str, list] = {name: [] for name, _ in ARROW_COLUMNS}

    def __len__(self) -> int:
        return len(self.columns["record_ordinal"])

    def add(self, row: dict, *, record_ordinal: int, line_number: int) -> None:
        row = {**row, "record_ordinal": record_ordinal, "line_number": line_number,
               "source_format": self.source_format}
        for name, values in self.columns.items():
            values.append(row.get(name))

    def table(self) -> pa.Table:
        return pa.table({name: pa.array(self.columns[name], type_) for name, type_ in ARROW_COLUMNS})
