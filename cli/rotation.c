/* rotation, mount-rotation: the rotation coordinator's angles for a camera. */
#include "rotation.h"

#include "args.h"
#include "commands.h"
#include "json.h"
#include "library.h"
#include "output.h"

#include <stdlib.h>
#include <string.h>

int parse_host_orientation(const char *text)
{
    static const struct { const char *name; int degrees; } names[] = {
        { "normal", 0 }, { "left-up", 90 }, { "bottom-up", 180 }, { "right-up", 270 },
    };
    for (size_t index = 0; index < sizeof names / sizeof names[0]; index++) {
        if (strcmp(text, names[index].name) == 0) return names[index].degrees;
    }
    /* A bad value, not bad usage: status 1 like other refused values. */
    fail(1, "unknown host orientation '%s' (normal, left-up, bottom-up, right-up)", text);
    return -2;
}

const char *sensor_bus_option(arguments *a)
{
    const char *bus = args_value(a, "--sensor-bus");
    return bus ? bus : getenv("OCELLUS_SENSOR_BUS");
}

/* A coordinator for `camera` with H from `host_degrees`, or (-1) from the sensor proxy on `sensor_bus`:
 * with neither a sensor nor a given orientation, the natural orientation (H = 0). NULL, with the
 * reason on stderr, on failure. */
static oc_rotation_coordinator *coordinator_for(oc_context *ctx, oc_device *camera, int mirrored, int host_degrees,
                                                const char *sensor_bus, bool note_missing_sensor)
{
    oc_rotation_coordinator *coordinator = NULL;
    if (oc_rotation_coordinator_create(ctx, camera, mirrored, &coordinator) != OC_OK) {
        fail_last_error();
        return NULL;
    }
    if (host_degrees >= 0) {
        if (oc_rotation_coordinator_set_host_orientation(coordinator, host_degrees) != OC_OK) {
            fail_last_error();
            oc_rotation_coordinator_destroy(coordinator);
            return NULL;
        }
    } else if (oc_rotation_coordinator_follow_host_sensor(coordinator, sensor_bus) != OC_OK && note_missing_sensor) {
        fprintf(stderr, "ocellus: note: %s; assuming the natural orientation\n", oc_last_error_message());
    }
    return coordinator;
}

int32_t capture_angle(oc_context *ctx, oc_device *camera, int host_degrees, const char *sensor_bus)
{
    oc_rotation_coordinator *coordinator = coordinator_for(ctx, camera, 0, host_degrees, sensor_bus, false);
    if (!coordinator) return -1;
    int32_t capture = 0;
    oc_rotation_coordinator_get_angles(coordinator, NULL, &capture);
    oc_rotation_coordinator_destroy(coordinator);
    return capture;
}

typedef struct rotation_output {
    bool as_json;
    bool mirrored;
} rotation_output;

static void show_angles(const rotation_output *output, int32_t preview, int32_t capture)
{
    strbuf out;
    text_init(&out);
    if (output->as_json) {
        json w;
        json_start(&w, &out);
        json_object_begin(&w);
        json_key(&w, "preview_angle"); json_int(&w, preview);
        json_key(&w, "capture_angle"); json_int(&w, capture);
        json_key(&w, "mirrored"); json_bool(&w, output->mirrored);
        json_object_end(&w);
    } else {
        text_printf(&out, "preview %d°, capture %d°, %s", preview, capture, output->mirrored ? "mirrored" : "not mirrored");
    }
    emit(out.data);
    text_free(&out);
}

static void on_angles(oc_rotation_coordinator *coordinator, int32_t preview, int32_t capture, void *user_data)
{
    (void)coordinator;
    show_angles(user_data, preview, capture);
}

int command_rotation(const global_options *options, arguments *a)
{
    const char *spec = args_leading_positional(a);   /* none: the system preferred camera */
    bool as_json = args_flag(a, "--json");
    const char *host = args_value(a, "--host-orientation");
    const char *interface = args_value(a, "--interface-orientation");
    int mirrored = args_flag(a, "--mirrored") ? 1 : args_flag(a, "--unmirrored") ? 0 : -1;
    bool watch = args_flag(a, "--watch");
    const char *sensor_bus = sensor_bus_option(a);
    if (args_finish(a)) return 2;
    int host_degrees = host ? parse_host_orientation(host) : -1;
    if (host_degrees == -2) return 1;
    int32_t interface_degrees = OC_INTERFACE_FOLLOWS_DEVICE;
    if (interface && strcmp(interface, "follow") != 0) {
        char *end = NULL;
        long value = strtol(interface, &end, 10);
        if (!*interface || *end) return fail(1, "bad interface orientation '%s' (0, 90, 180, 270 or follow)", interface);
        interface_degrees = (int32_t)value;
    }
    sigset_t signals = block_termination_signals();
    oc_context *ctx = open_context(options);
    if (!ctx) return 1;
    oc_device *camera = connected_device(ctx, spec);
    oc_rotation_coordinator *coordinator = camera ? coordinator_for(ctx, camera, mirrored, host_degrees, sensor_bus, true) : NULL;
    int status = coordinator ? 0 : 1;
    if (!status && oc_rotation_coordinator_set_interface_orientation(coordinator, interface_degrees) != OC_OK) status = fail_last_error();
    if (status) {
        oc_device_release(camera);
        return close_context(ctx, status);
    }
    static rotation_output output;
    output = (rotation_output){ .as_json = as_json, .mirrored = oc_rotation_coordinator_is_mirrored(coordinator) };
    int32_t preview = 0, capture = 0;
    oc_rotation_coordinator_get_angles(coordinator, &preview, &capture);
    show_angles(&output, preview, capture);
    if (watch) {
        if (oc_rotation_coordinator_add_callback(coordinator, on_angles, &output, NULL) != OC_OK) {
            status = fail_last_error();
        } else {
            int received = 0;
            sigwait(&signals, &received);
        }
    }
    oc_rotation_coordinator_destroy(coordinator);
    oc_device_release(camera);
    return close_context(ctx, status);
}

int command_mount_rotation(const global_options *options, arguments *a)
{
    const char *spec = args_leading_positional(a);
    const char *degrees = args_positional(a);
    if (!spec || !degrees) return usage_error("mount-rotation needs a camera and an angle");
    if (args_finish(a)) return 2;
    char *end = NULL;
    long value = strtol(degrees, &end, 10);
    if (!*degrees || *end || (value != 0 && value != 90 && value != 180 && value != 270)) {
        return fail(1, "bad angle '%s': a multiple of 90 from 0 to 270 (0, 90, 180 or 270)", degrees);
    }
    oc_context *ctx = open_context(options);
    if (!ctx) return 1;
    oc_device *camera = connected_device(ctx, spec);
    if (!camera) return close_context(ctx, 1);
    oc_rotation_coordinator *coordinator = NULL;
    int status = 0;
    if (oc_rotation_coordinator_create(ctx, camera, -1, &coordinator) != OC_OK
        || oc_rotation_coordinator_set_mounting_correction(coordinator, (int32_t)value) != OC_OK) {
        status = fail_last_error();
    }
    if (coordinator) oc_rotation_coordinator_destroy(coordinator);
    oc_device_release(camera);
    return close_context(ctx, status);
}
