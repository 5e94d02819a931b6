/* controls: a camera's controls, or changes to them. */
#include "args.h"
#include "commands.h"
#include "json.h"
#include "library.h"
#include "output.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* A control value as v4l2-ctl takes it: decimal, negative, or hex (`0x10`, `-0x10`), up to 64 bits
 * (a bitmask's high bit included: `0x80000010`). */
static bool parse_control_value(const char *text, int64_t *out)
{
    bool negative = *text == '-';
    const char *digits = negative ? text + 1 : text;
    int base = 10;
    if (digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) { base = 16; digits += 2; }
    if (!*digits || *digits == '-' || *digits == '+' || *digits == ' ') return false;
    char *end = NULL;
    errno = 0;
    unsigned long long magnitude = strtoull(digits, &end, base);
    if (errno || *end) return false;
    if (negative) {
        if (magnitude > (unsigned long long)INT64_MAX + 1) return false;
        *out = (int64_t)(0 - magnitude);
    } else {
        *out = (int64_t)magnitude;   /* above INT64_MAX: the bit pattern, as for a 64-bit mask */
    }
    return true;
}

static void flag_names(uint32_t flags, json *w, strbuf *plain)
{
    bool first = true;
    for (uint32_t bit = 1; bit; bit <<= 1) {
        const char *name = (flags & bit) ? oc_control_flag_name(bit) : NULL;
        if (!name) continue;
        if (w) json_string(w, name);
        if (plain) { text_append(plain, first ? "" : ","); text_append(plain, name); }
        first = false;
    }
}

/* Element `index` of a payload of `info`'s type, as a number. */
static int64_t payload_element(const oc_control_info *info, const uint8_t *payload, size_t index)
{
    const uint8_t *at = payload + index * info->element_size;
    switch (info->element_size) {
    case 1: return *at;
    case 2: { uint16_t v; memcpy(&v, at, 2); return v; }
    case 4:
        if (info->type == OC_CONTROL_TYPE_U32 || info->type == OC_CONTROL_TYPE_BITMASK) { uint32_t v; memcpy(&v, at, 4); return v; }
        else { int32_t v; memcpy(&v, at, 4); return v; }
    default: { int64_t v; memcpy(&v, at, 8); return v; }
    }
}

/* A payload control's value: a string, an area {"width", "height"}, or an array's elements (flat,
 * outermost dimension first); null when it was not read. */
static void payload_json(json *w, const oc_control_list *list, size_t index, const oc_control_info *info)
{
    size_t size = oc_control_list_get_payload(list, index, NULL, 0);
    if (size == 0) { json_null(w); return; }
    if (info->type == OC_CONTROL_TYPE_STRING) {
        char *value = malloc(size + 1);
        oc_control_list_get_string(list, index, value, size + 1);
        json_string(w, value);
        free(value);
        return;
    }
    uint8_t *payload = malloc(size);
    oc_control_list_get_payload(list, index, payload, size);
    if (info->type == OC_CONTROL_TYPE_AREA && size >= 8) {
        uint32_t area[2];
        memcpy(area, payload, sizeof area);
        json_object_begin(w);
        json_key(w, "width"); json_int(w, area[0]);
        json_key(w, "height"); json_int(w, area[1]);
        json_object_end(w);
    } else if (info->type == OC_CONTROL_TYPE_RECT && size >= 16) {
        int32_t corner[2];
        uint32_t extent[2];
        memcpy(corner, payload, sizeof corner);
        memcpy(extent, payload + sizeof corner, sizeof extent);
        json_object_begin(w);
        json_key(w, "left"); json_int(w, corner[0]);
        json_key(w, "top"); json_int(w, corner[1]);
        json_key(w, "width"); json_int(w, extent[0]);
        json_key(w, "height"); json_int(w, extent[1]);
        json_object_end(w);
    } else if (info->element_size == 1 || info->element_size == 2 || info->element_size == 4 || info->element_size == 8) {
        json_array_begin(w);
        for (size_t element = 0; element < size / info->element_size; element++) json_int(w, payload_element(info, payload, element));
        json_array_end(w);
    } else {
        json_null(w);   /* a compound layout Ocellus does not know */
    }
    free(payload);
}

static void control_json(json *w, const oc_control_list *list, size_t index, const oc_control_info *info)
{
    json_object_begin(w);
    json_key(w, "name"); json_string(w, info->name);
    json_key(w, "id"); json_int(w, info->id);
    json_key(w, "type"); json_string(w, oc_control_type_name(info->type));
    json_key(w, "minimum"); json_int(w, info->minimum);
    json_key(w, "maximum"); json_int(w, info->maximum);
    json_key(w, "step"); json_int(w, info->step);
    json_key(w, "default"); json_int(w, info->default_value);
    json_key(w, "value");
    if (info->has_payload) payload_json(w, list, index, info);
    else if (info->has_value) json_int(w, info->value);
    else json_null(w);
    json_key(w, "flags");
    json_array_begin(w);
    flag_names(info->flags, w, NULL);
    json_array_end(w);
    json_key(w, "menu");
    json_array_begin(w);
    for (uint32_t item = 0; item < info->menu_count; item++) {
        int64_t value = 0;
        const char *name = NULL;
        if (oc_control_list_get_menu_item(list, index, item, &value, &name) != OC_OK) continue;
        json_object_begin(w);
        json_key(w, "value"); json_int(w, value);
        json_key(w, "name"); json_string(w, name);
        json_object_end(w);
    }
    json_array_end(w);
    if (info->dimension_count > 0) {   /* arrays only: other controls keep the 0.1 shape */
        json_key(w, "dimensions");
        json_array_begin(w);
        for (uint32_t d = 0; d < info->dimension_count && d < 4; d++) json_int(w, info->dimensions[d]);
        json_array_end(w);
    }
    json_object_end(w);
}

static void control_line(const oc_control_list *list, size_t index, const oc_control_info *info, strbuf *out)
{
    text_clear(out);
    text_printf(out, "%s (%s): min=%" PRId64 " max=%" PRId64 " step=%" PRId64 " default=%" PRId64 " ", info->name,
                oc_control_type_name(info->type), info->minimum, info->maximum, info->step, info->default_value);
    if (info->dimension_count > 0) {
        text_append(out, "dims=");
        for (uint32_t d = 0; d < info->dimension_count && d < 4; d++) text_printf(out, "[%u]", info->dimensions[d]);
    }
    if (info->has_value) text_printf(out, "value=%" PRId64, info->value);
    if (info->type == OC_CONTROL_TYPE_STRING && oc_control_list_get_payload(list, index, NULL, 0) > 0) {
        char value[4096];
        oc_control_list_get_string(list, index, value, sizeof value);
        text_printf(out, "value='%s'", value);
    }
    if (info->type == OC_CONTROL_TYPE_AREA && oc_control_list_get_payload(list, index, NULL, 0) >= 8) {
        uint32_t area[2];
        oc_control_list_get_payload(list, index, area, sizeof area);
        text_printf(out, "value=%ux%u", area[0], area[1]);
    }
    if (info->type == OC_CONTROL_TYPE_RECT && oc_control_list_get_payload(list, index, NULL, 0) >= 16) {
        int32_t rect[4];
        oc_control_list_get_payload(list, index, rect, sizeof rect);
        text_printf(out, "value=%" PRId32 ",%" PRId32 ",%" PRIu32 "x%" PRIu32, rect[0], rect[1], (uint32_t)rect[2], (uint32_t)rect[3]);
    }
    if (info->flags) {
        text_append(out, " flags=");
        flag_names(info->flags, NULL, out);
    }
    if (info->menu_count > 0) {
        text_append(out, " [");
        for (uint32_t item = 0; item < info->menu_count; item++) {
            int64_t value = 0;
            const char *name = NULL;
            if (oc_control_list_get_menu_item(list, index, item, &value, &name) != OC_OK) continue;
            text_printf(out, "%s%" PRId64 "=%s", item ? ", " : "", value, name);
        }
        text_append(out, "]");
    }
}

/* `text` as a payload for `info`: "[1,2,3]" or "1,2,3" (an array's elements, each within the
 * element's size), or "WxH" for an area. False when it does not parse. */
static bool parse_payload(const oc_control_info *info, const char *value, uint8_t **out, size_t *size)
{
    if (info->type == OC_CONTROL_TYPE_AREA) {
        uint32_t area[2];
        char *end = NULL;
        unsigned long long width = strtoull(value, &end, 10);
        if (end == value || *end != 'x' || width > UINT32_MAX) return false;
        const char *rest = end + 1;
        unsigned long long height = strtoull(rest, &end, 10);
        if (end == rest || *end || height > UINT32_MAX) return false;
        area[0] = (uint32_t)width;
        area[1] = (uint32_t)height;
        *size = sizeof area;
        *out = malloc(*size);
        memcpy(*out, area, *size);
        return true;
    }
    if (info->type == OC_CONTROL_TYPE_RECT) {
        int32_t rect[4];
        unsigned width = 0, height = 0;
        int used = 0;
        if (sscanf(value, "%" SCNd32 ",%" SCNd32 ",%ux%u%n", &rect[0], &rect[1], &width, &height, &used) != 4 || value[used]) return false;
        rect[2] = (int32_t)width;
        rect[3] = (int32_t)height;
        *size = sizeof rect;
        *out = malloc(*size);
        memcpy(*out, rect, *size);
        return true;
    }
    size_t element_size = info->element_size;
    if (element_size != 1 && element_size != 2 && element_size != 4 && element_size != 8) return false;
    char *copy = strdup(value + (*value == '['));
    size_t length = strlen(copy);
    if (length > 0 && copy[length - 1] == ']') copy[length - 1] = '\0';
    size_t capacity = 16, count = 0;
    uint8_t *bytes = malloc(capacity * element_size);
    bool good = true;
    char *save = NULL;
    for (char *item = strtok_r(copy, ", ", &save); item && good; item = strtok_r(NULL, ", ", &save)) {
        int64_t number = 0;
        good = parse_control_value(item, &number);
        if (!good) break;
        if (count == capacity) bytes = realloc(bytes, (capacity *= 2) * element_size);
        uint8_t *at = bytes + count++ * element_size;
        uint8_t u8 = (uint8_t)number;
        uint16_t u16 = (uint16_t)number;
        uint32_t u32 = (uint32_t)number;
        switch (element_size) {
        case 1: memcpy(at, &u8, 1); break;
        case 2: memcpy(at, &u16, 2); break;
        case 4: memcpy(at, &u32, 4); break;
        default: memcpy(at, &number, 8); break;
        }
    }
    free(copy);
    if (!good || count == 0) { free(bytes); return false; }
    *out = bytes;
    *size = count * element_size;
    return true;
}

/* The face-driven adjustments, listed beside the controls as booleans named like them (read only:
 * they are this process's settings, which `stream --no-face-exposure`/`--no-face-focus` change). */
static const struct {
    const char *name;
    oc_face_driven_adjustment adjustment;
} face_driven[] = { { "face_driven_exposure", OC_FACE_DRIVEN_EXPOSURE }, { "face_driven_focus", OC_FACE_DRIVEN_FOCUS } };

static void face_driven_entry(oc_device *device, size_t which, json *w, strbuf *out)
{
    oc_face_driven_state state = { .struct_size = sizeof state };
    if (oc_device_get_face_driven(device, face_driven[which].adjustment, &state) != OC_OK) return;
    const char *tier = oc_face_driven_tier_name(state.tier);
    if (w) {
        json_object_begin(w);
        json_key(w, "name"); json_string(w, face_driven[which].name);
        json_key(w, "id"); json_int(w, 0);   /* Ocellus's, not the driver's */
        json_key(w, "type"); json_string(w, "bool");
        json_key(w, "minimum"); json_int(w, 0);
        json_key(w, "maximum"); json_int(w, 1);
        json_key(w, "step"); json_int(w, 1);
        json_key(w, "default"); json_int(w, 1);
        json_key(w, "value"); json_int(w, state.enabled);
        json_key(w, "flags"); json_array_begin(w); json_array_end(w);
        json_key(w, "menu"); json_array_begin(w); json_array_end(w);
        json_key(w, "enabled"); json_bool(w, state.enabled);
        json_key(w, "automatically_adjusts"); json_bool(w, state.automatically_adjusts);
        json_key(w, "tier"); json_string(w, tier);
        json_key(w, "active"); json_bool(w, state.active);
        json_object_end(w);
    } else {
        text_clear(out);
        text_printf(out, "%s (bool): value=%d%s tier=%s%s", face_driven[which].name, state.enabled,
                    state.automatically_adjusts ? " (automatic)" : "", tier, state.active ? " active" : "");
        emit(out->data);
    }
}

/* One `--set name=value`: a string, an array or area, or an integer, as the control's type says.
 * The command's status: 0, 2 for a value that does not parse, 1 for the library's refusal (said). */
static int set_control(oc_device *device, const oc_control_list *list, const char *name, const char *value)
{
    oc_control_info info = { .struct_size = sizeof info };
    bool found = false;
    for (size_t index = 0; index < oc_control_list_count(list) && !found; index++) {
        found = oc_control_list_get(list, index, &info) == OC_OK && strcmp(info.name, name) == 0;
    }
    oc_status status;
    if (found && info.type == OC_CONTROL_TYPE_STRING) {
        status = oc_device_set_control_string(device, name, value);
    } else if (found && info.has_payload) {
        uint8_t *bytes = NULL;
        size_t size = 0;
        if (!parse_payload(&info, value, &bytes, &size)) {
            return usage_error("bad value '%s' for %s (expected %s)", value, name,
                               info.type == OC_CONTROL_TYPE_AREA ? "WIDTHxHEIGHT"
                               : info.type == OC_CONTROL_TYPE_RECT ? "LEFT,TOP,WIDTHxHEIGHT" : "elements like [1,2,3]");
        }
        status = oc_device_set_control_payload(device, name, bytes, size);
        free(bytes);
    } else {
        int64_t number = 0;
        if (!parse_control_value(value, &number)) return usage_error("bad setting '%s=%s' (expected name=integer)", name, value);
        status = oc_device_set_control(device, name, number);   /* an unknown name gets the library's answer */
    }
    return status == OC_OK ? 0 : fail_last_error();
}

int command_controls(const global_options *options, arguments *a)
{
    const char *spec = args_leading_positional(a);   /* none: the system preferred camera */
    bool as_json = args_flag(a, "--json");
    const char *settings[64];
    int setting_count = args_values(a, "--set", settings, 64);
    if (args_finish(a)) return 2;
    oc_context *ctx = open_context(options);
    if (!ctx) return 1;
    oc_device *device = connected_device(ctx, spec);
    if (!device) return close_context(ctx, 1);
    oc_control_list *described = NULL;
    int status = setting_count > 0 && oc_device_copy_controls(device, &described) != OC_OK ? fail_last_error() : 0;
    for (int index = 0; index < setting_count && !status; index++) {
        const char *equals = strchr(settings[index], '=');
        if (!equals || equals == settings[index]) {
            status = usage_error("bad setting '%s' (expected name=value)", settings[index]);
            break;
        }
        char *name = strndup(settings[index], (size_t)(equals - settings[index]));
        status = set_control(device, described, name, equals + 1);
        free(name);
    }
    oc_control_list_free(described);
    if (setting_count == 0) {
        oc_control_list *list = NULL;
        if (oc_device_copy_controls(device, &list) != OC_OK) {
            oc_device_release(device);
            return close_context(ctx, fail_last_error());
        }
        strbuf out;
        text_init(&out);
        json w;
        json_start(&w, &out);
        if (as_json) json_array_begin(&w);
        for (size_t index = 0; index < oc_control_list_count(list); index++) {
            oc_control_info info = { .struct_size = sizeof info };
            if (oc_control_list_get(list, index, &info) != OC_OK) continue;
            if (as_json) {
                control_json(&w, list, index, &info);
            } else {
                control_line(list, index, &info, &out);
                emit(out.data);
            }
        }
        for (size_t which = 0; which < sizeof face_driven / sizeof face_driven[0]; which++) {
            face_driven_entry(device, which, as_json ? &w : NULL, &out);
        }
        if (as_json) {
            json_array_end(&w);
            emit(out.data);
        }
        text_free(&out);
        oc_control_list_free(list);
    }
    oc_device_release(device);
    return close_context(ctx, status);
}
