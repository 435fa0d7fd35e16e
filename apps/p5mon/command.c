/* p5mon's command (apps/p5mon/command.h). */
#include "command.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "traces/cpu_view.h"
#include "util/input_file.h"

/* Splits the command into words and `<`/`>` redirections; false with what
 * was expected. */
static bool split_command(char *command, char **words, int max_words, const char **input,
                          const char **output, const char *where, char *error,
                          size_t error_size)
{
    int n = 0;
    const char **redirect = NULL;
    for (char *word = strtok(command, " \t"); word; word = strtok(NULL, " \t")) {
        if (strpbrk(word, "|;&$`'\"\\*?()[]{}~")) {
            snprintf(error, error_size,
                     "%s: expected a program, arguments and < > redirections (no shell syntax) "
                     "in command, got '%s'",
                     where, word);
            return false;
        }
        if (redirect) {
            *redirect = word;
            redirect = NULL;
        } else if (word[0] == '<' || word[0] == '>') {
            redirect = word[0] == '<' ? input : output;
            if (word[1]) {
                *redirect = word + 1;
                redirect = NULL;
            }
        } else if (n < max_words - 1) {
            words[n++] = word;
        } else {
            snprintf(error, error_size, "%s: expected at most %d words in command", where,
                     max_words - 1);
            return false;
        }
    }
    words[n] = NULL;
    if (redirect || n == 0) {
        snprintf(error, error_size, "%s: expected %s in command", where,
                 n == 0 ? "a program" : "a file name after < or >");
        return false;
    }
    return true;
}

bool p5mon_command_parse(const struct p5mon_setting *setting, struct p5mon_command *command,
                         char *error, size_t error_size)
{
    memset(command, 0, sizeof *command);
    command->copy = strdup(setting->value);
    if (!command->copy) {
        snprintf(error, error_size, "pmubench p5mon: out of memory");
        return false;
    }
    return split_command(command->copy, command->words, P5MON_MAX_WORDS, &command->input,
                         &command->output, setting->where, error, error_size);
}

void p5mon_command_free(struct p5mon_command *command)
{
    free(command->copy);
    command->copy = NULL;
}

/* `file` in place of descriptor `fd`, its old self kept in *saved. */
static void redirect_fd(FILE *file, int fd, int *saved)
{
    fflush(stdout);
    *saved = dup(fd);
    dup2(fileno(file), fd);
    fclose(file);
}

static void restore_fd(int fd, int saved)
{
    if (saved < 0)
        return;
    fflush(stdout);
    dup2(saved, fd);
    close(saved);
}

/* The < and > files in place of standard input and output. */
static enum p5mon_record_status redirect(const struct p5mon_command *command, int saved[2],
                                         char *error, size_t error_size)
{
    if (command->input) {
        FILE *in = input_open(command->input, error, error_size);
        if (!in)
            return P5MON_NO_INPUT;
        redirect_fd(in, 0, &saved[0]);
    }
    if (command->output) {
        FILE *out = fopen(command->output, "w");
        if (!out) {
            snprintf(error, error_size, "%s: cannot create: %s", command->output,
                     strerror(errno));
            return P5MON_NO_OUTPUT;
        }
        redirect_fd(out, 1, &saved[1]);
    }
    return P5MON_RECORDED;
}

enum p5mon_record_status p5mon_record_command(const struct p5mon_command *command,
                                              const char *model,
                                              const struct progress_hook *progress,
                                              struct cleanup_file *temporary, char *trace,
                                              size_t size, enum record_status *recorded,
                                              struct record_result *result, char *error,
                                              size_t error_size)
{
    *result = (struct record_result){0};
    *recorded = RECORD_FAILED;
    if (!cleanup_temporary(temporary, "pmubench-p5mon", trace, size, error, error_size))
        return P5MON_NOT_RECORDED;
    int saved[2] = {-1, -1};
    enum p5mon_record_status status = redirect(command, saved, error, error_size);
    if (status == P5MON_RECORDED) {
        struct record_options options = {.argv = command->words, .output = trace,
                                         .progress = progress,
                                         .cpu = cpu_view_for_model(model)};
        *recorded = record_run(&options, result, error, error_size);
        if (*recorded != RECORD_OK)
            status = P5MON_NOT_RECORDED;
    }
    int failure = errno; /* the < file's reason */
    restore_fd(0, saved[0]);
    restore_fd(1, saved[1]);
    if (status != P5MON_RECORDED)
        cleanup_remove_file(temporary);
    errno = failure;
    return status;
}
