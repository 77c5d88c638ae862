"""The SQL constructs that run on DuckDB only (or run on Spark with other meaning), as patterns over
compiled SQL: what tests/spark/test_portable_sql.py looks for in the compiled project of both targets.

Each entry: (name, pattern, why). Found by running the project on Spark 4.3 (docs/scaling_out.md).
"""

from __future__ import annotations

import re

DUCKDB_ONLY = [
    ("varchar", r"\bvarchar\b", "Spark wants a length (DATATYPE_MISSING_SIZE); use string / dbt.type_string()"),
    ("trailing comma", r",\s*\n\s*(from|join|inner\s+join|left\s+join|cross\s+join|where|group\s+by)\b",
     "a comma before FROM/JOIN is a syntax error on Spark"),
    ("star exclude", r"\*\s*exclude\b", "Spark SQL has no star-except"),
    ("double-quoted identifier", r"(?<![\w'])\"[A-Za-z_][A-Za-z0-9_]*\"", "Spark reads \"x\" as the string 'x': silently wrong"),
    ("union by name", r"union\s+all\s+by\s+name", "no BY NAME on Spark"),
    ("list literal", r"unnest\s*\(\s*\[|\[\s*-?[0-9.]+\s*,", "no list literals on Spark"),
    ("json_extract_string", r"\bjson_extract_string\s*\(", "DuckDB only (get_json_object on Spark)"),
    ("arg_max", r"\barg_(max|min)\s*\(", "DuckDB only; max_by/min_by run on both"),
    ("regexp_matches", r"\bregexp_matches\s*\(", "DuckDB only; regexp_like on Spark"),
    ("isodow", r"\bisodow\s*\(", "DuckDB only"),
    ("lgamma", r"\blgamma\s*\(", "DuckDB only"),
    ("range table function", r"\bselect\s+range\b|\brange\s*\([^)]*\)\s+as\s+\w+\s*\(",
     "DuckDB's range() names its column range (Spark: id) and takes no column alias"),
    ("double-colon cast", r"(?<!:):(?!:)\s*:(?=[a-z])|\w::\w", "cast() is portable; :: is Spark >= 4 only"),
    ("regex backslash", r"'[^'\n]*\\[dws.][^'\n]*'", "Spark unescapes backslashes in string literals: the regex changes"),
    ("sub-second dateadd", r"\*\s*\(1/1000000\)", "dbt-spark's dateadd in milliseconds adds whole seconds: wrong timestamps"),
    ("sub-second datediff", r"date_format\([^)]*'SSS'\)|regexp_extract\([^)]*\[0-9\]\{6\}",
     "dbt-spark's datediff in milli/microseconds: wrong numbers, NULLs"),
]


# the constructs that live inside string literals; the others are looked for with the literals blanked out
IN_LITERALS = {"regex backslash", "sub-second datediff"}


def findings(sql: str) -> list[tuple[str, str]]:
    """(construct, the line it is on) for every DuckDB-only construct in ``sql``; comments ignored."""
    text = re.sub(r"--[^\n]*", "", re.sub(r"/\*.*?\*/", "", sql, flags=re.S))
    code = re.sub(r"'(?:[^'\n]|'')*'", lambda m: "'" + " " * (len(m.group()) - 2) + "'", text)
    found = []
    for name, pattern, _why in DUCKDB_ONLY:
        for m in re.finditer(pattern, text if name in IN_LITERALS else code, flags=re.I):
            line = text.count("\n", 0, m.start())
            found.append((name, text.splitlines()[line].strip() if text.splitlines() else ""))
    return found
