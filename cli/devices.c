/* list, watch, preferred, prefer, microphones: devices and the app's selection. */
#include "cli.h"

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

oc_context *open_context(const global_options *options)
{
    oc_context_options context_options;
    oc_context_options_init(&context_options);
    context_options.pipewire_remote = options->remote;
    context_options.state_directory = options->state_directory;
    context_options.timeout_ms = 3000;
    oc_context *ctx = NULL;
    if (oc_context_create(options->app_id, &context_options, &ctx) != OC_OK) fail_last_error();
    char problem[512];
    if (oc_context_copy_backend_problem(ctx, OC_BACKEND_PIPEWIRE, problem, sizeof problem) > 0) {
        fprintf(stderr, "ocellus: note: %s; %s\n", problem,
                oc_context_uses_camera_portal(ctx) ? "no cameras through the camera portal" : "showing V4L2 devices only");
    }
    return ctx;
}

oc_device *connected_device(oc_context *ctx, const char *spec)
{
    oc_device *device = NULL;
    oc_status status = spec ? oc_context_copy_device_matching(ctx, spec, &device)
                            : oc_context_copy_system_preferred_camera(ctx, &device);
    if (status != OC_OK) {
        char message[1024];
        snprintf(message, sizeof message, "%s", oc_last_error_message());
        oc_context_destroy(ctx);
        fail(1, "%s", message);
    }
    if (!device) {
        oc_context_destroy(ctx);
        fail(1, "no camera is connected");
    }
    return device;
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

/* A format as `list --json` shows it (formats and depth_formats). */
static void format_json(json *w, const oc_format_info *format)
{
    char name[64];
    oc_pixel_format_name(format->pixel_format, name, sizeof name);
    json_object_begin(w);
    json_key(w, "pixel_format"); json_string(w, name);
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

/* One line of an array of devices as JSON, then free the list. */
static void emit_devices_json(oc_device_list *list)
{
    strbuf out;
    text_init(&out);
    json w;
    json_start(&w, &out);
    json_array_begin(&w);
    for (size_t index = 0; index < oc_device_list_count(list); index++) device_json(&w, oc_device_list_get(list, index));
    json_array_end(&w);
    emit(out.data);
    text_free(&out);
}

/* "YUYV 3 sizes ≤1920x1080 @30, MJPG …": each pixel format with its count of sizes, the largest, the highest rate. */
static void format_summary(oc_device *device, strbuf *out)
{
    size_t count = oc_device_format_count(device);
    uint32_t seen[64];
    size_t seen_count = 0;
    for (size_t index = 0; index < count; index++) {
        oc_format_info format = { .struct_size = sizeof format };
        if (oc_device_get_format(device, index, &format) != OC_OK) continue;
        bool known = false;
        for (size_t s = 0; s < seen_count; s++) known |= seen[s] == format.pixel_format;
        if (known || seen_count == 64) continue;
        seen[seen_count++] = format.pixel_format;
        uint32_t sizes = 0, width = 0, height = 0;
        double fps = 0;
        for (size_t other = index; other < count; other++) {
            oc_format_info same = { .struct_size = sizeof same };
            if (oc_device_get_format(device, other, &same) != OC_OK || same.pixel_format != format.pixel_format) continue;
            sizes++;
            if ((uint64_t)same.width * same.height > (uint64_t)width * height) { width = same.width; height = same.height; }
            if (same.frame_rate_count > 0) {
                double highest = (double)same.frame_rates[0].numerator / same.frame_rates[0].denominator;
                if (highest > fps) fps = highest;
            }
        }
        char fourcc[5], number[32];
        if (out->length > 0) text_append(out, ", ");
        text_printf(out, "%s %u sizes ≤%ux%u", oc_fourcc_string(format.pixel_format, fourcc), sizes, width, height);
        if (fps > 0) text_printf(out, " @%s", number_text(fps, number));
    }
}

void command_list(const global_options *options, arguments *a)
{
    bool as_json = args_flag(a, "--json");
    args_finish(a);
    oc_context *ctx = open_context(options);
    oc_device_list *list = NULL;
    if (oc_context_copy_devices(ctx, &list) != OC_OK) fail_last_error();
    size_t count = oc_device_list_count(list);
    if (as_json) {
        emit_devices_json(list);
    } else if (count == 0) {
        emit("no cameras or microphones found");
    } else {
        /* The index is what commands accept as CAMERA (`ocellus stream 0`). */
        enum { COLUMNS = 7 };
        const char *header[COLUMNS] = { "#", "TYPE", "POSITION", "BACKEND", "UNIQUE ID", "NAME", "FORMATS" };
        strbuf *cells = calloc(count * COLUMNS, sizeof(strbuf));
        size_t widths[COLUMNS];
        for (int column = 0; column < COLUMNS; column++) widths[column] = strlen(header[column]);
        for (size_t row = 0; row < count; row++) {
            oc_device *device = oc_device_list_get(list, row);
            strbuf *cell = cells + row * COLUMNS;
            for (int column = 0; column < COLUMNS; column++) text_init(&cell[column]);
            text_printf(&cell[0], "%zu", row);
            text_append(&cell[1], oc_device_type_name(oc_device_get_type(device)));
            text_append(&cell[2], oc_device_position_name(oc_device_get_position(device)));
            text_append(&cell[3], oc_backend_name(oc_device_get_backend(device)));
            text_append(&cell[4], oc_device_unique_id(device));
            text_append(&cell[5], oc_device_name(device));
            format_summary(device, &cell[6]);
            for (int column = 0; column < COLUMNS; column++) {
                size_t width = utf8_width(cell[column].data);
                if (width > widths[column]) widths[column] = width;
            }
        }
        strbuf line;
        text_init(&line);
        for (size_t row = 0; row <= count; row++) {
            text_clear(&line);
            for (int column = 0; column < COLUMNS; column++) {
                const char *cell = row == 0 ? header[column] : cells[(row - 1) * COLUMNS + column].data;
                text_append(&line, cell);
                if (column == COLUMNS - 1) break;
                for (size_t pad = utf8_width(cell); pad < widths[column] + 2; pad++) text_append(&line, " ");
            }
            emit(line.data);
        }
        text_free(&line);
        for (size_t index = 0; index < count * COLUMNS; index++) text_free(&cells[index]);
        free(cells);
    }
    oc_device_list_free(list);
    oc_context_destroy(ctx);
}

/* ---- watch ---- */

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

void command_watch(const global_options *options, arguments *a)
{
    static watch_state state = { .lock = PTHREAD_MUTEX_INITIALIZER };
    state.as_json = args_flag(a, "--json");
    bool changes_only = args_flag(a, "--changes-only");
    args_finish(a);
    sigset_t signals = block_termination_signals();
    oc_context *ctx = open_context(options);
    /* Registered before the listing under the lock, so nothing between the two is missed. */
    pthread_mutex_lock(&state.lock);
    if (oc_context_add_hotplug_callback(ctx, on_hotplug, &state, NULL) != OC_OK
        || oc_context_add_preferred_camera_callback(ctx, on_preferred, &state, NULL) != OC_OK
        || oc_context_add_microphone_route_callback(ctx, on_route, &state, NULL) != OC_OK
        || oc_context_add_backend_failure_callback(ctx, on_backend_failure, &state, NULL) != OC_OK) {
        fail_last_error();
    }
    if (!changes_only) {
        oc_device_list *list = NULL;
        if (oc_context_copy_devices(ctx, &list) != OC_OK) fail_last_error();
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
    int received = 0;
    sigwait(&signals, &received);
    oc_context_destroy(ctx);
    forget_initial(&state);
    if (state.failure[0]) fail(1, "%s", state.failure);
    exit(0);
}

/* ---- selection ---- */

static void warn_state_problem(oc_context *ctx)
{
    char problem[1024];
    if (oc_context_copy_state_problem(ctx, problem, sizeof problem) > 0) warn("%s", problem);
}

void command_preferred(const global_options *options, arguments *a)
{
    bool as_json = args_flag(a, "--json");
    args_finish(a);
    oc_context *ctx = open_context(options);
    warn_state_problem(ctx);
    oc_device *user = NULL, *system = NULL;
    if (oc_context_copy_user_preferred_camera(ctx, &user) != OC_OK
        || oc_context_copy_system_preferred_camera(ctx, &system) != OC_OK) {
        fail_last_error();
    }
    strbuf out, label;
    text_init(&out);
    text_init(&label);
    if (as_json) {
        json w;
        json_start(&w, &out);
        json_object_begin(&w);
        json_key(&w, "user_preferred"); if (user) device_json(&w, user); else json_null(&w);
        json_key(&w, "system_preferred"); if (system) device_json(&w, system); else json_null(&w);
        json_object_end(&w);
        emit(out.data);
    } else {
        text_printf(&out, "user preferred:   %s", device_label(user, &label));
        emit(out.data);
        text_clear(&out);
        text_printf(&out, "system preferred: %s", device_label(system, &label));
        emit(out.data);
    }
    text_free(&out);
    text_free(&label);
    oc_device_release(user);
    oc_device_release(system);
    oc_context_destroy(ctx);
}

void command_prefer(const global_options *options, arguments *a)
{
    const char *spec = args_leading_positional(a);
    if (!spec) usage_error("prefer needs a camera");
    args_finish(a);
    oc_context *ctx = open_context(options);
    oc_device *device = connected_device(ctx, spec);
    if (oc_context_set_user_preferred_camera(ctx, device) != OC_OK) fail_last_error();
    char problem[1024];
    size_t length = oc_context_copy_state_problem(ctx, problem, sizeof problem);
    /* A choice that could not be saved is lost when the process exits: for `prefer` that is failure. */
    if (oc_context_selection_is_unsaved(ctx)) {
        oc_device_release(device);
        oc_context_destroy(ctx);
        fail(1, "%s", length > 0 ? problem : "the choice could not be saved");
    }
    if (length > 0) warn("%s", problem);
    oc_device_release(device);
    oc_context_destroy(ctx);
}

void command_microphones(const global_options *options, arguments *a)
{
    bool as_json = args_flag(a, "--json");
    args_finish(a);
    oc_context *ctx = open_context(options);
    oc_device_list *list = NULL;
    oc_device *route = NULL;
    if (oc_context_copy_devices(ctx, &list) != OC_OK || oc_context_copy_microphone_route(ctx, &route) != OC_OK) fail_last_error();
    strbuf out, label;
    text_init(&out);
    text_init(&label);
    if (as_json) {
        json w;
        json_start(&w, &out);
        json_object_begin(&w);
        json_key(&w, "route"); if (route) device_json(&w, route); else json_null(&w);
        json_key(&w, "inputs");
        json_array_begin(&w);
        for (size_t index = 0; index < oc_device_list_count(list); index++) {
            oc_device *device = oc_device_list_get(list, index);
            if (oc_device_get_type(device) == OC_DEVICE_TYPE_MICROPHONE) device_json(&w, device);
        }
        json_array_end(&w);
        json_object_end(&w);
        emit(out.data);
    } else {
        text_printf(&out, "microphone -> %s", device_label(route, &label));
        emit(out.data);
        for (size_t index = 0; index < oc_device_list_count(list); index++) {
            oc_device *device = oc_device_list_get(list, index);
            if (oc_device_get_type(device) != OC_DEVICE_TYPE_MICROPHONE) continue;
            text_clear(&out);
            text_printf(&out, "%s %s", device == route ? "*" : " ", device_label(device, &label));
            emit(out.data);
        }
    }
    text_free(&out);
    text_free(&label);
    oc_device_release(route);
    oc_device_list_free(list);
    oc_context_destroy(ctx);
}
