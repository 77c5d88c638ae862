-- The inputs of the documents' formulas, one row per formula, case and input, for rpt_formula_results: every
-- worked example's inputs from the seed reference_formula_inputs (source `document`) and the site's own
-- where the warehouse measures them (source `measured`, per z/OS system and day):
--   TN3270 (seed 004 F.6-F.7): the peak hour of the application workloads (fct_workload_hourly,
--     workloads of component `application`): its transactions per second and engines busy (CPU s /
--     3600) on the MIPS of one engine (seed processor_speeds) give the pathlength, and the TCP/IP
--     overhead those transactions would cost if they all came over TN3270; the day's pathlength of
--     rpt_capacity_sizing_measured gives the ITR ratio and relative CPU time. The overhead per
--     transaction is the document's (L4347), read from the seed.
--   FTP (seed 004 G.15): the day's KI per KB (rpt_capacity_sizing_measured) at the day's average
--     rate (bytes / 1024 / 86,400 s) on one engine.
-- A table of its own because rpt_formula_results reads it once per formula: as a CTE there, the engine
-- planned these unions again for each of the formulas (a minute to plan on DuckDB, for a thousand rows).
with seed as (
    select * from {{ ref('reference_formula_inputs') }}
),

documented as (
    select document, formula, case_name, 'document' as source, cast(null as {{ dbt.type_string() }}) as system_name,
        line, name, value
    from seed
    where role = 'input'
),

application_hours as (
    select
        w.system_name,
        cast(w.hour_start as date) as measured_date,
        w.hour_start,
        sum(w.transactions) as transactions,
        sum(w.cpu_s) as cpu_s
    from {{ zos_application_work('w') }}
    group by w.system_name, cast(w.hour_start as date), w.hour_start
),

peak_hours as (
    select
        hours.system_name,
        hours.measured_date,
        hours.transactions / 3600.0 as transactions_per_s,
        hours.cpu_s / 3600.0 as engines_busy,
        speeds.mips_per_engine,
        row_number() over (
            partition by hours.system_name, hours.measured_date order by hours.transactions desc, hours.hour_start
        ) as peak_rank
    from application_hours as hours
    inner join {{ ref('processor_speeds') }} as speeds
        on speeds.system_name = hours.system_name
),

-- the TCP/IP overhead per TN3270 transaction that the measured cases apply: the document's (L4347, L4393),
-- as the cases of tn3270_overhead_mips give it (they agree on it: one value)
overhead as (
    select max(value) as overhead_ki
    from seed
    where formula = 'tn3270_overhead_mips' and name = 'overhead_ki'
),

measured_days as (
    select
        peak.system_name,
        peak.measured_date,
        {{ dbt.concat(['peak.system_name', "' '", 'cast(peak.measured_date as ' ~ dbt.type_string() ~ ')',
                       "' peak application hour'"]) }} as case_name,
        peak.transactions_per_s,
        peak.engines_busy,
        peak.mips_per_engine,
        overhead.overhead_ki
    from peak_hours as peak
    cross join overhead
    where peak.peak_rank = 1
),

measured_inputs as (
    {#- formula -> the measured columns of measured_days that are its inputs (tv_ratio 1: no VM); online_pct
        is a percent of one engine, as the overhead is: over 100 on a system that keeps several busy #}
    {%- set peak_inputs = {
        'tn3270_pathlength_ki': {'utilization': 'engines_busy', 'mips': 'mips_per_engine',
                                 'transactions_per_s': 'transactions_per_s'},
        'tn3270_overhead_mips': {'transactions_per_s': 'transactions_per_s', 'overhead_ki': 'overhead_ki',
                                 'tv_ratio': '1.0'},
        'tn3270_overhead_pct': {'transactions_per_s': 'transactions_per_s', 'overhead_ki': 'overhead_ki',
                                'tv_ratio': '1.0', 'mips': 'mips_per_engine'},
        'tn3270_online_pct': {'online_pct': 'engines_busy * 100', 'transactions_per_s': 'transactions_per_s',
                              'overhead_ki': 'overhead_ki', 'tv_ratio': '1.0', 'mips': 'mips_per_engine'},
    } %}
    {%- for formula, columns in peak_inputs.items() %}
    {%- for name, column in columns.items() %}
    select cast(null as {{ dbt.type_string() }}) as document, '{{ formula }}' as formula, case_name,
        'measured' as source, system_name,
        cast(null as integer) as line, '{{ name }}' as name, cast({{ column }} as double) as value
    from measured_days
    union all
    {%- endfor %}
    {%- endfor %}
    {%- for formula in ['itrr_by_pathlength', 'rel_cput_by_pathlength'] %}
    {%- for name, column in {'pathlength_ki': 'sizing.pathlength_ki', 'overhead_ki': 'overhead.overhead_ki'}.items() %}
    select cast(null as {{ dbt.type_string() }}) as document, '{{ formula }}' as formula,
        {{ dbt.concat(['sizing.system_id', "' '", 'cast(sizing.measured_date as ' ~ dbt.type_string() ~ ')',
                       "' application pathlength'"]) }} as case_name,
        'measured' as source, sizing.system_id as system_name, cast(null as integer) as line,
        '{{ name }}' as name, cast({{ column }} as double) as value
    from {{ ref('rpt_capacity_sizing_measured') }} as sizing
    cross join overhead
    where sizing.pathlength_ki > 0
    union all
    {%- endfor %}
    {%- endfor %}
    {%- for name, column in {'ki_per_kb': 'ftp_ki_per_kb', 'kb_per_s': 'ftp_bytes / 1024.0 / 86400',
                             'kips': 'mips_per_engine * 1000.0'}.items() %}
    select cast(null as {{ dbt.type_string() }}) as document, 'ftp_cpu_utilization' as formula,
        {{ dbt.concat(['system_id', "' '", 'cast(measured_date as ' ~ dbt.type_string() ~ ')',
                       "' FTP day'"]) }} as case_name,
        'measured' as source, system_id as system_name, cast(null as integer) as line,
        '{{ name }}' as name, cast({{ column }} as double) as value
    from {{ ref('rpt_capacity_sizing_measured') }}
    where ftp_ki_per_kb is not null
    {%- if not loop.last %}
    union all
    {%- endif %}
    {%- endfor %}
),

inputs as (
    select all_inputs.*, {{ dbt.concat(['name', "' = '", formula_number_text('value')]) }} as shown
    from (
        select * from documented
        union all
        select * from measured_inputs
    ) as all_inputs
)

select * from inputs
