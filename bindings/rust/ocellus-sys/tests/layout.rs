//! The declarations' structures against the C header, as a C compiler lays them out: every
//! field's offset and every structure's size (a field added to the header and not here, or typed
//! differently, would read the wrong bytes).

use std::fmt::Write as _;
use std::mem::{offset_of, size_of};
use std::path::{Path, PathBuf};
use std::process::Command;

use ocellus_sys::*;

/// (C type, size, [(C field, offset)]) of each structure declared here; a Rust field that a
/// keyword renamed gives its C name after `=`.
macro_rules! layouts {
    ($($name:ident { $($field:ident $(= $c_field:literal)?),* $(,)? })*) => {
        vec![$((stringify!($name), size_of::<$name>(), vec![$(
            (layouts!(@c $field $($c_field)?), offset_of!($name, $field))
        ),*])),*]
    };
    (@c $field:ident $c_field:literal) => { $c_field };
    (@c $field:ident) => { stringify!($field) };
}

fn header() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../include/ocellus.h")
}

fn rust_layouts() -> Vec<(&'static str, usize, Vec<(&'static str, usize)>)> {
    layouts! {
        oc_context_options { struct_size, pipewire_remote, state_directory, timeout_ms }
        oc_fraction { numerator, denominator }
        oc_format_info { struct_size, pixel_format, width, height, frame_rate_count, frame_rates, frame_rates_are_range,
                         sizes_are_range, min_width, min_height, step_width, step_height }
        oc_control_info { struct_size, id, name, type_ = "type", minimum, maximum, step, default_value, flags, has_value, value,
                          menu_count, has_payload, element_size, element_count, dimension_count, dimensions }
        oc_photo { data, size, width, height, orientation, sequence, timestamp_ns, path }
        oc_face_driven_state { struct_size, automatically_adjusts, enabled, tier, active }
        oc_center_stage_state { struct_size, enabled, active, window }
        oc_hardware_cost { struct_size, fits, total, own, others, bus }
        oc_configuration_check { struct_size, as_asked, adjusted, pixel_format, width, height, frame_rate, asked_pixel_format,
                                 asked_width, asked_height, asked_frame_rate, reason }
        oc_photo_settings { struct_size, apply_rotation_to_pixels, quality, path }
        oc_metadata_object { type_ = "type", x, y, width, height, confidence, face_id, symbology, text, bytes, byte_count }
        oc_metadata_statistics { struct_size, deliveries, objects, analysed_frames, dropped_frames, corrupt_frames }
        oc_recording_summary { path, bytes, width, height, duration, frames, dropped_frames, rotation, video_codec,
                               audio_duration, dropped_audio_frames }
    }
}

#[test]
fn every_structure_of_the_header_is_declared() {
    let text = std::fs::read_to_string(header()).expect("include/ocellus.h");
    let mut declared: Vec<&str> =
        text.lines().filter_map(|line| line.strip_prefix("typedef struct ")?.strip_suffix(" {")).collect();
    let mut ours: Vec<&str> = rust_layouts().iter().map(|(name, _, _)| *name).collect();
    declared.sort_unstable();
    ours.sort_unstable();
    assert_eq!(declared, ours);
}

#[test]
fn offsets_and_sizes_are_the_compilers() {
    let layouts = rust_layouts();
    let (mut program, mut expected) = (String::new(), String::new());
    program.push_str("#include <stddef.h>\n#include <stdio.h>\n#include \"ocellus.h\"\nint main(void) {\n");
    for (name, size, fields) in &layouts {
        writeln!(program, "printf(\"{name} size %zu\\n\", sizeof({name}));").unwrap();
        writeln!(expected, "{name} size {size}").unwrap();
        for (field, offset) in fields {
            writeln!(program, "printf(\"{name} {field} %zu\\n\", offsetof({name}, {field}));").unwrap();
            writeln!(expected, "{name} {field} {offset}").unwrap();
        }
    }
    program.push_str("return 0;\n}\n");
    let directory = std::env::temp_dir().join(format!("ocellus-sys-layout-{}", std::process::id()));
    std::fs::create_dir_all(&directory).unwrap();
    let (source, binary) = (directory.join("layout.c"), directory.join("layout"));
    std::fs::write(&source, program).unwrap();
    let include = header().parent().unwrap().to_path_buf();
    let built = Command::new("cc")
        .args(["-std=c99", "-Wall", "-Werror", "-I"])
        .arg(&include)
        .arg(&source)
        .arg("-o")
        .arg(&binary)
        .status()
        .expect("cc");
    assert!(built.success(), "the layout program did not build");
    let output = Command::new(&binary).output().expect("the layout program");
    std::fs::remove_dir_all(&directory).ok();
    assert_eq!(String::from_utf8(output.stdout).unwrap(), expected);
}
