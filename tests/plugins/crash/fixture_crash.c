/* A plugin that dies by SIGSEGV inside a call: in aev_plugin_register_v1 when its setting
 * plugins.fixture_crash.crash_in = register, else in every scan of its detector
 * "fixture.crash". Lives in its own directory (not fixtures/) so directory loads of the
 * other fixtures never run it. */
#include <agentevents/plugin_abi.h>

#include <stddef.h>
#include <string.h>

static const aev_host_api *api;

/* volatile: the compiler cannot prove the store is through a null pointer, so it emits a
 * real store (a fault), not a trap instruction. */
static int *volatile nowhere = NULL;

AEV_EXPORT const aev_plugin_manifest *aev_plugin_manifest_v1(void) {
  static const aev_plugin_manifest m = {AEV_MANIFEST_HEADER, "fixture_crash", "1.0.0", "tests", NULL};
  return &m;
}

static aev_status crash_create(const void *data, aev_host *host, aev_str config, void **instance, aev_call *call) {
  (void)data;
  (void)host;
  (void)config;
  (void)call;
  *instance = (void *)&api;
  return AEV_OK;
}

static void crash_destroy(void *instance) { (void)instance; }

static aev_status crash_scan(const void *instance, const aev_scan_input *in, aev_call *call) {
  (void)instance;
  (void)in;
  (void)call;
  *nowhere = 1;
  return AEV_OK;
}

AEV_EXPORT aev_status aev_plugin_register_v1(const aev_host_api *host_api, aev_host *host, aev_registrar *reg,
                                             aev_call *call) {
  aev_detector_v1 d;
  aev_str key = {"crash_in", 8};
  aev_str value = {NULL, 0};
  (void)call;
  api = host_api;
  if (api->config_get(host, key, &value) == AEV_OK && value.len == 8 && memcmp(value.ptr, "register", 8) == 0)
    *nowhere = 1;
  memset(&d, 0, sizeof d);
  d.struct_size = sizeof d;
  d.name = "fixture.crash";
  d.description = "dies by SIGSEGV in every scan";
  d.create = crash_create;
  d.destroy = crash_destroy;
  d.scan = crash_scan;
  return api->register_detector(reg, &d);
}
