#!/usr/bin/env bash
# A Tessera cluster on this machine (docs/scale-out.md, "Local cluster"): 2 servers and 1 worker
# (or any mix of ROLE=server, ROLE=web and ROLE=worker processes) on a fresh PostgreSQL database,
# a Mosquitto with dynamic security and an S3-compatible server (s3rver), all on free loopback
# ports. What the multi-process test runs on.
#
#   deploy/local/cluster.sh up [DATA_DIR]              starts it; prints KEY=value lines
#   deploy/local/cluster.sh restart NAME [DATA_DIR]    restarts one process (server-1, web-1,
#                                                      worker-1 ...) with the settings it had
#   deploy/local/cluster.sh down [DATA_DIR]            stops what `up` started, drops its database
#
# DATA_DIR: the state folder (pids, logs, each process's own folder, Mosquitto's and s3rver's
# files); default a new temp folder, printed. `restart` and `down` take the same DATA_DIR.
# CLUSTER_PG_URL: the PostgreSQL server to make the database on (default the local one, user
# postgres). CLUSTER_REDIS_URL: given to the processes as REDIS_URL when set.
# CLUSTER_SERVERS / CLUSTER_WEBS / CLUSTER_WORKERS: how many of each role (default 2, 0 and 1).
# Every other variable of the caller's environment reaches the Tessera processes (JOB_LEASE_MS,
# LOG_LEVEL, ...); BUILTIN_UPSCALER defaults to lanczos here, since ESRGAN on a small machine is
# slow. CLUSTER_ENV_SERVER_1, CLUSTER_ENV_WEB_1, CLUSTER_ENV_WORKER_1, ...: 'KEY=value ...' for
# that process alone.
#
# Each process's whole environment is written to DATA_DIR/NAME/process.env (mode 600: it holds
# the broker's and the store's secrets), its PORT the one it got, and `restart` starts it again
# from that file alone: the same settings and address, whatever the shell that restarts it has.
# Edit the file to change a setting of that process, then restart it.
# Needs `npm ci && npm run build`, and Debian's mosquitto and postgresql-client.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
MAIN="$ROOT/server/dist/main.js"
USERS_JS="$ROOT/server/dist/commands/users.js"
MOSQUITTO=/usr/sbin/mosquitto
MOSQUITTO_CTRL=/usr/bin/mosquitto_ctrl
DYNSEC_PLUGIN=/usr/lib/x86_64-linux-gnu/mosquitto_dynamic_security.so
SERVICE_USER=tessera-service
BUCKET=tessera
START_TIMEOUT_S=${CLUSTER_START_TIMEOUT_S:-90}

die() {
  echo "cluster.sh: $*" >&2
  exit 1
}

usage() {
  echo "usage: deploy/local/cluster.sh up|down [DATA_DIR] | restart NAME [DATA_DIR]" >&2
  exit 2
}

# A free loopback port, as the OS hands it out (bound to port 0, then released).
free_port() {
  node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'
}

random_secret() {
  node -e 'console.log(require("crypto").randomBytes(24).toString("base64url"))'
}

# The URL with its database (path) replaced.
with_database() {
  node -e 'const u=new URL(process.argv[1]);u.pathname="/"+process.argv[2];console.log(u.href)' "$1" "$2"
}

alive() {
  [ -n "$1" ] && kill -0 "$1" 2>/dev/null
}

# Waits until a TCP port of the loopback accepts connections, or the process is gone.
wait_port() {
  local port=$1 pid=$2 name=$3 deadline=$((SECONDS + START_TIMEOUT_S))
  until (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; do
    alive "$pid" || die "$name exited at start (log: $STATE/logs/$name.log)"
    [ $SECONDS -lt $deadline ] || die "$name did not open port $port (log: $STATE/logs/$name.log)"
    sleep 0.1
  done
}

# Starts a process in the background with its output added to logs/NAME.log and its pid in
# pids/NAME; prints the pid.
start() {
  local name=$1
  shift
  nohup "$@" >>"$STATE/logs/$name.log" 2>&1 </dev/null &
  echo $! >"$STATE/pids/$name"
  echo $!
}

# Writes this shell's exported environment, with NAME's own settings, to NAME/process.env: every
# setting the process is started with (a restart reads it back, and nothing else).
save_process_env() {
  local name=$1 role=$2 own=$3 file="$STATE/$1/process.env" var
  (
    export ROLE="$role" INSTANCE_NAME="$name" DATA_DIR="$STATE/$name"
    # shellcheck disable=SC2163,SC2086 # the KEY=value words of CLUSTER_ENV_<NAME> are meant to split
    for var in $own; do export "$var"; done
    umask 077
    for var in $(compgen -e); do
      case $var in
        PWD | OLDPWD | SHLVL | _ | CLUSTER_*) ;;
        *) printf 'export %s=%q\n' "$var" "${!var}" ;;
      esac
    done >"$file"
  )
  chmod 600 "$file"
}

# The log of NAME from byte $2 on (what the process started last has written).
log_since() {
  tail -c "+$(($2 + 1))" "$STATE/logs/$1.log" 2>/dev/null
}

# Starts NAME from its process.env alone and waits until it is ready: the line every role
# prints once it runs ("Tessera ... is running"), then, for a server or web process, its
# /api/health. Prints the base URL (server, web) or nothing (worker).
start_from_saved() {
  local name=$1 file="$STATE/$1/process.env" role pid url="" offset=0
  local deadline=$((SECONDS + START_TIMEOUT_S))
  role=$(sed -n 's/^export ROLE=//p' "$file")
  [ -f "$STATE/logs/$name.log" ] && offset=$(stat -c %s "$STATE/logs/$name.log")
  # shellcheck disable=SC2016 # expanded by the inner shell
  pid=$(start "$name" env -i "$BASH" -c '. "$1" && exec node "$2"' tessera "$file" "$MAIN")
  # (grep reads it all: an early exit would fail the pipe under pipefail)
  until log_since "$name" "$offset" | grep 'Tessera.* is running' >/dev/null; do
    alive "$pid" || die "$name exited at start (log: $STATE/logs/$name.log)"
    [ $SECONDS -lt $deadline ] || die "$name did not start (log: $STATE/logs/$name.log)"
    sleep 0.2
  done
  [ "$role" = worker ] && return
  url=$(log_since "$name" "$offset" | sed -n 's/.*Tessera.* is running at \(http:[^ ]*\).*/\1/p' | tail -n 1)
  [ -n "$url" ] || die "$name printed no address (log: $STATE/logs/$name.log)"
  until node -e 'fetch(process.argv[1]).then((r)=>process.exit(r.ok?0:1),()=>process.exit(1))' \
    "$url/api/health"; do
    alive "$pid" || die "$name exited at start (log: $STATE/logs/$name.log)"
    [ $SECONDS -lt $deadline ] || die "$name: $url/api/health did not answer"
    sleep 0.2
  done
  # PORT=0 took a free port: keep it, so that a restart answers at the same address.
  sed -i "s|^export PORT=.*|export PORT=${url##*:}|" "$file"
  echo "$url"
}

# Starts one Tessera process of this cluster (up): its settings saved, then started from them.
start_tessera() {
  local name=$1 role=$2
  # CLUSTER_ENV_SERVER_2='KEY=value ...': settings of that process alone (a test's fault point).
  local own_env="CLUSTER_ENV_${name^^}"
  own_env=${own_env//-/_}
  mkdir -p "$STATE/$name"
  save_process_env "$name" "$role" "${!own_env:-}"
  start_from_saved "$name"
}

# Stops NAME (SIGTERM, SIGKILL after STOP_TIMEOUT_S) and starts it again from its process.env;
# prints PID= and, for a server or web process, URL=.
restart() {
  local name=$1 pid url
  [ -f "$STATE/$name/process.env" ] || die "$STATE holds no process named $name"
  pid=$(cat "$STATE/pids/$name" 2>/dev/null || true)
  if alive "$pid"; then
    kill -TERM "$pid" 2>/dev/null || true
    local deadline=$((SECONDS + ${CLUSTER_STOP_TIMEOUT_S:-30}))
    while alive "$pid" && [ $SECONDS -lt $deadline ]; do sleep 0.1; done
    if alive "$pid"; then kill -KILL "$pid" 2>/dev/null || true; fi
    while alive "$pid"; do sleep 0.1; done
  fi
  url=$(start_from_saved "$name")
  local new_pid
  new_pid=$(cat "$STATE/pids/$name")
  # cluster.env lists the pids: the old one gives way to the new.
  if [ -n "$pid" ] && [ -f "$STATE/cluster.env" ]; then
    sed -i -E "/_PIDS=/s/(=|,)$pid(,|\$)/\1$new_pid\2/" "$STATE/cluster.env"
  fi
  echo "PID=$new_pid"
  if [ -n "$url" ]; then echo "URL=$url"; fi
}

up() {
  [ -f "$MAIN" ] || die "$MAIN is missing: run npm ci && npm run build first"
  [ -d "$ROOT/node_modules/s3rver" ] || die "s3rver is missing from node_modules: run npm ci"
  for file in "$MOSQUITTO" "$MOSQUITTO_CTRL" "$DYNSEC_PLUGIN"; do
    [ -e "$file" ] || die "$file is missing: apt-get install mosquitto"
  done
  command -v psql >/dev/null || die "psql is missing: apt-get install postgresql-client"

  if [ -n "${DATA_DIR:-}" ]; then
    STATE=$(mkdir -p "$DATA_DIR" && cd "$DATA_DIR" && pwd)
    [ ! -e "$STATE/cluster.env" ] || die "$STATE already holds a cluster: run down first"
  else
    STATE=$(mktemp -d "${TMPDIR:-/tmp}/tessera-cluster.XXXXXX")
    touch "$STATE/.made-by-cluster"
  fi
  # Mosquitto, started as root, drops to the mosquitto user, which must reach its folder.
  chmod 755 "$STATE"
  mkdir -p "$STATE/pids" "$STATE/logs"
  # Anything that fails from here on leaves a state `down` can clean up.
  trap 'echo "cluster.sh: start failed; stopping what started" >&2; down_state "$STATE" >&2' EXIT

  # PostgreSQL: a fresh database of a name of its own.
  local pg_url=${CLUSTER_PG_URL:-postgres://postgres@127.0.0.1:5432/postgres}
  local database
  database="tessera_cluster_$(node -e 'console.log(require("crypto").randomBytes(6).toString("hex"))')"
  echo "$pg_url" >"$STATE/pg-admin-url"
  echo "$database" >"$STATE/pg-database"
  psql "$pg_url" -qAt -v ON_ERROR_STOP=1 -c "CREATE DATABASE $database" >/dev/null
  local database_url
  database_url=$(with_database "$pg_url" "$database")

  # Mosquitto as deploy/mosquitto ships it, on two loopback ports, with a dynsec file of its own.
  local mqtt_port ws_port service_password
  mkdir -p "$STATE/mosquitto"
  chmod 755 "$STATE/mosquitto"
  service_password=$(random_secret)
  "$MOSQUITTO_CTRL" dynsec init "$STATE/mosquitto/dynsec.json" "$SERVICE_USER" "$service_password" \
    >/dev/null
  if [ "$(id -u)" = 0 ] && id mosquitto >/dev/null 2>&1; then
    chown -R mosquitto:mosquitto "$STATE/mosquitto"
  fi
  mqtt_port=$(free_port)
  ws_port=$(free_port)
  while [ "$ws_port" = "$mqtt_port" ]; do ws_port=$(free_port); done
  sed -e "s|^listener 1883\$|listener $mqtt_port 127.0.0.1|" \
    -e "s|^listener 9001\$|listener $ws_port|" \
    -e "s|^plugin_opt_config_file .*|plugin_opt_config_file $STATE/mosquitto/dynsec.json|" \
    "$ROOT/deploy/mosquitto/mosquitto.conf" >"$STATE/mosquitto/mosquitto.conf"
  chmod 644 "$STATE/mosquitto/mosquitto.conf"
  local mosquitto_pid
  mosquitto_pid=$(start mosquitto "$MOSQUITTO" -c "$STATE/mosquitto/mosquitto.conf")
  wait_port "$mqtt_port" "$mosquitto_pid" mosquitto
  wait_port "$ws_port" "$mosquitto_pid" mosquitto

  # The S3-compatible server, with its bucket.
  local s3_pid s3_port deadline=$((SECONDS + START_TIMEOUT_S))
  s3_pid=$(cd "$ROOT" && start s3rver node --import tsx "$ROOT/deploy/local/s3rver.ts" "$STATE/s3" "$BUCKET" "$STATE/s3-port")
  until [ -s "$STATE/s3-port" ]; do
    alive "$s3_pid" || die "s3rver exited at start (log: $STATE/logs/s3rver.log)"
    [ $SECONDS -lt $deadline ] || die "s3rver did not start (log: $STATE/logs/s3rver.log)"
    sleep 0.1
  done
  s3_port=$(cat "$STATE/s3-port")

  # What every Tessera process of this cluster is given (and `npm run users`, through USERS_CMD).
  export HOST=127.0.0.1 PORT=0
  export DATABASE_URL=$database_url
  export FILES_URL="s3://$BUCKET/files"
  export S3_ENDPOINT="http://127.0.0.1:$s3_port" S3_REGION=us-east-1 S3_FORCE_PATH_STYLE=true
  export S3_ACCESS_KEY_ID=S3RVER S3_SECRET_ACCESS_KEY=S3RVER
  export MQTT_URL="mqtt://127.0.0.1:$mqtt_port"
  export MQTT_USERNAME=$SERVICE_USER MQTT_PASSWORD=$service_password
  export PUBLIC_MQTT_URL="ws://127.0.0.1:$ws_port/mqtt"
  export BUILTIN_UPSCALER=${BUILTIN_UPSCALER:-lanczos}
  if [ -n "${CLUSTER_REDIS_URL:-}" ]; then export REDIS_URL=$CLUSTER_REDIS_URL; fi
  local name
  {
    for name in DATABASE_URL FILES_URL S3_ENDPOINT S3_REGION S3_FORCE_PATH_STYLE S3_ACCESS_KEY_ID \
      S3_SECRET_ACCESS_KEY MQTT_URL MQTT_USERNAME MQTT_PASSWORD PUBLIC_MQTT_URL REDIS_URL; do
      if [ -n "${!name:-}" ]; then printf 'export %s=%q\n' "$name" "${!name}"; fi
    done
  } >"$STATE/tessera.env"
  chmod 600 "$STATE/tessera.env"
  cat >"$STATE/users" <<USERS
#!/usr/bin/env bash
# npm run users against this cluster: $STATE/users add NAME (password on stdin)
set -a
. $(printf %q "$STATE/tessera.env")
set +a
export DATA_DIR=$(printf %q "$STATE/users-cli")
exec node $(printf %q "$USERS_JS") "\$@"
USERS
  chmod 700 "$STATE/users"

  # The processes one after the other: the first sets up the service's role on Mosquitto, which
  # closes the service's connections, so the others start after it.
  local servers=${CLUSTER_SERVERS:-2} webs=${CLUSTER_WEBS:-0} workers=${CLUSTER_WORKERS:-1} i
  local urls=() server_pids=() web_urls=() web_pids=() worker_pids=()
  for ((i = 1; i <= servers; i++)); do
    urls+=("$(start_tessera "server-$i" server)")
    server_pids+=("$(cat "$STATE/pids/server-$i")")
  done
  for ((i = 1; i <= webs; i++)); do
    web_urls+=("$(start_tessera "web-$i" web)")
    web_pids+=("$(cat "$STATE/pids/web-$i")")
  done
  for ((i = 1; i <= workers; i++)); do
    start_tessera "worker-$i" worker
    worker_pids+=("$(cat "$STATE/pids/worker-$i")")
  done
  trap - EXIT

  local admin_password
  admin_password=$(cat "$STATE"/logs/server-*.log "$STATE"/logs/web-*.log 2>/dev/null |
    sed -n "s/.*created user 'admin' with password \([^ ]*\).*/\1/p" | sed -n 1p || true)
  {
    echo "DATA_DIR=$STATE"
    echo "SERVER_URLS=$(IFS=,; echo "${urls[*]}")"
    echo "WEB_URLS=$(IFS=,; echo "${web_urls[*]}")"
    echo "MQTT_PUBLIC_URL=$PUBLIC_MQTT_URL"
    echo "USERS_CMD=$STATE/users"
    echo "MQTT_URL=$MQTT_URL"
    echo "DATABASE_URL=$DATABASE_URL"
    echo "FILES_URL=$FILES_URL"
    echo "S3_ENDPOINT=$S3_ENDPOINT"
    echo "S3_DIR=$STATE/s3"
    echo "SERVER_PIDS=$(IFS=,; echo "${server_pids[*]}")"
    echo "WEB_PIDS=$(IFS=,; echo "${web_pids[*]}")"
    echo "WORKER_PIDS=$(IFS=,; echo "${worker_pids[*]}")"
    echo "MOSQUITTO_PID=$mosquitto_pid"
    echo "S3_PID=$s3_pid"
    echo "LOGS=$STATE/logs"
    if [ -n "$admin_password" ]; then echo "ADMIN_PASSWORD=$admin_password"; fi
  } | tee "$STATE/cluster.env"
}

# Stops every process of the pid files (Tessera first, the broker and S3 last): SIGTERM, then
# SIGKILL after 10 s; drops the database; removes the folder when `up` made it.
down_state() {
  local state=$1 file pid group
  [ -d "$state/pids" ] || die "$state holds no cluster"
  for group in tessera services; do
    local pids=() files=()
    # The globs expand in the pids folder itself (an unmatched one stays a name that is no file).
    if [ "$group" = tessera ]; then
      files=("$state"/pids/server-* "$state"/pids/web-* "$state"/pids/worker-*)
    else
      files=("$state/pids/mosquitto" "$state/pids/s3rver")
    fi
    for file in "${files[@]}"; do
      [ -f "$file" ] || continue
      pid=$(cat "$file")
      if alive "$pid"; then
        kill -TERM "$pid" 2>/dev/null || true
        pids+=("$pid")
      fi
    done
    local deadline=$((SECONDS + 10))
    for pid in "${pids[@]}"; do
      while alive "$pid" && [ $SECONDS -lt $deadline ]; do sleep 0.1; done
      if alive "$pid"; then kill -KILL "$pid" 2>/dev/null || true; fi
    done
  done
  (cd "$state/pids" && rm -f -- *)
  if [ -f "$state/pg-database" ]; then
    psql "$(cat "$state/pg-admin-url")" -qAt -c \
      "DROP DATABASE IF EXISTS $(cat "$state/pg-database") WITH (FORCE)" >/dev/null
    rm -f "$state/pg-database"
  fi
  rm -f "$state/cluster.env"
  if [ -f "$state/.made-by-cluster" ] && [ -z "${CLUSTER_KEEP:-}" ]; then
    rm -rf -- "$state"
  fi
  echo "stopped the cluster in $state"
}

case "${1:-}" in
  up)
    [ $# -le 2 ] || usage
    if [ $# -eq 2 ]; then DATA_DIR=$2; fi
    up
    ;;
  restart)
    [ $# -ge 2 ] && [ $# -le 3 ] || usage
    state=${3:-${DATA_DIR:-}}
    [ -n "$state" ] || die "restart: which cluster? give its DATA_DIR (printed by up)"
    STATE=$(cd "$state" && pwd)
    [ -f "$STATE/cluster.env" ] || die "$STATE holds no running cluster"
    cd "$ROOT"
    restart "$2"
    ;;
  down)
    [ $# -le 2 ] || usage
    state=${2:-${DATA_DIR:-}}
    [ -n "$state" ] || die "down: which cluster? give its DATA_DIR (printed by up)"
    cd "$ROOT"
    down_state "$(cd "$state" && pwd)"
    ;;
  *) usage ;;
esac
