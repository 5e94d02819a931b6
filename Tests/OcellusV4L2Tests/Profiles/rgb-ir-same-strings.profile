# Constructed from the shapes of real laptops' face-login cameras (the Dell Latitude 7420 dump's
# controls per node; the YUYV-at-an-odd-size IR functions the issue describes): one USB device,
# two UVC functions with the same iInterface string "Integrated Webcam", the infrared one
# streaming YUYV 640x360 with brightness, contrast and gain but none of the colour controls.
usb /sys/devices/pci0000:00/0000:00:14.0/usb3/3-5
  idVendor 0c45
  idProduct 6a10
  serial SN0001
  product Integrated Webcam
  removable fixed
  speed 480
attribute /sys/devices/pci0000:00/0000:00:14.0/usb3/3-5/3-5:1.0/interface Integrated Webcam
attribute /sys/devices/pci0000:00/0000:00:14.0/usb3/3-5/3-5:1.2/interface Integrated Webcam
node video0 /sys/devices/pci0000:00/0000:00:14.0/usb3/3-5/3-5:1.0
  driver uvcvideo
  card Integrated Webcam: Integrated W
  bus_info usb-0000:00:14.0-5
  device_caps 0x04200001
    [0]: 'MJPG' (Motion-JPEG, compressed)
    Size: Discrete 1280x720
    Interval: Discrete 0.033s (30.000 fps)
    Size: Discrete 640x480
    Interval: Discrete 0.033s (30.000 fps)
    [1]: 'YUYV' (YUYV 4:2:2)
    Size: Discrete 640x480
    Interval: Discrete 0.033s (30.000 fps)
    brightness 0x00980900 (int)    : min=-64 max=64 step=1 default=0 value=0
    contrast 0x00980901 (int)    : min=0 max=95 step=1 default=0 value=0
    saturation 0x00980902 (int)    : min=0 max=100 step=1 default=64 value=64
    hue 0x00980903 (int)    : min=-2000 max=2000 step=1 default=0 value=0
    white_balance_automatic 0x0098090c (bool)   : default=1 value=1
    white_balance_temperature 0x0098091a (int)    : min=2800 max=6500 step=1 default=4600 value=4600 flags=inactive
node video1 /sys/devices/pci0000:00/0000:00:14.0/usb3/3-5/3-5:1.0
  driver uvcvideo
  card Integrated Webcam: Integrated W
  bus_info usb-0000:00:14.0-5
  device_caps 0x04a00000
node video2 /sys/devices/pci0000:00/0000:00:14.0/usb3/3-5/3-5:1.2
  driver uvcvideo
  card Integrated Webcam: Integrated W
  bus_info usb-0000:00:14.0-5
  device_caps 0x04200001
    [0]: 'YUYV' (YUYV 4:2:2)
    Size: Discrete 640x360
    Interval: Discrete 0.067s (15.000 fps)
    brightness 0x00980900 (int)    : min=-64 max=64 step=1 default=0 value=0
    contrast 0x00980901 (int)    : min=0 max=95 step=1 default=0 value=0
    gain 0x00980913 (int)    : min=1 max=8 step=1 default=1 value=1
node video3 /sys/devices/pci0000:00/0000:00:14.0/usb3/3-5/3-5:1.2
  driver uvcvideo
  card Integrated Webcam: Integrated W
  bus_info usb-0000:00:14.0-5
  device_caps 0x04a00000
