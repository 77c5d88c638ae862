{#- DASD device activity (SMF 74.1) condensed: the additive sums of stg_smf__device_activity, added up over
    an hour, shift or month (`dasd_sums`), and RMF's figures computed from them (`dasd_figures`), so that a
    period weighs each interval by its I/Os and never averages averages. -#}

{#- How a volume is named in the marts: its volser and device number, e.g. `PRD001 (0A40)`. -#}
{% macro dasd_volume_label() -%}
    volser || ' (' || device_number || ')'
{%- endmacro %}

{% macro dasd_sum_columns() %}
    {{ return(['measured_s', 'exposure_s', 'ssch_count', 'measured_count', 'connect_s', 'pending_s', 'disconnect_s', 'iosq_s']) }}
{% endmacro %}

{% macro dasd_sums() -%}
    {%- for column in dasd_sum_columns() %}
    sum({{ column }}) as {{ column }}{{ ',' if not loop.last }}
    {%- endfor %}
{%- endmacro %}

{#- I/O rate; IOSQ time per I/O (queue seconds over all SSCHs); pending, disconnect and connect per measured
    SSCH; their sum the response time; the share of it spent in the IOS queue; device busy, connect and
    disconnect over the time of the volume's exposures (RMF's % DEV UTIL for one exposure). -#}
{% macro dasd_figures() -%}
    ssch_count / nullif(measured_s, 0) as io_per_s,
    1000 * iosq_s / nullif(ssch_count, 0) as iosq_ms,
    1000 * pending_s / nullif(measured_count, 0) as pending_ms,
    1000 * disconnect_s / nullif(measured_count, 0) as disconnect_ms,
    1000 * connect_s / nullif(measured_count, 0) as connect_ms,
    1000 * (iosq_s / nullif(ssch_count, 0) + (pending_s + disconnect_s + connect_s) / nullif(measured_count, 0)) as response_ms,
    100 * (iosq_s / nullif(ssch_count, 0))
        / nullif(iosq_s / nullif(ssch_count, 0) + (pending_s + disconnect_s + connect_s) / nullif(measured_count, 0), 0)
        as iosq_share_pct,
    100 * (connect_s + disconnect_s) / nullif(exposure_s, 0) as busy_pct
{%- endmacro %}
