# Raspberry Pi 4 (kernel 5.15): unicam with an imx519 sensor (V4L2_CAP_IO_MC: driven through
# the media controller, i.e. by libcamera), the bcm2835 codec, ISP and rpivid memory-to-memory
# and pipeline queues, and a USB webcam "Webcam" whose serial is a firmware build string,
# YG_U700_D.2021.0104.1403. Source: Dumps/rpi4-unicam-m2m-nodes-plus-generic-uvc-webcam (node
# blocks made by Dumps/dump-to-profile.py). The dump has no lsusb: the VID:PID below is not from
# it (the test checks the ID by port); the port 1-1.1 is what the bus info usb-0000:01:00.0-1.1 says.
usb /sys/devices/platform/scb/fd500000.pcie/pci0000:00/0000:00:00.0/0000:01:00.0/usb1/1-1/1-1.1
  idVendor 1b3f
  idProduct 2247
  serial YG_U700_D.2021.0104.1403
  product Webcam
  removable removable
  speed 480
node video0 /sys/devices/platform/soc/fe801000.csi
  driver unicam
  card unicam
  bus_info platform:fe801000.csi
  device_caps 0x25200001
    [0]: 'YUYV' (YUYV 4:2:2)
    Size: Stepwise 16x16 - 16376x16376 with step 1/1
    [1]: 'UYVY' (UYVY 4:2:2)
    Size: Stepwise 16x16 - 16376x16376 with step 1/1
    [2]: 'YVYU' (YVYU 4:2:2)
    Size: Stepwise 16x16 - 16376x16376 with step 1/1
    [3]: 'VYUY' (VYUY 4:2:2)
    Size: Stepwise 16x16 - 16376x16376 with step 1/1
    [4]: 'RGBP' (16-bit RGB 5-6-5)
    Size: Stepwise 16x16 - 16376x16376 with step 1/1
    [5]: 'RGBR' (16-bit RGB 5-6-5 BE)
    Size: Stepwise 16x16 - 16376x16376 with step 1/1
    [6]: 'RGBO' (16-bit A/XRGB 1-5-5-5)
    Size: Stepwise 16x16 - 16376x16376 with step 1/1
    [7]: 'RGBQ' (16-bit A/XRGB 1-5-5-5 BE)
    Size: Stepwise 16x16 - 16376x16376 with step 1/1
    [8]: 'RGB3' (24-bit RGB 8-8-8)
    Size: Stepwise 16x16 - 16376x16376 with step 1/1
    [9]: 'BGR3' (24-bit BGR 8-8-8)
    Size: Stepwise 16x16 - 16376x16376 with step 1/1
    [10]: 'RGB4' (32-bit A/XRGB 8-8-8-8)
    Size: Stepwise 16x16 - 16376x16376 with step 1/1
    [11]: 'BA81' (8-bit Bayer BGBG/GRGR)
    Size: Stepwise 16x16 - 16376x16376 with step 1/1
    [12]: 'GBRG' (8-bit Bayer GBGB/RGRG)
    Size: Stepwise 16x16 - 16376x16376 with step 1/1
    [13]: 'GRBG' (8-bit Bayer GRGR/BGBG)
    Size: Stepwise 16x16 - 16376x16376 with step 1/1
    [14]: 'RGGB' (8-bit Bayer RGRG/GBGB)
    Size: Stepwise 16x16 - 16376x16376 with step 1/1
    [15]: 'pBAA' (10-bit Bayer BGBG/GRGR Packed)
    Size: Stepwise 16x16 - 16376x16376 with step 1/1
    [16]: 'BG10' (10-bit Bayer BGBG/GRGR)
    Size: Stepwise 16x16 - 16376x16376 with step 1/1
    [17]: 'pGAA' (10-bit Bayer GBGB/RGRG Packed)
    Size: Stepwise 16x16 - 16376x16376 with step 1/1
    [18]: 'GB10' (10-bit Bayer GBGB/RGRG)
    Size: Stepwise 16x16 - 16376x16376 with step 1/1
    [19]: 'pgAA' (10-bit Bayer GRGR/BGBG Packed)
    Size: Stepwise 16x16 - 16376x16376 with step 1/1
    [20]: 'BA10' (10-bit Bayer GRGR/BGBG)
    Size: Stepwise 16x16 - 16376x16376 with step 1/1
    [21]: 'pRAA' (10-bit Bayer RGRG/GBGB Packed)
    Size: Stepwise 16x16 - 16376x16376 with step 1/1
    [22]: 'RG10' (10-bit Bayer RGRG/GBGB)
    Size: Stepwise 16x16 - 16376x16376 with step 1/1
    [23]: 'pBCC' (12-bit Bayer BGBG/GRGR Packed)
    Size: Stepwise 16x16 - 16376x16376 with step 1/1
    [24]: 'BG12' (12-bit Bayer BGBG/GRGR)
    Size: Stepwise 16x16 - 16376x16376 with step 1/1
    [25]: 'pGCC' (12-bit Bayer GBGB/RGRG Packed)
    Size: Stepwise 16x16 - 16376x16376 with step 1/1
    [26]: 'GB12' (12-bit Bayer GBGB/RGRG)
    Size: Stepwise 16x16 - 16376x16376 with step 1/1
    [27]: 'pgCC' (12-bit Bayer GRGR/BGBG Packed)
    Size: Stepwise 16x16 - 16376x16376 with step 1/1
    [28]: 'BA12' (12-bit Bayer GRGR/BGBG)
    Size: Stepwise 16x16 - 16376x16376 with step 1/1
    [29]: 'pRCC' (12-bit Bayer RGRG/GBGB Packed)
    Size: Stepwise 16x16 - 16376x16376 with step 1/1
    [30]: 'RG12' (12-bit Bayer RGRG/GBGB)
    Size: Stepwise 16x16 - 16376x16376 with step 1/1
    [31]: 'pBEE' (14-bit Bayer BGBG/GRGR Packed)
    Size: Stepwise 16x16 - 16376x16376 with step 1/1
    [32]: 'BG14' (14-bit Bayer BGBG/GRGR)
    Size: Stepwise 16x16 - 16376x16376 with step 1/1
    [33]: 'pGEE' (14-bit Bayer GBGB/RGRG Packed)
    Size: Stepwise 16x16 - 16376x16376 with step 1/1
    [34]: 'GB14' (14-bit Bayer GBGB/RGRG)
    Size: Stepwise 16x16 - 16376x16376 with step 1/1
    [35]: 'pgEE' (14-bit Bayer GRGR/BGBG Packed)
    Size: Stepwise 16x16 - 16376x16376 with step 1/1
    [36]: 'GR14' (14-bit Bayer GRGR/BGBG)
    Size: Stepwise 16x16 - 16376x16376 with step 1/1
    [37]: 'pREE' (14-bit Bayer RGRG/GBGB Packed)
    Size: Stepwise 16x16 - 16376x16376 with step 1/1
    [38]: 'RG14' (14-bit Bayer RGRG/GBGB)
    Size: Stepwise 16x16 - 16376x16376 with step 1/1
    [39]: 'GREY' (8-bit Greyscale)
    Size: Stepwise 16x16 - 16376x16376 with step 1/1
    [40]: 'Y10P' (10-bit Greyscale (MIPI Packed))
    Size: Stepwise 16x16 - 16376x16376 with step 1/1
    [41]: 'Y10 ' (10-bit Greyscale)
    Size: Stepwise 16x16 - 16376x16376 with step 1/1
    [42]: 'Y12P' (12-bit Greyscale (MIPI Packed))
    Size: Stepwise 16x16 - 16376x16376 with step 1/1
    [43]: 'Y12 ' (12-bit Greyscale)
    Size: Stepwise 16x16 - 16376x16376 with step 1/1
    [44]: 'Y14P' (14-bit Greyscale (MIPI Packed))
    Size: Stepwise 16x16 - 16376x16376 with step 1/1
    [45]: 'Y14 ' (14-bit Greyscale)
    Size: Stepwise 16x16 - 16376x16376 with step 1/1
node video1 /sys/devices/platform/soc/fe801000.csi
  driver unicam
  card unicam
  bus_info platform:fe801000.csi
  device_caps 0x25a00000
node video10 /sys/devices/platform/soc/soc:bcm2835-codec
  driver bcm2835-codec
  card bcm2835-codec-decode
  bus_info platform:bcm2835-codec
  device_caps 0x04204000
    [0]: 'YU12' (Planar YUV 4:2:0)
    Size: Stepwise 32x32 - 1920x1920 with step 2/2
    [1]: 'YV12' (Planar YVU 4:2:0)
    Size: Stepwise 32x32 - 1920x1920 with step 2/2
    [2]: 'NV12' (Y/CbCr 4:2:0)
    Size: Stepwise 32x32 - 1920x1920 with step 2/2
    [3]: 'NV21' (Y/CrCb 4:2:0)
    Size: Stepwise 32x32 - 1920x1920 with step 2/2
    [4]: 'NC12' (Y/CbCr 4:2:0 (128b cols))
    Size: Stepwise 32x32 - 1920x1920 with step 2/2
    [5]: 'RGBP' (16-bit RGB 5-6-5)
    Size: Stepwise 32x32 - 1920x1920 with step 2/2
node video11 /sys/devices/platform/soc/soc:bcm2835-codec
  driver bcm2835-codec
  card bcm2835-codec-encode
  bus_info platform:bcm2835-codec
  device_caps 0x04204000
    [0]: 'H264' (H.264, compressed)
    Size: Stepwise 32x32 - 1920x1920 with step 2/2
    [1]: 'MJPG' (Motion-JPEG, compressed)
    Size: Stepwise 32x32 - 1920x1920 with step 2/2
node video12 /sys/devices/platform/soc/soc:bcm2835-codec
  driver bcm2835-codec
  card bcm2835-codec-isp
  bus_info platform:bcm2835-codec
  device_caps 0x04204000
    [0]: 'YUYV' (YUYV 4:2:2)
    Size: Stepwise 32x32 - 16384x16384 with step 2/2
    [1]: 'YVYU' (YVYU 4:2:2)
    Size: Stepwise 32x32 - 16384x16384 with step 2/2
    [2]: 'VYUY' (VYUY 4:2:2)
    Size: Stepwise 32x32 - 16384x16384 with step 2/2
    [3]: 'UYVY' (UYVY 4:2:2)
    Size: Stepwise 32x32 - 16384x16384 with step 2/2
    [4]: 'YU12' (Planar YUV 4:2:0)
    Size: Stepwise 32x32 - 16384x16384 with step 2/2
    [5]: 'YV12' (Planar YVU 4:2:0)
    Size: Stepwise 32x32 - 16384x16384 with step 2/2
    [6]: 'RGB3' (24-bit RGB 8-8-8)
    Size: Stepwise 32x32 - 16384x16384 with step 2/2
    [7]: 'BGR3' (24-bit BGR 8-8-8)
    Size: Stepwise 32x32 - 16384x16384 with step 2/2
    [8]: 'AB24' (32-bit RGBA 8-8-8-8)
    Size: Stepwise 32x32 - 16384x16384 with step 2/2
    [9]: 'BGR4' (32-bit BGRA/X 8-8-8-8)
    Size: Stepwise 32x32 - 16384x16384 with step 2/2
    [10]: 'RGBP' (16-bit RGB 5-6-5)
    Size: Stepwise 32x32 - 16384x16384 with step 2/2
    [11]: 'NC12' (Y/CbCr 4:2:0 (128b cols))
    Size: Stepwise 32x32 - 16384x16384 with step 2/2
    [12]: 'NV12' (Y/CbCr 4:2:0)
    Size: Stepwise 32x32 - 16384x16384 with step 2/2
    [13]: 'NV21' (Y/CrCb 4:2:0)
    Size: Stepwise 32x32 - 16384x16384 with step 2/2
node video13 /sys/devices/platform/soc/soc:bcm2835-isp
  driver bcm2835-isp
  card bcm2835-isp
  bus_info platform:bcm2835-isp
  device_caps 0x04200002
node video14 /sys/devices/platform/soc/soc:bcm2835-isp
  driver bcm2835-isp
  card bcm2835-isp
  bus_info platform:bcm2835-isp
  device_caps 0x04200001
    [0]: 'YUYV' (YUYV 4:2:2)
    Size: Stepwise 64x64 - 16384x16384 with step 2/2
    [1]: 'YVYU' (YVYU 4:2:2)
    Size: Stepwise 64x64 - 16384x16384 with step 2/2
    [2]: 'VYUY' (VYUY 4:2:2)
    Size: Stepwise 64x64 - 16384x16384 with step 2/2
    [3]: 'UYVY' (UYVY 4:2:2)
    Size: Stepwise 64x64 - 16384x16384 with step 2/2
    [4]: 'YU12' (Planar YUV 4:2:0)
    Size: Stepwise 64x64 - 16384x16384 with step 2/2
    [5]: 'YV12' (Planar YVU 4:2:0)
    Size: Stepwise 64x64 - 16384x16384 with step 2/2
    [6]: 'RGB3' (24-bit RGB 8-8-8)
    Size: Stepwise 64x64 - 16384x16384 with step 1/1
    [7]: 'BGR3' (24-bit BGR 8-8-8)
    Size: Stepwise 64x64 - 16384x16384 with step 1/1
    [8]: 'XB24' (32-bit RGBX 8-8-8-8)
    Size: Stepwise 64x64 - 16384x16384 with step 1/1
    [9]: 'XR24' (32-bit BGRX 8-8-8-8)
    Size: Stepwise 64x64 - 16384x16384 with step 1/1
    [10]: 'RGBP' (16-bit RGB 5-6-5)
    Size: Stepwise 64x64 - 16384x16384 with step 1/1
    [11]: 'NV12' (Y/CbCr 4:2:0)
    Size: Stepwise 64x64 - 16384x16384 with step 2/2
    [12]: 'NV21' (Y/CrCb 4:2:0)
    Size: Stepwise 64x64 - 16384x16384 with step 2/2
node video15 /sys/devices/platform/soc/soc:bcm2835-isp
  driver bcm2835-isp
  card bcm2835-isp
  bus_info platform:bcm2835-isp
  device_caps 0x04200001
    [0]: 'YUYV' (YUYV 4:2:2)
    Size: Stepwise 64x64 - 16384x16384 with step 2/2
    [1]: 'YVYU' (YVYU 4:2:2)
    Size: Stepwise 64x64 - 16384x16384 with step 2/2
    [2]: 'VYUY' (VYUY 4:2:2)
    Size: Stepwise 64x64 - 16384x16384 with step 2/2
    [3]: 'UYVY' (UYVY 4:2:2)
    Size: Stepwise 64x64 - 16384x16384 with step 2/2
    [4]: 'YU12' (Planar YUV 4:2:0)
    Size: Stepwise 64x64 - 16384x16384 with step 2/2
    [5]: 'YV12' (Planar YVU 4:2:0)
    Size: Stepwise 64x64 - 16384x16384 with step 2/2
    [6]: 'NV12' (Y/CbCr 4:2:0)
    Size: Stepwise 64x64 - 16384x16384 with step 2/2
    [7]: 'NV21' (Y/CrCb 4:2:0)
    Size: Stepwise 64x64 - 16384x16384 with step 2/2
node video16 /sys/devices/platform/soc/soc:bcm2835-isp
  driver bcm2835-isp
  card bcm2835-isp
  bus_info platform:bcm2835-isp
  device_caps 0x04a00000
node video18 /sys/devices/platform/soc/soc:bcm2835-codec
  driver bcm2835-codec
  card bcm2835-codec-image_fx
  bus_info platform:bcm2835-codec
  device_caps 0x04204000
    [0]: 'YU12' (Planar YUV 4:2:0)
    Size: Stepwise 32x32 - 1920x1920 with step 2/2
    [1]: 'NC12' (Y/CbCr 4:2:0 (128b cols))
    Size: Stepwise 32x32 - 1920x1920 with step 2/2
    [2]: 'AB24' (32-bit RGBA 8-8-8-8)
    Size: Stepwise 32x32 - 1920x1920 with step 2/2
    [3]: 'RGBP' (16-bit RGB 5-6-5)
    Size: Stepwise 32x32 - 1920x1920 with step 2/2
node video19 /sys/devices/platform/soc/fe00b000.codec
  driver rpivid
  card rpivid
  bus_info platform:rpivid
  device_caps 0x04204000
    [0]: 'NC12' (Y/CbCr 4:2:0 (128b cols))
    [1]: 'NC30' (10-bit Y/CbCr 4:2:0 (128b cols))
node video2 /sys/devices/platform/scb/fd500000.pcie/pci0000:00/0000:00:00.0/0000:01:00.0/usb1/1-1/1-1.1/1-1.1:1.0
  driver uvcvideo
  card Webcam: Webcam
  bus_info usb-0000:01:00.0-1.1
  device_caps 0x04200001
    [0]: 'MJPG' (Motion-JPEG, compressed)
    Size: Discrete 320x240
    Interval: Discrete 0.033s (30.000 fps)
    Interval: Discrete 0.040s (25.000 fps)
    Size: Discrete 480x272
    Interval: Discrete 0.033s (30.000 fps)
    Interval: Discrete 0.040s (25.000 fps)
    Size: Discrete 640x360
    Interval: Discrete 0.033s (30.000 fps)
    Interval: Discrete 0.040s (25.000 fps)
    Size: Discrete 640x480
    Interval: Discrete 0.033s (30.000 fps)
    Interval: Discrete 0.040s (25.000 fps)
    Size: Discrete 800x600
    Interval: Discrete 0.033s (30.000 fps)
    Interval: Discrete 0.040s (25.000 fps)
    Size: Discrete 1024x576
    Interval: Discrete 0.033s (30.000 fps)
    Interval: Discrete 0.040s (25.000 fps)
    Size: Discrete 1280x720
    Interval: Discrete 0.033s (30.000 fps)
    Interval: Discrete 0.040s (25.000 fps)
    Size: Discrete 1440x1080
    Interval: Discrete 0.033s (30.000 fps)
    Interval: Discrete 0.040s (25.000 fps)
    Size: Discrete 1920x1080
    Interval: Discrete 0.033s (30.000 fps)
    Interval: Discrete 0.040s (25.000 fps)
    Size: Discrete 2560x1440
    Interval: Discrete 0.040s (25.000 fps)
    [1]: 'H264' (H.264, compressed)
    Size: Discrete 320x240
    Interval: Discrete 0.033s (30.000 fps)
    Interval: Discrete 0.040s (25.000 fps)
    Interval: Discrete 0.033s (30.000 fps)
    Interval: Discrete 0.040s (25.000 fps)
    Size: Discrete 480x272
    Interval: Discrete 0.033s (30.000 fps)
    Interval: Discrete 0.040s (25.000 fps)
    Interval: Discrete 0.033s (30.000 fps)
    Interval: Discrete 0.040s (25.000 fps)
    Size: Discrete 640x360
    Interval: Discrete 0.033s (30.000 fps)
    Interval: Discrete 0.040s (25.000 fps)
    Interval: Discrete 0.033s (30.000 fps)
    Interval: Discrete 0.040s (25.000 fps)
    Size: Discrete 640x480
    Interval: Discrete 0.033s (30.000 fps)
    Interval: Discrete 0.040s (25.000 fps)
    Interval: Discrete 0.033s (30.000 fps)
    Interval: Discrete 0.040s (25.000 fps)
    Size: Discrete 800x600
    Interval: Discrete 0.033s (30.000 fps)
    Interval: Discrete 0.040s (25.000 fps)
    Interval: Discrete 0.033s (30.000 fps)
    Interval: Discrete 0.040s (25.000 fps)
    Size: Discrete 1024x576
    Interval: Discrete 0.033s (30.000 fps)
    Interval: Discrete 0.040s (25.000 fps)
    Size: Discrete 1280x720
    Interval: Discrete 0.033s (30.000 fps)
    Interval: Discrete 0.040s (25.000 fps)
    Size: Discrete 1440x1080
    Interval: Discrete 0.033s (30.000 fps)
    Interval: Discrete 0.040s (25.000 fps)
    Size: Discrete 1920x1080
    Interval: Discrete 0.033s (30.000 fps)
    Interval: Discrete 0.040s (25.000 fps)
    Size: Discrete 2560x1440
    Interval: Discrete 0.040s (25.000 fps)
    Size: Discrete 320x240
    Interval: Discrete 0.033s (30.000 fps)
    Interval: Discrete 0.040s (25.000 fps)
    Interval: Discrete 0.033s (30.000 fps)
    Interval: Discrete 0.040s (25.000 fps)
    Size: Discrete 480x272
    Interval: Discrete 0.033s (30.000 fps)
    Interval: Discrete 0.040s (25.000 fps)
    Interval: Discrete 0.033s (30.000 fps)
    Interval: Discrete 0.040s (25.000 fps)
    Size: Discrete 640x360
    Interval: Discrete 0.033s (30.000 fps)
    Interval: Discrete 0.040s (25.000 fps)
    Interval: Discrete 0.033s (30.000 fps)
    Interval: Discrete 0.040s (25.000 fps)
    Size: Discrete 640x480
    Interval: Discrete 0.033s (30.000 fps)
    Interval: Discrete 0.040s (25.000 fps)
    Interval: Discrete 0.033s (30.000 fps)
    Interval: Discrete 0.040s (25.000 fps)
    Size: Discrete 800x600
    Interval: Discrete 0.033s (30.000 fps)
    Interval: Discrete 0.040s (25.000 fps)
    Interval: Discrete 0.033s (30.000 fps)
    Interval: Discrete 0.040s (25.000 fps)
    [2]: 'YUYV' (YUYV 4:2:2)
    Size: Discrete 320x240
    Interval: Discrete 0.033s (30.000 fps)
    Size: Discrete 480x272
    Interval: Discrete 0.033s (30.000 fps)
    Size: Discrete 640x360
    Interval: Discrete 0.033s (30.000 fps)
    Size: Discrete 640x480
    Interval: Discrete 0.033s (30.000 fps)
    Size: Discrete 800x600
    Interval: Discrete 0.067s (15.000 fps)
    Size: Discrete 1024x576
    Interval: Discrete 0.100s (10.000 fps)
    Size: Discrete 1280x720
    Interval: Discrete 0.100s (10.000 fps)
node video20 /sys/devices/platform/soc/soc:bcm2835-isp
  driver bcm2835-isp
  card bcm2835-isp
  bus_info platform:bcm2835-isp
  device_caps 0x04200002
node video21 /sys/devices/platform/soc/soc:bcm2835-isp
  driver bcm2835-isp
  card bcm2835-isp
  bus_info platform:bcm2835-isp
  device_caps 0x04200001
    [0]: 'YUYV' (YUYV 4:2:2)
    Size: Stepwise 64x64 - 16384x16384 with step 2/2
    [1]: 'YVYU' (YVYU 4:2:2)
    Size: Stepwise 64x64 - 16384x16384 with step 2/2
    [2]: 'VYUY' (VYUY 4:2:2)
    Size: Stepwise 64x64 - 16384x16384 with step 2/2
    [3]: 'UYVY' (UYVY 4:2:2)
    Size: Stepwise 64x64 - 16384x16384 with step 2/2
    [4]: 'YU12' (Planar YUV 4:2:0)
    Size: Stepwise 64x64 - 16384x16384 with step 2/2
    [5]: 'YV12' (Planar YVU 4:2:0)
    Size: Stepwise 64x64 - 16384x16384 with step 2/2
    [6]: 'RGB3' (24-bit RGB 8-8-8)
    Size: Stepwise 64x64 - 16384x16384 with step 1/1
    [7]: 'BGR3' (24-bit BGR 8-8-8)
    Size: Stepwise 64x64 - 16384x16384 with step 1/1
    [8]: 'XB24' (32-bit RGBX 8-8-8-8)
    Size: Stepwise 64x64 - 16384x16384 with step 1/1
    [9]: 'XR24' (32-bit BGRX 8-8-8-8)
    Size: Stepwise 64x64 - 16384x16384 with step 1/1
    [10]: 'RGBP' (16-bit RGB 5-6-5)
    Size: Stepwise 64x64 - 16384x16384 with step 1/1
    [11]: 'NV12' (Y/CbCr 4:2:0)
    Size: Stepwise 64x64 - 16384x16384 with step 2/2
    [12]: 'NV21' (Y/CrCb 4:2:0)
    Size: Stepwise 64x64 - 16384x16384 with step 2/2
node video22 /sys/devices/platform/soc/soc:bcm2835-isp
  driver bcm2835-isp
  card bcm2835-isp
  bus_info platform:bcm2835-isp
  device_caps 0x04200001
    [0]: 'YUYV' (YUYV 4:2:2)
    Size: Stepwise 64x64 - 16384x16384 with step 2/2
    [1]: 'YVYU' (YVYU 4:2:2)
    Size: Stepwise 64x64 - 16384x16384 with step 2/2
    [2]: 'VYUY' (VYUY 4:2:2)
    Size: Stepwise 64x64 - 16384x16384 with step 2/2
    [3]: 'UYVY' (UYVY 4:2:2)
    Size: Stepwise 64x64 - 16384x16384 with step 2/2
    [4]: 'YU12' (Planar YUV 4:2:0)
    Size: Stepwise 64x64 - 16384x16384 with step 2/2
    [5]: 'YV12' (Planar YVU 4:2:0)
    Size: Stepwise 64x64 - 16384x16384 with step 2/2
    [6]: 'NV12' (Y/CbCr 4:2:0)
    Size: Stepwise 64x64 - 16384x16384 with step 2/2
    [7]: 'NV21' (Y/CrCb 4:2:0)
    Size: Stepwise 64x64 - 16384x16384 with step 2/2
node video23 /sys/devices/platform/soc/soc:bcm2835-isp
  driver bcm2835-isp
  card bcm2835-isp
  bus_info platform:bcm2835-isp
  device_caps 0x04a00000
node video3 /sys/devices/platform/scb/fd500000.pcie/pci0000:00/0000:00:00.0/0000:01:00.0/usb1/1-1/1-1.1/1-1.1:1.0
  driver uvcvideo
  card Webcam: Webcam
  bus_info usb-0000:01:00.0-1.1
  device_caps 0x04a00000
node video31 /sys/devices/platform/soc/soc:bcm2835-codec
  driver bcm2835-codec
  card bcm2835-codec-encode_image
  bus_info platform:bcm2835-codec
  device_caps 0x04204000
    [0]: 'JPEG' (JFIF JPEG, compressed)
    Size: Stepwise 32x32 - 1920x1920 with step 2/2
