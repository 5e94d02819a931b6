# Elgato Cam Link 4K (0fd9:0066): an HDMI grabber whose only video input terminal is
# vendor-specific (0x0200, not a camera) and whose audio comes in through a digital audio
# interface (0x0602). Source: Dumps/elgato-cam-link-4k-0fd9-0066 (lsusb -v only): the USB
# attributes, the input terminals and the formats (NV12 twice, I420, all 3840x2160 at 30 fps)
# are the descriptors'; the node's card and bus info are what uvcvideo makes of them, and the
# sysfs paths are not from the dump.
usb /sys/devices/pci0000:00/0000:00:14.0/usb2/2-1
  idVendor 0fd9
  idProduct 0066
  serial 0005AC52FE000
  product Cam Link 4K
  removable removable
  speed 5000
  video_input_terminals 0=0x0200
  audio_input_terminals 0x0602
node video0 /sys/devices/pci0000:00/0000:00:14.0/usb2/2-1/2-1:1.0
  driver uvcvideo
  card Cam Link 4K: Cam Link 4K
  bus_info usb-0000:00:14.0-1
  device_caps 0x04200001
    [0]: 'NV12' (Y/CbCr 4:2:0)
    Size: Discrete 3840x2160
    Interval: Discrete 0.033s (30.000 fps)
    [1]: 'NV12' (Y/CbCr 4:2:0)
    Size: Discrete 3840x2160
    Interval: Discrete 0.033s (30.000 fps)
    [2]: 'YU12' (Planar YUV 4:2:0)
    Size: Discrete 3840x2160
    Interval: Discrete 0.033s (30.000 fps)
node video1 /sys/devices/pci0000:00/0000:00:14.0/usb2/2-1/2-1:1.0
  driver uvcvideo
  card Cam Link 4K: Cam Link 4K
  bus_info usb-0000:00:14.0-1
  device_caps 0x04a00000
