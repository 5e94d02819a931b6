/* `stream --depth`: a depth output beside the picture, counted (depth_counter.c). */
#ifndef OCELLUS_CLI_DEPTH_COUNTER_H
#define OCELLUS_CLI_DEPTH_COUNTER_H

#include <ocellus.h>
#include "json.h"
#include <pthread.h>
#include <stdint.h>

typedef struct depth_counter {
    pthread_mutex_t lock;
    oc_depth_data_output *output;
    uint64_t frames;
    uint32_t pixel_format, width, height;
} depth_counter;
/* Adds the depth output to the session; the session's problem as the last error otherwise. */
oc_status depth_counter_attach(depth_counter *counter, oc_capture_session *session);
/* After the session stopped: the `"depth"` member of the stream summary; destroys the output. */
void depth_counter_json(depth_counter *counter, json *w);

#endif
