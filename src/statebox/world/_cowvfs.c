/* Page-level copy-on-write sessions: a SQLite VFS named "statebox-cow".
 *
 * A database image (a Python bytes object, immutable) is registered once as an Image and gets a
 * name. Every connection that opens that name as its main database gets a private file: reads come
 * from the file's own overlay where it has written, else from the one shared image; a write copies
 * the touched page into the overlay first. So an attempt holds only the pages it wrote, and no
 * session can see another's writes or change the image. Every other file SQLite opens through this
 * VFS (journals, temp databases) is a private in-memory file with no image behind it.
 *
 * One SQLite: the VFS must be registered with the very SQLite library the stdlib's sqlite3 runs on,
 * which is not always the system's libsqlite3 (some Pythons link a private copy into _sqlite3). So
 * this module links no SQLite at all: it is built as a SQLite loadable extension (sqlite3ext.h), and
 * every sqlite3_* call goes through the API table of the library that attached it, by one of two
 * routes (`attached()` says which): SQLite itself loading this file as an extension through the
 * stdlib's `load_extension` (the table SQLite hands its extensions), or, where a Python has no
 * `load_extension`, the table filled from the symbols of the stdlib's own _sqlite3 module. world/cow.py
 * then opens a file through the VFS with the stdlib's sqlite3 to prove the two meet.
 *
 * Threads: SQLite calls a file's methods from one connection at a time, so a file needs no lock;
 * the registry and the counters are shared by all connections and guarded by one SQLite mutex. The
 * VFS methods never touch Python (SQLite may call them without the GIL): when the last file of an
 * image whose Image object is already gone closes, the image is queued and its bytes released at
 * the next call into this module (which holds the GIL).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <dlfcn.h>
#include <sqlite3ext.h>
#include <stdlib.h>
#include <string.h>

/* The API table every sqlite3_* name below goes through (sqlite3ext.h's macros). Static, unlike
 * SQLITE_EXTENSION_INIT1's: SQLite loads extensions RTLD_GLOBAL, and an exported table could be
 * bound by another extension's code in place of its own. */
static const sqlite3_api_routines *sqlite3_api;

#define VFS_NAME "statebox-cow"
#define NAME_MAX_LEN 64
#define DEFAULT_CHUNK 4096

typedef struct Base {
    struct Base *next;                /* in the registry while registered, then in the release queue */
    char name[NAME_MAX_LEN];          /* the file name a URI opens: "/statebox-cow-<n>" */
    PyObject *owner;                  /* the bytes object holding the image (one reference) */
    const unsigned char *data;
    sqlite3_int64 size;
    int chunk;                        /* overlay granularity: the image's page size */
    long refs;                        /* its Image object, if alive, plus every open file */
} Base;

/* Allocated when the VFS is registered and never freed: SQLite may call the VFS until the last
 * connection closes, which can be after this module's interpreter has gone. NULL until attached. */
static sqlite3_mutex *lock;
static const char *route;             /* how SQLite's API was reached: "load_extension" or "symbols" */
static Base *registry;                /* images that can be opened by name */
static Base *released;                /* images no one holds: their bytes are dropped with the GIL */
static long long serial;              /* names are never reused within the process */
static long long files_open;          /* files of this VFS open now (main databases and the rest) */
static long long overlays_open;       /* of them, main databases over an image */
static long long overlay_bytes;       /* bytes of written pages held by open files */

/* ---- the registry ------------------------------------------------------------------------- */

static void unref_locked(Base *b) {
    if (--b->refs == 0) {
        b->next = released;
        released = b;
    }
}

/* Drop the bytes of images no one holds. Called with the GIL held. */
static void drain(void) {
    sqlite3_mutex_enter(lock);
    Base *b = released;
    released = NULL;
    sqlite3_mutex_leave(lock);
    while (b != NULL) {
        Base *next = b->next;
        Py_DECREF(b->owner);
        free(b);
        b = next;
    }
}

static int page_size_of(const unsigned char *data, sqlite3_int64 size) {
    if (size < 100) return DEFAULT_CHUNK;
    int v = (data[16] << 8) | data[17];
    if (v == 1) return 65536;
    if (v < 512 || v > 32768 || (v & (v - 1)) != 0) return DEFAULT_CHUNK;
    return v;
}

/* ---- files ------------------------------------------------------------------------------- */

typedef struct CowFile {
    sqlite3_file base;
    Base *image;                      /* NULL for a private file (journal, temp database) */
    sqlite3_int64 size;               /* the file's size now */
    sqlite3_int64 from_image;         /* bytes below this not in the overlay are the image's */
    int chunk;
    sqlite3_int64 nslots;
    unsigned char **slots;            /* slot i: the written copy of bytes [i*chunk, (i+1)*chunk) */
    sqlite3_int64 held;               /* bytes of this file's written chunks */
} CowFile;

static void count(long long *counter, long long delta) {
    sqlite3_mutex_enter(lock);
    *counter += delta;
    sqlite3_mutex_leave(lock);
}

static int cow_close(sqlite3_file *f) {
    CowFile *p = (CowFile *)f;
    for (sqlite3_int64 i = 0; i < p->nslots; i++) free(p->slots[i]);
    free(p->slots);
    sqlite3_mutex_enter(lock);
    overlay_bytes -= p->held;
    files_open--;
    if (p->image != NULL) {
        overlays_open--;
        unref_locked(p->image);
    }
    sqlite3_mutex_leave(lock);
    p->slots = NULL;
    p->nslots = 0;
    p->image = NULL;
    return SQLITE_OK;
}

static int cow_read(sqlite3_file *f, void *buf, int amt, sqlite3_int64 off) {
    CowFile *p = (CowFile *)f;
    unsigned char *out = buf;
    sqlite3_int64 avail = p->size - off;
    if (avail < 0) avail = 0;
    if (avail > amt) avail = amt;
    if (avail < amt) memset(out + avail, 0, (size_t)(amt - avail));
    while (avail > 0) {
        sqlite3_int64 slot = off / p->chunk;
        int within = (int)(off % p->chunk);
        int n = p->chunk - within;
        if (n > avail) n = (int)avail;
        if (slot < p->nslots && p->slots[slot] != NULL) {
            memcpy(out, p->slots[slot] + within, (size_t)n);
        } else {
            sqlite3_int64 mine = p->from_image - off; /* how much of this piece the image has */
            if (mine < 0) mine = 0;
            if (mine > n) mine = n;
            if (mine > 0) memcpy(out, p->image->data + off, (size_t)mine);
            if (mine < n) memset(out + mine, 0, (size_t)(n - mine));
        }
        out += n;
        off += n;
        avail -= n;
    }
    return (out - (unsigned char *)buf) < amt ? SQLITE_IOERR_SHORT_READ : SQLITE_OK;
}

/* The writable copy of one chunk, made from the image (or zeros) on first write. */
static unsigned char *writable(CowFile *p, sqlite3_int64 slot) {
    if (slot >= p->nslots) {
        sqlite3_int64 n = p->nslots ? p->nslots : 16;
        while (n <= slot) n *= 2;
        unsigned char **grown = realloc(p->slots, (size_t)n * sizeof *grown);
        if (grown == NULL) return NULL;
        memset(grown + p->nslots, 0, (size_t)(n - p->nslots) * sizeof *grown);
        p->slots = grown;
        p->nslots = n;
    }
    if (p->slots[slot] == NULL) {
        unsigned char *page = malloc((size_t)p->chunk);
        if (page == NULL) return NULL;
        sqlite3_int64 start = slot * p->chunk;
        sqlite3_int64 mine = p->from_image - start;
        if (mine < 0) mine = 0;
        if (mine > p->chunk) mine = p->chunk;
        if (mine > 0) memcpy(page, p->image->data + start, (size_t)mine);
        memset(page + mine, 0, (size_t)(p->chunk - mine));
        p->slots[slot] = page;
        p->held += p->chunk;
        count(&overlay_bytes, p->chunk);
    }
    return p->slots[slot];
}

static int cow_write(sqlite3_file *f, const void *buf, int amt, sqlite3_int64 off) {
    CowFile *p = (CowFile *)f;
    const unsigned char *in = buf;
    sqlite3_int64 end = off + amt;
    while (amt > 0) {
        sqlite3_int64 slot = off / p->chunk;
        int within = (int)(off % p->chunk);
        int n = p->chunk - within;
        if (n > amt) n = amt;
        unsigned char *page = writable(p, slot);
        if (page == NULL) return SQLITE_IOERR_NOMEM;
        memcpy(page + within, in, (size_t)n);
        in += n;
        off += n;
        amt -= n;
    }
    if (end > p->size) p->size = end;
    return SQLITE_OK;
}

/* Bytes at or past the size are zero in every written chunk, so a file that grows reads zeros. */
static int cow_truncate(sqlite3_file *f, sqlite3_int64 size) {
    CowFile *p = (CowFile *)f;
    if (size < 0) return SQLITE_IOERR_TRUNCATE;
    if (size < p->size) {
        sqlite3_int64 first = (size + p->chunk - 1) / p->chunk; /* first chunk wholly past the end */
        for (sqlite3_int64 i = first; i < p->nslots; i++) {
            if (p->slots[i] != NULL) {
                free(p->slots[i]);
                p->slots[i] = NULL;
                p->held -= p->chunk;
                count(&overlay_bytes, -p->chunk);
            }
        }
        sqlite3_int64 part = size / p->chunk;
        if (size % p->chunk != 0 && part < p->nslots && p->slots[part] != NULL) {
            int keep = (int)(size % p->chunk);
            memset(p->slots[part] + keep, 0, (size_t)(p->chunk - keep));
        }
        if (p->from_image > size) p->from_image = size;
    }
    p->size = size;
    return SQLITE_OK;
}

static int cow_sync(sqlite3_file *f, int flags) {
    (void)f;
    (void)flags;
    return SQLITE_OK;
}

static int cow_file_size(sqlite3_file *f, sqlite3_int64 *size) {
    *size = ((CowFile *)f)->size;
    return SQLITE_OK;
}

static int cow_lock(sqlite3_file *f, int level) {
    (void)f;
    (void)level;
    return SQLITE_OK; /* a file belongs to one connection: there is no one to exclude */
}

static int cow_check_reserved(sqlite3_file *f, int *out) {
    (void)f;
    *out = 0;
    return SQLITE_OK;
}

static int cow_file_control(sqlite3_file *f, int op, void *arg) {
    if (op == SQLITE_FCNTL_VFSNAME) {
        *(char **)arg = sqlite3_mprintf("%s", VFS_NAME);
        return SQLITE_OK;
    }
    (void)f;
    return SQLITE_NOTFOUND;
}

static int cow_sector_size(sqlite3_file *f) {
    (void)f;
    return DEFAULT_CHUNK;
}

static int cow_device(sqlite3_file *f) {
    (void)f;
    return SQLITE_IOCAP_ATOMIC | SQLITE_IOCAP_POWERSAFE_OVERWRITE | SQLITE_IOCAP_SAFE_APPEND |
           SQLITE_IOCAP_SEQUENTIAL;
}

static const sqlite3_io_methods cow_methods = {
    1, cow_close, cow_read, cow_write, cow_truncate, cow_sync, cow_file_size, cow_lock,
    cow_lock, cow_check_reserved, cow_file_control, cow_sector_size, cow_device, NULL, NULL, NULL, NULL, NULL, NULL,
};

/* ---- the VFS ----------------------------------------------------------------------------- */

static sqlite3_vfs *fallback(sqlite3_vfs *vfs) { return (sqlite3_vfs *)vfs->pAppData; }

static int vfs_open(sqlite3_vfs *vfs, sqlite3_filename name, sqlite3_file *f, int flags, int *out) {
    (void)vfs;
    CowFile *p = (CowFile *)f;
    memset(p, 0, sizeof *p);
    p->chunk = DEFAULT_CHUNK;
    sqlite3_mutex_enter(lock);
    if (flags & SQLITE_OPEN_MAIN_DB) {
        Base *b = registry;
        while (b != NULL && (name == NULL || strcmp(b->name, name) != 0)) b = b->next;
        if (b == NULL) {
            sqlite3_mutex_leave(lock);
            return SQLITE_CANTOPEN; /* pMethods stays NULL: SQLite will not close it */
        }
        b->refs++;
        overlays_open++;
        p->image = b;
        p->size = p->from_image = b->size;
        p->chunk = b->chunk;
    }
    files_open++;
    sqlite3_mutex_leave(lock);
    p->base.pMethods = &cow_methods;
    if (out != NULL) *out = flags;
    return SQLITE_OK;
}

static int vfs_delete(sqlite3_vfs *vfs, const char *name, int sync_dir) {
    (void)vfs;
    (void)name;
    (void)sync_dir;
    return SQLITE_OK; /* every file is gone when it is closed */
}

static int vfs_access(sqlite3_vfs *vfs, const char *name, int flags, int *out) {
    (void)vfs;
    (void)name;
    (void)flags;
    *out = 0; /* no journal survives its connection, so none is ever hot */
    return SQLITE_OK;
}

static int vfs_full_pathname(sqlite3_vfs *vfs, const char *name, int n, char *out) {
    (void)vfs;
    sqlite3_snprintf(n, out, "%s", name);
    return SQLITE_OK;
}

static void *vfs_dlopen(sqlite3_vfs *vfs, const char *path) { return fallback(vfs)->xDlOpen(fallback(vfs), path); }
static void vfs_dlerror(sqlite3_vfs *vfs, int n, char *msg) { fallback(vfs)->xDlError(fallback(vfs), n, msg); }
static void (*vfs_dlsym(sqlite3_vfs *vfs, void *h, const char *sym))(void) {
    return fallback(vfs)->xDlSym(fallback(vfs), h, sym);
}
static void vfs_dlclose(sqlite3_vfs *vfs, void *h) { fallback(vfs)->xDlClose(fallback(vfs), h); }
static int vfs_randomness(sqlite3_vfs *vfs, int n, char *out) {
    return fallback(vfs)->xRandomness(fallback(vfs), n, out);
}
static int vfs_sleep(sqlite3_vfs *vfs, int us) { return fallback(vfs)->xSleep(fallback(vfs), us); }
static int vfs_current_time(sqlite3_vfs *vfs, double *t) { return fallback(vfs)->xCurrentTime(fallback(vfs), t); }
static int vfs_last_error(sqlite3_vfs *vfs, int n, char *msg) {
    return fallback(vfs)->xGetLastError(fallback(vfs), n, msg);
}
static int vfs_current_time64(sqlite3_vfs *vfs, sqlite3_int64 *t) {
    sqlite3_vfs *d = fallback(vfs);
    if (d->iVersion >= 2 && d->xCurrentTimeInt64 != NULL) return d->xCurrentTimeInt64(d, t);
    double day;
    int rc = d->xCurrentTime(d, &day);
    *t = (sqlite3_int64)(day * 86400000.0);
    return rc;
}

static sqlite3_vfs cow_vfs = {
    2, sizeof(CowFile), NAME_MAX_LEN * 2, NULL, VFS_NAME, NULL,
    vfs_open, vfs_delete, vfs_access, vfs_full_pathname,
    vfs_dlopen, vfs_dlerror, vfs_dlsym, vfs_dlclose,
    vfs_randomness, vfs_sleep, vfs_current_time, vfs_last_error, vfs_current_time64,
    NULL, NULL, NULL,
};

/* ---- attaching to SQLite ------------------------------------------------------------------ */

/* Register the VFS with the SQLite whose API table is `api`; NULL, or why not. Called once, while
 * world/cow.py imports (under the import lock), so nothing else runs this module's code yet. */
static const char *attach(const sqlite3_api_routines *api, const char *how) {
    if (route != NULL && api == sqlite3_api) return NULL; /* the same SQLite loading it again */
    if (route != NULL) return strcmp(route, "symbols") == 0 ? "already attached to another SQLite (by symbols)"
                                                            : "already attached to another SQLite (by load_extension)";
    sqlite3_api = api;
    if (sqlite3_threadsafe() == 0) return "SQLite is built without thread safety (SQLITE_THREADSAFE=0)";
    sqlite3_vfs *d = sqlite3_vfs_find(NULL);
    if (d == NULL) return "SQLite has no default VFS";
    if (sqlite3_vfs_find(VFS_NAME) != NULL) return "another copy of this module registered " VFS_NAME " first";
    sqlite3_mutex *m = sqlite3_mutex_alloc(SQLITE_MUTEX_FAST);
    if (m == NULL) return "sqlite3_mutex_alloc failed";
    cow_vfs.pAppData = d;
    lock = m; /* before registering: a VFS method may run as soon as the VFS is registered */
    if (sqlite3_vfs_register(&cow_vfs, 0) != SQLITE_OK) {
        lock = NULL;
        sqlite3_mutex_free(m);
        return "sqlite3_vfs_register failed";
    }
    route = how;
    return NULL;
}

/* Route 1, SQLite's own: the entry point sqlite3_load_extension finds for this file's name. */
__attribute__((visibility("default"))) int sqlite3_cowvfs_init(sqlite3 *db, char **error,
                                                               const sqlite3_api_routines *api) {
    (void)db;
    const char *why = attach(api, "load_extension");
    if (why == NULL) return SQLITE_OK_LOAD_PERMANENTLY;
    if (error != NULL) *error = api->mprintf("statebox-cow: %s", why);
    return SQLITE_ERROR;
}

/* Route 2: the table filled from the symbols of the library that defines the stdlib's sqlite3
 * (its _sqlite3 module's file: the module itself if SQLite is linked in, else the libsqlite3 it
 * loaded). Only the functions this file calls are filled in; the rest stay NULL. */
static sqlite3_api_routines symbols_api;

#define FILL(field, symbol)                                                                         \
    do {                                                                                            \
        *(void **)(&symbols_api.field) = dlsym(handle, symbol);                                     \
        if (symbols_api.field == NULL) missing = symbol;                                            \
    } while (0)

static PyObject *attach_symbols(PyObject *module, PyObject *arg) {
    (void)module;
    const char *path = arg == Py_None ? NULL : PyUnicode_AsUTF8(arg);
    if (path == NULL && arg != Py_None) return NULL;
    if (route != NULL) return PyErr_Format(PyExc_OSError, "statebox-cow: already attached (by %s)", route);
    void *handle = dlopen(path, RTLD_NOW | (path != NULL ? RTLD_NOLOAD : 0));
    if (handle == NULL) return PyErr_Format(PyExc_OSError, "statebox-cow: %s is not loaded (%s)", path, dlerror());
    const char *missing = NULL;
    FILL(libversion, "sqlite3_libversion");
    FILL(sourceid, "sqlite3_sourceid");
    FILL(xthreadsafe, "sqlite3_threadsafe");
    FILL(mprintf, "sqlite3_mprintf");
    FILL(xsnprintf, "sqlite3_snprintf");
    FILL(mutex_alloc, "sqlite3_mutex_alloc");
    FILL(mutex_free, "sqlite3_mutex_free");
    FILL(mutex_enter, "sqlite3_mutex_enter");
    FILL(mutex_leave, "sqlite3_mutex_leave");
    FILL(vfs_find, "sqlite3_vfs_find");
    FILL(vfs_register, "sqlite3_vfs_register");
    dlclose(handle); /* the stdlib keeps the library loaded */
    if (missing != NULL)
        return PyErr_Format(PyExc_OSError, "statebox-cow: %s exports no %s", path ? path : "the program", missing);
    const char *why = attach(&symbols_api, "symbols");
    if (why != NULL) return PyErr_Format(PyExc_OSError, "statebox-cow: %s", why);
    Py_RETURN_NONE;
}

static PyObject *attached(PyObject *module, PyObject *unused) {
    (void)module;
    (void)unused;
    if (route == NULL) Py_RETURN_NONE;
    return Py_BuildValue("{s:s,s:s,s:s}", "route", route, "version", sqlite3_libversion(), "source_id",
                         sqlite3_sourceid());
}

/* ---- Python: Image and stats --------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    Base *base;
} ImageObject;

static PyObject *image_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"image", NULL};
    PyObject *data;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "S:Image", kwlist, &data)) return NULL;
    if (route == NULL) return PyErr_Format(PyExc_RuntimeError, "statebox-cow is not attached to SQLite yet");
    drain();
    Base *b = calloc(1, sizeof *b);
    if (b == NULL) return PyErr_NoMemory();
    ImageObject *self = (ImageObject *)type->tp_alloc(type, 0);
    if (self == NULL) {
        free(b);
        return NULL;
    }
    Py_INCREF(data);
    b->owner = data;
    b->data = (const unsigned char *)PyBytes_AS_STRING(data);
    b->size = PyBytes_GET_SIZE(data);
    b->chunk = page_size_of(b->data, b->size);
    b->refs = 1;
    sqlite3_mutex_enter(lock);
    snprintf(b->name, sizeof b->name, "/statebox-cow-%lld", ++serial);
    b->next = registry;
    registry = b;
    sqlite3_mutex_leave(lock);
    self->base = b;
    return (PyObject *)self;
}

static void image_dealloc(ImageObject *self) {
    Base *b = self->base;
    if (b != NULL) {
        sqlite3_mutex_enter(lock);
        for (Base **at = &registry; *at != NULL; at = &(*at)->next) {
            if (*at == b) {
                *at = b->next;
                break;
            }
        }
        b->next = NULL;
        unref_locked(b);
        sqlite3_mutex_leave(lock);
        drain();
    }
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *image_name(ImageObject *self, void *closure) {
    (void)closure;
    return PyUnicode_FromString(self->base->name);
}

static PyObject *image_size(ImageObject *self, void *closure) {
    (void)closure;
    return PyLong_FromLongLong(self->base->size);
}

static PyGetSetDef image_getset[] = {
    {"name", (getter)image_name, NULL, "The file name that opens this image through the VFS.", NULL},
    {"size", (getter)image_size, NULL, "The image's size in bytes.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject ImageType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "statebox.world._cowvfs.Image",
    .tp_basicsize = sizeof(ImageObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A database image (bytes) registered with the statebox-cow VFS while this object lives.",
    .tp_new = image_new,
    .tp_dealloc = (destructor)image_dealloc,
    .tp_getset = image_getset,
};

static PyObject *stats(PyObject *module, PyObject *unused) {
    (void)module;
    (void)unused;
    long long images = 0, files = 0, overlays = 0, bytes = 0;
    if (route != NULL) {
        drain();
        sqlite3_mutex_enter(lock);
        for (Base *b = registry; b != NULL; b = b->next) images++;
        files = files_open, overlays = overlays_open, bytes = overlay_bytes;
        sqlite3_mutex_leave(lock);
    }
    return Py_BuildValue("{s:L,s:L,s:L,s:L}", "images", images, "files_open", files, "overlays_open", overlays,
                         "overlay_bytes", bytes);
}

static PyMethodDef methods[] = {
    {"stats", stats, METH_NOARGS,
     "Counters: images registered, files open, main databases open over an image, bytes of written pages held."},
    {"attach_symbols", attach_symbols, METH_O,
     "Register the VFS with the SQLite whose symbols the loaded file at this path (None: the program) exports."},
    {"attached", attached, METH_NOARGS,
     "How the VFS reached SQLite and that SQLite's version and source id, or None before it is attached."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef moduledef = {
    PyModuleDef_HEAD_INIT, "_cowvfs", "Page-level copy-on-write SQLite VFS for statebox sessions.", -1, methods,
    NULL, NULL, NULL, NULL,
};

/* Importing registers nothing: world/cow.py attaches the VFS to the stdlib's SQLite next. */
PyMODINIT_FUNC PyInit__cowvfs(void) {
    if (PyType_Ready(&ImageType) < 0) return NULL;
    PyObject *m = PyModule_Create(&moduledef);
    if (m == NULL) return NULL;
    Py_INCREF(&ImageType);
    if (PyModule_AddObject(m, "Image", (PyObject *)&ImageType) < 0 ||
        PyModule_AddStringConstant(m, "VFS_NAME", VFS_NAME) < 0 ||
        PyModule_AddStringConstant(m, "ENTRY_POINT", "sqlite3_cowvfs_init") < 0) {
        Py_DECREF(&ImageType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
