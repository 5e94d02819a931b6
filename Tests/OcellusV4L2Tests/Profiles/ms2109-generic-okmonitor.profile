# A cheap HDMI capture stick with the MS2109 format matrix (the posting does not confirm the
# chip). Source: Dumps/ms2109-hdmi-capture-generic-okmonitor (v4l2-ctl --list-formats-ext only;
# formats by Dumps/dump-to-profile.py). Everything else is not from the dump: the identity is
# MacroSilicon's 534d:2109 without a serial, the node as uvcvideo would make it.
usb /sys/devices/pci0000:00/0000:00:14.0/usb1/1-2
  idVendor 534d
  idProduct 2109
  product USB Video
  removable removable
  speed 480
node video2 /sys/devices/pci0000:00/0000:00:14.0/usb1/1-2/1-2:1.0
  driver uvcvideo
  card USB Video: USB Video
  bus_info usb-0000:00:14.0-2
  device_caps 0x04200001
    [0]: 'MJPG' (Motion-JPEG, compressed)
    Size: Discrete 1920x1080
    Interval: Discrete 0.033s (30.000 fps)
    Interval: Discrete 0.040s (25.000 fps)
    Interval: Discrete 0.050s (20.000 fps)
    Interval: Discrete 0.100s (10.000 fps)
    Interval: Discrete 0.200s (5.000 fps)
    Size: Discrete 1600x1200
    Interval: Discrete 0.033s (30.000 fps)
    Interval: Discrete 0.040s (25.000 fps)
    Interval: Discrete 0.050s (20.000 fps)
    Interval: Discrete 0.100s (10.000 fps)
    Interval: Discrete 0.200s (5.000 fps)
    Size: Discrete 1360x768
    Interval: Discrete 0.033s (30.000 fps)
    Interval: Discrete 0.040s (25.000 fps)
    Interval: Discrete 0.050s (20.000 fps)
    Interval: Discrete 0.100s (10.000 fps)
    Interval: Discrete 0.200s (5.000 fps)
    Size: Discrete 1280x1024
    Interval: Discrete 0.033s (30.000 fps)
    Interval: Discrete 0.040s (25.000 fps)
    Interval: Discrete 0.050s (20.000 fps)
    Interval: Discrete 0.100s (10.000 fps)
    Interval: Discrete 0.200s (5.000 fps)
    Size: Discrete 1280x960
    Interval: Discrete 0.020s (50.000 fps)
    Interval: Discrete 0.033s (30.000 fps)
    Interval: Discrete 0.050s (20.000 fps)
    Interval: Discrete 0.100s (10.000 fps)
    Interval: Discrete 0.200s (5.000 fps)
    Size: Discrete 1280x720
    Interval: Discrete 0.017s (60.000 fps)
    Interval: Discrete 0.020s (50.000 fps)
    Interval: Discrete 0.033s (30.000 fps)
    Interval: Discrete 0.050s (20.000 fps)
    Interval: Discrete 0.100s (10.000 fps)
    Size: Discrete 1024x768
    Interval: Discrete 0.017s (60.000 fps)
    Interval: Discrete 0.020s (50.000 fps)
    Interval: Discrete 0.033s (30.000 fps)
    Interval: Discrete 0.050s (20.000 fps)
    Interval: Discrete 0.100s (10.000 fps)
    Size: Discrete 800x600
    Interval: Discrete 0.017s (60.000 fps)
    Interval: Discrete 0.020s (50.000 fps)
    Interval: Discrete 0.033s (30.000 fps)
    Interval: Discrete 0.050s (20.000 fps)
    Interval: Discrete 0.100s (10.000 fps)
    Size: Discrete 720x576
    Interval: Discrete 0.017s (60.000 fps)
    Interval: Discrete 0.020s (50.000 fps)
    Interval: Discrete 0.033s (30.000 fps)
    Interval: Discrete 0.050s (20.000 fps)
    Interval: Discrete 0.100s (10.000 fps)
    Size: Discrete 720x480
    Interval: Discrete 0.017s (60.000 fps)
    Interval: Discrete 0.020s (50.000 fps)
    Interval: Discrete 0.033s (30.000 fps)
    Interval: Discrete 0.050s (20.000 fps)
    Interval: Discrete 0.100s (10.000 fps)
    Size: Discrete 640x480
    Interval: Discrete 0.017s (60.000 fps)
    Interval: Discrete 0.020s (50.000 fps)
    Interval: Discrete 0.033s (30.000 fps)
    Interval: Discrete 0.050s (20.000 fps)
    Interval: Discrete 0.100s (10.000 fps)
    [1]: 'YUYV' (YUYV 4:2:2)
    Size: Discrete 1920x1080
    Interval: Discrete 0.200s (5.000 fps)
    Size: Discrete 1600x1200
    Interval: Discrete 0.200s (5.000 fps)
    Size: Discrete 1360x768
    Interval: Discrete 0.125s (8.000 fps)
    Size: Discrete 1280x1024
    Interval: Discrete 0.125s (8.000 fps)
    Size: Discrete 1280x960
    Interval: Discrete 0.125s (8.000 fps)
    Size: Discrete 1280x720
    Interval: Discrete 0.100s (10.000 fps)
    Size: Discrete 1024x768
    Interval: Discrete 0.100s (10.000 fps)
    Size: Discrete 800x600
    Interval: Discrete 0.050s (20.000 fps)
    Interval: Discrete 0.100s (10.000 fps)
    Interval: Discrete 0.200s (5.000 fps)
    Size: Discrete 720x576
    Interval: Discrete 0.040s (25.000 fps)
    Interval: Discrete 0.050s (20.000 fps)
    Interval: Discrete 0.100s (10.000 fps)
    Interval: Discrete 0.200s (5.000 fps)
    Size: Discrete 720x480
    Interval: Discrete 0.033s (30.000 fps)
    Interval: Discrete 0.050s (20.000 fps)
    Interval: Discrete 0.100s (10.000 fps)
    Interval: Discrete 0.200s (5.000 fps)
    Size: Discrete 640x480
    Interval: Discrete 0.033s (30.000 fps)
    Interval: Discrete 0.050s (20.000 fps)
    Interval: Discrete 0.100s (10.000 fps)
    Interval: Discrete 0.200s (5.000 fps)
