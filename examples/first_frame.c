/* One frame from the system preferred camera: cc first_frame.c $(pkg-config --cflags --libs ocellus) */
#include <ocellus.h>
#include <stdio.h>

int main(void)
{
    oc_context *ctx = NULL;
    oc_device *camera = NULL;
    oc_capture_session *session = NULL;
    oc_video_data_output *output = NULL;
    oc_frame *frame = NULL;
    if (oc_context_create("org.example.FirstFrame", NULL, &ctx) != OC_OK
        || oc_context_copy_system_preferred_camera(ctx, &camera) != OC_OK || !camera
        || oc_capture_session_create(ctx, &session) != OC_OK
        || oc_video_data_output_create(&output) != OC_OK
        || oc_video_data_output_set_format(output, OC_PIXEL_FORMAT_NV12, 0, 0) != OC_OK
        || oc_capture_session_set_input(session, camera) != OC_OK
        || oc_capture_session_add_output(session, output) != OC_OK
        || oc_capture_session_start_running(session) != OC_OK
        || oc_video_data_output_copy_next_frame(output, 5000, &frame) != OC_OK) {
        fprintf(stderr, "first_frame: %s\n", camera ? oc_last_error_message() : "no camera");
        return 1;
    }
    printf("%s: %ux%u NV12 frame %llu\n", oc_device_name(camera), oc_frame_width(frame), oc_frame_height(frame),
           (unsigned long long)oc_frame_sequence(frame));
    oc_frame_release(frame);
    oc_capture_session_destroy(session);
    oc_video_data_output_destroy(output);
    oc_device_release(camera);
    oc_context_destroy(ctx);
    return 0;
}
