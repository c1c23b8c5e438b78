# A small pool of POSIX threads that run one nogil job over the tables of a VectorEnv
# (see _workers.pyx for why not a ThreadPoolExecutor or OpenMP).
from libc.stdint cimport int64_t, uint64_t

cdef extern from "<pthread.h>" nogil:
    ctypedef unsigned long pthread_t
    ctypedef struct pthread_mutex_t:
        pass
    ctypedef struct pthread_cond_t:
        pass

# fn(ctx, lo, hi, worker): do tables lo .. hi - 1; worker is 0 (the caller) .. threads - 1,
# so a job can keep per-worker results without atomics.
ctypedef void (*work_fn)(void *ctx, Py_ssize_t lo, Py_ssize_t hi, int worker) noexcept nogil

ctypedef struct pool_t:
    int threads                  # participants, the calling thread included
    int started                  # worker threads running (threads - 1, or 0 if creation failed)
    long pid                     # the process that started them (a forked child restarts them)
    pthread_t *tids
    pthread_mutex_t mu
    pthread_cond_t start         # a new job (gen changed) or stop
    pthread_cond_t done          # the last worker finished the job
    uint64_t gen                 # the job's number (atomic)
    int entry                    # workers that joined the job, | CLOSED once closed (atomic)
    int finished                 # workers that finished it (atomic)
    int stop
    work_fn fn                   # the job: fn over [0, n) in nblocks blocks of `block` tables
    void *ctx
    Py_ssize_t n
    Py_ssize_t block
    Py_ssize_t nblocks
    int participants             # the job's home regions: the caller and the started workers
    unsigned char *claimed       # per block: 1 once a participant claimed it (atomic)
    Py_ssize_t capacity          # the flags allocated
    int profile                  # time each participant (Workers.profile)
    long long *cpu_ns            # per participant: its thread CPU in the current job
    long long *wall_ns           # per participant: its wall time in the current job

ctypedef struct worker_arg_t:
    pool_t *pool
    int index


cdef class Workers:
    cdef pool_t *p
    cdef worker_arg_t *args
    cdef readonly int threads
    # with profiling on, per job accumulated (ns): jobs, region wall, all CPU, the largest
    # participant's CPU, region wall - the longest participant's wall, the caller's CPU
    cdef long long totals[6]
    # run fn over tables [0, n) on every thread (the caller's included); returns when all
    # are done.  Call it with the GIL released; one job at a time (the owner ensures it).
    cdef void run(self, work_fn fn, void *ctx, Py_ssize_t n) noexcept nogil
    cdef void _run(self, work_fn fn, void *ctx, Py_ssize_t n) noexcept nogil
    cdef void _stop(self)
