-- FTP effective data rates (EDR, KB/s) that seed 004 (Kraemer, IBM "VSE/ESA TCP/IP Performance Considerations", 2001)
-- published, with the line of the OCR'd seed each comes from. Directions are seen from the host
-- (to_host = FTP to VSE). comparison_baseline marks the G.5 summary ("EDR ranges observed so far"),
-- the one row per direction and file class that rpt_zos_ftp_rates_vs_published compares with; the
-- other rows give the measured context. zos_file_type is the SMF 119 file type closest to the VSE
-- file class: library members and VSAM files are disk data sets (SEQ), POWER queues are spool (JES).
select
    figure,
    seed_line,
    direction,
    vse_file_class,
    zos_file_type,
    tcpip_level,
    cast(edr_kb_per_s as double) as edr_kb_per_s,
    comparison_baseline,
    note
from (
    values
        ('G.5', 4924, 'to_host', 'LIBR', 'SEQ', 'TCP/IP for VSE 1.3', 340.0, true, 'EDR range observed; DASD and network speed'),
        ('G.5', 4924, 'from_host', 'LIBR', 'SEQ', 'TCP/IP for VSE 1.3', 470.0, true, 'EDR range observed; DASD and network speed'),
        ('G.5', 4925, 'to_host', 'POWER', 'JES', 'TCP/IP for VSE 1.3', 115.0, true, 'improved, DBLK=7K (60 before)'),
        ('G.5', 4925, 'from_host', 'POWER', 'JES', 'TCP/IP for VSE 1.3', 290.0, true, 'improved, DBLK=7K (80 before)'),
        ('G.5', 4926, 'from_host', 'VSAM ESDS', 'SEQ', 'TCP/IP for VSE 1.3', 460.0, false, 'binary, to S/390 (360 to RS/6000 CLAW, 160 via CLAW and T/R)'),
        ('G.11', 5170, 'to_host', 'LIBR', 'SEQ', 'TCP/IP for VSE 1.4 ServPack A', 265.0, false, '1x10M member, real disk, single TCP/IP'),
        ('G.11', 5170, 'to_host', 'LIBR', 'SEQ', 'TCP/IP for VSE 1.4 ServPack A', 255.0, false, 'same via a gateway TCP/IP partition'),
        ('G.19', 5475, 'to_host', 'VSAM ESDS', 'SEQ', 'TCP/IP for VSE ServPack K', 639.0, false, 'interactive FTP, transfer rate once started, real 9345'),
        ('G.19', 5475, 'to_host', 'VSAM ESDS', 'SEQ', 'TCP/IP for VSE ServPack K', 930.0, false, 'interactive FTP, transfer rate once started, virtual disk (estimate)'),
        ('G.20', 5513, 'to_host', 'VSAM ESDS', 'SEQ', 'TCP/IP for VSE ServPack K', 492.0, false, 'interactive FTP, overall EDR via elapsed time, 10M binary, real disk')
) as published (
    figure, seed_line, direction, vse_file_class, zos_file_type, tcpip_level, edr_kb_per_s, comparison_baseline, note
)
