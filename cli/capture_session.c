/* A capture session on one camera, with the command's signal handling: what stream, snap
 * and record share (capture_session.h). */
#include "capture_session.h"

#include "args.h"
#include "library.h"
#include "output.h"
#include "rotation.h"
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* A runtime error, or a camera that stalled, ends the command with its message. */
static void on_session_event(oc_capture_session *session, oc_session_event event, oc_status error, const char *message,
                             void *user_data)
{
    (void)session;
    capture_run *c = user_data;
    if (event == OC_SESSION_EVENT_RUNTIME_ERROR || (event == OC_SESSION_EVENT_INTERRUPTED && error == OC_ERROR_TIMEOUT)) {
        /* The library waits for a stalled camera to recover; this command does not: it says so. */
        static const char waiting[] = "; waiting for it to recover";
        size_t length = strlen(message), tail = sizeof waiting - 1;
        bool stalled = event == OC_SESSION_EVENT_INTERRUPTED && length >= tail && !strcmp(message + length - tail, waiting);
        pthread_mutex_lock(&c->lock);
        if (!c->failure[0]) {
            snprintf(c->failure, sizeof c->failure, "%.*s%s", (int)(stalled ? length - tail : length), message,
                     stalled ? "; the command stops" : "");
        }
        pthread_mutex_unlock(&c->lock);
        finish_wait();
    } else if (event == OC_SESSION_EVENT_RECORDING_DEGRADED || event == OC_SESSION_EVENT_AUDIO_INTERRUPTED) {
        warn("%s", message);
    }
}

int capture_open_session(capture_run *c, const global_options *options)
{
    c->signals = block_termination_signals();
    pthread_mutex_init(&c->lock, NULL);
    c->failure[0] = '\0';
    c->session = NULL;
    c->device = NULL;
    c->ctx = open_context(options);
    if (!c->ctx) return 1;
    if (oc_capture_session_create(c->ctx, &c->session) != OC_OK
        || oc_capture_session_add_event_callback(c->session, on_session_event, c, NULL) != OC_OK) {
        return capture_fail(c, oc_last_error_message());
    }
    return 0;
}

int capture_open(capture_run *c, const global_options *options, const char *spec)
{
    if (capture_open_session(c, options)) return 1;
    c->device = connected_device(c->ctx, spec);
    if (!c->device) {
        capture_close(c);
        return 1;
    }
    if (oc_capture_session_set_input(c->session, c->device) != OC_OK) return capture_fail(c, oc_last_error_message());
    return 0;
}

void capture_close(capture_run *c)
{
    if (c->session) oc_capture_session_destroy(c->session);
    if (c->device) oc_device_release(c->device);
    if (c->ctx) oc_context_destroy(c->ctx);
    c->session = NULL;
    c->device = NULL;
    c->ctx = NULL;
}

int capture_fail(capture_run *c, const char *message)
{
    char copy[1024];
    snprintf(copy, sizeof copy, "%s", message);
    capture_close(c);
    return fail(1, "%s", copy);
}

int capture_start(capture_run *c)
{
    return oc_capture_session_start_running(c->session) == OC_OK ? 0 : capture_fail(c, oc_last_error_message());
}

void capture_wait(capture_run *c, double seconds, void (*tick)(void *), void *tick_data)
{
    wait_for_termination(&c->signals, seconds, tick, tick_data);
}

/* The failure that ended the session, or NULL; copied into `buffer`. */
const char *capture_failure(capture_run *c, char buffer[1024])
{
    pthread_mutex_lock(&c->lock);
    snprintf(buffer, 1024, "%s", c->failure);
    pthread_mutex_unlock(&c->lock);
    return buffer[0] ? buffer : NULL;
}

int stored_capture_options(arguments *a, const char *command, stored_options *stored)
{
    *stored = (stored_options){ .spec = args_leading_positional(a) };   /* none: the system preferred camera */
    stored->path = args_value(a, "-o");
    if (!stored->path) stored->path = args_value(a, "--output");
    if (!stored->path) return usage_error("%s needs -o FILE", command);
    const char *size = args_value(a, "--size");
    if (size && !parse_size(size, &stored->width, &stored->height)) return 2;
    const char *host = args_value(a, "--host-orientation");
    stored->host = host ? parse_host_orientation(host) : -1;
    if (stored->host == -2) return 1;
    stored->sensor_bus = sensor_bus_option(a);
    stored->as_json = args_flag(a, "--json");
    return 0;
}
