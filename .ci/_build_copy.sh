# Sourced by the .ci legs that build the project in a special mode: copies this checkout
# (tracked and untracked files, no build products) to a fresh directory, makes a fresh
# venv there and installs the project from the copy with the environment's build switches.
# Sets $work (removed on exit unless CHUPAI_KEEP=1), $copy and activates the venv.
# usage: build_copy NAME [pip extras]
build_copy() {
    local name=$1 extras=${2:-test}
    local root
    root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
    work=$(mktemp -d "${TMPDIR:-/tmp}/chupai-$name.XXXXXX")
    if [ "${CHUPAI_KEEP:-0}" != 1 ]; then
        trap 'rm -rf "$work"' EXIT
    fi
    copy=$work/src
    mkdir -p "$copy"
    (cd "$root" && git ls-files -z --cached --others --exclude-standard |
        xargs -0 -I{} sh -c 'test -e "{}" && printf "%s\0" "{}"' |
        tar --null -T - -cf -) | tar -xf - -C "$copy"
    python3 -m venv "$work/venv"
    # shellcheck disable=SC1091
    . "$work/venv/bin/activate"
    python -m pip install -q --upgrade pip
    echo "[$name] building in $copy ($(date +%T))"
    (cd "$copy" && pip install -q ".[$extras]")
    echo "[$name] built ($(date +%T))"
}
