#include "CSDBus.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

int csdbus_connect(const char *address, int user, sd_bus **out)
{
    *out = NULL;
    if (!address)
        return user ? sd_bus_open_user(out) : sd_bus_open_system(out);
    sd_bus *bus = NULL;
    int result = sd_bus_new(&bus);
    if (result >= 0) result = sd_bus_set_address(bus, address);
    if (result >= 0) result = sd_bus_set_bus_client(bus, 1);
    if (result >= 0) result = sd_bus_start(bus);
    if (result < 0) {
        sd_bus_unref(bus);
        return result;
    }
    *out = bus;
    return 0;
}

int csdbus_call_void(sd_bus *bus, const char *destination, const char *path, const char *interface,
                     const char *member, sd_bus_error *error)
{
    sd_bus_message *reply = NULL;
    int result = sd_bus_call_method(bus, destination, path, interface, member, error, &reply, "");
    sd_bus_message_unref(reply);
    return result;
}

/* Calls `member(a{sv} options)` with options {"handle_token": <token>} (or none when `token` is
 * NULL) and reads the reply's first value: an object path (`kind` 'o', copied into `path_out`)
 * or a file descriptor (`kind` 'h', duplicated into `*fd_out`). */
static int call_with_options(sd_bus *bus, const char *destination, const char *path, const char *interface,
                             const char *member, const char *token, char kind, char *path_out, size_t path_size,
                             int *fd_out, sd_bus_error *error, uint64_t timeout_usec)
{
    sd_bus_message *call = NULL, *reply = NULL;
    int result = sd_bus_message_new_method_call(bus, &call, destination, path, interface, member);
    if (result >= 0) result = sd_bus_message_open_container(call, 'a', "{sv}");
    if (result >= 0 && token) result = sd_bus_message_append(call, "{sv}", "handle_token", "s", token);
    if (result >= 0) result = sd_bus_message_close_container(call);
    if (result >= 0) result = sd_bus_call(bus, call, timeout_usec, error, &reply);
    if (result >= 0 && kind == 'o') {
        const char *object = NULL;
        result = sd_bus_message_read(reply, "o", &object);
        if (result >= 0 && strlen(object) >= path_size) result = -ENAMETOOLONG;
        if (result >= 0) strcpy(path_out, object);
    } else if (result >= 0 && kind == 'h') {
        int fd = -1;
        result = sd_bus_message_read(reply, "h", &fd);
        if (result >= 0) {   /* the message owns its descriptor */
            *fd_out = fcntl(fd, F_DUPFD_CLOEXEC, 3);
            if (*fd_out < 0) result = -errno;
        }
    }
    sd_bus_message_unref(reply);
    sd_bus_message_unref(call);
    return result;
}

int csdbus_portal_request(sd_bus *bus, const char *destination, const char *path, const char *interface,
                          const char *member, const char *token, char *request_path, size_t request_path_size,
                          sd_bus_error *error)
{
    return call_with_options(bus, destination, path, interface, member, token, 'o', request_path, request_path_size,
                             NULL, error, 0);
}

int csdbus_portal_open_fd(sd_bus *bus, const char *destination, const char *path, const char *interface,
                          const char *member, int *fd, sd_bus_error *error)
{
    return call_with_options(bus, destination, path, interface, member, NULL, 'h', NULL, 0, fd, error, 0);
}

int csdbus_read_response(sd_bus_message *message, uint32_t *response)
{
    return sd_bus_message_read(message, "u", response);
}
