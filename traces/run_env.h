/* What recorded and measured runs of a program share (docs/traces.md,
 * "Environment"): the environment variables that pin glibc's CPU-dependent
 * choices, the program lookup execvp does, and the valgrind launcher.
 * `pmubench record` and the measured runs of `pmubench compare` use these,
 * so that both run the same glibc code. */
#ifndef TRACES_RUN_ENV_H
#define TRACES_RUN_ENV_H

#include <stdbool.h>
#include <stddef.h>

struct run_env_var {
    const char *name;
    const char *value;
};

extern const struct run_env_var run_env[];
extern const int run_env_count;

/* Sets each variable of run_env that the environment does not have yet
 * (the user's own setting wins). */
void run_env_apply(void);

/* PROGRAM as execvp would find it (a name with a '/' as it is, else the
 * first executable regular file of that name in PATH); false with a short
 * reason in `error` ("No such file or directory", "not found in PATH"...). */
bool run_find_program(const char *name, char *path, size_t size, char *error,
                      size_t error_size);

/* The valgrind to run: $PMUBENCH_VALGRIND, else Debian's real binary
 * /usr/bin/valgrind.bin (its /usr/bin/valgrind wrapper script changes the
 * program's environment), else "valgrind" from PATH. */
const char *run_valgrind_path(void);

#endif
