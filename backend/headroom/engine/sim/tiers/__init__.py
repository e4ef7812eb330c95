"""Multi-tier clusters: a request visits every tier in order (runner.py drives the
compiled loop.py, with admission.py's stage at the first tier and records.py recording
each completed request; sct.py resizes downstream pools; results.py builds the result)."""
