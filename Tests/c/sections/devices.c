/* The C suite: Devices (and camera access). Included by abi_test.c, after harness.h; run alone with
 * `Tests/c/run.sh devices`. */

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
