#!/bin/bash
# Run by the nginx image's entrypoint before nginx starts (mounted in /docker-entrypoint.d/); writes what differs by
# where nginx runs:
# - the resolver: the container's own (/etc/resolv.conf: Docker's 127.0.0.11, podman's network gateway);
# - how the API replicas are found: re-resolved while running (`resolve`, nginx 1.27.3 and later), or once at start on
#   older nginx (Debian's 1.22 in docker/local-bases/), where a replica that comes back on a new address is not seen
#   until nginx restarts;
# - how long nginx waits for an answer: as long as the API says a proxy must (Ingest:ProxyReadTimeoutSeconds in its
#   /about, the request deadline and a margin), so the API always answers first. compose starts nginx once an API
#   replica is healthy; /about answers on the API's management port, which nginx does not serve.
# The image has neither curl nor jq: bash's /dev/tcp and grep over the JSON.
set -euo pipefail
resolver=$(awk '$1 == "nameserver" { print $2; exit }' /etc/resolv.conf)
printf 'resolver %s valid=10s ipv6=off;\n' "$resolver" >/etc/nginx/supermarket-resolver.conf

version=$(nginx -v 2>&1 | grep -o '[0-9]*\.[0-9]*\.[0-9]*')
if printf '1.27.3\n%s\n' "$version" | sort -C -V; then
  echo 'server api:8080 resolve;' >/etc/nginx/supermarket-api-servers.conf
else
  echo 'server api:8080;' >/etc/nginx/supermarket-api-servers.conf
fi

exec 3<>/dev/tcp/api/8081
printf 'GET /about HTTP/1.0\r\nHost: api\r\n\r\n' >&3
seconds=$(grep -o '"proxyReadTimeoutSeconds":[0-9]*' <&3 | cut -d: -f2)
[ -n "$seconds" ] || { echo "the API's /about has no proxyReadTimeoutSeconds" >&2; exit 1; }
printf 'proxy_read_timeout %ss;\n' "$seconds" >/etc/nginx/supermarket-read-timeout.conf
