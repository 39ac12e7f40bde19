// The metric families docs/operations.md names, registered at 0 when the process starts
// so an alert on "any increase" fires on the first failure (a counter that appears only
// when it first moves has no earlier sample to increase from). Label sets are listed when
// they are known in advance; families whose labels are not (plugins) appear on first use.
// Durations are counted in microseconds and shown in seconds (Prometheus' base unit).
#include "common/metrics.h"

namespace aev {

const std::vector<MetricDoc>& documentedMetrics() {
  static const std::vector<MetricDoc> docs = {
      {"agent_events_http_requests_total",
       {"{status=\"1xx\"}", "{status=\"2xx\"}", "{status=\"3xx\"}", "{status=\"4xx\"}", "{status=\"5xx\"}"},
       "HTTP answers by status class."},
      {"agent_events_commits_total", {""}, "Durable group commits of published events."},
      {"agent_events_rollup_backfill_remaining",
       {""},
       "Event ids the analytics rollups' backfill has still to fold in (0: done; analytics reads raw events until "
       "then)."},
      {"agent_events_rollup_backfill_events_total", {""}, "Events the analytics rollups' backfill has folded in."},
      {"agent_events_trace_facet_backfill_remaining",
       {""},
       "Event ids the trace facets' backfill has still to read (0: done; the trace, session and end-user filters "
       "probe events until then)."},
      {"agent_events_trace_facet_backfill_events_total", {""}, "Events whose trace facets the backfill has written."},
      {"agent_events_events_stored_total", {""}, "Events stored by group commits."},
      {"agent_events_commit_seconds_total", {""}, "Wall time spent in group commits, the fsync included.", 1e-6},
      {"agent_events_commit_failures_total",
       {""},
       "Group commits the store refused (I/O error, full disk, lost connection): each is 503s to its publishers."},
      {"agent_events_stream_subscribers", {""}, "Open or starting SSE streams."},
      {"agent_events_stream_subscribers_opened_total", {""}, "SSE streams opened."},
      {"agent_events_stream_subscribers_closed_total", {""}, "SSE streams closed, for any reason."},
      {"agent_events_stream_slow_subscribers_closed_total",
       {""},
       "SSE streams closed for falling behind stream.max_backlog_bytes."},
      {"agent_events_delivery_attempts_total", {""}, "Outbound delivery attempts (webhooks, exports, notifications)."},
      {"agent_events_delivery_delivered_total", {""}, "Outbound messages the receiver accepted."},
      {"agent_events_delivery_failed_total", {""}, "Outbound messages given up after the whole retry schedule."},
      {"agent_events_delivery_lost_leases_total", {""}, "Outbound messages a worker held past delivery.lease_seconds."},
      {"agent_events_api_key_cache_hits_total", {""}, "API key checks answered from this node's cache."},
      {"agent_events_channel_cache_hits_total", {""}, "Publishes that found their channel's app in the cache."},
      {"agent_events_publish_events_read_by_poco_total",
       {""},
       "Published events read through the Poco path: not plainly valid (a 422), or with escaped member names."},
      {"agent_events_cluster_doorbells_sent_total", {""}, "Doorbells (pg_notify) this node sent to the others."},
      {"agent_events_cluster_doorbell_failures_total",
       {""},
       "Doorbells that could not be sent (the others poll instead)."},
      {"agent_events_cluster_doorbells_received_total", {""}, "Doorbells from other nodes this node received."},
      {"agent_events_cluster_catchup_reads_total", {""}, "Store reads of other nodes' events (doorbell, poll or gap)."},
      // Plugin families: labels known only once a plugin loads.
      {"aev_plugin_calls_total", {}, "Calls into plugin components."},
      {"aev_plugin_call_failures_total", {}, "Plugin calls that returned an error or threw."},
      {"aev_plugin_call_exceptions_total", {}, "Exceptions that escaped a plugin."},
      {"aev_plugin_invalid_outputs_total", {}, "Plugin outputs refused by the host."},
      {"aev_plugin_call_duration_seconds_total", {}, "Time spent in plugin calls.", 1e-6},
  };
  return docs;
}

}  // namespace aev
