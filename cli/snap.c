/* `ocellus snap`: one photo, or with --depth a picture and the depth map of the same instant
 * (a synchronizer), as PNGs. */
#include "args.h"
#include "capture_session.h"
#include "commands.h"
#include "json.h"
#include "library.h"
#include "output.h"
#include "png.h"
#include "rotation.h"
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

typedef struct depth_snapshot {
    pthread_mutex_t lock;
    oc_frame *picture, *depth;   /* retained: the first pair (or, on a depth-only camera, the first map) */
} depth_snapshot;

static void keep_first(depth_snapshot *snapshot, const oc_frame *picture, const oc_frame *depth)
{
    pthread_mutex_lock(&snapshot->lock);
    bool first = !snapshot->depth;
    if (first) {
        snapshot->picture = picture ? oc_frame_retain(picture) : NULL;
        snapshot->depth = oc_frame_retain(depth);
    }
    pthread_mutex_unlock(&snapshot->lock);
    if (first) finish_wait();
}

static void on_pair(oc_output_synchronizer *synchronizer, const oc_frame *picture, const oc_frame *depth, void *user_data)
{
    (void)synchronizer;
    keep_first(user_data, picture, depth);
}

static void on_lone_map(oc_depth_data_output *output, const oc_frame *depth, void *user_data)
{
    (void)output;
    keep_first(user_data, NULL, depth);
}

/* Writes `frame` as DIR/NAME.png into `w` as {"path", "bytes", "width", "height"}: 0, or 1 with the reason said. */
static int write_frame_png(json *w, const char *directory, const char *name, const oc_frame *frame, int bits)
{
    char path[4096], error[256];
    snprintf(path, sizeof path, "%s/%s.png", directory, name);
    size_t size = 0;
    uint32_t stride = 0;
    const uint8_t *rows = oc_frame_plane_data(frame, 0, &size, &stride);
    if (!rows) return fail(1, "%s: %s", name, oc_last_error_message());
    if (write_png(path, rows, oc_frame_width(frame), oc_frame_height(frame), stride, bits, error)) return fail(1, "%s", error);
    struct stat info;
    json_key(w, "path"); json_string(w, path);
    json_key(w, "bytes"); json_int(w, stat(path, &info) == 0 ? (int64_t)info.st_size : 0);
    json_key(w, "width"); json_int(w, oc_frame_width(frame));
    json_key(w, "height"); json_int(w, oc_frame_height(frame));
    return 0;
}

/* `snap --depth -o DIR`: a picture and the depth map of one instant (a synchronizer), as PNGs in DIR. */
static int snap_depth(const global_options *options, const char *spec, const char *directory, bool as_json)
{
    if (mkdir(directory, 0755) != 0 && errno != EEXIST) return fail(1, "cannot create %s: %s", directory, strerror(errno));
    static capture_run c;
    if (capture_open(&c, options, spec)) return 1;
    static depth_snapshot snapshot = { .lock = PTHREAD_MUTEX_INITIALIZER };
    oc_depth_data_output *depth = NULL;
    oc_video_data_output *picture = NULL;
    oc_output_synchronizer *synchronizer = NULL;
    bool own_picture = false;   /* a depth-only camera's picture is its depth: the map alone */
    for (size_t i = 0; i < oc_device_format_count(c.device) && !own_picture; i++) {
        for (size_t j = 0; j < oc_device_depth_format_count(c.device); j++) {
            if (!oc_device_depth_format_runs_beside(c.device, i, j)) continue;
            oc_format_info format = { .struct_size = sizeof format }, depth_format = { .struct_size = sizeof depth_format };
            oc_device_get_format(c.device, i, &format);
            oc_device_get_depth_format(c.device, j, &depth_format);
            own_picture = format.pixel_format != depth_format.pixel_format;
        }
    }
    bool set_up = oc_depth_data_output_create(&depth) == OC_OK;
    if (set_up && own_picture) {
        set_up = oc_video_data_output_create(&picture) == OC_OK
            && oc_video_data_output_set_format(picture, OC_PIXEL_FORMAT_RGB24, 0, 0) == OC_OK
            && oc_capture_session_add_output(c.session, picture) == OC_OK
            && oc_output_synchronizer_create(picture, depth, &synchronizer) == OC_OK
            && oc_output_synchronizer_set_callback(synchronizer, on_pair, &snapshot) == OC_OK;
    } else if (set_up) {
        set_up = oc_depth_data_output_set_frame_callback(depth, on_lone_map, &snapshot) == OC_OK;
    }
    set_up = set_up && oc_capture_session_add_depth_output(c.session, depth) == OC_OK;
    int status = set_up ? capture_start(&c) : capture_fail(&c, oc_last_error_message());
    if (status) goto release_outputs;   /* the session is closed, and said why */
    capture_wait(&c, 15, NULL, NULL);
    char failure_buffer[1024];
    const char *problem = capture_failure(&c, failure_buffer);
    oc_capture_session_stop_running(c.session);
    oc_output_synchronizer_destroy(synchronizer);
    synchronizer = NULL;
    pthread_mutex_lock(&snapshot.lock);
    if (!snapshot.depth) {
        pthread_mutex_unlock(&snapshot.lock);
        status = capture_fail(&c, problem ? problem : own_picture ? "no picture and depth map of one instant within 15 s"
                                                                  : "no depth map within 15 s");
        goto release_outputs;
    }
    strbuf out;
    text_init(&out);
    json w;
    json_start(&w, &out);
    json_object_begin(&w);
    if (snapshot.picture) status = write_frame_png(&w, directory, "picture", snapshot.picture, 8);
    json_key(&w, "depth");
    json_object_begin(&w);
    if (!status) status = write_frame_png(&w, directory, "depth", snapshot.depth, 16);
    char name[64] = "";
    oc_pixel_format_name(oc_frame_pixel_format(snapshot.depth), name, sizeof name);
    pixel_format_json(&w, oc_frame_pixel_format(snapshot.depth));
    json_key(&w, "unit_m"); json_number(&w, oc_frame_depth_unit(snapshot.depth));
    json_key(&w, "timestamp_ns"); json_int(&w, (int64_t)oc_frame_timestamp_ns(snapshot.depth));
    json_object_end(&w);
    if (snapshot.picture) {
        json_key(&w, "picture_timestamp_ns"); json_int(&w, (int64_t)oc_frame_timestamp_ns(snapshot.picture));
    }
    summary_json_end(&w);
    if (!as_json) {
        text_clear(&out);
        text_printf(&out, "%s/depth.png: %ux%u 16-bit depth (%s, unit %g m)%s", directory, oc_frame_width(snapshot.depth),
                    oc_frame_height(snapshot.depth), name, oc_frame_depth_unit(snapshot.depth),
                    snapshot.picture ? ", with picture.png of the same instant" : "");
    }
    if (!status) emit(out.data);
    text_free(&out);
    oc_frame_release(snapshot.picture);
    oc_frame_release(snapshot.depth);
    pthread_mutex_unlock(&snapshot.lock);
    capture_close(&c);
release_outputs:
    if (synchronizer) oc_output_synchronizer_destroy(synchronizer);
    if (picture) oc_video_data_output_destroy(picture);
    if (depth) oc_depth_data_output_destroy(depth);
    return status;
}

typedef struct photo_result {
    pthread_mutex_t lock;
    bool done;
    oc_status status;
    size_t bytes;
    uint32_t width, height;
    uint16_t orientation;
    char message[1024];
} photo_result;

static void on_photo(oc_photo_output *output, oc_status status, const oc_photo *photo, const char *message, void *user_data)
{
    (void)output;
    photo_result *result = user_data;
    pthread_mutex_lock(&result->lock);
    result->done = true;
    result->status = status;
    if (photo) {
        result->bytes = photo->size;
        result->width = photo->width;
        result->height = photo->height;
        result->orientation = photo->orientation;
    }
    snprintf(result->message, sizeof result->message, "%s", message ? message : "");
    pthread_mutex_unlock(&result->lock);
    finish_wait();
}

int command_snap(const global_options *options, arguments *a)
{
    stored_options stored;
    int status = stored_capture_options(a, "snap", &stored);
    if (status) return status;
    bool rotate_pixels = args_flag(a, "--rotate-pixels");
    bool depth = args_flag(a, "--depth");
    if (args_finish(a)) return 2;
    if (depth) return snap_depth(options, stored.spec, stored.path, stored.as_json);
    const char *path = stored.path;
    bool as_json = stored.as_json;

    static capture_run c;
    if (capture_open(&c, options, stored.spec)) return 1;
    int32_t angle = capture_angle(c.ctx, c.device, stored.host, stored.sensor_bus);
    if (angle < 0) {
        capture_close(&c);
        return 1;
    }
    oc_photo_output *photo_output = NULL;
    static photo_result result = { .lock = PTHREAD_MUTEX_INITIALIZER };
    oc_photo_settings settings = { .struct_size = sizeof settings, .apply_rotation_to_pixels = rotate_pixels, .path = path };
    if (oc_photo_output_create(&photo_output) != OC_OK
        || oc_photo_output_set_size(photo_output, stored.width, stored.height) != OC_OK
        || oc_photo_output_set_rotation_angle(photo_output, angle) != OC_OK
        || (!stored.width && oc_capture_session_set_preset(c.session, OC_SESSION_PRESET_PHOTO) != OC_OK)
        || oc_capture_session_add_photo_output(c.session, photo_output) != OC_OK) {
        status = capture_fail(&c, oc_last_error_message());
    } else if (!(status = capture_start(&c)) && oc_photo_output_capture(photo_output, &settings, on_photo, &result) != OC_OK) {
        status = capture_fail(&c, oc_last_error_message());
    }
    if (status) {
        if (photo_output) oc_photo_output_destroy(photo_output);
        return status;
    }
    capture_wait(&c, 15, NULL, NULL);
    char failure_buffer[1024];
    const char *problem = capture_failure(&c, failure_buffer);
    /* Stopped first, so that taking the output away does not reopen a camera that stalled. */
    if (problem) oc_capture_session_stop_running(c.session);
    oc_photo_output_destroy(photo_output);   /* answers the request if the session ended first */
    capture_close(&c);
    pthread_mutex_lock(&result.lock);
    if (!result.done) status = fail(1, "no photo within 15 s: %s", problem ? problem : "the camera sent no usable frame");
    else if (result.status != OC_OK) status = fail(1, "%s", problem ? problem : result.message);   /* why, not "the output was closed" */
    if (status) {
        pthread_mutex_unlock(&result.lock);
        return status;
    }
    strbuf out;
    text_init(&out);
    if (as_json) {
        json w;
        json_start(&w, &out);
        json_object_begin(&w);
        json_key(&w, "path"); json_string(&w, path);
        json_key(&w, "bytes"); json_int(&w, (int64_t)result.bytes);
        json_key(&w, "width"); json_int(&w, result.width);
        json_key(&w, "height"); json_int(&w, result.height);
        json_key(&w, "duration"); json_number(&w, 0);
        json_key(&w, "orientation"); json_int(&w, result.orientation);   /* EXIF's 1-8; record's is degrees */
        json_key(&w, "exif_orientation"); json_int(&w, result.orientation);
        summary_json_end(&w);
    } else {
        text_printf(&out, "%s: %ux%u JPEG, %zu bytes, EXIF orientation %u", path, result.width, result.height, result.bytes,
                    result.orientation);
    }
    pthread_mutex_unlock(&result.lock);
    emit(out.data);
    text_free(&out);
    return 0;
}
