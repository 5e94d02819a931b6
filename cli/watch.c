/* `ocellus watch`: hotplug, preferred-camera and route events as they happen. */
#include "args.h"
#include "commands.h"
#include "json.h"
#include "library.h"
#include "output.h"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef struct watch_state {
    bool as_json;
    pthread_mutex_t lock;
    /* Devices listed as present at the start: an ADDED event racing that listing is not repeated. */
    char **initial;
    size_t initial_count;
    char failure[1024];
} watch_state;

static void emit_event(watch_state *state, const char *name, oc_device *device, bool initial)
{
    strbuf out, label;
    text_init(&out);
    if (state->as_json) {
        json w;
        json_start(&w, &out);
        json_object_begin(&w);
        json_key(&w, "event"); json_string(&w, name);
        json_key(&w, "device"); if (device) device_json(&w, device); else json_null(&w);
        if (initial) { json_key(&w, "initial"); json_bool(&w, true); }
        json_object_end(&w);
    } else if (strcmp(name, "added") == 0 || strcmp(name, "removed") == 0) {
        text_printf(&out, "%s: %s %s \"%s\"%s", name, oc_device_type_name(oc_device_get_type(device)),
                    oc_device_unique_id(device), oc_device_name(device), initial ? " (present)" : "");
    } else {
        text_init(&label);
        text_printf(&out, "%s: %s", name, device_label(device, &label));
        text_free(&label);
    }
    emit(out.data);
    text_free(&out);
}

/* True (once) when `device` was listed at the start and this is its racing ADDED event. */
static bool take_initial(watch_state *state, oc_device *device)
{
    for (size_t index = 0; index < state->initial_count; index++) {
        if (state->initial[index] && strcmp(state->initial[index], oc_device_unique_id(device)) == 0) {
            free(state->initial[index]);
            state->initial[index] = NULL;
            return true;
        }
    }
    return false;
}

static void forget_initial(watch_state *state)
{
    for (size_t index = 0; index < state->initial_count; index++) free(state->initial[index]);
    free(state->initial);
    state->initial = NULL;
    state->initial_count = 0;
}

static void on_hotplug(oc_context *ctx, oc_hotplug_event event, oc_device *device, void *user_data)
{
    (void)ctx;
    watch_state *state = user_data;
    pthread_mutex_lock(&state->lock);
    if (event == OC_HOTPLUG_ADDED && take_initial(state, device)) {
        pthread_mutex_unlock(&state->lock);
        return;
    }
    if (event == OC_HOTPLUG_REMOVED) take_initial(state, device);   /* a later ADDED is news */
    emit_event(state, event == OC_HOTPLUG_ADDED ? "added" : "removed", device, false);
    pthread_mutex_unlock(&state->lock);
}

static void on_preferred(oc_context *ctx, oc_preferred_camera_kind kind, oc_device *camera, void *user_data)
{
    (void)ctx;
    watch_state *state = user_data;
    pthread_mutex_lock(&state->lock);
    emit_event(state, kind == OC_PREFERRED_CAMERA_USER ? "user_preferred_changed" : "system_preferred_changed", camera, false);
    pthread_mutex_unlock(&state->lock);
}

static void on_route(oc_context *ctx, oc_device *input, void *user_data)
{
    (void)ctx;
    watch_state *state = user_data;
    pthread_mutex_lock(&state->lock);
    emit_event(state, "microphone_route_changed", input, false);
    pthread_mutex_unlock(&state->lock);
}

static void on_backend_failure(oc_context *ctx, oc_backend backend, oc_status error, const char *message, void *user_data)
{
    (void)ctx; (void)backend; (void)error;
    watch_state *state = user_data;
    pthread_mutex_lock(&state->lock);
    snprintf(state->failure, sizeof state->failure, "%s", message);
    pthread_mutex_unlock(&state->lock);
    finish_wait();
}

/* `--ready-fd FD`: a descriptor the caller passed open; -1, with the usage error printed, otherwise. */
static int parse_descriptor(const char *text)
{
    char *end = NULL;
    errno = 0;
    long fd = strtol(text, &end, 10);
    if (errno || end == text || *end || fd < 0 || fd > INT_MAX || fcntl((int)fd, F_GETFD) < 0) {
        usage_error("--ready-fd needs an open file descriptor, not '%s'", text);
        return -1;
    }
    return (int)fd;
}

/* Tells whoever waits on `fd` that the watch is listening (registered before the listing,
 * so a device plugged from now on is reported). */
static void tell_ready(int fd)
{
    static const char line[] = "ready\n";
    ssize_t written;
    do written = write(fd, line, sizeof line - 1); while (written < 0 && errno == EINTR);
    close(fd);
}

int command_watch(const global_options *options, arguments *a)
{
    static watch_state state = { .lock = PTHREAD_MUTEX_INITIALIZER };
    state.as_json = args_flag(a, "--json");
    bool changes_only = args_flag(a, "--changes-only");
    const char *ready_fd = args_value(a, "--ready-fd");
    int ready = -1;
    if (ready_fd && (ready = parse_descriptor(ready_fd)) < 0) return 2;
    if (args_finish(a)) return 2;
    sigset_t signals = block_termination_signals();
    oc_context *ctx = open_context(options);
    if (!ctx) return 1;
    /* Registered before the listing under the lock, so nothing between the two is missed. */
    pthread_mutex_lock(&state.lock);
    if (oc_context_add_hotplug_callback(ctx, on_hotplug, &state, NULL) != OC_OK
        || oc_context_add_preferred_camera_callback(ctx, on_preferred, &state, NULL) != OC_OK
        || oc_context_add_microphone_route_callback(ctx, on_route, &state, NULL) != OC_OK
        || oc_context_add_backend_failure_callback(ctx, on_backend_failure, &state, NULL) != OC_OK) {
        int status = fail_last_error();
        pthread_mutex_unlock(&state.lock);
        return close_context(ctx, status);
    }
    if (!changes_only) {
        oc_device_list *list = NULL;
        if (oc_context_copy_devices(ctx, &list) != OC_OK) {
            int status = fail_last_error();
            pthread_mutex_unlock(&state.lock);
            return close_context(ctx, status);
        }
        state.initial_count = oc_device_list_count(list);
        state.initial = calloc(state.initial_count ? state.initial_count : 1, sizeof(char *));
        for (size_t index = 0; index < state.initial_count; index++) {
            oc_device *device = oc_device_list_get(list, index);
            state.initial[index] = strdup(oc_device_unique_id(device));
            emit_event(&state, "added", device, true);
        }
        oc_device_list_free(list);
    }
    pthread_mutex_unlock(&state.lock);
    if (ready >= 0) tell_ready(ready);
    int received = 0;
    sigwait(&signals, &received);
    oc_context_destroy(ctx);
    forget_initial(&state);
    return state.failure[0] ? fail(1, "%s", state.failure) : 0;
}
