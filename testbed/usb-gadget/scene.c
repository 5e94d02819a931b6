/* A scene the gadget camera films: see scene.h. */
#include "scene.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct scene {
	int width, height;
	int subject_focus, background_focus;
	double focus_per_pixel;
	float *radiance;
};

/* Light let in per unit radiance that renders radiance 1.0 mid-grey at the exposure time 100
 * (10 ms) without gain. */
#define LIGHT_SCALE 0.0018
/* Focus units per pixel of blur radius (at the scene's own width), unless the scene says. */
#define FOCUS_PER_PIXEL 15.0

struct scene *scene_load(const char *path)
{
	FILE *file = fopen(path, "rb");
	if (!file) {
		perror(path);
		return NULL;
	}
	struct scene *scene = calloc(1, sizeof *scene);
	scene->focus_per_pixel = FOCUS_PER_PIXEL;
	int after = 0;
	bool read = fscanf(file, "OCSCENE %d %d %d %d", &scene->width, &scene->height, &scene->subject_focus, &scene->background_focus) == 4;
	if (read && (after = fgetc(file)) == ' ')
		read = fscanf(file, "%lf", &scene->focus_per_pixel) == 1 && scene->focus_per_pixel > 0 && (after = fgetc(file)) != EOF;
	if (!read || after != '\n' || scene->width <= 0 || scene->height <= 0 || scene->width > 8192 || scene->height > 8192) {
		fprintf(stderr, "%s: not a scene (OCSCENE WIDTH HEIGHT SUBJECT_FOCUS BACKGROUND_FOCUS [FOCUS_PER_PIXEL], then float32 radiances)\n", path);
		fclose(file);
		free(scene);
		return NULL;
	}
	size_t count = (size_t)scene->width * scene->height;
	scene->radiance = malloc(count * sizeof *scene->radiance);
	if (fread(scene->radiance, sizeof *scene->radiance, count, file) != count) {
		fprintf(stderr, "%s: the radiances end early\n", path);
		fclose(file);
		free(scene->radiance);
		free(scene);
		return NULL;
	}
	fclose(file);
	return scene;
}

void scene_free(struct scene *scene)
{
	if (scene)
		free(scene->radiance);
	free(scene);
}

/* Gain in dB, as UVC cameras' analogue gain is: 0 … gain_max spans 12 dB. */
static double gain_factor(int gain, int gain_max)
{
	return gain_max > 0 ? pow(10, 12.0 * gain / gain_max / 20) : 1;
}

/* A sensor's linear value clipped at full well, through a 2.2 display gamma. */
static uint8_t tone(double linear)
{
	return (uint8_t)lround(255 * pow(linear < 0 ? 0 : linear > 1 ? 1 : linear, 1 / 2.2));
}

/* Box blur of radius `radius` along rows (step 1) or columns (step width), in place. */
static void blur_pass(uint8_t *luma, int width, int height, int radius, int along_rows)
{
	int lines = along_rows ? height : width, length = along_rows ? width : height;
	int step = along_rows ? 1 : width, line_step = along_rows ? width : 1;
	uint8_t *copy = malloc((size_t)length);
	for (int line = 0; line < lines; line++) {
		uint8_t *start = luma + (size_t)line * line_step;
		for (int i = 0; i < length; i++)
			copy[i] = start[(size_t)i * step];
		int sum = 0, span = 0;
		for (int i = -radius; i <= radius; i++)
			if (i >= 0 && i < length)
				sum += copy[i], span++;
		for (int i = 0; i < length; i++) {
			start[(size_t)i * step] = (uint8_t)(sum / span);
			int leaving = i - radius, entering = i + radius + 1;
			if (leaving >= 0)
				sum -= copy[leaving], span--;
			if (entering < length)
				sum += copy[entering], span++;
		}
	}
	free(copy);
}

void scene_render(const struct scene *scene, const struct scene_settings *settings, int width, int height, uint8_t *luma)
{
	double light = LIGHT_SCALE * settings->exposure_time * gain_factor(settings->gain, settings->gain_max);
	for (int y = 0; y < height; y++) {
		const float *row = scene->radiance + (size_t)(y * scene->height / height) * scene->width;
		for (int x = 0; x < width; x++)
			luma[(size_t)y * width + x] = tone(row[x * scene->width / width] * light);
	}
	/* Defocus: a box blur twice (close to a disc), its radius growing with the focus error. */
	int radius = (int)lround(abs(settings->focus - scene->subject_focus) / scene->focus_per_pixel * width / scene->width);
	for (int pass = 0; radius > 0 && pass < 2; pass++) {
		blur_pass(luma, width, height, radius, 1);
		blur_pass(luma, width, height, radius, 0);
	}
}

/* The picture's mean luma at `light`, from every 8th pixel. */
static double mean_luma(const struct scene *scene, double light)
{
	double sum = 0;
	int count = 0;
	for (int y = 0; y < scene->height; y += 8)
		for (int x = 0; x < scene->width; x += 8, count++)
			sum += tone(scene->radiance[(size_t)y * scene->width + x] * light);
	return sum / count;
}

int scene_auto_exposure(const struct scene *scene, int gain, int gain_max, int minimum, int maximum)
{
	/* Bisection on the exposure time for a mean of 118 (mid-grey). */
	int low = minimum, high = maximum;
	double factor = LIGHT_SCALE * gain_factor(gain, gain_max);
	while (high - low > 1) {
		int middle = (low + high) / 2;
		if (mean_luma(scene, factor * middle) < 118)
			low = middle;
		else
			high = middle;
	}
	return low;
}

int scene_background_focus(const struct scene *scene) { return scene->background_focus; }
