/*
 * CV4L2: what Swift cannot import from <linux/videodev2.h> — the VIDIOC_*
 * ioctl request macros (they expand to _IOWR(...) expressions), control IDs
 * defined as sums of class bases, and ioctl(2) itself (variadic). The structs
 * and plain integer constants import directly. Each constant is the kernel's.
 */
#ifndef OCELLUS_CV4L2_H
#define OCELLUS_CV4L2_H

#include <stddef.h>
#include <stdint.h>
#include <linux/videodev2.h>
#include <linux/netlink.h>

extern const unsigned long CV4L2_VIDIOC_QUERYCAP;
extern const unsigned long CV4L2_VIDIOC_ENUM_FMT;
extern const unsigned long CV4L2_VIDIOC_ENUM_FRAMESIZES;
extern const unsigned long CV4L2_VIDIOC_ENUM_FRAMEINTERVALS;
extern const unsigned long CV4L2_VIDIOC_G_CTRL;
extern const unsigned long CV4L2_VIDIOC_QUERY_EXT_CTRL;
extern const unsigned long CV4L2_VIDIOC_QUERYMENU;
extern const unsigned long CV4L2_VIDIOC_G_EXT_CTRLS;
extern const unsigned long CV4L2_VIDIOC_S_EXT_CTRLS;
extern const unsigned long CV4L2_VIDIOC_S_PRIORITY;
extern const unsigned int CV4L2_CTRL_FLAG_NEXT_CTRL;
extern const unsigned int CV4L2_CTRL_FLAG_NEXT_COMPOUND;
extern const unsigned long CV4L2_VIDIOC_S_FMT;
extern const unsigned long CV4L2_VIDIOC_S_PARM;
extern const unsigned long CV4L2_VIDIOC_G_PARM;
extern const unsigned long CV4L2_VIDIOC_REQBUFS;
extern const unsigned long CV4L2_VIDIOC_QUERYBUF;
extern const unsigned long CV4L2_VIDIOC_QBUF;
extern const unsigned long CV4L2_VIDIOC_DQBUF;
extern const unsigned long CV4L2_VIDIOC_STREAMON;
extern const unsigned long CV4L2_VIDIOC_STREAMOFF;

/* A buffer of a single- or multi-planar capture queue, at a fixed address: the
 * multi-planar v4l2_buffer points at its plane array (and v4l2_plane is a union
 * holder Swift does not lay out). Ocellus streams formats held in one memory plane
 * (NV12, YUYV, MJPEG… on an _MPLANE queue), which is what camera nodes use. */
struct cv4l2_buffer_request {
    struct v4l2_buffer buffer;
    struct v4l2_plane plane;
};
void cv4l2_buffer_request_init(struct cv4l2_buffer_request *request, uint32_t type, uint32_t index);
uint32_t cv4l2_buffer_request_length(const struct cv4l2_buffer_request *request);
uint32_t cv4l2_buffer_request_offset(const struct cv4l2_buffer_request *request);
uint32_t cv4l2_buffer_request_bytes_used(const struct cv4l2_buffer_request *request);
/* Where the picture starts in a multi-planar buffer (bytes used count from the buffer's start). */
uint32_t cv4l2_buffer_request_data_offset(const struct cv4l2_buffer_request *request);

/* S_FMT for either queue type (v4l2_pix_format_mplane is packed); the read-back
 * gives what the driver chose, and how many memory planes it wants. */
void cv4l2_format_init(struct v4l2_format *format, uint32_t type, uint32_t pixel_format, uint32_t width, uint32_t height);
void cv4l2_format_read(const struct v4l2_format *format, uint32_t *pixel_format, uint32_t *width, uint32_t *height,
                       uint32_t *bytes_per_line, uint32_t *planes);

/* One control in a G/S_EXT_CTRLS request: v4l2_ext_control is packed and holds a
 * union, which Swift does not lay out; these keep the request at a fixed address. */
struct cv4l2_control_request {
    struct v4l2_ext_controls controls;
    struct v4l2_ext_control control;
};
void cv4l2_control_request_init(struct cv4l2_control_request *request, uint32_t id, int is_64bit, int64_t value);
int64_t cv4l2_control_request_value(const struct cv4l2_control_request *request, int is_64bit);
/* A request for a payload control (string, array, compound): `size` bytes at `payload`. */
void cv4l2_control_request_init_payload(struct cv4l2_control_request *request, uint32_t id, void *payload, uint32_t size);
/* The payload's size after VIDIOC_G_EXT_CTRLS (a dynamic array's current length). */
uint32_t cv4l2_control_request_size(const struct cv4l2_control_request *request);
/* Where a payload request's bytes are (a driver, or the tests' replay of one, fills them). */
void *cv4l2_control_request_payload(const struct cv4l2_control_request *request);
/* v4l2_querymenu is packed with a union: its item name or integer value. */
void cv4l2_querymenu_init(struct v4l2_querymenu *menu, uint32_t id, uint32_t index);
const char *cv4l2_querymenu_name(const struct v4l2_querymenu *menu);
void cv4l2_querymenu_set_name(struct v4l2_querymenu *menu, const char *name);
int64_t cv4l2_querymenu_value(const struct v4l2_querymenu *menu);

extern const unsigned int CV4L2_CID_CAMERA_ORIENTATION;
extern const unsigned int CV4L2_CID_CAMERA_SENSOR_ROTATION;

/* libv4l2 (format conversion for cameras whose formats only it decodes), loaded on
 * demand with dlopen so that it is optional. Its v4l2_ioctl is variadic, hence C. */
int cv4l2_libv4l2_load(void);  /* 0, or -1 when libv4l2.so.0 is not installed */
int cv4l2_libv4l2_open(const char *path, int flags);  /* fd or -errno */
void cv4l2_libv4l2_close(int fd);
int cv4l2_libv4l2_ioctl(int fd, unsigned long request, void *argument);  /* 0 or -errno */
void *cv4l2_libv4l2_mmap(size_t length, int fd, int64_t offset);  /* NULL on failure */
void cv4l2_libv4l2_munmap(void *start, size_t length);

/* ioctl(2) with one pointer argument; returns 0 or -errno. */
int cv4l2_ioctl(int fd, unsigned long request, void *argument);

#endif
