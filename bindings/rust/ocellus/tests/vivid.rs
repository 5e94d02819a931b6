//! Controls from Rust against the kernel's vivid driver; runs only inside the vivid VM
//! (Tests/vivid/job.sh sets OCELLUS_VIVID=1), and passes trivially elsewhere.
use ocellus::{Context, ContextOptions, ErrorKind};

#[test]
fn vivid_controls_from_rust() {
    if std::env::var("OCELLUS_VIVID").as_deref() != Ok("1") {
        return;
    }
    let ctx = Context::new("org.ocellus.test.rust.vivid", &ContextOptions::default()).unwrap();
    assert!(ctx.backend_problem(ocellus::Backend::PipeWire).is_some());
    let camera = ctx.devices().unwrap().into_iter().find(|d| d.unique_id() == "v4l2-platform:vivid-000").unwrap();
    let controls = camera.controls().unwrap();
    let menu = controls.iter().find(|c| c.name == "menu").unwrap();
    assert_eq!(menu.menu.iter().map(|(v, _)| *v).collect::<Vec<_>>(), vec![1, 3, 4]);
    camera.set_control("saturation", 77).unwrap();
    let saturation = camera.controls().unwrap().into_iter().find(|c| c.name == "saturation").unwrap();
    assert_eq!(saturation.value, Some(77));
    let error = camera.set_control("saturation", 1000).unwrap_err();
    assert_eq!(error.kind, ErrorKind::InvalidArgument);
    assert!(error.message.contains("out of range"), "{}", error.message);
    {
        let _lock = camera.lock_for_configuration().unwrap();
        assert_eq!(camera.lock_for_configuration().err().unwrap().kind, ErrorKind::WrongState);
    }
    drop(camera.lock_for_configuration().unwrap());
}
