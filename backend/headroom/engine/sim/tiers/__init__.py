"""Multi-tier clusters: a request visits every tier in order (runner.py drives the
compiled loop.py; sct.py resizes downstream pools; results.py builds the result)."""
