"""Reports printed from serving.duckdb. Each public module registers `perfdb report <name>` with
add_parser(subparsers); modules whose names start with "_" are helpers."""
