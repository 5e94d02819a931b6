/* `ocellus listen`: a microphone, through a microphone mode, into a WAV file. */
#include "args.h"
#include "capture_session.h"
#include "commands.h"
#include "json.h"
#include "library.h"
#include "microphone_mode.h"
#include "output.h"
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A WAV file of 32-bit float samples (WAVE_FORMAT_IEEE_FLOAT) in the format the first buffer
 * has; the sizes in its header are written when it is closed. Written on the audio thread. */
typedef struct wav_file {
    FILE *file;
    uint32_t channels, sample_rate;
    uint64_t frames;
    int error;   /* errno of the first failed write, then nothing more is written */
} wav_file;

static void put_u32(unsigned char *at, uint32_t value)
{
    for (int i = 0; i < 4; i++) at[i] = (unsigned char)(value >> (8 * i));
}

static void put_u16(unsigned char *at, uint16_t value)
{
    at[0] = (unsigned char)value;
    at[1] = (unsigned char)(value >> 8);
}

/* The header of a float WAV holding `frames` frames: RIFF, an 18-byte fmt chunk and a fact chunk
 * (what a non-PCM WAV has, for readers that check), then the data chunk's header. The sizes
 * saturate at 4 GiB. */
enum { wav_header_size = 58 };
static int write_wav_header(wav_file *wav)
{
    unsigned char header[wav_header_size];
    uint64_t data_bytes = wav->frames * wav->channels * 4;
    if (data_bytes > UINT32_MAX - (wav_header_size - 8)) data_bytes = UINT32_MAX - (wav_header_size - 8);
    memcpy(header, "RIFF", 4);
    put_u32(header + 4, (uint32_t)(wav_header_size - 8 + data_bytes));
    memcpy(header + 8, "WAVEfmt ", 8);
    put_u32(header + 16, 18);
    put_u16(header + 20, 3);   /* WAVE_FORMAT_IEEE_FLOAT */
    put_u16(header + 22, (uint16_t)wav->channels);
    put_u32(header + 24, wav->sample_rate);
    put_u32(header + 28, wav->sample_rate * wav->channels * 4);
    put_u16(header + 32, (uint16_t)(wav->channels * 4));
    put_u16(header + 34, 32);
    put_u16(header + 36, 0);   /* no extension */
    memcpy(header + 38, "fact", 4);
    put_u32(header + 42, 4);
    put_u32(header + 46, (uint32_t)(data_bytes / 4 / (wav->channels ? wav->channels : 1)));
    memcpy(header + 50, "data", 4);
    put_u32(header + 54, (uint32_t)data_bytes);
    if (fseek(wav->file, 0, SEEK_SET) != 0 || fwrite(header, sizeof header, 1, wav->file) != 1) return errno ? errno : EIO;
    return 0;
}

static void on_samples(oc_audio_data_output *output, const float *samples, size_t frame_count, uint32_t channels,
                       uint32_t sample_rate, uint64_t timestamp_ns, void *user_data)
{
    (void)output;
    (void)timestamp_ns;
    wav_file *wav = user_data;
    if (wav->error) return;
    if (wav->channels == 0) {
        wav->channels = channels;
        wav->sample_rate = sample_rate;
        if ((wav->error = write_wav_header(wav))) return;
    } else if (channels != wav->channels || sample_rate != wav->sample_rate) {
        return;   /* the microphone changed format: the file keeps its first one */
    }
    if (fwrite(samples, sizeof *samples * channels, frame_count, wav->file) != frame_count) {
        wav->error = errno ? errno : EIO;
        return;
    }
    wav->frames += frame_count;
}

/* MICROPHONE as `list` names devices, or the `microphone` device (the default input). NULL, said why, when none. */
static oc_device *chosen_microphone(oc_context *ctx, const char *spec)
{
    oc_device *microphone = NULL;
    oc_status status = spec ? oc_context_copy_device_matching(ctx, spec, &microphone)
                            : oc_context_copy_default_microphone(ctx, &microphone);
    if (status != OC_OK) {
        fail_last_error();
        return NULL;
    }
    if (!microphone) {
        fail(1, "no microphone is connected");
    } else if (oc_device_get_type(microphone) != OC_DEVICE_TYPE_MICROPHONE) {
        fail(1, "%s is not a microphone", oc_device_unique_id(microphone));
        oc_device_release(microphone);
        microphone = NULL;
    }
    return microphone;
}

/* Sets the session up to hear `spec` through `mode` into `output`, then starts it: 0, or 1 with the capture closed. */
static int start_listening(capture_run *c, const char *spec, oc_microphone_mode mode, oc_audio_data_output *output,
                           wav_file *wav)
{
    oc_device *microphone = chosen_microphone(c->ctx, spec);
    if (!microphone) {
        capture_close(c);
        return 1;
    }
    oc_status status = oc_capture_session_set_audio_input(c->session, microphone);
    oc_device_release(microphone);
    /* The microphone's own rate and channels (voice isolation: 48 kHz). */
    if (status != OC_OK || oc_capture_session_set_audio_format(c->session, 0, 0) != OC_OK
        || oc_audio_data_output_set_callback(output, on_samples, wav) != OC_OK
        || oc_capture_session_add_audio_output(c->session, output) != OC_OK) {
        return capture_fail(c, oc_last_error_message());
    }
    if (apply_microphone_mode(c->session, mode)) {
        capture_close(c);
        return 1;
    }
    return capture_start(c);
}

int command_listen(const global_options *options, arguments *a)
{
    const char *spec = args_leading_positional(a);
    const char *path = args_value(a, "-o");
    if (!path) path = args_value(a, "--output");
    const char *mode_text = args_value(a, "--mode");
    const char *seconds_text = args_value(a, "--seconds");
    bool as_json = args_flag(a, "--json");
    if (args_finish(a)) return 2;
    if (!path) return usage_error("listen needs -o FILE.wav");
    oc_microphone_mode mode = OC_MICROPHONE_MODE_STANDARD;
    if (mode_text && parse_microphone_mode(mode_text, &mode)) return 2;
    double seconds = 0;
    if (seconds_text && !parse_seconds(seconds_text, &seconds)) return 2;

    static wav_file wav;
    wav = (wav_file){ .file = fopen(path, "wb") };
    if (!wav.file) return fail(1, "cannot write %s: %s", path, strerror(errno));
    static capture_run c;
    oc_audio_data_output *output = NULL;
    int status = capture_open_session(&c, options);
    if (!status) {
        status = oc_audio_data_output_create(&output) == OC_OK ? start_listening(&c, spec, mode, output, &wav)
                                                                : capture_fail(&c, oc_last_error_message());
    }
    if (status) {
        oc_audio_data_output_destroy(output);
        fclose(wav.file);
        remove(path);
        return status;
    }
    if (!as_json) {
        strbuf line;
        text_init(&line);
        text_printf(&line, "listening into %s in ", path);
        microphone_mode_text(c.session, &line);
        text_append(&line, "; stop with Ctrl-C");
        emit(line.data);
        text_free(&line);
    }
    capture_wait(&c, seconds, NULL, NULL);
    char failure_buffer[1024];
    const char *problem = capture_failure(&c, failure_buffer);
    oc_capture_session_stop_running(c.session);   /* the last samples, a voice engine's included, are in the file after this */
    strbuf summary;
    text_init(&summary);
    uint64_t dropped = oc_audio_data_output_dropped_frames(output);
    double heard = wav.sample_rate ? (double)wav.frames / wav.sample_rate : 0;
    if (as_json) {
        json w;
        json_start(&w, &summary);
        json_object_begin(&w);
        json_key(&w, "file"); json_string(&w, path);
        json_key(&w, "seconds"); json_number(&w, heard);
        json_key(&w, "mode"); microphone_mode_json(&w, c.session);
        json_key(&w, "echo_cancellation"); echo_cancellation_json(&w, c.session);
        json_key(&w, "channels"); json_int(&w, wav.channels);
        json_key(&w, "sample_rate"); json_int(&w, wav.sample_rate);
        json_key(&w, "frames"); json_int(&w, (int64_t)wav.frames);
        json_key(&w, "dropped"); json_int(&w, (int64_t)dropped);
        /* The keys snap and record use for the same things; "file", "seconds", "frames" and
         * "dropped" above stay as they were. */
        json_key(&w, "path"); json_string(&w, path);
        json_key(&w, "duration"); json_number(&w, heard);
        json_key(&w, "audio_frames"); json_int(&w, (int64_t)wav.frames);
        json_key(&w, "dropped_audio_frames"); json_int(&w, (int64_t)dropped);
        summary_json_end(&w);
    } else {
        char number[32];
        text_printf(&summary, "%s: %s s, %" PRIu32 " Hz, %" PRIu32 " channels, %" PRIu64 " frames (%" PRIu64 " dropped), ",
                    path, number_text(heard, number), wav.sample_rate, wav.channels, wav.frames, dropped);
        microphone_mode_text(c.session, &summary);
    }
    oc_audio_data_output_destroy(output);
    capture_close(&c);
    if (!wav.error && wav.channels == 0) {
        wav.channels = 1;   /* nothing heard: a valid empty file all the same */
        wav.sample_rate = 48000;
    }
    if (!wav.error) wav.error = write_wav_header(&wav);
    if (fclose(wav.file) != 0 && !wav.error) wav.error = errno ? errno : EIO;
    emit(summary.data);
    text_free(&summary);
    if (wav.error) return fail(1, "writing %s failed: %s (the file holds what was written until then)", path, strerror(wav.error));
    if (problem) return fail(1, "%s (the file holds what was heard until then)", problem);
    if (wav.frames == 0) return fail(1, "no sound was heard: the microphone sent nothing");
    return 0;
}
