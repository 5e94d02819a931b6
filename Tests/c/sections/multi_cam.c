/* The C suite: Multi-camera sessions. Included by abi_test.c, after harness.h; run alone with
 * `Tests/c/run.sh multi_cam`. */

static void count_multi_frame(oc_video_data_output *output, const oc_frame *frame, void *user_data)
{
    (void)output; (void)frame;
    pthread_mutex_lock(&multi_log.lock);
    multi_log.frames[*(const int *)user_data]++;
    pthread_cond_broadcast(&multi_log.changed);
    pthread_mutex_unlock(&multi_log.lock);
}

static void record_multi_event(oc_multi_cam_session *session, oc_session_event event, const char *camera, oc_status error,
                               const char *message, void *user_data)
{
    (void)session; (void)error; (void)message; (void)user_data;
    pthread_mutex_lock(&multi_log.lock);
    if (event == OC_SESSION_EVENT_STARTED) {
        multi_log.started++;
        snprintf(multi_log.camera_of_started, sizeof multi_log.camera_of_started, "%s", camera ? camera : "(none)");
    }
    if (event == OC_SESSION_EVENT_STOPPED) multi_log.stopped++;
    pthread_cond_broadcast(&multi_log.changed);
    pthread_mutex_unlock(&multi_log.lock);
}

/* A multi-camera session from C: the test bed's two cameras, each with its own output through its
 * branch, one start and stop; the branches are the session's (they neither start, switch nor
 * are destroyed on their own); bus fit set and read back; bad arguments answered. */
static int test_multi_cam_session(void)
{
    oc_context *ctx = create_with_private_state("org.ocellus.test.c.multicam");
    CHECK(ctx != NULL);
    oc_device_list *list = NULL;
    CHECK(oc_context_copy_devices(ctx, &list) == OC_OK);
    oc_device *cameras[2] = { find(list, "usb-1d6b:0110-VCAM-0000"), find(list, "usb-1d6b:0111-VCAM-0001") };
    CHECK(cameras[0] && cameras[1]);
    oc_multi_cam_session *multi = NULL;
    CHECK(oc_multi_cam_session_create(ctx, &multi) == OC_OK);
    CHECK(oc_multi_cam_session_add_event_callback(multi, record_multi_event, NULL, NULL) == OC_OK);
    CHECK(oc_multi_cam_session_start_running(multi) == OC_ERROR_WRONG_STATE && strstr(oc_last_error_message(), "no camera"));
    static const int which[2] = { 0, 1 };
    oc_video_data_output *outputs[2] = { NULL, NULL };
    oc_capture_session *branches[2] = { NULL, NULL };
    for (int i = 0; i < 2; i++) {
        CHECK(oc_multi_cam_session_can_add_camera(multi, cameras[i]));
        CHECK(oc_video_data_output_create(&outputs[i]) == OC_OK);
        CHECK(oc_video_data_output_set_format(outputs[i], OC_FOURCC('N', 'V', '1', '2'), 320, 240) == OC_OK);
        CHECK(oc_video_data_output_set_frame_callback(outputs[i], count_multi_frame, (void *)&which[i]) == OC_OK);
        CHECK(oc_multi_cam_session_add_camera(multi, cameras[i], &branches[i]) == OC_OK && branches[i]);
        CHECK(oc_capture_session_add_output(branches[i], outputs[i]) == OC_OK);
    }
    CHECK(!oc_multi_cam_session_can_add_camera(multi, cameras[0]));
    oc_capture_session *again = NULL;
    CHECK(oc_multi_cam_session_add_camera(multi, cameras[0], &again) == OC_ERROR_INVALID_ARGUMENT && !again
          && strstr(oc_last_error_message(), "in the session already"));
    CHECK(oc_multi_cam_session_add_camera(multi, cameras[0], NULL) == OC_ERROR_INVALID_ARGUMENT);
    oc_hardware_cost cost = { .struct_size = sizeof cost };
    CHECK(oc_multi_cam_session_get_hardware_cost(multi, &cost) == OC_ERROR_NOT_FOUND && strstr(oc_last_error_message(), "on USB"));
    /* The branch's bus fit: automatic by default, set like other changes. */
    CHECK(oc_capture_session_get_bus_fit(branches[1]) == OC_BUS_FIT_AUTOMATIC);
    CHECK(oc_capture_session_set_bus_fit(branches[1], OC_BUS_FIT_OFF) == OC_OK && oc_capture_session_get_bus_fit(branches[1]) == OC_BUS_FIT_OFF);
    CHECK(oc_capture_session_set_bus_fit(branches[1], (oc_bus_fit)7) == OC_ERROR_INVALID_ARGUMENT && strstr(oc_last_error_message(), "unknown bus fit"));
    /* The branches are the session's. */
    CHECK(oc_capture_session_start_running(branches[0]) == OC_ERROR_WRONG_STATE && strstr(oc_last_error_message(), "multi-camera session"));
    CHECK(oc_capture_session_set_input(branches[0], cameras[1]) == OC_ERROR_WRONG_STATE);
    CHECK(oc_capture_session_set_automatically_switches_camera(branches[0], true) == OC_ERROR_WRONG_STATE
          && strstr(oc_last_error_message(), "single-camera"));
    oc_capture_session_destroy(branches[0]);
    CHECK(strstr(oc_last_error_message(), "goes with its camera") != NULL);
    CHECK(oc_multi_cam_session_start_running(multi) == OC_OK && oc_multi_cam_session_is_running(multi));
    CHECK(wait_until(&multi_log.lock, &multi_log.changed, &multi_log.started, 1));
    CHECK(wait_until(&multi_log.lock, &multi_log.changed, &multi_log.frames[0], 15));
    CHECK(wait_until(&multi_log.lock, &multi_log.changed, &multi_log.frames[1], 15));
    CHECK(oc_multi_cam_session_remove_camera(multi, cameras[0]) == OC_ERROR_WRONG_STATE && strstr(oc_last_error_message(), "stop it first"));
    CHECK(oc_multi_cam_session_stop_running(multi) == OC_OK && !oc_multi_cam_session_is_running(multi));
    CHECK(wait_until(&multi_log.lock, &multi_log.changed, &multi_log.stopped, 1));
    pthread_mutex_lock(&multi_log.lock);
    CHECK(strcmp(multi_log.camera_of_started, "(none)") == 0);
    pthread_mutex_unlock(&multi_log.lock);
    CHECK(oc_multi_cam_session_remove_camera(multi, cameras[1]) == OC_OK);
    CHECK(oc_multi_cam_session_remove_camera(multi, cameras[1]) == OC_ERROR_NOT_FOUND);
    CHECK(oc_capture_session_get_bus_fit(branches[1]) == OC_BUS_FIT_AUTOMATIC && strstr(oc_last_error_message(), "capture session"));
    CHECK(oc_multi_cam_session_start_running(NULL) == OC_ERROR_INVALID_HANDLE);
    oc_multi_cam_session_destroy(multi);
    CHECK(oc_capture_session_start_running(branches[0]) == OC_ERROR_INVALID_HANDLE);   /* a branch goes with its session */
    for (int i = 0; i < 2; i++) oc_video_data_output_destroy(outputs[i]);
    oc_device_list_free(list);
    oc_context_destroy(ctx);
    return 0;
}
