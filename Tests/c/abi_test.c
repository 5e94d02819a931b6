/* End-to-end tests of the C ABI against the real PipeWire test bed started by
 * scripts/testbed.sh (two USB-like virtual cameras vcam0/vcam1 and a virtual
 * microphone vmic0). Cameras are hot-plugged with `testbed.sh add-camera`. One file per
 * section of the header (sections/), built as one program; `abi_test SECTION` runs one. */
#define _DEFAULT_SOURCE
#include "harness.h"

#include "sections/version.c"
#include "sections/errors.c"
#include "sections/context.c"
#include "sections/devices.c"
#include "sections/hotplug.c"
#include "sections/selection.c"
#include "sections/discovery.c"
#include "sections/capture.c"
#include "sections/multi_cam.c"
#include "sections/depth.c"
#include "sections/audio.c"
#include "sections/photo_movie.c"
#include "sections/rotation.c"
#include "sections/center_stage.c"

/* In the order they run: a test may leave the test bed as the next expects it. */
static const struct { const char *section, *name; int (*test)(void); } tests[] = {
    { "version", "version", test_version },
    { "devices", "lists virtual cameras with properties", test_lists_virtual_cameras_with_properties },
    { "devices", "built-in and virtual classification", test_builtin_and_virtual_classification },
    { "hotplug", "hotplug added, removed, replug", test_hotplug_added_removed_and_replug },
    { "hotplug", "identical cameras without serial stay distinct", test_identical_cameras_without_serial_stay_distinct },
    { "hotplug", "remove waits for callback in flight", test_remove_waits_for_callback_in_flight },
    { "hotplug", "destroy inside callback is refused", test_destroy_inside_callback_is_refused },
    { "errors", "NULL and destroyed handles", test_null_and_destroyed_handles },
    { "context", "invalid app IDs", test_invalid_app_ids },
    { "context", "state directory resolution", test_state_directory_resolution },
    { "selection", "camera selection", test_camera_selection },
    { "discovery", "discovery session", test_discovery_session },
    { "capture", "capture session delivers frames", test_capture_session_delivers_frames },
    { "capture", "destroy delivers the stop before it", test_destroy_delivers_the_stop_before_it },
    { "photo_movie", "photo and movie outputs", test_photo_and_movie_outputs },
    { "audio", "microphone and audio output", test_microphone_and_audio_output },
    { "audio", "microphone route", test_microphone_route },
    { "audio", "microphone modes", test_microphone_modes },
    { "rotation", "rotation coordinator", test_rotation_coordinator },
    { "center_stage", "center stage", test_center_stage },
    { "capture", "hardware cost off USB", test_hardware_cost_off_usb },
    { "capture", "a configuration's check before streaming", test_configuration_check },
    { "multi_cam", "multi-camera session", test_multi_cam_session },
    { "depth", "two cameras paired by capture time", test_two_cameras_paired_by_capture_time },
    { "context", "unreachable remote fails fast", test_unreachable_remote_fails_fast },
    { "errors", "last error is per thread", test_last_error_is_per_thread },
    { "capture", "an output joins one session, whichever thread asks", test_an_output_joins_one_session_whichever_thread_asks },
    { "errors", "hardening contracts", test_hardening_contracts },
    { "devices", "pixel formats by name", test_pixel_formats_by_name },
    { "capture", "pulled frames and pollable fd", test_pulled_frames_and_pollable_fd },
    { "devices", "camera access and depth", test_access_and_depth },
};

int main(int argc, char **argv)
{
    if (!getenv("OCELLUS_TESTBED_DIR") || !getenv("OCELLUS_TESTBED_SCRIPT")) {
        fprintf(stderr, "run inside scripts/testbed.sh (OCELLUS_TESTBED_DIR and OCELLUS_TESTBED_SCRIPT)\n");
        return 2;
    }
    const char *only = argc > 1 ? argv[1] : NULL;
    int found = 0;
    for (size_t index = 0; index < sizeof tests / sizeof tests[0]; index++) {
        if (only && strcmp(only, tests[index].section) != 0) continue;
        found++;
        run(tests[index].name, tests[index].test);
    }
    if (!found) {
        fprintf(stderr, "no section %s; the sections:", only);
        for (size_t index = 0; index < sizeof tests / sizeof tests[0]; index++) {
            size_t first = 0;
            while (strcmp(tests[first].section, tests[index].section) != 0) first++;
            if (first == index) fprintf(stderr, " %s", tests[index].section);
        }
        fprintf(stderr, "\n");
        return 2;
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
