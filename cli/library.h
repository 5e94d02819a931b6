/* The library as every command opens it (library.c): options, the context, a camera, device JSON, signals. */
#ifndef OCELLUS_CLI_LIBRARY_H
#define OCELLUS_CLI_LIBRARY_H

#include <ocellus.h>
#include "json.h"
#include "output.h"
#include <signal.h>
#include <stdint.h>

typedef struct global_options {
    const char *app_id;
    const char *remote;
    const char *state_directory;
} global_options;

/* A context with the options; a PipeWire problem is noted on stderr (V4L2 goes on). NULL,
 * with the reason on stderr, when there is none. */
oc_context *open_context(const global_options *options);
/* The device CAMERA names (oc_context_copy_device_matching), or with NULL the system
 * preferred camera; NULL, with the reason on stderr, when there is none. The caller releases it. */
oc_device *connected_device(oc_context *ctx, const char *spec);
/* Destroys `ctx` (NULL: nothing) and returns `status`: `return close_context(ctx, fail(…))`. */
int close_context(oc_context *ctx, int status);
/* The `list --json` device object. */
void device_json(json *w, oc_device *device);
/* Ends a command's summary object with "event": "summary", the key every line of JSON a command
 * prints carries (frame, metadata and summary lines alike). */
void summary_json_end(json *w);
/* "pixel_format": the format's one name (oc_pixel_format_name; null for 0). */
void pixel_format_json(json *w, uint32_t pixel_format);
/* `UNIQUE_ID "NAME"` or "none". */
const char *device_label(oc_device *device, strbuf *out);

/* Blocks SIGINT, SIGTERM and SIGUSR1 in this thread and those started later
 * (so library threads never take them); sigwait on the returned set. */
sigset_t block_termination_signals(void);
/* Ends a wait on the blocked signals from any thread. */
void finish_wait(void);
/* Waits for one of `signals`, finish_wait(), or `seconds` (<= 0: no limit); `tick` runs about once a second. */
void wait_for_termination(const sigset_t *signals, double seconds, void (*tick)(void *), void *tick_data);
uint64_t monotonic_ns(void);

#endif
