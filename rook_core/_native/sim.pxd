# rook_core._native.sim: the native hand loop (src/rook/sim.h); see sim.pyx.
