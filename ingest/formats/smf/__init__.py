"""z/OS SMF records (binary, as unloaded by IFASMFDL and transferred in binary).

Modules, one concern each: ``records`` (RDW/BDW/SDW framing, VB/VBS detection, spanned-record
reassembly), ``ebcdic`` (code pages), ``fields`` (vectorised field decoding over many records),
``headers`` (standard header, self-defining triplets), ``tables`` (the columns every raw SMF table
starts with), ``smf70`` / ``smf30`` / ``smf119`` (the record types we decode, each declaring the raw
tables it writes), ``parser`` (the ``PARSER`` object, format ``smf.binary``, and its list of decoders).
The raw tables are described in ``docs/smf_raw_contract.md``, generated from the declarations.
"""
