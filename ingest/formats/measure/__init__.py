"""HPE NonStop MEASURE counter records, in every form they arrive in.

All forms land in the same raw tables (docs/measure_raw_contract.md):

* ``binary_records`` -- binary structured records (``LIST ... REPORT FORMAT STRUCTURED``), decoded from DDL;
* ``csv_records`` -- the same records exported as delimited text with DDL item names in the header;
* ``meascom_*`` -- MEASCOM ``LIST`` report text.

Shared pieces: ``ddl`` (DDL text -> record layouts; the shipped DDL is in ``ddl/``), ``julian`` (Julian
timestamps), ``normalize`` (decoded items -> contract columns, and back for the writers).
"""
