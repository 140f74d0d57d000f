# Sourced by the MySQL image's entrypoint once, when the data volume is new: the aggregator's read-only user
# (README, "Guarantees"). The writer's user (MYSQL_USER) is created by the image itself.
docker_process_sql --database=mysql <<-EOSQL
	CREATE USER IF NOT EXISTS '${MYSQL_READER_USER}'@'%' IDENTIFIED BY '${MYSQL_READER_PASSWORD}';
	GRANT SELECT ON \`${MYSQL_DATABASE}\`.* TO '${MYSQL_READER_USER}'@'%';
EOSQL
