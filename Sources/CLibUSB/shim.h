/* libusb: a USB device's configuration descriptors, read from the kernel's copy. */
#include <libusb-1.0/libusb.h>
