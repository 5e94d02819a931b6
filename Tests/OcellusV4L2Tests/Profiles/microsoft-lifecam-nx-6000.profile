# Microsoft LifeCam NX-6000 (045e:00f8): iSerial 0 (no serial at all), a camera sensor input
# terminal and a USB Audio microphone (terminal 0x0201). Source:
# Dumps/microsoft-lifecam-nx-6000-045e-00f8-no-serial (lsusb -v only, kernel 2.6.25): the USB
# attributes, the input terminals and the MJPEG frames (each with its first interval) are the
# descriptors'; the node's card and bus info are what uvcvideo makes of them, and the sysfs
# paths are not from the dump. The product string is ISO-8859-1 in the posting ("Microsoft(R)").
usb /sys/devices/pci0000:00/0000:00:1d.7/usb5/5-3
  idVendor 045e
  idProduct 00f8
  product Microsoft® LifeCam NX-6000
  removable removable
  speed 480
  busnum 5
  video_input_terminals 0=0x0201
  audio_input_terminals 0x0201
  video_streaming 0=1
  isochronous 1=0x13fc/1
node video0 /sys/devices/pci0000:00/0000:00:1d.7/usb5/5-3/5-3:1.0
  driver uvcvideo
  card Microsoft® LifeCam NX-6000
  bus_info usb-0000:00:1d.7-3
  device_caps 0x04200001
    [0]: 'MJPG' (Motion-JPEG, compressed)
    Size: Discrete 352x288
    Interval: Discrete 0.033s (30.000 fps)
    Size: Discrete 1600x1200
    Interval: Discrete 0.133s (7.500 fps)
    Size: Discrete 1280x1024
    Interval: Discrete 0.133s (7.500 fps)
    Size: Discrete 1024x768
    Interval: Discrete 0.133s (7.500 fps)
    Size: Discrete 800x600
    Interval: Discrete 0.033s (30.000 fps)
    Size: Discrete 640x480
    Interval: Discrete 0.033s (30.000 fps)
    Size: Discrete 320x240
    Interval: Discrete 0.033s (30.000 fps)
    Size: Discrete 176x144
    Interval: Discrete 0.033s (30.000 fps)
    Size: Discrete 160x120
    Interval: Discrete 0.033s (30.000 fps)
