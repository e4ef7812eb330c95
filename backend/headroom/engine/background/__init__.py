"""Harvesting idle capacity for background work, and connections versus streams
(docs/methods/concurrency.md). Modules: `reservation` (policies and the adaptive controller,
compiled), `outcome` (what a run costs and yields), `series` (CSV input), `compare` (all policies),
`connections` (HTTP/1.1 vs HTTP/2 payload rates). Import them directly: this package imports
nothing, so light callers do not load numba."""
