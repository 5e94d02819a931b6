/* Debian's libyuv has no pkg-config file: the headers directly. */
#include <libyuv/convert.h>
#include <libyuv/convert_argb.h>
#include <libyuv/convert_from.h>
#include <libyuv/planar_functions.h>
#include <libyuv/scale.h>
#include <libyuv/rotate.h>
