"""Data sources a workspace reads from directly (Prometheus), kept current by a schedule."""
