-- FTP data rates measured by SMF 119.70 per system, direction and file type, beside the rate seed 004
-- published for the closest VSE case (dim_ftp_published_rate, G.5 summary). The aggregate rate is
-- total KB over total transfer seconds (how the seed's EDRs are defined: KB moved per elapsed second).
with transfers as (
    select * from {{ ref('fct_zos_ftp_transfer') }}
),

measured as (
    select
        system_id,
        direction,
        file_type,
        count(*) as transfer_count,
        sum(transfer_bytes) as transfer_bytes,
        sum(duration_s) as duration_s,
        sum(transfer_bytes) / 1024.0 / nullif(sum(duration_s), 0) as aggregate_kb_per_s,
        median(kb_per_s) as median_kb_per_s,
        min(kb_per_s) as min_kb_per_s,
        max(kb_per_s) as max_kb_per_s
    from transfers
    group by system_id, direction, file_type
),

baseline as (
    select * from {{ ref('dim_ftp_published_rate') }}
    where comparison_baseline
)

select
    measured.*,
    baseline.vse_file_class as published_file_class,
    baseline.edr_kb_per_s as published_kb_per_s,
    baseline.figure as published_figure,
    baseline.seed_line as published_seed_line,
    measured.aggregate_kb_per_s / baseline.edr_kb_per_s as ratio_to_published
from measured
left join baseline
    on baseline.direction = measured.direction
    and baseline.zos_file_type = measured.file_type
