from libc.stdint cimport uint16_t
from rook_core._native.crook cimport rook_hand, rook_public
from rook_core._native.rules cimport Rules

cdef class HandCore:
    cdef rook_hand h
    cdef rook_hand start
    cdef Rules rules
    cdef rook_hand *stack
    cdef uint16_t *actions
    cdef Py_ssize_t n
    cdef Py_ssize_t cap
    cdef public object start_info
    cdef public bint _game_over     # the last hand of a Game that is over (T-34): no more actions

    cdef int _made(self) except -1
    cdef void _grow(self) except *
    cdef list _tricks(self, bint with_points)
    cdef void _public(self, rook_public *pub)
    cpdef HandCore clone(self)
    cpdef apply(self, object action, object seat=*)
