# Logitech BRIO on kernel 5.8: the control names of that kernel (exposure_auto,
# white_balance_temperature_auto, …) and its LED extension controls; serial 16201378. Source:
# Dumps/logitech-brio-kernel-5.8-legacy-ctrl-names (v4l2-ctl --all: the current format only,
# no format list; node block by Dumps/dump-to-profile.py). The VID:PID is the model's published
# one, not from the dump; the sysfs paths are not from it (bus info usb-0000:00:14.0-3.1).
usb /sys/devices/pci0000:00/0000:00:14.0/usb1/1-3/1-3.1
  idVendor 046d
  idProduct 085e
  serial 16201378
  product Logitech BRIO
  removable removable
  speed 5000
node video0 /sys/devices/pci0000:00/0000:00:14.0/usb1/1-3/1-3.1/1-3.1:1.0
  driver uvcvideo
  card Logitech BRIO
  bus_info usb-0000:00:14.0-3.1
  device_caps 0x04200001
    brightness 0x00980900 (int)    : min=0 max=255
    contrast 0x00980901 (int)    : min=0 max=255
    saturation 0x00980902 (int)    : min=0 max=255
    white_balance_temperature_auto 0x0098090c (bool)   : default=1 value=1
    gain 0x00980913 (int)    : min=0 max=255
    power_line_frequency 0x00980918 (menu)   : min=0 max=2
    0: Disabled
    1: 50 Hz
    2: 60 Hz
    white_balance_temperature 0x0098091a (int)    : min=2000
    sharpness 0x0098091b (int)    : min=0 max=255
    backlight_compensation 0x0098091c (int)    : min=0 max=1
    exposure_auto 0x009a0901 (menu)   : min=0 max=3
    1: Manual Mode
    3: Aperture Priority Mode
    exposure_absolute 0x009a0902 (int)    : min=3 max=2047
    exposure_auto_priority 0x009a0903 (bool)   : default=0 value=1
    pan_absolute 0x009a0908 (int)    : min=-36000
    tilt_absolute 0x009a0909 (int)    : min=-36000
    focus_absolute 0x009a090a (int)    : min=0 max=255
    focus_auto 0x009a090c (bool)   : default=1 value=1
    zoom_absolute 0x009a090d (int)    : min=100 max=500
    led1_mode 0x0a046d05 (menu)   : min=0 max=3
    0: Off
    1: On
    2: Blink
    3: Auto
    led1_frequency 0x0a046d06 (int)    : min=0 max=255
