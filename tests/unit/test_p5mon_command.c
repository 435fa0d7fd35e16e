/* p5mon's command (apps/p5mon/command.h): split into words and < >
 * files, each kind of bad command with its line; recorded into a temporary
 * trace under $TMPDIR that is gone on every failure (a < file that cannot
 * be read, a > file that cannot be made, a program that cannot run), with
 * standard input and output the same descriptors after as before. */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "apps/p5mon/command.h"
#include "tests/unit/unit_helpers.h"

static void parse(const char *value, struct p5mon_command *command, bool want_ok,
                  const char *want_error)
{
    struct p5mon_setting setting;
    snprintf(setting.value, sizeof setting.value, "%s", value);
    snprintf(setting.where, sizeof setting.where, "PARMS:3");
    char error[512] = "";
    assert_int_equal(p5mon_command_parse(&setting, command, error, sizeof error), want_ok);
    if (want_error)
        assert_string_equal(error, want_error);
}

static void test_parse(void **state)
{
    (void)state;
    struct p5mon_command command;
    parse("prog  a\tb <in >  out", &command, true, NULL);
    assert_string_equal(command.words[0], "prog");
    assert_string_equal(command.words[1], "a");
    assert_string_equal(command.words[2], "b");
    assert_null(command.words[3]);
    assert_string_equal(command.input, "in");
    assert_string_equal(command.output, "out");
    p5mon_command_free(&command);
    parse("prog a | b", &command, false,
          "PARMS:3: expected a program, arguments and < > redirections (no shell syntax) in "
          "command, got '|'");
    p5mon_command_free(&command);
    parse("prog <", &command, false, "PARMS:3: expected a file name after < or > in command");
    p5mon_command_free(&command);
    parse("< in", &command, false, "PARMS:3: expected a program in command");
    p5mon_command_free(&command);
}

static ino_t inode(int fd)
{
    struct stat st;
    assert_int_equal(fstat(fd, &st), 0);
    return st.st_ino;
}

/* p5mon_record_command of `value` with $TMPDIR `dir`: its status; nothing
 * left in `dir` but `kept` entries (-1: `dir` does not exist), fds 0 and 1
 * as they were. */
static enum p5mon_record_status record(const char *dir, const char *value, int kept,
                                       enum record_status *recorded, char *error, size_t size)
{
    assert_int_equal(setenv("TMPDIR", dir, 1), 0);
    struct p5mon_command command;
    parse(value, &command, true, NULL);
    ino_t in = inode(0), out = inode(1);
    struct cleanup_file temporary;
    char trace[PATH_MAX], prefix[PATH_MAX];
    struct record_result result;
    errno = 0;
    enum p5mon_record_status status = p5mon_record_command(
        &command, "p5", NULL, &temporary, trace, sizeof trace, recorded, &result, error, size);
    int failure = errno;
    snprintf(prefix, sizeof prefix, "%s/pmubench-p5mon-", dir);
    if (kept >= 0) {
        assert_int_equal(strncmp(trace, prefix, strlen(prefix)), 0);
        assert_int_equal(unit_dir_entries(dir), kept);
    }
    assert_int_equal(inode(0), in);
    assert_int_equal(inode(1), out);
    assert_false(result.execed);
    p5mon_command_free(&command);
    errno = failure;
    return status;
}

static void test_record_failures(void **state)
{
    (void)state;
    char dir[] = "/tmp/test_p5mon_command.XXXXXX", value[512], want[512], error[PATH_MAX + 2048];
    assert_non_null(mkdtemp(dir));
    enum record_status recorded;

    snprintf(value, sizeof value, "/bin/true < %s/missing", dir);
    assert_int_equal(record(dir, value, 0, &recorded, error, sizeof error), P5MON_NO_INPUT);
    assert_int_equal(errno, ENOENT);
    snprintf(want, sizeof want, "%s/missing: cannot open: No such file or directory", dir);
    assert_string_equal(error, want);

    snprintf(value, sizeof value, "/bin/true > %s/no/out", dir);
    assert_int_equal(record(dir, value, 0, &recorded, error, sizeof error), P5MON_NO_OUTPUT);
    snprintf(want, sizeof want, "%s/no/out: cannot create: No such file or directory", dir);
    assert_string_equal(error, want);

    /* the > file is made before the program is found, as the shell does */
    snprintf(value, sizeof value, "/nonexistent/prog > %s/out", dir);
    assert_int_equal(record(dir, value, 1, &recorded, error, sizeof error), P5MON_NOT_RECORDED);
    assert_int_equal(recorded, RECORD_BAD_INPUT);
    assert_string_equal(error, "cannot run '/nonexistent/prog': No such file or directory");
    snprintf(want, sizeof want, "%s/out", dir);
    assert_int_equal(unlink(want), 0);
    assert_int_equal(rmdir(dir), 0);

    /* no temporary trace: nothing redirected, nothing recorded */
    assert_int_equal(record("/nonexistent/folder", "/bin/true < /nonexistent/input", -1,
                            &recorded, error, sizeof error),
                     P5MON_NOT_RECORDED);
    assert_int_equal(recorded, RECORD_FAILED);
    assert_string_equal(error, "cannot create a temporary file in /nonexistent/folder: No such "
                               "file or directory");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse),
        cmocka_unit_test(test_record_failures),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
