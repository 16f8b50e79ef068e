"""Compiled modules of rook_core (Cython over the C11 core in src/rook).

Contract: the Python-facing functions of these modules validate their
arguments and raise rook_core's typed errors; the C code below them trusts
its inputs and touches no Python object.
"""
