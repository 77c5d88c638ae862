{#-
    The documents' sizing formulas in SQL, each the twin of a function of ingest/capacity/sizing.py
    (named after it; tests/benchmark/test_capacity.py proves both give the same numbers on the same
    inputs). Seed 004: IBM "VSE/ESA TCP/IP Performance Considerations". KB = 1024 bytes; MIPS = 10**6
    instructions a second; KI = 1000 instructions. Every argument is parenthesized: callers pass
    expressions. A quotient of two literals is cast to double first: Spark divides decimals at 6 places
    (2.0 / 60.0 = 0.033333), 1e-5 off.
-#}

{#- sizing.ki_per_kb: 10.167 CPU s x 14,000 KIPS / 10,240 KB = 13.9 KI/KB (seed 004 G.20, L5513) -#}
{% macro sizing_ki_per_kb(cpu_s, mips, kilobytes) -%}
    (({{ cpu_s }}) * ({{ mips }}) * 1000.0 / ({{ kilobytes }}))
{%- endmacro %}

{#- sizing.ftp_mips_per_100_kb_s: 20 KI/KB correspond to 2 MIPS per 100 KB/sec (seed 004 L4938) -#}
{% macro sizing_ftp_mips_per_100_kb_s(ki_per_kb) -%}
    (({{ ki_per_kb }}) * 100 / 1000.0)
{%- endmacro %}

{#- sizing.pathlength_ki_of_cpu_ms: CPU ms per transaction x MIPS = KI per transaction (seed 004
    L4387: 0.50 x 24 MIPS / 20 txn/s = 25 ms x 24 = 600 KI) -#}
{% macro sizing_pathlength_ki_of_cpu_ms(cpu_ms_per_transaction, mips) -%}
    (({{ cpu_ms_per_transaction }}) * ({{ mips }}))
{%- endmacro %}

{#- sizing.tn3270_terminals_per_processor: terminals one processor carries at a target utilization,
    each sending 2 transactions a minute (L4534-L4540) of pathlength + 280 KI TCP/IP overhead (L4393) -#}
{% macro sizing_tn3270_terminals_per_processor(target_utilization, mips, pathlength,
                                              transactions_per_terminal_min=2.0, overhead_ki=280.0) -%}
    (({{ target_utilization }}) * ({{ mips }}) * 1000.0
        / (cast({{ transactions_per_terminal_min }} as double) / 60.0 * (({{ pathlength }}) + ({{ overhead_ki }}))))
{%- endmacro %}

{#- The hours of the z/OS application workloads with transactions (component `application` of the seed
    workload_definitions): the work whose CPU per transaction the sizing formulas take as the pathlength.
    A from clause over fct_workload_hourly as `alias`. -#}
{% macro zos_application_work(alias) -%}
    {{ ref('fct_workload_hourly') }} as {{ alias }}
    inner join (
        select distinct workload from {{ ref('workload_definitions') }} where component = 'application'
    ) as application_workloads
        on application_workloads.workload = {{ alias }}.workload
        and {{ alias }}.platform = 'zos' and {{ alias }}.transactions > 0
{%- endmacro %}
