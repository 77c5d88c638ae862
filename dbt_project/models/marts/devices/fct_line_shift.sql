-- Communication lines condensed into shifts: AVG, MAX and MIN of the hourly values.
{{ config(materialized='incremental',
          unique_key=['system_name', 'shift_date'], meta={'touched_grain': 'shift_date'}) }}
{{ condense_hours_fact('line') }}
