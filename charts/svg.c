/* The shared parts of charts/' SVG pictures (charts/svg.h). */
#include "svg.h"

#include <string.h>

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

void svg_write_text(FILE *out, const char *text)
{
    for (const unsigned char *p = (const unsigned char *)text; *p; p++)
        write_byte(out, *p);
}

/* Where a line may end: after a separator of an event's parts (strong)
 * or of the words of one part (weak). */
enum { WEAK, STRONG };
static const char *const separators[2] = {"_.-", ":,=/ "};

/* The bytes of the first line of `text` (not empty) at `chars` characters
 * a line (svg.h, svg_write_lines); at least one. */
static size_t line_bytes(const unsigned char *text, int chars)
{
    size_t n = 0, at_break[2] = {0, 0};
    int shown = 0, shown_at_break[2] = {0, 0};
    while (text[n] && (!chars || shown + byte_width(text[n]) <= chars)) {
        shown += byte_width(text[n++]);
        for (int kind = WEAK; kind <= STRONG; kind++)
            if (strchr(separators[kind], text[n - 1])) {
                at_break[kind] = n;
                shown_at_break[kind] = shown;
            }
    }
    if (!text[n])
        return n;
    for (int kind = STRONG; kind >= WEAK; kind--)
        if (at_break[kind] && 2 * shown_at_break[kind] > chars)
            return at_break[kind];
    return n ? n : 1;
}

int svg_line_count(const char *text, int chars)
{
    const unsigned char *p = (const unsigned char *)text;
    int lines = 1;
    for (p += *p ? line_bytes(p, chars) : 0; *p; p += line_bytes(p, chars))
        lines++;
    return lines;
}

static void write_bytes(FILE *out, const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        write_byte(out, p[i]);
}

void svg_write_lines(FILE *out, int x, int y, const char *attributes, const char *text,
                     int chars)
{
    const unsigned char *p = (const unsigned char *)text;
    fprintf(out, "<text x=\"%d\" y=\"%d\"%s>", x, y, attributes);
    if (svg_line_count(text, chars) == 1) {
        svg_write_text(out, text);
    } else {
        for (size_t n; *p; p += n, y += SVG_LINE_HEIGHT) {
            n = line_bytes(p, chars);
            fprintf(out, "<tspan x=\"%d\" y=\"%d\">", x, y);
            write_bytes(out, p, n);
            fputs("</tspan>", out);
        }
    }
    fputs("</text>", out);
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
                            int chars)
{
    fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>", x, y,
            colour);
    svg_write_lines(out, x + 16, y + 10, "", name, chars);
    fputc('\n', out);
}
