/*
 * uvc-gadget: the userspace half of one configfs UVC function (f_uvc), so the
 * guest's own uvcvideo drives it as it would a physical webcam.
 *
 *   uvc-gadget FUNCTION_DIR GADGET_NODE [-P | -c] [-n | -m] [-l CONTROL_LOG] [-s SCENE]
 *
 * FUNCTION_DIR is the function in configfs (…/usb_gadget/NAME/functions/uvc.N),
 * read after the gadget is bound: the formats, frame sizes and intervals the
 * host was told about, the interface numbers and the payload size all come from
 * there, so any shape a test declares is served without a second table.
 * GADGET_NODE is the function's V4L2 output node. Opening it and subscribing to
 * UVC_EVENT_SETUP connects the device; exiting (or the gadget being unbound)
 * disconnects it.
 *
 * Pictures are deterministic so tests can check pixels after any conversion:
 * eight vertical bars (BAR_YUV below) and, in the top 8 rows, the frame number as
 * 16 bits of 8x8 blocks (MSB first; Y 235 = 1, Y 16 = 0). Depth formats (Z16)
 * carry a ramp in millimetres, depth(x, y) = 500 + 4 * x + y, with the same
 * stamp (4000 = 1, 0 = 0). Frames are paced to the committed interval (-P: as
 * fast as the bus takes them). With -c the functions of one device share a clock,
 * as a depth camera's sensors do: frames fall due on whole multiples of the
 * interval of CLOCK_MONOTONIC and are stamped with that instant in milliseconds
 * (modulo 65536), so frames of two functions captured together carry one stamp. Control requests
 * are answered for what the test bed's usb_f_uvc declares (scripts/build-test-modules.sh): PU
 * brightness and gain, CT auto-exposure mode, exposure time (absolute), focus (absolute) and
 * focus auto; each SET_CUR is logged to CONTROL_LOG as "NAME VALUE".
 *
 * With -s the picture is a scene instead (scene.h: a photograph lit as the test chose), grey, its
 * brightness following exposure time × gain and its sharpness the focus, re-rendered when they
 * change. In the automatic exposure mode the camera meters the whole picture itself (a backlit
 * face stays dark); with focus auto on it focuses on the background. The scene file is read
 * again when it changes (replace it whole, by a rename), so a test moves what the camera films.
 *
 * The probe answer's dwMaxPayloadTransferSize, from which uvcvideo picks the streaming setting, is
 * the largest setting's payload whatever the format (what many webcams ask), or with -n what the
 * format needs at the committed rate (needed_payload), so that a function with a second, smaller
 * setting (configfs streaming_small_maxpacket) streams small formats on it; with -m only MJPEG
 * asks what it needs (cameras over-ask for uncompressed formats: uvcvideo's FIX_BANDWIDTH quirk).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <linux/usb/ch9.h>
#include <linux/usb/g_uvc.h>
#include <linux/usb/video.h>
#include <linux/videodev2.h>
#include <turbojpeg.h>

#include "scene.h"

#define MAX_FORMATS 8
#define MAX_FRAMES 8
#define MAX_INTERVALS 8
#define BUFFERS 4
#define JPEG_VARIANTS 8 /* distinct stamps pre-encoded per stream */
#define STAMP_BITS 16

/* Bars in Y, U, V (white, yellow, cyan, green, magenta, red, blue, black; BT.601 limited). */
static const uint8_t BAR_YUV[8][3] = {
	{235, 128, 128}, {210, 16, 146}, {170, 166, 16}, {145, 54, 34},
	{106, 202, 222}, {81, 90, 240}, {41, 240, 110}, {16, 128, 128},
};

struct frame_desc {
	int index, width, height;
	uint32_t intervals[MAX_INTERVALS];
	int interval_count;
	uint32_t default_interval;
};

struct format_desc {
	int index;
	uint32_t fourcc; /* V4L2 pixel format */
	struct frame_desc frames[MAX_FRAMES];
	int frame_count;
};

static struct format_desc formats[MAX_FORMATS];
static int format_count;
static int control_interface, streaming_interface;
static uint32_t max_payload;
static int pacing = 1;
static int shared_clock; /* -c */
static int asks_needed;  /* -n: every format; -m: compressed formats only */
static FILE *control_log;
static int node = -1;
static volatile sig_atomic_t quit;

static struct uvc_streaming_control probe, commit;
static int pending_interface = -1, pending_entity, pending_selector;
static uint8_t request_error;
static int16_t brightness;
static uint8_t exposure_mode = 2; /* auto */
/* The camera terminal's and processing unit's other controls: cur, min, max, res, def. */
static int exposure_time[5] = {156, 3, 2000, 1, 156}; /* 100 µs units */
static int focus_absolute[5] = {120, 0, 250, 1, 120};
static int focus_auto[5] = {1, 0, 1, 1, 1};
static int gain[5] = {0, 0, 100, 1, 0};
static struct scene *scene;
static uint8_t *scene_luma;  /* the rendered picture at the committed size */
static int scene_stale = 1;  /* a control changed since the last render */
static const char *scene_path;
static struct stat scene_file; /* what was read: its modification time and size */

static struct { void *memory; size_t length; } buffers[BUFFERS];
static int buffer_count, streaming;
static long frames_queued;
static double next_frame_due;
static int idle[BUFFERS], idle_count;
static unsigned char *jpegs[JPEG_VARIANTS];
static unsigned long jpeg_sizes[JPEG_VARIANTS];

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void say(const char *format, ...)
{
	va_list args;
	va_start(args, format);
	fprintf(stderr, "uvc-gadget: ");
	vfprintf(stderr, format, args);
	fputc('\n', stderr);
	va_end(args);
}

/* ---- the function's descriptors, from configfs --------------------------- */

#define PATH_SIZE 1024

/* dir/name into path; configfs paths are short, so a truncated one is a caller bug. */
static char *join(char path[PATH_SIZE], const char *dir, const char *name)
{
	if (snprintf(path, PATH_SIZE, "%s/%s", dir, name) >= PATH_SIZE)
		abort();
	return path;
}

static long read_number(const char *dir, const char *name)
{
	char path[PATH_SIZE], text[64] = "";
	FILE *file = fopen(join(path, dir, name), "r");
	if (!file)
		return -1;
	if (!fgets(text, sizeof text, file))
		text[0] = 0;
	fclose(file);
	return strtol(text, NULL, 0);
}

static uint32_t fourcc_of_guid(const char *format_dir)
{
	char path[PATH_SIZE];
	unsigned char guid[16] = {0};
	FILE *file = fopen(join(path, format_dir, "guidFormat"), "rb");
	if (!file)
		return V4L2_PIX_FMT_MJPEG; /* mjpeg formats have no GUID */
	size_t got = fread(guid, 1, sizeof guid, file);
	fclose(file);
	if (got < 4)
		return 0;
	uint32_t fourcc = v4l2_fourcc(guid[0], guid[1], guid[2], guid[3]);
	/* UVC names a few formats differently from V4L2. */
	if (fourcc == v4l2_fourcc('Y', 'U', 'Y', '2'))
		return V4L2_PIX_FMT_YUYV;
	if (fourcc == v4l2_fourcc('Y', '8', '0', '0'))
		return V4L2_PIX_FMT_GREY;
	return fourcc;
}

static void read_frames(struct format_desc *format, const char *format_dir)
{
	DIR *dir = opendir(format_dir);
	struct dirent *entry;
	while (dir && (entry = readdir(dir)) && format->frame_count < MAX_FRAMES) {
		char frame_dir[PATH_SIZE];
		join(frame_dir, format_dir, entry->d_name);
		if (entry->d_name[0] == '.' || read_number(frame_dir, "wWidth") <= 0)
			continue;
		struct frame_desc *frame = &format->frames[format->frame_count++];
		frame->index = (int)read_number(frame_dir, "bFrameIndex");
		frame->width = (int)read_number(frame_dir, "wWidth");
		frame->height = (int)read_number(frame_dir, "wHeight");
		frame->default_interval = (uint32_t)read_number(frame_dir, "dwDefaultFrameInterval");
		char path[PATH_SIZE], line[32];
		FILE *file = fopen(join(path, frame_dir, "dwFrameInterval"), "r");
		while (file && frame->interval_count < MAX_INTERVALS && fgets(line, sizeof line, file))
			frame->intervals[frame->interval_count++] = (uint32_t)strtoul(line, NULL, 10);
		if (file)
			fclose(file);
	}
	if (dir)
		closedir(dir);
}

static int read_function(const char *function_dir)
{
	static const char *const kinds[] = {"uncompressed", "mjpeg"};
	char path[PATH_SIZE];
	control_interface = (int)read_number(join(path, function_dir, "control"), "bInterfaceNumber");
	streaming_interface = (int)read_number(join(path, function_dir, "streaming"), "bInterfaceNumber");
	long payload = read_number(function_dir, "streaming_maxpacket");
	max_payload = payload > 0 ? (uint32_t)payload : 1024;
	for (size_t kind = 0; kind < 2; kind++) {
		char kind_dir[PATH_SIZE];
		join(kind_dir, join(path, function_dir, "streaming"), kinds[kind]);
		DIR *dir = opendir(kind_dir);
		struct dirent *entry;
		while (dir && (entry = readdir(dir)) && format_count < MAX_FORMATS) {
			char format_dir[PATH_SIZE];
			join(format_dir, kind_dir, entry->d_name);
			long index = entry->d_name[0] == '.' ? -1 : read_number(format_dir, "bFormatIndex");
			if (index <= 0)
				continue; /* not linked into the streaming header */
			struct format_desc *format = &formats[format_count++];
			format->index = (int)index;
			format->fourcc = fourcc_of_guid(format_dir);
			read_frames(format, format_dir);
		}
		if (dir)
			closedir(dir);
	}
	return format_count > 0 && control_interface >= 0 && streaming_interface >= 0 ? 0 : -1;
}

static const struct format_desc *find_format(int index)
{
	for (int i = 0; i < format_count; i++)
		if (formats[i].index == index)
			return &formats[i];
	return NULL;
}

static const struct frame_desc *find_frame(const struct format_desc *format, int index)
{
	for (int i = 0; format && i < format->frame_count; i++)
		if (format->frames[i].index == index)
			return &format->frames[i];
	return NULL;
}

static uint32_t frame_bytes(uint32_t fourcc, int width, int height)
{
	switch (fourcc) {
	case V4L2_PIX_FMT_NV12: return (uint32_t)(width * height * 3 / 2);
	case V4L2_PIX_FMT_GREY: return (uint32_t)(width * height);
	default: return (uint32_t)(width * height * 2); /* YUYV, Z16; an upper bound for MJPEG */
	}
}

/* ---- pictures ------------------------------------------------------------- */

static int stamp_bit(int x, int y, long number)
{
	int bit = x / 8;
	return y < 8 && bit < STAMP_BITS && ((number >> (STAMP_BITS - 1 - bit)) & 1);
}

static int in_stamp(int x, int y) { return y < 8 && x / 8 < STAMP_BITS; }

static const uint8_t *bar_at(int x, int width) { return BAR_YUV[x * 8 / width]; }

static uint8_t luma_at(int x, int y, int width, long number)
{
	if (in_stamp(x, y))
		return stamp_bit(x, y, number) ? 235 : 16;
	return bar_at(x, width)[0];
}

/* Chroma is taken from the bars even inside the stamp: the stamp is luma only. */
static void fill_picture(uint8_t *out, uint32_t fourcc, int width, int height, long number)
{
	if (fourcc == V4L2_PIX_FMT_YUYV) {
		for (int y = 0; y < height; y++)
			for (int x = 0; x < width; x += 2, out += 4) {
				out[0] = luma_at(x, y, width, number);
				out[1] = bar_at(x, width)[1];
				out[2] = luma_at(x + 1, y, width, number);
				out[3] = bar_at(x, width)[2];
			}
	} else if (fourcc == V4L2_PIX_FMT_NV12 || fourcc == V4L2_PIX_FMT_GREY) {
		for (int y = 0; y < height; y++)
			for (int x = 0; x < width; x++)
				*out++ = luma_at(x, y, width, number);
		for (int y = 0; fourcc == V4L2_PIX_FMT_NV12 && y < height / 2; y++)
			for (int x = 0; x < width; x += 2, out += 2) {
				out[0] = bar_at(x, width)[1];
				out[1] = bar_at(x, width)[2];
			}
	} else if (fourcc == v4l2_fourcc('Z', '1', '6', ' ')) {
		uint16_t *depth = (uint16_t *)(void *)out;
		for (int y = 0; y < height; y++)
			for (int x = 0; x < width; x++)
				*depth++ = in_stamp(x, y) ? (stamp_bit(x, y, number) ? 4000 : 0)
							  : (uint16_t)(500 + 4 * x + y);
	} else {
		memset(out, 0, frame_bytes(fourcc, width, height));
	}
}

/* A video-range sample (luma 16-235, chroma 16-240) stretched to full range, rounded. */
static uint8_t full_range(uint8_t sample, int chroma)
{
	int value = chroma ? 128 + ((sample - 128) * 255 + (sample >= 128 ? 112 : -112)) / 224
			   : ((sample - 16) * 255 + 109) / 219;
	return (uint8_t)(value < 0 ? 0 : value > 255 ? 255 : value);
}

static int encode_jpegs(int width, int height)
{
	tjhandle encoder = tjInitCompress();
	size_t planar_size = (size_t)width * height * 2;
	uint8_t *yuyv = malloc(planar_size), *planar = malloc(planar_size);
	int status = encoder && yuyv && planar ? 0 : -1;
	for (int variant = 0; status == 0 && variant < JPEG_VARIANTS; variant++) {
		/* YUYV to 4:2:2 planes in full range, as webcams' JFIF carries them: the same picture
		 * as the YUYV frames once decoded. */
		fill_picture(yuyv, V4L2_PIX_FMT_YUYV, width, height, variant);
		uint8_t *luma = planar, *cb = planar + width * height, *cr = cb + width * height / 2;
		for (int i = 0; i < width * height / 2; i++) {
			luma[2 * i] = full_range(yuyv[4 * i], 0);
			cb[i] = full_range(yuyv[4 * i + 1], 1);
			luma[2 * i + 1] = full_range(yuyv[4 * i + 2], 0);
			cr[i] = full_range(yuyv[4 * i + 3], 1);
		}
		tjFree(jpegs[variant]);
		jpegs[variant] = NULL;
		if (tjCompressFromYUV(encoder, planar, width, 1, height, TJSAMP_422, &jpegs[variant],
				      &jpeg_sizes[variant], 90, 0) != 0) {
			say("JPEG encoding failed: %s", tjGetErrorStr2(encoder));
			status = -1;
		}
	}
	free(yuyv);
	free(planar);
	if (encoder)
		tjDestroy(encoder);
	return status;
}

/* ---- streaming ------------------------------------------------------------ */

/* The stamp of the frame falling due now: its number, or with -c its instant in milliseconds. */
static long frame_stamp(void)
{
	return shared_clock ? (long)llround(next_frame_due * 1000) & 0xffff : frames_queued;
}

/* The camera's own automatic loops, then the picture for what the host set. */
static void render_scene(const struct format_desc *format, const struct frame_desc *frame)
{
	if (exposure_mode & 0x0a) /* auto or aperture priority: the camera picks the exposure time */
		exposure_time[0] = scene_auto_exposure(scene, gain[0], gain[2], exposure_time[1], exposure_time[2]);
	if (focus_auto[0])
		focus_absolute[0] = scene_background_focus(scene);
	struct scene_settings settings = {exposure_time[0], gain[0], gain[2], focus_absolute[0]};
	size_t pixels = (size_t)frame->width * frame->height;
	scene_luma = realloc(scene_luma, pixels);
	scene_render(scene, &settings, frame->width, frame->height, scene_luma);
	say("scene at exposure %d, gain %d, focus %d (frame %ld)", exposure_time[0], gain[0], focus_absolute[0], frames_queued);
	if (format->fourcc == V4L2_PIX_FMT_MJPEG) {
		/* Grey 4:2:2 planes in full range, as webcams' JFIF carries them. */
		uint8_t *planar = malloc(pixels * 2);
		memcpy(planar, scene_luma, pixels);
		memset(planar + pixels, 128, pixels);
		tjhandle encoder = tjInitCompress();
		tjFree(jpegs[0]);
		jpegs[0] = NULL;
		if (tjCompressFromYUV(encoder, planar, frame->width, 1, frame->height, TJSAMP_422, &jpegs[0], &jpeg_sizes[0], 90, 0) != 0)
			say("JPEG encoding failed: %s", tjGetErrorStr2(encoder));
		tjDestroy(encoder);
		free(planar);
	}
	scene_stale = 0;
}

/* The scene's picture in an uncompressed format: video-range luma, neutral chroma. */
static void fill_scene(uint8_t *out, uint32_t fourcc, int width, int height)
{
	size_t pixels = (size_t)width * height;
	for (size_t i = 0; i < pixels; i++) {
		uint8_t y = (uint8_t)(16 + (scene_luma[i] * 219 + 127) / 255);
		if (fourcc == V4L2_PIX_FMT_YUYV)
			out[2 * i] = y, out[2 * i + 1] = 128;
		else
			out[i] = fourcc == V4L2_PIX_FMT_GREY ? scene_luma[i] : y;
	}
	if (fourcc == V4L2_PIX_FMT_NV12)
		memset(out + pixels, 128, pixels / 2);
}

/* Reads the scene again when its file changed (checked every 15 frames: half a second). */
static void follow_scene_file(void)
{
	struct stat now;
	if (frames_queued % 15 || stat(scene_path, &now) != 0)
		return;
	if (now.st_mtim.tv_sec == scene_file.st_mtim.tv_sec && now.st_mtim.tv_nsec == scene_file.st_mtim.tv_nsec
	    && now.st_size == scene_file.st_size && now.st_ino == scene_file.st_ino)
		return;
	struct scene *changed = scene_load(scene_path);
	scene_file = now;
	if (!changed)
		return; /* said why; the old scene stays */
	scene_free(scene);
	scene = changed;
	scene_stale = 1;
	say("scene %s read again (frame %ld)", scene_path, frames_queued);
}

static void queue_frame(int index)
{
	const struct format_desc *format = find_format(commit.bFormatIndex);
	const struct frame_desc *frame = find_frame(format, commit.bFrameIndex);
	struct v4l2_buffer buffer = {.type = V4L2_BUF_TYPE_VIDEO_OUTPUT, .memory = V4L2_MEMORY_MMAP, .index = (uint32_t)index};
	if (scene)
		follow_scene_file();
	if (scene && scene_stale)
		render_scene(format, frame);
	if (scene && format->fourcc != V4L2_PIX_FMT_MJPEG) {
		fill_scene(buffers[index].memory, format->fourcc, frame->width, frame->height);
		buffer.bytesused = frame_bytes(format->fourcc, frame->width, frame->height);
	} else if (scene) {
		size_t size = jpeg_sizes[0] < buffers[index].length ? jpeg_sizes[0] : buffers[index].length;
		memcpy(buffers[index].memory, jpegs[0], size);
		buffer.bytesused = (uint32_t)size;
	} else if (format->fourcc == V4L2_PIX_FMT_MJPEG) {
		int variant = (int)(frame_stamp() % JPEG_VARIANTS);
		size_t size = jpeg_sizes[variant] < buffers[index].length ? jpeg_sizes[variant] : buffers[index].length;
		memcpy(buffers[index].memory, jpegs[variant], size);
		buffer.bytesused = (uint32_t)size;
	} else {
		fill_picture(buffers[index].memory, format->fourcc, frame->width, frame->height, frame_stamp());
		buffer.bytesused = frame_bytes(format->fourcc, frame->width, frame->height);
	}
	if (ioctl(node, VIDIOC_QBUF, &buffer) < 0)
		say("QBUF: %s", strerror(errno));
	else
		frames_queued++;
}

static void stop_streaming(void)
{
	if (!buffer_count)
		return;
	int type = V4L2_BUF_TYPE_VIDEO_OUTPUT;
	ioctl(node, VIDIOC_STREAMOFF, &type);
	for (int i = 0; i < buffer_count; i++)
		munmap(buffers[i].memory, buffers[i].length);
	struct v4l2_requestbuffers request = {.count = 0, .type = V4L2_BUF_TYPE_VIDEO_OUTPUT, .memory = V4L2_MEMORY_MMAP};
	ioctl(node, VIDIOC_REQBUFS, &request);
	buffer_count = streaming = idle_count = 0;
	say("stream off after %ld frames", frames_queued);
}

static void start_streaming(void)
{
	const struct format_desc *format = find_format(commit.bFormatIndex);
	const struct frame_desc *frame = find_frame(format, commit.bFrameIndex);
	if (!frame) {
		say("stream on without a committed format");
		return;
	}
	scene_stale = 1;
	if (!scene && format->fourcc == V4L2_PIX_FMT_MJPEG && encode_jpegs(frame->width, frame->height) != 0)
		return;
	struct v4l2_format video = {.type = V4L2_BUF_TYPE_VIDEO_OUTPUT};
	video.fmt.pix.width = (uint32_t)frame->width;
	video.fmt.pix.height = (uint32_t)frame->height;
	video.fmt.pix.pixelformat = format->fourcc;
	video.fmt.pix.field = V4L2_FIELD_NONE;
	video.fmt.pix.sizeimage = frame_bytes(format->fourcc, frame->width, frame->height);
	struct v4l2_requestbuffers request = {.count = BUFFERS, .type = V4L2_BUF_TYPE_VIDEO_OUTPUT, .memory = V4L2_MEMORY_MMAP};
	if (ioctl(node, VIDIOC_S_FMT, &video) < 0 || ioctl(node, VIDIOC_REQBUFS, &request) < 0) {
		say("cannot set up buffers: %s", strerror(errno));
		return;
	}
	buffer_count = (int)request.count;
	for (int i = 0; i < buffer_count; i++) {
		struct v4l2_buffer buffer = {.type = V4L2_BUF_TYPE_VIDEO_OUTPUT, .memory = V4L2_MEMORY_MMAP, .index = (uint32_t)i};
		if (ioctl(node, VIDIOC_QUERYBUF, &buffer) < 0)
			return;
		buffers[i].length = buffer.length;
		buffers[i].memory = mmap(NULL, buffer.length, PROT_READ | PROT_WRITE, MAP_SHARED, node, buffer.m.offset);
		if (buffers[i].memory == MAP_FAILED)
			return;
	}
	frames_queued = 0;
	double interval = commit.dwFrameInterval / 1e7;
	/* With a shared clock every frame waits for its instant; else the first buffers go at once. */
	next_frame_due = shared_clock ? ceil(now() / interval) * interval : now();
	for (int i = 0; i < buffer_count; i++) {
		if (shared_clock)
			idle[idle_count++] = i;
		else
			queue_frame(i);
	}
	int type = V4L2_BUF_TYPE_VIDEO_OUTPUT;
	if (ioctl(node, VIDIOC_STREAMON, &type) < 0) {
		say("STREAMON: %s", strerror(errno));
		return;
	}
	streaming = 1;
	if (!shared_clock)
		next_frame_due = now() + interval;
	say("stream on: %.4s %dx%d interval %u", (const char *)&format->fourcc, frame->width, frame->height,
	    commit.dwFrameInterval);
}

/* ---- class requests -------------------------------------------------------- */

/* Fills a streaming control for the format, frame and interval asked, each snapped to what exists. */
/* What a microframe must carry for the format at `interval` (100 ns units): its frames (MJPEG
 * taken as compressing 4:1 against YUYV, this camera's own rule) and a 12-byte payload header;
 * never more than the largest setting. */
static uint32_t needed_payload(uint32_t fourcc, int width, int height, uint32_t interval)
{
	double frame = fourcc == V4L2_PIX_FMT_MJPEG ? width * height / 2.0 : (double)frame_bytes(fourcc, width, height);
	double per_microframe = frame * (1e7 / (interval ? interval : 333333)) / 8000;
	uint32_t needed = (uint32_t)per_microframe + (per_microframe > (uint32_t)per_microframe) + 12;
	return needed < max_payload ? needed : max_payload;
}

static void negotiate(struct uvc_streaming_control *control, int format_index, int frame_index, uint32_t interval)
{
	const struct format_desc *format = find_format(format_index);
	if (!format)
		format = &formats[0];
	const struct frame_desc *frame = find_frame(format, frame_index);
	if (!frame)
		frame = &format->frames[0];
	uint32_t chosen = frame->default_interval;
	for (int i = 0; interval && i < frame->interval_count; i++)
		if (llabs((long long)interval - frame->intervals[i]) < llabs((long long)interval - chosen))
			chosen = frame->intervals[i];
	memset(control, 0, sizeof *control);
	control->bmHint = 1;
	control->bFormatIndex = (uint8_t)format->index;
	control->bFrameIndex = (uint8_t)frame->index;
	control->dwFrameInterval = chosen;
	control->dwMaxVideoFrameSize = frame_bytes(format->fourcc, frame->width, frame->height);
	int needed = asks_needed == 2 || (asks_needed == 1 && format->fourcc == V4L2_PIX_FMT_MJPEG);
	control->dwMaxPayloadTransferSize = needed ? needed_payload(format->fourcc, frame->width, frame->height, chosen) : max_payload;
	control->dwClockFrequency = 48000000;
	control->bmFramingInfo = 3;
	control->bPreferedVersion = control->bMinVersion = control->bMaxVersion = 1;
}

static void respond(const void *data, int length)
{
	struct uvc_request_data response = {.length = length};
	if (data && length > 0)
		memcpy(response.data, data, (size_t)(length < 60 ? length : 60));
	if (ioctl(node, UVCIOC_SEND_RESPONSE, &response) < 0)
		say("SEND_RESPONSE: %s", strerror(errno));
}

static void stall(uint8_t error_code)
{
	request_error = error_code;
	respond(NULL, -EL2HLT); /* a negative length makes f_uvc stall ep0 */
}

/* Answers GET_* for a control whose value is `size` bytes; `values` are cur, min, max, res, def. */
static void answer_control(int request, int length, int size, const int values[5])
{
	uint8_t data[4] = {0};
	int value;
	switch (request) {
	case UVC_GET_CUR: value = values[0]; break;
	case UVC_GET_MIN: value = values[1]; break;
	case UVC_GET_MAX: value = values[2]; break;
	case UVC_GET_RES: value = values[3]; break;
	case UVC_GET_DEF: value = values[4]; break;
	case UVC_GET_LEN: value = size; size = 2; break;
	case UVC_GET_INFO: value = 0x03; size = 1; break; /* GET and SET */
	default: stall(0x07); return;
	}
	for (int i = 0; i < size; i++)
		data[i] = (uint8_t)(value >> (8 * i));
	request_error = 0;
	respond(data, length < size ? length : size);
}

/* The interface of this function a request names. Newer kernels' f_uvc (6.12 here, not 6.1)
 * rewrite wIndex to 0 for the control interface and 1 for streaming, whatever the configuration
 * numbered them; older ones pass the numbers themselves. Only a first function has 0 and 1 of
 * its own (gadgets.py puts UVC functions first), and those mean the same in both conventions. */
static int named_interface(int number)
{
	if (number == control_interface || number == 0)
		return control_interface;
	if (number == streaming_interface || number == 1)
		return streaming_interface;
	return -1;
}

/* The integer controls beyond brightness and the AE mode, by unit and selector. */
struct control {
	int entity, selector, size;
	int *values;
	const char *name;
};

static const struct control controls[] = {
	{1, UVC_CT_EXPOSURE_TIME_ABSOLUTE_CONTROL, 4, exposure_time, "exposure_time"},
	{1, UVC_CT_FOCUS_ABSOLUTE_CONTROL, 2, focus_absolute, "focus_absolute"},
	{1, UVC_CT_FOCUS_AUTO_CONTROL, 1, focus_auto, "focus_auto"},
	{2, UVC_PU_GAIN_CONTROL, 2, gain, "gain"},
};

static const struct control *find_control(int interface, int entity, int selector)
{
	for (size_t i = 0; interface == control_interface && i < sizeof controls / sizeof controls[0]; i++)
		if (controls[i].entity == entity && controls[i].selector == selector)
			return &controls[i];
	return NULL;
}

static void handle_setup(const struct usb_ctrlrequest *setup)
{
	int request = setup->bRequest, selector = setup->wValue >> 8;
	int interface = named_interface(setup->wIndex & 0xff), entity = setup->wIndex >> 8, length = setup->wLength;
	if ((setup->bRequestType & USB_TYPE_MASK) != USB_TYPE_CLASS) {
		stall(0x07);
		return;
	}
	if (request == UVC_SET_CUR) {
		pending_interface = interface;
		pending_entity = entity;
		pending_selector = selector;
		respond(NULL, length); /* the data stage arrives as UVC_EVENT_DATA */
		return;
	}
	if (interface == streaming_interface) {
		struct uvc_streaming_control control;
		if (selector != UVC_VS_PROBE_CONTROL && selector != UVC_VS_COMMIT_CONTROL) {
			stall(0x06);
			return;
		}
		switch (request) {
		case UVC_GET_CUR: control = selector == UVC_VS_PROBE_CONTROL ? probe : commit; break;
		case UVC_GET_DEF:
		case UVC_GET_MIN: negotiate(&control, probe.bFormatIndex, probe.bFrameIndex, 1); break;
		case UVC_GET_MAX: negotiate(&control, probe.bFormatIndex, probe.bFrameIndex, UINT32_MAX); break;
		case UVC_GET_RES: memset(&control, 0, sizeof control); break;
		case UVC_GET_LEN: respond((const uint8_t[]){sizeof control, 0}, 2); return;
		case UVC_GET_INFO: respond((const uint8_t[]){0x03}, 1); return;
		default: stall(0x07); return;
		}
		respond(&control, length < (int)sizeof control ? length : (int)sizeof control);
		return;
	}
	if (interface == control_interface && entity == 0 && selector == UVC_VC_REQUEST_ERROR_CODE_CONTROL) {
		respond(request == UVC_GET_INFO ? (const uint8_t[]){0x01} : &request_error, 1);
		return;
	}
	/* Entity 1 is the camera terminal, 2 the processing unit (configfs's fixed topology). */
	if (interface == control_interface && entity == 2 && selector == UVC_PU_BRIGHTNESS_CONTROL) {
		answer_control(request, length, 2, (const int[]){brightness, -64, 64, 1, 0});
		return;
	}
	if (interface == control_interface && entity == 1 && selector == UVC_CT_AE_MODE_CONTROL) {
		/* AE mode: RES is the bitmap of modes offered, manual (1) and auto (2). */
		answer_control(request, length, 1, (const int[]){exposure_mode, 0, 0, 0x03, 2});
		return;
	}
	const struct control *control = find_control(interface, entity, selector);
	if (control) {
		if (scene && scene_stale && streaming) /* the value the camera's own loops chose for the coming frames */
			render_scene(find_format(commit.bFormatIndex), find_frame(find_format(commit.bFormatIndex), commit.bFrameIndex));
		answer_control(request, length, control->size, control->values);
		return;
	}
	stall(0x06);
}

static void handle_data(const struct uvc_request_data *data)
{
	if (pending_interface == streaming_interface) {
		struct uvc_streaming_control asked = {0};
		memcpy(&asked, data->data, data->length < (int)sizeof asked ? (size_t)data->length : sizeof asked);
		struct uvc_streaming_control *target = pending_selector == UVC_VS_COMMIT_CONTROL ? &commit : &probe;
		negotiate(target, asked.bFormatIndex, asked.bFrameIndex, asked.dwFrameInterval);
	} else if (pending_interface == control_interface && data->length >= 1) {
		int value = 0;
		for (int i = 0; i < data->length && i < 4; i++)
			value |= data->data[i] << (8 * i);
		const char *name = NULL;
		const struct control *control = find_control(control_interface, pending_entity, pending_selector);
		if (pending_entity == 2 && pending_selector == UVC_PU_BRIGHTNESS_CONTROL)
			brightness = (int16_t)value, value = brightness, name = "brightness";
		else if (pending_entity == 1 && pending_selector == UVC_CT_AE_MODE_CONTROL)
			exposure_mode = (uint8_t)value, value = exposure_mode, name = "ae_mode";
		else if (control) {
			if (control->size == 2)
				value = (int16_t)value;
			control->values[0] = value < control->values[1] ? control->values[1] : value > control->values[2] ? control->values[2] : value;
			value = control->values[0];
			name = control->name;
		}
		scene_stale = 1;
		if (name && control_log) {
			fprintf(control_log, "%s %d\n", name, value);
			fflush(control_log);
		}
	}
	pending_interface = -1;
}

static void handle_event(void)
{
	struct v4l2_event event;
	if (ioctl(node, VIDIOC_DQEVENT, &event) < 0) {
		if (errno == ENODEV)
			quit = 1;
		return;
	}
	const struct uvc_event *uvc = (const void *)&event.u.data;
	switch (event.type) {
	case UVC_EVENT_SETUP: handle_setup(&uvc->req); break;
	case UVC_EVENT_DATA: handle_data(&uvc->data); break;
	case UVC_EVENT_STREAMON: start_streaming(); break;
	case UVC_EVENT_STREAMOFF:
	case UVC_EVENT_DISCONNECT: stop_streaming(); break;
	default: break;
	}
}

/* Hands finished buffers back and queues frames as they fall due. */
static void pump_frames(void)
{
	struct v4l2_buffer buffer = {.type = V4L2_BUF_TYPE_VIDEO_OUTPUT, .memory = V4L2_MEMORY_MMAP};
	while (ioctl(node, VIDIOC_DQBUF, &buffer) == 0)
		idle[idle_count++] = (int)buffer.index;
	if (errno == ENODEV)
		quit = 1;
	while (streaming && idle_count && (!pacing || now() >= next_frame_due)) {
		queue_frame(idle[--idle_count]);
		next_frame_due += commit.dwFrameInterval / 1e7;
		if (now() > next_frame_due + 0.5) /* fell far behind (a stalled host): don't burst */
			next_frame_due = shared_clock ? ceil(now() / (commit.dwFrameInterval / 1e7)) * (commit.dwFrameInterval / 1e7)
						      : now();
	}
}

static void stop(int signal_number)
{
	(void)signal_number;
	quit = 1;
}

int main(int argc, char **argv)
{
	int option;
	while ((option = getopt(argc, argv, "Pcmnl:s:")) != -1) {
		if (option == 's' && (!(scene = scene_load(scene_path = optarg)) || stat(optarg, &scene_file) != 0))
			return 2;
		else if (option == 'P')
			pacing = 0;
		else if (option == 'c')
			shared_clock = 1;
		else if (option == 'n' || option == 'm')
			asks_needed = option == 'n' ? 2 : 1;
		else if (option == 'l' && !(control_log = fopen(optarg, "a")))
			return perror(optarg), 2;
		else if (option != 'l' && option != 'c' && option != 's' && option != 'n' && option != 'm')
			return 2;
	}
	if (argc - optind != 2) {
		fprintf(stderr, "usage: uvc-gadget FUNCTION_DIR GADGET_NODE [-P | -c] [-n | -m] [-l CONTROL_LOG] [-s SCENE]\n");
		return 2;
	}
	if (read_function(argv[optind]) != 0) {
		say("%s: no bound UVC function with formats", argv[optind]);
		return 1;
	}
	negotiate(&probe, formats[0].index, formats[0].frames[0].index, 0);
	commit = probe;
	node = open(argv[optind + 1], O_RDWR | O_NONBLOCK);
	if (node < 0)
		return perror(argv[optind + 1]), 1;
	signal(SIGTERM, stop);
	signal(SIGINT, stop);
	/* UVC_EVENT_SETUP last: subscribing to it is what connects the device. */
	static const uint32_t events[] = {UVC_EVENT_CONNECT, UVC_EVENT_DISCONNECT, UVC_EVENT_STREAMON,
					  UVC_EVENT_STREAMOFF, UVC_EVENT_DATA, UVC_EVENT_SETUP};
	for (size_t i = 0; i < sizeof events / sizeof events[0]; i++) {
		struct v4l2_event_subscription subscription = {.type = events[i]};
		if (ioctl(node, VIDIOC_SUBSCRIBE_EVENT, &subscription) < 0)
			return say("subscribe: %s", strerror(errno)), 1;
	}
	say("%d formats, connecting", format_count);
	while (!quit) {
		struct pollfd poller = {.fd = node, .events = POLLPRI | (streaming ? POLLOUT : 0)};
		int timeout = 200;
		if (streaming && pacing && idle_count) {
			double wait = next_frame_due - now();
			timeout = wait <= 0 ? 0 : (int)(wait * 1000) + 1;
		}
		if (poll(&poller, 1, timeout) < 0 && errno != EINTR)
			break;
		if (poller.revents & POLLHUP)
			break;
		if (poller.revents & POLLPRI)
			handle_event();
		if (streaming)
			pump_frames();
	}
	stop_streaming();
	close(node);
	return 0;
}
