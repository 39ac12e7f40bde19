/*
 * agent-events plugin ABI, version 1.0.
 *
 * The only contract between agent-eventsd and a plugin (a shared object). Written in
 * C99 so a plugin built with another compiler, another C++ standard library or an older
 * SDK still loads; the header-only C++ layer (plugin.hpp) sits on top of it.
 *
 * Rules that keep it stable (docs/plugins.md, "The ABI promise"):
 *   - Only C types cross: fixed-width integers, {pointer, length} views, opaque handles,
 *     function pointers, plain structs. No exception may cross in either direction.
 *   - Every struct starts with its own size. A reader uses only the fields the writer's
 *     size covers (AEV_FIELD_FITS) and treats the rest as zero.
 *   - Structs, the host table and the enums only ever grow at their end. Changing what an
 *     existing function means adds a new _v2 entry beside it instead.
 *   - A minor version adds; a major version breaks. The host loads a plugin whose major
 *     equals its own and whose minor is not newer than its own.
 *
 * OWNERSHIP is stated on every function. In short: everything the host lends (aev_str
 * inputs, the call context) is valid for that call only; copy what you keep. Everything
 * a plugin gives the host through a host function is copied by the host before the
 * function returns. Memory is always freed on the side that allocated it.
 *
 * THREADING is stated on every function. In short: the entry points run once on the
 * start-up thread; create/open/destroy/close run on a control thread; detector scan and
 * dimension key run concurrently on a shared instance; exporter and alert sink calls run
 * one at a time per instance unless the vtable sets AEV_FLAG_CONCURRENT.
 */
#ifndef AGENTEVENTS_PLUGIN_ABI_H
#define AGENTEVENTS_PLUGIN_ABI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
#define AEV_EXTERN_C extern "C"
#else
#define AEV_EXTERN_C
#endif

#if defined(_WIN32)
#define AEV_EXPORT AEV_EXTERN_C __declspec(dllexport)
#else
#define AEV_EXPORT AEV_EXTERN_C __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ versions */

/* Breaking change: bump. The host requires plugin major == host major. */
#define AEV_ABI_MAJOR 1
/* Additive change: bump. The host requires plugin minor <= host minor. */
#define AEV_ABI_MINOR 1

/* First field of the manifest: "AEVP". A shared object whose manifest does not start
 * with it is not an agent-events plugin (or is corrupt), and is refused. */
#define AEV_PLUGIN_MAGIC 0x50564541u

/* True when a struct written with size `size` contains `field` of `type`. Use it before
 * reading a field that a later minor version appended (host table, inputs). */
#define AEV_FIELD_FITS(type, size, field) \
  ((size) >= offsetof(type, field) + sizeof(((type *)0)->field))

/* True when the host table `api` has the function `fn` (added in some minor version). */
#define AEV_HOST_HAS(api, fn) \
  (AEV_FIELD_FITS(aev_host_api, (api)->struct_size, fn) && (api)->fn != NULL)

/* Size of `type` up to and including `field`: the size a struct had in the version
 * whose last field was `field`. The AEV_*_SIZE_1_0 constants below use it, so they stay
 * the 1.0 sizes however many fields later minors append. */
#define AEV_SIZE_THROUGH(type, field) (offsetof(type, field) + sizeof(((type *)0)->field))

/* ------------------------------------------------------------------ basic types */

/* A borrowed UTF-8 (or JSON, or bytes) view. Not NUL-terminated; ptr may be NULL when
 * len is 0. Who owns the bytes and for how long is stated where it is passed. */
typedef struct aev_str {
  const char *ptr;
  size_t len;
} aev_str;

/* Result of every plugin callback and of host functions that can fail.
 * Stored as int32_t so its size never depends on the compiler. APPEND ONLY. */
typedef int32_t aev_status;
enum {
  AEV_OK = 0,
  AEV_RETRY = 1,                /* transient failure: the host backs off and retries */
  AEV_ERR_PERMANENT = 2,        /* will fail again: the host drops or marks it failed */
  AEV_ERR_CONFIG = 3,           /* invalid configuration */
  AEV_ERR_UNSUPPORTED = 4,      /* this kind of call/signal is not supported */
  AEV_ERR_INTERNAL = 5,         /* plugin bug; plugin.hpp maps escaped exceptions here */
  AEV_ERR_INVALID_ARGUMENT = 6, /* a host function refused what it was given */
  AEV_ERR_NOT_FOUND = 7         /* a lookup found nothing (config key, ...) */
};

/* Log levels of aev_host_api.log. APPEND ONLY. */
typedef int32_t aev_log_level;
enum {
  AEV_LOG_TRACE = 0,
  AEV_LOG_DEBUG = 1,
  AEV_LOG_INFO = 2,
  AEV_LOG_WARN = 3,
  AEV_LOG_ERROR = 4
};

/* Which part of the agent loop a detector scans (a moderation rule's target). Bit
 * values, so a detector can declare several in aev_detector_v1.targets. APPEND ONLY. */
typedef int32_t aev_target;
enum {
  AEV_TARGET_REQUEST = 1,
  AEV_TARGET_RESPONSE = 2,
  AEV_TARGET_TOOL_CALL = 4
};
#define AEV_TARGET_ALL (AEV_TARGET_REQUEST | AEV_TARGET_RESPONSE | AEV_TARGET_TOOL_CALL)

/* Export signals of an export destination. Bit values. APPEND ONLY. */
typedef int32_t aev_signal;
enum {
  AEV_SIGNAL_TRACES = 1,
  AEV_SIGNAL_LOGS = 2,
  AEV_SIGNAL_METRICS = 4
};

/* Component flags (aev_*_v1.flags). APPEND ONLY. */
enum {
  /* Exporter / alert sink: the host may call export_batch / deliver concurrently on one
   * instance. Without it the host serialises calls per instance. */
  AEV_FLAG_CONCURRENT = 1u
};

/* Types of a declared setting (aev_setting_v1.type, ABI 1.1). APPEND ONLY. */
typedef int32_t aev_setting_type;
enum {
  AEV_SETTING_STRING = 0,
  AEV_SETTING_INTEGER = 1,  /* decimal, 64-bit signed */
  AEV_SETTING_NUMBER = 2,   /* decimal with optional fraction and exponent */
  AEV_SETTING_BOOLEAN = 3,  /* true/false, 1/0, yes/no, on/off */
  AEV_SETTING_DURATION = 4, /* an integer with a unit: ms, s, m or h (e.g. "500ms", "30s") */
  AEV_SETTING_LIST = 5      /* comma-separated values, surrounding spaces trimmed */
};

/* Setting flags (aev_setting_v1.flags). APPEND ONLY. */
enum {
  /* Never shown (--print-config-reference prints no default, logs no value). */
  AEV_SETTING_SECRET = 1u
};

/* Opaque handles. All are owned by the host; a plugin never frees them. */
typedef struct aev_host aev_host;           /* one per loaded plugin, lives as long as it */
typedef struct aev_registrar aev_registrar; /* valid only inside aev_plugin_register_v1 */
typedef struct aev_call aev_call;           /* one per callback invocation, valid only during it */

/* ------------------------------------------------------------------ call inputs */

/* What a detector scans. Lent by the host for one scan call. */
typedef struct aev_scan_input {
  uint32_t struct_size;
  aev_target target;  /* one AEV_TARGET_* value */
  aev_str text;       /* UTF-8 text to scan; offsets in matches are byte offsets into it */
  aev_str event_type; /* e.g. "agent.message"; may be empty */
  aev_str field_path; /* where the text came from, e.g. "payload.content"; may be empty */
} aev_scan_input;

/* One finding, handed to aev_host_api.call_add_match (the host copies it). */
typedef struct aev_match {
  uint32_t struct_size;
  uint32_t reserved; /* 0 */
  uint64_t start;    /* byte offset of the first byte, on a UTF-8 character boundary */
  uint64_t end;      /* byte offset one past the last byte; start < end <= text.len */
  double score;      /* confidence in [0, 1] */
  aev_str label;     /* what was found, e.g. "email" or "aws_access_key_id"; may be empty */
} aev_match;

/* One batch for an exporter. Lent by the host for one export_batch call. */
typedef struct aev_export_input {
  uint32_t struct_size;
  aev_signal signal;   /* one AEV_SIGNAL_* value the exporter declared */
  aev_str events_json; /* JSON array of stored events (as the API returns them), oldest first */
  uint64_t event_count;
} aev_export_input;

/* What a dimension extracts a key from. Lent by the host for one key call. */
typedef struct aev_key_input {
  uint32_t struct_size;
  uint32_t reserved;  /* 0 */
  aev_str event_json; /* one stored event (as the API returns it) */
  aev_str parameter;  /* dimension parameter, e.g. the tag key of "tag"; may be empty */
} aev_key_input;

/* ------------------------------------------------------------------ component vtables */

/* Every vtable starts with struct_size, flags, the strings below and component_data. The
 * host copies the vtable (min(struct_size, its own sizeof), zero-filling the rest) and
 * copies the strings during the register_* call, so the plugin may build them on its stack.
 *   name:        [A-Za-z][A-Za-z0-9_.-]*, at most 64 bytes, unique per kind in the daemon.
 *   description: one line for humans (GET /admin/plugins); may be NULL.
 *   config_schema_json: JSON Schema of the instance configuration; may be NULL.
 *   component_data: opaque plugin-owned pointer handed back to create/open, so one set
 *     of functions can serve several components (e.g. one per configured pattern). It
 *     must stay valid for the life of the process (static data). May be NULL. */

/* Moderation detector: scans UTF-8 text and reports matches. */
typedef struct aev_detector_v1 {
  uint32_t struct_size;
  uint32_t flags;
  const char *name; /* the RuleDTO "detector" value, e.g. "pii.email" */
  const char *description;
  const char *config_schema_json;
  const void *component_data;
  uint32_t targets; /* AEV_TARGET_* bits this detector is meant for; 0 means all */
  uint32_t reserved;

  /* Builds an instance from the rule's configuration (a JSON object; "{}" when none).
   * Do the expensive work here (compile patterns) so scan stays cheap.
   * OWNERSHIP: config_json is lent for this call. *instance is plugin-owned and given
   *   back to destroy. Report a bad configuration with AEV_ERR_CONFIG and call_error.
   * THREADING: control thread; never concurrently with another call on this instance. */
  aev_status (*create)(const void *component_data, aev_host *host, aev_str config_json,
                       void **instance, aev_call *call);

  /* Frees an instance. Called exactly once per successful create.
   * THREADING: control thread, after every scan on the instance has returned. */
  void (*destroy)(void *instance);

  /* Scans input->text and reports every finding with call_add_match. Reporting nothing
   * and returning AEV_OK means "no match". Must be re-entrant and must not block on I/O.
   * OWNERSHIP: input and its strings are lent for this call; matches are copied.
   * THREADING: called concurrently from any worker thread on one shared instance. */
  aev_status (*scan)(const void *instance, const aev_scan_input *input, aev_call *call);
} aev_detector_v1;

/* Export destination: ships a batch of events; the host owns queues, batching, retries. */
typedef struct aev_exporter_v1 {
  uint32_t struct_size;
  uint32_t flags; /* AEV_FLAG_CONCURRENT */
  const char *name; /* the destination "kind", e.g. "otlp" */
  const char *description;
  const char *config_schema_json;
  const void *component_data;
  uint32_t signals; /* AEV_SIGNAL_* bits this exporter can ship */
  uint32_t reserved;

  /* Opens a destination from its configuration (a JSON object, e.g. endpointUrl, headers).
   * OWNERSHIP: config_json lent for this call; *instance plugin-owned until close.
   * THREADING: control thread. */
  aev_status (*open)(const void *component_data, aev_host *host, aev_str config_json,
                     void **instance, aev_call *call);

  /* Ships one batch. Returns AEV_OK (delivered), AEV_RETRY (transient: network, 429, 5xx;
   * a hint may be given with call_retry_after) or AEV_ERR_PERMANENT (4xx, bad data).
   * May block, but not beyond call_deadline_ms. Report what the remote side answered
   * with call_response so the host can record the delivery attempt.
   * OWNERSHIP: input lent for this call.
   * THREADING: a sink thread; one call at a time per instance unless AEV_FLAG_CONCURRENT. */
  aev_status (*export_batch)(void *instance, const aev_export_input *input, aev_call *call);

  /* Flushes and frees the instance. Called exactly once per successful open.
   * THREADING: control thread, after every export_batch has returned. */
  void (*close)(void *instance);
} aev_exporter_v1;

/* Alert destination: delivers one alert notification (docs/plugins.md, "Alert JSON"). */
typedef struct aev_alert_sink_v1 {
  uint32_t struct_size;
  uint32_t flags; /* AEV_FLAG_CONCURRENT */
  const char *name; /* the alert rule "destinationType", e.g. "webhook", "slack" */
  const char *description;
  const char *config_schema_json;
  const void *component_data;

  /* As aev_exporter_v1.open. */
  aev_status (*open)(const void *component_data, aev_host *host, aev_str config_json,
                     void **instance, aev_call *call);

  /* Delivers one alert. Same results and contract as aev_exporter_v1.export_batch.
   * OWNERSHIP: alert_json lent for this call. */
  aev_status (*deliver)(void *instance, aev_str alert_json, aev_call *call);

  /* As aev_exporter_v1.close. */
  void (*close)(void *instance);
} aev_alert_sink_v1;

/* Analytics dimension: extracts the grouping key of one event (GET /analytics/breakdown?dimension=). */
typedef struct aev_dimension_v1 {
  uint32_t struct_size;
  uint32_t flags;
  const char *name; /* the ?dimension= value, e.g. "model" */
  const char *description;
  const char *config_schema_json;
  const void *component_data;

  /* Optional (may be NULL: the instance is then NULL). As aev_detector_v1.create. */
  aev_status (*create)(const void *component_data, aev_host *host, aev_str config_json,
                       void **instance, aev_call *call);
  /* Optional when create is NULL. As aev_detector_v1.destroy. */
  void (*destroy)(void *instance);

  /* Sets the event's key with call_set_key, or sets nothing when the event has none.
   * Must be re-entrant and must not block on I/O.
   * OWNERSHIP: input lent for this call; the key is copied.
   * THREADING: called concurrently from any worker thread on one shared instance. */
  aev_status (*key)(const void *instance, const aev_key_input *input, aev_call *call);
} aev_dimension_v1;

/* One setting of the plugin's own configuration section, declared at registration (ABI
 * 1.1, aev_host_api.register_setting): key `name` of plugin "acme" is daemon setting
 * "plugins.acme.<name>". Once a plugin declares any setting, the daemon refuses to start
 * (exit 78) on a plugins.<plugin>.* key it did not declare or on a value that is not of
 * the declared type, and config_get returns the default for a key that is not set.
 * The host copies the struct and its strings during the call. */
typedef struct aev_setting_v1 {
  uint32_t struct_size;
  aev_setting_type type;     /* AEV_SETTING_* */
  const char *name;          /* [a-z0-9_][a-z0-9_.]*, at most 64 bytes; not "enabled" */
  const char *default_value; /* text form of the default, valid for `type`; NULL: none */
  const char *description;   /* one line for --print-config-reference; may be NULL */
  uint32_t flags;            /* AEV_SETTING_SECRET */
  uint32_t reserved;         /* 0 */
} aev_setting_v1;

/* ------------------------------------------------------------------ host table */

/* Functions the host gives a plugin. Passed to aev_plugin_register_v1; valid for the life
 * of the process, so a plugin may keep the pointer. Every function is thread-safe unless
 * it says otherwise. New functions are appended at the end in later minor versions: check
 * with AEV_HOST_HAS before calling one newer than 1.0. */
typedef struct aev_host_api {
  uint32_t struct_size;
  uint16_t abi_major; /* of the running daemon */
  uint16_t abi_minor;

  /* ---- 1.0 ---- append below only, never reorder ---- */

  /* Writes one log line, tagged with the plugin's name, to the daemon's log.
   * OWNERSHIP: msg lent for this call (copied). */
  void (*log)(aev_host *host, aev_log_level level, aev_str msg);
  /* Whether a line at `level` would be written (skip building expensive messages). */
  bool (*log_enabled)(aev_host *host, aev_log_level level);

  /* Looks up key in the plugin's own configuration section: key "timeout_ms" of plugin
   * "exporter_otlp" reads daemon setting "plugins.exporter_otlp.timeout_ms".
   * Returns AEV_OK and sets *value, or AEV_ERR_NOT_FOUND.
   * OWNERSHIP: key lent for this call; *value is host-owned and valid for the life of
   *   the plugin (the configuration does not change while the daemon runs). */
  aev_status (*config_get)(aev_host *host, aev_str key, aev_str *value);

  /* Registers a counter shown in /metrics as aev_plugin_<name>_total{plugin="..."} and
   * returns its handle (never 0), or 0 when name is not [a-z][a-z0-9_]* (at most 64
   * bytes) or the plugin has 64 counters already. Registering a name twice returns the
   * same handle. Call it from register or create/open, not on a hot path.
   * OWNERSHIP: name and help lent for this call (copied). */
  uint64_t (*metric_counter)(aev_host *host, aev_str name, aev_str help);
  /* Adds delta to a counter. Cheap and lock-free; unknown handles are ignored. */
  void (*metric_add)(aev_host *host, uint64_t counter, int64_t delta);

  /* Registration: valid only on the registrar of the running aev_plugin_register_v1.
   * The host validates the vtable (size, name, required functions) and copies it and
   * its strings. An invalid vtable or a name that another component of the same kind
   * already has returns AEV_ERR_INVALID_ARGUMENT; the host then refuses the plugin.
   * THREADING: start-up thread only, inside aev_plugin_register_v1. */
  aev_status (*register_detector)(aev_registrar *reg, const aev_detector_v1 *vtable);
  aev_status (*register_exporter)(aev_registrar *reg, const aev_exporter_v1 *vtable);
  aev_status (*register_alert_sink)(aev_registrar *reg, const aev_alert_sink_v1 *vtable);
  aev_status (*register_dimension)(aev_registrar *reg, const aev_dimension_v1 *vtable);

  /* Call context: every callback gets an aev_call; these functions report through it.
   * THREADING: only on the thread running that callback, only during it.
   * OWNERSHIP: every aev_str passed is copied before the function returns. */

  /* Sets the message the host logs (with plugin and component names) and shows when the
   * callback returns an error. The last call wins; at most 4 KiB is kept. */
  void (*call_error)(aev_call *call, aev_str message);
  /* Remaining time budget of this call in milliseconds (0: already late). A plugin that
   * does I/O uses it as its timeout. */
  uint64_t (*call_deadline_ms)(aev_call *call);
  /* Detector scan only: reports one match. Returns AEV_ERR_INVALID_ARGUMENT (and drops
   * it) when the offsets are outside the text or not on UTF-8 boundaries, the score is not
   * in [0, 1], or the call is not a scan. */
  aev_status (*call_add_match)(aev_call *call, const aev_match *match);
  /* Dimension key only: sets the key (valid UTF-8, at most 1024 bytes). */
  aev_status (*call_set_key)(aev_call *call, aev_str key);
  /* Exporter / alert sink only: the server's answer, for the delivery record (status 0
   * when none, e.g. connection refused; the body is truncated to 4 KiB). */
  aev_status (*call_response)(aev_call *call, int32_t status_code, aev_str body);
  /* Exporter / alert sink only, with AEV_RETRY: the earliest retry the server asked for
   * (e.g. Retry-After). The host never retries sooner than its own backoff either. */
  aev_status (*call_retry_after)(aev_call *call, uint64_t milliseconds);

  /* ---- 1.1 ---- */

  /* Declares one setting (see aev_setting_v1). Returns AEV_ERR_INVALID_ARGUMENT for a bad
   * name, type or default (the host then refuses the plugin). Check it with
   * AEV_HOST_HAS(api, register_setting): a 1.0 daemon has none.
   * THREADING: start-up thread only, inside aev_plugin_register_v1, before config_get. */
  aev_status (*register_setting)(aev_registrar *reg, const aev_setting_v1 *setting);
} aev_host_api;

/* ------------------------------------------------------------------ entry points */

/* Who the plugin is and which ABI it was built against. Returned by
 * aev_plugin_manifest_v1 as a pointer to static data. */
typedef struct aev_plugin_manifest {
  uint32_t magic;       /* AEV_PLUGIN_MAGIC */
  uint32_t struct_size; /* sizeof(aev_plugin_manifest) as compiled into the plugin */
  uint16_t abi_major;   /* AEV_ABI_MAJOR as compiled into the plugin */
  uint16_t abi_minor;   /* AEV_ABI_MINOR as compiled into the plugin */
  uint32_t reserved;    /* 0 */
  const char *name;     /* [a-z0-9_]+, at most 64 bytes, unique per daemon; by convention
                           the file name without ".so", e.g. "detector_builtin" */
  const char *version;  /* the plugin's own version, e.g. "1.2.0" */
  const char *vendor;   /* who ships it; may be NULL */
  const char *support_url; /* may be NULL */
} aev_plugin_manifest;

/* Static initialiser for the fields the plugin does not choose. */
#define AEV_MANIFEST_HEADER \
  AEV_PLUGIN_MAGIC, (uint32_t)sizeof(aev_plugin_manifest), AEV_ABI_MAJOR, AEV_ABI_MINOR, 0

/* The two symbols a plugin exports (functions, not data: dlsym is only portable for
 * functions). Nothing else needs to be visible; aev_add_plugin() hides the rest. */

/* Returns the manifest. Must not run any other code: the host calls it before deciding
 * whether the plugin is compatible.
 * OWNERSHIP: the manifest and its strings are plugin-owned static data.
 * THREADING: start-up thread, before anything else in the plugin. */
AEV_EXPORT const aev_plugin_manifest *aev_plugin_manifest_v1(void);

/* Registers the plugin's components with api->register_*. May read the plugin's own
 * configuration (api->config_get) and refuse it: return AEV_ERR_CONFIG and explain with
 * api->call_error(call, ...); the daemon then does not start. Any other non-OK result
 * refuses the plugin. The host keeps `api` and `host` valid for the life of the process.
 * OWNERSHIP: all arguments are host-owned; reg and call are valid only during the call.
 * THREADING: start-up thread, once per process, before any other thread calls the
 * plugin. */
AEV_EXPORT aev_status aev_plugin_register_v1(const aev_host_api *api, aev_host *host,
                                             aev_registrar *reg, aev_call *call);

/* Names of the entry points, for hosts and tools. */
#define AEV_PLUGIN_MANIFEST_SYMBOL "aev_plugin_manifest_v1"
#define AEV_PLUGIN_REGISTER_SYMBOL "aev_plugin_register_v1"

typedef const aev_plugin_manifest *(*aev_plugin_manifest_fn)(void);
typedef aev_status (*aev_plugin_register_fn)(const aev_host_api *api, aev_host *host,
                                             aev_registrar *reg, aev_call *call);

/* ------------------------------------------------------------------ frozen 1.0 layout */

/* The smallest struct_size a reader accepts: the size of each struct in ABI 1.0. A writer
 * built against a later minor declares a larger size; a reader built against an older
 * minor reads the prefix it knows and ignores the rest. */
#define AEV_MANIFEST_SIZE_1_0 AEV_SIZE_THROUGH(aev_plugin_manifest, support_url)
#define AEV_HOST_API_SIZE_1_0 AEV_SIZE_THROUGH(aev_host_api, call_retry_after)
#define AEV_SCAN_INPUT_SIZE_1_0 AEV_SIZE_THROUGH(aev_scan_input, field_path)
#define AEV_MATCH_SIZE_1_0 AEV_SIZE_THROUGH(aev_match, label)
#define AEV_EXPORT_INPUT_SIZE_1_0 AEV_SIZE_THROUGH(aev_export_input, event_count)
#define AEV_KEY_INPUT_SIZE_1_0 AEV_SIZE_THROUGH(aev_key_input, parameter)
#define AEV_DETECTOR_V1_SIZE_1_0 AEV_SIZE_THROUGH(aev_detector_v1, scan)
#define AEV_EXPORTER_V1_SIZE_1_0 AEV_SIZE_THROUGH(aev_exporter_v1, close)
#define AEV_ALERT_SINK_V1_SIZE_1_0 AEV_SIZE_THROUGH(aev_alert_sink_v1, close)
#define AEV_DIMENSION_V1_SIZE_1_0 AEV_SIZE_THROUGH(aev_dimension_v1, key)
#define AEV_SETTING_V1_SIZE_1_1 AEV_SIZE_THROUGH(aev_setting_v1, reserved)

/* The 1.0 layout on LP64 (x86-64, AArch64 Linux), checked wherever this header is
 * compiled as C11 or C++11 and later. A failing assertion here means an edit moved a 1.0
 * field: that breaks every plugin already built, so append instead. */
#if defined(__cplusplus) && __cplusplus >= 201103L
#define AEV_FROZEN(cond, what) static_assert(cond, what)
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#define AEV_FROZEN(cond, what) _Static_assert(cond, what)
#endif
#if defined(AEV_FROZEN) && UINTPTR_MAX == UINT64_MAX
#define AEV_FROZEN_AT(type, field, offset) \
  AEV_FROZEN(offsetof(type, field) == (offset), "ABI 1.0 layout: " #type "." #field " moved")
#define AEV_FROZEN_SIZE(macro, size) AEV_FROZEN((macro) == (size), "ABI 1.0 layout: " #macro " changed")
AEV_FROZEN(sizeof(aev_str) == 16 && offsetof(aev_str, len) == 8, "ABI 1.0 layout: aev_str changed");
AEV_FROZEN(sizeof(aev_status) == 4 && sizeof(aev_target) == 4 && sizeof(aev_signal) == 4,
           "ABI 1.0 layout: enums are int32_t");

AEV_FROZEN_SIZE(AEV_MANIFEST_SIZE_1_0, 48);
AEV_FROZEN_AT(aev_plugin_manifest, magic, 0);
AEV_FROZEN_AT(aev_plugin_manifest, struct_size, 4);
AEV_FROZEN_AT(aev_plugin_manifest, abi_major, 8);
AEV_FROZEN_AT(aev_plugin_manifest, abi_minor, 10);
AEV_FROZEN_AT(aev_plugin_manifest, reserved, 12);
AEV_FROZEN_AT(aev_plugin_manifest, name, 16);
AEV_FROZEN_AT(aev_plugin_manifest, version, 24);
AEV_FROZEN_AT(aev_plugin_manifest, vendor, 32);
AEV_FROZEN_AT(aev_plugin_manifest, support_url, 40);

AEV_FROZEN_SIZE(AEV_SCAN_INPUT_SIZE_1_0, 56);
AEV_FROZEN_AT(aev_scan_input, struct_size, 0);
AEV_FROZEN_AT(aev_scan_input, target, 4);
AEV_FROZEN_AT(aev_scan_input, text, 8);
AEV_FROZEN_AT(aev_scan_input, event_type, 24);
AEV_FROZEN_AT(aev_scan_input, field_path, 40);

AEV_FROZEN_SIZE(AEV_MATCH_SIZE_1_0, 48);
AEV_FROZEN_AT(aev_match, struct_size, 0);
AEV_FROZEN_AT(aev_match, reserved, 4);
AEV_FROZEN_AT(aev_match, start, 8);
AEV_FROZEN_AT(aev_match, end, 16);
AEV_FROZEN_AT(aev_match, score, 24);
AEV_FROZEN_AT(aev_match, label, 32);

AEV_FROZEN_SIZE(AEV_EXPORT_INPUT_SIZE_1_0, 32);
AEV_FROZEN_AT(aev_export_input, struct_size, 0);
AEV_FROZEN_AT(aev_export_input, signal, 4);
AEV_FROZEN_AT(aev_export_input, events_json, 8);
AEV_FROZEN_AT(aev_export_input, event_count, 24);

AEV_FROZEN_SIZE(AEV_KEY_INPUT_SIZE_1_0, 40);
AEV_FROZEN_AT(aev_key_input, struct_size, 0);
AEV_FROZEN_AT(aev_key_input, reserved, 4);
AEV_FROZEN_AT(aev_key_input, event_json, 8);
AEV_FROZEN_AT(aev_key_input, parameter, 24);

/* The four vtables share their first six fields. */
#define AEV_FROZEN_VTABLE_HEAD(type)           \
  AEV_FROZEN_AT(type, struct_size, 0);         \
  AEV_FROZEN_AT(type, flags, 4);               \
  AEV_FROZEN_AT(type, name, 8);                \
  AEV_FROZEN_AT(type, description, 16);        \
  AEV_FROZEN_AT(type, config_schema_json, 24); \
  AEV_FROZEN_AT(type, component_data, 32)

AEV_FROZEN_SIZE(AEV_DETECTOR_V1_SIZE_1_0, 72);
AEV_FROZEN_VTABLE_HEAD(aev_detector_v1);
AEV_FROZEN_AT(aev_detector_v1, targets, 40);
AEV_FROZEN_AT(aev_detector_v1, reserved, 44);
AEV_FROZEN_AT(aev_detector_v1, create, 48);
AEV_FROZEN_AT(aev_detector_v1, destroy, 56);
AEV_FROZEN_AT(aev_detector_v1, scan, 64);

AEV_FROZEN_SIZE(AEV_EXPORTER_V1_SIZE_1_0, 72);
AEV_FROZEN_VTABLE_HEAD(aev_exporter_v1);
AEV_FROZEN_AT(aev_exporter_v1, signals, 40);
AEV_FROZEN_AT(aev_exporter_v1, reserved, 44);
AEV_FROZEN_AT(aev_exporter_v1, open, 48);
AEV_FROZEN_AT(aev_exporter_v1, export_batch, 56);
AEV_FROZEN_AT(aev_exporter_v1, close, 64);

AEV_FROZEN_SIZE(AEV_ALERT_SINK_V1_SIZE_1_0, 64);
AEV_FROZEN_VTABLE_HEAD(aev_alert_sink_v1);
AEV_FROZEN_AT(aev_alert_sink_v1, open, 40);
AEV_FROZEN_AT(aev_alert_sink_v1, deliver, 48);
AEV_FROZEN_AT(aev_alert_sink_v1, close, 56);

AEV_FROZEN_SIZE(AEV_DIMENSION_V1_SIZE_1_0, 64);
AEV_FROZEN_VTABLE_HEAD(aev_dimension_v1);
AEV_FROZEN_AT(aev_dimension_v1, create, 40);
AEV_FROZEN_AT(aev_dimension_v1, destroy, 48);
AEV_FROZEN_AT(aev_dimension_v1, key, 56);

AEV_FROZEN_SIZE(AEV_HOST_API_SIZE_1_0, 128);
AEV_FROZEN_AT(aev_host_api, struct_size, 0);
AEV_FROZEN_AT(aev_host_api, abi_major, 4);
AEV_FROZEN_AT(aev_host_api, abi_minor, 6);
AEV_FROZEN_AT(aev_host_api, log, 8);
AEV_FROZEN_AT(aev_host_api, log_enabled, 16);
AEV_FROZEN_AT(aev_host_api, config_get, 24);
AEV_FROZEN_AT(aev_host_api, metric_counter, 32);
AEV_FROZEN_AT(aev_host_api, metric_add, 40);
AEV_FROZEN_AT(aev_host_api, register_detector, 48);
AEV_FROZEN_AT(aev_host_api, register_exporter, 56);
AEV_FROZEN_AT(aev_host_api, register_alert_sink, 64);
AEV_FROZEN_AT(aev_host_api, register_dimension, 72);
AEV_FROZEN_AT(aev_host_api, call_error, 80);
AEV_FROZEN_AT(aev_host_api, call_deadline_ms, 88);
AEV_FROZEN_AT(aev_host_api, call_add_match, 96);
AEV_FROZEN_AT(aev_host_api, call_set_key, 104);
AEV_FROZEN_AT(aev_host_api, call_response, 112);
AEV_FROZEN_AT(aev_host_api, call_retry_after, 120);
#undef AEV_FROZEN_VTABLE_HEAD
#undef AEV_FROZEN_SIZE
#undef AEV_FROZEN_AT
#endif /* LP64 */
#undef AEV_FROZEN

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* AGENTEVENTS_PLUGIN_ABI_H */
