-- Glasstone 1986 (seed 001 L1134): MEASURE saves a transaction's start time in the terminal's counter record
-- and subtracts it from the transaction's end time; RESPONSE-TIME sums those differences over the terminal's
-- TRANSACTIONS. One row per terminal (a line's subdevice) and day: the formula over the day's TERMINAL
-- records, response_ms = RESPONSE-TIME / TRANSACTIONS (001-aF17, formula_models()).
with records as (
    {{ measured_records(ref('stg_measure__terminal')) }}
)

select
    system_name,
    line_name,
    subdev_name,
    cast(interval_start as date) as report_date,
    count(*) as interval_count,
    cast(sum(delta_time_us) as double) / 1e6 as measured_s,
    sum(transaction_count) as transaction_count,
    sum(response_time_us) as response_time_us,
    cast(sum(response_time_us) as double) / nullif(sum(transaction_count), 0) / 1e3 as response_ms,
    {{ per_s('sum(transaction_count)') }} as transactions_per_s,
    sum(input_bytes) as input_bytes,
    sum(output_bytes) as output_bytes
from records
group by system_name, line_name, subdev_name, cast(interval_start as date)
