/*
 * ocellus.h — the C interface of Ocellus, a camera-capture library for Linux.
 *
 * One header, C99, every public name prefixed `oc_` / `OC_`. All handles are
 * opaque. Fallible functions return an `oc_status` (0 on success, negative on
 * error) and leave a message for the calling thread in oc_last_error_message().
 *
 * Threading: unless a function says otherwise, it may be called from any
 * thread. Callbacks run on a thread owned by the library (never a thread of the
 * caller), one at a time per context.
 *
 * Calls from inside a callback follow one rule for every object that takes
 * callbacks: replacing, clearing or unregistering the object's callback from
 * inside that callback takes effect for every later call and returns at once
 * (the current call finishes normally). A call that would have to wait for the
 * callback's own thread to finish — destroying the object whose callback is
 * running, stopping or restarting the stream that delivers it — is refused
 * with OC_ERROR_WRONG_STATE (a void function then does nothing and leaves the
 * message in oc_last_error_message()); nothing ever waits for itself.
 *
 * Strings: paths, names and bus addresses are taken as UTF-8 bytes, exactly as
 * given; a string that is not valid UTF-8 is refused with
 * OC_ERROR_INVALID_ARGUMENT rather than changed.
 *
 * ABI rules: a function's signature never changes; a changed behaviour gets a
 * new function. Structs the caller fills start with `struct_size`, which the
 * caller sets (via the matching *_init function) so that the struct can grow.
 */
#ifndef OCELLUS_H
#define OCELLUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Version                                                                    */
/* ------------------------------------------------------------------------ */
/*
 * Mirrors (docs/contributing.md): Sources/OcellusCABI/ VersionABI.swift;
 * cli/ main.c; bindings/python/ocellus/ _library.py;
 * bindings/rust/ocellus/src/ version.rs.
 */

/** Version of the header this program was compiled against. */
#define OCELLUS_VERSION_MAJOR 0
#define OCELLUS_VERSION_MINOR 3
#define OCELLUS_VERSION_PATCH 0
#define OCELLUS_VERSION_STRING "0.3.0"

/**
 * The version of the library loaded at run time, "MAJOR.MINOR.PATCH".
 *
 * \returns a static string; the caller must not free it.
 * \threadsafety Safe from any thread.
 */
const char *oc_version(void);

/* ------------------------------------------------------------------------ */
/* Status codes and errors                                                    */
/* ------------------------------------------------------------------------ */
/*
 * Mirrors (docs/contributing.md): Sources/OcellusCABI/ ErrorsABI.swift, LastError.swift;
 * cli/ output.c; bindings/python/ocellus/ errors.py, _library.py;
 * bindings/rust/ocellus/src/ error.rs.
 */

/** Result of a fallible call: OC_OK (0) or one of the negative codes below. */
typedef int32_t oc_status;

enum {
    OC_OK = 0, /**< Success. */
    /** An argument was NULL, out of range or malformed (e.g. an invalid app ID). */
    OC_ERROR_INVALID_ARGUMENT = -1,
    /** A handle was NULL where one is required, already destroyed, or released. */
    OC_ERROR_INVALID_HANDLE = -2,
    /** A backend (e.g. the PipeWire daemon) could not be reached or went away. */
    OC_ERROR_BACKEND_UNAVAILABLE = -3,
    /** The thing asked for (device, registration) does not exist. */
    OC_ERROR_NOT_FOUND = -4,
    /** The call is not allowed in the object's current state. */
    OC_ERROR_WRONG_STATE = -5,
    /** An operation did not complete in time. */
    OC_ERROR_TIMEOUT = -6,
    /** Memory or another resource ran out (including USB bandwidth). */
    OC_ERROR_NO_RESOURCES = -7,
    /** The device is in use by another client (V4L2 EBUSY). */
    OC_ERROR_BUSY = -8,
    /** The device went away. */
    OC_ERROR_DISCONNECTED = -9,
    /** Reading or writing a file failed (unwritable path, disk full), or data was corrupt. */
    OC_ERROR_IO = -10,
    /**
     * An optional library Ocellus loads on first use is not installed: FFmpeg's
     * libavcodec/libavformat/libavutil, for movie files, H.264 cameras and photos from
     * cameras that leave out JPEG tables. The message names it. Added in 0.2.
     */
    OC_ERROR_LIBRARY_UNAVAILABLE = -11,
    /**
     * The app may not use the camera: the camera portal or the user refused (see
     * oc_context_request_camera_access()), or the system's permissions keep it from
     * a device node (EACCES: the user is not in the `video` group) or the PipeWire
     * daemon. The message says which, and what to do.
     */
    OC_ERROR_PERMISSION_DENIED = -12,
    /** Anything else; the message says what. */
    OC_ERROR_OTHER = -99
};

/**
 * A short constant name for a status code, e.g. "OC_ERROR_INVALID_HANDLE".
 *
 * \returns a static string ("OC_ERROR_UNKNOWN" for codes not listed above);
 *          the caller must not free it.
 * \threadsafety Safe from any thread.
 */
const char *oc_status_name(oc_status status);

/**
 * The message of the last failed Ocellus call made on the calling thread.
 *
 * Every function that fails (returns a negative oc_status, or NULL / an
 * invalid value where documented) sets it; successful calls leave it as it
 * was. The message is in plain English and names what went wrong.
 *
 * \returns a string owned by the library, valid until the next Ocellus call
 *          on the same thread; never NULL ("" when no error occurred yet).
 * \threadsafety Thread-local: each thread sees only its own last error.
 */
const char *oc_last_error_message(void);

/* ------------------------------------------------------------------------ */
/* Context                                                                    */
/* ------------------------------------------------------------------------ */
/*
 * Mirrors (docs/contributing.md): Sources/OcellusCABI/ ContextABI.swift, ContextBox.swift;
 * cli/ library.c; bindings/python/ocellus/ context.py;
 * bindings/rust/ocellus/src/ context.rs.
 */

/** A library context: one connection to the system's cameras for one app. */
typedef struct oc_context oc_context;

/** Options for oc_context_create(). Fill with oc_context_options_init() first. */
typedef struct oc_context_options {
    /** sizeof(oc_context_options) as the caller knows it; set by _init. */
    uint32_t struct_size;
    /**
     * PipeWire remote: a socket name or absolute socket path. NULL means the
     * PIPEWIRE_REMOTE environment variable, else PipeWire's default socket.
     * The string is copied.
     */
    const char *pipewire_remote;
    /**
     * Directory for per-app state (preferences). NULL means $OCELLUS_STATE_DIR,
     * else $XDG_STATE_HOME/ocellus, else ~/.local/state/ocellus. Copied.
     */
    const char *state_directory;
    /**
     * How long oc_context_create() may wait for the backend to connect and
     * finish its first enumeration, in milliseconds. 0 means the default (3000).
     */
    uint32_t timeout_ms;
} oc_context_options;

/**
 * Fill `options` with defaults (all NULL / 0) and set its struct_size.
 *
 * \param options the struct to fill; NULL is ignored.
 * \threadsafety Safe from any thread.
 */
void oc_context_options_init(oc_context_options *options);

/**
 * Create a context for the application `app_id` and connect it to the
 * system's camera backends.
 *
 * The call returns once the first enumeration is complete: the device list of
 * the new context already holds every camera and microphone present.
 *
 * \param app_id   the application's ID, e.g. "org.example.Meet":
 *                 1–255 characters from [A-Za-z0-9._-], not starting with '.'.
 *                 Copied.
 * \param options  NULL for defaults, else a struct filled by
 *                 oc_context_options_init() and then adjusted. Not retained.
 * \param out      receives the new context; set to NULL on failure.
 * \returns OC_OK; OC_ERROR_INVALID_ARGUMENT for a bad app ID, options or NULL
 *          `out`; OC_ERROR_BACKEND_UNAVAILABLE when no backend can be
 *          reached (e.g. no PipeWire daemon at the remote); OC_ERROR_TIMEOUT
 *          when the backend did not answer within options->timeout_ms.
 *          Call oc_last_error_message() for details.
 * \ownership The caller owns the context and destroys it with
 *            oc_context_destroy().
 * \threadsafety Safe from any thread.
 */
oc_status oc_context_create(const char *app_id, const oc_context_options *options,
                            oc_context **out);

/**
 * Destroy a context: unregisters all its callbacks (waiting for any callback
 * in flight to return), disconnects its backends and invalidates the handle.
 *
 * Devices retained from the context stay valid (and disconnected) until
 * released. Passing NULL or an already destroyed context does nothing beyond
 * setting the last error message.
 *
 * \threadsafety Safe from any thread except from inside one of this context's
 *               callbacks, where it fails with OC_ERROR_WRONG_STATE recorded
 *               as the last error and does nothing.
 */
void oc_context_destroy(oc_context *ctx);

/**
 * The app ID the context was created with.
 *
 * \returns a string owned by the context, valid until it is destroyed; NULL
 *          for an invalid handle.
 * \threadsafety Safe from any thread.
 */
const char *oc_context_app_id(const oc_context *ctx);

/**
 * The per-app state directory the context resolved: options->state_directory,
 * else $OCELLUS_STATE_DIR, else $XDG_STATE_HOME/ocellus (when absolute), else
 * ~/.local/state/ocellus. It is created only when state is first written.
 *
 * \returns a string owned by the context, valid until it is destroyed; NULL
 *          for an invalid handle.
 * \threadsafety Safe from any thread.
 */
const char *oc_context_state_directory(const oc_context *ctx);


/* ------------------------------------------------------------------------ */
/* Devices                                                                    */
/* ------------------------------------------------------------------------ */
/*
 * Mirrors (docs/contributing.md): Sources/OcellusCABI/ DevicesABI.swift, DeviceHandles.swift,
 * AccessABI.swift;
 * cli/ list.c, microphones.c, access.c, library.c; bindings/python/ocellus/ devices.py, context.py (access);
 * bindings/rust/ocellus/src/ device.rs, access.rs.
 */

/** One capture device (camera or microphone). Reference counted. */
typedef struct oc_device oc_device;

/** A snapshot list of devices. */
typedef struct oc_device_list oc_device_list;

/** What kind of device a device is (oc_device_get_type()). */
typedef enum oc_device_type {
    OC_DEVICE_TYPE_BUILT_IN_CAMERA = 0, /**< Part of the machine: a laptop's or board's camera. */
    OC_DEVICE_TYPE_EXTERNAL_CAMERA = 1, /**< Plugged in: USB webcams, display cameras, capture dongles. */
    OC_DEVICE_TYPE_VIRTUAL_CAMERA = 2,  /**< Made in software: v4l2loopback, a PipeWire source, a screen. */
    OC_DEVICE_TYPE_DEPTH_CAMERA = 3,    /**< A camera that also (or only) delivers depth maps. */
    OC_DEVICE_TYPE_MICROPHONE = 4       /**< An audio input (a camera's, a headset's, the machine's). */
} oc_device_type;

/** Which way a built-in camera faces (oc_device_get_position()). */
typedef enum oc_device_position {
    OC_DEVICE_POSITION_UNSPECIFIED = 0, /**< Not known, or not fixed (external and virtual cameras). */
    OC_DEVICE_POSITION_FRONT = 1,       /**< Faces the user: the screen side. */
    OC_DEVICE_POSITION_BACK = 2         /**< Faces away from the user. */
} oc_device_position;

/** Where a device is reached: through the PipeWire daemon, or its V4L2 node directly. */
typedef enum oc_backend {
    OC_BACKEND_PIPEWIRE = 0, /**< Through the PipeWire daemon (shared with other apps). */
    OC_BACKEND_V4L2 = 1      /**< The kernel's /dev/video node, opened by the library itself. */
} oc_backend;

/**
 * The names `ocellus list --json` writes: "built_in_camera", "external_camera",
 * "virtual_camera", "depth_camera", "microphone"; "unspecified", "front",
 * "back"; "pipewire", "v4l2". NULL for a value not in the enum (the last error
 * says so). \ownership Static strings. \threadsafety Any thread.
 */
const char *oc_device_type_name(oc_device_type type);
const char *oc_device_position_name(oc_device_position position);
const char *oc_backend_name(oc_backend backend);

/**
 * Why a backend of the context is not running, e.g. no PipeWire daemon at the
 * default socket (the context then works on raw V4L2 alone), or that the
 * daemon went away. A context created with an explicit
 * options->pipewire_remote fails instead when that daemon is unreachable.
 *
 * \param buffer receives the NUL-terminated message, truncated to `size`;
 *               may be NULL when `size` is 0.
 * \returns the message length without the NUL; 0 (and "" in `buffer`) when the
 *          backend runs, or for an invalid handle or unknown backend (which set
 *          the last error).
 * \threadsafety Safe from any thread.
 */
size_t oc_context_copy_backend_problem(const oc_context *ctx, oc_backend backend, char *buffer, size_t size);

/*
 * Camera access (behaviour §1 access), as AVFoundation's authorizationStatus and
 * requestAccess. A sandboxed app (Flatpak's /.flatpak-info, Snap's $SNAP, or
 * OCELLUS_CAMERA_PORTAL=1 in the environment; =0 forces the direct route) reaches
 * cameras only through the xdg-desktop-portal Camera portal: no V4L2 nodes, and
 * PipeWire through a connection the portal hands over that sees cameras only. Until
 * access is granted such a context lists no cameras; once granted they arrive as
 * hotplug events. Other apps are authorized: the system's permissions decide per
 * device (OC_ERROR_PERMISSION_DENIED when a node or the daemon refuses).
 */

/** Whether the app may use cameras. */
typedef enum oc_camera_authorization {
    /** Not asked yet; in a sandbox, until the app asks (or the portal has its stored yes). */
    OC_CAMERA_AUTHORIZATION_NOT_DETERMINED = 0,
    OC_CAMERA_AUTHORIZATION_AUTHORIZED = 1,
    /** The user said no; the desktop remembers it, and asking again answers no without a dialog. */
    OC_CAMERA_AUTHORIZATION_DENIED = 2,
    /** Nobody can grant it here: the camera portal is not running, or has no Camera interface. */
    OC_CAMERA_AUTHORIZATION_RESTRICTED = 3
} oc_camera_authorization;

/**
 * Whether the context may use cameras now. NOT_DETERMINED for an invalid handle
 * (which sets the last error). \threadsafety Any thread.
 */
oc_camera_authorization oc_context_camera_authorization(const oc_context *ctx);

/** Whether the context reaches cameras through the camera portal (false: directly). \threadsafety Any thread. */
bool oc_context_uses_camera_portal(const oc_context *ctx);

/**
 * "not_determined", "authorized", "denied" or "restricted"; NULL (and the last
 * error) for an unknown value. \ownership Static. \threadsafety Any thread.
 */
const char *oc_camera_authorization_name(oc_camera_authorization authorization);

/**
 * The answer to oc_context_request_camera_access(): the authorization now, and
 * `status` OC_OK or why not (OC_ERROR_PERMISSION_DENIED: denied or dismissed;
 * OC_ERROR_BACKEND_UNAVAILABLE: no portal; OC_ERROR_TIMEOUT) with `message`
 * (valid during the call).
 */
typedef void (*oc_camera_access_callback)(oc_context *ctx, oc_camera_authorization authorization, oc_status status,
                                          const char *message, void *user_data);

/**
 * Ask for camera access: in a sandbox the desktop shows its dialog (unless the
 * permission store has the app's answer); directly, the answer is AUTHORIZED at
 * once. Returns at once; `callback` runs once, on the context's event thread (as
 * hotplug callbacks do), when the answer comes — the cameras, if granted, are
 * listed by then. A request outstanding when the context is destroyed is not answered.
 * \returns OC_OK, OC_ERROR_INVALID_HANDLE, OC_ERROR_INVALID_ARGUMENT (NULL callback).
 * \threadsafety Any thread, including the context's callbacks.
 */
oc_status oc_context_request_camera_access(oc_context *ctx, oc_camera_access_callback callback, void *user_data);

/** A frame rate as a fraction, e.g. 30/1 or 30000/1001 frames per second. */
typedef struct oc_fraction {
    uint32_t numerator;   /**< Frames (for a rate) or the top of the fraction. */
    uint32_t denominator; /**< Seconds; never 0 in a filled fraction. */
} oc_fraction;

/** One format a device offers. Filled by oc_device_get_format(). */
typedef struct oc_format_info {
    /** sizeof(oc_format_info) as the caller knows it; set by the caller. */
    uint32_t struct_size;
    /** V4L2 fourcc, e.g. 'YUYV', 'NV12', 'MJPG' (see oc_fourcc_string()). */
    uint32_t pixel_format;
    uint32_t width;  /**< Pixels (the largest, for a range of sizes). */
    uint32_t height; /**< Pixels (the largest, for a range of sizes). */
    /** Number of entries in frame_rates. */
    uint32_t frame_rate_count;
    /**
     * Frame rates offered at this size, highest first. When
     * frame_rates_are_range is true the list has two entries, the maximum and
     * the minimum of a continuous range. Owned by the device; valid while the
     * device is retained.
     */
    const oc_fraction *frame_rates;
    bool frame_rates_are_range; /**< frame_rates holds the maximum and minimum of a continuous range. */
    /**
     * The format's sizes are a range (a driver's stepwise or continuous frame
     * sizes): any width min_width + k × step_width up to width, and likewise for
     * height, streams; width × height is the largest. False for one size. The
     * fields below are filled when struct_size covers them (added in 0.2; a
     * smaller struct from 0.1 is filled up to frame_rates_are_range).
     */
    bool sizes_are_range;
    uint32_t min_width;
    uint32_t min_height;
    uint32_t step_width;
    uint32_t step_height;
} oc_format_info;

/** What happened to the device a hotplug or discovery callback names. */
typedef enum oc_hotplug_event {
    OC_HOTPLUG_ADDED = 0,  /**< The device appeared (plugged in, or its backend came up). */
    OC_HOTPLUG_REMOVED = 1 /**< The device went away; its handle stays valid but disconnected. */
} oc_hotplug_event;

/**
 * Take a snapshot of the context's connected devices, cameras first in the
 * default selection order (built-in front, external, built-in back, others,
 * virtual cameras, then microphones), each group by name.
 *
 * \param out receives a new list; NULL on failure.
 * \returns OC_OK, OC_ERROR_INVALID_HANDLE or OC_ERROR_INVALID_ARGUMENT.
 * \ownership The caller owns the list and frees it with oc_device_list_free().
 * \threadsafety Safe from any thread, including from callbacks.
 */
oc_status oc_context_copy_devices(oc_context *ctx, oc_device_list **out);

/**
 * Number of devices in a list; 0 for NULL or an invalid list (which also sets
 * the last error).
 * \threadsafety Safe from any thread; a list itself is immutable.
 */
size_t oc_device_list_count(const oc_device_list *list);

/**
 * The device at `index`.
 *
 * \returns a device borrowed from the list (valid until the list is freed;
 *          call oc_device_retain() to keep it longer), or NULL for an invalid
 *          list or an index out of range.
 * \threadsafety Safe from any thread.
 */
oc_device *oc_device_list_get(const oc_device_list *list, size_t index);

/**
 * Free a list (and release the references it holds). NULL is ignored.
 * \threadsafety Safe from any thread; the list must not be used afterwards.
 */
void oc_device_list_free(oc_device_list *list);

/**
 * Take another reference to a device.
 * \returns `device`, or NULL for an invalid handle.
 * \ownership The caller owns the new reference and drops it with
 *            oc_device_release().
 * \threadsafety Safe from any thread.
 */
oc_device *oc_device_retain(oc_device *device);

/**
 * Drop a reference the caller owns (from oc_device_retain() or a copy
 * function). The device is freed with its last reference; using the handle
 * after that is reported as OC_ERROR_INVALID_HANDLE. NULL is ignored. A device
 * the caller only borrows (from oc_device_list_get() or a callback) has no
 * reference of the caller's to drop: nothing is released and
 * oc_last_error_message() says so, so the list's entry stays valid.
 * \threadsafety Safe from any thread.
 */
void oc_device_release(oc_device *device);

/**
 * The device's unique ID (behaviour §1): stable across replug and reboot, e.g.
 * "usb-046d:0825-A1B2C3D4", "usb-534d:2109@1-2.3" or "pipewire-<node.name>".
 * A replugged device is a new oc_device with the same unique ID.
 *
 * \returns a string owned by the device, valid while it is retained; NULL for
 *          an invalid handle.
 * \threadsafety Safe from any thread.
 */
const char *oc_device_unique_id(const oc_device *device);

/**
 * The human name (USB product string, V4L2 card or PipeWire description).
 * \returns a string owned by the device, valid while it is retained; NULL for
 *          an invalid handle.
 * \threadsafety Safe from any thread.
 */
const char *oc_device_name(const oc_device *device);

/**
 * The device type; OC_DEVICE_TYPE_VIRTUAL_CAMERA with the last error set for
 * an invalid handle (check the handle first when that matters).
 * \threadsafety Safe from any thread.
 */
oc_device_type oc_device_get_type(const oc_device *device);

/**
 * Where the camera faces; external cameras are always UNSPECIFIED.
 * UNSPECIFIED (and the last error set) for an invalid handle.
 * \threadsafety Safe from any thread.
 */
oc_device_position oc_device_get_position(const oc_device *device);

/**
 * Which backend delivers this device; OC_BACKEND_PIPEWIRE (and the last error
 * set) for an invalid handle.
 * \threadsafety Safe from any thread.
 */
oc_backend oc_device_get_backend(const oc_device *device);

/**
 * Whether the device is still present. Becomes false, for good, when the
 * device goes away; false (and the last error set) for an invalid handle.
 * \threadsafety Safe from any thread.
 */
bool oc_device_is_connected(const oc_device *device);

/**
 * Whether several applications can stream this device at once (behaviour §4
 * multitasking): true through PipeWire, false for raw V4L2, which is exclusive.
 * False (and the last error set) for an invalid handle.
 * \threadsafety Safe from any thread.
 */
bool oc_device_supports_multitasking(const oc_device *device);

/**
 * USB identity when known: vendor and product ID, else 0 (also for an invalid
 * handle, which sets the last error).
 * \threadsafety Safe from any thread.
 */
uint16_t oc_device_vendor_id(const oc_device *device);
uint16_t oc_device_product_id(const oc_device *device);

/**
 * The device's serial number as the system reports it, or NULL when it has
 * none (or an invalid handle). Owned by the device; valid while it is retained.
 * \threadsafety Safe from any thread.
 */
const char *oc_device_serial_number(const oc_device *device);

/**
 * A backend property as reported by the system (e.g. PipeWire's
 * "device.bus-path", "api.v4l2.path", "object.serial"), or NULL when the
 * device does not have it. Owned by the device; valid while it is retained.
 * \threadsafety Safe from any thread.
 */
const char *oc_device_get_property(const oc_device *device, const char *key);

/**
 * A camera's own microphone — the audio interface of the same USB device — when
 * it is connected (behaviour §1 associated_microphone).
 *
 * \param out receives a new reference (release it), or NULL when the camera has
 *            none connected or `camera` is not a camera.
 * \returns OC_OK, OC_ERROR_INVALID_HANDLE, OC_ERROR_INVALID_ARGUMENT (NULL out).
 * \threadsafety Safe from any thread.
 */
oc_status oc_context_copy_associated_microphone(oc_context *ctx, oc_device *camera, oc_device **out);

/**
 * Number of formats the device offers (0 for microphones for now, and for an
 * invalid handle, which sets the last error).
 * \threadsafety Safe from any thread.
 */
size_t oc_device_format_count(const oc_device *device);

/**
 * Describe format `index`.
 *
 * \param info the caller's struct with struct_size set to
 *             sizeof(oc_format_info); filled on success.
 * \returns OC_OK, OC_ERROR_INVALID_HANDLE, or OC_ERROR_INVALID_ARGUMENT for
 *          a NULL `info`, a too small struct_size or an index out of range.
 * \ownership info->frame_rates points into the device; it stays valid while
 *            the device is retained.
 * \threadsafety Safe from any thread.
 */
oc_status oc_device_get_format(const oc_device *device, size_t index, oc_format_info *info);

/**
 * Write the characters of a fourcc into `buffer` (at least 5 bytes, owned by
 * the caller) as a NUL-terminated string without trailing spaces, e.g. "YUYV".
 * \returns `buffer`, or NULL (with the last error set) when buffer is NULL.
 * \threadsafety Safe from any thread.
 */
char *oc_fourcc_string(uint32_t fourcc, char *buffer);

/** The fourcc of four characters, as V4L2's v4l2_fourcc(). */
#define OC_FOURCC(a, b, c, d) \
    ((uint32_t)(a) | ((uint32_t)(b) << 8) | ((uint32_t)(c) << 16) | ((uint32_t)(d) << 24))

/*
 * Pixel formats outputs can ask for (oc_video_data_output_set_format()), by the
 * names people use. Packed RGB is named by byte order in memory: BGRA is B, G,
 * R, A (OpenCV's order with alpha), BGR24 is OpenCV's default three-byte order.
 */
#define OC_PIXEL_FORMAT_NV12  OC_FOURCC('N', 'V', '1', '2')   /**< 8-bit Y plane, then interleaved U/V at half size: the default output format */
#define OC_PIXEL_FORMAT_I420  OC_FOURCC('Y', 'U', '1', '2')   /**< V4L2's YU12 */
#define OC_PIXEL_FORMAT_YUYV  OC_FOURCC('Y', 'U', 'Y', 'V')   /**< packed 4:2:2, Y U Y V (YUY2) */
#define OC_PIXEL_FORMAT_UYVY  OC_FOURCC('U', 'Y', 'V', 'Y')   /**< packed 4:2:2, U Y V Y */
#define OC_PIXEL_FORMAT_MJPEG OC_FOURCC('M', 'J', 'P', 'G')   /**< the camera's JPEGs, as they came */
#define OC_PIXEL_FORMAT_H264  OC_FOURCC('H', '2', '6', '4')   /**< the camera's H.264 access units, as they came */
#define OC_PIXEL_FORMAT_BGRA  OC_FOURCC('A', 'R', '2', '4')   /**< 32-bit B, G, R, A in memory (DRM's AR24) */
#define OC_PIXEL_FORMAT_RGBA  OC_FOURCC('A', 'B', '2', '4')   /**< 32-bit R, G, B, A in memory (DRM's AB24) */
#define OC_PIXEL_FORMAT_BGR24 OC_FOURCC('B', 'G', 'R', '3')   /**< 24-bit B, G, R in memory (OpenCV's default) */
#define OC_PIXEL_FORMAT_RGB24 OC_FOURCC('R', 'G', 'B', '3')   /**< 24-bit R, G, B in memory */
#define OC_PIXEL_FORMAT_GRAY8 OC_FOURCC('G', 'R', 'E', 'Y')   /**< 8-bit luma only */
#define OC_PIXEL_FORMAT_Z16   OC_FOURCC('Z', '1', '6', ' ')   /**< 16-bit depth */

/**
 * The pixel format called `name`: NV12, I420 (or YU12), YUYV (YUY2), UYVY,
 * MJPEG (MJPG), H264, BGRA, RGBA, BGR24, RGB24, GRAY8 (GREY) in any case, or any
 * four printable characters as a V4L2 code.
 * \returns OC_OK; OC_ERROR_INVALID_ARGUMENT for NULL arguments or an unknown name
 *          ("unknown pixel format X; known: …").
 * \threadsafety Safe from any thread.
 */
oc_status oc_pixel_format_from_name(const char *name, uint32_t *out);

/**
 * The one name Ocellus uses for a pixel format in every output: the everyday
 * name oc_pixel_format_from_name() takes first ("NV12", "I420", "YUYV", "UYVY",
 * "MJPEG", "H264", "BGRA", "RGBA", "BGRX", "BGR24", "RGB24", "GRAY8"), else the
 * V4L2 code without padding ("Z16"), with "-BE" for the big-endian flag and hex
 * for unprintable codes; oc_fourcc_string() gives the raw code. snprintf-style: writes at
 * most `size` bytes (NUL-terminated) into `buffer` (owned by the caller; NULL
 * when `size` is 0). \returns the name's length without the NUL.
 * \threadsafety Safe from any thread.
 */
size_t oc_pixel_format_name(uint32_t fourcc, char *buffer, size_t size);

/* ------------------------------------------------------------------------ */
/* Controls (behaviour §1)                                                         */
/* ------------------------------------------------------------------------ */
/*
 * Mirrors (docs/contributing.md): Sources/OcellusCABI/ ControlsABI.swift;
 * cli/ controls.c; bindings/python/ocellus/ devices.py;
 * bindings/rust/ocellus/src/ device.rs.
 */

/** Control types (the V4L2 ones Ocellus handles). */
typedef enum oc_control_type {
    OC_CONTROL_TYPE_INTEGER = 1,
    OC_CONTROL_TYPE_BOOLEAN = 2,
    OC_CONTROL_TYPE_MENU = 3,
    OC_CONTROL_TYPE_BUTTON = 4,
    OC_CONTROL_TYPE_INTEGER64 = 5,
    OC_CONTROL_TYPE_STRING = 7,
    OC_CONTROL_TYPE_BITMASK = 8,
    OC_CONTROL_TYPE_INTEGER_MENU = 9,
    /** Compound types (always payload controls): arrays of 8-, 16- and 32-bit unsigned
     * integers, and a width and height (two uint32_t). Added in 0.2. */
    OC_CONTROL_TYPE_U8 = 0x0100,
    OC_CONTROL_TYPE_U16 = 0x0101,
    OC_CONTROL_TYPE_U32 = 0x0102,
    OC_CONTROL_TYPE_AREA = 0x0106,
    /** A rectangle: left and top (int32_t), width and height (uint32_t), as a UVC 1.5
     * camera's region of interest is. Added in 0.3. */
    OC_CONTROL_TYPE_RECT = 0x0107
} oc_control_type;

/**
 * The name `ocellus controls` writes for a control type: "int", "bool", "menu",
 * "button", "int64", "string", "bitmask", "intmenu", "u8", "u16", "u32",
 * "area", "rect"; NULL with the last error
 * set otherwise.
 * \ownership A static string. \threadsafety Any thread.
 */
const char *oc_control_type_name(oc_control_type type);

/** Bits of oc_control_info.flags: the driver's V4L2_CTRL_FLAG_* bits, passed on as they are. */
enum {
    OC_CONTROL_FLAG_DISABLED = 0x0001, /**< The driver disabled it: it cannot be read or set. */
    OC_CONTROL_FLAG_GRABBED = 0x0002, /**< Another client holds it (e.g. while streaming); try again later. */
    OC_CONTROL_FLAG_READ_ONLY = 0x0004, /**< It can be read, not set. */
    /** Changing it may change other controls (re-read them). */
    OC_CONTROL_FLAG_UPDATE = 0x0008,
    OC_CONTROL_FLAG_INACTIVE = 0x0010, /**< Setting it has no effect now (e.g. manual exposure while auto is on). */
    /** Best shown as a slider. */
    OC_CONTROL_FLAG_SLIDER = 0x0020,
    OC_CONTROL_FLAG_WRITE_ONLY = 0x0040, /**< It can be set, not read (a relative move, a button). */
    OC_CONTROL_FLAG_VOLATILE = 0x0080, /**< The device changes it on its own (re-read it; e.g. exposure under auto). */
    /** The value lives in a payload (strings, arrays, compound controls). */
    OC_CONTROL_FLAG_HAS_PAYLOAD = 0x0100,
    /** Setting it acts even when the value does not change. */
    OC_CONTROL_FLAG_EXECUTE_ON_WRITE = 0x0200,
    /** Changing it may change the stream's format. */
    OC_CONTROL_FLAG_MODIFY_LAYOUT = 0x0400,
    /** An array whose length may change. */
    OC_CONTROL_FLAG_DYNAMIC_ARRAY = 0x0800
};

/**
 * The name of one flag bit as `v4l2-ctl --list-ctrls` prints it: "disabled",
 * "grabbed", "read-only", "update", "inactive", "slider", "write-only",
 * "volatile", "has-payload", "execute-on-write", "modify-layout",
 * "dynamic-array"; NULL for a value that is not exactly one known bit.
 * \ownership A static string. \threadsafety Any thread.
 */
const char *oc_control_flag_name(uint32_t flag);

/** One control; filled by oc_control_list_get(). */
typedef struct oc_control_info {
    /** sizeof(oc_control_info) as the caller knows it; set by the caller. */
    uint32_t struct_size;
    /** The driver's control ID (V4L2_CID_*). */
    uint32_t id;
    /** The name as v4l2-ctl prints it, e.g. "brightness"; owned by the list. */
    const char *name;
    oc_control_type type; /**< Integer, boolean, menu, button, … (oc_control_type_name()). */
    int64_t minimum; /**< Smallest value. */
    int64_t maximum; /**< Largest value. */
    int64_t step; /**< Distance between settable values (1 for most). */
    int64_t default_value; /**< The driver's default. */
    /** OR of OC_CONTROL_FLAG_* bits. */
    uint32_t flags;
    /** Whether `value` holds the value read (false for buttons, write-only and payload controls). */
    bool has_value;
    int64_t value; /**< The value read when the list was taken (see has_value). */
    /** Items of a menu or integer-menu control (see oc_control_list_get_menu_item()). */
    uint32_t menu_count;
    /* Added in 0.2; filled when struct_size covers them (a 0.1 caller's smaller struct is filled up to here). */
    /**
     * Whether the value is a payload rather than `value`: strings, arrays (any
     * type with dimensions) and compound types. Read it with
     * oc_control_list_get_payload() or oc_control_list_get_string(); set it with
     * oc_device_set_control_payload() or oc_device_set_control_string().
     */
    bool has_payload;
    /** Bytes of one element (a string's: its maximum length plus the NUL). */
    uint32_t element_size;
    /** Elements of the value read (a dynamic array's current length). */
    uint32_t element_count;
    /** How many of `dimensions` an array has (0 for a single value). */
    uint32_t dimension_count;
    uint32_t dimensions[4]; /**< An array's dimensions, outermost first. */
} oc_control_info;

/** A snapshot of a device's controls with their values at the time it was taken. */
typedef struct oc_control_list oc_control_list;

/**
 * Read a camera's controls (zoom, focus, exposure, white balance, brightness,
 * contrast, saturation, sharpness, gain, pan, tilt, power-line frequency,
 * privacy, orientation and sensor rotation, and whatever else the driver has).
 *
 * \param out receives the list; NULL on failure.
 * Through the V4L2 node where it is reachable; else, for a PipeWire camera (a
 * sandboxed app's, a libcamera camera's), through its PipeWire node: the same
 * controls by name and id, integer, boolean and menu ones, without current values
 * on PipeWire 0.3.x (a value then is the one last set through Ocellus, else
 * unknown: has_value false, as for write-only controls).
 * \returns OC_OK (a camera whose node offers none: an empty list);
 *          OC_ERROR_INVALID_HANDLE; OC_ERROR_NOT_FOUND for a device with no
 *          reachable controls (neither a V4L2 node here nor a PipeWire node) or
 *          one that is gone; OC_ERROR_OTHER for a kernel error (the message names it).
 * \ownership The caller frees the list with oc_control_list_free().
 * \threadsafety Safe from any thread.
 */
oc_status oc_device_copy_controls(oc_device *device, oc_control_list **out);

/** Number of controls in a list (0 for an invalid list). \threadsafety Any thread. */
size_t oc_control_list_count(const oc_control_list *list);

/**
 * Describe control `index` of the list.
 * \param info the caller's struct with struct_size = sizeof(oc_control_info).
 * \returns OC_OK, OC_ERROR_INVALID_HANDLE, OC_ERROR_INVALID_ARGUMENT (NULL info,
 *          small struct_size, index out of range).
 * \ownership info->name points into the list; valid until the list is freed.
 * \threadsafety Safe from any thread.
 */
oc_status oc_control_list_get(const oc_control_list *list, size_t index, oc_control_info *info);

/**
 * Item `item` of a menu control: the value to set for it (its index for a menu,
 * its integer for an integer menu) and its name (owned by the list; for an
 * integer menu, the integer as text). Either output may be NULL.
 * \returns OC_OK, OC_ERROR_INVALID_HANDLE, OC_ERROR_INVALID_ARGUMENT (index or
 *          item out of range).
 * \threadsafety Safe from any thread.
 */
oc_status oc_control_list_get_menu_item(const oc_control_list *list, size_t index, size_t item,
                                        int64_t *value, const char **name);

/** Free a control list; NULL is ignored. \threadsafety Any thread. */
void oc_control_list_free(oc_control_list *list);

/**
 * The value bytes of payload control `index` as read (`element_count` elements of
 * `element_size` bytes, in the machine's byte order; an area is width then
 * height), copied into `buffer` up to `size` bytes.
 * \param buffer may be NULL when `size` is 0 (to ask for the size).
 * \returns the payload's size in bytes; 0 when the control has none or it could
 *          not be read (write-only), or for an invalid list or index (which set
 *          the last error).
 * \threadsafety Any thread; a list is immutable.
 */
size_t oc_control_list_get_payload(const oc_control_list *list, size_t index, void *buffer, size_t size);

/**
 * A string control's value as read, NUL-terminated and truncated to `size`.
 * \returns its length without the NUL; 0 (and "") for an empty string, a control
 *          that is not a string, or an invalid list or index (which set the last error).
 * \threadsafety Any thread.
 */
size_t oc_control_list_get_string(const oc_control_list *list, size_t index, char *buffer, size_t size);

/**
 * Set control `name` (as listed, e.g. "brightness") to `value`.
 * \returns OC_OK; OC_ERROR_INVALID_HANDLE; OC_ERROR_NOT_FOUND (no such control,
 *          no reachable controls, device gone); OC_ERROR_INVALID_ARGUMENT (value
 *          out of range, off-step or not a menu item — the message gives the
 *          allowed values); OC_ERROR_WRONG_STATE (read-only control);
 *          OC_ERROR_BUSY (another client holds the configuration lock);
 *          OC_ERROR_DISCONNECTED (the device is gone).
 * \threadsafety Safe from any thread.
 */
oc_status oc_device_set_control(oc_device *device, const char *name, int64_t value);

/**
 * Set a string control (UTF-8, without NUL bytes; its length within the
 * control's minimum…maximum, in steps of `step`).
 * \returns as oc_device_set_control(); OC_ERROR_INVALID_ARGUMENT also for a
 *          control that is not a string.
 * \threadsafety Any thread.
 */
oc_status oc_device_set_control_string(oc_device *device, const char *name, const char *value);

/**
 * Set an array or compound control from `size` bytes laid out as
 * oc_control_list_get_payload() gives them: exactly element_count × element_size
 * bytes (for a dynamic array, 1 to dimensions[0] elements).
 * \returns as oc_device_set_control(); OC_ERROR_INVALID_ARGUMENT for a wrong size
 *          or a control without a payload.
 * \threadsafety Any thread.
 */
oc_status oc_device_set_control_payload(oc_device *device, const char *name, const void *data, size_t size);

/**
 * Take the device's exclusive configuration lock: until
 * oc_device_unlock_for_configuration(), other clients cannot change its
 * controls (VIDIOC_S_PRIORITY where the driver supports it).
 * \returns OC_OK; OC_ERROR_INVALID_HANDLE; OC_ERROR_WRONG_STATE when this
 *          device instance is already locked; OC_ERROR_BUSY when another client
 *          holds the lock; OC_ERROR_NOT_FOUND for a device without reachable controls,
 *          or whose controls come through PipeWire (the lock needs the V4L2 node).
 * \threadsafety Safe from any thread.
 */
oc_status oc_device_lock_for_configuration(oc_device *device);

/**
 * Release the configuration lock.
 * \returns OC_OK; OC_ERROR_INVALID_HANDLE; OC_ERROR_WRONG_STATE when not locked.
 * \threadsafety Safe from any thread.
 */
oc_status oc_device_unlock_for_configuration(oc_device *device);

/* ------------------------------------------------------------------------ */
/* Face-driven exposure and focus (behaviour §4), added in 0.3                */
/* ------------------------------------------------------------------------ */
/*
 * Mirrors (docs/contributing.md): Sources/OcellusCABI/ FaceDrivenABI.swift;
 * cli/ controls.c, stream.c; bindings/python/ocellus/ devices.py;
 * bindings/rust/ocellus/src/ device.rs.
 */

/** Which face-driven adjustment oc_device_get_face_driven() and oc_device_set_face_driven() mean. */
typedef enum oc_face_driven_adjustment {
    OC_FACE_DRIVEN_EXPOSURE = 0, /**< Exposure (and gain) follow the largest face in view. */
    OC_FACE_DRIVEN_FOCUS = 1 /**< Focus follows the largest face in view. */
} oc_face_driven_adjustment;

/** How a camera is steered by faces, chosen from its controls. */
typedef enum oc_face_driven_tier {
    /** Not at all: no region of interest, no manual exposure time (or absolute focus). */
    OC_FACE_DRIVEN_TIER_NONE = 0,
    /** The camera's own UVC 1.5 region of interest, set on the face (Linux 6.15's
     * region_of_interest_rect and _auto controls). */
    OC_FACE_DRIVEN_TIER_CAMERA_REGION = 1,
    /** Ocellus meters the face and drives exposure time, then gain, or sweeps the
     * absolute focus for the sharpest face, itself. */
    OC_FACE_DRIVEN_TIER_HOST = 2
} oc_face_driven_tier;

/** One face-driven adjustment of one camera; filled by oc_device_get_face_driven(). */
typedef struct oc_face_driven_state {
    /** sizeof(oc_face_driven_state) as the caller knows it; set by the caller. */
    uint32_t struct_size;
    /** Ocellus decides whether it runs (the default): on while a session streams the camera,
     * off while this process holds the camera's configuration lock. */
    bool automatically_adjusts;
    /** Whether it may run now: the app's choice, or Ocellus's when automatically_adjusts. */
    bool enabled;
    /** How this camera is steered (OC_FACE_DRIVEN_TIER_NONE: it cannot be). */
    oc_face_driven_tier tier;
    /** Whether it is acting on the camera now: a session streams it, a face is in view, and
     * no other process has the camera open. */
    bool active;
} oc_face_driven_state;

/**
 * The face-driven exposure or focus of a camera (AVFoundation's
 * isFaceDrivenAutoExposureEnabled and automaticallyAdjustsFaceDrivenAutoExposureEnabled).
 *
 * While a session of this process streams the camera with a face in view, exposure and focus
 * follow the largest face: through the camera's region of interest, or by Ocellus metering the
 * face. It never fights: it acts only while no other process has the camera open (or while this
 * process holds its configuration lock), and stops touching a control another hand changed
 * (oc_device_set_control() included). Every control it changed is set back when the session
 * stops, when no face has been seen for 2 s, or when the adjustment is turned off.
 *
 * \param state the caller's struct with struct_size = sizeof(oc_face_driven_state).
 * \returns OC_OK (a camera without reachable controls: tier NONE); OC_ERROR_INVALID_HANDLE;
 *          OC_ERROR_INVALID_ARGUMENT (NULL or small state, unknown adjustment, a device that
 *          is not a camera).
 * \threadsafety Safe from any thread. It reads the camera's controls.
 */
oc_status oc_device_get_face_driven(oc_device *device, oc_face_driven_adjustment adjustment,
                                    oc_face_driven_state *state);

/**
 * Set a camera's face-driven exposure or focus: `automatically_adjusts` true lets Ocellus
 * decide (`enabled` is then ignored); false makes `enabled` the app's choice. Applies to
 * every device instance with the camera's unique ID in this context, from the next analysed
 * frame (a running session gives back what it changed when turned off).
 * \returns OC_OK; OC_ERROR_INVALID_HANDLE; OC_ERROR_INVALID_ARGUMENT (unknown adjustment,
 *          a device that is not a camera).
 * \threadsafety Safe from any thread, including session and frame callbacks.
 */
oc_status oc_device_set_face_driven(oc_device *device, oc_face_driven_adjustment adjustment,
                                    bool automatically_adjusts, bool enabled);

/**
 * The name `ocellus controls --json` writes for a tier: "none", "roi", "host"; NULL with the
 * last error set for another value.
 * \ownership A static string. \threadsafety Any thread.
 */
const char *oc_face_driven_tier_name(oc_face_driven_tier tier);

/* ------------------------------------------------------------------------ */
/* Center Stage (behaviour §4), added in 0.3                                */
/* ------------------------------------------------------------------------ */
/*
 * Mirrors (docs/contributing.md): Sources/OcellusCABI/ CenterStageABI.swift;
 * cli/ stream.c; bindings/python/ocellus/ devices.py;
 * bindings/rust/ocellus/src/ device.rs.
 */

/** A camera's Center Stage framing; filled by oc_device_get_center_stage(). */
typedef struct oc_center_stage_state {
    /** sizeof(oc_center_stage_state) as the caller knows it; set by the caller. */
    uint32_t struct_size;
    /** Whether the app wants the camera's outputs framed on the faces in view. */
    bool enabled;
    /** Whether a session of this process frames the camera's outputs now (enabled while it
     * streams, or zooming back out after being turned off). */
    bool active;
    /** The window the outputs show: x, y (top-left corner), width and height in fractions
     * of the camera's picture, before any rotation or mirroring of an output; {0, 0, 1, 1}
     * while not active. */
    double window[4];
} oc_center_stage_state;

/**
 * A camera's Center Stage (AVFoundation's isCenterStageEnabled and isCenterStageActive).
 *
 * While it is enabled and a session of this process streams the camera, Ocellus finds the
 * faces in the camera's whole picture (10 times a second while they move, 4 while they hold
 * still, on a thread of its own) and moves a window over the picture that keeps them centred
 * at a steady size — one face about a third of the window's height, a group within most of its
 * width — smoothly (no jumps, no overshoot), and back out to the whole picture when no face
 * has been seen for 2 s. Every
 * video output of the session gets the window at its own size; photos get the window's own
 * pixels, movies the window at their size (a recording of an MJPEG or H.264 camera started
 * while framed is encoded again); metadata bounds are in the framed picture. The window never
 * holds fewer of the camera's pixels than a video output delivers (no zoom past the camera's
 * resolution: an output at the camera's full size leaves none, and it stays inactive), nor
 * less than a quarter of the picture's width. A video output given the camera's compressed
 * data as it is (MJPEG or H.264 without a pinned pixel format) is not framed.
 *
 * \param state the caller's struct with struct_size = sizeof(oc_center_stage_state).
 * \returns OC_OK; OC_ERROR_INVALID_HANDLE; OC_ERROR_INVALID_ARGUMENT (NULL or small state, a
 *          device that is not a camera).
 * \threadsafety Safe from any thread.
 */
oc_status oc_device_get_center_stage(oc_device *device, oc_center_stage_state *state);

/**
 * Turn a camera's Center Stage on or off (off by default). Applies to every device instance
 * with the camera's unique ID in this context, at once: a session streaming the camera
 * starts framing within a few frames, or zooms back out to the whole picture.
 * \returns OC_OK; OC_ERROR_INVALID_HANDLE; OC_ERROR_INVALID_ARGUMENT (a device that is not a
 *          camera).
 * \threadsafety Safe from any thread, including session and frame callbacks.
 */
oc_status oc_device_set_center_stage(oc_device *device, bool enabled);

/* ------------------------------------------------------------------------ */
/* Hotplug                                                                    */
/* ------------------------------------------------------------------------ */
/*
 * Mirrors (docs/contributing.md): Sources/OcellusCABI/ HotplugABI.swift;
 * cli/ watch.c; bindings/python/ocellus/ context.py;
 * bindings/rust/ocellus/src/ context.rs.
 */

/**
 * Called when a device appears or disappears.
 *
 * \param ctx       the context the callback was registered on.
 * \param event     OC_HOTPLUG_ADDED or OC_HOTPLUG_REMOVED.
 * \param device    the device, borrowed for the duration of the call (retain
 *                  it to keep it); for REMOVED it is already disconnected.
 * \param user_data the pointer given at registration.
 * \threadsafety Runs on the context's event thread, one callback at a time.
 *               It may call any Ocellus function except oc_context_destroy()
 *               on its own context.
 */
typedef void (*oc_hotplug_callback)(oc_context *ctx, oc_hotplug_event event,
                                    oc_device *device, void *user_data);

/**
 * Identifies a callback registration; 0 is never a valid ID. Every
 * `*_add_*callback` function takes an optional `out_id`: with NULL the callback
 * is registered all the same and lasts until its object is destroyed.
 */
typedef uint64_t oc_callback_id;

/**
 * Register a hotplug callback. Events for devices present at registration
 * are not replayed: take a snapshot first with oc_context_copy_devices().
 *
 * \param out_id receives the registration ID (may be NULL if the caller never
 *               unregisters; destroying the context unregisters it).
 * \returns OC_OK, OC_ERROR_INVALID_HANDLE, OC_ERROR_INVALID_ARGUMENT (NULL
 *          callback).
 * \threadsafety Safe from any thread, including from callbacks.
 */
oc_status oc_context_add_hotplug_callback(oc_context *ctx, oc_hotplug_callback callback,
                                          void *user_data, oc_callback_id *out_id);

/**
 * Unregister a callback. Returns only after a call of it that is in flight on
 * another thread has finished, so `user_data` may be freed right after. Called
 * from inside a callback, it returns at once and no later call is made.
 *
 * \returns OC_OK, OC_ERROR_INVALID_HANDLE, OC_ERROR_NOT_FOUND (unknown or
 *          already removed ID).
 * \threadsafety Safe from any thread.
 */
oc_status oc_context_remove_callback(oc_context *ctx, oc_callback_id id);

/**
 * Call `callback` once when `device` goes away (its `connected` turns false).
 * Unregister with oc_context_remove_callback().
 *
 * \param device the instance to observe; the context keeps its own reference.
 * \returns OC_OK, OC_ERROR_INVALID_HANDLE, OC_ERROR_INVALID_ARGUMENT (NULL
 *          callback). For a device already disconnected the callback is
 *          not called; check oc_device_is_connected() after registering.
 * \threadsafety Safe from any thread; the callback runs on the context's
 *               event thread, like hotplug callbacks.
 */
typedef void (*oc_device_disconnected_callback)(oc_context *ctx, oc_device *device, void *user_data);
/**
 * Register `callback` for when `device` goes away (see oc_device_disconnected_callback).
 * \returns OC_OK, OC_ERROR_INVALID_HANDLE, OC_ERROR_INVALID_ARGUMENT (NULL callback).
 * \threadsafety Any thread.
 */
oc_status oc_context_add_disconnected_callback(oc_context *ctx, oc_device *device,
                                               oc_device_disconnected_callback callback,
                                               void *user_data, oc_callback_id *out_id);

/**
 * Called when a backend of the context stops working after it started (the
 * PipeWire daemon went away): `error` is the status, `message` says why (valid
 * during the call); its devices are removed (REMOVED events) and
 * oc_context_copy_backend_problem() says the same from then on.
 */
typedef void (*oc_backend_failure_callback)(oc_context *ctx, oc_backend backend, oc_status error,
                                            const char *message, void *user_data);

/**
 * Register a backend failure callback; unregister with oc_context_remove_callback().
 * \returns OC_OK, OC_ERROR_INVALID_HANDLE, OC_ERROR_INVALID_ARGUMENT (NULL callback).
 * \threadsafety Safe from any thread; the callback runs on the context's event thread.
 */
oc_status oc_context_add_backend_failure_callback(oc_context *ctx, oc_backend_failure_callback callback,
                                                  void *user_data, oc_callback_id *out_id);

/* ------------------------------------------------------------------------ */
/* Discovery sessions                                                         */
/* ------------------------------------------------------------------------ */
/*
 * Mirrors (docs/contributing.md): Sources/OcellusCABI/ DiscoveryABI.swift;
 * cli/ (none); bindings/python/ocellus/ discovery.py;
 * bindings/rust/ocellus/src/ discovery.rs.
 */

/** A live, filtered view of a context's devices. */
typedef struct oc_discovery_session oc_discovery_session;

/** Bits for oc_discovery_session_create()'s `device_types`; 0 means all. */
enum {
    OC_DEVICE_TYPES_BUILT_IN_CAMERA = 1u << 0, /**< OC_DEVICE_TYPE_BUILT_IN_CAMERA devices. */
    OC_DEVICE_TYPES_EXTERNAL_CAMERA = 1u << 1, /**< OC_DEVICE_TYPE_EXTERNAL_CAMERA devices. */
    OC_DEVICE_TYPES_VIRTUAL_CAMERA = 1u << 2,  /**< OC_DEVICE_TYPE_VIRTUAL_CAMERA devices. */
    OC_DEVICE_TYPES_DEPTH_CAMERA = 1u << 3,    /**< OC_DEVICE_TYPE_DEPTH_CAMERA devices. */
    OC_DEVICE_TYPES_MICROPHONE = 1u << 4       /**< OC_DEVICE_TYPE_MICROPHONE devices. */
};

/** The media a discovery session keeps. */
typedef enum oc_media_type {
    OC_MEDIA_TYPE_ANY = 0,   /**< Cameras and microphones. */
    OC_MEDIA_TYPE_VIDEO = 1, /**< Cameras only. */
    OC_MEDIA_TYPE_AUDIO = 2  /**< Microphones only. */
} oc_media_type;

/**
 * Create a discovery session over `ctx`.
 *
 * \param device_types OR of OC_DEVICE_TYPES_* bits; 0 for every type.
 * \param media_type   video (cameras), audio (microphones) or any.
 * \param position     FRONT or BACK to keep only those; UNSPECIFIED for any.
 * \param out          receives the session; NULL on failure.
 * \returns OC_OK, OC_ERROR_INVALID_HANDLE, OC_ERROR_INVALID_ARGUMENT (unknown
 *          bits or values, NULL out).
 * \ownership The caller owns the session and destroys it with
 *            oc_discovery_session_destroy() before destroying the context.
 * \threadsafety Safe from any thread.
 */
oc_status oc_discovery_session_create(oc_context *ctx, uint32_t device_types, oc_media_type media_type,
                                      oc_device_position position, oc_discovery_session **out);

/**
 * The session's devices now (connected, matching, in the default order).
 * \returns OC_OK, OC_ERROR_INVALID_HANDLE, OC_ERROR_INVALID_ARGUMENT (NULL out).
 * \ownership as oc_context_copy_devices(): free the list with oc_device_list_free().
 * \threadsafety Safe from any thread, including from callbacks.
 */
oc_status oc_discovery_session_copy_devices(oc_discovery_session *session, oc_device_list **out);

/**
 * Called on the context's event thread after the session's device list changed.
 * `device` (borrowed for the call) was added or removed as `event` says.
 */
typedef void (*oc_discovery_callback)(oc_discovery_session *session, oc_hotplug_event event,
                                      oc_device *device, void *user_data);

/**
 * Set (or with NULL clear) the session's change callback. Replacing or clearing
 * returns only after a call of the previous callback in flight has finished.
 * \returns OC_OK or OC_ERROR_INVALID_HANDLE.
 * \threadsafety Safe from any thread.
 */
oc_status oc_discovery_session_set_callback(oc_discovery_session *session, oc_discovery_callback callback,
                                            void *user_data);

/**
 * Destroy a session (clearing its callback as above). NULL or a destroyed
 * session is ignored apart from the last error.
 * \threadsafety Safe from any thread except the session's own callback.
 */
void oc_discovery_session_destroy(oc_discovery_session *session);

/* ------------------------------------------------------------------------ */
/* Camera selection (behaviour §2)                                                 */
/* ------------------------------------------------------------------------ */
/*
 * Mirrors (docs/contributing.md): Sources/OcellusCABI/ SelectionABI.swift;
 * cli/ preferred.c; bindings/python/ocellus/ context.py;
 * bindings/rust/ocellus/src/ context.rs.
 */

/**
 * The app's user preferred camera: its most recent choice that is connected,
 * else the connected camera it most recently streamed from, else the first in
 * the default order (built-in front, external, built-in back, others, virtual).
 *
 * \param out receives a new reference (release with oc_device_release()), or
 *            NULL when no camera is connected.
 * \returns OC_OK, OC_ERROR_INVALID_HANDLE, OC_ERROR_INVALID_ARGUMENT.
 * \threadsafety Safe from any thread, including from callbacks.
 */
oc_status oc_context_copy_user_preferred_camera(oc_context *ctx, oc_device **out);

/**
 * The system preferred camera: the user preferred camera, unless an external
 * camera was plugged in after the app's last choice (or, with no choice yet,
 * after its first run): then the most recently plugged such camera. Plug times
 * come from the system (PipeWire's device.plugged.usec), so a camera plugged
 * while the app was closed wins at its next start. Read-only.
 * \param out as oc_context_copy_user_preferred_camera().
 * \returns OC_OK, OC_ERROR_INVALID_HANDLE, OC_ERROR_INVALID_ARGUMENT (NULL out).
 * \threadsafety Any thread.
 */
oc_status oc_context_copy_system_preferred_camera(oc_context *ctx, oc_device **out);

/**
 * The connected device with this unique ID.
 * \param out receives a new reference (release with oc_device_release()).
 * \returns OC_OK; OC_ERROR_NOT_FOUND (none connected); OC_ERROR_INVALID_HANDLE;
 *          OC_ERROR_INVALID_ARGUMENT (NULL or non-UTF-8 arguments).
 * \threadsafety Safe from any thread, including from callbacks.
 */
oc_status oc_context_copy_device_by_unique_id(oc_context *ctx, const char *unique_id, oc_device **out);

/**
 * The device a person means by `spec`, tried in this order: its unique ID; its
 * index in oc_context_copy_devices()'s order ("0", as `ocellus list` numbers
 * them); one of its V4L2 nodes ("/dev/video2"); a part of its name, in any
 * case, that only one device has ("logitech").
 * \param out receives a new reference (release with oc_device_release()).
 * \returns OC_OK; OC_ERROR_NOT_FOUND; OC_ERROR_INVALID_ARGUMENT (NULL arguments,
 *          or a name part several devices share: the message lists them);
 *          OC_ERROR_INVALID_HANDLE.
 * \threadsafety Safe from any thread, including from callbacks.
 */
oc_status oc_context_copy_device_matching(oc_context *ctx, const char *spec, oc_device **out);

/**
 * Record the user's choice of camera for this app: it becomes the user
 * preferred camera (and the system preferred one until another external camera
 * is plugged in). The history is persisted in the state directory, shared with
 * the app's other processes, and survives restarts. When the state cannot be
 * written the choice still applies in memory and
 * oc_context_copy_state_problem() says why.
 *
 * \returns OC_OK; OC_ERROR_INVALID_HANDLE; OC_ERROR_INVALID_ARGUMENT for a
 *          microphone; OC_ERROR_NOT_FOUND for a device that is not a
 *          connected device of this context.
 * \threadsafety Safe from any thread, including from callbacks.
 */
oc_status oc_context_set_user_preferred_camera(oc_context *ctx, oc_device *camera);

/**
 * Why the app's selection state could not be read or written (a corrupt file,
 * moved aside and kept; an unwritable directory), or nothing.
 *
 * \param buffer receives the NUL-terminated message, truncated to `size`;
 *               may be NULL when `size` is 0.
 * \returns the message length without the NUL; 0 (and "" in `buffer`) when
 *          there is no problem or the handle is invalid.
 * \threadsafety Safe from any thread.
 */
size_t oc_context_copy_state_problem(const oc_context *ctx, char *buffer, size_t size);

/**
 * Whether the app's latest camera choice exists only in memory because it could
 * not be written (see oc_context_copy_state_problem()): it is lost when the
 * process exits. False for an invalid handle (which sets the last error).
 * \threadsafety Safe from any thread.
 */
bool oc_context_selection_is_unsaved(const oc_context *ctx);

/** Which of the two preferred cameras a preferred-camera callback reports. */
typedef enum oc_preferred_camera_kind {
    OC_PREFERRED_CAMERA_USER = 0,  /**< The camera the user last chose in this app (persisted). */
    OC_PREFERRED_CAMERA_SYSTEM = 1 /**< The library's choice: follows plugs and unplugs. */
} oc_preferred_camera_kind;

/**
 * Called when the user or system preferred camera changes: on plug, unplug, a
 * new choice, or another process of the same app writing the history.
 * `camera` is the new value (borrowed for the call), or NULL when none.
 */
typedef void (*oc_preferred_camera_callback)(oc_context *ctx, oc_preferred_camera_kind kind,
                                             oc_device *camera, void *user_data);

/**
 * Register a preferred-camera callback; unregister with oc_context_remove_callback().
 * \returns OC_OK, OC_ERROR_INVALID_HANDLE, OC_ERROR_INVALID_ARGUMENT (NULL callback).
 * \threadsafety Safe from any thread; the callback runs on the context's event thread.
 */
oc_status oc_context_add_preferred_camera_callback(oc_context *ctx, oc_preferred_camera_callback callback,
                                                   void *user_data, oc_callback_id *out_id);

/* ------------------------------------------------------------------------ */
/* Capture sessions and video data outputs (behaviour §4)                          */
/* ------------------------------------------------------------------------ */
/*
 * Mirrors (docs/contributing.md): Sources/OcellusCABI/ CaptureABI.swift, SessionMembers.swift;
 * cli/ capture_session.c, stream.c; bindings/python/ocellus/ capture.py, frames.py;
 * bindings/rust/ocellus/src/ session.rs, video_output.rs, frame.rs.
 */

/** A capture session: an input camera, outputs, and one camera stream feeding them. */
typedef struct oc_capture_session oc_capture_session;
/** Frames of a session for one consumer. */
typedef struct oc_video_data_output oc_video_data_output;
/** One video frame. */
typedef struct oc_frame oc_frame;

/**
 * Create a session on `ctx`'s cameras.
 * \returns OC_OK, OC_ERROR_INVALID_HANDLE, OC_ERROR_INVALID_ARGUMENT (NULL out).
 * \ownership The caller destroys the session with oc_capture_session_destroy()
 *            before destroying the context.
 * \threadsafety Safe from any thread.
 */
oc_status oc_capture_session_create(oc_context *ctx, oc_capture_session **out);

/**
 * Stop (if running) and destroy a session. Its outputs stay valid (the caller
 * owns them). NULL or a destroyed session is ignored apart from the last error, as is
 * a multi-camera session's branch (it goes with its camera:
 * oc_multi_cam_session_remove_camera()).
 * \threadsafety Any thread except a frame or event callback of the session.
 */
void oc_capture_session_destroy(oc_capture_session *session);

/**
 * Batch changes: inputs and outputs added or removed until
 * oc_capture_session_commit_configuration() apply together. Outside a batch,
 * each change applies at once.
 * \returns OC_OK or OC_ERROR_INVALID_HANDLE. \threadsafety Any thread.
 */
oc_status oc_capture_session_begin_configuration(oc_capture_session *session);

/**
 * Apply the batch. When it cannot be applied (e.g. no camera format serves every
 * output), nothing changes — a running stream keeps running as it was — and the
 * error says why.
 * \returns OC_OK; OC_ERROR_INVALID_HANDLE; OC_ERROR_WRONG_STATE without a begin;
 *          OC_ERROR_INVALID_ARGUMENT when the outputs cannot be served; a stream
 *          error (OC_ERROR_BUSY, OC_ERROR_DISCONNECTED, …) when a running
 *          session could not switch.
 * \threadsafety Any thread except a frame callback of the session.
 */
oc_status oc_capture_session_commit_configuration(oc_capture_session *session);

/**
 * Make `camera` the session's input (replacing any other).
 * \returns OC_OK; OC_ERROR_INVALID_HANDLE; OC_ERROR_INVALID_ARGUMENT for a
 *          microphone, a disconnected device or one without video formats, or
 *          outputs it cannot serve (outside a batch); OC_ERROR_WRONG_STATE for a
 *          multi-camera session's branch (its camera is fixed).
 * \ownership The session keeps its own reference to the device.
 * \threadsafety Any thread except a frame callback of the session.
 */
oc_status oc_capture_session_set_input(oc_capture_session *session, oc_device *camera);

/**
 * Add an output. The session keeps a reference; the caller still destroys its own.
 * \returns OC_OK; OC_ERROR_INVALID_HANDLE; OC_ERROR_INVALID_ARGUMENT when the
 *          output's format, size or rate cannot be served by the input (outside
 *          a batch); OC_ERROR_WRONG_STATE when it is already in a session (of
 *          two calls adding one output to two sessions at once, one succeeds).
 * \threadsafety Any thread except a frame callback of the session.
 */
oc_status oc_capture_session_add_output(oc_capture_session *session, oc_video_data_output *output);

/**
 * Remove an output. \returns OC_OK, OC_ERROR_INVALID_HANDLE, OC_ERROR_NOT_FOUND.
 * \threadsafety Any thread; from inside a callback, see "Calls from inside a callback".
 */
oc_status oc_capture_session_remove_output(oc_capture_session *session, oc_video_data_output *output);

/**
 * Whether `output` could be added now (its pinned format is one the input
 * offers). False, with the last error set, for invalid handles.
 * \threadsafety Any thread.
 */
bool oc_capture_session_can_add_output(oc_capture_session *session, oc_video_data_output *output);

/** behaviour §4 session presets: what the stream aims for when no output pins a size. */
typedef enum oc_session_preset {
    /** The largest size at 30 fps or more (the default). */
    OC_SESSION_PRESET_HIGH = 0,
    /** About 640x480. */
    OC_SESSION_PRESET_MEDIUM = 1,
    /** The smallest size. */
    OC_SESSION_PRESET_LOW = 2,
    /** The largest size at any rate, for stills. */
    OC_SESSION_PRESET_PHOTO = 3,
    OC_SESSION_PRESET_640X480 = 4,
    OC_SESSION_PRESET_1280X720 = 5,
    OC_SESSION_PRESET_1920X1080 = 6,
    OC_SESSION_PRESET_3840X2160 = 7,
    /** Leave the choice to the outputs (as HIGH until devices have an active format). */
    OC_SESSION_PRESET_INPUT_PRIORITY = 8
} oc_session_preset;

/**
 * Whether `camera` can run `preset` (the fixed sizes need that size).
 * False, with the last error set, for an invalid handle or an unknown preset.
 * \threadsafety Any thread.
 */
bool oc_device_supports_preset(const oc_device *camera, oc_session_preset preset);

/**
 * Set the session's preset (like other changes, batched inside a configuration).
 * \returns OC_OK; OC_ERROR_INVALID_HANDLE; OC_ERROR_INVALID_ARGUMENT for an
 *          unknown preset or one the input does not support.
 * \threadsafety Any thread except a frame callback of the session.
 */
oc_status oc_capture_session_set_preset(oc_capture_session *session, oc_session_preset preset);

/**
 * Start the camera stream; returns once frames flow. Blocking. A session with a
 * microphone (oc_capture_session_set_audio_input()) and no camera runs its sound
 * alone (since 0.3).
 * \returns OC_OK; OC_ERROR_INVALID_HANDLE; OC_ERROR_WRONG_STATE without an input
 *          camera or microphone, from a frame callback, or for a multi-camera session's
 *          branch (its session starts it); OC_ERROR_BUSY when the camera is in use by
 *          another client (an INTERRUPTED event follows, the session retries
 *          every 250 ms and posts INTERRUPTION_ENDED and STARTED once the camera
 *          is free, until oc_capture_session_stop_running()); OC_ERROR_DISCONNECTED;
 *          OC_ERROR_TIMEOUT when format negotiation stalls.
 * \threadsafety Any thread except a frame callback of the session.
 */
oc_status oc_capture_session_start_running(oc_capture_session *session);

/**
 * Stop the stream; returns after the last frame callback has returned. Blocking.
 * \returns OC_OK, OC_ERROR_INVALID_HANDLE, OC_ERROR_WRONG_STATE from a frame callback or
 *          for a multi-camera session's branch (its session stops it).
 * \threadsafety Any thread except a frame callback of the session.
 */
oc_status oc_capture_session_stop_running(oc_capture_session *session);

/** Whether the stream runs (false after a runtime error). \threadsafety Any thread. */
bool oc_capture_session_is_running(const oc_capture_session *session);

/**
 * The format the camera stream runs at: what the session chose from the
 * camera's formats for its outputs and preset. Each output may be NULL.
 * \returns OC_OK; OC_ERROR_INVALID_HANDLE; OC_ERROR_WRONG_STATE when the
 *          session is not running (no format is active).
 * \threadsafety Any thread.
 */
oc_status oc_capture_session_get_active_format(const oc_capture_session *session, uint32_t *pixel_format,
                                               uint32_t *width, uint32_t *height, oc_fraction *frame_rate);

/**
 * A session's share of its camera's USB bus (behaviour §4 hardware cost); filled by
 * oc_capture_session_get_hardware_cost(). Added in 0.3.
 */
typedef struct oc_hardware_cost {
    /** sizeof(oc_hardware_cost) as the caller knows it; set by the caller. */
    uint32_t struct_size;
    /** Whether the stream fits: `total` at most 1.0, a full-speed camera's hub translator
     * too, and the camera has an alternate setting that carries the stream. */
    bool fits;
    /** The bus's periodic (isochronous) time taken with the session's stream, 1.0 being
     * all of it: 100 µs of each 125 µs microframe at high speed, 900 µs of each frame at
     * full speed. */
    double total;
    /** The session stream's own part of `total`: the alternate setting uvcvideo reserves
     * for the chosen format (0 for a camera that streams over bulk). */
    double own;
    /** How many interfaces besides the camera's own reserve time on the bus now: other
     * sessions' cameras, other processes', microphones. */
    uint32_t others;
    /** The bus, by its root hub's name ("usb3"); NUL-terminated. */
    char bus[16];
} oc_hardware_cost;

/**
 * The share of its USB bus the session's camera stream takes, with the session's
 * configuration as it stands (committed or not, running or not), beside what the bus
 * carries now: every process's streams, read from sysfs. Read it before starting: a
 * configuration that does not fit is refused when it commits (OC_ERROR_NO_RESOURCES), with
 * a message naming the bus, the devices holding it and the largest format and rate that
 * would fit. With bus fitting on (oc_capture_session_set_bus_fit(), the default unless an
 * output pins the camera's own format), formats that would not fit are not chosen when
 * another serves the outputs (MJPEG where raw would not fit, then a lower rate).
 * \returns OC_OK; OC_ERROR_INVALID_HANDLE; OC_ERROR_INVALID_ARGUMENT (NULL `cost`, or a
 *          struct_size short of sizeof(oc_hardware_cost)); OC_ERROR_NOT_FOUND when there is
 *          no cost to report: no input, a camera not on USB (or whose descriptors could not
 *          be read), or outputs no format serves.
 * \threadsafety Any thread.
 */
oc_status oc_capture_session_get_hardware_cost(const oc_capture_session *session, oc_hardware_cost *cost);

/** What a configuration runs differently from what it asks (a mask of them). Added in 0.3. */
typedef enum oc_configuration_adjustment {
    /** The camera sends another pixel format than as asked (MJPEG where raw would not fit). */
    OC_CONFIGURATION_ADJUSTED_PIXEL_FORMAT = 1 << 0,
    /** The camera runs another size than as asked. */
    OC_CONFIGURATION_ADJUSTED_SIZE = 1 << 1,
    /** The stream runs slower than the outputs ask: the camera has no faster rate for the
        format, or a faster one would not fit the bus. */
    OC_CONFIGURATION_ADJUSTED_FRAME_RATE = 1 << 2,
    /** Why: to fit the camera's USB bus (behaviour §4 fit instead of fail). */
    OC_CONFIGURATION_ADJUSTED_FOR_BUS = 1 << 3
} oc_configuration_adjustment;

/**
 * What a session's configuration runs against what it asks, before anything streams
 * (libcamera's validate()); filled by oc_capture_session_check_configuration(). "As
 * asked" is the format the outputs and preset would have from the camera on an idle bus, at
 * the rate the outputs ask (a stream faster than every output's maximum rate is as asked:
 * the outputs thin it). Added in 0.3.
 */
typedef struct oc_configuration_check {
    /** sizeof(oc_configuration_check) as the caller knows it; set by the caller. */
    uint32_t struct_size;
    /** Whether it runs as asked (`adjusted` is 0). */
    bool as_asked;
    /** What differs: OC_CONFIGURATION_ADJUSTED_* bits, 0 when as asked. */
    uint32_t adjusted;
    uint32_t pixel_format;        /**< The pixel format (a fourcc) the camera will send. */
    uint32_t width;               /**< The width the camera will run at. */
    uint32_t height;              /**< The height the camera will run at. */
    oc_fraction frame_rate;       /**< The rate the stream will run at. */
    uint32_t asked_pixel_format;  /**< The pixel format as asked. */
    uint32_t asked_width;         /**< The width as asked. */
    uint32_t asked_height;        /**< The height as asked. */
    oc_fraction asked_frame_rate; /**< The rate the outputs ask (the fastest of the format as asked when one takes every frame). */
    /** Why, for the app's user ("it would take 122% of usb1 beside …"); NUL-terminated,
     * empty when as asked, cut at a character boundary when longer. */
    char reason[256];
} oc_configuration_check;

/**
 * What the session's configuration as it stands (inside a begin/commit batch: with the
 * changes not committed yet) would run if committed now, and whether that is as asked or
 * adjusted, and why: the answer before oc_capture_session_start_running(), where
 * OC_SESSION_EVENT_FORMAT_FALLBACK says it after the stream opened. Reads the USB bus as
 * oc_capture_session_get_hardware_cost() does. A camera another app streams in another
 * format shows only when the stream opens (the event, with OC_ERROR_BUSY).
 * \returns OC_OK with `check` filled; OC_ERROR_INVALID_HANDLE; OC_ERROR_INVALID_ARGUMENT (NULL
 *          `check`, or a struct_size short of sizeof(oc_configuration_check)); OC_ERROR_NOT_FOUND
 *          without an input; otherwise the error committing the configuration would give
 *          (OC_ERROR_INVALID_ARGUMENT when no format serves the outputs, OC_ERROR_NO_RESOURCES
 *          when none fits the bus), with its message.
 * \threadsafety Any thread.
 */
oc_status oc_capture_session_check_configuration(const oc_capture_session *session, oc_configuration_check *check);

/**
 * behaviour §4 fit instead of fail: whether a session may run a format that fits its
 * camera's USB bus instead of the one it would choose on an idle bus (MJPEG instead of
 * raw, a smaller size where the outputs take one). Added in 0.3.
 */
typedef enum oc_bus_fit {
    /** Fit, unless an output pins a pixel format the camera sends itself (the default). */
    OC_BUS_FIT_AUTOMATIC = 0,
    /** Fit, whatever the outputs pin (a fitting format must still serve them). */
    OC_BUS_FIT_ON = 1,
    /** Never fit: a configuration whose format does not fit is refused (OC_ERROR_NO_RESOURCES). */
    OC_BUS_FIT_OFF = 2
} oc_bus_fit;

/**
 * Set whether the session fits its camera's USB bus (like other changes, batched inside a
 * configuration). With fitting on, formats that would not fit beside what the bus carries
 * are not chosen, and a format the kernel refuses at stream-on for want of bandwidth
 * (ENOSPC: the estimate was low, or another process took the bus meanwhile) is left out
 * and the next that fits is started. Every format run instead of the one wanted is an
 * OC_SESSION_EVENT_FORMAT_FALLBACK. With it off, such a configuration is refused when it
 * commits or starts, with a message naming the bus, its holders and what would fit.
 * \returns OC_OK; OC_ERROR_INVALID_HANDLE; OC_ERROR_INVALID_ARGUMENT for an unknown value;
 *          OC_ERROR_NO_RESOURCES when, turned off outside a batch, the format no longer fits.
 * \threadsafety Any thread except a frame callback of the session.
 */
oc_status oc_capture_session_set_bus_fit(oc_capture_session *session, oc_bus_fit fit);

/**
 * The session's bus fit (OC_BUS_FIT_AUTOMATIC, with the last error set, for an invalid handle).
 * \threadsafety Any thread.
 */
oc_bus_fit oc_capture_session_get_bus_fit(const oc_capture_session *session);

/** What a session event callback reports. */
typedef enum oc_session_event {
    OC_SESSION_EVENT_STARTED = 0, /**< The camera stream runs: frames are on their way. */
    OC_SESSION_EVENT_STOPPED = 1, /**< The session stopped as asked (oc_capture_session_stop_running()). */
    /** The stream ended on its own (camera disconnected, daemon gone, driver error). */
    OC_SESSION_EVENT_RUNTIME_ERROR = 2,
    /**
     * The camera is in use by another client (`error` OC_ERROR_BUSY; the session
     * keeps trying to start), or it stopped sending frames without going away
     * (OC_ERROR_TIMEOUT: no frame for ten frame intervals, 1–3 s, or 4 s before
     * the first; the session waits, and after 10 s more reports RUNTIME_ERROR
     * and stops).
     */
    OC_SESSION_EVENT_INTERRUPTED = 3,
    /**
     * The interruption is over: the camera became free and the session started
     * (STARTED follows), or a stalled camera sends frames again.
     */
    OC_SESSION_EVENT_INTERRUPTION_ENDED = 4,
    /**
     * Sound is missing: the default microphone moved to an input that could not
     * be opened (the session runs without sound until the route changes again),
     * or while recording the microphone sent nothing for half a second
     * (OC_ERROR_TIMEOUT; the movie's sound track carries silence until it does).
     */
    OC_SESSION_EVENT_AUDIO_INTERRUPTED = 5,
    /** Automatic switching made another camera the input; `message` is its unique ID. */
    OC_SESSION_EVENT_INPUT_SWITCHED = 6,
    /**
     * Automatic switching wants another camera (unique ID in `message`) but a
     * recording is in progress: the switch happens when it ends.
     */
    OC_SESSION_EVENT_SWITCH_DEFERRED = 7,
    /**
     * Automatic switching could not move to a camera; the session kept its
     * input. `message` starts with the camera's unique ID, then the reason.
     */
    OC_SESSION_EVENT_SWITCH_FAILED = 8,
    /**
     * A recording's encoder could not keep up with the camera on this machine
     * (`error` OC_ERROR_NO_RESOURCES): rather than drop frames at random it
     * records every other frame until it catches up; `message` says what changed.
     * The recording's summary counts the frames left out as dropped.
     */
    OC_SESSION_EVENT_RECORDING_DEGRADED = 9,
    /**
     * The active microphone mode, the engine doing it or its echo cancellation
     * changed (oc_capture_session_get_microphone_mode(),
     * oc_capture_session_get_echo_cancellation()). `message` is the active mode's
     * name (oc_microphone_mode_name()); when it is not the preferred one, `error`
     * is OC_ERROR_LIBRARY_UNAVAILABLE and `message` goes on after ": " with why.
     */
    OC_SESSION_EVENT_MICROPHONE_MODE_CHANGED = 10,
    /**
     * To fit its USB bus, the camera runs another format than the outputs and preset would
     * have on an idle bus (oc_capture_session_set_bus_fit(); since 0.3). `error` is
     * OC_ERROR_NO_RESOURCES; `message` reads "ID runs MJPG 640x480 at 30.0 fps instead of
     * YUYV 640x480 at 30.0 fps: " and why: the share of the bus the wanted format would
     * take ("it would take 122% of usb1 beside …"), or the kernel's refusal at stream-on
     * ("the kernel refused it (…)"), after which the next format that fits was tried.
     * Also (with `error` OC_ERROR_BUSY, whatever the bus fit) when another app streams a
     * PipeWire camera in another format, which the outputs are then served from (scaled or
     * converted): why reads "the camera streams YUYV 1920x1080 for another app, not …". When
     * they cannot be served from it, starting fails with OC_ERROR_BUSY saying so.
     */
    OC_SESSION_EVENT_FORMAT_FALLBACK = 11
} oc_session_event;

/**
 * Session events. For RUNTIME_ERROR, INTERRUPTED, AUDIO_INTERRUPTED, SWITCH_FAILED,
 * RECORDING_DEGRADED and FORMAT_FALLBACK, `error` is the status code and `message` says what happened;
 * for INPUT_SWITCHED and SWITCH_DEFERRED `error` is 0 and `message` is the
 * camera's unique ID; otherwise 0 and "". `message` is valid during the call.
 * Runs on a library thread, one call at a time.
 */
typedef void (*oc_session_event_callback)(oc_capture_session *session, oc_session_event event,
                                          oc_status error, const char *message, void *user_data);

/**
 * Register an event callback; unregister with oc_capture_session_remove_callback()
 * (which waits for a call in flight).
 * \returns OC_OK, OC_ERROR_INVALID_HANDLE, OC_ERROR_INVALID_ARGUMENT (NULL callback).
 * \threadsafety Any thread.
 */
oc_status oc_capture_session_add_event_callback(oc_capture_session *session, oc_session_event_callback callback,
                                                void *user_data, oc_callback_id *out_id);
/**
 * Unregister an event callback; waits for a call of it in flight, except when called
 * from inside that callback (then later calls stop).
 * \returns OC_OK, OC_ERROR_INVALID_HANDLE, OC_ERROR_NOT_FOUND (unknown or removed id).
 * \threadsafety Any thread.
 */
oc_status oc_capture_session_remove_callback(oc_capture_session *session, oc_callback_id id);

/**
 * Automatic switching (behaviour §4, opt-in, off by default): the session's input
 * follows the context's system preferred camera — a camera plugged in becomes
 * the input, an unplugged input is replaced by the next preferred camera and
 * the session starts again. It never switches while a movie file output of the
 * session records (OC_SESSION_EVENT_SWITCH_DEFERRED); when the recording's file
 * is finished it checks again and switches then. Each switch is reported as
 * OC_SESSION_EVENT_INPUT_SWITCHED (or SWITCH_FAILED, keeping the input).
 * Enabling it switches at once when the input is not the system preferred camera.
 * \returns OC_OK, OC_ERROR_INVALID_HANDLE; OC_ERROR_WRONG_STATE for a multi-camera
 *          session's branch (automatic switching is a single-camera feature).
 * \threadsafety Any thread except a frame or event callback of the session
 *               (enabling may restart the camera stream, which blocks).
 */
oc_status oc_capture_session_set_automatically_switches_camera(oc_capture_session *session, bool enabled);

/** Whether automatic switching is on (false for an invalid handle). \threadsafety Any thread. */
bool oc_capture_session_automatically_switches_camera(const oc_capture_session *session);

/**
 * Whether a movie file output of the session is recording (from its start
 * until its file is finished). \threadsafety Any thread.
 */
bool oc_capture_session_is_recording(const oc_capture_session *session);

/**
 * Create a video data output.
 * \returns OC_OK; OC_ERROR_INVALID_ARGUMENT (NULL out).
 * \ownership The caller destroys it with oc_video_data_output_destroy().
 * \threadsafety Any thread.
 */
oc_status oc_video_data_output_create(oc_video_data_output **out);

/**
 * Destroy an output (removing it from its session first). NULL is ignored.
 * From inside the output's own frame callback this is refused (see "Calls from
 * inside a callback" at the top), as is a removal that would restart the stream
 * from inside another output's callback: the output then stays as it was.
 * \threadsafety Any thread but the output's own frame callback (refused there).
 */
void oc_video_data_output_destroy(oc_video_data_output *output);

/**
 * Pin the output's pixel format (a fourcc; 0 for the camera's) and size (0x0
 * for the camera's). Takes effect at the next commit or start.
 * \returns OC_OK, OC_ERROR_INVALID_HANDLE, OC_ERROR_INVALID_ARGUMENT (only one of
 *          width and height given).
 * \threadsafety Any thread.
 */
oc_status oc_video_data_output_set_format(oc_video_data_output *output, uint32_t pixel_format,
                                          uint32_t width, uint32_t height);

/**
 * Whether the output's pixels can be turned by `degrees` (right angles; an MJPEG
 * output cannot be turned). False for an invalid handle. \threadsafety Any thread.
 */
bool oc_video_data_output_is_rotation_angle_supported(const oc_video_data_output *output, int32_t degrees);

/**
 * Turn the output's pixels clockwise by `degrees` (0, 90, 180, 270; behaviour §3
 * connection angle): width and height swap for quarter turns. Every frame is
 * then converted with libyuv, which costs CPU: rotating the display layer by
 * the rotation coordinator's preview angle is free, and photo and movie outputs
 * record the angle as metadata. Takes effect at the next commit or start.
 * \returns OC_OK, OC_ERROR_INVALID_HANDLE, OC_ERROR_INVALID_ARGUMENT (not a
 *          right angle, or an MJPEG output).
 * \threadsafety Any thread.
 */
oc_status oc_video_data_output_set_rotation_angle(oc_video_data_output *output, int32_t degrees);

/**
 * Flip the output's pixels about the vertical axis (after rotation): 1 on, 0 off,
 * -1 the default (off: the camera's pixels, zero-copy; the behaviour contract's mirroring
 * defaults apply to the preview — see oc_rotation_coordinator_is_mirrored()).
 * Takes effect at the next commit or start.
 * \returns OC_OK, OC_ERROR_INVALID_HANDLE, OC_ERROR_INVALID_ARGUMENT.
 * \threadsafety Any thread.
 */
oc_status oc_video_data_output_set_mirrored(oc_video_data_output *output, int mirrored);

/**
 * The range of an output's Y'CbCr samples (BT.601 matrix in both). RGB outputs are
 * always full range and GRAY8 is full-range luma (as OpenCV's greyscale), whatever
 * the camera sends; this chooses the range of NV12, I420, YUYV and UYVY outputs.
 */
typedef enum oc_color_range {
    /** Luma 16–235, chroma 16–240: what OpenCV's COLOR_YUV2BGR_* codes, libyuv's
     *  I420 functions and video encoders expect. The default. */
    OC_COLOR_RANGE_VIDEO = 0,
    /** 0–255 for luma and chroma, as JPEG (JFIF) stores them. */
    OC_COLOR_RANGE_FULL = 1
} oc_color_range;

/**
 * Choose the range of the output's YUV frames (the default is
 * OC_COLOR_RANGE_VIDEO). MJPEG cameras decode to full range and YUV cameras send
 * video range; a frame in the other range is converted (a table lookup per
 * sample), so a YUV camera read in its own format and range stays zero-copy.
 * oc_frame_is_full_range() tells each frame's range. Takes effect at the next
 * commit or start. Since 0.3.
 * \returns OC_OK, OC_ERROR_INVALID_HANDLE, OC_ERROR_INVALID_ARGUMENT (not a
 *          value of oc_color_range). \threadsafety Any thread.
 */
oc_status oc_video_data_output_set_color_range(oc_video_data_output *output, oc_color_range range);

/**
 * The range the output's YUV frames are delivered in. Since 0.3.
 * \returns the range; OC_COLOR_RANGE_VIDEO for an invalid handle (which sets
 *          the last error). \threadsafety Any thread.
 */
oc_color_range oc_video_data_output_get_color_range(const oc_video_data_output *output);

/**
 * Cap the output's frame rate: frames closer together than `rate` allows are
 * skipped for this output. A cap is a maximum, never a requirement: a cap above
 * what the camera offers delivers every frame. 0/0 (numerator 0) removes the cap.
 * \returns OC_OK, OC_ERROR_INVALID_HANDLE, OC_ERROR_INVALID_ARGUMENT (a zero
 *          denominator with a non-zero numerator).
 * \threadsafety Any thread.
 */
oc_status oc_video_data_output_set_max_frame_rate(oc_video_data_output *output, oc_fraction rate);

/**
 * Called for each frame with a view valid during the call (retain it with
 * oc_frame_retain() to keep it), one frame at a time. Runs on the session's
 * stream thread while the output is the stream's only output; when the stream
 * feeds several outputs, each output's callback runs on a thread of the
 * output's own, so a slow callback holds up only its own output (its frames
 * drop as late, counted, while it is busy; the other outputs, the recording
 * and the stall watch go on). It must not stop or reconfigure the session.
 */
typedef void (*oc_frame_callback)(oc_video_data_output *output, const oc_frame *frame, void *user_data);

/**
 * Set (or with NULL clear) the frame callback; a replaced callback in flight
 * finishes before this returns. From inside the callback itself it returns at
 * once and applies from the next frame.
 * \returns OC_OK or OC_ERROR_INVALID_HANDLE. \threadsafety Any thread, including the callback.
 */
/* Pulling frames instead of taking callbacks: for loops that ask for the next
 * frame, and host event loops (epoll, GLib, asyncio) that wait on a descriptor. */

/**
 * The output's newest frame not yet taken, as a retained copy, waiting up to
 * `timeout_ms` for one (0: only a frame already waiting). The output keeps one
 * frame, never a queue: a newer frame replaces one not yet taken, so a slow
 * reader always gets the latest. Pulling starts with the first call (or
 * oc_video_data_output_get_pollable_fd()); from then on each frame is also
 * copied into the output's one reused buffer. Works beside a frame callback.
 * \param out receives the frame; the caller releases it with oc_frame_release().
 * \returns OC_OK; OC_ERROR_TIMEOUT when no frame came in time;
 *          OC_ERROR_INVALID_HANDLE; OC_ERROR_INVALID_ARGUMENT (NULL `out`);
 *          OC_ERROR_WRONG_STATE at once when no frame can come — the output is
 *          not part of a running session, or its session stops, or the output is
 *          destroyed while waiting — and from the output's own stream thread (a
 *          frame callback: it would wait for itself). When the session stopped
 *          on its own the message says why, and
 *          oc_video_data_output_get_stop_status() gives the status.
 * \threadsafety Any thread but the session's stream thread; several readers
 *               share the frames (each frame goes to one of them).
 */
oc_status oc_video_data_output_copy_next_frame(oc_video_data_output *output, uint32_t timeout_ms, oc_frame **out);

/**
 * Why the output's session stopped when nobody asked it to: the status of the
 * runtime error (OC_ERROR_DISCONNECTED for a camera unplugged or a daemon gone,
 * OC_ERROR_TIMEOUT for a camera that stalled, …) with its message as the last
 * error; OC_OK while the session runs, after a stop that was asked for, and
 * before the first start. What a reader that got OC_ERROR_WRONG_STATE from
 * oc_video_data_output_copy_next_frame() asks next. Since 0.3.
 * \returns that status, or OC_ERROR_INVALID_HANDLE. \threadsafety Any thread.
 */
oc_status oc_video_data_output_get_stop_status(const oc_video_data_output *output);

/**
 * A file descriptor that is readable while a frame waits to be taken with
 * oc_video_data_output_copy_next_frame() (which clears it): add it to epoll,
 * g_unix_fd_add() or asyncio's add_reader(). Starts pulling like the first
 * oc_video_data_output_copy_next_frame().
 * \ownership The descriptor belongs to the output (closed when it is destroyed);
 *            do not read from or close it.
 * \returns OC_OK; OC_ERROR_INVALID_HANDLE; OC_ERROR_INVALID_ARGUMENT (NULL `out_fd`);
 *          OC_ERROR_NO_RESOURCES when no descriptor could be made.
 * \threadsafety Any thread; the same descriptor on every call.
 */
oc_status oc_video_data_output_get_pollable_fd(oc_video_data_output *output, int *out_fd);

/**
 * Set (or with NULL clear) the output's frame callback. From another thread it waits
 * for a call of the old callback in flight, so none runs after it returns; from
 * inside the callback it applies from the next frame.
 * \returns OC_OK, OC_ERROR_INVALID_HANDLE, OC_ERROR_WRONG_STATE (the output is
 *          delivering through an oc_output_synchronizer).
 * \threadsafety Any thread.
 */
oc_status oc_video_data_output_set_frame_callback(oc_video_data_output *output, oc_frame_callback callback,
                                                  void *user_data);

/** Frames delivered to this output so far (0 for an invalid handle). \threadsafety Any thread. */
uint64_t oc_video_data_output_delivered_frames(const oc_video_data_output *output);

/** Why an output dropped a frame. */
typedef enum oc_drop_reason {
    /**
     * It arrived more than three frame intervals after capture (a slow consumer),
     * or an H.264 decoder that fell behind skips it to catch up at the next key frame.
     */
    OC_DROP_LATE = 0,
    /** The camera dropped it while this output's callback held the stream up. */
    OC_DROP_OUT_OF_BUFFERS = 1,
    /**
     * The source skipped it (a gap in sequence numbers not caused by this output),
     * or it is an H.264 picture before the first key frame the output saw (the
     * pictures it refers to never arrived).
     */
    OC_DROP_DISCONTINUITY = 2,
    /**
     * It could not be decoded (corrupt MJPEG), or its buffer was shorter than its format,
     * size and strides claim (a depth map, or a picture after another app renegotiated the
     * camera). A session none of whose frames its outputs can use stops with a runtime
     * error at the first-frame deadline (4 s).
     */
    OC_DROP_CORRUPT = 3
} oc_drop_reason;

/**
 * Frames this output dropped for `reason`. Frames are never queued without
 * bound: a slow callback makes frames late or the camera run out of buffers, and
 * both are counted here instead.
 * \returns the count; 0 for an invalid handle or reason. \threadsafety Any thread.
 */
uint64_t oc_video_data_output_dropped_frames(const oc_video_data_output *output, oc_drop_reason reason);

/** Frame properties; 0 for an invalid frame (which sets the last error). \threadsafety Any thread. */
uint32_t oc_frame_pixel_format(const oc_frame *frame);
uint32_t oc_frame_width(const oc_frame *frame);
uint32_t oc_frame_height(const oc_frame *frame);
uint64_t oc_frame_sequence(const oc_frame *frame);
/**
 * CLOCK_MONOTONIC nanoseconds of the capture.
 * \threadsafety Any thread, while the frame is valid.
 */
uint64_t oc_frame_timestamp_ns(const oc_frame *frame);
/**
 * True for full-range samples (0–255: every RGB and GRAY8 frame, YUV frames of an
 * output set to OC_COLOR_RANGE_FULL), false for video range (luma 16–235, chroma
 * 16–240: YUV frames by default, and YUV cameras' own frames). Compressed frames
 * (MJPEG) report full range, as JPEG stores it. BT.601 in both.
 * \threadsafety Any thread, while the frame is valid.
 */
bool oc_frame_is_full_range(const oc_frame *frame);
/**
 * True for a compressed frame the camera sent damaged (a JPEG that does not
 * decode): outputs that convert drop such frames (OC_DROP_CORRUPT), outputs that
 * take the camera's format get them with this flag.
 * \threadsafety Any thread, while the frame is valid.
 */
bool oc_frame_is_corrupt(const oc_frame *frame);
uint32_t oc_frame_plane_count(const oc_frame *frame);

/**
 * Plane `plane`'s bytes: returns the data (NULL for an invalid frame or plane)
 * and its size and stride in bytes through the optional outputs.
 * \ownership The bytes belong to the frame: valid during the callback, or until
 *            oc_frame_release() for a retained frame.
 * \threadsafety Any thread, while the frame is valid.
 */
const uint8_t *oc_frame_plane_data(const oc_frame *frame, uint32_t plane, size_t *size, uint32_t *stride);

/**
 * Keep a frame beyond its callback: returns a frame the caller owns (its bytes
 * copied out of the camera's buffer, which goes back to the camera) or NULL.
 * \ownership Release with oc_frame_release().
 * \threadsafety Any thread.
 */
oc_frame *oc_frame_retain(const oc_frame *frame);

/**
 * Release a frame from oc_frame_retain(). NULL is ignored; the frame an output
 * is delivering (its callback's argument) is not released, and
 * oc_last_error_message() says so.
 * \threadsafety Any thread.
 */
void oc_frame_release(oc_frame *frame);

/* ------------------------------------------------------------------------ */
/* Multi-camera sessions (behaviour §4), added in 0.3                          */
/* ------------------------------------------------------------------------ */
/*
 * Mirrors (docs/contributing.md): Sources/OcellusCABI/ MultiCamABI.swift; cli/ stream_cameras.c;
 * bindings/python/ocellus/ multi_cam.py; bindings/rust/ocellus/src/ multi_cam.rs.
 */

/**
 * Several cameras streaming together, started and stopped as one (AVFoundation's
 * AVCaptureMultiCamSession). Each camera added has a branch: an oc_capture_session whose
 * input is that camera, to which the app connects that camera's outputs (video, depth,
 * photo, movie, metadata) with the usual oc_capture_session_add_* calls, and sets its
 * preset, bus fit and the rest. A branch's formats are chosen beside the cameras added
 * before it, so the session fits its USB buses together before anything streams (behaviour
 * §4 hardware cost); its fallbacks are the session's events. Branches do not start, stop,
 * change camera or switch automatically on their own: automatic switching stays a
 * single-camera feature.
 */
typedef struct oc_multi_cam_session oc_multi_cam_session;

/**
 * Create a multi-camera session on `ctx`'s cameras.
 * \returns OC_OK, OC_ERROR_INVALID_HANDLE, OC_ERROR_INVALID_ARGUMENT (NULL out).
 * \ownership The caller destroys it with oc_multi_cam_session_destroy() before the context.
 * \threadsafety Safe from any thread.
 */
oc_status oc_multi_cam_session_create(oc_context *ctx, oc_multi_cam_session **out);

/**
 * Stop (if running) and destroy a multi-camera session and its branches. The outputs stay
 * valid (the caller owns them). NULL or a destroyed session is ignored apart from the last
 * error.
 * \threadsafety Any thread except a frame or event callback of the session.
 */
void oc_multi_cam_session_destroy(oc_multi_cam_session *session);

/**
 * Whether `camera` could join: a connected camera with video formats, not in the session.
 * False, with the last error set, for invalid handles.
 * \threadsafety Any thread.
 */
bool oc_multi_cam_session_can_add_camera(oc_multi_cam_session *session, oc_device *camera);

/**
 * Add `camera` to a stopped session. `*out_branch` receives its branch, to which the
 * camera's outputs are added.
 * \returns OC_OK; OC_ERROR_INVALID_HANDLE; OC_ERROR_INVALID_ARGUMENT for NULL `out_branch`,
 *          a device that is not a connected camera with video formats, or one in the
 *          session already;
 *          OC_ERROR_WRONG_STATE while the session runs.
 * \ownership The branch belongs to the session: valid until the camera is removed or the
 *            session destroyed; oc_capture_session_destroy() refuses it.
 * \threadsafety Any thread except a frame or event callback of the session.
 */
oc_status oc_multi_cam_session_add_camera(oc_multi_cam_session *session, oc_device *camera,
                                          oc_capture_session **out_branch);

/**
 * Remove `camera` and its branch from a stopped session; the branch handle goes with it.
 * \returns OC_OK; OC_ERROR_INVALID_HANDLE; OC_ERROR_NOT_FOUND when it is not in the
 *          session; OC_ERROR_WRONG_STATE while the session runs.
 * \threadsafety Any thread except a frame or event callback of the session.
 */
oc_status oc_multi_cam_session_remove_camera(oc_multi_cam_session *session, oc_device *camera);

/**
 * Start every camera, in the order they were added; returns once all stream. Blocking.
 * When one cannot start, those started are stopped again and the error names the camera
 * ("ID: …"): OC_ERROR_NO_RESOURCES when it does not fit its bus (the message names the
 * bus, what holds it and what would fit), or its stream's error.
 * \returns OC_OK; OC_ERROR_INVALID_HANDLE; OC_ERROR_WRONG_STATE without cameras or from a
 *          frame callback; a camera's error as above.
 * \threadsafety Any thread except a frame or event callback of the session.
 */
oc_status oc_multi_cam_session_start_running(oc_multi_cam_session *session);

/**
 * Stop every camera; returns after their last frame callbacks have returned. Blocking.
 * \returns OC_OK, OC_ERROR_INVALID_HANDLE, OC_ERROR_WRONG_STATE from a frame callback.
 * \threadsafety Any thread except a frame callback of the session.
 */
oc_status oc_multi_cam_session_stop_running(oc_multi_cam_session *session);

/** Whether the cameras stream (false after a runtime error). \threadsafety Any thread. */
bool oc_multi_cam_session_is_running(const oc_multi_cam_session *session);

/**
 * The session's cost on its cameras' USB buses, with the branches' configurations as they
 * stand, before or while running: `bus` is the most loaded bus, `total` its load with every
 * camera of the session on it, `own` those cameras' part, `others` how many other
 * interfaces reserve time there, and `fits` whether every bus fits. Each camera's own
 * share, beside the ones added before it, is oc_capture_session_get_hardware_cost() of its
 * branch.
 * \returns OC_OK; OC_ERROR_INVALID_HANDLE; OC_ERROR_INVALID_ARGUMENT (NULL `cost`, or a
 *          short struct_size); OC_ERROR_NOT_FOUND when no camera of the session is on USB.
 * \threadsafety Any thread.
 */
oc_status oc_multi_cam_session_get_hardware_cost(const oc_multi_cam_session *session, oc_hardware_cost *cost);

/**
 * Multi-camera session events, with the same kinds as a session's: STARTED and STOPPED for
 * the whole session (`camera` NULL); RUNTIME_ERROR when one camera's stream ended on its own
 * (every camera has stopped; `message` starts with the camera's unique ID); the other
 * kinds (INTERRUPTED, FORMAT_FALLBACK, RECORDING_DEGRADED, …) as a branch reports them.
 * `camera` is the unique ID of the camera concerned; it and `message` are valid during the
 * call.
 * \threadsafety Runs on a library thread, one call at a time.
 */
typedef void (*oc_multi_cam_event_callback)(oc_multi_cam_session *session, oc_session_event event, const char *camera,
                                            oc_status error, const char *message, void *user_data);

/**
 * Register an event callback; unregister with oc_multi_cam_session_remove_callback().
 * \returns OC_OK, OC_ERROR_INVALID_HANDLE, OC_ERROR_INVALID_ARGUMENT (NULL callback).
 * \threadsafety Any thread.
 */
oc_status oc_multi_cam_session_add_event_callback(oc_multi_cam_session *session, oc_multi_cam_event_callback callback,
                                                  void *user_data, oc_callback_id *out_id);

/**
 * Unregister an event callback; waits for a call of it in flight, except from inside it.
 * \returns OC_OK, OC_ERROR_INVALID_HANDLE, OC_ERROR_NOT_FOUND (unknown or removed id).
 * \threadsafety Any thread.
 */
oc_status oc_multi_cam_session_remove_callback(oc_multi_cam_session *session, oc_callback_id id);

/* ------------------------------------------------------------------------ */
/* Depth: depth cameras, depth data outputs, synchronised delivery (§4 depth)  */
/* ------------------------------------------------------------------------ */
/*
 * Mirrors (docs/contributing.md): Sources/OcellusCABI/ DepthABI.swift;
 * cli/ depth_counter.c, snap.c; bindings/python/ocellus/ depth.py;
 * bindings/rust/ocellus/src/ depth.rs.
 */

/*
 * A depth camera (OC_DEVICE_TYPE_DEPTH_CAMERA) is one device however many
 * functions it has: a USB depth camera's colour, depth and infrared nodes are
 * one camera whose formats (oc_device_get_format()) are its pictures and whose
 * depth formats (oc_device_get_depth_format()) stream beside any of them on a
 * stream of their own. A depth-only camera (a time-of-flight sensor) has the
 * same formats in both lists: its picture stream carries the depth. Depth maps
 * are delivered as oc_frame views: one plane, one little-endian uint16 per pixel
 * (Z16, Y16, Y12), 0 where the camera measured nothing, in units of
 * oc_frame_depth_unit() metres; or, when asked, float32 metres
 * (OC_PIXEL_FORMAT_DEPTH32F, 0.0 where there is no depth).
 */

#define OC_PIXEL_FORMAT_Y16 OC_FOURCC('Y', '1', '6', ' ')   /**< 16-bit greyscale; depth on a depth function */
#define OC_PIXEL_FORMAT_Y12 OC_FOURCC('Y', '1', '2', ' ')   /**< 12-bit greyscale in 16-bit words (time-of-flight depth) */
/** Ocellus's code for depth in metres as native-endian 32-bit floats (converted from the camera's words). */
#define OC_PIXEL_FORMAT_DEPTH32F OC_FOURCC('Z', '3', '2', 'F')

/** Number of depth formats (0 for cameras that are not depth cameras, and for an invalid handle). \threadsafety Any thread. */
size_t oc_device_depth_format_count(const oc_device *device);

/**
 * Describe depth format `index`, as oc_device_get_format() describes formats.
 * \returns OC_OK, OC_ERROR_INVALID_HANDLE, or OC_ERROR_INVALID_ARGUMENT (NULL
 *          `info`, a too small struct_size, an index out of range).
 * \ownership info->frame_rates points into the device; valid while it is retained.
 * \threadsafety Any thread.
 */
oc_status oc_device_get_depth_format(const oc_device *device, size_t index, oc_format_info *info);

/**
 * Whether depth format `depth_format_index` can stream while the camera runs
 * format `format_index` (every depth format, when depth has a function of its
 * own; for a depth-only camera, the same format). False for indices out of
 * range and invalid handles (both set the last error). \threadsafety Any thread.
 */
bool oc_device_depth_format_runs_beside(const oc_device *device, size_t format_index, size_t depth_format_index);

/** Depth maps of a session for one consumer. */
typedef struct oc_depth_data_output oc_depth_data_output;

/**
 * Create a depth data output.
 * \ownership The caller destroys it with oc_depth_data_output_destroy().
 * \returns OC_OK, OC_ERROR_INVALID_ARGUMENT (NULL out). \threadsafety Any thread.
 */
oc_status oc_depth_data_output_create(oc_depth_data_output **out);

/**
 * Destroy a depth output (removing it from its session first). NULL is ignored;
 * from inside its own callback (or its synchronizer's) it is refused, as for
 * video outputs. \threadsafety Any thread but the output's callbacks.
 */
void oc_depth_data_output_destroy(oc_depth_data_output *output);

/**
 * Pin the depth format: `pixel_format` 0 for the camera's, a depth code the
 * camera offers (OC_PIXEL_FORMAT_Z16, _Y16, _Y12), or OC_PIXEL_FORMAT_DEPTH32F for
 * float metres converted from the camera's; `width`x`height` 0x0 for the size the
 * session picks beside the picture (the picture's aspect ratio, the nearest size,
 * the picture's rate where the camera has it). Depth is never scaled: a pinned
 * size must be one the camera offers. Takes effect at the next commit or start.
 * \returns OC_OK, OC_ERROR_INVALID_HANDLE, OC_ERROR_INVALID_ARGUMENT (not a depth
 *          format, or only one of width and height). \threadsafety Any thread.
 */
oc_status oc_depth_data_output_set_format(oc_depth_data_output *output, uint32_t pixel_format, uint32_t width,
                                          uint32_t height);

/**
 * Called for each depth map with a view valid during the call (oc_frame_retain()
 * keeps it), one map at a time. Runs on the thread of the stream that carries
 * depth, or, when that stream feeds several outputs, on a thread of the
 * output's own (as oc_frame_callback); the rules for calls from inside
 * callbacks apply.
 */
typedef void (*oc_depth_callback)(oc_depth_data_output *output, const oc_frame *depth, void *user_data);

/**
 * Set (or with NULL clear) the callback; a replaced callback in flight finishes
 * first, except from inside it.
 * \returns OC_OK; OC_ERROR_INVALID_HANDLE; OC_ERROR_WRONG_STATE while the output
 *          is synchronized (its maps go to the synchronizer).
 * \threadsafety Any thread, including the callback.
 */
oc_status oc_depth_data_output_set_frame_callback(oc_depth_data_output *output, oc_depth_callback callback,
                                                  void *user_data);

/** Depth maps delivered so far (0 for an invalid handle). \threadsafety Any thread. */
uint64_t oc_depth_data_output_delivered_frames(const oc_depth_data_output *output);

/**
 * Depth maps dropped for `reason`, with the rules of video outputs (late, out of
 * buffers, discontinuity; OC_DROP_CORRUPT for a map shorter than its size).
 * 0 for an invalid handle or reason. \threadsafety Any thread.
 */
uint64_t oc_depth_data_output_dropped_frames(const oc_depth_data_output *output, oc_drop_reason reason);

/**
 * Add a depth output: the session then streams the input's depth beside its
 * picture (or, on a depth-only camera, delivers the picture stream's depth).
 * \returns OC_OK; OC_ERROR_INVALID_HANDLE; OC_ERROR_WRONG_STATE when it is already
 *          in a session; OC_ERROR_INVALID_ARGUMENT when the input is not a depth
 *          camera or has no depth format the output takes (outside a batch).
 * \threadsafety Any thread except a frame callback of the session.
 */
oc_status oc_capture_session_add_depth_output(oc_capture_session *session, oc_depth_data_output *output);

/**
 * Remove a depth output. \returns OC_OK, OC_ERROR_INVALID_HANDLE, OC_ERROR_NOT_FOUND.
 * \threadsafety Any thread; from inside a callback, see "Calls from inside a callback".
 */
oc_status oc_capture_session_remove_depth_output(oc_capture_session *session, oc_depth_data_output *output);

/**
 * Whether the depth output could be added now (false, with the last error, for invalid handles).
 * \threadsafety Any thread.
 */
bool oc_capture_session_can_add_depth_output(oc_capture_session *session, oc_depth_data_output *output);

/**
 * The depth format the running session's depth outputs get (each output may be NULL).
 * \returns OC_OK; OC_ERROR_INVALID_HANDLE; OC_ERROR_WRONG_STATE when not running
 *          or without depth outputs. \threadsafety Any thread.
 */
oc_status oc_capture_session_get_active_depth_format(const oc_capture_session *session, uint32_t *pixel_format,
                                                     uint32_t *width, uint32_t *height, oc_fraction *frame_rate);

/**
 * Metres per unit of a depth map's samples: 0.001 (millimetres) unless the
 * camera reports its depth unit (a `depth_units` control, in micrometres); 1 for
 * OC_PIXEL_FORMAT_DEPTH32F; 0 for a picture or an invalid frame (which sets the
 * last error). \threadsafety Any thread.
 */
float oc_frame_depth_unit(const oc_frame *frame);

/**
 * Pairs a video data output's frames with a depth data output's maps captured
 * at the same instant (capture times within half the shorter frame interval),
 * delivered together to one callback; or, since 0.3, the frames of two cameras'
 * video outputs (oc_output_synchronizer_create_for_cameras()). Capture times are
 * the kernel's monotonic clock, one for every camera, not arrival. Works across
 * rates: at 30 fps video and 15 fps depth, every depth map has its frame and
 * every other frame has none.
 * A frame without a partner is counted (oc_output_synchronizer_unmatched_frames()),
 * never queued. While synchronized, the outputs' own callbacks are not called
 * (pulling frames with oc_video_data_output_copy_next_frame() still works).
 */
typedef struct oc_output_synchronizer oc_output_synchronizer;

/** Which stream of a synchronizer. */
typedef enum oc_sync_stream {
    OC_SYNC_STREAM_VIDEO = 0,
    OC_SYNC_STREAM_DEPTH = 1,
    /** The first and the second output of a synchronizer of two cameras (0.3; the same values). */
    OC_SYNC_STREAM_FIRST = 0,
    OC_SYNC_STREAM_SECOND = 1
} oc_sync_stream;

/**
 * Synchronize `video` and `depth` (outputs of one session, or of none yet).
 * Their frame callbacks are cleared.
 * \returns OC_OK; OC_ERROR_INVALID_HANDLE; OC_ERROR_INVALID_ARGUMENT (NULL out);
 *          OC_ERROR_WRONG_STATE when an output already has a synchronizer, or
 *          from an output's callback.
 * \ownership The caller destroys it with oc_output_synchronizer_destroy()
 *            (before or after the outputs; the outputs then have no callback).
 * \threadsafety Any thread.
 */
oc_status oc_output_synchronizer_create(oc_video_data_output *video, oc_depth_data_output *depth,
                                        oc_output_synchronizer **out);

/**
 * Synchronize the video outputs of two cameras, each in its own session (or in none
 * yet): a stereo pair of webcams, a room camera beside a face camera. The callback
 * gets the first output's frame as `video` and the second's as `depth`; unmatched
 * frames are counted by OC_SYNC_STREAM_FIRST and OC_SYNC_STREAM_SECOND. Their frame
 * callbacks are cleared. Added in 0.3.
 * \returns OC_OK; OC_ERROR_INVALID_HANDLE; OC_ERROR_INVALID_ARGUMENT (NULL out, or
 *          one output given twice); OC_ERROR_WRONG_STATE when an output already has
 *          a synchronizer, or from an output's callback.
 * \ownership The caller destroys it with oc_output_synchronizer_destroy()
 *            (before or after the outputs; the outputs then have no callback).
 * \threadsafety Any thread.
 */
oc_status oc_output_synchronizer_create_for_cameras(oc_video_data_output *first, oc_video_data_output *second,
                                                    oc_output_synchronizer **out);

/**
 * Stop synchronizing and destroy: returns after a pair callback in flight.
 * NULL is ignored; from inside its own callback it is refused (last error).
 * \threadsafety Any thread but the synchronizer's callback.
 */
void oc_output_synchronizer_destroy(oc_output_synchronizer *synchronizer);

/**
 * Called with each pair: `video` and `depth` are views valid during the call
 * (oc_frame_retain() keeps either). Runs on the thread delivering one of the
 * two outputs (as oc_frame_callback), one pair at a time; a slow callback holds
 * up the two outputs (their frames then drop as late or out of buffers, counted
 * by each output), not the session's other outputs.
 */
typedef void (*oc_synchronized_callback)(oc_output_synchronizer *synchronizer, const oc_frame *video,
                                         const oc_frame *depth, void *user_data);

/**
 * Set (or with NULL clear) the pair callback; a replaced callback in flight
 * finishes first, except from inside it.
 * \returns OC_OK or OC_ERROR_INVALID_HANDLE. \threadsafety Any thread, including the callback.
 */
oc_status oc_output_synchronizer_set_callback(oc_output_synchronizer *synchronizer, oc_synchronized_callback callback,
                                              void *user_data);

/** Pairs delivered so far (0 for an invalid handle). \threadsafety Any thread. */
uint64_t oc_output_synchronizer_delivered_pairs(const oc_output_synchronizer *synchronizer);

/**
 * Frames of `stream` that found no partner (0 for an invalid handle or stream).
 * \threadsafety Any thread.
 */
uint64_t oc_output_synchronizer_unmatched_frames(const oc_output_synchronizer *synchronizer, oc_sync_stream stream);

/* ------------------------------------------------------------------------ */
/* Microphone input, microphone modes and audio data outputs (behaviour §4, §5)   */
/* ------------------------------------------------------------------------ */
/*
 * Mirrors (docs/contributing.md): Sources/OcellusCABI/ AudioABI.swift;
 * cli/ record.c, listen.c, microphone_mode.c; bindings/python/ocellus/ audio.py;
 * bindings/rust/ocellus/src/ audio.rs.
 */

/**
 * The single `microphone` device (behaviour §5, unique ID "microphone"): it stands
 * for the current input and follows it. Its name is the name of that input and
 * changes with the route. The route is: the app's preferred input
 * (oc_context_set_preferred_microphone()) while connected; else the most
 * recently plugged microphone when it arrived after the system default last
 * changed; else the system default (PipeWire's default.audio.source); else the
 * first microphone. A session whose audio input is this device keeps recording
 * across route changes: its microphone stream moves to the new input, a pause
 * becomes silence in recordings.
 *
 * \param out receives a new reference (release with oc_device_release()), or
 *            NULL while no microphone is connected. The same device every time.
 * \returns OC_OK, OC_ERROR_INVALID_HANDLE, OC_ERROR_INVALID_ARGUMENT (NULL out).
 * \threadsafety Safe from any thread, including callbacks.
 */
oc_status oc_context_copy_default_microphone(oc_context *ctx, oc_device **out);

/**
 * The input the `microphone` device routes to now: one of the context's
 * microphones (as listed by oc_context_copy_devices()), or NULL when none.
 * \param out as oc_context_copy_default_microphone().
 * \returns OC_OK, OC_ERROR_INVALID_HANDLE, OC_ERROR_INVALID_ARGUMENT (NULL out).
 * \threadsafety Any thread.
 */
oc_status oc_context_copy_microphone_route(oc_context *ctx, oc_device **out);

/**
 * Prefer an input for the `microphone` device (like a preferred audio input):
 * it carries the route while connected, also after it is unplugged and plugged
 * in again (matched by unique ID). NULL returns to the system's choice. Kept
 * in memory for the context's life (not persisted).
 * \returns OC_OK; OC_ERROR_INVALID_HANDLE; OC_ERROR_INVALID_ARGUMENT for a
 *          camera or the `microphone` device itself; OC_ERROR_NOT_FOUND for a
 *          microphone that is not connected in this context.
 * \threadsafety Safe from any thread, including callbacks.
 */
oc_status oc_context_set_preferred_microphone(oc_context *ctx, oc_device *microphone);

/**
 * The preferred input while it is connected, else NULL.
 * \param out as oc_context_copy_default_microphone().
 * \returns OC_OK, OC_ERROR_INVALID_HANDLE, OC_ERROR_INVALID_ARGUMENT (NULL out).
 * \threadsafety Any thread.
 */
oc_status oc_context_copy_preferred_microphone(oc_context *ctx, oc_device **out);

/**
 * Called when the `microphone` device's route moves; `input` is the new input
 * (borrowed for the call) or NULL when no microphone is left.
 */
typedef void (*oc_microphone_route_callback)(oc_context *ctx, oc_device *input, void *user_data);

/**
 * Register a route callback; unregister with oc_context_remove_callback().
 * \returns OC_OK, OC_ERROR_INVALID_HANDLE, OC_ERROR_INVALID_ARGUMENT (NULL callback).
 * \threadsafety Safe from any thread; the callback runs on the context's event thread.
 */
oc_status oc_context_add_microphone_route_callback(oc_context *ctx, oc_microphone_route_callback callback,
                                                   void *user_data, oc_callback_id *out_id);

/**
 * Set (or with NULL remove) the session's microphone: a PipeWire source, such
 * as a camera's oc_context_copy_associated_microphone(), or the `microphone`
 * device (oc_context_copy_default_microphone()) to follow the route. Its sound reaches audio
 * data outputs and becomes the AAC track of recordings. Takes effect at the next
 * commit or at once (like the camera input).
 * \returns OC_OK, OC_ERROR_INVALID_HANDLE, OC_ERROR_INVALID_ARGUMENT (not a
 *          connected PipeWire microphone).
 * \threadsafety Any thread; from inside a callback, see "Calls from inside a callback".
 */
oc_status oc_capture_session_set_audio_input(oc_capture_session *session, oc_device *microphone);

/** PCM from the session's microphone. */
typedef struct oc_audio_data_output oc_audio_data_output;

/**
 * Called with interleaved 32-bit float samples (`frame_count` frames of
 * `channels` samples at `sample_rate`), valid during the call; `timestamp_ns` is
 * the CLOCK_MONOTONIC capture time of the first frame. Runs on the session's
 * audio thread.
 */
typedef void (*oc_audio_callback)(oc_audio_data_output *output, const float *samples, size_t frame_count,
                                  uint32_t channels, uint32_t sample_rate, uint64_t timestamp_ns, void *user_data);

/**
 * Create an audio data output: add it to a session with a microphone input to receive PCM.
 * \returns OC_OK; OC_ERROR_INVALID_ARGUMENT (NULL out).
 * \ownership Destroy with oc_audio_data_output_destroy(). \threadsafety Any thread.
 */
oc_status oc_audio_data_output_create(oc_audio_data_output **out);
/**
 * Removes the output from its session first. NULL is ignored. Refused from
 * inside the output's own callback, like oc_video_data_output_destroy().
 * \threadsafety Any thread but the output's own callback (refused there).
 */
void oc_audio_data_output_destroy(oc_audio_data_output *output);
/**
 * \returns OC_OK, OC_ERROR_INVALID_HANDLE, OC_ERROR_WRONG_STATE (already in a session).
 * \threadsafety Any thread; from inside a callback, see "Calls from inside a callback".
 */
oc_status oc_capture_session_add_audio_output(oc_capture_session *session, oc_audio_data_output *output);
/**
 * \returns OC_OK, OC_ERROR_INVALID_HANDLE, OC_ERROR_NOT_FOUND.
 * \threadsafety Any thread; from inside a callback, see "Calls from inside a callback".
 */
oc_status oc_capture_session_remove_audio_output(oc_capture_session *session, oc_audio_data_output *output);
/**
 * The rate and channel count the session delivers sound in, to its audio data
 * outputs and recordings; 0 for either: the microphone's own (what its system
 * reports it sends). Default 48000 Hz, 2 channels. Applies when the microphone
 * stream next opens (a start, an input change); the callback's `channels` and
 * `sample_rate` say what each buffer is. Voice isolation runs at 48000 Hz: with
 * the microphone's own rate a stream that wants it opens at 48000 Hz; with
 * another rate set, voice isolation is unavailable (the mode's reason says so).
 * Since 0.3.
 * \returns OC_OK; OC_ERROR_INVALID_HANDLE; OC_ERROR_INVALID_ARGUMENT (a rate
 *          outside 8000–384000 Hz or more than 64 channels).
 * \threadsafety Any thread.
 */
oc_status oc_capture_session_set_audio_format(oc_capture_session *session, uint32_t sample_rate, uint32_t channels);
/**
 * Set (or with NULL clear) the callback; a replaced callback in flight finishes
 * first, except from inside the callback itself (it applies from the next call).
 * \returns OC_OK or OC_ERROR_INVALID_HANDLE. \threadsafety Any thread, including the callback.
 */
oc_status oc_audio_data_output_set_callback(oc_audio_data_output *output, oc_audio_callback callback, void *user_data);
/** PCM frames delivered so far (0 for an invalid handle). \threadsafety Any thread. */
uint64_t oc_audio_data_output_delivered_frames(const oc_audio_data_output *output);
/**
 * PCM frames the microphone sent that never reached the output: a microphone
 * mode's engine fell a second behind and input was dropped rather than queued
 * (0 for an invalid handle). Since 0.3. \threadsafety Any thread.
 */
uint64_t oc_audio_data_output_dropped_frames(const oc_audio_data_output *output);

/**
 * Microphone modes (AVFoundation's AVCaptureDevice.MicrophoneMode): what a
 * session does to its microphone's sound before its audio data outputs and
 * recordings get it. Since 0.3.
 */
typedef enum oc_microphone_mode {
    /** What Ocellus has always delivered: the signal as PipeWire gives it. The default. */
    OC_MICROPHONE_MODE_STANDARD = 0,
    /** The untouched signal, bit-exact. */
    OC_MICROPHONE_MODE_WIDE_SPECTRUM = 1,
    /**
     * What is not speech — typing, clicks, fans, traffic — suppressed, the voice
     * kept, by RNNoise (loaded on first use: OCELLUS_RNNOISE_LIB, else the
     * system's librnnoise.so.0), or by DeepFilterNet where the environment says
     * OCELLUS_VOICE_ISOLATION_ENGINE=deepfilternet (OCELLUS_DEEPFILTER_LIB; 30 ms).
     * Before it, what the machine plays (the default output's monitor) is removed
     * from the microphone by webrtc-audio-processing's echo canceller (Ocellus's
     * plugin in LIBDIR/ocellus/, or OCELLUS_ECHO_CANCELLER_LIB), when it loads
     * (oc_capture_session_get_echo_cancellation()).
     * Mono: every channel carries the processed mix of all. Adds 20 ms of
     * latency (28 ms with echo cancellation; DeepFilterNet 10 ms more), from
     * the first time it is active on a stream until the stream closes
     * (switching away keeps the delay, so that switching back and forth never
     * leaves a gap).
     */
    OC_MICROPHONE_MODE_VOICE_ISOLATION = 2
} oc_microphone_mode;

/**
 * "standard", "wide_spectrum", "voice_isolation" (the names the CLI's JSON
 * writes); NULL for a value not in the enum (the last error says so).
 * \ownership Static strings. \threadsafety Any thread.
 */
const char *oc_microphone_mode_name(oc_microphone_mode mode);

/**
 * Prefer a microphone mode for the session's sound, running or not; kept across
 * input changes and restarts. The engine the mode needs is loaded now; when it
 * cannot be, the session falls back to OC_MICROPHONE_MODE_STANDARD and says why
 * (oc_capture_session_get_microphone_mode(), OC_SESSION_EVENT_MICROPHONE_MODE_CHANGED)
 * — the call itself succeeds, as AVFoundation's preferred mode does. A running
 * stream switches at its next 10 ms frame, crossfading: no gap, no repeat.
 * \returns OC_OK; OC_ERROR_INVALID_HANDLE; OC_ERROR_INVALID_ARGUMENT (not a mode).
 * \threadsafety Any thread; refused (OC_ERROR_WRONG_STATE) inside the session's
 *          audio data output callbacks.
 */
oc_status oc_capture_session_set_preferred_microphone_mode(oc_capture_session *session, oc_microphone_mode mode);

/**
 * The preferred and the active microphone mode, and the engine doing the
 * active one. Either pointer may be NULL.
 * \param engine   snprintf-style: the engine's name ("rnnoise"; "none" when
 *                 nothing processes) into `engine_size` bytes (NULL when 0).
 * \param reason   why the active mode is not the preferred one ("" when it is),
 *                 snprintf-style into `reason_size` bytes.
 * \returns OC_OK or OC_ERROR_INVALID_HANDLE. \threadsafety Any thread, callbacks included.
 */
oc_status oc_capture_session_get_microphone_mode(const oc_capture_session *session, oc_microphone_mode *preferred,
                                                 oc_microphone_mode *active, char *engine, size_t engine_size,
                                                 char *reason, size_t reason_size);

/**
 * Whether voice isolation also cancels the echo of what the machine plays, and
 * with what. Voice isolation runs without it when the canceller cannot be loaded
 * or nothing that plays can be heard (the stream hears what the default output
 * plays, following the default; silence while nothing plays).
 * \param canceller snprintf-style: the echo canceller's name ("webrtc"; "none"
 *                  when no echo is cancelled, as in every other mode) into
 *                  `canceller_size` bytes (NULL when 0).
 * \param reason    why voice isolation runs without echo cancellation ("" when
 *                  it does not, or another mode is active), snprintf-style into
 *                  `reason_size` bytes.
 * \returns OC_OK or OC_ERROR_INVALID_HANDLE. \threadsafety Any thread, callbacks included.
 */
oc_status oc_capture_session_get_echo_cancellation(const oc_capture_session *session, char *canceller, size_t canceller_size,
                                                   char *reason, size_t reason_size);

/* ------------------------------------------------------------------------ */
/* Photo output (behaviour §4)                                                     */
/* ------------------------------------------------------------------------ */
/*
 * Mirrors (docs/contributing.md): Sources/OcellusCABI/ PhotoABI.swift;
 * cli/ snap.c; bindings/python/ocellus/ photo.py;
 * bindings/rust/ocellus/src/ photo.rs.
 */

/**
 * Stills from a running session as JPEG with EXIF (Orientation from the
 * output's rotation angle, DateTimeOriginal, Make/Model from the camera). From
 * an MJPEG camera the camera's JPEG is kept and only the EXIF segment is put
 * in; raw frames are encoded with libjpeg-turbo. Encoding runs on the output's
 * own thread: the stream and other outputs do not wait for it.
 */
typedef struct oc_photo_output oc_photo_output;

/** A finished photo, valid during the photo callback. */
typedef struct oc_photo {
    /** The JPEG bytes (owned by the library; copy them to keep them). */
    const uint8_t *data;
    size_t size; /**< Bytes at `data`. */
    uint32_t width; /**< Pixels, as stored (before EXIF Orientation is applied). */
    uint32_t height; /**< Pixels, as stored. */
    /** The EXIF Orientation written (1–8; 1 when the rotation was applied to the pixels). */
    uint16_t orientation;
    uint64_t sequence; /**< The camera frame's sequence number. */
    /** CLOCK_MONOTONIC nanoseconds of the frame's capture. */
    uint64_t timestamp_ns;
    /** The file written, or NULL when no path was asked for. */
    const char *path;
} oc_photo;

/** How to take one photo. Zero-initialise, then set struct_size = sizeof(oc_photo_settings). */
typedef struct oc_photo_settings {
    uint32_t struct_size; /**< sizeof(oc_photo_settings) as the caller knows it. */
    /** Turn the pixels by the rotation angle instead of writing it as EXIF Orientation. */
    bool apply_rotation_to_pixels;
    /** libjpeg-turbo quality 1–100 for encoded photos; 0 for the default (92). */
    int32_t quality;
    /** When not NULL, the JPEG is also written to this file (whole or not at all). */
    const char *path;
} oc_photo_settings;

/**
 * Called once per request: `status` OC_OK with `photo`, or an error (`photo` NULL)
 * and a message, e.g. OC_ERROR_IO when the file could not be written or
 * OC_ERROR_WRONG_STATE when the session stopped first. Runs on the output's thread.
 */
typedef void (*oc_photo_callback)(oc_photo_output *output, oc_status status, const oc_photo *photo,
                                  const char *message, void *user_data);

/**
 * Create a photo output.
 * \returns OC_OK; OC_ERROR_INVALID_ARGUMENT (NULL out).
 * \ownership The caller destroys it with oc_photo_output_destroy().
 * \threadsafety Any thread.
 */
oc_status oc_photo_output_create(oc_photo_output **out);

/**
 * Destroy a photo output, leaving its session first; requests still waiting get
 * their callback with an error before this returns. NULL is ignored.
 * \threadsafety Any thread but the output's own callbacks.
 */
void oc_photo_output_destroy(oc_photo_output *output);

/**
 * Add the photo output to the session (like oc_capture_session_add_output()).
 * \returns OC_OK, OC_ERROR_INVALID_HANDLE, OC_ERROR_WRONG_STATE (already in a session).
 * \threadsafety Any thread; from inside a callback, see "Calls from inside a callback".
 */
oc_status oc_capture_session_add_photo_output(oc_capture_session *session, oc_photo_output *output);
/**
 * \returns OC_OK, OC_ERROR_INVALID_HANDLE, OC_ERROR_NOT_FOUND (not in this session).
 * \threadsafety Any thread; from inside a callback, see "Calls from inside a callback".
 */
oc_status oc_capture_session_remove_photo_output(oc_capture_session *session, oc_photo_output *output);

/**
 * The clockwise angle that turns the camera's pixels upright (the rotation
 * coordinator's capture angle); written as EXIF Orientation. Any thread.
 * \returns OC_OK, OC_ERROR_INVALID_HANDLE, OC_ERROR_INVALID_ARGUMENT (not a right angle).
 * \threadsafety Any thread.
 */
oc_status oc_photo_output_set_rotation_angle(oc_photo_output *output, int32_t degrees);

/**
 * Mirror photos about the vertical axis (after rotation). \returns OC_OK or OC_ERROR_INVALID_HANDLE.
 * \threadsafety Any thread.
 */
oc_status oc_photo_output_set_mirrored(oc_photo_output *output, bool mirrored);

/**
 * Pin the photos' size (0x0: the session's, e.g. the largest with
 * OC_SESSION_PRESET_PHOTO). Takes effect at the next commit or start.
 * \returns OC_OK, OC_ERROR_INVALID_HANDLE, OC_ERROR_INVALID_ARGUMENT (only one
 *          of width and height given). \threadsafety Any thread.
 */
oc_status oc_photo_output_set_size(oc_photo_output *output, uint32_t width, uint32_t height);

/**
 * Request a photo from the next good frame (corrupt camera JPEGs are skipped).
 * Requests made back to back get successive frames and are all answered, in order.
 * `settings` may be NULL for the defaults; it is copied.
 * \returns OC_OK (the callback will run), OC_ERROR_INVALID_HANDLE,
 *          OC_ERROR_INVALID_ARGUMENT (NULL callback, quality out of range, bad
 *          struct_size), OC_ERROR_WRONG_STATE (the session is not running or the
 *          output is not in it).
 * \threadsafety Any thread, including the photo callback.
 */
oc_status oc_photo_output_capture(oc_photo_output *output, const oc_photo_settings *settings,
                                  oc_photo_callback callback, void *user_data);

/* ------------------------------------------------------------------------ */
/* Movie file output (behaviour §4)                                                */
/* ------------------------------------------------------------------------ */
/*
 * Mirrors (docs/contributing.md): Sources/OcellusCABI/ MovieABI.swift;
 * cli/ record.c; bindings/python/ocellus/ movie.py;
 * bindings/rust/ocellus/src/ movie.rs.
 */

/**
 * Records the session's camera into an MP4 or MOV file through libavformat,
 * fragmented (an empty moov, then a fragment per key frame, at most a second
 * apart, each flushed to disk) so that a crash, SIGKILL, unplug or full disk
 * leaves a file that plays up to the last fragment. MJPEG cameras are recorded
 * as they send (no re-encoding); raw formats are encoded to H.264 (libx264).
 * The rotation angle goes into the track's display matrix, not the pixels.
 * Video data outputs keep receiving frames while recording.
 */
typedef struct oc_movie_file_output oc_movie_file_output;

/** What a finished recording holds; valid during the recording callback. */
typedef struct oc_recording_summary {
    const char *path; /**< The file written. */
    int64_t bytes; /**< Its size in bytes. */
    uint32_t width; /**< Video width in pixels, as stored. */
    uint32_t height; /**< Video height in pixels, as stored. */
    /** Seconds of video. */
    double duration;
    uint64_t frames; /**< Video frames written. */
    /** Frames dropped because the writer fell behind (never queued without bound). */
    uint64_t dropped_frames;
    /** Clockwise degrees in the display matrix. */
    int32_t rotation;
    /** "mjpeg", "libx264" or "mpeg4". */
    const char *video_codec;
    /** Seconds of sound (0 without a microphone). Added in 0.2: read it only from a 0.2 library. */
    double audio_duration;
    /** Sound frames (samples per channel) left out: the writer fell two seconds behind, or the
     *  microphone changed to another format than the track's (silence stands for them). Added
     *  in 0.3: read it only from a 0.3 library. */
    uint64_t dropped_audio_frames;
} oc_recording_summary;

/**
 * Called once per recording when its file is finished: `status` OC_OK when it was
 * stopped as asked, else why it ended early (OC_ERROR_DISCONNECTED, OC_ERROR_IO for
 * a full disk, …) with a message. `summary` is never NULL: the file is playable up
 * to that point either way. Runs on the recording's writer thread.
 */
typedef void (*oc_recording_callback)(oc_movie_file_output *output, oc_status status, const char *message,
                                      const oc_recording_summary *summary, void *user_data);

/**
 * Create a movie file output.
 * \returns OC_OK; OC_ERROR_INVALID_ARGUMENT (NULL out).
 * \ownership Destroy with oc_movie_file_output_destroy().
 * \threadsafety Any thread.
 */
oc_status oc_movie_file_output_create(oc_movie_file_output **out);

/**
 * Destroy the output: a recording in progress is finished (its callback runs)
 * before this returns. NULL is ignored.
 * \threadsafety Any thread but the output's recording callback.
 */
void oc_movie_file_output_destroy(oc_movie_file_output *output);

/**
 * \returns OC_OK, OC_ERROR_INVALID_HANDLE, OC_ERROR_WRONG_STATE (already in a session).
 * \threadsafety Any thread; from inside a callback, see "Calls from inside a callback".
 */
oc_status oc_capture_session_add_movie_file_output(oc_capture_session *session, oc_movie_file_output *output);
/**
 * Removing the output finishes its recording. \returns OC_OK, OC_ERROR_INVALID_HANDLE, OC_ERROR_NOT_FOUND.
 * \threadsafety Any thread; from inside a callback, see "Calls from inside a callback".
 */
oc_status oc_capture_session_remove_movie_file_output(oc_capture_session *session, oc_movie_file_output *output);

/**
 * The capture angle (clockwise degrees to upright) for the next recording's
 * display matrix. \returns OC_OK, OC_ERROR_INVALID_HANDLE, OC_ERROR_INVALID_ARGUMENT.
 * \threadsafety Any thread.
 */
oc_status oc_movie_file_output_set_rotation_angle(oc_movie_file_output *output, int32_t degrees);

/**
 * Pin the movie's size (0x0: the session's). Takes effect at the next commit or start.
 * \returns OC_OK, OC_ERROR_INVALID_HANDLE, OC_ERROR_INVALID_ARGUMENT (only one
 *          of width and height given). \threadsafety Any thread.
 */
oc_status oc_movie_file_output_set_size(oc_movie_file_output *output, uint32_t width, uint32_t height);

/**
 * Start recording to `path` (.mp4 or .mov; an existing file is replaced). The file
 * is opened here, so an unwritable path fails at once.
 * \returns OC_OK (the callback will run once), OC_ERROR_INVALID_HANDLE,
 *          OC_ERROR_INVALID_ARGUMENT (NULL path or callback, not .mp4/.mov),
 *          OC_ERROR_WRONG_STATE (session not running, output not in it, already
 *          recording), OC_ERROR_IO (the file cannot be written).
 * \threadsafety Any thread.
 */
oc_status oc_movie_file_output_start_recording(oc_movie_file_output *output, const char *path,
                                               oc_recording_callback callback, void *user_data);

/**
 * Stop recording: queued frames are written, the file is finished, then the
 * callback runs. Returns at once; OC_OK also when not recording.
 * \returns OC_OK or OC_ERROR_INVALID_HANDLE. \threadsafety Any thread.
 */
oc_status oc_movie_file_output_stop_recording(oc_movie_file_output *output);

/** Whether a recording is in progress (false for an invalid handle). \threadsafety Any thread. */
bool oc_movie_file_output_is_recording(const oc_movie_file_output *output);

/**
 * Seconds recorded so far in the current recording (0 when not recording).
 * \threadsafety Any thread.
 */
double oc_movie_file_output_recorded_duration(const oc_movie_file_output *output);

/* ------------------------------------------------------------------------ */
/* Metadata output (behaviour §4)                                                  */
/* ------------------------------------------------------------------------ */
/*
 * Mirrors (docs/contributing.md): Sources/OcellusCABI/ MetadataABI.swift;
 * cli/ stream.c; bindings/python/ocellus/ metadata.py;
 * bindings/rust/ocellus/src/ metadata.rs.
 */

/**
 * Faces and machine-readable codes seen in a session's frames (AVFoundation's
 * AVCaptureMetadataOutput). The output takes the camera's frames as they come
 * (it changes nothing the camera streams); at most its analysis rate of them a
 * second become a small grey copy, turned and mirrored as the output is, which
 * the output's own thread searches. A frame due while that thread is still
 * busy is dropped and counted, never queued; other outputs never wait.
 * Faces are found by OpenCV (objdetect), codes read by zxing-cpp, each through
 * a plugin in LIBDIR/ocellus/ loaded when the first output needing it is made.
 */
typedef struct oc_metadata_output oc_metadata_output;

/** What a metadata output looks for; OR them together. */
typedef enum oc_metadata_object_type {
    /** Human faces, each with a tracking ID. */
    OC_METADATA_OBJECT_FACE = 1 << 0,
    /** QR and the common 2D (Micro QR, Aztec, Data Matrix, PDF417) and 1D (EAN-8/13,
        UPC-A/E, Code 39/93/128, ITF, Codabar) codes. */
    OC_METADATA_OBJECT_CODE = 1 << 1
} oc_metadata_object_type;

/** One object seen in a frame, valid during the metadata callback. */
typedef struct oc_metadata_object {
    /** OC_METADATA_OBJECT_FACE or OC_METADATA_OBJECT_CODE. */
    uint32_t type;
    /** The box's left edge in 0...1 of the delivered picture (after the output's
        rotation and mirroring, as a preview draws it). */
    double x;
    double y; /**< The box's top edge, in 0...1 of the delivered picture. */
    double width; /**< The box's width, in 0...1 of the delivered picture's width. */
    double height; /**< The box's height, in 0...1 of the delivered picture's height. */
    /** 0...1 (1 for codes, which decode or are not reported). */
    float confidence;
    /** Faces: an ID that stays while the face stays in view, never reused by this
        output (from 1 up). 0 for codes. */
    uint64_t face_id;
    /** Codes: "qr", "micro_qr", "aztec", "data_matrix", "pdf417", "ean8", "ean13",
        "upca", "upce", "code39", "code93", "code128", "itf" or "codabar". NULL for faces. */
    const char *symbology;
    /** Codes: the content as UTF-8 text (NUL-terminated). NULL for faces. */
    const char *text;
    /** Codes: the content as encoded (`byte_count` bytes; binary QR codes). NULL for faces. */
    const uint8_t *bytes;
    size_t byte_count; /**< Bytes at `bytes`. */
} oc_metadata_object;

/**
 * Called for each analysed frame that held objects, and once with none (`count`
 * 0) when all have gone. `timestamp_ns` is the frame's CLOCK_MONOTONIC capture
 * time. Runs on the output's own thread; the objects are the library's, valid
 * during the call.
 */
typedef void (*oc_metadata_callback)(oc_metadata_output *output, uint64_t timestamp_ns,
                                     const oc_metadata_object *objects, size_t count, void *user_data);

/**
 * Create a metadata output looking for `object_types` (OC_METADATA_OBJECT_*
 * ORed). `face_model` names the face detector's model: an OpenCV cascade (.xml)
 * or a YuNet model (.onnx); NULL for the system's (OCELLUS_FACE_MODEL, else
 * opencv-data's frontal-face Haar cascade, alt2).
 * \returns OC_OK; OC_ERROR_INVALID_ARGUMENT (NULL out, no or unknown types, a
 *          model that cannot be read); OC_ERROR_LIBRARY_UNAVAILABLE naming what
 *          is missing (the plugin, OpenCV, zxing-cpp, a model).
 * \ownership The caller destroys it with oc_metadata_output_destroy().
 * \threadsafety Any thread.
 */
oc_status oc_metadata_output_create(uint32_t object_types, const char *face_model, oc_metadata_output **out);

/**
 * Destroy a metadata output, leaving its session first. Refused (nothing
 * happens; the reason is the last error) from inside its own callback. NULL is ignored.
 * \threadsafety Any thread but the output's own callback.
 */
void oc_metadata_output_destroy(oc_metadata_output *output);

/**
 * Add the metadata output to the session (like oc_capture_session_add_output()).
 * \returns OC_OK, OC_ERROR_INVALID_HANDLE, OC_ERROR_WRONG_STATE (already in a session).
 * \threadsafety Any thread; from inside a callback, see "Calls from inside a callback".
 */
oc_status oc_capture_session_add_metadata_output(oc_capture_session *session, oc_metadata_output *output);
/**
 * \returns OC_OK, OC_ERROR_INVALID_HANDLE, OC_ERROR_NOT_FOUND (not in this session).
 * \threadsafety Any thread; from inside a callback, see "Calls from inside a callback".
 */
oc_status oc_capture_session_remove_metadata_output(oc_capture_session *session, oc_metadata_output *output);

/**
 * Set (or with NULL clear) the callback. From another thread it waits for a call
 * of the old callback in flight; from inside the callback it applies from the next.
 * \returns OC_OK or OC_ERROR_INVALID_HANDLE. \threadsafety Any thread.
 */
oc_status oc_metadata_output_set_callback(oc_metadata_output *output, oc_metadata_callback callback, void *user_data);

/**
 * The clockwise angle the delivered picture is turned (the rotation
 * coordinator's preview or capture angle): bounds are given in that picture.
 * From the next analysed frame.
 * \returns OC_OK, OC_ERROR_INVALID_HANDLE, OC_ERROR_INVALID_ARGUMENT (not a right angle).
 * \threadsafety Any thread.
 */
oc_status oc_metadata_output_set_rotation_angle(oc_metadata_output *output, int32_t degrees);

/**
 * Whether the delivered picture is mirrored (after rotation). \returns OC_OK or OC_ERROR_INVALID_HANDLE.
 * \threadsafety Any thread.
 */
oc_status oc_metadata_output_set_mirrored(oc_metadata_output *output, bool mirrored);

/**
 * Analyse at most `per_second` frames a second (default 10).
 * \returns OC_OK, OC_ERROR_INVALID_HANDLE, OC_ERROR_INVALID_ARGUMENT (outside 0.1...120).
 * \threadsafety Any thread.
 */
oc_status oc_metadata_output_set_max_rate(oc_metadata_output *output, double per_second);

/** A metadata output's counts. Zero-initialise, then set struct_size = sizeof(oc_metadata_statistics). */
typedef struct oc_metadata_statistics {
    uint32_t struct_size; /**< sizeof(oc_metadata_statistics) as the caller knows it. */
    uint64_t deliveries; /**< Callbacks made (analyses that saw objects, or saw them go). */
    uint64_t objects; /**< Objects in those deliveries. */
    uint64_t analysed_frames; /**< Frames searched. */
    uint64_t dropped_frames; /**< Frames due for analysis that came while the last was still searched. */
    uint64_t corrupt_frames; /**< Frames that could not be decoded for analysis. */
} oc_metadata_statistics;

/**
 * The output's counts so far.
 * \returns OC_OK, OC_ERROR_INVALID_HANDLE, OC_ERROR_INVALID_ARGUMENT (NULL out, bad struct_size).
 * \threadsafety Any thread.
 */
oc_status oc_metadata_output_get_statistics(const oc_metadata_output *output, oc_metadata_statistics *out);

/* ------------------------------------------------------------------------ */
/* Rotation coordinator (behaviour §3)                                             */
/* ------------------------------------------------------------------------ */
/*
 * Mirrors (docs/contributing.md): Sources/OcellusCABI/ RotationABI.swift;
 * cli/ rotation.c; bindings/python/ocellus/ rotation.py;
 * bindings/rust/ocellus/src/ rotation.rs.
 */

/** Preview and capture angles for one camera. */
typedef struct oc_rotation_coordinator oc_rotation_coordinator;

/** oc_rotation_coordinator_set_interface_orientation(): a UI that rotates with the device. */
enum { OC_INTERFACE_FOLLOWS_DEVICE = -1 };

/**
 * Create a coordinator for `camera`: its kind (built-in front, built-in back,
 * external) from its type and position, its sensor mounting S from the driver
 * (V4L2 or libcamera rotation, converted to clockwise), and for an external
 * camera the mounting correction M kept in the context's state directory.
 * Until told otherwise the host is in its natural orientation (H = 0) and the
 * UI follows the device.
 *
 * \param mirrored 1 or 0 to say whether the app's preview is mirrored; -1 for
 *                 the default (mirrored for front and external cameras, not for
 *                 back cameras and HDMI capture devices).
 * \returns OC_OK, OC_ERROR_INVALID_HANDLE, OC_ERROR_INVALID_ARGUMENT (a
 *          microphone, a bad `mirrored`, NULL out).
 * \ownership Destroy with oc_rotation_coordinator_destroy().
 * \threadsafety Any thread.
 */
oc_status oc_rotation_coordinator_create(oc_context *ctx, oc_device *camera, int mirrored,
                                         oc_rotation_coordinator **out);

/**
 * Destroy a coordinator (unregistering its callbacks). NULL is ignored.
 * \threadsafety Any thread but the coordinator's own callbacks.
 */
void oc_rotation_coordinator_destroy(oc_rotation_coordinator *coordinator);

/**
 * The clockwise angles (0, 90, 180, 270): rotate stored images by `capture` to
 * make them upright (photo EXIF, movie track matrix); rotate the preview layer
 * by `preview`, then mirror it if the preview is mirrored. Either output may be NULL.
 * \returns OC_OK or OC_ERROR_INVALID_HANDLE. \threadsafety Any thread.
 */
oc_status oc_rotation_coordinator_get_angles(const oc_rotation_coordinator *coordinator,
                                             int32_t *preview, int32_t *capture);

/** Whether the coordinator computes for a mirrored preview. \threadsafety Any thread. */
bool oc_rotation_coordinator_is_mirrored(const oc_rotation_coordinator *coordinator);

/**
 * Set the host orientation H in clockwise degrees (iio-sensor-proxy's normal,
 * left-up, bottom-up, right-up are 0, 90, 180, 270).
 * \returns OC_OK, OC_ERROR_INVALID_HANDLE, OC_ERROR_INVALID_ARGUMENT (not a multiple of 90).
 * \threadsafety Any thread.
 */
oc_status oc_rotation_coordinator_set_host_orientation(oc_rotation_coordinator *coordinator, int32_t degrees);

/**
 * Follow the host's accelerometer: read H from iio-sensor-proxy
 * (`net.hadess.SensorProxy`) on the D-Bus at `bus_address` (NULL: the system
 * bus) and keep it current; "undefined" keeps the last value, and if the proxy
 * leaves the bus the last value stays.
 * \returns OC_OK; OC_ERROR_INVALID_HANDLE; OC_ERROR_BACKEND_UNAVAILABLE when no
 *          sensor proxy answers (set H with
 *          oc_rotation_coordinator_set_host_orientation() instead).
 * \threadsafety Any thread.
 */
oc_status oc_rotation_coordinator_follow_host_sensor(oc_rotation_coordinator *coordinator, const char *bus_address);

/**
 * Set the interface orientation I: the host orientation the UI is laid out for,
 * or OC_INTERFACE_FOLLOWS_DEVICE.
 * \returns OC_OK, OC_ERROR_INVALID_HANDLE, OC_ERROR_INVALID_ARGUMENT.
 * \threadsafety Any thread.
 */
oc_status oc_rotation_coordinator_set_interface_orientation(oc_rotation_coordinator *coordinator, int32_t degrees);

/**
 * Set and keep (by unique ID, in the state directory) an external camera's
 * mounting correction M. For a camera that moves with the host, and for a
 * virtual camera, this is refused.
 * \returns OC_OK; OC_ERROR_INVALID_HANDLE; OC_ERROR_INVALID_ARGUMENT (not a
 *          multiple of 90, or not an external camera); OC_ERROR_OTHER when the
 *          state cannot be written (the value still applies to this coordinator).
 * \threadsafety Any thread.
 */
oc_status oc_rotation_coordinator_set_mounting_correction(oc_rotation_coordinator *coordinator, int32_t degrees);

/** Called with the new angles whenever either changes; on a library thread. */
typedef void (*oc_rotation_callback)(oc_rotation_coordinator *coordinator, int32_t preview, int32_t capture,
                                     void *user_data);

/**
 * Observe angle changes; unregister with oc_rotation_coordinator_remove_callback()
 * (which waits for a call in flight).
 * \returns OC_OK, OC_ERROR_INVALID_HANDLE, OC_ERROR_INVALID_ARGUMENT (NULL callback).
 * \threadsafety Any thread.
 */
oc_status oc_rotation_coordinator_add_callback(oc_rotation_coordinator *coordinator, oc_rotation_callback callback,
                                               void *user_data, oc_callback_id *out_id);
/**
 * Unregister a callback added with oc_rotation_coordinator_add_callback(); waits for a
 * call in flight unless called from inside that callback.
 * \returns OC_OK, OC_ERROR_INVALID_HANDLE, OC_ERROR_NOT_FOUND (unknown or already removed id).
 * \threadsafety Any thread, including the callback itself (it then does not wait).
 */
oc_status oc_rotation_coordinator_remove_callback(oc_rotation_coordinator *coordinator, oc_callback_id id);

#ifdef __cplusplus
}
#endif

#endif /* OCELLUS_H */
