/* `ocellus stream CAMERA CAMERA…`: several cameras at once in one multi-camera session, whose
 * formats are fitted to their USB buses together before anything streams (each camera's cost
 * counts the cameras before it); one summary for all of them (stream_cameras.h). */
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
    oc_capture_session *branch;             /* the camera's branch of the session (the session's) */
    oc_video_data_output *output;
    stream_statistics statistics;
    uint32_t pixel_format, width, height;   /* what the camera runs */
    oc_fraction rate;
    oc_hardware_cost cost;                  /* before the start, beside the cameras before it */
    bool has_cost;
    char fallback[512];                     /* what --fit ran instead of the format wanted, and why, or "" */
} camera_stream;

typedef struct several_cameras {
    camera_stream cameras[MAX_CAMERAS];
    int count;
    oc_multi_cam_session *session;
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

/* A runtime error (or a stall) of one camera ends the command, naming the camera; a fallback is
 * kept for the summary. */
static void on_session_event(oc_multi_cam_session *session, oc_session_event event, const char *camera, oc_status error,
                             const char *message, void *user_data)
{
    (void)session;
    several_cameras *all = user_data;
    bool ends = event == OC_SESSION_EVENT_RUNTIME_ERROR || (event == OC_SESSION_EVENT_INTERRUPTED && error == OC_ERROR_TIMEOUT);
    pthread_mutex_lock(&all->lock);
    if (event == OC_SESSION_EVENT_FORMAT_FALLBACK) {
        /* "ID runs … instead of …: why": the summary keeps what follows the ID. */
        size_t length = strlen(camera);
        const char *reason = strncmp(message, camera, length) || message[length] != ' ' ? message : message + length + 1;
        for (int i = 0; i < all->count; i++) {
            camera_stream *stream = &all->cameras[i];
            if (!strcmp(oc_device_unique_id(stream->device), camera)) snprintf(stream->fallback, sizeof stream->fallback, "%s", reason);
        }
    }
    if (ends && !all->failure[0]) {
        /* A runtime error's message starts with the camera's ID already. */
        bool named = !strncmp(message, camera, strlen(camera));
        snprintf(all->failure, sizeof all->failure, "%s%s%s", named ? "" : camera, named ? "" : ": ", message);
    }
    pthread_mutex_unlock(&all->lock);
    if (ends) finish_wait();
}

static void close_cameras(several_cameras *all, oc_context *ctx)
{
    oc_output_synchronizer_destroy(all->synchronizer);   /* before its outputs */
    all->synchronizer = NULL;
    oc_multi_cam_session_destroy(all->session);          /* and its branches */
    all->session = NULL;
    for (int i = 0; i < all->count; i++) {
        camera_stream *camera = &all->cameras[i];
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

/* The summary's "hardware_cost": each bus with the load its last camera's share saw (it counts
 * those before it, and whatever else the bus carried), and its cameras; "total" the most loaded bus. */
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
static uint32_t delivered_format(const camera_stream *camera, const stream_request *request, uint32_t *width, uint32_t *height)
{
    *width = request->width ? request->width : camera->width;
    *height = request->height ? request->height : camera->height;
    return request->pixel_format ? request->pixel_format : camera->pixel_format;
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
        uint32_t width, height, pixel_format = delivered_format(camera, request, &width, &height);
        json_object_begin(&w);
        json_key(&w, "unique_id"); json_string(&w, oc_device_unique_id(camera->device));
        json_key(&w, "frames"); json_int(&w, (int64_t)statistics_count(&camera->statistics));
        json_key(&w, "dropped"); json_int(&w, (int64_t)camera_dropped(camera));
        json_key(&w, "fps"); json_number(&w, statistics_fps(&camera->statistics));
        pixel_format_json(&w, pixel_format);
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
    summary_json_end(&w);
}

/* A line per camera, then its bus cost and any fallback. */
static void summary_text(several_cameras *all, const stream_request *request, strbuf *out)
{
    for (int i = 0; i < all->count; i++) {
        camera_stream *camera = &all->cameras[i];
        char name[64] = "", fps[32];
        uint32_t width, height;
        oc_pixel_format_name(delivered_format(camera, request, &width, &height), name, sizeof name);
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
    all.session = NULL;
    all.synchronizer = NULL;
    all.limit = request->frames;
    all.failure[0] = '\0';
    sigset_t signals = block_termination_signals();
    oc_context *ctx = open_context(options);
    if (!ctx) return 1;
    char message[1024];
    if (oc_multi_cam_session_create(ctx, &all.session) != OC_OK
        || oc_multi_cam_session_add_event_callback(all.session, on_session_event, &all, NULL) != OC_OK) {
        snprintf(message, sizeof message, "%s", oc_last_error_message());
        close_cameras(&all, ctx);
        return fail(1, "%s", message);
    }
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
        /* Without --fit a format that does not fit is refused; with it one that fits runs, listed in "fallbacks". */
        oc_status status = OC_OK;
        if (oc_video_data_output_create(&camera->output) != OC_OK
            || oc_video_data_output_set_format(camera->output, request->pixel_format, request->width, request->height) != OC_OK
            || oc_video_data_output_set_max_frame_rate(camera->output, request->max_rate) != OC_OK
            || oc_video_data_output_set_frame_callback(camera->output, on_camera_frame, camera) != OC_OK
            || oc_multi_cam_session_add_camera(all.session, camera->device, &camera->branch) != OC_OK
            || (status = oc_capture_session_set_bus_fit(camera->branch, request->fit ? OC_BUS_FIT_ON : OC_BUS_FIT_OFF)) != OC_OK
            || (status = oc_capture_session_add_output(camera->branch, camera->output)) != OC_OK) {
            const char *id = oc_device_unique_id(camera->device), *error = oc_last_error_message();
            bool named = !strncmp(error, id, strlen(id));   /* the library's messages mostly start with the camera */
            snprintf(message, sizeof message, "%s%s%s%s", named ? "" : id, named ? "" : ": ", error,
                     status == OC_ERROR_NO_RESOURCES && !request->fit ? " (--fit lets it run a format that fits)" : "");
            close_cameras(&all, ctx);
            return fail(1, "%s", message);
        }
    }
    if (request->synchronized
        && (oc_output_synchronizer_create_for_cameras(all.cameras[0].output, all.cameras[1].output, &all.synchronizer) != OC_OK
            || oc_output_synchronizer_set_callback(all.synchronizer, on_pair, &all) != OC_OK)) {
        snprintf(message, sizeof message, "%s", oc_last_error_message());
        close_cameras(&all, ctx);
        return fail(1, "%s", message);
    }
    /* Each camera's share before the start, beside the cameras before it. */
    for (int i = 0; i < all.count; i++) {
        camera_stream *camera = &all.cameras[i];
        camera->cost.struct_size = sizeof camera->cost;
        camera->has_cost = oc_capture_session_get_hardware_cost(camera->branch, &camera->cost) == OC_OK;
    }
    oc_status started = oc_multi_cam_session_start_running(all.session);
    if (started != OC_OK) {
        snprintf(message, sizeof message, "%s%s", oc_last_error_message(),
                 started == OC_ERROR_NO_RESOURCES && !request->fit ? " (--fit lets it run a format that fits)" : "");
        close_cameras(&all, ctx);
        return fail(1, "%s", message);
    }
    for (int i = 0; i < all.count; i++) {
        camera_stream *camera = &all.cameras[i];
        oc_capture_session_get_active_format(camera->branch, &camera->pixel_format, &camera->width, &camera->height, &camera->rate);
    }
    wait_for_termination(&signals, request->seconds, NULL, NULL);
    oc_multi_cam_session_stop_running(all.session);

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
