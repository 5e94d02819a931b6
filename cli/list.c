/* `ocellus list`: cameras and microphones present now, as a table or JSON. */
#include "args.h"
#include "commands.h"
#include "json.h"
#include "library.h"
#include "output.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* One line of an array of devices as JSON, then free the list. */
static void emit_devices_json(oc_device_list *list)
{
    strbuf out;
    text_init(&out);
    json w;
    json_start(&w, &out);
    json_array_begin(&w);
    for (size_t index = 0; index < oc_device_list_count(list); index++) device_json(&w, oc_device_list_get(list, index));
    json_array_end(&w);
    emit(out.data);
    text_free(&out);
}

/* "YUYV 3 sizes ≤1920x1080 @30, MJPG …": each pixel format with its count of sizes, the largest, the highest rate. */
static void format_summary(oc_device *device, strbuf *out)
{
    size_t count = oc_device_format_count(device);
    uint32_t seen[64];
    size_t seen_count = 0;
    for (size_t index = 0; index < count; index++) {
        oc_format_info format = { .struct_size = sizeof format };
        if (oc_device_get_format(device, index, &format) != OC_OK) continue;
        bool known = false;
        for (size_t s = 0; s < seen_count; s++) known |= seen[s] == format.pixel_format;
        if (known || seen_count == 64) continue;
        seen[seen_count++] = format.pixel_format;
        uint32_t sizes = 0, width = 0, height = 0;
        double fps = 0;
        for (size_t other = index; other < count; other++) {
            oc_format_info same = { .struct_size = sizeof same };
            if (oc_device_get_format(device, other, &same) != OC_OK || same.pixel_format != format.pixel_format) continue;
            sizes++;
            if ((uint64_t)same.width * same.height > (uint64_t)width * height) { width = same.width; height = same.height; }
            if (same.frame_rate_count > 0) {
                double highest = (double)same.frame_rates[0].numerator / same.frame_rates[0].denominator;
                if (highest > fps) fps = highest;
            }
        }
        char name[64] = "", number[32];
        oc_pixel_format_name(format.pixel_format, name, sizeof name);
        if (out->length > 0) text_append(out, ", ");
        text_printf(out, "%s %u sizes ≤%ux%u", name, sizes, width, height);
        if (fps > 0) text_printf(out, " @%s", number_text(fps, number));
    }
}

int command_list(const global_options *options, arguments *a)
{
    bool as_json = args_flag(a, "--json");
    if (args_finish(a)) return 2;
    oc_context *ctx = open_context(options);
    if (!ctx) return 1;
    oc_device_list *list = NULL;
    if (oc_context_copy_devices(ctx, &list) != OC_OK) return close_context(ctx, fail_last_error());
    size_t count = oc_device_list_count(list);
    if (as_json) {
        emit_devices_json(list);
    } else if (count == 0) {
        emit("no cameras or microphones found");
    } else {
        /* The index is what commands accept as CAMERA (`ocellus stream 0`). */
        enum { COLUMNS = 7 };
        const char *header[COLUMNS] = { "#", "TYPE", "POSITION", "BACKEND", "UNIQUE ID", "NAME", "FORMATS" };
        strbuf *cells = calloc(count * COLUMNS, sizeof(strbuf));
        size_t widths[COLUMNS];
        for (int column = 0; column < COLUMNS; column++) widths[column] = strlen(header[column]);
        for (size_t row = 0; row < count; row++) {
            oc_device *device = oc_device_list_get(list, row);
            strbuf *cell = cells + row * COLUMNS;
            for (int column = 0; column < COLUMNS; column++) text_init(&cell[column]);
            text_printf(&cell[0], "%zu", row);
            text_append(&cell[1], oc_device_type_name(oc_device_get_type(device)));
            text_append(&cell[2], oc_device_position_name(oc_device_get_position(device)));
            text_append(&cell[3], oc_backend_name(oc_device_get_backend(device)));
            text_append(&cell[4], oc_device_unique_id(device));
            text_append(&cell[5], oc_device_name(device));
            format_summary(device, &cell[6]);
            for (int column = 0; column < COLUMNS; column++) {
                size_t width = utf8_width(cell[column].data);
                if (width > widths[column]) widths[column] = width;
            }
        }
        strbuf line;
        text_init(&line);
        for (size_t row = 0; row <= count; row++) {
            text_clear(&line);
            for (int column = 0; column < COLUMNS; column++) {
                const char *cell = row == 0 ? header[column] : cells[(row - 1) * COLUMNS + column].data;
                text_append(&line, cell);
                if (column == COLUMNS - 1) break;
                for (size_t pad = utf8_width(cell); pad < widths[column] + 2; pad++) text_append(&line, " ");
            }
            emit(line.data);
        }
        text_free(&line);
        for (size_t index = 0; index < count * COLUMNS; index++) text_free(&cells[index]);
        free(cells);
    }
    oc_device_list_free(list);
    return close_context(ctx, 0);
}
