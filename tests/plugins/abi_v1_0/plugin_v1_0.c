/* A plugin as a third party built it against SDK 1.0: the frozen 1.0 header next to this
 * file, plain C99, one component of each kind, every 1.0 host function called. Its
 * structs carry the 1.0 sizes, which every 1.x host must accept (README.md). */
#define _GNU_SOURCE /* memmem */
#include <agentevents/plugin_abi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const aev_host_api *api;
static aev_host *plugin_host;
static uint64_t calls_counter;

static aev_str str(const char *s) {
  aev_str v;
  v.ptr = s;
  v.len = strlen(s);
  return v;
}

AEV_EXPORT const aev_plugin_manifest *aev_plugin_manifest_v1(void) {
  static const aev_plugin_manifest m = {AEV_MANIFEST_HEADER, "abi_v1_0", "1.0.0", "tests",
                                        "https://example.invalid/abi_v1_0"};
  return &m;
}

/* ---- detector v10.needle: finds "needle"; label says which target it scanned */

static aev_status needle_create(const void *data, aev_host *host, aev_str config, void **instance, aev_call *call) {
  (void)data;
  (void)host;
  (void)config;
  (void)call;
  *instance = NULL;
  return AEV_OK;
}
static void needle_destroy(void *instance) { (void)instance; }
static aev_status needle_scan(const void *instance, const aev_scan_input *in, aev_call *call) {
  size_t i;
  (void)instance;
  api->metric_add(plugin_host, calls_counter, 1);
  for (i = 0; i + 6 <= in->text.len; ++i) {
    if (memcmp(in->text.ptr + i, "needle", 6) == 0) {
      aev_match m;
      memset(&m, 0, sizeof m);
      m.struct_size = sizeof m; /* the 1.0 size */
      m.start = i;
      m.end = i + 6;
      m.score = 0.75;
      m.label = str(in->target == AEV_TARGET_TOOL_CALL ? "needle.tool" : "needle");
      if (api->call_add_match(call, &m) != AEV_OK) return AEV_ERR_INTERNAL;
    }
  }
  return AEV_OK;
}

/* ---- dimension v10.prefix: the first 4 bytes of the event, or the parameter */

static aev_status prefix_key(const void *instance, const aev_key_input *in, aev_call *call) {
  (void)instance;
  if (in->parameter.len) return api->call_set_key(call, in->parameter);
  {
    aev_str k = in->event_json;
    if (k.len > 4) k.len = 4;
    return api->call_set_key(call, k);
  }
}

/* ---- exporter v10.count: answers with what it was given; "retry" in the config retries */

static aev_status count_open(const void *data, aev_host *host, aev_str config, void **instance, aev_call *call) {
  int *retry = (int *)malloc(sizeof *retry);
  (void)data;
  (void)host;
  (void)call;
  *retry = config.len >= 7 && memmem(config.ptr, config.len, "\"retry\"", 7) != NULL;
  *instance = retry;
  return AEV_OK;
}
static void count_close(void *instance) { free(instance); }
static aev_status count_export(void *instance, const aev_export_input *in, aev_call *call) {
  char body[96];
  snprintf(body, sizeof body, "{\"signal\":%d,\"count\":%lu,\"bytes\":%lu,\"inTime\":%s}", (int)in->signal,
           (unsigned long)in->event_count, (unsigned long)in->events_json.len,
           api->call_deadline_ms(call) > 0 ? "true" : "false");
  if (*(int *)instance) {
    api->call_response(call, 503, str(body));
    api->call_retry_after(call, 2000);
    api->call_error(call, str("v1.0 exporter asked to retry"));
    return AEV_RETRY;
  }
  api->call_response(call, 200, str(body));
  return AEV_OK;
}

/* ---- alert sink v10.echo: echoes the alert as the response body */

static aev_status echo_open(const void *data, aev_host *host, aev_str config, void **instance, aev_call *call) {
  (void)data;
  (void)host;
  (void)config;
  (void)call;
  *instance = NULL;
  return AEV_OK;
}
static void echo_close(void *instance) { (void)instance; }
static aev_status echo_deliver(void *instance, aev_str alert, aev_call *call) {
  (void)instance;
  api->call_response(call, 202, alert);
  return AEV_OK;
}

AEV_EXPORT aev_status aev_plugin_register_v1(const aev_host_api *host_api, aev_host *host, aev_registrar *reg,
                                             aev_call *call) {
  aev_detector_v1 d;
  aev_dimension_v1 dim;
  aev_exporter_v1 e;
  aev_alert_sink_v1 a;
  aev_str greeting = {NULL, 0};
  /* What a 1.0 plugin checks: the host table covers the 1.0 functions (a later host's
   * table is larger) and the major matches. */
  if (host_api->struct_size < sizeof(aev_host_api) || host_api->abi_major != 1) return AEV_ERR_UNSUPPORTED;
  api = host_api;
  plugin_host = host;
  if (api->config_get(host, str("greeting"), &greeting) == AEV_OK && api->log_enabled(host, AEV_LOG_INFO))
    api->log(host, AEV_LOG_INFO, greeting);
  if (greeting.len == 4 && memcmp(greeting.ptr, "fail", 4) == 0) {
    api->call_error(call, str("greeting \"fail\" refused"));
    return AEV_ERR_CONFIG;
  }
  calls_counter = api->metric_counter(host, str("v10_scans_total"), str("Scans by the SDK 1.0 plugin"));

  memset(&d, 0, sizeof d);
  d.struct_size = sizeof d;
  d.name = "v10.needle";
  d.description = "Finds the word needle (built against SDK 1.0)";
  d.create = needle_create;
  d.destroy = needle_destroy;
  d.scan = needle_scan;
  if (api->register_detector(reg, &d) != AEV_OK) return AEV_ERR_INTERNAL;

  memset(&dim, 0, sizeof dim);
  dim.struct_size = sizeof dim;
  dim.name = "v10.prefix";
  dim.key = prefix_key;
  if (api->register_dimension(reg, &dim) != AEV_OK) return AEV_ERR_INTERNAL;

  memset(&e, 0, sizeof e);
  e.struct_size = sizeof e;
  e.name = "v10.count";
  e.signals = AEV_SIGNAL_LOGS | AEV_SIGNAL_METRICS;
  e.open = count_open;
  e.export_batch = count_export;
  e.close = count_close;
  if (api->register_exporter(reg, &e) != AEV_OK) return AEV_ERR_INTERNAL;

  memset(&a, 0, sizeof a);
  a.struct_size = sizeof a;
  a.name = "v10.echo";
  a.open = echo_open;
  a.deliver = echo_deliver;
  a.close = echo_close;
  return api->register_alert_sink(reg, &a);
}
