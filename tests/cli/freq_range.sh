# SPDX-License-Identifier: BSD-2-Clause
# The frequency range collector live: a short run's steps each have
# freq_range, an object whose ends are in order where the machine says its
# CPUs' frequency (Linux: cpufreq's scaling_cur_freq, else /proc/cpuinfo's
# "cpu MHz"), null where it does not; run and show print the line.
. "$top_srcdir/tests/cli/lib.sh"

[ -x "$SCALETOP" ] || bail_out "no binary at $SCALETOP: build it first (make scaletop)"
have_python || bail_out "python3 is missing: install python3 (./bootstrap check does)"
tap_tmpdir
T=$TAP_TMP
export TMPDIR="$T"

# Whether the machine says a frequency, probed from the machine itself.
says=no
if ls /sys/devices/system/cpu/cpu*/cpufreq/scaling_cur_freq >/dev/null 2>&1 ||
	grep -qi '^cpu MHz' /proc/cpuinfo 2>/dev/null; then
	says=yes
fi
diag "the machine says its CPUs' frequency: $says"

ok_run fail "run -w cpu -n 1,2 -d 1 -o x.json" \
	"$SCALETOP" run -w cpu -n 1,2 -d 1 --warmup 0.2 --interval 0.1 -q -o "$T/x.json"
got=$(json_get "$T/x.json" '[s.get("freq_range", "absent") for s in d["steps"]]')
diag "freq_range per step: $got"
if [ "$says" = yes ]; then
	ok "every step has a range, min <= max, above 0" "$PYTHON" -c '
import json, sys
st = json.load(open(sys.argv[1]))["steps"]
sys.exit(0 if st and all(isinstance(s.get("freq_range"), dict) and
    0 < s["freq_range"]["min_mhz"] <= s["freq_range"]["max_mhz"] for s in st) else 1)' "$T/x.json"
	"$SCALETOP" show "$T/x.json" >"$T/show.out" 2>&1
	like "$(cat "$T/show.out")" "CPU MHz over the window: N=1 [0-9]+-[0-9]+, N=2 [0-9]+-[0-9]+" \
		"show prints each step's range"
else
	ok "every step's range is null: the OS does not say" "$PYTHON" -c '
import json, sys
st = json.load(open(sys.argv[1]))["steps"]
sys.exit(0 if st and all("freq_range" in s and s["freq_range"] is None for s in st) else 1)' \
		"$T/x.json"
fi
done_testing
