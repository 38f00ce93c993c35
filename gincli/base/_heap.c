/* The optional tuning of the C library's allocator for the ``gin`` process
 * (gincli/base/heap.py says why and when).
 *
 * One function, keep(mmap_threshold, trim_threshold): with the GNU C library,
 * blocks of up to mmap_threshold bytes come from the heap (not each from its own
 * mapping), and up to trim_threshold bytes freed at the heap's top are kept for
 * the next allocations (not given back to the system at once); True when set.
 * Elsewhere (another C library) it sets nothing and answers False.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

static PyObject *keep(PyObject *self, PyObject *args) {
    (void)self;
    long long mmap_threshold, trim_threshold;
    if (!PyArg_ParseTuple(args, "LL", &mmap_threshold, &trim_threshold)) return NULL;
    if (mmap_threshold <= 0 || trim_threshold <= 0 || mmap_threshold > INT_MAX || trim_threshold > INT_MAX) {
        PyErr_SetString(PyExc_ValueError, "keep: thresholds are positive ints");
        return NULL;
    }
#if defined(__GLIBC__)
    if (mallopt(M_MMAP_THRESHOLD, (int)mmap_threshold) && mallopt(M_TRIM_THRESHOLD, (int)trim_threshold))
        Py_RETURN_TRUE;
#endif
    Py_RETURN_FALSE;
}

static PyMethodDef methods[] = {
    {"keep", keep, METH_VARARGS,
     "keep(mmap_threshold, trim_threshold): the GNU C library's allocator serves blocks of up to mmap_threshold "
     "bytes from its heap and keeps up to trim_threshold bytes freed at its top; True when set."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_heap", "The allocator's thresholds, for the gin process.",
                                    -1, methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__heap(void) { return PyModule_Create(&module); }
