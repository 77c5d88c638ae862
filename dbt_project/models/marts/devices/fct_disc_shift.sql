-- Disc volumes condensed into shifts like the processors (King 1986: "similar queries"): AVG, MAX
-- and MIN of the hourly DISC BUSY, REQ QLEN, SEEK BUSY, cache hit ratio, WRITE BUSY and BYTE RATE.
{{ config(materialized='incremental',
          unique_key=['system_name', 'shift_date'], meta={'touched_grain': 'shift_date'}) }}
{{ condense_hours_fact('disc') }}
