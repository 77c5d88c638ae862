"""Printing result rows as an aligned table, CSV or a JSON array of objects keyed by column name."""

from __future__ import annotations

import csv
import datetime as dt
import decimal
import json
import sys
from typing import Sequence


def _jsonable(v):
    if isinstance(v, (dt.datetime, dt.date, dt.time)):
        return v.isoformat(sep=" ") if isinstance(v, dt.datetime) else v.isoformat()
    if isinstance(v, decimal.Decimal):
        return float(v)
    if isinstance(v, bytes):
        return v.hex()
    return v


def print_rows(columns: Sequence[str], rows: Sequence[Sequence], fmt: str = "table", out=None) -> None:
    out = out or sys.stdout
    if fmt == "json":
        json.dump([{c: _jsonable(v) for c, v in zip(columns, r)} for r in rows], out, indent=2)
        out.write("\n")
    elif fmt == "csv":
        w = csv.writer(out, lineterminator="\n")
        w.writerow(columns)
        w.writerows([[_jsonable(v) for v in r] for r in rows])
    else:
        text = [["" if v is None else str(_jsonable(v)) for v in r] for r in rows]
        widths = [max([len(c)] + [len(r[i]) for r in text]) for i, c in enumerate(columns)]
        out.write("  ".join(c.ljust(w) for c, w in zip(columns, widths)).rstrip() + "\n")
        out.write("  ".join("-" * w for w in widths) + "\n")
        for r in text:
            out.write("  ".join(v.rjust(w) if _numeric(v) else v.ljust(w) for v, w in zip(r, widths)).rstrip() + "\n")
        out.write(f"({len(rows)} rows)\n")


def _numeric(s: str) -> bool:
    try:
        float(s.replace(",", ""))
        return True
    except ValueError:
        return False
