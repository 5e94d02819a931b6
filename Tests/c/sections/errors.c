/* The C suite: Status codes and errors (handles, hardening). Included by abi_test.c, after harness.h; run alone with
 * `Tests/c/run.sh errors`. */

static int test_null_and_destroyed_handles(void)
{
    oc_device_list *list = (oc_device_list *)1;
    CHECK(oc_context_copy_devices(NULL, &list) == OC_ERROR_INVALID_HANDLE && list == NULL);
    CHECK(strstr(oc_last_error_message(), "NULL") != NULL);
    oc_context *ctx = create();
    CHECK(ctx != NULL);
    CHECK(oc_context_copy_devices(ctx, NULL) == OC_ERROR_INVALID_ARGUMENT);
    CHECK(oc_context_add_hotplug_callback(ctx, NULL, NULL, NULL) == OC_ERROR_INVALID_ARGUMENT);
    CHECK(oc_context_remove_callback(ctx, 987654) == OC_ERROR_NOT_FOUND);
    CHECK(oc_context_copy_devices(ctx, &list) == OC_OK);
    oc_device *device = oc_device_retain(oc_device_list_get(list, 0));
    CHECK(oc_device_list_get(list, 999) == NULL && strstr(oc_last_error_message(), "out of range"));
    oc_format_info info = { .struct_size = 4 };
    CHECK(oc_device_get_format(device, 0, &info) == OC_ERROR_INVALID_ARGUMENT);
    info.struct_size = sizeof info;
    CHECK(oc_device_get_format(device, 999, &info) == OC_ERROR_INVALID_ARGUMENT);
    CHECK(oc_device_get_format(device, 0, NULL) == OC_ERROR_INVALID_ARGUMENT);
    CHECK(oc_device_get_property(device, NULL) == NULL);
    oc_device_list_free(list);
    oc_device_release(device);   /* last reference: the handle is now stale */
    CHECK(oc_device_unique_id(device) == NULL);
    CHECK(strstr(oc_last_error_message(), "not a valid handle") != NULL);
    CHECK(!oc_device_is_connected(device));
    CHECK(oc_device_retain(device) == NULL);
    CHECK(oc_device_list_count(list) == 0);  /* freed list */

    oc_context_destroy(ctx);
    CHECK(oc_context_copy_devices(ctx, &list) == OC_ERROR_INVALID_HANDLE);
    CHECK(oc_context_app_id(ctx) == NULL);
    oc_context_destroy(ctx);   /* twice: no crash */
    oc_context_destroy(NULL);
    oc_device_release(NULL);
    oc_device_list_free(NULL);
    return 0;
}

static void *fresh_thread_error(void *unused)
{
    (void)unused;
    return (void *)oc_last_error_message();
}

/* ---- contracts the generated bad-input suite cannot see (Tests/badinput) ---- */

static void count_rotation(oc_rotation_coordinator *coordinator, int32_t preview, int32_t capture, void *user_data)
{
    (void)coordinator; (void)preview; (void)capture;
    __atomic_add_fetch((int *)user_data, 1, __ATOMIC_SEQ_CST);
}

struct self_clearing {
    int calls, release_kept_frame, width_after_release;
};

static void clear_self(oc_video_data_output *output, const oc_frame *frame, void *user_data)
{
    struct self_clearing *log = user_data;
    oc_frame_release((oc_frame *)frame);   /* not a retained copy: refused, the frame stays valid */
    log->release_kept_frame = strstr(oc_last_error_message(), "not a retained copy") != NULL;
    log->width_after_release = (int)oc_frame_width(frame);
    __atomic_add_fetch(&log->calls, 1, __ATOMIC_SEQ_CST);
    oc_video_data_output_set_frame_callback(output, NULL, NULL);   /* returns at once; no later call */
}

static void count_session_events(oc_capture_session *session, oc_session_event event, oc_status error,
                                 const char *message, void *user_data)
{
    (void)session; (void)event; (void)error; (void)message;
    __atomic_add_fetch((int *)user_data, 1, __ATOMIC_SEQ_CST);
}

static void on_any_photo(oc_photo_output *output, oc_status status, const oc_photo *photo, const char *message,
                         void *user_data)
{
    (void)output; (void)status; (void)photo; (void)message; (void)user_data;
}

static int test_hardening_contracts(void)
{
    oc_context *ctx = create_with_private_state("org.ocellus.test.c.hardening");
    CHECK(ctx != NULL);
    oc_device_list *list = NULL;
    CHECK(oc_context_copy_devices(ctx, &list) == OC_OK);
    oc_device *camera = find(list, "usb-1d6b:0110-VCAM-0000");
    CHECK(camera != NULL);

    /* Releasing a borrowed device releases nothing: the list's entry stays valid. */
    oc_device_release(camera);
    CHECK(strstr(oc_last_error_message(), "borrowed") != NULL);
    CHECK(strcmp(oc_device_unique_id(camera), "usb-1d6b:0110-VCAM-0000") == 0);

    /* Problem buffers always come back NUL-terminated; an unknown backend is an error. */
    char buffer[16];
    memset(buffer, 'x', sizeof buffer);
    CHECK(oc_context_copy_state_problem(ctx, buffer, sizeof buffer) == 0 && buffer[0] == 0);
    memset(buffer, 'x', sizeof buffer);
    CHECK(oc_context_copy_backend_problem(ctx, (oc_backend)7, buffer, sizeof buffer) == 0 && buffer[0] == 0);
    CHECK(strstr(oc_last_error_message(), "unknown backend") != NULL);

    /* A NULL out_id registers all the same. */
    int rotations = 0;
    oc_rotation_coordinator *coordinator = NULL;
    CHECK(oc_rotation_coordinator_create(ctx, camera, -1, &coordinator) == OC_OK);
    CHECK(oc_rotation_coordinator_add_callback(coordinator, count_rotation, &rotations, NULL) == OC_OK);
    CHECK(oc_rotation_coordinator_set_interface_orientation(coordinator, 90) == OC_OK);
    double deadline = now_ms() + 5000;
    while (__atomic_load_n(&rotations, __ATOMIC_SEQ_CST) == 0 && now_ms() < deadline) usleep(1000);
    CHECK(rotations >= 1);
    oc_rotation_coordinator_destroy(coordinator);

    /* Photo paths are bytes: one that is not UTF-8 is refused, not rewritten. */
    oc_photo_output *photo = NULL;
    CHECK(oc_photo_output_create(&photo) == OC_OK);
    oc_photo_settings settings;
    memset(&settings, 0, sizeof settings);
    settings.struct_size = sizeof settings;
    settings.path = "/tmp/ocellus-\xff.jpg";
    CHECK(oc_photo_output_capture(photo, &settings, NULL, NULL) == OC_ERROR_INVALID_ARGUMENT);
    CHECK(oc_photo_output_capture(photo, &settings, on_any_photo, NULL) == OC_ERROR_INVALID_ARGUMENT);
    CHECK(strstr(oc_last_error_message(), "UTF-8") != NULL);
    oc_photo_output_destroy(photo);

    /* A rate cap is a maximum: 60 fps on a 30 fps camera delivers every frame; n/0 is refused. */
    oc_capture_session *session = NULL;
    oc_video_data_output *output = NULL;
    struct self_clearing log = { 0, 0, 0 };
    CHECK(oc_capture_session_create(ctx, &session) == OC_OK);
    CHECK(oc_video_data_output_create(&output) == OC_OK);
    CHECK(oc_video_data_output_set_max_frame_rate(output, (oc_fraction){30, 0}) == OC_ERROR_INVALID_ARGUMENT);
    CHECK(oc_video_data_output_set_max_frame_rate(output, (oc_fraction){60, 1}) == OC_OK);
    CHECK(oc_capture_session_set_input(session, camera) == OC_OK);
    CHECK(oc_capture_session_add_output(session, output) == OC_OK);

    /* Inside its own callback an output clears its callback without waiting for itself. */
    int events = 0;
    CHECK(oc_capture_session_add_event_callback(session, count_session_events, &events, NULL) == OC_OK);
    CHECK(oc_video_data_output_set_frame_callback(output, clear_self, &log) == OC_OK);
    CHECK(oc_capture_session_start_running(session) == OC_OK);
    deadline = now_ms() + 5000;
    while (__atomic_load_n(&log.calls, __ATOMIC_SEQ_CST) == 0 && now_ms() < deadline) usleep(1000);
    usleep(300000);   /* ~9 more frames at 30 fps: none may reach the cleared callback */
    if (log.calls != 1 || !log.release_kept_frame || log.width_after_release <= 0)
        fprintf(stderr, "  calls %d, release refused %d, width after release %d\n", log.calls, log.release_kept_frame,
                log.width_after_release);
    CHECK(log.calls == 1 && log.release_kept_frame && log.width_after_release > 0);
    CHECK(oc_video_data_output_delivered_frames(output) >= 5);
    CHECK(__atomic_load_n(&events, __ATOMIC_SEQ_CST) >= 1);   /* registered with a NULL out_id */
    CHECK(oc_capture_session_stop_running(session) == OC_OK);
    oc_capture_session_destroy(session);
    oc_video_data_output_destroy(output);
    oc_device_list_free(list);
    oc_context_destroy(ctx);
    return 0;
}

static int test_last_error_is_per_thread(void)
{
    oc_context_copy_devices(NULL, NULL);
    CHECK(strlen(oc_last_error_message()) > 0);
    /* A fresh thread has no error yet. */
    pthread_t thread;
    void *seen = NULL;
    CHECK(pthread_create(&thread, NULL, fresh_thread_error, NULL) == 0);
    pthread_join(thread, &seen);
    CHECK(seen != NULL && ((const char *)seen)[0] == 0);
    return 0;
}
