/*
 * CSDBus: sd-bus (libsystemd) for Swift. sd_bus_call_method is variadic, so the
 * one call Ocellus makes with it is wrapped; everything else imports directly.
 */
#ifndef OCELLUS_CSDBUS_H
#define OCELLUS_CSDBUS_H

#include <systemd/sd-bus.h>

/* Calls a method that takes no arguments and ignores its reply; 0 or -errno. */
int csdbus_call_void(sd_bus *bus, const char *destination, const char *path, const char *interface,
                     const char *member, sd_bus_error *error);

#endif
