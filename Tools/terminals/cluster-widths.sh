#!/usr/bin/env bash
# Runs inside a terminal (started by measure-kitty.sh): writes each test cluster at the start of a
# line, asks the cursor position (CSI 6 n) and writes the columns the terminal advanced, one line
# per case, to the file $1: "NAME<TAB>CODE POINTS<TAB>COLUMNS". First with mode 2027 as the
# terminal starts, then with it set (CSI ? 2027 h), and the terminal's DECRQM answer for the mode.
set -u
out=$1
exec </dev/tty
saved=$(stty -g)
stty -icanon -echo min 0 time 20
# NAME and the code points, in hex.
cases=(
  "a:61"
  "devanagari-ka-aa:915 93E"
  "thai-ko-telugu-candrabindu:E01 C01"
  "leading-jamo-x6:1111 1111 1111 1111 1111 1111"
  "sinhala-ka-vowel-sign-r:D9A DD8"
  "devanagari-kssi:915 94D 937 93F"
  "thumbs-up-medium-skin:1F44D 1F3FD"
  "sun-vs16:2600 FE0F"
  "x-ka-aa-y:78 915 93E 79"
  "arabic-number-sign-b:600 62"
  "family-zwj:1F468 200D 1F469 200D 1F467"
  "flag-fr:1F1EB 1F1F7"
  "keycap-hash:23 FE0F 20E3"
  "shaking-face:1FAE8"
  "box-horizontal:2500"
)
reply() {  # reads up to the terminator $1 and prints what came
  local r=""
  IFS= read -r -d "$1" r || true
  printf '%s' "$r"
}
column() {  # columns advanced after writing $1 at the start of a line
  printf '\r\033[2K%s\033[6n' "$1" >/dev/tty
  local r
  r=$(reply R)
  r=${r##*;}
  printf '%s' "$((r - 1))"
}
text_of() {
  local s="" cp
  for cp in $1; do s+=$(printf "\\U$(printf '%08X' "0x$cp")"); done
  printf '%s' "$s"
}
{
  printf '# terminal: %s\n' "${TERMINAL_NAME:-unknown}"
  printf '\033[?2027$p' >/dev/tty
  mode=$(reply y)
  printf '# mode 2027 DECRQM reply: %q\n' "$mode"
  for setting in initial 2027-set; do
    [ "$setting" = 2027-set ] && printf '\033[?2027h' >/dev/tty
    for c in "${cases[@]}"; do
      name=${c%%:*}
      cps=${c#*:}
      printf '%s\t%s\t%s\t%s\n' "$setting" "$name" "$cps" "$(column "$(text_of "$cps")")"
    done
  done
} >"$out"
printf '\r\033[2K' >/dev/tty
stty "$saved"
