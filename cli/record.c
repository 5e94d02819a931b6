/* `ocellus record`: a movie file, with sound from a microphone when asked. */
#include "args.h"
#include "capture_session.h"
#include "commands.h"
#include "json.h"
#include "library.h"
#include "microphone_mode.h"
#include "output.h"
#include "rotation.h"
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef struct recording_result {
    pthread_mutex_t lock;
    bool done;
    oc_status status;
    char message[1024];
    uint64_t frames;
    strbuf summary_json, summary_text;
    const oc_capture_session *session;   /* for the microphone mode in the summary; NULL without sound */
} recording_result;

static void on_recording(oc_movie_file_output *output, oc_status status, const char *message,
                         const oc_recording_summary *summary, void *user_data)
{
    (void)output;
    recording_result *result = user_data;
    pthread_mutex_lock(&result->lock);
    result->done = true;
    result->status = status;
    result->frames = summary->frames;
    snprintf(result->message, sizeof result->message, "%s", message ? message : "");
    json w;
    json_start(&w, &result->summary_json);
    json_object_begin(&w);
    json_key(&w, "path"); json_string(&w, summary->path);
    json_key(&w, "bytes"); json_int(&w, summary->bytes);
    json_key(&w, "width"); json_int(&w, summary->width);
    json_key(&w, "height"); json_int(&w, summary->height);
    json_key(&w, "duration"); json_number(&w, summary->duration);
    json_key(&w, "orientation"); json_int(&w, summary->rotation);
    json_key(&w, "frames"); json_int(&w, (int64_t)summary->frames);
    json_key(&w, "dropped"); json_int(&w, (int64_t)summary->dropped_frames);
    if (result->session) {
        json_key(&w, "dropped_audio_frames"); json_int(&w, (int64_t)summary->dropped_audio_frames);
        json_key(&w, "mode"); microphone_mode_json(&w, result->session);
        json_key(&w, "echo_cancellation"); echo_cancellation_json(&w, result->session);
    }
    json_key(&w, "rotation_degrees"); json_int(&w, summary->rotation);   /* "orientation" above, named for what it is */
    summary_json_end(&w);
    char duration[32], audio[32];
    text_printf(&result->summary_text, "%s: %s %ux%u, %s s, %" PRIu64 " frames (%" PRIu64 " dropped)", summary->path,
                summary->video_codec, summary->width, summary->height, number_text(summary->duration, duration),
                summary->frames, summary->dropped_frames);
    if (summary->audio_duration > 0) text_printf(&result->summary_text, ", AAC %s s", number_text(summary->audio_duration, audio));
    if (summary->dropped_audio_frames > 0)
        text_printf(&result->summary_text, " (%" PRIu64 " sound frames left out)", summary->dropped_audio_frames);
    if (result->session) {
        text_append(&result->summary_text, " in ");
        microphone_mode_text(result->session, &result->summary_text);
    }
    text_printf(&result->summary_text, ", %" PRId64 " bytes, rotation %d°", summary->bytes, summary->rotation);
    pthread_mutex_unlock(&result->lock);
    finish_wait();
}

/* The microphone `--audio [ID]` names: the one with that unique ID (the `microphone` device included),
 * or without one the camera's own microphone, else the `microphone` device, which follows the default input.
 * NULL, with the reason said and the capture closed, when there is none. */
static oc_device *chosen_microphone(capture_run *c, const char *unique_id)
{
    oc_device *microphone = NULL;
    if (!unique_id) {
        if (oc_context_copy_associated_microphone(c->ctx, c->device, &microphone) != OC_OK || !microphone) {
            oc_context_copy_default_microphone(c->ctx, &microphone);
        }
        if (!microphone) capture_fail(c, "no microphone to record from");
        return microphone;
    }
    if (oc_context_copy_default_microphone(c->ctx, &microphone) == OC_OK && microphone
        && strcmp(oc_device_unique_id(microphone), unique_id) == 0) {
        return microphone;
    }
    oc_device_release(microphone);
    microphone = NULL;
    if (oc_context_copy_device_by_unique_id(c->ctx, unique_id, &microphone) != OC_OK
        || oc_device_get_type(microphone) != OC_DEVICE_TYPE_MICROPHONE) {
        oc_device_release(microphone);
        char message[512];
        snprintf(message, sizeof message, "no connected microphone has the unique ID %s", unique_id);
        capture_fail(c, message);
        return NULL;
    }
    return microphone;
}

/* Sets the movie output up on the open capture `c` and starts recording into `path`: 0, or 1 with
 * the reason said and the capture closed. */
static int start_recording(capture_run *c, oc_movie_file_output *movie, const stored_options *stored, bool audio,
                           const char *audio_id, const oc_microphone_mode *mode, recording_result *result)
{
    int32_t angle = capture_angle(c->ctx, c->device, stored->host, stored->sensor_bus);
    if (angle < 0) {
        capture_close(c);
        return 1;
    }
    if (oc_movie_file_output_set_size(movie, stored->width, stored->height) != OC_OK
        || oc_movie_file_output_set_rotation_angle(movie, angle) != OC_OK) {
        return capture_fail(c, oc_last_error_message());
    }
    if (audio) {
        oc_device *microphone = chosen_microphone(c, audio_id);
        if (!microphone) return 1;
        oc_status status = oc_capture_session_set_audio_input(c->session, microphone);
        oc_device_release(microphone);
        if (status != OC_OK) return capture_fail(c, oc_last_error_message());
        if (mode && apply_microphone_mode(c->session, *mode)) {
            capture_close(c);
            return 1;
        }
        result->session = c->session;
    }
    if (oc_capture_session_add_movie_file_output(c->session, movie) != OC_OK) return capture_fail(c, oc_last_error_message());
    if (capture_start(c)) return 1;
    oc_status started = oc_movie_file_output_start_recording(movie, stored->path, on_recording, result);
    if (started != OC_OK) {
        int status = capture_fail(c, oc_last_error_message());
        return started == OC_ERROR_INVALID_ARGUMENT ? 2 : status;   /* the path's kind (-o clip.avi): a usage error */
    }
    return 0;
}

int command_record(const global_options *options, arguments *a)
{
    stored_options stored;
    int status = stored_capture_options(a, "record", &stored);
    if (status) return status;
    const char *seconds_text = args_value(a, "--seconds");
    double seconds = 0;
    if (seconds_text && !parse_seconds(seconds_text, &seconds)) return 2;
    const char *audio_id = NULL;
    bool audio = args_optional_value(a, "--audio", &audio_id);
    const char *mode_text = args_value(a, "--microphone-mode");
    if (args_finish(a)) return 2;
    oc_microphone_mode mode;
    if (mode_text && parse_microphone_mode(mode_text, &mode)) return 2;
    if (mode_text && !audio) return usage_error("--microphone-mode needs --audio");
    const char *path = stored.path;
    bool as_json = stored.as_json;

    static capture_run c;
    if (capture_open(&c, options, stored.spec)) return 1;
    oc_movie_file_output *movie = NULL;
    static recording_result result = { .lock = PTHREAD_MUTEX_INITIALIZER };
    text_init(&result.summary_json);
    text_init(&result.summary_text);
    status = oc_movie_file_output_create(&movie) == OC_OK ? start_recording(&c, movie, &stored, audio, audio_id,
                                                                             mode_text ? &mode : NULL, &result)
                                                           : capture_fail(&c, oc_last_error_message());
    if (status) {
        if (movie) oc_movie_file_output_destroy(movie);
        return status;
    }
    if (!as_json) {
        strbuf line;
        text_init(&line);
        text_printf(&line, "recording %s from %s; stop with Ctrl-C", path, oc_device_name(c.device));
        emit(line.data);
        text_free(&line);
    }
    capture_wait(&c, seconds, NULL, NULL);
    char failure_buffer[1024];
    const char *problem = capture_failure(&c, failure_buffer);
    /* Stopped first, so that taking the output away does not reopen a camera that stalled (twice, 3 s each). */
    if (problem) oc_capture_session_stop_running(c.session);
    oc_movie_file_output_destroy(movie);   /* finishes the file and waits for it */
    capture_close(&c);
    pthread_mutex_lock(&result.lock);
    if (!result.done) {
        status = fail(1, "the recording did not finish");
    } else {
        emit(as_json ? result.summary_json.data : result.summary_text.data);
        if (result.status != OC_OK) status = fail(1, "%s (the file holds what was recorded until then)", result.message);
        else if (problem) status = fail(1, "%s (the file holds what was recorded until then)", problem);
        else if (result.frames == 0) status = fail(1, "no frame was recorded: the recording ended before the camera sent one");
    }
    pthread_mutex_unlock(&result.lock);
    return status;
}
