"""Argument types the ``perfdb generate`` sub-commands share: argparse turns their errors into exit 2."""

from __future__ import annotations

import argparse
import datetime as dt
from typing import Callable, Sequence


def iso_date(text: str) -> dt.date:
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a date; expected YYYY-MM-DD") from None


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
