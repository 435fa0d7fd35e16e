#ifndef CLI_COMMANDS_H
#define CLI_COMMANDS_H

#include "option_table.h"

/* Each takes argv with argv[0] = the command's name, split by its option
 * table (cli/option_table.h); returns the exit status. */
int cmd_run(int argc, char **argv);
int cmd_encode(int argc, char **argv);
int cmd_decode(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_alloc(int argc, char **argv);
int cmd_trace(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_emulate(int argc, char **argv);
int cmd_stat(int argc, char **argv);
int cmd_p5mon(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_sample(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_plot(int argc, char **argv);

/* Their options (each defined beside its parser). */
extern const struct option_table run_option_table, encode_option_table, decode_option_table,
    list_option_table, alloc_option_table, trace_option_table, record_option_table,
    emulate_option_table,
    stat_option_table, p5mon_option_table, compare_option_table, sample_option_table,
    sweep_option_table, plot_option_table;

#endif
