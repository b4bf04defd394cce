"""Baselines for benchmarks/run.py, each an independent, honest implementation.

- :mod:`.dice_floor`: a numba kernel that only rolls and sums the D6 a scenario needs.
- :mod:`.numpy_mc`: a vectorised numpy Monte Carlo, as a competent user would write it.
- :mod:`.icepool_exact`: the exact answer with the icepool dice library.
"""
