/* FFmpeg's libavformat/libavcodec for movie files; the error macros Swift cannot import as functions. */
#include <errno.h>
#include <libavcodec/avcodec.h>
#include <libavcodec/bsf.h>
#include <libavformat/avformat.h>
#include <libavutil/channel_layout.h>
#include <libavutil/display.h>
#include <libavutil/opt.h>

static inline int ocav_error_again(void) { return AVERROR(EAGAIN); }
static inline int ocav_error_eof(void) { return AVERROR_EOF; }
static inline int64_t ocav_no_pts(void) { return AV_NOPTS_VALUE; }
