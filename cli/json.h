#ifndef CLI_JSON_H
#define CLI_JSON_H

/* Prints `text` to stdout as a JSON string literal, quotes included. */
void json_print_string(const char *text);

#endif
