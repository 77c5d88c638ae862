-- A band of available capacity whose upper bound is below its lower bound would grade nothing as a
-- warning and some utilizations twice: each row of reference_capacity_thresholds must have
-- capacity_lower_pct <= capacity_upper_pct.
select resource_type, cpu_type, capacity_lower_pct, capacity_upper_pct
from {{ ref('reference_capacity_thresholds') }}
where capacity_lower_pct > capacity_upper_pct
