# Dell Latitude 7420 Integrated_Webcam_FHD (1bcf:2ba0): an RGB node, an infrared GREY node for
# face login, and two UVC metadata nodes, all on one USB device with the placeholder serial
# 01.00.00. Source: shared/device-dumps/dell-latitude-7420-rgb-ir-1bcf-2ba0-kernel-7.0 (per-node
# caps and formats, lsusb -v). `removable fixed` is what a laptop's internal port reports.
usb /sys/devices/pci0000:00/0000:00:14.0/usb3/3-6
  idVendor 1bcf
  idProduct 2ba0
  serial 01.00.00
  product Integrated_Webcam_FHD
  removable fixed
  speed 480
node video0 /sys/devices/pci0000:00/0000:00:14.0/usb3/3-6/3-6:1.0
  driver uvcvideo
  card Integrated_Webcam_FHD: Integrat
  bus_info usb-0000:00:14.0-6
  device_caps 0x04200001
    [0]: 'MJPG' (Motion-JPEG, compressed)
    Size: Discrete 1920x1080
    Interval: Discrete 0.033s (30.000 fps)
    Size: Discrete 1280x960
    Interval: Discrete 0.033s (30.000 fps)
    Size: Discrete 1280x720
    Interval: Discrete 0.033s (30.000 fps)
    Size: Discrete 960x540
    Interval: Discrete 0.033s (30.000 fps)
    Size: Discrete 848x480
    Interval: Discrete 0.033s (30.000 fps)
    Size: Discrete 640x480
    Interval: Discrete 0.033s (30.000 fps)
    Size: Discrete 640x360
    Interval: Discrete 0.033s (30.000 fps)
    [1]: 'YUYV' (YUYV 4:2:2)
    Size: Discrete 1920x1080
    Interval: Discrete 0.200s (5.000 fps)
    Size: Discrete 640x480
    Interval: Discrete 0.033s (30.000 fps)
    Size: Discrete 640x360
    Interval: Discrete 0.033s (30.000 fps)
    Size: Discrete 424x240
    Interval: Discrete 0.033s (30.000 fps)
    Size: Discrete 320x240
    Interval: Discrete 0.033s (30.000 fps)
    Size: Discrete 320x180
    Interval: Discrete 0.033s (30.000 fps)
    Size: Discrete 160x120
    Interval: Discrete 0.033s (30.000 fps)
node video1 /sys/devices/pci0000:00/0000:00:14.0/usb3/3-6/3-6:1.0
  driver uvcvideo
  card Integrated_Webcam_FHD: Integrat
  bus_info usb-0000:00:14.0-6
  device_caps 0x04a00000
node video2 /sys/devices/pci0000:00/0000:00:14.0/usb3/3-6/3-6:1.2
  driver uvcvideo
  card Integrated_Webcam_FHD: Integrat
  bus_info usb-0000:00:14.0-6
  device_caps 0x04200001
    [0]: 'GREY' (8-bit Greyscale)
    Size: Discrete 640x360
    Interval: Discrete 0.067s (15.000 fps)
node video3 /sys/devices/pci0000:00/0000:00:14.0/usb3/3-6/3-6:1.2
  driver uvcvideo
  card Integrated_Webcam_FHD: Integrat
  bus_info usb-0000:00:14.0-6
  device_caps 0x04a00000
