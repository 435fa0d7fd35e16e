/* The recorder's stream as `pmubench record` reads it from its pipe
 * (traces/recorder/pmutrace_stream.h: frames of a trace, in one or more
 * segments): each segment is handed out as a FILE that ends where the
 * segment does, for the trace reader, which never reads past it.  While
 * `copy` is set, what is read is also copied there but for each segment's
 * last frame, its END record, which is kept in `end_frame`.
 *
 *   struct record_stream s;
 *   record_stream_init(&s, fd, "out.trace");
 *   do {
 *       FILE *segment = record_stream_segment(&s);
 *       ... trace_reader_open(segment, ...) ... fclose(segment);
 *   } while (record_stream_more(&s));
 *   if (*s.error) ... a bad frame, a failed read ...
 */
#ifndef TRACES_RECORD_STREAM_H
#define TRACES_RECORD_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct record_stream {
    int fd;
    const char *name;       /* for messages */
    uint32_t left;          /* payload bytes of the current frame not yet read */
    unsigned flags;         /* the current frame's PT_FRAME_* */
    uint32_t pid;           /* ... and the ID of the process that wrote it */
    bool in_frame;          /* a frame header has been read */
    bool segment_ended;     /* the segment's last frame has been read whole */
    bool ended;             /* the pipe is at its end */
    uint64_t bytes;         /* read from the pipe, headers included */
    FILE *copy;             /* NULL: nothing copied */
    bool copy_failed;       /* a write to `copy` failed (errno set) */
    uint8_t end_frame[32];  /* the payload of the segment's last frame read so far */
    uint32_t end_frame_size; /* its bytes (more than end_frame holds: too long) */
    char error[256];        /* a bad frame or a failed read; "" for none */
};

void record_stream_init(struct record_stream *stream, int fd, const char *name);

/* The segment from the current position as a stream that ends with it;
 * NULL (errno ENOMEM) when none can be made. */
FILE *record_stream_segment(struct record_stream *stream);

/* After a segment read to its end: whether another one follows (false at
 * the pipe's end, or with an error). */
bool record_stream_more(struct record_stream *stream);

/* Whether the segment read last ended at an execve (PT_FRAME_EXEC). */
bool record_stream_at_exec(const struct record_stream *stream);

/* Reads the pipe to its end, discarding: the writer never blocks on it. */
void record_stream_drain(struct record_stream *stream);

/* The processes whose segments have begun and not ended, innermost last. */
enum { PROCESS_STACK_DEPTH = 64 };
struct process_stack {
    uint32_t pid[PROCESS_STACK_DEPTH];
    int depth;
};

/* `pmubench emulate`'s stream (docs/emulate.md, "Children"): the segments
 * of every process of the run, from the pipe to `out` as one trace.  A
 * process runs until its segment ends (its exit, or an execve, whose
 * program then begins the next), a child's segment nested in its parent's
 * (fork; the parent waits); each segment but the first is introduced by a
 * CONTROL_PROCESS record (traces/trace_encoding.h).  Closes `out` at the
 * end of the trace or at an error, and reads the pipe to its end; false
 * with stream->error set when a frame is bad or the processes ran at the
 * same time (a write to `out` that fails, its reader having stopped, ends
 * the copy without an error: the reader says why it stopped). */
bool record_stream_unframe(struct record_stream *stream, int out);

#endif
