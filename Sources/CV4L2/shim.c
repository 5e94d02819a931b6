#include "CV4L2.h"

#include <errno.h>
#include <sys/ioctl.h>

const unsigned long CV4L2_VIDIOC_QUERYCAP = VIDIOC_QUERYCAP;
const unsigned long CV4L2_VIDIOC_ENUM_FMT = VIDIOC_ENUM_FMT;
const unsigned long CV4L2_VIDIOC_ENUM_FRAMESIZES = VIDIOC_ENUM_FRAMESIZES;
const unsigned long CV4L2_VIDIOC_ENUM_FRAMEINTERVALS = VIDIOC_ENUM_FRAMEINTERVALS;
const unsigned long CV4L2_VIDIOC_G_CTRL = VIDIOC_G_CTRL;

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
