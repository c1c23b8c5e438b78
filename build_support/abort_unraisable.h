/* Forced into every extension of the CHUPAI_DEBUG=1 build (setup.py: -include).
 *
 * A check that fails inside a `noexcept` function (a bounds check in a nogil kernel)
 * raises an exception that has nowhere to go: Cython reports it with
 * PyErr_WriteUnraisable ("Exception ignored in ...") and the kernel carries on.  In the
 * debug build any such report is a bug, so it prints the exception to the C stderr (not
 * through sys.stderr, which a test runner may capture) and aborts the process: no test,
 * fuzz run or script can pass over it.  The release build is unaffected.
 */
#ifndef CHUPAI_ABORT_UNRAISABLE_H
#define CHUPAI_ABORT_UNRAISABLE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdio.h>

static inline void chupai_abort_unraisable(PyObject *context) {
    PyObject *type, *value, *traceback;
    PyErr_Fetch(&type, &value, &traceback);
    PyErr_NormalizeException(&type, &value, &traceback);
    fputs("chupai debug build: exception raised where it cannot propagate", stderr);
    if (context != NULL && context != Py_None) {
        fputs(" (in ", stderr);
        PyObject_Print(context, stderr, Py_PRINT_RAW);
        fputs(")", stderr);
    }
    fputs(": ", stderr);
    if (value != NULL) {
        PyObject_Print(value, stderr, 0);
    }
    fputs("\n", stderr);
    fflush(stderr);
    PyErr_Clear();
    Py_FatalError("CHUPAI_DEBUG build: an exception in a noexcept function (a failed check "
                  "in a kernel); see the line above");
}

/* every later use in the generated code; the function above still calls nothing else */
#define PyErr_WriteUnraisable chupai_abort_unraisable

#endif
