//! Camera access (behaviour §1 access): authorization, and asking the camera portal.
use crate::{check, ffi, Context, Result};
use std::ffi::CStr;
use std::os::raw::{c_char, c_void};
use std::sync::mpsc;

/// Whether the app may use cameras (a sandboxed app asks the camera portal).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum CameraAuthorization {
    /// Not asked yet (in a sandbox, until the app asks or the portal has its stored yes).
    NotDetermined,
    /// The app may use cameras.
    Authorized,
    /// The user said no; the desktop remembers it.
    Denied,
    /// Nobody can grant it here: no camera portal.
    Restricted,
}

impl CameraAuthorization {
    fn from_raw(raw: ffi::oc_camera_authorization) -> Self {
        match raw {
            ffi::OC_CAMERA_AUTHORIZATION_AUTHORIZED => CameraAuthorization::Authorized,
            ffi::OC_CAMERA_AUTHORIZATION_DENIED => CameraAuthorization::Denied,
            ffi::OC_CAMERA_AUTHORIZATION_RESTRICTED => CameraAuthorization::Restricted,
            _ => CameraAuthorization::NotDetermined,
        }
    }
}

type Answer = (CameraAuthorization, i32, String);

impl Context {
    /// Whether this app may use cameras now.
    pub fn camera_authorization(&self) -> CameraAuthorization {
        CameraAuthorization::from_raw(unsafe { ffi::oc_context_camera_authorization(self.raw.as_ptr()) })
    }

    /// True when cameras come through the camera portal (a sandboxed app).
    pub fn uses_camera_portal(&self) -> bool {
        unsafe { ffi::oc_context_uses_camera_portal(self.raw.as_ptr()) }
    }

    /// Asks for camera access and waits for the answer (in a sandbox, the desktop's dialog):
    /// `Ok(authorization)`, or the refusal (`ErrorKind::PermissionDenied`) or why the portal
    /// could not ask. Not from the context's own callbacks (the answer comes on their thread).
    pub fn request_camera_access(&self) -> Result<CameraAuthorization> {
        let (sender, answer) = mpsc::channel::<Answer>();
        let user_data = Box::into_raw(Box::new(sender)) as *mut c_void;
        if let Err(error) = check(unsafe { ffi::oc_context_request_camera_access(self.raw.as_ptr(), Some(answered), user_data) })
        {
            drop(unsafe { Box::from_raw(user_data as *mut mpsc::Sender<Answer>) });
            return Err(error);
        }
        let (authorization, status, message) = answer.recv().expect("the access callback runs once");
        if status == 0 {
            Ok(authorization)
        } else {
            Err(crate::error(status, message))
        }
    }
}

unsafe extern "C" fn answered(
    _ctx: *mut ffi::oc_context,
    authorization: ffi::oc_camera_authorization,
    status: ffi::oc_status,
    message: *const c_char,
    user_data: *mut c_void,
) {
    // Called once: the sender is taken back and dropped here.
    let sender = Box::from_raw(user_data as *mut mpsc::Sender<Answer>);
    let text = if message.is_null() { String::new() } else { CStr::from_ptr(message).to_string_lossy().into_owned() };
    let _ = sender.send((CameraAuthorization::from_raw(authorization), status, text));
}
