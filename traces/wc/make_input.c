/* make_input: writes the input of the wc case study (Safford 1997, section 5.6:
 * "a 4036 line input file containing 105196 characters") to standard
 * output or to the file named by its argument: English-like prose, the
 * same bytes on every machine (a fixed 32-bit linear congruential
 * generator, no locale, no floating point), exactly LINES newlines and
 * CHARS bytes. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

enum { LINES = 4036, CHARS = 105196, MAX_LINE = 72, MAX_WORD = 12 };

/* Common English words; every length from 1 to MAX_WORD is present, which
 * lets a line be filled to an exact length. */
static const char *const words[] = {
    "a", "I", "an", "as", "at", "be", "by", "do", "he", "if", "in", "is", "it", "no", "of",
    "on", "or", "so", "to", "up", "we", "all", "and", "are", "but", "can", "for", "had",
    "has", "her", "his", "not", "one", "out", "the", "two", "was", "way", "who", "you",
    "also", "back", "been", "data", "each", "from", "have", "into", "just", "like", "made",
    "more", "most", "only", "over", "some", "than", "that", "them", "then", "they", "this",
    "time", "used", "very", "were", "what", "when", "will", "with", "word", "work", "about",
    "after", "cache", "count", "could", "every", "first", "input", "later", "lines", "other",
    "table", "their", "there", "these", "which", "while", "would", "before", "branch",
    "during", "number", "people", "result", "should", "system", "through", "program",
    "counter", "between", "because", "machine", "results", "several", "compiler", "measured",
    "numbers", "pipeline", "processor", "different", "important", "something",
    "performance", "information", "instructions", "particularly", "monitoring",
    "government", "characters",
};
enum { N_WORDS = sizeof words / sizeof words[0] };

static uint32_t state = 19970130u;

static uint32_t next(uint32_t bound)
{
    state = state * 1103515245u + 12345u;
    return (state >> 16) % bound;
}

static const char *word_of_length(size_t length)
{
    size_t matches = 0;
    for (int i = 0; i < N_WORDS; i++)
        matches += strlen(words[i]) == length;
    uint32_t pick = next((uint32_t)matches);
    for (int i = 0; i < N_WORDS; i++)
        if (strlen(words[i]) == length && pick-- == 0)
            return words[i];
    return NULL;
}

/* A word, with a comma or a full stop one time in eight, that fits in
 * `room` characters and does not leave exactly one (a space and a word
 * need two). */
static void pick_word(size_t room, char *out)
{
    for (;;) {
        const char *w = words[next(N_WORDS)];
        uint32_t mark = next(16);
        snprintf(out, MAX_WORD + 2, "%s%s", w, mark == 0 ? "," : mark == 1 ? "." : "");
        size_t n = strlen(out);
        if (n <= room && room - n != 1)
            return;
    }
}

/* One line of exactly `length` characters before its newline. */
static void write_line(FILE *out, size_t length)
{
    char line[MAX_LINE + 1] = "", word[MAX_WORD + 2];
    size_t used = 0;
    while (used < length) {
        size_t space = used ? 1 : 0;
        size_t room = length - used - space;
        if (room <= MAX_WORD)
            snprintf(word, sizeof word, "%s", word_of_length(room));
        else
            pick_word(room, word);
        used += (size_t)snprintf(line + used, sizeof line - used, "%s%s", space ? " " : "", word);
    }
    fprintf(out, "%s\n", line);
}

/* The length of the next line: around the average of what is left, one
 * line in twelve empty (a paragraph break), and always leaving the
 * remaining lines a length they can have. */
static size_t line_length(long left_chars, long left_lines)
{
    long rest = left_lines - 1;
    long average = left_chars / left_lines - 1;
    long length = next(12) == 0 ? 0 : average - 16 + (long)next(33);
    long longest = left_chars - rest;          /* the others at least "\n" */
    long shortest = left_chars - rest * (MAX_LINE + 1);
    if (length > MAX_LINE)
        length = MAX_LINE;
    if (length + 1 > longest)
        length = longest - 1;
    if (length + 1 < shortest)
        length = shortest - 1;
    return (size_t)(length < 0 ? 0 : length);
}

int main(int argc, char **argv)
{
    FILE *out = argc > 1 ? fopen(argv[1], "w") : stdout;
    if (!out) {
        perror(argv[1]);
        return 1;
    }
    long left_chars = CHARS;
    for (long left_lines = LINES; left_lines > 0; left_lines--) {
        size_t length = left_lines == 1 ? (size_t)left_chars - 1 : line_length(left_chars, left_lines);
        write_line(out, length);
        left_chars -= (long)length + 1;
    }
    return fclose(out) == 0 ? 0 : 1;
}
