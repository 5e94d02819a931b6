/* `ocellus preferred` and `ocellus prefer`: the app's user and system preferred cameras. */
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

static void warn_state_problem(oc_context *ctx)
{
    char problem[1024];
    if (oc_context_copy_state_problem(ctx, problem, sizeof problem) > 0) warn("%s", problem);
}

int command_preferred(const global_options *options, arguments *a)
{
    bool as_json = args_flag(a, "--json");
    if (args_finish(a)) return 2;
    oc_context *ctx = open_context(options);
    if (!ctx) return 1;
    warn_state_problem(ctx);
    oc_device *user = NULL, *system = NULL;
    if (oc_context_copy_user_preferred_camera(ctx, &user) != OC_OK
        || oc_context_copy_system_preferred_camera(ctx, &system) != OC_OK) {
        int status = fail_last_error();
        oc_device_release(user);
        return close_context(ctx, status);
    }
    strbuf out, label;
    text_init(&out);
    text_init(&label);
    if (as_json) {
        json w;
        json_start(&w, &out);
        json_object_begin(&w);
        json_key(&w, "user_preferred"); if (user) device_json(&w, user); else json_null(&w);
        json_key(&w, "system_preferred"); if (system) device_json(&w, system); else json_null(&w);
        json_object_end(&w);
        emit(out.data);
    } else {
        text_printf(&out, "user preferred:   %s", device_label(user, &label));
        emit(out.data);
        text_clear(&out);
        text_printf(&out, "system preferred: %s", device_label(system, &label));
        emit(out.data);
    }
    text_free(&out);
    text_free(&label);
    oc_device_release(user);
    oc_device_release(system);
    return close_context(ctx, 0);
}

int command_prefer(const global_options *options, arguments *a)
{
    const char *spec = args_leading_positional(a);
    if (!spec) return usage_error("prefer needs a camera");
    if (args_finish(a)) return 2;
    oc_context *ctx = open_context(options);
    if (!ctx) return 1;
    oc_device *device = connected_device(ctx, spec);
    if (!device) return close_context(ctx, 1);
    if (oc_context_set_user_preferred_camera(ctx, device) != OC_OK) {
        int status = fail_last_error();
        oc_device_release(device);
        return close_context(ctx, status);
    }
    char problem[1024];
    size_t length = oc_context_copy_state_problem(ctx, problem, sizeof problem);
    /* A choice that could not be saved is lost when the process exits: for `prefer` that is failure. */
    if (oc_context_selection_is_unsaved(ctx)) {
        oc_device_release(device);
        return close_context(ctx, fail(1, "%s", length > 0 ? problem : "the choice could not be saved"));
    }
    if (length > 0) warn("%s", problem);
    oc_device_release(device);
    return close_context(ctx, 0);
}
