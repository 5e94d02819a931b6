/* The C suite: Microphone input, microphone modes and audio data outputs. Included by abi_test.c, after harness.h; run alone with
 * `Tests/c/run.sh audio`. */

/* `leading`: quiet buffers before the tone began. PipeWire 1.4 gives a client linking to the test
 * bed's microphone (a follower stream of its own process) one quantum of silence first. */
struct audio_log { size_t frames; int wrong_format, silent, leading; };

static void on_audio(oc_audio_data_output *output, const float *samples, size_t frame_count, uint32_t channels,
                     uint32_t sample_rate, uint64_t timestamp_ns, void *user_data)
{
    struct audio_log *log = user_data;
    float peak = 0;
    (void)output; (void)timestamp_ns;
    for (size_t i = 0; i < frame_count * channels; i++) peak = samples[i] > peak ? samples[i] : peak;
    size_t heard = SHARED_GET(log->frames);
    if (channels != 2 || sample_rate != 48000) SHARED_ADD(log->wrong_format, 1);
    if (peak < 0.01f && heard == 0) SHARED_ADD(log->leading, 1);
    else if (peak < 0.01f) SHARED_ADD(log->silent, 1);
    if (peak >= 0.01f || heard > 0) SHARED_ADD(log->frames, frame_count);
}

static int test_microphone_and_audio_output(void)
{
    oc_context *ctx = create();
    CHECK(ctx != NULL);
    oc_device_list *list = NULL;
    CHECK(oc_context_copy_devices(ctx, &list) == OC_OK);
    oc_device *camera = find(list, "usb-1d6b:0110-VCAM-0000"), *mic = find(list, "pipewire-vmic0");
    oc_capture_session *session = NULL;
    oc_audio_data_output *audio = NULL;
    struct audio_log log = { 0, 0, 0, 0 };
    CHECK(oc_capture_session_create(ctx, &session) == OC_OK);

    /* Bad input. */
    CHECK(oc_audio_data_output_create(NULL) == OC_ERROR_INVALID_ARGUMENT);
    CHECK(oc_audio_data_output_create(&audio) == OC_OK);
    CHECK(oc_capture_session_set_audio_input(NULL, mic) == OC_ERROR_INVALID_HANDLE);
    CHECK(oc_capture_session_set_audio_input(session, (oc_device *)session) == OC_ERROR_INVALID_HANDLE);
    CHECK(oc_capture_session_set_audio_input(session, camera) == OC_ERROR_INVALID_ARGUMENT);
    CHECK(strstr(oc_last_error_message(), "not a microphone") != NULL);
    CHECK(oc_audio_data_output_set_callback(NULL, on_audio, &log) == OC_ERROR_INVALID_HANDLE);
    CHECK(oc_audio_data_output_delivered_frames(NULL) == 0);
    CHECK(oc_capture_session_add_audio_output(session, NULL) == OC_ERROR_INVALID_HANDLE);
    CHECK(oc_capture_session_remove_audio_output(session, audio) == OC_ERROR_NOT_FOUND);

    CHECK(oc_audio_data_output_set_callback(audio, on_audio, &log) == OC_OK);
    CHECK(oc_capture_session_set_input(session, camera) == OC_OK);
    CHECK(oc_capture_session_set_audio_input(session, mic) == OC_OK);
    CHECK(oc_capture_session_add_audio_output(session, audio) == OC_OK);
    CHECK(oc_capture_session_add_audio_output(session, audio) == OC_ERROR_WRONG_STATE);
    CHECK(oc_capture_session_start_running(session) == OC_OK);
    double deadline = now_ms() + 10000;
    while (SHARED_GET(log.frames) < 24000 && now_ms() < deadline) usleep(1000);
    CHECK(oc_capture_session_stop_running(session) == OC_OK);
    CHECK(SHARED_GET(log.frames) >= 24000 && SHARED_GET(log.wrong_format) == 0 && SHARED_GET(log.silent) == 0 && SHARED_GET(log.leading) <= 2);   /* half a second of the tone */
    CHECK(oc_audio_data_output_delivered_frames(audio) >= SHARED_GET(log.frames));
    CHECK(oc_capture_session_remove_audio_output(session, audio) == OC_OK);
    CHECK(oc_capture_session_set_audio_input(session, NULL) == OC_OK);
    oc_audio_data_output_destroy(audio);
    CHECK(oc_audio_data_output_set_callback(audio, on_audio, &log) == OC_ERROR_INVALID_HANDLE);   /* destroyed */
    oc_capture_session_destroy(session);
    oc_device_list_free(list);
    oc_context_destroy(ctx);
    return 0;
}

struct mode_events {
    pthread_mutex_t lock;
    int changes;
    oc_status status;
    char message[512];
};

static void on_mode_event(oc_capture_session *session, oc_session_event event, oc_status error, const char *message,
                          void *user_data)
{
    struct mode_events *log = user_data;
    (void)session;
    if (event != OC_SESSION_EVENT_MICROPHONE_MODE_CHANGED) return;
    pthread_mutex_lock(&log->lock);
    log->changes++;
    log->status = error;
    snprintf(log->message, sizeof log->message, "%s", message);
    pthread_mutex_unlock(&log->lock);
}

/* Waits up to 10 s for a mode change that leaves `status` and `message` (a prefix of it) as
 * the latest, however many came before (opening the stream may post one: echo cancellation
 * found or not); returns whether it came. */
static int mode_changed_to(struct mode_events *log, oc_status status, const char *message)
{
    double deadline = now_ms() + 10000;
    for (;;) {
        pthread_mutex_lock(&log->lock);
        int arrived = log->changes > 0 && log->status == status && strncmp(log->message, message, strlen(message)) == 0;
        pthread_mutex_unlock(&log->lock);
        if (arrived) return 1;
        if (now_ms() > deadline) return 0;
        usleep(1000);
    }
}

/* A microphone alone in a session, through voice isolation (RNNoise where the test command
 * installed it, else the standard mode and the reason), switched back mid-stream. */
static int test_microphone_modes(void)
{
    char args[512];
    snprintf(args, sizeof args, "add-mic %s cmodes", getenv("OCELLUS_TESTBED_DIR"));
    CHECK(testbed(args) == 0);
    oc_context *ctx = create();
    CHECK(ctx != NULL);
    oc_device *mic = NULL;
    double deadline = now_ms() + 10000;
    while (!mic && now_ms() < deadline) {
        if (oc_context_copy_device_by_unique_id(ctx, "pipewire-cmodes", &mic) != OC_OK) usleep(10000);
    }
    CHECK(mic != NULL);
    oc_capture_session *session = NULL;
    oc_audio_data_output *audio = NULL;
    struct audio_log log = { 0, 0, 0, 0 };
    struct mode_events events = { PTHREAD_MUTEX_INITIALIZER, 0, 0, "" };
    CHECK(oc_capture_session_create(ctx, &session) == OC_OK);
    CHECK(oc_capture_session_add_event_callback(session, on_mode_event, &events, NULL) == OC_OK);

    CHECK(strcmp(oc_microphone_mode_name(OC_MICROPHONE_MODE_VOICE_ISOLATION), "voice_isolation") == 0);
    CHECK(oc_microphone_mode_name((oc_microphone_mode)7) == NULL && strstr(oc_last_error_message(), "7") != NULL);
    CHECK(oc_capture_session_set_preferred_microphone_mode(session, (oc_microphone_mode)7) == OC_ERROR_INVALID_ARGUMENT);
    CHECK(oc_capture_session_set_preferred_microphone_mode(NULL, OC_MICROPHONE_MODE_STANDARD) == OC_ERROR_INVALID_HANDLE);
    oc_microphone_mode preferred = (oc_microphone_mode)-1, active = (oc_microphone_mode)-1;
    char engine[32], reason[512];
    CHECK(oc_capture_session_get_microphone_mode(session, &preferred, &active, engine, sizeof engine, reason, sizeof reason) == OC_OK);
    CHECK(preferred == OC_MICROPHONE_MODE_STANDARD && active == OC_MICROPHONE_MODE_STANDARD);
    CHECK(strcmp(engine, "none") == 0 && reason[0] == '\0');

    CHECK(oc_capture_session_set_preferred_microphone_mode(session, OC_MICROPHONE_MODE_VOICE_ISOLATION) == OC_OK);
    CHECK(oc_capture_session_get_microphone_mode(session, &preferred, &active, engine, sizeof engine, reason, sizeof reason) == OC_OK);
    CHECK(preferred == OC_MICROPHONE_MODE_VOICE_ISOLATION);
    int engine_installed = getenv("OCELLUS_RNNOISE_LIB") != NULL;
    if (engine_installed) CHECK(active == OC_MICROPHONE_MODE_VOICE_ISOLATION && strcmp(engine, "rnnoise") == 0 && !reason[0]);
    else CHECK(active == OC_MICROPHONE_MODE_STANDARD && strstr(reason, "RNNoise") != NULL);
    /* Echo cancellation comes with voice isolation (the plugin beside the library), "none" without it. */
    char canceller[32], echo_reason[512];
    CHECK(oc_capture_session_get_echo_cancellation(session, canceller, sizeof canceller, echo_reason, sizeof echo_reason) == OC_OK);
    if (engine_installed) CHECK(strcmp(canceller, "webrtc") == 0 && !echo_reason[0]);
    else CHECK(strcmp(canceller, "none") == 0);
    CHECK(oc_capture_session_get_echo_cancellation(session, NULL, 0, NULL, 0) == OC_OK);
    CHECK(oc_capture_session_get_echo_cancellation(NULL, canceller, sizeof canceller, NULL, 0) == OC_ERROR_INVALID_HANDLE);
    CHECK(engine_installed ? mode_changed_to(&events, OC_OK, "voice_isolation")
                           : mode_changed_to(&events, OC_ERROR_LIBRARY_UNAVAILABLE, "standard: "));

    /* The sound's format: the microphone's own (0), a set one, and what is refused. */
    CHECK(oc_capture_session_set_audio_format(session, 0, 0) == OC_OK);
    CHECK(oc_capture_session_set_audio_format(session, 100, 2) == OC_ERROR_INVALID_ARGUMENT && strstr(oc_last_error_message(), "100 Hz"));
    CHECK(oc_capture_session_set_audio_format(session, 48000, 65) == OC_ERROR_INVALID_ARGUMENT);
    CHECK(oc_capture_session_set_audio_format(NULL, 48000, 2) == OC_ERROR_INVALID_HANDLE);
    CHECK(oc_capture_session_set_audio_format(session, 48000, 2) == OC_OK);

    CHECK(oc_audio_data_output_create(&audio) == OC_OK);
    CHECK(oc_audio_data_output_set_callback(audio, on_audio, &log) == OC_OK);
    CHECK(oc_capture_session_set_audio_input(session, mic) == OC_OK);
    CHECK(oc_capture_session_add_audio_output(session, audio) == OC_OK);
    CHECK(oc_capture_session_start_running(session) == OC_OK);   /* no camera */
    deadline = now_ms() + 10000;
    while (SHARED_GET(log.frames) < 9600 && now_ms() < deadline) usleep(1000);
    CHECK(oc_capture_session_set_preferred_microphone_mode(session, OC_MICROPHONE_MODE_WIDE_SPECTRUM) == OC_OK);
    while (SHARED_GET(log.frames) < 19200 && now_ms() < deadline) usleep(1000);
    CHECK(oc_capture_session_stop_running(session) == OC_OK);
    CHECK(SHARED_GET(log.frames) >= 19200 && SHARED_GET(log.wrong_format) == 0);
    CHECK(oc_audio_data_output_dropped_frames(audio) == 0 && oc_audio_data_output_dropped_frames(NULL) == 0);
    CHECK(mode_changed_to(&events, OC_OK, "wide_spectrum"));
    CHECK(oc_capture_session_get_echo_cancellation(session, canceller, sizeof canceller, NULL, 0) == OC_OK);
    CHECK(strcmp(canceller, "none") == 0);

    oc_audio_data_output_destroy(audio);
    oc_capture_session_destroy(session);
    oc_device_release(mic);
    oc_context_destroy(ctx);
    snprintf(args, sizeof args, "remove-mic %s cmodes", getenv("OCELLUS_TESTBED_DIR"));
    CHECK(testbed(args) == 0);
    return 0;
}

struct route_log {
    pthread_mutex_t lock;
    char last[128];
    int calls;
};

static void on_route(oc_context *ctx, oc_device *input, void *user_data)
{
    struct route_log *log = user_data;
    (void)ctx;
    pthread_mutex_lock(&log->lock);
    snprintf(log->last, sizeof log->last, "%s", input ? oc_device_unique_id(input) : "none");
    log->calls++;
    pthread_mutex_unlock(&log->lock);
}

static int route_is(struct route_log *log, const char *unique_id)
{
    double deadline = now_ms() + 10000;
    for (;;) {
        pthread_mutex_lock(&log->lock);
        int same = strcmp(log->last, unique_id) == 0;
        pthread_mutex_unlock(&log->lock);
        if (same) return 1;
        if (now_ms() > deadline) return 0;
        usleep(1000);
    }
}

static int test_microphone_route(void)
{
    oc_context *ctx = create();
    CHECK(ctx != NULL);
    oc_device *microphone = NULL, *route = NULL, *preferred = NULL;
    oc_device_list *list = NULL;
    struct route_log log = { PTHREAD_MUTEX_INITIALIZER, "", 0 };
    oc_callback_id id = 0;
    char args[512];

    /* Bad input. */
    CHECK(oc_context_copy_default_microphone(NULL, &microphone) == OC_ERROR_INVALID_HANDLE && microphone == NULL);
    CHECK(oc_context_copy_default_microphone(ctx, NULL) == OC_ERROR_INVALID_ARGUMENT);
    CHECK(oc_context_copy_microphone_route(ctx, NULL) == OC_ERROR_INVALID_ARGUMENT);
    CHECK(oc_context_copy_preferred_microphone((oc_context *)&log, &preferred) == OC_ERROR_INVALID_HANDLE);
    CHECK(oc_context_add_microphone_route_callback(ctx, NULL, NULL, &id) == OC_ERROR_INVALID_ARGUMENT && id == 0);
    CHECK(oc_context_add_microphone_route_callback(NULL, on_route, &log, &id) == OC_ERROR_INVALID_HANDLE);

    CHECK(oc_context_copy_default_microphone(ctx, &microphone) == OC_OK && microphone != NULL);
    CHECK(strcmp(oc_device_unique_id(microphone), "microphone") == 0);
    CHECK(oc_device_get_type(microphone) == OC_DEVICE_TYPE_MICROPHONE);
    CHECK(oc_context_copy_microphone_route(ctx, &route) == OC_OK && route != NULL);
    CHECK(strcmp(oc_device_unique_id(route), "pipewire-vmic0") == 0);
    CHECK(strcmp(oc_device_name(microphone), oc_device_name(route)) == 0);   /* named after its input */
    const char *old_name = oc_device_name(microphone);
    CHECK(oc_context_add_microphone_route_callback(ctx, on_route, &log, &id) == OC_OK && id != 0);
    CHECK(oc_context_set_preferred_microphone(ctx, microphone) == OC_ERROR_INVALID_ARGUMENT);   /* the route itself */
    CHECK(oc_context_copy_devices(ctx, &list) == OC_OK);
    CHECK(oc_context_set_preferred_microphone(ctx, find(list, "usb-1d6b:0110-VCAM-0000")) == OC_ERROR_INVALID_ARGUMENT);
    CHECK(oc_context_set_preferred_microphone(ctx, (oc_device *)list) == OC_ERROR_INVALID_HANDLE);
    oc_device_list_free(list);

    /* A microphone plugged in takes the route; preferring the first brings it back. */
    snprintf(args, sizeof args, "add-mic %s cmic", getenv("OCELLUS_TESTBED_DIR"));
    CHECK(testbed(args) == 0);
    CHECK(route_is(&log, "pipewire-cmic"));
    CHECK(strcmp(oc_device_name(microphone), "Virtual Microphone cmic") == 0);
    CHECK(strcmp(old_name, oc_device_name(route)) == 0);   /* an earlier name stays valid */
    CHECK(oc_context_set_preferred_microphone(ctx, route) == OC_OK);
    CHECK(route_is(&log, "pipewire-vmic0"));
    CHECK(oc_context_copy_preferred_microphone(ctx, &preferred) == OC_OK && preferred == route);
    oc_device_release(preferred);
    CHECK(oc_context_set_preferred_microphone(ctx, NULL) == OC_OK);
    CHECK(oc_context_copy_preferred_microphone(ctx, &preferred) == OC_OK && preferred == NULL);
    CHECK(route_is(&log, "pipewire-cmic"));   /* newer than the system default's last change */
    snprintf(args, sizeof args, "remove-mic %s cmic", getenv("OCELLUS_TESTBED_DIR"));
    CHECK(testbed(args) == 0);
    CHECK(route_is(&log, "pipewire-vmic0"));
    CHECK(oc_context_remove_callback(ctx, id) == OC_OK);

    /* Automatic switching flags. */
    oc_capture_session *session = NULL;
    CHECK(oc_capture_session_create(ctx, &session) == OC_OK);
    CHECK(oc_capture_session_set_automatically_switches_camera(NULL, true) == OC_ERROR_INVALID_HANDLE);
    CHECK(!oc_capture_session_automatically_switches_camera(NULL) && !oc_capture_session_is_recording(NULL));
    CHECK(oc_capture_session_set_audio_input(session, microphone) == OC_OK);   /* the route follows */
    CHECK(oc_capture_session_set_automatically_switches_camera(session, true) == OC_OK);
    CHECK(oc_capture_session_automatically_switches_camera(session) && !oc_capture_session_is_recording(session));
    CHECK(oc_capture_session_set_automatically_switches_camera(session, false) == OC_OK);
    CHECK(!oc_capture_session_automatically_switches_camera(session));
    oc_capture_session_destroy(session);
    CHECK(oc_capture_session_set_automatically_switches_camera(session, true) == OC_ERROR_INVALID_HANDLE);

    oc_device_release(route);
    oc_device_release(microphone);
    oc_context_destroy(ctx);
    return 0;
}
