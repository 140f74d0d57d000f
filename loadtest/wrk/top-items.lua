-- The sales question as an analysts' dashboard asks it, many at once: "top 10 items at a store" at random stores.
--   wrk -t2 -c50 -d10s --latency -s loadtest/wrk/top-items.lua http://127.0.0.1:8080
-- Open-ended (wrk keeps every connection busy), so it measures the answers' peak rate and latency under it
-- (loadtest/measure.sh's ASK=1 row). Environment: WRK_STORES (256).
local stores = tonumber(os.getenv("WRK_STORES") or "256")

wrk.method = "GET"
wrk.headers["Accept"] = "application/json"

setup = function(thread)
  thread:set("seed", math.random(1, 2147483647))
end

init = function(args)
  math.randomseed(seed or os.time())
end

request = function()
  return wrk.format(nil, string.format("/items/store/%d", math.random(1, stores)))
end

-- One line, read by measure.sh: JSON, the latencies in milliseconds.
done = function(summary, latency, requests)
  io.write(string.format('{"answers": %d, "seconds": %.2f, "per_second": %.0f, "non_2xx": %d, "socket_errors": %d, "p50_ms": %.2f, "p99_ms": %.2f, "p999_ms": %.2f, "max_ms": %.2f}\n',
    summary.requests, summary.duration / 1e6, summary.requests / (summary.duration / 1e6), summary.errors.status,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, latency:percentile(99.9) / 1000, latency.max / 1000))
end
