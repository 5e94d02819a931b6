import ocellus

with ocellus.open_camera("NV12") as camera:   # the system preferred camera
    image = camera.read()                      # a NumPy array, as OpenCV shapes NV12
print(f"{camera.device.name}: {image.shape} {image.dtype}")
