"""z/OS and VM/MVS TCP/IP NETSTAT reports."""
