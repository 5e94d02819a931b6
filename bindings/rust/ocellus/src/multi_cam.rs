//! Multi-camera sessions (header section "Multi-camera sessions").
use crate::session::{read_hardware_cost, session_event};
use crate::{check, contain_panic, ffi, text, CaptureSession, Context, Device, HardwareCost, Result, SessionEvent};
use std::os::raw::{c_char, c_void};
use std::ptr::{self, NonNull};

/// Several cameras streaming together, started and stopped as one; stopped and destroyed on
/// drop. Each camera added has a branch, a [`CaptureSession`] for that camera's outputs, whose
/// formats are chosen beside the cameras added before it so that the session fits its USB buses.
pub struct MultiCamSession {
    raw: NonNull<ffi::oc_multi_cam_session>,
    context: Context,
    branches: Vec<(String, CaptureSession)>,
}

// SAFETY: as a capture session's, the handle has no thread affinity.
unsafe impl Send for MultiCamSession {}

impl Context {
    /// A new multi-camera session on this context's cameras.
    pub fn multi_cam_session(&self) -> Result<MultiCamSession> {
        let mut raw = ptr::null_mut();
        check(unsafe { ffi::oc_multi_cam_session_create(self.raw.as_ptr(), &mut raw) })?;
        Ok(MultiCamSession { raw: NonNull::new(raw).expect("session handle"), context: self.clone(), branches: Vec::new() })
    }
}

impl MultiCamSession {
    /// Whether `camera` could join: a connected camera with video formats, not in the session.
    pub fn can_add_camera(&self, camera: &Device) -> bool {
        unsafe { ffi::oc_multi_cam_session_can_add_camera(self.raw.as_ptr(), camera.raw.as_ptr()) }
    }

    /// Adds `camera` (while stopped) and returns its branch, to which its outputs are added.
    pub fn add_camera(&mut self, camera: &Device) -> Result<&CaptureSession> {
        let mut branch = ptr::null_mut();
        check(unsafe { ffi::oc_multi_cam_session_add_camera(self.raw.as_ptr(), camera.raw.as_ptr(), &mut branch) })?;
        let session = CaptureSession::branch(NonNull::new(branch).expect("branch handle"), &self.context);
        self.branches.push((camera.unique_id(), session));
        Ok(&self.branches.last().expect("just added").1)
    }

    /// Removes `camera` and its branch (while stopped).
    pub fn remove_camera(&mut self, camera: &Device) -> Result<()> {
        check(unsafe { ffi::oc_multi_cam_session_remove_camera(self.raw.as_ptr(), camera.raw.as_ptr()) })?;
        let id = camera.unique_id();
        self.branches.retain(|(unique_id, _)| *unique_id != id);
        Ok(())
    }

    /// The branch of the camera with `unique_id`, if it is in the session.
    pub fn branch(&self, unique_id: &str) -> Option<&CaptureSession> {
        self.branches.iter().find(|(id, _)| id == unique_id).map(|(_, session)| session)
    }

    /// The unique IDs of the session's cameras, in the order they were added (and start).
    pub fn cameras(&self) -> Vec<String> {
        self.branches.iter().map(|(id, _)| id.clone()).collect()
    }

    /// Starts every camera; when one cannot start, those started are stopped and the error
    /// (`NoResources` when it does not fit its bus) starts with its unique ID.
    pub fn start_running(&self) -> Result<()> {
        check(unsafe { ffi::oc_multi_cam_session_start_running(self.raw.as_ptr()) })
    }

    /// Stops every camera, returning after their last frame callbacks.
    pub fn stop_running(&self) -> Result<()> {
        check(unsafe { ffi::oc_multi_cam_session_stop_running(self.raw.as_ptr()) })
    }

    /// Whether the cameras stream (false after one of them ended on its own).
    pub fn is_running(&self) -> bool {
        unsafe { ffi::oc_multi_cam_session_is_running(self.raw.as_ptr()) }
    }

    /// The most loaded USB bus with every camera of the session on it (`fits`: every bus fits);
    /// `None` when no camera is on USB. Each camera's share is its branch's `hardware_cost()`.
    pub fn hardware_cost(&self) -> Result<Option<HardwareCost>> {
        read_hardware_cost(|cost| unsafe { ffi::oc_multi_cam_session_get_hardware_cost(self.raw.as_ptr(), cost) })
    }

    /// Calls `callback(event, camera)` on a library thread until the registration drops:
    /// `Started` and `Stopped` for the session (camera `None`), `RuntimeError` when a camera's
    /// stream ended on its own (every camera stopped), and the branches' other events with the
    /// camera's unique ID.
    #[must_use = "dropping the registration unregisters the callback"]
    pub fn on_event<F>(&self, callback: F) -> Result<MultiCamRegistration<'_>>
    where
        F: FnMut(SessionEvent, Option<String>) + Send + 'static,
    {
        let closure = Box::into_raw(Box::new(Box::new(callback) as EventClosure));
        let mut id = 0;
        let status = unsafe {
            ffi::oc_multi_cam_session_add_event_callback(
                self.raw.as_ptr(),
                Some(event_trampoline),
                closure as *mut c_void,
                &mut id,
            )
        };
        if let Err(error) = check(status) {
            drop(unsafe { Box::from_raw(closure) });
            return Err(error);
        }
        Ok(MultiCamRegistration { session: self, id, closure })
    }
}

impl Drop for MultiCamSession {
    fn drop(&mut self) {
        self.branches.clear(); // branches are not destroyed on their own; the session takes them along
        unsafe { ffi::oc_multi_cam_session_destroy(self.raw.as_ptr()) }
    }
}

type EventClosure = Box<dyn FnMut(SessionEvent, Option<String>) + Send + 'static>;

/// A multi-camera session event callback; dropping it unregisters it (waiting for a call in flight).
pub struct MultiCamRegistration<'s> {
    session: &'s MultiCamSession,
    id: ffi::oc_callback_id,
    closure: *mut EventClosure,
}

impl Drop for MultiCamRegistration<'_> {
    fn drop(&mut self) {
        unsafe {
            ffi::oc_multi_cam_session_remove_callback(self.session.raw.as_ptr(), self.id);
            drop(Box::from_raw(self.closure));
        }
    }
}

unsafe extern "C" fn event_trampoline(
    _session: *mut ffi::oc_multi_cam_session,
    event: ffi::oc_session_event,
    camera: *const c_char,
    _status: ffi::oc_status,
    message: *const c_char,
    user_data: *mut c_void,
) {
    let callback = &mut *(user_data as *mut EventClosure);
    if let Some(event) = session_event(event, text(message).unwrap_or_default()) {
        contain_panic("a multi-camera session event callback", || callback(event, text(camera)));
    }
}
