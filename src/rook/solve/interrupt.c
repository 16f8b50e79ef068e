/* interrupt.c: Ctrl-C stops the searches under way.
 *
 * Contract.  rook_dd_watch_interrupts() puts a SIGINT handler of its own in
 * front of the one the process has (Python's, in rook_core), unless the
 * signal is ignored, left to its default (it ends the process anyway) or
 * already watched.  The handler counts the signal and then calls the
 * handler it found, so the host still learns of it (Python raises
 * KeyboardInterrupt once control comes back to it).  Each solver holds the
 * count its caller's work began at (rook_solver_watch_interrupts_from: the
 * same for every thread of that work, so a thread that starts a search
 * after the signal stops too) and stops, as if its caller had aborted it
 * (ROOK_STOP_CALLER), at the first look at its budgets after the count
 * moved: within 1,024 nodes.  A host that installs a handler of
 * its own later replaces this one; the next call watching re-chains in
 * front of it.  The handler does nothing but an atomic add and the call of
 * the handler it found, both safe in a signal handler; a second handler
 * chained in front of it by someone else cannot make the two call each
 * other for ever (a handler already running returns at once).
 */
#define _XOPEN_SOURCE 700 /* sigaction with SA_ONSTACK, SA_RESTART */
#include "rook/solve.h"

#if defined(__unix__) || defined(__APPLE__)
#include <pthread.h>
#include <signal.h>
#include <string.h>

static unsigned dd_interrupts;           /* SIGINTs seen since the first watch */
static struct sigaction dd_host;         /* the handler the process had */
static volatile sig_atomic_t dd_running; /* the handler is running (no loop) */
static pthread_mutex_t dd_watch_lock = PTHREAD_MUTEX_INITIALIZER;

static void on_sigint(int sig, siginfo_t *info, void *ctx)
{
    if (dd_running)
        return;
    dd_running = 1;
    __atomic_add_fetch(&dd_interrupts, 1, __ATOMIC_RELAXED);
    if (dd_host.sa_flags & SA_SIGINFO)
        dd_host.sa_sigaction(sig, info, ctx);
    else if (dd_host.sa_handler != SIG_DFL && dd_host.sa_handler != SIG_IGN)
        dd_host.sa_handler(sig);
    dd_running = 0;
}

int rook_dd_watch_interrupts(void)
{
    struct sigaction cur;
    int watching = 0;
    pthread_mutex_lock(&dd_watch_lock);
    if (sigaction(SIGINT, NULL, &cur) == 0) {
        int ours = (cur.sa_flags & SA_SIGINFO) && cur.sa_sigaction == on_sigint;
        int plain = !(cur.sa_flags & SA_SIGINFO) && (cur.sa_handler == SIG_DFL || cur.sa_handler == SIG_IGN);
        if (ours) {
            watching = 1;
        } else if (!plain) {
            struct sigaction mine;
            memset(&mine, 0, sizeof mine);
            mine.sa_sigaction = on_sigint;
            mine.sa_flags = SA_SIGINFO | (cur.sa_flags & (SA_ONSTACK | SA_RESTART));
            mine.sa_mask = cur.sa_mask;
            /* the host's handler must be in place before ours can call it */
            dd_host = cur;
            watching = sigaction(SIGINT, &mine, NULL) == 0;
        }
    }
    pthread_mutex_unlock(&dd_watch_lock);
    return watching;
}

unsigned rook_dd_interrupts(void)
{
    return __atomic_load_n(&dd_interrupts, __ATOMIC_RELAXED);
}

#else

static unsigned dd_interrupts;

int rook_dd_watch_interrupts(void)
{
    return 0;
}

unsigned rook_dd_interrupts(void)
{
    return dd_interrupts;
}

#endif

/* The count at which the work of this thread began (when set). */
static _Thread_local unsigned dd_work_from;
static _Thread_local int dd_work_set;

void rook_dd_work_begun_at(int set, unsigned count)
{
    dd_work_set = set;
    dd_work_from = count;
}

unsigned rook_dd_work_interrupts(void)
{
    return dd_work_set ? dd_work_from : rook_dd_interrupts();
}
