-- wrk script for bench/run.sh: POST the body in $BODY_FILE, with X-API-Key: $API_KEY
-- (and x-channel-id: $CHANNEL_ID, for OTLP ingest) when set. Used alike for nginx's fixed 200, Nchan's publisher and agent-eventsd.
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
