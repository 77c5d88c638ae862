"""Capacity planning in plain Python: queueing models, sizing formulas and configuration checks.

``queueing``      M/M/1 and M/M/c (Erlang C) response times, the utilization where response doubles
``sizing``        the documents' own sizing formulas (cost per transaction, TN3270, FTP, SNA memory, NCP)
``config_checks`` a parameter listing checked against the tuning rules of seeds 000, 002 and 003

The dbt marts under ``dbt_project/models/marts/capacity`` compute the same quantities in SQL over the
warehouse; these functions serve the report's what-if for any growth factor and the tests.
"""
