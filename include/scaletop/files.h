/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Small file and directory helpers for the files scaletop reads on its own
 * behalf (themes, preferences, kept runs): whole-file reads with a size cap, the
 * configuration directory, and the build-tree marker beside the binary.
 */
#ifndef SCALETOP_FILES_H
#define SCALETOP_FILES_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/*
 * Reads a regular file of at most max bytes into a NUL-terminated malloc'd
 * buffer (the caller frees it).  Returns 0, or -1 with errno set (EFBIG when
 * too big, EISDIR for a directory).
 */
int file_read_all(const char *path, size_t max, char **buf, size_t *len);

/* True if path names a directory (after symbolic links). */
int file_is_dir(const char *path);
/* True if path names a regular file (after symbolic links). */
int file_is_regular(const char *path);

/*
 * Whether a new file can be made in dir: one is made there (mode 0600) and
 * removed at once, so a read-only mount, /proc or a folder without write
 * permission is found before a long job, not after it (access(2) says yes
 * to root everywhere).  Returns 0, or -1 with errno set.
 */
int file_dir_takes_file(const char *dir);

/*
 * Whether a command may write a file at path, asked before it does its work
 * so that a bad name costs a second, not a sweep or a report: path is no
 * folder, an existing file is replaced only with force (and, unless
 * inplace, is a regular file, since a new one is renamed over it), and the
 * folder of a file to be made takes one (file_dir_takes_file).  inplace: an
 * existing file is written where it is (a stream to a device).  Returns 0,
 * or -1 with the reason in why, for the caller to put after "OPT PATH: ".
 */
int file_out_check(const char *path, bool force, bool inplace, char *why, size_t len);

/*
 * scaletop's configuration directory: $XDG_CONFIG_HOME/scaletop when
 * XDG_CONFIG_HOME is an absolute path, else $HOME/.config/scaletop (HOME
 * from the password file if unset).  Returns 0, or -1 with err set.
 */
int file_config_dir(char *buf, size_t len, char *err, size_t errlen);

/*
 * scaletop's data directory (what it keeps for the user: the kept runs):
 * $XDG_DATA_HOME/scaletop when XDG_DATA_HOME is an absolute path, else
 * $HOME/.local/share/scaletop.  Returns 0, or -1 with err set.
 */
int file_data_dir(char *buf, size_t len, char *err, size_t errlen);

/*
 * mkdir -p: creates dir and its missing parents with mode (less the umask).
 * Returns 0, or -1 with errno set (ENOTDIR where a file is in the way) and,
 * when failed is not NULL, the path that could not be made in it.
 */
int file_mkdirs(const char *dir, mode_t mode, char *failed, size_t flen);

/*
 * The name the binary was started by (main's argv[0]), kept for
 * file_beside_self.  NULL (the default) means unknown.
 */
void file_set_argv0(const char *argv0);

/*
 * The first line of the file `name` in the running binary's directory, when
 * argv[0] names that directory (it contains a '/'; a name found through
 * PATH does not).  The build writes such a marker next to the built
 * binary, never installed.  Returns 0 with the line in buf, or -1 if there
 * is no such file, it is empty, or the line does not fit.
 */
int file_beside_self(const char *name, char *buf, size_t len);

#endif
