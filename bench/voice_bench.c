/* voice_bench: instructions per second of microphone sound delivered through a capture session
 * (callgrind), in a microphone mode, on the test bed's daemon:
 *   voice_bench UNIQUE_ID standard|voice_isolation SECONDS
 * A microphone alone in the session; the window opens after half a second of warm-up and
 * closes after SECONDS more of delivered sound, so it counts every thread of the process:
 * PipeWire's, the session's and, for voice isolation, its worker and RNNoise. Prints the
 * frames delivered and dropped in the window. Under callgrind (--instr-atstart=no) only the
 * window is counted. */
#include <ocellus.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <valgrind/callgrind.h>

static atomic_uint_fast64_t delivered;

static void on_samples(oc_audio_data_output *output, const float *samples, size_t frames, uint32_t channels,
                       uint32_t rate, uint64_t timestamp_ns, void *user_data)
{
    (void)output, (void)samples, (void)channels, (void)rate, (void)timestamp_ns, (void)user_data;
    atomic_fetch_add(&delivered, frames);
}

static void wait_for(uint64_t frames)
{
    struct timespec pause = { 0, 2000000 };
    while (atomic_load(&delivered) < frames) nanosleep(&pause, NULL);
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: see the top of voice_bench.c\n");
        return 2;
    }
    oc_microphone_mode mode = !strcmp(argv[2], "voice_isolation") ? OC_MICROPHONE_MODE_VOICE_ISOLATION : OC_MICROPHONE_MODE_STANDARD;
    uint64_t window = (uint64_t)(atof(argv[3]) * 48000), warmup = 24000;
    oc_context *ctx = NULL;
    oc_device *microphone = NULL;
    oc_capture_session *session = NULL;
    oc_audio_data_output *output = NULL;
    if (oc_context_create("org.ocellus.bench.voice", NULL, &ctx) != OC_OK
        || oc_context_copy_device_by_unique_id(ctx, argv[1], &microphone) != OC_OK || !microphone
        || oc_capture_session_create(ctx, &session) != OC_OK || oc_audio_data_output_create(&output) != OC_OK
        || oc_audio_data_output_set_callback(output, on_samples, NULL) != OC_OK
        || oc_capture_session_set_audio_input(session, microphone) != OC_OK
        || oc_capture_session_add_audio_output(session, output) != OC_OK
        || oc_capture_session_set_preferred_microphone_mode(session, mode) != OC_OK) {
        fprintf(stderr, "voice_bench: %s\n", oc_last_error_message());
        return 1;
    }
    oc_microphone_mode active = OC_MICROPHONE_MODE_STANDARD;
    oc_capture_session_get_microphone_mode(session, NULL, &active, NULL, 0, NULL, 0);
    if (active != mode) {
        fprintf(stderr, "voice_bench: %s is not available\n", argv[2]);
        return 1;
    }
    if (oc_capture_session_start_running(session) != OC_OK) {
        fprintf(stderr, "voice_bench: %s\n", oc_last_error_message());
        return 1;
    }
    wait_for(warmup);
    uint64_t dropped_before = oc_audio_data_output_dropped_frames(output), start = atomic_load(&delivered);
    CALLGRIND_ZERO_STATS;
    CALLGRIND_START_INSTRUMENTATION;
    wait_for(start + window);
    CALLGRIND_STOP_INSTRUMENTATION;
    CALLGRIND_DUMP_STATS_AT("window");
    uint64_t counted = atomic_load(&delivered) - start, dropped = oc_audio_data_output_dropped_frames(output) - dropped_before;
    oc_capture_session_stop_running(session);
    printf("frames %llu\ndropped %llu\n", (unsigned long long)counted, (unsigned long long)dropped);
    oc_audio_data_output_destroy(output);
    oc_capture_session_destroy(session);
    oc_device_release(microphone);
    oc_context_destroy(ctx);
    return 0;
}
