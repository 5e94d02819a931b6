/* `ocellus stream CAMERA CAMERA…`: several cameras at once, a session each on one context,
 * started one after another so that each camera's USB cost counts the cameras already streaming
 * (the kernel's own reservations); one summary for all of them (stream_cameras.h). */
#include "stream_cameras.h"

#include "library.h"
#include "output.h"
#include "stream_statistics.h"
#include <inttypes.h>
#include <pthread.h>
#include <string.h>

enum { MAX_CAMERAS = 8 };

typedef struct camera_stream {
    struct several_cameras *all;
    oc_device *device;
    oc_capture_session *session;
    oc_video_data_output *output;
    stream_statistics statistics;
    uint32_t pixel_format, width, height;   /* what the camera runs */
    oc_fraction rate;
    oc_hardware_cost cost;                  /* before its start, beside the cameras started before it */
    bool has_cost;
    char fallback[256];                     /* what --fit chose instead of the format asked, or "" */
} camera_stream;

typedef struct several_cameras {
    camera_stream cameras[MAX_CAMERAS];
    int count;
    oc_output_synchronizer *synchronizer;   /* with --synchronized: the two cameras' frames in pairs */
    uint64_t limit;
    pthread_mutex_t lock;
    int finished;          /* cameras that delivered `limit` frames */
    char failure[1024];    /* the first runtime error, naming its camera */
} several_cameras;

static void on_camera_frame(oc_video_data_output *output, const oc_frame *frame, void *user_data)
{
    (void)output;
    camera_stream *camera = user_data;
    several_cameras *all = camera->all;
    uint64_t number = statistics_record(&camera->statistics, oc_frame_timestamp_ns(frame));
    if (all->limit == 0 || number != all->limit) return;
    pthread_mutex_lock(&all->lock);
    bool done = ++all->finished == all->count;
    pthread_mutex_unlock(&all->lock);
    if (done) finish_wait();
}

/* A pair of frames captured at the same instant: each camera's frame counted; the run ends at `limit` pairs. */
static void on_pair(oc_output_synchronizer *synchronizer, const oc_frame *first, const oc_frame *second, void *user_data)
{
    (void)synchronizer;
    several_cameras *all = user_data;
    uint64_t number = statistics_record(&all->cameras[0].statistics, oc_frame_timestamp_ns(first));
    statistics_record(&all->cameras[1].statistics, oc_frame_timestamp_ns(second));
    if (all->limit && number == all->limit) finish_wait();
}

/* A runtime error (or a stall) of one camera ends the command, naming the camera. */
static void on_camera_event(oc_capture_session *session, oc_session_event event, oc_status error, const char *message,
                            void *user_data)
{
    (void)session;
    camera_stream *camera = user_data;
    if (event != OC_SESSION_EVENT_RUNTIME_ERROR && !(event == OC_SESSION_EVENT_INTERRUPTED && error == OC_ERROR_TIMEOUT)) return;
    pthread_mutex_lock(&camera->all->lock);
    if (!camera->all->failure[0]) {
        snprintf(camera->all->failure, sizeof camera->all->failure, "%s: %s", oc_device_unique_id(camera->device), message);
    }
    pthread_mutex_unlock(&camera->all->lock);
    finish_wait();
}

/* Whether the camera sends `pixel_format` itself at `width`x`height` (0x0: any size). */
static bool camera_sends(const oc_device *device, uint32_t pixel_format, uint32_t width, uint32_t height)
{
    for (size_t index = 0; index < oc_device_format_count(device); index++) {
        oc_format_info info = { .struct_size = sizeof info };
        if (oc_device_get_format(device, index, &info) != OC_OK || info.pixel_format != pixel_format) continue;
        if (!width || (info.sizes_are_range ? width >= info.min_width && width <= info.width && height >= info.min_height && height <= info.height
                                            : info.width == width && info.height == height)) {
            return true;
        }
    }
    return false;
}

static void close_cameras(several_cameras *all, oc_context *ctx)
{
    oc_output_synchronizer_destroy(all->synchronizer);   /* before its outputs */
    all->synchronizer = NULL;
    for (int i = 0; i < all->count; i++) {
        camera_stream *camera = &all->cameras[i];
        if (camera->session) oc_capture_session_destroy(camera->session);
        if (camera->output) oc_video_data_output_destroy(camera->output);
        if (camera->device) oc_device_release(camera->device);
    }
    oc_context_destroy(ctx);
}

/* Whether camera `i` is on the bus of camera `j` (both on USB). */
static bool same_bus(const several_cameras *all, int i, int j)
{
    return all->cameras[i].has_cost && all->cameras[j].has_cost && !strcmp(all->cameras[i].cost.bus, all->cameras[j].cost.bus);
}

/* The summary's "hardware_cost": each bus with the load the last camera started there saw (it
 * counts those before it, and whatever else the bus carried), and its cameras; "total" the most
 * loaded bus. */
static void hardware_cost_json(const several_cameras *all, json *w)
{
    double total = 0;
    for (int i = 0; i < all->count; i++) {
        if (all->cameras[i].has_cost && all->cameras[i].cost.total > total) total = all->cameras[i].cost.total;
    }
    json_key(w, "hardware_cost");
    json_object_begin(w);
    json_key(w, "total"); json_number(w, total);
    json_key(w, "buses");
    json_array_begin(w);
    for (int i = 0; i < all->count; i++) {
        bool first_on_bus = all->cameras[i].has_cost;
        for (int j = 0; j < i && first_on_bus; j++) first_on_bus = !same_bus(all, i, j);
        if (!first_on_bus) continue;
        double load = 0;
        for (int j = i; j < all->count; j++) {
            if (same_bus(all, i, j)) load = all->cameras[j].cost.total;
        }
        json_object_begin(w);
        json_key(w, "bus"); json_string(w, all->cameras[i].cost.bus);
        json_key(w, "load"); json_number(w, load);
        json_key(w, "cameras");
        json_array_begin(w);
        for (int j = i; j < all->count; j++) {
            if (same_bus(all, i, j)) json_string(w, oc_device_unique_id(all->cameras[j].device));
        }
        json_array_end(w);
        json_object_end(w);
    }
    json_array_end(w);
    json_object_end(w);
}

static uint64_t camera_dropped(const camera_stream *camera)
{
    uint64_t dropped = 0;
    for (int reason = OC_DROP_LATE; reason <= OC_DROP_CORRUPT; reason++) {
        dropped += oc_video_data_output_dropped_frames(camera->output, (oc_drop_reason)reason);
    }
    return dropped;
}

/* The pixel format and size the camera's frames were delivered in: what was asked, else what it ran. */
static void delivered_format(const camera_stream *camera, const stream_request *request, char name[64], uint32_t *width, uint32_t *height)
{
    name[0] = '\0';
    oc_pixel_format_name(request->pixel_format ? request->pixel_format : camera->pixel_format, name, 64);
    *width = request->width ? request->width : camera->width;
    *height = request->height ? request->height : camera->height;
}

static void summary_json(several_cameras *all, const stream_request *request, strbuf *out)
{
    json w;
    json_start(&w, out);
    json_object_begin(&w);
    json_key(&w, "cameras");
    json_array_begin(&w);
    for (int i = 0; i < all->count; i++) {
        camera_stream *camera = &all->cameras[i];
        char name[64];
        uint32_t width, height;
        delivered_format(camera, request, name, &width, &height);
        json_object_begin(&w);
        json_key(&w, "unique_id"); json_string(&w, oc_device_unique_id(camera->device));
        json_key(&w, "frames"); json_int(&w, (int64_t)statistics_count(&camera->statistics));
        json_key(&w, "dropped"); json_int(&w, (int64_t)camera_dropped(camera));
        json_key(&w, "fps"); json_number(&w, statistics_fps(&camera->statistics));
        json_key(&w, "pixel_format"); json_string(&w, name);
        json_key(&w, "width"); json_int(&w, width);
        json_key(&w, "height"); json_int(&w, height);
        json_object_end(&w);
    }
    json_array_end(&w);
    hardware_cost_json(all, &w);
    json_key(&w, "fallbacks");
    json_array_begin(&w);
    for (int i = 0; i < all->count; i++) {
        if (!all->cameras[i].fallback[0]) continue;
        json_object_begin(&w);
        json_key(&w, "unique_id"); json_string(&w, oc_device_unique_id(all->cameras[i].device));
        json_key(&w, "reason"); json_string(&w, all->cameras[i].fallback);
        json_object_end(&w);
    }
    json_array_end(&w);
    if (all->synchronizer) {
        json_key(&w, "pairs"); json_int(&w, (int64_t)oc_output_synchronizer_delivered_pairs(all->synchronizer));
        json_key(&w, "unmatched");
        json_int(&w, (int64_t)(oc_output_synchronizer_unmatched_frames(all->synchronizer, OC_SYNC_STREAM_FIRST)
                               + oc_output_synchronizer_unmatched_frames(all->synchronizer, OC_SYNC_STREAM_SECOND)));
    }
    json_object_end(&w);
}

/* A line per camera, then its bus cost and any fallback. */
static void summary_text(several_cameras *all, const stream_request *request, strbuf *out)
{
    for (int i = 0; i < all->count; i++) {
        camera_stream *camera = &all->cameras[i];
        char name[64], fps[32];
        uint32_t width, height;
        delivered_format(camera, request, name, &width, &height);
        text_printf(out, "%s%s: %" PRIu64 " frames, %" PRIu64 " dropped, %s fps, %s %ux%u", i ? "\n" : "",
                    oc_device_unique_id(camera->device), statistics_count(&camera->statistics), camera_dropped(camera),
                    number_text(statistics_fps(&camera->statistics), fps), name, width, height);
        if (camera->has_cost) text_printf(out, "; %s at %.0f%% with it", camera->cost.bus, camera->cost.total * 100);
        if (camera->fallback[0]) text_printf(out, "; %s", camera->fallback);
    }
    if (all->synchronizer) {
        text_printf(out, "\n%" PRIu64 " pairs, %" PRIu64 " unmatched frames", oc_output_synchronizer_delivered_pairs(all->synchronizer),
                    oc_output_synchronizer_unmatched_frames(all->synchronizer, OC_SYNC_STREAM_FIRST)
                        + oc_output_synchronizer_unmatched_frames(all->synchronizer, OC_SYNC_STREAM_SECOND));
    }
}

int stream_cameras(const global_options *options, const char *const *specs, int count, const stream_request *request)
{
    if (count > MAX_CAMERAS) return usage_error("at most %d cameras in one stream", MAX_CAMERAS);
    if (request->synchronized && count != 2) return usage_error("--synchronized pairs the frames of two cameras");
    static several_cameras all = { .lock = PTHREAD_MUTEX_INITIALIZER };
    all.count = 0;
    all.synchronizer = NULL;
    all.limit = request->frames;
    sigset_t signals = block_termination_signals();
    oc_context *ctx = open_context(options);
    if (!ctx) return 1;
    for (int i = 0; i < count; i++) {
        camera_stream *camera = &all.cameras[all.count++];
        *camera = (camera_stream){ .all = &all, .statistics = { .lock = PTHREAD_MUTEX_INITIALIZER, .limit = request->frames } };
        camera->device = connected_device(ctx, specs[i]);
        if (!camera->device) {
            close_cameras(&all, ctx);
            return 1;
        }
        for (int j = 0; j < i; j++) {
            if (!strcmp(oc_device_unique_id(all.cameras[j].device), oc_device_unique_id(camera->device))) {
                close_cameras(&all, ctx);
                return usage_error("%s is named twice", specs[i]);
            }
        }
        if (oc_capture_session_create(ctx, &camera->session) != OC_OK
            || oc_capture_session_add_event_callback(camera->session, on_camera_event, camera, NULL) != OC_OK
            || oc_video_data_output_create(&camera->output) != OC_OK
            || oc_video_data_output_set_format(camera->output, request->pixel_format, request->width, request->height) != OC_OK
            || oc_video_data_output_set_max_frame_rate(camera->output, request->max_rate) != OC_OK
            || oc_video_data_output_set_frame_callback(camera->output, on_camera_frame, camera) != OC_OK
            || oc_capture_session_set_input(camera->session, camera->device) != OC_OK
            || oc_capture_session_add_output(camera->session, camera->output) != OC_OK) {
            char message[1024];
            snprintf(message, sizeof message, "%s: %s", oc_device_unique_id(camera->device), oc_last_error_message());
            close_cameras(&all, ctx);
            return fail(1, "%s", message);
        }
    }
    if (request->synchronized
        && (oc_output_synchronizer_create_for_cameras(all.cameras[0].output, all.cameras[1].output, &all.synchronizer) != OC_OK
            || oc_output_synchronizer_set_callback(all.synchronizer, on_pair, &all) != OC_OK)) {
        char message[1024];
        snprintf(message, sizeof message, "%s", oc_last_error_message());
        close_cameras(&all, ctx);
        return fail(1, "%s", message);
    }
    /* One after another: each camera's cost, read before it starts, counts those already streaming. */
    for (int i = 0; i < all.count; i++) {
        camera_stream *camera = &all.cameras[i];
        const char *id = oc_device_unique_id(camera->device);
        camera->cost.struct_size = sizeof camera->cost;
        camera->has_cost = oc_capture_session_get_hardware_cost(camera->session, &camera->cost) == OC_OK;
        char message[1024] = "";
        if (oc_capture_session_start_running(camera->session) != OC_OK) {
            snprintf(message, sizeof message, "%s: %s", id, oc_last_error_message());
        } else {
            oc_capture_session_get_active_format(camera->session, &camera->pixel_format, &camera->width, &camera->height, &camera->rate);
            /* A format the camera sends itself that it does not run: the bus had no room for it. */
            bool fell_back = request->pixel_format && camera->pixel_format != request->pixel_format
                && camera_sends(camera->device, request->pixel_format, request->width, request->height);
            if (fell_back) {
                char asked[64] = "", chosen[64] = "";
                oc_pixel_format_name(request->pixel_format, asked, sizeof asked);
                oc_pixel_format_name(camera->pixel_format, chosen, sizeof chosen);
                snprintf(camera->fallback, sizeof camera->fallback, "%s %ux%u instead of %s: %s at %.0f%% of %s", chosen,
                         camera->width, camera->height, asked, asked, camera->cost.total * 100, camera->cost.bus);
                if (!request->fit) {
                    snprintf(message, sizeof message, "%s: %s %ux%u does not fit %s beside the cameras started before it "
                             "(--fit lets it run %s instead)", id, asked, camera->width, camera->height, camera->cost.bus, chosen);
                }
            }
        }
        if (message[0]) {
            for (int j = 0; j <= i; j++) oc_capture_session_stop_running(all.cameras[j].session);
            close_cameras(&all, ctx);
            return fail(1, "%s", message);
        }
    }
    wait_for_termination(&signals, request->seconds, NULL, NULL);
    for (int i = 0; i < all.count; i++) oc_capture_session_stop_running(all.cameras[i].session);

    strbuf out;
    text_init(&out);
    if (request->as_json) {
        summary_json(&all, request, &out);
    } else {
        summary_text(&all, request, &out);
    }
    char failure[1024];
    pthread_mutex_lock(&all.lock);
    snprintf(failure, sizeof failure, "%s", all.failure);
    pthread_mutex_unlock(&all.lock);
    close_cameras(&all, ctx);
    emit(out.data);
    text_free(&out);
    return failure[0] ? fail(1, "%s", failure) : 0;
}
