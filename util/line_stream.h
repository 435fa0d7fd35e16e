/* Reading a text input line by line, for every text reader (the lackey
 * and din importers, bench scripts, experiment files, PARMS files): each
 * line whole, up to a cap its format sets, so that the memory used is at
 * most the cap and a 64 KiB chunk of input whatever the input (a line
 * longer than the cap is refused within a chunk of its character cap + 1,
 * not read to its end), and a read that fails is an error, never the end
 * of the input.  The input is read a chunk at a time: the stream's
 * position is past the lines returned. docs/traces.md, "Text inputs". */
#ifndef UTIL_LINE_STREAM_H
#define UTIL_LINE_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The longest line of a file written by hand (a bench script, an
 * experiment file, a PARMS file), in characters: a screen is about a
 * hundred; a longer line is a file that is not what it should be. */
enum { TEXT_MAX_LINE = 4095 };

struct line_stream {
    FILE *in;
    const char *path;   /* as messages name the input */
    size_t max;         /* characters of a line, its line break not counted */
    unsigned long line; /* the line read last, from 1 */
    char *text;         /* that line, NUL-terminated, without its '\n' */
    size_t length;      /* its characters */
    size_t capacity;
    char *chunk;        /* input read, not yet taken: chunk[begin, end) */
    size_t begin, end;
    bool ended;         /* the input has no more */
};

enum line_result {
    LINE_READ,   /* `text` holds the next line */
    LINE_END,    /* the input has no more */
    LINE_BAD,    /* bad input, errno EINVAL: "PATH:LINE: expected a line of
                  * at most MAX characters", "PATH:LINE: unexpected NUL byte" */
    LINE_FAILED, /* a run-time failure: "PATH: cannot read: REASON" (errno
                  * EIO), "PATH: out of memory" (errno ENOMEM) */
};

/* Starts reading `in`, named `path` in messages, with lines of at most
 * `max` characters. */
void line_stream_init(struct line_stream *lines, FILE *in, const char *path, size_t max);

/* Reads the next line (a last line without '\n' is a line); for LINE_BAD
 * and LINE_FAILED, one line in `error`. */
enum line_result line_stream_next(struct line_stream *lines, char *error, size_t error_size);

/* Frees the line's buffer (the stream stays open). */
void line_stream_free(struct line_stream *lines);

#endif
