/* The C suite: Hotplug. Included by abi_test.c, after harness.h; run alone with
 * `Tests/c/run.sh hotplug`. */

static int test_hotplug_added_removed_and_replug(void)
{
    oc_context *ctx = create();
    CHECK(ctx != NULL);
    struct recorder r;
    recorder_init(&r);
    oc_callback_id id = 0;
    CHECK(oc_context_add_hotplug_callback(ctx, record, &r, &id) == OC_OK && id != 0);
    const char *usb = "--device-prop device.bus=usb --device-prop device.vendor.id=0x046d "
                      "--device-prop device.product.id=0x0825 --device-prop device.serial=HPCAM-1 "
                      "--device-prop device.bus-path=pci-0000:00:14.0-usb-0:4:1.0";
    CHECK(add_camera("hp0", usb) == 0);
    CHECK(wait_count(&r, &r.added, 1));
    CHECK(strcmp(r.last_added, "usb-046d:0825-HPCAM-1") == 0);
    oc_device *first = oc_device_retain(r.added_device);
    CHECK(oc_device_is_connected(first));

    CHECK(remove_camera("hp0") == 0);
    CHECK(wait_count(&r, &r.removed, 1));
    CHECK(strcmp(r.last_removed, "usb-046d:0825-HPCAM-1") == 0);
    CHECK(!oc_device_is_connected(first));

    CHECK(add_camera("hp0", usb) == 0);
    CHECK(wait_count(&r, &r.added, 2));
    CHECK(strcmp(r.last_added, "usb-046d:0825-HPCAM-1") == 0);
    CHECK(r.added_device != first);              /* a new instance ... */
    CHECK(oc_device_is_connected(r.added_device));
    CHECK(!oc_device_is_connected(first));       /* ... the old one stays disconnected */
    CHECK(strcmp(oc_device_unique_id(first), oc_device_unique_id(r.added_device)) == 0);
    oc_device_release(first);
    remove_camera("hp0");
    CHECK(wait_count(&r, &r.removed, 2));
    CHECK(oc_context_remove_callback(ctx, id) == OC_OK);
    CHECK(oc_context_remove_callback(ctx, id) == OC_ERROR_NOT_FOUND);
    oc_context_destroy(ctx);
    oc_device_release(r.added_device);
    return 0;
}

static int test_identical_cameras_without_serial_stay_distinct(void)
{
    oc_context *ctx = create();
    CHECK(ctx != NULL);
    struct recorder r;
    recorder_init(&r);
    CHECK(oc_context_add_hotplug_callback(ctx, record, &r, NULL) == OC_OK);
    const char *model = "--device-prop device.bus=usb --device-prop device.vendor.id=0x534d "
                        "--device-prop device.product.id=0x2109";
    char args[512];
    snprintf(args, sizeof args, "%s --device-prop device.bus-path=pci-0000:00:14.0-usb-0:7:1.0", model);
    CHECK(add_camera("same0", args) == 0);
    /* The second one carries a placeholder serial that identifies nothing. */
    snprintf(args, sizeof args, "%s --device-prop device.serial=20150130 "
             "--device-prop device.bus-path=pci-0000:00:14.0-usb-0:8:1.0", model);
    CHECK(add_camera("same1", args) == 0);
    CHECK(wait_count(&r, &r.added, 2));
    oc_device_list *list = NULL;
    CHECK(oc_context_copy_devices(ctx, &list) == OC_OK);
    CHECK(find(list, "usb-534d:2109@pci-0000:00:14.0-usb-0:7") != NULL);
    CHECK(find(list, "usb-534d:2109@pci-0000:00:14.0-usb-0:8") != NULL);
    oc_device_list_free(list);
    remove_camera("same0");
    remove_camera("same1");
    CHECK(wait_count(&r, &r.removed, 2));
    oc_context_destroy(ctx);
    oc_device_release(r.added_device);
    return 0;
}

/* ---- unregistration waits for a callback in flight ---- */
struct slow { int entered, finished; };

static void slow_callback(oc_context *ctx, oc_hotplug_event event, oc_device *device, void *user_data)
{
    struct slow *s = user_data;
    (void)ctx; (void)event; (void)device;
    SHARED_SET(s->entered, 1);
    usleep(300 * 1000);
    SHARED_SET(s->finished, 1);
}

static int test_remove_waits_for_callback_in_flight(void)
{
    oc_context *ctx = create();
    CHECK(ctx != NULL);
    struct slow s = { 0, 0 };
    oc_callback_id id;
    CHECK(oc_context_add_hotplug_callback(ctx, slow_callback, &s, &id) == OC_OK);
    CHECK(add_camera("slow0", "") == 0);
    double deadline = now_ms() + 10000;
    while (!SHARED_GET(s.entered) && now_ms() < deadline) usleep(1000);
    CHECK(SHARED_GET(s.entered));
    CHECK(oc_context_remove_callback(ctx, id) == OC_OK);
    CHECK(SHARED_GET(s.finished));   /* removal returned only after the callback finished */
    remove_camera("slow0");
    oc_context_destroy(ctx);
    return 0;
}

static void destroy_from_callback(oc_context *ctx, oc_hotplug_event event, oc_device *device, void *user_data)
{
    int *status = user_data;
    (void)event; (void)device;
    oc_context_destroy(ctx);   /* not allowed here: must be refused, not deadlock */
    SHARED_SET(*status, strstr(oc_last_error_message(), "callbacks") ? 1 : -1);
}

static int test_destroy_inside_callback_is_refused(void)
{
    oc_context *ctx = create();
    CHECK(ctx != NULL);
    int status = 0;
    CHECK(oc_context_add_hotplug_callback(ctx, destroy_from_callback, (void *)&status, NULL) == OC_OK);
    CHECK(add_camera("inner0", "") == 0);
    double deadline = now_ms() + 10000;
    while (SHARED_GET(status) == 0 && now_ms() < deadline) usleep(1000);
    CHECK(SHARED_GET(status) == 1);
    oc_device_list *list = NULL;
    CHECK(oc_context_copy_devices(ctx, &list) == OC_OK);   /* still alive */
    oc_device_list_free(list);
    remove_camera("inner0");
    oc_context_destroy(ctx);
    return 0;
}
