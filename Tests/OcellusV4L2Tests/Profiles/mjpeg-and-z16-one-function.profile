# Constructed, not dumped: a USB camera whose single UVC function lists Z16 (a depth map)
# beside MJPEG, as some time-of-flight webcams do (and the gadget test's camera on the real
# uvcvideo). One node: depth and picture take turns on one stream.
usb /sys/devices/pci0000:00/0000:00:14.0/usb1/1-4
  idVendor 2bc5
  idProduct 0501
  serial TOF12345678
  product ToF Webcam
  removable removable
  speed 480
node video0 /sys/devices/pci0000:00/0000:00:14.0/usb1/1-4/1-4:1.0
  driver uvcvideo
  card ToF Webcam
  bus_info usb-0000:00:14.0-4
  device_caps 0x04200001
    [0]: 'MJPG' (Motion-JPEG, compressed)
    Size: Discrete 640x480
    Interval: Discrete 0.033s (30.000 fps)
    [1]: 'Z16 ' (16-bit Depth)
    Size: Discrete 320x240
    Interval: Discrete 0.033s (30.000 fps)
