{#- The hosts that serve as a CS/AIX TN Server or SNA gateway, and which: the role seed 002's CPU reference points
    belong to (68 % at 1,524 gateway sessions, L1022; 85 % at 2,000 TN sessions, L1155; rule 002-R27). No listing
    or capture the warehouse loads states a host's role (a CS/AIX configuration's TN server and downstream LU
    definitions are not parsed), so the site names its hosts here: the demo's aix01 serves TN3270 clients. -#}
{% macro csaix_host_roles() %}
    {{ return({'aix01': 'TN Server'}) }}
{% endmacro %}
