/* worker.h: a solver's own thread, kept from one team call to the next.
 *
 * Contract.  dd_worker_post(s, fn, arg) hands the job fn(arg) to the
 * thread of solver s (started on first use) and returns at once: 0, or -1
 * when no thread could be started (the job will not run).  dd_worker_reclaim(s)
 * then ends the job: when the thread has not begun it, the job is taken
 * back and never runs (return 0); else it waits until fn has returned
 * (return 1).  The caller keeps arg alive until then.  A thread begins a job
 * only under its lock, so a job taken back cannot begin.  One job at a
 * time per solver.  The thread blocks every signal (a Ctrl-C is the
 * host's to take).  dd_worker_stop(s) ends the thread (rook_solver_free).
 * In a process forked from the one that started the thread the thread is
 * gone: the solver forgets it, and starts another on its next post.
 *
 * Why kept.  A thread started for each call cost the caller a thread
 * start, and a search shorter than the time the new thread took to run
 * (about 0.1 ms here, the other core waking) waited for it at the join.
 * Now a short search takes its job back unbegun, and a thread that ends a
 * job watches for the next one for DD_WORKER_SPIN_NS before it sleeps.
 */
#ifndef ROOK_SOLVE_WORKER_H
#define ROOK_SOLVE_WORKER_H

#include "rook/solve/core.h"

int dd_worker_post(rook_solver *s, void *(*fn)(void *), void *arg);
int dd_worker_reclaim(rook_solver *s);
void dd_worker_stop(rook_solver *s);

#endif
