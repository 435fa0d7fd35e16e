#ifndef CLI_COMMANDS_H
#define CLI_COMMANDS_H

/* Each takes argv with argv[0] = the command's name; returns the exit
 * status. */
int cmd_run(int argc, char **argv);
int cmd_encode(int argc, char **argv);
int cmd_decode(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_alloc(int argc, char **argv);
int cmd_trace(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_stat(int argc, char **argv);
int cmd_p5mon(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_sample(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_plot(int argc, char **argv);

#endif
