# SunplusIT "HD Camera" (2b7e:b752), a laptop-style UVC 1.5 module whose camera terminal offers
# the Region of Interest control, on a kernel with uvcvideo's ROI controls (Linux 6.15+).
# Source: shared/device-dumps/sunplusit-2b7e-b752-uvc15-roi-xu-serial-01.00.00 (lsusb -v, through
# the VideoControl interface). The controls are the ones its descriptors declare (camera terminal
# 0x0020000e: auto-exposure mode and priority, exposure time, region of interest; processing unit
# 0x0000177f), named and typed as uvcvideo exposes them. The dump carries no GET_MIN/MAX/DEF
# answers: ranges and values are a UVC webcam's usual ones, and the region of interest's auto
# bits say exposure only (the module has no focus control). The streaming interface was not
# transcribed: MJPEG 1280x720 and 640x480 at 30 fps, as its first frames are listed.
usb /sys/devices/pci0000:00/0000:00:14.0/usb3/3-2
  idVendor 2b7e
  idProduct b752
  serial 01.00.00
  product HD Camera
  removable fixed
  speed 480
node video0 /sys/devices/pci0000:00/0000:00:14.0/usb3/3-2/3-2:1.0
  driver uvcvideo
  card HD Camera: HD Camera
  bus_info usb-0000:00:14.0-2
  device_caps 0x04200001
    [0]: 'MJPG' (Motion-JPEG, compressed)
    Size: Discrete 1280x720
    Interval: Discrete 0.033s (30.000 fps)
    Size: Discrete 640x480
    Interval: Discrete 0.033s (30.000 fps)
    # controls, as v4l2-ctl --all lists them
    brightness 0x00980900 (int)    : min=-64 max=64 step=1 default=0 value=0
    contrast 0x00980901 (int)    : min=0 max=100 step=1 default=50 value=50
    saturation 0x00980902 (int)    : min=0 max=100 step=1 default=64 value=64
    hue 0x00980903 (int)    : min=-180 max=180 step=1 default=0 value=0
    white_balance_automatic 0x0098090c (bool)   : default=1 value=1
    gamma 0x00980910 (int)    : min=100 max=500 step=1 default=300 value=300
    gain 0x00980913 (int)    : min=0 max=100 step=1 default=0 value=0
    power_line_frequency 0x00980918 (menu)   : min=0 max=2 default=1 value=1 (50 Hz)
    0: Disabled
    1: 50 Hz
    2: 60 Hz
    white_balance_temperature 0x0098091a (int)    : min=2800 max=6500 step=10 default=4600 value=4600 flags=inactive
    sharpness 0x0098091b (int)    : min=0 max=100 step=1 default=50 value=50
    backlight_compensation 0x0098091c (int)    : min=0 max=2 step=1 default=1 value=1
    region_of_interest_rect 0x00981ae1 (rect)    : value=(0,0)/1280x720
    region_of_interest_auto 0x00981ae2 (bitmask) : max=0x00000001 default=0x00000001 value=1
    auto_exposure 0x009a0901 (menu)   : min=0 max=3 default=3 value=3 (Aperture Priority Mode)
    1: Manual Mode
    3: Aperture Priority Mode
    exposure_time_absolute 0x009a0902 (int)    : min=1 max=5000 step=1 default=157 value=157 flags=inactive
    exposure_dynamic_framerate 0x009a0903 (bool)   : default=0 value=0
