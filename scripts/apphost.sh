# The running AppHost (src/Supermarket.AppHost) started, stopped and waited for, through the Aspire CLI: a local tool
# pinned in dotnet-tools.json, which finds the AppHost of this checkout. Sourced by run.sh, services.sh, test.sh and
# loadtest/measure.sh. It holds the CLI's call (aspire), a resource's wait (resource_wait), the AppHost's stop
# (stop_apphost), the state folder's private files, and the addresses run.sh prints (api_url, dashboard_url, read from
# files). Asking the AppHost what it runs (each resource's process, the resources of a kind, an endpoint's address) is
# the load test's `system` command (`system pids|names|url`, loadtest/Supermarket.LoadTest/Operations/SystemCommandLine.cs
# through loadtest/Supermarket.Faults/AspireCli.cs), written once in C# and tested there.
# shellcheck shell=bash

ROOT=${ROOT:?}
APPHOST=$ROOT/src/Supermarket.AppHost
# The local state (as LocalState reads it): accounts, the services' data, the chaos run's notes.
export STATE=${SUPERMARKET_STATE_DIR:-$ROOT/.local}
# The CLI's telemetry would leave this machine; nothing does.
export ASPIRE_CLI_TELEMETRY_OPTOUT=1
export DOTNET_CLI_TELEMETRY_OPTOUT=1

# A log or report under the state folder, its owner's alone whatever the umask: consoles and reports may quote a
# secret (the dashboard's login token, a setting). A redirect or an append into the file keeps its mode; a folder made
# so keeps what the load test writes in it from other accounts (the state folder itself stays open: MariaDB's data in
# it is the mysql account's).
private_file() { # path
  mkdir -p "$(dirname "$1")"
  rm -f "$1"
  (umask 077 && : >"$1")
}
private_dir() { # path
  mkdir -p "$1"
  chmod 700 "$1"
}

aspire() { # command [args...]
  local command=$1; shift
  (cd "$ROOT" && dotnet tool run aspire "$command" --apphost "$APPHOST" --non-interactive --nologo "$@")
}

# Where the public API answers (the API itself, or nginx in front of its replicas): the API's own Urls, the port the
# AppHost gives the public API (SystemTopology reads the same file).
api_url() { jq -er .Urls "$ROOT/src/Supermarket.Api/appsettings.json"; }

# The dashboard's address without its login token (which the AppHost's answer in .local/apphost.json holds).
dashboard_url() { jq -r '.dashboardUrl | sub("/login[?].*$"; "")' "$STATE/apphost.json"; }

# Waits for a resource to be healthy (the default) or down.
resource_wait() { # name [healthy|down] [seconds]
  aspire wait "$1" --status "${2:-healthy}" --timeout "${3:-120}" >/dev/null
}

# Stops the AppHost of this checkout and waits until every process it ran is gone (DCP stops them after the AppHost
# has exited; RabbitMQ takes a few seconds), so that the next start finds its ports free. Bounded: what is left after
# a minute is killed. It reads the processes from `aspire describe` itself, not through the load test's `system pids`:
# a stop must not depend on a built load test.
stop_apphost() {
  local pids pid deadline=$((SECONDS + 60))
  apphost_running || return 0
  pids=$( (aspire describe --format Json 2>/dev/null | jq -r '.resources[].properties["executable.pid"] // empty') || true)
  for pid in $pids; do pids+=" $(pgrep -P "$pid" | tr '\n' ' ' || true)"; done
  aspire stop >/dev/null
  for pid in $pids; do
    while alive "$pid" && ((SECONDS < deadline)); do sleep 0.5; done
    if alive "$pid"; then kill -KILL "$pid"; fi
  done
}

# PID 1 here does not reap orphans, so `kill -0` is true for a zombie: look at the state too.
alive() { local stat; stat=$(ps -o stat= -p "$1" 2>/dev/null) && [[ $stat != Z* ]]; }

apphost_running() { [ "$(cd "$ROOT" && dotnet tool run aspire ps --format Json --non-interactive --nologo 2>/dev/null | jq --arg p "$APPHOST/Supermarket.AppHost.csproj" '[.[] | select(.appHostPath == $p)] | length')" -gt 0 ]; }
