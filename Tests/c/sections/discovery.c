/* The C suite: Discovery sessions. Included by abi_test.c, after harness.h; run alone with
 * `Tests/c/run.sh discovery`. */

static int discovery_events;

static void on_discovery(oc_discovery_session *session, oc_hotplug_event event, oc_device *device, void *user_data)
{
    (void)session; (void)event; (void)user_data;
    if (oc_device_get_position(device) == OC_DEVICE_POSITION_FRONT) SHARED_ADD(discovery_events, 1);
}

static int test_discovery_session(void)
{
    oc_context *ctx = create();
    CHECK(ctx != NULL);
    oc_discovery_session *session = (oc_discovery_session *)1;
    CHECK(oc_discovery_session_create(ctx, 1u << 9, OC_MEDIA_TYPE_ANY, OC_DEVICE_POSITION_UNSPECIFIED, &session) == OC_ERROR_INVALID_ARGUMENT);
    CHECK(session == NULL);
    CHECK(oc_discovery_session_create(ctx, 0, (oc_media_type)7, OC_DEVICE_POSITION_UNSPECIFIED, &session) == OC_ERROR_INVALID_ARGUMENT);
    CHECK(oc_discovery_session_create(NULL, 0, OC_MEDIA_TYPE_ANY, OC_DEVICE_POSITION_UNSPECIFIED, &session) == OC_ERROR_INVALID_HANDLE);

    CHECK(oc_discovery_session_create(ctx, OC_DEVICE_TYPES_EXTERNAL_CAMERA, OC_MEDIA_TYPE_VIDEO,
                                      OC_DEVICE_POSITION_UNSPECIFIED, &session) == OC_OK);
    oc_device_list *list = NULL;
    CHECK(oc_discovery_session_copy_devices(session, &list) == OC_OK && oc_device_list_count(list) == 2);
    oc_device_list_free(list);
    oc_discovery_session_destroy(session);
    CHECK(oc_discovery_session_copy_devices(session, &list) == OC_ERROR_INVALID_HANDLE);
    oc_discovery_session_destroy(session);   /* twice: no crash */

    CHECK(oc_discovery_session_create(ctx, 0, OC_MEDIA_TYPE_VIDEO, OC_DEVICE_POSITION_FRONT, &session) == OC_OK);
    SHARED_SET(discovery_events, 0);
    CHECK(oc_discovery_session_set_callback(session, on_discovery, NULL) == OC_OK);
    CHECK(add_camera("cfront", "--prop api.libcamera.location=front") == 0);
    double deadline = now_ms() + 10000;
    while (SHARED_GET(discovery_events) < 1 && now_ms() < deadline) usleep(1000);
    CHECK(SHARED_GET(discovery_events) == 1);
    CHECK(oc_discovery_session_copy_devices(session, &list) == OC_OK && oc_device_list_count(list) == 1);
    oc_device *front = oc_device_list_get(list, 0);
    CHECK(oc_context_add_disconnected_callback(ctx, front, NULL, NULL, NULL) == OC_ERROR_INVALID_ARGUMENT);
    oc_device_list_free(list);
    CHECK(oc_discovery_session_set_callback(session, NULL, NULL) == OC_OK);
    remove_camera("cfront");
    oc_discovery_session_destroy(session);
    oc_context_destroy(ctx);
    return 0;
}
