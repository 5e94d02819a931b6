/* `ocellus stream`: frames counted, timed and written as they come. */
#include "args.h"
#include "capture_session.h"
#include "commands.h"
#include "depth_counter.h"
#include "json.h"
#include "library.h"
#include "metadata_lines.h"
#include "output.h"
#include "stream_cameras.h"
#include "stream_statistics.h"
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define OC_PIXEL_FORMAT_BGRX OC_FOURCC('X', 'R', '2', '4')

/* Bytes of one row of plane `plane` of a frame `width` pixels wide; 0: compressed (written whole). */
static size_t row_bytes(uint32_t format, uint32_t width, uint32_t plane)
{
    switch (format) {
    case OC_PIXEL_FORMAT_YUYV: case OC_PIXEL_FORMAT_UYVY: return (size_t)width * 2;
    case OC_PIXEL_FORMAT_NV12: case OC_PIXEL_FORMAT_GRAY8: return width;
    case OC_PIXEL_FORMAT_I420: return plane == 0 ? width : (width + 1) / 2;
    case OC_PIXEL_FORMAT_BGRA: case OC_PIXEL_FORMAT_RGBA: case OC_PIXEL_FORMAT_BGRX: return (size_t)width * 4;
    case OC_PIXEL_FORMAT_BGR24: case OC_PIXEL_FORMAT_RGB24: return (size_t)width * 3;
    default: return 0;
    }
}

/* Frames into a file or pipe, as ffmpeg and ffplay read them (`-f rawvideo` with the pixel format and
 * size, or `-f mjpeg`): each plane's rows without stride padding, or the compressed frame as it came.
 * Runs on the stream thread; nothing is allocated per frame. */
typedef struct frame_writer {
    int fd;
    bool closed_by_reader;
    int error;   /* errno of a failed write other than the reader leaving (ENOSPC, EIO, ...); 0 if none */
} frame_writer;

static bool write_all(frame_writer *writer, const uint8_t *bytes, size_t count)
{
    size_t written = 0;
    while (written < count) {
        ssize_t result = write(writer->fd, bytes + written, count - written);
        if (result < 0 && errno == EINTR) continue;
        if (result <= 0) {
            /* Only EPIPE is a reader that went away (ffplay closed): a full disk or a failing
             * device is an error the command reports. */
            writer->closed_by_reader = true;
            if (result == 0 || errno != EPIPE) writer->error = result == 0 ? ENOSPC : errno;
            return false;
        }
        written += (size_t)result;
    }
    return true;
}

/* False once the reader went away. */
static bool write_frame(frame_writer *writer, const oc_frame *frame)
{
    if (writer->closed_by_reader) return false;
    uint32_t format = oc_frame_pixel_format(frame), width = oc_frame_width(frame);
    for (uint32_t plane = 0; plane < oc_frame_plane_count(frame); plane++) {
        size_t size = 0;
        uint32_t stride = 0;
        const uint8_t *data = oc_frame_plane_data(frame, plane, &size, &stride);
        if (!data) continue;
        size_t row = row_bytes(format, width, plane);
        if (row == 0 || stride <= row) {
            if (!write_all(writer, data, size)) return false;
            continue;
        }
        for (size_t offset = 0; offset + row <= size; offset += stride) {
            if (!write_all(writer, data + offset, row)) return false;
        }
    }
    return true;
}

typedef struct stream_run {
    stream_statistics statistics;
    frame_writer *writer;
    bool frame_events;
    uint64_t limit;
    oc_video_data_output *output;
    strbuf event_line;   /* the stream thread's own, reused: no allocation per frame once grown */
} stream_run;

static void on_frame(oc_video_data_output *output, const oc_frame *frame, void *user_data)
{
    (void)output;
    stream_run *run = user_data;
    /* Exactly `frames` frames are reported, even if a few more arrive before the stream stops. */
    uint64_t count = statistics_record(&run->statistics, oc_frame_timestamp_ns(frame));
    if (count == 0) return;
    if (run->writer && !write_frame(run->writer, frame)) finish_wait();   /* the reader went away: stop */
    if (run->frame_events) {
        size_t bytes = 0;
        for (uint32_t plane = 0; plane < oc_frame_plane_count(frame); plane++) {
            size_t size = 0;
            if (oc_frame_plane_data(frame, plane, &size, NULL)) bytes += size;
        }
        text_clear(&run->event_line);
        text_printf(&run->event_line,
                    "{\"event\": \"frame\", \"sequence\": %" PRIu64 ", \"timestamp_ns\": %" PRIu64 ", \"bytes\": %zu, \"corrupt\": %s}",
                    oc_frame_sequence(frame), oc_frame_timestamp_ns(frame), bytes, oc_frame_is_corrupt(frame) ? "true" : "false");
        emit(run->event_line.data);
    }
    if (run->limit > 0 && count == run->limit) finish_wait();
}

static uint64_t dropped_frames(oc_video_data_output *output)
{
    uint64_t total = 0;
    for (int reason = OC_DROP_LATE; reason <= OC_DROP_CORRUPT; reason++) {
        total += oc_video_data_output_dropped_frames(output, (oc_drop_reason)reason);
    }
    return total;
}

static void live_line(void *user_data)
{
    stream_run *run = user_data;
    char fps[32], median[32];
    char line[256];
    snprintf(line, sizeof line, "%" PRIu64 " frames, %s fps, %" PRIu64 " dropped, latency median %s ms",
             statistics_count(&run->statistics), number_text(statistics_fps(&run->statistics), fps),
             dropped_frames(run->output), number_text(statistics_latency(&run->statistics, 0.5), median));
    emit(line);
}

/* The summary's "center_stage" member: whether it framed, and its window at the end. */
static void center_stage_json(const oc_center_stage_state *framing, json *w)
{
    json_key(w, "center_stage");
    json_object_begin(w);
    json_key(w, "active"); json_bool(w, framing->active);
    json_key(w, "window");
    json_array_begin(w);
    for (int i = 0; i < 4; i++) json_number(w, framing->window[i]);
    json_array_end(w);
    json_object_end(w);
}

int command_stream(const global_options *options, arguments *a)
{
    const char *spec = args_leading_positional(a);   /* none: the system preferred camera */
    bool as_json = args_flag(a, "--json");
    bool frame_events = args_flag(a, "--frame-events");
    bool depth = args_flag(a, "--depth");
    const char *format_name = args_value(a, "--format");
    uint32_t pixel_format = 0, width = 0, height = 0;
    if (format_name && oc_pixel_format_from_name(format_name, &pixel_format) != OC_OK) return usage_error("%s", oc_last_error_message());
    const char *size = args_value(a, "--size");
    if (size && !parse_size(size, &width, &height)) return 2;
    const char *rate = args_value(a, "--fps");
    oc_fraction max_rate = { 0, 0 };
    if (rate && !parse_rate(rate, &max_rate)) return 2;
    const char *frames = args_value(a, "--frames");
    uint64_t limit = 0;
    if (frames) {
        char *end = NULL;
        long long count = strtoll(frames, &end, 10);
        if (!*frames || *end || count <= 0) return usage_error("bad frame count '%s'", frames);
        limit = (uint64_t)count;
    }
    const char *seconds_text = args_value(a, "--seconds");
    double seconds = 0;
    if (seconds_text && !parse_seconds(seconds_text, &seconds)) return 2;
    /* The synopsis's `--frames N | --seconds S` and `--json | --frame-events`: one of each. */
    if (frames && seconds_text) return usage_error("--frames and --seconds cannot be combined: give one");
    if (as_json && frame_events) return usage_error("--json and --frame-events cannot be combined (--frame-events ends with the summary)");
    const char *metadata_names = args_value(a, "--metadata");
    uint32_t metadata_types = 0;
    if (metadata_names && !metadata_lines_parse(metadata_names, &metadata_types)) return 2;
    const char *output_path = args_value(a, "--output");
    if (!output_path) output_path = args_value(a, "-o");
    bool face_exposure = !args_flag(a, "--no-face-exposure");
    bool face_focus = !args_flag(a, "--no-face-focus");
    bool center_stage = args_flag(a, "--center-stage");
    bool fit = args_flag(a, "--fit");
    bool synchronized = args_flag(a, "--synchronized");
    /* More cameras after the first: several at once. */
    const char *specs[16] = { spec };
    int camera_count = spec ? 1 : 0;
    for (const char *more; camera_count < 16 && (more = args_positional(a)); ) specs[camera_count++] = more;
    if (args_finish(a)) return 2;
    if (camera_count > 1 || synchronized) {
        if (output_path || depth || metadata_names || frame_events || center_stage || !face_exposure || !face_focus) {
            return usage_error("--output, --depth, --metadata, --frame-events, --center-stage and --no-face-* stream one camera");
        }
        stream_request request = { .pixel_format = pixel_format, .width = width, .height = height, .max_rate = max_rate,
                                   .frames = limit, .seconds = seconds, .fit = fit, .synchronized = synchronized,
                                   .as_json = as_json };
        return stream_cameras(options, specs, camera_count, &request);
    }

    static stream_run run = { .statistics = { .lock = PTHREAD_MUTEX_INITIALIZER } };
    run.statistics.limit = limit;
    run.limit = limit;
    run.frame_events = frame_events;
    text_init(&run.event_line);
    static capture_run c;
    if (capture_open(&c, options, spec)) return 1;
    /* Face-driven exposure and focus are on by default; the switches turn them off for this run. */
    if ((!face_exposure && oc_device_set_face_driven(c.device, OC_FACE_DRIVEN_EXPOSURE, false, false) != OC_OK)
        || (!face_focus && oc_device_set_face_driven(c.device, OC_FACE_DRIVEN_FOCUS, false, false) != OC_OK)) {
        return capture_fail(&c, oc_last_error_message());
    }
    if (center_stage && oc_device_set_center_stage(c.device, true) != OC_OK) return capture_fail(&c, oc_last_error_message());
    static frame_writer writer;
    if (output_path) {
        if (strcmp(output_path, "-") == 0) {
            writer.fd = 1;
            message_stream = stderr;   /* stdout carries the frames now */
        } else {
            writer.fd = open(output_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
            if (writer.fd < 0) {
                char message[1024];
                snprintf(message, sizeof message, "cannot write %s: %s", output_path, strerror(errno));
                return capture_fail(&c, message);
            }
        }
        signal(SIGPIPE, SIG_IGN);   /* a reader that quits (ffplay closed) is an EPIPE, not a kill */
        run.writer = &writer;
    }
    static depth_counter depth_maps;
    static metadata_lines metadata;
    if (oc_video_data_output_create(&run.output) != OC_OK
        || oc_video_data_output_set_format(run.output, pixel_format, width, height) != OC_OK
        || oc_video_data_output_set_max_frame_rate(run.output, max_rate) != OC_OK
        || oc_video_data_output_set_frame_callback(run.output, on_frame, &run) != OC_OK
        || oc_capture_session_add_output(c.session, run.output) != OC_OK
        || (depth && depth_counter_attach(&depth_maps, c.session) != OC_OK)
        || (metadata_types && metadata_lines_attach(&metadata, c.session, metadata_types, as_json) != OC_OK)
        || capture_start(&c)) {
        int status = c.ctx ? capture_fail(&c, oc_last_error_message()) : 1;   /* capture_start closed and said why */
        oc_video_data_output_destroy(run.output);
        oc_metadata_output_destroy(metadata.output);
        return status;
    }
    uint32_t active_format = 0, active_width = 0, active_height = 0;
    oc_fraction active_rate = { 0, 0 };
    oc_capture_session_get_active_format(c.session, &active_format, &active_width, &active_height, &active_rate);
    char name[64] = "", number[32];
    uint32_t shown_format = pixel_format ? pixel_format : active_format;
    oc_pixel_format_name(active_format, name, sizeof name);
    uint32_t shown_width = width ? width : active_width, shown_height = height ? height : active_height;
    bool live = !as_json && !frame_events;
    if (live && active_format) {
        strbuf line;
        text_init(&line);
        text_printf(&line, "streaming %s %ux%u at %s fps from %s", name, active_width,
                    active_height, number_text(active_rate.denominator ? (double)active_rate.numerator / active_rate.denominator : 0, number),
                    oc_device_name(c.device));
        emit(line.data);
        text_free(&line);
    }
    capture_wait(&c, seconds, live ? live_line : NULL, &run);
    char failure_buffer[1024];
    const char *problem = capture_failure(&c, failure_buffer);
    /* Where Center Stage framed the picture last, read while the session still streams. */
    oc_center_stage_state framing = { .struct_size = sizeof framing };
    if (center_stage) oc_device_get_center_stage(c.device, &framing);
    oc_capture_session_stop_running(c.session);
    uint64_t dropped = dropped_frames(run.output);
    uint64_t corrupt = oc_video_data_output_dropped_frames(run.output, OC_DROP_CORRUPT);
    oc_video_data_output_destroy(run.output);
    stream_statistics *s = &run.statistics;
    strbuf out;
    text_init(&out);
    char fps[32], median[32], p99[32];
    if (as_json || frame_events) {
        json w;
        json_start(&w, &out);
        json_object_begin(&w);
        json_key(&w, "frames"); json_int(&w, (int64_t)statistics_count(s));
        json_key(&w, "dropped"); json_int(&w, (int64_t)dropped);
        json_key(&w, "fps"); json_number(&w, statistics_fps(s));
        pixel_format_json(&w, shown_format);
        json_key(&w, "width"); json_int(&w, shown_width);
        json_key(&w, "height"); json_int(&w, shown_height);
        json_key(&w, "latency_ms");
        json_object_begin(&w);
        json_key(&w, "median"); json_number(&w, statistics_latency(s, 0.5));
        json_key(&w, "p99"); json_number(&w, statistics_latency(s, 0.99));
        json_object_end(&w);
        json_key(&w, "corrupt"); json_int(&w, (int64_t)corrupt);
        if (depth) depth_counter_json(&depth_maps, &w);
        if (metadata_types) metadata_lines_json(&metadata, &w);
        if (center_stage) center_stage_json(&framing, &w);
        summary_json_end(&w);
    } else {
        text_printf(&out, "%" PRIu64 " frames, %" PRIu64 " dropped, %s fps, latency median %s ms, p99 %s ms", statistics_count(s),
                    dropped, number_text(statistics_fps(s), fps), number_text(statistics_latency(s, 0.5), median),
                    number_text(statistics_latency(s, 0.99), p99));
        if (corrupt > 0) text_printf(&out, "; %" PRIu64 " of the dropped frames corrupt", corrupt);
    }
    if ((depth || metadata_types || center_stage) && !as_json && !frame_events) {
        json w;   /* the text summary gets the depth and metadata members too: one way of telling them */
        strbuf member;
        text_init(&member);
        json_start(&w, &member);
        json_object_begin(&w);
        if (depth) depth_counter_json(&depth_maps, &w);
        if (metadata_types) metadata_lines_json(&metadata, &w);
        if (center_stage) center_stage_json(&framing, &w);
        json_object_end(&w);
        text_printf(&out, "; %s", member.data);
        text_free(&member);
    }
    capture_close(&c);
    emit(out.data);
    text_free(&out);
    if (problem) return fail(1, "%s", problem);
    if (statistics_count(s) == 0 && corrupt > 0)
        return fail(1, "none of the %" PRIu64 " frames the camera sent could be decoded (corrupt)", corrupt);
    if (writer.error) return fail(1, "cannot write %s: %s (the output holds the frames written until then)", output_path, strerror(writer.error));
    if (run.writer && writer.fd > 2 && close(writer.fd) != 0) return fail(1, "cannot write %s: %s", output_path, strerror(errno));
    return 0;
}
