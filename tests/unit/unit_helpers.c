/* Small helpers the unit tests share (unit_helpers.h). */
#include "tests/unit/unit_helpers.h"

#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

struct machine_config unit_machine(const char *name)
{
    struct machine_config model;
    char error[256];
    if (!machine_config_choose(name, &model, error, sizeof error))
        fail_msg("%s", error);
    return model;
}

int unit_dir_entries(const char *dir)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return n;
}
