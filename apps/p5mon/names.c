#include "names.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "parms.h"
#include "pmu/catalog/p5_events.h"

/* Words run_p5mon's report (Safford 1997) leaves in lower case ("Instructions Executed in
 * the v-pipe"). */
static const char *const small_words[] = {"a",  "and", "because", "by",  "due",   "for",
                                          "in", "is",  "of",      "on",  "or",    "the",
                                          "to", "while", "v-pipe"};

static bool is_small(const char *word, size_t length)
{
    for (size_t i = 0; i < sizeof small_words / sizeof small_words[0]; i++)
        if (strlen(small_words[i]) == length && strncmp(small_words[i], word, length) == 0)
            return true;
    return false;
}

void p5mon_event_title(int event, char *out, size_t size)
{
    if (event == P5MON_CLOCKS) {
        snprintf(out, size, "Clock cycles");
        return;
    }
    const struct p5_event *p5 = p5_event_by_code((unsigned)event);
    snprintf(out, size, "%s", p5 ? p5->description : "?");
    bool first = true;
    for (char *word = out; *word; first = false) {
        size_t length = strcspn(word, " ");
        if (first || !is_small(word, length))
            *word = (char)toupper((unsigned char)*word);
        word += length;
        word += strspn(word, " ");
    }
}

const char *p5mon_event_parm_name(int event)
{
    const struct p5_event *p5 = event == P5MON_CLOCKS ? NULL : p5_event_by_code((unsigned)event);
    return p5 ? p5->name : "count_clocks";
}

void p5mon_event_code(int event, char *out, size_t size)
{
    if (event == P5MON_CLOCKS)
        snprintf(out, size, "clocks");
    else
        snprintf(out, size, "0x%x", (unsigned)event);
}
