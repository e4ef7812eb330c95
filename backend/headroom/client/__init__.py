"""The remote client of the Headroom API for pipelines: credentials, resumable uploads, job
polling (remote), and the SLA checks `headroom check` evaluates on the figures it fetches
(check)."""
