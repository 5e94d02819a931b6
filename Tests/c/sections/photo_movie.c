/* The C suite: Photo output and movie file output. Included by abi_test.c, after harness.h; run alone with
 * `Tests/c/run.sh photo_movie`. */

struct still_log {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    int photos, failures;
    uint16_t orientation;
    uint64_t last_sequence;
    int out_of_order;
    oc_status recording_status;
    int recordings;
    uint64_t recorded_frames;
    char codec[16];
};

static void on_photo(oc_photo_output *output, oc_status status, const oc_photo *photo, const char *message, void *user_data)
{
    struct still_log *log = user_data;
    (void)output; (void)message;
    pthread_mutex_lock(&log->lock);
    if (status == OC_OK && photo && photo->size > 2 && photo->data[0] == 0xFF && photo->data[1] == 0xD8) {
        if (photo->sequence <= log->last_sequence) log->out_of_order++;
        log->last_sequence = photo->sequence;
        log->orientation = photo->orientation;
        log->photos++;
    } else {
        log->failures++;
    }
    pthread_cond_broadcast(&log->changed);
    pthread_mutex_unlock(&log->lock);
}

static void on_recording(oc_movie_file_output *output, oc_status status, const char *message,
                         const oc_recording_summary *summary, void *user_data)
{
    struct still_log *log = user_data;
    (void)output; (void)message;
    pthread_mutex_lock(&log->lock);
    log->recording_status = status;
    log->recorded_frames = summary ? summary->frames : 0;
    if (summary && summary->video_codec) snprintf(log->codec, sizeof log->codec, "%s", summary->video_codec);
    log->recordings++;
    pthread_cond_broadcast(&log->changed);
    pthread_mutex_unlock(&log->lock);
}

static int wait_for(struct still_log *log, int *counter, int target)
{
    return wait_until(&log->lock, &log->changed, counter, target);
}

static int test_photo_and_movie_outputs(void)
{
    oc_context *ctx = create();
    CHECK(ctx != NULL);
    oc_device_list *list = NULL;
    CHECK(oc_context_copy_devices(ctx, &list) == OC_OK);
    oc_device *camera = find(list, "usb-1d6b:0110-VCAM-0000");
    oc_capture_session *session = NULL;
    oc_photo_output *photo = NULL;
    oc_movie_file_output *movie = NULL;
    struct still_log log;
    memset(&log, 0, sizeof log);
    pthread_mutex_init(&log.lock, NULL);
    pthread_cond_init(&log.changed, NULL);
    CHECK(oc_capture_session_create(ctx, &session) == OC_OK);
    CHECK(oc_photo_output_create(&photo) == OC_OK && oc_movie_file_output_create(&movie) == OC_OK);

    /* Bad input: NULLs, wrong handle kinds, wrong state. */
    CHECK(oc_photo_output_create(NULL) == OC_ERROR_INVALID_ARGUMENT);
    CHECK(oc_photo_output_capture(NULL, NULL, on_photo, &log) == OC_ERROR_INVALID_HANDLE);
    CHECK(oc_photo_output_capture((oc_photo_output *)movie, NULL, on_photo, &log) == OC_ERROR_INVALID_HANDLE);
    CHECK(oc_photo_output_capture(photo, NULL, NULL, &log) == OC_ERROR_INVALID_ARGUMENT);
    CHECK(oc_photo_output_capture(photo, NULL, on_photo, &log) == OC_ERROR_WRONG_STATE);   /* in no session */
    CHECK(oc_photo_output_set_rotation_angle(photo, 45) == OC_ERROR_INVALID_ARGUMENT);
    CHECK(oc_photo_output_set_rotation_angle(photo, 270) == OC_OK);
    CHECK(oc_photo_output_set_mirrored(NULL, true) == OC_ERROR_INVALID_HANDLE);
    CHECK(oc_photo_output_set_mirrored(photo, false) == OC_OK);
    CHECK(oc_movie_file_output_start_recording(movie, NULL, on_recording, &log) == OC_ERROR_INVALID_ARGUMENT);
    CHECK(oc_movie_file_output_start_recording(movie, "/tmp/ocellus-c.mp4", on_recording, &log) == OC_ERROR_WRONG_STATE);
    CHECK(oc_movie_file_output_stop_recording(movie) == OC_OK && !oc_movie_file_output_is_recording(movie));
    CHECK(oc_capture_session_remove_movie_file_output(session, movie) == OC_ERROR_NOT_FOUND);

    CHECK(oc_capture_session_set_input(session, camera) == OC_OK);
    CHECK(oc_capture_session_set_preset(session, OC_SESSION_PRESET_640X480) == OC_OK);
    CHECK(oc_capture_session_add_photo_output(session, photo) == OC_OK);
    CHECK(oc_capture_session_add_photo_output(session, photo) == OC_ERROR_WRONG_STATE);
    CHECK(oc_capture_session_add_movie_file_output(session, movie) == OC_OK);
    CHECK(oc_capture_session_start_running(session) == OC_OK);

    /* Three photos back to back: all answered, successive frames, the EXIF orientation of 270°. */
    oc_photo_settings settings;
    memset(&settings, 0, sizeof settings);
    settings.struct_size = 4;
    CHECK(oc_photo_output_capture(photo, &settings, on_photo, &log) == OC_ERROR_INVALID_ARGUMENT);   /* struct_size */
    settings.struct_size = sizeof settings;
    for (int i = 0; i < 3; i++) CHECK(oc_photo_output_capture(photo, &settings, on_photo, &log) == OC_OK);
    CHECK(wait_for(&log, &log.photos, 3) && log.out_of_order == 0 && log.failures == 0 && log.orientation == 8);

    /* A recording; a second start while it runs is refused; an unwritable path fails at once. */
    CHECK(oc_movie_file_output_start_recording(movie, "/nonexistent/dir/x.mp4", on_recording, &log) == OC_ERROR_IO);
    CHECK(strstr(oc_last_error_message(), "cannot write") != NULL);
    CHECK(oc_movie_file_output_start_recording(movie, "/tmp/ocellus-c.mp4", on_recording, &log) == OC_OK);
    CHECK(oc_movie_file_output_start_recording(movie, "/tmp/ocellus-c2.mp4", on_recording, &log) == OC_ERROR_WRONG_STATE);
    CHECK(oc_movie_file_output_is_recording(movie));
    usleep(700 * 1000);
    CHECK(oc_movie_file_output_recorded_duration(movie) > 0.3);
    CHECK(oc_movie_file_output_stop_recording(movie) == OC_OK);
    CHECK(wait_for(&log, &log.recordings, 1) && log.recording_status == OC_OK && log.recorded_frames >= 10);
    CHECK(strcmp(log.codec, "libx264") == 0);

    CHECK(oc_capture_session_stop_running(session) == OC_OK);
    CHECK(oc_photo_output_capture(photo, NULL, on_photo, &log) == OC_ERROR_WRONG_STATE);   /* snap while stopped */
    oc_photo_output_destroy(photo);
    oc_movie_file_output_destroy(movie);
    CHECK(oc_photo_output_capture(photo, NULL, on_photo, &log) == OC_ERROR_INVALID_HANDLE);   /* destroyed */
    oc_capture_session_destroy(session);
    oc_device_list_free(list);
    oc_context_destroy(ctx);
    unlink("/tmp/ocellus-c.mp4");
    return 0;
}
