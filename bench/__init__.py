"""Benchmarks of GNS3 Copilot Desktop: ``python -m bench <name>`` runs ``bench/bench_<name>.py``."""
