/* The recorder's stream as `pmubench record` reads it
 * (traces/record_stream.h): segments handed out as FILEs that end with
 * them, the execve flag, and every way the frames can be bad. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "traces/record_stream.h"
#include "traces/recorder/pmutrace_stream.h"

/* A pipe's read end with `bytes` written into it (small enough for the
 * pipe's buffer) and its write end closed. */
static int pipe_with(const void *bytes, size_t size)
{
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    assert_int_equal(write(fds[1], bytes, size), (ssize_t)size);
    close(fds[1]);
    return fds[0];
}

/* Appends a frame: header (length, flags; process 7) and payload. */
static size_t frame(uint8_t *at, const char *payload, unsigned flags)
{
    uint32_t length = (uint32_t)strlen(payload);
    uint32_t words[2] = {length | (uint32_t)flags << PT_FRAME_FLAGS_SHIFT, 7};
    for (int i = 0; i < PT_FRAME_HEADER_SIZE; i++)
        at[i] = (uint8_t)(words[i / 4] >> (8 * (i % 4)));
    memcpy(at + PT_FRAME_HEADER_SIZE, payload, length);
    return PT_FRAME_HEADER_SIZE + length;
}

/* The rest of a segment's FILE as a string. */
static void read_all(FILE *in, char *out, size_t size)
{
    size_t n = fread(out, 1, size - 1, in);
    out[n] = '\0';
}

/* Two segments of two frames and one: each FILE ends with its segment;
 * the first ended at an execve, the second did not. */
static void test_segments(void **state)
{
    (void)state;
    uint8_t bytes[256];
    size_t n = frame(bytes, "abc", 0);
    n += frame(bytes + n, "", 0);
    n += frame(bytes + n, "de", PT_FRAME_END | PT_FRAME_EXEC);
    n += frame(bytes + n, "fgh", PT_FRAME_END);
    struct record_stream s;
    record_stream_init(&s, pipe_with(bytes, n), "t");
    char text[64];
    FILE *in = record_stream_segment(&s);
    assert_non_null(in);
    read_all(in, text, sizeof text);
    assert_string_equal(text, "abcde");
    assert_int_equal(fgetc(in), EOF);
    fclose(in);
    assert_true(record_stream_at_exec(&s));
    assert_true(record_stream_more(&s));
    in = record_stream_segment(&s);
    read_all(in, text, sizeof text);
    fclose(in);
    assert_string_equal(text, "fgh");
    assert_false(record_stream_at_exec(&s));
    assert_false(record_stream_more(&s));
    assert_true(s.ended);
    assert_string_equal(s.error, "");
    assert_int_equal(s.bytes, n);
    close(s.fd);
}

/* Nothing at all: an empty segment, no error, no bytes (valgrind could
 * not start the program). */
static void test_empty(void **state)
{
    (void)state;
    struct record_stream s;
    record_stream_init(&s, pipe_with("", 0), "t");
    FILE *in = record_stream_segment(&s);
    assert_int_equal(fgetc(in), EOF);
    fclose(in);
    assert_false(s.segment_ended);
    assert_false(record_stream_more(&s));
    assert_string_equal(s.error, "");
    assert_int_equal(s.bytes, 0);
    close(s.fd);
}

/* `bytes` read as a segment: its text, and the stream's error. */
static void read_bad(const uint8_t *bytes, size_t n, const char *want_text, const char *want_error)
{
    struct record_stream s;
    record_stream_init(&s, pipe_with(bytes, n), "out.trace");
    FILE *in = record_stream_segment(&s);
    char text[64];
    read_all(in, text, sizeof text);
    fclose(in);
    assert_string_equal(text, want_text);
    assert_false(s.segment_ended);
    assert_false(record_stream_more(&s));
    assert_string_equal(s.error, want_error);
    close(s.fd);
}

/* A frame cut short, a header cut short, a header with a length or flags
 * the tool never writes. */
static void test_bad_frames(void **state)
{
    (void)state;
    uint8_t bytes[64];
    size_t n = frame(bytes, "abcdef", PT_FRAME_END);
    read_bad(bytes, n - 2, "abcd", "out.trace: the recorder's stream ends inside a frame");
    n = frame(bytes, "ab", 0);
    read_bad(bytes, n + 2, "ab", "out.trace: the recorder's stream ends inside a frame header");
    const uint8_t too_long[] = {0x01, 0x00, 0x10, 0x00, 0x07, 0x00, 0x00, 0x00};
    read_bad(too_long, sizeof too_long, "",
             "out.trace: a bad frame header in the recorder's stream (0x00100001)");
    const uint8_t bad_flags[] = {0x01, 0x00, 0x00, 0x08, 0x07, 0x00, 0x00, 0x00, 'x'};
    read_bad(bad_flags, sizeof bad_flags, "",
             "out.trace: a bad frame header in the recorder's stream (0x08000001)");
}

/* A segment that ends without its END frame: no more segments. */
static void test_no_end(void **state)
{
    (void)state;
    uint8_t bytes[64];
    size_t n = frame(bytes, "abc", 0);
    read_bad(bytes, n, "abc", "");
}

/* Draining reads everything left, frames or not, and stops at the end. */
static void test_drain(void **state)
{
    (void)state;
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    static char big[200000];
    memset(big, 'x', sizeof big);
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        /* A write to a pipe may write part of it (under valgrind it did):
         * the rest follows.  The child ends by SIGTERM when all is
         * written: an exit status would be valgrind's under make memcheck
         * (cmocka's memory in the child counts as still reachable). */
        size_t done = 0;
        while (done < sizeof big) {
            ssize_t n = write(fds[1], big + done, sizeof big - done);
            if (n <= 0)
                _exit(1);
            done += (size_t)n;
        }
        raise(SIGTERM);
        _exit(1);
    }
    close(fds[1]);
    struct record_stream s;
    record_stream_init(&s, fds[0], "t");
    record_stream_drain(&s);
    assert_true(s.ended);
    assert_int_equal(s.bytes, sizeof big);
    close(fds[0]);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_segments),   cmocka_unit_test(test_empty),
        cmocka_unit_test(test_bad_frames), cmocka_unit_test(test_no_end),
        cmocka_unit_test(test_drain),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
