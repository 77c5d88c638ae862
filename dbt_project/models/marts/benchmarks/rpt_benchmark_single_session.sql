-- Seed 000's results are single-session results (L145: "the conclusions are based only on single data session
-- throughput"; L971-L983: one session, memory to memory, timed from the first CMSEND to the confirmation): rule
-- 000-R63, one evaluation per user run that rpt_benchmark_vs_reference compares with a seed 000 run and that says
-- how many sessions it ran, fired when it ran more than one (its result is not comparable with the document's).
-- Memory to memory is not a field of a benchmark log: only the sessions are compared.
select
    compared.run_key,
    compared.study,
    compared.run_label,
    compared.run_date,
    compared.reference_run_key,
    compared.reference_run_label,
    runs.sessions,
    reference.sessions as reference_sessions,
    '000-R63' as rule_id,
    compared.system_name,
    runs.sessions > 1 as fired
from {{ ref('rpt_benchmark_vs_reference') }} as compared
inner join {{ ref('fct_benchmark_run') }} as runs
    on runs.run_key = compared.run_key
inner join {{ ref('fct_benchmark_run') }} as reference
    on reference.run_key = compared.reference_run_key
where compared.reference_document = '000'
    and runs.sessions is not null
