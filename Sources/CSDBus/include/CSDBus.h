/*
 * CSDBus: sd-bus (libsystemd) for Swift. sd_bus_call_method and the message
 * append/read functions are variadic, so the calls Ocellus makes with them are
 * wrapped here; everything else imports directly.
 */
#ifndef OCELLUS_CSDBUS_H
#define OCELLUS_CSDBUS_H

#include <systemd/sd-bus.h>

/* Calls a method that takes no arguments and ignores its reply; 0 or -errno. */
int csdbus_call_void(sd_bus *bus, const char *destination, const char *path, const char *interface,
                     const char *member, sd_bus_error *error);

/* Connects to the bus at `address` (a private bus in tests), else the user's session bus
 * (`user` 1: DBUS_SESSION_BUS_ADDRESS) or the system bus. 0 or -errno; `*out` is the caller's. */
int csdbus_connect(const char *address, int user, sd_bus **out);

/* A portal call that starts a request: `member(a{sv} options)` with options {"handle_token":
 * token}; copies the Request object path the reply names into `request_path`. 0 or -errno. */
int csdbus_portal_request(sd_bus *bus, const char *destination, const char *path, const char *interface,
                          const char *member, const char *token, char *request_path, size_t request_path_size,
                          sd_bus_error *error);

/* A portal call `member(a{sv} options)` (no options) that returns a file descriptor: `*fd` gets
 * a close-on-exec duplicate the caller owns. 0 or -errno. */
int csdbus_portal_open_fd(sd_bus *bus, const char *destination, const char *path, const char *interface,
                          const char *member, int *fd, sd_bus_error *error);

/* The response code of an org.freedesktop.portal.Request Response(u, a{sv}) signal. */
int csdbus_read_response(sd_bus_message *message, uint32_t *response);

#endif
