#include "CPipeWire.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spa/monitor/device.h>
#include <spa/monitor/utils.h>
#include <spa/pod/builder.h>
#include <spa/pod/parser.h>
#include <spa/param/props.h>
#include <spa/utils/json.h>

void ocpw_core_add_listener(struct pw_core *core, struct spa_hook *hook,
                            const struct pw_core_events *events, void *data)
{
    pw_core_add_listener(core, hook, events, data);
}

int ocpw_core_sync(struct pw_core *core, uint32_t id, int seq)
{
    return pw_core_sync(core, id, seq);
}

void ocpw_registry_add_listener(struct pw_registry *registry, struct spa_hook *hook,
                                const struct pw_registry_events *events, void *data)
{
    pw_registry_add_listener(registry, hook, events, data);
}

void ocpw_node_add_listener(struct pw_node *node, struct spa_hook *hook,
                            const struct pw_node_events *events, void *data)
{
    pw_node_add_listener(node, hook, events, data);
}

int ocpw_node_enum_params(struct pw_node *node, int seq, uint32_t id, uint32_t start,
                          uint32_t num, const struct spa_pod *filter)
{
    return pw_node_enum_params(node, seq, id, start, num, filter);
}

void ocpw_device_add_listener(struct pw_device *device, struct spa_hook *hook,
                              const struct pw_device_events *events, void *data)
{
    pw_device_add_listener(device, hook, events, data);
}

void ocpw_metadata_add_listener(struct pw_metadata *metadata, struct spa_hook *hook,
                                const struct pw_metadata_events *events, void *data)
{
    pw_metadata_add_listener(metadata, hook, events, data);
}

int ocpw_json_object_string(const char *json, const char *key, char *out, size_t size)
{
    struct spa_json it[2];
    char name[256];
    const char *value;
    int len;

    if (json == NULL || size == 0)
        return -1;
    spa_json_init(&it[0], json, strlen(json));
    if (spa_json_enter_object(&it[0], &it[1]) <= 0)
        return -1;
    while (spa_json_get_string(&it[1], name, sizeof(name)) > 0) {
        if (strcmp(name, key) != 0) {
            if ((len = spa_json_next(&it[1], &value)) <= 0)
                return -1;
            continue;
        }
        return spa_json_get_string(&it[1], out, (int)size) > 0 ? (int)strlen(out) : -1;
    }
    return -1;
}

int ocpw_stream_set_error(struct pw_stream *stream, int res, const char *message)
{
    return pw_stream_set_error(stream, res, "%s", message);
}

const char *ocpw_dict_lookup(const struct spa_dict *dict, const char *key)
{
    return dict ? spa_dict_lookup(dict, key) : NULL;
}

struct spa_source *ocpw_loop_add_timer(struct pw_loop *loop, ocpw_timer_func func, void *data)
{
    return pw_loop_add_timer(loop, func, data);
}

static int flush_nothing(struct spa_loop *loop, bool async, uint32_t seq, const void *data, size_t size, void *user_data)
{
    (void)loop; (void)async; (void)seq; (void)data; (void)size; (void)user_data;
    return 0;
}

int ocpw_loop_flush(struct pw_loop *loop)
{
    /* Invokes run in the order queued, so this one's return means the earlier ones ran. */
    return pw_loop_invoke(loop, flush_nothing, 0, NULL, 0, true, NULL);
}

int ocpw_loop_update_timer(struct pw_loop *loop, struct spa_source *timer, uint64_t interval_ns)
{
    struct timespec value = { 0, interval_ns ? 1 : 0 };
    struct timespec interval = { (time_t)(interval_ns / SPA_NSEC_PER_SEC),
                                 (long)(interval_ns % SPA_NSEC_PER_SEC) };
    return pw_loop_update_timer(loop, timer, &value, &interval, false);
}

struct spa_source *ocpw_loop_add_signal(struct pw_loop *loop, int signal_number,
                                        ocpw_signal_func func, void *data)
{
    return pw_loop_add_signal(loop, signal_number, func, data);
}

/* Copies the alternatives of a (possibly choice) property value into `out`. */
static uint32_t collect_values(const struct spa_pod *value, uint32_t want_type, size_t elem_size,
                               void *out, uint32_t max, uint32_t *choice)
{
    uint32_t n_values = 0, kind = SPA_CHOICE_None, first = 0, count;
    const struct spa_pod *pod = spa_pod_get_values(value, &n_values, &kind);
    const uint8_t *values = SPA_POD_BODY_CONST(pod);

    if (pod->type != want_type || n_values == 0)
        return 0;
    switch (kind) {
    case SPA_CHOICE_None:
        *choice = OCPW_CHOICE_NONE;
        break;
    case SPA_CHOICE_Enum:
        *choice = OCPW_CHOICE_ENUM;
        first = n_values > 1 ? 1 : 0;   /* values[0] is the default, repeated among the rest */
        break;
    case SPA_CHOICE_Range:
    case SPA_CHOICE_Step:
        /* default, min, max[, step]: the first three, the producer's default first */
        if (n_values < 3)
            return 0;
        *choice = OCPW_CHOICE_RANGE;
        n_values = 3;
        break;
    default:
        return 0;
    }
    count = n_values - first;
    if (count > max)
        count = max;
    memcpy(out, values + (size_t)first * elem_size, (size_t)count * elem_size);
    return count;
}

/* SPA's inline parsers trust the sizes inside a pod (pods come from the daemon): a choice whose
 * child claims more bytes than the choice holds is read past its end (found by `make fuzz`).
 * Every property's value is checked first. */
static int values_are_sane(const struct spa_pod *param)
{
    const struct spa_pod_prop *prop;

    SPA_POD_OBJECT_FOREACH((const struct spa_pod_object *)param, prop) {
        const struct spa_pod *value = &prop->value;
        if (value->type != SPA_TYPE_Choice)
            continue;
        if (value->size < sizeof(struct spa_pod_choice_body))
            return 0;
        const struct spa_pod *child = &((const struct spa_pod_choice *)value)->body.child;
        if (child->size == 0 || child->size > value->size - sizeof(struct spa_pod_choice_body))
            return 0;
    }
    return 1;
}

int ocpw_parse_video_format(const struct spa_pod *param, struct ocpw_video_format *out)
{
    const struct spa_pod_prop *prop;
    uint32_t ignored;

    memset(out, 0, sizeof(*out));
    if (param == NULL || !spa_pod_is_object_type(param, SPA_TYPE_OBJECT_Format) || !values_are_sane(param))
        return -EINVAL;
    if (spa_format_parse(param, &out->media_type, &out->media_subtype) < 0)
        return -EINVAL;
    if (out->media_type != SPA_MEDIA_TYPE_video)
        return -EINVAL;
    if ((prop = spa_pod_find_prop(param, NULL, SPA_FORMAT_VIDEO_format)))
        out->n_formats = collect_values(&prop->value, SPA_TYPE_Id, sizeof(uint32_t),
                                        out->formats, OCPW_MAX_VALUES, &ignored);
    if ((prop = spa_pod_find_prop(param, NULL, SPA_FORMAT_VIDEO_size)))
        out->n_sizes = collect_values(&prop->value, SPA_TYPE_Rectangle, sizeof(struct spa_rectangle),
                                      out->sizes, OCPW_MAX_VALUES, &out->size_choice);
    if ((prop = spa_pod_find_prop(param, NULL, SPA_FORMAT_VIDEO_framerate)))
        out->n_rates = collect_values(&prop->value, SPA_TYPE_Fraction, sizeof(struct spa_fraction),
                                      out->rates, OCPW_MAX_VALUES, &out->rate_choice);
    return 0;
}

/* An Int property's fixed value, or its default when it is a choice (range or enum). */
static int default_int(const struct spa_pod *param, uint32_t key, uint32_t *out)
{
    const struct spa_pod_prop *prop = spa_pod_find_prop(param, NULL, key);
    uint32_t n_values = 0, kind = SPA_CHOICE_None;
    const struct spa_pod *pod;

    if (prop == NULL)
        return -ENOENT;
    pod = spa_pod_get_values(&prop->value, &n_values, &kind);
    if (pod->type != SPA_TYPE_Int || n_values == 0 || *(const int32_t *)SPA_POD_BODY_CONST(pod) <= 0)
        return -EINVAL;
    *out = (uint32_t)*(const int32_t *)SPA_POD_BODY_CONST(pod);
    return 0;
}

int ocpw_parse_audio_format(const struct spa_pod *param, uint32_t *rate, uint32_t *channels)
{
    uint32_t media_type, media_subtype;

    if (param == NULL || !spa_pod_is_object_type(param, SPA_TYPE_OBJECT_Format) || !values_are_sane(param))
        return -EINVAL;
    if (spa_format_parse(param, &media_type, &media_subtype) < 0 || media_type != SPA_MEDIA_TYPE_audio
        || media_subtype != SPA_MEDIA_SUBTYPE_raw)
        return -EINVAL;
    if (default_int(param, SPA_FORMAT_AUDIO_rate, rate) < 0 || default_int(param, SPA_FORMAT_AUDIO_channels, channels) < 0)
        return -EINVAL;
    return 0;
}

const struct spa_pod *ocpw_build_video_enum_format(uint8_t *buffer, uint32_t size,
        uint32_t media_subtype, uint32_t video_format, uint32_t width, uint32_t height,
        const struct spa_fraction *rates, uint32_t n_rates)
{
    struct spa_pod_builder b = SPA_POD_BUILDER_INIT(buffer, size);
    struct spa_pod_frame f[2];
    struct spa_rectangle dimensions = SPA_RECTANGLE(width, height);

    spa_pod_builder_push_object(&b, &f[0], SPA_TYPE_OBJECT_Format, SPA_PARAM_EnumFormat);
    spa_pod_builder_add(&b,
        SPA_FORMAT_mediaType, SPA_POD_Id(SPA_MEDIA_TYPE_video),
        SPA_FORMAT_mediaSubtype, SPA_POD_Id(media_subtype), 0);
    if (media_subtype == SPA_MEDIA_SUBTYPE_raw)
        spa_pod_builder_add(&b, SPA_FORMAT_VIDEO_format, SPA_POD_Id(video_format), 0);
    spa_pod_builder_add(&b, SPA_FORMAT_VIDEO_size, SPA_POD_Rectangle(&dimensions), 0);
    spa_pod_builder_prop(&b, SPA_FORMAT_VIDEO_framerate, 0);
    spa_pod_builder_push_choice(&b, &f[1], n_rates > 1 ? SPA_CHOICE_Enum : SPA_CHOICE_None, 0);
    spa_pod_builder_fraction(&b, rates[0].num, rates[0].denom);
    for (uint32_t i = 0; n_rates > 1 && i < n_rates; i++)
        spa_pod_builder_fraction(&b, rates[i].num, rates[i].denom);
    spa_pod_builder_pop(&b, &f[1]);
    return spa_pod_builder_pop(&b, &f[0]);
}

const struct spa_pod *ocpw_build_audio_format(uint8_t *buffer, uint32_t size, uint32_t rate, uint32_t channels)
{
    struct spa_pod_builder b = SPA_POD_BUILDER_INIT(buffer, size);
    struct spa_audio_info_raw info = { .format = SPA_AUDIO_FORMAT_F32, .rate = rate, .channels = channels };
    if (channels == 1) info.position[0] = SPA_AUDIO_CHANNEL_MONO;
    if (channels == 2) { info.position[0] = SPA_AUDIO_CHANNEL_FL; info.position[1] = SPA_AUDIO_CHANNEL_FR; }
    return spa_format_audio_raw_build(&b, SPA_PARAM_EnumFormat, &info);
}

const struct spa_pod *ocpw_build_buffers_param(uint8_t *buffer, uint32_t size,
        uint32_t frame_size, uint32_t stride)
{
    struct spa_pod_builder b = SPA_POD_BUILDER_INIT(buffer, size);
    return spa_pod_builder_add_object(&b,
        SPA_TYPE_OBJECT_ParamBuffers, SPA_PARAM_Buffers,
        SPA_PARAM_BUFFERS_buffers, SPA_POD_CHOICE_RANGE_Int(4, 2, 16),
        SPA_PARAM_BUFFERS_blocks, SPA_POD_Int(1),
        SPA_PARAM_BUFFERS_size, SPA_POD_Int(frame_size),
        SPA_PARAM_BUFFERS_stride, SPA_POD_Int(stride),
        SPA_PARAM_BUFFERS_dataType, SPA_POD_CHOICE_FLAGS_Int((1 << SPA_DATA_MemFd) | (1 << SPA_DATA_MemPtr)));
}

const struct spa_pod *ocpw_build_meta_header_param(uint8_t *buffer, uint32_t size)
{
    struct spa_pod_builder b = SPA_POD_BUILDER_INIT(buffer, size);
    return spa_pod_builder_add_object(&b,
        SPA_TYPE_OBJECT_ParamMeta, SPA_PARAM_Meta,
        SPA_PARAM_META_type, SPA_POD_Id(SPA_META_Header),
        SPA_PARAM_META_size, SPA_POD_Int(sizeof(struct spa_meta_header)));
}

struct spa_meta_header *ocpw_buffer_find_header(struct spa_buffer *buffer)
{
    return spa_buffer_find_meta_data(buffer, SPA_META_Header, sizeof(struct spa_meta_header));
}

/* A spa_device that only has properties: what the props of a camera's udev
 * device look like in the graph. It has no params and creates no objects. */
struct ocpw_props_device {
    struct spa_device device;
    struct spa_hook_list hooks;
    struct pw_properties *props;
    struct pw_proxy *proxy;
    struct spa_hook proxy_listener;
    ocpw_bound_func bound;
    void *data;
};

static int props_device_add_listener(void *object, struct spa_hook *listener,
                                     const struct spa_device_events *events, void *data)
{
    struct ocpw_props_device *d = object;
    struct spa_hook_list save;
    struct spa_device_info info = SPA_DEVICE_INFO_INIT();

    spa_hook_list_isolate(&d->hooks, &save, listener, events, data);
    info.change_mask = SPA_DEVICE_CHANGE_MASK_PROPS;
    info.props = &d->props->dict;
    spa_device_emit_info(&d->hooks, &info);
    spa_hook_list_join(&d->hooks, &save);
    return 0;
}

static int props_device_sync(void *object, int seq)
{
    struct ocpw_props_device *d = object;
    spa_device_emit_result(&d->hooks, seq, 0, 0, NULL);
    return 0;
}

static int props_device_enum_params(void *object, int seq, uint32_t id, uint32_t index,
                                    uint32_t max, const struct spa_pod *filter)
{
    return -ENOTSUP;
}

static int props_device_set_param(void *object, uint32_t id, uint32_t flags, const struct spa_pod *param)
{
    return -ENOTSUP;
}

static const struct spa_device_methods props_device_methods = {
    SPA_VERSION_DEVICE_METHODS,
    .add_listener = props_device_add_listener,
    .sync = props_device_sync,
    .enum_params = props_device_enum_params,
    .set_param = props_device_set_param,
};

static void props_device_bound(void *data, uint32_t global_id)
{
    struct ocpw_props_device *d = data;
    if (d->bound)
        d->bound(d->data, global_id);
}

static const struct pw_proxy_events props_device_proxy_events = {
    PW_VERSION_PROXY_EVENTS,
    .bound = props_device_bound,
};

struct ocpw_props_device *ocpw_props_device_export(struct pw_core *core, const struct spa_dict *props,
                                                   ocpw_bound_func bound, void *data)
{
    struct ocpw_props_device *d = calloc(1, sizeof(*d));
    if (d == NULL)
        return NULL;
    d->props = pw_properties_new_dict(props);
    d->bound = bound;
    d->data = data;
    spa_hook_list_init(&d->hooks);
    d->device.iface = SPA_INTERFACE_INIT(SPA_TYPE_INTERFACE_Device, SPA_VERSION_DEVICE,
                                         &props_device_methods, d);
    d->proxy = pw_core_export(core, SPA_TYPE_INTERFACE_Device, &d->props->dict, &d->device, 0);
    if (d->proxy == NULL) {
        pw_properties_free(d->props);
        free(d);
        return NULL;
    }
    pw_proxy_add_listener(d->proxy, &d->proxy_listener, &props_device_proxy_events, d);
    return d;
}

void ocpw_props_device_destroy(struct ocpw_props_device *d)
{
    if (d == NULL)
        return;
    spa_hook_remove(&d->proxy_listener);
    pw_proxy_destroy(d->proxy);
    pw_properties_free(d->props);
    free(d);
}

int ocpw_parse_prop_info(const struct spa_pod *param, struct ocpw_prop_info *out)
{
    const struct spa_pod_prop *prop;

    memset(out, 0, sizeof(*out));
    if (param == NULL || !spa_pod_is_object_type(param, SPA_TYPE_OBJECT_PropInfo) || !values_are_sane(param))
        return -EINVAL;
    if ((prop = spa_pod_find_prop(param, NULL, SPA_PROP_INFO_id)) == NULL || spa_pod_get_id(&prop->value, &out->id) < 0)
        return -EINVAL;
    if ((prop = spa_pod_find_prop(param, NULL, SPA_PROP_INFO_description))) {
        const char *text = NULL;
        if (spa_pod_get_string(&prop->value, &text) == 0 && text)
            snprintf(out->description, sizeof(out->description), "%s", text);
    }
    if ((prop = spa_pod_find_prop(param, NULL, SPA_PROP_INFO_type)) == NULL)
        return 0;
    uint32_t n_values = 0, choice = SPA_CHOICE_None;
    const struct spa_pod *values = spa_pod_get_values(&prop->value, &n_values, &choice);
    if (n_values == 0)
        return 0;
    if (values->type == SPA_TYPE_Bool) {
        out->kind = OCPW_PROP_BOOL;
        out->default_value = *(const int32_t *)SPA_POD_BODY_CONST(values) ? 1 : 0;
        out->minimum = 0;
        out->maximum = 1;
        out->step = 1;
        return 0;
    }
    if (values->type != SPA_TYPE_Int)
        return 0;
    const int32_t *ints = SPA_POD_BODY_CONST(values);
    out->default_value = ints[0];
    out->step = 1;
    if ((choice == SPA_CHOICE_Range || choice == SPA_CHOICE_Step) && n_values >= 3) {
        out->kind = OCPW_PROP_INT;
        out->minimum = ints[1];
        out->maximum = ints[2];
        if (choice == SPA_CHOICE_Step && n_values >= 4 && ints[3] > 0)
            out->step = ints[3];
    } else if (choice == SPA_CHOICE_None) {
        out->kind = OCPW_PROP_INT;
        out->minimum = out->maximum = ints[0];
    } else {
        out->kind = OCPW_PROP_MENU;
    }
    /* A menu's items: a Struct of (Int value, String label) pairs. */
    if ((prop = spa_pod_find_prop(param, NULL, SPA_PROP_INFO_labels)) && spa_pod_is_struct(&prop->value)) {
        struct spa_pod_parser parser;
        struct spa_pod_frame frame;
        spa_pod_parser_pod(&parser, &prop->value);
        if (spa_pod_parser_push_struct(&parser, &frame) == 0) {
            int32_t value;
            const char *label;
            while (out->n_labels < OCPW_MAX_LABELS && spa_pod_parser_get_int(&parser, &value) == 0
                   && spa_pod_parser_get_string(&parser, &label) == 0) {
                out->label_values[out->n_labels] = value;
                snprintf(out->labels[out->n_labels], sizeof(out->labels[0]), "%s", label);
                if (out->n_labels == 0 || value < out->minimum) out->minimum = value;
                if (out->n_labels == 0 || value > out->maximum) out->maximum = value;
                out->n_labels++;
            }
        }
        if (out->n_labels > 0)
            out->kind = OCPW_PROP_MENU;
    }
    return 0;
}

uint32_t ocpw_parse_props(const struct spa_pod *param, uint32_t *keys, int32_t *values, uint32_t max)
{
    const struct spa_pod_prop *prop;
    uint32_t count = 0;

    if (param == NULL || !spa_pod_is_object_type(param, SPA_TYPE_OBJECT_Props) || !values_are_sane(param))
        return 0;
    SPA_POD_OBJECT_FOREACH((const struct spa_pod_object *)param, prop) {
        if (count == max)
            break;
        int32_t number;
        bool flag;
        if (spa_pod_get_int(&prop->value, &number) == 0) {
            values[count] = number;
        } else if (spa_pod_get_bool(&prop->value, &flag) == 0) {
            values[count] = flag ? 1 : 0;
        } else {
            continue;
        }
        keys[count++] = prop->key;
    }
    return count;
}

const struct spa_pod *ocpw_build_prop(uint8_t *buffer, uint32_t size, uint32_t key, int32_t value, int is_bool)
{
    struct spa_pod_builder b = SPA_POD_BUILDER_INIT(buffer, size);
    struct spa_pod_frame f;

    spa_pod_builder_push_object(&b, &f, SPA_TYPE_OBJECT_Props, SPA_PARAM_Props);
    spa_pod_builder_prop(&b, key, 0);
    if (is_bool)
        spa_pod_builder_bool(&b, value != 0);
    else
        spa_pod_builder_int(&b, value);
    return spa_pod_builder_pop(&b, &f);
}

int ocpw_node_set_param(struct pw_node *node, uint32_t id, uint32_t flags, const struct spa_pod *param)
{
    return pw_node_set_param(node, id, flags, param);
}
