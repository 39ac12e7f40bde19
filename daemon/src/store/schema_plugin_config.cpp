// v17: per-use plugin configuration (docs/plugins.md#per-use-configuration) and scores that
// matter. An export destination's config, an alert rule's destination config and a
// moderation rule's detector config are JSON objects whose secret keys are stored sealed
// ({"$sealed": "sbx1:..."}, plugins/instance_config.h). A rule's min_score drops plugin
// matches scored below it; a violation keeps each match's detector, label and score.
#include "store/schema_parts.h"

namespace aev::store {

Migration pluginConfigMigration(Dialect) {
  Migration m{17, "plugin_config", {}};
  for (const char* statement : {
           "ALTER TABLE export_destinations ADD COLUMN config TEXT NOT NULL DEFAULT '{}'",
           "ALTER TABLE alert_rules ADD COLUMN destination_config TEXT",
           "ALTER TABLE moderation_rules ADD COLUMN detector_config TEXT",
           "ALTER TABLE moderation_rules ADD COLUMN min_score DOUBLE PRECISION",
           // A JSON array of {detector, label, score}; NULL for violations stored before v17.
           "ALTER TABLE moderation_violations ADD COLUMN matches TEXT",
       })
    m.statements.push_back(statement);
  return m;
}

}  // namespace aev::store
