/* The commands (one file each, named after the command); main.c dispatches to them. */
#ifndef OCELLUS_CLI_COMMANDS_H
#define OCELLUS_CLI_COMMANDS_H

#include "args.h"
#include "library.h"

/* Each returns the exit status: 0, 1 for a failure (said on stderr), 2 for bad usage. */

int command_list(const global_options *options, arguments *a);
int command_access(const global_options *options, arguments *a);
int command_watch(const global_options *options, arguments *a);
int command_preferred(const global_options *options, arguments *a);
int command_prefer(const global_options *options, arguments *a);
int command_microphones(const global_options *options, arguments *a);
int command_controls(const global_options *options, arguments *a);
int command_rotation(const global_options *options, arguments *a);
int command_mount_rotation(const global_options *options, arguments *a);
int command_stream(const global_options *options, arguments *a);
int command_snap(const global_options *options, arguments *a);
int command_record(const global_options *options, arguments *a);
int command_listen(const global_options *options, arguments *a);
int command_virtual_camera(const global_options *options, arguments *a);

#endif
