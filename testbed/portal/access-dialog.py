#!/usr/bin/python3
"""The one stand-in of the portal bed: the desktop's access dialog.

xdg-desktop-portal's Camera portal asks the desktop (org.freedesktop.impl.portal.Access,
AccessDialog) whether an app may use the camera; no desktop runs here, so this answers
as a user clicking would: allow, deny or cancel, read from $ACCESS_ANSWER_FILE on every
dialog (a test switches it while the bed runs). Each dialog is logged as a JSON line to
$ACCESS_LOG. Prints READY once the name is owned.
"""
import json
import os
import sys

import dbus
import dbus.service
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

NAME = "org.freedesktop.impl.portal.desktop.ocellus-test"
RESPONSES = {"allow": 0, "deny": 1, "cancel": 2}   # the impl API's response codes


def answer():
    try:
        with open(os.environ["ACCESS_ANSWER_FILE"]) as f:
            return f.read().strip() or "allow"
    except (KeyError, FileNotFoundError):
        return "allow"


class AccessDialog(dbus.service.Object):
    @dbus.service.method("org.freedesktop.impl.portal.Access", in_signature="osssssa{sv}", out_signature="ua{sv}")
    def AccessDialog(self, handle, app_id, parent_window, title, subtitle, body, options):
        given = answer()
        with open(os.environ.get("ACCESS_LOG", os.devnull), "a") as log:
            log.write(json.dumps({"app_id": str(app_id), "title": str(title), "answer": given}) + "\n")
        return dbus.UInt32(RESPONSES.get(given, 2)), dbus.Dictionary({}, signature="sv")


def main():
    DBusGMainLoop(set_as_default=True)
    bus = dbus.SessionBus()
    AccessDialog(bus, "/org/freedesktop/portal/desktop")
    name = dbus.service.BusName(NAME, bus, do_not_queue=True)
    print("READY", NAME, flush=True)
    GLib.MainLoop().run()
    del name


if __name__ == "__main__":
    sys.exit(main())
