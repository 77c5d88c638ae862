{#- The first copy of every record of `relation`, by `natural_key`. A MEASCOM LIST run twice, overlapping
    SMF dumps, or the same records in two files land twice in raw (raw keeps what arrived); staging
    keeps the copy ingested first (`order_by`; the command models keep the first line printed). The
    rows keep a copy_number column (always 1) rather than drop it with a DuckDB-only `* exclude`: the
    models name the columns they select. -#}
{% macro first_copy(relation, natural_key, order_by=['source_file_id', 'record_ordinal']) %}
    select *
    from (
        select
            *,
            row_number() over (
                partition by {{ natural_key | join(', ') }}
                order by {{ order_by | join(', ') }}
            ) as copy_number
        from {{ relation }}
    ) as copies
    where copy_number = 1
{% endmacro %}
