/* The same-file rule (util/file_identity.h): outputs against inputs and
 * against each other, by device and inode, links followed; outputs not
 * created yet by directory and name. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/file_identity.h"

static char dir[64], home[4096];
static char error[8192];

static const char *const made[] = {"sub/file", "sub/up", "file", "link", "hard", "loop1",
                                   "loop2", "dangling"};

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/pmubench-identity-XXXXXX");
    if (!mkdtemp(dir) || !getcwd(home, sizeof home) || chdir(dir) != 0)
        return -1;
    int fd = open("file", O_WRONLY | O_CREAT, 0644);
    if (fd < 0)
        return -1;
    close(fd);
    bool ok = mkdir("sub", 0755) == 0 && symlink("file", "link") == 0 &&
              link("file", "hard") == 0 && symlink("../file", "sub/up") == 0 &&
              symlink("loop2", "loop1") == 0 && symlink("loop1", "loop2") == 0 &&
              symlink("nowhere", "dangling") == 0;
    strcpy(error, "untouched");
    return ok ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof made / sizeof made[0]; i++)
        unlink(made[i]);
    return rmdir("sub") == 0 && chdir(home) == 0 && rmdir(dir) == 0 ? 0 : -1;
}

static void distinct(const struct named_file *files, int n)
{
    if (!files_distinct(files, n, error, sizeof error))
        fail_msg("%s", error);
    assert_string_equal(error, "untouched");
}

static void clash(const struct named_file *files, int n, const char *message)
{
    assert_false(files_distinct(files, n, error, sizeof error));
    assert_string_equal(error, message);
}

/* X and ./X are one file, though as strings they differ. */
static void outputs_not_created_yet(void **state)
{
    (void)state;
    struct named_file files[] = {{"--vcd", "X", FILE_WRITE}, {"--record", "./X", FILE_WRITE}};
    clash(files, 2, "--vcd 'X' and --record './X' are the same file");
    struct named_file also[] = {{"--vcd", "sub/../X", FILE_WRITE},
                                {"--record", "X", FILE_WRITE}};
    clash(also, 2, "--vcd 'sub/../X' and --record 'X' are the same file");
    struct named_file absolute[] = {{"-o", "Y", FILE_WRITE}, {"--record", NULL, FILE_WRITE}};
    char path[256];
    snprintf(path, sizeof path, "%s/Y", dir);
    absolute[1].path = path;
    char message[512];
    snprintf(message, sizeof message, "-o 'Y' and --record '%s' are the same file", path);
    clash(absolute, 2, message);
    assert_int_equal(access("X", F_OK), -1);
}

static void different_files(void **state)
{
    (void)state;
    struct named_file files[] = {{"--trace", "file", FILE_READ},
                                 {"-o", "sub/file", FILE_WRITE},
                                 {"--vcd", "X", FILE_WRITE},
                                 {"--record", "sub/X", FILE_WRITE},
                                 {"PROGRAM", NULL, FILE_READ}};
    distinct(files, 5);
}

/* Inputs may be the same file: only outputs do harm. */
static void inputs_may_repeat(void **state)
{
    (void)state;
    struct named_file files[] = {{"--trace", "file", FILE_READ},
                                 {"--trace", "link", FILE_READ},
                                 {"-o", "out", FILE_WRITE}};
    distinct(files, 3);
}

static void an_output_over_an_input(void **state)
{
    (void)state;
    struct named_file files[] = {{"--trace", "file", FILE_READ}, {"-o", "file", FILE_WRITE}};
    clash(files, 2, "-o 'file' and --trace 'file' are the same file");
}

/* Symbolic links (relative to their own directory) and hard links are
 * the file they name. */
static void links_are_followed(void **state)
{
    (void)state;
    struct named_file symbolic[] = {{"PROGRAM", "./file", FILE_READ}, {"-o", "link", FILE_WRITE}};
    clash(symbolic, 2, "-o 'link' and PROGRAM './file' are the same file");
    struct named_file relative[] = {{"SCRIPT", "sub/up", FILE_READ}, {"--vcd", "file", FILE_WRITE}};
    clash(relative, 2, "--vcd 'file' and SCRIPT 'sub/up' are the same file");
    struct named_file hard[] = {{"--lackey", "hard", FILE_READ}, {"-o", "file", FILE_WRITE}};
    clash(hard, 2, "-o 'file' and --lackey 'hard' are the same file");
}

/* A dangling link is the file it would create. */
static void a_dangling_link_is_its_target(void **state)
{
    (void)state;
    struct named_file files[] = {{"--vcd", "dangling", FILE_WRITE},
                                 {"--record", "nowhere", FILE_WRITE}};
    clash(files, 2, "--vcd 'dangling' and --record 'nowhere' are the same file");
}

/* An output that is a directory is refused before any clash; an input
 * may be one (sweep's results directory). */
static void an_output_that_is_a_directory(void **state)
{
    (void)state;
    struct named_file files[] = {{"--trace", "file", FILE_READ}, {"-o", "sub", FILE_WRITE},
                                 {"--vcd", "file", FILE_WRITE}};
    clash(files, 3, "sub: is a directory");
    strcpy(error, "untouched");
    struct named_file input[] = {{"results directory", "sub", FILE_READ},
                                 {"-o", "sub/out", FILE_WRITE}};
    distinct(input, 2);
}

/* Missing inputs and unresolvable paths have no identity. */
static void nothing_to_compare(void **state)
{
    (void)state;
    struct named_file files[] = {{"--lackey", "missing", FILE_READ},
                                 {"-o", "missing", FILE_WRITE},
                                 {"--vcd", "loop1", FILE_WRITE},
                                 {"--record", "loop2", FILE_WRITE},
                                 {"-o", "nodir/x", FILE_WRITE},
                                 {"--record", "nodir/x", FILE_WRITE}};
    distinct(files, 6);
}

/* "-": standard input, whatever file it is. */
static void standard_input(void **state)
{
    (void)state;
    int saved = dup(STDIN_FILENO);
    int fd = open("file", O_RDONLY);
    assert_true(fd >= 0 && saved >= 0);
    dup2(fd, STDIN_FILENO);
    close(fd);
    struct named_file files[] = {{"SCRIPT", "-", FILE_READ_STDIN}, {"--vcd", "link", FILE_WRITE}};
    bool ok = files_distinct(files, 2, error, sizeof error);
    dup2(saved, STDIN_FILENO);
    close(saved);
    assert_false(ok);
    assert_string_equal(error, "--vcd 'link' and SCRIPT '-' are the same file");
}

/* A pipe through /proc's links (as /dev/stdin and /dev/stdout are): the
 * pipe itself, found by stat(2), not the name "pipe:[N]" that reading the
 * link gives; writing into the pipe a command reads is refused. */
static void a_pipe_through_its_proc_links(void **state)
{
    (void)state;
    int ends[2];
    assert_int_equal(pipe(ends), 0);
    char in[64], out[64];
    snprintf(in, sizeof in, "/proc/self/fd/%d", ends[0]);
    snprintf(out, sizeof out, "/proc/self/fd/%d", ends[1]);
    struct named_file files[] = {{"SCRIPT", in, FILE_READ}, {"--vcd", out, FILE_WRITE}};
    bool ok = files_distinct(files, 2, error, sizeof error);
    close(ends[0]);
    close(ends[1]);
    assert_false(ok);
    char want[256];
    snprintf(want, sizeof want, "--vcd '%s' and SCRIPT '%s' are the same file", out, in);
    assert_string_equal(error, want);
}

/* The first output that clashes is named, with the first file it clashes
 * with; two outputs are reported once, in their order. */
static void first_clash_named(void **state)
{
    (void)state;
    struct named_file files[] = {{"--vcd", "a", FILE_WRITE},
                                 {"SCRIPT", "file", FILE_READ},
                                 {"--record", "./a", FILE_WRITE},
                                 {"-o", "link", FILE_WRITE}};
    clash(files, 4, "--vcd 'a' and --record './a' are the same file");
}

static void follow_links(void **state)
{
    (void)state;
    char out[4096];
    assert_true(path_follow_links("sub/up", out, sizeof out));
    assert_string_equal(out, "sub/../file");
    assert_true(path_follow_links("link", out, sizeof out));
    assert_string_equal(out, "file");
    assert_true(path_follow_links("dangling", out, sizeof out));
    assert_string_equal(out, "nowhere");
    assert_true(path_follow_links("missing/x", out, sizeof out));
    assert_string_equal(out, "missing/x");
    errno = 0;
    assert_false(path_follow_links("loop1", out, sizeof out));
    assert_int_equal(errno, ELOOP);
    char small[8];
    assert_false(path_follow_links("sub/up", small, sizeof small));
    assert_int_equal(errno, ENAMETOOLONG);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(outputs_not_created_yet, setup, teardown),
        cmocka_unit_test_setup_teardown(different_files, setup, teardown),
        cmocka_unit_test_setup_teardown(inputs_may_repeat, setup, teardown),
        cmocka_unit_test_setup_teardown(an_output_over_an_input, setup, teardown),
        cmocka_unit_test_setup_teardown(links_are_followed, setup, teardown),
        cmocka_unit_test_setup_teardown(a_dangling_link_is_its_target, setup, teardown),
        cmocka_unit_test_setup_teardown(an_output_that_is_a_directory, setup, teardown),
        cmocka_unit_test_setup_teardown(nothing_to_compare, setup, teardown),
        cmocka_unit_test_setup_teardown(standard_input, setup, teardown),
        cmocka_unit_test_setup_teardown(a_pipe_through_its_proc_links, setup, teardown),
        cmocka_unit_test_setup_teardown(first_clash_named, setup, teardown),
        cmocka_unit_test_setup_teardown(follow_links, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
