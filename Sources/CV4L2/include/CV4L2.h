/*
 * CV4L2: what Swift cannot import from <linux/videodev2.h> — the VIDIOC_*
 * ioctl request macros (they expand to _IOWR(...) expressions), control IDs
 * defined as sums of class bases, and ioctl(2) itself (variadic). The structs
 * and plain integer constants import directly. Each constant is the kernel's.
 */
#ifndef OCELLUS_CV4L2_H
#define OCELLUS_CV4L2_H

#include <linux/videodev2.h>
#include <linux/netlink.h>

extern const unsigned long CV4L2_VIDIOC_QUERYCAP;
extern const unsigned long CV4L2_VIDIOC_ENUM_FMT;
extern const unsigned long CV4L2_VIDIOC_ENUM_FRAMESIZES;
extern const unsigned long CV4L2_VIDIOC_ENUM_FRAMEINTERVALS;
extern const unsigned long CV4L2_VIDIOC_G_CTRL;

extern const unsigned int CV4L2_CID_CAMERA_ORIENTATION;
extern const unsigned int CV4L2_CID_CAMERA_SENSOR_ROTATION;

/* ioctl(2) with one pointer argument; returns 0 or -errno. */
int cv4l2_ioctl(int fd, unsigned long request, void *argument);

#endif
