{#-
    Runs of consecutive records. MEASURE writes one record per entity and interval. A record
    continues the run of the previous record of the same `partition_by` when it begins where that
    record ended and agrees with it on `continuing_columns`; any other record starts a new run. A run
    is one life of a process, or one open of a file.

    with_run_flags adds starts_run (1 for the first record of a run) and starts_run_day (1 for the
    first record of a run on its calendar day: counting these per day counts the runs seen that day).
    Records are taken in the order of `order_by`: interval_start_utc where the relation has it, as the two
    intervals of a fall-back day's repeated hour share their local start.
    with_run_start adds `run_column`, the interval_start of the run each record belongs to.
-#}
{% macro with_run_flags(relation, partition_by, continuing_columns=[], order_by='interval_start') %}
select
    *,
    case when continues_run then 0 else 1 end as starts_run,
    case
        when continues_run and cast(previous_start as date) = cast(interval_start as date) then 0
        else 1
    end as starts_run_day
from (
    select
        *,
        coalesce(
            lag(interval_end) over run_window = interval_start
            {%- for column in continuing_columns %}
            and lag({{ column }}) over run_window is not distinct from {{ column }}
            {%- endfor %},
            false
        ) as continues_run,
        lag(interval_start) over run_window as previous_start
    from {{ relation }}
    window run_window as (partition by {{ partition_by | join(', ') }} order by {{ order_by }})
) as flagged
{% endmacro %}

{% macro with_run_start(relation, partition_by, run_column, continuing_columns=[]) %}
select
    *,
    max(case when starts_run = 1 then interval_start end) over (
        partition by {{ partition_by | join(', ') }}
        order by interval_start
        rows between unbounded preceding and current row
    ) as {{ run_column }}
from ({{ with_run_flags(relation, partition_by, continuing_columns) }}) as runs
{% endmacro %}

{#- Glasstone 1986, Figs. 6 and 7: per system, day and file, how many times the file was opened
    (open_count, the reports' COUNT: more than one means dynamic opens) and the sums of `counters`,
    then `extra_columns` (expressions over the day's sums). An open is one run of consecutive records
    of the same opener and file. Records with `#` in the file name (temporary files), records with no
    `activity_counters` activity and records failing `where` are left out, as the reports' WHERE does. -#}
{% macro file_opens_per_day(relation, counters, activity_counters, where='true', extra_columns=[]) %}
    {%- set open_keys = ['system_name', 'opener_cpu', 'opener_pin', 'file_name'] %}
with records as (
    select * from {{ relation }}
    where coalesce(error_code, 0) <= 0
),

opens as (
    {{ with_run_start('records', open_keys, 'opened_at') }}
),

active as (
    select *
    from opens
    where {{ where }}
        and file_name not like '%#%'
        and {% for counter in activity_counters %}coalesce({{ counter }}, 0){% if not loop.last %} + {% endif %}{% endfor %} > 0
),

per_open as (
    select
        {{ open_keys | join(', ') }}, opened_at, cast(interval_start as date) as report_date,
        {%- for counter in counters %}
        sum({{ counter }}) as {{ counter }}{% if not loop.last %},{% endif %}
        {%- endfor %}
    from active
    group by {{ open_keys | join(', ') }}, opened_at, cast(interval_start as date)
)

select
    system_name,
    report_date,
    file_name,
    count(*) as open_count,
    {%- for counter in counters %}
    sum({{ counter }}) as {{ counter }}{% if not (loop.last and not extra_columns) %},{% endif %}
    {%- endfor %}
    {%- for column in extra_columns %}
    {{ column }}{% if not loop.last %},{% endif %}
    {%- endfor %}
from per_open
group by system_name, report_date, file_name
{% endmacro %}
