/* Microphone modes on the command line (microphone_mode.h). */
#include "microphone_mode.h"

#include "output.h"
#include <string.h>

int parse_microphone_mode(const char *text, oc_microphone_mode *mode)
{
    static const struct { const char *name, *alias; oc_microphone_mode mode; } modes[] = {
        { "standard", "standard", OC_MICROPHONE_MODE_STANDARD },
        { "wide-spectrum", "wide_spectrum", OC_MICROPHONE_MODE_WIDE_SPECTRUM },
        { "voice-isolation", "voice_isolation", OC_MICROPHONE_MODE_VOICE_ISOLATION },
    };
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++) {
        if (!strcmp(text, modes[i].name) || !strcmp(text, modes[i].alias)) {
            *mode = modes[i].mode;
            return 0;
        }
    }
    return usage_error("unknown microphone mode '%s' (standard, wide-spectrum or voice-isolation)", text);
}

typedef struct mode_state {
    oc_microphone_mode preferred, active;
    char engine[64], reason[512];
    char canceller[64], echo_reason[512];
} mode_state;

static mode_state read_mode(const oc_capture_session *session)
{
    mode_state state = { OC_MICROPHONE_MODE_STANDARD, OC_MICROPHONE_MODE_STANDARD, "none", "", "none", "" };
    oc_capture_session_get_microphone_mode(session, &state.preferred, &state.active, state.engine, sizeof state.engine,
                                           state.reason, sizeof state.reason);
    oc_capture_session_get_echo_cancellation(session, state.canceller, sizeof state.canceller, state.echo_reason,
                                             sizeof state.echo_reason);
    return state;
}

int apply_microphone_mode(oc_capture_session *session, oc_microphone_mode mode)
{
    if (oc_capture_session_set_preferred_microphone_mode(session, mode) != OC_OK) return fail_last_error();
    mode_state state = read_mode(session);
    if (state.reason[0]) warn("%s; recording in %s mode", state.reason, oc_microphone_mode_name(state.active));
    if (state.echo_reason[0]) warn("%s", state.echo_reason);
    return 0;
}

void microphone_mode_json(json *w, const oc_capture_session *session)
{
    mode_state state = read_mode(session);
    json_object_begin(w);
    json_key(w, "preferred"); json_string(w, oc_microphone_mode_name(state.preferred));
    json_key(w, "active"); json_string(w, oc_microphone_mode_name(state.active));
    json_key(w, "engine"); json_string(w, state.engine);
    if (state.reason[0]) {
        json_key(w, "reason"); json_string(w, state.reason);
    }
    json_object_end(w);
}

void echo_cancellation_json(json *w, const oc_capture_session *session)
{
    mode_state state = read_mode(session);
    json_object_begin(w);
    json_key(w, "canceller"); json_string(w, state.canceller);
    if (state.echo_reason[0]) {
        json_key(w, "reason"); json_string(w, state.echo_reason);
    }
    json_object_end(w);
}

void microphone_mode_text(const oc_capture_session *session, strbuf *out)
{
    mode_state state = read_mode(session);
    text_printf(out, "%s mode", oc_microphone_mode_name(state.active));
    if (state.reason[0]) text_printf(out, " (%s)", state.reason);
    else if (strcmp(state.engine, "none") && strcmp(state.canceller, "none"))
        text_printf(out, " (%s, echo cancelled by %s)", state.engine, state.canceller);
    else if (strcmp(state.engine, "none")) text_printf(out, " (%s)", state.engine);
}
