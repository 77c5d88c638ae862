"""Parsers, one subpackage per source family; see base.py for the contract."""
