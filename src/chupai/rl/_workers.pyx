"""The worker threads of ``chupai.rl.VectorEnv``'s compiled tables, and the task queue
of ``chupai.rl.TablePool``'s.

``Workers(threads)`` starts ``threads - 1`` POSIX threads that never touch Python; its
``run(fn, ctx, n)`` (``nogil``) runs one job over tables ``0 .. n - 1`` on them and on
the calling thread: each participant claims blocks of tables (a flag per block,
claimed by an atomic exchange), first the blocks of its own home region (participant
``w`` of ``P``: the ``w``-th of ``P`` equal runs of blocks), then any block left,
scanning from the last one back (so a chunk that happens to deal many new hands, or a
worker that joins late, does not hold the others back), then the caller closes the
job, waits for the workers that joined it, and returns.  Home regions keep neighbouring
tables on one thread: the outputs hold a byte or eight per table (``terminated``,
``player``), and blocks handed out in turn from one counter put neighbouring blocks on
different threads, which then write to the same cache lines (Chinese Ten's two-thread
step spent 13% more CPU so; 2% with home regions).  A worker that wakes up after the close skips the job, so on a loaded
machine, where a worker may wait long for a core, the caller steps its share instead
of waiting (the call degrades to one thread's speed, never below).  Which thread steps which table varies from call
to call; the results cannot, since every table is stepped by exactly one participant
and tables share nothing.

Why not a ``ThreadPoolExecutor``: its hand-off (submit, a worker taking the GIL, the
future's result) costs ~20 µs wall and ~11 µs of the caller's CPU per job on this
machine, a tenth of a 2-thread step of 1024 tables, twice per step with action
features.  Why not OpenMP (``prange``): GNU libgomp is not fork-safe (a child forked
after a parallel region hangs in its next one: multiprocessing's default start method
on Linux) and its idle workers spin for milliseconds after each region, taking a core
from the learner that runs between steps.  Here a worker spins at most ``SPIN_NS``
(100 µs) after a job, long enough to catch the features job of the same step and the
next step of a loop whose policy is quick (waking a sleeping thread costs tens of µs
on a virtual machine), then sleeps on a condition variable; the caller spins while the
last blocks finish, at most ``SPIN_NS`` before sleeping; a process forked from the
owner's starts its own threads at its first job.

A spinning thread yields its core between rounds of ~1 µs (``sched_yield``: nothing on
an idle core; on a core it shares with the thread it waits for, that thread runs).
On a machine whose other core is busy, Linux wakes the worker on the caller's core
(where it waits for the caller's share to end), so two threads then run at one
thread's speed, not slower: ``bench/rl.py --phases`` tells the two cases apart.

``TaskQueue(threads)`` runs whole tasks (``fn(ctx, index)``, a part of a batch's step) on ``threads``
POSIX threads of its own, first in first out, while the thread that submitted them
goes on (``submit`` returns at once; ``wait`` blocks, the GIL released, until the task
is done; a task not started yet, the waiting thread runs itself instead of sitting
idle, so with no threads every task runs in ``wait``): a ``TablePool``'s hand-off of a batch without a Python thread (which would need
the GIL to return, held meanwhile by the caller's own work).  Its threads start
with the queue (again at the first task in a forked child), wait on a condition
variable between tasks, and empty the queue before they stop; a task that was running when the process forked is
lost in the child (``wait`` says so).
"""
cimport cython

from libc.stdint cimport uint64_t
from libc.stdlib cimport calloc, free, realloc
from libc.string cimport memset
from posix.time cimport CLOCK_MONOTONIC, CLOCK_THREAD_CPUTIME_ID, clock_gettime, timespec
from posix.unistd cimport getpid

cdef extern from "<sched.h>" nogil:
    int sched_yield()

cdef extern from "<pthread.h>" nogil:
    int pthread_create(pthread_t *thread, const void *attr, void *(*start)(void *) noexcept nogil, void *arg)
    int pthread_join(pthread_t thread, void **retval)
    int pthread_mutex_init(pthread_mutex_t *m, const void *attr)
    int pthread_mutex_destroy(pthread_mutex_t *m)
    int pthread_mutex_lock(pthread_mutex_t *m)
    int pthread_mutex_unlock(pthread_mutex_t *m)
    int pthread_cond_init(pthread_cond_t *c, const void *attr)
    int pthread_cond_destroy(pthread_cond_t *c)
    int pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m)
    int pthread_cond_signal(pthread_cond_t *c)
    int pthread_cond_broadcast(pthread_cond_t *c)

cdef extern from *:
    """
    static inline unsigned long long chupai_load_u64(unsigned long long *p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
    static inline void chupai_store_u64(unsigned long long *p, unsigned long long v) { __atomic_store_n(p, v, __ATOMIC_RELEASE); }
    static inline int chupai_load_int(int *p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
    static inline void chupai_store_int(int *p, int v) { __atomic_store_n(p, v, __ATOMIC_RELEASE); }
    static inline int chupai_inc_int(int *p) { return __atomic_add_fetch(p, 1, __ATOMIC_ACQ_REL); }
    static inline int chupai_or_int(int *p, int v) { return __atomic_fetch_or(p, v, __ATOMIC_ACQ_REL); }
    static inline int chupai_cas_int(int *p, int expected, int v) {
        return __atomic_compare_exchange_n(p, &expected, v, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
    }
    static inline int chupai_claim(unsigned char *flag) {
        return !__atomic_load_n(flag, __ATOMIC_RELAXED) && !__atomic_exchange_n(flag, 1, __ATOMIC_ACQ_REL);
    }
    #if defined(__x86_64__) || defined(__i386__)
    static inline void chupai_relax(void) { __builtin_ia32_pause(); }
    #else
    static inline void chupai_relax(void) { }
    #endif
    """
    unsigned long long chupai_load_u64(unsigned long long *p) noexcept nogil
    void chupai_store_u64(unsigned long long *p, unsigned long long v) noexcept nogil
    int chupai_load_int(int *p) noexcept nogil
    void chupai_store_int(int *p, int v) noexcept nogil
    int chupai_inc_int(int *p) noexcept nogil
    int chupai_or_int(int *p, int v) noexcept nogil
    bint chupai_cas_int(int *p, int expected, int v) noexcept nogil
    bint chupai_claim(unsigned char *flag) noexcept nogil
    void chupai_relax() noexcept nogil

cdef enum:
    SPIN_NS = 100000             # how long a waiting thread spins before it sleeps
    SPIN_CHECK = 64              # spins (~1 µs) between two reads of the clock (and yields)
    BLOCKS_PER_THREAD = 8        # job granularity: about this many blocks per participant
    MAX_BLOCK = 16               # tables (~10 µs): the last block's wait stays short
    CLOSED = 1 << 30             # pool_t.entry: the job takes no more workers


cdef inline long long clock_ns(int clock) noexcept nogil:
    cdef timespec ts
    clock_gettime(clock, &ts)
    return <long long>ts.tv_sec * 1000000000 + ts.tv_nsec


cdef inline long long now_ns() noexcept nogil:
    return clock_ns(CLOCK_MONOTONIC)


cdef inline bint waited(long long until) noexcept nogil:
    """Between two rounds of spinning: True once it is time to sleep; else yield the core
    (a no-op when nothing else wants it; on a core shared with the thread being waited
    for, it lets that thread run instead of spinning against it)."""
    if now_ns() > until:
        return True
    sched_yield()
    return False


cdef inline void run_block(pool_t *p, Py_ssize_t b, int worker) noexcept nogil:
    cdef Py_ssize_t lo = b * p.block, hi = lo + p.block
    p.fn(p.ctx, lo, hi if hi < p.n else p.n, worker)


cdef void drain(pool_t *p, int worker) noexcept nogil:
    """Claim and run the blocks of the worker's home region, then every block left from the
    last one back, until none is left (timed if profiling)."""
    cdef Py_ssize_t b, first = worker * p.nblocks // p.participants
    cdef Py_ssize_t stop = (worker + 1) * p.nblocks // p.participants
    cdef long long cpu = 0, wall = 0
    if p.profile:
        cpu = clock_ns(CLOCK_THREAD_CPUTIME_ID)
        wall = now_ns()
    for b in range(first, stop):
        if chupai_claim(&p.claimed[b]):
            run_block(p, b, worker)
    for b in range(p.nblocks - 1, -1, -1):
        if chupai_claim(&p.claimed[b]):
            run_block(p, b, worker)
    if p.profile:
        p.cpu_ns[worker] = clock_ns(CLOCK_THREAD_CPUTIME_ID) - cpu
        p.wall_ns[worker] = now_ns() - wall


cdef void *worker_main(void *raw) noexcept nogil:
    cdef worker_arg_t *arg = <worker_arg_t *>raw
    cdef pool_t *p = arg.pool
    cdef uint64_t seen = 0
    cdef long long until
    cdef int spins
    while True:
        until = now_ns() + SPIN_NS
        spins = 0
        while chupai_load_u64(&p.gen) == seen and not chupai_load_int(&p.stop):
            chupai_relax()
            spins += 1
            if spins % SPIN_CHECK == 0 and waited(until):
                pthread_mutex_lock(&p.mu)
                while chupai_load_u64(&p.gen) == seen and not chupai_load_int(&p.stop):
                    pthread_cond_wait(&p.start, &p.mu)
                pthread_mutex_unlock(&p.mu)
        if chupai_load_int(&p.stop):
            return NULL
        seen = chupai_load_u64(&p.gen)
        if join(p):
            drain(p, arg.index)
            chupai_inc_int(&p.finished)
            pthread_mutex_lock(&p.mu)
            pthread_cond_signal(&p.done)
            pthread_mutex_unlock(&p.mu)


cdef bint join(pool_t *p) noexcept nogil:
    """Enter the current job unless the caller closed it (a worker that woke up late:
    the caller did its share and may already be on the next job's setup)."""
    cdef int v = chupai_load_int(&p.entry)
    while not v & CLOSED:
        if chupai_cas_int(&p.entry, v, v + 1):
            return True
        v = chupai_load_int(&p.entry)
    return False


cdef void start_threads(pool_t *p, worker_arg_t *args) noexcept nogil:
    """(Re)initialise the synchronisation and start the worker threads (fewer if the
    system refuses some: the caller does their share)."""
    cdef int k
    pthread_mutex_init(&p.mu, NULL)
    pthread_cond_init(&p.start, NULL)
    pthread_cond_init(&p.done, NULL)
    p.stop = 0
    p.gen = 0
    p.entry = CLOSED
    p.started = 0
    p.pid = getpid()
    for k in range(p.threads - 1):
        args[k].pool = p
        args[k].index = k + 1
        if pthread_create(&p.tids[k], NULL, worker_main, &args[k]) != 0:
            break
        p.started += 1


cdef void stop_threads(pthread_mutex_t *mu, pthread_cond_t *wake, int *stop, const pthread_t *tids,
                       int n) noexcept nogil:
    """Set the flag ``stop`` under ``mu``, wake every thread waiting on ``wake`` and join
    the ``n`` threads ``tids`` (which end once they see the flag)."""
    cdef int k
    pthread_mutex_lock(mu)
    chupai_store_int(stop, 1)
    pthread_cond_broadcast(wake)
    pthread_mutex_unlock(mu)
    for k in range(n):
        pthread_join(tids[k], NULL)


@cython.final
cdef class Workers:
    """``threads`` participants: the calling thread and ``threads - 1`` POSIX threads
    (module doc)."""

    def __init__(self, int threads):
        if self.p != NULL:
            raise RuntimeError("Workers is initialized once")
        if threads < 1:
            raise ValueError(f"threads must be >= 1, not {threads}")
        self.threads = threads
        self.p = <pool_t *>calloc(1, sizeof(pool_t))
        self.args = <worker_arg_t *>calloc(threads, sizeof(worker_arg_t))
        if self.p == NULL or self.args == NULL:
            raise MemoryError()
        self.p.threads = threads
        self.p.tids = <pthread_t *>calloc(threads, sizeof(pthread_t))
        self.p.cpu_ns = <long long *>calloc(threads, sizeof(long long))
        self.p.wall_ns = <long long *>calloc(threads, sizeof(long long))
        self.p.claimed = <unsigned char *>calloc(1, 1)
        self.p.capacity = 1
        if self.p.tids == NULL or self.p.cpu_ns == NULL or self.p.wall_ns == NULL or self.p.claimed == NULL:
            raise MemoryError()
        if threads > 1:
            with nogil:
                start_threads(self.p, self.args)

    def __dealloc__(self):
        if self.p == NULL:
            return
        self._stop()
        free(self.p.tids)
        free(self.p.cpu_ns)
        free(self.p.wall_ns)
        free(self.p.claimed)
        free(self.p)
        free(self.args)

    cdef void _stop(self):
        if self.p.started and self.p.pid == getpid():
            with nogil:
                stop_threads(&self.p.mu, &self.p.start, &self.p.stop, self.p.tids, self.p.started)
            pthread_mutex_destroy(&self.p.mu)
            pthread_cond_destroy(&self.p.start)
            pthread_cond_destroy(&self.p.done)
        self.p.started = 0
        self.p.threads = 1      # no restart (after a fork) either

    def close(self):
        """Stop the worker threads: from then on the calling thread does every job (the
        owner makes sure no job is running)."""
        if self.p != NULL:
            self._stop()

    @property
    def running(self):
        """The worker threads running in this process (``threads - 1`` unless the system
        refused some; 0 in a forked child until its first job)."""
        return self.p.started if self.p.pid == getpid() else 0

    @property
    def profile(self):
        """Time every job (off by default; ``bench/rl.py --phases``): see ``stats``."""
        return bool(self.p.profile)

    @profile.setter
    def profile(self, on):
        self.p.profile = bool(on)

    def stats(self):
        """The totals since the last call (then zeroed), in seconds but ``jobs``: a dict of
        ``jobs``, ``wall`` (the calls' wall time), ``cpu`` (every participant's thread
        CPU), ``max_cpu`` (per job the largest participant's CPU, summed), ``dispatch``
        (per job the call's wall time minus the longest participant's, summed: handing
        the job out and collecting it) and ``caller_cpu`` (the calling thread's share of
        ``cpu``)."""
        cdef int k
        out = {"jobs": self.totals[0]}
        for k, name in enumerate(("wall", "cpu", "max_cpu", "dispatch", "caller_cpu"), 1):
            out[name] = self.totals[k] * 1e-9
        for k in range(6):
            self.totals[k] = 0
        return out

    cdef void run(self, work_fn fn, void *ctx, Py_ssize_t n) noexcept nogil:
        cdef long long start = 0, cpu = 0, top = 0, longest = 0
        cdef int k
        if not self.p.profile:
            self._run(fn, ctx, n)
            return
        start = now_ns()
        for k in range(self.threads):
            self.p.cpu_ns[k] = 0
            self.p.wall_ns[k] = 0
        self._run(fn, ctx, n)
        start = now_ns() - start
        for k in range(self.threads):
            cpu += self.p.cpu_ns[k]
            top = self.p.cpu_ns[k] if self.p.cpu_ns[k] > top else top
            longest = self.p.wall_ns[k] if self.p.wall_ns[k] > longest else longest
        self.totals[0] += 1
        self.totals[1] += start
        self.totals[2] += cpu
        self.totals[3] += top
        self.totals[4] += start - longest
        self.totals[5] += self.p.cpu_ns[0]

    cdef void _run(self, work_fn fn, void *ctx, Py_ssize_t n) noexcept nogil:
        cdef pool_t *p = self.p
        cdef Py_ssize_t block
        cdef unsigned char *flags
        cdef long long until
        cdef int spins = 0, joined
        if p.threads > 1 and p.pid != getpid():
            start_threads(p, self.args)     # a forked child: its parent's threads are not here
        p.fn = fn
        p.ctx = ctx
        p.n = n
        if p.started == 0 or n <= 1:
            p.participants = 1
            p.block = n
            p.nblocks = 1 if n > 0 else 0
            p.claimed[0] = 0
            drain(p, 0)
            return
        block = n // ((p.started + 1) * BLOCKS_PER_THREAD)
        p.block = 1 if block < 1 else (MAX_BLOCK if block > MAX_BLOCK else block)
        p.nblocks = (n + p.block - 1) // p.block
        if p.nblocks > p.capacity:
            flags = <unsigned char *>realloc(p.claimed, p.nblocks)
            if flags != NULL:
                p.claimed = flags
                p.capacity = p.nblocks
            else:                   # no memory for the flags: one block (whoever claims it)
                p.block = n
                p.nblocks = 1
        memset(p.claimed, 0, p.nblocks)
        p.participants = p.started + 1
        chupai_store_int(&p.finished, 0)
        chupai_store_int(&p.entry, 0)       # open: the job's fields are set
        pthread_mutex_lock(&p.mu)
        chupai_store_u64(&p.gen, p.gen + 1)
        pthread_cond_broadcast(&p.start)
        pthread_mutex_unlock(&p.mu)
        drain(p, 0)
        # every block is claimed: close the job and wait for the workers that joined it
        # only (one still asleep would make the caller wait for nothing)
        joined = chupai_or_int(&p.entry, CLOSED)
        until = now_ns() + SPIN_NS
        while chupai_load_int(&p.finished) != joined:
            chupai_relax()
            spins += 1
            if spins % SPIN_CHECK == 0 and waited(until):
                pthread_mutex_lock(&p.mu)
                while chupai_load_int(&p.finished) != joined:
                    pthread_cond_wait(&p.done, &p.mu)
                pthread_mutex_unlock(&p.mu)


# --- whole tasks, first in first out ----------------------------------------------------

cdef void *queue_main(void *raw) noexcept nogil:
    """Run the queue's tasks until stopped with none left."""
    cdef queue_t *q = <queue_t *>raw
    cdef task_t *t
    pthread_mutex_lock(&q.mu)
    while True:
        while q.head == NULL and not q.stop:
            pthread_cond_wait(&q.ready, &q.mu)
        if q.head == NULL:
            break
        t = q.head
        q.head = t.next
        if q.head == NULL:
            q.tail = NULL
        chupai_store_int(&t.state, TASK_RUNNING)
        pthread_mutex_unlock(&q.mu)
        t.fn(t.ctx, t.index)
        pthread_mutex_lock(&q.mu)
        chupai_store_int(&t.state, TASK_DONE)
        pthread_cond_broadcast(&q.done)
    pthread_mutex_unlock(&q.mu)
    return NULL


cdef void start_queue(queue_t *q) noexcept nogil:
    """(Re)initialise the synchronisation and start the threads in this process (fewer if
    the system refuses some). The tasks queued stay."""
    cdef int k
    pthread_mutex_init(&q.mu, NULL)
    pthread_cond_init(&q.ready, NULL)
    pthread_cond_init(&q.done, NULL)
    q.stop = 0
    q.started = 0
    q.pid = getpid()
    for k in range(q.threads):
        if pthread_create(&q.tids[k], NULL, queue_main, <void *>q) != 0:
            break
        q.started += 1


@cython.final
cdef class TaskQueue:
    """``threads`` POSIX threads (0 or more) running whole tasks, first in first out, and
    the threads that wait for one not started yet (module doc)."""

    def __init__(self, int threads):
        if self.q != NULL:
            raise RuntimeError("TaskQueue is initialized once")
        if threads < 0:
            raise ValueError(f"threads must be >= 0, not {threads}")
        self.threads = threads
        self.q = <queue_t *>calloc(1, sizeof(queue_t))
        if self.q == NULL:
            raise MemoryError()
        self.q.threads = threads
        self.q.tids = <pthread_t *>calloc(threads + 1, sizeof(pthread_t))
        if self.q.tids == NULL:
            raise MemoryError()
        with nogil:
            start_queue(self.q)

    def __dealloc__(self):
        if self.q == NULL:
            return
        self._stop()
        if self.q.pid == getpid():
            pthread_mutex_destroy(&self.q.mu)
            pthread_cond_destroy(&self.q.ready)
            pthread_cond_destroy(&self.q.done)
        free(self.q.tids)
        free(self.q)

    cdef void _stop(self):
        if self.q.started and self.q.pid == getpid():
            with nogil:
                stop_threads(&self.q.mu, &self.q.ready, &self.q.stop, self.q.tids, self.q.started)
        self.q.started = 0
        self.q.threads = 0      # no restart (after a fork) either

    def close(self):
        """Run the tasks queued, then stop the threads: a task submitted later runs on the
        thread that waits for it."""
        if self.q != NULL:
            self._stop()

    @property
    def running(self):
        """The threads running in this process (0 after close, and in a forked child
        until its first task)."""
        return self.q.started if self.q.pid == getpid() else 0

    cdef void submit(self, task_t *t) noexcept nogil:
        cdef queue_t *q = self.q
        if q.pid != getpid():
            start_queue(q)      # a forked child: its parent's threads are not here
        pthread_mutex_lock(&q.mu)
        t.next = NULL
        chupai_store_int(&t.state, TASK_QUEUED)
        if q.tail == NULL:
            q.head = t
        else:
            q.tail.next = t
        q.tail = t
        pthread_cond_signal(&q.ready)
        pthread_mutex_unlock(&q.mu)

    cdef int wait(self, task_t *t) noexcept nogil:
        cdef queue_t *q = self.q
        if chupai_load_int(&t.state) == TASK_IDLE:
            return 0
        if q.pid != getpid():
            if chupai_load_int(&t.state) == TASK_RUNNING:
                return -1       # stepping in the parent when this process forked
            start_queue(q)      # its tasks queued in the parent run here
        pthread_mutex_lock(&q.mu)
        if t.state == TASK_QUEUED and unlink(q, t):
            # not started yet: the waiting thread runs it itself rather than sit idle
            chupai_store_int(&t.state, TASK_RUNNING)
            pthread_mutex_unlock(&q.mu)
            t.fn(t.ctx, t.index)
            chupai_store_int(&t.state, TASK_DONE)
            return 0
        while t.state != TASK_DONE:
            pthread_cond_wait(&q.done, &q.mu)
        pthread_mutex_unlock(&q.mu)
        return 0


cdef bint unlink(queue_t *q, task_t *t) noexcept nogil:
    """Take t out of the queue (under its mutex); False if it is not in it."""
    cdef task_t *prev = NULL
    cdef task_t *cur = q.head
    while cur != NULL and cur != t:
        prev = cur
        cur = cur.next
    if cur == NULL:
        return False
    if prev == NULL:
        q.head = t.next
    else:
        prev.next = t.next
    if q.tail == t:
        q.tail = prev
    return True
