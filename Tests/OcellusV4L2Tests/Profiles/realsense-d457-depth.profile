# Intel RealSense D457 depth node (MIPI/GMSL on Jetson): Z16 only, so a depth camera.
# Source: shared/device-dumps/realsense-d457-mipi-jetson (v4l2-ctl -d0 -D, --list-formats-ext).
node video0 /sys/devices/platform/15c10000.vi
  driver tegra-video
  card vi-output, DS5 mux 30-0010
  bus_info platform:15c10000.vi:0
  device_caps 0x04200001
    Pixel Format: 'Z16 '
    Size: Discrete 1280x720
    Interval: Discrete 0.200s (5.000 fps)
    Interval: Discrete 0.067s (15.000 fps)
    Interval: Discrete 0.033s (30.000 fps)
    Size: Discrete 848x480
    Interval: Discrete 0.200s (5.000 fps)
    Interval: Discrete 0.067s (15.000 fps)
    Interval: Discrete 0.033s (30.000 fps)
    Interval: Discrete 0.017s (60.000 fps)
    Interval: Discrete 0.011s (90.000 fps)
    Size: Discrete 848x100
    Interval: Discrete 0.010s (100.000 fps)
    Size: Discrete 640x480
    Interval: Discrete 0.200s (5.000 fps)
    Interval: Discrete 0.067s (15.000 fps)
    Interval: Discrete 0.033s (30.000 fps)
    Interval: Discrete 0.017s (60.000 fps)
    Interval: Discrete 0.011s (90.000 fps)
    Size: Discrete 640x360
    Interval: Discrete 0.200s (5.000 fps)
    Interval: Discrete 0.067s (15.000 fps)
    Interval: Discrete 0.033s (30.000 fps)
    Interval: Discrete 0.017s (60.000 fps)
    Interval: Discrete 0.011s (90.000 fps)
    Size: Discrete 480x270
    Interval: Discrete 0.200s (5.000 fps)
    Interval: Discrete 0.067s (15.000 fps)
    Interval: Discrete 0.033s (30.000 fps)
    Interval: Discrete 0.017s (60.000 fps)
    Interval: Discrete 0.011s (90.000 fps)
    Size: Discrete 424x240
    Interval: Discrete 0.200s (5.000 fps)
    Interval: Discrete 0.067s (15.000 fps)
    Interval: Discrete 0.033s (30.000 fps)
    Interval: Discrete 0.017s (60.000 fps)
    Interval: Discrete 0.011s (90.000 fps)
    Size: Discrete 256x144
    Interval: Discrete 0.011s (90.000 fps)
