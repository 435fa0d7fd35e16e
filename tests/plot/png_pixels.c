/* png_pixels FILE [RRGGBB...]: what a rendered picture shows, for
 * tests/cli_plot.sh: "WIDTH HEIGHT COLOURS" (distinct RGBA values, counted
 * up to 256), then for each colour given the number of pixels of exactly
 * that colour.  Exit status 2 when FILE is not a PNG libpng can read. */
#include <png.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_COLOURS = 256 };

static uint32_t pixel(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static unsigned distinct(const unsigned char *rgba, size_t n_pixels)
{
    uint32_t seen[MAX_COLOURS];
    unsigned n = 0;
    for (size_t i = 0; i < n_pixels && n < MAX_COLOURS; i++) {
        uint32_t c = pixel(rgba + 4 * i);
        unsigned k = 0;
        while (k < n && seen[k] != c)
            k++;
        if (k == n)
            seen[n++] = c;
    }
    return n;
}

static size_t of_colour(const unsigned char *rgba, size_t n_pixels, const char *hex)
{
    uint32_t want = (uint32_t)strtoul(hex, NULL, 16) << 8 | 0xff;
    size_t n = 0;
    for (size_t i = 0; i < n_pixels; i++)
        n += pixel(rgba + 4 * i) == want;
    return n;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: png_pixels FILE [RRGGBB...]\n");
        return 2;
    }
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&image, argv[1])) {
        fprintf(stderr, "%s: %s\n", argv[1], image.message);
        return 2;
    }
    image.format = PNG_FORMAT_RGBA;
    size_t n_pixels = (size_t)image.width * image.height;
    unsigned char *rgba = malloc(PNG_IMAGE_SIZE(image));
    if (!rgba || !png_image_finish_read(&image, NULL, rgba, 0, NULL)) {
        fprintf(stderr, "%s: %s\n", argv[1], rgba ? image.message : "out of memory");
        free(rgba);
        return 2;
    }
    printf("%u %u %u", image.width, image.height, distinct(rgba, n_pixels));
    for (int i = 2; i < argc; i++)
        printf(" %zu", of_colour(rgba, n_pixels, argv[i]));
    printf("\n");
    free(rgba);
    return 0;
}
