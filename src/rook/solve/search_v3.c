/* search_v3.c: the search of search.c compiled a second time for x86-64-v3
 * (BMI1/BMI2: shifts and masks without flag stalls, AVX2), for solvers whose
 * kernel is 2 (rook_solver_set_kernel; the default on a CPU that has it).
 * Both copies search the same tree: the same answers and node counts. */
#define _POSIX_C_SOURCE 200809L      /* clock_gettime (search.c), before any header */
#include "rook/solve/core.h"

#if DD_HAVE_V3
#pragma GCC target("arch=x86-64-v3")
#define DD_SEARCH_V3 1
#include "search.c"
#else
typedef int dd_search_v3_unused;     /* (an empty file is not C) */
#endif
