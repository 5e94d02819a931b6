# v4l2loopback "Dummy video device (0x0000)" with no producer (capture and output on one node,
# no formats yet). Source: Dumps/v4l2loopback-dummy-device-rpi-ubuntu (v4l2-ctl --all; node
# block by Dumps/dump-to-profile.py); the sysfs path is not from it.
node video0 /sys/devices/virtual/video4linux/video0
  driver v4l2 loopback
  card Dummy video device (0x0000)
  bus_info platform:v4l2loopback-000
  device_caps 0x05200003
