#!/bin/bash
# The official image's healthcheck.sh, for what compose asks (--connect --innodb_initialized): the server answers on
# its socket and InnoDB is up. Root connects by the unix socket, as in the official image.
set -euo pipefail
[ "$(mariadb --protocol=socket -uroot -N -e "SELECT SUPPORT FROM information_schema.ENGINES WHERE ENGINE = 'InnoDB'")" != "NO" ]
