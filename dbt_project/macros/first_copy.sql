{#- The first copy of every record of a raw table. A MEASCOM LIST run twice, or the same records in two
    files, land twice in raw (raw keeps what arrived); staging keeps the copy ingested first. -#}
{% macro first_copy(relation, natural_key) %}
    select * exclude (copy_number)
    from (
        select
            *,
            row_number() over (
                partition by {{ natural_key | join(', ') }}
                order by source_file_id, record_ordinal
            ) as copy_number,
        from {{ relation }}
    )
    where copy_number = 1
{% endmacro %}
