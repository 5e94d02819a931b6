# Arducam ToF camera on a Raspberry Pi 4 (unicam CSI-2 receiver): a platform camera whose
# driver reports camera_orientation = External and camera_sensor_rotation = 0.
# Source: shared/device-dumps/arducam-tof-pivariety-rpi4-unicam (v4l2-ctl --all).
node video0 /sys/devices/platform/soc/fe801000.csi
  driver unicam
  card unicam
  bus_info platform:fe801000.csi
  device_caps 0x05200001
  orientation 2
  sensor_rotation 0
  [0]: 'Y12 ' (12-bit Greyscale)
    Size: Discrete 240x180
      Interval: Discrete 0.033s (30.000 fps)
