/* wc: counts lines, words and characters, as the UNIX utility of Safford 1997
 * (section 5.6) does, with the getc loop of Kernighan and Ritchie.  Prints
 * "lines words chars name" per file (standard input without a name) and a
 * total for several files.
 *
 * The counting loop is region 1 (traces/pmubench_region.h): recorded with
 * `pmubench record`, its begin and end markers surround exactly the loop,
 * whose condition (the getc) runs once per character plus once for the
 * final EOF, and whose body runs once per character, the count printed in
 * the third column (Table 5.7, "number of times loop body executed"). */
#define _POSIX_C_SOURCE 200809L /* getc_unlocked (POSIX.1c) */
#include <stdio.h>

#include "traces/pmubench_region.h"

/* The thesis's wc read with the getc macro of its C library: a test of the
 * stream's buffer pointer against its end, inline, and a call only to refill
 * the buffer.  glibc's getc is a function (it checks whether the stream needs
 * its lock); its getc_unlocked is that inline buffer test when compiled with
 * optimisation (bits/stdio.h under __USE_EXTERN_INLINES), so it is the
 * default here.  -DWC_LOCKED_GETC builds the getc version for comparison
 * (traces/wc/README.md). */
#ifdef WC_LOCKED_GETC
#define WC_GETC getc
#else
#define WC_GETC getc_unlocked
#endif

enum { IN, OUT };

struct counts {
    long lines, words, chars;
};

static void count(FILE *fp, struct counts *c)
{
    int ch, state = OUT;
    long nl = 0, nw = 0, nc = 0;
    pmubench_region_begin(1);
    while ((ch = WC_GETC(fp)) != EOF) {
        ++nc;
        if (ch == '\n')
            ++nl;
        if (ch == ' ' || ch == '\n' || ch == '\t')
            state = OUT;
        else if (state == OUT) {
            state = IN;
            ++nw;
        }
    }
    pmubench_region_end(1);
    c->lines = nl;
    c->words = nw;
    c->chars = nc;
}

static void print(const struct counts *c, const char *name)
{
    printf("%7ld %7ld %7ld%s%s\n", c->lines, c->words, c->chars, name ? " " : "",
           name ? name : "");
}

int main(int argc, char **argv)
{
    struct counts total = {0, 0, 0}, c;
    if (argc < 2) {
        count(stdin, &c);
        print(&c, NULL);
        return 0;
    }
    int status = 0;
    for (int i = 1; i < argc; i++) {
        FILE *fp = fopen(argv[i], "r");
        if (!fp) {
            fprintf(stderr, "wc: can't open %s\n", argv[i]);
            status = 1;
            continue;
        }
        count(fp, &c);
        fclose(fp);
        print(&c, argv[i]);
        total.lines += c.lines;
        total.words += c.words;
        total.chars += c.chars;
    }
    if (argc > 2)
        print(&total, "total");
    return status;
}
