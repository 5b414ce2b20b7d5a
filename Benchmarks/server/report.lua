-- report.lua: wrk's summary as one machine-readable line, for server-bench.sh.
--
--   wrk -t2 -c64 -d10s -s report.lua URL
--
-- Prints (besides wrk's own report):
--   wrk-result requests=N duration_us=N bytes=N mean_us=N p50_us=N p90_us=N p99_us=N max_us=N
--     connect_errors=N read_errors=N write_errors=N status_errors=N timeouts=N non2xx=N
-- status_errors is wrk's own count (status 400 and above). non2xx counts every status outside
-- 200-299, but only when the script defines response() (rotate.lua does); otherwise it is -1.
-- A script may name more per-thread counters in the global `extra_counters` (mixed.lua does):
-- each is summed over the threads and appended as name=N.
-- Latencies are in microseconds and cover completed requests; timed-out requests are counted
-- in timeouts only.

local threads = {}

function setup(thread)
  thread:set("thread_number", #threads)
  table.insert(threads, thread)
end

function done(summary, latency, requests)
  local non2xx = -1
  if response ~= nil then
    non2xx = 0
    for _, thread in ipairs(threads) do
      non2xx = non2xx + (tonumber(thread:get("non2xx")) or 0)
    end
  end
  local extra = ""
  for _, name in ipairs(extra_counters or {}) do
    local total = 0
    for _, thread in ipairs(threads) do
      total = total + (tonumber(thread:get(name)) or 0)
    end
    extra = extra .. string.format(" %s=%d", name, total)
  end
  local errors = summary.errors
  io.write(string.format(
    "wrk-result requests=%d duration_us=%d bytes=%d mean_us=%.0f p50_us=%d p90_us=%d p99_us=%d max_us=%d "
      .. "connect_errors=%d read_errors=%d write_errors=%d status_errors=%d timeouts=%d non2xx=%d%s\n",
    summary.requests, summary.duration, summary.bytes, latency.mean,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max,
    errors.connect, errors.read, errors.write, errors.status, errors.timeout, non2xx, extra))
end
