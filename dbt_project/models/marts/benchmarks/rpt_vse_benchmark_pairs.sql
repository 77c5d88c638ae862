-- A site's own paired TCP/IP for VSE benchmark runs against the changes the document publishes for the same
-- pair (seed reference_vse_benchmark_deltas): two user runs of one study that differ in the factor a
-- published comparison varies (release, engines, partition types, dispatcher, a gateway TCP/IP, SNA vs
-- TN3270 access, the number of terminals) and agree in every other factor. The site's change of the
-- measure (new over old minus 1, or new minus old for a response time) is compared with the document's
-- band; departure is how far outside the band it lies, and the rule fires when the departure crosses its
-- limit in the rules catalogue (how near "about" is: ours). One row per pair, published case and rule.
{#- the factors a run is paired on, each as an expression over fct_benchmark_run -#}
{%- set factors = {
    'release': 'sut_release',
    'engines': 'cast(sut_engines as ' ~ dbt.type_string() ~ ')',
    'users': 'cast(users as ' ~ dbt.type_string() ~ ')',
    'transaction_type': 'transaction_type',
    'method': json_text('parameters_json', "'$.method.value'"),
    'partitions': json_text('parameters_json', "'$.partitions.value'"),
    'dispatcher': json_text('parameters_json', "'$.dispatcher.value'"),
    'tcpip_path': json_text('parameters_json', "'$.tcpip_path.value'"),
    'vse_disk': json_text('parameters_json', "'$.vse_disk.value'"),
    'file_shape': json_text('parameters_json', "'$.file_shape.value'"),
} %}
{%- set numeric_factors = ['engines', 'users'] %}
{%- set measures = {
    'throughput_bytes_per_s': 'throughput_bytes_per_s',
    'cpu_s': 'cpu_s',
    'cpu_ms_per_transaction': 'cpu_ms_per_transaction',
    'ki_per_kb': 'ki_per_kb',
    'response_time_s': 'response_time_s',
    'nps': 'cast(' ~ json_text('extra_json', "'$.nps.value'") ~ ' as double)',
    'delta_cpu_per_transaction': 'cast(' ~ json_text('extra_json', "'$.delta_cpu_per_transaction.value'") ~ ' as double)',
} %}
with runs as (
    select
        run_key,
        study,
        run_label,
        role,
        bytes_per_transaction,
        cpu_pct,
        {%- for name, expression in factors.items() %}
        {{ expression }} as f_{{ name }},
        {%- endfor %}
        {%- for name, expression in measures.items() %}
        {{ expression }} as m_{{ name }}{% if not loop.last %},{% endif %}
        {%- endfor %}
    from {{ ref('fct_benchmark_run') }}
    where source_kind = 'user'
        and sut_platform like 'VSE%'
),

published as (
    select * from {{ ref('reference_vse_benchmark_deltas') }}
),

pairs as (
    select
        published.rule_id,
        published.case_name,
        published.factor,
        published.measure,
        published.change_kind,
        published.change_low,
        published.change_high,
        published.line,
        base.run_key as base_run_key,
        variant.run_key,
        base.study,
        base.run_label as base_run_label,
        variant.run_label,
        case published.measure
            {%- for name in measures %}
            when '{{ name }}' then base.m_{{ name }}
            {%- endfor %}
        end as base_value,
        case published.measure
            {%- for name in measures %}
            when '{{ name }}' then variant.m_{{ name }}
            {%- endfor %}
        end as variant_value
    from published
    inner join runs as base
        on published.method is null or base.f_method = published.method
    inner join runs as variant
        on variant.study = base.study
        and variant.run_key <> base.run_key
        and variant.role is not distinct from base.role
        and variant.bytes_per_transaction is not distinct from base.bytes_per_transaction
    where
        {%- for name in factors %}
        (published.factor = '{{ name }}'
            or published.also_differs = '{{ name }}'
            or variant.f_{{ name }} is not distinct from base.f_{{ name }})
        and
        {%- endfor %}
        case published.factor
            {%- for name in factors %}
            when '{{ name }}' then
                {%- if name in numeric_factors %}
                case
                    when published.base_value = 'lower'
                        then cast(base.f_{{ name }} as double) < cast(variant.f_{{ name }} as double)
                    else base.f_{{ name }} = published.base_value and variant.f_{{ name }} = published.variant_value
                end
                {%- else %}
                base.f_{{ name }} = published.base_value and variant.f_{{ name }} = published.variant_value
                {%- endif %}
            {%- endfor %}
        end
        and (published.min_base_cpu_pct is null
            or (base.cpu_pct >= published.min_base_cpu_pct and base.cpu_pct < published.max_base_cpu_pct))
),

changes as (
    select
        *,
        case change_kind
            when 'difference' then variant_value - base_value
            else variant_value / nullif(base_value, 0) - 1
        end as site_change
    from pairs
),

rules as (
    select rule_id, operator, {{ adapter.quote('limit') }} as limit_value
    from {{ ref('thresholds') }}
    where entity = 'benchmark_pair' and system_name = '*'
),

compared as (
    select
        changes.*,
        greatest(changes.change_low - changes.site_change, changes.site_change - changes.change_high, 0) as departure,
        rules.operator,
        rules.limit_value
    from changes
    inner join rules
        on rules.rule_id = changes.rule_id
    where changes.site_change is not null
)

select
    rule_id,
    study as system_name,
    case_name,
    factor,
    measure,
    study,
    base_run_key,
    base_run_label,
    run_key,
    run_label,
    base_value,
    variant_value,
    site_change,
    change_low,
    change_high,
    line as document_line,
    departure,
    limit_value,
    coalesce({{ crosses('departure', 'operator', 'limit_value') }}, false) as fired
from compared
