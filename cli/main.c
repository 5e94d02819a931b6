/* `ocellus`: list and watch cameras and microphones, capture, publish a virtual camera.
 * The usage text below is the one command table: per-command help, the man pages and
 * the shell completions are all cut from it. */
#include "cli.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "usage: ocellus [--app-id ID] [--pipewire-remote PATH] [--state-dir DIR] COMMAND [options]\n"
    "\n"
    "commands:\n"
    "  list [--json]             cameras and microphones present now\n"
    "  watch [--json] [--changes-only]\n"
    "                            the devices present (each an `added` event, \"initial\": true), then\n"
    "                            devices added and removed and preferred-camera changes, until\n"
    "                            interrupted; --changes-only skips the devices present\n"
    "  preferred [--json]        the app's user preferred and system preferred cameras\n"
    "  prefer CAMERA             make a connected camera the app's user preferred camera\n"
    "  microphones [--json]      the inputs and the one the `microphone` device routes to now\n"
    "  controls [CAMERA] [--json] [--set name=value]...\n"
    "                            a camera's controls, or change them\n"
    "  rotation [CAMERA] [--host-orientation normal|left-up|bottom-up|right-up]\n"
    "           [--interface-orientation 0|90|180|270|follow] [--mirrored|--unmirrored] [--json]\n"
    "           [--watch] [--sensor-bus ADDRESS]\n"
    "                            the camera's preview and capture angles; without\n"
    "                            --host-orientation, from iio-sensor-proxy (system bus, or ADDRESS)\n"
    "  mount-rotation CAMERA 0|90|180|270\n"
    "                            set and keep an external camera's mounting correction\n"
    "  stream [CAMERA] [--format NAME] [--size WxH] [--fps N] [--frames N | --seconds S] [--json | --frame-events]\n"
    "         [--output FILE|-] [--depth]\n"
    "                            capture from a camera: live stats, or one JSON summary (--json), or a\n"
    "                            JSON line per frame then the summary (--frame-events); --output writes\n"
    "                            the frames (raw rows, or the camera's JPEGs) to FILE or stdout (-), e.g.\n"
    "                            `stream --format I420 --size 640x480 --output - | ffplay -f rawvideo\n"
    "                            -pixel_format yuv420p -video_size 640x480 -`; messages go to stderr then;\n"
    "                            --depth streams a depth camera's depth beside it (\"depth\" in the summary)\n"
    "  snap [CAMERA] -o FILE [--size WxH] [--rotate-pixels] [--host-orientation H] [--sensor-bus ADDRESS] [--json]\n"
    "       [--depth]\n"
    "                            a JPEG photo with EXIF orientation from the camera's capture angle\n"
    "                            (the host's orientation H from iio-sensor-proxy unless given); with\n"
    "                            --depth, FILE is a directory that gets a depth camera's depth map as\n"
    "                            depth.png (16-bit greyscale, the camera's units) and picture.png (RGB)\n"
    "                            of the same instant\n"
    "  record [CAMERA] -o FILE.mp4|FILE.mov [--seconds S] [--size WxH] [--audio [MIC_UNIQUE_ID]]\n"
    "         [--host-orientation H] [--sensor-bus ADDRESS] [--json]\n"
    "                            a movie (fragmented: playable up to a crash), the capture angle in\n"
    "                            the track's display matrix; until S seconds or Ctrl-C; --audio adds\n"
    "                            an AAC track (default: the camera's own microphone, else the\n"
    "                            `microphone` device, which follows the default input)\n"
    "  access [--request] [--json]\n"
    "                            whether this app may use cameras ({\"authorization\": \"not_determined\"|\n"
    "                            \"authorized\"|\"denied\"|\"restricted\", \"via\": \"portal\"|\"direct\"}); a\n"
    "                            sandboxed app goes through the camera portal, and --request asks it\n"
    "                            (the desktop's dialog, unless the answer is remembered)\n"
    "  version                   library version\n"
    "  virtual-camera [options]  publish a test-pattern camera into PipeWire until interrupted\n"
    "      --name N --desc D --formats YUY2,NV12,MJPG,H264 --sizes 640x480,1280x720 --fps 30,15\n"
    "      --prop key=value ... --device-prop key=value ... --frames N\n"
    "\n"
    "CAMERA is a unique ID, the # that `list` shows, a /dev/videoN node, or a part of the\n"
    "name only one device has; where it is optional, none means the system preferred camera.\n"    ;

/* Whether `line` starts a command's entry: two spaces, then the command. */
static bool is_command_line(const char *line, size_t length)
{
    return length > 2 && line[0] == ' ' && line[1] == ' ' && line[2] != ' ';
}

/* `ocellus COMMAND --help`: the command's lines of the usage text (up to the next command or blank
 * line), with the global options and, for commands that take a CAMERA, the note on naming one.
 * False for an unknown command. */
static bool print_command_usage(const char *command)
{
    size_t command_length = strlen(command);
    const char *start = NULL, *end = NULL;
    for (const char *line = usage; *line;) {
        const char *next = strchr(line, '\n');
        size_t length = next ? (size_t)(next - line) : strlen(line);
        if (start) {
            if (length == 0 || is_command_line(line, length)) { end = line; break; }
        } else if (is_command_line(line, length) && strncmp(line + 2, command, command_length) == 0
                   && (line[2 + command_length] == ' ' || line[2 + command_length] == '\n')) {
            start = line;
        }
        line = next ? next + 1 : line + length;
    }
    if (!start) return false;
    if (!end) end = start + strlen(start);
    printf("usage: ocellus [--app-id ID] [--pipewire-remote PATH] [--state-dir DIR] %.*s", (int)(end - start - 2), start + 2);
    const char *first_line_end = strchr(start, '\n');
    const char *note = strstr(usage, "\nCAMERA is");
    if (note && first_line_end && memmem(start, (size_t)(first_line_end - start), "CAMERA", 6)) {
        const char *note_end = strstr(note + 1, "\n\n");
        printf("%.*s", (int)((note_end ? note_end : note + strlen(note)) - note), note);
        if (note_end) printf("\n");
    }
    fflush(stdout);
    return true;
}

void parse_size(const char *text, uint32_t *width, uint32_t *height)
{
    char *end = NULL;
    unsigned long w = strtoul(text, &end, 10);
    unsigned long h = 0;
    bool good = end != text && *end == 'x';
    if (good) {
        const char *rest = end + 1;
        h = strtoul(rest, &end, 10);
        good = end != rest && *end == '\0' && w > 0 && h > 0 && w <= UINT32_MAX && h <= UINT32_MAX;
    }
    if (!good || text[0] == '-' || text[0] == '+') usage_error("bad size '%s' (expected WIDTHxHEIGHT)", text);
    *width = (uint32_t)w;
    *height = (uint32_t)h;
}

double parse_seconds(const char *text)
{
    char *end = NULL;
    double seconds = strtod(text, &end);
    /* 1e300 overflowed the wait's deadline and ended at once; under a millisecond no frame can come. */
    if (end == text || *end || !isfinite(seconds) || seconds < 0.001 || seconds > 31536000) {
        usage_error("bad duration '%s' (seconds, from 0.001 to 31536000)", text);
    }
    return seconds;
}

oc_fraction parse_rate(const char *text)
{
    char *end = NULL;
    unsigned long numerator = strtoul(text, &end, 10), denominator = 1;
    if (end == text || numerator == 0 || numerator > UINT32_MAX || text[0] == '-') usage_error("bad frame rate '%s'", text);
    if (*end == '/') {
        const char *rest = end + 1;
        denominator = strtoul(rest, &end, 10);
        if (end == rest || denominator == 0 || denominator > UINT32_MAX) usage_error("bad frame rate '%s'", text);
    }
    if (*end) usage_error("bad frame rate '%s'", text);
    return (oc_fraction){ (uint32_t)numerator, (uint32_t)denominator };
}

static const struct {
    const char *name;
    void (*run)(const global_options *, arguments *);
} commands[] = {
    { "list", command_list },
    { "access", command_access },
    { "watch", command_watch },
    { "preferred", command_preferred },
    { "prefer", command_prefer },
    { "microphones", command_microphones },
    { "controls", command_controls },
    { "rotation", command_rotation },
    { "mount-rotation", command_mount_rotation },
    { "stream", command_stream },
    { "snap", command_snap },
    { "record", command_record },
    { "virtual-camera", command_virtual_camera },
};

int main(int argc, char **argv)
{
    arguments a = { .items = argv + 1, .count = argc - 1 };
    global_options options = { .app_id = "org.ocellus.cli" };
    const char *app_id = args_value(&a, "--app-id");
    if (app_id) options.app_id = app_id;
    options.remote = args_value(&a, "--pipewire-remote");
    options.state_directory = args_value(&a, "--state-dir");
    if (args_flag(&a, "--version")) {
        printf("ocellus %s\n", oc_version());
        return 0;
    }
    bool wants_help = args_flag(&a, "--help") | args_flag(&a, "-h");
    const char *command = args_positional(&a);
    if (!command) {
        if (wants_help) { fputs(usage, stdout); return 0; }
        usage_error("no command given");
    }
    if (wants_help) {
        if (!print_command_usage(command)) usage_error("unknown command '%s'", command);
        return 0;
    }
    if (strcmp(command, "version") == 0) {
        args_finish(&a);
        printf("ocellus %s\n", oc_version());
        return 0;
    }
    if (strcmp(command, "help") == 0) {
        fputs(usage, stdout);
        return 0;
    }
    for (size_t index = 0; index < sizeof commands / sizeof commands[0]; index++) {
        if (strcmp(command, commands[index].name) == 0) {
            commands[index].run(&options, &a);
            return 0;
        }
    }
    usage_error("unknown command '%s'", command);
}
