/* FFmpeg entry points, resolved with dlopen/dlsym on first use. Each function Ocellus calls
 * is defined here with FFmpeg's own prototype (the compiler checks it against the header)
 * and forwards through one table, so the Swift code calls FFmpeg as if linked. */
#include "CLibAV.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define OCAV_STRING(x) #x
#define OCAV_SONAME(name, major) "lib" name ".so." OCAV_STRING(major)

/* A stream's side data (the display matrix): FFmpeg 6.1 moved it into the codec parameters
 * (av_packet_side_data_new); av_stream_new_side_data, deprecated since, is gone in FFmpeg 8. */
#define OCAV_CODECPAR_SIDE_DATA (LIBAVCODEC_VERSION_INT >= AV_VERSION_INT(60, 31, 102))
#if OCAV_CODECPAR_SIDE_DATA
#define OCAV_STREAM_SIDE_DATA(X) \
    X(VALUE, codec, AVPacketSideData *, av_packet_side_data_new, \
      (AVPacketSideData **sides, int *count, enum AVPacketSideDataType type, size_t size, int flags), \
      (sides, count, type, size, flags))
#else
#define OCAV_STREAM_SIDE_DATA(X) \
    X(VALUE, format, uint8_t *, av_stream_new_side_data, (AVStream *stream, enum AVPacketSideDataType type, size_t size), \
      (stream, type, size))
#endif

/* VALUE or VOID, library, return type, name, parameters, arguments */
#define OCAV_FUNCTIONS(X) \
    X(VALUE, codec, AVPacket *, av_packet_alloc, (void), ()) \
    X(VOID, codec, void, av_packet_free, (AVPacket **pkt), (pkt)) \
    X(VOID, codec, void, av_packet_unref, (AVPacket *pkt), (pkt)) \
    X(VALUE, codec, int, av_new_packet, (AVPacket *pkt, int size), (pkt, size)) \
    X(VOID, codec, void, av_packet_rescale_ts, (AVPacket *pkt, AVRational src, AVRational dst), (pkt, src, dst)) \
    X(VALUE, codec, int, avcodec_send_frame, (AVCodecContext *c, const AVFrame *frame), (c, frame)) \
    X(VALUE, codec, int, avcodec_receive_packet, (AVCodecContext *c, AVPacket *pkt), (c, pkt)) \
    X(VALUE, codec, int, avcodec_send_packet, (AVCodecContext *c, const AVPacket *pkt), (c, pkt)) \
    X(VALUE, codec, int, avcodec_receive_frame, (AVCodecContext *c, AVFrame *frame), (c, frame)) \
    X(VALUE, codec, int, avcodec_open2, (AVCodecContext *c, const AVCodec *codec, AVDictionary **options), (c, codec, options)) \
    X(VOID, codec, void, avcodec_free_context, (AVCodecContext **c), (c)) \
    X(VALUE, codec, AVCodecContext *, avcodec_alloc_context3, (const AVCodec *codec), (codec)) \
    X(VALUE, codec, int, avcodec_parameters_from_context, (AVCodecParameters *par, const AVCodecContext *c), (par, c)) \
    X(VALUE, codec, const AVCodec *, avcodec_find_encoder, (enum AVCodecID id), (id)) \
    X(VALUE, codec, const AVCodec *, avcodec_find_encoder_by_name, (const char *name), (name)) \
    X(VALUE, codec, const AVCodec *, avcodec_find_decoder, (enum AVCodecID id), (id)) \
    X(VALUE, codec, int, av_bsf_send_packet, (AVBSFContext *c, AVPacket *pkt), (c, pkt)) \
    X(VALUE, codec, int, av_bsf_receive_packet, (AVBSFContext *c, AVPacket *pkt), (c, pkt)) \
    X(VALUE, codec, int, av_bsf_init, (AVBSFContext *c), (c)) \
    X(VALUE, codec, const AVBitStreamFilter *, av_bsf_get_by_name, (const char *name), (name)) \
    X(VOID, codec, void, av_bsf_free, (AVBSFContext **c), (c)) \
    X(VALUE, codec, int, av_bsf_alloc, (const AVBitStreamFilter *filter, AVBSFContext **c), (filter, c)) \
    X(VALUE, format, AVStream *, avformat_new_stream, (AVFormatContext *s, const AVCodec *c), (s, c)) \
    X(VALUE, format, int, avformat_write_header, (AVFormatContext *s, AVDictionary **options), (s, options)) \
    X(VOID, format, void, avformat_free_context, (AVFormatContext *s), (s)) \
    X(VALUE, format, int, avformat_alloc_output_context2, \
      (AVFormatContext **c, const AVOutputFormat *format, const char *format_name, const char *filename), \
      (c, format, format_name, filename)) \
    X(VALUE, format, int, av_write_trailer, (AVFormatContext *s), (s)) \
    X(VALUE, format, int, av_interleaved_write_frame, (AVFormatContext *s, AVPacket *pkt), (s, pkt)) \
    X(VALUE, format, int, av_write_frame, (AVFormatContext *s, AVPacket *pkt), (s, pkt)) \
    OCAV_STREAM_SIDE_DATA(X) \
    X(VOID, format, void, avio_flush, (AVIOContext *s), (s)) \
    X(VALUE, format, int, avio_open, (AVIOContext **s, const char *url, int flags), (s, url, flags)) \
    X(VALUE, format, int, avio_closep, (AVIOContext **s), (s)) \
    X(VALUE, util, int, av_dict_set, (AVDictionary **m, const char *key, const char *value, int flags), (m, key, value, flags)) \
    X(VOID, util, void, av_dict_free, (AVDictionary **m), (m)) \
    X(VOID, util, void, av_frame_free, (AVFrame **frame), (frame)) \
    X(VALUE, util, AVFrame *, av_frame_alloc, (void), ()) \
    X(VALUE, util, int, av_frame_make_writable, (AVFrame *frame), (frame)) \
    X(VALUE, util, int, av_frame_get_buffer, (AVFrame *frame, int align), (frame, align)) \
    X(VALUE, util, int, av_strerror, (int error, char *buffer, size_t size), (error, buffer, size)) \
    X(VALUE, util, void *, av_mallocz, (size_t size), (size)) \
    X(VOID, util, void, av_log_set_level, (int level), (level)) \
    X(VALUE, util, int, av_log_get_level, (void), ()) \
    X(VOID, util, void, av_display_rotation_set, (int32_t matrix[9], double angle), (matrix, angle)) \
    X(VOID, util, void, av_channel_layout_default, (AVChannelLayout *layout, int channels), (layout, channels)) \
    X(VALUE, util, int, av_channel_layout_copy, (AVChannelLayout *dst, const AVChannelLayout *src), (dst, src)) \
    X(VALUE, util, int, av_opt_set, (void *object, const char *name, const char *value, int flags), (object, name, value, flags))

static struct {
#define OCAV_POINTER(kind, library, returns, name, parameters, arguments) returns (*name) parameters;
    OCAV_FUNCTIONS(OCAV_POINTER)
} table;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char problem[1024];

/* FFmpeg's release of a libavcodec major (58: 4.x, 59: 5.x, 60: 6.x, 61: 7.x, 62: 8.x). */
static int ffmpeg_release(int avcodec_major)
{
    return avcodec_major - 54;
}

/* A libavcodec of another major on this system, or 0: what an install of another FFmpeg left. */
static int other_avcodec_major(void)
{
    for (int major = LIBAVCODEC_VERSION_MAJOR + 4; major >= LIBAVCODEC_VERSION_MAJOR - 4; major--) {
        char soname[32];
        snprintf(soname, sizeof soname, "libavcodec.so.%d", major);
        void *handle = major == LIBAVCODEC_VERSION_MAJOR ? NULL : dlopen(soname, RTLD_LAZY | RTLD_LOCAL);
        if (handle) {
            dlclose(handle);
            return major;
        }
    }
    return 0;
}

/* Says what is missing: the libraries of the FFmpeg this build was made for (their Debian
 * packages named from the headers' majors), and another FFmpeg when the system has one. */
static void say_missing(const char *soname, const char *why)
{
    int other = other_avcodec_major();
    char found[160] = "";
    if (other) {
        snprintf(found, sizeof found, "; this system has FFmpeg %d (libavcodec.so.%d), and Ocellus must be built for it to use it",
                 ffmpeg_release(other), other);
    }
    snprintf(problem, sizeof problem, "FFmpeg's %s could not be loaded (%s): this build of Ocellus uses FFmpeg %d "
             "(Debian: libavcodec%d, libavformat%d, libavutil%d) for recording, H.264 cameras and photos from cameras "
             "that leave out JPEG tables%s", soname, why, ffmpeg_release(LIBAVCODEC_VERSION_MAJOR), LIBAVCODEC_VERSION_MAJOR,
             LIBAVFORMAT_VERSION_MAJOR, LIBAVUTIL_VERSION_MAJOR, found);
}

static void *open_library(const char *soname)
{
    void *handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!handle && !problem[0]) {
        char why[256];   /* copied: looking for another FFmpeg reuses dlerror()'s buffer */
        snprintf(why, sizeof why, "%s", dlerror());
        say_missing(soname, why);
    }
    return handle;
}

static void load(void)
{
    void *codec = open_library(OCAV_SONAME("avcodec", LIBAVCODEC_VERSION_MAJOR));
    void *format = open_library(OCAV_SONAME("avformat", LIBAVFORMAT_VERSION_MAJOR));
    void *util = open_library(OCAV_SONAME("avutil", LIBAVUTIL_VERSION_MAJOR));
    if (problem[0]) return;
#define OCAV_RESOLVE(kind, library, returns, name, parameters, arguments) \
    *(void **)&table.name = dlsym(library, #name); \
    if (!table.name && !problem[0]) snprintf(problem, sizeof problem, "FFmpeg's lib" #library " lacks " #name);
    OCAV_FUNCTIONS(OCAV_RESOLVE)
}

const char *ocav_load(void)
{
    pthread_once(&once, load);
    return problem[0] ? problem : NULL;
}

/* Reached only after ocav_load() succeeded (every caller checks it first). */
#define OCAV_CALL_VALUE(call) return call;
#define OCAV_CALL_VOID(call) call;
#define OCAV_FORWARD(kind, library, returns, name, parameters, arguments) \
    returns name parameters { OCAV_CALL_##kind(table.name arguments) }
OCAV_FUNCTIONS(OCAV_FORWARD)

uint8_t *ocav_stream_add_side_data(AVStream *stream, enum AVPacketSideDataType type, size_t size)
{
#if OCAV_CODECPAR_SIDE_DATA
    AVPacketSideData *side = av_packet_side_data_new(&stream->codecpar->coded_side_data, &stream->codecpar->nb_coded_side_data,
                                                     type, size, 0);
    return side ? side->data : NULL;
#else
    return av_stream_new_side_data(stream, type, size);
#endif
}
