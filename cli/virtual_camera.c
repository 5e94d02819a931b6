/* virtual-camera: runs the test-pattern camera program installed beside the CLI. A virtual camera
 * is a PipeWire producer, not a capture client, so it is its own program (libexec/ocellus/) rather
 * than part of the capture library; this command keeps `ocellus virtual-camera` working. */
#include "args.h"
#include "commands.h"
#include "library.h"
#include "output.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* BINDIR/../libexec/ocellus/ocellus-virtual-camera, found from this program's own path
 * (build/bin and build/libexec have the same layout as an installed prefix). */
static const char *helper_path(char *buffer, size_t size)
{
    const char *override = getenv("OCELLUS_VIRTUAL_CAMERA");
    if (override && *override) return override;
    char self[PATH_MAX];
    ssize_t length = readlink("/proc/self/exe", self, sizeof self - 1);
    if (length <= 0) return NULL;
    self[length] = '\0';
    char *slash = strrchr(self, '/');
    if (!slash) return NULL;
    *slash = '\0';
    snprintf(buffer, size, "%s/../libexec/ocellus/ocellus-virtual-camera", self);
    return buffer;
}

int command_virtual_camera(const global_options *options, arguments *a)
{
    char buffer[PATH_MAX + 64];
    const char *helper = helper_path(buffer, sizeof buffer);
    if (!helper) return fail(1, "cannot find the ocellus-virtual-camera program");
    /* The arguments are the helper's (a problem taking global options is still this command's). */
    if (a->problem[0]) return usage_error("%s", a->problem);
    char **argv = calloc((size_t)a->count + 4, sizeof(char *));
    if (!argv) out_of_memory();
    int count = 0;
    argv[count++] = (char *)"ocellus-virtual-camera";
    if (options->remote) {
        argv[count++] = (char *)"--pipewire-remote";
        argv[count++] = (char *)options->remote;
    }
    for (int index = 0; index < a->count; index++) argv[count++] = a->items[index];
    argv[count] = NULL;
    execv(helper, argv);
    int status = errno == ENOENT
        ? fail(1, "%s is not installed: the virtual camera is part of the test bed (Debian: the ocellus-testbed package)", helper)
        : fail(1, "cannot run %s: %s", helper, strerror(errno));
    free(argv);
    return status;
}
