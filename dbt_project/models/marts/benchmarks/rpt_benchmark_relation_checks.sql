-- The relations the documents' own numbers obey, checked row by row on the reference library: one row
-- per reference run and relation, the value as printed, the value the relation computes from the row's
-- other printed values, and whether they agree within the rounding of the printed figures. Rows the
-- notes flag as inconsistent name the relation in known_exception; they are expected NOT to hold (the
-- dbt tests check both ways), so a flag that no longer describes the data is noticed too.
{#- a number of the free key/values: X | format('speedup') reads extra_json's speedup value -#}
{%- set X = "cast(" ~ json_text('extra_json', "'$.%s.value'") ~ " as double)" %}
{%- set P = "cast(" ~ json_text('parameters_json', "'$.%s.value'") ~ " as double)" %}
{#- a time of day of the free key/values ('12:19:37.21'), in seconds since midnight: T | replace('KEY', 'x') -#}
{%- set time_text = json_text('extra_json', "'$.KEY.value'") %}
{%- set T = "(cast(split_part(" ~ time_text ~ ", ':', 1) as double) * 3600 + cast(split_part(" ~ time_text
    ~ ", ':', 2) as double) * 60 + cast(split_part(" ~ time_text ~ ", ':', 3) as double))" %}

{#- relation name, seed, printed value, computed value, tolerance kind, tolerance, where, source lines -#}
{%- set checks = [
    ('appc_throughput', 'bytes x 8 / seconds = printed Mbit/s (Appendix A: transfer time; Appendix B: seconds per transaction)',
        'throughput_bytes_per_s', 'bytes_per_transaction / coalesce(response_time_s, elapsed_s / transactions)',
        'relative', 0.005, "document = '000'"),
    ('appc_transactions_per_s', 'transactions per second = 1 / seconds per transaction',
        'transactions_per_s', '1 / response_time_s', 'relative', 0.005, "document = '000'"),
    ('vtam_cpu_per_byte', 'CPU s per byte = engines x CPU % / 100 / throughput',
        'cpu_s_per_byte', 'sut_engines * cpu_pct / 100 / throughput_bytes_per_s', 'relative', 0.001, "document = '003'"),
    ('vtam_cpu_per_transaction', 'CPU s per transaction = engines x CPU % / 100 / transactions per s',
        'cpu_ms_per_transaction', '1000 * sut_engines * cpu_pct / 100 / transactions_per_s', 'relative', 0.001, "document = '003'"),
    ('transaction_resource', 'CPU ms per transaction = CPUs x utilization x period / transactions',
        'cpu_ms_per_transaction', 'sut_engines * cpu_pct / 100 * elapsed_s * 1000 / transactions', 'relative', 0.001, "document = '001'"),
    ('throughput_per_cpu', 'transactions per s per CPU = utilization x 1000 ms / CPU ms per transaction',
        (X | format('transactions_per_s_per_cpu')), 'cpu_pct / 100 * 1000 / cpu_ms_per_transaction', 'relative', 0.001,
        "document = '001' and run_label = 'worked-example'"),
    ('atm_utilization', 'CPU % = transactions per s per CPU x CPU ms per transaction / 10',
        'cpu_pct', (X | format('transactions_per_s_per_cpu')) ~ ' * cpu_ms_per_transaction / 10', 'absolute', 1.0, "document = '001'"),
    ('atm_rate_per_cpu', 'transactions per s = per CPU x CPUs',
        'transactions_per_s', (X | format('transactions_per_s_per_cpu')) ~ ' * sut_engines', 'relative', 0.01, "document = '001'"),
    ('interactive_response_law', 'terminals = throughput x (response time + think time)',
        'cast(users as double)', 'transactions_per_s * (response_time_s + think_time_s)', 'relative', 0.03, "document = '001'"),
    ('records_rate_elapsed', 'records = records per s x elapsed s',
        'transactions', 'transactions_per_s * elapsed_s', 'relative', 0.01, "document = '001' and doc_table like 'VLX%'"),
    ('etr_from_count', 'transactions per s = transactions / elapsed s',
        'transactions_per_s', 'transactions / elapsed_s', 'relative', 0.005, "document = '001' and doc_table like '6600%'"),
    ('comm_cpu_per_transaction', 'CPU ms per transaction = line handler CPU ms per s / transactions per s',
        'cpu_ms_per_transaction', (X | format('line_handler_cpu_busy')) ~ ' / transactions_per_s', 'relative', 0.005, "document = '001'"),
    ('sort_speedup', 'speedup = serial time / parallel time (printed to one significant digit)',
        (X | format('speedup')), 'serial_elapsed_s / elapsed_s', 'relative', 0.05, "document = '001'"),
    ('csaix_data_rate', 'KB/s = 1 MB file (1024 KB) / seconds',
        'throughput_bytes_per_s', 'bytes_per_transaction * transactions / elapsed_s', 'relative', 0.001, "document = '002'"),
    ('tn3270_delta', 'Delta ms per transaction = CPUT - CPUT of the SNA base run',
        (X | format('delta_cpu_per_transaction')), 'cpu_ms_per_transaction - base_cpu_ms', 'absolute', 0.015, "document = '004'"),
    ('tn3270_itrr', 'ITRR = CPUT of the SNA base run / CPUT',
        (X | format('itrr')), 'base_cpu_ms / cpu_ms_per_transaction', 'absolute', 0.006, "document = '004' and doc_table like 'F.3%'"),
    ('tn3270_utilization', 'CPU % = transactions per s x CPUT ms / 10 (printed CPU is up to 3.5 points lower)',
        'cpu_pct', 'transactions_per_s * cpu_ms_per_transaction / 10', 'absolute', 3.5, "document = '004' and doc_table like 'F.3%'"),
    ('itrr_projection', 'ITRR = pathlength / (pathlength + 280 KI)',
        (X | format('itrr')), (P | format('pathlength')) ~ ' / (' ~ (P | format('pathlength')) ~ ' + 280)', 'absolute', 0.006, "document = '004' and doc_table like 'F.6%'"),
    ('relative_cpu_projection', 'relative CPU time = (pathlength + 280 KI) / pathlength',
        (X | format('relative_cpu_time')), '(' ~ (P | format('pathlength')) ~ ' + 280) / ' ~ (P | format('pathlength')), 'absolute', 0.006, "document = '004'"),
    ('tn3270_pathlength', 'pathlength KI = utilization x MIPS x 1000 / transactions per s',
        (X | format('pathlength')), 'cpu_pct / 100 * sut_mips_per_engine * 1000 / transactions_per_s', 'relative', 0.005,
        "document = '004' and doc_table like 'F.7%' and run_label = 'native'"),
    ('ftp_ki_per_kb', 'KI per KB = CPU s x KIPS / KB moved (14 MIPS engine)',
        'ki_per_kb', 'cpu_s * sut_mips_per_engine * 1000 / (bytes_per_transaction * transactions / 1024)', 'absolute', 0.06,
        "document = '004'"),
    ('appc_time_reduction', 'reduction in transfer time % = (base time - tuned time) / base time',
        (X | format('reduction_in_transfer_time')), '100 * (baseline_elapsed_s - elapsed_s) / baseline_elapsed_s',
        'absolute', 0.5, "document = '000'"),
    ('elapsed_from_timestamps', 'elapsed s = last terminal stopped - first terminal started',
        'elapsed_s', (T | replace('KEY', 'last_terminal_stopped')) ~ ' - ' ~ (T | replace('KEY', 'first_terminal_started')),
        'absolute', 1.0, "true"),
] %}
{%- set run_columns = ['run_key', 'document', 'doc_table', 'line_start', 'line_end', 'run_label', 'role'] %}
{#- the figures a run printed in two tables must agree on; each pair of printings gives one row per figure
    (a cross join with the figure names, not a lateral VALUES list, which Spark cannot evaluate) -#}
{%- set figures = [('throughput', 'throughput_bytes_per_s'), ('CPU %', 'cpu_pct'), ('response time', 'response_time_s'),
    ('CPU ms per transaction', 'cpu_ms_per_transaction'), ('elapsed', 'elapsed_s')] %}
{%- set a_value %}case metric.name{% for label, column in figures %} when '{{ label }}' then a.{{ column }}{% endfor %} end{% endset %}
{%- set b_value %}case metric.name{% for label, column in figures %} when '{{ label }}' then b.{{ column }}{% endfor %} end{% endset %}

with runs as (
    select * from {{ ref('int_benchmark__reference_runs') }}
),

checked as (
    {%- for name, description, printed, computed, kind, tolerance, where in checks %}
    select
        '{{ name }}' as relation,
        '{{ description }}' as relation_description,
        {{ run_columns | join(', ') }},
        cast({{ printed }} as double) as printed_value,
        cast({{ computed }} as double) as computed_value,
        '{{ kind }}' as tolerance_kind,
        {{ tolerance }} as tolerance,
        known_exception,
        exception_note
    from runs
    where {{ where }}
        and {{ printed }} is not null
        and {{ computed }} is not null
    union all
    {%- endfor %}
    -- the same run printed in two tables must read the same in both
    select
        'duplicate_printing_agrees' as relation,
        'the same run printed in ' || a.doc_table || ' and ' || b.doc_table || ' agrees (' || metric.name || ')' as relation_description,
        a.{{ run_columns | join(', a.') }},
        cast({{ a_value }} as double) as printed_value,
        cast({{ b_value }} as double) as computed_value,
        'relative' as tolerance_kind,
        0.001 as tolerance,
        nullif(concat_ws(';', a.known_exception, b.known_exception), '') as known_exception,
        nullif(concat_ws('; ', a.exception_note, b.exception_note), '') as exception_note
    from runs as a
    inner join runs as b
        on b.document = a.document
        and b.run_label = a.run_label
        and b.role is not distinct from a.role
        and b.doc_table > a.doc_table
    cross join (
        values {% for label, _ in figures %}('{{ label }}'){% if not loop.last %}, {% endif %}{% endfor %}
    ) as metric(name)
    where {{ a_value }} is not null and {{ b_value }} is not null
)

select
    *,
    abs(printed_value - computed_value) as abs_error,
    abs(printed_value - computed_value) / nullif(abs(computed_value), 0) as rel_error,
    case tolerance_kind
        when 'relative' then abs(printed_value - computed_value) <= tolerance * abs(computed_value)
        else abs(printed_value - computed_value) <= tolerance
    end as holds,
    coalesce(';' || known_exception || ';' like '%;' || relation || ';%', false) as is_known_exception
from checked
