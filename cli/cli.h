/* The `ocellus` command: a client of the public C ABI (include/ocellus.h) and
 * nothing else, like libcamera's `cam` or `wpctl`. Shared declarations. */
#ifndef OCELLUS_CLI_H
#define OCELLUS_CLI_H

#include <ocellus.h>

#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* ---- output (output.c) ---- */

/* Where messages go: stdout, or stderr while stdout carries frames (`stream --output -`). */
extern FILE *message_stream;

/* One line to the message stream, flushed so pipes see events as they happen. */
void emit(const char *line);
/* One line on stderr ("ocellus: MESSAGE") and exit(status). */
_Noreturn void fail(int status, const char *format, ...) __attribute__((format(printf, 2, 3)));
/* Bad usage: the message, " (see ocellus --help)", exit 2. */
_Noreturn void usage_error(const char *format, ...) __attribute__((format(printf, 1, 2)));
void warn(const char *format, ...) __attribute__((format(printf, 1, 2)));
/* fail() with the library's last error message. */
_Noreturn void fail_last_error(void);

/* A growing string; never NULL after text_init. */
typedef struct strbuf {
    char *data;
    size_t length, capacity;
} strbuf;
void text_init(strbuf *t);
void text_free(strbuf *t);
void text_clear(strbuf *t);
void text_append(strbuf *t, const char *s);
void text_printf(strbuf *t, const char *format, ...) __attribute__((format(printf, 2, 3)));
/* Characters (code points) of a UTF-8 string, for aligning columns. */
size_t utf8_width(const char *s);

/* ---- JSON (json.c): members separated by ", ", keys by ": ", keys in a fixed order ---- */
typedef struct json {
    strbuf *out;
    int depth;
    bool needs_comma[16];
} json;
void json_start(json *w, strbuf *out);
void json_object_begin(json *w);
void json_object_end(json *w);
void json_array_begin(json *w);
void json_array_end(json *w);
void json_key(json *w, const char *key);
void json_string(json *w, const char *value);     /* NULL writes null */
void json_int(json *w, int64_t value);
void json_number(json *w, double value);           /* to 3 decimals, whole numbers without a point */
void json_bool(json *w, bool value);
void json_null(json *w);
/* A number as json_number() writes it, for text output ("29.97", "30"). */
const char *number_text(double value, char buffer[32]);

/* ---- arguments (args.c): options may appear anywhere after the command ---- */
typedef struct arguments {
    char **items;
    int count;
} arguments;
/* `--name value` or `--name=value`, removed; the last one wins; NULL when absent. */
const char *args_value(arguments *a, const char *name);
/* Every `--name value`, in order; returns how many (at most `max`). */
int args_values(arguments *a, const char *name, const char **out, int max);
/* `--name` alone: returns true with *value NULL; `--name value` when value is not an option. */
bool args_optional_value(arguments *a, const char *name, const char **value);
bool args_flag(arguments *a, const char *name);
/* The first argument that is not an option. */
const char *args_positional(arguments *a);
/* The next argument when it is not an option (an optional leading CAMERA). */
const char *args_leading_positional(arguments *a);
/* Usage error on anything left. */
void args_finish(const arguments *a);

/* ---- the library, as every command opens it (devices.c) ---- */
typedef struct global_options {
    const char *app_id;
    const char *remote;
    const char *state_directory;
} global_options;

/* A context with the options; a PipeWire problem is noted on stderr (V4L2 goes on). */
oc_context *open_context(const global_options *options);
/* The device CAMERA names (oc_context_copy_device_matching), or with NULL the
 * system preferred camera; fails the command otherwise. The caller releases it. */
oc_device *connected_device(oc_context *ctx, const char *spec);
/* The `list --json` device object. */
void device_json(json *w, oc_device *device);
/* `UNIQUE_ID "NAME"` or "none". */
const char *device_label(oc_device *device, strbuf *out);

/* Blocks SIGINT, SIGTERM and SIGUSR1 in this thread and those started later
 * (so library threads never take them); sigwait on the returned set. */
sigset_t block_termination_signals(void);
/* Ends a wait on the blocked signals from any thread. */
void finish_wait(void);
uint64_t monotonic_ns(void);

/* ---- a session on one camera, with the command's signal handling (capture.c) ---- */
typedef struct capture_run {
    oc_context *ctx;
    oc_device *device;
    oc_capture_session *session;
    sigset_t signals;
    pthread_mutex_t lock;
    /* The runtime error (or stall) that ended the session early. */
    char failure[1024];
} capture_run;
/* Opens the context, finds CAMERA (`spec`) and makes it a new session's input; fails the command otherwise. */
void capture_open(capture_run *c, const global_options *options, const char *spec);
void capture_close(capture_run *c);
/* Closes everything, then fails with `message`. */
_Noreturn void capture_fail(capture_run *c, const char *message);
void capture_start(capture_run *c);
/* Waits for a termination signal, finish_wait(), or `seconds` (<= 0: no limit); `tick` runs about once a second. */
void capture_wait(capture_run *c, double seconds, void (*tick)(void *), void *tick_data);
/* The failure that ended the session, or NULL; copied into `buffer`. */
const char *capture_failure(capture_run *c, char buffer[1024]);

/* ---- depth (depth.c) ---- */
/* `stream --depth`: a depth output beside the picture, counted. */
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
/* `snap --depth -o DIR`: a picture and the depth map of one instant, as PNGs in DIR. */
_Noreturn void snap_depth(const global_options *options, const char *spec, const char *directory, bool as_json);
/* png.c: 8-bit RGB (`bits` 8) or 16-bit greyscale from little-endian words (`bits` 16); NULL or why not. */
const char *write_png(const char *path, const uint8_t *rows, uint32_t width, uint32_t height, size_t stride, int bits,
                      char error[256]);

/* ---- commands ---- */
void command_list(const global_options *options, arguments *a);
void command_access(const global_options *options, arguments *a);
void command_watch(const global_options *options, arguments *a);
void command_preferred(const global_options *options, arguments *a);
void command_prefer(const global_options *options, arguments *a);
void command_microphones(const global_options *options, arguments *a);
void command_controls(const global_options *options, arguments *a);
void command_rotation(const global_options *options, arguments *a);
void command_mount_rotation(const global_options *options, arguments *a);
void command_stream(const global_options *options, arguments *a);
void command_snap(const global_options *options, arguments *a);
void command_record(const global_options *options, arguments *a);
void command_virtual_camera(const global_options *options, arguments *a);

/* ---- shared parsers ---- */
void parse_size(const char *text, uint32_t *width, uint32_t *height);
double parse_seconds(const char *text);
oc_fraction parse_rate(const char *text);
/* iio-sensor-proxy's names as clockwise degrees; exit 1 for an unknown one. */
int parse_host_orientation(const char *text);
/* The capture angle for `camera` with the host at `host_degrees`, or (-1) from
 * the sensor proxy on `sensor_bus` (natural when none answers). */
int32_t capture_angle(oc_context *ctx, oc_device *camera, int host_degrees, const char *sensor_bus);
/* `--sensor-bus ADDRESS`, else $OCELLUS_SENSOR_BUS, else NULL (the system bus). */
const char *sensor_bus_option(arguments *a);

#endif
