/* `stream --depth`: a depth output beside the picture, counted (depth_counter.h). */
#include "depth_counter.h"

#include "json.h"
#include "library.h"
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static void on_depth_map(oc_depth_data_output *output, const oc_frame *depth, void *user_data)
{
    (void)output;
    depth_counter *counter = user_data;
    pthread_mutex_lock(&counter->lock);
    counter->frames++;
    counter->pixel_format = oc_frame_pixel_format(depth);
    counter->width = oc_frame_width(depth);
    counter->height = oc_frame_height(depth);
    pthread_mutex_unlock(&counter->lock);
}

oc_status depth_counter_attach(depth_counter *counter, oc_capture_session *session)
{
    pthread_mutex_init(&counter->lock, NULL);
    oc_status status = oc_depth_data_output_create(&counter->output);
    if (status == OC_OK) status = oc_depth_data_output_set_frame_callback(counter->output, on_depth_map, counter);
    if (status == OC_OK) status = oc_capture_session_add_depth_output(session, counter->output);
    return status;
}

void depth_counter_json(depth_counter *counter, json *w)
{
    uint64_t dropped = 0;
    for (int reason = OC_DROP_LATE; reason <= OC_DROP_CORRUPT; reason++) {
        dropped += oc_depth_data_output_dropped_frames(counter->output, (oc_drop_reason)reason);
    }
    oc_depth_data_output_destroy(counter->output);
    pthread_mutex_lock(&counter->lock);
    json_key(w, "depth");
    json_object_begin(w);
    json_key(w, "frames"); json_int(w, (int64_t)counter->frames);
    json_key(w, "dropped"); json_int(w, (int64_t)dropped);
    pixel_format_json(w, counter->pixel_format);
    json_key(w, "width"); json_int(w, counter->width);
    json_key(w, "height"); json_int(w, counter->height);
    json_object_end(w);
    pthread_mutex_unlock(&counter->lock);
}
