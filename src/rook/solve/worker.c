/* worker.c: a solver's own thread, kept between calls (see worker.h).
 *
 * The job's state is under the worker's mutex; its two changes that the
 * other side waits for are also read without it (atomic loads), so that
 * each side first spins a little, which costs less than a wake-up: the
 * thread, for the next post after a job; the poster, for the end of a
 * job (a helper leaves a few microseconds after its team's work is done).
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>
#include "rook/solve/worker.h"
#include "rook/solve/search.h"

#ifndef DD_WORKER_SPIN_NS
#define DD_WORKER_SPIN_NS 50000 /* 50 us */
#endif

enum { W_IDLE, W_POSTED, W_TAKEN, W_QUIT };

struct dd_worker {
    pthread_t th;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int state; /* W_*: written under mu, read also without it */
    void *(*fn)(void *);
    void *arg;
    pid_t pid; /* the process the thread runs in */
};

/* Spin while *state reads `while_is`, at most DD_WORKER_SPIN_NS. */
static void spin_while(const int *state, int while_is)
{
    uint64_t until = 0;
    for (unsigned i = 0; __atomic_load_n(state, __ATOMIC_ACQUIRE) == while_is; i++) {
        dd_relax();
        if (!(i & 255)) {
            uint64_t now = dd_now_ns();
            if (!until)
                until = now + DD_WORKER_SPIN_NS;
            else if (now >= until)
                return;
        }
    }
}

static void *worker_main(void *arg)
{
    dd_worker *w = arg;
    for (;;) {
        spin_while(&w->state, W_IDLE);
        pthread_mutex_lock(&w->mu);
        while (w->state == W_IDLE)
            pthread_cond_wait(&w->cv, &w->mu);
        if (w->state == W_QUIT) {
            pthread_mutex_unlock(&w->mu);
            return NULL;
        }
        __atomic_store_n(&w->state, W_TAKEN, __ATOMIC_RELEASE);
        void *(*fn)(void *) = w->fn;
        void *job = w->arg;
        pthread_mutex_unlock(&w->mu);
        fn(job);
        pthread_mutex_lock(&w->mu);
        __atomic_store_n(&w->state, W_IDLE, __ATOMIC_RELEASE);
        pthread_cond_broadcast(&w->cv);
        pthread_mutex_unlock(&w->mu);
    }
}

/* The solver's worker, started if it has none in this process (NULL: it
 * cannot be). */
static dd_worker *worker_of(rook_solver *s)
{
    dd_worker *w = s->worker;
    if (w && w->pid == getpid())
        return w;
    /* none, or one a fork left behind (its thread is not in this process;
     * its memory is left as it is, its lock may be held) */
    w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->pid = getpid();
    w->state = W_IDLE;
    if (pthread_mutex_init(&w->mu, NULL) != 0) {
        free(w);
        return NULL;
    }
    if (pthread_cond_init(&w->cv, NULL) != 0) {
        pthread_mutex_destroy(&w->mu);
        free(w);
        return NULL;
    }
    /* the thread takes no signals: a Ctrl-C goes to the host's threads
     * (the search still stops on it: interrupt.c), even while this one
     * sleeps between calls */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    int started = pthread_create(&w->th, NULL, worker_main, w) == 0;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (!started) {
        pthread_cond_destroy(&w->cv);
        pthread_mutex_destroy(&w->mu);
        free(w);
        return NULL;
    }
    s->worker = w;
    return w;
}

int dd_worker_post(rook_solver *s, void *(*fn)(void *), void *arg)
{
    dd_worker *w = worker_of(s);
    if (!w)
        return -1;
    pthread_mutex_lock(&w->mu);
    w->fn = fn;
    w->arg = arg;
    __atomic_store_n(&w->state, W_POSTED, __ATOMIC_RELEASE);
    pthread_cond_broadcast(&w->cv);
    pthread_mutex_unlock(&w->mu);
    return 0;
}

int dd_worker_reclaim(rook_solver *s)
{
    dd_worker *w = s->worker;
    spin_while(&w->state, W_TAKEN);
    pthread_mutex_lock(&w->mu);
    int began = w->state != W_POSTED;
    if (!began)
        __atomic_store_n(&w->state, W_IDLE, __ATOMIC_RELEASE);
    while (w->state == W_TAKEN)
        pthread_cond_wait(&w->cv, &w->mu);
    pthread_mutex_unlock(&w->mu);
    return began;
}

void dd_worker_stop(rook_solver *s)
{
    dd_worker *w = s->worker;
    s->worker = NULL;
    if (!w || w->pid != getpid())
        return; /* none, or a fork's: no thread here to end */
    pthread_mutex_lock(&w->mu);
    __atomic_store_n(&w->state, W_QUIT, __ATOMIC_RELEASE);
    pthread_cond_broadcast(&w->cv);
    pthread_mutex_unlock(&w->mu);
    pthread_join(w->th, NULL);
    pthread_cond_destroy(&w->cv);
    pthread_mutex_destroy(&w->mu);
    free(w);
}
