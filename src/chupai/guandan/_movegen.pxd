# The Guan Dan generator's Python entries (its kernel, and the C facts of its records:
# chupai.guandan._kernel).

# the rank index of a level argument (a rank character, "10" or 0..12), ValueError else
cdef int level_index(object level) except -1
