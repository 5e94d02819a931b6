/* PNG files for depth maps and the pictures beside them (libpng). */
#include "png.h"


#include <errno.h>
#include <png.h>
#include <stdlib.h>
#include <string.h>

/* Writes `height` rows of `width` pixels from `rows` (a row every `stride` bytes) as an 8-bit RGB
 * (`bits` 8, 3 bytes a pixel) or a 16-bit greyscale PNG (`bits` 16, little-endian words, as
 * depth cameras send them; PNG stores them big-endian). Returns NULL, or why it failed. */
const char *write_png(const char *path, const uint8_t *rows, uint32_t width, uint32_t height, size_t stride, int bits,
                      char error[256])
{
    FILE *file = fopen(path, "wb");
    if (!file) {
        snprintf(error, 256, "cannot write %s: %s", path, strerror(errno));
        return error;
    }
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info || setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        fclose(file);
        snprintf(error, 256, "cannot write %s: libpng failed", path);
        return error;
    }
    png_init_io(png, file);
    png_set_IHDR(png, info, width, height, bits == 16 ? 16 : 8, bits == 16 ? PNG_COLOR_TYPE_GRAY : PNG_COLOR_TYPE_RGB,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    if (bits == 16) png_set_swap(png);   /* our words are little-endian */
    for (uint32_t y = 0; y < height; y++) png_write_row(png, (png_const_bytep)(rows + (size_t)y * stride));
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    if (fclose(file) != 0) {
        snprintf(error, 256, "cannot write %s: %s", path, strerror(errno));
        return error;
    }
    return NULL;
}
