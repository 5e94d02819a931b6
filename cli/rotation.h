/* The rotation coordinator's angles, for the commands that turn pictures (rotation.c). */
#ifndef OCELLUS_CLI_ROTATION_H
#define OCELLUS_CLI_ROTATION_H

#include <ocellus.h>
#include "args.h"
#include <stdint.h>

/* iio-sensor-proxy's names as clockwise degrees; -2, with the reason on stderr, for an unknown one. */
int parse_host_orientation(const char *text);
/* The capture angle for `camera` with the host at `host_degrees`, or (-1) from the sensor
 * proxy on `sensor_bus` (natural when none answers); -1, with the reason on stderr, on failure. */
int32_t capture_angle(oc_context *ctx, oc_device *camera, int host_degrees, const char *sensor_bus);
/* `--sensor-bus ADDRESS`, else $OCELLUS_SENSOR_BUS, else NULL (the system bus). */
const char *sensor_bus_option(arguments *a);


#endif
