//! Metadata outputs (header section "Metadata output"): faces and machine-readable codes.
use crate::{c_string, check, contain_panic, ffi, text, CaptureSession, Result};
use std::ffi::CString;
use std::os::raw::c_void;
use std::ptr::{self, NonNull};

/// What a metadata output looks for (OR them with `|`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MetadataObjectTypes(u32);

impl MetadataObjectTypes {
    /// Human faces, each with a tracking ID.
    pub const FACES: MetadataObjectTypes = MetadataObjectTypes(ffi::OC_METADATA_OBJECT_FACE);
    /// QR and the common 2D and 1D codes.
    pub const CODES: MetadataObjectTypes = MetadataObjectTypes(ffi::OC_METADATA_OBJECT_CODE);
}

impl std::ops::BitOr for MetadataObjectTypes {
    type Output = MetadataObjectTypes;
    fn bitor(self, other: MetadataObjectTypes) -> MetadataObjectTypes {
        MetadataObjectTypes(self.0 | other.0)
    }
}

/// What an object is.
#[derive(Clone, Debug, PartialEq)]
pub enum MetadataObjectKind {
    /// A face; `id` stays while it stays in view.
    Face {
        /// Never reused by the output (from 1 up).
        id: u64,
    },
    /// A code: its symbology ("qr", "ean13", …), its content as text and as encoded.
    Code {
        /// "qr", "micro_qr", "aztec", "data_matrix", "pdf417", "ean8", "ean13", "upca", "upce", "code39", "code93", "code128", "itf" or "codabar".
        symbology: String,
        /// The content as UTF-8 text.
        text: String,
        /// The content as encoded.
        bytes: Vec<u8>,
    },
}

/// One object seen in a frame.
#[derive(Clone, Debug, PartialEq)]
pub struct MetadataObject {
    /// Face or code.
    pub kind: MetadataObjectKind,
    /// (x, y, width, height) in 0...1 of the delivered picture, x and y its top-left corner.
    pub bounds: (f64, f64, f64, f64),
    /// 0...1 (1 for codes).
    pub confidence: f32,
}

/// A metadata output's counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MetadataStatistics {
    /// Callbacks made (analyses that saw objects, or saw them go).
    pub deliveries: u64,
    /// Objects in those deliveries.
    pub objects: u64,
    /// Frames searched.
    pub analysed_frames: u64,
    /// Frames due for analysis that came while the last was still searched.
    pub dropped_frames: u64,
    /// Frames that could not be decoded for analysis.
    pub corrupt_frames: u64,
}

type MetadataClosure = Box<dyn FnMut(&[MetadataObject], u64) + Send + 'static>;

/// Faces (OpenCV) and codes (zxing-cpp) in a session's frames, searched on the output's own thread;
/// destroyed on drop (after leaving its session).
pub struct MetadataOutput {
    pub(crate) raw: NonNull<ffi::oc_metadata_output>,
    callback: Option<Box<MetadataClosure>>,
}

// SAFETY: the output handle has no thread affinity (the header lets its functions run on any
// thread), and the closure it owns is `Send`.
unsafe impl Send for MetadataOutput {}

impl MetadataOutput {
    /// A new metadata output looking for `types`; `face_model` names a cascade (.xml) or YuNet model
    /// (.onnx), `None` for the system's. Fails with `ErrorKind::LibraryUnavailable` naming what is missing.
    pub fn new(types: MetadataObjectTypes, face_model: Option<&str>) -> Result<MetadataOutput> {
        let model: Option<CString> = face_model.map(|model| c_string(model, "face_model")).transpose()?;
        let mut raw = ptr::null_mut();
        check(unsafe { ffi::oc_metadata_output_create(types.0, model.as_ref().map_or(ptr::null(), |m| m.as_ptr()), &mut raw) })?;
        Ok(MetadataOutput { raw: NonNull::new(raw).expect("metadata output handle"), callback: None })
    }

    /// Calls `callback(objects, timestamp_ns)` on the output's thread for each analysed frame that held
    /// objects, and once with none when they have all gone (panics are contained).
    pub fn set_callback<F>(&mut self, callback: F) -> Result<()>
    where
        F: FnMut(&[MetadataObject], u64) + Send + 'static,
    {
        let mut boxed: Box<MetadataClosure> = Box::new(Box::new(callback));
        let user_data = &mut *boxed as *mut MetadataClosure as *mut c_void;
        // The library waits for a call in flight before replacing, so the old box can go after.
        check(unsafe { ffi::oc_metadata_output_set_callback(self.raw.as_ptr(), Some(metadata_trampoline), user_data) })?;
        self.callback = Some(boxed);
        Ok(())
    }

    /// The clockwise angle of the delivered picture: bounds are given in it.
    pub fn set_rotation_angle(&self, degrees: i32) -> Result<()> {
        check(unsafe { ffi::oc_metadata_output_set_rotation_angle(self.raw.as_ptr(), degrees) })
    }

    /// Whether the delivered picture is mirrored (after rotation).
    pub fn set_mirrored(&self, mirrored: bool) -> Result<()> {
        check(unsafe { ffi::oc_metadata_output_set_mirrored(self.raw.as_ptr(), mirrored) })
    }

    /// Frames analysed per second at most (default 10; 0.1 to 120).
    pub fn set_max_rate(&self, per_second: f64) -> Result<()> {
        check(unsafe { ffi::oc_metadata_output_set_max_rate(self.raw.as_ptr(), per_second) })
    }

    /// The output's counts so far.
    pub fn statistics(&self) -> MetadataStatistics {
        let mut raw = ffi::oc_metadata_statistics {
            struct_size: std::mem::size_of::<ffi::oc_metadata_statistics>() as u32,
            deliveries: 0,
            objects: 0,
            analysed_frames: 0,
            dropped_frames: 0,
            corrupt_frames: 0,
        };
        // Cannot fail for a live handle and a full-size structure.
        unsafe { ffi::oc_metadata_output_get_statistics(self.raw.as_ptr(), &mut raw) };
        MetadataStatistics {
            deliveries: raw.deliveries,
            objects: raw.objects,
            analysed_frames: raw.analysed_frames,
            dropped_frames: raw.dropped_frames,
            corrupt_frames: raw.corrupt_frames,
        }
    }
}

impl Drop for MetadataOutput {
    fn drop(&mut self) {
        unsafe { ffi::oc_metadata_output_destroy(self.raw.as_ptr()) }
    }
}

unsafe extern "C" fn metadata_trampoline(
    _output: *mut ffi::oc_metadata_output,
    timestamp_ns: u64,
    objects: *const ffi::oc_metadata_object,
    count: usize,
    user_data: *mut c_void,
) {
    let callback = &mut *(user_data as *mut MetadataClosure);
    let views = if objects.is_null() { &[][..] } else { std::slice::from_raw_parts(objects, count) };
    let objects: Vec<MetadataObject> = views.iter().map(|view| object(view)).collect();
    contain_panic("a metadata callback", || callback(&objects, timestamp_ns));
}

unsafe fn object(view: &ffi::oc_metadata_object) -> MetadataObject {
    let kind = if view.type_ == ffi::OC_METADATA_OBJECT_FACE {
        MetadataObjectKind::Face { id: view.face_id }
    } else {
        let bytes =
            if view.bytes.is_null() { Vec::new() } else { std::slice::from_raw_parts(view.bytes, view.byte_count).to_vec() };
        MetadataObjectKind::Code {
            symbology: text(view.symbology).unwrap_or_default(),
            text: text(view.text).unwrap_or_default(),
            bytes,
        }
    };
    MetadataObject { kind, bounds: (view.x, view.y, view.width, view.height), confidence: view.confidence }
}

impl CaptureSession {
    /// Adds a metadata output; it searches the running stream's frames.
    pub fn add_metadata_output(&self, output: &MetadataOutput) -> Result<()> {
        check(unsafe { ffi::oc_capture_session_add_metadata_output(self.raw(), output.raw.as_ptr()) })
    }
    /// Removes a metadata output.
    pub fn remove_metadata_output(&self, output: &MetadataOutput) -> Result<()> {
        check(unsafe { ffi::oc_capture_session_remove_metadata_output(self.raw(), output.raw.as_ptr()) })
    }
}
