/* FFmpeg's libavformat/libavcodec/libavutil for movie files, H.264 decoding and the JPEG
 * Huffman fix, loaded on first use (loader.c): linking them would load the whole codec
 * tree into every program that links Ocellus. Also the error macros Swift cannot import. */
#include <errno.h>
#include <libavcodec/avcodec.h>
#include <libavcodec/bsf.h>
#include <libavformat/avformat.h>
#include <libavutil/channel_layout.h>
#include <libavutil/display.h>
#include <libavutil/opt.h>

/* Loads the three libraries by SONAME (once; thread-safe). Returns NULL when they are
 * there, else why not ("libavcodec.so.59: cannot open shared object file…"); call it
 * before any av* function. */
const char *ocav_load(void);
/* New side data of `size` bytes on a stream, through the call this FFmpeg has for it; NULL on failure. */
uint8_t *ocav_stream_add_side_data(AVStream *stream, enum AVPacketSideDataType type, size_t size);

static inline int ocav_error_again(void) { return AVERROR(EAGAIN); }
static inline int ocav_error_eof(void) { return AVERROR_EOF; }
static inline int64_t ocav_no_pts(void) { return AV_NOPTS_VALUE; }
