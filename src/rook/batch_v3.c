/* batch_v3.c: the playout kernel of playout.h built for x86-64-v3 (see batch.c). */
#define ROOK_PLAYOUT_FN rook_random_hands_v3
#include "rook/playout.h"
