/* The face detector plugin's interface: what libocellus looks up with dlsym in
 * libocellus-faces-opencv.so (plugins/faces-opencv), which it loads on first use so that the
 * library itself never links OpenCV (C++). Not a public header: the plugin and the library are
 * built and installed together, and the version below must match.
 *
 * Pictures are 8-bit grey (luma), rows `stride` bytes apart. One detector is used by one thread
 * at a time (a metadata output's worker); different detectors are independent. */
#ifndef OCELLUS_FACES_H
#define OCELLUS_FACES_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define OCELLUS_FACES_INTERFACE_VERSION 1

typedef struct ocellus_faces ocellus_faces;

/* A face found: its box in pixels of the picture searched, and a confidence in 0...1. */
typedef struct {
    float x, y, width, height;
    float confidence;
} ocellus_face;

/* OCELLUS_FACES_INTERFACE_VERSION of the plugin. */
int ocellus_faces_interface_version(void);
/* A detector from `model`: an OpenCV cascade (.xml, such as opencv-data's
 * haarcascade_frontalface_default.xml) or a YuNet model (.onnx, OpenCV's DNN face detector).
 * NULL when it cannot be read, with why in `error` (NUL-terminated, cut to `error_size`).
 * Free it with ocellus_faces_free. */
ocellus_faces *ocellus_faces_new(const char *model, char *error, size_t error_size);
void ocellus_faces_free(ocellus_faces *faces);
/* Finds faces no smaller than `min_size` pixels across; writes up to `capacity` of them, largest
 * first, and returns how many it wrote (0 and up), or -1 when OpenCV failed. */
int ocellus_faces_detect(ocellus_faces *faces, const uint8_t *grey, int width, int height, int stride,
                         int min_size, ocellus_face *found, int capacity);

#ifdef __cplusplus
}
#endif

#endif
