/* What every section of the C suite shares: the checks, the runner, the test bed's cameras
 * and a context of its own per test. Included once, by abi_test.c. */
#ifndef OCELLUS_C_SUITE_HARNESS_H
#define OCELLUS_C_SUITE_HARNESS_H

#include <ocellus.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int passed, failed;

static const char *current_test;

#define CHECK(cond) do { \
    if (!(cond)) { \
        fprintf(stderr, "  %s:%d: %s: check failed: %s (last error: %s)\n", __FILE__, __LINE__, \
                current_test, #cond, oc_last_error_message()); \
        return 1; \
    } } while (0)

static void run(const char *name, int (*test)(void))
{
    current_test = name;
    if (test() == 0) { passed++; printf("ok - %s\n", name); }
    else { failed++; printf("not ok - %s\n", name); }
    fflush(stdout);
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int testbed(const char *args)
{
    char command[2048];
    snprintf(command, sizeof command, "%s %s >/dev/null", getenv("OCELLUS_TESTBED_SCRIPT"), args);
    return system(command);
}

static int add_camera(const char *name, const char *extra)
{
    char args[1536];
    snprintf(args, sizeof args, "add-camera %s %s --sizes 640x480 --fps 30 %s",
             getenv("OCELLUS_TESTBED_DIR"), name, extra);
    return testbed(args);
}

static int remove_camera(const char *name)
{
    char args[512];
    snprintf(args, sizeof args, "remove-camera %s %s KILL", getenv("OCELLUS_TESTBED_DIR"), name);
    return testbed(args);
}

static oc_context *create(void)
{
    oc_context *ctx = NULL;
    return oc_context_create("org.ocellus.test.c", NULL, &ctx) == OC_OK ? ctx : NULL;
}

/* A context whose selection and mounting state live in a fresh directory of their own. */
static oc_context *create_with_private_state(const char *app_id)
{
    static char state[64];
    snprintf(state, sizeof state, "/tmp/ocellus-c-state-XXXXXX");
    if (!mkdtemp(state)) return NULL;
    oc_context_options options;
    oc_context_options_init(&options);
    options.state_directory = state;
    oc_context *ctx = NULL;
    return oc_context_create(app_id, &options, &ctx) == OC_OK ? ctx : NULL;
}

static oc_device *find(oc_device_list *list, const char *unique_id)
{
    for (size_t i = 0; i < oc_device_list_count(list); i++) {
        oc_device *device = oc_device_list_get(list, i);
        if (strcmp(oc_device_unique_id(device), unique_id) == 0)
            return device;
    }
    return NULL;
}

/* ---- hotplug recorder ---- */
struct recorder {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    char last_added[256], last_removed[256];
    oc_device *added_device;     /* retained */
    double added_at, removed_at;
    int added, removed;
};

static void recorder_init(struct recorder *r)
{
    memset(r, 0, sizeof *r);
    pthread_mutex_init(&r->lock, NULL);
    pthread_cond_init(&r->changed, NULL);
}

static void record(oc_context *ctx, oc_hotplug_event event, oc_device *device, void *user_data)
{
    struct recorder *r = user_data;
    (void)ctx;
    pthread_mutex_lock(&r->lock);
    if (event == OC_HOTPLUG_ADDED) {
        snprintf(r->last_added, sizeof r->last_added, "%s", oc_device_unique_id(device));
        if (r->added_device) oc_device_release(r->added_device);
        r->added_device = oc_device_retain(device);
        r->added_at = now_ms();
        r->added++;
    } else {
        snprintf(r->last_removed, sizeof r->last_removed, "%s", oc_device_unique_id(device));
        r->removed_at = now_ms();
        r->removed++;
    }
    pthread_cond_broadcast(&r->changed);
    pthread_mutex_unlock(&r->lock);
}

/* What a callback writes and the test's thread polls without a lock goes through these, so that
 * the poll also sees what the callback wrote before (ThreadSanitizer checks it: `make test-tsan`). */
#define SHARED_GET(x) __atomic_load_n(&(x), __ATOMIC_ACQUIRE)
#define SHARED_SET(x, value) __atomic_store_n(&(x), (value), __ATOMIC_RELEASE)
#define SHARED_ADD(x, n) __atomic_fetch_add(&(x), (n), __ATOMIC_ACQ_REL)

/* Waits until `*counter`, guarded by `lock` and signalled on `changed`, reaches `target` (or 10 s pass). */
static int wait_until(pthread_mutex_t *lock, pthread_cond_t *changed, const int *counter, int target)
{
    struct timespec deadline;
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += 10;
    pthread_mutex_lock(lock);
    while (*counter < target && pthread_cond_timedwait(changed, lock, &deadline) == 0) {}
    int reached = *counter >= target;
    pthread_mutex_unlock(lock);
    return reached;
}

static int wait_count(struct recorder *r, int *counter, int want)
{
    return wait_until(&r->lock, &r->changed, counter, want);
}

/* Frames counted per output, and a multi-camera session's events, for the test below. */
static struct multi_log {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    int frames[2], started, stopped;
    char camera_of_started[64];
} multi_log = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, { 0, 0 }, 0, 0, "" };

#endif
