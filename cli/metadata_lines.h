/* `stream --metadata faces,codes`: a metadata output beside the picture, each delivery a line
 * (metadata_lines.c). */
#ifndef OCELLUS_CLI_METADATA_LINES_H
#define OCELLUS_CLI_METADATA_LINES_H

#include <ocellus.h>
#include "json.h"
#include "output.h"
#include <stdbool.h>

typedef struct metadata_lines {
    oc_metadata_output *output;
    bool as_json;
    strbuf line;   /* the output thread's own, reused: no allocation per delivery once grown */
} metadata_lines;
/* The OC_METADATA_OBJECT_* named in `names` ("faces", "codes", comma-separated); false (and a
 * usage message) for an unknown name. */
bool metadata_lines_parse(const char *names, uint32_t *types);
/* Makes the output and adds it to the session; the library's error as the last error otherwise. */
oc_status metadata_lines_attach(metadata_lines *lines, oc_capture_session *session, uint32_t types, bool as_json);
/* After the session stopped: the `"metadata"` member of the stream summary; destroys the output. */
void metadata_lines_json(metadata_lines *lines, json *w);

#endif
