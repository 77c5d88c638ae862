"""The benchmark run as its JSON Schema declares it: the one place its fields are written.

``schema/benchmark-run.v1.json`` is standard JSON Schema (draft 2020-12) plus perfdb's annotations, which
validators ignore: ``x-perfdb-column`` on every field the loader keeps (its column of raw.benchmark_runs),
and on every list of units ``x-perfdb-factors`` (unit -> factor to the column's unit) and
``x-perfdb-column-unit``. From it come ``FIELDS`` (path, column, kind, units, limits), the ``problem`` of a
record in the words of perfdb's messages, and the field and unit tables of docs/benchmark_format.md
(``python -m ingest.formats.benchmark.run_schema`` prints them). For example the schema's

    "throughput": {"$ref": "#/$defs/byte_rate", "x-perfdb-column": "throughput_bytes_per_s"}

gives ``Field("results.throughput", "throughput_bytes_per_s", "quantity", units={"bytes/s": 1, ...,
"Mbit/s": 125000, ...})``, and a record with ``"throughput": {"value": 1.69, "unit": "s"}`` the problem
``("results.throughput.unit", "unit 's' is not a byte rate unit; expected one of bytes/s, KB/s, ...")``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import jsonschema

SCHEMA_PATH = Path(__file__).parent / "schema" / "benchmark-run.v1.json"
SCHEMA = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
FORMAT_NAME = SCHEMA["properties"]["format"]["const"]
VERSION = SCHEMA["properties"]["version"]["const"]
_VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)


@dataclass(frozen=True)
class Field:
    path: str  # dotted path in the record
    column: str  # column of raw.benchmark_runs
    kind: str  # text | date | timestamp | int | number | quantity | free (named values, kept as JSON)
    units: dict[str, float] = field(default_factory=dict)  # quantities: unit -> factor to the column's unit
    unit_kind: str = ""  # quantities: what their units measure ("time", "byte rate", ...)
    required: bool = False
    minimum: float | None = None
    maximum: float | None = None
    description: str = ""


def _resolve(node: dict) -> dict:
    """``node`` with its ``$ref`` and ``allOf`` parts merged in (``properties`` merged name by name, each
    as an ``allOf`` of its parts)."""
    merged: dict = {}
    properties: dict[str, list] = {}
    parts = [node]
    while parts:
        part = parts.pop(0)
        if "$ref" in part:
            parts.append(SCHEMA["$defs"][part["$ref"].rsplit("/", 1)[1]])
        parts.extend(part.get("allOf", ()))
        for key, value in part.items():
            if key == "properties":
                for name, sub in value.items():
                    properties.setdefault(name, []).append(sub)
            elif key not in ("$ref", "allOf"):
                merged.setdefault(key, value)
    if properties:
        merged["properties"] = {name: {"allOf": subs} for name, subs in properties.items()}
    return merged


def _field(path: str, node: dict, required: bool) -> Field:
    kind = {"integer": "int", "number": "number", "object": "free"}.get(node.get("type"), "text")
    kind = {"date": "date", "date-time": "timestamp"}.get(node.get("format"), kind)
    limits, units, unit_kind = node, {}, ""
    if "unit" in node.get("properties", {}):
        unit = _resolve(node["properties"]["unit"])
        kind, units, unit_kind = "quantity", unit["x-perfdb-factors"], unit["title"].removesuffix(" unit")
        limits = _resolve(node["properties"]["value"])
    return Field(path, node["x-perfdb-column"], kind, units, unit_kind, required, limits.get("minimum"),
                 limits.get("maximum"), node.get("description", ""))


def _fields(node: dict, prefix: str = "", required: bool = True) -> list[Field]:
    """Every property with ``x-perfdb-column`` under ``node``, in the schema's order."""
    found = []
    node = _resolve(node)
    for name, sub in node.get("properties", {}).items():
        sub = _resolve(sub)
        is_required = required and name in node.get("required", ())
        if "x-perfdb-column" in sub:
            found.append(_field(prefix + name, sub, is_required))
        found += _fields(sub, prefix + name + ".", is_required)
    return found


def _paths(node: dict, prefix: str = "") -> list[str]:
    """Every property path under ``node``, in the schema's order."""
    found = []
    for name, sub in _resolve(node).get("properties", {}).items():
        found += [prefix + name, *_paths(sub, prefix + name + ".")]
    return found


FIELDS: tuple[Field, ...] = tuple(_fields(SCHEMA))
FIELD_BY_PATH = {f.path: f for f in FIELDS}
_ORDER = {path: i for i, path in enumerate(["(record)", *_paths(SCHEMA)])}


def problem(record) -> tuple[str, str] | None:
    """(dotted path, what was expected and found) of the first thing the schema refuses in ``record``."""
    errors = [_described(e) for e in _VALIDATOR.iter_errors(record)]
    return min(errors, key=_rank)[1:] if errors else None


def _rank(described: tuple[bool, str, str]) -> tuple[int, int]:
    """Problems of the record itself, its format and its version first, then unknown fields, then the other
    fields' problems, each in the schema's order (as the loader always named them)."""
    unknown, path, _message = described
    prefix = path
    while prefix not in _ORDER and "." in prefix:
        prefix = prefix.rpartition(".")[0]
    order = _ORDER.get(prefix, len(_ORDER))
    return (0 if path in ("(record)", "format", "version") else 1 if unknown else 2), order


def _described(e: jsonschema.ValidationError) -> tuple[bool, str, str]:
    """(an unknown field?, dotted path, message) of one schema error."""
    path = ".".join(str(p) for p in e.absolute_path)
    if e.validator == "additionalProperties":
        unknown = min(set(e.instance) - set(_resolve(e.schema).get("properties", {})))
        return True, f"{path}.{unknown}".lstrip("."), "unknown field"
    if e.validator == "required":
        missing = next(name for name in e.validator_value if name not in e.instance)
        quantity = FIELD_BY_PATH.get(path)
        if missing == "unit" and quantity is not None:
            return False, f"{path}.unit", f"missing unit; expected one of {', '.join(quantity.units)}"
        return False, f"{path}.{missing}".lstrip("."), "missing required field"
    return False, path or "(record)", _expected(e, path)


_TIME_TEXTS = {"date": "a date YYYY-MM-DD", "timestamp": "a time YYYY-MM-DDTHH:MM:SS"}


def _expected(e: jsonschema.ValidationError, path: str) -> str:
    found = json.dumps(e.instance)
    f = FIELD_BY_PATH.get(path)
    whole = type(e.instance) is int
    if path == "version":
        return f"unknown version {e.instance}; this loader reads version {VERSION}" if whole else \
            f"expected a whole number, found {found}"
    if e.validator == "const":
        return f"expected {e.validator_value!r}, found {found}"
    if e.validator == "enum":
        return f"unit {e.instance!r} is not a {e.schema['title']}; expected one of {', '.join(e.validator_value)}"
    if e.validator == "minimum":
        return f"{e.instance:g} is below the minimum {e.validator_value:g}"
    if e.validator == "maximum":
        return f"{e.instance:g} is above the maximum {e.validator_value:g}"
    if path == "results":
        return ("expected at least one measured result (elapsed, transactions_per_s, throughput, cpu_utilization, "
                "response_time, ...)")
    if path == "":
        return f"expected a JSON object, found {type(e.instance).__name__}"
    if f is not None and f.kind in _TIME_TEXTS:
        return f"expected {_TIME_TEXTS[f.kind]}, found {found}"
    if e.validator == "anyOf":  # a named value of parameters or results.extra
        return 'expected {"value": ..., "unit": ...} or a bare value'
    if e.validator_value == "integer" and type(e.instance) is float:
        return f"expected a whole number, found {e.instance}"
    if e.validator_value in ("number", "integer"):
        return f"expected a number, found {found}"
    if path.endswith(".unit"):
        return f"expected a unit text, found {found}"
    if e.validator_value != "object":
        return f"expected a non-empty text, found {found}"
    if f is not None and f.kind == "quantity":
        return f'expected {{"value": <number>, "unit": <unit>}}, found {found}'
    if f is not None and f.kind == "free":
        return f"expected an object of named values, found {found}"
    return f"expected an object, found {found}"


# -- the tables of docs/benchmark_format.md -----------------------------------------------------------------


def _limits(f: Field) -> str:
    if f.minimum is not None and f.maximum is not None:
        return f" ({f.minimum:g}-{f.maximum:g})"
    return f" >= {f.minimum:g}" if f.minimum is not None else ""


def _kind_text(f: Field) -> str:
    kind = {
        "text": "text", "date": "date YYYY-MM-DD", "timestamp": "time YYYY-MM-DDTHH:MM:SS",
        "int": "whole number" + _limits(f), "number": "number" + _limits(f),
        "quantity": f"{f.unit_kind} quantity" + _limits(f),
        "free": 'named values, each `{"value": ..., "unit": ...}` or a bare value',
    }[f.kind]
    return kind + (", required" if f.required else "") + (f": {f.description}" if f.description else "")


def field_table() -> str:
    """The field table of docs/benchmark_format.md."""
    lines = ["| Field | Column of raw.benchmark_runs | Kind |", "|---|---|---|"]
    lines += [f"| `{f.path}` | `{f.column}` | {_kind_text(f)} |" for f in FIELDS]
    return "\n".join(lines) + "\n"


def unit_table() -> str:
    """The unit table of docs/benchmark_format.md."""
    lines = ["| Kind | Units accepted | Column unit |", "|---|---|---|"]
    for unit in SCHEMA["$defs"].values():
        if "x-perfdb-factors" in unit:
            accepted = ", ".join(f"`{u}`" for u in unit["enum"])
            lines.append(f"| {unit['title'].removesuffix(' unit')} | {accepted} | {unit['x-perfdb-column-unit']} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(field_table(), unit_table(), sep="\n", end="")
