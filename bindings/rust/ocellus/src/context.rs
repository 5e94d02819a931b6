//! The context: devices, hotplug, camera selection (header sections "Context", "Hotplug",
//! "Camera selection").
use crate::{c_string, check, contain_panic, ffi, text, Backend, Device, DiscoverySession, Position, Result};
use std::os::raw::{c_char, c_void};
use std::ptr::{self, NonNull};
use std::sync::Arc;

/// What happened to a device a hotplug callback names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HotplugEvent {
    /// The device appeared.
    Added,
    /// The device went away.
    Removed,
}

/// Options for [`Context::new`].
#[derive(Clone, Debug, Default)]
pub struct ContextOptions {
    /// PipeWire socket name or path (default: `PIPEWIRE_REMOTE`, else PipeWire's default).
    pub pipewire_remote: Option<String>,
    /// Where per-app state lives (default: `$OCELLUS_STATE_DIR`, then XDG).
    pub state_directory: Option<String>,
    /// How long creation may wait for the backends, in ms (0: the default, 3000).
    pub timeout_ms: u32,
}

/// Which preferred camera changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PreferredCamera {
    /// The camera the user last chose in this app (persisted).
    User,
    /// The library's choice, which follows plugs and unplugs.
    System,
}

type HotplugClosure = Box<dyn FnMut(HotplugEvent, &Device) + Send + 'static>;
type PreferredClosure = Box<dyn FnMut(PreferredCamera, Option<&Device>) + Send + 'static>;

/// A connection to the system's cameras for one application. A counted handle, as rusb's
/// context is: clones share one connection, and every session made from it holds it too, so a
/// session can move to another thread or live beside its context in one struct; the connection
/// is destroyed when the last of them goes.
#[derive(Clone)]
pub struct Context {
    pub(crate) raw: NonNull<ffi::oc_context>,
    _shared: Arc<ContextHandle>,
}

/// The one owner of a context handle: destroys it when the last `Context` clone goes.
struct ContextHandle(NonNull<ffi::oc_context>);

// SAFETY: see `Context`'s: the handle is only destroyed, once, from whichever thread drops last.
unsafe impl Send for ContextHandle {}
// SAFETY: nothing is called through a shared `ContextHandle` but its drop.
unsafe impl Sync for ContextHandle {}

impl Drop for ContextHandle {
    fn drop(&mut self) {
        unsafe { ffi::oc_context_destroy(self.0.as_ptr()) }
    }
}

// SAFETY: the header documents every `oc_context_*` function as safe from any thread, concurrently
// (the context locks its own state); callbacks run on its event thread, and the closures are `Send`.
unsafe impl Send for Context {}
// SAFETY: the calls above may also run on several threads at once.
unsafe impl Sync for Context {}

impl Context {
    /// `app_id`: 1–255 characters from `[A-Za-z0-9._-]`, not starting with '.'.
    pub fn new(app_id: &str, options: &ContextOptions) -> Result<Context> {
        let app_id = c_string(app_id, "app ID")?;
        let remote = options.pipewire_remote.as_deref().map(|r| c_string(r, "PipeWire remote")).transpose()?;
        let state = options.state_directory.as_deref().map(|s| c_string(s, "state directory")).transpose()?;
        let mut raw_options =
            ffi::oc_context_options { struct_size: 0, pipewire_remote: ptr::null(), state_directory: ptr::null(), timeout_ms: 0 };
        unsafe { ffi::oc_context_options_init(&mut raw_options) };
        raw_options.pipewire_remote = remote.as_ref().map_or(ptr::null(), |r| r.as_ptr());
        raw_options.state_directory = state.as_ref().map_or(ptr::null(), |s| s.as_ptr());
        raw_options.timeout_ms = options.timeout_ms;
        let mut raw = ptr::null_mut();
        check(unsafe { ffi::oc_context_create(app_id.as_ptr(), &raw_options, &mut raw) })?;
        let raw = NonNull::new(raw).expect("oc_context_create returned OK with a handle");
        Ok(Context { raw, _shared: Arc::new(ContextHandle(raw)) })
    }

    /// The app ID the context was created with.
    pub fn app_id(&self) -> String {
        text(unsafe { ffi::oc_context_app_id(self.raw.as_ptr()) }).unwrap_or_default()
    }

    /// Where this app's state lives (option, `$OCELLUS_STATE_DIR`, `$XDG_STATE_HOME/ocellus`, `~/.local/state/ocellus`).
    pub fn state_directory(&self) -> String {
        text(unsafe { ffi::oc_context_state_directory(self.raw.as_ptr()) }).unwrap_or_default()
    }

    /// Connected devices: cameras in the default selection order, then microphones.
    pub fn devices(&self) -> Result<Vec<Device>> {
        let mut list = ptr::null_mut();
        check(unsafe { ffi::oc_context_copy_devices(self.raw.as_ptr(), &mut list) })?;
        let count = unsafe { ffi::oc_device_list_count(list) };
        let devices = (0..count).map(|i| Device::retain(unsafe { ffi::oc_device_list_get(list, i) })).collect();
        unsafe { ffi::oc_device_list_free(list) };
        devices
    }

    pub(crate) fn copy_device(
        &self,
        copy: unsafe extern "C" fn(*mut ffi::oc_context, *mut *mut ffi::oc_device) -> i32,
    ) -> Result<Option<Device>> {
        let mut raw = ptr::null_mut();
        check(unsafe { copy(self.raw.as_ptr(), &mut raw) })?;
        // The copy is our reference: adopt it rather than retaining again.
        Ok(NonNull::new(raw).map(|raw| Device { raw }))
    }

    /// The camera's own microphone (the same USB device's audio interface) when connected.
    pub fn associated_microphone(&self, camera: &Device) -> Result<Option<Device>> {
        let mut raw = ptr::null_mut();
        check(unsafe { ffi::oc_context_copy_associated_microphone(self.raw.as_ptr(), camera.raw.as_ptr(), &mut raw) })?;
        Ok(NonNull::new(raw).map(|raw| Device { raw }))
    }

    /// The app's latest choice still connected, else the camera it last streamed from, else the
    /// first in the default order; `None` without cameras (behaviour §2).
    pub fn user_preferred_camera(&self) -> Result<Option<Device>> {
        self.copy_device(ffi::oc_context_copy_user_preferred_camera)
    }

    /// The user preferred camera, unless an external camera was plugged in since the last choice.
    pub fn system_preferred_camera(&self) -> Result<Option<Device>> {
        self.copy_device(ffi::oc_context_copy_system_preferred_camera)
    }

    /// The device a person means by `spec`: its unique ID, its index in `devices()` ("0"), a
    /// V4L2 node ("/dev/video2") or a part of its name only one device has ("logitech").
    pub fn device(&self, spec: &str) -> Result<Device> {
        let spec = c_string(spec, "device")?;
        let mut raw = ptr::null_mut();
        check(unsafe { ffi::oc_context_copy_device_matching(self.raw.as_ptr(), spec.as_ptr(), &mut raw) })?;
        Ok(Device { raw: NonNull::new(raw).expect("matched device") })
    }

    /// The connected device with exactly this unique ID (a `NotFound` error when none is).
    pub fn device_by_unique_id(&self, unique_id: &str) -> Result<Device> {
        let id = c_string(unique_id, "unique ID")?;
        let mut raw = ptr::null_mut();
        check(unsafe { ffi::oc_context_copy_device_by_unique_id(self.raw.as_ptr(), id.as_ptr(), &mut raw) })?;
        Ok(Device { raw: NonNull::new(raw).expect("found device") })
    }

    /// Records the user's choice, persisted for the app and seen by its other processes.
    pub fn set_user_preferred_camera(&self, camera: &Device) -> Result<()> {
        check(unsafe { ffi::oc_context_set_user_preferred_camera(self.raw.as_ptr(), camera.raw.as_ptr()) })
    }

    /// Why a backend is not running (e.g. no PipeWire daemon: the context then uses V4L2 alone).
    pub fn backend_problem(&self, backend: Backend) -> Option<String> {
        let kind = match backend {
            Backend::PipeWire => ffi::OC_BACKEND_PIPEWIRE,
            Backend::V4l2 => ffi::OC_BACKEND_V4L2,
        };
        let size = unsafe { ffi::oc_context_copy_backend_problem(self.raw.as_ptr(), kind, ptr::null_mut(), 0) };
        if size == 0 {
            return None;
        }
        let mut buffer = vec![0 as c_char; size + 1];
        unsafe { ffi::oc_context_copy_backend_problem(self.raw.as_ptr(), kind, buffer.as_mut_ptr(), buffer.len()) };
        text(buffer.as_ptr())
    }

    /// Why selection state could not be read or written (selection then works in memory).
    pub fn state_problem(&self) -> Option<String> {
        let size = unsafe { ffi::oc_context_copy_state_problem(self.raw.as_ptr(), ptr::null_mut(), 0) };
        if size == 0 {
            return None;
        }
        let mut buffer = vec![0 as c_char; size + 1];
        unsafe { ffi::oc_context_copy_state_problem(self.raw.as_ptr(), buffer.as_mut_ptr(), buffer.len()) };
        text(buffer.as_ptr())
    }

    /// A live view of the devices of the given `OC_DEVICE_TYPES_*` bits (0: all), media and position.
    pub fn discovery_session(
        &self,
        device_types: u32,
        media_type: ffi::oc_media_type,
        position: Position,
    ) -> Result<DiscoverySession> {
        let position = match position {
            Position::Unspecified => ffi::OC_DEVICE_POSITION_UNSPECIFIED,
            Position::Front => ffi::OC_DEVICE_POSITION_FRONT,
            Position::Back => ffi::OC_DEVICE_POSITION_BACK,
        };
        let mut raw = ptr::null_mut();
        check(unsafe { ffi::oc_discovery_session_create(self.raw.as_ptr(), device_types, media_type, position, &mut raw) })?;
        Ok(DiscoverySession { raw: NonNull::new(raw).expect("session handle"), _context: self.clone() })
    }

    /// Calls `callback` when the user or system preferred camera changes (plug, unplug, a new
    /// choice, another process of the app choosing) until the registration is dropped.
    #[must_use = "dropping the registration unregisters the callback"]
    pub fn on_preferred_camera_change<F>(&self, callback: F) -> Result<Registration<'_>>
    where
        F: FnMut(PreferredCamera, Option<&Device>) + Send + 'static,
    {
        let boxed: Box<PreferredClosure> = Box::new(Box::new(callback));
        self.register(boxed, |user_data, id| unsafe {
            ffi::oc_context_add_preferred_camera_callback(self.raw.as_ptr(), Some(preferred_trampoline), user_data, id)
        })
    }

    /// Calls `callback` on a library thread when a device appears or goes away, until the
    /// returned registration is dropped (drop waits for a call in flight to finish).
    #[must_use = "dropping the registration unregisters the callback"]
    pub fn on_hotplug<F>(&self, callback: F) -> Result<Registration<'_>>
    where
        F: FnMut(HotplugEvent, &Device) + Send + 'static,
    {
        let boxed: Box<HotplugClosure> = Box::new(Box::new(callback));
        self.register(boxed, |user_data, id| unsafe {
            ffi::oc_context_add_hotplug_callback(self.raw.as_ptr(), Some(hotplug_trampoline), user_data, id)
        })
    }

    /// Hands `closure` to the C function in `add` as user data; the registration frees it
    /// after unregistering (the library waits for a call in flight first).
    pub(crate) fn register<C: 'static>(
        &self,
        closure: Box<C>,
        add: impl FnOnce(*mut c_void, &mut ffi::oc_callback_id) -> i32,
    ) -> Result<Registration<'_>> {
        let user_data = Box::into_raw(closure);
        let mut id = 0;
        if let Err(error) = check(add(user_data as *mut c_void, &mut id)) {
            drop(unsafe { Box::from_raw(user_data) });
            return Err(error);
        }
        Ok(Registration { context: self, id, free: Box::new(move || drop(unsafe { Box::from_raw(user_data) })) })
    }
}

unsafe extern "C" fn hotplug_trampoline(
    _ctx: *mut ffi::oc_context,
    event: ffi::oc_hotplug_event,
    device: *mut ffi::oc_device,
    user_data: *mut c_void,
) {
    let callback = &mut *(user_data as *mut HotplugClosure);
    let event = if event == ffi::OC_HOTPLUG_ADDED { HotplugEvent::Added } else { HotplugEvent::Removed };
    contain_panic("a hotplug callback", || {
        if let Ok(device) = Device::retain(device) {
            callback(event, &device);
        }
    });
}

unsafe extern "C" fn preferred_trampoline(
    _ctx: *mut ffi::oc_context,
    kind: ffi::oc_preferred_camera_kind,
    camera: *mut ffi::oc_device,
    user_data: *mut c_void,
) {
    let callback = &mut *(user_data as *mut PreferredClosure);
    let kind = if kind == ffi::OC_PREFERRED_CAMERA_USER { PreferredCamera::User } else { PreferredCamera::System };
    contain_panic("a preferred-camera callback", || {
        let camera = if camera.is_null() { None } else { Device::retain(camera).ok() };
        callback(kind, camera.as_ref());
    });
}

/// A registered callback; dropping it unregisters the callback and frees its closure.
pub struct Registration<'a> {
    context: &'a Context,
    id: ffi::oc_callback_id,
    free: Box<dyn FnMut()>,
}

impl Drop for Registration<'_> {
    fn drop(&mut self) {
        // Returns only after a call in flight has finished, so the closure can be freed.
        unsafe { ffi::oc_context_remove_callback(self.context.raw.as_ptr(), self.id) };
        (self.free)();
    }
}
