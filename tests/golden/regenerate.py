"""Write the expected parse (``*.json``) of golden inputs: an explicit step, never run by the tests.

    .venv/bin/python tests/golden/regenerate.py tests/golden/commands/aix/snapper_sea__netstat-v__20151225T000000.out
    .venv/bin/python tests/golden/regenerate.py --all            # every family's inputs (tests/golden/sets.py)
    .venv/bin/python tests/golden/regenerate.py --family smf

Review the diff of every ``*.json`` it writes: it is what the test suite will hold the parser to.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # the tests directory, where the golden package lives

from golden.sets import SETS, expected_path, golden_cases  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cases", nargs="*", type=Path, help="input files whose *.json to write")
    parser.add_argument("--all", action="store_true", help="every golden input of every family")
    parser.add_argument("--family", choices=sorted({s.family for s in SETS}), help="every input of one family")
    args = parser.parse_args(argv)
    cases = [(s, p) for s, p in golden_cases() if args.all or s.family == args.family]
    if args.cases:
        wanted = {p.resolve() for p in args.cases}
        cases += [(s, p) for s, p in golden_cases() if p in wanted]
        unknown = wanted - {p for _, p in cases}
        if unknown:
            parser.error(f"not in any golden set (tests/golden/sets.py): {', '.join(map(str, sorted(unknown)))}")
    if not cases:
        parser.error("name the input files, or --all, or --family")
    for golden_set, case in cases:
        target = expected_path(case)
        text = golden_set.dumps(golden_set.form(case))
        changed = not target.exists() or target.read_text() != text
        target.write_text(text)
        print(f"{'wrote' if changed else 'same '} {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
