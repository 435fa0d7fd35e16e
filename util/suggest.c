#include "suggest.h"

#include <ctype.h>
#include <string.h>

enum { MAX_NAME = 255, NEAR = 2 };

static bool same_letter(char a, char b)
{
    return tolower((unsigned char)a) == tolower((unsigned char)b);
}

static int min3(int a, int b, int c)
{
    int m = a < b ? a : b;
    return m < c ? m : c;
}

int suggestion_distance(const char *a, const char *b)
{
    size_t n = strlen(a), m = strlen(b);
    if (n > MAX_NAME || m > MAX_NAME)
        return MAX_NAME;
    /* Three rows of the dynamic-programming table: i - 2, i - 1, i. */
    int rows[3][MAX_NAME + 1];
    for (size_t j = 0; j <= m; j++)
        rows[0][j] = (int)j;
    for (size_t i = 1; i <= n; i++) {
        int *row = rows[i % 3], *up = rows[(i - 1) % 3], *up2 = rows[(i + 1) % 3];
        row[0] = (int)i;
        for (size_t j = 1; j <= m; j++) {
            int cost = !same_letter(a[i - 1], b[j - 1]);
            row[j] = min3(up[j] + 1, row[j - 1] + 1, up[j - 1] + cost);
            if (i > 1 && j > 1 && same_letter(a[i - 1], b[j - 2]) &&
                same_letter(a[i - 2], b[j - 1]) && up2[j - 2] + 1 < row[j])
                row[j] = up2[j - 2] + 1;
        }
    }
    int d = rows[n % 3][m];
    return d < MAX_NAME ? d : MAX_NAME;
}

void suggestion_start(struct suggestion *s, const char *typed)
{
    *s = (struct suggestion){typed, NULL, 0};
}

void suggestion_consider(struct suggestion *s, const char *name)
{
    if (!s->typed[0] || strcmp(s->typed, name) == 0)
        return;
    int limit = (int)strlen(s->typed) / 3;
    limit = limit < 1 ? 1 : limit > NEAR ? NEAR : limit;
    int d = suggestion_distance(s->typed, name);
    if (d <= limit && (!s->best || d < s->distance)) {
        s->best = name;
        s->distance = d;
    }
}
