"""AIX commands that report on the host rather than its network (paging space, error log)."""
