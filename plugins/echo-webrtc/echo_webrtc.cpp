// Echo cancellation by webrtc-audio-processing 0.3 (Debian's libwebrtc-audio-processing1, the
// engine of PipeWire's module-echo-cancel), behind the C interface of ocellus_echo.h.
//
// The full AEC (not the mobile one) with the extended filter and delay-agnostic mode: the
// reference is the default output's monitor, whose echo reaches the microphone after a delay
// nobody reports (speaker and microphone buffers, the room), so the canceller estimates it.
// High-pass filtering goes with it; noise suppression is left to voice isolation's engine.
#include "ocellus_echo.h"

#include <new>
#include <webrtc/modules/audio_processing/include/audio_processing.h>

struct ocellus_echo {
    webrtc::AudioProcessing *processing;
    webrtc::StreamConfig stream{48000, 1};
};

extern "C" int ocellus_echo_interface_version(void) { return OCELLUS_ECHO_INTERFACE_VERSION; }

// Measured (an impulse through a canceller that hears nothing played): at 48 kHz the audio is
// split into three bands and joined again, which delays it by 382 samples (8 ms).
extern "C" int ocellus_echo_latency(void) { return 382; }

extern "C" ocellus_echo *ocellus_echo_new(void) {
    webrtc::Config config;
    config.Set<webrtc::ExtendedFilter>(new webrtc::ExtendedFilter(true));
    config.Set<webrtc::DelayAgnostic>(new webrtc::DelayAgnostic(true));
    webrtc::AudioProcessing *processing = webrtc::AudioProcessing::Create(config);
    if (!processing) return nullptr;
    webrtc::ProcessingConfig layout = {{
        webrtc::StreamConfig(48000, 1), webrtc::StreamConfig(48000, 1),
        webrtc::StreamConfig(48000, 1), webrtc::StreamConfig(48000, 1),
    }};
    if (processing->Initialize(layout) != webrtc::AudioProcessing::kNoError
        || processing->high_pass_filter()->Enable(true) != webrtc::AudioProcessing::kNoError
        || processing->echo_cancellation()->enable_drift_compensation(false) != webrtc::AudioProcessing::kNoError
        || processing->echo_cancellation()->set_suppression_level(webrtc::EchoCancellation::kHighSuppression)
               != webrtc::AudioProcessing::kNoError
        || processing->echo_cancellation()->Enable(true) != webrtc::AudioProcessing::kNoError) {
        delete processing;
        return nullptr;
    }
    ocellus_echo *echo = new (std::nothrow) ocellus_echo;
    if (!echo) {
        delete processing;
        return nullptr;
    }
    echo->processing = processing;
    return echo;
}

extern "C" void ocellus_echo_free(ocellus_echo *echo) {
    if (!echo) return;
    delete echo->processing;
    delete echo;
}

extern "C" void ocellus_echo_play(ocellus_echo *echo, const float *frame) {
    const float *source[1] = {frame};
    float played[480];
    float *destination[1] = {played};
    echo->processing->ProcessReverseStream(source, echo->stream, echo->stream, destination);
}

extern "C" void ocellus_echo_capture(ocellus_echo *echo, const float *input, float *output) {
    const float *source[1] = {input};
    float *destination[1] = {output};
    // Delay-agnostic: the canceller finds the delay; it still wants one set for every frame.
    echo->processing->set_stream_delay_ms(0);
    echo->processing->ProcessStream(source, echo->stream, echo->stream, destination);
}
