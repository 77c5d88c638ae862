"""What one check run found: an outcome per expectation, the suites skipped, and how to print it."""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from quality.suite import Suite, check_id

QUERY_CHECK = "frame_query"  # the pseudo-expectation recorded when a suite's frame cannot be read
WARNING = "warning"  # GX's severity of an expectation that is reported but does not block publish


def _json(value) -> str | None:
    return None if value is None else json.dumps(value, default=str, sort_keys=True)


@dataclass
class Outcome:
    suite: str
    relation: str
    check: str
    expectation_type: str
    column: str | None
    success: bool
    description: str = ""
    observed_value: object = None
    element_count: int | None = None
    unexpected_count: int | None = None
    unexpected_percent: float | None = None
    examples: list = field(default_factory=list)
    exception: str | None = None
    kwargs: dict = field(default_factory=dict)
    severity: str = "critical"  # GX's FailureSeverity: a failing "warning" is reported and blocks nothing
    missing_count: int | None = None  # NULLs a map expectation leaves out of unexpected_percent

    @property
    def failed(self) -> bool:
        return not self.success and self.severity != WARNING

    @property
    def warned(self) -> bool:
        return not self.success and self.severity == WARNING

    @classmethod
    def from_gx(cls, suite: Suite, result) -> "Outcome":
        data = result.to_json_dict()
        config = data["expectation_config"]
        kwargs = {k: v for k, v in config["kwargs"].items() if k != "batch_id"}
        found = data.get("result") or {}
        columns = [kwargs.get("column")] if kwargs.get("column") else (
            kwargs.get("column_list") or [c for c in (kwargs.get("column_A"), kwargs.get("column_B")) if c]
        )
        examples = (
            found.get("partial_unexpected_index_list")
            or found.get("partial_unexpected_list")
            or found.get("partial_missing_list")
            or []
        )
        return cls(
            suite=suite.name,
            relation=suite.relation,
            check=check_id(config.get("meta"), config["type"]),
            expectation_type=config["type"],
            column=", ".join(columns) or None,
            success=bool(data["success"]),
            description=config.get("description") or "",
            # map expectations (values between, not null, ...) observe nothing but their failing values
            observed_value=found.get("observed_value", found.get("partial_unexpected_list") or None),
            element_count=found.get("element_count"),
            unexpected_count=found.get("unexpected_count"),
            unexpected_percent=found.get("unexpected_percent"),
            examples=examples,
            exception=_exception_text(data.get("exception_info")),
            kwargs=kwargs,
            severity=config.get("severity") or "critical",
            missing_count=found.get("missing_count"),
        )

    @classmethod
    def query_failed(cls, suite: Suite, message: str) -> "Outcome":
        return cls(suite.name, suite.relation, QUERY_CHECK, QUERY_CHECK, None, False,
                   description="the suite's frame can be read from the warehouse", exception=message)

    def headline(self) -> str:
        """One line saying what failed, how much of it, and where."""
        where = f" ({self.column})" if self.column else ""
        text = f"{self.suite} / {self.check}{where}: {self.description}"
        if self.exception:
            return f"{text} -- could not be evaluated: {self.exception}"
        if self.unexpected_count:
            text += f" -- {self.unexpected_count} of {self.element_count} rows ({self.unexpected_percent:.2f} %)"
        elif self.observed_value is not None:
            text += f" -- observed {_json(self.observed_value)}"
        if self.examples:
            text += "; e.g. " + "; ".join(_example(e) for e in self.examples[:3])
        return text

    def audit_row(self, run_id: str, run_time: dt.datetime) -> dict:
        return {
            "run_id": run_id,
            "run_time": run_time,
            "suite": self.suite,
            "relation": self.relation,
            "expectation": self.check,
            "expectation_type": self.expectation_type,
            "column_name": self.column,
            "success": self.success,
            "observed_value": _json(self.observed_value),
            "element_count": self.element_count,
            "unexpected_count": self.unexpected_count,
            "unexpected_percent": self.unexpected_percent,
            "examples": _json(self.examples) if self.examples else None,
            "exception": self.exception,
            "description": self.description,
            "kwargs": _json(self.kwargs),
            "severity": self.severity,
        }


def merge_chunks(parts: list[list[Outcome]], examples: int = 5) -> list[Outcome]:
    """A suite's outcomes on every chunk of its table (``perfdb check --all``) as one outcome per expectation,
    as if the whole table had been one frame: it passed when it passed on every chunk; rows, failing rows
    and NULLs add up; the failing examples are those of the chunks in order, each once, at most ``examples``."""
    if len(parts) == 1:
        return parts[0]
    grouped: dict[tuple, list[Outcome]] = {}
    for part in parts:
        for outcome in part:
            grouped.setdefault((outcome.check, outcome.column), []).append(outcome)
    return [_merged(outcomes, examples) for outcomes in grouped.values()]


def _merged(outcomes: list[Outcome], examples: int) -> Outcome:
    if len(outcomes) == 1:
        return outcomes[0]

    def total(name: str) -> int | None:
        values = [getattr(o, name) for o in outcomes if getattr(o, name) is not None]
        return sum(values) if values else None

    def first_of_each(lists) -> list:
        seen, out = set(), []
        for item in (i for items in lists for i in items):
            key = _json(item)
            if key not in seen:
                seen.add(key)
                out.append(item)
        return out[:examples]

    first = outcomes[0]
    element_count, unexpected_count, missing_count = total("element_count"), total("unexpected_count"), total("missing_count")
    unexpected_percent = None
    if unexpected_count is not None and element_count is not None:
        counted = element_count - (missing_count or 0)
        unexpected_percent = 100 * unexpected_count / counted if counted else 0.0
    observed = [o.observed_value for o in outcomes if o.observed_value is not None]
    if observed and all(isinstance(v, list) for v in observed):
        observed_value = first_of_each(observed)  # a map expectation's failing values
    else:
        observed_value = next((o.observed_value for o in outcomes if not o.success), first.observed_value)
    exceptions = list(dict.fromkeys(o.exception for o in outcomes if o.exception))
    return Outcome(
        suite=first.suite, relation=first.relation, check=first.check, expectation_type=first.expectation_type,
        column=first.column, success=all(o.success for o in outcomes), description=first.description,
        observed_value=observed_value or None if isinstance(observed_value, list) else observed_value,
        element_count=element_count, unexpected_count=unexpected_count, unexpected_percent=unexpected_percent,
        examples=first_of_each(o.examples for o in outcomes), exception="; ".join(exceptions) or None,
        kwargs=first.kwargs, severity=first.severity, missing_count=missing_count,
    )


def _example(example) -> str:
    if isinstance(example, dict):
        return " ".join(f"{k}={v}" for k, v in example.items())
    return json.dumps(example, default=str)


def _exception_text(info) -> str | None:
    """GX reports exceptions either flat or keyed by the metric that raised them."""
    if not info:
        return None
    if "raised_exception" in info:
        return info.get("exception_message") if info.get("raised_exception") else None
    messages = [v.get("exception_message") for v in info.values() if isinstance(v, dict) and v.get("raised_exception")]
    return "; ".join(m for m in messages if m) or None


@dataclass
class RunReport:
    run_id: str
    started_at: dt.datetime  # UTC
    finished_at: dt.datetime | None = None
    outcomes: list[Outcome] = field(default_factory=list)
    suites_validated: list[str] = field(default_factory=list)
    skipped: dict[str, str] = field(default_factory=dict)
    error: str | None = None  # set when the warehouse could not be validated (or results not kept)
    docs_index: Path | None = None
    scope: str = "all"  # all | slice (quality/slice.py)
    scope_text: str = ""  # what the slice held, in words
    loaded_through: dt.datetime | None = None  # the newest manifest load time the run saw (its high-water mark)
    rows_read: dict[str, int] = field(default_factory=dict)  # suite -> rows its frame held

    @property
    def failures(self) -> list[Outcome]:
        return [o for o in self.outcomes if o.failed]

    @property
    def warnings(self) -> list[Outcome]:
        """Failing expectations of severity "warning" (e.g. a busy percentage a little over 100: counter skew)."""
        return [o for o in self.outcomes if o.warned]

    @property
    def success(self) -> bool:
        return self.error is None and not self.failures

    def summary(self) -> dict:
        """Machine-readable: what ``perfdb --json check`` prints and the nightly DAG reads."""
        return {
            "run_id": self.run_id,
            "success": self.success,
            "error": self.error,
            "suites_validated": len(self.suites_validated),
            "scope": self.scope,
            "rows_read": sum(self.rows_read.values()),
            "rows_read_by_suite": dict(sorted(self.rows_read.items())),
            "suites_skipped": self.skipped,
            "expectations": len(self.outcomes),
            "failed": [
                {"suite": o.suite, "expectation": o.check, "column": o.column, "message": o.headline()}
                for o in self.failures
            ],
            "warnings": [
                {"suite": o.suite, "expectation": o.check, "column": o.column, "message": o.headline()}
                for o in self.warnings
            ],
            "docs": str(self.docs_index) if self.docs_index else None,
        }

    def print(self, out: TextIO, *, failures_only: bool = False) -> None:
        if self.error:
            print(f"perfdb check: {self.error}", file=out)
        if not failures_only and (self.suites_validated or self.skipped):
            print(
                f"perfdb check: {len(self.suites_validated)} suites validated, {len(self.skipped)} skipped, "
                f"{len(self.outcomes)} expectations, {len(self.failures)} failed"
                + (f", {len(self.warnings)} warnings" if self.warnings else "") + f" (run {self.run_id})",
                file=out,
            )
            print(f"  validated {self.scope_text}: {sum(self.rows_read.values()):,} rows read", file=out)
            for suite, why in self.skipped.items():
                print(f"  skipped {suite}: {why}", file=out)
        for outcome in self.failures:
            print(f"  FAILED {outcome.headline()}", file=out)
        for outcome in self.warnings:
            print(f"  WARNING {outcome.headline()}", file=out)
        if self.docs_index and not failures_only:
            print(f"Data Docs: {self.docs_index}", file=out)
