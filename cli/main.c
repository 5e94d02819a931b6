/* `ocellus`: list and watch cameras and microphones, capture, publish a virtual camera.
 * The usage text below is the one command table: per-command help, the man pages and
 * the shell completions are all cut from it. */
#include "args.h"
#include "commands.h"
#include "library.h"
#include "output.h"
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "command_options.h"   /* generated from cli/manual.txt */

static const char usage[] =
    "usage: ocellus [--app-id ID] [--pipewire-remote PATH] [--state-dir DIR] COMMAND [options]\n"
    "\n"
    "commands:\n"
    "  list [--json]             cameras and microphones present now\n"
    "  watch [--json] [--changes-only] [--ready-fd FD]\n"
    "                            the devices present (each an `added` event, \"initial\": true), then\n"
    "                            devices added and removed and preferred-camera changes, until\n"
    "                            interrupted; --changes-only skips the devices present; --ready-fd\n"
    "                            writes \"ready\" and a newline to file descriptor FD, then closes it,\n"
    "                            once no change can be missed any more\n"
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
    "  stream [CAMERA...] [--format NAME] [--size WxH] [--fps N] [--frames N | --seconds S] [--json | --frame-events]\n"
    "         [--output FILE|-] [--depth] [--metadata faces[,codes]]\n"
    "         [--no-face-exposure] [--no-face-focus] [--center-stage] [--fit] [--synchronized]\n"
    "                            capture from a camera: live stats, or one JSON summary (--json), or a\n"
    "                            JSON line per frame then the summary (--frame-events); --output writes\n"
    "                            the frames (raw rows, or the camera's JPEGs) to FILE or stdout (-), e.g.\n"
    "                            `stream --format I420 --size 640x480 --output - | ffplay -f rawvideo\n"
    "                            -pixel_format yuv420p -video_size 640x480 -`; messages go to stderr then;\n"
    "                            --depth streams a depth camera's depth beside it (\"depth\" in the summary);\n"
    "                            --metadata prints the faces and codes seen, a line per delivery;\n"
    "                            --center-stage frames the faces in view (\"center_stage\" in the summary);\n"
    "                            several cameras stream at once, one summary for all (\"cameras\",\n"
    "                            \"hardware_cost\", \"fallbacks\"); --fit lets a camera whose bus has no room\n"
    "                            for --format run another format instead; --synchronized pairs two\n"
    "                            cameras' frames by capture time (\"pairs\", \"unmatched\")\n"
    "  snap [CAMERA] -o FILE [--size WxH] [--rotate-pixels] [--host-orientation H] [--sensor-bus ADDRESS] [--json]\n"
    "       [--depth]\n"
    "                            a JPEG photo with EXIF orientation from the camera's capture angle\n"
    "                            (the host's orientation H from iio-sensor-proxy unless given); with\n"
    "                            --depth, FILE is a directory that gets a depth camera's depth map as\n"
    "                            depth.png (16-bit greyscale, the camera's units) and picture.png (RGB)\n"
    "                            of the same instant\n"
    "  record [CAMERA] -o FILE.mp4|FILE.mov [--seconds S] [--size WxH] [--audio [MIC_UNIQUE_ID]]\n"
    "         [--microphone-mode standard|wide-spectrum|voice-isolation] [--host-orientation H]\n"
    "         [--sensor-bus ADDRESS] [--json]\n"
    "                            a movie (fragmented: playable up to a crash), the capture angle in\n"
    "                            the track's display matrix; until S seconds or Ctrl-C; --audio adds\n"
    "                            an AAC track (default: the camera's own microphone, else the\n"
    "                            `microphone` device, which follows the default input), its sound\n"
    "                            through the microphone mode (\"mode\" in the summary)\n"
    "  listen [MICROPHONE] -o FILE.wav [--mode standard|wide-spectrum|voice-isolation] [--seconds S] [--json]\n"
    "                            a microphone (default: the `microphone` device, which follows the\n"
    "                            default input) into a 32-bit float WAV file, through the mode:\n"
    "                            voice-isolation suppresses typing, clicks and noise (RNNoise, from\n"
    "                            OCELLUS_RNNOISE_LIB or librnnoise.so.0; standard runs without it,\n"
    "                            saying why); until S seconds or Ctrl-C\n"
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

/* `text` (`length` bytes) in lines of at most 80 columns, each indented by `indent`. */
static void print_wrapped(const char *text, size_t length, int indent)
{
    const int width = 80 - indent;
    while (length > 0) {
        size_t take = length;
        if (take > (size_t)width) {
            take = (size_t)width;
            while (take > 0 && text[take] != ' ') take--;
            if (take == 0) take = (size_t)width;   /* one word longer than the line */
        }
        printf("%*s%.*s\n", indent, "", (int)take, text);
        text += take;
        length -= take;
        while (length > 0 && *text == ' ') text++, length--;
    }
}

/* The options manual.txt gives `command` (the man page's OPTIONS), each flag then its text. */
static void print_command_options(const char *command)
{
    for (size_t index = 0; index < sizeof command_options / sizeof command_options[0]; index++) {
        if (strcmp(command_options[index].command, command) != 0 || !command_options[index].options[0]) continue;
        printf("\noptions:\n");
        for (const char *line = command_options[index].options; *line;) {
            const char *tab = strchr(line, '\t'), *end = strchr(line, '\n');
            printf("  %.*s\n", (int)(tab - line), line);
            print_wrapped(tab + 1, (size_t)(end - tab - 1), 6);
            line = end + 1;
        }
    }
}

/* `ocellus COMMAND --help` and `ocellus help COMMAND`: the command's lines of the usage text (up
 * to the next command or blank line) with the global options, for commands that take a CAMERA
 * the note on naming one, then the command's options as its man page gives them. False for an
 * unknown command. */
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
    print_command_options(command);
    fflush(stdout);
    return true;
}

static const struct {
    const char *name;
    int (*run)(const global_options *, arguments *);
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
    { "listen", command_listen },
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
        return usage_error("no command given");
    }
    if (wants_help) {
        return print_command_usage(command) ? 0 : usage_error("unknown command '%s'", command);
    }
    if (strcmp(command, "version") == 0) {
        if (args_finish(&a)) return 2;
        printf("ocellus %s\n", oc_version());
        return 0;
    }
    if (strcmp(command, "help") == 0) {   /* `ocellus help [COMMAND]` */
        const char *topic = args_positional(&a);
        if (args_finish(&a)) return 2;
        if (!topic) {
            fputs(usage, stdout);
            return 0;
        }
        return print_command_usage(topic) ? 0 : usage_error("unknown command '%s'", topic);
    }
    for (size_t index = 0; index < sizeof commands / sizeof commands[0]; index++) {
        if (strcmp(command, commands[index].name) == 0) {
            return commands[index].run(&options, &a);
        }
    }
    return usage_error("unknown command '%s'", command);
}
