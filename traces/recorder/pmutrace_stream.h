/* The stream from the valgrind tool (traces/recorder/pmutrace.c) to
 * pmubench on a pipe (docs/traces.md, "Recording"): a trace in frames, each
 * a header of two 4-byte little-endian words -- the payload's length in
 * bits 23:0 and flags in bits 31:24, then the writing process's ID -- and
 * then the payload.  The payloads of the frames from one flagged
 * PT_FRAME_BEGIN up to one flagged PT_FRAME_END are one trace, a segment;
 * that last frame holds the segment's END record alone (`pmubench record`
 * copies the others and writes the END record itself).  A recording is one
 * segment, or more when an execve of the program failed: the tool ends the
 * trace before every execve that may succeed (PT_FRAME_END |
 * PT_FRAME_EXEC), and when it fails after all, begins a new segment (a new
 * header, a new writer) and goes on.  Under `pmubench emulate` every
 * process of the run writes its own segments to the one pipe, one process
 * at a time (docs/emulate.md, "Children"), each frame in one write of at
 * most PIPE_BUF bytes, so that processes at the same time cannot cut each
 * other's frames.  Shared by both sides: no libc
 * here. */
#ifndef TRACES_RECORDER_PMUTRACE_STREAM_H
#define TRACES_RECORDER_PMUTRACE_STREAM_H

enum {
    PT_FRAME_HEADER_SIZE = 8,
    PT_FRAME_MAX_LENGTH = 1 << 20,   /* the tool's buffer */
    PT_FRAME_LENGTH_MASK = 0xffffff,
    PT_FRAME_FLAGS_SHIFT = 24,
    PT_FRAME_END = 1,                /* this frame ends the segment (its END record) */
    PT_FRAME_EXEC = 2,               /* ... which ends at an execve */
    PT_FRAME_BEGIN = 4,              /* this frame begins a segment (its header first) */
    PT_FRAME_FLAGS = PT_FRAME_END | PT_FRAME_EXEC | PT_FRAME_BEGIN,
};

#endif
