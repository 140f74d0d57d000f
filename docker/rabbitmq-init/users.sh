#!/bin/sh
# Run once per `compose up` by the rabbitmq-users service, as the broker's administrator: a user per service with the
# rights scripts/broker-rights/ gives it (mounted at /rights), and the load test's monitoring user. Idempotent: PUT
# replaces. Credentials reach curl on its standard input (a config file), never on its command line; passwords go into
# JSON through a file curl reads with --data-binary, escaped for JSON by sed.
set -eu
api=http://rabbitmq-1:15672/api
put() { # path body-file
  printf 'user = "%s:%s"\n' "$RABBITMQ_ADMIN_USER" "$RABBITMQ_ADMIN_PASSWORD" |
    curl -fsS -K - -H 'content-type: application/json' -X PUT "$api/$1" --data-binary "@$2"
}
json_string() { printf '"%s"' "$(printf '%s' "$1" | sed -e 's/\\/\\\\/g' -e 's/"/\\"/g')"; }
user() { # account user password tags
  body=$(mktemp)
  printf '{"password":%s,"tags":"%s"}' "$(json_string "$3")" "$4" >"$body"
  put "users/$2" "$body"
  put "permissions/%2F/$2" "/rights/$1.json"
  rm -f "$body"
}
user api "$RABBITMQ_API_USER" "$RABBITMQ_API_PASSWORD" ""
user writer "$RABBITMQ_WRITER_USER" "$RABBITMQ_WRITER_PASSWORD" ""
user aggregator "$RABBITMQ_AGGREGATOR_USER" "$RABBITMQ_AGGREGATOR_PASSWORD" ""
user monitor "$RABBITMQ_MONITOR_USER" "$RABBITMQ_MONITOR_PASSWORD" monitoring
echo "RabbitMQ users in place: a user per service and the monitoring user"
