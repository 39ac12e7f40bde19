-- wrk script for bench/run.sh: POST the body in $BODY_FILE, with X-API-Key: $API_KEY
-- (and x-channel-id: $CHANNEL_ID, for OTLP ingest) when set. Used alike for nginx's fixed 200, Nchan's publisher and agent-eventsd.
-- DISTINCT_KEYS=1 (bench/ab.sh DISTINCT=1): every request fills the body's placeholders anew,
-- @N@ with a number unique to each occurrence in the run (run-unique prefix + counter),
-- @M@ with one of four models and @D@ with a duration in ms, so each event of a batch
-- brings its own session, user and trace name to the analytics rollups.
local f = assert(io.open(os.getenv("BODY_FILE"), "rb"))
wrk.method = "POST"
wrk.body = f:read("*a")
f:close()
wrk.headers["Content-Type"] = "application/json"
local key = os.getenv("API_KEY")
if key ~= nil and key ~= "" then
  wrk.headers["X-API-Key"] = key
end
local channel = os.getenv("CHANNEL_ID")
if channel ~= nil and channel ~= "" then
  wrk.headers["x-channel-id"] = channel
end
-- DISTINCT_KEYS=trace: @T@ changes every 8 occurrences (a trace's session and name) and @U@
-- every 32 (a user's four traces), the shape of agent traffic.
local distinct = os.getenv("DISTINCT_KEYS")
if distinct == "1" or distinct == "trace" then
  local template = wrk.body
  local models = { "gpt-4o", "gpt-4o-mini", "claude-sonnet-4", "claude-haiku-4" }
  math.randomseed(os.time())
  local prefix = string.format("%d-%d-", os.time(), math.random(1, 1000000000))
  local n = 0
  local function number()
    n = n + 1
    return prefix .. n
  end
  local m = 0
  local function model()
    m = m + 1
    return models[m % #models + 1]
  end
  local function duration()
    return string.format("%.1f", 50 + math.random() * 4000)
  end
  local t = 0
  local function trace()
    t = t + 1
    return prefix .. math.floor((t - 1) / 8)
  end
  local u = 0
  local function user()
    u = u + 1
    return prefix .. math.floor((u - 1) / 32)
  end
  request = function()
    local body = template:gsub("@N@", number):gsub("@M@", model):gsub("@D@", duration):gsub("@T@", trace):gsub("@U@", user)
    return wrk.format(nil, nil, nil, body)
  end
end
