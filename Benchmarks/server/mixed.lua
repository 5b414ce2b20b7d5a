-- mixed.lua: each request the next line of a list, "METHOD PATH" (GET, PUT, DELETE), with a
-- bearer token (none when the token is ""), for attack-bench.sh's soak of reads and writes.
--
--   wrk -t2 -c100 -d60s -s mixed.lua http://127.0.0.1:PORT -- REQUESTS_FILE TOKEN
--
-- Reports through report.lua's done(), with two more counters: s5xx (statuses of 500 and
-- above) and writes (the PUTs and DELETEs sent).

local directory = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(directory .. "report.lua")

extra_counters = { "s5xx", "writes" }
local lines = {}
local position = 0
local token = ""
non2xx = 0
s5xx = 0
writes = 0

function init(args)
  local file = args[1]
  token = args[2] or ""
  if file == nil then
    error("mixed.lua: pass the requests file (and the token) after --")
  end
  for line in io.lines(file) do
    local method, path = line:match("^(%u+) (.+)$")
    if method ~= nil then
      lines[#lines + 1] = { method, path }
    end
  end
  if #lines == 0 then
    error("mixed.lua: no requests in " .. file)
  end
  -- thread_number is set by report.lua's setup(); spread the threads' starting points.
  position = ((tonumber(thread_number) or 0) * 7919) % #lines
end

function request()
  position = position % #lines + 1
  local method, path = lines[position][1], lines[position][2]
  if method ~= "GET" then
    writes = writes + 1
  end
  if token == "" then
    return wrk.format(method, path)
  end
  return wrk.format(method, path, { ["Authorization"] = "Bearer " .. token })
end

function response(status, headers, body)
  if status < 200 or status > 299 then
    non2xx = non2xx + 1
  end
  if status >= 500 then
    s5xx = s5xx + 1
  end
end
