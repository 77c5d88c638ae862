-- What MEASURE itself costs: "MEASURE processes required from 0.02% to 1.14% of the system's CPU time,
-- depending on the number of entities measured and number of concurrent measurements" (Glasstone 1986,
-- seed 001 L1192). One row per system and day whose measurement included MEASURE's own processes: their CPU
-- busy time (the PROCESS records of int_process__daily) over the busy time of the system's CPUs (the CPU
-- records of int_cpu__hourly, BUSY x the seconds measured), compared with the `measure_overhead` rules of the
-- catalogue (001-aF15), fired above the document's highest. A day without their records is not evaluated:
-- the measurement left them out, which says nothing of their cost.
{#- MEASURE's processes by program (Measure Reference Manual, Appendix C; seed 001 L1035-L1041): the command
    interpreter, the data file handler, the monitor pair and the control process of each CPU -#}
{%- set measure_programs = ['MEASCOM', 'MEASFH', 'MEASMON', 'MEASCTL'] %}
with measure_processes as (
    select
        system_name,
        report_date,
        count(*) as process_count,
        sum(cpu_busy_s) as measure_busy_s
    from {{ ref('int_process__daily') }}
    where {% for program in measure_programs %}program_file_name like '%.{{ program }}'{% if not loop.last %} or {% endif %}{% endfor %}
    group by system_name, report_date
),

cpus as (
    select
        system_name,
        cast(hour_start as date) as report_date,
        sum(busy_pct * measured_s) / 100 as cpu_busy_s
    from {{ ref('int_cpu__hourly') }}
    group by system_name, cast(hour_start as date)
),

days as (
    select
        m.system_name,
        m.report_date,
        m.process_count,
        m.measure_busy_s,
        c.cpu_busy_s,
        100 * m.measure_busy_s / nullif(c.cpu_busy_s, 0) as measure_cpu_pct
    from measure_processes as m
    inner join cpus as c
        on c.system_name = m.system_name
        and c.report_date = m.report_date
),

measured as (
    {{ unpivot_metrics('days', ['system_name', 'report_date', 'process_count', 'measure_busy_s', 'cpu_busy_s'], ['measure_cpu_pct']) }}
)

{{ rule_evaluations('measured', 'measure_overhead') }}
