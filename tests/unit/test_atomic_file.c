/* The atomic writer (util/atomic_file.h): written through symbolic links,
 * the replaced file's mode kept, a new file's from the umask, a name of
 * NAME_MAX bytes written, devices written directly with the reason of a
 * failed write, and no temporary file left behind by SIGINT or SIGTERM. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/atomic_file.h"

static char dir[64], home[4096];
static char error[8192];

/* Every test runs in a fresh directory of its own. */
static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/pmubench-atomic-XXXXXX");
    if (!mkdtemp(dir) || !getcwd(home, sizeof home) || chdir(dir) != 0)
        return -1;
    error[0] = '\0';
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    DIR *d = opendir(".");
    for (struct dirent *e = d ? readdir(d) : NULL; e; e = readdir(d))
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
            unlink(e->d_name);
    if (d)
        closedir(d);
    return chdir(home) == 0 && rmdir(dir) == 0 ? 0 : -1;
}

static void write_file(const char *path, const char *text, mode_t mode)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    assert_int_equal(fchmod(fd, mode), 0);
    close(fd);
}

static void assert_content(const char *path, const char *text)
{
    char buffer[256] = "";
    FILE *in = fopen(path, "r");
    assert_non_null(in);
    size_t n = fread(buffer, 1, sizeof buffer - 1, in);
    fclose(in);
    buffer[n] = '\0';
    assert_string_equal(buffer, text);
}

/* The files of the test's directory, sorted, joined by spaces: hidden
 * ones too (the temporary files are). */
static const char *listing(void)
{
    static char names[1024];
    struct dirent **entries;
    int n = scandir(".", &entries, NULL, alphasort);
    names[0] = '\0';
    for (int i = 0; i < n; i++) {
        if (strcmp(entries[i]->d_name, ".") != 0 && strcmp(entries[i]->d_name, "..") != 0) {
            size_t used = strlen(names);
            snprintf(names + used, sizeof names - used, "%s%s", used ? " " : "",
                     entries[i]->d_name);
        }
        free(entries[i]);
    }
    free(entries);
    return names;
}

static void write_atomically(const char *path, const char *text)
{
    struct atomic_file file;
    if (!atomic_open(&file, path, error, sizeof error))
        fail_msg("%s", error);
    fputs(text, file.stream);
    if (!atomic_commit(&file, error, sizeof error))
        fail_msg("%s", error);
}

static mode_t mode_of(const char *path)
{
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    return st.st_mode & 07777;
}

static bool is_link(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0 && S_ISLNK(st.st_mode);
}

/* ---- Symbolic links: written through, the link kept */

static void writes_through_a_link(void **state)
{
    (void)state;
    write_file("target", "old\n", 0644);
    assert_int_equal(symlink("target", "link"), 0);
    write_atomically("link", "new\n");
    assert_true(is_link("link"));
    assert_content("target", "new\n");
    assert_string_equal(listing(), "link target");
}

/* A relative target is relative to the link's directory; a chain of
 * links is followed to its end. */
static void follows_relative_links_and_chains(void **state)
{
    (void)state;
    assert_int_equal(mkdir("sub", 0755), 0);
    write_file("sub/target", "old\n", 0644);
    assert_int_equal(symlink("target", "sub/inner"), 0);
    assert_int_equal(symlink("sub/inner", "outer"), 0);
    write_atomically("outer", "new\n");
    assert_true(is_link("outer"));
    assert_true(is_link("sub/inner"));
    assert_content("sub/target", "new\n");
    assert_int_equal(unlink("sub/inner"), 0);
    assert_int_equal(unlink("sub/target"), 0);
    assert_int_equal(rmdir("sub"), 0);
}

/* A dangling link: its target is created, as open(2) would create it. */
static void creates_a_dangling_links_target(void **state)
{
    (void)state;
    assert_int_equal(symlink("made", "dangling"), 0);
    write_atomically("dangling", "new\n");
    assert_true(is_link("dangling"));
    assert_content("made", "new\n");
    assert_string_equal(listing(), "dangling made");
}

static void refuses_a_link_loop(void **state)
{
    (void)state;
    assert_int_equal(symlink("b", "a"), 0);
    assert_int_equal(symlink("a", "b"), 0);
    struct atomic_file file;
    assert_false(atomic_open(&file, "a", error, sizeof error));
    assert_string_equal(error, "a: cannot create: Too many levels of symbolic links");
    assert_string_equal(listing(), "a b");
}

/* ---- Names */

/* The temporary file is ".pmubench-XXXXXX" in the target's directory, so
 * a target of NAME_MAX bytes (255) can be written: its name plus a
 * suffix could not be created. */
static void writes_a_name_of_name_max_bytes(void **state)
{
    (void)state;
    char name[256];
    memset(name, 'x', 255);
    name[255] = '\0';
    struct atomic_file file;
    if (!atomic_open(&file, name, error, sizeof error))
        fail_msg("%s", error);
    assert_int_equal(strlen(file.temp), strlen(".pmubench-XXXXXX"));
    assert_int_equal(strncmp(file.temp, ".pmubench-", 10), 0);
    fputs("new\n", file.stream);
    if (!atomic_commit(&file, error, sizeof error))
        fail_msg("%s", error);
    assert_content(name, "new\n");
    assert_string_equal(listing(), name);
}

static void puts_the_temporary_file_in_the_targets_directory(void **state)
{
    (void)state;
    assert_int_equal(mkdir("sub", 0755), 0);
    struct atomic_file file;
    if (!atomic_open(&file, "sub/out", error, sizeof error))
        fail_msg("%s", error);
    assert_int_equal(strncmp(file.temp, "sub/.pmubench-", 14), 0);
    atomic_abort(&file);
    assert_int_equal(rmdir("sub"), 0);
}

/* ---- Devices: written directly; a failed write says why */

/* /dev/full: every write fails with ENOSPC, the message says so (stdio's
 * error flag alone said "Input/output error"), whether the writes failed
 * before the commit (more than a buffer) or at its flush. */
static void says_why_a_write_failed(void **state)
{
    (void)state;
    for (size_t size = 1; size <= 1 << 20; size <<= 10) {
        struct atomic_file file;
        if (!atomic_open(&file, "/dev/full", error, sizeof error))
            fail_msg("%s", error);
        assert_true(file.direct);
        for (size_t i = 0; i < size; i++)
            fputc('x', file.stream);
        assert_false(atomic_commit(&file, error, sizeof error));
        assert_string_equal(error, "/dev/full: cannot write: No space left on device");
    }
}

/* A pipe through /proc's link to it (as /dev/stdout is): written. */
static void writes_a_pipe_through_its_proc_link(void **state)
{
    (void)state;
    int ends[2];
    assert_int_equal(pipe(ends), 0);
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", ends[1]);
    struct atomic_file file;
    if (!atomic_open(&file, path, error, sizeof error))
        fail_msg("%s", error);
    fputs("through\n", file.stream);
    if (!atomic_commit(&file, error, sizeof error))
        fail_msg("%s", error);
    close(ends[1]);
    char got[16] = "";
    assert_int_equal(read(ends[0], got, sizeof got - 1), 8);
    close(ends[0]);
    assert_string_equal(got, "through\n");
    assert_string_equal(listing(), "");
}

/* ---- Modes */

static void keeps_an_existing_files_mode(void **state)
{
    (void)state;
    write_file("private", "old\n", 0600);
    write_atomically("private", "new\n");
    assert_int_equal(mode_of("private"), 0600);
    write_file("shared", "old\n", 0664);
    write_atomically("shared", "new\n");
    assert_int_equal(mode_of("shared"), 0664);
    write_file("script", "old\n", 0750);
    write_atomically("script", "new\n");
    assert_int_equal(mode_of("script"), 0750);
    assert_content("script", "new\n");
}

/* Through a link: the target's mode. */
static void keeps_a_link_targets_mode(void **state)
{
    (void)state;
    write_file("target", "old\n", 0600);
    assert_int_equal(symlink("target", "link"), 0);
    write_atomically("link", "new\n");
    assert_int_equal(mode_of("target"), 0600);
}

static void new_file_mode_follows_the_umask(void **state)
{
    (void)state;
    mode_t saved = umask(022);
    write_atomically("a", "x");
    umask(077);
    write_atomically("b", "x");
    umask(0);
    write_atomically("c", "x");
    umask(saved);
    assert_int_equal(mode_of("a"), 0644);
    assert_int_equal(mode_of("b"), 0600);
    assert_int_equal(mode_of("c"), 0666);
}

/* ---- Signals */

/* A child opens "out" (and "second"), writes, and raises `sig`; its wait
 * status.  A child that lives on commits both and ends by SIGTERM (an
 * exit status would be valgrind's under make memcheck, which counts
 * cmocka's memory in the child as still reachable). */
static int killed_while_writing(int sig, bool ignore)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        if (ignore)
            signal(sig, SIG_IGN);
        struct atomic_file out, second;
        if (!atomic_open(&out, "out", error, sizeof error) ||
            !atomic_open(&second, "second", error, sizeof error))
            _exit(3);
        fputs("partial", out.stream);
        fflush(out.stream);
        raise(sig);
        if (atomic_commit(&out, error, sizeof error) &&
            atomic_commit(&second, error, sizeof error))
            raise(SIGTERM);
        _exit(4);
    }
    assert_true(pid > 0);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    return status;
}

static void sigint_removes_the_temporary_files(void **state)
{
    (void)state;
    write_file("out", "old\n", 0644);
    int status = killed_while_writing(SIGINT, false);
    assert_true(WIFSIGNALED(status));
    assert_int_equal(WTERMSIG(status), SIGINT);
    assert_string_equal(listing(), "out");
    assert_content("out", "old\n");
}

static void sigterm_removes_the_temporary_files(void **state)
{
    (void)state;
    int status = killed_while_writing(SIGTERM, false);
    assert_true(WIFSIGNALED(status));
    assert_int_equal(WTERMSIG(status), SIGTERM);
    assert_string_equal(listing(), "");
}

/* A signal the caller ignores stays ignored: the files are written (and
 * the child ends by the SIGTERM it raises then). */
static void an_ignored_signal_stays_ignored(void **state)
{
    (void)state;
    int status = killed_while_writing(SIGINT, true);
    assert_true(WIFSIGNALED(status));
    assert_int_equal(WTERMSIG(status), SIGTERM);
    assert_string_equal(listing(), "out second");
    assert_content("out", "partial");
}

/* After a commit and an abort, nothing is left for the handler; a later
 * signal still kills with its own status. */
static void committed_and_aborted_files_are_forgotten(void **state)
{
    (void)state;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        struct atomic_file kept, dropped;
        if (!atomic_open(&kept, "kept", error, sizeof error) ||
            !atomic_open(&dropped, "dropped", error, sizeof error))
            _exit(3);
        atomic_abort(&dropped);
        if (!atomic_commit(&kept, error, sizeof error))
            _exit(4);
        raise(SIGTERM);
        _exit(5);
    }
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFSIGNALED(status));
    assert_int_equal(WTERMSIG(status), SIGTERM);
    assert_string_equal(listing(), "kept");
}

int main(void)
{
    /* The tests mean a process started with SIGINT's default action; a
     * shell starts a background job with SIGINT ignored. */
    signal(SIGINT, SIG_DFL);
    const struct CMUnitTest tests[] = {
        /* First: the handler is installed at the first atomic_open of the
         * process, and only on signals with their default action. */
        cmocka_unit_test_setup_teardown(an_ignored_signal_stays_ignored, setup, teardown),
        cmocka_unit_test_setup_teardown(writes_through_a_link, setup, teardown),
        cmocka_unit_test_setup_teardown(follows_relative_links_and_chains, setup, teardown),
        cmocka_unit_test_setup_teardown(creates_a_dangling_links_target, setup, teardown),
        cmocka_unit_test_setup_teardown(refuses_a_link_loop, setup, teardown),
        cmocka_unit_test_setup_teardown(writes_a_name_of_name_max_bytes, setup, teardown),
        cmocka_unit_test_setup_teardown(puts_the_temporary_file_in_the_targets_directory, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(says_why_a_write_failed, setup, teardown),
        cmocka_unit_test_setup_teardown(writes_a_pipe_through_its_proc_link, setup, teardown),
        cmocka_unit_test_setup_teardown(keeps_an_existing_files_mode, setup, teardown),
        cmocka_unit_test_setup_teardown(keeps_a_link_targets_mode, setup, teardown),
        cmocka_unit_test_setup_teardown(new_file_mode_follows_the_umask, setup, teardown),
        cmocka_unit_test_setup_teardown(sigint_removes_the_temporary_files, setup, teardown),
        cmocka_unit_test_setup_teardown(sigterm_removes_the_temporary_files, setup, teardown),
        cmocka_unit_test_setup_teardown(committed_and_aborted_files_are_forgotten, setup,
                                        teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
