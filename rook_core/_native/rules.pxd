from rook_core._native.crook cimport rook_rules

cdef class Rules:
    cdef rook_rules r
    cdef readonly object variant
