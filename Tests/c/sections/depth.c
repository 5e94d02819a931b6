/* The C suite: Depth (synchronised delivery). Included by abi_test.c, after harness.h; run alone with
 * `Tests/c/run.sh depth`. */

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
    /* Frames the first camera sent before the second delivered had no partner to find: what is
     * unmatched is counted from the first pair, when both deliver. (Counted from when the second
     * session's start returned, a second camera whose first frame came late still left 4.) */
    double deadline = now_ms() + 10000;
    for (;;) {
        pthread_mutex_lock(&seen.lock);
        int paired = seen.pairs;
        pthread_mutex_unlock(&seen.lock);
        if (paired > 0 || now_ms() > deadline) break;
        usleep(1000);
    }
    uint64_t unmatched_before = oc_output_synchronizer_unmatched_frames(synchronizer, OC_SYNC_STREAM_FIRST);
    usleep(1200 * 1000);
    for (int i = 0; i < 2; i++) oc_capture_session_stop_running(sessions[i]);
    pthread_mutex_lock(&seen.lock);
    int pairs = seen.pairs, apart = seen.apart;
    pthread_mutex_unlock(&seen.lock);
    CHECK(pairs >= 15 && apart == 0 && oc_output_synchronizer_delivered_pairs(synchronizer) == (uint64_t)pairs);
    CHECK(oc_output_synchronizer_unmatched_frames(synchronizer, OC_SYNC_STREAM_FIRST) - unmatched_before <= 3);
    oc_output_synchronizer_destroy(synchronizer);
    for (int i = 0; i < 2; i++) {
        oc_capture_session_destroy(sessions[i]);
        oc_video_data_output_destroy(outputs[i]);
    }
    oc_device_list_free(list);
    oc_context_destroy(ctx);
    return 0;
}
