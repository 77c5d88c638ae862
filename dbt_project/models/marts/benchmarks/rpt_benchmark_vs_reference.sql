-- Each user benchmark run next to the published run it is most comparable with: the same kind of
-- work (transaction type; APING's default exchange is a round trip), the same end (role) when both
-- say, the nearest bytes per transaction, then the same product. Ratios above 1 mean the user's run did better on
-- throughput and worse on CPU cost. Seed 000 (L176): a throughput "orders of magnitude less" than the
-- lab's on similar equipment means a bottleneck remains somewhere: rule 000-R62 of the rules catalogue, one
-- evaluation per run (its study the system), fired when the throughput ratio (or, without throughputs, the
-- rate's) crosses the rule's limit (0.1: an order of magnitude).
{#- each measure compared, with its own value, the reference's and the ratio of the two -#}
{%- set compared = {
    'throughput_bytes_per_s': 'throughput_ratio',
    'etr_per_s': 'etr_ratio',
    'cpu_ms_per_transaction': 'cpu_per_transaction_ratio',
    'cpu_s_per_byte': 'cpu_per_byte_ratio',
} %}
with runs as (
    select
        *,
        case when transaction_type = 'aping' then 'aping_round_trip' else transaction_type end as comparable_type
    from {{ ref('fct_benchmark_run') }}
),

candidates as (
    select
        u.run_key,
        r.run_key as reference_run_key,
        row_number() over (
            partition by u.run_key
            order by
                case when u.role is not distinct from r.role then 0 else 1 end,
                abs(ln(coalesce(u.bytes_per_transaction, 1) / coalesce(r.bytes_per_transaction, 1))),
                case when u.sut_product is not distinct from r.sut_product then 0 else 1 end,
                r.document,
                r.line_start,
                r.run_key
        ) as rank
    from runs as u
    inner join runs as r
        on r.source_kind = 'reference'
        and r.comparable_type = u.comparable_type
        and coalesce(r.known_exception, '') = ''
        and (r.throughput_bytes_per_s is not null or r.etr_per_s is not null or r.cpu_ms_per_transaction is not null)
    where u.source_kind = 'user'
        and (u.bytes_per_transaction is null or u.bytes_per_transaction > 0)
        and (r.bytes_per_transaction is null or r.bytes_per_transaction > 0)
)

select
    u.run_key,
    u.study,
    u.run_label,
    u.role,
    u.run_date,
    u.transaction_type,
    u.bytes_per_transaction,
    r.run_key as reference_run_key,
    r.document as reference_document,
    r.doc_table as reference_table,
    r.line_start as reference_line_start,
    r.line_end as reference_line_end,
    r.study as reference_study,
    r.run_label as reference_run_label,
    r.bytes_per_transaction as reference_bytes_per_transaction,
    {%- for measure, ratio in compared.items() %}
    u.{{ measure }},
    r.{{ measure }} as reference_{{ measure }},
    u.{{ measure }} / nullif(r.{{ measure }}, 0) as {{ ratio }},
    {%- endfor %}
    case
        when u.throughput_bytes_per_s / nullif(r.throughput_bytes_per_s, 0) < 0.1
            or u.etr_per_s / nullif(r.etr_per_s, 0) < 0.1
            then 'an order of magnitude or more below the published result: a bottleneck remains (seed 000 L176)'
        when u.throughput_bytes_per_s / nullif(r.throughput_bytes_per_s, 0) < 0.5
            or u.etr_per_s / nullif(r.etr_per_s, 0) < 0.5
            then 'below half the published result'
        else 'comparable with the published result'
    end as verdict,
    bottleneck.rule_id,
    u.study as system_name,
    coalesce({{ crosses('coalesce(u.throughput_bytes_per_s / nullif(r.throughput_bytes_per_s, 0), '
                        'u.etr_per_s / nullif(r.etr_per_s, 0))', 'bottleneck.operator', 'bottleneck.limit_value') }},
             false) as fired
from candidates
inner join runs as u on u.run_key = candidates.run_key
inner join runs as r on r.run_key = candidates.reference_run_key
cross join (
    select rule_id, operator, {{ adapter.quote('limit') }} as limit_value
    from {{ ref('thresholds') }}
    where rule_id = '000-R62' and system_name = '*'
) as bottleneck
where candidates.rank = 1
