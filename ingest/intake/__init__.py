"""The intake of input files, the same for both targets (the DuckDB warehouse and the Spark lake).

    listing       the files named and below the folders named; why a listed path cannot be read
    identity      a file's sha256 (what it loads once by) and its parser, named or sniffed
    text_source   what the parser reads: the file, or a copy less a byte order mark
    parse         a file parsed into staged batches and accounted for (read = loaded + rejected + skipped)
    plausibility  values no measurement can have (times, negative counters, NULL keys) as rejects
    staged        a file's batches held in memory or spilled to Parquet until its target writes them
    result        what became of a file (FileResult) and how its rejects are told
    read          read_file: all of the above for one file, bad input told in its result, never raised

A target lists with ``listing``, reads each file with ``read.read_file`` and writes what it returns.
"""
