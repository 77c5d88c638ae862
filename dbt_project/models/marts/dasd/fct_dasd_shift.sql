-- DASD volumes per system, shift date and shift (SMF 74.1): the hours of int_dasd__hourly added up and
-- RMF's figures computed from the sums, so a busy hour weighs by its I/Os (an average of the hours'
-- response times would weigh a quiet hour as much). A day model of shift dates (macros/incremental.sql).
{{ config(materialized='incremental',
          unique_key=['system_name', 'shift_date'], meta={'touched_grain': 'shift_date'}) }}
with shifts as (
    select
        system_name, shift_date, shift, device_number, volser,
        max(shift_name) as shift_name,
        max(exposures) as exposures,
        -- the hours that occurred (a fall-back day's repeated clock hour is two of them)
        count(distinct hour_start_utc) as n_hours,
        {{ dasd_sums() }}
    from {{ ref('int_dasd__hourly') }}
    where shift is not null
        and {{ touched('system_name', 'shift_date', 'shift_date') }}
    group by system_name, shift_date, shift, device_number, volser
)

select *, {{ dasd_figures() }}
from shifts
