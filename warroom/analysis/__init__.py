"""Analysis: Monte Carlo balance studies and speed benchmarks."""
