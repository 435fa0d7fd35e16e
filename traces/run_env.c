#include "run_env.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Pins glibc's CPU-dependent choices (string functions, copy thresholds,
 * the lazy-binding trampoline) to what they are under valgrind's virtual
 * CPU, so that native and recorded runs execute the same code
 * (docs/traces.md, "Recording"). */
const struct run_env_var run_env[] = {
    {"GLIBC_TUNABLES",
     "glibc.cpu.hwcaps=-AVX512F,-AVX512VL,-AVX512BW,-AVX512DQ,-AVX512CD,-AVX512_IFMA,"
     "-AVX512_VBMI,-AVX512_VBMI2,-AVX512_BITALG,-AVX512_VPOPCNTDQ,-AVX512_VNNI,-AVX512_BF16,"
     "-AVX512_FP16,-Avoid_Short_Distance_REP_MOVSB,-XSAVEC"
     ":glibc.cpu.x86_rep_movsb_threshold=8192:glibc.cpu.x86_rep_stosb_threshold=2048"
     ":glibc.cpu.x86_non_temporal_threshold=2097152:glibc.cpu.x86_data_cache_size=32768"
     ":glibc.cpu.x86_shared_cache_size=8388608"},
};
const int run_env_count = sizeof run_env / sizeof run_env[0];

void run_env_apply(void)
{
    for (int i = 0; i < run_env_count; i++)
        setenv(run_env[i].name, run_env[i].value, 0);
}

static bool is_executable_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

bool run_find_program(const char *name, char *path, size_t size, char *error,
                      size_t error_size)
{
    if (strchr(name, '/')) {
        snprintf(path, size, "%s", name);
        if (is_executable_file(path))
            return true;
        struct stat st;
        snprintf(error, error_size, "%s",
                 stat(path, &st) != 0 ? strerror(errno)
                 : S_ISDIR(st.st_mode) ? "is a directory"
                                       : "not an executable file");
        return false;
    }
    const char *dirs = getenv("PATH");
    if (!dirs || !*dirs)
        dirs = "/usr/local/bin:/usr/bin:/bin";
    for (size_t n; *dirs; dirs += n + (dirs[n] == ':')) {
        n = strcspn(dirs, ":");
        snprintf(path, size, "%.*s%s%s", (int)n, dirs, n ? "/" : "", name);
        if (is_executable_file(path))
            return true;
    }
    snprintf(error, error_size, "not found in PATH");
    return false;
}

const char *run_valgrind_path(void)
{
    const char *env = getenv("PMUBENCH_VALGRIND");
    if (env && *env)
        return env;
    return is_executable_file("/usr/bin/valgrind.bin") ? "/usr/bin/valgrind.bin" : "valgrind";
}
