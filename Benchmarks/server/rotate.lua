-- rotate.lua: each request the next path of a list, one path a line (URL-encoded, from the root).
--
--   wrk -t2 -c16 -d10s -s rotate.lua http://127.0.0.1:PORT -- PATHS_FILE
--
-- Each wrk thread walks the whole list from its own starting point, so consecutive requests
-- of a thread (over all its connections) carry different paths. Counts responses whose status
-- is outside 200-299 and reports through report.lua's done().

local directory = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(directory .. "report.lua")

local paths = {}
local position = 0
non2xx = 0

function init(args)
  local file = args[1]
  if file == nil then
    error("rotate.lua: pass the paths file after --")
  end
  for line in io.lines(file) do
    if line ~= "" then
      paths[#paths + 1] = line
    end
  end
  if #paths == 0 then
    error("rotate.lua: no paths in " .. file)
  end
  -- thread_number is set by report.lua's setup(); spread the threads' starting points.
  position = ((tonumber(thread_number) or 0) * 7919) % #paths
end

function request()
  position = position % #paths + 1
  return wrk.format("GET", paths[position])
end

function response(status, headers, body)
  if status < 200 or status > 299 then
    non2xx = non2xx + 1
  end
end
