# Arducam 1080p (0c45:6366, Microdia): MJPG and YUYV on video8, H.264 alone on video10 (a second
# UVC function of the same device), serial SN0001 (a placeholder). Source:
# Dumps/arducam-1080p-microdia-0c45-6366-h264-separate-node (node blocks by Dumps/dump-to-profile.py
# from the two -D --list-formats-ext dumps). The metadata nodes video9/video11 are not in the dump;
# the sysfs paths are not from it (the bus info usb-xhci-hcd.0-1 says port 1-1).
usb /sys/devices/platform/scb/fd500000.pcie/xhci-hcd.0/usb1/1-1
  idVendor 0c45
  idProduct 6366
  serial SN0001
  product USB 2.0 Camera
  removable removable
  speed 480
node video8 /sys/devices/platform/scb/fd500000.pcie/xhci-hcd.0/usb1/1-1/1-1:1.0
  driver uvcvideo
  card USB 2.0 Camera: USB Camera
  bus_info usb-xhci-hcd.0-1
  device_caps 0x04200001
    [0]: 'MJPG' (Motion-JPEG, compressed)
    Size: Discrete 1920x1080
    Interval: Discrete 0.033s (30.000 fps)
    Interval: Discrete 0.033s (30.000 fps)
    Size: Discrete 1280x720
    Interval: Discrete 0.033s (30.000 fps)
    Size: Discrete 640x480
    Interval: Discrete 0.033s (30.000 fps)
    Size: Discrete 320x240
    Interval: Discrete 0.033s (30.000 fps)
    Size: Discrete 1920x1080
    Interval: Discrete 0.033s (30.000 fps)
    Interval: Discrete 0.033s (30.000 fps)
    [1]: 'YUYV' (YUYV 4:2:2)
    Size: Discrete 640x480
    Interval: Discrete 0.033s (30.000 fps)
    Interval: Discrete 0.033s (30.000 fps)
    Size: Discrete 320x240
    Interval: Discrete 0.033s (30.000 fps)
    Size: Discrete 640x480
    Interval: Discrete 0.033s (30.000 fps)
    Interval: Discrete 0.033s (30.000 fps)
node video10 /sys/devices/platform/scb/fd500000.pcie/xhci-hcd.0/usb1/1-1/1-1:1.2
  driver uvcvideo
  card USB 2.0 Camera: USB Camera
  bus_info usb-xhci-hcd.0-1
  device_caps 0x04200001
    [0]: 'H264' (H.264, compressed)
    Size: Discrete 1920x1080
    Interval: Discrete 0.033s (30.000 fps)
    Interval: Discrete 0.033s (30.000 fps)
    Size: Discrete 1280x720
    Interval: Discrete 0.033s (30.000 fps)
    Size: Discrete 640x480
    Interval: Discrete 0.033s (30.000 fps)
    Size: Discrete 640x360
    Interval: Discrete 0.033s (30.000 fps)
    Size: Discrete 1920x1080
    Interval: Discrete 0.033s (30.000 fps)
    Interval: Discrete 0.033s (30.000 fps)
