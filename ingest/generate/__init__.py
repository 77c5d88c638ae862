"""Generators of realistic synthetic data. Each public module registers `perfdb generate <name>` with
add_parser(subparsers) and may offer demo(home, seed); modules whose names start with "_" are helpers."""
