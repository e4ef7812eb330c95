"""The demo workspace (`headroom demo`): seed.py fills it, samples.py makes its synthetic
log and trace."""
