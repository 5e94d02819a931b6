/* The commands (one file each, named after the command); main.c dispatches to them. */
#ifndef OCELLUS_CLI_COMMANDS_H
#define OCELLUS_CLI_COMMANDS_H

#include "args.h"
#include "library.h"

void command_list(const global_options *options, arguments *a);
void command_access(const global_options *options, arguments *a);
void command_watch(const global_options *options, arguments *a);
void command_preferred(const global_options *options, arguments *a);
void command_prefer(const global_options *options, arguments *a);
void command_microphones(const global_options *options, arguments *a);
void command_controls(const global_options *options, arguments *a);
void command_rotation(const global_options *options, arguments *a);
void command_mount_rotation(const global_options *options, arguments *a);
void command_stream(const global_options *options, arguments *a);
void command_snap(const global_options *options, arguments *a);
void command_record(const global_options *options, arguments *a);
void command_virtual_camera(const global_options *options, arguments *a);

#endif
