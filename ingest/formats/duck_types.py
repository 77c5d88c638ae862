"""The DuckDB type that stores each Arrow type a parser may declare for a column (``Column.type``).

Read by the raw tables made in DuckDB (``ingest.raw_tables``) and by the dbt sources and contract pages
written from the declarations (``contract``): one map, beside the declarations, so that neither reaches
up for it. For example ``duck_type(pa.int32())`` is ``"integer"``.
"""

from __future__ import annotations

import pyarrow as pa

# exact, so that a column reads back with the type its parser wrote
_DUCK_TYPES = {
    pa.bool_(): "boolean",
    pa.int8(): "tinyint", pa.int16(): "smallint", pa.int32(): "integer", pa.int64(): "bigint",
    pa.uint8(): "utinyint", pa.uint16(): "usmallint", pa.uint32(): "uinteger", pa.uint64(): "ubigint",
    pa.float32(): "float", pa.float64(): "double",
    pa.string(): "varchar", pa.large_string(): "varchar",
    pa.binary(): "blob", pa.large_binary(): "blob",
    pa.date32(): "date",
    pa.timestamp("us"): "timestamp",
}


def duck_type(arrow_type: pa.DataType) -> str:
    """The DuckDB type that stores an Arrow type."""
    found = _DUCK_TYPES.get(arrow_type)
    if found is None:
        raise TypeError(f"no DuckDB type for Arrow type {arrow_type}: declare the column as one of "
                        f"{', '.join(sorted({str(t) for t in _DUCK_TYPES}))}")
    return found
