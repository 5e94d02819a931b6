/* The library as every command opens it: options, the context, a camera, device JSON,
 * signals (library.h). */
#include "library.h"

#include "json.h"
#include "output.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

uint64_t monotonic_ns(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
}

sigset_t block_termination_signals(void)
{
    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGINT);
    sigaddset(&signals, SIGTERM);
    sigaddset(&signals, SIGUSR1);
    pthread_sigmask(SIG_BLOCK, &signals, NULL);
    return signals;
}

void finish_wait(void) { kill(getpid(), SIGUSR1); }

void wait_for_termination(const sigset_t *signals, double seconds, void (*tick)(void *), void *tick_data)
{
    uint64_t deadline = seconds > 0 ? monotonic_ns() + (uint64_t)(seconds * 1e9) : 0;
    for (;;) {
        uint64_t now = monotonic_ns();
        if (deadline && now >= deadline) return;
        uint64_t slice = 1000000000u;
        if (deadline && deadline - now < slice) slice = deadline - now;
        struct timespec timeout = { .tv_sec = (time_t)(slice / 1000000000u), .tv_nsec = (long)(slice % 1000000000u) };
        if (sigtimedwait(signals, NULL, &timeout) > 0) return;
        if (tick) tick(tick_data);
    }
}

oc_context *open_context(const global_options *options)
{
    oc_context_options context_options;
    oc_context_options_init(&context_options);
    context_options.pipewire_remote = options->remote;
    context_options.state_directory = options->state_directory;
    context_options.timeout_ms = 3000;
    oc_context *ctx = NULL;
    oc_status created = oc_context_create(options->app_id, &context_options, &ctx);
    if (created == OC_ERROR_INVALID_ARGUMENT) exit(usage_error("%s", oc_last_error_message()));   /* --app-id, --state-dir */
    if (created != OC_OK) {
        fail_last_error();
        return NULL;
    }
    char problem[512];
    if (oc_context_copy_backend_problem(ctx, OC_BACKEND_PIPEWIRE, problem, sizeof problem) > 0) {
        fprintf(stderr, "ocellus: note: %s; %s\n", problem,
                oc_context_uses_camera_portal(ctx) ? "no cameras through the camera portal" : "showing V4L2 devices only");
    }
    return ctx;
}

/* "; the pipewire backend is not running: …" per backend that is not: why no device was found. */
static void missing_backends_said(oc_context *ctx, strbuf *out)
{
    static const oc_backend backends[] = { OC_BACKEND_PIPEWIRE, OC_BACKEND_V4L2 };
    for (size_t i = 0; i < sizeof backends / sizeof backends[0]; i++) {
        char problem[512];
        if (oc_context_copy_backend_problem(ctx, backends[i], problem, sizeof problem) > 0) {
            text_printf(out, "; the %s backend is not running: %s", oc_backend_name(backends[i]), problem);
        }
    }
}

oc_device *connected_device(oc_context *ctx, const char *spec)
{
    oc_device *device = NULL;
    oc_status status = spec ? oc_context_copy_device_matching(ctx, spec, &device)
                            : oc_context_copy_system_preferred_camera(ctx, &device);
    if (status != OC_OK) fail_last_error();
    else if (!device) {
        strbuf missing;
        text_init(&missing);
        missing_backends_said(ctx, &missing);
        fail(1, "no camera is connected%s", missing.data);
        text_free(&missing);
    }
    return device;
}

int close_context(oc_context *ctx, int status)
{
    if (ctx) oc_context_destroy(ctx);
    return status;
}

const char *device_label(oc_device *device, strbuf *out)
{
    text_clear(out);
    if (device) text_printf(out, "%s \"%s\"", oc_device_unique_id(device), oc_device_name(device));
    else text_append(out, "none");
    return out->data;
}

static void hex4(json *w, uint16_t value)
{
    char digits[8];
    snprintf(digits, sizeof digits, "%04x", value);
    json_string(w, digits);
}

/* The device's V4L2 nodes (`/dev/videoN`), as the raw V4L2 backend or PipeWire's V4L2 plugin report them. */
static void v4l2_nodes_json(json *w, oc_device *device)
{
    json_array_begin(w);
    const char *nodes = oc_device_get_property(device, "api.v4l2.nodes");
    if (!nodes) nodes = oc_device_get_property(device, "api.v4l2.path");
    if (nodes) {
        char *copy = strdup(nodes), *save = NULL;
        for (char *node = strtok_r(copy, " ", &save); node; node = strtok_r(NULL, " ", &save)) json_string(w, node);
        free(copy);
    }
    json_array_end(w);
}

void summary_json_end(json *w)
{
    json_key(w, "event"); json_string(w, "summary");
    json_object_end(w);
}

void pixel_format_json(json *w, uint32_t pixel_format)
{
    char name[64];
    oc_pixel_format_name(pixel_format, name, sizeof name);
    json_key(w, "pixel_format"); json_string(w, pixel_format ? name : NULL);
}

/* A format as `list --json` shows it (formats and depth_formats). */
static void format_json(json *w, const oc_format_info *format)
{
    json_object_begin(w);
    pixel_format_json(w, format->pixel_format);
    json_key(w, "width"); json_int(w, format->width);
    json_key(w, "height"); json_int(w, format->height);
    json_key(w, "frame_rates");
    json_array_begin(w);
    for (uint32_t rate = 0; rate < format->frame_rate_count; rate++) {
        json_number(w, (double)format->frame_rates[rate].numerator / format->frame_rates[rate].denominator);
    }
    json_array_end(w);
    if (format->sizes_are_range) {   /* added in 0.2; width and height are the largest */
        json_key(w, "size_range");
        json_object_begin(w);
        json_key(w, "min_width"); json_int(w, format->min_width);
        json_key(w, "min_height"); json_int(w, format->min_height);
        json_key(w, "max_width"); json_int(w, format->width);
        json_key(w, "max_height"); json_int(w, format->height);
        json_key(w, "step_width"); json_int(w, format->step_width);
        json_key(w, "step_height"); json_int(w, format->step_height);
        json_object_end(w);
    }
    json_object_end(w);
}

void device_json(json *w, oc_device *device)
{
    json_object_begin(w);
    json_key(w, "unique_id"); json_string(w, oc_device_unique_id(device));
    json_key(w, "name"); json_string(w, oc_device_name(device));
    json_key(w, "type"); json_string(w, oc_device_type_name(oc_device_get_type(device)));
    json_key(w, "position"); json_string(w, oc_device_position_name(oc_device_get_position(device)));
    json_key(w, "backend"); json_string(w, oc_backend_name(oc_device_get_backend(device)));
    json_key(w, "connected"); json_bool(w, oc_device_is_connected(device));
    json_key(w, "formats");
    json_array_begin(w);
    for (size_t index = 0; index < oc_device_format_count(device); index++) {
        oc_format_info format = { .struct_size = sizeof format };
        if (oc_device_get_format(device, index, &format) == OC_OK) format_json(w, &format);
    }
    json_array_end(w);
    /* Added in 0.2: what other tools call the device by. */
    uint16_t vendor = oc_device_vendor_id(device), product = oc_device_product_id(device);
    json_key(w, "vendor_id"); if (vendor) hex4(w, vendor); else json_null(w);
    json_key(w, "product_id"); if (product) hex4(w, product); else json_null(w);
    json_key(w, "serial"); json_string(w, oc_device_serial_number(device));
    json_key(w, "v4l2_nodes"); v4l2_nodes_json(w, device);
    json_key(w, "depth_formats");   /* added in 0.2: a depth camera's; [] for others */
    json_array_begin(w);
    for (size_t index = 0; index < oc_device_depth_format_count(device); index++) {
        oc_format_info format = { .struct_size = sizeof format };
        if (oc_device_get_depth_format(device, index, &format) == OC_OK) format_json(w, &format);
    }
    json_array_end(w);
    const char *serial = oc_device_get_property(device, "object.serial");
    char *end = NULL;
    long long pipewire_serial = serial ? strtoll(serial, &end, 10) : 0;
    json_key(w, "pipewire_serial");
    if (serial && *serial && end && *end == '\0') json_int(w, pipewire_serial); else json_null(w);
    json_object_end(w);
}
