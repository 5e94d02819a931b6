/* The C suite: Center Stage. Included by abi_test.c, after harness.h; run alone with
 * `Tests/c/run.sh center_stage`. */

/* Center Stage: off by default, per camera across handles, not active without a face (the
 * test pattern has none), and bad arguments answered with a status and a message. */
static int test_center_stage(void)
{
    oc_context *ctx = create_with_private_state("org.ocellus.test.c.centerstage");
    CHECK(ctx != NULL);
    oc_device_list *list = NULL;
    CHECK(oc_context_copy_devices(ctx, &list) == OC_OK);
    oc_device *camera = find(list, "usb-1d6b:0110-VCAM-0000"), *mic = find(list, "pipewire-vmic0");
    oc_center_stage_state state = { .struct_size = sizeof state };
    CHECK(oc_device_get_center_stage(camera, &state) == OC_OK && !state.enabled && !state.active);
    CHECK(state.window[0] == 0 && state.window[1] == 0 && state.window[2] == 1 && state.window[3] == 1);
    CHECK(oc_device_set_center_stage(camera, true) == OC_OK);
    oc_capture_session *session = NULL;
    oc_video_data_output *output = NULL;
    CHECK(oc_capture_session_create(ctx, &session) == OC_OK && oc_video_data_output_create(&output) == OC_OK);
    CHECK(oc_video_data_output_set_format(output, OC_FOURCC('N', 'V', '1', '2'), 320, 240) == OC_OK);
    CHECK(oc_capture_session_set_input(session, camera) == OC_OK && oc_capture_session_add_output(session, output) == OC_OK);
    CHECK(oc_capture_session_start_running(session) == OC_OK);
    usleep(800 * 1000);
    CHECK(oc_device_get_center_stage(camera, &state) == OC_OK && state.enabled && !state.active && state.window[2] == 1);
    oc_capture_session_stop_running(session);
    oc_capture_session_destroy(session);
    oc_video_data_output_destroy(output);
    CHECK(oc_device_set_center_stage(mic, true) == OC_ERROR_INVALID_ARGUMENT && strstr(oc_last_error_message(), "not a camera"));
    CHECK(oc_device_get_center_stage(camera, NULL) == OC_ERROR_INVALID_ARGUMENT);
    oc_center_stage_state small = { .struct_size = 4 };
    CHECK(oc_device_get_center_stage(camera, &small) == OC_ERROR_INVALID_ARGUMENT && strstr(oc_last_error_message(), "struct_size"));
    CHECK(oc_device_set_center_stage(NULL, true) == OC_ERROR_INVALID_HANDLE);
    CHECK(oc_device_set_center_stage(camera, false) == OC_OK);
    CHECK(oc_device_get_center_stage(camera, &state) == OC_OK && !state.enabled);
    oc_device_list_free(list);
    oc_context_destroy(ctx);
    return 0;
}
