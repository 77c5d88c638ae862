"""The options several ``perfdb`` sub-commands share, each defined here once, with its validation.

Reports (``ingest/reports``) filter and print: ``--format table|csv|json``, ``--system``, ``--date``,
``--from``/``--to``. Generators (``ingest/generate``) take ``--start``, ``--days``, ``--seed`` and ``--out``.
A bad value is a usage error: argparse prints what was expected and exits 2, e.g.
``--date 8/5/86`` gives ``argument --date: expected a date as YYYY-MM-DD, got '8/5/86'``.

Imports nothing heavy: ``perfdb --help`` and ``perfdb generate`` build every sub-command's parser.
"""

from __future__ import annotations

import argparse
import datetime as dt
from pathlib import Path
from typing import Callable, Sequence

from ingest.home import Home

FORMATS = ("table", "csv", "json")
DEMO_SEED = 1986  # the seed of the demo data set, and every generator's default


def iso_date(text: str) -> dt.date:
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a date as YYYY-MM-DD, got {text!r}") from None


def _positive(text: str, kind: type, what: str):
    try:
        value = kind(text)
    except ValueError:
        value = 0
    if value <= 0:
        raise argparse.ArgumentTypeError(f"{text} must be a positive {what}")
    return value


def positive_int(text: str) -> int:
    return _positive(text, int, "whole number")


def positive_float(text: str) -> float:
    return _positive(text, float, "number")


def forms_of(known: Sequence[str]) -> Callable[[str], list[str]]:
    """A comma-separated list of forms, each one of ``known``; duplicates dropped, order kept."""

    def parse(text: str) -> list[str]:
        forms = [f.strip().lower() for f in text.split(",") if f.strip()]
        unknown = [f for f in forms if f not in known]
        if unknown or not forms:
            raise argparse.ArgumentTypeError(
                f"unknown form(s) {', '.join(unknown) or '(none)'}; expected some of {', '.join(known)}"
            )
        return list(dict.fromkeys(forms))

    return parse


def home_of(args: argparse.Namespace) -> Home:
    """The home the global ``--home`` option names (else ``$PERFDB_HOME``, else ``./perfdb_home``); not created."""
    return Home.locate(getattr(args, "home", None))


def subcommand(subparsers, name: str, func: Callable, help: str, description: str | None = None):
    """``perfdb ... NAME``, run by ``func(args)``; returns its parser for the options."""
    p = subparsers.add_parser(name, help=help, description=description)
    p.set_defaults(func=func)
    return p


# -- reports ---------------------------------------------------------------------------------------

def add_format(p: argparse.ArgumentParser) -> None:
    """``--format table|csv|json``; the global ``--json`` sets it to json (``takes_format``)."""
    p.add_argument("--format", choices=FORMATS, default="table",
                   help="table (default), csv, or json: an array of objects keyed by column name")
    p.set_defaults(takes_format=True)


def input_format(text: str) -> str:
    """``perfdb ingest --format NAME``: one of the parsers' formats. The registry is imported only when the
    option is given, so that ``perfdb --help`` stays light."""
    from ingest.formats.registry import all_parsers

    known = [parser.format for parser in all_parsers()]
    if text not in known:
        raise argparse.ArgumentTypeError(f"unknown format {text!r}; known: {', '.join(known)}")
    return text


def add_system_filter(p: argparse.ArgumentParser, example: str | None = None) -> None:
    p.add_argument("--system", help="only this system or host" + (f", e.g. '{example}'" if example else ""))


def add_date(p: argparse.ArgumentParser, help: str) -> None:
    p.add_argument("--date", type=iso_date, required=True, help=f"{help}, YYYY-MM-DD")


def add_date_range(p: argparse.ArgumentParser) -> None:
    p.add_argument("--from", dest="date_from", type=iso_date, help="first day, YYYY-MM-DD (default: the first day)")
    p.add_argument("--to", dest="date_to", type=iso_date, help="last day, YYYY-MM-DD (default: the last day)")


# -- generators ------------------------------------------------------------------------------------

def add_seed(p: argparse.ArgumentParser) -> None:
    p.add_argument("--seed", type=int, default=DEMO_SEED, help="random seed (default %(default)s)")


def add_generator_options(p: argparse.ArgumentParser, family: str, *, start: dt.date, days: int,
                          days_type: Callable[[str], int] = int) -> None:
    """``--start``, ``--days``, ``--seed`` and ``--out`` (see ``output_dir``)."""
    p.add_argument("--start", type=iso_date, default=start, help="first day, YYYY-MM-DD (default %(default)s)")
    p.add_argument("--days", type=days_type, default=days, help="days to generate (default %(default)s)")
    add_seed(p)
    p.add_argument("--out", help=f"output directory (default: <home>/landing/{family})")


def output_dir(args: argparse.Namespace, family: str) -> Path:
    """``--out``, else ``landing/<family>`` of the home; the generator creates it."""
    return Path(args.out) if args.out else home_of(args).landing / family
