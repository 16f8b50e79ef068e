# cython: language_level=3, boundscheck=False, wraparound=False
"""The double-dummy solver's core: positions and answers as ints (every hand visible).

A :class:`SolverCore` owns a transposition table (the search itself runs
without the GIL and touches no Python object); the calls of several threads
on one solver take turns, one search at a time.  Values are
the points team 0 takes from the position to the end of the hand, as
FORMATS.md's ``rook solve`` defines them: counters of the current and later
tricks, the nest points and the last-trick bonus for the last trick (T-12,
T-13); ``taken`` is not counted.  See ``src/rook/solve.h`` for the algorithm.
"""

from libc.stdint cimport int32_t, uint64_t
from rook_core._native.crook cimport (
    rook_solver, rook_dd_pos, rook_solver_new, rook_solver_free, rook_solver_set_budget,
    rook_solver_nodes, rook_solver_stat, rook_dd_at_least, rook_dd_value_in, rook_dd_best_cards,
    rook_dd_move_values_guess, rook_dd_move_bounds, rook_solver_set_generalize, rook_solver_set_time_budget,
    rook_solver_stop_reason, rook_solver_clear, rook_solver_touch, rook_solver_set_progress, rook_solver_abort,
    rook_dd_watch_interrupts, rook_dd_interrupts, rook_solver_watch_interrupts_from, rook_dd_work_begun_at,
    rook_dd_work_interrupts,
    rook_solver_share,
    rook_dd_team, rook_dd_team_init, rook_dd_value_probes, rook_dd_value_shared, rook_dd_move_values_team,
    rook_dd_solve_batch,
)
from libc.stdlib cimport malloc, free
import numbers
import threading
from cpython.exc cimport PyErr_CheckSignals
from rook_core._native.rules cimport Rules

import _signal as _csignal

from rook_core._native.rules import rules_for
from rook_core.errors import PositionError, RookError, bool_arg, int_arg, list_arg


DEF TEAM_MAX = 8                   # ROOK_DD_TEAM_MAX (src/rook/solve.h)
MAX_TT_BYTES = 1 << 40            # the largest table a solver is given
_WORKERS = f"workers must be an int from 1 to {TEAM_MAX}"


# The SIGINT handler for which Ctrl-C was last watched (see _watch_interrupts).
cdef object _watched_for = None


cdef inline void _watch_interrupts():
    """Let Ctrl-C stop the searches (src/rook/solve/interrupt.c) while
    Python's SIGINT handler is its own, the one raising KeyboardInterrupt; a
    program with a handler of its own (a server stopping gracefully) keeps
    its searches running.  The handler is chained once for each handler
    Python reports (a query of the signal's disposition is a system call)."""
    global _watched_for
    handler = _csignal.getsignal(_csignal.SIGINT)
    if handler is not _watched_for:
        _watched_for = handler
        if handler is _csignal.default_int_handler:
            rook_dd_watch_interrupts()


def interrupt_count():
    """Watch Ctrl-C (as the solvers do) and return the count of those
    seen so far: the start of a piece of work spread over threads."""
    _watch_interrupts()
    return rook_dd_interrupts()


def work_begun_at(count):
    """Let this thread's searches stop at any Ctrl-C after ``count`` (from
    :func:`interrupt_count`; None: after the start of each call)."""
    if count is None:
        rook_dd_work_begun_at(0, 0)
    else:
        rook_dd_work_begun_at(1, <unsigned>count)


cdef class SolverCore:
    """A double-dummy solver context with its own table, over ints.

    The readable solver is :class:`rook_core.solver.Solver`, a Python
    subclass: it reads positions (``_raw_position``) and builds the answers
    and errors (``_card``, ``_result``, ``_best_cards``, ``_budget_exceeded``);
    the defaults here give plain tuples, card ids and a RookError.

    The parameters (the table's size, the node and time budgets, whether
    entries generalise) are those of :class:`rook_core.solver.Solver`.
    """

    cdef rook_solver *s
    cdef readonly uint64_t tt_bytes
    cdef readonly uint64_t node_budget
    cdef readonly double time_budget
    cdef readonly uint64_t last_nodes
    cdef object _progress          # the progress function of the call under way
    cdef object _progress_error    # what it raised (the search was stopped)
    cdef bint _generalize
    cdef list _helpers             # solvers sharing this one's table (workers > 1)
    # the Rules of the table's entries (of the last position read): the table
    # and the endings' cache know them by address, so they must live as long
    # as this solver may use them (_prepare empties the table when they change)
    cdef object _rules
    cdef unsigned _interrupts      # Ctrl-Cs counted when the call under way began
    cdef object _turns             # a lock: the calls of several threads take turns (_begin, _end)
    cdef object _turn_of           # the thread whose call has its turn (None: no call)

    def __cinit__(self, object tt_bytes=24 << 20, object node_budget=0, object generalize=True,
                  object time_budget=0.0):
        what = "tt_bytes must be an int 1 .. 2**40 (bytes of the table)"
        tt_bytes = int_arg(tt_bytes, what, 1, MAX_TT_BYTES)
        what = "node_budget must be an int 0 .. 2**63-1 (0: no limit)"
        node_budget = int_arg(node_budget, what, 0, 2 ** 63 - 1)
        if isinstance(time_budget, bool) or not isinstance(time_budget, numbers.Real) \
                or not 0.0 <= time_budget < 1e9:
            raise RookError(f"time_budget must be a number of seconds >= 0, not {time_budget!r}")
        time_budget = float(time_budget)
        generalize = bool_arg(generalize, "generalize")
        self.s = rook_solver_new(tt_bytes)
        if self.s == NULL:
            raise MemoryError(f"cannot allocate a {tt_bytes}-byte solver table")
        self.tt_bytes = tt_bytes
        self.node_budget = node_budget
        self.time_budget = time_budget
        rook_solver_set_budget(self.s, node_budget)
        rook_solver_set_time_budget(self.s, <uint64_t>(time_budget * 1e9))
        rook_solver_set_generalize(self.s, generalize)
        self._generalize = generalize
        self._helpers = []
        self._turns = threading.Lock()

    def __dealloc__(self):
        rook_solver_free(self.s)

    def __reduce__(self):
        """A copy (``copy``, ``deepcopy``, ``pickle``) is a new solver of the
        same options, its table empty (the answers never depend on it)."""
        return (type(self), (self.tt_bytes, self.node_budget, self._generalize, self.time_budget))

    # ------------------------------------------------ what the subclass reads and builds
    def _raw_position(self, position):
        """Return (variant, four hand masks, the trick's card ids, leader,
        trump, nest points, tricks won by each team) of ``position``; here a
        tuple of those already."""
        return position

    def _card(self, int card):
        """The card of id ``card`` in answers."""
        return card

    def _result(self, int value, dict move_values, list best, int to_move, uint64_t nodes):
        """The answer of :meth:`solve`."""
        return (value, move_values, best, to_move, nodes)

    def _best_cards(self, int value, list best, int to_move, uint64_t nodes):
        """The answer of :meth:`best_cards`."""
        return (value, best, to_move, nodes)

    def _budget_exceeded(self, str message, int lo, int hi, uint64_t nodes, str kind, dict move_values):
        """The error of a call stopped by a budget, with the bounds proven."""
        return RookError(message)

    cdef Rules _prepare(self, object position, rook_dd_pos *p):
        cdef int i
        # Ctrl-C stops the search (src/rook/solve/interrupt.c), from the
        # count at the start of this call or of the work this thread does
        _watch_interrupts()
        self._interrupts = rook_dd_work_interrupts()
        rook_solver_watch_interrupts_from(self.s, self._interrupts)
        variant, hands, trick, leader, trump, nest_points, won = self._raw_position(position)
        for i in range(4):
            p.hands[i] = hands[i]
        trick = list(trick)
        p.leader = leader
        p.trump = trump
        p.nest_points = nest_points
        if variant.most_tricks_bonus and variant.hand_size % 2 == 0:
            raise PositionError(f"variant {variant.name!r}: with an even number of tricks the "
                                f"most-tricks bonus can go to nobody, so the play is not zero-sum "
                                f"and has no double-dummy value")
        p.tricks[0] = won[0]
        p.tricks[1] = won[1]
        p.trick_n = len(trick)
        for i in range(4):
            p.trick[i] = trick[i] if i < len(trick) else 255
        rules = rules_for(variant)
        if rules is not self._rules:
            # the table knows the rules of its entries by address: once the
            # old rules go, their entries go too, also when this call is then
            # refused (a bad guess, window, workers) before any search
            rook_solver_clear(self.s)
            self._rules = rules
        return rules

    def _budget_error(self, int lo, int hi, move_values=None):
        """The :class:`BudgetExceeded` of the call that just stopped (a
        :meth:`stop` too: nothing else stops a search for its caller once
        Ctrl-C and a progress function's exception are ruled out)."""
        cdef int reason = rook_solver_stop_reason(self.s)
        if reason == 2:
            kind, what = "time", f"time budget {self.time_budget:g} s"
        elif reason == 3:
            known = f"is {lo}" if lo == hi else f"is only known to lie in [{lo}, {hi}]"
            return self._budget_exceeded(f"the search was stopped after {self.last_nodes} nodes: team 0's value "
                                         f"{known}", lo, hi, self.last_nodes, "stopped", move_values or {})
        else:
            kind, what = "nodes", f"node budget {self.node_budget}"
        known = f"is {lo}" if lo == hi else f"is only known to lie in [{lo}, {hi}]"
        return self._budget_exceeded(f"{what} ran out after {self.last_nodes} nodes: team 0's value {known}",
                                     lo, hi, self.last_nodes, kind, move_values or {})

    def _begin(self):
        """Take this solver's turn (wait while a call of another thread
        searches with it: its table and position are one); a call from
        within its own search (a progress function) is refused."""
        me = threading.get_ident()
        if self._turn_of == me:
            raise RookError("a solver cannot be called from within its own search (its progress "
                            "function): use another Solver there")
        self._turns.acquire()
        self._turn_of = me

    def _end(self):
        self._turn_of = None
        self._turns.release()

    def stop(self):
        """Stop the search this solver runs, from another thread: the call
        under way raises :class:`SearchStopped` (a :class:`BudgetExceeded`
        whose ``kind`` is ``"stopped"``, with the bounds proven) at the
        search's next look at its budgets, within 1,024 nodes, on every
        thread of its team.  A stop asked while no call runs is forgotten
        when the next call begins, and in :meth:`solve_batch` it stops the
        position under way only; a caller that cannot know whether the call
        has begun asks again until it returns."""
        cdef SolverCore h
        rook_solver_abort(self.s)
        for h in self._helpers:
            rook_solver_abort(h.s)

    def clear(self):
        """Forget every stored bound, so that the next answer (its node count,
        and where a budget stops it) does not depend on earlier calls.  The
        table's memory stays in place: cheap (no page is touched)."""
        self._begin()
        try:
            rook_solver_clear(self.s)
        finally:
            self._end()

    def touch(self):
        """Make every page of the table's memory resident now (what it holds
        is kept).  The system zeroes a page on its first touch; on a new
        solver that falls on the first searches, about 0.1 s for 256 MiB, a
        cost that a timed search would otherwise count as its own.  Not
        while another thread searches with this solver (it waits its turn)."""
        self._begin()
        try:
            with nogil:
                rook_solver_touch(self.s)
        finally:
            self._end()

    def stats(self):
        """Return statistics of the last search: nodes by cards still in
        hands ({cards: nodes}) and table hits."""
        by = {i: rook_solver_stat(self.s, i) for i in range(64) if rook_solver_stat(self.s, i)}
        return {"nodes": rook_solver_nodes(self.s), "nodes_by_cards": by,
                "tt_hits": rook_solver_stat(self.s, 64)}

    cdef int _guess(self, object guess, int total) except -2:
        if guess is None:
            return -1
        # a hint: out of range is only a poor one
        return max(0, min(int_arg(guess, "guess must be an int (points)"), total))

    cdef _listen(self, object progress):
        """Report the steps of the next search to ``progress`` (None: to nobody)."""
        if progress is not None and not callable(progress):
            raise RookError(f"progress must be callable, not {progress!r}")
        self._progress = progress
        self._progress_error = None
        if progress is not None:
            rook_solver_set_progress(self.s, _on_step, <void *>self)

    def _stopped(self, int v, int lo, int hi, move_values=None):
        """Raise the error of a call that returned ``v`` < 0, no answer: a
        position beyond the solver (-2), what the progress function raised,
        or the budget that ran out."""
        if v == -2:
            raise PositionError("the position is beyond the solver's limits (a suit of more than "
                                "16 cards or more than 16,383 points)")
        self._check_interrupt()
        err = self._progress_error
        self._progress_error = None
        if err is not None:
            raise err
        raise self._budget_error(lo, hi, move_values)

    def _check_interrupt(self):
        """Raise KeyboardInterrupt (or what Python's SIGINT handler raises)
        when a Ctrl-C came since the call under way began: its search stopped."""
        if rook_dd_interrupts() != self._interrupts:
            self._progress_error = None
            PyErr_CheckSignals()
            raise KeyboardInterrupt

    cdef _unlisten(self):
        rook_solver_set_progress(self.s, NULL, NULL)
        self._progress = None

    cdef list _team(self, object workers):
        """Return this solver and workers - 1 helpers sharing its table."""
        workers = int_arg(workers, _WORKERS, 1, TEAM_MAX)
        cdef SolverCore h
        while len(self._helpers) < workers - 1:
            h = SolverCore(1024, self.node_budget, self._generalize, self.time_budget)
            rook_solver_share(h.s, self.s)
            self._helpers.append(h)
        for h in self._helpers[:workers - 1]:
            rook_solver_watch_interrupts_from(h.s, self._interrupts)
        return [self] + self._helpers[:workers - 1]

    cdef uint64_t _team_nodes(self, list team):
        return sum(rook_solver_nodes((<SolverCore>x).s) for x in team)

    def value(self, position, *, guess=None, window=None, anytime=False, progress=None, workers=1):
        """Return the exact double-dummy value of ``position`` (FORMATS.md ``value``).

        :param guess: an estimate of the value (for instance the previous
            position's): the first search is over the guess alone, the
            second over the side the answer fell on (with ``anytime`` or a
            ``progress`` function: null-window searches step from the
            bounds it proves, each one reported).  An exact
            guess saves about a fifth of the work; one three grains off
            costs up to an eighth more than none.
        :param window: ``(lo, hi)``: return the value clipped to that window
            -- the value when ``lo <= value <= hi``, else ``lo`` (the value is
            at most ``lo``) or ``hi`` (at least ``hi``); a narrow window costs
            less than the exact value.
        :param anytime: search targets a quarter in from each end of what is
            still open first, so the bounds narrow from the start (about the
            same total work).
        :param progress: called as ``progress(lo, hi, nodes)`` after each step
            with the bounds proven on the value so far; an exception it raises
            stops the search and comes out of this call.
        :param workers: threads on one table: they share the nodes of the
            one search (a node whose first move is searched hands its other
            moves to threads waiting for work: src/rook/solve/split.c); with
            ``anytime`` or ``progress`` each narrows the value with targets
            of its own (team.c).  A budget bounds each thread's search, and
            one running out stops them all; node counts then depend on
            timing, the answer does not.
        :raises PositionError: for an inconsistent position.
        :raises BudgetExceeded: when a budget runs out (with the bounds proven).
        :raises RookError: for a bad ``guess``, ``window``, ``progress`` or ``workers``.
        """
        self._begin()
        try:
            return self._value_now(position, guess=guess, window=window, anytime=anytime, progress=progress,
                                   workers=workers)
        finally:
            self._end()

    def _value_now(self, position, *, guess=None, window=None, anytime=False, progress=None, workers=1):
        cdef rook_dd_pos p
        cdef Rules rules = self._prepare(position, &p)
        cdef int total = _total(rules, &p)
        cdef int lo = 0, hi = 0, v, g, wlo = 0, whi = total
        cdef bint edges = bool_arg(anytime, "anytime")
        g = self._guess(guess, total)
        if window is not None:
            window = _window(window)
            wlo, whi = max(0, min(window[0], total)), max(0, min(window[1], total))
        team = self._team(workers)
        self._listen(progress)
        try:
            if len(team) == 1:
                with nogil:
                    v = rook_dd_value_in(self.s, &rules.r, &p, wlo, whi, g, edges, &lo, &hi)
                self.last_nodes = rook_solver_nodes(self.s)
            elif not edges and progress is None:
                v = _shared_value(team, rules, &p, wlo, whi, g, &lo, &hi)
                self.last_nodes = self._team_nodes(team)
            else:
                job = _Job.make(rules, &p)
                job.wlo, job.whi, job.guess, job.anytime = wlo, whi, g, edges
                v = job.value(team)
                lo, hi = job.lo, job.hi
                self.last_nodes = job.nodes
        except BaseException:
            # Ctrl-C or the progress function's exception: the nodes so far
            self.last_nodes = self._team_nodes(team)
            raise
        finally:
            self._unlisten()
        if v < 0:
            self._stopped(v, lo, hi)
        if window is not None:
            return max(window[0], min(v, window[1]))
        return v

    def at_least(self, position, object target, object team=0):
        """Return whether ``team`` can take at least ``target`` points from here
        (the declarer's "do we make the bid?"): one null-window search.

        :raises RookError: for a target that is not an int, or a team not 0 or 1.
        :raises BudgetExceeded: when a budget runs out.
        """
        self._begin()
        try:
            return self._at_least_now(position, target, team)
        finally:
            self._end()

    def _at_least_now(self, position, object target, object team=0):
        target = int_arg(target, "target must be an int (points)")
        team = int_arg(team, "team must be 0 or 1")
        if team not in (0, 1):
            raise RookError(f"team must be 0 or 1, not {team!r}")
        cdef rook_dd_pos p
        cdef Rules rules = self._prepare(position, &p)
        cdef int r, t, total = _total(rules, &p)
        # team 1 >= target  <=>  not (team 0 >= total - target + 1); a
        # target outside 0 .. total + 1 answers as its nearest end does
        t = max(0, min(total + 1, target if team == 0 else total - target + 1))
        with nogil:
            r = rook_dd_at_least(self.s, &rules.r, &p, t)
        self.last_nodes = rook_solver_nodes(self.s)
        if r < 0:
            self._stopped(r, 0, _total(rules, &p))
        return bool(r) if team == 0 else not r

    def best_cards(self, position, *, guess=None):
        """Return a :class:`BestCards`: the value and the legal cards that
        achieve it.  Each class of equivalent cards is decided by one
        null-window search at the value, which costs much less than every
        card's exact value (:meth:`solve`).

        :raises PositionError: for an inconsistent position.
        :raises BudgetExceeded: when a budget runs out.
        """
        self._begin()
        try:
            return self._best_cards_now(position, guess=guess)
        finally:
            self._end()

    def _best_cards_now(self, position, *, guess=None):
        cdef rook_dd_pos p
        cdef Rules rules = self._prepare(position, &p)
        cdef int v, lo = 0, hi = 0, g = self._guess(guess, _total(rules, &p))
        cdef uint64_t best = 0
        with nogil:
            v = rook_dd_best_cards(self.s, &rules.r, &p, g, &best, &lo, &hi)
        self.last_nodes = rook_solver_nodes(self.s)
        if v < 0:
            self._stopped(v, lo, hi)
        to_move = (p.leader + p.trick_n) % 4
        return self._best_cards(v, [self._card(i) for i in range(64) if best >> i & 1], to_move, self.last_nodes)

    def card_bounds(self, position, object tolerance):
        """Return each legal card's value to within ``tolerance`` points:
        ``{card: (lo, hi)}`` with ``lo <= value <= hi`` and ``hi - lo <=
        tolerance`` (0: exact, ``lo == hi``).  For a caller that averages
        many positions, as a Monte Carlo player does its worlds, whose
        errors average out: on full ``tournament`` deals a tolerance of 20
        costs about half the nodes of every card's exact value, and 40 a
        third.

        :raises PositionError: for an inconsistent position.
        :raises RookError: for a negative tolerance.
        :raises BudgetExceeded: when a budget runs out.
        """
        self._begin()
        try:
            return self._card_bounds_now(position, tolerance)
        finally:
            self._end()

    def _card_bounds_now(self, position, object tolerance):
        tolerance = int_arg(tolerance, "tolerance must be an int >= 0 (points)", 0)
        cdef rook_dd_pos p
        cdef Rules rules = self._prepare(position, &p)
        cdef int32_t lo[64]
        cdef int32_t hi[64]
        cdef int v, i, tol = min(tolerance, _total(rules, &p))   # wider than every point is as wide
        for i in range(64):
            lo[i] = -1
            hi[i] = -1
        with nogil:
            v = rook_dd_move_bounds(self.s, &rules.r, &p, tol, lo, hi)
        self.last_nodes = rook_solver_nodes(self.s)
        if v < 0:
            self._stopped(v, 0, _total(rules, &p))
        return {self._card(i): (lo[i], hi[i]) for i in range(64) if lo[i] >= 0}

    def solve(self, position, *, guess=None, anytime=False, progress=None, workers=1):
        """Return a :class:`SolveResult`: the value, the value after each
        legal card of the seat to move, and the best cards.  The cards'
        values are found one class of equal cards after another, each
        narrowed from the best found so far, which is the value in the end;
        with ``workers`` > 1, threads on one table take the classes at once,
        and one with no class left shares the nodes of those still
        searching.  With a ``guess``, ``anytime`` or ``progress`` (or, on one
        thread, a budget, so that a stop keeps the value) the position's
        value is found first, those acting on that part as for
        :meth:`value`, and the cards are narrowed from it (without a guess,
        about 3% more nodes on full deals than the first way).

        :raises PositionError: for an inconsistent position.
        :raises BudgetExceeded: when a budget runs out.
        """
        self._begin()
        try:
            return self._solve_now(position, guess=guess, anytime=anytime, progress=progress, workers=workers)
        finally:
            self._end()

    def _solve_now(self, position, *, guess=None, anytime=False, progress=None, workers=1):
        cdef rook_dd_pos p
        cdef Rules rules = self._prepare(position, &p)
        cdef int32_t values[64]
        cdef int total = _total(rules, &p)
        cdef int v, i, lo = 0, hi = 0, g = self._guess(guess, total), known_lo = 0, known_hi = 0
        cdef bint edges = bool_arg(anytime, "anytime")
        cdef _Job job
        for i in range(64):
            values[i] = -1
        team = self._team(workers)
        self._listen(progress)
        try:
            if len(team) == 1:
                with nogil:
                    v = rook_dd_move_values_guess(self.s, &rules.r, &p, g, edges, values, &lo, &hi)
                self.last_nodes = rook_solver_nodes(self.s)
            elif g < 0 and not edges and progress is None:
                # the threads start on the cards at once (no value first)
                v = _shared_cards(team, rules, &p, -1, values, &lo, &hi)
                self.last_nodes = self._team_nodes(team)
            else:
                if not edges and progress is None:
                    v = _shared_value(team, rules, &p, 0, total, g, &lo, &hi)
                else:
                    job = _Job.make(rules, &p)
                    job.wlo, job.whi, job.guess, job.anytime = 0, total, g, edges
                    v = job.value(team)
                    lo, hi = job.lo, job.hi
                nodes = self._team_nodes(team)
                if v >= 0:
                    v = _shared_cards(team, rules, &p, v, values, &known_lo, &known_hi)
                self.last_nodes = nodes + self._team_nodes(team)
        except BaseException:
            self.last_nodes = self._team_nodes(team)
            raise
        finally:
            self._unlisten()
        mv = self._move_values(values)
        if v < 0:
            self._stopped(v, lo, hi, mv)
        return self._solve_result(v, mv, &p, self.last_nodes)

    cdef dict _move_values(self, const int32_t *values):
        """The cards with a value in ``values`` (by card id; -1: none), and their values."""
        return {self._card(i): values[i] for i in range(64) if values[i] >= 0}

    cdef _solve_result(self, int v, dict mv, const rook_dd_pos *p, uint64_t nodes):
        """The answer of value ``v`` and move values ``mv`` for position ``p``."""
        return self._result(v, mv, [c for c, x in mv.items() if x == v], (p.leader + p.trick_n) % 4, nodes)

    def solve_batch(self, positions, *, keep_table=False, guesses=False):
        """Return every card's value of each position, one after another in
        one native call (the GIL is released for the whole batch): a list of
        :class:`SolveResult`, or the error (:class:`BudgetExceeded`,
        :class:`PositionError`) in place of a position that has none.  For
        the worlds of a Monte Carlo player: positions of one variant that
        share most cards.  ``keep_table`` keeps the table from one position
        to the next; ``guesses`` takes the running means of the values found
        so far as first guesses (the root's and each card's).  The answers
        are the same either way; the work is not: on 100 worlds at the first
        lead of ``tournament`` deals neither paid (the worlds differ in too
        many cards, and a mean is a poor guess for one world), so both are
        off unless asked for.

        :raises PositionError: for an inconsistent position (before any search).
        :raises RookError: for positions of different variants.
        """
        self._begin()
        try:
            return self._solve_batch_now(positions, keep_table=keep_table, guesses=guesses)
        finally:
            self._end()

    def _solve_batch_now(self, positions, *, keep_table=False, guesses=False):
        items = list_arg(positions, "positions")
        cdef int n = len(items), i
        if n == 0:
            return []
        cdef rook_dd_pos *ps = <rook_dd_pos *>malloc(n * sizeof(rook_dd_pos))
        cdef int32_t *values = <int32_t *>malloc(64 * n * sizeof(int32_t))
        cdef int32_t *roots = <int32_t *>malloc(n * sizeof(int32_t))
        cdef Rules rules, first = None
        cdef bint keep = bool_arg(keep_table, "keep_table"), guess = bool_arg(guesses, "guesses")
        if ps == NULL or values == NULL or roots == NULL:
            free(ps)
            free(values)
            free(roots)
            raise MemoryError("cannot allocate a batch of positions")
        try:
            for i in range(n):
                rules = self._prepare(items[i], &ps[i])
                if first is None:
                    first = rules
                elif rules is not first:
                    raise RookError("a batch holds positions of one variant only")
            with nogil:
                rook_dd_solve_batch(self.s, &first.r, ps, n, keep, guess, values, roots)
            self.last_nodes = rook_solver_nodes(self.s)
            self._check_interrupt()
            out = []
            for i in range(n):
                mv = self._move_values(values + 64 * i)
                if roots[i] == -2:
                    out.append(PositionError(f"position {i} of the batch is beyond the solver's limits"))
                    continue
                if roots[i] < 0:
                    out.append(self._budget_error(0, _total(first, &ps[i]), mv))
                    continue
                out.append(self._solve_result(roots[i], mv, &ps[i], 0))
            return out
        finally:
            free(ps)
            free(values)
            free(roots)


cdef tuple _window(object window):
    """``window`` as a pair of Python ints ``(lo, hi)``, lo <= hi (they may
    lie past the C ints: the value is clipped to them), else a RookError."""
    if isinstance(window, (tuple, list)) and len(window) == 2:
        try:
            lo, hi = int_arg(window[0], "window"), int_arg(window[1], "window")
        except RookError:
            pass
        else:
            if lo <= hi:
                return (lo, hi)
    raise RookError(f"window must be a pair of ints (lo, hi) with lo <= hi, not {window!r}")


cdef class _Job:
    """One position searched by a team of solvers sharing a table, each on
    its own thread (src/rook/solve/team.c: rook_dd_value_probes), narrowing
    the value together by null-window probes."""

    cdef rook_dd_pos p
    cdef Rules rules
    cdef public int wlo, whi, guess, anytime, lo, hi
    cdef public uint64_t nodes

    @staticmethod
    cdef _Job make(Rules rules, rook_dd_pos *p):
        cdef _Job job = _Job()
        job.p = p[0]
        job.rules = rules
        return job

    def value(self, list team):
        """Return the value, the team narrowing it together (-1: a member
        stopped, a budget or its caller; lo/hi hold the bounds proven; -2:
        a position beyond the solver).  Every member's search has ended
        when it returns, also after a Ctrl-C (which stops them all)."""
        cdef SolverCore lead = team[0]
        cdef rook_solver *ss[TEAM_MAX]
        cdef int n = _team_pointers(team, ss), v
        cdef rook_dd_team t
        rook_dd_team_init(&t, _total(self.rules, &self.p), self.wlo, self.whi)
        if lead._progress is not None:
            t.progress = _on_step
            t.progress_arg = <void *>lead
        with nogil:
            v = rook_dd_value_probes(ss, n, &self.rules.r, &self.p, &t)
        self.nodes = sum(rook_solver_nodes((<SolverCore>x).s) for x in team)
        self.lo, self.hi = t.lo, t.hi
        return v


cdef int _team_pointers(list team, rook_solver **ss):
    cdef int i
    for i in range(len(team)):
        ss[i] = (<SolverCore>team[i]).s
    return len(team)


cdef int _shared_value(list team, Rules rules, rook_dd_pos *p, int wlo, int whi, int guess, int *lo,
                       int *hi):
    """The value by the team sharing the nodes of one search (threads
    started natively: src/rook/solve/split.c)."""
    cdef rook_solver *ss[TEAM_MAX]
    cdef int n = _team_pointers(team, ss), v
    with nogil:
        v = rook_dd_value_shared(ss, n, &rules.r, p, wlo, whi, guess, lo, hi)
    return v


cdef int _shared_cards(list team, Rules rules, rook_dd_pos *p, int root, int32_t *values, int *lo, int *hi):
    """Every card's value, the team taking the classes in turn and then
    sharing nodes: from the position's value ``root``, or (root < 0)
    without it; return the value or -1 (lo, hi: the bounds proven)."""
    cdef rook_solver *ss[TEAM_MAX]
    cdef int n = _team_pointers(team, ss), v
    with nogil:
        v = rook_dd_move_values_team(ss, n, &rules.r, p, root, values, lo, hi)
    return v


cdef void _on_step(void *arg, int lo, int hi, uint64_t nodes) noexcept with gil:
    """The C progress function: report to the solver's Python function; an
    exception stops the search (re-raised by the call)."""
    cdef SolverCore self = <SolverCore>arg
    try:
        self._progress(lo, hi, nodes)
    except BaseException as e:
        self._progress_error = e
        rook_solver_abort(self.s)


cdef int _total(Rules rules, rook_dd_pos *p):
    cdef int t = rules.variant.last_trick_bonus + rules.variant.most_tricks_bonus + p.nest_points
    cdef int i
    t += rules.points(p.hands[0] | p.hands[1] | p.hands[2] | p.hands[3])
    for i in range(p.trick_n):
        t += rules.points((<uint64_t>1) << p.trick[i])
    return t
