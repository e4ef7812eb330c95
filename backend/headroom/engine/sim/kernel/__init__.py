"""The FCFS fast path (fcfs.py): a plain FCFS queue on one fixed VM, on its own state
(state.py), with its result (results.py)."""
