-- User-defined counters condensed into shifts per process (process_key) and counter: AVG, MAX and
-- MIN of the hourly rates, e.g. the RESP-TIME queue and THROUGHPUT counters of King 1986, Fig. 3.
-- As in ENFORM, the aggregates run over the hourly records of every process with that name.
{{ config(materialized='incremental',
          unique_key=['system_name', 'shift_date'], meta={'touched_grain': 'shift_date'}) }}
{{ condense_hours_fact('userdef') }}
