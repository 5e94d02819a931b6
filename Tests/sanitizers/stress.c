/* The ThreadSanitizer stress (`make test-tsan`, part of the test command): the library built with
 * -sanitize=thread, driven through its C ABI the way apps use it at once from several threads,
 * on the test bed. TSan (halt_on_error) ends the run at the first data race; the program itself
 * checks that every session delivered frames. Prints TAP lines and "N passed, N failed".
 *
 * - two threads, each a session of its own camera, adding and removing outputs while running
 *   (the session's commit republishes the other outputs' conversion under the stream thread);
 * - Center Stage switched on and off while those stream (the companion's callbacks are replaced
 *   while stopping reads them);
 * - microphone modes switched on a session with a microphone while it runs;
 * - a multi-camera session started and stopped, and a synchronizer over two outputs. */
#define _DEFAULT_SOURCE   /* usleep */
#include <ocellus.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define CAMERA_A "usb-1d6b:0110-VCAM-0000"
#define CAMERA_B "usb-1d6b:0111-VCAM-0001"
#define ROUNDS 12

static oc_context *ctx;
static atomic_int stop_toggling;
static int passed, failed;

static void check(int ok, const char *what)
{
    printf("%s - %s\n", ok ? "ok" : "not ok", what);
    if (ok) passed++; else failed++;
}

static oc_device *device(const char *unique_id)
{
    oc_device *found = NULL;
    return oc_context_copy_device_by_unique_id(ctx, unique_id, &found) == OC_OK ? found : NULL;
}

static void count_frame(oc_video_data_output *output, const oc_frame *frame, void *user_data)
{
    (void)output; (void)frame;
    atomic_fetch_add((atomic_ulong *)user_data, 1);
}

static oc_video_data_output *output(uint32_t format, uint32_t width, uint32_t height, atomic_ulong *frames)
{
    oc_video_data_output *made = NULL;
    if (oc_video_data_output_create(&made) != OC_OK) return NULL;
    oc_video_data_output_set_format(made, format, width, height);
    oc_video_data_output_set_frame_callback(made, count_frame, frames);
    return made;
}

/* A session of one camera whose second output comes and goes while it runs. */
static void *churn(void *argument)
{
    const char *camera_id = argument;
    atomic_ulong frames = 0, extra_frames = 0;
    oc_device *camera = device(camera_id);
    oc_capture_session *session = NULL;
    oc_video_data_output *main_output = output(OC_PIXEL_FORMAT_NV12, 320, 240, &frames);
    int ok = camera && main_output && oc_capture_session_create(ctx, &session) == OC_OK
        && oc_capture_session_set_input(session, camera) == OC_OK
        && oc_capture_session_add_output(session, main_output) == OC_OK
        && oc_capture_session_start_running(session) == OC_OK;
    for (int round = 0; ok && round < ROUNDS; round++) {
        uint32_t formats[] = { OC_PIXEL_FORMAT_BGRA, OC_PIXEL_FORMAT_I420, OC_PIXEL_FORMAT_YUYV };
        oc_video_data_output *extra = output(formats[round % 3], 160 + 32 * (round % 4), 120 + 24 * (round % 4), &extra_frames);
        ok = extra && oc_capture_session_add_output(session, extra) == OC_OK;
        usleep(60000);
        ok = ok && oc_capture_session_remove_output(session, extra) == OC_OK;
        oc_video_data_output_destroy(extra);
        usleep(20000);
    }
    oc_capture_session_destroy(session);
    oc_video_data_output_destroy(main_output);
    oc_device_release(camera);
    char what[128];
    snprintf(what, sizeof what, "%s: outputs added and removed while it streams (%lu frames)", camera_id, (unsigned long)frames);
    check(ok && frames > 10, what);
    return NULL;
}

static void *toggle_center_stage(void *argument)
{
    oc_device *camera = device(argument);
    for (int round = 0; camera && !atomic_load(&stop_toggling); round++) {
        oc_device_set_center_stage(camera, round % 2 == 0);
        usleep(15000);
    }
    if (camera) oc_device_set_center_stage(camera, false);
    oc_device_release(camera);
    return NULL;
}

static void on_sound(oc_audio_data_output *output, const float *samples, size_t frame_count, uint32_t channels,
                     uint32_t sample_rate, uint64_t timestamp_ns, void *user_data)
{
    (void)output; (void)samples; (void)channels; (void)sample_rate; (void)timestamp_ns;
    atomic_fetch_add((atomic_ulong *)user_data, frame_count);
}

static void *switch_microphone_modes(void *argument)
{
    (void)argument;
    atomic_ulong heard = 0;
    oc_device *microphone = device("pipewire-vmic0");
    oc_capture_session *session = NULL;
    oc_audio_data_output *sound = NULL;
    int ok = microphone && oc_capture_session_create(ctx, &session) == OC_OK && oc_audio_data_output_create(&sound) == OC_OK
        && oc_audio_data_output_set_callback(sound, on_sound, &heard) == OC_OK
        && oc_capture_session_set_audio_input(session, microphone) == OC_OK
        && oc_capture_session_add_audio_output(session, sound) == OC_OK
        && oc_capture_session_start_running(session) == OC_OK;
    oc_microphone_mode modes[] = { OC_MICROPHONE_MODE_VOICE_ISOLATION, OC_MICROPHONE_MODE_STANDARD, OC_MICROPHONE_MODE_WIDE_SPECTRUM };
    for (int round = 0; ok && round < ROUNDS; round++) {
        ok = oc_capture_session_set_preferred_microphone_mode(session, modes[round % 3]) == OC_OK;
        usleep(50000);
    }
    oc_capture_session_destroy(session);
    oc_audio_data_output_destroy(sound);
    oc_device_release(microphone);
    check(ok && heard > 0, "microphone modes switched while the microphone streams");
    return NULL;
}

static void on_pair(oc_output_synchronizer *synchronizer, const oc_frame *first, const oc_frame *second, void *user_data)
{
    (void)synchronizer; (void)first; (void)second;
    atomic_fetch_add((atomic_ulong *)user_data, 1);
}

/* Both cameras in one multi-camera session, their outputs paired by a synchronizer. */
static void multi_camera_with_synchronizer(void)
{
    atomic_ulong frames = 0, pairs = 0;
    oc_device *first = device(CAMERA_A), *second = device(CAMERA_B);
    oc_multi_cam_session *session = NULL;
    oc_capture_session *branch_a = NULL, *branch_b = NULL;
    oc_video_data_output *out_a = output(OC_PIXEL_FORMAT_NV12, 320, 240, &frames);
    oc_video_data_output *out_b = output(OC_PIXEL_FORMAT_BGRA, 320, 240, &frames);
    oc_output_synchronizer *synchronizer = NULL;
    int ok = first && second && oc_multi_cam_session_create(ctx, &session) == OC_OK
        && oc_multi_cam_session_add_camera(session, first, &branch_a) == OC_OK
        && oc_multi_cam_session_add_camera(session, second, &branch_b) == OC_OK
        && oc_capture_session_add_output(branch_a, out_a) == OC_OK && oc_capture_session_add_output(branch_b, out_b) == OC_OK
        && oc_output_synchronizer_create_for_cameras(out_a, out_b, &synchronizer) == OC_OK
        && oc_output_synchronizer_set_callback(synchronizer, on_pair, &pairs) == OC_OK;
    for (int round = 0; ok && round < 3; round++) {
        ok = oc_multi_cam_session_start_running(session) == OC_OK;
        usleep(400000);
        ok = ok && oc_multi_cam_session_stop_running(session) == OC_OK;
    }
    oc_output_synchronizer_destroy(synchronizer);
    oc_multi_cam_session_destroy(session);
    oc_video_data_output_destroy(out_a);
    oc_video_data_output_destroy(out_b);
    oc_device_release(first);
    oc_device_release(second);
    char what[128];
    /* The synchronizer takes its outputs' frames: they come as pairs. */
    snprintf(what, sizeof what, "a multi-camera session started and stopped, its outputs synchronized (%lu pairs)",
             (unsigned long)pairs);
    check(ok && pairs > 3 && frames == 0, what);
}

int main(void)
{
    if (oc_context_create("org.ocellus.test.tsan", NULL, &ctx) != OC_OK) {
        printf("not ok - context: %s\n0 passed, 1 failed\n", oc_last_error_message());
        return 1;
    }
    pthread_t sessions[2], center_stage, modes;
    pthread_create(&sessions[0], NULL, churn, (void *)CAMERA_A);
    pthread_create(&sessions[1], NULL, churn, (void *)CAMERA_B);
    pthread_create(&center_stage, NULL, toggle_center_stage, (void *)CAMERA_A);
    pthread_create(&modes, NULL, switch_microphone_modes, NULL);
    pthread_join(sessions[0], NULL);
    pthread_join(sessions[1], NULL);
    atomic_store(&stop_toggling, 1);
    pthread_join(center_stage, NULL);
    pthread_join(modes, NULL);
    multi_camera_with_synchronizer();
    oc_context_destroy(ctx);
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
