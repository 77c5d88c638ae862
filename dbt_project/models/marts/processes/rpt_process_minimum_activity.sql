-- King 1986, Fig. 7 (seed 001 L2071-L2074), the minimum-activity filters of the process condense as the
-- selection they are (001-b6.4-6): one row per process (a program in a CPU and PIN: the primary and the
-- backup of a named process pair are two rows of one process_key) and hour of a shift, selected (`fired`) when its
-- $RECEIVE queue averaged more than .3 (the hours PQLEN and the semaphore-wait rate average over) or its
-- CPU busy was more than .3 % (the hours READY/BUSY averages over). fct_process_shift averages over the
-- selected hours with the same limits (the vars process_min_pqlen and process_min_busy_pct) and leaves out
-- a process with none; rpt_rule_status counts the hours as the rule's evaluations and the selected ones
-- as its findings.
{{ config(materialized='incremental',
          unique_key=['system_name', 'shift_date'], meta={'touched_grain': 'shift_date'}) }}
{%- set min_pqlen = var('process_min_pqlen', 0.3) %}
{%- set min_busy_pct = var('process_min_busy_pct', 0.3) %}
select
    system_name,
    process_key,
    cpu_num,
    pin,
    program_file_name,
    shift_date,
    shift,
    hour_start,
    hour_start_utc,
    '001-b6.4-6' as rule_id,
    pqlen,
    cpu_busy_pct,
    coalesce(pqlen > {{ min_pqlen }}, false) as pqlen_selected,
    coalesce(cpu_busy_pct > {{ min_busy_pct }}, false) as cpu_busy_selected,
    coalesce(pqlen > {{ min_pqlen }} or cpu_busy_pct > {{ min_busy_pct }}, false) as fired
from {{ ref('int_process__hourly') }}
where shift is not null
    and {{ touched('system_name', 'shift_date', 'shift_date') }}
