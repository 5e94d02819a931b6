/* No heap allocation per frame in steady state (issue 4): counts the allocations
 * made on the delivering thread between frame 40 and frame 140, through the C ABI,
 * for a zero-copy output and a converting one (YUYV → NV12 scaled). Needs
 * malloc_counter.so preloaded and the test bed's vcam0. */
#define _DEFAULT_SOURCE
#include <ocellus.h>

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static unsigned long (*allocations)(void);

struct probe { volatile int frames; unsigned long at_start, at_end; };

static void on_frame(oc_video_data_output *output, const oc_frame *frame, void *user_data)
{
    struct probe *p = user_data;
    size_t size;
    (void)output;
    oc_frame_plane_data(frame, 0, &size, NULL);   /* touch the frame the way an app would */
    if (p->frames == 40) p->at_start = allocations();
    if (p->frames == 140) p->at_end = allocations();
    p->frames++;
}

static void on_recording(oc_movie_file_output *output, oc_status status, const char *message,
                         const oc_recording_summary *summary, void *user_data)
{
    (void)output; (void)status; (void)message; (void)summary; (void)user_data;
}

/* With `record_to`, a movie file output records alongside (its frames are copied on the delivering thread). */
static int measure(oc_context *ctx, oc_device *camera, uint32_t fourcc, uint32_t width, uint32_t height, const char *record_to,
                   const char *what)
{
    oc_capture_session *session = NULL;
    oc_video_data_output *output = NULL;
    oc_movie_file_output *movie = NULL;
    struct probe p = { 0, 0, 0 };
    if (oc_capture_session_create(ctx, &session) || oc_video_data_output_create(&output) ||
        oc_video_data_output_set_format(output, fourcc, width, height) ||
        oc_video_data_output_set_frame_callback(output, on_frame, &p) ||
        oc_capture_session_set_input(session, camera) || oc_capture_session_add_output(session, output) ||
        oc_capture_session_set_preset(session, OC_SESSION_PRESET_640X480) ||
        oc_capture_session_start_running(session) ||
        (record_to && (oc_movie_file_output_create(&movie) || oc_capture_session_add_movie_file_output(session, movie) ||
                       oc_movie_file_output_start_recording(movie, record_to, on_recording, NULL)))) {
        printf("not ok - %s: setup failed: %s\n", what, oc_last_error_message());
        return 1;
    }
    for (int i = 0; i < 200 && p.frames <= 140; i++) usleep(50 * 1000);
    oc_capture_session_stop_running(session);
    oc_movie_file_output_destroy(movie);
    oc_capture_session_destroy(session);
    oc_video_data_output_destroy(output);
    if (record_to) unlink(record_to);
    int ok = p.frames > 140 && p.at_end == p.at_start;
    printf("%s - %s: %lu allocations on the delivering thread over 100 frames\n", ok ? "ok" : "not ok", what,
           p.at_end - p.at_start);
    return ok ? 0 : 1;
}

int main(void)
{
    /* POSIX's way to turn dlsym's object pointer into a function pointer. */
    void *symbol = dlsym(RTLD_DEFAULT, "ocellus_test_allocations");
    memcpy(&allocations, &symbol, sizeof symbol);
    if (!allocations) { printf("run with malloc_counter.so preloaded\n"); return 2; }
    oc_context *ctx = NULL;
    oc_device_list *list = NULL;
    if (oc_context_create("org.ocellus.test.steady", NULL, &ctx) || oc_context_copy_devices(ctx, &list)) return 2;
    oc_device *camera = NULL;
    for (size_t i = 0; i < oc_device_list_count(list); i++)
        if (!strcmp(oc_device_unique_id(oc_device_list_get(list, i)), "usb-1d6b:0110-VCAM-0000"))
            camera = oc_device_list_get(list, i);
    int failed = measure(ctx, camera, 0x56595559 /* YUYV */, 640, 480, NULL, "zero-copy YUYV output");
    failed += measure(ctx, camera, 0x3231564e /* NV12 */, 320, 240, NULL, "YUYV → NV12 320x240 output");
    failed += measure(ctx, camera, 0x56595559 /* YUYV */, 640, 480, "/tmp/ocellus-steady.mp4", "YUYV output while recording");
    oc_device_list_free(list);
    oc_context_destroy(ctx);
    printf("%d passed, %d failed\n", 3 - failed, failed);
    return failed ? 1 : 0;
}
