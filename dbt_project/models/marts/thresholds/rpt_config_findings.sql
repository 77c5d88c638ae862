-- Every configuration rule of the rules catalogue evaluated on every parameter listing loaded
-- (raw.parameter_listings), one row per evaluation: the rule, the listing (its file) and node, the
-- parameters, the value and the limit compared, and whether the rule fired (a finding). As
-- ingest.capacity.config_checks evaluates a listing (`perfdb report capacity --config`):
--   a catalogue row with metric, operator and limit   each node's first setting of that parameter
--   a rule relating parameters (config_relations)     each node that sets all it needs; a two-parameter
--                                                      rule no node sets whole, once on the listing when
--                                                      each parameter is set by one node only (VTAM's
--                                                      IOBUF, NCP's UNITSZ), the node `NCP+VTAM`
--   a rule on settings (config_setting_rules)         every pacing window; each node's adapter queues
--   a rule across nodes (config_peer_rules)            each node that sets what it needs, against the numbers
--                                                      the listing's other nodes set (NCP's T2TIMER against
--                                                      its stations' send windows)
-- A listing is its file: the baseline and the tuned NCP of seed 000 are evaluated apart.
{%- set relations = config_relations() %}
{%- set setting_rules = config_setting_rules() %}
{%- set peer_rules = config_peer_rules() %}

with settings as (
    select * from {{ ref('int_listings__settings') }}
),

-- config_checks takes a node's first setting of a parameter (a pacing window counts each time)
firsts as (
    select * from settings where nth = 1
),

scoped as (
    select * from {{ ref('int_listings__scopes') }}
),
{%- for rule_id, rule in relations.items() %}
{%- set cte = 'rule_' ~ rule_id | replace('-', '_') %}

{{ cte }} as (
    select
        '{{ rule_id }}' as rule_id,
        source_file_id,
        node,
        '{{ rule.needs | join(", ") }}' as parameters,
        {{ config_rule_verdict(rule) }}
    from scoped
    where scope = 'node'
        {%- for key in rule.needs %}
        and {{ key }}_set = 1
        {%- endfor %}
        {%- if rule.platform %}
        and {{ rule.platform }}_node = 1
        {%- endif %}
    {%- if rule.needs | length == 2 %}
    {%- set first, second = rule.needs[0] ~ '_node', rule.needs[1] ~ '_node' %}
    union all
    select
        '{{ rule_id }}' as rule_id,
        scoped.source_file_id,
        case
            when {{ first }} = {{ second }} then {{ first }}
            when {{ first }} < {{ second }} then {{ first }} || '+' || {{ second }}
            else {{ second }} || '+' || {{ first }}
        end as node,
        '{{ rule.needs | join(", ") }}' as parameters,
        {{ config_rule_verdict(rule) }}
    from scoped
    left join (
        select distinct source_file_id
        from scoped
        where scope = 'node'
            {%- for key in rule.needs %}
            and {{ key }}_set = 1
            {%- endfor %}
            {%- if rule.platform %}
            and {{ rule.platform }}_node = 1
            {%- endif %}
    ) as on_a_node
        on on_a_node.source_file_id = scoped.source_file_id
    where scoped.scope = 'listing'
        and on_a_node.source_file_id is null
        {%- for key in rule.needs %}
        and {{ key }}_set = 1
        {%- endfor %}
        {%- if rule.platform %}
        and scoped.{{ rule.platform }}_node = 1
        {%- endif %}
    {%- endif %}
),
{%- endfor %}
{%- for rule_id, rule in peer_rules.items() %}

rule_{{ rule_id | replace('-', '_') }} as (
    select
        '{{ rule_id }}' as rule_id,
        scoped.source_file_id,
        scoped.node,
        '{{ (rule.needs + rule.peers) | join(", ") }}' as parameters,
        {{ config_rule_verdict(rule) }}
    from scoped
    inner join (
        select nodes.source_file_id, nodes.node, max(peer.value) as peer_max
        from (select distinct source_file_id, node from firsts) as nodes
        inner join firsts as peer
            on peer.source_file_id = nodes.source_file_id
            and peer.node <> nodes.node
            and peer.parameter_key in ('{{ rule.peers | join("', '") }}')
            and peer.value is not null
        group by nodes.source_file_id, nodes.node
    ) as peers
        on peers.source_file_id = scoped.source_file_id
        and peers.node = scoped.node
    where scoped.scope = 'node'
        {%- for key in rule.needs %}
        and scoped.{{ key }}_set = 1
        {%- endfor %}
),
{%- endfor %}

comparison_rules as (
    select rule_id, metric, operator, {{ adapter.quote('limit') }} as limit_value
    from {{ ref('rules_catalogue') }}
    where kind = 'configuration'
        and evaluated_by = 'config_checks'
        and metric is not null
),

evaluations as (
    select
        rules.rule_id,
        firsts.source_file_id,
        firsts.node,
        firsts.parameter as parameters,
        firsts.value,
        rules.limit_value,
        coalesce({{ crosses('firsts.value', 'rules.operator', 'rules.limit_value') }}, false) as fired
    from firsts
    inner join comparison_rules as rules
        on rules.metric = firsts.parameter_key
    {%- for rule_id, rule in setting_rules.items() %}
    union all
    select
        '{{ rule_id }}' as rule_id,
        source_file_id,
        node,
        parameter as parameters,
        value,
        cast({{ rule.limit }} as double) as limit_value,
        coalesce({{ rule.fired }}, false) as fired
    from {{ 'settings' if rule.every else 'firsts' }}
    where parameter_key in ('{{ rule['keys'] | join("', '") }}')
    {%- endfor %}
    {%- for rule_id in relations | list + peer_rules | list %}
    union all
    select * from rule_{{ rule_id | replace('-', '_') }}
    {%- endfor %}
)

select
    evaluations.rule_id,
    catalogue.document,
    evaluations.source_file_id,
    files.path as listing,
    evaluations.node,
    evaluations.parameters,
    evaluations.value,
    evaluations.limit_value,
    evaluations.fired,
    catalogue.severity,
    catalogue.source
from evaluations
inner join {{ ref('rules_catalogue') }} as catalogue
    on catalogue.rule_id = evaluations.rule_id
left join {{ source('manifest', 'ingest_files') }} as files
    on files.file_id = evaluations.source_file_id
