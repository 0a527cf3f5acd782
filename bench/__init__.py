"""Benchmarks: commands anyone can run; each writes its section of docs/benchmarks.md."""
