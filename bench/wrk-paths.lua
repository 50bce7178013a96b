-- wrk script: replays the gateway paths listed in $WRK_PATHS (one per line) in turn,
-- with the access and user tokens from $ACCESS_TOKEN and $USER_TOKEN.
local paths = {}
local i = 0

function init(args)
  for line in io.lines(os.getenv("WRK_PATHS")) do
    paths[#paths + 1] = line
  end
  wrk.headers["Authorization"] = "Bearer " .. os.getenv("ACCESS_TOKEN")
  wrk.headers["UserToken"] = "Bearer " .. os.getenv("USER_TOKEN")
end

function request()
  i = i % #paths + 1
  return wrk.format("GET", paths[i])
end

local non200 = 0
function response(status, headers, body)
  if status ~= 200 then non200 = non200 + 1 end
end

function done(summary, latency, requests)
  io.write(string.format("non-200 answers: %d (counted in the last thread)\n", non200))
end
