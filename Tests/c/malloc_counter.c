/* LD_PRELOAD helper for the allocation test: counts malloc/calloc/realloc calls
 * made on each thread (thread-local), readable through ocellus_test_allocations(). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>

static __thread unsigned long allocations;
static void *(*real_malloc)(size_t);
static void *(*real_calloc)(size_t, size_t);
static void *(*real_realloc)(void *, size_t);

/* dlsym may itself call calloc: serve that from a small static arena. */
static char bootstrap[4096];
static size_t bootstrap_used;

static void *bootstrap_alloc(size_t size)
{
    size = (size + 15) & ~(size_t)15;
    if (bootstrap_used + size > sizeof bootstrap) return NULL;
    void *p = bootstrap + bootstrap_used;
    bootstrap_used += size;
    return p;
}

unsigned long ocellus_test_allocations(void) { return allocations; }

void *malloc(size_t size)
{
    if (!real_malloc) real_malloc = dlsym(RTLD_NEXT, "malloc");
    allocations++;
    return real_malloc(size);
}

void *calloc(size_t count, size_t size)
{
    if (!real_calloc) {
        static int resolving;
        if (resolving) return bootstrap_alloc(count * size);
        resolving = 1;
        real_calloc = dlsym(RTLD_NEXT, "calloc");
        resolving = 0;
    }
    allocations++;
    return real_calloc(count, size);
}

void *realloc(void *pointer, size_t size)
{
    if (!real_realloc) real_realloc = dlsym(RTLD_NEXT, "realloc");
    allocations++;
    return real_realloc(pointer, size);
}
