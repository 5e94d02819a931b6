/* PNG files (png.c). */
#ifndef OCELLUS_CLI_PNG_H
#define OCELLUS_CLI_PNG_H

#include <stddef.h>
#include <stdint.h>

/* 8-bit RGB (`bits` 8) or 16-bit greyscale from little-endian words (`bits` 16); NULL or why not. */
const char *write_png(const char *path, const uint8_t *rows, uint32_t width, uint32_t height, size_t stride, int bits,
                      char error[256]);


#endif
