#include "json.h"

#include <stdio.h>

void json_print_string(const char *text)
{
    putchar('"');
    for (const char *p = text; *p; p++) {
        if (*p == '"' || *p == '\\')
            putchar('\\');
        if ((unsigned char)*p < 0x20)
            printf("\\u%04x", *p);
        else
            putchar(*p);
    }
    putchar('"');
}
