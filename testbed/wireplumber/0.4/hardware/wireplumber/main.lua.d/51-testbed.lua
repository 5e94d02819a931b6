-- Test bed on the guest's real drivers: the V4L2 and ALSA monitors on (through udev),
-- everything that needs D-Bus off.
default_access.properties["enable-flatpak-portal"] = false  -- portal-permissionstore needs D-Bus
alsa_monitor.properties["alsa.reserve"] = false             -- device reservation needs D-Bus
alsa_monitor.properties["alsa.jack-device"] = false
libcamera_monitor.enabled = false
v4l2_monitor.enabled = true
alsa_monitor.enabled = true

-- A USB gadget's own half (its V4L2 output node, its playback card) hangs off
-- platform/dummy_udc.N (as a udev path or a sysfs one): only the host side, what a real
-- machine would see, is wanted.
for _, monitor in ipairs({ v4l2_monitor, alsa_monitor }) do
  table.insert(monitor.rules, {
    matches = { { { "device.bus-path", "matches", "*dummy_udc*" } } },
    apply_properties = { ["device.disabled"] = true },
  })
end
