/* Microphone modes on the command line: `--mode`/`--microphone-mode` values and the "mode" object
 * listen and record write (what was preferred, what runs, the engine doing it), and their echo cancellation. */
#ifndef OCELLUS_CLI_MICROPHONE_MODE_H
#define OCELLUS_CLI_MICROPHONE_MODE_H

#include <ocellus.h>
#include "json.h"

/* standard, wide-spectrum, voice-isolation (the header's names, with underscores, too): 0, or 2
 * with the usage problem said. */
int parse_microphone_mode(const char *text, oc_microphone_mode *mode);
/* Prefers `mode` on the session; says why on stderr when another runs. 0, or 1 (refused). */
int apply_microphone_mode(oc_capture_session *session, oc_microphone_mode mode);
/* {"preferred": …, "active": …, "engine": …[, "reason": …]} */
void microphone_mode_json(json *w, const oc_capture_session *session);
/* {"canceller": "webrtc"|"none"[, "reason": …]}: the echo cancellation of voice isolation. */
void echo_cancellation_json(json *w, const oc_capture_session *session);
/* "voice_isolation mode (rnnoise, echo cancelled by webrtc)", "standard mode", or "standard mode (voice_isolation is unavailable: …)". */
void microphone_mode_text(const oc_capture_session *session, strbuf *out);

#endif
