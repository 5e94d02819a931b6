/* The C suite: Camera selection. Included by abi_test.c, after harness.h; run alone with
 * `Tests/c/run.sh selection`. */

struct preferred_log { int user_changes, system_changes; char last_user[256]; };

static void on_preferred(oc_context *ctx, oc_preferred_camera_kind kind, oc_device *camera, void *user_data)
{
    struct preferred_log *log = user_data;
    (void)ctx;
    if (kind == OC_PREFERRED_CAMERA_USER) {
        snprintf(log->last_user, sizeof log->last_user, "%s", camera ? oc_device_unique_id(camera) : "(none)");
        SHARED_ADD(log->user_changes, 1);
    } else {
        SHARED_ADD(log->system_changes, 1);
    }
}

static int test_camera_selection(void)
{
    char state[] = "/tmp/ocellus-c-selection-XXXXXX";
    CHECK(mkdtemp(state) != NULL);
    oc_context_options options;
    oc_context_options_init(&options);
    options.state_directory = state;
    oc_context *ctx = NULL;
    CHECK(oc_context_create("org.ocellus.test.c.selection", &options, &ctx) == OC_OK);
    CHECK(oc_context_copy_state_problem(ctx, NULL, 0) == 0);

    oc_device *user = NULL, *system_choice = NULL;
    CHECK(oc_context_copy_user_preferred_camera(ctx, &user) == OC_OK && user != NULL);
    CHECK(strcmp(oc_device_unique_id(user), "usb-1d6b:0110-VCAM-0000") == 0);   /* first in default order */
    CHECK(oc_context_copy_system_preferred_camera(ctx, &system_choice) == OC_OK && system_choice == user);
    oc_device_release(system_choice);
    oc_device_release(user);

    struct preferred_log log;
    memset(&log, 0, sizeof log);
    oc_callback_id id;
    CHECK(oc_context_add_preferred_camera_callback(ctx, on_preferred, &log, &id) == OC_OK);
    oc_device_list *list = NULL;
    CHECK(oc_context_copy_devices(ctx, &list) == OC_OK);
    oc_device *vcam1 = find(list, "usb-1d6b:0111-VCAM-0001"), *mic = find(list, "pipewire-vmic0");
    CHECK(oc_context_set_user_preferred_camera(ctx, vcam1) == OC_OK);
    double deadline = now_ms() + 10000;
    while ((SHARED_GET(log.user_changes) < 1 || SHARED_GET(log.system_changes) < 1) && now_ms() < deadline) usleep(1000);
    CHECK(SHARED_GET(log.user_changes) == 1 && SHARED_GET(log.system_changes) == 1);
    CHECK(strcmp(log.last_user, "usb-1d6b:0111-VCAM-0001") == 0);
    CHECK(oc_context_copy_user_preferred_camera(ctx, &user) == OC_OK);
    CHECK(user == vcam1);
    oc_device_release(user);

    CHECK(oc_context_set_user_preferred_camera(ctx, mic) == OC_ERROR_INVALID_ARGUMENT);
    CHECK(strstr(oc_last_error_message(), "not a camera") != NULL);
    CHECK(oc_context_set_user_preferred_camera(ctx, NULL) == OC_ERROR_INVALID_HANDLE);
    CHECK(oc_context_set_user_preferred_camera(NULL, vcam1) == OC_ERROR_INVALID_HANDLE);
    CHECK(oc_context_copy_user_preferred_camera(ctx, NULL) == OC_ERROR_INVALID_ARGUMENT);
    CHECK(oc_context_add_preferred_camera_callback(ctx, NULL, NULL, NULL) == OC_ERROR_INVALID_ARGUMENT);
    CHECK(oc_context_remove_callback(ctx, id) == OC_OK);
    oc_device_list_free(list);
    oc_context_destroy(ctx);
    CHECK(oc_context_copy_state_problem(ctx, NULL, 0) == 0);

    /* An unwritable state directory: reported, and selection still works in memory. */
    options.state_directory = "/dev/null/ocellus";
    CHECK(oc_context_create("org.ocellus.test.c.selection", &options, &ctx) == OC_OK);
    char problem[512];
    size_t length = oc_context_copy_state_problem(ctx, problem, sizeof problem);
    CHECK(length > 0 && strstr(problem, "/dev/null") != NULL);
    char tiny[8];
    CHECK(oc_context_copy_state_problem(ctx, tiny, sizeof tiny) == length && strlen(tiny) == 7);
    oc_context_destroy(ctx);
    return 0;
}
