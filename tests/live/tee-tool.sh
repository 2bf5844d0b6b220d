# SPDX-License-Identifier: BSD-2-Clause
# tee-tool.sh PREFIX COMMAND [ARG...]: runs COMMAND with its standard output
# copied to PREFIX.out and its standard error to PREFIX.err, while both still
# reach the caller unchanged, each on its own stream.  The live tests run
# benchmark tools under scaletop through this, so they can read what the tool
# itself printed and check scaletop's figures against it.
#
# POSIX sh: two named pipes, a tee on each.  It exits only after the tool and
# both tees are done, so the files hold every line the tool wrote; its status
# is the tool's.  Run it as  sh tee-tool.sh PREFIX COMMAND ...  (no exec bit
# needed, so it works from a read-only source tree).

if [ "$#" -lt 2 ]; then
	echo "usage: sh tee-tool.sh PREFIX COMMAND [ARG...]" >&2
	exit 2
fi
prefix=$1
shift
out_fifo=$prefix.out.fifo
err_fifo=$prefix.err.fifo
rm -f "$out_fifo" "$err_fifo"
mkfifo "$out_fifo" "$err_fifo" || {
	echo "tee-tool.sh: cannot make named pipes at $prefix.*.fifo" >&2
	exit 126
}
tee "$prefix.out" <"$out_fifo" &
out_tee=$!
tee "$prefix.err" <"$err_fifo" >&2 &
err_tee=$!
# The redirections open the pipes' write ends, which lets the tees' opens
# finish; if the command cannot run, the shell closes them and the tees end.
"$@" >"$out_fifo" 2>"$err_fifo"
status=$?
wait "$out_tee"
wait "$err_tee"
rm -f "$out_fifo" "$err_fifo"
exit "$status"
