-- The threshold exceptions of the last 7 days the warehouse holds, whatever today is: the Thresholds
-- dashboard's list of the latest exceptions. A table of a few days, rebuilt whole each night.
with last_day as (
    select max(exception_date) as day from {{ ref('rpt_threshold_exceptions') }}
)

select exceptions.*
from {{ ref('rpt_threshold_exceptions') }} as exceptions
cross join last_day
where exceptions.exception_date > cast({{ dbt.dateadd('day', -7, 'last_day.day') }} as date)
