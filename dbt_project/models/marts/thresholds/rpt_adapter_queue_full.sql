-- Rule 002-R20 (seed 002 L808): "errpt contains the adapter-queue-full / write-failed entry". When an LU writes to
-- a full adapter queue the write fails, is retried after a delay, and the failure is logged in the AIX error log
-- (errpt -a). The entry is the LAN data link control's LAN8031, "Unexpected RC From Write To Device Handler",
-- which the DLC logs when the adapter's device handler refuses a frame with EAGAIN (AIX
-- src/bos/kernext/dlc/lan/lanmisc.c, lanwrtsg; template in src/bos/kernext/dlc/errlg/lan.err), under the
-- resource of its DLC: SYSXDLCT token ring, SYSXDLCE standard Ethernet, SYSXDLCI IEEE 802.3, SYSXDLCF FDDI.
-- Each errpt -a prints the whole log again, so an entry counts on the day of the first capture that shows it.
-- One row per host and day with an errpt -a capture; fired = that day's captures show a new LAN8031 entry.
with errpt as (
    select host, entity as sequence_number, captured_at, counter_name, text_value
    from {{ ref('int_counter__snapshot') }}
    where command = 'errpt -a'
),

-- an entry's label and resource are two rows of its capture, under its sequence number
queue_full_entries as (
    select labels.host, labels.sequence_number, min(cast(labels.captured_at as date)) as first_day
    from errpt as labels
    inner join errpt as resources
        on resources.host = labels.host
        and resources.captured_at = labels.captured_at
        and resources.sequence_number = labels.sequence_number
    where labels.counter_name = 'label'
        and labels.text_value = 'LAN8031'
        and resources.counter_name = 'resource_name'
        and resources.text_value in ('SYSXDLCT', 'SYSXDLCE', 'SYSXDLCI', 'SYSXDLCF')
    group by labels.host, labels.sequence_number
),

days as (
    select distinct host, cast(captured_at as date) as day from errpt
)

select
    '002-R20' as rule_id,
    days.host as system_name,
    days.day,
    count(queue_full_entries.sequence_number) as queue_full_entries,
    count(queue_full_entries.sequence_number) > 0 as fired
from days
left join queue_full_entries
    on queue_full_entries.host = days.host
    and queue_full_entries.first_day = days.day
group by days.host, days.day
