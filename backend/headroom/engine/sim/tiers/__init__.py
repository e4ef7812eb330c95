"""Multi-tier clusters: a request visits every tier in order (runner.py drives the
compiled loop.py: vms.py for a VM's queue, slots and cores, requests.py for a request's
and a page's way through the tiers, admission.py's stage at the first tier, records.py
recording each completed request; sct.py resizes downstream pools; results.py builds the
result)."""
