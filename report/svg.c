/* The shared parts of report/'s SVG pictures (report/svg.h). */
#include "svg.h"

enum { MAX_TICK_STEPS = 5 };

const char *const svg_colours[SVG_N_COLOURS] = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759",
                                                "#76b7b2", "#edc948", "#b07aa1", "#ff9da7",
                                                "#9c755f", "#bab0ac"};

/* ceil(max / step) for max >= 0, without libm. */
uint64_t svg_axis_steps(double max, double step)
{
    uint64_t n = (uint64_t)(max / step);
    while ((double)n * step < max)
        n++;
    return n;
}

void svg_axis(double max, double *axis_max, double *step)
{
    if (!(max > 0)) {
        *axis_max = 1;
        *step = 0.2;
        return;
    }
    double power = 1;
    while (max / power > 10)
        power *= 10;
    while (max / power < 1)
        power /= 10;
    static const double multiples[] = {0.1, 0.2, 0.5, 1, 2, 5, 10};
    for (size_t i = 0; i < sizeof multiples / sizeof multiples[0]; i++) {
        *step = multiples[i] * power;
        uint64_t n = svg_axis_steps(max, *step);
        if (n <= MAX_TICK_STEPS) {
            *axis_max = (double)n * *step;
            return;
        }
    }
}

int svg_step_decimals(double step)
{
    int decimals = 0;
    for (double s = step; s < 0.999999 && decimals < 9; s *= 10)
        decimals++;
    return decimals;
}

/* The characters one byte of text shows. */
static int byte_width(unsigned char c)
{
    return c < 0x20 || c > 0x7e ? 4 : 1;
}

/* One byte of text as XML character data; the characters it shows. */
static int write_byte(FILE *out, unsigned char c)
{
    switch (c) {
    case '<': fputs("&lt;", out); return 1;
    case '>': fputs("&gt;", out); return 1;
    case '&': fputs("&amp;", out); return 1;
    case '"': fputs("&quot;", out); return 1;
    case '\'': fputs("&apos;", out); return 1;
    default: break;
    }
    if (byte_width(c) == 4) {
        fprintf(out, "\\x%02x", c);
        return 4;
    }
    fputc(c, out);
    return 1;
}

void svg_write_text_cut(FILE *out, const char *text, int limit)
{
    const unsigned char *p = (const unsigned char *)text;
    int total = 0;
    for (const unsigned char *q = p; *q; q++)
        total += byte_width(*q);
    if (!limit || total <= limit) {
        for (; *p; p++)
            write_byte(out, *p);
        return;
    }
    for (int shown = 0; shown + byte_width(*p) <= limit - 3; p++)
        shown += write_byte(out, *p);
    fputs("...", out);
}

void svg_write_text(FILE *out, const char *text)
{
    svg_write_text_cut(out, text, 0);
}

void svg_write_head(FILE *out, int width, int height, const char *title)
{
    fprintf(out,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
            "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n",
            width, height, width, height);
    fprintf(out, "<rect width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n", width, height);
    fputs("<title>", out);
    svg_write_text(out, title);
    fputs("</title>\n<text x=\"12\" y=\"24\" font-size=\"15\" font-weight=\"bold\">", out);
    svg_write_text(out, title);
    fputs("</text>\n", out);
}

void svg_write_legend_entry(FILE *out, int x, int y, const char *colour, const char *name,
                            int limit)
{
    fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>", x, y,
            colour);
    fprintf(out, "<text x=\"%d\" y=\"%d\">", x + 16, y + 10);
    svg_write_text_cut(out, name, limit);
    fputs("</text>\n", out);
}
