/* access: whether this app may use cameras, and (with --request) asking the camera portal. */
#include "args.h"
#include "commands.h"
#include "json.h"
#include "library.h"
#include "output.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

typedef struct access_answer {
    pthread_mutex_t lock;
    bool done;
    oc_camera_authorization authorization;
    oc_status status;
    char message[1024];
} access_answer;

static void on_answer(oc_context *ctx, oc_camera_authorization authorization, oc_status status, const char *message,
                      void *user_data)
{
    (void)ctx;
    access_answer *answer = user_data;
    pthread_mutex_lock(&answer->lock);
    answer->done = true;
    answer->authorization = authorization;
    answer->status = status;
    snprintf(answer->message, sizeof answer->message, "%s", message ? message : "");
    pthread_mutex_unlock(&answer->lock);
    finish_wait();
}

int command_access(const global_options *options, arguments *a)
{
    bool request = args_flag(a, "--request");
    bool as_json = args_flag(a, "--json");
    if (args_finish(a)) return 2;
    sigset_t signals = block_termination_signals();
    oc_context *ctx = open_context(options);
    if (!ctx) return 1;
    oc_camera_authorization authorization = oc_context_camera_authorization(ctx);
    static access_answer answer = { .lock = PTHREAD_MUTEX_INITIALIZER };
    if (request) {
        if (oc_context_request_camera_access(ctx, on_answer, &answer) != OC_OK) return close_context(ctx, fail_last_error());
        /* The desktop's dialog waits for the user: no limit, but Ctrl-C ends the wait. */
        for (;;) {
            pthread_mutex_lock(&answer.lock);
            bool done = answer.done;
            pthread_mutex_unlock(&answer.lock);
            if (done) break;
            struct timespec slice = { .tv_sec = 1 };
            if (sigtimedwait(&signals, NULL, &slice) > 0) {
                pthread_mutex_lock(&answer.lock);
                done = answer.done;
                pthread_mutex_unlock(&answer.lock);
                /* The request is still with the portal: the process ends without waiting for it. */
                if (!done) return fail(1, "interrupted before the camera access request was answered");
            }
        }
        authorization = answer.authorization;
    }
    const char *via = oc_context_uses_camera_portal(ctx) ? "portal" : "direct";
    strbuf out;
    text_init(&out);
    if (as_json) {
        json w;
        json_start(&w, &out);
        json_object_begin(&w);
        json_key(&w, "authorization"); json_string(&w, oc_camera_authorization_name(authorization));
        json_key(&w, "via"); json_string(&w, via);
        json_object_end(&w);
    } else {
        text_printf(&out, "camera access: %s (%s)", oc_camera_authorization_name(authorization),
                    strcmp(via, "portal") == 0 ? "through the camera portal" : "directly");
    }
    oc_context_destroy(ctx);
    emit(out.data);
    text_free(&out);
    /* A refusal is the command's answer, not its failure; a portal that could not ask is. */
    if (request && answer.status != OC_OK && answer.status != OC_ERROR_PERMISSION_DENIED) return fail(1, "%s", answer.message);
    if (request && answer.status == OC_ERROR_PERMISSION_DENIED) warn("%s", answer.message);
    return 0;
}
