/* What the SVG pictures of charts/ share (W3C SVG 1.1): the document's
 * head, round axis steps, XML-escaped text, legend entries and the series'
 * colours.  Output depends only on the arguments (no date, no locale:
 * numbers are written with fixed precision).  Text is written as XML
 * character data: <, >, &, " and ' as entities, every byte that is not
 * printable ASCII as "\xNN" (as the text output of the commands shows it),
 * so that any label gives well-formed XML. */
#ifndef CHARTS_SVG_H
#define CHARTS_SVG_H

#include <stdint.h>
#include <stdio.h>

/* The series' colours, in order (Tableau 10); a picture with more series
 * than colours uses them again. */
enum { SVG_N_COLOURS = 10 };
extern const char *const svg_colours[SVG_N_COLOURS];

/* The axis' end and step: the smallest round step (1, 2 or 5 times a power
 * of ten) that covers `max` in at most 5 steps, and the first multiple of it
 * at or above `max` (1 and 0.2 when `max` is 0). */
void svg_axis(double max, double *axis_max, double *step);

/* The steps from 0 to `axis_max` (an svg_axis result). */
uint64_t svg_axis_steps(double axis_max, double step);

/* The digits after the point that show multiples of `step` exactly. */
int svg_step_decimals(double step);

/* Writes `text` as XML character data (see above). */
void svg_write_text(FILE *out, const char *text);

/* Pixels from one line of 12-pixel text to the next. */
enum { SVG_LINE_HEIGHT = 14 };

/* The lines svg_write_lines breaks `text` into at `chars` characters a
 * line. */
int svg_line_count(const char *text, int chars);

/* `text` whole, as one <text> element with `attributes` (" text-anchor=
 * \"end\"", or ""), its first line's baseline at (x, y): one line of at
 * most `chars` characters ("\xNN" counts 4; 0: no limit) as the element's
 * text, several as <tspan> lines SVG_LINE_HEIGHT pixels apart.  A line
 * ends after the last ':', ',', '=', '/' or space that leaves it more than
 * half full, else after the last such '_', '.' or '-', else at `chars`:
 * event names break between their parts, then between words. */
void svg_write_lines(FILE *out, int x, int y, const char *attributes, const char *text,
                     int chars);

/* The XML declaration, the <svg> element `width` x `height` pixels with a
 * white background, the <title> and the title written at the top left. */
void svg_write_head(FILE *out, int width, int height, const char *title);

/* A legend entry: a 12-pixel square of `colour` at (x, y), `name` beside it
 * in lines of at most `chars` characters (svg_write_lines). */
void svg_write_legend_entry(FILE *out, int x, int y, const char *colour, const char *name,
                            int chars);

#endif
