/* check.h: ROOK_ASSERT, the stated preconditions checked where checks are on.
 *
 * A function's comment says "Precondition: ..."; its body states the same
 * as ROOK_ASSERT(cond).  With ROOK_CHECKS defined (the Debug and sanitizer
 * builds of CMakeLists.txt) a false condition prints the file, line and
 * condition and aborts; otherwise ROOK_ASSERT compiles to nothing, so the
 * optimised build's inner loops carry no check.
 */
#ifndef ROOK_CHECK_H
#define ROOK_CHECK_H

#ifdef ROOK_CHECKS
#include <stdio.h>
#include <stdlib.h>
#define ROOK_ASSERT(cond)                                                                                      \
    do {                                                                                                       \
        if (!(cond)) {                                                                                         \
            fprintf(stderr, "%s:%d: precondition failed: %s\n", __FILE__, __LINE__, #cond);                    \
            abort();                                                                                           \
        }                                                                                                      \
    } while (0)
#else
#define ROOK_ASSERT(cond) ((void)0)
#endif

#endif
