"""Data quality: Great Expectations suites over the raw tables and the marts, run by ``perfdb check``.

    quality/suite.py          what a suite is (a named frame of the warehouse + its expectations)
    quality/suites/           one module per suite family; each exports ``SUITES`` (found by the registry)
    quality/slice.py          what a nightly check reads: the files, days and months loaded since the last pass
    quality/frames.py         reads every suite's frame through one read-only DuckDB connection
    quality/gx_validation.py  validates the frames with GX (pandas route) and writes the Data Docs
    quality/report.py         one outcome per expectation, the run's verdict, how it is printed
    quality/audit.py          keeps every result in ``audit.validation_runs`` / ``audit.validation_results``
    quality/runner.py         ``run_checks(home, quiet, everything)``: the check, as ``perfdb check [--all]`` runs it

Why pandas: the DuckDB SQL datasource of GX 1.24 fails every metric ("list index out of range"), so each
suite's frame is read with a read-only DuckDB connection and validated as a dataframe. The read-only
connection is closed before the results are written with a read-write one, because DuckDB refuses a
read-write connection in a process that still holds a read-only one to the same file.
"""

import sys
import warnings

# Great Expectations imports pyspark when it is installed (the spark extra), and pyspark warns about
# pandas 3 on import; the pandas-frame validation here never touches Spark
warnings.filterwarnings("ignore", message="PySpark does not yet fully support", category=FutureWarning)


def _import_great_expectations() -> None:
    """GX imports ``pyspark.sql.connect``, which ends the process (exit status 0, "Skipping doctests") when
    the main module has neither a spec nor a file, taking that for its own doctest run: so it does under
    ``python -c`` and in pytest-xdist's workers. The interactive prompt marker it also accepts is set for
    the length of the import only."""
    main = sys.modules.get("__main__")
    pretend = not (main is None or getattr(main, "__spec__", None) or hasattr(main, "__file__") or hasattr(sys, "ps1"))
    if pretend:
        sys.ps1 = ""
    try:
        import great_expectations  # noqa: F401
    finally:
        if pretend:
            del sys.ps1


_import_great_expectations()
