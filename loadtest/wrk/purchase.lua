-- A second, independent load generator for the same endpoint: wrk (Debian package `wrk`) POSTing the course's body.
--   wrk -t2 -c256 -d30s --latency -s loadtest/wrk/purchase.lua http://127.0.0.1:8080
-- Open-ended (wrk keeps every connection busy for the duration), so it measures peak rate, not the chain's day.
-- Environment: WRK_STORES (256), WRK_CUSTOMERS (1000), WRK_MAX_ITEM (100000), WRK_ITEMS (5), WRK_DATE (20210101).
local stores = tonumber(os.getenv("WRK_STORES") or "256")
local customers = tonumber(os.getenv("WRK_CUSTOMERS") or "1000")
local maxItem = tonumber(os.getenv("WRK_MAX_ITEM") or "100000")
local items = tonumber(os.getenv("WRK_ITEMS") or "5")
local date = os.getenv("WRK_DATE") or "20210101"

wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json; charset=utf-8"
wrk.headers["Accept"] = "application/json"

local created = 0
local other = 0

setup = function(thread)
  thread:set("seed", math.random(1, 2147483647))
end

init = function(args)
  math.randomseed(seed or os.time())
end

request = function()
  local store = math.random(1, stores)
  local customer = store * 1000 + math.random(0, customers - 1)
  local lines = {}
  for i = 1, items do
    -- The generated clients' exact shape: ItemID as a string, the quantity key with its trailing colon.
    lines[i] = string.format('{"ItemID":"%d","numberOfItems:":1}', math.random(1, maxItem))
  end
  local path = string.format("/purchase/%d/customer/%d/date/%s", store, customer, date)
  return wrk.format(nil, path, nil, '{"items":[' .. table.concat(lines, ",") .. ']}')
end

response = function(status, headers, body)
  if status == 201 then created = created + 1 else other = other + 1 end
end

done = function(summary, latency, requests)
  io.write(string.format("requests %d, non-2xx %d, socket errors %d; p50 %.2f ms, p99 %.2f ms, max %.2f ms\n",
    summary.requests, summary.errors.status,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, latency.max / 1000))
end
