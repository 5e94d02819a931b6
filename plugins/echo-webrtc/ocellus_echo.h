/* The echo canceller plugin's interface: what libocellus looks up with dlsym in
 * libocellus-echo-webrtc.so (plugins/echo-webrtc), which it loads on first use so that the
 * library itself never links webrtc-audio-processing (C++). Not a public header: the
 * plugin and the library are built and installed together, and the version below must match.
 *
 * Frames are 10 ms of 48 kHz mono float samples in -1...1 (480 samples). One canceller is used
 * by one thread at a time (the session's voice worker); different cancellers are independent. */
#ifndef OCELLUS_ECHO_H
#define OCELLUS_ECHO_H

#ifdef __cplusplus
extern "C" {
#endif

#define OCELLUS_ECHO_INTERFACE_VERSION 1

typedef struct ocellus_echo ocellus_echo;

/* OCELLUS_ECHO_INTERFACE_VERSION of the plugin. */
int ocellus_echo_interface_version(void);
/* How many samples the output lags the microphone (the canceller's band-splitting filters). */
int ocellus_echo_latency(void);
/* A canceller for 48 kHz mono, or NULL (out of memory, or the library refused the settings).
 * Free it with ocellus_echo_free. */
ocellus_echo *ocellus_echo_new(void);
void ocellus_echo_free(ocellus_echo *echo);
/* One frame of what was played (the reference), before the microphone frames that may hold its echo. */
void ocellus_echo_play(ocellus_echo *echo, const float *frame);
/* One frame of the microphone with the echo of what was played removed into `output` (may be `input`). */
void ocellus_echo_capture(ocellus_echo *echo, const float *input, float *output);

#ifdef __cplusplus
}
#endif

#endif
