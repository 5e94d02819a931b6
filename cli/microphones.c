/* `ocellus microphones`: microphones and where the `microphone` device routes. */
#include "args.h"
#include "commands.h"
#include "json.h"
#include "library.h"
#include "output.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int command_microphones(const global_options *options, arguments *a)
{
    bool as_json = args_flag(a, "--json");
    if (args_finish(a)) return 2;
    oc_context *ctx = open_context(options);
    if (!ctx) return 1;
    oc_device_list *list = NULL;
    oc_device *route = NULL;
    if (oc_context_copy_devices(ctx, &list) != OC_OK || oc_context_copy_microphone_route(ctx, &route) != OC_OK) {
        int status = fail_last_error();
        oc_device_list_free(list);
        return close_context(ctx, status);
    }
    strbuf out, label;
    text_init(&out);
    text_init(&label);
    if (as_json) {
        json w;
        json_start(&w, &out);
        json_object_begin(&w);
        json_key(&w, "route"); if (route) device_json(&w, route); else json_null(&w);
        json_key(&w, "inputs");
        json_array_begin(&w);
        for (size_t index = 0; index < oc_device_list_count(list); index++) {
            oc_device *device = oc_device_list_get(list, index);
            if (oc_device_get_type(device) == OC_DEVICE_TYPE_MICROPHONE) device_json(&w, device);
        }
        json_array_end(&w);
        json_object_end(&w);
        emit(out.data);
    } else {
        text_printf(&out, "microphone -> %s", device_label(route, &label));
        emit(out.data);
        for (size_t index = 0; index < oc_device_list_count(list); index++) {
            oc_device *device = oc_device_list_get(list, index);
            if (oc_device_get_type(device) != OC_DEVICE_TYPE_MICROPHONE) continue;
            text_clear(&out);
            text_printf(&out, "%s %s", device == route ? "*" : " ", device_label(device, &label));
            emit(out.data);
        }
    }
    text_free(&out);
    text_free(&label);
    oc_device_release(route);
    oc_device_list_free(list);
    return close_context(ctx, 0);
}
