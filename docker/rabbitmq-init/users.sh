# Run once per `compose up` by the rabbitmq-users service, as the broker's administrator: the applications' user
# gets AMQP rights on the default vhost and no management tags; the monitoring user may only read (queue depths).
set -eu
api=http://rabbitmq-1:15672/api
put() { curl -fsS -u "$RABBITMQ_ADMIN_USER:$RABBITMQ_ADMIN_PASSWORD" -H 'content-type: application/json' -X PUT "$api/$1" -d "$2"; }
put "users/$RABBITMQ_USER" "{\"password\":\"$RABBITMQ_PASSWORD\",\"tags\":\"\"}"
put "permissions/%2F/$RABBITMQ_USER" '{"configure":".*","write":".*","read":".*"}'
put "users/$RABBITMQ_MONITOR_USER" "{\"password\":\"$RABBITMQ_MONITOR_PASSWORD\",\"tags\":\"monitoring\"}"
put "permissions/%2F/$RABBITMQ_MONITOR_USER" '{"configure":"","write":"","read":".*"}'
echo "RabbitMQ users $RABBITMQ_USER and $RABBITMQ_MONITOR_USER in place"
