-- Questions at a steady rate, timed by a client of their own: the analysts' sales questions or the managers' history
-- pages, as the load test's day asks them (loadtest/measure.sh's TURNS=1 row runs it beside the chain's real rate).
--   WRK_KIND=sales WRK_RATE=50 wrk -t1 -c5 -d40s --latency -s loadtest/wrk/questions.lua http://127.0.0.1:8080
-- Each connection waits connections / WRK_RATE seconds after each answer, so the rate stays near WRK_RATE however
-- the answers go (wrk times an answer from its request's write, the wait left out).
-- Environment: WRK_KIND (sales: a store's top items, an item's top stores, a store's week in turn; history: a store's
-- day, a customer's day in turn), WRK_RATE (questions a second over all connections), WRK_CONNECTIONS (as -c),
-- WRK_STORES (256), WRK_CUSTOMERS (1000), WRK_MAX_ITEM (100000), WRK_DATE (20210101), WRK_WEEK_FROM (20201226),
-- WRK_AUTHORIZATIONS (Authorization headers, comma-separated, taken in turn: history needs analysts' credentials,
-- docs/operations.md, each read a limited number of times a minute).
local kind = os.getenv("WRK_KIND") or "sales"
local rate = tonumber(os.getenv("WRK_RATE") or "5")
local connections = tonumber(os.getenv("WRK_CONNECTIONS") or "1")
local stores = tonumber(os.getenv("WRK_STORES") or "256")
local customers = tonumber(os.getenv("WRK_CUSTOMERS") or "1000")
local maxItem = tonumber(os.getenv("WRK_MAX_ITEM") or "100000")
local date = os.getenv("WRK_DATE") or "20210101"
local weekFrom = os.getenv("WRK_WEEK_FROM") or "20201226"

wrk.method = "GET"
wrk.headers["Accept"] = "application/json"
local authorizations = {}
for authorization in string.gmatch(os.getenv("WRK_AUTHORIZATIONS") or "", "[^,]+") do
  authorizations[#authorizations + 1] = authorization
end

local asked = 0

setup = function(thread)
  thread:set("seed", math.random(1, 2147483647))
end

init = function(args)
  math.randomseed(seed or os.time())
end

delay = function()
  return connections * 1000 / rate
end

request = function()
  asked = asked + 1
  local store = math.random(1, stores)
  local path
  if kind == "history" then
    if asked % 2 == 0 then
      path = string.format("/purchases/store/%d?date=%s", store, date)
    else
      path = string.format("/purchases/customer/%d?from=%s&to=%s", store * 1000 + math.random(0, customers - 1), date, date)
    end
  elseif asked % 3 == 0 then
    path = string.format("/items/store/%d", store)
  elseif asked % 3 == 1 then
    path = string.format("/items/top5/%d", math.random(1, maxItem))
  else
    path = string.format("/items/store/%d?from=%s&to=%s", store, weekFrom, date)
  end
  local headers = nil
  if #authorizations > 0 then
    headers = { Accept = "application/json", Authorization = authorizations[asked % #authorizations + 1] }
  end
  return wrk.format(nil, path, headers)
end

-- One line, read by measure.sh: JSON, the latencies in milliseconds.
done = function(summary, latency, requests)
  io.write(string.format('{"kind": "%s", "answers": %d, "per_second": %.1f, "non_2xx": %d, "socket_errors": %d, "p50_ms": %.2f, "p99_ms": %.2f, "p999_ms": %.2f, "max_ms": %.2f}\n',
    kind, summary.requests, summary.requests / (summary.duration / 1e6), summary.errors.status,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, latency:percentile(99.9) / 1000, latency.max / 1000))
end
