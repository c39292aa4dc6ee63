#!/usr/bin/env bash
# Regenerates the QR Code fixtures in this directory with an independent
# encoder: libqrencode's CLI (Debian package `qrencode`, tested with 4.1.1).
#
#   apt-get install -y qrencode && ./make-fixtures.sh
#
# Each case runs
#   qrencode -8 -l <L|M|Q|H> -v <min version> -m 0 -t ASCII -o - <input>
# i.e. 8-bit byte mode, given level, minimum version, no margin, and text
# output where every module is two characters ("##" dark, "  " light).
# qrencode may pick a larger version than requested, and its CLI cannot force
# a mask, so the actual version is derived from the symbol size and the mask
# qrencode chose is decoded from the format information (bits XOR 0x5412).
#
# Output file NN.txt: one header line
#   hex=<input bytes> version=<v> level=<L|M|Q|H> mask=<0-7> minversion=<-v>
# followed by one line per module row, '#' dark and '.' light.
set -euo pipefail
cd "$(dirname "$0")"
command -v qrencode >/dev/null || { echo "qrencode not installed" >&2; exit 1; }
rm -f [0-9][0-9].txt

# Deterministic long text of exactly $1 bytes.
long_text() {
    local text="" i=0
    while [ "${#text}" -lt "$1" ]; do
        i=$((i + 1))
        text+="Switchboard account #$i picks profile $((i * 7919 % 1000)) on host-$((i % 13)).example.org; "
    done
    printf '%s' "${text:0:$1}"
}

n=0
# fixture LEVEL MIN_VERSION INPUT
fixture() {
    local level=$1 minver=$2 input=$3 name rows size version hex fmt bits=0 i
    n=$((n + 1))
    name=$(printf '%02d.txt' "$n")
    rows=$(qrencode -8 -l "$level" -v "$minver" -m 0 -t ASCII -o - -- "$input" \
        | sed -e 's/##/#/g' -e 's/  /./g')
    size=$(printf '%s\n' "$rows" | wc -l)
    version=$(((size - 17) / 4))
    # Format bits 14..9 at row 8, x = 0..5; bit 8 at x = 7; bit 7 at (8, 8);
    # bit 6 at (8, 7); bits 5..0 at column 8, y = 5..0.
    fmt=$(printf '%s\n' "$rows" | awk '
        { row[NR - 1] = $0 }
        END {
            s = substr(row[8], 1, 6) substr(row[8], 8, 1) substr(row[8], 9, 1)
            s = s substr(row[7], 9, 1)
            for (y = 5; y >= 0; y--) s = s substr(row[y], 9, 1)
            print s
        }')
    for ((i = 0; i < 15; i++)); do
        bits=$((bits * 2))
        if [ "${fmt:i:1}" = "#" ]; then bits=$((bits + 1)); fi
    done
    bits=$((bits ^ 0x5412))
    local levelBits=$((bits >> 13)) mask=$(((bits >> 10) & 7)) decodedLevel
    decodedLevel=$(echo "M L H Q" | cut -d' ' -f$((levelBits + 1)))
    [ "$decodedLevel" = "$level" ] || { echo "$name: level $decodedLevel != $level" >&2; exit 1; }
    hex=$(printf '%s' "$input" | od -An -v -tx1 | tr -d ' \n')
    {
        echo "hex=$hex version=$version level=$level mask=$mask minversion=$minver"
        printf '%s\n' "$rows"
    } >"$name"
    echo "$name: v$version-$level mask $mask (${#hex} hex digits)"
}

fixture L 1 "a"
fixture H 1 "1"
fixture M 1 "BCDF-GHJK"
fixture Q 1 "WDJB-MJHT"
fixture L 1 "http://127.0.0.1:8628/device?user_code=WDJB-MJHT"
fixture M 1 "http://127.0.0.1:8628/device?user_code=WDJB-MJHT"
fixture Q 1 "http://127.0.0.1:8628/device?user_code=WDJB-MJHT"
fixture H 1 "http://127.0.0.1:8628/device?user_code=WDJB-MJHT"
fixture Q 1 "https://example.com/activate"
fixture M 1 "Zoë Ångström ✓"
fixture H 1 "日本語のテキスト"
fixture Q 1 "ÄÖÜäöüß€"
fixture H 1 "🔑 Switchboard 🔐"
fixture L 5 "Hello, World!"
fixture M 7 "BCDF-GHJK"
fixture M 1 "0123456789"
fixture L 1 $'line one\nline two\ttab'
fixture Q 1 '{"device":"tty1","code":"ABCD-EFGH","expires_in":900}'
fixture M 1 '~!@#$%^&*()_+`-=[]{}|;:",./<>? \'
fixture Q 1 "$(long_text 60)"
fixture H 1 "$(long_text 120)"
fixture L 1 "$(long_text 150)"
fixture M 1 "$(long_text 180)"
fixture M 1 "$(long_text 181)"
fixture M 1 "$(long_text 300)"
fixture Q 1 "$(long_text 500)"
fixture L 1 "$(long_text 1000)"
fixture H 1 "$(long_text 1200)"
fixture M 1 "$(long_text 2300)"
fixture L 40 "BCDF-GHJK"
