"""Generators of realistic synthetic data; each module has add_parser(subparsers) and may have demo(home, seed)."""
