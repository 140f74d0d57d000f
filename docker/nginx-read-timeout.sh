#!/bin/bash
# Run by the nginx image's entrypoint before nginx starts (mounted in /docker-entrypoint.d/): nginx waits for an
# answer as long as the API says a proxy must (Ingest:ProxyReadTimeoutSeconds in its /about, the request deadline and
# a margin), so the API always answers first. compose starts nginx once an API replica is healthy. The image has
# neither curl nor jq: bash's /dev/tcp and grep over the JSON. /about answers on the API's management port, which
# nginx does not serve.
set -euo pipefail
exec 3<>/dev/tcp/api/8081
printf 'GET /about HTTP/1.0\r\nHost: api\r\n\r\n' >&3
seconds=$(grep -o '"proxyReadTimeoutSeconds":[0-9]*' <&3 | cut -d: -f2)
[ -n "$seconds" ] || { echo "the API's /about has no proxyReadTimeoutSeconds" >&2; exit 1; }
printf 'proxy_read_timeout %ss;\n' "$seconds" >/etc/nginx/supermarket-read-timeout.conf
