/* `stream --metadata faces,codes`: a metadata output beside the picture (metadata_lines.h). With
 * --json each delivery is one line, {"metadata": {"timestamp_ns": N, "objects": [...]}}, bounds in
 * 0...1 of the delivered picture (x, y the top-left corner); without, a line for people. */
#include "metadata_lines.h"

#include <inttypes.h>
#include <string.h>

bool metadata_lines_parse(const char *names, uint32_t *types)
{
    *types = 0;
    const char *name = names;
    while (*name) {
        size_t length = strcspn(name, ",");
        if (length == 5 && strncmp(name, "faces", 5) == 0) *types |= OC_METADATA_OBJECT_FACE;
        else if (length == 5 && strncmp(name, "codes", 5) == 0) *types |= OC_METADATA_OBJECT_CODE;
        else {
            usage_error("unknown metadata '%.*s' (known: faces, codes)", (int)length, name);
            return false;
        }
        name += length + (name[length] == ',');
    }
    if (*types == 0) usage_error("--metadata needs faces, codes or both");
    return *types != 0;
}

static void json_line(strbuf *line, uint64_t timestamp_ns, const oc_metadata_object *objects, size_t count)
{
    json w;
    json_start(&w, line);
    json_object_begin(&w);
    json_key(&w, "metadata");
    json_object_begin(&w);
    json_key(&w, "timestamp_ns"); json_int(&w, (int64_t)timestamp_ns);
    json_key(&w, "objects");
    json_array_begin(&w);
    for (size_t index = 0; index < count; index++) {
        const oc_metadata_object *object = &objects[index];
        bool face = object->type == OC_METADATA_OBJECT_FACE;
        json_object_begin(&w);
        json_key(&w, "type"); json_string(&w, face ? "face" : "code");
        if (face) {
            json_key(&w, "id"); json_int(&w, (int64_t)object->face_id);
        } else {
            json_key(&w, "symbology"); json_string(&w, object->symbology);
            json_key(&w, "text"); json_string(&w, object->text);
        }
        json_key(&w, "bounds");
        json_array_begin(&w);
        json_number(&w, object->x); json_number(&w, object->y);
        json_number(&w, object->width); json_number(&w, object->height);
        json_array_end(&w);
        json_key(&w, "confidence"); json_number(&w, object->confidence);
        json_object_end(&w);
    }
    json_array_end(&w);
    json_object_end(&w);
    json_key(&w, "event"); json_string(&w, "metadata");   /* last: after the key such lines had before */
    json_object_end(&w);
}

static void text_line(strbuf *line, const oc_metadata_object *objects, size_t count)
{
    text_printf(line, count ? "metadata:" : "metadata: nothing in view");
    for (size_t index = 0; index < count; index++) {
        const oc_metadata_object *object = &objects[index];
        if (object->type == OC_METADATA_OBJECT_FACE) text_printf(line, " face %" PRIu64, object->face_id);
        else text_printf(line, " %s \"%s\"", object->symbology, object->text);
        text_printf(line, " at %.2f,%.2f %.2fx%.2f%s", object->x, object->y, object->width, object->height, index + 1 < count ? ";" : "");
    }
}

static void on_metadata(oc_metadata_output *output, uint64_t timestamp_ns, const oc_metadata_object *objects, size_t count,
                        void *user_data)
{
    (void)output;
    metadata_lines *lines = user_data;
    text_clear(&lines->line);
    if (lines->as_json) json_line(&lines->line, timestamp_ns, objects, count);
    else text_line(&lines->line, objects, count);
    emit(lines->line.data);
}

oc_status metadata_lines_attach(metadata_lines *lines, oc_capture_session *session, uint32_t types, bool as_json)
{
    lines->as_json = as_json;
    text_init(&lines->line);
    oc_status status = oc_metadata_output_create(types, NULL, &lines->output);
    if (status == OC_OK) status = oc_metadata_output_set_callback(lines->output, on_metadata, lines);
    if (status == OC_OK) status = oc_capture_session_add_metadata_output(session, lines->output);
    return status;
}

void metadata_lines_json(metadata_lines *lines, json *w)
{
    oc_metadata_statistics counts = { .struct_size = sizeof counts };
    oc_metadata_output_get_statistics(lines->output, &counts);
    oc_metadata_output_destroy(lines->output);
    lines->output = NULL;
    json_key(w, "metadata");
    json_object_begin(w);
    json_key(w, "deliveries"); json_int(w, (int64_t)counts.deliveries);
    json_key(w, "objects"); json_int(w, (int64_t)counts.objects);
    json_key(w, "analysed_frames"); json_int(w, (int64_t)counts.analysed_frames);
    json_key(w, "dropped_frames"); json_int(w, (int64_t)counts.dropped_frames);
    json_object_end(w);
    text_free(&lines->line);
}
