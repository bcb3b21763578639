#!/bin/sh
# The container's entry point: settings from files, then the command (the server by default).
#
# NAME_FILE=/run/secrets/x sets NAME to that file's content (its trailing newlines removed), as
# Docker and Kubernetes hand secrets over: DATABASE_URL_FILE, MQTT_PASSWORD_FILE,
# S3_SECRET_ACCESS_KEY_FILE, ADMIN_PASSWORD_FILE, ... Giving both NAME and NAME_FILE, or a file
# that cannot be read, stops the start with a message naming the variable.
set -eu

for name in $(env | sed -n 's/^\([A-Z][A-Z0-9_]*\)_FILE=.*/\1/p' | sort -u); do
  eval "file=\${${name}_FILE}"
  eval "given=\${${name}+set}"
  if [ "$given" = set ]; then
    echo "Invalid configuration: both $name and ${name}_FILE are set; give one of them" >&2
    exit 1
  fi
  if [ ! -f "$file" ] || [ ! -r "$file" ]; then
    echo "Invalid configuration: ${name}_FILE names $file, which cannot be read" >&2
    exit 1
  fi
  value=$(cat "$file")
  export "$name=$value"
  unset "${name}_FILE"
done

exec "$@"
