#!/usr/bin/env bash
# Deckhand's one set-up script.
#   ./setup.sh          set up .venv (idempotent) and say what was done
#   ./setup.sh run ...  set up if needed, then start Deckhand (extra args go to `deckhand run`)
#   ./setup.sh test ... set up if needed (with test tools and a headless Chromium), then run the suite
#   ./setup.sh install [--dry-run]   Raspberry Pi appliance install (packages, user, units)
set -euo pipefail
cd "$(dirname "$0")"
ROOT=$(pwd)
VENV="$ROOT/.venv"
STAMP="$VENV/.deckhand-installed"

say() {
  # say CODE [name=value ...]: the sentence of CODE (device/setup_words.py) in the shell's language.
  local line
  line=$(python3 "$ROOT/device/setup_words.py" "$@" 2>/dev/null) || line="$*"
  printf 'setup: %s\n' "$line"
}

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@";
  elif command -v sudo >/dev/null 2>&1; then sudo "$@";
  else say need_root command="$*"; return 1; fi
}

is_pi() { grep -qs 'Raspberry Pi' /proc/device-tree/model; }

APT_UPDATED=0
apt_install() {
  # Installs only the Debian packages that are missing.
  local missing=()
  for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  command -v apt-get >/dev/null 2>&1 || { say no_apt packages="${missing[*]}"; return 1; }
  if [ $APT_UPDATED -eq 0 ]; then as_root apt-get update -qq; APT_UPDATED=1; fi
  say apt_install packages="${missing[*]}"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

pick_python() {
  # A shim (pyenv) may answer `command -v` for a version it then refuses to run: ask quietly.
  for py in python3.13 python3.12 python3.11 python3; do
    if command -v "$py" >/dev/null 2>&1 && "$py" -c 'import sys; sys.exit(sys.version_info < (3, 11))' >/dev/null 2>&1; then
      echo "$py"; return 0
    fi
  done
  say python_needed; return 1
}

setup() {
  local extras="$1"   # pip extras beyond the base: "" or "test"
  local want
  if is_pi; then
    # On Raspberry Pi OS the camera stack only works from Debian's packages: pip's numpy or
    # OpenCV break picamera2, and PyPI's gpiozero cannot open the Pi 5's GPIO chip.
    # Debian's numpy takes its BLAS from the alternatives: without OpenBLAS that is the
    # reference BLAS, a third of a frame's instructions on a Pi (bench/arm_count.py).
    apt_install python3-venv python3-picamera2 python3-opencv python3-gpiozero python3-lgpio python3-numpy \
      libopenblas0-serial
    want="pi${extras:+,$extras}"
  else
    want="pc${extras:+,$extras}"
  fi
  local pyhash
  pyhash=$(sha256sum < pyproject.toml | cut -c1-16)
  if stamp_covers "$pyhash" "$want" && [ -x "$VENV/bin/python" ]; then
    say up_to_date extras="$want"
    return 0
  fi
  local py; py=$(pick_python)
  if [ ! -x "$VENV/bin/python" ]; then
    if ! "$py" -m venv --help >/dev/null 2>&1 || ! "$py" -c 'import ensurepip' >/dev/null 2>&1; then
      apt_install python3-venv
    fi
    if is_pi; then
      say venv_system
      "$py" -m venv --system-site-packages "$VENV"
    else
      say venv
      "$py" -m venv "$VENV"
    fi
  fi
  quietly "$VENV/bin/python" -m pip install -q --upgrade pip setuptools wheel
  local spec=".[${want#pi,}]"
  if is_pi; then
    # Only what apt does not provide: the base dependencies, plus test tools if asked.
    if [ -n "$extras" ]; then spec=".[$extras]"; else spec="."; fi
  fi
  say pip_install spec="$spec"
  quietly "$VENV/bin/python" -m pip install -q -e "$spec"
  # What is installed now: these extras, plus those a run before installed from the
  # same pyproject.toml (pip keeps them), so `run` after `test` does not reinstall.
  local have="$want"
  if [ -f "$STAMP" ] && [ "$(cut -d' ' -f1 "$STAMP")" = "$pyhash" ]; then
    have="$want,$(cut -d' ' -f2 "$STAMP")"
  fi
  echo "$pyhash $have" > "$STAMP"
  say installed extras="$want"
}

stamp_covers() {
  # Whether the stamp says this pyproject.toml was installed with every extra in $2.
  local pyhash="$1" want="$2" hash have item
  [ -f "$STAMP" ] || return 1
  read -r hash have < "$STAMP" || return 1
  [ "$hash" = "$pyhash" ] || return 1
  IFS=, read -ra items <<< "$want"
  for item in "${items[@]}"; do
    case ",$have," in *",$item,"*) ;; *) return 1 ;; esac
  done
}

quietly() {
  # Run a command with its output kept aside (pip's warnings about unused index
  # locations and the like), shown only if it fails.
  local out
  out=$(mktemp)
  if "$@" >"$out" 2>&1; then
    rm -f "$out"
  else
    local status=$?
    cat "$out" >&2
    rm -f "$out"
    say failed command="$*"
    return $status
  fi
}

setup_browser() {
  # Browser tests drive Debian's Chromium through Playwright; nothing is downloaded by Playwright.
  if ! command -v chromium >/dev/null 2>&1; then
    apt_install chromium fonts-dejavu-core || say no_chromium
  fi
}

cmd="${1:-}"
[ $# -gt 0 ] && shift
case "$cmd" in
  "")
    setup ""
    say done
    ;;
  run)
    setup ""
    exec "$VENV/bin/deckhand" run "$@"
    ;;
  test)
    setup "test"
    setup_browser
    # Spoken announcements are tested by rendering espeak-ng's speech to a file.
    command -v espeak-ng >/dev/null 2>&1 || apt_install espeak-ng || say no_espeak
    export DECKHAND_CHROMIUM="${DECKHAND_CHROMIUM:-$(command -v chromium || true)}"
    exec "$VENV/bin/python" -m pytest "$@"
    ;;
  install)
    setup ""
    exec "$VENV/bin/deckhand" install "$@"
    ;;
  *)
    say usage >&2
    exit 2
    ;;
esac
