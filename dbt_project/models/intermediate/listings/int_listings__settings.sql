-- Every parameter listing's settings (stg_listings__parameters) with their rank among the node's settings
-- of the same parameter: config_checks takes a node's first setting of a parameter (nth = 1), a pacing
-- window rule every one. A table of its own because rpt_config_findings reads it once per rule (Spark
-- inlines a CTE at each reference).
select
    *,
    row_number() over (partition by source_file_id, node, parameter_key order by line_number) as nth
from {{ ref('stg_listings__parameters') }}
