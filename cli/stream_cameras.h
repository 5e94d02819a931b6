/* `ocellus stream CAMERA CAMERA…` (stream_cameras.c): several cameras at once. */
#ifndef OCELLUS_CLI_STREAM_CAMERAS_H
#define OCELLUS_CLI_STREAM_CAMERAS_H

#include "args.h"
#include "library.h"
#include <stdbool.h>
#include <stdint.h>

/* What every camera of the stream is asked for. */
typedef struct stream_request {
    uint32_t pixel_format, width, height;   /* 0: the camera's */
    oc_fraction max_rate;                   /* 0/0: every frame */
    uint64_t frames;                        /* per camera; 0: no limit */
    double seconds;                         /* <= 0: no limit */
    bool fit;                               /* a camera may run another format when the asked one does not fit its bus */
    bool synchronized;                      /* two cameras' frames paired by capture time */
    bool as_json;
} stream_request;

/* Streams `count` cameras (`specs`) until each delivered `frames`, `seconds` passed or a signal,
 * then writes the summary: 0, or 1 with the reason (naming the camera) on stderr. */
int stream_cameras(const global_options *options, const char *const *specs, int count, const stream_request *request);

#endif
