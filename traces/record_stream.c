/* The recorder's stream, segment by segment (traces/record_stream.h). */
#define _GNU_SOURCE /* fopencookie */
#include "record_stream.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "traces/recorder/pmutrace_stream.h"
#include "traces/trace_encoding.h"
#include "util/fd_write.h"

void record_stream_init(struct record_stream *stream, int fd, const char *name)
{
    *stream = (struct record_stream){.fd = fd, .name = name};
}

/* read(2) of up to `size` bytes, again after a signal; 0 at the end, -1
 * with the error in stream->error. */
static ssize_t read_some(struct record_stream *stream, void *buffer, size_t size)
{
    ssize_t n;
    while ((n = read(stream->fd, buffer, size)) < 0 && errno == EINTR)
        ;
    if (n < 0 && !*stream->error)
        snprintf(stream->error, sizeof stream->error, "%s: reading the recorder's stream: %s",
                 stream->name, strerror(errno));
    else
        stream->bytes += (uint64_t)n;
    return n;
}

/* The next frame's header; false at the pipe's end (stream->ended) or on
 * an error. */
static bool read_header(struct record_stream *stream)
{
    uint8_t header[PT_FRAME_HEADER_SIZE];
    size_t got = 0;
    while (got < sizeof header) {
        ssize_t n = read_some(stream, header + got, sizeof header - got);
        if (n < 0)
            return false;
        if (n == 0) {
            stream->ended = true;
            if (got)
                snprintf(stream->error, sizeof stream->error,
                         "%s: the recorder's stream ends inside a frame header", stream->name);
            return false;
        }
        got += (size_t)n;
    }
    uint32_t words[2] = {0, 0};
    for (int i = 0; i < PT_FRAME_HEADER_SIZE; i++)
        words[i / 4] |= (uint32_t)header[i] << (8 * (i % 4));
    stream->left = words[0] & PT_FRAME_LENGTH_MASK;
    stream->flags = words[0] >> PT_FRAME_FLAGS_SHIFT;
    stream->pid = words[1];
    stream->in_frame = true;
    if (stream->left > PT_FRAME_MAX_LENGTH || (stream->flags & ~(unsigned)PT_FRAME_FLAGS)) {
        snprintf(stream->error, sizeof stream->error,
                 "%s: a bad frame header in the recorder's stream (0x%08x)", stream->name,
                 (unsigned)words[0]);
        return false;
    }
    return true;
}

/* Payload read: copied, or kept when the frame ends the segment. */
static void copy_payload(struct record_stream *stream, const char *bytes, size_t n)
{
    if (!stream->copy)
        return;
    if (stream->flags & PT_FRAME_END) {
        size_t kept = stream->end_frame_size < sizeof stream->end_frame
                          ? stream->end_frame_size : sizeof stream->end_frame;
        size_t room = sizeof stream->end_frame - kept;
        memcpy(stream->end_frame + kept, bytes, n < room ? n : room);
        stream->end_frame_size += (uint32_t)n;
    } else if (fwrite(bytes, 1, n, stream->copy) != n) {
        stream->copy_failed = true;
    }
}

/* fopencookie's read function: the segment's payload, then the end. */
static ssize_t segment_read(void *cookie, char *buffer, size_t size)
{
    struct record_stream *stream = cookie;
    while (stream->left == 0) {
        if (stream->segment_ended || *stream->error || stream->ended)
            return 0;
        if (stream->in_frame && (stream->flags & PT_FRAME_END)) {
            stream->segment_ended = true;
            return 0;
        }
        if (!read_header(stream))
            return 0;
    }
    ssize_t n = read_some(stream, buffer, size < stream->left ? size : stream->left);
    if (n == 0) {
        stream->ended = true;
        snprintf(stream->error, sizeof stream->error,
                 "%s: the recorder's stream ends inside a frame", stream->name);
    }
    if (n <= 0)
        return 0;
    stream->left -= (uint32_t)n;
    copy_payload(stream, buffer, (size_t)n);
    return n;
}

FILE *record_stream_segment(struct record_stream *stream)
{
    stream->segment_ended = false;
    stream->end_frame_size = 0;
    return fopencookie(stream, "r", (cookie_io_functions_t){.read = segment_read});
}

bool record_stream_more(struct record_stream *stream)
{
    if (!stream->segment_ended || *stream->error || stream->ended)
        return false;
    stream->in_frame = false;
    return read_header(stream);
}

bool record_stream_at_exec(const struct record_stream *stream)
{
    return stream->segment_ended && (stream->flags & PT_FRAME_EXEC);
}

void record_stream_drain(struct record_stream *stream)
{
    char buffer[65536];
    while (!stream->ended) {
        ssize_t n = read_some(stream, buffer, sizeof buffer);
        if (n <= 0)
            stream->ended = true;
    }
}

/* The frame's payload to `out` (fd_write_all); false when it cannot be
 * read (stream->error set) or written. */
static bool pass_payload(struct record_stream *stream, int out)
{
    char buffer[65536];
    while (stream->left) {
        ssize_t n = read_some(stream, buffer, stream->left < sizeof buffer ? stream->left
                                                                          : sizeof buffer);
        if (n == 0)
            snprintf(stream->error, sizeof stream->error,
                     "%s: the recorder's stream ends inside a frame", stream->name);
        if (n <= 0)
            return false;
        stream->left -= (uint32_t)n;
        if (fd_write_all(out, buffer, (size_t)n) < (size_t)n)
            return false; /* its reader stopped, and says why */
    }
    return true;
}

/* Whether the frame just read fits the processes' order: a segment
 * begins in any process; every other frame is the running process's, the
 * last whose segment began and has not ended. */
static bool in_order(struct record_stream *stream, struct process_stack *running)
{
    if (stream->flags & PT_FRAME_BEGIN) {
        if (running->depth == PROCESS_STACK_DEPTH) {
            snprintf(stream->error, sizeof stream->error,
                     "%s: processes nested deeper than %d", stream->name, PROCESS_STACK_DEPTH);
            return false;
        }
        running->pid[running->depth++] = stream->pid;
        return true;
    }
    if (running->depth && running->pid[running->depth - 1] == stream->pid)
        return true;
    if (running->depth)
        snprintf(stream->error, sizeof stream->error,
                 "%s: process %u wrote its trace while process %u ran (the emulated machine "
                 "runs one process at a time: no pipelines or background jobs)",
                 stream->name, stream->pid, running->pid[running->depth - 1]);
    else
        snprintf(stream->error, sizeof stream->error,
                 "%s: process %u wrote its trace outside a segment", stream->name, stream->pid);
    return false;
}

bool record_stream_unframe(struct record_stream *stream, int out)
{
    struct process_stack running = {0};
    uint64_t segments = 0;
    while (!*stream->error && read_header(stream)) {
        if (!in_order(stream, &running))
            break;
        static const uint8_t process = CONTROL_PROCESS;
        if ((stream->flags & PT_FRAME_BEGIN) && segments++ && fd_write_all(out, &process, 1) < 1)
            break;
        if (!pass_payload(stream, out))
            break;
        if (stream->flags & PT_FRAME_END)
            running.depth--;
    }
    /* Closed first: its reader sees the end, and the processes waiting
     * for its answers then end (apps/emulate). */
    close(out);
    record_stream_drain(stream);
    return !*stream->error;
}
