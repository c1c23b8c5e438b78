# A small pool of POSIX threads that run one nogil job over the tables of a VectorEnv,
# and a queue of whole tasks run on POSIX threads of their own (a TablePool's batches)
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


# fn(ctx, index): one whole task (a part of a batch's step), run on one of a TaskQueue's
# threads or on the thread that waits for it.
ctypedef void (*task_fn)(void *ctx, int index) noexcept nogil

cdef enum:
    TASK_IDLE = 0                # not submitted (or received)
    TASK_QUEUED = 1
    TASK_RUNNING = 2
    TASK_DONE = 3

ctypedef struct task_t:
    task_fn fn
    void *ctx
    int index
    task_t *next                 # the queue's next task
    int state                    # TASK_* (atomic; changed under the queue's mutex but by
                                 # the thread that stole it)

ctypedef struct queue_t:
    int threads                  # the threads to run (0 after close)
    int started
    long pid                     # the process that started them
    pthread_t *tids
    pthread_mutex_t mu
    pthread_cond_t ready         # a task queued, or stop
    pthread_cond_t done          # a task finished
    task_t *head                 # first in, first out
    task_t *tail
    int stop


cdef class TaskQueue:
    cdef queue_t *q
    cdef readonly int threads
    # queue t (its fn and ctx set; the owner keeps it and its ctx alive until wait returns)
    cdef void submit(self, task_t *t) noexcept nogil
    # wait until t is done: 0, or -1 if it was running in the parent when this process forked
    cdef int wait(self, task_t *t) noexcept nogil
    cdef void _stop(self)
