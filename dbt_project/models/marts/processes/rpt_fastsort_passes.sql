-- Glasstone 1986's one-pass sort (seed 001 L1284, 001-aF19): "If the input file is less than the size of main
-- memory, the sort can be done in one pass", and FASTSORT's AUTOMATIC option "tries to allocate enough memory to
-- give a one-pass sort if the file is small (less than 100 Kbytes)" (L1344). One row per sort or merge run whose
-- FastSort statistics were loaded (HP FastSort Manual 429834-003 p. 2-13, ingest.formats.nonstop.fastsort), fired
-- when it wrote runs to scratch (INITIAL RUNS > 0: a second pass over the data; a sort in memory prints 0) though
-- its file fitted the memory it had or was under 100 Kbytes: give the sort memory (AUTOMATIC, or a larger MEMORY).
-- The file is RECORDS x MAX RECORD SIZE, the most it can be (the listing prints no byte count of the input);
-- the memory BUFFER PAGES of 1,024 16-bit words (2,048 bytes each).
{%- set small_file_bytes = 100 * 1024 %}
with runs as (
    {{ snapshot_columns('FASTSORT', 'statistics', 'sort_entity', {
        'records': 'records', 'max_record_bytes': 'max_record_bytes', 'buffer_pages': 'buffer_pages',
        'initial_runs': 'initial_runs', 'intermediate_passes': 'intermediate_passes', 'elapsed_s': 'elapsed_s'
    }) }}
),

sized as (
    select
        host as system_name,
        captured_at,
        records,
        max_record_bytes,
        records * max_record_bytes as file_bytes,
        buffer_pages,
        buffer_pages * 2048 as memory_bytes,
        initial_runs,
        intermediate_passes,
        elapsed_s
    from runs
    -- a listing that lost one of the four to an unreadable line (kept in raw.command_unparsed_lines) says
    -- nothing of its sort's passes: not evaluated, rather than a null finding
    where records is not null
        and max_record_bytes is not null
        and buffer_pages is not null
        and initial_runs is not null
)

select
    system_name,
    captured_at,
    '001-aF19' as rule_id,
    records,
    max_record_bytes,
    file_bytes,
    buffer_pages,
    memory_bytes,
    initial_runs,
    intermediate_passes,
    elapsed_s,
    initial_runs = 0 as one_pass,
    initial_runs > 0 and (file_bytes <= memory_bytes or file_bytes < {{ small_file_bytes }}) as fired
from sized
