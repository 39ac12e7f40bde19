#pragma once
// The tools this endpoint serves, in a fixed order (tools/list is one deterministic page).
#include <string>
#include <vector>

#include "mcp/tool.h"

namespace aev::mcp {

class ToolRegistry {
 public:
  // Every tool of every group (tools_*.cpp).
  static ToolRegistry standard();

  void add(Tool tool);  // throws std::logic_error on a bad or repeated name
  const Tool* find(const std::string& name) const;
  const std::vector<Tool>& tools() const { return tools_; }
  // The tools/list result: name, title, description, inputSchema, outputSchema, annotations.
  JsonObject listResult() const;

 private:
  std::vector<Tool> tools_;
};

// One function per tool group, each in its own file.
void addContextTools(ToolRegistry& r);     // get_context, list_channels
void addEventTools(ToolRegistry& r);       // search_events, get_event
void addTraceTools(ToolRegistry& r);       // list_traces, get_trace_summary, get_trace_events
void addSessionTools(ToolRegistry& r);     // list_sessions, get_session
void addAnalyticsTools(ToolRegistry& r);   // analytics_breakdown, _dimensions, _timeseries, _latency
void addAlertTools(ToolRegistry& r);       // list_alerts
void addModerationTools(ToolRegistry& r);  // list_moderation_violations, moderation_efficacy
void addSpendTools(ToolRegistry& r);       // spend_status

}  // namespace aev::mcp
