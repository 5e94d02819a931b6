/* The C suite: Rotation coordinator. Included by abi_test.c, after harness.h; run alone with
 * `Tests/c/run.sh rotation`. */

static int test_rotation_coordinator(void)
{
    oc_context *ctx = create_with_private_state("org.ocellus.test.c.rotation");
    CHECK(ctx != NULL);
    oc_device_list *list = NULL;
    CHECK(oc_context_copy_devices(ctx, &list) == OC_OK);
    oc_device *camera = find(list, "usb-1d6b:0110-VCAM-0000"), *mic = find(list, "pipewire-vmic0");
    oc_rotation_coordinator *coordinator = NULL;
    CHECK(oc_rotation_coordinator_create(ctx, mic, -1, &coordinator) == OC_ERROR_INVALID_ARGUMENT && coordinator == NULL);
    CHECK(oc_rotation_coordinator_create(ctx, camera, 7, &coordinator) == OC_ERROR_INVALID_ARGUMENT);
    CHECK(oc_rotation_coordinator_create(ctx, camera, -1, &coordinator) == OC_OK);
    CHECK(oc_rotation_coordinator_is_mirrored(coordinator));   /* external cameras mirror by default */
    CHECK(oc_rotation_coordinator_set_interface_orientation(coordinator, 0) == OC_OK);
    CHECK(oc_rotation_coordinator_set_host_orientation(coordinator, 270) == OC_OK);
    int32_t preview = -1, capture = -1;
    CHECK(oc_rotation_coordinator_get_angles(coordinator, &preview, &capture) == OC_OK);
    CHECK(capture == 0 && preview == 270);   /* the camera did not move: only the preview turns */
    CHECK(oc_rotation_coordinator_set_host_orientation(coordinator, 45) == OC_ERROR_INVALID_ARGUMENT);
    CHECK(oc_rotation_coordinator_set_mounting_correction(coordinator, 90) == OC_OK);
    CHECK(oc_rotation_coordinator_get_angles(coordinator, NULL, &capture) == OC_OK && capture == 90);
    oc_rotation_coordinator_destroy(coordinator);
    CHECK(oc_rotation_coordinator_get_angles(coordinator, &preview, &capture) == OC_ERROR_INVALID_HANDLE);
    oc_device_list_free(list);
    oc_context_destroy(ctx);
    return 0;
}
