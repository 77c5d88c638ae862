"""SNA subsystem outputs: CS/AIX snaadmin queries."""
