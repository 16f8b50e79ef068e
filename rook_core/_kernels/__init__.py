"""Numba kernels: array code in Python syntax, compiled to native code on first use."""
