# Sourced: the environment that runs Python over extensions built with CHUPAI_SANITIZE=1.
# The interpreter is not instrumented, so the ASan runtime must be loaded first
# (LD_PRELOAD; libubsan is a dependency of the extensions and follows), pymalloc is off
# so every allocation is ASan's, leaks are not checked (the interpreter keeps objects
# alive at exit by design) and a failed allocation returns NULL (MemoryError) instead
# of a report, since refusing absurd sizes is part of the API.
LD_PRELOAD="$(gcc -print-file-name=libasan.so):$(gcc -print-file-name=libubsan.so)"
export LD_PRELOAD
export PYTHONMALLOC=malloc
export ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=1:abort_on_error=1:halt_on_error=1:detect_stack_use_after_return=0:print_summary=1
export UBSAN_OPTIONS=halt_on_error=1:abort_on_error=1:print_stacktrace=1:report_error_type=1
