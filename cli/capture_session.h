/* A capture session on one camera with the command's signal handling (capture_session.c), as
 * libcamera's `cam` has its camera session: what stream, snap and record share. */
#ifndef OCELLUS_CLI_CAPTURE_SESSION_H
#define OCELLUS_CLI_CAPTURE_SESSION_H

#include <ocellus.h>
#include "args.h"
#include "library.h"
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>

typedef struct capture_run {
    oc_context *ctx;
    oc_device *device;   /* the camera; NULL in a session of a microphone alone */
    oc_capture_session *session;
    sigset_t signals;
    pthread_mutex_t lock;
    /* The runtime error (or stall) that ended the session early. */
    char failure[1024];
} capture_run;
/* Opens the context and a new session with the command's event handling, without an input: 0,
 * or 1 with the reason on stderr and nothing left open. */
int capture_open_session(capture_run *c, const global_options *options);
/* Opens the context, finds CAMERA (`spec`) and makes it a new session's input: 0, or 1 with the
 * reason on stderr and nothing left open. */
int capture_open(capture_run *c, const global_options *options, const char *spec);
void capture_close(capture_run *c);
/* Closes everything, then says `message`; returns 1, the command's status. */
int capture_fail(capture_run *c, const char *message);
/* Starts the session: 0, or capture_fail()'s 1. */
int capture_start(capture_run *c);
/* Waits for a termination signal, finish_wait(), or `seconds` (<= 0: no limit); `tick` runs about once a second. */
void capture_wait(capture_run *c, double seconds, void (*tick)(void *), void *tick_data);
/* The failure that ended the session, or NULL; copied into `buffer`. */
const char *capture_failure(capture_run *c, char buffer[1024]);

/* What snap and record share: [CAMERA] -o FILE [--size WxH] [--host-orientation H] [--sensor-bus A] [--json]. */
typedef struct stored_options {
    const char *spec, *path, *sensor_bus;
    uint32_t width, height;   /* 0x0: the session's */
    int host;                 /* degrees, or -1: ask the sensor proxy */
    bool as_json;
} stored_options;
/* Parses the stored options of `command` (snap, record) into `stored`: 0, or the status of the
 * problem said on stderr (2: bad usage, 1: a value refused). */
int stored_capture_options(arguments *a, const char *command, stored_options *stored);

#endif
