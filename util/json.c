#include "json.h"

#include "text.h"

/* Control characters and DEL as \u00NN; a byte that is not valid UTF-8
 * as the text \xNN (JSON has no bytes), as messages show it (util/text.h):
 * the output is valid JSON and valid UTF-8 whatever `text` holds. */
void json_fprint_string(FILE *out, const char *text)
{
    fputc('"', out);
    for (const char *p = text; *p;) {
        unsigned char c = (unsigned char)*p;
        size_t n = text_printable_length(p);
        if (n == 0 && (c < 0x20 || c == 0x7f))
            fprintf(out, "\\u%04x", c);
        else if (n == 0)
            fprintf(out, "\\\\x%02x", c);
        else if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else
            fwrite(p, 1, n, out);
        p += n ? n : 1;
    }
    fputc('"', out);
}

void json_print_string(const char *text)
{
    json_fprint_string(stdout, text);
}
