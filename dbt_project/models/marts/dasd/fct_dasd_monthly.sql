-- DASD volumes per system, calendar month and shift (SMF 74.1): the month's shift rows added up and RMF's
-- figures computed from the sums (weighted by I/Os, as fct_dasd_shift). A day model of months
-- (macros/incremental.sql).
{{ config(materialized='incremental', unique_key=['system_name', 'month'], meta={'touched_grain': 'month'}) }}
with months as (
    select
        system_name,
        cast({{ dbt.date_trunc('month', 'shift_date') }} as date) as month,
        shift, device_number, volser,
        max(shift_name) as shift_name,
        max(exposures) as exposures,
        count(*) as n_shifts,
        sum(n_hours) as n_hours,
        {{ dasd_sums() }}
    from {{ ref('fct_dasd_shift') }}
    where {{ touched('system_name', 'cast(' ~ dbt.date_trunc('month', 'shift_date') ~ ' as date)', 'month') }}
    group by system_name, cast({{ dbt.date_trunc('month', 'shift_date') }} as date), shift, device_number, volser
)

select *, {{ dasd_figures() }}
from months
