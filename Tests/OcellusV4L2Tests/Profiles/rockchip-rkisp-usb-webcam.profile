# Rockchip RK3566 board (BTT CB2, BSP kernel 4.19): the rkisp pipeline's queues (main and self
# path, raw write and read, statistics, parameters; multi-planar, stepwise sizes) and a USB
# webcam "3DO USB CAMERA" whose serial is the placeholder 01.00.00. Source:
# Dumps/rockchip-rkisp-btt-cb2-stepwise (node blocks made by Dumps/dump-to-profile.py). The dump
# has no lsusb: the webcam's VID:PID below is not from it (any value serves: the test checks
# the ID by port); its port 1-1 is what the bus info usb-fd880000.usb-1 says.
usb /sys/devices/platform/fd880000.usb/usb1/1-1
  idVendor 0c45
  idProduct 6366
  serial 01.00.00
  product 3DO USB CAMERA
  removable unknown
  speed 480
node video0 /sys/devices/platform/rkisp-vir0
  driver rkisp_v5
  card rkisp_mainpath
  bus_info platform:rkisp-vir0
  device_caps 0x04201000
    [0]: 'UYVY' (UYVY 4:2:2)
    Size: Stepwise 32x16 - 800x600 with step 8/8
    [1]: '422P' (Planar YUV 4:2:2)
    Size: Stepwise 32x16 - 800x600 with step 8/8
    [2]: 'NV16' (Y/CbCr 4:2:2)
    Size: Stepwise 32x16 - 800x600 with step 8/8
    [3]: 'NV61' (Y/CrCb 4:2:2)
    Size: Stepwise 32x16 - 800x600 with step 8/8
    [4]: 'YM16' (Planar YUV 4:2:2 (N-C))
    Size: Stepwise 32x16 - 800x600 with step 8/8
    [5]: 'NV21' (Y/CrCb 4:2:0)
    Size: Stepwise 32x16 - 800x600 with step 8/8
    [6]: 'NV12' (Y/CbCr 4:2:0)
    Size: Stepwise 32x16 - 800x600 with step 8/8
    [7]: 'NM21' (Y/CrCb 4:2:0 (N-C))
    Size: Stepwise 32x16 - 800x600 with step 8/8
    [8]: 'NM12' (Y/CbCr 4:2:0 (N-C))
    Size: Stepwise 32x16 - 800x600 with step 8/8
    [9]: 'YU12' (Planar YUV 4:2:0)
    Size: Stepwise 32x16 - 800x600 with step 8/8
    [10]: 'YM24' (Planar YUV 4:4:4 (N-C))
    Size: Stepwise 32x16 - 800x600 with step 8/8
    [11]: 'RGGB' (8-bit Bayer RGRG/GBGB)
    Size: Stepwise 32x16 - 800x600 with step 8/8
    [12]: 'GRBG' (8-bit Bayer GRGR/BGBG)
    Size: Stepwise 32x16 - 800x600 with step 8/8
    [13]: 'GBRG' (8-bit Bayer GBGB/RGRG)
    Size: Stepwise 32x16 - 800x600 with step 8/8
    [14]: 'BA81' (8-bit Bayer BGBG/GRGR)
    Size: Stepwise 32x16 - 800x600 with step 8/8
    [15]: 'RG10' (10-bit Bayer RGRG/GBGB)
    Size: Stepwise 32x16 - 800x600 with step 8/8
    [16]: 'BA10' (10-bit Bayer GRGR/BGBG)
    Size: Stepwise 32x16 - 800x600 with step 8/8
    [17]: 'GB10' (10-bit Bayer GBGB/RGRG)
    Size: Stepwise 32x16 - 800x600 with step 8/8
    [18]: 'BG10' (10-bit Bayer BGBG/GRGR)
    Size: Stepwise 32x16 - 800x600 with step 8/8
    [19]: 'RG12' (12-bit Bayer RGRG/GBGB)
    Size: Stepwise 32x16 - 800x600 with step 8/8
    [20]: 'BA12' (12-bit Bayer GRGR/BGBG)
    Size: Stepwise 32x16 - 800x600 with step 8/8
    [21]: 'GB12' (12-bit Bayer GBGB/RGRG)
    Size: Stepwise 32x16 - 800x600 with step 8/8
    [22]: 'BG12' (12-bit Bayer BGBG/GRGR)
    Size: Stepwise 32x16 - 800x600 with step 8/8
node video1 /sys/devices/platform/rkisp-vir0
  driver rkisp_v5
  card rkisp_selfpath
  bus_info platform:rkisp-vir0
  device_caps 0x04201000
    [0]: 'UYVY' (UYVY 4:2:2)
    Size: Stepwise 32x16 - 800x600 with step 8/8
    [1]: '422P' (Planar YUV 4:2:2)
    Size: Stepwise 32x16 - 800x600 with step 8/8
    [2]: 'NV16' (Y/CbCr 4:2:2)
    Size: Stepwise 32x16 - 800x600 with step 8/8
    [3]: 'NV61' (Y/CrCb 4:2:2)
    Size: Stepwise 32x16 - 800x600 with step 8/8
    [4]: 'YM16' (Planar YUV 4:2:2 (N-C))
    Size: Stepwise 32x16 - 800x600 with step 8/8
    [5]: 'NV21' (Y/CrCb 4:2:0)
    Size: Stepwise 32x16 - 800x600 with step 8/8
    [6]: 'NV12' (Y/CbCr 4:2:0)
    Size: Stepwise 32x16 - 800x600 with step 8/8
    [7]: 'NM21' (Y/CrCb 4:2:0 (N-C))
    Size: Stepwise 32x16 - 800x600 with step 8/8
    [8]: 'NM12' (Y/CbCr 4:2:0 (N-C))
    Size: Stepwise 32x16 - 800x600 with step 8/8
    [9]: 'YU12' (Planar YUV 4:2:0)
    Size: Stepwise 32x16 - 800x600 with step 8/8
    [10]: 'YM24' (Planar YUV 4:4:4 (N-C))
    Size: Stepwise 32x16 - 800x600 with step 8/8
    [11]: 'GREY' (8-bit Greyscale)
    Size: Stepwise 32x16 - 800x600 with step 8/8
    [12]: 'XR24' (32-bit BGRX 8-8-8-8)
    Size: Stepwise 32x16 - 800x600 with step 8/8
    [13]: 'RGBP' (16-bit RGB 5-6-5)
    Size: Stepwise 32x16 - 800x600 with step 8/8
    [14]: 'FBCG' (Rockchip fbc gain, compressed)
    Size: Stepwise 32x16 - 800x600 with step 8/8
node video10 /sys/devices/platform/fd880000.usb/usb1/1-1/1-1:1.0
  driver uvcvideo
  card 3DO USB CAMERA: 3DO USB CAMERA
  bus_info usb-fd880000.usb-1
  device_caps 0x04a00000
node video2 /sys/devices/platform/rkisp-vir0
  driver rkisp_v5
  card rkisp_rawwr0
  bus_info platform:rkisp-vir0
  device_caps 0x04201000
    [0]: 'RGGB' (8-bit Bayer RGRG/GBGB)
    Size: Stepwise 32x16 - 0x0 with step 8/8
    [1]: 'GRBG' (8-bit Bayer GRGR/BGBG)
    Size: Stepwise 32x16 - 0x0 with step 8/8
    [2]: 'GBRG' (8-bit Bayer GBGB/RGRG)
    Size: Stepwise 32x16 - 0x0 with step 8/8
    [3]: 'BA81' (8-bit Bayer BGBG/GRGR)
    Size: Stepwise 32x16 - 0x0 with step 8/8
    [4]: 'GREY' (8-bit Greyscale)
    Size: Stepwise 32x16 - 0x0 with step 8/8
    [5]: 'RG10' (10-bit Bayer RGRG/GBGB)
    Size: Stepwise 32x16 - 0x0 with step 8/8
    [6]: 'BA10' (10-bit Bayer GRGR/BGBG)
    Size: Stepwise 32x16 - 0x0 with step 8/8
    [7]: 'GB10' (10-bit Bayer GBGB/RGRG)
    Size: Stepwise 32x16 - 0x0 with step 8/8
    [8]: 'BG10' (10-bit Bayer BGBG/GRGR)
    Size: Stepwise 32x16 - 0x0 with step 8/8
    [9]: 'Y10 ' (10-bit Greyscale)
    Size: Stepwise 32x16 - 0x0 with step 8/8
    [10]: 'RG12' (12-bit Bayer RGRG/GBGB)
    Size: Stepwise 32x16 - 0x0 with step 8/8
    [11]: 'BA12' (12-bit Bayer GRGR/BGBG)
    Size: Stepwise 32x16 - 0x0 with step 8/8
    [12]: 'GB12' (12-bit Bayer GBGB/RGRG)
    Size: Stepwise 32x16 - 0x0 with step 8/8
    [13]: 'BG12' (12-bit Bayer BGBG/GRGR)
    Size: Stepwise 32x16 - 0x0 with step 8/8
    [14]: 'Y12 ' (12-bit Greyscale)
    Size: Stepwise 32x16 - 0x0 with step 8/8
    [15]: 'YUYV' (YUYV 4:2:2)
    Size: Stepwise 32x16 - 0x0 with step 8/8
    [16]: 'YVYU' (YVYU 4:2:2)
    Size: Stepwise 32x16 - 0x0 with step 8/8
    [17]: 'UYVY' (UYVY 4:2:2)
    Size: Stepwise 32x16 - 0x0 with step 8/8
    [18]: 'VYUY' (VYUY 4:2:2)
    Size: Stepwise 32x16 - 0x0 with step 8/8
    [19]: 'EBD8' (Embedded data 8-bit, compressed)
    Size: Stepwise 32x16 - 0x0 with step 8/8
    [20]: 'SPD6' (Shield pix data 16-bit, compressed)
    Size: Stepwise 32x16 - 0x0 with step 8/8
node video3 /sys/devices/platform/rkisp-vir0
  driver rkisp_v5
  card rkisp_rawwr2
  bus_info platform:rkisp-vir0
  device_caps 0x04201000
    [0]: 'RGGB' (8-bit Bayer RGRG/GBGB)
    Size: Stepwise 32x16 - 0x0 with step 8/8
    [1]: 'GRBG' (8-bit Bayer GRGR/BGBG)
    Size: Stepwise 32x16 - 0x0 with step 8/8
    [2]: 'GBRG' (8-bit Bayer GBGB/RGRG)
    Size: Stepwise 32x16 - 0x0 with step 8/8
    [3]: 'BA81' (8-bit Bayer BGBG/GRGR)
    Size: Stepwise 32x16 - 0x0 with step 8/8
    [4]: 'GREY' (8-bit Greyscale)
    Size: Stepwise 32x16 - 0x0 with step 8/8
    [5]: 'RG10' (10-bit Bayer RGRG/GBGB)
    Size: Stepwise 32x16 - 0x0 with step 8/8
    [6]: 'BA10' (10-bit Bayer GRGR/BGBG)
    Size: Stepwise 32x16 - 0x0 with step 8/8
    [7]: 'GB10' (10-bit Bayer GBGB/RGRG)
    Size: Stepwise 32x16 - 0x0 with step 8/8
    [8]: 'BG10' (10-bit Bayer BGBG/GRGR)
    Size: Stepwise 32x16 - 0x0 with step 8/8
    [9]: 'Y10 ' (10-bit Greyscale)
    Size: Stepwise 32x16 - 0x0 with step 8/8
    [10]: 'RG12' (12-bit Bayer RGRG/GBGB)
    Size: Stepwise 32x16 - 0x0 with step 8/8
    [11]: 'BA12' (12-bit Bayer GRGR/BGBG)
    Size: Stepwise 32x16 - 0x0 with step 8/8
    [12]: 'GB12' (12-bit Bayer GBGB/RGRG)
    Size: Stepwise 32x16 - 0x0 with step 8/8
    [13]: 'BG12' (12-bit Bayer BGBG/GRGR)
    Size: Stepwise 32x16 - 0x0 with step 8/8
    [14]: 'Y12 ' (12-bit Greyscale)
    Size: Stepwise 32x16 - 0x0 with step 8/8
    [15]: 'YUYV' (YUYV 4:2:2)
    Size: Stepwise 32x16 - 0x0 with step 8/8
    [16]: 'YVYU' (YVYU 4:2:2)
    Size: Stepwise 32x16 - 0x0 with step 8/8
    [17]: 'UYVY' (UYVY 4:2:2)
    Size: Stepwise 32x16 - 0x0 with step 8/8
    [18]: 'VYUY' (VYUY 4:2:2)
    Size: Stepwise 32x16 - 0x0 with step 8/8
    [19]: 'EBD8' (Embedded data 8-bit, compressed)
    Size: Stepwise 32x16 - 0x0 with step 8/8
    [20]: 'SPD6' (Shield pix data 16-bit, compressed)
    Size: Stepwise 32x16 - 0x0 with step 8/8
node video4 /sys/devices/platform/rkisp-vir0
  driver rkisp_v5
  card rkisp_rawwr3
  bus_info platform:rkisp-vir0
  device_caps 0x04201000
    [0]: 'RGGB' (8-bit Bayer RGRG/GBGB)
    Size: Stepwise 32x16 - 0x0 with step 8/8
    [1]: 'GRBG' (8-bit Bayer GRGR/BGBG)
    Size: Stepwise 32x16 - 0x0 with step 8/8
    [2]: 'GBRG' (8-bit Bayer GBGB/RGRG)
    Size: Stepwise 32x16 - 0x0 with step 8/8
    [3]: 'BA81' (8-bit Bayer BGBG/GRGR)
    Size: Stepwise 32x16 - 0x0 with step 8/8
    [4]: 'GREY' (8-bit Greyscale)
    Size: Stepwise 32x16 - 0x0 with step 8/8
    [5]: 'RG10' (10-bit Bayer RGRG/GBGB)
    Size: Stepwise 32x16 - 0x0 with step 8/8
    [6]: 'BA10' (10-bit Bayer GRGR/BGBG)
    Size: Stepwise 32x16 - 0x0 with step 8/8
    [7]: 'GB10' (10-bit Bayer GBGB/RGRG)
    Size: Stepwise 32x16 - 0x0 with step 8/8
    [8]: 'BG10' (10-bit Bayer BGBG/GRGR)
    Size: Stepwise 32x16 - 0x0 with step 8/8
    [9]: 'Y10 ' (10-bit Greyscale)
    Size: Stepwise 32x16 - 0x0 with step 8/8
    [10]: 'RG12' (12-bit Bayer RGRG/GBGB)
    Size: Stepwise 32x16 - 0x0 with step 8/8
    [11]: 'BA12' (12-bit Bayer GRGR/BGBG)
    Size: Stepwise 32x16 - 0x0 with step 8/8
    [12]: 'GB12' (12-bit Bayer GBGB/RGRG)
    Size: Stepwise 32x16 - 0x0 with step 8/8
    [13]: 'BG12' (12-bit Bayer BGBG/GRGR)
    Size: Stepwise 32x16 - 0x0 with step 8/8
    [14]: 'Y12 ' (12-bit Greyscale)
    Size: Stepwise 32x16 - 0x0 with step 8/8
    [15]: 'YUYV' (YUYV 4:2:2)
    Size: Stepwise 32x16 - 0x0 with step 8/8
    [16]: 'YVYU' (YVYU 4:2:2)
    Size: Stepwise 32x16 - 0x0 with step 8/8
    [17]: 'UYVY' (UYVY 4:2:2)
    Size: Stepwise 32x16 - 0x0 with step 8/8
    [18]: 'VYUY' (VYUY 4:2:2)
    Size: Stepwise 32x16 - 0x0 with step 8/8
    [19]: 'EBD8' (Embedded data 8-bit, compressed)
    Size: Stepwise 32x16 - 0x0 with step 8/8
    [20]: 'SPD6' (Shield pix data 16-bit, compressed)
    Size: Stepwise 32x16 - 0x0 with step 8/8
node video5 /sys/devices/platform/rkisp-vir0
  driver rkisp_v5
  card rkisp_rawrd0_m
  bus_info platform:rkisp-vir0
  device_caps 0x04202000
node video6 /sys/devices/platform/rkisp-vir0
  driver rkisp_v5
  card rkisp_rawrd2_s
  bus_info platform:rkisp-vir0
  device_caps 0x04202000
node video7 /sys/devices/platform/rkisp-vir0
  driver rkisp_v5
  card rkisp-statistics
  bus_info platform: rkisp
  device_caps 0x04a00000
node video8 /sys/devices/platform/rkisp-vir0
  driver rkisp_v5
  card rkisp-input-params
  bus_info platform: rkisp
  device_caps 0x0c200000
node video9 /sys/devices/platform/fd880000.usb/usb1/1-1/1-1:1.0
  driver uvcvideo
  card 3DO USB CAMERA: 3DO USB CAMERA
  bus_info usb-fd880000.usb-1
  device_caps 0x04200001
    [0]: 'MJPG' (Motion-JPEG, compressed)
    Size: Discrete 1920x1080
    Interval: Discrete 0.017s (60.000 fps)
    Interval: Discrete 0.033s (30.000 fps)
    Size: Discrete 3840x2160
    Interval: Discrete 0.033s (30.000 fps)
    Size: Discrete 640x480
    Interval: Discrete 0.017s (60.000 fps)
    Interval: Discrete 0.033s (30.000 fps)
    Size: Discrete 160x120
    Interval: Discrete 0.017s (60.000 fps)
    Interval: Discrete 0.033s (30.000 fps)
    Size: Discrete 176x144
    Interval: Discrete 0.017s (60.000 fps)
    Interval: Discrete 0.033s (30.000 fps)
    Size: Discrete 320x180
    Interval: Discrete 0.017s (60.000 fps)
    Interval: Discrete 0.033s (30.000 fps)
    Size: Discrete 320x240
    Interval: Discrete 0.017s (60.000 fps)
    Interval: Discrete 0.033s (30.000 fps)
    Size: Discrete 352x288
    Interval: Discrete 0.017s (60.000 fps)
    Interval: Discrete 0.033s (30.000 fps)
    Size: Discrete 340x340
    Interval: Discrete 0.017s (60.000 fps)
    Interval: Discrete 0.033s (30.000 fps)
    Size: Discrete 424x240
    Interval: Discrete 0.017s (60.000 fps)
    Interval: Discrete 0.033s (30.000 fps)
    Size: Discrete 440x440
    Interval: Discrete 0.017s (60.000 fps)
    Interval: Discrete 0.033s (30.000 fps)
    Size: Discrete 480x270
    Interval: Discrete 0.017s (60.000 fps)
    Interval: Discrete 0.033s (30.000 fps)
    Size: Discrete 640x360
    Interval: Discrete 0.033s (30.000 fps)
    Size: Discrete 800x448
    Interval: Discrete 0.017s (60.000 fps)
    Interval: Discrete 0.033s (30.000 fps)
    Size: Discrete 800x600
    Interval: Discrete 0.017s (60.000 fps)
    Interval: Discrete 0.033s (30.000 fps)
    Size: Discrete 848x480
    Interval: Discrete 0.017s (60.000 fps)
    Interval: Discrete 0.033s (30.000 fps)
    Size: Discrete 960x540
    Interval: Discrete 0.017s (60.000 fps)
    Interval: Discrete 0.033s (30.000 fps)
    Size: Discrete 1024x576
    Interval: Discrete 0.017s (60.000 fps)
    Interval: Discrete 0.033s (30.000 fps)
    Size: Discrete 1280x720
    Interval: Discrete 0.017s (60.000 fps)
    Interval: Discrete 0.033s (30.000 fps)
    Size: Discrete 1600x896
    Interval: Discrete 0.017s (60.000 fps)
    Interval: Discrete 0.033s (30.000 fps)
    Size: Discrete 2560x1440
    Interval: Discrete 0.033s (30.000 fps)
    Size: Discrete 3840x3104
    Interval: Discrete 0.033s (30.000 fps)
    Size: Discrete 3264x2448
    Interval: Discrete 0.033s (30.000 fps)
    Size: Discrete 2592x1944
    Interval: Discrete 0.033s (30.000 fps)
    Size: Discrete 2048x1536
    Interval: Discrete 0.033s (30.000 fps)
    Size: Discrete 1600x1200
    Interval: Discrete 0.033s (30.000 fps)
    Size: Discrete 1024x768
    Interval: Discrete 0.017s (60.000 fps)
    Interval: Discrete 0.033s (30.000 fps)
    [1]: 'YUYV' (YUYV 4:2:2)
    Size: Discrete 1920x1080
    Interval: Discrete 0.200s (5.000 fps)
    Size: Discrete 3840x2160
    Interval: Discrete 1.000s (1.000 fps)
    Size: Discrete 640x480
    Interval: Discrete 0.033s (30.000 fps)
    Size: Discrete 160x120
    Interval: Discrete 0.033s (30.000 fps)
    Size: Discrete 176x144
    Interval: Discrete 0.033s (30.000 fps)
    Size: Discrete 320x180
    Interval: Discrete 0.033s (30.000 fps)
    Size: Discrete 320x240
    Interval: Discrete 0.033s (30.000 fps)
    Size: Discrete 352x288
    Interval: Discrete 0.033s (30.000 fps)
    Size: Discrete 340x340
    Interval: Discrete 0.033s (30.000 fps)
    Size: Discrete 424x240
    Interval: Discrete 0.033s (30.000 fps)
    Size: Discrete 440x440
    Interval: Discrete 0.033s (30.000 fps)
    Size: Discrete 480x270
    Interval: Discrete 0.033s (30.000 fps)
    Size: Discrete 640x360
    Interval: Discrete 0.033s (30.000 fps)
    Size: Discrete 800x448
    Interval: Discrete 0.033s (30.000 fps)
    Size: Discrete 800x600
    Interval: Discrete 0.100s (10.000 fps)
    Size: Discrete 848x480
    Interval: Discrete 0.033s (30.000 fps)
    Size: Discrete 960x540
    Interval: Discrete 0.100s (10.000 fps)
    Size: Discrete 1024x576
    Interval: Discrete 0.100s (10.000 fps)
    Size: Discrete 1280x720
    Interval: Discrete 0.100s (10.000 fps)
    Size: Discrete 1600x896
    Interval: Discrete 0.200s (5.000 fps)
    Size: Discrete 2560x1440
    Interval: Discrete 1.000s (1.000 fps)
    Size: Discrete 3840x3104
    Interval: Discrete 1.000s (1.000 fps)
    Size: Discrete 3264x2448
    Interval: Discrete 1.000s (1.000 fps)
    Size: Discrete 2592x1944
    Interval: Discrete 1.000s (1.000 fps)
    Size: Discrete 2048x1536
    Interval: Discrete 1.000s (1.000 fps)
    Size: Discrete 1600x1200
    Interval: Discrete 1.000s (1.000 fps)
    Size: Discrete 1024x768
    Interval: Discrete 0.100s (10.000 fps)
