/* Sessions started and stopped from several threads at once, the way the use-after-free of
 * issue 25 showed itself: every stop freed the PipeWire stream while an invoke for it was
 * still queued on its loop. Run under valgrind (any invalid access fails the run) and natively
 * with MALLOC_ARENA_MAX=1 and MALLOC_PERTURB_ (freed memory reused and scribbled at once), both
 * by run.sh. Usage: session_churn THREADS ROUNDS; prints one TAP line, exit 0 when every round
 * got a frame and stopped cleanly. */
#include <ocellus.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static oc_context *ctx;
static oc_device *camera;
static int rounds;

/* One destroy order per round, so that each teardown path runs: stop then destroy, destroy
 * while running, the output destroyed before its running session. */
static void *churn(void *unused)
{
    (void)unused;
    for (int round = 0; round < rounds; round++) {
        oc_capture_session *session = NULL;
        oc_video_data_output *output = NULL;
        oc_frame *frame = NULL;
        if (oc_capture_session_create(ctx, &session) || oc_video_data_output_create(&output)
            || oc_capture_session_set_input(session, camera) || oc_capture_session_add_output(session, output)
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
            break;
        case 1:
            oc_capture_session_destroy(session);
            oc_video_data_output_destroy(output);
            break;
        default:
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
