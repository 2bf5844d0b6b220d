# SPDX-License-Identifier: BSD-2-Clause
# Themes never stop the start: a theme with an unknown key, a theme that is
# not there, a bad config file; t onto a bad theme and the start after it;
# the picker (T) with a btop theme from $XDG_CONFIG_HOME/btop/themes, Enter
# keeping it and Esc going back; the picker in a tiny and a colourless
# terminal.
. "$top_srcdir/tests/cli/lib.sh"
. "$top_srcdir/tests/tui/tmux.sh"

CFG=$T/config/scaletop
mkdir -p "$CFG/themes" "$T/config/btop/themes"
printf 'theme[main_fg]="#ffffff"\ntheme[unknown_key]="#123456"\ntheme[title]="#12345"\n' \
	>"$T/bad.theme"
cp "$T/bad.theme" "$CFG/themes/zbad.theme"
# A btop theme in the user's btop folder, with a background of its own to tell it by.
printf '# btop theme\ntheme[main_bg]="#5f0000"\ntheme[main_fg]="#ffffff"\ntheme[cpu_box]="#00ff00"\n' \
	>"$T/config/btop/themes/fakebtop.theme"

# The header's first cells as the terminal draws them: their colours say which theme is in use.
header_look() {
	tm capture-pane -p -e -t t 2>/dev/null | sed -n 1p | cut -c1-60
}

# --- a bad theme starts, with its warning on the message line ------------------
# Wide enough for the whole warning, with its temporary path.
tm_start 200 30 "$ST" --monitor --theme "$T/bad.theme"
ok "a theme with an unknown key starts, the warning on screen" \
	tm_wait_for 'bad\.theme:2: unknown key theme\[unknown_key\]' 50
like "$(tm_screen)" 'CPU \(' "... and the panels are drawn"
like "$(tm_screen)" '\(and 1 more bad lines\)' "... saying how many more bad lines"
tm_keys q
tm_wait_exit
is "$(tm_status)" 0 "q exits 0"

tm_start 100 30 "$ST" --monitor --theme no-such-theme
ok "a theme that is not there: the default, and why" \
	tm_wait_for "using the default theme: theme 'no-such-theme' not found" 50
tm_keys q
tm_wait_exit
is "$(tm_status)" 0 "... exit 0"

"$ST" --theme '' --monitor >"$T/out" 2>"$T/err"
is "$?" 2 "--theme '': a usage error"
like "$(cat "$T/err")" "--theme '': not a theme name" "... saying so in one line"

printf 'theme = no-such-theme\n' >"$CFG/config"
tm_start 100 30 "$ST" --monitor
ok "a config naming a missing theme starts, saying so" \
	tm_wait_for "using the default theme: theme 'no-such-theme' not found" 50
tm_keys q
tm_wait_exit
is "$(tm_status)" 0 "... exit 0"
printf 'theme = mono\ncolour = red\n' >"$CFG/config"
tm_start 100 30 "$ST" --monitor
ok "a config with an unknown key starts, the warning on screen" \
	tm_wait_for "config:2: unknown key 'colour'" 50
tm_keys q
tm_wait_exit
is "$(tm_status)" 0 "... exit 0"
rm -f "$CFG/config"

# --- t onto a bad theme: the warning, and the next start still works ------------------
# mono is the last bundled theme by name, so t goes on to the user's zbad.
tm_start 100 30 "$ST" --monitor --theme mono
tm_wait_for 'CPU \(' 50
tm_keys t
ok "t onto a theme with bad lines shows its warning" \
	tm_wait_for 'zbad\.theme:2: unknown key theme\[unknown_key\]' 50
tm_keys q
tm_wait_exit
like "$(cat "$CFG/config" 2>/dev/null)" "theme = zbad" "the theme is saved all the same"
tm_start 100 30 "$ST" --monitor
ok "the next start uses it, with the warning" \
	tm_wait_for 'zbad\.theme:2: unknown key' 50
like "$(tm_screen)" 'CPU \(' "... and runs"
tm_keys q
tm_wait_exit
is "$(tm_status)" 0 "... exit 0"

# A theme that cannot be read (over the 1 MiB a theme may have) is skipped by t, saying why.
head -c 1100000 /dev/zero | tr '\0' '#' >"$CFG/themes/zzbig.theme"
tm_start 200 30 "$ST" --monitor --theme zbad
tm_wait_for 'CPU \(' 50
tm_keys t
ok "t skips a theme it cannot read, saying why" \
	tm_wait_for 'theme fakebtop; skipped one: .*zzbig\.theme: cannot read it: over 1 MiB' 50
tm_keys q
tm_wait_exit
like "$(cat "$CFG/config" 2>/dev/null)" "theme = fakebtop" "... and keeps the one after it"
rm -f "$CFG/themes/zzbig.theme"

# --- the picker: a btop theme, Enter keeps it ------------------------------------
tm_start 100 30 "$ST" --monitor --theme default
tm_wait_for 'CPU \(' 50
before=$(header_look)
tm_keys T
ok "T opens the picker" tm_wait_for 'themes [0-9]+/[0-9]+ .*enter: keep' 50
like "$(tm_screen)" "fakebtop +btop's, yours" "it lists the btop theme in \$XDG_CONFIG_HOME/btop/themes"
like "$(tm_screen)" "zbad +yours" "... and the user's own"
like "$(tm_screen)" "mono +scaletop's" "... and the bundled ones"
i=0
while [ $i -lt 60 ] && ! tm_screen | grep -q 'btop/themes/fakebtop\.theme'; do
	tm_keys Down
	sleep 0.1
	i=$((i + 1))
done
ok "down moves to it: its file is shown" tm_wait_for "$T/config/btop/themes/fakebtop\\.theme" 20
ok "... and it is applied behind the box" test "$(header_look)" != "$before"
picked=$(header_look)
tm_keys Enter
ok "enter keeps it" tm_wait_for 'theme fakebtop$|theme fakebtop ' 50
is "$(tm_screen | grep -c 'enter: keep')" 0 "... and closes the picker"
like "$(cat "$CFG/config" 2>/dev/null)" "theme = fakebtop" "... and saves it in the config"

# --- Esc goes back ------------------------------------------------------------------
tm_keys T
tm_wait_for 'enter: keep' 50
tm_keys Up
sleep 0.3
ok "up previews another theme" test "$(header_look)" != "$picked"
tm_keys Escape
ok "esc closes the picker" tm_wait_for 'theme fakebtop kept' 50
is "$(header_look)" "$picked" "... with the theme it had back in use"
like "$(cat "$CFG/config" 2>/dev/null)" "theme = fakebtop" "... and the config unchanged"
tm_keys q
tm_wait_exit
is "$(tm_status)" 0 "q exits 0"

# --- 80x24, a tiny terminal, no colour -------------------------------------------------
tm_start 80 24 "$ST" --monitor
tm_wait_for 'CPU \(' 50
tm_keys T
ok "80x24: the picker's title" tm_wait_for 'themes [0-9]+/[0-9]+' 50
ok "80x24: its last line (the file or built in) is on screen" \
	tm_wait_for 'btop/themes/fakebtop\.theme|no warnings' 20
tm_keys Escape q
tm_wait_exit
is "$(tm_status)" 0 "80x24: exit 0"

tm_start 24 6 "$ST" --monitor
tm_wait_for 'too small' 50
tm_keys T
ok "a tiny terminal: the picker as it fits" tm_wait_for 'themes? [0-9]+/[0-9]+' 50
tm_keys Down Down
tm_resize 100 30
ok "grown: the whole picker" tm_wait_for 'enter: keep' 50
tm_resize 10 3
tm_keys Up
sleep 0.3
is "$(tm_dead)" 0 "no crash at 10x3"
tm_keys Escape q
tm_wait_exit
is "$(tm_status)" 0 "... exit 0"

TUI_TERM=vt100 tm_start 100 30 "$ST" --monitor
tm_wait_for 'CPU \(' 50
tm_keys T
ok "TERM=vt100: the picker says there is no colour" tm_wait_for 'no colour here' 50
tm_keys Escape q
tm_wait_exit
is "$(tm_status)" 0 "... exit 0"

done_testing
