/*
 * CPipeWire: the parts of libpipewire/SPA that Swift cannot import — method
 * macros (pw_registry_add_listener, pw_node_enum_params, …), the variadic SPA
 * pod builder/parser macros, and SPA interface tables. Each symbol is a plain
 * function over the real library; no logic lives here beyond pod (de)coding.
 * A shim goes away when PipeWire exports it as a real function.
 */
#ifndef OCELLUS_CPIPEWIRE_H
#define OCELLUS_CPIPEWIRE_H

#include <pipewire/pipewire.h>
#include <spa/param/props.h>
#include <spa/param/video/format-utils.h>
#include <spa/param/audio/format-utils.h>
#include <spa/buffer/meta.h>
#include <pipewire/extensions/metadata.h>

/* ---- method macros ---- */
void ocpw_core_add_listener(struct pw_core *core, struct spa_hook *hook,
                            const struct pw_core_events *events, void *data);
int ocpw_core_sync(struct pw_core *core, uint32_t id, int seq);
void ocpw_registry_add_listener(struct pw_registry *registry, struct spa_hook *hook,
                                const struct pw_registry_events *events, void *data);
void ocpw_node_add_listener(struct pw_node *node, struct spa_hook *hook,
                            const struct pw_node_events *events, void *data);
int ocpw_node_enum_params(struct pw_node *node, int seq, uint32_t id, uint32_t start,
                          uint32_t num, const struct spa_pod *filter);
void ocpw_device_add_listener(struct pw_device *device, struct spa_hook *hook,
                              const struct pw_device_events *events, void *data);
void ocpw_metadata_add_listener(struct pw_metadata *metadata, struct spa_hook *hook,
                                const struct pw_metadata_events *events, void *data);
/* The string `key` of a JSON object such as default.audio.source's {"name":"…"},
 * copied into `out`; returns its length, or -1 when absent or not a string. */
int ocpw_json_object_string(const char *json, const char *key, char *out, size_t size);
int ocpw_stream_set_error(struct pw_stream *stream, int res, const char *message);
const char *ocpw_dict_lookup(const struct spa_dict *dict, const char *key);

/* ---- loop utilities (macros in spa/support/loop.h) ---- */
typedef void (*ocpw_timer_func)(void *data, uint64_t expirations);
typedef void (*ocpw_signal_func)(void *data, int signal_number);
struct spa_source *ocpw_loop_add_timer(struct pw_loop *loop, ocpw_timer_func func, void *data);
/* interval_ns 0 disarms the timer; otherwise it fires at once and then every interval_ns. */
int ocpw_loop_update_timer(struct pw_loop *loop, struct spa_source *timer, uint64_t interval_ns);
struct spa_source *ocpw_loop_add_signal(struct pw_loop *loop, int signal_number,
                                        ocpw_signal_func func, void *data);
/* Returns once `loop` has run everything other threads queued for it before the call
 * (a blocking no-op invoke). For a pw_thread_loop, call from another thread holding its
 * lock once (not recursively): the loop's hooks release it while waiting. */
int ocpw_loop_flush(struct pw_loop *loop);

/* ---- controls: PropInfo and Props (what spa-v4l2 and spa-libcamera publish) ---- */
#define OCPW_MAX_LABELS 32

enum ocpw_prop_kind { OCPW_PROP_UNSUPPORTED = 0, OCPW_PROP_INT = 1, OCPW_PROP_BOOL = 2, OCPW_PROP_MENU = 3 };

/* A PropInfo param flattened: an integer (range or steps), a boolean, or a menu
 * of labelled integers; anything else (strings, the device path) is UNSUPPORTED. */
struct ocpw_prop_info {
    uint32_t id;             /* the Props key: SPA_PROP_brightness, SPA_PROP_START_CUSTOM + V4L2 id, ... */
    uint32_t kind;           /* enum ocpw_prop_kind */
    char description[64];
    int32_t default_value, minimum, maximum, step;
    uint32_t n_labels;
    int32_t label_values[OCPW_MAX_LABELS];
    char labels[OCPW_MAX_LABELS][48];
};

/* Returns 0, or -EINVAL when `param` is not a PropInfo object. */
int ocpw_parse_prop_info(const struct spa_pod *param, struct ocpw_prop_info *out);

/* The Int and Bool values of a Props object: up to `max` (key, value) pairs; their count. */
uint32_t ocpw_parse_props(const struct spa_pod *param, uint32_t *keys, int32_t *values, uint32_t max);

/* A Props object setting one key to an Int (or, for `is_bool`, a Bool) in `buffer`. */
const struct spa_pod *ocpw_build_prop(uint8_t *buffer, uint32_t size, uint32_t key, int32_t value, int is_bool);

/* pw_node_set_param (a macro). */
int ocpw_node_set_param(struct pw_node *node, uint32_t id, uint32_t flags, const struct spa_pod *param);

/* ---- video format pods ---- */
#define OCPW_MAX_VALUES 32

/* RANGE: three values, the producer's default, the minimum and the maximum. */
enum ocpw_choice { OCPW_CHOICE_NONE = 0, OCPW_CHOICE_ENUM = 1, OCPW_CHOICE_RANGE = 2 };

/* A video EnumFormat/Format param flattened. Lists hold the alternatives
 * (the "default" entry of an enum choice is not repeated); for a range choice
 * they hold {min, max}. */
struct ocpw_video_format {
    uint32_t media_type;     /* SPA_MEDIA_TYPE_* */
    uint32_t media_subtype;  /* SPA_MEDIA_SUBTYPE_* */
    uint32_t n_formats;      /* raw only: SPA_VIDEO_FORMAT_* values */
    uint32_t formats[OCPW_MAX_VALUES];
    uint32_t size_choice;    /* enum ocpw_choice */
    uint32_t n_sizes;
    struct spa_rectangle sizes[OCPW_MAX_VALUES];
    uint32_t rate_choice;    /* enum ocpw_choice */
    uint32_t n_rates;
    struct spa_fraction rates[OCPW_MAX_VALUES];
};

/* Returns 0, or -EINVAL when `param` is not a video format object. */
int ocpw_parse_video_format(const struct spa_pod *param, struct ocpw_video_format *out);

/* Builds an EnumFormat object for one (subtype, format, size) with an enum of
 * frame rates (rates[0] is the default). Returns NULL when `buffer` is too small. */
const struct spa_pod *ocpw_build_video_enum_format(uint8_t *buffer, uint32_t size,
        uint32_t media_subtype, uint32_t video_format, uint32_t width, uint32_t height,
        const struct spa_fraction *rates, uint32_t n_rates);
/* An EnumFormat for interleaved 32-bit float PCM at `rate` with `channels` (the adapter converts to it). */
/* The rate and channel count a raw audio EnumFormat offers first (its fixed value, or a
 * choice's default): what the node sends when nothing asks otherwise. 0, or -EINVAL. */
int ocpw_parse_audio_format(const struct spa_pod *param, uint32_t *rate, uint32_t *channels);
const struct spa_pod *ocpw_build_audio_format(uint8_t *buffer, uint32_t size, uint32_t rate, uint32_t channels);
/* Buffers param: count range, one block of `frame_size` bytes with `stride`, memfd or memptr. */
const struct spa_pod *ocpw_build_buffers_param(uint8_t *buffer, uint32_t size,
        uint32_t frame_size, uint32_t stride);
/* Meta param asking for SPA_META_Header. */
const struct spa_pod *ocpw_build_meta_header_param(uint8_t *buffer, uint32_t size);
struct spa_meta_header *ocpw_buffer_find_header(struct spa_buffer *buffer);

/* ---- a Device object that only carries properties (like a camera's udev device) ---- */
struct ocpw_props_device;
typedef void (*ocpw_bound_func)(void *data, uint32_t global_id);
/* Exports a device with `props` on `core`; `bound` is called with its global id. */
struct ocpw_props_device *ocpw_props_device_export(struct pw_core *core, const struct spa_dict *props,
                                                   ocpw_bound_func bound, void *data);
void ocpw_props_device_destroy(struct ocpw_props_device *device);

#endif
