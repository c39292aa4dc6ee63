#!/usr/bin/env bash
# Builds each fuzzing harness in Fuzz/harnesses with libFuzzer and
# AddressSanitizer, together with the package sources it exercises (not a
# SwiftPM target: `swift build` and `swift test` never build these), runs
# each for at most RUNS inputs or SECONDS seconds, and prints per target the
# inputs executed, executions per second and crashes. A crashing input is
# kept as Fuzz/crashes/TARGET-crash-<sha1>.
#
#   Fuzz/run.sh [TARGET...]     targets: toml theme width keys oauth discovery jwks gitcredential
#   RUNS=1000000 SECONDS_PER_TARGET=120 Fuzz/run.sh
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out=$root/Fuzz/.build
runs=${RUNS:-1000000}
limit=${SECONDS_PER_TARGET:-120}
mkdir -p "$out" "$root/Fuzz/crashes"
flags=(-O -parse-as-library -sanitize=fuzzer,address -swift-version 6 -I "$out" -L "$out")

# A package module as a static library other harnesses import.
library() {  # name sources...
    local name=$1; shift
    [ -f "$out/lib$name.a" ] && [ "$out/lib$name.a" -nt "$root/Sources/$name" ] && return 0
    swiftc "${flags[@]}" -module-name "$name" -emit-module -emit-module-path "$out/$name.swiftmodule" \
        -emit-library -static -o "$out/lib$name.a" "$@"
}

build() {  # target
    case $1 in
    toml) library ConfigFile Sources/ConfigFile/*.swift &&
        swiftc "${flags[@]}" -module-name FuzzTOML Fuzz/harnesses/toml.swift -lConfigFile -o "$out/toml" ;;
    theme) library ConfigFile Sources/ConfigFile/*.swift && library TerminalUI Sources/TerminalUI/*.swift &&
        swiftc "${flags[@]}" -module-name FuzzTheme Fuzz/harnesses/theme.swift -lTerminalUI -lConfigFile -o "$out/theme" ;;
    width) library ConfigFile Sources/ConfigFile/*.swift && library TerminalUI Sources/TerminalUI/*.swift &&
        swiftc "${flags[@]}" -module-name FuzzWidth Fuzz/harnesses/width.swift -lTerminalUI -lConfigFile -o "$out/width" ;;
    keys) library ConfigFile Sources/ConfigFile/*.swift && library TerminalUI Sources/TerminalUI/*.swift &&
        swiftc "${flags[@]}" -module-name FuzzKeys -I Sources/CNcurses Fuzz/harnesses/keys.swift \
            Sources/CursesBackend/KeyDecoder.swift -lTerminalUI -lConfigFile -lncursesw -o "$out/keys" ;;
    oauth) library SwitchboardCore Sources/SwitchboardCore/*.swift &&
        swiftc "${flags[@]}" -module-name FuzzOAuth Fuzz/harnesses/oauth.swift \
            Sources/DeviceFlow/OAuthResponse.swift Sources/DeviceFlow/HTTP.swift -lSwitchboardCore -o "$out/oauth" ;;
    discovery) library SwitchboardCore Sources/SwitchboardCore/*.swift &&
        swiftc "${flags[@]}" -module-name FuzzDiscovery Fuzz/harnesses/discovery.swift \
            Sources/DeviceFlow/Discovery.swift Sources/DeviceFlow/EndpointPolicy.swift Sources/DeviceFlow/OAuthResponse.swift \
            Sources/DeviceFlow/HTTP.swift -lSwitchboardCore -o "$out/discovery" ;;
    jwks) library SwitchboardCore Sources/SwitchboardCore/*.swift &&
        swiftc "${flags[@]}" -module-name FuzzJWKS Fuzz/harnesses/jwks.swift \
            Sources/DeviceFlow/KeySet.swift Sources/DeviceFlow/SignedToken.swift Sources/DeviceFlow/OAuthResponse.swift \
            Sources/DeviceFlow/HTTP.swift -lSwitchboardCore -o "$out/jwks" ;;
    gitcredential) swiftc "${flags[@]}" -module-name FuzzGitCredential Fuzz/harnesses/gitcredential.swift \
            Sources/ToolCredentials/GitCredentialMessage.swift -o "$out/gitcredential" ;;
    *) echo "unknown target $1" >&2; return 1 ;;
    esac
}

targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(toml theme width keys oauth discovery jwks gitcredential)
summary=()
status=0
for target in "${targets[@]}"; do
    echo "== $target: building"
    if ! build "$target" > "$out/$target-build.log" 2>&1; then
        grep -E 'error' "$out/$target-build.log" >&2
        summary+=("$target: BUILD FAILED (see $out/$target-build.log)"); status=1; continue
    fi
    corpus=$out/corpus-$target
    mkdir -p "$corpus"
    # Seeds: the package's own TOML files for the readers that take TOML.
    case $target in
    toml|theme) cp -n themes/*.toml Sources/ChooserUI/Resources/*.toml "$corpus"/ 2>/dev/null ;;
    gitcredential) printf 'protocol=https\nhost=github.com\npath=o/r.git\ncapability[]=authtype\nwwwauth[]=Basic realm="x"\n\n' > "$corpus/seed-get"
        printf 'url=https://ada@127.0.0.1:8080/r.git\npassword=t\r\n\n' > "$corpus/seed-url" ;;
    esac
    log=$out/$target.log
    echo "== $target: running (at most $runs inputs or $limit s)"
    # discovery runs an async function on the concurrency pool: a task's
    # memory is released on another thread just after the input ends, which
    # the leak check (at the end of each input) would report.
    extra=()
    [ "$target" = discovery ] && extra=(-detect_leaks=0)
    # A dictionary of the format's words, when the target has one.
    [ -f "$root/Fuzz/dictionaries/$target.dict" ] && extra+=(-dict="$root/Fuzz/dictionaries/$target.dict")
    "$out/$target" -runs="$runs" -max_total_time="$limit" -print_final_stats=1 -max_len=4096 -timeout=10 "${extra[@]}" \
        -artifact_prefix="$root/Fuzz/crashes/$target-" "$corpus" > "$log" 2>&1
    code=$?
    executed=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
    speed=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
    crashes=$(grep -c '^artifact_prefix=.*Test unit written to' "$log")
    [ -z "$crashes" ] && crashes=0
    if [ "$code" -ne 0 ] && [ "$crashes" -eq 0 ]; then crashes="1 (exit $code; see $log)"; fi
    [ "$code" -ne 0 ] && status=1
    summary+=("$target: inputs ${executed:-?}, exec/s ${speed:-?}, crashes $crashes")
    echo "${summary[-1]}"
done
echo "== summary"
printf '%s\n' "${summary[@]}"
exit $status
