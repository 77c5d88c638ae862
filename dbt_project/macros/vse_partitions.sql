{#- Which VSE partition runs what, for the rules on the partition priorities (seed 004 L2234: "Select PRTY
    sequence (low to high): Batch, CICS, TCP/IP, VTAM, POWER"). The PRTY display names partitions, not
    what runs in them: this is the layout VSE/ESA ships and seed 004 assumes ("the TCP/IP partition (F7)",
    L2270, with VTAM in F3 and POWER in F1 above it: 'Fx'=F7,F3,F1), and the one the POWER reader queue of
    a real VSE/ESA 2.4 system prints (CICSICCF PART=F2, VTAMSTRT PART=F3, TCPIP00 PART=F7). VSE/POWER always
    runs in F1. A site with another layout changes it here. -#}
{% macro vse_partition_roles() %}
    {{ return({'power': 'F1', 'cics': 'F2', 'vtam': 'F3', 'tcpip': 'F7'}) }}
{% endmacro %}
