//! One frame from the system preferred camera: `cargo run --manifest-path examples/rust/Cargo.toml`.
fn main() -> Result<(), ocellus::Error> {
    let ctx = ocellus::Context::new("org.example.FirstFrame", &ocellus::ContextOptions::default())?;
    let camera = ctx.system_preferred_camera()?.expect("no camera is connected");
    let session = ctx.capture_session()?;
    let output = ocellus::VideoDataOutput::new(Some("NV12"), None)?;
    session.set_input(&camera)?;
    session.add_output(&output)?;
    session.start_running()?;
    let frame = output.next_frame(std::time::Duration::from_secs(5))?;
    let frame = frame.frame();
    println!("{}: {}x{} NV12 frame {}", camera.name(), frame.width(), frame.height(), frame.sequence());
    Ok(())
}
