/* pmubench compare: being written (issue 5). */
#include <stdio.h>

#include "commands.h"

int cmd_compare(int argc, char **argv)
{
    (void)argc;
    fprintf(stderr, "pmubench %s: not built yet\n", argv[0]);
    return 2;
}
