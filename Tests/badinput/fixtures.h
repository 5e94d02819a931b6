/* Fixtures for the generated bad-input cases (cases.c, from generate.py): live,
 * stale and foreign handles of every type, paths, and the machinery that runs a
 * call from inside each kind of callback. Runs inside scripts/testbed.sh (two
 * virtual cameras and a microphone on a private PipeWire). Each case is its own
 * process; a fixture that cannot be made skips the case (exit 77) and says why. */
#define _GNU_SOURCE
#include <ocellus.h>

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define SKIP 77

static int noop_calls;
static char foreign_bytes[256];
static char *message_before;

static _Noreturn void skip(const char *what)
{
    fprintf(stderr, "skipped: cannot make %s: %s\n", what, oc_last_error_message());
    fflush(NULL);
    _exit(SKIP);
}

static void prepare_case(void)
{
    free(message_before);
    message_before = strdup(oc_last_error_message());
}

/* A refusal must say why: a message, new since the call. */
static int message_left(void)
{
    const char *now = oc_last_error_message();
    return now && now[0] && (!message_before || strcmp(now, message_before) != 0 || !message_before[0]);
}

static int verdict_ok_for_bad_input(const char *name)
{
    fprintf(stderr, "%s accepted input that must be refused\n", name);
    return 1;
}

static int verdict_no_message(const char *name)
{
    fprintf(stderr, "%s refused without a message (oc_last_error_message() is \"%s\")\n", name, oc_last_error_message());
    return 2;
}

/* A status the header does not state for the function: code and header disagree. */
static int verdict_undocumented(const char *name, oc_status status, const char *stated)
{
    fprintf(stderr, "%s returned %s, which its comment in ocellus.h does not state (it states %s): %s\n", name,
            oc_status_name(status), stated, oc_last_error_message());
    return 5;
}

static int after_case(void)
{
    /* The library still answers after the bad call. */
    return oc_version() && strcmp(oc_status_name(OC_OK), "OC_OK") == 0 ? 0 : 4;
}

static char scratch[256];

static const char *scratch_dir(void)
{
    if (!scratch[0]) {
        const char *parent = getenv("BADINPUT_SCRATCH");
        snprintf(scratch, sizeof scratch, "%s/case.XXXXXX", parent ? parent : "/tmp");
        if (!mkdtemp(scratch)) skip("a scratch directory");
    }
    return scratch;
}

static const char *fx_path(void)
{
    static char path[512];
    static int counter;
    snprintf(path, sizeof path, "%s/file%d.mp4", scratch_dir(), counter++);
    return path;
}

static const char *fx_bad_utf8(const char *parameter)
{
    static char text[512];
    if (strstr(parameter, "path"))
        snprintf(text, sizeof text, "%s/bad-\xff\xfe.mp4", scratch_dir());
    else
        snprintf(text, sizeof text, "org.ocellus.\xff\xfe");
    return text;
}

static const char *fx_huge_string(void)
{
    static char *text;
    if (!text) {
        text = malloc(1 << 20);
        memset(text, 'a', (1 << 20) - 1);
        text[(1 << 20) - 1] = 0;
    }
    return text;
}

/* ---- live handles, made on first use ---- */

static oc_context *fx_oc_context(void)
{
    static oc_context *ctx;
    if (!ctx) {
        char state[300];
        snprintf(state, sizeof state, "%s/state", scratch_dir());
        oc_context_options options;
        oc_context_options_init(&options);
        options.state_directory = state;
        if (oc_context_create("org.ocellus.badinput", &options, &ctx) != OC_OK) skip("a context");
    }
    return ctx;
}

static oc_device_list *fx_oc_device_list(void)
{
    static oc_device_list *list;
    if (!list && oc_context_copy_devices(fx_oc_context(), &list) != OC_OK) skip("a device list");
    return list;
}

/* The first camera with formats (the test bed's vcam0). */
static oc_device *fx_oc_device(void)
{
    static oc_device *camera;
    if (!camera) {
        oc_device_list *list = NULL;
        if (oc_context_copy_devices(fx_oc_context(), &list) != OC_OK) skip("a device list");
        for (size_t i = 0; i < oc_device_list_count(list) && !camera; i++) {
            oc_device *device = oc_device_list_get(list, i);
            if (oc_device_get_type(device) != OC_DEVICE_TYPE_MICROPHONE && oc_device_format_count(device) > 0)
                camera = oc_device_retain(device);
        }
        oc_device_list_free(list);
        if (!camera) skip("a camera");
    }
    return camera;
}

static oc_device *fx_microphone(void)
{
    static oc_device *microphone;
    /* The case's own microphone when the runner plugged one (run.py: cases inside audio callbacks). */
    const char *own = getenv("OCELLUS_BADINPUT_MICROPHONE");
    if (!microphone && own && oc_context_copy_device_by_unique_id(fx_oc_context(), own, &microphone) != OC_OK) {
        skip("the case's own microphone");
    }
    if (!microphone && oc_context_copy_default_microphone(fx_oc_context(), &microphone) != OC_OK) skip("a microphone");
    if (!microphone) skip("a microphone (none connected)");
    return microphone;
}

static oc_control_list *fx_oc_control_list(void)
{
    static oc_control_list *list;
    if (!list && oc_device_copy_controls(fx_oc_device(), &list) != OC_OK) skip("a control list");
    return list;
}

static oc_discovery_session *fx_oc_discovery_session(void)
{
    static oc_discovery_session *session;
    if (!session && oc_discovery_session_create(fx_oc_context(), 0, (oc_media_type)0, OC_DEVICE_POSITION_UNSPECIFIED,
                                                &session) != OC_OK)
        skip("a discovery session");
    return session;
}

static oc_video_data_output *fx_oc_video_data_output(void)
{
    static oc_video_data_output *output;
    if (!output && oc_video_data_output_create(&output) != OC_OK) skip("a video data output");
    return output;
}

static oc_depth_data_output *fx_oc_depth_data_output(void)
{
    static oc_depth_data_output *output;
    if (!output && oc_depth_data_output_create(&output) != OC_OK) skip("a depth data output");
    return output;
}

/* Over outputs of its own, so that the shared video output stays free to take callbacks. */
static oc_output_synchronizer *fx_oc_output_synchronizer(void)
{
    static oc_output_synchronizer *synchronizer;
    oc_video_data_output *video = NULL;
    oc_depth_data_output *depth = NULL;
    if (!synchronizer && (oc_video_data_output_create(&video) != OC_OK || oc_depth_data_output_create(&depth) != OC_OK
                          || oc_output_synchronizer_create(video, depth, &synchronizer) != OC_OK))
        skip("an output synchronizer");
    return synchronizer;
}

static oc_audio_data_output *fx_oc_audio_data_output(void)
{
    static oc_audio_data_output *output;
    if (!output && oc_audio_data_output_create(&output) != OC_OK) skip("an audio data output");
    return output;
}

static oc_photo_output *fx_oc_photo_output(void)
{
    static oc_photo_output *output;
    if (!output && oc_photo_output_create(&output) != OC_OK) skip("a photo output");
    return output;
}

static oc_movie_file_output *fx_oc_movie_file_output(void)
{
    static oc_movie_file_output *output;
    if (!output && oc_movie_file_output_create(&output) != OC_OK) skip("a movie file output");
    return output;
}

/* Looking for codes (its plugin is lighter than the face detector's). */
static oc_metadata_output *fx_oc_metadata_output(void)
{
    static oc_metadata_output *output;
    if (!output && oc_metadata_output_create(OC_METADATA_OBJECT_CODE, NULL, &output) != OC_OK) skip("a metadata output");
    return output;
}

static oc_rotation_coordinator *fx_oc_rotation_coordinator(void)
{
    static oc_rotation_coordinator *coordinator;
    if (!coordinator && oc_rotation_coordinator_create(fx_oc_context(), fx_oc_device(), -1, &coordinator) != OC_OK)
        skip("a rotation coordinator");
    return coordinator;
}

/* A session with the camera as input (not running). */
static oc_capture_session *fx_oc_capture_session(void)
{
    static oc_capture_session *session;
    if (!session) {
        if (oc_capture_session_create(fx_oc_context(), &session) != OC_OK) skip("a capture session");
        if (oc_capture_session_set_input(session, fx_oc_device()) != OC_OK) skip("a session input");
    }
    return session;
}

/* A multi-camera session without cameras (the cases add the camera). */
static oc_multi_cam_session *fx_oc_multi_cam_session(void)
{
    static oc_multi_cam_session *session;
    if (!session && oc_multi_cam_session_create(fx_oc_context(), &session) != OC_OK) skip("a multi-camera session");
    return session;
}

/* ---- waiting ---- */

static pthread_mutex_t wait_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wait_changed = PTHREAD_COND_INITIALIZER;

static void signal_flag(atomic_int *flag)
{
    pthread_mutex_lock(&wait_lock);
    atomic_store(flag, 1);
    pthread_cond_broadcast(&wait_changed);
    pthread_mutex_unlock(&wait_lock);
}

static int wait_flag(atomic_int *flag, int milliseconds)
{
    struct timespec deadline;
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += milliseconds / 1000;
    deadline.tv_nsec += (milliseconds % 1000) * 1000000L;
    if (deadline.tv_nsec >= 1000000000L) { deadline.tv_sec++; deadline.tv_nsec -= 1000000000L; }
    pthread_mutex_lock(&wait_lock);
    while (!atomic_load(flag))
        if (pthread_cond_timedwait(&wait_changed, &wait_lock, &deadline) != 0) break;
    pthread_mutex_unlock(&wait_lock);
    return atomic_load(flag);
}

/* ---- a retained frame, and the frame being delivered inside a frame callback ---- */

static const oc_frame *inside_frame;
static oc_frame *retained_frame;
static atomic_int frame_kept;

static void keep_frame(oc_video_data_output *output, const oc_frame *frame, void *user_data)
{
    (void)output; (void)user_data;
    if (!atomic_load(&frame_kept)) {
        retained_frame = oc_frame_retain(frame);
        signal_flag(&frame_kept);
    }
}

static oc_frame *fx_oc_frame(void)
{
    if (inside_frame) return (oc_frame *)inside_frame;
    if (!retained_frame) {
        oc_capture_session *session = NULL;
        oc_video_data_output *output = NULL;
        if (oc_capture_session_create(fx_oc_context(), &session) != OC_OK
            || oc_capture_session_set_input(session, fx_oc_device()) != OC_OK
            || oc_video_data_output_create(&output) != OC_OK
            || oc_video_data_output_set_frame_callback(output, keep_frame, NULL) != OC_OK
            || oc_capture_session_add_output(session, output) != OC_OK
            || oc_capture_session_start_running(session) != OC_OK)
            skip("a running session for a frame");
        if (!wait_flag(&frame_kept, 5000) || !retained_frame) skip("a frame (none arrived in 5 s)");
        oc_capture_session_destroy(session);
        oc_video_data_output_destroy(output);
    }
    return retained_frame;
}

/* ---- stale handles: made, then destroyed ---- */

static oc_context *stale_oc_context(void)
{
    oc_context *ctx = NULL;
    if (oc_context_create("org.ocellus.badinput.stale", NULL, &ctx) != OC_OK) skip("a context to destroy");
    oc_context_destroy(ctx);
    return ctx;
}

/* The last device of a fresh list: a device no fixture holds, so that freeing the list frees it. */
static oc_device *stale_oc_device(void)
{
    oc_device_list *list = NULL;
    if (oc_context_copy_devices(fx_oc_context(), &list) != OC_OK || oc_device_list_count(list) < 2) skip("devices");
    oc_device *device = oc_device_list_get(list, oc_device_list_count(list) - 1);
    if (device == fx_oc_device()) skip("a device no fixture holds");
    oc_device_list_free(list);
    return device;
}

static oc_device_list *stale_oc_device_list(void)
{
    oc_device_list *list = NULL;
    if (oc_context_copy_devices(fx_oc_context(), &list) != OC_OK) skip("a device list to free");
    oc_device_list_free(list);
    return list;
}

static oc_control_list *stale_oc_control_list(void)
{
    oc_control_list *list = NULL;
    if (oc_device_copy_controls(fx_oc_device(), &list) != OC_OK) skip("a control list to free");
    oc_control_list_free(list);
    return list;
}

static oc_frame *stale_oc_frame(void)
{
    oc_frame *copy = oc_frame_retain(fx_oc_frame());
    if (!copy) skip("a frame copy to release");
    oc_frame_release(copy);
    return copy;
}

#define STALE_CREATED(type, create, destroy) \
    static type *stale_##type(void) \
    { \
        type *object = NULL; \
        if (create != OC_OK) skip("a " #type " to destroy"); \
        destroy(object); \
        return object; \
    }
STALE_CREATED(oc_discovery_session,
              oc_discovery_session_create(fx_oc_context(), 0, (oc_media_type)0, OC_DEVICE_POSITION_UNSPECIFIED, &object),
              oc_discovery_session_destroy)
STALE_CREATED(oc_capture_session, oc_capture_session_create(fx_oc_context(), &object), oc_capture_session_destroy)
STALE_CREATED(oc_multi_cam_session, oc_multi_cam_session_create(fx_oc_context(), &object), oc_multi_cam_session_destroy)
STALE_CREATED(oc_video_data_output, oc_video_data_output_create(&object), oc_video_data_output_destroy)
STALE_CREATED(oc_audio_data_output, oc_audio_data_output_create(&object), oc_audio_data_output_destroy)
STALE_CREATED(oc_depth_data_output, oc_depth_data_output_create(&object), oc_depth_data_output_destroy)
static oc_output_synchronizer *stale_oc_output_synchronizer(void)
{
    oc_video_data_output *video = NULL;
    oc_depth_data_output *depth = NULL;
    oc_output_synchronizer *object = NULL;
    if (oc_video_data_output_create(&video) != OC_OK || oc_depth_data_output_create(&depth) != OC_OK
        || oc_output_synchronizer_create(video, depth, &object) != OC_OK)
        skip("an oc_output_synchronizer to destroy");
    oc_output_synchronizer_destroy(object);
    return object;
}
STALE_CREATED(oc_photo_output, oc_photo_output_create(&object), oc_photo_output_destroy)
STALE_CREATED(oc_metadata_output, oc_metadata_output_create(OC_METADATA_OBJECT_CODE, NULL, &object), oc_metadata_output_destroy)
STALE_CREATED(oc_movie_file_output, oc_movie_file_output_create(&object), oc_movie_file_output_destroy)
STALE_CREATED(oc_rotation_coordinator, oc_rotation_coordinator_create(fx_oc_context(), fx_oc_device(), -1, &object),
              oc_rotation_coordinator_destroy)

/* ---- calls from inside callbacks ---- */

enum inside_kind {
    INSIDE_FRAME, INSIDE_AUDIO, INSIDE_SESSION_EVENT, INSIDE_CONTEXT, INSIDE_DISCOVERY,
    INSIDE_ROTATION, INSIDE_PHOTO, INSIDE_RECORDING, INSIDE_METADATA, INSIDE_MULTI_CAM_EVENT
};

static void (*inside_body)(void);
static atomic_int inside_entered, inside_returned;
static const char *undocumented_inside;   /* set by the body, read once it has returned */
static oc_status undocumented_status;

static void inside_undocumented(const char *name, oc_status status)
{
    undocumented_inside = name;
    undocumented_status = status;
}

/* Runs the case's call once, from whichever callback got here first. */
static void run_body_once(void)
{
    int expected = 0;
    if (!atomic_compare_exchange_strong(&inside_entered, &expected, 1)) return;
    inside_body();
    signal_flag(&inside_returned);
}

static void inside_frame_callback(oc_video_data_output *output, const oc_frame *frame, void *user_data)
{
    (void)output; (void)user_data;
    inside_frame = frame;
    run_body_once();
    inside_frame = NULL;
}

static void inside_audio_callback(oc_audio_data_output *output, const float *samples, size_t frames,
                                  uint32_t channels, uint32_t rate, uint64_t timestamp, void *user_data)
{
    (void)output; (void)samples; (void)frames; (void)channels; (void)rate; (void)timestamp; (void)user_data;
    run_body_once();
}

static void inside_session_callback(oc_capture_session *session, oc_session_event event, oc_status error,
                                    const char *message, void *user_data)
{
    (void)session; (void)error; (void)message; (void)user_data;
    if (event == OC_SESSION_EVENT_STARTED) run_body_once();
}

static void inside_multi_cam_callback(oc_multi_cam_session *session, oc_session_event event, const char *camera,
                                      oc_status error, const char *message, void *user_data)
{
    (void)session; (void)camera; (void)error; (void)message; (void)user_data;
    if (event == OC_SESSION_EVENT_STARTED) run_body_once();
}

static void inside_hotplug_callback(oc_context *ctx, oc_hotplug_event event, oc_device *device, void *user_data)
{
    (void)ctx; (void)event; (void)device; (void)user_data;
    run_body_once();
}

static void inside_discovery_callback(oc_discovery_session *session, oc_hotplug_event event, oc_device *device,
                                      void *user_data)
{
    (void)session; (void)event; (void)device; (void)user_data;
    run_body_once();
}

static void inside_rotation_callback(oc_rotation_coordinator *coordinator, int32_t preview, int32_t capture,
                                     void *user_data)
{
    (void)coordinator; (void)preview; (void)capture; (void)user_data;
    run_body_once();
}

static void inside_photo_callback(oc_photo_output *output, oc_status status, const oc_photo *photo,
                                  const char *message, void *user_data)
{
    (void)output; (void)status; (void)photo; (void)message; (void)user_data;
    run_body_once();
}

static void inside_recording_callback(oc_movie_file_output *output, oc_status status, const char *message,
                                      const oc_recording_summary *summary, void *user_data)
{
    (void)output; (void)status; (void)message; (void)summary; (void)user_data;
    run_body_once();
}

static void inside_metadata_callback(oc_metadata_output *output, uint64_t timestamp_ns, const oc_metadata_object *objects,
                                     size_t count, void *user_data)
{
    (void)output; (void)timestamp_ns; (void)objects; (void)count; (void)user_data;
    run_body_once();
}

/* The camera run.py plugged for this case (its unique ID in `variable`), once the context sees it. */
static oc_device *plugged_camera(const char *variable, const char *what)
{
    const char *unique_id = getenv(variable);
    oc_device *camera = NULL;
    for (int tries = 0; unique_id && tries < 50 && !camera; tries++) {
        if (oc_context_copy_device_by_unique_id(fx_oc_context(), unique_id, &camera) != OC_OK) usleep(100000);
    }
    if (!camera) skip(what);
    return camera;
}

/* The camera showing a QR code that run.py plugged for this case: what makes a metadata callback run. */
static oc_device *code_camera(void)
{
    return plugged_camera("OCELLUS_BADINPUT_CODE_CAMERA", "a camera showing a QR code (OCELLUS_BADINPUT_CODE_CAMERA)");
}

static void plug_camera(void)
{
    char command[1024];
    snprintf(command, sizeof command, "%s add-camera %s badinput-cam --sizes 320x240 --fps 30 >/dev/null",
             getenv("OCELLUS_TESTBED_SCRIPT"), getenv("OCELLUS_TESTBED_DIR"));
    if (system(command) != 0) skip("a hot-plugged camera (testbed.sh add-camera)");
}

static void start_session(void)
{
    if (oc_capture_session_start_running(fx_oc_capture_session()) != OC_OK) skip("a running session");
}

/* Gets inside a callback of `kind`, runs the case's call there, and fails if the
 * call does not return within 8 s (a hang) or the process dies within 300 ms after. */
static int run_inside(enum inside_kind kind, const char *name)
{
    oc_callback_id id = 0;
    switch (kind) {
    case INSIDE_FRAME:
        oc_video_data_output_set_frame_callback(fx_oc_video_data_output(), inside_frame_callback, NULL);
        if (oc_capture_session_add_output(fx_oc_capture_session(), fx_oc_video_data_output()) != OC_OK) skip("an output");
        start_session();
        break;
    case INSIDE_AUDIO:
        if (oc_capture_session_set_audio_input(fx_oc_capture_session(), fx_microphone()) != OC_OK) skip("an audio input");
        oc_audio_data_output_set_callback(fx_oc_audio_data_output(), inside_audio_callback, NULL);
        if (oc_capture_session_add_audio_output(fx_oc_capture_session(), fx_oc_audio_data_output()) != OC_OK)
            skip("an audio output");
        start_session();
        break;
    case INSIDE_SESSION_EVENT:
        oc_capture_session_add_event_callback(fx_oc_capture_session(), inside_session_callback, NULL, &id);
        start_session();
        break;
    case INSIDE_CONTEXT:
        oc_context_add_hotplug_callback(fx_oc_context(), inside_hotplug_callback, NULL, &id);
        plug_camera();
        break;
    case INSIDE_DISCOVERY:
        oc_discovery_session_set_callback(fx_oc_discovery_session(), inside_discovery_callback, NULL);
        plug_camera();
        break;
    case INSIDE_ROTATION:
        oc_rotation_coordinator_add_callback(fx_oc_rotation_coordinator(), inside_rotation_callback, NULL, &id);
        /* The test bed's cameras are external: the interface orientation moves their preview angle. */
        if (oc_rotation_coordinator_set_interface_orientation(fx_oc_rotation_coordinator(), 90) != OC_OK) skip("a rotation");
        break;
    case INSIDE_PHOTO:
        /* A camera of its own, as for metadata: Debian 12's PipeWire (0.3.65) has the test bed's
         * cameras stop sending after hundreds of cases' processes ended mid-stream, and a photo,
         * unlike a recording, needs a frame for its callback to run. */
        if (oc_capture_session_set_input(fx_oc_capture_session(),
                                         plugged_camera("OCELLUS_BADINPUT_PHOTO_CAMERA", "a camera of its own (OCELLUS_BADINPUT_PHOTO_CAMERA)")) != OC_OK)
            skip("the plugged camera as input");
        if (oc_capture_session_add_photo_output(fx_oc_capture_session(), fx_oc_photo_output()) != OC_OK) skip("a photo output");
        start_session();
        if (oc_photo_output_capture(fx_oc_photo_output(), NULL, inside_photo_callback, NULL) != OC_OK) skip("a photo");
        break;
    case INSIDE_MULTI_CAM_EVENT:
        oc_multi_cam_session_add_event_callback(fx_oc_multi_cam_session(), inside_multi_cam_callback, NULL, &id);
        oc_capture_session *branch = NULL;
        if (oc_multi_cam_session_add_camera(fx_oc_multi_cam_session(), fx_oc_device(), &branch) != OC_OK) skip("a camera");
        if (oc_multi_cam_session_start_running(fx_oc_multi_cam_session()) != OC_OK) skip("a running multi-camera session");
        break;
    case INSIDE_METADATA:
        if (oc_capture_session_set_input(fx_oc_capture_session(), code_camera()) != OC_OK) skip("the QR camera as input");
        oc_metadata_output_set_callback(fx_oc_metadata_output(), inside_metadata_callback, NULL);
        if (oc_capture_session_add_metadata_output(fx_oc_capture_session(), fx_oc_metadata_output()) != OC_OK)
            skip("a metadata output");
        start_session();
        break;
    case INSIDE_RECORDING:
        if (oc_capture_session_add_movie_file_output(fx_oc_capture_session(), fx_oc_movie_file_output()) != OC_OK)
            skip("a movie output");
        start_session();
        if (oc_movie_file_output_start_recording(fx_oc_movie_file_output(), fx_path(), inside_recording_callback, NULL) != OC_OK)
            skip("a recording");
        usleep(300000);
        oc_movie_file_output_stop_recording(fx_oc_movie_file_output());
        break;
    }
    if (!wait_flag(&inside_entered, 8000)) skip("the callback (it never ran)");
    if (!wait_flag(&inside_returned, 8000)) {
        fprintf(stderr, "%s did not return within 8 s when called from inside its callback (a hang)\n", name);
        fflush(NULL);
        _exit(3);
    }
    if (undocumented_inside) {
        fprintf(stderr, "%s returned %s from inside its callback, which its comment in ocellus.h does not state\n",
                undocumented_inside, oc_status_name(undocumented_status));
        fflush(NULL);
        _exit(5);
    }
    usleep(300000);   /* a crash once the callback has returned still fails the case */
    fflush(NULL);
    _exit(after_case());
}
