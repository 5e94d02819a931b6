/* End-to-end tests of the C ABI against the real PipeWire test bed started by
 * scripts/testbed.sh (two USB-like virtual cameras vcam0/vcam1 and a virtual
 * microphone vmic0). Cameras are hot-plugged with `testbed.sh add-camera`. */
#define _DEFAULT_SOURCE
#include <ocellus.h>

#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int passed, failed;
static const char *current_test;

#define CHECK(cond) do { \
    if (!(cond)) { \
        fprintf(stderr, "  %s:%d: %s: check failed: %s (last error: %s)\n", __FILE__, __LINE__, \
                current_test, #cond, oc_last_error_message()); \
        return 1; \
    } } while (0)

static void run(const char *name, int (*test)(void))
{
    current_test = name;
    if (test() == 0) { passed++; printf("ok - %s\n", name); }
    else { failed++; printf("not ok - %s\n", name); }
    fflush(stdout);
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int testbed(const char *args)
{
    char command[2048];
    snprintf(command, sizeof command, "%s %s >/dev/null", getenv("OCELLUS_TESTBED_SCRIPT"), args);
    return system(command);
}

static int add_camera(const char *name, const char *extra)
{
    char args[1536];
    snprintf(args, sizeof args, "add-camera %s %s --sizes 640x480 --fps 30 %s",
             getenv("OCELLUS_TESTBED_DIR"), name, extra);
    return testbed(args);
}

static int remove_camera(const char *name)
{
    char args[512];
    snprintf(args, sizeof args, "remove-camera %s %s KILL", getenv("OCELLUS_TESTBED_DIR"), name);
    return testbed(args);
}

static oc_context *create(void)
{
    oc_context *ctx = NULL;
    return oc_context_create("org.ocellus.test.c", NULL, &ctx) == OC_OK ? ctx : NULL;
}

/* A context whose selection and mounting state live in a fresh directory of their own. */
static oc_context *create_with_private_state(const char *app_id)
{
    static char state[64];
    snprintf(state, sizeof state, "/tmp/ocellus-c-state-XXXXXX");
    if (!mkdtemp(state)) return NULL;
    oc_context_options options;
    oc_context_options_init(&options);
    options.state_directory = state;
    oc_context *ctx = NULL;
    return oc_context_create(app_id, &options, &ctx) == OC_OK ? ctx : NULL;
}

static oc_device *find(oc_device_list *list, const char *unique_id)
{
    for (size_t i = 0; i < oc_device_list_count(list); i++) {
        oc_device *device = oc_device_list_get(list, i);
        if (strcmp(oc_device_unique_id(device), unique_id) == 0)
            return device;
    }
    return NULL;
}

/* ---- hotplug recorder ---- */
struct recorder {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    char last_added[256], last_removed[256];
    oc_device *added_device;     /* retained */
    double added_at, removed_at;
    int added, removed;
};

static void recorder_init(struct recorder *r)
{
    memset(r, 0, sizeof *r);
    pthread_mutex_init(&r->lock, NULL);
    pthread_cond_init(&r->changed, NULL);
}

static void record(oc_context *ctx, oc_hotplug_event event, oc_device *device, void *user_data)
{
    struct recorder *r = user_data;
    (void)ctx;
    pthread_mutex_lock(&r->lock);
    if (event == OC_HOTPLUG_ADDED) {
        snprintf(r->last_added, sizeof r->last_added, "%s", oc_device_unique_id(device));
        if (r->added_device) oc_device_release(r->added_device);
        r->added_device = oc_device_retain(device);
        r->added_at = now_ms();
        r->added++;
    } else {
        snprintf(r->last_removed, sizeof r->last_removed, "%s", oc_device_unique_id(device));
        r->removed_at = now_ms();
        r->removed++;
    }
    pthread_cond_broadcast(&r->changed);
    pthread_mutex_unlock(&r->lock);
}

/* Waits until `*counter`, guarded by `lock` and signalled on `changed`, reaches `target` (or 10 s pass). */
static int wait_until(pthread_mutex_t *lock, pthread_cond_t *changed, const int *counter, int target)
{
    struct timespec deadline;
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += 10;
    pthread_mutex_lock(lock);
    while (*counter < target && pthread_cond_timedwait(changed, lock, &deadline) == 0) {}
    int reached = *counter >= target;
    pthread_mutex_unlock(lock);
    return reached;
}

static int wait_count(struct recorder *r, int *counter, int want)
{
    return wait_until(&r->lock, &r->changed, counter, want);
}

/* ---- tests ---- */

static int test_version(void)
{
    CHECK(strcmp(oc_version(), OCELLUS_VERSION_STRING) == 0);
    CHECK(strcmp(oc_status_name(OC_ERROR_INVALID_HANDLE), "OC_ERROR_INVALID_HANDLE") == 0);
    CHECK(strcmp(oc_status_name(12345), "OC_ERROR_UNKNOWN") == 0);
    return 0;
}

static int test_lists_virtual_cameras_with_properties(void)
{
    oc_context *ctx = create();
    CHECK(ctx != NULL);
    CHECK(strcmp(oc_context_app_id(ctx), "org.ocellus.test.c") == 0);
    oc_device_list *list = NULL;
    CHECK(oc_context_copy_devices(ctx, &list) == OC_OK);
    oc_device *cam = find(list, "usb-1d6b:0110-VCAM-0000");
    CHECK(cam != NULL);
    CHECK(strcmp(oc_device_name(cam), "Virtual Camera 0") == 0);
    CHECK(oc_device_get_type(cam) == OC_DEVICE_TYPE_EXTERNAL_CAMERA);
    CHECK(oc_device_get_position(cam) == OC_DEVICE_POSITION_UNSPECIFIED);
    CHECK(oc_device_get_backend(cam) == OC_BACKEND_PIPEWIRE);
    CHECK(oc_device_is_connected(cam));
    CHECK(oc_device_vendor_id(cam) == 0x1d6b && oc_device_product_id(cam) == 0x0110);
    CHECK(strcmp(oc_device_serial_number(cam), "VCAM-0000") == 0);
    CHECK(strcmp(oc_device_get_property(cam, "device.bus-path"), "pci-0000:00:14.0-usb-0:1:1.0") == 0);
    CHECK(oc_device_get_property(cam, "no.such.key") == NULL);
    /* Its V4L2 path is not on this machine: its controls come through its PipeWire node,
     * which (a virtual camera) publishes none — an empty list; setting one or taking the
     * configuration lock (which needs the node) says so plainly. */
    oc_control_list *controls = (oc_control_list *)1;
    CHECK(oc_device_copy_controls(cam, &controls) == OC_OK && controls != NULL && oc_control_list_count(controls) == 0);
    oc_control_list_free(controls);
    CHECK(oc_device_set_control(cam, "brightness", 1) == OC_ERROR_NOT_FOUND);
    CHECK(strstr(oc_last_error_message(), "brightness") != NULL);
    CHECK(oc_device_set_control(cam, NULL, 1) == OC_ERROR_INVALID_ARGUMENT);
    CHECK(oc_device_lock_for_configuration(cam) == OC_ERROR_NOT_FOUND);
    CHECK(strstr(oc_last_error_message(), "V4L2 node") != NULL);
    /* As the header says: not locked is the wrong state, whatever the controls go through. */
    CHECK(oc_device_unlock_for_configuration(cam) == OC_ERROR_WRONG_STATE);
    CHECK(strstr(oc_last_error_message(), "not locked") != NULL);
    CHECK(oc_device_copy_controls(NULL, &controls) == OC_ERROR_INVALID_HANDLE);
    CHECK(oc_control_list_count(NULL) == 0);
    oc_control_list_free(NULL);
    CHECK(find(list, "usb-1d6b:0111-VCAM-0001") != NULL);

    /* Formats: YUY2, NV12, MJPG at 3 sizes each; rates 30 and 15, highest first. */
    CHECK(oc_device_format_count(cam) == 9);
    oc_format_info info = { .struct_size = sizeof info };
    CHECK(oc_device_get_format(cam, 0, &info) == OC_OK);
    char fourcc[5];
    CHECK(strcmp(oc_fourcc_string(info.pixel_format, fourcc), "YUYV") == 0);
    CHECK(info.width == 640 && info.height == 480);
    CHECK(info.frame_rate_count == 2 && !info.frame_rates_are_range);
    CHECK(info.frame_rates[0].numerator == 30 && info.frame_rates[0].denominator == 1);
    CHECK(info.frame_rates[1].numerator == 15);
    CHECK(oc_device_get_format(cam, 8, &info) == OC_OK);
    CHECK(strcmp(oc_fourcc_string(info.pixel_format, fourcc), "MJPG") == 0 && info.width == 1920);
    CHECK(!info.sizes_are_range && info.min_width == 1920 && info.step_width == 0);   /* one size, not a range */
    /* A 0.1 caller's struct ends at frame_rates_are_range: accepted, and nothing after it written. */
    oc_format_info old = { .struct_size = (uint32_t)offsetof(oc_format_info, sizes_are_range), .min_width = 77 };
    CHECK(oc_device_get_format(cam, 0, &old) == OC_OK && old.width == 640 && old.min_width == 77);

    int microphones = 0;
    for (size_t i = 0; i < oc_device_list_count(list); i++) {
        oc_device *d = oc_device_list_get(list, i);
        if (oc_device_get_type(d) == OC_DEVICE_TYPE_MICROPHONE) {
            microphones++;
            CHECK(strcmp(oc_device_unique_id(d), "pipewire-vmic0") == 0);
            CHECK(oc_device_format_count(d) == 0);
        }
    }
    CHECK(microphones == 1);
    /* A device retained beyond its list stays valid. */
    oc_device *kept = oc_device_retain(cam);
    oc_device_list_free(list);
    CHECK(strcmp(oc_device_unique_id(kept), "usb-1d6b:0110-VCAM-0000") == 0);
    oc_device_release(kept);
    oc_context_destroy(ctx);
    return 0;
}

static int test_builtin_and_virtual_classification(void)
{
    oc_context *ctx = create();
    CHECK(ctx != NULL);
    struct recorder r;
    recorder_init(&r);
    CHECK(oc_context_add_hotplug_callback(ctx, record, &r, NULL) == OC_OK);
    CHECK(add_camera("front0", "--desc 'Front Camera' --prop api.libcamera.location=front") == 0);
    CHECK(add_camera("soft0", "--desc 'Software Camera'") == 0);
    CHECK(wait_count(&r, &r.added, 2));
    oc_device_list *list = NULL;
    CHECK(oc_context_copy_devices(ctx, &list) == OC_OK);
    oc_device *front = find(list, "pipewire-front0"), *soft = find(list, "pipewire-soft0");
    CHECK(front && soft);
    CHECK(oc_device_get_type(front) == OC_DEVICE_TYPE_BUILT_IN_CAMERA);
    CHECK(oc_device_get_position(front) == OC_DEVICE_POSITION_FRONT);
    CHECK(oc_device_get_type(soft) == OC_DEVICE_TYPE_VIRTUAL_CAMERA);
    /* Default order: built-in front first, virtual cameras after external ones. */
    CHECK(oc_device_list_get(list, 0) == front);
    CHECK(oc_device_list_get(list, 3) == soft);
    oc_device_list_free(list);
    remove_camera("front0");
    remove_camera("soft0");
    CHECK(wait_count(&r, &r.removed, 2));
    oc_context_destroy(ctx);
    if (r.added_device) oc_device_release(r.added_device);
    return 0;
}

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
struct slow { volatile int entered, finished; };

static void slow_callback(oc_context *ctx, oc_hotplug_event event, oc_device *device, void *user_data)
{
    struct slow *s = user_data;
    (void)ctx; (void)event; (void)device;
    s->entered = 1;
    usleep(300 * 1000);
    s->finished = 1;
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
    while (!s.entered && now_ms() < deadline) usleep(1000);
    CHECK(s.entered);
    CHECK(oc_context_remove_callback(ctx, id) == OC_OK);
    CHECK(s.finished);   /* removal returned only after the callback finished */
    remove_camera("slow0");
    oc_context_destroy(ctx);
    return 0;
}

static void destroy_from_callback(oc_context *ctx, oc_hotplug_event event, oc_device *device, void *user_data)
{
    int *status = user_data;
    (void)event; (void)device;
    oc_context_destroy(ctx);   /* not allowed here: must be refused, not deadlock */
    *status = strstr(oc_last_error_message(), "callbacks") ? 1 : -1;
}

static int test_destroy_inside_callback_is_refused(void)
{
    oc_context *ctx = create();
    CHECK(ctx != NULL);
    volatile int status = 0;
    CHECK(oc_context_add_hotplug_callback(ctx, destroy_from_callback, (void *)&status, NULL) == OC_OK);
    CHECK(add_camera("inner0", "") == 0);
    double deadline = now_ms() + 10000;
    while (status == 0 && now_ms() < deadline) usleep(1000);
    CHECK(status == 1);
    oc_device_list *list = NULL;
    CHECK(oc_context_copy_devices(ctx, &list) == OC_OK);   /* still alive */
    oc_device_list_free(list);
    remove_camera("inner0");
    oc_context_destroy(ctx);
    return 0;
}

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

static int test_invalid_app_ids(void)
{
    char long_id[301];
    memset(long_id, 'a', 300);
    long_id[300] = 0;
    const char *bad[] = { "../x", "", long_id, ".hidden", "a/b", "sp ace" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        oc_context *ctx = (oc_context *)1;
        CHECK(oc_context_create(bad[i], NULL, &ctx) == OC_ERROR_INVALID_ARGUMENT);
        CHECK(ctx == NULL);
        CHECK(strstr(oc_last_error_message(), "app ID") != NULL);
    }
    oc_context *ctx = NULL;
    CHECK(oc_context_create(NULL, NULL, &ctx) == OC_ERROR_INVALID_ARGUMENT);
    CHECK(oc_context_create("org.ok", NULL, NULL) == OC_ERROR_INVALID_ARGUMENT);
    oc_context_options options = { .struct_size = 2 };
    CHECK(oc_context_create("org.ok", &options, &ctx) == OC_ERROR_INVALID_ARGUMENT);
    CHECK(strstr(oc_last_error_message(), "oc_context_options_init") != NULL);
    return 0;
}

static int test_state_directory_resolution(void)
{
    oc_context_options options;
    oc_context_options_init(&options);
    options.state_directory = "/tmp/ocellus-c-state";
    oc_context *ctx = NULL;
    CHECK(oc_context_create("org.ocellus.test.c", &options, &ctx) == OC_OK);
    CHECK(strcmp(oc_context_state_directory(ctx), "/tmp/ocellus-c-state") == 0);
    oc_context_destroy(ctx);
    CHECK(oc_context_state_directory(ctx) == NULL);
    setenv("OCELLUS_STATE_DIR", "/tmp/ocellus-env-state", 1);
    CHECK(oc_context_create("org.ocellus.test.c", NULL, &ctx) == OC_OK);
    unsetenv("OCELLUS_STATE_DIR");
    CHECK(strcmp(oc_context_state_directory(ctx), "/tmp/ocellus-env-state") == 0);
    oc_context_destroy(ctx);
    return 0;
}

struct preferred_log { volatile int user_changes, system_changes; char last_user[256]; };

static void on_preferred(oc_context *ctx, oc_preferred_camera_kind kind, oc_device *camera, void *user_data)
{
    struct preferred_log *log = user_data;
    (void)ctx;
    if (kind == OC_PREFERRED_CAMERA_USER) {
        snprintf(log->last_user, sizeof log->last_user, "%s", camera ? oc_device_unique_id(camera) : "(none)");
        log->user_changes++;
    } else {
        log->system_changes++;
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
    while ((log.user_changes < 1 || log.system_changes < 1) && now_ms() < deadline) usleep(1000);
    CHECK(log.user_changes == 1 && log.system_changes == 1);
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

static volatile int discovery_events;

static void on_discovery(oc_discovery_session *session, oc_hotplug_event event, oc_device *device, void *user_data)
{
    (void)session; (void)event; (void)user_data;
    if (oc_device_get_position(device) == OC_DEVICE_POSITION_FRONT) discovery_events++;
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
    discovery_events = 0;
    CHECK(oc_discovery_session_set_callback(session, on_discovery, NULL) == OC_OK);
    CHECK(add_camera("cfront", "--prop api.libcamera.location=front") == 0);
    double deadline = now_ms() + 10000;
    while (discovery_events < 1 && now_ms() < deadline) usleep(1000);
    CHECK(discovery_events == 1);
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

struct frame_log {
    pthread_mutex_t lock;
    volatile int frames, bad_content, events_started, events_stopped;
    oc_frame *kept;          /* a retained frame */
    const oc_frame *seen;    /* a frame pointer, stale after its callback */
};

static void on_frame(oc_video_data_output *output, const oc_frame *frame, void *user_data)
{
    struct frame_log *log = user_data;
    size_t size = 0;
    uint32_t stride = 0;
    const uint8_t *luma = oc_frame_plane_data(frame, 0, &size, &stride);
    (void)output;
    /* The virtual camera's ramp: Y at x is 16 + 219x/width, except under a moving bright bar. */
    int x = 320, y = luma ? luma[100 * stride + x * 2] : 0;
    if (!luma || size != 640 * 480 * 2 || stride != 1280 || oc_frame_width(frame) != 640 ||
        oc_frame_plane_count(frame) != 1 || oc_frame_is_full_range(frame) || (y != 16 + 219 * x / 640 && y != 235))
        log->bad_content++;
    pthread_mutex_lock(&log->lock);
    if (!log->kept) log->kept = oc_frame_retain(frame);
    log->seen = frame;
    log->frames++;
    pthread_mutex_unlock(&log->lock);
}

static void on_session_event(oc_capture_session *session, oc_session_event event, oc_status error,
                             const char *message, void *user_data)
{
    struct frame_log *log = user_data;
    (void)session; (void)error; (void)message;
    if (event == OC_SESSION_EVENT_STARTED) log->events_started++;
    if (event == OC_SESSION_EVENT_STOPPED) log->events_stopped++;
}

static int test_capture_session_delivers_frames(void)
{
    oc_context *ctx = create();
    CHECK(ctx != NULL);
    oc_device_list *list = NULL;
    CHECK(oc_context_copy_devices(ctx, &list) == OC_OK);
    oc_device *camera = find(list, "usb-1d6b:0110-VCAM-0000"), *mic = find(list, "pipewire-vmic0");
    oc_capture_session *session = NULL;
    oc_video_data_output *output = NULL;
    CHECK(oc_capture_session_create(ctx, &session) == OC_OK);
    CHECK(oc_video_data_output_create(&output) == OC_OK);
    CHECK(oc_capture_session_start_running(session) == OC_ERROR_WRONG_STATE);   /* no input yet */
    CHECK(oc_capture_session_set_input(session, mic) == OC_ERROR_INVALID_ARGUMENT);
    CHECK(oc_video_data_output_set_format(output, 0, 640, 0) == OC_ERROR_INVALID_ARGUMENT);
    CHECK(oc_video_data_output_set_format(output, 0x56595559 /* YUYV */, 640, 480) == OC_OK);

    struct frame_log log;
    memset(&log, 0, sizeof log);
    pthread_mutex_init(&log.lock, NULL);
    CHECK(oc_video_data_output_set_frame_callback(output, on_frame, &log) == OC_OK);
    oc_callback_id id;
    CHECK(oc_capture_session_add_event_callback(session, on_session_event, &log, &id) == OC_OK);
    CHECK(oc_capture_session_set_input(session, camera) == OC_OK);
    CHECK(oc_capture_session_can_add_output(session, output));
    CHECK(oc_capture_session_add_output(session, output) == OC_OK);
    CHECK(oc_capture_session_add_output(session, output) == OC_ERROR_WRONG_STATE);
    CHECK(oc_capture_session_start_running(session) == OC_OK);
    CHECK(oc_capture_session_is_running(session));
    double deadline = now_ms() + 10000;
    while (log.frames < 10 && now_ms() < deadline) usleep(1000);
    CHECK(oc_capture_session_stop_running(session) == OC_OK);
    CHECK(log.frames >= 10 && log.bad_content == 0);
    CHECK(oc_video_data_output_delivered_frames(output) == (uint64_t)log.frames);

    /* A retained frame outlives the stream; a frame pointer from a callback does not. */
    size_t size = 0;
    CHECK(log.kept && oc_frame_plane_data(log.kept, 0, &size, NULL) != NULL && size == 640 * 480 * 2);
    CHECK(oc_frame_plane_data(log.kept, 1, NULL, NULL) == NULL);
    CHECK(oc_frame_width(log.kept) == 640 && !oc_frame_is_full_range(log.kept));
    CHECK(oc_frame_width(log.seen) == 0 && strstr(oc_last_error_message(), "no longer valid") != NULL);
    oc_frame_release(log.kept);
    CHECK(oc_frame_width(log.kept) == 0);

    deadline = now_ms() + 5000;
    while (log.events_stopped < 1 && now_ms() < deadline) usleep(1000);
    CHECK(log.events_started == 1 && log.events_stopped == 1);
    CHECK(oc_capture_session_remove_callback(session, id) == OC_OK);
    CHECK(oc_capture_session_remove_output(session, output) == OC_OK);
    CHECK(oc_capture_session_remove_output(session, output) == OC_ERROR_NOT_FOUND);
    oc_capture_session_destroy(session);
    CHECK(oc_capture_session_start_running(session) == OC_ERROR_INVALID_HANDLE);
    oc_video_data_output_destroy(output);
    CHECK(oc_video_data_output_set_frame_callback(output, NULL, NULL) == OC_ERROR_INVALID_HANDLE);
    oc_device_list_free(list);
    oc_context_destroy(ctx);
    return 0;
}

static void on_session_event_slowly(oc_capture_session *session, oc_session_event event, oc_status error,
                                    const char *message, void *user_data)
{
    if (event == OC_SESSION_EVENT_STARTED) usleep(200000);   /* still busy with it when stop and destroy come */
    on_session_event(session, event, error, message, user_data);
}

/* Stop then destroy at once: the STOPPED that stop posted reaches the callback before destroy returns. */
static int test_destroy_delivers_the_stop_before_it(void)
{
    oc_context *ctx = create();
    CHECK(ctx != NULL);
    oc_device *camera = NULL;
    CHECK(oc_context_copy_device_by_unique_id(ctx, "usb-1d6b:0110-VCAM-0000", &camera) == OC_OK);
    for (int round = 0; round < 3; round++) {
        struct frame_log log;
        memset(&log, 0, sizeof log);
        pthread_mutex_init(&log.lock, NULL);
        oc_capture_session *session = NULL;
        oc_video_data_output *output = NULL;
        oc_callback_id id;
        CHECK(oc_capture_session_create(ctx, &session) == OC_OK && oc_video_data_output_create(&output) == OC_OK);
        CHECK(oc_capture_session_add_event_callback(session, on_session_event_slowly, &log, &id) == OC_OK);
        CHECK(oc_capture_session_set_input(session, camera) == OC_OK && oc_capture_session_add_output(session, output) == OC_OK);
        CHECK(oc_capture_session_start_running(session) == OC_OK);
        CHECK(oc_capture_session_stop_running(session) == OC_OK);
        oc_capture_session_destroy(session);
        CHECK(log.events_started == 1 && log.events_stopped == 1);
        oc_video_data_output_destroy(output);
        pthread_mutex_destroy(&log.lock);
    }
    oc_device_release(camera);
    oc_context_destroy(ctx);
    return 0;
}

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

/* `leading`: quiet buffers before the tone began. PipeWire 1.4 gives a client linking to the test
 * bed's microphone (a follower stream of its own process) one quantum of silence first. */
struct audio_log { volatile size_t frames; volatile int wrong_format, silent, leading; };

static void on_audio(oc_audio_data_output *output, const float *samples, size_t frame_count, uint32_t channels,
                     uint32_t sample_rate, uint64_t timestamp_ns, void *user_data)
{
    struct audio_log *log = user_data;
    float peak = 0;
    (void)output; (void)timestamp_ns;
    for (size_t i = 0; i < frame_count * channels; i++) peak = samples[i] > peak ? samples[i] : peak;
    if (channels != 2 || sample_rate != 48000) log->wrong_format++;
    if (peak < 0.01f && log->frames == 0) log->leading++;
    else if (peak < 0.01f) log->silent++;
    if (peak >= 0.01f || log->frames > 0) log->frames += frame_count;
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
    while (log.frames < 24000 && now_ms() < deadline) usleep(1000);
    CHECK(oc_capture_session_stop_running(session) == OC_OK);
    CHECK(log.frames >= 24000 && log.wrong_format == 0 && log.silent == 0 && log.leading <= 2);   /* half a second of the tone */
    CHECK(oc_audio_data_output_delivered_frames(audio) >= log.frames);
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
    while (log.frames < 9600 && now_ms() < deadline) usleep(1000);
    CHECK(oc_capture_session_set_preferred_microphone_mode(session, OC_MICROPHONE_MODE_WIDE_SPECTRUM) == OC_OK);
    while (log.frames < 19200 && now_ms() < deadline) usleep(1000);
    CHECK(oc_capture_session_stop_running(session) == OC_OK);
    CHECK(log.frames >= 19200 && log.wrong_format == 0);
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

/* Frames counted per output, and a multi-camera session's events, for the test below. */
static struct multi_log {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    int frames[2], started, stopped;
    char camera_of_started[64];
} multi_log = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, { 0, 0 }, 0, 0, "" };

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

/* The hardware cost of a camera off USB (the test bed's virtual camera, which sysfs does not
 * know): nothing to report, said as such; bad arguments answered with a status and a message.
 * The cost of USB cameras is tested against the real kernel in Tests/gadget/test_bus_cost.py. */
static int test_hardware_cost_off_usb(void)
{
    oc_context *ctx = create_with_private_state("org.ocellus.test.c.cost");
    CHECK(ctx != NULL);
    oc_device_list *list = NULL;
    CHECK(oc_context_copy_devices(ctx, &list) == OC_OK);
    oc_capture_session *session = NULL;
    CHECK(oc_capture_session_create(ctx, &session) == OC_OK);
    oc_hardware_cost cost = { .struct_size = sizeof cost };
    CHECK(oc_capture_session_get_hardware_cost(session, &cost) == OC_ERROR_NOT_FOUND && strstr(oc_last_error_message(), "no input"));
    CHECK(oc_capture_session_set_input(session, find(list, "usb-1d6b:0110-VCAM-0000")) == OC_OK);
    CHECK(oc_capture_session_get_hardware_cost(session, &cost) == OC_ERROR_NOT_FOUND && strstr(oc_last_error_message(), "not on USB"));
    CHECK(oc_capture_session_get_hardware_cost(session, NULL) == OC_ERROR_INVALID_ARGUMENT);
    oc_hardware_cost small = { .struct_size = 4 };
    CHECK(oc_capture_session_get_hardware_cost(session, &small) == OC_ERROR_INVALID_ARGUMENT && strstr(oc_last_error_message(), "struct_size"));
    CHECK(oc_capture_session_get_hardware_cost(NULL, &cost) == OC_ERROR_INVALID_HANDLE);
    oc_capture_session_destroy(session);
    oc_device_list_free(list);
    oc_context_destroy(ctx);
    return 0;
}

/* A configuration's answer before streaming: nothing without an input; as asked for an output
 * the camera serves, and what it said is what runs; what cannot run is the commit's error. */
static int test_configuration_check(void)
{
    oc_context *ctx = create_with_private_state("org.ocellus.test.c.check");
    CHECK(ctx != NULL);
    oc_device_list *list = NULL;
    CHECK(oc_context_copy_devices(ctx, &list) == OC_OK);
    oc_capture_session *session = NULL;
    CHECK(oc_capture_session_create(ctx, &session) == OC_OK);
    oc_configuration_check check = { .struct_size = sizeof check };
    CHECK(oc_capture_session_check_configuration(session, &check) == OC_ERROR_NOT_FOUND && strstr(oc_last_error_message(), "no input"));
    CHECK(oc_capture_session_check_configuration(session, NULL) == OC_ERROR_INVALID_ARGUMENT);
    oc_configuration_check small = { .struct_size = 8 };
    CHECK(oc_capture_session_check_configuration(session, &small) == OC_ERROR_INVALID_ARGUMENT && strstr(oc_last_error_message(), "struct_size"));
    CHECK(oc_capture_session_check_configuration(NULL, &check) == OC_ERROR_INVALID_HANDLE);
    oc_video_data_output *output = NULL;
    CHECK(oc_video_data_output_create(&output) == OC_OK);
    CHECK(oc_video_data_output_set_format(output, OC_PIXEL_FORMAT_NV12, 320, 240) == OC_OK);
    CHECK(oc_capture_session_set_input(session, find(list, "usb-1d6b:0110-VCAM-0000")) == OC_OK);
    CHECK(oc_capture_session_add_output(session, output) == OC_OK);
    memset(check.reason, 'x', sizeof check.reason);
    CHECK(oc_capture_session_check_configuration(session, &check) == OC_OK);
    CHECK(check.as_asked && check.adjusted == 0 && check.reason[0] == '\0');
    CHECK(check.width > 0 && check.frame_rate.denominator != 0 && check.asked_pixel_format == check.pixel_format);
    CHECK(oc_capture_session_start_running(session) == OC_OK);
    uint32_t format = 0, width = 0, height = 0;
    oc_fraction rate = { 0, 0 };
    CHECK(oc_capture_session_get_active_format(session, &format, &width, &height, &rate) == OC_OK);
    CHECK(format == check.pixel_format && width == check.width && height == check.height);
    CHECK(rate.numerator * check.frame_rate.denominator == check.frame_rate.numerator * rate.denominator);
    CHECK(oc_capture_session_stop_running(session) == OC_OK);
    oc_video_data_output *square = NULL;
    CHECK(oc_video_data_output_create(&square) == OC_OK);
    CHECK(oc_video_data_output_set_format(square, OC_PIXEL_FORMAT_NV12, 300, 300) == OC_OK);
    CHECK(oc_capture_session_begin_configuration(session) == OC_OK);
    CHECK(oc_capture_session_add_output(session, square) == OC_OK);
    CHECK(oc_capture_session_check_configuration(session, &check) == OC_ERROR_INVALID_ARGUMENT);
    char checked[512];
    snprintf(checked, sizeof checked, "%s", oc_last_error_message());
    CHECK(oc_capture_session_commit_configuration(session) == OC_ERROR_INVALID_ARGUMENT);
    CHECK(strcmp(checked, oc_last_error_message()) == 0);
    oc_capture_session_destroy(session);
    oc_video_data_output_destroy(square);
    oc_video_data_output_destroy(output);
    oc_device_list_free(list);
    oc_context_destroy(ctx);
    return 0;
}

/* Two cameras' frames paired by capture time: a session each, one synchronizer. */
struct pairs_seen {
    pthread_mutex_t lock;
    int pairs, apart;   /* pairs, and pairs further apart than half a frame interval */
};

static void count_pair(oc_output_synchronizer *synchronizer, const oc_frame *first, const oc_frame *second, void *user_data)
{
    (void)synchronizer;
    struct pairs_seen *seen = user_data;
    uint64_t a = oc_frame_timestamp_ns(first), b = oc_frame_timestamp_ns(second);
    pthread_mutex_lock(&seen->lock);
    seen->pairs++;
    if ((a > b ? a - b : b - a) > 33333333 / 2) seen->apart++;
    pthread_mutex_unlock(&seen->lock);
}

static int test_two_cameras_paired_by_capture_time(void)
{
    oc_context *ctx = create_with_private_state("org.ocellus.test.c.pairs");
    CHECK(ctx != NULL);
    oc_device_list *list = NULL;
    CHECK(oc_context_copy_devices(ctx, &list) == OC_OK);
    const char *ids[2] = { "usb-1d6b:0110-VCAM-0000", "usb-1d6b:0111-VCAM-0001" };
    oc_capture_session *sessions[2] = { NULL, NULL };
    oc_video_data_output *outputs[2] = { NULL, NULL };
    for (int i = 0; i < 2; i++) {
        CHECK(oc_video_data_output_create(&outputs[i]) == OC_OK);
        CHECK(oc_video_data_output_set_format(outputs[i], OC_FOURCC('N', 'V', '1', '2'), 320, 240) == OC_OK);
    }
    oc_output_synchronizer *synchronizer = NULL;
    CHECK(oc_output_synchronizer_create_for_cameras(outputs[0], outputs[0], &synchronizer) == OC_ERROR_INVALID_ARGUMENT);
    CHECK(oc_output_synchronizer_create_for_cameras(outputs[0], outputs[1], NULL) == OC_ERROR_INVALID_ARGUMENT);
    CHECK(oc_output_synchronizer_create_for_cameras(outputs[0], outputs[1], &synchronizer) == OC_OK);
    oc_output_synchronizer *again = NULL;
    CHECK(oc_output_synchronizer_create_for_cameras(outputs[1], outputs[0], &again) == OC_ERROR_WRONG_STATE && again == NULL);
    static struct pairs_seen seen = { .lock = PTHREAD_MUTEX_INITIALIZER };
    CHECK(oc_output_synchronizer_set_callback(synchronizer, count_pair, &seen) == OC_OK);
    for (int i = 0; i < 2; i++) {
        CHECK(oc_capture_session_create(ctx, &sessions[i]) == OC_OK);
        CHECK(oc_capture_session_set_input(sessions[i], find(list, ids[i])) == OC_OK);
        CHECK(oc_capture_session_add_output(sessions[i], outputs[i]) == OC_OK);
        CHECK(oc_capture_session_start_running(sessions[i]) == OC_OK);
    }
    usleep(1200 * 1000);
    for (int i = 0; i < 2; i++) oc_capture_session_stop_running(sessions[i]);
    pthread_mutex_lock(&seen.lock);
    int pairs = seen.pairs, apart = seen.apart;
    pthread_mutex_unlock(&seen.lock);
    CHECK(pairs >= 15 && apart == 0 && oc_output_synchronizer_delivered_pairs(synchronizer) == (uint64_t)pairs);
    CHECK(oc_output_synchronizer_unmatched_frames(synchronizer, OC_SYNC_STREAM_FIRST) <= 3);
    oc_output_synchronizer_destroy(synchronizer);
    for (int i = 0; i < 2; i++) {
        oc_capture_session_destroy(sessions[i]);
        oc_video_data_output_destroy(outputs[i]);
    }
    oc_device_list_free(list);
    oc_context_destroy(ctx);
    return 0;
}

static int test_unreachable_remote_fails_fast(void)
{
    oc_context_options options;
    oc_context_options_init(&options);
    options.pipewire_remote = "/nonexistent/ocellus/pipewire-0";
    oc_context *ctx = (oc_context *)1;
    double start = now_ms();
    CHECK(oc_context_create("org.ocellus.test.c", &options, &ctx) == OC_ERROR_BACKEND_UNAVAILABLE);
    CHECK(now_ms() - start < 1000);
    CHECK(ctx == NULL);
    CHECK(strstr(oc_last_error_message(), "/nonexistent/ocellus/pipewire-0") != NULL);
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

struct format_log {
    int frames;
    uint32_t format, stride;
};

static void log_format(oc_video_data_output *output, const oc_frame *frame, void *user_data)
{
    struct format_log *log = user_data;
    (void)output;
    log->format = oc_frame_pixel_format(frame);
    oc_frame_plane_data(frame, 0, NULL, &log->stride);
    __atomic_add_fetch(&log->frames, 1, __ATOMIC_SEQ_CST);
}

static int test_pixel_formats_by_name(void)
{
    uint32_t code = 0;
    CHECK(oc_pixel_format_from_name("BGRA", &code) == OC_OK && code == OC_PIXEL_FORMAT_BGRA);
    CHECK(oc_pixel_format_from_name("bgr24", &code) == OC_OK && code == OC_PIXEL_FORMAT_BGR24);
    CHECK(oc_pixel_format_from_name("YU12", &code) == OC_OK && code == OC_PIXEL_FORMAT_I420);
    CHECK(oc_pixel_format_from_name("MJPEG", &code) == OC_OK && code == OC_PIXEL_FORMAT_MJPEG);
    CHECK(oc_pixel_format_from_name("GRAY8", &code) == OC_OK && code == OC_FOURCC('G', 'R', 'E', 'Y'));
    CHECK(oc_pixel_format_from_name("bogus", &code) == OC_ERROR_INVALID_ARGUMENT && code == 0);
    CHECK(strstr(oc_last_error_message(), "unknown pixel format bogus; known: NV12, I420") != NULL);
    CHECK(oc_pixel_format_from_name(NULL, &code) == OC_ERROR_INVALID_ARGUMENT);
    char name[16];
    CHECK(oc_pixel_format_name(OC_PIXEL_FORMAT_I420, name, sizeof name) == 4 && strcmp(name, "I420") == 0);
    CHECK(oc_pixel_format_name(OC_PIXEL_FORMAT_Z16, name, sizeof name) == 3 && strcmp(name, "Z16") == 0);
    CHECK(oc_pixel_format_name(OC_FOURCC('Y', '1', '6', ' ') | (1u << 31), name, sizeof name) == 6 && strcmp(name, "Y16-BE") == 0);
    CHECK(oc_pixel_format_name(OC_PIXEL_FORMAT_BGRA, NULL, 0) == 4);

    /* An output asks for OpenCV's BGR24 by its constant and gets three bytes a pixel. */
    oc_context *ctx = create();
    CHECK(ctx != NULL);
    oc_device *by_name = NULL, *by_id = NULL;
    CHECK(oc_context_copy_device_matching(ctx, "/dev/video40", &by_name) == OC_OK);
    CHECK(oc_context_copy_device_by_unique_id(ctx, "usb-1d6b:0110-VCAM-0000", &by_id) == OC_OK && by_id == by_name);
    oc_device_release(by_name);
    oc_device_release(by_id);
    CHECK(oc_context_copy_device_matching(ctx, "Virtual Camera", &by_name) == OC_ERROR_INVALID_ARGUMENT && by_name == NULL);
    CHECK(strstr(oc_last_error_message(), "could mean") != NULL);
    CHECK(oc_context_copy_device_by_unique_id(ctx, "0", &by_id) == OC_ERROR_NOT_FOUND && by_id == NULL);
    oc_device_list *list = NULL;
    CHECK(oc_context_copy_devices(ctx, &list) == OC_OK);
    oc_capture_session *session = NULL;
    oc_video_data_output *output = NULL;
    struct format_log log = { 0, 0, 0 };
    CHECK(oc_capture_session_create(ctx, &session) == OC_OK && oc_video_data_output_create(&output) == OC_OK);
    CHECK(oc_video_data_output_set_format(output, OC_PIXEL_FORMAT_BGR24, 640, 480) == OC_OK);
    CHECK(oc_video_data_output_set_frame_callback(output, log_format, &log) == OC_OK);
    CHECK(oc_capture_session_set_input(session, find(list, "usb-1d6b:0110-VCAM-0000")) == OC_OK);
    CHECK(oc_capture_session_add_output(session, output) == OC_OK);
    CHECK(oc_capture_session_start_running(session) == OC_OK);
    double deadline = now_ms() + 10000;
    while (__atomic_load_n(&log.frames, __ATOMIC_SEQ_CST) < 3 && now_ms() < deadline) usleep(1000);
    CHECK(oc_capture_session_stop_running(session) == OC_OK);
    CHECK(log.frames >= 3 && log.format == OC_PIXEL_FORMAT_BGR24 && log.stride == 640 * 3);
    oc_capture_session_destroy(session);
    oc_video_data_output_destroy(output);
    oc_device_list_free(list);
    oc_context_destroy(ctx);
    return 0;
}

struct pull_waiter {
    oc_video_data_output *output;
    oc_status status;
};

static void *pull_one(void *argument)
{
    struct pull_waiter *waiter = argument;
    oc_frame *frame = NULL;
    waiter->status = oc_video_data_output_copy_next_frame(waiter->output, 10000, &frame);
    return NULL;
}

static int test_pulled_frames_and_pollable_fd(void)
{
    oc_context *ctx = create();
    CHECK(ctx != NULL);
    oc_device_list *list = NULL;
    CHECK(oc_context_copy_devices(ctx, &list) == OC_OK);
    oc_capture_session *session = NULL;
    oc_video_data_output *output = NULL;
    oc_frame *frame = NULL;
    CHECK(oc_capture_session_create(ctx, &session) == OC_OK && oc_video_data_output_create(&output) == OC_OK);
    CHECK(oc_video_data_output_copy_next_frame(output, 0, NULL) == OC_ERROR_INVALID_ARGUMENT);
    /* Not in a running session: no frame can come, so no wait (even "forever"). */
    double asked = now_ms();
    CHECK(oc_video_data_output_copy_next_frame(output, UINT32_MAX, &frame) == OC_ERROR_WRONG_STATE && frame == NULL);
    CHECK(now_ms() - asked < 1000 && strstr(oc_last_error_message(), "not part of a running session") != NULL);
    int fd = -1;
    CHECK(oc_video_data_output_get_pollable_fd(output, &fd) == OC_OK && fd >= 0);
    int again = -1;
    CHECK(oc_video_data_output_get_pollable_fd(output, &again) == OC_OK && again == fd);
    CHECK(oc_video_data_output_set_format(output, OC_PIXEL_FORMAT_NV12, 640, 480) == OC_OK);
    /* YUV in video range unless asked; a value outside the enum is refused with a message. */
    CHECK(oc_video_data_output_get_color_range(output) == OC_COLOR_RANGE_VIDEO);
    CHECK(oc_video_data_output_set_color_range(output, (oc_color_range)7) == OC_ERROR_INVALID_ARGUMENT
          && strstr(oc_last_error_message(), "not a range") != NULL);
    CHECK(oc_video_data_output_set_color_range(output, OC_COLOR_RANGE_FULL) == OC_OK
          && oc_video_data_output_get_color_range(output) == OC_COLOR_RANGE_FULL);
    CHECK(oc_video_data_output_set_color_range(output, OC_COLOR_RANGE_VIDEO) == OC_OK);
    /* Never started: nothing stopped it on its own. */
    CHECK(oc_video_data_output_get_stop_status(output) == OC_OK);
    CHECK(oc_video_data_output_get_stop_status(NULL) == OC_ERROR_INVALID_HANDLE);
    CHECK(oc_capture_session_set_input(session, find(list, "usb-1d6b:0110-VCAM-0000")) == OC_OK);
    CHECK(oc_capture_session_add_output(session, output) == OC_OK);
    CHECK(oc_capture_session_start_running(session) == OC_OK);

    struct pollfd waiting = { fd, POLLIN, 0 };
    CHECK(poll(&waiting, 1, 5000) == 1 && (waiting.revents & POLLIN));
    uint64_t last = 0;
    for (int i = 0; i < 3; i++) {
        CHECK(oc_video_data_output_copy_next_frame(output, 5000, &frame) == OC_OK && frame != NULL);
        CHECK(oc_frame_pixel_format(frame) == OC_PIXEL_FORMAT_NV12 && oc_frame_width(frame) == 640 && !oc_frame_is_full_range(frame));
        CHECK(i == 0 || oc_frame_sequence(frame) > last);
        last = oc_frame_sequence(frame);
        oc_frame_release(frame);
    }
    /* Taken: the descriptor is no longer readable until the next frame comes. */
    waiting.revents = 0;
    CHECK(poll(&waiting, 1, 0) == 0 || oc_video_data_output_copy_next_frame(output, 0, &frame) == OC_OK);
    /* A reader waiting for a frame returns when the session stops. */
    struct pull_waiter waiter = { output, OC_OK };
    pthread_t reader;
    CHECK(oc_video_data_output_copy_next_frame(output, 5000, &frame) == OC_OK);   /* nothing waiting now */
    oc_frame_release(frame);
    CHECK(pthread_create(&reader, NULL, pull_one, &waiter) == 0);
    double started = now_ms();
    CHECK(oc_capture_session_stop_running(session) == OC_OK);
    pthread_join(reader, NULL);
    CHECK((waiter.status == OC_ERROR_WRONG_STATE || waiter.status == OC_OK) && now_ms() - started < 2000);
    CHECK(oc_video_data_output_get_stop_status(output) == OC_OK);   /* stopped as asked */
    CHECK(oc_capture_session_remove_output(session, output) == OC_OK);
    oc_video_data_output_destroy(output);
    oc_capture_session_destroy(session);
    oc_device_list_free(list);
    oc_context_destroy(ctx);
    return 0;
}

struct joining {
    oc_capture_session *session;
    oc_video_data_output *output;
    pthread_barrier_t *start;
    oc_status status;
};

static void *join_session(void *argument)
{
    struct joining *j = argument;
    pthread_barrier_wait(j->start);
    j->status = oc_capture_session_add_output(j->session, j->output);
    return NULL;
}

struct pairing {
    oc_video_data_output *first, *second;
    pthread_barrier_t *start;
    oc_output_synchronizer *synchronizer;
};

static void *pair_outputs(void *argument)
{
    struct pairing *p = argument;
    pthread_barrier_wait(p->start);
    p->synchronizer = NULL;
    oc_output_synchronizer_create_for_cameras(p->first, p->second, &p->synchronizer);
    return NULL;
}

static int test_an_output_joins_one_session_whichever_thread_asks(void)
{
    oc_context *ctx = create_with_private_state("org.ocellus.test.c.membership");
    CHECK(ctx != NULL);
    oc_capture_session *sessions[2] = { NULL, NULL };
    oc_video_data_output *output = NULL;
    CHECK(oc_capture_session_create(ctx, &sessions[0]) == OC_OK && oc_capture_session_create(ctx, &sessions[1]) == OC_OK);
    CHECK(oc_video_data_output_create(&output) == OC_OK);
    pthread_barrier_t start;
    pthread_barrier_init(&start, NULL, 2);
    /* Two threads add one output to two sessions at once: one of them, never both, gets it. */
    for (int round = 0; round < 200; round++) {
        struct joining joins[2] = { { sessions[0], output, &start, OC_OK }, { sessions[1], output, &start, OC_OK } };
        pthread_t threads[2];
        for (int i = 0; i < 2; i++) CHECK(pthread_create(&threads[i], NULL, join_session, &joins[i]) == 0);
        for (int i = 0; i < 2; i++) pthread_join(threads[i], NULL);
        int joined = (joins[0].status == OC_OK) + (joins[1].status == OC_OK);
        if (joined != 1) fprintf(stderr, "  round %d: %d sessions took the output\n", round, joined);
        CHECK(joined == 1);
        oc_status refused = joins[0].status == OC_OK ? joins[1].status : joins[0].status;
        CHECK(refused == OC_ERROR_WRONG_STATE);
        int owner = joins[0].status == OC_OK ? 0 : 1;
        CHECK(oc_capture_session_remove_output(sessions[1 - owner], output) == OC_ERROR_NOT_FOUND);
        CHECK(oc_capture_session_remove_output(sessions[owner], output) == OC_OK);
    }
    /* Two synchronizers made at once over a shared output: one of them, never both. */
    oc_video_data_output *left = NULL, *right = NULL;
    CHECK(oc_video_data_output_create(&left) == OC_OK && oc_video_data_output_create(&right) == OC_OK);
    for (int round = 0; round < 200; round++) {
        struct pairing pairs[2] = { { left, output, &start, NULL }, { output, right, &start, NULL } };
        pthread_t threads[2];
        for (int i = 0; i < 2; i++) CHECK(pthread_create(&threads[i], NULL, pair_outputs, &pairs[i]) == 0);
        for (int i = 0; i < 2; i++) pthread_join(threads[i], NULL);
        int made = (pairs[0].synchronizer != NULL) + (pairs[1].synchronizer != NULL);
        if (made != 1) fprintf(stderr, "  round %d: %d synchronizers share one output\n", round, made);
        CHECK(made == 1);
        oc_output_synchronizer_destroy(pairs[0].synchronizer ? pairs[0].synchronizer : pairs[1].synchronizer);
    }
    oc_video_data_output_destroy(left);
    oc_video_data_output_destroy(right);
    pthread_barrier_destroy(&start);
    /* A destroyed session lets its outputs go: they join another. */
    CHECK(oc_capture_session_add_output(sessions[0], output) == OC_OK);
    oc_capture_session_destroy(sessions[0]);
    CHECK(oc_capture_session_add_output(sessions[1], output) == OC_OK);
    oc_photo_output *photo = NULL;
    oc_capture_session *other = NULL;
    CHECK(oc_photo_output_create(&photo) == OC_OK && oc_capture_session_create(ctx, &other) == OC_OK);
    CHECK(oc_capture_session_add_photo_output(other, photo) == OC_OK);
    oc_capture_session_destroy(other);
    CHECK(oc_capture_session_add_photo_output(sessions[1], photo) == OC_OK);
    oc_capture_session_destroy(sessions[1]);
    oc_photo_output_destroy(photo);
    oc_video_data_output_destroy(output);
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

/* Camera access and depth from C, as an app would use them on the test bed: an unsandboxed
 * app is authorized directly (the portal route has its own suite, Tests/portal); the bed's
 * virtual cameras have no depth, so depth outputs are refused with the reason (the depth paths
 * run on real uvcvideo in Tests/gadget/test_depth.py). */
static pthread_mutex_t access_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t access_answered = PTHREAD_COND_INITIALIZER;
static int access_answer = -1;
static oc_status access_status = -100;

static void on_access(oc_context *ctx, oc_camera_authorization authorization, oc_status status, const char *message,
                      void *user_data)
{
    (void)ctx; (void)message; (void)user_data;
    pthread_mutex_lock(&access_lock);
    access_answer = (int)authorization;
    access_status = status;
    pthread_cond_broadcast(&access_answered);
    pthread_mutex_unlock(&access_lock);
}

static void never_called_frame(oc_video_data_output *output, const oc_frame *frame, void *user_data)
{
    (void)output; (void)frame; (void)user_data;
}

static int test_access_and_depth(void)
{
    oc_context *ctx = create();
    CHECK(ctx != NULL);
    CHECK(!oc_context_uses_camera_portal(ctx));
    CHECK(oc_context_camera_authorization(ctx) == OC_CAMERA_AUTHORIZATION_AUTHORIZED);
    CHECK(strcmp(oc_camera_authorization_name(OC_CAMERA_AUTHORIZATION_DENIED), "denied") == 0);
    CHECK(oc_context_request_camera_access(ctx, on_access, NULL) == OC_OK);
    pthread_mutex_lock(&access_lock);
    double deadline = now_ms() + 5000;
    while (access_answer < 0 && now_ms() < deadline) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += 10000000;
        if (until.tv_nsec >= 1000000000) { until.tv_sec++; until.tv_nsec -= 1000000000; }
        pthread_cond_timedwait(&access_answered, &access_lock, &until);
    }
    int answer = access_answer;
    oc_status status = access_status;
    pthread_mutex_unlock(&access_lock);
    CHECK(answer == OC_CAMERA_AUTHORIZATION_AUTHORIZED && status == OC_OK);

    oc_device *cam = NULL;
    CHECK(oc_context_copy_device_by_unique_id(ctx, "usb-1d6b:0110-VCAM-0000", &cam) == OC_OK);
    CHECK(oc_device_depth_format_count(cam) == 0);
    CHECK(!oc_device_depth_format_runs_beside(cam, 0, 0));
    oc_depth_data_output *depth = NULL;
    CHECK(oc_depth_data_output_create(&depth) == OC_OK);
    CHECK(oc_depth_data_output_set_format(depth, OC_PIXEL_FORMAT_YUYV, 0, 0) == OC_ERROR_INVALID_ARGUMENT);
    CHECK(oc_depth_data_output_set_format(depth, OC_PIXEL_FORMAT_DEPTH32F, 0, 0) == OC_OK);
    oc_capture_session *session = NULL;
    CHECK(oc_capture_session_create(ctx, &session) == OC_OK);
    CHECK(oc_capture_session_set_input(session, cam) == OC_OK);
    CHECK(!oc_capture_session_can_add_depth_output(session, depth));
    CHECK(oc_capture_session_add_depth_output(session, depth) == OC_ERROR_INVALID_ARGUMENT);
    CHECK(strstr(oc_last_error_message(), "not a depth camera") != NULL);

    /* A synchronized output's frames go to the synchronizer: its own callback is refused until it goes. */
    oc_video_data_output *video = NULL;
    oc_output_synchronizer *synchronizer = NULL;
    CHECK(oc_video_data_output_create(&video) == OC_OK);
    CHECK(oc_output_synchronizer_create(video, depth, &synchronizer) == OC_OK);
    CHECK(oc_video_data_output_set_frame_callback(video, never_called_frame, NULL) == OC_ERROR_WRONG_STATE);
    CHECK(oc_output_synchronizer_delivered_pairs(synchronizer) == 0);
    CHECK(oc_output_synchronizer_unmatched_frames(synchronizer, OC_SYNC_STREAM_DEPTH) == 0);
    oc_output_synchronizer_destroy(synchronizer);
    CHECK(oc_video_data_output_set_frame_callback(video, never_called_frame, NULL) == OC_OK);

    oc_video_data_output_destroy(video);
    oc_capture_session_destroy(session);
    oc_depth_data_output_destroy(depth);
    oc_device_release(cam);
    oc_context_destroy(ctx);
    return 0;
}

int main(void)
{
    if (!getenv("OCELLUS_TESTBED_DIR") || !getenv("OCELLUS_TESTBED_SCRIPT")) {
        fprintf(stderr, "run inside scripts/testbed.sh (OCELLUS_TESTBED_DIR and OCELLUS_TESTBED_SCRIPT)\n");
        return 2;
    }
    run("version", test_version);
    run("lists virtual cameras with properties", test_lists_virtual_cameras_with_properties);
    run("built-in and virtual classification", test_builtin_and_virtual_classification);
    run("hotplug added, removed, replug", test_hotplug_added_removed_and_replug);
    run("identical cameras without serial stay distinct", test_identical_cameras_without_serial_stay_distinct);
    run("remove waits for callback in flight", test_remove_waits_for_callback_in_flight);
    run("destroy inside callback is refused", test_destroy_inside_callback_is_refused);
    run("NULL and destroyed handles", test_null_and_destroyed_handles);
    run("invalid app IDs", test_invalid_app_ids);
    run("state directory resolution", test_state_directory_resolution);
    run("camera selection", test_camera_selection);
    run("discovery session", test_discovery_session);
    run("capture session delivers frames", test_capture_session_delivers_frames);
    run("destroy delivers the stop before it", test_destroy_delivers_the_stop_before_it);
    run("photo and movie outputs", test_photo_and_movie_outputs);
    run("microphone and audio output", test_microphone_and_audio_output);
    run("microphone route", test_microphone_route);
    run("microphone modes", test_microphone_modes);
    run("rotation coordinator", test_rotation_coordinator);
    run("center stage", test_center_stage);
    run("hardware cost off USB", test_hardware_cost_off_usb);
    run("a configuration's check before streaming", test_configuration_check);
    run("multi-camera session", test_multi_cam_session);
    run("two cameras paired by capture time", test_two_cameras_paired_by_capture_time);
    run("unreachable remote fails fast", test_unreachable_remote_fails_fast);
    run("last error is per thread", test_last_error_is_per_thread);
    run("an output joins one session, whichever thread asks", test_an_output_joins_one_session_whichever_thread_asks);
    run("hardening contracts", test_hardening_contracts);
    run("pixel formats by name", test_pixel_formats_by_name);
    run("pulled frames and pollable fd", test_pulled_frames_and_pollable_fd);
    run("camera access and depth", test_access_and_depth);
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
