/*
 * CThreadFrame: the frame the C ABI is delivering on this thread. Swift has no
 * thread-local variables; the frame accessors compare a handle against this
 * record before falling back to the handle table, which takes a lock.
 */
#ifndef OCELLUS_CTHREADFRAME_H
#define OCELLUS_CTHREADFRAME_H

#include <stddef.h>

/* Initial-exec: a thread-pointer-relative load instead of a __tls_get_addr call;
 * 16 bytes fit glibc's static TLS reserve even when the library is dlopen'ed (Python). */
#define OCABI_TLS __attribute__((tls_model("initial-exec"))) _Thread_local
extern OCABI_TLS const void *ocabi_delivering_handle;
extern OCABI_TLS const void *ocabi_delivering_frame;

/* Marks `frame` (a pointer to the Swift frame value) as delivered under `handle`; NULLs end it. */
static inline void ocabi_set_delivering(const void *handle, const void *frame)
{
    ocabi_delivering_handle = handle;
    ocabi_delivering_frame = frame;
}

/* The frame delivered under `handle` on this thread, or NULL. */
static inline const void *ocabi_delivering(const void *handle)
{
    return handle != NULL && handle == ocabi_delivering_handle ? ocabi_delivering_frame : NULL;
}

#endif
