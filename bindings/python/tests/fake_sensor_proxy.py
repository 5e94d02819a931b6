"""A stand-in net.hadess.SensorProxy for tests (iio-sensor-proxy needs real IIO
hardware): owns the name on the bus given by DBUS_SESSION_BUS_ADDRESS, answers
ClaimAccelerometer, exposes AccelerometerOrientation, and emits PropertiesChanged
when a line "orientation VALUE" arrives on stdin; "quit" leaves the bus."""

import sys
import threading

import dbus
import dbus.service
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

INTERFACE = "net.hadess.SensorProxy"
PROPERTIES = "org.freedesktop.DBus.Properties"


class SensorProxy(dbus.service.Object):
    def __init__(self, bus):
        super().__init__(bus, "/net/hadess/SensorProxy")
        self.orientation = "normal"
        self.claims = 0

    @dbus.service.method(INTERFACE)
    def ClaimAccelerometer(self):
        self.claims += 1

    @dbus.service.method(INTERFACE)
    def ReleaseAccelerometer(self):
        self.claims -= 1

    @dbus.service.method(PROPERTIES, in_signature="ss", out_signature="v")
    def Get(self, interface, name):
        return self.GetAll(interface)[name]

    @dbus.service.method(PROPERTIES, in_signature="s", out_signature="a{sv}")
    def GetAll(self, interface):
        return {"AccelerometerOrientation": dbus.String(self.orientation), "HasAccelerometer": dbus.Boolean(True)}

    @dbus.service.signal(PROPERTIES, signature="sa{sv}as")
    def PropertiesChanged(self, interface, changed, invalidated):
        pass

    def set_orientation(self, value):
        self.orientation = value
        self.PropertiesChanged(INTERFACE, {"AccelerometerOrientation": dbus.String(value)}, [])


def main():
    DBusGMainLoop(set_as_default=True)
    bus = dbus.SessionBus()
    name = dbus.service.BusName(INTERFACE, bus)
    proxy = SensorProxy(bus)
    loop = GLib.MainLoop()

    def read_commands():
        for line in sys.stdin:
            words = line.split()
            if words[:1] == ["orientation"]:
                GLib.idle_add(proxy.set_orientation, words[1])
            elif words[:1] == ["quit"]:
                break
        GLib.idle_add(loop.quit)

    threading.Thread(target=read_commands, daemon=True).start()
    print("ready", flush=True)
    loop.run()
    del name


if __name__ == "__main__":
    main()
