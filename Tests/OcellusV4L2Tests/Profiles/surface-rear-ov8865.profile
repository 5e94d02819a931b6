# Surface Pro 7 rear camera (ov8865 behind Intel IPU4), as its capture node would carry the
# sensor's controls as the driver reports them: camera_orientation = External (the driver's
# default, although the camera is the rear one) and camera_sensor_rotation = 180.
# Source: shared/device-dumps/surface-pro7-ipu4-ov5693-ov8865 (subdev -L, video0 -D).
node video0 /sys/devices/pci0000:00/0000:00:05.0
  driver intel-ipu4-isys
  card ipu4
  bus_info PCI:0000:00:05.0
  device_caps 0x04200001
  orientation 2
  sensor_rotation 180
  [0]: 'NV12' (Y/CbCr 4:2:0)
    Size: Discrete 1920x1080
      Interval: Discrete 0.033s (30.000 fps)
