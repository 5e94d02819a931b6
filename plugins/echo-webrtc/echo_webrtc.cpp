// Echo cancellation by webrtc-audio-processing (the engine of PipeWire's module-echo-cancel),
// behind the C interface of ocellus_echo.h. Either major Debian ships is built against (the
// Makefile finds which, OCELLUS_WEBRTC_APM_MAJOR): 0.3 (Debian 12's libwebrtc-audio-processing1)
// and 1.x (Debian 13's libwebrtc-audio-processing-1-3).
//
// 0.3: the full AEC (not the mobile one) with the extended filter and delay-agnostic mode: the
// reference is the default output's monitor, whose echo reaches the microphone after a delay
// nobody reports (speaker and microphone buffers, the room), so the canceller estimates it.
// 1.x: AEC3, which always estimates the delay. High-pass filtering goes with both; noise
// suppression is left to voice isolation's engine.
#include "ocellus_echo.h"

#include <new>
#if OCELLUS_WEBRTC_APM_MAJOR >= 1
#include <modules/audio_processing/include/audio_processing.h>
#else
#include <webrtc/modules/audio_processing/include/audio_processing.h>
#endif

struct ocellus_echo {
    webrtc::AudioProcessing *processing;
    webrtc::StreamConfig stream{48000, 1};
};

extern "C" int ocellus_echo_interface_version(void) { return OCELLUS_ECHO_INTERFACE_VERSION; }

// Measured (an impulse through a canceller that hears nothing played): at 48 kHz the audio is
// split into three bands and joined again, which delays it by 382 samples (8 ms) in 0.3 and by
// 430 (9 ms) in 1.3, wherever in a frame the impulse falls.
extern "C" int ocellus_echo_latency(void) { return OCELLUS_WEBRTC_APM_MAJOR >= 1 ? 430 : 382; }

#if OCELLUS_WEBRTC_APM_MAJOR >= 1
// 1.x's processor is reference counted: the canceller holds one reference.
static webrtc::AudioProcessing *create_processing() {
    webrtc::AudioProcessing *processing = webrtc::AudioProcessingBuilder().Create();
    if (!processing) return nullptr;
    processing->AddRef();
    webrtc::AudioProcessing::Config config;
    config.echo_canceller.enabled = true;
    config.echo_canceller.mobile_mode = false;
    config.high_pass_filter.enabled = true;
    processing->ApplyConfig(config);
    return processing;
}

static bool configure(webrtc::AudioProcessing *) { return true; }

static void release_processing(webrtc::AudioProcessing *processing) { processing->Release(); }
#else
static webrtc::AudioProcessing *create_processing() {
    webrtc::Config config;
    config.Set<webrtc::ExtendedFilter>(new webrtc::ExtendedFilter(true));
    config.Set<webrtc::DelayAgnostic>(new webrtc::DelayAgnostic(true));
    return webrtc::AudioProcessing::Create(config);
}

// 0.3's components are set up after Initialize.
static bool configure(webrtc::AudioProcessing *processing) {
    return processing->high_pass_filter()->Enable(true) == webrtc::AudioProcessing::kNoError
        && processing->echo_cancellation()->enable_drift_compensation(false) == webrtc::AudioProcessing::kNoError
        && processing->echo_cancellation()->set_suppression_level(webrtc::EchoCancellation::kHighSuppression)
               == webrtc::AudioProcessing::kNoError
        && processing->echo_cancellation()->Enable(true) == webrtc::AudioProcessing::kNoError;
}

static void release_processing(webrtc::AudioProcessing *processing) { delete processing; }
#endif

extern "C" ocellus_echo *ocellus_echo_new(void) {
    webrtc::AudioProcessing *processing = create_processing();
    if (!processing) return nullptr;
    webrtc::ProcessingConfig layout = {{
        webrtc::StreamConfig(48000, 1), webrtc::StreamConfig(48000, 1),
        webrtc::StreamConfig(48000, 1), webrtc::StreamConfig(48000, 1),
    }};
    ocellus_echo *echo = nullptr;
    if (processing->Initialize(layout) != webrtc::AudioProcessing::kNoError || !configure(processing)
        || !(echo = new (std::nothrow) ocellus_echo)) {
        release_processing(processing);
        return nullptr;
    }
    echo->processing = processing;
    return echo;
}

extern "C" void ocellus_echo_free(ocellus_echo *echo) {
    if (!echo) return;
    release_processing(echo->processing);
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
