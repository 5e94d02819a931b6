/* metadata_bench: what a metadata output costs beside a 720p30 stream, through the C ABI. Run by
 * bench/metadata.sh inside the PipeWire test bed.
 *
 *   metadata_bench cpu UNIQUE_ID none|faces|codes SECONDS     process CPU time per second of
 *                                                            streaming with a plain video output,
 *                                                            and with a metadata output beside it
 *   metadata_bench window UNIQUE_ID none|faces|codes FRAMES  the same, a window of FRAMES video
 *                                                            frames for callgrind (--instr-atstart=no)
 *
 * `scaled` streams an NV12 640x360 output alone, `stage` the same with Center Stage on (its own
 * analysis, and the output cut from the window). Each prints the video frames delivered, whether
 * Center Stage framed at the end and the window's width, and the metadata output's counts. */
#define _DEFAULT_SOURCE
#include <ocellus.h>

#include <valgrind/callgrind.h>

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define WARMUP_FRAMES 15
#define RECORDED_WINDOWS 900

struct run {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    int frames;
    /* With Center Stage: the camera, and the window's width at each frame from the first. */
    oc_device *framed;
    double widths[RECORDED_WINDOWS];
};

static void on_frame(oc_video_data_output *output, const oc_frame *frame, void *user_data)
{
    (void)output;
    struct run *r = user_data;
    volatile uint8_t touched = 0;
    size_t size = 0;
    const uint8_t *data = oc_frame_plane_data(frame, 0, &size, NULL);
    if (data && size) touched = data[size / 2];
    (void)touched;
    oc_center_stage_state framing = { .struct_size = sizeof framing };
    if (r->framed) oc_device_get_center_stage(r->framed, &framing);
    pthread_mutex_lock(&r->lock);
    if (r->framed && r->frames < RECORDED_WINDOWS) r->widths[r->frames] = framing.window[2];
    r->frames++;
    pthread_cond_broadcast(&r->changed);
    pthread_mutex_unlock(&r->lock);
}

static void on_metadata(oc_metadata_output *output, uint64_t timestamp_ns, const oc_metadata_object *objects, size_t count,
                        void *user_data)
{
    (void)output; (void)timestamp_ns; (void)objects; (void)count; (void)user_data;
}

static void wait_frames(struct run *r, int count)
{
    pthread_mutex_lock(&r->lock);
    while (r->frames < count) pthread_cond_wait(&r->changed, &r->lock);
    pthread_mutex_unlock(&r->lock);
}

static double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int fail(void)
{
    fprintf(stderr, "metadata_bench: %s\n", oc_last_error_message());
    return 1;
}

int main(int argc, char **argv)
{
    if ((argc != 5 && argc != 6) || (strcmp(argv[1], "cpu") && strcmp(argv[1], "window"))) {
        fprintf(stderr, "usage: metadata_bench cpu|window UNIQUE_ID none|faces|codes|scaled|stage SECONDS|FRAMES [ANALYSES_PER_SECOND]\n");
        return 64;
    }
    bool window = !strcmp(argv[1], "window");
    uint32_t types = !strcmp(argv[3], "faces") ? OC_METADATA_OBJECT_FACE : !strcmp(argv[3], "codes") ? OC_METADATA_OBJECT_CODE : 0;
    bool stage = !strcmp(argv[3], "stage"), scaled = stage || !strcmp(argv[3], "scaled");
    double amount = atof(argv[4]);
    oc_context_options options;
    oc_context_options_init(&options);
    options.timeout_ms = 60000;   /* valgrind is slow */
    oc_context *ctx = NULL;
    oc_device *camera = NULL;
    oc_capture_session *session = NULL;
    oc_video_data_output *video = NULL;
    oc_metadata_output *metadata = NULL;
    static struct run r = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, NULL, { 0 } };
    if (oc_context_create("org.ocellus.bench.metadata", &options, &ctx) || oc_context_copy_device_by_unique_id(ctx, argv[2], &camera)
        || oc_capture_session_create(ctx, &session) || oc_capture_session_set_input(session, camera)
        || oc_video_data_output_create(&video) || oc_video_data_output_set_frame_callback(video, on_frame, &r)
        || (scaled && oc_video_data_output_set_format(video, OC_FOURCC('N', 'V', '1', '2'), 640, 360))
        || (stage && oc_device_set_center_stage(camera, true)) || oc_capture_session_add_output(session, video))
        return fail();
    if (types && (oc_metadata_output_create(types, NULL, &metadata) || oc_metadata_output_set_callback(metadata, on_metadata, NULL)
                  || (argc == 6 && oc_metadata_output_set_max_rate(metadata, atof(argv[5])))
                  || oc_capture_session_add_metadata_output(session, metadata)))
        return fail();
    if (stage) r.framed = camera;
    if (oc_capture_session_start_running(session)) return fail();
    wait_frames(&r, WARMUP_FRAMES);
    pthread_mutex_lock(&r.lock);
    int first = r.frames;
    pthread_mutex_unlock(&r.lock);
    oc_metadata_statistics before = { .struct_size = sizeof before }, after = { .struct_size = sizeof after };
    if (metadata) oc_metadata_output_get_statistics(metadata, &before);
    double cpu = cpu_seconds();
    if (window) {
        CALLGRIND_ZERO_STATS;
        CALLGRIND_START_INSTRUMENTATION;
        wait_frames(&r, first + (int)amount);
    } else {
        usleep((useconds_t)(amount * 1e6));
    }
    oc_center_stage_state framing = { .struct_size = sizeof framing };
    oc_device_get_center_stage(camera, &framing);
    /* The analysis in flight ends before stop returns: its cost is inside the window. */
    oc_capture_session_stop_running(session);
    if (window) {
        CALLGRIND_STOP_INSTRUMENTATION;
        CALLGRIND_DUMP_STATS_AT("window");
    }
    cpu = cpu_seconds() - cpu;
    if (metadata) oc_metadata_output_get_statistics(metadata, &after);
    pthread_mutex_lock(&r.lock);
    int frames = r.frames - first;
    pthread_mutex_unlock(&r.lock);
    /* Frames from the stream's first until the window stays within 1% of where it ended. */
    int recorded = r.frames < RECORDED_WINDOWS ? r.frames : RECORDED_WINDOWS, settled = 0;
    for (int i = 0; stage && i < recorded; i++)
        if (r.widths[i] < framing.window[2] - 0.01 || r.widths[i] > framing.window[2] + 0.01) settled = i + 1;
    printf("frames %d cpu_ms_per_s %.1f framed %d window %.2f settled_after %d analysed %llu deliveries %llu dropped %llu\n", frames,
           window ? 0.0 : cpu * 1000 / amount, framing.active, framing.window[2], settled, (unsigned long long)(after.analysed_frames - before.analysed_frames),
           (unsigned long long)(after.deliveries - before.deliveries), (unsigned long long)(after.dropped_frames - before.dropped_frames));
    oc_capture_session_destroy(session);
    oc_metadata_output_destroy(metadata);
    oc_video_data_output_destroy(video);
    oc_device_release(camera);
    oc_context_destroy(ctx);
    return 0;
}
