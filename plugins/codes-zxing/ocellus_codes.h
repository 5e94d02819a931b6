/* The code reader plugin's interface: what libocellus looks up with dlsym in
 * libocellus-codes-zxing.so (plugins/codes-zxing), which it loads on first use so that the
 * library itself never links zxing-cpp (C++). Not a public header: the plugin and the library
 * are built and installed together, and the version below must match.
 *
 * Pictures are 8-bit grey (luma), rows `stride` bytes apart. A reader holds no state between
 * calls; the caller's buffers are the only memory written. */
#ifndef OCELLUS_CODES_H
#define OCELLUS_CODES_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define OCELLUS_CODES_INTERFACE_VERSION 1

/* Symbologies, one bit each (a set is their OR). */
enum {
    OCELLUS_CODE_QR = 1 << 0,
    OCELLUS_CODE_MICRO_QR = 1 << 1,
    OCELLUS_CODE_AZTEC = 1 << 2,
    OCELLUS_CODE_DATA_MATRIX = 1 << 3,
    OCELLUS_CODE_PDF417 = 1 << 4,
    OCELLUS_CODE_EAN8 = 1 << 5,
    OCELLUS_CODE_EAN13 = 1 << 6,
    OCELLUS_CODE_UPCA = 1 << 7,
    OCELLUS_CODE_UPCE = 1 << 8,
    OCELLUS_CODE_CODE39 = 1 << 9,
    OCELLUS_CODE_CODE93 = 1 << 10,
    OCELLUS_CODE_CODE128 = 1 << 11,
    OCELLUS_CODE_ITF = 1 << 12,
    OCELLUS_CODE_CODABAR = 1 << 13
};

/* A code read: its symbology (one bit), the box around its corners in pixels of the picture, and
 * its content: `bytes` as encoded (`length` of them, cut to the buffer's size when `truncated`),
 * `text` the same content as UTF-8 (NUL-terminated, cut likewise). */
typedef struct {
    int symbology;
    float x, y, width, height;
    int length;
    int truncated;
    uint8_t bytes[1024];
    char text[1024];
} ocellus_code;

/* OCELLUS_CODES_INTERFACE_VERSION of the plugin. */
int ocellus_codes_interface_version(void);
/* Reads the codes of the symbologies in `symbologies`; writes up to `capacity` of them and
 * returns how many it wrote, or -1 when zxing-cpp failed. Any thread. */
int ocellus_codes_read(const uint8_t *grey, int width, int height, int stride, int symbologies,
                       ocellus_code *found, int capacity);

#ifdef __cplusplus
}
#endif

#endif
