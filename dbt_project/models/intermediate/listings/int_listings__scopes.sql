-- The scopes the configuration rules of rpt_config_findings judge, one row each, wide: every node of a
-- listing, and the listing as one set of the parameters that only one of its nodes sets (VTAM's IOBUF
-- beside NCP's UNITSZ), with each parameter a rule relates (config_wide: its value, text and node, and
-- whether it is set) and the platforms the scope's spellings name. A table of its own because
-- rpt_config_findings reads it once per rule (Spark inlines a CTE at each reference: the rules'
-- pivots made the mart ten minutes on Spark).
{%- set relations = config_relations() %}
{%- set peer_rules = config_peer_rules() %}
{#- a node (or listing scope) of a platform: one of its settings is spelt as the platform names it -#}
{%- set platform_nodes = [] %}
{%- for platform, spellings in platform_parameters().items() %}
    {%- do platform_nodes.append("max(case when lower(trim(firsts.parameter)) in ('" ~ spellings | join("', '")
        ~ "') then 1 else 0 end) as " ~ platform ~ "_node") %}
{%- endfor %}
{%- set keys = [] %}
{%- for rule in relations.values() | list + peer_rules.values() | list %}
    {%- for key in rule.needs + rule.get('reads', []) if key not in keys %}{% do keys.append(key) %}{% endfor %}
{%- endfor %}

-- a node's first setting of each parameter, as config_checks takes it
with firsts as (
    select * from {{ ref('int_listings__settings') }} where nth = 1
),

owners as (
    select source_file_id, parameter_key, count(distinct node) as nodes
    from firsts
    group by source_file_id, parameter_key
),

scopes as (
    select 'node' as scope, firsts.source_file_id, firsts.node, {{ config_wide('firsts', keys) }}
        {{ platform_nodes | join(', ') }},
        count(*) as settings
    from firsts
    group by firsts.source_file_id, firsts.node
    union all
    -- the listing as one set of the parameters that only one of its nodes sets
    select 'listing' as scope, firsts.source_file_id, cast(null as {{ dbt.type_string() }}) as node, {{ config_wide('firsts', keys) }}
        {{ platform_nodes | join(', ') }},
        count(*) as settings
    from firsts
    inner join owners
        on owners.source_file_id = firsts.source_file_id
        and owners.parameter_key = firsts.parameter_key
    where owners.nodes = 1
    group by firsts.source_file_id
),

scoped as (
    select
        *,
        -- the SNA header an RU shares a frame with: ingest.capacity.sizing's SUBAREA_HEADER_BYTES (FID4,
        -- seed 000 L311) or APPN_HEADER_BYTES (FID2, L312)
        case when network_type_text like '%subarea%' then 29 else 9 end as header_bytes
    from scopes
)

select * from scoped
