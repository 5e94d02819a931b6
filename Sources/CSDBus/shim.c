#include "CSDBus.h"

int csdbus_call_void(sd_bus *bus, const char *destination, const char *path, const char *interface,
                     const char *member, sd_bus_error *error)
{
    sd_bus_message *reply = NULL;
    int result = sd_bus_call_method(bus, destination, path, interface, member, error, &reply, "");
    sd_bus_message_unref(reply);
    return result;
}
