/* controls: a camera's controls, or changes to them. */
#include "cli.h"

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
    json_key(w, "value"); if (info->has_value) json_int(w, info->value); else json_null(w);
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
    json_object_end(w);
}

static void control_line(const oc_control_list *list, size_t index, const oc_control_info *info, strbuf *out)
{
    text_clear(out);
    text_printf(out, "%s (%s): min=%" PRId64 " max=%" PRId64 " step=%" PRId64 " default=%" PRId64 " ", info->name,
                oc_control_type_name(info->type), info->minimum, info->maximum, info->step, info->default_value);
    if (info->has_value) text_printf(out, "value=%" PRId64, info->value);
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

void command_controls(const global_options *options, arguments *a)
{
    const char *spec = args_leading_positional(a);   /* none: the system preferred camera */
    bool as_json = args_flag(a, "--json");
    const char *settings[64];
    int setting_count = args_values(a, "--set", settings, 64);
    args_finish(a);
    oc_context *ctx = open_context(options);
    oc_device *device = connected_device(ctx, spec);
    for (int index = 0; index < setting_count; index++) {
        const char *equals = strchr(settings[index], '=');
        int64_t value = 0;
        if (!equals || equals == settings[index] || !parse_control_value(equals + 1, &value)) {
            oc_context_destroy(ctx);
            usage_error("bad setting '%s' (expected name=integer)", settings[index]);
        }
        char *name = strndup(settings[index], (size_t)(equals - settings[index]));
        oc_status status = oc_device_set_control(device, name, value);
        free(name);
        if (status != OC_OK) fail_last_error();
    }
    if (setting_count == 0) {
        oc_control_list *list = NULL;
        if (oc_device_copy_controls(device, &list) != OC_OK) fail_last_error();
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
        if (as_json) {
            json_array_end(&w);
            emit(out.data);
        }
        text_free(&out);
        oc_control_list_free(list);
    }
    oc_device_release(device);
    oc_context_destroy(ctx);
}
