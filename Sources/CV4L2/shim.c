#include "CV4L2.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <string.h>
#include <sys/ioctl.h>

const unsigned long CV4L2_VIDIOC_QUERYCAP = VIDIOC_QUERYCAP;
const unsigned long CV4L2_VIDIOC_ENUM_FMT = VIDIOC_ENUM_FMT;
const unsigned long CV4L2_VIDIOC_ENUM_FRAMESIZES = VIDIOC_ENUM_FRAMESIZES;
const unsigned long CV4L2_VIDIOC_ENUM_FRAMEINTERVALS = VIDIOC_ENUM_FRAMEINTERVALS;
const unsigned long CV4L2_VIDIOC_G_CTRL = VIDIOC_G_CTRL;
const unsigned long CV4L2_VIDIOC_QUERY_EXT_CTRL = VIDIOC_QUERY_EXT_CTRL;
const unsigned long CV4L2_VIDIOC_QUERYMENU = VIDIOC_QUERYMENU;
const unsigned long CV4L2_VIDIOC_G_EXT_CTRLS = VIDIOC_G_EXT_CTRLS;
const unsigned long CV4L2_VIDIOC_S_EXT_CTRLS = VIDIOC_S_EXT_CTRLS;
const unsigned long CV4L2_VIDIOC_S_PRIORITY = VIDIOC_S_PRIORITY;
const unsigned int CV4L2_CTRL_FLAG_NEXT_CTRL = V4L2_CTRL_FLAG_NEXT_CTRL;
const unsigned int CV4L2_CTRL_FLAG_NEXT_COMPOUND = V4L2_CTRL_FLAG_NEXT_COMPOUND;
const unsigned long CV4L2_VIDIOC_S_FMT = VIDIOC_S_FMT;
const unsigned long CV4L2_VIDIOC_S_PARM = VIDIOC_S_PARM;
const unsigned long CV4L2_VIDIOC_G_PARM = VIDIOC_G_PARM;
const unsigned long CV4L2_VIDIOC_REQBUFS = VIDIOC_REQBUFS;
const unsigned long CV4L2_VIDIOC_QUERYBUF = VIDIOC_QUERYBUF;
const unsigned long CV4L2_VIDIOC_QBUF = VIDIOC_QBUF;
const unsigned long CV4L2_VIDIOC_DQBUF = VIDIOC_DQBUF;
const unsigned long CV4L2_VIDIOC_STREAMON = VIDIOC_STREAMON;
const unsigned long CV4L2_VIDIOC_STREAMOFF = VIDIOC_STREAMOFF;

const unsigned int CV4L2_CID_CAMERA_ORIENTATION = V4L2_CID_CAMERA_ORIENTATION;
const unsigned int CV4L2_CID_CAMERA_SENSOR_ROTATION = V4L2_CID_CAMERA_SENSOR_ROTATION;

int cv4l2_ioctl(int fd, unsigned long request, void *argument)
{
    int result;
    do {
        result = ioctl(fd, request, argument);
    } while (result < 0 && errno == EINTR);
    return result < 0 ? -errno : 0;
}

void cv4l2_control_request_init(struct cv4l2_control_request *request, uint32_t id, int is_64bit, int64_t value)
{
    memset(request, 0, sizeof(*request));
    request->controls.which = V4L2_CTRL_WHICH_CUR_VAL;
    request->controls.count = 1;
    request->controls.controls = &request->control;
    request->control.id = id;
    if (is_64bit)
        request->control.value64 = value;
    else
        request->control.value = (int32_t)value;
}

void cv4l2_control_request_init_payload(struct cv4l2_control_request *request, uint32_t id, void *payload, uint32_t size)
{
    memset(request, 0, sizeof(*request));
    request->controls.which = V4L2_CTRL_WHICH_CUR_VAL;
    request->controls.count = 1;
    request->controls.controls = &request->control;
    request->control.id = id;
    request->control.size = size;
    request->control.ptr = payload;
}

void *cv4l2_control_request_payload(const struct cv4l2_control_request *request)
{
    return request->control.ptr;
}

uint32_t cv4l2_control_request_size(const struct cv4l2_control_request *request)
{
    return request->control.size;
}

int64_t cv4l2_control_request_value(const struct cv4l2_control_request *request, int is_64bit)
{
    return is_64bit ? request->control.value64 : request->control.value;
}

void cv4l2_querymenu_init(struct v4l2_querymenu *menu, uint32_t id, uint32_t index)
{
    memset(menu, 0, sizeof(*menu));
    menu->id = id;
    menu->index = index;
}

const char *cv4l2_querymenu_name(const struct v4l2_querymenu *menu)
{
    return (const char *)menu->name;
}

void cv4l2_querymenu_set_name(struct v4l2_querymenu *menu, const char *name)
{
    strncpy((char *)menu->name, name, sizeof(menu->name) - 1);
    menu->name[sizeof(menu->name) - 1] = 0;
}

int64_t cv4l2_querymenu_value(const struct v4l2_querymenu *menu)
{
    return menu->value;
}

static struct {
    int (*open)(const char *, int, ...);
    int (*close)(int);
    int (*ioctl)(int, unsigned long, ...);
    void *(*mmap)(void *, size_t, int, int, int, int64_t);
    int (*munmap)(void *, size_t);
} libv4l2;

int cv4l2_libv4l2_load(void)
{
    void *library;
    if (libv4l2.ioctl)
        return 0;
    if ((library = dlopen("libv4l2.so.0", RTLD_NOW | RTLD_LOCAL)) == NULL)
        return -1;
    libv4l2.open = (int (*)(const char *, int, ...))dlsym(library, "v4l2_open");
    libv4l2.close = (int (*)(int))dlsym(library, "v4l2_close");
    libv4l2.mmap = (void *(*)(void *, size_t, int, int, int, int64_t))dlsym(library, "v4l2_mmap");
    libv4l2.munmap = (int (*)(void *, size_t))dlsym(library, "v4l2_munmap");
    libv4l2.ioctl = (int (*)(int, unsigned long, ...))dlsym(library, "v4l2_ioctl");
    if (!libv4l2.open || !libv4l2.close || !libv4l2.mmap || !libv4l2.munmap || !libv4l2.ioctl) {
        libv4l2.ioctl = NULL;
        return -1;
    }
    return 0;
}

int cv4l2_libv4l2_open(const char *path, int flags)
{
    int fd = libv4l2.open(path, flags);
    return fd < 0 ? -errno : fd;
}

void cv4l2_libv4l2_close(int fd)
{
    libv4l2.close(fd);
}

int cv4l2_libv4l2_ioctl(int fd, unsigned long request, void *argument)
{
    int result;
    do {
        result = libv4l2.ioctl(fd, request, argument);
    } while (result < 0 && errno == EINTR);
    return result < 0 ? -errno : 0;
}

void *cv4l2_libv4l2_mmap(size_t length, int fd, int64_t offset)
{
    void *memory = libv4l2.mmap(NULL, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, offset);
    return memory == MAP_FAILED ? NULL : memory;
}

void cv4l2_libv4l2_munmap(void *start, size_t length)
{
    libv4l2.munmap(start, length);
}

static int cv4l2_is_multiplanar(uint32_t type) { return type == V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE; }

void cv4l2_buffer_request_init(struct cv4l2_buffer_request *request, uint32_t type, uint32_t index)
{
    memset(request, 0, sizeof(*request));
    request->buffer.type = type;
    request->buffer.memory = V4L2_MEMORY_MMAP;
    request->buffer.index = index;
    if (cv4l2_is_multiplanar(type)) {
        request->buffer.m.planes = &request->plane;
        request->buffer.length = 1;
    }
}

uint32_t cv4l2_buffer_request_length(const struct cv4l2_buffer_request *request)
{
    return cv4l2_is_multiplanar(request->buffer.type) ? request->plane.length : request->buffer.length;
}

uint32_t cv4l2_buffer_request_offset(const struct cv4l2_buffer_request *request)
{
    return cv4l2_is_multiplanar(request->buffer.type) ? request->plane.m.mem_offset : request->buffer.m.offset;
}

uint32_t cv4l2_buffer_request_bytes_used(const struct cv4l2_buffer_request *request)
{
    return cv4l2_is_multiplanar(request->buffer.type) ? request->plane.bytesused : request->buffer.bytesused;
}

uint32_t cv4l2_buffer_request_data_offset(const struct cv4l2_buffer_request *request)
{
    return cv4l2_is_multiplanar(request->buffer.type) ? request->plane.data_offset : 0;
}

void cv4l2_format_init(struct v4l2_format *format, uint32_t type, uint32_t pixel_format, uint32_t width, uint32_t height)
{
    memset(format, 0, sizeof(*format));
    format->type = type;
    if (cv4l2_is_multiplanar(type)) {
        format->fmt.pix_mp.pixelformat = pixel_format;
        format->fmt.pix_mp.width = width;
        format->fmt.pix_mp.height = height;
        format->fmt.pix_mp.field = V4L2_FIELD_NONE;
        format->fmt.pix_mp.num_planes = 1;
    } else {
        format->fmt.pix.pixelformat = pixel_format;
        format->fmt.pix.width = width;
        format->fmt.pix.height = height;
        format->fmt.pix.field = V4L2_FIELD_NONE;
    }
}

void cv4l2_format_read(const struct v4l2_format *format, uint32_t *pixel_format, uint32_t *width, uint32_t *height,
                       uint32_t *bytes_per_line, uint32_t *planes)
{
    if (cv4l2_is_multiplanar(format->type)) {
        *pixel_format = format->fmt.pix_mp.pixelformat;
        *width = format->fmt.pix_mp.width;
        *height = format->fmt.pix_mp.height;
        *bytes_per_line = format->fmt.pix_mp.plane_fmt[0].bytesperline;
        *planes = format->fmt.pix_mp.num_planes;
    } else {
        *pixel_format = format->fmt.pix.pixelformat;
        *width = format->fmt.pix.width;
        *height = format->fmt.pix.height;
        *bytes_per_line = format->fmt.pix.bytesperline;
        *planes = 1;
    }
}
