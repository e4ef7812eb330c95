"""The compiled single-tier event loop: state arrays, VMs, heaps, the general loop
(core.py) and the FCFS fast path (fcfs.py)."""
