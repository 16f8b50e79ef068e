from libc.stdint cimport uint16_t
from rook_core._native.crook cimport rook_hand
from rook_core._native.rules cimport Rules

cdef class HandState:
    cdef rook_hand h
    cdef rook_hand start
    cdef Rules rules
    cdef rook_hand *stack
    cdef uint16_t *actions
    cdef Py_ssize_t n
    cdef Py_ssize_t cap
    cdef object start_info

    @staticmethod
    cdef HandState _new(Rules rules, object start)
    cdef dict _start_dict(self)
    cdef void _grow(self) except *
    cpdef HandState clone(self)
    cpdef apply(self, object action, object seat=*)
    cdef void _raise_seat(self, seat, int action) except *
    cdef void _raise(self, int err, int action) except *
    cdef bint _nest_taken(self)
