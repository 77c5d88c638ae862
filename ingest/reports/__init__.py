"""Reports printed from serving.duckdb; each module has add_parser(subparsers)."""
