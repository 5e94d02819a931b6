# Constructed, not dumped: the RealSense D457 depth node (realsense-d457-depth) with a
# `depth_units` control (micrometres per unit; 100 = 0.1 mm), the V4L2 shape of the depth-unit
# option librealsense exposes, which no dump we have shows as a V4L2 control.
node video0 /sys/devices/platform/15c10000.vi
  driver tegra-video
  card vi-output, DS5 mux 30-0010
  bus_info platform:15c10000.vi:0
  device_caps 0x04200001
    Pixel Format: 'Z16 '
    Size: Discrete 640x480
    Interval: Discrete 0.033s (30.000 fps)
    depth_units 0x009a4010 (int)    : min=1 max=100000 step=1 default=1000 value=100
