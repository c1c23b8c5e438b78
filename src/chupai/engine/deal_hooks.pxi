# The hooks of chupai.engine.base.Engine that only cast the engine's `const void *` state
# to the game's deal struct and call the game's function for the step, written once.
# A game's _engine.pyx includes this file at module level, after its cimports of
# cython, play_t, playbuf_t, Engine and its policies' choose_greedy; its _engine.pxd declares
#     ctypedef <the game's deal struct> deal_t
#     cdef int deal_legal(const deal_t *d, int collapse, playbuf_t *out) noexcept nogil
#     cdef void deal_play(deal_t *d, const play_t *p) noexcept nogil
#     cdef void deal_pass(deal_t *d) noexcept nogil
#     cdef class DealHooks(Engine): pass
# and its DealEngine derives from DealHooks, implementing the hooks that read the
# struct's own fields.


@cython.no_gc  # no fields of its own; see Engine
cdef class DealHooks(Engine):
    """The engine hooks that call the game's deal functions (``deal_hooks.pxi``)."""

    cdef int h_legal(self, const void *st, int collapse, playbuf_t *out) noexcept nogil:
        return deal_legal(<const deal_t *>st, collapse, out)

    cdef void h_play(self, void *st, const play_t *p) noexcept nogil:
        deal_play(<deal_t *>st, p)

    cdef void h_pass(self, void *st) noexcept nogil:
        deal_pass(<deal_t *>st)

    cdef int h_greedy(self, const void *st, const playbuf_t *buf) noexcept nogil:
        return choose_greedy(<const deal_t *>st, buf)
