//! Safe Rust API for Ocellus: cameras and microphones on Linux.
//!
//! ```no_run
//! let ctx = ocellus::Context::new("org.example.App", &ocellus::ContextOptions::default())?;
//! for device in ctx.devices()? {
//!     println!("{} {:?} {}", device.unique_id(), device.device_type(), device.name());
//! }
//! # Ok::<(), ocellus::Error>(())
//! ```
//!
//! Errors carry the library's status and message. Callbacks run on a library
//! thread; a panic inside one is caught (it must not unwind into C), reported on
//! stderr, and later callbacks still run.
#![warn(missing_docs)]

/// The Rust guide's example (docs/rust.md), compiled by `cargo test` as a doctest so that it
/// cannot drift from the API (in the repository only: build.rs).
#[cfg(all(doctest, ocellus_guide))]
#[doc = include_str!("../../../../docs/rust.md")]
pub struct RustGuide;

pub use ocellus_sys as ffi;

mod error;
pub(crate) use error::{check, error, last_error};
pub use error::{Error, ErrorKind, Result};
mod strings;
pub(crate) use strings::{c_string, text};
mod callbacks;
pub(crate) use callbacks::contain_panic;
mod version;
pub use version::version;
mod device;
pub use device::{
    pixel_format_code, pixel_format_name, Backend, CenterStageState, ConfigurationLock, Control, Device, DeviceType,
    FaceDrivenAdjustment, FaceDrivenState, FaceDrivenTier, Format, FrameRate, Position, SizeRange,
};
mod context;
pub use context::{Context, ContextOptions, HotplugEvent, PreferredCamera, Registration};
mod discovery;
pub use discovery::DiscoverySession;
mod access;
pub use access::CameraAuthorization;
mod frame;
pub use frame::{Frame, RetainedFrame};
mod video_output;
pub use video_output::VideoDataOutput;
mod session;
pub use session::{ActiveFormat, BusFit, CaptureSession, ConfigurationCheck, HardwareCost, SessionEvent, SessionRegistration};
mod multi_cam;
pub use multi_cam::{MultiCamRegistration, MultiCamSession};
mod rotation;
pub use rotation::RotationCoordinator;
mod audio;
pub use audio::{AudioDataOutput, MicrophoneMode, MicrophoneModeState};
mod depth;
pub use depth::{DepthDataOutput, DepthSamples, OutputSynchronizer};
mod photo;
pub use photo::{Photo, PhotoOutput, PhotoSettings};
mod movie;
pub use movie::{MovieFileOutput, Recording};
mod metadata;
pub use metadata::{MetadataObject, MetadataObjectKind, MetadataObjectTypes, MetadataOutput, MetadataStatistics};
