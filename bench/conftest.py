import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # keep numpy's BLAS threads off the cores
