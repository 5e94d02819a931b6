/*
 * A photographed scene the gadget camera films (scene.c): its picture follows what the host
 * sets, as a real camera's does — brightness the light let in (exposure time × gain), sharpness
 * the focus — so that a host loop on exposure or focus is closed through the real uvcvideo.
 */
#ifndef OCELLUS_GADGET_SCENE_H
#define OCELLUS_GADGET_SCENE_H

#include <stdint.h>

struct scene;

/* The camera's settings the picture depends on, in the units of the UVC controls. */
struct scene_settings {
	int exposure_time; /* 100 µs units */
	int gain;          /* 0 … gain_max: 0 to 12 dB */
	int gain_max;
	int focus;         /* focus distance, in the focus control's units */
};

/*
 * Reads a scene file: the line "OCSCENE WIDTH HEIGHT SUBJECT_FOCUS BACKGROUND_FOCUS\n" (optionally
 * " FOCUS_PER_PIXEL" before the newline: the lens's depth of field, as focus units per pixel of
 * blur radius; 15 when absent), then WIDTH × HEIGHT little-endian float32 radiances, row by row
 * (1.0 a mid-grey card in the light the default exposure expects). NULL, said on stderr, when it
 * cannot.
 */
struct scene *scene_load(const char *path);

void scene_free(struct scene *scene);

/* Full-range luma (one byte a pixel, rows `width` apart) of the scene filmed at `settings`,
 * sampled to width × height. */
void scene_render(const struct scene *scene, const struct scene_settings *settings, int width, int height, uint8_t *luma);

/* The exposure time the camera's own automatic exposure picks at `gain`: the whole picture's
 * mean brought to mid-grey, as simple webcams meter (a backlit subject stays dark). */
int scene_auto_exposure(const struct scene *scene, int gain, int gain_max, int minimum, int maximum);

/* Where the camera's own autofocus settles: on the background, the largest area. */
int scene_background_focus(const struct scene *scene);

#endif
