# MacroSilicon MS2109 USB HDMI capture stick (534d:2109, "USB3. 0 capture"), MJPEG and YUYV.
# Source: shared/device-dumps/ms2109-hdmi-capture-534d-2109-usb3-0-capture (v4l2-ctl -d /dev/video4
# --all and --list-formats-ext; lsusb). It has no serial number.
usb /sys/devices/pci0000:00/0000:00:08.1/0000:06:00.4/usb5/5-2
  idVendor 534d
  idProduct 2109
  product USB3. 0 capture
  removable removable
  speed 480
node video4 /sys/devices/pci0000:00/0000:00:08.1/0000:06:00.4/usb5/5-2/5-2:1.0
  driver uvcvideo
  card USB3. 0 capture: USB3. 0 captur
  bus_info usb-0000:06:00.4-2
  device_caps 0x04200001
    [0]: 'MJPG' (Motion-JPEG, compressed)
    Size: Discrete 1920x1080
    Interval: Discrete 0.017s (60.000 fps)
    Interval: Discrete 0.033s (30.000 fps)
    Interval: Discrete 0.040s (25.000 fps)
    Interval: Discrete 0.050s (20.000 fps)
    Interval: Discrete 0.100s (10.000 fps)
    Size: Discrete 1600x1200
    Interval: Discrete 0.017s (60.000 fps)
    Interval: Discrete 0.033s (30.000 fps)
    Interval: Discrete 0.040s (25.000 fps)
    Interval: Discrete 0.050s (20.000 fps)
    Interval: Discrete 0.100s (10.000 fps)
    Size: Discrete 1360x768
    Interval: Discrete 0.017s (60.000 fps)
    Interval: Discrete 0.033s (30.000 fps)
    Interval: Discrete 0.040s (25.000 fps)
    Interval: Discrete 0.050s (20.000 fps)
    Interval: Discrete 0.100s (10.000 fps)
    Size: Discrete 1280x1024
    Interval: Discrete 0.017s (60.000 fps)
    Interval: Discrete 0.033s (30.000 fps)
    Interval: Discrete 0.040s (25.000 fps)
    Interval: Discrete 0.050s (20.000 fps)
    Interval: Discrete 0.100s (10.000 fps)
    Size: Discrete 1280x960
    Interval: Discrete 0.017s (60.000 fps)
    Interval: Discrete 0.033s (30.000 fps)
    Interval: Discrete 0.040s (25.000 fps)
    Interval: Discrete 0.050s (20.000 fps)
    Interval: Discrete 0.100s (10.000 fps)
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
