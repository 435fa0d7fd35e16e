#!/bin/sh
# make_text.sh: writes to stdout a deterministic text of 102,400+ bytes of
# random lowercase words (a fixed linear congruential sequence), the input
# of the recorder's accuracy test and benchmark.
awk 'BEGIN {
    x = 12345; n = 0
    while (n < 102400) {
        x = (x * 1103515245 + 12345) % 2147483648
        len = 2 + int(x / 65536) % 9; w = ""
        for (k = 0; k < len; k++) {
            x = (x * 1103515245 + 12345) % 2147483648
            w = w sprintf("%c", 97 + int(x / 65536) % 26)
        }
        x = (x * 1103515245 + 12345) % 2147483648
        sep = (int(x / 65536) % 8 == 0) ? "\n" : " "
        printf "%s%s", w, sep; n += len + 1
    }
    printf "\n" }'
