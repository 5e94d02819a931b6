/* capture_bench: instructions per delivered 1080p frame (callgrind) and latency,
 * for a capture session through the C ABI, next to the bare library calls on the
 * same frame. Run by bench/capture.sh inside the PipeWire test bed.
 *
 *   capture_bench session UNIQUE_ID FOURCC_OUT FRAMES   measured window of FRAMES frames
 *   capture_bench session-unsteered UNIQUE_ID FOURCC_OUT FRAMES
 *                                                       the same with face-driven exposure and focus off
 *   capture_bench bare-yuyv FRAMES                      YUY2ToNV12 on a 1080p frame
 *   capture_bench bare-mjpeg FRAMES                     turbojpeg decode + I420ToNV12, 1080p
 *   capture_bench bare-mjpeg-decode FRAMES              turbojpeg decode alone, 1080p
 *   capture_bench bare-mjpeg-video-range FRAMES         decode + I420ToNV12 + full to video range (a table)
 *   capture_bench bare-h264 UNIQUE_ID FRAMES            libavcodec decode + I420ToNV12 of the camera's own
 *                                                       access units (a loop of 8 from an IDR, taken first)
 *   capture_bench latency UNIQUE_ID FOURCC_OUT FRAMES   latency and time to first frame (no valgrind)
 *   capture_bench bare-pw-stream SERIAL FRAMES          a bare pw_stream consumer of the camera's YUY2
 *                                                       1080p (dequeue, touch, queue): the passthrough baseline
 *
 * Under callgrind (--instr-atstart=no) only the measured window is counted. */
#define _DEFAULT_SOURCE
#include <ocellus.h>

#include <stdbool.h>

#include <libavcodec/avcodec.h>
#include <libyuv/convert_from.h>
#include <libyuv/planar_functions.h>
#include <turbojpeg.h>
#include <valgrind/callgrind.h>
#include <pipewire/pipewire.h>
#include <spa/param/video/format-utils.h>

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define W 1920
#define H 1080
#define WARMUP 10

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static uint32_t fourcc(const char *s) { return (uint32_t)s[0] | (uint32_t)s[1] << 8 | (uint32_t)s[2] << 16 | (uint32_t)s[3] << 24; }

struct run {
    int frames, window;
    uint64_t *latency, first;
    /* The main thread sleeps on this until the run is done: a polling loop would be counted too. */
    pthread_mutex_t lock;
    pthread_cond_t finished;
    int done;
};

static void on_frame(oc_video_data_output *output, const oc_frame *frame, void *user_data)
{
    struct run *r = user_data;
    size_t size;
    (void)output;
    const uint8_t *data = oc_frame_plane_data(frame, 0, &size, NULL);
    volatile uint8_t sink = data[size / 2];   /* an app touches its frames */
    (void)sink;
    if (r->latency) {
        if (!r->first) r->first = now_ns();
        if (r->frames < r->window) r->latency[r->frames] = now_ns() - oc_frame_timestamp_ns(frame);
    } else if (r->frames == WARMUP) {
        CALLGRIND_ZERO_STATS;
        CALLGRIND_START_INSTRUMENTATION;
    } else if (r->frames == WARMUP + r->window) {
        CALLGRIND_STOP_INSTRUMENTATION;
        CALLGRIND_DUMP_STATS_AT("window");
    }
    if (++r->frames > (r->latency ? r->window - 1 : WARMUP + r->window)) {
        pthread_mutex_lock(&r->lock);
        r->done = 1;
        pthread_cond_signal(&r->finished);
        pthread_mutex_unlock(&r->lock);
    }
}

static int compare(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The second output of a two-output session: touches its frames as an app would. */
static void on_other_frame(oc_video_data_output *output, const oc_frame *frame, void *user_data)
{
    size_t size;
    (void)output;
    (void)user_data;
    const uint8_t *data = oc_frame_plane_data(frame, 0, &size, NULL);
    volatile uint8_t sink = data[size / 2];
    (void)sink;
}

/* `outputs` 2: a second passthrough output beside the measured one, so that each delivers on a
 * thread of its own (PipeWire frames copied for each). */
static int session(const char *unique_id, const char *out, int window, int latency, int outputs, bool face_driven)
{
    oc_context *ctx = NULL;
    oc_device_list *list = NULL;
    oc_context_options options;
    oc_context_options_init(&options);
    options.timeout_ms = 60000;   /* valgrind is slow */
    if (oc_context_create("org.ocellus.bench", &options, &ctx) || oc_context_copy_devices(ctx, &list)) {
        fprintf(stderr, "capture_bench: %s\n", oc_last_error_message());
        return 1;
    }
    oc_device *camera = NULL;
    for (size_t i = 0; i < oc_device_list_count(list); i++)
        if (!strcmp(oc_device_unique_id(oc_device_list_get(list, i)), unique_id)) camera = oc_device_list_get(list, i);
    struct run r = { 0, window, latency ? calloc((size_t)window, sizeof(uint64_t)) : NULL, 0,
                     PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0 };
    oc_capture_session *s = NULL;
    oc_video_data_output *o = NULL, *other = NULL;
    uint64_t start = now_ns();
    if (outputs == 2 && (oc_video_data_output_create(&other) || oc_video_data_output_set_format(other, fourcc(out), W, H)
                         || oc_video_data_output_set_frame_callback(other, on_other_frame, NULL))) {
        fprintf(stderr, "capture_bench: %s\n", oc_last_error_message());
        return 1;
    }
    if (camera && !face_driven && (oc_device_set_face_driven(camera, OC_FACE_DRIVEN_EXPOSURE, false, false)
                                   || oc_device_set_face_driven(camera, OC_FACE_DRIVEN_FOCUS, false, false))) {
        fprintf(stderr, "capture_bench: %s\n", oc_last_error_message());
        return 1;
    }
    if (!camera || oc_capture_session_create(ctx, &s) || oc_video_data_output_create(&o) ||
        oc_video_data_output_set_format(o, fourcc(out), W, H) || oc_video_data_output_set_frame_callback(o, on_frame, &r) ||
        oc_capture_session_set_input(s, camera) || oc_capture_session_add_output(s, o) ||
        (other && oc_capture_session_add_output(s, other)) || oc_capture_session_start_running(s)) {
        fprintf(stderr, "capture_bench: %s\n", oc_last_error_message());
        return 1;
    }
    pthread_mutex_lock(&r.lock);
    while (!r.done) pthread_cond_wait(&r.finished, &r.lock);
    pthread_mutex_unlock(&r.lock);
    oc_capture_session_stop_running(s);
    if (latency) {
        qsort(r.latency, (size_t)window, sizeof(uint64_t), compare);
        printf("latency_median_ms %.2f\nlatency_p99_ms %.2f\nfirst_frame_ms %.1f\n", r.latency[window / 2] / 1e6,
               r.latency[window * 99 / 100] / 1e6, (r.first - start) / 1e6);
    }
    uint64_t dropped = 0;
    for (int reason = 0; reason < 4; reason++) dropped += oc_video_data_output_dropped_frames(o, (oc_drop_reason)reason);
    printf("frames %d dropped %llu\n", r.frames, (unsigned long long)dropped);
    oc_capture_session_destroy(s);
    oc_video_data_output_destroy(o);
    oc_video_data_output_destroy(other);
    oc_device_list_free(list);
    oc_context_destroy(ctx);
    return 0;
}

/* What copying a 1080p YUYV frame costs (once per output that delivers on its own thread). */
static int bare_copy(int window)
{
    uint8_t *src = malloc(W * H * 2), *dst = malloc(W * H * 2);
    for (int i = 0; i < W * H * 2; i++) src[i] = (uint8_t)(i * 7);
    CALLGRIND_ZERO_STATS;
    CALLGRIND_START_INSTRUMENTATION;
    for (int i = 0; i < window; i++) {
        memcpy(dst, src, W * H * 2);
        __asm__ volatile("" : : "r"(dst) : "memory");
    }
    CALLGRIND_STOP_INSTRUMENTATION;
    CALLGRIND_DUMP_STATS_AT("window");
    free(src);
    free(dst);
    return 0;
}

static int bare_yuyv(int window)
{
    uint8_t *src = malloc(W * H * 2), *y = malloc(W * H), *uv = malloc(W * H / 2);
    for (int i = 0; i < W * H * 2; i++) src[i] = (uint8_t)(i * 7);
    CALLGRIND_ZERO_STATS;
    CALLGRIND_START_INSTRUMENTATION;
    for (int i = 0; i < window; i++) YUY2ToNV12(src, W * 2, y, W, uv, W, W, H);
    CALLGRIND_STOP_INSTRUMENTATION;
    CALLGRIND_DUMP_STATS_AT("window");
    printf("frames %d\n", window);
    return 0;
}

/* Full range to video range through a table per plane, as an app would write it: what
 * OpenCV-ready NV12 from a webcam's JPEG costs beyond the decode. */
static void to_video_range(uint8_t *plane, size_t count, int chroma)
{
    static uint8_t luma[256], chroma_table[256];
    if (!luma[255]) {
        for (int i = 0; i < 256; i++) {
            luma[i] = (uint8_t)((i * 219 + 4207) / 255);
            chroma_table[i] = (uint8_t)((i * 224 + 4095) / 255);
        }
    }
    const uint8_t *table = chroma ? chroma_table : luma;
    for (size_t i = 0; i < count; i++) plane[i] = table[plane[i]];
}

/* and_nv12: 0 decode alone, 1 + I420ToNV12, 2 + I420ToNV12 + video range (what a session delivers). */
static int bare_mjpeg(int window, int and_nv12)
{
    /* A 1080p JPEG of the same kind the virtual camera sends (4:2:0 from a ramp, full range as JFIF). */
    uint8_t *planes = malloc(W * H * 3 / 2), *jpeg = NULL, *y = malloc(W * H), *u = malloc(W * H / 4),
            *v = malloc(W * H / 4), *ny = malloc(W * H), *nuv = malloc(W * H / 2);
    for (int i = 0; i < W * H; i++) planes[i] = (uint8_t)((i % W) * 255 / W);
    memset(planes + W * H, 128, W * H / 2);
    unsigned long size = 0;
    tjhandle c = tjInitCompress(), d = tjInitDecompress();
    tjCompressFromYUV(c, planes, W, 1, H, TJSAMP_420, &jpeg, &size, 85, 0);
    unsigned char *dst[3] = { y, u, v };
    int strides[3] = { W, W / 2, W / 2 };
    CALLGRIND_ZERO_STATS;
    CALLGRIND_START_INSTRUMENTATION;
    for (int i = 0; i < window; i++) {
        tjDecompressToYUVPlanes(d, jpeg, size, dst, W, strides, H, 0);
        if (and_nv12) I420ToNV12(y, W, u, W / 2, v, W / 2, ny, W, nuv, W, W, H);
        if (and_nv12 == 2) {
            to_video_range(ny, (size_t)W * H, 0);
            to_video_range(nuv, (size_t)W * H / 2, 1);
        }
    }
    CALLGRIND_STOP_INSTRUMENTATION;
    CALLGRIND_DUMP_STATS_AT("window");
    printf("frames %d\n", window);
    return 0;
}

/* The camera's loop of access units, copied from a passthrough session, starting at an IDR. */
#define LOOP 8
struct units {
    uint8_t *data[LOOP];
    size_t size[LOOP];
    int count;
    pthread_mutex_t lock;
    pthread_cond_t full;
};

static int has_idr(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i + 3 < n; i++)
        if (p[i] == 0 && p[i + 1] == 0 && p[i + 2] == 1 && (p[i + 3] & 0x1f) == 5) return 1;
    return 0;
}

static void on_unit(oc_video_data_output *output, const oc_frame *frame, void *user_data)
{
    struct units *u = user_data;
    size_t size;
    (void)output;
    const uint8_t *data = oc_frame_plane_data(frame, 0, &size, NULL);
    pthread_mutex_lock(&u->lock);
    if (u->count < LOOP && (u->count > 0 || has_idr(data, size))) {
        u->data[u->count] = malloc(size);
        memcpy(u->data[u->count], data, size);
        u->size[u->count++] = size;
        if (u->count == LOOP) pthread_cond_signal(&u->full);
    }
    pthread_mutex_unlock(&u->lock);
}

static int bare_h264(const char *unique_id, int window)
{
    struct units u = { { 0 }, { 0 }, 0, PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER };
    oc_context *ctx = NULL;
    oc_device_list *list = NULL;
    oc_capture_session *s = NULL;
    oc_video_data_output *o = NULL;
    oc_device *camera = NULL;
    if (oc_context_create("org.ocellus.bench", NULL, &ctx) || oc_context_copy_devices(ctx, &list)) return 1;
    for (size_t i = 0; i < oc_device_list_count(list); i++)
        if (!strcmp(oc_device_unique_id(oc_device_list_get(list, i)), unique_id)) camera = oc_device_list_get(list, i);
    if (!camera || oc_capture_session_create(ctx, &s) || oc_video_data_output_create(&o) ||
        oc_video_data_output_set_frame_callback(o, on_unit, &u) || oc_capture_session_set_input(s, camera) ||
        oc_capture_session_add_output(s, o) || oc_capture_session_start_running(s)) {
        fprintf(stderr, "capture_bench: %s\n", oc_last_error_message());
        return 1;
    }
    pthread_mutex_lock(&u.lock);
    while (u.count < LOOP) pthread_cond_wait(&u.full, &u.lock);
    pthread_mutex_unlock(&u.lock);
    oc_capture_session_destroy(s);
    oc_video_data_output_destroy(o);
    oc_device_list_free(list);
    oc_context_destroy(ctx);

    /* The decoder set up as Ocellus sets up its own. */
    const AVCodec *codec = avcodec_find_decoder(AV_CODEC_ID_H264);
    AVCodecContext *c = avcodec_alloc_context3(codec);
    c->flags |= AV_CODEC_FLAG_LOW_DELAY;
    c->thread_count = 1;
    AVPacket *packet = av_packet_alloc();
    AVFrame *picture = av_frame_alloc();
    uint8_t *ny = malloc(W * H), *nuv = malloc(W * H / 2);
    if (avcodec_open2(c, codec, NULL) < 0) return 1;
    for (int i = 0; i < LOOP + window; i++) {
        if (i == LOOP) {   /* one loop to warm up, then the window */
            CALLGRIND_ZERO_STATS;
            CALLGRIND_START_INSTRUMENTATION;
        }
        packet->data = u.data[i % LOOP];
        packet->size = (int)u.size[i % LOOP];
        if (avcodec_send_packet(c, packet) < 0 || avcodec_receive_frame(c, picture) < 0) return 1;
        I420ToNV12(picture->data[0], picture->linesize[0], picture->data[1], picture->linesize[1], picture->data[2],
                   picture->linesize[2], ny, W, nuv, W, W, H);
    }
    CALLGRIND_STOP_INSTRUMENTATION;
    CALLGRIND_DUMP_STATS_AT("window");
    printf("frames %d\n", window);
    avcodec_free_context(&c);
    return 0;
}

/* The least a PipeWire client does per frame: what passthrough through Ocellus is compared with. */
struct bare_stream {
    struct pw_thread_loop *loop;
    struct pw_stream *stream;
    int frames, window;
};

static void bare_process(void *data)
{
    struct bare_stream *b = data;
    struct pw_buffer *buffer = pw_stream_dequeue_buffer(b->stream);
    if (!buffer) return;
    struct spa_data *d = &buffer->buffer->datas[0];
    if (d->data && d->chunk->size) {
        volatile uint8_t sink = ((uint8_t *)d->data)[d->chunk->size / 2];   /* touched, as an app would */
        (void)sink;
        if (b->frames == WARMUP) {
            CALLGRIND_ZERO_STATS;
            CALLGRIND_START_INSTRUMENTATION;
        } else if (b->frames == WARMUP + b->window) {
            CALLGRIND_STOP_INSTRUMENTATION;
            CALLGRIND_DUMP_STATS_AT("window");
        }
        b->frames++;
    }
    pw_stream_queue_buffer(b->stream, buffer);
    if (b->frames > WARMUP + b->window) pw_thread_loop_signal(b->loop, false);
}

static const struct pw_stream_events bare_events = { PW_VERSION_STREAM_EVENTS, .process = bare_process };

static int bare_pw_stream(const char *serial, int window)
{
    pw_init(NULL, NULL);
    struct bare_stream b = { .window = window };
    b.loop = pw_thread_loop_new("bare", NULL);
    struct spa_hook listener;
    b.stream = pw_stream_new_simple(pw_thread_loop_get_loop(b.loop), "bare",
                                    pw_properties_new(PW_KEY_MEDIA_TYPE, "Video", PW_KEY_MEDIA_CATEGORY, "Capture",
                                                      PW_KEY_MEDIA_ROLE, "Camera", PW_KEY_TARGET_OBJECT, serial, NULL),
                                    &bare_events, &b);
    (void)listener;
    uint8_t pod[1024];
    struct spa_pod_builder builder = SPA_POD_BUILDER_INIT(pod, sizeof pod);
    struct spa_video_info_raw info = { .format = SPA_VIDEO_FORMAT_YUY2, .size = SPA_RECTANGLE(W, H), .framerate = SPA_FRACTION(30, 1) };
    const struct spa_pod *params[1] = { spa_format_video_raw_build(&builder, SPA_PARAM_EnumFormat, &info) };
    pw_thread_loop_lock(b.loop);
    pw_thread_loop_start(b.loop);
    pw_stream_connect(b.stream, PW_DIRECTION_INPUT, PW_ID_ANY, PW_STREAM_FLAG_AUTOCONNECT | PW_STREAM_FLAG_MAP_BUFFERS, params, 1);
    while (b.frames <= WARMUP + window) pw_thread_loop_wait(b.loop);
    pw_stream_destroy(b.stream);
    pw_thread_loop_unlock(b.loop);
    pw_thread_loop_stop(b.loop);
    pw_thread_loop_destroy(b.loop);
    printf("frames %d\n", b.frames);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 5 && !strcmp(argv[1], "session")) return session(argv[2], argv[3], atoi(argv[4]), 0, 1, true);
    if (argc >= 5 && !strcmp(argv[1], "session-unsteered")) return session(argv[2], argv[3], atoi(argv[4]), 0, 1, false);
    if (argc >= 5 && !strcmp(argv[1], "two-outputs")) return session(argv[2], argv[3], atoi(argv[4]), 0, 2, true);
    if (argc >= 5 && !strcmp(argv[1], "latency")) return session(argv[2], argv[3], atoi(argv[4]), 1, 1, true);
    if (argc >= 3 && !strcmp(argv[1], "bare-copy")) return bare_copy(atoi(argv[2]));
    if (argc >= 3 && !strcmp(argv[1], "bare-yuyv")) return bare_yuyv(atoi(argv[2]));
    if (argc >= 4 && !strcmp(argv[1], "bare-pw-stream")) return bare_pw_stream(argv[2], atoi(argv[3]));
    if (argc >= 3 && !strcmp(argv[1], "bare-mjpeg")) return bare_mjpeg(atoi(argv[2]), 1);
    if (argc >= 3 && !strcmp(argv[1], "bare-mjpeg-decode")) return bare_mjpeg(atoi(argv[2]), 0);
    if (argc >= 3 && !strcmp(argv[1], "bare-mjpeg-video-range")) return bare_mjpeg(atoi(argv[2]), 2);
    if (argc >= 4 && !strcmp(argv[1], "bare-h264")) return bare_h264(argv[2], atoi(argv[3]));
    fprintf(stderr, "usage: see the top of capture_bench.c\n");
    return 2;
}
