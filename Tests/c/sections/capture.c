/* The C suite: Capture sessions and video data outputs. Included by abi_test.c, after harness.h; run alone with
 * `Tests/c/run.sh capture`. */

struct frame_log {
    pthread_mutex_t lock;
    int frames, bad_content, events_started, events_stopped;
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
        SHARED_ADD(log->bad_content, 1);
    pthread_mutex_lock(&log->lock);
    if (!log->kept) log->kept = oc_frame_retain(frame);
    log->seen = frame;
    SHARED_ADD(log->frames, 1);
    pthread_mutex_unlock(&log->lock);
}

static void on_session_event(oc_capture_session *session, oc_session_event event, oc_status error,
                             const char *message, void *user_data)
{
    struct frame_log *log = user_data;
    (void)session; (void)error; (void)message;
    if (event == OC_SESSION_EVENT_STARTED) SHARED_ADD(log->events_started, 1);
    if (event == OC_SESSION_EVENT_STOPPED) SHARED_ADD(log->events_stopped, 1);
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
    while (SHARED_GET(log.frames) < 10 && now_ms() < deadline) usleep(1000);
    CHECK(oc_capture_session_stop_running(session) == OC_OK);
    CHECK(SHARED_GET(log.frames) >= 10 && SHARED_GET(log.bad_content) == 0);
    CHECK(oc_video_data_output_delivered_frames(output) == (uint64_t)SHARED_GET(log.frames));

    /* A retained frame outlives the stream; a frame pointer from a callback does not. */
    size_t size = 0;
    CHECK(log.kept && oc_frame_plane_data(log.kept, 0, &size, NULL) != NULL && size == 640 * 480 * 2);
    CHECK(oc_frame_plane_data(log.kept, 1, NULL, NULL) == NULL);
    CHECK(oc_frame_width(log.kept) == 640 && !oc_frame_is_full_range(log.kept));
    CHECK(oc_frame_width(log.seen) == 0 && strstr(oc_last_error_message(), "no longer valid") != NULL);
    oc_frame_release(log.kept);
    CHECK(oc_frame_width(log.kept) == 0);

    deadline = now_ms() + 5000;
    while (SHARED_GET(log.events_stopped) < 1 && now_ms() < deadline) usleep(1000);
    CHECK(SHARED_GET(log.events_started) == 1 && SHARED_GET(log.events_stopped) == 1);
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
        CHECK(SHARED_GET(log.events_started) == 1 && SHARED_GET(log.events_stopped) == 1);
        oc_video_data_output_destroy(output);
        pthread_mutex_destroy(&log.lock);
    }
    oc_device_release(camera);
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
