/* Sessions started and stopped from several threads at once, the way the use-after-free of
 * issue 25 showed itself: every stop freed the PipeWire stream while an invoke for it was
 * still queued on its loop. Run under valgrind (any invalid access fails the run) and natively
 * with MALLOC_ARENA_MAX=1 and MALLOC_PERTURB_ (freed memory reused and scribbled at once), both
 * by run.sh. Each session has a second output whose callback reads its frame slowly: with two
 * outputs each delivers on a thread of its own from the camera's lent buffer, so stops and
 * destroys meet buffers still lent out. Usage: session_churn THREADS ROUNDS; prints one TAP line,
 * exit 0 when every round got a frame and stopped cleanly. */
#define _POSIX_C_SOURCE 200809L
#include <ocellus.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static oc_context *ctx;
static oc_device *camera;
static int rounds;

/* Reads every byte of the frame, slowly: the buffer must stay the camera's frame until it returns. */
static void slow_reader(oc_video_data_output *output, const oc_frame *frame, void *user_data)
{
    (void)output;
    unsigned sum = 0;
    size_t size = 0;
    uint32_t stride = 0;
    const uint8_t *bytes = oc_frame_plane_data(frame, 0, &size, &stride);
    for (size_t i = 0; bytes && i < size; i += 64) sum += bytes[i];
    *(volatile unsigned *)user_data = sum;
    nanosleep(&(struct timespec){.tv_nsec = 20000000}, NULL);
}

/* One destroy order per round, so that each teardown path runs: stop then destroy, destroy
 * while running, the output destroyed before its running session. */
static void *churn(void *unused)
{
    (void)unused;
    for (int round = 0; round < rounds; round++) {
        oc_capture_session *session = NULL;
        oc_video_data_output *output = NULL, *reader = NULL;
        oc_frame *frame = NULL;
        volatile unsigned sum = 0;
        if (oc_capture_session_create(ctx, &session) || oc_video_data_output_create(&output)
            || oc_video_data_output_create(&reader) || oc_video_data_output_set_frame_callback(reader, slow_reader, (void *)&sum)
            || oc_capture_session_set_input(session, camera) || oc_capture_session_add_output(session, output)
            || oc_capture_session_add_output(session, reader)
            || oc_capture_session_start_running(session) || oc_video_data_output_copy_next_frame(output, 5000, &frame)) {
            fprintf(stderr, "round %d: %s\n", round, oc_last_error_message());
            return (void *)1;
        }
        oc_frame_release(frame);
        switch (round % 3) {
        case 0:
            oc_capture_session_stop_running(session);
            oc_capture_session_destroy(session);
            oc_video_data_output_destroy(output);
            oc_video_data_output_destroy(reader);
            break;
        case 1:
            oc_capture_session_destroy(session);
            oc_video_data_output_destroy(reader);
            oc_video_data_output_destroy(output);
            break;
        default:
            oc_video_data_output_destroy(reader);
            oc_video_data_output_destroy(output);
            oc_capture_session_destroy(session);
            break;
        }
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int threads = argc > 1 ? atoi(argv[1]) : 4;
    rounds = argc > 2 ? atoi(argv[2]) : 10;
    if (threads < 1 || threads > 64 || oc_context_create("org.ocellus.SessionChurn", NULL, &ctx) != OC_OK
        || oc_context_copy_system_preferred_camera(ctx, &camera) != OC_OK || !camera) {
        printf("not ok - session churn: no context or camera: %s\n", oc_last_error_message());
        return 1;
    }
    pthread_t workers[64];
    for (int i = 0; i < threads; i++) pthread_create(&workers[i], NULL, churn, NULL);
    int failures = 0;
    for (int i = 0; i < threads; i++) {
        void *result = NULL;
        pthread_join(workers[i], &result);
        failures += result != NULL;
    }
    oc_device_release(camera);
    oc_context_destroy(ctx);
    printf("%s - session churn: %d threads x %d start/stop rounds%s\n", failures ? "not ok" : "ok", threads, rounds,
           failures ? " (a round failed)" : "");
    return failures ? 1 : 0;
}
