"""Where the command-capture tests find their files; parsing is shared with the golden runner."""

from __future__ import annotations

from pathlib import Path

from golden.capture_rows import parse_file, values  # noqa: F401  (the helpers every command test uses)

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "commands"
# jc's netstat test data (MIT licence, tests/fixtures/oracles/netstat-jc/LICENSE.md)
JC_ORACLES = Path(__file__).resolve().parents[1] / "fixtures" / "oracles" / "netstat-jc"
