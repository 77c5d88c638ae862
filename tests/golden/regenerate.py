"""Write the expected parse (``*.json``) of golden captures: an explicit step, never run by the tests.

    .venv/bin/python tests/golden/regenerate.py tests/golden/commands/aix/snapper_sea__netstat-v__20151225T000000.out
    .venv/bin/python tests/golden/regenerate.py --all

Review the diff of every ``*.json`` it writes: it is what the test suite will hold the parser to.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # the tests directory, where the golden package lives

from golden.capture_rows import dumps, golden_form  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cases", nargs="*", type=Path, help="capture files (*.out) whose *.json to write")
    parser.add_argument("--all", action="store_true", help="every *.out under tests/golden")
    args = parser.parse_args(argv)
    cases = sorted(HERE.rglob("*.out")) if args.all else args.cases
    if not cases:
        parser.error("name the *.out files, or --all")
    for case in cases:
        target = case.with_suffix(".json")
        text = dumps(golden_form(case))
        changed = not target.exists() or target.read_text() != text
        target.write_text(text)
        print(f"{'wrote' if changed else 'same '} {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
